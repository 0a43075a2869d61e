/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-mget.c -- downloads of received media (proto/media-get.h) bound
 * to the store and the screen (src/app-int.h): the store ops over
 * store_media_get() and store_media_set_download(), the module's events
 * as EV_MEDIA_DL, CMD_MEDIA_GET, and auto-download as messages arrive.
 * Engine thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define LOG_TAG "app"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/eng.h"
#include "proto/media-get.h"
#include "src/app-int.h"
#include "store/store.h"

/* The bytes of a stored array into out when they are 32. */
static bool
take32(const uint8_t *p, size_t len, uint8_t out[32])
{
	if (p == NULL || len != 32)
		return false;
	memcpy(out, p, 32);
	return true;
}

/* The group author of a received message, into out ("" none). */
static void
sender_of(struct store *s, const char *chat, const char *id, char *out,
    size_t len)
{
	struct store_msg	 m;

	out[0] = '\0';
	if (!jid_is_group(chat))
		return;
	memset(&m, 0, sizeof(m));
	if (store_msg_get(s, chat, false, id, &m) == 1 && m.sender != NULL)
		snprintf(out, len, "%s", m.sender);
	store_msg_release(&m);
}

static int
ops_lookup(void *arg, const char *chat, const char *id,
    struct wa_mget_item *out)
{
	struct store		*s = arg;
	struct store_media	 m;
	bool			 from_me = false;
	int			 rc;

	memset(&m, 0, sizeof(m));
	if ((rc = store_media_get(s, chat, false, id, &m)) == 0) {
		from_me = true;
		rc = store_media_get(s, chat, true, id, &m);
	}
	if (rc <= 0)
		return rc;
	memset(out, 0, sizeof(*out));
	out->from_me = from_me;
	if (!from_me)
		sender_of(s, chat, id, out->sender, sizeof(out->sender));
	out->type = (enum wa_msg_media_type)m.type;
	snprintf(out->mimetype, sizeof(out->mimetype), "%s", m.mimetype);
	snprintf(out->file_name, sizeof(out->file_name), "%s", m.file_name);
	out->size = m.size > 0 ? (uint64_t)m.size : 0;
	out->has_key = take32(m.media_key, m.media_key_len, out->media_key);
	out->has_sha256 = take32(m.file_sha256, m.file_sha256_len,
	    out->file_sha256);
	out->has_enc_sha256 = take32(m.file_enc_sha256,
	    m.file_enc_sha256_len, out->file_enc_sha256);
	snprintf(out->direct_path, sizeof(out->direct_path), "%s",
	    m.direct_path);
	out->state = (enum wa_mget_state)m.dl_state;
	snprintf(out->path, sizeof(out->path), "%s", m.path);
	store_media_release(&m);
	return 1;
}

static int
ops_set_state(void *arg, const char *chat, bool from_me, const char *id,
    enum wa_mget_state st, const char *path)
{
	return store_media_set_download(arg, chat, from_me, id,
	    (enum store_dl_state)st, path);
}

static int
ops_set_direct_path(void *arg, const char *chat, bool from_me, const char *id,
    const char *direct_path)
{
	return store_media_set_direct_path(arg, chat, from_me, id,
	    direct_path);
}

void
app_mget_ops(struct store *s, struct wa_mget_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->lookup = ops_lookup;
	ops->set_state = ops_set_state;
	ops->set_direct_path = ops_set_direct_path;
	ops->arg = s;
}

static enum ev_dl_state
state_of(enum wa_mget_end e)
{
	switch (e) {
	case WA_MGET_OK:	return EV_DL_DONE;
	case WA_MGET_CORRUPT:	return EV_DL_CORRUPT;
	case WA_MGET_LENGTH:	return EV_DL_LENGTH;
	case WA_MGET_EXPIRED:	return EV_DL_EXPIRED;
	case WA_MGET_TOOBIG:	return EV_DL_TOOBIG;
	case WA_MGET_NO_MEDIA:	return EV_DL_NO_MEDIA;
	case WA_MGET_FAILED:
	case WA_MGET_CANCELLED:	break;
	}
	return EV_DL_FAILED;
}

/* The download of (chat, id) ended as st (err): EV_MEDIA_DL. */
static void
say_end(struct app *a, const char *chat, const char *id, bool from_me,
    enum ev_dl_state st, int err, const char *path, bool retried)
{
	struct ev	*ev = ev_new(EV_MEDIA_DL);

	ev_set(&ev->u.media_dl.chat, chat);
	ev_set(&ev->u.media_dl.id, id);
	ev->u.media_dl.from_me = from_me;
	ev->u.media_dl.state = st;
	ev->u.media_dl.err = err;
	ev_set(&ev->u.media_dl.path, path);
	ev->u.media_dl.retried = retried;
	app_eng_send(a, ev);
}

void
app_mget_event(void *arg, const struct wa_mget_ev *e)
{
	struct app	*a = arg;
	struct ev	*ev;

	if (e->kind == WA_MGET_EV_DONE) {
		app_viewonce_done(a, e);	/* opened: marked so */
		say_end(a, e->chat, e->id, e->from_me, state_of(e->end),
		    e->err, e->path, e->retried);
		return;
	}
	ev = ev_new(EV_MEDIA_DL);
	ev_set(&ev->u.media_dl.chat, e->chat);
	ev_set(&ev->u.media_dl.id, e->id);
	ev->u.media_dl.from_me = e->from_me;
	ev->u.media_dl.state = EV_DL_DOWNLOADING;
	ev->u.media_dl.got = (int64_t)e->done;
	ev->u.media_dl.total = (int64_t)e->total;
	ev->u.media_dl.percent = e->total > 0 ? (uint32_t)(e->done * 100 /
	    e->total) : 0;
	app_eng_send(a, ev);
}

/* Ask for (chat, id)'s file: a refusal said as its end. */
static void
get(struct app *a, const char *chat, const char *id, const char *out)
{
	struct wa_mget	*m = a->eng != NULL ? wa_eng_mget(a->eng) : NULL;
	int		 rc;

	rc = m != NULL ? wa_mget_get(m, chat, id, out) : -ENOTCONN;
	if (rc == 0 || rc == -EALREADY)
		return;		/* its events come */
	log_warn("a download was not started: %s", wc_strerror(rc));
	say_end(a, chat, id, false, EV_DL_FAILED, rc, "", false);
}

void
app_media_get(struct app *a, const struct cmd *c)
{
	const struct cmd_media_get	*g = &c->u.media_get;
	char				 tmp[4096 + 64];
	int				 rc;

	/* a view-once message: into a temp file of its own, once */
	if ((rc = app_viewonce_get(a, g->chat, g->id, tmp, sizeof(tmp))) < 0)
		say_end(a, g->chat, g->id, false, EV_DL_FAILED, rc, "", false);
	else if (rc == 1)
		get(a, g->chat, g->id, tmp);
	else
		get(a, g->chat, g->id, g->out[0] != '\0' ? g->out : NULL);
}

void
app_mget_reset(struct app *a)
{
	int	 n;

	app_viewonce_sweep(a->conf->data_dir);	/* a stop's leftovers */
	if (a->store == NULL)
		return;
	if ((n = store_media_dl_reset(a->store)) < 0)
		log_warn("downloads left running not reset: %s",
		    wc_strerror(n));
	else if (n > 0)
		log_info("%d download(s) a stop left running: reset", n);
}

/* The kind of auto-download of a media type. */
static int
auto_kind(enum wa_msg_media_type t)
{
	switch (t) {
	case WA_MEDIA_IMAGE:	return WA_MEDIA_AUTO_IMAGE;
	case WA_MEDIA_VIDEO:
	case WA_MEDIA_GIF:
	case WA_MEDIA_PTV:	return WA_MEDIA_AUTO_VIDEO;
	case WA_MEDIA_AUDIO:	return WA_MEDIA_AUTO_AUDIO;
	case WA_MEDIA_PTT:	return WA_MEDIA_AUTO_PTT;
	case WA_MEDIA_DOCUMENT:	return WA_MEDIA_AUTO_DOCUMENT;
	case WA_MEDIA_STICKER:	return WA_MEDIA_AUTO_STICKER;
	case WA_MEDIA_NONE:	break;
	}
	return -1;
}

void
app_mget_auto(struct app *a, const char *chat, const char *id,
    const struct wa_msg_media *md)
{
	int		 k = md != NULL ? auto_kind(md->type) : -1;
	uint64_t	 cap;

	if (k < 0 || chat == NULL || id == NULL)
		return;
	cap = a->conf->auto_download.max[k];
	if (cap == 0 || md->file_length > cap ||
	    md->file_length > a->conf->max_media_size)
		return;
	get(a, chat, id, NULL);
}
