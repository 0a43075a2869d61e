/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/eng-ib.c -- the engine's <ib> stanzas (proto/eng-int.h): the
 * unified_session telemetry after login and pairing (protocol.md 7.2)
 * and the pull of the offline backlog in batches (11.6), on the engine's
 * libuv loop.  Engine thread only.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "eng"

#include "base/arena.h"
#include "base/log.h"
#include "proto/eng-int.h"
#include "proto/node.h"

/* 7.2: the id is (now_ms + server offset + 3 days) mod 7 days, in ms
 * ([WM] client.go getUnifiedSessionID, [BL] socket.ts, [RS]
 * unified_session.rs). */
#define US_DAY_MS	(24LL * 60 * 60 * 1000)
#define US_SHIFT_MS	(3 * US_DAY_MS)
#define US_WEEK_MS	(7 * US_DAY_MS)

int64_t
eng_unified_session_id(int64_t now_ms, int64_t offset_ms)
{
	int64_t	 v = (now_ms + offset_ms + US_SHIFT_MS) % US_WEEK_MS;

	return v < 0 ? v + US_WEEK_MS : v;
}

void
eng_take_server_time(struct wa_eng *e, const struct wa_node *n)
{
	char		 ts[24];
	long long	 t;

	wa_node_str_copy(n, "t", ts, sizeof(ts));
	if ((t = strtoll(ts, NULL, 10)) > 0 && t < INT64_MAX / 1000)
		e->server_offset_ms = t * 1000 - eng_now_ms(e);
}

void
eng_send_unified_session(struct wa_eng *e)
{
	struct arena	 a;
	struct wa_node	*ib, *us;
	int64_t		 id = eng_unified_session_id(eng_now_ms(e),
			    e->server_offset_ms);

	arena_init(&a, 0);
	ib = wa_nb_new(&a, "ib", 0);
	us = wa_nb_kid(&a, wa_nb_kids(&a, ib, 1), "unified_session", 1);
	wa_nb_attr_num(&a, us, "id", id);
	if (eng_send(e, ib) == 0)
		log_debug("unified_session %" PRId64 " sent", id);
	arena_release(&a);
}

/* --- the offline backlog (11.6) --- */

static void
send_batch(struct wa_eng *e)
{
	struct arena	 a;
	struct wa_node	*ib, *b;

	arena_init(&a, 0);
	ib = wa_nb_new(&a, "ib", 0);
	b = wa_nb_kid(&a, wa_nb_kids(&a, ib, 1), "offline_batch", 1);
	wa_nb_attr_num(&a, b, "count", WA_ENG_OFFLINE_BATCH);
	if (eng_send(e, ib) == 0) {
		e->off_batches++;
		e->off_armed = true;	/* the next offline stanza re-arms */
	}
	arena_release(&a);
}

static void
on_offline_timer(uv_timer_t *t)
{
	struct wa_eng	*e = t->data;

	if (e->freed || !e->online || !e->off_active)
		return;
	send_batch(e);
}

void
eng_offline_seen(struct wa_eng *e)
{
	if (!e->off_active)
		return;
	e->off_got++;
	if (!e->off_armed)
		return;
	/* The first stanza of a batch asks for the next one, once the
	 * debounce has passed ([RS]). */
	e->off_armed = false;
	eng_timer_start(e, &e->t_offline, on_offline_timer,
	    WA_ENG_OFFLINE_DEBOUNCE_MS);
}

void
eng_offline_reset(struct wa_eng *e)
{
	uv_timer_stop(&e->t_offline);
	e->off_active = e->off_armed = false;
	e->off_batches = e->off_got = 0;
}

static void
on_preview(struct wa_eng *e, const struct wa_node *p)
{
	char	 count[16];

	wa_node_str_copy(p, "count", count, sizeof(count));
	log_info("offline backlog: %s stanzas waiting", count[0] != '\0' ?
	    count : "?");
	if (strcmp(count, "0") == 0)
		return;
	eng_offline_reset(e);
	e->off_active = true;
	send_batch(e);
}

static void
on_offline_end(struct wa_eng *e, const struct wa_node *o)
{
	char	 count[16];

	wa_node_str_copy(o, "count", count, sizeof(count));
	log_info("offline backlog done: the server counts %s, %" PRIu32
	    " received in %" PRIu32 " batch requests", count[0] != '\0' ?
	    count : "?", e->off_got, e->off_batches);
	eng_offline_reset(e);
}

void
eng_on_ib(struct wa_eng *e, const struct wa_node *n)
{
	const struct wa_node	*c;
	size_t			 i;

	if (n->content.kind != WA_VAL_LIST)
		return;
	for (i = 0; i < n->content.u.list.n; i++) {
		c = &n->content.u.list.v[i];
		if (!e->online)
			log_debug("<ib><%.*s> before login", (int)c->tag.len,
			    c->tag.p);
		else if (wa_str_eqc(c->tag, "offline_preview"))
			on_preview(e, c);
		else if (wa_str_eqc(c->tag, "offline"))
			on_offline_end(e, c);
		else if (wa_str_eqc(c->tag, "dirty"))
			log_debug("<ib><dirty type=%.*s> (not synced)",
			    (int)wa_node_str(c, "type").len,
			    wa_node_str(c, "type").p);
		else
			log_debug("<ib><%.*s> not used", (int)c->tag.len,
			    c->tag.p);
	}
}
