/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng.h -- the connection engine: the state machine that links
 * wachat to an account as a companion device and keeps it online, on top
 * of proto/conn.h.  It makes the registration material once (protocol.md
 * 3.2), connects with the registration payload while unpaired and the
 * login payload once paired (3.1), pairs by QR code (6.1-6.6), uploads
 * one-time prekeys after <success> (7.1-7.4), sends keepalive pings and
 * answers the server's (1.4), handles stream:error and failure (1.5) and
 * reconnects with backoff and jitter (1.6).  It also pairs by phone-number
 * code (6.7) when asked, and after failure 405 looks the current WhatsApp
 * Web version up (3.3, proto/engver.h) and logs in again once with it.  Persistence goes through
 * struct wa_store_ops (the composition root binds store/ into it); time
 * and randomness are injected; everything the UI may show goes out as a
 * struct wa_eng_ev through one callback.
 *
 * Thread contract: every function and every callback runs on the thread
 * that runs the loop given to wa_eng_new() (the engine thread), after
 * wa_crypto_init() has returned; wa_eng_qr_text() is pure (any thread).
 * The store ops are called on that thread too, and never re-entrantly.
 *
 * Lifecycle:
 *   wa_eng_new() -> wa_eng_start() -> events ... -> wa_eng_free()
 *   then run the loop until it has no handles left.
 */
#ifndef WA_ENG_H
#define WA_ENG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/conn.h"
#include "proto/dm.h"
#include "proto/appsync.h"
#include "proto/hsync.h"
#include "proto/media-get.h"
#include "proto/prof.h"

struct uv_loop_s;
struct wa_eng;

#define WA_ENG_KEY_LEN		32	/* a Curve25519 private or public key */
#define WA_ENG_SIG_LEN		64	/* an XEdDSA signature */
#define WA_ENG_JID_MAX		96	/* bytes of a JID, with the NUL */
#define WA_ENG_ADV_MAX		1024	/* bytes of a signed identity */
#define WA_ENG_PREKEY_ID_MAX	0xFFFFFFu /* 3 bytes on the wire (7.3) */
#define WA_ENG_PREKEY_FIRST	812	/* first upload (7.3, all sources) */
#define WA_ENG_PREKEY_TOPUP	50	/* later batches (7.3, [WM]) */
#define WA_ENG_PREKEY_MIN	5	/* top up below this count (7.3) */
#define WA_ENG_QR_FIRST_MS	60000	/* first ref shown (6.2) */
#define WA_ENG_QR_NEXT_MS	20000	/* each next ref (6.2) */
#define WA_ENG_PING_MIN_MS	20000	/* keepalive interval, random in */
#define WA_ENG_PING_MAX_MS	30000	/*   [min, max] (1.4, [WM]) */
#define WA_ENG_PING_DEADLINE_MS	10000	/* answer due within (1.4, [WM]) */
#define WA_ENG_RETRY_FIRST_MS	1000	/* first reconnect delay (1.6, [RS]) */
#define WA_ENG_RETRY_CAP_MS	60000	/* cap of the Fibonacci backoff */
#define WA_ENG_STABLE_MS	30000	/* this long online resets backoff */
#define WA_ENG_WAIT_MS		20000	/* the server's answer due within
					 * (<success>, pair-device, the
					 * restart after pairing, the link
					 * code's answers): as the handshake's
					 * ([WM], [BL] connectTimeoutMs) */

/*
 * This companion's own material, as the store keeps it (protocol.md 3.2,
 * 6.4 step 6).  Plain data; keys are wiped by whoever drops a copy.
 */
struct wa_device {
	uint8_t		 noise_priv[WA_ENG_KEY_LEN];	/* Noise static key */
	uint8_t		 noise_pub[WA_ENG_KEY_LEN];
	uint8_t		 identity_priv[WA_ENG_KEY_LEN];	/* Signal identity */
	uint8_t		 identity_pub[WA_ENG_KEY_LEN];
	uint32_t	 registration_id;		/* 14 bits */
	uint8_t		 adv_secret[WA_ENG_KEY_LEN];	/* the QR's secret */
	uint32_t	 spk_id;			/* signed prekey id */
	uint8_t		 spk_priv[WA_ENG_KEY_LEN];
	uint8_t		 spk_pub[WA_ENG_KEY_LEN];
	uint8_t		 spk_sig[WA_ENG_SIG_LEN];	/* over 05 || spk_pub */
	char		 jid[WA_ENG_JID_MAX];	/* own AD-JID; "" unpaired */
	char		 lid[WA_ENG_JID_MAX];	/* own LID AD-JID, or "" */
	char		 push_name[128];	/* may be "" */
	uint8_t		 account_sig_key[WA_ENG_KEY_LEN]; /* 0s until paired */
	/* The whole ADVSignedDeviceIdentity (6.4 step 6). */
	uint8_t		 adv_identity[WA_ENG_ADV_MAX];
	size_t		 adv_identity_len;	/* bytes; 0 until paired */
	/* Paired (pair-success answered) but no login has succeeded yet:
	 * the server may never have accepted the link.  A login refused
	 * with failure 401/403/406 or stream:error 401 then starts a new
	 * link (a new QR) instead of ending as logged out. */
	bool		 unconfirmed;
};

/* A one-time prekey (protocol.md 7.3): id 1..WA_ENG_PREKEY_ID_MAX. */
struct wa_prekey {
	uint32_t	 id;
	uint8_t		 priv[WA_ENG_KEY_LEN];
	uint8_t		 pub[WA_ENG_KEY_LEN];
};

/*
 * Persistence, implemented over store/ by src/app-store.c (or by a fake in
 * tests).  Every op gets arg first, runs on the engine thread and returns
 * 0 or a negative code unless said otherwise; an error is never "absent".
 */
struct wa_store_ops {
	/* Load the device: 1 and *out, 0 when there is none (*out
	 * untouched), or < 0. */
	int	(*device_load)(void *arg, struct wa_device *out);
	/* Insert or replace the device, durable on return. */
	int	(*device_save)(void *arg, const struct wa_device *d);
	/* Delete the device and every prekey (logged out). */
	int	(*device_forget)(void *arg);
	/* The id the next generated prekey takes (wraps after
	 * WA_ENG_PREKEY_ID_MAX to 1). */
	int	(*prekey_next_id)(void *arg, uint32_t *id);
	/* Store n keys in ONE transaction, durable on return, and advance
	 * the next id; -EEXIST when an id is still stored (nothing written). */
	int	(*prekey_put)(void *arg, const struct wa_prekey *k, size_t n);
	/* Up to max keys not yet marked uploaded, lowest id first: the
	 * count (>= 0) or < 0. */
	int	(*prekey_pending)(void *arg, struct wa_prekey *out, size_t max);
	/* Mark stored keys with ids in [first, last] uploaded. */
	int	(*prekey_mark_uploaded)(void *arg, uint32_t first,
		    uint32_t last);
	/* The count of stored keys (uploaded or not), or < 0. */
	int	(*prekey_count)(void *arg);
	/* The WhatsApp Web version last looked up (protocol.md 3.3), as the
	 * revision N of 2.3000.N: 1 and *rev, 0 when none is kept, or < 0.
	 * May be NULL (none kept). */
	int	(*version_load)(void *arg, uint32_t *rev);
	/* Keep rev as the version looked up; may be NULL (not kept). */
	int	(*version_save)(void *arg, uint32_t rev);
	void	*arg;
};

enum wa_eng_ev_kind {
	WA_ENG_EV_CONNECTING,	/* a connection attempt starts; num = attempt */
	WA_ENG_EV_QR,		/* text = QR string, secs = seconds it is shown,
				 * num = ref index (0-based) */
	WA_ENG_EV_PAIRED,	/* text = own JID */
	WA_ENG_EV_CONNECTED,	/* <success>: logged in; text = own JID */
	WA_ENG_EV_PREKEYS_STORED, /* num keys stored, first id in id */
	WA_ENG_EV_PREKEYS_SENT,	/* the upload iq with num keys is on the
				 * wire, first id in id */
	WA_ENG_EV_PREKEYS_UPLOADED, /* the server accepted num keys */
	WA_ENG_EV_PREKEY_COUNT,	/* num = the server's count of our one-time
				 * prekeys (a count reply or an encrypt
				 * notification, 7.3-7.4) */
	WA_ENG_EV_QR_REFRESH,	/* companion_reg_refresh (6.2.1): a new ADV
				 * secret; the new QR follows as WA_ENG_EV_QR */
	WA_ENG_EV_PAIR_CODE,	/* text = the link code to type on the phone,
				 * as WhatsApp shows it ("XXXX-XXXX"), for
				 * the number asked (6.7) */
	WA_ENG_EV_VERSION,	/* text = the version looked up after
				 * failure 405 ("2.3000.N"); the engine
				 * logs in again with it (3.3) */
	WA_ENG_EV_DISCONNECTED,	/* text = reason in words, err = the code,
				 * retry_ms = delay before the next attempt */
	WA_ENG_EV_LOGGED_OUT,	/* text = reason; the store was forgotten;
				 * no more attempts */
	WA_ENG_EV_STOPPED,	/* no more attempts (not logged out): text =
				 * reason (replaced, banned, outdated, ...) */
	WA_ENG_EV_IDLE,		/* no more attempts until wa_eng_retry():
				 * text = why, in words (the QR codes ran
				 * out with nobody scanning, or the server
				 * refused the login with a <failure> it
				 * gives no retry for, protocol.md 1.5);
				 * err = the code; num = the failure's
				 * reason (0 for the QR codes) */
	WA_ENG_EV_ERROR,	/* text = what failed, err = the code; the
				 * engine goes on */
	WA_ENG_EV_STORE_FAILED,	/* a write of the store's failed: text =
				 * what, err = -ENOSPC (the disk is full)
				 * or -EIO; nothing that needed it was sent
				 * (no prekey the store does not hold, no
				 * link it did not keep); the host holds the
				 * engine (wa_eng_hold()) until a write
				 * succeeds (reliability.md "Disk full") */
	WA_ENG_EV_PUSH_NAME,	/* our push name changed (account_sync,
				 * protocol.md 11.7) and is stored: name is
				 * the new one */
	WA_ENG_EV_LINKED,	/* wa_eng_start() found a device linked before
				 * (a login has succeeded with it): text =
				 * own JID; before any connection, so the
				 * host can show the account offline */
};

/* One event; borrowed for the call (copy what you keep). */
struct wa_eng_ev {
	enum wa_eng_ev_kind	 kind;
	const char		*text;	/* never NULL; may be "" */
	int			 err;	/* 0 or a negative code */
	uint32_t		 secs;	/* WA_ENG_EV_QR */
	uint32_t		 retry_ms; /* WA_ENG_EV_DISCONNECTED */
	uint32_t		 num;	/* see the kinds */
	uint32_t		 id;	/* see the kinds */
	const char		*name;	/* our push name as the engine holds
					 * it, with every event; never NULL,
					 * "" while none is known */
};

typedef void	(*wa_eng_event_fn)(void *arg, const struct wa_eng_ev *ev);

/* Settings; strings are copied by wa_eng_new(). */
struct wa_eng_cfg {
	const char		*url;		/* NULL = WA_CONN_DEFAULT_URL */
	const char		*ca_file;	/* may be NULL */
	const uint8_t		*root_pub;	/* 32 bytes; NULL = WA's */
	/* NULL = the default, looked up again after failure 405; set, it
	 * pins the version (no look-up: a 405 stops the engine). */
	const char		*version;
	/* Where the version is looked up after a 405 (3.3): a page with
	 * "client_revision":N; NULL = WA_ENGVER_DEFAULT_URL.  https uses
	 * ca_file too. */
	const char		*version_url;
	/* Digits of a phone number (country code first, an optional
	 * leading '+'), or NULL: pair by code with it instead of showing
	 * QR codes (6.7); see wa_eng_pair_code(). */
	const char		*pair_pn;
	/* DeviceProps.os, the name the phone's Linked devices list shows
	 * (platformType DESKTOP, protocol.md 3.4); NULL = "wachat
	 * (<uname system>)", e.g. "wachat (Linux)". */
	const char		*os;
	/* Ask the phone, when linking, for all of the history (FULL
	 * chunks, protocol.md 12.1) rather than about the last year. */
	bool			 full_history;
	/* NULL = none; else the current QR text is written there (0600,
	 * replaced atomically) and the file removed once paired, logged
	 * out, or when the engine is freed while showing it. */
	const char		*qr_file;
	uint32_t		 qr_first_ms;	/* 0 = WA_ENG_QR_FIRST_MS */
	uint32_t		 qr_next_ms;	/* 0 = WA_ENG_QR_NEXT_MS */
	uint32_t		 ping_ms;	/* 0 = random (20-30 s) */
	uint32_t		 ping_deadline_ms; /* 0 = the default */
	/* The deadline of each state of the transport before the handshake
	 * ends (proto/conn.h), ms; 0 = WA_CONN_HANDSHAKE_TIMEOUT_MS. */
	uint32_t		 handshake_timeout_ms;
	/* The deadline of each answer the engine awaits from the server
	 * (after the handshake, before <success>; pair-device; the restart
	 * after pair-device-sign; the link code's answers), ms; 0 =
	 * WA_ENG_WAIT_MS.  When one passes the connection is dropped with
	 * that reason and reconnected with the backoff.  After <success>
	 * the keepalive's ping_deadline_ms takes over. */
	uint32_t		 wait_ms;
	/* The longest wait between reconnects, ms; 0 = WA_ENG_RETRY_CAP_MS.
	 * Below WA_ENG_RETRY_FIRST_MS every wait is this one. */
	uint32_t		 retry_cap_ms;
	wa_conn_rng_fn		 rng;		/* required */
	void			*rng_arg;
	wa_conn_clock_fn	 now_ms;	/* required */
	void			*clock_arg;
	const struct wa_store_ops *store;	/* required; borrowed for the
						 * engine's life */
	wa_eng_event_fn		 on_event;	/* required */
	void			*ev_arg;
	/* 1:1 messaging (proto/dm.h): with all three set, the engine sends
	 * and receives messages once logged in; else it only links and
	 * stays connected.  Borrowed for the engine's life. */
	const struct wa_signal_store_ops *signal_store;
	const struct wa_dm_store_ops *dm_store;
	wa_dm_event_fn		 on_dm_event;
	void			*dm_ev_arg;
	struct wa_dm_cfg	 dm;		/* the messaging settings */
	/* History sync (proto/hsync.h): with both set (and messaging), the
	 * history our phone sends is imported; ca_file is trusted for the
	 * media hosts too.  Borrowed for the engine's life. */
	const struct wa_hsync_store_ops *hsync_store;
	wa_hsync_event_fn	 on_hsync_event;
	void			*hsync_ev_arg;
	/* App state sync (proto/appsync.h): with both set (and messaging),
	 * contacts' names, mute, pin, archive and the rest come from the
	 * phone's app state.  Borrowed for the engine's life. */
	const struct wa_appsync_store_ops *appsync_store;
	wa_appsync_event_fn	 on_appsync_event;
	void			*appsync_ev_arg;
	/* Media downloads on request (proto/media-get.h): with both set
	 * (and messaging), wa_eng_mget() downloads a message's media with
	 * the settings mget (its strings borrowed for the call of
	 * wa_eng_new()); ca_file is trusted for the media hosts.  Borrowed
	 * for the engine's life. */
	const struct wa_mget_store_ops *mget_store;
	wa_mget_event_fn	 on_mget_event;
	void			*mget_ev_arg;
	struct wa_mget_cfg	 mget;
	/* Profiles and the blocklist (proto/prof.h): with on_prof_event
	 * set, the blocklist is asked at each login and wa_eng_prof()
	 * asks for profiles, pictures cached in prof_dir (borrowed for
	 * the call of wa_eng_new()). */
	wa_prof_event_fn	 on_prof_event;
	void			*prof_ev_arg;
	const char		*prof_dir;
};

/*
 * Create an engine on loop (nothing is sent yet).  Returns 0 and *out.
 * Errors: -EINVAL (no rng, clock, store or on_event), those of
 * wa_conn_new(), wa_signal_new() and wa_dm_new().  *out untouched on
 * error.
 */
MUST_CHECK int	wa_eng_new(struct uv_loop_s *loop, const struct wa_eng_cfg *cfg,
		    struct wa_eng **out);

/*
 * Load the device from the store, or make and save new registration
 * material when there is none (protocol.md 3.2), then connect: with the
 * login payload when the device is paired, else with the registration
 * payload, and from then on by the engine's own policy.  A device linked
 * before says so first (WA_ENG_EV_LINKED, before any connection).  An
 * unpaired engine answers companion_reg_refresh (6.2.1) with a new ADV
 * secret, stored, and the current ref shown again with it.  Returns 0.
 * Errors: -EALREADY (started before), the store's load or save error, the
 * RNG's error, WC_ECRYPTO (signing failed).
 */
MUST_CHECK int	wa_eng_start(struct wa_eng *e);

/*
 * The messaging module, to send and mark read through (proto/dm.h), or
 * NULL when the engine was made without its stores.  Borrowed: valid
 * until wa_eng_free().  Engine thread.
 */
struct wa_dm	*wa_eng_dm(struct wa_eng *e);

/*
 * App state sync (proto/appsync.h), to hand it our own mutations
 * (wa_appsync_outbox()), or NULL when the engine was made without its
 * store.  Borrowed: valid until wa_eng_free().  Engine thread.
 */
struct wa_appsync *wa_eng_appsync(struct wa_eng *e);

/*
 * Media downloads (proto/media-get.h: wa_mget_get()), or NULL when the
 * engine was made without their store.  Borrowed: valid until
 * wa_eng_free().  Engine thread.
 */
struct wa_mget	*wa_eng_mget(struct wa_eng *e);

/*
 * Profiles and the blocklist (proto/prof.h: wa_prof_ask(),
 * wa_prof_block()), or NULL when the engine was made without their
 * event callback.  Borrowed: valid until wa_eng_free().  Engine thread.
 */
struct wa_prof	*wa_eng_prof(struct wa_eng *e);

/*
 * Pair by phone-number code (6.7) with pn (digits, country code first, an
 * optional leading '+'; 5 to 20 digits) instead of QR codes: on the
 * current registration connection once it has its refs, or on the next
 * one.  The code comes as WA_ENG_EV_PAIR_CODE; once the phone has it, the
 * engine finishes the link (companion_finish, the ADV secret derived from
 * it) and a normal pair-success follows.  A new connection asks for a new
 * code.  While the link waits for pair-success, companion_reg_refresh
 * keeps the ADV secret it depends on (6.2.1, [RS]).  Returns 0.  Errors:
 * -EINVAL (pn is not such a number), -EISCONN (already paired).
 */
MUST_CHECK int	wa_eng_pair_code(struct wa_eng *e, const char *pn);

/*
 * Start again after WA_ENG_EV_IDLE, at the user's word: a new
 * registration (new QR codes) when unpaired, else a new login, the
 * backoff from its start.  Returns 0.  Errors: -EALREADY (the engine is
 * not idle: connecting, online, held, stopped or freed).  Engine thread.
 */
MUST_CHECK int	wa_eng_retry(struct wa_eng *e);

/* True between <success> and the end of that connection. */
bool		wa_eng_is_online(const struct wa_eng *e);

/*
 * Go offline and stay so: the connection (if any) is closed now, its
 * timers stopped, and no attempt is made until wa_eng_resume().  For a
 * host that cannot take messages (the disk is full: reliability.md
 * "Disk full"), so that the server keeps them instead.  Says
 * WA_ENG_EV_DISCONNECTED with reason (copied; shown as it is) and err,
 * retry_ms 0.  Nothing when held already, stopped, logged out, not
 * started or freed.  Must not be called from inside a stanza's handling
 * (a callback of the messaging module): defer it to the loop's next turn.
 * Engine thread.
 */
void		wa_eng_hold(struct wa_eng *e, int err, const char *reason);

/* Connect again at once after wa_eng_hold() (the backoff starts over);
 * nothing when not held.  Engine thread. */
void		wa_eng_resume(struct wa_eng *e);

/*
 * Close the connection and every timer and destroy e; no callback and no
 * store op is called after this returns.  May be called from inside an
 * event callback (the engine then stops where it is).  The memory goes
 * when the timers' close callbacks run: keep running the loop until it
 * has no handles left.  NULL is a no-op.
 */
void		wa_eng_free(struct wa_eng *e);

struct wa_mediaconn;

#define WA_ENG_MC_WAITERS	16	/* wa_eng_media_conn() callers at once */

/* The answer of wa_eng_media_conn(): err 0 with mc (borrowed for the
 * call; hosts and the upload's auth), or -ENOTCONN (the connection went
 * first) with mc NULL.  Engine thread. */
typedef void	(*wa_eng_mc_fn)(void *arg, int err,
		    const struct wa_mediaconn *mc);

/*
 * The media hosts and upload auth (protocol-features.md 1.1): the answer
 * kept while fresh and refresh is false, handed to fn at once; else a
 * <media_conn/> iq (one out at a time, every waiter answered with it).
 * fn is called exactly once, on the engine thread, unless wa_eng_free()
 * or wa_eng_media_conn_cancel() comes first.  Returns 0.  Errors (fn not
 * called): -EINVAL (fn NULL), -ENOTCONN (offline), -EBUSY (already
 * WA_ENG_MC_WAITERS waiting), the send's errors.  Engine thread.
 */
MUST_CHECK int	wa_eng_media_conn(struct wa_eng *e, bool refresh,
		    wa_eng_mc_fn fn, void *arg);

/* Forget every wait of (fn, arg): it will not be called.  Engine thread;
 * NULL e is a no-op. */
void		wa_eng_media_conn_cancel(struct wa_eng *e, wa_eng_mc_fn fn,
		    void *arg);

/*
 * Build the QR text of protocol.md 6.2 for ref[0..ref_len): the
 * https://wa.me/settings/linked_devices# prefix, the ref, the base64
 * (standard, padded) Noise, identity and ADV keys, and platform id "9"
 * (web client, [WM]'s choice for UserAgent WEB).  Writes a NUL-terminated
 * string of at most out_len bytes.  Returns its length.  Errors:
 * WC_ETOOBIG (out_len too small).  Pure; any thread.
 */
MUST_CHECK int	wa_eng_qr_text(const char *ref, size_t ref_len,
		    const uint8_t noise_pub[WA_ENG_KEY_LEN],
		    const uint8_t identity_pub[WA_ENG_KEY_LEN],
		    const uint8_t adv_secret[WA_ENG_KEY_LEN], char *out,
		    size_t out_len);

#endif
