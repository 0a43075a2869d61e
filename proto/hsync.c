/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/hsync.c -- history sync in the engine (proto/hsync.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#define LOG_TAG "hist"
#include "base/arena.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "base/jid.h"
#include "proto/history.h"
#include "proto/hsync.h"
#include "proto/http-get.h"
#include "base/log.h"
#include "proto/media.h"
#include "proto/mediaconn.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "base/xmalloc.h"

enum hstate { H_IDLE, H_MEDIA_CONN, H_FETCH };

struct wa_hsync {
	struct wa_hsync_host	 host;
	const struct wa_hsync_store_ops *st;
	wa_hsync_event_fn	 on_event;
	void			*ev_arg;

	bool			 online;
	char			 own_user[96];	/* our PN user JID */
	enum hstate		 state;
	bool			 kicking, rekick;
	bool			 held;	/* a write failed: nothing more is
					 * taken on this connection */
	/* The notification being taken. */
	char			 id[WA_HSYNC_ID_MAX];
	struct buf		 msg;		/* the Message bytes */
	struct wa_hist_notif	 n;		/* points into msg / arena */
	struct arena		 na;
	size_t			 host_i;	/* host tried now */
	struct wa_http_get	*get;
	/* media_conn (14.2), cached until it expires (uv_now, ms) */
	char			 iq[32];
	struct wa_mediaconn	 mc;
};

static void	kick(struct wa_hsync *h);

int
wa_hsync_url(const char *host, const char *direct_path,
    const uint8_t enc_sha256[32], char *out, size_t len)
{
	return wa_mediaconn_url(host, direct_path, enc_sha256, "md-msg-hist",
	    out, len);
}

int
wa_hsync_new(const struct wa_hsync_host *host,
    const struct wa_hsync_store_ops *st, wa_hsync_event_fn on_event,
    void *ev_arg, struct wa_hsync **out)
{
	struct wa_hsync	*h;

	if (host == NULL || st == NULL || on_event == NULL || out == NULL ||
	    host->send == NULL || host->iq_id == NULL || host->loop == NULL ||
	    st->next == NULL || st->done == NULL || st->import == NULL ||
	    st->imported == NULL || st->unreceipted == NULL)
		return -EINVAL;
	h = xcalloc(1, sizeof(*h));
	h->host = *host;
	h->st = st;
	h->on_event = on_event;
	h->ev_arg = ev_arg;
	arena_init(&h->na, 1024);
	*out = h;
	return 0;
}

/* Forget the notification being taken (it stays queued in the store). */
static void
drop_current(struct wa_hsync *h)
{
	wa_http_get_cancel(h->get);
	h->get = NULL;
	buf_release(&h->msg);
	arena_reset(&h->na);
	memset(&h->n, 0, sizeof(h->n));
	h->id[0] = '\0';
	h->host_i = 0;
	h->state = H_IDLE;
}

void
wa_hsync_free(struct wa_hsync *h)
{
	if (h == NULL)
		return;
	drop_current(h);
	arena_release(&h->na);
	free(h);
}

/* The receipts a crash lost: again, at login. */
static void
resend_receipts(struct wa_hsync *h)
{
	struct wa_msg_receipt_out r;
	struct buf		 ids = BUF_INIT;
	struct arena		 a;
	struct wa_node		*n;
	const char		*v[1];
	size_t			 off = 0;
	int			 k;

	if ((k = h->st->unreceipted(h->st->arg, &ids)) <= 0) {
		buf_release(&ids);
		return;
	}
	arena_init(&a, 256);
	while (off < ids.len) {
		v[0] = (const char *)ids.p + off;
		off += strlen(v[0]) + 1;
		memset(&r, 0, sizeof(r));
		r.to = h->own_user;
		r.type = "hist_sync";
		r.ids = v;
		r.n_ids = 1;
		arena_reset(&a);
		if (wa_msg_receipt(&r, &a, &n) == 0)
			(void)h->host.send(h->host.arg, n);
	}
	arena_release(&a);
	buf_release(&ids);
	log_info("%d history receipts sent again", k);
}

void
wa_hsync_online(struct wa_hsync *h, const char *own_jid)
{
	h->online = true;
	h->held = false;
	(void)jid_user_of(own_jid, h->own_user, sizeof(h->own_user));
	h->mc.n = 0;		/* a new connection: ask again */
	resend_receipts(h);
	kick(h);
}

void
wa_hsync_offline(struct wa_hsync *h)
{
	h->online = false;
	drop_current(h);
}

void
wa_hsync_kick(struct wa_hsync *h)
{
	kick(h);
}

static void
emit(struct wa_hsync *h, const struct wa_hsync_ev *ev)
{
	h->on_event(h->ev_arg, ev);
}

/* A write of the store's failed with rc: take nothing more on this
 * connection (what is queued stays so, unreceipted), and when the disk
 * is full or gave an I/O error, say so (WA_HSYNC_EV_STORE_FAILED), once
 * per connection.  rc is returned. */
static int
store_failed(struct wa_hsync *h, int rc)
{
	struct wa_hsync_ev	 ev;
	bool			 told = h->held;

	h->held = true;
	if (told || (rc != -ENOSPC && rc != -EIO))
		return rc;
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_HSYNC_EV_STORE_FAILED;
	ev.sync_type = h->n.sync_type;
	ev.chunk = h->n.chunk_order;
	ev.err = rc;
	ev.why = rc == -ENOSPC ? "the disk is full" : "an I/O error";
	emit(h, &ev);
	return rc;
}

/* The notification is finished with (imported or refused): out of the
 * queue, the receipt sent (12.2 step 6), on to the next.  When the store
 * cannot mark it so, no receipt goes (the phone would count it as taken):
 * it stays queued, taken again at the next connection (its messages
 * are not stored twice).  Returns 0 or the store's error. */
static int
finish(struct wa_hsync *h)
{
	struct wa_msg_receipt_out r;
	struct arena		 a;
	struct wa_node		*n;
	const char		*ids[1];
	int			 rc;

	if ((rc = h->st->imported(h->st->arg, h->id)) < 0) {
		log_error("history queue: %s", wc_strerror(rc));
		(void)store_failed(h, rc);
		drop_current(h);
		return rc;
	}
	memset(&r, 0, sizeof(r));
	ids[0] = h->id;
	r.to = h->own_user;
	r.type = "hist_sync";
	r.ids = ids;
	r.n_ids = 1;
	arena_init(&a, 256);
	if (h->online && wa_msg_receipt(&r, &a, &n) == 0)
		(void)h->host.send(h->host.arg, n);
	arena_release(&a);
	drop_current(h);
	return 0;
}

static void
refuse(struct wa_hsync *h, int err, const char *why)
{
	struct wa_hsync_ev	 ev;

	log_warn("history chunk %u refused: %s", h->n.chunk_order, why);
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_HSYNC_EV_FAILED;
	ev.sync_type = h->n.sync_type;
	ev.chunk = h->n.chunk_order;
	ev.err = err;
	ev.why = why;
	emit(h, &ev);
	(void)finish(h);
}

/* Inflate, parse and import one HistorySync blob (zlib). */
static void
take_blob(struct wa_hsync *h, const uint8_t *z, size_t zlen)
{
	struct wa_hsync_ev	 ev;
	struct buf		 plain = BUF_INIT;
	struct arena		 a;
	struct wa_hist		*hist = NULL;
	const char		*why = NULL;
	int			 rc;

	arena_init(&a, 64 * 1024);
	rc = wa_hist_inflate(z, zlen, WA_HIST_MAX_INFLATED, &a, &plain, &why);
	if (rc == 0)
		rc = wa_hist_parse(plain.p, plain.len, &a, &hist, &why);
	if (rc != 0) {
		char	 line[200];

		snprintf(line, sizeof(line), "the history blob is unreadable: "
		    "%s", why != NULL ? why : wc_strerror(rc));
		buf_release(&plain);
		arena_release(&a);
		refuse(h, rc, line);
		return;
	}
	rc = h->st->import(h->st->arg, hist);
	buf_release(&plain);
	if (rc < 0) {
		/* the store failed, not the blob: keep it queued, take
		 * nothing more until the next connection */
		log_error("history import: %s", wc_strerror(rc));
		arena_release(&a);
		(void)store_failed(h, rc);
		drop_current(h);
		return;
	}
	log_info("history chunk %u (type %d, %u%%): %zu conversations, %d "
	    "new messages", hist->chunk_order, hist->sync_type,
	    h->n.progress, hist->n_convs, rc);
	if (hist->n_bad_msgs > 0) {
		/* refused one by one (nesting, size): said, the rest kept */
		char	 line[200];
		struct wa_hsync_ev fev;

		snprintf(line, sizeof(line), "%zu messages of the history were "
		    "refused: malformed or nested too deep", hist->n_bad_msgs);
		log_warn("history chunk %u: %s", hist->chunk_order, line);
		memset(&fev, 0, sizeof(fev));
		fev.kind = WA_HSYNC_EV_FAILED;
		fev.sync_type = h->n.sync_type;
		fev.chunk = h->n.chunk_order;
		fev.err = WC_EDEPTH;
		fev.why = line;
		emit(h, &fev);
	}
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_HSYNC_EV_PROGRESS;
	ev.sync_type = h->n.sync_type;
	ev.chunk = h->n.chunk_order;
	ev.progress = h->n.progress != 0 ? h->n.progress : hist->progress;
	ev.count = (size_t)rc;
	arena_release(&a);
	if (finish(h) == 0)
		emit(h, &ev);
}

static void	fetch(struct wa_hsync *h);

static void
on_fetched(void *arg, int err, long status, uint8_t *body, size_t len,
    const char *why)
{
	struct wa_hsync	*h = arg;
	struct buf	 z = BUF_INIT;
	const char	*why2 = NULL;
	char		 line[200];
	int		 rc;

	h->get = NULL;
	if (err == 0 && (status == 404 || status == 410)) {
		free(body);
		refuse(h, -ENOENT, "the history blob is gone from the media "
		    "server");
		kick(h);
		return;
	}
	if (err != 0 || status < 200 || status > 299) {
		free(body);
		if (err == 0)
			log_warn("history download: HTTP %ld", status);
		else
			log_warn("history download: %s", why);
		if (++h->host_i < h->mc.n) {
			fetch(h);	/* the next host */
			return;
		}
		/* the network: kept queued, tried again at the next login */
		drop_current(h);
		return;
	}
	rc = wa_media_decrypt(h->n.media_key, WA_MEDIA_INFO_HISTORY, body, len,
	    h->n.file_enc_sha256, h->n.file_sha256, WA_HSYNC_BLOB_MAX, &z,
	    &why2);
	free(body);
	if (rc != 0) {
		snprintf(line, sizeof(line), "the history blob does not "
		    "decrypt: %s", why2 != NULL ? why2 : wc_strerror(rc));
		buf_release(&z);
		refuse(h, rc, line);
		kick(h);
		return;
	}
	take_blob(h, z.p, z.len);
	wa_crypto_wipe(z.p, z.len);
	buf_release(&z);
	kick(h);
}

static void
fetch(struct wa_hsync *h)
{
	struct wa_http_req	 r;
	char			 url[WA_HIST_MAX_DIRECT_PATH +
				     WA_MEDIACONN_HOST_MAX + 128];
	int			 rc;

	if ((rc = wa_hsync_url(h->mc.hosts[h->host_i], h->n.direct_path,
	    h->n.file_enc_sha256, url, sizeof(url))) != 0) {
		refuse(h, rc, "the history notification names no usable path");
		return;
	}
	memset(&r, 0, sizeof(r));
	r.url = url;
	r.ca_file = h->host.ca_file;
	r.timeout_ms = WA_HSYNC_TIMEOUT_MS;
	r.max_body = WA_HSYNC_BLOB_MAX + 64;
	r.headers[0] = "Origin: https://web.whatsapp.com";
	r.headers[1] = "Referer: https://web.whatsapp.com/";
	h->state = H_FETCH;
	if ((rc = wa_http_get(h->host.loop, &r, on_fetched, h, &h->get)) !=
	    0) {
		log_warn("history download not started: %s", wc_strerror(rc));
		drop_current(h);
	}
}

static void
ask_media_conn(struct wa_hsync *h)
{
	struct arena	 a;

	h->host.iq_id(h->host.arg, h->iq);
	arena_init(&a, 256);
	h->state = H_MEDIA_CONN;
	if (h->host.send(h->host.arg, wa_mediaconn_iq(&a, h->iq)) != 0)
		drop_current(h);
	arena_release(&a);
}

int
wa_hsync_stanza(struct wa_hsync *h, const struct wa_node *n)
{
	if (wa_str_eqc(n->tag, "ack") && wa_node_str_is(n, "class",
	    "receipt") && wa_node_str_is(n, "type", "hist_sync")) {
		char	 id[WA_HSYNC_ID_MAX];
		int	 rc;

		wa_node_str_copy(n, "id", id, sizeof(id));
		if (id[0] != '\0' && (rc = h->st->done(h->st->arg, id)) < 0) {
			/* it stays queued: its receipt goes again */
			log_error("history queue: %s", wc_strerror(rc));
			(void)store_failed(h, rc);
		}
		return 1;
	}
	if (h->state != H_MEDIA_CONN || !wa_str_eqc(n->tag, "iq") ||
	    !wa_str_eqc(wa_node_str(n, "id"), h->iq))
		return 0;
	h->iq[0] = '\0';
	if (wa_mediaconn_take(&h->mc, n, uv_now(h->host.loop)) == 0)
		log_warn("media_conn gave no host: trying %s",
		    WA_MEDIACONN_DEFAULT);
	h->host_i = 0;
	fetch(h);
	return 1;
}

/* Take the next queued notification, when online and idle. */
static void
kick_one(struct wa_hsync *h)
{
	struct wa_hsync_ev	 ev;
	const char		*why = NULL;
	char			 line[200];
	int			 rc;

	if (!h->online || h->held || h->state != H_IDLE)
		return;
	drop_current(h);
	if ((rc = h->st->next(h->st->arg, h->id, &h->msg)) <= 0) {
		if (rc < 0) {
			log_error("history queue: %s", wc_strerror(rc));
			(void)store_failed(h, rc);
		}
		h->id[0] = '\0';
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_HSYNC_EV_IDLE;
		if (rc == 0)
			emit(h, &ev);
		return;
	}
	if ((rc = wa_hist_notification_parse(h->msg.p, h->msg.len, &h->na,
	    &h->n, &why)) != 0) {
		snprintf(line, sizeof(line), "the history notification is "
		    "unreadable: %s", why != NULL ? why : wc_strerror(rc));
		refuse(h, rc, line);
		h->rekick = true;
		return;
	}
	if (h->n.inline_payload != NULL && h->n.inline_payload_len > 0) {
		take_blob(h, h->n.inline_payload, h->n.inline_payload_len);
		h->rekick = true;
		return;
	}
	if (h->n.direct_path == NULL || h->n.media_key == NULL ||
	    h->n.file_enc_sha256 == NULL) {
		refuse(h, WC_EPROTO, "the history notification names no blob");
		h->rekick = true;
		return;
	}
	if (wa_mediaconn_fresh(&h->mc, uv_now(h->host.loop))) {
		h->host_i = 0;
		fetch(h);
	} else
		ask_media_conn(h);
}

/* A loop, not a recursion, over notifications taken at once. */
static void
kick(struct wa_hsync *h)
{
	if (h->kicking) {
		h->rekick = true;
		return;
	}
	h->kicking = true;
	do {
		h->rekick = false;
		kick_one(h);
	} while (h->rekick);
	h->kicking = false;
}
