/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-noise.c -- the Noise XX handshake and transport cipher
 * (proto/noise.c): the prologue vector, both roles against each other in
 * memory, both roles against a transcript recorded with
 * whatsapp-rust-bridge's NoiseSession (tests/fixtures/wa-noise), tampering
 * with each message, and the transport counters.
 */
#include "base/compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <protobuf-c/protobuf-c.h>

#include "base/buf.h"
#include "proto/cert.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/noise.h"
#include "proto/pb.h"
#include "wa6.pb-c.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

static size_t
unhex(const char *s, uint8_t *out, size_t cap)
{
	size_t		 n = 0;
	unsigned	 hi, lo;

	for (; s[0] != '\0' && s[1] != '\0'; s += 2) {
		hi = (unsigned)(s[0] <= '9' ? s[0] - '0' :
		    (s[0] | 0x20) - 'a' + 10);
		lo = (unsigned)(s[1] <= '9' ? s[1] - '0' :
		    (s[1] | 0x20) - 'a' + 10);
		assert_true(n < cap);
		out[n++] = (uint8_t)(hi << 4 | lo);
	}
	return n;
}

/* The keys of one handshake: X25519 private keys from labels. */
struct keys {
	uint8_t		 ce[32], cs[32];	/* client ephemeral, static */
	uint8_t		 se[32], ss[32];	/* server ephemeral, static */
	uint8_t		 root[32], inter[32];
};

static void
keys_init(struct keys *k, unsigned seed)
{
	char	 l[64];

#define KEY(f, name) do {						\
		snprintf(l, sizeof(l), "%s %u", name, seed);		\
		wa_crypto_sha256(l, strlen(l), k->f);			\
	} while (0)
	KEY(ce, "client ephemeral");
	KEY(cs, "client static");
	KEY(se, "server ephemeral");
	KEY(ss, "server static");
	KEY(root, "root");
	KEY(inter, "intermediate");
#undef KEY
}

/* A change made to one handshake message on its way. */
enum msg_id { MSG_HELLO, MSG_SERVER, MSG_FINISH };
enum field_id { F_PART, F_EPHEMERAL, F_STATIC, F_PAYLOAD };
enum op_id { OP_NONE, OP_FLIP, OP_LEN, OP_DROP, OP_ZERO, OP_RAW_FLIP };

struct tamper {
	enum msg_id	 msg;
	enum field_id	 field;
	enum op_id	 op;
	size_t		 arg;	/* byte to flip, or the new length */
};

/* Where a handshake stopped (the call that failed). */
enum step_id {
	ST_READ_HELLO = 1, ST_SERVER_HELLO, ST_READ_SERVER, ST_FINISH,
	ST_READ_FINISH, ST_DONE
};

static void
field_of(Wa__HandshakeMessage *m, enum msg_id msg, enum field_id f,
    ProtobufCBinaryData **d, protobuf_c_boolean **has)
{
	switch (msg) {
	case MSG_HELLO:
		assert_non_null(m->clienthello);
		assert_int_equal(f, F_EPHEMERAL);
		*d = &m->clienthello->ephemeral;
		*has = &m->clienthello->has_ephemeral;
		return;
	case MSG_SERVER:
		assert_non_null(m->serverhello);
		*d = f == F_EPHEMERAL ? &m->serverhello->ephemeral :
		    f == F_STATIC ? &m->serverhello->static_ :
		    &m->serverhello->payload;
		*has = f == F_EPHEMERAL ? &m->serverhello->has_ephemeral :
		    f == F_STATIC ? &m->serverhello->has_static_ :
		    &m->serverhello->has_payload;
		return;
	case MSG_FINISH:
		assert_non_null(m->clientfinish);
		assert_int_not_equal(f, F_EPHEMERAL);
		*d = f == F_STATIC ? &m->clientfinish->static_ :
		    &m->clientfinish->payload;
		*has = f == F_STATIC ? &m->clientfinish->has_static_ :
		    &m->clientfinish->has_payload;
		return;
	}
}

static void
apply(const struct tamper *t, enum msg_id msg, struct buf *b)
{
	ProtobufCMessage	*pm;
	Wa__HandshakeMessage	*m;
	ProtobufCBinaryData	*d;
	protobuf_c_boolean	*has;
	ProtobufCMessage	**part;

	if (t == NULL || t->op == OP_NONE || t->msg != msg)
		return;
	if (t->op == OP_RAW_FLIP) {
		assert_true(t->arg < b->len);
		b->p[t->arg] ^= 0x01;
		return;
	}
	assert_int_equal(wa_pb_unpack(&wa__handshake_message__descriptor,
	    b->p, b->len, &pm), 0);
	m = (Wa__HandshakeMessage *)pm;
	if (t->field == F_PART) {
		part = msg == MSG_HELLO ? (ProtobufCMessage **)&m->clienthello :
		    msg == MSG_SERVER ? (ProtobufCMessage **)&m->serverhello :
		    (ProtobufCMessage **)&m->clientfinish;
		protobuf_c_message_free_unpacked(*part, NULL);
		*part = NULL;
	} else {
		field_of(m, msg, t->field, &d, &has);
		switch (t->op) {
		case OP_FLIP:
			assert_true(t->arg < d->len);
			d->data[t->arg] ^= 0x01;
			break;
		case OP_LEN:
			assert_true(t->arg <= d->len);
			d->len = t->arg;
			break;
		case OP_DROP:
			*has = 0;
			break;
		case OP_ZERO:
			memset(d->data, 0, d->len);
			break;
		case OP_NONE:
		case OP_RAW_FLIP:
			break;
		}
	}
	b->len = 0;
	buf_reserve(b, wa__handshake_message__get_packed_size(m));
	b->len = wa__handshake_message__pack(m, b->p);
	protobuf_c_message_free_unpacked(pm, NULL);
}

#define PAYLOAD	"a ClientPayload stands here"

/*
 * Run initiator and responder against each other with keys k, changing a
 * message as t says (t may be NULL).  Returns 0, or the first error with
 * *step set to the call that returned it.  On success ct and st hold the
 * client's and the server's transport states.  lens gets the length of
 * each message written (before any change).
 */
static int
handshake_lens(const struct keys *k, const struct tamper *t,
    enum step_id *step, struct wa_noise_transport *ct,
    struct wa_noise_transport *st, size_t lens[3])
{
	struct wa_noise		 c, s;
	struct buf		 m = BUF_INIT, cert = BUF_INIT, got = BUF_INIT;
	uint8_t			 ss_pub[32], cs_pub[32], rs[32], rnd[128];
	int			 rc;

	memset(rnd, 0x33, sizeof(rnd));
	wa_crypto_x25519_base(k->ss, ss_pub);
	wa_crypto_x25519_base(k->cs, cs_pub);
	assert_int_equal(wa_cert_issue(k->root, k->inter, ss_pub, 1, 2, 100,
	    200, rnd, &cert), 0);
	wa_noise_init(&c, WA_NOISE_INITIATOR);
	wa_noise_init(&s, WA_NOISE_RESPONDER);

	assert_int_equal(wa_noise_client_hello(&c, k->ce, &m), 0);
	lens[MSG_HELLO] = m.len;
	apply(t, MSG_HELLO, &m);
	*step = ST_READ_HELLO;
	if ((rc = wa_noise_read_client_hello(&s, m.p, m.len)) != 0)
		goto out;
	m.len = 0;
	*step = ST_SERVER_HELLO;
	if ((rc = wa_noise_server_hello(&s, k->se, k->ss, cert.p, cert.len,
	    &m)) != 0)
		goto out;
	lens[MSG_SERVER] = m.len;
	apply(t, MSG_SERVER, &m);
	*step = ST_READ_SERVER;
	if ((rc = wa_noise_read_server_hello(&c, m.p, m.len, rs, &got)) != 0)
		goto out;
	assert_memory_equal(rs, ss_pub, 32);
	assert_int_equal(got.len, cert.len);
	assert_memory_equal(got.p, cert.p, cert.len);
	m.len = got.len = 0;
	*step = ST_FINISH;
	if ((rc = wa_noise_client_finish(&c, k->cs, (const uint8_t *)PAYLOAD,
	    strlen(PAYLOAD), &m)) != 0)
		goto out;
	lens[MSG_FINISH] = m.len;
	apply(t, MSG_FINISH, &m);
	*step = ST_READ_FINISH;
	if ((rc = wa_noise_read_client_finish(&s, m.p, m.len, rs, &got)) != 0)
		goto out;
	assert_memory_equal(rs, cs_pub, 32);
	assert_int_equal(got.len, strlen(PAYLOAD));
	assert_memory_equal(got.p, PAYLOAD, got.len);
	*step = ST_DONE;
	assert_int_equal(wa_noise_split(&c, ct), 0);
	assert_int_equal(wa_noise_split(&s, st), 0);
out:
	wa_noise_release(&c);
	wa_noise_release(&s);
	buf_release(&m);
	buf_release(&cert);
	buf_release(&got);
	return rc;
}

static int
handshake(const struct keys *k, const struct tamper *t, enum step_id *step,
    struct wa_noise_transport *ct, struct wa_noise_transport *st)
{
	size_t	 lens[3];

	return handshake_lens(k, t, step, ct, st, lens);
}

static void
test_wa_noise_init__hashes_the_prologue__to_the_protocol_vector(void **state)
{
	static const uint8_t	 want[32] = {
		0xff, 0xff, 0x0c, 0x92, 0x67, 0x31, 0x09, 0x66,
		0xf1, 0x31, 0x11, 0x70, 0xc0, 0x4b, 0x38, 0xc7,
		0x95, 0x04, 0x28, 0x5b, 0xf5, 0xed, 0xf7, 0x63,
		0xe5, 0xc9, 0x46, 0x49, 0x2a, 0x50, 0xa7, 0x55,
	};
	struct wa_noise		 hs;

	(void)state;
	wa_noise_init(&hs, WA_NOISE_INITIATOR);
	assert_memory_equal(hs.h, want, 32);
	/* ck is the pattern name itself, not the hash. */
	assert_memory_equal(hs.ck, WA_NOISE_PATTERN, 32);
	wa_noise_init(&hs, WA_NOISE_RESPONDER);
	assert_memory_equal(hs.h, want, 32);
	wa_noise_release(&hs);
}

/* Send n frames each way, of sizes 0.., and check each arrives. */
static void
exchange(struct wa_noise_transport *a, struct wa_noise_transport *b,
    unsigned n)
{
	uint8_t		 p[600], c[616];
	unsigned	 i, j, len;

	for (i = 0; i < n; i++) {
		len = (i * 37) % 600;
		for (j = 0; j < len; j++)
			p[j] = (uint8_t)(i + j);
		assert_int_equal(wa_noise_encrypt(i % 2 ? a : b, p, len, c), 0);
		/* In place on the receiving side. */
		assert_int_equal(wa_noise_decrypt(i % 2 ? b : a, c,
		    len + WA_NOISE_OVERHEAD, c), 0);
		assert_memory_equal(c, p, len);
	}
}

static void
test_wa_noise_handshake__completes_in_memory__then_frames_flow_both_ways(
    void **state)
{
	struct keys			 k;
	struct wa_noise_transport	 ct, st;
	enum step_id			 step;
	unsigned			 seed;

	(void)state;
	for (seed = 0; seed < 8; seed++) {
		keys_init(&k, seed);
		assert_int_equal(handshake(&k, NULL, &step, &ct, &st), 0);
		assert_int_equal(step, ST_DONE);
		exchange(&ct, &st, 200);
		assert_true(ct.send_n == 100 && ct.recv_n == 100);
		assert_true(st.send_n == 100 && st.recv_n == 100);
		wa_noise_transport_release(&ct);
		wa_noise_transport_release(&st);
		wa_noise_transport_release(&st);
	}
}

/* One named value of the bridge transcript. */
static size_t
fixture(const char *name, uint8_t *out, size_t cap)
{
	FILE	*fp = fopen(FIXTURES "/wa-noise/bridge-xx.hex", "r");
	char	 line[4096];
	size_t	 n = strlen(name), len = 0;
	int	 found = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, name, n) == 0 && strncmp(line + n, ": ", 2)
		    == 0) {
			len = unhex(line + n + 2, out, cap);
			found = 1;
			break;
		}
	}
	fclose(fp);
	assert_true(found);
	return len;
}

static void
test_wa_noise_responder__answers_the_bridge_initiator__as_recorded(
    void **state)
{
	struct wa_noise			 s;
	struct wa_noise_transport	 st;
	struct buf			 out = BUF_INIT;
	uint8_t				 se[32], ss[32], cs[32], cs_pub[32];
	uint8_t				 a[512], b[512], rs[32];
	size_t				 na, nb;
	char				 name[32];
	int				 i;

	(void)state;
	fixture("key_se", se, 32);
	fixture("key_ss", ss, 32);
	fixture("key_cs", cs, 32);
	wa_crypto_x25519_base(cs, cs_pub);

	wa_noise_init(&s, WA_NOISE_RESPONDER);
	na = fixture("client_hello", a, sizeof(a));
	assert_int_equal(wa_noise_read_client_hello(&s, a, na), 0);
	/* The bridge's getHash() after its constructor. */
	nb = fixture("h_after_e", b, sizeof(b));
	assert_memory_equal(s.h, b, nb);
	na = fixture("cert", a, sizeof(a));
	assert_int_equal(wa_noise_server_hello(&s, se, ss, a, na, &out), 0);
	nb = fixture("server_hello", b, sizeof(b));
	assert_int_equal(out.len, nb);
	assert_memory_equal(out.p, b, nb);

	/* The bridge's clientFinish: its static and ClientPayload. */
	na = fixture("client_finish", a, sizeof(a));
	out.len = 0;
	assert_int_equal(wa_noise_read_client_finish(&s, a, na, rs, &out), 0);
	assert_memory_equal(rs, cs_pub, 32);
	nb = fixture("client_payload", b, sizeof(b));
	assert_int_equal(out.len, nb);
	assert_memory_equal(out.p, b, nb);
	assert_int_equal(wa_noise_split(&s, &st), 0);

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "c2s_cipher_%d", i);
		na = fixture(name, a, sizeof(a));
		snprintf(name, sizeof(name), "c2s_plain_%d", i);
		nb = fixture(name, b, sizeof(b));
		assert_int_equal(wa_noise_decrypt(&st, a, na, a), 0);
		assert_int_equal(na - WA_NOISE_OVERHEAD, nb);
		assert_memory_equal(a, b, nb);
	}
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "s2c_plain_%d", i);
		na = fixture(name, a, sizeof(a));
		snprintf(name, sizeof(name), "s2c_cipher_%d", i);
		nb = fixture(name, b, sizeof(b));
		assert_int_equal(wa_noise_encrypt(&st, a, na, a), 0);
		assert_int_equal(na + WA_NOISE_OVERHEAD, nb);
		assert_memory_equal(a, b, nb);
	}
	wa_noise_transport_release(&st);
	buf_release(&out);
}

static void
test_wa_noise_initiator__writes_the_bridge_initiator_bytes__as_recorded(
    void **state)
{
	struct wa_noise			 c;
	struct wa_noise_transport	 ct;
	struct buf			 out = BUF_INIT;
	uint8_t				 ce[32], cs[32], ss[32], ss_pub[32];
	uint8_t				 a[512], b[512], rs[32];
	size_t				 na, nb;
	char				 name[32];
	int				 i;

	(void)state;
	fixture("key_ce", ce, 32);
	fixture("key_cs", cs, 32);
	fixture("key_ss", ss, 32);
	wa_crypto_x25519_base(ss, ss_pub);

	wa_noise_init(&c, WA_NOISE_INITIATOR);
	assert_int_equal(wa_noise_client_hello(&c, ce, &out), 0);
	nb = fixture("client_hello", b, sizeof(b));
	assert_int_equal(out.len, nb);
	assert_memory_equal(out.p, b, nb);
	nb = fixture("h_after_e", b, sizeof(b));
	assert_memory_equal(c.h, b, nb);

	na = fixture("server_hello", a, sizeof(a));
	out.len = 0;
	assert_int_equal(wa_noise_read_server_hello(&c, a, na, rs, &out), 0);
	assert_memory_equal(rs, ss_pub, 32);
	nb = fixture("cert", b, sizeof(b));
	assert_int_equal(out.len, nb);
	assert_memory_equal(out.p, b, nb);

	/* Byte for byte what the bridge's NoiseSession sent. */
	na = fixture("client_payload", a, sizeof(a));
	out.len = 0;
	assert_int_equal(wa_noise_client_finish(&c, cs, a, na, &out), 0);
	nb = fixture("client_finish", b, sizeof(b));
	assert_int_equal(out.len, nb);
	assert_memory_equal(out.p, b, nb);
	assert_int_equal(wa_noise_split(&c, &ct), 0);

	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "c2s_plain_%d", i);
		na = fixture(name, a, sizeof(a));
		snprintf(name, sizeof(name), "c2s_cipher_%d", i);
		nb = fixture(name, b, sizeof(b));
		assert_int_equal(wa_noise_encrypt(&ct, a, na, a), 0);
		assert_memory_equal(a, b, nb);
	}
	for (i = 0; i < 3; i++) {
		snprintf(name, sizeof(name), "s2c_cipher_%d", i);
		na = fixture(name, a, sizeof(a));
		snprintf(name, sizeof(name), "s2c_plain_%d", i);
		nb = fixture(name, b, sizeof(b));
		assert_int_equal(wa_noise_decrypt(&ct, a, na, a), 0);
		assert_memory_equal(a, b, nb);
	}
	wa_noise_transport_release(&ct);
	buf_release(&out);
}

static void
test_wa_noise_handshake__fails_with_the_right_code__for_each_tampering(
    void **state)
{
	static const struct {
		struct tamper	 t;
		int		 rc;
		enum step_id	 step;
	} cases[] = {
		{ { MSG_HELLO, F_PART, OP_DROP, 0 }, WC_EHSMSG, ST_READ_HELLO },
		{ { MSG_HELLO, F_EPHEMERAL, OP_LEN, 31 }, WC_EHSEPHEMERAL,
		    ST_READ_HELLO },
		{ { MSG_HELLO, F_EPHEMERAL, OP_DROP, 0 }, WC_EHSEPHEMERAL,
		    ST_READ_HELLO },
		{ { MSG_HELLO, F_EPHEMERAL, OP_ZERO, 0 }, WC_ELOWORDER,
		    ST_SERVER_HELLO },
		{ { MSG_HELLO, F_EPHEMERAL, OP_FLIP, 5 }, WC_EBADMAC,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_PART, OP_DROP, 0 }, WC_EHSMSG,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_EPHEMERAL, OP_LEN, 31 }, WC_EHSEPHEMERAL,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_EPHEMERAL, OP_DROP, 0 }, WC_EHSEPHEMERAL,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_EPHEMERAL, OP_ZERO, 0 }, WC_ELOWORDER,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_EPHEMERAL, OP_FLIP, 0 }, WC_EBADMAC,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_STATIC, OP_LEN, 47 }, WC_EHSSTATIC,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_STATIC, OP_DROP, 0 }, WC_EHSSTATIC,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_STATIC, OP_FLIP, 0 }, WC_EBADMAC,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_STATIC, OP_FLIP, 47 }, WC_EBADMAC,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_PAYLOAD, OP_LEN, 15 }, WC_EHSPAYLOAD,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_PAYLOAD, OP_DROP, 0 }, WC_EHSPAYLOAD,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_PAYLOAD, OP_FLIP, 3 }, WC_EBADMAC,
		    ST_READ_SERVER },
		{ { MSG_SERVER, F_PAYLOAD, OP_LEN, 16 }, WC_EBADMAC,
		    ST_READ_SERVER },
		{ { MSG_FINISH, F_PART, OP_DROP, 0 }, WC_EHSMSG,
		    ST_READ_FINISH },
		{ { MSG_FINISH, F_STATIC, OP_LEN, 32 }, WC_EHSSTATIC,
		    ST_READ_FINISH },
		{ { MSG_FINISH, F_STATIC, OP_FLIP, 10 }, WC_EBADMAC,
		    ST_READ_FINISH },
		{ { MSG_FINISH, F_PAYLOAD, OP_LEN, 15 }, WC_EHSPAYLOAD,
		    ST_READ_FINISH },
		{ { MSG_FINISH, F_PAYLOAD, OP_DROP, 0 }, WC_EHSPAYLOAD,
		    ST_READ_FINISH },
		{ { MSG_FINISH, F_PAYLOAD, OP_FLIP, 0 }, WC_EBADMAC,
		    ST_READ_FINISH },
	};
	struct keys			 k;
	struct wa_noise_transport	 ct, st;
	enum step_id			 step;
	size_t				 i;

	(void)state;
	keys_init(&k, 1);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		assert_int_equal(handshake(&k, &cases[i].t, &step, &ct, &st),
		    cases[i].rc);
		assert_int_equal(step, cases[i].step);
	}
}

static void
test_wa_noise_handshake__never_completes__with_any_byte_flipped(void **state)
{
	struct keys			 k;
	struct wa_noise_transport	 ct, st;
	struct tamper			 t;
	enum step_id			 step;
	size_t				 lens[3], i;
	int				 msg;

	(void)state;
	keys_init(&k, 2);
	assert_int_equal(handshake_lens(&k, NULL, &step, &ct, &st, lens), 0);
	wa_noise_transport_release(&ct);
	wa_noise_transport_release(&st);
	assert_int_equal(lens[MSG_HELLO], 36);	/* 12 22 0a 20 + key */
	for (msg = MSG_HELLO; msg <= MSG_FINISH; msg++)
		for (i = 0; i < lens[msg]; i++) {
			t.msg = (enum msg_id)msg;
			t.field = F_PART;
			t.op = OP_RAW_FLIP;
			t.arg = i;
			assert_int_not_equal(handshake(&k, &t, &step, &ct, &st),
			    0);
		}
}

static void
test_wa_noise_decrypt__fails__for_frames_out_of_order(void **state)
{
	struct keys			 k;
	struct wa_noise_transport	 ct, st;
	enum step_id			 step;
	uint8_t				 c1[17], c2[17], c3[17], p[1];

	(void)state;
	keys_init(&k, 3);
	assert_int_equal(handshake(&k, NULL, &step, &ct, &st), 0);
	assert_int_equal(wa_noise_encrypt(&ct, (const uint8_t *)"1", 1, c1), 0);
	assert_int_equal(wa_noise_encrypt(&ct, (const uint8_t *)"2", 1, c2), 0);
	assert_int_equal(wa_noise_encrypt(&ct, (const uint8_t *)"3", 1, c3), 0);
	/* 2 before 1 fails, and 1 after it too: each used up a counter. */
	assert_int_equal(wa_noise_decrypt(&st, c2, sizeof(c2), p), WC_EBADMAC);
	assert_int_equal(wa_noise_decrypt(&st, c1, sizeof(c1), p), WC_EBADMAC);
	/* Frame 3 meets counter 2 and still lines up. */
	assert_int_equal(wa_noise_decrypt(&st, c3, sizeof(c3), p), 0);
	assert_int_equal(p[0], '3');
	/* A replay fails. */
	assert_int_equal(wa_noise_decrypt(&st, c3, sizeof(c3), p), WC_EBADMAC);
	assert_true(st.recv_n == 4);
	wa_noise_transport_release(&ct);
	wa_noise_transport_release(&st);
}

static void
test_wa_noise_decrypt__advances_the_counter__when_a_frame_fails(void **state)
{
	struct keys			 k;
	struct wa_noise_transport	 ct, st;
	enum step_id			 step;
	uint8_t				 c1[20], c2[20], p[4];

	(void)state;
	keys_init(&k, 4);
	assert_int_equal(handshake(&k, NULL, &step, &ct, &st), 0);
	assert_int_equal(wa_noise_encrypt(&st, (const uint8_t *)"abcd", 4, c1),
	    0);
	assert_int_equal(wa_noise_encrypt(&st, (const uint8_t *)"efgh", 4, c2),
	    0);
	c1[0] ^= 0x80;	/* damaged on the way */
	assert_int_equal(wa_noise_decrypt(&ct, c1, sizeof(c1), p), WC_EBADMAC);
	assert_int_equal(wa_noise_decrypt(&ct, c2, sizeof(c2), p), 0);
	assert_memory_equal(p, "efgh", 4);
	/* Too short for a tag: refused, and the counter still moves. */
	assert_int_equal(wa_noise_decrypt(&ct, c2, 15, p), WC_ETRUNC);
	assert_true(ct.recv_n == 3);
	wa_noise_transport_release(&ct);
	wa_noise_transport_release(&st);
}

static void
test_wa_noise_encrypt__refuses__once_counter_2_32_minus_1_is_used(
    void **state)
{
	struct keys			 k;
	struct wa_noise_transport	 ct, st;
	enum step_id			 step;
	uint8_t				 c[17], p[1];

	(void)state;
	keys_init(&k, 5);
	assert_int_equal(handshake(&k, NULL, &step, &ct, &st), 0);
	ct.send_n = st.recv_n = UINT32_MAX;
	/* The last counter is still good, on both sides. */
	assert_int_equal(wa_noise_encrypt(&ct, (const uint8_t *)"z", 1, c), 0);
	assert_int_equal(wa_noise_decrypt(&st, c, sizeof(c), p), 0);
	assert_int_equal(p[0], 'z');
	/* The next would wrap to 0 and reuse a nonce. */
	assert_int_equal(wa_noise_encrypt(&ct, (const uint8_t *)"z", 1, c),
	    WC_ENONCE);
	assert_int_equal(wa_noise_encrypt(&ct, (const uint8_t *)"z", 1, c),
	    WC_ENONCE);
	assert_int_equal(wa_noise_decrypt(&st, c, sizeof(c), p), WC_ENONCE);
	/* The other direction is independent. */
	assert_int_equal(wa_noise_encrypt(&st, (const uint8_t *)"y", 1, c), 0);
	assert_int_equal(wa_noise_decrypt(&ct, c, sizeof(c), p), 0);
	wa_noise_transport_release(&ct);
	wa_noise_transport_release(&st);
	/* A released state refuses too. */
	assert_int_equal(wa_noise_encrypt(&st, (const uint8_t *)"y", 1, c),
	    WC_ENONCE);
}

static void
test_wa_noise__refuses_calls_out_of_order__and_dies_after_an_error(
    void **state)
{
	struct wa_noise			 c, s;
	struct wa_noise_transport	 t;
	struct buf			 m = BUF_INIT;
	uint8_t				 key[32], rs[32];

	(void)state;
	memset(key, 0x11, sizeof(key));
	wa_noise_init(&c, WA_NOISE_INITIATOR);
	wa_noise_init(&s, WA_NOISE_RESPONDER);
	/* Wrong role, wrong step. */
	assert_int_equal(wa_noise_client_hello(&s, key, &m), WC_ESTATE);
	assert_int_equal(wa_noise_read_client_hello(&s, m.p, m.len), WC_ESTATE);
	assert_int_equal(wa_noise_split(&c, &t), WC_ESTATE);
	assert_int_equal(wa_noise_client_hello(&c, key, &m), WC_ESTATE);
	assert_int_equal(m.len, 0);

	/* An error kills the state for good. */
	wa_noise_init(&c, WA_NOISE_INITIATOR);
	assert_int_equal(wa_noise_client_hello(&c, key, &m), 0);
	assert_int_equal(wa_noise_read_server_hello(&c, (const uint8_t *)"x",
	    1, rs, &m), WC_ETRUNC);
	assert_int_equal(c.step, WA_NOISE_STEP_DEAD);
	assert_int_equal(wa_noise_read_server_hello(&c, m.p, m.len, rs, &m),
	    WC_ESTATE);
	buf_release(&m);
}

static void
test_wa_noise_release__wipes_keys_and_hash(void **state)
{
	struct wa_noise	 c;
	struct buf	 m = BUF_INIT;
	uint8_t		 key[32], zero[32];

	(void)state;
	memset(key, 0x11, sizeof(key));
	memset(zero, 0, sizeof(zero));
	wa_noise_init(&c, WA_NOISE_INITIATOR);
	assert_int_equal(wa_noise_client_hello(&c, key, &m), 0);
	wa_noise_release(&c);
	assert_memory_equal(c.h, zero, 32);
	assert_memory_equal(c.ck, zero, 32);
	assert_memory_equal(c.k, zero, 32);
	assert_memory_equal(c.e_priv, zero, 32);
	assert_int_equal(c.step, WA_NOISE_STEP_DEAD);
	buf_release(&m);
}

static int
setup(void **state)
{
	(void)state;
	return wa_crypto_init();
}

int
main(void)
{
	static const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(test_wa_noise_init__hashes_the_prologue__to_the_protocol_vector),
		cmocka_unit_test(test_wa_noise_handshake__completes_in_memory__then_frames_flow_both_ways),
		cmocka_unit_test(test_wa_noise_responder__answers_the_bridge_initiator__as_recorded),
		cmocka_unit_test(test_wa_noise_initiator__writes_the_bridge_initiator_bytes__as_recorded),
		cmocka_unit_test(test_wa_noise_handshake__fails_with_the_right_code__for_each_tampering),
		cmocka_unit_test(test_wa_noise_handshake__never_completes__with_any_byte_flipped),
		cmocka_unit_test(test_wa_noise_decrypt__fails__for_frames_out_of_order),
		cmocka_unit_test(test_wa_noise_decrypt__advances_the_counter__when_a_frame_fails),
		cmocka_unit_test(test_wa_noise_encrypt__refuses__once_counter_2_32_minus_1_is_used),
		cmocka_unit_test(test_wa_noise__refuses_calls_out_of_order__and_dies_after_an_error),
		cmocka_unit_test(test_wa_noise_release__wipes_keys_and_hash),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
