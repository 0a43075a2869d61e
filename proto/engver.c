/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/engver.c -- sw.js look-up and scraper (proto/engver.h).  The
 * transfer is a blocking libcurl easy handle on a libuv worker thread
 * (uv_queue_work), so the engine's loop never waits on the network; a
 * cancel flag read by curl's progress callback ends it early.
 */
#include "compat.h"

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

#define LOG_TAG "eng"

#include "buf.h"
#include "engver.h"
#include "err.h"
#include "log.h"
#include "xmalloc.h"

#define KEY	"client_revision"

struct wa_engver {
	uv_work_t		 req;
	char			*url, *ca_file;
	uint32_t		 timeout_ms;
	atomic_bool		 cancelled;
	wa_engver_done_fn	 done;
	void			*arg;
	/* Results, written by the worker. */
	int			 err;
	uint32_t		 rev;
	char			 why[256];
	struct buf		 body;
	bool			 too_big;
};

int
wa_engver_parse(const char *p, size_t len, uint32_t *rev)
{
	size_t	 klen = strlen(KEY), i, j;

	for (i = 0; i + klen <= len; i++) {
		uint64_t	 v = 0;
		size_t		 nd = 0;

		if (memcmp(p + i, KEY, klen) != 0)
			continue;
		/* \\?" before the key */
		if (i == 0 || p[i - 1] != '"')
			continue;
		j = i + klen;
		if (j < len && p[j] == '\\')
			j++;
		if (j >= len || p[j] != '"')
			continue;
		if (++j >= len || p[j] != ':')
			continue;
		j++;
		while (j < len && (p[j] == ' ' || p[j] == '\t' ||
		    p[j] == '\n' || p[j] == '\r' || p[j] == '\f' ||
		    p[j] == '\v'))
			j++;
		while (j < len && p[j] >= '0' && p[j] <= '9') {
			if (v <= UINT32_MAX)
				v = v * 10 + (uint64_t)(p[j] - '0');
			nd++;
			j++;
		}
		if (nd == 0)
			continue;
		if (v > UINT32_MAX)
			return WC_ETOOBIG;
		*rev = (uint32_t)v;
		return 0;
	}
	return -ENOENT;
}

/* --- the worker --- */

static size_t
on_body(char *p, size_t size, size_t n, void *arg)
{
	struct wa_engver	*l = arg;
	size_t			 len = size * n;

	if (l->body.len + len > WA_ENGVER_MAX_BODY) {
		l->too_big = true;
		return 0;	/* CURLE_WRITE_ERROR */
	}
	buf_append(&l->body, p, len);
	return len;
}

static int
on_progress(void *arg, curl_off_t dt, curl_off_t dn, curl_off_t ut,
    curl_off_t un)
{
	struct wa_engver	*l = arg;

	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	return atomic_load(&l->cancelled) ? 1 : 0;
}

/* The extra CA file, added to the store of the system's CAs. */
static CURLcode
on_ssl_ctx(CURL *c, void *ssl_ctx, void *arg)
{
	struct wa_engver	*l = arg;
	X509_STORE		*st = SSL_CTX_get_cert_store(ssl_ctx);

	(void)c;
	if (st == NULL || X509_STORE_load_file(st, l->ca_file) != 1)
		return CURLE_SSL_CACERT_BADFILE;
	return CURLE_OK;
}

static void
work(uv_work_t *req)
{
	struct wa_engver	*l = req->data;
	CURL			*c;
	CURLcode		 cc;
	long			 status = 0;
	char			 errbuf[CURL_ERROR_SIZE];
	int			 rc;

	if ((c = curl_easy_init()) == NULL) {
		l->err = -ENOMEM;
		snprintf(l->why, sizeof(l->why), "libcurl could not start");
		return;
	}
	errbuf[0] = '\0';
	curl_easy_setopt(c, CURLOPT_URL, l->url);
	curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 1L);
	curl_easy_setopt(c, CURLOPT_MAXREDIRS, 3L);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, (long)l->timeout_ms);
	curl_easy_setopt(c, CURLOPT_MAXFILESIZE_LARGE,
	    (curl_off_t)WA_ENGVER_MAX_BODY);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, l);
	curl_easy_setopt(c, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(c, CURLOPT_XFERINFOFUNCTION, on_progress);
	curl_easy_setopt(c, CURLOPT_XFERINFODATA, l);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "Mozilla/5.0 (X11; Linux "
	    "x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
	    "Chrome/124.0 Safari/537.36");
	if (l->ca_file != NULL) {
		curl_easy_setopt(c, CURLOPT_SSL_CTX_FUNCTION, on_ssl_ctx);
		curl_easy_setopt(c, CURLOPT_SSL_CTX_DATA, l);
	}
	cc = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &status);
	curl_easy_cleanup(c);
	if (cc != CURLE_OK) {
		if (l->too_big || cc == CURLE_FILESIZE_EXCEEDED) {
			l->err = WC_ETOOBIG;
			snprintf(l->why, sizeof(l->why), "%s is larger than "
			    "%u bytes", l->url, WA_ENGVER_MAX_BODY);
		} else {
			l->err = cc == CURLE_OPERATION_TIMEDOUT ? -ETIMEDOUT :
			    -EIO;
			snprintf(l->why, sizeof(l->why), "cannot fetch %s: %s",
			    l->url, errbuf[0] != '\0' ? errbuf :
			    curl_easy_strerror(cc));
		}
		return;
	}
	if (status < 200 || status > 299) {
		l->err = -EIO;
		snprintf(l->why, sizeof(l->why), "%s answered HTTP %ld",
		    l->url, status);
		return;
	}
	if ((rc = wa_engver_parse((const char *)l->body.p, l->body.len,
	    &l->rev)) != 0) {
		l->err = rc;
		snprintf(l->why, sizeof(l->why), "%s carries %s", l->url,
		    rc == -ENOENT ? "no client_revision" :
		    "a client_revision too large");
		return;
	}
	l->err = 0;
}

static void
after_work(uv_work_t *req, int status)
{
	struct wa_engver	*l = req->data;

	if (status != 0 && l->err == 0) {
		l->err = status;
		snprintf(l->why, sizeof(l->why), "the look-up was cancelled");
	}
	if (!atomic_load(&l->cancelled)) {
		if (l->err != 0)
			log_warn("version look-up: %s", l->why);
		l->done(l->arg, l->err, l->rev, l->why);
	}
	buf_release(&l->body);
	free(l->url);
	free(l->ca_file);
	free(l);
}

static uv_once_t	 curl_once = UV_ONCE_INIT;

static void
curl_init_once(void)
{
	/* curl_global_init is not thread-safe everywhere: once, here. */
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		log_error("curl_global_init failed");
}

int
wa_engver_lookup(uv_loop_t *loop, const char *url, const char *ca_file,
    uint32_t timeout_ms, wa_engver_done_fn done, void *arg,
    struct wa_engver **out)
{
	struct wa_engver	*l;
	int			 rc;

	if (url == NULL)
		url = WA_ENGVER_DEFAULT_URL;
	if (done == NULL || (strncasecmp(url, "http://", 7) != 0 &&
	    strncasecmp(url, "https://", 8) != 0))
		return -EINVAL;
	uv_once(&curl_once, curl_init_once);
	l = xcalloc(1, sizeof(*l));
	l->url = xstrdup(url);
	l->ca_file = ca_file != NULL ? xstrdup(ca_file) : NULL;
	l->timeout_ms = timeout_ms != 0 ? timeout_ms : WA_ENGVER_TIMEOUT_MS;
	atomic_init(&l->cancelled, false);
	l->done = done;
	l->arg = arg;
	l->req.data = l;
	if ((rc = uv_queue_work(loop, &l->req, work, after_work)) != 0) {
		free(l->url);
		free(l->ca_file);
		free(l);
		return rc;
	}
	*out = l;
	return 0;
}

void
wa_engver_cancel(struct wa_engver *l)
{
	if (l == NULL)
		return;
	atomic_store(&l->cancelled, true);
	/* Not started yet: it ends now (after_work gets UV_ECANCELED). */
	(void)uv_cancel((uv_req_t *)&l->req);
}
