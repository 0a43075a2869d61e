/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/group-admin.c -- the admin routes of groups
 * (tests/sim/README.md): list and create groups (with simulated members,
 * sim:N), one group, its changes acting as the creator's phone, which
 * member phones read a message, a phone's group send and its group
 * inbox.  Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/arena.h"
#include "base/xmalloc.h"
#include "group.h"
#include "sim.h"

#define GROUP_MAX_SIM		4096		/* sim:N contacts in one create */
#define GROUP_SIM_PN_BASE	15559000000ULL	/* sim:N contacts' PNs */

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

	grp_user_text(j, sizeof(j), m->acct, g->lid);
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
	json_object_object_add(o, "ephemeral", json_object_new_int64(
	    (int64_t)g->ephemeral));
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
	const char		*subject = sim_json_str(in, "subject");
	const char		*cpn = sim_json_str(in, "creator");
	const char		*mode = sim_json_str(in, "addressing_mode");
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
		return sim_json_error(out, 400, "give subject (1-255 bytes), members, "
		    "creator and addressing_mode (lid or pn)");
	}
	if (cpn != NULL && (creator = sim_account_by_pn(s, cpn)) == NULL) {
		json_object_put(made);
		return sim_json_error(out, 404, "the creator is no account or contact");
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
		return sim_json_error(out, 400, why);
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
		return sim_json_error(out, 400, "give a creator or members");
	}
	g = grp_new(s, subject, creator, strcmp(mode, "lid") == 0, NULL);
	(void)grp_member_add(g, creator, true);
	for (i = 0; i < n; i++)
		(void)grp_member_add(g, v[i], false);
	free(v);
	arena_init(&ar, 0);
	/* The creator's phone acts: its own device 0 is not told. */
	grp_notify_create(s, g, 0, &ar);
	arena_release(&ar);
	sim_log(s, "group %s created by admin (%s, %zu members, %zu new "
	    "simulated contacts)", g->id, g->lid ? "lid" : "pn", g->n,
	    json_object_array_length(made));
	o = group_json(g);
	json_object_object_add(o, "created_contacts", made);
	return sim_json_reply(out, o, 200);
}

/* POST /admin/groups/G/ephemeral {secs, by?}: the member by (a PN; the
 * creator when absent) sets the group's disappearing messages' timer. */
static int
admin_ephemeral(struct sim *s, struct sim_group *g, struct json_object *in,
    struct buf *out)
{
	const char		*by = sim_json_str(in, "by");
	struct sim_account	*a = g->creator;
	struct arena		 ar;
	int64_t			 secs = -1;
	bool			 ok;

	if (sim_json_num(in, "secs", &secs) != 1 || secs < 0 ||
	    secs > UINT32_MAX)
		return sim_json_error(out, 400, "give secs (0, 86400, 604800 "
		    "or 7776000)");
	if (by != NULL && (a = sim_account_by_pn(s, by)) == NULL)
		return sim_json_error(out, 404, "no such account");
	if (a == NULL || sim_group_member(g, a) == NULL)
		return sim_json_error(out, 409, "not a member of the group");
	arena_init(&ar, 0);
	ok = grp_set_ephemeral(s, g, a, 0, (uint32_t)secs, &ar);
	arena_release(&ar);
	if (!ok)
		return sim_json_error(out, 400, "secs: 0, 86400, 604800 or "
		    "7776000");
	return sim_json_reply(out, group_json(g), 200);
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
	enum grp_change		 ch;

	if (g->creator == NULL || sim_group_member(g, g->creator) == NULL)
		return sim_json_error(out, 409, "the creator is not in the group");
	if (strcmp(what, "subject") == 0) {
		const char	*subj = sim_json_str(in, "subject");

		if (subj == NULL || subj[0] == '\0' || strlen(subj) >=
		    SIM_SUBJECT_MAX)
			return sim_json_error(out, 400, "give subject (1-255 bytes)");
		arena_init(&ar, 0);
		grp_set_subject(s, g, g->creator, 0, subj, strlen(subj), &ar);
		arena_release(&ar);
		return sim_json_reply(out, group_json(g), 200);
	}
	if (strcmp(what, "ephemeral") == 0)
		return admin_ephemeral(s, g, in, out);
	if (strcmp(what, "add") == 0)
		ch = CH_ADD;
	else if (strcmp(what, "remove") == 0)
		ch = CH_REMOVE;
	else if (strcmp(what, "promote") == 0)
		ch = CH_PROMOTE;
	else if (strcmp(what, "demote") == 0)
		ch = CH_DEMOTE;
	else
		return sim_json_error(out, 404, "no such route");
	(void)json_object_object_get_ex(in, "members", &arr);
	if (arr == NULL)
		return sim_json_error(out, 400, "give members");
	made = json_object_new_array();
	why = members_of(s, arr, &v, &n, &cap, made);
	if (why != NULL || n == 0) {
		free(v);
		json_object_put(made);
		return sim_json_error(out, 400, why != NULL ? why : "give members");
	}
	res = json_object_new_array();
	arena_init(&ar, 0);
	changed = grp_apply_change(s, g, ch, g->creator, 0, v, NULL, n, &ar,
	    NULL, res);
	arena_release(&ar);
	free(v);
	o = group_json(g);
	json_object_object_add(o, "changed", json_object_new_int64(
	    (int64_t)changed));
	json_object_object_add(o, "results", res);
	json_object_object_add(o, "created_contacts", made);
	return sim_json_reply(out, o, 200);
}

/* GET /admin/groups/G/delivery?id=ID: which member phones read it. */
static int
admin_delivery(struct sim_group *g, const char *q, struct buf *out)
{
	struct json_object	*o, *texts, *missing;
	char			 id[80];
	size_t			 i, phones = 0, read = 0;

	if (!query(q, "id", id, sizeof(id)))
		return sim_json_error(out, 400, "give ?id=MESSAGE_ID");
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
	return sim_json_reply(out, o, 200);
}

/* POST /admin/mock-phone/group-send {from_pn, group, text}. */
static int
phone_group_send(struct sim *s, const char *q, struct json_object *in,
    struct buf *out)
{
	const char		*pn = sim_json_str(in, "from_pn");
	const char		*gid = sim_json_str(in, "group");
	const char		*text = sim_json_str(in, "text");
	struct sim_account	*a;
	struct sim_group	*g;
	struct json_object	*res;
	const char		*why = NULL;
	int			 st;

	(void)q;
	if (pn == NULL || gid == NULL || text == NULL)
		return sim_json_error(out, 400, "give from_pn, group and text");
	if ((a = sim_account_by_pn(s, pn)) == NULL)
		return sim_json_error(out, 404, "no such account");
	if ((g = sim_group_find(s, gid)) == NULL)
		return sim_json_error(out, 404, "no such group");
	res = json_object_new_object();
	st = sim_phone_group_send(s, a, g, text, res, &why);
	if (st != 200) {
		json_object_put(res);
		return sim_json_error(out, st, why != NULL ? why : "not sent");
	}
	return sim_json_reply(out, res, 200);
}

/* GET /admin/mock-phone/group-inbox?pn=PN[&group=G]. */
static int
phone_group_inbox(struct sim *s, const char *q, struct json_object *in,
    struct buf *out)
{
	char			 pn[SIM_PN_MAX], gid[32];
	struct sim_account	*a;
	struct sim_group	*g = NULL;
	struct json_object	*o;
	bool			 one;

	(void)in;
	if (!query(q, "pn", pn, sizeof(pn)))
		return sim_json_error(out, 400, "give ?pn=PN[&group=G]");
	if ((a = sim_account_by_pn(s, pn)) == NULL)
		return sim_json_error(out, 404, "no such account");
	one = query(q, "group", gid, sizeof(gid));
	if (one && (g = sim_group_find(s, gid)) == NULL)
		return sim_json_error(out, 404, "no such group");
	o = json_object_new_object();
	json_object_object_add(o, "pn", json_object_new_string(pn));
	json_object_object_add(o, "inbox", sim_phone_group_json(a,
	    one ? g->id : NULL));
	return sim_json_reply(out, o, 200);
}

/* GET /admin/groups: every group. */
static int
list_groups(struct sim *s, const char *q, struct json_object *in,
    struct buf *out)
{
	struct json_object	*arr = json_object_new_array();
	struct sim_group	*g;

	(void)q;
	(void)in;
	for (g = s->groups; g != NULL; g = g->next)
		json_object_array_add(arr, group_json(g));
	return sim_json_reply(out, arr, 200);
}

static int
create_group(struct sim *s, const char *q, struct json_object *in,
    struct buf *out)
{
	(void)q;
	return admin_create(s, in, out);
}

/* /admin/groups/G[/WHAT]: the group, its delivery report, its changes. */
static int
one_group(struct sim *s, const char *path, const char *q,
    struct json_object *in, bool post, struct buf *out)
{
	struct sim_group	*g;
	const char		*slash = strchr(path, '/');
	char			 id[32];
	size_t			 n;

	n = slash != NULL ? (size_t)(slash - path) : strlen(path);
	if (n == 0 || n >= sizeof(id))
		return sim_json_error(out, 404, "no such group");
	memcpy(id, path, n);
	id[n] = '\0';
	if ((g = sim_group_find(s, id)) == NULL)
		return sim_json_error(out, 404, "no such group");
	if (slash == NULL)
		return post ? sim_json_error(out, 405, "GET") : sim_json_reply(out,
		    group_json(g), 200);
	if (!post && strcmp(slash, "/delivery") == 0)
		return admin_delivery(g, q, out);
	if (!post)
		return sim_json_error(out, 405, "POST");
	return admin_change(s, g, slash + 1, in, out);
}

/* The routes with a path of their own: path, method, handler. */
static const struct {
	const char	*path;
	bool		 post;
	int		(*fn)(struct sim *, const char *, struct json_object *,
			    struct buf *);
} group_routes[] = {
	{ "mock-phone/group-send", true, phone_group_send },
	{ "mock-phone/group-inbox", false, phone_group_inbox },
	{ "groups", false, list_groups },
	{ "groups", true, create_group },
};

int
sim_group_admin(struct sim *s, const char *path, const char *q,
    struct json_object *in, bool post, struct buf *out)
{
	size_t	 i;

	for (i = 0; i < sizeof(group_routes) / sizeof(group_routes[0]); i++)
		if (group_routes[i].post == post &&
		    strcmp(group_routes[i].path, path) == 0)
			return group_routes[i].fn(s, q, in, out);
	if (strncmp(path, "groups/", 7) != 0)
		return 0;
	return one_group(s, path + 7, q, in, post, out);
}
