/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/thumb.c -- a media message's thumbnail in terminal cells (ui/thumb.h):
 * JPEG through libjpeg-turbo (errors through setjmp, sides checked after
 * the header and before any pixel buffer, progressive scans capped), WebP
 * through libwebp (sides checked from its header first), the pixels to
 * cells through libchafa's canvas, the cells drawn with curses pairs.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <chafa.h>
#include <curses.h>
#include <jpeglib.h>
#include <jerror.h>
#include <webp/decode.h>

#define LOG_TAG	"thumb"
#include "base/buf.h"
#include "base/err.h"
#include "base/hex.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "ui/term.h"
#include "ui/thumb.h"

#define SCANS_MAX	64	/* progressive scans decoded at most */
#define SCALED_SIDE	512	/* a JPEG over this is decoded scaled down */

enum ui_thumb_colours
ui_thumb_colours_of(int ncolors)
{
	if (ncolors >= 1 << 24)
		return UI_THUMB_DIRECT;
	if (ncolors >= 256)
		return UI_THUMB_256;
	if (ncolors >= 16)
		return UI_THUMB_16;
	if (ncolors >= 8)
		return UI_THUMB_8;
	return UI_THUMB_MONO;
}

/* ---- JPEG ---- */

struct jerr {
	struct jpeg_error_mgr	 pub;
	jmp_buf			 jmp;
	int			 rc;	/* the error longjmp'd with */
	bool			 eof;	/* the data ended early */
};

static void
jpeg_fail(j_common_ptr ci)
{
	struct jerr	*e = (struct jerr *)ci->err;

	if (e->rc == 0)
		e->rc = WC_EPROTO;
	longjmp(e->jmp, 1);
}

/* A warning (corrupt data libjpeg would carry on over) is an error here:
 * a truncated or damaged picture is drawn as none. */
static void
jpeg_message(j_common_ptr ci, int level)
{
	struct jerr	*e = (struct jerr *)ci->err;

	if (level >= 0)
		return;		/* trace messages */
	e->rc = ci->err->msg_code == JWRN_JPEG_EOF ? WC_ETRUNC : WC_EPROTO;
	longjmp(e->jmp, 1);
}

/* A progressive JPEG of thousands of scans would take long: refused. */
static void
jpeg_progress(j_common_ptr ci)
{
	struct jerr	*e = (struct jerr *)ci->err;

	if (ci->is_decompressor &&
	    ((j_decompress_ptr)ci)->input_scan_number > SCANS_MAX) {
		e->rc = WC_EPROTO;
		longjmp(e->jmp, 1);
	}
}

/* The header's sides checked, the scale and colours set; 0 or an error. */
static int
jpeg_setup(struct jpeg_decompress_struct *ci)
{
	unsigned	 side;

	if (ci->image_width == 0 || ci->image_height == 0)
		return WC_EPROTO;
	if (ci->image_width > UI_THUMB_SIDE_MAX ||
	    ci->image_height > UI_THUMB_SIDE_MAX)
		return WC_ETOOBIG;
	if (ci->jpeg_color_space == JCS_CMYK ||
	    ci->jpeg_color_space == JCS_YCCK)
		return WC_EPROTO;
	ci->out_color_space = JCS_RGB;
	side = ci->image_width > ci->image_height ? ci->image_width :
	    ci->image_height;
	ci->scale_num = 1;
	ci->scale_denom = 1;
	while (ci->scale_denom < 8 && side / ci->scale_denom > SCALED_SIDE)
		ci->scale_denom *= 2;
	return 0;
}

static int
decode_jpeg(const uint8_t *p, size_t len, struct ui_thumb_img *img)
{
	struct jpeg_decompress_struct	 ci;
	struct jpeg_progress_mgr	 prog;
	struct jerr			 e;
	uint8_t				*volatile px = NULL;
	JSAMPROW			 row;
	int				 rc;

	memset(&e, 0, sizeof(e));
	ci.err = jpeg_std_error(&e.pub);
	e.pub.error_exit = jpeg_fail;
	e.pub.emit_message = jpeg_message;
	if (setjmp(e.jmp) != 0) {
		jpeg_destroy_decompress(&ci);
		free(px);
		return e.rc != 0 ? e.rc : WC_EPROTO;
	}
	jpeg_create_decompress(&ci);
	memset(&prog, 0, sizeof(prog));
	prog.progress_monitor = jpeg_progress;
	ci.progress = &prog;
	jpeg_mem_src(&ci, p, (unsigned long)len);
	if (jpeg_read_header(&ci, TRUE) != JPEG_HEADER_OK) {
		jpeg_destroy_decompress(&ci);
		return WC_EPROTO;
	}
	if ((rc = jpeg_setup(&ci)) != 0) {
		jpeg_destroy_decompress(&ci);
		return rc;
	}
	(void)jpeg_start_decompress(&ci);
	if (ci.output_components != 3 || ci.output_width == 0 ||
	    ci.output_height == 0) {
		jpeg_destroy_decompress(&ci);
		return WC_EPROTO;
	}
	px = xmalloc((size_t)ci.output_width * ci.output_height * 3);
	while (ci.output_scanline < ci.output_height) {
		row = px + (size_t)ci.output_scanline * ci.output_width * 3;
		(void)jpeg_read_scanlines(&ci, &row, 1);
	}
	(void)jpeg_finish_decompress(&ci);
	img->px = px;
	img->w = (int)ci.output_width;
	img->h = (int)ci.output_height;
	img->bpp = 3;
	jpeg_destroy_decompress(&ci);
	return 0;
}

/* ---- WebP ---- */

static int
decode_webp(const uint8_t *p, size_t len, struct ui_thumb_img *img)
{
	WebPBitstreamFeatures	 f;
	uint8_t			*px;
	size_t			 n;

	switch (WebPGetFeatures(p, len, &f)) {
	case VP8_STATUS_OK:
		break;
	case VP8_STATUS_NOT_ENOUGH_DATA:
		return WC_ETRUNC;
	default:
		return WC_EPROTO;
	}
	if (f.width <= 0 || f.height <= 0)
		return WC_EPROTO;
	if (f.width > UI_THUMB_SIDE_MAX || f.height > UI_THUMB_SIDE_MAX)
		return WC_ETOOBIG;
	n = (size_t)f.width * (size_t)f.height * 4;
	px = xmalloc(n);
	/* an animated WebP decodes as its first frame, or not at all */
	if (WebPDecodeRGBAInto(p, len, px, n, f.width * 4) == NULL) {
		free(px);
		return f.has_animation ? WC_EPROTO : WC_ETRUNC;
	}
	img->px = px;
	img->w = f.width;
	img->h = f.height;
	img->bpp = 4;
	return 0;
}

int
ui_thumb_decode(const uint8_t *p, size_t len, struct ui_thumb_img *img)
{
	memset(img, 0, sizeof(*img));
	if (p == NULL || len < 4)
		return WC_ETRUNC;
	if (len > UI_THUMB_BYTES_MAX)
		return WC_ETOOBIG;
	if (p[0] == 0xff && p[1] == 0xd8 && p[2] == 0xff)
		return decode_jpeg(p, len, img);
	if (len >= 12 && memcmp(p, "RIFF", 4) == 0 &&
	    memcmp(p + 8, "WEBP", 4) == 0)
		return decode_webp(p, len, img);
	return WC_EPROTO;
}

/* ---- cells ---- */

static ChafaCanvasMode
canvas_mode(enum ui_thumb_colours c)
{
	switch (c) {
	case UI_THUMB_DIRECT:	return CHAFA_CANVAS_MODE_TRUECOLOR;
	case UI_THUMB_256:	return CHAFA_CANVAS_MODE_INDEXED_240;
	case UI_THUMB_16:	return CHAFA_CANVAS_MODE_INDEXED_16;
	case UI_THUMB_8:	return CHAFA_CANVAS_MODE_INDEXED_8;
	case UI_THUMB_MONO:	break;
	}
	return CHAFA_CANVAS_MODE_FGBG;
}

/* The canvas's colours of cell (x, y) as curses colour numbers. */
static void
cell_colours(ChafaCanvas *cv, enum ui_thumb_colours c, int x, int y,
    struct ui_thumb_cell *cell)
{
	gint	 fg = -1, bg = -1;

	if (c == UI_THUMB_MONO) {
		cell->fg = cell->bg = -1;
		return;
	}
	if (c == UI_THUMB_DIRECT)
		chafa_canvas_get_colors_at(cv, x, y, &fg, &bg);
	else
		chafa_canvas_get_raw_colors_at(cv, x, y, &fg, &bg);
	/* chafa gives 0xRRGGBB (direct) or the index; -1 transparent */
	cell->fg = fg < 0 ? -1 : (int32_t)fg;
	cell->bg = bg < 0 ? -1 : (int32_t)bg;
}

int
ui_thumb_render(const struct ui_thumb_img *img, int max_cols, int max_rows,
    enum ui_thumb_colours colours, struct ui_thumb_cells *out)
{
	ChafaSymbolMap		*map;
	ChafaCanvasConfig	*cfg;
	ChafaCanvas		*cv;
	gint			 cols = max_cols, rows = max_rows;
	int			 x, y;
	struct ui_thumb_cell	*cell;

	memset(out, 0, sizeof(*out));
	if (img == NULL || img->px == NULL || img->w < 1 || img->h < 1 ||
	    max_cols < 1 || max_rows < 1)
		return -EINVAL;
	/* a few hundred cells: no worker threads in the screen's process */
	chafa_set_n_threads(1);
	chafa_calc_canvas_geometry(img->w, img->h, &cols, &rows, 0.5f, TRUE,
	    FALSE);
	if (cols < 1)
		cols = 1;
	if (rows < 1)
		rows = 1;
	map = chafa_symbol_map_new();
	chafa_symbol_map_add_by_tags(map, colours == UI_THUMB_MONO ?
	    CHAFA_SYMBOL_TAG_BLOCK | CHAFA_SYMBOL_TAG_BORDER |
	    CHAFA_SYMBOL_TAG_SPACE : CHAFA_SYMBOL_TAG_HHALF |
	    CHAFA_SYMBOL_TAG_SPACE | CHAFA_SYMBOL_TAG_SOLID);
	cfg = chafa_canvas_config_new();
	chafa_canvas_config_set_geometry(cfg, cols, rows);
	chafa_canvas_config_set_canvas_mode(cfg, canvas_mode(colours));
	chafa_canvas_config_set_symbol_map(cfg, map);
	chafa_canvas_config_set_dither_mode(cfg, CHAFA_DITHER_MODE_NONE);
	cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, img->bpp == 4 ?
	    CHAFA_PIXEL_RGBA8_UNASSOCIATED : CHAFA_PIXEL_RGB8, img->px,
	    img->w, img->h, img->w * img->bpp);
	out->cols = cols;
	out->rows = rows;
	out->colours = colours;
	out->v = xcalloc((size_t)cols * (size_t)rows, sizeof(*out->v));
	for (y = 0; y < rows; y++)
		for (x = 0; x < cols; x++) {
			cell = &out->v[(size_t)y * (size_t)cols + (size_t)x];
			cell->ch = (uint32_t)chafa_canvas_get_char_at(cv, x, y);
			cell_colours(cv, colours, x, y, cell);
		}
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
	chafa_symbol_map_unref(map);
	return 0;
}

void
ui_thumb_cells_release(struct ui_thumb_cells *out)
{
	free(out->v);
	memset(out, 0, sizeof(*out));
}

/* ---- a message's thumbnail ---- */

struct ui_thumb {
	uint8_t			*p;
	size_t			 len;
	bool			 failed;	/* does not decode: no rows */
	int			 max_cols, max_rows; /* the cells' layout */
	struct ui_thumb_cells	 cells;
	/* the image's escape sequences for the layout (ui_thumb_pixels()) */
	struct buf		 px;
	enum ui_thumb_proto	 px_proto;	/* AUTO: none made */
	int			 px_cw, px_ch;
};

struct ui_thumb *
ui_thumb_new(const uint8_t *p, size_t len)
{
	struct ui_thumb	*t;

	if (p == NULL || len == 0)
		return NULL;
	if (len > UI_THUMB_BYTES_MAX) {
		log_warn("a thumbnail of %zu bytes not drawn (over %u)", len,
		    UI_THUMB_BYTES_MAX);
		return NULL;
	}
	t = xcalloc(1, sizeof(*t));
	t->p = xmalloc(len);
	memcpy(t->p, p, len);
	t->len = len;
	return t;
}

struct ui_thumb *
ui_thumb_new_hex(const char *h)
{
	size_t		 n = h != NULL ? strlen(h) : 0, i;
	uint8_t		*p;
	struct ui_thumb	*t;
	int		 hi, lo;

	if (n == 0 || n % 2 != 0 || n / 2 > UI_THUMB_BYTES_MAX)
		return NULL;
	p = xmalloc(n / 2);
	for (i = 0; i < n / 2; i++) {
		if ((hi = hex_digit(h[2 * i])) < 0 ||
		    (lo = hex_digit(h[2 * i + 1])) < 0) {
			free(p);
			return NULL;
		}
		p[i] = (uint8_t)(hi << 4 | lo);
	}
	t = ui_thumb_new(p, n / 2);
	free(p);
	return t;
}

void
ui_thumb_free(struct ui_thumb *t)
{
	if (t == NULL)
		return;
	ui_thumb_cells_release(&t->cells);
	buf_release(&t->px);
	free(t->p);
	free(t);
}

int
ui_thumb_rows(struct ui_thumb *t, int max_cols, int max_rows,
    enum ui_thumb_colours colours)
{
	struct ui_thumb_img	 img;
	int			 rc;

	if (t == NULL || t->failed || max_cols < 1 || max_rows < 1)
		return 0;
	if (t->cells.v != NULL && t->max_cols == max_cols &&
	    t->max_rows == max_rows && t->cells.colours == colours)
		return t->cells.rows;
	ui_thumb_cells_release(&t->cells);
	t->px_proto = UI_THUMB_PROTO_AUTO;	/* the image for it goes too */
	if ((rc = ui_thumb_decode(t->p, t->len, &img)) == 0) {
		rc = ui_thumb_render(&img, max_cols, max_rows, colours,
		    &t->cells);
		free(img.px);
	}
	if (rc != 0) {
		t->failed = true;
		log_warn("a thumbnail of %zu bytes not drawn: %s", t->len,
		    wc_strerror(rc));
		return 0;
	}
	t->max_cols = max_cols;
	t->max_rows = max_rows;
	return t->cells.rows;
}

const struct ui_thumb_cells *
ui_thumb_cells(const struct ui_thumb *t)
{
	return t != NULL && t->cells.v != NULL ? &t->cells : NULL;
}

/* ---- curses ---- */

#define POOL_MAX	4096	/* pairs kept at most */

/* The colour pairs made: pair UI_THUMB_PAIR0 + i is pool[i]. */
static struct {
	int32_t	 fg, bg;
} pool[POOL_MAX];
static int	pool_n;

/* The pair of fg on bg, made when new; 0 (the default pair) when curses
 * has no colours or the pair cannot be made. */
static int
pair_of(int32_t fg, int32_t bg)
{
	int	 i, limit;

	if (!has_colors())
		return 0;
	for (i = 0; i < pool_n; i++)
		if (pool[i].fg == fg && pool[i].bg == bg)
			return UI_THUMB_PAIR0 + i;
	limit = COLOR_PAIRS - UI_THUMB_PAIR0;
	if (limit > POOL_MAX)
		limit = POOL_MAX;
	if (limit < 1)
		return 0;
	if (pool_n >= limit)
		pool_n = 0;	/* made again from the first */
	if (init_extended_pair(UI_THUMB_PAIR0 + pool_n, fg, bg) != OK)
		return 0;
	pool[pool_n].fg = fg;
	pool[pool_n].bg = bg;
	return UI_THUMB_PAIR0 + pool_n++;
}

void
ui_thumb_draw_row(const struct ui_thumb *t, int row, int y, int x)
{
	const struct ui_thumb_cells	*c = ui_thumb_cells(t);
	const struct ui_thumb_cell	*cell;
	cchar_t				 cc;
	wchar_t				 wch[2];
	int				 i, pair;

	if (c == NULL || row < 0 || row >= c->rows)
		return;
	for (i = 0; i < c->cols; i++) {
		cell = &c->v[(size_t)row * (size_t)c->cols + (size_t)i];
		wch[0] = (wchar_t)cell->ch;
		wch[1] = L'\0';
		pair = c->colours == UI_THUMB_MONO ? 0 :
		    pair_of(cell->fg, cell->bg);
		if (setcchar(&cc, wch, A_NORMAL, 0, &pair) != OK)
			continue;
		(void)mvadd_wch(y, x + i, &cc);
	}
}

/* ---- images through the terminal ---- */

static bool
has(const char *s)
{
	return s != NULL && s[0] != '\0';
}

static bool
starts(const char *s, const char *prefix)
{
	return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

enum ui_thumb_proto
ui_thumb_proto_pick(enum ui_thumb_proto asked, const struct ui_thumb_env *e)
{
	if (asked != UI_THUMB_PROTO_AUTO)
		return asked;
	/* a multiplexer or SSH: what reaches the terminal is unknown */
	if (has(e->tmux) || has(e->sty) || starts(e->term, "screen") ||
	    starts(e->term, "tmux") || has(e->ssh))
		return UI_THUMB_PROTO_HALFBLOCKS;
	if (has(e->kitty_window_id) || starts(e->term, "xterm-kitty") ||
	    starts(e->term, "xterm-ghostty"))
		return UI_THUMB_PROTO_KITTY;
	if (e->term_program != NULL && (strcmp(e->term_program,
	    "iTerm.app") == 0 || strcmp(e->term_program, "WezTerm") == 0))
		return UI_THUMB_PROTO_ITERM2;
	if (starts(e->term, "foot") || starts(e->term, "mlterm"))
		return UI_THUMB_PROTO_SIXEL;
	return UI_THUMB_PROTO_HALFBLOCKS;
}

bool
ui_thumb_proto_pixels(enum ui_thumb_proto p)
{
	return p == UI_THUMB_PROTO_KITTY || p == UI_THUMB_PROTO_SIXEL ||
	    p == UI_THUMB_PROTO_ITERM2;
}

static ChafaPixelMode
pixel_mode(enum ui_thumb_proto p)
{
	return p == UI_THUMB_PROTO_KITTY ? CHAFA_PIXEL_MODE_KITTY :
	    p == UI_THUMB_PROTO_SIXEL ? CHAFA_PIXEL_MODE_SIXELS :
	    CHAFA_PIXEL_MODE_ITERM2;
}

/* img as the sequences of protocol p, cols by rows cells of cw by ch
 * pixels, into out. */
static void
print_pixels(const struct ui_thumb_img *img, int cols, int rows,
    enum ui_thumb_proto p, int cw, int ch, struct buf *out)
{
	ChafaCanvasConfig	*cfg = chafa_canvas_config_new();
	ChafaCanvas		*cv;
	ChafaTermInfo		*ti;
	GString			*g;

	chafa_set_n_threads(1);
	chafa_canvas_config_set_geometry(cfg, cols, rows);
	chafa_canvas_config_set_cell_geometry(cfg, cw, ch);
	chafa_canvas_config_set_pixel_mode(cfg, pixel_mode(p));
	chafa_canvas_config_set_canvas_mode(cfg, CHAFA_CANVAS_MODE_TRUECOLOR);
	cv = chafa_canvas_new(cfg);
	chafa_canvas_draw_all_pixels(cv, img->bpp == 4 ?
	    CHAFA_PIXEL_RGBA8_UNASSOCIATED : CHAFA_PIXEL_RGB8, img->px,
	    img->w, img->h, img->w * img->bpp);
	/* the fallback knows every protocol's sequences */
	ti = chafa_term_db_get_fallback_info(chafa_term_db_get_default());
	g = chafa_canvas_print(cv, ti);
	buf_append(out, g->str, g->len);
	g_string_free(g, TRUE);
	chafa_term_info_unref(ti);
	chafa_canvas_unref(cv);
	chafa_canvas_config_unref(cfg);
}

int
ui_thumb_pixels(struct ui_thumb *t, enum ui_thumb_proto p, int cell_w,
    int cell_h, struct buf *out)
{
	struct ui_thumb_img	 img;

	if (t == NULL || t->cells.v == NULL || !ui_thumb_proto_pixels(p))
		return -EINVAL;
	if (cell_w <= 0 || cell_h <= 0) {
		cell_w = 10;
		cell_h = 20;
	}
	if (t->px_proto != p || t->px_cw != cell_w || t->px_ch != cell_h) {
		t->px.len = 0;
		t->px_proto = UI_THUMB_PROTO_AUTO;
		if (ui_thumb_decode(t->p, t->len, &img) != 0)
			return -EINVAL;	/* it decoded for the cells */
		print_pixels(&img, t->cells.cols, t->cells.rows, p, cell_w,
		    cell_h, &t->px);
		free(img.px);
		t->px_proto = p;
		t->px_cw = cell_w;
		t->px_ch = cell_h;
	}
	buf_append(out, t->px.p, t->px.len);
	return 0;
}

/* Whether the rectangle of t's cells at (y, x) is still blank on the
 * screen (spaces of the default pair, as ui_thumb_draw_blank() left). */
static bool
still_blank(int y, int x, const struct ui_thumb_cells *c)
{
	cchar_t		 cc;
	wchar_t		 wc[CCHARW_MAX + 1];
	attr_t		 a;
	short		 pair;
	int		 r, k;

	for (r = 0; r < c->rows; r++)
		for (k = 0; k < c->cols; k++)
			if (mvwin_wch(curscr, y + r, x + k, &cc) == ERR ||
			    getcchar(&cc, wc, &a, &pair, NULL) == ERR ||
			    wc[0] != L' ' || pair != 0)
				return false;
	return true;
}

/* The spots to show now (covered ones left out) into next. */
static void
visible_spots(const struct ui_thumb_spots *now, struct ui_thumb_shown *next)
{
	const struct ui_thumb_cells	*c;
	size_t				 i;

	memset(next, 0, sizeof(*next));
	next->lines = LINES;
	next->cols = COLS;
	for (i = 0; i < now->n && next->n < UI_THUMB_SPOTS_MAX; i++) {
		if ((c = ui_thumb_cells(now->v[i].t)) == NULL ||
		    !still_blank(now->v[i].y, now->v[i].x, c))
			continue;
		next->v[next->n].y = now->v[i].y;
		next->v[next->n].x = now->v[i].x;
		next->v[next->n].cols = c->cols;
		next->v[next->n].rows = c->rows;
		next->v[next->n].t = now->v[i].t;
		next->n++;
	}
}

/* The terminal's cell in pixels (TIOCGWINSZ), or 0 by 0 unknown. */
static void
cell_pixels(int *cw, int *ch)
{
	struct winsize	 ws;

	*cw = *ch = 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
	    ws.ws_row > 0 && ws.ws_xpixel > 0 && ws.ws_ypixel > 0) {
		*cw = ws.ws_xpixel / ws.ws_col;
		*ch = ws.ws_ypixel / ws.ws_row;
	}
}

bool
ui_thumb_spots_write(struct ui_thumb_shown *shown,
    const struct ui_thumb_spots *now, enum ui_thumb_proto p)
{
	struct ui_thumb_shown	 next;
	struct buf		 out = BUF_INIT;
	char			 cup[32];
	size_t			 i;
	int			 cy, cx, cw, ch;
	bool			 repaint = false;

	if (!ui_thumb_proto_pixels(p))
		return false;
	visible_spots(now, &next);
	if (memcmp(&next, shown, sizeof(next)) == 0)
		return false;
	if (p == UI_THUMB_PROTO_KITTY)
		buf_append(&out, "\033_Ga=d,d=A,q=2\033\\", 15);
	else if (shown->n > 0) {
		/* no old sixels or inline images left under blank cells */
		clearok(curscr, TRUE);
		refresh();
		repaint = true;
	}
	cell_pixels(&cw, &ch);
	for (i = 0; i < next.n; i++) {
		snprintf(cup, sizeof(cup), "\033[%d;%dH", next.v[i].y + 1,
		    next.v[i].x + 1);
		buf_append(&out, cup, strlen(cup));
		(void)ui_thumb_pixels((struct ui_thumb *)next.v[i].t, p, cw,
		    ch, &out);
	}
	getyx(curscr, cy, cx);
	snprintf(cup, sizeof(cup), "\033[%d;%dH", cy + 1, cx + 1);
	buf_append(&out, cup, strlen(cup));
	ui_term_flush(&out);
	buf_release(&out);
	*shown = next;
	return repaint;
}
