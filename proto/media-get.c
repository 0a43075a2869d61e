/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/media-get.c -- a received message's media downloaded on request
 * (proto/media-get.h; protocol-features.md 1.1, 1.5, 1.8). */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uv.h>

#define LOG_TAG "mget"
#include "base/arena.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/media-dl.h"
#include "proto/media-get.h"
#include "proto/media-seal.h"
#include "proto/mediaconn.h"
#include "proto/node.h"

#define DEFAULT_MAX		((uint64_t)2 << 30)	/* 2 GiB */
#define CONNECT_TIMEOUT_MS	15000
#define STALL_TIMEOUT_MS	30000
#define TICK_MS			1000	/* the retry waits' check */
#define NURLS			(1 + WA_MEDIA_DL_MORE_MAX)

enum jstate {
	J_QUEUED,	/* waits for a slot */
	J_CONN,		/* waits for the media hosts */
	J_RUN,		/* media-dl has it */
	J_RETRY,	/* waits for the phone's re-upload (1.8) */
};

struct job {
	struct wa_mget		*m;
	enum jstate		 st;
	char			 chat[WA_MGET_JID_MAX];
	char			 id[WA_MGET_ID_MAX];
	char			 out[WA_MGET_PATH_MAX];	/* "" the folder */
	struct wa_mget_item	 it;
	const char		*info, *mms;
	char			 final[WA_MGET_PATH_MAX];	/* "" not yet */
	char			 urls[NURLS][WA_MEDIA_URL_MAX];
	struct wa_media_dl	*dl;
	bool			 refreshed;	/* media_conn asked again */
	bool			 retried;	/* the phone uploaded again */
	unsigned		 eexist;	/* names taken meanwhile */
	uint64_t		 retry_until;	/* uv_now, ms */
	uint64_t		 last_progress;	/* uv_now, ms */
	long			 status;
};

struct wa_mget {
	struct wa_mget_host	 host;
	const struct wa_mget_store_ops *st;
	wa_mget_event_fn	 on_event;
	void			*ev_arg;
	char			 dir[WA_MGET_PATH_MAX];
	uint64_t		 max;
	uint32_t		 retry_wait_ms, cto_ms, sto_ms;
	bool			 plain_http;
	bool			 online;
	char			 own_user[WA_MGET_JID_MAX];	/* PN user */
	char			 iq[32];	/* media_conn asked, or "" */
	struct wa_mediaconn	 mc;
	struct job		*jobs[WA_MGET_QUEUE_MAX];	/* in order */
	size_t			 n;
	uv_timer_t		 timer;
	bool			 ticking;
	bool			 pumping, repump;
};

static void	pump(struct wa_mget *m);
static void	go(struct job *j);

static uint64_t
now(const struct wa_mget *m)
{
	return uv_now(m->host.loop);
}

/* --- events and the end of a job --- */

/* An event of kind about j into *ev. */
static void
ev_of(const struct job *j, enum wa_mget_ev_kind kind, struct wa_mget_ev *ev)
{
	memset(ev, 0, sizeof(*ev));
	ev->kind = kind;
	ev->chat = j->chat;
	ev->id = j->id;
	ev->from_me = j->it.from_me;
	ev->path = "";
}

static void
emit_done(struct wa_mget *m, const struct job *j, enum wa_mget_end e,
    int err, const char *path)
{
	struct wa_mget_ev	 ev;

	ev_of(j, WA_MGET_EV_DONE, &ev);
	ev.end = e;
	ev.err = err;
	ev.status = j->status;
	ev.path = path != NULL ? path : "";
	ev.retried = j->retried;
	m->on_event(m->ev_arg, &ev);
}

/* The store's state for an end; -1: leave it. */
static int
state_of(enum wa_mget_end e)
{
	switch (e) {
	case WA_MGET_OK:		return WA_MGET_ST_DONE;
	case WA_MGET_CORRUPT:
	case WA_MGET_LENGTH:		return WA_MGET_ST_CORRUPT;
	case WA_MGET_EXPIRED:		return WA_MGET_ST_EXPIRED;
	case WA_MGET_FAILED:		return WA_MGET_ST_FAILED;
	case WA_MGET_TOOBIG:
	case WA_MGET_CANCELLED:		return WA_MGET_ST_NONE;
	case WA_MGET_NO_MEDIA:		break;
	}
	return -1;
}

static void
set_state(struct wa_mget *m, const struct job *j, int st, const char *path)
{
	int	 rc;

	if (st < 0 || j->out[0] != '\0')	/* --out: a copy elsewhere */
		return;
	if ((rc = m->st->set_state(m->st->arg, j->chat, j->it.from_me, j->id,
	    (enum wa_mget_state)st, st == WA_MGET_ST_DONE ? path : NULL)) < 0)
		log_warn("a download's state not stored: %s", wc_strerror(rc));
}

/* Take j out of the list (it is freed by the caller). */
static void
unlist(struct wa_mget *m, const struct job *j)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		if (m->jobs[i] == j) {
			memmove(&m->jobs[i], &m->jobs[i + 1],
			    (m->n - i - 1) * sizeof(m->jobs[0]));
			m->n--;
			return;
		}
}

/* j ended: the store, the event, then the next download. */
static void
finish(struct job *j, enum wa_mget_end e, int err)
{
	struct wa_mget	*m = j->m;

	if (e != WA_MGET_OK && e != WA_MGET_NO_MEDIA)
		log_info("a download ended: %d (%s)", (int)e, wc_strerror(err));
	set_state(m, j, state_of(e), j->final);
	unlist(m, j);
	emit_done(m, j, e, err, e == WA_MGET_OK ? j->final : "");
	free(j);
	pump(m);
}

/* --- where the file goes --- */

/* mkdir -p dir, each new folder 0700. */
static int
make_dir(const char *dir)
{
	char	 p[WA_MGET_PATH_MAX];
	size_t	 i, len = strlen(dir);

	if (len == 0 || len >= sizeof(p))
		return -EINVAL;
	memcpy(p, dir, len + 1);
	for (i = 1; i <= len; i++) {
		if (p[i] != '/' && p[i] != '\0')
			continue;
		p[i] = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			return -errno;
		p[i] = i < len ? '/' : '\0';
	}
	return 0;
}

/* The folder of path into out (".": none named). */
static void
dir_of(const char *path, char *out, size_t len)
{
	const char	*s = strrchr(path, '/');

	if (s == NULL)
		snprintf(out, len, ".");
	else if (s == path)
		snprintf(out, len, "/");
	else
		snprintf(out, len, "%.*s", (int)(s - path), path);
}

/* j->final: the given path, or the file's name in the media folder. */
static int
pick_final(struct job *j)
{
	struct wa_mget	*m = j->m;
	char		 name[WA_MEDIA_NAME_MAX + 1];
	int		 rc;

	if (j->out[0] != '\0') {
		snprintf(j->final, sizeof(j->final), "%s", j->out);
		return access(j->out, F_OK) == 0 ? -EEXIST : 0;
	}
	if ((rc = make_dir(m->dir)) != 0)
		return rc;
	if ((rc = wa_media_name_safe(j->it.file_name, j->it.mimetype,
	    wa_msg_media_name(j->it.type), j->id, name, sizeof(name))) < 0)
		return rc;
	/* The name itself: the rename takes the first free of it and its
	 * "-1" .. names (free_name), atomically. */
	rc = snprintf(j->final, sizeof(j->final), "%s/%s", m->dir, name);
	return rc < 0 || (size_t)rc >= sizeof(j->final) ? WC_ETOOBIG : 0;
}

/* --- the download --- */

static void
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct job		*j = arg;
	struct wa_mget		*m = j->m;
	struct wa_mget_ev	 ev;
	uint64_t		 t = now(m);

	if (t - j->last_progress < WA_MGET_PROGRESS_MS &&
	    (total == 0 || done < total))
		return;
	j->last_progress = t;
	ev_of(j, WA_MGET_EV_PROGRESS, &ev);
	ev.done = done;
	ev.total = total;
	m->on_event(m->ev_arg, &ev);
}

/* Ask our phone to upload the file again (1.8). */
static int
send_retry(struct job *j)
{
	struct wa_mget			*m = j->m;
	struct wa_media_retry_req	 r;
	struct wa_node			*n;
	struct arena			 a;
	uint8_t				 iv[WA_MEDIA_RETRY_IV_LEN];
	int				 rc;

	if (!m->online || m->own_user[0] == '\0')
		return -ENOTCONN;
	if ((rc = m->host.rng(m->host.arg, iv, sizeof(iv))) != 0)
		return rc;
	memset(&r, 0, sizeof(r));
	r.msg_id = j->id;
	r.own_jid = m->own_user;
	r.chat_jid = j->chat;
	r.participant = j->it.sender[0] != '\0' ? j->it.sender : NULL;
	r.from_me = j->it.from_me;
	r.media_key = j->it.media_key;
	r.iv = iv;
	arena_init(&a, 0);
	if ((rc = wa_media_retry_build(&a, &r, &n)) == 0)
		rc = m->host.send(m->host.arg, n);
	arena_release(&a);
	return rc;
}

static void
on_tick(uv_timer_t *t)
{
	struct wa_mget	*m = t->data;
	bool		 waiting = false;
	size_t		 i;

	for (i = 0; i < m->n; i++) {
		struct job	*j = m->jobs[i];

		if (j->st != J_RETRY)
			continue;
		if (j->retry_until > now(m)) {
			waiting = true;
			continue;
		}
		finish(j, WA_MGET_EXPIRED, -ETIMEDOUT);
		i = (size_t)-1;		/* the list moved: again */
		waiting = false;
	}
	if (!waiting) {
		(void)uv_timer_stop(&m->timer);
		m->ticking = false;
	}
}

/* 404/410: the media retry, once; else it stays expired. */
static void
expired(struct job *j, int err)
{
	struct wa_mget	*m = j->m;
	int		 rc;

	if (j->retried || (rc = send_retry(j)) != 0) {
		finish(j, WA_MGET_EXPIRED, err);
		return;
	}
	j->st = J_RETRY;
	j->retry_until = now(m) + m->retry_wait_ms;
	if (!m->ticking && uv_timer_start(&m->timer, on_tick, TICK_MS,
	    TICK_MS) == 0)
		m->ticking = true;
	log_info("a media URL expired: asked the phone to upload it again");
}

static void
on_done(void *arg, enum wa_media_dl_end end, int err, long status,
    const char *why)
{
	struct job	*j = arg;
	struct wa_mget	*m = j->m;

	if (end == WA_MEDIA_DL_OK)	/* the name the rename took */
		snprintf(j->final, sizeof(j->final), "%s",
		    wa_media_dl_path(j->dl));
	j->dl = NULL;
	j->status = status;
	if (end != WA_MEDIA_DL_OK)
		log_info("download: %s", why != NULL ? why : "");
	switch (end) {
	case WA_MEDIA_DL_OK:
		finish(j, WA_MGET_OK, 0);
		return;
	case WA_MEDIA_DL_EXPIRED:
		expired(j, err);
		return;
	case WA_MEDIA_DL_CORRUPT:
		finish(j, err == WC_EPROTO || err == WC_ETOOBIG ?
		    WA_MGET_LENGTH : WA_MGET_CORRUPT, err);
		return;
	case WA_MEDIA_DL_TOOBIG:
		finish(j, WA_MGET_TOOBIG, err);
		return;
	case WA_MEDIA_DL_HTTP:
		if ((status == 401 || status == 403) && !j->refreshed) {
			j->refreshed = true;	/* 1.1: once */
			m->mc.n = 0;
			go(j);
			return;
		}
		break;
	case WA_MEDIA_DL_LOCAL:
		if (err == -EEXIST && j->out[0] == '\0' &&
		    ++j->eexist < WA_MGET_EEXIST_TRIES) {
			j->final[0] = '\0';	/* taken meanwhile */
			go(j);
			return;
		}
		break;
	case WA_MEDIA_DL_NETWORK:
		break;
	}
	finish(j, WA_MGET_FAILED, err);
}

/* The URLs of j's file on the media hosts, in order; their count. */
static size_t
urls_of(struct job *j)
{
	const struct wa_mediaconn	*mc = &j->m->mc;
	size_t				 i, k = 0;

	for (i = 0; i < mc->n && k < NURLS; i++)
		if (wa_media_dl_url(mc->hosts[i], j->it.direct_path,
		    j->it.file_enc_sha256, j->mms, j->urls[k],
		    sizeof(j->urls[k])) == 0) {
			if (j->m->plain_http)	/* "https:" -> "http:" */
				memmove(j->urls[k] + 4, j->urls[k] + 5,
				    strlen(j->urls[k] + 5) + 1);
			k++;
		}
	return k;
}

static void
start_dl(struct job *j)
{
	struct wa_mget		*m = j->m;
	struct wa_media_dl_req	 r;
	char			 dir[WA_MGET_PATH_MAX];
	size_t			 i, nu;
	int			 rc;

	if (j->final[0] == '\0' && (rc = pick_final(j)) != 0) {
		j->final[0] = '\0';
		finish(j, WA_MGET_FAILED, rc);
		return;
	}
	if ((nu = urls_of(j)) == 0) {
		finish(j, WA_MGET_NO_MEDIA, -EINVAL);	/* a bad path */
		return;
	}
	dir_of(j->final, dir, sizeof(dir));
	memset(&r, 0, sizeof(r));
	r.url = j->urls[0];
	for (i = 1; i < nu; i++)
		r.more_urls[i - 1] = j->urls[i];
	r.ca_file = m->host.ca_file;
	r.dir = dir;
	r.final_path = j->final;
	r.free_name = j->out[0] == '\0';	/* --out: that path or none */
	r.media_key = j->it.media_key;
	r.info = j->info;
	r.file_enc_sha256 = j->it.file_enc_sha256;
	r.file_sha256 = j->it.has_sha256 ? j->it.file_sha256 : NULL;
	r.file_len = j->it.size > 0 ? j->it.size : WA_MEDIA_LEN_UNKNOWN;
	r.max_len = m->max;
	r.connect_timeout_ms = m->cto_ms;
	r.stall_timeout_ms = m->sto_ms;
	if ((rc = wa_media_dl_start(m->host.loop, &r, on_done, on_progress, j,
	    &j->dl)) != 0) {
		j->final[0] = '\0';
		finish(j, rc == WC_ETOOBIG ? WA_MGET_TOOBIG : WA_MGET_FAILED,
		    rc);
		return;
	}
	j->st = J_RUN;
	j->last_progress = now(m);
	set_state(m, j, WA_MGET_ST_DOWNLOADING, NULL);
	on_progress(j, 0, j->it.size);
}

/* Ask for the media hosts unless asked already or offline. */
static void
ask_conn(struct wa_mget *m)
{
	struct arena	 a;
	int		 rc;

	if (m->iq[0] != '\0' || !m->online)
		return;
	m->host.iq_id(m->host.arg, m->iq);
	arena_init(&a, 0);
	if ((rc = m->host.send(m->host.arg, wa_mediaconn_iq(&a, m->iq))) !=
	    0) {
		log_warn("media_conn not asked: %s", wc_strerror(rc));
		m->iq[0] = '\0';	/* asked again once online */
	}
	arena_release(&a);
}

/* j goes on: downloaded when the hosts are known, else once they are. */
static void
go(struct job *j)
{
	if (wa_mediaconn_fresh(&j->m->mc, now(j->m))) {
		start_dl(j);
		return;
	}
	j->st = J_CONN;
	ask_conn(j->m);
}

static size_t
running(const struct wa_mget *m)
{
	size_t	 i, k = 0;

	for (i = 0; i < m->n; i++)
		k += m->jobs[i]->st != J_QUEUED;
	return k;
}

/* Start what waits while a slot is free. */
static void
pump(struct wa_mget *m)
{
	size_t	 i;

	if (m->pumping) {
		m->repump = true;
		return;
	}
	m->pumping = true;
	do {
		m->repump = false;
		while (running(m) < WA_MGET_RUN_MAX) {
			for (i = 0; i < m->n && m->jobs[i]->st != J_QUEUED;
			    i++)
				;
			if (i == m->n)
				break;
			go(m->jobs[i]);
		}
	} while (m->repump);
	m->pumping = false;
}

/* --- the public API --- */

int
wa_mget_new(const struct wa_mget_host *host,
    const struct wa_mget_store_ops *st, const struct wa_mget_cfg *cfg,
    wa_mget_event_fn on_event, void *ev_arg, struct wa_mget **out)
{
	struct wa_mget	*m;

	if (host == NULL || st == NULL || cfg == NULL || on_event == NULL ||
	    out == NULL || host->send == NULL || host->iq_id == NULL ||
	    host->rng == NULL || host->loop == NULL || st->lookup == NULL ||
	    st->set_state == NULL || cfg->dir == NULL || cfg->dir[0] ==
	    '\0' || strlen(cfg->dir) >= WA_MGET_PATH_MAX)
		return -EINVAL;
	m = xcalloc(1, sizeof(*m));
	m->host = *host;
	m->st = st;
	m->on_event = on_event;
	m->ev_arg = ev_arg;
	snprintf(m->dir, sizeof(m->dir), "%s", cfg->dir);
	m->max = cfg->max_size > 0 ? cfg->max_size : DEFAULT_MAX;
	m->retry_wait_ms = cfg->retry_wait_ms > 0 ? cfg->retry_wait_ms :
	    WA_MGET_RETRY_WAIT_MS;
	m->cto_ms = cfg->connect_timeout_ms > 0 ? cfg->connect_timeout_ms :
	    CONNECT_TIMEOUT_MS;
	m->sto_ms = cfg->stall_timeout_ms > 0 ? cfg->stall_timeout_ms :
	    STALL_TIMEOUT_MS;
	m->plain_http = cfg->plain_http;
	(void)uv_timer_init(host->loop, &m->timer);
	m->timer.data = m;
	*out = m;
	return 0;
}

static void
closed(uv_handle_t *h)
{
	free(h->data);
}

void
wa_mget_free(struct wa_mget *m)
{
	size_t	 i;

	if (m == NULL)
		return;
	for (i = 0; i < m->n; i++) {
		struct job	*j = m->jobs[i];

		if (j->dl != NULL)
			wa_media_dl_cancel(j->dl);
		if (j->st != J_QUEUED)
			set_state(m, j, WA_MGET_ST_NONE, NULL);
		free(j);
	}
	m->n = 0;
	uv_close((uv_handle_t *)&m->timer, closed);
}

void
wa_mget_online(struct wa_mget *m, const char *own_jid)
{
	size_t	 i;

	if (m == NULL)
		return;
	m->online = true;
	if (own_jid == NULL || !jid_user_of(own_jid, m->own_user,
	    sizeof(m->own_user)))
		m->own_user[0] = '\0';
	for (i = 0; i < m->n; i++)
		if (m->jobs[i]->st == J_CONN) {
			ask_conn(m);
			break;
		}
	pump(m);
}

void
wa_mget_offline(struct wa_mget *m)
{
	if (m == NULL)
		return;
	m->online = false;
	m->iq[0] = '\0';
}

/* What makes j's item downloadable; NO_MEDIA, TOOBIG or OK. */
static enum wa_mget_end
check_item(struct job *j)
{
	if (!j->it.has_key || !j->it.has_enc_sha256 ||
	    j->it.direct_path[0] != '/' ||
	    wa_media_seal_kind(j->it.type, &j->info, &j->mms) != 0)
		return WA_MGET_NO_MEDIA;
	if (j->it.size > j->m->max)
		return WA_MGET_TOOBIG;
	return WA_MGET_OK;
}

/* Already downloaded and there, of its size: said at once. */
static bool
have_it(const struct job *j)
{
	struct stat	 st;

	return j->out[0] == '\0' && j->it.state == WA_MGET_ST_DONE &&
	    j->it.path[0] != '\0' && stat(j->it.path, &st) == 0 &&
	    S_ISREG(st.st_mode) && (j->it.size == 0 ||
	    (uint64_t)st.st_size == j->it.size);
}

int
wa_mget_get(struct wa_mget *m, const char *chat, const char *id,
    const char *out_path)
{
	struct job		*j;
	enum wa_mget_end	 e;
	size_t			 i;
	int			 rc;

	if (m == NULL || chat == NULL || id == NULL || chat[0] == '\0' ||
	    id[0] == '\0' || strlen(chat) >= WA_MGET_JID_MAX ||
	    strlen(id) >= WA_MGET_ID_MAX || (out_path != NULL &&
	    strlen(out_path) >= WA_MGET_PATH_MAX))
		return -EINVAL;
	for (i = 0; i < m->n; i++)
		if (strcmp(m->jobs[i]->chat, chat) == 0 &&
		    strcmp(m->jobs[i]->id, id) == 0)
			return -EALREADY;
	if (m->n >= WA_MGET_QUEUE_MAX)
		return -EBUSY;
	j = xcalloc(1, sizeof(*j));
	j->m = m;
	snprintf(j->chat, sizeof(j->chat), "%s", chat);
	snprintf(j->id, sizeof(j->id), "%s", id);
	snprintf(j->out, sizeof(j->out), "%s", out_path != NULL ? out_path :
	    "");
	if ((rc = m->st->lookup(m->st->arg, chat, id, &j->it)) <= 0) {
		emit_done(m, j, rc == 0 ? WA_MGET_NO_MEDIA : WA_MGET_FAILED,
		    rc == 0 ? -ENOENT : rc, "");
		free(j);
		return 0;
	}
	j->it.path[sizeof(j->it.path) - 1] = '\0';
	j->it.direct_path[sizeof(j->it.direct_path) - 1] = '\0';
	j->it.file_name[sizeof(j->it.file_name) - 1] = '\0';
	j->it.mimetype[sizeof(j->it.mimetype) - 1] = '\0';
	j->it.sender[sizeof(j->it.sender) - 1] = '\0';
	if ((e = check_item(j)) != WA_MGET_OK || have_it(j)) {
		emit_done(m, j, e, e == WA_MGET_OK ? 0 : e == WA_MGET_TOOBIG ?
		    WC_ETOOBIG : -ENOENT, e == WA_MGET_OK ? j->it.path : "");
		free(j);
		return 0;
	}
	m->jobs[m->n++] = j;
	pump(m);
	return 0;
}

/* The new direct path of j's file into the store (1.8). */
static void
keep_path(struct wa_mget *m, const struct job *j)
{
	int	 rc;

	if (m->st->set_direct_path == NULL || j->it.direct_path[0] != '/')
		return;
	if ((rc = m->st->set_direct_path(m->st->arg, j->chat, j->it.from_me,
	    j->id, j->it.direct_path)) < 0)
		log_warn("the new direct path is not kept: %s",
		    wc_strerror(rc));
}

/* The phone's answer to a retry request of ours (1.8). */
static int
on_retry(struct wa_mget *m, const struct wa_node *n)
{
	struct wa_media_retry_ans	 ans;
	struct arena			 a;
	struct wa_str			 id = wa_node_str(n, "id");
	size_t				 i;
	int				 rc;

	for (i = 0; i < m->n; i++) {
		struct job	*j = m->jobs[i];

		if (j->st != J_RETRY || !wa_str_eqc(id, j->id))
			continue;
		arena_init(&a, 0);
		rc = wa_media_retry_parse(&a, n, j->it.media_key, &ans);
		if (rc == WC_EBADMAC) {		/* another message's key */
			arena_release(&a);
			continue;
		}
		if (rc == 0 && ans.result == WA_MEDIA_RETRY_SUCCESS &&
		    strlen(ans.direct_path) < sizeof(j->it.direct_path)) {
			snprintf(j->it.direct_path, sizeof(j->it.direct_path),
			    "%s", ans.direct_path);
			arena_release(&a);
			keep_path(m, j);
			j->retried = true;
			log_info("the phone uploaded a file again");
			go(j);
			return 1;
		}
		arena_release(&a);
		finish(j, WA_MGET_EXPIRED, rc != 0 ? rc : -ENOENT);
		return 1;
	}
	return 1;	/* a late or unknown answer: ours all the same */
}

int
wa_mget_stanza(struct wa_mget *m, const struct wa_node *n)
{
	size_t	 i;

	if (m == NULL || n == NULL)
		return 0;
	if (wa_str_eqc(n->tag, "notification") &&
	    wa_node_str_is(n, "type", "mediaretry"))
		return on_retry(m, n);
	if (m->iq[0] == '\0' || !wa_str_eqc(n->tag, "iq") ||
	    !wa_str_eqc(wa_node_str(n, "id"), m->iq))
		return 0;
	m->iq[0] = '\0';
	(void)wa_mediaconn_take(&m->mc, n, now(m));
	for (i = 0; i < m->n; i++)
		if (m->jobs[i]->st == J_CONN) {
			start_dl(m->jobs[i]);
			i = (size_t)-1;	/* the list may have moved */
		}
	pump(m);
	return 1;
}

size_t
wa_mget_pending(const struct wa_mget *m)
{
	return m != NULL ? m->n : 0;
}
