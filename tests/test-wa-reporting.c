/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-reporting.c -- the reporting token (proto/reporting.c):
 * the kept-field walk on a hand-made Message (sorting, nesting, dropped
 * fields), a known token vector (computed apart with Python's hmac and
 * hashlib: HKDF-SHA256 then HMAC-SHA256, first 16 bytes), the secret
 * lookup, the messages that take none, malformed and truncated input,
 * the depth cap, and the <reporting> node.  JIDs and ids are made up.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "proto/bin.h"
#include "proto/crypto.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/reporting.h"

#define ID	"3EB0AABBCCDDEEFF001122"
#define FROM	"15551234567@s.whatsapp.net"
#define TO	"15550001111@s.whatsapp.net"

/* Message{extendedTextMessage(6){contextInfo(17){stanzaId(1) "Q",
 * 22: 1, 21: 5}, text(1) "hello", 99: 7}, messageContextInfo(35){
 * messageSecret(3) = 00..1f}, conversation(1) "a"}: fields out of order,
 * a dropped sub-field (stanzaId), an unknown one (99). */
static const uint8_t vec_msg[] = {
	0x32, 0x16, 0x8a, 0x01, 0x09, 0x0a, 0x01, 0x51, 0xb0, 0x01, 0x01,
	0xa8, 0x01, 0x05, 0x0a, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x98,
	0x06, 0x07, 0x9a, 0x02, 0x22, 0x1a, 0x20, 0x00, 0x01, 0x02, 0x03,
	0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e,
	0x0f, 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19,
	0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f, 0x0a, 0x01, 0x61,
};
/* conversation first, then extendedText{text, contextInfo{21, 22}}. */
static const uint8_t vec_content[] = {
	0x0a, 0x01, 0x61, 0x32, 0x10, 0x0a, 0x05, 0x68, 0x65, 0x6c, 0x6c,
	0x6f, 0x8a, 0x01, 0x06, 0xa8, 0x01, 0x05, 0xb0, 0x01, 0x01,
};
static const uint8_t vec_key[] = {
	0xa3, 0xb6, 0x5d, 0x1f, 0xf4, 0x45, 0xa0, 0x52, 0xd1, 0xae, 0xb0,
	0x4d, 0x12, 0x50, 0xb1, 0x4b, 0x7e, 0x5b, 0xe8, 0xbe, 0xec, 0x80,
	0x72, 0x9b, 0x5a, 0x1a, 0xbd, 0x1a, 0x4a, 0x85, 0xa8, 0xe0,
};
static const uint8_t vec_token[] = {
	0x2d, 0x85, 0x3e, 0xec, 0x95, 0xd6, 0x40, 0xe6, 0x4f, 0x5f, 0x08,
	0xbb, 0x3d, 0x3f, 0x5c, 0xe8,
};

static int
setup(void **state)
{
	(void)state;
	return wa_crypto_init();
}

static void
test_content__keeps_the_table_fields_sorted(void **state)
{
	struct buf	 b = BUF_INIT;

	(void)state;
	assert_int_equal(wa_reporting_content(vec_msg, sizeof(vec_msg), &b), 0);
	assert_int_equal(b.len, sizeof(vec_content));
	assert_memory_equal(b.p, vec_content, sizeof(vec_content));
	buf_release(&b);
}

static void
test_key_and_token__match_the_known_vector(void **state)
{
	uint8_t		 secret[32], key[32], tok[16];
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(secret); i++)
		secret[i] = (uint8_t)i;
	assert_int_equal(wa_reporting_key(secret, sizeof(secret), ID, FROM, TO,
	    key), 0);
	assert_memory_equal(key, vec_key, sizeof(key));
	assert_int_equal(wa_reporting_token(vec_msg, sizeof(vec_msg), ID, FROM,
	    TO, tok), 1);
	assert_memory_equal(tok, vec_token, sizeof(tok));
	/* another id, or from and to swapped: another token */
	assert_int_equal(wa_reporting_token(vec_msg, sizeof(vec_msg),
	    "3EB0AABBCCDDEEFF001123", FROM, TO, tok), 1);
	assert_memory_not_equal(tok, vec_token, sizeof(tok));
	assert_int_equal(wa_reporting_token(vec_msg, sizeof(vec_msg), ID, TO,
	    FROM, tok), 1);
	assert_memory_not_equal(tok, vec_token, sizeof(tok));
}

static void
test_secret__is_found_and_added(void **state)
{
	struct wa_msg_text	 t;
	struct buf		 b = BUF_INIT;
	const uint8_t		*s;
	size_t			 n;
	uint8_t			 secret[32], tok[16];

	(void)state;
	assert_int_equal(wa_reporting_secret(vec_msg, sizeof(vec_msg), &s, &n),
	    1);
	assert_int_equal(n, 32);
	assert_int_equal(s[0], 0);
	assert_int_equal(s[31], 31);

	memset(&t, 0, sizeof(t));
	t.text = "hi";
	assert_int_equal(wa_msg_build_text(&t, &b), 0);
	assert_true(wa_reporting_wanted(b.p, b.len));
	/* no secret yet: no token */
	assert_int_equal(wa_reporting_secret(b.p, b.len, &s, &n), 0);
	assert_int_equal(wa_reporting_token(b.p, b.len, ID, FROM, TO, tok), 0);
	memset(secret, 0x5A, sizeof(secret));
	wa_reporting_add_secret(secret, &b);
	assert_int_equal(wa_reporting_secret(b.p, b.len, &s, &n), 1);
	assert_int_equal(n, 32);
	assert_memory_equal(s, secret, 32);
	assert_int_equal(wa_reporting_token(b.p, b.len, ID, FROM, TO, tok), 1);
	/* a second messageContextInfo merges: its secret wins */
	memset(secret, 0x33, sizeof(secret));
	wa_reporting_add_secret(secret, &b);
	assert_int_equal(wa_reporting_secret(b.p, b.len, &s, &n), 1);
	assert_memory_equal(s, secret, 32);
	buf_release(&b);
}

static void
test_token__none_for_a_reaction_or_empty_content(void **state)
{
	struct wa_msg_key	 k = { .remote_jid = TO, .from_me = false,
		.id = ID };
	struct buf		 b = BUF_INIT;
	uint8_t			 secret[32] = { 1 }, tok[16];

	(void)state;
	assert_int_equal(wa_msg_build_reaction(&k, "+", 1000, &b), 0);
	wa_reporting_add_secret(secret, &b);
	assert_false(wa_reporting_wanted(b.p, b.len));
	assert_int_equal(wa_reporting_token(b.p, b.len, ID, FROM, TO, tok), 0);
	buf_release(&b);
	/* an edit: editedMessage(58){message(1)} keeps nothing (m with no
	 * sub-fields, as both references): no token */
	assert_int_equal(wa_msg_build_edit(&k, "x", 1000, &b), 0);
	assert_true(wa_reporting_wanted(b.p, b.len));
	wa_reporting_add_secret(secret, &b);
	assert_int_equal(wa_reporting_token(b.p, b.len, ID, FROM, TO, tok), 0);
	buf_release(&b);
	/* a revoke: protocolMessage{key, type} is kept */
	assert_int_equal(wa_msg_build_revoke(&k, &b), 0);
	wa_reporting_add_secret(secret, &b);
	assert_int_equal(wa_reporting_token(b.p, b.len, ID, FROM, TO, tok), 1);
	buf_release(&b);
}

static void
test_content__fails__on_malformed_input(void **state)
{
	static const struct {
		const char	*what;
		uint8_t		 p[16];
		size_t		 len;
		int		 rc;
	} bad[] = {
		{ "a key cut short", { 0x8a }, 1, WC_ETRUNC },
		{ "a varint cut short", { 0x08, 0x80 }, 2, WC_ETRUNC },
		{ "a length past the end", { 0x0a, 0x05, 'a' }, 3, WC_ETRUNC },
		{ "a fixed64 cut short", { 0x09, 1, 2, 3 }, 4, WC_ETRUNC },
		{ "a fixed32 cut short", { 0x0d, 1, 2, 3 }, 4, WC_ETRUNC },
		{ "field number 0", { 0x02, 0x00 }, 2, WC_EPROTO },
		{ "a group", { 0x0b, 0x0c }, 2, WC_EPROTO },
		{ "wire type 7", { 0x0f }, 1, WC_EPROTO },
		{ "an 11-byte varint", { 0x08, 0xff, 0xff, 0xff, 0xff, 0xff,
		    0xff, 0xff, 0xff, 0xff, 0xff, 0x01 }, 12, WC_EPROTO },
		{ "a tag above 32 bits", { 0xf8, 0xff, 0xff, 0xff, 0xff, 0x01,
		    0x00 }, 7, WC_EPROTO },
		/* inside a kept field: extendedText{contextInfo{cut}} */
		{ "a kept field's inside", { 0x32, 0x03, 0x8a, 0x01, 0x05 }, 5,
		    WC_ETRUNC },
		/* a 2^64-1 length */
		{ "a huge length", { 0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		    0xff, 0xff, 0xff, 0x01 }, 11, WC_ETRUNC },
	};
	struct buf	 b = BUF_INIT;
	const uint8_t	*s;
	size_t		 i, n;
	uint8_t		 tok[16];

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		buf_append(&b, "x", 1);
		if (wa_reporting_content(bad[i].p, bad[i].len, &b) !=
		    bad[i].rc)
			fail_msg("%s: rc %d", bad[i].what, wa_reporting_content(
			    bad[i].p, bad[i].len, &b));
		assert_int_equal(b.len, 1);	/* unchanged on error */
		b.len = 0;
		assert_true(wa_reporting_secret(bad[i].p, bad[i].len, &s, &n) <
		    0 || bad[i].rc == WC_ETRUNC);
		assert_false(wa_reporting_wanted(bad[i].p, bad[i].len) &&
		    wa_reporting_token(bad[i].p, bad[i].len, ID, FROM, TO,
		    tok) == 1);
	}
	assert_int_equal(wa_reporting_content(NULL, 1, &b), -EINVAL);
	assert_int_equal(wa_reporting_content(NULL, 0, &b), 0);
	assert_int_equal(wa_reporting_content(vec_msg, WA_REPORTING_MAX_LEN + 1,
	    &b), WC_ETOOBIG);
	assert_int_equal(b.len, 0);
	buf_release(&b);
}

static void
test_content__fails__on_every_truncation(void **state)
{
	struct buf	 b = BUF_INIT;
	size_t		 cut;
	int		 rc;

	(void)state;
	/* each cut ends inside a field: an error, never a read past it
	 * (ASan and valgrind builds watch the reads) */
	for (cut = 1; cut < sizeof(vec_msg); cut++) {
		uint8_t	*p = malloc(cut);

		assert_non_null(p);
		memcpy(p, vec_msg, cut);
		rc = wa_reporting_content(p, cut, &b);
		if (cut == 24 || cut == 61)
			assert_int_equal(rc, 0);	/* ends on a field */
		else
			assert_true(rc == WC_ETRUNC);
		b.len = 0;
		free(p);
	}
	buf_release(&b);
}

static void
test_content__fails__past_the_depth_cap(void **state)
{
	struct buf	 b = BUF_INIT;
	uint8_t		 ok[] = { 0x32, 0x06, 0x8a, 0x01, 0x03, 0xa8, 0x01,
		0x05 };

	(void)state;
	/* the table is 3 deep (6 -> 17 -> 21): within the cap */
	assert_int_equal(wa_reporting_content(ok, sizeof(ok), &b), 0);
	assert_int_equal(b.len, sizeof(ok));
	assert_memory_equal(b.p, ok, sizeof(ok));
	/* a 1000-deep chain of viewOnceMessage(37){message(1){...}}
	 * stops at the table: m with no sub-fields is not walked into */
	{
		struct buf	 deep = BUF_INIT, t = BUF_INIT;
		int		 i;

		for (i = 0; i < 1000; i++) {
			uint8_t	 h[4];
			size_t	 k = 0, len = deep.len;

			buf_release(&t);
			h[k++] = i % 2 ? 0x0a : 0xaa;	/* 1 or 37 */
			if (i % 2 == 0)
				h[k++] = 0x02;
			do {
				h[k] = (uint8_t)(len & 0x7F);
				len >>= 7;
				h[k] |= len ? 0x80 : 0;
				k++;
			} while (len && k < sizeof(h));
			buf_append(&t, h, k);
			buf_append(&t, deep.p, deep.len);
			buf_release(&deep);
			deep = t;
			memset(&t, 0, sizeof(t));
		}
		b.len = 0;
		assert_int_equal(wa_reporting_content(deep.p, deep.len, &b), 0);
		buf_release(&deep);
	}
	buf_release(&b);
}

static void
test_node__is_built_and_read_back(void **state)
{
	struct arena		 a;
	struct wa_node		 n, *kid;
	const struct wa_node	*r;
	const uint8_t		*tok;

	(void)state;
	arena_init(&a, 512);
	memset(&n, 0, sizeof(n));
	wa_nb_kid(&a, &n, "message", 0);
	kid = wa_nb_kids(&a, &n, 1);
	wa_reporting_node(vec_token, &a, kid);
	r = wa_node_child(&n, "reporting");
	assert_non_null(r);
	assert_int_equal(wa_reporting_find(&n, &tok), 1);
	assert_memory_equal(tok, vec_token, 16);
	assert_true(wa_node_str_is(wa_node_child(r, "reporting_token"), "v",
	    "2"));
	/* no <reporting>: 0; a bad one: WC_EPROTO */
	memset(&n, 0, sizeof(n));
	wa_nb_kid(&a, &n, "message", 0);
	assert_int_equal(wa_reporting_find(&n, &tok), 0);
	kid = wa_nb_kids(&a, &n, 1);
	wa_nb_kid(&a, kid, "reporting", 0);
	assert_int_equal(wa_reporting_find(&n, &tok), WC_EPROTO);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_content__keeps_the_table_fields_sorted),
		cmocka_unit_test(test_key_and_token__match_the_known_vector),
		cmocka_unit_test(test_secret__is_found_and_added),
		cmocka_unit_test(test_token__none_for_a_reaction_or_empty_content),
		cmocka_unit_test(test_content__fails__on_malformed_input),
		cmocka_unit_test(test_content__fails__on_every_truncation),
		cmocka_unit_test(test_content__fails__past_the_depth_cap),
		cmocka_unit_test(test_node__is_built_and_read_back),
	};

	return cmocka_run_group_tests_name("wa_reporting", tests, setup, NULL);
}
