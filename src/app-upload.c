/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-upload.c -- sending a file as a media message (issue 19;
 * src/app-int.h; protocol-features.md 1.1-1.7): the engine's pieces
 * composed.  CMD_SEND_FILE: the file's size against max-media-size, then
 * on libuv's worker pool its type and metadata (proto/media-probe.h);
 * the message is stored at once (QUEUED, its media UPLOADING and without
 * a payload: store/store-upload.h keeps it out of the outbox) and shown;
 * then, read back from the store (so a restart does the same), the file
 * is sealed on the worker pool into a temp file of the data dir
 * (proto/media-seal.h: the same media key gives the same blob), the
 * engine asks media_conn (proto/eng.h wa_eng_media_conn()), the blob
 * goes to the hosts in order (proto/media-ul.h; a 401 or 403 refreshes
 * media_conn once), and its answer makes the message's payload
 * (proto/dm.h wa_dm_media_payload()), stored with the upload DONE in one
 * transaction before the outbox sends it: once, under its id.  A failed
 * upload leaves the message FAILED (CMD_RETRY uploads it again); a stop
 * or a crash leaves it UPLOADING, and the next start uploads it again:
 * its sealed blob, kept in the data dir until sent (wachat-ul-ID, its
 * hashes in the store), or sealed anew when that is gone (the same media
 * key gives the same blob); the blobs of no use are removed first.
 * Engine thread only (the workers touch nothing but their job's files).
 */
#include "base/compat.h"

#define LOG_TAG	"upload"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "base/err.h"
#include "base/event.h"
#include "base/i18n.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/dm.h"
#include "proto/eng.h"
#include "proto/media-probe.h"
#include "proto/media-seal.h"
#include "proto/media-ul.h"
#include "proto/mediaconn.h"
#include "src/app-int.h"
#include "src/app-media.h"
#include "store/store.h"

#define UL_CONNECT_MS	15000	/* to reach a media host */
#define UL_STALL_MS	60000	/* no byte taken for so long: next host */
#define UL_PROGRESS_MS	250	/* between two EV_UPLOAD */
#define UL_RESUME_MAX	64	/* uploads taken up again at a start */

enum ul_phase {
	UL_PROBE,	/* the worker looks at the file */
	UL_SEAL,	/* the worker encrypts it */
	UL_OFFLINE,	/* waits for the connection */
	UL_MC,		/* waits for media_conn */
	UL_SEND,	/* the upload runs */
};

struct app_ul {
	struct app_ul		*next;
	struct app		*a;
	enum ul_phase		 phase;
	bool			 work_on;	/* a worker holds it */
	bool			 dead;		/* stopped: freed after it */
	bool			 auth_retried;	/* media_conn refreshed once */
	bool			 keep_blob;	/* not sent: the blob stays for
						 * the next try */
	int			 err;		/* the worker's */
	/* CMD_SEND_FILE: what the user gave */
	char			 chat[STORE_JID_MAX + 1];
	char			 id[WA_DM_ID_MAX];
	char			 path[PATH_MAX];	/* absolute */
	char			*caption;
	char			*quoted_id, *quoted_sender, *quoted_text;
	bool			 ptt;
	struct wa_media_probe	 probe;
	/* read back from the store */
	struct store_media	 sm;
	struct store_msg	 msg;
	/* the worker's seal */
	char			 blob[WA_MEDIA_SEAL_PATH_MAX];
	struct wa_media_enc_result enc;
	struct wa_media_ul	*ul;
	uint64_t		 last_ms;	/* the last EV_UPLOAD */
	app_upload_fn		 said;		/* wachat send's answer */
	char			*token;		/* ... to this spool file */
	uv_work_t		 work;
};

static struct app_ul	*jobs;		/* engine thread */

static uint64_t
mono_ms(void)
{
	struct timespec	 t;

	(void)clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

static void
job_free(struct app_ul *j)
{
	struct app_ul	**pp;

	for (pp = &jobs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	if (j->blob[0] != '\0' && !j->keep_blob)
		(void)unlink(j->blob);
	free(j->caption);
	free(j->token);
	free(j->quoted_id);
	free(j->quoted_sender);
	free(j->quoted_text);
	wa_media_probe_release(&j->probe);
	store_media_release(&j->sm);
	store_msg_release(&j->msg);
	sodium_memzero(&j->enc, sizeof(j->enc));
	free(j);
}

static struct app_ul *
job_new(struct app *a, const char *chat)
{
	struct app_ul	*j = xcalloc(1, sizeof(*j));

	j->a = a;
	snprintf(j->chat, sizeof(j->chat), "%s", chat);
	j->next = jobs;
	jobs = j;
	return j;
}

/* EV_UPLOAD for j. */
static void
tell(struct app_ul *j, uint64_t sent, uint64_t total, bool done, bool failed)
{
	struct ev	*ev = ev_new(EV_UPLOAD);

	ev_set(&ev->u.upload.key.chat, j->chat);
	ev_set(&ev->u.upload.key.id, j->id);
	ev->u.upload.key.from_me = true;
	ev->u.upload.sent = (int64_t)sent;
	ev->u.upload.total = (int64_t)total;
	ev->u.upload.done = done;
	ev->u.upload.failed = failed;
	app_eng_send(j->a, ev);
}

/* j's upload failed (err, said in words on the status line and as the
 * message's state): FAILED in the store, then j is gone. */
static void
fail(struct app_ul *j, int err)
{
	struct ev	*ev;
	int		 rc;

	log_warn("message %s: upload failed: %s", j->id, wc_strerror(err));
	j->keep_blob = true;	/* Ctrl-t uploads it again */
	if ((rc = store_media_upload_failed(j->a->store, j->chat, j->id)) < 0)
		log_warn("message %s: failure not stored: %s", j->id,
		    wc_strerror(rc));
	tell(j, 0, 0, false, true);
	ev = ev_new(EV_MSG_STATE);
	ev_set(&ev->u.msg_state.key.chat, j->chat);
	ev_set(&ev->u.msg_state.key.id, j->id);
	ev->u.msg_state.key.from_me = true;
	ev->u.msg_state.state = EV_STATE_FAILED;
	app_eng_send(j->a, ev);
	app_eng_error(j->a, _("the file could not be uploaded; Ctrl-t tries "
	    "again"), err);
	job_free(j);
}

/* --- the upload --- */

static void	ask_mc(struct app_ul *j, bool refresh);

static void
on_progress(void *arg, uint64_t sent, uint64_t total)
{
	struct app_ul	*j = arg;
	uint64_t	 now = mono_ms();

	if (now - j->last_ms < UL_PROGRESS_MS)
		return;
	j->last_ms = now;
	tell(j, sent, total, false, false);
}

/* The message j sends, from the store's media, the seal and the host's
 * answer (all borrowed). */
static void
media_of(const struct app_ul *j, const char *url, const char *direct_path,
    struct wa_msg_media *md)
{
	app_media_wire(&j->sm, md);
	md->file_length = j->enc.file_len;
	md->direct_path = (char *)direct_path;
	md->url = (char *)url;
	md->file_sha256 = (uint8_t *)j->enc.file_sha256;
	md->file_sha256_len = WA_MEDIA_HASH_LEN;
	md->file_enc_sha256 = (uint8_t *)j->enc.file_enc_sha256;
	md->file_enc_sha256_len = WA_MEDIA_HASH_LEN;
}

/* The host has j's blob: its message stored with its payload, then the
 * outbox sends it. */
static void
uploaded(struct app_ul *j, const char *url, const char *direct_path)
{
	struct wa_dm		*dm = j->a->eng != NULL ? wa_eng_dm(j->a->eng) :
	    NULL;
	struct wa_msg_media	 md;
	struct store_media_up	 u;
	struct buf		 p = BUF_INIT;
	const struct store_msg	*m = &j->msg;
	int			 rc = -ENOTCONN;

	media_of(j, url, direct_path, &md);
	if (dm != NULL)
		rc = wa_dm_media_payload(dm, &md, m->quoted_id[0] != '\0' ?
		    m->quoted_id : NULL, m->quoted_sender, m->quoted_text, &p);
	if (rc == 0)	/* a disappearing chat's timer (issue 20) */
		rc = wa_dm_expiry(dm, j->chat, &p);
	if (rc == 0) {
		memset(&u, 0, sizeof(u));
		u.url = url;
		u.direct_path = direct_path;
		u.file_sha256 = j->enc.file_sha256;
		u.file_enc_sha256 = j->enc.file_enc_sha256;
		u.payload = p.p;
		u.payload_len = p.len;
		rc = store_media_uploaded(j->a->store, j->chat, j->id, &u);
	}
	buf_release(&p);
	if (rc < 0) {
		if (rc == -ENOSPC)
			app_disk_full(j->a);
		fail(j, rc);
		return;
	}
	log_info("message %s: uploaded, queued", j->id);
	tell(j, j->enc.blob_len, j->enc.blob_len, true, false);
	wa_dm_outbox_kick(dm);
	job_free(j);
}

static void
on_done(void *arg, enum wa_media_ul_end end, int err, long status,
    const char *url, const char *direct_path, const char *why)
{
	struct app_ul	*j = arg;

	j->ul = NULL;
	if (end == WA_MEDIA_UL_OK) {
		uploaded(j, url, direct_path);
		return;
	}
	log_warn("message %s: upload: %s (HTTP %ld)", j->id, why, status);
	if (end == WA_MEDIA_UL_AUTH && !j->auth_retried) {
		j->auth_retried = true;
		ask_mc(j, true);
		return;
	}
	fail(j, err != 0 ? err : -EIO);
}

/* media_conn is here: upload j's blob to its hosts in order. */
static void
on_mc(void *arg, int err, const struct wa_mediaconn *mc)
{
	struct app_ul		*j = arg;
	struct wa_media_ul_req	 r;
	const char		*info;
	size_t			 i;
	int			 rc;

	if (err != 0) {
		j->phase = UL_OFFLINE;	/* again once online */
		return;
	}
	memset(&r, 0, sizeof(r));
	for (i = 0; i < mc->n && i < WA_MEDIA_UL_HOSTS_MAX - 1; i++)
		r.hosts[i] = mc->hosts[i];
	r.auth = mc->auth;
	r.path = j->blob;
	r.file_enc_sha256 = j->enc.file_enc_sha256;
	r.ca_file = j->a->conf->ca_file;
	r.connect_timeout_ms = UL_CONNECT_MS;
	r.stall_timeout_ms = UL_STALL_MS;
	if ((rc = wa_media_seal_kind((enum wa_msg_media_type)j->sm.type,
	    &info, &r.mms_type)) == 0 && mc->auth[0] == '\0')
		rc = WC_EPROTO;		/* media_conn gave no auth */
	if (rc == 0)
		rc = wa_media_ul_start(&j->a->eng_loop, &r, on_done,
		    on_progress, j, &j->ul);
	if (rc != 0) {
		fail(j, rc);
		return;
	}
	j->phase = UL_SEND;
	j->last_ms = mono_ms();
	tell(j, 0, j->enc.blob_len, false, false);
}

static void
ask_mc(struct app_ul *j, bool refresh)
{
	int	 rc = -ENOTCONN;

	j->phase = UL_MC;
	if (j->a->eng != NULL)
		rc = wa_eng_media_conn(j->a->eng, refresh, on_mc, j);
	if (rc == -ENOTCONN)
		j->phase = UL_OFFLINE;
	else if (rc != 0)
		fail(j, rc);
}

/* --- the seal, on the worker pool --- */

static void
seal_work(uv_work_t *w)
{
	struct app_ul	*j = w->data;

	j->err = wa_media_seal_file(j->sm.path, j->a->conf->data_dir,
	    (enum wa_msg_media_type)j->sm.type, j->sm.media_key, j->blob,
	    &j->enc);
	if (j->err != 0)
		j->blob[0] = '\0';
}

/* The name j's sealed blob is kept under until sent (the data dir's
 * wachat-ul-ID) into out[size]; false when it does not fit. */
static bool
kept_path(const struct app_ul *j, char *out, size_t size)
{
	int	 n = snprintf(out, size, "%s/wachat-ul-%s", j->a->conf->data_dir,
	    j->id);

	return n > 0 && (size_t)n < size;
}

/* j's new blob renamed to its kept name, its hashes stored: a restart
 * uploads it without sealing again.  Failing that, it is used as it is
 * (and a restart seals again). */
static void
keep(struct app_ul *j)
{
	char	 kept[WA_MEDIA_SEAL_PATH_MAX];
	int	 rc;

	if (!kept_path(j, kept, sizeof(kept)) || rename(j->blob, kept) != 0)
		return;
	snprintf(j->blob, sizeof(j->blob), "%s", kept);
	if ((rc = store_media_sealed(j->a->store, j->chat, j->id,
	    j->enc.file_sha256, j->enc.file_enc_sha256)) < 0)
		log_warn("message %s: seal not stored: %s", j->id,
		    wc_strerror(rc));
}

/* The blob an earlier try kept, when the store has its hashes and its
 * size is the file's sealed size: into j->blob and j->enc.  Returns
 * whether it is there. */
static bool
kept(struct app_ul *j)
{
	const struct store_media	*m = &j->sm;
	struct stat			 st;
	char				 p[WA_MEDIA_SEAL_PATH_MAX];

	if (m->file_sha256_len != WA_MEDIA_HASH_LEN ||
	    m->file_enc_sha256_len != WA_MEDIA_HASH_LEN || m->size < 0 ||
	    !kept_path(j, p, sizeof(p)) || stat(p, &st) != 0 ||
	    !S_ISREG(st.st_mode) ||
	    (uint64_t)st.st_size != wa_media_blob_len((uint64_t)m->size))
		return false;
	memcpy(j->enc.file_sha256, m->file_sha256, WA_MEDIA_HASH_LEN);
	memcpy(j->enc.file_enc_sha256, m->file_enc_sha256, WA_MEDIA_HASH_LEN);
	j->enc.file_len = (uint64_t)m->size;
	j->enc.blob_len = (uint64_t)st.st_size;
	snprintf(j->blob, sizeof(j->blob), "%s", p);
	return true;
}

static void
seal_done(uv_work_t *w, int status)
{
	struct app_ul	*j = w->data;

	j->work_on = false;
	if (j->dead) {
		job_free(j);
		return;
	}
	if (status != 0 || j->err != 0) {
		fail(j, status != 0 ? status : j->err);
		return;
	}
	keep(j);
	ask_mc(j, false);
}

/* Take up the upload of our stored message (j->chat, j->id): its media
 * and its reply read back, then sealed. */
static void
from_store(struct app_ul *j)
{
	int	 rc;

	if ((rc = store_media_get(j->a->store, j->chat, true, j->id,
	    &j->sm)) == 1 && (rc = store_msg_get(j->a->store, j->chat, true,
	    j->id, &j->msg)) == 1 && (j->sm.media_key_len != WA_MEDIA_KEY_LEN ||
	    j->sm.path[0] == '\0'))
		rc = -EINVAL;
	if (rc != 1) {
		fail(j, rc < 0 ? rc : -ENOENT);
		return;
	}
	if (kept(j)) {
		log_info("message %s: its sealed blob kept, not sealed again",
		    j->id);
		ask_mc(j, false);
		return;
	}
	j->phase = UL_SEAL;
	j->work.data = j;
	if ((rc = uv_queue_work(&j->a->eng_loop, &j->work, seal_work,
	    seal_done)) != 0) {
		fail(j, rc);
		return;
	}
	j->work_on = true;
	tell(j, 0, 0, false, false);
}

/* --- a new file: looked at, stored, shown --- */

static void
probe_work(uv_work_t *w)
{
	struct app_ul	*j = w->data;

	/* a WebP picture goes as a sticker, as WhatsApp's own are */
	j->err = wa_media_probe(j->path, WA_MEDIA_PROBE_STICKER |
	    (j->ptt ? WA_MEDIA_PROBE_PTT : 0), &j->probe);
}

/* The name a document goes with: the file's last part. */
static const char *
base_name(const char *path)
{
	const char	*s = strrchr(path, '/');

	return s != NULL ? s + 1 : path;
}

/* Store the new message j (QUEUED, uploading) and show it.  Returns 0
 * or the store's error. */
static int
store_new(struct app_ul *j)
{
	const struct wa_media_probe	*p = &j->probe;
	struct store_media		 m;
	struct store_msg_new		 n;
	struct wa_msg_media		 w;
	uint8_t				 key[WA_MEDIA_KEY_LEN];
	struct ev			*ev;
	char				*text;
	int64_t				 now = (int64_t)time(NULL);
	int				 rc;

	randombytes_buf(key, sizeof(key));
	memset(&w, 0, sizeof(w));
	w.type = p->type;
	w.animated = p->animated;
	w.mimetype = (char *)p->mimetype;
	w.file_length = p->size;
	w.width = p->width;
	w.height = p->height;
	w.seconds = p->seconds;
	w.caption = j->caption[0] != '\0' ? j->caption : NULL;
	w.file_name = p->type == WA_MEDIA_DOCUMENT ?
	    (char *)base_name(j->path) : NULL;
	w.thumb = p->thumb;
	w.thumb_len = p->thumb_len;
	w.waveform = p->waveform_len > 0 ? (uint8_t *)p->waveform : NULL;
	w.waveform_len = p->waveform_len;
	w.media_key = key;
	w.media_key_len = sizeof(key);
	w.media_key_ts = now;
	app_media_store(&w, &m);
	m.path = j->path;
	m.ul_state = STORE_UL_UPLOADING;
	text = app_media_text(&w);
	memset(&n, 0, sizeof(n));
	n.chat = j->chat;
	n.id = j->id;
	n.sender = "";
	n.from_me = true;
	n.ts_ms = now * 1000;
	n.kind = STORE_MSG_MEDIA;
	n.text = text;
	n.text_len = strlen(text);
	n.quoted_id = j->quoted_id[0] != '\0' ? j->quoted_id : NULL;
	n.quoted_sender = n.quoted_id != NULL ? j->quoted_sender : NULL;
	n.quoted_text = n.quoted_id != NULL ? j->quoted_text : NULL;
	n.media = &m;
	rc = store_msg_insert_outgoing(j->a->store, &n, NULL);
	sodium_memzero(key, sizeof(key));
	if (rc == 0) {
		ev = ev_new(EV_MESSAGE);
		ev_set(&ev->u.message.key.chat, j->chat);
		ev_set(&ev->u.message.key.id, j->id);
		ev->u.message.key.from_me = true;
		ev_set(&ev->u.message.text, text);
		ev_set(&ev->u.message.quoted_id, j->quoted_id);
		ev->u.message.state = EV_STATE_QUEUED;
		ev->u.message.ts_ms = n.ts_ms;
		w.media_key = NULL;
		app_media_ev_of_msg(&w, &ev->u.message.media);
		app_eng_send(j->a, ev);
		app_expire_kick(j->a);	/* in a disappearing chat */
	}
	free(text);
	return rc;
}

/* What a probe's error means to the user. */
static const char *
probe_words(const struct app_ul *j, int err)
{
	if (err == -EINVAL && j->ptt)
		return _("only an Ogg Opus file goes as a voice note");
	if (err == -EISDIR)
		return _("not a file to send");
	return _("the file cannot be read");
}

/* What the probe read of a video, or could not, in the log; a GIF that
 * goes as a document says why. */
static void
probe_log(const struct app_ul *j)
{
	const struct wa_media_probe	*p = &j->probe;

	if (p->type == WA_MEDIA_VIDEO && p->video_err == -ENOTSUP)
		log_info("message %s: video sent without its duration, size "
		    "and thumbnail: wachat was built without FFmpeg "
		    "(configure --without-ffmpeg, or libavformat-dev, "
		    "libavcodec-dev, libswscale-dev, libavutil-dev absent)",
		    j->id);
	else if (p->type == WA_MEDIA_VIDEO && p->video_err != 0)
		log_warn("message %s: video does not decode (%s): sent without "
		    "what could not be read: %u s, %ux%u, %zu bytes of "
		    "thumbnail", j->id, wc_strerror(p->video_err), p->seconds,
		    p->width, p->height, p->thumb_len);
	else if (p->type == WA_MEDIA_VIDEO)
		log_info("message %s: video %u s, %ux%u, %zu bytes of "
		    "thumbnail", j->id, p->seconds, p->width, p->height,
		    p->thumb_len);
	if (strcmp(p->mimetype, "image/gif") == 0)
		log_info("message %s: a GIF goes as a document: WhatsApp's "
		    "GIFs are MP4 videos and wachat does not convert", j->id);
}

static void
probe_done(uv_work_t *w, int status)
{
	struct app_ul	*j = w->data;
	int		 rc;

	j->work_on = false;
	if (j->dead) {
		job_free(j);
		return;
	}
	rc = status != 0 ? status : j->err;
	if (rc == 0)
		probe_log(j);
	if (rc == 0 && (rc = store_new(j)) != 0 && rc == -ENOSPC)
		app_disk_full(j->a);
	if (j->said != NULL)
		j->said(j->a, j->token, rc, rc == 0 ? j->id : "");
	if (rc != 0) {
		app_eng_error(j->a, j->err != 0 ? probe_words(j, rc) :
		    _("not sent: the message cannot be stored"), rc);
		job_free(j);
		return;
	}
	from_store(j);
}

/* app_upload_file() with its job's answer (NULL: none). */
static int
upload_file(struct app *a, const struct cmd_send_file *f,
    char id[WA_DM_ID_MAX], const char *token, app_upload_fn said)
{
	struct wa_dm	*dm = a->eng != NULL ? wa_eng_dm(a->eng) : NULL;
	struct app_ul	*j;
	struct stat	 st;
	char		 abs[PATH_MAX];
	int		 rc;

	if (dm == NULL)
		return -ENOTCONN;
	if (f->chat[0] == '\0' || f->path[0] == '\0')
		return -EINVAL;
	/* refused before a byte is read */
	if (realpath(f->path, abs) == NULL || stat(abs, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EISDIR;
	if (access(abs, R_OK) != 0)
		return -errno;
	if (st.st_size == 0)
		return -ENODATA;
	if ((uint64_t)st.st_size > a->conf->max_media_size)
		return -EFBIG;
	j = job_new(a, f->chat);
	if ((rc = wa_dm_new_id(dm, j->id)) != 0) {
		job_free(j);
		return rc;
	}
	snprintf(j->path, sizeof(j->path), "%s", abs);
	j->caption = xstrdup(f->caption);
	j->quoted_id = xstrdup(f->quoted_id);
	j->quoted_sender = xstrdup(f->quoted_sender);
	j->quoted_text = xstrdup(f->quoted_text);
	j->ptt = f->ptt;
	j->said = said;
	j->token = token != NULL ? xstrdup(token) : NULL;
	j->phase = UL_PROBE;
	j->work.data = j;
	if ((rc = uv_queue_work(&a->eng_loop, &j->work, probe_work,
	    probe_done)) != 0) {
		job_free(j);
		return rc;
	}
	j->work_on = true;
	if (id != NULL)
		snprintf(id, WA_DM_ID_MAX, "%s", j->id);
	return 0;
}

int
app_upload_file(struct app *a, const struct cmd_send_file *f,
    char id[WA_DM_ID_MAX])
{
	return upload_file(a, f, id, NULL, NULL);
}

void
app_upload_spool(struct app *a, const struct cmd_send_file *f,
    const char *token, app_upload_fn fn)
{
	int	 rc;

	if ((rc = upload_file(a, f, NULL, token, fn)) != 0)
		fn(a, token, rc, "");
}

int
app_upload_retry(struct app *a, const char *chat, const char *id)
{
	struct app_ul	*j;
	int		 rc;

	if (a->store == NULL)
		return 0;
	if ((rc = store_media_upload_retry(a->store, chat, id)) != 1)
		return rc;
	j = job_new(a, chat);
	snprintf(j->id, sizeof(j->id), "%s", id);
	log_info("message %s: upload tried again", id);
	from_store(j);
	return 1;
}

/* Whether id is one of k[0..n)'s. */
static bool
pending(const char *id, const struct store_media_ul_key *k, int n)
{
	int	 i;

	for (i = 0; i < n; i++)
		if (strcmp(k[i].id, id) == 0)
			return true;
	return false;
}

/* The blobs a stop or a crash left in the data dir: at a start none is
 * in use (the data dir's lock is ours), and but those kept for an upload
 * to take up (wachat-ul-ID of k[0..n)) none is of use: a half-sealed
 * one (proto/media-seal.h's wachat-ul-XXXXXX), a sent or failed
 * message's. */
static void
sweep(struct app *a, const struct store_media_ul_key *k, int n_keys)
{
	DIR		*d;
	struct dirent	*e;
	char		 p[PATH_MAX];
	int		 n = 0;

	if ((d = opendir(a->conf->data_dir)) == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "wachat-ul-", 10) != 0 ||
		    pending(e->d_name + 10, k, n_keys))
			continue;
		snprintf(p, sizeof(p), "%s/%s", a->conf->data_dir, e->d_name);
		if (unlink(p) == 0)
			n++;
	}
	(void)closedir(d);
	if (n > 0)
		log_info("%d upload blobs left behind removed", n);
}

void
app_upload_resume(struct app *a)
{
	struct store_media_ul_key	*k;
	struct app_ul			*j;
	int				 n, i;

	if (a->store == NULL)
		return;
	if (!wa_media_video_available())
		log_info("built without FFmpeg (configure --without-ffmpeg, or "
		    "its packages absent): videos are sent without their "
		    "duration, size and thumbnail");
	k = xcalloc(UL_RESUME_MAX, sizeof(*k));
	if ((n = store_media_uploading(a->store, k, UL_RESUME_MAX)) < 0)
		log_warn("uploads not taken up: %s", wc_strerror(n));
	else
		sweep(a, k, n);
	for (i = 0; i < n; i++) {
		j = job_new(a, k[i].chat);
		snprintf(j->id, sizeof(j->id), "%s", k[i].id);
		log_info("message %s: upload taken up again", j->id);
		from_store(j);
	}
	free(k);
}

void
app_upload_online(struct app *a)
{
	struct app_ul	*j, *next;

	for (j = jobs; j != NULL; j = next) {
		next = j->next;
		if (j->a == a && j->phase == UL_OFFLINE && !j->dead)
			ask_mc(j, false);
	}
}

void
app_upload_stop(struct app *a)
{
	struct app_ul	*j, *next;

	for (j = jobs; j != NULL; j = next) {
		next = j->next;
		if (j->a != a)
			continue;
		wa_eng_media_conn_cancel(a->eng, on_mc, j);
		wa_media_ul_cancel(j->ul);
		j->ul = NULL;
		j->keep_blob = true;	/* for the next start */
		if (j->work_on) {
			j->dead = true;		/* freed after its worker */
			(void)uv_cancel((uv_req_t *)&j->work);
		} else
			job_free(j);
	}
}
