/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-chatact.c -- the user's mute, pin, archive, mark read or
 * unread, star, delete and clear of a chat (CMD_CHAT_ACT) as an app-state
 * mutation of ours (protocol-features.md 2.1, 2.2, 2.7): encoded
 * (proto/appstate.h), kept in the store's outbox (store_as_pending_add)
 * so that it survives being offline and a restart, and handed to app
 * state sync (proto/appsync.h), which sends it and applies it once the
 * server takes it.  Engine thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/sysrand.h"
#include "proto/appstate.h"
#include "proto/appsync.h"
#include "src/app-int.h"
#include "store/store.h"

#define eng_log(level, ...) log_write(level, "eng", __func__, __VA_ARGS__)

/* The action of c into *x (strings borrowed from c); false when c asks
 * for none. */
static bool
action_of(const struct cmd_chat_act *c, struct wa_as_action *x)
{
	memset(x, 0, sizeof(*x));
	x->chat = c->chat;
	/* the messages it covers (2.2 messageRange), seconds, rounded up
	 * so that the newest (its ms) is inside */
	x->range_last_s = c->last_ms > 0 ? (c->last_ms + 999) / 1000 : 0;
	switch (c->act) {
	case EV_ACT_MUTE:
	case EV_ACT_UNMUTE:
		x->kind = WA_AS_ACT_MUTE;
		x->flag = c->act == EV_ACT_MUTE;
		x->mute_end_ms = x->flag ? c->mute_until : 0;
		x->range_last_s = 0;
		return !x->flag || c->mute_until == -1 || c->mute_until > 0;
	case EV_ACT_PIN:
	case EV_ACT_UNPIN:
		x->kind = WA_AS_ACT_PIN;
		x->flag = c->act == EV_ACT_PIN;
		x->range_last_s = 0;
		return true;
	case EV_ACT_ARCHIVE:
	case EV_ACT_UNARCHIVE:
		x->kind = WA_AS_ACT_ARCHIVE;
		x->flag = c->act == EV_ACT_ARCHIVE;
		return true;
	case EV_ACT_MARK_READ:
	case EV_ACT_MARK_UNREAD:
		x->kind = WA_AS_ACT_MARK_READ;
		x->flag = c->act == EV_ACT_MARK_READ;
		return true;
	case EV_ACT_STAR:
	case EV_ACT_UNSTAR:
		x->kind = WA_AS_ACT_STAR;
		x->flag = c->act == EV_ACT_STAR;
		x->msg_id = c->id;
		x->from_me = c->from_me;
		/* a group's author; "0" ours or in a 1:1 chat ([WM]) */
		x->participant = jid_is_group(c->chat) && !c->from_me &&
		    c->sender[0] != '\0' ? c->sender : NULL;
		x->range_last_s = 0;
		return c->id[0] != '\0';
	case EV_ACT_DELETE_CHAT:
		x->kind = WA_AS_ACT_DELETE_CHAT;
		return true;
	case EV_ACT_CLEAR_CHAT:
		x->kind = WA_AS_ACT_CLEAR_CHAT;
		return true;
	case EV_ACT_NONE:
		break;
	}
	return false;
}

enum ev_chat_act
app_chat_act_of(const struct wa_as_action *x)
{
	if (x == NULL)
		return EV_ACT_NONE;
	switch (x->kind) {
	case WA_AS_ACT_MUTE:
		return x->flag ? EV_ACT_MUTE : EV_ACT_UNMUTE;
	case WA_AS_ACT_PIN:
		return x->flag ? EV_ACT_PIN : EV_ACT_UNPIN;
	case WA_AS_ACT_ARCHIVE:
		return x->flag ? EV_ACT_ARCHIVE : EV_ACT_UNARCHIVE;
	case WA_AS_ACT_MARK_READ:
		return x->flag ? EV_ACT_MARK_READ : EV_ACT_MARK_UNREAD;
	case WA_AS_ACT_STAR:
		return x->flag ? EV_ACT_STAR : EV_ACT_UNSTAR;
	case WA_AS_ACT_DELETE_CHAT:
		return EV_ACT_DELETE_CHAT;
	case WA_AS_ACT_CLEAR_CHAT:
		return EV_ACT_CLEAR_CHAT;
	default:
		return EV_ACT_NONE;
	}
}

/* EV_APP_STATE of step for act, to the screen. */
static void
say(struct app *a, enum ev_as_step step, enum ev_chat_act act, int err)
{
	struct ev	*ev = ev_new(EV_APP_STATE);

	ev->u.app_state.step = step;
	ev->u.app_state.act = act;
	ev->u.app_state.err = err;
	app_eng_send(a, ev);
}

void
app_chat_act(struct app *a, const struct cmd *c)
{
	const struct cmd_chat_act *x = &c->u.chat_act;
	struct wa_appsync	*as;
	struct wa_as_action	 act;
	struct buf		 data = BUF_INIT;
	char			*index = NULL;
	int64_t			 now = sys_now_ms(NULL), id = 0;
	int			 rc, coll;

	if (a->store == NULL || x->chat[0] == '\0')
		return;
	if (!action_of(x, &act) || (coll = wa_as_action_coll(act.kind)) < 0) {
		eng_log(LOG_WARN, "a chat change without an action: ignored");
		return;
	}
	if ((rc = wa_as_action_encode(&act, now, &data, &index)) == 0)
		rc = store_as_pending_add(a->store, wa_as_coll_name(coll),
		    (const uint8_t *)index, strlen(index), data.p, data.len,
		    now, &id);
	free(index);
	buf_release(&data);
	if (rc != 0) {
		app_eng_error(a, rc == -ENOSPC ? _("cannot keep the change: "
		    "disk full") : _("cannot keep the change"), rc);
		return;
	}
	eng_log(LOG_INFO, "own app-state change %lld queued",
	    (long long)id);
	as = a->eng != NULL ? wa_eng_appsync(a->eng) : NULL;
	if (as == NULL || !wa_appsync_outbox(as))
		say(a, EV_AS_QUEUED, x->act, 0);
}

void
app_chat_act_event(struct app *a, const struct wa_appsync_ev *e)
{
	switch (e->kind) {
	case WA_APPSYNC_EV_SENDING:
		say(a, EV_AS_SENDING, app_chat_act_of(e->action), 0);
		break;
	case WA_APPSYNC_EV_SENT:
		say(a, EV_AS_SENT, app_chat_act_of(e->action), 0);
		break;
	case WA_APPSYNC_EV_SEND_FAILED:
		say(a, EV_AS_FAILED, app_chat_act_of(e->action), e->err);
		break;
	case WA_APPSYNC_EV_NO_KEY:
		say(a, EV_AS_NO_KEY, EV_ACT_NONE, 0);
		break;
	case WA_APPSYNC_EV_CHANGED:
	case WA_APPSYNC_EV_STORE_FAILED:
		break;
	}
}
