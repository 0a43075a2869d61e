/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/wa-signal.h -- the Signal layer of 1:1 and group messaging:
 * libsignal-protocol-c driven over wachat's store (protocol.md 5.4, 7.3,
 * 8.1, 9.4, 10.2-10.4, 11.2, 16).  It maps JIDs to libsignal addresses,
 * builds outgoing sessions from prekey bundles, encrypts and decrypts
 * pkmsg and msg payloads, and keeps group sender keys (SKDM, skmsg).
 * Persistence goes through struct wa_signal_store_ops (bound over store/
 * by src/app-store.c); every record libsignal writes is committed there
 * before the call returns.  The crypto provider is OpenSSL
 * (HMAC-SHA256, SHA-512, AES-256-CBC and -CTR) and libsodium (random
 * bytes).
 *
 * (The header is not named proto/signal.h: with -I proto on every compile
 * line, that name would hide the system's <signal.h>, which <uv.h> and
 * <sys/param.h> include.)
 *
 * Memory: each call runs libsignal inside a scope of the per-call bump
 * allocator of base/scope-alloc.h (perf.md 2, 5.3), paused around the
 * ops, OpenSSL and every append to a caller's struct buf, so
 * what the caller gets back and what the ops see is ordinary heap memory.
 *
 * Thread contract: a struct wa_signal and its ops belong to one thread
 * (the engine thread), after wa_crypto_init() has returned (libsodium is
 * initialised); the ops are called on that thread, never re-entrantly.
 * wa_signal_addr_from_jid() is pure (any thread).
 */
#ifndef WA_SIGNAL_H
#define WA_SIGNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;
struct wa_signal;

#define WA_SIGNAL_KEY_LEN	32	/* Curve25519 key on the wire, bytes */
#define WA_SIGNAL_SIG_LEN	64	/* XEdDSA signature */
#define WA_SIGNAL_NAME_MAX	128	/* address name, bytes without NUL;
					 * equals STORE_SIGNAL_NAME_MAX */
#define WA_SIGNAL_USER_MAX	32	/* digits of a JID's user part */
#define WA_SIGNAL_DEVICE_MAX	255	/* a JID device is one byte (5.2) */
#define WA_SIGNAL_MAX_LEN	(1u << 22) /* plaintext or ciphertext cap,
					 * bytes: 4 MiB, far above any
					 * padded Message protobuf */
#define WA_SIGNAL_PREKEY_ID_MAX	0xFFFFFFu /* 3 bytes on the wire (7.3) */

/* The <enc type> of a payload (9.4); values are libsignal's
 * CIPHERTEXT_*_TYPE. */
enum wa_signal_type {
	WA_SIGNAL_MSG = 2,	/* "msg": SignalMessage */
	WA_SIGNAL_PKMSG = 3,	/* "pkmsg": PreKeySignalMessage */
};

/*
 * A libsignal address (5.4): name is "<user>" for a PN JID
 * (s.whatsapp.net, or c.us normalised to it), "<user>_1" for LID,
 * "<user>_128" for hosted and "<user>_129" for hosted.lid; device is the
 * JID's device (0 for the main device).  Never on the wire.
 */
struct wa_signal_addr {
	char		 name[WA_SIGNAL_NAME_MAX + 1];	/* NUL-terminated */
	uint32_t	 device;
};

/*
 * This device's own Signal material, as the device row keeps it (struct
 * wa_device in proto/eng.h, protocol.md 3.2, 7.3).  Plain data; whoever
 * drops a copy wipes it.
 */
struct wa_signal_own {
	uint8_t		 identity_priv[WA_SIGNAL_KEY_LEN];
	uint8_t		 identity_pub[WA_SIGNAL_KEY_LEN];
	uint32_t	 registration_id;		/* 14 bits */
	uint32_t	 spk_id;			/* the signed prekey */
	uint8_t		 spk_priv[WA_SIGNAL_KEY_LEN];
	uint8_t		 spk_pub[WA_SIGNAL_KEY_LEN];
	uint8_t		 spk_sig[WA_SIGNAL_SIG_LEN];	/* over 05 || spk_pub */
};

/*
 * Persistence of Signal state.  Every op gets arg first and returns 0 on
 * success or a negative code (-EIO, -EINVAL, ..., passed on unchanged by
 * the wa_signal_* call that caused it) unless said otherwise; an error is
 * never "absent".  Buffers passed in are borrowed for the call; loads
 * append to the caller's struct buf.  Records are opaque blobs of
 * libsignal's own serialization.
 */
struct wa_signal_store_ops {
	/* Append the session record of a to *out: 1, or 0 when there is
	 * none; WC_EBADRECORD when a row was read but its record is damaged
	 * (empty, too big): quarantined like one that does not deserialize
	 * (a fresh one is built), unlike a read error. */
	int	(*session_load)(void *arg, const struct wa_signal_addr *a,
		    struct buf *out);
	/* Insert or replace the session record of a. */
	int	(*session_store)(void *arg, const struct wa_signal_addr *a,
		    const uint8_t *rec, size_t len);
	/* 1 when a has a session, else 0. */
	int	(*session_contains)(void *arg, const struct wa_signal_addr *a);
	/* Delete a's session: 1 when there was one, else 0. */
	int	(*session_delete)(void *arg, const struct wa_signal_addr *a);
	/* Delete every device's session of name: the count deleted. */
	int	(*session_delete_all)(void *arg, const char *name);
	/* Up to max device ids of name with a session, lowest first, into
	 * out: the total count (may exceed max). */
	int	(*session_devices)(void *arg, const char *name, uint32_t *out,
		    size_t max);
	/* This device's identity, registration id and signed prekey: 1
	 * and *out, or 0 when there is no device yet. */
	int	(*own_load)(void *arg, struct wa_signal_own *out);
	/* One-time prekey id (7.3): 1 with its key pair, 0 when gone. */
	int	(*prekey_load)(void *arg, uint32_t id,
		    uint8_t priv[WA_SIGNAL_KEY_LEN],
		    uint8_t pub[WA_SIGNAL_KEY_LEN]);
	/* Delete one-time prekey id (used by an incoming pkmsg). */
	int	(*prekey_remove)(void *arg, uint32_t id);
	/* Record a's 32-byte identity key, seen at now_ms: 1 when it
	 * replaced a different stored key (a change), 0 when new or the
	 * same. */
	int	(*identity_save)(void *arg, const struct wa_signal_addr *a,
		    const uint8_t key[WA_SIGNAL_KEY_LEN], int64_t now_ms);
	/* a's identity key: 1 and key, or 0 when none is stored;
	 * WC_EBADRECORD when the stored key is damaged. */
	int	(*identity_load)(void *arg, const struct wa_signal_addr *a,
		    uint8_t key[WA_SIGNAL_KEY_LEN]);
	/* Delete the identity key of every device of name: the count
	 * deleted (>= 0), and into *changed_ms (never NULL) the latest time
	 * (ms) one of them had replaced a different key (0: none had).
	 * Optional (NULL: wa_signal_forget_user() fails with -ENOTSUP). */
	int	(*identity_delete_all)(void *arg, const char *name,
		    int64_t *changed_ms);
	/* Append the sender-key record of sender in group (the group's
	 * JID) to *out: 1, or 0 when there is none; WC_EBADRECORD as for
	 * session_load. */
	int	(*sender_key_load)(void *arg, const char *group,
		    const struct wa_signal_addr *sender, struct buf *out);
	/* Insert or replace that record. */
	int	(*sender_key_store)(void *arg, const char *group,
		    const struct wa_signal_addr *sender, const uint8_t *rec,
		    size_t len);
	/* Delete that record: 1 when there was one, else 0.  Optional
	 * (NULL: wa_signal_group_forget() fails with -ENOTSUP). */
	int	(*sender_key_delete)(void *arg, const char *group,
		    const struct wa_signal_addr *sender);
	/* Transactions, which nest: begin opens a level, commit closes it
	 * (durable when the outermost commits), rollback undoes its writes
	 * and closes it. */
	int	(*tx_begin)(void *arg);
	int	(*tx_commit)(void *arg);
	int	(*tx_rollback)(void *arg);
	void	*arg;
};

/*
 * A libsignal context with wachat's crypto provider and nothing else (no
 * stores, no locking), for code that drives libsignal-protocol-c itself
 * to make keys (the simulator's phones, tests/sim/keys.c).  One thread at
 * a time.  wa_signal_keygen_new() returns 0 and *out, freed with
 * wa_signal_keygen_free() (NULL is a no-op); errors: WC_ECRYPTO or
 * -ENOMEM (libsignal could not set up).  The context from
 * wa_signal_keygen_context() is borrowed: valid until the free.
 */
struct signal_context;
struct wa_signal_keygen;
MUST_CHECK int	wa_signal_keygen_new(struct wa_signal_keygen **out);
struct signal_context *wa_signal_keygen_context(struct wa_signal_keygen *k);
void		wa_signal_keygen_free(struct wa_signal_keygen *k);

/* The wall clock: ms since the Unix epoch (wa_conn_clock_fn's shape). */
typedef int64_t	(*wa_signal_clock_fn)(void *arg);

/* A peer device's prekey bundle (8.1), keys as on the wire (32 bytes). */
struct wa_signal_bundle {
	uint32_t	 registration_id;
	uint8_t		 identity[WA_SIGNAL_KEY_LEN];
	uint32_t	 spk_id;			/* 24 bits */
	uint8_t		 spk_pub[WA_SIGNAL_KEY_LEN];
	uint8_t		 spk_sig[WA_SIGNAL_SIG_LEN];
	bool		 has_prekey;		/* the <key> was present */
	uint32_t	 prekey_id;		/* 24 bits; when has_prekey */
	uint8_t		 prekey_pub[WA_SIGNAL_KEY_LEN];
};

/*
 * Map the JID text jid[0..len) ("user[:device]@server", protocol.md 5.2)
 * to its libsignal address by the rule of 5.4 ([WM] SignalAddress, [BL]
 * jidToSignalProtocolAddress).  user must be 1..WA_SIGNAL_USER_MAX
 * digits, device 0..WA_SIGNAL_DEVICE_MAX decimal without leading zeros,
 * server one of s.whatsapp.net, c.us, lid, hosted, hosted.lid.  A legacy
 * text agent ("user.N:device@server", N 0..255) is accepted and ignored:
 * the server alone picks the "_N" suffix, as [WM]'s ActualAgent does.
 * Returns 0 and *out.  Errors: WC_EINVAL (any other shape: groups,
 * broadcast, newsletter, bot and other servers, an empty or non-digit
 * user, a bad device or agent); *out untouched on error.  Pure.
 */
MUST_CHECK int	wa_signal_addr_from_jid(const char *jid, size_t len,
		    struct wa_signal_addr *out);

/*
 * Create a Signal context over ops (borrowed: it must outlive the
 * context), with now_ms(clock_arg) dating identity changes.  Nothing is
 * loaded yet.  Returns 0 and *out, freed with wa_signal_free().  Errors:
 * -EINVAL (a required op or now_ms is NULL: every op but
 * session_delete_all, session_devices, identity_delete_all and the
 * sender-key ops is required; without sender_key_load and
 * sender_key_store the wa_signal_group_* calls fail with -ENOTSUP;
 * without identity_delete_all, wa_signal_forget_user() does), -ENOMEM
 * (libsignal could not allocate), WC_ECRYPTO (OpenSSL has no HMAC), a
 * negated errno from pthread_mutex_init().
 * *out untouched on error.
 */
MUST_CHECK int	wa_signal_new(const struct wa_signal_store_ops *ops,
		    wa_signal_clock_fn now_ms, void *clock_arg,
		    struct wa_signal **out);

/* Free s (NULL is a no-op).  No op is called. */
void		wa_signal_free(struct wa_signal *s);

/*
 * Whether a has a session.  Returns 1 or 0, or the store's error.
 */
MUST_CHECK int	wa_signal_has_session(struct wa_signal *s,
		    const struct wa_signal_addr *a);

/*
 * Whether a's stored session can be used to send (reliability.md 9): 1
 * when its record deserializes and holds a state with a sending chain
 * (*regid, may be NULL, set to the registration id the peer had when the
 * session was made: a retry receipt naming another one means the peer
 * reinstalled, 9.6); 0 when there is none, or the record holds no such
 * state (a fresh bundle makes one; the record is kept, its states
 * archived), or the record does not deserialize: such a corrupt record
 * is dropped (logged as quarantined) so that a fresh bundle rebuilds the
 * session, and *quarantined (may be NULL) is set true.  A read error of
 * the store is never "none": the store's error is returned.  Other
 * errors: -EINVAL (bad address), the store's errors from the drop.
 * Source: whatsmeow's handling of undecodable sessions (a new session
 * from a fetched bundle), libsignal session_record_deserialize().
 */
MUST_CHECK int	wa_signal_session_check(struct wa_signal *s,
		    const struct wa_signal_addr *a, uint32_t *regid,
		    bool *quarantined);

/*
 * Drop a's session (its encryption failed: the next send builds it again
 * from a fresh bundle), inside the caller's transaction when one is open.
 * Returns 1 when there was one, 0 when not, -EINVAL, or the store's
 * error.
 */
MUST_CHECK int	wa_signal_session_drop(struct wa_signal *s,
		    const struct wa_signal_addr *a);

/*
 * Forget the peer name (a libsignal address name, as in struct
 * wa_signal_addr) on every device: delete its sessions and its stored
 * identity keys (its identity changed, protocol.md 11.7: the next send
 * builds a session from a fresh bundle, whose key is then taken as new,
 * not as a change), in one transaction (nested in the caller's, if any).
 * *changed_ms (may be NULL) gets the latest time (ms) a deleted identity
 * had replaced a different key (0: none; for a caller that tells the
 * user once per change).  Returns how many sessions and identities were
 * deleted (>= 0: 0 means nothing was known of name).  Errors: -EINVAL
 * (name empty or above WA_SIGNAL_NAME_MAX bytes), -ENOTSUP (the ops
 * have no identity_delete_all), the store's errors (nothing deleted).
 * Source: whatsmeow notification.go handleEncryptNotification
 * (DeleteAllSessions, DeleteAllIdentities of the user).
 */
MUST_CHECK int	wa_signal_forget_user(struct wa_signal *s, const char *name,
		    int64_t *changed_ms);

/*
 * Build an outgoing session to a from its prekey bundle b (8.1), after
 * checking the signed prekey's signature (over 05 || spk_pub, 5.4); the
 * next wa_signal_encrypt() to a gives a pkmsg.  A session a already had
 * is archived (messages of its older chain still decrypt).  b's identity
 * is trusted even when it differs from the one stored for a (WhatsApp's
 * rule, 11.2): it replaces the stored one, and *identity_changed (may be
 * NULL) is set true; else false.  The session and identity are written in
 * one transaction.  Returns 0.  Errors: WC_EBADKEY (a key that is not a
 * Curve25519 point, a signature that does not verify, a prekey id above
 * WA_SIGNAL_PREKEY_ID_MAX), WC_ESTATE (the store has no device), the
 * store's errors, -ENOMEM.  Nothing is written on error.
 */
MUST_CHECK int	wa_signal_process_bundle(struct wa_signal *s,
		    const struct wa_signal_addr *a,
		    const struct wa_signal_bundle *b, bool *identity_changed);

/*
 * Encrypt p[0..len) (the padded Message protobuf, 9.3) for a and append
 * the <enc> payload bytes to *out; *type says whether they are a pkmsg
 * (until a answers) or a msg.  The advanced session is stored before this
 * returns: inside the caller's transaction when it opened one (so "session
 * advanced + message stored" commit together, persist-before-send), else
 * committed on its own.  Returns 0.  Errors: WC_ENOSESSION (a has no
 * session: fetch its bundle), WC_ETOOBIG (len above WA_SIGNAL_MAX_LEN),
 * the store's errors, -ENOMEM, WC_ECRYPTO.  *out and *type untouched on
 * error.
 */
MUST_CHECK int	wa_signal_encrypt(struct wa_signal *s,
		    const struct wa_signal_addr *a, const uint8_t *p,
		    size_t len, enum wa_signal_type *type, struct buf *out);

/*
 * Decrypt the <enc> payload c[0..len) of the given type from a (11.2) and
 * append the plaintext (still padded) to *out.  A pkmsg creates or
 * replaces the session and consumes the one-time prekey it names (the
 * ops' prekey_remove); the session, identity and prekey changes are
 * written in one transaction (nested in the caller's, if any), or not at
 * all on error, so a failed payload leaves the session as it was.
 * *identity_changed (may be NULL) is set true when a pkmsg carried an
 * identity different from the one stored for a (the new one is trusted
 * and stored: show "security code changed"), else false.  Returns 0.
 * Errors: WC_EDUPMSG (this message was already decrypted: ack it and
 * ignore it), WC_ENOSESSION (a msg from an address without a session),
 * WC_EBADMSG (malformed, wrong version, bad MAC, or not decryptable by
 * any session state), WC_ENOKEY (a pkmsg naming a one-time or signed
 * prekey we no longer have), WC_EBADKEY (a key in it is invalid),
 * WC_EUNTRUSTED (never with these ops: identities are always trusted),
 * WC_ETOOBIG (len above WA_SIGNAL_MAX_LEN), -EINVAL (type unknown),
 * WC_ESTATE (no device in the store), the store's errors, -ENOMEM.
 * *out untouched on error.
 */
MUST_CHECK int	wa_signal_decrypt(struct wa_signal *s,
		    const struct wa_signal_addr *a, enum wa_signal_type type,
		    const uint8_t *c, size_t len, struct buf *out,
		    bool *identity_changed);

/*
 * The identity key stored for a (for the "security code" shown to the
 * user).  Returns 1 and key, 0 when none is stored, or the store's
 * error.
 */
MUST_CHECK int	wa_signal_remote_identity(struct wa_signal *s,
		    const struct wa_signal_addr *a,
		    uint8_t key[WA_SIGNAL_KEY_LEN]);

/*
 * ---- Groups: sender keys (protocol.md 10.2, 10.3, 11.2, 11.3) ----
 *
 * A sender key is named by (group, sender address): group is the group's
 * JID text ("<id>@g.us", or "status@broadcast"), NUL-terminated, 1 to
 * WA_SIGNAL_NAME_MAX bytes; the address is own_addr for our own key (our
 * LID device in a LID-addressed group, else our PN device, 10.2) or the
 * sender's encryption address for a peer's key (11.2).  Every record
 * libsignal writes goes through the ops' sender_key_store inside a
 * transaction (nested in the caller's, if any), so a failed call leaves
 * the stored key as it was.  These calls need the ops' sender_key_load
 * and sender_key_store: without them they fail with -ENOTSUP.  Same
 * thread contract as the rest of this header.
 */

/*
 * Our sender key for group, created when we have none (a fresh key id,
 * chain key and signing key pair), and the serialized
 * SenderKeyDistributionMessage for it (version byte 0x33 + protobuf,
 * 10.2) appended to *skdm_out: the bytes of
 * Message.senderKeyDistributionMessage.axolotlSenderKeyDistributionMessage,
 * to be sent pairwise (wa_signal_encrypt()) to every device that lacks
 * the key.  The SKDM carries the key's current iteration, so a receiver
 * can read what we send from now on, not what we sent before.  A new key
 * is stored (and committed, unless the caller's transaction is open)
 * before this returns.  Returns 0.  Errors: -EINVAL (bad group or
 * own_addr), -ENOTSUP (no sender-key ops), the store's errors, -ENOMEM,
 * WC_ECRYPTO.  *skdm_out untouched on error.
 */
MUST_CHECK int	wa_signal_group_skdm(struct wa_signal *s, const char *group,
		    const struct wa_signal_addr *own_addr,
		    struct buf *skdm_out);

/*
 * Process the SKDM skdm[0..len) that sender_addr sent for group (the
 * axolotlSenderKeyDistributionMessage of a decrypted pairwise Message,
 * 11.3 step 2): its key is added to the sender's record (which keeps
 * libsignal's last few keys), so skmsgs of that key decrypt.  Processing
 * the same SKDM again does no harm.  Returns 0.  Errors: WC_EBADMSG
 * (malformed, wrong version), WC_EBADKEY (its signing key is not a
 * Curve25519 point), WC_ETOOBIG (len above WA_SIGNAL_MAX_LEN), -EINVAL
 * (bad group or address, skdm NULL), -ENOTSUP, the store's errors,
 * -ENOMEM.  Nothing is written on error.
 */
MUST_CHECK int	wa_signal_group_process_skdm(struct wa_signal *s,
		    const char *group, const struct wa_signal_addr *sender_addr,
		    const uint8_t *skdm, size_t len);

/*
 * Encrypt p[0..len) (the padded Message protobuf, 9.3) with our sender
 * key for group and append the skmsg payload (a signed SenderKeyMessage,
 * 10.3) to *out.  The advanced chain is stored before this returns:
 * inside the caller's transaction when one is open (persist-before-send),
 * else committed on its own.  Returns 0.  Errors: WC_ENOSENDERKEY (no
 * sender key of ours for group: call wa_signal_group_skdm() first),
 * WC_ETOOBIG (len above WA_SIGNAL_MAX_LEN), -EINVAL, -ENOTSUP, the
 * store's errors, -ENOMEM, WC_ECRYPTO.  *out untouched on error.
 */
MUST_CHECK int	wa_signal_group_encrypt(struct wa_signal *s,
		    const char *group, const struct wa_signal_addr *own_addr,
		    const uint8_t *p, size_t len, struct buf *out);

/*
 * Decrypt the skmsg payload c[0..len) that sender_addr sent to group
 * (11.2) and append the plaintext (still padded) to *out.  The sender's
 * advanced chain (and the keys of skipped messages, for late arrivals) is
 * written in one transaction, or nothing on error.  Returns 0.  Errors:
 * WC_ENOSENDERKEY (no SKDM of that sender, or none for the key the skmsg
 * names, was processed, or the stored record is damaged, which is logged
 * as quarantined and replaced by the next SKDM: send a retry receipt,
 * 9.6, reliability.md 9), WC_EDUPMSG (already
 * decrypted: ack it and ignore it), WC_EBADMSG (malformed, wrong version,
 * bad signature, undecryptable, or more than 2000 messages ahead),
 * WC_ETOOBIG (len above WA_SIGNAL_MAX_LEN), -EINVAL, -ENOTSUP, the
 * store's errors, -ENOMEM.  *out untouched on error.
 */
MUST_CHECK int	wa_signal_group_decrypt(struct wa_signal *s,
		    const char *group, const struct wa_signal_addr *sender_addr,
		    const uint8_t *c, size_t len, struct buf *out);

/*
 * Whether the sender-key record of a in group is usable: 1 when it is
 * stored and deserializes, 0 when there is none, or the record was read
 * but is damaged (empty, too big, or does not deserialize): such a record
 * is dropped (logged as quarantined) in its own transaction, so that the
 * next wa_signal_group_skdm() makes a new key (for our own key the
 * caller must then send its SKDM to every device again), and
 * *quarantined (may be NULL) is set true.  A read error of the store is
 * never "none": the store's error is returned.  Other errors: -EINVAL
 * (bad group or address), -ENOTSUP (no sender-key ops, or a damaged
 * record and no sender_key_delete).  Source: reliability.md 9 (a damaged record is
 * rebuilt, never a lasting failure).
 */
MUST_CHECK int	wa_signal_group_check(struct wa_signal *s, const char *group,
		    const struct wa_signal_addr *a, bool *quarantined);

/*
 * Drop our sender key for group (10.4: a participant who had it left or
 * was removed), so the next wa_signal_group_skdm() creates a new key that
 * must be distributed to every remaining device; receivers that do not
 * get the new SKDM cannot read what follows.  Returns 1 when a key was
 * dropped, 0 when there was none.  Errors: -ENOTSUP (the ops have no
 * sender_key_delete), -EINVAL, the store's errors.
 */
MUST_CHECK int	wa_signal_group_forget(struct wa_signal *s, const char *group,
		    const struct wa_signal_addr *own_addr);

/*
 * Map a libsignal error (SG_ERR_*, -1000..-1999: the codes it defines are
 * -1000..-1201) to a WC_E* code; other codes (negative errno, WC_E*, 0)
 * pass unchanged.  Pure.
 */
int		wa_signal_err(int sg_err);

#endif
