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

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <libwebsockets.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <uv.h>

#include "proto/cert.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/frame.h"
#include "proto/noise.h"
#include "base/xmalloc.h"

#define PAYLOAD_MAX	(64u << 10)	/* bytes of a ClientPayload */
#define REASON_MAX	256

/* The states of a link, in order; each but L_READY has a deadline. */
enum link_state {
	L_TCP,		/* TCP connect, then (wss) the TLS handshake */
	L_UPGRADE,	/* the HTTP upgrade sent, its 101 awaited */
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
	char			 tls_why[96];	/* OpenSSL's reason, or an alert */
	const char		*sock_end;	/* "reset" or "closed", as the
						 * socket last showed it */
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

/* The kernel's TCP state of l's socket, or -1 (no socket). */
static int
tcp_state(const struct link *l)
{
	struct tcp_info	 ti;
	socklen_t	 n = sizeof(ti);
	int		 fd;

	if (l->wsi == NULL || (fd = lws_get_socket_fd(l->wsi)) < 0 ||
	    getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &n) != 0)
		return -1;
	return ti.tcpi_state;
}

/* The state l is in, as a reason names it. */
static const char *
state_name(const struct link *l)
{
	switch (l->st) {
	case L_TCP:
		return l->c != NULL && l->c->tls && tcp_state(l) ==
		    TCP_ESTABLISHED ? "the TLS handshake" : "the TCP connect";
	case L_UPGRADE:
		return "the WebSocket upgrade";
	case L_SERVER_HELLO:
		return "the Noise handshake";
	case L_READY:
		break;
	}
	return "the connection";
}

/* Enter state st, with its own deadline (every state but L_READY). */
static void
link_enter(struct link *l, enum link_state st)
{
	l->st = st;
	if (l->c == NULL)
		return;
	if (st == L_READY)
		uv_timer_stop(&l->c->deadline);
	else
		uv_timer_start(&l->c->deadline, on_deadline,
		    l->c->cfg.handshake_timeout_ms, 0);
}

/* Note how the peer ended the socket while lws still holds it: a reset
 * (TCP_CLOSE without our close) or its FIN (TCP_CLOSE_WAIT). */
static void
note_sock_end(struct link *l)
{
	int	 st = tcp_state(l);

	if (st == TCP_CLOSE)
		l->sock_end = "reset";
	else if (st == TCP_CLOSE_WAIT)
		l->sock_end = "closed";
}

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
	link_enter(l, L_SERVER_HELLO);
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
	link_enter(l, L_READY);
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

/*
 * OpenSSL's word on the current link's TLS handshake, kept before lws
 * clears the error queue: the reason of a failed step, or the alert the
 * server sent.
 */
static void
tls_info(const SSL *ssl, int where, int ret)
{
	struct wa_conn	*c = SSL_CTX_get_app_data(SSL_get_SSL_CTX(ssl));
	struct link	*l = c != NULL ? c->cur : NULL;
	unsigned long	 e;

	if (l == NULL || l->tls_why[0] != '\0')
		return;
	e = ERR_peek_last_error();
	if ((where & SSL_CB_ALERT) != 0 && (where & SSL_CB_READ) != 0)
		snprintf(l->tls_why, sizeof(l->tls_why), "the server sent "
		    "the alert \"%s\"", SSL_alert_desc_string_long(ret));
	else if (((where & SSL_CB_ALERT) != 0 || ((where & SSL_CB_EXIT) !=
	    0 && ret <= 0)) && e != 0 && ERR_reason_error_string(e) != NULL)
		snprintf(l->tls_why, sizeof(l->tls_why), "%s",
		    ERR_reason_error_string(e));
	else if ((where & SSL_CB_ALERT) != 0)
		snprintf(l->tls_why, sizeof(l->tls_why), "bad TLS data from "
		    "the server (alert \"%s\")",
		    SSL_alert_desc_string_long(ret));
}

static int
ws_tls_ctx(const struct ws_call *k)
{
	if (k->user != NULL) {
		SSL_CTX_set_app_data(k->user, k->owner);
		SSL_CTX_set_info_callback(k->user, tls_info);
	}
	return 0;
}

/* Why lws could not connect or upgrade l, into why[0..n). */
static void
connect_why(const struct ws_call *k, char *why, size_t n)
{
	struct link	*l = k->l;
	const char	*in = k->in != NULL ? k->in : "";
	socklen_t	 sl = sizeof(int);
	int		 fd, se = 0, code;

	if ((fd = lws_get_socket_fd(k->wsi)) >= 0)
		(void)getsockopt(fd, SOL_SOCKET, SO_ERROR, &se, &sl);
	if (l->tls_err[0] != '\0')
		snprintf(why, n, "TLS certificate not trusted: %s", l->tls_err);
	else if (l->tls_why[0] != '\0')
		snprintf(why, n, "TLS handshake failed: %s", l->tls_why);
	else if (se != 0)
		snprintf(why, n, "%s", strerror(se));
	else if (l->st == L_UPGRADE && (code =
	    lws_http_client_http_response(k->wsi)) != 0 && code != 101)
		snprintf(why, n, "not a WebSocket server (HTTP status %d)",
		    code);
	else if (l->st == L_UPGRADE)
		snprintf(why, n, "not a WebSocket server (%s)", in[0] != '\0' ?
		    in : "no valid answer to the upgrade");
	else if (strncmp(in, "connect SSL err", 15) == 0)
		snprintf(why, n, "TLS handshake failed");
	else
		snprintf(why, n, "%s", in[0] != '\0' ? in :
		    "connection failed");
}

static int
ws_connection_error(const struct ws_call *k)
{
	struct link	*l = k->l;
	char		 why[REASON_MAX - 64];

	if (l == NULL)
		return 0;
	connect_why(k, why, sizeof(why));
	l->wsi = NULL;	/* lws is closing it: nothing to kill */
	fail(l, WC_ECONNECT, "cannot connect to %s: %s", k->owner->hostport,
	    why);
	return 0;
}

/* The upgrade request goes out: TCP (and TLS) are up. */
static int
ws_upgrade(const struct ws_call *k)
{
	if (k->l != NULL && k->l->c != NULL && k->l->st == L_TCP)
		link_enter(k->l, L_UPGRADE);
	return 0;
}

/* lws drops the HTTP side of l (before or instead of the upgrade). */
static int
ws_http_closed(const struct ws_call *k)
{
	if (k->l != NULL)
		note_sock_end(k->l);
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
	if (k->l->st < L_SERVER_HELLO)
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

	const char	*end;
	bool		 bad_ws;

	if (l == NULL || l->c == NULL)
		return 0;
	bad_ws = tcp_state(l) == TCP_ESTABLISHED;	/* lws closed it */
	note_sock_end(l);
	end = l->sock_end != NULL && strcmp(l->sock_end, "reset") == 0 ?
	    "reset" : "closed";
	l->wsi = NULL;	/* closing already */
	/* each reason says all (the engine shows it alone) */
	if (wa_frame_reader_pending(&l->rd) > 0)
		fail(l, WC_ETRUNC, "the connection ended inside a "
		    "frame (%zu bytes of it received)",
		    wa_frame_reader_pending(&l->rd));
	else if (l->close_code != 0)
		fail(l, WC_ECLOSED, "the server closed the connection "
		    "(WebSocket close %d)%s%s", l->close_code, l->st != L_READY ?
		    " during " : "", l->st != L_READY ? state_name(l) : "");
	else if (bad_ws)
		fail(l, WC_EPROTO, "a bad WebSocket frame from the server "
		    "during %s", state_name(l));
	else if (l->st != L_READY)
		fail(l, WC_ECLOSED, "the server %s the connection during %s",
		    end, state_name(l));
	else
		fail(l, WC_ECLOSED, "the server %s the connection", end);
	return 0;
}

static int
ws_destroy(const struct ws_call *k)
{
	struct link	*l = k->l;

	if (l == NULL)
		return 0;
	lws_set_opaque_user_data(k->wsi, NULL);
	if (l->c != NULL && l->sock_end == NULL)
		note_sock_end(l);
	l->wsi = NULL;
	l->lws_done = true;
	if (l->c != NULL && l->st < L_SERVER_HELLO && l->sock_end != NULL)
		fail(l, WC_ECONNECT, "cannot connect to %s: the server %s the "
		    "connection during %s", k->owner->hostport, l->sock_end,
		    state_name(l));
	else if (l->c != NULL && l->st < L_SERVER_HELLO)
		fail(l, WC_ECONNECT, "cannot connect to %s: the connection "
		    "ended during %s", k->owner->hostport, state_name(l));
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
	case LWS_CALLBACK_OPENSSL_LOAD_EXTRA_CLIENT_VERIFY_CERTS:
		fn = ws_tls_ctx;
		break;
	case LWS_CALLBACK_CLIENT_APPEND_HANDSHAKE_HEADER:
		fn = ws_upgrade;
		break;
	case LWS_CALLBACK_CLOSED_CLIENT_HTTP:
		fn = ws_http_closed;
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
	link_enter(l, L_TCP);
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
		fail(c->cur, -ETIMEDOUT, "timed out in %s (no progress "
		    "within %u ms)", state_name(c->cur),
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
	l->st = L_TCP;
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

