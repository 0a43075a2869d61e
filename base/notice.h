/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/notice.h -- how a typed notice line (enum ev_notice, base/event.h)
 * is kept in the message store's text column, so that its kind and
 * fields survive a restart and history shows it in the user's language
 * too: a code that no person's message can be (notices are written by
 * wachat only, in rows of kind notice), versioned by its prefix:
 *
 *	"wachat-notice/1 identity"		EV_NOTICE_IDENTITY
 *	"wachat-notice/1 not-sent DEVICE"	EV_NOTICE_NOT_SENT
 *	"wachat-notice/1 call-in MEDIA"		EV_NOTICE_CALL_IN
 *	"wachat-notice/1 call-missed MEDIA"	EV_NOTICE_CALL_MISSED
 *	"wachat-notice/1 call-elsewhere MEDIA"	EV_NOTICE_CALL_ELSEWHERE
 *	"wachat-notice/1 call-declined MEDIA"	EV_NOTICE_CALL_DECLINED
 *
 * MEDIA is voice, video, group-voice or group-video: the EV_CALL_* bits
 * 0 to 3, which notice_parse() gives back as the device.
 *
 * Any other text is EV_NOTICE_TEXT, except the English "security code
 * changed" of older versions, read as EV_NOTICE_IDENTITY.  And the
 * words of a notice in the user's language (gettext), for the screen
 * (ui/msgs.c), the line mode (src/app-print.c) and the shell
 * (src/cli.c).  Any thread.
 */
#ifndef WC_NOTICE_H
#define WC_NOTICE_H

#include <stddef.h>
#include <stdint.h>

#include "base/event.h"

#define NOTICE_CODE_MAX	64	/* bytes of a code, NUL included */

/*
 * The code of a notice of kind (device: EV_NOTICE_NOT_SENT's device, or
 * an EV_NOTICE_CALL_*'s EV_CALL_* bits) into
 * out[len] (len >= NOTICE_CODE_MAX).  Returns 1, or 0 for EV_NOTICE_TEXT
 * or an unknown kind (nothing written: the text is stored as it is).
 */
int	notice_code(enum ev_notice kind, uint32_t device, char *out,
	    size_t len);

/*
 * What the stored text of a notice row says: its kind into *kind and,
 * for EV_NOTICE_NOT_SENT, the device into *device (for EV_NOTICE_CALL_*
 * its EV_CALL_* bits; 0 otherwise).  text
 * may be NULL (EV_NOTICE_TEXT).  A code of a newer version, or a
 * malformed one, is EV_NOTICE_TEXT (shown as it is).
 */
void	notice_parse(const char *text, enum ev_notice *kind,
	    uint32_t *device);

/*
 * The words of a notice of kind into out[len] (truncated to fit): who
 * names the member (unsanitised: the caller cleans what it prints),
 * device EV_NOTICE_NOT_SENT's device or EV_NOTICE_CALL_*'s EV_CALL_*
 * bits ("Missed video call").  Returns 1, or 0 for
 * EV_NOTICE_TEXT (nothing written: its text says it).
 */
int	notice_words(enum ev_notice kind, uint32_t device, const char *who,
	    char *out, size_t len);

/*
 * The words of a notice row stored as text (a code of base/notice.h, or
 * an older row's English): as notice_words() for the kind and device the
 * code names, who the member it names (or "").  Returns 1 with the words
 * in out[len], or 0 when text is a plain notice that says itself.  The
 * chat list's preview and `wachat chats` use it.
 */
int	notice_text_words(const char *text, const char *who, char *out,
	    size_t len);

#endif
