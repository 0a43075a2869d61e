/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/input.h -- the input line's editor: UTF-8 text with a cursor that
 * moves and deletes by grapheme cluster (ui/text.h), newlines for a
 * message of several lines, and its layout wrapped to a width with the
 * cursor's row and column.  Pure; no curses.  One editor is used by one
 * thread (the main thread).
 */
#ifndef UI_INPUT_H
#define UI_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/text.h"

/* The longest message typed, in bytes: more is not taken. */
#define UI_INPUT_MAX	65536

struct ui_input {
	char	*text;		/* NUL-terminated UTF-8; never NULL after
				 * ui_input_init() */
	size_t	 len;		/* bytes, without the NUL */
	size_t	 cap;
	size_t	 cur;		/* cursor, a byte offset at a cluster
				 * boundary, 0 <= cur <= len */
};

/* An empty editor; released with ui_input_release(). */
void	ui_input_init(struct ui_input *in);

/* Free the text (in itself is the caller's).  Idempotent. */
void	ui_input_release(struct ui_input *in);

/*
 * Insert s[0..len) (UTF-8) at the cursor and move the cursor past it.
 * Returns 0, or -E2BIG when the text would pass UI_INPUT_MAX bytes
 * (nothing inserted).
 */
MUST_CHECK int ui_input_insert(struct ui_input *in, const char *s, size_t len);

/*
 * Insert the code point cp (a key typed) at the cursor.  Returns 0,
 * -EINVAL for a surrogate or a value above U+10FFFF, or -E2BIG as
 * ui_input_insert().
 */
MUST_CHECK int ui_input_insert_cp(struct ui_input *in, uint32_t cp);

/* Cursor moves, by cluster; home/end go to the start/end of the cursor's
 * line (between newlines).  Each does nothing at the text's edge. */
void	ui_input_left(struct ui_input *in);
void	ui_input_right(struct ui_input *in);
void	ui_input_home(struct ui_input *in);
void	ui_input_end(struct ui_input *in);

/* Delete the cluster before (Backspace) or at (Delete) the cursor. */
void	ui_input_backspace(struct ui_input *in);
void	ui_input_delete(struct ui_input *in);

/* Delete from the cursor to the end (Ctrl-k) or start (Ctrl-u) of its
 * line. */
void	ui_input_kill_end(struct ui_input *in);
void	ui_input_kill_start(struct ui_input *in);

/* Empty the text. */
void	ui_input_clear(struct ui_input *in);

/* Whether the text is empty. */
bool	ui_input_is_empty(const struct ui_input *in);

/*
 * The text wrapped to width columns (ui_text_wrap()): returns the rows it
 * takes, sets *row and *col to the cursor's row (from 0) and column, and
 * fills lines[] with the up to max rows that end with the cursor's: rows
 * F to F + max - 1 where F = max(0, *row - max + 1) (those that exist).
 * A cursor at the end of a full row goes to the start of the next one
 * (which may be one more row than the text's, counted in the return).
 */
int	ui_input_layout(const struct ui_input *in, int width,
	    struct ui_line *lines, int max, int *row, int *col);

#endif
