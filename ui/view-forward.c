/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-forward.c -- the forward key (ui/keys.h "forward", Alt-.) on
 * the selected message (issue 20; protocol-features.md 3.7): the chat
 * picker of ui/view-pick.c opened over the chats alone (type part of a
 * name or number, Up/Down choose), Space marks one or several, Enter
 * sends CMD_FORWARD to the marked ones, or to the chosen one when none
 * is marked.  The engine builds, stores and sends each copy
 * (src/app-forward.c); each shows in its chat as ours, "(forwarded)".
 * No curses (ui/view-panes.c draws the marks).  Main thread.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/xmalloc.h"
#include "ui/view-int.h"

void
ui_view_fwd_release(struct ui_view *v)
{
	uint32_t	 i;

	for (i = 0; i < v->pick.nmarks; i++)
		free(v->pick.marks[i]);
	free(v->pick.marks);
	free(v->pick.fwd_chat);
	free(v->pick.fwd_id);
	v->pick.marks = NULL;
	v->pick.nmarks = 0;
	v->pick.fwd_chat = v->pick.fwd_id = NULL;
	v->pick.fwd = false;
}

void
ui_view_fwd_open(struct ui_view *v)
{
	const struct ui_msg	*g;

	if (v->msgs.sel < 0 || v->msgs.sel >= (int)v->msgs.n ||
	    v->msgs.chat == NULL)
		return;
	g = &v->msgs.v[v->msgs.sel];
	if (g->notice || g->deleted) {
		ui_view_note(v, _("this message cannot be forwarded"));
		return;
	}
	if (g->from_me && (g->tick == UI_TICK_QUEUED ||
	    g->tick == UI_TICK_FAILED)) {
		ui_view_note(v, _("forward it once it is sent"));
		return;
	}
	ui_view_fwd_release(v);
	ui_view_pick_open(v);
	v->pick.fwd = true;
	v->pick.fwd_chat = xstrdup(v->msgs.chat);
	v->pick.fwd_id = xstrdup(g->id);
	v->pick.fwd_from_me = g->from_me;
}

/* The JID of the chat chosen in the picker, or NULL. */
static const char *
chosen(const struct ui_view *v)
{
	size_t		*idx, n;
	const char	*jid = NULL;

	idx = ui_view_pick_list(v, &n);
	if (v->pick.sel >= 0 && (size_t)v->pick.sel < n)
		jid = v->chats.v[idx[v->pick.sel]].jid;
	free(idx);
	return jid;
}

/* Its index in the marks, or -1. */
static int
mark_at(const struct ui_view *v, const char *jid)
{
	uint32_t	 i;

	for (i = 0; i < v->pick.nmarks; i++)
		if (strcmp(v->pick.marks[i], jid) == 0)
			return (int)i;
	return -1;
}

bool
ui_view_fwd_marked(const struct ui_view *v, const char *jid)
{
	return v->pick.fwd && mark_at(v, jid) >= 0;
}

void
ui_view_fwd_mark(struct ui_view *v)
{
	const char	*jid = chosen(v);
	int		 at;

	v->pick.err = NULL;
	if (jid == NULL)
		return;
	if ((at = mark_at(v, jid)) >= 0) {
		free(v->pick.marks[at]);
		v->pick.marks[at] = v->pick.marks[--v->pick.nmarks];
		return;
	}
	if (v->pick.nmarks >= CMD_FORWARD_MAX) {
		v->pick.err = _("that is as many chats as one forward takes");
		return;
	}
	ev_push_str(&v->pick.marks, &v->pick.nmarks, jid);
}

void
ui_view_fwd_enter(struct ui_view *v)
{
	struct cmd	*c;
	const char	*jid = chosen(v);
	char		 note[96];
	uint32_t	 i, n;

	if (v->pick.nmarks == 0 && jid == NULL) {
		v->pick.err = _("no chat has that name: type part of a name "
		    "or a phone number");
		return;
	}
	c = cmd_new_chat(CMD_FORWARD, v->pick.fwd_chat);
	ev_set(&c->u.forward.id, v->pick.fwd_id);
	c->u.forward.from_me = v->pick.fwd_from_me;
	for (i = 0; i < v->pick.nmarks; i++)
		ev_push_str(&c->u.forward.targets, &c->u.forward.ntargets,
		    v->pick.marks[i]);
	if (v->pick.nmarks == 0)
		ev_push_str(&c->u.forward.targets, &c->u.forward.ntargets,
		    jid);
	n = c->u.forward.ntargets;
	ui_view_push(v, c);
	ui_view_fwd_release(v);
	ui_view_pick_close(v);
	v->msgs.sel = -1;
	snprintf(note, sizeof(note), ngettext("forwarded to %u chat",
	    "forwarded to %u chats", n), (unsigned)n);
	ui_view_note(v, note);
}
