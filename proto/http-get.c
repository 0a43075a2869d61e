/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/http-get.c -- one HTTP(S) GET on a libuv worker (proto/http-get.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <uv.h>

#define LOG_TAG "http"

#include "base/buf.h"
#include "base/err.h"
#include "proto/http-get.h"
#include "base/log.h"
#include "base/xmalloc.h"

struct wa_http_get {
	uv_work_t		 req;
	char			*url, *ca_file, *host;
	char			*headers[WA_HTTP_HEADERS_MAX];
	uint32_t		 timeout_ms;
	size_t			 max_body;
	atomic_bool		 cancelled;
	wa_http_done_fn		 done;
	void			*arg;
	/* Results, written by the worker. */
	int			 err;
	long			 status;
	char			 why[256];
	struct buf		 body;
	bool			 too_big;
};

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct wa_http_get	*g = arg;
	size_t			 len = size * n;

	if (g->body.len + len > g->max_body) {
		g->too_big = true;
		return 0;	/* CURLE_WRITE_ERROR */
	}
	buf_append(&g->body, p, len);
	return len;
}

static int
on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
    curl_off_t un)
{
	struct wa_http_get	*g = arg;

	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	return atomic_load(&g->cancelled) ? 1 : 0;
}

/* The extra CA file, added to the store of the system's CAs. */
static CURLcode
on_ssl_ctx(CURL *c, void *ssl_ctx, void *arg)
{
	struct wa_http_get	*g = arg;
	X509_STORE		*st = SSL_CTX_get_cert_store(ssl_ctx);

	(void)c;
	if (st == NULL || X509_STORE_load_file(st, g->ca_file) != 1)
		return CURLE_SSL_CACERT_BADFILE;
	return CURLE_OK;
}

static void
work(uv_work_t *req)
{
	struct wa_http_get	*g = req->data;
	struct curl_slist	*hl = NULL, *t;
	CURL			*c;
	CURLcode		 cc;
	char			 errbuf[CURL_ERROR_SIZE];
	size_t			 i;

	errbuf[0] = '\0';
	if ((c = curl_easy_init()) == NULL) {
		g->err = -ENOMEM;
		snprintf(g->why, sizeof(g->why), "cannot start a transfer");
		return;
	}
	for (i = 0; i < WA_HTTP_HEADERS_MAX && g->headers[i] != NULL; i++)
		if ((t = curl_slist_append(hl, g->headers[i])) != NULL)
			hl = t;
	curl_easy_setopt(c, CURLOPT_URL, g->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 3L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)g->timeout_ms);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
	    (curl_off_t)g->max_body);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, g);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, g);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "Mozilla/5.0 (X11; Linux "
	    "x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 "
	    "Safari/537.36");
	if (hl != NULL)
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, hl);
	if (g->ca_file != NULL) {
		curl_easy_setopt(c, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
		curl_easy_setopt(c, CURLOPT_SSL_CTX_DATA, g);
	}
	cc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &g->status);
	curl_easy_cleanup(c);
	curl_slist_free_all(hl);
	if (cc == CURLE_OK) {
		g->err = 0;
		return;
	}
	if (g->too_big || cc == CURLE_FILESIZE_EXCEEDED) {
		g->err = WC_ETOOBIG;
		snprintf(g->why, sizeof(g->why), "the answer of %s is larger "
		    "than %zu bytes", g->host, g->max_body);
	} else if (cc == CURLE_ABORTED_BY_CALLBACK) {
		g->err = -ECANCELED;
		snprintf(g->why, sizeof(g->why), "the transfer was cancelled");
	} else {
		g->err = cc == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT : -EIO;
		snprintf(g->why, sizeof(g->why), "cannot fetch from %s: %s",
		    g->host, curl_easy_strerror(cc));
	}
}

static void
release(struct wa_http_get *g)
{
	size_t	 i;

	buf_release(&g->body);
	for (i = 0; i < WA_HTTP_HEADERS_MAX; i++)
		free(g->headers[i]);
	free(g->url);
	free(g->host);
	free(g->ca_file);
	free(g);
}

static void
after_work(uv_work_t *req, int status)
{
	struct wa_http_get	*g = req->data;
	uint8_t			*body;
	size_t			 len;

	if (status != 0 && g->err == 0) {
		g->err = -ECANCELED;
		snprintf(g->why, sizeof(g->why), "the transfer was cancelled");
	}
	if (!atomic_load(&g->cancelled)) {
		if (g->err != 0)
			g->done(g->arg, g->err, 0, NULL, 0, g->why);
		else {
			len = g->body.len;
			body = g->body.p != NULL ? g->body.p : xmalloc(1);
			g->body.p = NULL;
			g->body.len = 0;
			g->done(g->arg, 0, g->status, body, len, "");
		}
	}
	release(g);
}

static uv_once_t	 curl_once = UV_ONCE_INIT;

static void
curl_init_once(void)
{
	/* curl_global_init is not thread-safe everywhere: once, here. */
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		log_error("curl_global_init failed");
}

void
wa_http_curl_init(void)
{
	uv_once(&curl_once, curl_init_once);
}

char *
wa_http_host_of(const char *url)
{
	const char	*p = strstr(url, "://");
	size_t		 n;
	char		*h;

	p = p != NULL ? p + 3 : url;
	n = strcspn(p, "/?#");
	h = xmalloc(n + 1);
	memcpy(h, p, n);
	h[n] = '\0';
	return h;
}

int
wa_http_get(uv_loop_t *loop, const struct wa_http_req *r,
    wa_http_done_fn done, void *arg, struct wa_http_get **out)
{
	struct wa_http_get	*g;
	size_t			 i;
	int			 rc;

	if (r == NULL || r->url == NULL || done == NULL || out == NULL ||
	    r->timeout_ms == 0 || r->max_body == 0 ||
	    (strncasecmp(r->url, "http://", 7) != 0 &&
	    strncasecmp(r->url, "https://", 8) != 0))
		return -EINVAL;
	wa_http_curl_init();
	g = xcalloc(1, sizeof(*g));
	g->url = xstrdup(r->url);
	g->host = wa_http_host_of(r->url);
	g->ca_file = r->ca_file != NULL ? xstrdup(r->ca_file) : NULL;
	for (i = 0; i < WA_HTTP_HEADERS_MAX && r->headers[i] != NULL; i++)
		g->headers[i] = xstrdup(r->headers[i]);
	g->timeout_ms = r->timeout_ms;
	g->max_body = r->max_body;
	atomic_init(&g->cancelled, false);
	g->done = done;
	g->arg = arg;
	g->req.data = g;
	if ((rc = uv_queue_work(loop, &g->req, work, after_work)) != 0) {
		release(g);
		return rc;
	}
	*out = g;
	return 0;
}

void
wa_http_get_cancel(struct wa_http_get *g)
{
	if (g == NULL)
		return;
	atomic_store(&g->cancelled, true);
	/* Not started yet: it ends now (after_work gets UV_ECANCELED). */
	(void)uv_cancel((uv_req_t *)&g->req);
}
