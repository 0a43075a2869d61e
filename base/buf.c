/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/buf.c -- growable byte buffer. */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xmalloc.h"

void
buf_reserve(struct buf *b, size_t extra)
{
	size_t	 cap = b->cap != 0 ? b->cap : 256;

	if (b->cap - b->len >= extra)
		return;
	while (cap - b->len < extra) {
		if (cap > SIZE_MAX / 2)
			cap = b->len + extra;
		else
			cap *= 2;
	}
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

void
buf_append(struct buf *b, const void *p, size_t len)
{
	if (len == 0)
		return;
	buf_reserve(b, len);
	memcpy(b->p + b->len, p, len);
	b->len += len;
}

void
buf_release(struct buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
}
