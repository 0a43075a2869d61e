/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-evq.c -- the queues between the threads (src/evq.h) and the
 * events and commands they carry (base/event.h): order, ownership, wakeup
 * coalescing, draining, and the freeing of what was never drained.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <uv.h>

#include "base/event.h"
#include "src/evq.h"

#define N_THREADED	2000

/* A consumer that records what its callback saw. */
struct sink {
	uv_loop_t	 loop;
	struct evq	 q;
	int		 calls;		/* ready callbacks */
	int		 got;		/* items popped */
	int		 frees;		/* items freed by the queue */
	int		 expect;	/* close once this many arrived */
	bool		 in_order;
};

static struct sink	*cur;		/* for the free function */

static void
count_free(void *p)
{
	cur->frees++;
	ev_free(p);
}

static void
drain(struct evq *q, void *arg)
{
	struct sink	*s = arg;
	struct ev	*ev;

	s->calls++;
	while ((ev = evq_pop(q)) != NULL) {
		if (ev->u.connecting.attempt != (uint32_t)s->got)
			s->in_order = false;
		s->got++;
		ev_free(ev);
	}
	if (s->expect > 0 && s->got >= s->expect)
		evq_close(q);
}

static void
sink_init(struct sink *s, int expect)
{
	memset(s, 0, sizeof(*s));
	cur = s;
	s->in_order = true;
	s->expect = expect;
	assert_int_equal(uv_loop_init(&s->loop), 0);
	assert_int_equal(evq_init(&s->q, &s->loop, count_free, drain, s), 0);
}

static void
sink_release(struct sink *s)
{
	uv_run(&s->loop, UV_RUN_DEFAULT);
	evq_release(&s->q);
	assert_int_equal(uv_loop_close(&s->loop), 0);
}

static struct ev *
numbered(uint32_t i)
{
	struct ev	*ev = ev_new(EV_CONNECTING);

	ev->u.connecting.attempt = i;
	return ev;
}

static void
test_evq_pop__returns_the_pushed_items_in_order__fifo(void **state)
{
	struct sink	 s;
	struct ev	*ev[5], *got;
	uint32_t	 i;

	(void)state;
	sink_init(&s, 0);
	for (i = 0; i < 5; i++) {
		ev[i] = numbered(i);
		assert_int_equal(evq_push(&s.q, ev[i]), 0);
	}
	assert_int_equal(evq_len(&s.q), 5);
	for (i = 0; i < 5; i++) {
		/* The very item pushed: ownership moves, nothing is copied. */
		got = evq_pop(&s.q);
		assert_ptr_equal(got, ev[i]);
		ev_free(got);
	}
	assert_null(evq_pop(&s.q));
	assert_int_equal(evq_len(&s.q), 0);
	evq_close(&s.q);
	sink_release(&s);
	assert_int_equal(s.frees, 0);
	assert_int_equal(s.calls, 0);
}

static void
test_evq_ready__is_called_once_and_drains_all__for_coalesced_pushes(
    void **state)
{
	struct sink	 s;
	uint32_t	 i;

	(void)state;
	sink_init(&s, 0);
	for (i = 0; i < 100; i++)
		assert_int_equal(evq_push(&s.q, numbered(i)), 0);
	uv_run(&s.loop, UV_RUN_NOWAIT);
	/* 100 sends before the loop ran: one wakeup, which took them all. */
	assert_int_equal(s.calls, 1);
	assert_int_equal(s.got, 100);
	assert_true(s.in_order);
	assert_int_equal(evq_len(&s.q), 0);
	/* A later push wakes the consumer again. */
	assert_int_equal(evq_push(&s.q, numbered(100)), 0);
	uv_run(&s.loop, UV_RUN_NOWAIT);
	assert_int_equal(s.calls, 2);
	assert_int_equal(s.got, 101);
	evq_close(&s.q);
	sink_release(&s);
}

static void
producer(void *arg)
{
	struct sink	*s = arg;
	uint32_t	 i;

	for (i = 0; i < N_THREADED; i++)
		(void)evq_push(&s->q, numbered(i));
}

static void
test_evq_push__wakes_the_consumer_loop__from_another_thread(void **state)
{
	struct sink	 s;
	uv_thread_t	 t;

	(void)state;
	sink_init(&s, N_THREADED);
	assert_int_equal(uv_thread_create(&t, producer, &s), 0);
	/* The loop ends when drain() closes the queue after the last item. */
	uv_run(&s.loop, UV_RUN_DEFAULT);
	assert_int_equal(uv_thread_join(&t), 0);
	assert_int_equal(s.got, N_THREADED);
	assert_true(s.in_order);
	assert_true(s.calls >= 1 && s.calls <= N_THREADED);
	assert_int_equal(s.frees, 0);
	sink_release(&s);
}

static void
test_evq_close__frees_the_undrained_items__and_refuses_later_pushes(
    void **state)
{
	struct sink	 s;
	uint32_t	 i;

	(void)state;
	sink_init(&s, 0);
	for (i = 0; i < 3; i++)
		assert_int_equal(evq_push(&s.q, numbered(i)), 0);
	evq_close(&s.q);
	assert_int_equal(s.frees, 3);
	assert_int_equal(evq_len(&s.q), 0);
	/* A push after the close frees the item it was handed. */
	assert_int_equal(evq_push(&s.q, numbered(3)), -EPIPE);
	assert_int_equal(s.frees, 4);
	sink_release(&s);
	/* Closed before the loop ran: no callback. */
	assert_int_equal(s.calls, 0);
}

static void
test_ev_new__copies_its_text__and_defaults_to_empty(void **state)
{
	char		 text[] = "15550000001:1@s.whatsapp.net";
	struct ev	*ev = ev_new(EV_PAIRED), *empty;
	struct cmd	*c;

	(void)state;
	ev_set(&ev->u.paired.jid, text);
	text[0] = 'X';
	assert_string_equal(ev->u.paired.jid, "15550000001:1@s.whatsapp.net");
	assert_string_equal(ev->u.paired.number, "");
	assert_int_equal(ev->kind, EV_PAIRED);
	empty = ev_new(EV_STOPPED);
	assert_string_equal(empty->u.stopped.why, "");
	assert_int_equal(empty->u.stopped.err, 0);
	ev_free(ev);
	ev_free(empty);
	ev_free(NULL);

	c = cmd_new(CMD_PAIR_CODE);
	ev_set(&c->u.pair_code.phone, text);
	text[1] = 'Y';
	assert_string_equal(c->u.pair_code.phone,
	    "X5550000001:1@s.whatsapp.net");
	cmd_free(c);
	c = cmd_new(CMD_SEND);
	assert_string_equal(c->u.send.chat, "");
	assert_string_equal(c->u.send.text, "");
	assert_string_equal(c->u.send.quoted_id, "");
	cmd_free(c);
	c = cmd_new_chat(CMD_SEARCH, "15550000002@s.whatsapp.net");
	assert_string_equal(c->u.search.chat, "15550000002@s.whatsapp.net");
	assert_string_equal(c->u.search.query, "");
	cmd_free(c);
	c = cmd_new_chat(CMD_LOAD_CHATS, "ignored");
	assert_int_equal(c->u.load_chats.max, 0);
	cmd_free(c);
	cmd_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evq_pop__returns_the_pushed_items_in_order__fifo),
		cmocka_unit_test(test_evq_ready__is_called_once_and_drains_all__for_coalesced_pushes),
		cmocka_unit_test(test_evq_push__wakes_the_consumer_loop__from_another_thread),
		cmocka_unit_test(test_evq_close__frees_the_undrained_items__and_refuses_later_pushes),
		cmocka_unit_test(test_ev_new__copies_its_text__and_defaults_to_empty),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
