/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-conn.c -- the client transport (proto/conn.c): the
 * ClientPayload builders, settings, and the connection's life against
 * small fake servers on a private loop (the full handshake against
 * wachat-sim is tests/sim-conn.sh).
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <uv.h>

#include "adv.pb-c.h"
#include "base/buf.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/pb.h"
#include "wa6.pb-c.h"

/* --- ClientPayload --- */

static struct wa_conn_reg
sample_reg(void)
{
	struct wa_conn_reg	 r;

	memset(&r, 0, sizeof(r));
	r.reg_id = 0x1234;
	memset(r.ident_pub, 0x11, sizeof(r.ident_pub));
	r.spk_id = 0x010203;
	memset(r.spk_pub, 0x22, sizeof(r.spk_pub));
	memset(r.spk_sig, 0x33, sizeof(r.spk_sig));
	return r;
}

static Wa__ClientPayload *
unpack_payload(const struct buf *b)
{
	ProtobufCMessage	*m = NULL;

	assert_int_equal(wa_pb_unpack(&wa__client_payload__descriptor, b->p,
	    b->len, &m), 0);
	return (Wa__ClientPayload *)m;
}

static void
check_common(const Wa__ClientPayload *cp, uint32_t rev)
{
	const Wa__ClientPayload__UserAgent	*ua = cp->useragent;

	assert_non_null(ua);
	assert_true(ua->has_platform);
	assert_int_equal(ua->platform,
	    WA__CLIENT_PAYLOAD__USER_AGENT__PLATFORM__WEB);
	assert_non_null(ua->appversion);
	assert_int_equal(ua->appversion->primary, 2);
	assert_int_equal(ua->appversion->secondary, 3000);
	assert_int_equal(ua->appversion->tertiary, rev);
	assert_string_equal(ua->mcc, "000");
	assert_string_equal(ua->mnc, "000");
	assert_string_equal(ua->osversion, "0.1");
	assert_string_equal(ua->device, "Desktop");
	assert_string_equal(ua->osbuildnumber, "0.1");
	assert_null(ua->phoneid);
	assert_string_equal(ua->localelanguageiso6391, "en");
	assert_string_equal(ua->localecountryiso31661alpha2, "US");
	assert_non_null(cp->webinfo);
	assert_true(cp->webinfo->has_websubplatform);
	assert_int_equal(cp->webinfo->websubplatform,
	    WA__CLIENT_PAYLOAD__WEB_INFO__WEB_SUB_PLATFORM__WEB_BROWSER);
	assert_int_equal(cp->connecttype,
	    WA__CLIENT_PAYLOAD__CONNECT_TYPE__WIFI_UNKNOWN);
	assert_int_equal(cp->connectreason,
	    WA__CLIENT_PAYLOAD__CONNECT_REASON__USER_ACTIVATED);
}

static void
test_wa_conn_payload_reg__packs_the_registration_data(void **state)
{
	static const uint8_t	 md5[16] = {	/* protocol.md 3.2 */
		0x9f, 0xa5, 0x3a, 0xf9, 0x42, 0x15, 0x67, 0xb1,
		0x14, 0xe3, 0x3c, 0x9b, 0xb1, 0xef, 0x7d, 0xb2,
	};
	struct wa_conn_reg	 r = sample_reg();
	struct buf		 b = BUF_INIT;
	Wa__ClientPayload	*cp;
	const Wa__ClientPayload__DevicePairingRegistrationData *d;
	ProtobufCMessage	*m = NULL;
	Wa__DeviceProps		*dp;

	(void)state;
	assert_int_equal(wa_conn_payload_reg(NULL, &r, "alice", &b), 0);
	cp = unpack_payload(&b);
	check_common(cp, 1045649367);
	assert_true(cp->has_passive);
	assert_false(cp->passive);
	assert_true(cp->has_pull);
	assert_false(cp->pull);
	assert_false(cp->has_username);
	assert_string_equal(cp->pushname, "alice");
	d = cp->devicepairingdata;
	assert_non_null(d);
	assert_int_equal(d->eregid.len, 4);
	assert_memory_equal(d->eregid.data, "\x00\x00\x12\x34", 4);
	assert_int_equal(d->ekeytype.len, 1);
	assert_int_equal(d->ekeytype.data[0], 5);
	assert_int_equal(d->eident.len, 32);
	assert_memory_equal(d->eident.data, r.ident_pub, 32);
	assert_int_equal(d->eskeyid.len, 3);
	assert_memory_equal(d->eskeyid.data, "\x01\x02\x03", 3);
	assert_memory_equal(d->eskeyval.data, r.spk_pub, 32);
	assert_int_equal(d->eskeysig.len, 64);
	assert_memory_equal(d->eskeysig.data, r.spk_sig, 64);
	assert_int_equal(d->buildhash.len, 16);
	assert_memory_equal(d->buildhash.data, md5, 16);
	assert_int_equal(wa_pb_unpack(&wa__device_props__descriptor,
	    d->deviceprops.data, d->deviceprops.len, &m), 0);
	dp = (Wa__DeviceProps *)m;
	assert_string_equal(dp->os, "wachat");
	assert_int_equal(dp->platformtype, WA__DEVICE_PROPS__PLATFORM_TYPE__UNKNOWN);
	assert_false(dp->requirefullsync);
	assert_non_null(dp->historysyncconfig);
	assert_int_equal(dp->historysyncconfig->storagequotamb, 10240);
	assert_true(dp->historysyncconfig->inlineinitialpayloadine2eemsg);
	/* The support* flags and thumbnail limit of [WM]/[RS] (3.4). */
	assert_true(dp->historysyncconfig->has_thumbnailsyncdayslimit);
	assert_int_equal(dp->historysyncconfig->thumbnailsyncdayslimit, 60);
	assert_true(dp->historysyncconfig->supportmessageassociation);
	assert_true(dp->historysyncconfig->supportgrouphistory);
	assert_true(dp->historysyncconfig->supporthostedgroupmsg);
	assert_true(dp->historysyncconfig->supportbotuseragentchathistory);
	protobuf_c_message_free_unpacked(m, NULL);
	protobuf_c_message_free_unpacked(&cp->base, NULL);
	buf_release(&b);
}

static void
test_wa_conn_payload_login__packs_username_device_and_flags(void **state)
{
	struct buf		 b = BUF_INIT;
	Wa__ClientPayload	*cp;

	(void)state;
	assert_int_equal(wa_conn_payload_login("2.3000.7", 15550000001ULL, 3,
	    NULL, &b), 0);
	cp = unpack_payload(&b);
	check_common(cp, 7);
	assert_true(cp->has_username);
	assert_int_equal(cp->username, 15550000001ULL);
	assert_true(cp->has_device);
	assert_int_equal(cp->device, 3);
	assert_true(cp->passive);
	assert_true(cp->pull);
	assert_true(cp->has_lc);
	assert_int_equal(cp->lc, 1);
	assert_true(cp->has_liddbmigrated);
	assert_true(cp->liddbmigrated);
	assert_null(cp->devicepairingdata);
	assert_null(cp->pushname);
	protobuf_c_message_free_unpacked(&cp->base, NULL);
	buf_release(&b);
}

static void
test_wa_conn_payload__refuses_bad_versions_and_values(void **state)
{
	static const char	*bad[] = {
		"", "2", "2.3000", "2.3000.", "2.3000.x", "2.3000.1.4",
		"2.3000.99999999999", "-2.3000.1", "2..1", " 2.3000.1",
	};
	struct wa_conn_reg	 r = sample_reg();
	struct buf		 b = BUF_INIT;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(wa_conn_payload_reg(bad[i], &r, NULL, &b),
		    -EINVAL);
		assert_int_equal(wa_conn_payload_login(bad[i], 1, 1, NULL,
		    &b), -EINVAL);
	}
	r.spk_id = 0x1000000;
	assert_int_equal(wa_conn_payload_reg(NULL, &r, NULL, &b), -EINVAL);
	assert_int_equal(wa_conn_payload_login(NULL, 0, 1, NULL, &b), -EINVAL);
	assert_int_equal(b.len, 0);
}

/* --- connections --- */

struct rec {
	int	 opens, closes, frames;
	int	 err;
	char	 reason[256];
	bool	 free_in_close;
	struct wa_conn *c;
};

static int
rng(void *arg, uint8_t *p, size_t len)
{
	(void)arg;
	memset(p, 0x42, len);	/* fine for a handshake that never ends */
	return 0;
}

static int64_t
clock_ms(void *arg)
{
	(void)arg;
	return 1800000000000LL;
}

static void
ev_open(void *arg)
{
	((struct rec *)arg)->opens++;
}

static void
ev_frame(void *arg, const uint8_t *p, size_t len)
{
	(void)p;
	(void)len;
	((struct rec *)arg)->frames++;
}

static void
ev_close(void *arg, int err, const char *reason)
{
	struct rec	*r = arg;

	r->closes++;
	r->err = err;
	snprintf(r->reason, sizeof(r->reason), "%s", reason);
	if (r->free_in_close) {
		wa_conn_free(r->c);
		r->c = NULL;
	}
}

static struct wa_conn_cfg
cfg_for(const char *url, struct rec *r)
{
	struct wa_conn_cfg	 cfg;

	memset(&cfg, 0, sizeof(cfg));
	cfg.url = url;
	cfg.rng = rng;
	cfg.now_ms = clock_ms;
	cfg.ev.on_open = ev_open;
	cfg.ev.on_frame = ev_frame;
	cfg.ev.on_close = ev_close;
	cfg.ev.arg = r;
	return cfg;
}

static const uint8_t	 NOISE[32] = { 1 };
static const uint8_t	 PAYLOAD[4] = { 0x08, 0x01, 0x18, 0x01 };

/* Run loop until pred(arg) or about 5 s. */
static void
run_until(uv_loop_t *loop, bool (*pred)(void *), void *arg)
{
	int	 i;

	for (i = 0; i < 5000 && !pred(arg); i++)
		uv_run(loop, UV_RUN_NOWAIT), uv_sleep(1);
}

static bool
closed_once(void *arg)
{
	return ((struct rec *)arg)->closes > 0;
}

/* Free c (if any) and check that the loop ends with nothing open. */
static void
finish(uv_loop_t *loop, struct wa_conn *c)
{
	wa_conn_free(c);
	assert_int_equal(uv_run(loop, UV_RUN_DEFAULT), 0);
	assert_int_equal(uv_loop_close(loop), 0);
}

static void
test_wa_conn_new__refuses_bad_settings(void **state)
{
	static const char	*bad[] = {
		"http://example.com/", "ws://", "wss://:443/", "ws://h:0/",
		"ws://h:99999/", "ws://h:12x/", "wss://[::1/", "ws//h/", "h",
	};
	struct rec		 r;
	struct wa_conn_cfg	 cfg;
	struct wa_conn		*c = NULL;
	uv_loop_t		 loop;
	size_t			 i;

	(void)state;
	memset(&r, 0, sizeof(r));
	uv_loop_init(&loop);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cfg = cfg_for(bad[i], &r);
		assert_int_equal(wa_conn_new(&loop, &cfg, &c), -EINVAL);
	}
	cfg = cfg_for("ws://127.0.0.1:9/", &r);
	cfg.rng = NULL;
	assert_int_equal(wa_conn_new(&loop, &cfg, &c), -EINVAL);
	assert_null(c);
	finish(&loop, NULL);
}

static void
test_wa_conn__is_idle_until_opened_and_busy_while_open(void **state)
{
	static const char	*good[] = {
		"ws://127.0.0.1:9/ws/chat", "wss://[::1]:8443/x", "wss://h",
		NULL,	/* the default URL */
	};
	struct rec		 r;
	struct wa_conn_cfg	 cfg;
	struct wa_conn		*c;
	uv_loop_t		 loop;
	size_t			 i;

	(void)state;
	memset(&r, 0, sizeof(r));
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		uv_loop_init(&loop);
		cfg = cfg_for(good[i], &r);
		assert_int_equal(wa_conn_new(&loop, &cfg, &c), 0);
		assert_false(wa_conn_is_open(c));
		assert_int_equal(wa_conn_send(c, PAYLOAD, sizeof(PAYLOAD)),
		    -ENOTCONN);
		assert_int_equal(wa_conn_open(c, NOISE, PAYLOAD, 0), -EINVAL);
		assert_int_equal(wa_conn_open(c, NOISE, PAYLOAD,
		    sizeof(PAYLOAD)), 0);
		assert_int_equal(wa_conn_open(c, NOISE, PAYLOAD,
		    sizeof(PAYLOAD)), -EBUSY);
		wa_conn_close(c);	/* before it ever connected */
		assert_int_equal(wa_conn_open(c, NOISE, PAYLOAD,
		    sizeof(PAYLOAD)), 0);
		finish(&loop, c);
		assert_int_equal(r.closes, 0);
	}
}

/* A fake server: records what the client sends and answers per mode. */
enum fake_mode { FAKE_SILENT, FAKE_404, FAKE_UPGRADE };

struct fake {
	uv_tcp_t	 srv;
	uv_tcp_t	 cli;
	bool		 have_cli;
	enum fake_mode	 mode;
	int		 port;
	struct buf	 in;		/* bytes received */
	size_t		 head_len;	/* HTTP request head, once complete */
	bool		 answered;
	uv_write_t	 wr;
	char		 out[512];
};

static void
fake_alloc(uv_handle_t *h, size_t n, uv_buf_t *b)
{
	struct fake	*f = h->data;

	(void)n;
	buf_reserve(&f->in, 4096);
	b->base = (char *)f->in.p + f->in.len;
	b->len = f->in.cap - f->in.len;
}

static void
fake_answer(struct fake *f)
{
	uv_buf_t	 b;
	int		 n = 0;

	if (f->mode == FAKE_404)
		n = snprintf(f->out, sizeof(f->out), "HTTP/1.1 404 Not Found\r\n"
		    "Content-Length: 0\r\n\r\n");
	else if (f->mode == FAKE_UPGRADE) {
		const char	*k = strstr((char *)f->in.p,
		    "Sec-WebSocket-Key: ");
		char		 key[128], acc[64];
		uint8_t		 sha[20];
		unsigned	 shalen = 0;
		size_t		 kl;

		assert_non_null(k);
		k += strlen("Sec-WebSocket-Key: ");
		kl = strcspn(k, "\r");
		assert_true(kl < 40);
		snprintf(key, sizeof(key), "%.*s"
		    "258EAFA5-E914-47DA-95CA-C5AB0DC85B11", (int)kl, k);
		assert_int_equal(EVP_Digest(key, strlen(key), sha, &shalen,
		    EVP_sha1(), NULL), 1);
		EVP_EncodeBlock((uint8_t *)acc, sha, sizeof(sha));
		n = snprintf(f->out, sizeof(f->out), "HTTP/1.1 101 Switching "
		    "Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
		    "Sec-WebSocket-Accept: %s\r\n\r\n", acc);
	}
	if (n == 0)
		return;
	b = uv_buf_init(f->out, (unsigned)n);
	assert_int_equal(uv_write(&f->wr, (uv_stream_t *)&f->cli, &b, 1,
	    NULL), 0);
}

static void
fake_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct fake	*f = s->data;
	char		*end;

	(void)b;
	if (n <= 0)
		return;
	f->in.len += (size_t)n;
	buf_push(&f->in, 0);
	f->in.len--;
	if (f->head_len == 0 && (end = strstr((char *)f->in.p, "\r\n\r\n")) !=
	    NULL) {
		f->head_len = (size_t)(end - (char *)f->in.p) + 4;
		if (!f->answered) {
			f->answered = true;
			fake_answer(f);
		}
	}
}

static void
fake_accept(uv_stream_t *s, int status)
{
	struct fake	*f = s->data;

	assert_int_equal(status, 0);
	assert_false(f->have_cli);
	uv_tcp_init(s->loop, &f->cli);
	f->cli.data = f;
	assert_int_equal(uv_accept(s, (uv_stream_t *)&f->cli), 0);
	f->have_cli = true;
	uv_read_start((uv_stream_t *)&f->cli, fake_alloc, fake_read);
}

static void
fake_start(uv_loop_t *loop, struct fake *f, enum fake_mode mode, bool listen)
{
	struct sockaddr_in	 sa;
	struct sockaddr_storage	 ss;
	int			 len = sizeof(ss);

	memset(f, 0, sizeof(*f));
	f->mode = mode;
	uv_tcp_init(loop, &f->srv);
	f->srv.data = f;
	uv_ip4_addr("127.0.0.1", 0, &sa);
	assert_int_equal(uv_tcp_bind(&f->srv, (struct sockaddr *)&sa, 0), 0);
	if (listen)
		assert_int_equal(uv_listen((uv_stream_t *)&f->srv, 4,
		    fake_accept), 0);
	assert_int_equal(uv_tcp_getsockname(&f->srv, (struct sockaddr *)&ss,
	    &len), 0);
	f->port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
}

static void
fake_stop(struct fake *f)
{
	uv_close((uv_handle_t *)&f->srv, NULL);
	if (f->have_cli)
		uv_close((uv_handle_t *)&f->cli, NULL);
}

static void
connect_to(struct fake *f, struct rec *r, uv_loop_t *loop, uint32_t to_ms,
    struct wa_conn **cp)
{
	struct wa_conn_cfg	 cfg;
	char			 url[64];

	snprintf(url, sizeof(url), "ws://127.0.0.1:%d/ws/chat", f->port);
	cfg = cfg_for(url, r);
	cfg.handshake_timeout_ms = to_ms;
	assert_int_equal(wa_conn_new(loop, &cfg, cp), 0);
	r->c = *cp;
	assert_int_equal(wa_conn_open(*cp, NOISE, PAYLOAD, sizeof(PAYLOAD)),
	    0);
}

static void
test_wa_conn__reports_a_refused_connection(void **state)
{
	struct fake	 f;
	struct rec	 r;
	struct wa_conn	*c;
	uv_loop_t	 loop;
	char		 want[64];

	(void)state;
	memset(&r, 0, sizeof(r));
	uv_loop_init(&loop);
	fake_start(&loop, &f, FAKE_SILENT, false);	/* bound, not listening */
	connect_to(&f, &r, &loop, 5000, &c);
	run_until(&loop, closed_once, &r);
	assert_int_equal(r.closes, 1);
	assert_int_equal(r.err, WC_ECONNECT);
	snprintf(want, sizeof(want), "cannot connect to 127.0.0.1:%d", f.port);
	assert_non_null(strstr(r.reason, want));
	assert_int_equal(r.opens, 0);
	fake_stop(&f);
	finish(&loop, c);
	buf_release(&f.in);
}

static void
test_wa_conn__reports_a_refused_upgrade(void **state)
{
	struct fake	 f;
	struct rec	 r;
	struct wa_conn	*c;
	uv_loop_t	 loop;

	(void)state;
	memset(&r, 0, sizeof(r));
	uv_loop_init(&loop);
	fake_start(&loop, &f, FAKE_404, true);
	connect_to(&f, &r, &loop, 5000, &c);
	run_until(&loop, closed_once, &r);
	assert_int_equal(r.closes, 1);
	assert_int_equal(r.err, WC_ECONNECT);
	fake_stop(&f);
	finish(&loop, c);
	buf_release(&f.in);
}

static void
test_wa_conn__sends_the_upgrade_with_whatsapps_origin_then_times_out(
    void **state)
{
	struct fake	 f;
	struct rec	 r;
	struct wa_conn	*c;
	uv_loop_t	 loop;
	char		 host[64];

	(void)state;
	memset(&r, 0, sizeof(r));
	uv_loop_init(&loop);
	fake_start(&loop, &f, FAKE_SILENT, true);
	connect_to(&f, &r, &loop, 300, &c);
	run_until(&loop, closed_once, &r);
	assert_int_equal(r.closes, 1);
	assert_int_equal(r.err, -ETIMEDOUT);
	assert_string_equal(r.reason, "timed out in the WebSocket upgrade "
	    "(no progress within 300 ms)");
	assert_true(f.head_len > 0);
	assert_memory_equal(f.in.p, "GET /ws/chat HTTP/1.1\r\n", 23);
	assert_non_null(strstr((char *)f.in.p,
	    "\r\nOrigin: https://web.whatsapp.com\r\n"));
	snprintf(host, sizeof(host), "\r\nHost: 127.0.0.1:%d\r\n", f.port);
	assert_non_null(strstr((char *)f.in.p, host));
	assert_null(strstr((char *)f.in.p, "Sec-WebSocket-Protocol"));
	fake_stop(&f);
	finish(&loop, c);
	buf_release(&f.in);
}

static bool
got_client_hello(void *arg)
{
	struct fake	*f = arg;

	/* 2 header bytes + 4 mask bytes + 43 payload bytes. */
	return f->head_len > 0 && f->in.len >= f->head_len + 2 + 4 + 43;
}

static void
test_wa_conn__opens_with_the_header_and_a_client_hello(void **state)
{
	struct fake		 f;
	struct rec		 r;
	struct wa_conn		*c;
	uv_loop_t		 loop;
	const uint8_t		*ws;
	uint8_t			 msg[43];
	ProtobufCMessage	*m = NULL;
	Wa__HandshakeMessage	*hm;
	size_t			 i;

	(void)state;
	memset(&r, 0, sizeof(r));
	uv_loop_init(&loop);
	fake_start(&loop, &f, FAKE_UPGRADE, true);
	connect_to(&f, &r, &loop, 5000, &c);
	run_until(&loop, got_client_hello, &f);
	assert_true(got_client_hello(&f));
	ws = f.in.p + f.head_len;
	assert_int_equal(ws[0], 0x82);		/* FIN, binary */
	assert_int_equal(ws[1], 0x80 | 43);	/* masked, 43 bytes */
	for (i = 0; i < sizeof(msg); i++)
		msg[i] = ws[6 + i] ^ ws[2 + i % 4];
	/* WA 06 03, then the first frame: 36 bytes of HandshakeMessage. */
	assert_memory_equal(msg, "WA\x06\x03\x00\x00\x24", 7);
	assert_int_equal(wa_pb_unpack(&wa__handshake_message__descriptor,
	    msg + 7, 36, &m), 0);
	hm = (Wa__HandshakeMessage *)m;
	assert_non_null(hm->clienthello);
	assert_int_equal(hm->clienthello->ephemeral.len, 32);
	assert_false(hm->clienthello->has_static_);
	assert_null(hm->serverhello);
	protobuf_c_message_free_unpacked(m, NULL);
	/* Closing now reports nothing; the wa_conn can open again. */
	wa_conn_close(c);
	assert_false(wa_conn_is_open(c));
	assert_int_equal(wa_conn_open(c, NOISE, PAYLOAD, sizeof(PAYLOAD)), 0);
	wa_conn_close(c);
	fake_stop(&f);
	finish(&loop, c);
	assert_int_equal(r.closes, 0);
	buf_release(&f.in);
}

static void
test_wa_conn_free__works_from_inside_on_close(void **state)
{
	struct fake	 f;
	struct rec	 r;
	struct wa_conn	*c;
	uv_loop_t	 loop;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.free_in_close = true;
	uv_loop_init(&loop);
	fake_start(&loop, &f, FAKE_SILENT, false);
	connect_to(&f, &r, &loop, 5000, &c);
	run_until(&loop, closed_once, &r);
	assert_int_equal(r.closes, 1);
	assert_null(r.c);
	fake_stop(&f);
	finish(&loop, NULL);
	buf_release(&f.in);
}

int
main(void)
{
	const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(
		    test_wa_conn_payload_reg__packs_the_registration_data),
		cmocka_unit_test(
		    test_wa_conn_payload_login__packs_username_device_and_flags),
		cmocka_unit_test(
		    test_wa_conn_payload__refuses_bad_versions_and_values),
		cmocka_unit_test(test_wa_conn_new__refuses_bad_settings),
		cmocka_unit_test(
		    test_wa_conn__is_idle_until_opened_and_busy_while_open),
		cmocka_unit_test(test_wa_conn__reports_a_refused_connection),
		cmocka_unit_test(test_wa_conn__reports_a_refused_upgrade),
		cmocka_unit_test(
		    test_wa_conn__sends_the_upgrade_with_whatsapps_origin_then_times_out),
		cmocka_unit_test(
		    test_wa_conn__opens_with_the_header_and_a_client_hello),
		cmocka_unit_test(test_wa_conn_free__works_from_inside_on_close),
	};

	if (wa_crypto_init() != 0)
		return 1;
	wa_conn_set_lws_log(0, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
