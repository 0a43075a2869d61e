/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-polls20.c -- polls (issue 20; protocol-features.md 3.1):
 * the vote crypto of proto/poll.h against a known answer that Baileys
 * computed (its decryptPollVote key chain and aesEncryptGCM, as
 * tests/interop/poll-check.mjs does it), both ways, and its failures;
 * wa_msg_parse() of pollCreationMessage (49) and V3 (64) and of a
 * pollUpdateMessage (50); the poll record (base/rich.c): a vote
 * put in place of the voter's earlier one, taken back, picks out of
 * range dropped, the tally in words, hostile text sanitised.
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

#include "base/buf.h"
#include "base/err.h"
#include "base/rich.h"
#include "proto/crypto.h"
#include "proto/msg.h"
#include "proto/poll.h"

/* The known answer: tests/interop/poll-check.mjs's "pn" case, Baileys'
 * encPayload for the vote ["Pasta"] with the IV 00..0b. */
static const char ID[] = "3EB0C0FFEE0011223344";
static const char CREATOR[] = "15551234567@s.whatsapp.net";
static const char VOTER[] = "15550001111@s.whatsapp.net";
static const char BAILEYS_PASTA[] =
    "589e3e325569a29defe3c74359bd6ff9f0662823edc6f77c22a1a608d94165b0"
    "57890e61da771e677e2b7c540217ee3fc5d1";
static const char BAILEYS_NONE[] = "0ff2a06842b9060b60eba11d4c51e810";

static void
secret(uint8_t s[32])
{
	size_t	 i;

	for (i = 0; i < 32; i++)
		s[i] = (uint8_t)(0x5A ^ i);
}

static void
iv(uint8_t v[12])
{
	size_t	 i;

	for (i = 0; i < 12; i++)
		v[i] = (uint8_t)i;
}

static size_t
unhex(const char *h, uint8_t *out)
{
	size_t	 i, n = strlen(h) / 2;
	unsigned v;

	for (i = 0; i < n; i++) {
		assert_int_equal(sscanf(h + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

static int
setup(void **state)
{
	(void)state;
	return wa_crypto_init();
}

static void
test_crypto__encrypts_as_baileys(void **state)
{
	uint8_t		 s[32], v[12], h[1][WA_POLL_HASH_LEN], want[64];
	struct buf	 out = BUF_INIT;
	size_t		 n;

	(void)state;
	secret(s);
	iv(v);
	wa_poll_option_hash("Pasta", h[0]);
	assert_int_equal(wa_poll_vote_encrypt(s, 32, ID, CREATOR, VOTER, v,
	    (const uint8_t (*)[WA_POLL_HASH_LEN])h, 1, &out), 0);
	n = unhex(BAILEYS_PASTA, want);
	assert_int_equal(out.len, n);
	assert_memory_equal(out.p, want, n);
	out.len = 0;
	assert_int_equal(wa_poll_vote_encrypt(s, 32, ID, CREATOR, VOTER, v,
	    NULL, 0, &out), 0);
	n = unhex(BAILEYS_NONE, want);
	assert_int_equal(out.len, n);
	assert_memory_equal(out.p, want, n);
	buf_release(&out);
}

static void
test_crypto__decrypts_baileys(void **state)
{
	uint8_t		 s[32], v[12], e[64], got[4][WA_POLL_HASH_LEN];
	uint8_t		 pasta[WA_POLL_HASH_LEN];
	size_t		 n, el;

	(void)state;
	secret(s);
	iv(v);
	el = unhex(BAILEYS_PASTA, e);
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, CREATOR, VOTER, v,
	    12, e, el, got, 4, &n), 0);
	assert_int_equal(n, 1);
	wa_poll_option_hash("Pasta", pasta);
	assert_memory_equal(got[0], pasta, WA_POLL_HASH_LEN);
	el = unhex(BAILEYS_NONE, e);
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, CREATOR, VOTER, v,
	    12, e, el, got, 4, &n), 0);
	assert_int_equal(n, 0);
}

static void
test_crypto__wrong_key_or_damage_refused(void **state)
{
	uint8_t		 s[32], v[12], e[64], got[4][WA_POLL_HASH_LEN];
	size_t		 n, el;

	(void)state;
	secret(s);
	iv(v);
	el = unhex(BAILEYS_PASTA, e);
	/* the voter's other addressing, another creator, another secret */
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, CREATOR,
	    "111222333444555@lid", v, 12, e, el, got, 4, &n), WC_EBADMAC);
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, VOTER, VOTER, v, 12,
	    e, el, got, 4, &n), WC_EBADMAC);
	s[0] ^= 1;
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, CREATOR, VOTER, v,
	    12, e, el, got, 4, &n), WC_EBADMAC);
	s[0] ^= 1;
	e[3] ^= 0x80;	/* a flipped bit */
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, CREATOR, VOTER, v,
	    12, e, el, got, 4, &n), WC_EBADMAC);
	assert_int_equal(n, 0);
	/* sizes */
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, CREATOR, VOTER, v,
	    11, e, el, got, 4, &n), WC_EPROTO);
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, CREATOR, VOTER, v,
	    12, e, 15, got, 4, &n), WC_ETRUNC);
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, CREATOR, VOTER, v,
	    12, e, WA_POLL_ENC_MAX + 1, got, 4, &n), WC_EPROTO);
	assert_int_equal(wa_poll_vote_decrypt(s, 0, ID, CREATOR, VOTER, v,
	    12, e, el, got, 4, &n), -EINVAL);
	assert_int_equal(wa_poll_vote_decrypt(s, 32, "", CREATOR, VOTER, v,
	    12, e, el, got, 4, &n), WC_ETOOBIG);
}

static void
test_crypto__round_trip_many_options(void **state)
{
	uint8_t		 s[32], v[12], h[12][WA_POLL_HASH_LEN];
	uint8_t		 got[12][WA_POLL_HASH_LEN];
	struct buf	 out = BUF_INIT;
	char		 name[16];
	size_t		 i, n;

	(void)state;
	secret(s);
	iv(v);
	for (i = 0; i < 12; i++) {
		snprintf(name, sizeof(name), "option %zu", i);
		wa_poll_option_hash(name, h[i]);
	}
	assert_int_equal(wa_poll_vote_encrypt(s, 32, ID, "9@lid", "8@lid", v,
	    (const uint8_t (*)[WA_POLL_HASH_LEN])h, 12, &out), 0);
	/* fewer room than hashes: the first max kept */
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, "9@lid", "8@lid", v,
	    12, out.p, out.len, got, 5, &n), 0);
	assert_int_equal(n, 5);
	assert_memory_equal(got[4], h[4], WA_POLL_HASH_LEN);
	assert_int_equal(wa_poll_vote_decrypt(s, 32, ID, "9@lid", "8@lid", v,
	    12, out.p, out.len, got, 12, &n), 0);
	assert_int_equal(n, 12);
	assert_memory_equal(got[11], h[11], WA_POLL_HASH_LEN);
	buf_release(&out);
}

/* --- parsing --- */

static void
ld(struct buf *b, unsigned field, const void *p, size_t len)
{
	buf_push(b, (uint8_t)(field < 16 ? field << 3 | 2 : 0x80 |
	    (field << 3 & 0x7f) | 2));
	if (field >= 16)
		buf_push(b, (uint8_t)(field >> 4));
	assert_true(len < 128);
	buf_push(b, (uint8_t)len);
	buf_append(b, p, len);
}

static void
str(struct buf *b, unsigned field, const char *s)
{
	ld(b, field, s, strlen(s));
}

/* A Message of poll field f with question q and options, sel, secret. */
static void
poll_msg(struct buf *m, unsigned f, const char *q, unsigned sel)
{
	struct buf	 pc = BUF_INIT, o = BUF_INIT, ctx = BUF_INIT;
	uint8_t		 s[32];
	const char	*opts[] = { "Pizza", "Pasta", "Salad\x1b[31m" };
	size_t		 i;

	str(&pc, 2, q);
	for (i = 0; i < 3; i++) {
		o.len = 0;
		str(&o, 1, opts[i]);
		ld(&pc, 3, o.p, o.len);
	}
	buf_push(&pc, 4 << 3);
	buf_push(&pc, (uint8_t)sel);
	ld(m, f, pc.p, pc.len);
	secret(s);
	ld(&ctx, 3, s, 32);
	ld(m, 35, ctx.p, ctx.len);
	buf_release(&pc);
	buf_release(&o);
	buf_release(&ctx);
}

static void
test_parse__poll_v3_and_v1(void **state)
{
	struct buf		 m = BUF_INIT;
	struct wa_msg_content	 c;
	struct rich		 r;
	unsigned		 f[] = { 64, 49 };
	size_t			 i;

	(void)state;
	for (i = 0; i < 2; i++) {
		m.len = 0;
		poll_msg(&m, f[i], "Dinner?", i == 0 ? 1 : 0);
		assert_int_equal(wa_msg_parse(m.p, m.len, &c), 0);
		assert_int_equal(c.kind, WA_MSG_RICH);
		assert_int_equal(c.rich_type, RICH_POLL);
		assert_int_equal(c.message_secret_len, 32);
		assert_int_equal(rich_parse(c.text, strlen(c.text), &r), 0);
		assert_int_equal(r.type, RICH_POLL);
		assert_string_equal(rich_get(&r, "q", NULL), "Dinner?");
		assert_string_equal(rich_get(&r, "sel", NULL), i == 0 ? "1" :
		    "0");
		assert_int_equal(rich_poll_noptions(&r), 3);
		assert_string_equal(rich_poll_option(&r, 2), "Pasta");
		assert_null(rich_poll_option(&r, 4));
		rich_release(&r);
		wa_msg_content_release(&c);
	}
	buf_release(&m);
}

static void
test_parse__vote(void **state)
{
	struct buf		 m = BUF_INIT, u = BUF_INIT, k = BUF_INIT;
	struct buf		 v = BUF_INIT;
	struct wa_msg_content	 c;
	uint8_t			 e[64], i12[12];
	size_t			 el = unhex(BAILEYS_PASTA, e);

	(void)state;
	iv(i12);
	str(&k, 1, "15551234567@s.whatsapp.net");
	str(&k, 3, ID);
	ld(&u, 1, k.p, k.len);
	ld(&v, 1, e, el);
	ld(&v, 2, i12, 12);
	ld(&u, 2, v.p, v.len);
	buf_push(&u, 4 << 3);
	buf_push(&u, 0x7b);
	ld(&m, 50, u.p, u.len);
	assert_int_equal(wa_msg_parse(m.p, m.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_POLL_VOTE);
	assert_string_equal(c.target.id, ID);
	assert_string_equal(c.target.remote_jid, "15551234567@s.whatsapp.net");
	assert_int_equal(c.poll_enc_len, el);
	assert_memory_equal(c.poll_enc, e, el);
	assert_int_equal(c.poll_iv_len, 12);
	assert_int_equal(c.ts_ms, 123);
	wa_msg_content_release(&c);
	/* an IV of another size is not taken */
	m.len = u.len = v.len = 0;
	ld(&u, 1, k.p, k.len);
	ld(&v, 1, e, el);
	ld(&v, 2, i12, 11);
	ld(&u, 2, v.p, v.len);
	ld(&m, 50, u.p, u.len);
	assert_int_equal(wa_msg_parse(m.p, m.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_POLL_VOTE);
	assert_null(c.poll_iv);
	wa_msg_content_release(&c);
	buf_release(&m);
	buf_release(&u);
	buf_release(&k);
	buf_release(&v);
}

/* --- the record --- */

static const char REC[] = "poll\nq=Dinner?\nsel=1\nopt=Pizza\nopt=Pasta\n"
    "opt=Salad";

static char *
words(const char *rec, bool utf8)
{
	struct buf	 b = BUF_INIT;

	assert_int_equal(rich_describe(rec, strlen(rec), utf8, false, &b), 0);
	buf_push(&b, '\0');
	return (char *)b.p;
}

static void
test_record__votes_replace_and_tally(void **state)
{
	unsigned	 one[] = { 2 }, two[] = { 1, 3 }, bad[] = { 0, 4, 1 };
	char		*r1, *r2, *r3, *r4, *w;

	(void)state;
	r1 = rich_poll_vote(REC, "1@s.whatsapp.net", "Bob", one, 1);
	r2 = rich_poll_vote(r1, "", NULL, two, 2);
	r3 = rich_poll_vote(r2, "1@s.whatsapp.net", "Bob", bad, 3);
	w = words(r3, true);
	assert_string_equal(w, "Poll: Dinner?\n(one answer)\n"
	    "  1. Pizza — 2 (You, Bob)\n  2. Pasta — 0\n  3. Salad — 1 (You)");
	free(w);
	/* Bob takes his vote back; a voter without a name: the number */
	r4 = rich_poll_vote(r3, "1@s.whatsapp.net", "Bob", NULL, 0);
	free(r3);
	r3 = rich_poll_vote(r4, "49170@s.whatsapp.net", "", one, 1);
	free(r4);
	r4 = rich_poll_vote(r3, "77@lid", NULL, one, 1);
	w = words(r4, false);
	assert_string_equal(w, "Poll: Dinner?\n(one answer)\n"
	    "  1. Pizza - 1 (You)\n  2. Pasta - 2 (+49170, 77)\n"
	    "  3. Salad - 1 (You)");
	free(w);
	assert_null(rich_poll_vote("location\nlat=1", "", NULL, one, 1));
	assert_null(rich_poll_vote("no record", "", NULL, one, 1));
	free(r1);
	free(r2);
	free(r3);
	free(r4);
}

static void
test_record__hostile_text_sanitised(void **state)
{
	unsigned	 one[] = { 1 };
	char		*r, *w;

	(void)state;
	r = rich_poll_vote("poll\nq=Q\x1b]0;x\x07\nsel=0\nopt=A\x1b[2J\nopt=B",
	    "1@s.whatsapp.net", "Ev\x1b[31mil", one, 1);
	w = words(r, true);
	assert_null(strchr(w, '\x1b'));
	assert_null(strchr(w, '\x07'));
	assert_non_null(strstr(w, "(one or more answers)"));
	free(w);
	free(r);
}

static void
test_record__summary_first_line(void **state)
{
	struct buf	 b = BUF_INIT;

	(void)state;
	assert_int_equal(rich_summary(REC, strlen(REC), &b), 0);
	buf_push(&b, '\0');
	assert_string_equal((char *)b.p, "Poll: Dinner?");
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crypto__encrypts_as_baileys),
		cmocka_unit_test(test_crypto__decrypts_baileys),
		cmocka_unit_test(test_crypto__wrong_key_or_damage_refused),
		cmocka_unit_test(test_crypto__round_trip_many_options),
		cmocka_unit_test(test_parse__poll_v3_and_v1),
		cmocka_unit_test(test_parse__vote),
		cmocka_unit_test(test_record__votes_replace_and_tally),
		cmocka_unit_test(test_record__hostile_text_sanitised),
		cmocka_unit_test(test_record__summary_first_line),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
