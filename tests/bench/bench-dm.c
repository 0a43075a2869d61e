/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-dm.c -- the 1:1 message benches of perf.md 3.1 (S1
 * dm_send_encode, R1 dm_recv_steady, R4 receive_store_msg), built from
 * the code paths proto/dm.c runs, with the JSON lines of perf.md 3.0:
 *
 *   bench-dm [--only NAME] [--iters N] [--samples S]
 *
 * The parties: "me" (15550000001, device 0) is the party measured; its
 * Signal state is either wachat's SQLite store bound through
 * src/app-store.c (store_open() on a fresh temporary directory: WAL,
 * synchronous=NORMAL; the names without a suffix) or an in-memory store
 * of serialized records (the names ending in _mem: perf.md's S1 and R1
 * scopes say "no storage", and whatsapp-rust's benches run on its
 * InMemoryBackend).  The peers are a contact (15550000002, device 0) and
 * my own companion (15550000001:1), each with an in-memory store; every
 * session is made by wa_signal_process_bundle() from a real bundle and
 * acknowledged (pkmsg, then the peer's reply decrypted), so the measured
 * operations see msg, never pkmsg.
 *
 * dm_send_encode[_mem] (S1, whatsapp-rust's bench_dm_send scope): what
 * wa_dm_send_text() and job_encrypt() do for one text to a contact with
 * one device, plus my companion: build the Message protobuf
 * (wa_msg_build_text), open the store's transaction, for the contact pad
 * and encrypt, for the companion wrap in deviceSentMessage, pad and
 * encrypt (wa_signal_encrypt, the advanced sessions written through the
 * ops), commit, build <message><participants><to><enc>... in a fresh
 * 4 KB arena (wa_msg_stanza) and marshal it (wa_bin_encode) into a fresh
 * buffer.  No socket.
 *
 * dm_recv_steady[_mem] (R1): one msg of a chain that has already made its
 * ratchet step: wa_signal_decrypt, wa_msg_unpad, wa_msg_parse, released.
 * Without an outer transaction the SQLite variant commits the session on
 * its own, as wa_signal_decrypt() does when called alone.
 *
 * receive_store_msg (R4): one inbound <message> as it comes off the
 * noise layer: wa_bin_decode into an arena, wa_msg_stanza_parse, then
 * proto/dm.c's take_enc(): the store's transaction, wa_signal_decrypt,
 * unpad, parse, store_msg_insert_incoming() (message row, chat update,
 * the row queued for the search index), commit; every 64th commit also
 * indexes the 64 queued rows (store_fts_batch(), in the timed region: the
 * mean and p99 carry it).  No receipt, no ack.
 *
 * The contact's messages (R1, R4) are made before each sample, outside
 * the timed region, by the contact's own wa_signal_encrypt(); each timed
 * operation reads the next one.  Every operation is timed on its own:
 * median_ns and min_ns are the median and fastest of S sample means (n
 * operations each), p95_ns and p99_ns are over all the timed operations.
 * allocs/bytes count one warm operation across the process, and
 * allocs_mean/bytes_mean average n more (WAL checkpoints and page-cache
 * growth make single SQLite operations differ; so n + n * S operations
 * are run after the warm-up, which run-dm.sh's Ir arithmetic knows);
 * allocs_excl_sqlite subtracts SQLite's calls (sqlite3_config(
 * SQLITE_CONFIG_MALLOC) with a counting wrapper); openssl_allocs is the
 * part of allocs made through OpenSSL (CRYPTO_set_mem_functions: the
 * crypto provider of proto/signal.c).  libsignal's own allocations come
 * from the per-call arena of base/scope-alloc.h and are not counted:
 * only calls that reach glibc are, as divan counts calls into the
 * general-purpose allocator (perf.md 4.1); "signal_arena" says whether
 * the arena was on.  Each operation is a function of its own
 * (bench_dm_*_op) for callgrind's --toggle-collect (tests/bench/run-dm.sh).
 * Single-threaded.
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
#include <unistd.h>

#include <openssl/crypto.h>
#include <sodium.h>
#include <sqlite3.h>

#include "alloc-count.h"
#include "src/app-store.h"
#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "base/scope-alloc.h"
#include "store/store.h"
#include "proto/wa-signal.h"
#include "base/xmalloc.h"

#if defined(__GNUC__) && !defined(__clang__)
#define BENCH_OP	__attribute__((noipa))
#else
#define BENCH_OP	__attribute__((noinline))
#endif

#define SAMPLE_NS	10000000.0	/* aim for 10 ms per sample */
#define CLOCK_MS	1764480000000LL
#define ME_USER		"15550000001"
#define ME_JID		ME_USER "@s.whatsapp.net"
#define ME_DEV1		ME_USER ":1@s.whatsapp.net"	/* my companion */
#define PEER_JID	"15550000002@s.whatsapp.net"
#define TEXT		"Hello! Are we still on for lunch tomorrow at 12:30?"
#define MEM_MAX		8	/* entries of each in-memory table */

static void
die(const char *what, const char *detail)
{
	fprintf(stderr, "bench-dm: %s%s%s\n", what, detail != NULL ? ": " : "",
	    detail != NULL ? detail : "");
	exit(1);
}

static void
check(int rc, const char *what)
{
	if (rc != 0)
		die(what, wc_strerror(rc));
}

/* ---- SQLite's own allocations (as in bench.c) ---- */

static sqlite3_mem_methods	 sq_def;
static bool			 sq_counting;
static uint64_t			 sq_calls;

static void *
sq_malloc(int n)
{
	if (sq_counting)
		sq_calls++;
	return sq_def.xMalloc(n);
}

static void *
sq_realloc(void *p, int n)
{
	if (sq_counting)
		sq_calls++;
	return sq_def.xRealloc(p, n);
}

static void	sq_free(void *p) { sq_def.xFree(p); }
static int	sq_size(void *p) { return sq_def.xSize(p); }
static int	sq_roundup(int n) { return sq_def.xRoundup(n); }
static int	sq_init(void *a) { return sq_def.xInit(a); }
static void	sq_shutdown(void *a) { sq_def.xShutdown(a); }

static void
sqlite_count_install(void)
{
	static sqlite3_mem_methods	 m;

	if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &sq_def) != SQLITE_OK)
		die("sqlite3_config(SQLITE_CONFIG_GETMALLOC) failed", NULL);
	m = sq_def;
	m.xMalloc = sq_malloc;
	m.xFree = sq_free;
	m.xRealloc = sq_realloc;
	m.xSize = sq_size;
	m.xRoundup = sq_roundup;
	m.xInit = sq_init;
	m.xShutdown = sq_shutdown;
	if (sqlite3_config(SQLITE_CONFIG_MALLOC, &m) != SQLITE_OK)
		die("sqlite3_config(SQLITE_CONFIG_MALLOC) failed", NULL);
}

/* ---- OpenSSL's allocations (CRYPTO_set_mem_functions), likewise: the
 * crypto provider's share of the count ---- */

static uint64_t		 ossl_calls;

static void *
ossl_malloc(size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	if (sq_counting)
		ossl_calls++;
	return malloc(n);
}

static void *
ossl_realloc(void *p, size_t n, const char *file, int line)
{
	(void)file;
	(void)line;
	if (sq_counting)
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

/* ---- an in-memory Signal store: serialized records in small tables ---- */

struct mem_rec {
	struct wa_signal_addr	 a;
	struct buf		 b;	/* session record; capacity kept */
	uint8_t			 key[WA_SIGNAL_KEY_LEN];
	bool			 used;
};

struct mem_store {
	struct wa_signal_own	 own;
	struct mem_rec		 sessions[MEM_MAX];
	struct mem_rec		 identities[MEM_MAX];
	uint32_t		 prekey_id;	/* one one-time prekey; 0: gone */
	uint8_t			 prekey_priv[WA_SIGNAL_KEY_LEN];
	uint8_t			 prekey_pub[WA_SIGNAL_KEY_LEN];
};

static struct mem_rec *
mem_find(struct mem_rec *t, const struct wa_signal_addr *a, bool add)
{
	size_t	 i;

	for (i = 0; i < MEM_MAX; i++)
		if (t[i].used && t[i].a.device == a->device &&
		    strcmp(t[i].a.name, a->name) == 0)
			return &t[i];
	if (!add)
		return NULL;
	for (i = 0; i < MEM_MAX; i++)
		if (!t[i].used) {
			t[i].used = true;
			t[i].a = *a;
			t[i].b.len = 0;
			return &t[i];
		}
	return NULL;
}

static int
mem_session_load(void *arg, const struct wa_signal_addr *a, struct buf *out)
{
	struct mem_store	*m = arg;
	struct mem_rec		*r = mem_find(m->sessions, a, false);

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
	struct mem_rec		*r = mem_find(m->sessions, a, true);

	if (r == NULL)
		return -ENOSPC;
	r->b.len = 0;
	buf_append(&r->b, rec, len);
	return 0;
}

static int
mem_session_contains(void *arg, const struct wa_signal_addr *a)
{
	struct mem_store	*m = arg;

	return mem_find(m->sessions, a, false) != NULL;
}

static int
mem_session_delete(void *arg, const struct wa_signal_addr *a)
{
	struct mem_store	*m = arg;
	struct mem_rec		*r = mem_find(m->sessions, a, false);

	if (r == NULL)
		return 0;
	r->used = false;
	return 1;
}

static int
mem_own_load(void *arg, struct wa_signal_own *out)
{
	struct mem_store	*m = arg;

	*out = m->own;
	return 1;
}

static int
mem_prekey_load(void *arg, uint32_t id, uint8_t priv[WA_SIGNAL_KEY_LEN],
    uint8_t pub[WA_SIGNAL_KEY_LEN])
{
	struct mem_store	*m = arg;

	if (m->prekey_id == 0 || id != m->prekey_id)
		return 0;
	memcpy(priv, m->prekey_priv, WA_SIGNAL_KEY_LEN);
	memcpy(pub, m->prekey_pub, WA_SIGNAL_KEY_LEN);
	return 1;
}

static int
mem_prekey_remove(void *arg, uint32_t id)
{
	struct mem_store	*m = arg;

	if (id == m->prekey_id)
		m->prekey_id = 0;
	return 0;
}

static int
mem_identity_save(void *arg, const struct wa_signal_addr *a,
    const uint8_t key[WA_SIGNAL_KEY_LEN], int64_t now_ms)
{
	struct mem_store	*m = arg;
	struct mem_rec		*r = mem_find(m->identities, a, false);
	int			 changed;

	(void)now_ms;
	if (r == NULL) {
		if ((r = mem_find(m->identities, a, true)) == NULL)
			return -ENOSPC;
		r->b.len = 1;	/* marks "stored" */
		memcpy(r->key, key, WA_SIGNAL_KEY_LEN);
		return 0;
	}
	changed = memcmp(r->key, key, WA_SIGNAL_KEY_LEN) != 0;
	memcpy(r->key, key, WA_SIGNAL_KEY_LEN);
	return changed;
}

static int
mem_identity_load(void *arg, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	struct mem_store	*m = arg;
	struct mem_rec		*r = mem_find(m->identities, a, false);

	if (r == NULL || r->b.len == 0)
		return 0;
	memcpy(key, r->key, WA_SIGNAL_KEY_LEN);
	return 1;
}

static int
mem_tx(void *arg)
{
	(void)arg;
	return 0;
}

static void
mem_ops(struct mem_store *m, struct wa_signal_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->session_load = mem_session_load;
	ops->session_store = mem_session_store;
	ops->session_contains = mem_session_contains;
	ops->session_delete = mem_session_delete;
	ops->own_load = mem_own_load;
	ops->prekey_load = mem_prekey_load;
	ops->prekey_remove = mem_prekey_remove;
	ops->identity_save = mem_identity_save;
	ops->identity_load = mem_identity_load;
	ops->tx_begin = mem_tx;
	ops->tx_commit = mem_tx;
	ops->tx_rollback = mem_tx;
	ops->arg = m;
}

static void
mem_free(struct mem_store *m)
{
	size_t	 i;

	for (i = 0; i < MEM_MAX; i++) {
		buf_release(&m->sessions[i].b);
		buf_release(&m->identities[i].b);
	}
	wa_crypto_wipe(m, sizeof(*m));
	free(m);
}

/* ---- parties ---- */

struct party {
	struct wa_signal_addr		 addr;	/* how the others address it */
	struct wa_signal_own		 own;
	uint32_t			 prekey_id;
	uint8_t				 prekey_priv[WA_SIGNAL_KEY_LEN];
	uint8_t				 prekey_pub[WA_SIGNAL_KEY_LEN];
	struct mem_store		*mem;	/* or st */
	struct store			*st;
	char				 dir[300];
	struct wa_signal_store_ops	 ops;
	struct wa_signal		*sig;
};

static int64_t
fixed_now(void *arg)
{
	(void)arg;
	return CLOCK_MS;
}

/* Deterministic key material (perf.md 3.0: fixed seeds). */
static void
seeded(uint8_t seed, uint8_t *out, size_t len)
{
	uint8_t	 key[randombytes_SEEDBYTES];
	size_t	 i;

	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(seed * 31 + i);
	randombytes_buf_deterministic(out, len, key);
}

static void
party_new(struct party *p, const char *jid, uint8_t seed, bool sqlite)
{
	struct store_device	 d;
	struct store_prekey	 k;
	uint8_t			 msg[33], rnd[WA_CRYPTO_SIG_RANDOM_LEN];
	uint8_t			 keys[4 * 32];
	const char		*tmp;

	memset(p, 0, sizeof(*p));
	check(wa_signal_addr_from_jid(jid, strlen(jid), &p->addr), jid);
	seeded(seed, keys, sizeof(keys));
	memcpy(p->own.identity_priv, keys, 32);
	wa_crypto_x25519_base(p->own.identity_priv, p->own.identity_pub);
	p->own.registration_id = 1000u + seed;
	p->own.spk_id = 1;
	memcpy(p->own.spk_priv, keys + 32, 32);
	wa_crypto_x25519_base(p->own.spk_priv, p->own.spk_pub);
	msg[0] = 0x05;
	memcpy(msg + 1, p->own.spk_pub, 32);
	seeded((uint8_t)(seed + 100), rnd, sizeof(rnd));
	check(wa_crypto_xeddsa_sign(p->own.identity_priv, msg, sizeof(msg),
	    rnd, p->own.spk_sig), "xeddsa sign");
	p->prekey_id = 7;
	memcpy(p->prekey_priv, keys + 64, 32);
	wa_crypto_x25519_base(p->prekey_priv, p->prekey_pub);

	if (!sqlite) {
		p->mem = xcalloc(1, sizeof(*p->mem));
		p->mem->own = p->own;
		p->mem->prekey_id = p->prekey_id;
		memcpy(p->mem->prekey_priv, p->prekey_priv, 32);
		memcpy(p->mem->prekey_pub, p->prekey_pub, 32);
		mem_ops(p->mem, &p->ops);
	} else {
		if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
			tmp = "/tmp";
		snprintf(p->dir, sizeof(p->dir), "%s/wachat-bench-dm.XXXXXX",
		    tmp);
		if (mkdtemp(p->dir) == NULL)
			die(p->dir, strerror(errno));
		check(store_open(p->dir, &p->st), "store_open");
		memset(&d, 0, sizeof(d));
		seeded((uint8_t)(seed + 50), d.noise_priv, 32);
		wa_crypto_x25519_base(d.noise_priv, d.noise_pub);
		memcpy(d.identity_priv, p->own.identity_priv, 32);
		memcpy(d.identity_pub, p->own.identity_pub, 32);
		d.registration_id = p->own.registration_id;
		d.spk_id = p->own.spk_id;
		memcpy(d.spk_priv, p->own.spk_priv, 32);
		memcpy(d.spk_pub, p->own.spk_pub, 32);
		memcpy(d.spk_sig, p->own.spk_sig, 64);
		check(store_device_save(p->st, &d), "store_device_save");
		store_device_release(&d);
		k.id = p->prekey_id;
		memcpy(k.priv, p->prekey_priv, 32);
		memcpy(k.pub, p->prekey_pub, 32);
		check(store_prekey_put(p->st, &k, 1), "store_prekey_put");
		app_store_signal_ops(p->st, &p->ops);
	}
	check(wa_signal_new(&p->ops, fixed_now, NULL, &p->sig), "wa_signal_new");
	wa_crypto_wipe(keys, sizeof(keys));
}

static void
party_free(struct party *p)
{
	static const char *const f[] = { "wachat.db", "wachat.db-wal",
	    "wachat.db-shm" };
	char	 path[400];
	size_t	 i;

	wa_signal_free(p->sig);
	if (p->mem != NULL)
		mem_free(p->mem);
	if (p->st != NULL) {
		store_close(p->st);
		for (i = 0; i < 3; i++) {
			snprintf(path, sizeof(path), "%s/%s", p->dir, f[i]);
			(void)unlink(path);
		}
		if (rmdir(p->dir) != 0)
			fprintf(stderr, "bench-dm: cannot remove %s: %s\n",
			    p->dir, strerror(errno));
	}
}

/* from makes a session to to from to's bundle; to decrypts the pkmsg and
 * answers, from decrypts the answer: acknowledged both ways. */
static void
converse(struct party *from, struct party *to)
{
	struct wa_signal_bundle	 b;
	struct buf		 ct = BUF_INIT, pt = BUF_INIT;
	enum wa_signal_type	 t;

	memset(&b, 0, sizeof(b));
	b.registration_id = to->own.registration_id;
	memcpy(b.identity, to->own.identity_pub, 32);
	b.spk_id = to->own.spk_id;
	memcpy(b.spk_pub, to->own.spk_pub, 32);
	memcpy(b.spk_sig, to->own.spk_sig, 64);
	b.has_prekey = true;
	b.prekey_id = to->prekey_id;
	memcpy(b.prekey_pub, to->prekey_pub, 32);
	check(wa_signal_process_bundle(from->sig, &to->addr, &b, NULL),
	    "process_bundle");
	check(wa_signal_encrypt(from->sig, &to->addr, (const uint8_t *)"hi",
	    2, &t, &ct), "encrypt pkmsg");
	if (t != WA_SIGNAL_PKMSG)
		die("the first message is not a pkmsg", NULL);
	check(wa_signal_decrypt(to->sig, &from->addr, t, ct.p, ct.len, &pt,
	    NULL), "decrypt pkmsg");
	ct.len = pt.len = 0;
	check(wa_signal_encrypt(to->sig, &from->addr, (const uint8_t *)"yo",
	    2, &t, &ct), "encrypt reply");
	if (t != WA_SIGNAL_MSG)
		die("the reply is not a msg", NULL);
	check(wa_signal_decrypt(from->sig, &to->addr, t, ct.p, ct.len, &pt,
	    NULL), "decrypt reply");
	if (pt.len != 2 || memcmp(pt.p, "yo", 2) != 0)
		die("the reply decrypts wrong", NULL);
	buf_release(&ct);
	buf_release(&pt);
}

/* ---- the operations ---- */

struct dm_ctx {
	struct party	*me, *peer, *comp;
	struct wa_signal_store_ops *tx;	/* me's ops, for the transaction */
	uint8_t		 adv[200];	/* stand-in ADVSignedDeviceIdentity */
	/* receiving: the contact's messages, made before each sample */
	struct buf	*in;		/* R1: padded-protobuf ciphertexts;
					 * R4: marshalled <message> nodes */
	size_t		 n_in, next;
	uint64_t	 made;		/* messages made so far (ids) */
	struct arena	 arena;		/* R4: decoded into, reset per op */
	size_t		 wire_len;	/* S1: bytes marshalled */
};

BENCH_OP static int
bench_dm_send_encode_op(struct dm_ctx *c)
{
	struct wa_msg_text	 t = { .text = TEXT };
	struct buf		 payload = BUF_INIT, dsm = BUF_INIT;
	struct buf		 plain = BUF_INIT, ct[2] = { BUF_INIT, BUF_INIT };
	struct buf		 wire = BUF_INIT;
	struct wa_msg_enc_out	 enc[2];
	struct wa_msg_send	 s;
	struct arena		 a;
	struct wa_node		*n;
	enum wa_signal_type	 st;
	void			*arg = c->tx->arg;
	int			 rc;

	if ((rc = wa_msg_build_text(&t, &payload)) != 0)
		return rc;
	if ((rc = c->tx->tx_begin(arg)) != 0)
		goto out;
	/* the contact's device */
	wa_msg_pad(payload.p, payload.len, 0x35, &plain);
	rc = wa_signal_encrypt(c->me->sig, &c->peer->addr, plain.p, plain.len,
	    &st, &ct[0]);
	if (rc == 0)
		enc[0].type = st == WA_SIGNAL_PKMSG ? WA_MSG_ENC_PKMSG :
		    WA_MSG_ENC_MSG;
	/* my companion: the deviceSentMessage copy */
	if (rc == 0 && (rc = wa_msg_wrap_dsm(payload.p, payload.len, PEER_JID,
	    &dsm)) == 0) {
		plain.len = 0;
		wa_msg_pad(dsm.p, dsm.len, 0x35, &plain);
		rc = wa_signal_encrypt(c->me->sig, &c->comp->addr, plain.p,
		    plain.len, &st, &ct[1]);
		if (rc == 0)
			enc[1].type = st == WA_SIGNAL_PKMSG ?
			    WA_MSG_ENC_PKMSG : WA_MSG_ENC_MSG;
	}
	if (rc == 0)
		rc = c->tx->tx_commit(arg);
	else
		(void)c->tx->tx_rollback(arg);
	if (rc != 0)
		goto out;
	enc[0].jid = PEER_JID;
	enc[0].ct = ct[0].p;
	enc[0].ct_len = ct[0].len;
	enc[1].jid = ME_DEV1;
	enc[1].ct = ct[1].p;
	enc[1].ct_len = ct[1].len;
	memset(&s, 0, sizeof(s));
	s.id = "3EB0C0FFEE0123456789AB";
	s.to = PEER_JID;
	s.type = "text";
	s.encs = enc;
	s.n_encs = 2;
	s.device_identity = c->adv;
	s.device_identity_len = sizeof(c->adv);
	arena_init(&a, 4096);
	if ((rc = wa_msg_stanza(&s, &a, &n)) == 0)
		rc = wa_bin_encode(n, &wire);
	c->wire_len = wire.len;
	arena_release(&a);
out:
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&payload);
	buf_release(&dsm);
	buf_release(&plain);
	buf_release(&ct[0]);
	buf_release(&ct[1]);
	buf_release(&wire);
	return rc;
}

/* Decrypt, unpad, parse one msg (R1). */
BENCH_OP static int
bench_dm_recv_steady_op(struct dm_ctx *c)
{
	struct buf		*in = &c->in[c->next++];
	struct buf		 plain = BUF_INIT;
	struct wa_msg_content	 m;
	size_t			 len;
	int			 rc;

	rc = wa_signal_decrypt(c->me->sig, &c->peer->addr, WA_SIGNAL_MSG,
	    in->p, in->len, &plain, NULL);
	if (rc == 0 && (rc = wa_msg_unpad(plain.p, plain.len, &len)) == 0 &&
	    (rc = wa_msg_parse(plain.p, len, &m)) == 0) {
		if (m.kind != WA_MSG_TEXT)
			rc = WC_EPROTO;
		wa_msg_content_release(&m);
	}
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	return rc;
}

/* Decode, parse the stanza, decrypt, parse, store, in one transaction
 * (R4; proto/dm.c's on_message() and take_enc()). */
BENCH_OP static int
bench_receive_store_msg_op(struct dm_ctx *c)
{
	struct buf		*in = &c->in[c->next++];
	struct buf		 plain = BUF_INIT;
	struct wa_node		*n;
	struct wa_msg_in	 m;
	struct wa_msg_content	 mc;
	struct store_msg_new	 sm;
	struct wa_signal_addr	 ad;
	void			*arg = c->tx->arg;
	size_t			 len;
	int			 rc;

	arena_reset(&c->arena);
	if ((rc = wa_bin_decode(in->p, in->len, &c->arena, &n, NULL)) != 0 ||
	    (rc = wa_msg_stanza_parse(n, &c->arena, &m, NULL)) != 0)
		return rc;
	if (m.n_encs != 1 || m.encs[0].type != WA_MSG_ENC_MSG)
		return WC_EPROTO;
	if ((rc = wa_signal_addr_from_jid(m.from, strlen(m.from), &ad)) != 0)
		return rc;
	if ((rc = c->tx->tx_begin(arg)) != 0)
		return rc;
	rc = wa_signal_decrypt(c->me->sig, &ad, WA_SIGNAL_MSG, m.encs[0].ct,
	    m.encs[0].ct_len, &plain, NULL);
	if (rc == 0 && (rc = wa_msg_unpad(plain.p, plain.len, &len)) == 0 &&
	    (rc = wa_msg_parse(plain.p, len, &mc)) == 0) {
		memset(&sm, 0, sizeof(sm));
		sm.chat = PEER_JID;
		sm.id = m.id;
		sm.sender = PEER_JID;
		sm.ts_ms = m.t * 1000;
		sm.kind = STORE_MSG_TEXT;
		sm.text = mc.text != NULL ? mc.text : "";
		sm.text_len = strlen(sm.text);
		sm.state = STORE_MSG_RECEIVED;
		rc = store_msg_insert_incoming(c->me->st, &sm, NULL);
		if (rc == 1 || rc == 2)
			rc = WC_EPROTO;	/* every id is new */
		wa_msg_content_release(&mc);
	}
	if (rc == 0)
		rc = c->tx->tx_commit(arg);
	else
		(void)c->tx->tx_rollback(arg);
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	return rc;
}

/* Untimed: the contact's next k messages to me, as R1 or R4 reads them. */
static void
make_inbound(struct dm_ctx *c, size_t k, bool stanza)
{
	struct wa_msg_text	 t = { .text = TEXT };
	struct buf		 payload = BUF_INIT, plain = BUF_INIT;
	struct buf		 ct = BUF_INIT;
	enum wa_signal_type	 st;
	struct arena		 a;
	struct wa_node		*n, *e;
	char			 id[WA_MSG_ID_LEN + 1];
	size_t			 i;

	for (i = 0; i < c->n_in; i++)
		buf_release(&c->in[i]);
	free(c->in);
	c->in = xcalloc(k, sizeof(*c->in));
	c->n_in = k;
	c->next = 0;
	check(wa_msg_build_text(&t, &payload), "wa_msg_build_text");
	arena_init(&a, 0);
	for (i = 0; i < k; i++) {
		plain.len = ct.len = 0;
		wa_msg_pad(payload.p, payload.len, (uint8_t)i, &plain);
		check(wa_signal_encrypt(c->peer->sig, &c->me->addr, plain.p,
		    plain.len, &st, &ct), "peer encrypt");
		if (st != WA_SIGNAL_MSG)
			die("the contact sends a pkmsg", NULL);
		if (!stanza) {
			buf_append(&c->in[i], ct.p, ct.len);
			continue;
		}
		/* <message from id t type notify><enc v type>ct</enc> (11.1) */
		snprintf(id, sizeof(id), "3EB0%018llX",
		    (unsigned long long)++c->made);
		arena_reset(&a);
		n = wa_nb_new(&a, "message", 6);
		check(wa_nb_attr_jid(n, "from", PEER_JID), "from");
		wa_nb_attr(n, "id", id);
		wa_nb_attr(n, "type", "text");
		wa_nb_attr(n, "notify", "Bob");
		wa_nb_attr_num(&a, n, "t", CLOCK_MS / 1000 + (int64_t)c->made);
		e = wa_nb_kids(&a, n, 1);
		e = wa_nb_kid(&a, e, "enc", 2);
		wa_nb_attr(e, "v", "2");
		wa_nb_attr(e, "type", "msg");
		wa_nb_bytes(e, ct.p, ct.len);
		check(wa_bin_encode(n, &c->in[i]), "wa_bin_encode");
	}
	arena_release(&a);
	buf_release(&payload);
	buf_release(&plain);
	buf_release(&ct);
}

/* ---- the harness ---- */

struct options {
	const char	*only;
	unsigned long	 iters;		/* 0: calibrate */
	unsigned long	 samples;
};

enum dm_kind { DM_SEND, DM_RECV, DM_RECV_STORE };

struct dm_bench {
	const char	*name;
	enum dm_kind	 kind;
	bool		 sqlite;	/* me's Signal store */
	const char	*scope;
};

static const struct dm_bench BENCHES[] = {
	{ "dm_send_encode", DM_SEND, true, "sqlite-signal-store" },
	{ "dm_send_encode_mem", DM_SEND, false, "in-memory-signal-store" },
	{ "dm_recv_steady", DM_RECV, true, "sqlite-signal-store" },
	{ "dm_recv_steady_mem", DM_RECV, false, "in-memory-signal-store" },
	{ "receive_store_msg", DM_RECV_STORE, true, "sqlite" },
};

static double
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int
op(const struct dm_bench *b, struct dm_ctx *c)
{
	switch (b->kind) {
	case DM_SEND:
		return bench_dm_send_encode_op(c);
	case DM_RECV:
		return bench_dm_recv_steady_op(c);
	case DM_RECV_STORE:
		return bench_receive_store_msg_op(c);
	}
	return -EINVAL;
}

/* Run n operations, each timed into t[] (may be NULL); returns the mean. */
static double
run(const struct dm_bench *b, struct dm_ctx *c, unsigned long n, double *t)
{
	double		 sum = 0, t0, d;
	unsigned long	 i;
	int		 rc;

	if (b->kind != DM_SEND)
		make_inbound(c, n, b->kind == DM_RECV_STORE);
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

static void
bench_run(const struct dm_bench *b, const struct options *o)
{
	struct party		 me, peer, comp;
	struct dm_ctx		 c;
	struct alloc_count	 ac;
	double			*all, *means, per, t0;
	unsigned long		 n, s;
	struct alloc_count	 acn;
	uint64_t		 sqc, osc, sqn;
	size_t			 total;

	party_new(&me, ME_JID, 1, b->sqlite);
	party_new(&peer, PEER_JID, 2, false);
	party_new(&comp, ME_DEV1, 3, false);
	memset(&c, 0, sizeof(c));
	c.me = &me;
	c.peer = &peer;
	c.comp = &comp;
	c.tx = &me.ops;
	memset(c.adv, 0xA5, sizeof(c.adv));
	arena_init(&c.arena, 0);
	if (b->kind == DM_SEND) {
		converse(&me, &peer);
		converse(&me, &comp);
	} else {
		/* the contact starts; my answer makes its next message the
		 * first of a new chain, whose ratchet step is in the warm-up */
		converse(&peer, &me);
	}

	(void)run(b, &c, 3, NULL);			/* warm */
	if (b->kind != DM_SEND)
		make_inbound(&c, 1, b->kind == DM_RECV_STORE);
	sq_calls = ossl_calls = 0;
	sq_counting = true;
	alloc_count_start();
	if (op(b, &c) != 0)
		die(b->name, "the counted operation failed");
	alloc_count_stop(&ac);
	sq_counting = false;
	sqc = sq_calls;
	osc = ossl_calls;

	if ((n = o->iters) == 0) {
		/* the fastest of three runs, so that one preempted run does
		 * not shrink every sample; at least 100 operations a sample
		 * (the p99 is over all of them) */
		per = run(b, &c, 20, NULL);
		for (s = 0; s < 2; s++)
			if ((t0 = run(b, &c, 20, NULL)) < per)
				per = t0;
		n = (unsigned long)(SAMPLE_NS / per);
		if (n < 100)
			n = 100;
		if (n > 20000)
			n = 20000;
	}
	/* Allocations averaged over n more operations: WAL checkpoints and
	 * SQLite's page-cache growth make single operations differ. */
	if (b->kind != DM_SEND)
		make_inbound(&c, n, b->kind == DM_RECV_STORE);
	sq_calls = 0;
	sq_counting = true;
	alloc_count_start();
	for (s = 0; s < n; s++)
		if (op(b, &c) != 0)
			die(b->name, "a counted operation failed");
	alloc_count_stop(&acn);
	sq_counting = false;
	sqn = sq_calls;
	total = (size_t)n * o->samples;
	all = xcalloc(total, sizeof(*all));
	means = xcalloc(o->samples, sizeof(*means));
	for (s = 0; s < o->samples; s++)
		means[s] = run(b, &c, n, all + s * n);
	qsort(means, o->samples, sizeof(*means), cmp_double);
	qsort(all, total, sizeof(*all), cmp_double);
	printf("{\"name\":\"%s\",\"median_ns\":%.1f,\"min_ns\":%.1f,"
	    "\"p95_ns\":%.1f,\"p99_ns\":%.1f,\"allocs\":%llu,\"bytes\":%llu,",
	    b->name, o->samples % 2 == 1 ? means[o->samples / 2] :
	    (means[o->samples / 2 - 1] + means[o->samples / 2]) / 2, means[0],
	    all[(size_t)((double)total * 0.95)],
	    all[(size_t)((double)total * 0.99)],
	    (unsigned long long)ac.calls, (unsigned long long)ac.bytes);
	printf("\"allocs_excl_sqlite\":%llu,\"sqlite_allocs\":%llu,"
	    "\"openssl_allocs\":%llu,",
	    (unsigned long long)(ac.calls >= sqc ? ac.calls - sqc : 0),
	    (unsigned long long)sqc, (unsigned long long)osc);
	printf("\"allocs_mean\":%.1f,\"bytes_mean\":%.0f,"
	    "\"allocs_excl_sqlite_mean\":%.1f,", (double)acn.calls / (double)n,
	    (double)acn.bytes / (double)n,
	    (double)(acn.calls - sqn) / (double)n);
	if (b->kind == DM_SEND)
		printf("\"wire_bytes\":%zu,\"devices\":2,", c.wire_len);
	printf("\"signal_arena\":\"%s\",\"store\":\"%s\",\"iters\":%lu,"
	    "\"samples\":%lu}\n", arena_state(), b->scope, n, o->samples);
	fflush(stdout);

	free(all);
	free(means);
	for (s = 0; s < c.n_in; s++)
		buf_release(&c.in[s]);
	free(c.in);
	arena_release(&c.arena);
	party_free(&comp);
	party_free(&peer);
	party_free(&me);
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
	fputs("usage: bench-dm [--only NAME] [--iters N] [--samples S]\n",
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
	sqlite_count_install();
	/* Before any OpenSSL call; fails (harmlessly: no openssl_allocs) if
	 * something allocated through OpenSSL already. */
	if (CRYPTO_set_mem_functions(ossl_malloc, ossl_realloc, ossl_free) != 1)
		fputs("bench-dm: cannot count OpenSSL's allocations\n", stderr);
	if (!alloc_count_is_active())
		fputs("bench-dm: malloc does not reach the counter (a valgrind "
		    "tool?): allocs and bytes are not counted\n", stderr);
	if (wa_crypto_init() != 0)
		die("cannot initialise the crypto libraries", NULL);
	/* --only NAME runs that bench; a prefix that is no bench's name,
	 * ending where a "_" begins, runs every bench under it ("dm",
	 * "dm_recv"). */
	for (i = 0; o.only != NULL &&
	    i < sizeof(BENCHES) / sizeof(BENCHES[0]); i++)
		if (strcmp(o.only, BENCHES[i].name) == 0) {
			bench_run(&BENCHES[i], &o);
			return 0;
		}
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
