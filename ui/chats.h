/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/chats.h -- the chat list pane: the chats of the last EV_CHATS in the
 * order it gives (pinned first, newest pin first, then by last activity),
 * each with its name (or +number), a one-line preview, the time of its
 * last message, its unread count and muted/pinned marks (a muted chat's
 * count drawn dim, not bold; a mute that ended counts as none, from
 * ui_chats_tick() on), all network text sanitised
 * (base/sanitize.h); a selected chat kept by JID across reloads; chats
 * started by phone number before they have a message.  A group shows its
 * subject and its preview after the sender's name ("Alice: hi", "You:
 * hi"; ui/groups.h).  The archived chats are not in the list: an
 * "Archived (N)" row at its bottom (N: those with unread messages, not
 * muted) stands for them, and the archived folder (ui_chats_folder())
 * shows them instead, under a header saying so.  Main thread; only
 * ui_chats_draw() calls curses.
 */
#ifndef UI_CHATS_H
#define UI_CHATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/event.h"
#include "ui/groups.h"

struct buf;

/* One chat; strings owned, never NULL, sanitised for the screen. */
struct ui_chat {
	char		*jid;		/* raw (a key, never shown) */
	char		*name;		/* name, else +number, else JID */
	char		*preview;	/* one line; in a group after the
					 * sender's name when known */
	int64_t		 last_ms;	/* 0: no message */
	int		 unread;
	bool		 muted;		/* muted now (muted_until) */
	bool		 pinned;
	int64_t		 muted_until;	/* ms; 0 not muted, -1 always */
	bool		 archived;	/* in the archived folder */
	bool		 marked_unread;	/* "mark as unread" (app state) */
	int		 peek;		/* 0 as the peek setting, 1 on, 2 off
					 * (ui_view_peeking()) */
	uint32_t	 ephemeral_s;	/* disappearing messages' timer, s;
					 * 0 off (shown on the bar) */
	bool		 last_from_me;
	enum ev_state	 last_state;	/* ours: its tick */
	bool		 group;		/* a group chat */
	bool		 blocked;	/* on the blocklist (the view marks it:
					 * ui_view_contact_mark()) */
	char		*draft;		/* what is typed in it unsent, one
					 * line, sanitised, or NULL
					 * (ui_chats_set_draft()) */
};

struct ui_chats {
	struct ui_chat	*v;		/* the chats not archived, then the
					 * archived ones */
	size_t		 n;
	size_t		 narch;		/* the archived ones, at the end */
	bool		 folder;	/* the archived folder is shown */
	bool		 ascii;		/* marks in ASCII (the locale is not
					 * UTF-8) */
	char		*sel;		/* the selected chat's JID, or NULL */
	size_t		 top;		/* first chat drawn */
};

/* An empty list; released with ui_chats_release(). */
void		ui_chats_init(struct ui_chats *c);
void		ui_chats_release(struct ui_chats *c);

/*
 * Take the list of an EV_CHATS (ev borrowed).  The selection stays on
 * its JID; a selected chat the list does not hold yet (started by
 * number) stays first.  Nothing is selected until a key selects a chat
 * (opening one marks it read: that is the user's choice).  gs (may be
 * NULL) names groups without a name and the senders of their newest
 * messages (ui_groups_note()).
 */
void		ui_chats_set(struct ui_chats *c, const struct ev *ev,
		    const struct ui_groups *gs, int64_t now_ms);

/*
 * The time is now_ms: a chat whose mute ended (muted_until in the past)
 * is muted no more.  Returns true when one changed.
 */
bool		ui_chats_tick(struct ui_chats *c, int64_t now_ms);

/* The chats the list shows: v[*lo .. *hi), the archived ones in the
 * folder, else the others. */
void		ui_chats_range(const struct ui_chats *c, size_t *lo,
		    size_t *hi);

/* Show the archived folder (on) or the main list; the selection stays. */
void		ui_chats_folder(struct ui_chats *c, bool on);

/* The archived chats with unread messages that are not muted (the
 * Archived row's count). */
int		ui_chats_archived_unread(const struct ui_chats *c);

/* Whether row slot i of the last ui_chats_draw() (0: the first chat
 * drawn) is the Archived row; else *chat gets the index in v of the chat
 * there, -1 for none. */
bool		ui_chats_slot(const struct ui_chats *c, size_t i, int *chat);

/* Group g's subject changed: its row's name (when it has one). */
void		ui_chats_group(struct ui_chats *c, const struct ui_group *g);

/* The index of jid in the list, or -1. */
int		ui_chats_find(const struct ui_chats *c, const char *jid);

/* The selected chat, or NULL (borrowed until the list changes). */
struct ui_chat	*ui_chats_selected(const struct ui_chats *c);

/* Select jid (which must be in the list); returns false when it is not.
 * The list shows the folder jid is in (the archived one or the main). */
bool		ui_chats_select(struct ui_chats *c, const char *jid);

/*
 * Select the chat dir (+1 or -1) places from the selected one among
 * those shown (ui_chats_range()), wrapping round.  Returns false when
 * none is shown.
 */
bool		ui_chats_move(struct ui_chats *c, int dir);

/*
 * Select the next chat shown after the selected one (wrapping round)
 * with unread messages.  Returns false when there is none.
 */
bool		ui_chats_next_unread(struct ui_chats *c);

/*
 * Add jid (a chat started by phone number or from the picker) when the
 * list does not hold it: first after the pinned chats (the top of the
 * unpinned part, until a message gives it its place), and select it.
 */
void		ui_chats_open(struct ui_chats *c, const char *jid);

/*
 * A chat's display name for jid: +digits for a PN JID
 * ("15550000001@s.whatsapp.net"), else the sanitised JID; appended to
 * out with a NUL (buf semantics as wc_sanitize()).
 */
void		ui_chats_jid_name(const char *jid, struct buf *out);

/*
 * chat jid's draft is text (borrowed; its first line is kept, sanitised),
 * or none for NULL or "": shown in the list as "Draft: text" instead of
 * the last message.  A jid not in the list is ignored.
 */
void		ui_chats_set_draft(struct ui_chats *c, const char *jid,
		    const char *text);

/*
 * When ts_ms was, for the chat list, short: "HH:MM" on now_ms's local
 * day, "Yesterday" the day before, the weekday ("Mon") within the six
 * days before that, "30 Nov" earlier this year (the last 12 months),
 * "Nov 2024" before.  At most 12 columns in any language here.  Writes a
 * NUL-terminated string of at most size bytes to out.
 */
void		ui_chats_list_when(int64_t ts_ms, int64_t now_ms, char *out,
		    size_t size);

/*
 * A day as typed to jump to it: "YYYY-MM-DD", "today", "yesterday" (also
 * as translated) or a weekday's name (English, or the locale's full
 * name, any case: the last such day, today included), spaces around
 * ignored.  now_ms decides today.  *ms gets the local start of that day
 * (ms since the epoch, UTC), label (size bytes) its "YYYY-MM-DD".
 * Returns false for anything else (a month 13, Feb 30, ...).
 */
bool		ui_chats_parse_day(const char *s, int64_t now_ms,
		    int64_t *ms, char *label, size_t size);

/*
 * When ts_ms was, for a list or a message: "HH:MM" when it is on now_ms's
 * local day, else the date ("%d %b" this year, else "%Y-%m-%d").  Writes
 * a NUL-terminated string of at most size bytes to out.
 */
void		ui_chats_when(int64_t ts_ms, int64_t now_ms, char *out,
		    size_t size);

/*
 * Draw the list in the box at (y, x) of h rows and w columns, two rows a
 * chat (marks, name and time; preview and unread count), the selected
 * chat in reverse, scrolled so that it shows, then the Archived row when
 * there are archived chats and the folder is not shown.  Marks: pinned
 * U+1F4CC, muted U+1F507, in ASCII "^" and "~" (c->ascii).  Main thread
 * (curses).
 */
void		ui_chats_draw(struct ui_chats *c, int y, int x, int h, int w,
		    int64_t now_ms);

#endif
