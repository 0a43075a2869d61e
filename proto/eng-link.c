/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng-link.c -- the life of the engine's connection
 * (proto/eng-int.h): opening it with the registration or the login
 * payload (3.1), the keepalive ping (1.4), stream:error and failure
 * (1.5), the version look-up after failure 405 (3.3, on a libuv worker by
 * proto/engver.c), and the end of a connection: its state cleared, then a
 * reconnect with backoff and jitter (1.6), a stop, or the device
 * forgotten.  Its timers (keepalive, reconnect) run on the engine's loop.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#define LOG_TAG "eng"

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "proto/eng-int.h"
#include "proto/engver.h"
#include "proto/node.h"

static void	start_lookup(struct wa_eng *e);
static void	on_retry_timer(uv_timer_t *t);
static void	relink(struct wa_eng *e, int err, const char *reason);

/* --- timers and the end of a connection --- */

static uint32_t
backoff_ms(struct wa_eng *e)
{
	uint64_t	 a = WA_ENG_RETRY_FIRST_MS, b = WA_ENG_RETRY_FIRST_MS;
	uint32_t	 i, d, cap = e->retry_cap_ms;

	/* Fibonacci: 1, 1, 2, 3, 5, ... s, capped (1.6, [RS]). */
	for (i = 0; i < e->fails && a < cap; i++) {
		uint64_t	 t = a + b;

		a = b;
		b = t;
	}
	d = a > cap ? cap : (uint32_t)a;
	/* +-10 % jitter. */
	return d - d / 10 + eng_rand_below(e, d / 5 + 1);
}

void
eng_stop_timers(struct wa_eng *e)
{
	uv_timer_stop(&e->t_qr);
	uv_timer_stop(&e->t_ping);
	uv_timer_stop(&e->t_retry);
	eng_offline_reset(e);
	eng_wait_done(e);
}

static void
on_wait_timer(uv_timer_t *t)
{
	struct wa_eng	*e = t->data;
	char		 why[160];

	snprintf(why, sizeof(why), _("timed out waiting for %s (no answer "
	    "within %" PRIu32 " s)"), e->wait_for != NULL ? e->wait_for :
	    "the server", (e->wait_ms + 999) / 1000);
	eng_lost(e, -ETIMEDOUT, NEXT_RETRY, why);
}

void
eng_wait(struct wa_eng *e, const char *what)
{
	e->wait_for = what;
	eng_timer_start(e, &e->t_wait, on_wait_timer, e->wait_ms);
}

void
eng_wait_done(struct wa_eng *e)
{
	e->wait_for = NULL;
	uv_timer_stop(&e->t_wait);
}

/* The connection is over (or must be): see proto/eng-int.h. */
void
eng_lost(struct wa_eng *e, int err, enum eng_next nx, const char *reason)
{
	struct wa_eng_ev	 ev;
	int64_t			 t = eng_now_ms(e);
	uint32_t		 delay = 0;
	int			 rc;

	if (e->freed)
		return;
	wa_conn_close(e->c);
	eng_stop_timers(e);
	if (e->online && t - e->online_since_ms >= WA_ENG_STABLE_MS)
		e->fails = 0;
	e->online = false;
	if (e->dm != NULL)
		wa_dm_offline(e->dm);
	if (e->hs != NULL)
		wa_hsync_offline(e->hs);
	if (e->as != NULL)
		wa_appsync_offline(e->as);
	if (e->mg != NULL)
		wa_mget_offline(e->mg);
	if (e->pr != NULL)
		wa_prof_offline(e->pr);
	e->kind = KIND_NONE;
	e->ping_out = false;
	e->count_id[0] = e->upload_id[0] = e->ping_id[0] = '\0';
	eng_mc_lost(e);
	e->uploaded = false;
	e->nrefs = e->ref_idx = 0;
	eng_lc_reset(e);
	snprintf(e->text, sizeof(e->text), "%s", gettext(reason));
	log_info("connection lost: %s (%s)", reason, wc_strerror(err));
	switch (nx) {
	case NEXT_RETRY:
	case NEXT_NOW:
		if (nx == NEXT_RETRY) {
			delay = backoff_ms(e);
			e->fails++;
		}
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_ENG_EV_DISCONNECTED;
		ev.text = e->text;
		ev.err = err;
		ev.retry_ms = delay;
		e->on_event(e->ev_arg, &ev);
		eng_timer_start(e, &e->t_retry, on_retry_timer, delay);
		break;
	case NEXT_STOP:
		e->halted = true;
		eng_emit(e, WA_ENG_EV_STOPPED, err, e->text, 0, 0);
		break;
	case NEXT_HOLD:
		/* wa_eng_hold(): offline, no timer, until resumed */
		e->held = true;
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_ENG_EV_DISCONNECTED;
		ev.text = e->text;
		ev.err = err;
		e->on_event(e->ev_arg, &ev);
		break;
	case NEXT_IDLE:
		/* no timer: the user starts again (wa_eng_retry()) */
		e->idle = true;
		eng_qr_file_remove(e);
		eng_emit(e, WA_ENG_EV_IDLE, err, e->text, e->idle_reason, 0);
		break;
	case NEXT_LOOKUP:
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_ENG_EV_DISCONNECTED;
		ev.text = e->text;
		ev.err = err;
		e->on_event(e->ev_arg, &ev);
		start_lookup(e);
		break;
	case NEXT_LOGOUT:
		if (e->dev.unconfirmed && e->dev.jid[0] != '\0') {
			relink(e, err, reason);
			break;
		}
		e->halted = true;
		eng_qr_file_remove(e);
		if ((rc = e->st->device_forget(e->st->arg)) != 0)
			eng_emitf(e, WA_ENG_EV_ERROR, rc, "cannot forget the "
			    "device in the store");
		wa_crypto_wipe(&e->dev, sizeof(e->dev));
		snprintf(e->text, sizeof(e->text), "%s", reason);
		eng_emit(e, WA_ENG_EV_LOGGED_OUT, err, e->text, 0, 0);
		break;
	}
}

/*
 * The server refused the login of a link it never accepted (the
 * connection was lost around pair-device-sign, 6.5-6.6): that link did
 * not complete.  Forget it, make new registration material and show a
 * new QR, saying so (issue 15).
 */
static void
relink(struct wa_eng *e, int err, const char *reason)
{
	struct wa_eng_ev	 ev;
	int			 rc;

	log_info("the link did not complete (%s): starting a new one",
	    reason);
	if ((rc = e->st->device_forget(e->st->arg)) != 0 ||
	    (rc = eng_make_device(e)) != 0 ||
	    (rc = e->st->device_save(e->st->arg, &e->dev)) != 0) {
		if (eng_store_kind(rc) == WA_ENG_EV_STORE_FAILED) {
			/* a full disk: the host holds us; the next login
			 * (the old link, refused again) or the new
			 * material in memory starts it over */
			eng_emitf(e, WA_ENG_EV_STORE_FAILED, rc, "the link "
			    "did not complete, and a new one cannot be "
			    "stored: %s", wc_strerror(rc));
			return;
		}
		e->halted = true;
		eng_emitf(e, WA_ENG_EV_STOPPED, rc, "the link did not "
		    "complete, and a new one cannot be made: %s",
		    wc_strerror(rc));
		return;
	}
	snprintf(e->text, sizeof(e->text), _("the link with the phone did "
	    "not complete (%s); showing a new QR code"), gettext(reason));
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_ENG_EV_DISCONNECTED;
	ev.text = e->text;
	ev.err = err;
	e->on_event(e->ev_arg, &ev);
	eng_timer_start(e, &e->t_retry, on_retry_timer, 0);
}

static void
on_ping_timer(uv_timer_t *t)
{
	struct wa_eng	*e = t->data;
	struct arena	 a;
	struct wa_node	*n;
	char		 why[96];

	if (e->ping_out) {
		snprintf(why, sizeof(why), _("no answer to the keepalive ping "
		    "within %" PRIu32 " s"), e->ping_dl_ms / 1000);
		eng_lost(e, -ETIMEDOUT, NEXT_RETRY, why);
		return;
	}
	/* 1.4: <iq xmlns="w:p" type="get" to=s.whatsapp.net><ping/></iq>. */
	arena_init(&a, 0);
	eng_next_id(e, e->ping_id);
	n = eng_iq(&a, e->ping_id, "get", "w:p");
	wa_nb_kid(&a, wa_nb_kids(&a, n, 1), "ping", 0);
	if (eng_send(e, n) == 0)
		e->ping_out = true;
	arena_release(&a);
	eng_timer_start(e, &e->t_ping, on_ping_timer, e->ping_dl_ms);
}

void
eng_schedule_ping(struct wa_eng *e)
{
	uint32_t	 ms = e->ping_ms;

	if (ms == 0)
		ms = WA_ENG_PING_MIN_MS + eng_rand_below(e, WA_ENG_PING_MAX_MS -
		    WA_ENG_PING_MIN_MS + 1);
	eng_timer_start(e, &e->t_ping, on_ping_timer, ms);
}

/* The server answered our keepalive ping: the next one in 20-30 s. */
void
eng_on_ping_answer(struct wa_eng *e, const struct wa_node *n)
{
	(void)n;
	e->ping_out = false;
	e->ping_id[0] = '\0';
	eng_schedule_ping(e);
}

/* Part of the per-connection state eng_lost() clears; eng-pair.c's too. */
void
eng_lc_reset(struct wa_eng *e)
{
	e->lc = LC_NONE;
	e->lc_id[0] = '\0';
	e->lc_ref[0] = '\0';
	wa_crypto_wipe(e->lc_eph_priv, sizeof(e->lc_eph_priv));
	wa_crypto_wipe(e->lc_code, sizeof(e->lc_code));
}

/* --- the version look-up after failure 405 (3.3) --- */

static void
on_lookup_done(void *arg, int err, uint32_t rev, const char *why)
{
	struct wa_eng	*e = arg;
	char		 v[32], msg[320];
	int		 rc;

	e->lookup = NULL;
	if (e->freed)
		return;
	if (err != 0) {
		snprintf(msg, sizeof(msg), "this client version is outdated "
		    "(failure 405) and the current one could not be looked "
		    "up: %s", why);
		e->halted = true;
		eng_emit(e, WA_ENG_EV_STOPPED, err, msg, 0, 0);
		return;
	}
	snprintf(v, sizeof(v), "2.3000.%" PRIu32, rev);
	log_info("WhatsApp Web's current version: %s", v);
	/* kept for the next start, so that it pays no 405 again; a store
	 * that cannot keep it costs only that */
	if (e->st->version_save != NULL &&
	    (rc = e->st->version_save(e->st->arg, rev)) != 0)
		log_warn("cannot keep the version looked up: %s",
		    wc_strerror(rc));
	free(e->version);
	e->version = xstrdup(v);
	e->version_retried = true;
	eng_emit(e, WA_ENG_EV_VERSION, 0, v, 0, 0);
	if (!e->freed)
		eng_connect_now(e);
}

static void
start_lookup(struct wa_eng *e)
{
	int	 rc;

	if (e->freed || e->lookup != NULL)
		return;
	e->halted = false;
	if ((rc = wa_engver_lookup(e->loop, e->version_url, e->ca_file, 0,
	    on_lookup_done, e, &e->lookup)) != 0) {
		e->halted = true;
		eng_emitf(e, WA_ENG_EV_STOPPED, rc, "this client version is "
		    "outdated (failure 405) and the current one could not be "
		    "looked up: %s", wc_strerror(rc));
	}
}

/* stream:error (1.5). */
void
eng_on_stream_error(struct wa_eng *e, const struct wa_node *n)
{
	struct wa_str		 code = wa_node_str(n, "code");
	const struct wa_node	*cf = wa_node_child(n, "conflict");
	struct wa_str		 ct;
	char			 why[160];

	if (wa_str_eqc(code, "515")) {
		eng_lost(e, 0, NEXT_NOW,
		    "the server asked for a restart (515)");
		return;
	}
	if (cf != NULL && wa_node_str_is(cf, "type", "replaced")) {
		eng_lost(e, 0, NEXT_STOP,
		    "another connection replaced this one");
		return;
	}
	if ((cf != NULL && wa_node_str_is(cf, "type", "device_removed")) ||
	    wa_str_eqc(code, "401")) {
		eng_lost(e, WC_ELOGGEDOUT, NEXT_LOGOUT,
		    "this device was logged out from the phone");
		return;
	}
	ct = cf != NULL ? wa_node_str(cf, "type") : code;
	if (cf != NULL)
		snprintf(why, sizeof(why), _("stream error %.*s, conflict "
		    "%.*s"), (int)code.len, code.p != NULL ? code.p : "",
		    (int)ct.len, ct.p != NULL ? ct.p : "");
	else
		snprintf(why, sizeof(why), _("stream error %.*s"),
		    (int)code.len, code.p != NULL ? code.p : "");
	eng_lost(e, WC_EPROTO, NEXT_RETRY, why);
}

/*
 * The words for a <failure> reason the engine does not retry on its own
 * (1.5): [WM] types/events ConnectFailureReason; NULL for one not known.
 */
static const char *
failure_words(unsigned long reason)
{
	switch (reason) {
	case 400:	return _("no reason given");
	case 402:	return _("the account is temporarily banned");
	case 409:	return _("the server refused the user agent");
	case 413:	return _("the crypto auth token has expired");
	case 414:	return _("the crypto auth token is invalid");
	case 415:	return _("not found");
	case 418:	return _("the server does not know this client");
	case 501:	return _("the server refused an experimental client");
	}
	return NULL;
}

/* failure 405 (3.3): look the current version up and log in once more
 * with it, unless pinned or done already since the last login. */
static void
on_outdated(struct wa_eng *e)
{
	char	 why[160];

	if (!e->version_pinned && !e->version_retried) {
		eng_lost(e, WC_EPROTO, NEXT_LOOKUP, "this client version "
		    "is outdated (failure 405); looking up the current one");
		return;
	}
	snprintf(why, sizeof(why), e->version_pinned ?
	    _("this client version %s, pinned by a setting, is "
	    "outdated (failure 405)") : _("this client version %s, "
	    "just looked up, is outdated (failure 405)"),
	    e->version != NULL ? e->version : WA_CONN_DEFAULT_VERSION);
	eng_lost(e, WC_EPROTO, NEXT_STOP, why);
}

/*
 * failure instead of success (1.5), as [WM] handleConnectFailure: 401,
 * 403 and 406 log out; 405 looks the version up (3.3); only 500 and 503
 * are retried with the backoff; every other reason, known or not, ends
 * the attempts until the user starts again (NEXT_IDLE), saying why: a
 * retry of our own would be refused the same way, every minute, forever.
 * ([WM] also reconnects on 413/414 after renewing its Messenger crypto
 * auth token; wachat has none to renew, so those end too.)
 */
void
eng_on_failure(struct wa_eng *e, const struct wa_node *n)
{
	struct wa_str	 r = wa_node_str(n, "reason");
	char		 tmp[8], why[200];
	unsigned long	 reason = 0;
	const char	*words;

	if (r.len > 0 && r.len < sizeof(tmp)) {
		memcpy(tmp, r.p, r.len);
		tmp[r.len] = '\0';
		reason = strtoul(tmp, NULL, 10);
	}
	switch (reason) {
	case 401:
	case 403:
	case 406:
		words = reason == 401 ? _("logged out from another device") :
		    reason == 403 ? _("the main device is gone or the account "
		    "is locked") : _("logged out (unknown reason) or banned");
		snprintf(why, sizeof(why), _("%s (failure %lu)"), words,
		    reason);
		eng_lost(e, WC_ELOGGEDOUT, NEXT_LOGOUT, why);
		return;
	case 405:
		on_outdated(e);
		return;
	case 500:
	case 503:
		snprintf(why, sizeof(why), _("%s (failure %lu)"),
		    _("server error"), reason);
		eng_lost(e, WC_EPROTO, NEXT_RETRY, why);
		return;
	}
	if ((words = failure_words(reason)) != NULL)
		snprintf(why, sizeof(why), _("the server refused the login: "
		    "%s (failure %lu)"), words, reason);
	else
		snprintf(why, sizeof(why), _("the server refused the login "
		    "for a reason wachat does not know (failure %lu)"),
		    reason);
	log_warn("failure %lu: no retry until the user asks", reason);
	e->idle_reason = (uint32_t)reason;
	eng_lost(e, WC_EPROTO, NEXT_IDLE, why);
}

/* --- the connection's callbacks, and opening it --- */

void
eng_on_open(void *arg)
{
	struct wa_eng	*e = arg;

	log_info("connected (%s)", e->kind == KIND_REG ? "registration" :
	    "login");
	/* Every state has a deadline: the server's first word comes within
	 * wait_ms ([WM] and [BL] give up on a silent socket, 1.4). */
	eng_wait(e, e->kind == KIND_REG ? "pair-device after the "
	    "registration" : "<success> or <failure> after the login");
}

void
eng_on_close(void *arg, int err, const char *reason)
{
	struct wa_eng	*e = arg;
	char		 why[256];

	/* [WM]: the close after pairing is expected; log in at once. */
	if (e->kind == KIND_REG && e->dev.jid[0] != '\0') {
		eng_lost(e, err, NEXT_NOW, "paired; logging in");
		return;
	}
	/* The transport's reason says it all (proto/conn.h); err's own
	 * words only when it has none, so that nothing repeats. */
	snprintf(why, sizeof(why), "%s", reason != NULL && reason[0] != '\0' ?
	    reason : wc_strerror(err));
	eng_lost(e, err, NEXT_RETRY, why);
}

void
eng_connect_now(struct wa_eng *e)
{
	struct buf		 pl = BUF_INIT;
	struct wa_conn_reg	 r;
	uint64_t		 pn;
	uint32_t		 dev;
	char			 why[160];
	int			 rc;

	if (e->halted || e->held || e->idle)
		return;
	if (e->dev.jid[0] != '\0') {
		if ((rc = eng_parse_own_jid(e->dev.jid, &pn, &dev)) == 0)
			rc = wa_conn_payload_login(e->version, pn, dev,
			    e->dev.push_name[0] != '\0' ? e->dev.push_name :
			    NULL, &pl);
		e->kind = KIND_LOGIN;
	} else {
		memset(&r, 0, sizeof(r));
		r.reg_id = e->dev.registration_id;
		memcpy(r.ident_pub, e->dev.identity_pub, WA_ENG_KEY_LEN);
		r.spk_id = e->dev.spk_id;
		memcpy(r.spk_pub, e->dev.spk_pub, WA_ENG_KEY_LEN);
		memcpy(r.spk_sig, e->dev.spk_sig, WA_ENG_SIG_LEN);
		r.os = e->os;
		r.platform_type = WA_CONN_PLATFORM_DESKTOP;
		r.full_sync = e->full_history;
		rc = wa_conn_payload_reg(e->version, &r, NULL, &pl);
		e->kind = KIND_REG;
	}
	if (rc == 0)
		rc = wa_conn_open(e->c, e->dev.noise_priv, pl.p, pl.len);
	buf_release(&pl);
	e->attempt++;
	if (rc != 0) {
		snprintf(why, sizeof(why), _("cannot start a connection: %s"),
		    wc_strerror(rc));
		eng_lost(e, rc, NEXT_RETRY, why);
		return;
	}
	eng_emit(e, WA_ENG_EV_CONNECTING, 0, e->kind == KIND_LOGIN ? "login" :
	    "registration", e->attempt, 0);
}

static void
on_retry_timer(uv_timer_t *t)
{
	eng_connect_now(t->data);
}
