/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench.c -- the benchmark harness of perf.md 3.0 for the node
 * codec (benches C1 and C2 of perf.md 3.1), the noise frame (N1) and the
 * prekeys (P1-P3, bench_prekey() below; --only prekey runs them all and
 * needs no fixtures):
 *
 *   bench [--only NAME] [--iters N] [--samples S] [--fixtures FILE]
 *
 * For every fixture of FILE (tests/bench/codec-fixtures.jsonl) it runs
 * codec_decode/<fixture> (arena_reset, then wa_bin_decode into that arena,
 * which is never freed between operations) and codec_encode/<fixture>
 * (wa_bin_encode into an emptied, reused buffer), then
 * codec_roundtrip/small (encode, then decode what was written).  Each
 * bench prints one JSON line on stdout: median and minimum nanoseconds per
 * operation over S samples of N operations, allocation calls and bytes of
 * one warm operation (alloc-count.c), the fixture's encoded size and the
 * throughput.  --only runs the bench of that name, or every bench under it
 * ("codec_decode").  The arena is a default one (arena_init(a, 0)), so a
 * large tree's allocations show until arena_reset() has grown it.  Setup
 * (JSON parsing, the first encode, the warm-up) is outside the timed
 * loop.  Each timed operation is a function of its own (bench_codec_*_op),
 * so callgrind can collect on it (tests/bench/run.sh).  Single-threaded,
 * but for the prekey benches ending in _2t, which use one worker thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>
#include <sqlite3.h>

#include "alloc-count.h"
#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "node-json.h"
#include "store/store.h"
#include "base/xmalloc.h"

#ifndef BENCH_FIXTURES
#define BENCH_FIXTURES	"tests/bench/codec-fixtures.jsonl"
#endif

#define SAMPLE_NS	10000000.0	/* aim for 10 ms per sample */

/*
 * The timed operations stay out of line and keep their names, so that
 * callgrind's --toggle-collect=bench_codec_decode_op finds them: gcc's
 * noipa also stops clones such as bench_codec_decode_op.isra.0.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define BENCH_OP	__attribute__((noipa))
#else
#define BENCH_OP	__attribute__((noinline))
#endif

enum bench_kind {
	BENCH_DECODE,
	BENCH_ENCODE,
	BENCH_ROUNDTRIP,
	BENCH_NOISE,		/* perf.md N1: one transport frame's cipher */
};

struct fixture {
	char		*name;
	struct wa_node	*tree;		/* in the fixtures' arena */
	struct buf	 wire;		/* tree encoded, no flags byte */
	struct fixture	*next;
};

/* What one operation works on; all of it is set up before timing. */
struct bench_ctx {
	const struct wa_node	*tree;
	const uint8_t		*wire;
	size_t			 wire_len;
	struct arena		 arena;	/* decoded into; reset by each op */
	struct buf		 out;	/* encoded into; emptied by each op */
	struct wa_node		*decoded;
	struct wa_crypto_gcm	 gcm;	/* keyed once, as per connection */
	bool			 seal;	/* seal (true) or open */
	uint8_t			*frame;	/* flen + 16 bytes, sealed in place */
	const uint8_t		*sealed;/* flen + 16 bytes to open */
	size_t			 flen;	/* plaintext bytes */
};

struct options {
	const char	*only;		/* NULL: every bench */
	const char	*fixtures;
	unsigned long	 iters;		/* 0: calibrate */
	unsigned long	 samples;
	bool		 counting;	/* alloc_count_is_active() */
};

static const char *const KIND_NAME[] = {
	[BENCH_DECODE] = "codec_decode",
	[BENCH_ENCODE] = "codec_encode",
	[BENCH_ROUNDTRIP] = "codec_roundtrip",
	[BENCH_NOISE] = "noise_frame",
};

static void
die(const char *what, const char *detail)
{
	fprintf(stderr, "bench: %s%s%s\n", what, detail != NULL ? ": " : "",
	    detail != NULL ? detail : "");
	exit(1);
}

BENCH_OP static int
bench_codec_decode_op(struct bench_ctx *c)
{
	arena_reset(&c->arena);
	return wa_bin_decode(c->wire, c->wire_len, &c->arena, &c->decoded,
	    NULL);
}

BENCH_OP static int
bench_codec_encode_op(struct bench_ctx *c)
{
	c->out.len = 0;
	return wa_bin_encode(c->tree, &c->out);
}

BENCH_OP static int
bench_codec_roundtrip_op(struct bench_ctx *c)
{
	int	 rc;

	c->out.len = 0;
	if ((rc = wa_bin_encode(c->tree, &c->out)) != 0)
		return rc;
	arena_reset(&c->arena);
	return wa_bin_decode(c->out.p, c->out.len, &c->arena, &c->decoded,
	    NULL);
}

/* Seal a frame in place, or open a sealed one, with the key schedule made
 * once (perf.md N1).  The nonce is fixed: only the cipher's cost is
 * measured, and no frame leaves the process. */
BENCH_OP static int
bench_noise_frame_op(struct bench_ctx *c)
{
	static const uint8_t	 nonce[WA_CRYPTO_GCM_NONCE_LEN];

	if (c->seal)
		return wa_crypto_gcm_seal(&c->gcm, nonce, NULL, 0, c->frame,
		    c->flen, c->frame);
	return wa_crypto_gcm_open(&c->gcm, nonce, NULL, 0, c->sealed,
	    c->flen + WA_CRYPTO_GCM_TAG_LEN, c->frame);
}

/* Run n operations; the kind is chosen outside the loop. */
static int
run(enum bench_kind kind, struct bench_ctx *c, unsigned long n)
{
	unsigned long	 i;
	int		 rc = 0;

	switch (kind) {
	case BENCH_DECODE:
		for (i = 0; i < n; i++)
			rc |= bench_codec_decode_op(c);
		break;
	case BENCH_ENCODE:
		for (i = 0; i < n; i++)
			rc |= bench_codec_encode_op(c);
		break;
	case BENCH_ROUNDTRIP:
		for (i = 0; i < n; i++)
			rc |= bench_codec_roundtrip_op(c);
		break;
	case BENCH_NOISE:
		for (i = 0; i < n; i++)
			rc |= bench_noise_frame_op(c);
		break;
	}
	return rc;
}

static double
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Nanoseconds per operation over one run of n operations. */
static double
time_run(enum bench_kind kind, struct bench_ctx *c, unsigned long n)
{
	double	 t0, t1;
	int	 rc;

	t0 = now_ns();
	rc = run(kind, c, n);
	t1 = now_ns();
	if (rc != 0)
		die("operation failed", wc_strerror(rc));
	return (t1 - t0) / (double)n;
}

/*
 * Enough operations for a sample of about SAMPLE_NS: double n until a run
 * takes a tenth of that, then scale by the fastest of three runs, so that
 * one preempted run does not shrink every sample.
 */
static unsigned long
calibrate(enum bench_kind kind, struct bench_ctx *c)
{
	unsigned long	 n = 1;
	double		 per, t;
	int		 i;

	for (;;) {
		per = time_run(kind, c, n);
		if (per * (double)n >= SAMPLE_NS / 10 || n >= (1ul << 30))
			break;
		n *= 2;
	}
	for (i = 0; i < 2; i++)
		if ((t = time_run(kind, c, n)) < per)
			per = t;
	n = (unsigned long)(SAMPLE_NS / (per > 1 ? per : 1));
	return n != 0 ? n : 1;
}

static struct alloc_count
count_one(enum bench_kind kind, struct bench_ctx *c)
{
	struct alloc_count	 ac;
	int			 rc;

	alloc_count_start();
	rc = run(kind, c, 1);
	alloc_count_stop(&ac);
	if (rc != 0)
		die("operation failed", wc_strerror(rc));
	return ac;
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static unsigned long	measure(enum bench_kind, struct bench_ctx *,
			    const struct options *, double *, double *,
			    struct alloc_count *);

static void
bench_one(enum bench_kind kind, const struct fixture *f,
    const struct options *o)
{
	struct bench_ctx	 c;
	struct alloc_count	 ac;
	double			 median, min;
	unsigned long		 n;

	memset(&c, 0, sizeof(c));
	c.tree = f->tree;
	c.wire = f->wire.p;
	c.wire_len = f->wire.len;
	/* The default arena, as the client uses it: arena_reset() folds the
	 * chunks of a large tree into one, so two warm-up operations bring it
	 * to its steady state without sizing it here. */
	arena_init(&c.arena, 0);
	/* Warm: the buffer and the arena reach their size, caches fill. */
	n = measure(kind, &c, o, &median, &min, &ac);
	if (ac.calls != 0)
		fprintf(stderr, "bench: %s/%s allocates in the steady state\n",
		    KIND_NAME[kind], f->name);

	printf("{\"name\":\"%s/%s\",\"median_ns\":%.1f,\"min_ns\":%.1f,"
	    "\"allocs\":%llu,\"bytes\":%llu,\"iters\":%lu,\"samples\":%lu,"
	    "\"mb_s\":%.1f,\"wire_bytes\":%zu}\n",
	    KIND_NAME[kind], f->name, median, min,
	    (unsigned long long)ac.calls, (unsigned long long)ac.bytes, n,
	    o->samples, (double)f->wire.len * 1e3 / median, f->wire.len);
	fflush(stdout);

	arena_release(&c.arena);
	buf_release(&c.out);
}

/* Warm the ops set up in c, count the allocations of one into *ac, then
 * time o->samples runs: the median and fastest ns per op.  Returns the
 * operations per sample. */
static unsigned long
measure(enum bench_kind kind, struct bench_ctx *c, const struct options *o,
    double *median, double *min, struct alloc_count *ac)
{
	double		*t;
	unsigned long	 n, s;

	if (run(kind, c, 2) != 0)
		die("warm-up failed", KIND_NAME[kind]);
	*ac = count_one(kind, c);
	n = o->iters != 0 ? o->iters : calibrate(kind, c);
	t = xcalloc(o->samples, sizeof(*t));
	for (s = 0; s < o->samples; s++)
		t[s] = time_run(kind, c, n);
	qsort(t, o->samples, sizeof(*t), cmp_double);
	*median = o->samples % 2 == 1 ? t[o->samples / 2] :
	    (t[o->samples / 2 - 1] + t[o->samples / 2]) / 2;
	*min = t[0];
	free(t);
	return n;
}

/*
 * perf.md N1, noise_frame: AES-256-GCM seal and open of one transport
 * frame of 1500 and 65,536 bytes, in place, the key schedule made once.
 * Returns whether any was selected by --only.
 */
static bool
bench_noise(const struct options *o)
{
	static const size_t	 sizes[] = { 1500, 65536 };
	uint8_t			 key[WA_CRYPTO_KEY_LEN];
	static const uint8_t	 nonce[WA_CRYPTO_GCM_NONCE_LEN];
	struct bench_ctx	 c;
	struct alloc_count	 ac;
	char			 name[64];
	double			 median, min;
	unsigned long		 n;
	bool			 any = false;
	size_t			 i, k;
	int			 seal;

	for (k = 0; k < sizeof(key); k++)
		key[k] = (uint8_t)(k * 29 + 7);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		for (seal = 1; seal >= 0; seal--) {
			uint8_t	*sealed;

			snprintf(name, sizeof(name), "noise_frame/%s-%zu",
			    seal ? "seal" : "open", sizes[i]);
			if (o->only != NULL && strcmp(o->only, name) != 0 &&
			    strcmp(o->only, "noise_frame") != 0)
				continue;
			any = true;
			memset(&c, 0, sizeof(c));
			c.flen = sizes[i];
			c.seal = seal;
			c.frame = xcalloc(1, c.flen + WA_CRYPTO_GCM_TAG_LEN);
			sealed = xcalloc(1, c.flen + WA_CRYPTO_GCM_TAG_LEN);
			for (k = 0; k < c.flen; k++)
				sealed[k] = (uint8_t)k;
			/* A frame sealed once, for the open bench. */
			if (wa_crypto_gcm_init(&c.gcm, key, true) != 0 ||
			    wa_crypto_gcm_seal(&c.gcm, nonce, NULL, 0, sealed,
			    c.flen, sealed) != 0 ||
			    wa_crypto_gcm_rekey(&c.gcm, key, seal) != 0)
				die("cannot set up AES-GCM", NULL);
			c.sealed = sealed;
			n = measure(BENCH_NOISE, &c, o, &median, &min, &ac);
			printf("{\"name\":\"%s\",\"median_ns\":%.1f,"
			    "\"min_ns\":%.1f,\"allocs\":%llu,\"bytes\":%llu,"
			    "\"iters\":%lu,\"samples\":%lu,\"mb_s\":%.1f,"
			    "\"frame_bytes\":%zu}\n", name, median, min,
			    (unsigned long long)ac.calls,
			    (unsigned long long)ac.bytes, n, o->samples,
			    (double)c.flen * 1e3 / median, c.flen);
			fflush(stdout);
			wa_crypto_gcm_release(&c.gcm);
			free(c.frame);
			free(sealed);
		}
	return any;
}

/* ------------------------------------------------------------------------
 * perf.md P1-P3: prekey generation, storage and the connect path.
 *
 * prekey_gen_812: 812 X25519 key pairs as proto/eng.c's gen_prekeys()
 * makes them (32 bytes from the RNG per key, wa_crypto_x25519_base()),
 * written with their ids into one array of 68-byte records (struct
 * store_prekey: id, priv, pub), the form store_prekey_put() binds from;
 * no storage.  The RNG is libsodium's deterministic ChaCha20 stream with
 * a fixed seed (perf.md 3.0: fixed seeds), one call per key as the engine
 * makes one e->rng() call per key.  prekey_gen_812_2t does the same with
 * the second half of the keys on a worker thread that already exists
 * (as the libuv pool's would), pinned to the other CPU.
 *
 * prekey_store_812: store_prekey_put() of 812 pre-made records into
 * wachat.db in a fresh temporary directory (store_open(): WAL,
 * synchronous=NORMAL, ext4 or whatever $TMPDIR is on).  Before every
 * operation, outside the timed region, store_device_forget() empties the
 * prekey table, so each operation stores 812 fresh ids (1..812) into an
 * empty table, as a first upload does.
 *
 * prekey_connect_path[_2t]: what proto/eng.c's upload_prekeys() does for a
 * first upload, less the socket: calloc the 812 keys, read the next id
 * (store_prekey_next_id), generate (P1, one or two threads), store (P2),
 * build the upload iq of protocol.md 7.3 in a fresh arena and encode it
 * into a fresh buffer (send_node()'s wa_bin_encode), wipe and free.
 *
 * What-if variants, for the refactor the numbers argue for (they measure
 * code that proto/ does not have yet): prekey_gen_812_ref10[_2t] make
 * the same public keys with libsignal-protocol-c's exported ref10
 * curve25519_keygen (checked at setup); prekey_upload_iq is the iq alone
 * as send_upload() builds it, prekey_upload_iq_sized the same bytes from
 * one sized arena chunk and a reserved buffer, children built in place;
 * prekey_connect_path_tuned is P3 with ref10 on two threads and the sized
 * iq.  Only the first three (and the _2t) are perf.md's P1-P3.
 *
 * Every operation is timed on its own, so the reset between them stays
 * out of the time; a sample is the mean of n operations.  "allocs" counts
 * the whole process; "allocs_excl_sqlite" subtracts the calls SQLite made
 * through its malloc methods (sqlite3_config(SQLITE_CONFIG_MALLOC) with a
 * counting wrapper, installed in main() before any SQLite call).
 * ------------------------------------------------------------------------ */

#define PK_N		812	/* WA_ENG_PREKEY_FIRST */

/* SQLite's own allocator calls, counted around the same operation as
 * alloc-count.c's. */
static sqlite3_mem_methods	 sq_def;
static bool			 sq_counting;
static uint64_t			 sq_calls, sq_bytes;

static void *
sq_malloc(int n)
{
	if (sq_counting) {
		sq_calls++;
		sq_bytes += (uint64_t)n;
	}
	return sq_def.xMalloc(n);
}

static void *
sq_realloc(void *p, int n)
{
	if (sq_counting) {
		sq_calls++;
		sq_bytes += (uint64_t)n;
	}
	return sq_def.xRealloc(p, n);
}

static void
sq_free(void *p)
{
	sq_def.xFree(p);
}

static int
sq_size(void *p)
{
	return sq_def.xSize(p);
}

static int
sq_roundup(int n)
{
	return sq_def.xRoundup(n);
}

static int
sq_init(void *arg)
{
	return sq_def.xInit(arg);
}

static void
sq_shutdown(void *arg)
{
	sq_def.xShutdown(arg);
}

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

struct pk_job {
	struct store_prekey	*k;
	size_t			 from, to;
	uint32_t		 first_id;
	bool			 ref10;
};

struct pk_ctx {
	struct store		*st;
	char			 dir[256];
	struct store_prekey	*keys;		/* P2's pre-made records */
	struct store_prekey	*gen;		/* P1's output */
	uint8_t			 seed[randombytes_SEEDBYTES];
	uint32_t		 first_id;	/* P1's next id */
	size_t			 wire_len;	/* P3's last encoded iq */
	/* The device's part of the iq. */
	uint32_t		 reg_id, spk_id;
	uint8_t			 identity_pub[32], spk_pub[32], spk_sig[64];
	/* The worker of the _2t variants. */
	pthread_t		 worker;
	pthread_mutex_t		 mu;
	pthread_cond_t		 cv;
	struct pk_job		 job;
	bool			 job_ready, job_done, quit, have_worker;
	bool			 two_cpus;	/* worker pinned to another CPU */
	int			 worker_cpu;
};

/* Keys k[from..to) with ids first_id + i (wrapping as protocol.md 7.3),
 * as gen_prekeys() makes them: 32 bytes from the RNG (here a ChaCha20
 * stream keyed by the seed and the id, one call per key), then the public
 * key. */
/* libsignal-protocol-c's ref10 fixed-base keygen (exported; perf.md 1 and
 * 2.1: 23 us against libsodium's 31-42 us).  It expects a clamped scalar. */
void	curve25519_keygen(unsigned char *pub, const unsigned char *priv);

static void
pk_x25519_base_ref10(const uint8_t priv[STORE_KEY_LEN],
    uint8_t pub[STORE_KEY_LEN])
{
	uint8_t	 e[STORE_KEY_LEN];

	memcpy(e, priv, sizeof(e));
	e[0] &= 248;
	e[31] &= 127;
	e[31] |= 64;
	curve25519_keygen(pub, e);
	wa_crypto_wipe(e, sizeof(e));
}

static void
pk_gen_range(const uint8_t seed[randombytes_SEEDBYTES], struct store_prekey *k,
    size_t from, size_t to, uint32_t first_id, bool ref10)
{
	uint8_t		 s[randombytes_SEEDBYTES];
	size_t		 i;

	memcpy(s, seed, sizeof(s));
	for (i = from; i < to; i++) {
		uint32_t	 id = first_id + (uint32_t)i;

		if (id > STORE_PREKEY_ID_MAX)
			id -= STORE_PREKEY_ID_MAX;
		k[i].id = id;
		memcpy(s, &id, sizeof(id));
		randombytes_buf_deterministic(k[i].priv, STORE_KEY_LEN, s);
		if (ref10)
			pk_x25519_base_ref10(k[i].priv, k[i].pub);
		else
			wa_crypto_x25519_base(k[i].priv, k[i].pub);
	}
	wa_crypto_wipe(s, sizeof(s));
}

static void *
pk_worker(void *arg)
{
	struct pk_ctx	*c = arg;
	struct pk_job	 j;

	pthread_mutex_lock(&c->mu);
	for (;;) {
		while (!c->job_ready && !c->quit)
			pthread_cond_wait(&c->cv, &c->mu);
		if (c->quit)
			break;
		j = c->job;
		c->job_ready = false;
		pthread_mutex_unlock(&c->mu);
		pk_gen_range(c->seed, j.k, j.from, j.to, j.first_id, j.ref10);
		pthread_mutex_lock(&c->mu);
		c->job_done = true;
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* Generate n keys into k: the first half here, the second on the worker
 * when there is one. */
static void
pk_gen(struct pk_ctx *c, struct store_prekey *k, size_t n, uint32_t first_id,
    bool two, bool ref10)
{
	size_t	 half = n / 2;

	if (!two || !c->have_worker) {
		pk_gen_range(c->seed, k, 0, n, first_id, ref10);
		return;
	}
	pthread_mutex_lock(&c->mu);
	c->job.k = k;
	c->job.from = half;
	c->job.to = n;
	c->job.first_id = first_id;
	c->job.ref10 = ref10;
	c->job_done = false;
	c->job_ready = true;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	pk_gen_range(c->seed, k, 0, half, first_id, ref10);
	pthread_mutex_lock(&c->mu);
	while (!c->job_done)
		pthread_cond_wait(&c->cv, &c->mu);
	pthread_mutex_unlock(&c->mu);
}

static uint32_t
pk_advance(uint32_t id, size_t n)
{
	id += (uint32_t)n;
	return id > STORE_PREKEY_ID_MAX ? id - STORE_PREKEY_ID_MAX : id;
}

BENCH_OP static int
bench_prekey_gen_812_op(struct pk_ctx *c)
{
	pk_gen(c, c->gen, PK_N, c->first_id, false, false);
	c->first_id = pk_advance(c->first_id, PK_N);
	return 0;
}

BENCH_OP static int
bench_prekey_gen_812_2t_op(struct pk_ctx *c)
{
	pk_gen(c, c->gen, PK_N, c->first_id, true, false);
	c->first_id = pk_advance(c->first_id, PK_N);
	return 0;
}

/* What-if variants: libsignal's ref10 keygen instead of libsodium's. */
BENCH_OP static int
bench_prekey_gen_812_ref10_op(struct pk_ctx *c)
{
	pk_gen(c, c->gen, PK_N, c->first_id, false, true);
	c->first_id = pk_advance(c->first_id, PK_N);
	return 0;
}

BENCH_OP static int
bench_prekey_gen_812_ref10_2t_op(struct pk_ctx *c)
{
	pk_gen(c, c->gen, PK_N, c->first_id, true, true);
	c->first_id = pk_advance(c->first_id, PK_N);
	return 0;
}

BENCH_OP static int
bench_prekey_store_812_op(struct pk_ctx *c)
{
	return store_prekey_put(c->st, c->keys, PK_N);
}

/* Node building as proto/eng.c does it (mk, attr, kids, kid, set_bytes:
 * static there, copied here). */
static struct wa_node *
pk_mk(struct arena *a, const char *tag, size_t maxattrs)
{
	struct wa_node	*n = arena_alloc(a, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->tag = wa_str_c(tag);
	if (maxattrs > 0) {
		n->attrs = arena_alloc(a, maxattrs * sizeof(*n->attrs));
		memset(n->attrs, 0, maxattrs * sizeof(*n->attrs));
	}
	return n;
}

static void
pk_attr(struct wa_node *n, const char *key, const char *val)
{
	struct wa_attr	*at = &n->attrs[n->nattrs++];

	at->key = wa_str_c(key);
	at->val.kind = WA_VAL_STR;
	at->val.u.str = wa_str_c(val);
}

static struct wa_node *
pk_kids(struct arena *a, struct wa_node *n, size_t count)
{
	n->content.kind = WA_VAL_LIST;
	n->content.u.list.n = count;
	n->content.u.list.v = arena_alloc(a, count * sizeof(struct wa_node));
	memset(n->content.u.list.v, 0, count * sizeof(struct wa_node));
	return n->content.u.list.v;
}

static struct wa_node *
pk_kid(struct arena *a, struct wa_node *c, const char *tag)
{
	*c = *pk_mk(a, tag, 0);
	return c;
}

/* pk_kid() without the throwaway node mk() makes in the arena. */
static struct wa_node *
pk_kid_lean(struct arena *a, struct wa_node *c, const char *tag)
{
	(void)a;
	memset(c, 0, sizeof(*c));
	c->tag = wa_str_c(tag);
	return c;
}

static void
pk_bytes(struct wa_node *n, const void *p, size_t len)
{
	n->content.kind = WA_VAL_BYTES;
	n->content.u.str.p = p;
	n->content.u.str.len = len;
}

static void
pk_put3(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

/* The upload iq of protocol.md 7.3, as send_upload() builds it, encoded
 * into out. */
static int
pk_upload_iq(struct pk_ctx *c, struct arena *a, const struct store_prekey *k,
    size_t n, struct buf *out, bool lean)
{
	struct wa_node	*(*pk_kid_)(struct arena *, struct wa_node *,
			    const char *) = lean ? pk_kid_lean : pk_kid;
	struct wa_node	*iq, *ch, *list, *keys, *sk;
	struct wa_attr	*at;
	uint8_t		*reg, *type, *spk_id, *ids;
	size_t		 i;

	iq = pk_mk(a, "iq", 5);
	pk_attr(iq, "id", "3EB0B4305C3F1D2A.42");
	pk_attr(iq, "xmlns", "encrypt");
	pk_attr(iq, "type", "set");
	at = &iq->attrs[iq->nattrs++];
	at->key = wa_str_c("to");
	at->val.kind = WA_VAL_JID;
	at->val.u.jid.server = wa_str_c("s.whatsapp.net");
	ch = pk_kids(a, iq, 5);
	reg = arena_alloc(a, 4 + 1 + 3);
	type = reg + 4;
	spk_id = reg + 5;
	reg[0] = (uint8_t)(c->reg_id >> 24);
	reg[1] = (uint8_t)(c->reg_id >> 16);
	reg[2] = (uint8_t)(c->reg_id >> 8);
	reg[3] = (uint8_t)c->reg_id;
	*type = 0x05;
	pk_bytes(pk_kid_(a, &ch[0], "registration"), reg, 4);
	pk_bytes(pk_kid_(a, &ch[1], "type"), type, 1);
	pk_bytes(pk_kid_(a, &ch[2], "identity"), c->identity_pub, 32);
	list = pk_kid_(a, &ch[3], "list");
	keys = pk_kids(a, list, n);
	ids = arena_alloc(a, 3 * n);
	for (i = 0; i < n; i++) {
		struct wa_node	*kv = pk_kids(a, pk_kid_(a, &keys[i], "key"), 2);

		pk_put3(ids + 3 * i, k[i].id);
		pk_bytes(pk_kid_(a, &kv[0], "id"), ids + 3 * i, 3);
		pk_bytes(pk_kid_(a, &kv[1], "value"), k[i].pub, STORE_KEY_LEN);
	}
	sk = pk_kids(a, pk_kid_(a, &ch[4], "skey"), 3);
	pk_put3(spk_id, c->spk_id);
	pk_bytes(pk_kid_(a, &sk[0], "id"), spk_id, 3);
	pk_bytes(pk_kid_(a, &sk[1], "value"), c->spk_pub, 32);
	pk_bytes(pk_kid_(a, &sk[2], "signature"), c->spk_sig, 64);
	return wa_bin_encode(iq, out);
}

/* The sized iq's arena (a key is 3 nodes and 3 id bytes, rounded up) and
 * wire bytes (a key encodes to 50 bytes; 40,813 for 812). */
#define PK_IQ_ARENA(n)	(4096 + (n) * (3 * sizeof(struct wa_node) + 16))
#define PK_IQ_WIRE(n)	(256 + (n) * 51)

/* upload_prekeys() + gen_prekeys() + send_upload() for a first upload,
 * without the pending query and the socket.  tuned: what-if for the
 * proposed refactor, ref10 keygen and the sized iq (see above). */
static int
pk_connect_path(struct pk_ctx *c, bool two, bool tuned)
{
	struct store_prekey	*k;
	struct arena		 a;
	struct buf		 out = BUF_INIT;
	uint32_t		 id;
	int			 rc;

	k = xcalloc(PK_N, sizeof(*k));
	if ((rc = store_prekey_next_id(c->st, &id)) != 0)
		goto done;
	pk_gen(c, k, PK_N, id, two, tuned);
	if ((rc = store_prekey_put(c->st, k, PK_N)) != 0)
		goto done;
	arena_init(&a, tuned ? PK_IQ_ARENA(PK_N) : 0);
	if (tuned)
		buf_reserve(&out, PK_IQ_WIRE(PK_N));
	rc = pk_upload_iq(c, &a, k, PK_N, &out, tuned);
	c->wire_len = out.len;
	wa_crypto_wipe(out.p, out.len);
	buf_release(&out);
	arena_release(&a);
done:
	wa_crypto_wipe(k, PK_N * sizeof(*k));
	free(k);
	return rc;
}

/* The upload iq alone: built as send_upload() does (16 KiB arena chunks,
 * a throwaway node per child, an empty buffer), or sized: one arena chunk
 * and the buffer reserved up front, children built in place. */
BENCH_OP static int
bench_prekey_upload_iq_op(struct pk_ctx *c)
{
	struct arena	 a;
	struct buf	 out = BUF_INIT;
	int		 rc;

	arena_init(&a, 0);
	rc = pk_upload_iq(c, &a, c->keys, PK_N, &out, false);
	c->wire_len = out.len;
	wa_crypto_wipe(out.p, out.len);
	buf_release(&out);
	arena_release(&a);
	return rc;
}

BENCH_OP static int
bench_prekey_upload_iq_sized_op(struct pk_ctx *c)
{
	struct arena	 a;
	struct buf	 out = BUF_INIT;
	int		 rc;

	arena_init(&a, PK_IQ_ARENA(PK_N));
	buf_reserve(&out, PK_IQ_WIRE(PK_N));
	rc = pk_upload_iq(c, &a, c->keys, PK_N, &out, true);
	c->wire_len = out.len;
	wa_crypto_wipe(out.p, out.len);
	buf_release(&out);
	arena_release(&a);
	return rc;
}

BENCH_OP static int
bench_prekey_connect_path_op(struct pk_ctx *c)
{
	return pk_connect_path(c, false, false);
}

BENCH_OP static int
bench_prekey_connect_path_2t_op(struct pk_ctx *c)
{
	return pk_connect_path(c, true, false);
}

BENCH_OP static int
bench_prekey_connect_path_tuned_op(struct pk_ctx *c)
{
	return pk_connect_path(c, true, true);
}

/* Untimed, before each storing operation: an empty prekey table, the next
 * id back to 1, and P2's records renumbered from there. */
static int
pk_reset(struct pk_ctx *c)
{
	uint32_t	 id;
	size_t		 i;
	int		 rc;

	if ((rc = store_device_forget(c->st)) != 0 ||
	    (rc = store_prekey_next_id(c->st, &id)) != 0)
		return rc;
	for (i = 0; i < PK_N; i++)
		c->keys[i].id = pk_advance(id, i);
	return 0;
}

struct pk_bench {
	const char	*name;
	int		(*op)(struct pk_ctx *);
	bool		 store;		/* pk_reset() before each op */
	bool		 two;		/* needs the worker */
	bool		 sqlite;	/* report allocs_excl_sqlite */
};

static const struct pk_bench PK_BENCHES[] = {
	{ "prekey_gen_812", bench_prekey_gen_812_op, false, false, false },
	{ "prekey_gen_812_2t", bench_prekey_gen_812_2t_op, false, true, false },
	{ "prekey_store_812", bench_prekey_store_812_op, true, false, true },
	{ "prekey_gen_812_ref10", bench_prekey_gen_812_ref10_op, false, false,
	    false },
	{ "prekey_gen_812_ref10_2t", bench_prekey_gen_812_ref10_2t_op, false,
	    true, false },
	{ "prekey_upload_iq", bench_prekey_upload_iq_op, false, false, false },
	{ "prekey_upload_iq_sized", bench_prekey_upload_iq_sized_op, false,
	    false, false },
	{ "prekey_connect_path", bench_prekey_connect_path_op, true, false,
	    true },
	{ "prekey_connect_path_2t", bench_prekey_connect_path_2t_op, true, true,
	    true },
	{ "prekey_connect_path_tuned", bench_prekey_connect_path_tuned_op, true,
	    true, true },
};

/* Mean ns per operation over n operations, each timed on its own. */
static double
pk_time(const struct pk_bench *b, struct pk_ctx *c, unsigned long n)
{
	double		 sum = 0, t0;
	unsigned long	 i;
	int		 rc;

	for (i = 0; i < n; i++) {
		if (b->store && (rc = pk_reset(c)) != 0)
			die("cannot empty the prekey table", wc_strerror(rc));
		t0 = now_ns();
		rc = b->op(c);
		sum += now_ns() - t0;
		if (rc != 0)
			die(b->name, wc_strerror(rc));
	}
	return sum / (double)n;
}

static void
pk_run(const struct pk_bench *b, struct pk_ctx *c, const struct options *o)
{
	struct alloc_count	 ac;
	struct rusage		 ru0, ru1;
	double			*t, per, median;
	unsigned long		 n, s;
	uint64_t		 sqc, sqb;
	int			 rc;

	(void)pk_time(b, c, 2);				/* warm */
	if (b->store && (rc = pk_reset(c)) != 0)
		die("cannot empty the prekey table", wc_strerror(rc));
	sq_calls = sq_bytes = 0;
	(void)getrusage(RUSAGE_SELF, &ru0);
	sq_counting = true;
	alloc_count_start();
	rc = b->op(c);
	alloc_count_stop(&ac);
	sq_counting = false;
	(void)getrusage(RUSAGE_SELF, &ru1);
	sqc = sq_calls;
	sqb = sq_bytes;
	if (rc != 0)
		die(b->name, wc_strerror(rc));
	if ((n = o->iters) == 0) {
		per = pk_time(b, c, 1);
		n = per >= SAMPLE_NS ? 1 : (unsigned long)(SAMPLE_NS / per);
	}
	t = xcalloc(o->samples, sizeof(*t));
	for (s = 0; s < o->samples; s++)
		t[s] = pk_time(b, c, n);
	qsort(t, o->samples, sizeof(*t), cmp_double);
	median = o->samples % 2 == 1 ? t[o->samples / 2] :
	    (t[o->samples / 2 - 1] + t[o->samples / 2]) / 2;
	printf("{\"name\":\"%s\",\"median_ns\":%.1f,\"min_ns\":%.1f,"
	    "\"allocs\":%llu,\"bytes\":%llu,", b->name, median, t[0],
	    (unsigned long long)ac.calls, (unsigned long long)ac.bytes);
	if (b->sqlite)
		printf("\"allocs_excl_sqlite\":%llu,\"sqlite_allocs\":%llu,"
		    "\"sqlite_bytes\":%llu,",
		    (unsigned long long)(ac.calls >= sqc ? ac.calls - sqc : 0),
		    (unsigned long long)sqc, (unsigned long long)sqb);
	if (b->two)
		printf("\"threads\":%d,\"cpus\":%d,", c->have_worker ? 2 : 1,
		    c->two_cpus ? 2 : 1);
	if (strncmp(b->name, "prekey_connect_path", 19) == 0 ||
	    strncmp(b->name, "prekey_upload_iq", 16) == 0)
		printf("\"wire_bytes\":%zu,", c->wire_len);
	/* Page faults of the counted operation: freed memory that glibc gave
	 * back (MALLOC_TRIM_THRESHOLD_) is faulted in again by the next. */
	printf("\"minor_faults\":%ld,", ru1.ru_minflt - ru0.ru_minflt);
	printf("\"keys\":%d,\"median_ms\":%.3f,\"iters\":%lu,\"samples\":%lu}\n",
	    PK_N, median / 1e6, n, o->samples);
	fflush(stdout);
	free(t);
}

/* Pin the calling thread to one CPU; false when it cannot be. */
static bool
pk_pin(int cpu)
{
	cpu_set_t	 set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return pthread_setaffinity_np(pthread_self(), sizeof(set), &set) == 0;
}

static void *
pk_worker_start(void *arg)
{
	struct pk_ctx	*c = arg;

	(void)pk_pin(c->worker_cpu);
	return pk_worker(c);
}

static bool
pk_selected(const struct options *o, const char *name)
{
	if (o->only == NULL)
		return true;
	return strcmp(o->only, name) == 0 ||
	    (strcmp(o->only, "prekey") == 0 && strncmp(name, "prekey_", 7) == 0);
}

/* The number of prekey benches in PK_BENCHES. */
#define PK_NBENCHES	(sizeof(PK_BENCHES) / sizeof(PK_BENCHES[0]))

/* Whether --only selects any prekey bench; *two is set when one of those
 * needs the worker. */
static bool
pk_any_selected(const struct options *o, bool *two)
{
	bool	 any = false;
	size_t	 i;

	*two = false;
	for (i = 0; i < PK_NBENCHES; i++)
		if (pk_selected(o, PK_BENCHES[i].name)) {
			any = true;
			*two |= PK_BENCHES[i].two;
		}
	return any;
}

/* The fixed device (seed, ids, identity and signed prekey) and the 812
 * pre-made records in c->keys; dies when the ref10 keygen makes other
 * public keys than libsodium's. */
static void
pk_ctx_init(struct pk_ctx *c)
{
	size_t	 i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < sizeof(c->seed); i++)
		c->seed[i] = (uint8_t)(i * 37 + 11);
	c->first_id = 1;
	c->reg_id = 0x1234;
	c->spk_id = 1;
	for (i = 0; i < 32; i++) {
		c->identity_pub[i] = (uint8_t)(i + 1);
		c->spk_pub[i] = (uint8_t)(i + 101);
	}
	for (i = 0; i < 64; i++)
		c->spk_sig[i] = (uint8_t)(i + 201);
	c->gen = xcalloc(PK_N, sizeof(*c->gen));
	c->keys = xcalloc(PK_N, sizeof(*c->keys));
	pk_gen_range(c->seed, c->keys, 0, PK_N, 1, false);
	/* The ref10 variants must make the same public keys. */
	pk_gen_range(c->seed, c->gen, 0, PK_N, 1, true);
	for (i = 0; i < PK_N; i++)
		if (memcmp(c->gen[i].pub, c->keys[i].pub, STORE_KEY_LEN) != 0)
			die("ref10 and libsodium keygen disagree", NULL);
}

/* The sized iq must be the same bytes as the engine's; and the iq must
 * decode to 5 children, the list holding the 812 keys.  Dies otherwise. */
static void
pk_check_iq(struct pk_ctx *c)
{
	struct arena	 a1, a2;
	struct buf	 w1 = BUF_INIT, w2 = BUF_INIT;
	struct wa_node	*d;

	arena_init(&a1, 0);
	arena_init(&a2, PK_IQ_ARENA(PK_N));
	if (pk_upload_iq(c, &a1, c->keys, PK_N, &w1, false) != 0 ||
	    pk_upload_iq(c, &a2, c->keys, PK_N, &w2, true) != 0 ||
	    w1.len != w2.len || memcmp(w1.p, w2.p, w1.len) != 0)
		die("the sized upload iq differs from the engine's", NULL);
	arena_reset(&a1);
	if (wa_bin_decode(w1.p, w1.len, &a1, &d, NULL) != 0 ||
	    d->content.kind != WA_VAL_LIST ||
	    d->content.u.list.n != 5 ||
	    d->content.u.list.v[3].content.kind != WA_VAL_LIST ||
	    d->content.u.list.v[3].content.u.list.n != PK_N)
		die("the upload iq does not decode as built", NULL);
	buf_release(&w1);
	buf_release(&w2);
	arena_release(&a1);
	arena_release(&a2);
}

/* A store in a fresh directory under $TMPDIR (or /tmp); dies on error. */
static void
pk_store_open(struct pk_ctx *c)
{
	const char	*tmp;
	int		 rc;

	if ((tmp = getenv("TMPDIR")) == NULL || *tmp == '\0')
		tmp = "/tmp";
	snprintf(c->dir, sizeof(c->dir), "%s/wachat-bench-store.XXXXXX", tmp);
	if (mkdtemp(c->dir) == NULL)
		die(c->dir, strerror(errno));
	if ((rc = store_open(c->dir, &c->st)) != 0)
		die("store_open", wc_strerror(rc));
}

/*
 * Start the worker of the _2t benches.  This thread stays on the CPU it
 * runs on (run.sh pins it to CPU 1), the worker goes to CPU 0, or 1 when
 * this is 0; *mine gets this thread's affinity before, for pk_worker_stop().
 * Without a worker (c->have_worker false) the _2t benches run on one
 * thread; a warning on stderr says so, or that they share one CPU.
 */
static void
pk_worker_spawn(struct pk_ctx *c, cpu_set_t *mine)
{
	int	 rc, cur;

	if ((cur = sched_getcpu()) < 0)
		cur = 1;
	c->worker_cpu = cur == 0 ? 1 : 0;
	CPU_ZERO(mine);
	(void)pthread_getaffinity_np(pthread_self(), sizeof(*mine), mine);
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	if (sysconf(_SC_NPROCESSORS_ONLN) >= 2 && pk_pin(cur)) {
		c->two_cpus = true;
		rc = pthread_create(&c->worker, NULL, pk_worker_start, c);
	} else
		rc = pthread_create(&c->worker, NULL, pk_worker, c);
	c->have_worker = rc == 0;
	if (!c->have_worker)
		fprintf(stderr, "bench: no worker thread: the _2t "
		    "benches run on one thread\n");
	else if (!c->two_cpus)
		fprintf(stderr, "bench: one CPU only: the _2t benches "
		    "share it\n");
}

/* Stop and join the worker, if any, and give this thread back the
 * affinity *mine that pk_worker_spawn() saved. */
static void
pk_worker_stop(struct pk_ctx *c, const cpu_set_t *mine)
{
	if (!c->have_worker)
		return;
	pthread_mutex_lock(&c->mu);
	c->quit = true;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	pthread_join(c->worker, NULL);
	(void)pthread_setaffinity_np(pthread_self(), sizeof(*mine), mine);
}

/* Close the store, remove its files and directory (a warning on stderr
 * when the directory stays), wipe and free the keys. */
static void
pk_ctx_release(struct pk_ctx *c)
{
	static const char *const f[] = { "wachat.db", "wachat.db-wal",
	    "wachat.db-shm" };
	char		 path[300];
	size_t		 i;

	store_close(c->st);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", c->dir, f[i]);
		(void)unlink(path);
	}
	if (rmdir(c->dir) != 0)
		fprintf(stderr, "bench: cannot remove %s: %s\n", c->dir,
		    strerror(errno));
	wa_crypto_wipe(c->gen, PK_N * sizeof(*c->gen));
	wa_crypto_wipe(c->keys, PK_N * sizeof(*c->keys));
	free(c->gen);
	free(c->keys);
}

/*
 * perf.md P1-P3.  Returns whether any was selected by --only ("prekey"
 * selects them all; "prekey_gen_812" only that one).
 */
static bool
bench_prekey(const struct options *o)
{
	struct pk_ctx	 c;
	cpu_set_t	 mine;
	bool		 two;
	size_t		 i;

	if (!pk_any_selected(o, &two))
		return false;
	pk_ctx_init(&c);
	pk_check_iq(&c);
	pk_store_open(&c);
	if (two)
		pk_worker_spawn(&c, &mine);
	for (i = 0; i < PK_NBENCHES; i++)
		if (pk_selected(o, PK_BENCHES[i].name))
			pk_run(&PK_BENCHES[i], &c, o);
	pk_worker_stop(&c, &mine);
	pk_ctx_release(&c);
	return true;
}

/* Whether --only selects the bench kind/fixture: its exact name, or a
 * prefix of it that ends where a '/' begins. */
static bool
selected(const struct options *o, enum bench_kind kind, const char *fixture)
{
	const char	*k = KIND_NAME[kind];
	size_t		 klen = strlen(k), olen;

	if (o->only == NULL)
		return true;
	olen = strlen(o->only);
	if (strncmp(o->only, k, olen < klen ? olen : klen) != 0)
		return false;
	if (olen <= klen)
		return olen == klen;
	if (o->only[klen] != '/')
		return false;
	return strcmp(o->only + klen + 1, fixture) == 0;
}

static bool
wanted(const struct options *o, const char *fixture)
{
	return selected(o, BENCH_DECODE, fixture) ||
	    selected(o, BENCH_ENCODE, fixture) ||
	    (strcmp(fixture, "small") == 0 &&
	    selected(o, BENCH_ROUNDTRIP, fixture));
}

/*
 * The fixture's name from the start of its line ({"name":"ack",...}, as
 * gen-fixtures.mjs writes it), so that --only skips parsing the others.
 * NULL when the line does not start that way.
 */
static char *
quick_name(const char *line)
{
	static const char	 pre[] = "{\"name\":\"";
	const char		*end;
	char			*s;

	if (strncmp(line, pre, sizeof(pre) - 1) != 0)
		return NULL;
	line += sizeof(pre) - 1;
	if ((end = strchr(line, '"')) == NULL)
		return NULL;
	s = xmalloc((size_t)(end - line) + 1);
	memcpy(s, line, (size_t)(end - line));
	s[end - line] = '\0';
	return s;
}

static struct fixture *
load_fixtures(const struct options *o, struct arena *a)
{
	struct fixture		*head = NULL, **tail = &head, *f;
	struct json_tokener	*tok = json_tokener_new_ex(2000);
	struct json_object	*j, *v;
	FILE			*fp;
	char			*line = NULL, *name, err[128];
	size_t			 cap = 0;
	ssize_t			 len;
	int			 rc;

	if ((fp = fopen(o->fixtures, "r")) == NULL)
		die(o->fixtures, strerror(errno));
	while ((len = getline(&line, &cap, fp)) > 0) {
		if (line[0] == '\n')
			continue;
		if ((name = quick_name(line)) != NULL && !wanted(o, name)) {
			free(name);
			continue;
		}
		json_tokener_reset(tok);
		j = json_tokener_parse_ex(tok, line, (int)len);
		if (j == NULL)
			die(o->fixtures, "a line is not JSON");
		if (name == NULL) {
			if (!json_object_object_get_ex(j, "name", &v))
				die(o->fixtures, "a fixture has no name");
			name = xstrdup(json_object_get_string(v));
		}
		if (!wanted(o, name)) {
			free(name);
			json_object_put(j);
			continue;
		}
		f = xcalloc(1, sizeof(*f));
		f->name = name;
		if (node_from_json(j, a, &f->tree, err, sizeof(err)) != 0)
			die(name, err);
		if ((rc = wa_bin_encode(f->tree, &f->wire)) != 0)
			die(name, wc_strerror(rc));
		json_object_put(j);
		*tail = f;
		tail = &f->next;
	}
	free(line);
	fclose(fp);
	json_tokener_free(tok);
	return head;
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
	fputs("usage: bench [--only NAME] [--iters N] [--samples S] "
	    "[--fixtures FILE]\n", stderr);
	exit(2);
}

int
main(int argc, char **argv)
{
	static const struct option	 longopts[] = {
		{ "only", required_argument, NULL, 'o' },
		{ "iters", required_argument, NULL, 'n' },
		{ "samples", required_argument, NULL, 's' },
		{ "fixtures", required_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct options	 o = { NULL, BENCH_FIXTURES, 0, 15, false };
	struct fixture	*fixtures, *f, *next;
	struct arena	 trees;
	bool		 any = false;
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
		case 'f':
			o.fixtures = optarg;
			break;
		default:
			usage();
		}
	}
	if (optind != argc)
		usage();

	/* Before any SQLite call (perf.md 3.0: allocations excluding
	 * SQLite's). */
	sqlite_count_install();
	if (!(o.counting = alloc_count_is_active()))
		fputs("bench: malloc does not reach the counter (a valgrind "
		    "tool?): allocs and bytes are not counted\n", stderr);
	if (wa_crypto_init() != 0)
		die("cannot initialise the crypto libraries", NULL);
	arena_init(&trees, 0);
	/* The prekey benches need no fixtures. */
	fixtures = o.only != NULL && strncmp(o.only, "prekey", 6) == 0 ? NULL :
	    load_fixtures(&o, &trees);
	for (f = fixtures; f != NULL; f = f->next)
		if (selected(&o, BENCH_DECODE, f->name)) {
			bench_one(BENCH_DECODE, f, &o);
			any = true;
		}
	for (f = fixtures; f != NULL; f = f->next)
		if (selected(&o, BENCH_ENCODE, f->name)) {
			bench_one(BENCH_ENCODE, f, &o);
			any = true;
		}
	for (f = fixtures; f != NULL; f = f->next)
		if (strcmp(f->name, "small") == 0 &&
		    selected(&o, BENCH_ROUNDTRIP, f->name)) {
			bench_one(BENCH_ROUNDTRIP, f, &o);
			any = true;
		}
	if (bench_noise(&o))
		any = true;
	if (bench_prekey(&o))
		any = true;
	for (f = fixtures; f != NULL; f = next) {
		next = f->next;
		buf_release(&f->wire);
		free(f->name);
		free(f);
	}
	arena_release(&trees);
	if (!any)
		die("no bench matches", o.only != NULL ? o.only : "");
	return 0;
}
