/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/notify.h -- what the screen writes to the terminal to get the
 * user's attention (issue 17 point 3): the bell (BEL), a desktop
 * notification carried by the terminal itself (OSC 777, OSC 9 or
 * OSC 99), which reaches the laptop's desktop also when wachat runs on a
 * server over SSH, and the window title with the count of unread chats
 * (OSC 2).  Inside tmux (the TMUX variable set) the notification is
 * wrapped in tmux's passthrough (DCS tmux; ... ST, every ESC doubled),
 * which tmux 3.3 hands to the outer terminal with `allow-passthrough on`;
 * the bell and the title are tmux's own (its bell-action and set-titles
 * options pass them on).  The sequences as terminals document them:
 * OSC 777 "notify;TITLE;BODY" (urxvt, foot, VTE, WezTerm), OSC 9 "BODY"
 * (iTerm2, WezTerm, Windows Terminal), OSC 99 (kitty's protocol: a title
 * part d=0, then the body p=body).  Pure: each appends to a buffer, the
 * caller writes it after curses' refresh (ui_term_flush()).  Main thread.
 */
#ifndef UI_NOTIFY_H
#define UI_NOTIFY_H

#include <stdbool.h>
#include <stddef.h>

struct buf;

#define UI_NOTIFY_TITLE_MAX	120	/* bytes of a notification's title */
#define UI_NOTIFY_BODY_MAX	240	/* ... and of its body (cut at a
					 * character, "…" added) */

/* How a desktop notification goes through the terminal (the setting
 * notify-terminal). */
enum ui_notify_osc {
	UI_NOTIFY_OSC_NONE,	/* none */
	UI_NOTIFY_OSC_777,	/* ESC ] 777 ; notify ; TITLE ; BODY ESC \ */
	UI_NOTIFY_OSC_9,	/* ESC ] 9 ; TITLE: BODY ESC \ */
	UI_NOTIFY_OSC_99,	/* ESC ] 99 ; i=1:d=0 ; TITLE ESC \ and
				 * ESC ] 99 ; i=1:p=body ; BODY ESC \ */
};

/*
 * The setting's word ("none", "osc777", "osc9", "osc99") as *out.
 * Returns 0, or -EINVAL for another word (*out untouched).
 */
int		ui_notify_osc_parse(const char *word, enum ui_notify_osc *out);

/*
 * Make t[0..len) fit a notification: control characters and the
 * sequence's separators (';' in a title, anything below 0x20, DEL, the
 * C1 range as UTF-8) become spaces, runs of spaces one, cut to max bytes
 * at a character's start with "…" when cut.  Appends to out with a NUL
 * (out->len excludes it).  The input is text already sanitised for the
 * screen (base/sanitize.h); this is the belt to its braces.
 */
void		ui_notify_clean(const char *t, size_t len, size_t max,
		    bool title, struct buf *out);

/*
 * Append the notification of kind osc (not NONE) with title and body
 * (NUL-terminated; cleaned here with ui_notify_clean()) to out, wrapped
 * for tmux when in_tmux.  Nothing for UI_NOTIFY_OSC_NONE.
 */
void		ui_notify_osc(struct buf *out, enum ui_notify_osc osc,
		    bool in_tmux, const char *title, const char *body);

/* Append the bell (BEL, 0x07) to out. */
void		ui_notify_bell(struct buf *out);

/*
 * Append the window title "wachat (N)" (N unread chats; "wachat" when N
 * is 0) as OSC 2 to out.
 */
void		ui_notify_title(struct buf *out, unsigned unread);

/* Append what saves the terminal's title before wachat changes it, and
 * what puts it back at the end (xterm's title stack: CSI 22;0 t and CSI
 * 23;0 t; terminals without it ignore them). */
void		ui_notify_title_push(struct buf *out);
void		ui_notify_title_pop(struct buf *out);

#endif
