/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-mouse.c -- the mouse on the chat screen (ui_view_mouse(),
 * ui/view.h): a click on a chat in the list opens it, the wheel over the
 * messages scrolls them, by where the last draw put them (v->geo).
 */
#include "base/compat.h"

#include <stdlib.h>

#include "base/xmalloc.h"
#include "ui/view-int.h"

void
ui_view_mouse(struct ui_view *v, int y, int x, enum ui_view_mouse what,
    int64_t now)
{
	const struct ui_chat	*ch;
	int			 k;
	char			*jid;

	(void)now;
	if (!v->o.mouse || !v->linked || v->help.on || v->search.on ||
	    v->pick.on)
		return;
	if (what == UI_VIEW_CLICK && v->geo.lh > 0 && y >= v->geo.ly &&
	    y < v->geo.ly + v->geo.lh && x >= v->geo.lx &&
	    x < v->geo.lx + v->geo.lw) {
		/* two rows a chat (ui_chats_draw()), the Archived row
		 * opening the folder */
		if (ui_chats_slot(&v->chats, (size_t)((y - v->geo.ly) / 2),
		    &k)) {
			ui_chats_folder(&v->chats, true);
			return;
		}
		if (k < 0)
			return;
		ch = &v->chats.v[k];
		jid = xstrdup(ch->jid);
		if (ui_chats_select(&v->chats, jid))
			ui_view_open_selected(v);
		free(jid);
		return;
	}
	if (what != UI_VIEW_CLICK && v->geo.mh > 0 && v->msgs.chat != NULL &&
	    !v->info.on && y >= v->geo.my && y < v->geo.my + v->geo.mh &&
	    x >= v->geo.mx && x < v->geo.mx + v->geo.mw)
		ui_view_chat_scroll(v, what == UI_VIEW_WHEEL_UP ? -1 : 1,
		    UI_VIEW_WHEEL_ROWS);
}
