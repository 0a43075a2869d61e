/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/arena.h -- a bump allocator for short-lived trees (decoded nodes).
 * Memory comes in chunks from malloc; arena_reset() keeps the first chunk,
 * so a reused arena allocates nothing once it has grown to the size of the
 * trees it holds.  An arena belongs to one thread at a time.
 */
#ifndef WC_ARENA_H
#define WC_ARENA_H

#include <stddef.h>

struct arena_chunk;

struct arena {
	struct arena_chunk	*head;		/* newest chunk; NULL when empty */
	size_t			 chunk_size;	/* bytes per ordinary chunk */
};

/* Initialise a with chunks of chunk_size bytes (0 means 16 KiB). */
void	 arena_init(struct arena *a, size_t chunk_size);

/*
 * Return len bytes aligned for any object, valid until arena_reset() or
 * arena_release().  len 0 returns a valid non-NULL pointer.  Never returns
 * NULL: aborts on out-of-memory (callers cap sizes read from the wire
 * before asking).
 */
void	*arena_alloc(struct arena *a, size_t len);

/* Forget every allocation, keeping one chunk for reuse. */
void	 arena_reset(struct arena *a);

/* Free every chunk; a may be initialised again. */
void	 arena_release(struct arena *a);

#endif
