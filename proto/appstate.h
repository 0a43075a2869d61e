/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appstate.h -- app-state sync ("syncd", protocol-features.md 2.1-2.8,
 * protocol.md 13): the five collections, the mutation keys, the per-record
 * crypto (AES-256-CBC value, HMAC-SHA512 value MAC, HMAC-SHA256 index MAC),
 * the LTHash over the live value MACs, the snapshot and patch MACs, the
 * parsers of SyncdPatch, SyncdSnapshot, SyncdMutations and
 * ExternalBlobReference, the verified application of a patch or snapshot
 * to a collection's state, the decoding of each record into a typed
 * action, and the encoding of our own mutations into a SyncdPatch.
 *
 * Pure code: no I/O, no clock (now is passed in), no randomness (the IVs
 * are passed in), no store (the caller's lookups are passed in as
 * callbacks).  Every function is callable from any thread once
 * wa_crypto_init() (proto/crypto.h) has returned; a struct belongs to one
 * thread at a time.  Nothing here logs: no key, MAC or action text ever
 * leaves except through the caller's structs.
 *
 * Memory: everything a parser or wa_as_apply() gives back lives in the
 * struct arena the caller passes (base/arena.h) and is freed with it;
 * strings in it are NUL-terminated UTF-8 exactly as they came (not
 * sanitised: pass them through base/sanitize.h before they reach a
 * terminal).  The encoders write into a struct buf (base/buf.h) the caller
 * owns; wa_as_action_encode()'s *index_json is malloc'd, the caller's to
 * free().
 *
 * Errors are base/err.h codes.  Across the module:
 *   WC_EPROTO, WC_ETRUNC, WC_EDEPTH  malformed protobuf or a field of the
 *                                   wrong size (wa_pb_check() runs first);
 *   WC_ETOOBIG                       more records, or a longer field, than
 *                                   the limits below;
 *   WC_EASNOKEY                      a key ID the caller's key lookup does
 *                                   not have (request it, 2.3);
 *   WC_EASHASH                       the LTHash and version do not give the
 *                                   snapshot MAC the wire carries;
 *   WC_EASPATCHMAC                   the patch MAC does not verify;
 *   WC_ECRYPTO                       OpenSSL failed (out of memory).
 * Out of memory inside the arena or a buf aborts (base/xmalloc.h), as
 * everywhere in the project.
 */
#ifndef WA_APPSTATE_H
#define WA_APPSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/compat.h"
#include "base/err.h"

/* Collections (2.1), in the order they are fetched ([WM] AllPatchNames). */
enum wa_as_coll {
	WA_AS_CRITICAL_BLOCK,		/* "critical_block" */
	WA_AS_CRITICAL_UNBLOCK_LOW,	/* "critical_unblock_low" */
	WA_AS_REGULAR_HIGH,		/* "regular_high" */
	WA_AS_REGULAR_LOW,		/* "regular_low" */
	WA_AS_REGULAR,			/* "regular" */
	WA_AS_NCOLL
};

#define WA_AS_MAC_LEN		32	/* index MAC, value MAC, patch MACs */
#define WA_AS_HASH_LEN		128	/* LTHash: 64 little-endian uint16 */
#define WA_AS_IV_LEN		16	/* AES-256-CBC IV in value.blob */
#define WA_AS_KEY_ID_MAX	64	/* KeyId.ID bytes we accept (7: not
					 * established; seen: 6) */
#define WA_AS_KEY_DATA_MAX	256	/* AppStateSyncKeyData.keyData bytes
					 * (32 in practice, [RS] keys.rs) */
/* Records of one patch (inline or external) and of one snapshot. */
#define WA_AS_MAX_PATCH_RECORDS	 20000
#define WA_AS_MAX_SNAPSHOT_RECORDS 500000
/* The protobuf bytes wa_as_*_parse() read: a patch, a snapshot blob, an
 * external mutations blob. */
#define WA_AS_MAX_BLOB_LEN	(256u << 20)
/* value.blob: iv(16) + ciphertext (at least one block) + MAC(32). */
#define WA_AS_VALUE_MIN_LEN	(WA_AS_IV_LEN + 16 + WA_AS_MAC_LEN)
#define WA_AS_VALUE_MAX_LEN	(1u << 20)	/* one record's value.blob */
/* The index JSON (2.1): bytes, elements, and nesting (an array of
 * strings: depth 1; anything nested is refused). */
#define WA_AS_INDEX_MAX_LEN	4096
#define WA_AS_INDEX_MAX_PARTS	16
#define WA_AS_INDEX_MAX_DEPTH	1

/* SyncdMutation.operation; opByte of the value MAC = op + 1 (2.5). */
#define WA_AS_SET	0
#define WA_AS_REMOVE	1

/*
 * The collection's wire name ("regular_high", ...), a static string; NULL
 * when c is not one of the five.
 */
const char	*wa_as_coll_name(enum wa_as_coll c);

/* The collection named name (NUL-terminated), or -1 when it is none of the
 * five (exact, case-sensitive match). */
int		 wa_as_coll_find(const char *name);

/* ---- Keys and per-record crypto (2.5, 2.6) ---- */

/* The five keys of one app-state sync key (2.5). */
struct wa_as_keys {
	uint8_t	index[32];		/* indexKey: HMAC-SHA256 of the index */
	uint8_t	value_enc[32];		/* valueEncryptionKey: AES-256-CBC */
	uint8_t	value_mac[32];		/* valueMacKey: HMAC-SHA512 */
	uint8_t	snapshot_mac[32];	/* snapshotMacKey */
	uint8_t	patch_mac[32];		/* patchMacKey */
};

/*
 * out = HKDF-SHA256(ikm = key_data[0..len), salt = empty, info =
 * "WhatsApp Mutation Keys", L = 160) split in five (2.5).  Returns 0.
 * Errors: -EINVAL (len 0 or above WA_AS_KEY_DATA_MAX); out untouched.
 * Wipe out with wa_crypto_wipe() when done.
 */
MUST_CHECK int	wa_as_keys_expand(const uint8_t *key_data, size_t len,
		    struct wa_as_keys *out);

/*
 * LTHash "WhatsApp Patch Integrity" (2.6): e = HKDF-SHA256(ikm =
 * value_mac, salt = empty, info = "WhatsApp Patch Integrity", L = 128);
 * hash and e as 64 little-endian uint16, added (or subtracted) element by
 * element mod 2^16, in place.  Add and subtract are inverse and commute.
 */
void		wa_lthash_add(uint8_t hash[WA_AS_HASH_LEN],
		    const uint8_t value_mac[WA_AS_MAC_LEN]);
void		wa_lthash_sub(uint8_t hash[WA_AS_HASH_LEN],
		    const uint8_t value_mac[WA_AS_MAC_LEN]);

/* out = HMAC-SHA256(k->index, index[0..len)): the index MAC, which is
 * SyncdIndex.blob (2.5). */
void		wa_as_index_mac(const struct wa_as_keys *k, const void *index,
		    size_t len, uint8_t out[WA_AS_MAC_LEN]);

/*
 * out = HMAC-SHA512(k->value_mac, (op + 1) ‖ key_id[0..key_id_len) ‖
 * iv_ct[0..len) ‖ uint64_BE(key_id_len + 1))[0:32] (2.5), iv_ct being
 * value.blob without its last 32 bytes.  op is WA_AS_SET or WA_AS_REMOVE.
 */
void		wa_as_value_mac(const struct wa_as_keys *k, int op,
		    const uint8_t *key_id, size_t key_id_len,
		    const uint8_t *iv_ct, size_t len,
		    uint8_t out[WA_AS_MAC_LEN]);

/* out = HMAC-SHA256(k->snapshot_mac, hash ‖ uint64_BE(version) ‖
 * wa_as_coll_name(c)) (2.6); c must be one of the five. */
void		wa_as_snapshot_mac(const struct wa_as_keys *k,
		    const uint8_t hash[WA_AS_HASH_LEN], uint64_t version,
		    enum wa_as_coll c, uint8_t out[WA_AS_MAC_LEN]);

/* out = HMAC-SHA256(k->patch_mac, snapshot_mac ‖ value_macs[0..32 n) ‖
 * uint64_BE(version) ‖ wa_as_coll_name(c)) (2.6): value_macs are the n
 * records' value MACs, concatenated in mutation order, REMOVEs included. */
void		wa_as_patch_mac(const struct wa_as_keys *k,
		    const uint8_t snapshot_mac[WA_AS_MAC_LEN],
		    const uint8_t *value_macs, size_t n, uint64_t version,
		    enum wa_as_coll c, uint8_t out[WA_AS_MAC_LEN]);

/* ---- A collection's state and the caller's lookups ---- */

/* One collection's state (2.6): zero version and zero hash at start.  The
 * map index MAC -> value MAC of its live records is the caller's (store),
 * read through wa_as_mac_fn and updated from struct wa_as_change. */
struct wa_as_state {
	uint64_t	version;
	uint8_t		hash[WA_AS_HASH_LEN];
};

/*
 * The caller's key lookup: fill *out with the expanded keys of the
 * app-state sync key key_id[0..len) (wa_as_keys_expand() of its keyData).
 * Returns 1 found, 0 missing, < 0 an error (a store failure), which
 * wa_as_apply() returns as is.  Called on the thread of wa_as_apply().
 */
typedef int	(*wa_as_key_fn)(void *arg, const uint8_t *key_id, size_t len,
		    struct wa_as_keys *out);

/*
 * The caller's stored map: copy the value MAC stored for index_mac in
 * collection c into value_mac_out.  Returns 1 found, 0 none, < 0 an error
 * (returned as is).  Called on the thread of wa_as_apply().
 */
typedef int	(*wa_as_mac_fn)(void *arg, enum wa_as_coll c,
		    const uint8_t index_mac[WA_AS_MAC_LEN],
		    uint8_t value_mac_out[WA_AS_MAC_LEN]);

/* ---- Actions (2.1, 2.2, 2.8) ---- */

enum wa_as_action_kind {
	WA_AS_ACT_UNKNOWN,	/* an index we do not know: value_plain kept */
	WA_AS_ACT_CONTACT,	/* ["contact", jid]: full_name, first_name,
				 * lid, pn */
	WA_AS_ACT_LID_CONTACT,	/* ["lid_contact", lid]: full_name,
				 * first_name */
	WA_AS_ACT_PUSH_NAME,	/* ["setting_pushName"]: push_name */
	WA_AS_ACT_MUTE,		/* ["mute", chat]: flag, mute_end_ms */
	WA_AS_ACT_PIN,		/* ["pin_v1", chat]: flag (pinned) */
	WA_AS_ACT_ARCHIVE,	/* ["archive", chat]: flag, range_last_s */
	WA_AS_ACT_MARK_READ,	/* ["markChatAsRead", chat]: flag (read; false
				 * = marked unread), range_last_s */
	WA_AS_ACT_STAR,		/* ["star", chat, id, fromMe, participant]:
				 * flag (starred) */
	WA_AS_ACT_DELETE_MSG_FOR_ME, /* ["deleteMessageForMe", chat, id,
				 * fromMe, participant]: delete_media,
				 * msg_ts_s */
	WA_AS_ACT_CLEAR_CHAT,	/* ["clearChat", chat, deleteStarred,
				 * deleteMedia]: range_last_s */
	WA_AS_ACT_DELETE_CHAT,	/* ["deleteChat", chat, deleteMedia]:
				 * range_last_s */
	WA_AS_ACT_LOCK,		/* ["lock", chat]: flag (locked) */
	WA_AS_ACT_UNARCHIVE_SETTING, /* ["setting_unarchiveChats"]: flag */
	WA_AS_ACT_PN_FOR_LID,	/* ["pnForLidChat", lid]: chat = lid, pn */
	WA_AS_ACT_USER_STATUS_MUTE, /* ["userStatusMute", jid]: flag */
	WA_AS_ACT_IGNORED,	/* known, meaningless to us: setting_locale,
				 * nct_salt_sync, time_format,
				 * primary_version, sentinel, label_*,
				 * setting_disableLinkPreviews */
	WA_AS_ACT_NKIND
};

/*
 * One action, decoded (wa_as_apply()) or to encode
 * (wa_as_action_encode()).  Strings: NUL-terminated UTF-8, NULL when
 * absent; decoded ones live in the arena.
 */
struct wa_as_action {
	enum wa_as_action_kind kind;
	int		 version;	/* SyncActionData.version (2.1) */
	int64_t		 ts_ms;		/* SyncActionValue.timestamp, ms */
	const char	*chat;		/* index[1]: chat / contact JID */
	const char	*msg_id;	/* index[2] of star, deleteMessageForMe */
	bool		 from_me;	/* index[3] == "1" of those */
	const char	*participant;	/* index[4]; NULL when "0" */
	bool		 flag;		/* muted, pinned, archived, read,
					 * starred, locked, unarchiveChats */
	int64_t		 mute_end_ms;	/* -1 forever, 0 none (not muted),
					 * else until then, ms; muted with
					 * no end on the wire reads -1 */
	const char	*full_name;	/* contact, lid_contact */
	const char	*first_name;	/* contact, lid_contact */
	const char	*lid;		/* contact's lidJID */
	const char	*pn;		/* contact's pnJID, pnForLidChat pnJID */
	const char	*push_name;	/* setting_pushName name */
	bool		 delete_media;	/* deleteChat [2], clearChat [3],
					 * deleteMessageForMe deleteMedia */
	bool		 delete_starred; /* clearChat [2] */
	int64_t		 msg_ts_s;	/* deleteMessageForMe messageTimestamp */
	int64_t		 range_last_s;	/* messageRange.lastMessageTimestamp,
					 * s; 0 none */
};

/* ---- Parsing (2.4) ---- */

/* A record as it came: pointers into the arena.  The parsers check the
 * sizes: index exactly 32 bytes, value WA_AS_VALUE_MIN_LEN ..
 * WA_AS_VALUE_MAX_LEN with whole AES blocks, key ID 1 ..
 * WA_AS_KEY_ID_MAX bytes; a record that breaks one fails the parse
 * (WC_EPROTO): without its MAC no hash can be computed. */
struct wa_as_record {
	int		 op;		/* WA_AS_SET / _REMOVE; SET in a
					 * snapshot */
	const uint8_t	*index_mac;	/* SyncdIndex.blob, 32 bytes */
	const uint8_t	*value;		/* SyncdValue.blob */
	size_t		 value_len;
	const uint8_t	*key_id;	/* SyncdRecord.keyID.ID */
	size_t		 key_id_len;
};

/* ExternalBlobReference (2.4): download and decrypt it like media with
 * WA_MEDIA_INFO_APP_STATE (proto/media.h).  Absent fields: NULL / 0. */
struct wa_as_blobref {
	const uint8_t	*media_key;	/* mediaKey */
	size_t		 media_key_len;
	char		*direct_path;	/* directPath */
	char		*handle;
	uint64_t	 size;		/* fileSizeBytes */
	const uint8_t	*sha256;	/* fileSHA256 */
	size_t		 sha256_len;
	const uint8_t	*enc_sha256;	/* fileEncSHA256 */
	size_t		 enc_sha256_len;
};

struct wa_as_patch {
	bool		 has_version;	/* false: use state version + 1 ([BL]) */
	uint64_t	 version;	/* SyncdPatch.version.version */
	const uint8_t	*key_id;	/* keyID.ID: the key of the two MACs */
	size_t		 key_id_len;
	uint8_t		 snapshot_mac[WA_AS_MAC_LEN];
	uint8_t		 patch_mac[WA_AS_MAC_LEN];
	bool		 has_macs;	/* both MACs present (32 bytes each) */
	struct wa_as_record *records;	/* inline mutations, in order */
	size_t		 n_records;
	struct wa_as_blobref *external;	/* externalMutations; NULL none */
	bool		 has_exit_code;
	uint32_t	 exit_code;	/* exitCode.code */
	char		*exit_text;	/* exitCode.text */
	bool		 has_device_index;
	uint32_t	 device_index;
};

struct wa_as_snapshot {
	uint64_t	 version;	/* version.version */
	struct wa_as_record *records;	/* every op WA_AS_SET */
	size_t		 n_records;
	uint8_t		 mac[WA_AS_MAC_LEN];	/* the snapshot MAC */
	const uint8_t	*key_id;	/* keyID.ID */
	size_t		 key_id_len;
};

/*
 * Parse a SyncdPatch (the bytes of one <patch>, 2.4) of len bytes into
 * *out, everything in a.  Returns 0.  Errors: WC_ETOOBIG (len above
 * WA_AS_MAX_BLOB_LEN, more than WA_AS_MAX_PATCH_RECORDS mutations),
 * WC_EPROTO / WC_ETRUNC / WC_EDEPTH (malformed; a mutation without a
 * record, a record of the wrong sizes, a key ID missing or too long, one
 * MAC present without the other or not 32 bytes); *out untouched on
 * error (the arena may hold garbage until reset).
 */
MUST_CHECK int	wa_as_patch_parse(struct arena *a, const uint8_t *p,
		    size_t len, struct wa_as_patch *out);

/*
 * Parse a decrypted snapshot blob (SyncdSnapshot, 2.4): version, records
 * (each a SET), mac (32 bytes, required), key ID (required).  Returns 0.
 * Errors as wa_as_patch_parse() with WA_AS_MAX_SNAPSHOT_RECORDS.
 */
MUST_CHECK int	wa_as_snapshot_parse(struct arena *a, const uint8_t *p,
		    size_t len, struct wa_as_snapshot *out);

/*
 * Parse a decrypted external mutations blob (SyncdMutations, 2.4) into
 * *records[0..*n), which replace the patch's inline ones ([WM]).  Returns
 * 0.  Errors as wa_as_patch_parse().
 */
MUST_CHECK int	wa_as_mutations_parse(struct arena *a, const uint8_t *p,
		    size_t len, struct wa_as_record **records, size_t *n);

/*
 * Parse an ExternalBlobReference (a <snapshot> node's bytes, or one taken
 * from a patch) into *out.  Returns 0.  Errors: WC_EPROTO / WC_ETRUNC /
 * WC_EDEPTH, WC_ETOOBIG (len above 64 KiB).
 */
MUST_CHECK int	wa_as_blobref_parse(struct arena *a, const uint8_t *p,
		    size_t len, struct wa_as_blobref *out);

/* ---- Verification and application (2.5, 2.6) ---- */

/* One record, decoded. */
struct wa_as_mutation {
	int		 op;		/* WA_AS_SET / WA_AS_REMOVE */
	uint8_t		 index_mac[WA_AS_MAC_LEN];	/* as on the wire */
	uint8_t		 value_mac[WA_AS_MAC_LEN];	/* as on the wire */
	char		*index_json;	/* SyncActionData.index; NULL if err */
	struct wa_as_action action;	/* kind UNKNOWN when err != 0 */
	const uint8_t	*value_plain;	/* SyncActionData bytes (decrypted,
					 * unpadded); NULL if not decrypted */
	size_t		 value_len;
	/*
	 * 0, or why this record's content was not used: WC_EBADMAC (value
	 * MAC does not verify: nothing in it was decrypted), WC_EPADDING
	 * (bad PKCS#7 after a good MAC), WC_EPROTO / WC_ETRUNC / WC_EDEPTH
	 * (SyncActionData malformed, or the index JSON refused by
	 * wa_as_index_parse()), WC_EASINDEX (the index does not give the
	 * record's index MAC).  A record with err != 0 still counts, with
	 * its wire MACs, in the hash, the patch MAC and the changes: that
	 * is what the sender MAC'd, and the snapshot and patch MACs (keyed,
	 * checked over the whole patch) vouch for it; only its content is
	 * untrusted and dropped.  An unknown action is not an error (err
	 * 0, kind UNKNOWN).
	 */
	int		 err;
};

/* One change of the stored map, the net effect of a patch per index MAC
 * (in the order of each index MAC's last record): set (store index_mac -> value_mac) or
 * delete (set false: value_mac is zero). */
struct wa_as_change {
	uint8_t		 index_mac[WA_AS_MAC_LEN];
	uint8_t		 value_mac[WA_AS_MAC_LEN];
	bool		 set;
};

struct wa_as_apply_in {
	enum wa_as_coll	 coll;
	/* true: the records of a snapshot: start from version 0 and a zero
	 * hash whatever *state holds, treat every record as a SET with no
	 * previous value (mac_fn not called), no patch MAC. */
	bool		 snapshot;
	const struct wa_as_record *records;	/* in order */
	size_t		 n_records;
	const uint8_t	*key_id;	/* patch/snapshot keyID: the MAC keys */
	size_t		 key_id_len;
	/* The version after applying: the patch's (wa_as_patch.version, or
	 * state->version + 1 when it has none) or the snapshot's.  A patch
	 * version <= state->version is refused (WC_ESTATE: already
	 * applied). */
	uint64_t	 version;
	const uint8_t	*snapshot_mac;	/* 32 bytes: patch.snapshot_mac or
					 * snapshot.mac */
	const uint8_t	*patch_mac;	/* 32 bytes; ignored for a snapshot */
	wa_as_key_fn	 key_fn;
	void		*key_arg;
	wa_as_mac_fn	 mac_fn;	/* stored map; unused for a snapshot */
	void		*mac_arg;
};

struct wa_as_apply_out {
	struct wa_as_mutation *mutations;	/* n_records, in order */
	size_t		 n_mutations;
	struct wa_as_change *changes;	/* to persist with the new state */
	size_t		 n_changes;
	/* true for a snapshot: delete every stored MAC of the collection
	 * before storing changes. */
	bool		 reset;
	/* WC_EASNOKEY: the key ID to request (2.3). */
	uint8_t		 missing_key_id[WA_AS_KEY_ID_MAX];
	size_t		 missing_key_id_len;
};

/*
 * Verify and apply in->records to *state (2.6): per record, in order,
 * take the value MAC (last 32 bytes of value.blob), subtract the previous
 * value of the same index MAC (searched first among the earlier records
 * of this call, nearest first: a SET is subtracted, a REMOVE means none;
 * then in the stored map through mac_fn; a REMOVE with no previous value
 * is no error), add it if a SET; then check wa_as_snapshot_mac(new hash,
 * version) against in->snapshot_mac and (patch) wa_as_patch_mac() against
 * in->patch_mac, both with the keys of in->key_id.  Each record is
 * decoded (value MAC with its own key ID's keys, decrypt, SyncActionData,
 * index MAC, index JSON, action) into out->mutations; a bad record is
 * reported in its err (struct wa_as_mutation) and the rest go on.
 *
 * On success returns 0, sets *state to the new version and hash, and
 * fills *out (in a).  On error *state is untouched, and so must the
 * caller's store be; out->missing_key_id is set for WC_EASNOKEY, the rest
 * of *out is meaningless.  Errors:
 *   WC_EASNOKEY     key_fn has no key for in->key_id or for a record's
 *                   key ID (the whole call waits for the key: applying
 *                   without it would lose the record for good);
 *   WC_EASHASH      snapshot MAC mismatch (hash or version differ);
 *   WC_EASPATCHMAC  patch MAC mismatch (both: discard the collection's
 *                   state and fetch a snapshot, 2.6);
 *   WC_ESTATE       a patch version <= state->version;
 *   WC_EPROTO       no key ID or one above WA_AS_KEY_ID_MAX, no
 *                   snapshot MAC (or, for a patch, patch MAC);
 *   WC_ETOOBIG      more than WA_AS_MAX_PATCH_RECORDS records in a patch,
 *                   WA_AS_MAX_SNAPSHOT_RECORDS in a snapshot;
 *   -EINVAL         coll not one of the five, key_fn NULL, mac_fn NULL
 *                   for a patch, records NULL with n_records > 0;
 *   WC_ECRYPTO;     and any < 0 from key_fn or mac_fn, as is.
 * The records must come from the parsers (their sizes are checked
 * there, not again here).
 */
MUST_CHECK int	wa_as_apply(struct arena *a, const struct wa_as_apply_in *in,
		    struct wa_as_state *state, struct wa_as_apply_out *out);

/* ---- Our own mutations (2.7) ---- */

/* The collection (2.1) that carries an action of kind k, or -1 for
 * UNKNOWN and IGNORED (which have none, or several). */
int		 wa_as_action_coll(enum wa_as_action_kind k);

/* The SyncActionData.version (2.1) of kind k, 0 for UNKNOWN and
 * IGNORED. */
int		 wa_as_action_version(enum wa_as_action_kind k);

/*
 * Encode a (kind MUTE, PIN, ARCHIVE, MARK_READ, STAR, DELETE_CHAT,
 * CLEAR_CHAT, DELETE_MSG_FOR_ME, CONTACT or PUSH_NAME; a->version is
 * ignored, wa_as_action_version() is used) as SyncActionData{index,
 * value{timestamp = now_ms, action}, version} appended to *out, and its
 * index JSON (NUL-terminated, malloc'd, the caller's to free()) in
 * *index_json.  Fields used: as listed at each kind; chat (required
 * except for PUSH_NAME, whose push_name is required); msg_id required for
 * STAR and DELETE_MSG_FOR_ME; a NULL participant is written "0";
 * range_last_s > 0 adds messageRange{lastMessageTimestamp}.  MUTE with
 * flag: mute_end_ms (ms; -1 or 0: forever, sent as -1); without: no
 * end.  Returns 0.  Errors:
 * -EINVAL (kind not sendable, a required field NULL, a string not valid
 * UTF-8 or longer than the index allows: WA_AS_INDEX_MAX_LEN); *out and
 * *index_json untouched on error.
 */
MUST_CHECK int	wa_as_action_encode(const struct wa_as_action *a,
		    int64_t now_ms, struct buf *out, char **index_json);

/*
 * Decode SyncActionData bytes p[0..len) (as wa_as_action_encode() gives
 * them, or a record's decrypted value) into *out, its strings in a: the
 * kind from the index, the fields as wa_as_apply() decodes them (an
 * index or action we do not know: kind UNKNOWN, not an error).  Returns
 * 0.  Errors: -EINVAL (a or out NULL), WC_ETOOBIG (len above
 * WA_AS_VALUE_MAX_LEN), WC_EPROTO / WC_ETRUNC / WC_EDEPTH (malformed, no
 * index, or an index wa_as_index_parse() refuses); *out untouched on
 * error.  Used for our own mutations kept in the outbox (2.7).
 */
MUST_CHECK int	wa_as_action_decode(struct arena *a, const uint8_t *p,
		    size_t len, struct wa_as_action *out);

/* One mutation to send. */
struct wa_as_send {
	int		 op;		/* WA_AS_SET or WA_AS_REMOVE */
	const struct wa_as_action *action;	/* encoded as above */
	uint8_t		 iv[WA_AS_IV_LEN];	/* fresh random, the caller's */
};

/*
 * Build the SyncdPatch (2.7) of the n mutations m[0..n) for collection c
 * on *base with the key key_id[0..key_id_len) whose expanded keys are
 * *keys, timestamps now_ms: each record's index MAC, AES-256-CBC value
 * with m[i].iv, value MAC and keyID; the new hash from base->hash (previous
 * values as in wa_as_apply(), through mac_fn); new version base->version
 * + 1; snapshot MAC and patch MAC over them; no version field.  Appends
 * the patch bytes to *out_patch, sets *new_state (may equal base: it is
 * written last), and gives the map changes to persist once the server
 * accepts the patch in *changes[0..*n_changes) (in a).  Every action must
 * belong to collection c (wa_as_action_coll()).  Returns 0.  Errors:
 * -EINVAL (n 0 or above WA_AS_MAX_PATCH_RECORDS, an action of another
 * collection, key_id empty or above WA_AS_KEY_ID_MAX, c not one of the
 * five, and wa_as_action_encode()'s), WC_ECRYPTO, and < 0 from mac_fn;
 * nothing written on error.
 */
MUST_CHECK int	wa_as_patch_encode(struct arena *a,
		    const struct wa_as_keys *keys, const uint8_t *key_id,
		    size_t key_id_len, enum wa_as_coll c,
		    const struct wa_as_state *base, const struct wa_as_send *m,
		    size_t n, int64_t now_ms, wa_as_mac_fn mac_fn,
		    void *mac_arg, struct buf *out_patch,
		    struct wa_as_state *new_state,
		    struct wa_as_change **changes, size_t *n_changes);

/* ---- The index JSON (2.1) ---- */

/*
 * Parse the index JSON json[0..len): a JSON array of 0 ..
 * WA_AS_INDEX_MAX_PARTS strings, no whitespace, UTF-8 (no overlong forms
 * or surrogates), escapes \" \\ \/ \b \f \n \r \t \uXXXX (surrogate pairs
 * joined; \u0000 refused); anything else (a number, a nested array, a
 * trailing byte) is refused.  Gives the strings, decoded and
 * NUL-terminated, in *parts[0..*n) (in a).  Returns 0.  Errors:
 * WC_ETOOBIG (len above WA_AS_INDEX_MAX_LEN, too many parts), WC_EDEPTH
 * (a nested array or object), WC_EPROTO (anything else not allowed);
 * *parts and *n untouched on error.
 */
MUST_CHECK int	wa_as_index_parse(struct arena *a, const char *json,
		    size_t len, char ***parts, size_t *n);

/*
 * Append the index JSON of parts[0..n) to *out as JSON.stringify writes
 * it: no whitespace, \" and \\, \b \f \n \r \t, other bytes below 0x20 as
 * \u00xx (lower-case hex), everything else as is (no NUL appended).
 * Returns 0.  Errors: -EINVAL (n above WA_AS_INDEX_MAX_PARTS, a part not
 * valid UTF-8, the result longer than WA_AS_INDEX_MAX_LEN); *out
 * untouched on error.
 */
MUST_CHECK int	wa_as_index_encode(const char *const *parts, size_t n,
		    struct buf *out);

#endif
