/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-appstate.h -- part of store/store.h (included at its end,
 * for its types): what app state sync ("syncd", protocol-features.md
 * section 2, protocol.md 13) keeps in the database (store/appstate.c,
 * schema migration 14).  Include store/store.h, not this.
 *
 * The store knows rows, not wire formats: the engine (proto/) decrypts
 * and verifies a patch or snapshot (LTHash, snapshot MAC, patch MAC,
 * protocol-features.md 2.5, 2.6), decodes each SyncActionData into a
 * struct store_as_action, and hands the result to store_as_commit(),
 * which writes the collection's new version and hash, its index MAC ->
 * value MAC rows and the actions' effects on chats, contacts and
 * messages in one transaction.  A crash mid-sync leaves the last
 * committed version, so the next fetch asks from there.
 *
 * Limits below are checked before anything is written (-EINVAL, nothing
 * changed).  Every function runs on the thread that owns the struct
 * store (the engine thread for the live connection); none prints
 * anything but an SQLite failure to the log (no key bytes, names or
 * message text are logged).  Errors: -EINVAL (an argument), -ENOSPC (the
 * disk is full), -EIO (anything else SQLite reports).  Times are ms since
 * the Unix epoch.
 * ---------------------------------------------------------------------
 */
#ifndef WC_STORE_APPSTATE_H
#define WC_STORE_APPSTATE_H

#define STORE_AS_KEY_ID_MAX	64	/* bytes of an app-state key id */
#define STORE_AS_KEY_DATA_MAX	64	/* bytes of its keyData (32 today) */
#define STORE_AS_FP_MAX		512	/* bytes of its fingerprint message */
#define STORE_AS_COLL_MAX	32	/* bytes of a collection name */
#define STORE_AS_HASH_LEN	128	/* the LTHash of a collection */
#define STORE_AS_MAC_LEN	32	/* an index MAC or a value MAC */
#define STORE_AS_INDEX_MAX	4096	/* bytes of an index (JSON) */
#define STORE_AS_RAW_MAX	(64u << 10) /* bytes of SyncActionData kept */
#define STORE_AS_COMMIT_MAX	200000	/* MAC rows, or actions, per commit */
#define STORE_AS_PENDING_MAX	500	/* outbox rows listed at once */

/*
 * ---------------------------------------------------------------------
 * App-state sync keys (table as_key; protocol-features.md 2.3): keyData
 * from the phone's APP_STATE_SYNC_KEY_SHARE, stored by key id.
 * ---------------------------------------------------------------------
 */

/* One key.  Holds key material: the caller wipes it (explicit_bzero)
 * when done with a copy it loaded. */
struct store_as_key {
	uint8_t		 id[STORE_AS_KEY_ID_MAX];	/* AppStateSyncKeyId */
	size_t		 id_len;			/* 1..KEY_ID_MAX */
	uint8_t		 data[STORE_AS_KEY_DATA_MAX];	/* keyData */
	size_t		 data_len;			/* 1..KEY_DATA_MAX */
	uint8_t		 fp[STORE_AS_FP_MAX];	/* fingerprint, as received
						 * (its protobuf bytes) */
	size_t		 fp_len;		/* 0..FP_MAX */
	int64_t		 ts_ms;			/* the key's timestamp */
};

/*
 * Store key k (borrowed).  A key whose id is stored already is replaced
 * only when k->ts_ms is greater than the stored timestamp (a repeated or
 * older share keeps what is stored, [WM]).  Returns 1 when k was stored,
 * 0 when a key of that id with an equal or newer timestamp is kept,
 * -EINVAL (a length out of its range, k NULL), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_as_key_put(struct store *s, const struct store_as_key *k);

/*
 * The key of id id[0..id_len) into *out.  Returns 1, 0 when it is not
 * stored (*out untouched), -EINVAL (id_len 0 or above
 * STORE_AS_KEY_ID_MAX, NULL) or -EIO.
 */
MUST_CHECK int	store_as_key_get(struct store *s, const uint8_t *id,
		    size_t id_len, struct store_as_key *out);

/*
 * The key to send our own patches with: the stored key with the highest
 * timestamp (ties: the greatest id), into *out (protocol-features.md
 * 2.3, [WM]'s choice).  Returns 1, 0 when no key is stored (*out
 * untouched), -EINVAL (out NULL) or -EIO.
 */
MUST_CHECK int	store_as_key_newest(struct store *s, struct store_as_key *out);

/*
 * ---------------------------------------------------------------------
 * Collection state (tables as_state, as_mac; protocol-features.md 2.6):
 * per collection its version, its 128-byte LTHash and the index MAC ->
 * value MAC map of its live records.  A collection never committed is at
 * version 0 with an all-zero hash and no MAC rows.
 * ---------------------------------------------------------------------
 */

/* A collection's state. */
struct store_as_state {
	uint64_t	 version;	/* 0: never synced (or reset) */
	uint8_t		 hash[STORE_AS_HASH_LEN];
};

/*
 * The state of collection name (e.g. "regular_high"; non-empty, at most
 * STORE_AS_COLL_MAX bytes) into *out.  Returns 1 when a state is stored,
 * 0 when the collection was never committed or was reset (*out set to
 * version 0, all-zero hash), -EINVAL or -EIO.
 */
MUST_CHECK int	store_as_state_get(struct store *s, const char *name,
		    struct store_as_state *out);

/*
 * Discard collection name's state (a MAC mismatch, a fatal error: the
 * engine fetches a snapshot next, protocol-features.md 2.6): version 0,
 * zero hash, and every MAC row of it deleted, in one savepoint.  Its raw
 * rows (below) stay until the snapshot replaces them.  Chats, contacts
 * and messages are not touched.  Returns 0, -EINVAL, -ENOSPC or -EIO.
 */
MUST_CHECK int	store_as_state_reset(struct store *s, const char *name);

/*
 * The value MAC of index MAC index_mac in collection name, copied into
 * value_mac: the previous value of a record, which a patch's SET or
 * REMOVE subtracts from the LTHash.  Called once per record while a
 * patch is applied: one statement prepared once per connection, one
 * primary-key lookup, no allocation.  Returns 1, 0 when the collection
 * holds no such record (value_mac untouched), -EINVAL or -EIO.
 */
MUST_CHECK int	store_as_mac_get(struct store *s, const char *name,
		    const uint8_t index_mac[STORE_AS_MAC_LEN],
		    uint8_t value_mac[STORE_AS_MAC_LEN]);

/*
 * ---------------------------------------------------------------------
 * Committing a verified patch or snapshot (store_as_commit()).
 * ---------------------------------------------------------------------
 */

/* One record's MAC change, in the order of the patch's mutations. */
struct store_as_mac {
	uint8_t		 index_mac[STORE_AS_MAC_LEN];
	uint8_t		 value_mac[STORE_AS_MAC_LEN];	/* SET: the new one;
							 * REMOVE: unused */
	bool		 remove;	/* REMOVE: the row is deleted */
};

/*
 * What a decoded SyncActionData means (protocol-features.md 2.1, 2.2,
 * 2.8).  The engine maps the index's first element and the
 * SyncActionValue field to a kind; an action it does not read is
 * STORE_AS_OTHER and kept raw.
 */
enum store_as_kind {
	STORE_AS_OTHER = 0,	/* not read by wachat: kept as a raw row */
	STORE_AS_CONTACT,	/* ["contact", jid]: names into contact */
	STORE_AS_LID_CONTACT,	/* ["lid_contact", lid]: the same, by LID */
	STORE_AS_PUSH_NAME,	/* ["setting_pushName"]: our own push name */
	STORE_AS_MUTE,		/* ["mute", chat] */
	STORE_AS_PIN,		/* ["pin_v1", chat] */
	STORE_AS_ARCHIVE,	/* ["archive", chat] */
	STORE_AS_MARK_READ,	/* ["markChatAsRead", chat] */
	STORE_AS_STAR,		/* ["star", chat, id, fromMe, participant] */
	STORE_AS_DELETE_CHAT,	/* ["deleteChat", chat, deleteMedia] */
	STORE_AS_CLEAR_CHAT,	/* ["clearChat", chat, deleteStarred,
				 * deleteMedia] */
	STORE_AS_DELETE_MSG,	/* ["deleteMessageForMe", chat, id, fromMe,
				 * participant] */
	STORE_AS_LOCK,		/* ["lock", chat] */
	STORE_AS_KIND_COUNT_
};

/*
 * One decoded action.  Every pointer is borrowed for the call; NULL
 * strings read as "".  Which fields each kind reads, and what its SET
 * does (a REMOVE does something only where said; elsewhere it is
 * ignored, as [WM] ignores it, and changes nothing):
 *
 *  CONTACT, LID_CONTACT: jid (a user JID, required) gets full_name as
 *	its address-book name (contact.name) and first_name; REMOVE clears
 *	both.  The push name is not touched.
 *  PUSH_NAME: full_name becomes our own push name, kept in the setting
 *	row 'push_name' (store_as_push_name()); REMOVE ignored.
 *  MUTE: flag (muted): chat jid muted until mute_end_ms (a value < 0:
 *	always, stored -1; 0 reads as not muted), !flag: unmuted (0).
 *  PIN: flag: chat pinned at ts_ms (the action's timestamp; 1 when it is
 *	<= 0, as 0 means "not pinned"); !flag: 0.
 *  ARCHIVE: chat archived = flag.
 *  MARK_READ: flag (read): marked_unread cleared, the unread count 0,
 *	last_read_rowid its newest message, and its RECEIVED messages up to
 *	the bound (below) stored READ (the phone sent their read receipts,
 *	so wachat sends none); !flag: marked_unread set.
 *  STAR: message (jid, from_me, msg_id) starred = flag (participant is
 *	not needed to find it: the key is unique per chat); a message not
 *	stored is left alone.
 *  DELETE_CHAT: chat jid's messages up to the bound are deleted with
 *	their reactions, receipts and search rows; then, when none is left,
 *	the chat row too.  Contacts, groups and their members stay.
 *  CLEAR_CHAT: the same for messages up to the bound, except starred
 *	ones unless delete_starred; the chat row stays (its unread 0).
 *  DELETE_MSG: message (jid, from_me, msg_id) deleted with its
 *	reactions and search row; the chat's preview falls back.
 *  LOCK: chat locked = flag.
 *  OTHER: the row (collection, index) of table as_raw gets raw; a REMOVE
 *	deletes it.  Nothing else reads it.
 *
 * The bound of MARK_READ, DELETE_CHAT and CLEAR_CHAT: range_ms (the
 * action's messageRange.lastMessageTimestamp, converted to ms) when > 0,
 * else ts_ms when > 0, else every message: so an old action of a
 * snapshot never removes messages that arrived after it.
 * delete_media is kept for the engine's use (wachat stores no media
 * files yet).  Kinds other than OTHER keep no raw row.
 */
struct store_as_action {
	enum store_as_kind kind;
	bool		 remove;	/* the mutation was a REMOVE */
	const char	*jid;		/* chat or contact JID, <= STORE_JID_MAX;
					 * required for every kind but
					 * PUSH_NAME and OTHER */
	const char	*msg_id;	/* STAR, DELETE_MSG: required */
	bool		 from_me;	/* STAR, DELETE_MSG */
	const char	*participant;	/* STAR, DELETE_MSG: group author or
					 * NULL; not needed by the store */
	bool		 flag;		/* muted, pinned, archived, read,
					 * starred, locked */
	int64_t		 mute_end_ms;	/* MUTE: ms; < 0: always */
	const char	*full_name;	/* CONTACT, LID_CONTACT, PUSH_NAME;
					 * <= STORE_NAME_MAX */
	const char	*first_name;	/* CONTACT, LID_CONTACT */
	bool		 delete_media;	/* DELETE_CHAT, CLEAR_CHAT, DELETE_MSG */
	bool		 delete_starred; /* CLEAR_CHAT */
	int64_t		 ts_ms;		/* SyncActionValue.timestamp (ms) */
	int64_t		 range_ms;	/* messageRange last time, ms; 0 none */
	const uint8_t	*index;		/* OTHER: the index JSON bytes, */
	size_t		 index_len;	/* 1..STORE_AS_INDEX_MAX */
	const uint8_t	*raw;		/* OTHER, SET: SyncActionData bytes, */
	size_t		 raw_len;	/* 0..STORE_AS_RAW_MAX */
};

/* A verified patch or snapshot of one collection, to commit whole. */
struct store_as_patch {
	const char	*collection;	/* required, <= STORE_AS_COLL_MAX */
	bool		 snapshot;	/* replaces the collection's MAC rows
					 * and raw rows (version and hash as
					 * given; base_version not checked) */
	uint64_t	 base_version;	/* a patch: the version it was verified
					 * on, which must be the stored one */
	uint64_t	 version;	/* the version after it, <= INT64_MAX */
	const uint8_t	*hash;		/* STORE_AS_HASH_LEN bytes after it */
	const struct store_as_mac *macs; /* in mutation order */
	size_t		 nmacs;		/* 0..STORE_AS_COMMIT_MAX */
	const struct store_as_action *actions;	/* in mutation order */
	size_t		 nactions;	/* 0..STORE_AS_COMMIT_MAX */
};

/*
 * Commit p (borrowed) in one savepoint (nests in a caller's
 * transaction): the collection's version and hash, its MAC rows (a
 * snapshot deletes the old ones and its raw rows first; then each entry
 * in order: SET inserts or replaces, REMOVE deletes), and each action's
 * effect in order (struct store_as_action above).  All of it is durable
 * together or not at all: on any error nothing is changed (version,
 * hash, MACs, chats, contacts, messages as before).  The statements are
 * prepared once and reused for every row; no allocation per action of
 * the common kinds (CONTACT, MUTE, PIN, ARCHIVE, LOCK, STAR).
 * Returns 0, -ESTALE (a patch whose base_version is not the stored
 * version: the state moved, nothing written), -EINVAL (p or a field
 * out of its range, an action without the fields its kind needs, an
 * unknown kind: nothing written, whichever action it was), -ENOSPC or
 * -EIO.
 */
MUST_CHECK int	store_as_commit(struct store *s,
		    const struct store_as_patch *p);

/*
 * Apply n (0..STORE_AS_COMMIT_MAX) actions (borrowed) to chats,
 * contacts and messages as store_as_commit() does, in one savepoint,
 * without touching any collection's version, hash or MAC rows: the
 * user's own mute, pin, archive, ... shown at once, while its mutation
 * waits in the outbox below (call both in one store_tx_begin() so the
 * two are durable together).  OTHER actions keep their raw row only
 * with collection given (NULL: OTHER is -EINVAL).  Returns 0, -EINVAL
 * (nothing written), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_as_apply(struct store *s, const char *collection,
		    const struct store_as_action *actions, size_t n);

/*
 * Our own push name as the last setting_pushName action set it, into
 * out (STORE_NAME_MAX + 1 bytes, NUL-terminated, as received: the UI
 * sanitizes).  The engine sends it in <presence name> (protocol.md
 * 15.4); the device row's push_name is not changed by app state.
 * Returns 1, 0 when none was synced (out untouched), -EINVAL or -EIO.
 */
MUST_CHECK int	store_as_push_name(struct store *s,
		    char out[STORE_NAME_MAX + 1]);

/*
 * ---------------------------------------------------------------------
 * Our own mutations waiting for the server (table as_pending, an outbox
 * for app-state patches; protocol-features.md 2.7): a mute, pin or
 * archive made offline, or sent and not yet accepted, is kept here until
 * the server takes it, so it is not lost to a disconnect or a restart.
 * The engine encodes the action (its SyncActionValue or SyncActionData
 * bytes, opaque here) and builds the patch from it when it sends.
 * ---------------------------------------------------------------------
 */

enum store_as_pending_state {
	STORE_AS_QUEUED = 0,	/* to send (again) */
	STORE_AS_SENT = 1,	/* in a patch sent, no answer yet */
	STORE_AS_FAILED = 2,	/* the server refused it for good */
};

/* One pending mutation, as listed.  Pointers owned by the list. */
struct store_as_pending {
	int64_t		 id;		/* > 0, in the order added */
	char		 collection[STORE_AS_COLL_MAX + 1];
	uint8_t		*action;	/* action_len bytes */
	size_t		 action_len;
	uint8_t		*index;		/* the index JSON, index_len bytes */
	size_t		 index_len;
	enum store_as_pending_state state;
	int64_t		 created_ms;
};

/*
 * Queue a mutation of collection: action[0..action_len) (1..
 * STORE_AS_RAW_MAX bytes) with its index JSON index[0..index_len)
 * (1..STORE_AS_INDEX_MAX), made at now_ms, state QUEUED.  Returns 0 and
 * *id (may be NULL), -EINVAL, -ENOSPC or -EIO.
 */
MUST_CHECK int	store_as_pending_add(struct store *s, const char *collection,
		    const uint8_t *index, size_t index_len,
		    const uint8_t *action, size_t action_len, int64_t now_ms,
		    int64_t *id);

/*
 * Up to max (1..STORE_AS_PENDING_MAX) pending mutations in state state,
 * of collection (NULL: any), oldest first (by id), into *out and *n
 * (freed with store_as_pending_free(); *n may be 0).  Returns 1 when
 * more than max match, 0 when not, -EINVAL or -EIO (*out untouched).
 */
MUST_CHECK int	store_as_pending_list(struct store *s, const char *collection,
		    enum store_as_pending_state state, size_t max,
		    struct store_as_pending **out, size_t *n);

/* Free a list of n from store_as_pending_list() (NULL is a no-op). */
void		store_as_pending_free(struct store_as_pending *p, size_t n);

/*
 * Set pending mutation id's state (SENT when its patch goes out, FAILED
 * when refused for good, QUEUED to send it again).  Returns 1 when it
 * exists, 0 when not, -EINVAL (another state), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_as_pending_mark(struct store *s, int64_t id,
		    enum store_as_pending_state state);

/*
 * Every SENT mutation back to QUEUED (at login: a patch sent before a
 * disconnect may not have been taken; the engine sends it again on the
 * state it fetches).  Returns how many moved (>= 0), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_as_pending_requeue(struct store *s);

/*
 * Remove pending mutation id: done (the server accepted its patch, and
 * the collection state that holds it is committed) or given up.
 * Returns 1 when it existed, 0 when not, -ENOSPC or -EIO.
 */
MUST_CHECK int	store_as_pending_remove(struct store *s, int64_t id);

/*
 * ---------------------------------------------------------------------
 * The chat list's counts, with app state's flags (store/chat.c).
 * ---------------------------------------------------------------------
 */

/* What the chat list's header shows. */
struct store_unread_summary {
	int64_t		 messages;	/* unread messages of unmuted,
					 * unarchived chats */
	int		 chats;		/* unmuted, unarchived chats with
					 * unread messages or marked unread */
	int		 archived;	/* archived chats with unread messages
					 * or marked unread (muted or not) */
};

/*
 * The unread counts at now_ms: a chat is muted when muted_until is -1 or
 * later than now_ms.  One pass over the chat table (no read into the
 * message table).  Returns 0 and *out, -EINVAL (out NULL) or -EIO.
 */
MUST_CHECK int	store_chat_unread_summary(struct store *s, int64_t now_ms,
		    struct store_unread_summary *out);

#endif
