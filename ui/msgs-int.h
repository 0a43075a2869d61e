/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/msgs-int.h -- what ui/msgs.c and ui/msgs-draw.c share, for them
 * alone: the layout of a row that paging needs to keep the view in place
 * (ui/msgs-draw.c), a row's reactions and the sanitiser (ui/msgs-react.c).
 * ui/msgs.c calls both, never the other way.  Main
 * thread.
 */
#ifndef UI_MSGS_INT_H
#define UI_MSGS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/msgs.h"

/*
 * The screen rows message i of m takes at width w (columns), its day
 * separator included; lays out its text for that width (cached in the
 * row).  i < m->n.
 */
int		ui_msgs_block_rows(struct ui_msgs *m, size_t i, int w);

/* ---- ui/msgs-react.c ---- */

/* s (NULL: "") sanitised for the screen (base/sanitize.h), multiline
 * keeping its newlines: a new string, the caller frees it. */
char		*ui_msgs_clean(const char *s, bool multiline);

/* Free g's reactions (none left). */
void		ui_msgs_reacts_release(struct ui_msg *g);

/* g's reactions, all of them, from the engine's count t[0..n) (borrowed):
 * each emoji and name sanitised. */
void		ui_msgs_reacts_of_tally(struct ui_msg *g, const struct ev_tally *t,
		    uint32_t n);

/* sender's reaction to g is emoji now ("" none): an event the engine did
 * not count; at most 256 senders kept a row. */
void		ui_msgs_react(struct ui_msg *g, const char *sender,
		    const char *emoji);

#endif
