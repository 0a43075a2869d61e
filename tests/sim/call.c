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
 * is routed the same way.  Loop thread only.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/xmalloc.h"
#include "nodes.h"
#include "route.h"
#include "sim.h"

#define CALL_MAX_DEVICES	64

/* One call: what its offer said, for its terminate. */
struct call_job {
	uv_timer_t		 t;
	struct sim		*s;
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
		if (devs[i] == 0)
			continue;	/* the account's phone is not a client */
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
	free(h->data);
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
	return 0;
}
