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
 * a phone's group send, what the phones decrypted; group-admin.c).  The
 * routing of group <message> and <receipt> stanzas is in route-group.c.
 * Loop thread only.
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
#include "proto/node.h"
#include "base/err.h"
#include "nodes.h"
#include "session.h"
#include "sim.h"
#include "base/xmalloc.h"
#include "group.h"

#define GROUP_MAX_CHANGE	SIM_GROUP_MAX	/* participants in one change */
#define GROUP_MAX_DEVICES	64		/* devices of one member */

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

void
grp_user_text(char *out, size_t len, const struct sim_account *a, bool lid)
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

struct sim_group *
grp_new(struct sim *s, const char *subject, struct sim_account *creator,
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
bool
grp_member_add(struct sim_group *g, struct sim_account *a, bool superadmin)
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
	struct sim_group	*g = grp_new(s, subject, creator, lid, NULL);

	g->s_t = g->creation = creation;
	(void)grp_member_add(g, creator, true);
	return g;
}

bool
sim_group_member_add(struct sim_group *g, struct sim_account *a, bool admin)
{
	if (!grp_member_add(g, a, false))
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
	if (g->ephemeral > 0) {
		struct wa_node	*e = sn_new(ar, "ephemeral");

		snprintf(v, sizeof(v), "%u", (unsigned)g->ephemeral);
		sn_attr(ar, e, "expiration", v);
		sn_append(ar, n, e);
	}
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

static const char *const change_tag[] = { "add", "remove", "promote",
    "demote" };

/*
 * Apply change what of accounts v[0..n) (NULL: unknown user, named by
 * names[i] when given) to g, acting as actor (device actor_dev).  Fills
 * res (the <add|...> answer child, with error= per participant that
 * failed) when not NULL, and the JSON array jres when not NULL.  Queues
 * the notification.  Returns how many participants changed.
 */
size_t
grp_apply_change(struct sim *s, struct sim_group *g, enum grp_change what,
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
			else if (!grp_member_add(g, a, false))
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

void
grp_set_subject(struct sim *s, struct sim_group *g, struct sim_account *actor,
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

bool
grp_set_ephemeral(struct sim *s, struct sim_group *g,
    struct sim_account *actor, uint32_t actor_dev, uint32_t secs,
    struct arena *ar)
{
	struct wa_node	*ch;
	char		 v[16];

	/* the timers WhatsApp offers (whatsmeow DisappearingTimer*): a
	 * group refuses others (protocol-features.md 3.5) */
	if (secs != 0 && secs != 86400 && secs != 604800 && secs != 7776000)
		return false;
	g->ephemeral = secs;
	if (secs == 0)
		ch = sn_new(ar, "not_ephemeral");
	else {
		ch = sn_new(ar, "ephemeral");
		snprintf(v, sizeof(v), "%u", (unsigned)secs);
		sn_attr(ar, ch, "expiration", v);
	}
	(void)notify(s, g, actor, actor, actor_dev, NULL, 0, ch, ar);
	sim_log(s, "group %s: disappearing messages %u s", g->id,
	    (unsigned)secs);
	return true;
}

/* The create notification for every member device but the actor's. */
void
grp_notify_create(struct sim *s, struct sim_group *g, uint32_t actor_dev,
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
	g = grp_new(s, subject, c->acct, !s->opt.group_pn, k);
	(void)grp_member_add(g, c->acct, true);
	for (i = 0; i < np; i++)
		if (v[i] != NULL)
			(void)grp_member_add(g, v[i], false);
	r = result(ar, n);
	sn_append(ar, r, group_node(ar, g));
	(void)sim_conn_send_node(c, r);
	sim_conn_log(c, "group %s created (%s, %zu members)", g->id,
	    g->lid ? "lid" : "pn", g->n);
	grp_notify_create(s, g, c->dev->id, ar);
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
	grp_set_subject(k->c->s, k->g, k->c->acct, k->c->dev->id,
	    (const char *)p, len, k->ar);
	sim_iq_result(k->c, k->n);
}

/* <ephemeral expiration/> or <not_ephemeral/>: the group's timer. */
static void
g2_ephemeral(const struct g2_call *k)
{
	int64_t	 secs = 0;

	if (sn_is(k->ch, "ephemeral") && (wa_node_num(k->ch, "expiration",
	    &secs) != 1 || secs <= 0 || secs > UINT32_MAX)) {
		sim_iq_error(k->c, k->n, 400, "bad-request");
		return;
	}
	if (!grp_set_ephemeral(k->c->s, k->g, k->c->acct, k->c->dev->id,
	    (uint32_t)secs, k->ar)) {
		sim_iq_error(k->c, k->n, 400, "bad-request");
		return;
	}
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
	enum grp_change		 what = sn_is(ch, "add") ? CH_ADD :
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
	(void)grp_apply_change(s, k->g, what, k->c->acct, k->c->dev->id, v,
	    names, np, k->ar, rc, NULL);
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
	{ false, false, "ephemeral", g2_ephemeral },
	{ false, false, "not_ephemeral", g2_ephemeral },
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
