/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/test-base.c -- the base layer: arena, buf, error strings. */
#include "compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arena.h"
#include "buf.h"
#include "err.h"

static void
test_arena_alloc__returns_aligned_disjoint_blocks__across_chunks(void **state)
{
	struct arena	 a;
	unsigned char	*p[100];
	size_t		 i;

	(void)state;
	arena_init(&a, 256);
	for (i = 0; i < 100; i++) {
		p[i] = arena_alloc(&a, 1 + i * 3);
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		memset(p[i], (int)i, 1 + i * 3);
	}
	for (i = 0; i < 100; i++)
		for (size_t k = 0; k < 1 + i * 3; k++)
			assert_int_equal(p[i][k], (unsigned char)i);
	/* A block larger than a chunk gets a chunk of its own. */
	assert_non_null(arena_alloc(&a, 10000));
	arena_release(&a);
}

static void
test_arena_reset__folds_the_chunks_into_one__for_reuse(void **state)
{
	struct arena	 a;
	struct arena_chunk *kept;

	(void)state;
	arena_init(&a, 64);
	arena_alloc(&a, 10);
	arena_alloc(&a, 1000);
	arena_alloc(&a, 10);
	arena_reset(&a);
	kept = a.head;
	assert_non_null(kept);
	/* One chunk of the three's total (64 + 1008 + 64 bytes) holds the
	 * same blocks again: no new chunk. */
	assert_non_null(arena_alloc(&a, 10));
	assert_non_null(arena_alloc(&a, 1000));
	assert_non_null(arena_alloc(&a, 10));
	assert_ptr_equal(a.head, kept);
	arena_release(&a);
	assert_null(a.head);
}

static void
test_arena_alloc__adds_no_chunk__in_the_steady_state(void **state)
{
	struct arena	 a;
	struct arena_chunk *first = NULL;
	int		 round, i;

	(void)state;
	arena_init(&a, 0);
	/* 300 KiB a round in the default 16 KiB chunks, as a large tree. */
	for (round = 0; round < 4; round++) {
		arena_reset(&a);
		if (round == 1)
			first = a.head;
		for (i = 0; i < 3000; i++)
			assert_non_null(arena_alloc(&a, 100));
		/* A new chunk would be the head: from the second round on,
		 * the folded one holds every block. */
		if (round >= 1)
			assert_ptr_equal(a.head, first);
	}
	arena_release(&a);
}

static void
test_arena_alloc__returns_a_block__of_length_0(void **state)
{
	struct arena	 a;
	unsigned char	*p, *q;

	(void)state;
	arena_init(&a, 32);
	p = arena_alloc(&a, 0);
	assert_non_null(p);
	q = arena_alloc(&a, 32);	/* exactly a chunk */
	assert_non_null(q);
	q[0] = q[31] = 1;
	assert_non_null(arena_alloc(&a, 0));
	arena_release(&a);
}

static void
test_buf_append__grows_and_keeps_the_bytes(void **state)
{
	struct buf	 b = BUF_INIT;
	size_t		 i;

	(void)state;
	for (i = 0; i < 10000; i++)
		buf_push(&b, (uint8_t)i);
	buf_append(&b, "xyz", 3);
	buf_append(&b, NULL, 0);
	assert_int_equal(b.len, 10003);
	assert_true(b.cap >= b.len);
	for (i = 0; i < 10000; i++)
		assert_int_equal(b.p[i], (uint8_t)i);
	assert_memory_equal(b.p + 10000, "xyz", 3);
	buf_release(&b);
	assert_null(b.p);
	assert_int_equal(b.len, 0);
}

static void
test_wc_strerror__names_every_code(void **state)
{
	(void)state;
	assert_string_equal(wc_strerror(WC_EDEPTH), "nesting deeper than the limit");
	assert_string_equal(wc_strerror(WC_ETRAILING), "bytes left after the node");
	assert_string_equal(wc_strerror(0), "success");
	assert_string_equal(wc_strerror(-2), "No such file or directory");
	assert_string_equal(wc_strerror(-1005), "libsignal error");
	assert_string_equal(wc_strerror(-20000), "unknown error");
	for (int e = WC_EPROTO; e <= WC_ETRAILING; e++)
		assert_string_not_equal(wc_strerror(e), "unknown error");
}

int
main(void)
{
	static const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(test_arena_alloc__returns_aligned_disjoint_blocks__across_chunks),
		cmocka_unit_test(test_arena_reset__folds_the_chunks_into_one__for_reuse),
		cmocka_unit_test(test_arena_alloc__adds_no_chunk__in_the_steady_state),
		cmocka_unit_test(test_arena_alloc__returns_a_block__of_length_0),
		cmocka_unit_test(test_buf_append__grows_and_keeps_the_bytes),
		cmocka_unit_test(test_wc_strerror__names_every_code),
	};

	return cmocka_run_group_tests_name("base", tests, NULL, NULL);
}
