/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-notify.c -- the view's notifications (ui/view-int.h, issue 17
 * point 3): a message from someone else, or a reaction of someone else
 * to one of ours, that is not on a seen screen (its chat open at the
 * bottom, the terminal focused, nothing over the pane) rings the bell,
 * sends a desktop notification through the terminal and hands one to the
 * notify callback (notify-command, src/app-ui.c), by the settings; a
 * muted chat (a mute that ended is none) or an archived one stays
 * silent unless the message mentions us.  What comes between two
 * refreshes is one notification ("3 new messages" when there are
 * several).  The window title carries the count of unread chats neither
 * muted nor archived.
 */
#include "base/compat.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/media.h"
#include "ui/rich.h"
#include "ui/notify.h"
#include "ui/view-int.h"

void
ui_view_notify_release(struct ui_view *v)
{
	free(v->ntf.chat);
	free(v->ntf.sender);
	free(v->ntf.sender_name);
	free(v->ntf.text);
	free(v->own_number);
	v->ntf.chat = v->ntf.sender = v->ntf.sender_name = v->ntf.text = NULL;
	v->own_number = NULL;
}

void
ui_view_notify_own(struct ui_view *v, const char *number)
{
	if (number == NULL || number[0] == '\0')
		return;
	free(v->own_number);
	v->own_number = xstrdup(number);
}

/* Whether the newest messages of chat are on a seen screen now. */
static bool
on_screen(const struct ui_view *v, const char *chat)
{
	return ui_view_is_open(v, chat) && !v->read.unseen && !v->help.on &&
	    !v->info.on && !v->search.on && !v->pick.on &&
	    v->msgs.scroll == 0 && !v->msgs.more_after &&
	    v->msgs.loading == 0;
}

/* Whether text mentions the user part digits[0..n) (jid_next_mention()). */
static bool
mentions(const char *text, const char *digits, size_t n)
{
	size_t	 len = strlen(text), from = 0, off, k;

	for (; n > 0 && jid_next_mention(text, len, from, &off, &k);
	    from = off + k)
		if (k == n && memcmp(text + off, digits, n) == 0)
			return true;
	return false;
}

/* Whether text mentions us: our number, or in a group our member JIDs
 * (PN and LID). */
static bool
mentions_us(const struct ui_view *v, const struct ui_group *g,
    const char *text)
{
	const struct ui_member	*me;
	struct jid		 j;

	if (v->own_number != NULL &&
	    mentions(text, v->own_number, strlen(v->own_number)))
		return true;
	if (g == NULL || (me = ui_group_me(g)) == NULL)
		return false;
	if (jid_parse(me->jid, &j) == 0 && mentions(text, j.user, j.user_len))
		return true;
	return jid_parse(me->alt, &j) == 0 &&
	    mentions(text, j.user, j.user_len);
}

/* The chat's name as the list shows it (sanitised), appended to out
 * with a NUL not counted in out->len. */
static void
chat_name(const struct ui_view *v, const char *chat, struct buf *out)
{
	int	 i = ui_chats_find(&v->chats, chat);

	if (i >= 0)
		buf_append(out, v->chats.v[i].name,
		    strlen(v->chats.v[i].name) + 1);
	else
		ui_chats_jid_name(chat, out);
	out->len = strlen((char *)out->p);
}

/* Muted, or archived (kept archived, as WhatsApp's "keep chats
 * archived": silent like a muted one, counted in the Archived row). */
static bool
chat_muted(const struct ui_view *v, const char *chat)
{
	int	 i = ui_chats_find(&v->chats, chat);

	return i >= 0 && (v->chats.v[i].muted || v->chats.v[i].archived);
}

/* One notification more: chat's, from sender (raw JID, "" the chat's
 * own; name as it came), saying text (raw), or a reaction with that
 * emoji; all borrowed. */
static void
pending(struct ui_view *v, const char *chat, const char *sender,
    const char *name, const char *text, bool reaction, int64_t now)
{
	if (v->ntf.n == 0)
		v->ntf.since = now;
	else if (v->ntf.chat != NULL && strcmp(v->ntf.chat, chat) != 0)
		v->ntf.chats_differ = true;
	v->ntf.n++;
	free(v->ntf.chat);
	free(v->ntf.sender);
	free(v->ntf.sender_name);
	free(v->ntf.text);
	v->ntf.chat = xstrdup(chat);
	v->ntf.sender = xstrdup(sender != NULL ? sender : "");
	v->ntf.sender_name = xstrdup(name != NULL ? name : "");
	v->ntf.text = xstrdup(text);
	v->ntf.reaction = reaction;
}

void
ui_view_notify_message(struct ui_view *v, const struct ev_message *m,
    int64_t now)
{
	const char	*chat = m->key.chat;
	struct ui_group	*g = ui_group_is_jid(chat) ?
			    ui_groups_find(&v->groups, chat) : NULL;
	char		*md = NULL;

	if (m->key.from_me || m->notice || on_screen(v, chat))
		return;
	if (chat_muted(v, chat) && !mentions_us(v, g, m->text))
		return;
	/* media: its word and caption ("Photo the beach") */
	if (m->media.type != EV_MEDIA_NONE)
		md = ui_media_preview(m->media.type, m->media.caption);
	else if (m->rich)
		md = ui_rich_preview(m->text);
	pending(v, chat, m->key.sender, m->sender_name, md != NULL ? md :
	    m->text, false, now);
	free(md);
}

void
ui_view_notify_reaction(struct ui_view *v, const struct ev_reaction *r,
    int64_t now)
{
	if (!r->counted || !r->target.from_me || r->from_me ||
	    r->emoji[0] == '\0' || on_screen(v, r->target.chat) ||
	    chat_muted(v, r->target.chat))
		return;
	pending(v, r->target.chat, r->sender, NULL, r->emoji, true, now);
}

/* The pending notification's title and body, sanitised (malloc'd). */
static void
words(const struct ui_view *v, char **title_out, char **body_out)
{
	const char	*chat = v->ntf.chat;
	struct ui_group	*g = ui_group_is_jid(chat) ?
			    ui_groups_find(&v->groups, chat) : NULL;
	struct buf	 title = BUF_INIT, body = BUF_INIT, san = BUF_INIT;
	struct buf	 who = BUF_INIT;
	struct ui_span	*spans = NULL;
	size_t		 nspans = 0;
	char		 line[512];

	/* the chat; in a group "Sender @ Group" */
	if (g != NULL || ui_group_is_jid(chat)) {
		ui_group_name(g, v->ntf.sender, v->ntf.sender_name, &who);
		who.len = strlen((char *)who.p);
		buf_append(&title, who.p, who.len);
		buf_append(&title, " @ ", 3);
	} else
		chat_name(v, chat, &who);
	chat_name(v, chat, &title);
	if (v->ntf.reaction) {
		wc_sanitize(v->ntf.text, strlen(v->ntf.text), false, &san);
		snprintf(line, sizeof(line), _("%s reacted %s to your message"),
		    (char *)who.p, (char *)san.p);
		buf_append(&body, line, strlen(line) + 1);
	} else if (!v->o.notify_preview)
		buf_append(&body, _("new message"), strlen(_("new message")) + 1);
	else {
		wc_sanitize(v->ntf.text, strlen(v->ntf.text), false, &san);
		if (g != NULL) {
			ui_group_mentions(g, (char *)san.p, &body, &spans,
			    &nspans);
			free(spans);
		} else
			buf_append(&body, san.p, san.len);
	}
	buf_release(&san);
	buf_release(&who);
	*title_out = (char *)title.p;
	*body_out = (char *)body.p;
}

/* The chats with unread messages that are not muted (nor archived). */
static unsigned
unread_chats(const struct ui_view *v)
{
	unsigned	 n = 0;
	size_t		 i;

	for (i = 0; i < v->chats.n; i++)
		if (v->chats.v[i].unread > 0 && !v->chats.v[i].muted &&
		    !v->chats.v[i].archived)
			n++;
	return n;
}

void
ui_view_notify_flush(struct ui_view *v, int64_t now)
{
	char		 line[128], *title, *body;
	unsigned	 unread;

	if (v->o.title && v->linked) {
		unread = unread_chats(v);
		if (!v->ntf.title_set) {
			ui_notify_title_push(&v->term_out);
			v->ntf.title_set = true;
			v->ntf.title_shown = UINT_MAX;
		}
		if (unread != v->ntf.title_shown) {
			ui_notify_title(&v->term_out, unread);
			v->ntf.title_shown = unread;
		}
	}
	if (v->ntf.n == 0)
		return;
	/* a chat new to the list: its name comes with the reload asked */
	if (ui_chats_find(&v->chats, v->ntf.chat) < 0 &&
	    (v->chats_asked || v->chats_due) &&
	    now - v->ntf.since < UI_VIEW_NOTIFY_WAIT_MS)
		return;
	words(v, &title, &body);
	if (v->ntf.n > 1) {
		/* several: the chat's name when they are all its, and how
		 * many */
		struct buf	 t = BUF_INIT;

		if (v->ntf.chats_differ)
			buf_append(&t, "wachat", sizeof("wachat"));
		else
			chat_name(v, v->ntf.chat, &t);
		free(title);
		title = (char *)t.p;
		snprintf(line, sizeof(line), ngettext("%u new message",
		    "%u new messages", v->ntf.n), v->ntf.n);
		free(body);
		body = xstrdup(line);
	}
	if (v->o.bell)
		ui_notify_bell(&v->term_out);
	ui_notify_osc(&v->term_out, v->o.notify_osc, v->o.in_tmux, title,
	    body);
	if (v->o.notify != NULL)
		v->o.notify(v->o.notify_arg, title, body);
	free(title);
	free(body);
	v->ntf.n = 0;
	v->ntf.chats_differ = false;
}

void
ui_view_notify_end(struct ui_view *v)
{
	if (v->ntf.title_set) {
		ui_notify_title_pop(&v->term_out);
		v->ntf.title_set = false;
	}
}
