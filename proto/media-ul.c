/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-ul.c -- one media upload on a libuv worker
 * (proto/media-ul.h; protocol-features.md 1.4): curl reads the body from
 * the blob's file as it sends, and the hosts are tried in turn on the
 * worker, the file rewound for each.
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>
#include <json-c/json.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sodium.h>
#include <uv.h>

#define LOG_TAG "media"

#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/http-get.h"
#include "proto/media-ul.h"

static const char	 host_chars[] = "abcdefghijklmnopqrstuvwxyz"
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:";

static bool
all_of(const char *s, const char *set)
{
	return s[0] != '\0' && strspn(s, set) == strlen(s);
}

int
wa_media_ul_url(const char *host, const char *mms_type,
    const uint8_t file_enc_sha256[WA_MEDIA_HASH_LEN], const char *auth,
    bool plain_http, char *out, size_t len)
{
	char		 tok[sodium_base64_ENCODED_LEN(WA_MEDIA_HASH_LEN,
			    sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
	struct buf	 a = { 0 };
	const char	*p;
	char		 esc[4];
	int		 n;

	if (host == NULL || mms_type == NULL || file_enc_sha256 == NULL ||
	    auth == NULL || out == NULL || len == 0 || auth[0] == '\0' ||
	    strlen(host) >= 256 || !all_of(host, host_chars) ||
	    !all_of(mms_type, "abcdefghijklmnopqrstuvwxyz0123456789-"))
		return -EINVAL;
	sodium_bin2base64(tok, sizeof(tok), file_enc_sha256,
	    WA_MEDIA_HASH_LEN, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	/* auth percent-encoded as encodeURIComponent does ([BL]). */
	for (p = auth; *p != '\0'; p++) {
		if (strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		    "0123456789-_.!~*'()", *p) != NULL)
			buf_append(&a, p, 1);
		else {
			snprintf(esc, sizeof(esc), "%%%02X", (unsigned char)*p);
			buf_append(&a, esc, 3);
		}
	}
	buf_append(&a, "", 1);
	n = snprintf(out, len, "%s://%s/mms/%s/%s?auth=%s&token=%s",
	    plain_http ? "http" : "https", host, mms_type, tok,
	    (const char *)a.p, tok);
	buf_release(&a);
	if (n < 0 || (size_t)n >= len)
		return WC_ETOOBIG;
	return 0;
}

/* A string field of o into out; 0, 1 when absent, or an error. */
static int
field(struct json_object *o, const char *key, char *out)
{
	struct json_object	*v;
	const char		*s;
	size_t			 n, i;

	if (!json_object_object_get_ex(o, key, &v) || v == NULL)
		return 1;
	if (!json_object_is_type(v, json_type_string))
		return WC_EPROTO;
	s = json_object_get_string(v);
	n = (size_t)json_object_get_string_len(v);
	if (n >= WA_MEDIA_UL_FIELD_MAX)
		return WC_ETOOBIG;
	for (i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return WC_EPROTO;
	memcpy(out, s, n);
	out[n] = '\0';
	return n > 0 ? 0 : 1;
}

int
wa_media_ul_answer(const char *body, size_t len,
    char url[WA_MEDIA_UL_FIELD_MAX], char direct_path[WA_MEDIA_UL_FIELD_MAX])
{
	struct json_tokener	*t;
	struct json_object	*o;
	char			 u[WA_MEDIA_UL_FIELD_MAX];
	char			 d[WA_MEDIA_UL_FIELD_MAX];
	int			 ru, rd, rc;

	if (body == NULL || len > WA_MEDIA_UL_ANSWER_MAX)
		return WC_ETOOBIG;
	/* A depth cap: the answer is one flat object. */
	if ((t = json_tokener_new_ex(8)) == NULL)
		return -ENOMEM;
	o = json_tokener_parse_ex(t, body, (int)len);
	if (o != NULL && json_tokener_get_parse_end(t) < len &&
	    strspn(body + json_tokener_get_parse_end(t), " \t\r\n") !=
	    len - json_tokener_get_parse_end(t)) {
		json_object_put(o);
		o = NULL;
	}
	json_tokener_free(t);
	if (o == NULL || !json_object_is_type(o, json_type_object)) {
		json_object_put(o);
		return WC_EPROTO;
	}
	u[0] = d[0] = '\0';
	ru = field(o, "url", u);
	rd = field(o, "direct_path", d);
	json_object_put(o);
	if (ru < 0 || rd < 0)
		return ru < 0 ? ru : rd;
	rc = ru == 1 && rd == 1 ? WC_EPROTO : 0;
	if (rc == 0 && rd == 0 && d[0] != '/')
		rc = WC_EPROTO;
	if (rc == 0) {
		memcpy(url, u, sizeof(u));
		memcpy(direct_path, d, sizeof(d));
	}
	return rc;
}

/* --- the upload on a worker --- */

struct wa_media_ul {
	uv_work_t		 req;
	uv_async_t		 tick;
	char			*hosts[WA_MEDIA_UL_HOSTS_MAX];
	size_t			 nhosts;
	char			*auth, *mms_type, *ca_file;
	uint8_t			 enc_sha[WA_MEDIA_HASH_LEN];
	bool			 plain_http;
	uint32_t		 connect_timeout_ms, stall_timeout_ms;
	int			 fd;
	uint64_t		 size;
	atomic_bool		 cancelled;
	_Atomic uint64_t	 sent;
	wa_media_ul_done_fn	 done;
	wa_media_ul_progress_fn	 progress;
	void			*arg;
	struct buf		 body;		/* the answer, capped */
	bool			 body_big;
	/* Results, written by the worker. */
	enum wa_media_ul_end	 end;
	int			 err;
	long			 status;
	char			 url[WA_MEDIA_UL_FIELD_MAX];
	char			 direct_path[WA_MEDIA_UL_FIELD_MAX];
	char			 why[256];
};

static size_t
on_read(char *p, size_t size, size_t n, void *arg)
{
	struct wa_media_ul	*u = arg;
	ssize_t			 r;

	do
		r = read(u->fd, p, size * n);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		return CURL_READFUNC_ABORT;
	return (size_t)r;
}

static size_t
on_answer(char *p, size_t size, size_t n, void *arg)
{
	struct wa_media_ul	*u = arg;

	if (u->body.len + size * n > WA_MEDIA_UL_ANSWER_MAX) {
		u->body_big = true;
		return 0;
	}
	buf_append(&u->body, p, size * n);
	return size * n;
}

static int
on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
    curl_off_t un)
{
	struct wa_media_ul	*u = arg;

	(void)dt;
	(void)dn;
	(void)ut;
	if (atomic_load(&u->cancelled))
		return 1;
	atomic_store(&u->sent, (uint64_t)un);
	(void)uv_async_send(&u->tick);
	return 0;
}

static CURLcode
on_ssl_ctx(CURL *c, void *ssl_ctx, void *arg)
{
	struct wa_media_ul	*u = arg;
	X509_STORE		*st = SSL_CTX_get_cert_store(ssl_ctx);

	(void)c;
	if (st == NULL || X509_STORE_load_file(st, u->ca_file) != 1)
		return CURLE_SSL_CACERT_BADFILE;
	return CURLE_OK;
}

static void
setup(struct wa_media_ul *u, CURL *c, const char *url, struct curl_slist *hl)
{
	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_POST, 1L);
	curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)u->size);
	curl_easy_setopt(c, CURLOPT_READFUNCTION, on_read);
	curl_easy_setopt(c, CURLOPT_READDATA, u);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_answer);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, u);
	curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
	    (long)u->connect_timeout_ms);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME,
	    (long)((u->stall_timeout_ms + 999) / 1000));
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, u);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "Mozilla/5.0 (X11; Linux "
	    "x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 "
	    "Safari/537.36");
	curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
	if (u->ca_file != NULL) {
		curl_easy_setopt(c, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
		curl_easy_setopt(c, CURLOPT_SSL_CTX_DATA, u);
	}
}

/* One host: 0 done (OK or AUTH: stop), 1 try the next host. */
static int
try_host(struct wa_media_ul *u, const char *host, struct curl_slist *hl)
{
	char	 url[4096];
	CURL	*c;
	CURLcode cc;
	int	 rc;

	if (wa_media_ul_url(host, u->mms_type, u->enc_sha, u->auth,
	    u->plain_http, url, sizeof(url)) != 0) {
		u->err = -EINVAL;
		snprintf(u->why, sizeof(u->why), "no upload URL for %s", host);
		return 1;
	}
	if (lseek(u->fd, 0, SEEK_SET) != 0) {
		u->end = WA_MEDIA_UL_LOCAL;
		u->err = -errno;
		snprintf(u->why, sizeof(u->why), "cannot rewind the file: %s",
		    strerror(errno));
		return 0;
	}
	if ((c = curl_easy_init()) == NULL) {
		u->err = -ENOMEM;
		snprintf(u->why, sizeof(u->why), "cannot start a transfer");
		return 1;
	}
	u->body.len = 0;
	u->body_big = false;
	u->status = 0;
	setup(u, c, url, hl);
	cc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &u->status);
	curl_easy_cleanup(c);
	if (cc == CURLE_ABORTED_BY_CALLBACK)
		return 0;	/* cancelled: nothing is reported */
	if (cc != CURLE_OK && !u->body_big) {
		u->err = cc == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT : -EIO;
		snprintf(u->why, sizeof(u->why), "cannot upload to %s: %s",
		    host, curl_easy_strerror(cc));
		return 1;
	}
	if (u->status == 401 || u->status == 403) {
		u->end = WA_MEDIA_UL_AUTH;
		u->err = -EPROTO;
		snprintf(u->why, sizeof(u->why), "%s refused the upload's auth "
		    "(HTTP %ld)", host, u->status);
		return 0;
	}
	rc = u->status == 200 && !u->body_big ? wa_media_ul_answer(
	    (const char *)u->body.p, u->body.len, u->url, u->direct_path) :
	    WC_EPROTO;
	if (rc != 0) {
		u->err = -EPROTO;
		snprintf(u->why, sizeof(u->why), "%s answered the upload with "
		    "HTTP %ld and no url or direct_path", host, u->status);
		return 1;
	}
	u->end = WA_MEDIA_UL_OK;
	u->err = 0;
	u->why[0] = '\0';
	return 0;
}

static void
work(uv_work_t *req)
{
	struct wa_media_ul	*u = req->data;
	struct curl_slist	*hl = NULL, *t;
	static const char *const hdrs[] = {
		"Origin: https://web.whatsapp.com",
		"Referer: https://web.whatsapp.com/",
		"Content-Type: application/octet-stream",
		"Expect:",	/* no 100-continue round trip */
	};
	size_t			 i;

	for (i = 0; i < sizeof(hdrs) / sizeof(hdrs[0]); i++)
		if ((t = curl_slist_append(hl, hdrs[i])) != NULL)
			hl = t;
	u->end = WA_MEDIA_UL_FAILED;
	for (i = 0; i < u->nhosts && !atomic_load(&u->cancelled); i++)
		if (try_host(u, u->hosts[i], hl) == 0)
			break;
	curl_slist_free_all(hl);
	if (u->end != WA_MEDIA_UL_OK)
		u->url[0] = u->direct_path[0] = '\0';
}

static void
ul_free(struct wa_media_ul *u)
{
	size_t	 i;

	if (u->fd >= 0)
		(void)close(u->fd);
	for (i = 0; i < u->nhosts; i++)
		free(u->hosts[i]);
	if (u->auth != NULL) {
		sodium_memzero(u->auth, strlen(u->auth));
		free(u->auth);
	}
	free(u->mms_type);
	free(u->ca_file);
	buf_release(&u->body);
	free(u);
}

static void
release(uv_handle_t *h)
{
	ul_free(h->data);
}

static void
on_tick(uv_async_t *a)
{
	struct wa_media_ul	*u = a->data;

	if (u->progress != NULL && !atomic_load(&u->cancelled))
		u->progress(u->arg, atomic_load(&u->sent), u->size);
}

static void
after_work(uv_work_t *req, int status)
{
	struct wa_media_ul	*u = req->data;

	if (status == 0 && !atomic_load(&u->cancelled))
		u->done(u->arg, u->end, u->err, u->status, u->url,
		    u->direct_path, u->why);
	uv_close((uv_handle_t *)&u->tick, release);
}

/* Check r's fields; the number of hosts, or -EINVAL. */
static int
check_req(const struct wa_media_ul_req *r)
{
	size_t	 n;

	if (r == NULL || r->auth == NULL || r->auth[0] == '\0' ||
	    r->mms_type == NULL || r->path == NULL ||
	    r->file_enc_sha256 == NULL || r->connect_timeout_ms == 0 ||
	    r->stall_timeout_ms == 0 ||
	    !all_of(r->mms_type, "abcdefghijklmnopqrstuvwxyz0123456789-"))
		return -EINVAL;
	for (n = 0; n < WA_MEDIA_UL_HOSTS_MAX && r->hosts[n] != NULL; n++)
		if (strlen(r->hosts[n]) >= 256 ||
		    !all_of(r->hosts[n], host_chars))
			return -EINVAL;
	return n > 0 ? (int)n : -EINVAL;
}

int
wa_media_ul_start(uv_loop_t *loop, const struct wa_media_ul_req *r,
    wa_media_ul_done_fn done, wa_media_ul_progress_fn progress, void *arg,
    struct wa_media_ul **out)
{
	struct wa_media_ul	*u;
	struct stat		 st;
	size_t			 i;
	int			 n, fd, rc;

	if (loop == NULL || done == NULL || out == NULL ||
	    (n = check_req(r)) < 0)
		return -EINVAL;
	if ((fd = open(r->path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		rc = errno != 0 ? -errno : -EINVAL;
		(void)close(fd);
		return rc;
	}
	wa_http_curl_init();
	u = xcalloc(1, sizeof(*u));
	u->fd = fd;
	u->size = (uint64_t)st.st_size;
	u->nhosts = (size_t)n;
	for (i = 0; i < u->nhosts; i++)
		u->hosts[i] = xstrdup(r->hosts[i]);
	u->auth = xstrdup(r->auth);
	u->mms_type = xstrdup(r->mms_type);
	u->ca_file = r->ca_file != NULL ? xstrdup(r->ca_file) : NULL;
	memcpy(u->enc_sha, r->file_enc_sha256, WA_MEDIA_HASH_LEN);
	u->plain_http = r->plain_http;
	u->connect_timeout_ms = r->connect_timeout_ms;
	u->stall_timeout_ms = r->stall_timeout_ms;
	atomic_init(&u->cancelled, false);
	atomic_init(&u->sent, 0);
	u->done = done;
	u->progress = progress;
	u->arg = arg;
	u->req.data = u;
	u->tick.data = u;
	if ((rc = uv_async_init(loop, &u->tick, on_tick)) != 0) {
		ul_free(u);
		return rc;
	}
	if ((rc = uv_queue_work(loop, &u->req, work, after_work)) != 0) {
		uv_close((uv_handle_t *)&u->tick, release);
		return rc;
	}
	*out = u;
	return 0;
}

void
wa_media_ul_cancel(struct wa_media_ul *u)
{
	if (u == NULL)
		return;
	atomic_store(&u->cancelled, true);
	(void)uv_cancel((uv_req_t *)&u->req);
}
