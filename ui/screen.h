/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/screen.h -- the curses screen of the main thread: a status line, the
 * pairing QR code (or, in a terminal too small for it or whose locale is
 * not UTF-8, a message saying so and the phone-number code), and after
 * linking the chat screen (ui/view.h: chat list, messages, input line,
 * help line; without ui_screen_attach() empty panes), or in a window too
 * small for it (under 40x13 with the chat screen, else 20x6) a "window
 * too small" message.  Messages are wrapped at the spaces between words
 * to the window's width.  It takes the engine's events (base/event.h) and
 * keys; the caller's loop watches stdin, SIGWINCH and a one-second timer
 * and calls in here.  Main thread only: the only code that calls curses
 * (with the ui/ modules it draws through).
 */
#ifndef UI_SCREEN_H
#define UI_SCREEN_H

#include <stdbool.h>

#include "base/event.h"
#include "ui/view.h"

struct ui_screen;

/* What a key asks of the caller. */
enum ui_screen_act {
	UI_SCREEN_NONE,		/* nothing */
	UI_SCREEN_QUIT,		/* 'q' or Ctrl-q: stop cleanly */
	UI_SCREEN_PAIR_PHONE,	/* the user typed a phone number to link
				 * by code (protocol.md 6.7) instead of the
				 * QR: ui_screen_phone() has it */
	UI_SCREEN_RECONNECT,	/* r (Alt-r once linked) while the engine
				 * is idle: start it again */
};

/*
 * Take over the terminal (stdin and stdout): cbreak, no echo, keypad,
 * non-blocking reads, and draw the first screen.  The locale must be set
 * already: its codeset (nl_langinfo(CODESET)) decides whether the QR code,
 * drawn with Unicode half blocks, can be shown.  Returns 0 and sets *out, freed with ui_screen_free().
 * Errors: -ENOTTY (no usable terminal).  *out untouched on error.
 */
MUST_CHECK int	ui_screen_new(struct ui_screen **out);

/*
 * After linking, show the chat screen (ui/view.h) with settings o
 * (copied): the chat list, the open chat and the input line; the
 * commands it makes go to push(arg, cmd), which takes each.  Call once,
 * before the first event; without it the linked screen has empty panes.
 */
void		ui_screen_attach(struct ui_screen *s,
		    const struct ui_view_opts *o, ui_view_push_fn push,
		    void *arg);

/* Give the terminal back and free s.  NULL is a no-op. */
void		ui_screen_free(struct ui_screen *s);

/* Take in one event (borrowed) and redraw. */
void		ui_screen_apply(struct ui_screen *s, const struct ev *ev);

/*
 * Read every key waiting on stdin and redraw.  While unlinked and with no
 * code shown, 'p' opens a prompt for the phone number: digits (20 at
 * most), Backspace, Esc closes it; spaces, '-', '(', ')' and '+' are
 * taken and ignored; Enter takes 5 to 20 digits not starting with 0 (what
 * the engine takes, as --pair-phone), else the prompt says what a phone
 * number is and stays open.  Returns UI_SCREEN_QUIT for
 * 'q' (outside the prompt) or Ctrl-q, UI_SCREEN_PAIR_PHONE when Enter
 * took a number, UI_SCREEN_RECONNECT for 'r' while the engine is idle
 * (EV_DISCONNECTED with idle: the QR codes ran out, or a login refused
 * with no retry), else UI_SCREEN_NONE.  Once linked, with the chat
 * screen attached, every key goes to it (ui_view_key(): 'q' is text
 * then) and its quit key (Ctrl-q unless rebound) returns UI_SCREEN_QUIT;
 * but while the engine is idle Alt-r is taken first and returns
 * UI_SCREEN_RECONNECT.
 * Keys are read as wide characters; Esc followed at once by a key is Alt
 * with that key (ui/keys.h).  The terminal's focus reports (ESC [ I, ESC
 * [ O; asked for with mode 1004) are taken here, not keys: what a
 * screen not focused shows is not read (ui_view_seen()).
 */
enum ui_screen_act ui_screen_key(struct ui_screen *s);

/*
 * The phone number the prompt took: digits only, country code first,
 * without '+'; "" before any.  Borrowed from s, valid until the next
 * ui_screen_key().
 */
const char	*ui_screen_phone(const struct ui_screen *s);

/*
 * Ctrl-z: give the terminal back as at exit (curses' endwin(), our modes
 * off: bracketed paste, focus reports) before the caller stops; and
 * resume: take it again after SIGCONT and redraw all.
 */
void		ui_screen_suspend(struct ui_screen *s);
void		ui_screen_resume(struct ui_screen *s);

/* The program is about to stop: the chat screen keeps the open chat's
 * draft (ui_view_quitting(): a CMD_DRAFT through its push function),
 * before the caller sends CMD_QUIT.  NULL, or no chat screen: nothing. */
void		ui_screen_quitting(struct ui_screen *s);

/* The terminal changed size: read the new size and redraw. */
void		ui_screen_resize(struct ui_screen *s);

/* Redraw (the countdowns move on). */
void		ui_screen_render(struct ui_screen *s);

#endif
