/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/alloc-count.c -- malloc, calloc, realloc, reallocarray, free,
 * posix_memalign, aligned_alloc, memalign, valloc and pvalloc for the bench
 * executable (glibc's list of what a replacement allocator provides).
 * Each forwards to glibc's own entry point (__libc_malloc and friends) and,
 * while counting is on, adds the call and the bytes requested.  Symbols in
 * the executable come first in the dynamic lookup order, so json-c, zlib
 * and libc itself call these too.
 *
 * When the executable links the scope allocator under libsignal
 * (base/scope-alloc.c, pulled in by proto/signal*.c), that file defines
 * the malloc family and these weak definitions give way to it; the
 * counter then hears from the arena's hooks, which fire only for calls
 * that reach glibc, so a block served from the arena is not counted (as
 * divan counts calls into the general-purpose allocator, perf.md 4.1).
 */
#include "base/compat.h"

#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "alloc-count.h"
#include "base/scope-alloc.h"

/* Weak: absent (NULL) unless the executable links base/scope-alloc.o. */
#pragma weak scope_alloc_set_count_hooks

#define WEAK	__attribute__((weak))

/* glibc's allocator under names that nothing interposes. */
void	*__libc_malloc(size_t);
void	*__libc_calloc(size_t, size_t);
void	*__libc_realloc(void *, size_t);
void	 __libc_free(void *);
void	*__libc_memalign(size_t, size_t);

/*
 * The counters are process globals because malloc has no context argument.
 * The bench turns counting on around one operation on its only thread.
 */
static bool			 counting;
static struct alloc_count	 count;

static void
note(size_t len)
{
	if (counting) {
		count.calls++;
		count.bytes += len;
	}
}

static void
note_free(void)
{
	if (counting)
		count.frees++;
}

void
alloc_count_start(void)
{
	static bool	 hooked;

	if (!hooked && scope_alloc_set_count_hooks != NULL)
		scope_alloc_set_count_hooks(note, note_free);
	hooked = true;
	count.calls = count.bytes = count.frees = 0;
	counting = true;
}

void
alloc_count_stop(struct alloc_count *out)
{
	counting = false;
	*out = count;
}

bool
alloc_count_is_active(void)
{
	/* Called through a volatile pointer: the compiler knows malloc as a
	 * builtin that touches no counters, and would move the call. */
	void			*(*volatile alloc)(size_t) = malloc;
	struct alloc_count	 ac;
	void			*p;

	alloc_count_start();
	p = alloc(1);
	alloc_count_stop(&ac);
	free(p);
	return ac.calls == 1;
}

WEAK void *
malloc(size_t len)
{
	note(len);
	return __libc_malloc(len);
}

WEAK void *
calloc(size_t n, size_t size)
{
	note(n * size);
	return __libc_calloc(n, size);
}

WEAK void *
realloc(void *p, size_t len)
{
	note(len);
	return __libc_realloc(p, len);
}

WEAK void *
reallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, n * size);
}

WEAK void
free(void *p)
{
	if (counting && p != NULL)
		count.frees++;
	__libc_free(p);
}

WEAK void *
memalign(size_t align, size_t len)
{
	note(len);
	return __libc_memalign(align, len);
}

WEAK void *
aligned_alloc(size_t align, size_t len)
{
	note(len);
	return __libc_memalign(align, len);
}

WEAK int
posix_memalign(void **out, size_t align, size_t len)
{
	void	*p;

	if (align < sizeof(void *) || (align & (align - 1)) != 0)
		return EINVAL;
	note(len);
	if ((p = __libc_memalign(align, len)) == NULL)
		return ENOMEM;
	*out = p;
	return 0;
}

WEAK void *
valloc(size_t len)
{
	return memalign((size_t)sysconf(_SC_PAGESIZE), len);
}

WEAK void *
pvalloc(size_t len)
{
	size_t	 page = (size_t)sysconf(_SC_PAGESIZE);

	return memalign(page, (len + page - 1) & ~(page - 1));
}
