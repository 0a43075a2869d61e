/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/sim/http.c -- a minimal HTTP/1.1 server for the admin interface. */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <uv.h>

#include "base/buf.h"
#include "http.h"
#include "base/xmalloc.h"

struct client;

struct sim_http {
	uv_tcp_t		 listener;
	sim_http_handler	 handler;
	void			*arg;
	struct client		*clients;	/* open connections */
	bool			 stopping;
};

struct client {
	uv_tcp_t		 tcp;
	struct sim_http		*h;
	struct client		*next, **prevp;
	struct buf		 in;		/* request bytes so far */
	size_t			 head_len;	/* 0 until the head is complete */
	size_t			 body_len;	/* Content-Length */
	bool			 answered;	/* response written, now closing */
	bool			 continued;	/* sent 100 Continue */
};

struct wreq {
	uv_write_t		 req;
	struct buf		 data;
	struct client		*c;
	bool			 close_after;
};

static void
client_closed(uv_handle_t *hd)
{
	struct client	*c = hd->data;

	buf_release(&c->in);
	free(c);
}

static void
client_close(struct client *c)
{
	if (uv_is_closing((uv_handle_t *)&c->tcp))
		return;
	if (c->prevp != NULL) {
		*c->prevp = c->next;
		if (c->next != NULL)
			c->next->prevp = c->prevp;
		c->prevp = NULL;
	}
	uv_close((uv_handle_t *)&c->tcp, client_closed);
}

static void
written(uv_write_t *req, int status)
{
	struct wreq	*w = (struct wreq *)req;

	(void)status;
	if (w->close_after)
		client_close(w->c);
	buf_release(&w->data);
	free(w);
}

static void
send_bytes(struct client *c, const void *p, size_t len, bool close_after)
{
	struct wreq	*w = xcalloc(1, sizeof(*w));
	uv_buf_t	 b;

	w->c = c;
	w->close_after = close_after;
	buf_append(&w->data, p, len);
	b = uv_buf_init((char *)w->data.p, (unsigned)w->data.len);
	if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1, written) != 0) {
		buf_release(&w->data);
		free(w);
		client_close(c);
	}
}

static const char *
status_text(int status)
{
	switch (status) {
	case 200:
		return "OK";
	case 400:
		return "Bad Request";
	case 404:
		return "Not Found";
	case 405:
		return "Method Not Allowed";
	case 409:
		return "Conflict";
	case 413:
		return "Payload Too Large";
	case 422:
		return "Unprocessable Entity";
	default:
		return "Error";
	}
}

static void
respond(struct client *c, int status, const struct buf *body)
{
	struct buf	 out = BUF_INIT;
	char		 head[256];
	const char	*ctype = (status & SIM_HTTP_JS) != 0 ?
	    "text/javascript" : (status & SIM_HTTP_HTML) != 0 ?
	    "text/html; charset=utf-8" : "application/json";
	int		 n;

	status &= ~(SIM_HTTP_JS | SIM_HTTP_HTML);
	n = snprintf(head, sizeof(head), "HTTP/1.1 %d %s\r\n"
	    "Content-Type: %s\r\n"
	    "Content-Length: %zu\r\n"
	    "Connection: close\r\n\r\n", status, status_text(status), ctype,
	    body->len);
	buf_append(&out, head, (size_t)n);
	buf_append(&out, body->p, body->len);
	c->answered = true;
	send_bytes(c, out.p, out.len, true);
	buf_release(&out);
}

static void
respond_error(struct client *c, int status, const char *msg)
{
	struct buf	 b = BUF_INIT;
	char		 tmp[256];
	int		 n;

	n = snprintf(tmp, sizeof(tmp), "{\"error\":\"%s\"}\n", msg);
	buf_append(&b, tmp, (size_t)n);
	respond(c, status, &b);
	buf_release(&b);
}

/* Find the end of the head ("\r\n\r\n"); returns its length or 0. */
static size_t
head_end(const struct buf *b)
{
	size_t	 i;

	for (i = 3; i < b->len; i++)
		if (b->p[i - 3] == '\r' && b->p[i - 2] == '\n' &&
		    b->p[i - 1] == '\r' && b->p[i] == '\n')
			return i + 1;
	return 0;
}

/* The value of header name in the head (NUL-terminated), or NULL. */
static const char *
header(const char *head, const char *name, char *val, size_t vlen)
{
	size_t		 nl = strlen(name);
	const char	*line = strstr(head, "\r\n");

	while (line != NULL && line[2] != '\r') {
		const char	*p = line + 2, *end = strstr(p, "\r\n");

		if (end == NULL)
			break;
		if ((size_t)(end - p) > nl && strncasecmp(p, name, nl) == 0 &&
		    p[nl] == ':') {
			size_t	 n;

			p += nl + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			n = (size_t)(end - p);
			if (n >= vlen)
				n = vlen - 1;
			memcpy(val, p, n);
			val[n] = '\0';
			return val;
		}
		line = end;
	}
	return NULL;
}

const char *
sim_http_header(const struct sim_http_req *req, const char *name, char *val,
    size_t vlen)
{
	return req->head != NULL ? header(req->head, name, val, vlen) : NULL;
}

static void
handle(struct client *c)
{
	struct sim_http_req	 req;
	struct buf		 out = BUF_INIT;
	char			*head = (char *)c->in.p, *sp1, *sp2, *q;
	int			 status;

	sp1 = strchr(head, ' ');
	sp2 = sp1 != NULL ? strchr(sp1 + 1, ' ') : NULL;
	if (sp1 == NULL || sp2 == NULL) {
		respond_error(c, 400, "bad request line");
		return;
	}
	*sp1 = '\0';
	*sp2 = '\0';
	req.method = head;
	req.path = sp1 + 1;
	q = strchr(sp1 + 1, '?');
	if (q != NULL) {
		*q = '\0';
		req.query = q + 1;
	} else
		req.query = "";
	req.head = sp2 + 1;
	req.body = c->in.p + c->head_len;
	req.body_len = c->body_len;
	/* Answered from now on, even if the handler stops the server. */
	c->answered = true;
	status = c->h->handler(c->h->arg, &req, &out);
	respond(c, status, &out);
	buf_release(&out);
}

/* Look at the bytes so far: answer once the request is complete. */
static void
advance(struct client *c)
{
	char	 val[64];

	if (c->head_len == 0) {
		size_t	 n = head_end(&c->in);
		char	*end;

		if (n == 0) {
			if (c->in.len > SIM_HTTP_MAX_HEAD)
				respond_error(c, 413, "head too large");
			return;
		}
		c->in.p[n - 1] = '\0';	/* the head as a C string */
		c->head_len = n;
		if (header((char *)c->in.p, "Content-Length", val,
		    sizeof(val)) != NULL) {
			unsigned long long	 v;

			errno = 0;
			v = strtoull(val, &end, 10);
			if (errno != 0 || *end != '\0' || end == val) {
				respond_error(c, 400, "bad Content-Length");
				return;
			}
			if (v > SIM_HTTP_MAX_BODY) {
				respond_error(c, 413, "body too large");
				return;
			}
			c->body_len = (size_t)v;
		}
		if (header((char *)c->in.p, "Transfer-Encoding", val,
		    sizeof(val)) != NULL) {
			respond_error(c, 400, "chunked bodies not supported");
			return;
		}
		if (!c->continued && c->body_len > 0 &&
		    c->in.len < c->head_len + c->body_len &&
		    header((char *)c->in.p, "Expect", val, sizeof(val)) !=
		    NULL && strcasecmp(val, "100-continue") == 0) {
			static const char	 cont[] =
			    "HTTP/1.1 100 Continue\r\n\r\n";

			c->continued = true;
			send_bytes(c, cont, sizeof(cont) - 1, false);
		}
	}
	if (c->in.len < c->head_len + c->body_len)
		return;
	/* NUL-terminate the body for the handler's convenience. */
	c->in.len = c->head_len + c->body_len;
	buf_push(&c->in, '\0');
	c->in.len--;
	uv_read_stop((uv_stream_t *)&c->tcp);
	handle(c);
}

static void
alloc_cb(uv_handle_t *hd, size_t suggested, uv_buf_t *b)
{
	struct client	*c = hd->data;

	(void)suggested;
	buf_reserve(&c->in, 4096);
	b->base = (char *)c->in.p + c->in.len;
	b->len = c->in.cap - c->in.len;
}

static void
read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct client	*c = s->data;

	(void)b;
	if (n < 0) {
		client_close(c);
		return;
	}
	c->in.len += (size_t)n;
	if (!c->answered)
		advance(c);
}

static void
accept_cb(uv_stream_t *server, int status)
{
	struct sim_http	*h = server->data;
	struct client	*c;

	if (status < 0 || h->stopping)
		return;
	c = xcalloc(1, sizeof(*c));
	c->h = h;
	uv_tcp_init(server->loop, &c->tcp);
	c->tcp.data = c;
	if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0) {
		uv_close((uv_handle_t *)&c->tcp, client_closed);
		return;
	}
	c->next = h->clients;
	if (c->next != NULL)
		c->next->prevp = &c->next;
	c->prevp = &h->clients;
	h->clients = c;
	uv_read_start((uv_stream_t *)&c->tcp, alloc_cb, read_cb);
}

static void
listener_closed(uv_handle_t *hd)
{
	free(hd->data);
}

int
sim_http_start(uv_loop_t *loop, const char *host, int port,
    sim_http_handler handler, void *arg, struct sim_http **out, int *port_out)
{
	struct sim_http		*h = xcalloc(1, sizeof(*h));
	struct sockaddr_storage	 ss;
	int			 rc, len = sizeof(ss);

	h->handler = handler;
	h->arg = arg;
	uv_tcp_init(loop, &h->listener);
	h->listener.data = h;
	if (strchr(host, ':') != NULL)
		rc = uv_ip6_addr(host, port, (struct sockaddr_in6 *)&ss);
	else
		rc = uv_ip4_addr(host, port, (struct sockaddr_in *)&ss);
	if (rc == 0)
		rc = uv_tcp_bind(&h->listener, (struct sockaddr *)&ss, 0);
	if (rc == 0)
		rc = uv_listen((uv_stream_t *)&h->listener, 16, accept_cb);
	if (rc == 0)
		rc = uv_tcp_getsockname(&h->listener, (struct sockaddr *)&ss,
		    &len);
	if (rc != 0) {
		h->stopping = true;
		uv_close((uv_handle_t *)&h->listener, listener_closed);
		return rc;
	}
	*port_out = ntohs(ss.ss_family == AF_INET6 ?
	    ((struct sockaddr_in6 *)&ss)->sin6_port :
	    ((struct sockaddr_in *)&ss)->sin_port);
	*out = h;
	return 0;
}

void
sim_http_stop(struct sim_http *h)
{
	struct client	*c;

	if (h == NULL)
		return;
	h->stopping = true;
	while ((c = h->clients) != NULL) {
		if (c->answered) {
			/* Its answer is on the way: it closes itself once
			 * written, and no longer needs h. */
			h->clients = c->next;
			if (c->next != NULL)
				c->next->prevp = &h->clients;
			c->prevp = NULL;
			c->h = NULL;
		} else
			client_close(c);
	}
	uv_close((uv_handle_t *)&h->listener, listener_closed);
}
