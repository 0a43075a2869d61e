/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-call.c -- incoming calls shown as notice lines (proto/dm-int.h
 * dm_call_on; protocol-features.md 5).  wachat cannot take a call and
 * never rejects one by itself (only when the user asks): it shows the call in the caller's chat
 * (a group call's in the group's) and lets it ring out.  A live offer
 * says "Incoming voice call"; its terminate says how it ended: missed
 * (timeout, or hung up before anyone answered), answered or declined on
 * another device ([RS] MissedCall Remote, CallEndedElsewhere), or that
 * the user declined it (wa_dm_call_reject(): the reject stanza, then
 * "Declined voice call").  An offer
 * replayed from the offline queue is over: missed at once ([RS]
 * MissedCall Offline; [BL] stores the missed call on its terminate), and
 * its terminate adds nothing.  A terminate carries no group-jid: its line
 * goes to the chat of the offer it ends.  Each line's id comes from the
 * call-id, so a call sent again is stored once.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define LOG_TAG "dm"

#include "base/arena.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/call.h"
#include "proto/dm-int.h"

/* The slot of call-id id, or a new one (the oldest reused). */
static struct dm_call *
call_slot(struct wa_dm *dm, const char *id, bool *known)
{
	struct dm_call	*c;
	size_t		 i;

	for (i = 0; i < DM_CALLS; i++)
		if (dm->calls[i].id[0] != '\0' &&
		    strcmp(dm->calls[i].id, id) == 0) {
			*known = true;
			return &dm->calls[i];
		}
	*known = false;
	c = &dm->calls[dm->calls_next];
	dm->calls_next = (dm->calls_next + 1) % DM_CALLS;
	memset(c, 0, sizeof(*c));
	snprintf(c->id, sizeof(c->id), "%s", id);
	return c;
}

/* The line for call c (kind, and end: its last line): the chat and the
 * caller from the stanza.  Returns 0 or the store's error. */
static int
call_line(struct wa_dm *dm, const struct wa_call *c, enum wa_dm_note kind,
    uint32_t bits, bool end)
{
	struct dm_note	 n;
	char		 caller[WA_DM_JID_MAX], chat[WA_DM_JID_MAX];
	char		 id[WA_DM_ID_MAX], stored[WA_DM_ID_MAX];
	int		 rc;

	if (!jid_user_of(c->creator[0] != '\0' ? c->creator : c->from, caller,
	    sizeof(caller))) {
		log_warn("call %s: no caller to show it for", c->id);
		return 0;
	}
	if (c->group[0] != '\0' && jid_is_group(c->group) &&
	    strlen(c->group) < sizeof(chat))
		memcpy(chat, c->group, strlen(c->group) + 1);
	else
		memcpy(chat, caller, sizeof(chat));
	snprintf(id, sizeof(id), "wachat-call-%.40s-%s", c->call_id,
	    end ? "end" : "in");
	memset(&n, 0, sizeof(n));
	n.chat = chat;
	n.sender = caller;
	n.ts = c->t > 0 ? c->t * 1000 : dm->host.now_ms(dm->host.arg);
	/* the English fallback; the code (base/notice.h) is stored */
	n.text = kind == WA_DM_NOTE_CALL_IN ? "incoming call" : "call ended";
	n.kind = kind;
	n.device = bits;
	n.id = id;
	if ((rc = dm_notice_put_kind(dm, &n, stored)) != 0)
		return rc;
	dm_notice_show_kind(dm, &n, stored);
	return 0;
}

/* How a call that ended for reason r is shown. */
static enum wa_dm_note
end_kind(enum wa_call_reason r)
{
	switch (r) {
	case WA_CALL_REASON_ACCEPTED_ELSEWHERE:
		return WA_DM_NOTE_CALL_ELSEWHERE;
	case WA_CALL_REASON_REJECTED_ELSEWHERE:
		return WA_DM_NOTE_CALL_DECLINED;
	case WA_CALL_REASON_NONE:
	case WA_CALL_REASON_TIMEOUT:
	case WA_CALL_REASON_GROUP_ENDED:
		break;
	}
	return WA_DM_NOTE_CALL_MISSED;
}

int
dm_call_on(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_call	 c;
	struct dm_call	*slot;
	char		 user[WA_DM_JID_MAX];
	uint32_t	 bits;
	bool		 known;
	int		 rc;

	memset(&c, 0, sizeof(c));
	if ((rc = wa_call_parse(n, &c)) != 0) {
		log_warn("call %s (%s): cannot be read (%s); acked, not shown",
		    c.id[0] != '\0' ? c.id : "without an id",
		    c.action_tag[0] != '\0' ? c.action_tag : "no action",
		    wc_strerror(rc));
		return 0;
	}
	log_info("call %s: %s of call %s%s%s%s%s", c.id, c.action_tag,
	    c.call_id, c.video ? ", video" : "", c.offline ? ", offline" : "",
	    c.action == WA_CALL_TERMINATE ? ", reason " : "",
	    c.action == WA_CALL_TERMINATE ? wa_call_reason_name(c.reason) :
	    "");
	if (c.action != WA_CALL_OFFER && c.action != WA_CALL_OFFER_NOTICE &&
	    c.action != WA_CALL_TERMINATE)
		return 0;	/* accept, reject, transport...: the
				 * terminate says how it ended */
	if (c.notify[0] != '\0' && c.action == WA_CALL_OFFER &&
	    jid_user_of(c.creator[0] != '\0' ? c.creator : c.from, user,
	    sizeof(user)))	/* the caller by name, as a message's */
		(void)dm->st->push_name(dm->st->arg, user, c.notify);
	slot = call_slot(dm, c.call_id, &known);
	if (known && slot->over)
		return 0;	/* its last line is shown */
	bits = (c.video ? WA_DM_CALL_VIDEO : 0) |
	    (c.group_call ? WA_DM_CALL_GROUP : 0);
	if (c.action == WA_CALL_TERMINATE) {
		if (known) {
			bits = slot->bits;	/* the offer said */
			if (c.group[0] == '\0')	/* the offer's chat */
				memcpy(c.group, slot->group,
				    sizeof(c.group));
		}
		slot->over = true;
		slot->ringing = false;
		return call_line(dm, &c, end_kind(c.reason), bits, true);
	}
	slot->bits = bits;
	if (c.group[0] != '\0')
		memcpy(slot->group, c.group, sizeof(slot->group));
	if (known)
		return 0;	/* rings already */
	if (c.offline) {
		slot->over = true;	/* over by now */
		return call_line(dm, &c, WA_DM_NOTE_CALL_MISSED, bits, true);
	}
	memcpy(slot->from, c.from, sizeof(slot->from));
	memcpy(slot->creator, c.creator, sizeof(slot->creator));
	if ((rc = call_line(dm, &c, WA_DM_NOTE_CALL_IN, bits, false)) == 0)
		slot->ringing = true;
	return rc;
}

/* The ringing call whose "incoming" line is line_id, or NULL. */
static struct dm_call *
ringing(struct wa_dm *dm, const char *line_id)
{
	char	 id[WA_DM_ID_MAX];
	size_t	 i;

	for (i = 0; i < DM_CALLS; i++) {
		if (dm->calls[i].id[0] == '\0' || !dm->calls[i].ringing ||
		    dm->calls[i].over)
			continue;
		snprintf(id, sizeof(id), "wachat-call-%.40s-in",
		    dm->calls[i].id);
		if (strcmp(id, line_id) == 0)
			return &dm->calls[i];
	}
	return NULL;
}

int
wa_dm_call_reject(struct wa_dm *dm, const char *chat, const char *line_id)
{
	struct dm_call	*slot;
	struct wa_call	 c;
	struct wa_node	*n;
	struct arena	 a;
	char		 to[WA_DM_JID_MAX], creator[WA_DM_JID_MAX];
	char		 id[WA_DM_ID_MAX];
	const char	*own;
	int		 rc;

	if (chat == NULL || chat[0] == '\0' || line_id == NULL ||
	    line_id[0] == '\0')
		return -EINVAL;
	if ((slot = ringing(dm, line_id)) == NULL)
		return -ENOENT;
	if (!dm->online)
		return -ENOTCONN;
	if (!jid_user_of(slot->from, to, sizeof(to)) ||
	    !jid_user_of(slot->creator[0] != '\0' ? slot->creator :
	    slot->from, creator, sizeof(creator)))
		return -EINVAL;
	own = strstr(to, "@lid") != NULL && dm->own_lid[0] != '\0' ?
	    dm->own_lid : dm->own_pn;
	if ((rc = wa_dm_new_id(dm, id)) != 0)
		return rc;
	arena_init(&a, 256);
	rc = wa_call_reject_build(id, own, to, slot->id, creator, &a, &n);
	if (rc == 0)
		rc = dm_send(dm, n);
	arena_release(&a);
	if (rc != 0) {
		log_warn("call %s: the reject is not sent: %s", slot->id,
		    wc_strerror(rc));
		return rc;
	}
	log_info("call %s: rejected (%s)", slot->id, id);
	slot->over = true;
	slot->ringing = false;
	memset(&c, 0, sizeof(c));
	memcpy(c.from, slot->from, sizeof(c.from));
	memcpy(c.creator, slot->creator, sizeof(c.creator));
	memcpy(c.group, slot->group, sizeof(c.group));
	memcpy(c.call_id, slot->id, sizeof(c.call_id));
	return call_line(dm, &c, WA_DM_NOTE_CALL_REJECTED, slot->bits, true);
}
