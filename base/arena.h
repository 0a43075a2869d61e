/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/arena.h -- a bump allocator for short-lived trees (decoded nodes).
 * Memory comes in chunks from malloc; arena_reset() folds them into one
 * chunk of their total size, so a reused arena allocates nothing once it
 * has grown to the size of the trees it holds.  An arena belongs to one
 * thread at a time.
 */
#ifndef WC_ARENA_H
#define WC_ARENA_H

#include <stddef.h>

#define ARENA_ALIGN	16	/* bytes; every block is aligned to this */

struct arena_chunk;

struct arena {
	unsigned char		*cur;		/* next free byte; NULL when empty */
	size_t			 avail;		/* bytes left after cur */
	struct arena_chunk	*head;		/* newest chunk; NULL when empty */
	size_t			 chunk_size;	/* bytes per ordinary chunk */
};

/* Initialise a with chunks of chunk_size bytes (0 means 16 KiB). */
void	 arena_init(struct arena *a, size_t chunk_size);

/* arena_alloc() when the block does not fit in the newest chunk. */
void	*arena_alloc_slow(struct arena *a, size_t len);

/*
 * Return len bytes aligned for any object (ARENA_ALIGN), valid until
 * arena_reset() or arena_release().  len 0 returns a valid non-NULL
 * pointer.  Never returns NULL: aborts on out-of-memory (callers cap sizes
 * read from the wire before asking).  Inline because decoders call it for
 * every node: the common case is a compare and a bump.
 */
static inline void *
arena_alloc(struct arena *a, size_t len)
{
	void	*p;

	len = (len + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	/* Strictly less: an empty arena (avail 0) and len 0 go the slow way,
	 * which never returns NULL. */
	if (len >= a->avail)
		return arena_alloc_slow(a, len);
	p = a->cur;
	a->cur += len;
	a->avail -= len;
	return p;
}

/*
 * Forget every allocation.  When the last round used more than one chunk,
 * they are replaced by one chunk of their total size, so the next tree of
 * the same size fits without a call to malloc; a single chunk is kept as
 * it is.  The arena never shrinks until arena_release().
 */
void	 arena_reset(struct arena *a);

/* Free every chunk; a may be initialised again. */
void	 arena_release(struct arena *a);

#endif
