/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/conn.c -- the client transport.  See conn.h.
 *
 * One wa_conn owns a libwebsockets context on the caller's loop.  Each
 * wa_conn_open() makes a "link": one WebSocket (wsi) with its frame
 * reader and writer, Noise state and send queue.  The wa_conn holds at
 * most one current link; closing detaches it at once, while libwebsockets
 * finishes with the socket in the loop.  A link is freed when both sides
 * are done with it: detached from the wa_conn, and its wsi destroyed (or
 * the whole context gone).  Work that must not run inside the caller's
 * call or inside a libwebsockets callback (connecting, a deferred failure,
 * the teardown) runs from the "kick" timer.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <libwebsockets.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <uv.h>

#include "adv.pb-c.h"
#include "proto/cert.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/frame.h"
#include "proto/noise.h"
#include "wa6.pb-c.h"
#include "base/xmalloc.h"

#define PAYLOAD_MAX	(64u << 10)	/* bytes of a ClientPayload */
#define REASON_MAX	256

enum link_state {
	L_CONNECTING,	/* WebSocket not up yet */
	L_SERVER_HELLO,	/* ClientHello sent, waiting for ServerHello */
	L_READY,	/* transport keys in use */
};

struct txmsg {
	struct txmsg	*next;
	struct buf	 b;	/* LWS_PRE bytes of room, then the message */
};

struct link {
	struct wa_conn		*c;	/* NULL once detached */
	struct link		*next;	/* in c->links */
	struct lws		*wsi;	/* NULL until connected or once destroyed */
	bool			 lws_done;	/* lws will not mention it again */
	bool			 reported;	/* on_close given or not wanted */
	enum link_state		 st;
	struct wa_frame_reader	 rd;
	struct wa_frame_writer	 wr;
	struct wa_noise		 hs;
	struct wa_noise_transport t;
	bool			 have_t;
	uint8_t			 noise_priv[WA_CONN_KEY_LEN];
	struct buf		 payload;	/* ClientPayload to send */
	struct buf		 plain;		/* decrypt buffer, reused */
	struct txmsg		*txq, **txq_tail;
	uint64_t		 frames_in;
	int			 close_code;	/* WebSocket close from the peer */
	char			 tls_err[96];	/* why the TLS certificate failed */
	int			 defer_err;	/* failure to report from kick */
	char			 defer_reason[REASON_MAX];
};

struct wa_conn {
	uv_loop_t		*loop;
	struct lws_context	*ctx;	/* NULLed by lws when destroyed */
	struct wa_conn_cfg	 cfg;
	char			*url;	/* copies of the settings */
	char			*ca_file;
	uint8_t			 root_pub[WA_CONN_KEY_LEN];
	bool			 tls;
	char			*host;	/* parsed from url */
	int			 port;
	char			*path;
	char			*hostport;	/* Host header */

	struct link		*cur;	/* current link, or NULL */
	struct link		*links;	/* every link not yet freed */
	bool			 want_connect;	/* kick: connect cur */
	struct link		*in_connect;	/* inside lws's connect call */
	uv_timer_t		 deadline;	/* handshake timeout */
	uv_timer_t		 kick;
	int			 handles;	/* our uv handles not yet closed */
	bool			 freeing;
	bool			 ctx_destroying;
	uint64_t		 reap_deadline;	/* uv_now() ms */
};

/* --- links --- */

static void
txq_free(struct link *l)
{
	struct txmsg	*m;

	while ((m = l->txq) != NULL) {
		l->txq = m->next;
		wa_crypto_wipe(m->b.p, m->b.len);
		buf_release(&m->b);
		free(m);
	}
	l->txq_tail = &l->txq;
}

static void
link_free(struct link *l, struct wa_conn *owner)
{
	struct link	**pp;

	for (pp = &owner->links; *pp != NULL; pp = &(*pp)->next)
		if (*pp == l) {
			*pp = l->next;
			break;
		}
	wa_frame_reader_release(&l->rd);
	wa_noise_release(&l->hs);
	if (l->have_t)
		wa_noise_transport_release(&l->t);
	wa_crypto_wipe(l->noise_priv, sizeof(l->noise_priv));
	wa_crypto_wipe(l->payload.p, l->payload.len);
	buf_release(&l->payload);
	wa_crypto_wipe(l->plain.p, l->plain.cap);
	buf_release(&l->plain);
	txq_free(l);
	free(l);
}

/* The wa_conn that keeps l in its list (links keep a back pointer only
 * while attached, so the owner is passed around explicitly). */
static void
link_maybe_free(struct wa_conn *owner, struct link *l)
{
	if (l->c == NULL && l->lws_done && owner->in_connect != l)
		link_free(l, owner);
}

/* Ask lws to close l's socket from the loop (safe anywhere). */
static void
link_kill(struct link *l)
{
	if (l->wsi != NULL)
		lws_set_timeout(l->wsi, PENDING_TIMEOUT_USER_OK,
		    LWS_TO_KILL_ASYNC);
}

/* Detach l from c: c is idle afterwards.  The caller frees l if it may. */
static void
link_detach(struct wa_conn *c, struct link *l)
{
	if (c->cur == l) {
		c->cur = NULL;
		uv_timer_stop(&c->deadline);
	}
	l->c = NULL;
	l->reported = true;
	link_kill(l);
	/* Keys are not needed any more: wipe them now. */
	wa_noise_release(&l->hs);
	if (l->have_t) {
		wa_noise_transport_release(&l->t);
		l->have_t = false;
	}
	wa_crypto_wipe(l->noise_priv, sizeof(l->noise_priv));
	txq_free(l);
}

/*
 * End l with err and a reason, reporting on_close once.  Must not run
 * inside the caller's own call into wa_conn (use fail_later there).
 */
static void
fail(struct link *l, int err, const char *fmt, ...) PRINTFLIKE(3, 4);

static void
fail(struct link *l, int err, const char *fmt, ...)
{
	struct wa_conn	*c = l->c;
	char		 reason[REASON_MAX];
	va_list		 ap;

	if (c == NULL || l->reported)
		return;
	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	link_detach(c, l);
	link_maybe_free(c, l);
	if (!c->freeing && c->cfg.ev.on_close != NULL)
		c->cfg.ev.on_close(c->cfg.ev.arg, err, reason);
}

static void	on_kick(uv_timer_t *);
static void	on_deadline(uv_timer_t *);

static void
kick_soon(struct wa_conn *c)
{
	uv_timer_start(&c->kick, on_kick, 0, 0);
}

/* --- sending --- */

static void
queue_msg(struct link *l, struct txmsg *m)
{
	m->next = NULL;
	*l->txq_tail = m;
	l->txq_tail = &m->next;
	if (l->wsi != NULL)
		lws_callback_on_writable(l->wsi);
}

static struct txmsg *
txmsg_new(void)
{
	struct txmsg	*m = xcalloc(1, sizeof(*m));

	buf_reserve(&m->b, LWS_PRE + 64);
	memset(m->b.p, 0, LWS_PRE);
	m->b.len = LWS_PRE;
	return m;
}

/* Frame and queue a handshake message (plaintext protobuf). */
static int
send_plain(struct link *l, const struct buf *msg)
{
	struct txmsg	*m = txmsg_new();
	int		 rc;

	if ((rc = wa_frame_write(&l->wr, msg->p, msg->len, &m->b)) != 0) {
		buf_release(&m->b);
		free(m);
		return rc;
	}
	queue_msg(l, m);
	return 0;
}

static int
write_one(struct link *l)
{
	struct txmsg	*m = l->txq;
	size_t		 n;
	int		 w;

	if (m == NULL)
		return 0;
	l->txq = m->next;
	if (l->txq == NULL)
		l->txq_tail = &l->txq;
	n = m->b.len - LWS_PRE;
	w = lws_write(l->wsi, m->b.p + LWS_PRE, n, LWS_WRITE_BINARY);
	wa_crypto_wipe(m->b.p, m->b.len);
	buf_release(&m->b);
	free(m);
	if (w < 0)
		return -1;	/* lws buffers what it could not send yet */
	if (l->txq != NULL)
		lws_callback_on_writable(l->wsi);
	return 0;
}

/* --- the handshake --- */

static int
start_handshake(struct link *l)
{
	struct wa_conn	*c = l->c;
	struct buf	 msg = BUF_INIT;
	uint8_t		 e[WA_CRYPTO_KEY_LEN];
	int		 rc;

	if ((rc = c->cfg.rng(c->cfg.rng_arg, e, sizeof(e))) != 0) {
		fail(l, rc < 0 ? rc : WC_ECRYPTO, "the random source failed");
		return -1;
	}
	rc = wa_noise_client_hello(&l->hs, e, &msg);
	wa_crypto_wipe(e, sizeof(e));
	if (rc == 0)
		rc = send_plain(l, &msg);
	buf_release(&msg);
	if (rc != 0) {
		fail(l, rc, "cannot send the ClientHello: %s", wc_strerror(rc));
		return -1;
	}
	l->st = L_SERVER_HELLO;
	return 0;
}

static int
on_server_hello(struct link *l, const uint8_t *p, size_t len)
{
	struct wa_conn	*c = l->c;
	struct buf	 cert = BUF_INIT, msg = BUF_INIT;
	uint8_t		 server_static[WA_CRYPTO_KEY_LEN];
	const char	*why = NULL;
	int64_t		 now_ms;
	int		 rc;

	if ((rc = wa_noise_read_server_hello(&l->hs, p, len, server_static,
	    &cert)) != 0) {
		fail(l, rc, "bad ServerHello: %s", wc_strerror(rc));
		goto out;
	}
	now_ms = c->cfg.now_ms(c->cfg.clock_arg);
	if ((rc = wa_cert_verify(cert.p, cert.len, c->root_pub, server_static,
	    now_ms > 0 ? (uint64_t)now_ms / 1000 : 0, &why)) != 0) {
		fail(l, rc, "server certificate rejected: %s",
		    why != NULL ? why : wc_strerror(rc));
		goto out;
	}
	if ((rc = wa_noise_client_finish(&l->hs, l->noise_priv, l->payload.p,
	    l->payload.len, &msg)) != 0 ||
	    (rc = wa_noise_split(&l->hs, &l->t)) != 0) {
		fail(l, rc, "cannot finish the handshake: %s", wc_strerror(rc));
		goto out;
	}
	l->have_t = true;
	wa_crypto_wipe(l->noise_priv, sizeof(l->noise_priv));
	wa_crypto_wipe(l->payload.p, l->payload.len);
	buf_release(&l->payload);
	if ((rc = send_plain(l, &msg)) != 0) {
		fail(l, rc, "cannot send the ClientFinish: %s", wc_strerror(rc));
		goto out;
	}
	l->st = L_READY;
	uv_timer_stop(&c->deadline);
	if (c->cfg.ev.on_open != NULL)
		c->cfg.ev.on_open(c->cfg.ev.arg);
out:
	wa_crypto_wipe(server_static, sizeof(server_static));
	buf_release(&cert);
	buf_release(&msg);
	return l->c != NULL ? 0 : -1;
}

static int
on_transport_frame(struct link *l, const uint8_t *p, size_t len)
{
	struct wa_conn	*c = l->c;
	uint64_t	 n = ++l->frames_in;
	int		 rc;

	if (len < WA_NOISE_OVERHEAD + 1) {
		fail(l, WC_ETRUNC, "frame %" PRIu64 " of %zu bytes is too "
		    "short for a flags byte and its %d-byte tag", n, len,
		    WA_NOISE_OVERHEAD);
		return -1;
	}
	buf_reserve(&l->plain, len);
	if ((rc = wa_noise_decrypt(&l->t, p, len, l->plain.p)) != 0) {
		fail(l, rc, "frame %" PRIu64 " (%zu bytes) does not decrypt: "
		    "%s", n, len, wc_strerror(rc));
		return -1;
	}
	if (c->cfg.ev.on_frame != NULL)
		c->cfg.ev.on_frame(c->cfg.ev.arg, l->plain.p,
		    len - WA_NOISE_OVERHEAD);
	wa_crypto_wipe(l->plain.p, len);
	return l->c != NULL ? 0 : -1;
}

/* Feed received bytes; returns -1 when the link has ended. */
static int
on_rx(struct link *l, const uint8_t *p, size_t len)
{
	const uint8_t	*f;
	size_t		 flen;
	int		 rc;

	wa_frame_reader_feed(&l->rd, p, len);
	while ((rc = wa_frame_reader_next(&l->rd, &f, &flen)) == 1) {
		if (l->st == L_SERVER_HELLO)
			rc = on_server_hello(l, f, flen);
		else if (l->st == L_READY)
			rc = on_transport_frame(l, f, flen);
		else
			rc = -1;
		if (rc != 0 || l->c == NULL)
			return -1;
	}
	if (rc < 0) {
		fail(l, rc, "a frame announces more than the %zu-byte limit",
		    l->c->cfg.max_frame);
		return -1;
	}
	return 0;
}

/* --- libwebsockets --- */

/* One libwebsockets callback, as conn_cb hands it to its handler. */
struct ws_call {
	struct lws	*wsi;
	struct link	*l;	/* the link of wsi; NULL once it let go */
	struct wa_conn	*owner;
	void		*user;
	void		*in;
	size_t		 len;
};

static int
ws_cert_verify(const struct ws_call *k)
{
	/* Only to name the problem; lws decides (returning 0 keeps
	 * OpenSSL's verdict). */
	if (k->l != NULL && k->len == 0 && k->user != NULL)
		snprintf(k->l->tls_err, sizeof(k->l->tls_err), "%s",
		    X509_verify_cert_error_string(
		    X509_STORE_CTX_get_error(k->user)));
	return 0;
}

static int
ws_connection_error(const struct ws_call *k)
{
	struct link	*l = k->l;

	if (l == NULL)
		return 0;
	l->wsi = NULL;	/* lws is closing it: nothing to kill */
	if (l->tls_err[0] != '\0')
		fail(l, WC_ECONNECT, "cannot connect to %s: TLS "
		    "certificate not trusted: %s", k->owner->hostport,
		    l->tls_err);
	else
		fail(l, WC_ECONNECT, "cannot connect to %s: %s",
		    k->owner->hostport, k->in != NULL ?
		    (const char *)k->in : "connection failed");
	return 0;
}

static int
ws_established(const struct ws_call *k)
{
	if (k->l == NULL || k->l->c == NULL)
		return -1;
	k->l->wsi = k->wsi;
	return start_handshake(k->l);
}

static int
ws_receive(const struct ws_call *k)
{
	if (k->l == NULL || k->l->c == NULL)
		return -1;
	if (!lws_frame_is_binary(k->wsi))
		return 0;	/* text messages are ignored */
	if (k->l->st == L_CONNECTING)
		return 0;
	return on_rx(k->l, k->in, k->len);
}

static int
ws_writeable(const struct ws_call *k)
{
	if (k->l == NULL || k->l->c == NULL)
		return -1;
	return write_one(k->l);
}

static int
ws_peer_close(const struct ws_call *k)
{
	const uint8_t	*in = k->in;

	if (k->l != NULL && in != NULL && k->len >= 2)
		k->l->close_code = in[0] << 8 | in[1];
	return 0;
}

static int
ws_closed(const struct ws_call *k)
{
	struct link	*l = k->l;

	if (l == NULL || l->c == NULL)
		return 0;
	l->wsi = NULL;	/* closing already */
	if (wa_frame_reader_pending(&l->rd) > 0)
		fail(l, WC_ETRUNC, "the connection ended inside a "
		    "frame (%zu bytes of it received)",
		    wa_frame_reader_pending(&l->rd));
	/* the reason adds to WC_ECLOSED's own words */
	else if (l->st != L_READY)
		fail(l, WC_ECLOSED, "during the handshake");
	else if (l->close_code != 0)
		fail(l, WC_ECLOSED, "WebSocket close %d", l->close_code);
	else
		fail(l, WC_ECLOSED, "%s", "");
	return 0;
}

static int
ws_destroy(const struct ws_call *k)
{
	struct link	*l = k->l;

	if (l == NULL)
		return 0;
	lws_set_opaque_user_data(k->wsi, NULL);
	l->wsi = NULL;
	l->lws_done = true;
	if (l->c != NULL && l->st == L_CONNECTING)
		fail(l, WC_ECONNECT, "cannot connect to %s",
		    k->owner->hostport);
	else if (l->c != NULL)
		fail(l, WC_ECLOSED, "the connection was lost");
	else
		link_maybe_free(k->owner, l);
	return 0;
}

/* The callbacks wachat handles, each delegated to its ws_* handler (one
 * switch that only delegates, as tmux dispatches); lws's dummy handler
 * takes the others, without the look-ups a handled one needs. */
static int
conn_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user,
    void *in, size_t len)
{
	int	(*fn)(const struct ws_call *);

	switch (reason) {
	case LWS_CALLBACK_OPENSSL_PERFORM_SERVER_CERT_VERIFICATION:
		fn = ws_cert_verify;
		break;
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		fn = ws_connection_error;
		break;
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		fn = ws_established;
		break;
	case LWS_CALLBACK_CLIENT_RECEIVE:
		fn = ws_receive;
		break;
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		fn = ws_writeable;
		break;
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		fn = ws_peer_close;
		break;
	case LWS_CALLBACK_CLIENT_CLOSED:
		fn = ws_closed;
		break;
	case LWS_CALLBACK_WSI_DESTROY:
		fn = ws_destroy;
		break;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
	return fn(&(struct ws_call){ wsi, lws_get_opaque_user_data(wsi),
	    lws_context_user(lws_get_context(wsi)), user, in, len });
}

static const struct lws_protocols protocols[] = {
	{ "wa-client", conn_cb, 0, 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

static void
do_connect(struct wa_conn *c)
{
	struct lws_client_connect_info	 ci;
	struct link			*l = c->cur;
	struct lws			*wsi;

	c->want_connect = false;
	if (l == NULL)
		return;
	memset(&ci, 0, sizeof(ci));
	ci.context = c->ctx;
	ci.address = c->host;
	ci.port = c->port;
	ci.path = c->path;
	ci.host = c->hostport;
	ci.origin = WA_CONN_ORIGIN;
	ci.ssl_connection = c->tls ? LCCSCF_USE_SSL : 0;
	ci.alpn = "http/1.1";
	ci.local_protocol_name = protocols[0].name;
	ci.opaque_user_data = l;
	uv_timer_start(&c->deadline, on_deadline,
	    c->cfg.handshake_timeout_ms, 0);
	/* l must outlive the call whatever lws does inside it. */
	c->in_connect = l;
	wsi = lws_client_connect_via_info(&ci);
	c->in_connect = NULL;
	if (wsi != NULL && !l->lws_done) {
		l->wsi = wsi;
		if (l->c == NULL)
			link_kill(l);
	}
	if (wsi == NULL && l->c != NULL)
		fail(l, WC_ECONNECT, "cannot connect to %s", c->hostport);
	link_maybe_free(c, l);
}

/* --- timers and teardown --- */

static void
on_deadline(uv_timer_t *t)
{
	struct wa_conn	*c = t->data;

	if (c->cur != NULL)
		fail(c->cur, -ETIMEDOUT, "no complete handshake within %u ms",
		    c->cfg.handshake_timeout_ms);
}

static void
handle_closed(uv_handle_t *h)
{
	struct wa_conn	*c = h->data;

	if (--c->handles > 0)
		return;
	while (c->links != NULL)
		link_free(c->links, c);
	free(c->url);
	free(c->ca_file);
	free(c->host);
	free(c->path);
	free(c->hostport);
	explicit_bzero(c, sizeof(*c));
	free(c);
}

struct walk {
	void	*ctx;
	int	 n;
};

static void
count_ctx_handles(uv_handle_t *h, void *arg)
{
	struct walk	*w = arg;

	if (h->data == w->ctx)
		w->n++;
}

/*
 * The teardown of a libwebsockets 4.1 context on a foreign loop comes in
 * two steps: the first lws_context_destroy() closes every connection and
 * then lws's own loop handles (whose data is the context); once those
 * have closed, a second call frees the context (and sets c->ctx to NULL
 * through pcontext).
 */
static void
reap(struct wa_conn *c)
{
	struct walk	 w = { c->ctx, 0 };

	if (c->ctx != NULL && !c->ctx_destroying) {
		c->ctx_destroying = true;
		lws_context_destroy(c->ctx);
		c->reap_deadline = uv_now(c->loop) + 10000;
	}
	if (c->ctx != NULL) {
		uv_walk(c->loop, count_ctx_handles, &w);
		if (w.n > 0 && uv_now(c->loop) < c->reap_deadline) {
			uv_timer_start(&c->kick, on_kick, 1, 0);
			return;
		}
		/* Past the deadline lws still has handles: leaking the
		 * context (and so its handles keep the loop alive, which
		 * shows) beats freeing memory they point into. */
		if (w.n == 0)
			lws_context_destroy(c->ctx);
	}
	uv_close((uv_handle_t *)&c->deadline, handle_closed);
	uv_close((uv_handle_t *)&c->kick, handle_closed);
}

static void
on_kick(uv_timer_t *t)
{
	struct wa_conn	*c = t->data;
	struct link	*l = c->cur;

	if (c->freeing) {
		reap(c);
		return;
	}
	if (l != NULL && l->defer_err != 0) {
		int	 err = l->defer_err;

		l->defer_err = 0;
		fail(l, err, "%s", l->defer_reason);
		return;
	}
	if (c->want_connect)
		do_connect(c);
}

/* Report a failure from the kick timer (outside the caller's call). */
static void
fail_later(struct link *l, int err, const char *reason)
{
	l->defer_err = err;
	snprintf(l->defer_reason, sizeof(l->defer_reason), "%s", reason);
	kick_soon(l->c);
}

/* --- settings --- */

/* Split url into scheme, host, port and path; returns 0 or -EINVAL. */
static int
parse_url(struct wa_conn *c, const char *url)
{
	const char	*p, *host, *end, *colon = NULL;
	size_t		 hlen;
	long		 port;

	if (strlen(url) > WA_CONN_URL_MAX)
		return -EINVAL;
	if (strncmp(url, "wss://", 6) == 0) {
		c->tls = true;
		p = url + 6;
		port = 443;
	} else if (strncmp(url, "ws://", 5) == 0) {
		c->tls = false;
		p = url + 5;
		port = 80;
	} else
		return -EINVAL;
	host = p;
	if (*p == '[') {		/* [v6 address] */
		if ((end = strchr(p, ']')) == NULL)
			return -EINVAL;
		host = p + 1;
		hlen = (size_t)(end - host);
		p = end + 1;
		if (*p == ':')
			colon = p;
		else if (*p != '/' && *p != '\0')
			return -EINVAL;
	} else {
		hlen = strcspn(p, ":/");
		p += hlen;
		if (*p == ':')
			colon = p;
	}
	if (hlen == 0)
		return -EINVAL;
	if (colon != NULL) {
		char	*e;

		errno = 0;
		port = strtol(colon + 1, &e, 10);
		if (errno != 0 || e == colon + 1 || port <= 0 || port > 65535 ||
		    (*e != '/' && *e != '\0'))
			return -EINVAL;
		p = e;
	}
	c->host = xmalloc(hlen + 1);
	memcpy(c->host, host, hlen);
	c->host[hlen] = '\0';
	c->port = (int)port;
	c->path = xstrdup(*p == '/' ? p : "/");
	if ((c->tls && port == 443) || (!c->tls && port == 80))
		c->hostport = xstrdup(c->host);
	else {
		size_t	 n = hlen + 16;

		c->hostport = xmalloc(n);
		snprintf(c->hostport, n, "%s:%ld", c->host, port);
	}
	return 0;
}

void
wa_conn_set_lws_log(int mask, void (*emit)(int level, const char *line))
{
	lws_set_log_level(mask, emit);
}

int
wa_conn_new(uv_loop_t *loop, const struct wa_conn_cfg *cfg,
    struct wa_conn **out)
{
	struct lws_context_creation_info	 info;
	struct wa_conn				*c;
	void					*loops[1] = { loop };

	if (cfg->rng == NULL || cfg->now_ms == NULL)
		return -EINVAL;
	c = xcalloc(1, sizeof(*c));
	c->loop = loop;
	c->cfg = *cfg;
	c->url = xstrdup(cfg->url != NULL ? cfg->url : WA_CONN_DEFAULT_URL);
	c->cfg.url = c->url;
	if (cfg->ca_file != NULL)
		c->ca_file = xstrdup(cfg->ca_file);
	c->cfg.ca_file = c->ca_file;
	memcpy(c->root_pub, cfg->root_pub != NULL ? cfg->root_pub :
	    WA_CERT_WHATSAPP_ROOT, WA_CONN_KEY_LEN);
	c->cfg.root_pub = c->root_pub;
	if (c->cfg.handshake_timeout_ms == 0)
		c->cfg.handshake_timeout_ms = WA_CONN_HANDSHAKE_TIMEOUT_MS;
	if (c->cfg.max_frame == 0 || c->cfg.max_frame > WA_FRAME_MAX_LEN)
		c->cfg.max_frame = WA_FRAME_MAX_LEN;
	if (parse_url(c, c->url) != 0)
		goto bad;

	memset(&info, 0, sizeof(info));
	/* JUST_USE_RAW_ORIGIN: lws would write "Origin: http://" + ours. */
	info.options = LWS_SERVER_OPTION_LIBUV |
	    LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT |
	    LWS_SERVER_OPTION_JUST_USE_RAW_ORIGIN;
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.foreign_loops = loops;
	info.pcontext = &c->ctx;
	info.user = c;
	info.client_ssl_ca_filepath = c->ca_file;
	info.gid = (gid_t)-1;
	info.uid = (uid_t)-1;
	if ((c->ctx = lws_create_context(&info)) == NULL) {
		free(c->url);
		free(c->ca_file);
		free(c->host);
		free(c->path);
		free(c->hostport);
		free(c);
		return -ENOMEM;
	}
	uv_timer_init(loop, &c->deadline);
	uv_timer_init(loop, &c->kick);
	c->deadline.data = c->kick.data = c;
	c->handles = 2;
	*out = c;
	return 0;
bad:
	free(c->url);
	free(c->ca_file);
	free(c->host);
	free(c->path);
	free(c->hostport);
	free(c);
	return -EINVAL;
}

int
wa_conn_open(struct wa_conn *c, const uint8_t noise_priv[WA_CONN_KEY_LEN],
    const uint8_t *payload, size_t len)
{
	struct link	*l;

	if (c->freeing)
		return -ESHUTDOWN;
	if (c->cur != NULL)
		return -EBUSY;
	if (len == 0 || len > PAYLOAD_MAX)
		return -EINVAL;
	l = xcalloc(1, sizeof(*l));
	l->c = c;
	l->st = L_CONNECTING;
	l->txq_tail = &l->txq;
	wa_frame_reader_init(&l->rd, c->cfg.max_frame, false);
	wa_frame_writer_init(&l->wr, true);
	wa_noise_init(&l->hs, WA_NOISE_INITIATOR);
	memcpy(l->noise_priv, noise_priv, WA_CONN_KEY_LEN);
	buf_append(&l->payload, payload, len);
	l->next = c->links;
	c->links = l;
	c->cur = l;
	c->want_connect = true;
	kick_soon(c);
	return 0;
}

int
wa_conn_send(struct wa_conn *c, const uint8_t *node, size_t len)
{
	struct link	*l = c->cur;
	struct txmsg	*m;
	uint8_t		*payload;
	int		 rc;

	if (l == NULL || l->st != L_READY || l->defer_err != 0)
		return -ENOTCONN;
	if (len > WA_FRAME_MAX_LEN - 1 - WA_NOISE_OVERHEAD)
		return WC_ETOOBIG;
	m = txmsg_new();
	if ((rc = wa_frame_reserve(&l->wr, 1 + len + WA_NOISE_OVERHEAD, &m->b,
	    &payload)) != 0)
		goto bad;
	payload[0] = 0;		/* flags: not compressed */
	memcpy(payload + 1, node, len);
	if ((rc = wa_noise_encrypt(&l->t, payload, 1 + len, payload)) != 0) {
		if (rc == WC_ENONCE)
			fail_later(l, rc, "the send counter ran out");
		goto bad;
	}
	queue_msg(l, m);
	return 0;
bad:
	wa_crypto_wipe(m->b.p, m->b.len);
	buf_release(&m->b);
	free(m);
	return rc;
}

bool
wa_conn_is_open(const struct wa_conn *c)
{
	return c->cur != NULL && c->cur->st == L_READY &&
	    c->cur->defer_err == 0;
}

void
wa_conn_close(struct wa_conn *c)
{
	struct link	*l = c->cur;
	bool		 never = c->want_connect;

	c->want_connect = false;
	if (l == NULL)
		return;
	if (never)
		l->lws_done = true;	/* never handed to lws */
	link_detach(c, l);
	link_maybe_free(c, l);
}

void
wa_conn_free(struct wa_conn *c)
{
	if (c == NULL || c->freeing)
		return;
	wa_conn_close(c);
	c->freeing = true;
	uv_timer_stop(&c->deadline);
	kick_soon(c);
}

/* --- ClientPayload --- */

static int
parse_version(const char *v, uint32_t out[3])
{
	const char	*p = v != NULL ? v : WA_CONN_DEFAULT_VERSION;
	int		 i;

	for (i = 0; i < 3; i++) {
		unsigned long long	 n;
		char			*end;

		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		n = strtoull(p, &end, 10);
		if (errno != 0 || n > UINT32_MAX)
			return -EINVAL;
		out[i] = (uint32_t)n;
		if (i < 2 && *end != '.')
			return -EINVAL;
		if (i == 2 && *end != '\0')
			return -EINVAL;
		p = end + 1;
	}
	return 0;
}

/* The parts shared by registration and login (protocol.md 3.1, 3.3). */
struct common {
	Wa__ClientPayload__UserAgent__AppVersion	 av;
	Wa__ClientPayload__UserAgent			 ua;
	Wa__ClientPayload__WebInfo			 wi;
};

static void
common_init(struct common *k, Wa__ClientPayload *cp, const uint32_t v[3],
    const char *push_name)
{
	Wa__ClientPayload__UserAgent__AppVersion av =
	    WA__CLIENT_PAYLOAD__USER_AGENT__APP_VERSION__INIT;
	Wa__ClientPayload__UserAgent	 ua = WA__CLIENT_PAYLOAD__USER_AGENT__INIT;
	Wa__ClientPayload__WebInfo	 wi = WA__CLIENT_PAYLOAD__WEB_INFO__INIT;

	k->av = av;
	k->ua = ua;
	k->wi = wi;
	k->av.has_primary = k->av.has_secondary = k->av.has_tertiary = 1;
	k->av.primary = v[0];
	k->av.secondary = v[1];
	k->av.tertiary = v[2];
	k->ua.has_platform = 1;
	k->ua.platform = WA__CLIENT_PAYLOAD__USER_AGENT__PLATFORM__WEB;
	k->ua.appversion = &k->av;
	k->ua.mcc = (char *)"000";
	k->ua.mnc = (char *)"000";
	k->ua.osversion = (char *)"0.1";
	k->ua.manufacturer = (char *)"";
	k->ua.device = (char *)"Desktop";
	k->ua.osbuildnumber = (char *)"0.1";
	k->ua.has_releasechannel = 1;
	k->ua.releasechannel =
	    WA__CLIENT_PAYLOAD__USER_AGENT__RELEASE_CHANNEL__RELEASE;
	k->ua.localelanguageiso6391 = (char *)"en";
	k->ua.localecountryiso31661alpha2 = (char *)"US";
	k->wi.has_websubplatform = 1;
	k->wi.websubplatform =
	    WA__CLIENT_PAYLOAD__WEB_INFO__WEB_SUB_PLATFORM__WEB_BROWSER;
	cp->useragent = &k->ua;
	cp->webinfo = &k->wi;
	cp->has_connecttype = 1;
	cp->connecttype = WA__CLIENT_PAYLOAD__CONNECT_TYPE__WIFI_UNKNOWN;
	cp->has_connectreason = 1;
	cp->connectreason = WA__CLIENT_PAYLOAD__CONNECT_REASON__USER_ACTIVATED;
	if (push_name != NULL)
		cp->pushname = (char *)push_name;
}

static void
pack_into(const ProtobufCMessage *m, struct buf *out)
{
	size_t	 n = protobuf_c_message_get_packed_size(m);

	buf_reserve(out, n);
	out->len += protobuf_c_message_pack(m, out->p + out->len);
}

static void
put_be(uint8_t *p, uint32_t v, int n)
{
	int	 i;

	for (i = n - 1; i >= 0; i--) {
		p[i] = (uint8_t)v;
		v >>= 8;
	}
}

int
wa_conn_payload_reg(const char *version, const struct wa_conn_reg *r,
    const char *push_name, struct buf *out)
{
	Wa__ClientPayload				 cp =
	    WA__CLIENT_PAYLOAD__INIT;
	Wa__ClientPayload__DevicePairingRegistrationData d =
	    WA__CLIENT_PAYLOAD__DEVICE_PAIRING_REGISTRATION_DATA__INIT;
	Wa__DeviceProps					 dp =
	    WA__DEVICE_PROPS__INIT;
	Wa__DeviceProps__AppVersion			 dv =
	    WA__DEVICE_PROPS__APP_VERSION__INIT;
	Wa__DeviceProps__HistorySyncConfig		 hs =
	    WA__DEVICE_PROPS__HISTORY_SYNC_CONFIG__INIT;
	struct common					 k;
	struct buf					 props = BUF_INIT;
	uint8_t						 regid[4], skid[3];
	uint8_t						 keytype = 5;
	uint8_t						 md5[16];
	unsigned					 mdlen = 0;
	uint32_t					 v[3];
	const char					*vs = version != NULL ?
	    version : WA_CONN_DEFAULT_VERSION;

	if (parse_version(vs, v) != 0 || r->spk_id > 0xffffff)
		return -EINVAL;
	if (EVP_Digest(vs, strlen(vs), md5, &mdlen, EVP_md5(), NULL) != 1 ||
	    mdlen != sizeof(md5))
		return WC_ECRYPTO;
	common_init(&k, &cp, v, push_name);
	cp.has_passive = 1;
	cp.passive = 0;
	cp.has_pull = 1;
	cp.pull = 0;

	/* DeviceProps (protocol.md 3.4): a text-only client's history
	 * settings. */
	dv.has_primary = dv.has_secondary = dv.has_tertiary = 1;
	dv.primary = 0;
	dv.secondary = 1;
	dv.tertiary = 0;
	hs.has_storagequotamb = 1;
	hs.storagequotamb = 10240;
	hs.has_inlineinitialpayloadine2eemsg = 1;
	hs.inlineinitialpayloadine2eemsg = 1;
	dp.os = (char *)(r->os != NULL ? r->os : "wachat");
	dp.version = &dv;
	dp.has_platformtype = 1;
	dp.platformtype = (Wa__DeviceProps__PlatformType)r->platform_type;
	dp.has_requirefullsync = 1;
	dp.requirefullsync = r->full_sync ? 1 : 0;
	dp.historysyncconfig = &hs;
	pack_into(&dp.base, &props);

	put_be(regid, r->reg_id, 4);
	put_be(skid, r->spk_id, 3);
	d.has_eregid = 1;
	d.eregid.data = regid;
	d.eregid.len = sizeof(regid);
	d.has_ekeytype = 1;
	d.ekeytype.data = &keytype;
	d.ekeytype.len = 1;
	d.has_eident = 1;
	d.eident.data = (uint8_t *)r->ident_pub;
	d.eident.len = WA_CONN_KEY_LEN;
	d.has_eskeyid = 1;
	d.eskeyid.data = skid;
	d.eskeyid.len = sizeof(skid);
	d.has_eskeyval = 1;
	d.eskeyval.data = (uint8_t *)r->spk_pub;
	d.eskeyval.len = WA_CONN_KEY_LEN;
	d.has_eskeysig = 1;
	d.eskeysig.data = (uint8_t *)r->spk_sig;
	d.eskeysig.len = sizeof(r->spk_sig);
	d.has_buildhash = 1;
	d.buildhash.data = md5;
	d.buildhash.len = sizeof(md5);
	d.has_deviceprops = 1;
	d.deviceprops.data = props.p;
	d.deviceprops.len = props.len;
	cp.devicepairingdata = &d;
	pack_into(&cp.base, out);
	buf_release(&props);
	return 0;
}

int
wa_conn_payload_login(const char *version, uint64_t pn, uint32_t device,
    const char *push_name, struct buf *out)
{
	Wa__ClientPayload	 cp = WA__CLIENT_PAYLOAD__INIT;
	struct common		 k;
	uint32_t		 v[3];

	if (parse_version(version, v) != 0 || pn == 0)
		return -EINVAL;
	common_init(&k, &cp, v, push_name);
	cp.has_username = 1;
	cp.username = pn;
	cp.has_device = 1;
	cp.device = device;
	cp.has_passive = 1;
	cp.passive = 1;
	cp.has_pull = 1;
	cp.pull = 1;
	cp.has_lc = 1;
	cp.lc = 1;
	cp.has_liddbmigrated = 1;
	cp.liddbmigrated = 1;
	pack_into(&cp.base, out);
	return 0;
}
