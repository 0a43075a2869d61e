/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/sqlite-count.h -- counts SQLite's own allocations for the
 * benches (perf.md 3.0, "Allocations"), beside alloc-count.h's count of
 * the whole process: SQLite's allocator wrapped through
 * sqlite3_config(SQLITE_CONFIG_MALLOC).  Bench support only; one thread.
 */
#ifndef BENCH_SQLITE_COUNT_H
#define BENCH_SQLITE_COUNT_H

#include <stdbool.h>
#include <stdint.h>

/* Wrap SQLite's allocator, before SQLite is first used (before any
 * connection is opened).  Returns false when SQLite refused it. */
bool	 sqlite_count_install(void);
/* Zero the count and start counting SQLite's malloc and realloc calls. */
void	 sqlite_count_start(void);
/* Stop counting; the calls counted since sqlite_count_start(). */
uint64_t sqlite_count_stop(void);

#endif
