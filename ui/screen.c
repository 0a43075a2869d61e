/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/screen.c -- the curses screen (ui/screen.h). */
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
#include "ui/qr.h"
#include "ui/screen.h"
#include "ui/text.h"
#include "ui/view.h"
#include "base/xmalloc.h"

#define PAIR_QR		1	/* black on white */
#define KEY_CTRL_Q	0x11
#define KEY_ESC		0x1b
/* Digits of a phone number with its country code, as the engine takes
 * them (--pair-phone, proto/eng.c). */
#define PHONE_MIN	5
#define PHONE_MAX	20
/* Below this size the linked screen shows only the status line and a
 * message. */
#define MIN_COLS	20
#define MIN_LINES	6
#define MAX_WRAP	64	/* rows a wrapped text may take */

#define ERROR_SHOWN_MS	8000	/* an error on the status line, once connected */

struct ui_screen {
	char		*status;	/* the status line, without countdown */
	char		*qr_text;	/* the QR's text, or NULL */
	struct ui_qr	 qr;		/* valid when qr_text != NULL */
	int64_t		 qr_end;	/* monotonic ms the QR expires */
	char		*code;		/* the phone-number code, or NULL */
	int64_t		 retry_end;	/* reconnect at (ms), 0 when none */
	bool		 linked;	/* EV_PAIRED or EV_CONNECTED seen */
	bool		 colour;	/* PAIR_QR usable */
	bool		 utf8;		/* the locale's codeset is UTF-8: the
					 * half-block QR can be drawn */
	bool		 asking;	/* the phone-number prompt is open */
	bool		 bad_phone;	/* Enter found no phone number in
					 * the prompt: say what one is */
	char		 phone[PHONE_MAX + 1];	/* digits typed so far */
	struct ui_view	*view;		/* the chat screen, or NULL */
	char		*own;		/* our JID once connected, or NULL */
	int64_t		 error_end;	/* an error shown until then (ms,
					 * monotonic), 0 none */
	bool		 history_shown;	/* the status line shows history
					 * sync's progress */
};

static int64_t
mono_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* The wall clock, ms since 1970 (message times, "today"). */
static int64_t
wall_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
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
	fputs("\033[?2004h", stdout);
	fflush(stdout);
	/* Ctrl-q is a key here, not XON. */
	if (tcgetattr(STDIN_FILENO, &t) == 0) {
		t.c_iflag &= ~(tcflag_t)IXON;
		(void)tcsetattr(STDIN_FILENO, TCSANOW, &t);
		def_prog_mode();
	}
	s = xcalloc(1, sizeof(*s));
	s->utf8 = is_utf8(nl_langinfo(CODESET));
	if (s->utf8)
		ui_text_set_clusters(probe_clusters());
	if (has_colors() && start_color() == OK &&
	    init_pair(PAIR_QR, COLOR_BLACK, COLOR_WHITE) == OK) {
		s->colour = true;
		ui_view_colours();
	}
	set_status(s, _("starting…"));
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
}

void
ui_screen_free(struct ui_screen *s)
{
	if (s == NULL)
		return;
	endwin();
	fputs("\033[?2004l", stdout);	/* bracketed paste off */
	fflush(stdout);
	ui_view_free(s->view);
	drop_qr(s);
	free(s->code);
	free(s->status);
	free(s->own);
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
	s->retry_end = 0;
	set_status(s, _("connecting…"));
}

static void
on_qr(struct ui_screen *s, const struct ev *ev)
{
	drop_qr(s);
	if (ui_qr_make(ev->text, &s->qr) == 0) {
		s->qr_text = xstrdup(ev->text);
		s->qr_end = mono_ms() + (int64_t)ev->secs * 1000;
	}
	set_status(s, _("waiting for the scan"));
}

static void
on_pair_code(struct ui_screen *s, const struct ev *ev)
{
	drop_qr(s);	/* the code replaces the QR codes */
	free(s->code);
	s->code = xstrdup(ev->text);
	set_status(s, _("waiting for the code to be entered"));
}

static void
on_paired(struct ui_screen *s, const struct ev *ev)
{
	drop_qr(s);
	s->linked = true;
	set_status_jid(s, false, ev->text);
}

static void
on_connected(struct ui_screen *s, const struct ev *ev)
{
	s->error_end = 0;
	drop_qr(s);
	s->linked = true;
	s->retry_end = 0;
	free(s->own);
	s->own = xstrdup(ev->text);
	set_status_jid(s, true, ev->text);
}

static void
on_disconnected(struct ui_screen *s, const struct ev *ev)
{
	char	 line[512];

	s->error_end = 0;
	if (ev->retry_ms == 0) {
		s->retry_end = 0;
		snprintf(line, sizeof(line), _("reconnecting: %s"), ev->text);
	} else {
		s->retry_end = mono_ms() + ev->retry_ms;
		snprintf(line, sizeof(line), "%s", ev->text);
	}
	set_status(s, line);
}

static void
on_logged_out(struct ui_screen *s, const struct ev *ev)
{
	char	 line[512];

	s->error_end = 0;
	drop_qr(s);
	s->linked = false;
	snprintf(line, sizeof(line), _("logged out: %s"), ev->text);
	set_status(s, line);
}

static void
on_error(struct ui_screen *s, const struct ev *ev)
{
	char	 line[512];

	snprintf(line, sizeof(line), _("error: %s (%s)"), ev->text,
	    wc_strerror(ev->err));
	set_status(s, line);
	/* once connected, an error is said for a while, then the status
	 * line is back to "connected as" */
	s->error_end = s->own != NULL && s->retry_end == 0 ?
	    mono_ms() + ERROR_SHOWN_MS : 0;
}

static void
on_stopped(struct ui_screen *s, const struct ev *ev)
{
	(void)ev;
	s->error_end = 0;
	set_status(s, _("stopped"));
}

/* The backlog coming in (issue 9), in the status line. */
static void
on_history(struct ui_screen *s, const struct ev *ev)
{
	char	 line[512];

	if (ev->state == 0)
		snprintf(line, sizeof(line), _("history: %lu%% "
		    "(%lu messages added)"), (unsigned long)ev->num,
		    (unsigned long)ev->secs);
	else if (ev->state == 1)
		snprintf(line, sizeof(line), _("history: a part was "
		    "skipped: %s"), ev->text);
	if (ev->state != 2)
		set_status(s, line);
	else if (s->history_shown && s->own != NULL)
		set_status_jid(s, true, s->own);	/* done */
	s->history_shown = ev->state != 2;
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
};

void
ui_screen_apply(struct ui_screen *s, const struct ev *ev)
{
	size_t	 k = (size_t)ev->kind;

	if (s->view != NULL)
		ui_view_apply(s->view, ev, wall_ms());
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
		set_status(s, _("asking for a code…"));
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
		if (k == UI_KEY_FN + KEY_RESIZE)
			continue;	/* resizeterm() says so */
		if (s->linked && s->view != NULL) {
			/* a window too small to show the chat screen takes
			 * no key but quit: nothing acts unseen */
			if ((LINES - 1 < UI_VIEW_MIN_ROWS ||
			    COLS < UI_VIEW_MIN_COLS) &&
			    !ui_view_is_quit_key(s->view, k))
				continue;
			if (ui_view_key(s->view, k, wall_ms()))
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
ui_screen_resize(struct ui_screen *s)
{
	struct winsize	 ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resizeterm(ws.ws_row, ws.ws_col);
	ui_screen_render(s);
}

/*
 * The next character of text (len bytes left, len > 0): returns its
 * length in bytes and sets *w to its width in columns.  A byte that does
 * not start a character of the locale counts as one byte of one column
 * (curses shows it in some visible form).
 */
static size_t
next_char(const char *text, size_t len, int *w)
{
	mbstate_t	 st;
	wchar_t		 wc;
	size_t		 n;
	int		 cw;

	memset(&st, 0, sizeof(st));
	n = mbrtowc(&wc, text, len, &st);
	if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
		*w = 1;
		return 1;
	}
	cw = wcwidth(wc);
	*w = cw < 0 ? 1 : cw;
	return n;
}

/* The width of text's first len bytes, in columns. */
static int
text_width(const char *text, size_t len)
{
	size_t	 i = 0;
	int	 w, cols = 0;

	while (i < len) {
		i += next_char(text + i, len - i, &w);
		cols += w;
	}
	return cols;
}

/* How many bytes of text (len bytes) fit in width columns. */
static size_t
text_fit(const char *text, size_t len, int width)
{
	size_t	 i = 0, n;
	int	 w, cols = 0;

	while (i < len) {
		n = next_char(text + i, len - i, &w);
		if (cols + w > width)
			break;
		cols += w;
		i += n;
	}
	return i;
}

/* A line of a wrapped text: bytes [off, off + len), cols columns wide. */
struct seg {
	size_t	 off, len;
	int	 cols;
};

/*
 * Break text into lines of at most width columns (width >= 1) at the
 * spaces between words; a word wider than a line is cut where the line
 * ends.  Fills seg[0..max) and returns how many lines the text takes (may
 * be more than max; only max are filled).
 */
static int
wrap(const char *text, int width, struct seg *seg, int max)
{
	size_t	 len = strlen(text), i = 0, start, end, wend, n;
	int	 lines = 0, w;

	if (width < 1)
		width = 1;
	for (;;) {
		while (i < len && text[i] == ' ')
			i++;
		if (i == len)
			break;
		start = end = i;
		/* Whole words while they fit. */
		while (i < len) {
			wend = i + strcspn(text + i, " ");
			if (text_width(text + start, wend - start) > width) {
				if (end == start) {
					/* A word wider than a line. */
					n = text_fit(text + i, wend - i,
					    width);
					if (n == 0)
						n = next_char(text + i,
						    len - i, &w);
					end = i = i + n;
				}
				break;
			}
			end = i = wend;
			while (i < len && text[i] == ' ')
				i++;
		}
		if (lines < max) {
			seg[lines].off = start;
			seg[lines].len = end - start;
			seg[lines].cols = text_width(text + start,
			    end - start);
		}
		lines++;
	}
	return lines;
}

/*
 * text as this terminal can show it, in a new string the caller frees: in
 * a locale whose codeset is not UTF-8 the two UTF-8 characters of our own
 * messages become ASCII ("…" three dots, "×" an x); any other byte is
 * left to curses.  Either substitute is no longer than what it replaces.
 */
static char *
shown(const struct ui_screen *s, const char *text)
{
	char	*out = xstrdup(text), *o = out;

	if (s->utf8)
		return out;
	while (*text != '\0') {
		if (strncmp(text, "\xe2\x80\xa6", 3) == 0) {
			memcpy(o, "...", 3);
			o += 3;
			text += 3;
		} else if (strncmp(text, "\xc3\x97", 2) == 0) {
			*o++ = 'x';
			text += 2;
		} else
			*o++ = *text++;
	}
	*o = '\0';
	return out;
}

/* How many rows text takes wrapped to width columns. */
static int
text_lines(const struct ui_screen *s, const char *text, int width)
{
	struct seg	 seg[1];
	char		*t = shown(s, text);
	int		 n = wrap(t, width, seg, 0);

	free(t);
	return n;
}

/*
 * Draw text centred from row y down, wrapped at the spaces between words
 * to the window's width (display columns, not bytes: the text is in the
 * locale's encoding and may be translated); rows past the window are not
 * drawn.  Returns the rows the text takes.
 */
static int
centre(const struct ui_screen *s, int y, const char *text)
{
	struct seg	 seg[MAX_WRAP];
	char		*t = shown(s, text);
	int		 n, i, x;

	n = wrap(t, COLS, seg, MAX_WRAP);
	for (i = 0; i < n && i < MAX_WRAP; i++) {
		if (y + i < 1 || y + i >= LINES)
			continue;
		x = (COLS - seg[i].cols) / 2;
		mvaddnstr(y + i, x < 0 ? 0 : x, t + seg[i].off,
		    (int)seg[i].len);
	}
	free(t);
	return n;
}

/*
 * Draw texts (n of them) one under another with a blank row between
 * them, the block centred in the rows under the status line.
 */
static void
centre_block(const struct ui_screen *s, const char *const *texts, int n)
{
	int	 i, h = 0, y;

	for (i = 0; i < n; i++)
		h += text_lines(s, texts[i], COLS) + (i > 0);
	y = 1 + (LINES - 1 - h) / 2;
	if (y < 1)
		y = 1;
	for (i = 0; i < n; i++)
		y += centre(s, y, texts[i]) + 1;
}

/* Without a QR code: why (when not NULL: why none is drawn and what to
 * do), then the phone-number code when it came. */
static void
draw_no_qr(struct ui_screen *s, const char *why)
{
	const char	*texts[2];
	char		 line[256];
	int		 n = 0;

	if (why != NULL)
		texts[n++] = why;
	if (s->code != NULL) {
		snprintf(line, sizeof(line),
		    _("enter this code on your phone: %s"), s->code);
		texts[n++] = line;
	}
	centre_block(s, texts, n);
}

static void
draw_pairing(struct ui_screen *s)
{
	struct buf	 row = BUF_INIT;
	const char	*texts[3];
	char		 line[256], hint[256], code[256];
	int		 rows, cols, top, left, r, hint_rows, need, gap;

	if (s->asking) {
		texts[0] = _("Link with your phone number instead of the QR "
		    "code.");
		snprintf(line, sizeof(line), _("Phone number with country "
		    "code: +%s"), s->phone);
		texts[1] = line;
		texts[2] = s->bad_phone ? _("a phone number has 5 to 20 "
		    "digits, country code first") : _("Enter asks for the "
		    "code, Esc goes back.");
		centre_block(s, texts, 3);
		return;
	}
	if (s->qr_text == NULL) {
		draw_no_qr(s, NULL);
		return;
	}
	if (!s->utf8) {
		draw_no_qr(s, _("this terminal's locale is not UTF-8, so the "
		    "QR code cannot be drawn: run with LANG=C.UTF-8 (or "
		    "another UTF-8 locale), or press p to link with your "
		    "phone number"));
		return;
	}
	rows = ui_qr_rows(&s->qr);
	cols = ui_qr_cols(&s->qr);
	snprintf(hint, sizeof(hint), _("scan this QR code with your phone "
	    "within %ld s, or press p to link with your phone number"),
	    secs_left(s->qr_end));
	/* The status line, the QR, a blank row when there is room, the hint
	 * wrapped to the width. */
	hint_rows = text_lines(s, hint, COLS);
	if (cols > COLS || 1 + rows + hint_rows > LINES) {
		/* The size it needs: the QR's width, and the hint wrapped
		 * to that width under it. */
		need = 1 + rows + text_lines(s, hint, cols);
		snprintf(line, sizeof(line), _("The window is too small for "
		    "the QR code: it needs %d×%d, this is %d×%d."), cols,
		    need, COLS, LINES);
		texts[0] = line;
		if (s->code != NULL) {
			snprintf(code, sizeof(code), _("enter this code on "
			    "your phone: %s"), s->code);
			texts[1] = code;
		} else
			texts[1] = _("Enlarge it, or press p to link with "
			    "your phone number.");
		centre_block(s, texts, 2);
		return;
	}
	gap = 1 + rows + 1 + hint_rows <= LINES;
	top = 1 + (LINES - (1 + rows + gap + hint_rows)) / 2;
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
	centre(s, top + rows + gap, hint);
}

/* After linking: the chat list and message panes and the help line, or
 * in a window too small for them a message. */
static void
draw_linked(struct ui_screen *s)
{
	int	 w = COLS / 3, y;

	if (s->view != NULL &&
	    ui_view_draw(s->view, 1, 0, LINES - 1, COLS, wall_ms()))
		return;
	if (s->view != NULL || COLS < MIN_COLS || LINES < MIN_LINES) {
		if (LINES >= 2)
			centre(s, 1 + (LINES - 2) / 2, _("window too small"));
		return;
	}
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
	char	 line[600], *t;

	if (s->view != NULL)
		ui_view_tick(s->view, wall_ms());
	if (s->error_end != 0 && mono_ms() >= s->error_end) {
		s->error_end = 0;
		if (s->own != NULL && s->retry_end == 0)
			set_status_jid(s, true, s->own);
	}
	erase();
	if (s->retry_end != 0)
		snprintf(line, sizeof(line), _("reconnecting in %ld s: %s"),
		    secs_left(s->retry_end), s->status);
	else
		snprintf(line, sizeof(line), "%s", s->status);
	attron(A_REVERSE);
	mvhline(0, 0, ' ', COLS);
	t = shown(s, line);
	mvaddnstr(0, 1, t, (int)text_fit(t, strlen(t), COLS - 1));
	free(t);
	attroff(A_REVERSE);
	if (s->linked)
		draw_linked(s);
	else {
		curs_set(0);
		draw_pairing(s);
	}
	refresh();
}
