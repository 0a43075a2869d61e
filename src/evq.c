/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/evq.c -- the inter-thread FIFO of src/evq.h, and the events and
 * commands of src/event.h that travel in it.
 */
#include "compat.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "event.h"
#include "evq.h"
#include "xmalloc.h"

struct evq_item {
	struct evq_item	*next;
	void		*item;
};

struct ev *
ev_new(enum ev_kind kind, const char *text)
{
	struct ev	*ev = xcalloc(1, sizeof(*ev));

	ev->kind = kind;
	ev->text = xstrdup(text != NULL ? text : "");
	return ev;
}

void
ev_free(struct ev *ev)
{
	size_t	 i;

	if (ev == NULL)
		return;
	for (i = 0; i < ev->nchats; i++) {
		free(ev->chats[i].jid);
		free(ev->chats[i].name);
		free(ev->chats[i].preview);
		free(ev->chats[i].last_sender_name);
		free(ev->chats[i].last_sender);
	}
	free(ev->chats);
	for (i = 0; i < ev->nmsgs; i++) {
		free(ev->msgs[i].id);
		free(ev->msgs[i].sender);
		free(ev->msgs[i].sender_name);
		free(ev->msgs[i].text);
		free(ev->msgs[i].quoted_id);
		free(ev->msgs[i].quoted_sender);
		free(ev->msgs[i].quoted_text);
		free(ev->msgs[i].reactions);
	}
	free(ev->msgs);
	for (i = 0; i < ev->nmembers; i++) {
		free(ev->members[i].jid);
		free(ev->members[i].alt);
		free(ev->members[i].name);
	}
	free(ev->members);
	for (i = 0; i < ev->nhits; i++) {
		free(ev->hits[i].chat);
		free(ev->hits[i].chat_name);
		free(ev->hits[i].id);
		free(ev->hits[i].sender);
		free(ev->hits[i].sender_name);
		free(ev->hits[i].snippet);
	}
	free(ev->hits);
	free(ev->sender_name);
	free(ev->aux);
	free(ev->text);
	free(ev->chat);
	free(ev->id);
	free(ev->sender);
	free(ev->quoted_id);
	free(ev);
}

struct cmd *
cmd_new(enum cmd_kind kind, const char *arg)
{
	struct cmd	*c = xcalloc(1, sizeof(*c));

	c->kind = kind;
	c->arg = xstrdup(arg != NULL ? arg : "");
	return c;
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

struct cmd *
cmd_new_chat(enum cmd_kind kind, const char *chat, const char *id,
    const char *arg, const char *aux, int flag)
{
	struct cmd	*c = cmd_new(kind, arg);

	c->chat = dup_or_null(chat);
	c->id = dup_or_null(id);
	c->aux = dup_or_null(aux);
	c->flag = flag;
	return c;
}

void
cmd_free(struct cmd *c)
{
	if (c == NULL)
		return;
	free(c->arg);
	free(c->chat);
	free(c->id);
	free(c->aux);
	free(c->quoted);
	free(c);
}

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
