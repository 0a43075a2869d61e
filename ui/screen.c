/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/screen.c -- the curses screen (ui/screen.h): the terminal taken and
 * given back, the status line's news from the events (a table of (event
 * kind, handler)), the keys read (Alt, bracketed paste, the pairing
 * prompt) and handed to the chat screen once linked.  Drawing and the
 * clocks are in ui/screen-draw.c, which this file calls and which never
 * calls it.
 */
#include "base/compat.h"

#include <errno.h>
#include <langinfo.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

#include <curses.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/sanitize.h"
#include "ui/qr.h"
#include "ui/screen.h"
#include "ui/screen-int.h"
#include "ui/term.h"
#include "ui/text.h"
#include "ui/view.h"
#include "base/xmalloc.h"

#define KEY_CTRL_Q	0x11
#define KEY_ESC		0x1b
/* Digits of a phone number with its country code, as the engine takes
 * them (--pair-phone, proto/eng.c). */
#define PHONE_MIN	5
#define PHONE_MAX	UI_SCREEN_PHONE_MAX

#define ERROR_SHOWN_MS	8000	/* an error on the status line, once connected */

/* News for a while (an error, history's progress): the connection's
 * state stays in base. */
static void
set_status(struct ui_screen *s, const char *text)
{
	free(s->status);
	s->status = xstrdup(text);
}

/* The connection's state, from its events only: the status line, and
 * what it goes back to when news is over. */
static void
set_base(struct ui_screen *s, const char *text)
{
	set_status(s, text);
	free(s->base);
	s->base = xstrdup(text);
}

/* The status line back to the connection's state. */
static void
show_base(struct ui_screen *s)
{
	if (s->base != NULL)
		set_status(s, s->base);
}

/* "connected as" our name and number, or "linked as" our number
 * (EV_PAIRED's, EV_CONNECTED's); the name sanitised, left out while
 * none is known. */
static void
set_status_number(struct ui_screen *s, bool connected, const char *number)
{
	struct buf	 name = BUF_INIT;
	char		 line[512];

	if (connected && s->own_name != NULL && s->own_name[0] != '\0') {
		wc_sanitize(s->own_name, strlen(s->own_name), false, &name);
		snprintf(line, sizeof(line), _("connected as %s (+%s)"),
		    (const char *)name.p, number);
		buf_release(&name);
	} else if (connected)
		snprintf(line, sizeof(line), _("connected as +%s"), number);
	else
		snprintf(line, sizeof(line), _("linked as +%s"), number);
	set_base(s, line);
}

static void
drop_qr(struct ui_screen *s)
{
	if (s->qr_text == NULL)
		return;
	ui_qr_release(&s->qr);
	free(s->qr_text);
	s->qr_text = NULL;
}

/* A codeset name of UTF-8 ("UTF-8", as glibc names it, or "utf8"). */
static bool
is_utf8(const char *codeset)
{
	return strcasecmp(codeset, "UTF-8") == 0 ||
	    strcasecmp(codeset, "UTF8") == 0;
}

/*
 * Ask the terminal how wide it draws a thumbs up with a skin tone (a
 * cluster of two wide characters): draw it at the start of the line, ask
 * where the cursor is (DSR, ESC [ 6 n; every terminal emulator answers
 * ESC [ row ; col R) and wipe it.  2 columns: it draws clusters whole; 4,
 * or no answer within PROBE_MS: character by character, as wcwidth()
 * says (ui/text.h).  In a UTF-8 locale only, with the terminal in
 * curses' non-canonical mode.
 */
#define PROBE_MS	1000

static bool
probe_clusters(void)
{
	static const char	 ask[] = "\r\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"
				    "\033[6n";
	struct pollfd		 pf = { .fd = STDIN_FILENO, .events = POLLIN };
	char			 b[64], *e;
	size_t			 n = 0;
	ssize_t			 r;
	int			 row, col = 0, left = PROBE_MS;
	struct timespec		 t0, t1;

	fflush(stdout);
	if (write(STDOUT_FILENO, ask, sizeof(ask) - 1) !=
	    (ssize_t)sizeof(ask) - 1)
		return false;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (left > 0 && n < sizeof(b) - 1 && poll(&pf, 1, left) > 0) {
		if ((r = read(STDIN_FILENO, b + n, sizeof(b) - 1 - n)) <= 0)
			break;
		n += (size_t)r;
		b[n] = '\0';
		if ((e = strrchr(b, '\033')) != NULL &&
		    sscanf(e, "\033[%d;%dR", &row, &col) == 2)
			break;
		clock_gettime(CLOCK_MONOTONIC, &t1);
		left = PROBE_MS - (int)((t1.tv_sec - t0.tv_sec) * 1000 +
		    (t1.tv_nsec - t0.tv_nsec) / 1000000);
	}
	(void)!write(STDOUT_FILENO, "\r\033[K", 5);
	return col == 3;	/* the cursor after 2 columns */
}

/* The terminal's modes of ours on or off: bracketed paste (2004) and
 * focus reports (1004); a terminal without them ignores the request. */
static void
modes(bool on)
{
	fputs(on ? "\033[?2004h\033[?1004h" : "\033[?1004l\033[?2004l",
	    stdout);
	fflush(stdout);
}

void
ui_screen_suspend(struct ui_screen *s)
{
	if (s->view != NULL) {
		ui_view_notify_end(s->view);
		ui_term_flush(ui_view_term_out(s->view));
	}
	endwin();
	modes(false);
}

void
ui_screen_resume(struct ui_screen *s)
{
	modes(true);
	clearok(curscr, TRUE);
	ui_screen_resize(s);	/* the size may have changed meanwhile */
}

int
ui_screen_new(struct ui_screen **out)
{
	struct ui_screen	*s;
	struct termios		 t;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return -ENOTTY;
	if (newterm(NULL, stdout, stdin) == NULL)
		return -ENOTTY;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	curs_set(0);
	set_escdelay(25);	/* Esc alone, not the start of a sequence */
	/* Bracketed paste: a pasted text comes between two marks, so its
	 * newlines are newlines, not Enter (a terminal without mode 2004
	 * ignores the request). */
	define_key("\033[200~", UI_CURSES_PASTE_BEGIN);
	define_key("\033[201~", UI_CURSES_PASTE_END);
	/* Focus reports (mode 1004): what is read is what a focused
	 * screen showed (ui_view_seen()). */
	define_key("\033[I", UI_CURSES_FOCUS_IN);
	define_key("\033[O", UI_CURSES_FOCUS_OUT);
	modes(true);
	/* Ctrl-q is a key here, not XON. */
	if (tcgetattr(STDIN_FILENO, &t) == 0) {
		t.c_iflag &= ~(tcflag_t)IXON;
		(void)tcsetattr(STDIN_FILENO, TCSANOW, &t);
		def_prog_mode();
	}
	s = xcalloc(1, sizeof(*s));
	s->utf8 = is_utf8(nl_langinfo(CODESET));
	ui_text_set_ascii(!s->utf8);
	if (s->utf8)
		ui_text_set_clusters(probe_clusters());
	if (has_colors() && start_color() == OK &&
	    init_pair(UI_SCREEN_PAIR_QR, COLOR_BLACK, COLOR_WHITE) == OK) {
		s->colour = true;
		ui_view_colours();
	}
	set_base(s, _("starting…"));
	ui_screen_render(s);
	*out = s;
	return 0;
}

void
ui_screen_attach(struct ui_screen *s, const struct ui_view_opts *o,
    ui_view_push_fn push, void *arg)
{
	ui_view_free(s->view);
	s->view = ui_view_new(o, push, arg);
	ui_view_set_ascii(s->view, !s->utf8);
	/* Mouse reports: a click, the wheel (ui_view_mouse()); curses
	 * turns them off at endwin() and on again after. */
	if (o->mouse) {
		(void)mousemask(BUTTON1_PRESSED | BUTTON4_PRESSED |
		    BUTTON5_PRESSED, NULL);
		(void)mouseinterval(0);
	}
}

static void	mouse_event(struct ui_screen *s);

/* What the terminal says rather than the user types: a resize (curses'
 * resizeterm() takes it), the focus reports, the mouse.  True when k was
 * one of them, taken here. */
static bool
terminal_key(struct ui_screen *s, int k)
{
	if (k == UI_KEY_FN + KEY_RESIZE)
		return true;
	if (k == UI_KEY_FOCUS_IN || k == UI_KEY_FOCUS_OUT) {
		s->unfocused = k == UI_KEY_FOCUS_OUT;
		return true;	/* seen or not: ui_screen_render() */
	}
	if (k == UI_KEY_FN + KEY_MOUSE) {
		if (s->linked && LINES - 1 >= UI_VIEW_MIN_ROWS &&
		    COLS >= UI_VIEW_MIN_COLS)
			mouse_event(s);
		return true;
	}
	return false;
}

/* A KEY_MOUSE: what curses read of it, to the chat screen. */
static void
mouse_event(struct ui_screen *s)
{
	MEVENT	 me;

	if (getmouse(&me) != OK || s->view == NULL)
		return;
	if (me.bstate & BUTTON1_PRESSED)
		ui_view_mouse(s->view, me.y, me.x, UI_VIEW_CLICK,
		    ui_screen_wall_ms());
	else if (me.bstate & BUTTON4_PRESSED)
		ui_view_mouse(s->view, me.y, me.x, UI_VIEW_WHEEL_UP,
		    ui_screen_wall_ms());
	else if (me.bstate & BUTTON5_PRESSED)
		ui_view_mouse(s->view, me.y, me.x, UI_VIEW_WHEEL_DOWN,
		    ui_screen_wall_ms());
}

void
ui_screen_free(struct ui_screen *s)
{
	if (s == NULL)
		return;
	if (s->view != NULL) {
		ui_view_notify_end(s->view);
		ui_term_flush(ui_view_term_out(s->view));
	}
	endwin();
	modes(false);
	ui_view_free(s->view);
	ui_term_frame_release(&s->frame);
	drop_qr(s);
	free(s->code);
	free(s->idle_why);
	free(s->status);
	free(s->base);
	free(s->own);
	free(s->own_name);
	free(s->lasting);
	free(s);
}

/*
 * What each event does to the status line (the chat screen has had it
 * already).  Each takes the event borrowed; a kind without one (the
 * chat panes' own: messages, chats, pages, groups, search) changes
 * nothing here.  The connection's news clears an error shown.
 */
static void
on_connecting(struct ui_screen *s, const struct ev *ev)
{
	(void)ev;
	s->error_end = 0;
	s->online = false;
	s->retry_end = 0;
	s->idle = false;
	free(s->idle_why);
	s->idle_why = NULL;
	set_base(s, _("connecting…"));
}

static void
on_qr(struct ui_screen *s, const struct ev *ev)
{
	drop_qr(s);
	if (ui_qr_make(ev->u.qr.code, &s->qr) == 0) {
		s->qr_text = xstrdup(ev->u.qr.code);
		s->qr_end = ui_screen_mono_ms() + (int64_t)ev->u.qr.secs * 1000;
	}
	set_base(s, _("waiting for the scan"));
}

static void
on_pair_code(struct ui_screen *s, const struct ev *ev)
{
	drop_qr(s);	/* the code replaces the QR codes */
	free(s->code);
	s->code = xstrdup(ev->u.pair_code.code);
	set_base(s, _("waiting for the code to be entered"));
}

static void
on_paired(struct ui_screen *s, const struct ev *ev)
{
	drop_qr(s);
	s->linked = true;
	set_status_number(s, false, ev->u.paired.number);
}

/* EV_LINKED: the account linked before, at start: the chat screen's
 * keys from now on (q is text), whether or not a connection comes. */
static void
on_linked(struct ui_screen *s, const struct ev *ev)
{
	drop_qr(s);
	s->linked = true;
	free(s->own);
	s->own = xstrdup(ev->u.linked.number);
	free(s->own_name);
	s->own_name = xstrdup(ev->u.linked.name);
	set_status_number(s, false, s->own);
}

static void
on_connected(struct ui_screen *s, const struct ev *ev)
{
	s->error_end = 0;
	drop_qr(s);
	s->linked = true;
	s->retry_end = 0;
	free(s->own);
	s->own = xstrdup(ev->u.connected.number);
	free(s->own_name);
	s->own_name = xstrdup(ev->u.connected.name);
	s->online = true;
	set_status_number(s, true, s->own);
}

/* Our push name came while connected: the status line says it (at once,
 * unless news is shown; then once the news is over). */
static void
on_own_name(struct ui_screen *s, const struct ev *ev)
{
	char	*news;

	free(s->own_name);
	s->own_name = xstrdup(ev->u.own_name.name);
	if (!s->online || s->own == NULL)
		return;
	news = s->history_shown || s->error_end != 0 ?
	    xstrdup(s->status) : NULL;
	set_status_number(s, true, s->own);
	if (news != NULL) {
		set_status(s, news);
		free(news);
	}
}

static void
on_disconnected(struct ui_screen *s, const struct ev *ev)
{
	const struct ev_disconnected *d = &ev->u.disconnected;
	char	 line[512];

	s->error_end = 0;
	s->online = false;
	if (d->idle) {
		/* no attempt until the user's word: the key first, so
		 * that a narrow status line still shows it; then why */
		s->idle = true;
		s->retry_end = 0;
		drop_qr(s);
		free(s->code);	/* a link code dies with its refs */
		s->code = NULL;
		free(s->idle_why);
		s->idle_why = xstrdup(d->why);
		if (s->linked)
			snprintf(line, sizeof(line), _("stopped (Alt-r tries "
			    "again): %s"), d->why);
		else
			snprintf(line, sizeof(line), _("stopped (r for a new "
			    "QR code): %s"), d->why);
	} else if (d->err == -ENOSPC) {
		/* offline until there is room: "disk full: ..." as it is */
		s->retry_end = 0;
		snprintf(line, sizeof(line), "%s", d->why);
	} else if (d->retry_ms == 0) {
		s->retry_end = 0;
		snprintf(line, sizeof(line), _("reconnecting: %s"), d->why);
	} else {
		s->retry_end = ui_screen_mono_ms() + d->retry_ms;
		snprintf(line, sizeof(line), "%s", d->why);
	}
	set_base(s, line);
}

static void
on_logged_out(struct ui_screen *s, const struct ev *ev)
{
	char	 line[512];

	s->error_end = 0;
	s->online = false;
	drop_qr(s);
	s->linked = false;
	snprintf(line, sizeof(line), _("logged out: %s"),
	    ev->u.logged_out.why);
	set_base(s, line);
}

static void
on_error(struct ui_screen *s, const struct ev *ev)
{
	char	 line[512];

	if (ev->u.error.err == 0)	/* information */
		snprintf(line, sizeof(line), "%s", ev->u.error.what);
	else
		snprintf(line, sizeof(line), _("error: %s (%s)"),
		    ev->u.error.what, wc_strerror(ev->u.error.err));
	set_status(s, line);
	if (ev->u.error.lasting[0] != '\0') {
		free(s->lasting);
		s->lasting = xstrdup(ev->u.error.lasting);
	}
	/* an error is said for a while, then the status line is back to
	 * the connection's state as its last event said it (never a
	 * "connected" the engine has left since) */
	s->error_end = s->base != NULL ? ui_screen_mono_ms() +
	    ERROR_SHOWN_MS : 0;
}

static void
on_stopped(struct ui_screen *s, const struct ev *ev)
{
	(void)ev;
	s->error_end = 0;
	s->online = false;
	set_base(s, _("stopped"));
}

/* The backlog coming in (issue 9), in the status line. */
static void
on_history(struct ui_screen *s, const struct ev *ev)
{
	const struct ev_history	*h = &ev->u.history;
	char	 line[512];

	/* the messages of every chunk of this transfer, not the last one's
	 * (the queue may run empty between chunks: a transfer ends at 100%,
	 * or a new one starts lower) */
	if (h->step == EV_HISTORY_CHUNK) {
		if (s->history_pct >= 100 || h->progress < s->history_pct)
			s->history_total = 0;
		s->history_pct = h->progress;
		s->history_total += h->stored;
		snprintf(line, sizeof(line), _("history: %lu%% "
		    "(%llu messages added)"), (unsigned long)h->progress,
		    (unsigned long long)s->history_total);
	}
	else if (h->step == EV_HISTORY_REFUSED)
		snprintf(line, sizeof(line), _("history: a part was "
		    "skipped: %s"), h->why);
	if (h->step != EV_HISTORY_IDLE)
		set_status(s, line);
	else if (s->history_shown)
		show_base(s);	/* done */
	s->history_shown = h->step != EV_HISTORY_IDLE;
}

static void (*const on_event[])(struct ui_screen *, const struct ev *) = {
	[EV_CONNECTING] =	on_connecting,
	[EV_QR] =		on_qr,
	[EV_PAIR_CODE] =	on_pair_code,
	[EV_PAIRED] =		on_paired,
	[EV_CONNECTED] =	on_connected,
	[EV_DISCONNECTED] =	on_disconnected,
	[EV_LOGGED_OUT] =	on_logged_out,
	[EV_ERROR] =		on_error,
	[EV_STOPPED] =		on_stopped,
	[EV_HISTORY] =		on_history,
	[EV_OWN_NAME] =		on_own_name,
	[EV_LINKED] =		on_linked,
};

void
ui_screen_apply(struct ui_screen *s, const struct ev *ev)
{
	size_t	 k = (size_t)ev->kind;

	if (s->view != NULL)
		ui_view_apply(s->view, ev, ui_screen_wall_ms());
	if (k < sizeof(on_event) / sizeof(on_event[0]) && on_event[k] != NULL)
		on_event[k](s, ev);
	ui_screen_render(s);
}

/*
 * A key while the phone-number prompt is open.  It takes what the engine
 * takes (--pair-phone): 5 to 20 digits, country code first (so not a
 * leading 0); spaces, '-', '(', ')' and '+' as people write numbers are
 * taken and ignored.
 */
static enum ui_screen_act
prompt_key(struct ui_screen *s, int k)
{
	size_t	 n = strlen(s->phone);

	if (k == KEY_ESC) {
		s->asking = false;
	} else if (k == KEY_BACKSPACE || k == 0x7f || k == 0x08) {
		if (n > 0)
			s->phone[n - 1] = '\0';
		s->bad_phone = false;
	} else if (k >= '0' && k <= '9') {
		if (n < PHONE_MAX) {
			s->phone[n] = (char)k;
			s->phone[n + 1] = '\0';
		}
		s->bad_phone = false;
	} else if (k == '\r' || k == '\n' || k == KEY_ENTER) {
		if (n < PHONE_MIN || s->phone[0] == '0') {
			s->bad_phone = true;
			return UI_SCREEN_NONE;
		}
		s->asking = false;
		set_base(s, _("asking for a code…"));
		return UI_SCREEN_PAIR_PHONE;
	}
	/* ' ', '-', '(', ')', '+' and anything else: nothing to do. */
	return UI_SCREEN_NONE;
}

/*
 * After Esc [: the rest of a cursor-position report (digits ; digits R)
 * that came after probe_clusters() stopped waiting for it: read and
 * dropped, true.  Anything else is given back, in order, false.
 */
static bool
late_reply(void)
{
	wint_t	 got[16], fkey = 0;
	int	 n = 0, semi = 0, r;

	while (n < 16 && (r = get_wch(&got[n])) != ERR) {
		if (r == KEY_CODE_YES) {	/* a function key: not one */
			fkey = got[n];
			break;
		}
		n++;
		if (got[n - 1] == L'R' && semi == 1 && n > 3)
			return true;
		if (got[n - 1] == L';' && n > 1)
			semi++;
		else if (got[n - 1] < L'0' || got[n - 1] > L'9')
			break;
	}
	if (fkey != 0)
		(void)ungetch((int)fkey);
	while (n-- > 0)
		unget_wch(got[n]);
	return false;
}

static int	read_key(void);

/*
 * The next key waiting, or -1: a character as its code point, a function
 * key as UI_KEY_FN + its KEY_* code, Esc with a key right behind it as
 * UI_KEY_ALT + that key (ui/keys.h); a second Esc is not swallowed.
 */
static int
read_key(void)
{
	wint_t	 wc;
	int	 r, k;

	if ((r = get_wch(&wc)) == ERR)
		return -1;
	k = r == KEY_CODE_YES ? UI_KEY_FN + (int)wc : (int)wc;
	if (k == KEY_ESC && (r = get_wch(&wc)) != ERR) {
		if (r == KEY_CODE_YES)
			return UI_KEY_ALT + UI_KEY_FN + (int)wc;
		if (wc == L'[' && late_reply())
			return read_key();
		if ((int)wc != KEY_ESC)
			return UI_KEY_ALT + (int)wc;
		unget_wch(wc);	/* Esc Esc: two Escs, the second read next */
	}
	return k;
}

enum ui_screen_act
ui_screen_key(struct ui_screen *s)
{
	enum ui_screen_act	 act = UI_SCREEN_NONE, a;
	int			 k;

	while ((k = read_key()) != -1) {
		if (terminal_key(s, k))
			continue;
		if (s->idle && (k == UI_KEY_ALT + 'r' || (!s->linked &&
		    !s->asking && k == 'r'))) {
			s->idle = false;	/* once: the engine says on */
			return UI_SCREEN_RECONNECT;
		}
		if (s->linked && s->view != NULL) {
			/* a window too small to show the chat screen takes
			 * no key but quit: nothing acts unseen */
			if ((LINES - 1 < UI_VIEW_MIN_ROWS ||
			    COLS < UI_VIEW_MIN_COLS) &&
			    !ui_view_is_quit_key(s->view, k))
				continue;
			if (ui_view_key(s->view, k, ui_screen_wall_ms()))
				return UI_SCREEN_QUIT;
			continue;
		}
		/* Before linking: the pairing screen's keys, in curses'
		 * codes; other characters do nothing there. */
		if (k >= UI_KEY_FN && k < UI_KEY_ALT)
			k -= UI_KEY_FN;
		else if (k >= 0x100)
			continue;
		if (k == KEY_CTRL_Q)
			return UI_SCREEN_QUIT;
		if (k == KEY_RESIZE)	/* resizeterm() says so */
			;
		else if (s->asking) {
			if ((a = prompt_key(s, k)) != UI_SCREEN_NONE)
				act = a;
		} else if (k == 'q')
			return UI_SCREEN_QUIT;
		else if (k == 'p' && !s->linked && s->code == NULL) {
			s->asking = true;
			s->bad_phone = false;
			s->phone[0] = '\0';
		}
	}
	ui_screen_render(s);
	return act;
}

const char *
ui_screen_phone(const struct ui_screen *s)
{
	return s->phone;
}

void
ui_screen_quitting(struct ui_screen *s)
{
	if (s != NULL && s->view != NULL)
		ui_view_quitting(s->view);
}

void
ui_screen_resize(struct ui_screen *s)
{
	struct winsize	 ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	ui_screen_render(s);
}

void
ui_screen_render(struct ui_screen *s)
{
	int64_t	 now = ui_screen_wall_ms();

	if (s->view != NULL) {
		ui_view_seen(s->view, !s->unfocused && LINES - 1 >=
		    UI_VIEW_MIN_ROWS && COLS >= UI_VIEW_MIN_COLS, now);
		ui_view_tick(s->view, now);
	}
	if (s->error_end != 0 && ui_screen_mono_ms() >= s->error_end) {
		s->error_end = 0;
		show_base(s);
	}
	ui_screen_draw(s);
}
