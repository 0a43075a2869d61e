/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/bench/sqlite-count.c -- SQLite's allocations counted
 * (sqlite-count.h). */
#include "base/compat.h"

#include <sqlite3.h>

#include "sqlite-count.h"

static sqlite3_mem_methods	 sq_def;
static bool			 sq_counting;
static uint64_t			 sq_calls;

static void *
sq_malloc(int n)
{
	if (sq_counting)
		sq_calls++;
	return sq_def.xMalloc(n);
}

static void *
sq_realloc(void *p, int n)
{
	if (sq_counting)
		sq_calls++;
	return sq_def.xRealloc(p, n);
}

bool
sqlite_count_install(void)
{
	static sqlite3_mem_methods	 m;

	if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &sq_def) != SQLITE_OK)
		return false;
	m = sq_def;
	m.xMalloc = sq_malloc;
	m.xRealloc = sq_realloc;
	return sqlite3_config(SQLITE_CONFIG_MALLOC, &m) == SQLITE_OK;
}

void
sqlite_count_start(void)
{
	sq_calls = 0;
	sq_counting = true;
}

uint64_t
sqlite_count_stop(void)
{
	sq_counting = false;
	return sq_calls;
}
