/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/http-get.h -- one HTTP(S) GET off the engine's loop: a blocking
 * libcurl easy handle on a libuv worker thread (uv_queue_work), so the
 * loop never waits on the network; the answer is handed back on the
 * loop's thread.  Used for the WhatsApp Web version look-up
 * (proto/engver.c) and for media and history-sync blobs (protocol.md
 * 12.2, 14.2).  A cancel flag read by curl's progress callback ends a
 * transfer early.
 */
#ifndef WA_HTTP_GET_H
#define WA_HTTP_GET_H

#include <stddef.h>
#include <stdint.h>

struct uv_loop_s;
struct wa_http_get;

#define WA_HTTP_HEADERS_MAX	8	/* extra request headers */

/* What to fetch.  Strings borrowed for the call (copied). */
struct wa_http_req {
	const char	*url;		/* http:// or https:// */
	const char	*ca_file;	/* PEM added to the system's CAs; or
					 * NULL */
	uint32_t	 timeout_ms;	/* the whole transfer; > 0 */
	size_t		 max_body;	/* bytes; a longer body fails with
					 * WC_ETOOBIG; > 0 */
	const char	*headers[WA_HTTP_HEADERS_MAX]; /* "Name: value";
					 * NULL-terminated early */
};

/*
 * Called once on the loop's thread when the transfer ends (never after
 * wa_http_get_cancel()): err 0 with HTTP status and body[0..len) (the
 * body is the callee's to keep: free() it), or err < 0 (-ETIMEDOUT,
 * -EIO for a network or TLS error, WC_ETOOBIG, -ECANCELED) with why, an
 * English sentence for the log and the user (no secrets: the URL's query
 * is not in it), and body NULL.  A non-2xx status is err 0: the caller
 * judges it.
 */
typedef void	(*wa_http_done_fn)(void *arg, int err, long status,
		    uint8_t *body, size_t len, const char *why);

/*
 * Start fetching r on loop; done(arg, ...) reports.  Returns 0 and *out
 * (a handle for wa_http_get_cancel(), valid until done runs).  Errors:
 * -EINVAL (no URL, not http(s), timeout or max_body 0, done NULL),
 * libuv's errors.  Loop thread only.
 */
MUST_CHECK int	wa_http_get(struct uv_loop_s *loop, const struct wa_http_req *r,
		    wa_http_done_fn done, void *arg, struct wa_http_get **out);

/* Stop g: done is not called; the worker ends soon and frees it.  NULL
 * is a no-op.  Loop thread only. */
void		wa_http_get_cancel(struct wa_http_get *g);

/*
 * libcurl's global set-up, once per process whoever asks first (every
 * module that makes curl handles calls it before its first; one guard,
 * as curl_global_init() must not run twice at once).  Any thread.
 */
void		wa_http_curl_init(void);

/*
 * The host part of url ("https://host:port/path?q" -> "host:port"), for
 * log lines and messages that must not carry a path or query.  Returns a
 * new string, the caller's to free(); never NULL (xmalloc).  Any thread.
 */
char		*wa_http_host_of(const char *url);

#endif
