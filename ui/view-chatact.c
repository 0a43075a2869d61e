/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-chatact.c -- the chat's app-state keys (ui/view-int.h): mute
 * (8 hours, a week, always; or unmute), the disappearing messages'
 * timer (24 hours, 7 days, 90 days, off: a CMD_EPHEMERAL, issue 20),
 * pin, archive, mark read or
 * unread, star the selected message, delete and clear the chat (both
 * asked first), each as a CMD_CHAT_ACT for the selected chat; and what
 * EV_APP_STATE says of such a change on the line over the input
 * ("muting…", offline, not synced yet, not taken).  The list shows the
 * change once the server took it (the chat list read again).
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/i18n.h"
#include "base/jid.h"
#include "base/xmalloc.h"
#include "ui/view-int.h"

#define HOUR_MS		(3600 * 1000LL)

/* The chat the keys act on (the selected one), or NULL, said. */
static struct ui_chat *
target(struct ui_view *v)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	if (ch == NULL)
		ui_view_note(v, _("select a chat first"));
	return ch;
}

static struct cmd *
act_cmd(const struct ui_chat *ch, enum ev_chat_act act)
{
	struct cmd	*c = cmd_new_chat(CMD_CHAT_ACT, ch->jid);

	c->u.chat_act.act = act;
	c->u.chat_act.last_ms = ch->last_ms;
	return c;
}

static void
push(struct ui_view *v, const struct ui_chat *ch, enum ev_chat_act act)
{
	ui_view_push(v, act_cmd(ch, act));
}

void
ui_view_ca_mute(struct ui_view *v, int64_t now)
{
	(void)now;
	if (target(v) != NULL)
		ui_view_prompt_start(v, PROMPT_MUTE);
}

bool
ui_view_ca_mute_key(struct ui_view *v, int k)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	struct cmd	*c;
	int64_t		 now = (int64_t)time(NULL) * 1000;

	if (k < '0' || k > '3')
		return true;	/* nothing else is typed here */
	v->prompt.kind = PROMPT_NONE;
	if (ch == NULL)
		return true;
	if (k == '0') {
		push(v, ch, EV_ACT_UNMUTE);
		return true;
	}
	c = act_cmd(ch, EV_ACT_MUTE);
	c->u.chat_act.mute_until = k == '1' ? now + 8 * HOUR_MS : k == '2' ?
	    now + 7 * 24 * HOUR_MS : -1;
	ui_view_push(v, c);
	return true;
}

void
ui_view_ca_ephemeral(struct ui_view *v, int64_t now)
{
	(void)now;
	if (target(v) != NULL)
		ui_view_prompt_start(v, PROMPT_EPHEMERAL);
}

bool
ui_view_ca_ephemeral_key(struct ui_view *v, int k)
{
	static const uint32_t secs[] = { 0, 86400, 604800, 7776000 };
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	struct cmd	*c;

	if (k < '0' || k > '3')
		return true;	/* nothing else is typed here */
	v->prompt.kind = PROMPT_NONE;
	if (ch == NULL)
		return true;
	c = cmd_new_chat(CMD_EPHEMERAL, ch->jid);
	c->u.ephemeral.secs = secs[k - '0'];
	ui_view_push(v, c);
	return true;
}

void
ui_view_ca_pin(struct ui_view *v, int64_t now)
{
	struct ui_chat	*ch = target(v);

	(void)now;
	if (ch != NULL)
		push(v, ch, ch->pinned ? EV_ACT_UNPIN : EV_ACT_PIN);
}

void
ui_view_ca_archive(struct ui_view *v, int64_t now)
{
	struct ui_chat	*ch = target(v);

	(void)now;
	if (ch != NULL)
		push(v, ch, ch->archived ? EV_ACT_UNARCHIVE : EV_ACT_ARCHIVE);
}

/* Alt-u: mark the selected chat unread, or read when it is.  Marking
 * the open chat unread closes it, as
 * WhatsApp Web leaves the chat: left open, it would be read again at
 * once and the mark cleared (ui_view_chat_mark_read()). */
void
ui_view_ca_unread(struct ui_view *v, int64_t now)
{
	struct ui_chat	*ch = target(v);
	bool		 read;

	(void)now;
	if (ch == NULL)
		return;
	read = ch->unread > 0 || ch->marked_unread;
	push(v, ch, read ? EV_ACT_MARK_READ : EV_ACT_MARK_UNREAD);
	if (!read && v->msgs.chat != NULL &&
	    strcmp(v->msgs.chat, ch->jid) == 0) {
		/* as deleted() does: not selected, or it opens again */
		if (v->chats.sel != NULL && strcmp(v->chats.sel, ch->jid) == 0) {
			free(v->chats.sel);
			v->chats.sel = NULL;
		}
		ui_msgs_release(&v->msgs);
	}
}

void
ui_view_ca_star(struct ui_view *v, int64_t now)
{
	const struct ui_msg	*m;
	struct cmd		*c;

	(void)now;
	if (v->msgs.chat == NULL) {
		ui_view_note(v, _("select a chat first"));
		return;
	}
	if (!ui_view_selected_on(v)) {
		ui_view_note(v, _("select a message first (Up)"));
		return;
	}
	m = &v->msgs.v[v->msgs.sel];
	if (m->notice || m->id[0] == '\0') {
		ui_view_note(v, _("this line cannot be starred"));
		return;
	}
	c = cmd_new_chat(CMD_CHAT_ACT, v->msgs.chat);
	c->u.chat_act.act = m->starred ? EV_ACT_UNSTAR : EV_ACT_STAR;
	ev_set(&c->u.chat_act.id, m->id);
	c->u.chat_act.from_me = m->from_me;
	ev_set(&c->u.chat_act.sender, m->sender);
	free(v->star_id);
	v->star_id = xstrdup(m->id);
	ui_view_push(v, c);
}

void
ui_view_ca_delete(struct ui_view *v, int64_t now)
{
	(void)now;
	if (target(v) != NULL)
		ui_view_prompt_start(v, PROMPT_DELETE_CHAT);
}

void
ui_view_ca_clear(struct ui_view *v, int64_t now)
{
	(void)now;
	if (target(v) != NULL)
		ui_view_prompt_start(v, PROMPT_CLEAR_CHAT);
}

void
ui_view_ca_answer_delete(struct ui_view *v, bool yes)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	if (yes && ch != NULL) {
		free(v->deleted);
		v->deleted = xstrdup(ch->jid);
		push(v, ch, EV_ACT_DELETE_CHAT);
	}
}

void
ui_view_ca_answer_clear(struct ui_view *v, bool yes)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	if (yes && ch != NULL)
		push(v, ch, EV_ACT_CLEAR_CHAT);
}

const char *
ui_view_ca_words(struct ui_view *v, char *line, size_t size, int cols)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	const char	*name = ch != NULL ? ch->name : "";

	switch (v->prompt.kind) {
	case PROMPT_MUTE:
		return ui_view_with_name(line, size, cols, _("Mute %s: 1 for 8 "
		    "hours, 2 for a week, 3 always, 0 unmutes; Esc goes back"),
		    name);
	case PROMPT_EPHEMERAL:
		return ui_view_with_name(line, size, cols, _("Disappearing "
		    "messages in %s: 1 for 24 hours, 2 for 7 days, 3 for 90 "
		    "days, 0 off; Esc goes back"), name);
	case PROMPT_DELETE_CHAT:
		return ui_view_with_name(line, size, cols, _("Delete the chat "
		    "%s everywhere? y deletes it, n keeps it"), name);
	case PROMPT_CLEAR_CHAT:
		return ui_view_with_name(line, size, cols, _("Clear the chat "
		    "%s everywhere? y clears it, n keeps it"), name);
	default:
		return NULL;
	}
}

/* "muting…", what act is while the server has it. */
static const char *
doing(enum ev_chat_act act)
{
	switch (act) {
	case EV_ACT_MUTE:		return _("muting…");
	case EV_ACT_UNMUTE:		return _("unmuting…");
	case EV_ACT_PIN:		return _("pinning…");
	case EV_ACT_UNPIN:		return _("unpinning…");
	case EV_ACT_ARCHIVE:		return _("archiving…");
	case EV_ACT_UNARCHIVE:		return _("unarchiving…");
	case EV_ACT_MARK_READ:		return _("marking as read…");
	case EV_ACT_MARK_UNREAD:	return _("marking as unread…");
	case EV_ACT_STAR:		return _("starring…");
	case EV_ACT_UNSTAR:		return _("unstarring…");
	case EV_ACT_DELETE_CHAT:	return _("deleting the chat…");
	case EV_ACT_CLEAR_CHAT:		return _("clearing the chat…");
	case EV_ACT_NONE:		break;
	}
	return NULL;
}

/* The message the star key asked for, held in the pane, is starred (on)
 * or not now that the server took it. */
static void
starred(struct ui_view *v, bool on)
{
	size_t	 i;

	for (i = 0; v->star_id != NULL && i < v->msgs.n; i++)
		if (strcmp(v->msgs.v[i].id, v->star_id) == 0)
			v->msgs.v[i].starred = on;
	free(v->star_id);
	v->star_id = NULL;
}

/* The chat the delete key deleted is gone: closed, no longer selected
 * (the list, read again, holds it no more). */
static void
deleted(struct ui_view *v)
{
	if (v->deleted == NULL)
		return;
	if (v->chats.sel != NULL && strcmp(v->chats.sel, v->deleted) == 0) {
		free(v->chats.sel);
		v->chats.sel = NULL;
	}
	if (v->msgs.chat != NULL && strcmp(v->msgs.chat, v->deleted) == 0)
		ui_msgs_release(&v->msgs);
	free(v->deleted);
	v->deleted = NULL;
}

void
ui_view_ca_event(struct ui_view *v, const struct ev_app_state *e)
{
	char	 line[160];

	switch (e->step) {
	case EV_AS_SENDING:
		ui_view_note(v, doing(e->act));
		break;
	case EV_AS_SENT:
		ui_view_note(v, NULL);
		if (e->act == EV_ACT_STAR || e->act == EV_ACT_UNSTAR)
			starred(v, e->act == EV_ACT_STAR);
		if (e->act == EV_ACT_DELETE_CHAT)
			deleted(v);
		/* messages went: the open chat's rows read again */
		if (e->act == EV_ACT_CLEAR_CHAT && v->msgs.chat != NULL)
			ui_view_push(v, ui_msgs_open(&v->msgs, v->msgs.chat));
		break;
	case EV_AS_QUEUED:
		ui_view_note(v, _("offline: the change goes to your phone once "
		    "connected"));
		break;
	case EV_AS_NO_KEY:
		ui_view_note(v, _("app state is not synced yet: the change "
		    "waits for it"));
		break;
	case EV_AS_FAILED:
		snprintf(line, sizeof(line), _("the change was not taken (%d); "
		    "it is sent again at the next login"), (int)e->err);
		ui_view_note(v, line);
		break;
	case EV_AS_CHANGED:
		break;
	}
}
