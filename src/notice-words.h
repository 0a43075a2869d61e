/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/notice-words.h -- a typed notice line (base/event.h enum
 * ev_notice) in the user's language, for the line mode (src/app-print.c)
 * and the shell (src/cli.c).  Any thread (gettext only).
 */
#ifndef WC_NOTICE_WORDS_H
#define WC_NOTICE_WORDS_H

#include <stddef.h>
#include <stdint.h>

#include "base/event.h"

/*
 * The words of a notice of kind into out[len] (truncated to fit): who
 * names the member (unsanitised: the caller cleans what it prints),
 * device EV_NOTICE_NOT_SENT's device.  Returns 1, or 0 for
 * EV_NOTICE_TEXT (nothing written: its text says it).
 */
int	notice_words(enum ev_notice kind, uint32_t device, const char *who,
	    char *out, size_t len);

/*
 * The words of a notice row stored as text (a code of base/notice.h, or
 * an older row's English): as notice_words() for the kind and device the
 * code names, who the member it names (or "").  Returns 1 with the words
 * in out[len], or 0 when text is a plain notice that says itself.  The
 * chat list's preview and `wachat chats` use it.  Any thread (gettext).
 */
int	notice_text_words(const char *text, const char *who, char *out,
	    size_t len);

#endif
