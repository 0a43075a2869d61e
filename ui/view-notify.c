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
 * muted nor archived.  A call that rings (its "incoming call" line) is
 * notified whatever the chat, and said on the status line until it ends
 * (ui_view_ringing()); the reject-call key declines it (CMD_CALL_REJECT).
 */
#include "base/compat.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/event.h"
#include "base/notice.h"
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
	free(v->ring.id);
	free(v->ring.chat);
	free(v->ring.who);
	memset(&v->ring, 0, sizeof(v->ring));
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
	v->ntf.call = false;
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
	} else if (!v->o.notify_preview && !v->ntf.call)
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

/* ---- the call that rings ---- */

/* The call of a call line's id "wachat-call-ID-in" or "-end": the length
 * of "wachat-call-ID-" (0 for another id). */
static size_t
call_stem(const char *id)
{
	const char	*e = strrchr(id, '-');

	if (strncmp(id, "wachat-call-", 12) != 0 || e == NULL ||
	    (strcmp(e, "-in") != 0 && strcmp(e, "-end") != 0))
		return 0;
	return (size_t)(e - id) + 1;
}

static void
ring_end(struct ui_view *v)
{
	free(v->ring.id);
	free(v->ring.chat);
	free(v->ring.who);
	memset(&v->ring, 0, sizeof(v->ring));
}

/* Who calls in m: "Sender @ Group" in a group, else the chat's name;
 * sanitised, malloc'd. */
static char *
caller(const struct ui_view *v, const struct ev_message *m)
{
	const char	*chat = m->key.chat;
	struct ui_group	*g = ui_group_is_jid(chat) ?
			    ui_groups_find(&v->groups, chat) : NULL;
	struct buf	 who = BUF_INIT;

	if (ui_group_is_jid(chat)) {
		ui_group_name(g, m->key.sender, m->sender_name, &who);
		who.len = strlen((char *)who.p);
		buf_append(&who, " @ ", 3);
	} else if (m->sender_name != NULL && m->sender_name[0] != '\0') {
		/* a new chat's name is not in the list yet */
		wc_sanitize(m->sender_name, strlen(m->sender_name), false,
		    &who);
		return (char *)who.p;
	}
	chat_name(v, chat, &who);
	return (char *)who.p;
}

void
ui_view_call_line(struct ui_view *v, const struct ev_message *m, int64_t now)
{
	char	 words[128];
	size_t	 k;

	if (!m->notice || m->notice_kind < EV_NOTICE_CALL_IN ||
	    (k = call_stem(m->key.id)) == 0)
		return;
	if (m->notice_kind != EV_NOTICE_CALL_IN) {
		if (v->ring.id != NULL && strncmp(v->ring.id, m->key.id, k) == 0)
			ring_end(v);
		return;
	}
	ring_end(v);
	v->ring.id = xstrdup(m->key.id);
	v->ring.chat = xstrdup(m->key.chat);
	v->ring.who = caller(v, m);
	v->ring.bits = m->notice_device;
	v->ring.since = now;
	if (!notice_words(m->notice_kind, m->notice_device, "", words,
	    sizeof(words)))
		return;
	pending(v, m->key.chat, m->key.sender, m->sender_name, words, false,
	    now);
	v->ntf.call = true;
}

void
ui_view_call_reject(struct ui_view *v, int64_t now)
{
	struct cmd	*c;

	(void)now;
	if (v->ring.id == NULL) {
		ui_view_note(v, _("no call rings"));
		return;
	}
	c = cmd_new(CMD_CALL_REJECT);
	ev_set(&c->u.call_reject.chat, v->ring.chat);
	ev_set(&c->u.call_reject.id, v->ring.id);
	ui_view_push(v, c);
	ui_view_note(v, _("declining the call…"));
	ring_end(v);
}

const char *
ui_view_ringing(const struct ui_view *v, int64_t now, bool ascii, char *line,
    size_t size)
{
	char	 key[32];

	if (v->ring.id == NULL || now - v->ring.since >= UI_VIEW_RING_MS)
		return NULL;
	ui_keys_name(v->o.keys.key[UI_ACT_REJECT_CALL], key, sizeof(key));
	if (key[0] == '\0')
		snprintf(line, size, (v->ring.bits & EV_CALL_VIDEO) != 0 ?
		    _("incoming video call from %s") :
		    _("incoming voice call from %s"), v->ring.who);
	else
		snprintf(line, size, (v->ring.bits & EV_CALL_VIDEO) != 0 ?
		    _("incoming video call from %s %s %s rejects") :
		    _("incoming voice call from %s %s %s rejects"), v->ring.who,
		    ascii ? "-" : "\u2014", key);
	return line;
}
