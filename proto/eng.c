/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng.c -- the connection engine's public API (proto/eng.h):
 * creating it (the connection, its timers, and the messaging and history
 * modules with the engine's view for them), starting it (the device
 * loaded, or registration material made once, 3.2, then the first
 * connect), and freeing it.  The engine's other files are listed in
 * proto/eng-int.h; sections of protocol.md are named where each fact is
 * used.  Besides proto/conn.c the engine is the part of proto/ on libuv:
 * its timers (QR rotation, keepalive, reconnect) run on the engine's
 * loop.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <uv.h>

#define LOG_TAG "eng"

#include "base/err.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "proto/dm.h"
#include "proto/eng-int.h"
#include "proto/engver.h"
#include "proto/appsync.h"
#include "proto/hsync.h"

/* --- the public API --- */

/* --- the messaging module's view of the engine --- */

static int
dm_send(void *arg, const struct wa_node *n)
{
	return eng_send(arg, n);
}

static void
dm_iq_id(void *arg, char out[32])
{
	eng_next_id(arg, out);
}

static int64_t
dm_now(void *arg)
{
	return eng_now_ms(arg);
}

static int
dm_rng(void *arg, uint8_t *p, size_t len)
{
	struct wa_eng	*e = arg;

	return e->rng(e->rng_arg, p, len);
}

static void
dm_history(void *arg)
{
	struct wa_eng	*e = arg;

	if (e->hs != NULL)
		wa_hsync_kick(e->hs);
}

static void
dm_app_state_keys(void *arg)
{
	struct wa_eng	*e = arg;

	if (e->as != NULL)
		wa_appsync_keys(e->as);
}

static int
as_send_peer(void *arg, const uint8_t *msg, size_t len)
{
	struct wa_eng	*e = arg;

	return e->dm != NULL ? wa_dm_send_peer(e->dm, msg, len) : -ENOTCONN;
}

/* App state sync (proto/appsync.h), when the host gives its store. */
static int
as_start(struct wa_eng *e, const struct wa_eng_cfg *cfg)
{
	if (cfg->appsync_store == NULL || cfg->on_appsync_event == NULL)
		return 0;
	e->as_host.send = dm_send;
	e->as_host.iq_id = dm_iq_id;
	e->as_host.send_peer = as_send_peer;
	e->as_host.now_ms = dm_now;
	e->as_host.rng = dm_rng;
	e->as_host.loop = e->loop;
	e->as_host.ca_file = e->ca_file;
	e->as_host.arg = e;
	return wa_appsync_new(&e->as_host, cfg->appsync_store,
	    cfg->on_appsync_event, cfg->appsync_ev_arg, &e->as);
}

/* Media downloads (proto/media-get.h), when the host gives their
 * store. */
static int
mg_start(struct wa_eng *e, const struct wa_eng_cfg *cfg)
{
	if (cfg->mget_store == NULL || cfg->on_mget_event == NULL)
		return 0;
	e->mg_host.send = dm_send;
	e->mg_host.iq_id = dm_iq_id;
	e->mg_host.rng = dm_rng;
	e->mg_host.loop = e->loop;
	e->mg_host.ca_file = e->ca_file;
	e->mg_host.arg = e;
	return wa_mget_new(&e->mg_host, cfg->mget_store, &cfg->mget,
	    cfg->on_mget_event, cfg->mget_ev_arg, &e->mg);
}

/* Profiles and the blocklist (proto/prof.h), when the host takes their
 * events. */
static int
pr_start(struct wa_eng *e, const struct wa_eng_cfg *cfg)
{
	if (cfg->on_prof_event == NULL || cfg->prof_dir == NULL)
		return 0;
	e->pr_host.send = dm_send;
	e->pr_host.iq_id = dm_iq_id;
	if (cfg->dm_store != NULL) {	/* PN <-> LID, as messaging keeps it */
		e->pr_host.lid_alt = cfg->dm_store->lid_alt;
		e->pr_host.lid_arg = cfg->dm_store->arg;
	}
	e->pr_host.loop = e->loop;
	e->pr_host.ca_file = e->ca_file;
	e->pr_host.arg = e;
	return wa_prof_new(&e->pr_host, cfg->prof_dir, cfg->on_prof_event,
	    cfg->prof_ev_arg, &e->pr);
}

static int
dm_retry_keys(void *arg, struct wa_dm_keys *out)
{
	return eng_retry_keys(arg, out);
}

static int
dm_start(struct wa_eng *e, const struct wa_eng_cfg *cfg)
{
	int	 rc;

	e->dm_host.send = dm_send;
	e->dm_host.iq_id = dm_iq_id;
	e->dm_host.now_ms = dm_now;
	e->dm_host.rng = dm_rng;
	e->dm_host.history = dm_history;
	e->dm_host.app_state_keys = dm_app_state_keys;
	e->dm_host.retry_keys = dm_retry_keys;
	e->dm_host.arg = e;
	if ((rc = wa_dm_new(&e->dm_host, cfg->dm_store, e->sig, &cfg->dm,
	    cfg->on_dm_event, cfg->dm_ev_arg, &e->dm)) != 0)
		return rc;
	if ((rc = as_start(e, cfg)) != 0 || (rc = mg_start(e, cfg)) != 0 ||
	    (rc = pr_start(e, cfg)) != 0)
		return rc;
	if (cfg->hsync_store == NULL || cfg->on_hsync_event == NULL)
		return 0;
	e->hs_host.send = dm_send;
	e->hs_host.iq_id = dm_iq_id;
	e->hs_host.loop = e->loop;
	e->hs_host.ca_file = e->ca_file;
	e->hs_host.arg = e;
	return wa_hsync_new(&e->hs_host, cfg->hsync_store,
	    cfg->on_hsync_event, cfg->hsync_ev_arg, &e->hs);
}

struct wa_dm *
wa_eng_dm(struct wa_eng *e)
{
	return e->dm;
}

struct wa_appsync *
wa_eng_appsync(struct wa_eng *e)
{
	return e->as;
}

struct wa_mget *
wa_eng_mget(struct wa_eng *e)
{
	return e->mg;
}

struct wa_prof *
wa_eng_prof(struct wa_eng *e)
{
	return e->pr;
}

/*
 * DeviceProps.os when the host names none: "wachat (<system>)", the
 * system from uname(2) ("Linux"), which with platformType DESKTOP is the
 * name the phone's Linked devices list shows (protocol.md 3.4); "wachat"
 * when uname fails.  Allocated.
 */
static char *
default_os(void)
{
	struct utsname	 u;
	char		 os[96];

	if (uname(&u) != 0 || u.sysname[0] == '\0')
		return xstrdup("wachat");
	snprintf(os, sizeof(os), "wachat (%.80s)", u.sysname);
	return xstrdup(os);
}

int
wa_eng_new(uv_loop_t *loop, const struct wa_eng_cfg *cfg, struct wa_eng **out)
{
	struct wa_eng		*e;
	struct wa_conn_cfg	 cc;
	int			 rc;

	char			 pn[PN_MAX];

	if (loop == NULL || cfg == NULL || cfg->rng == NULL ||
	    cfg->now_ms == NULL || cfg->store == NULL ||
	    cfg->on_event == NULL || (cfg->pair_pn != NULL &&
	    !eng_pn_parse(cfg->pair_pn, pn)))
		return -EINVAL;
	e = xcalloc(1, sizeof(*e));
	memset(&cc, 0, sizeof(cc));
	cc.url = cfg->url;
	cc.ca_file = cfg->ca_file;
	cc.root_pub = cfg->root_pub;
	cc.rng = cfg->rng;
	cc.rng_arg = cfg->rng_arg;
	cc.now_ms = cfg->now_ms;
	cc.clock_arg = cfg->clock_arg;
	cc.handshake_timeout_ms = cfg->handshake_timeout_ms;
	cc.ev.on_open = eng_on_open;
	cc.ev.on_frame = eng_on_frame;
	cc.ev.on_close = eng_on_close;
	cc.ev.arg = e;
	if ((rc = wa_conn_new(loop, &cc, &e->c)) != 0) {
		free(e);
		return rc;
	}
	e->loop = loop;
	e->st = cfg->store;
	e->rng = cfg->rng;
	e->rng_arg = cfg->rng_arg;
	e->now = cfg->now_ms;
	e->clock_arg = cfg->clock_arg;
	e->on_event = cfg->on_event;
	e->ev_arg = cfg->ev_arg;
	e->version = cfg->version != NULL ? xstrdup(cfg->version) : NULL;
	e->version_pinned = cfg->version != NULL;
	e->version_url = cfg->version_url != NULL ?
	    xstrdup(cfg->version_url) : NULL;
	e->ca_file = cfg->ca_file != NULL ? xstrdup(cfg->ca_file) : NULL;
	if (cfg->pair_pn != NULL)
		memcpy(e->lc_pn, pn, sizeof(pn));
	e->os = cfg->os != NULL ? xstrdup(cfg->os) : default_os();
	e->full_history = cfg->full_history;
	e->qr_file = cfg->qr_file != NULL ? xstrdup(cfg->qr_file) : NULL;
	e->qr_first_ms = cfg->qr_first_ms ? cfg->qr_first_ms :
	    WA_ENG_QR_FIRST_MS;
	e->qr_next_ms = cfg->qr_next_ms ? cfg->qr_next_ms : WA_ENG_QR_NEXT_MS;
	e->ping_ms = cfg->ping_ms;
	e->ping_dl_ms = cfg->ping_deadline_ms ? cfg->ping_deadline_ms :
	    WA_ENG_PING_DEADLINE_MS;
	e->retry_cap_ms = cfg->retry_cap_ms ? cfg->retry_cap_ms :
	    WA_ENG_RETRY_CAP_MS;
	uv_timer_init(loop, &e->t_retry);
	uv_timer_init(loop, &e->t_qr);
	uv_timer_init(loop, &e->t_ping);
	uv_timer_init(loop, &e->t_wait);
	uv_timer_init(loop, &e->t_offline);
	e->t_retry.data = e->t_qr.data = e->t_ping.data = e->t_wait.data = e;
	e->t_offline.data = e;
	e->wait_ms = cfg->wait_ms ? cfg->wait_ms : WA_ENG_WAIT_MS;
	e->open_timers = N_TIMERS;
	if (cfg->signal_store != NULL && cfg->dm_store != NULL &&
	    cfg->on_dm_event != NULL &&
	    ((rc = wa_signal_new(cfg->signal_store, cfg->now_ms,
	    cfg->clock_arg, &e->sig)) != 0 ||
	    (rc = dm_start(e, cfg)) != 0)) {
		wa_signal_free(e->sig);
		e->sig = NULL;
		wa_eng_free(e);
		return rc;
	}
	*out = e;
	return 0;
}

/*
 * The version looked up at an earlier run (3.3), when the store keeps one
 * newer than the compiled-in default and no setting pins one: this start
 * logs in with it instead of paying a 405 again.  A read error is logged
 * and the default kept.
 */
static void
saved_version(struct wa_eng *e)
{
	const char	*dv = strrchr(WA_CONN_DEFAULT_VERSION, '.');
	unsigned long	 def = dv != NULL ? strtoul(dv + 1, NULL, 10) : 0;
	uint32_t	 rev = 0;
	char		 v[32];
	int		 rc;

	if (e->version_pinned || e->st->version_load == NULL)
		return;
	if ((rc = e->st->version_load(e->st->arg, &rev)) < 0) {
		log_warn("cannot read the version kept: %s", wc_strerror(rc));
		return;
	}
	if (rc == 0 || rev <= def)
		return;
	snprintf(v, sizeof(v), "2.3000.%" PRIu32, rev);
	log_info("the version looked up before: %s", v);
	free(e->version);
	e->version = xstrdup(v);
}

int
wa_eng_start(struct wa_eng *e)
{
	uint8_t	 r[4];
	int	 rc;

	if (e->started)
		return -EALREADY;
	if ((rc = e->rng(e->rng_arg, r, sizeof(r))) != 0)
		return rc;
	snprintf(e->idp, sizeof(e->idp), "%02x%02x%02x%02x", r[0], r[1], r[2],
	    r[3]);
	rc = e->st->device_load(e->st->arg, &e->dev);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		/* Registration material, made once (3.2). */
		if ((rc = eng_make_device(e)) != 0)
			return rc;
		if ((rc = e->st->device_save(e->st->arg, &e->dev)) != 0) {
			wa_crypto_wipe(&e->dev, sizeof(e->dev));
			return rc;
		}
		log_info("new registration material (registration id %" PRIu32
		    ")", e->dev.registration_id);
	}
	saved_version(e);
	e->started = true;
	/* Linked before (a login succeeded with it): the host may show the
	 * account now, whether or not the server can be reached. */
	if (e->dev.jid[0] != '\0' && !e->dev.unconfirmed) {
		if (e->dm != NULL)
			wa_dm_set_own(e->dm, e->dev.jid, e->dev.lid);
		eng_emit(e, WA_ENG_EV_LINKED, 0, e->dev.jid, 0, 0);
	}
	eng_connect_now(e);
	return 0;
}

int
wa_eng_retry(struct wa_eng *e)
{
	if (e == NULL || e->freed || !e->idle || e->held || e->halted)
		return -EALREADY;
	log_info("starting again at the user's word");
	e->idle = false;
	e->idle_reason = 0;
	e->fails = 0;
	eng_connect_now(e);
	return 0;
}

bool
wa_eng_is_online(const struct wa_eng *e)
{
	return e->online;
}

void
wa_eng_hold(struct wa_eng *e, int err, const char *reason)
{
	if (e == NULL || e->freed || e->held || e->halted || e->idle ||
	    !e->started)
		return;
	eng_lost(e, err, NEXT_HOLD, reason);
}

void
wa_eng_resume(struct wa_eng *e)
{
	if (e == NULL || e->freed || !e->held)
		return;
	e->held = false;
	e->fails = 0;
	eng_connect_now(e);
}

static void
on_timer_closed(uv_handle_t *h)
{
	struct wa_eng	*e = h->data;

	if (--e->open_timers > 0)
		return;
	wa_crypto_wipe(&e->dev, sizeof(e->dev));
	wa_crypto_wipe(e->lc_eph_priv, sizeof(e->lc_eph_priv));
	wa_crypto_wipe(e->lc_code, sizeof(e->lc_code));
	free(e->upload_ids);
	free(e->version);
	free(e->version_url);
	free(e->ca_file);
	free(e->os);
	free(e->qr_file);
	free(e);
}

void
wa_eng_free(struct wa_eng *e)
{
	if (e == NULL || e->freed)
		return;
	e->freed = true;
	e->halted = true;
	eng_stop_timers(e);
	wa_engver_cancel(e->lookup);
	e->lookup = NULL;
	if (e->nrefs > 0)
		eng_qr_file_remove(e);	/* its QR dies with the connection */
	wa_conn_free(e->c);
	e->c = NULL;
	wa_hsync_free(e->hs);
	e->hs = NULL;
	wa_appsync_free(e->as);
	e->as = NULL;
	wa_mget_free(e->mg);
	e->mg = NULL;
	wa_prof_free(e->pr);
	e->pr = NULL;
	wa_dm_free(e->dm);
	e->dm = NULL;
	wa_signal_free(e->sig);
	e->sig = NULL;
	uv_close((uv_handle_t *)&e->t_retry, on_timer_closed);
	uv_close((uv_handle_t *)&e->t_qr, on_timer_closed);
	uv_close((uv_handle_t *)&e->t_ping, on_timer_closed);
	uv_close((uv_handle_t *)&e->t_wait, on_timer_closed);
	uv_close((uv_handle_t *)&e->t_offline, on_timer_closed);
}
