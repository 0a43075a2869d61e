/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/scope-alloc.h -- a per-scope bump allocator behind the process's
 * malloc (perf.md "What matters most" 2, 2.2 "+arena", 5.3), for a
 * library that has no allocator hooks: libsignal-protocol-c unpacks and
 * repacks the whole session record with protobuf-c's default allocator on
 * every encrypt and decrypt, about 80-100 malloc calls each, and
 * proto/signal*.c run each of its calls in a scope.
 *
 * base/scope-alloc.c defines malloc, calloc, realloc, reallocarray, free,
 * the aligned allocators and malloc_usable_size in the executable, which
 * interposes them for every shared library (libsignal-protocol-c and
 * libprotobuf-c call malloc through their PLT).  It calls only libc, so
 * the rest of base/ (xmalloc, arena) sits above it.  Outside a scope each
 * forwards to glibc (__libc_malloc and friends).  Inside a scope opened by
 * scope_alloc_enter() on the calling thread, malloc, calloc and realloc of
 * NULL or of a scope block bump-allocate from the thread's chunk (16-byte
 * aligned, a 16-byte size header), and free of a scope block only
 * decrements the chunk's count of live blocks.  scope_alloc_leave()
 * resets the chunk for the next scope when that count is 0; otherwise the
 * chunk is retired, never reused, so a block that escaped its scope stays
 * valid (it leaks; the count is returned).  A request that does not fit
 * the chunk's rest, the aligned allocators, and realloc of a glibc block
 * always go to glibc; free of a glibc block goes to glibc whatever the
 * scope.  A thread that opened no scope is never served from a chunk.
 *
 * Checks, for what a sanitizer cannot see inside a chunk: each chunk has a
 * canary at both ends of its data (SCOPE_ALLOC_CANARY), checked at every
 * outermost leave, which aborts the process with a message on stderr when
 * one was written over (a block overrun); and the data of a chunk is
 * poisoned (SCOPE_ALLOC_POISON in every byte) when the chunk is taken and
 * again when a scope's blocks are released, which also wipes what the
 * scope held (keys).  scope_alloc_check() looks at both at any time.
 *
 * Off (every function below a no-op or false, the allocator untouched)
 * when built with a sanitizer (SCOPE_ALLOC_OFF from base/local.mk when the
 * compile flags hold -fsanitize, or __SANITIZE_ADDRESS__ and clang's
 * __has_feature(address/memory/thread_sanitizer)), so AddressSanitizer
 * keeps its own malloc and sees every block; and at run time when the
 * environment has WACHAT_SIGNAL_ARENA=0 (the interposed functions then
 * only forward to glibc).  Under valgrind (memcheck, DHAT) the tool
 * replaces these functions; the first scope notices that its probe block
 * did not come from a chunk and turns scopes off for good.
 *
 * Threads: the scope and the chunk are per thread (any thread may open
 * scopes on its own); a free of another thread's scope block from any
 * thread is safe.  Memory: chunks of SCOPE_ALLOC_CHUNK bytes are cut from
 * one SCOPE_ALLOC_REGION-byte private mapping reserved at the first scope
 * (MAP_NORESERVE: only touched pages count; a taken chunk is touched
 * whole, by its poison); once every chunk is in use or retired, scopes
 * stop serving blocks.
 */
#ifndef WC_SCOPE_ALLOC_H
#define WC_SCOPE_ALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SCOPE_ALLOC_CHUNK	(64u * 1024)	/* bytes per thread chunk */
#define SCOPE_ALLOC_REGION	(32u * 1024 * 1024) /* reserved, bytes */
/* The largest request a chunk serves, bytes (its data less one block
 * header); larger ones go to glibc. */
#define SCOPE_ALLOC_BLOCK_MAX	(SCOPE_ALLOC_CHUNK - 64u - 16u - 16u)
#define SCOPE_ALLOC_POISON	0xA5u		/* every free byte of a chunk */
#define SCOPE_ALLOC_CANARY	0x5CA1AB1E0DDBA11ull /* at both data ends */

/*
 * Open a scope on this thread: until the matching scope_alloc_leave(),
 * this thread's malloc/calloc/realloc come from its chunk (taken at the
 * first scope).  Scopes nest; only the outermost leave resets.  Returns
 * true when the scope serves blocks, false when scopes are off (sanitizer
 * build, WACHAT_SIGNAL_ARENA=0, valgrind, no chunk left, or the reserve
 * failed); leave must be called either way.  Any thread.
 */
bool	 scope_alloc_enter(void);

/*
 * Close the scope opened by the last scope_alloc_enter() on this thread.
 * At the outermost level the chunk's canaries are checked (the process
 * aborts when one was overwritten); then, when no block of the chunk is
 * live, the used part is poisoned and the chunk reused by the next
 * scope; else the chunk is retired (never reused) and the count of its
 * live blocks is returned, so the caller can log it.  Returns 0
 * otherwise.  A leave without a scope is a no-op.
 */
size_t	 scope_alloc_leave(void);

/*
 * Inside a scope: stop serving blocks on this thread until
 * scope_alloc_resume() with the value returned (store callbacks, OpenSSL,
 * writes to a long-lived buffer).  Returns whether blocks were served.
 */
bool	 scope_alloc_pause(void);
void	 scope_alloc_resume(bool was_on);

/* Whether p is a block of a chunk (any thread's, live or not). */
bool	 scope_alloc_owns(const void *p);

/*
 * Whether this thread's current chunk is sound: both canaries intact and
 * every byte past its used part still SCOPE_ALLOC_POISON (nothing wrote
 * past a block, or into blocks released by a finished scope).  True when
 * the thread has no chunk, or scopes are off.  Reads the whole chunk: for
 * tests and debugging, not for every call.
 */
bool	 scope_alloc_check(void);

/* Process-wide counts since start, for tests and benches. */
struct scope_alloc_stats {
	uint64_t	 scopes;	/* outermost scopes serving blocks */
	uint64_t	 blocks;	/* blocks served from a chunk */
	uint64_t	 fallbacks;	/* requests in scope sent to glibc */
	uint64_t	 retired;	/* chunks retired with live blocks */
	uint64_t	 escaped;	/* live blocks in those chunks */
	uint64_t	 chunks;	/* chunks taken from the region */
};
void	 scope_alloc_stats(struct scope_alloc_stats *out);

/*
 * Whether this build interposes the allocator (false in sanitizer builds).
 * Scopes may still be off at run time (WACHAT_SIGNAL_ARENA=0, valgrind).
 */
bool	 scope_alloc_built(void);

/*
 * For tests/bench/alloc-count.c: on_alloc(len) is called for every
 * malloc, calloc, realloc or aligned allocation that reaches glibc (never
 * for one served from a chunk), on_free() for every free of a non-NULL
 * glibc block, as divan counts calls into the general-purpose allocator
 * (perf.md 4.1).  NULL hooks stop the calls.  Set from one thread while no
 * other thread allocates; the hooks run on the allocating thread and must
 * not allocate.
 */
void	 scope_alloc_set_count_hooks(void (*on_alloc)(size_t len),
	    void (*on_free)(void));

#endif
