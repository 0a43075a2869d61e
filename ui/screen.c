/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/screen.c -- the curses screen (ui/screen.h). */
#include "compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>

#include "buf.h"
#include "err.h"
#include "i18n.h"
#include "qr.h"
#include "screen.h"
#include "xmalloc.h"

#define PAIR_QR		1	/* black on white */
#define KEY_CTRL_Q	0x11
#define KEY_ESC		0x1b
#define PHONE_MIN	7	/* digits of the shortest number with its
				 * country code (E.164 allows 15 at most) */
#define PHONE_MAX	15

struct ui_screen {
	char		*status;	/* the status line, without countdown */
	char		*qr_text;	/* the QR's text, or NULL */
	struct ui_qr	 qr;		/* valid when qr_text != NULL */
	int64_t		 qr_end;	/* monotonic ms the QR expires */
	char		*code;		/* the phone-number code, or NULL */
	int64_t		 retry_end;	/* reconnect at (ms), 0 when none */
	bool		 linked;	/* EV_PAIRED or EV_CONNECTED seen */
	bool		 colour;	/* PAIR_QR usable */
	bool		 asking;	/* the phone-number prompt is open */
	char		 phone[PHONE_MAX + 1];	/* digits typed so far */
};

static int64_t
mono_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Seconds from now until end_ms, rounded up, never below 0. */
static long
secs_left(int64_t end_ms)
{
	int64_t	 d = end_ms - mono_ms();

	return d <= 0 ? 0 : (long)((d + 999) / 1000);
}

static void
set_status(struct ui_screen *s, const char *text)
{
	free(s->status);
	s->status = xstrdup(text);
}

/* The phone number of a JID ("15550000001:1@s.whatsapp.net"). */
static void
set_status_jid(struct ui_screen *s, bool connected, const char *jid)
{
	size_t	 n = strcspn(jid, ":@");
	char	*num = xmalloc(n + 1), line[256];

	memcpy(num, jid, n);
	num[n] = '\0';
	if (connected)
		snprintf(line, sizeof(line), _("connected as +%s"), num);
	else
		snprintf(line, sizeof(line), _("linked as +%s"), num);
	free(num);
	set_status(s, line);
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
	/* Ctrl-q is a key here, not XON. */
	if (tcgetattr(STDIN_FILENO, &t) == 0) {
		t.c_iflag &= ~(tcflag_t)IXON;
		(void)tcsetattr(STDIN_FILENO, TCSANOW, &t);
		def_prog_mode();
	}
	s = xcalloc(1, sizeof(*s));
	if (has_colors() && start_color() == OK &&
	    init_pair(PAIR_QR, COLOR_BLACK, COLOR_WHITE) == OK)
		s->colour = true;
	set_status(s, _("starting…"));
	ui_screen_render(s);
	*out = s;
	return 0;
}

void
ui_screen_free(struct ui_screen *s)
{
	if (s == NULL)
		return;
	endwin();
	drop_qr(s);
	free(s->code);
	free(s->status);
	free(s);
}

void
ui_screen_apply(struct ui_screen *s, const struct ev *ev)
{
	char	 line[512];

	switch (ev->kind) {
	case EV_CONNECTING:
		s->retry_end = 0;
		set_status(s, _("connecting…"));
		break;
	case EV_QR:
		drop_qr(s);
		if (ui_qr_make(ev->text, &s->qr) == 0) {
			s->qr_text = xstrdup(ev->text);
			s->qr_end = mono_ms() + (int64_t)ev->secs * 1000;
		}
		set_status(s, _("waiting for the scan"));
		break;
	case EV_PAIR_CODE:
		drop_qr(s);	/* the code replaces the QR codes */
		free(s->code);
		s->code = xstrdup(ev->text);
		set_status(s, _("waiting for the code to be entered"));
		break;
	case EV_PAIRED:
		drop_qr(s);
		s->linked = true;
		set_status_jid(s, false, ev->text);
		break;
	case EV_CONNECTED:
		drop_qr(s);
		s->linked = true;
		s->retry_end = 0;
		set_status_jid(s, true, ev->text);
		break;
	case EV_DISCONNECTED:
		if (ev->retry_ms == 0) {
			s->retry_end = 0;
			snprintf(line, sizeof(line), _("reconnecting: %s"),
			    ev->text);
		} else {
			s->retry_end = mono_ms() + ev->retry_ms;
			snprintf(line, sizeof(line), "%s", ev->text);
		}
		set_status(s, line);
		break;
	case EV_LOGGED_OUT:
		drop_qr(s);
		s->linked = false;
		snprintf(line, sizeof(line), _("logged out: %s"), ev->text);
		set_status(s, line);
		break;
	case EV_ERROR:
		snprintf(line, sizeof(line), _("error: %s (%s)"), ev->text,
		    wc_strerror(ev->err));
		set_status(s, line);
		break;
	case EV_STOPPED:
		set_status(s, _("stopped"));
		break;
	case EV_MESSAGE:
	case EV_MSG_STATE:
	case EV_MSG_CHANGED:
	case EV_REACTION:
	case EV_TYPING:
	case EV_PRESENCE:
	case EV_SEND_FAILED:
	case EV_CHATS:
	case EV_PAGE:
		break;		/* the chat panes (issue 7) */
	}
	ui_screen_render(s);
}

/* A key while the phone-number prompt is open. */
static enum ui_screen_act
prompt_key(struct ui_screen *s, int k)
{
	size_t	 n = strlen(s->phone);

	if (k == KEY_ESC) {
		s->asking = false;
	} else if (k == KEY_BACKSPACE || k == 0x7f || k == 0x08) {
		if (n > 0)
			s->phone[n - 1] = '\0';
	} else if (k >= '0' && k <= '9') {
		if (n < PHONE_MAX) {
			s->phone[n] = (char)k;
			s->phone[n + 1] = '\0';
		}
	} else if (k == '\r' || k == '\n' || k == KEY_ENTER) {
		if (n >= PHONE_MIN) {
			s->asking = false;
			set_status(s, _("asking for a code…"));
			return UI_SCREEN_PAIR_PHONE;
		}
	}
	return UI_SCREEN_NONE;
}

enum ui_screen_act
ui_screen_key(struct ui_screen *s)
{
	enum ui_screen_act	 act = UI_SCREEN_NONE, a;
	int			 k;

	while ((k = getch()) != ERR) {
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
ui_screen_resize(struct ui_screen *s)
{
	struct winsize	 ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	ui_screen_render(s);
}

/* Draw text centred on row y, cut to the width. */
static void
centre(int y, const char *text)
{
	int	 x = (COLS - (int)strlen(text)) / 2;

	mvaddnstr(y, x < 0 ? 0 : x, text, COLS);
}

static void
draw_pairing(struct ui_screen *s)
{
	struct buf	 row = BUF_INIT;
	char		 line[256];
	int		 rows, cols, top, left, r;

	if (s->asking) {
		centre(LINES / 2 - 1, _("Link with your phone number instead of "
		    "the QR code."));
		snprintf(line, sizeof(line), _("Phone number with country "
		    "code: +%s"), s->phone);
		centre(LINES / 2 + 1, line);
		centre(LINES / 2 + 3, _("Enter asks for the code, Esc goes "
		    "back."));
		return;
	}
	if (s->qr_text == NULL) {
		if (s->code != NULL) {
			snprintf(line, sizeof(line),
			    _("enter this code on your phone: %s"), s->code);
			centre(LINES / 2, line);
		}
		return;
	}
	rows = ui_qr_rows(&s->qr);
	cols = ui_qr_cols(&s->qr);
	/* The status line, the QR, a line for the time left. */
	if (rows + 3 > LINES || cols > COLS) {
		snprintf(line, sizeof(line), _("The window is too small for "
		    "the QR code: it needs %d×%d, this is %d×%d."), cols,
		    rows + 3, COLS, LINES);
		centre(2, line);
		if (s->code != NULL) {
			snprintf(line, sizeof(line),
			    _("enter this code on your phone: %s"), s->code);
			centre(4, line);
		} else
			centre(4, _("Enlarge it, or press p to link with "
			    "your phone number."));
		return;
	}
	top = 1 + (LINES - 1 - (rows + 2)) / 2;
	left = (COLS - cols) / 2;
	if (s->colour)
		attron(COLOR_PAIR(PAIR_QR));
	else
		attron(A_REVERSE);
	for (r = 0; r < rows; r++) {
		row.len = 0;
		ui_qr_row(&s->qr, r, &row);
		buf_push(&row, '\0');
		mvaddstr(top + r, left, (const char *)row.p);
	}
	if (s->colour)
		attroff(COLOR_PAIR(PAIR_QR));
	else
		attroff(A_REVERSE);
	buf_release(&row);
	snprintf(line, sizeof(line), _("scan this QR code with your phone "
	    "within %ld s, or press p to link with your phone number"),
	    secs_left(s->qr_end));
	centre(top + rows + 1, line);
}

static void
draw_linked(void)
{
	int	 w = COLS / 3, y;

	if (LINES < 3)
		return;
	mvaddstr(1, 1, _("Chats"));
	for (y = 1; y < LINES - 1; y++)
		mvaddch(y, w, ACS_VLINE);
	mvaddstr(1, w + 2, _("Messages"));
	attron(A_REVERSE);
	mvhline(LINES - 1, 0, ' ', COLS);
	mvaddnstr(LINES - 1, 1, _("q quit"), COLS - 1);
	attroff(A_REVERSE);
}

void
ui_screen_render(struct ui_screen *s)
{
	char	 line[600];

	erase();
	if (s->retry_end != 0)
		snprintf(line, sizeof(line), _("reconnecting in %ld s: %s"),
		    secs_left(s->retry_end), s->status);
	else
		snprintf(line, sizeof(line), "%s", s->status);
	attron(A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	mvaddnstr(0, 1, line, COLS - 1);
	attroff(A_REVERSE);
	if (s->linked)
		draw_linked();
	else
		draw_pairing(s);
	refresh();
}
