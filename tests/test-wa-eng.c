/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-eng.c -- the engine (proto/eng.c) without a server: the
 * QR text (protocol.md 6.2), its settings, the registration material made
 * once and kept (3.2) through a fake store, the first retry after a
 * refused connection (1.6), and the check of pair-success's device
 * identity (proto/pair.c, 6.4), the sw.js scraper and the look-up's
 * timeout and cancel (proto/engver.c, 3.3), the link code, its key wrapping and the ADV secret it yields
 * (proto/paircode.c, 6.7), checked against the phone's side of the
 * computation.  Pairing, login and prekeys against
 * wachat-sim are tests/sim-eng.sh.
 */
#include "base/compat.h"

#include <arpa/inet.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include <cmocka.h>
#include <uv.h>

#include "adv.pb-c.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "proto/eng.h"
#include "proto/engver.h"
#include "base/err.h"
#include "proto/pair.h"
#include "proto/paircode.h"

/* --- a fake store in memory --- */

struct fake_store {
	struct wa_device	 dev;
	bool			 have;
	int			 saves;
	int			 puts;
};

static int
fake_load(void *arg, struct wa_device *out)
{
	struct fake_store	*f = arg;

	if (!f->have)
		return 0;
	*out = f->dev;
	return 1;
}

static int
fake_save(void *arg, const struct wa_device *d)
{
	struct fake_store	*f = arg;

	f->dev = *d;
	f->have = true;
	f->saves++;
	return 0;
}

static int
fake_forget(void *arg)
{
	struct fake_store	*f = arg;

	memset(&f->dev, 0, sizeof(f->dev));
	f->have = false;
	return 0;
}

static int
fake_next(void *arg, uint32_t *id)
{
	(void)arg;
	*id = 1;
	return 0;
}

static int
fake_put(void *arg, const struct wa_prekey *k, size_t n)
{
	(void)k;
	(void)n;
	((struct fake_store *)arg)->puts++;
	return 0;
}

static int
fake_pending(void *arg, struct wa_prekey *out, size_t max)
{
	(void)arg;
	(void)out;
	(void)max;
	return 0;
}

static int
fake_mark(void *arg, uint32_t first, uint32_t last)
{
	(void)arg;
	(void)first;
	(void)last;
	return 0;
}

static int
fake_count(void *arg)
{
	(void)arg;
	return 0;
}

static void
fake_ops(struct fake_store *f, struct wa_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->device_load = fake_load;
	ops->device_save = fake_save;
	ops->device_forget = fake_forget;
	ops->prekey_next_id = fake_next;
	ops->prekey_put = fake_put;
	ops->prekey_pending = fake_pending;
	ops->prekey_mark_uploaded = fake_mark;
	ops->prekey_count = fake_count;
	ops->arg = f;
}

static int
rng(void *arg, uint8_t *p, size_t len)
{
	(void)arg;
	return getrandom(p, len, 0) == (ssize_t)len ? 0 : -EIO;
}

static int64_t
clock_ms(void *arg)
{
	struct timespec	 ts;

	(void)arg;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- the QR text --- */

static void
test_wa_eng_qr_text__matches_6_2__with_known_keys(void **state)
{
	uint8_t	 noise[32], ident[32], adv[32];
	char	 out[512];
	int	 i, n;

	(void)state;
	for (i = 0; i < 32; i++) {
		noise[i] = (uint8_t)i;
		ident[i] = 0xff;
		adv[i] = 0;
	}
	n = wa_eng_qr_text("2@abc", 5, noise, ident, adv, out, sizeof(out));
	assert_string_equal(out, "https://wa.me/settings/linked_devices#2@abc,"
	    "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=,"
	    "//////////////////////////////////////////8=,"
	    "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=,9");
	assert_int_equal(n, (int)strlen(out));
}

static void
test_wa_eng_qr_text__fails__when_the_buffer_is_too_small(void **state)
{
	uint8_t	 k[32] = { 0 };
	char	 out[100];

	(void)state;
	assert_int_equal(wa_eng_qr_text("2@abc", 5, k, k, k, out, sizeof(out)),
	    WC_ETOOBIG);
}

/* --- settings --- */

static void
on_event_ignore(void *arg, const struct wa_eng_ev *ev)
{
	(void)arg;
	(void)ev;
}

static void
test_wa_eng_new__fails__without_a_store(void **state)
{
	uv_loop_t		 loop;
	struct wa_eng_cfg	 cfg;
	struct wa_eng		*e = NULL;

	(void)state;
	assert_int_equal(uv_loop_init(&loop), 0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.rng = rng;
	cfg.now_ms = clock_ms;
	cfg.on_event = on_event_ignore;
	assert_int_equal(wa_eng_new(&loop, &cfg, &e), -EINVAL);
	assert_null(e);
	assert_int_equal(uv_loop_close(&loop), 0);
}

/* --- registration material and the first retry --- */

struct run {
	struct wa_eng	*e;
	uint32_t	 retry_ms;
	int		 disconnects;
};

static void
on_event_run(void *arg, const struct wa_eng_ev *ev)
{
	struct run	*r = arg;

	if (ev->kind != WA_ENG_EV_DISCONNECTED)
		return;
	r->retry_ms = ev->retry_ms;
	r->disconnects++;
	wa_eng_free(r->e);	/* allowed from a callback */
	r->e = NULL;
}

/* Start an engine on f against a closed port; return the first retry
 * delay. */
static uint32_t
start_against_closed_port(struct fake_store *f)
{
	uv_loop_t		 loop;
	struct wa_store_ops	 ops;
	struct wa_eng_cfg	 cfg;
	struct run		 r;

	memset(&r, 0, sizeof(r));
	fake_ops(f, &ops);
	memset(&cfg, 0, sizeof(cfg));
	cfg.url = "ws://127.0.0.1:1/ws/chat";
	cfg.rng = rng;
	cfg.now_ms = clock_ms;
	cfg.store = &ops;
	cfg.on_event = on_event_run;
	cfg.ev_arg = &r;
	assert_int_equal(uv_loop_init(&loop), 0);
	assert_int_equal(wa_eng_new(&loop, &cfg, &r.e), 0);
	assert_int_equal(wa_eng_start(r.e), 0);
	assert_int_equal(wa_eng_start(r.e), -EALREADY);
	uv_run(&loop, UV_RUN_DEFAULT);
	assert_int_equal(r.disconnects, 1);
	assert_null(r.e);
	assert_int_equal(uv_loop_close(&loop), 0);
	return r.retry_ms;
}

static void
test_wa_eng_start__makes_reg_material_once__and_keeps_it(
    void **state)
{
	struct fake_store	 f;
	struct wa_device	 first;
	uint8_t			 pub[32], msg[33];
	uint32_t		 retry;

	(void)state;
	memset(&f, 0, sizeof(f));
	retry = start_against_closed_port(&f);
	assert_true(f.have);
	assert_int_equal(f.saves, 1);
	/* 3.2: a 14-bit registration id, signed prekey 1 signed by the
	 * identity over 05 || pub, public keys that belong to the private. */
	assert_in_range(f.dev.registration_id, 1, 16380);
	assert_int_equal(f.dev.spk_id, 1);
	msg[0] = 5;
	memcpy(msg + 1, f.dev.spk_pub, 32);
	assert_int_equal(wa_crypto_xeddsa_verify(f.dev.identity_pub, msg,
	    sizeof(msg), f.dev.spk_sig), 0);
	wa_crypto_x25519_base(f.dev.noise_priv, pub);
	assert_memory_equal(pub, f.dev.noise_pub, 32);
	wa_crypto_x25519_base(f.dev.identity_priv, pub);
	assert_memory_equal(pub, f.dev.identity_pub, 32);
	assert_string_equal(f.dev.jid, "");
	/* 1.6: the first retry within about a second (1 s +- 10 %). */
	assert_in_range(retry, 900, 1100);
	/* A second start loads the same material and makes none. */
	first = f.dev;
	(void)start_against_closed_port(&f);
	assert_int_equal(f.saves, 1);
	assert_memory_equal(&first, &f.dev, sizeof(first));
	assert_int_equal(f.puts, 0);
}

/* --- pair-success's device identity (6.4) --- */

struct ident_case {
	uint8_t		 adv[32], ident_priv[32], ident_pub[32];
	uint8_t		 acct_priv[32], acct_pub[32];
	struct buf	 container;	/* ADVSignedDeviceIdentityHMAC */
};

static void
fill(uint8_t *p, size_t len, uint8_t v)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(v + i);
}

static void
pack_msg(const ProtobufCMessage *m, struct buf *out)
{
	buf_reserve(out, protobuf_c_message_get_packed_size(m));
	out->len += protobuf_c_message_pack(m, out->p + out->len);
}

/* What the phone sends: details signed by the account key, HMAC keyed
 * with the QR's secret; bad_mac and bad_sig spoil one of them. */
static void
make_case(struct ident_case *t, bool bad_mac, bool bad_sig)
{
	Wa__ADVDeviceIdentity		 d = WA__ADVDEVICE_IDENTITY__INIT;
	Wa__ADVSignedDeviceIdentity	 a =
	    WA__ADVSIGNED_DEVICE_IDENTITY__INIT;
	Wa__ADVSignedDeviceIdentityHMAC	 c =
	    WA__ADVSIGNED_DEVICE_IDENTITY_HMAC__INIT;
	struct buf			 det = BUF_INIT, ad = BUF_INIT;
	struct buf			 msg = BUF_INIT;
	uint8_t				 sig[64], mac[32], rnd[64];

	memset(t, 0, sizeof(*t));
	fill(t->adv, 32, 1);
	fill(t->ident_priv, 32, 2);
	fill(t->acct_priv, 32, 3);
	fill(rnd, 64, 4);
	wa_crypto_x25519_base(t->ident_priv, t->ident_pub);
	wa_crypto_x25519_base(t->acct_priv, t->acct_pub);
	d.has_rawid = d.has_timestamp = d.has_keyindex = 1;
	d.rawid = 7;
	d.timestamp = 1796000000;
	d.keyindex = 3;
	pack_msg(&d.base, &det);
	buf_append(&msg, "\x06\x00", 2);
	buf_append(&msg, det.p, det.len);
	buf_append(&msg, t->ident_pub, 32);
	assert_int_equal(wa_crypto_xeddsa_sign(t->acct_priv, msg.p, msg.len,
	    rnd, sig), 0);
	if (bad_sig)
		sig[5] ^= 1;
	a.has_details = a.has_accountsignaturekey = a.has_accountsignature = 1;
	a.details.data = det.p;
	a.details.len = det.len;
	a.accountsignaturekey.data = t->acct_pub;
	a.accountsignaturekey.len = 32;
	a.accountsignature.data = sig;
	a.accountsignature.len = 64;
	pack_msg(&a.base, &ad);
	wa_crypto_hmac_sha256(t->adv, 32, ad.p, ad.len, mac);
	if (bad_mac)
		mac[0] ^= 1;
	c.has_details = c.has_hmac = 1;
	c.details.data = ad.p;
	c.details.len = ad.len;
	c.hmac.data = mac;
	c.hmac.len = 32;
	pack_msg(&c.base, &t->container);
	buf_release(&det);
	buf_release(&ad);
	buf_release(&msg);
}

static int
verify_case(struct ident_case *t, struct buf *full, struct buf *reply,
    uint8_t acct[32], uint32_t *ki)
{
	uint8_t	 rnd[64];

	fill(rnd, 64, 9);
	return wa_pair_verify(t->adv, t->ident_priv, t->ident_pub,
	    t->container.p, t->container.len, rnd, full, reply, acct, ki);
}

static void
test_wa_pair_verify__signs_and_strips_acct_key__when_valid(
    void **state)
{
	struct ident_case		 t;
	struct buf			 full = BUF_INIT, reply = BUF_INIT;
	struct buf			 msg = BUF_INIT;
	uint8_t				 acct[32];
	uint32_t			 ki = 0;
	Wa__ADVSignedDeviceIdentity	*f, *r;

	(void)state;
	make_case(&t, false, false);
	assert_int_equal(verify_case(&t, &full, &reply, acct, &ki), 0);
	assert_int_equal(ki, 3);
	assert_memory_equal(acct, t.acct_pub, 32);
	f = wa__advsigned_device_identity__unpack(NULL, full.len, full.p);
	r = wa__advsigned_device_identity__unpack(NULL, reply.len, reply.p);
	assert_non_null(f);
	assert_non_null(r);
	/* Stored: the account key kept; the reply: without it (6.5). */
	assert_true(f->has_accountsignaturekey);
	assert_false(r->has_accountsignaturekey);
	assert_true(r->has_devicesignature);
	assert_int_equal(r->devicesignature.len, 64);
	/* 06 01 || details || identity_pub || account key, by the identity. */
	buf_append(&msg, "\x06\x01", 2);
	buf_append(&msg, r->details.data, r->details.len);
	buf_append(&msg, t.ident_pub, 32);
	buf_append(&msg, t.acct_pub, 32);
	assert_int_equal(wa_crypto_xeddsa_verify(t.ident_pub, msg.p, msg.len,
	    r->devicesignature.data), 0);
	wa__advsigned_device_identity__free_unpacked(f, NULL);
	wa__advsigned_device_identity__free_unpacked(r, NULL);
	buf_release(&msg);
	buf_release(&full);
	buf_release(&reply);
	buf_release(&t.container);
}

static void
test_wa_pair_verify__fails__on_foreign_secret_or_bad_sig(
    void **state)
{
	struct ident_case	 t;
	struct buf		 full = BUF_INIT, reply = BUF_INIT;
	uint8_t			 acct[32];
	uint32_t		 ki = 0;

	(void)state;
	make_case(&t, true, false);
	assert_int_equal(verify_case(&t, &full, &reply, acct, &ki),
	    WC_EBADMAC);
	buf_release(&t.container);
	make_case(&t, false, true);
	assert_int_equal(verify_case(&t, &full, &reply, acct, &ki),
	    WC_EBADSIG);
	t.container.len = 3;	/* cut inside a field */
	assert_int_equal(verify_case(&t, &full, &reply, acct, &ki),
	    WC_EPROTO);
	assert_int_equal(full.len, 0);
	assert_int_equal(reply.len, 0);
	buf_release(&t.container);
}

/* --- the sw.js scraper (protocol.md 3.3) --- */

static void
test_wa_engver_parse__finds_the_revision__in_plain_and_escaped_forms(
    void **state)
{
	static const char	 plain[] =
	    "self.x={\"client_revision\":1045649367,\"y\":1}";
	static const char	 spaced[] = "{\"client_revision\": \t1234}";
	static const char	 esc[] =
	    "JSON.parse(\"{\\\"client_revision\\\":1045700001,\\\"z\\\":2}\")";
	uint32_t		 rev = 0;

	(void)state;
	assert_int_equal(wa_engver_parse(plain, strlen(plain), &rev), 0);
	assert_int_equal(rev, 1045649367u);
	assert_int_equal(wa_engver_parse(spaced, strlen(spaced), &rev), 0);
	assert_int_equal(rev, 1234u);
	assert_int_equal(wa_engver_parse(esc, strlen(esc), &rev), 0);
	assert_int_equal(rev, 1045700001u);
}

static void
test_wa_engver_parse__fails__when_the_revision_is_missing(void **state)
{
	static const char	*bad[] = {
		"",
		"client_revision:1",		/* no quotes */
		"\"client_revision\":",		/* no digits */
		"\"client_revision\":abc",
		"\"client_revision\"=1",
		"\"client_revision",		/* cut */
		"\"client_revisions\":1",
		"'client_revision':1",
	};
	uint32_t		 rev = 7;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_equal(wa_engver_parse(bad[i], strlen(bad[i]), &rev),
		    -ENOENT);
	assert_int_equal(rev, 7u);
	/* The length is honoured: the match lies past it. */
	assert_int_equal(wa_engver_parse("\"client_revision\":12", 18, &rev),
	    -ENOENT);
	assert_int_equal(wa_engver_parse("\"client_revision\":12", 20, &rev),
	    0);
	assert_int_equal(rev, 12u);
}

static void
test_wa_engver_parse__handles_huge__numbers_and_pages(void **state)
{
	static const char	 big[] = "\"client_revision\":4294967296";
	static const char	 longer[] =
	    "\"client_revision\":99999999999999999999999999999999999";
	static const char	 max[] = "\"client_revision\":4294967295";
	static const char	 tail[] = "\"client_revision\":1045649999";
	size_t			 len = WA_ENGVER_MAX_BODY;
	char			*page;
	uint32_t		 rev = 7;

	(void)state;
	assert_int_equal(wa_engver_parse(big, strlen(big), &rev), WC_ETOOBIG);
	assert_int_equal(wa_engver_parse(longer, strlen(longer), &rev),
	    WC_ETOOBIG);
	assert_int_equal(rev, 7u);
	assert_int_equal(wa_engver_parse(max, strlen(max), &rev), 0);
	assert_int_equal(rev, 4294967295u);
	/* A page of the largest size read, the key at its very end, and
	 * many near misses before it. */
	page = malloc(len);
	assert_non_null(page);
	memset(page, '"', len);
	memcpy(page + 1000, "\"client_revision\":x", 19);
	memcpy(page + len - strlen(tail), tail, strlen(tail));
	assert_int_equal(wa_engver_parse(page, len, &rev), 0);
	assert_int_equal(rev, 1045649999u);
	/* Cut one byte short of the digits' end: a shorter number. */
	assert_int_equal(wa_engver_parse(page, len - 1, &rev), 0);
	assert_int_equal(rev, 104564999u);
	/* Without the key: not found. */
	memset(page + len - strlen(tail), ' ', strlen(tail));
	assert_int_equal(wa_engver_parse(page, len, &rev), -ENOENT);
	free(page);
}

/* --- the look-up itself, against a loopback server that never answers --- */

struct silent {
	uv_tcp_t		 srv, peer;
	bool			 has_peer;
	struct wa_engver	*l;
	uv_timer_t		 t;
	int			 calls, err;
};

static void
on_silent_conn(uv_stream_t *s, int status)
{
	struct silent	*z = s->data;

	if (status != 0 || z->has_peer)
		return;
	uv_tcp_init(s->loop, &z->peer);
	if (uv_accept(s, (uv_stream_t *)&z->peer) == 0)
		z->has_peer = true;
	else
		uv_close((uv_handle_t *)&z->peer, NULL);
}

static void
silent_close(struct silent *z)
{
	uv_close((uv_handle_t *)&z->srv, NULL);
	if (z->has_peer)
		uv_close((uv_handle_t *)&z->peer, NULL);
	uv_close((uv_handle_t *)&z->t, NULL);
}

static void
on_lookup(void *arg, int err, uint32_t rev, const char *why)
{
	struct silent	*z = arg;

	(void)rev;
	assert_non_null(why);
	z->calls++;
	z->err = err;
	z->l = NULL;
	silent_close(z);
}

static void
on_cancel_timer(uv_timer_t *t)
{
	struct silent	*z = t->data;

	wa_engver_cancel(z->l);
	z->l = NULL;
	silent_close(z);
}

/* Start a look-up of http://127.0.0.1:PORT/sw.js from a silent server. */
static void
silent_start(uv_loop_t *loop, struct silent *z, uint32_t timeout_ms)
{
	struct sockaddr_in	 sa;
	struct sockaddr_storage	 ss;
	int			 len = sizeof(ss);
	char			 url[64];

	memset(z, 0, sizeof(*z));
	assert_int_equal(uv_tcp_init(loop, &z->srv), 0);
	z->srv.data = z;
	assert_int_equal(uv_ip4_addr("127.0.0.1", 0, &sa), 0);
	assert_int_equal(uv_tcp_bind(&z->srv, (struct sockaddr *)&sa, 0), 0);
	assert_int_equal(uv_listen((uv_stream_t *)&z->srv, 4, on_silent_conn),
	    0);
	assert_int_equal(uv_tcp_getsockname(&z->srv, (struct sockaddr *)&ss,
	    &len), 0);
	snprintf(url, sizeof(url), "http://127.0.0.1:%d/sw.js",
	    ntohs(((struct sockaddr_in *)&ss)->sin_port));
	uv_timer_init(loop, &z->t);
	z->t.data = z;
	assert_int_equal(wa_engver_lookup(loop, url, NULL, timeout_ms,
	    on_lookup, z, &z->l), 0);
}

static void
test_wa_engver_lookup__times_out__when_the_server_is_silent(void **state)
{
	uv_loop_t	 loop;
	struct silent	 z;
	uint64_t	 t0;

	(void)state;
	assert_int_equal(uv_loop_init(&loop), 0);
	silent_start(&loop, &z, 300);
	t0 = uv_hrtime();
	assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
	assert_int_equal(z.calls, 1);
	assert_int_equal(z.err, -ETIMEDOUT);
	assert_true(uv_hrtime() - t0 < 5000000000ull);
	assert_int_equal(uv_loop_close(&loop), 0);
}

static void
test_wa_engver_cancel__ends_the_lookup_without_a_callback(void **state)
{
	uv_loop_t	 loop;
	struct silent	 z;
	uint64_t	 t0;

	(void)state;
	assert_int_equal(uv_loop_init(&loop), 0);
	silent_start(&loop, &z, 60000);
	uv_timer_start(&z.t, on_cancel_timer, 100, 0);
	t0 = uv_hrtime();
	assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
	assert_int_equal(z.calls, 0);
	/* Far sooner than the 60 s timeout (the server is closed with the
	 * cancel, and curl's progress callback sees the flag). */
	assert_true(uv_hrtime() - t0 < 5000000000ull);
	assert_int_equal(uv_loop_close(&loop), 0);
	assert_int_equal(wa_engver_lookup(NULL, "ftp://x/", NULL, 0, on_lookup,
	    NULL, &z.l), -EINVAL);
}

/* --- pairing by phone-number code (protocol.md 6.7) --- */

static void
test_wa_paircode_text__encodes_5_bytes__in_wa_base32(void **state)
{
	static const uint8_t	 zero[5] = { 0 }, ones[5] = { 0xff, 0xff, 0xff,
				    0xff, 0xff };
	static const uint8_t	 v[5] = { 0x01, 0x23, 0x45, 0x67, 0x89 };
	char			 code[9], shown[10];

	(void)state;
	wa_paircode_text(zero, code);
	assert_string_equal(code, "11111111");
	wa_paircode_text(ones, code);
	assert_string_equal(code, "ZZZZZZZZ");
	wa_paircode_text(v, code);
	assert_string_equal(code, "15JMBSWA");
	wa_paircode_display(code, shown);
	assert_string_equal(shown, "15JM-BSWA");
}

static void
test_wa_paircode__wraps_and_derives_the_adv_secret__as_the_phone_does(
    void **state)
{
	uint8_t	 rnd[48], pub[32], back[32], wrapped[80];
	uint8_t	 c_eph[32], c_eph_pub[32], p_eph[32], p_eph_pub[32];
	uint8_t	 c_id[32], c_id_pub[32], p_id[32], p_id_pub[32];
	uint8_t	 frnd[WA_PAIRCODE_FINISH_RAND_LEN];
	uint8_t	 bundle[WA_PAIRCODE_BUNDLE_LEN], adv[32], adv2[32];
	uint8_t	 s1[32], s2[32], key[32], plain[96], ikm[96];

	(void)state;
	assert_int_equal(rng(NULL, rnd, sizeof(rnd)), 0);
	assert_int_equal(rng(NULL, c_eph, 32), 0);
	assert_int_equal(rng(NULL, p_eph, 32), 0);
	assert_int_equal(rng(NULL, c_id, 32), 0);
	assert_int_equal(rng(NULL, p_id, 32), 0);
	assert_int_equal(rng(NULL, frnd, sizeof(frnd)), 0);
	wa_crypto_x25519_base(c_eph, c_eph_pub);
	wa_crypto_x25519_base(p_eph, p_eph_pub);
	wa_crypto_x25519_base(c_id, c_id_pub);
	wa_crypto_x25519_base(p_id, p_id_pub);
	memcpy(pub, c_eph_pub, 32);
	assert_int_equal(wa_paircode_wrap("15JMBSWA", rnd, pub, wrapped), 0);
	assert_memory_equal(wrapped, rnd, 48);
	assert_memory_not_equal(wrapped + 48, pub, 32);
	assert_int_equal(wa_paircode_unwrap("15JMBSWA", wrapped, back), 0);
	assert_memory_equal(back, pub, 32);
	/* Another code unwraps another key. */
	assert_int_equal(wa_paircode_unwrap("15JMBSWB", wrapped, back), 0);
	assert_memory_not_equal(back, pub, 32);
	/* companion_finish: the phone's side opens the bundle and derives
	 * the same secret (the sim's lc_finish() computation). */
	assert_int_equal(wa_paircode_finish(c_eph, p_eph_pub, c_id, c_id_pub,
	    p_id_pub, frnd, bundle, adv), 0);
	assert_memory_equal(bundle, frnd + 32, 32 + 12);
	assert_int_equal(wa_crypto_x25519(p_eph, c_eph_pub, s1), 0);
	assert_int_equal(wa_crypto_hkdf(bundle, 32, s1, 32, (const uint8_t *)
	    "link_code_pairing_key_bundle_encryption_key", 43, key, 32), 0);
	assert_int_equal(wa_crypto_gcm_open_once(key, bundle + 32, NULL, 0,
	    bundle + 44, 96 + 16, plain), 0);
	assert_memory_equal(plain, c_id_pub, 32);
	assert_memory_equal(plain + 32, p_id_pub, 32);
	assert_memory_equal(plain + 64, frnd, 32);
	assert_int_equal(wa_crypto_x25519(p_id, c_id_pub, s2), 0);
	memcpy(ikm, s1, 32);
	memcpy(ikm + 32, s2, 32);
	memcpy(ikm + 64, plain + 64, 32);
	assert_int_equal(wa_crypto_hkdf(NULL, 0, ikm, 96,
	    (const uint8_t *)"adv_secret", 10, adv2, 32), 0);
	assert_memory_equal(adv, adv2, 32);
}

static void
test_wa_eng_new__fails__on_a_bad_phone_number_to_pair_with(void **state)
{
	static const char	*bad[] = { "", "+", "1234", "0155500001",
				    "1555-0001", "123456789012345678901" };
	uv_loop_t		 loop;
	struct fake_store	 f;
	struct wa_store_ops	 ops;
	struct wa_eng_cfg	 cfg;
	struct wa_eng		*e = NULL;
	size_t			 i;

	(void)state;
	memset(&f, 0, sizeof(f));
	fake_ops(&f, &ops);
	assert_int_equal(uv_loop_init(&loop), 0);
	memset(&cfg, 0, sizeof(cfg));
	cfg.rng = rng;
	cfg.now_ms = clock_ms;
	cfg.store = &ops;
	cfg.on_event = on_event_ignore;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		cfg.pair_pn = bad[i];
		assert_int_equal(wa_eng_new(&loop, &cfg, &e), -EINVAL);
		assert_null(e);
	}
	cfg.pair_pn = "+15550000001";
	assert_int_equal(wa_eng_new(&loop, &cfg, &e), 0);
	assert_int_equal(wa_eng_pair_code(e, "12"), -EINVAL);
	assert_int_equal(wa_eng_pair_code(e, "15550000002"), 0);
	wa_eng_free(e);
	assert_int_equal(uv_run(&loop, UV_RUN_DEFAULT), 0);
	assert_int_equal(uv_loop_close(&loop), 0);
}

int
main(void)
{
	const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(
		    test_wa_eng_qr_text__matches_6_2__with_known_keys),
		cmocka_unit_test(
		    test_wa_eng_qr_text__fails__when_the_buffer_is_too_small),
		cmocka_unit_test(test_wa_eng_new__fails__without_a_store),
		cmocka_unit_test(
		    test_wa_eng_start__makes_reg_material_once__and_keeps_it),
		cmocka_unit_test(
		    test_wa_pair_verify__signs_and_strips_acct_key__when_valid),
		cmocka_unit_test(
		    test_wa_pair_verify__fails__on_foreign_secret_or_bad_sig),
		cmocka_unit_test(test_wa_engver_parse__finds_the_revision__in_plain_and_escaped_forms),
		cmocka_unit_test(
		    test_wa_engver_parse__fails__when_the_revision_is_missing),
		cmocka_unit_test(
		    test_wa_engver_parse__handles_huge__numbers_and_pages),
		cmocka_unit_test(
		    test_wa_engver_lookup__times_out__when_the_server_is_silent),
		cmocka_unit_test(
		    test_wa_engver_cancel__ends_the_lookup_without_a_callback),
		cmocka_unit_test(
		    test_wa_paircode_text__encodes_5_bytes__in_wa_base32),
		cmocka_unit_test(test_wa_paircode__wraps_and_derives_the_adv_secret__as_the_phone_does),
		cmocka_unit_test(
		    test_wa_eng_new__fails__on_a_bad_phone_number_to_pair_with),
	};

	if (wa_crypto_init() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
