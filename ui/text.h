/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/text.h -- UTF-8 text as a terminal lays it out: grapheme clusters
 * (a base character with its combining marks, variation selectors, skin
 * tones, zero-width-joined emoji, regional-indicator flag pairs) taken as
 * one unit (of editing, wrapping, cutting), their width in columns, wrapping
 * at the spaces between words to a width, and drawing a cluster so that
 * what curses counts is what the terminal draws.  Terminals differ on
 * emoji sequences: some draw a cluster in the width of its base (kitty,
 * WezTerm, iTerm2), others each character in its own wcwidth (xterm, tmux
 * 3.3, the Linux console), so a thumbs up with a skin tone is 2 columns
 * or 4.  ui_text_set_clusters() says which (the screen asks the terminal
 * at start, ui/screen.c); the width is then wcwidth of the base, or the
 * sum of its characters' (2 at least for emoji presentation: a VS16
 * sequence or a flag).  The text is sanitised
 * already (base/sanitize.h): the layout never sees a control character but
 * newline.  Widths follow the locale's wcwidth(), so the caller has set
 * an LC_CTYPE (a UTF-8 one for anything beyond ASCII).  The pure
 * functions may be called from any thread; ui_text_draw() calls curses
 * (main thread only).
 */
#ifndef UI_TEXT_H
#define UI_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * How the terminal draws emoji sequences: on, a cluster in one cell (as
 * wide as its base); off (the default), each character with a width in
 * its own cells.  Set once at start, before any layout (main thread);
 * ui_text_clusters() reads it.
 */
void	ui_text_set_clusters(bool on);

/*
 * The locale's codeset is not UTF-8 (on): ui_text_draw() draws each
 * character past ASCII as "?" in each of its cells (curses cannot put
 * it on such a terminal), so a name reads "Zo? M?ller", not with gaps.
 * Off by default.  Set at start (main thread).
 */
void	ui_text_set_ascii(bool on);

/* What ui_text_set_ascii() set last.  Main thread. */
bool	ui_text_ascii(void);
bool	ui_text_clusters(void);

/* Combining marks kept in one cluster when drawn (reliability.md rule 3:
 * at most 8 marks per grapheme; curses keeps fewer). */
#define UI_TEXT_MARKS_MAX	8

/*
 * The code point at s[0..len) (len > 0): returns its length in bytes (1
 * to 4) and stores it in *cp; a byte that does not start a valid UTF-8
 * sequence is one byte, U+FFFD.
 */
size_t		ui_text_decode(const char *s, size_t len, uint32_t *cp);

/*
 * The grapheme cluster at s[0..len) (len > 0): returns its length in
 * bytes (>= 1) and stores its width in columns in *cols (0 for "\n",
 * else 1 or 2: a lone combining mark counts 1, as it is drawn on a
 * space).
 */
size_t		ui_text_next(const char *s, size_t len, int *cols);

/*
 * The start of the cluster that ends at byte off of s (off > 0; s is
 * read from its start, as clusters are found going forwards).  Returns 0
 * when off is 0.
 */
size_t		ui_text_prev(const char *s, size_t off);

/* The width of s[0..len) in columns; a newline counts 0. */
int		ui_text_width(const char *s, size_t len);

/*
 * How many bytes of s[0..len) fit in cols columns, whole clusters only,
 * stopping before a newline; *used (may be NULL) gets their width.
 */
size_t		ui_text_fit(const char *s, size_t len, int cols, int *used);

/* One row of a wrapped text: bytes [off, off + len), cols wide. */
struct ui_line {
	size_t	 off, len;
	int	 cols;
};

/*
 * Break s[0..len) into rows of at most width columns (width < 1 counts
 * as 1): at newlines, and at the spaces between words (the spaces at a
 * break are dropped); a word wider than a row is cut between clusters; a
 * cluster is never split.  An empty text is one empty row.  Fills
 * lines[0..max) and returns how many rows the text takes (may be more
 * than max; only the first max are filled; max may be 0).
 */
int		ui_text_wrap(const char *s, size_t len, int width,
		    struct ui_line *lines, int max);

/*
 * Draw s[0..len) on the curses screen at row y, column x, at most cols
 * columns of whole clusters, each cluster one cell (its base with up to
 * the cell's room of marks, selectors and joined characters) padded
 * with a space where curses counts it narrower than ui_text_next() does.
 * A newline ends the drawing.  Returns the columns drawn.  Main thread.
 */
int		ui_text_draw(int y, int x, const char *s, size_t len, int cols);

#endif
