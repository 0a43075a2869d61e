/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/notice.c -- typed notice lines as stored text codes
 * (base/notice.h).
 */
#include "base/compat.h"

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
