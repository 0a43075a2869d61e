/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-appstate-proto.c -- the protocol layer's app-state
 * sync benches (issue 18; proto/appstate.h; the store's are
 * tests/bench/bench-appstate.c), with the JSON lines of perf.md 3.0 (the schema of
 * tests/bench/bench-group.c):
 *
 *   bench-appstate-proto [--only NAME] [--iters N] [--samples S]
 *
 * appstate_snapshot_10k_decode: a decrypted snapshot blob of 10,000
 * contact records (["contact", jid] -> contactAction{fullName,
 * firstName}, as a first sync of critical_unblock_low brings them),
 * parsed (wa_as_snapshot_parse) and applied from zero
 * (wa_as_apply): every value MAC checked, every value decrypted, its
 * SyncActionData, index MAC and index JSON checked and its action decoded,
 * the LTHash of all 10,000 and the snapshot MAC.  No store: the changes
 * stay in the arena.
 *
 * appstate_patch_1_decode: one patch with one mute mutation, parsed and
 * applied on a state whose map lookup (the caller's wa_as_mac_fn) finds
 * nothing: value MAC, decrypt, decode, LTHash, snapshot and patch MAC.
 *
 * The blobs are built once before timing with wa_as_patch_encode(); each
 * operation resets one arena kept across operations (as a caller that
 * applies patch after patch would).  allocs/bytes count one warm
 * operation across the process.  Each operation is a function of its own
 * (bench_appstate_*_op) for callgrind's --toggle-collect
 * (tests/bench/run-appstate-proto.sh).  Single-threaded.
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

#include "alloc-count.h"
#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/appstate.h"
#include "proto/crypto.h"
#include "appstate.pb-c.h"

#if defined(__GNUC__) && !defined(__clang__)
#define BENCH_OP	__attribute__((noipa))
#else
#define BENCH_OP	__attribute__((noinline))
#endif

#define SAMPLE_NS	2e8
#define N_CONTACTS	10000

static const uint8_t KEY_ID[] = { 0, 0, 0, 0, 0, 1 };

struct ctx {
	struct wa_as_keys	 keys;
	struct buf		 blob;		/* snapshot or patch bytes */
	size_t			 records;
	bool			 snapshot;
	struct arena		 a;
};

static void
die(const char *what, const char *why)
{
	fprintf(stderr, "bench-appstate-proto: %s: %s\n", what, why);
	exit(1);
}

static int
key_fn(void *arg, const uint8_t *id, size_t len, struct wa_as_keys *out)
{
	struct ctx	*c = arg;

	if (len != sizeof(KEY_ID) || memcmp(id, KEY_ID, len) != 0)
		return 0;
	*out = c->keys;
	return 1;
}

static int
no_mac(void *arg, enum wa_as_coll coll, const uint8_t im[32], uint8_t vm[32])
{
	(void)arg;
	(void)coll;
	(void)im;
	(void)vm;
	return 0;
}

/* The snapshot of n contacts (or the patch of one mute) in c->blob. */
static void
ctx_new(struct ctx *c, bool snapshot)
{
	struct wa_as_action	*acts;
	struct wa_as_send	*m;
	struct wa_as_state	 st = { 0 }, ns;
	struct wa_as_change	*ch;
	struct buf		 pb = BUF_INIT;
	struct arena		 a;
	uint8_t			 kd[32], smac[32];
	size_t			 i, n = snapshot ? N_CONTACTS : 1, n_ch;
	char			(*jid)[40], (*name)[40];
	int			 rc;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < sizeof(kd); i++)
		kd[i] = (uint8_t)(i * 3 + 1);
	if (wa_as_keys_expand(kd, sizeof(kd), &c->keys) != 0)
		die("setup", "key expansion");
	acts = xcalloc(n, sizeof(*acts));
	m = xcalloc(n, sizeof(*m));
	jid = xcalloc(n, sizeof(*jid));
	name = xcalloc(n, sizeof(*name));
	for (i = 0; i < n; i++) {
		snprintf(jid[i], sizeof(jid[i]), "49151%07zu@s.whatsapp.net",
		    i);
		snprintf(name[i], sizeof(name[i]), "Kontakt Nummer %zu", i);
		if (snapshot) {
			acts[i].kind = WA_AS_ACT_CONTACT;
			acts[i].full_name = name[i];
			acts[i].first_name = "Kontakt";
		} else {
			acts[i].kind = WA_AS_ACT_MUTE;
			acts[i].flag = true;
			acts[i].mute_end_ms = 1700028800000;
		}
		acts[i].chat = jid[i];
		m[i].op = WA_AS_SET;
		m[i].action = &acts[i];
		memcpy(m[i].iv, &i, sizeof(i));
	}
	arena_init(&a, 1 << 20);
	rc = wa_as_patch_encode(&a, &c->keys, KEY_ID, sizeof(KEY_ID),
	    snapshot ? WA_AS_CRITICAL_UNBLOCK_LOW : WA_AS_REGULAR_HIGH, &st,
	    m, n, 1700000000000, no_mac, NULL, &pb, &ns, &ch, &n_ch);
	if (rc != 0)
		die("setup", wc_strerror(rc));
	if (snapshot) {
		/* The same records as a SyncdSnapshot at version 1, its MAC
		 * the snapshot MAC of the hash they give from zero. */
		Waas__SyncdPatch	*p;
		Waas__SyncdSnapshot	 s = WAAS__SYNCD_SNAPSHOT__INIT;
		Waas__SyncdVersion	 v = WAAS__SYNCD_VERSION__INIT;
		Waas__SyncdRecord	**r = xcalloc(n, sizeof(*r));
		size_t			 len;

		p = waas__syncd_patch__unpack(NULL, pb.len, pb.p);
		if (p == NULL || p->n_mutations != n)
			die("setup", "patch unpack");
		for (i = 0; i < n; i++)
			r[i] = p->mutations[i]->record;
		wa_as_snapshot_mac(&c->keys, ns.hash, 1,
		    WA_AS_CRITICAL_UNBLOCK_LOW, smac);
		v.has_version = true;
		v.version = 1;
		s.version = &v;
		s.n_records = n;
		s.records = r;
		s.has_mac = true;
		s.mac.data = smac;
		s.mac.len = 32;
		s.keyid = p->keyid;
		len = protobuf_c_message_get_packed_size(&s.base);
		buf_reserve(&c->blob, len);
		protobuf_c_message_pack(&s.base, c->blob.p);
		c->blob.len = len;
		waas__syncd_patch__free_unpacked(p, NULL);
		free(r);
	} else
		buf_append(&c->blob, pb.p, pb.len);
	c->records = n;
	c->snapshot = snapshot;
	buf_release(&pb);
	arena_release(&a);
	free(acts);
	free(m);
	free(jid);
	free(name);
	arena_init(&c->a, 1 << 20);
}

static int
check_out(const struct ctx *c, const struct wa_as_apply_out *out)
{
	size_t	 i;

	if (out->n_mutations != c->records || out->n_changes != c->records)
		return WC_EPROTO;
	for (i = 0; i < out->n_mutations; i++)
		if (out->mutations[i].err != 0 ||
		    out->mutations[i].action.kind == WA_AS_ACT_UNKNOWN)
			return WC_EPROTO;
	return 0;
}

BENCH_OP static int
bench_appstate_snapshot_10k_decode_op(struct ctx *c)
{
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_apply_out	 out;
	struct wa_as_snapshot	 s;
	struct wa_as_state	 st = { 0 };
	int			 rc;

	arena_reset(&c->a);
	if ((rc = wa_as_snapshot_parse(&c->a, c->blob.p, c->blob.len,
	    &s)) != 0)
		return rc;
	in.coll = WA_AS_CRITICAL_UNBLOCK_LOW;
	in.snapshot = true;
	in.records = s.records;
	in.n_records = s.n_records;
	in.key_id = s.key_id;
	in.key_id_len = s.key_id_len;
	in.version = s.version;
	in.snapshot_mac = s.mac;
	in.key_fn = key_fn;
	in.key_arg = c;
	if ((rc = wa_as_apply(&c->a, &in, &st, &out)) != 0)
		return rc;
	return check_out(c, &out);
}

BENCH_OP static int
bench_appstate_patch_1_decode_op(struct ctx *c)
{
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_apply_out	 out;
	struct wa_as_patch	 p;
	struct wa_as_state	 st = { 0 };
	int			 rc;

	arena_reset(&c->a);
	if ((rc = wa_as_patch_parse(&c->a, c->blob.p, c->blob.len, &p)) != 0)
		return rc;
	in.coll = WA_AS_REGULAR_HIGH;
	in.records = p.records;
	in.n_records = p.n_records;
	in.key_id = p.key_id;
	in.key_id_len = p.key_id_len;
	in.version = 1;
	in.snapshot_mac = p.snapshot_mac;
	in.patch_mac = p.patch_mac;
	in.key_fn = key_fn;
	in.key_arg = c;
	in.mac_fn = no_mac;
	if ((rc = wa_as_apply(&c->a, &in, &st, &out)) != 0)
		return rc;
	return check_out(c, &out);
}

static int
op(struct ctx *c)
{
	return c->snapshot ? bench_appstate_snapshot_10k_decode_op(c) :
	    bench_appstate_patch_1_decode_op(c);
}

struct options {
	const char	*only;
	unsigned long	 iters, samples;
};

static double
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static double
run(struct ctx *c, const char *name, unsigned long n, double *t)
{
	double		 sum = 0, t0, d;
	unsigned long	 i;
	int		 rc;

	for (i = 0; i < n; i++) {
		t0 = now_ns();
		rc = op(c);
		d = now_ns() - t0;
		if (rc != 0)
			die(name, wc_strerror(rc));
		sum += d;
		if (t != NULL)
			t[i] = d;
	}
	return sum / (double)n;
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void
bench_run(const char *name, bool snapshot, const struct options *o)
{
	struct ctx		*c = xmalloc(sizeof(*c));
	struct alloc_count	 ac;
	double			*all, *means, per;
	unsigned long		 n, s;
	size_t			 total;

	ctx_new(c, snapshot);
	(void)run(c, name, 3, NULL);	/* warm: the arena grows once */
	alloc_count_start();
	if (op(c) != 0)
		die(name, "the counted operation failed");
	alloc_count_stop(&ac);
	if ((n = o->iters) == 0) {
		per = run(c, name, snapshot ? 3 : 100, NULL);
		n = (unsigned long)(SAMPLE_NS / per);
		if (n < (snapshot ? 5ul : 100ul))
			n = snapshot ? 5 : 100;
		if (n > 20000)
			n = 20000;
	}
	total = (size_t)n * o->samples;
	all = xcalloc(total, sizeof(*all));
	means = xcalloc(o->samples, sizeof(*means));
	for (s = 0; s < o->samples; s++)
		means[s] = run(c, name, n, all + s * n);
	qsort(means, o->samples, sizeof(*means), cmp_double);
	qsort(all, total, sizeof(*all), cmp_double);
	printf("{\"name\":\"%s\",\"median_ns\":%.1f,\"min_ns\":%.1f,"
	    "\"p95_ns\":%.1f,\"p99_ns\":%.1f,\"allocs\":%llu,\"bytes\":%llu,",
	    name, o->samples % 2 == 1 ? means[o->samples / 2] :
	    (means[o->samples / 2 - 1] + means[o->samples / 2]) / 2, means[0],
	    all[(size_t)((double)total * 0.95)],
	    all[(size_t)((double)total * 0.99)],
	    (unsigned long long)ac.calls, (unsigned long long)ac.bytes);
	printf("\"records\":%zu,\"allocs_per_record\":%.4f,"
	    "\"ns_per_record\":%.1f,\"blob_bytes\":%zu,\"iters\":%lu,"
	    "\"samples\":%lu}\n", c->records,
	    (double)ac.calls / (double)c->records,
	    means[o->samples / 2] / (double)c->records, c->blob.len, n,
	    o->samples);
	fflush(stdout);
	free(all);
	free(means);
	buf_release(&c->blob);
	arena_release(&c->a);
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

int
main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "only", required_argument, NULL, 'o' },
		{ "iters", required_argument, NULL, 'i' },
		{ "samples", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct options	 o = { NULL, 0, 5 };
	int		 ch;

	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1)
		switch (ch) {
		case 'o': o.only = optarg; break;
		case 'i': o.iters = parse_count("--iters", optarg); break;
		case 's': o.samples = parse_count("--samples", optarg); break;
		default: die("usage", "bench-appstate-proto [--only NAME] "
		    "[--iters N] [--samples S]");
		}
	if (wa_crypto_init() != 0)
		die("wa_crypto_init", "failed");
	if (o.only == NULL ||
	    strcmp(o.only, "appstate_snapshot_10k_decode") == 0)
		bench_run("appstate_snapshot_10k_decode", true, &o);
	if (o.only == NULL || strcmp(o.only, "appstate_patch_1_decode") == 0)
		bench_run("appstate_patch_1_decode", false, &o);
	return 0;
}
