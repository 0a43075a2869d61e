/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/msgs.h -- the message pane of the open chat: at most UI_MSGS_KEEP
 * rows of its history in memory, paged through the engine by keyset
 * (CMD_LOAD_PAGE with the cursor (ts_ms, rowid) of the oldest or newest
 * row held; perf.md U1, U2), far rows dropped when a page comes in; live
 * events (EV_MESSAGE, EV_MSG_STATE, EV_MSG_CHANGED, EV_REACTION) applied
 * to the rows held.  Drawn as: day separators, a header per message
 * (sender, time, ticks for ours: queued "…", sent ✓, delivered ✓✓, read
 * ✓✓ in colour, failed !), the quoted line ("> text"), the text wrapped
 * by display width (ui/text.h), a reactions line, edited and deleted
 * marks, notices (group events too: "Alice added Bob") centred and dim,
 * a media row's thumbnail (ui/thumb.h) under its text's first line, at
 * most thumb_rows rows, counted in the row's height.
 * In a group (ui/groups.h) the header names each sender in their colour
 * (ours say "You"), and "@<digits>" mentions of members read "@Name",
 * highlighted.  All network text is sanitised (base/sanitize.h) when it
 * comes in.  Main thread; only ui_msgs_draw() calls curses.
 */
#ifndef UI_MSGS_H
#define UI_MSGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/event.h"
#include "ui/groups.h"
#include "ui/text.h"
#include "ui/thumb.h"

#define UI_MSGS_PAGE	50	/* rows a page asks for */
#define UI_MSGS_KEEP	150	/* rows held at most: three pages */

/* A message's delivery mark (ours only). */
enum ui_tick {
	UI_TICK_NONE,
	UI_TICK_QUEUED,
	UI_TICK_SENT,
	UI_TICK_DELIVERED,
	UI_TICK_READ,
	UI_TICK_FAILED,
};

/* The tick of a message's state (base/event.h: events and page rows
 * alike; played shows as read, received as none). */
enum ui_tick	ui_tick_of(enum ev_state state);

/* One person's reaction to a row. */
struct ui_reactor {
	char	*sender;	/* raw user JID; "" ours */
	char	*name;		/* sanitised contact or push name; "" unknown
				 * or ours */
};

/* One emoji of a row's reactions: how many sent it, and who (the first
 * nwho of them, in the order they came; nwho <= count). */
struct ui_react {
	char			*emoji;		/* sanitised, never "" */
	uint32_t		 count;		/* >= 1 */
	struct ui_reactor	*who;
	size_t			 nwho;
};

/* One message row; strings owned, never NULL. */
struct ui_msg {
	int64_t		 rowid;		/* 0: came as an event, not known */
	int64_t		 ts_ms;
	char		*id;		/* raw */
	char		*sender;	/* raw JID; "" ours or 1:1 */
	char		*sender_name;	/* sanitised, groups; "" unknown */
	char		*text;		/* sanitised, may hold newlines */
	char		*quoted_id;	/* raw; "" not a reply */
	char		*quoted_sender;	/* raw */
	char		*quoted;	/* sanitised, one line; may be "" */
	struct ui_react	*reacts;	/* per emoji, in the order each first
					 * came */
	size_t		 nreacts;
	bool		 from_me, notice, edited, deleted;
	bool		 starred;	/* app state's star */
	uint32_t	 forwarded;	/* 0 not; else its forwardingScore */
	enum ui_tick	 tick;
	char		*media;		/* a media row: its lines before the
					 * caption (ui/media.h), sanitised;
					 * else NULL */
	/* The wrapped text, for rows_width columns: the text as shown
	 * (mentions named; NULL: text itself) and its mentions. */
	char		*shown;
	struct ui_span	*spans;
	size_t		 nspans;
	struct ui_line	*rows;
	int		 nrows, rows_width;
	/* A media row's thumbnail (ui/thumb.h; owned), or NULL: drawn
	 * under the text's first line (the media's words). */
	struct ui_thumb	*thumb;
	/* Our media row's upload as EV_UPLOAD says it ("uploading 37%",
	 * translated), drawn as the text's last line; NULL: none. */
	char		*progress;
	/* A media row's media (owned, its thumb ""), or NULL: its
	 * download's state redraws the lines (ui/msgs-media.c). */
	struct ev_media	*md;
	/* A rich row's record (base/rich.h; raw, for the contact card's
	 * numbers, ui/rich.h), or NULL; text is its words. */
	char		*rich;
};

struct ui_term_links;

struct ui_msgs {
	char		*chat;		/* the open chat's JID, or NULL */
	struct ui_msg	*v;		/* oldest first */
	size_t		 n;
	bool		 more_before;	/* older rows are in the store */
	bool		 more_after;	/* newer rows are (not held) */
	int		 loading;	/* a page asked: 0 none, 2 newest,
					 * -1 before, +1 after, 3 around,
					 * 4 oldest, 5 unread, 6 from a
					 * date */
	int64_t		 target;	/* the row asked with loading 3 */
	int		 scroll;	/* rows scrolled up from the bottom */
	int		 sel;		/* the selected row, or -1 */
	int		 height;	/* the last drawn pane's rows */
	int		 width;		/* ... and columns */
	bool		 at_top;	/* the oldest row held was drawn */
	bool		 unseen;	/* new messages came while scrolled
					 * away from the newest */
	uint32_t	 unseen_n;	/* ... how many ("new messages
					 * below", drawn until the bottom) */
	int64_t		 unread_rowid;	/* the "N unread messages" line is
					 * above this row; 0: none */
	uint32_t	 unread_n;	/* ... N: the count at opening */
	bool		 reveal;	/* the next draw brings the unread
					 * line into view */
	const struct ui_group *group;	/* the open group's members, or
					 * NULL (borrowed) */
	struct ui_term_links *links;	/* ui_msgs_draw() adds the links
					 * it draws here (borrowed; NULL:
					 * none), ui/term.h */
	int		 thumb_rows;	/* a thumbnail's rows at most
					 * (thumbnail-rows; 0: none drawn),
					 * set by the caller before a draw */
	enum ui_thumb_colours thumb_colours; /* ... in these colours */
	enum ui_thumb_proto thumb_proto; /* ... this way: a pixel protocol
					 * leaves blank cells and adds a spot
					 * to spots for an image drawn whole
					 * in the pane; else half-blocks */
	struct ui_thumb_spots *spots;	/* borrowed; NULL: none */
};

void		ui_msgs_init(struct ui_msgs *m);
void		ui_msgs_release(struct ui_msgs *m);

/*
 * Open chat (jid, borrowed; it may be m->chat, the open chat again):
 * forget the rows held (and the group) and return the command asking for
 * its newest page (the caller takes it).
 */
struct cmd	*ui_msgs_open(struct ui_msgs *m, const char *jid);

/*
 * Open chat (jid, borrowed) at the message of rowid (a search hit):
 * forget the rows held as ui_msgs_open() and return the command asking
 * for the page around it (CMD_LOAD_PAGE EV_PAGE_AROUND; the caller takes
 * it).
 */
struct cmd	*ui_msgs_open_at(struct ui_msgs *m, const char *jid,
		    int64_t rowid);

/*
 * Open chat (jid, borrowed) as ui_msgs_open(), with unread (> 0) unread
 * messages: the command asks for the page that shows where they start
 * (CMD_LOAD_PAGE EV_PAGE_UNREAD), and an "N unread messages" line is
 * drawn above the first of them, in view, for as long as the chat stays
 * open.  unread 0 is ui_msgs_open().  The caller takes the command.
 */
struct cmd	*ui_msgs_open_unread(struct ui_msgs *m, const char *jid,
		    uint32_t unread);

/*
 * Jump to a date: the command asking for the open chat's rows from the
 * first at or after ts_ms (CMD_LOAD_PAGE EV_PAGE_FROM; the caller takes
 * it), drawn from the pane's top when they come; the rows held stay
 * until then (an empty page leaves them: the caller says there is no
 * message).  NULL when nothing is open.
 */
struct cmd	*ui_msgs_from(struct ui_msgs *m, int64_t ts_ms);

/*
 * Home and End: the chat's oldest rows, the first at the pane's top
 * (nothing newer is followed live until End), or its newest (the bottom,
 * following what comes).  When those rows are held already, the view
 * moves there and NULL is returned; else the rows held are forgotten (not
 * the chat or its group) and the command asking for that page
 * (CMD_LOAD_PAGE EV_PAGE_OLDEST or EV_PAGE_NEWEST) is returned, the
 * caller takes it.  NULL too when nothing is open.  The selection goes.
 */
struct cmd	*ui_msgs_oldest(struct ui_msgs *m);
struct cmd	*ui_msgs_newest(struct ui_msgs *m);

/*
 * The command asking for the page before the oldest row held (dir -1) or
 * after the newest (dir +1), or NULL when the store has no more that
 * way, a page is on its way already, or nothing is open.  The caller
 * takes the command.
 */
struct cmd	*ui_msgs_more(struct ui_msgs *m, int dir);

/*
 * Take an EV_PAGE of the open chat (others are ignored): the newest page
 * replaces the rows, a page before or after is merged (rows held already
 * are refreshed in place), then the rows furthest from the page are
 * dropped beyond UI_MSGS_KEEP (and the store is said to have more that
 * way).  A page around a message (EV_PAGE_AROUND, asked by
 * ui_msgs_open_at()) replaces the rows too, selects the message asked for
 * (drawn in view) and says what the store has before and after it
 * (more_before, more_after), so that paging goes on from there.  The oldest
 * page (EV_PAGE_OLDEST, asked by ui_msgs_oldest()) replaces the rows,
 * drawn from the top, and so does a page from a date (EV_PAGE_FROM, not
 * empty); an unread page (EV_PAGE_UNREAD) replaces them and places the
 * unread line.  Returns
 * true when it was for the open chat.
 */
bool		ui_msgs_page(struct ui_msgs *m, const struct ev *ev);

/*
 * Take a messaging event of the open chat (EV_MESSAGE appends when the
 * newest rows are held, in time order, or updates the row with its id;
 * EV_MSG_STATE, EV_SEND_FAILED, EV_MSG_CHANGED and EV_REACTION update
 * the row with the event's id when held).  An EV_REACTION counted by the
 * engine shows the row's reactions as it counts them; one not counted
 * adds its sender's, and on a row read from the store *refresh (may be
 * NULL) gets the command reading that row again for its reactions, else
 * NULL.  While reading back (scrolled up, or the newest rows not held)
 * a new message does not move the view: it counts in unseen_n, drawn as
 * "N new messages below" on the pane's last row until the bottom is
 * reached (End, PgDn to the end), and false is returned for it (not
 * shown).  Returns true when a row changed or was added in view.
 */
bool		ui_msgs_apply(struct ui_msgs *m, const struct ev *ev,
		    struct cmd **refresh);

/*
 * The open chat is group g (borrowed; it must outlive its use here, or
 * be set again; NULL: not a group), or its members changed: names,
 * colours and mentions are laid out again.
 */
void		ui_msgs_set_group(struct ui_msgs *m, const struct ui_group *g);

/*
 * Row i's text as shown (mentions of members named), laid out for the
 * last width drawn (or 80 columns).  Borrowed until the row changes.
 */
const char	*ui_msgs_text(struct ui_msgs *m, size_t i);

/*
 * The name row i's header shows for its sender, appended to out with a
 * NUL; *colour gets the sender's colour (ui_group_colour()), or -1 when
 * the name is not coloured (ours, 1:1 chats).  peer as ui_msgs_draw().
 */
void		ui_msgs_sender(const struct ui_msgs *m, size_t i,
		    const char *peer, struct buf *out, int *colour);

/*
 * Row i's reactions line, appended to out with a NUL ("" none): each
 * emoji with its count when more than one sent it and who did, by name
 * (ours "You"; the contact or push name, else the number), in the order
 * they came: "👍 2 Bob, You  ❤️ Carol".  The names that do not fit in w
 * display columns are counted instead ("👍 5 Bob, +4"); the emoji and
 * counts always go in, cut by the drawing when even they do not fit.
 * Main thread.
 */
void		ui_msgs_reactions(const struct ui_msgs *m, size_t i, int w,
		    struct buf *out);

/* ---- ui/msgs-media.c: a media row's download ---- */

/* g is a media row of em (copied): its lines (g->media, g->text) made
 * from it.  Main thread. */
void		ui_msgs_media_set(struct ui_msg *g, const struct ev_media *em);

/* The media row g's caption is now caption (sanitised): its lines made
 * again. */
void		ui_msgs_media_caption(struct ui_msg *g, const char *caption);

/* A download of the open chat's row d->id went on or ended: its state,
 * percentage and path taken, its lines made again.  Returns the row's
 * index, or -1 (not the open chat, not held, not media). */
int		ui_msgs_media_dl(struct ui_msgs *m, const struct ev_media_dl *d);

/* Row i's media, or NULL (not media, out of range). */
const struct ev_media *ui_msgs_media_of(const struct ui_msgs *m, size_t i);

/* Free a copy made by ui_msgs_media_set() (NULL: nothing). */
void		ui_msgs_media_free(struct ev_media *m);

/* The index of the row with id, or -1. */
int		ui_msgs_find(const struct ui_msgs *m, const char *id);

/* Drop the row with id (a failed message of ours deleted here): no
 * selection after; nothing when there is none.  UI thread. */
void		ui_msgs_remove(struct ui_msgs *m, const char *id);

/* Scroll by rows (> 0 up, towards older); clamped at the newest, where
 * (with the newest rows held) "new messages below" goes. */
void		ui_msgs_scroll(struct ui_msgs *m, int rows);

/* Whether the oldest row held is drawn (scrolled to the top). */
bool		ui_msgs_at_top(const struct ui_msgs *m);

/*
 * Draw the rows in the box at (y, x), h rows by w columns, newest at the
 * bottom, scrolled by m->scroll; the selected row in reverse and kept in
 * view.  peer is the name shown as the sender of the contact's messages
 * (sanitised); now_ms decides "today".  Main thread (curses).
 */
void		ui_msgs_draw(struct ui_msgs *m, int y, int x, int h, int w,
		    const char *peer, int64_t now_ms);

#endif
