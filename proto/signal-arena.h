/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/signal-arena.h -- a per-operation bump arena under
 * libsignal-protocol-c (perf.md "What matters most" 2, 2.2 "+arena", 5.3).
 *
 * libsignal-protocol-c has no allocator hooks: it unpacks and repacks the
 * whole session record with protobuf-c's default allocator on every
 * encrypt and decrypt, about 80-100 malloc calls each.  proto/signal-arena.c
 * defines malloc, calloc, realloc, reallocarray, free, the aligned
 * allocators and malloc_usable_size in the executable, which interposes
 * them for every shared library (libsignal-protocol-c and libprotobuf-c
 * call malloc through their PLT).  Outside a scope each forwards to glibc
 * (__libc_malloc and friends).  Inside a scope opened by
 * wa_signal_arena_enter() on the calling thread, malloc, calloc and
 * realloc of NULL or of an arena block bump-allocate from the thread's
 * chunk (16-byte aligned, a 16-byte size header), and free of an arena
 * block only decrements the chunk's count of live blocks.
 * wa_signal_arena_leave() resets the chunk for the next scope when that
 * count is 0; otherwise the chunk is retired, never reused, so a block
 * that escaped its scope stays valid (it leaks; the count is returned).
 * A request that does not fit the chunk's rest, the aligned allocators,
 * and realloc of a glibc block always go to glibc; free of a glibc block
 * goes to glibc whatever the scope.
 *
 * Who uses it: proto/signal.c opens a scope around each libsignal call and
 * pauses it (wa_signal_arena_pause()) inside every store callback, around
 * everything that reaches SQLite or OpenSSL and around every write to a
 * caller's buffer, so only libsignal's own per-call objects land in the
 * arena.
 *
 * Off (every function below a no-op, the allocator untouched) when built
 * with a sanitizer (WA_SIGNAL_ARENA_OFF from proto/signal.mk when the
 * compile flags hold -fsanitize, or __SANITIZE_ADDRESS__ and clang's
 * __has_feature(address/memory/thread_sanitizer)), so AddressSanitizer
 * keeps its own malloc and sees libsignal's blocks; and at run time when
 * the environment has WACHAT_SIGNAL_ARENA=0 (the interposed functions
 * then only forward to glibc).  Under valgrind (memcheck, DHAT) the tool
 * replaces these functions; the first scope notices that its probe block
 * did not come from the arena and turns the arena off for good.
 *
 * Threads: the scope and the chunk are per thread (any thread may open
 * scopes on its own); a free of another thread's arena block from any
 * thread is safe.  Memory: chunks of WA_SIGNAL_ARENA_CHUNK bytes are cut
 * from one WA_SIGNAL_ARENA_REGION-byte private mapping reserved at the
 * first scope (MAP_NORESERVE: only touched pages count); once every chunk
 * is in use or retired, scopes stop using the arena.
 */
#ifndef WA_SIGNAL_ARENA_H
#define WA_SIGNAL_ARENA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WA_SIGNAL_ARENA_CHUNK	(64u * 1024)	/* bytes per thread chunk */
#define WA_SIGNAL_ARENA_REGION	(32u * 1024 * 1024) /* reserved, bytes */

/*
 * Open a scope on this thread: until the matching wa_signal_arena_leave(),
 * this thread's malloc/calloc/realloc come from its chunk (taken at the
 * first scope).  Scopes nest; only the outermost leave resets.  Returns
 * true when the arena is in use for this scope, false when it is off
 * (sanitizer build, WACHAT_SIGNAL_ARENA=0, no chunk left, or the reserve
 * failed); leave must be called either way.
 */
bool	 wa_signal_arena_enter(void);

/*
 * Close the scope opened by the last wa_signal_arena_enter() on this
 * thread.  At the outermost level: when no arena block of this chunk is
 * live, the used part is wiped and the chunk reused by the next scope;
 * else the chunk is retired (never reused) and the count of its live
 * blocks is returned, so the caller can log it.  Returns 0 otherwise.
 */
size_t	 wa_signal_arena_leave(void);

/*
 * Inside a scope: turn the arena off for this thread until
 * wa_signal_arena_resume() with the value returned (store callbacks,
 * OpenSSL, writes to a long-lived buffer).  Returns whether it was on.
 */
bool	 wa_signal_arena_pause(void);
void	 wa_signal_arena_resume(bool was_on);

/* Whether p is a block of the arena (any thread's, live or not). */
bool	 wa_signal_arena_owns(const void *p);

/* Process-wide counts since start, for tests and benches. */
struct wa_signal_arena_stats {
	uint64_t	 scopes;	/* outermost scopes that used the arena */
	uint64_t	 blocks;	/* blocks served from a chunk */
	uint64_t	 fallbacks;	/* requests in scope sent to glibc */
	uint64_t	 retired;	/* chunks retired with live blocks */
	uint64_t	 escaped;	/* live blocks in those chunks */
	uint64_t	 chunks;	/* chunks taken from the region */
};
void	 wa_signal_arena_stats(struct wa_signal_arena_stats *out);

/*
 * Whether this build interposes the allocator (false in sanitizer builds).
 * The arena may still be off at run time (WACHAT_SIGNAL_ARENA=0).
 */
bool	 wa_signal_arena_built(void);

/*
 * For tests/bench/alloc-count.c: on_alloc(len) is called for every
 * malloc, calloc, realloc or aligned allocation that reaches glibc (never
 * for one served from a chunk), on_free() for every free of a non-NULL
 * glibc block, as divan counts calls into the general-purpose allocator
 * (perf.md 4.1).  NULL hooks stop the calls.  Set from one thread while no
 * other thread allocates; the hooks run on the allocating thread and must
 * not allocate.
 */
void	 wa_signal_arena_set_count_hooks(void (*on_alloc)(size_t len),
	    void (*on_free)(void));

#endif
