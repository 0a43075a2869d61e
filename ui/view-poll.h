/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-poll.h -- the chat screen's polls (ui/view-poll.c; issue 20,
 * protocol-features.md 3.1), for the rooms that reach them
 * (view-select.c, view-prompt.c).  Main thread.
 */
#ifndef UI_VIEW_POLL_H
#define UI_VIEW_POLL_H

#include <stdbool.h>
#include <stddef.h>

struct ui_view;

/* The vote key on the selected message: a poll's chooser (PROMPT_VOTE,
 * our current vote ticked); another message: a note says to select a
 * poll. */
void		 ui_view_vote(struct ui_view *v);

/* A key in the chooser: a digit 1-9 or Space (on the current option)
 * ticks or unticks, Left and Right move; always true (taken). */
bool		 ui_view_vote_key(struct ui_view *v, int k);

/* Enter in the chooser: CMD_POLL_VOTE with the options ticked ("" none:
 * our vote taken back); the chooser closes. */
void		 ui_view_vote_enter(struct ui_view *v);

/* The chooser's words over the input (sanitised options) into
 * line[size]: line, or NULL when the poll's record does not parse. */
const char	*ui_view_vote_words(struct ui_view *v, char *line, size_t size);

#endif
