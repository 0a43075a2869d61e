/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/groups.c -- what the chat screen knows of groups (ui/groups.h). */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "ui/groups.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"

#define LID_SHOWN	6	/* characters of a LID shown */

void
ui_groups_init(struct ui_groups *gs)
{
	memset(gs, 0, sizeof(*gs));
}

static void
members_release(struct ui_group *g)
{
	size_t	 i;

	for (i = 0; i < g->n; i++) {
		free(g->v[i].jid);
		free(g->v[i].alt);
		free(g->v[i].name);
		free(g->v[i].shown);
	}
	free(g->v);
	g->v = NULL;
	g->n = 0;
}

static void
group_free(struct ui_group *g)
{
	members_release(g);
	free(g->jid);
	free(g->subject);
	free(g->desc);
	free(g->last_sender);
	free(g->last_name);
	free(g);
}

void
ui_groups_release(struct ui_groups *gs)
{
	size_t	 i;

	for (i = 0; i < gs->n; i++)
		group_free(gs->v[i]);
	free(gs->v);
	memset(gs, 0, sizeof(*gs));
}

/*
 * Whether the server of jid, what follows its last '@', is `server`
 * (JID_SERVER_PN, _LID, _GROUP of base/jid.h), with something before the
 * '@'.  The server alone is given to jid_server_is(), as a server-only
 * JID: the chat screen tells JIDs apart by their server and
 * has never parsed their user part, so a JID that jid_parse() refuses
 * for its user (a second '@', a device that is no number, a user over
 * JID_USER_MAX) still counts by its server, and a bare server does not.
 */
static bool
server_is(const char *jid, const char *server)
{
	const char	*at = strrchr(jid, '@');

	return at != NULL && at != jid && jid_server_is(at + 1, server);
}

bool
ui_group_is_jid(const char *jid)
{
	return jid != NULL && server_is(jid, JID_SERVER_GROUP);
}

struct ui_group *
ui_groups_find(const struct ui_groups *gs, const char *jid)
{
	size_t	 i;

	if (jid == NULL)
		return NULL;
	for (i = 0; i < gs->n; i++)
		if (strcmp(gs->v[i]->jid, jid) == 0)
			return gs->v[i];
	return NULL;
}

static char *
sanitised(const char *s, bool multiline)
{
	struct buf	 b = BUF_INIT;

	wc_sanitize(s, s != NULL ? strlen(s) : 0, multiline, &b);
	return (char *)b.p;
}

struct ui_group *
ui_groups_get(struct ui_groups *gs, const char *jid)
{
	struct ui_group	*g = ui_groups_find(gs, jid);

	if (g != NULL)
		return g;
	if (gs->n >= UI_GROUP_MAX)
		return NULL;
	g = xcalloc(1, sizeof(*g));
	g->jid = xstrdup(jid);
	g->subject = xstrdup("");
	g->desc = xstrdup("");
	g->last_sender = xstrdup("");
	g->last_name = xstrdup("");
	gs->v = xrealloc(gs->v, (gs->n + 1) * sizeof(*gs->v));
	gs->v[gs->n++] = g;
	return g;
}

/* The length of jid's user and server without the device (":N"). */
static size_t
user_len(const char *jid, size_t *server)
{
	size_t	 u = strcspn(jid, ":@");
	const char *at = strchr(jid, '@');

	*server = at != NULL ? (size_t)(at - jid) : strlen(jid);
	return u;
}

/* Whether a and b are one person (device parts ignored). */
static bool
same_user(const char *a, const char *b)
{
	size_t	 as, bs, au = user_len(a, &as), bu = user_len(b, &bs);

	return au == bu && memcmp(a, b, au) == 0 &&
	    strcmp(a + as, b + bs) == 0;
}

bool
ui_group_phone_name(const char *jid, struct buf *out)
{
	size_t	 u = strcspn(jid, ":@");

	if (u == 0 || strspn(jid, "0123456789") != u ||
	    !server_is(jid, JID_SERVER_PN))
		return false;
	buf_push(out, '+');
	buf_append(out, jid, u);
	buf_push(out, '\0');
	return true;
}

void
ui_group_name(const struct ui_group *g, const char *jid, const char *name,
    struct buf *out)
{
	const struct ui_member	*m;
	size_t			 srv, u;

	if (wc_has_label(name)) {
		wc_sanitize(name, strlen(name), false, out);
		return;
	}
	if (jid == NULL)
		jid = "";
	if (g != NULL && (m = ui_group_member(g, jid)) != NULL &&
	    wc_has_label(m->name)) {
		buf_append(out, m->name, strlen(m->name) + 1);
		return;
	}
	u = user_len(jid, &srv);
	if (ui_group_phone_name(jid, out))
		return;
	if (u > 0 && server_is(jid, JID_SERVER_LID)) {
		buf_append(out, "~", 1);
		if (u > LID_SHOWN) {
			buf_append(out, "\xe2\x80\xa6", 3);	/* … */
			wc_sanitize(jid + u - LID_SHOWN, LID_SHOWN, false, out);
		} else
			wc_sanitize(jid, u, false, out);
	} else
		wc_sanitize(jid, strlen(jid), false, out);
}

static int
role_rank(enum ui_group_role r)
{
	switch (r) {
	case UI_GROUP_CREATOR:	return 0;
	case UI_GROUP_ADMIN:	return 1;
	case UI_GROUP_MEMBER:	return 2;
	}
	return 2;
}

static int
member_cmp(const void *a, const void *b)
{
	const struct ui_member	*x = a, *y = b;
	int			 d = role_rank(x->role) - role_rank(y->role);

	if (d != 0)
		return d;
	/* Named people before bare numbers, each by name. */
	d = (x->name[0] == '\0') - (y->name[0] == '\0');
	if (d != 0)
		return d;
	if ((d = strcasecmp(x->shown, y->shown)) != 0)
		return d;
	return strcmp(x->jid, y->jid);
}

struct ui_group *
ui_groups_apply(struct ui_groups *gs, const struct ev *ev)
{
	const struct ev_group	*eg = &ev->u.group;
	struct ui_group		*g;
	struct buf		 b = BUF_INIT;
	size_t			 i, n;

	if (ev->kind != EV_GROUP || eg->jid[0] == '\0' ||
	    (g = ui_groups_get(gs, eg->jid)) == NULL)
		return NULL;
	members_release(g);
	free(g->subject);
	free(g->desc);
	g->subject = sanitised(eg->subject, false);
	g->desc = sanitised(eg->description, true);
	g->left = eg->left;
	g->known = true;
	n = eg->nmembers < UI_GROUP_MEMBERS_MAX ? eg->nmembers :
	    UI_GROUP_MEMBERS_MAX;
	g->v = xcalloc(n + 1, sizeof(*g->v));
	for (i = 0; i < n; i++) {
		const struct ev_member	*e = &eg->members[i];
		struct ui_member	*m = &g->v[i];

		m->jid = xstrdup(e->jid);
		m->alt = xstrdup(e->alt);
		m->name = sanitised(e->name, false);
		m->role = e->role == EV_ROLE_CREATOR ? UI_GROUP_CREATOR :
		    e->role == EV_ROLE_ADMIN ? UI_GROUP_ADMIN : UI_GROUP_MEMBER;
		m->is_me = e->is_me;
		memset(&b, 0, sizeof(b));
		ui_group_name(NULL, m->jid, m->name, &b);
		m->shown = (char *)b.p;
	}
	g->n = n;
	qsort(g->v, g->n, sizeof(*g->v), member_cmp);
	return g;
}

void
ui_groups_note(struct ui_groups *gs, const struct ev *ev)
{
	const struct ev_message	*em = &ev->u.message;
	struct ui_group		*g;

	if (ev->kind != EV_MESSAGE || em->notice ||
	    !ui_group_is_jid(em->key.chat))
		return;
	if ((g = ui_groups_get(gs, em->key.chat)) == NULL)
		return;
	/* a member whose name the group's info did not know: now it is */
	if (em->sender_name[0] != '\0') {
		struct ui_member *m = (struct ui_member *)ui_group_member(g,
		    em->key.sender);

		if (m != NULL && !wc_has_label(m->name)) {
			free(m->name);
			m->name = sanitised(em->sender_name, false);
			free(m->shown);
			m->shown = xstrdup(m->name);
		}
	}
	if (em->ts_ms < g->last_ms)
		return;
	g->last_ms = em->ts_ms;
	g->last_from_me = em->key.from_me;
	free(g->last_sender);
	g->last_sender = xstrdup(em->key.sender);
	free(g->last_name);
	g->last_name = sanitised(em->sender_name, false);
}

const struct ui_member *
ui_group_member(const struct ui_group *g, const char *jid)
{
	size_t	 i;

	if (g == NULL || jid == NULL || jid[0] == '\0')
		return NULL;
	for (i = 0; i < g->n; i++)
		if (same_user(g->v[i].jid, jid) || (g->v[i].alt[0] != '\0' &&
		    same_user(g->v[i].alt, jid)))
			return &g->v[i];
	return NULL;
}

const struct ui_member *
ui_group_me(const struct ui_group *g)
{
	size_t	 i;

	for (i = 0; g != NULL && i < g->n; i++)
		if (g->v[i].is_me)
			return &g->v[i];
	return NULL;
}

unsigned
ui_group_colour(const char *jid)
{
	uint32_t	 h = 2166136261u;
	size_t		 srv, u = user_len(jid, &srv), i;

	for (i = 0; i < u; i++)
		h = (h ^ (unsigned char)jid[i]) * 16777619u;
	for (i = srv; jid[i] != '\0'; i++)
		h = (h ^ (unsigned char)jid[i]) * 16777619u;
	return h % UI_GROUP_COLOURS;
}

/* The member whose JID's user part is digits[0..n), or NULL. */
static const struct ui_member *
by_user(const struct ui_group *g, const char *digits, size_t n)
{
	size_t	 i, srv;

	for (i = 0; i < g->n; i++)
		if ((user_len(g->v[i].jid, &srv) == n &&
		    memcmp(g->v[i].jid, digits, n) == 0) ||
		    (g->v[i].alt[0] != '\0' && user_len(g->v[i].alt, &srv) == n &&
		    memcmp(g->v[i].alt, digits, n) == 0))
			return &g->v[i];
	return NULL;
}

char *
ui_group_mentions_out(const struct ui_group *g, const char *text)
{
	struct buf		 out = BUF_INIT;
	const struct ui_member	*best;
	const char		*p = text, *at;
	size_t			 i, n, bestn, srv;

	if (g == NULL || g->n == 0 || strchr(text, '@') == NULL)
		return xstrdup(text);
	while ((at = strchr(p, '@')) != NULL) {
		buf_append(&out, p, (size_t)(at - p) + 1);	/* with '@' */
		p = at + 1;
		best = NULL;
		bestn = 0;
		for (i = 0; i < g->n; i++) {
			n = strlen(g->v[i].name);
			if (n > bestn && strncmp(p, g->v[i].name, n) == 0 &&
			    !g->v[i].is_me) {
				best = &g->v[i];
				bestn = n;
			}
		}
		if (best == NULL)
			continue;
		n = user_len(best->jid, &srv);
		buf_append(&out, best->jid, n);
		p += bestn;
	}
	buf_append(&out, p, strlen(p) + 1);
	return (char *)out.p;
}

void
ui_group_mentions(const struct ui_group *g, const char *text,
    struct buf *out, struct ui_span **spans, size_t *nspans)
{
	const struct ui_member	*m;
	const char		*p = text, *at;
	struct ui_span		*sp = NULL;
	size_t			 n, ns = 0, start, base = out->len;

	while (g != NULL && g->n > 0 && (at = strchr(p, '@')) != NULL) {
		n = strspn(at + 1, "0123456789");
		buf_append(out, p, (size_t)(at - p));
		p = at + 1;
		if (n == 0 || (m = by_user(g, at + 1, n)) == NULL) {
			buf_push(out, '@');
			continue;
		}
		start = out->len;
		buf_push(out, '@');
		if (wc_has_label(m->name))
			buf_append(out, m->name, strlen(m->name));
		else if (m->is_me)	/* ourselves, by no other name */
			buf_append(out, _("you"), strlen(_("you")));
		else
			buf_append(out, at + 1, n);
		p = at + 1 + n;
		if (ns < UI_GROUP_SPANS_MAX) {
			sp = xrealloc(sp, (ns + 1) * sizeof(*sp));
			sp[ns].off = start - base;
			sp[ns].len = out->len - start;
			sp[ns].colour = ui_group_colour(m->jid);
			ns++;
		}
	}
	buf_append(out, p, strlen(p) + 1);
	*spans = sp;
	*nspans = ns;
}
