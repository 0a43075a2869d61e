/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/arena.c -- bump allocator in malloc'd chunks. */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/arena.h"
#include "base/xmalloc.h"

#define ARENA_DEFAULT	(16 * 1024)

struct arena_chunk {
	struct arena_chunk	*next;
	size_t			 size;	/* usable bytes in data */
	_Alignas(ARENA_ALIGN) unsigned char data[];
};

void
arena_init(struct arena *a, size_t chunk_size)
{
	a->cur = NULL;
	a->avail = 0;
	a->head = NULL;
	a->chunk_size = chunk_size != 0 ? chunk_size : ARENA_DEFAULT;
}

/* Make a chunk of size bytes the newest one, with all of it free. */
static void
add_chunk(struct arena *a, size_t size)
{
	struct arena_chunk	*c = xmalloc(sizeof(*c) + size);

	c->size = size;
	c->next = a->head;
	a->head = c;
	a->cur = c->data;
	a->avail = size;
}

/* len is already rounded to ARENA_ALIGN by arena_alloc(). */
void *
arena_alloc_slow(struct arena *a, size_t len)
{
	void	*p;

	if (a->cur == NULL || len > a->avail)
		add_chunk(a, len > a->chunk_size ? len : a->chunk_size);
	p = a->cur;
	a->cur += len;
	a->avail -= len;
	return p;
}

void
arena_reset(struct arena *a)
{
	struct arena_chunk	*c, *next;
	size_t			 total = 0;

	if (a->head == NULL)
		return;
	if (a->head->next != NULL) {
		/* The tree needed several chunks: one of their total size holds
		 * it next time. */
		for (c = a->head; c != NULL; c = next) {
			next = c->next;
			total += c->size;
			free(c);
		}
		a->head = NULL;
		add_chunk(a, total);
		return;
	}
	a->cur = a->head->data;
	a->avail = a->head->size;
}

void
arena_release(struct arena *a)
{
	struct arena_chunk	*c, *next;

	for (c = a->head; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	a->cur = NULL;
	a->avail = 0;
	a->head = NULL;
}
