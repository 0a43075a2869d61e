/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/alloc-count.h -- counts calls into the allocator for the
 * benches (perf.md 3.0, "Allocations").  alloc-count.c defines malloc and
 * its relatives in the bench executable, so they interpose those of every
 * shared library and the count covers the whole process.  Bench support
 * only; counting is meant for one thread (the bench's own).
 */
#ifndef BENCH_ALLOC_COUNT_H
#define BENCH_ALLOC_COUNT_H

#include <stdbool.h>
#include <stdint.h>

struct alloc_count {
	uint64_t	 calls;	/* malloc, calloc, realloc, the aligned ones */
	uint64_t	 bytes;	/* bytes those calls asked for */
	uint64_t	 frees;	/* free of a non-NULL pointer */
};

/* Zero the counters and start counting. */
void	 alloc_count_start(void);
/* Stop counting and store what was counted since alloc_count_start(). */
void	 alloc_count_stop(struct alloc_count *out);
/* Whether malloc reaches the counter: false under a tool that replaces the
 * allocator in the executable too, such as valgrind's DHAT or memcheck. */
bool	 alloc_count_is_active(void);

#endif
