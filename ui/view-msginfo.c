/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-msginfo.c -- the message-info key (ui/keys.h "message-info",
 * Alt-?) on our selected message (issue 20): CMD_MSG_INFO asked, and
 * the answer (EV_MSG_INFO: per recipient, in a group per member, when
 * its devices said the message was delivered and read) held for
 * ui/view-panes.c to draw in the message pane's place; asked again when
 * the message's tick moves while it is shown; Esc closes it.  No
 * curses.  Main thread.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/view-int.h"

static void
rows_free(struct ui_view_minfo *m)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		free(m->rows[i].name);
	free(m->rows);
	m->rows = NULL;
	m->n = 0;
}

void
ui_view_minfo_close(struct ui_view *v)
{
	rows_free(&v->minfo);
	free(v->minfo.chat);
	free(v->minfo.id);
	memset(&v->minfo, 0, sizeof(v->minfo));
}

/* CMD_MSG_INFO for the info shown. */
static void
ask(struct ui_view *v)
{
	struct cmd	*c = cmd_new_chat(CMD_MSG_INFO, v->minfo.chat);

	ev_set(&c->u.msg_info.id, v->minfo.id);
	ui_view_push(v, c);
}

void
ui_view_minfo_open(struct ui_view *v)
{
	const struct ui_msg	*g;

	if (v->msgs.sel < 0 || v->msgs.sel >= (int)v->msgs.n ||
	    v->msgs.chat == NULL)
		return;
	g = &v->msgs.v[v->msgs.sel];
	if (!g->from_me || g->notice || g->deleted) {
		ui_view_note(v, _("message info is for your own messages"));
		return;
	}
	ui_view_minfo_close(v);
	v->minfo.on = true;
	v->minfo.chat = xstrdup(v->msgs.chat);
	v->minfo.id = xstrdup(g->id);
	ask(v);
}

void
ui_view_minfo_moved(struct ui_view *v, const char *chat, const char *id)
{
	if (v->minfo.on && strcmp(v->minfo.chat, chat) == 0 &&
	    strcmp(v->minfo.id, id) == 0)
		ask(v);
}

void
ui_view_minfo_event(struct ui_view *v, const struct ev_msg_info *mi)
{
	struct ui_view_minfo	*m = &v->minfo;
	uint32_t		 i;

	if (!m->on || strcmp(m->chat, mi->chat) != 0 ||
	    strcmp(m->id, mi->id) != 0)
		return;
	rows_free(m);
	m->got = true;
	m->ts_ms = mi->ts_ms;
	m->rows = xcalloc((size_t)mi->nrcpts + 1, sizeof(*m->rows));
	for (i = 0; i < mi->nrcpts; i++) {
		const struct ev_rcpt	*r = &mi->rcpts[i];
		struct buf		 b = BUF_INIT;

		if (r->name[0] != '\0')
			wc_sanitize(r->name, strlen(r->name), false, &b);
		else
			ui_chats_jid_name(r->jid, &b);
		m->rows[i].name = (char *)b.p;
		m->rows[i].delivered_ms = r->delivered_ms;
		m->rows[i].read_ms = r->read_ms;
	}
	m->n = mi->nrcpts;
}

bool
ui_view_minfo_on(const struct ui_view *v)
{
	return v->minfo.on;
}

bool
ui_view_minfo_key(struct ui_view *v, int k, int a, int64_t now)
{
	(void)now;
	if (k == UI_VIEW_KEY_ESC || a == UI_ACT_CANCEL ||
	    a == UI_ACT_MSG_INFO)
		ui_view_minfo_close(v);
	return true;
}
