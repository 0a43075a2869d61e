/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/call.c -- a contact calls an account (protocol-features.md
 * 5): POST /admin/call sends <call><offer .../></call> from the caller's
 * phone to every linked companion of the account, and after a delay
 * <call><terminate reason=.../></call> (timeout: nobody answered, or
 * accepted_elsewhere, rejected_elsewhere as when another device took
 * it).  Each <call> is routed like a message (route.c): kept per device
 * until that device acks it with <ack class="call" id to> and the
 * stanza's participant and recipient (11.7), sent at once to a connected
 * device and, until acked, again at each login with offline="1".  A
 * malformed call (an offer without a call-id, for the client's reader)
 * is routed the same way.  A companion's <call><reject/></call> (its
 * user declined) is checked against the call that rings, counted
 * (call_rejects, call_rejects_bad in /admin/status), acked, and ends the
 * call: no timeout terminate; the account's other companions get
 * terminate reason="rejected_elsewhere".  Loop thread only.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/xmalloc.h"
#include "nodes.h"
#include "proto/node.h"
#include "route.h"
#include "session.h"
#include "sim.h"

#define CALL_MAX_DEVICES	64

/* One call: what its offer said, for its terminate; in s->call_jobs
 * while its terminate is due (a reject from a companion ends it). */
struct call_job {
	uv_timer_t		 t;
	struct sim		*s;
	struct call_job		*next;
	uint32_t		 skip_dev;	/* a device the terminate does
						 * not go to (+1; 0: none) */
	struct sim_account	*caller, *callee;
	char			 call_id[40];
	char			 group[96];	/* group-jid, or "" */
	char			 reason[24];	/* terminate's; "" none */
	bool			 video;
};

/*
 * Route the <call> from j->caller with the action child ch (id: the
 * stanza's) to every companion of j->callee; returns how many devices
 * got it queued.
 */
static unsigned
call_route(struct sim *s, const struct call_job *j, const char *action,
    struct wa_node *ch, struct arena *a, char id[32])
{
	struct wa_node	*n = sn_new(a, "call");
	uint32_t	 devs[CALL_MAX_DEVICES];
	char		 from[96];
	size_t		 i, nd;
	unsigned	 queued = 0;

	snprintf(id, 32, "sim-call-%" PRIu64, ++s->next_iq);
	route_put_jid(a, n, "from", j->caller, false, 0);
	sn_attr(a, n, "id", id);
	route_put_t(a, n, "t", route_now_s());
	if (j->caller->name[0] != '\0')
		sn_attr(a, n, "notify", j->caller->name);
	sn_attr(a, n, "platform", "android");
	sn_attr(a, n, "version", "2.25.1.0");
	sn_append(a, n, ch);
	route_jid_text(from, sizeof(from), j->caller, false, 0);
	nd = sim_route_devices(j->callee, devs, CALL_MAX_DEVICES);
	for (i = 0; i < nd; i++) {
		if (devs[i] == 0 || devs[i] + 1 == j->skip_dev)
			continue;	/* the account's phone is not a client;
					 * the device that rejected it */
		if (sim_route_queue(s, SIM_ROUTE_CALL, id, action, from,
		    j->callee, devs[i], false, "", n) >= 0)
			queued++;
	}
	s->calls += queued;
	sim_log(s, "call %s from %s to %s: <%s> %s queued for %u devices",
	    j->call_id, j->caller->pn, j->callee->pn, action, id, queued);
	return queued;
}

/* An action child of call j: call-id and call-creator. */
static struct wa_node *
call_child(struct arena *a, const struct call_job *j, const char *tag)
{
	struct wa_node	*c = sn_new(a, tag);

	sn_attr(a, c, "call-id", j->call_id);
	route_put_jid(a, c, "call-creator", j->caller, false, 0);
	return c;
}

static unsigned
send_offer(struct sim *s, const struct call_job *j, char id[32])
{
	struct arena	 a;
	struct wa_node	*o, *k;
	static const uint8_t cap[] = { 1, 5, 247, 9, 228, 250, 1 };
	unsigned	 n;

	arena_init(&a, 0);
	o = call_child(&a, j, "offer");
	if (j->group[0] != '\0') {
		sn_attr(&a, o, "group-jid", j->group);
		sn_attr(&a, o, "type", "group");
	}
	k = sn_child(&a, o, "audio");
	sn_attr(&a, k, "enc", "opus");
	sn_attr(&a, k, "rate", "16000");
	k = sn_child(&a, o, "audio");
	sn_attr(&a, k, "enc", "opus");
	sn_attr(&a, k, "rate", "8000");
	if (j->video) {
		k = sn_child(&a, o, "video");
		sn_attr(&a, k, "enc", "vp8");
		sn_attr(&a, k, "dec", "vp8");
	}
	k = sn_child(&a, o, "net");
	sn_attr(&a, k, "medium", "3");
	k = sn_child(&a, o, "capability");
	sn_attr(&a, k, "ver", "1");
	sn_bytes(&a, k, cap, sizeof(cap));
	n = call_route(s, j, "offer", o, &a, id);
	arena_release(&a);
	return n;
}

/* An offer without a call-id, with a child no reader knows. */
static unsigned
send_malformed(struct sim *s, const struct call_job *j, char id[32])
{
	struct arena	 a;
	struct wa_node	*o;
	unsigned	 n;

	arena_init(&a, 0);
	o = sn_new(&a, "offer");
	sn_attr(&a, o, "call-creator", "not a jid");
	sn_attr(&a, sn_child(&a, o, "wachat-sim-garbage"), "x", "\x01\x02");
	n = call_route(s, j, "offer", o, &a, id);
	arena_release(&a);
	return n;
}

static void
job_closed(uv_handle_t *h)
{
	struct call_job	*j = h->data, **pp;

	for (pp = &j->s->call_jobs; *pp != NULL; pp = &(*pp)->next)
		if (*pp == j) {
			*pp = j->next;
			break;
		}
	free(j);
}

static void
job_fire(uv_timer_t *t)
{
	struct call_job	*j = t->data;
	struct arena	 a;
	struct wa_node	*c;
	char		 id[32];

	if (!j->s->stopping) {
		arena_init(&a, 0);
		c = call_child(&a, j, "terminate");
		if (j->reason[0] != '\0')
			sn_attr(&a, c, "reason", j->reason);
		(void)call_route(j->s, j, "terminate", c, &a, id);
		arena_release(&a);
	}
	uv_close((uv_handle_t *)t, job_closed);
}

/* The ends a call may have (README.md). */
static const char *const ends[] = {
	"timeout", "accepted_elsewhere", "rejected_elsewhere", "hangup",
	"none",
};

int
sim_call_start(struct sim *s, const struct sim_call_req *rq,
    struct sim_call_res *res, const char **why)
{
	struct call_job	*j;
	const char	*end = rq->end != NULL ? rq->end : "timeout";
	uint8_t		 r[16];
	size_t		 i;

	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++)
		if (strcmp(end, ends[i]) == 0)
			break;
	*why = "end: timeout, accepted_elsewhere, rejected_elsewhere, "
	    "hangup or none";
	if (i == sizeof(ends) / sizeof(ends[0]))
		return 400;
	*why = "after_ms: 0 to 600000";
	if (rq->after_ms < 0 || rq->after_ms > 600000)
		return 400;
	j = xcalloc(1, sizeof(*j));
	j->s = s;
	*why = "no such account or contact";
	if (rq->from == NULL || rq->to == NULL ||
	    (j->caller = sim_account_by_pn(s, rq->from)) == NULL ||
	    (j->callee = sim_account_by_pn(s, rq->to)) == NULL) {
		free(j);
		return 404;
	}
	for (i = 0; i < sizeof(r); i++)
		r[i] = (uint8_t)(s->next_iq * 131 + i * 17 + (uint64_t)rand());
	for (i = 0; i < sizeof(r); i++)
		snprintf(j->call_id + 2 * i, 3, "%02X", r[i]);
	if (rq->group != NULL)
		snprintf(j->group, sizeof(j->group), "%s%s", rq->group,
		    strchr(rq->group, '@') != NULL ? "" : "@g.us");
	j->video = rq->video;
	if (strcmp(end, "none") != 0 && strcmp(end, "hangup") != 0)
		snprintf(j->reason, sizeof(j->reason), "%s", end);
	res->devices = rq->malformed ? send_malformed(s, j, res->id) :
	    send_offer(s, j, res->id);
	snprintf(res->call_id, sizeof(res->call_id), "%s", j->call_id);
	if (strcmp(end, "none") == 0 || rq->malformed) {
		free(j);
		return 0;
	}
	uv_timer_init(&s->loop, &j->t);
	j->t.data = j;
	uv_timer_start(&j->t, job_fire, (uint64_t)rq->after_ms, 0);
	j->next = s->call_jobs;
	s->call_jobs = j;
	return 0;
}

/* Attribute key of n as text: a JID as "user[:device]@server", a string
 * as it is, "" when absent. */
static void
attr_text(const struct wa_node *n, const char *key, char *out, size_t len)
{
	if (!wa_node_jid(n, key, out, len))
		route_attr_str(n, key, out, len);
}

/* Whether jid is account a's own JID without a device (PN or LID). */
static bool
is_user_jid(const char *jid, const struct sim_account *a)
{
	char	 pn[96], lid[96];

	route_jid_text(pn, sizeof(pn), a, false, 0);
	route_jid_text(lid, sizeof(lid), a, true, 0);
	return strcmp(jid, pn) == 0 || (a->lid[0] != '\0' &&
	    strcmp(jid, lid) == 0);
}

/* What is wrong with the reject r in <call> n of connection c for call
 * j (NULL: nothing; protocol-features.md 5 step 3). */
static const char *
reject_fault(const struct sim_conn *c, const struct wa_node *n,
    const struct wa_node *r, const struct call_job *j)
{
	char	 v[96];

	route_attr_str(n, "id", v, sizeof(v));
	if (v[0] == '\0')
		return "no id on the <call>";
	attr_text(n, "to", v, sizeof(v));
	if (!is_user_jid(v, j->caller))
		return "to is not the caller without a device";
	attr_text(n, "from", v, sizeof(v));
	if (v[0] != '\0' && !is_user_jid(v, c->acct))
		return "from is not the account without a device";
	attr_text(r, "call-creator", v, sizeof(v));
	if (!is_user_jid(v, j->caller))
		return "call-creator is not the caller";
	route_attr_str(r, "count", v, sizeof(v));
	if (strcmp(v, "0") != 0)
		return "count is not \"0\"";
	if (wa_node_nkids(r) != 0)
		return "the <reject> has children";
	return NULL;
}

int
sim_call_from_client(struct sim_conn *c, const struct wa_node *n)
{
	struct sim		*s = c->s;
	const struct wa_node	*r = sn_find(n, "reject");
	struct call_job		*j;
	struct origin		 o = { s, c, c->acct, 0, "" };
	const char		*why;
	char			 cid[64], id[64];

	if (r == NULL || !c->authed || c->acct == NULL || c->dev == NULL)
		return 0;
	o.dev = c->dev->id;
	route_attr_str(r, "call-id", cid, sizeof(cid));
	route_attr_str(n, "id", id, sizeof(id));
	for (j = s->call_jobs; j != NULL; j = j->next)
		if (j->callee == c->acct && strcmp(j->call_id, cid) == 0)
			break;
	why = j == NULL ? "no such call rings" : reject_fault(c, n, r, j);
	if (id[0] != '\0')
		route_oack(&o, "call", id, wa_node_attr(n, "to"), "reject",
		    NULL, 0);
	if (why != NULL) {
		s->call_rejects_bad++;
		sim_conn_log(c, "call %s: reject %s is malformed: %s", cid, id,
		    why);
		return 1;
	}
	s->call_rejects++;
	sim_conn_log(c, "call %s: rejected by device %u (reject %s, "
	    "well-formed)", cid, o.dev, id);
	/* it rings no more: the other devices hear it was declined */
	uv_timer_stop(&j->t);
	snprintf(j->reason, sizeof(j->reason), "rejected_elsewhere");
	j->skip_dev = o.dev + 1;
	job_fire(&j->t);
	return 1;
}
