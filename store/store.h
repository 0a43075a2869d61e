/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store.h -- wachat's SQLite database: every SQL statement lives in
 * store/.  It knows tables and rows (this device's keys, one-time prekeys),
 * not wire formats.  A struct store is one connection, used by one thread
 * at a time (the engine thread for the live path); it is opened in WAL mode
 * with synchronous=NORMAL.  Errors are negative codes (base/err.h); SQLite's
 * own codes never leave store/.
 */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_SCHEMA_VERSION	20	/* the newest migration store_open() knows */
#define STORE_KEY_LEN		32	/* a Curve25519 private or public key */
#define STORE_SIG_LEN		64	/* an XEdDSA signature */

struct store;

/*
 * Open (creating as needed) the database "wachat.db" in dir, which is
 * created with mode 0700 when missing (store/open.c, store/db.c).
 * Refuses a dir or database file whose mode grants any group or other
 * permission (-EPERM), a database written by a newer wachat (WC_ESCHEMA,
 * the file left untouched), and a damaged one, never touched nor taken
 * for a new one: WC_EDBEMPTY (0 bytes), WC_EDBNOTDB (not SQLite's
 * header), WC_EDBMALFORMED (a damaged page, found at open); -EROFS,
 * -EACCES, -ENOSPC when it cannot be written (store/backup.h); a dir
 * that cannot be read or created gives its negative errno.  A database
 * it creates and cannot set up is removed again.
 * Runs the numbered migrations up to STORE_SCHEMA_VERSION in one
 * transaction, then registers the after-commit hook of the search index
 * (see store_tx_commit()), counting the FTS backlog an earlier run left
 * (-EIO when it cannot be read).  dir NULL or ":memory:" opens a private
 * in-memory database (tests).  Returns 0 and *out, freed with
 * store_close(); *out untouched on error.  Any thread; the store then
 * belongs to it.
 */
MUST_CHECK int	store_open(const char *dir, struct store **out);

/* Close the database and free s (NULL is a no-op).  s's thread. */
void		store_close(struct store *s);

/* The schema version of an open store (for tests and diagnostics):
 * >= 0, or -EIO.  s's thread. */
int		store_schema_version(struct store *s);

/*
 * Transactions (store/tx.c).  They nest, and every function of the store
 * that writes more than one row runs in one of its own, so it is atomic
 * alone and also nests inside a caller's (the engine's "session advanced
 * + message stored", reliability.md rule 1; libsignal's store callbacks
 * inside one encrypt).  The thread that owns s (the engine thread for
 * the live path).
 */

/*
 * Open a transaction (BEGIN IMMEDIATE: the write lock is taken now, so a
 * writer on another connection delays it, within the busy timeout,
 * rather than failing it later), or, inside an open one, a nested level
 * (a SAVEPOINT): every write until the matching store_tx_commit() is
 * durable together or not at all.  Each begin needs its own commit or
 * rollback, innermost first.  Inside one, store calls that open their own
 * BEGIN IMMEDIATE transaction (store_prekey_put(), store_device_save(),
 * store_device_forget()) fail with -EIO.  Returns 0 or -EIO (also when
 * another connection held the write lock past the busy timeout, 5 s).
 */
MUST_CHECK int	store_tx_begin(struct store *s);
/*
 * Commit the innermost level (durable once the outermost commits).
 * Returns 0, or -ENOSPC (the disk is full: SQLITE_FULL, or an I/O error
 * with errno ENOSPC) or -EIO; a failed outermost COMMIT is rolled back
 * here when SQLite left it open (a rollback after it is a no-op that
 * returns 0).  After the outermost COMMIT has
 * succeeded, and before returning, it runs the after-commit hooks that
 * store_open() registered, outside any transaction: today one, the search
 * index's batch.  When 64 or more searchable rows were stored by
 * store_msg_insert_outgoing() or _incoming() on this connection since the
 * last batch (the backlog found at open counts too), it indexes up to 256
 * of the oldest rows of the FTS backlog in a transaction of its own, as
 * store_fts_catch_up() does (migration 8, perf.md R4), so that commit
 * also pays for the batch.  A hook's failure is logged, never returned:
 * the rows stay in the backlog, which searches read.  An inner level,
 * and a store_open_ro() connection, run no hook.
 */
MUST_CHECK int	store_tx_commit(struct store *s);
/* Undo every write since the matching begin and close that level; no
 * hook runs.  Returns 0 (also when SQLite rolled the transaction back
 * itself after a failed write) or -EIO. */
MUST_CHECK int	store_tx_rollback(struct store *s);

/*
 * Is there room to write again?  One small write transaction (the
 * counter row "disk_probe" set to now_ms, ms since the epoch), committed.
 * Returns 0, -ENOSPC (the disk is still full), -EBUSY (inside a
 * transaction: not probed) or -EIO.  s's thread.  Used after a commit
 * failed with -ENOSPC, every few seconds, to find out when space is back
 * (reliability.md, "Disk full").
 */
MUST_CHECK int	store_tx_probe(struct store *s, int64_t now_ms);

/*
 * This companion device's own key material, made once at registration
 * (protocol.md 3.2) and kept for the life of the link.
 */
struct store_device {
	uint8_t		 noise_priv[STORE_KEY_LEN];	/* Noise static key */
	uint8_t		 noise_pub[STORE_KEY_LEN];
	uint8_t		 identity_priv[STORE_KEY_LEN];	/* Signal identity */
	uint8_t		 identity_pub[STORE_KEY_LEN];
	uint32_t	 registration_id;		/* 14-bit in practice */
	uint8_t		 adv_secret[STORE_KEY_LEN];	/* the QR's ADV secret */
	uint32_t	 spk_id;			/* signed prekey id, 24-bit */
	uint8_t		 spk_priv[STORE_KEY_LEN];
	uint8_t		 spk_pub[STORE_KEY_LEN];
	uint8_t		 spk_sig[STORE_SIG_LEN];	/* over 05 || spk_pub */
	char		 jid[96];	/* own AD-JID once paired, else "" */
	char		 lid[96];	/* own LID AD-JID once paired, else "" */
	char		 push_name[128];/* may be "" */
	uint8_t		 account_sig_key[STORE_KEY_LEN]; /* ADV; zero until paired */
	uint8_t		*adv_identity;	/* ADVSignedDeviceIdentity bytes, or NULL */
	size_t		 adv_identity_len;
	bool		 unconfirmed;	/* paired, but no login has succeeded
					 * yet (column unconfirmed) */
};

/*
 * Load the device row into *out.  Returns 1 when there is one, 0 when the
 * store holds no device yet (*out untouched), or -EIO on a read error
 * (never "no device" on an error).  out->adv_identity, when not NULL, is
 * the caller's to free with store_device_release().
 */
MUST_CHECK int	store_device_load(struct store *s, struct store_device *out);

/* Insert or replace the device row, in one transaction.  Returns 0, -ENOSPC
 * (the disk is full) or -EIO. */
MUST_CHECK int	store_device_save(struct store *s, const struct store_device *d);

/* Wipe d's keys and free d->adv_identity. */
void		store_device_release(struct store_device *d);

/* Delete the device and every prekey (logged out), and mark the
 * database logged out (a counter row store_device_save() removes).
 * Returns 0 or -EIO. */
MUST_CHECK int	store_device_forget(struct store *s);
/*
 * Whether store_device_forget() left the database without a device (a
 * log-out: the chats stay, a new link of the same account may follow),
 * as against a device row lost otherwise.  Returns 1 (logged out), 0, or
 * -EIO.  The thread that owns s.
 */
MUST_CHECK int	store_device_logged_out(struct store *s);

/*
 * The WhatsApp Web version the engine last looked up (protocol.md 3.3),
 * kept as the revision N of 2.3000.N in the counter row 'wa_version', so
 * that the next start logs in with it instead of taking a 405 again.
 * store_wa_version_load(): 1 and *rev, 0 when none is kept (*rev
 * untouched), or -EIO.  store_wa_version_save(): 0, -ENOSPC (the disk
 * is full) or -EIO.  The thread that owns s.
 */
MUST_CHECK int	store_wa_version_load(struct store *s, uint32_t *rev);
MUST_CHECK int	store_wa_version_save(struct store *s, uint32_t rev);

/* A one-time prekey (protocol.md 7.3): id 1..0xFFFFFF. */
struct store_prekey {
	uint32_t	 id;
	uint8_t		 priv[STORE_KEY_LEN];
	uint8_t		 pub[STORE_KEY_LEN];
};

#define STORE_PREKEY_ID_MAX	0xFFFFFFu	/* 3 bytes on the wire */

/*
 * The id the next generated prekey takes: 1 in a new store, then one past
 * the last stored, wrapping from 0xFFFFFF to 1 (protocol.md 7.3).  Returns
 * 0 and *id, or -EIO.
 */
MUST_CHECK int	store_prekey_next_id(struct store *s, uint32_t *id);

/*
 * Store n prekeys and advance the next id past the last of them, in one
 * transaction with one prepared statement reused across rows, so keys are
 * durable before they are uploaded.  A key whose id is already stored
 * replaces nothing: the batch fails with -EEXIST and nothing is written
 * (an id the server may still hold is never given a second key).
 * Returns 0, -EEXIST, -EINVAL (an id of 0 or above 0xFFFFFF), -ENOSPC
 * (the disk is full) or -EIO.
 */
MUST_CHECK int	store_prekey_put(struct store *s, const struct store_prekey *keys,
		    size_t n);

/*
 * Load prekey id.  Returns 1 and *out when stored, 0 when not, or -EIO.
 */
MUST_CHECK int	store_prekey_get(struct store *s, uint32_t id,
		    struct store_prekey *out);

/* Delete prekey id (used by an incoming pkmsg).  Returns 0 or -EIO. */
MUST_CHECK int	store_prekey_remove(struct store *s, uint32_t id);

/*
 * Mark every stored prekey with id in [first, last] as uploaded (the
 * server acknowledged the upload).  Returns 0, -ENOSPC (the disk is
 * full) or -EIO.
 */
MUST_CHECK int	store_prekey_mark_uploaded(struct store *s, uint32_t first,
		    uint32_t last);

/*
 * Load up to max prekeys not yet uploaded, lowest id first, into out.
 * Returns their count (>= 0) or -EIO.  After a crash between storing and
 * uploading, these are the keys to upload again, unchanged.
 */
MUST_CHECK int	store_prekey_pending(struct store *s, struct store_prekey *out,
		    size_t max);

/* Count stored prekeys (uploaded or not).  Returns the count or -EIO. */
MUST_CHECK int	store_prekey_count(struct store *s);

/*
 * Signal state (store/signal.c, protocol.md 5.4, 16): libsignal's
 * serialized session and sender-key records, stored as opaque blobs, and
 * the identity keys of remote addresses.  An address is (name, device):
 * name is the NUL-terminated libsignal address name ("<user>" for PN,
 * "<user>_1" for LID, ...), at most STORE_SIGNAL_NAME_MAX bytes without
 * the NUL (longer names: -EINVAL); device is the JID's device.  Records
 * are at most STORE_SIGNAL_RECORD_MAX bytes (larger: -EINVAL on store,
 * -EIO on load).  Loads append the record to *out (a struct buf, src/
 * buf.h); records hold key material, so the caller wipes out->p.
 */
#define STORE_SIGNAL_NAME_MAX	128		/* bytes of an address name */
#define STORE_SIGNAL_RECORD_MAX	(1u << 20)	/* bytes of one record */

struct buf;

/*
 * Load the session record of (name, device), appended to *out.  Returns 1
 * when stored, 0 when not (*out untouched), -EINVAL (name too long), -EIO
 * (SQLite could not read it: never "none"), -ENOMEM, or WC_EBADRECORD
 * (the row was read but its record is NULL, empty or over
 * STORE_SIGNAL_RECORD_MAX: damaged, *out untouched; the caller
 * quarantines and rebuilds it, reliability.md 9).
 */
MUST_CHECK int	store_signal_session_load(struct store *s, const char *name,
		    uint32_t device, struct buf *out);
/* Insert or replace the session record rec[0..len) of (name, device).
 * Returns 0, -EINVAL (name too long, len 0 or too big) or -EIO. */
MUST_CHECK int	store_signal_session_store(struct store *s, const char *name,
		    uint32_t device, const uint8_t *rec, size_t len);
/* Returns 1 when (name, device) has a session record, 0 when not,
 * -EINVAL or -EIO. */
MUST_CHECK int	store_signal_session_contains(struct store *s,
		    const char *name, uint32_t device);
/* Delete the session of (name, device).  Returns 1 when one was
 * deleted, 0 when there was none, -EINVAL or -EIO. */
MUST_CHECK int	store_signal_session_delete(struct store *s, const char *name,
		    uint32_t device);
/* Delete the sessions of every device of name.  Returns how many were
 * deleted (>= 0), -EINVAL or -EIO. */
MUST_CHECK int	store_signal_session_delete_all(struct store *s,
		    const char *name);
/*
 * Write up to max device ids of name that have a session, lowest first,
 * to out.  Returns how many sessions name has in all (may exceed max:
 * only max are written), -EINVAL or -EIO.
 */
MUST_CHECK int	store_signal_session_devices(struct store *s, const char *name,
		    uint32_t *out, size_t max);

/*
 * Record the 32-byte identity key of (name, device) (without the 0x05
 * type byte), seen at now_ms (ms since the Unix epoch).  A first key is
 * stored with seen_ms = now_ms; a different key replaces the stored one
 * and sets changed_ms = now_ms (WhatsApp trusts a new key and tells the
 * user, protocol.md 11.2).  A stored key that is damaged (not 32 bytes)
 * is replaced like a different one (logged).  Returns 1 when a stored key
 * was replaced by a different or damaged one, 0 when the key is new or
 * unchanged, -EINVAL or -EIO.
 */
MUST_CHECK int	store_signal_identity_save(struct store *s, const char *name,
		    uint32_t device, const uint8_t key[STORE_KEY_LEN],
		    int64_t now_ms);
/*
 * Load the identity key of (name, device) into key, and when changed_ms
 * is not NULL the time it last changed (0: never).  Returns 1 when
 * stored, 0 when not (outputs untouched), -EINVAL, -EIO, or WC_EBADRECORD
 * (the stored key is not 32 bytes: damaged, outputs untouched).
 */
MUST_CHECK int	store_signal_identity_load(struct store *s, const char *name,
		    uint32_t device, uint8_t key[STORE_KEY_LEN],
		    int64_t *changed_ms);
/*
 * Delete the identity keys of every device of name (a contact's identity
 * changed, protocol.md 11.7: the next bundle's key is taken as new).
 * When changed_ms is not NULL it gets the latest changed_ms among the
 * deleted rows (0: none had changed, or none was stored).  Returns how
 * many were deleted (>= 0), -EINVAL or -EIO.
 */
MUST_CHECK int	store_signal_identity_delete_all(struct store *s,
		    const char *name, int64_t *changed_ms);

/*
 * Load the sender-key record of sender (name, device) in group_id (the
 * group's full JID, protocol.md 5.4), appended to *out.  group_id is at
 * most STORE_SIGNAL_NAME_MAX bytes.  Returns 1 when stored, 0 when not,
 * -EINVAL, -EIO, -ENOMEM, or WC_EBADRECORD (damaged, as for
 * store_signal_session_load()).
 */
MUST_CHECK int	store_signal_sender_key_load(struct store *s,
		    const char *group_id, const char *name, uint32_t device,
		    struct buf *out);
/* Insert or replace that record with rec[0..len).  Returns 0, -EINVAL or
 * -EIO. */
MUST_CHECK int	store_signal_sender_key_store(struct store *s,
		    const char *group_id, const char *name, uint32_t device,
		    const uint8_t *rec, size_t len);
/* Delete that record.  Returns 1 when there was one, 0 when not, -EINVAL
 * or -EIO. */
MUST_CHECK int	store_signal_sender_key_delete(struct store *s,
		    const char *group_id, const char *name, uint32_t device);

/*
 * ---------------------------------------------------------------------
 * Chats, messages, the outbox, reactions, contacts, the PN-LID mapping
 * and cached device lists (schema migration 3): storing a message
 * (store/message.c), reading rows and pages (store/page.c), the outbox
 * (store/outbox.c), receipts and states (store/receipt.c), edits,
 * revokes and reactions (store/edit.c), the chat table (store/chat.c),
 * contacts, PN-LID and device lists (store/contact.c).
 *
 * Strings from the network are stored as given (UTF-8 or any other bytes;
 * the UI sanitizes).  JIDs, message ids, names and emoji are
 * NUL-terminated and at most STORE_JID_MAX / STORE_MSG_ID_MAX /
 * STORE_NAME_MAX bytes; message text travels as (pointer, length), so it
 * may hold NUL bytes.  Arguments above a limit fail with -EINVAL and
 * nothing is written.  A chat is named by its JID as the engine keys it
 * (the LID user JID once the PN-LID mapping is known, protocol.md 5.3);
 * the store does not translate JIDs.  Every function that writes more
 * than one row runs in a savepoint (store_tx_begin()), so it is
 * atomic on its own and also nests inside a caller's transaction, e.g.
 * the "decrypt + store + ratchet" transaction of reliability.md rule 1.
 * Times are ms since the Unix epoch (UTC).  Engine thread (or whichever
 * thread owns the struct store); none of these functions print.
 * ---------------------------------------------------------------------
 */
#define STORE_JID_MAX		128	/* bytes of a JID or an AD-JID */
#define STORE_MSG_ID_MAX	128	/* bytes of a message id (22 usually) */
#define STORE_NAME_MAX		1024	/* bytes of a name, push name, emoji */
#define STORE_MSG_TEXT_MAX	(16u << 20) /* bytes of text, quoted text */
#define STORE_MSG_PAYLOAD_MAX	(16u << 20) /* bytes of a Message protobuf */
#define STORE_MSG_PAGE_MAX	500	/* rows in one page */
#define STORE_CHAT_PREVIEW_MAX	200	/* characters of a chat-list preview */
#define STORE_DEVLIST_MAX	256	/* devices in one cached device list */

/*
 * Message states.  Numeric order is progress order, and every update
 * only moves a message to a higher state ("forward"): a late delivery
 * receipt never takes a read message back to delivered.  Outgoing:
 * QUEUED -> SENT -> DELIVERED -> READ -> PLAYED, or QUEUED -> FAILED (the
 * one backward step, FAILED -> QUEUED, is store_msg_retry()).  Incoming:
 * RECEIVED -> READ (we sent a read receipt, protocol.md 11.8) -> PLAYED.
 */
enum store_msg_state {
	STORE_MSG_FAILED = -1,	/* out: the server refused it (an ack error) */
	STORE_MSG_QUEUED = 0,	/* out: stored with its payload, not acked */
	STORE_MSG_SENT = 1,	/* out: the server acked it (protocol.md 9.6) */
	STORE_MSG_DELIVERED = 2,/* out: a delivery receipt (no type) */
	STORE_MSG_RECEIVED = 3,	/* in: stored; no read receipt sent yet */
	STORE_MSG_READ = 4,	/* out: a read receipt; in: we sent one */
	STORE_MSG_PLAYED = 5,	/* out: a played receipt; in: we sent one */
};

/* What a message row holds. */
enum store_msg_kind {
	STORE_MSG_TEXT = 0,	/* conversation, extendedTextMessage */
	STORE_MSG_MEDIA = 1,	/* media; text is the caption */
	STORE_MSG_NOTICE = 2,	/* local notice ("security code changed") */
	STORE_MSG_UNSUPPORTED = 3,	/* a type we cannot show yet */
	STORE_MSG_PLACEHOLDER = 4,	/* undecryptable yet; awaits a resend */
	STORE_MSG_HIDDEN = 5,	/* an outgoing protocol message (a reaction,
				 * text = its emoji) kept for the outbox and
				 * retries only: never in pages, previews,
				 * the chat order or unread counts */
	/* 6 is the polls' (issue 20) */
	STORE_MSG_RICH = 7,	/* a location, live location, contact cards,
				 * view-once media, a link preview or another
				 * kind not shown yet: text is its rich
				 * record (base/rich.h) */
};

struct store_media;	/* store/store-media.h */

/*
 * A message to store: every pointer is borrowed for the call; NULL
 * strings are stored as "".  chat, id are required.
 */
struct store_msg_new {
	const char	*chat;		/* chat JID (user or group JID) */
	const char	*id;		/* message id (protocol.md 9.5) */
	const char	*sender;	/* group: author's user JID; else "" */
	bool		 from_me;	/* sent by this account (any device) */
	int64_t		 ts_ms;		/* message time */
	enum store_msg_kind kind;
	const char	*text;		/* NULL only when text_len is 0 */
	size_t		 text_len;	/* bytes, <= STORE_MSG_TEXT_MAX */
	const char	*quoted_id;	/* replied-to message id, or NULL */
	const char	*quoted_sender;	/* its author, or NULL */
	const char	*quoted_text;	/* its text as quoted, or NULL */
	const uint8_t	*payload;	/* outgoing: Message protobuf bytes */
	size_t		 payload_len;	/* bytes, <= STORE_MSG_PAYLOAD_MAX */
	enum store_msg_state state;	/* store_msg_insert_incoming() only */
	/* STORE_MSG_MEDIA: its media, stored in the same savepoint as the
	 * row (migration 15); may be NULL (no media row).  text should be
	 * the caption, after the file name of a document ("report.pdf\n
	 * caption"): that is what the search index reads.  STORE_MSG_RICH
	 * of a "viewonce" record: what opening it needs (never printed,
	 * never in the search; store/store-rich.h). */
	const struct store_media *media;
	/* Forwarded (protocol-features.md 3.7, migration 18): 0 not, else
	 * its forwardingScore (at least 1). */
	uint32_t	 forwarded;
};

/* One reaction on a message (protocol.md 11.5).  Owned by its page. */
struct store_reaction {
	char		*sender;	/* reacting user JID; "" for own */
	char		*emoji;		/* never "" (removals are not listed) */
	int64_t		 ts_ms;
};

/*
 * A message row as read back.  Every pointer is owned by the page (or
 * the struct) it came in; strings are never NULL ("" when empty).
 */
struct store_msg {
	int64_t		 rowid;		/* store order, keyset tiebreak */
	char		*chat;
	char		*id;
	char		*sender;
	bool		 from_me;
	int64_t		 ts_ms;
	enum store_msg_kind kind;
	char		*text;		/* text_len bytes, then a NUL */
	size_t		 text_len;
	char		*quoted_id;
	char		*quoted_sender;
	char		*quoted_text;
	enum store_msg_state state;
	int64_t		 edited_ms;	/* time of the edit shown; 0: none */
	bool		 deleted;	/* revoked: text is "" */
	bool		 starred;	/* app state's star (migration 14) */
	uint32_t	 forwarded;	/* as store_msg_new's (migration 18) */
	uint8_t		*payload;	/* outbox, store_msg_get(); else NULL */
	size_t		 payload_len;
	int		 attempts;	/* store_msg_note_attempt() count */
	struct store_reaction *reactions; /* pages only; else NULL */
	size_t		 nreactions;
};

/*
 * An array of messages, oldest first (ascending (ts_ms, rowid)), at most
 * the max asked for.  more: another call in the same direction would
 * return rows.  Freed with store_msg_page_free().
 */
struct store_msg_page {
	struct store_msg *msgs;
	size_t		 n;
	bool		 more;
};

/* Free a page's rows and reset it to empty (NULL or empty is a no-op). */
void		store_msg_page_free(struct store_msg_page *p);
/* Free the strings and payload of one row (store_msg_get()). */
void		store_msg_release(struct store_msg *m);

/*
 * Store an outgoing message as QUEUED with its payload (the encoded
 * Message protobuf, kept so a resend carries the same id and content),
 * create its chat if needed and make it the chat's newest activity.  Call
 * before the first send attempt, so a message the user typed survives a
 * crash or a disconnect (features.md: nchat loses failed sends).  m->state
 * is ignored; m->from_me must be true.  Returns 0 and *rowid (may be
 * NULL), -EEXIST when (chat, from_me, id) is already stored (nothing
 * written), -EINVAL (a limit above, no payload, !from_me) or -EIO.  A
 * media message whose m->media has ul_state STORE_UL_UPLOADING may come
 * without a payload: store/store-upload.h gives it one.
 */
MUST_CHECK int	store_msg_insert_outgoing(struct store *s,
		    const struct store_msg_new *m, int64_t *rowid);

/*
 * Store a message that arrived (or one our other device sent), exactly
 * once per (chat, from_me, id): the engine calls it inside the decrypt
 * transaction and acks only after COMMIT (reliability.md rule 1), so a
 * redelivery after a crash lands here again.  A new row bumps the chat's
 * last activity and, when !from_me and the kind is not NOTICE, its
 * unread count.  A row that is still a PLACEHOLDER (the message failed to
 * decrypt) is filled in place by a non-placeholder m, keeping its rowid
 * (reliability.md: "recovered message shown in place").  m->state is
 * RECEIVED (READ or PLAYED from history sync) for others' messages and
 * SENT..PLAYED for our other devices' (other values: -EINVAL); a NOTICE
 * is stored READ, so no read receipt is ever sent for it.
 * Returns 0 (inserted), 1 (duplicate: nothing changed) or 2 (a
 * placeholder was filled), with *rowid (may be NULL) the row's rowid in
 * all three cases; -EINVAL or -EIO.
 */
MUST_CHECK int	store_msg_insert_incoming(struct store *s,
		    const struct store_msg_new *m, int64_t *rowid);

/*
 * Load up to max (1..STORE_MSG_PAGE_MAX) QUEUED outgoing messages, oldest
 * first (in the order they were stored), with their payloads, for the
 * outbox to send after a (re)connect; a media message whose upload runs
 * or failed is left out (store/store-upload.h).  Returns 0 and *out (freed with
 * store_msg_page_free()), -EINVAL or -EIO.
 */
MUST_CHECK int	store_msg_outbox(struct store *s, size_t max,
		    struct store_msg_page *out);

/* Count one more send attempt of outgoing (chat, id).  Returns 1 when the
 * message exists, 0 when not, -EINVAL or -EIO. */
MUST_CHECK int	store_msg_note_attempt(struct store *s, const char *chat,
		    const char *id);

/*
 * The server acked our (chat, id) (protocol.md 9.6): QUEUED -> SENT.
 * server_ts_ms (> 0) becomes the message time ("t" of the ack) and the
 * chat's last activity follows; 0 keeps the stored time.  The payload is
 * kept for answering retry receipts (protocol.md 9.6 step 1) until
 * store_msg_payload_prune().  Returns 1 when the state moved, 0 when the
 * message is unknown or already past QUEUED (a repeated ack), -EINVAL,
 * -EIO.
 */
MUST_CHECK int	store_msg_mark_sent(struct store *s, const char *chat,
		    const char *id, int64_t server_ts_ms);

/*
 * A receipt for message (chat, from_me, id): move it forward to state
 * (DELIVERED, READ or PLAYED; READ/PLAYED also for incoming rows, after we
 * sent that receipt).  Never moves a message backwards and never revives
 * a FAILED one.  A receipt names the chat as its "from" (1:1) or the
 * group; map LID/PN before calling.  Returns 1 when the state moved, 0
 * when not (unknown id, or already at or past state), -EINVAL (another
 * state) or -EIO.
 */
MUST_CHECK int	store_msg_mark(struct store *s, const char *chat,
		    bool from_me, const char *id, enum store_msg_state state);

/*
 * Our group message (chat, id) went to recipients members (other than
 * us, each with at least one device): its delivered and read ticks then
 * wait for that many members (store_msg_member_receipt()).  Called in the
 * transaction that sends it; again on a resend (the newest count holds).
 * Returns 1 when recorded, 0 when (chat, id) is not a message of ours,
 * -EINVAL (a string too long or empty, recipients > 100000) or -EIO.
 */
MUST_CHECK int	store_msg_recipients(struct store *s, const char *chat,
		    const char *id, unsigned recipients);

/*
 * A receipt from member (a user JID, no device) of group chat for our
 * message id: state DELIVERED, READ or PLAYED (PLAYED counts as READ).
 * The member's highest state is kept; the message moves to DELIVERED when
 * every one of its recipients (store_msg_recipients()) delivered or read
 * it, to READ when every one read it (protocol.md 9.6; WhatsApp's ticks
 * in a group), never backwards, never from FAILED.  A message with no
 * recipient count moves on the first receipt, as store_msg_mark().  The
 * members' rows are dropped once it is READ.  Returns the state it moved
 * to (STORE_MSG_DELIVERED or STORE_MSG_READ, > 0), 0 when it did not move
 * (unknown id, members still missing, already there), -EINVAL or -EIO.
 */
MUST_CHECK int	store_msg_member_receipt(struct store *s, const char *chat,
		    const char *id, const char *member,
		    enum store_msg_state state);

/*
 * The server refused outgoing (chat, id) (an ack with error=..., protocol.md
 * 9.6): QUEUED -> FAILED, keeping the payload for store_msg_retry().
 * Returns 1 when marked, 0 when unknown or not QUEUED, -EINVAL, -EIO.
 */
MUST_CHECK int	store_msg_mark_failed(struct store *s, const char *chat,
		    const char *id);

/* The user retries a FAILED outgoing (chat, id): back to QUEUED with the
 * same id and payload.  Returns 1, 0 (unknown or not FAILED), -EINVAL,
 * -EIO. */
MUST_CHECK int	store_msg_retry(struct store *s, const char *chat,
		    const char *id);

/* The user deletes a FAILED outgoing (chat, id) (never sent, so nothing
 * to revoke); the chat's preview falls back to the message before it.
 * Returns 1, 0 (unknown or not FAILED), -EINVAL, -EIO. */
MUST_CHECK int	store_msg_delete_failed(struct store *s, const char *chat,
		    const char *id);

/*
 * Drop the payloads of outgoing messages past QUEUED (sent or later) with
 * ts_ms < before_ms: they can no longer be re-encrypted for a retry
 * receipt.  QUEUED and FAILED rows keep theirs.  Returns the number of
 * payloads dropped (>= 0) or -EIO.
 */
MUST_CHECK int	store_msg_payload_prune(struct store *s,
		    int64_t before_ms);

/*
 * Load message (chat, from_me, id) with its payload (when kept) into
 * *out, freed with store_msg_release().  For retry receipts (protocol.md
 * 9.6) and quotes.  Returns 1 and *out, 0 (not stored), -EINVAL or -EIO.
 */
MUST_CHECK int	store_msg_get(struct store *s, const char *chat,
		    bool from_me, const char *id, struct store_msg *out);

/*
 * An edit of (chat, from_me, id) (protocol.md 11.5): the text becomes
 * text[0..text_len) and edited_ms = edit_ms (> 0), unless the message is
 * revoked or already shows an edit at least as new (edits arriving out of
 * order keep the newest).  Authorship (only the author edits) is the
 * caller's check.  Returns 1 when applied, 0 when not (unknown target,
 * revoked, older edit), -EINVAL or -EIO.
 */
MUST_CHECK int	store_msg_edit(struct store *s, const char *chat,
		    bool from_me, const char *id, const char *text,
		    size_t text_len, int64_t edit_ms);

/*
 * A revoke of (chat, from_me, id) (protocol.md 11.4 type 0, 11.5): the
 * row stays (deleted = true, so the UI shows "message deleted") with its
 * text, quote and payload cleared.  Returns 1 when applied, 0 when unknown
 * or already revoked, -EINVAL or -EIO.
 */
MUST_CHECK int	store_msg_revoke(struct store *s, const char *chat,
		    bool from_me, const char *id);

/*
 * Pages of a chat's messages by keyset (perf.md U1/U2: an index on
 * (chat, ts_ms) with rowid as tiebreak; never OFFSET or COUNT(*), never a
 * whole chat in memory).  Each returns up to max (1..STORE_MSG_PAGE_MAX)
 * rows oldest first in *out, with each row's reactions (at most 8192 on
 * one page, oldest first per row); payloads are not loaded.  newest: the
 * last max rows; oldest: the first max rows (Home: the chat from its
 * start, one index seek however long the chat); before: the max rows just older than the row (ts_ms,
 * rowid) (usually out->msgs[0] of the page shown);
 * after: the max rows just newer than (ts_ms, rowid).  Walking with
 * before/after visits every row exactly once, also among equal ts_ms.
 * Returns 0 and *out (freed with store_msg_page_free(); n may be 0),
 * -EINVAL or -EIO.
 */
MUST_CHECK int	store_msg_page_newest(struct store *s, const char *chat,
		    size_t max, struct store_msg_page *out);
MUST_CHECK int	store_msg_page_oldest(struct store *s, const char *chat,
		    size_t max, struct store_msg_page *out);
/*
 * The first max rows (1..STORE_MSG_PAGE_MAX) of chat at or after ts_ms
 * (ms since the epoch: the start of a day, jumping to a date), oldest
 * first, with reactions, in one seek on message_page however long the
 * chat; out->more: newer rows are left.  No row there: out->n is 0.
 * Returns 0 and *out (freed with store_msg_page_free()), -EINVAL or
 * -EIO.  Engine thread (the store's connection).
 */
MUST_CHECK int	store_msg_page_from(struct store *s, const char *chat,
		    int64_t ts_ms, size_t max, struct store_msg_page *out);
/*
 * Where chat's unread messages start, n (>= 1) being its unread count:
 * the oldest of its newest n incoming rows that count as unread (not
 * ours, not a notice, not hidden: those store_msg_insert_incoming()
 * counts), all of them when there are fewer; its (ts_ms, rowid) in
 * *ts_ms, *rowid, a keyset cursor for store_msg_page_after() (with rowid
 * - 1).  Reads up to n index entries.  Returns 1, 0 when chat has no
 * incoming row (nothing set), -EINVAL or -EIO.  Engine thread.
 */
MUST_CHECK int	store_msg_first_unread(struct store *s, const char *chat,
		    uint32_t n, int64_t *ts_ms, int64_t *rowid);
MUST_CHECK int	store_msg_page_before(struct store *s, const char *chat,
		    int64_t ts_ms, int64_t rowid, size_t max,
		    struct store_msg_page *out);
MUST_CHECK int	store_msg_page_after(struct store *s, const char *chat,
		    int64_t ts_ms, int64_t rowid, size_t max,
		    struct store_msg_page *out);

/*
 * Following a chat as rows are stored (wachat history --follow,
 * src/cli.c).  store_msg_stored_after: up to max (1..STORE_MSG_PAGE_MAX)
 * rows of chat whose rowid is above rowid, in the order they were stored
 * (ascending rowid, whatever their ts_ms), hidden rows left out, without
 * reactions or payloads; out->more when there are more.  It walks the
 * rowids above the cursor of every chat, so it costs the rows stored
 * since, not the chat's size.  Returns 0 and *out (freed with
 * store_msg_page_free(); n may be 0), -EINVAL or -EIO.
 * store_msg_last_rowid: the highest rowid of any message (0: none) in
 * *rowid, the cursor to start from; 0 or -EIO.
 * store_data_version: SQLite's data_version of s's connection in
 * *version, which changes when another connection committed a change to
 * the database (one read of the WAL index: cheap to poll); 0 or -EIO.
 * All three work on a store_open_ro() connection; s's thread.
 */
MUST_CHECK int	store_msg_stored_after(struct store *s, const char *chat,
		    int64_t rowid, size_t max, struct store_msg_page *out);
MUST_CHECK int	store_msg_last_rowid(struct store *s, int64_t *rowid);
MUST_CHECK int	store_data_version(struct store *s, int64_t *version);

/*
 * Set sender's reaction on message target_id of chat (protocol.md 11.5):
 * one reaction per (chat, target, sender), the newest by ts_ms wins
 * (out-of-order arrivals keep the newest); emoji "" removes it (kept as a
 * tombstone so an older reaction arriving late stays removed).  sender ""
 * is our own.  The target need not be stored yet.  Returns 1 when the
 * stored reaction changed, 0 when an equal or newer one is stored,
 * -EINVAL or -EIO.
 */
MUST_CHECK int	store_reaction_set(struct store *s, const char *chat,
		    const char *target_id, const char *sender,
		    const char *emoji, int64_t ts_ms);

/* A chat-list row (pointers owned by the list). */
struct store_chat {
	char		*jid;
	char		*name;		/* chat name (group subject), or "" */
	char		*contact_name;	/* address-book name, or "" */
	char		*push_name;	/* push name of jid, or "" */
	int64_t		 last_ms;	/* newest message's time; 0: none */
	int		 unread;	/* received messages not yet read */
	int64_t		 muted_until;	/* ms; 0: not muted, -1: always */
	int64_t		 pinned;	/* ms pinned at; 0: not pinned */
	bool		 archived;
	bool		 marked_unread;	/* "mark as unread" (app state,
					 * migration 14): shown unread with
					 * no unread count */
	bool		 locked;	/* app state's chat lock (migration
					 * 14) */
	int64_t		 last_read_rowid; /* newest rowid at the last read */
	/* The newest message, for the preview line (empty when none). */
	int64_t		 last_rowid;	/* 0: the chat has no message */
	bool		 last_from_me;
	char		*last_sender;
	enum store_msg_kind last_kind;
	int		 last_media;	/* MEDIA: its enum store_media_type;
					 * 0 none (migration 15) */
	enum store_msg_state last_state;
	bool		 last_deleted;
	char		*last_text;	/* <= STORE_CHAT_PREVIEW_MAX chars */
	size_t		 last_text_len;
	/* The input line left unsent in it (store_chat_set_draft()), ""
	 * none; store_chat_list() only (NULL from store_chat_find()). */
	char		*draft;
	int		 peek;		/* read without read receipts
					 * (store_chat_set_peek()): 0 as the
					 * peek setting, 1 on, 2 off; list
					 * only */
	uint32_t	 ephemeral_s;	/* disappearing messages' timer,
					 * seconds, 0 off (store-ephem.h);
					 * list only */
};

struct store_chat_list {
	struct store_chat *chats;
	size_t		 n;
	bool		 more;	/* more chats than max */
};

/*
 * The chats with archived == archived, pinned first (newest pin first),
 * then by last activity, newest first; each with its newest message and
 * the contact's names, in one query over the chat table, which keeps a
 * copy of each chat's newest message (no query per chat, no read into
 * the message table; perf.md U1).  Up to max
 * (>= 1) chats.  Returns 0 and *out (freed with store_chat_list_free()),
 * -EINVAL or -EIO.
 */
MUST_CHECK int	store_chat_list(struct store *s, bool archived,
		    size_t max, struct store_chat_list *out);
/* Free a chat list and reset it to empty (NULL is a no-op). */
void		store_chat_list_free(struct store_chat_list *l);

/* Create chat jid if missing and set its name (group subject).  Returns 0,
 * -EINVAL or -EIO. */
MUST_CHECK int	store_chat_set_name(struct store *s, const char *jid,
		    const char *name);

/* Create chat jid if missing and set its app-state flags (protocol.md 13):
 * muted_until ms (0 unmuted, -1 always), pinned ms (0 unpinned),
 * archived.  Returns 0, -EINVAL or -EIO. */
MUST_CHECK int	store_chat_set_flags(struct store *s, const char *jid,
		    int64_t muted_until, int64_t pinned, bool archived);

#define STORE_DRAFT_MAX		65536	/* bytes of a chat's draft */

/*
 * Keep text (borrowed; UTF-8 as typed, may hold newlines, at most
 * STORE_DRAFT_MAX bytes) as chat jid's draft, the input line the user
 * left unsent there (schema migration 13, chat.draft), creating the chat
 * if missing (a chat started by number, nothing sent yet); text NULL or
 * "" clears it (creating nothing).  store_chat_list() gives it back.
 * Returns 0, -EINVAL (no jid, or text too long), -ENOSPC (disk full) or
 * -EIO.  Engine
 * thread (the store's live connection).
 */
MUST_CHECK int	store_chat_set_draft(struct store *s, const char *jid,
		    const char *text);

/*
 * Chat jid's peek mode (schema migration 13, chat.peek: 0 as the peek
 * setting, 1 on, 2 off), set on or off: on, its messages shown send no
 * read receipt and leave it unread (issue 17 point 14).  Creates the chat
 * if missing.  store_chat_list() gives it
 * back.  Returns 0, -EINVAL (no jid), -ENOSPC (disk full) or -EIO.
 * Engine thread (the store's live connection).
 */
MUST_CHECK int	store_chat_set_peek(struct store *s, const char *jid, bool on);

/* A message to send a read receipt for (protocol.md 11.8). */
struct store_msg_ref {
	char		*id;
	char		*sender;	/* group: the participant; 1:1: "" */
	int64_t		 ts_ms;
};

/*
 * The user read chat jid: its unread count becomes 0, its "marked
 * unread" flag (app state, migration 14) is cleared, last_read_rowid
 * its newest message, and up to max (1..STORE_MSG_PAGE_MAX) of the oldest
 * incoming RECEIVED messages move to READ and are returned in
 * (*ids, *n) (freed with store_msg_refs_free()), oldest first, so the
 * caller sends one read receipt per sender with their ids.  Returns 1
 * when more RECEIVED messages remain (call again), 0 when none do,
 * -EINVAL or -EIO (nothing changed, *ids untouched).
 */
MUST_CHECK int	store_chat_mark_read(struct store *s, const char *jid,
		    size_t max, struct store_msg_ref **ids, size_t *n);
void		store_msg_refs_free(struct store_msg_ref *ids, size_t n);

/*
 * Push names (protocol.md 15.4: the notify attribute, HistorySync
 * pushnames; the caller ignores "-") and address-book names of a user JID
 * (PN or LID).  Returns 0, -EINVAL or -EIO.
 */
MUST_CHECK int	store_contact_set_push_name(struct store *s,
		    const char *jid, const char *push_name);
MUST_CHECK int	store_contact_set_name(struct store *s, const char *jid,
		    const char *name);

/* A contact's names, "" when unknown. */
struct store_contact {
	char		 push_name[STORE_NAME_MAX + 1];
	char		 name[STORE_NAME_MAX + 1];	/* address book's full */
	char		 first_name[STORE_NAME_MAX + 1]; /* its first name
						 * (app state, migration 14) */
};

/* Load jid's names into *out.  Returns 1, 0 (unknown jid; *out untouched),
 * -EINVAL or -EIO. */
MUST_CHECK int	store_contact_get(struct store *s, const char *jid,
		    struct store_contact *out);

/*
 * The users whose address-book name or push name is who ignoring ASCII
 * case; when none is, those whose names contain who.  Up to max (1..64)
 * of their JIDs into jids (the caller's array), for naming a person on
 * the command line (wachat search from:NAME).  Returns how many match,
 * max + 1 when more than max do (max written), -EINVAL or -EIO.
 */
MUST_CHECK int	store_contact_find(struct store *s, const char *who,
		    size_t max, char (*jids)[STORE_JID_MAX + 1]);

/*
 * The PN <-> LID mapping (protocol.md 5.3), both user JIDs without device
 * ("123@s.whatsapp.net", "456@lid").  One LID per PN and one PN per LID:
 * putting a pair replaces any mapping of either side.  Returns 1 when the
 * mapping changed, 0 when it was already stored, -EINVAL or -EIO.
 */
MUST_CHECK int	store_lid_put(struct store *s, const char *pn,
		    const char *lid);
/* Look up the LID of pn / the PN of lid into out (STORE_JID_MAX + 1
 * bytes).  Returns 1, 0 (unknown; out untouched), -EINVAL or -EIO. */
MUST_CHECK int	store_lid_get_lid(struct store *s, const char *pn,
		    char out[STORE_JID_MAX + 1]);
MUST_CHECK int	store_lid_get_pn(struct store *s, const char *lid,
		    char out[STORE_JID_MAX + 1]);

/* One device of a cached usync device list (protocol.md 8.2). */
struct store_devlist_entry {
	uint32_t	 id;		/* device id; 0 the primary */
	uint32_t	 key_index;	/* ADV key index; 0 for device 0 */
	bool		 hosted;	/* is_hosted="true" */
};

/*
 * Cache user's device list (user JID, no device), fetched at fetched_ms,
 * replacing any cached one.  n <= STORE_DEVLIST_MAX.  Returns 0, -EINVAL
 * or -EIO.
 */
MUST_CHECK int	store_devlist_put(struct store *s, const char *user,
		    const struct store_devlist_entry *devs, size_t n,
		    int64_t fetched_ms);
/*
 * Load user's cached list into out (room for max entries) and *fetched_ms
 * (may be NULL).  Returns the device count (>= 0; only min(count, max)
 * written) or -ENOENT when nothing is cached, -EINVAL or -EIO (a corrupt
 * row).
 */
MUST_CHECK int	store_devlist_get(struct store *s, const char *user,
		    struct store_devlist_entry *out, size_t max,
		    int64_t *fetched_ms);
/* Drop user's cached list (a devices notification, a phash mismatch,
 * protocol.md 8.2, 9.6).  Returns 1 when one was cached, 0, -EINVAL,
 * -EIO. */
MUST_CHECK int	store_devlist_forget(struct store *s, const char *user);

/*
 * ---------------------------------------------------------------------
 * Groups (store/group.c, schema migration 4; protocol.md 10.1, 10.4):
 * metadata and participants as the server last told them, and which
 * devices hold our current sender key.  Limits and threads as for
 * messages above; JIDs at most STORE_JID_MAX bytes, subject and
 * description at most STORE_NAME_MAX * 4.
 * ---------------------------------------------------------------------
 */
#define STORE_GROUP_TEXT_MAX	(4 * STORE_NAME_MAX)	/* subject, description */
#define STORE_GROUP_MEMBERS_MAX	4096

/* One participant.  Owned by its struct store_group. */
struct store_group_member {
	char		*jid;		/* as the group addresses it (LID in LID
					 * groups), user JID */
	char		*alt;		/* the other one (PN or LID), or "" */
	int		 admin;		/* 0, 1 admin, 2 superadmin */
};

/* A group.  Strings never NULL ("" when unknown). */
struct store_group {
	char		*jid;		/* "<id>@g.us" */
	char		*subject;
	char		*description;
	char		*mode;		/* addressing mode: "lid" or "pn" */
	char		*creator;
	int64_t		 creation_ms;
	bool		 left;		/* we left or were removed */
	struct store_group_member *members;
	size_t		 n;
};

/*
 * Store g whole: its metadata, and its participants replacing those
 * stored (in one savepoint); the chat g->jid is created if missing and
 * named by the subject.  Pointers borrowed.  Returns 0, -EINVAL (a limit
 * above, no jid, n above STORE_GROUP_MEMBERS_MAX) or -EIO.
 */
MUST_CHECK int	store_group_put(struct store *s, const struct store_group *g);

/* Load group jid with its members (admins first, then by JID) into *out,
 * freed with store_group_release().  Returns 1, 0 when unknown (*out
 * zeroed), -EINVAL or -EIO. */
MUST_CHECK int	store_group_get(struct store *s, const char *jid,
		    struct store_group *out);
/* Free what g owns and zero it (NULL is a no-op). */
void		store_group_release(struct store_group *g);

/* Set a known group's subject, and its chat's name.  Returns 1 when the
 * group is known, 0 when not, -EINVAL or -EIO. */
MUST_CHECK int	store_group_set_subject(struct store *s, const char *jid,
		    const char *subject);
/* Mark a known group left (true: we left or were removed) or joined
 * again.  Returns 1 when known, 0 when not, -EINVAL or -EIO. */
MUST_CHECK int	store_group_set_left(struct store *s, const char *jid,
		    bool left);
/* Add participant jid (alt may be NULL) to group grp, or set its admin
 * level when present.  Returns 0, -EINVAL or -EIO. */
MUST_CHECK int	store_group_member_put(struct store *s, const char *grp,
		    const char *jid, const char *alt, int admin);
/* Remove participant jid (matched by jid or alt) from grp.  Returns 1
 * when it was there, 0 when not, -EINVAL or -EIO. */
MUST_CHECK int	store_group_member_remove(struct store *s, const char *grp,
		    const char *jid);

/* Does device (an AD-JID) hold our current sender key of grp (10.4)?
 * Returns 1 or 0, -EINVAL or -EIO. */
MUST_CHECK int	store_skr_has(struct store *s, const char *grp,
		    const char *device);
/* Record that device holds it (after the server acked the SKDM).
 * Returns 0, -EINVAL or -EIO. */
MUST_CHECK int	store_skr_put(struct store *s, const char *grp,
		    const char *device);
/* Forget that device holds it (a retry receipt), or every device of grp
 * when device is NULL (the key is being replaced).  Returns the number
 * of rows dropped, -EINVAL or -EIO. */
MUST_CHECK int	store_skr_forget(struct store *s, const char *grp,
		    const char *device);
/* Forget that device holds our sender key of any group (its identity
 * changed, 10.4: the next send gives it an SKDM).  Returns the number of
 * rows dropped, -EINVAL or -EIO. */
MUST_CHECK int	store_skr_forget_device(struct store *s, const char *device);
/* Forget every device of user (a non-AD JID, "<user>@<server>": the
 * user itself and each "<user>:<n>@<server>") as a holder of our sender
 * key in any group (its identity changed, protocol.md 11.7, 10.4: the
 * next send gives each an SKDM).  Returns the number of rows dropped,
 * -EINVAL (not a non-AD JID) or -EIO. */
MUST_CHECK int	store_skr_forget_user(struct store *s, const char *user);

/*
 * ---------------------------------------------------------------------
 * History-sync notifications waiting to be imported (store/histq.c,
 * table hist_queue; protocol.md 12.1).  msg is the decrypted Message
 * that carries the HistorySyncNotification, as received.
 * ---------------------------------------------------------------------
 */

/* Queue msg[0..len) (<= STORE_MSG_PAYLOAD_MAX) under the message id id;
 * a second put of the same id is ignored.  Returns 0, -EINVAL or -EIO. */
MUST_CHECK int	store_histq_put(struct store *s, const char *id,
		    const uint8_t *msg, size_t len, int64_t now_ms);
/* The oldest queued notification not imported yet: 1 with id and msg
 * appended to *msg, 0 when none, -EINVAL or -EIO. */
MUST_CHECK int	store_histq_next(struct store *s,
		    char id[STORE_MSG_ID_MAX + 1], struct buf *msg);
/* Mark notification id imported (or refused): its hist_sync receipt is
 * due.  Returns 1 when it was queued, 0 when not, -EINVAL or -EIO. */
MUST_CHECK int	store_histq_imported(struct store *s, const char *id);
/* The ids of imported notifications whose receipt the server has not
 * acked, oldest first, appended to *ids one after another with their
 * NULs.  Returns their count (>= 0), -EINVAL or -EIO. */
MUST_CHECK int	store_histq_unreceipted(struct store *s, struct buf *ids);
/* Drop notification id (the server acked its receipt).  Returns 1 when it
 * was queued, 0 when not, -EINVAL or -EIO. */
MUST_CHECK int	store_histq_done(struct store *s, const char *id);

/*
 * ---------------------------------------------------------------------
 * History sync import (store/history.c; protocol.md 12).
 * ---------------------------------------------------------------------
 */
#define STORE_HIST_BATCH_MAX	10000	/* messages in one import call */

/*
 * Store n (0..STORE_HIST_BATCH_MAX) messages from a history sync in one
 * savepoint (atomic; nests in a caller's transaction), with one prepared
 * statement for all rows.  A message already stored by (chat, from_me,
 * id) is left as it is and counted as a duplicate (an import that
 * resumes after a crash stores nothing twice).  Backlog is never unread:
 * others' messages given as RECEIVED are stored READ (no read receipt is
 * ever sent for them, no unread count moves).  Each chat touched gets its
 * newest message and preview updated once per call (not once per row),
 * and only when the imported message is newer than the stored one.  The
 * rows are searchable at once but not indexed yet: they wait in the FTS
 * backlog for store_fts_catch_up().  m->state: as
 * store_msg_insert_incoming(); RECEIVED allowed for own messages too
 * (stored as SENT).  Returns the number of messages inserted (n minus
 * the duplicates, >= 0), -EINVAL (any message invalid: nothing written)
 * or -EIO (nothing written).
 */
MUST_CHECK int	store_hist_import(struct store *s,
		    const struct store_msg_new *msgs, size_t n);

/*
 * A chat from a history sync Conversation (protocol.md 12): created when
 * missing with every value given; when it exists, history fills gaps and
 * never overrides live data: name only when the stored one is "";
 * last_ms only while the chat has no stored message (so it sorts in the
 * chat list by the conversation's time); unread (>= 0) only when this
 * device has not marked the chat read (last_read_rowid 0), and never
 * lowered; archived, pinned (ms, 0: not) and muted_until (ms, 0: not,
 * -1: always) only when the chat is created here (app state sync,
 * protocol.md 13, is their live source).  name may be NULL.  Returns 1
 * when the chat was created, 0 when it existed, -EINVAL or -EIO.
 */
MUST_CHECK int	store_hist_chat(struct store *s, const char *jid,
		    const char *name, int64_t last_ms, int unread,
		    bool archived, int64_t pinned, int64_t muted_until);

/* --- privacy tokens (store/privtok.c, migration 11; protocol.md 15.6) --- */

#define STORE_PRIVTOK_MAX	512	/* bytes of a token kept */
#define STORE_SALT_MAX		64	/* bytes of the nctSalt kept */

/* What the store holds of one contact's tokens. */
struct store_privtok {
	uint8_t		 token[STORE_PRIVTOK_MAX];	/* its token to us */
	size_t		 len;		/* 0: none held */
	int64_t		 t;		/* its timestamp, unix s; 0 none */
	int64_t		 sender_t;	/* when we last issued ours to it,
					 * unix s; 0 never */
};

/*
 * The tokens of contact jid (a user JID: its LID when known, as the
 * engine keys them, else its PN) into *out.  Returns 1, 0 (nothing
 * stored for it; *out zeroed), -EINVAL (jid empty or over STORE_JID_MAX,
 * out NULL) or -EIO.  Any thread holding s.
 */
MUST_CHECK int	store_privtok_get(struct store *s, const char *jid,
		    struct store_privtok *out);

/*
 * Keep token[0..len) with timestamp t (unix s, > 0) as jid's token to
 * us, unless the one stored is newer (a larger t): Baileys
 * storeTcTokensFromIqResult.  sender_t is kept.  Returns 1 when stored,
 * 0 when a newer one is kept, -EINVAL (jid as above, token NULL, len 0
 * or over STORE_PRIVTOK_MAX, t <= 0), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_privtok_put(struct store *s, const char *jid,
		    const uint8_t *token, size_t len, int64_t t);

/*
 * We issued our token to jid at sender_t (unix s, > 0); its token to us
 * is kept.  Returns 0, -EINVAL, -ENOSPC or -EIO.
 */
MUST_CHECK int	store_privtok_sent(struct store *s, const char *jid,
		    int64_t sender_t);

/*
 * The account's nctSalt (HistorySync field 19, or app state
 * nct_salt_sync): put replaces it (len 1..STORE_SALT_MAX): 0, -EINVAL,
 * -ENOSPC or -EIO; get copies it into out[STORE_SALT_MAX] and *len: 1,
 * 0 when none is stored, -EINVAL (NULL argument) or -EIO.
 */
MUST_CHECK int	store_privtok_salt_put(struct store *s, const uint8_t *salt,
		    size_t len);
MUST_CHECK int	store_privtok_salt_get(struct store *s,
		    uint8_t out[STORE_SALT_MAX], size_t *len);

#include "store/store-search.h"
#include "store/store-appstate.h"
#include "store/store-media.h"
#include "store/store-upload.h"
#include "store/store-rich.h"
#include "store/store-poll.h"
#include "store/store-ephem.h"
#include "store/store-rtime.h"

#endif
