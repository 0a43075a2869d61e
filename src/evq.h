/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/evq.h -- a FIFO between two threads (style.md 3.1): a mutex, a
 * list of owned items and a uv_async_t on the consumer's loop.  Any
 * thread may push; uv_async_send() wakes the consumer, and since wakeups
 * coalesce, the consumer's callback pops until the queue is empty.  One
 * carries struct ev from the engine to the UI, another struct cmd from the
 * UI to the engine (base/event.h); the queue itself holds any item with a
 * free function.
 *
 * Thread contract: evq_init(), evq_pop() and evq_close() run on the
 * consumer's loop thread (evq_init() may also run before that loop's
 * thread starts); evq_push() on any thread; evq_release() once no thread
 * can push any more and the loop has run the handle's close callback.
 */
#ifndef WC_EVQ_H
#define WC_EVQ_H

#include <stdbool.h>
#include <stddef.h>

#include <uv.h>

struct evq;
struct evq_item;

/* Called on the consumer's loop when items may be waiting: pop them all. */
typedef void	(*evq_ready_fn)(struct evq *q, void *arg);
/* Frees one item (ev_free, cmd_free). */
typedef void	(*evq_free_fn)(void *item);

struct evq {
	uv_async_t		 async;		/* on the consumer's loop */
	uv_mutex_t		 lock;		/* guards the fields below */
	struct evq_item		*head;		/* oldest; NULL when empty */
	struct evq_item		*tail;
	size_t			 len;		/* items queued */
	bool			 closed;	/* evq_close() was called */
	evq_free_fn		 free_item;
	evq_ready_fn		 ready;
	void			*arg;
};

/*
 * Set up q on loop: ready(q, arg) is called there after pushes (at least
 * once after each, possibly once for several).  free_item frees items
 * left in the queue at close and items pushed after it.  Returns 0.
 * Errors: those of uv_mutex_init() and uv_async_init() (negated errno);
 * q is then left released.
 */
MUST_CHECK int	evq_init(struct evq *q, uv_loop_t *loop, evq_free_fn free_item,
		    evq_ready_fn ready, void *arg);

/*
 * Append item (not NULL), taking ownership of it, and wake the consumer.
 * Returns 0, or -EPIPE when q is closed: the item has then been freed.
 * Any thread.
 */
int		evq_push(struct evq *q, void *item);

/*
 * Take the oldest item: the caller owns it.  NULL when the queue is empty.
 * Consumer thread.
 */
void		*evq_pop(struct evq *q);

/* The number of items waiting.  Any thread (a snapshot). */
size_t		 evq_len(struct evq *q);

/*
 * Refuse further pushes, free every item still queued, and close the
 * async handle (its close callback runs on the next loop iteration).
 * Consumer thread; once.
 */
void		 evq_close(struct evq *q);

/*
 * Destroy the mutex.  After evq_close(), once its close callback has run
 * (the loop has run since) and no thread can still call evq_push().
 */
void		 evq_release(struct evq *q);

#endif
