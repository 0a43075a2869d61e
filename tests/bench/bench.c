/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench.c -- the benchmark harness of perf.md 3.0 for the node
 * codec (benches C1 and C2 of perf.md 3.1):
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
 * so callgrind can collect on it (tests/bench/run.sh).  Single-threaded.
 */
#include "compat.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc-count.h"
#include "arena.h"
#include "bin.h"
#include "buf.h"
#include "crypto.h"
#include "err.h"
#include "node-json.h"
#include "xmalloc.h"

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

	if (!(o.counting = alloc_count_is_active()))
		fputs("bench: malloc does not reach the counter (a valgrind "
		    "tool?): allocs and bytes are not counted\n", stderr);
	if (wa_crypto_init() != 0)
		die("cannot initialise the crypto libraries", NULL);
	arena_init(&trees, 0);
	fixtures = load_fixtures(&o, &trees);
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
