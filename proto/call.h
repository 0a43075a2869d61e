/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/call.h -- the reader of an incoming <call> stanza (protocol-
 * features.md 5; whatsmeow call.go handleCallEvent, Baileys
 * messages-recv handleCall, whatsapp-rust parse_call_stanza): who calls,
 * which call, and what its one action child says (offer, offer_notice,
 * preaccept, accept, reject, terminate with its reason, or another).
 * wachat cannot take a call: the reader is there to ack the stanza
 * (11.7, done by the engine whatever it says) and to show the call.
 * A pure function: no I/O, no clock, no globals; any thread, on a node
 * that thread owns.
 */
#ifndef WA_CALL_H
#define WA_CALL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/compat.h"
#include "proto/bin.h"

struct arena;

#define WA_CALL_JID_MAX	128	/* bytes of a JID as text, NUL included */
#define WA_CALL_ID_MAX	80	/* bytes of a call-id, NUL included */

/* The action of a <call> (its first child). */
enum wa_call_action {
	WA_CALL_OTHER,		/* transport, relaylatency, mute_v2, ...:
				 * nothing to show */
	WA_CALL_OFFER,		/* the call rings */
	WA_CALL_OFFER_NOTICE,	/* a group call rings (a notice of it) */
	WA_CALL_PREACCEPT,
	WA_CALL_ACCEPT,		/* answered (by one of the devices) */
	WA_CALL_REJECT,		/* declined */
	WA_CALL_TERMINATE,	/* the call ended: see reason */
};

/* Why a call ended (<terminate reason>, protocol-features.md 5). */
enum wa_call_reason {
	WA_CALL_REASON_NONE,		/* no reason, or one not listed: the
					 * caller hung up */
	WA_CALL_REASON_TIMEOUT,		/* nobody answered */
	WA_CALL_REASON_ACCEPTED_ELSEWHERE, /* answered on another device */
	WA_CALL_REASON_REJECTED_ELSEWHERE, /* declined on another device */
	WA_CALL_REASON_GROUP_ENDED,	/* group_call_ended */
};

/*
 * One <call> as read.  Strings are copies (NUL-terminated, "" when the
 * stanza lacks them).
 */
struct wa_call {
	char		 from[WA_CALL_JID_MAX];	/* the caller's device JID */
	char		 id[WA_CALL_ID_MAX];	/* the stanza id */
	int64_t		 t;		/* unix s; 0 when absent */
	bool		 offline;	/* replayed from the offline queue */
	char		 notify[128];	/* the caller's push name (raw
					 * network text, cut to fit), or "" */
	enum wa_call_action action;
	char		 action_tag[24]; /* the child's tag, for the log */
	char		 call_id[WA_CALL_ID_MAX]; /* the call's call-id */
	char		 creator[WA_CALL_JID_MAX]; /* call-creator, or from */
	char		 group[WA_CALL_JID_MAX];	/* group-jid, or "" */
	bool		 video;		/* <video> in the offer, or
					 * media="video" on an offer_notice */
	bool		 group_call;	/* group-jid or type="group" */
	enum wa_call_reason reason;	/* WA_CALL_TERMINATE's */
};

/*
 * Read the <call> node n into *out.  Returns 0.  Errors: -EINVAL (n is
 * NULL or not a <call>), WC_EPROTO (no id or from, a from that is not a
 * JID, a non-numeric t, no action child, an offer, offer_notice, accept,
 * reject or terminate without a call-id): the caller still acks n when
 * it has an id and a from (it is never sent again for being unread),
 * and logs it.  *out is filled as far as read, also on error (the ids
 * "" when not read).
 */
MUST_CHECK int	wa_call_parse(const struct wa_node *n, struct wa_call *out);

/*
 * The stanza that declines a call (protocol-features.md 5 step 3;
 * whatsmeow RejectCall, Baileys rejectCall):
 *   <call id=ID from=OWN to=CALLER><reject call-id=CALL_ID
 *    call-creator=CREATOR count="0"/></call>
 * id: a new message id; own: our own JID without a device; to: the
 * caller's, without a device; call_id and creator as the offer said
 * (all borrowed: they must outlive *out, built in a).  Returns 0 and
 * *out; -EINVAL when an argument is NULL or empty, or own, to or
 * creator is not a JID.  Pure; any thread.
 */
MUST_CHECK int	wa_call_reject_build(const char *id, const char *own,
		    const char *to, const char *call_id, const char *creator,
		    struct arena *a, struct wa_node **out);

/* The English name of an action and of a reason, for the log (static). */
const char *wa_call_action_name(enum wa_call_action a);
const char *wa_call_reason_name(enum wa_call_reason r);

#endif
