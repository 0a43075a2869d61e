/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-msginfo.c -- CMD_MSG_INFO (issue 20, the message-info key):
 * our message's recipients with the time each one's devices said it was
 * delivered and read (the receipts' times the store keeps per recipient,
 * store/store-rtime.h; protocol.md 9.6), as EV_MSG_INFO.  In a group
 * every member but us is listed (PN when known), matched to the
 * receipts by either of its JIDs (a receipt names a LID or a PN); a
 * member with no receipt yet has times 0; in a 1:1 chat the contact,
 * and any other user a receipt named.  Engine thread.
 */
#include "base/compat.h"

#define LOG_TAG	"eng"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/event.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "src/app-int.h"
#include "store/store.h"

/* The times of a or b (b may be "") among t[0..n), marked used; NULL. */
static struct store_rtime *
times_of(struct store_rtime *t, int n, bool *used, const char *a,
    const char *b)
{
	int	 i;

	for (i = 0; i < n; i++)
		if (strcmp(t[i].member, a) == 0 ||
		    (b[0] != '\0' && strcmp(t[i].member, b) == 0)) {
			used[i] = true;
			return &t[i];
		}
	return NULL;
}

/* Append recipient jid (its name read now) with times r (may be NULL). */
static void
add(struct app *a, struct ev_msg_info *mi, const char *jid,
    const struct store_rtime *r)
{
	struct ev_rcpt	*e;

	mi->rcpts = xrealloc(mi->rcpts, ((size_t)mi->nrcpts + 1) *
	    sizeof(*mi->rcpts));
	e = &mi->rcpts[mi->nrcpts++];
	memset(e, 0, sizeof(*e));
	e->jid = xstrdup(jid);
	e->name = app_read_name(a, jid);
	e->delivered_ms = r != NULL ? r->delivered_ms : 0;
	e->read_ms = r != NULL ? r->read_ms : 0;
}

/* Whether member m is us. */
static bool
is_me(const struct app *a, const struct store_group_member *m)
{
	return a->own_user[0] != '\0' && (strcmp(m->jid, a->own_user) == 0 ||
	    strcmp(m->alt, a->own_user) == 0);
}

/* The group's members into mi: true, or false when the group is not
 * known. */
static bool
members(struct app *a, const char *group, struct ev_msg_info *mi,
    struct store_rtime *t, int n, bool *used)
{
	struct store_group	 g;
	size_t			 i;

	if (store_group_get(a->store, group, &g) != 1)
		return false;
	for (i = 0; i < g.n; i++) {
		const struct store_group_member *m = &g.members[i];

		if (!is_me(a, m))
			add(a, mi, jid_is_pn(m->alt) ? m->alt : m->jid,
			    times_of(t, n, used, m->jid, m->alt));
	}
	store_group_release(&g);
	return true;
}

void
app_msg_info(struct app *a, const struct cmd *c)
{
	const struct cmd_msg	*q = &c->u.msg_info;
	struct store_rtime	*t;
	struct store_msg	 m;
	struct ev		*ev;
	bool			*used;
	int			 n, i;

	if (a->store == NULL || store_msg_get(a->store, q->chat, true, q->id,
	    &m) != 1) {
		app_eng_error(a, _("no such message of yours"), -ENOENT);
		return;
	}
	t = xcalloc(STORE_RTIME_MAX, sizeof(*t));
	if ((n = store_rtime_list(a->store, q->chat, q->id, t,
	    STORE_RTIME_MAX)) < 0)
		n = 0;
	used = xcalloc((size_t)n + 1, sizeof(*used));
	ev = ev_new(EV_MSG_INFO);
	ev_set(&ev->u.msg_info.chat, q->chat);
	ev_set(&ev->u.msg_info.id, q->id);
	ev->u.msg_info.ts_ms = m.state >= STORE_MSG_SENT ? m.ts_ms : 0;
	if (!jid_is_group(q->chat) ||
	    !members(a, q->chat, &ev->u.msg_info, t, n, used))
		add(a, &ev->u.msg_info, q->chat,
		    times_of(t, n, used, q->chat, ""));
	for (i = 0; i < n; i++)	/* a receipt from one not listed */
		if (!used[i])
			add(a, &ev->u.msg_info, t[i].member, &t[i]);
	app_eng_send(a, ev);
	free(used);
	free(t);
	store_msg_release(&m);
}
