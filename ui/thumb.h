/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/thumb.h -- the small picture a media message carries (its
 * jpegThumbnail, or a sticker's WebP; protocol-features.md 1.6) drawn in
 * the message pane: the bytes decoded (libjpeg-turbo, libwebp), the
 * pixels mapped to terminal cells by libchafa (colour half-blocks sized
 * to a few rows and the pane's width), the cells drawn with curses colour
 * pairs in as many colours as the terminal has (direct colour, 256, 16,
 * 8; none: the shapes alone).  Malformed data never crashes or hangs:
 * sides over UI_THUMB_SIDE_MAX are refused before anything is allocated,
 * libjpeg's errors come back through setjmp, progressive scans are
 * capped, and a failure is drawn as no thumbnail, logged once.  Nothing
 * here touches a socket.  Main thread (libchafa and libjpeg are called
 * from it alone; none of this is thread-safe).
 */
#ifndef UI_THUMB_H
#define UI_THUMB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;

#define UI_THUMB_SIDE_MAX	4096	/* pixels of a side decoded at most */
#define UI_THUMB_BYTES_MAX	(256u << 10) /* bytes of a thumbnail kept */
#define UI_THUMB_ROWS_MAX	40	/* thumbnail-rows at most */
#define UI_THUMB_ROWS_DEFAULT	6	/* thumbnail-rows by default */
#define UI_THUMB_PAIR0		16	/* the first curses pair used here;
					 * the screen's own are below */

/* How many colours the cells are drawn in. */
enum ui_thumb_colours {
	UI_THUMB_MONO,		/* shapes only, the default colours */
	UI_THUMB_8,		/* the 8 ANSI colours */
	UI_THUMB_16,		/* the 16 ANSI colours */
	UI_THUMB_256,		/* xterm's 256 (chafa's 240: 16..255) */
	UI_THUMB_DIRECT,	/* 24-bit, curses' direct colour */
};

/*
 * The colours to draw in for a terminal that has ncolors colours (curses'
 * COLORS; 0 or has_colors() false: none): 1 << 24 or more direct, 256 or
 * more 256, 16 or more 16, 8 or more 8, else monochrome.  Pure.
 */
enum ui_thumb_colours ui_thumb_colours_of(int ncolors);

/* Decoded pixels: w * h * bpp bytes, rows top first, no padding. */
struct ui_thumb_img {
	uint8_t		*px;		/* owned (free()) */
	int		 w, h;		/* 1..UI_THUMB_SIDE_MAX */
	int		 bpp;		/* 3: RGB (JPEG), 4: RGBA (WebP) */
};

/*
 * Decode p[0..len): a JPEG (starts FF D8 FF) or a WebP ("RIFF" size
 * "WEBP").  A large JPEG is decoded scaled down by libjpeg (1/2 .. 1/8)
 * to at most 512 pixels a side.  Returns 0 with *img filled (the caller
 * frees img->px), or: WC_ETOOBIG (a declared side over
 * UI_THUMB_SIDE_MAX, or len over UI_THUMB_BYTES_MAX; nothing
 * allocated), WC_ETRUNC (the data ends before the image does), WC_EPROTO
 * (neither format, a corrupt or unsupported image: CMYK, zero sides,
 * over 64 progressive scans).  *img zeroed on error.
 */
int		ui_thumb_decode(const uint8_t *p, size_t len,
		    struct ui_thumb_img *img);

/* One terminal cell of a thumbnail: a character and its colours, as
 * numbers for the colours it was made for (an index for 8/16/256, 0xRRGGBB
 * for direct; -1: the terminal's default). */
struct ui_thumb_cell {
	uint32_t	 ch;		/* a Unicode code point, width 1 */
	int32_t		 fg, bg;
};

/* A thumbnail laid out in cells. */
struct ui_thumb_cells {
	int			 cols, rows;
	enum ui_thumb_colours	 colours;
	struct ui_thumb_cell	*v;	/* rows * cols, row by row; owned */
};

/*
 * Map img to at most max_cols by max_rows cells (both >= 1) through
 * libchafa, in colours: the aspect kept (a cell is taken as twice as high
 * as wide), scaled up or down to fill the rows or the columns; half-block
 * and block symbols (monochrome: chafa's block and border symbols too).
 * Returns 0 with *out filled (release with ui_thumb_cells_release()), or
 * -EINVAL (no pixels, max_cols or max_rows < 1) with *out zeroed.
 */
int		ui_thumb_render(const struct ui_thumb_img *img, int max_cols,
		    int max_rows, enum ui_thumb_colours colours,
		    struct ui_thumb_cells *out);

/* Free out's cells (zeroed after).  Idempotent. */
void		ui_thumb_cells_release(struct ui_thumb_cells *out);

/*
 * A message's thumbnail: its bytes (a copy) and, cached, its cells for the
 * last size and colours asked.  The pixels are not kept: a new size
 * decodes again.  A failure is kept too (logged once, never decoded
 * again): it takes no rows.
 */
struct ui_thumb;

/* A thumbnail of p[0..len) (copied), or NULL when len is 0 or over
 * UI_THUMB_BYTES_MAX (logged) or p is NULL. */
struct ui_thumb	*ui_thumb_new(const uint8_t *p, size_t len);

/* A thumbnail of the bytes hex (lowercase or uppercase hex digits, as
 * events carry thumbnails, base/event.h), or NULL when hex is NULL,
 * empty, of odd length, not hex, or its bytes are over
 * UI_THUMB_BYTES_MAX. */
struct ui_thumb	*ui_thumb_new_hex(const char *hex);

/* Free t (NULL: nothing). */
void		ui_thumb_free(struct ui_thumb *t);

/*
 * The rows t takes drawn at most max_cols wide and max_rows high in
 * colours: decoded and laid out the first time for those (cached until
 * they change); 0 when t is NULL, max_rows or max_cols < 1, or the data
 * does not decode (logged the first time, as its error's words).
 */
int		ui_thumb_rows(struct ui_thumb *t, int max_cols, int max_rows,
		    enum ui_thumb_colours colours);

/* The cells of t as last laid out by ui_thumb_rows() (NULL: none). */
const struct ui_thumb_cells *ui_thumb_cells(const struct ui_thumb *t);

/*
 * Draw row (0 .. rows - 1) of t's cells at screen row y, column x, with
 * curses colour pairs from UI_THUMB_PAIR0 up (made as needed; when
 * COLOR_PAIRS runs out they are made again from the first).  Nothing for
 * a row t does not have.  Main thread, curses started.
 */
void		ui_thumb_draw_row(const struct ui_thumb *t, int row, int y,
		    int x);

/* ---- images through the terminal (ui/thumb-px.c) ---- */

/* How thumbnails reach the terminal (thumbnail-protocol). */
enum ui_thumb_proto {
	UI_THUMB_PROTO_AUTO,		/* ui_thumb_proto_pick() decides */
	UI_THUMB_PROTO_HALFBLOCKS,	/* cells drawn by curses */
	UI_THUMB_PROTO_KITTY,		/* kitty's graphics protocol */
	UI_THUMB_PROTO_SIXEL,		/* DEC sixel */
	UI_THUMB_PROTO_ITERM2,		/* iTerm2's inline images (OSC 1337) */
	UI_THUMB_PROTO_OFF,		/* none drawn */
};

/* The environment the choice depends on: each variable's value, NULL
 * unset. */
struct ui_thumb_env {
	const char	*term;		/* $TERM */
	const char	*term_program;	/* $TERM_PROGRAM */
	const char	*kitty_window_id; /* $KITTY_WINDOW_ID */
	const char	*tmux;		/* $TMUX */
	const char	*sty;		/* $STY (screen) */
	const char	*ssh;		/* $SSH_CONNECTION, else $SSH_TTY */
};

/*
 * The protocol to use when asked is what the setting says: anything but
 * AUTO is itself; AUTO is HALFBLOCKS inside tmux or screen ($TMUX, $STY,
 * TERM screen* or tmux*) and over SSH, else KITTY for kitty
 * ($KITTY_WINDOW_ID, TERM xterm-kitty) and Ghostty (TERM xterm-ghostty),
 * ITERM2 for TERM_PROGRAM iTerm.app or WezTerm, SIXEL for TERM foot* or
 * mlterm*, else HALFBLOCKS.  Pure.
 */
enum ui_thumb_proto ui_thumb_proto_pick(enum ui_thumb_proto asked,
		    const struct ui_thumb_env *env);

/* Whether p draws pixels (KITTY, SIXEL, ITERM2). */
bool		ui_thumb_proto_pixels(enum ui_thumb_proto p);

/*
 * Append to out the escape sequences that draw t's last layout
 * (ui_thumb_rows(): cols by rows cells) as an image in protocol p (a
 * pixel one), each cell cell_w by cell_h pixels (<= 0: 10 by 20), from the
 * cursor's position; made by libchafa (its pixel modes), cached in t for
 * the same p and cell size.  Returns 0, or -EINVAL (t not laid out, p not
 * a pixel protocol) with out untouched.  Main thread.
 */
int		ui_thumb_pixels(struct ui_thumb *t, enum ui_thumb_proto p,
		    int cell_w, int cell_h, struct buf *out);

#define UI_THUMB_SPOTS_MAX	32	/* images placed on one screen */

/* Where the message pane left room for images this frame. */
struct ui_thumb_spots {
	struct {
		int		 y, x;		/* the top left cell */
		struct ui_thumb	*t;		/* borrowed (the pane's row) */
	}		 v[UI_THUMB_SPOTS_MAX];
	size_t		 n;
};

/* The images last written, to write again only when they move. */
struct ui_thumb_shown {
	struct {
		int		 y, x, cols, rows;
		const void	*t;
	}		 v[UI_THUMB_SPOTS_MAX];
	size_t		 n;
	int		 lines, cols;	/* the screen's size then */
};

/*
 * After curses' refresh: when the spots now differ from those shown (or
 * the screen's size), write the images again in protocol p: kitty's
 * placements are all deleted first, sixel and iTerm2 images have curses
 * repaint the whole screen first (clearok) so that no old picture stays;
 * a spot whose cells are no longer blank (a window over it) gets no
 * image.  The cursor is put back where curses left it.  Returns whether
 * the screen was repainted (the links over it must be written again).
 * Nothing for a cell protocol.  Main thread (curses).
 */
bool		ui_thumb_spots_write(struct ui_thumb_shown *shown,
		    const struct ui_thumb_spots *now, enum ui_thumb_proto p);

#endif
