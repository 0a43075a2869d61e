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
 *	"wachat-notice/1 call-rejected MEDIA"	EV_NOTICE_CALL_REJECTED
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

/*
 * A group's event line ("Bob added Carol"), stored as a code that names
 * its people by JID, so that the screen names them as they are known
 * when it is shown, not when it was stored:
 *
 *	"wachat-notice/1 group VERB ACTOR THEM[ SUBJECT]"
 *
 * VERB a word of enum notice_group, ACTOR and each of THEM (joined by
 * ",", "-" for none) a user JID, "me" for us or "-" for someone unknown,
 * SUBJECT (group-subject only) the rest of the line, as it came.
 */
enum notice_group {
	NOTICE_GROUP_CREATE,		/* ACTOR created the group */
	NOTICE_GROUP_SUBJECT,		/* ... changed the subject to S */
	NOTICE_GROUP_DESCRIPTION,	/* ... changed the description */
	NOTICE_GROUP_ADD,		/* ACTOR added THEM */
	NOTICE_GROUP_REMOVE,		/* ACTOR removed THEM */
	NOTICE_GROUP_LEFT,		/* THEM left */
	NOTICE_GROUP_PROMOTE,		/* ACTOR made THEM admins */
	NOTICE_GROUP_DEMOTE,		/* ACTOR dismissed THEM as admins */
	NOTICE_GROUP_DELETED,		/* the group was deleted */
	NOTICE_GROUP_EPHEMERAL,		/* ACTOR turned disappearing
					 * messages on (SUBJECT: the
					 * timer's seconds) or off ("0");
					 * in 1:1 chats too */
};

/* The token of a person in a group code ("me", "-" or the JID). */
#define NOTICE_GROUP_ME		"me"
#define NOTICE_GROUP_SOMEONE	"-"

/*
 * The code of a group event line into out[len]: verb, actor (a token:
 * NULL or "" is someone; a JID with a space or comma too), them (tokens
 * joined by ",", NULL or "" none) and subject (NULL but for
 * NOTICE_GROUP_SUBJECT; its newlines read as spaces).  Returns 1, or 0
 * when it does not fit (out is then "").
 */
int	notice_group_code(enum notice_group verb, const char *actor,
	    const char *them, const char *subject, char *out, size_t len);

/*
 * A disappearing-messages timer of secs seconds in words into out[len]
 * ("24 hours", "7 days", "90 days"; another count of days, hours or
 * seconds as such), in the user's language.  For the event line and the
 * chat's bar (protocol-features.md 3.5).  Any thread.
 */
void	notice_ephem_span(uint32_t secs, char *out, size_t len);

/*
 * The name of the person of user JID jid into out[len] ("" unknown: the
 * number is said instead), for notice_group_words().
 */
typedef void	notice_name_fn(void *arg, const char *jid, char *out,
		    size_t len);

/*
 * The words of a group code text in the user's language into out[len]
 * (truncated to fit): each person named by name(arg, jid, ...) as known
 * now, else by number (+digits), we as You ("You added Bob", "Bob added
 * you"), unsanitised (the caller cleans what it prints).  Returns 1, or
 * 0 when text is not a group code (nothing written).
 */
int	notice_group_words(const char *text, notice_name_fn *name, void *arg,
	    char *out, size_t len);

#endif
