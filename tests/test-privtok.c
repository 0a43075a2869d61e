/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-privtok.c -- privacy tokens (proto/privtok.c): the 7-day
 * bucket edges of expiry and of issuing again, the cstoken against a
 * vector computed independently (python3 hmac and openssl dgst -hmac
 * agree), the <tokens> reader on hand-built and malformed nodes, and the
 * issuing iq walked attribute by attribute.  JIDs are made up.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "proto/node.h"
#include "proto/privtok.h"

#define B	((int64_t)WA_PRIVTOK_BUCKET_S)

static void
test_wa_privtok_expired__at_the_window_edges(void **state)
{
	(void)state;
	/* now in bucket 10: the window is buckets 7..10 */
	assert_true(wa_privtok_expired(7 * B - 1, 10 * B));
	assert_false(wa_privtok_expired(7 * B, 10 * B));
	assert_false(wa_privtok_expired(7 * B, 11 * B - 1));
	assert_true(wa_privtok_expired(7 * B, 11 * B));	/* bucket 11 */
	assert_false(wa_privtok_expired(10 * B, 10 * B));
	assert_false(wa_privtok_expired(12 * B, 10 * B));	/* future */
	assert_true(wa_privtok_expired(0, 10 * B));
	assert_true(wa_privtok_expired(-5, 10 * B));
}

static void
test_wa_privtok_should_issue__once_per_bucket(void **state)
{
	(void)state;
	assert_true(wa_privtok_should_issue(0, 10 * B));
	assert_false(wa_privtok_should_issue(10 * B, 10 * B));
	assert_false(wa_privtok_should_issue(10 * B, 11 * B - 1));
	assert_true(wa_privtok_should_issue(10 * B, 11 * B));
	assert_true(wa_privtok_should_issue(10 * B - 1, 10 * B));
	assert_false(wa_privtok_should_issue(10 * B + 100, 10 * B + 5));
}

static void
test_wa_privtok_cstoken__matches_an_independent_hmac(void **state)
{
	/* printf '207000000000001@lid' | openssl dgst -sha256 -mac HMAC
	 *   -macopt hexkey:000102...1f */
	static const uint8_t want[32] = {
		0x66, 0x60, 0xfa, 0x8c, 0x4e, 0x85, 0x2d, 0x41,
		0xbe, 0x04, 0x20, 0xaf, 0xc2, 0x77, 0x92, 0x1c,
		0xa2, 0xaa, 0xfe, 0xe1, 0x96, 0xbc, 0xba, 0x20,
		0x2b, 0xa8, 0x5f, 0x8d, 0xc9, 0xb8, 0xc6, 0x6c,
	};
	uint8_t	 salt[32], out[WA_PRIVTOK_CSTOKEN_LEN];
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(salt); i++)
		salt[i] = (uint8_t)i;
	assert_int_equal(wa_privtok_cstoken(salt, sizeof(salt),
	    "207000000000001@lid", out), 0);
	assert_memory_equal(out, want, sizeof(want));
	/* the device is dropped */
	memset(out, 0, sizeof(out));
	assert_int_equal(wa_privtok_cstoken(salt, sizeof(salt),
	    "207000000000001:5@lid", out), 0);
	assert_memory_equal(out, want, sizeof(want));
}

static void
test_wa_privtok_cstoken__fails__without_salt_or_lid(void **state)
{
	uint8_t	 salt[4] = { 1, 2, 3, 4 }, out[WA_PRIVTOK_CSTOKEN_LEN];

	(void)state;
	assert_int_equal(wa_privtok_cstoken(NULL, 4, "1@lid", out), -EINVAL);
	assert_int_equal(wa_privtok_cstoken(salt, 0, "1@lid", out), -EINVAL);
	assert_int_equal(wa_privtok_cstoken(salt, 4, "1@s.whatsapp.net",
	    out), -EINVAL);
	assert_int_equal(wa_privtok_cstoken(salt, 4, NULL, out), -EINVAL);
	assert_int_equal(wa_privtok_cstoken(salt, 4, "@lid", out), -EINVAL);
}

/* <notification><tokens>...</tokens></notification> with n tokens: each
 * of type[i] (NULL: none), t[i] (NULL: none), bytes len[i] (0: none). */
static struct wa_node *
tokens_node(struct arena *a, size_t n, const char *const *type,
    const char *const *t, const size_t *len)
{
	static const uint8_t	 bytes[WA_PRIVTOK_MAX + 1];
	struct wa_node		*root, *toks, *kids;
	size_t			 i;

	root = wa_nb_new(a, "notification", 1);
	wa_nb_attr(root, "type", "privacy_token");
	toks = wa_nb_kid(a, wa_nb_kids(a, root, 1), "tokens", 0);
	kids = wa_nb_kids(a, toks, n);
	for (i = 0; i < n; i++) {
		struct wa_node	*k = wa_nb_kid(a, &kids[i], "token", 3);

		assert_int_equal(wa_nb_attr_jid(k, "jid",
		    "15550000001@s.whatsapp.net"), 0);
		wa_nb_attr(k, "type", type[i]);
		wa_nb_attr(k, "t", t[i]);
		if (len[i] > 0)
			wa_nb_bytes(k, bytes, len[i]);
	}
	return root;
}

static void
test_wa_privtok_parse__keeps_usable_tokens_only(void **state)
{
	static const char *const type[] = { "trusted_contact",
	    "trusted_contact", "other", "trusted_contact", "trusted_contact",
	    NULL, "trusted_contact" };
	static const char *const t[] = { "1700000000", NULL, "1700000000",
	    "0", "1700000001", "1700000000", "1700000002" };
	static const size_t len[] = { 20, 20, 20, 20, 0, 20,
	    WA_PRIVTOK_MAX + 1 };
	struct wa_privtok_in	 in[8];
	struct arena		 a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_privtok_parse(tokens_node(&a, 7, type, t, len),
	    in, 8), 1);
	assert_int_equal(in[0].len, 20);
	assert_int_equal(in[0].t, 1700000000);
	assert_string_equal(in[0].jid, "15550000001@s.whatsapp.net");
	/* max is kept */
	assert_int_equal(wa_privtok_parse(tokens_node(&a, 7, type, t, len),
	    in, 0), 0);
	/* no <tokens> at all */
	assert_int_equal(wa_privtok_parse(wa_nb_new(&a, "iq", 0), in, 8), 0);
	arena_release(&a);
}

static void
test_wa_privtok_issue_iq__shape(void **state)
{
	struct arena		 a;
	struct wa_node		*n;
	const struct wa_node	*toks, *tok;
	char			 jid[96];
	int64_t			 t;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_privtok_issue_iq("q.1-2", "15550000002@s.whatsapp.net",
	    1700000000, &a, &n), 0);
	assert_true(wa_str_eqc(n->tag, "iq"));
	assert_true(wa_node_str_is(n, "id", "q.1-2"));
	assert_true(wa_node_str_is(n, "xmlns", "privacy"));
	assert_true(wa_node_str_is(n, "type", "set"));
	assert_true(wa_node_jid(n, "to", jid, sizeof(jid)));
	assert_string_equal(jid, "s.whatsapp.net");
	toks = wa_node_child(n, "tokens");
	assert_non_null(toks);
	assert_int_equal(wa_node_nkids(toks), 1);
	tok = wa_node_kid(toks, 0);
	assert_true(wa_str_eqc(tok->tag, "token"));
	assert_true(wa_node_jid(tok, "jid", jid, sizeof(jid)));
	assert_string_equal(jid, "15550000002@s.whatsapp.net");
	assert_int_equal(wa_node_num(tok, "t", &t), 1);
	assert_int_equal(t, 1700000000);
	assert_true(wa_node_str_is(tok, "type", "trusted_contact"));
	assert_int_equal(tok->content.kind, WA_VAL_NONE);
	assert_int_equal(wa_privtok_issue_iq("x", "not a jid@@", 1, &a, &n),
	    -EINVAL);
	assert_int_equal(wa_privtok_issue_iq(NULL, "1@lid", 1, &a, &n),
	    -EINVAL);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_privtok_expired__at_the_window_edges),
		cmocka_unit_test(test_wa_privtok_should_issue__once_per_bucket),
		cmocka_unit_test(test_wa_privtok_cstoken__matches_an_independent_hmac),
		cmocka_unit_test(test_wa_privtok_cstoken__fails__without_salt_or_lid),
		cmocka_unit_test(test_wa_privtok_parse__keeps_usable_tokens_only),
		cmocka_unit_test(test_wa_privtok_issue_iq__shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
