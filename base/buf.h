/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/buf.h -- a growable byte buffer.  Encoders append to a buf the caller
 * reuses, so a warm buffer allocates nothing.  A buf belongs to one thread
 * at a time.
 */
#ifndef WC_BUF_H
#define WC_BUF_H

#include <stddef.h>
#include <stdint.h>

struct buf {
	uint8_t	*p;	/* the bytes; NULL until the first append */
	size_t	 len;	/* bytes in use */
	size_t	 cap;	/* bytes allocated */
};

#define BUF_INIT { NULL, 0, 0 }

/* Make room for at least extra more bytes (aborts on out-of-memory). */
void	 buf_reserve(struct buf *b, size_t extra);
/* Append len bytes from p (p may be NULL when len is 0). */
void	 buf_append(struct buf *b, const void *p, size_t len);
/* Append one byte. */
static inline void
buf_push(struct buf *b, uint8_t c)
{
	if (b->len == b->cap)
		buf_reserve(b, 1);
	b->p[b->len++] = c;
}
/* Free the bytes; b is empty and usable again. */
void	 buf_release(struct buf *b);

#endif
