/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/screen-draw.c -- drawing the curses screen (ui/screen.h,
 * ui/screen-int.h): the status line with its countdown, the pairing
 * screen (the QR code, the phone-number code or prompt, or why none can
 * be drawn) and the linked screen (the chat screen, ui/view.h, or "window
 * too small"), its texts centred and wrapped at the spaces between words
 * in the locale's encoding; and the clocks its countdowns and
 * ui/screen.c read.  Nothing here calls ui/screen.c.  Main thread
 * (curses).
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

#include <curses.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/xmalloc.h"
#include "ui/qr.h"
#include "ui/screen.h"
#include "ui/screen-int.h"
#include "ui/term.h"
#include "ui/view.h"

/* Below this size the linked screen shows only the status line and a
 * message. */
#define MIN_COLS	20
#define MIN_LINES	6
#define MAX_WRAP	64	/* rows a wrapped text may take */

int64_t
ui_screen_mono_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int64_t
ui_screen_wall_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Seconds from now until end_ms, rounded up, never below 0. */
static long
secs_left(int64_t end_ms)
{
	int64_t	 d = end_ms - ui_screen_mono_ms();

	return d <= 0 ? 0 : (long)((d + 999) / 1000);
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
		if (s->idle && s->idle_why != NULL) {
			snprintf(line, sizeof(line), _("%s.  Press r for a "
			    "new QR code, p to link with your phone number, "
			    "q to quit."), s->idle_why);
			draw_no_qr(s, line);
		} else
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
		attron(COLOR_PAIR(UI_SCREEN_PAIR_QR));
	else
		attron(A_REVERSE);
	for (r = 0; r < rows; r++) {
		row.len = 0;
		ui_qr_row(&s->qr, r, &row);
		buf_push(&row, '\0');
		mvaddstr(top + r, left, (const char *)row.p);
	}
	if (s->colour)
		attroff(COLOR_PAIR(UI_SCREEN_PAIR_QR));
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
	    ui_view_draw(s->view, 1, 0, LINES - 1, COLS, ui_screen_wall_ms()))
		return;
	if (s->view != NULL || COLS < MIN_COLS || LINES < MIN_LINES) {
		char	 line[128];
		int	 nc = s->view != NULL ? UI_VIEW_MIN_COLS : MIN_COLS,
			 nl = s->view != NULL ? UI_VIEW_MIN_ROWS + 1 : MIN_LINES;

		/* The size needed, as the QR's screen says its own. */
		snprintf(line, sizeof(line), _("window too small: %dx%d "
		    "needed, this is %dx%d"), nc, nl, COLS, LINES);
		if (LINES >= 2)
			centre(s, 1 + (LINES - 2) / 2, line);
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

/* line (size bytes) as "WARNING | line". */
static void
warned(char *line, size_t size, const char *warning)
{
	char	*rest = xstrdup(line);

	snprintf(line, size, "%s | %s", warning, rest);
	free(rest);
}

void
ui_screen_draw(struct ui_screen *s)
{
	char	 line[600], ring[300], *t;
	const char *call;

	erase();
	if (s->retry_end != 0)
		snprintf(line, sizeof(line), _("reconnecting in %ld s: %s"),
		    secs_left(s->retry_end), s->status);
	else
		snprintf(line, sizeof(line), "%s", s->status);
	/* a lasting warning first, so that a narrow line keeps it */
	if (s->lasting != NULL)
		warned(line, sizeof(line), s->lasting);
	/* a call that rings first of all */
	if (s->view != NULL && s->linked && (call = ui_view_ringing(s->view,
	    ui_screen_wall_ms(), !s->utf8, ring, sizeof(ring))) != NULL)
		warned(line, sizeof(line), call);
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
	/* what curses' window cannot carry, after it (ui/term.h) */
	if (s->view != NULL) {
		/* images first: a repaint for them has the links written
		 * again (a frame of no size differs from any) */
		if (s->linked && ui_thumb_spots_write(&s->thumbs,
		    ui_view_thumb_spots(s->view), (enum ui_thumb_proto)
		    ui_view_thumb_proto(s->view)))
			s->frame.nrows = -1;
		if (s->linked)
			ui_term_links_write(&s->frame, ui_view_links(s->view));
		ui_view_notify_flush(s->view, ui_screen_wall_ms());
		ui_term_flush(ui_view_term_out(s->view));
	}
}
