/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-search.c -- the search on the chat screen (ui/view-int.h,
 * ui/search.h): opened over the open chat or all chats, closed back to
 * the view as it was, its query parsed as it is typed and sent
 * (CMD_SEARCH) at most every UI_SEARCH_DEBOUNCE_MS, and a hit opened in
 * its chat.  Its keys are in ui/view-keys.c, its drawing in
 * ui/view-panes.c.
 */
#include "base/compat.h"

#include <stdlib.h>

#include "base/xmalloc.h"
#include "ui/view-int.h"

/* CMD_SEARCH for what the search prompt holds (nothing when it has no
 * word or a filter names nothing: the hits listed go). */
static void
search_send(struct ui_view *v, int64_t now)
{
	struct ui_search	*s = &v->search;
	struct cmd		*c = ui_search_cmd(&s->qy, s->global ? NULL :
				    s->scope);

	s->due = false;
	if (c == NULL) {
		ui_search_clear(s);
		return;
	}
	free(s->asked);
	s->asked = xstrdup(c->u.search.query);
	s->answered = false;
	s->sent_ms = now;
	ui_view_push(v, c);
}

/* The query is parsed again, and searched at once when the last search
 * went UI_SEARCH_DEBOUNCE_MS ago, else on a tick after. */
void
ui_view_search_edit(struct ui_view *v, int64_t now)
{
	struct ui_search	*s = &v->search;

	ui_search_parse(s->q.text, &v->chats, &v->groups, &s->qy);
	s->due = true;
	if (now - s->sent_ms >= UI_SEARCH_DEBOUNCE_MS)
		search_send(v, now);
}

void
ui_view_search_tick(struct ui_view *v, int64_t now)
{
	struct ui_search	*s = &v->search;

	if (s->on && s->due && now - s->sent_ms >= UI_SEARCH_DEBOUNCE_MS)
		search_send(v, now);
}

void
ui_view_search_open(struct ui_view *v, bool global, int64_t now)
{
	struct ui_search	*s = &v->search;

	if (v->msgs.chat == NULL)
		global = true;
	if (!s->on) {
		ui_input_clear(&s->q);
		ui_search_clear(s);
		ui_search_query_release(&s->qy);
		v->search_info = v->info.on;
	}
	s->on = true;
	s->global = global;
	free(s->scope);
	s->scope = global ? NULL : xstrdup(v->msgs.chat);
	v->prompt.kind = PROMPT_NONE;
	v->info.on = false;
	s->sent_ms = 0;
	ui_view_search_edit(v, now);
}

void
ui_view_search_close(struct ui_view *v)
{
	v->search.on = false;
	ui_search_clear(&v->search);
	v->info.on = v->search_info && ui_view_open_group(v) != NULL;
}

void
ui_view_search_enter(struct ui_view *v)
{
	struct ui_search	*s = &v->search;
	char			*chat;
	int64_t			 rowid;

	if (s->sel < 0 || s->sel >= (int)s->n)
		return;
	chat = xstrdup(s->v[s->sel].chat);
	rowid = s->v[s->sel].rowid;
	ui_view_search_close(v);
	ui_view_open_at(v, chat, rowid);
	free(chat);
}
