/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/sim.h -- wachat-sim, a local WhatsApp-compatible server for
 * tests and the demo: the state shared by its parts (the WebSocket front
 * door and Noise responder in ws.c, accounts in account.c, pairing in
 * pair.c, the admin interface in admin.c).  Everything runs on one libuv
 * loop thread; nothing here is thread-safe.
 */
#ifndef SIM_SIM_H
#define SIM_SIM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <uv.h>

#include "base/buf.h"
#include "keys.h"

struct lws_context;
struct lws_vhost;
struct sim_http;
struct sim_conn;
struct json_object;
struct sim_http_req;
struct wa_node;
struct wa_val;
struct sim_sub;
struct sim_phone;
struct sim_chatty;
struct sim_group;
struct sim_hist;
struct sim_as;
struct sim;

#define SIM_PN_MAX	24	/* digits of a phone number, + NUL */
#define SIM_BLOCKED_MAX	32	/* blocked contacts an account keeps */
#define SIM_NAME_MAX	64	/* bytes of a push name, + NUL */
#define SIM_REFS_MAX	32	/* refs in one pair-device */

/* Faults the sim can put into the certificate chain it sends. */
enum sim_cert_fault {
	SIM_CERT_OK = 0,
	SIM_CERT_OTHER_ROOT,	/* intermediate signed by a random root */
	SIM_CERT_LEAF_KEY,	/* leaf key is not the Noise static key */
	SIM_CERT_EXPIRED,	/* both certificates expired a day ago */
	SIM_CERT_ISSUER,	/* leaf issuerSerial != intermediate serial */
};

/* Malformed things the sim can send once the handshake is done. */
enum sim_bad {
	SIM_BAD_NONE = 0,
	SIM_BAD_TRUNCATED,	/* a frame header promising more than follows, then close */
	SIM_BAD_OVERSIZED,	/* a length of 0xFFFFFF (at the 16 MiB cap) */
	SIM_BAD_GARBAGE,	/* random bytes as a frame, not a GCM ciphertext */
	SIM_BAD_UNDECRYPTABLE,	/* a well-formed frame sealed with a wrong key */
};

/* A one-time prekey a companion uploaded (protocol.md 7.3). */
struct sim_otk {
	uint32_t	 id;		/* 24-bit */
	uint8_t		 pub[SIM_KEY_LEN];
};

/* Below this many one-time prekeys a device gets the encrypt
 * notification (protocol.md 7.4). */
#define SIM_PREKEY_LOW	5

/* A companion device registered with an account (device id >= 1). */
struct sim_device {
	struct sim_device	*next;
	uint32_t		 id;
	uint8_t			 noise_pub[SIM_KEY_LEN];
	uint8_t			 ident_pub[SIM_KEY_LEN];
	uint32_t		 reg_id;
	uint32_t		 spk_id;
	uint8_t			 spk_pub[SIM_KEY_LEN];
	uint8_t			 spk_sig[64];
	uint32_t		 key_index;
	char			 platform_id;	/* from the QR */
	char			 os[SIM_NAME_MAX];	/* DeviceProps.os */
	bool			 signed_back;	/* pair-device-sign verified */
	struct buf		 identity;	/* ADVSignedDeviceIdentity, with key */
	int64_t			 paired_at;	/* unix s */

	/* Prekeys uploaded after login (protocol.md 7.3), ids ascending. */
	struct sim_otk		*otks;		/* held: not handed out yet */
	size_t			 notks, otks_cap;
	struct sim_otk		*hist;		/* every key ever uploaded */
	size_t			 nhist, hist_cap;
	uint64_t		 uploads;	/* accepted upload iqs */
	uint64_t		 refused_uploads;
	uint64_t		 prekeys_used;	/* handed out (admin) */
	uint64_t		 id_conflicts;	/* an id re-uploaded, other key */
	uint64_t		 low_notifications;	/* encrypt count sent */
	bool			 spk_verified;	/* last upload's skey */
	uint64_t		 bundles_served;	/* 8.1 answers naming it */
	bool			 removed;	/* unlinked (admin remove) */
	bool			 hist_sent;	/* history sync sent (history.c) */
	bool			 full_sync;	/* DeviceProps.requireFullSync */
	bool			 as_shared;	/* app-state keys shared
						 * (appstate.c) */
};

/* A user: an account that links companions, or a contact. */
struct sim_account {
	struct sim_account	*next;
	char			 pn[SIM_PN_MAX];	/* digits */
	char			 lid[SIM_PN_MAX];	/* digits */
	char			 name[SIM_NAME_MAX];	/* push name */
	bool			 contact;	/* created as a contact */
	char			 owner[SIM_PN_MAX];	/* contact of this PN, or "" */
	struct sim_signal_keys	 keys;		/* primary phone, device 0 */
	uint32_t		 next_device;	/* next companion id */
	uint32_t		 next_key_index;
	struct sim_device	*devices;	/* companions, newest first */
	size_t			 phone_otks_used;	/* keys.prekeys handed out */
	uint64_t		 phone_bundles;	/* 8.1 answers for device 0 */
	bool			 available;	/* presence (15.1) */
	int64_t			 last_seen;	/* unix s; 0 = never */
	bool			 last_hidden;	/* its privacy hides it:
						 * last="deny" (issue 20) */
	struct sim_phone	*phone;		/* device 0's Signal state (phone.c) */
	bool			 echo;		/* the phone echoes texts */
	unsigned		 chatty_s;	/* writes to its owner every
						 * chatty_s s; 0: never */
	struct sim_chatty	*chatty;	/* its timer (phone.c) */
	struct sim_hist		*hist;		/* its phone's chat history
						 * (history.c), or NULL */
	struct sim_as		*as;		/* its app state (appstate.c),
						 * or NULL */
	/* profile.c (issue 20): the blocklist its devices keep, and its
	 * picture (made at the first query) */
	char			 blocked[SIM_BLOCKED_MAX][SIM_PN_MAX + 24];
	size_t			 nblocked;
	struct sim_blob		*pic;		/* its blob (media.c); NULL
						 * none yet */
	char			 pic_id[24];
};

/* What a routed stanza is (route.c). */
enum sim_route_kind {
	SIM_ROUTE_MESSAGE,	/* <message> (protocol.md 9.4, 11.1) */
	SIM_ROUTE_RECEIPT,	/* <receipt> (9.6) */
	SIM_ROUTE_NOTIFICATION,	/* <notification type="w:gp2"> (11.7) */
	SIM_ROUTE_CALL,		/* <call> (protocol-features.md 5; call.c) */
};

/*
 * One stanza routed to one device: kept, in the order routed, for the
 * sim's lifetime.  Until the device acks it (<ack class=...>, or any
 * <receipt> for a message) it is the device's offline queue: sent at once
 * when the device is connected, and again at each login (protocol.md
 * 11.6) until acked.
 */
struct sim_route {
	struct sim_route	*next;		/* oldest first */
	uint64_t		 seq;		/* 1, 2, ... */
	enum sim_route_kind	 kind;
	char			 id[80];	/* stanza id */
	char			 type[24];	/* stanza type attribute, or "";
						 * a <call>'s action */
	char			 from[96];	/* sender device JID (as sent) */
	char			 to[96];	/* target device JID */
	char			 enc[48];	/* enc types, "pkmsg", or "" */
	char			 participant[96]; /* the stanza's, or "" */
	char			 recipient[96];	/* the stanza's, or "" */
	struct sim_account	*acct;		/* target account */
	uint32_t		 device;	/* target device id; 0 = phone */
	struct buf		 stanza;	/* the node, wa_bin_encode()d */
	int64_t			 t;		/* unix s, when routed */
	unsigned		 deliveries;	/* times sent to the device */
	unsigned		 offline_deliveries;	/* of them at a login */
	uint64_t		 last_conn;	/* the connection (its id) it
						 * went to last, 0: none; a
						 * backlog leaves out what its
						 * connection already has */
	bool			 acked;
};

/*
 * The seam for simulated phones (device 0): called with each stanza
 * routed to device 0 of account a (n is valid for the call only).
 * Returns true when the phone took it (it is then delivered and acked);
 * false leaves it queued.  Loop thread.
 */
typedef bool (*sim_phone_hook)(void *arg, struct sim *s,
    struct sim_account *a, const struct sim_route *r,
    const struct wa_node *n);

struct sim_opts {
	const char	*host;		/* bind address */
	int		 port;		/* WebSocket; 0 = pick */
	int		 admin_port;	/* admin HTTP; 0 = pick */
	const char	*root_key_file;
	const char	*log_file;	/* NULL = stderr */
	const char	*tls_cert;	/* PEM; with tls_key, serve wss:// */
	const char	*tls_key;
	unsigned	 nrefs;		/* refs per pair-device */
	unsigned	 nprekeys;	/* one-time prekeys per primary phone */
	unsigned	 handshake_timeout_s;
	enum sim_cert_fault cert_fault;
	bool		 verbose;	/* log every stanza, not only unknown ones */
	uint32_t	 min_revision;	/* failure 405 below 2.3000.<this>; 0 = off */
	uint32_t	 sw_revision;	/* client_revision served by /sw.js */
	unsigned	 refresh_pct;	/* companion_reg_refresh at a scan, % */
	bool		 group_pn;	/* groups clients create are PN-addressed
					 * (--group-addressing pn); else LID */
	int		 media_port;	/* media host (media.c); 0 = pick */
	unsigned	 hist_chats;	/* --history-chats: every account made
					 * gets a history; 0 = none */
	unsigned	 hist_msgs;	/* --history-messages, in all */
	uint64_t	 hist_seed;	/* --history-seed */
	unsigned	 hist_chunk;	/* --history-chunk, messages; 0 = 3000 */
	bool		 hist_full_if_asked;	/* --history-full-if-asked */
	unsigned	 media_delay_ms;	/* --media-delay-ms */
	const char	*media_dir;	/* --media-dir: uploads; NULL = a new
					 * one in $TMPDIR */
};

/*
 * A blob on the media host (media.c): a history sync chunk the phone
 * stored, kept for the sim's lifetime; what its notification said.
 */
struct sim_blob {
	struct sim_blob		*next;		/* oldest first */
	uint64_t		 seq;		/* 1, 2, ... */
	char			 kind[16];	/* chunk, on-demand, corrupt, bomb,
						 * nest, gone */
	char			 path[256];	/* direct path, with its query */
	struct buf		 data;		/* what GET serves */
	uint8_t			 enc_sha256[32];	/* SHA-256(data) */
	uint8_t			 media_key[32];	/* its key (shown to tests) */
	uint8_t			 file_sha256[32];	/* of the plaintext */
	unsigned		 downloads;	/* GETs served */
	bool			 gone;		/* refused: 404, or gone_code */
	unsigned		 gone_code;	/* 0 (404) or 410 (media.c) */
	char			*file;		/* data is in this file instead
						 * (uploads); NULL: in memory */
	bool			 owns_file;	/* unlinked with the blob */
	uint64_t		 flen;		/* bytes of file */
	char			 pn[SIM_PN_MAX];	/* sent to this account's */
	uint32_t		 device;	/* ... companion */
	char			 msg_id[40];	/* the notification's message id */
	int32_t			 sync_type;
	uint32_t		 chunk_order, progress;
	size_t			 nconvs, nmsgs;
	bool			 receipt;	/* hist_sync receipt taken */
};

/* What a history is made from (history.c). */
struct sim_hist_cfg {
	unsigned	 chats;		/* 1..20000 */
	unsigned	 msgs;		/* in all, 0..2000000 */
	uint64_t	 seed;
	unsigned	 chunk;		/* messages per chunk; 0 = 3000 */
	int64_t		 now;		/* newest time, unix s; 0 = 2025-12-01 */
	bool		 full_if_asked;	/* FULL chunks only to a companion
					 * whose DeviceProps.requireFullSync
					 * is true (as the phone does); else
					 * to every one */
};

#define SIM_SUBJECT_MAX	256	/* bytes of a group subject, + NUL */
#define SIM_GROUP_MAX	1024	/* members of one group (WhatsApp's cap) */

/* A member of a group (protocol.md 10.1). */
struct sim_group_member {
	struct sim_account	*acct;
	bool			 admin;		/* type="admin" */
	bool			 superadmin;	/* type="superadmin": the creator */
};

/*
 * A group chat (group.c): "<id>@g.us", its metadata and members.  Kept
 * for the sim's lifetime; members removed are gone from the array.
 */
struct sim_group {
	struct sim_group	*next;		/* newest first */
	char			 id[24];	/* digits of the JID's user */
	char			 subject[SIM_SUBJECT_MAX];
	int64_t			 s_t;		/* subject set at, unix s */
	struct sim_account	*s_o;		/* who set it */
	struct sim_account	*creator;
	int64_t			 creation;	/* unix s */
	char			 key[80];	/* the create key, or "" */
	bool			 lid;		/* addressing_mode "lid" */
	struct sim_group_member	*m;
	size_t			 n, cap;
	uint64_t		 messages;	/* group messages routed */
	uint64_t		 notifications;	/* w:gp2 stanzas queued */
	uint32_t		 ephemeral;	/* disappearing messages' timer,
						 * s; 0 off (protocol-features.md
						 * 3.5) */
};

#define SIM_US_LOG	16
#define SIM_REG_LOG	16

/* One <ib><unified_session id/> seen (offline.c, protocol.md 7.2). */
struct sim_us {
	uint64_t		 conn;		/* connection id */
	int64_t			 id;
	bool			 after_pairing;	/* on a registration connection */
	bool			 plausible;	/* digits, in [0, 7 days in ms) */
};

/* A registration's DeviceProps (offline.c, protocol.md 3.4), and the name
 * the phone's Linked devices list gives it. */
struct sim_regprops {
	char			 os[SIM_NAME_MAX];
	int			 platform_type;
	char			 version[40];	/* "a.b.c", or "" */
	bool			 full_sync;
	uint32_t		 flags;		/* support* flags, offline.c order */
	int64_t			 thumbnail_days;	/* -1: absent */
	char			 phone_name[SIM_NAME_MAX + 32];
};

struct sim {
	char		 next_msg_id[23]; /* the id the next
					 * phone_send_msg() takes ("" its
					 * own; send-poll's "id") */
	struct sim_opts		 opt;
	uv_loop_t		 loop;
	struct lws_context	*lws;
	struct lws_vhost	*vhost;
	struct sim_http		*admin;
	int			 port, admin_port;	/* bound ports */
	FILE			*log;
	struct wa_signal_keygen	*keygen;	/* libsignal for making keys */
	struct signal_context	*sig;		/* its context (borrowed) */

	uint8_t			 root_priv[SIM_KEY_LEN];
	uint8_t			 root_pub[SIM_KEY_LEN];
	uint8_t			 static_priv[SIM_KEY_LEN];	/* Noise s */
	uint8_t			 static_pub[SIM_KEY_LEN];
	uint8_t			 inter_priv[SIM_KEY_LEN];
	uint8_t			 inter_pub[SIM_KEY_LEN];
	struct buf		 chain;		/* CertChain sent (no fault) */
	enum sim_cert_fault	 cert_fault;	/* for new handshakes */
	enum sim_bad		 bad_next;	/* for new connections */
	/* knob silent_next (once): the next connection goes silent after
	 * its handshake (1) or after its <success> (2); 0 = off. */
	int			 silent_next;
	bool			 drop_pair_sign; /* knob (once): drop the
						  * connection that answers
						  * pair-success, unaccepted */
	uint32_t		 min_revision;	/* knob: 405 below it; 0 = off */
	uint32_t		 sw_revision;	/* knob: served by GET /sw.js */
	unsigned		 refresh_pct;	/* knob: random reg refresh, % */
	unsigned		 group_flip;	/* knob: the next N group
					 * messages name their sender in the
					 * group's other namespace */
	uint64_t		 unanswered;	/* iqs answered with 501 */

	struct sim_account	*accounts;	/* newest first */
	struct sim_conn		*conns;		/* live connections */
	uint64_t		 next_conn_id;
	uint64_t		 next_iq;
	uint64_t		 nhandshakes;	/* completed */

	/* Loops (loops.c, issue 16): what a client tries again on its
	 * own.  Counted: registrations (a ClientPayload with pairing
	 * data), logins, every <failure> sent by reason (405 and 500 kept
	 * apart); the next fail_left logins get <failure reason=
	 * fail_reason/>; the version page's last requests. */
	uint64_t		 nregistrations, nlogins;
	uint64_t		 nfailures, nfail_405, nfail_500;
	uint32_t		 fail_reason, fail_left;
	uint64_t		 nversion_pages, nbot_checks;
	struct sim_version_req {
		char		 path[32];
		char		 ua[160];
		char		 sf_dest[32], sf_mode[32], sf_site[32];
		char		 sf_user[8];
		char		 accept[200], accept_lang[64];
		bool		 bot_check;	/* answered without it */
	}			 version_reqs[8];	/* a ring */
	unsigned		 nversion_reqs;		/* ever, mod 8 = next */

	/* Routing (route.c). */
	struct sim_route	*routes, **routes_tail;
	uint64_t		 nroutes;
	struct sim_sub		*subs;		/* presence subscriptions */
	sim_phone_hook		 phone_hook;	/* NULL: phones keep a queue */
	void			*phone_arg;
	uint64_t		 chatstates;	/* relayed */
	uint64_t		 presences;	/* presence stanzas sent */
	uint64_t		 device_notifications;
	/* Acks of a queued <notification> or <call> by its id whose class,
	 * participant or recipient differ from the stanza's: the stanza
	 * stays queued (as the real server, real-server.md rows 22, 24). */
	uint64_t		 unmatched_acks;
	uint64_t		 redeliveries;	/* stanzas sent again at a login */
	uint64_t		 calls;		/* <call> stanzas queued (call.c) */
	uint64_t		 call_rejects;	/* well-formed <call><reject/>
						 * from companions */
	uint64_t		 call_rejects_bad; /* ... malformed, or for no
						 * call that rings */
	struct call_job		*call_jobs;	/* calls whose terminate is
						 * due (call.c) */

	/* <ib> (offline.c; registrations and logins are counted by
	 * loops.c): registration DeviceProps recorded, unified_session stanzas (the last SIM_US_LOG kept),
	 * offline_batch requests, stanzas held back at a backlog's end;
	 * the DeviceProps of the last SIM_REG_LOG registrations. */
	uint64_t		 nregprops, unified_sessions;
	uint64_t		 offline_batches, offline_held;
	struct sim_us		 us_log[SIM_US_LOG];
	struct sim_regprops	 reg_log[SIM_REG_LOG];

	/* Groups (group.c). */
	struct sim_group	*groups;
	uint64_t		 ngroups;
	uint64_t		 next_sim_contact;	/* sim:N numbering */

	/* History sync (history.c) and the media host (media.c). */
	int			 media_port;	/* bound */
	struct sim_blob		*blobs, **blobs_tail;
	uint64_t		 nblobs;
	uint64_t		 hist_next_contact;	/* history contacts made */
	uint64_t		 hist_chunks;	/* notifications sent */
	uint64_t		 media_downloads, media_404, media_conns;
	uint64_t		 hist_receipts;	/* hist_sync receipts taken */
	uint64_t		 hist_on_demand;	/* requests answered */
	uint64_t		 hist_faults;	/* faulty blobs sent */
	struct sim_tok		*tok;	/* privacy tokens (tokens.c) */
	unsigned		 media_delay_ms;	/* before each blob is served */
	unsigned		 media_up_delay_ms; /* before an upload's
						 * answer (a stalled upload) */
	/* Uploads and media messages (media.c, phone-media.c). */
	char			 media_dir[256];	/* upload files; "" = none */
	bool			 media_dir_made;	/* made by us: removed */
	struct sim_media_auth {
		char		 auth[52];
		int64_t		 expires;	/* unix s */
	}			 media_auths[8];	/* handed out, a ring */
	unsigned		 media_auth_next;
	unsigned		 media_auth_ttl;	/* s; default 21600 */
	uint64_t		 media_max_bytes;	/* upload cap */
	uint64_t		 media_uploads, media_upload_refused;
	struct sim_media_msg	*media_msgs;	/* newest first */
	uint64_t		 nmedia_msgs;
	/* App state (appstate.c): patches per answer (0: 50), bytes of
	 * mutations served inline (0: 64 KiB; more: externalMutations). */
	unsigned		 as_page;
	size_t			 as_inline_max;

	uv_signal_t		 sigint, sigterm;
	uv_timer_t		 reaper;	/* finishes the lws teardown */
	uint64_t		 reap_deadline;	/* uv_now() ms */
	bool			 stopping;
};

/* --- offline.c --- */
/* The name the phone's Linked devices list shows for DeviceProps os and
 * platform_type, into out[0..len). */
void	sim_phone_name(const char *os, int platform_type, char *out,
	    size_t len);
/* Count a registration and keep its DeviceProps (a Wa__DeviceProps). */
void	sim_offline_reg_props(struct sim *s, const void *props);
/* The counters of offline.c into the status object o. */
void	sim_offline_status_json(struct sim *s, struct json_object *o);

/* --- main.c --- */
void	sim_log(struct sim *s, const char *fmt, ...) PRINTFLIKE(2, 3);
/* Begin an orderly shutdown (admin "shutdown", SIGINT, SIGTERM). */
void	sim_stop(struct sim *s);

/* --- account.c --- */
/*
 * Create an account (contact false) or a contact with its primary phone's
 * Signal keys and its simulated phone (phone.c; s->phone_hook is set to
 * sim_phone_take).  lid NULL or "" picks one; name may be NULL; a contact
 * named "Echo" is an echo (a->echo; the caller may change it).  Returns
 * 0 and *out.  Errors: -EINVAL (a PN or LID not 1-20 digits), -EEXIST
 * (PN or LID taken), libsignal errors, those of sim_phone_new().
 */
int	sim_account_add(struct sim *s, const char *pn, const char *lid,
	    const char *name, bool contact, const char *owner,
	    struct sim_account **out);
struct sim_account *sim_account_by_pn(struct sim *s, const char *pn);
/* route-presence.c: account a's presence as an admin route sets it (a
 * simulated phone's: last_seen unix s, 0 kept; hidden sends
 * last="deny"), sent to its subscribers. */
void	sim_route_presence_set(struct sim *s, struct sim_account *a,
	    bool available, int64_t last_seen, bool hidden);
struct sim_account *sim_account_by_lid(struct sim *s, const char *lid);
/* The first account that is not a contact, or NULL. */
struct sim_account *sim_account_default(struct sim *s);
struct sim_device *sim_device_find(struct sim_account *a, uint32_t id);
/* A new companion of a (id and key index assigned); the caller fills it. */
struct sim_device *sim_device_add(struct sim_account *a);
void	sim_accounts_free(struct sim *s);
/* JSON descriptions (new references). */
struct json_object *sim_account_json(const struct sim_account *a, bool keys);
struct json_object *sim_device_json(const struct sim_account *a,
	    const struct sim_device *d);

/* --- ws.c --- */
int	sim_ws_start(struct sim *s);
/* Issue the certificate chain for fault f into out. */
int	sim_ws_chain(struct sim *s, enum sim_cert_fault f, struct buf *out);
struct sim_conn *sim_conn_by_id(struct sim *s, uint64_t id);
struct json_object *sim_conn_json(const struct sim_conn *c);
/* Drop (close) c now. */
void	sim_conn_drop(struct sim_conn *c);
/* Send <stream:error code=...> then close. */
int	sim_conn_stream_error(struct sim_conn *c, int code);
/* Send <failure reason=...> then close. */
int	sim_conn_failure(struct sim_conn *c, int reason);
/* Send something malformed (enum sim_bad) now. */
int	sim_conn_bad(struct sim_conn *c, enum sim_bad bad);
/*
 * Pair the registering connection that showed qr with account a (mock
 * phone scan, protocol.md 6.2-6.6).  Fills the JSON report res.  Returns
 * an HTTP-ish status: 200, 404 (no connection holds that ref), 409, 422.
 */
int	sim_pair_scan(struct sim *s, const char *qr, const char *pn,
	    bool dry_run, struct json_object *res);

/* --- pair.c --- */
/*
 * Send the unpaired registration connection c the companion_reg_refresh
 * notification (protocol.md 6.2.1; child "companion_reg_refresh" or
 * "pair-device-rotate-qr"); every ADV secret seen on c so far is retired.
 * Returns 0, WC_ESTATE when c is not an unpaired registration.
 */
int	sim_pair_reg_refresh(struct sim_conn *c, const char *child);
/*
 * The phone enters a link code (protocol.md 6.7): the connection that sent
 * companion_hello for pn (any, when pn is NULL or "") gets the primary's
 * link_code_companion_reg notification.  Fills res; returns an HTTP-ish
 * status (200, 404, 409, 422).
 */
int	sim_pair_enter_code(struct sim *s, const char *code, const char *pn,
	    struct json_object *res);

/* --- prekeys.c --- */
/*
 * Hand out n one-time prekeys of d (lowest ids first) as if other users
 * fetched them; sends the encrypt notification to d's live connections
 * when fewer than SIM_PREKEY_LOW are left.  Returns how many were taken;
 * *notified counts the notifications sent.
 */
size_t	sim_prekeys_use(struct sim *s, struct sim_account *a,
	    struct sim_device *d, size_t n, unsigned *notified);
/* Free what d holds for prekeys. */
void	sim_prekeys_release(struct sim_device *d);
/* Add d's prekey report to the JSON o. */
void	sim_prekeys_json(const struct sim_device *d, struct json_object *o);

/* --- ident.c --- */
/*
 * Tell every device of every other account that a's identity changed
 * (a reinstall): <notification type="encrypt" from=A id t><identity/>
 * (protocol.md 11.7), from a's PN, or its LID when lid and a has one;
 * queued (sim_route_queue()) until each device acks it.  Returns how many
 * devices got it queued.  Loop thread.
 */
unsigned sim_ident_notify(struct sim *s, struct sim_account *a, bool lid);

/* --- route.c --- */
/*
 * Tell the contacts of account a that its companion d was added ("add",
 * after pairing) or removed ("remove"): <notification type="devices">
 * (protocol.md 11.7, 8.2) to every connected device of every other
 * account, and to a's own other connected devices.  Returns how many
 * were sent.
 */
unsigned sim_route_devices_notify(struct sim *s, struct sim_account *a,
	    const struct sim_device *d, const char *what);
/*
 * Unlink companion d of a: marked removed (login refused, left out of
 * usync and bundles), its connections dropped, its queue dropped, and the
 * "remove" devices notification sent.  Returns the notifications sent.
 */
unsigned sim_route_remove_device(struct sim *s, struct sim_account *a,
	    struct sim_device *d);
/*
 * The other half of the phone seam: route stanza n (a <message> as 9.4
 * shapes it, or a <receipt> as 9.6 does) as if device dev of a (0: its
 * phone) had sent it on a connection: the same fan-out, queues and acks
 * of queued stanzas, but no server ack (there is no connection to send
 * it to).  n is only read during the call.  Returns 0; WC_ESTATE when
 * a has no such device; WC_EINVAL for another stanza.
 */
int	sim_route_inject(struct sim *s, struct sim_account *a, uint32_t dev,
	    const struct wa_node *n);
/*
 * Queue stanza n (of kind, with id, type and sender from for GET
 * /admin/messages; enc the enc types, space-separated, or "") for device
 * dev of a, whose JID is written in the LID namespace when lid, and send
 * it now when that device is connected (device 0: the phone hook); it
 * stays queued until the device acks it (11.6, 11.7).  n is only read
 * during the call.  Returns 1 when sent now, 0 when queued, -1 when n
 * could not be encoded (logged).  Loop thread.
 */
int	sim_route_queue(struct sim *s, enum sim_route_kind kind,
	    const char *id, const char *type, const char *from,
	    struct sim_account *a, uint32_t dev, bool lid, const char *enc,
	    const struct wa_node *n);
/*
 * The device ids of a that can receive (0, then each linked companion
 * not removed), at most max into out; returns how many were written.
 */
size_t	sim_route_devices(const struct sim_account *a, uint32_t *out,
	    size_t max);
/*
 * The client's <ack class="notification"|"call" id [participant]
 * [recipient] [type]> on connection c (11.7): the notifications (calls)
 * with that id, participant and recipient queued for c's device are
 * done; one with that id but another class, participant or recipient is
 * not, and the ack is counted as unmatched_acks.  ws.c calls it for every
 * such ack.  Loop thread.
 */
void	sim_route_notification_ack(struct sim_conn *c, const struct wa_node *n);
/* GET /admin/messages: every routed stanza (new reference). */
struct json_object *sim_route_json(const struct sim *s);
/* Free the routing state (at exit). */
void	sim_route_free(struct sim *s);

/* A JID value, parsed (route.c). */
struct sim_jid {
	char		 user[SIM_PN_MAX];	/* digits, no agent, or "" */
	char		 server[32];
	uint32_t	 device;
	bool		 lid;	/* server "lid" */
	bool		 pn;	/* server "s.whatsapp.net" or "c.us" */
};
/*
 * Parse a JID value v (a JID, or a string "user[.agent|_agent][:device]
 * @server") into *j.  Returns false when v is NULL or its user is not
 * 1-20 digits.
 */
bool	sim_jid_parse(const struct wa_val *v, struct sim_jid *j);
/* The account a PN or LID JID names, or NULL. */
struct sim_account *sim_jid_account(struct sim *s, const struct sim_jid *j);

/* --- group.c --- */
/* The group with JID user id (digits; "@g.us" after them is allowed), or
 * NULL. */
struct sim_group *sim_group_find(struct sim *s, const char *id);
/* The member entry of a in g, or NULL when a is not a member. */
struct sim_group_member *sim_group_member(struct sim_group *g,
	    const struct sim_account *a);
/* "<id>@g.us" into out (len >= 32). */
void	sim_group_jid(const struct sim_group *g, char *out, size_t len);
/*
 * A w:g2 iq of logged-in connection c (protocol.md 10.1; whatsmeow
 * group.go shapes): metadata (<query request="interactive"/>), every
 * group of the user (<participating>), <create>, <subject>, <add>,
 * <remove>, <promote>, <demote>, <leave>; answered, and the w:gp2
 * notifications queued for every device concerned but the acting one.
 * Errors to the client: 400 malformed, 403 not a member (or not an
 * admin, for participant changes), 404 unknown group.  Returns 1 when n
 * was a w:g2 iq (answered), else 0.
 */
int	sim_group_iq(struct sim_conn *c, const struct wa_node *n);
/*
 * The admin routes of groups: GET/POST groups, GET groups/G,
 * POST groups/G/{add,remove,promote,demote,subject}, GET
 * groups/G/delivery?id=, POST mock-phone/group-send, GET
 * mock-phone/group-inbox?pn=[&group=] (README.md).  path is the part
 * after "/admin/", query the query string or NULL, in the parsed JSON
 * body or NULL.  Writes the JSON answer to out; returns the HTTP
 * status, or 0 when path is not one of them.
 */
int	sim_group_admin(struct sim *s, const char *path, const char *query,
	    struct json_object *in, bool post, struct buf *out);
/* Free every group (at exit). */
void	sim_groups_free(struct sim *s);

/* --- phone.c --- */
/*
 * The simulated primary phone of a: its Signal state in memory (sessions,
 * identities, its one-time prekeys from a->keys with their private halves,
 * the signed prekey and registration id of a->keys) behind a struct
 * wa_signal (proto/wa-signal.h).  Call after wa_crypto_init().  Returns 0
 * and *out (free with sim_phone_free()).  Errors: those of
 * wa_signal_new() (-ENOMEM, WC_ECRYPTO).
 */
int	sim_phone_new(struct sim *s, struct sim_account *a,
	    struct sim_phone **out);
/* Free p (NULL is a no-op); its pending echo answers keep running until
 * their timers close, so free after the loop has ended. */
void	sim_phone_free(struct sim_phone *p);
/*
 * The phone hook (s->phone_hook, arg unused): a stanza routed to
 * device 0 of a.  A <message>: each pkmsg/msg <enc> is decrypted (11.2),
 * unpadded (9.3), parsed (11.3) and kept in the inbox (a message id
 * already read from the same device is not kept again, only counted as
 * resent, as a phone shows a message once); then one delivery
 * receipt (type "sender" for a copy from a's own device, "peer_msg" for a
 * peer message; 11.8), or, when nothing decrypted, a retry receipt (9.6;
 * count 1..4 per message and sender, then nothing), sent through
 * sim_route_inject().  An echo phone (a->echo) schedules, 300 ms later, a
 * read receipt and "echo: TEXT" for every text or reply from another
 * non-echo user.  A group <message> (from a g.us JID, 10.3, 11.1): its
 * pkmsg/msg decrypted from the participant device (an SKDM in it
 * processed), its skmsg decrypted with the sender's key, the text kept in
 * the group inbox; then a delivery receipt to=group participant=sender,
 * or a retry receipt.  A <receipt> is logged; a retry receipt for a group
 * message the phone sent is answered with a pairwise resend (text and
 * SKDM, 10.5).  A w:gp2 notification is logged.  The work is done on the next
 * loop turn (after the router has sent the sender its server ack); the
 * stanza is copied.  Returns true (taken and acked)
 * whenever a has a phone.  Loop thread.
 */
bool	sim_phone_take(void *arg, struct sim *s, struct sim_account *a,
	    const struct sim_route *r, const struct wa_node *n);
/* --- phone-send.c --- */
/* What POST /admin/mock-phone/send asks a phone to send. */
struct sim_phone_req {
	const char	*from_pn;	/* the sending phone's account */
	const char	*to;		/* user JID, PN or LID namespace */
	const char	*text;		/* UTF-8; not with react_to */
	const char	*quoted_id;	/* reply to this message; may be NULL */
	const char	*quoted_participant; /* its sender; default: to */
	const char	*react_to;	/* react to this message id instead */
	bool		 react_from_me;	/* ... which the phone's user sent */
	const char	*emoji;		/* the reaction; "" or NULL removes */
	unsigned	 nest;		/* > 0: instead of text, a reply
					 * quoting a reply ... nest deep (a
					 * hostile message for the nesting
					 * limits of the receiver) */
};
/*
 * Phone of from_pn sends req as a client does (9.2-9.4): the Message
 * (text, reply or reaction, 9.1, 11.5), padded, to every device of the
 * addressee (the phone and the companions with uploaded keys) and, as
 * deviceSentMessage to req->to, to every companion of from_pn's account;
 * sessions from bundles (one-time prekeys handed out as for 8.1), pkmsg
 * until answered; no <device-identity>.  Routed with sim_route_inject(),
 * so offline devices get it queued.  Fills res with id, to, devices
 * ([{jid, enc}]) and skipped.  Returns an HTTP-ish status: 200; 400 (and
 * *why) for a bad request, 404 for an unknown from_pn, 500 for a Signal
 * or routing error.  Loop thread.
 */
int	sim_phone_send(struct sim *s, const struct sim_phone_req *req,
	    struct json_object *res, const char **why);
/* --- phone-media-meta.c --- */
/* POST /admin/mock-phone/send-media (README): 0 when path (after
 * /admin/) is not it, else the HTTP status of the answer written to out.
 * Loop thread. */
int	sim_phone_media_admin(struct sim *s, const char *path,
	    struct json_object *in, bool post, struct buf *out);
/* Phone p sends the Message m to to (phone_send_msg() with stanza type
 * and mediatype, may be NULL) and the route's answer goes to out: 200
 * with what was sent, 400 (to is no other account's or contact's user
 * JID) or 500.  Returns the status. */
int	sim_phone_send_answer(struct sim_phone *p, const char *to,
	    const struct buf *m, const char *type, const char *mediatype,
	    struct buf *out);
/* POST /admin/mock-phone/send-kind (tests/sim/phone-kinds.c): a phone
 * sends a location, live location, contact card(s), link preview or a
 * kind wachat does not show; 0 when path is not its route. */
int	sim_phone_kinds_admin(struct sim *s, const char *path,
	    struct json_object *in, bool post, struct buf *out);
/* POST /admin/mock-phone/send-poll and send-vote (tests/sim/phone-poll.c):
 * a phone sends a poll or an encrypted vote (protocol-features.md 3.1);
 * 0 when path is not their route. */
int	sim_phone_poll_admin(struct sim *s, const char *path,
	    struct json_object *in, bool post, struct buf *out);
struct wa_msg_content;
/* The vote of c (a WA_MSG_POLL_VOTE) as "ENC:IV" in hex, malloc'd, for
 * the phone's inbox (a test decrypts it: tests/interop/wa-poll-tool);
 * NULL for another kind. */
char	*sim_phone_vote_hex(const struct wa_msg_content *c);
/* The messageSecret of c (a poll: RICH, "poll" record) in hex, malloc'd,
 * so a test can vote on a poll the phone got; NULL for another kind. */
char	*sim_phone_poll_secret_hex(const struct wa_msg_content *c);
/* --- phone.c --- */
/*
 * a's phone is reinstalled: a new identity, registration id, signed
 * prekey and one-time prekeys (served in its bundles from now on), no
 * session.  Returns 0, WC_ESTATE (busy), or the key maker's error.
 */
int	sim_phone_reinstall(struct sim *s, struct sim_account *a);
/* Drop every Signal session of a's phone, and its group sender keys (its
 * own, those it received, the memory of who has its own), as a
 * reinstalled phone would (the next msg or skmsg it gets fails: retry
 * receipts).  Returns how many sessions. */
int	sim_phone_forget(struct sim_account *a);
/* GET /admin/mock-phone/inbox: a's phone (counters, inbox of decrypted
 * messages with their content, receipts it got, messages it sent); a new
 * reference. */
struct json_object *sim_phone_json(const struct sim_account *a);
/* --- phone-chatty.c --- */
/*
 * A chatty contact: every period_s seconds (1..86400) a's phone sends a
 * short friendly text (a few languages, emoji; in turn from a fixed set)
 * to the account a is a contact of (a->owner, PN namespace), but only
 * while that account has a linked companion that uploaded its prekeys;
 * a tick without one sends nothing.  period_s 0 stops it; calling again
 * restarts the period.  Sets a->chatty_s.  Returns 0; -EINVAL (a has no
 * owner, or period_s out of range), WC_ESTATE (the sim is stopping).
 * Loop thread.
 */
int	sim_phone_chatty(struct sim *s, struct sim_account *a,
	    unsigned period_s);
/* Stop every chatty timer (sim_stop(); their handles close on the loop). */
void	sim_phone_chatty_stop_all(struct sim *s);
/* --- phone-group.c --- */
/*
 * The phone of from_pn, a member of group g, sends text to it as a client
 * does (protocol.md 10.2-10.4): its sender key for g (made when it has
 * none; own address its LID device in a LID group, else its PN device),
 * the SKDM pairwise (pkmsg/msg, sessions from bundles) to every member
 * device that has not had it from this phone, then one skmsg; routed with
 * sim_route_inject().  Fills res with id, group, skdm ([{jid, enc}]),
 * skipped (devices without keys).  Returns an HTTP-ish status: 200; 400
 * (and *why) for a bad request, 403 when not a member, 404 unknown
 * account, 500 for a Signal or routing error.  Loop thread.
 */
int	sim_phone_group_send(struct sim *s, struct sim_account *a,
	    struct sim_group *g, const char *text, struct json_object *res,
	    const char **why);
/* a's phone drops its sender key for g and the memory of who has it
 * (10.4: a member was removed), so its next send uses a new key. */
void	sim_phone_group_forget(struct sim_account *a, const struct sim_group *g);
/* The group messages a's phone decrypted, in order (of group gid, or of
 * every group when gid is NULL): a new reference. */
struct json_object *sim_phone_group_json(const struct sim_account *a,
	    const char *gid);
/* The text a's phone read for message id from group gid, or NULL. */
const char *sim_phone_group_text(const struct sim_account *a,
	    const char *gid, const char *id);

/* --- group.c, for history.c --- */
/* A group made as it stands, with no notification: creator its
 * superadmin, created at creation (unix s); lid: LID-addressed. */
struct sim_group *sim_group_make(struct sim *s, const char *subject,
	    struct sim_account *creator, bool lid, int64_t creation);
/* Add a to g quietly (admin when admin); false when a member already or
 * g is full. */
bool	sim_group_member_add(struct sim_group *g, struct sim_account *a,
	    bool admin);

/* --- phone-send.c, for history.c --- */
/*
 * a's phone sends the Message msg[0..len) (unpadded) to its own companion
 * dev as a peer message (protocol.md 12.1): encrypted for that device
 * (a session from its bundle when there is none; pkmsg until answered),
 * <message from=PN id t type="text" category="peer"><enc/></message>,
 * queued for the device with sim_route_queue() (kept until acked, sent
 * again at each login).  Writes the message id to id.  Returns 0;
 * WC_ESTATE (a has no phone, or the device has no keys), a Signal error,
 * or WC_EPROTO (the stanza could not be encoded).  Loop thread.
 */
int	sim_phone_peer_send(struct sim *s, struct sim_account *a,
	    uint32_t dev, const struct buf *msg, char id[40]);

/* --- history-gen.c --- */
/*
 * Give a's phone a history made from cfg (deterministic from cfg->seed
 * and a's PN): cfg->chats chats, one in five a group (from the third
 * on, when there are 3 or more), the others 1:1 with contacts made for
 * it (PNs from 15557000001, LIDs from 207000000000001, named in several
 * scripts, owner a), cfg->msgs messages spread 1/(i+1) over the chats.
 * Fills res (may be NULL) with the summary.  Returns an HTTP-ish status:
 * 200; 400 (a contact, bad numbers), 409 (a has one), 500; *why set when
 * not 200.
 */
int	sim_hist_set(struct sim *s, struct sim_account *a,
	    const struct sim_hist_cfg *cfg, struct json_object *res,
	    const char **why);
/* Free a's history (at exit). */
void	sim_hist_free(struct sim_account *a);
/* --- history.c --- */
/* Companion d of a uploaded its prekeys (it is linked): the first time,
 * and when a has a history, the phone sends it (on a timer, 50 ms). */
void	sim_hist_linked(struct sim *s, struct sim_account *a,
	    struct sim_device *d);
/* <iq xmlns="w:m" type="set"><media_conn/></iq> on c: answered with the
 * media host (protocol.md 14.2); returns 1, or 0 when n is not one. */
int	sim_hist_media_conn(struct sim_conn *c, const struct wa_node *n);
/* a's phone took a hist_sync receipt for message id from device from. */
void	sim_hist_receipt(struct sim *s, struct sim_account *a, const char *id,
	    const char *from);
/* a's phone decrypted a peerDataOperationRequestMessage p[0..len) (the
 * unpadded Message) in message msg_id from its device from: an
 * on-demand request (12.4) is answered with an ON_DEMAND chunk. */
void	sim_hist_on_demand(struct sim *s, struct sim_account *a,
	    const char *from, const char *msg_id, const uint8_t *p,
	    size_t len);
/* --- history-admin.c --- */
/* The history counters for /admin/status (a new reference). */
struct json_object *sim_hist_status_json(const struct sim *s);
/*
 * The admin routes under /admin/history (README.md): path after
 * "/admin/", query string or NULL, JSON body or NULL.  Returns the HTTP
 * status, or 0 when path is not one of them.
 */
int	sim_hist_admin(struct sim *s, const char *path, const char *query,
	    struct json_object *in, bool post, struct buf *out);

/* --- appstate.c (protocol-features.md 2) --- */
/* <iq xmlns="w:sync:app:state" type="set"><sync><collection/>...: every
 * collection answered in one result (README.md): a snapshot blob, a page
 * of patches, or for a sent <patch> a 409 (stale base, with the newer
 * patches), an error 400 (bad MACs, ...), or nothing (stored; the other
 * devices get server_sync).  Returns 1, or 0 when n has no <sync>. */
int	sim_as_iq(struct sim_conn *c, const struct wa_node *n);
/* Companion d of a uploaded its prekeys: the first time, a's phone
 * shares its app-state keys with it (a peer message), unless its app
 * state is empty: then it shares with every linked companion when it
 * authors its first patch. */
void	sim_as_linked(struct sim *s, struct sim_account *a,
	    struct sim_device *d);
/* Contact was made (its owner an account): the owner's phone authors
 * its address-book entry (with the next ones, in one patch, at the next
 * use of the app state). */
void	sim_as_contact(struct sim *s, struct sim_account *contact);
/* a's phone decrypted an APP_STATE_SYNC_KEY_REQUEST p[0..len) (the
 * unpadded Message) from its device from: the keys it knows are shared
 * with that device, unknown ids get nothing. */
void	sim_as_key_request(struct sim *s, struct sim_account *a,
	    const char *from, const uint8_t *p, size_t len);
/* Free a's app state (at exit). */
void	sim_as_free(struct sim_account *a);
/* --- appstate-admin.c --- */
/* The app-state counters for /admin/status (a new reference). */
struct json_object *sim_as_status_json(const struct sim *s);
/* The admin routes under /admin/appstate (README.md); as
 * sim_hist_admin(). */
int	sim_as_admin(struct sim *s, const char *path, const char *query,
	    struct json_object *in, bool post, struct buf *out);

/* --- loops.c --- */
/* A ClientPayload came: a registration (reg) or a login.  For a login,
 * the reason of a <failure> the admin asked to send instead (and one
 * less left), else 0. */
uint32_t sim_loops_payload(struct sim *s, bool reg);
/* A <failure reason> was sent. */
void	sim_loops_failure(struct sim *s, int reason);
/* GET / and GET /sw.js on the admin port: the version page (README.md),
 * or a bot check's page without the version when the request lacks a
 * browser's Sec-Fetch-Site or User-Agent. */
int	sim_loops_version_page(struct sim *s, const struct sim_http_req *req,
	    struct buf *out);
/* The counters for /admin/status, block "attempts" (a new reference). */
struct json_object *sim_loops_status_json(const struct sim *s);
/* The admin routes login-failure and version-lookups (README.md); as
 * sim_hist_admin(). */
int	sim_loops_admin(struct sim *s, const char *path,
	    struct json_object *in, bool post, struct buf *out);

/* --- call.c --- */
/* A call to make (POST /admin/call, README.md); strings borrowed. */
struct call_job;
struct sim_call_req {
	const char	*from;		/* the caller's PN */
	const char	*to;		/* the account called (PN) */
	const char	*group;		/* a group id or JID, or NULL */
	const char	*end;		/* timeout (NULL), accepted_elsewhere,
					 * rejected_elsewhere, hangup, none */
	bool		 video;
	bool		 malformed;	/* an offer no reader can take */
	int64_t		 after_ms;	/* until the terminate */
};
struct sim_call_res {
	char		 call_id[40];
	char		 id[32];	/* the offer's stanza id */
	unsigned	 devices;	/* queued for */
};
/*
 * The caller's phone calls: the offer routed to every linked companion
 * of the account now, the terminate after rq->after_ms (a timer).
 * Returns 0 and *res, or an HTTP status (400, 404) with *why (static).
 */
int	sim_call_start(struct sim *s, const struct sim_call_req *rq,
	    struct sim_call_res *res, const char **why);
/*
 * A <call> stanza n from companion c: a <reject> of a call that rings
 * for c's account (protocol-features.md 5 step 3) is checked (id; to
 * the caller and from the account, both without a device; call-creator
 * the caller; count="0"), counted as well-formed or not, acked, and a
 * well-formed one ends the call.  Returns 1 when taken, 0 for another
 * <call> (left to the caller).
 */
int	sim_call_from_client(struct sim_conn *c, const struct wa_node *n);

/* --- media.c --- */
/* Start the media host's vhost on the lws context (after sim_ws_start()):
 * TLS with --tls-cert/--tls-key.  Returns 0 or -EADDRINUSE. */
int	sim_media_start(struct sim *s);
/* Store data (taken; *data emptied) as a new blob of kind under a fresh
 * direct path; returns it (owned by s). */
struct sim_blob *sim_media_put(struct sim *s, const char *kind,
	    struct buf *data);
/* The blob stored under path (its query ignored), or NULL. */
struct sim_blob *sim_media_find(struct sim *s, const char *path);
/* The same bytes (and keys, pn, msg_id) as old under a fresh direct path,
 * as a phone's re-upload (protocol-features.md 1.8); returns it. */
struct sim_blob *sim_media_again(struct sim *s, const struct sim_blob *old);
/* Append b's bytes (in memory or in its file) to out.  Returns 0;
 * WC_ETOOBIG (more than max bytes), -errno or -EIO (the file). */
int	sim_media_read(const struct sim_blob *b, size_t max, struct buf *out);
/* The media host as media_conn names it, "HOST:PORT", into out[len]. */
void	sim_media_hostname(const struct sim *s, char *out, size_t len);
/* Keep auth (handed out by a media_conn answer, valid until expires, unix
 * s) for the upload check; the last 8 are kept. */
void	sim_media_auth_add(struct sim *s, const char *auth, int64_t expires);
/* Free every blob and media message, remove a media_dir made (at exit). */
void	sim_media_free(struct sim *s);
/* A blob as JSON (a new reference). */
struct json_object *sim_media_blob_json(const struct sim_blob *b);

/* --- phone-media.c (protocol-features.md 1) --- */
struct sim_media_msg;
/*
 * The admin routes (README.md): GET media (uploads, media messages sent
 * and read with their fields and hashes, the media blobs), POST
 * media/send {from_pn, to, type, file, caption, ...}, media/expire {path
 * | id, code}, media/settings {auth_ttl, max_bytes}.  path is after
 * "/admin/".  Returns the HTTP status with the JSON answer in out, or 0
 * when path is none of them.
 */
int	sim_media_admin(struct sim *s, const char *path,
	    struct json_object *in, bool post, struct buf *out);
/* Media message m as JSON (a new reference). */
struct json_object *sim_media_msg_json(const struct sim_media_msg *m);
/* Free the media messages (sim_media_free() calls it). */
void	sim_media_msgs_free(struct sim *s);

/* --- admin.c --- */
int	sim_admin_start(struct sim *s);
/* The admin API's answers, for every file with admin routes: o (taken,
 * freed) as one line of plain JSON appended to out, and status returned;
 * {"error": msg} with status; the string member key of o, or NULL (o
 * may be NULL; the string is o's). */
int	sim_json_reply(struct buf *out, struct json_object *o, int status);
int	sim_json_error(struct buf *out, int status, const char *msg);
const char *sim_json_str(struct json_object *o, const char *key);
/* history-admin.c: member key of o as a number (or a decimal string)
 * into *out: 1, absent 0, bad -1; the value of name in the query string
 * q (%XX decoded) into val[0..len): false when absent. */
int	sim_json_num(struct json_object *o, const char *key, int64_t *out);
bool	sim_query(const char *q, const char *name, char *val, size_t len);

/* --- ctl.c --- */
int	sim_ctl_main(int argc, char **argv);

/* Names of the enums, for options and JSON. */
const char *sim_bad_name(enum sim_bad b);
int	sim_bad_parse(const char *s, enum sim_bad *out);
const char *sim_cert_fault_name(enum sim_cert_fault f);
int	sim_cert_fault_parse(const char *s, enum sim_cert_fault *out);

#endif
