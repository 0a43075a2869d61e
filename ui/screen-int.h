/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/screen-int.h -- what ui/screen.c and ui/screen-draw.c share, for
 * them alone: the screen's state and its clocks.  Main thread.
 */
#ifndef UI_SCREEN_INT_H
#define UI_SCREEN_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "ui/qr.h"
#include "ui/term.h"
#include "ui/thumb.h"
#include "ui/view.h"

#define UI_SCREEN_PAIR_QR	1	/* curses pair: black on white */
#define UI_SCREEN_PHONE_MAX	20	/* digits of a phone number */

struct ui_screen {
	char		*status;	/* the status line, without countdown */
	char		*base;		/* what the connection's last event
					 * said (connecting, connected,
					 * disk full, ...): the status line
					 * again once an error's time is up */
	char		*qr_text;	/* the QR's text, or NULL */
	struct ui_qr	 qr;		/* valid when qr_text != NULL */
	int64_t		 qr_end;	/* monotonic ms the QR expires */
	char		*code;		/* the phone-number code, or NULL */
	int64_t		 retry_end;	/* reconnect at (ms), 0 when none */
	bool		 linked;	/* EV_PAIRED or EV_CONNECTED seen */
	bool		 idle;		/* the engine waits for the user's
					 * word (EV_DISCONNECTED idle): r,
					 * or Alt-r once linked, starts it
					 * again */
	char		*idle_why;	/* why, while idle; or NULL */
	bool		 colour;	/* UI_SCREEN_PAIR_QR usable */
	bool		 utf8;		/* the locale's codeset is UTF-8: the
					 * half-block QR can be drawn */
	bool		 asking;	/* the phone-number prompt is open */
	bool		 bad_phone;	/* Enter found no phone number in
					 * the prompt: say what one is */
	char		 phone[UI_SCREEN_PHONE_MAX + 1]; /* digits typed */
	struct ui_view	*view;		/* the chat screen, or NULL */
	struct ui_thumb_shown thumbs;	/* the images last written */
	struct ui_term_frame frame;	/* the links last written over the
					 * screen (OSC 8), ui/term.h */
	char		*own;		/* our phone number once connected
					 * (digits), or NULL */
	char		*own_name;	/* our push name (network text, not
					 * sanitised), "" or NULL unknown */
	bool		 online;	/* EV_CONNECTED the last word of the
					 * connection's */
	int64_t		 error_end;	/* an error shown until then (ms,
					 * monotonic), 0 none */
	char		*lasting;	/* a warning kept on the status line
					 * until quit (EV_ERROR's lasting), or
					 * NULL */
	bool		 history_shown;	/* the status line shows history
					 * sync's progress */
	uint64_t	 history_total;	/* messages its chunks added in this
					 * transfer */
	uint32_t	 history_pct;	/* the last chunk's progress, % */
	bool		 unfocused;	/* the terminal said it lost the
					 * focus (ESC [ O, mode 1004) and
					 * has not said it got it back */
};

/* ---- ui/screen-draw.c (ui/screen.c calls it, never the other way) ---- */

/* The monotonic clock (countdowns) and the wall clock (message times,
 * "today"), in ms. */
int64_t		 ui_screen_mono_ms(void);
int64_t		 ui_screen_wall_ms(void);

/* Draw the whole screen from s (erase, draw, refresh). */
void		 ui_screen_draw(struct ui_screen *s);

#endif
