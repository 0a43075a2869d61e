/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/engver.c -- the version look-up and its scraper
 * (proto/engver.h).  The transfer is proto/http-get.h's: off the
 * engine's loop.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <uv.h>

#define LOG_TAG "eng"

#include "proto/engver.h"
#include "base/err.h"
#include "proto/http-get.h"
#include "base/log.h"
#include "base/xmalloc.h"

#define KEY	"client_revision"

struct wa_engver {
	struct wa_http_get	*get;
	char			*url;
	wa_engver_done_fn	 done;
	void			*arg;
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

/* --- the look-up, over proto/http-get.h --- */

static void
on_done(void *arg, int err, long status, uint8_t *body, size_t len,
    const char *why)
{
	struct wa_engver	*l = arg;
	char			 msg[300];
	uint32_t		 rev = 0;
	int			 rc = err;

	l->get = NULL;
	if (err != 0)
		snprintf(msg, sizeof(msg), "%s", why);
	else if (status < 200 || status > 299) {
		rc = -EIO;
		snprintf(msg, sizeof(msg), "%s answered HTTP %ld", l->url,
		    status);
	} else if ((rc = wa_engver_parse((const char *)body, len, &rev)) !=
	    0)
		snprintf(msg, sizeof(msg), "%s carries %s", l->url,
		    rc == -ENOENT ? "no client_revision" :
		    "a client_revision too large");
	else
		msg[0] = '\0';
	free(body);
	if (rc != 0)
		log_warn("version look-up: %s", msg);
	l->done(l->arg, rc, rev, msg);
	free(l->url);
	free(l);
}

int
wa_engver_lookup(uv_loop_t *loop, const char *url, const char *ca_file,
    uint32_t timeout_ms, wa_engver_done_fn done, void *arg,
    struct wa_engver **out)
{
	struct wa_http_req	 r;
	struct wa_engver	*l;
	int			 rc;

	if (url == NULL)
		url = WA_ENGVER_DEFAULT_URL;
	if (done == NULL || (strncasecmp(url, "http://", 7) != 0 &&
	    strncasecmp(url, "https://", 8) != 0))
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	r.url = url;
	r.ca_file = ca_file;
	r.timeout_ms = timeout_ms != 0 ? timeout_ms : WA_ENGVER_TIMEOUT_MS;
	r.max_body = WA_ENGVER_MAX_BODY;
	/* a browser's navigation to the page ([WM] GetLatestVersion) */
	r.headers[0] = "User-Agent: " WA_ENGVER_UA;
	r.headers[1] = "Accept: text/html,application/xhtml+xml,"
	    "application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;"
	    "q=0.8,application/signed-exchange;v=b3;q=0.7";
	r.headers[2] = "Accept-Language: en-US,en;q=0.9";
	r.headers[3] = "Sec-Fetch-Dest: document";
	r.headers[4] = "Sec-Fetch-Mode: navigate";
	r.headers[5] = "Sec-Fetch-Site: none";
	r.headers[6] = "Sec-Fetch-User: ?1";
	l = xcalloc(1, sizeof(*l));
	l->url = xstrdup(url);
	l->done = done;
	l->arg = arg;
	if ((rc = wa_http_get(loop, &r, on_done, l, &l->get)) != 0) {
		free(l->url);
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
	wa_http_get_cancel(l->get);
	free(l->url);
	free(l);
}
