/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/group.c -- group chats in the simulator: the groups
 * ("<id>@g.us", subject, creator, addressing mode, members with their
 * admin rights; protocol.md 10.1), the w:g2 iqs clients send (metadata,
 * participating groups, create, subject, add/remove/promote/demote,
 * leave; shapes as whatsmeow group.go and Baileys groups.ts read and
 * write them), the w:gp2 notifications of every change (11.7), queued
 * per device like routed messages (route.c), and the admin routes for
 * groups (create with simulated members, changes acting as the creator,
 * a phone's group send, what the phones decrypted).  The routing of
 * group <message> and <receipt> stanzas is in route.c.  Loop thread only.
 *
 * In a LID-addressed group a member is written <participant jid=LID
 * phone_number=PN>, in a PN-addressed one <participant jid=PN lid=LID>
 * (10.1); the actor of a notification (participant=) is the user JID in
 * the group's namespace, with participant_pn / participant_lid the other.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/err.h"
#include "nodes.h"
#include "session.h"
#include "sim.h"
#include "base/xmalloc.h"

#define GROUP_MAX_CHANGE	SIM_GROUP_MAX	/* participants in one change */
#define GROUP_MAX_SIM		4096		/* sim:N contacts in one create */
#define GROUP_MAX_DEVICES	64		/* devices of one member */
#define GROUP_SIM_PN_BASE	15559000000ULL	/* sim:N contacts' PNs */

static int64_t
now_s(void)
{
	return (int64_t)time(NULL);
}

static void
put_t(struct arena *ar, struct wa_node *n, const char *key, int64_t t)
{
	char	 v[24];

	snprintf(v, sizeof(v), "%" PRId64, t);
	sn_attr(ar, n, key, v);
}

/* The user JID of a in namespace lid (no device). */
static void
put_user(struct arena *ar, struct wa_node *n, const char *key,
    const struct sim_account *a, bool lid)
{
	sn_attr_jid(ar, n, key, lid ? a->lid : a->pn, lid ? "lid" :
	    "s.whatsapp.net", 0);
}

static void
user_text(char *out, size_t len, const struct sim_account *a, bool lid)
{
	snprintf(out, len, "%s@%s", lid ? a->lid : a->pn, lid ? "lid" :
	    "s.whatsapp.net");
}

/* --- the groups --- */

struct sim_group *
sim_group_find(struct sim *s, const char *id)
{
	struct sim_group	*g;
	size_t			 n = strcspn(id, "@");

	for (g = s->groups; g != NULL; g = g->next)
		if (strlen(g->id) == n && strncmp(g->id, id, n) == 0)
			return g;
	return NULL;
}

struct sim_group_member *
sim_group_member(struct sim_group *g, const struct sim_account *a)
{
	size_t	 i;

	for (i = 0; i < g->n; i++)
		if (g->m[i].acct == a)
			return &g->m[i];
	return NULL;
}

void
sim_group_jid(const struct sim_group *g, char *out, size_t len)
{
	snprintf(out, len, "%s@g.us", g->id);
}

static struct sim_group *
group_new(struct sim *s, const char *subject, struct sim_account *creator,
    bool lid, const char *key)
{
	struct sim_group	*g = xcalloc(1, sizeof(*g));

	/* 18 digits, as WhatsApp's newer group ids ("120363..."). */
	snprintf(g->id, sizeof(g->id), "%llu", 120363000000000000ULL +
	    (unsigned long long)++s->ngroups);
	snprintf(g->subject, sizeof(g->subject), "%s", subject);
	g->s_t = g->creation = now_s();
	g->s_o = g->creator = creator;
	g->lid = lid;
	snprintf(g->key, sizeof(g->key), "%s", key != NULL ? key : "");
	g->next = s->groups;
	s->groups = g;
	return g;
}

/* Add a to g (no notification); false when a is already a member or the
 * group is full. */
static bool
member_add(struct sim_group *g, struct sim_account *a, bool superadmin)
{
	struct sim_group_member	*m;

	if (sim_group_member(g, a) != NULL || g->n >= SIM_GROUP_MAX)
		return false;
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->m = xrealloc(g->m, g->cap * sizeof(*g->m));
	}
	m = &g->m[g->n++];
	m->acct = a;
	m->admin = m->superadmin = superadmin;
	return true;
}

static bool
member_remove(struct sim_group *g, struct sim_account *a)
{
	struct sim_group_member	*m = sim_group_member(g, a);

	if (m == NULL)
		return false;
	memmove(m, m + 1, (size_t)(g->m + g->n - (m + 1)) * sizeof(*m));
	g->n--;
	return true;
}

struct sim_group *
sim_group_make(struct sim *s, const char *subject, struct sim_account *creator,
    bool lid, int64_t creation)
{
	struct sim_group	*g = group_new(s, subject, creator, lid, NULL);

	g->s_t = g->creation = creation;
	(void)member_add(g, creator, true);
	return g;
}

bool
sim_group_member_add(struct sim_group *g, struct sim_account *a, bool admin)
{
	if (!member_add(g, a, false))
		return false;
	g->m[g->n - 1].admin = admin;
	return true;
}

void
sim_groups_free(struct sim *s)
{
	struct sim_group	*g;

	while ((g = s->groups) != NULL) {
		s->groups = g->next;
		free(g->m);
		free(g);
	}
}

/* --- nodes --- */

/* <participant jid [phone_number|lid] [type]/> for member a of g. */
static struct wa_node *
participant_node(struct arena *ar, const struct sim_group *g,
    const struct sim_account *a, const struct sim_group_member *m)
{
	struct wa_node	*p = sn_new(ar, "participant");

	put_user(ar, p, "jid", a, g->lid);
	put_user(ar, p, g->lid ? "phone_number" : "lid", a, !g->lid);
	if (m != NULL && (m->admin || m->superadmin))
		sn_attr(ar, p, "type", m->superadmin ? "superadmin" : "admin");
	return p;
}

/* <group id subject s_t s_o creator creation addressing_mode size>
 * <participant/>...</group> (10.1). */
static struct wa_node *
group_node(struct arena *ar, const struct sim_group *g)
{
	struct wa_node	*n = sn_new(ar, "group");
	char		 v[24];
	size_t		 i;

	sn_attr(ar, n, "id", g->id);
	sn_attr(ar, n, "subject", g->subject);
	put_t(ar, n, "s_t", g->s_t);
	if (g->s_o != NULL) {
		put_user(ar, n, "s_o", g->s_o, g->lid);
		if (g->lid)
			put_user(ar, n, "s_o_pn", g->s_o, false);
	}
	if (g->creator != NULL) {
		put_user(ar, n, "creator", g->creator, g->lid);
		if (g->lid)
			put_user(ar, n, "creator_pn", g->creator, false);
	}
	put_t(ar, n, "creation", g->creation);
	sn_attr(ar, n, "addressing_mode", g->lid ? "lid" : "pn");
	snprintf(v, sizeof(v), "%zu", g->n);
	sn_attr(ar, n, "size", v);
	for (i = 0; i < g->n; i++)
		sn_append(ar, n, participant_node(ar, g, g->m[i].acct,
		    &g->m[i]));
	return n;
}

/*
 * Queue the w:gp2 notification with child ch (10.1, 11.7) for every
 * device of every member of g and of the extra accounts, but device
 * skip_dev of skip (the acting device; skip NULL: none).  The actor is
 * the participant attribute.  Returns how many devices got it queued.
 */
static unsigned
notify(struct sim *s, struct sim_group *g, const struct sim_account *actor,
    const struct sim_account *skip, uint32_t skip_dev,
    struct sim_account *const *extra, size_t nextra, struct wa_node *ch,
    struct arena *ar)
{
	struct wa_node	*n = sn_new(ar, "notification");
	char		 id[32], from[48];
	uint32_t	 devs[GROUP_MAX_DEVICES];
	unsigned	 queued = 0;
	size_t		 i, k, nd, total = g->n + nextra;

	snprintf(id, sizeof(id), "sim-gp-%" PRIu64, ++s->next_iq);
	sim_group_jid(g, from, sizeof(from));
	sn_attr_jid(ar, n, "from", g->id, "g.us", 0);
	sn_attr(ar, n, "type", "w:gp2");
	sn_attr(ar, n, "id", id);
	put_t(ar, n, "t", now_s());
	if (actor != NULL) {
		put_user(ar, n, "participant", actor, g->lid);
		put_user(ar, n, g->lid ? "participant_pn" : "participant_lid",
		    actor, !g->lid);
		if (actor->name[0] != '\0')
			sn_attr(ar, n, "notify", actor->name);
	}
	sn_append(ar, n, ch);
	for (i = 0; i < total; i++) {
		struct sim_account	*a = i < g->n ? g->m[i].acct :
		    extra[i - g->n];

		nd = sim_route_devices(a, devs, GROUP_MAX_DEVICES);
		for (k = 0; k < nd; k++) {
			if (a == skip && devs[k] == skip_dev)
				continue;
			if (sim_route_queue(s, SIM_ROUTE_NOTIFICATION, id,
			    "w:gp2", from, a, devs[k], g->lid, "", n) >= 0)
				queued++;
		}
	}
	g->notifications += queued;
	sim_log(s, "group %s: w:gp2 %.*s notification %s queued for %u "
	    "devices", g->id, (int)ch->tag.len, ch->tag.p, id, queued);
	return queued;
}

/* Every member phone but the actor's forgets its sender key for g
 * (10.4: a member left or was removed). */
static void
rotate_phones(struct sim_group *g)
{
	size_t	 i;

	for (i = 0; i < g->n; i++)
		sim_phone_group_forget(g->m[i].acct, g);
}

/* --- changes, shared by the iqs and the admin routes --- */

enum change { CH_ADD, CH_REMOVE, CH_PROMOTE, CH_DEMOTE };

static const char *const change_tag[] = { "add", "remove", "promote",
    "demote" };

/*
 * Apply change what of accounts v[0..n) (NULL: unknown user, named by
 * names[i] when given) to g, acting as actor (device actor_dev).  Fills
 * res (the <add|...> answer child, with error= per participant that
 * failed) when not NULL, and the JSON array jres when not NULL.  Queues
 * the notification.  Returns how many participants changed.
 */
static size_t
apply_change(struct sim *s, struct sim_group *g, enum change what,
    struct sim_account *actor, uint32_t actor_dev, struct sim_account **v,
    const struct wa_val *const *names, size_t n, struct arena *ar,
    struct wa_node *res, struct json_object *jres)
{
	struct wa_node		*ch = sn_new(ar, change_tag[what]);
	struct sim_account	**gone = xcalloc(n + 1, sizeof(*gone));
	size_t			 i, changed = 0, ngone = 0;

	for (i = 0; i < n; i++) {
		struct sim_account	*a = v[i];
		struct sim_group_member	*m = a != NULL ? sim_group_member(g, a) :
		    NULL;
		const char		*err = NULL;
		struct wa_node		*p;

		if (a == NULL)
			err = "404";
		else if (what == CH_ADD) {
			if (m != NULL)
				err = "409";
			else if (!member_add(g, a, false))
				err = "500";
		} else if (m == NULL)
			err = "404";
		else if (what == CH_REMOVE) {
			if (m->superadmin && a != actor)
				err = "406";	/* the creator stays */
			else {
				member_remove(g, a);
				gone[ngone++] = a;
			}
		} else
			m->admin = what == CH_PROMOTE;
		if (res != NULL) {
			if (a != NULL)
				p = participant_node(ar, g, a, NULL);
			else {
				p = sn_new(ar, "participant");
				if (names != NULL && names[i] != NULL)
					sn_attr_val(ar, p, "jid", names[i]);
			}
			if (err != NULL)
				sn_attr(ar, p, "error", err);
			sn_append(ar, res, p);
		}
		if (jres != NULL) {
			struct json_object	*o = json_object_new_object();

			if (a != NULL)
				json_object_object_add(o, "pn",
				    json_object_new_string(a->pn));
			json_object_object_add(o, "status",
			    json_object_new_string(err != NULL ? err : "200"));
			json_object_array_add(jres, o);
		}
		if (err == NULL) {
			sn_append(ar, ch, participant_node(ar, g, a, NULL));
			changed++;
		}
	}
	if (changed > 0) {
		(void)notify(s, g, actor, actor, actor_dev, gone, ngone, ch, ar);
		if (ngone > 0)
			rotate_phones(g);
	}
	free(gone);
	return changed;
}

static void
set_subject(struct sim *s, struct sim_group *g, struct sim_account *actor,
    uint32_t actor_dev, const char *subject, size_t len, struct arena *ar)
{
	struct wa_node	*ch;

	if (len >= sizeof(g->subject))
		len = sizeof(g->subject) - 1;
	memcpy(g->subject, subject, len);
	g->subject[len] = '\0';
	g->s_t = now_s();
	g->s_o = actor;
	ch = sn_new(ar, "subject");
	sn_attr(ar, ch, "subject", g->subject);
	put_t(ar, ch, "s_t", g->s_t);
	put_user(ar, ch, "s_o", actor, g->lid);
	if (g->lid)
		put_user(ar, ch, "s_o_pn", actor, false);
	(void)notify(s, g, actor, actor, actor_dev, NULL, 0, ch, ar);
}

/* The create notification for every member device but the actor's. */
static void
notify_create(struct sim *s, struct sim_group *g, uint32_t actor_dev,
    struct arena *ar)
{
	struct wa_node	*ch = sn_new(ar, "create");

	if (g->key[0] != '\0')
		sn_attr(ar, ch, "key", g->key);
	sn_append(ar, ch, group_node(ar, g));
	(void)notify(s, g, g->creator, g->creator, actor_dev, NULL, 0, ch, ar);
}

/* --- the w:g2 iqs (10.1) --- */

static struct wa_node *
result(struct arena *ar, const struct wa_node *n)
{
	struct wa_node		*r = sn_new(ar, "iq");
	const struct wa_val	*to = wa_node_attr(n, "to");
	struct wa_str		 id = sn_get(n, "id");
	char			 ids[80];

	snprintf(ids, sizeof(ids), "%.*s", (int)id.len, id.p);
	if (to != NULL)
		sn_attr_val(ar, r, "from", to);
	sn_attr(ar, r, "type", "result");
	sn_attr(ar, r, "id", ids);
	return r;
}

/* The user JIDs of the <participant jid/> children of ch, resolved. */
static size_t
participants_of(struct sim *s, const struct wa_node *ch,
    struct sim_account **v, const struct wa_val **names, size_t max)
{
	size_t	 i, n = 0;

	for (i = 0; ch->content.kind == WA_VAL_LIST &&
	    i < ch->content.u.list.n && n < max; i++) {
		const struct wa_node	*p = &ch->content.u.list.v[i];
		struct sim_jid		 j;

		if (!sn_is(p, "participant"))
			continue;
		names[n] = wa_node_attr(p, "jid");
		v[n] = sim_jid_parse(names[n], &j) ? sim_jid_account(s, &j) :
		    NULL;
		n++;
	}
	return n;
}

static void
iq_create(struct sim_conn *c, const struct wa_node *n,
    const struct wa_node *ch, struct arena *ar)
{
	struct sim		*s = c->s;
	struct sim_account	**v = xcalloc(GROUP_MAX_CHANGE, sizeof(*v));
	const struct wa_val	**names = xcalloc(GROUP_MAX_CHANGE,
	    sizeof(*names));
	struct sim_group	*g;
	struct wa_node		*r;
	struct wa_str		 subj = sn_get(ch, "subject"), key =
	    sn_get(ch, "key");
	char			 subject[SIM_SUBJECT_MAX], k[80];
	size_t			 i, np;

	if (subj.len == 0) {
		sim_iq_error(c, n, 400, "bad-request");
		goto out;
	}
	snprintf(subject, sizeof(subject), "%.*s", (int)subj.len, subj.p);
	snprintf(k, sizeof(k), "%.*s", (int)key.len, key.p);
	np = participants_of(s, ch, v, names, GROUP_MAX_CHANGE);
	g = group_new(s, subject, c->acct, !s->opt.group_pn, k);
	(void)member_add(g, c->acct, true);
	for (i = 0; i < np; i++)
		if (v[i] != NULL)
			(void)member_add(g, v[i], false);
	r = result(ar, n);
	sn_append(ar, r, group_node(ar, g));
	(void)sim_conn_send_node(c, r);
	sim_conn_log(c, "group %s created (%s, %zu members)", g->id,
	    g->lid ? "lid" : "pn", g->n);
	notify_create(s, g, c->dev->id, ar);
out:
	free(v);
	free(names);
}

static void
iq_participating(struct sim_conn *c, const struct wa_node *n,
    struct arena *ar)
{
	struct wa_node		*r = result(ar, n), *gs = sn_new(ar, "groups");
	struct sim_group	*g;
	size_t			 k = 0;

	for (g = c->s->groups; g != NULL; g = g->next)
		if (sim_group_member(g, c->acct) != NULL) {
			sn_append(ar, gs, group_node(ar, g));
			k++;
		}
	sn_append(ar, r, gs);
	(void)sim_conn_send_node(c, r);
	sim_conn_log(c, "participating groups: %zu", k);
}

static void
iq_leave(struct sim_conn *c, const struct wa_node *n,
    const struct wa_node *ch, struct arena *ar)
{
	struct wa_node	*r = result(ar, n), *rl = sn_new(ar, "leave");
	size_t		 i;

	for (i = 0; ch->content.kind == WA_VAL_LIST &&
	    i < ch->content.u.list.n; i++) {
		const struct wa_node	*gn = &ch->content.u.list.v[i];
		struct sim_group	*g;
		struct wa_node		*rg, *rm;
		struct sim_account	*me = c->acct;
		struct sim_jid		 j;
		char			 id[32];

		if (!sn_is(gn, "group"))
			continue;
		rg = sn_new(ar, "group");
		sn_attr_val(ar, rg, "id", wa_node_attr(gn, "id"));
		if (!sim_jid_parse(wa_node_attr(gn, "id"), &j)) {
			/* A bare id, as the string "<digits>". */
			struct wa_str	 v = sn_get(gn, "id");

			snprintf(j.user, sizeof(j.user), "%.*s", (int)v.len,
			    v.p);
		}
		snprintf(id, sizeof(id), "%s", j.user);
		if ((g = sim_group_find(c->s, id)) == NULL)
			sn_attr(ar, rg, "error", "404");
		else if (sim_group_member(g, me) == NULL)
			sn_attr(ar, rg, "error", "403");
		else {
			/* WhatsApp tells a leave as a <remove> whose actor is
			 * the one leaving (Baileys reads it as a leave). */
			rm = sn_new(ar, "remove");
			sn_append(ar, rm, participant_node(ar, g, me, NULL));
			member_remove(g, me);
			(void)notify(c->s, g, me, me, c->dev->id, &me, 1, rm,
			    ar);
			rotate_phones(g);
		}
		sn_append(ar, rl, rg);
	}
	sn_append(ar, r, rl);
	(void)sim_conn_send_node(c, r);
}

/* One w:g2 iq being answered: its first child ch, and for an iq to a
 * group the group and the sender's membership. */
struct g2_call {
	struct sim_conn		*c;
	const struct wa_node	*n, *ch;
	struct sim_group	*g;
	struct sim_group_member	*me;
	struct arena		*ar;
};

static void
g2_participating(const struct g2_call *k)
{
	iq_participating(k->c, k->n, k->ar);
}

static void
g2_create(const struct g2_call *k)
{
	iq_create(k->c, k->n, k->ch, k->ar);
}

static void
g2_leave(const struct g2_call *k)
{
	iq_leave(k->c, k->n, k->ch, k->ar);
}

/* <query request="interactive"/>: the group's metadata. */
static void
g2_query(const struct g2_call *k)
{
	struct wa_node	*r = result(k->ar, k->n);

	sn_append(k->ar, r, group_node(k->ar, k->g));
	(void)sim_conn_send_node(k->c, r);
}

static void
g2_subject(const struct g2_call *k)
{
	const uint8_t	*p;
	size_t		 len;

	if (!sim_node_bytes(k->ch, &p, &len) || len == 0) {
		sim_iq_error(k->c, k->n, 400, "bad-request");
		return;
	}
	set_subject(k->c->s, k->g, k->c->acct, k->c->dev->id,
	    (const char *)p, len, k->ar);
	sim_iq_result(k->c, k->n);
}

/* <add>, <remove>, <promote>, <demote> with <participant jid/>s, by an
 * admin. */
static void
g2_change(const struct g2_call *k)
{
	struct sim		*s = k->c->s;
	const struct wa_node	*ch = k->ch;
	struct sim_account	**v;
	const struct wa_val	**names;
	struct wa_node		*r, *rc;
	enum change		 what = sn_is(ch, "add") ? CH_ADD :
	    sn_is(ch, "remove") ? CH_REMOVE : sn_is(ch, "promote") ?
	    CH_PROMOTE : CH_DEMOTE;
	size_t			 np;

	if (!k->me->admin && !k->me->superadmin) {
		sim_iq_error(k->c, k->n, 403, "not-authorized");
		return;
	}
	v = xcalloc(GROUP_MAX_CHANGE, sizeof(*v));
	names = xcalloc(GROUP_MAX_CHANGE, sizeof(*names));
	np = participants_of(s, ch, v, names, GROUP_MAX_CHANGE);
	r = result(k->ar, k->n);
	rc = sn_new(k->ar, change_tag[what]);
	(void)apply_change(s, k->g, what, k->c->acct, k->c->dev->id, v, names,
	    np, k->ar, rc, NULL);
	sn_append(k->ar, r, rc);
	(void)sim_conn_send_node(k->c, r);
	free(v);
	free(names);
}

/*
 * The w:g2 iqs answered: to="@g.us" (global) or to a group, get or set,
 * the tag of the first child, and the handler.
 */
static const struct g2_iq {
	bool		 global;
	bool		 get;
	const char	*child;
	void		(*fn)(const struct g2_call *);
} g2_iqs[] = {
	{ true, true, "participating", g2_participating },
	{ true, false, "create", g2_create },
	{ true, false, "leave", g2_leave },
	{ false, true, "query", g2_query },
	{ false, false, "subject", g2_subject },
	{ false, false, "add", g2_change },
	{ false, false, "remove", g2_change },
	{ false, false, "promote", g2_change },
	{ false, false, "demote", g2_change },
};

/* to="@g.us" (an empty user) or to="g.us": the iq is about no group. */
static bool
g2_to_global(const struct wa_val *to)
{
	if (to == NULL)
		return false;
	if (to->kind == WA_VAL_JID)
		return to->u.jid.user.len == 0 &&
		    wa_str_eqc(to->u.jid.server, "g.us");
	return to->kind == WA_VAL_STR && (wa_str_eqc(to->u.str, "@g.us") ||
	    wa_str_eqc(to->u.str, "g.us"));
}

/* Answer k with the handler of g2_iqs[] for it, or error 501. */
static void
g2_dispatch(const struct g2_call *k, bool global, bool get)
{
	const struct g2_iq	*q;
	size_t			 i;

	for (i = 0; i < sizeof(g2_iqs) / sizeof(g2_iqs[0]); i++) {
		q = &g2_iqs[i];
		if (q->global == global && q->get == get &&
		    sn_is(k->ch, q->child)) {
			q->fn(k);
			return;
		}
	}
	sim_iq_error(k->c, k->n, 501, "feature-not-implemented");
}

int
sim_group_iq(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_val	*to = wa_node_attr(n, "to");
	struct g2_call		 k;
	struct sim_jid		 j;
	struct arena		 ar;
	bool			 get, global;

	if (!wa_str_eqc(sn_get(n, "xmlns"), "w:g2"))
		return 0;
	get = wa_str_eqc(sn_get(n, "type"), "get");
	if ((!get && !wa_str_eqc(sn_get(n, "type"), "set")) ||
	    n->content.kind != WA_VAL_LIST || n->content.u.list.n == 0) {
		sim_iq_error(c, n, 400, "bad-request");
		return 1;
	}
	global = g2_to_global(to);
	if (!global && (!sim_jid_parse(to, &j) || strcmp(j.server, "g.us") !=
	    0)) {
		sim_iq_error(c, n, 400, "bad-request");
		return 1;
	}
	arena_init(&ar, 0);
	memset(&k, 0, sizeof(k));
	k.c = c;
	k.n = n;
	k.ch = &n->content.u.list.v[0];
	k.ar = &ar;
	if (!global && (k.g = sim_group_find(c->s, j.user)) == NULL)
		sim_iq_error(c, n, 404, "item-not-found");
	else if (!global && (k.me = sim_group_member(k.g, c->acct)) == NULL)
		sim_iq_error(c, n, 403, "forbidden");
	else
		g2_dispatch(&k, global, get);
	arena_release(&ar);
	return 1;
}

/* --- admin routes --- */

static int
reply(struct buf *out, struct json_object *o, int status)
{
	const char	*txt = json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	buf_append(out, txt, strlen(txt));
	buf_push(out, '\n');
	json_object_put(o);
	return status;
}

static int
error(struct buf *out, int status, const char *msg)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "error", json_object_new_string(msg));
	return reply(out, o, status);
}

static const char *
jstr(struct json_object *o, const char *key)
{
	struct json_object	*v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v) ||
	    !json_object_is_type(v, json_type_string))
		return NULL;
	return json_object_get_string(v);
}

static bool
query(const char *q, const char *name, char *val, size_t len)
{
	size_t	 nl = strlen(name);

	while (q != NULL && *q != '\0') {
		const char	*end = strchr(q, '&');
		size_t		 n = end != NULL ? (size_t)(end - q) : strlen(q);

		if (n > nl && strncmp(q, name, nl) == 0 && q[nl] == '=') {
			size_t	 vl = n - nl - 1;

			if (vl >= len)
				vl = len - 1;
			memcpy(val, q + nl + 1, vl);
			val[vl] = '\0';
			return true;
		}
		if (end == NULL)
			break;
		q = end + 1;
	}
	return false;
}

static struct json_object *
member_json(const struct sim_group *g, const struct sim_group_member *m)
{
	struct json_object	*o = json_object_new_object();
	char			 j[48];

	user_text(j, sizeof(j), m->acct, g->lid);
	json_object_object_add(o, "jid", json_object_new_string(j));
	json_object_object_add(o, "pn", json_object_new_string(m->acct->pn));
	json_object_object_add(o, "lid", json_object_new_string(m->acct->lid));
	json_object_object_add(o, "name",
	    json_object_new_string(m->acct->name));
	json_object_object_add(o, "contact",
	    json_object_new_boolean(m->acct->contact));
	json_object_object_add(o, "type", json_object_new_string(
	    m->superadmin ? "superadmin" : m->admin ? "admin" : ""));
	return o;
}

static struct json_object *
group_json(const struct sim_group *g)
{
	struct json_object	*o = json_object_new_object();
	struct json_object	*ms = json_object_new_array();
	char			 j[48];
	size_t			 i;

	sim_group_jid(g, j, sizeof(j));
	json_object_object_add(o, "jid", json_object_new_string(j));
	json_object_object_add(o, "id", json_object_new_string(g->id));
	json_object_object_add(o, "subject",
	    json_object_new_string(g->subject));
	json_object_object_add(o, "s_t", json_object_new_int64(g->s_t));
	json_object_object_add(o, "s_o", json_object_new_string(
	    g->s_o != NULL ? g->s_o->pn : ""));
	json_object_object_add(o, "creator", json_object_new_string(
	    g->creator != NULL ? g->creator->pn : ""));
	json_object_object_add(o, "creation",
	    json_object_new_int64(g->creation));
	json_object_object_add(o, "addressing_mode",
	    json_object_new_string(g->lid ? "lid" : "pn"));
	json_object_object_add(o, "size", json_object_new_int64(
	    (int64_t)g->n));
	json_object_object_add(o, "messages", json_object_new_int64(
	    (int64_t)g->messages));
	json_object_object_add(o, "notifications", json_object_new_int64(
	    (int64_t)g->notifications));
	for (i = 0; i < g->n; i++)
		json_object_array_add(ms, member_json(g, &g->m[i]));
	json_object_object_add(o, "participants", ms);
	return o;
}

/* A new simulated contact for sim:N: the next free PN from
 * GROUP_SIM_PN_BASE, named "sim N". */
static int
sim_contact(struct sim *s, struct sim_account **out)
{
	char	 pn[SIM_PN_MAX], name[SIM_NAME_MAX];
	int	 tries;

	for (tries = 0; tries < 100000; tries++) {
		unsigned long long	 k = ++s->next_sim_contact;

		snprintf(pn, sizeof(pn), "%llu", GROUP_SIM_PN_BASE + k);
		if (sim_account_by_pn(s, pn) != NULL)
			continue;
		snprintf(name, sizeof(name), "sim %llu", k);
		return sim_account_add(s, pn, NULL, name, true, NULL, out);
	}
	return -EEXIST;
}

/*
 * The members named by the JSON array arr: each a PN (an account or a
 * contact) or "sim:N" (N new simulated contacts), appended to *v (grown)
 * and the created ones' PNs to made.  Returns NULL, or why not.
 */
static const char *
members_of(struct sim *s, struct json_object *arr, struct sim_account ***v,
    size_t *n, size_t *cap, struct json_object *made)
{
	size_t	 i, len;

	if (arr == NULL)
		return NULL;
	if (!json_object_is_type(arr, json_type_array))
		return "members must be an array of PNs or \"sim:N\"";
	len = json_object_array_length(arr);
	for (i = 0; i < len; i++) {
		const char		*m = json_object_get_string(
		    json_object_array_get_idx(arr, i));
		struct sim_account	*a;
		long			 k = 1, j;
		char			*end;

		if (m == NULL)
			return "members must be an array of PNs or \"sim:N\"";
		if (strncmp(m, "sim:", 4) == 0) {
			k = strtol(m + 4, &end, 10);
			if (end == m + 4 || *end != '\0' || k < 1 ||
			    k > GROUP_MAX_SIM)
				return "sim:N takes N from 1 to 4096";
		} else if ((a = sim_account_by_pn(s, m)) == NULL &&
		    (a = sim_account_by_lid(s, m)) == NULL)
			return "a member is no account or contact";
		for (j = 0; j < k; j++) {
			if (strncmp(m, "sim:", 4) == 0) {
				if (sim_contact(s, &a) != 0)
					return "cannot create a simulated "
					    "contact";
				json_object_array_add(made,
				    json_object_new_string(a->pn));
			}
			if (*n + 1 >= SIM_GROUP_MAX)
				return "more than 1024 members";
			if (*n == *cap) {
				*cap = *cap ? 2 * *cap : 64;
				*v = xrealloc(*v, *cap * sizeof(**v));
			}
			(*v)[(*n)++] = a;
		}
	}
	return NULL;
}

/* POST /admin/groups {subject, creator?, members?, addressing_mode?}. */
static int
admin_create(struct sim *s, struct json_object *in, struct buf *out)
{
	const char		*subject = jstr(in, "subject");
	const char		*cpn = jstr(in, "creator");
	const char		*mode = jstr(in, "addressing_mode");
	struct json_object	*made = json_object_new_array(), *arr = NULL;
	struct json_object	*o;
	struct sim_account	**v = NULL, *creator = NULL;
	struct sim_group	*g;
	struct arena		 ar;
	const char		*why;
	size_t			 n = 0, cap = 0, i;
	unsigned		 saved = s->opt.nprekeys;

	if (mode == NULL)
		mode = s->opt.group_pn ? "pn" : "lid";
	if (subject == NULL || subject[0] == '\0' || strlen(subject) >=
	    SIM_SUBJECT_MAX || (strcmp(mode, "lid") != 0 &&
	    strcmp(mode, "pn") != 0)) {
		json_object_put(made);
		return error(out, 400, "give subject (1-255 bytes), members, "
		    "creator and addressing_mode (lid or pn)");
	}
	if (cpn != NULL && (creator = sim_account_by_pn(s, cpn)) == NULL) {
		json_object_put(made);
		return error(out, 404, "the creator is no account or contact");
	}
	(void)json_object_object_get_ex(in, "members", &arr);
	/* Simulated members get a few one-time prekeys: a group of
	 * hundreds is set up in seconds. */
	if (s->opt.nprekeys > 8)
		s->opt.nprekeys = 8;
	why = members_of(s, arr, &v, &n, &cap, made);
	s->opt.nprekeys = saved;
	if (why != NULL) {
		free(v);
		json_object_put(made);
		return error(out, 400, why);
	}
	if (creator == NULL) {
		for (i = 0; i < n && creator == NULL; i++)
			if (!v[i]->contact)
				creator = v[i];
		if (creator == NULL && n > 0)
			creator = v[0];
	}
	if (creator == NULL) {
		free(v);
		json_object_put(made);
		return error(out, 400, "give a creator or members");
	}
	g = group_new(s, subject, creator, strcmp(mode, "lid") == 0, NULL);
	(void)member_add(g, creator, true);
	for (i = 0; i < n; i++)
		(void)member_add(g, v[i], false);
	free(v);
	arena_init(&ar, 0);
	/* The creator's phone acts: its own device 0 is not told. */
	notify_create(s, g, 0, &ar);
	arena_release(&ar);
	sim_log(s, "group %s created by admin (%s, %zu members, %zu new "
	    "simulated contacts)", g->id, g->lid ? "lid" : "pn", g->n,
	    json_object_array_length(made));
	o = group_json(g);
	json_object_object_add(o, "created_contacts", made);
	return reply(out, o, 200);
}

/* POST /admin/groups/G/{add,remove,promote,demote} {members} and
 * /admin/groups/G/subject {subject}: the creator's phone acts. */
static int
admin_change(struct sim *s, struct sim_group *g, const char *what,
    struct json_object *in, struct buf *out)
{
	struct json_object	*arr = NULL, *made, *res, *o;
	struct sim_account	**v = NULL;
	struct arena		 ar;
	const char		*why;
	size_t			 n = 0, cap = 0, changed;
	enum change		 ch;

	if (g->creator == NULL || sim_group_member(g, g->creator) == NULL)
		return error(out, 409, "the creator is not in the group");
	if (strcmp(what, "subject") == 0) {
		const char	*subj = jstr(in, "subject");

		if (subj == NULL || subj[0] == '\0' || strlen(subj) >=
		    SIM_SUBJECT_MAX)
			return error(out, 400, "give subject (1-255 bytes)");
		arena_init(&ar, 0);
		set_subject(s, g, g->creator, 0, subj, strlen(subj), &ar);
		arena_release(&ar);
		return reply(out, group_json(g), 200);
	}
	if (strcmp(what, "add") == 0)
		ch = CH_ADD;
	else if (strcmp(what, "remove") == 0)
		ch = CH_REMOVE;
	else if (strcmp(what, "promote") == 0)
		ch = CH_PROMOTE;
	else if (strcmp(what, "demote") == 0)
		ch = CH_DEMOTE;
	else
		return error(out, 404, "no such route");
	(void)json_object_object_get_ex(in, "members", &arr);
	if (arr == NULL)
		return error(out, 400, "give members");
	made = json_object_new_array();
	why = members_of(s, arr, &v, &n, &cap, made);
	if (why != NULL || n == 0) {
		free(v);
		json_object_put(made);
		return error(out, 400, why != NULL ? why : "give members");
	}
	res = json_object_new_array();
	arena_init(&ar, 0);
	changed = apply_change(s, g, ch, g->creator, 0, v, NULL, n, &ar, NULL,
	    res);
	arena_release(&ar);
	free(v);
	o = group_json(g);
	json_object_object_add(o, "changed", json_object_new_int64(
	    (int64_t)changed));
	json_object_object_add(o, "results", res);
	json_object_object_add(o, "created_contacts", made);
	return reply(out, o, 200);
}

/* GET /admin/groups/G/delivery?id=ID: which member phones read it. */
static int
admin_delivery(struct sim_group *g, const char *q, struct buf *out)
{
	struct json_object	*o, *texts, *missing;
	char			 id[80];
	size_t			 i, phones = 0, read = 0;

	if (!query(q, "id", id, sizeof(id)))
		return error(out, 400, "give ?id=MESSAGE_ID");
	o = json_object_new_object();
	texts = json_object_new_object();
	missing = json_object_new_array();
	for (i = 0; i < g->n; i++) {
		const char		*t;
		struct json_object	*c;

		if (g->m[i].acct->phone == NULL)
			continue;
		phones++;
		t = sim_phone_group_text(g->m[i].acct, g->id, id);
		if (t == NULL) {
			json_object_array_add(missing,
			    json_object_new_string(g->m[i].acct->pn));
			continue;
		}
		read++;
		if (json_object_object_get_ex(texts, t, &c))
			json_object_set_int64(c, json_object_get_int64(c) + 1);
		else
			json_object_object_add(texts, t,
			    json_object_new_int64(1));
	}
	json_object_object_add(o, "id", json_object_new_string(id));
	json_object_object_add(o, "members", json_object_new_int64(
	    (int64_t)g->n));
	json_object_object_add(o, "phones", json_object_new_int64(
	    (int64_t)phones));
	json_object_object_add(o, "decrypted", json_object_new_int64(
	    (int64_t)read));
	json_object_object_add(o, "texts", texts);
	json_object_object_add(o, "missing", missing);
	return reply(out, o, 200);
}

int
sim_group_admin(struct sim *s, const char *path, const char *q,
    struct json_object *in, bool post, struct buf *out)
{
	struct sim_group	*g;
	const char		*slash;
	char			 id[32];
	size_t			 n;

	if (strcmp(path, "mock-phone/group-send") == 0 && post) {
		const char		*pn = jstr(in, "from_pn");
		const char		*gid = jstr(in, "group");
		const char		*text = jstr(in, "text");
		struct sim_account	*a;
		struct json_object	*res;
		const char		*why = NULL;
		int			 st;

		if (pn == NULL || gid == NULL || text == NULL)
			return error(out, 400, "give from_pn, group and text");
		if ((a = sim_account_by_pn(s, pn)) == NULL)
			return error(out, 404, "no such account");
		if ((g = sim_group_find(s, gid)) == NULL)
			return error(out, 404, "no such group");
		res = json_object_new_object();
		st = sim_phone_group_send(s, a, g, text, res, &why);
		if (st != 200) {
			json_object_put(res);
			return error(out, st, why != NULL ? why : "not sent");
		}
		return reply(out, res, 200);
	}
	if (strcmp(path, "mock-phone/group-inbox") == 0 && !post) {
		char			 pn[SIM_PN_MAX], gid[32];
		struct sim_account	*a;
		struct json_object	*o;
		bool			 one;

		if (!query(q, "pn", pn, sizeof(pn)))
			return error(out, 400, "give ?pn=PN[&group=G]");
		if ((a = sim_account_by_pn(s, pn)) == NULL)
			return error(out, 404, "no such account");
		one = query(q, "group", gid, sizeof(gid));
		if (one && (g = sim_group_find(s, gid)) == NULL)
			return error(out, 404, "no such group");
		o = json_object_new_object();
		json_object_object_add(o, "pn", json_object_new_string(pn));
		json_object_object_add(o, "inbox", sim_phone_group_json(a,
		    one ? g->id : NULL));
		return reply(out, o, 200);
	}
	if (strcmp(path, "groups") == 0) {
		struct json_object	*arr;

		if (post)
			return admin_create(s, in, out);
		arr = json_object_new_array();
		for (g = s->groups; g != NULL; g = g->next)
			json_object_array_add(arr, group_json(g));
		return reply(out, arr, 200);
	}
	if (strncmp(path, "groups/", 7) != 0)
		return 0;
	path += 7;
	slash = strchr(path, '/');
	n = slash != NULL ? (size_t)(slash - path) : strlen(path);
	if (n == 0 || n >= sizeof(id))
		return error(out, 404, "no such group");
	memcpy(id, path, n);
	id[n] = '\0';
	if ((g = sim_group_find(s, id)) == NULL)
		return error(out, 404, "no such group");
	if (slash == NULL)
		return post ? error(out, 405, "GET") : reply(out,
		    group_json(g), 200);
	if (!post && strcmp(slash, "/delivery") == 0)
		return admin_delivery(g, q, out);
	if (!post)
		return error(out, 405, "POST");
	return admin_change(s, g, slash + 1, in, out);
}
