/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appsync.h -- app state sync ("syncd") in the engine, the receive
 * side (protocol-features.md 2.1-2.8, 6; protocol.md 13): the five
 * collections fetched in one <sync> iq (2.4), snapshot blobs and external
 * mutations downloaded through the media hosts (proto/mediaconn.h) over
 * HTTPS off the loop (proto/http-get.h), checked and decrypted like media
 * (proto/media.h, WA_MEDIA_INFO_APP_STATE), every patch and snapshot
 * verified (proto/appstate.h wa_as_apply: record MACs, LTHash, snapshot
 * and patch MACs) and committed through the store, one transaction each,
 * so that a connection lost mid-sync resumes at the next login from the
 * versions stored.  has_more_patches is followed for at most
 * WA_APPSYNC_MAX_ROUNDS iqs per trigger.
 *
 * A MAC or LTHash mismatch (and a malformed patch or snapshot) resets the
 * collection in the store and fetches a snapshot, at most
 * WA_APPSYNC_MAX_RESETS times in a row (a snapshot committed ends the
 * row), then the collection is left alone until the next login
 * (logged).  A missing key parks the
 * collection and asks our phone for it (APP_STATE_SYNC_KEY_REQUEST, at
 * most once per key per WA_APPSYNC_KEY_REQUEST_MS); the key share that
 * answers (wa_appsync_keys()) resumes it.  Triggers: the login
 * (wa_appsync_online()), a key share, <notification type="server_sync">.
 * Engine thread only.
 */
#ifndef WA_APPSYNC_H
#define WA_APPSYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"
#include "proto/appstate.h"
#include "proto/askey.h"
#include "proto/http-get.h"

struct uv_loop_s;
struct wa_appsync;
struct wa_node;

#define WA_APPSYNC_BLOB_MAX	(64u << 20)	/* bytes of a downloaded
						 * snapshot or mutations blob
						 * (plaintext and download) */
#define WA_APPSYNC_TIMEOUT_MS	120000	/* one download */
#define WA_APPSYNC_IQ_TIMEOUT_MS 60000	/* an iq unanswered this long is
					 * asked again at the next trigger */
#define WA_APPSYNC_MAX_ROUNDS	32	/* sync iqs per trigger */
#define WA_APPSYNC_MAX_PATCHES	2000	/* patches taken of one collection
					 * in one answer (the rest: next) */
#define WA_APPSYNC_MAX_RESETS	2	/* snapshots after a mismatch, in a
					 * row, per collection */
#define WA_APPSYNC_KEY_REQUEST_MS (24 * 3600 * 1000LL) /* 2.3, [WM] */
#define WA_APPSYNC_KEYS_ASKED	32	/* key ids remembered as asked */
#define WA_APPSYNC_SEND_ATTEMPTS 3	/* sends of one mutation of ours per
					 * connection, 409s included (2.7) */

/* One verified patch or snapshot of a collection, to commit whole. */
struct wa_appsync_commit {
	enum wa_as_coll		 coll;
	const char		*name;		/* its wire name */
	bool			 snapshot;	/* replaces the collection */
	uint64_t		 base_version;	/* a patch: the version it was
						 * verified on */
	const struct wa_as_state *state;	/* the state after it */
	/* The decoded mutations (mutation order; those with err != 0 carry
	 * nothing usable) and the MAC map's net changes. */
	const struct wa_as_apply_out *out;
};

/* The store, bound over store/ by src/app-appstate.c.  Each op gets arg
 * first; errors are < 0 (-ENOSPC and -EIO: the disk). */
struct wa_appsync_store_ops {
	/* 1 when any app-state key is stored, 0 when none, or < 0. */
	int	(*key_any)(void *arg);
	/* keyData of key id[0..len) into data[WA_ASKEY_DATA_MAX], *data_len:
	 * 1, 0 when not stored, or < 0. */
	int	(*key_get)(void *arg, const uint8_t *id, size_t len,
		    uint8_t *data, size_t *data_len);
	/* The stored state of collection name: 1 (*out), 0 never synced or
	 * reset (*out version 0, zero hash), or < 0. */
	int	(*state_get)(void *arg, const char *name,
		    struct wa_as_state *out);
	/* Discard collection name's state (version 0, no MAC rows): 0 or
	 * < 0. */
	int	(*state_reset)(void *arg, const char *name);
	/* The value MAC stored for index_mac in collection name: 1, 0 none,
	 * or < 0. */
	int	(*mac_get)(void *arg, const char *name,
		    const uint8_t index_mac[WA_AS_MAC_LEN],
		    uint8_t value_mac[WA_AS_MAC_LEN]);
	/* Commit c in one transaction (version, hash, MAC rows, the actions'
	 * effects on chats, contacts and messages): 0; -ESTALE when the
	 * stored version is not c->base_version (nothing written); or < 0
	 * (nothing written). */
	int	(*commit)(void *arg, const struct wa_appsync_commit *c);
	/*
	 * Our own mutations (2.7; optional: without all three nothing is
	 * sent).  pending_next: the oldest queued mutation of collection
	 * name: 1 with its outbox id in *id and its SyncActionData bytes
	 * (wa_as_action_encode()) in *data[0..*len) (malloc'd, the
	 * caller's to free()), 0 none, or < 0.  pending_done: mutation id
	 * is done (accepted and committed) or given up: removed; 0 or < 0.
	 * key_newest: the key to send with (the newest, 2.3): 1 with its id
	 * in id[WA_AS_KEY_ID_MAX], *id_len and keyData in
	 * data[WA_ASKEY_DATA_MAX], *data_len; 0 none, or < 0.
	 */
	int	(*pending_next)(void *arg, const char *name, int64_t *id,
		    uint8_t **data, size_t *len);
	int	(*pending_done)(void *arg, int64_t id);
	int	(*key_newest)(void *arg, uint8_t *id, size_t *id_len,
		    uint8_t *data, size_t *data_len);
	void	*arg;
};

/* What the engine gives the module. */
struct wa_appsync_host {
	/* Encode and send a stanza: 0 or < 0. */
	int	(*send)(void *arg, const struct wa_node *n);
	/* A fresh iq id, NUL-terminated, < 32 bytes. */
	void	(*iq_id)(void *arg, char out[32]);
	/* Send Message bytes msg[0..len) to our own phone as a peer message
	 * (proto/dm.h wa_dm_send_peer()): 0 or < 0. */
	int	(*send_peer)(void *arg, const uint8_t *msg, size_t len);
	/* Wall clock, ms since the epoch. */
	int64_t	(*now_ms)(void *arg);
	/* len random bytes into p (the IVs of our own mutations): 0 or
	 * < 0.  Optional: NULL sends nothing of ours. */
	int	(*rng)(void *arg, uint8_t *p, size_t len);
	/* The HTTP GET and its cancel: NULL for wa_http_get() and
	 * wa_http_get_cancel() (tests give their own). */
	int	(*http_get)(struct uv_loop_s *loop, const struct wa_http_req *r,
		    wa_http_done_fn done, void *done_arg,
		    struct wa_http_get **out);
	void	(*http_cancel)(struct wa_http_get *g);
	struct uv_loop_s *loop;
	const char	*ca_file;	/* extra CAs for the media hosts, or
					 * NULL; borrowed */
	void	*arg;
};

enum wa_appsync_ev_kind {
	WA_APPSYNC_EV_CHANGED,	/* patches were committed (once per answer
				 * taken, not per record): actions, and
				 * whether names or chats changed */
	WA_APPSYNC_EV_STORE_FAILED, /* a write failed with err -ENOSPC or
				 * -EIO: nothing more is synced until the
				 * next wa_appsync_online(); once per
				 * connection */
	/* Our own mutations (2.7), each with its action: */
	WA_APPSYNC_EV_SENDING,	/* its patch went to the server */
	WA_APPSYNC_EV_SENT,	/* accepted and committed (a CHANGED with
				 * chats came just before) */
	WA_APPSYNC_EV_SEND_FAILED, /* not taken: err > 0 the server's code
				 * (409 after WA_APPSYNC_SEND_ATTEMPTS
				 * conflicts), < 0 a local error (the
				 * send, the key, the encoding); it stays
				 * in the outbox for the next login */
	WA_APPSYNC_EV_NO_KEY,	/* mutations wait, and no app-state key is
				 * stored yet (app state not synced) */
};

struct wa_appsync_ev {
	enum wa_appsync_ev_kind kind;
	uint32_t	 actions;	/* CHANGED: actions committed */
	uint32_t	 colls;		/* CHANGED: bit (1 << enum wa_as_coll)
					 * of each collection committed */
	bool		 names;		/* CHANGED: contact or push names */
	bool		 chats;		/* CHANGED: chat flags or messages */
	int		 err;		/* STORE_FAILED, SEND_FAILED */
	/* SENDING, SENT, SEND_FAILED: the action (borrowed for the call;
	 * kind and flag say what it does); NULL otherwise. */
	const struct wa_as_action *action;
};

typedef void	(*wa_appsync_event_fn)(void *arg, const struct wa_appsync_ev *e);

/*
 * A new module over the borrowed host and store (they must outlive it).
 * Returns 0 and *out, freed with wa_appsync_free().  Errors: -EINVAL (a
 * NULL argument or a required op: every store op, send, iq_id,
 * send_peer, now_ms, loop).
 */
MUST_CHECK int	wa_appsync_new(const struct wa_appsync_host *host,
		    const struct wa_appsync_store_ops *st,
		    wa_appsync_event_fn on_event, void *ev_arg,
		    struct wa_appsync **out);

/* Free s, cancelling a download in flight (NULL is a no-op). */
void		wa_appsync_free(struct wa_appsync *s);

/* Logged in: every collection is fetched from its stored version (when a
 * key is stored at all; else the key share starts it).  The limits of
 * the last connection (resets, collections given up) are forgotten. */
void		wa_appsync_online(struct wa_appsync *s);

/* The connection is gone: the iq and the download in flight are given
 * up (what was committed stays). */
void		wa_appsync_offline(struct wa_appsync *s);

/* App-state keys were stored (a key share from our phone): fetch every
 * collection never synced and those parked on a missing key. */
void		wa_appsync_keys(struct wa_appsync *s);

/*
 * A mutation of ours was queued in the outbox (store ops pending_next):
 * sent when online and its collection is up to date, one at a time per
 * collection, oldest first; without a key, WA_APPSYNC_EV_NO_KEY.
 * Returns true when online (it goes now, or once the collection is
 * fetched), false when it waits for wa_appsync_online().
 */
bool		wa_appsync_outbox(struct wa_appsync *s);

/*
 * A stanza: <notification type="server_sync"> (each named collection is
 * fetched; the caller acks it), or an <iq> answering the module's sync or
 * media_conn query.  Returns 1 when it was the module's, 0 when not.
 */
int		wa_appsync_stanza(struct wa_appsync *s, const struct wa_node *n);

#endif
