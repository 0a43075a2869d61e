/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-dl.c -- one media download on a libuv worker
 * (proto/media-dl.h; protocol-features.md 1.5): libcurl writes the body
 * through the decrypt context straight into the temp file, so memory
 * stays at curl's buffer plus one 64 KiB slice whatever the file's size.
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sodium.h>
#include <uv.h>

#define LOG_TAG "media"

#include "base/err.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/media-name.h"
#include "proto/http-get.h"
#include "proto/media-dl.h"
#include "proto/media-stream.h"

#define READ_CHUNK	(256 * 1024)	/* wa_media_dl_fd's reads */
/* Start the disk's writeback every so many bytes, so the fsync at the end
 * waits for little and dirty pages do not pile up (Linux). */
#define FLUSH_EVERY	(8u << 20)

int
wa_media_dl_url(const char *host, const char *direct_path,
    const uint8_t file_enc_sha256[WA_MEDIA_HASH_LEN], const char *mms_type,
    char *out, size_t len)
{
	char	 b64[sodium_base64_ENCODED_LEN(WA_MEDIA_HASH_LEN,
		    sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
	int	 n;

	if (host == NULL || direct_path == NULL || file_enc_sha256 == NULL ||
	    mms_type == NULL || out == NULL || len == 0 || host[0] == '\0' ||
	    mms_type[0] == '\0' || direct_path[0] != '/' ||
	    strlen(host) >= WA_MEDIA_HOST_MAX ||
	    strspn(host, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789.-:") != strlen(host) ||
	    strspn(mms_type, "abcdefghijklmnopqrstuvwxyz0123456789-") !=
	    strlen(mms_type) ||
	    strpbrk(direct_path, " \t\r\n#") != NULL)
		return -EINVAL;
	sodium_bin2base64(b64, sizeof(b64), file_enc_sha256, WA_MEDIA_HASH_LEN,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	n = snprintf(out, len, "https://%s%s%shash=%s&mms-type=%s&__wa-mms=",
	    host, direct_path, strchr(direct_path, '?') != NULL ? "&" : "?",
	    b64, mms_type);
	if (n < 0 || (size_t)n >= len)
		return WC_ETOOBIG;
	return 0;
}

/* --- the temp file --- */

int
wa_media_out_open(const char *dir, struct wa_media_out *o)
{
	size_t	 n;

	if (dir == NULL || o == NULL)
		return -EINVAL;
	n = strlen(dir) + sizeof("/.wachat-dl-XXXXXX");
	o->tmp = xmalloc(n);
	snprintf(o->tmp, n, "%s/.wachat-dl-XXXXXX", dir);
	o->written = 0;
	o->flushed = 0;
	/* mkstemp makes it 0600. */
	if ((o->fd = mkstemp(o->tmp)) < 0) {
		n = (size_t)errno;
		free(o->tmp);
		o->tmp = NULL;
		return -(int)n;
	}
	return 0;
}

int
wa_media_out_write(void *arg, const uint8_t *p, size_t len)
{
	struct wa_media_out	*o = arg;
	ssize_t			 w;

	while (len > 0) {
		if ((w = write(o->fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		len -= (size_t)w;
		o->written += (uint64_t)w;
	}
#ifdef SYNC_FILE_RANGE_WRITE
	if (o->written - o->flushed >= FLUSH_EVERY) {
		/* Advisory: an error here shows again at the fsync. */
		(void)sync_file_range(o->fd, (off_t)o->flushed,
		    (off_t)(o->written - o->flushed), SYNC_FILE_RANGE_WRITE);
		o->flushed = o->written;
	}
#endif
	return 0;
}

void
wa_media_out_discard(struct wa_media_out *o)
{
	if (o->fd >= 0)
		(void)close(o->fd);
	o->fd = -1;
	if (o->tmp != NULL) {
		(void)unlink(o->tmp);
		free(o->tmp);
		o->tmp = NULL;
	}
}

/* fsync the directory holding path, so the rename survives a crash. */
static int
sync_dir_of(const char *path)
{
	char	*d = xstrdup(path), *s = strrchr(d, '/');
	int	 fd, rc = 0;

	if (s == d)
		s[1] = '\0';
	else if (s != NULL)
		*s = '\0';
	else {
		free(d);
		d = xstrdup(".");
	}
	if ((fd = open(d, O_RDONLY | O_DIRECTORY)) < 0 || fsync(fd) != 0)
		rc = -errno;
	if (fd >= 0)
		(void)close(fd);
	free(d);
	return rc;
}

/*
 * tmp under the name final, never replacing a file of that name (rename
 * would): a hard link, then the temp name removed; where the file system
 * has no hard links, renameat2(RENAME_NOREPLACE).  -EEXIST when final
 * exists.
 */
static int
place(const char *tmp, const char *final)
{
	if (link(tmp, final) == 0) {
		(void)unlink(tmp);
		return 0;
	}
	if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS)
		return -errno;
	if (renameat2(AT_FDCWD, tmp, AT_FDCWD, final, RENAME_NOREPLACE) != 0)
		return -errno;
	return 0;
}

/*
 * tmp under want or, taken non-NULL, the first of its "-1" .. "-999"
 * names no file has at this moment (link(2) says so atomically: two
 * downloads of one name never both take it); that name into taken.
 */
static int
place_as(const char *tmp, const char *want, char *taken, size_t tlen)
{
	char	 cand[4096];
	unsigned i;
	int	 rc;

	if (taken == NULL)
		return place(tmp, want);
	for (i = 0; i <= WA_MEDIA_NAME_TRIES; i++) {
		if ((rc = wa_media_name_nth(want, i, cand, sizeof(cand))) != 0)
			return rc;
		if ((rc = place(tmp, cand)) == -EEXIST)
			continue;
		if (rc == 0 && snprintf(taken, tlen, "%s", cand) >= (int)tlen)
			return WC_ETOOBIG;	/* cannot happen: same size */
		return rc;
	}
	return -EEXIST;
}

/* wa_media_out_commit() under a free name as place_as() says. */
static int
commit_as(struct wa_media_out *o, const char *final_path, char *taken,
    size_t tlen)
{
	int	 rc = 0;

	if (final_path == NULL)
		rc = -EINVAL;
	else if (fsync(o->fd) != 0)
		rc = -errno;
	else if (close(o->fd) != 0) {
		o->fd = -1;
		rc = -errno;
	}
	if (rc == 0) {
		o->fd = -1;
		rc = place_as(o->tmp, final_path, taken, tlen);
	}
	if (rc != 0) {
		wa_media_out_discard(o);
		return rc;
	}
	free(o->tmp);
	o->tmp = NULL;
	return sync_dir_of(final_path);
}

int
wa_media_out_commit(struct wa_media_out *o, const char *final_path)
{
	return commit_as(o, final_path, NULL, 0);
}

/* The decrypt context of r's keys and checks. */
static int
dec_of(const struct wa_media_dl_req *r, struct wa_media_dec **d)
{
	if (r->media_key == NULL || r->info == NULL || r->dir == NULL ||
	    r->final_path == NULL)
		return -EINVAL;
	return wa_media_dec_new(r->media_key, r->info, r->file_enc_sha256,
	    r->file_sha256, r->file_len, r->max_len, d);
}

/* finish d, write its last bytes, commit o; o released either way. */
static int
finish_into(struct wa_media_dec *d, struct wa_media_out *o,
    const char *final_path, char *taken, size_t tlen, const char **why)
{
	uint8_t	 last[16];
	size_t	 n;
	int	 rc;

	if ((rc = wa_media_dec_finish(d, last, &n, why)) != 0 ||
	    (rc = wa_media_out_write(o, last, n)) != 0) {
		wa_media_out_discard(o);
		return rc;
	}
	sodium_memzero(last, sizeof(last));
	return commit_as(o, final_path, taken, tlen);
}

int
wa_media_dl_fd(int fd, const struct wa_media_dl_req *r, const char **why)
{
	struct wa_media_dec	*d = NULL;
	struct wa_media_out	 o;
	uint8_t			*buf, *plain;
	char			 taken[4096];
	ssize_t			 n;
	size_t			 w;
	int			 rc;

	if (r == NULL)
		return -EINVAL;
	if ((rc = dec_of(r, &d)) != 0)
		return rc;
	if ((rc = wa_media_out_open(r->dir, &o)) != 0) {
		wa_media_dec_free(d);
		return rc;
	}
	buf = xmalloc(READ_CHUNK);
	plain = xmalloc(READ_CHUNK + WA_MEDIA_STREAM_SLACK);
	for (;;) {
		if ((n = read(fd, buf, READ_CHUNK)) < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (n == 0)
			break;
		if ((rc = wa_media_dec_update(d, buf, (size_t)n, plain,
		    READ_CHUNK + WA_MEDIA_STREAM_SLACK, &w)) != 0 ||
		    (rc = wa_media_out_write(&o, plain, w)) != 0)
			break;
	}
	free(buf);
	sodium_memzero(plain, READ_CHUNK + WA_MEDIA_STREAM_SLACK);
	free(plain);
	if (rc != 0)
		wa_media_out_discard(&o);
	else
		rc = finish_into(d, &o, r->final_path, r->free_name ? taken :
		    NULL, sizeof(taken), why);
	wa_media_dec_free(d);
	return rc;
}

/* --- the download on a worker --- */

struct wa_media_dl {
	uv_work_t		 req;
	uv_async_t		 tick;		/* progress to the loop */
	char			*urls[1 + WA_MEDIA_DL_MORE_MAX];
	char			*hosts[1 + WA_MEDIA_DL_MORE_MAX];
	struct wa_media_dec	*decs[1 + WA_MEDIA_DL_MORE_MAX]; /* one
					 * per URL, made at start */
	size_t			 nurls, cur;	/* the URL tried now */
	char			*ca_file, *final_path, *dir;
	bool			 free_name;
	char			 taken[4096];	/* the name the file took */
	uint32_t		 connect_timeout_ms, stall_timeout_ms;
	uint64_t		 max_blob, declared_blob;
	struct wa_media_out	 out;
	atomic_bool		 cancelled;
	_Atomic uint64_t	 got, total;
	wa_media_dl_done_fn	 done;
	wa_media_dl_progress_fn	 progress;
	void			*arg;
	/* Results, written by the worker. */
	enum wa_media_dl_end	 end;
	int			 err;
	long			 status;
	int			 sink_err;	/* why a write stopped */
	char			 why[256];
};

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct wa_media_dl	*g = arg;
	size_t			 len = size * n;
	int			 rc;

	if ((rc = wa_media_dec_feed(g->decs[g->cur], (const uint8_t *)p, len,
	    wa_media_out_write, &g->out)) != 0) {
		g->sink_err = rc;
		return 0;	/* CURLE_WRITE_ERROR */
	}
	atomic_store(&g->got, atomic_load(&g->got) + len);
	return len;
}

static int
on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
    curl_off_t un)
{
	struct wa_media_dl	*g = arg;

	(void)dn;
	(void)ut;
	(void)un;
	if (atomic_load(&g->cancelled))
		return 1;
	if (g->declared_blob == 0 && dt > 0)
		atomic_store(&g->total, (uint64_t)dt);
	(void)uv_async_send(&g->tick);
	return 0;
}

static CURLcode
on_ssl_ctx(CURL *c, void *ssl_ctx, void *arg)
{
	struct wa_media_dl	*g = arg;
	X509_STORE		*st = SSL_CTX_get_cert_store(ssl_ctx);

	(void)c;
	if (st == NULL || X509_STORE_load_file(st, g->ca_file) != 1)
		return CURLE_SSL_CACERT_BADFILE;
	return CURLE_OK;
}

static void
set_end(struct wa_media_dl *g, enum wa_media_dl_end end, int err,
    const char *why)
{
	g->end = end;
	g->err = err;
	snprintf(g->why, sizeof(g->why), "%s", why);
}

/* Classify a transfer that curl ended with cc. */
static void
classify(struct wa_media_dl *g, CURLcode cc)
{
	char	 w[200];

	if (cc == CURLE_HTTP_RETURNED_ERROR || (cc == CURLE_OK &&
	    (g->status < 200 || g->status > 299))) {
		snprintf(w, sizeof(w), "%s answered HTTP %ld", g->hosts[g->cur],
		    g->status);
		if (g->status == 404 || g->status == 410)
			set_end(g, WA_MEDIA_DL_EXPIRED, -ENOENT, w);
		else
			set_end(g, WA_MEDIA_DL_HTTP, -EPROTO, w);
	} else if (cc == CURLE_FILESIZE_EXCEEDED) {
		snprintf(w, sizeof(w), "the file on %s is larger than the "
		    "cap: not downloaded", g->hosts[g->cur]);
		set_end(g, WA_MEDIA_DL_TOOBIG, WC_ETOOBIG, w);
	} else if (cc == CURLE_WRITE_ERROR && g->sink_err != 0) {
		if (g->sink_err == WC_ETOOBIG)
			set_end(g, WA_MEDIA_DL_CORRUPT, WC_ETOOBIG, "the "
			    "download is longer than the file's declared "
			    "length");
		else if (g->sink_err == WC_ECRYPTO)
			set_end(g, WA_MEDIA_DL_LOCAL, WC_ECRYPTO, "the crypto "
			    "library failed");
		else {
			snprintf(w, sizeof(w), "cannot write the temp file: "
			    "%s", strerror(-g->sink_err));
			set_end(g, WA_MEDIA_DL_LOCAL, g->sink_err, w);
		}
	} else if (cc == CURLE_ABORTED_BY_CALLBACK) {
		set_end(g, WA_MEDIA_DL_NETWORK, -ECANCELED, "cancelled");
	} else {
		snprintf(w, sizeof(w), "cannot fetch from %s: %s", g->hosts[g->cur],
		    curl_easy_strerror(cc));
		set_end(g, WA_MEDIA_DL_NETWORK, cc == CURLE_OPERATION_TIMEDOUT ?
		    -ETIMEDOUT : -EIO, w);
	}
}

static void
setup(struct wa_media_dl *g, CURL *c, struct curl_slist *hl)
{
	curl_easy_setopt(c, CURLOPT_URL, g->urls[g->cur]);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 3L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_FAILONERROR, 1L);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
	    (long)g->connect_timeout_ms);
	/* A stall, not a slow line, ends a long download. */
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME,
	    (long)((g->stall_timeout_ms + 999) / 1000));
	/* A Content-Length over the cap fails before the body is read. */
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
	    (curl_off_t)(g->max_blob > (uint64_t)INT64_MAX ?
	    (uint64_t)INT64_MAX : g->max_blob));
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, g);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, g);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "Mozilla/5.0 (X11; Linux "
	    "x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 "
	    "Safari/537.36");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
	if (g->ca_file != NULL) {
		curl_easy_setopt(c, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
		curl_easy_setopt(c, CURLOPT_SSL_CTX_DATA, g);
	}
}

/* One try of g->urls[g->cur] into g->out, which it releases. */
static void
try_url(struct wa_media_dl *g)
{
	struct curl_slist	*hl = NULL, *t;
	const char		*w = NULL;
	CURL			*c;
	CURLcode		 cc;
	int			 rc;

	if ((c = curl_easy_init()) == NULL) {
		wa_media_out_discard(&g->out);
		set_end(g, WA_MEDIA_DL_LOCAL, -ENOMEM, "cannot start a "
		    "transfer");
		return;
	}
	if ((t = curl_slist_append(hl, "Origin: https://web.whatsapp.com")))
		hl = t;
	if ((t = curl_slist_append(hl, "Referer: https://web.whatsapp.com/")))
		hl = t;
	setup(g, c, hl);
	cc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &g->status);
	curl_easy_cleanup(c);
	curl_slist_free_all(hl);
	if (cc != CURLE_OK || g->status < 200 || g->status > 299 ||
	    atomic_load(&g->cancelled)) {
		wa_media_out_discard(&g->out);
		classify(g, cc);
		/* Not needed again: its hashing thread goes now, not at the
		 * end of the next URL's try. */
		wa_media_dec_free(g->decs[g->cur]);
		g->decs[g->cur] = NULL;
		return;
	}
	if ((rc = finish_into(g->decs[g->cur], &g->out, g->final_path,
	    g->free_name ? g->taken : NULL, sizeof(g->taken), &w)) != 0) {
		if (rc == WC_ECRYPTO || (rc < 0 && rc > -4096))
			set_end(g, WA_MEDIA_DL_LOCAL, rc, w != NULL ? w :
			    "cannot write or rename the file");
		else
			set_end(g, WA_MEDIA_DL_CORRUPT, rc, w != NULL ? w :
			    "the download does not verify");
		return;
	}
	set_end(g, WA_MEDIA_DL_OK, 0, "");
}

/* Whether the end of a try sends the download to the next URL (1.5:
 * 401, 403, 404, 410 and a plaintext mismatch stop; a network error,
 * another status and a fileEncSHA256 mismatch go on). */
static bool
next_url(const struct wa_media_dl *g)
{
	if (atomic_load(&g->cancelled))
		return false;
	switch (g->end) {
	case WA_MEDIA_DL_NETWORK:
		return g->err != -ECANCELED;
	case WA_MEDIA_DL_HTTP:
		return g->status != 401 && g->status != 403;
	case WA_MEDIA_DL_CORRUPT:
		return g->err == WC_EENCHASH;
	case WA_MEDIA_DL_OK:
	case WA_MEDIA_DL_EXPIRED:
	case WA_MEDIA_DL_TOOBIG:
	case WA_MEDIA_DL_LOCAL:
		return false;
	}
	return false;
}

static void
work(uv_work_t *req)
{
	struct wa_media_dl	*g = req->data;
	char			 w[200];
	int			 rc;

	for (g->cur = 0; g->cur < g->nurls; g->cur++) {
		if (g->cur > 0) {
			if ((rc = wa_media_out_open(g->dir, &g->out)) != 0) {
				snprintf(w, sizeof(w), "cannot make the temp "
				    "file: %s", strerror(-rc));
				set_end(g, WA_MEDIA_DL_LOCAL, rc, w);
				return;
			}
			atomic_store(&g->got, 0);
			g->sink_err = 0;
			g->status = 0;
		}
		try_url(g);
		if (g->cur + 1 == g->nurls || !next_url(g))
			return;
		log_info("media download from %s failed (%s): next host",
		    g->hosts[g->cur], g->why);
	}
}

static void
dl_free(struct wa_media_dl *g)
{
	size_t	 i;

	wa_media_out_discard(&g->out);
	for (i = 0; i < g->nurls; i++) {
		wa_media_dec_free(g->decs[i]);
		free(g->urls[i]);
		free(g->hosts[i]);
	}
	free(g->ca_file);
	free(g->final_path);
	free(g->dir);
	free(g);
}

static void
release(uv_handle_t *h)
{
	dl_free(h->data);
}

static void
on_tick(uv_async_t *a)
{
	struct wa_media_dl	*g = a->data;

	if (g->progress != NULL && !atomic_load(&g->cancelled))
		g->progress(g->arg, atomic_load(&g->got),
		    atomic_load(&g->total));
}

static void
after_work(uv_work_t *req, int status)
{
	struct wa_media_dl	*g = req->data;

	if (status != 0) {
		/* Cancelled before it ran: the temp file goes in release. */
		set_end(g, WA_MEDIA_DL_NETWORK, -ECANCELED, "cancelled");
	}
	if (!atomic_load(&g->cancelled)) {
		if (g->progress != NULL && g->end == WA_MEDIA_DL_OK)
			g->progress(g->arg, atomic_load(&g->got),
			    atomic_load(&g->total));
		g->done(g->arg, g->end, g->err, g->status, g->why);
	}
	uv_close((uv_handle_t *)&g->tick, release);
}

const char *
wa_media_dl_path(const struct wa_media_dl *d)
{
	return d != NULL ? d->taken : "";
}

int
wa_media_dl_start(uv_loop_t *loop, const struct wa_media_dl_req *r,
    wa_media_dl_done_fn done, wa_media_dl_progress_fn progress, void *arg,
    struct wa_media_dl **out)
{
	struct wa_media_dl	*g;
	const char		*u[1 + WA_MEDIA_DL_MORE_MAX];
	size_t			 i, n;
	int			 rc;

	if (loop == NULL || r == NULL || done == NULL || out == NULL ||
	    r->connect_timeout_ms == 0 || r->stall_timeout_ms == 0)
		return -EINVAL;
	u[0] = r->url;
	for (n = 1; n <= WA_MEDIA_DL_MORE_MAX && r->more_urls[n - 1] != NULL;
	    n++)
		u[n] = r->more_urls[n - 1];
	for (i = 0; i < n; i++)
		if (u[i] == NULL || (strncasecmp(u[i], "http://", 7) != 0 &&
		    strncasecmp(u[i], "https://", 8) != 0))
			return -EINVAL;
	wa_http_curl_init();
	g = xcalloc(1, sizeof(*g));
	g->out.fd = -1;
	for (i = 0; i < n; i++) {
		if ((rc = dec_of(r, &g->decs[i])) != 0) {
			dl_free(g);
			return rc;
		}
		g->urls[i] = xstrdup(u[i]);
		g->hosts[i] = wa_http_host_of(u[i]);
		g->nurls = i + 1;
	}
	if ((rc = wa_media_out_open(r->dir, &g->out)) != 0) {
		dl_free(g);
		return rc;
	}
	g->dir = xstrdup(r->dir);
	g->ca_file = r->ca_file != NULL ? xstrdup(r->ca_file) : NULL;
	g->final_path = xstrdup(r->final_path);
	g->free_name = r->free_name;
	snprintf(g->taken, sizeof(g->taken), "%s", r->final_path);
	g->connect_timeout_ms = r->connect_timeout_ms;
	g->stall_timeout_ms = r->stall_timeout_ms;
	g->max_blob = r->file_len != WA_MEDIA_LEN_UNKNOWN ?
	    wa_media_blob_len(r->file_len) : r->max_len > UINT64_MAX - 32 ?
	    UINT64_MAX : wa_media_blob_len(r->max_len);
	g->declared_blob = r->file_len != WA_MEDIA_LEN_UNKNOWN ?
	    g->max_blob : 0;
	atomic_init(&g->total, g->declared_blob);
	atomic_init(&g->got, 0);
	atomic_init(&g->cancelled, false);
	g->done = done;
	g->progress = progress;
	g->arg = arg;
	g->req.data = g;
	g->tick.data = g;
	if ((rc = uv_async_init(loop, &g->tick, on_tick)) != 0) {
		dl_free(g);
		return rc;
	}
	if ((rc = uv_queue_work(loop, &g->req, work, after_work)) != 0) {
		uv_close((uv_handle_t *)&g->tick, release);
		return rc;
	}
	*out = g;
	return 0;
}

void
wa_media_dl_cancel(struct wa_media_dl *d)
{
	if (d == NULL)
		return;
	atomic_store(&d->cancelled, true);
	(void)uv_cancel((uv_req_t *)&d->req);
}
