/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/msgs-int.h -- what ui/msgs.c and ui/msgs-draw.c share, for them
 * alone: the layout of a row that paging needs to keep the view in place.
 * ui/msgs.c calls ui/msgs-draw.c (this), never the other way.  Main
 * thread.
 */
#ifndef UI_MSGS_INT_H
#define UI_MSGS_INT_H

#include <stddef.h>

#include "ui/msgs.h"

/*
 * The screen rows message i of m takes at width w (columns), its day
 * separator included; lays out its text for that width (cached in the
 * row).  i < m->n.
 */
int		ui_msgs_block_rows(struct ui_msgs *m, size_t i, int w);

#endif
