/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-signal.c -- the Signal layer (proto/wa-signal.h) over real
 * stores: two parties, each a store in its own temporary directory with
 * a freshly made device and one-time prekeys, bound through the adapter
 * of src/app-store.c.  Sessions from bundles, pkmsg then msg, prekeys
 * consumed, reopening, duplicates, tampering, identity changes, and the
 * JID to address mapping of protocol.md 5.4.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cmocka.h>
#include <sodium.h>
#include <sqlite3.h>

#include "src/app-store.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "store/store.h"
#include "proto/wa-signal.h"

#define NPREKEYS	4
#define CLOCK_MS	1700000000000LL

struct party {
	char				 dir[64];
	struct store			*st;
	struct wa_signal_store_ops	 ops;
	struct wa_signal		*sig;
	struct wa_signal_addr		 addr;	/* how the others address it */
	int64_t				 now_ms;
};

static int64_t
fake_now(void *arg)
{
	struct party	*p = arg;

	return p->now_ms;
}

static void
party_open(struct party *p)
{
	assert_int_equal(store_open(p->dir, &p->st), 0);
	app_store_signal_ops(p->st, &p->ops);
	assert_int_equal(wa_signal_new(&p->ops, fake_now, p, &p->sig), 0);
}

static void
party_close(struct party *p)
{
	wa_signal_free(p->sig);
	store_close(p->st);
	p->sig = NULL;
	p->st = NULL;
}

/* A new registration: identity, registration id, signed prekey and
 * one-time prekeys 1..NPREKEYS, stored as the engine stores them. */
static void
party_register(struct party *p)
{
	struct store_device	 d;
	struct store_prekey	 k[NPREKEYS];
	uint8_t			 msg[33], rnd[WA_CRYPTO_SIG_RANDOM_LEN];
	size_t			 i;

	memset(&d, 0, sizeof(d));
	randombytes_buf(d.noise_priv, 32);
	wa_crypto_x25519_base(d.noise_priv, d.noise_pub);
	randombytes_buf(d.identity_priv, 32);
	wa_crypto_x25519_base(d.identity_priv, d.identity_pub);
	d.registration_id = 1 + randombytes_uniform(16380);
	randombytes_buf(d.adv_secret, 32);
	d.spk_id = 1;
	randombytes_buf(d.spk_priv, 32);
	wa_crypto_x25519_base(d.spk_priv, d.spk_pub);
	msg[0] = 0x05;
	memcpy(msg + 1, d.spk_pub, 32);
	randombytes_buf(rnd, sizeof(rnd));
	assert_int_equal(wa_crypto_xeddsa_sign(d.identity_priv, msg,
	    sizeof(msg), rnd, d.spk_sig), 0);
	assert_int_equal(store_device_save(p->st, &d), 0);
	for (i = 0; i < NPREKEYS; i++) {
		k[i].id = (uint32_t)i + 1;
		randombytes_buf(k[i].priv, 32);
		wa_crypto_x25519_base(k[i].priv, k[i].pub);
	}
	assert_int_equal(store_prekey_put(p->st, k, NPREKEYS), 0);
	store_device_release(&d);
}

static void
party_new(struct party *p, const char *jid)
{
	char	 tmpl[] = "/tmp/wachat-signal-XXXXXX";

	memset(p, 0, sizeof(*p));
	assert_non_null(mkdtemp(tmpl));
	snprintf(p->dir, sizeof(p->dir), "%s", tmpl);
	p->now_ms = CLOCK_MS;
	assert_int_equal(wa_signal_addr_from_jid(jid, strlen(jid), &p->addr),
	    0);
	party_open(p);
	party_register(p);
}

static void
party_free(struct party *p)
{
	char	 cmd[128];

	party_close(p);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", p->dir);
	assert_int_equal(system(cmd), 0);
}

/* p's bundle as the server would hand it out (8.1). */
static void
bundle_of(struct party *p, uint32_t prekey_id, struct wa_signal_bundle *b)
{
	struct store_device	 d;
	struct store_prekey	 k;

	memset(b, 0, sizeof(*b));
	memset(&d, 0, sizeof(d));
	assert_int_equal(store_device_load(p->st, &d), 1);
	b->registration_id = d.registration_id;
	memcpy(b->identity, d.identity_pub, 32);
	b->spk_id = d.spk_id;
	memcpy(b->spk_pub, d.spk_pub, 32);
	memcpy(b->spk_sig, d.spk_sig, 64);
	if (prekey_id != 0) {
		assert_int_equal(store_prekey_get(p->st, prekey_id, &k), 1);
		b->has_prekey = true;
		b->prekey_id = prekey_id;
		memcpy(b->prekey_pub, k.pub, 32);
	}
	store_device_release(&d);
}

/* from encrypts text for to; returns the type; ciphertext in *ct. */
static enum wa_signal_type
send_text(struct party *from, struct party *to, const char *text,
    struct buf *ct)
{
	enum wa_signal_type	 type;

	ct->len = 0;
	assert_int_equal(wa_signal_encrypt(from->sig, &to->addr,
	    (const uint8_t *)text, strlen(text), &type, ct), 0);
	assert_true(ct->len > strlen(text));
	assert_null(memmem(ct->p, ct->len, text, strlen(text)));
	return type;
}

/* to decrypts ct from from and must read text. */
static void
recv_text(struct party *to, struct party *from, enum wa_signal_type type,
    const struct buf *ct, const char *text, bool *changed)
{
	struct buf	 pt = BUF_INIT;

	assert_int_equal(wa_signal_decrypt(to->sig, &from->addr, type, ct->p,
	    ct->len, &pt, changed), 0);
	assert_int_equal(pt.len, strlen(text));
	assert_memory_equal(pt.p, text, pt.len);
	buf_release(&pt);
}

/* Alice and Bob with a session both ways: Alice's pkmsg, Bob's reply. */
static void
converse(struct party *alice, struct party *bob, uint32_t prekey_id)
{
	struct wa_signal_bundle	 b;
	struct buf		 ct = BUF_INIT;
	bool			 changed = true;

	bundle_of(bob, prekey_id, &b);
	assert_int_equal(wa_signal_process_bundle(alice->sig, &bob->addr, &b,
	    &changed), 0);
	assert_false(changed);
	assert_int_equal(send_text(alice, bob, "hello bob", &ct),
	    WA_SIGNAL_PKMSG);
	changed = true;
	recv_text(bob, alice, WA_SIGNAL_PKMSG, &ct, "hello bob", &changed);
	assert_false(changed);
	assert_int_equal(send_text(bob, alice, "hi alice", &ct), WA_SIGNAL_MSG);
	recv_text(alice, bob, WA_SIGNAL_MSG, &ct, "hi alice", NULL);
	buf_release(&ct);
}

static void
test_wa_signal_addr_from_jid__maps_pn_lid_and_hosted__as_5_4_says(
    void **state)
{
	static const struct {
		const char	*jid, *name;
		uint32_t	 device;
	} ok[] = {
		{ "15551234567@s.whatsapp.net", "15551234567", 0 },
		{ "15551234567:0@s.whatsapp.net", "15551234567", 0 },
		{ "15551234567:3@s.whatsapp.net", "15551234567", 3 },
		{ "15551234567:33@c.us", "15551234567", 33 },
		{ "123456789012345@lid", "123456789012345_1", 0 },
		{ "123456789012345:7@lid", "123456789012345_1", 7 },
		{ "15551234567:99@hosted", "15551234567_128", 99 },
		{ "123456789012345:99@hosted.lid", "123456789012345_129", 99 },
		{ "1:255@lid", "1_1", 255 },
		{ "15551234567.0:2@s.whatsapp.net", "15551234567", 2 },
		{ "123456789012345.1:3@lid", "123456789012345_1", 3 },
	};
	struct wa_signal_addr	 a;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		memset(&a, 0xAA, sizeof(a));
		assert_int_equal(wa_signal_addr_from_jid(ok[i].jid,
		    strlen(ok[i].jid), &a), 0);
		assert_string_equal(a.name, ok[i].name);
		assert_int_equal(a.device, ok[i].device);
	}
}

static void
test_wa_signal_addr_from_jid__fails__on_groups_odd_servers_and_bad_parts(
    void **state)
{
	static const char *const bad[] = {
		"120363012345678901@g.us", "status@broadcast",
		"120363012345678901@newsletter", "867051314767696@bot",
		"123@msgr", "123@S.WHATSAPP.NET", "@s.whatsapp.net",
		"12a4@s.whatsapp.net", "+15551234567@s.whatsapp.net",
		"15551234567.:2@s.whatsapp.net", "15551234567.256@lid",
		"1.2.3@lid", ".1@lid", "123:@lid", "123:256@lid",
		"123:01@lid", "123:1000@lid", "123:3:4@lid", "123:x@lid",
		"15551234567", "15551234567@", "123@lid ", " 123@lid",
		"123@@lid", "123456789012345678901234567890123@lid",
	};
	struct wa_signal_addr	 a, before;
	size_t			 i;

	(void)state;
	memset(&a, 0x5A, sizeof(a));
	before = a;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(wa_signal_addr_from_jid(bad[i], strlen(bad[i]),
		    &a), WC_EINVAL);
		assert_memory_equal(&a, &before, sizeof(a));
	}
	/* The length bounds the text: no NUL is needed or read past. */
	assert_int_equal(wa_signal_addr_from_jid("5@lidX", 5, &a), 0);
	assert_string_equal(a.name, "5_1");
	assert_int_equal(wa_signal_addr_from_jid("5@lid", 0, &a), WC_EINVAL);
}

static void
test_wa_signal__first_message_is_pkmsg_and_consumes_the_prekey(void **state)
{
	struct party		 alice, bob;
	struct wa_signal_bundle	 b;
	struct store_prekey	 k;
	struct buf		 ct = BUF_INIT;
	uint8_t			 key[32];

	(void)state;
	party_new(&alice, "111111111111111:2@lid");
	party_new(&bob, "222222222222222@lid");
	assert_int_equal(wa_signal_has_session(alice.sig, &bob.addr), 0);
	bundle_of(&bob, 3, &b);
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    NULL), 0);
	assert_int_equal(wa_signal_has_session(alice.sig, &bob.addr), 1);
	assert_int_equal(wa_signal_remote_identity(alice.sig, &bob.addr, key),
	    1);
	assert_memory_equal(key, b.identity, 32);

	assert_int_equal(send_text(&alice, &bob, "one", &ct), WA_SIGNAL_PKMSG);
	/* Until Bob answers, every message carries the prekey header. */
	assert_int_equal(send_text(&alice, &bob, "two", &ct), WA_SIGNAL_PKMSG);
	assert_int_equal(store_prekey_count(bob.st), NPREKEYS);
	recv_text(&bob, &alice, WA_SIGNAL_PKMSG, &ct, "two", NULL);
	assert_int_equal(store_prekey_get(bob.st, 3, &k), 0);
	assert_int_equal(store_prekey_count(bob.st), NPREKEYS - 1);
	assert_int_equal(wa_signal_has_session(bob.sig, &alice.addr), 1);
	assert_int_equal(wa_signal_remote_identity(bob.sig, &alice.addr, key),
	    1);

	assert_int_equal(send_text(&bob, &alice, "three", &ct), WA_SIGNAL_MSG);
	recv_text(&alice, &bob, WA_SIGNAL_MSG, &ct, "three", NULL);
	assert_int_equal(send_text(&alice, &bob, "four", &ct), WA_SIGNAL_MSG);
	recv_text(&bob, &alice, WA_SIGNAL_MSG, &ct, "four", NULL);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal__bundle_without_a_prekey__still_makes_a_session(void **state)
{
	struct party	 alice, bob;

	(void)state;
	party_new(&alice, "15550000001@s.whatsapp.net");
	party_new(&bob, "15550000002:5@s.whatsapp.net");
	converse(&alice, &bob, 0);
	assert_int_equal(store_prekey_count(bob.st), NPREKEYS);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal__sessions_survive_closing_and_reopening_the_stores(
    void **state)
{
	struct party	 alice, bob;
	struct buf	 ct = BUF_INIT;

	(void)state;
	party_new(&alice, "111:1@lid");
	party_new(&bob, "222@lid");
	converse(&alice, &bob, 1);
	party_close(&alice);
	party_close(&bob);
	party_open(&alice);
	party_open(&bob);
	assert_int_equal(send_text(&alice, &bob, "after", &ct), WA_SIGNAL_MSG);
	recv_text(&bob, &alice, WA_SIGNAL_MSG, &ct, "after", NULL);
	assert_int_equal(send_text(&bob, &alice, "reply", &ct), WA_SIGNAL_MSG);
	/* Only committed state survives: the close must not lose it. */
	party_close(&bob);
	party_open(&bob);
	recv_text(&alice, &bob, WA_SIGNAL_MSG, &ct, "reply", NULL);
	assert_int_equal(send_text(&bob, &alice, "again", &ct), WA_SIGNAL_MSG);
	recv_text(&alice, &bob, WA_SIGNAL_MSG, &ct, "again", NULL);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal_decrypt__reports_a_duplicate__for_pkmsg_and_msg(void **state)
{
	struct party		 alice, bob;
	struct wa_signal_bundle	 b;
	struct buf		 ct = BUF_INIT, pt = BUF_INIT;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	bundle_of(&bob, 2, &b);
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    NULL), 0);
	assert_int_equal(send_text(&alice, &bob, "first", &ct),
	    WA_SIGNAL_PKMSG);
	recv_text(&bob, &alice, WA_SIGNAL_PKMSG, &ct, "first", NULL);
	/* The prekey is gone, but the session knows this base key. */
	assert_int_equal(wa_signal_decrypt(bob.sig, &alice.addr,
	    WA_SIGNAL_PKMSG, ct.p, ct.len, &pt, NULL), WC_EDUPMSG);
	assert_int_equal(pt.len, 0);

	assert_int_equal(send_text(&bob, &alice, "ack", &ct), WA_SIGNAL_MSG);
	recv_text(&alice, &bob, WA_SIGNAL_MSG, &ct, "ack", NULL);
	assert_int_equal(wa_signal_decrypt(alice.sig, &bob.addr, WA_SIGNAL_MSG,
	    ct.p, ct.len, &pt, NULL), WC_EDUPMSG);
	assert_int_equal(pt.len, 0);
	/* And the session goes on. */
	assert_int_equal(send_text(&bob, &alice, "more", &ct), WA_SIGNAL_MSG);
	recv_text(&alice, &bob, WA_SIGNAL_MSG, &ct, "more", NULL);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal_decrypt__fails_on_a_tampered_message__and_the_session_goes_on(
    void **state)
{
	struct party	 alice, bob;
	struct buf	 ct = BUF_INIT, pt = BUF_INIT, bad = BUF_INIT;
	size_t		 i;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	converse(&alice, &bob, 1);
	assert_int_equal(send_text(&alice, &bob, "genuine", &ct),
	    WA_SIGNAL_MSG);
	/* Each byte flipped in turn: version, protobuf, body, MAC. */
	for (i = 0; i < ct.len; i++) {
		bad.len = 0;
		buf_append(&bad, ct.p, ct.len);
		bad.p[i] ^= 0x01;
		assert_int_not_equal(wa_signal_decrypt(bob.sig, &alice.addr,
		    WA_SIGNAL_MSG, bad.p, bad.len, &pt, NULL), 0);
		assert_int_equal(pt.len, 0);
	}
	bad.len = 0;
	buf_append(&bad, ct.p, ct.len);
	bad.p[bad.len - 1] ^= 0x80;	/* in the MAC */
	assert_int_equal(wa_signal_decrypt(bob.sig, &alice.addr, WA_SIGNAL_MSG,
	    bad.p, bad.len, &pt, NULL), WC_EBADMSG);
	assert_int_equal(wa_signal_decrypt(bob.sig, &alice.addr, WA_SIGNAL_MSG,
	    ct.p, ct.len - 3, &pt, NULL), WC_EBADMSG);
	assert_int_equal(wa_signal_decrypt(bob.sig, &alice.addr,
	    WA_SIGNAL_PKMSG, ct.p, ct.len, &pt, NULL), WC_EBADMSG);
	recv_text(&bob, &alice, WA_SIGNAL_MSG, &ct, "genuine", NULL);
	assert_int_equal(send_text(&alice, &bob, "next", &ct), WA_SIGNAL_MSG);
	recv_text(&bob, &alice, WA_SIGNAL_MSG, &ct, "next", NULL);
	buf_release(&ct);
	buf_release(&bad);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal__new_identity_is_trusted_and_reported_as_a_change(
    void **state)
{
	struct party		 alice, bob;
	struct wa_signal_bundle	 b;
	struct buf		 ct = BUF_INIT;
	uint8_t			 key[32];
	int64_t			 changed_ms = -1;
	bool			 changed = false;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222:4@lid");
	converse(&alice, &bob, 1);
	assert_int_equal(store_signal_identity_load(alice.st, bob.addr.name,
	    bob.addr.device, key, &changed_ms), 1);
	assert_int_equal(changed_ms, 0);

	/* Bob re-registers: a new store, a new identity, same address. */
	party_free(&bob);
	party_new(&bob, "222:4@lid");
	alice.now_ms = CLOCK_MS + 5000;
	bundle_of(&bob, 2, &b);
	assert_memory_not_equal(key, b.identity, 32);
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    &changed), 0);
	assert_true(changed);
	assert_int_equal(wa_signal_remote_identity(alice.sig, &bob.addr, key),
	    1);
	assert_memory_equal(key, b.identity, 32);
	assert_int_equal(store_signal_identity_load(alice.st, bob.addr.name,
	    bob.addr.device, key, &changed_ms), 1);
	assert_int_equal(changed_ms, CLOCK_MS + 5000);
	/* The same bundle again is no change. */
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    &changed), 0);
	assert_false(changed);

	assert_int_equal(send_text(&alice, &bob, "new phone?", &ct),
	    WA_SIGNAL_PKMSG);
	recv_text(&bob, &alice, WA_SIGNAL_PKMSG, &ct, "new phone?", &changed);
	assert_false(changed);	/* Bob never knew Alice before */
	assert_int_equal(send_text(&bob, &alice, "yes", &ct), WA_SIGNAL_MSG);
	recv_text(&alice, &bob, WA_SIGNAL_MSG, &ct, "yes", NULL);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal_decrypt__reports_a_change__when_a_pkmsg_brings_a_new_identity(
    void **state)
{
	struct party		 alice, bob;
	struct wa_signal_bundle	 b;
	struct buf		 ct = BUF_INIT;
	bool			 changed = false;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	converse(&alice, &bob, 1);
	/* Alice re-registers and writes to Bob first. */
	party_free(&alice);
	party_new(&alice, "111@lid");
	bundle_of(&bob, 2, &b);
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    &changed), 0);
	assert_false(changed);
	assert_int_equal(send_text(&alice, &bob, "it's me", &ct),
	    WA_SIGNAL_PKMSG);
	recv_text(&bob, &alice, WA_SIGNAL_PKMSG, &ct, "it's me", &changed);
	assert_true(changed);
	assert_int_equal(send_text(&bob, &alice, "ok", &ct), WA_SIGNAL_MSG);
	recv_text(&alice, &bob, WA_SIGNAL_MSG, &ct, "ok", NULL);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal__without_a_session__encrypt_and_msg_fail_with_no_session(
    void **state)
{
	struct party		 alice, bob;
	struct buf		 ct = BUF_INIT, pt = BUF_INIT;
	enum wa_signal_type	 type = WA_SIGNAL_MSG;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	assert_int_equal(wa_signal_encrypt(alice.sig, &bob.addr,
	    (const uint8_t *)"x", 1, &type, &ct), WC_ENOSESSION);
	assert_int_equal(ct.len, 0);
	assert_int_equal(wa_signal_has_session(alice.sig, &bob.addr), 0);
	converse(&alice, &bob, 1);
	assert_int_equal(send_text(&alice, &bob, "to bob", &ct),
	    WA_SIGNAL_MSG);
	/* A third party without a session gets a msg it cannot read. */
	party_free(&bob);
	party_new(&bob, "222@lid");
	assert_int_equal(wa_signal_decrypt(bob.sig, &alice.addr, WA_SIGNAL_MSG,
	    ct.p, ct.len, &pt, NULL), WC_ENOSESSION);
	assert_int_equal(pt.len, 0);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal_decrypt__fails_with_no_key__when_the_prekey_was_used_by_another(
    void **state)
{
	struct party		 alice, bob, carol;
	struct wa_signal_bundle	 b;
	struct buf		 ct = BUF_INIT, ct2 = BUF_INIT, pt = BUF_INIT;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	party_new(&carol, "333@lid");
	bundle_of(&bob, 4, &b);	/* both fetched the same bundle */
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    NULL), 0);
	assert_int_equal(wa_signal_process_bundle(carol.sig, &bob.addr, &b,
	    NULL), 0);
	assert_int_equal(send_text(&alice, &bob, "from alice", &ct),
	    WA_SIGNAL_PKMSG);
	assert_int_equal(send_text(&carol, &bob, "from carol", &ct2),
	    WA_SIGNAL_PKMSG);
	recv_text(&bob, &alice, WA_SIGNAL_PKMSG, &ct, "from alice", NULL);
	assert_int_equal(wa_signal_decrypt(bob.sig, &carol.addr,
	    WA_SIGNAL_PKMSG, ct2.p, ct2.len, &pt, NULL), WC_ENOKEY);
	assert_int_equal(pt.len, 0);
	/* Nothing of the failed pkmsg was kept. */
	assert_int_equal(wa_signal_has_session(bob.sig, &carol.addr), 0);
	assert_int_equal(store_signal_identity_load(bob.st, carol.addr.name,
	    carol.addr.device, (uint8_t[32]){ 0 }, NULL), 0);
	buf_release(&ct);
	buf_release(&ct2);
	party_free(&alice);
	party_free(&bob);
	party_free(&carol);
}

static void
test_wa_signal_decrypt__fails_with_no_key__on_an_unknown_signed_prekey(
    void **state)
{
	struct party		 alice, bob;
	struct wa_signal_bundle	 b;
	struct buf		 ct = BUF_INIT, pt = BUF_INIT;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	bundle_of(&bob, 1, &b);
	b.spk_id = 2;	/* a rotated-away id: the signature still holds */
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    NULL), 0);
	assert_int_equal(send_text(&alice, &bob, "old key", &ct),
	    WA_SIGNAL_PKMSG);
	assert_int_equal(wa_signal_decrypt(bob.sig, &alice.addr,
	    WA_SIGNAL_PKMSG, ct.p, ct.len, &pt, NULL), WC_ENOKEY);
	assert_int_equal(store_prekey_count(bob.st), NPREKEYS);
	assert_int_equal(wa_signal_has_session(bob.sig, &alice.addr), 0);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

/* Outside bytes of any shape give an error, never a crash or a leak
 * (run under ASan), and leave the session as it was. */
static void
test_wa_signal_decrypt__fails_cleanly__on_random_and_truncated_input(
    void **state)
{
	struct party	 alice, bob;
	struct buf	 ct = BUF_INIT, pt = BUF_INIT;
	uint8_t		 junk[300];
	size_t		 i, len;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	converse(&alice, &bob, 1);
	assert_int_equal(send_text(&alice, &bob, "kept", &ct), WA_SIGNAL_MSG);
	for (i = 0; i < 400; i++) {
		len = 1 + randombytes_uniform(sizeof(junk));
		randombytes_buf(junk, len);
		if (i % 2 == 0)
			junk[0] = 0x33;	/* the current version byte */
		assert_true(wa_signal_decrypt(bob.sig, &alice.addr,
		    i % 4 < 2 ? WA_SIGNAL_MSG : WA_SIGNAL_PKMSG, junk, len,
		    &pt, NULL) < 0);
	}
	for (len = 1; len < ct.len; len++) {
		assert_true(wa_signal_decrypt(bob.sig, &alice.addr,
		    WA_SIGNAL_MSG, ct.p, len, &pt, NULL) < 0);
		assert_true(wa_signal_decrypt(bob.sig, &alice.addr,
		    WA_SIGNAL_PKMSG, ct.p, len, &pt, NULL) < 0);
	}
	assert_int_equal(pt.len, 0);
	recv_text(&bob, &alice, WA_SIGNAL_MSG, &ct, "kept", NULL);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal_process_bundle__fails__on_a_bad_signature_or_key(void **state)
{
	struct party		 alice, bob;
	struct wa_signal_bundle	 b;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	bundle_of(&bob, 1, &b);
	b.spk_sig[10] ^= 0x04;
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    NULL), WC_EBADKEY);
	bundle_of(&bob, 1, &b);
	b.spk_pub[0] ^= 0x01;	/* no longer the key that was signed */
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    NULL), WC_EBADKEY);
	bundle_of(&bob, 1, &b);
	b.prekey_id = WA_SIGNAL_PREKEY_ID_MAX + 1;
	assert_int_equal(wa_signal_process_bundle(alice.sig, &bob.addr, &b,
	    NULL), WC_EBADKEY);
	assert_int_equal(wa_signal_has_session(alice.sig, &bob.addr), 0);
	assert_int_equal(wa_signal_remote_identity(alice.sig, &bob.addr,
	    (uint8_t[32]){ 0 }), 0);
	party_free(&alice);
	party_free(&bob);
}

/* The caller's transaction wraps encrypt: rolled back, the session did not
 * advance, so the next message reuses the same message key. */
static void
test_wa_signal_encrypt__inside_a_rolled_back_transaction__leaves_no_trace(
    void **state)
{
	struct party	 alice, bob;
	struct buf	 lost = BUF_INIT, ct = BUF_INIT, pt = BUF_INIT;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	converse(&alice, &bob, 1);
	assert_int_equal(store_tx_begin(alice.st), 0);
	assert_int_equal(send_text(&alice, &bob, "lost", &lost),
	    WA_SIGNAL_MSG);
	assert_int_equal(store_tx_rollback(alice.st), 0);
	assert_int_equal(send_text(&alice, &bob, "kept", &ct), WA_SIGNAL_MSG);
	recv_text(&bob, &alice, WA_SIGNAL_MSG, &ct, "kept", NULL);
	/* Same counter as "kept": Bob takes it for a replay. */
	assert_int_equal(wa_signal_decrypt(bob.sig, &alice.addr, WA_SIGNAL_MSG,
	    lost.p, lost.len, &pt, NULL), WC_EDUPMSG);

	/* Committed, it survives a reopen. */
	assert_int_equal(store_tx_begin(alice.st), 0);
	assert_int_equal(send_text(&alice, &bob, "sent", &ct), WA_SIGNAL_MSG);
	assert_int_equal(store_tx_commit(alice.st), 0);
	party_close(&alice);
	party_open(&alice);
	recv_text(&bob, &alice, WA_SIGNAL_MSG, &ct, "sent", NULL);
	assert_int_equal(send_text(&alice, &bob, "then", &ct), WA_SIGNAL_MSG);
	recv_text(&bob, &alice, WA_SIGNAL_MSG, &ct, "then", NULL);
	buf_release(&lost);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal__refuses_bad_arguments(void **state)
{
	struct party		 alice;
	struct wa_signal_store_ops ops;
	struct wa_signal	*s = NULL;
	struct wa_signal_addr	 a;
	struct buf		 out = BUF_INIT;
	uint8_t			 big = 0;
	enum wa_signal_type	 type;

	(void)state;
	party_new(&alice, "111@lid");
	ops = alice.ops;
	ops.tx_begin = NULL;
	assert_int_equal(wa_signal_new(&ops, fake_now, &alice, &s), -EINVAL);
	assert_null(s);
	assert_int_equal(wa_signal_new(&alice.ops, NULL, NULL, &s), -EINVAL);
	memset(&a, 0, sizeof(a));
	assert_int_equal(wa_signal_has_session(alice.sig, &a), -EINVAL);
	snprintf(a.name, sizeof(a.name), "222_1");
	a.device = WA_SIGNAL_DEVICE_MAX + 1;
	assert_int_equal(wa_signal_has_session(alice.sig, &a), -EINVAL);
	a.device = 0;
	assert_int_equal(wa_signal_decrypt(alice.sig, &a,
	    (enum wa_signal_type)4, &big, 1, &out, NULL), -EINVAL);
	assert_int_equal(wa_signal_decrypt(alice.sig, &a, WA_SIGNAL_MSG, &big,
	    WA_SIGNAL_MAX_LEN + 1, &out, NULL), WC_ETOOBIG);
	assert_int_equal(wa_signal_encrypt(alice.sig, &a, &big,
	    WA_SIGNAL_MAX_LEN + 1, &type, &out), WC_ETOOBIG);
	assert_int_equal(out.len, 0);
	party_free(&alice);
}

static void
test_wc_strerror__names_the_signal_codes(void **state)
{
	static const int codes[] = { WC_EDUPMSG, WC_ENOSESSION, WC_EBADMSG,
	    WC_ENOKEY, WC_EBADKEY, WC_EUNTRUSTED, WC_ENOSENDERKEY };
	size_t	 i;

	(void)state;
	for (i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		assert_string_not_equal(wc_strerror(codes[i]), "unknown error");
		assert_string_not_equal(wc_strerror(codes[i]),
		    "libsignal error");
	}
	assert_int_equal(wa_signal_err(-1001), WC_EDUPMSG);	/* SG_ERR_ */
	assert_int_equal(wa_signal_err(-1008), WC_ENOSESSION);
	assert_int_equal(wa_signal_err(-1010), WC_EUNTRUSTED);
	assert_int_equal(wa_signal_err(-1100), WC_EBADMSG);
	assert_int_equal(wa_signal_err(WC_EBADKEY), WC_EBADKEY);
	assert_int_equal(wa_signal_err(-EIO), -EIO);
}

/* The schema of version 1, as released (store/db.c migration 1). */
static const char v1_schema[] =
	"CREATE TABLE device ("
	"  id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  noise_priv BLOB NOT NULL, noise_pub BLOB NOT NULL,"
	"  identity_priv BLOB NOT NULL, identity_pub BLOB NOT NULL,"
	"  registration_id INTEGER NOT NULL,"
	"  adv_secret BLOB NOT NULL,"
	"  spk_id INTEGER NOT NULL, spk_priv BLOB NOT NULL,"
	"  spk_pub BLOB NOT NULL, spk_sig BLOB NOT NULL,"
	"  jid TEXT NOT NULL DEFAULT '', lid TEXT NOT NULL DEFAULT '',"
	"  push_name TEXT NOT NULL DEFAULT '',"
	"  account_sig_key BLOB, adv_identity BLOB);"
	"CREATE TABLE prekey ("
	"  id INTEGER PRIMARY KEY CHECK (id BETWEEN 1 AND 16777215),"
	"  priv BLOB NOT NULL, pub BLOB NOT NULL,"
	"  uploaded INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
	"INSERT INTO counter VALUES ('next_prekey_id', 1);"
	"INSERT INTO prekey (id, priv, pub) VALUES (7, zeroblob(32),"
	"  zeroblob(32));"
	"PRAGMA user_version = 1;";

static void
test_store_open__brings_a_version_1_store_to_the_signal_tables(void **state)
{
	char			 tmpl[] = "/tmp/wachat-signal-XXXXXX", path[96];
	char			 cmd[128];
	sqlite3			*db;
	struct store		*st;
	struct store_prekey	 k;
	struct buf		 b = BUF_INIT;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	snprintf(path, sizeof(path), "%s/wachat.db", tmpl);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, v1_schema, NULL, NULL, NULL),
	    SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(chmod(path, 0600), 0);
	assert_int_equal(store_open(tmpl, &st), 0);
	assert_int_equal(store_schema_version(st), STORE_SCHEMA_VERSION);
	assert_int_equal(store_prekey_get(st, 7, &k), 1);
	assert_int_equal(store_signal_session_store(st, "7_1", 3,
	    (const uint8_t *)"rec", 3), 0);
	assert_int_equal(store_signal_session_load(st, "7_1", 3, &b), 1);
	assert_int_equal(b.len, 3);
	assert_memory_equal(b.p, "rec", 3);
	store_close(st);
	buf_release(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	assert_int_equal(system(cmd), 0);
}

static void
test_store_signal__nested_transactions_roll_back_only_their_level(
    void **state)
{
	struct store	*st;
	uint32_t	 dev[4];

	(void)state;
	assert_int_equal(store_open(NULL, &st), 0);
	assert_int_equal(store_tx_begin(st), 0);
	assert_int_equal(store_signal_session_store(st, "1", 1,
	    (const uint8_t *)"a", 1), 0);
	assert_int_equal(store_tx_begin(st), 0);
	assert_int_equal(store_signal_session_store(st, "1", 2,
	    (const uint8_t *)"b", 1), 0);
	assert_int_equal(store_tx_rollback(st), 0);
	assert_int_equal(store_tx_commit(st), 0);
	assert_int_equal(store_signal_session_contains(st, "1", 1), 1);
	assert_int_equal(store_signal_session_contains(st, "1", 2), 0);
	/* An outer rollback takes the committed inner level with it. */
	assert_int_equal(store_tx_begin(st), 0);
	assert_int_equal(store_tx_begin(st), 0);
	assert_int_equal(store_signal_session_store(st, "1", 3,
	    (const uint8_t *)"c", 1), 0);
	assert_int_equal(store_tx_commit(st), 0);
	assert_int_equal(store_tx_rollback(st), 0);
	assert_int_equal(store_signal_session_devices(st, "1", dev, 4), 1);
	assert_int_equal(dev[0], 1);
	store_close(st);
}

static void
test_store_signal__keeps_sessions_identities_and_sender_keys_by_address(
    void **state)
{
	struct store	*st;
	struct buf	 b = BUF_INIT;
	uint8_t		 k1[32], k2[32], got[32];
	uint32_t	 dev[2];
	int64_t		 changed = -1;
	char		 longname[STORE_SIGNAL_NAME_MAX + 2];

	(void)state;
	memset(k1, 1, sizeof(k1));
	memset(k2, 2, sizeof(k2));
	assert_int_equal(store_open(NULL, &st), 0);
	assert_int_equal(store_signal_session_store(st, "5_1", 0,
	    (const uint8_t *)"x", 1), 0);
	assert_int_equal(store_signal_session_store(st, "5_1", 9,
	    (const uint8_t *)"yy", 2), 0);
	assert_int_equal(store_signal_session_store(st, "5_1", 4,
	    (const uint8_t *)"z", 1), 0);
	assert_int_equal(store_signal_session_store(st, "5", 4,
	    (const uint8_t *)"pn", 2), 0);
	assert_int_equal(store_signal_session_devices(st, "5_1", dev, 2), 3);
	assert_int_equal(dev[0], 0);
	assert_int_equal(dev[1], 4);
	assert_int_equal(store_signal_session_delete(st, "5_1", 4), 1);
	assert_int_equal(store_signal_session_delete(st, "5_1", 4), 0);
	assert_int_equal(store_signal_session_delete_all(st, "5_1"), 2);
	assert_int_equal(store_signal_session_contains(st, "5", 4), 1);
	assert_int_equal(store_signal_session_load(st, "5_1", 9, &b), 0);

	assert_int_equal(store_signal_identity_save(st, "5_1", 0, k1, 100), 0);
	assert_int_equal(store_signal_identity_save(st, "5_1", 0, k1, 200), 0);
	assert_int_equal(store_signal_identity_load(st, "5_1", 0, got,
	    &changed), 1);
	assert_int_equal(changed, 0);
	assert_int_equal(store_signal_identity_save(st, "5_1", 0, k2, 300), 1);
	assert_int_equal(store_signal_identity_load(st, "5_1", 0, got,
	    &changed), 1);
	assert_memory_equal(got, k2, 32);
	assert_int_equal(changed, 300);
	assert_int_equal(store_signal_identity_load(st, "5_1", 1, got, NULL),
	    0);

	assert_int_equal(store_signal_sender_key_store(st, "1-2@g.us", "5_1",
	    3, (const uint8_t *)"sk", 2), 0);
	assert_int_equal(store_signal_sender_key_load(st, "1-2@g.us", "5_1", 3,
	    &b), 1);
	assert_memory_equal(b.p, "sk", 2);
	assert_int_equal(store_signal_sender_key_load(st, "3@g.us", "5_1", 3,
	    &b), 0);
	assert_int_equal(store_signal_sender_key_delete(st, "3@g.us", "5_1", 3),
	    0);
	assert_int_equal(store_signal_sender_key_delete(st, "1-2@g.us", "5_1",
	    3), 1);
	assert_int_equal(store_signal_sender_key_load(st, "1-2@g.us", "5_1", 3,
	    &b), 0);

	memset(longname, '7', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(store_signal_session_store(st, longname, 0,
	    (const uint8_t *)"x", 1), -EINVAL);
	assert_int_equal(store_signal_session_store(st, "5", 0, NULL, 0),
	    -EINVAL);
	buf_release(&b);
	store_close(st);
}

/* ---- groups: sender keys (protocol.md 10.2-10.4, 11.2) ---- */

#define GROUP		"120363000000000001@g.us"
#define OTHER_GROUP	"120363000000000002@g.us"

/* from's SKDM for group, as wa_signal_group_skdm() makes it. */
static void
skdm_of(struct party *from, const char *group, struct buf *skdm)
{
	skdm->len = 0;
	assert_int_equal(wa_signal_group_skdm(from->sig, group, &from->addr,
	    skdm), 0);
	assert_true(skdm->len > 1);
	assert_int_equal(skdm->p[0], 0x33);	/* version 3, 10.2 */
}

/* to processes the SKDM bytes from sent for group. */
static void
skdm_to(struct party *to, struct party *from, const char *group,
    const struct buf *skdm)
{
	assert_int_equal(wa_signal_group_process_skdm(to->sig, group,
	    &from->addr, skdm->p, skdm->len), 0);
}

/* from encrypts text for group; the skmsg in *ct. */
static void
group_send(struct party *from, const char *group, const char *text,
    struct buf *ct)
{
	ct->len = 0;
	assert_int_equal(wa_signal_group_encrypt(from->sig, group, &from->addr,
	    (const uint8_t *)text, strlen(text), ct), 0);
	assert_true(ct->len > strlen(text));
	assert_int_equal(ct->p[0], 0x33);
	assert_null(memmem(ct->p, ct->len, text, strlen(text)));
}

/* to decrypts from's skmsg ct in group and must read text. */
static void
group_recv(struct party *to, struct party *from, const char *group,
    const struct buf *ct, const char *text)
{
	struct buf	 pt = BUF_INIT;

	assert_int_equal(wa_signal_group_decrypt(to->sig, group, &from->addr,
	    ct->p, ct->len, &pt), 0);
	assert_int_equal(pt.len, strlen(text));
	assert_memory_equal(pt.p, text, pt.len);
	buf_release(&pt);
}

/* to cannot decrypt ct: the error, with nothing appended. */
static int
group_fail(struct party *to, struct party *from, const char *group,
    const struct buf *ct)
{
	struct buf	 pt = BUF_INIT;
	int		 rc;

	rc = wa_signal_group_decrypt(to->sig, group, &from->addr, ct->p,
	    ct->len, &pt);
	assert_int_equal(pt.len, 0);
	buf_release(&pt);
	return rc;
}

static void
test_wa_signal_group__skdm_lets_members_read_skmsgs__in_and_out_of_order(
    void **state)
{
	struct party	 alice, bob, carol, dave;
	struct buf	 skdm = BUF_INIT, again = BUF_INIT;
	struct buf	 m1 = BUF_INIT, m2 = BUF_INIT, m3 = BUF_INIT;
	struct buf	 m4 = BUF_INIT;

	(void)state;
	party_new(&alice, "111111111111111:3@lid");
	party_new(&bob, "222222222222222@lid");
	party_new(&carol, "15550000003:2@s.whatsapp.net");
	party_new(&dave, "444@lid");
	skdm_of(&alice, GROUP, &skdm);
	/* The bytes travel (pairwise, 10.2) and are processed on arrival. */
	skdm_to(&bob, &alice, GROUP, &skdm);
	skdm_to(&carol, &alice, GROUP, &skdm);
	skdm_to(&carol, &alice, GROUP, &skdm);	/* a second copy: harmless */

	group_send(&alice, GROUP, "one", &m1);
	group_send(&alice, GROUP, "two", &m2);
	group_send(&alice, GROUP, "three", &m3);
	assert_memory_not_equal(m1.p, m2.p, m1.len < m2.len ? m1.len :
	    m2.len);
	group_recv(&bob, &alice, GROUP, &m1, "one");
	group_recv(&bob, &alice, GROUP, &m2, "two");
	group_recv(&bob, &alice, GROUP, &m3, "three");
	/* Carol gets them late and out of order. */
	group_recv(&carol, &alice, GROUP, &m3, "three");
	group_recv(&carol, &alice, GROUP, &m1, "one");
	group_recv(&carol, &alice, GROUP, &m2, "two");
	assert_int_equal(group_fail(&carol, &alice, GROUP, &m2), WC_EDUPMSG);
	assert_int_equal(group_fail(&bob, &alice, GROUP, &m3), WC_EDUPMSG);

	/* The key stays; its SKDM now starts at the current iteration: a
	 * late joiner reads what comes next, not what came before. */
	skdm_of(&alice, GROUP, &again);
	assert_int_equal(again.len, skdm.len);
	assert_memory_not_equal(again.p, skdm.p, skdm.len);
	skdm_to(&dave, &alice, GROUP, &again);
	group_send(&alice, GROUP, "four", &m4);
	group_recv(&dave, &alice, GROUP, &m4, "four");
	group_recv(&bob, &alice, GROUP, &m4, "four");
	group_recv(&carol, &alice, GROUP, &m4, "four");
	assert_int_equal(group_fail(&dave, &alice, GROUP, &m1), WC_EDUPMSG);
	/* The key belongs to the group: the same sender elsewhere has none. */
	assert_int_equal(group_fail(&bob, &alice, OTHER_GROUP, &m4),
	    WC_ENOSENDERKEY);
	buf_release(&skdm);
	buf_release(&again);
	buf_release(&m1);
	buf_release(&m2);
	buf_release(&m3);
	buf_release(&m4);
	party_free(&alice);
	party_free(&bob);
	party_free(&carol);
	party_free(&dave);
}

static void
test_wa_signal_group__each_sender_has_its_own_key__and_both_work(
    void **state)
{
	struct party	 alice, bob, carol;
	struct buf	 ska = BUF_INIT, skb = BUF_INIT, ct = BUF_INIT;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222:1@lid");
	party_new(&carol, "333@lid");
	skdm_of(&alice, GROUP, &ska);
	skdm_to(&bob, &alice, GROUP, &ska);
	skdm_to(&carol, &alice, GROUP, &ska);
	group_send(&alice, GROUP, "hi all", &ct);
	group_recv(&bob, &alice, GROUP, &ct, "hi all");
	/* Bob's reply: his own key, made and sent the same way. */
	skdm_of(&bob, GROUP, &skb);
	assert_false(skb.len == ska.len &&
	    memcmp(skb.p, ska.p, ska.len) == 0);
	/* Before his SKDM arrives, Alice cannot read Bob. */
	group_send(&bob, GROUP, "early", &ct);
	assert_int_equal(group_fail(&alice, &bob, GROUP, &ct),
	    WC_ENOSENDERKEY);
	skdm_to(&alice, &bob, GROUP, &skb);
	skdm_to(&carol, &bob, GROUP, &skb);
	group_send(&bob, GROUP, "hello alice", &ct);
	group_recv(&alice, &bob, GROUP, &ct, "hello alice");
	group_recv(&carol, &bob, GROUP, &ct, "hello alice");
	/* An skmsg is bound to its sender: Bob's is not Alice's. */
	group_send(&bob, GROUP, "from bob", &ct);
	assert_int_not_equal(group_fail(&carol, &alice, GROUP, &ct), 0);
	group_recv(&carol, &bob, GROUP, &ct, "from bob");
	/* Alice's key goes on beside Bob's. */
	group_send(&alice, GROUP, "still me", &ct);
	group_recv(&bob, &alice, GROUP, &ct, "still me");
	group_recv(&carol, &alice, GROUP, &ct, "still me");
	buf_release(&ska);
	buf_release(&skb);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
	party_free(&carol);
}

static void
test_wa_signal_group__sender_keys_survive_closing_and_reopening_the_stores(
    void **state)
{
	struct party	 alice, bob;
	struct buf	 skdm = BUF_INIT, ct = BUF_INIT, ct2 = BUF_INIT;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	skdm_of(&alice, GROUP, &skdm);
	party_close(&alice);
	party_open(&alice);
	/* The key made before the close is the one the SKDM names. */
	skdm_to(&bob, &alice, GROUP, &skdm);
	party_close(&bob);
	party_open(&bob);
	group_send(&alice, GROUP, "after", &ct);
	party_close(&alice);
	party_open(&alice);
	group_send(&alice, GROUP, "later", &ct2);
	group_recv(&bob, &alice, GROUP, &ct2, "later");
	party_close(&bob);
	party_open(&bob);
	/* The skipped message's key was kept across the reopen. */
	group_recv(&bob, &alice, GROUP, &ct, "after");
	assert_int_equal(group_fail(&bob, &alice, GROUP, &ct2), WC_EDUPMSG);
	group_send(&alice, GROUP, "again", &ct);
	group_recv(&bob, &alice, GROUP, &ct, "again");
	buf_release(&skdm);
	buf_release(&ct);
	buf_release(&ct2);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal_group_decrypt__fails_on_a_tampered_skmsg__and_the_next_decrypts(
    void **state)
{
	struct party	 alice, bob;
	struct buf	 skdm = BUF_INIT, ct = BUF_INIT, bad = BUF_INIT;
	struct buf	 pt = BUF_INIT;
	uint8_t		 junk[200];
	size_t		 i, len;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	skdm_of(&alice, GROUP, &skdm);
	skdm_to(&bob, &alice, GROUP, &skdm);
	group_send(&alice, GROUP, "genuine", &ct);
	/* Each byte flipped in turn: version, protobuf, body, signature. */
	for (i = 0; i < ct.len; i++) {
		bad.len = 0;
		buf_append(&bad, ct.p, ct.len);
		bad.p[i] ^= 0x01;
		assert_true(group_fail(&bob, &alice, GROUP, &bad) < 0);
	}
	bad.len = 0;
	buf_append(&bad, ct.p, ct.len);
	bad.p[bad.len - 1] ^= 0x80;	/* in the signature */
	assert_int_equal(group_fail(&bob, &alice, GROUP, &bad), WC_EBADMSG);
	bad.len = ct.len - 70;		/* the signature cut off */
	assert_int_equal(group_fail(&bob, &alice, GROUP, &bad), WC_EBADMSG);
	for (i = 0; i < 200; i++) {
		len = 1 + randombytes_uniform(sizeof(junk));
		randombytes_buf(junk, len);
		if (i % 2 == 0)
			junk[0] = 0x33;
		assert_true(wa_signal_group_decrypt(bob.sig, GROUP, &alice.addr,
		    junk, len, &pt) < 0);
		assert_true(wa_signal_group_process_skdm(bob.sig, GROUP,
		    &alice.addr, junk, len) < 0);
	}
	for (len = 1; len < skdm.len; len++)
		assert_int_equal(wa_signal_group_process_skdm(bob.sig, GROUP,
		    &alice.addr, skdm.p, len), WC_EBADMSG);
	assert_int_equal(pt.len, 0);
	group_recv(&bob, &alice, GROUP, &ct, "genuine");
	group_send(&alice, GROUP, "next", &ct);
	group_recv(&bob, &alice, GROUP, &ct, "next");
	buf_release(&skdm);
	buf_release(&ct);
	buf_release(&bad);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal_group__without_an_skdm__fails_with_no_sender_key(void **state)
{
	struct party	 alice, bob;
	struct buf	 skdm = BUF_INIT, ct = BUF_INIT;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	/* No key of our own yet: the SKDM comes first. */
	assert_int_equal(wa_signal_group_encrypt(alice.sig, GROUP, &alice.addr,
	    (const uint8_t *)"x", 1, &ct), WC_ENOSENDERKEY);
	assert_int_equal(ct.len, 0);
	skdm_of(&alice, GROUP, &skdm);
	group_send(&alice, GROUP, "unseen", &ct);
	assert_int_equal(group_fail(&bob, &alice, GROUP, &ct),
	    WC_ENOSENDERKEY);
	/* The failure stored nothing; the SKDM then makes it readable. */
	assert_int_equal(store_signal_sender_key_load(bob.st, GROUP,
	    alice.addr.name, alice.addr.device, &skdm), 0);
	skdm.len = 0;
	skdm_of(&alice, GROUP, &skdm);
	skdm_to(&bob, &alice, GROUP, &skdm);
	group_send(&alice, GROUP, "seen", &ct);
	group_recv(&bob, &alice, GROUP, &ct, "seen");
	buf_release(&skdm);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
}

static void
test_wa_signal_group_forget__new_key_shuts_out_who_lacks_the_new_skdm(
    void **state)
{
	struct party	 alice, bob, carol;
	struct buf	 old = BUF_INIT, skdm = BUF_INIT, ct = BUF_INIT;

	(void)state;
	party_new(&alice, "111@lid");
	party_new(&bob, "222@lid");
	party_new(&carol, "333@lid");
	skdm_of(&alice, GROUP, &old);
	skdm_to(&bob, &alice, GROUP, &old);
	skdm_to(&carol, &alice, GROUP, &old);
	group_send(&alice, GROUP, "before", &ct);
	group_recv(&bob, &alice, GROUP, &ct, "before");
	group_recv(&carol, &alice, GROUP, &ct, "before");

	/* Carol leaves (10.4): Alice rotates and tells only Bob. */
	assert_int_equal(wa_signal_group_forget(alice.sig, GROUP, &alice.addr),
	    1);
	assert_int_equal(wa_signal_group_forget(alice.sig, GROUP, &alice.addr),
	    0);
	ct.len = 0;
	assert_int_equal(wa_signal_group_encrypt(alice.sig, GROUP, &alice.addr,
	    (const uint8_t *)"x", 1, &ct), WC_ENOSENDERKEY);
	skdm_of(&alice, GROUP, &skdm);
	assert_false(skdm.len == old.len &&
	    memcmp(skdm.p, old.p, old.len) == 0);
	skdm_to(&bob, &alice, GROUP, &skdm);
	group_send(&alice, GROUP, "after", &ct);
	group_recv(&bob, &alice, GROUP, &ct, "after");
	assert_int_equal(group_fail(&carol, &alice, GROUP, &ct),
	    WC_ENOSENDERKEY);
	group_send(&alice, GROUP, "more", &ct);
	assert_int_equal(group_fail(&carol, &alice, GROUP, &ct),
	    WC_ENOSENDERKEY);
	group_recv(&bob, &alice, GROUP, &ct, "more");
	/* Forgetting one group leaves the others alone. */
	skdm_of(&alice, OTHER_GROUP, &old);
	assert_int_equal(wa_signal_group_forget(alice.sig, GROUP, &alice.addr),
	    1);
	group_send(&alice, OTHER_GROUP, "other", &ct);
	buf_release(&old);
	buf_release(&skdm);
	buf_release(&ct);
	party_free(&alice);
	party_free(&bob);
	party_free(&carol);
}

static void
test_wa_signal_group__refuses_bad_arguments_and_missing_ops(void **state)
{
	struct party		 alice;
	struct wa_signal_store_ops ops;
	struct wa_signal	*s = NULL;
	struct wa_signal_addr	 a;
	struct buf		 out = BUF_INIT;
	char			 longgroup[WA_SIGNAL_NAME_MAX + 2];
	uint8_t			 b = 0x33;

	(void)state;
	party_new(&alice, "111@lid");
	memset(longgroup, '1', sizeof(longgroup) - 1);
	longgroup[sizeof(longgroup) - 1] = '\0';
	assert_int_equal(wa_signal_group_skdm(alice.sig, "", &alice.addr,
	    &out), -EINVAL);
	assert_int_equal(wa_signal_group_skdm(alice.sig, longgroup,
	    &alice.addr, &out), -EINVAL);
	assert_int_equal(wa_signal_group_skdm(alice.sig, NULL, &alice.addr,
	    &out), -EINVAL);
	memset(&a, 0, sizeof(a));
	assert_int_equal(wa_signal_group_skdm(alice.sig, GROUP, &a, &out),
	    -EINVAL);
	assert_int_equal(wa_signal_group_decrypt(alice.sig, GROUP,
	    &alice.addr, &b, 0, &out), WC_EBADMSG);
	assert_int_equal(wa_signal_group_decrypt(alice.sig, GROUP,
	    &alice.addr, &b, WA_SIGNAL_MAX_LEN + 1, &out), WC_ETOOBIG);
	assert_int_equal(wa_signal_group_encrypt(alice.sig, GROUP,
	    &alice.addr, &b, WA_SIGNAL_MAX_LEN + 1, &out), WC_ETOOBIG);
	assert_int_equal(wa_signal_group_process_skdm(alice.sig, GROUP,
	    &alice.addr, NULL, 1), -EINVAL);
	assert_int_equal(out.len, 0);

	/* sender_key_delete is optional; the others are needed here. */
	ops = alice.ops;
	ops.sender_key_delete = NULL;
	assert_int_equal(wa_signal_new(&ops, fake_now, &alice, &s), 0);
	assert_int_equal(wa_signal_group_skdm(s, GROUP, &alice.addr, &out), 0);
	assert_int_equal(wa_signal_group_forget(s, GROUP, &alice.addr),
	    -ENOTSUP);
	wa_signal_free(s);
	ops = alice.ops;
	ops.sender_key_load = NULL;
	assert_int_equal(wa_signal_new(&ops, fake_now, &alice, &s), 0);
	assert_int_equal(wa_signal_group_encrypt(s, GROUP, &alice.addr, &b, 1,
	    &out), -ENOTSUP);
	wa_signal_free(s);
	/* The SKDM made through the first context is alice's key. */
	assert_int_equal(wa_signal_group_forget(alice.sig, GROUP, &alice.addr),
	    1);
	buf_release(&out);
	party_free(&alice);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_signal_addr_from_jid__maps_pn_lid_and_hosted__as_5_4_says),
		cmocka_unit_test(test_wa_signal_addr_from_jid__fails__on_groups_odd_servers_and_bad_parts),
		cmocka_unit_test(test_wa_signal__first_message_is_pkmsg_and_consumes_the_prekey),
		cmocka_unit_test(test_wa_signal__bundle_without_a_prekey__still_makes_a_session),
		cmocka_unit_test(test_wa_signal__sessions_survive_closing_and_reopening_the_stores),
		cmocka_unit_test(test_wa_signal_decrypt__reports_a_duplicate__for_pkmsg_and_msg),
		cmocka_unit_test(test_wa_signal_decrypt__fails_on_a_tampered_message__and_the_session_goes_on),
		cmocka_unit_test(test_wa_signal__new_identity_is_trusted_and_reported_as_a_change),
		cmocka_unit_test(test_wa_signal_decrypt__reports_a_change__when_a_pkmsg_brings_a_new_identity),
		cmocka_unit_test(test_wa_signal__without_a_session__encrypt_and_msg_fail_with_no_session),
		cmocka_unit_test(test_wa_signal_decrypt__fails_with_no_key__when_the_prekey_was_used_by_another),
		cmocka_unit_test(test_wa_signal_decrypt__fails_with_no_key__on_an_unknown_signed_prekey),
		cmocka_unit_test(test_wa_signal_decrypt__fails_cleanly__on_random_and_truncated_input),
		cmocka_unit_test(test_wa_signal_process_bundle__fails__on_a_bad_signature_or_key),
		cmocka_unit_test(test_wa_signal_encrypt__inside_a_rolled_back_transaction__leaves_no_trace),
		cmocka_unit_test(test_wa_signal__refuses_bad_arguments),
		cmocka_unit_test(test_wc_strerror__names_the_signal_codes),
		cmocka_unit_test(test_wa_signal_group__skdm_lets_members_read_skmsgs__in_and_out_of_order),
		cmocka_unit_test(test_wa_signal_group__each_sender_has_its_own_key__and_both_work),
		cmocka_unit_test(test_wa_signal_group__sender_keys_survive_closing_and_reopening_the_stores),
		cmocka_unit_test(test_wa_signal_group_decrypt__fails_on_a_tampered_skmsg__and_the_next_decrypts),
		cmocka_unit_test(test_wa_signal_group__without_an_skdm__fails_with_no_sender_key),
		cmocka_unit_test(test_wa_signal_group_forget__new_key_shuts_out_who_lacks_the_new_skdm),
		cmocka_unit_test(test_wa_signal_group__refuses_bad_arguments_and_missing_ops),
		cmocka_unit_test(test_store_open__brings_a_version_1_store_to_the_signal_tables),
		cmocka_unit_test(test_store_signal__nested_transactions_roll_back_only_their_level),
		cmocka_unit_test(test_store_signal__keeps_sessions_identities_and_sender_keys_by_address),
	};

	if (wa_crypto_init() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
