/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/fakes/fake-transport.c -- the recording host of fake-transport.h. */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "proto/node.h"
#include "tests/fakes/fake-transport.h"

void
fake_transport_init(struct fake_transport *t, struct fake_clock *clock)
{
	memset(t, 0, sizeof(*t));
	t->clock = clock;
	arena_init(&t->a, 4096);
}

void
fake_transport_release(struct fake_transport *t)
{
	size_t	 i;

	for (i = 0; i < t->n; i++)
		buf_release(&t->frames[i]);
	free(t->frames);
	arena_release(&t->a);
	memset(t, 0, sizeof(*t));
}

static int
host_send(void *arg, const struct wa_node *n)
{
	struct fake_transport	*t = arg;

	if (t->on_send != NULL)
		t->on_send(t->on_send_arg, n);
	if (t->fail_n > 0) {
		t->fail_n--;
		t->failed++;
		return t->fail_rc;
	}
	if (t->n == t->cap) {
		t->cap = t->cap == 0 ? 16 : t->cap * 2;
		t->frames = xrealloc(t->frames, t->cap * sizeof(*t->frames));
	}
	memset(&t->frames[t->n], 0, sizeof(t->frames[0]));
	if (wa_bin_encode(n, &t->frames[t->n]) != 0)
		abort();	/* the engine built a node that cannot go */
	t->n++;
	return 0;
}

static void
host_iq_id(void *arg, char out[32])
{
	struct fake_transport	*t = arg;

	snprintf(out, 32, "fake-%u", ++t->iq_seq);
}

static int64_t
host_now_ms(void *arg)
{
	struct fake_transport	*t = arg;

	return fake_clock_now(t->clock);
}

static int
host_rng(void *arg, uint8_t *p, size_t len)
{
	struct fake_transport	*t = arg;
	size_t			 i;

	for (i = 0; i < len; i++)
		p[i] = ++t->rng_seq;
	return 0;
}

static void
host_history(void *arg)
{
	struct fake_transport	*t = arg;

	t->histories++;
}

void
fake_transport_host(struct fake_transport *t, struct wa_dm_host *h)
{
	memset(h, 0, sizeof(*h));
	h->send = host_send;
	h->iq_id = host_iq_id;
	h->now_ms = host_now_ms;
	h->rng = host_rng;
	h->history = host_history;
	h->arg = t;
}

void
fake_transport_fail(struct fake_transport *t, int n, int rc)
{
	t->fail_n = n;
	t->fail_rc = rc;
}

size_t
fake_transport_count(const struct fake_transport *t)
{
	return t->n;
}

const struct wa_node *
fake_transport_node(struct fake_transport *t, size_t i)
{
	struct wa_node	*n;

	if (i >= t->n || wa_bin_decode(t->frames[i].p, t->frames[i].len,
	    &t->a, &n, NULL) != 0)
		abort();
	return n;
}

bool
fake_node_attr(const struct wa_node *n, const char *key, char *out,
    size_t len)
{
	struct wa_str	 s;

	if (wa_node_jid(n, key, out, len))
		return true;
	s = wa_node_str(n, key);
	if (s.p == NULL)
		return false;
	snprintf(out, len, "%.*s", (int)s.len, s.p);
	return true;
}

int
fake_transport_find(struct fake_transport *t, size_t from, const char *tag,
    const char *key, const char *val)
{
	const struct wa_node	*n;
	char			 v[256];
	size_t			 i;

	for (i = from; i < t->n; i++) {
		n = fake_transport_node(t, i);
		if (!wa_str_eqc(n->tag, tag))
			continue;
		if (key == NULL || (fake_node_attr(n, key, v, sizeof(v)) &&
		    strcmp(v, val) == 0))
			return (int)i;
	}
	return -1;
}
