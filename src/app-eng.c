/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-eng.c -- the engine thread of the composition root
 * (src/app-int.h): it opens the store (src/app-db.c), binds the store
 * into the engine, runs the engine's loop, and turns the
 * engine's, the messaging module's and history sync's callbacks into
 * typed events for the main thread, with the names and group details the
 * screen shows filled in here, once.
 */
#include "base/compat.h"

#define LOG_TAG	"eng"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/event.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/sysrand.h"
#include "base/xmalloc.h"
#include "proto/eng.h"
#include "src/app-dm.h"
#include "src/app-appstate.h"
#include "src/app-hist.h"
#include "src/app-int.h"
#include "src/app-media.h"
#include "src/app-store.h"
#include "src/evq.h"
#include "store/store.h"

#define eng_log(level, ...) log_write(level, "eng", __func__, __VA_ARGS__)

void
app_eng_stop(struct app *a, const char *why, int err)
{
	if (a->stopping)
		return;
	a->stopping = true;
	app_db_check_stop(a);
	a->stop_text = xstrdup(why);
	a->stop_err = err;
	app_disk_stop(a);
	app_expire_stop(a);
	app_spool_stop(a);
	app_upload_stop(a);
	wa_eng_free(a->eng);
	a->eng = NULL;
	evq_close(&a->cmds);
}

/* Our account from jid (our AD-JID): the JID and its user part, the
 * phone number shown after a '+', and our push name (may be ""). */
static void
account(struct ev_account *acc, const char *jid, const char *name)
{
	struct jid	 j;

	ev_set(&acc->jid, jid);
	ev_set(&acc->name, name != NULL ? name : "");
	if (jid_parse(jid, &j) == 0 && j.user_len > 0)
		ev_set_len(&acc->number, j.user, j.user_len);
	else
		ev_set_len(&acc->number, jid, strcspn(jid, ":@"));
}

static void
on_eng_event(void *arg, const struct wa_eng_ev *e)
{
	struct app	*a = arg;
	struct ev	*ev = NULL;

	switch (e->kind) {
	case WA_ENG_EV_CONNECTING:
		ev = ev_new(EV_CONNECTING);
		ev->u.connecting.attempt = e->num;
		break;
	case WA_ENG_EV_QR:
		ev = ev_new(EV_QR);
		ev_set(&ev->u.qr.code, e->text);
		ev->u.qr.secs = e->secs;
		break;
	case WA_ENG_EV_PAIRED:
		ev = ev_new(EV_PAIRED);
		account(&ev->u.paired, e->text, e->name);
		break;
	case WA_ENG_EV_LINKED:
		ev = ev_new(EV_LINKED);
		account(&ev->u.linked, e->text, e->name);
		if (!jid_user_of(e->text, a->own_user, sizeof(a->own_user)))
			eng_log(LOG_WARN, "our JID does not parse");
		break;
	case WA_ENG_EV_CONNECTED:
		ev = ev_new(EV_CONNECTED);
		account(&ev->u.connected, e->text, e->name);
		/* our user JID: "15550000001:4@s.whatsapp.net" ->
		 * "15550000001@s.whatsapp.net" */
		if (!jid_user_of(e->text, a->own_user, sizeof(a->own_user)))
			eng_log(LOG_WARN, "our JID does not parse");
		app_upload_online(a);
		break;
	case WA_ENG_EV_PREKEYS_STORED:
	case WA_ENG_EV_PREKEYS_SENT:
	case WA_ENG_EV_PREKEYS_UPLOADED:
	case WA_ENG_EV_PREKEY_COUNT:
		eng_log(LOG_INFO, "prekeys: event %d, %" PRIu32
		    " keys from id %" PRIu32, (int)e->kind, e->num, e->id);
		break;
	case WA_ENG_EV_QR_REFRESH:
		eng_log(LOG_INFO, "the server retired the QR's ADV secret");
		break;
	case WA_ENG_EV_PAIR_CODE:
		ev = ev_new(EV_PAIR_CODE);
		ev_set(&ev->u.pair_code.code, e->text);
		break;
	case WA_ENG_EV_VERSION:
		eng_log(LOG_INFO, "failure 405: logging in again as version %s",
		    e->text);
		break;
	case WA_ENG_EV_DISCONNECTED:
		ev = ev_new(EV_DISCONNECTED);
		ev_set(&ev->u.disconnected.why, e->text);
		ev->u.disconnected.err = e->err;
		ev->u.disconnected.retry_ms = e->retry_ms;
		break;
	case WA_ENG_EV_LOGGED_OUT:
		ev = ev_new(EV_LOGGED_OUT);
		ev_set(&ev->u.logged_out.why, e->text);
		ev->u.logged_out.err = e->err;
		app_eng_send(a, ev);
		app_eng_stop(a, "", WC_ELOGGEDOUT);
		return;
	case WA_ENG_EV_STOPPED:
		app_eng_stop(a, e->text, e->err != 0 ? e->err : -ECANCELED);
		return;
	case WA_ENG_EV_IDLE:
		eng_log(LOG_INFO, "no more attempts until asked: %s", e->text);
		if (a->lines) {
			/* no screen, so no key to start again: said, and
			 * wachat ends (exit status 1) */
			app_eng_stop(a, e->text, e->err != 0 ? e->err :
			    -ECANCELED);
			return;
		}
		ev = ev_new(EV_DISCONNECTED);
		ev_set(&ev->u.disconnected.why, e->text);
		ev->u.disconnected.err = e->err;
		ev->u.disconnected.idle = true;
		break;
	case WA_ENG_EV_ERROR:
		app_eng_error(a, e->text, e->err);
		break;
	case WA_ENG_EV_STORE_FAILED:
		/* said, then offline until a write succeeds */
		app_eng_error(a, e->text, e->err);
		if (e->err == -ENOSPC)
			app_disk_full(a);
		else
			app_disk_ioerr(a);
		break;
	case WA_ENG_EV_PUSH_NAME:
		if (a->own_user[0] == '\0')
			break;	/* said with EV_CONNECTED */
		ev = ev_new(EV_OWN_NAME);
		account(&ev->u.own_name, a->own_user, e->name);
		break;
	}
	if (ev != NULL)
		app_eng_send(a, ev);
}

/* History sync's events, for the main thread. */
static void
on_hsync_event(void *arg, const struct wa_hsync_ev *e)
{
	struct app		*a = arg;
	struct ev		*ev;
	struct ev_history	*h;

	if (e->kind == WA_HSYNC_EV_STORE_FAILED) {
		/* as for a message: offline until a write succeeds */
		if (e->err == -ENOSPC)
			app_disk_full(a);
		else
			app_disk_ioerr(a);
		return;
	}
	app_expire_kick(a);	/* an imported chat may have a timer */
	ev = ev_new(EV_HISTORY);
	h = &ev->u.history;
	switch (e->kind) {
	case WA_HSYNC_EV_PROGRESS:
		h->step = EV_HISTORY_CHUNK;
		break;
	case WA_HSYNC_EV_FAILED:
		h->step = EV_HISTORY_REFUSED;
		ev_set(&h->why, e->why);
		break;
	case WA_HSYNC_EV_IDLE:
	case WA_HSYNC_EV_STORE_FAILED:
		h->step = EV_HISTORY_IDLE;
		break;
	}
	h->progress = e->progress;
	h->stored = (uint32_t)e->count;
	h->err = e->err;
	app_eng_send(a, ev);
}

/* App state sync's events (proto/appsync.h), for the main thread: one
 * per batch of committed patches. */
static void
on_appsync_event(void *arg, const struct wa_appsync_ev *e)
{
	struct app	*a = arg;
	struct ev	*ev;

	switch (e->kind) {
	case WA_APPSYNC_EV_STORE_FAILED:
		/* as for a message: offline until a write succeeds */
		if (e->err == -ENOSPC)
			app_disk_full(a);
		else
			app_disk_ioerr(a);
		return;
	case WA_APPSYNC_EV_CHANGED:
		break;
	case WA_APPSYNC_EV_SENDING:
	case WA_APPSYNC_EV_SENT:
	case WA_APPSYNC_EV_SEND_FAILED:
	case WA_APPSYNC_EV_NO_KEY:
		app_chat_act_event(a, e);	/* our own changes */
		return;
	}
	ev = ev_new(EV_APP_STATE);
	ev->u.app_state.actions = e->actions;
	ev->u.app_state.names = e->names;
	ev->u.app_state.chats = e->chats;
	app_eng_send(a, ev);
}

/* ---- the messaging module's events ---- */

/* A message state of proto/dm.h as the UI's. */
static enum ev_state
state_of(int st)
{
	switch (st) {
	case WA_DM_QUEUED:	return EV_STATE_QUEUED;
	case WA_DM_SENT:	return EV_STATE_SENT;
	case WA_DM_DELIVERED:	return EV_STATE_DELIVERED;
	case WA_DM_READ:	return EV_STATE_READ;
	case WA_DM_FAILED:	return EV_STATE_FAILED;
	case WA_DM_RECEIVED:	return EV_STATE_NONE;
	}
	return EV_STATE_NONE;
}

static void
key_of(struct ev_key *k, const struct wa_dm_ev *e)
{
	ev_set(&k->chat, e->chat);
	ev_set(&k->id, e->id);
	ev_set(&k->sender, e->sender);
	k->from_me = e->from_me;
}

static struct ev *
dm_message(struct app *a, const struct wa_dm_ev *e)
{
	struct ev		*ev = ev_new(EV_MESSAGE);
	struct ev_message	*m = &ev->u.message;
	char			*g;

	key_of(&m->key, e);
	ev_set(&m->text, e->text);
	ev_set(&m->quoted_id, e->quoted_id);
	m->state = state_of(e->state);
	m->notice = e->notice;
	m->rich = e->rich;
	m->forwarded = e->forwarded;
	if (e->notice && (g = app_read_notice(a, m->text)) != NULL) {
		free(m->text);	/* a group's line, its people named now */
		m->text = g;
	}
	m->notice_kind = app_dm_note(e->notice_kind);
	m->notice_device = e->notice_device;
	m->ts_ms = e->ts_ms;
	if (e->media != NULL)
		app_media_ev_of_msg(e->media, &m->media);
	/* a group's author by name, as the screen shows it (and a typed
	 * notice's member, whom its words name) */
	if (e->sender != NULL && e->sender[0] != '\0' && e->chat != NULL &&
	    (jid_is_group(e->chat) || e->notice_kind != WA_DM_NOTE_TEXT)) {
		free(m->sender_name);
		m->sender_name = app_read_name(a, e->sender);
	}
	return ev;
}

static struct ev *
dm_state(const struct wa_dm_ev *e)
{
	struct ev	*ev = ev_new(EV_MSG_STATE);

	key_of(&ev->u.msg_state.key, e);
	ev->u.msg_state.state = state_of(e->state);
	return ev;
}

static struct ev *
dm_changed(const struct wa_dm_ev *e)
{
	struct ev		*ev = ev_new(EV_MSG_CHANGED);
	struct ev_msg_changed	*c = &ev->u.msg_changed;

	key_of(&c->key, e);
	ev_set(&c->text, e->text);
	c->deleted = e->text == NULL;
	c->ts_ms = e->ts_ms;
	return ev;
}

static struct ev *
dm_reaction(struct app *a, const struct wa_dm_ev *e)
{
	struct ev		*ev = ev_new(EV_REACTION);
	struct ev_reaction	*r = &ev->u.reaction;

	ev_set(&r->target.chat, e->chat);
	ev_set(&r->target.id, e->id);
	ev_set(&r->sender, e->sender);
	r->from_me = e->from_me;
	ev_set(&r->emoji, e->text);
	r->ts_ms = e->ts_ms;
	/* every sender's reactions, so the screen need not read the row
	 * again */
	app_read_tally(a, r);
	return ev;
}

static struct ev *
dm_typing(const struct wa_dm_ev *e)
{
	struct ev	*ev = ev_new(EV_TYPING);

	ev_set(&ev->u.typing.chat, e->chat);
	ev_set(&ev->u.typing.sender, e->sender);
	ev->u.typing.composing = e->state != 0;
	return ev;
}

static struct ev *
dm_presence(const struct wa_dm_ev *e)
{
	struct ev	*ev = ev_new(EV_PRESENCE);

	ev_set(&ev->u.presence.chat, e->chat);
	ev->u.presence.online = e->state != 0;
	ev->u.presence.last_seen_ms = e->ts_ms;
	return ev;
}

static struct ev *
dm_send_failed(const struct wa_dm_ev *e)
{
	struct ev	*ev = ev_new(EV_SEND_FAILED);

	key_of(&ev->u.send_failed.key, e);
	ev_set(&ev->u.send_failed.why, e->text);
	ev->u.send_failed.err = e->err;
	return ev;
}

static struct ev *
dm_error(const struct wa_dm_ev *e)
{
	struct ev	*ev = ev_new(EV_ERROR);

	ev_set(&ev->u.error.what, e->text);
	ev->u.error.err = e->err;
	ev_set(&ev->u.error.chat, e->chat);
	return ev;
}

/* The group's metadata changed in the store: EV_GROUP as stored, left as
 * the module says. */
static struct ev *
dm_group(struct app *a, const struct wa_dm_ev *e)
{
	struct ev	*ev;

	if (e->chat == NULL || (ev = app_read_group(a, e->chat)) == NULL)
		return NULL;
	ev->u.group.left = e->state != 0;
	return ev;
}

/* The messaging module's events, as events for the main thread. */
static void
on_dm_event(void *arg, const struct wa_dm_ev *e)
{
	struct app	*a = arg;
	struct ev	*ev = NULL;

	switch (e->kind) {
	case WA_DM_EV_MESSAGE:		ev = dm_message(a, e); break;
	case WA_DM_EV_STATE:		ev = dm_state(e); break;
	case WA_DM_EV_CHANGED:		ev = dm_changed(e); break;
	case WA_DM_EV_REACTION:		ev = dm_reaction(a, e); break;
	case WA_DM_EV_TYPING:		ev = dm_typing(e); break;
	case WA_DM_EV_PRESENCE:		ev = dm_presence(e); break;
	case WA_DM_EV_SEND_FAILED:	ev = dm_send_failed(e); break;
	case WA_DM_EV_ERROR:		ev = dm_error(e); break;
	case WA_DM_EV_GROUP:		ev = dm_group(a, e); break;
	case WA_DM_EV_DISK_FULL:	app_disk_full(a); break;
	case WA_DM_EV_STORE_FAILED:	app_disk_ioerr(a); break;
	}
	if (ev != NULL)
		app_eng_send(a, ev);
	if (e->kind == WA_DM_EV_MESSAGE && e->media != NULL && !e->from_me)
		app_mget_auto(a, e->chat, e->id, e->media);
	if (e->kind == WA_DM_EV_MESSAGE)
		app_expire_kick(a);	/* it may expire first */
}

/* ---- the thread ---- */

/* The engine over the store, started; on failure it is stopped. */
static void
start_engine(struct app *a)
{
	const struct conf	*c = a->conf;
	struct wa_eng_cfg	 cfg;
	char			 pic_dir[4096];
	int			 rc;

	app_store_ops(a->store, &a->ops);
	memset(&cfg, 0, sizeof(cfg));
	cfg.url = c->url;
	cfg.ca_file = c->ca_file;
	cfg.root_pub = c->has_root_key ? c->root_key : NULL;
	cfg.version = c->version;
	cfg.version_url = c->version_url;
	cfg.qr_file = c->qr_file;
	cfg.qr_first_ms = c->qr_first_s * 1000;
	cfg.qr_next_ms = c->qr_next_s * 1000;
	cfg.rng = sys_random;
	cfg.now_ms = sys_now_ms;
	cfg.store = &a->ops;
	cfg.on_event = on_eng_event;
	cfg.ev_arg = a;
	app_store_signal_ops(a->store, &a->sig_ops);
	app_dm_ops(a->store, &a->dm_ops);
	app_hist_ops(a->store, &a->hs_ops);
	app_as_ops(a->store, &a->as_ops);
	cfg.appsync_store = &a->as_ops;
	app_mget_ops(a->store, &a->mg_ops);
	cfg.mget_store = &a->mg_ops;
	cfg.on_mget_event = app_mget_event;
	cfg.mget_ev_arg = a;
	cfg.mget.dir = c->download_dir;
	cfg.mget.max_size = c->max_media_size;
	cfg.on_prof_event = app_prof_event;
	cfg.prof_ev_arg = a;
	/* profile pictures, cached by their id (proto/prof.h) */
	snprintf(pic_dir, sizeof(pic_dir), "%s/pictures", c->data_dir);
	cfg.prof_dir = pic_dir;
	cfg.on_appsync_event = on_appsync_event;
	cfg.appsync_ev_arg = a;
	cfg.signal_store = &a->sig_ops;
	cfg.dm_store = &a->dm_ops;
	cfg.hsync_store = &a->hs_ops;
	cfg.on_hsync_event = on_hsync_event;
	cfg.hsync_ev_arg = a;
	cfg.on_dm_event = on_dm_event;
	cfg.dm_ev_arg = a;
	cfg.dm.send_read_receipts = c->read_receipts;
	cfg.dm.send_typing = c->send_typing;
	cfg.dm.send_presence = c->send_presence;
	cfg.full_history = c->full_history;
	if ((rc = wa_eng_new(&a->eng_loop, &cfg, &a->eng)) != 0) {
		eng_log(LOG_ERROR, "wa_eng_new: %s", wc_strerror(rc));
		app_eng_stop(a, "", rc);
		return;
	}
	if ((rc = wa_eng_start(a->eng)) != 0) {
		eng_log(LOG_ERROR, "wa_eng_start: %s", wc_strerror(rc));
		app_eng_stop(a, "", rc);
	}
}

void
app_eng_thread(void *arg)
{
	struct app	*a = arg;
	struct ev	*ev;
	char		 what[4096 + 512];
	int		 rc;

	if ((rc = app_db_open(a, what, sizeof(what))) == 0) {
		app_mget_reset(a);
		start_engine(a);
		if (!a->stopping) {
			app_db_check_start(a);
			app_spool_start(a);
			app_upload_resume(a);
			app_expire_kick(a);
		}
	} else
		app_eng_stop(a, what, rc);	/* said once, as why it stopped */
	uv_run(&a->eng_loop, UV_RUN_DEFAULT);
	/* The loop ran out of handles: the engine, the queue and the
	 * background check are gone. */
	app_db_close(a);
	app_read_release(a);
	if ((rc = uv_loop_close(&a->eng_loop)) != 0) {
		eng_log(LOG_ERROR, "the engine loop has handles left: %s",
		    wc_strerror(rc));
		if (a->stop_err == 0)
			a->stop_err = rc;
	}
	ev = ev_new(EV_STOPPED);
	ev_set(&ev->u.stopped.why, a->stop_text);
	ev->u.stopped.err = a->stop_err;
	free(a->stop_text);
	a->stop_text = NULL;
	app_eng_send(a, ev);	/* the last touch of shared state */
}
