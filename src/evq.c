/* SPDX-License-Identifier: GPL-3.0-or-later */
/* src/evq.c -- the inter-thread FIFO of src/evq.h. */
#include "base/compat.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/event.h"
#include "src/evq.h"
#include "base/xmalloc.h"

struct evq_item {
	struct evq_item	*next;
	void		*item;
};

static void
on_async(uv_async_t *a)
{
	struct evq	*q = a->data;

	q->ready(q, q->arg);
}

int
evq_init(struct evq *q, uv_loop_t *loop, evq_free_fn free_item,
    evq_ready_fn ready, void *arg)
{
	int	 rc;

	memset(q, 0, sizeof(*q));
	q->free_item = free_item;
	q->ready = ready;
	q->arg = arg;
	if ((rc = uv_mutex_init(&q->lock)) != 0)
		return rc;
	if ((rc = uv_async_init(loop, &q->async, on_async)) != 0) {
		uv_mutex_destroy(&q->lock);
		return rc;
	}
	q->async.data = q;
	return 0;
}

int
evq_push(struct evq *q, void *item)
{
	struct evq_item	*it;

	assert(item != NULL);
	it = xmalloc(sizeof(*it));
	it->next = NULL;
	it->item = item;
	uv_mutex_lock(&q->lock);
	if (q->closed) {
		uv_mutex_unlock(&q->lock);
		free(it);
		q->free_item(item);
		return -EPIPE;
	}
	if (q->tail != NULL)
		q->tail->next = it;
	else
		q->head = it;
	q->tail = it;
	q->len++;
	/* Under the lock, so the send happens before evq_close() can close
	 * the handle. */
	uv_async_send(&q->async);
	uv_mutex_unlock(&q->lock);
	return 0;
}

void *
evq_pop(struct evq *q)
{
	struct evq_item	*it;
	void		*item = NULL;

	uv_mutex_lock(&q->lock);
	if ((it = q->head) != NULL) {
		q->head = it->next;
		if (q->head == NULL)
			q->tail = NULL;
		q->len--;
	}
	uv_mutex_unlock(&q->lock);
	if (it != NULL) {
		item = it->item;
		free(it);
	}
	return item;
}

size_t
evq_len(struct evq *q)
{
	size_t	 len;

	uv_mutex_lock(&q->lock);
	len = q->len;
	uv_mutex_unlock(&q->lock);
	return len;
}

void
evq_close(struct evq *q)
{
	struct evq_item	*it, *next;

	uv_mutex_lock(&q->lock);
	assert(!q->closed);
	q->closed = true;
	it = q->head;
	q->head = q->tail = NULL;
	q->len = 0;
	uv_mutex_unlock(&q->lock);
	for (; it != NULL; it = next) {
		next = it->next;
		q->free_item(it->item);
		free(it);
	}
	uv_close((uv_handle_t *)&q->async, NULL);
}

void
evq_release(struct evq *q)
{
	uv_mutex_destroy(&q->lock);
}
