/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/notice.c -- typed notice lines as stored text codes
 * (base/notice.h).
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/notice.h"

#define PREFIX		"wachat-notice/1 "
#define NITEMS(a)	(sizeof(a) / sizeof((a)[0]))

/* The calls' codes: "call-in voice", "call-missed group-video", ... */
static const struct {
	enum ev_notice	 kind;
	const char	*word;
} calls[] = {
	{ EV_NOTICE_CALL_IN, "call-in" },
	{ EV_NOTICE_CALL_MISSED, "call-missed" },
	{ EV_NOTICE_CALL_ELSEWHERE, "call-elsewhere" },
	{ EV_NOTICE_CALL_DECLINED, "call-declined" },
	{ EV_NOTICE_CALL_REJECTED, "call-rejected" },
};

/* By EV_CALL_* bits (video 1, group 2). */
static const char *const media[] = {
	"voice", "video", "group-voice", "group-video",
};

static const char *
call_word(enum ev_notice kind)
{
	size_t	 i;

	for (i = 0; i < NITEMS(calls); i++)
		if (calls[i].kind == kind)
			return calls[i].word;
	return NULL;
}

/* p, after the prefix, as a call's code: 1 and *kind, *bits, or 0. */
static int
call_parse(const char *p, enum ev_notice *kind, uint32_t *bits)
{
	size_t	 i, k, l;

	for (i = 0; i < NITEMS(calls); i++) {
		l = strlen(calls[i].word);
		if (strncmp(p, calls[i].word, l) != 0 || p[l] != ' ')
			continue;
		for (k = 0; k < NITEMS(media); k++)
			if (strcmp(p + l + 1, media[k]) == 0) {
				*kind = calls[i].kind;
				*bits = (uint32_t)k;
				return 1;
			}
	}
	return 0;
}

int
notice_code(enum ev_notice kind, uint32_t device, char *out, size_t len)
{
	switch (kind) {
	case EV_NOTICE_IDENTITY:
		snprintf(out, len, PREFIX "identity");
		return 1;
	case EV_NOTICE_NOT_SENT:
		snprintf(out, len, PREFIX "not-sent %u", (unsigned)device);
		return 1;
	case EV_NOTICE_CALL_IN:
	case EV_NOTICE_CALL_MISSED:
	case EV_NOTICE_CALL_ELSEWHERE:
	case EV_NOTICE_CALL_DECLINED:
	case EV_NOTICE_CALL_REJECTED:
		snprintf(out, len, PREFIX "%s %s", call_word(kind),
		    media[device & (EV_CALL_VIDEO | EV_CALL_GROUP)]);
		return 1;
	case EV_NOTICE_TEXT:
		break;
	}
	return 0;
}

void
notice_parse(const char *text, enum ev_notice *kind, uint32_t *device)
{
	const char	*p;
	char		*end;
	unsigned long	 d;

	*kind = EV_NOTICE_TEXT;
	*device = 0;
	if (text == NULL)
		return;
	if (strcmp(text, "security code changed") == 0) {
		*kind = EV_NOTICE_IDENTITY;	/* stored by older versions */
		return;
	}
	if (strncmp(text, PREFIX, strlen(PREFIX)) != 0)
		return;
	p = text + strlen(PREFIX);
	if (strcmp(p, "identity") == 0) {
		*kind = EV_NOTICE_IDENTITY;
		return;
	}
	if (call_parse(p, kind, device))
		return;
	if (strncmp(p, "not-sent ", 9) != 0 || p[9] < '0' || p[9] > '9')
		return;
	d = strtoul(p + 9, &end, 10);
	if (*end != '\0' || d > 0xffff)
		return;
	*kind = EV_NOTICE_NOT_SENT;
	*device = (uint32_t)d;
}

/* The words of a call's notice (gettext): by kind, then EV_CALL_* bits. */
static const char *
call_words(enum ev_notice kind, uint32_t bits)
{
	static const char *const in[] = {
		N_("Incoming voice call"), N_("Incoming video call"),
		N_("Incoming group voice call"),
		N_("Incoming group video call"),
	};
	static const char *const missed[] = {
		N_("Missed voice call"), N_("Missed video call"),
		N_("Missed group voice call"), N_("Missed group video call"),
	};
	static const char *const declined[] = {
		N_("Declined voice call"), N_("Declined video call"),
		N_("Declined group voice call"),
		N_("Declined group video call"),
	};
	size_t	 k = bits & (EV_CALL_VIDEO | EV_CALL_GROUP);

	switch (kind) {
	case EV_NOTICE_CALL_IN:
		return _(in[k]);
	case EV_NOTICE_CALL_MISSED:
		return _(missed[k]);
	case EV_NOTICE_CALL_ELSEWHERE:
		return _("Answered on another device");
	case EV_NOTICE_CALL_DECLINED:
		return _("Declined on another device");
	case EV_NOTICE_CALL_REJECTED:
		return _(declined[k]);
	default:
		break;
	}
	return "";
}

int
notice_words(enum ev_notice kind, uint32_t device, const char *who,
    char *out, size_t len)
{
	switch (kind) {
	case EV_NOTICE_TEXT:
		return 0;
	case EV_NOTICE_IDENTITY:
		snprintf(out, len, "%s", _("security code changed"));
		return 1;
	case EV_NOTICE_NOT_SENT:
		snprintf(out, len, _("message not sent to %s's device %u: its "
		    "encryption failed (the session is rebuilt for the next "
		    "message)"), who, (unsigned)device);
		return 1;
	case EV_NOTICE_CALL_IN:
	case EV_NOTICE_CALL_MISSED:
	case EV_NOTICE_CALL_ELSEWHERE:
	case EV_NOTICE_CALL_DECLINED:
	case EV_NOTICE_CALL_REJECTED:
		snprintf(out, len, "%s", call_words(kind, device));
		return 1;
	}
	return 0;
}

int
notice_text_words(const char *text, const char *who, char *out, size_t len)
{
	enum ev_notice	 kind;
	uint32_t	 device;

	notice_parse(text, &kind, &device);
	return notice_words(kind, device, who, out, len);
}

/* ---- group event lines ---- */

static const char *const group_verbs[] = {
	[NOTICE_GROUP_CREATE] = "create",
	[NOTICE_GROUP_SUBJECT] = "subject",
	[NOTICE_GROUP_DESCRIPTION] = "description",
	[NOTICE_GROUP_ADD] = "add",
	[NOTICE_GROUP_REMOVE] = "remove",
	[NOTICE_GROUP_LEFT] = "left",
	[NOTICE_GROUP_PROMOTE] = "promote",
	[NOTICE_GROUP_DEMOTE] = "demote",
	[NOTICE_GROUP_DELETED] = "deleted",
	[NOTICE_GROUP_EPHEMERAL] = "ephemeral",
};

#define GROUP_PREFIX	PREFIX "group "

/* Whether s can stand as one token of a code. */
static bool
token_ok(const char *s)
{
	return s != NULL && s[0] != '\0' && strcspn(s, " ,\n\r\t") ==
	    strlen(s);
}

int
notice_group_code(enum notice_group verb, const char *actor,
    const char *them, const char *subject, char *out, size_t len)
{
	size_t	 k;
	int	 n;

	if (len == 0)
		return 0;
	out[0] = '\0';
	if ((unsigned)verb >= NITEMS(group_verbs))
		return 0;
	if (them != NULL && them[0] != '\0' && strcspn(them, " \n\r\t") !=
	    strlen(them))
		them = NULL;
	n = snprintf(out, len, GROUP_PREFIX "%s %s %s%s%s", group_verbs[verb],
	    token_ok(actor) ? actor : NOTICE_GROUP_SOMEONE,
	    them != NULL && them[0] != '\0' ? them : NOTICE_GROUP_SOMEONE,
	    subject != NULL ? " " : "", subject != NULL ? subject : "");
	if (n < 0 || (size_t)n >= len) {
		out[0] = '\0';
		return 0;
	}
	for (k = 0; out[k] != '\0'; k++)
		if (out[k] == '\n' || out[k] == '\r')
			out[k] = ' ';
	return 1;
}

/* The name of token t (its len bytes) into out[len]: we, someone, or a
 * person by name, else by number.  me: the words for us. */
static void
token_name(const char *t, size_t tlen, notice_name_fn *name, void *arg,
    const char *me, char *out, size_t len)
{
	char	 jid[160];
	size_t	 u;

	if (tlen == strlen(NOTICE_GROUP_ME) && strncmp(t, NOTICE_GROUP_ME,
	    tlen) == 0) {
		snprintf(out, len, "%s", me);
		return;
	}
	if (tlen == 0 || tlen >= sizeof(jid) || (tlen == 1 && t[0] == '-')) {
		snprintf(out, len, "%s", _("someone"));
		return;
	}
	memcpy(jid, t, tlen);
	jid[tlen] = '\0';
	out[0] = '\0';
	if (name != NULL)
		name(arg, jid, out, len);
	if (out[0] != '\0')
		return;
	/* by number: +digits of a phone JID, else its user part */
	u = strcspn(jid, "@:");
	if (strcmp(jid + strcspn(jid, "@"), "@s.whatsapp.net") == 0)
		snprintf(out, len, "+%.*s", (int)u, jid);
	else
		snprintf(out, len, "%.*s", (int)u, jid);
}

/* The people of list (tokens joined by ",", ending at a space or NUL),
 * named and joined by ", ", into out[len]. */
static void
token_names(const char *list, notice_name_fn *name, void *arg, char *out,
    size_t len)
{
	char	 one[200];
	size_t	 k = 0, t;
	int	 n;

	out[0] = '\0';
	for (;;) {
		t = strcspn(list, ", ");
		token_name(list, t, name, arg, _("you"), one, sizeof(one));
		n = snprintf(out + k, len - k, "%s%s", k > 0 ? ", " : "", one);
		if (n < 0 || (size_t)n >= len - k)
			return;		/* truncated */
		k += (size_t)n;
		if (list[t] != ',')
			return;
		list += t + 1;
	}
}

void
notice_ephem_span(uint32_t secs, char *out, size_t len)
{
	unsigned long	 n;

	if (secs > 86400 && secs % 86400 == 0) {
		n = secs / 86400;
		snprintf(out, len, ngettext("%lu day", "%lu days", n), n);
	} else if (secs > 0 && secs % 3600 == 0) {
		n = secs / 3600;
		snprintf(out, len, ngettext("%lu hour", "%lu hours", n), n);
	} else {
		n = secs;
		snprintf(out, len, ngettext("%lu second", "%lu seconds", n),
		    n);
	}
}

static void	verb_words(enum notice_group v, bool me, const char *actor,
		    const char *them, const char *t, const char *subject,
		    char *out, size_t len);

/* The words of a timer change: subject holds its seconds. */
static void
ephem_words(bool me, const char *actor, const char *subject, char *out,
    size_t len)
{
	char		 span[64];
	char		*end;
	unsigned long	 secs = strtoul(subject, &end, 10);

	if (end == subject || secs > UINT32_MAX)
		secs = 0;
	if (secs == 0) {
		if (me)
			snprintf(out, len, "%s",
			    _("You turned off disappearing messages"));
		else
			snprintf(out, len, _("%s turned off disappearing "
			    "messages"), actor);
		return;
	}
	notice_ephem_span((uint32_t)secs, span, sizeof(span));
	if (me)
		snprintf(out, len, _("You turned on disappearing messages: "
		    "%s"), span);
	else
		snprintf(out, len, _("%s turned on disappearing messages: %s"),
		    actor, span);
}

int
notice_group_words(const char *text, notice_name_fn *name, void *arg,
    char *out, size_t len)
{
	char		 actor[200], them[600];
	const char	*p, *a, *t, *subject;
	size_t		 v, l, alen;
	bool		 me;

	if (text == NULL || len == 0 || strncmp(text, GROUP_PREFIX,
	    strlen(GROUP_PREFIX)) != 0)
		return 0;
	p = text + strlen(GROUP_PREFIX);
	for (v = 0; v < NITEMS(group_verbs); v++) {
		l = strlen(group_verbs[v]);
		if (strncmp(p, group_verbs[v], l) == 0 && p[l] == ' ')
			break;
	}
	if (v == NITEMS(group_verbs))
		return 0;
	a = p + l + 1;
	alen = strcspn(a, " ");
	if (a[alen] != ' ')
		return 0;
	t = a + alen + 1;
	subject = t + strcspn(t, " ");
	if (*subject == ' ')
		subject++;
	me = alen == strlen(NOTICE_GROUP_ME) && strncmp(a, NOTICE_GROUP_ME,
	    alen) == 0;
	token_name(a, alen, name, arg, _("You"), actor, sizeof(actor));
	token_names(t, name, arg, them, sizeof(them));
	if ((enum notice_group)v == NOTICE_GROUP_EPHEMERAL)
		ephem_words(me, actor, subject, out, len);
	else
		verb_words((enum notice_group)v, me, actor, them, t, subject,
		    out, len);
	return 1;
}

/* The words of group code verb v (not EPHEMERAL): me, the actor is us;
 * actor and them named, t the THEM tokens, subject its rest. */
static void
verb_words(enum notice_group v, bool me, const char *actor,
    const char *them, const char *t, const char *subject, char *out,
    size_t len)
{
	switch (v) {
	case NOTICE_GROUP_CREATE:
		if (me)
			snprintf(out, len, "%s", _("You created the group"));
		else
			snprintf(out, len, _("%s created the group"), actor);
		break;
	case NOTICE_GROUP_SUBJECT:
		if (me)
			snprintf(out, len, _("You changed the subject to "
			    "\"%s\""), subject);
		else
			snprintf(out, len, _("%s changed the subject to "
			    "\"%s\""), actor, subject);
		break;
	case NOTICE_GROUP_DESCRIPTION:
		if (me)
			snprintf(out, len, "%s",
			    _("You changed the group description"));
		else
			snprintf(out, len, _("%s changed the group "
			    "description"), actor);
		break;
	case NOTICE_GROUP_ADD:
		if (me)
			snprintf(out, len, _("You added %s"), them);
		else
			snprintf(out, len, _("%s added %s"), actor, them);
		break;
	case NOTICE_GROUP_REMOVE:
		if (me)
			snprintf(out, len, _("You removed %s"), them);
		else
			snprintf(out, len, _("%s removed %s"), actor, them);
		break;
	case NOTICE_GROUP_LEFT:
		if (strncmp(t, NOTICE_GROUP_ME, strlen(NOTICE_GROUP_ME)) == 0 &&
		    (t[2] == ' ' || t[2] == '\0'))
			snprintf(out, len, "%s", _("You left"));
		else
			snprintf(out, len, _("%s left"), them);
		break;
	case NOTICE_GROUP_PROMOTE:
		if (me)
			snprintf(out, len, _("You made %s an admin"), them);
		else
			snprintf(out, len, _("%s made %s an admin"), actor,
			    them);
		break;
	case NOTICE_GROUP_DEMOTE:
		if (me)
			snprintf(out, len, _("You dismissed %s as admin"),
			    them);
		else
			snprintf(out, len, _("%s dismissed %s as admin"),
			    actor, them);
		break;
	case NOTICE_GROUP_DELETED:
		snprintf(out, len, "%s", _("The group was deleted"));
		break;
	case NOTICE_GROUP_EPHEMERAL:
		break;	/* ephem_words() */
	}
}
