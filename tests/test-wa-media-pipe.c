/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-pipe.c -- the two hash streams of
 * proto/media-pipe.c: the digests equal OpenSSL's one-shot SHA-256 of
 * each stream whatever the sizes and the pieces added (under the worker's
 * start, across it, many slots, one stream empty); a file past the start
 * starts the worker, a small one is hashed only on the caller's thread;
 * an update that fails on the worker ends the pipe with WC_ECRYPTO and
 * the worker is joined; a pipe freed while its worker has slots queued
 * joins it; add and drain after drain are refused.
 */
#include "base/compat.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "base/err.h"
#include "proto/media-pipe.h"

/* One stream's digest, where its updates ran and when one fails. */
struct stream {
	EVP_MD_CTX	*md;
	pthread_t	 caller;
	bool		 on_other;	/* an update ran off the caller */
	uint64_t	 seen;
	uint64_t	 fail_at;	/* fail the update past this; 0: never */
};

static bool
upd(void *arg, const uint8_t *p, size_t n)
{
	struct stream	*s = arg;

	/* Each stream's updates are one thread's at a time (the pipe's
	 * contract), so these fields need no lock. */
	if (!pthread_equal(pthread_self(), s->caller))
		s->on_other = true;
	s->seen += n;
	if (s->fail_at != 0 && s->seen > s->fail_at)
		return false;
	return EVP_DigestUpdate(s->md, p, n) == 1;
}

static void
stream_init(struct stream *s)
{
	memset(s, 0, sizeof(*s));
	s->md = EVP_MD_CTX_new();
	assert_non_null(s->md);
	assert_int_equal(EVP_DigestInit_ex(s->md, EVP_sha256(), NULL), 1);
	s->caller = pthread_self();
}

static void
fill(uint8_t *p, size_t len, unsigned seed)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 151 + seed * 29 + (i >> 11));
}

/* Add a[0..na) and b[0..nb) in pieces of ca and cb bytes (0: none of
 * that stream in the piece), drain, and check both digests. */
static void
run(size_t na, size_t ca, size_t nb, size_t cb, bool want_thread)
{
	struct stream		 sa, sb;
	struct wa_media_pipe	*p;
	uint8_t			*a = malloc(na + 1), *b = malloc(nb + 1);
	uint8_t			 h[32], want[32];
	unsigned int		 hl;
	size_t			 oa = 0, ob = 0, ta, tb;

	assert_non_null(a);
	assert_non_null(b);
	fill(a, na, 1);
	fill(b, nb, 2);
	stream_init(&sa);
	stream_init(&sb);
	p = wa_media_pipe_new(upd, &sa, upd, &sb);
	while (oa < na || ob < nb) {
		ta = na - oa < ca ? na - oa : ca;
		tb = nb - ob < cb ? nb - ob : cb;
		if (ta == 0 && tb == 0)
			ta = na - oa, tb = nb - ob;
		assert_int_equal(wa_media_pipe_add(p, ta ? a + oa : NULL, ta,
		    tb ? b + ob : NULL, tb), 0);
		oa += ta;
		ob += tb;
	}
	assert_int_equal(wa_media_pipe_drain(p), 0);
	assert_true(wa_media_pipe_started(p) == want_thread);
	/* Drained: the digests are this thread's, the pipe refuses more. */
	assert_int_equal(wa_media_pipe_add(p, a, na ? 1 : 0, NULL, 0),
	    WC_ESTATE);
	assert_int_equal(wa_media_pipe_drain(p), WC_ESTATE);
	wa_media_pipe_free(p);
	assert_int_equal(EVP_DigestFinal_ex(sa.md, h, &hl), 1);
	SHA256(a, na, want);
	assert_memory_equal(h, want, 32);
	assert_int_equal(EVP_DigestFinal_ex(sb.md, h, &hl), 1);
	SHA256(b, nb, want);
	assert_memory_equal(h, want, 32);
	assert_int_equal(sa.seen, na);
	assert_int_equal(sb.seen, nb);
	/* Off the caller's thread only where a worker was started (how
	 * much ran there is the scheduler's choice). */
	if (!want_thread)
		assert_false(sa.on_other || sb.on_other);
	EVP_MD_CTX_free(sa.md);
	EVP_MD_CTX_free(sb.md);
	free(a);
	free(b);
}

static void
test_wa_media_pipe__gives__each_streams_sha256_at_each_size(void **state)
{
	(void)state;
	/* Under the worker's start (256 KiB): the caller's thread only. */
	run(0, 0, 0, 0, false);
	run(1, 1, 0, 0, false);
	run(100000, 4095, 100000, 4096, false);
	/* Across it and past many slots (3 of 256 KiB each side). */
	run(5 * 1024 * 1024 + 7, 65536, 5 * 1024 * 1024 + 7 - 48, 65536,
	    true);
	run(4 * 1024 * 1024, 1024 * 1024 + 3, 4 * 1024 * 1024, 1000, true);
	/* One stream empty, the other one piece of several slots. */
	run(3 * 1024 * 1024 + 1, SIZE_MAX, 0, 0, true);
	run(0, 0, 3 * 1024 * 1024 + 1, 17, true);
	/* Small pieces on one side, whole slots on the other. */
	run(2 * 1024 * 1024, 15, 2 * 1024 * 1024, 256 * 1024, true);
}

/* An update failing on the worker (or wherever it runs) past 2 MiB,
 * in stream B then in stream A: WC_ECRYPTO from add or drain, sticky,
 * and the worker joined (free after it). */
static void
test_wa_media_pipe__fails__when_an_update_fails_and_joins(void **state)
{
	static const size_t	 len = 6 * 1024 * 1024, step = 65536;
	struct stream		 sa, sb;
	struct wa_media_pipe	*p;
	uint8_t			*a = malloc(step);
	size_t			 off;
	bool			 drained;
	int			 rc, k;

	(void)state;
	assert_non_null(a);
	fill(a, step, 3);
	for (k = 0; k < 2; k++) {
		stream_init(&sa);
		stream_init(&sb);
		(k == 0 ? &sb : &sa)->fail_at = 2 * 1024 * 1024;
		p = wa_media_pipe_new(upd, &sa, upd, &sb);
		rc = 0;
		for (off = 0; off < len && rc == 0; off += step)
			rc = wa_media_pipe_add(p, a, step, a, step);
		if ((drained = rc == 0))
			rc = wa_media_pipe_drain(p);
		assert_int_equal(rc, WC_ECRYPTO);
		assert_int_equal(wa_media_pipe_add(p, a, 1, NULL, 0), drained ?
		    WC_ESTATE : WC_ECRYPTO);
		wa_media_pipe_free(p);
		EVP_MD_CTX_free(sa.md);
		EVP_MD_CTX_free(sb.md);
	}
	free(a);
}

/* Freed with slots queued and the worker running: joined, nothing left
 * (ASan's leak check and TSan see it). */
static void
test_wa_media_pipe__free__joins_a_running_worker(void **state)
{
	static const size_t	 step = 256 * 1024;
	struct stream		 sa, sb;
	struct wa_media_pipe	*p;
	uint8_t			*a = malloc(step);
	int			 i;

	(void)state;
	assert_non_null(a);
	fill(a, step, 4);
	stream_init(&sa);
	stream_init(&sb);
	p = wa_media_pipe_new(upd, &sa, upd, &sb);
	for (i = 0; i < 12; i++)
		assert_int_equal(wa_media_pipe_add(p, a, step, a, step - 5),
		    0);
	assert_true(wa_media_pipe_started(p));
	wa_media_pipe_free(p);
	/* Nothing touches the contexts after free: final is ours. */
	EVP_MD_CTX_free(sa.md);
	EVP_MD_CTX_free(sb.md);
	wa_media_pipe_free(NULL);
	free(a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_media_pipe__gives__each_streams_sha256_at_each_size),
		cmocka_unit_test(test_wa_media_pipe__fails__when_an_update_fails_and_joins),
		cmocka_unit_test(test_wa_media_pipe__free__joins_a_running_worker),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
