/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-signal-arena.c -- the Signal layer on the per-call scope
 * allocator under libsignal (base/scope-alloc.h, whose own tests are
 * tests/test-base-scope-alloc.c): 1:1 and group round trips many times
 * with the right plaintext and no block escaping, and the number of calls
 * a steady encrypt still makes into glibc.  The parties keep their Signal
 * state in memory (serialized records in small tables, like a cache in
 * front of SQLite), so the counts are libsignal's and proto/signal*.c's
 * alone.  A sanitizer build (no scope allocator) runs another group: a
 * scope serves nothing there, and the round trips hold on the allocator
 * the sanitizer watches.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>
#include <sodium.h>

#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "base/scope-alloc.h"
#include "proto/wa-signal.h"

#define CLOCK_MS	1700000000000LL
#define NREC		8	/* records of each kind per party */
#define GROUP		"120363000000000001@g.us"

/*
 * glibc calls a steady encrypt or decrypt (msg on an acknowledged
 * session, 60-byte plaintext) may make with the arena on.  Measured: 1
 * each, the caller's output buffer (OpenSSL's AES contexts are kept by
 * proto/signal.c); without the arena 99 and 163 (perf.md 2.2 "lean").
 */
#define STEADY_ENCRYPT_MAX	2
#define STEADY_DECRYPT_MAX	2

/* ---- an in-memory store ---- */

struct rec {
	bool			 used;
	char			 group[WA_SIGNAL_NAME_MAX + 1];	/* "": 1:1 */
	struct wa_signal_addr	 a;
	struct buf		 b;
	uint8_t			 key[WA_SIGNAL_KEY_LEN];
};

struct party {
	struct wa_signal_own		 own;
	uint32_t			 prekey_id;	/* 0: used up */
	uint8_t				 prekey_priv[WA_SIGNAL_KEY_LEN];
	uint8_t				 prekey_pub[WA_SIGNAL_KEY_LEN];
	struct rec			 sessions[NREC], ids[NREC], sks[NREC];
	struct wa_signal_store_ops	 ops;
	struct wa_signal		*sig;
	struct wa_signal_addr		 addr;
};

static struct rec *
find(struct rec *t, const char *group, const struct wa_signal_addr *a,
    bool add)
{
	size_t	 i;

	for (i = 0; i < NREC; i++)
		if (t[i].used && t[i].a.device == a->device &&
		    strcmp(t[i].a.name, a->name) == 0 &&
		    strcmp(t[i].group, group) == 0)
			return &t[i];
	for (i = 0; add && i < NREC; i++)
		if (!t[i].used) {
			t[i].used = true;
			snprintf(t[i].group, sizeof(t[i].group), "%s", group);
			t[i].a = *a;
			t[i].b.len = 0;
			return &t[i];
		}
	return NULL;
}

static int
m_load(struct rec *t, const char *g, const struct wa_signal_addr *a,
    struct buf *out)
{
	struct rec	*r = find(t, g, a, false);

	if (r == NULL)
		return 0;
	buf_append(out, r->b.p, r->b.len);
	return 1;
}

static int
m_store(struct rec *t, const char *g, const struct wa_signal_addr *a,
    const uint8_t *p, size_t len)
{
	struct rec	*r = find(t, g, a, true);

	if (r == NULL)
		return -ENOSPC;
	r->b.len = 0;
	buf_append(&r->b, p, len);
	return 0;
}

static int
s_load(void *arg, const struct wa_signal_addr *a, struct buf *out)
{
	return m_load(((struct party *)arg)->sessions, "", a, out);
}

static int
s_store(void *arg, const struct wa_signal_addr *a, const uint8_t *p,
    size_t len)
{
	return m_store(((struct party *)arg)->sessions, "", a, p, len);
}

static int
s_contains(void *arg, const struct wa_signal_addr *a)
{
	return find(((struct party *)arg)->sessions, "", a, false) != NULL;
}

static int
s_delete(void *arg, const struct wa_signal_addr *a)
{
	struct rec	*r = find(((struct party *)arg)->sessions, "", a, false);

	if (r == NULL)
		return 0;
	r->used = false;
	return 1;
}

static int
own_load(void *arg, struct wa_signal_own *out)
{
	*out = ((struct party *)arg)->own;
	return 1;
}

static int
pk_load(void *arg, uint32_t id, uint8_t priv[WA_SIGNAL_KEY_LEN],
    uint8_t pub[WA_SIGNAL_KEY_LEN])
{
	struct party	*p = arg;

	if (p->prekey_id == 0 || id != p->prekey_id)
		return 0;
	memcpy(priv, p->prekey_priv, WA_SIGNAL_KEY_LEN);
	memcpy(pub, p->prekey_pub, WA_SIGNAL_KEY_LEN);
	return 1;
}

static int
pk_remove(void *arg, uint32_t id)
{
	struct party	*p = arg;

	if (id == p->prekey_id)
		p->prekey_id = 0;
	return 0;
}

static int
id_save(void *arg, const struct wa_signal_addr *a,
    const uint8_t key[WA_SIGNAL_KEY_LEN], int64_t now_ms)
{
	struct party	*p = arg;
	struct rec	*r = find(p->ids, "", a, false);
	int		 changed = 0;

	(void)now_ms;
	if (r != NULL)
		changed = memcmp(r->key, key, WA_SIGNAL_KEY_LEN) != 0;
	else if ((r = find(p->ids, "", a, true)) == NULL)
		return -ENOSPC;
	memcpy(r->key, key, WA_SIGNAL_KEY_LEN);
	return changed;
}

static int
id_load(void *arg, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	struct rec	*r = find(((struct party *)arg)->ids, "", a, false);

	if (r == NULL)
		return 0;
	memcpy(key, r->key, WA_SIGNAL_KEY_LEN);
	return 1;
}

static int
sk_load(void *arg, const char *g, const struct wa_signal_addr *a,
    struct buf *out)
{
	return m_load(((struct party *)arg)->sks, g, a, out);
}

static int
sk_store(void *arg, const char *g, const struct wa_signal_addr *a,
    const uint8_t *p, size_t len)
{
	return m_store(((struct party *)arg)->sks, g, a, p, len);
}

static int
tx(void *arg)
{
	(void)arg;
	return 0;
}

static int64_t
fixed_now(void *arg)
{
	(void)arg;
	return CLOCK_MS;
}

static struct party *
party_new(const char *jid)
{
	struct party	*p = calloc(1, sizeof(*p));
	uint8_t		 msg[33], rnd[WA_CRYPTO_SIG_RANDOM_LEN];

	assert_non_null(p);
	assert_int_equal(wa_signal_addr_from_jid(jid, strlen(jid), &p->addr),
	    0);
	randombytes_buf(p->own.identity_priv, 32);
	wa_crypto_x25519_base(p->own.identity_priv, p->own.identity_pub);
	p->own.registration_id = 1 + randombytes_uniform(16380);
	p->own.spk_id = 1;
	randombytes_buf(p->own.spk_priv, 32);
	wa_crypto_x25519_base(p->own.spk_priv, p->own.spk_pub);
	msg[0] = 0x05;
	memcpy(msg + 1, p->own.spk_pub, 32);
	randombytes_buf(rnd, sizeof(rnd));
	assert_int_equal(wa_crypto_xeddsa_sign(p->own.identity_priv, msg,
	    sizeof(msg), rnd, p->own.spk_sig), 0);
	p->prekey_id = 5;
	randombytes_buf(p->prekey_priv, 32);
	wa_crypto_x25519_base(p->prekey_priv, p->prekey_pub);
	p->ops.session_load = s_load;
	p->ops.session_store = s_store;
	p->ops.session_contains = s_contains;
	p->ops.session_delete = s_delete;
	p->ops.own_load = own_load;
	p->ops.prekey_load = pk_load;
	p->ops.prekey_remove = pk_remove;
	p->ops.identity_save = id_save;
	p->ops.identity_load = id_load;
	p->ops.sender_key_load = sk_load;
	p->ops.sender_key_store = sk_store;
	p->ops.tx_begin = tx;
	p->ops.tx_commit = tx;
	p->ops.tx_rollback = tx;
	p->ops.arg = p;
	assert_int_equal(wa_signal_new(&p->ops, fixed_now, NULL, &p->sig), 0);
	return p;
}

static void
party_free(struct party *p)
{
	size_t	 i;

	wa_signal_free(p->sig);
	for (i = 0; i < NREC; i++) {
		buf_release(&p->sessions[i].b);
		buf_release(&p->ids[i].b);
		buf_release(&p->sks[i].b);
	}
	free(p);
}

static void
send_recv(struct party *from, struct party *to, const char *text,
    enum wa_signal_type want)
{
	struct buf		 ct = BUF_INIT, pt = BUF_INIT;
	enum wa_signal_type	 t;

	assert_int_equal(wa_signal_encrypt(from->sig, &to->addr,
	    (const uint8_t *)text, strlen(text), &t, &ct), 0);
	assert_int_equal(t, want);
	assert_false(scope_alloc_owns(ct.p));
	assert_int_equal(wa_signal_decrypt(to->sig, &from->addr, t, ct.p,
	    ct.len, &pt, NULL), 0);
	assert_false(scope_alloc_owns(pt.p));
	assert_int_equal(pt.len, strlen(text));
	assert_memory_equal(pt.p, text, pt.len);
	buf_release(&ct);
	buf_release(&pt);
}

/* alice builds a session from bob's bundle; pkmsg, then bob's reply. */
static void
converse(struct party *alice, struct party *bob)
{
	struct wa_signal_bundle	 b;

	memset(&b, 0, sizeof(b));
	b.registration_id = bob->own.registration_id;
	memcpy(b.identity, bob->own.identity_pub, 32);
	b.spk_id = bob->own.spk_id;
	memcpy(b.spk_pub, bob->own.spk_pub, 32);
	memcpy(b.spk_sig, bob->own.spk_sig, 64);
	b.has_prekey = true;
	b.prekey_id = bob->prekey_id;
	memcpy(b.prekey_pub, bob->prekey_pub, 32);
	assert_int_equal(wa_signal_process_bundle(alice->sig, &bob->addr, &b,
	    NULL), 0);
	send_recv(alice, bob, "hello bob", WA_SIGNAL_PKMSG);
	send_recv(bob, alice, "hi alice", WA_SIGNAL_MSG);
}

/* The arena serves blocks in this build and run (main() runs these
 * tests only in a build with the arena; WACHAT_SIGNAL_ARENA=0 fails
 * them). */
static void
need_arena(void)
{
	bool	 on;

	assert_true(scope_alloc_built());
	on = scope_alloc_enter();
	assert_int_equal(scope_alloc_leave(), 0);
	assert_true(on);
}

/* A build without the arena (a sanitizer's): a scope serves nothing,
 * every block comes from the allocator the sanitizer watches. */
static void
test_signal_arena__off_in_this_build__every_block_from_the_allocator(
    void **state)
{
	char	*p;

	(void)state;
	assert_false(scope_alloc_built());
	assert_false(scope_alloc_enter());
	p = malloc(64);
	assert_non_null(p);
	memset(p, 0x5a, 64);
	assert_int_equal(scope_alloc_leave(), 0);
	/* still ours after the scope: it was never the arena's */
	assert_int_equal((unsigned char)p[63], 0x5a);
	free(p);
}

/* ---- counting calls into glibc (the arena's hooks) ---- */

static bool		 counting;
static unsigned long	 glibc_allocs;

static void
on_alloc(size_t len)
{
	(void)len;
	if (counting)
		glibc_allocs++;
}

static void
on_free(void)
{
}

/* ---- the Signal layer on it ---- */

static void
test_signal_arena__dm_round_trips__give_the_plaintext__and_nothing_escapes(
    void **state)
{
	struct scope_alloc_stats	 before, after;
	struct party			*a, *b;
	char				 text[80];
	int				 i;

	(void)state;
	scope_alloc_stats(&before);
	a = party_new("15550000001@s.whatsapp.net");
	b = party_new("15550000002@s.whatsapp.net");
	converse(a, b);
	for (i = 0; i < 300; i++) {
		snprintf(text, sizeof(text), "message %d from %s", i,
		    i % 3 == 2 ? "bob" : "alice");
		/* mostly steady chains, a ratchet step every third */
		if (i % 3 == 2)
			send_recv(b, a, text, WA_SIGNAL_MSG);
		else
			send_recv(a, b, text, WA_SIGNAL_MSG);
	}
	party_free(a);
	party_free(b);
	scope_alloc_stats(&after);
	assert_int_equal(after.retired, before.retired);
	if (scope_alloc_built() && after.scopes > before.scopes) {
		assert_true(after.scopes >= before.scopes + 600);
		assert_true(after.blocks > before.blocks + 600 * 50);
	}
}

static void
test_signal_arena__group_round_trips__give_the_plaintext(void **state)
{
	struct scope_alloc_stats	 before, after;
	struct party			*a, *b;
	struct buf			 skdm = BUF_INIT, ct = BUF_INIT;
	struct buf			 pt = BUF_INIT;
	char				 text[80];
	int				 i;

	(void)state;
	scope_alloc_stats(&before);
	a = party_new("15550000001@s.whatsapp.net");
	b = party_new("15550000002@s.whatsapp.net");
	assert_int_equal(wa_signal_group_skdm(a->sig, GROUP, &a->addr, &skdm),
	    0);
	assert_false(scope_alloc_owns(skdm.p));
	assert_int_equal(wa_signal_group_process_skdm(b->sig, GROUP, &a->addr,
	    skdm.p, skdm.len), 0);
	for (i = 0; i < 100; i++) {
		snprintf(text, sizeof(text), "group message %d", i);
		ct.len = pt.len = 0;
		assert_int_equal(wa_signal_group_encrypt(a->sig, GROUP,
		    &a->addr, (const uint8_t *)text, strlen(text), &ct), 0);
		assert_int_equal(wa_signal_group_decrypt(b->sig, GROUP,
		    &a->addr, ct.p, ct.len, &pt), 0);
		assert_int_equal(pt.len, strlen(text));
		assert_memory_equal(pt.p, text, pt.len);
	}
	/* a tampered skmsg fails and leaves nothing behind */
	ct.p[ct.len - 1] ^= 1;
	pt.len = 0;
	assert_int_not_equal(wa_signal_group_decrypt(b->sig, GROUP, &a->addr,
	    ct.p, ct.len, &pt), 0);
	buf_release(&skdm);
	buf_release(&ct);
	buf_release(&pt);
	party_free(a);
	party_free(b);
	scope_alloc_stats(&after);
	assert_int_equal(after.retired, before.retired);
}

static void
test_signal_arena__steady_encrypt_and_decrypt__make_few_glibc_calls(
    void **state)
{
	struct party	*a, *b;
	struct buf	 ct = BUF_INIT, pt = BUF_INIT;
	enum wa_signal_type t;
	unsigned long	 enc, dec;
	int		 i;

	(void)state;
	need_arena();
	scope_alloc_set_count_hooks(on_alloc, on_free);
	a = party_new("15550000001@s.whatsapp.net");
	b = party_new("15550000002@s.whatsapp.net");
	converse(a, b);
	for (i = 0; i < 5; i++) {	/* warm: buffers, OpenSSL's caches */
		ct.len = pt.len = 0;
		assert_int_equal(wa_signal_encrypt(a->sig, &b->addr,
		    (const uint8_t *)"warm", 4, &t, &ct), 0);
		assert_int_equal(wa_signal_decrypt(b->sig, &a->addr, t, ct.p,
		    ct.len, &pt, NULL), 0);
	}
	buf_release(&ct);
	buf_release(&pt);
	glibc_allocs = 0;
	counting = true;
	assert_int_equal(wa_signal_encrypt(a->sig, &b->addr, (const uint8_t *)
	    "sixty bytes of text, about what a short chat line would be!",
	    60, &t, &ct), 0);
	counting = false;
	enc = glibc_allocs;
	glibc_allocs = 0;
	counting = true;
	assert_int_equal(wa_signal_decrypt(b->sig, &a->addr, t, ct.p, ct.len,
	    &pt, NULL), 0);
	counting = false;
	dec = glibc_allocs;
	scope_alloc_set_count_hooks(NULL, NULL);
	print_message("glibc allocations: steady encrypt %lu, decrypt %lu\n",
	    enc, dec);
	assert_int_equal(pt.len, 60);
	assert_true(enc >= 1);	/* the output buffer, at least: counted */
	assert_true(enc <= STEADY_ENCRYPT_MAX);
	assert_true(dec <= STEADY_DECRYPT_MAX);
	buf_release(&ct);
	buf_release(&pt);
	party_free(a);
	party_free(b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signal_arena__dm_round_trips__give_the_plaintext__and_nothing_escapes),
		cmocka_unit_test(test_signal_arena__group_round_trips__give_the_plaintext),
		cmocka_unit_test(test_signal_arena__steady_encrypt_and_decrypt__make_few_glibc_calls),
	};
	/* sanitizer builds have no arena: what they check is that the
	 * round trips hold on the allocator they watch */
	const struct CMUnitTest off[] = {
		cmocka_unit_test(test_signal_arena__off_in_this_build__every_block_from_the_allocator),
		cmocka_unit_test(test_signal_arena__dm_round_trips__give_the_plaintext__and_nothing_escapes),
		cmocka_unit_test(test_signal_arena__group_round_trips__give_the_plaintext),
	};

	if (wa_crypto_init() != 0)
		return 1;
	if (!scope_alloc_built())
		return cmocka_run_group_tests(off, NULL, NULL);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
