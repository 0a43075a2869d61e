/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-group.c -- the group send benches of perf.md 3.1 at
 * the Signal layer (S3 group_send_warm_{10,50,256}, S5 skdm_send_256),
 * built from proto/signal.c and proto/group.h as they stand, with the
 * JSON lines of perf.md 3.0 (the schema of tests/bench/bench-dm.c):
 *
 *   bench-group [--only NAME] [--iters N] [--samples S]
 *
 * The sender ("me", 15550000001 device 0) keeps its Signal state in
 * memory (serialized records in hash tables, as whatsapp-rust's benches
 * run on its InMemoryBackend); no SQLite, no socket.
 *
 * group_send_warm_N (S3, whatsapp-rust's bench_group_send_N and
 * prepare_group_stanza scope, no SKDM): build the text Message
 * (wa_msg_build_text), pad it (wa_msg_pad), encrypt it as an skmsg
 * (wa_signal_group_encrypt: the sender-key chain step, AES-CBC, the
 * XEdDSA signature, the record written through the ops), build <message
 * phash addressing_mode><enc type="skmsg"> in a fresh 1 KB arena
 * (wa_group_stanza; the node tree fits in it) with the phash of the N member devices plus mine
 * computed once before the timed region (the memo), and marshal it
 * (wa_bin_encode) into a fresh buffer.  N enters only through the
 * memoised phash, so the line must be the same at 10, 50 and 256.
 *
 * group_recv (R3, whatsapp-rust's bench_group_recv scope): one of my
 * skmsgs read by a member that holds my sender key (processed from my
 * SKDM in the setup; its Signal state in memory too):
 * wa_signal_group_decrypt (the chain step, the XEdDSA verification, AES),
 * unpad, the Message parsed and checked.  The skmsgs are made before
 * each run, outside the timed region.
 *
 * skdm_send_256 (S5, bench_group_send_skdm_256): the first message to a
 * group of 256 devices, each with a session made from its prekey bundle
 * (wa_signal_process_bundle) and never answered, so every copy is a
 * pkmsg: the SKDM-only Message (wa_group_message_skdm over the SKDM
 * wa_signal_group_skdm made in the setup), padded, encrypted pairwise
 * 256 times (wa_signal_encrypt), the text as an skmsg as above, the
 * stanza with <participants> (256 <to><enc type="pkmsg">) and
 * <device-identity> in a fresh 64 KB arena, marshalled.
 *
 * allocs/bytes count one warm operation across the process; allocations
 * served by the arena under libsignal (base/scope-alloc.h) never reach
 * glibc and are not counted (perf.md 4.1); openssl_allocs is the part
 * made through OpenSSL; "signal_arena" says whether the arena was on.
 * Each operation is a function of its own
 * (bench_group_*_op) for callgrind's --toggle-collect
 * (tests/bench/run-group.sh).  Single-threaded.
 */
#include "base/compat.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/crypto.h>
#include <sodium.h>

#include "alloc-count.h"
#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/group.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "base/scope-alloc.h"
#include "proto/wa-signal.h"
#include "base/xmalloc.h"

#if defined(__GNUC__) && !defined(__clang__)
#define BENCH_OP	__attribute__((noipa))
#else
#define BENCH_OP	__attribute__((noinline))
#endif

#define SAMPLE_NS	10000000.0	/* aim for 10 ms per sample */
#define CLOCK_MS	1764480000000LL
#define ME_JID		"15550000001@s.whatsapp.net"
#define GROUP_JID	"120363000000000001@g.us"
#define TEXT		"Hello! Are we still on for lunch tomorrow at 12:30?"
#define MAX_DEVS	256
#define TABLE		1024	/* hash table slots, > 2 * MAX_DEVS */

static void
die(const char *what, const char *detail)
{
	fprintf(stderr, "bench-group: %s%s%s\n", what,
	    detail != NULL ? ": " : "", detail != NULL ? detail : "");
	exit(1);
}

static void
check(int rc, const char *what)
{
	if (rc != 0)
		die(what, wc_strerror(rc));
}

/* ---- OpenSSL's share of the count (as in bench-dm.c) ---- */

static bool		 counting;
static uint64_t		 ossl_calls;

static void *
ossl_malloc(size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	if (counting)
		ossl_calls++;
	return malloc(n);
}

static void *
ossl_realloc(void *p, size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	if (counting)
		ossl_calls++;
	return realloc(p, n);
}

static void
ossl_free(void *p, const char *file, int line)
{
	(void)file;
	(void)line;
	free(p);
}

/* ---- the sender's in-memory store: records in open-addressed tables ---- */

struct rec {
	bool			 used;
	struct wa_signal_addr	 a;
	struct buf		 b;	/* record; capacity kept */
	uint8_t			 key[WA_SIGNAL_KEY_LEN];
};

struct mem_store {
	struct wa_signal_own	 own;
	struct rec		 sessions[TABLE];
	struct rec		 identities[TABLE];
	struct rec		 sender_key;	/* mine, in the one group */
};

static struct rec *
mem_find(struct rec *t, const struct wa_signal_addr *a, bool add)
{
	uint32_t	 h = 2166136261u;
	const char	*p;
	size_t		 i, k;

	for (p = a->name; *p != '\0'; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	h = (h ^ a->device) * 16777619u;
	for (k = 0; k < TABLE; k++) {
		i = (h + k) % TABLE;
		if (!t[i].used) {
			if (!add)
				return NULL;
			t[i].used = true;
			t[i].a = *a;
			t[i].b.len = 0;
			return &t[i];
		}
		if (t[i].a.device == a->device &&
		    strcmp(t[i].a.name, a->name) == 0)
			return &t[i];
	}
	return NULL;
}

static int
mem_session_load(void *arg, const struct wa_signal_addr *a, struct buf *out)
{
	struct mem_store	*m = arg;
	struct rec		*r = mem_find(m->sessions, a, false);

	if (r == NULL)
		return 0;
	buf_append(out, r->b.p, r->b.len);
	return 1;
}

static int
mem_session_store(void *arg, const struct wa_signal_addr *a,
    const uint8_t *rec, size_t len)
{
	struct mem_store	*m = arg;
	struct rec		*r = mem_find(m->sessions, a, true);

	if (r == NULL)
		return -ENOSPC;
	r->b.len = 0;
	buf_append(&r->b, rec, len);
	return 0;
}

static int
mem_session_contains(void *arg, const struct wa_signal_addr *a)
{
	return mem_find(((struct mem_store *)arg)->sessions, a, false) != NULL;
}

static int
mem_session_delete(void *arg, const struct wa_signal_addr *a)
{
	(void)arg;
	(void)a;
	return -ENOTSUP;	/* not in these benches */
}

static int
mem_own_load(void *arg, struct wa_signal_own *out)
{
	*out = ((struct mem_store *)arg)->own;
	return 1;
}

static int
mem_prekey_load(void *arg, uint32_t id, uint8_t priv[WA_SIGNAL_KEY_LEN],
    uint8_t pub[WA_SIGNAL_KEY_LEN])
{
	(void)arg;
	(void)id;
	(void)priv;
	(void)pub;
	return 0;	/* the sender never receives a pkmsg here */
}

static int
mem_prekey_remove(void *arg, uint32_t id)
{
	(void)arg;
	(void)id;
	return 0;
}

static int
mem_identity_save(void *arg, const struct wa_signal_addr *a,
    const uint8_t key[WA_SIGNAL_KEY_LEN], int64_t now_ms)
{
	struct mem_store	*m = arg;
	struct rec		*r = mem_find(m->identities, a, false);
	int			 changed = 0;

	(void)now_ms;
	if (r != NULL)
		changed = memcmp(r->key, key, WA_SIGNAL_KEY_LEN) != 0;
	else if ((r = mem_find(m->identities, a, true)) == NULL)
		return -ENOSPC;
	memcpy(r->key, key, WA_SIGNAL_KEY_LEN);
	return changed;
}

static int
mem_identity_load(void *arg, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	struct rec	*r = mem_find(((struct mem_store *)arg)->identities, a,
	    false);

	if (r == NULL)
		return 0;
	memcpy(key, r->key, WA_SIGNAL_KEY_LEN);
	return 1;
}

static int
mem_sk_load(void *arg, const char *group, const struct wa_signal_addr *a,
    struct buf *out)
{
	struct mem_store	*m = arg;

	(void)group;
	(void)a;	/* only mine is kept */
	if (!m->sender_key.used)
		return 0;
	buf_append(out, m->sender_key.b.p, m->sender_key.b.len);
	return 1;
}

static int
mem_sk_store(void *arg, const char *group, const struct wa_signal_addr *a,
    const uint8_t *rec, size_t len)
{
	struct mem_store	*m = arg;

	(void)group;
	(void)a;
	m->sender_key.used = true;
	m->sender_key.b.len = 0;
	buf_append(&m->sender_key.b, rec, len);
	return 0;
}

static int
mem_tx(void *arg)
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

/* Deterministic key material (perf.md 3.0: fixed seeds). */
static void
seeded(uint32_t seed, uint8_t *out, size_t len)
{
	uint8_t	 key[randombytes_SEEDBYTES];
	size_t	 i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(seed * 31 + i + (seed >> 8));
	randombytes_buf_deterministic(out, len, key);
}

/* ---- the setup ---- */

struct group_ctx {
	struct mem_store		*m;
	struct wa_signal_store_ops	 ops;
	struct wa_signal		*sig;
	struct wa_signal_addr		 me;
	char				 jids[MAX_DEVS][40];
	struct wa_signal_addr		 addrs[MAX_DEVS];
	size_t				 n;
	char				 phash[WA_GROUP_PHASH_LEN + 1];
	struct buf			 skdm;	/* my SKDM, serialized */
	uint8_t				 adv[200]; /* stand-in
					 * ADVSignedDeviceIdentity */
	size_t				 wire_len;
	/* group_recv: a member holding my sender key, and my skmsgs to it */
	struct mem_store		*rm;
	struct wa_signal_store_ops	 rops;
	struct wa_signal		*rsig;
	struct buf			*in;
	size_t				 nin, next;
};

/* Device i of the group: 64 users of 4 devices each (main device first). */
static void
member_jid(size_t i, char *out, size_t len)
{
	if (i % 4 == 0)
		snprintf(out, len, "1555100%04zu@s.whatsapp.net", i / 4);
	else
		snprintf(out, len, "1555100%04zu:%zu@s.whatsapp.net", i / 4,
		    i % 4);
}

/* A session to device i from its bundle (seeded keys), never answered. */
static void
member_session(struct group_ctx *c, size_t i)
{
	struct wa_signal_bundle	 b;
	uint8_t			 k[3 * 32], msg[33];
	uint8_t			 rnd[WA_CRYPTO_SIG_RANDOM_LEN];

	seeded((uint32_t)(1000 + i), k, sizeof(k));
	memset(&b, 0, sizeof(b));
	b.registration_id = 100 + (uint32_t)i;
	wa_crypto_x25519_base(k, b.identity);
	b.spk_id = 1;
	wa_crypto_x25519_base(k + 32, b.spk_pub);
	msg[0] = 0x05;
	memcpy(msg + 1, b.spk_pub, 32);
	seeded((uint32_t)(5000 + i), rnd, sizeof(rnd));
	check(wa_crypto_xeddsa_sign(k, msg, sizeof(msg), rnd, b.spk_sig),
	    "xeddsa sign");
	b.has_prekey = true;
	b.prekey_id = 7;
	wa_crypto_x25519_base(k + 64, b.prekey_pub);
	check(wa_signal_process_bundle(c->sig, &c->addrs[i], &b, NULL),
	    "process_bundle");
	wa_crypto_wipe(k, sizeof(k));
}

static void
ctx_new(struct group_ctx *c, size_t n, bool sessions)
{
	const char	*devs[MAX_DEVS + 1];
	uint8_t		 keys[2 * 32], msg[33], rnd[WA_CRYPTO_SIG_RANDOM_LEN];
	size_t		 i;

	memset(c, 0, sizeof(*c));
	c->n = n;
	c->m = xcalloc(1, sizeof(*c->m));
	seeded(1, keys, sizeof(keys));
	memcpy(c->m->own.identity_priv, keys, 32);
	wa_crypto_x25519_base(keys, c->m->own.identity_pub);
	c->m->own.registration_id = 1001;
	c->m->own.spk_id = 1;
	memcpy(c->m->own.spk_priv, keys + 32, 32);
	wa_crypto_x25519_base(keys + 32, c->m->own.spk_pub);
	msg[0] = 0x05;
	memcpy(msg + 1, c->m->own.spk_pub, 32);
	seeded(101, rnd, sizeof(rnd));
	check(wa_crypto_xeddsa_sign(keys, msg, sizeof(msg), rnd,
	    c->m->own.spk_sig), "xeddsa sign");
	wa_crypto_wipe(keys, sizeof(keys));
	c->ops.session_load = mem_session_load;
	c->ops.session_store = mem_session_store;
	c->ops.session_contains = mem_session_contains;
	c->ops.session_delete = mem_session_delete;
	c->ops.own_load = mem_own_load;
	c->ops.prekey_load = mem_prekey_load;
	c->ops.prekey_remove = mem_prekey_remove;
	c->ops.identity_save = mem_identity_save;
	c->ops.identity_load = mem_identity_load;
	c->ops.sender_key_load = mem_sk_load;
	c->ops.sender_key_store = mem_sk_store;
	c->ops.tx_begin = mem_tx;
	c->ops.tx_commit = mem_tx;
	c->ops.tx_rollback = mem_tx;
	c->ops.arg = c->m;
	check(wa_signal_new(&c->ops, fixed_now, NULL, &c->sig), "wa_signal_new");
	check(wa_signal_addr_from_jid(ME_JID, strlen(ME_JID), &c->me), ME_JID);
	for (i = 0; i < n; i++) {
		member_jid(i, c->jids[i], sizeof(c->jids[i]));
		check(wa_signal_addr_from_jid(c->jids[i], strlen(c->jids[i]),
		    &c->addrs[i]), c->jids[i]);
		devs[i] = c->jids[i];
		if (sessions)
			member_session(c, i);
	}
	devs[n] = ME_JID;	/* the sender's own device is hashed too */
	check(wa_group_phash(devs, n + 1, c->phash), "wa_group_phash");
	/* my sender key, and the SKDM that carries it */
	check(wa_signal_group_skdm(c->sig, GROUP_JID, &c->me, &c->skdm),
	    "wa_signal_group_skdm");
	memset(c->adv, 0xA5, sizeof(c->adv));
}

/* group_recv: member 0 as a party of its own (its Signal state in memory
 * too) holding my sender key from my SKDM. */
static void
receiver_new(struct group_ctx *c)
{
	uint8_t	 keys[32];

	c->rm = xcalloc(1, sizeof(*c->rm));
	seeded(7, keys, sizeof(keys));
	memcpy(c->rm->own.identity_priv, keys, 32);
	wa_crypto_x25519_base(keys, c->rm->own.identity_pub);
	c->rm->own.registration_id = 2002;
	wa_crypto_wipe(keys, sizeof(keys));
	c->rops = c->ops;
	c->rops.arg = c->rm;
	check(wa_signal_new(&c->rops, fixed_now, NULL, &c->rsig),
	    "wa_signal_new (receiver)");
	check(wa_signal_group_process_skdm(c->rsig, GROUP_JID, &c->me,
	    c->skdm.p, c->skdm.len), "wa_signal_group_process_skdm");
}

static int	skmsg_of_text(struct group_ctx *c, struct buf *skmsg);

/* Untimed: my next k skmsgs, for group_recv to read in order. */
static void
make_skmsgs(struct group_ctx *c, size_t k)
{
	size_t	 i;

	for (i = 0; i < c->nin; i++)
		buf_release(&c->in[i]);
	free(c->in);
	c->in = xcalloc(k, sizeof(*c->in));
	for (i = 0; i < k; i++)
		check(skmsg_of_text(c, &c->in[i]), "skmsg");
	c->nin = k;
	c->next = 0;
}

static void
ctx_free(struct group_ctx *c)
{
	size_t	 i;

	if (c->rsig != NULL) {
		wa_signal_free(c->rsig);
		buf_release(&c->rm->sender_key.b);
		wa_crypto_wipe(c->rm, sizeof(*c->rm));
		free(c->rm);
	}
	for (i = 0; i < c->nin; i++)
		buf_release(&c->in[i]);
	free(c->in);
	wa_signal_free(c->sig);
	for (i = 0; i < TABLE; i++) {
		buf_release(&c->m->sessions[i].b);
		buf_release(&c->m->identities[i].b);
	}
	buf_release(&c->m->sender_key.b);
	wa_crypto_wipe(c->m, sizeof(*c->m));
	free(c->m);
	buf_release(&c->skdm);
}

/* ---- the operations ---- */

/* Text Message, padded, as an skmsg into *skmsg (both benches). */
static int
skmsg_of_text(struct group_ctx *c, struct buf *skmsg)
{
	struct wa_msg_text	 t = { .text = TEXT };
	struct buf		 payload = BUF_INIT, plain = BUF_INIT;
	int			 rc;

	if ((rc = wa_msg_build_text(&t, &payload)) == 0) {
		wa_msg_pad(payload.p, payload.len, 0x35, &plain);
		rc = wa_signal_group_encrypt(c->sig, GROUP_JID, &c->me,
		    plain.p, plain.len, skmsg);
	}
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&payload);
	buf_release(&plain);
	return rc;
}

BENCH_OP static int
bench_group_send_warm_op(struct group_ctx *c)
{
	struct buf		 skmsg = BUF_INIT, wire = BUF_INIT;
	struct wa_group_send	 s;
	struct arena		 a;
	struct wa_node		*n;
	int			 rc;

	if ((rc = skmsg_of_text(c, &skmsg)) != 0)
		goto out;
	memset(&s, 0, sizeof(s));
	s.id = "3EB0C0FFEE0123456789AB";
	s.to = GROUP_JID;
	s.type = "text";
	s.phash = c->phash;
	s.addressing_mode = "pn";
	s.skmsg = skmsg.p;
	s.skmsg_len = skmsg.len;
	arena_init(&a, 1024);	/* the tree fits (a 512-byte one does not) */
	if ((rc = wa_group_stanza(&s, &a, &n)) == 0)
		rc = wa_bin_encode(n, &wire);
	c->wire_len = wire.len;
	arena_release(&a);
out:
	buf_release(&skmsg);
	buf_release(&wire);
	return rc;
}

/* R3: one skmsg of a member who holds the sender's key: decrypted (the
 * chain step, the XEdDSA verification, AES-CBC), unpadded, the Message
 * parsed, the record written back through the ops. */
BENCH_OP static int
bench_group_recv_op(struct group_ctx *c)
{
	struct buf		 plain = BUF_INIT;
	struct wa_msg_content	 mc;
	size_t			 len;
	int			 rc;

	if (c->next >= c->nin)
		return -ENOENT;
	rc = wa_signal_group_decrypt(c->rsig, GROUP_JID, &c->me,
	    c->in[c->next].p, c->in[c->next].len, &plain);
	c->next++;
	if (rc == 0 && (rc = wa_msg_unpad(plain.p, plain.len, &len)) == 0 &&
	    (rc = wa_msg_parse(plain.p, len, &mc)) == 0) {
		if (mc.text == NULL || strcmp(mc.text, TEXT) != 0)
			rc = WC_EBADMSG;
		wa_msg_content_release(&mc);
	}
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	return rc;
}

BENCH_OP static int
bench_skdm_send_256_op(struct group_ctx *c)
{
	struct wa_msg_enc_out	*enc;
	struct buf		 content = BUF_INIT, plain = BUF_INIT;
	struct buf		 skmsg = BUF_INIT, wire = BUF_INIT, *ct;
	struct wa_group_send	 s;
	enum wa_signal_type	 st;
	struct arena		 a;
	struct wa_node		*n;
	size_t			 i;
	int			 rc;

	enc = xcalloc(c->n, sizeof(*enc));
	ct = xcalloc(c->n, sizeof(*ct));
	if ((rc = wa_group_message_skdm(GROUP_JID, c->skdm.p, c->skdm.len,
	    &content)) != 0)
		goto out;
	wa_msg_pad(content.p, content.len, 0x35, &plain);
	for (i = 0; i < c->n && rc == 0; i++) {
		rc = wa_signal_encrypt(c->sig, &c->addrs[i], plain.p,
		    plain.len, &st, &ct[i]);
		enc[i].jid = c->jids[i];
		enc[i].type = st == WA_SIGNAL_PKMSG ? WA_MSG_ENC_PKMSG :
		    WA_MSG_ENC_MSG;
		enc[i].ct = ct[i].p;
		enc[i].ct_len = ct[i].len;
	}
	if (rc != 0 || (rc = skmsg_of_text(c, &skmsg)) != 0)
		goto out;
	memset(&s, 0, sizeof(s));
	s.id = "3EB0C0FFEE0123456789AB";
	s.to = GROUP_JID;
	s.type = "text";
	s.phash = c->phash;
	s.addressing_mode = "pn";
	s.skdm = enc;
	s.n_skdm = c->n;
	s.skmsg = skmsg.p;
	s.skmsg_len = skmsg.len;
	s.device_identity = c->adv;
	s.device_identity_len = sizeof(c->adv);
	arena_init(&a, 65536);
	if ((rc = wa_group_stanza(&s, &a, &n)) == 0)
		rc = wa_bin_encode(n, &wire);
	c->wire_len = wire.len;
	arena_release(&a);
out:
	for (i = 0; i < c->n; i++)
		buf_release(&ct[i]);
	free(ct);
	free(enc);
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&content);
	buf_release(&plain);
	buf_release(&skmsg);
	buf_release(&wire);
	return rc;
}

/* ---- the harness (as bench-dm.c) ---- */

struct options {
	const char	*only;
	unsigned long	 iters;		/* 0: calibrate */
	unsigned long	 samples;
};

struct group_bench {
	const char	*name;
	size_t		 devices;
	bool		 skdm;
	bool		 recv;
};

static const struct group_bench BENCHES[] = {
	{ "group_send_warm_10", 10, false, false },
	{ "group_send_warm_50", 50, false, false },
	{ "group_send_warm_256", 256, false, false },
	{ "skdm_send_256", 256, true, false },
	{ "group_recv", 1, false, true },
};

static double
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int
op(const struct group_bench *b, struct group_ctx *c)
{
	if (b->recv)
		return bench_group_recv_op(c);
	return b->skdm ? bench_skdm_send_256_op(c) :
	    bench_group_send_warm_op(c);
}

static double
run(const struct group_bench *b, struct group_ctx *c, unsigned long n,
    double *t)
{
	double		 sum = 0, t0, d;
	unsigned long	 i;
	int		 rc;

	for (i = 0; i < n; i++) {
		t0 = now_ns();
		rc = op(b, c);
		d = now_ns() - t0;
		if (rc != 0)
			die(b->name, wc_strerror(rc));
		sum += d;
		if (t != NULL)
			t[i] = d;
	}
	return sum / (double)n;
}

/* "on" when libsignal's calls run in the arena of base/scope-alloc.h
 * (off in sanitizer builds, under valgrind, or WACHAT_SIGNAL_ARENA=0). */
static const char *
arena_state(void)
{
	bool	 on = scope_alloc_enter();

	(void)scope_alloc_leave();
	return on ? "on" : "off";
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Untimed, before each run of k operations: group_recv's k skmsgs. */
static void
feed(const struct group_bench *b, struct group_ctx *c, size_t k)
{
	if (b->recv)
		make_skmsgs(c, k);
}

static void
bench_run(const struct group_bench *b, const struct options *o)
{
	struct group_ctx	*c = xmalloc(sizeof(*c));
	struct alloc_count	 ac, acn;
	double			*all, *means, per, t0;
	unsigned long		 n, s, min_n;
	uint64_t		 osc;
	size_t			 total;

	ctx_new(c, b->devices, b->skdm);
	if (b->recv)
		receiver_new(c);
	feed(b, c, 3);
	(void)run(b, c, 3, NULL);			/* warm */
	feed(b, c, 1);
	ossl_calls = 0;
	counting = true;
	alloc_count_start();
	if (op(b, c) != 0)
		die(b->name, "the counted operation failed");
	alloc_count_stop(&ac);
	counting = false;
	osc = ossl_calls;

	min_n = b->skdm ? 5 : 100;
	if ((n = o->iters) == 0) {
		feed(b, c, 20);
		per = run(b, c, b->skdm ? 3 : 20, NULL);
		for (s = 0; s < 2; s++) {
			feed(b, c, 20);
			if ((t0 = run(b, c, b->skdm ? 3 : 20, NULL)) < per)
				per = t0;
		}
		n = (unsigned long)(SAMPLE_NS / per);
		if (n < min_n)
			n = min_n;
		if (n > 20000)
			n = 20000;
	}
	feed(b, c, n);
	alloc_count_start();
	for (s = 0; s < n; s++)
		if (op(b, c) != 0)
			die(b->name, "a counted operation failed");
	alloc_count_stop(&acn);
	total = (size_t)n * o->samples;
	all = xcalloc(total, sizeof(*all));
	means = xcalloc(o->samples, sizeof(*means));
	for (s = 0; s < o->samples; s++) {
		feed(b, c, n);
		means[s] = run(b, c, n, all + s * n);
	}
	qsort(means, o->samples, sizeof(*means), cmp_double);
	qsort(all, total, sizeof(*all), cmp_double);
	printf("{\"name\":\"%s\",\"median_ns\":%.1f,\"min_ns\":%.1f,"
	    "\"p95_ns\":%.1f,\"p99_ns\":%.1f,\"allocs\":%llu,\"bytes\":%llu,",
	    b->name, o->samples % 2 == 1 ? means[o->samples / 2] :
	    (means[o->samples / 2 - 1] + means[o->samples / 2]) / 2, means[0],
	    all[(size_t)((double)total * 0.95)],
	    all[(size_t)((double)total * 0.99)],
	    (unsigned long long)ac.calls, (unsigned long long)ac.bytes);
	printf("\"allocs_excl_sqlite\":%llu,\"sqlite_allocs\":0,"
	    "\"openssl_allocs\":%llu,", (unsigned long long)ac.calls,
	    (unsigned long long)osc);
	printf("\"allocs_mean\":%.1f,\"bytes_mean\":%.0f,"
	    "\"allocs_excl_sqlite_mean\":%.1f,", (double)acn.calls / (double)n,
	    (double)acn.bytes / (double)n, (double)acn.calls / (double)n);
	printf("\"wire_bytes\":%zu,\"devices\":%zu,\"skdm_copies\":%zu,",
	    c->wire_len, b->devices, b->skdm ? b->devices : 0);
	printf("\"signal_arena\":\"%s\",\"store\":\"in-memory-signal-store\","
	    "\"iters\":%lu,\"samples\":%lu}\n", arena_state(), n, o->samples);
	fflush(stdout);
	free(all);
	free(means);
	ctx_free(c);
	free(c);
}

static unsigned long
parse_count(const char *opt, const char *s)
{
	unsigned long	 v;
	char		*end;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v == 0)
		die(opt, "expects a positive number");
	return v;
}

static void
usage(void)
{
	fputs("usage: bench-group [--only NAME] [--iters N] [--samples S]\n",
	    stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	static const struct option	 longopts[] = {
		{ "only", required_argument, NULL, 'o' },
		{ "iters", required_argument, NULL, 'n' },
		{ "samples", required_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct options	 o = { NULL, 0, 15 };
	bool		 any = false;
	size_t		 i, olen;
	int		 ch;

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'o':
			o.only = optarg;
			break;
		case 'n':
			o.iters = parse_count("--iters", optarg);
			break;
		case 's':
			o.samples = parse_count("--samples", optarg);
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();
	if (CRYPTO_set_mem_functions(ossl_malloc, ossl_realloc, ossl_free) != 1)
		fputs("bench-group: cannot count OpenSSL's allocations\n",
		    stderr);
	if (!alloc_count_is_active())
		fputs("bench-group: malloc does not reach the counter (a "
		    "valgrind tool?): allocs and bytes are not counted\n",
		    stderr);
	if (wa_crypto_init() != 0)
		die("cannot initialise the crypto libraries", NULL);
	/* --only NAME runs that bench; a prefix ending where a "_" begins
	 * runs every bench under it ("group_send_warm"). */
	for (i = 0; i < sizeof(BENCHES) / sizeof(BENCHES[0]); i++) {
		if (o.only != NULL) {
			olen = strlen(o.only);
			if (strncmp(BENCHES[i].name, o.only, olen) != 0 ||
			    (BENCHES[i].name[olen] != '\0' &&
			    BENCHES[i].name[olen] != '_'))
				continue;
		}
		bench_run(&BENCHES[i], &o);
		any = true;
	}
	if (!any)
		die("no bench matches", o.only != NULL ? o.only : "");
	return 0;
}
