/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/session.h -- one client connection of the simulator: its
 * WebSocket, the Noise responder, and what the ClientPayload said.  Shared
 * by ws.c (transport, handshake, stanzas) and pair.c (pairing).  Loop
 * thread only.
 */
#ifndef SIM_SESSION_H
#define SIM_SESSION_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/bin.h"
#include "base/buf.h"
#include "proto/frame.h"
#include "proto/noise.h"
#include "sim.h"

struct lws;
struct txmsg;

enum sim_conn_state {
	SIM_C_PREFIX,		/* reading the connection header */
	SIM_C_HELLO,		/* waiting for ClientHello */
	SIM_C_FINISH,		/* ServerHello sent, waiting for ClientFinish */
	SIM_C_READY,		/* transport keys in use */
	SIM_C_CLOSING,		/* flushing, then closing */
};

/* Registration material from ClientPayload.devicePairingData (3.2). */
struct sim_reg {
	uint32_t	 reg_id;
	uint8_t		 ident_pub[SIM_KEY_LEN];
	uint32_t	 spk_id;
	uint8_t		 spk_pub[SIM_KEY_LEN];
	uint8_t		 spk_sig[64];
	uint8_t		 build_hash[16];
	char		 os[SIM_NAME_MAX];	/* DeviceProps.os */
	int		 platform_type;		/* DeviceProps.platformType */
	bool		 full_sync;	/* DeviceProps.requireFullSync */
	bool		 spk_sig_ok;	/* eSkeySig verifies by eIdent */
};

struct sim_conn {
	struct sim		*s;
	struct sim_conn		*next, **prevp;
	struct lws		*wsi;
	uint64_t		 id;
	enum sim_conn_state	 st;
	int64_t			 opened_at;	/* unix s */

	/* Front door. */
	char			 origin[128];	/* Origin header, or "" */
	char			 path[128];	/* request path */
	uint8_t			 hdr[7];	/* connection header bytes so far */
	size_t			 hdr_len;
	size_t			 skip;		/* edge-routing bytes to skip */
	bool			 ed;		/* "ED" pre-intro seen */
	struct wa_frame_reader	 rd;
	struct wa_frame_writer	 wr;
	struct wa_noise		 hs;
	struct wa_noise_transport t;
	bool			 have_t;
	enum sim_cert_fault	 cert_fault;	/* in the chain sent */

	/* Queue of WebSocket messages to send (each with LWS_PRE room). */
	struct txmsg		*txq, **txq_tail;
	size_t			 txq_len;
	bool			 close_after;	/* close when the queue is empty */
	size_t			 cut_next;	/* send only this many bytes of
						 * the next <message> frame, then
						 * close (0: off) */
	bool			 kill;		/* close at the next chance */

	/* What the client said. */
	uint8_t			 client_static[SIM_KEY_LEN];
	bool			 registration;	/* devicePairingData present */
	struct sim_reg		 reg;
	uint64_t		 username;	/* login: PN */
	uint32_t		 device;	/* login: device id */
	bool			 passive;
	char			 push_name[SIM_NAME_MAX];
	char			 version[32];	/* "2.3000.N" */
	struct sim_account	*acct;		/* login: the account */
	struct sim_device	*dev;		/* login: the device */
	bool			 authed;	/* success sent */
	bool			 silent;	/* knob silent_next: reads,
						 * answers nothing */

	/* Pairing. */
	char			 refs[SIM_REFS_MAX][40];
	unsigned		 nrefs;
	char			 pair_iq[32];	/* id of pair-device */
	bool			 pair_acked;
	char			 success_iq[32]; /* id of pair-success */
	struct sim_account	*pair_acct;	/* account pairing this conn */
	struct sim_device	*pair_dev;

	/* companion_reg_refresh (6.2.1): ADV secrets seen in scans. */
	unsigned		 refreshes;	/* notifications sent */
	int64_t			 refreshed_at;	/* unix s of the last */
	uint8_t			 seen_adv[16][SIM_KEY_LEN];
	unsigned		 seen_gen[16];	/* refreshes when first seen */
	unsigned		 nseen;
	bool			 random_refresh_done;

	/* Link code (6.7). */
	bool			 lc_hello;	/* companion_hello received */
	char			 lc_pn[SIM_PN_MAX];
	uint8_t			 lc_wrapped[80];	/* companion's eph. pub */
	char			 lc_ref[40];
	char			 lc_platform;
	bool			 lc_entered;	/* primary hello sent */
	uint8_t			 lc_eph_priv[SIM_KEY_LEN];	/* phone's */
	uint8_t			 lc_comp_eph[SIM_KEY_LEN];	/* companion's */
	struct sim_account	*lc_acct;

	/* After login. */
	uint64_t		 answered;	/* iqs answered */

	/* The offline backlog (offline.c, protocol.md 11.6): begun, ended;
	 * the last route seq it holds, the last sent; stanzas the client
	 * may still have; sent, batch requests, held back at the end; the
	 * hold timer's generation. */
	bool			 off_started, off_done;
	uint64_t		 off_max, off_seq;
	unsigned		 off_credit, off_sent, off_batches, off_held;
	uint64_t		 off_gen;

	/* Counters, for the admin report. */
	uint64_t		 frames_in, frames_out, unknown;
	char			 last[160];	/* last notable event */
};

/* Encode, encrypt, frame and queue node n.  Returns 0 or a WC_E* code. */
int	sim_conn_send_node(struct sim_conn *c, const struct wa_node *n);
/* A fresh iq id ("sim-N"). */
void	sim_conn_iq_id(struct sim_conn *c, char *out, size_t len);
/* Log a line about c. */
void	sim_conn_log(struct sim_conn *c, const char *fmt, ...)
	    PRINTFLIKE(2, 3);
/* Close c after the queued messages have gone out. */
void	sim_conn_close_after(struct sim_conn *c);

/* pair.c: an md iq of the link-code flow; returns 1 if it was one. */
int	sim_pair_handle_link_code(struct sim_conn *c, const struct wa_node *n);
/* prekeys.c: an iq or other stanza of a logged-in connection (protocol.md
 * 7, 8.2, 11.7); returns 1 when handled. */
int	sim_connect_handle(struct sim_conn *c, const struct wa_node *n);
/* prekeys.c: answer iq n with <iq type="error"><error code text/></iq>. */
void	sim_iq_error(struct sim_conn *c, const struct wa_node *n, int code,
	    const char *text);
/* prekeys.c: answer iq n with an empty result. */
void	sim_iq_result(struct sim_conn *c, const struct wa_node *n);
/* prekeys.c: <iq from=s.whatsapp.net type id=n's> in a, to fill. */
struct wa_node *sim_iq_answer(struct arena *a, const struct wa_node *n,
	    const char *type);
/* prekeys.c: send r to c and release a (an answer counted). */
void	sim_iq_send_free(struct sim_conn *c, struct arena *a,
	    struct wa_node *r);
/* prekeys.c: the user part of n's JID attribute key (no device) into
 * user[ulen], *lid when its server is "lid"; false when there is none. */
bool	sim_jid_user(const struct wa_node *n, const char *key, char *user,
	    size_t ulen, bool *lid);

/* profile.c (issue 20): the blocklist get and set (protocol.md 15.5;
 * a set fans the account_sync <blocklist> notification out to the
 * account's other devices), the w:profile:picture get (a generated JPEG
 * served from the media host, protocol-features.md 4.1); 1 when
 * answered. */
int	sim_prof_blocklist_get(struct sim_conn *c, const struct wa_node *n);
int	sim_prof_blocklist_set(struct sim_conn *c, const struct wa_node *n);
int	sim_prof_picture(struct sim_conn *c, const struct wa_node *n);
/* profile.c: acct's picture changed (green | yellow, a new id), the
 * <notification type="picture"><set jid id/> sent to every other
 * account's connected devices: how many, or -1 (libjpeg failed). */
int	sim_prof_picture_set(struct sim *s, struct sim_account *acct);
/* profile.c: POST /admin/profile/WHAT {pn, ...}: "presence"
 * {available, last_seen (unix s), hidden (last="deny")} or "picture" (a
 * new one, notified); the answer's JSON into out, its HTTP status
 * returned (404 no such account or WHAT, 400 a bad value). */
struct json_object;
int	sim_prof_admin(struct sim *s, const char *what, struct json_object *in,
	    struct buf *out);
/* profile.c: usync's <status/> of acct under its answer's <user> u
 * (protocol-features.md 4.2). */
void	sim_prof_usync_status(struct arena *a, struct wa_node *u,
	    const struct sim_account *acct);
/* The bytes content of n (BYTES or STR); false when it has none. */
bool	sim_node_bytes(const struct wa_node *n, const uint8_t **p,
	    size_t *len);

/*
 * route.c: the 1:1 messaging stanzas of a logged-in connection: the prekey
 * bundle query (protocol.md 8.1), <message> (9.4), <receipt> (9.6),
 * <ack class="message|receipt"> (11.7), <chatstate> and <presence> (15).
 * Returns 1 when n was one of them (handled), else 0.
 */
int	sim_route_handle(struct sim_conn *c, const struct wa_node *n);
/*
 * route.c: send r, a stanza of c's offline backlog, to c with
 * offline="1" (11.6).  Returns true when it went out.
 */
bool	sim_route_offline_send(struct sim_conn *c, struct sim_route *r);
/*
 * offline.c: c has logged in and left passive mode: the offline preview
 * and the primer of its backlog, or <ib><offline count=0/> when nothing
 * is queued (11.6).  Once per connection.
 */
void	sim_offline_start(struct sim_conn *c);
/* offline.c: an <ib> from c: unified_session counted (7.2),
 * offline_batch served (11.6).  Returns 1 when handled. */
int	sim_offline_ib(struct sim_conn *c, const struct wa_node *n);
/* offline.c: c's backlog for the admin connections list (into o). */
void	sim_offline_conn_json(const struct sim_conn *c,
	    struct json_object *o);
/* route.c: c is closing: its presence subscriptions end; its account goes
 * unavailable when no other connection of it is left. */
void	sim_route_conn_closed(struct sim_conn *c);

/* pair.c: forget the device being paired on c (not signed back). */
void	sim_pair_forget(struct sim_conn *c);
/* pair.c: an iq answering pair-success; returns 1 if it was one. */
int	sim_pair_handle_reply(struct sim_conn *c, const struct wa_node *n);

#endif
