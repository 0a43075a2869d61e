/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/call.c -- the reader of an incoming <call> (proto/call.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "proto/call.h"
#include "proto/node.h"

#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))

static const struct {
	const char		*name;
	enum wa_call_action	 action;
} actions[] = {
	{ "offer", WA_CALL_OFFER },
	{ "offer_notice", WA_CALL_OFFER_NOTICE },
	{ "preaccept", WA_CALL_PREACCEPT },
	{ "accept", WA_CALL_ACCEPT },
	{ "reject", WA_CALL_REJECT },
	{ "terminate", WA_CALL_TERMINATE },
};

/* protocol-features.md 5 ([RS] TERMINATE_REASON_*) */
static const struct {
	const char		*name;
	enum wa_call_reason	 reason;
} reasons[] = {
	{ "timeout", WA_CALL_REASON_TIMEOUT },
	{ "accepted_elsewhere", WA_CALL_REASON_ACCEPTED_ELSEWHERE },
	{ "rejected_elsewhere", WA_CALL_REASON_REJECTED_ELSEWHERE },
	{ "group_call_ended", WA_CALL_REASON_GROUP_ENDED },
};

const char *
wa_call_action_name(enum wa_call_action a)
{
	size_t	 i;

	for (i = 0; i < NITEMS(actions); i++)
		if (actions[i].action == a)
			return actions[i].name;
	return "other";
}

const char *
wa_call_reason_name(enum wa_call_reason r)
{
	size_t	 i;

	for (i = 0; i < NITEMS(reasons); i++)
		if (reasons[i].reason == r)
			return reasons[i].name;
	return "none";
}

/* The action child c: its kind, call-id, creator, media and reason. */
static int
read_action(const struct wa_node *c, struct wa_call *out)
{
	struct wa_str	 tag = c->tag;
	size_t		 i;

	snprintf(out->action_tag, sizeof(out->action_tag), "%.*s",
	    (int)(tag.len < sizeof(out->action_tag) ? tag.len :
	    sizeof(out->action_tag) - 1), tag.p);
	out->action = WA_CALL_OTHER;
	for (i = 0; i < NITEMS(actions); i++)
		if (wa_str_eqc(tag, actions[i].name))
			out->action = actions[i].action;
	wa_node_str_copy(c, "call-id", out->call_id, sizeof(out->call_id));
	if (!wa_node_jid(c, "call-creator", out->creator,
	    sizeof(out->creator)))
		snprintf(out->creator, sizeof(out->creator), "%s", out->from);
	if (!wa_node_jid(c, "group-jid", out->group, sizeof(out->group)))
		out->group[0] = '\0';
	out->group_call = out->group[0] != '\0' ||
	    wa_node_str_is(c, "type", "group") ||
	    out->action == WA_CALL_OFFER_NOTICE;
	/* [BL]: a video call has <video> in its offer */
	out->video = wa_node_child(c, "video") != NULL ||
	    wa_node_str_is(c, "media", "video");
	out->reason = WA_CALL_REASON_NONE;
	for (i = 0; i < NITEMS(reasons); i++)
		if (wa_node_str_is(c, "reason", reasons[i].name))
			out->reason = reasons[i].reason;
	if (out->action != WA_CALL_OTHER && out->action != WA_CALL_PREACCEPT &&
	    out->call_id[0] == '\0')
		return WC_EPROTO;
	return 0;
}

int
wa_call_parse(const struct wa_node *n, struct wa_call *out)
{
	const struct wa_node	*c = NULL;
	int64_t			 t = 0;
	size_t			 i;

	if (n == NULL || out == NULL || !wa_str_eqc(n->tag, "call"))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	wa_node_str_copy(n, "id", out->id, sizeof(out->id));
	if (!wa_node_jid(n, "from", out->from, sizeof(out->from)))
		out->from[0] = '\0';
	out->offline = wa_node_attr(n, "offline") != NULL;
	wa_node_str_copy(n, "notify", out->notify, sizeof(out->notify));
	if (out->id[0] == '\0' || out->from[0] == '\0' ||
	    wa_node_num(n, "t", &t) < 0)
		return WC_EPROTO;
	out->t = t;
	for (i = 0; i < wa_node_nkids(n) && c == NULL; i++)
		c = wa_node_kid(n, i);
	if (c == NULL)
		return WC_EPROTO;
	return read_action(c, out);
}

int
wa_call_reject_build(const char *id, const char *own, const char *to,
    const char *call_id, const char *creator, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*n, *r;

	if (id == NULL || id[0] == '\0' || own == NULL || to == NULL ||
	    call_id == NULL || call_id[0] == '\0' || creator == NULL ||
	    a == NULL || out == NULL)
		return -EINVAL;
	n = wa_nb_new(a, "call", 3);
	wa_nb_attr(n, "id", id);
	if (wa_nb_attr_jid(n, "from", own) != 0 ||
	    wa_nb_attr_jid(n, "to", to) != 0)
		return -EINVAL;
	r = wa_nb_kid(a, wa_nb_kids(a, n, 1), "reject", 3);
	wa_nb_attr(r, "call-id", call_id);
	if (wa_nb_attr_jid(r, "call-creator", creator) != 0)
		return -EINVAL;
	wa_nb_attr(r, "count", "0");
	*out = n;
	return 0;
}
