/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-appstate.c -- app-state sync's protocol layer
 * (proto/appstate.h; protocol-features.md 2.1-2.7): known-answer vectors
 * for the key expansion, index and value MACs, LTHash, snapshot and patch
 * MACs (computed with node:crypto's hkdfSync and createHmac, outside this
 * code); the index JSON's parser and encoder; patches we encode applied
 * back to the same state; and each failure wa_as_apply() documents, with
 * the state left untouched where it must be.  Records whose MACs must be
 * made to verify around a planted fault are built here with OpenSSL's AES
 * and a reference LTHash walk written in the test.  JIDs are made up.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/hex.h"
#include "proto/appstate.h"
#include "proto/crypto.h"
#include "appstate.pb-c.h"

static const uint8_t KEY_ID[] = { 0, 0, 0, 0, 0, 1 };
static const uint8_t KEY_ID2[] = { 0, 0, 0, 0, 0, 2 };

static void
unhex(const char *s, uint8_t *out, size_t len)
{
	size_t	 i;

	assert_int_equal(strlen(s), 2 * len);
	for (i = 0; i < len; i++) {
		unsigned	 v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

static void
assert_hex(const uint8_t *p, size_t len, const char *want)
{
	uint8_t	 w[256];

	unhex(want, w, len);
	assert_memory_equal(p, w, len);
}

static void
kat_keys(struct wa_as_keys *k)
{
	uint8_t	 kd[32];
	size_t	 i;

	for (i = 0; i < 32; i++)
		kd[i] = (uint8_t)i;
	assert_int_equal(wa_as_keys_expand(kd, sizeof(kd), k), 0);
}

/* ------------------------------------------------------------------ */
/* a fake store: keys by ID, the MAC map of one collection */

struct fake {
	struct wa_as_keys	 k1, k2;
	bool			 have2;
	int			 key_calls;
	struct {
		uint8_t	 im[32], vm[32];
		bool	 live;
	}			 map[64];
	size_t			 n;
};

static int
fake_key(void *arg, const uint8_t *id, size_t len, struct wa_as_keys *out)
{
	struct fake	*f = arg;

	f->key_calls++;
	if (len == sizeof(KEY_ID) && memcmp(id, KEY_ID, len) == 0) {
		*out = f->k1;
		return 1;
	}
	if (f->have2 && len == sizeof(KEY_ID2) &&
	    memcmp(id, KEY_ID2, len) == 0) {
		*out = f->k2;
		return 1;
	}
	return 0;
}

static int
fake_mac(void *arg, enum wa_as_coll c, const uint8_t im[32], uint8_t vm[32])
{
	struct fake	*f = arg;
	size_t		 i;

	(void)c;
	for (i = 0; i < f->n; i++)
		if (f->map[i].live && memcmp(f->map[i].im, im, 32) == 0) {
			memcpy(vm, f->map[i].vm, 32);
			return 1;
		}
	return 0;
}

static void
fake_store(struct fake *f, const struct wa_as_change *ch, size_t n, bool reset)
{
	size_t	 i, j;

	if (reset)
		f->n = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < f->n; j++)
			if (f->map[j].live &&
			    memcmp(f->map[j].im, ch[i].index_mac, 32) == 0)
				break;
		if (j == f->n) {
			if (!ch[i].set)
				continue;
			assert_true(f->n < 64);
			f->n++;
		}
		memcpy(f->map[j].im, ch[i].index_mac, 32);
		memcpy(f->map[j].vm, ch[i].value_mac, 32);
		f->map[j].live = ch[i].set;
	}
}

static void
fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	kat_keys(&f->k1);
	f->k2 = f->k1;
	f->k2.value_mac[0] ^= 1;	/* another key's MACs differ */
	f->k2.index[0] ^= 1;
}

/* ------------------------------------------------------------------ */
/* known answers (node:crypto, tests/interop has the script's form) */

static void
test_wa_as_keys_expand__matches__node_hkdf(void **state)
{
	struct wa_as_keys	 k;
	uint8_t			 kd[1] = { 0 };

	(void)state;
	kat_keys(&k);
	assert_hex(k.index, 32, "61387bcf643616a68bd611a45516b398"
	    "0418323087d78bf08c615645549434b4");
	assert_hex(k.value_enc, 32, "900ba2843ba5fb0cee55cf2a4de9503d"
	    "ce68187d3f6b95b420b008bde66f5a20");
	assert_hex(k.value_mac, 32, "d0879f6b61f0bcba79faad3f47a8a768"
	    "fd7fc04a6cc8b3ecefedfa087413226f");
	assert_hex(k.snapshot_mac, 32, "69b2e91be6587307c43c29b027a71fdd"
	    "55be25f07ca726714115430d23093071");
	assert_hex(k.patch_mac, 32, "693845bdd996652aca9ca0b96d0f081a"
	    "bf29943303c5eb19bdb84f38b24c32ab");
	assert_int_equal(wa_as_keys_expand(kd, 0, &k), -EINVAL);
	assert_int_equal(wa_as_keys_expand(kd, WA_AS_KEY_DATA_MAX + 1, &k),
	    -EINVAL);
}

static void
test_wa_as_index_and_value_mac__match__node_hmac(void **state)
{
	static const char	 idx[] = "[\"mute\",\"123@s.whatsapp.net\"]";
	struct wa_as_keys	 k;
	uint8_t			 ivct[48], out[32];
	size_t			 i;

	(void)state;
	kat_keys(&k);
	wa_as_index_mac(&k, idx, strlen(idx), out);
	assert_hex(out, 32, "995a77c7387bc9166a176e840f16a184"
	    "597c12a490ac0d2a1eec26aef05d5a93");
	for (i = 0; i < sizeof(ivct); i++)
		ivct[i] = (uint8_t)(i * 7 + 3);
	wa_as_value_mac(&k, WA_AS_SET, KEY_ID, sizeof(KEY_ID), ivct,
	    sizeof(ivct), out);
	assert_hex(out, 32, "e9c43bf056a24b2bb1cf914eaa0ce07f"
	    "5b85257bbe0d187fd6362d5f8707fc34");
	wa_as_value_mac(&k, WA_AS_REMOVE, KEY_ID, sizeof(KEY_ID), ivct,
	    sizeof(ivct), out);
	assert_hex(out, 32, "ad348cdea83add1b7229f3af5e010af4"
	    "22ff0757e197be03abfa623237a1e474");
}

static const char E1[] =
    "1cfd76b36fcecdec2fda9a0568651ffe51de9dc7c252a541e09b99997dfd5dde"
    "85613956b16689d6a21c2a34d23efbb1615834ee5c9cb569b97a295cf486ce4b"
    "770a3af5f7daf452ead2813bf0ff73857398a3555609bee57252aaae963a60a9"
    "ba962c003957e099375e5514de0cb6eb2e9618a56547f742004939a8a26b4cf4";
static const char H12[] =
    "84f1520d919e6cf6a6ec239801ec5ff66265e01b0a85de380383d8c43fd5d9b8"
    "6d1258fae98a084ca4f6d439bda786591ca1c2a0a0325ae13d437af1a3a00868"
    "4f147f917b5a1161041ebdea89854f5a75321847ca9a80b45efd3bdb7d79d9ef"
    "160fb9848c0d02de6c3c4384f045436a47d0962b42810a95461563044a6a2cbc";

static void
test_wa_lthash__adds_subtracts_commutes_and_wraps(void **state)
{
	uint8_t	 v1[32], v2[32], h[128], g[128], zero[128] = { 0 };
	uint8_t	 e1[128];
	size_t	 i;

	(void)state;
	memset(v1, 0x11, 32);
	memset(v2, 0x22, 32);
	unhex(E1, e1, 128);
	memset(h, 0, sizeof(h));
	wa_lthash_add(h, v1);
	assert_memory_equal(h, e1, 128);	/* from zero: e itself */
	wa_lthash_add(h, v2);
	assert_hex(h, 128, H12);
	memset(g, 0, sizeof(g));
	wa_lthash_add(g, v2);
	wa_lthash_add(g, v1);
	assert_memory_equal(g, h, 128);		/* order does not matter */
	wa_lthash_sub(g, v1);
	wa_lthash_sub(g, v2);
	assert_memory_equal(g, zero, 128);	/* sub undoes add */
	/* Each uint16 (little-endian) wraps mod 2^16. */
	memset(h, 0xff, sizeof(h));
	wa_lthash_add(h, v1);
	for (i = 0; i < 128; i += 2) {
		unsigned	 e = e1[i] | (unsigned)e1[i + 1] << 8;
		unsigned	 got = h[i] | (unsigned)h[i + 1] << 8;

		assert_int_equal(got, (0xffffu + e) & 0xffffu);
	}
	memset(h, 0, sizeof(h));
	wa_lthash_sub(h, v1);
	for (i = 0; i < 128; i += 2) {
		unsigned	 e = e1[i] | (unsigned)e1[i + 1] << 8;
		unsigned	 got = h[i] | (unsigned)h[i + 1] << 8;

		assert_int_equal(got, (0x10000u - e) & 0xffffu);
	}
}

static void
test_wa_as_snapshot_and_patch_mac__match__node_hmac(void **state)
{
	struct wa_as_keys	 k;
	uint8_t			 h[128], smac[32], pmac[32], vms[64];

	(void)state;
	kat_keys(&k);
	unhex(H12, h, 128);
	wa_as_snapshot_mac(&k, h, 7, WA_AS_REGULAR_HIGH, smac);
	assert_hex(smac, 32, "10c758d2546f524bfd12b1b016e952c0"
	    "7b838785766efab1e9fe8ee8bfbc77ca");
	memset(vms, 0x11, 32);
	memset(vms + 32, 0x22, 32);
	wa_as_patch_mac(&k, smac, vms, 2, 7, WA_AS_REGULAR_HIGH, pmac);
	assert_hex(pmac, 32, "dd9902283ea83a0bf0804572e40f93b0"
	    "036fd24c8f554578f33ef26b8042732e");
	/* The name is part of it. */
	wa_as_snapshot_mac(&k, h, 7, WA_AS_REGULAR_LOW, pmac);
	assert_memory_not_equal(pmac, smac, 32);
}

static void
test_wa_as_coll__names__the_five_in_fetch_order(void **state)
{
	(void)state;
	assert_string_equal(wa_as_coll_name(WA_AS_CRITICAL_BLOCK),
	    "critical_block");
	assert_string_equal(wa_as_coll_name(WA_AS_CRITICAL_UNBLOCK_LOW),
	    "critical_unblock_low");
	assert_string_equal(wa_as_coll_name(WA_AS_REGULAR_HIGH),
	    "regular_high");
	assert_string_equal(wa_as_coll_name(WA_AS_REGULAR_LOW), "regular_low");
	assert_string_equal(wa_as_coll_name(WA_AS_REGULAR), "regular");
	assert_null(wa_as_coll_name(WA_AS_NCOLL));
	assert_int_equal(wa_as_coll_find("regular_low"), WA_AS_REGULAR_LOW);
	assert_int_equal(wa_as_coll_find("Regular"), -1);
	assert_int_equal(wa_as_coll_find("regular "), -1);
	assert_int_equal(wa_as_action_coll(WA_AS_ACT_STAR), WA_AS_REGULAR_HIGH);
	assert_int_equal(wa_as_action_coll(WA_AS_ACT_PIN), WA_AS_REGULAR_LOW);
	assert_int_equal(wa_as_action_coll(WA_AS_ACT_CONTACT),
	    WA_AS_CRITICAL_UNBLOCK_LOW);
	assert_int_equal(wa_as_action_coll(WA_AS_ACT_PUSH_NAME),
	    WA_AS_CRITICAL_BLOCK);
	assert_int_equal(wa_as_action_coll(WA_AS_ACT_IGNORED), -1);
	assert_int_equal(wa_as_action_version(WA_AS_ACT_CLEAR_CHAT), 6);
	assert_int_equal(wa_as_action_version(WA_AS_ACT_PIN), 5);
}

/* ------------------------------------------------------------------ */
/* the index JSON */

static int
index_parse(struct arena *a, const char *s, char ***parts, size_t *n)
{
	return wa_as_index_parse(a, s, strlen(s), parts, n);
}

static void
test_wa_as_index_parse__reads__strings_with_escapes(void **state)
{
	struct arena	 a;
	char		**p;
	size_t		 n;

	(void)state;
	arena_init(&a, 4096);
	assert_int_equal(index_parse(&a, "[\"mute\",\"1@s.whatsapp.net\"]",
	    &p, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(p[0], "mute");
	assert_string_equal(p[1], "1@s.whatsapp.net");
	assert_int_equal(index_parse(&a,
	    "[\"a\\\"b\\\\c\\/d\\n\\t\\u00e9\\ud83d\\ude00\\u0001\"]", &p,
	    &n), 0);
	assert_int_equal(n, 1);
	assert_string_equal(p[0], "a\"b\\c/d\n\t\xc3\xa9\xf0\x9f\x98\x80\x01");
	assert_int_equal(index_parse(&a, "[]", &p, &n), 0);
	assert_int_equal(n, 0);
	assert_int_equal(index_parse(&a, "[\"\xe4\xbd\xa0\"]", &p, &n), 0);
	assert_string_equal(p[0], "\xe4\xbd\xa0");
	arena_release(&a);
}

static void
test_wa_as_index_parse__refuses__anything_but_an_array_of_strings(void **state)
{
	static const char *const bad[] = {
		"", "[", "]", "[\"a\"", "[\"a\",]", "[,\"a\"]", "[\"a\"] ",
		" [\"a\"]", "[\"a\", \"b\"]", "[1]", "[null]", "[true]",
		"\"a\"", "[\"a\"]x", "[\"\\x\"]", "[\"\\u12\"]",
		"[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\\u0000\"]",
		"[\"a\nb\"]", "[\"\xc3\"]", "[\"\xc0\xaf\"]",
		"[\"\xed\xa0\x80\"]", "[\"\xf5\x80\x80\x80\"]", "[][]",
	};
	struct arena	 a;
	char		**p = NULL, big[WA_AS_INDEX_MAX_LEN + 8];
	size_t		 i, n = 99;

	(void)state;
	arena_init(&a, 4096);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int	 rc = index_parse(&a, bad[i], &p, &n);

		if (rc != WC_EPROTO)
			fail_msg("index %zu (%s): %d", i, bad[i], rc);
	}
	assert_int_equal(index_parse(&a, "[[\"a\"]]", &p, &n), WC_EDEPTH);
	assert_int_equal(index_parse(&a, "[{\"a\":1}]", &p, &n), WC_EDEPTH);
	assert_int_equal(index_parse(&a, "{\"a\":1}", &p, &n), WC_EDEPTH);
	assert_int_equal(index_parse(&a, "[\"a\",\"a\",\"a\",\"a\",\"a\","
	    "\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\",\"a\","
	    "\"a\",\"a\"]", &p, &n), WC_ETOOBIG);
	big[0] = '[';
	big[1] = '"';
	memset(big + 2, 'x', sizeof(big) - 5);
	memcpy(big + sizeof(big) - 3, "\"]", 3);
	assert_int_equal(index_parse(&a, big, &p, &n), WC_ETOOBIG);
	assert_null(p);
	assert_int_equal(n, 99);
	arena_release(&a);
}

static void
test_wa_as_index_encode__writes__as_json_stringify(void **state)
{
	const char	*parts[] = { "star", "a\"b\\c\n\x01\x1f/\xc3\xa9<>&" };
	const char	*bad[] = { "\xff" };
	struct buf	 b = BUF_INIT;
	struct arena	 a;
	char		**p;
	size_t		 n;

	(void)state;
	assert_int_equal(wa_as_index_encode(parts, 2, &b), 0);
	buf_push(&b, 0);
	/* JSON.stringify(["star", "a\"b\\c\n\x01\x1f/é<>&"]) */
	assert_string_equal((char *)b.p,
	    "[\"star\",\"a\\\"b\\\\c\\n\\u0001\\u001f/\xc3\xa9<>&\"]");
	arena_init(&a, 4096);
	assert_int_equal(wa_as_index_parse(&a, (char *)b.p, b.len - 1, &p,
	    &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(p[1], parts[1]);
	b.len = 0;
	assert_int_equal(wa_as_index_encode(bad, 1, &b), -EINVAL);
	assert_int_equal(b.len, 0);
	arena_release(&a);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* patches: ours applied back, and every failure */

static struct wa_as_action
act_mute(const char *chat, bool on, int64_t end)
{
	struct wa_as_action	 a = { 0 };

	a.kind = WA_AS_ACT_MUTE;
	a.chat = (char *)chat;
	a.flag = on;
	a.mute_end_ms = end;
	return a;
}

static void
iv_fill(uint8_t iv[16], int seed)
{
	int	 i;

	for (i = 0; i < 16; i++)
		iv[i] = (uint8_t)(seed * 13 + i);
}

/* Encode n sends on *st with the fake's map; parse the patch back. */
static void
encode_parse(struct arena *a, struct fake *f, enum wa_as_coll c,
    const struct wa_as_state *st, const struct wa_as_send *m, size_t n,
    struct wa_as_patch *p, struct wa_as_state *ns,
    struct wa_as_change **ch, size_t *n_ch)
{
	struct buf	 b = BUF_INIT;
	uint8_t		*copy;

	assert_int_equal(wa_as_patch_encode(a, &f->k1, KEY_ID, sizeof(KEY_ID),
	    c, st, m, n, 1700000000000, fake_mac, f, &b, ns, ch, n_ch), 0);
	copy = arena_alloc(a, b.len);
	memcpy(copy, b.p, b.len);
	assert_int_equal(wa_as_patch_parse(a, copy, b.len, p), 0);
	buf_release(&b);
	assert_false(p->has_version);	/* 2.7: none in a sent patch */
	assert_true(p->has_macs);
	assert_int_equal(p->n_records, n);
}

static void
apply_in(struct wa_as_apply_in *in, struct fake *f, enum wa_as_coll c,
    const struct wa_as_patch *p, uint64_t version)
{
	memset(in, 0, sizeof(*in));
	in->coll = c;
	in->records = p->records;
	in->n_records = p->n_records;
	in->key_id = p->key_id;
	in->key_id_len = p->key_id_len;
	in->version = version;
	in->snapshot_mac = p->snapshot_mac;
	in->patch_mac = p->patch_mac;
	in->key_fn = fake_key;
	in->key_arg = f;
	in->mac_fn = fake_mac;
	in->mac_arg = f;
}

static void
test_wa_as_patch_encode__applies_back__to_the_same_state(void **state)
{
	struct wa_as_action	 acts[5];
	struct wa_as_send	 m[5];
	struct wa_as_state	 st = { 0 }, ns, got;
	struct wa_as_patch	 p;
	struct wa_as_apply_in	 in;
	struct wa_as_apply_out	 out;
	struct wa_as_change	*ch;
	struct fake		 f;
	struct arena		 a;
	size_t			 i, n_ch;

	(void)state;
	fake_init(&f);
	arena_init(&a, 1 << 16);
	memset(acts, 0, sizeof(acts));
	acts[0] = act_mute("111@s.whatsapp.net", true, 1700028800000);
	acts[1].kind = WA_AS_ACT_STAR;
	acts[1].chat = "222@s.whatsapp.net";
	acts[1].msg_id = "3EB0AA";
	acts[1].from_me = true;
	acts[1].flag = true;
	acts[2].kind = WA_AS_ACT_DELETE_CHAT;
	acts[2].chat = "333-444@g.us";
	acts[2].delete_media = true;
	acts[2].range_last_s = 1699999999;
	acts[3].kind = WA_AS_ACT_CLEAR_CHAT;
	acts[3].chat = "555@s.whatsapp.net";
	acts[3].delete_starred = true;
	acts[4].kind = WA_AS_ACT_DELETE_MSG_FOR_ME;
	acts[4].chat = "333-444@g.us";
	acts[4].msg_id = "ABCD";
	acts[4].participant = "666@s.whatsapp.net";
	acts[4].msg_ts_s = 1699999000;
	for (i = 0; i < 5; i++) {
		m[i].op = WA_AS_SET;
		m[i].action = &acts[i];
		iv_fill(m[i].iv, (int)i);
	}
	encode_parse(&a, &f, WA_AS_REGULAR_HIGH, &st, m, 5, &p, &ns, &ch,
	    &n_ch);
	assert_int_equal(ns.version, 1);
	assert_int_equal(n_ch, 5);
	got = st;
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	assert_int_equal(wa_as_apply(&a, &in, &got, &out), 0);
	assert_int_equal(got.version, ns.version);
	assert_memory_equal(got.hash, ns.hash, 128);
	assert_int_equal(out.n_changes, n_ch);
	assert_memory_equal(out.changes, ch, n_ch * sizeof(*ch));
	assert_int_equal(out.n_mutations, 5);
	for (i = 0; i < 5; i++)
		assert_int_equal(out.mutations[i].err, 0);
	assert_int_equal(out.mutations[0].action.kind, WA_AS_ACT_MUTE);
	assert_true(out.mutations[0].action.flag);
	assert_int_equal(out.mutations[0].action.mute_end_ms, 1700028800000);
	assert_int_equal(out.mutations[0].action.ts_ms, 1700000000000);
	assert_int_equal(out.mutations[0].action.version, 2);
	assert_string_equal(out.mutations[0].index_json,
	    "[\"mute\",\"111@s.whatsapp.net\"]");
	assert_int_equal(out.mutations[1].action.kind, WA_AS_ACT_STAR);
	assert_string_equal(out.mutations[1].index_json,
	    "[\"star\",\"222@s.whatsapp.net\",\"3EB0AA\",\"1\",\"0\"]");
	assert_true(out.mutations[1].action.from_me);
	assert_null(out.mutations[1].action.participant);
	assert_int_equal(out.mutations[2].action.kind, WA_AS_ACT_DELETE_CHAT);
	assert_true(out.mutations[2].action.delete_media);
	assert_int_equal(out.mutations[2].action.range_last_s, 1699999999);
	assert_int_equal(out.mutations[2].action.version, 6);
	assert_string_equal(out.mutations[3].index_json,
	    "[\"clearChat\",\"555@s.whatsapp.net\",\"1\",\"0\"]");
	assert_true(out.mutations[3].action.delete_starred);
	assert_false(out.mutations[3].action.delete_media);
	assert_string_equal(out.mutations[4].action.participant,
	    "666@s.whatsapp.net");
	assert_int_equal(out.mutations[4].action.msg_ts_s, 1699999000);
	assert_int_equal(out.mutations[4].action.version, 3);
	/* A mix of collections is refused. */
	{
		struct wa_as_action	 pin = { 0 };
		struct buf		 b = BUF_INIT;

		pin.kind = WA_AS_ACT_PIN;
		pin.chat = "1@s.whatsapp.net";
		m[0].action = &pin;
		assert_int_equal(wa_as_patch_encode(&a, &f.k1, KEY_ID,
		    sizeof(KEY_ID), WA_AS_REGULAR_HIGH, &st, m, 1, 1,
		    fake_mac, &f, &b, &ns, &ch, &n_ch), -EINVAL);
		assert_int_equal(b.len, 0);
	}
	arena_release(&a);
}

/* Mute a chat, then mute it again and unmute a second, then REMOVE the
 * first: each patch subtracts what the map held; all on top of each
 * other, the hash equals the LTHash of the live value MACs. */
static void
test_wa_as_apply__subtracts__previous_values_from_the_map(void **state)
{
	struct wa_as_action	 a1 = act_mute("1@s.whatsapp.net", true, -1);
	struct wa_as_action	 a2 = act_mute("1@s.whatsapp.net", false, 0);
	struct wa_as_action	 a3 = act_mute("2@s.whatsapp.net", true, -1);
	struct wa_as_send	 m[2];
	struct wa_as_state	 st = { 0 }, ns;
	struct wa_as_patch	 p;
	struct wa_as_apply_in	 in;
	struct wa_as_apply_out	 out;
	struct wa_as_change	*ch;
	struct fake		 f;
	struct arena		 a;
	uint8_t			 h[128] = { 0 };
	size_t			 i, n_ch;

	(void)state;
	fake_init(&f);
	arena_init(&a, 1 << 16);
	m[0].op = WA_AS_SET;
	m[0].action = &a1;
	iv_fill(m[0].iv, 1);
	encode_parse(&a, &f, WA_AS_REGULAR_HIGH, &st, m, 1, &p, &ns, &ch,
	    &n_ch);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	assert_int_equal(out.mutations[0].action.mute_end_ms, -1);
	fake_store(&f, out.changes, out.n_changes, false);

	m[0].action = &a2;
	m[1].op = WA_AS_SET;
	m[1].action = &a3;
	iv_fill(m[1].iv, 2);
	encode_parse(&a, &f, WA_AS_REGULAR_HIGH, &st, m, 2, &p, &ns, &ch,
	    &n_ch);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 2);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	assert_memory_equal(st.hash, ns.hash, 128);
	assert_false(out.mutations[0].action.flag);
	assert_int_equal(out.mutations[0].action.mute_end_ms, 0);
	fake_store(&f, out.changes, out.n_changes, false);
	assert_int_equal(f.n, 2);	/* chat 1 overwritten, chat 2 new */

	m[0].op = WA_AS_REMOVE;
	m[0].action = &a2;
	encode_parse(&a, &f, WA_AS_REGULAR_HIGH, &st, m, 1, &p, &ns, &ch,
	    &n_ch);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 3);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	assert_int_equal(out.n_changes, 1);
	assert_false(out.changes[0].set);
	fake_store(&f, out.changes, out.n_changes, false);
	for (i = 0; i < f.n; i++)
		if (f.map[i].live)
			wa_lthash_add(h, f.map[i].vm);
	assert_memory_equal(st.hash, h, 128);
	assert_int_equal(st.version, 3);
	arena_release(&a);
}

/* SET x, SET x, REMOVE x, SET x in one patch: each looks back to the
 * nearest earlier record of x first (the REMOVE means "none"). */
static void
test_wa_as_apply__looks_back__nearest_first_within_a_patch(void **state)
{
	struct wa_as_action	 on = act_mute("7@s.whatsapp.net", true, -1);
	struct wa_as_action	 off = act_mute("7@s.whatsapp.net", false, 0);
	struct wa_as_send	 m[4];
	struct wa_as_state	 st = { 0 }, ns;
	struct wa_as_patch	 p;
	struct wa_as_apply_in	 in;
	struct wa_as_apply_out	 out;
	struct wa_as_change	*ch;
	struct fake		 f;
	struct arena		 a;
	uint8_t			 h[128] = { 0 }, vm[32];
	size_t			 n_ch;
	int			 i;

	(void)state;
	fake_init(&f);
	arena_init(&a, 1 << 16);
	for (i = 0; i < 4; i++) {
		m[i].op = i == 2 ? WA_AS_REMOVE : WA_AS_SET;
		m[i].action = i % 2 ? &off : &on;
		iv_fill(m[i].iv, i + 5);
	}
	encode_parse(&a, &f, WA_AS_REGULAR_HIGH, &st, m, 4, &p, &ns, &ch,
	    &n_ch);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	/* Only the last SET is live. */
	memcpy(vm, p.records[3].value + p.records[3].value_len - 32, 32);
	wa_lthash_add(h, vm);
	assert_memory_equal(st.hash, h, 128);
	assert_int_equal(out.n_changes, 1);
	assert_true(out.changes[0].set);
	assert_memory_equal(out.changes[0].value_mac, vm, 32);
	arena_release(&a);
}

/* One mute patch of version 1, parsed, for the failure tests. */
static void
one_patch(struct arena *a, struct fake *f, struct wa_as_patch *p)
{
	struct wa_as_action	 mu = act_mute("9@s.whatsapp.net", true, -1);
	struct wa_as_send	 m = { WA_AS_SET, &mu, { 0 } };
	struct wa_as_state	 st = { 0 }, ns;
	struct wa_as_change	*ch;
	size_t			 n_ch;

	iv_fill(m.iv, 3);
	encode_parse(a, f, WA_AS_REGULAR_HIGH, &st, &m, 1, p, &ns, &ch, &n_ch);
}

static void
assert_state_untouched(const struct wa_as_state *st)
{
	uint8_t	 h[128];

	memset(h, 0x5a, sizeof(h));
	assert_int_equal(st->version, 41);
	assert_memory_equal(st->hash, h, 128);
}

static void
test_wa_as_apply__fails__on_each_mac_leaving_the_state(void **state)
{
	struct wa_as_state	 st;
	struct wa_as_patch	 p;
	struct wa_as_apply_in	 in;
	struct wa_as_apply_out	 out;
	struct fake		 f;
	struct arena		 a;
	uint8_t			*v;

	(void)state;
	fake_init(&f);
	arena_init(&a, 1 << 16);
	one_patch(&a, &f, &p);
	/* A different base: the snapshot MAC cannot match. */
	st.version = 41;
	memset(st.hash, 0x5a, sizeof(st.hash));
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 42);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EASHASH);
	assert_state_untouched(&st);
	/* The right base but the wrong version. */
	memset(&st, 0, sizeof(st));
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 2);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EASHASH);
	/* The wrong collection name. */
	apply_in(&in, &f, WA_AS_REGULAR_LOW, &p, 1);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EASHASH);
	/* Tampered snapshot MAC. */
	p.snapshot_mac[5] ^= 0x40;
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EASHASH);
	p.snapshot_mac[5] ^= 0x40;
	/* Tampered patch MAC. */
	p.patch_mac[31] ^= 1;
	st.version = 41;
	memset(st.hash, 0x5a, sizeof(st.hash));
	{
		struct wa_as_state	 zero = { 0 };

		assert_int_equal(wa_as_apply(&a, &in, &zero, &out),
		    WC_EASPATCHMAC);
		assert_int_equal(zero.version, 0);
	}
	p.patch_mac[31] ^= 1;
	/* Tampered value MAC on the wire: the hash moves with it, so the
	 * snapshot MAC fails. */
	v = (uint8_t *)p.records[0].value;
	v[p.records[0].value_len - 1] ^= 1;
	memset(&st, 0, sizeof(st));
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EASHASH);
	assert_int_equal(st.version, 0);
	v[p.records[0].value_len - 1] ^= 1;
	/* Tampered ciphertext: the record's MAC fails, the patch's MACs
	 * still verify (they cover the MAC, not the body): applied, the
	 * record reported and not decoded. */
	v[20] ^= 1;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	assert_int_equal(out.mutations[0].err, WC_EBADMAC);
	assert_int_equal(out.mutations[0].action.kind, WA_AS_ACT_UNKNOWN);
	assert_null(out.mutations[0].index_json);
	assert_int_equal(out.n_changes, 1);
	assert_int_equal(st.version, 1);
	/* Already applied. */
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_ESTATE);
	arena_release(&a);
}

static void
test_wa_as_apply__fails__on_a_missing_key_naming_it(void **state)
{
	struct wa_as_state	 st = { 0 };
	struct wa_as_patch	 p;
	struct wa_as_apply_in	 in;
	struct wa_as_apply_out	 out;
	struct fake		 f;
	struct arena		 a;

	(void)state;
	fake_init(&f);
	arena_init(&a, 1 << 16);
	one_patch(&a, &f, &p);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	/* The patch's key is unknown. */
	in.key_id = KEY_ID2;
	in.key_id_len = sizeof(KEY_ID2);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EASNOKEY);
	assert_int_equal(out.missing_key_id_len, sizeof(KEY_ID2));
	assert_memory_equal(out.missing_key_id, KEY_ID2, sizeof(KEY_ID2));
	assert_int_equal(st.version, 0);
	/* The patch's key is known, a record's is not. */
	p.records[0].key_id = KEY_ID2;
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EASNOKEY);
	assert_memory_equal(out.missing_key_id, KEY_ID2, sizeof(KEY_ID2));
	assert_int_equal(st.version, 0);
	/* Once it is there, the record's MAC is checked with it (and,
	 * computed with key 1, fails), the patch goes through. */
	f.have2 = true;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	assert_int_equal(out.mutations[0].err, WC_EBADMAC);
	arena_release(&a);
}

static void
test_wa_as_apply__refuses__bad_arguments_before_any_lookup(void **state)
{
	struct wa_as_state	 st = { 0 };
	struct wa_as_patch	 p;
	struct wa_as_apply_in	 in;
	struct wa_as_apply_out	 out;
	struct fake		 f;
	struct arena		 a;

	(void)state;
	fake_init(&f);
	arena_init(&a, 1 << 16);
	one_patch(&a, &f, &p);
	f.key_calls = 0;
	apply_in(&in, &f, WA_AS_NCOLL, &p, 1);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), -EINVAL);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	in.mac_fn = NULL;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), -EINVAL);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	in.records = NULL;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), -EINVAL);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	in.patch_mac = NULL;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EPROTO);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	in.key_id_len = WA_AS_KEY_ID_MAX + 1;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EPROTO);
	apply_in(&in, &f, WA_AS_REGULAR_HIGH, &p, 1);
	in.n_records = WA_AS_MAX_PATCH_RECORDS + 1;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_ETOOBIG);
	assert_int_equal(f.key_calls, 0);
	assert_int_equal(st.version, 0);
	arena_release(&a);
}

/* ---- hand-made records for faults inside a verified patch ---- */

struct hand {
	uint8_t		 im[32];
	uint8_t		 value[16 + 256 + 32];
	size_t		 value_len;
};

/* A record of sad[0..len) (SyncActionData bytes) under index MAC im,
 * encrypted with OpenSSL's own CBC and PKCS#7. */
static void
hand_record(const struct wa_as_keys *k, int op, const uint8_t *sad,
    size_t len, const uint8_t im[32], struct hand *h,
    struct wa_as_record *r)
{
	EVP_CIPHER_CTX	*c = EVP_CIPHER_CTX_new();
	int		 n1, n2;

	assert_non_null(c);
	iv_fill(h->value, 9);
	assert_int_equal(EVP_EncryptInit_ex(c, EVP_aes_256_cbc(), NULL,
	    k->value_enc, h->value), 1);
	assert_int_equal(EVP_EncryptUpdate(c, h->value + 16, &n1, sad,
	    (int)len), 1);
	assert_int_equal(EVP_EncryptFinal_ex(c, h->value + 16 + n1, &n2), 1);
	EVP_CIPHER_CTX_free(c);
	wa_as_value_mac(k, op, KEY_ID, sizeof(KEY_ID), h->value,
	    16 + (size_t)(n1 + n2), h->value + 16 + n1 + n2);
	h->value_len = 16 + (size_t)(n1 + n2) + 32;
	memcpy(h->im, im, 32);
	r->op = op;
	r->index_mac = h->im;
	r->value = h->value;
	r->value_len = h->value_len;
	r->key_id = KEY_ID;
	r->key_id_len = sizeof(KEY_ID);
}

/* A SyncActionData{index, value{timestamp}, version 2}. */
static size_t
hand_sad(const char *index, uint8_t *out)
{
	Waas__SyncActionData	 d = WAAS__SYNC_ACTION_DATA__INIT;
	Waas__SyncActionValue	 v = WAAS__SYNC_ACTION_VALUE__INIT;
	Waas__MuteAction	 m = WAAS__MUTE_ACTION__INIT;

	m.has_muted = true;
	m.muted = true;
	v.muteaction = &m;
	v.has_timestamp = true;
	v.timestamp = 5;
	d.has_index = true;
	d.index.data = (uint8_t *)index;
	d.index.len = strlen(index);
	d.value = &v;
	d.has_version = true;
	d.version = 2;
	return protobuf_c_message_pack(&d.base, out);
}

/* Reference 2.6 over records r[0..n) from a zero state and an empty map,
 * in plain O(n^2): the MACs a sender would put on them. */
static void
hand_macs(const struct wa_as_keys *k, const struct wa_as_record *r, size_t n,
    uint64_t version, enum wa_as_coll c, uint8_t smac[32], uint8_t pmac[32])
{
	uint8_t	 h[128] = { 0 }, vms[32 * 8];
	size_t	 i, j;

	assert_true(n <= 8);
	for (i = 0; i < n; i++) {
		const uint8_t	*vm = r[i].value + r[i].value_len - 32;

		for (j = i; j-- > 0;)
			if (memcmp(r[j].index_mac, r[i].index_mac, 32) == 0) {
				if (r[j].op == WA_AS_SET)
					wa_lthash_sub(h, r[j].value +
					    r[j].value_len - 32);
				break;
			}
		if (r[i].op == WA_AS_SET)
			wa_lthash_add(h, vm);
		memcpy(vms + 32 * i, vm, 32);
	}
	wa_as_snapshot_mac(k, h, version, c, smac);
	wa_as_patch_mac(k, smac, vms, n, version, c, pmac);
}

/* in for records r[0..n) under KEY_ID with the given MACs. */
static void
hand_in(struct wa_as_apply_in *in, struct fake *f, enum wa_as_coll c,
    const struct wa_as_record *r, size_t n, uint64_t version,
    const uint8_t *smac, const uint8_t *pmac)
{
	memset(in, 0, sizeof(*in));
	in->coll = c;
	in->records = r;
	in->n_records = n;
	in->key_id = KEY_ID;
	in->key_id_len = sizeof(KEY_ID);
	in->version = version;
	in->snapshot_mac = smac;
	in->patch_mac = pmac;
	in->key_fn = fake_key;
	in->key_arg = f;
	in->mac_fn = fake_mac;
	in->mac_arg = f;
}

static void
test_wa_as_apply__reports__a_bad_record_and_applies_the_rest(void **state)
{
	static const char *const idx[] = {
		"[\"mute\",\"1@s.whatsapp.net\"]",	/* good */
		"[\"mute\",\"2@s.whatsapp.net\"]",	/* index MAC of another */
		"[\"mute\", \"3@s.whatsapp.net\"]",	/* not our JSON */
		"[\"frobnicate\",\"4@s.whatsapp.net\"]", /* unknown action */
		"[\"mute\",\"5@s.whatsapp.net\"]",	/* REMOVE, unknown */
	};
	struct wa_as_record	 r[5];
	struct hand		 h[5];
	struct wa_as_state	 st = { 0 };
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_apply_out	 out;
	struct wa_as_keys	 k;
	struct fake		 f;
	struct arena		 a;
	uint8_t			 sad[256], im[32], smac[32], pmac[32];
	size_t			 i, len;

	(void)state;
	fake_init(&f);
	k = f.k1;
	arena_init(&a, 1 << 16);
	for (i = 0; i < 5; i++) {
		len = hand_sad(idx[i], sad);
		wa_as_index_mac(&k, idx[i], strlen(idx[i]), im);
		if (i == 1)
			im[0] ^= 1;	/* what the record claims */
		hand_record(&k, i == 4 ? WA_AS_REMOVE : WA_AS_SET, sad, len,
		    im, &h[i], &r[i]);
	}
	hand_macs(&k, r, 5, 1, WA_AS_REGULAR_HIGH, smac, pmac);
	hand_in(&in, &f, WA_AS_REGULAR_HIGH, r, 5, 1, smac, pmac);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	assert_int_equal(st.version, 1);
	assert_int_equal(out.mutations[0].err, 0);
	assert_int_equal(out.mutations[0].action.kind, WA_AS_ACT_MUTE);
	assert_string_equal(out.mutations[0].action.chat, "1@s.whatsapp.net");
	assert_int_equal(out.mutations[1].err, WC_EASINDEX);
	assert_int_equal(out.mutations[1].action.kind, WA_AS_ACT_UNKNOWN);
	assert_null(out.mutations[1].action.chat);
	assert_int_equal(out.mutations[2].err, WC_EPROTO);
	assert_null(out.mutations[2].index_json);
	assert_int_equal(out.mutations[3].err, 0);
	assert_int_equal(out.mutations[3].action.kind, WA_AS_ACT_UNKNOWN);
	assert_non_null(out.mutations[3].value_plain);
	assert_int_equal(out.mutations[3].value_len, hand_sad(idx[3], sad));
	assert_memory_equal(out.mutations[3].value_plain, sad,
	    out.mutations[3].value_len);
	/* A REMOVE of an index never seen: no error, a delete to store. */
	assert_int_equal(out.mutations[4].err, 0);
	assert_int_equal(out.mutations[4].op, WA_AS_REMOVE);
	assert_int_equal(out.n_changes, 5);
	assert_false(out.changes[4].set);
	/* Every record, bad ones too, is in the changes as on the wire. */
	for (i = 0; i < 4; i++) {
		assert_true(out.changes[i].set);
		assert_memory_equal(out.changes[i].index_mac, r[i].index_mac,
		    32);
	}
	arena_release(&a);
}

static void
test_wa_as_apply__reports__bad_padding_after_a_good_mac(void **state)
{
	static const char	 idx[] = "[\"mute\",\"1@s.whatsapp.net\"]";
	struct wa_as_record	 r;
	struct hand		 h;
	struct wa_as_state	 st = { 0 };
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_apply_out	 out;
	struct wa_as_keys	 k;
	struct fake		 f;
	struct arena		 a;
	EVP_CIPHER_CTX		*c;
	uint8_t			 sad[64], im[32], smac[32], pmac[32];
	int			 n1;

	(void)state;
	fake_init(&f);
	k = f.k1;
	arena_init(&a, 1 << 16);
	/* 32 bytes whose last is 0x00: no valid pad, encrypted without
	 * OpenSSL's padding. */
	memset(sad, 0x41, 32);
	sad[31] = 0;
	wa_as_index_mac(&k, idx, strlen(idx), im);
	hand_record(&k, WA_AS_SET, sad, 16, im, &h, &r);
	c = EVP_CIPHER_CTX_new();
	assert_int_equal(EVP_EncryptInit_ex(c, EVP_aes_256_cbc(), NULL,
	    k.value_enc, h.value), 1);
	EVP_CIPHER_CTX_set_padding(c, 0);
	assert_int_equal(EVP_EncryptUpdate(c, h.value + 16, &n1, sad, 32), 1);
	EVP_CIPHER_CTX_free(c);
	wa_as_value_mac(&k, WA_AS_SET, KEY_ID, sizeof(KEY_ID), h.value, 48,
	    h.value + 48);
	r.value_len = 80;
	hand_macs(&k, &r, 1, 1, WA_AS_REGULAR_HIGH, smac, pmac);
	hand_in(&in, &f, WA_AS_REGULAR_HIGH, &r, 1, 1, smac, pmac);
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	assert_int_equal(out.mutations[0].err, WC_EPADDING);
	assert_null(out.mutations[0].value_plain);
	arena_release(&a);
}

/* A snapshot of the same records starts from zero whatever the state,
 * takes no previous value from the map, and asks for a reset. */
static void
test_wa_as_apply__snapshot__starts_from_zero_and_resets(void **state)
{
	static const char	 idx[] = "[\"mute\",\"1@s.whatsapp.net\"]";
	struct wa_as_record	 r;
	struct hand		 h;
	struct wa_as_state	 st;
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_apply_out	 out;
	struct fake		 f;
	struct arena		 a;
	uint8_t			 sad[256], im[32], hash[128] = { 0 };
	uint8_t			 smac[32];
	size_t			 len;

	(void)state;
	fake_init(&f);
	arena_init(&a, 1 << 16);
	len = hand_sad(idx, sad);
	wa_as_index_mac(&f.k1, idx, strlen(idx), im);
	hand_record(&f.k1, WA_AS_SET, sad, len, im, &h, &r);
	wa_lthash_add(hash, h.value + h.value_len - 32);
	wa_as_snapshot_mac(&f.k1, hash, 77, WA_AS_REGULAR_LOW, smac);
	/* The map holds an older value for that index: ignored. */
	f.n = 1;
	f.map[0].live = true;
	memcpy(f.map[0].im, im, 32);
	memset(f.map[0].vm, 0x33, 32);
	st.version = 200;
	memset(st.hash, 0x77, sizeof(st.hash));
	hand_in(&in, &f, WA_AS_REGULAR_LOW, &r, 1, 77, smac, NULL);
	in.snapshot = true;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), 0);
	assert_int_equal(st.version, 77);
	assert_memory_equal(st.hash, hash, 128);
	assert_true(out.reset);
	assert_int_equal(out.n_changes, 1);
	smac[0] ^= 1;
	assert_int_equal(wa_as_apply(&a, &in, &st, &out), WC_EASHASH);
	assert_int_equal(st.version, 77);
	arena_release(&a);
}

/* ---- parsing ---- */

static void
test_wa_as_patch_parse__fails__on_every_truncation(void **state)
{
	struct wa_as_action	 mu = act_mute("9@s.whatsapp.net", true, -1);
	struct wa_as_send	 m = { WA_AS_SET, &mu, { 0 } };
	struct wa_as_state	 st = { 0 }, ns;
	struct wa_as_change	*ch;
	struct wa_as_patch	 p;
	struct buf		 b = BUF_INIT;
	struct fake		 f;
	struct arena		 a;
	size_t			 n_ch, len;

	(void)state;
	fake_init(&f);
	arena_init(&a, 1 << 16);
	assert_int_equal(wa_as_patch_encode(&a, &f.k1, KEY_ID, sizeof(KEY_ID),
	    WA_AS_REGULAR_HIGH, &st, &m, 1, 1, fake_mac, &f, &b, &ns, &ch,
	    &n_ch), 0);
	/* Every prefix either fails to parse or (cut at a field boundary)
	 * lacks something the parser requires. */
	for (len = 0; len < b.len; len++) {
		memset(&p, 0xee, sizeof(p));
		if (wa_as_patch_parse(&a, b.p, len, &p) == 0)
			fail_msg("a %zu-byte prefix of %zu parsed", len, b.len);
		assert_int_equal(p.n_records, (size_t)0xeeeeeeeeeeeeeeeeu);
	}
	/* Cut inside the last field: WC_ETRUNC. */
	assert_int_equal(wa_as_patch_parse(&a, b.p, b.len - 1, &p), WC_ETRUNC);
	assert_int_equal(wa_as_patch_parse(&a, b.p, b.len, &p), 0);
	buf_release(&b);
	arena_release(&a);
}

/* The syncd schemas do not nest themselves, so depth is bounded by the
 * schema (4 levels for a patch); a 100,000-deep unknown field is skipped
 * as bytes by wa_pb_check and protobuf-c alike, without recursion. */
static size_t
varint_len(size_t v)
{
	size_t	 n = 1;

	while (v > 0x7f) {
		v >>= 7;
		n++;
	}
	return n;
}

static void
test_wa_as_patch_parse__skips__a_100000_deep_unknown_field(void **state)
{
	enum { DEPTH = 100000 };
	struct buf		 b = BUF_INIT;
	struct wa_as_patch	 p;
	struct arena		 a;
	size_t			*inner, i;

	(void)state;
	arena_init(&a, 1 << 16);
	/* inner[i]: the bytes inside level i (level DEPTH - 1 is empty);
	 * each level is field 15, length-delimited, around the next. */
	inner = calloc(DEPTH, sizeof(*inner));
	assert_non_null(inner);
	for (i = DEPTH - 1; i-- > 0;)
		inner[i] = 1 + varint_len(inner[i + 1]) + inner[i + 1];
	/* keyId 6 = { id = 1 } so that the patch is otherwise complete. */
	buf_append(&b, "\x32\x03\x0a\x01\x01", 5);
	for (i = 0; i < DEPTH; i++) {
		size_t	 l = inner[i];

		buf_push(&b, (15 << 3) | 2);
		do {
			buf_push(&b, (uint8_t)((l & 0x7f) | (l > 0x7f ? 0x80 :
			    0)));
			l >>= 7;
		} while (l > 0);
	}
	free(inner);
	assert_int_equal(wa_as_patch_parse(&a, b.p, b.len, &p), 0);
	assert_int_equal(p.n_records, 0);
	assert_false(p.has_macs);
	/* The same bytes one short: the outermost length runs past. */
	assert_int_equal(wa_as_patch_parse(&a, b.p, b.len - 1, &p), WC_ETRUNC);
	buf_release(&b);
	arena_release(&a);
}

static void
test_wa_as_patch_parse__refuses__short_records_and_lone_macs(void **state)
{
	Waas__SyncdPatch	 sp = WAAS__SYNCD_PATCH__INIT;
	Waas__SyncdMutation	 m = WAAS__SYNCD_MUTATION__INIT, *mp = &m;
	Waas__SyncdRecord	 r = WAAS__SYNCD_RECORD__INIT;
	Waas__SyncdIndex	 ix = WAAS__SYNCD_INDEX__INIT;
	Waas__SyncdValue	 v = WAAS__SYNCD_VALUE__INIT;
	Waas__KeyId		 kid = WAAS__KEY_ID__INIT;
	struct wa_as_patch	 p;
	struct arena		 a;
	uint8_t			 mac[32] = { 0 }, val[96] = { 0 }, out[512];
	size_t			 len;

	(void)state;
	arena_init(&a, 1 << 16);
	kid.has_id = true;
	kid.id.data = (uint8_t *)KEY_ID;
	kid.id.len = sizeof(KEY_ID);
	ix.has_blob = true;
	ix.blob.data = mac;
	ix.blob.len = 32;
	v.has_blob = true;
	v.blob.data = val;
	v.blob.len = 64;
	r.index = &ix;
	r.value = &v;
	r.keyid = &kid;
	m.record = &r;
	sp.n_mutations = 1;
	sp.mutations = &mp;
	sp.keyid = &kid;
	sp.has_snapshotmac = sp.has_patchmac = true;
	sp.snapshotmac.data = sp.patchmac.data = mac;
	sp.snapshotmac.len = sp.patchmac.len = 32;
	len = protobuf_c_message_pack(&sp.base, out);
	assert_int_equal(wa_as_patch_parse(&a, out, len, &p), 0);
	assert_int_equal(p.records[0].value_len, 64);
	v.blob.len = 63;	/* not whole blocks */
	len = protobuf_c_message_pack(&sp.base, out);
	assert_int_equal(wa_as_patch_parse(&a, out, len, &p), WC_EPROTO);
	v.blob.len = 48;	/* no ciphertext */
	len = protobuf_c_message_pack(&sp.base, out);
	assert_int_equal(wa_as_patch_parse(&a, out, len, &p), WC_EPROTO);
	v.blob.len = 64;
	ix.blob.len = 31;
	len = protobuf_c_message_pack(&sp.base, out);
	assert_int_equal(wa_as_patch_parse(&a, out, len, &p), WC_EPROTO);
	ix.blob.len = 32;
	m.has_operation = true;
	m.operation = 2;
	len = protobuf_c_message_pack(&sp.base, out);
	assert_int_equal(wa_as_patch_parse(&a, out, len, &p), WC_EPROTO);
	m.operation = 1;
	sp.has_patchmac = false;
	len = protobuf_c_message_pack(&sp.base, out);
	assert_int_equal(wa_as_patch_parse(&a, out, len, &p), WC_EPROTO);
	sp.has_patchmac = true;
	sp.keyid = NULL;
	len = protobuf_c_message_pack(&sp.base, out);
	assert_int_equal(wa_as_patch_parse(&a, out, len, &p), WC_EPROTO);
	sp.keyid = &kid;
	len = protobuf_c_message_pack(&sp.base, out);
	assert_int_equal(wa_as_patch_parse(&a, out, len, &p), 0);
	assert_int_equal(p.records[0].op, WA_AS_REMOVE);
	arena_release(&a);
}

static void
test_wa_as_snapshot_and_blobref_parse__read__their_fields(void **state)
{
	Waas__SyncdSnapshot	 ss = WAAS__SYNCD_SNAPSHOT__INIT;
	Waas__SyncdVersion	 ver = WAAS__SYNCD_VERSION__INIT;
	Waas__KeyId		 kid = WAAS__KEY_ID__INIT;
	Waas__ExternalBlobReference br = WAAS__EXTERNAL_BLOB_REFERENCE__INIT;
	struct wa_as_snapshot	 s;
	struct wa_as_blobref	 b;
	struct arena		 a;
	uint8_t			 mac[32], mk[32], out[512];
	size_t			 len;

	(void)state;
	arena_init(&a, 1 << 16);
	memset(mac, 0xab, 32);
	memset(mk, 0xcd, 32);
	ver.has_version = true;
	ver.version = 123456789012ull;
	kid.has_id = true;
	kid.id.data = (uint8_t *)KEY_ID;
	kid.id.len = sizeof(KEY_ID);
	ss.version = &ver;
	ss.keyid = &kid;
	ss.has_mac = true;
	ss.mac.data = mac;
	ss.mac.len = 32;
	len = protobuf_c_message_pack(&ss.base, out);
	assert_int_equal(wa_as_snapshot_parse(&a, out, len, &s), 0);
	assert_int_equal(s.version, 123456789012ull);
	assert_memory_equal(s.mac, mac, 32);
	assert_int_equal(s.n_records, 0);
	ss.has_mac = false;
	len = protobuf_c_message_pack(&ss.base, out);
	assert_int_equal(wa_as_snapshot_parse(&a, out, len, &s), WC_EPROTO);
	br.has_mediakey = true;
	br.mediakey.data = mk;
	br.mediakey.len = 32;
	br.directpath = (char *)"/v/t62.1-24/x.enc";
	br.has_filesizebytes = true;
	br.filesizebytes = 4242;
	len = protobuf_c_message_pack(&br.base, out);
	assert_int_equal(wa_as_blobref_parse(&a, out, len, &b), 0);
	assert_int_equal(b.media_key_len, 32);
	assert_memory_equal(b.media_key, mk, 32);
	assert_string_equal(b.direct_path, "/v/t62.1-24/x.enc");
	assert_null(b.handle);
	assert_int_equal(b.size, 4242);
	assert_null(b.sha256);
	assert_int_equal(wa_as_blobref_parse(&a, out, len - 1, &b), WC_ETRUNC);
	arena_release(&a);
}

/* Our outbox keeps wa_as_action_encode()'s bytes: decoded, they give the
 * action back (a group star with its participant, a mute for good, a
 * mark unread with its range); garbage and an index-less value fail. */
static void
test_wa_as_action_decode__gives_back__what_encode_wrote(void **state)
{
	struct wa_as_action	 a, got;
	struct arena		 ar;
	struct buf		 b = BUF_INIT;
	char			*json = NULL;
	static const uint8_t	 junk[] = { 0x0a, 0x05, 'x' };
	static const uint8_t	 noindex[] = { 0x20, 0x02 };

	(void)state;
	arena_init(&ar, 1024);
	memset(&a, 0, sizeof(a));
	a.kind = WA_AS_ACT_STAR;
	a.chat = "120363000000001@g.us";
	a.msg_id = "3EB0AA";
	a.participant = "15550000003@s.whatsapp.net";
	a.flag = true;
	assert_int_equal(wa_as_action_encode(&a, 1700000000123LL, &b, &json),
	    0);
	assert_int_equal(wa_as_action_decode(&ar, b.p, b.len, &got), 0);
	assert_int_equal(got.kind, WA_AS_ACT_STAR);
	assert_int_equal(got.version, 2);
	assert_true(got.ts_ms == 1700000000123LL);
	assert_string_equal(got.chat, "120363000000001@g.us");
	assert_string_equal(got.msg_id, "3EB0AA");
	assert_false(got.from_me);
	assert_string_equal(got.participant, "15550000003@s.whatsapp.net");
	assert_true(got.flag);
	free(json);
	json = NULL;
	b.len = 0;
	memset(&a, 0, sizeof(a));
	a.kind = WA_AS_ACT_MUTE;
	a.chat = "15550000002@s.whatsapp.net";
	a.flag = true;
	a.mute_end_ms = -1;
	assert_int_equal(wa_as_action_encode(&a, 5, &b, &json), 0);
	assert_int_equal(wa_as_action_decode(&ar, b.p, b.len, &got), 0);
	assert_int_equal(got.kind, WA_AS_ACT_MUTE);
	assert_true(got.flag);
	assert_true(got.mute_end_ms == -1);
	assert_int_equal(wa_as_action_coll(got.kind), WA_AS_REGULAR_HIGH);
	free(json);
	json = NULL;
	b.len = 0;
	a.kind = WA_AS_ACT_MARK_READ;
	a.flag = false;
	a.range_last_s = 1700000000;
	assert_int_equal(wa_as_action_encode(&a, 5, &b, &json), 0);
	assert_int_equal(wa_as_action_decode(&ar, b.p, b.len, &got), 0);
	assert_int_equal(got.kind, WA_AS_ACT_MARK_READ);
	assert_false(got.flag);
	assert_true(got.range_last_s == 1700000000);
	free(json);
	assert_int_not_equal(wa_as_action_decode(&ar, junk, sizeof(junk),
	    &got), 0);
	assert_int_equal(wa_as_action_decode(&ar, noindex, sizeof(noindex),
	    &got), WC_EPROTO);
	assert_int_equal(wa_as_action_decode(NULL, b.p, b.len, &got), -EINVAL);
	buf_release(&b);
	arena_release(&ar);
}

static void
test_wa_as_action_encode__refuses__what_it_cannot_send(void **state)
{
	struct wa_as_action	 a = { 0 };
	struct buf		 b = BUF_INIT;
	char			*json = NULL;

	(void)state;
	a.kind = WA_AS_ACT_MUTE;
	assert_int_equal(wa_as_action_encode(&a, 1, &b, &json), -EINVAL);
	a.kind = WA_AS_ACT_STAR;
	a.chat = "1@s.whatsapp.net";
	assert_int_equal(wa_as_action_encode(&a, 1, &b, &json), -EINVAL);
	a.kind = WA_AS_ACT_IGNORED;
	assert_int_equal(wa_as_action_encode(&a, 1, &b, &json), -EINVAL);
	a.kind = WA_AS_ACT_CONTACT;
	a.full_name = "\xff";
	assert_int_equal(wa_as_action_encode(&a, 1, &b, &json), -EINVAL);
	assert_int_equal(b.len, 0);
	assert_null(json);
	a.kind = WA_AS_ACT_PUSH_NAME;
	a.chat = NULL;
	a.full_name = NULL;
	a.push_name = "Ada";
	assert_int_equal(wa_as_action_encode(&a, 1, &b, &json), 0);
	assert_string_equal(json, "[\"setting_pushName\"]");
	free(json);
	/* Muted with no end goes out as forever (-1), never as 0. */
	{
		Waas__SyncActionData	*d;

		b.len = 0;
		a.kind = WA_AS_ACT_MUTE;
		a.chat = "1@s.whatsapp.net";
		a.flag = true;
		a.mute_end_ms = 0;
		assert_int_equal(wa_as_action_encode(&a, 7, &b, &json), 0);
		free(json);
		d = waas__sync_action_data__unpack(NULL, b.len, b.p);
		assert_non_null(d);
		assert_non_null(d->value->muteaction);
		assert_true(d->value->muteaction->has_muteendtimestamp);
		assert_int_equal(d->value->muteaction->muteendtimestamp, -1);
		assert_int_equal(d->value->timestamp, 7);
		assert_int_equal(d->version, 2);
		waas__sync_action_data__free_unpacked(d, NULL);
	}
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_as_keys_expand__matches__node_hkdf),
		cmocka_unit_test(test_wa_as_index_and_value_mac__match__node_hmac),
		cmocka_unit_test(test_wa_lthash__adds_subtracts_commutes_and_wraps),
		cmocka_unit_test(test_wa_as_snapshot_and_patch_mac__match__node_hmac),
		cmocka_unit_test(test_wa_as_coll__names__the_five_in_fetch_order),
		cmocka_unit_test(test_wa_as_index_parse__reads__strings_with_escapes),
		cmocka_unit_test(test_wa_as_index_parse__refuses__anything_but_an_array_of_strings),
		cmocka_unit_test(test_wa_as_index_encode__writes__as_json_stringify),
		cmocka_unit_test(test_wa_as_patch_encode__applies_back__to_the_same_state),
		cmocka_unit_test(test_wa_as_apply__subtracts__previous_values_from_the_map),
		cmocka_unit_test(test_wa_as_apply__looks_back__nearest_first_within_a_patch),
		cmocka_unit_test(test_wa_as_apply__fails__on_each_mac_leaving_the_state),
		cmocka_unit_test(test_wa_as_apply__fails__on_a_missing_key_naming_it),
		cmocka_unit_test(test_wa_as_apply__refuses__bad_arguments_before_any_lookup),
		cmocka_unit_test(test_wa_as_apply__reports__a_bad_record_and_applies_the_rest),
		cmocka_unit_test(test_wa_as_apply__reports__bad_padding_after_a_good_mac),
		cmocka_unit_test(test_wa_as_apply__snapshot__starts_from_zero_and_resets),
		cmocka_unit_test(test_wa_as_patch_parse__fails__on_every_truncation),
		cmocka_unit_test(test_wa_as_patch_parse__skips__a_100000_deep_unknown_field),
		cmocka_unit_test(test_wa_as_patch_parse__refuses__short_records_and_lone_macs),
		cmocka_unit_test(test_wa_as_snapshot_and_blobref_parse__read__their_fields),
		cmocka_unit_test(test_wa_as_action_encode__refuses__what_it_cannot_send),
		cmocka_unit_test(test_wa_as_action_decode__gives_back__what_encode_wrote),
	};

	if (wa_crypto_init() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
