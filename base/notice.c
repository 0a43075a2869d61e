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
	if (strncmp(p, "not-sent ", 9) != 0 || p[9] < '0' || p[9] > '9')
		return;
	d = strtoul(p + 9, &end, 10);
	if (*end != '\0' || d > 0xffff)
		return;
	*kind = EV_NOTICE_NOT_SENT;
	*device = (uint32_t)d;
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
