/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-minfo.h -- part of ui/view-int.h (which includes it): what
 * the selected message's keys of issue 20 share.  The message info
 * (ui/view-msginfo.c keeps it and its room of the key dispatch,
 * ui/view-panes.c draws it): our message's recipients with when each
 * one's devices said it was delivered and read (EV_MSG_INFO).  And
 * forwarding (ui/view-forward.c: the chat picker's marks, CMD_FORWARD).
 * Main thread.
 */
#ifndef WC_UI_VIEW_MINFO_H
#define WC_UI_VIEW_MINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ui_view;
struct ev_msg_info;

/* One recipient shown by the message info (ui/view-msginfo.c). */
struct ui_minfo_row {
	char		*name;		/* sanitised name, else its number */
	int64_t		 delivered_ms;	/* 0: not yet */
	int64_t		 read_ms;
};

/* The message info of our message (chat, id) in the message pane's
 * place (ui/view-msginfo.c): asked (CMD_MSG_INFO) when opened and again
 * when the message's tick moves, drawn as EV_MSG_INFO answers. */
struct ui_view_minfo {
	bool		 on;
	bool		 got;		/* an answer came */
	char		*chat, *id;	/* raw, owned */
	int64_t		 ts_ms;		/* sent at; 0 not yet */
	struct ui_minfo_row *rows;
	size_t		 n;
};

/* The message-info key on the selected message: ours (not a notice, not
 * deleted) asks CMD_MSG_INFO and shows the info in the message pane's
 * place; another: a note says it is for your messages. */
void		 ui_view_minfo_open(struct ui_view *v);
/* Esc: the info closed, what it held freed. */
void		 ui_view_minfo_close(struct ui_view *v);
/* EV_MSG_INFO: the rows, when it answers the info shown. */
void		 ui_view_minfo_event(struct ui_view *v,
		    const struct ev_msg_info *mi);
/* EV_MSG_STATE of message (chat, id): asked again when it is the one
 * shown. */
void		 ui_view_minfo_moved(struct ui_view *v, const char *chat,
		    const char *id);
/* Draw the info at (y, x), h rows by w columns (ui/view-panes.c). */
void		 ui_view_panes_minfo(struct ui_view *v, int y, int x, int h,
		    int w);

/* The info's room of ui/view-keys.c: open while it is shown; Esc or the
 * message-info key closes it, every other key waits (taken, nothing
 * done). */
bool		 ui_view_minfo_on(const struct ui_view *v);
bool		 ui_view_minfo_key(struct ui_view *v, int k, int a,
		    int64_t now);

/* ---- ui/view-forward.c ---- */

/* The forward key on the selected message: the chat picker opened over
 * the chats to forward it to (a notice, a revoked message or one of ours
 * not sent yet: a note says why not). */
void		 ui_view_fwd_open(struct ui_view *v);
/* Space in the forward picker: the chosen chat marked, or unmarked. */
void		 ui_view_fwd_mark(struct ui_view *v);
/* Whether chat jid is marked in the forward picker. */
bool		 ui_view_fwd_marked(const struct ui_view *v, const char *jid);
/* Enter in the forward picker: CMD_FORWARD to the marked chats (none
 * marked: the chosen one), the picker closed and a note saying to how
 * many; no chat matches: the picker says so and stays. */
void		 ui_view_fwd_enter(struct ui_view *v);
/* What the forward picker holds freed, forwarding off. */
void		 ui_view_fwd_release(struct ui_view *v);

#endif
