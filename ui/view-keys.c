/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-keys.c -- key dispatch of the chat screen (ui_view_key(),
 * ui/view-int.h).  A key is first a bracketed paste's (a newline in a
 * paste is a newline, not Enter), then the key page's while it is shown,
 * then quit wherever it is typed; then the rooms are asked in turn, the
 * first one open taking it: the search, a prompt, the chat picker, the
 * group info, the members offered for a mention, the chat screen's own
 * keys, the selected message, a group we left, the
 * input line.  A room holds a table of (action, handler) over the
 * actions of ui/keys.h (the key bound to each, wachat.conf's key-*
 * settings), and a handler for the other keys it takes (its letters,
 * Enter, Esc, the editing keys: ui_view_keys_edit(), ui/view-state.c).
 * The top of the view's files: none of them calls this one.
 */
#include "base/compat.h"

#include <curses.h>		/* KEY_* codes */
#include <stdlib.h>

#include "base/i18n.h"
#include "base/xmalloc.h"
#include "ui/view-int.h"
#include "ui/view-poll.h"

/* One room: whether it is open (NULL: always), its actions (indexed by
 * enum ui_key_action; NULL: none, or an action it does not take) and its
 * other keys (NULL: none; true when it took the key). */
struct room {
	bool		(*on)(const struct ui_view *);
	const ui_view_act_fn	*acts;
	bool		(*key)(struct ui_view *, int, enum ui_key_action,
			    int64_t);
};

static bool
is_enter(int k)
{
	return k == '\r' || k == '\n' || k == UI_KEY_FN + KEY_ENTER;
}

/* Moving the selection of a list of n rows, step rows a page. */
static void
sel_up(int *sel)
{
	if (*sel > 0)
		(*sel)--;
}

static void
sel_down(int *sel, int n)
{
	if (*sel + 1 < n)
		(*sel)++;
}

static void
sel_page_up(int *sel, int step)
{
	*sel = *sel > step ? *sel - step : 0;
}

static void
sel_page_down(int *sel, int n, int step)
{
	*sel = *sel + step < n ? *sel + step : (n > 0 ? n - 1 : 0);
}

/* ---- the chat screen's own actions (every room but the search, a
 * prompt and the group info lets them through) ---- */

static void
help_open(struct ui_view *v, int64_t now)
{
	(void)now;
	v->help.on = true;
	v->help.top = 0;
}

static void
next_chat(struct ui_view *v, int64_t now)
{
	(void)now;
	if (ui_chats_move(&v->chats, 1))
		ui_view_open_selected(v);
}

static void
prev_chat(struct ui_view *v, int64_t now)
{
	(void)now;
	if (ui_chats_move(&v->chats, -1))
		ui_view_open_selected(v);
}

static void
unread_chat(struct ui_view *v, int64_t now)
{
	(void)now;
	if (ui_chats_next_unread(&v->chats))
		ui_view_open_selected(v);
	else
		ui_view_note(v, _("no unread chat"));
}

/* The chat picker (new-chat, Ctrl-n): a chat by name or number, or a
 * new one by number. */
static void
new_chat(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_pick_open(v);
}

static void
new_group(struct ui_view *v, int64_t now)
{
	(void)now;
	v->info.on = false;
	ui_view_prompt_start(v, PROMPT_GROUP_SUBJECT);
}

static void
group_info(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_info_open(v);
}

static void
group_leave(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_info_leave(v);
}

static void
older_page(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_chat_page(v, -1);
}

static void
newer_page(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_chat_page(v, 1);
}

static void
find(struct ui_view *v, int64_t now)
{
	ui_view_search_open(v, false, now);
}

static void
find_all(struct ui_view *v, int64_t now)
{
	ui_view_search_open(v, true, now);
}

static void
toggle_list(struct ui_view *v, int64_t now)
{
	(void)now;
	v->list_hidden = !v->list_hidden;
}

static void
peek(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_chat_peek(v);
}

/* The archived chats' folder in the list, or back to the chat list. */
static void
archived(struct ui_view *v, int64_t now)
{
	(void)now;
	if (v->chats.narch == 0 && !v->chats.folder) {
		ui_view_note(v, _("no chat is archived"));
		return;
	}
	v->list_hidden = false;
	ui_chats_folder(&v->chats, !v->chats.folder);
}

static const ui_view_act_fn chat_acts[UI_ACT_COUNT] = {
	[UI_ACT_LIST] =		toggle_list,
	[UI_ACT_ARCHIVED] =	archived,
	[UI_ACT_PEEK] =		peek,
	[UI_ACT_HELP] =		help_open,
	[UI_ACT_NEXT_CHAT] =	next_chat,
	[UI_ACT_PREV_CHAT] =	prev_chat,
	[UI_ACT_UNREAD_CHAT] =	unread_chat,
	[UI_ACT_NEW_CHAT] =	new_chat,
	[UI_ACT_GROUP_NEW] =	new_group,
	[UI_ACT_GROUP_INFO] =	group_info,
	[UI_ACT_GROUP_LEAVE] =	group_leave,
	[UI_ACT_PREV_PAGE] =	older_page,
	[UI_ACT_NEXT_PAGE] =	newer_page,
	[UI_ACT_FIND] =		find,
	[UI_ACT_FIND_ALL] =	find_all,
	[UI_ACT_JUMP_DATE] =	ui_view_prompt_date,
	[UI_ACT_MUTE] =		ui_view_ca_mute,
	[UI_ACT_PIN] =		ui_view_ca_pin,
	[UI_ACT_ARCHIVE] =	ui_view_ca_archive,
	[UI_ACT_MARK_UNREAD] =	ui_view_ca_unread,
	[UI_ACT_STAR] =		ui_view_ca_star,
	[UI_ACT_DELETE_CHAT] =	ui_view_ca_delete,
	[UI_ACT_CLEAR_CHAT] =	ui_view_ca_clear,
	[UI_ACT_DISAPPEAR] =	ui_view_ca_ephemeral,
	[UI_ACT_ATTACH] =	ui_view_attach,
	[UI_ACT_VOICE] =	ui_view_voice,
	[UI_ACT_POLL_NEW] =	ui_view_poll_new,
};

/* ---- the key page: its scroll keys (Up, Down, PgUp, PgDn as typed,
 * whatever they are bound to); any other key closes it and does
 * nothing more, but quit ---- */

static bool
help_key(struct ui_view *v, int k, enum ui_key_action a)
{
	int	 page = v->help.rows > 1 ? v->help.rows - 1 : 1;

	switch (k) {
	case UI_KEY_FN + KEY_UP:	v->help.top -= 1; return true;
	case UI_KEY_FN + KEY_DOWN:	v->help.top += 1; return true;
	case UI_KEY_FN + KEY_PPAGE:	v->help.top -= page; return true;
	case UI_KEY_FN + KEY_NPAGE:	v->help.top += page; return true;
	}				/* ui/view-draw.c clamps it */
	v->help.on = false;
	return a != UI_ACT_QUIT;
}

/* ---- the search: every key but quit ---- */

static bool
search_on(const struct ui_view *v)
{
	return v->search.on;
}

static int
search_step(const struct ui_view *v)
{
	return v->search.rows > 1 ? v->search.rows - 1 : 1;
}

static void
search_cancel(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_search_close(v);
}

static void
search_up(struct ui_view *v, int64_t now)
{
	(void)now;
	sel_up(&v->search.sel);
}

static void
search_down(struct ui_view *v, int64_t now)
{
	(void)now;
	sel_down(&v->search.sel, (int)v->search.n);
}

static void
search_page_up(struct ui_view *v, int64_t now)
{
	(void)now;
	sel_page_up(&v->search.sel, search_step(v));
}

static void
search_page_down(struct ui_view *v, int64_t now)
{
	(void)now;
	sel_page_down(&v->search.sel, (int)v->search.n, search_step(v));
}

static void
search_enter(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_search_enter(v);
}

static const ui_view_act_fn search_acts[UI_ACT_COUNT] = {
	[UI_ACT_LIST] =		toggle_list,
	[UI_ACT_CANCEL] =	search_cancel,
	[UI_ACT_HELP] =		help_open,
	[UI_ACT_FIND] =		find,
	[UI_ACT_FIND_ALL] =	find_all,
	[UI_ACT_SELECT_UP] =	search_up,
	[UI_ACT_SELECT_DOWN] =	search_down,
	[UI_ACT_PREV_PAGE] =	search_page_up,
	[UI_ACT_NEXT_PAGE] =	search_page_down,
	[UI_ACT_SEND] =		search_enter,
};

/* Esc closes, Enter opens the chosen hit, the rest edits the query. */
static bool
search_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	size_t	 len = v->search.q.len;

	(void)a;
	if (k == UI_VIEW_KEY_ESC)
		ui_view_search_close(v);
	else if (is_enter(k))
		ui_view_search_enter(v);
	else if (ui_view_keys_edit(&v->search.q, k) && v->search.q.len != len)
		ui_view_search_edit(v, now);
	return true;
}

/* ---- a prompt or question: every key but quit ---- */

static bool
prompt_on(const struct ui_view *v)
{
	return v->prompt.kind != PROMPT_NONE;
}

static bool
prompt_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	(void)now;
	ui_view_prompt_key(v, k, a);
	return true;
}

/* ---- the chat picker: every key but quit ---- */

static bool
pick_on(const struct ui_view *v)
{
	return v->pick.on;
}

static int
pick_step(const struct ui_view *v)
{
	return v->pick.rows > 1 ? v->pick.rows - 1 : 1;
}

static void
pick_close(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_fwd_release(v);
	ui_view_pick_close(v);
}

static void
pick_up(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_pick_move(v, -1);
}

static void
pick_down(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_pick_move(v, 1);
}

static void
pick_page_up(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_pick_move(v, -pick_step(v));
}

static void
pick_page_down(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_pick_move(v, pick_step(v));
}

static void
pick_enter(struct ui_view *v, int64_t now)
{
	(void)now;
	if (v->pick.fwd)
		ui_view_fwd_enter(v);
	else
		ui_view_pick_enter(v);
}

static const ui_view_act_fn pick_acts[UI_ACT_COUNT] = {
	[UI_ACT_LIST] =		toggle_list,
	[UI_ACT_CANCEL] =	pick_close,
	[UI_ACT_NEW_CHAT] =	pick_close,
	[UI_ACT_HELP] =		help_open,
	[UI_ACT_SELECT_UP] =	pick_up,
	[UI_ACT_SELECT_DOWN] =	pick_down,
	[UI_ACT_PREV_CHAT] =	pick_up,
	[UI_ACT_NEXT_CHAT] =	pick_down,
	[UI_ACT_PREV_PAGE] =	pick_page_up,
	[UI_ACT_NEXT_PAGE] =	pick_page_down,
	[UI_ACT_SEND] =		pick_enter,
};

/* Esc closes, Enter opens the chosen chat (forwarding: sends), Space
 * marks a chat when forwarding, the rest edits the query. */
static bool
pick_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	size_t	 len = v->pick.q.len;

	(void)a;
	if (k == UI_VIEW_KEY_ESC)
		pick_close(v, now);
	else if (is_enter(k))
		pick_enter(v, now);
	else if (k == ' ' && v->pick.fwd)
		ui_view_fwd_mark(v);
	else if (ui_view_keys_edit(&v->pick.q, k) && v->pick.q.len != len)
		ui_view_pick_edited(v);
	return true;
}

/* ---- the members offered for a mention ("@" and part of a name in a
 * group): Up/Down choose, Tab or Enter puts the name in, Esc offers none
 * for this "@"; the other keys go on to the input line ---- */

static bool
mention_on(const struct ui_view *v)
{
	const struct ui_member	*m[UI_VIEW_MENTIONS];
	size_t			 at;

	return ui_view_mention_offer(v, m, UI_VIEW_MENTIONS, &at) > 0;
}

static void
mention_up(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_mention_move(v, -1);
}

static void
mention_down(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_mention_move(v, 1);
}

static void
mention_put(struct ui_view *v, int64_t now)
{
	if (ui_view_mention_insert(v))
		ui_view_chat_typing_edit(v, now);
}

static void
mention_refuse(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_mention_refuse(v);
}

static const ui_view_act_fn mention_acts[UI_ACT_COUNT] = {
	[UI_ACT_SELECT_UP] =	mention_up,
	[UI_ACT_SELECT_DOWN] =	mention_down,
	[UI_ACT_NEXT_CHAT] =	mention_put,
	[UI_ACT_PREV_CHAT] =	mention_up,
	[UI_ACT_CANCEL] =	mention_refuse,
};

static bool
mention_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	(void)a;
	if (is_enter(k) || k == '\t') {
		mention_put(v, now);
		return true;
	}
	if (k == UI_VIEW_KEY_ESC) {
		ui_view_mention_refuse(v);
		return true;
	}
	return false;
}

/* ---- the group info: every key (those that leave it for another
 * chat, a prompt or the search as on the chat screen) ---- */

static bool
info_on(const struct ui_view *v)
{
	return v->info.on;
}

/* The open group's members, and a page of them. */
static int
info_n(const struct ui_view *v)
{
	const struct ui_group	*g = ui_view_open_group(v);

	return g != NULL && !v->info.contact ? (int)g->n : 0;
}

static int
info_step(const struct ui_view *v)
{
	return v->info.rows > 1 ? v->info.rows - 1 : 1;
}

static void
info_close(struct ui_view *v, int64_t now)
{
	(void)now;
	v->info.on = false;
}

static void
info_up(struct ui_view *v, int64_t now)
{
	(void)now;
	sel_up(&v->info.sel);
}

static void
info_down(struct ui_view *v, int64_t now)
{
	(void)now;
	sel_down(&v->info.sel, info_n(v));
}

static void
info_page_up(struct ui_view *v, int64_t now)
{
	(void)now;
	sel_page_up(&v->info.sel, info_step(v));
}

static void
info_page_down(struct ui_view *v, int64_t now)
{
	(void)now;
	sel_page_down(&v->info.sel, info_n(v), info_step(v));
}

static void
info_first(struct ui_view *v, int64_t now)
{
	(void)now;
	v->info.sel = 0;
}

static void
info_last(struct ui_view *v, int64_t now)
{
	int	 n = info_n(v);

	(void)now;
	v->info.sel = n > 0 ? n - 1 : 0;
}

static void
info_rename(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_info_rename(v);
}

static void
info_add(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_info_add(v);
}

static void
info_remove(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_info_remove(v);
}

/* b: block or unblock the contact whose page it is. */
static void
info_block(struct ui_view *v, int64_t now)
{
	(void)now;
	if (v->info.contact)
		ui_view_contact_block(v);
	else
		ui_view_note(v, _("a group cannot be blocked"));
}

static const ui_view_act_fn info_acts[UI_ACT_COUNT] = {
	[UI_ACT_LIST] =		toggle_list,
	[UI_ACT_CANCEL] =	info_close,
	[UI_ACT_GROUP_INFO] =	info_close,
	[UI_ACT_SELECT_UP] =	info_up,
	[UI_ACT_SELECT_DOWN] =	info_down,
	[UI_ACT_PREV_PAGE] =	info_page_up,
	[UI_ACT_NEXT_PAGE] =	info_page_down,
	[UI_ACT_GROUP_LEAVE] =	group_leave,
	/* as on the chat screen */
	[UI_ACT_HELP] =		help_open,
	[UI_ACT_NEXT_CHAT] =	next_chat,
	[UI_ACT_PREV_CHAT] =	prev_chat,
	[UI_ACT_UNREAD_CHAT] =	unread_chat,
	[UI_ACT_NEW_CHAT] =	new_chat,
	[UI_ACT_GROUP_NEW] =	new_group,
	[UI_ACT_FIND] =		find,
	[UI_ACT_FIND_ALL] =	find_all,
};

/* Its letters and keys, whatever is bound to them. */
static const struct {
	int	 key;
	ui_view_act_fn	 fn;
} info_keys[] = {
	{ UI_VIEW_KEY_ESC,	 info_close },
	{ 'r',			 info_rename },
	{ 'a',			 info_add },
	{ 'd',			 info_remove },
	{ UI_KEY_FN + KEY_DC,	 info_remove },
	{ 'l',			 group_leave },
	{ 'b',			 info_block },
	{ UI_KEY_FN + KEY_HOME,	 info_first },
	{ UI_KEY_FN + KEY_END,	 info_last },
};

static bool
info_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	size_t	 i;

	(void)a;
	for (i = 0; i < sizeof(info_keys) / sizeof(info_keys[0]); i++)
		if (info_keys[i].key == k) {
			info_keys[i].fn(v, now);
			break;
		}
	return true;
}

/* ---- a group we left: nothing can be sent there (the input is off),
 * but a message can be selected ---- */

static bool
left_on(const struct ui_view *v)
{
	return ui_view_open_left(v);
}

/* Home and End (oldest, newest) with nothing typed: the pane's; with
 * text, the cursor's (the input line's editing keys).  True when taken. */
static bool
jump_key(struct ui_view *v, enum ui_key_action a)
{
	if ((a != UI_ACT_OLDEST && a != UI_ACT_NEWEST) ||
	    !ui_input_is_empty(&v->in))
		return false;
	ui_view_chat_jump(v, a == UI_ACT_NEWEST);
	return true;
}

static bool
left_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	(void)k;
	(void)now;
	if (a == UI_ACT_SELECT_UP || a == UI_ACT_CANCEL)
		return false;
	if (jump_key(v, a))
		return true;
	ui_view_note(v, _("you are no longer a member of this group"));
	return true;
}

/* ---- the input line: every key ---- */

static void
input_newline(struct ui_view *v, int64_t now)
{
	if (ui_input_insert(&v->in, "\n", 1) == 0)
		ui_view_chat_typing_edit(v, now);
}

/* Up with nothing typed selects the newest message. */
static void
input_select(struct ui_view *v, int64_t now)
{
	(void)now;
	if (ui_input_is_empty(&v->in) && v->msgs.n > 0)
		v->msgs.sel = (int)v->msgs.n - 1;
}

static void
input_cancel(struct ui_view *v, int64_t now)
{
	(void)now;
	/* nothing to cancel in the input line: out of the archived folder */
	if (v->chat.reply_id == NULL && v->chat.edit_id == NULL &&
	    v->chats.folder)
		ui_chats_folder(&v->chats, false);
	ui_view_chat_cancel(v);
}

static void
input_send(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_chat_send(v);
}

/* Copy and open-link with no message selected: they say to select one. */
static void
input_copy(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_links_copy(v);
}

static void
input_open_link(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_links_open(v);
}

/* The file keys with no message selected: they say to select one. */
static void
input_file(struct ui_view *v, int64_t now)
{
	(void)now;
	ui_view_media_get(v);
}

static const ui_view_act_fn input_acts[UI_ACT_COUNT] = {
	[UI_ACT_SELECT_UP] =	input_select,
	[UI_ACT_CANCEL] =	input_cancel,
	[UI_ACT_SEND] =		input_send,
	[UI_ACT_NEWLINE] =	input_newline,
	[UI_ACT_COPY] =		input_copy,	/* says to select first */
	[UI_ACT_OPEN_LINK] =	input_open_link, /* likewise */
	[UI_ACT_DOWNLOAD] =	input_file,	/* likewise */
	[UI_ACT_OPEN] =		input_file,
	[UI_ACT_SAVE_AS] =	input_file,
};

/* Enter sends (or is a newline: enter-sends = no), the rest edits. */
static bool
input_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	size_t	 len = v->in.len;

	if (jump_key(v, a))
		return true;
	if (is_enter(k)) {
		if (v->o.enter_sends)
			ui_view_chat_send(v);
		else
			input_newline(v, now);
	} else if (v->pasting && ui_view_keys_text(k)) {
		/* a long paste: no bell per character past the end */
		if (ui_input_insert_cp(&v->in, (uint32_t)k) == 0)
			ui_view_chat_typing_edit(v, now);
		else
			ui_view_note(v, _("the paste was cut at 65,536 bytes, "
			    "a message's most"));
	} else if (ui_view_keys_edit(&v->in, k) && v->in.len != len) {
		/* the text changed, not the cursor */
		ui_view_chat_typing_edit(v, now);
		v->mention.sel = 0;
	}
	if (v->mention.off > v->in.cur)	/* the "@" refused is gone */
		v->mention.off = 0;
	return true;
}

/* The rooms, in the order they are asked. */
/* The message info (ui/view-msginfo.c) takes every key. */
static bool
minfo_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	return ui_view_minfo_key(v, k, (int)a, now);
}

/* A view-once photo shown (ui/view-media.c) takes every key. */
static bool
once_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	return ui_view_media_once_key(v, k, (int)a, now);
}

static const struct room rooms[] = {
	{ search_on,	search_acts,	search_key },
	{ prompt_on,	NULL,		prompt_key },
	{ pick_on,	pick_acts,	pick_key },
	{ info_on,	info_acts,	info_key },
	{ ui_view_minfo_on, NULL,	minfo_key },
	{ ui_view_media_once_on, NULL,	once_key },
	{ mention_on,	mention_acts,	mention_key },
	{ NULL,		chat_acts,	NULL },
	{ ui_view_selected_on, ui_view_select_acts, ui_view_select_key },
	{ left_on,	NULL,		left_key },
	{ NULL,		input_acts,	input_key },
};

/* Whether room r took key k (action a). */
static bool
room_key(const struct room *r, struct ui_view *v, int k,
    enum ui_key_action a, int64_t now)
{
	if (r->acts != NULL && a > UI_ACT_NONE && a < UI_ACT_COUNT &&
	    r->acts[a] != NULL) {
		r->acts[a](v, now);
		return true;
	}
	return r->key != NULL && r->key(v, k, a, now);
}

/*
 * A key inside a bracketed paste: a newline is a newline of the message
 * (in the input line; nothing in a prompt or a search), a tab four
 * spaces, any other control character or Alt-key pasted nothing; true
 * when taken.  Text goes on as typed.
 */
static bool
paste_key(struct ui_view *v, int k, int64_t now)
{
	bool	 input = !v->help.on && !v->search.on && !v->info.on &&
		    !v->pick.on &&
		    v->prompt.kind == PROMPT_NONE && !ui_view_open_left(v) &&
		    v->msgs.sel < 0, cr = v->paste_cr;

	v->paste_cr = k == '\r';
	if (k == '\n' && cr)
		return true;		/* CR LF is one line break */
	if (is_enter(k)) {
		/* a prompt is one line: a space there */
		if (input && ui_input_insert(&v->in, "\n", 1) == 0)
			ui_view_chat_typing_edit(v, now);
		else if (!input && v->prompt.kind != PROMPT_NONE &&
		    ui_input_insert(&v->prompt.in, " ", 1) != 0)
			beep();
		return true;
	}
	if (k == '\t') {
		if (input && ui_input_insert(&v->in, "    ", 4) == 0)
			ui_view_chat_typing_edit(v, now);
		return true;
	}
	return k < 0x20 || k == 0x7f || k >= UI_KEY_ALT;
}

bool
ui_view_key(struct ui_view *v, int k, int64_t now)
{
	enum ui_key_action	 a = ui_keys_action(&v->o.keys, k);
	size_t			 i;

	if (k == UI_KEY_PASTE_BEGIN || k == UI_KEY_PASTE_END) {
		v->pasting = k == UI_KEY_PASTE_BEGIN;
		return false;
	}
	if (v->pasting && paste_key(v, k, now))
		return false;
	ui_view_note(v, NULL);
	if (v->help.on && help_key(v, k, a))
		return false;
	if (a == UI_ACT_QUIT) {
		ui_view_chat_typing_stop(v);
		return true;
	}
	if (a == UI_ACT_REJECT_CALL) {	/* in any room, as quit */
		ui_view_call_reject(v, now);
		return false;
	}
	for (i = 0; i < sizeof(rooms) / sizeof(rooms[0]); i++)
		if ((rooms[i].on == NULL || rooms[i].on(v)) &&
		    room_key(&rooms[i], v, k, a, now))
			break;
	return false;
}

bool
ui_view_is_quit_key(const struct ui_view *v, int k)
{
	return ui_keys_action(&v->o.keys, k) == UI_ACT_QUIT;
}
