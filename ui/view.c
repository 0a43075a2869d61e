/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view.c -- the chat screen after linking (ui/view.h): the view made
 * and freed, the events it takes (the apply path, a table of (event
 * kind, handler): the only code of the view that reads an event's
 * fields), time passing and what tests read.  Its rooms are in the other
 * ui/view-*.c files (ui/view-int.h), none of which calls this one.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/view-int.h"

#define RELOAD_MS	1000	/* chat list reloads at most this often */
#define TYPING_SHOWN_MS	30000	/* "typing…" without news goes after */

void
ui_view_opts_default(struct ui_view_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->enter_sends = o->read_receipts = o->send_typing = true;
	o->clipboard = o->hyperlinks = o->mouse = true;
	o->bell = o->notify_preview = o->title = true;
	o->thumbnail_rows = UI_THUMB_ROWS_DEFAULT;
	o->thumbnail_proto = UI_THUMB_PROTO_HALFBLOCKS;
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
	ui_input_init(&v->prompt.in);
	ui_input_init(&v->pick.q);
	ui_groups_init(&v->groups);
	ui_search_init(&v->search);
	v->bar.online = -1;
	return v;
}

void
ui_view_free(struct ui_view *v)
{
	if (v == NULL)
		return;
	ui_chats_release(&v->chats);
	ui_msgs_release(&v->msgs);
	ui_input_release(&v->in);
	ui_input_release(&v->pick.q);
	ui_view_pick_release(v);
	ui_view_fwd_release(v);
	ui_view_minfo_close(v);
	ui_view_chat_release(v);
	ui_view_prompt_release(v);
	free(v->note);
	free(v->star_id);
	free(v->deleted);
	free(v->own_name);
	ui_view_notify_release(v);
	buf_release(&v->term_out);
	ui_term_links_clear(&v->links);
	free(v->link_id);
	free(v->media_open_id);
	ui_thumb_free(v->once_img);
	ui_groups_release(&v->groups);
	ui_search_release(&v->search);
	ui_view_contact_release(v);
	free(v);
}

static void
load_chats(struct ui_view *v, int64_t now)
{
	v->chats_due = false;
	v->chats_asked = true;
	v->chats_ms = now;
	ui_view_push(v, cmd_new(CMD_LOAD_CHATS));
}

/* The chat list changed in the store: reload, at most once a second
 * (offline too: what is queued shows in it). */
static void
chats_changed(struct ui_view *v, int64_t now)
{
	if (!v->linked)
		return;
	if (now - v->chats_ms >= RELOAD_MS)
		load_chats(v, now);
	else
		v->chats_due = true;
}

/* The group g we asked for came (ui/view-prompt.c asked): open it, and
 * say when fewer members than asked for could be added. */
static void
group_made(struct ui_view *v, const struct ui_group *g)
{
	struct ui_view_prompt	*p = &v->prompt;
	char			 line[160];

	free(p->made_subject);
	p->made_subject = NULL;
	ui_chats_open(&v->chats, g->jid);
	ui_view_open_selected(v);
	ui_view_note(v, NULL);	/* "making the group…" is done */
	if (g->n > 0 && g->n - 1 < p->made_count) {
		snprintf(line, sizeof(line), _("only %u of %u members could "
		    "be added (not on WhatsApp?)"), (unsigned)(g->n - 1),
		    p->made_count);
		ui_view_note(v, line);
	}
}

/* ---- the apply path: one handler per event kind ---- */

/* Our push name from EV_CONNECTED, EV_LINKED or EV_OWN_NAME (acc), kept
 * sanitised for the group info; "" keeps the one known. */
static void
own_name(struct ui_view *v, const struct ev_account *acc)
{
	struct buf	 b = BUF_INIT;

	if (acc->name == NULL || acc->name[0] == '\0')
		return;
	wc_sanitize(acc->name, strlen(acc->name), false, &b);
	free(v->own_name);
	v->own_name = (char *)b.p;
}

static void
on_own_name(struct ui_view *v, const struct ev *ev, int64_t now)
{
	(void)now;
	own_name(v, &ev->u.own_name);
}

static void
on_connected(struct ui_view *v, const struct ev *ev, int64_t now)
{
	own_name(v, &ev->u.connected);
	ui_view_notify_own(v, ev->u.connected.number);
	v->connected = true;
	v->linked = true;
	v->disk_full = false;
	load_chats(v, now);
	if (v->msgs.chat != NULL && !ui_group_is_jid(v->msgs.chat))
		ui_view_push(v, cmd_new_chat(CMD_SUBSCRIBE, v->msgs.chat));
}

/* EV_DISCONNECTED, EV_LOGGED_OUT, EV_STOPPED.  Offline for a full disk
 * (err -ENOSPC), sends are refused here, the text kept. */
static void
on_offline(struct ui_view *v, const struct ev *ev, int64_t now)
{
	(void)now;
	v->connected = false;
	if (ev->kind == EV_LOGGED_OUT)
		v->linked = false;
	v->disk_full = ev->kind == EV_DISCONNECTED &&
	    ev->u.disconnected.err == -ENOSPC;
	v->bar.online = -1;
	v->bar.typing = false;
}

/*
 * EV_CONNECTING, EV_QR, EV_PAIR_CODE, EV_PAIRED, EV_ERROR: the status
 * line says it (ui/screen.c).  A group asked for and refused does not
 * open later by its name.
 */
static void
on_status(struct ui_view *v, const struct ev *ev, int64_t now)
{
	char	*chat;

	(void)now;
	free(v->prompt.made_subject);
	v->prompt.made_subject = NULL;
	if (ev->kind == EV_ERROR)
		ui_view_chat_history(v, ev);	/* a request not sent */
	/* a send the engine could not store: its text comes back */
	if (ev->kind == EV_ERROR && ev->u.error.unsent[0] != '\0')
		ui_view_chat_unsent(v, ev->u.error.chat, ev->u.error.unsent);
	/* A search hit that cannot be read: the newest page. */
	if (ev->kind == EV_ERROR && v->msgs.loading == 3 &&
	    v->msgs.chat != NULL) {
		chat = xstrdup(v->msgs.chat);
		ui_view_push(v, ui_msgs_open(&v->msgs, chat));
		free(chat);
	}
}

/* EV_LINKED: a linked account starting, before any connection: its
 * chats from the store at once, whether or not the server answers. */
static void
on_linked(struct ui_view *v, const struct ev *ev, int64_t now)
{
	own_name(v, &ev->u.linked);
	ui_view_notify_own(v, ev->u.linked.number);
	v->linked = true;
	load_chats(v, now);
}

/* EV_PAIRED: linked just now (the chats come with the login). */
static void
on_paired(struct ui_view *v, const struct ev *ev, int64_t now)
{
	v->linked = true;
	on_status(v, ev, now);
}

static void
on_chats(struct ui_view *v, const struct ev *ev, int64_t now)
{
	v->chats_asked = false;
	if (ev->u.chats.with_people)
		ui_view_pick_people(v, &ev->u.chats);
	ui_chats_set(&v->chats, ev, &v->groups, now);
	ui_view_chat_drafts_load(v, &ev->u.chats);
	ui_view_open_selected(v);
}

static void
on_page(struct ui_view *v, const struct ev *ev, int64_t now)
{
	const struct ev_page	*pg = &ev->u.page;
	bool			 jumped = pg->dir == EV_PAGE_FROM &&
				    v->msgs.loading == 6 &&
				    ui_view_is_open(v, pg->chat);
	char			 line[160];

	(void)now;
	(void)ui_msgs_page(&v->msgs, ev);
	ui_view_chat_paged(v, ev);
	if (jumped && pg->nmsgs == 0) {
		snprintf(line, sizeof(line), _("no message in this chat on or "
		    "after %s"), v->chat.jump_day);
		ui_view_note(v, line);
	}
}

static void
on_message(struct ui_view *v, const struct ev *ev, int64_t now)
{
	const struct ev_message	*m = &ev->u.message;

	ui_groups_note(&v->groups, ev);
	if (ui_msgs_apply(&v->msgs, ev, NULL) && !m->key.from_me && !m->notice)
		ui_view_chat_read_due(v, now);
	else if (ui_view_is_open(v, m->key.chat) && v->msgs.unseen &&
	    !m->key.from_me && !m->notice)
		v->read.below = true;	/* not shown: read at the bottom */
	if (ui_view_is_open(v, m->key.chat) && !m->key.from_me)
		v->bar.typing = false;
	ui_view_notify_message(v, m, now);
	ui_view_call_line(v, m, now);
	chats_changed(v, now);
}

static void
on_send_failed(struct ui_view *v, const struct ev *ev, int64_t now)
{
	ui_view_note(v, ev->u.send_failed.why);
	(void)ui_msgs_apply(&v->msgs, ev, NULL);
	chats_changed(v, now);
}

/* EV_MSG_STATE, EV_MSG_CHANGED. */
static void
on_msg_changed(struct ui_view *v, const struct ev *ev, int64_t now)
{
	if (ev->kind == EV_MSG_STATE)
		ui_view_minfo_moved(v, ev->u.msg_state.key.chat,
		    ev->u.msg_state.key.id);
	(void)ui_msgs_apply(&v->msgs, ev, NULL);
	chats_changed(v, now);
}

static void
on_reaction(struct ui_view *v, const struct ev *ev, int64_t now)
{
	struct cmd	*refresh = NULL;

	(void)now;
	(void)ui_msgs_apply(&v->msgs, ev, &refresh);
	ui_view_push(v, refresh);
	ui_view_notify_reaction(v, &ev->u.reaction, now);
}

static void
on_typing(struct ui_view *v, const struct ev *ev, int64_t now)
{
	if (!ui_view_is_open(v, ev->u.typing.chat))
		return;
	v->bar.typing = ev->u.typing.composing;
	v->bar.typing_until = now + TYPING_SHOWN_MS;
}

static void
on_presence(struct ui_view *v, const struct ev *ev, int64_t now)
{
	(void)now;
	if (!ui_view_is_open(v, ev->u.presence.chat))
		return;
	v->bar.online = ev->u.presence.online;
	if (ev->u.presence.last_seen_ms != 0)
		v->bar.last_seen_ms = ev->u.presence.last_seen_ms;
}

/* An EV_GROUP: the group's list row, its pane, its info; a group we
 * asked for opens when it comes. */
static void
on_group(struct ui_view *v, const struct ev *ev, int64_t now)
{
	struct ui_group	*g = ui_groups_apply(&v->groups, ev);

	(void)now;
	if (g == NULL)
		return;
	ui_chats_group(&v->chats, g);
	if (ui_view_is_open(v, g->jid)) {
		ui_msgs_set_group(&v->msgs, g);
		if (v->info.sel >= (int)g->n)
			v->info.sel = g->n > 0 ? (int)g->n - 1 : 0;
	}
	if (v->prompt.made_subject != NULL && !g->left &&
	    strcmp(g->subject, v->prompt.made_subject) == 0 &&
	    ui_chats_find(&v->chats, g->jid) < 0)
		group_made(v, g);
}

static void
on_search(struct ui_view *v, const struct ev *ev, int64_t now)
{
	(void)now;
	(void)ui_search_take(&v->search, ev, &v->chats, &v->groups);
}

/* Imported chats and messages: the list shows them; older rows the
 * phone was asked for: the pane takes them. */
static void
on_history(struct ui_view *v, const struct ev *ev, int64_t now)
{
	if (ev->u.history.step != EV_HISTORY_CHUNK)
		return;
	chats_changed(v, now);
	ui_view_chat_history(v, ev);
}

/* A star, delete for me or clear from another device may touch the open
 * chat: its rows read again, around the selected message if one is. */
static void
reload_open(struct ui_view *v)
{
	const struct ui_msg	*m = NULL;
	char			*jid;

	if (v->msgs.chat == NULL)
		return;
	if (ui_view_selected_on(v))
		m = &v->msgs.v[v->msgs.sel];
	jid = xstrdup(v->msgs.chat);
	ui_view_push(v, m != NULL && m->rowid != 0 ?
	    ui_msgs_open_at(&v->msgs, jid, m->rowid) :
	    ui_msgs_open(&v->msgs, jid));
	free(jid);
}

static void
on_media_dl(struct ui_view *v, const struct ev *ev, int64_t now)
{
	(void)now;
	ui_view_media_event(v, &ev->u.media_dl);
}

static void
on_msg_info(struct ui_view *v, const struct ev *ev, int64_t now)
{
	(void)now;
	ui_view_minfo_event(v, &ev->u.msg_info);
}

/* EV_APP_STATE: names or chat flags changed: the chat list again; chat
 * flags or messages: the open chat too. */
static void
on_app_state(struct ui_view *v, const struct ev *ev, int64_t now)
{
	if (ev->u.app_state.step != EV_AS_CHANGED) {
		ui_view_ca_event(v, &ev->u.app_state);	/* a change of ours */
		return;
	}
	if (ev->u.app_state.names || ev->u.app_state.chats)
		chats_changed(v, now);
	if (ev->u.app_state.chats)
		reload_open(v);
}

/* EV_PROFILE, EV_BLOCKLIST: the info pages' (ui/view-contact.c). */
static void
on_profile(struct ui_view *v, const struct ev *ev, int64_t now)
{
	(void)now;
	ui_view_contact_profile(v, ev);
}

static void
on_blocklist(struct ui_view *v, const struct ev *ev, int64_t now)
{
	(void)now;
	ui_view_contact_blocklist(v, ev);
}

static void (*const on_event[])(struct ui_view *, const struct ev *,
    int64_t) = {
	[EV_CONNECTING] =	on_status,
	[EV_QR] =		on_status,
	[EV_PAIR_CODE] =	on_status,
	[EV_PAIRED] =		on_paired,
	[EV_CONNECTED] =	on_connected,
	[EV_DISCONNECTED] =	on_offline,
	[EV_LOGGED_OUT] =	on_offline,
	[EV_ERROR] =		on_status,
	[EV_STOPPED] =		on_offline,
	[EV_MESSAGE] =		on_message,
	[EV_MSG_STATE] =	on_msg_changed,
	[EV_MSG_CHANGED] =	on_msg_changed,
	[EV_REACTION] =		on_reaction,
	[EV_TYPING] =		on_typing,
	[EV_PRESENCE] =		on_presence,
	[EV_SEND_FAILED] =	on_send_failed,
	[EV_CHATS] =		on_chats,
	[EV_PAGE] =		on_page,
	[EV_GROUP] =		on_group,
	[EV_SEARCH] =		on_search,
	[EV_HISTORY] =		on_history,
	[EV_LINKED] =		on_linked,
	[EV_OWN_NAME] =		on_own_name,
	[EV_APP_STATE] =	on_app_state,
	[EV_UPLOAD] =		on_msg_changed,
	[EV_MEDIA_DL] =		on_media_dl,
	[EV_PROFILE] =		on_profile,
	[EV_BLOCKLIST] =	on_blocklist,
	[EV_MSG_INFO] =		on_msg_info,
};

void
ui_view_apply(struct ui_view *v, const struct ev *ev, int64_t now)
{
	size_t	 k = (size_t)ev->kind;

	if (k < sizeof(on_event) / sizeof(on_event[0]) && on_event[k] != NULL)
		on_event[k](v, ev, now);
}

void
ui_view_tick(struct ui_view *v, int64_t now)
{
	if (v->chats_due && now - v->chats_ms >= RELOAD_MS)
		load_chats(v, now);
	ui_view_chat_tick(v, now);
	(void)ui_chats_tick(&v->chats, now);	/* mutes that ended */
	if (v->bar.typing && now >= v->bar.typing_until)
		v->bar.typing = false;
	ui_view_search_tick(v, now);
	ui_view_chat_read_tick(v, now);
}

void
ui_view_seen(struct ui_view *v, bool seen, int64_t now)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	if (v->read.unseen == !seen)
		return;
	v->read.unseen = !seen;
	v->read.since = 0;
	/* seen again: what came meanwhile is read after UI_VIEW_READ_MS */
	if (seen && ch != NULL && (ch->unread > 0 || ch->marked_unread) &&
	    v->msgs.chat != NULL)
		v->read.pending = true;
	ui_view_chat_read_tick(v, now);
}

/* ---- what tests read ---- */

const char *
ui_view_open_chat(const struct ui_view *v)
{
	return v->msgs.chat;
}

void
ui_view_set_ascii(struct ui_view *v, bool ascii)
{
	v->chats.ascii = ascii;
}

void
ui_view_quitting(struct ui_view *v)
{
	ui_view_chat_keep_draft(v);
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
	return v->info.on;
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

struct buf *
ui_view_term_out(struct ui_view *v)
{
	return &v->term_out;
}

const struct ui_thumb_spots *
ui_view_thumb_spots(const struct ui_view *v)
{
	return &v->spots;
}

int
ui_view_thumb_proto(const struct ui_view *v)
{
	return v->o.thumbnail_proto;
}

const struct ui_term_links *
ui_view_links(const struct ui_view *v)
{
	return &v->links;
}
