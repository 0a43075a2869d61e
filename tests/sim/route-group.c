/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/route-group.c -- group messages through the simulator's
 * router (protocol.md 10.3, 10.5, 11.1): a <message> to a group fans out
 * to every device of every member, with the sender's pairwise copies and
 * its skmsg, and is acked with the server's phash when the client's is
 * stale; a group <receipt> goes to the author's devices.  group.c keeps
 * the groups.  Loop thread only.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/xmalloc.h"
#include "nodes.h"
#include "proto/bin.h"
#include "proto/group.h"
#include "route.h"
#include "session.h"
#include "sim.h"

/* One <to> of a group message's <participants>, resolved. */
struct gto {
	struct sim_account	*a;
	uint32_t		 dev;
	const struct wa_node	*enc;
};

/* The phash (10.3) of every device of every member of g, in g's
 * namespace, into out; false when it cannot be computed. */
static bool
group_phash(struct sim_group *g, char out[WA_GROUP_PHASH_LEN + 1])
{
	char		**v = NULL;
	size_t		 n = 0, cap = 0, i, k, nd;
	uint32_t	 devs[ROUTE_MAX_DEVICES];
	bool		 ok;

	for (i = 0; i < g->n; i++) {
		nd = sim_route_devices(g->m[i].acct, devs, ROUTE_MAX_DEVICES);
		for (k = 0; k < nd; k++) {
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, cap * sizeof(*v));
			}
			v[n] = xmalloc(64);
			route_jid_text(v[n], 64, g->m[i].acct, g->lid, devs[k]);
			n++;
		}
	}
	ok = wa_group_phash((const char *const *)v, n, out) == 0;
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return ok;
}

/* Route a group message to device dev of member t, with penc (its
 * pairwise copy, or NULL) and skmsg (or NULL). */
static void
group_route_one(struct origin *o, struct msg_ctx *m, struct sim_group *g,
    struct sim_account *t, uint32_t dev, const struct wa_node *penc,
    const struct wa_node *skmsg)
{
	struct arena	 a;
	struct wa_node	*out;
	const struct wa_node *rep;
	char		 encs[48], etype[24] = "";
	bool		 plid = m->plid;	/* the sender's namespace */

	arena_init(&a, 0);
	out = sn_new(&a, "message");
	sn_attr_jid(&a, out, "from", g->id, "g.us", 0);
	route_put_jid(&a, out, "participant", o->acct, plid, o->dev);
	if (plid)
		route_put_jid(&a, out, "participant_pn", o->acct, false, 0);
	else
		route_put_jid(&a, out, "participant_lid", o->acct, true, 0);
	sn_attr(&a, out, "id", m->id);
	if (m->type[0] != '\0')
		sn_attr(&a, out, "type", m->type);
	route_put_t(&a, out, "t", m->t);
	if (m->edit[0] != '\0')
		sn_attr(&a, out, "edit", m->edit);
	if (o->name[0] != '\0')
		sn_attr(&a, out, "notify", o->name);
	sn_attr(&a, out, "addressing_mode", g->lid ? "lid" : "pn");
	encs[0] = '\0';
	if (penc != NULL) {
		route_attr_str(penc, "type", etype, sizeof(etype));
		sn_append(&a, out, penc);
		snprintf(encs, sizeof(encs), "%s", etype);
	}
	if (skmsg != NULL) {
		sn_append(&a, out, skmsg);
		snprintf(encs + strlen(encs), sizeof(encs) - strlen(encs),
		    "%sskmsg", encs[0] != '\0' ? " " : "");
	}
	if (m->ident != NULL && strcmp(etype, "pkmsg") == 0)
		sn_append(&a, out, m->ident);
	if ((rep = sn_find(m->n, "reporting")) != NULL)
		sn_append(&a, out, rep);	/* as for 1:1 (route.c) */
	m->routed++;
	if (sim_route_queue(o->s, SIM_ROUTE_MESSAGE, m->id, m->type, m->from,
	    t, dev, g->lid, encs, out) > 0)
		m->sent++;
	arena_release(&a);
}

/* The <enc type="skmsg"> child of n (the last one), or NULL. */
static const struct wa_node *
find_skmsg(const struct wa_node *n)
{
	const struct wa_node	*skmsg = NULL;
	size_t			 i;

	for (i = 0; n->content.kind == WA_VAL_LIST &&
	    i < n->content.u.list.n; i++) {
		const struct wa_node	*e = &n->content.u.list.v[i];

		if (sn_is(e, "enc") && wa_str_eqc(sn_get(e, "type"), "skmsg"))
			skmsg = e;
	}
	return skmsg;
}

/* The <to jid><enc/></to> children of n's <participants>, resolved (a
 * new array, *ntos of them; NULL without <participants>); those that do
 * not resolve are counted in m->skipped. */
static struct gto *
find_tos(struct sim *s, struct msg_ctx *m, const struct wa_node *n,
    size_t *ntos)
{
	const struct wa_node	*parts = sn_find(n, "participants");
	struct gto		*tos;
	size_t			 i;

	*ntos = 0;
	if (parts == NULL || parts->content.kind != WA_VAL_LIST)
		return NULL;
	tos = xcalloc(parts->content.u.list.n + 1, sizeof(*tos));
	for (i = 0; i < parts->content.u.list.n && i < ROUTE_MAX_TO; i++) {
		const struct wa_node	*to = &parts->content.u.list.v[i];
		struct sim_jid		 tj;

		if (!sn_is(to, "to") ||
		    !sim_jid_parse(wa_node_attr(to, "jid"), &tj) ||
		    (tos[*ntos].a = sim_jid_account(s, &tj)) == NULL ||
		    (tos[*ntos].enc = sn_find(to, "enc")) == NULL) {
			m->skipped++;
			continue;
		}
		tos[(*ntos)++].dev = tj.device;
	}
	return tos;
}

/* The pairwise copy for device dev of t among tos[0..ntos), or NULL. */
static const struct wa_node *
pairwise_for(const struct gto *tos, size_t ntos, const struct sim_account *t,
    uint32_t dev)
{
	size_t	 j;

	for (j = 0; j < ntos; j++)
		if (tos[j].a == t && tos[j].dev == dev)
			return tos[j].enc;
	return NULL;
}

/* The ack of a group message: with the group's phash when the client's
 * (cphash) is not it and this is no retry resend (only). */
static void
group_ack(struct origin *o, struct msg_ctx *m, struct sim_group *g,
    bool only)
{
	char	 phash[WA_GROUP_PHASH_LEN + 1], cphash[24];

	route_attr_str(m->n, "phash", cphash, sizeof(cphash));
	if (only || cphash[0] == '\0' || !group_phash(g, phash) ||
	    strcmp(phash, cphash) == 0) {
		route_oack(o, "message", m->id, m->to_val, NULL, NULL, m->t);
		return;
	}
	if (o->c != NULL) {
		struct arena	 a;
		struct wa_node	*r;

		arena_init(&a, 0);
		r = sn_new(&a, "ack");
		sn_attr(&a, r, "class", "message");
		sn_attr(&a, r, "id", m->id);
		sn_attr_val(&a, r, "from", m->to_val);
		route_put_t(&a, r, "t", m->t);
		sn_attr(&a, r, "phash", phash);
		(void)sim_conn_send_node(o->c, r);
		arena_release(&a);
	}
	route_olog(o, "message %s: the client's phash %s is not the group's "
	    "%s", m->id, cphash, phash);
}

/*
 * <message to="<group>@g.us"> from a member device (10.3): every device
 * of every member but the sending one gets the skmsg, with its own
 * pairwise <enc> when <participants> names it (and <device-identity>
 * with a pkmsg).  With participant= (a retry resend, 10.5) only that
 * device gets the <enc>.  The ack carries the server's phash when the
 * client's differs (whatsmeow send.go reads it and drops its group
 * cache).  A non-member gets ack error 403, an unknown group 404.
 */
void
route_group_message(struct origin *o, struct msg_ctx *m)
{
	struct sim		*s = o->s;
	const struct wa_node	*n = m->n, *skmsg, *only_enc;
	struct sim_group	*g = sim_group_find(s, m->to.user);
	struct gto		*tos;
	struct sim_jid		 pj;
	uint32_t		 devs[ROUTE_MAX_DEVICES];
	size_t			 i, k, ntos, nd;
	bool			 only = false;

	if (g == NULL) {
		route_oack(o, "message", m->id, m->to_val, NULL, "404", m->t);
		route_olog(o, "message %s to unknown group %s: ack error 404",
		    m->id, m->to.user);
		return;
	}
	if (sim_group_member(g, o->acct) == NULL) {
		route_oack(o, "message", m->id, m->to_val, NULL, "403", m->t);
		route_olog(o, "message %s to group %s from a non-member: ack "
		    "error 403", m->id, g->id);
		return;
	}
	m->lid = g->lid;
	/* the group_flip knob: the sender named in the other namespace, as
	 * the server does for a group moving between PN and LID */
	m->plid = g->lid;
	if (s->group_flip > 0) {
		s->group_flip--;
		m->plid = !g->lid;
	}
	route_jid_text(m->from, sizeof(m->from), o->acct, m->plid, o->dev);
	m->ident = sn_find(n, "device-identity");
	skmsg = find_skmsg(n);
	tos = find_tos(s, m, n, &ntos);
	/* A retry resend: <message to=group participant=DEVICE><enc/>. */
	only_enc = sn_find(n, "enc");
	if (sim_jid_parse(wa_node_attr(n, "participant"), &pj)) {
		only = true;
		if (only_enc != NULL && wa_str_eqc(sn_get(only_enc, "type"),
		    "skmsg"))
			only_enc = NULL;
	}
	for (i = 0; i < g->n; i++) {
		struct sim_account	*t = g->m[i].acct;

		nd = sim_route_devices(t, devs, ROUTE_MAX_DEVICES);
		for (k = 0; k < nd; k++) {
			const struct wa_node	*penc;

			if (t == o->acct && devs[k] == o->dev)
				continue;
			if (only) {
				if (sim_jid_account(s, &pj) == t &&
				    pj.device == devs[k] && only_enc != NULL)
					group_route_one(o, m, g, t, devs[k],
					    only_enc, NULL);
				continue;
			}
			penc = pairwise_for(tos, ntos, t, devs[k]);
			if (penc != NULL || skmsg != NULL)
				group_route_one(o, m, g, t, devs[k], penc,
				    skmsg);
		}
	}
	free(tos);
	g->messages++;
	group_ack(o, m, g, only);
	route_olog(o, "message %s (%s) to group %s: %u devices routed, %u "
	    "sent now, %u skipped", m->id, m->type, g->id, m->routed, m->sent,
	    m->skipped);
}

/*
 * <receipt to="<group>@g.us" participant=AUTHOR_DEVICE> (any type, retry
 * included, 10.5): relayed to that device of the author as <receipt
 * from=group participant=RECEIPTING_DEVICE id t type> (in the group's
 * namespace) with the children kept.  A participant without a device
 * (the user, or its phone) gets it on every device of the author, as a
 * 1:1 receipt to a user does; a retry receipt only on device 0.
 */
void
route_group_receipt(struct origin *o, const struct wa_node *n,
    const struct sim_jid *to, const char *id, const char *type)
{
	struct sim		*s = o->s;
	struct sim_group	*g = sim_group_find(s, to->user);
	struct sim_account	*ta;
	struct sim_jid		 pj;
	struct arena		 a;
	struct wa_node		*out;
	char			 from[96];
	uint32_t		 devs[ROUTE_MAX_DEVICES];
	size_t			 k, nd;
	unsigned		 routed = 0, sent = 0;

	if (g == NULL || !sim_jid_parse(wa_node_attr(n, "participant"), &pj) ||
	    (ta = sim_jid_account(s, &pj)) == NULL ||
	    !route_device_exists(ta, pj.device) || (ta == o->acct &&
	    pj.device == o->dev)) {
		route_olog(o, "group receipt %s (%s): no known group or "
		    "author, not relayed", id, type[0] != '\0' ? type :
		    "delivery");
		return;
	}
	route_jid_text(from, sizeof(from), o->acct, g->lid, o->dev);
	arena_init(&a, 0);
	out = sn_new(&a, "receipt");
	sn_attr_jid(&a, out, "from", g->id, "g.us", 0);
	route_put_jid(&a, out, "participant", o->acct, g->lid, o->dev);
	sn_attr(&a, out, "id", id);
	route_put_t(&a, out, "t", route_now_s());
	if (type[0] != '\0')
		sn_attr(&a, out, "type", type);
	for (k = 0; n->content.kind == WA_VAL_LIST &&
	    k < n->content.u.list.n; k++)
		sn_append(&a, out, &n->content.u.list.v[k]);
	nd = pj.device != 0 || strcmp(type, "retry") == 0 ? 1 :
	    sim_route_devices(ta, devs, ROUTE_MAX_DEVICES);
	if (nd == 1)
		devs[0] = pj.device;
	for (k = 0; k < nd; k++) {
		if (ta == o->acct && devs[k] == o->dev)
			continue;
		if (sim_route_queue(s, SIM_ROUTE_RECEIPT, id, type, from, ta,
		    devs[k], pj.lid, "", out) > 0)
			sent++;
		routed++;
	}
	arena_release(&a);
	route_olog(o, "group receipt %s (%s) for %s:%u@%s in %s: relayed to %u "
	    "devices, %u now", id, type[0] != '\0' ? type : "delivery",
	    pj.user, pj.device, pj.server, g->id, routed, sent);
}
