/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-pick.c -- choosing by part of a name (ui/view-int.h): the chat
 * picker (the new-chat key, Ctrl-n as in nchat: the chats whose name or
 * number holds what is typed, the archived ones too, then the people
 * with no chat yet whose address-book name, push name or number holds
 * it, and "new chat with +NUMBER" when what is typed is a phone number
 * none of them has; Up/Down choose, Enter opens the
 * chosen one, and only that one: the chats passed are neither opened nor
 * marked read), and the members offered for a mention in a group ("@"
 * then part of a name: Up/Down choose, Tab or Enter puts "@Name " in the
 * input line, which ui/view-chat.c sends as a mention,
 * ui_group_mentions_out()).  Matching ignores ASCII case; other letters
 * match as typed.  No curses (ui/view-panes.c draws both).  Main thread.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/view-int.h"

#define MENTION_BACK	64	/* bytes looked back for the "@" typed */

/* ASCII lower case of c; other bytes as they are. */
static int
fold(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

/* Whether s starts with q[0..n), ASCII case ignored. */
static bool
starts(const char *s, const char *q, size_t n)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (s[i] == '\0' || fold((unsigned char)s[i]) !=
		    fold((unsigned char)q[i]))
			return false;
	return true;
}

/* Whether s holds q[0..n) anywhere, ASCII case ignored. */
static bool
holds(const char *s, const char *q, size_t n)
{
	for (; *s != '\0'; s++)
		if (starts(s, q, n))
			return true;
	return n == 0;
}

/* The digits of q (a phone number as people write it: digits, spaces,
 * '-', '(', ')', '+') into d[size], or 0 when q is not one. */
static size_t
digits_of(const char *q, char *d, size_t size)
{
	size_t	 n = 0;

	for (; *q != '\0'; q++) {
		if (*q >= '0' && *q <= '9') {
			if (n + 1 >= size)
				return 0;
			d[n++] = *q;
		} else if (strchr(" -()+", *q) == NULL)
			return 0;
	}
	d[n] = '\0';
	return n;
}

/* Whether jid is a PN JID whose number holds the digits d[0..n), n > 0. */
static bool
number_holds(const char *jid, const char *d, size_t n)
{
	size_t	 u;

	if (n == 0 || !jid_is_pn(jid))
		return false;
	u = strcspn(jid, ":@");
	for (size_t i = 0; i + n <= u; i++)
		if (memcmp(jid + i, d, n) == 0)
			return true;
	return false;
}

/* Whether chat ch matches the query q (its digits d, n of them, when q
 * is a number): its name holds q, or its number holds the digits. */
static bool
chat_matches(const struct ui_chat *ch, const char *q, const char *d,
    size_t n)
{
	return holds(ch->name, q, strlen(q)) || number_holds(ch->jid, d, n);
}

/* Whether person p matches q (its digits d, n of them): by name, push
 * name or the number of its PN. */
static bool
person_matches(const struct ui_person *p, const char *q, const char *d,
    size_t n)
{
	return holds(p->name, q, strlen(q)) || holds(p->push, q, strlen(q)) ||
	    number_holds(p->jid, d, n);
}

/* ---- the chat picker ---- */

static char *
shown_text(const char *s)
{
	struct buf	 b = BUF_INIT;

	wc_sanitize(s, strlen(s), false, &b);
	return (char *)b.p;
}

void
ui_view_pick_release(struct ui_view *v)
{
	size_t	 i;

	for (i = 0; i < v->pick.npeople; i++) {
		free(v->pick.people[i].jid);
		free(v->pick.people[i].name);
		free(v->pick.people[i].push);
	}
	free(v->pick.people);
	v->pick.people = NULL;
	v->pick.npeople = 0;
}

void
ui_view_pick_people(struct ui_view *v, const struct ev_chats *ec)
{
	size_t	 i;

	ui_view_pick_release(v);
	v->pick.people = xcalloc(ec->npeople + 1, sizeof(*v->pick.people));
	for (i = 0; i < ec->npeople; i++) {
		struct ui_person	*p = &v->pick.people[v->pick.npeople];

		if (ec->people[i].jid[0] == '\0' ||
		    ui_chats_find(&v->chats, ec->people[i].jid) >= 0)
			continue;
		p->jid = xstrdup(ec->people[i].jid);
		p->name = shown_text(ec->people[i].name);
		p->push = shown_text(ec->people[i].push_name);
		v->pick.npeople++;
	}
}

size_t *
ui_view_pick_people_list(const struct ui_view *v, size_t *n)
{
	const char	*q = v->pick.q.text;
	char		 d[UI_VIEW_PHONE_MAX + 2];
	size_t		*idx, i, nd = digits_of(q, d, sizeof(d));

	idx = xcalloc(v->pick.npeople + 1, sizeof(*idx));
	*n = 0;
	for (i = 0; i < v->pick.npeople && !v->pick.fwd; i++)
		if (ui_chats_find(&v->chats, v->pick.people[i].jid) < 0 &&
		    person_matches(&v->pick.people[i], q, d, nd))
			idx[(*n)++] = i;
	return idx;
}

/* Whether a person offered has jid. */
static bool
person_has(const struct ui_view *v, const char *jid)
{
	size_t	 i;

	for (i = 0; i < v->pick.npeople; i++)
		if (strcmp(v->pick.people[i].jid, jid) == 0)
			return true;
	return false;
}

size_t *
ui_view_pick_list(const struct ui_view *v, size_t *n)
{
	const char	*q = v->pick.q.text;
	char		 d[UI_VIEW_PHONE_MAX + 2];
	size_t		*idx, i, nd = digits_of(q, d, sizeof(d));

	idx = xcalloc(v->chats.n + 1, sizeof(*idx));
	*n = 0;
	for (i = 0; i < v->chats.n; i++)
		if (chat_matches(&v->chats.v[i], q, d, nd))
			idx[(*n)++] = i;
	return idx;
}

bool
ui_view_pick_number(const struct ui_view *v, char *jid, size_t size)
{
	char	 d[UI_VIEW_PHONE_MAX + 2];
	size_t	 n = digits_of(v->pick.q.text, d, sizeof(d));

	if (v->pick.fwd || size < JID_MAX || !ui_view_phone_jid(d, n, jid))
		return false;	/* a forward goes to chats there are */
	return ui_chats_find(&v->chats, jid) < 0 && !person_has(v, jid);
}

/* The entries offered: the matching chats, the people, and a new chat by
 * number. */
static int
entries(const struct ui_view *v)
{
	char	 jid[JID_MAX];
	size_t	*idx, n, np;

	idx = ui_view_pick_list(v, &n);
	free(idx);
	idx = ui_view_pick_people_list(v, &np);
	free(idx);
	return (int)(n + np) + (ui_view_pick_number(v, jid, sizeof(jid)) ?
	    1 : 0);
}

void
ui_view_pick_open(struct ui_view *v)
{
	struct cmd	*c = cmd_new(CMD_LOAD_CHATS);

	c->u.load_chats.people = true;	/* for the people with no chat */
	ui_view_push(v, c);
	v->pick.on = true;
	v->pick.sel = v->pick.top = 0;
	v->pick.err = NULL;
	ui_input_clear(&v->pick.q);
}

void
ui_view_pick_close(struct ui_view *v)
{
	v->pick.on = false;
	v->pick.err = NULL;
}

void
ui_view_pick_edited(struct ui_view *v)
{
	v->pick.sel = v->pick.top = 0;
	v->pick.err = NULL;
}

void
ui_view_pick_move(struct ui_view *v, int by)
{
	int	 n = entries(v), s = v->pick.sel + by;

	v->pick.sel = s >= n ? n - 1 : s;
	if (v->pick.sel < 0)
		v->pick.sel = 0;
}

void
ui_view_pick_enter(struct ui_view *v)
{
	char		 jid[JID_MAX];
	size_t		*idx, *pidx, n, np;
	int		 sel = v->pick.sel, i;
	bool		 num = ui_view_pick_number(v, jid, sizeof(jid));
	const char	*name = NULL;

	idx = ui_view_pick_list(v, &n);
	pidx = ui_view_pick_people_list(v, &np);
	if (sel >= 0 && (size_t)sel < n) {
		snprintf(jid, sizeof(jid), "%s", v->chats.v[idx[sel]].jid);
		num = true;
	} else if (sel >= 0 && (size_t)sel < n + np) {
		/* a person with no chat: a new empty one with that JID */
		const struct ui_person	*p = &v->pick.people[pidx[(size_t)sel -
					    n]];

		snprintf(jid, sizeof(jid), "%s", p->jid);
		name = p->name;
		num = true;
	} else if (!num || (size_t)sel != n + np)
		num = false;
	free(idx);
	free(pidx);
	if (!num) {
		v->pick.err = digits_of(v->pick.q.text, jid, sizeof(jid)) > 0 ?
		    _("a phone number has 5 to 20 digits, country code first") :
		    _("no chat has that name: type part of a name or a phone "
		    "number");
		return;
	}
	ui_view_pick_close(v);
	v->info.on = false;
	if (!ui_chats_select(&v->chats, jid)) {
		ui_chats_open(&v->chats, jid);
		if (name != NULL && name[0] != '\0' &&
		    (i = ui_chats_find(&v->chats, jid)) >= 0) {
			free(v->chats.v[i].name);
			v->chats.v[i].name = xstrdup(name);
		}
	}
	ui_view_open_selected(v);
}

/* ---- mentions ---- */

/* Whether member m is offered for what was typed after "@", q[0..n):
 * a name or a word of it starting with it, or its number. */
static bool
member_matches(const struct ui_member *m, const char *q, size_t n)
{
	const char	*w = m->shown;

	if (m->is_me)
		return false;
	for (;;) {
		if (starts(w, q, n))
			return true;
		if ((w = strchr(w, ' ')) == NULL)
			break;
		w++;
	}
	return starts(m->jid, q, n);
}

int
ui_view_mention_offer(const struct ui_view *v,
    const struct ui_member **out, int max, size_t *at)
{
	const struct ui_group	*g = ui_view_open_group(v);
	const char		*t = v->in.text;
	size_t			 cur = v->in.cur, a, i;
	int			 n = 0;

	if (g == NULL || g->n == 0 || g->left || v->msgs.sel >= 0)
		return 0;
	for (a = cur; a > 0 && cur - a < MENTION_BACK; a--)
		if (t[a - 1] == '@' || t[a - 1] == '\n')
			break;
	if (a == 0 || t[a - 1] != '@' || (a >= 2 && t[a - 2] != ' ' &&
	    t[a - 2] != '\n') || v->mention.off == a)
		return 0;
	for (i = 0; i < g->n; i++)
		if (member_matches(&g->v[i], t + a, cur - a)) {
			if (n < max)
				out[n] = &g->v[i];
			n++;
		}
	*at = a - 1;
	return n < max ? n : max;
}

void
ui_view_mention_move(struct ui_view *v, int by)
{
	const struct ui_member	*m[UI_VIEW_MENTIONS];
	size_t			 at;
	int			 n = ui_view_mention_offer(v, m,
				    UI_VIEW_MENTIONS, &at);

	if (n == 0)
		return;
	v->mention.sel = ((v->mention.sel + by) % n + n) % n;
}

void
ui_view_mention_refuse(struct ui_view *v)
{
	const struct ui_member	*m[UI_VIEW_MENTIONS];
	size_t			 at;

	if (ui_view_mention_offer(v, m, UI_VIEW_MENTIONS, &at) > 0)
		v->mention.off = at + 1;
}

bool
ui_view_mention_insert(struct ui_view *v)
{
	const struct ui_member	*m[UI_VIEW_MENTIONS];
	struct buf		 b = BUF_INIT;
	size_t			 at;
	int			 n = ui_view_mention_offer(v, m,
				    UI_VIEW_MENTIONS, &at), s;
	bool			 ok;

	if (n == 0)
		return false;
	s = v->mention.sel < n ? v->mention.sel : 0;
	/* The name as ui_group_mentions_out() reads it back into the
	 * member's number; a member without one goes by the number. */
	if (wc_has_label(m[s]->name))
		buf_append(&b, m[s]->name, strlen(m[s]->name));
	else
		buf_append(&b, m[s]->jid, strcspn(m[s]->jid, ":@"));
	buf_push(&b, ' ');
	while (v->in.cur > at + 1)
		ui_input_backspace(&v->in);
	ok = ui_input_insert(&v->in, (const char *)b.p, b.len) == 0;
	buf_release(&b);
	v->mention.sel = 0;
	return ok;
}
