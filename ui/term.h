/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/term.h -- what the screen says to the terminal outside curses'
 * window buffer, which carries no escape sequence: the clipboard (OSC 52,
 * base64; a terminal, or tmux with `set-clipboard on`, puts the text on
 * the clipboard, also over SSH), hyperlinks (OSC 8) over the cells
 * curses drew a link's text in, and the URLs found in a message's text.
 * The sequences are written after curses' refresh, at the cells'
 * positions, with the same text and attributes curses drew there, the
 * cursor put back where curses left it (ui_term_links_write()), so the
 * screen stays what curses believes it is.  Main thread; only
 * ui_term_links_write() calls curses, the rest is pure.
 */
#ifndef UI_TERM_H
#define UI_TERM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;

#define UI_TERM_URL_MAX		2048	/* bytes of a URL made a link; a
					 * longer one stays plain text */
#define UI_TERM_COPY_MAX	65536	/* bytes put on the clipboard */
#define UI_TERM_LINKS_MAX	256	/* link pieces drawn on one screen */

/*
 * Append to out the OSC 52 sequence that puts text[0..len) on the
 * clipboard ("ESC ] 52 ; c ; BASE64 ESC \"); len is cut to
 * UI_TERM_COPY_MAX at a UTF-8 character's start.  Returns the bytes of
 * text put in.
 */
size_t		ui_term_osc52(struct buf *out, const char *text, size_t len);

/*
 * The next URL in t[0..len) at or after byte from: "http://" or
 * "https://" (any case) and what follows of the characters a URL may
 * hold (printable ASCII: letters, digits and -._~:/?#[]@!$&'()*+,;=%),
 * without trailing punctuation (.,;:!?'") or an unmatched ')', and with
 * something after the "//".  A URL over UI_TERM_URL_MAX bytes is skipped
 * (cut, it would lead elsewhere).  Returns true with its offset and
 * length in *off and *n, false when there is none.
 */
bool		ui_term_next_url(const char *t, size_t len, size_t from,
		    size_t *off, size_t *n);

/* One piece of a link as drawn: its text (printable ASCII, one column a
 * byte) at screen row y, column x, underlined, and the URL it leads to. */
struct ui_term_link {
	int		 y, x;
	char		*text;		/* owned */
	char		*url;		/* owned */
};

/* The link pieces of one screen, and what the last write left there. */
struct ui_term_links {
	struct ui_term_link v[UI_TERM_LINKS_MAX];
	size_t		 n;
};

/* Forget every piece (free their strings). */
void		ui_term_links_clear(struct ui_term_links *l);

/*
 * Add a piece: text[0..len) drawn at (y, x), leading to url[0..url_len).
 * Nothing when l is full or either is not a sanitised URL's characters.
 */
void		ui_term_links_add(struct ui_term_links *l, int y, int x,
		    const char *text, size_t len, const char *url,
		    size_t url_len);

/*
 * The screen's state kept between refreshes: each row's digest and the
 * pieces last written.
 */
struct ui_term_frame {
	uint64_t	*rows;		/* a digest per row, or NULL */
	int		 nrows, ncols;
	struct ui_term_links shown;
};

void		ui_term_frame_release(struct ui_term_frame *f);

/*
 * After curses' refresh: when the screen's rows (but the status line)
 * or the pieces changed since the last call, write each piece of now
 * again to the terminal wrapped in OSC 8 (underlined, as drawn), then put
 * the cursor back where curses left it; one write(2) to stdout.  With
 * now empty (hyperlinks off) nothing is written.  Main thread (curses).
 */
void		ui_term_links_write(struct ui_term_frame *f,
		    const struct ui_term_links *now);

/* Write out's bytes to stdout (all of them, or give up on an error),
 * then empty it. */
void		ui_term_flush(struct buf *out);

#endif
