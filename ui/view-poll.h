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
#include <stdint.h>

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

/* The poll-new key (a chat open): PROMPT_POLL_Q asks the question, then
 * PROMPT_POLL_OPT each option (2 to 12; an empty Enter after two goes
 * on; one alike refused), then PROMPT_POLL_MULTI one answer (1) or
 * several (2): CMD_POLL_NEW.  Their Enters, PROMPT_POLL_MULTI's keys
 * (always true) and their words over the input (line[size]). */
void		 ui_view_poll_new(struct ui_view *v, int64_t now);
void		 ui_view_poll_q_enter(struct ui_view *v);
void		 ui_view_poll_opt_enter(struct ui_view *v);
bool		 ui_view_poll_multi_key(struct ui_view *v, int k);
const char	*ui_view_poll_words(struct ui_view *v, char *line, size_t size,
		    int cols);

#endif
