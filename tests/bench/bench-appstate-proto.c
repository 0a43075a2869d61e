/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-appstate-proto.c -- app-state sync's benches, the
 * protocol layer's and the whole path (issue 18; proto/appstate.h; the
 * store's alone are
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
 * appstate_snapshot_10k, appstate_patch_1: the whole path, the same
 * blobs received, verified and stored: the above, then the commit op
 * src/app-appstate.c binds over the store (app_as_ops(): one
 * store_as_commit() transaction into a database on disk, WAL, as wachat
 * runs it), the patch's MAC map looked up there (its mac_get op).  The
 * snapshot replaces the one stored before it (its MAC rows deleted, every
 * contact updated); before each patch (not timed) the MAC row the last
 * one stored is removed by a commit of its own, so each is a mute of a
 * chat not muted.  Exits 2 when appstate_snapshot_10k's median misses
 * the bar of 150 ms (issue 18).
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
#include "proto/appsync.h"
#include "proto/crypto.h"
#include "src/app-appstate.h"
#include "store/store.h"
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
	/* The whole path (appstate_snapshot_10k, appstate_patch_1): the
	 * store src/app-appstate.c binds, the version stored last and the
	 * index MAC the last patch stored. */
	struct store		*s;
	struct wa_appsync_store_ops ops;
	uint64_t		 ver;
	uint8_t			 im[WA_AS_MAC_LEN];
	bool			 have_im;
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

/* Parse and apply c's snapshot from zero into *st, *out. */
static int
snapshot_apply(struct ctx *c, struct wa_as_state *st,
    struct wa_as_apply_out *out)
{
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_snapshot	 s;
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
	memset(st, 0, sizeof(*st));
	if ((rc = wa_as_apply(&c->a, &in, st, out)) != 0)
		return rc;
	return check_out(c, out);
}

/* The store's MAC lookup (src/app-appstate.c's mac_get), as the engine's
 * wa_as_mac_fn does it. */
static int
store_mac(void *arg, enum wa_as_coll coll, const uint8_t im[32],
    uint8_t vm[32])
{
	struct ctx	*c = arg;

	return c->ops.mac_get(c->ops.arg, wa_as_coll_name(coll), im, vm);
}

/* Parse and apply c's patch on a zero state into *st, *out, the MAC map
 * looked up in the store when c has one (else nothing is found). */
static int
patch_apply(struct ctx *c, struct wa_as_state *st,
    struct wa_as_apply_out *out)
{
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_patch	 p;
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
	in.mac_fn = c->s != NULL ? store_mac : no_mac;
	in.mac_arg = c;
	memset(st, 0, sizeof(*st));
	if ((rc = wa_as_apply(&c->a, &in, st, out)) != 0)
		return rc;
	return check_out(c, out);
}

/* Store what was applied through src/app-appstate.c's commit op (one
 * store_as_commit() transaction), on the version stored last. */
static int
store_commit(struct ctx *c, struct wa_as_state *st,
    const struct wa_as_apply_out *out)
{
	struct wa_appsync_commit	 cm = { 0 };
	int				 rc;

	cm.coll = c->snapshot ? WA_AS_CRITICAL_UNBLOCK_LOW :
	    WA_AS_REGULAR_HIGH;
	cm.name = wa_as_coll_name(cm.coll);
	cm.snapshot = c->snapshot;
	cm.base_version = c->ver;
	st->version = c->ver + 1;
	cm.state = st;
	cm.out = out;
	if ((rc = c->ops.commit(c->ops.arg, &cm)) != 0)
		return rc;
	c->ver++;
	if (!c->snapshot && out->n_changes == 1) {
		memcpy(c->im, out->changes[0].index_mac, sizeof(c->im));
		c->have_im = true;
	}
	return 0;
}

BENCH_OP static int
bench_appstate_snapshot_10k_decode_op(struct ctx *c)
{
	struct wa_as_apply_out	 out;
	struct wa_as_state	 st;

	return snapshot_apply(c, &st, &out);
}

BENCH_OP static int
bench_appstate_patch_1_decode_op(struct ctx *c)
{
	struct wa_as_apply_out	 out;
	struct wa_as_state	 st;

	return patch_apply(c, &st, &out);
}

BENCH_OP static int
bench_appstate_snapshot_10k_op(struct ctx *c)
{
	struct wa_as_apply_out	 out;
	struct wa_as_state	 st;
	int			 rc;

	if ((rc = snapshot_apply(c, &st, &out)) != 0)
		return rc;
	return store_commit(c, &st, &out);
}

BENCH_OP static int
bench_appstate_patch_1_op(struct ctx *c)
{
	struct wa_as_apply_out	 out;
	struct wa_as_state	 st;
	int			 rc;

	if ((rc = patch_apply(c, &st, &out)) != 0)
		return rc;
	return store_commit(c, &st, &out);
}

static int
op(struct ctx *c)
{
	if (c->s != NULL)
		return c->snapshot ? bench_appstate_snapshot_10k_op(c) :
		    bench_appstate_patch_1_op(c);
	return c->snapshot ? bench_appstate_snapshot_10k_decode_op(c) :
	    bench_appstate_patch_1_decode_op(c);
}

/* Before a whole-path patch (not timed): the MAC row the last one stored
 * removed (a commit of its own), so that the patch, made for a state
 * without it, verifies again: each run is a mute of a chat not muted. */
static void
prep(struct ctx *c, const char *name)
{
	struct store_as_mac	 m = { 0 };
	struct store_as_patch	 p = { 0 };
	uint8_t			 zero[STORE_AS_HASH_LEN] = { 0 };

	if (c->s == NULL || c->snapshot || !c->have_im)
		return;
	memcpy(m.index_mac, c->im, sizeof(m.index_mac));
	m.remove = true;
	p.collection = wa_as_coll_name(WA_AS_REGULAR_HIGH);
	p.base_version = c->ver;
	p.version = c->ver + 1;
	p.hash = zero;
	p.macs = &m;
	p.nmacs = 1;
	if (store_as_commit(c->s, &p) != 0)
		die(name, "removing the stored MAC failed");
	c->ver++;
	c->have_im = false;
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
		prep(c, name);
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

/* Runs bench name (the whole path when s is not NULL); the median in ns. */
static double
bench_run(const char *name, bool snapshot, struct store *db,
    const struct options *o)
{
	struct ctx		*c = xmalloc(sizeof(*c));
	struct alloc_count	 ac;
	double			*all, *means, per;
	unsigned long		 n, s;
	size_t			 total;

	ctx_new(c, snapshot);
	if ((c->s = db) != NULL)
		app_as_ops(db, &c->ops);
	(void)run(c, name, 3, NULL);	/* warm: the arena grows once */
	prep(c, name);
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
	    "\"samples\":%lu%s}\n", c->records,
	    (double)ac.calls / (double)c->records,
	    means[o->samples / 2] / (double)c->records, c->blob.len, n,
	    o->samples, db != NULL && snapshot ? ",\"target_ms\":150" : "");
	fflush(stdout);
	per = o->samples % 2 == 1 ? means[o->samples / 2] :
	    (means[o->samples / 2 - 1] + means[o->samples / 2]) / 2;
	free(all);
	free(means);
	buf_release(&c->blob);
	arena_release(&c->a);
	free(c);
	return per;
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
	struct store	*s = NULL;
	char		 dir[] = "/tmp/wachat-bench-asp-XXXXXX", cmd[64];
	double		 med = 0;
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
		(void)bench_run("appstate_snapshot_10k_decode", true, NULL,
		    &o);
	if (o.only == NULL || strcmp(o.only, "appstate_patch_1_decode") == 0)
		(void)bench_run("appstate_patch_1_decode", false, NULL, &o);
	if (o.only != NULL && strcmp(o.only, "appstate_snapshot_10k") != 0 &&
	    strcmp(o.only, "appstate_patch_1") != 0)
		return 0;
	/* The whole path: a database on disk as wachat runs it. */
	if (mkdtemp(dir) == NULL)
		die("mkdtemp", "failed");
	if (store_open(dir, &s) != 0)
		die("store_open", "failed");
	if (o.only == NULL || strcmp(o.only, "appstate_snapshot_10k") == 0)
		med = bench_run("appstate_snapshot_10k", true, s, &o);
	if (o.only == NULL || strcmp(o.only, "appstate_patch_1") == 0)
		(void)bench_run("appstate_patch_1", false, s, &o);
	store_close(s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "bench-appstate-proto: %s left\n", dir);
	if (med > 150e6) {
		fprintf(stderr, "bench-appstate-proto: appstate_snapshot_10k: "
		    "the median %.1f ms misses the bar of 150 ms\n", med / 1e6);
		return 2;
	}
	return 0;
}
