/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/notice-words.c -- typed notice lines in words (src/notice-words.h).
 */
#include "base/compat.h"

#include <stdio.h>

#include "base/i18n.h"
#include "base/notice.h"
#include "src/notice-words.h"

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
