/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/text.c -- clusters, widths, wrapping and drawing (ui/text.h). */
#include "base/compat.h"

#include <string.h>
#include <wchar.h>

#include <curses.h>

#include "ui/text.h"

#define CP_BAD		0xFFFDu
#define CP_ZWJ		0x200Du
#define CP_VS16		0xFE0Fu

size_t
ui_text_decode(const char *str, size_t len, uint32_t *cp)
{
	const unsigned char	*s = (const unsigned char *)str;
	uint32_t		 c, min;
	size_t			 n, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		n = 2; c = s[0] & 0x1f; min = 0x80;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		n = 3; c = s[0] & 0x0f; min = 0x800;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		n = 4; c = s[0] & 0x07; min = 0x10000;
	} else {
		*cp = CP_BAD;
		return 1;
	}
	if (len < n) {
		*cp = CP_BAD;
		return 1;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = CP_BAD;
			return 1;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		*cp = CP_BAD;
		return 1;
	}
	*cp = c;
	return n;
}

static bool
is_ri(uint32_t c)
{
	return c >= 0x1f1e6 && c <= 0x1f1ff;
}

static bool
is_skin_tone(uint32_t c)
{
	return c >= 0x1f3fb && c <= 0x1f3ff;
}

/* wcwidth() of c, -1 for what it does not know (unassigned, control). */
static int
cp_width(uint32_t c)
{
	return wcwidth((wchar_t)c);
}

/* How the terminal draws an emoji sequence (ui_text_set_clusters()):
 * one cell pair per cluster, or each character as wcwidth() says. */
static bool	clusters;

/* Characters past ASCII drawn as "?" (ui_text_set_ascii()). */
static bool	ascii;

void
ui_text_set_ascii(bool on)
{
	ascii = on;
}

bool
ui_text_ascii(void)
{
	return ascii;
}

void
ui_text_set_clusters(bool on)
{
	clusters = on;
}

bool
ui_text_clusters(void)
{
	return clusters;
}

size_t
ui_text_next(const char *s, size_t len, int *cols)
{
	uint32_t	 base, c;
	size_t		 i, n;
	int		 w;
	bool		 join = false, vs16 = false, flag = false;

	i = ui_text_decode(s, len, &base);
	if (base == '\n') {
		*cols = 0;
		return i;
	}
	while (i < len) {
		n = ui_text_decode(s + i, len - i, &c);
		if (c == '\n')
			break;
		if (join) {
			/* The character a zero-width joiner joins. */
			if (c < 0x80)
				break;
			join = false;
		} else if (c == CP_ZWJ)
			join = true;
		else if (c == CP_VS16)
			vs16 = true;
		else if (is_skin_tone(c))
			;
		else if (is_ri(base) && is_ri(c) && !flag)
			flag = true;
		else if (cp_width(c) != 0)
			break;
		i += n;
	}
	w = cp_width(base);
	if (!clusters) {
		/* every character of the cluster as wide as it is alone: the
		 * terminal draws a skin tone or a joined person after its
		 * base, not over it */
		size_t	 j = ui_text_decode(s, len, &c);
		int	 cw;

		while (j < i) {
			j += ui_text_decode(s + j, i - j, &c);
			if ((cw = cp_width(c)) > 0)
				w = (w > 0 ? w : 0) + cw;
		}
	}
	if (w < 1)
		w = 1;	/* unknown, or a mark drawn on a space */
	if ((vs16 || flag) && w < 2)
		w = 2;	/* emoji presentation */
	*cols = w;
	return i;
}

size_t
ui_text_prev(const char *s, size_t off)
{
	size_t	 i = 0, last = 0;
	int	 w;

	while (i < off) {
		last = i;
		i += ui_text_next(s + i, off - i, &w);
	}
	return last;
}

int
ui_text_width(const char *s, size_t len)
{
	size_t	 i = 0;
	int	 w, cols = 0;

	while (i < len) {
		i += ui_text_next(s + i, len - i, &w);
		cols += w;
	}
	return cols;
}

size_t
ui_text_fit(const char *s, size_t len, int cols, int *used)
{
	size_t	 i = 0, n;
	int	 w, c = 0;

	while (i < len && s[i] != '\n') {
		n = ui_text_next(s + i, len - i, &w);
		if (c + w > cols)
			break;
		c += w;
		i += n;
	}
	if (used != NULL)
		*used = c;
	return i;
}

static void
put_line(struct ui_line *lines, int max, int row, const char *s, size_t off,
    size_t end)
{
	if (row >= max)
		return;
	lines[row].off = off;
	lines[row].len = end - off;
	lines[row].cols = ui_text_width(s + off, end - off);
}

int
ui_text_wrap(const char *s, size_t len, int width, struct ui_line *lines,
    int max)
{
	size_t	 i = 0, start, brk, n;
	int	 rows = 0, cols, w;

	if (width < 1)
		width = 1;
	for (;;) {
		start = i;
		brk = SIZE_MAX;		/* the first space after a word */
		cols = 0;
		for (;;) {
			if (i == len || s[i] == '\n') {
				put_line(lines, max, rows++, s, start, i);
				if (i == len)
					return rows;
				i++;		/* the newline */
				break;
			}
			n = ui_text_next(s + i, len - i, &w);
			if (cols + w > width && cols > 0) {
				if (s[i] == ' ' && s[i - 1] != ' ')
					;		/* the word ends here */
				else if (brk != SIZE_MAX && brk > start)
					i = brk;	/* back to the space */
				put_line(lines, max, rows++, s, start, i);
				/* The spaces at the break go. */
				while (i < len && s[i] == ' ')
					i++;
				if (i == len)
					return rows;
				break;
			}
			if (s[i] == ' ' && (i == start || s[i - 1] != ' '))
				brk = i;
			cols += w;
			i += n;
		}
	}
}

int
ui_text_draw(int y, int x, const char *s, size_t len, int cols)
{
	wchar_t		 wc[2];
	cchar_t		 cc;
	attr_t		 attr;
	short		 pair;
	uint32_t	 c;
	size_t		 i = 0, n, j, m;
	int		 used = 0, w, cw, k, p, col;

	(void)attr_get(&attr, &pair, NULL);
	while (i < len && s[i] != '\n') {
		n = ui_text_next(s + i, len - i, &w);
		if (used + w > cols)
			break;
		/* The cluster's cells: one holding it all (clusters), or one
		 * per character with a width, each with the zero-width ones
		 * that follow it (a joiner, a selector, marks). */
		for (j = 0, col = 0; j < n && col < w;) {
			j += ui_text_decode(s + i + j, n - j, &c);
			cw = cp_width(c);
			if (cw < 0) {
				c = CP_BAD;
				cw = 1;
			}
			if (ascii && c >= 0x80) {
				/* no such character on this terminal */
				if (cw > 0)
					for (k = 0; k < cw && col < w; k++)
						(void)mvaddch(y, x + used +
						    col++, '?');
				if (clusters)
					break;
				continue;
			}
			if (cw == 0) {
				if (col > 0)
					continue;	/* past a full cell */
				wc[0] = L' ';	/* a lone mark, on a space */
				cw = 1;
				j = 0;
			} else
				wc[0] = (wchar_t)c;
			wc[1] = L'\0';
			memset(&cc, 0, sizeof(cc));
			if (setcchar(&cc, wc, attr, pair, NULL) != OK) {
				col += cw;
				continue;
			}
#ifdef NCURSES_VERSION
			/* The rest in the same cell: curses sends every
			 * character of a cell, so the terminal gets the whole
			 * sequence (up to the cell's room). */
			for (k = 1; k < CCHARW_MAX && j < n; k++) {
				m = ui_text_decode(s + i + j, n - j, &c);
				if (!clusters && cp_width(c) > 0)
					break;	/* the next cell's */
				if (cp_width(c) < 0 && c != CP_ZWJ)
					c = CP_BAD;
				cc.chars[k] = (wchar_t)c;
				j += m;
			}
			/* Never a dangling joiner at the cell's end. */
			if (k > 1 && cc.chars[k - 1] == (wchar_t)CP_ZWJ)
				cc.chars[k - 1] = L'\0';
#endif
			(void)mvadd_wch(y, x + used + col, &cc);
			col += cw;
			if (clusters)
				break;
		}
		for (p = col; p < w; p++)
			(void)mvaddch(y, x + used + p, ' ');
		used += w;
		i += n;
	}
	return used;
}
