/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng-int.h -- what the files of the connection engine (proto/eng.h)
 * share: the engine's state and the functions one of them calls in
 * another.  Not for other modules.  Engine thread only, as proto/eng.h.
 *
 * The files, each calling only those above it (no circle):
 *   eng-util.c    events out, stanzas out, iq ids, the clock and the RNG,
 *                 our own JID, the QR file
 *   eng-ib.c      <ib>: unified_session, the offline backlog's batches
 *   eng-link.c    the connection's life: connect, keepalive, the version
 *                 look-up after failure 405, stream errors and failures,
 *                 the end of a connection and the reconnect
 *   eng-pair.c    pairing: QR codes, pair-device and pair-success, the
 *                 phone-number code, companion_reg_refresh
 *   eng-login.c   after <success>: prekey count and upload, passive
 *                 mode, messaging and history online, account sync
 *   eng-stanza.c  the dispatch of incoming stanzas to the above
 *   eng.c         the public API: create, start, free, and the
 *                 registration material
 */
#ifndef WA_ENG_INT_H
#define WA_ENG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "base/arena.h"
#include "base/compat.h"
#include "proto/bin.h"
#include "proto/dm.h"
#include "proto/eng.h"
#include "proto/engver.h"
#include "proto/appsync.h"
#include "proto/hsync.h"
#include "proto/mediaconn.h"
#include "proto/media-get.h"
#include "proto/paircode.h"

/* 6.2 */
#define QR_PREFIX	"https://wa.me/settings/linked_devices#"
#define MAX_REFS	16	/* the server sends 6 (6.1) */
#define MAX_REF_LEN	256
#define IQ_ID_LEN	32
#define N_TIMERS	5
/* 11.6: each <ib><offline_batch count/> asks for this many of the
 * offline backlog, the next asked this long after the first stanza of a
 * batch arrives ([RS] offline_resume.rs, mirroring WA Web; [BL] asks
 * once for 100). */
#define WA_ENG_OFFLINE_BATCH		200
#define WA_ENG_OFFLINE_DEBOUNCE_MS	100
#define PN_MAX		24	/* bytes of a phone number, with the NUL */

enum conn_kind { KIND_NONE, KIND_REG, KIND_LOGIN };
/* What follows a lost connection. */
enum eng_next { NEXT_RETRY, NEXT_NOW, NEXT_STOP, NEXT_LOGOUT, NEXT_LOOKUP,
	NEXT_HOLD,	/* no attempt until wa_eng_resume() */
	NEXT_IDLE	/* no attempt until wa_eng_retry(): the QR codes ran
			 * out, or a failure without a retry (1.5) */
};
/* NEXT_LOGOUT of a link the server never accepted (wa_device.unconfirmed)
 * becomes a new link instead: the device forgotten, new registration
 * material, a new QR at once. */
/* A phone-number code link (6.7) on the current connection. */
enum lc_state {
	LC_NONE,	/* none asked, or not yet sent */
	LC_HELLO,	/* companion_hello sent, its result awaited */
	LC_CODE,	/* the code is shown; the phone's notification awaited */
	LC_FINISH,	/* companion_finish sent: pair-success awaited, with
			 * the ADV secret derived from the code */
};

struct wa_eng {
	uv_loop_t		*loop;
	struct wa_conn		*c;
	uv_timer_t		 t_retry, t_qr, t_ping;
	uv_timer_t		 t_wait;	/* the awaited answer's deadline */
	uv_timer_t		 t_offline;	/* the next offline batch (11.6) */
	const char		*wait_for;	/* what t_wait waits for */
	int			 open_timers;
	bool			 started, freed, halted;
	bool			 held;	/* wa_eng_hold(): offline */
	bool			 idle;	/* NEXT_IDLE: until wa_eng_retry() */
	uint32_t		 idle_reason; /* the failure's, 0 for none */
	const struct wa_store_ops *st;
	wa_conn_rng_fn		 rng;
	void			*rng_arg;
	wa_conn_clock_fn	 now;
	void			*clock_arg;
	wa_eng_event_fn		 on_event;
	void			*ev_arg;
	char			*version, *os, *qr_file;
	uint32_t		 qr_first_ms, qr_next_ms, ping_ms, ping_dl_ms;
	uint32_t		 retry_cap_ms, wait_ms;

	struct wa_device	 dev;
	enum conn_kind		 kind;
	bool			 online;
	int64_t			 online_since_ms;
	/* <success t> (s) x 1000 minus our clock then, ms (7.1); 0 before
	 * the first login */
	int64_t			 server_offset_ms;
	/* The offline backlog of this connection (11.6): being pulled
	 * (between <offline_preview> and <offline>); a batch asked whose
	 * first stanza has not come yet; batches asked; stanzas seen. */
	bool			 off_active, off_armed;
	uint32_t		 off_batches, off_got;
	uint32_t		 attempt;	/* connects made */
	uint32_t		 fails;		/* since the last stable link */

	char			 refs[MAX_REFS][MAX_REF_LEN];
	size_t			 nrefs, ref_idx;

	char			 idp[12];	/* iq id prefix */
	uint32_t		 idn;
	char			 ping_id[IQ_ID_LEN];
	bool			 ping_out;
	char			 count_id[IQ_ID_LEN];
	/* media_conn for uploads (wa_eng_media_conn(); 1.1): the answer
	 * kept until it expires, the query out, who waits for it */
	char			 mc_id[IQ_ID_LEN];
	struct wa_mediaconn	 mc;
	struct {
		wa_eng_mc_fn	 fn;
		void		*arg;
	}			 mc_wait[WA_ENG_MC_WAITERS];
	size_t			 mc_nwait;
	char			 upload_id[IQ_ID_LEN];
	uint32_t		*upload_ids;	/* ids of the upload */
	size_t			 upload_n;
	bool			 uploaded;	/* on this connection */
	char			 text[1024];	/* event text */

	/* failure 405 (3.3) */
	char			*version_url, *ca_file;
	bool			 full_history;	/* requireFullSync at linking */
	bool			 version_pinned;	/* set by the user */
	bool			 version_retried;	/* since the last login */
	struct wa_engver	*lookup;		/* in flight, or NULL */

	/* pairing by code (6.7) */
	char			 lc_pn[PN_MAX];	/* "" = pair by QR */
	enum lc_state		 lc;
	char			 lc_code[WA_PAIRCODE_LEN + 1];
	uint8_t			 lc_eph_priv[WA_ENG_KEY_LEN];
	char			 lc_ref[MAX_REF_LEN];
	char			 lc_id[IQ_ID_LEN];	/* hello or finish */

	/* 1:1 messaging (proto/dm.h); NULL without its stores */
	struct wa_signal	*sig;
	struct wa_dm		*dm;
	struct wa_dm_host	 dm_host;
	/* history sync (proto/hsync.h); NULL without its store */
	struct wa_hsync		*hs;
	struct wa_hsync_host	 hs_host;
	/* app state sync (proto/appsync.h); NULL without its store */
	struct wa_appsync	*as;
	struct wa_appsync_host	 as_host;
	/* media downloads (proto/media-get.h); NULL without its store */
	struct wa_mget		*mg;
	struct wa_mget_host	 mg_host;
	/* profiles and the blocklist (proto/prof.h); NULL without its
	 * event callback */
	struct wa_prof		*pr;
	struct wa_prof_host	 pr_host;
};

/* ---- eng-ib.c ---- */

/* The unified_session id for a clock of now_ms and a server offset of
 * offset_ms (7.2): (now + offset + 3 days) mod 7 days, ms, in
 * [0, 7 days).  Pure. */
int64_t		 eng_unified_session_id(int64_t now_ms, int64_t offset_ms);

/* Keep the server's clock from n's t attribute (unix s; <success> 7.1,
 * or the pair-success iq, as [WM] and [BL]) as e->server_offset_ms;
 * nothing when absent or not a positive number. */
void		 eng_take_server_time(struct wa_eng *e,
		    const struct wa_node *n);

/* Send <ib><unified_session id/></ib> (7.2; after login and after
 * pair-device-sign, as [BL] and [WM]).  A send error is logged only
 * (telemetry). */
void		 eng_send_unified_session(struct wa_eng *e);

/* An <ib> stanza (11.6): offline_preview answered with the first
 * offline_batch, offline ends the pull; dirty and others logged. */
void		 eng_on_ib(struct wa_eng *e, const struct wa_node *n);

/* A stanza with the offline attribute arrived: while the backlog is
 * pulled, the first of a batch starts the timer for the next request
 * (WA_ENG_OFFLINE_DEBOUNCE_MS). */
void		 eng_offline_seen(struct wa_eng *e);

/* Forget the backlog's state and stop its timer (a lost connection). */
void		 eng_offline_reset(struct wa_eng *e);

/* ---- eng-util.c ---- */

/* Start timer t (one shot, ms) unless the engine is being freed (a
 * callback may have called wa_eng_free()). */
void		 eng_timer_start(struct wa_eng *e, uv_timer_t *t,
		    uv_timer_cb cb, uint64_t ms);

/* Send the user one event (nothing once freed); text NULL is "". */
void		 eng_emit(struct wa_eng *e, enum wa_eng_ev_kind kind, int err,
		    const char *text, uint32_t num, uint32_t id);

/* The same with text from the translated format fmt (po/Makevars names
 * this function for xgettext), kept in e->text. */
void		 eng_emitf(struct wa_eng *e, enum wa_eng_ev_kind kind, int err,
		    const char *fmt, ...) PRINTFLIKE(4, 5);

/* The kind of event for a failed store call's rc: WA_ENG_EV_STORE_FAILED
 * for -ENOSPC or -EIO (the host goes offline until a write succeeds),
 * else WA_ENG_EV_ERROR.  Pure. */
enum wa_eng_ev_kind eng_store_kind(int rc);

/* The injected clock: ms since the Unix epoch. */
int64_t		 eng_now_ms(struct wa_eng *e);

/* A uniform random value in [0, n); 0 when the RNG fails. */
uint32_t	 eng_rand_below(struct wa_eng *e, uint32_t n);

/* The next iq id of this engine ("PREFIX.N") into out. */
void		 eng_next_id(struct wa_eng *e, char out[IQ_ID_LEN]);

/*
 * Encode and send n; the encoded bytes are wiped after.  Returns 0, or
 * -ESHUTDOWN (the engine is being freed) or the error of wa_bin_encode()
 * or wa_conn_send() (logged).
 */
int		 eng_send(struct wa_eng *e, const struct wa_node *n);

/* An iq to s.whatsapp.net in arena a (id, type, xmlns borrowed; xmlns
 * may be NULL), with room for two more attributes. */
struct wa_node	*eng_iq(struct arena *a, const char *id, const char *type,
		    const char *xmlns);

/* Send <iq type="result" id> to s.whatsapp.net (errors logged only). */
void		 eng_send_result(struct wa_eng *e, struct wa_str id);

/* Our own JID "PN[:DEV]@server" as the login's username and device
 * (6.6).  Returns 0, or -EINVAL when jid is not that. */
int		 eng_parse_own_jid(const char *jid, uint64_t *pn,
		    uint32_t *device);

/* Write the QR text to the configured file (0600, replaced atomically);
 * a failure is logged and sent as WA_ENG_EV_ERROR.  Nothing without a
 * file.  Remove it (nothing without a file). */
void		 eng_qr_file_write(struct wa_eng *e, const char *text);
void		 eng_qr_file_remove(struct wa_eng *e);

/* Fresh registration material (3.2) into e->dev (not stored).  Returns
 * 0, the RNG's error or WC_ECRYPTO (signing failed); e->dev wiped on
 * error. */
int		 eng_make_device(struct wa_eng *e);

/* ---- eng-link.c ---- */

/*
 * The connection is over (or must be): close it, clear the per-connection
 * state, then retry, reconnect now, stop, look the version up or forget
 * the device, as nx says; reason (translated; po/Makevars names this
 * function for xgettext) goes out with the event.
 */
void		 eng_lost(struct wa_eng *e, int err, enum eng_next nx,
		    const char *reason);

/* Stop the QR, keepalive, reconnect and answer timers. */
void		 eng_stop_timers(struct wa_eng *e);

/*
 * The connection now waits for the server's answer what (a static
 * English phrase, "<success> or <failure> after the login", ...): when
 * none has come within the engine's wait_ms, the connection is dropped
 * with that reason and a reconnect follows with the backoff.  It replaces
 * an earlier wait.  eng_wait_done() ends the wait.
 */
void		 eng_wait(struct wa_eng *e, const char *what);
void		 eng_wait_done(struct wa_eng *e);

/* Arm the keepalive ping (1.4): the set interval, else 20-30 s. */
void		 eng_schedule_ping(struct wa_eng *e);

/* Open a connection: login payload when paired, else registration. */
void		 eng_connect_now(struct wa_eng *e);

/* The answer n to our keepalive ping (1.4). */
void		 eng_on_ping_answer(struct wa_eng *e, const struct wa_node *n);

/* Forget the code link of this connection (6.7), its keys wiped. */
void		 eng_lc_reset(struct wa_eng *e);

/* stream:error and failure (1.5): how the connection ends. */
void		 eng_on_stream_error(struct wa_eng *e, const struct wa_node *n);
void		 eng_on_failure(struct wa_eng *e, const struct wa_node *n);

/* The connection's callbacks (struct wa_conn_events; arg is the engine)
 * but the frame's, which is eng-stanza.c's. */
void		 eng_on_open(void *arg);
void		 eng_on_close(void *arg, int err, const char *reason);

/* ---- eng-pair.c ---- */

/* Copy the digits of pn (an optional leading '+', 5 to 20 digits, the
 * first not 0) to out; false when pn is not such a number. */
bool		 eng_pn_parse(const char *pn, char out[PN_MAX]);

/* <iq type="set"> n holding pair-device pd (6.1) or pair-success ps
 * (6.3-6.5). */
void		 eng_on_pair_device(struct wa_eng *e, const struct wa_node *n,
		    const struct wa_node *pd);
void		 eng_on_pair_success(struct wa_eng *e, const struct wa_node *n,
		    const struct wa_node *ps);

/* The answer to companion_hello or companion_finish (6.7). */
void		 eng_on_lc_reply(struct wa_eng *e, const struct wa_node *n);

/* The phone's link_code_companion_reg lc (6.7 steps 3-5). */
void		 eng_on_lc_primary(struct wa_eng *e, const struct wa_node *lc);

/* The notification companion_reg_refresh n (6.2.1); the caller acks. */
void		 eng_on_reg_refresh(struct wa_eng *e, const struct wa_node *n);

/* ---- eng-login.c ---- */

/* <success> n on the login connection (7.1, 7.2). */
void		 eng_on_success(struct wa_eng *e, const struct wa_node *n);

/*
 * Our keys for a retry receipt (protocol.md 9.6; whatsmeow GenOnePreKey):
 * the identity and signed prekey of e->dev, and one one-time prekey
 * generated and stored now, marked uploaded so that no upload hands it
 * to the server too.  Returns 0 and *out; or the rng's or the store's
 * error, -ESHUTDOWN when the engine was freed in the event.  Loop thread.
 */
MUST_CHECK int	 eng_retry_keys(struct wa_eng *e, struct wa_dm_keys *out);

/* The answer n to our prekey upload (7.3). */
void		 eng_on_upload_reply(struct wa_eng *e, const struct wa_node *n);

/* The answer n to our prekey count query (7.2). */
void		 eng_on_mc_answer(struct wa_eng *e, const struct wa_node *n);
/* The connection is gone: every media_conn waiter hears -ENOTCONN. */
void		 eng_mc_lost(struct wa_eng *e);
void		 eng_on_count_answer(struct wa_eng *e, const struct wa_node *n);

/* The server's count of our prekeys, <count value> (7.3, 7.4). */
void		 eng_on_server_count(struct wa_eng *e,
		    const struct wa_node *count);

/* <notification type="account_sync"> n: our push name (11.7). */
void		 eng_on_account_sync(struct wa_eng *e, const struct wa_node *n);

/* ---- eng-stanza.c ---- */

/* The connection's frame callback: decode one stanza and route it. */
void		 eng_on_frame(void *arg, const uint8_t *p, size_t len);

#endif
