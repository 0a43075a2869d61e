/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-cert.c -- the server certificate chain (proto/cert.c):
 * issue and verify, and each check of protocol.md 2.4 failing with its own
 * code and reason.
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
#include "cert.pb-c.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/pb.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

#define NOW	1750000000u	/* a time inside the test windows */
#define NB	1700000000u	/* notBefore */
#define NA	1800000000u	/* notAfter */

/* Keys from labels, and a standard chain's parameters. */
struct chain {
	uint8_t			 root[32], root_pub[32];
	uint8_t			 inter[32], inter_pub[32];
	uint8_t			 other[32];	/* a key nobody trusts */
	uint8_t			 ss[32], ss_pub[32];
	uint8_t			 rnd[128];
	struct wa_cert_spec	 i, l;
};

static void
chain_init(struct chain *c)
{
	wa_crypto_sha256("root", 4, c->root);
	wa_crypto_sha256("intermediate", 12, c->inter);
	wa_crypto_sha256("other", 5, c->other);
	wa_crypto_sha256("server static", 13, c->ss);
	wa_crypto_x25519_base(c->root, c->root_pub);
	wa_crypto_x25519_base(c->inter, c->inter_pub);
	wa_crypto_x25519_base(c->ss, c->ss_pub);
	memset(c->rnd, 0x42, sizeof(c->rnd));
	c->i.serial = 7;
	c->i.issuer_serial = 0;
	c->i.key = c->inter_pub;
	c->i.not_before_s = NB;
	c->i.not_after_s = NA;
	c->i.signer_priv = c->root;
	c->i.random = c->rnd;
	c->l.serial = 8;
	c->l.issuer_serial = 7;
	c->l.key = c->ss_pub;
	c->l.not_before_s = NB;
	c->l.not_after_s = NA;
	c->l.signer_priv = c->inter;
	c->l.random = c->rnd + 64;
}

/* Issue c's specs and verify the chain at now; return the code. */
static int
check(const struct chain *c, uint64_t now, const char **reason)
{
	struct buf	 b = BUF_INIT;
	int		 rc;

	assert_int_equal(wa_cert_issue_spec(&c->i, &c->l, &b), 0);
	rc = wa_cert_verify(b.p, b.len, c->root_pub, c->ss_pub, now, reason);
	buf_release(&b);
	return rc;
}

static void
test_wa_cert_whatsapp_root__is_the_published_key(void **state)
{
	static const uint8_t	 want[32] = {
		0x14, 0x23, 0x75, 0x57, 0x4d, 0x0a, 0x58, 0x71,
		0x66, 0xaa, 0xe7, 0x1e, 0xbe, 0x51, 0x64, 0x37,
		0xc4, 0xa2, 0x8b, 0x73, 0xe3, 0x69, 0x5c, 0x6c,
		0xe1, 0xf7, 0xf9, 0x54, 0x5d, 0xa8, 0xee, 0x6b,
	};

	(void)state;
	assert_memory_equal(WA_CERT_WHATSAPP_ROOT, want, 32);
}

static void
test_wa_cert_verify__passes__a_good_chain_inside_its_window(void **state)
{
	struct chain	 c;
	struct buf	 b = BUF_INIT;
	const char	*reason = "untouched";

	(void)state;
	chain_init(&c);
	assert_int_equal(check(&c, NOW, &reason), 0);
	assert_string_equal(reason, "untouched");
	/* Both ends of the window are inside it. */
	assert_int_equal(check(&c, NB, NULL), 0);
	assert_int_equal(check(&c, NA, NULL), 0);
	/* wa_cert_issue() makes the same standard chain. */
	assert_int_equal(wa_cert_issue(c.root, c.inter, c.ss_pub, 7, 8, NB, NA,
	    c.rnd, &b), 0);
	assert_int_equal(wa_cert_verify(b.p, b.len, c.root_pub, c.ss_pub, NOW,
	    NULL), 0);
	buf_release(&b);
}

static void
test_wa_cert_verify__fails_with_ecertroot__for_a_chain_from_another_root(
    void **state)
{
	struct chain	 c;
	const char	*reason = NULL;
	struct buf	 b = BUF_INIT;

	(void)state;
	chain_init(&c);
	c.i.signer_priv = c.other;
	assert_int_equal(check(&c, NOW, &reason), WC_ECERTROOT);
	assert_non_null(strstr(reason, "not signed by the trusted root"));
	/* A good test chain is refused against WhatsApp's real root. */
	chain_init(&c);
	assert_int_equal(wa_cert_issue_spec(&c.i, &c.l, &b), 0);
	assert_int_equal(wa_cert_verify(b.p, b.len, WA_CERT_WHATSAPP_ROOT,
	    c.ss_pub, NOW, NULL), WC_ECERTROOT);
	buf_release(&b);
}

static void
test_wa_cert_verify__fails_with_ecertsig__for_a_leaf_another_key_signed(
    void **state)
{
	struct chain	 c;
	const char	*reason = NULL;

	(void)state;
	chain_init(&c);
	c.l.signer_priv = c.other;
	assert_int_equal(check(&c, NOW, &reason), WC_ECERTSIG);
	assert_non_null(strstr(reason, "not signed by the intermediate"));
}

static void
test_wa_cert_verify__fails_with_ecertkey__for_a_leaf_key_not_the_static(
    void **state)
{
	struct chain	 c;
	const char	*reason = NULL;
	uint8_t		 other_pub[32];

	(void)state;
	chain_init(&c);
	wa_crypto_x25519_base(c.other, other_pub);
	c.l.key = other_pub;
	assert_int_equal(check(&c, NOW, &reason), WC_ECERTKEY);
	assert_string_equal(reason, "leaf key is not the server's static key");
	assert_string_equal(wc_strerror(WC_ECERTKEY),
	    "leaf key is not the server's static key");
}

static void
test_wa_cert_verify__fails_with_ecertexpired__for_an_expired_certificate(
    void **state)
{
	struct chain	 c;
	const char	*reason = NULL;

	(void)state;
	chain_init(&c);
	assert_int_equal(check(&c, NA + 1, &reason), WC_ECERTEXPIRED);
	assert_string_equal(reason, "intermediate certificate expired");
	c.l.not_after_s = NOW - 1;
	assert_int_equal(check(&c, NOW, &reason), WC_ECERTEXPIRED);
	assert_string_equal(reason, "leaf certificate expired");
	chain_init(&c);
	c.i.not_after_s = NOW - 1;
	assert_int_equal(check(&c, NOW, &reason), WC_ECERTEXPIRED);
	assert_string_equal(reason, "intermediate certificate expired");
}

static void
test_wa_cert_verify__fails_with_ecertnotyet__for_a_certificate_not_yet_valid(
    void **state)
{
	struct chain	 c;
	const char	*reason = NULL;

	(void)state;
	chain_init(&c);
	assert_int_equal(check(&c, NB - 1, &reason), WC_ECERTNOTYET);
	assert_string_equal(reason, "intermediate certificate not yet valid");
	c.l.not_before_s = NOW + 1;
	assert_int_equal(check(&c, NOW, &reason), WC_ECERTNOTYET);
	assert_string_equal(reason, "leaf certificate not yet valid");
}

static void
test_wa_cert_verify__fails_with_ecertissuer__for_a_wrong_issuer_serial(
    void **state)
{
	struct chain	 c;
	const char	*reason = NULL;

	(void)state;
	chain_init(&c);
	c.l.issuer_serial = 6;
	assert_int_equal(check(&c, NOW, &reason), WC_ECERTISSUER);
	assert_non_null(strstr(reason, "wrong issuer serial"));
	assert_non_null(strstr(reason, "leaf"));
	chain_init(&c);
	c.i.issuer_serial = 1;
	assert_int_equal(check(&c, NOW, &reason), WC_ECERTISSUER);
	assert_non_null(strstr(reason, "wrong issuer serial"));
	assert_non_null(strstr(reason, "intermediate"));
}

/* Pack a CertChain from the parts of a good one, changed by the caller. */
static void
repack(Wa__CertChain *cc, struct buf *b)
{
	b->len = 0;
	buf_reserve(b, wa__cert_chain__get_packed_size(cc));
	b->len = wa__cert_chain__pack(cc, b->p);
}

static void
test_wa_cert_verify__fails_with_ecertformat__for_malformed_chains(
    void **state)
{
	struct chain				 c;
	struct buf				 good = BUF_INIT, b = BUF_INIT;
	ProtobufCMessage			*m;
	Wa__CertChain				*cc;
	Wa__CertChain__NoiseCertificate		*leaf, *inter;
	const char				*reason = NULL;
	uint8_t					 short_key[31];

	(void)state;
	chain_init(&c);
	assert_int_equal(wa_cert_issue_spec(&c.i, &c.l, &good), 0);
	assert_int_equal(wa_pb_unpack(&wa__cert_chain__descriptor, good.p,
	    good.len, &m), 0);
	cc = (Wa__CertChain *)m;
	leaf = cc->leaf;
	inter = cc->intermediate;

	/* Not a protobuf at all. */
	assert_int_equal(wa_cert_verify((const uint8_t *)"\xff\xff", 2,
	    c.root_pub, c.ss_pub, NOW, &reason), WC_ECERTFORMAT);
	assert_int_equal(wa_cert_verify(NULL, 0, c.root_pub, c.ss_pub, NOW,
	    &reason), WC_ECERTFORMAT);
	assert_non_null(strstr(reason, "intermediate"));
	/* No leaf. */
	cc->leaf = NULL;
	repack(cc, &b);
	assert_int_equal(wa_cert_verify(b.p, b.len, c.root_pub, c.ss_pub, NOW,
	    &reason), WC_ECERTFORMAT);
	assert_non_null(strstr(reason, "leaf"));
	cc->leaf = leaf;
	/* A 63-byte signature. */
	inter->signature.len = 63;
	repack(cc, &b);
	assert_int_equal(wa_cert_verify(b.p, b.len, c.root_pub, c.ss_pub, NOW,
	    &reason), WC_ECERTFORMAT);
	inter->signature.len = 64;
	/* No details. */
	leaf->has_details = 0;
	repack(cc, &b);
	assert_int_equal(wa_cert_verify(b.p, b.len, c.root_pub, c.ss_pub, NOW,
	    &reason), WC_ECERTFORMAT);
	leaf->has_details = 1;
	repack(cc, &b);
	assert_int_equal(wa_cert_verify(b.p, b.len, c.root_pub, c.ss_pub, NOW,
	    &reason), 0);
	protobuf_c_message_free_unpacked(m, NULL);

	/* A signed intermediate whose key is 31 bytes. */
	memset(short_key, 1, sizeof(short_key));
	chain_init(&c);
	{
		Wa__CertChain__NoiseCertificate__Details	 d =
		    WA__CERT_CHAIN__NOISE_CERTIFICATE__DETAILS__INIT;
		Wa__CertChain__NoiseCertificate			 ci =
		    WA__CERT_CHAIN__NOISE_CERTIFICATE__INIT;
		Wa__CertChain__NoiseCertificate			 cl =
		    WA__CERT_CHAIN__NOISE_CERTIFICATE__INIT;
		Wa__CertChain					 ch =
		    WA__CERT_CHAIN__INIT;
		uint8_t						 det[64];
		uint8_t						 sig[64];
		size_t						 n;

		d.has_key = 1;
		d.key.data = short_key;
		d.key.len = sizeof(short_key);
		n = protobuf_c_message_pack(&d.base, det);
		assert_int_equal(wa_crypto_xeddsa_sign(c.root, det, n, c.rnd,
		    sig), 0);
		ci.has_details = cl.has_details = 1;
		ci.details.data = cl.details.data = det;
		ci.details.len = cl.details.len = n;
		ci.has_signature = cl.has_signature = 1;
		ci.signature.data = cl.signature.data = sig;
		ci.signature.len = cl.signature.len = sizeof(sig);
		ch.intermediate = &ci;
		ch.leaf = &cl;
		repack(&ch, &b);
		assert_int_equal(wa_cert_verify(b.p, b.len, c.root_pub,
		    c.ss_pub, NOW, &reason), WC_ECERTFORMAT);
		assert_string_equal(reason,
		    "intermediate certificate key is not 32 bytes");
	}
	buf_release(&good);
	buf_release(&b);
}

static void
test_wa_cert_verify__never_passes__with_any_byte_flipped(void **state)
{
	struct chain	 c;
	struct buf	 b = BUF_INIT;
	size_t		 i;
	int		 bit;

	(void)state;
	chain_init(&c);
	assert_int_equal(wa_cert_issue_spec(&c.i, &c.l, &b), 0);
	for (i = 0; i < b.len; i++)
		for (bit = 0; bit < 8; bit += 7) {
			b.p[i] ^= (uint8_t)(1u << bit);
			assert_int_not_equal(wa_cert_verify(b.p, b.len,
			    c.root_pub, c.ss_pub, NOW, NULL), 0);
			b.p[i] ^= (uint8_t)(1u << bit);
		}
	assert_int_equal(wa_cert_verify(b.p, b.len, c.root_pub, c.ss_pub, NOW,
	    NULL), 0);
	buf_release(&b);
}

/* The chain in the bridge transcript, whose signatures the bridge's
 * verifySignature accepted, comes out of wa_cert_issue() again. */
static void
test_wa_cert_issue__reproduces_the_chain_the_bridge_verified(void **state)
{
	FILE		*fp = fopen(FIXTURES "/wa-noise/bridge-xx.hex", "r");
	char		 line[4096];
	uint8_t		 want[512], root[32], inter[32], ss[32], ss_pub[32];
	uint8_t		 root_pub[32], rnd[128];
	size_t		 n = 0;
	struct buf	 b = BUF_INIT;
	int		 i;
	unsigned	 v;

	(void)state;
	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		uint8_t		*dst = NULL;
		char		*s;

		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "cert: ", 6) == 0)
			dst = want;
		else if (strncmp(line, "key_root: ", 10) == 0)
			dst = root;
		else if (strncmp(line, "key_inter: ", 11) == 0)
			dst = inter;
		else if (strncmp(line, "key_ss: ", 8) == 0)
			dst = ss;
		if (dst == NULL)
			continue;
		s = strchr(line, ' ') + 1;
		for (i = 0; s[0] != '\0' && sscanf(s, "%2x", &v) == 1; s += 2)
			dst[i++] = (uint8_t)v;
		if (dst == want)
			n = (size_t)i;
	}
	fclose(fp);
	assert_int_equal(n, 240);
	for (i = 0; i < 128; i++)
		rnd[i] = (uint8_t)(i * 7 + 1);
	wa_crypto_x25519_base(ss, ss_pub);
	wa_crypto_x25519_base(root, root_pub);
	assert_int_equal(wa_cert_issue(root, inter, ss_pub, 1, 2, 1700000000,
	    2000000000, rnd, &b), 0);
	assert_int_equal(b.len, n);
	assert_memory_equal(b.p, want, n);
	assert_int_equal(wa_cert_verify(b.p, b.len, root_pub, ss_pub,
	    1800000000, NULL), 0);
	buf_release(&b);
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
		cmocka_unit_test(test_wa_cert_whatsapp_root__is_the_published_key),
		cmocka_unit_test(test_wa_cert_verify__passes__a_good_chain_inside_its_window),
		cmocka_unit_test(test_wa_cert_verify__fails_with_ecertroot__for_a_chain_from_another_root),
		cmocka_unit_test(test_wa_cert_verify__fails_with_ecertsig__for_a_leaf_another_key_signed),
		cmocka_unit_test(test_wa_cert_verify__fails_with_ecertkey__for_a_leaf_key_not_the_static),
		cmocka_unit_test(test_wa_cert_verify__fails_with_ecertexpired__for_an_expired_certificate),
		cmocka_unit_test(test_wa_cert_verify__fails_with_ecertnotyet__for_a_certificate_not_yet_valid),
		cmocka_unit_test(test_wa_cert_verify__fails_with_ecertissuer__for_a_wrong_issuer_serial),
		cmocka_unit_test(test_wa_cert_verify__fails_with_ecertformat__for_malformed_chains),
		cmocka_unit_test(test_wa_cert_verify__never_passes__with_any_byte_flipped),
		cmocka_unit_test(test_wa_cert_issue__reproduces_the_chain_the_bridge_verified),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
