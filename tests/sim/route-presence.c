/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/route-presence.c -- chat states and presence in the
 * simulator (protocol.md 15.2, 15.3): <chatstate> relayed to the
 * addressee's connections, presence subscriptions, an account's
 * available/unavailable (and last seen) sent to its subscribers, also
 * when its last connection closes.  Loop thread only.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/xmalloc.h"
#include "nodes.h"
#include "proto/bin.h"
#include "route.h"
#include "session.h"
#include "sim.h"

/* A presence subscription of one connection (15.2). */
struct sim_sub {
	struct sim_sub		*next;
	uint64_t		 conn_id;
	struct sim_account	*target;
	bool			 lid;	/* subscribed by LID */
};

void
route_chatstate(struct sim_conn *c, const struct wa_node *n)
{
	struct sim		*s = c->s;
	struct sim_account	*ta;
	struct sim_conn		*o;
	struct sim_jid		 to;
	struct arena		 a;
	struct wa_node		*out;
	unsigned		 sent = 0;
	size_t			 k;

	if (!sim_jid_parse(wa_node_attr(n, "to"), &to) ||
	    (ta = sim_jid_account(s, &to)) == NULL) {
		sim_conn_log(c, "chatstate to an unknown user dropped");
		return;
	}
	arena_init(&a, 0);
	out = sn_new(&a, "chatstate");
	route_put_jid(&a, out, "from", c->acct, to.lid, 0);
	for (k = 0; n->content.kind == WA_VAL_LIST && k < n->content.u.list.n;
	    k++)
		sn_append(&a, out, &n->content.u.list.v[k]);
	for (o = s->conns; o != NULL; o = o->next)
		if (o != c && o->authed && o->st == SIM_C_READY &&
		    o->acct == ta && o->dev != NULL &&
		    sim_conn_send_node(o, out) == 0)
			sent++;
	arena_release(&a);
	s->chatstates++;
	sim_conn_log(c, "chatstate to %s@%s: relayed to %u connections",
	    to.user, to.server, sent);
}

/* <presence from=a [type="unavailable" last=T]/> to one connection. */
static void
send_presence(struct sim_conn *c, struct sim_account *a, bool lid)
{
	struct arena	 ar;
	struct wa_node	*p;

	arena_init(&ar, 0);
	p = sn_new(&ar, "presence");
	route_put_jid(&ar, p, "from", a, lid, 0);
	if (!a->available) {
		sn_attr(&ar, p, "type", "unavailable");
		if (a->last_hidden)	/* protocol-features.md 4.3 */
			sn_attr(&ar, p, "last", "deny");
		else if (a->last_seen != 0)
			route_put_t(&ar, p, "last", a->last_seen);
	}
	if (sim_conn_send_node(c, p) == 0)
		c->s->presences++;
	arena_release(&ar);
}

static void
presence_changed(struct sim *s, struct sim_account *a)
{
	struct sim_sub	*sub;
	struct sim_conn	*c;

	for (sub = s->subs; sub != NULL; sub = sub->next)
		if (sub->target == a && (c = sim_conn_by_id(s,
		    sub->conn_id)) != NULL && c->st == SIM_C_READY)
			send_presence(c, a, sub->lid);
}

void
sim_route_presence_set(struct sim *s, struct sim_account *a, bool available,
    int64_t last_seen, bool hidden)
{
	a->available = available;
	if (last_seen != 0)
		a->last_seen = last_seen;
	a->last_hidden = hidden;
	sim_log(s, "presence of %s set: %s", a->pn, available ? "available" :
	    "unavailable");
	presence_changed(s, a);
}

void
route_presence(struct sim_conn *c, const struct wa_node *n)
{
	struct sim		*s = c->s;
	struct sim_account	*ta;
	struct sim_sub		*sub, **pp;
	struct sim_jid		 to;
	char			 type[24];

	route_attr_str(n, "type", type, sizeof(type));
	if (strcmp(type, "subscribe") == 0 || strcmp(type, "unsubscribe") ==
	    0) {
		if (!sim_jid_parse(wa_node_attr(n, "to"), &to) ||
		    (ta = sim_jid_account(s, &to)) == NULL)
			return;
		for (pp = &s->subs; (sub = *pp) != NULL; pp = &sub->next)
			if (sub->conn_id == c->id && sub->target == ta)
				break;
		if (type[0] == 'u') {
			if (sub != NULL) {
				*pp = sub->next;
				free(sub);
			}
			return;
		}
		if (sub == NULL) {
			sub = xcalloc(1, sizeof(*sub));
			sub->conn_id = c->id;
			sub->target = ta;
			sub->next = s->subs;
			s->subs = sub;
		}
		sub->lid = to.lid;
		sim_conn_log(c, "presence subscription to %s@%s", to.user,
		    to.server);
		send_presence(c, ta, to.lid);
		return;
	}
	if (type[0] != '\0' && strcmp(type, "available") != 0 &&
	    strcmp(type, "unavailable") != 0)
		return;
	c->acct->available = strcmp(type, "unavailable") != 0;
	if (!c->acct->available)
		c->acct->last_seen = route_now_s();
	sim_conn_log(c, "presence of %s: %s", c->acct->pn,
	    c->acct->available ? "available" : "unavailable");
	presence_changed(s, c->acct);
}

void
sim_route_conn_closed(struct sim_conn *c)
{
	struct sim	*s = c->s;
	struct sim_sub	*sub, **pp;
	struct sim_conn	*o;

	for (pp = &s->subs; (sub = *pp) != NULL;) {
		if (sub->conn_id == c->id) {
			*pp = sub->next;
			free(sub);
		} else
			pp = &sub->next;
	}
	if (!c->authed || c->acct == NULL || !c->acct->available ||
	    s->stopping)
		return;
	for (o = s->conns; o != NULL; o = o->next)
		if (o != c && o->authed && o->acct == c->acct &&
		    o->st == SIM_C_READY)
			return;
	c->acct->available = false;
	c->acct->last_seen = route_now_s();
	presence_changed(s, c->acct);
}

void
route_subs_free(struct sim *s)
{
	struct sim_sub	*sub;

	while ((sub = s->subs) != NULL) {
		s->subs = sub->next;
		free(sub);
	}
}
