/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-select.c -- the selected message's room of the key dispatch
 * (ui/view-keys.c asks it, ui/view-int.h): its actions (older, newer,
 * reply, react, resend, delete, edit, copy, open its link, forward,
 * message info, leave), Enter
 * replies, any other key leaves the selection for the input line.
 */
#include "base/compat.h"

#include "ui/view-int.h"
#include "ui/view-poll.h"

/* ---- the selected message: its actions; Enter replies; any other key
 * leaves the selection and goes on to the input line ---- */

bool
ui_view_selected_on(const struct ui_view *v)
{
	return v->msgs.sel >= 0 && v->msgs.sel < (int)v->msgs.n;
}

static void
sel_older(struct ui_view *v, int64_t now)
{
	(void)now;
	if (v->msgs.sel > 0)
		v->msgs.sel--;
	else
		ui_view_chat_older(v);
}

static void
sel_newer(struct ui_view *v, int64_t now)
{
	(void)now;
	if (v->msgs.sel + 1 < (int)v->msgs.n)
		v->msgs.sel++;
	else
		v->msgs.sel = -1;
}

static void
sel_reply(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_chat_reply(v);
}

static void
sel_react(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_chat_react(v);
}

static void
sel_retry(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_chat_retry(v);
}

static void
sel_delete(struct ui_view *v, int64_t now)
{
	ui_view_chat_delete(v, now);
}

static void
sel_edit(struct ui_view *v, int64_t now)
{
	ui_view_chat_edit(v, now);
}

static void
sel_copy(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_links_copy(v);
}

static void
sel_open_link(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_links_open(v);
}

static void
sel_download(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_media_get(v);
}

static void
sel_open(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_media_open(v);
}

static void
sel_save_as(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_media_save(v);
}

static void
sel_card_chat(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_card_chat(v);
}

static void
sel_vote(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_vote(v);
}

static void
sel_leave(struct ui_view *v, int64_t now)
{
	(void)now;
	v->msgs.sel = -1;
}

static void
sel_forward(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_fwd_open(v);
}

static void
sel_msg_info(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_minfo_open(v);
}

const ui_view_act_fn ui_view_select_acts[UI_ACT_COUNT] = {
	[UI_ACT_SELECT_UP] =	sel_older,
	[UI_ACT_SELECT_DOWN] =	sel_newer,
	[UI_ACT_REPLY] =	sel_reply,
	[UI_ACT_SEND] =		sel_reply,
	[UI_ACT_REACT] =	sel_react,
	[UI_ACT_RETRY] =	sel_retry,
	[UI_ACT_DELETE] =	sel_delete,
	[UI_ACT_EDIT] =		sel_edit,
	[UI_ACT_COPY] =		sel_copy,
	[UI_ACT_OPEN_LINK] =	sel_open_link,
	[UI_ACT_DOWNLOAD] =	sel_download,
	[UI_ACT_OPEN] =		sel_open,
	[UI_ACT_SAVE_AS] =	sel_save_as,
	[UI_ACT_CANCEL] =	sel_leave,
	[UI_ACT_CARD_CHAT] =	sel_card_chat,
	[UI_ACT_FORWARD] =	sel_forward,
	[UI_ACT_VOTE] =		sel_vote,
	[UI_ACT_MSG_INFO] =	sel_msg_info,
};

bool
ui_view_select_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	(void)a;
	(void)now;
	if (k == '\r' || k == '\n') {
		ui_view_chat_reply(v);
		return true;
	}
	v->msgs.sel = -1;
	return false;
}
