/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-chat.c -- the open chat as we write in it (ui/view-int.h):
 * each chat's draft, our typing (CMD_TYPING), the reply or edit being
 * written and sending (CMD_SEND, CMD_EDIT), what is done to the selected
 * message (reply, edit, delete, resend, react), paging through the
 * history (CMD_LOAD_PAGE, CMD_HISTORY_MORE), and chats opened (the old
 * one left, the new one's page, presence or members asked for, marked
 * read: CMD_MARK_READ).  Of the view's files it calls only
 * ui/view-state.c.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/xmalloc.h"
#include "ui/view-int.h"

/* Alt-e on our selected message: its text in the input line, Enter
 * sends the new one.  WhatsApp takes edits for 15 minutes ([WM] allows
 * 20; the phone offers 15). */
#define EDIT_WINDOW_MS		(15 * 60 * 1000)
#define REVOKE_WINDOW_MS	(2 * 24 * 3600 * 1000LL)
#define BLANKS			" \t\r\n"

static void
drop_reply(struct ui_view *v)
{
	struct ui_view_chat	*c = &v->chat;

	free(c->reply_id);
	free(c->reply_sender);
	free(c->reply_text);
	c->reply_id = c->reply_sender = c->reply_text = NULL;
}

void
ui_view_chat_drop_reply(struct ui_view *v)
{
	drop_reply(v);
}

/* Stop editing: the input held the message's text. */
static void
drop_edit(struct ui_view *v)
{
	if (v->chat.edit_id == NULL)
		return;
	free(v->chat.edit_id);
	v->chat.edit_id = NULL;
	ui_input_clear(&v->in);
}

void
ui_view_chat_cancel(struct ui_view *v)
{
	drop_reply(v);
	drop_edit(v);
}

void
ui_view_chat_release(struct ui_view *v)
{
	struct ui_view_chat	*c = &v->chat;
	size_t			 i;

	drop_reply(v);
	for (i = 0; i < UI_VIEW_DRAFTS_MAX; i++) {
		free(c->drafts[i].chat);
		free(c->drafts[i].text);
	}
	free(c->edit_id);
	free(c->composing_chat);
	free(c->asked_chat);
	free(c->phone_empty);
	memset(c, 0, sizeof(*c));
}

/* The request for older history is over. */
static void
asked_done(struct ui_view *v)
{
	free(v->chat.asked_chat);
	v->chat.asked_chat = NULL;
	v->chat.asked_ms = 0;
	v->chat.asked_page = false;
}

/* ---- drafts ---- */

/* chat's draft slot, or NULL. */
static struct ui_view_draft *
draft_of(struct ui_view *v, const char *chat)
{
	size_t	 i;

	for (i = 0; i < UI_VIEW_DRAFTS_MAX; i++)
		if (v->chat.drafts[i].chat != NULL &&
		    strcmp(v->chat.drafts[i].chat, chat) == 0)
			return &v->chat.drafts[i];
	return NULL;
}

void
ui_view_chat_mark_drafts(struct ui_view *v)
{
	struct ui_view_draft	*d;
	size_t			 i;

	for (i = 0; i < v->chats.n; i++) {
		const char	*jid = v->chats.v[i].jid;

		/* the open chat's shows in its input line */
		d = v->msgs.chat != NULL && strcmp(jid, v->msgs.chat) == 0 ?
		    NULL : draft_of(v, jid);
		ui_chats_set_draft(&v->chats, jid, d != NULL ? d->text : NULL);
	}
}

/* CMD_DRAFT: chat's draft is text ("" none) in the store too. */
static void
draft_store(struct ui_view *v, const char *chat, const char *text)
{
	struct cmd	*c = cmd_new_chat(CMD_DRAFT, chat);

	ev_set(&c->u.draft.text, text);
	ui_view_push(v, c);
}

/* Drop slot d (in use), the later ones moving up. */
static void
draft_drop(struct ui_view *v, struct ui_view_draft *d)
{
	struct ui_view_draft	*dr = v->chat.drafts;

	free(d->chat);
	free(d->text);
	memmove(d, d + 1, (size_t)(dr + UI_VIEW_DRAFTS_MAX - d - 1) *
	    sizeof(*d));
	dr[UI_VIEW_DRAFTS_MAX - 1].chat = NULL;
	dr[UI_VIEW_DRAFTS_MAX - 1].text = NULL;
}

/* text (borrowed, not "") as chat's draft, the newest: after the slots
 * in use; when all are, the oldest goes, in the store too (what the list
 * marks is what comes back at the next start). */
static void
draft_add(struct ui_view *v, const char *chat, const char *text)
{
	struct ui_view_draft	*dr = v->chat.drafts, *d;

	if (dr[UI_VIEW_DRAFTS_MAX - 1].chat != NULL) {
		draft_store(v, dr[0].chat, "");
		draft_drop(v, &dr[0]);
	}
	for (d = dr; d->chat != NULL; d++)
		;
	d->chat = xstrdup(chat);
	d->text = xstrdup(text);
}

/* Keep what is typed in the input line as chat's draft (none when nothing
 * is), in memory and, when it changed, in the store (CMD_DRAFT).  The
 * slots in use come first, oldest first: a draft kept again moves to the
 * end. */
static void
draft_keep(struct ui_view *v, const char *chat)
{
	struct ui_view_draft	*d = draft_of(v, chat);
	const char		*text = ui_input_is_empty(&v->in) ? "" :
				    v->in.text;
	bool			 same = d != NULL ? strcmp(d->text, text) == 0 :
				    text[0] == '\0';

	if (d != NULL)
		draft_drop(v, d);
	if (text[0] != '\0')
		draft_add(v, chat, text);
	if (!same)
		draft_store(v, chat, text);
}

/* draft_keep(), and empty the line. */
static void
draft_put(struct ui_view *v, const char *chat)
{
	draft_keep(v, chat);
	ui_input_clear(&v->in);
}

void
ui_view_chat_drafts_load(struct ui_view *v, const struct ev_chats *ec)
{
	uint32_t	 i;

	if (v->chat.drafts_loaded)
		return;
	v->chat.drafts_loaded = true;
	for (i = 0; i < ec->nchats; i++) {
		const struct ev_chat	*e = &ec->chats[i];

		if (e->draft == NULL || e->draft[0] == '\0' ||
		    draft_of(v, e->jid) != NULL ||
		    strlen(e->draft) >= UI_INPUT_MAX)
			continue;
		if (v->chat.drafts[UI_VIEW_DRAFTS_MAX - 1].chat != NULL)
			break;		/* the newest chats' drafts kept */
		draft_add(v, e->jid, e->draft);
	}
}

void
ui_view_chat_keep_draft(struct ui_view *v)
{
	/* an edit's text is the message's, not a draft */
	if (v->msgs.chat != NULL && v->chat.edit_id == NULL)
		draft_keep(v, v->msgs.chat);
}

/* Put chat's draft, if it has one, back in the (empty) input line. */
static void
draft_take(struct ui_view *v, const char *chat)
{
	struct ui_view_draft	*d = draft_of(v, chat);

	if (d != NULL && ui_input_insert(&v->in, d->text, strlen(d->text)) !=
	    0)
		ui_input_clear(&v->in);
}

void
ui_view_chat_leave(struct ui_view *v, const char *jid)
{
	ui_view_chat_typing_stop(v);
	drop_reply(v);
	drop_edit(v);
	/* each chat keeps what was typed in it */
	if (v->msgs.chat != NULL) {
		draft_put(v, v->msgs.chat);
		draft_take(v, jid);
	} else if (ui_input_is_empty(&v->in))
		draft_take(v, jid);
}

/* ---- our typing ---- */

/* CMD_TYPING for chat: composing or stopped. */
static struct cmd *
typing_cmd(const char *chat, bool composing)
{
	struct cmd	*c = cmd_new_chat(CMD_TYPING, chat);

	c->u.typing.composing = composing;
	return c;
}

void
ui_view_chat_typing_stop(struct ui_view *v)
{
	struct ui_view_chat	*c = &v->chat;

	if (c->composing && c->composing_chat != NULL)
		ui_view_push(v, typing_cmd(c->composing_chat, false));
	c->composing = false;
	free(c->composing_chat);
	c->composing_chat = NULL;
}

void
ui_view_chat_typing_edit(struct ui_view *v, int64_t now)
{
	struct ui_view_chat	*c = &v->chat;
	const char		*chat = v->msgs.chat;

	c->edit_ms = now;
	if (!v->o.send_typing || chat == NULL)
		return;
	if (ui_input_is_empty(&v->in)) {
		ui_view_chat_typing_stop(v);
		return;
	}
	if (c->composing && now - c->composing_ms < UI_VIEW_TYPING_MS)
		return;
	c->composing = true;
	c->composing_ms = now;
	free(c->composing_chat);
	c->composing_chat = xstrdup(chat);
	ui_view_push(v, typing_cmd(chat, true));
}

void
ui_view_chat_tick(struct ui_view *v, int64_t now)
{
	struct ui_view_chat	*c = &v->chat;

	if (c->composing && now - c->edit_ms >= UI_VIEW_TYPING_MS)
		ui_view_chat_typing_stop(v);
	if (c->asked_chat == NULL || c->asked_page)
		return;
	if (c->asked_ms == 0)
		c->asked_ms = now;
	else if (now - c->asked_ms >= UI_VIEW_PHONE_MS) {
		asked_done(v);
		ui_view_note(v, _("your phone did not answer with older "
		    "messages; PgUp at the top asks again"));
	}
}

/* ---- sending ---- */

/*
 * As WhatsApp: no blank message, and no blank lines or spaces around one
 * (a paste's trailing newline, say): the input line trimmed.  Returns
 * false, with a note, when nothing is left.
 */
static bool
trim_input(struct ui_view *v)
{
	size_t	 a = strspn(v->in.text, BLANKS), e = v->in.len;
	char	*t;

	while (e > a && strchr(BLANKS, v->in.text[e - 1]) != NULL)
		e--;
	if (e == a) {
		ui_view_note(v, _("nothing to send: the message is blank"));
		return false;
	}
	if (a > 0 || e < v->in.len) {
		t = xstrdup(v->in.text);
		t[e] = '\0';
		ui_input_clear(&v->in);
		if (ui_input_insert(&v->in, t + a, e - a) != 0)
			ui_input_clear(&v->in);
		free(t);
	}
	return true;
}

/* The new text of our message being edited (protocol.md 11.5). */
static void
send_edit(struct ui_view *v)
{
	struct cmd	*c = cmd_new_chat(CMD_EDIT, v->msgs.chat);

	ev_set(&c->u.edit.id, v->chat.edit_id);
	ev_set(&c->u.edit.text, v->in.text);
	ui_view_push(v, c);
	drop_edit(v);
	ui_view_chat_typing_stop(v);
	v->msgs.sel = -1;
}

void
ui_view_chat_send(struct ui_view *v)
{
	struct ui_view_chat	*rc = &v->chat;
	const char		*chat = v->msgs.chat;
	struct cmd		*c;
	char			*text;

	if (chat == NULL || ui_input_is_empty(&v->in) || !trim_input(v))
		return;
	if (v->disk_full) {
		/* it could not be stored: it stays in the input */
		ui_view_note(v, _("not sent: disk full (the text stays here)"));
		return;
	}
	if (ui_view_blocked(v, chat)) {	/* the engine refuses it too */
		ui_view_note(v, _("not sent: you blocked this contact (Alt-g, "
		    "b unblocks; the text stays here)"));
		return;
	}
	if (rc->edit_id != NULL) {
		send_edit(v);
		return;
	}
	/* "@Name" of a member goes as a mention (@DIGITS) */
	text = ui_group_mentions_out(ui_view_open_group(v), v->in.text);
	c = cmd_new_chat(CMD_SEND, chat);
	free(c->u.send.text);
	c->u.send.text = text;
	/* a reply: the quoted id, its author ("" ours) and its text */
	ev_set(&c->u.send.quoted_id, rc->reply_id);
	ev_set(&c->u.send.quoted_sender, rc->reply_sender);
	ev_set(&c->u.send.quoted_text, rc->reply_text);
	ui_view_push(v, c);
	ui_input_clear(&v->in);
	/* what was the chat's draft is sent: gone from the store too */
	draft_keep(v, chat);
	drop_reply(v);
	ui_view_chat_typing_stop(v);
	v->msgs.scroll = 0;
	v->msgs.sel = -1;
	if (v->msgs.more_after) {
		/* The newest rows are not held: read them (the chat stays
		 * open: its group, its unread line). */
		ui_view_push(v, ui_msgs_newest(&v->msgs));
	}
}

/* Put text, and a space when the line holds more, at the start of the
 * input line.  Returns 0 or -E2BIG (the line unchanged). */
static int
input_prepend(struct ui_view *v, const char *text)
{
	size_t	 cur = v->in.cur, len = strlen(text);
	bool	 more = !ui_input_is_empty(&v->in);

	if (v->in.len + len + 1 > UI_INPUT_MAX)
		return -E2BIG;
	v->in.cur = 0;
	if (ui_input_insert(&v->in, text, len) != 0 ||
	    (more && ui_input_insert(&v->in, " ", 1) != 0))
		return -E2BIG;	/* not reached: the length was checked */
	v->in.cur = more ? cur + len + 1 : len;
	return 0;
}

void
ui_view_chat_unsent(struct ui_view *v, const char *chat, const char *text)
{
	char	*typed = NULL;
	bool	 open = v->msgs.chat != NULL && strcmp(v->msgs.chat, chat) == 0;

	if (chat[0] == '\0' || text[0] == '\0')
		return;
	if (!open) {
		/* chat's draft, taken into the line, joined, kept again;
		 * the line's own text put back after */
		typed = xstrdup(v->in.text);
		ui_input_clear(&v->in);
		draft_take(v, chat);
	}
	if (input_prepend(v, text) != 0)
		ui_view_note(v, _("not sent, and too long to put back"));
	else if (open)
		ui_view_note(v, _("not sent: the text is back in the input "
		    "line"));
	if (typed != NULL) {
		draft_put(v, chat);
		if (ui_input_insert(&v->in, typed, strlen(typed)) != 0)
			ui_input_clear(&v->in);
		free(typed);
	}
}

/* ---- the selected message ---- */

static struct ui_msg *
selected(struct ui_view *v)
{
	struct ui_msgs	*m = &v->msgs;

	return m->sel >= 0 && m->sel < (int)m->n ? &m->v[m->sel] : NULL;
}

void
ui_view_chat_reply(struct ui_view *v)
{
	struct ui_msg	*g = selected(v);
	struct buf	 b = BUF_INIT;

	if (g == NULL)
		return;
	drop_reply(v);
	drop_edit(v);
	v->chat.reply_id = xstrdup(g->id);
	/* The quoted author: NULL for ours, else who wrote it (the chat
	 * itself in a 1:1 chat). */
	if (!g->from_me)
		v->chat.reply_sender = xstrdup(g->sender[0] != '\0' ?
		    g->sender : v->msgs.chat);
	buf_append(&b, g->text, strcspn(g->text, "\n"));
	buf_push(&b, '\0');
	v->chat.reply_text = (char *)b.p;
	v->msgs.sel = -1;
}

/* Why our message g cannot be edited at now, or NULL when it can. */
static const char *
edit_refused(const struct ui_msg *g, int64_t now)
{
	if (g->deleted)
		return _("a deleted message cannot be edited");
	if (!g->from_me || g->notice)
		return _("only your own messages can be edited");
	if (g->tick == UI_TICK_QUEUED || g->tick == UI_TICK_FAILED)
		return _("a message can be edited once it is sent");
	if (now - g->ts_ms > EDIT_WINDOW_MS)
		return _("a message can be edited for 15 minutes after it was "
		    "sent");
	return NULL;
}

void
ui_view_chat_edit(struct ui_view *v, int64_t now)
{
	struct ui_msg	*g = selected(v);
	const char	*why;

	if (g == NULL)
		return;
	if ((why = edit_refused(g, now)) != NULL) {
		ui_view_note(v, why);
		return;
	}
	drop_reply(v);
	free(v->chat.edit_id);
	v->chat.edit_id = xstrdup(g->id);
	ui_input_clear(&v->in);
	if (ui_input_insert(&v->in, g->text, strlen(g->text)) != 0)
		ui_input_clear(&v->in);
	v->msgs.sel = -1;
}

/* Why our sent message g cannot be deleted for everyone at now, or NULL
 * when it can; "" when there is nothing to say (it is deleted already). */
static const char *
revoke_refused(const struct ui_msg *g, int64_t now)
{
	if (!g->from_me || g->notice)
		return _("only your own messages can be deleted");
	if (g->deleted)
		return "";
	if (g->tick == UI_TICK_QUEUED)
		return _("a message can be deleted for everyone once it is "
		    "sent");
	if (now - g->ts_ms > REVOKE_WINDOW_MS)
		return _("a message can be deleted for everyone for two days "
		    "after it was sent");
	return NULL;
}

/* The delete key on a selected message: a failed one of ours is dropped
 * here; a sent one is deleted for everyone, within two days, after a
 * question. */
void
ui_view_chat_delete(struct ui_view *v, int64_t now)
{
	struct ui_msg	*g = selected(v);
	struct cmd	*c;
	const char	*why;

	if (g == NULL)
		return;
	if (g->from_me && g->tick == UI_TICK_FAILED) {
		/* never sent: gone from here and from the database */
		c = cmd_new_chat(CMD_DELETE, v->msgs.chat);
		ev_set(&c->u.del.id, g->id);
		ui_view_push(v, c);
		ui_msgs_remove(&v->msgs, g->id);
		return;
	}
	if ((why = revoke_refused(g, now)) != NULL) {
		if (why[0] != '\0')
			ui_view_note(v, why);
		return;
	}
	v->msgs.sel = -1;
	ui_view_prompt_revoke(v, g->id);
}

void
ui_view_chat_retry(struct ui_view *v)
{
	struct ui_msg	*g = selected(v);
	struct cmd	*c;

	if (g == NULL)
		return;
	if (g->from_me && g->tick == UI_TICK_FAILED) {
		c = cmd_new_chat(CMD_RETRY, v->msgs.chat);
		ev_set(&c->u.retry.id, g->id);
		ui_view_push(v, c);
	} else
		ui_view_note(v, _("only a failed message can be sent again"));
}

void
ui_view_chat_react(struct ui_view *v)
{
	struct ui_msg	*g = selected(v);

	if (g != NULL)
		ui_view_prompt_react(v, g->id, g->from_me);
}

/* ---- paging ---- */

/*
 * Older rows of the open chat: the store's next page, or when the store
 * has none, the phone is asked for older history (CMD_HISTORY_MORE;
 * what it sends arrives as EV_HISTORY), one request in flight at a time,
 * and not again for a chat it had nothing older for.
 */
void
ui_view_chat_older(struct ui_view *v)
{
	struct ui_msgs		*m = &v->msgs;
	struct ui_view_chat	*rc = &v->chat;
	struct cmd		*c = ui_msgs_more(m, -1);

	if (c != NULL) {
		ui_view_push(v, c);
		return;
	}
	if (m->chat == NULL || m->more_before || m->loading != 0 ||
	    m->n == 0 || !v->connected)
		return;
	if (rc->phone_empty != NULL && strcmp(rc->phone_empty, m->chat) == 0)
		ui_view_note(v, _("no older messages on your phone"));
	else if (rc->asked_chat != NULL)
		ui_view_note(v, strcmp(rc->asked_chat, m->chat) == 0 ?
		    _("asking your phone for older messages…") :
		    _("your phone is asked about another chat; try again in "
		    "a moment"));
	else {
		rc->asked_chat = xstrdup(m->chat);
		rc->asked_ms = 0;
		rc->asked_page = false;
		ui_view_push(v, cmd_new_chat(CMD_HISTORY_MORE, m->chat));
		ui_view_note(v, _("asking your phone for older messages…"));
	}
}

void
ui_view_chat_history(struct ui_view *v, const struct ev *ev)
{
	struct ui_view_chat	*rc = &v->chat;

	if (ev->kind == EV_ERROR) {
		/* the request for the chat could not go: said, not awaited */
		if (rc->asked_chat != NULL && !rc->asked_page &&
		    strcmp(ev->u.error.chat, rc->asked_chat) == 0) {
			asked_done(v);
			ui_view_note(v, NULL);
		}
		return;
	}
	if (ev->u.history.step != EV_HISTORY_CHUNK)
		return;
	if (ev->u.history.stored > 0) {
		free(rc->phone_empty);	/* it may have more now */
		rc->phone_empty = NULL;
	}
	if (rc->asked_chat == NULL || rc->asked_page)
		return;
	if (!ui_view_is_open(v, rc->asked_chat)) {
		asked_done(v);	/* stored: read when that chat is paged */
		return;
	}
	rc->asked_page = true;
	v->msgs.more_before = true;
	ui_view_push(v, ui_msgs_more(&v->msgs, -1));
}

void
ui_view_chat_paged(struct ui_view *v, const struct ev *ev)
{
	struct ui_view_chat	*rc = &v->chat;
	const struct ev_page	*pg = &ev->u.page;

	if (!rc->asked_page || rc->asked_chat == NULL ||
	    pg->dir != EV_PAGE_BEFORE || strcmp(pg->chat, rc->asked_chat) != 0)
		return;
	if (pg->nmsgs == 0) {
		free(rc->phone_empty);
		rc->phone_empty = xstrdup(rc->asked_chat);
		ui_view_note(v, _("no older messages on your phone"));
	} else
		ui_view_note(v, NULL);	/* they show */
	asked_done(v);
}

void
ui_view_chat_page(struct ui_view *v, int dir)
{
	struct ui_msgs	*m = &v->msgs;

	ui_view_chat_scroll(v, dir, m->height > 2 ? m->height - 2 : 1);
}

void
ui_view_chat_scroll(struct ui_view *v, int dir, int step)
{
	struct ui_msgs	*m = &v->msgs;

	/* A page on from where the pane is: a selected message (a search
	 * hit opened) no longer holds the view in place. */
	m->sel = -1;
	if (dir < 0) {
		if (ui_msgs_at_top(m))
			ui_view_chat_older(v);
		else
			ui_msgs_scroll(m, step);
	} else {
		if (m->scroll == 0)
			ui_view_push(v, ui_msgs_more(m, 1));
		else
			ui_msgs_scroll(m, -step);
	}
}

void
ui_view_chat_jump(struct ui_view *v, bool end)
{
	struct ui_msgs	*m = &v->msgs;
	struct cmd	*c = end ? ui_msgs_newest(m) : ui_msgs_oldest(m);

	if (c != NULL)
		ui_view_push(v, c);
}

/* ---- chats opened ---- */

bool
ui_view_peeking(const struct ui_view *v, const struct ui_chat *ch)
{
	return ch != NULL && (ch->peek == 1 || (ch->peek == 0 && v->o.peek));
}

void
ui_view_chat_peek(struct ui_view *v)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	struct cmd	*c;
	bool		 on;

	if (ch == NULL || v->msgs.chat == NULL ||
	    strcmp(ch->jid, v->msgs.chat) != 0) {
		ui_view_note(v, _("open a chat first"));
		return;
	}
	on = !ui_view_peeking(v, ch);
	ch->peek = on ? 1 : 2;
	c = cmd_new_chat(CMD_PEEK, ch->jid);
	c->u.peek.on = on;
	ui_view_push(v, c);
	ui_view_note(v, on ? _("peek on: reading this chat sends no read "
	    "receipts and leaves it unread") : _("peek off: what is shown "
	    "here is read"));
	/* off: what is on the screen now is read after the dwell */
	if (!on && ch->unread > 0)
		v->read.pending = true;
}

/* The open chat read: its unread count gone, CMD_MARK_READ when read
 * receipts are on. */
void
ui_view_chat_mark_read(struct ui_view *v)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	if (v->msgs.chat == NULL)
		return;
	/* peeking: no receipt, the chat stays unread (and pending, so
	 * that it is read once peek is off and it is shown) */
	if (ui_view_peeking(v, ch))
		return;
	v->read.pending = false;
	if (ch != NULL)
		ch->unread = 0;
	if (v->o.read_receipts)
		ui_view_push(v, cmd_new_chat(CMD_MARK_READ, v->msgs.chat));
	/* a chat list asked for before this mark may count the chat unread
	 * when it comes (the store reads it before the mark): asked again
	 * after it, so that the count does not come back */
	if (v->chats_asked)
		v->chats_due = true;
	/* read here: read on the phone and the other companions too, as
	 * Alt-u's CMD_CHAT_ACT, once per opening (the mark goes once the
	 * server took it) */
	if (ch != NULL && ch->marked_unread && !v->read.unmarked &&
	    strcmp(ch->jid, v->msgs.chat) == 0) {
		struct cmd	*c = cmd_new_chat(CMD_CHAT_ACT, ch->jid);

		v->read.unmarked = true;
		c->u.chat_act.act = EV_ACT_MARK_READ;
		c->u.chat_act.last_ms = ch->last_ms;
		ui_view_push(v, c);
	}
}

/* Whether the open chat's messages are shown on a seen screen now. */
static bool
shown_seen(const struct ui_view *v)
{
	return v->msgs.chat != NULL && !v->read.unseen && !v->help.on &&
	    !v->info.on && !v->search.on && !v->pick.on;
}

void
ui_view_chat_read_tick(struct ui_view *v, int64_t now)
{
	if (v->read.below && !v->msgs.unseen) {
		v->read.below = false;	/* the bottom reached: shown */
		v->read.pending = true;
	}
	if (!shown_seen(v)) {
		v->read.since = 0;
		return;
	}
	if (v->read.since == 0)
		v->read.since = now;
	if (v->read.pending && now - v->read.since >= UI_VIEW_READ_MS)
		ui_view_chat_mark_read(v);
}

void
ui_view_chat_read_due(struct ui_view *v, int64_t now)
{
	v->read.pending = true;
	ui_view_chat_read_tick(v, now);
}

/* What the engine is asked for when chat ch opens: a group's members
 * (they name the senders; a group's presence is nobody's), else the
 * contact's presence. */
static void
opened(struct ui_view *v, const struct ui_chat *ch)
{
	struct ui_group	*g;

	if (!ch->group) {
		if (v->connected)
			ui_view_push(v, cmd_new_chat(CMD_SUBSCRIBE, ch->jid));
		return;
	}
	g = ui_groups_get(&v->groups, ch->jid);
	ui_msgs_set_group(&v->msgs, g);
	if (g != NULL && !g->known && v->connected)
		ui_view_push(v, cmd_new_chat(CMD_GROUP_INFO, ch->jid));
}

/* Show the selected chat when it is not the open one: its newest page,
 * or with rowid != 0 the page around that message (a search hit). */
static void
open_selected_at(struct ui_view *v, int64_t rowid)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	if (ch == NULL || (v->msgs.chat != NULL &&
	    strcmp(v->msgs.chat, ch->jid) == 0))
		return;
	ui_view_chat_leave(v, ch->jid);
	v->bar.typing = false;
	v->bar.online = -1;
	v->bar.last_seen_ms = 0;
	v->info.on = false;
	ui_view_push(v, rowid != 0 ? ui_msgs_open_at(&v->msgs, ch->jid,
	    rowid) : ui_msgs_open_unread(&v->msgs, ch->jid, ch->unread > 0 ?
	    (uint32_t)ch->unread : 0));
	opened(v, ch);
	/* read once shown, seen, for UI_VIEW_READ_MS (a chat passed
	 * through with Tab is not) */
	v->read.since = 0;
	v->read.pending = ch->unread > 0 || ch->marked_unread;
	v->read.below = false;
	v->read.unmarked = false;
}

void
ui_view_open_selected(struct ui_view *v)
{
	open_selected_at(v, 0);
}

void
ui_view_open_at(struct ui_view *v, const char *chat, int64_t rowid)
{
	if (!ui_chats_select(&v->chats, chat))
		ui_chats_open(&v->chats, chat);
	if (ui_view_is_open(v, chat)) {
		v->info.on = false;
		ui_view_push(v, ui_msgs_open_at(&v->msgs, chat, rowid));
	} else
		open_selected_at(v, rowid);
}
