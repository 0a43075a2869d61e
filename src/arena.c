/* SPDX-License-Identifier: GPL-3.0-or-later */
/* src/arena.c -- bump allocator in malloc'd chunks. */
#include "compat.h"

#include <stdint.h>
#include <stdlib.h>

#include "arena.h"
#include "xmalloc.h"

#define ARENA_ALIGN	16
#define ARENA_DEFAULT	(16 * 1024)

struct arena_chunk {
	struct arena_chunk	*next;
	size_t			 size;	/* usable bytes in data */
	size_t			 used;
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

void
arena_init(struct arena *a, size_t chunk_size)
{
	a->head = NULL;
	a->chunk_size = chunk_size != 0 ? chunk_size : ARENA_DEFAULT;
}

void *
arena_alloc(struct arena *a, size_t len)
{
	struct arena_chunk	*c = a->head;
	size_t			 size;
	void			*p;

	len = (len + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
	if (c == NULL || c->size - c->used < len) {
		size = len > a->chunk_size ? len : a->chunk_size;
		c = xmalloc(sizeof(*c) + size);
		c->size = size;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	p = c->data + c->used;
	c->used += len;
	return p;
}

void
arena_reset(struct arena *a)
{
	struct arena_chunk	*c, *next, *keep = NULL;

	/* Keep the largest chunk: it is the one a tree of this size needs. */
	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		if (keep == NULL || c->size > keep->size) {
			free(keep);
			keep = c;
		} else
			free(c);
	}
	if (keep != NULL) {
		keep->next = NULL;
		keep->used = 0;
	}
	a->head = keep;
}

void
arena_release(struct arena *a)
{
	struct arena_chunk	*c, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->head = NULL;
}
