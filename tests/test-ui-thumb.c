/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-ui-thumb.c -- thumbnails (ui/thumb.c): a JPEG and a WebP
 * made here (libjpeg, libwebp), red on the left and blue on the right,
 * come out as cells whose visible colours are red and blue in 256 colours,
 * direct colour and 16; monochrome draws shapes alone; truncated, corrupt
 * and oversized data (sides over 4096 declared in the header) are refused
 * with their error, nothing allocated; a message's thumbnail lays out
 * once for a size and not at all when it fails.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jpeglib.h>
#include <webp/encode.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "ui/msgs.h"
#include "ui/msgs-int.h"
#include "ui/thumb.h"

#define W	64
#define H	32

/* Red (left half) and blue (right half), w by h, bpp bytes a pixel. */
static uint8_t *
split(int w, int h, int bpp)
{
	uint8_t	*px = malloc((size_t)w * (size_t)h * (size_t)bpp), *q;
	int	 x, y;

	assert_non_null(px);
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			q = px + ((size_t)y * (size_t)w + (size_t)x) *
			    (size_t)bpp;
			q[0] = x < w / 2 ? 255 : 0;
			q[1] = 0;
			q[2] = x < w / 2 ? 0 : 255;
			if (bpp == 4)
				q[3] = 255;
		}
	return px;
}

/* A baseline JPEG of the split, w by h, no chroma subsampling: malloc'd,
 * its length in *len. */
static uint8_t *
make_jpeg(int w, int h, size_t *len)
{
	struct jpeg_compress_struct	 ci;
	struct jpeg_error_mgr		 err;
	unsigned char			*out = NULL;
	unsigned long			 n = 0;
	uint8_t				*px = split(w, h, 3), *copy;
	JSAMPROW			 row;

	ci.err = jpeg_std_error(&err);
	jpeg_create_compress(&ci);
	jpeg_mem_dest(&ci, &out, &n);
	ci.image_width = (JDIMENSION)w;
	ci.image_height = (JDIMENSION)h;
	ci.input_components = 3;
	ci.in_color_space = JCS_RGB;
	jpeg_set_defaults(&ci);
	jpeg_set_quality(&ci, 95, TRUE);
	ci.comp_info[0].h_samp_factor = ci.comp_info[0].v_samp_factor = 1;
	jpeg_start_compress(&ci, TRUE);
	while (ci.next_scanline < ci.image_height) {
		row = px + (size_t)ci.next_scanline * (size_t)w * 3;
		(void)jpeg_write_scanlines(&ci, &row, 1);
	}
	jpeg_finish_compress(&ci);
	jpeg_destroy_compress(&ci);
	free(px);
	copy = malloc(n);
	assert_non_null(copy);
	memcpy(copy, out, n);
	free(out);
	*len = n;
	return copy;
}

/* The colours cell c shows at its top and bottom half. */
static void
visible(const struct ui_thumb_cell *c, int32_t *top, int32_t *bottom)
{
	switch (c->ch) {
	case 0x2580:	/* ▀ */
		*top = c->fg;
		*bottom = c->bg;
		break;
	case 0x2584:	/* ▄ */
		*top = c->bg;
		*bottom = c->fg;
		break;
	case 0x2588:	/* █ */
		*top = *bottom = c->fg;
		break;
	case ' ':
		*top = *bottom = c->bg;
		break;
	default:
		fail_msg("cell U+%04X is no half-block", (unsigned)c->ch);
	}
}

/* Every cell of columns [0, cols/2 - 1) shows left and of
 * [cols/2 + 1, cols) right (the two around the split may blend). */
static void
check_split(const struct ui_thumb_cells *c, int32_t left, int32_t right)
{
	int32_t	 top, bottom;
	int	 x, y;

	for (y = 0; y < c->rows; y++)
		for (x = 0; x < c->cols; x++) {
			if (x >= c->cols / 2 - 1 && x <= c->cols / 2)
				continue;
			visible(&c->v[y * c->cols + x], &top, &bottom);
			assert_int_equal(top, x < c->cols / 2 ? left : right);
			assert_int_equal(bottom, x < c->cols / 2 ? left :
			    right);
		}
}

static void
test_ui_thumb_jpeg__split_shows_red_left_blue_right_in_256(void **st)
{
	struct ui_thumb_img	 img;
	struct ui_thumb_cells	 c;
	size_t			 len;
	uint8_t			*j = make_jpeg(W, H, &len);

	(void)st;
	assert_int_equal(ui_thumb_decode(j, len, &img), 0);
	assert_int_equal(img.w, W);
	assert_int_equal(img.h, H);
	assert_int_equal(img.bpp, 3);
	/* 2:1 pixels into cells twice as high as wide: 16 by 4 */
	assert_int_equal(ui_thumb_render(&img, 16, 4, UI_THUMB_256, &c), 0);
	assert_int_equal(c.cols, 16);
	assert_int_equal(c.rows, 4);
	check_split(&c, 196, 21);	/* xterm's #ff0000 and #0000ff */
	ui_thumb_cells_release(&c);
	/* the rows bound it: 40 columns wide at most, 3 rows: 12 by 3 */
	assert_int_equal(ui_thumb_render(&img, 40, 3, UI_THUMB_256, &c), 0);
	assert_int_equal(c.cols, 12);
	assert_int_equal(c.rows, 3);
	check_split(&c, 196, 21);
	ui_thumb_cells_release(&c);
	free(img.px);
	free(j);
}

static void
test_ui_thumb_jpeg__direct_16_and_mono_colours(void **st)
{
	struct ui_thumb_img	 img;
	struct ui_thumb_cells	 c;
	size_t			 len, k, shapes = 0;
	uint8_t			*j = make_jpeg(W, H, &len);
	int32_t			 top, bottom;

	(void)st;
	assert_int_equal(ui_thumb_decode(j, len, &img), 0);
	assert_int_equal(ui_thumb_render(&img, 16, 4, UI_THUMB_DIRECT, &c),
	    0);
	/* 24-bit: near #ff0000 at the left, #0000ff at the right */
	visible(&c.v[0], &top, &bottom);
	assert_true(((top >> 16) & 0xff) >= 0xf0 && (top & 0xffff) < 0x1010);
	visible(&c.v[c.cols - 1], &top, &bottom);
	assert_true((top & 0xff) >= 0xf0 && (top >> 8) < 0x1010);
	ui_thumb_cells_release(&c);
	/* 16: bright red (9) and bright blue (12) */
	assert_int_equal(ui_thumb_render(&img, 16, 4, UI_THUMB_16, &c), 0);
	check_split(&c, 9, 12);
	ui_thumb_cells_release(&c);
	/* none: default colours, the picture in shapes */
	assert_int_equal(ui_thumb_render(&img, 16, 4, UI_THUMB_MONO, &c), 0);
	for (k = 0; k < (size_t)(c.cols * c.rows); k++) {
		assert_int_equal(c.v[k].fg, -1);
		assert_int_equal(c.v[k].bg, -1);
		shapes += c.v[k].ch != ' ';
	}
	assert_true(shapes > 0 && shapes < (size_t)(c.cols * c.rows));
	ui_thumb_cells_release(&c);
	free(img.px);
	free(j);
}

static void
test_ui_thumb_webp__split_decodes_with_alpha(void **st)
{
	struct ui_thumb_img	 img;
	struct ui_thumb_cells	 c;
	uint8_t			*px = split(W, H, 4), *out = NULL;
	size_t			 len;

	(void)st;
	len = WebPEncodeLosslessRGBA(px, W, H, W * 4, &out);
	assert_true(len > 0);
	assert_int_equal(ui_thumb_decode(out, len, &img), 0);
	assert_int_equal(img.bpp, 4);
	assert_int_equal(img.w, W);
	assert_int_equal(ui_thumb_render(&img, 16, 4, UI_THUMB_256, &c), 0);
	check_split(&c, 196, 21);
	ui_thumb_cells_release(&c);
	free(img.px);
	/* cut: not enough data */
	assert_int_equal(ui_thumb_decode(out, len / 2, &img), WC_ETRUNC);
	assert_null(img.px);
	WebPFree(out);
	free(px);
}

static void
test_ui_thumb_decode__refuses_truncated_and_corrupt(void **st)
{
	/* a frame header of 5 components in 11 bytes (23 needed) */
	static const uint8_t	 junk[] = { 0xff, 0xd8, 0xff, 0xc0, 0x00,
	    0x0b, 0x08, 0x00, 0x10, 0x00, 0x10, 0x05, 0x01, 0x11, 0x00 };
	struct ui_thumb_img	 img;
	size_t			 len;
	uint8_t			*j = make_jpeg(W, H, &len);

	(void)st;
	/* the entropy data cut in the middle: truncated */
	assert_int_equal(ui_thumb_decode(j, len * 2 / 3, &img), WC_ETRUNC);
	assert_null(img.px);
	/* the header cut: no frame yet */
	assert_int_equal(ui_thumb_decode(j, 20, &img), WC_ETRUNC);
	assert_int_equal(ui_thumb_decode(junk, sizeof(junk), &img),
	    WC_EPROTO);
	/* neither JPEG nor WebP (a PNG's start) */
	assert_int_equal(ui_thumb_decode((const uint8_t *)"\x89PNG\r\n\x1a\n",
	    8, &img), WC_EPROTO);
	assert_int_equal(ui_thumb_decode(NULL, 0, &img), WC_ETRUNC);
	assert_null(img.px);
	free(j);
}

/* The JPEG's frame header (SOF0) declares h by w. */
static void
declare_sides(uint8_t *j, size_t len, unsigned w, unsigned h)
{
	size_t	 i;

	for (i = 2; i + 9 < len; i++)
		if (j[i] == 0xff && j[i + 1] == 0xc0) {
			j[i + 5] = (uint8_t)(h >> 8);
			j[i + 6] = (uint8_t)h;
			j[i + 7] = (uint8_t)(w >> 8);
			j[i + 8] = (uint8_t)w;
			return;
		}
	fail_msg("no SOF0 in the JPEG");
}

static void
test_ui_thumb_decode__refuses_huge_declared_sides(void **st)
{
	/* a VP8X header declaring a 5000 by 5000 canvas */
	static const uint8_t	 vp8x[] = { 'R', 'I', 'F', 'F', 22, 0, 0, 0,
	    'W', 'E', 'B', 'P', 'V', 'P', '8', 'X', 10, 0, 0, 0,
	    0, 0, 0, 0, 0x87, 0x13, 0, 0x87, 0x13, 0 };
	struct ui_thumb_img	 img;
	size_t			 len;
	uint8_t			*j = make_jpeg(W, H, &len);

	(void)st;
	declare_sides(j, len, 5000, 5000);
	assert_int_equal(ui_thumb_decode(j, len, &img), WC_ETOOBIG);
	assert_null(img.px);
	declare_sides(j, len, 4097, 16);
	assert_int_equal(ui_thumb_decode(j, len, &img), WC_ETOOBIG);
	declare_sides(j, len, 60000, 60000);
	assert_int_equal(ui_thumb_decode(j, len, &img), WC_ETOOBIG);
	declare_sides(j, len, 0, 16);
	assert_int_not_equal(ui_thumb_decode(j, len, &img), 0);
	assert_null(img.px);
	assert_int_equal(ui_thumb_decode(vp8x, sizeof(vp8x), &img),
	    WC_ETOOBIG);
	assert_null(img.px);
	free(j);
}

static void
test_ui_thumb_rows__lays_out_once_and_fails_for_good(void **st)
{
	struct ui_thumb			*t;
	const struct ui_thumb_cells	*c;
	size_t				 len;
	uint8_t				*j = make_jpeg(W, H, &len);

	(void)st;
	assert_null(ui_thumb_new(j, 0));
	assert_null(ui_thumb_new(NULL, 10));
	t = ui_thumb_new(j, len);
	assert_non_null(t);
	assert_int_equal(ui_thumb_rows(t, 16, 4, UI_THUMB_256), 4);
	c = ui_thumb_cells(t);
	assert_non_null(c);
	assert_int_equal(ui_thumb_rows(t, 16, 4, UI_THUMB_256), 4);
	assert_ptr_equal(ui_thumb_cells(t), c);	/* cached */
	assert_int_equal(ui_thumb_rows(t, 40, 2, UI_THUMB_256), 2);
	assert_int_equal(ui_thumb_cells(t)->cols, 8);
	assert_int_equal(ui_thumb_rows(t, 40, 0, UI_THUMB_256), 0);
	ui_thumb_free(t);
	/* a thumbnail that does not decode takes no rows, ever */
	t = ui_thumb_new(j, len / 2);
	assert_int_equal(ui_thumb_rows(t, 16, 4, UI_THUMB_256), 0);
	assert_null(ui_thumb_cells(t));
	assert_int_equal(ui_thumb_rows(t, 16, 5, UI_THUMB_256), 0);
	ui_thumb_free(t);
	ui_thumb_free(NULL);
	free(j);
}

/* The message pane counts a media row's thumbnail in its rows: the day
 * line, the header, the words and the caption, and the thumbnail's rows
 * (none with thumb_rows 0, for a deleted row, or a thumbnail that does
 * not decode). */
static void
test_ui_thumb_msgs__block_rows_count_the_thumbnail(void **st)
{
	struct ui_msgs	 m;
	struct ui_msg	*g;
	size_t		 len;
	uint8_t		*j = make_jpeg(W, H, &len);

	(void)st;
	ui_msgs_init(&m);
	m.v = xcalloc(1, sizeof(*m.v));
	m.n = 1;
	g = &m.v[0];
	g->id = xstrdup("3EB0");
	g->sender = xstrdup("");
	g->sender_name = xstrdup("");
	g->text = xstrdup("[photo] 64x32\nthe caption");
	g->quoted_id = xstrdup("");
	g->quoted_sender = xstrdup("");
	g->quoted = xstrdup("");
	g->ts_ms = 1700000000000;
	g->thumb = ui_thumb_new(j, len);
	m.thumb_colours = UI_THUMB_256;
	assert_int_equal(ui_msgs_block_rows(&m, 0, 40), 1 + 1 + 2);
	m.thumb_rows = 4;
	/* 4 rows of 16 columns: a 2:1 picture in 38 columns */
	assert_int_equal(ui_msgs_block_rows(&m, 0, 40), 1 + 1 + 2 + 4);
	m.thumb_rows = 40;	/* then the width bounds it: 38 by 9 */
	assert_int_equal(ui_msgs_block_rows(&m, 0, 40), 1 + 1 + 2 + 9);
	g->deleted = true;
	assert_int_equal(ui_msgs_block_rows(&m, 0, 40), 1 + 1 + 1);
	g->deleted = false;
	ui_thumb_free(g->thumb);
	g->thumb = ui_thumb_new(j, len / 2);	/* does not decode */
	assert_int_equal(ui_msgs_block_rows(&m, 0, 40), 1 + 1 + 2);
	ui_msgs_release(&m);	/* frees the thumbnail too */
	free(j);
}

/* auto: half-blocks inside tmux, screen and over SSH, else by the
 * terminal's variables; a protocol asked for is kept. */
static void
test_ui_thumb_proto_pick__by_the_environment(void **st)
{
	struct ui_thumb_env	 e;

	(void)st;
	memset(&e, 0, sizeof(e));
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_AUTO, &e),
	    UI_THUMB_PROTO_HALFBLOCKS);
	e.kitty_window_id = "1";
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_AUTO, &e),
	    UI_THUMB_PROTO_KITTY);
	e.tmux = "/tmp/tmux-0/default,1,0";	/* kitty, but through tmux */
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_AUTO, &e),
	    UI_THUMB_PROTO_HALFBLOCKS);
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_KITTY, &e),
	    UI_THUMB_PROTO_KITTY);	/* told otherwise */
	memset(&e, 0, sizeof(e));
	e.term_program = "iTerm.app";
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_AUTO, &e),
	    UI_THUMB_PROTO_ITERM2);
	e.ssh = "10.0.0.1 5000 10.0.0.2 22";
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_AUTO, &e),
	    UI_THUMB_PROTO_HALFBLOCKS);
	memset(&e, 0, sizeof(e));
	e.term = "foot";
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_AUTO, &e),
	    UI_THUMB_PROTO_SIXEL);
	e.term = "screen-256color";
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_AUTO, &e),
	    UI_THUMB_PROTO_HALFBLOCKS);
	e.term = "xterm-256color";
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_AUTO, &e),
	    UI_THUMB_PROTO_HALFBLOCKS);
	assert_int_equal(ui_thumb_proto_pick(UI_THUMB_PROTO_OFF, &e),
	    UI_THUMB_PROTO_OFF);
	assert_false(ui_thumb_proto_pixels(UI_THUMB_PROTO_HALFBLOCKS));
	assert_true(ui_thumb_proto_pixels(UI_THUMB_PROTO_SIXEL));
}

/* The image of a laid-out thumbnail in each pixel protocol: kitty's APC
 * (a=T, its size in cells), a sixel DCS, iTerm2's OSC 1337 inline file;
 * none before a layout or for half-blocks. */
static void
test_ui_thumb_pixels__each_protocol_s_sequence(void **st)
{
	struct ui_thumb	*t;
	struct buf	 b = BUF_INIT;
	size_t		 len;
	uint8_t		*j = make_jpeg(W, H, &len);

	(void)st;
	t = ui_thumb_new(j, len);
	assert_int_equal(ui_thumb_pixels(t, UI_THUMB_PROTO_KITTY, 10, 20, &b),
	    -EINVAL);	/* not laid out */
	assert_int_equal(ui_thumb_rows(t, 16, 4, UI_THUMB_256), 4);
	assert_int_equal(ui_thumb_pixels(t, UI_THUMB_PROTO_HALFBLOCKS, 10, 20,
	    &b), -EINVAL);
	assert_int_equal(b.len, 0);
	assert_int_equal(ui_thumb_pixels(t, UI_THUMB_PROTO_KITTY, 10, 20, &b),
	    0);
	assert_true(b.len > 8 && memcmp(b.p, "\033_Ga=T,", 7) == 0);
	assert_non_null(memmem(b.p, b.len, "c=16,r=4", 8));
	b.len = 0;
	assert_int_equal(ui_thumb_pixels(t, UI_THUMB_PROTO_SIXEL, 10, 20, &b),
	    0);
	assert_true(b.len > 4 && memcmp(b.p, "\033P", 2) == 0 &&
	    memmem(b.p, b.len, "q", 1) != NULL);
	b.len = 0;
	assert_int_equal(ui_thumb_pixels(t, UI_THUMB_PROTO_ITERM2, 0, 0, &b),
	    0);
	assert_true(b.len > 20 && memcmp(b.p, "\033]1337;File=inline=1", 20) ==
	    0);
	buf_release(&b);
	ui_thumb_free(t);
	free(j);
}

static void
test_ui_thumb_colours_of__maps_curses_colours(void **st)
{
	(void)st;
	assert_int_equal(ui_thumb_colours_of(0), UI_THUMB_MONO);
	assert_int_equal(ui_thumb_colours_of(2), UI_THUMB_MONO);
	assert_int_equal(ui_thumb_colours_of(8), UI_THUMB_8);
	assert_int_equal(ui_thumb_colours_of(16), UI_THUMB_16);
	assert_int_equal(ui_thumb_colours_of(88), UI_THUMB_16);
	assert_int_equal(ui_thumb_colours_of(256), UI_THUMB_256);
	assert_int_equal(ui_thumb_colours_of(1 << 24), UI_THUMB_DIRECT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ui_thumb_jpeg__split_shows_red_left_blue_right_in_256),
		cmocka_unit_test(test_ui_thumb_jpeg__direct_16_and_mono_colours),
		cmocka_unit_test(test_ui_thumb_webp__split_decodes_with_alpha),
		cmocka_unit_test(test_ui_thumb_decode__refuses_truncated_and_corrupt),
		cmocka_unit_test(test_ui_thumb_decode__refuses_huge_declared_sides),
		cmocka_unit_test(test_ui_thumb_rows__lays_out_once_and_fails_for_good),
		cmocka_unit_test(test_ui_thumb_msgs__block_rows_count_the_thumbnail),
		cmocka_unit_test(test_ui_thumb_proto_pick__by_the_environment),
		cmocka_unit_test(test_ui_thumb_pixels__each_protocol_s_sequence),
		cmocka_unit_test(test_ui_thumb_colours_of__maps_curses_colours),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
