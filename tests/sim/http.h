/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/http.h -- a minimal HTTP/1.1 server on a libuv loop, for the
 * simulator's admin interface: one request per connection (the answer
 * carries "Connection: close"), a Content-Length body of at most
 * SIM_HTTP_MAX_BODY bytes, no chunked encoding.  Loop thread only.
 */
#ifndef SIM_HTTP_H
#define SIM_HTTP_H

#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "base/buf.h"

#define SIM_HTTP_MAX_HEAD	(16u << 10)	/* bytes of request line + headers */
#define SIM_HTTP_MAX_BODY	(1u << 20)	/* bytes of a request body */

struct sim_http;

/* One request, borrowed for the duration of the handler call. */
struct sim_http_req {
	const char	*method;	/* "GET", "POST", ... */
	const char	*path;		/* without the query string */
	const char	*query;		/* after '?', or "" */
	const uint8_t	*body;		/* body bytes, NUL-terminated copy */
	size_t		 body_len;	/* bytes */
	const char	*head;		/* the head from the request line's
					 * HTTP version on, for
					 * sim_http_header() */
};

/* Or'ed into a handler's status: send the body as text/javascript, or
 * as text/html. */
#define SIM_HTTP_JS	0x10000
#define SIM_HTTP_HTML	0x20000

/*
 * The value of the request header name (case-insensitive) into
 * val[0..vlen), cut to fit, NUL-terminated: val, or NULL when the
 * request has no such header.
 */
const char	*sim_http_header(const struct sim_http_req *req,
		    const char *name, char *val, size_t vlen);

/*
 * Handles req: appends the response body to out and returns the HTTP
 * status (200, 404, ...).  The body is sent with Content-Type
 * application/json, or text/javascript with SIM_HTTP_JS.
 */
typedef int (*sim_http_handler)(void *arg, const struct sim_http_req *req,
    struct buf *out);

/*
 * Listen on host:port (port 0 picks a free one) and serve requests with
 * handler(arg, ...).  Returns 0 and *out; *port_out is the bound port.
 * Errors: negative libuv codes (UV_EADDRINUSE, ...).
 */
int	sim_http_start(uv_loop_t *loop, const char *host, int port,
	    sim_http_handler handler, void *arg, struct sim_http **out,
	    int *port_out);

/*
 * Stop listening and close every open connection; the memory is freed
 * by the close callbacks, so the loop must run afterwards.  NULL is a
 * no-op.
 */
void	sim_http_stop(struct sim_http *h);

#endif
