/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/view.c -- the chat screen after linking (ui/view.h). */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>

#include "base/buf.h"
#include "ui/chats.h"
#include "ui/groups.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "ui/input.h"
#include "ui/msgs.h"
#include "base/sanitize.h"
#include "ui/search.h"
#include "ui/text.h"
#include "ui/view.h"
#include "base/xmalloc.h"

#define PAIR_READ	2	/* as ui/msgs.c */
#define KEY_ESC		0x1b
#define RELOAD_MS	1000	/* chat list reloads at most this often */
#define TYPING_SHOWN_MS	30000	/* "typing…" without news goes after */
#define INPUT_ROWS_MAX	5
#define PHONE_MIN	5
#define PHONE_MAX	20

/* The quick reactions, on keys 1 to 6 in the react prompt. */
static const char *const quick[] = {
	"\xf0\x9f\x91\x8d", "\xe2\x9d\xa4\xef\xb8\x8f", "\xf0\x9f\x98\x82",
	"\xf0\x9f\x98\xae", "\xf0\x9f\x98\xa2", "\xf0\x9f\x99\x8f",
};

#define DRAFTS_MAX	16	/* chats whose unsent text is kept */

enum prompt {
	PROMPT_NONE,
	PROMPT_NUMBER,		/* new chat: a phone number */
	PROMPT_REACT,		/* an emoji for the selected message */
	PROMPT_GROUP_SUBJECT,	/* new group: its subject */
	PROMPT_GROUP_MEMBERS,	/* new group: its members */
	PROMPT_RENAME,		/* the open group's new subject */
	PROMPT_ADD,		/* members to add to it */
	PROMPT_REMOVE,		/* members to remove from it */
	PROMPT_LEAVE,		/* leave it?  y or n */
	PROMPT_REVOKE,		/* delete our message for everyone?  y/n */
};

struct ui_view {
	bool		 phone_asked;	/* CMD_HISTORY_MORE went for the
					 * open chat */
	struct ui_view_opts o;
	ui_view_push_fn	 push;
	void		*arg;
	struct ui_chats	 chats;
	struct ui_msgs	 msgs;
	struct ui_input	 in;
	bool		 connected;
	/* The open chat's bar. */
	bool		 typing;
	int64_t		 typing_until;
	int		 online;	/* -1 unknown, 0, 1 */
	int64_t		 last_seen_ms;
	/* Our typing. */
	bool		 composing;
	int64_t		 composing_ms;	/* CMD_TYPING 1 sent at */
	int64_t		 edit_ms;	/* the last edit */
	char		*composing_chat;
	/* The reply being written. */
	char		*reply_id, *reply_sender, *reply_text;
	char		*edit_id;	/* our message being edited, or NULL */
	char		*revoke_id;	/* asked about in PROMPT_REVOKE */
	enum prompt	 prompt;
	struct ui_input	 pin;		/* the prompt's text */
	const char	*prompt_err;	/* static, translated, or NULL */
	char		*react_id;	/* the prompt's target */
	bool		 react_mine;
	bool		 help;
	int		 help_top, help_rows;	/* the key page's scroll */
	/* What was typed in chats left unsent: each chat keeps its draft
	 * (the newest DRAFTS_MAX; in memory only; chat NULL: a free one). */
	struct draft {
		char	*chat, *text;
	}		 drafts[DRAFTS_MAX];
	bool		 pasting;	/* between the bracketed-paste marks */
	bool		 paste_cr;	/* the paste's last key was a CR */
	/* Groups. */
	struct ui_groups groups;
	bool		 info;		/* the open group's info is shown */
	int		 info_sel;	/* its selected member */
	int		 info_top;	/* the first member drawn */
	int		 info_rows;	/* member rows last drawn */
	char		*new_subject;	/* a new group's, members asked */
	unsigned	 made_count;	/* the members asked for with it */
	char		*made_subject;	/* a group asked for: opened when
					 * its EV_GROUP comes */
	/* Chat list reloads. */
	bool		 chats_due;
	int64_t		 chats_ms;	/* last CMD_LOAD_CHATS */
	char		*note;		/* a passing line, sanitised */
	/* Search (ui/search.h). */
	struct ui_search search;
	bool		 search_info;	/* the group info was shown */
};

static void
push(struct ui_view *v, struct cmd *c)
{
	if (c != NULL)
		v->push(v->arg, c);
}

void
ui_view_opts_default(struct ui_view_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->enter_sends = o->read_receipts = o->send_typing = true;
	ui_keys_default(&o->keys);
}

struct ui_view *
ui_view_new(const struct ui_view_opts *o, ui_view_push_fn fn, void *arg)
{
	struct ui_view	*v = xcalloc(1, sizeof(*v));

	v->o = *o;
	v->push = fn;
	v->arg = arg;
	ui_chats_init(&v->chats);
	ui_msgs_init(&v->msgs);
	ui_input_init(&v->in);
	ui_input_init(&v->pin);
	ui_groups_init(&v->groups);
	ui_search_init(&v->search);
	v->online = -1;
	return v;
}

static void
drop_reply(struct ui_view *v)
{
	free(v->reply_id);
	free(v->reply_sender);
	free(v->reply_text);
	v->reply_id = v->reply_sender = v->reply_text = NULL;
}

/*
 * s as it fits in cols columns, into out[size]: whole characters as seen
 * (ui_text_fit()), ending in "…" when cut.  Returns out.
 */
#define NAME_COLS_MIN	8	/* a name cut shorter says nothing */

static const char *
shorten(const char *s, int cols, char *out, size_t size)
{
	size_t	 len = strlen(s), n;

	n = ui_text_fit(s, len, cols, NULL);
	if (n == len) {
		snprintf(out, size, "%s", s);
		return out;
	}
	n = ui_text_fit(s, len, cols > 1 ? cols - 1 : 0, NULL);
	snprintf(out, size, "%.*s\u2026", (int)n, s);
	return out;
}

/*
 * The sentence fmt (one %s) with name in it, into line[size], the name
 * cut short (shorten()) so that the whole sentence fits in cols columns
 * (names and quotes are long; what the sentence says after them, like
 * the keys that answer a question, must show).  Returns line.
 */
static const char *
with_name(char *line, size_t size, int cols, const char *fmt,
    const char *name)
{
	char	 nm[256];
	int	 rest;

	snprintf(line, size, fmt, "");
	rest = cols - ui_text_width(line, strlen(line));
	snprintf(line, size, fmt, shorten(name, rest > NAME_COLS_MIN ? rest :
	    NAME_COLS_MIN, nm, sizeof(nm)));
	return line;
}

/* Stop editing: the input held the message's text. */
static void
drop_edit(struct ui_view *v)
{
	if (v->edit_id == NULL)
		return;
	free(v->edit_id);
	v->edit_id = NULL;
	ui_input_clear(&v->in);
}

void
ui_view_free(struct ui_view *v)
{
	if (v == NULL)
		return;
	ui_chats_release(&v->chats);
	ui_msgs_release(&v->msgs);
	ui_input_release(&v->in);
	ui_input_release(&v->pin);
	drop_reply(v);
	for (size_t i = 0; i < DRAFTS_MAX; i++) {
		free(v->drafts[i].chat);
		free(v->drafts[i].text);
	}
	free(v->edit_id);
	free(v->revoke_id);
	free(v->react_id);
	free(v->composing_chat);
	free(v->note);
	free(v->new_subject);
	free(v->made_subject);
	ui_groups_release(&v->groups);
	ui_search_release(&v->search);
	free(v);
}

static void
set_note(struct ui_view *v, const char *text)
{
	struct buf	 b = BUF_INIT;

	free(v->note);
	v->note = NULL;
	if (text == NULL)
		return;
	wc_sanitize(text, strlen(text), false, &b);
	v->note = (char *)b.p;
}

/* Stop our typing (CMD_TYPING paused) where it was on. */
static void
typing_stop(struct ui_view *v)
{
	if (v->composing && v->composing_chat != NULL)
		push(v, cmd_new_chat(CMD_TYPING, v->composing_chat, NULL,
		    NULL, NULL, 0));
	v->composing = false;
	free(v->composing_chat);
	v->composing_chat = NULL;
}

/* The input changed: composing, at most every UI_VIEW_TYPING_MS. */
static void
typing_edit(struct ui_view *v, int64_t now)
{
	const char	*chat = v->msgs.chat;

	v->edit_ms = now;
	if (!v->o.send_typing || chat == NULL)
		return;
	if (ui_input_is_empty(&v->in)) {
		typing_stop(v);
		return;
	}
	if (v->composing && now - v->composing_ms < UI_VIEW_TYPING_MS)
		return;
	v->composing = true;
	v->composing_ms = now;
	free(v->composing_chat);
	v->composing_chat = xstrdup(chat);
	push(v, cmd_new_chat(CMD_TYPING, chat, NULL, NULL, NULL, 1));
}

/*
 * Older rows of the open chat: the store's next page, or when the store
 * has none, the phone is asked once for older history (CMD_HISTORY_MORE;
 * what it sends arrives as EV_HISTORY).
 */
static void
older(struct ui_view *v)
{
	struct ui_msgs	*m = &v->msgs;
	struct cmd	*c = ui_msgs_more(m, -1);

	if (c != NULL) {
		push(v, c);
		return;
	}
	if (m->chat == NULL || m->more_before || m->loading != 0 ||
	    m->n == 0 || v->phone_asked || !v->connected)
		return;
	v->phone_asked = true;
	push(v, cmd_new_chat(CMD_HISTORY_MORE, m->chat, NULL, NULL, NULL, 0));
	set_note(v, _("asking your phone for older messages…"));
}

static void
load_chats(struct ui_view *v, int64_t now)
{
	v->chats_due = false;
	v->chats_ms = now;
	push(v, cmd_new(CMD_LOAD_CHATS, NULL));
}

/* The chat list changed in the store: reload, at most once a second. */
static void
chats_changed(struct ui_view *v, int64_t now)
{
	if (!v->connected)
		return;
	if (now - v->chats_ms >= RELOAD_MS)
		load_chats(v, now);
	else
		v->chats_due = true;
}

static void
mark_read(struct ui_view *v)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	if (v->msgs.chat == NULL)
		return;
	if (ch != NULL)
		ch->unread = 0;
	if (v->o.read_receipts)
		push(v, cmd_new_chat(CMD_MARK_READ, v->msgs.chat, NULL, NULL,
		    NULL, 0));
}

static bool
is_open(const struct ui_view *v, const char *chat)
{
	return chat != NULL && v->msgs.chat != NULL &&
	    strcmp(chat, v->msgs.chat) == 0;
}

/* chat's draft slot, or NULL. */
static struct draft *
draft_of(struct ui_view *v, const char *chat)
{
	size_t	 i;

	for (i = 0; i < DRAFTS_MAX; i++)
		if (v->drafts[i].chat != NULL &&
		    strcmp(v->drafts[i].chat, chat) == 0)
			return &v->drafts[i];
	return NULL;
}

/* Keep what is typed in the input line as chat's draft (none when nothing
 * is), and empty the line.  The slots in use come first, oldest first:
 * a draft kept again moves to the end, and when all are in use the
 * oldest goes. */
static void
draft_put(struct ui_view *v, const char *chat)
{
	struct draft	*d = draft_of(v, chat);

	if (d != NULL) {
		free(d->chat);
		free(d->text);
		memmove(d, d + 1, (size_t)(v->drafts + DRAFTS_MAX - d - 1) *
		    sizeof(*d));
		v->drafts[DRAFTS_MAX - 1].chat = NULL;
		v->drafts[DRAFTS_MAX - 1].text = NULL;
	}
	if (!ui_input_is_empty(&v->in)) {
		d = &v->drafts[DRAFTS_MAX - 1];
		if (d->chat != NULL) {		/* full: the oldest goes */
			free(v->drafts[0].chat);
			free(v->drafts[0].text);
			memmove(&v->drafts[0], &v->drafts[1],
			    (DRAFTS_MAX - 1) * sizeof(*d));
			d->chat = d->text = NULL;
		}
		/* the newest last, after the slots in use */
		for (d = v->drafts; d->chat != NULL; d++)
			;
		d->chat = xstrdup(chat);
		d->text = xstrdup(v->in.text);
	}
	ui_input_clear(&v->in);
}

/* Put chat's draft, if it has one, back in the (empty) input line. */
static void
draft_take(struct ui_view *v, const char *chat)
{
	struct draft	*d = draft_of(v, chat);

	if (d != NULL && ui_input_insert(&v->in, d->text, strlen(d->text)) !=
	    0)
		ui_input_clear(&v->in);
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
	typing_stop(v);
	drop_reply(v);
	drop_edit(v);
	/* each chat keeps what was typed in it */
	if (v->msgs.chat != NULL) {
		draft_put(v, v->msgs.chat);
		draft_take(v, ch->jid);
	} else if (ui_input_is_empty(&v->in))
		draft_take(v, ch->jid);
	v->typing = false;
	v->online = -1;
	v->last_seen_ms = 0;
	v->info = false;
	v->phone_asked = false;
	push(v, rowid != 0 ? ui_msgs_open_at(&v->msgs, ch->jid, rowid) :
	    ui_msgs_open(&v->msgs, ch->jid));
	if (ch->group) {
		/* Its members name the senders; a group's presence is
		 * nobody's. */
		struct ui_group	*g = ui_groups_get(&v->groups, ch->jid);

		ui_msgs_set_group(&v->msgs, g);
		if (g != NULL && !g->known && v->connected)
			push(v, cmd_new_chat(CMD_GROUP_INFO, ch->jid, NULL,
			    NULL, NULL, 0));
	} else if (v->connected)
		push(v, cmd_new_chat(CMD_SUBSCRIBE, ch->jid, NULL, NULL, NULL,
		    0));
	if (ch->unread > 0)
		mark_read(v);
}

static void
open_selected(struct ui_view *v)
{
	open_selected_at(v, 0);
}

/* Open chat (selected in the list, added when the list lacks it) at the
 * message of rowid, in context. */
static void
open_at(struct ui_view *v, const char *chat, int64_t rowid)
{
	if (!ui_chats_select(&v->chats, chat))
		ui_chats_open(&v->chats, chat);
	if (is_open(v, chat)) {
		v->info = false;
		v->phone_asked = false;
		push(v, ui_msgs_open_at(&v->msgs, chat, rowid));
	} else
		open_selected_at(v, rowid);
}

/* The open chat's group, or NULL when it is not a group. */
static struct ui_group *
open_group(const struct ui_view *v)
{
	return ui_group_is_jid(v->msgs.chat) ?
	    ui_groups_find(&v->groups, v->msgs.chat) : NULL;
}

/* Whether the open chat is a group we are no longer a member of. */
static bool
open_left(const struct ui_view *v)
{
	const struct ui_group	*g = open_group(v);

	return g != NULL && g->left;
}

/* An EV_GROUP: the group's list row, its pane, its info; a group we
 * asked for opens when it comes. */
static void
group_changed(struct ui_view *v, const struct ev *ev)
{
	struct ui_group	*g = ui_groups_apply(&v->groups, ev);

	if (g == NULL)
		return;
	ui_chats_group(&v->chats, g);
	if (is_open(v, g->jid)) {
		ui_msgs_set_group(&v->msgs, g);
		if (v->info_sel >= (int)g->n)
			v->info_sel = g->n > 0 ? (int)g->n - 1 : 0;
	}
	if (v->made_subject != NULL && !g->left &&
	    strcmp(g->subject, v->made_subject) == 0 &&
	    ui_chats_find(&v->chats, g->jid) < 0) {
		free(v->made_subject);
		v->made_subject = NULL;
		ui_chats_open(&v->chats, g->jid);
		open_selected(v);
		set_note(v, NULL);	/* "making the group…" is done */
		if (g->n > 0 && g->n - 1 < v->made_count) {
			char	 line[160];

			snprintf(line, sizeof(line), _("only %u of %u "
			    "members could be added (not on WhatsApp?)"),
			    (unsigned)(g->n - 1), v->made_count);
			set_note(v, line);
		}
	}
}

void
ui_view_apply(struct ui_view *v, const struct ev *ev, int64_t now)
{
	struct cmd	*refresh = NULL;

	switch (ev->kind) {
	case EV_CONNECTED:
		v->connected = true;
		load_chats(v, now);
		if (v->msgs.chat != NULL && !ui_group_is_jid(v->msgs.chat))
			push(v, cmd_new_chat(CMD_SUBSCRIBE, v->msgs.chat,
			    NULL, NULL, NULL, 0));
		break;
	case EV_DISCONNECTED:
	case EV_LOGGED_OUT:
	case EV_STOPPED:
		v->connected = false;
		v->online = -1;
		v->typing = false;
		break;
	case EV_CHATS:
		ui_chats_set(&v->chats, ev, &v->groups);
		open_selected(v);
		break;
	case EV_PAGE:
		(void)ui_msgs_page(&v->msgs, ev);
		break;
	case EV_MESSAGE:
		ui_groups_note(&v->groups, ev);
		if (ui_msgs_apply(&v->msgs, ev, NULL) && !ev->from_me &&
		    !ev->notice)
			mark_read(v);
		if (is_open(v, ev->chat) && !ev->from_me)
			v->typing = false;
		chats_changed(v, now);
		break;
	case EV_SEND_FAILED:
		set_note(v, ev->text);
		(void)ui_msgs_apply(&v->msgs, ev, NULL);
		chats_changed(v, now);
		break;
	case EV_MSG_STATE:
	case EV_MSG_CHANGED:
		(void)ui_msgs_apply(&v->msgs, ev, NULL);
		chats_changed(v, now);
		break;
	case EV_REACTION:
		(void)ui_msgs_apply(&v->msgs, ev, &refresh);
		push(v, refresh);
		break;
	case EV_TYPING:
		if (is_open(v, ev->chat)) {
			v->typing = ev->state != 0;
			v->typing_until = now + TYPING_SHOWN_MS;
		}
		break;
	case EV_PRESENCE:
		if (is_open(v, ev->chat)) {
			v->online = ev->state != 0;
			if (ev->ts_ms != 0)
				v->last_seen_ms = ev->ts_ms;
		}
		break;
	case EV_CONNECTING:
	case EV_QR:
	case EV_PAIR_CODE:
	case EV_PAIRED:
	case EV_ERROR:
		/* The status line says it (ui/screen.c).  A group asked
		 * for and refused does not open later by its name. */
		free(v->made_subject);
		v->made_subject = NULL;
		/* A search hit that cannot be read: the newest page. */
		if (ev->kind == EV_ERROR && v->msgs.loading == 3 &&
		    v->msgs.chat != NULL) {
			char	*chat = xstrdup(v->msgs.chat);

			push(v, ui_msgs_open(&v->msgs, chat));
			free(chat);
		}
		break;
	case EV_GROUP:
		group_changed(v, ev);
		break;
	case EV_SEARCH:
		(void)ui_search_take(&v->search, ev, &v->chats, &v->groups);
		break;
	case EV_HISTORY:
		/* imported chats and messages: the list shows them; older
		 * rows the phone was asked for: the pane takes them */
		if (ev->state == 0) {
			chats_changed(v, now);
			if (v->phone_asked && v->msgs.chat != NULL) {
				v->phone_asked = false;
				v->msgs.more_before = true;
				push(v, ui_msgs_more(&v->msgs, -1));
			}
		}
		break;
	}
}

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
	s->asked = xstrdup(c->arg);
	s->answered = false;
	s->sent_ms = now;
	push(v, c);
}

/* The search prompt changed: parsed again, and searched at once when the
 * last search went UI_SEARCH_DEBOUNCE_MS ago, else on a tick after. */
static void
search_edit(struct ui_view *v, int64_t now)
{
	struct ui_search	*s = &v->search;

	ui_search_parse(s->q.text, &v->chats, &v->groups, &s->qy);
	s->due = true;
	if (now - s->sent_ms >= UI_SEARCH_DEBOUNCE_MS)
		search_send(v, now);
}

void
ui_view_tick(struct ui_view *v, int64_t now)
{
	if (v->chats_due && now - v->chats_ms >= RELOAD_MS)
		load_chats(v, now);
	if (v->composing && now - v->edit_ms >= UI_VIEW_TYPING_MS)
		typing_stop(v);
	if (v->typing && now >= v->typing_until)
		v->typing = false;
	if (v->search.on && v->search.due &&
	    now - v->search.sent_ms >= UI_SEARCH_DEBOUNCE_MS)
		search_send(v, now);
}

static void
send_input(struct ui_view *v, int64_t now)
{
	const char	*chat = v->msgs.chat;
	struct cmd	*c;

	(void)now;
	if (chat == NULL || ui_input_is_empty(&v->in))
		return;
	/* as WhatsApp: no blank message, and no blank lines or spaces
	 * around one (a paste's trailing newline, say) */
	{
		size_t	 a = strspn(v->in.text, " \t\r\n"), e = v->in.len;

		while (e > a && strchr(" \t\r\n", v->in.text[e - 1]) != NULL)
			e--;
		if (e == a) {
			set_note(v, _("nothing to send: the message is blank"));
			return;
		}
		if (a > 0 || e < v->in.len) {
			char	*t = xstrdup(v->in.text);

			t[e] = '\0';
			ui_input_clear(&v->in);
			if (ui_input_insert(&v->in, t + a, e - a) != 0)
				ui_input_clear(&v->in);
			free(t);
		}
	}
	if (v->edit_id != NULL) {
		/* the new text of our message (protocol.md 11.5) */
		push(v, cmd_new_chat(CMD_EDIT, chat, v->edit_id, v->in.text,
		    NULL, 0));
		drop_edit(v);
		typing_stop(v);
		v->msgs.sel = -1;
		return;
	}
	{
		/* "@Name" of a member goes as a mention (@DIGITS) */
		char	*text = ui_group_mentions_out(open_group(v),
			    v->in.text);

		c = cmd_new_chat(CMD_SEND, chat, v->reply_id, text,
		    v->reply_sender, 0);
		free(text);
	}
	if (v->reply_text != NULL)
		c->quoted = xstrdup(v->reply_text);
	push(v, c);
	ui_input_clear(&v->in);
	drop_reply(v);
	typing_stop(v);
	v->msgs.scroll = 0;
	v->msgs.sel = -1;
	if (v->msgs.more_after) {
		/* The newest rows are not held: read them. */
		v->phone_asked = false;
		push(v, ui_msgs_open(&v->msgs, chat));
	}
}

static void
start_reply(struct ui_view *v)
{
	struct ui_msg	*g;
	struct buf	 b = BUF_INIT;

	if (v->msgs.sel < 0 || v->msgs.sel >= (int)v->msgs.n)
		return;
	g = &v->msgs.v[v->msgs.sel];
	drop_reply(v);
	drop_edit(v);
	v->reply_id = xstrdup(g->id);
	/* The quoted author: NULL for ours, else who wrote it (the chat
	 * itself in a 1:1 chat). */
	if (!g->from_me)
		v->reply_sender = xstrdup(g->sender[0] != '\0' ? g->sender :
		    v->msgs.chat);
	buf_append(&b, g->text, strcspn(g->text, "\n"));
	buf_push(&b, '\0');
	v->reply_text = (char *)b.p;
	v->msgs.sel = -1;
}

/* Alt-e on our selected message: its text in the input line, Enter
 * sends the new one.  WhatsApp takes edits for 15 minutes ([WM] allows
 * 20; the phone offers 15). */
#define EDIT_WINDOW_MS		(15 * 60 * 1000)
#define REVOKE_WINDOW_MS	(2 * 24 * 3600 * 1000LL)

static void
start_edit(struct ui_view *v, const struct ui_msg *g, int64_t now)
{
	if (g->deleted) {
		set_note(v, _("a deleted message cannot be edited"));
		return;
	}
	if (!g->from_me || g->notice) {
		set_note(v, _("only your own messages can be edited"));
		return;
	}
	if (g->tick == UI_TICK_QUEUED || g->tick == UI_TICK_FAILED) {
		set_note(v, _("a message can be edited once it is sent"));
		return;
	}
	if (now - g->ts_ms > EDIT_WINDOW_MS) {
		set_note(v, _("a message can be edited for 15 minutes after "
		    "it was sent"));
		return;
	}
	drop_reply(v);
	free(v->edit_id);
	v->edit_id = xstrdup(g->id);
	ui_input_clear(&v->in);
	if (ui_input_insert(&v->in, g->text, strlen(g->text)) != 0)
		ui_input_clear(&v->in);
	v->msgs.sel = -1;
}

static void	start_prompt(struct ui_view *v, enum prompt p);

/* The delete key on a selected message: a failed one of ours is dropped
 * here; a sent one is deleted for everyone, within two days, after a
 * question. */
static void
start_delete(struct ui_view *v, const struct ui_msg *g, int64_t now)
{
	if (g->from_me && g->tick == UI_TICK_FAILED) {
		/* never sent: gone from here and from the database */
		push(v, cmd_new_chat(CMD_DELETE, v->msgs.chat, g->id, NULL,
		    NULL, 0));
		ui_msgs_remove(&v->msgs, g->id);
		return;
	}
	if (!g->from_me || g->notice) {
		set_note(v, _("only your own messages can be deleted"));
		return;
	}
	if (g->deleted)
		return;
	if (g->tick == UI_TICK_QUEUED) {
		set_note(v, _("a message can be deleted for everyone once it "
		    "is sent"));
		return;
	}
	if (now - g->ts_ms > REVOKE_WINDOW_MS) {
		set_note(v, _("a message can be deleted for everyone for two "
		    "days after it was sent"));
		return;
	}
	free(v->revoke_id);
	v->revoke_id = xstrdup(g->id);
	v->msgs.sel = -1;
	start_prompt(v, PROMPT_REVOKE);
}

static void
start_prompt(struct ui_view *v, enum prompt p)
{
	v->prompt = p;
	v->prompt_err = NULL;
	ui_input_clear(&v->pin);
}

/*
 * Whether s is one emoji, as WhatsApp takes a reaction: a single
 * character as seen (a grapheme cluster: with its skin tone, joined
 * people, a flag's two letters, a keycap), starting with a pictograph or
 * symbol (U+2000 on, past the letters of every script in the BMP but
 * CJK's own symbols) or, for a keycap, a digit, # or * with U+20E3.
 */
static bool
one_emoji(const char *s)
{
	size_t		 len = strlen(s), n;
	uint32_t	 cp = 0;
	int		 cols;

	if (len == 0 || (n = ui_text_next(s, len, &cols)) != len)
		return false;
	(void)ui_text_decode(s, len, &cp);
	if (cp >= 0x1f000 || (cp >= 0x2000 && cp < 0x3000) ||
	    (cp >= 0x3030 && cp <= 0x303d) || cp == 0x3297 || cp == 0x3299)
		return true;
	return (cp == '#' || cp == '*' || (cp >= '0' && cp <= '9')) &&
	    strstr(s, "\xe2\x83\xa3") != NULL;	/* U+20E3 */
}

static void
react(struct ui_view *v, const char *emoji)
{
	if (v->react_id != NULL && v->msgs.chat != NULL)
		push(v, cmd_new_chat(CMD_REACT, v->msgs.chat, v->react_id,
		    emoji, NULL, v->react_mine));
	free(v->react_id);
	v->react_id = NULL;
	v->prompt = PROMPT_NONE;
}

/* Enter in the phone-number prompt: digits of a number with its country
 * code, as the pairing prompt takes them. */
static void
take_number(struct ui_view *v)
{
	char	 num[PHONE_MAX], jid[JID_MAX];
	size_t	 i, n = 0;

	for (i = 0; i < v->pin.len; i++) {
		char	 c = v->pin.text[i];

		if (c >= '0' && c <= '9') {
			if (n >= PHONE_MAX)
				break;
			num[n++] = c;
		} else if (strchr(" -()+", c) == NULL)
			break;
	}
	if (i < v->pin.len || n < PHONE_MIN || num[0] == '0' ||
	    !jid_from_phone(num, n, jid, sizeof(jid))) {
		v->prompt_err = _("a phone number has 5 to 20 digits, "
		    "country code first");
		return;
	}
	v->prompt = PROMPT_NONE;
	ui_chats_open(&v->chats, jid);
	open_selected(v);
}

static bool
is_text_key(int k)
{
	return k >= 0x20 && k != 0x7f && k < UI_KEY_FN &&
	    !(k >= 0x80 && k < 0xa0);
}

/* Editing keys common to the input line and prompts; true if taken. */
static bool
edit_key(struct ui_input *in, int k)
{
	switch (k) {
	case UI_KEY_FN + KEY_LEFT:	ui_input_left(in); return true;
	case UI_KEY_FN + KEY_RIGHT:	ui_input_right(in); return true;
	case UI_KEY_FN + KEY_HOME:
	case 0x01:			ui_input_home(in); return true;
	case UI_KEY_FN + KEY_END:
	case 0x05:			ui_input_end(in); return true;
	case UI_KEY_FN + KEY_BACKSPACE:
	case 0x7f:
	case 0x08:			ui_input_backspace(in); return true;
	case UI_KEY_FN + KEY_DC:	ui_input_delete(in); return true;
	case 0x0b:			ui_input_kill_end(in); return true;
	case 0x15:			ui_input_kill_start(in); return true;
	}
	if (is_text_key(k)) {
		if (ui_input_insert_cp(in, (uint32_t)k) != 0)
			beep();
		return true;
	}
	return false;
}

/*
 * Members typed in a prompt: phone numbers with their country code (as
 * the new-chat prompt takes them: 5 to 20 digits; spaces, '-', '(', ')'
 * and '+' ignored) or user JIDs (digits "@s.whatsapp.net" or "@lid"),
 * separated by commas or semicolons.  Appends them to out as JIDs joined
 * by commas, with a NUL, and returns true; false for anything else.
 */
static bool
parse_members(const char *text, struct buf *out)
{
	const char	*p = text, *end, *at;
	char		 jid[JID_MAX], num[PHONE_MAX];
	size_t		 n, d, i;

	for (; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, ",;");
		while (p < end && *p == ' ')
			p++;
		n = (size_t)(end - p);
		while (n > 0 && p[n - 1] == ' ')
			n--;
		if (n == 0)
			continue;
		if (out->len > 0)
			buf_push(out, ',');
		at = memchr(p, '@', n);
		if (at != NULL) {
			/* digits, then a PN or LID server and nothing else
			 * (the JID as typed, a device or agent refused) */
			d = (size_t)(at - p);
			if (d == 0 || d > PHONE_MAX + 12 ||
			    strspn(p, "0123456789") != d || n >= sizeof(jid))
				return false;
			memcpy(jid, p, n);
			jid[n] = '\0';
			if (!jid_is_pn(jid) && !jid_is_lid(jid))
				return false;
			buf_append(out, p, n);
			continue;
		}
		for (d = i = 0; i < n; i++) {
			if (p[i] >= '0' && p[i] <= '9') {
				if (d == 0 && p[i] == '0')
					return false;
				if (d < sizeof(num))
					num[d] = p[i];
				d++;
			} else if (strchr(" -()+", p[i]) == NULL)
				return false;
		}
		if (d < PHONE_MIN || d > PHONE_MAX ||
		    !jid_from_phone(num, d, jid, sizeof(jid)))
			return false;
		buf_append(out, jid, strlen(jid));
	}
	buf_push(out, '\0');
	return true;
}

static const char *
members_err(void)
{
	return _("members are phone numbers with their country code or "
	    "JIDs, separated by commas");
}

/* Enter in a group prompt. */
static void
take_group(struct ui_view *v)
{
	struct buf	 b = BUF_INIT;
	const char	*chat = v->msgs.chat;
	const char	*t = v->pin.text;
	enum prompt	 p = v->prompt;

	switch (p) {
	case PROMPT_GROUP_SUBJECT:
		if (ui_input_is_empty(&v->pin) || t[strspn(t, " ")] == '\0') {
			v->prompt_err = _("a group needs a name");
			return;
		}
		free(v->new_subject);
		v->new_subject = xstrdup(t);
		start_prompt(v, PROMPT_GROUP_MEMBERS);
		return;
	case PROMPT_GROUP_MEMBERS:
	case PROMPT_ADD:
	case PROMPT_REMOVE:
		if (!parse_members(t, &b) || (p != PROMPT_GROUP_MEMBERS &&
		    b.len <= 1)) {
			buf_release(&b);
			v->prompt_err = members_err();
			return;
		}
		if (p == PROMPT_GROUP_MEMBERS) {
			push(v, cmd_new_chat(CMD_GROUP_CREATE, NULL, NULL,
			    v->new_subject, (char *)b.p, 0));
			free(v->made_subject);
			v->made_subject = v->new_subject;
			v->new_subject = NULL;
			v->made_count = 0;
			for (size_t i = 0; i < b.len && b.p[i] != '\0'; i++)
				v->made_count += i == 0 || b.p[i] == ',';
			set_note(v, _("making the group…"));
		} else if (chat != NULL)
			push(v, cmd_new_chat(p == PROMPT_ADD ? CMD_GROUP_ADD :
			    CMD_GROUP_REMOVE, chat, NULL, (char *)b.p, NULL,
			    0));
		buf_release(&b);
		break;
	case PROMPT_RENAME:
		if (ui_input_is_empty(&v->pin) || t[strspn(t, " ")] == '\0') {
			v->prompt_err = _("a group needs a name");
			return;
		}
		if (chat != NULL)
			push(v, cmd_new_chat(CMD_GROUP_SUBJECT, chat, NULL, t,
			    NULL, 0));
		break;
	case PROMPT_NONE:
	case PROMPT_NUMBER:
	case PROMPT_REACT:
	case PROMPT_LEAVE:
	case PROMPT_REVOKE:
		return;
	}
	v->prompt = PROMPT_NONE;
}

/* The answer k gives to a y/n question: 1 yes (y, or German j), 0 no,
 * -1 neither (the question stays). */
static int
yes_no(int k)
{
	if (k == 'y' || k == 'Y' || k == 'j' || k == 'J')
		return 1;
	return k == 'n' || k == 'N' ? 0 : -1;
}

/* y or n to deleting our message for everyone. */
static void
revoke_key(struct ui_view *v, int k)
{
	int	 yes = yes_no(k);

	if (yes < 0)
		return;
	if (yes == 1 && v->msgs.chat != NULL && v->revoke_id != NULL)
		push(v, cmd_new_chat(CMD_REVOKE, v->msgs.chat, v->revoke_id,
		    NULL, NULL, 0));
	free(v->revoke_id);
	v->revoke_id = NULL;
	v->prompt = PROMPT_NONE;
}

/* y or n to leaving the open group. */
static void
leave_key(struct ui_view *v, int k)
{
	int	 yes = yes_no(k);

	if (yes == 1 && v->msgs.chat != NULL)
		push(v, cmd_new_chat(CMD_GROUP_LEAVE, v->msgs.chat, NULL, NULL,
		    NULL, 0));
	if (yes >= 0)
		v->prompt = PROMPT_NONE;
}

static void
prompt_key(struct ui_view *v, int k, enum ui_key_action a)
{
	if (a == UI_ACT_CANCEL || k == KEY_ESC) {
		if (v->prompt == PROMPT_GROUP_MEMBERS) {
			free(v->new_subject);
			v->new_subject = NULL;
		}
		v->prompt = PROMPT_NONE;
		return;
	}
	if (v->prompt == PROMPT_LEAVE) {
		leave_key(v, k);
		return;
	}
	if (v->prompt == PROMPT_REVOKE) {
		revoke_key(v, k);
		return;
	}
	if (k == '\r' || k == '\n' || k == UI_KEY_FN + KEY_ENTER) {
		if (v->prompt == PROMPT_NUMBER)
			take_number(v);
		else if (v->prompt != PROMPT_REACT)
			take_group(v);
		else if (one_emoji(v->pin.text))
			react(v, v->pin.text);
		else if (!ui_input_is_empty(&v->pin))
			v->prompt_err = _("a reaction is one emoji: 1 to 6, "
			    "0 removes yours, or type one and Enter");
		return;
	}
	if (v->prompt == PROMPT_REACT && ui_input_is_empty(&v->pin) &&
	    k >= '0' && k <= '6') {
		react(v, k == '0' ? "" : quick[k - '1']);
		return;
	}
	v->prompt_err = NULL;
	(void)edit_key(&v->pin, k);
}

/* Keys with a message selected; true when taken. */
static bool
select_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	struct ui_msgs	*m = &v->msgs;
	struct ui_msg	*g;

	if (m->sel < 0 || m->sel >= (int)m->n)
		return false;
	g = &m->v[m->sel];
	switch (a) {
	case UI_ACT_SELECT_UP:
		if (m->sel > 0)
			m->sel--;
		else
			older(v);
		return true;
	case UI_ACT_SELECT_DOWN:
		if (m->sel + 1 < (int)m->n)
			m->sel++;
		else
			m->sel = -1;
		return true;
	case UI_ACT_REPLY:
	case UI_ACT_SEND:
		start_reply(v);
		return true;
	case UI_ACT_REACT:
		free(v->react_id);
		v->react_id = xstrdup(g->id);
		v->react_mine = g->from_me;
		start_prompt(v, PROMPT_REACT);
		return true;
	case UI_ACT_RETRY:
		if (g->from_me && g->tick == UI_TICK_FAILED)
			push(v, cmd_new_chat(CMD_RETRY, m->chat, g->id, NULL,
			    NULL, 0));
		else
			set_note(v, _("only a failed message can be sent "
			    "again"));
		return true;
	case UI_ACT_DELETE:
		start_delete(v, g, now);
		return true;
	case UI_ACT_EDIT:
		start_edit(v, g, now);
		return true;
	case UI_ACT_CANCEL:
		m->sel = -1;
		return true;
	default:
		break;
	}
	if (k == '\r' || k == '\n') {
		start_reply(v);
		return true;
	}
	/* Anything else is for the input line. */
	m->sel = -1;
	return false;
}

/* Open the prompt p with text in it (the cursor at its end). */
static void
start_prompt_with(struct ui_view *v, enum prompt p, const char *text)
{
	start_prompt(v, p);
	if (ui_input_insert(&v->pin, text, strlen(text)) != 0)
		ui_input_clear(&v->pin);
}

/* The open group when it is one we are in, else NULL and a note why. */
static struct ui_group *
group_to_change(struct ui_view *v)
{
	struct ui_group	*g = open_group(v);

	if (g == NULL)
		set_note(v, _("the open chat is not a group"));
	else if (g->left) {
		set_note(v, _("you are no longer a member of this group"));
		return NULL;
	}
	return g;
}

/* Whether we may add and remove members of g: an admin, or not known
 * yet (the server decides then). */
static bool
may_manage(const struct ui_group *g)
{
	const struct ui_member	*me = ui_group_me(g);

	return me == NULL || me->role != UI_GROUP_MEMBER;
}

/* The open group, for adding or removing members: NULL (with a note) when
 * it cannot be changed or we are not one of its admins. */
static struct ui_group *
group_to_manage(struct ui_view *v)
{
	struct ui_group	*g = group_to_change(v);

	if (g != NULL && !may_manage(g)) {
		set_note(v, _("only the group's admins add or remove members"));
		return NULL;
	}
	return g;
}

static void
info_open(struct ui_view *v)
{
	if (open_group(v) == NULL) {
		set_note(v, _("the open chat is not a group"));
		return;
	}
	v->info = true;
	v->info_sel = 0;
	v->info_top = 0;
	v->msgs.sel = -1;
	push(v, cmd_new_chat(CMD_GROUP_INFO, v->msgs.chat, NULL, NULL, NULL,
	    0));
}

static void
leave_ask(struct ui_view *v)
{
	if (group_to_change(v) != NULL)
		start_prompt(v, PROMPT_LEAVE);
}

/* Remove: the selected member (not us) in the prompt, to change or take. */
static void
remove_ask(struct ui_view *v)
{
	struct ui_group		*g = group_to_manage(v);
	const struct ui_member	*m;
	struct buf		 b = BUF_INIT;

	if (g == NULL)
		return;
	if (v->info_sel >= 0 && v->info_sel < (int)g->n &&
	    !(m = &g->v[v->info_sel])->is_me) {
		ui_group_name(NULL, m->jid, NULL, &b);
		if (b.p[0] != '+') {	/* not a number: the JID itself */
			b.len = 0;
			buf_append(&b, m->jid, strlen(m->jid) + 1);
		}
	} else
		buf_push(&b, '\0');
	start_prompt_with(v, PROMPT_REMOVE, (char *)b.p);
	buf_release(&b);
}

/* Keys while the group's info is shown; true when taken (every key but
 * those that leave it for another chat, a prompt or quit). */
static bool
info_key(struct ui_view *v, int k, enum ui_key_action a)
{
	struct ui_group	*g = open_group(v);
	int		 n = g != NULL ? (int)g->n : 0;
	int		 step = v->info_rows > 1 ? v->info_rows - 1 : 1;

	switch (a) {
	case UI_ACT_CANCEL:
	case UI_ACT_GROUP_INFO:
		v->info = false;
		return true;
	case UI_ACT_SELECT_UP:
		if (v->info_sel > 0)
			v->info_sel--;
		return true;
	case UI_ACT_SELECT_DOWN:
		if (v->info_sel + 1 < n)
			v->info_sel++;
		return true;
	case UI_ACT_PREV_PAGE:
		v->info_sel = v->info_sel > step ? v->info_sel - step : 0;
		return true;
	case UI_ACT_NEXT_PAGE:
		v->info_sel = v->info_sel + step < n ? v->info_sel + step :
		    (n > 0 ? n - 1 : 0);
		return true;
	case UI_ACT_GROUP_LEAVE:
		leave_ask(v);
		return true;
	case UI_ACT_QUIT:
	case UI_ACT_HELP:
	case UI_ACT_NEXT_CHAT:
	case UI_ACT_PREV_CHAT:
	case UI_ACT_UNREAD_CHAT:
	case UI_ACT_NEW_CHAT:
	case UI_ACT_GROUP_NEW:
		return false;
	default:
		break;
	}
	if (k == KEY_ESC) {
		v->info = false;
	} else if (k == 'r') {
		if ((g = group_to_change(v)) != NULL)
			start_prompt_with(v, PROMPT_RENAME, g->subject);
	} else if (k == 'a') {
		if (group_to_manage(v) != NULL)
			start_prompt(v, PROMPT_ADD);
	} else if (k == 'd' || k == UI_KEY_FN + KEY_DC)
		remove_ask(v);
	else if (k == 'l')
		leave_ask(v);
	else if (k == UI_KEY_FN + KEY_HOME)
		v->info_sel = 0;
	else if (k == UI_KEY_FN + KEY_END)
		v->info_sel = n > 0 ? n - 1 : 0;
	return true;
}

static void
page(struct ui_view *v, int dir)
{
	struct ui_msgs	*m = &v->msgs;
	int		 step = m->height > 2 ? m->height - 2 : 1;

	if (dir < 0) {
		if (ui_msgs_at_top(m))
			older(v);
		else
			ui_msgs_scroll(m, step);
	} else {
		if (m->scroll == 0)
			push(v, ui_msgs_more(m, 1));
		else
			ui_msgs_scroll(m, -step);
	}
}

/* Open the search: in the open chat, or (global, or no chat open) in
 * all.  Open already: the other scope, the query kept. */
static void
search_open(struct ui_view *v, bool global, int64_t now)
{
	struct ui_search	*s = &v->search;

	if (v->msgs.chat == NULL)
		global = true;
	if (!s->on) {
		ui_input_clear(&s->q);
		ui_search_clear(s);
		ui_search_query_release(&s->qy);
		v->search_info = v->info;
	}
	s->on = true;
	s->global = global;
	free(s->scope);
	s->scope = global ? NULL : xstrdup(v->msgs.chat);
	v->prompt = PROMPT_NONE;
	v->info = false;
	s->sent_ms = 0;
	search_edit(v, now);
}

static void
search_close(struct ui_view *v)
{
	v->search.on = false;
	ui_search_clear(&v->search);
	v->info = v->search_info && open_group(v) != NULL;
}

/* Keys while the search is shown: every key but quit. */
static void
search_key(struct ui_view *v, int k, enum ui_key_action a, int64_t now)
{
	struct ui_search	*s = &v->search;
	int			 n = (int)s->n;
	int			 step = s->rows > 1 ? s->rows - 1 : 1;
	size_t			 len = s->q.len;

	switch (a) {
	case UI_ACT_CANCEL:
		search_close(v);
		return;
	case UI_ACT_HELP:
		v->help = true;
		v->help_top = 0;
		return;
	case UI_ACT_FIND:
	case UI_ACT_FIND_ALL:
		search_open(v, a == UI_ACT_FIND_ALL, now);
		return;
	case UI_ACT_SELECT_UP:
		if (s->sel > 0)
			s->sel--;
		return;
	case UI_ACT_SELECT_DOWN:
		if (s->sel + 1 < n)
			s->sel++;
		return;
	case UI_ACT_PREV_PAGE:
		s->sel = s->sel > step ? s->sel - step : 0;
		return;
	case UI_ACT_NEXT_PAGE:
		s->sel = s->sel + step < n ? s->sel + step :
		    (n > 0 ? n - 1 : 0);
		return;
	case UI_ACT_SEND:
		k = '\r';
		break;
	default:
		break;
	}
	if (k == KEY_ESC) {
		search_close(v);
	} else if (k == '\r' || k == '\n' || k == UI_KEY_FN + KEY_ENTER) {
		if (s->sel >= 0 && s->sel < n) {
			const struct ui_search_hit	*h = &s->v[s->sel];
			char				*chat = xstrdup(h->chat);
			int64_t				 rowid = h->rowid;

			search_close(v);
			open_at(v, chat, rowid);
			free(chat);
		}
	} else if (edit_key(&s->q, k) && s->q.len != len)
		search_edit(v, now);
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
	bool	 input = !v->help && !v->search.on && !v->info &&
		    v->prompt == PROMPT_NONE && !open_left(v) &&
		    v->msgs.sel < 0, cr = v->paste_cr;

	v->paste_cr = k == '\r';
	if (k == '\n' && cr)
		return true;		/* CR LF is one line break */
	if (k == '\r' || k == '\n' || k == UI_KEY_FN + KEY_ENTER) {
		if (input && ui_input_insert(&v->in, "\n", 1) == 0)
			typing_edit(v, now);
		else if (!input && v->prompt != PROMPT_NONE &&
		    ui_input_insert(&v->pin, " ", 1) != 0)	/* one line: */
			beep();					/* a space */
		return true;
	}
	if (k == '\t') {
		if (input && ui_input_insert(&v->in, "    ", 4) == 0)
			typing_edit(v, now);
		return true;
	}
	return k < 0x20 || k == 0x7f || k >= UI_KEY_ALT;
}

bool
ui_view_key(struct ui_view *v, int k, int64_t now)
{
	enum ui_key_action	 a = ui_keys_action(&v->o.keys, k);
	size_t			 len;

	if (k == UI_KEY_PASTE_BEGIN || k == UI_KEY_PASTE_END) {
		v->pasting = k == UI_KEY_PASTE_BEGIN;
		return false;
	}
	if (v->pasting && paste_key(v, k, now))
		return false;

	set_note(v, NULL);
	if (v->help) {
		/* the key page scrolls; any other key closes it */
		if (k == UI_KEY_FN + KEY_UP || k == UI_KEY_FN + KEY_DOWN ||
		    k == UI_KEY_FN + KEY_PPAGE || k == UI_KEY_FN + KEY_NPAGE) {
			int	 step = k == UI_KEY_FN + KEY_UP ||
				    k == UI_KEY_FN + KEY_DOWN ? 1 :
				    (v->help_rows > 1 ? v->help_rows - 1 : 1);

			v->help_top += k == UI_KEY_FN + KEY_UP ||
			    k == UI_KEY_FN + KEY_PPAGE ? -step : step;
			return false;	/* draw_help() clamps it */
		}
		v->help = false;
		if (a != UI_ACT_QUIT)
			return false;
	}
	if (v->search.on && a != UI_ACT_QUIT) {
		search_key(v, k, a, now);
		return false;
	}
	if (v->prompt != PROMPT_NONE && a != UI_ACT_QUIT) {
		prompt_key(v, k, a);
		return false;
	}
	if (a == UI_ACT_FIND || a == UI_ACT_FIND_ALL) {
		search_open(v, a == UI_ACT_FIND_ALL, now);
		return false;
	}
	if (v->info && info_key(v, k, a))
		return false;
	switch (a) {
	case UI_ACT_QUIT:
		typing_stop(v);
		return true;
	case UI_ACT_HELP:
		v->help = true;
		v->help_top = 0;
		return false;
	case UI_ACT_NEXT_CHAT:
	case UI_ACT_PREV_CHAT:
		if (ui_chats_move(&v->chats, a == UI_ACT_NEXT_CHAT ? 1 : -1))
			open_selected(v);
		return false;
	case UI_ACT_UNREAD_CHAT:
		if (ui_chats_next_unread(&v->chats))
			open_selected(v);
		else
			set_note(v, _("no unread chat"));
		return false;
	case UI_ACT_NEW_CHAT:
		v->info = false;
		start_prompt(v, PROMPT_NUMBER);
		return false;
	case UI_ACT_GROUP_NEW:
		v->info = false;
		start_prompt(v, PROMPT_GROUP_SUBJECT);
		return false;
	case UI_ACT_GROUP_INFO:
		info_open(v);
		return false;
	case UI_ACT_GROUP_LEAVE:
		leave_ask(v);
		return false;
	case UI_ACT_PREV_PAGE:
	case UI_ACT_NEXT_PAGE:
		page(v, a == UI_ACT_PREV_PAGE ? -1 : 1);
		return false;
	default:
		break;
	}
	if (select_key(v, k, a, now))
		return false;
	if (open_left(v) && a != UI_ACT_SELECT_UP && a != UI_ACT_CANCEL) {
		/* Nothing can be sent there: the input is off. */
		set_note(v, _("you are no longer a member of this group"));
		return false;
	}
	switch (a) {
	case UI_ACT_SELECT_UP:
		if (ui_input_is_empty(&v->in) && v->msgs.n > 0)
			v->msgs.sel = (int)v->msgs.n - 1;
		return false;
	case UI_ACT_CANCEL:
		drop_reply(v);
		drop_edit(v);
		return false;
	case UI_ACT_SEND:
		send_input(v, now);
		return false;
	case UI_ACT_NEWLINE:
		if (ui_input_insert(&v->in, "\n", 1) == 0)
			typing_edit(v, now);
		return false;
	default:
		break;
	}
	if (k == '\r' || k == '\n' || k == UI_KEY_FN + KEY_ENTER) {
		if (v->o.enter_sends)
			send_input(v, now);
		else if (ui_input_insert(&v->in, "\n", 1) == 0)
			typing_edit(v, now);
		return false;
	}
	len = v->in.len;
	if (v->pasting && is_text_key(k)) {
		/* a long paste: no bell per character past the end */
		if (ui_input_insert_cp(&v->in, (uint32_t)k) == 0)
			typing_edit(v, now);
		else
			set_note(v, _("the paste was cut at 65,536 bytes, "
			    "a message's most"));
		return false;
	}
	if (edit_key(&v->in, k) && v->in.len != len)
		typing_edit(v, now);	/* the text changed, not the cursor */
	return false;
}

bool
ui_view_is_quit_key(const struct ui_view *v, int k)
{
	return ui_keys_action(&v->o.keys, k) == UI_ACT_QUIT;
}

const char *
ui_view_open_chat(const struct ui_view *v)
{
	return v->msgs.chat;
}

const char *
ui_view_input(const struct ui_view *v)
{
	return v->in.text;
}

const char *
ui_view_selected(const struct ui_view *v)
{
	return v->msgs.sel >= 0 && v->msgs.sel < (int)v->msgs.n ?
	    v->msgs.v[v->msgs.sel].id : NULL;
}

bool
ui_view_info_shown(const struct ui_view *v)
{
	return v->info;
}

struct ui_msgs *
ui_view_msgs(struct ui_view *v)
{
	return &v->msgs;
}

const struct ui_chats *
ui_view_chats(const struct ui_view *v)
{
	return &v->chats;
}

const struct ui_group *
ui_view_group(const struct ui_view *v, const char *jid)
{
	return ui_groups_find(&v->groups, jid);
}

const struct ui_search *
ui_view_search(const struct ui_view *v)
{
	return &v->search;
}

/* ---- drawing ---- */

/*
 * The senders' colours (ui/groups.h): mid-tone colours of the 256-colour
 * cube, which read on dark and light backgrounds alike (red, green, blue,
 * magenta, teal, orange, violet, olive); with 8 colours the basic ones
 * but yellow and white (unreadable on light) and black (on dark).
 */
static const short sender_256[UI_GROUP_COLOURS] = {
	167, 71, 68, 133, 37, 172, 98, 100,
};
static const short sender_8[UI_GROUP_COLOURS] = {
	COLOR_RED, COLOR_GREEN, COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN,
	COLOR_RED, COLOR_GREEN, COLOR_MAGENTA,
};

void
ui_view_colours(void)
{
	short	 bg = -1, fg;
	int	 i;

	if (!has_colors())
		return;
	if (use_default_colors() != OK ||
	    init_pair(PAIR_READ, COLOR_CYAN, -1) != OK) {
		bg = COLOR_BLACK;
		(void)init_pair(PAIR_READ, COLOR_CYAN, COLOR_BLACK);
	}
	for (i = 0; i < UI_GROUP_COLOURS; i++) {
		fg = COLORS >= 256 ? sender_256[i] : sender_8[i];
		if (COLOR_PAIRS > UI_GROUP_PAIR0 + i)
			(void)init_pair((short)(UI_GROUP_PAIR0 + i), fg, bg);
	}
}

static int
put(int y, int x, const char *s, int cols)
{
	return cols > 0 ? ui_text_draw(y, x, s, strlen(s), cols) : 0;
}

/* The key page being laid out: rows counted from 0 over the whole page,
 * those from top on drawn from screen row y while they fit. */
struct help_pen {
	int	 x, w, y, rows, top, n;
	bool	 draw;
};

#define HELP_KEY_COLS	12

/* One entry: the key, then what it does wrapped to the columns left
 * (continued under the text, never cut in a word); a key wider than its
 * column stands on a row of its own, its text under it. */
static void
help_entry(struct help_pen *p, const char *key, const char *what)
{
	struct ui_line	 l[8];
	int		 n, i, tw = p->w - HELP_KEY_COLS - 1, r;
	bool		 alone = ui_text_width(key, strlen(key)) >
			    HELP_KEY_COLS;

	if (tw < 8)
		tw = 8;
	n = ui_text_wrap(what, strlen(what), tw, l, 8);
	for (i = alone ? -1 : 0; i < n && i < 8; i++, p->n++) {
		r = p->n - p->top;
		if (!p->draw || r < 0 || r >= p->rows)
			continue;
		if (i < 0 || (i == 0 && !alone))
			(void)put(p->y + r, p->x, key, i < 0 ? p->w :
			    HELP_KEY_COLS);
		if (i >= 0)
			(void)ui_text_draw(p->y + r, p->x + HELP_KEY_COLS + 1,
			    what + l[i].off, l[i].len, tw);
	}
}

static void
help_entries(struct ui_view *v, struct help_pen *p)
{
	static const char *const fixed[][2] = {
		{ "Ctrl-a Ctrl-e", N_("start, end of the line") },
		{ "Ctrl-k Ctrl-u", N_("delete to the end, to the start") },
		{ "1-6 0", N_("quick reactions, remove (react prompt)") },
		{ "r a d l", N_("rename, add, remove, leave (group info)") },
	};
	char	 key[32];
	size_t	 k;
	int	 i;

	p->n = 0;
	for (i = 0; i < UI_ACT_COUNT; i++) {
		ui_keys_name(v->o.keys.key[i], key, sizeof(key));
		if (key[0] != '\0')
			help_entry(p, key, ui_keys_action_help(
			    (enum ui_key_action)i));
	}
	help_entry(p, _("Enter"), v->o.enter_sends ? _("send") :
	    _("new line"));
	for (k = 0; k < sizeof(fixed) / sizeof(fixed[0]); k++)
		help_entry(p, fixed[k][0], _(fixed[k][1]));
}

/* The key page, from its row v->help_top (clamped here); Up, Down, PgUp
 * and PgDn scroll it when it does not fit (ui_view_key()). */
static void
draw_help(struct ui_view *v, int y, int x, int h, int w)
{
	struct help_pen	 p = { x, w, y + 1, h - 1, 0, 0, false };

	help_entries(v, &p);		/* how many rows */
	if (v->help_top > p.n - p.rows)
		v->help_top = p.n - p.rows;
	if (v->help_top < 0)
		v->help_top = 0;
	v->help_rows = p.rows;
	p.top = v->help_top;
	p.draw = true;
	help_entries(v, &p);
	attron(A_BOLD);
	(void)put(y, x, p.n > p.rows ? _("Keys (Up, Down, PgUp, PgDn "
	    "scroll; any other key closes this page)") : _("Keys (any key "
	    "closes this page)"), w);
	attroff(A_BOLD);
}

/* The open chat's bar: name, then typing…, online or last seen. */
static void
draw_bar(struct ui_view *v, int y, int x, int w, int64_t now)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	char		 when[32], line[96];
	const char	*state = NULL;
	int		 used;

	attron(A_BOLD);
	mvhline(y, x, ' ', w);
	if (ch == NULL) {
		put(y, x + 1, _("No chat open: Ctrl-n starts one by number"),
		    w - 1);
		attroff(A_BOLD);
		return;
	}
	used = 1 + put(y, x + 1, ch->name, w - 1);
	attroff(A_BOLD);
	if (ch->group) {
		const struct ui_group	*g = open_group(v);

		if (g != NULL && g->left)
			snprintf(line, sizeof(line), "%s",
			    _("you are no longer a member"));
		else if (g != NULL && g->known)
			snprintf(line, sizeof(line), ngettext("%zu member",
			    "%zu members", g->n), g->n);
		else
			line[0] = '\0';
		if (line[0] != '\0')
			state = line;
	}
	if (v->typing)
		state = _("typing…");
	else if (v->online == 1)
		state = _("online");
	else if (v->last_seen_ms != 0) {
		ui_chats_when(v->last_seen_ms, now, when, sizeof(when));
		snprintf(line, sizeof(line), _("last seen %s"), when);
		state = line;
	}
	if (state != NULL) {
		attron(A_DIM);
		used += put(y, x + used, "  ", w - used);
		(void)put(y, x + used, state, w - used);
		attroff(A_DIM);
	}
}

/* One member's row of the group info: name in their colour, number,
 * creator or admin, "you". */
static void
draw_member(const struct ui_member *m, int y, int x, int w, bool sel)
{
	struct buf	 b = BUF_INIT;
	attr_t		 hl = A_BOLD;
	int		 used;

	if (sel)
		attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	if (has_colors())
		hl |= COLOR_PAIR(UI_GROUP_PAIR0 + (int)ui_group_colour(m->jid));
	attron(hl);
	used = 1 + put(y, x + 1, m->shown, w - 1);
	attroff(hl);
	if (m->name[0] != '\0') {
		buf_append(&b, "  ", 2);
		ui_group_name(NULL, m->jid, NULL, &b);
		b.len--;	/* its NUL */
	}
	if (m->role == UI_GROUP_CREATOR || m->role == UI_GROUP_ADMIN) {
		const char	*r = m->role == UI_GROUP_CREATOR ?
		    _("creator") : _("admin");

		buf_append(&b, "  ", 2);
		buf_append(&b, r, strlen(r));
	}
	if (m->is_me) {
		buf_append(&b, "  ", 2);
		buf_append(&b, _("you"), strlen(_("you")));
	}
	buf_push(&b, '\0');
	attron(A_DIM);
	(void)put(y, x + used, (char *)b.p, w - used);
	attroff(A_DIM);
	if (sel)
		attroff(A_REVERSE);
	buf_release(&b);
}

/* The open group's info in the box at (y, x), h rows by w columns:
 * subject, description, member count, the members (scrolled to the
 * selected one) and the keys at the bottom. */
static void
draw_info(struct ui_view *v, int y, int x, int h, int w)
{
	struct ui_group	*g = open_group(v);
	struct ui_line	 dl[3];
	char		 line[256];
	const char	*keys = g == NULL || may_manage(g) ?
			    _("Up/Down choose, r renames, a adds, d "
			    "removes, l leaves, Esc closes") :
			    _("Up/Down choose, r renames, l leaves, Esc "
			    "closes");
	int		 row = y, end, i, nd, list;

	/* The keys at the bottom, on two rows when they need them. */
	nd = ui_text_wrap(keys, strlen(keys), w, dl, 2);
	nd = nd < 2 ? nd : 2;
	end = y + h - nd;
	attron(A_DIM);
	for (i = 0; i < nd; i++)
		(void)ui_text_draw(end + i, x, keys + dl[i].off, dl[i].len, w);
	attroff(A_DIM);
	if (g == NULL || !g->known) {
		(void)put(row, x, _("asking for the group's info…"), w);
		return;
	}
	attron(A_BOLD);
	(void)put(row++, x, g->subject, w);
	attroff(A_BOLD);
	nd = ui_text_wrap(g->desc, strlen(g->desc), w, dl, 3);
	attron(A_DIM);
	for (i = 0; g->desc[0] != '\0' && i < nd && i < 3 && row < end; i++)
		(void)ui_text_draw(row++, x, g->desc + dl[i].off, dl[i].len, w);
	attroff(A_DIM);
	if (row < end) {
		if (g->left)
			snprintf(line, sizeof(line), "%s",
			    _("you are no longer a member"));
		else
			snprintf(line, sizeof(line), ngettext("%zu member",
			    "%zu members", g->n), g->n);
		attron(A_UNDERLINE);
		(void)put(row++, x, line, w);
		attroff(A_UNDERLINE);
	}
	list = end - row;
	v->info_rows = list;
	if (list < 1)
		return;
	if (v->info_sel >= (int)g->n)
		v->info_sel = g->n > 0 ? (int)g->n - 1 : 0;
	if (v->info_sel < v->info_top)
		v->info_top = v->info_sel;
	else if (v->info_sel >= v->info_top + list)
		v->info_top = v->info_sel - list + 1;
	for (i = 0; i < list && v->info_top + i < (int)g->n; i++)
		draw_member(&g->v[v->info_top + i], row + i, x, w,
		    v->info_top + i == v->info_sel);
}

/* The search's title (into b, with a NUL): where it looks, then the
 * filters taken. */
static void
search_title(struct ui_view *v, struct buf *b)
{
	const struct ui_search		*s = &v->search;
	const struct ui_search_query	*q = &s->qy;
	char				 line[256];
	int				 i;

	if (s->global)
		snprintf(line, sizeof(line), "%s", _("Search all chats"));
	else {
		i = s->scope != NULL ? ui_chats_find(&v->chats, s->scope) : -1;
		(void)with_name(line, sizeof(line), 40, _("Search in %s"),
		    i >= 0 ? v->chats.v[i].name : "");
	}
	buf_append(b, line, strlen(line));
	if (q->chat != NULL && q->chat_name != NULL) {
		buf_append(b, "  in:", 5);
		buf_append(b, q->chat_name, strlen(q->chat_name));
	}
	if (q->sender != NULL) {
		buf_append(b, "  from:", 7);
		if (q->sender[0] == '\0')
			buf_append(b, "me", 2);
		else if (q->sender_name != NULL)
			buf_append(b, q->sender_name, strlen(q->sender_name));
	}
	if (q->since_text != NULL) {
		buf_append(b, "  after:", 8);
		buf_append(b, q->since_text, strlen(q->since_text));
	}
	if (q->until_text != NULL) {
		buf_append(b, "  before:", 9);
		buf_append(b, q->until_text, strlen(q->until_text));
	}
	buf_push(b, '\0');
}

/* What the search's list says instead of hits, or NULL (into line). */
static const char *
search_state(struct ui_view *v, char *line, size_t size)
{
	const struct ui_search		*s = &v->search;
	const struct ui_search_query	*q = &s->qy;
	const char			*bad = q->bad != NULL ? q->bad : "";

	switch (q->err) {
	case UI_SEARCH_NO_CHAT:
		snprintf(line, size, _("no chat is named %s"), bad);
		return line;
	case UI_SEARCH_NO_PERSON:
		snprintf(line, size, _("nobody is named %s"), bad);
		return line;
	case UI_SEARCH_AMBIGUOUS:
		snprintf(line, size, _("%s starts several names: type more "
		    "of it"), bad);
		return line;
	case UI_SEARCH_BAD_DATE:
		snprintf(line, size, _("%s is not a date: YYYY-MM-DD, YYYY-MM "
		    "or YYYY"), bad);
		return line;
	case UI_SEARCH_OK:
		break;
	}
	if (q->words == NULL || q->words[0] == '\0')
		return _("Type words; filters: from:NAME in:CHAT "
		    "after:DATE before:DATE");
	if (s->asked != NULL && !s->answered && s->n == 0)
		return _("searching…");
	if (s->answered && s->n == 0)
		return _("no results");
	return NULL;
}

/* The snippet of h at (y, x), at most w columns, its match highlighted
 * and shown (the start left out, "…", when the match is further on). */
static void
draw_snippet(const struct ui_search_hit *h, int y, int x, int w)
{
	const char	*t = h->snippet;
	size_t		 off = 0, len = strlen(t), n;
	int		 cols, used = 0;

	if (w < 2)
		return;
	while (off < h->hl_start &&
	    ui_text_width(t + off, h->hl_end - off) > w - 2) {
		n = ui_text_next(t + off, len - off, &cols);
		off += n;
	}
	if (off > 0)
		used += put(y, x, "\xe2\x80\xa6", w);
	if (h->hl_start > off)
		used += ui_text_draw(y, x + used, t + off, h->hl_start - off,
		    w - used);
	if (h->hl_end > h->hl_start && h->hl_start >= off) {
		attron(A_BOLD | A_UNDERLINE);
		used += ui_text_draw(y, x + used, t + h->hl_start,
		    h->hl_end - h->hl_start, w - used);
		attroff(A_BOLD | A_UNDERLINE);
	}
	if (len > h->hl_end && w > used)
		(void)ui_text_draw(y, x + used, t + h->hl_end,
		    len - h->hl_end, w - used);
}

/* One hit in two rows at (y, x), w columns: when, the chat (all chats),
 * who wrote it (in their colour in a group), then the snippet. */
static void
draw_hit(struct ui_view *v, const struct ui_search_hit *h, int y, int x,
    int w, bool sel, int64_t now)
{
	char		 when[32];
	const char	*who = h->from_me ? _("You") : h->who[0] != '\0' ?
			    h->who : (v->search.global ? "" : h->chat_name);
	attr_t		 hl = A_BOLD;
	int		 used;

	if (sel)
		attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	mvhline(y + 1, x, ' ', w);
	ui_chats_when(h->ts_ms, now, when, sizeof(when));
	attron(A_DIM);
	used = put(y, x + 1, when, w - 1) + 1;
	attroff(A_DIM);
	if (v->search.global) {
		used += put(y, x + used, "  ", w - used);
		attron(A_BOLD);
		used += put(y, x + used, h->chat_name, w - used);
		attroff(A_BOLD);
	}
	if (who[0] != '\0') {
		used += put(y, x + used, "  ", w - used);
		if (h->colour >= 0 && has_colors())
			hl |= COLOR_PAIR(UI_GROUP_PAIR0 + h->colour);
		attron(hl);
		(void)put(y, x + used, who, w - used);
		attroff(hl);
	}
	draw_snippet(h, y + 1, x + 3, w - 3);
	if (sel)
		attroff(A_REVERSE);
}

/* The search in the box at (y, x), h rows by w columns: its title with
 * the filters, the hits (scrolled to the chosen one) or what is instead,
 * and the keys at the bottom. */
static void
draw_search(struct ui_view *v, int y, int x, int h, int w, int64_t now)
{
	struct ui_search	*s = &v->search;
	struct ui_line		 dl[2];
	struct buf		 b = BUF_INIT;
	char			 line[512];
	const char		*keys = _("Up/Down choose, Enter opens the "
				    "message, Esc closes");
	const char		*state;
	int			 row = y, end, i, nd, list, shown;

	nd = ui_text_wrap(keys, strlen(keys), w, dl, 2);
	nd = nd < 2 ? nd : 2;
	end = y + h - nd;
	attron(A_DIM);
	for (i = 0; i < nd && end + i > y; i++)
		(void)ui_text_draw(end + i, x, keys + dl[i].off, dl[i].len, w);
	attroff(A_DIM);
	search_title(v, &b);
	attron(A_BOLD | A_UNDERLINE);
	(void)put(row++, x, (char *)b.p, w);
	attroff(A_BOLD | A_UNDERLINE);
	buf_release(&b);
	if (row >= end)
		return;
	if ((state = search_state(v, line, sizeof(line))) != NULL) {
		attron(A_DIM);
		(void)put(row, x + 1, state, w - 1);
		attroff(A_DIM);
		s->rows = 0;
		return;
	}
	list = (end - row - (s->more ? 1 : 0)) / 2;
	s->rows = list;
	if (list < 1)
		return;
	if (s->sel >= (int)s->n)
		s->sel = s->n > 0 ? (int)s->n - 1 : 0;
	if (s->sel < s->top)
		s->top = s->sel;
	else if (s->sel >= s->top + list)
		s->top = s->sel - list + 1;
	for (shown = 0; shown < list && s->top + shown < (int)s->n; shown++)
		draw_hit(v, &s->v[s->top + shown], row + 2 * shown, x, w,
		    s->top + shown == s->sel, now);
	if (s->more && s->top + shown >= (int)s->n) {
		attron(A_DIM);
		(void)put(row + 2 * shown, x + 1, _("more results…: add "
		    "words or filters to narrow the search"), w - 1);
		attroff(A_DIM);
	}
}

/* The line over a group prompt (into line, size bytes): what to type. */
static const char *
group_prompt(struct ui_view *v, char *line, size_t size, int cols)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	if (v->prompt_err != NULL)
		return v->prompt_err;
	switch (v->prompt) {
	case PROMPT_GROUP_SUBJECT:
		return _("New group: its name, Enter goes on to its members, "
		    "Esc goes back");
	case PROMPT_GROUP_MEMBERS:
		return with_name(line, size, cols, _("Members of %s: phone "
		    "numbers with their country code or JIDs, separated by "
		    "commas; Enter makes the group"), v->new_subject != NULL ?
		    v->new_subject : "");
	case PROMPT_RENAME:
		return _("The group's new name, Enter renames it, Esc goes "
		    "back");
	case PROMPT_ADD:
		return _("Add to the group: phone numbers or JIDs, separated "
		    "by commas; Enter adds them");
	case PROMPT_REMOVE:
		return _("Remove from the group: phone numbers or JIDs, "
		    "separated by commas; Enter removes them");
	case PROMPT_LEAVE:
		return with_name(line, size, cols, _("Leave the group %s? y "
		    "leaves it, n stays"), ch != NULL ? ch->name : "");
	case PROMPT_REVOKE:
		return _("Delete this message for everyone? y deletes it, n "
		    "keeps it");
	case PROMPT_NONE:
	case PROMPT_NUMBER:
	case PROMPT_REACT:
		break;
	}
	return NULL;
}

/* The help line at the bottom. */
static void
draw_hints(struct ui_view *v, int y, int x, int w)
{
	char	 send[32], next[32], help[32], quit[32], line[256];

	ui_keys_name(v->o.keys.key[UI_ACT_SEND], send, sizeof(send));
	ui_keys_name(v->o.keys.key[UI_ACT_NEXT_CHAT], next, sizeof(next));
	ui_keys_name(v->o.keys.key[UI_ACT_HELP], help, sizeof(help));
	ui_keys_name(v->o.keys.key[UI_ACT_QUIT], quit, sizeof(quit));
	snprintf(line, sizeof(line), _("%s send  %s next chat  Up select  "
	    "%s help  %s quit"), v->o.enter_sends ? "Enter" : send, next,
	    help, quit);
	attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	(void)put(y, x + 1, line, w - 1);
	attroff(A_REVERSE);
}

bool
ui_view_draw(struct ui_view *v, int y, int x, int h, int w, int64_t now)
{
	struct ui_line	 l[INPUT_ROWS_MAX];
	struct ui_chat	*ch;
	struct ui_input	*in = v->search.on ? &v->search.q :
			    v->prompt != PROMPT_NONE ? &v->pin : &v->in;
	char		 line[512];
	const char	*above = NULL, *lead = "> ";
	int		 lw, rx, rw, rows, crow, ccol, shown, first, i, iy, my,
			 mh, lead_w;

	if (w < UI_VIEW_MIN_COLS || h < UI_VIEW_MIN_ROWS) {
		curs_set(0);
		return false;
	}
	draw_hints(v, y + h - 1, x, w);
	h--;
	lw = w / 3;
	lw = lw < 16 ? 16 : lw > 32 ? 32 : lw;
	attron(A_BOLD);
	(void)put(y, x + 1, _("Chats"), lw - 1);
	attroff(A_BOLD);
	ui_chats_draw(&v->chats, y + 1, x, h - 1, lw, now);
	mvvline(y, x + lw, ACS_VLINE, h);
	rx = x + lw + 1;
	rw = w - lw - 1;
	if (v->help) {
		curs_set(0);
		draw_help(v, y, rx + 1, h, rw - 1);
		return true;
	}
	draw_bar(v, y, rx, rw, now);
	if (v->info && v->prompt == PROMPT_NONE) {
		curs_set(0);
		draw_info(v, y + 1, rx + 1, h - 1, rw - 1);
		return true;
	}
	/* The input at the bottom: what is typed, up to a few rows. */
	if (v->search.on)
		lead = "/ ";
	else if (v->prompt >= PROMPT_GROUP_SUBJECT) {
		above = group_prompt(v, line, sizeof(line), rw - 1);
		lead = v->prompt == PROMPT_LEAVE ||
		    v->prompt == PROMPT_REVOKE ? "" : "> ";
	} else if (v->prompt == PROMPT_NUMBER) {
		above = v->prompt_err != NULL ? v->prompt_err :
		    _("New chat: the phone number with its country code, "
		    "Enter opens it, Esc goes back");
		lead = "+";
	} else if (v->prompt == PROMPT_REACT && v->prompt_err != NULL) {
		above = v->prompt_err;
		lead = "";
	} else if (v->prompt == PROMPT_REACT) {
		snprintf(line, sizeof(line), _("React: 1 %s 2 %s 3 %s 4 %s "
		    "5 %s 6 %s, 0 removes, or type one and Enter; Esc goes "
		    "back"), quick[0], quick[1], quick[2], quick[3],
		    quick[4], quick[5]);
		above = line;
		lead = "";
	} else if (v->note != NULL)
		above = v->note;
	else if (v->reply_id != NULL) {
		(void)with_name(line, sizeof(line), rw - 1, _("replying to: %s "
		    "(Esc cancels)"), v->reply_text);
		above = line;
	} else if (v->edit_id != NULL) {
		above = _("editing your message: Enter sends the new text, "
		    "Esc cancels");
	} else if (v->msgs.sel >= 0) {
		char	 r[32], e[32], d[32], t[32];

		ui_keys_name(v->o.keys.key[UI_ACT_REACT], r, sizeof(r));
		ui_keys_name(v->o.keys.key[UI_ACT_EDIT], t, sizeof(t));
		ui_keys_name(v->o.keys.key[UI_ACT_DELETE], d, sizeof(d));
		ui_keys_name(v->o.keys.key[UI_ACT_RETRY], e, sizeof(e));
		snprintf(line, sizeof(line), _("Enter reply  %s react  %s "
		    "edit  %s delete  %s resend  Esc back"), r, t, d, e);
		above = line;
	}
	lead_w = ui_text_width(lead, strlen(lead));
	rows = ui_input_layout(in, rw - lead_w - 1, l, INPUT_ROWS_MAX,
	    &crow, &ccol);
	shown = rows < INPUT_ROWS_MAX ? rows : INPUT_ROWS_MAX;
	first = crow - shown + 1 > 0 ? crow - shown + 1 : 0;
	iy = y + h - shown;
	mvhline(iy - 1, rx, ACS_HLINE, rw);
	if (v->prompt == PROMPT_NONE && !v->search.on && open_left(v)) {
		/* The input is off: say why where it was. */
		attron(A_DIM);
		(void)put(iy, rx + 1, _("you are no longer a member of this "
		    "group: nothing can be sent to it"), rw - 1);
		attroff(A_DIM);
		shown = 0;
		crow = first = 1;
	}
	for (i = 0; i < shown; i++) {
		if (i == 0)
			(void)put(iy, rx, lead, lead_w);
		if (first + i < rows)	/* l[] starts at row first */
			(void)ui_text_draw(iy + i, rx + lead_w,
			    in->text + l[i].off, l[i].len, rw - lead_w - 1);
	}
	my = y + 1;
	mh = iy - 1 - my;
	if (above != NULL) {
		mh--;
		attron(A_DIM);
		(void)put(iy - 2, rx + 1, above, rw - 1);
		attroff(A_DIM);
	}
	ch = ui_chats_selected(&v->chats);
	if (v->search.on) {
		if (mh > 1)
			draw_search(v, my, rx + 1, mh, rw - 1, now);
	} else if (v->info) {
		if (mh > 1)
			draw_info(v, my, rx + 1, mh, rw - 1);
	} else if (mh > 0)
		ui_msgs_draw(&v->msgs, my, rx + 1, mh, rw - 1,
		    ch != NULL ? ch->name : "", now);
	if (!v->info && !v->search.on && v->msgs.more_before &&
	    ui_msgs_at_top(&v->msgs) && mh > 0) {
		attron(A_DIM);
		(void)put(my, rx + rw - 12, _("PgUp: more"), 11);
		attroff(A_DIM);
	}
	/* The cursor where the next key goes, unless a message is
	 * selected (curses sends nothing when it does not change). */
	if ((v->msgs.sel < 0 || v->search.on) && crow - first < shown) {
		move(iy + crow - first, rx + lead_w + ccol);
		curs_set(1);
	} else
		curs_set(0);
	return true;
}
