/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-base-scope-alloc.c -- the per-scope allocator behind malloc
 * (base/scope-alloc.h) on its own: blocks, realloc, pause, fallback, a
 * block freed after its scope and one that never is (the retire path);
 * the canaries at both ends of a chunk (seen by scope_alloc_check(), and
 * the abort at leave); the poison of released blocks and a write into
 * them after their scope; and a thread without a scope of its own, which
 * glibc serves while another thread is in one.  Built only where the
 * allocator is (configure's SCOPE_ALLOC: no sanitizer); run with
 * WACHAT_SIGNAL_ARENA=0 it fails, as it has nothing to test.  The Signal
 * layer on it is tests/test-wa-signal-arena.c's.
 */
#include "base/compat.h"

#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/scope-alloc.h"

#define ESCAPED_TEXT	"kept past its scope, never freed, never reused, " \
			"all 64 bytes!!!"	/* 63 characters and the NUL */

/* Through a volatile pointer, so the compiler cannot fold malloc/free of
 * a block it can see (it knows them as builtins). */
static void *(*volatile xmalloc_v)(size_t) = malloc;
static void *(*volatile xrealloc_v)(void *, size_t) = realloc;
static void *(*volatile xcalloc_v)(size_t, size_t) = calloc;
static void (*volatile xfree_v)(void *) = free;

/* Scopes serve blocks in this build and run. */
static void
need_scopes(void)
{
	bool	 on;

	assert_true(scope_alloc_built());
	on = scope_alloc_enter();
	assert_int_equal(scope_alloc_leave(), 0);
	assert_true(on);
}

static void
test_scope_alloc__blocks_are_aligned__and_realloc_growth_copies(
    void **state)
{
	struct scope_alloc_stats	 before, after;
	uint8_t				*p[8], *q;
	size_t				 i;

	(void)state;
	need_scopes();
	scope_alloc_stats(&before);
	assert_true(scope_alloc_enter());
	for (i = 0; i < 8; i++) {
		p[i] = xmalloc_v(i * 7 + 1);
		assert_true(scope_alloc_owns(p[i]));
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		memset(p[i], (int)i, i * 7 + 1);
	}
	for (i = 1; i < 8; i++)	/* no overlap */
		assert_true(p[i] >= p[i - 1] + (i - 1) * 7 + 1);
	q = xmalloc_v(10);
	memcpy(q, "0123456789", 10);
	q = xrealloc_v(q, 5000);
	assert_true(scope_alloc_owns(q));
	assert_memory_equal(q, "0123456789", 10);
	memset(q + 10, 'x', 4990);
	q = xrealloc_v(q, 12);	/* shrinks in place */
	assert_memory_equal(q, "0123456789xx", 12);
	for (i = 0; i < 8; i++) {
		assert_int_equal(p[i][i * 7], (uint8_t)i);
		xfree_v(p[i]);
	}
	xfree_v(q);
	assert_int_equal(scope_alloc_leave(), 0);	/* reset, no escape */
	scope_alloc_stats(&after);
	assert_int_equal(after.retired, before.retired);
	assert_true(after.blocks >= before.blocks + 10);
}

static void
test_scope_alloc__calloc_zeroes_a_reused_chunk(void **state)
{
	uint8_t	*p, zero[256];

	(void)state;
	need_scopes();
	memset(zero, 0, sizeof(zero));
	assert_true(scope_alloc_enter());
	p = xmalloc_v(256);
	memset(p, 0xA5, 256);
	xfree_v(p);
	assert_int_equal(scope_alloc_leave(), 0);
	assert_true(scope_alloc_enter());
	p = xcalloc_v(16, 16);
	assert_true(scope_alloc_owns(p));
	assert_memory_equal(p, zero, 256);
	xfree_v(p);
	assert_int_equal(scope_alloc_leave(), 0);
}

static void
test_scope_alloc__paused_outside_and_too_big__go_to_glibc(void **state)
{
	uint8_t	*p, *q, *big, *o;

	(void)state;
	need_scopes();
	o = xmalloc_v(32);
	assert_false(scope_alloc_owns(o));
	assert_true(scope_alloc_enter());
	assert_true(scope_alloc_pause());
	p = xmalloc_v(32);
	assert_false(scope_alloc_owns(p));
	scope_alloc_resume(true);
	q = xmalloc_v(32);
	assert_true(scope_alloc_owns(q));
	big = xmalloc_v(SCOPE_ALLOC_CHUNK);	/* cannot fit */
	assert_false(scope_alloc_owns(big));
	memset(big, 1, SCOPE_ALLOC_CHUNK);
	o = xrealloc_v(o, 64);	/* a glibc block stays glibc's */
	assert_false(scope_alloc_owns(o));
	xfree_v(p);		/* glibc blocks freed in scope */
	xfree_v(big);
	xfree_v(q);
	assert_int_equal(scope_alloc_leave(), 0);
	xfree_v(o);
}

static void
test_scope_alloc__a_block_freed_after_its_scope__stays_valid_till_then(
    void **state)
{
	struct scope_alloc_stats	 before, after;
	uint8_t				*p, *q;

	(void)state;
	need_scopes();
	scope_alloc_stats(&before);
	assert_true(scope_alloc_enter());
	p = xmalloc_v(100);
	memset(p, 0x5C, 100);
	assert_int_equal(scope_alloc_leave(), 1);	/* retired */
	/* the next scope gets another chunk: p is not written over */
	assert_true(scope_alloc_enter());
	q = xmalloc_v(100);
	memset(q, 0xEE, 100);
	assert_true(q < p || q >= p + 100);
	xfree_v(q);
	assert_int_equal(scope_alloc_leave(), 0);
	assert_int_equal(p[0], 0x5C);
	assert_int_equal(p[99], 0x5C);
	/* grown outside any scope: glibc's, content kept */
	p = xrealloc_v(p, 4000);
	assert_false(scope_alloc_owns(p));
	assert_int_equal(p[99], 0x5C);
	xfree_v(p);
	scope_alloc_stats(&after);
	assert_int_equal(after.retired, before.retired + 1);
	assert_int_equal(after.escaped, before.escaped + 1);
}

static void
test_scope_alloc__an_escaped_block__keeps_its_content_for_good(
    void **state)
{
	static uint8_t	*escaped;	/* never freed, on purpose */
	uint8_t		*p[10];
	size_t		 i, j;

	(void)state;
	need_scopes();
	assert_true(scope_alloc_enter());
	escaped = xmalloc_v(64);
	memcpy(escaped, ESCAPED_TEXT, 64);
	assert_int_equal(scope_alloc_leave(), 1);
	for (i = 0; i < 50; i++) {
		assert_true(scope_alloc_enter());
		for (j = 0; j < 10; j++) {
			p[j] = xmalloc_v(1000);
			memset(p[j], 0xFF, 1000);
		}
		for (j = 0; j < 10; j++)
			xfree_v(p[j]);
		assert_int_equal(scope_alloc_leave(), 0);
	}
	assert_memory_equal(escaped, ESCAPED_TEXT, 64);
}

/* ---- the canaries at the chunk's ends ---- */

static void
test_scope_alloc_check__sees_a_write_past_either_end__of_a_full_chunk(
    void **state)
{
	uint8_t	*p, *q, saved;

	(void)state;
	need_scopes();
	assert_true(scope_alloc_enter());	/* a chunk with nothing used */
	p = xmalloc_v(SCOPE_ALLOC_BLOCK_MAX);	/* all of its data */
	assert_true(scope_alloc_owns(p));
	q = xmalloc_v(1);			/* no room left */
	assert_false(scope_alloc_owns(q));
	xfree_v(q);
	memset(p, 0x11, SCOPE_ALLOC_BLOCK_MAX);
	assert_true(scope_alloc_check());
	/* one byte past the block: the tail canary */
	saved = p[SCOPE_ALLOC_BLOCK_MAX];
	p[SCOPE_ALLOC_BLOCK_MAX] ^= 0xFF;
	assert_false(scope_alloc_check());
	p[SCOPE_ALLOC_BLOCK_MAX] = saved;
	assert_true(scope_alloc_check());
	/* before the block's 16-byte header: the head canary */
	saved = p[-16 - 1];
	p[-16 - 1] ^= 0xFF;
	assert_false(scope_alloc_check());
	p[-16 - 1] = saved;
	assert_true(scope_alloc_check());
	xfree_v(p);
	assert_int_equal(scope_alloc_leave(), 0);
	assert_true(scope_alloc_check());
}

static void
test_scope_alloc_leave__aborts__when_a_canary_was_overwritten(void **state)
{
	struct rlimit	 no_core = { 0, 0 };
	pid_t		 pid;
	int		 status;

	(void)state;
	need_scopes();
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		uint8_t	*p;

		(void)setrlimit(RLIMIT_CORE, &no_core);
		if (!scope_alloc_enter())
			_exit(2);
		p = xmalloc_v(SCOPE_ALLOC_BLOCK_MAX);
		p[SCOPE_ALLOC_BLOCK_MAX] ^= 1;	/* an overrun by one */
		(void)scope_alloc_leave();
		_exit(0);			/* not reached */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

/* ---- the poison of released blocks ---- */

static void
test_scope_alloc_leave__poisons_what_the_scope_held__and_check_sees_a_late_write(
    void **state)
{
	volatile uint8_t	*p;
	uint8_t			*q;
	size_t			 i;

	(void)state;
	need_scopes();
	assert_true(scope_alloc_enter());
	p = xmalloc_v(100);
	assert_true(scope_alloc_owns((const void *)p));
	memset((void *)p, 'k', 100);		/* a key, say */
	xfree_v((void *)p);
	assert_int_equal(scope_alloc_leave(), 0);
	/* released with its scope: poison, header and payload */
	for (i = 0; i < 16 + 100; i++)
		assert_int_equal(p[(ptrdiff_t)i - 16], SCOPE_ALLOC_POISON);
	assert_true(scope_alloc_check());
	/* a write after its scope ended is seen */
	p[50] = 'k';
	assert_false(scope_alloc_check());
	p[50] = SCOPE_ALLOC_POISON;
	assert_true(scope_alloc_check());
	/* the next scope's block there holds poison, not the old bytes */
	assert_true(scope_alloc_enter());
	q = xmalloc_v(100);
	assert_ptr_equal(q, (const void *)p);
	for (i = 0; i < 100; i++)
		assert_int_equal(q[i], SCOPE_ALLOC_POISON);
	xfree_v(q);
	assert_int_equal(scope_alloc_leave(), 0);
}

/* ---- threads ---- */

struct other {
	pthread_barrier_t go, done;	/* the scope is open; all freed */
	void		*mine;		/* a block of the scope thread's */
	bool		 owned[4];	/* whether each of its own was one */
	bool		 checked;	/* scope_alloc_check() with no chunk */
};

/* A thread that opens no scope: every block glibc's, even while the
 * other thread is in a scope; freeing that thread's block is safe. */
static void *
other_thread(void *arg)
{
	struct other	*o = arg;
	void		*a, *b, *c;

	(void)pthread_barrier_wait(&o->go);
	a = xmalloc_v(64);
	b = xcalloc_v(4, 16);
	c = xrealloc_v(NULL, 64);
	o->owned[0] = scope_alloc_owns(a);
	o->owned[1] = scope_alloc_owns(b);
	o->owned[2] = scope_alloc_owns(c);
	a = xrealloc_v(a, 4096);
	o->owned[3] = scope_alloc_owns(a);
	o->checked = scope_alloc_check();
	xfree_v(a);
	xfree_v(b);
	xfree_v(c);
	xfree_v(o->mine);
	(void)pthread_barrier_wait(&o->done);
	return NULL;
}

static void
test_scope_alloc__a_thread_without_a_scope__is_served_by_glibc(void **state)
{
	struct scope_alloc_stats	 before, after;
	struct other			 o;
	pthread_t			 th;
	void				*q;
	size_t				 i;

	(void)state;
	need_scopes();
	memset(&o, 0, sizeof(o));
	assert_int_equal(pthread_barrier_init(&o.go, NULL, 2), 0);
	assert_int_equal(pthread_barrier_init(&o.done, NULL, 2), 0);
	/* made outside the scope: glibc keeps what it allocates for a
	 * thread (its TLS) past the scope */
	assert_int_equal(pthread_create(&th, NULL, other_thread, &o), 0);
	scope_alloc_stats(&before);
	assert_true(scope_alloc_enter());
	o.mine = xmalloc_v(48);
	assert_true(scope_alloc_owns(o.mine));
	(void)pthread_barrier_wait(&o.go);	/* the other thread runs */
	(void)pthread_barrier_wait(&o.done);
	for (i = 0; i < 4; i++)
		assert_false(o.owned[i]);
	assert_true(o.checked);
	q = xmalloc_v(32);			/* still this thread's scope */
	assert_true(scope_alloc_owns(q));
	xfree_v(q);
	/* the other thread's free of o.mine counts: nothing escaped */
	assert_int_equal(scope_alloc_leave(), 0);
	scope_alloc_stats(&after);
	assert_int_equal(after.retired, before.retired);
	assert_int_equal(pthread_join(th, NULL), 0);
	pthread_barrier_destroy(&o.go);
	pthread_barrier_destroy(&o.done);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scope_alloc__blocks_are_aligned__and_realloc_growth_copies),
		cmocka_unit_test(test_scope_alloc__calloc_zeroes_a_reused_chunk),
		cmocka_unit_test(test_scope_alloc__paused_outside_and_too_big__go_to_glibc),
		cmocka_unit_test(test_scope_alloc__a_block_freed_after_its_scope__stays_valid_till_then),
		cmocka_unit_test(test_scope_alloc__an_escaped_block__keeps_its_content_for_good),
		cmocka_unit_test(test_scope_alloc_check__sees_a_write_past_either_end__of_a_full_chunk),
		cmocka_unit_test(test_scope_alloc_leave__aborts__when_a_canary_was_overwritten),
		cmocka_unit_test(test_scope_alloc_leave__poisons_what_the_scope_held__and_check_sees_a_late_write),
		cmocka_unit_test(test_scope_alloc__a_thread_without_a_scope__is_served_by_glibc),
	};

	if (!scope_alloc_built()) {
		/* configure's SCOPE_ALLOC said yes, make's flags no: a
		 * -fsanitize given to make, not to configure */
		fprintf(stderr, "test-base-scope-alloc: this build has no "
		    "scope allocator (compiled with a sanitizer); configure "
		    "with the sanitizer's flags instead\n");
		return 1;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
