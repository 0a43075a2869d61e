/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-appstate.c -- the store's side of an app-state
 * snapshot (issue 18; store/appstate-act.c): store_as_commit() of a
 * critical_unblock_low snapshot of 10,000 contacts (10,000 MAC rows and
 * 10,000 contact actions, the address book of a large account) into a
 * database on disk (WAL, synchronous=NORMAL, as wachat runs it), and the
 * per-record MAC lookup (store_as_mac_get()) a patch makes.
 *
 * Reports, one JSON line per bench on stdout:
 *   appstate_snapshot_10k: the first commit (every contact new) and the
 *     median and minimum of the next samples (the same snapshot again:
 *     the old MAC rows deleted, every contact updated), in ms; the
 *     allocations of one commit per record, in all and SQLite's own
 *     (sqlite3_config(SQLITE_CONFIG_MALLOC) counts them), and the target
 *     (100 ms);
 *   appstate_mac_get, appstate_mac_get_in_tx: ns per lookup of a stored
 *     index MAC, alone and inside a transaction, allocations per lookup
 *     (all of them SQLite's: a cursor opened per statement run).
 * Usage: bench-appstate [-n RECORDS] [-s SAMPLES] [-d DIR] (DIR: where
 * the database is made, default a new directory under /tmp, removed
 * after).  Exits 1 when an operation fails, 2 when the median misses the
 * target (so `make bench-appstate` says so).
 */
#include "base/compat.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "alloc-count.h"
#include "sqlite-count.h"
#include "store/store-int.h"
#include "store/store.h"
#include "base/xmalloc.h"

#define TARGET_MS	100.0
#define COLL		"critical_unblock_low"

static void
die(const char *what)
{
	fprintf(stderr, "bench-appstate: %s\n", what);
	exit(1);
}

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static uint64_t	rng = 0x9E3779B97F4A7C15ull;

static uint64_t
next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* A snapshot of n contacts: random index and value MACs, JIDs and names
 * as an address book has them. */
struct snap {
	struct store_as_mac	*macs;
	struct store_as_action	*acts;
	char			*strs;		/* 64 bytes per record */
	uint8_t			 hash[STORE_AS_HASH_LEN];
	struct store_as_patch	 p;
};

static void
snap_make(struct snap *sn, size_t n)
{
	size_t	 i, j;

	sn->macs = xcalloc(n, sizeof(*sn->macs));
	sn->acts = xcalloc(n, sizeof(*sn->acts));
	sn->strs = xcalloc(n, 64);
	for (i = 0; i < n; i++) {
		char	*jid = sn->strs + i * 64, *name = jid + 32;

		for (j = 0; j < STORE_AS_MAC_LEN; j += 8) {
			uint64_t	 a = next(), b = next();

			memcpy(sn->macs[i].index_mac + j, &a, 8);
			memcpy(sn->macs[i].value_mac + j, &b, 8);
		}
		snprintf(jid, 32, "1%011llu@s.whatsapp.net",
		    (unsigned long long)(next() % 100000000000ull));
		snprintf(name, 32, "Contact %zu Surname", i);
		sn->acts[i].kind = STORE_AS_CONTACT;
		sn->acts[i].jid = jid;
		sn->acts[i].full_name = name;
		sn->acts[i].first_name = name + 8;
		sn->acts[i].ts_ms = 1700000000000LL;
	}
	memset(sn->hash, 0x5a, sizeof(sn->hash));
	memset(&sn->p, 0, sizeof(sn->p));
	sn->p.collection = COLL;
	sn->p.snapshot = true;
	sn->p.version = 1;
	sn->p.hash = sn->hash;
	sn->p.macs = sn->macs;
	sn->p.nmacs = n;
	sn->p.actions = sn->acts;
	sn->p.nactions = n;
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One commit, timed, with its allocations counted. */
static double
commit_counted(struct store *s, struct snap *sn, struct alloc_count *ac,
    uint64_t *sq)
{
	double	 t0;

	sqlite_count_start();
	alloc_count_start();
	t0 = now_ms();
	if (store_as_commit(s, &sn->p) != 0)
		die("store_as_commit failed");
	t0 = now_ms() - t0;
	alloc_count_stop(ac);
	*sq = sqlite_count_stop();
	return t0;
}

/* ns per lookup of every stored MAC, allocations per lookup in *allocs. */
static double
mac_get_ns(struct store *s, const struct snap *sn, size_t n, double *allocs)
{
	struct alloc_count	 ac;
	uint8_t			 v[STORE_AS_MAC_LEN];
	double			 t0;
	size_t			 i;

	if (store_as_mac_get(s, COLL, sn->macs[0].index_mac, v) != 1)
		die("store_as_mac_get found nothing");
	alloc_count_start();
	t0 = now_ms();
	for (i = 0; i < n; i++)
		if (store_as_mac_get(s, COLL, sn->macs[i].index_mac, v) != 1 ||
		    memcmp(v, sn->macs[i].value_mac, sizeof(v)) != 0)
			die("store_as_mac_get gave another MAC");
	t0 = now_ms() - t0;
	alloc_count_stop(&ac);
	*allocs = (double)ac.calls / (double)n;
	return t0 * 1e6 / (double)n;
}

int
main(int argc, char **argv)
{
	struct store		*s = NULL;
	struct snap		 sn;
	struct alloc_count	 ac;
	char			 tmpl[] = "/tmp/wachat-bench-as-XXXXXX";
	const char		*dir = NULL;
	unsigned long		 n = 10000, samples = 7, i;
	double			*t, first, med, mac_ns, mac_allocs;
	uint64_t		 sq;
	int			 c;

	while ((c = getopt(argc, argv, "n:s:d:")) != -1)
		switch (c) {
		case 'n':
			n = strtoul(optarg, NULL, 10);
			break;
		case 's':
			samples = strtoul(optarg, NULL, 10);
			break;
		case 'd':
			dir = optarg;
			break;
		default:
			die("usage: bench-appstate [-n RECORDS] [-s SAMPLES]"
			    " [-d DIR]");
		}
	if (n == 0 || n > STORE_AS_COMMIT_MAX || samples == 0)
		die("-n 1..200000, -s 1 or more");
	if (!sqlite_count_install())
		die("sqlite3_config(SQLITE_CONFIG_MALLOC) failed");
	if (dir == NULL && (dir = mkdtemp(tmpl)) == NULL)
		die("mkdtemp failed");
	if (store_open(dir, &s) != 0)
		die("store_open failed");
	snap_make(&sn, n);
	first = commit_counted(s, &sn, &ac, &sq);
	fprintf(stderr, "bench-appstate: first commit of %lu contacts: %.1f ms,"
	    " %.2f allocations per record (%.2f SQLite's)\n", n, first,
	    (double)ac.calls / (double)n, (double)sq / (double)n);
	t = xcalloc(samples, sizeof(*t));
	for (i = 0; i < samples; i++) {
		sn.p.version++;
		t[i] = commit_counted(s, &sn, &ac, &sq);
	}
	qsort(t, samples, sizeof(*t), cmp_double);
	med = samples % 2 ? t[samples / 2] :
	    (t[samples / 2 - 1] + t[samples / 2]) / 2;
	printf("{\"name\":\"appstate_snapshot_%luk\",\"records\":%lu,"
	    "\"first_ms\":%.2f,\"median_ms\":%.2f,\"min_ms\":%.2f,"
	    "\"samples\":%lu,\"allocs_per_record\":%.3f,"
	    "\"sqlite_allocs_per_record\":%.3f,"
	    "\"allocs_excl_sqlite_per_record\":%.3f,\"bytes_per_record\":%.1f,"
	    "\"target_ms\":%.0f}\n", n / 1000, n, first, med, t[0], samples,
	    (double)ac.calls / (double)n, (double)sq / (double)n,
	    (double)(ac.calls >= sq ? ac.calls - sq : 0) / (double)n,
	    (double)ac.bytes / (double)n, TARGET_MS);
	/* alone (each lookup its own read transaction), then inside one
	 * transaction, as while a patch is verified and committed */
	mac_ns = mac_get_ns(s, &sn, n, &mac_allocs);
	printf("{\"name\":\"appstate_mac_get\",\"median_ns\":%.1f,"
	    "\"allocs\":%.3f,\"records\":%lu}\n", mac_ns, mac_allocs, n);
	if (store_tx_begin(s) != 0)
		die("store_tx_begin failed");
	mac_ns = mac_get_ns(s, &sn, n, &mac_allocs);
	if (store_tx_rollback(s) != 0)
		die("store_tx_rollback failed");
	printf("{\"name\":\"appstate_mac_get_in_tx\",\"median_ns\":%.1f,"
	    "\"allocs\":%.3f,\"records\":%lu}\n", mac_ns, mac_allocs, n);
	fflush(stdout);
	store_close(s);
	if (dir == tmpl) {
		char	 cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
		if (system(cmd) != 0)
			fprintf(stderr, "bench-appstate: %s left\n", tmpl);
	}
	free(t);
	free(sn.macs);
	free(sn.acts);
	free(sn.strs);
	if (!alloc_count_is_active())
		fprintf(stderr, "bench-appstate: allocations not counted here"
		    " (another allocator is in place)\n");
	if (n == 10000 && med > TARGET_MS) {
		fprintf(stderr, "bench-appstate: the median %.1f ms misses the"
		    " target of %.0f ms\n", med, TARGET_MS);
		return 2;
	}
	return 0;
}
