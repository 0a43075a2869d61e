/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/input.c -- the input line's editor (ui/input.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ui/input.h"
#include "base/xmalloc.h"

void
ui_input_init(struct ui_input *in)
{
	in->cap = 64;
	in->text = xmalloc(in->cap);
	in->text[0] = '\0';
	in->len = in->cur = 0;
}

void
ui_input_release(struct ui_input *in)
{
	free(in->text);
	in->text = NULL;
	in->len = in->cap = in->cur = 0;
}

int
ui_input_insert(struct ui_input *in, const char *s, size_t len)
{
	if (len > UI_INPUT_MAX || in->len + len > UI_INPUT_MAX)
		return -E2BIG;
	if (in->len + len + 1 > in->cap) {
		while (in->len + len + 1 > in->cap)
			in->cap *= 2;
		in->text = xrealloc(in->text, in->cap);
	}
	memmove(in->text + in->cur + len, in->text + in->cur,
	    in->len - in->cur + 1);
	memcpy(in->text + in->cur, s, len);
	in->len += len;
	in->cur += len;
	return 0;
}

int
ui_input_insert_cp(struct ui_input *in, uint32_t cp)
{
	char	 u[4];
	size_t	 n;

	if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -EINVAL;
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | (cp >> 12 & 0x3f));
		u[2] = (char)(0x80 | (cp >> 6 & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	return ui_input_insert(in, u, n);
}

void
ui_input_left(struct ui_input *in)
{
	if (in->cur > 0)
		in->cur = ui_text_prev(in->text, in->cur);
}

void
ui_input_right(struct ui_input *in)
{
	int	 w;

	if (in->cur < in->len)
		in->cur += ui_text_next(in->text + in->cur, in->len - in->cur,
		    &w);
}

void
ui_input_home(struct ui_input *in)
{
	while (in->cur > 0 && in->text[in->cur - 1] != '\n')
		in->cur--;
}

void
ui_input_end(struct ui_input *in)
{
	char	*nl = strchr(in->text + in->cur, '\n');

	in->cur = nl != NULL ? (size_t)(nl - in->text) : in->len;
}

/* Remove bytes [from, to) and put the cursor at from. */
static void
cut(struct ui_input *in, size_t from, size_t to)
{
	memmove(in->text + from, in->text + to, in->len - to + 1);
	in->len -= to - from;
	in->cur = from;
}

void
ui_input_backspace(struct ui_input *in)
{
	if (in->cur > 0)
		cut(in, ui_text_prev(in->text, in->cur), in->cur);
}

void
ui_input_delete(struct ui_input *in)
{
	int	 w;

	if (in->cur < in->len)
		cut(in, in->cur, in->cur + ui_text_next(in->text + in->cur,
		    in->len - in->cur, &w));
}

void
ui_input_kill_end(struct ui_input *in)
{
	size_t	 from = in->cur;

	ui_input_end(in);
	cut(in, from, in->cur);
}

void
ui_input_kill_start(struct ui_input *in)
{
	size_t	 to = in->cur;

	ui_input_home(in);
	cut(in, in->cur, to);
}

void
ui_input_clear(struct ui_input *in)
{
	in->len = in->cur = 0;
	in->text[0] = '\0';
}

bool
ui_input_is_empty(const struct ui_input *in)
{
	return in->len == 0;
}

int
ui_input_layout(const struct ui_input *in, int width, struct ui_line *lines,
    int max, int *row, int *col)
{
	struct ui_line	*l;
	int		 rows, i, r = 0, c, first;

	if (width < 1)
		width = 1;
	rows = ui_text_wrap(in->text, in->len, width, NULL, 0);
	l = xcalloc((size_t)rows, sizeof(*l));
	(void)ui_text_wrap(in->text, in->len, width, l, rows);
	for (i = 0; i < rows; i++)
		if (l[i].off <= in->cur)
			r = i;
	c = ui_text_width(in->text + l[r].off, in->cur - l[r].off);
	if (c >= width) {
		r++;
		c = 0;
	}
	/* the max rows that end with the cursor's; the row after the
	 * text's last, when the cursor is there, is empty */
	first = r - max + 1 > 0 ? r - max + 1 : 0;
	for (i = 0; i < max; i++) {
		if (first + i < rows)
			lines[i] = l[first + i];
		else {
			lines[i].off = in->len;
			lines[i].len = 0;
			lines[i].cols = 0;
		}
	}
	free(l);
	*row = r;
	*col = c;
	return r + 1 > rows ? r + 1 : rows;
}
