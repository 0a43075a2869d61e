/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view.h -- the chat screen after linking: the chat list (ui/chats.h),
 * the open chat's messages (ui/msgs.h) under a bar with its name, typing…
 * and online / last seen, the input line (ui/input.h) with its reply and
 * prompts (a phone number for a new chat, an emoji to react), the help
 * line and a help page listing every key (ui/keys.h).  It takes events
 * (base/event.h) and keys, and asks the engine for what it needs by
 * handing commands to the push function it was made with: CMD_LOAD_CHATS
 * when connected and, at most once a second, after messages change a
 * chat (with people, for the chat picker, when it opens); CMD_LOAD_PAGE (keyset pages, perf.md U1/U2) and CMD_SUBSCRIBE
 * when a chat opens (a group: CMD_GROUP_INFO while its members are not
 * known, and no presence); CMD_MARK_READ once it has been shown on a
 * seen screen for UI_VIEW_READ_MS (ui_view_seen()); CMD_SEND, CMD_REACT,
 * CMD_RETRY, CMD_DELETE, CMD_TYPING from keys.  Groups (ui/groups.h):
 * EV_GROUP names the senders and fills the group info (its key, Alt-g:
 * subject, description, members; CMD_GROUP_INFO when it opens), from
 * which r renames (CMD_GROUP_SUBJECT), a adds, d removes (CMD_GROUP_ADD,
 * CMD_GROUP_REMOVE) and l leaves (CMD_GROUP_LEAVE, after y to "leave?",
 * as Alt-d); Alt-m makes one (a subject, then members: CMD_GROUP_CREATE).
 * A group we are no longer in takes no input.  Search (ui/search.h):
 * Alt-/ searches the open chat, Alt-f all chats (with from:, in:, after:,
 * before: filters), in a list over the messages that follows what is
 * typed (CMD_SEARCH, at most every UI_SEARCH_DEBOUNCE_MS; an EV_SEARCH
 * for another query is ignored); Enter opens the chosen hit's chat at it
 * (CMD_LOAD_PAGE flag 2, the message selected), Esc goes back to the
 * view as it was, the input line untouched.  Main thread only; ui_view_draw()
 * and ui_view_colours() call curses, the rest does not (so it runs in
 * tests without a terminal).  The view's rooms, each in a file of its
 * own, are listed in ui/view-int.h.
 */
#ifndef UI_VIEW_H
#define UI_VIEW_H

#include <stdbool.h>
#include <stdint.h>

#include "base/event.h"
#include "ui/keys.h"
#include "ui/notify.h"
#include "ui/thumb.h"

struct ui_chats;
struct ui_group;
struct ui_msgs;
struct ui_search;

#define UI_VIEW_MIN_COLS	40	/* smaller: a one-line message */
#define UI_VIEW_MIN_ROWS	12	/* rows under the status line */
#define UI_VIEW_PHONE_MS	30000	/* the phone's answer to a request
					 * for older history awaited */
#define UI_VIEW_READ_MS		1500	/* a chat shown on a seen screen
					 * this long is read (ui_view_seen) */
#define UI_VIEW_NOTIFY_WAIT_MS	3000	/* a notification waits this long
					 * for the chat list to name its
					 * chat */
#define UI_VIEW_TYPING_MS	5000	/* CMD_TYPING composing at most
					 * this often; paused after as long
					 * without a key */

struct ui_view;

/* A notification for notify-command: title and body, sanitised, one line
 * each (borrowed for the call). */
typedef void	(*ui_view_notify_fn)(void *arg, const char *title,
		    const char *body);

/* A URL to open (borrowed for the call). */
typedef void	(*ui_view_open_fn)(void *arg, const char *url);

/* A file to open with open-command (path borrowed for the call): 0 it
 * started, else -errno of the start (-ENOENT: no such program, -EACCES:
 * not runnable). */
typedef int	(*ui_view_run_fn)(void *arg, const char *path);

/* Run the file-picker-command with the terminal handed over: the path
 * chosen into out[size] (NUL-terminated).  Returns 1, 0 when nothing
 * was chosen, or a negative error (it did not run). */
typedef int	(*ui_view_pick_fn)(void *arg, char *out, size_t size);

/* Settings (wachat.conf: enter-sends, read-receipts, send-typing,
 * clipboard, bell, notify-terminal, notify-preview, title; notify-command
 * is the caller's notify function). */
struct ui_view_opts {
	bool		 enter_sends;	/* Enter sends; else a newline, and
					 * the send key (Ctrl-x) sends */
	bool		 read_receipts;	/* CMD_MARK_READ for a chat shown */
	bool		 peek;		/* every chat peeks unless its own
					 * mode says otherwise (the peek key) */
	bool		 send_typing;	/* CMD_TYPING while typing */
	bool		 clipboard;	/* the copy key puts the selected
					 * message on the clipboard (OSC 52) */
	bool		 hyperlinks;	/* URLs in messages are drawn as
					 * the terminal's links (OSC 8) */
	bool		 mouse;		/* clicks open chats, the wheel
					 * scrolls (the screen asks the
					 * terminal for mouse reports) */
	bool		 bell;		/* a notification rings the bell */
	enum ui_notify_osc notify_osc;	/* ... and goes to the desktop
					 * through the terminal this way */
	bool		 in_tmux;	/* ... wrapped for tmux */
	bool		 notify_preview; /* ... saying the message's text
					 * (else "new message") */
	bool		 title;		/* the window title counts the
					 * unread chats */
	int		 thumbnail_rows; /* a media message's thumbnail drawn
					 * this many rows high at most
					 * (0 .. UI_THUMB_ROWS_MAX; 0: none) */
	int		 thumbnail_proto; /* ... this way (enum ui_thumb_proto
					 * of ui/thumb.h, picked: not AUTO) */
	ui_view_notify_fn notify;	/* ... and is handed to this (NULL:
					 * none) with notify_arg */
	void		*notify_arg;
	ui_view_open_fn	 open_link;	/* the open-link key hands a URL
					 * (sanitised ASCII) to this (NULL:
					 * no link-open-command) with
					 * notify_arg */
	ui_view_pick_fn	 pick_file;	/* the attach key runs the
					 * file-picker-command through this
					 * (NULL: a path prompt) with
					 * notify_arg */
	ui_view_run_fn	 open_media;	/* the open key hands a downloaded
					 * file's path to this (NULL: no
					 * open-command: the path is said)
					 * with notify_arg */
	uint64_t	 max_media_size; /* the attach and voice prompts refuse
					 * a larger file (bytes; 0: no cap) */
	/* The save-as key: copy the file from to the path to, never over a
	 * file: 0, -EEXIST, or another -errno; NULL: cannot. */
	int		(*save_media)(void *arg, const char *from,
			    const char *to);
	struct ui_keymap keys;
};

/* Takes ownership of c. */
typedef void	(*ui_view_push_fn)(void *arg, struct cmd *c);

/* The settings with their defaults (all yes but in_tmux; no desktop
 * notification through the terminal, no notify function; default
 * keys). */
void		 ui_view_opts_default(struct ui_view_opts *o);

/*
 * A new view with o (copied); commands go to push(arg, cmd).  Returns
 * it, freed with ui_view_free().  Aborts on out-of-memory.
 */
struct ui_view	*ui_view_new(const struct ui_view_opts *o,
		    ui_view_push_fn push, void *arg);

/* Free v.  NULL is a no-op. */
void		 ui_view_free(struct ui_view *v);

/* Take an event (borrowed); now_ms is the wall clock (ms since 1970). */
void		 ui_view_apply(struct ui_view *v, const struct ev *ev,
		    int64_t now_ms);

/* What the mouse did (ui_view_mouse()). */
enum ui_view_mouse {
	UI_VIEW_CLICK,		/* button 1 pressed */
	UI_VIEW_WHEEL_UP,
	UI_VIEW_WHEEL_DOWN,
};

#define UI_VIEW_WHEEL_ROWS	3	/* rows a wheel step scrolls */

/*
 * The mouse at screen row y, column x (as curses counts them), by the
 * last ui_view_draw()'s layout: a click on a chat in the list opens it
 * (as Tab would, read by the same rule); the wheel over the message pane
 * scrolls it UI_VIEW_WHEEL_ROWS rows (older pages asked for at the top,
 * newer ones at the bottom); elsewhere nothing.  Nothing while the key
 * page, the search or the chat picker is open, or with mouse off.  Main
 * thread.
 */
void		 ui_view_mouse(struct ui_view *v, int y, int x,
		    enum ui_view_mouse what, int64_t now_ms);

/*
 * Take a key (ui/keys.h codes).  Returns true when it asks to quit.
 */
bool		 ui_view_key(struct ui_view *v, int key, int64_t now_ms);

/*
 * Whether the screen is seen (seen: the terminal has the focus, by its
 * focus reports, and the window is big enough for the chat screen), at
 * now_ms.  A new view is seen.  While it is not, no chat is marked read
 * (no CMD_MARK_READ, no unread count cleared); once it is again, the open
 * chat's messages are read after UI_VIEW_READ_MS (ui_view_tick()).
 */
void		 ui_view_seen(struct ui_view *v, bool seen, int64_t now_ms);

/*
 * The program is about to stop (the quit key, a signal): what is typed in
 * the open chat's input line is kept as its draft, in the store too
 * (CMD_DRAFT, pushed before the caller's CMD_QUIT), or cleared there when
 * the line is empty; a message being edited is not kept.  UI thread.
 */
void		 ui_view_quitting(struct ui_view *v);

/*
 * Before the terminal gets what curses cannot carry (ui_view_term_out(),
 * after each refresh): the notifications waiting since the last call as
 * one (ui/view-notify.c: "N new messages" for several) with the bell, the
 * desktop notification through the terminal and the notify function, as
 * the settings say (a chat the list does not hold yet, its reload
 * asked, waits for it up to UI_VIEW_NOTIFY_WAIT_MS, for its name); the
 * window title "wachat (N)" when the count of
 * unread chats not muted changed (the terminal's own title saved the
 * first time).  ui_view_notify_end(): the terminal's title back (at the
 * end, or before a suspend; the next flush saves it again).  Both append
 * to ui_view_term_out(); main thread.
 */
void		 ui_view_notify_flush(struct ui_view *v, int64_t now_ms);
void		 ui_view_notify_end(struct ui_view *v);

/*
 * The status line's words for the call that rings ("incoming voice call
 * from NAME — Alt-0 rejects", the reject-call key as bound; "-" for the
 * dash when ascii), into line[size]; NULL when none rings (none came, it
 * ended, or UI_VIEW_RING_MS passed since it began at now_ms).  Main
 * thread.
 */
const char	*ui_view_ringing(const struct ui_view *v, int64_t now_ms,
		    bool ascii, char *line, size_t size);

/* Time passes: a pending chat list reload, a typing pause, the open chat
 * read once it has been shown, seen, for UI_VIEW_READ_MS. */
void		 ui_view_tick(struct ui_view *v, int64_t now_ms);

/*
 * Draw in the box at (y, x), h rows by w columns, leaving the cursor in
 * the input line.  Returns false, having drawn nothing, when the box is
 * under UI_VIEW_MIN_COLS x UI_VIEW_MIN_ROWS (the caller says the window
 * is too small).  Main thread (curses).
 */
bool		 ui_view_draw(struct ui_view *v, int y, int x, int h, int w,
		    int64_t now_ms);

/*
 * What the view has for the terminal beside curses (the copy key's OSC
 * 52, ui/term.h), to write after the next refresh and then empty.
 * Borrowed from v.  Main thread.
 */
struct buf	*ui_view_term_out(struct ui_view *v);

/* The links (ui/term.h) the last ui_view_draw() drew in the message
 * pane: URLs in messages, for ui_term_links_write() after curses'
 * refresh; none when hyperlinks are off.  Borrowed until the next draw. */
const struct ui_term_links *ui_view_links(const struct ui_view *v);

/* The terminal's locale is not UTF-8: the chat list's marks in ASCII
 * (ui/chats.h).  Main thread. */
void		 ui_view_set_ascii(struct ui_view *v, bool ascii);

/* Where the last draw left room for thumbnails drawn by the terminal
 * (ui/thumb.h), and the protocol, for ui_thumb_spots_write() after
 * curses' refresh.  Borrowed until the next draw. */
const struct ui_thumb_spots *ui_view_thumb_spots(const struct ui_view *v);
int		 ui_view_thumb_proto(const struct ui_view *v);

/* Set up the view's colour pairs (after start_color()). */
void		 ui_view_colours(void);

/* For tests: the open chat's JID (or NULL), the input's text, the
 * selected message's id (or NULL). */
/* Whether key k (as for ui_view_key()) is the quit key.  UI thread. */
bool		 ui_view_is_quit_key(const struct ui_view *v, int k);

const char	*ui_view_open_chat(const struct ui_view *v);
const char	*ui_view_input(const struct ui_view *v);
const char	*ui_view_selected(const struct ui_view *v);

/* For tests: whether the group info is shown, the message pane, the chat
 * list, and what the view knows of group jid (or NULL); all borrowed
 * from v. */
bool		 ui_view_info_shown(const struct ui_view *v);
struct ui_msgs	*ui_view_msgs(struct ui_view *v);
const struct ui_chats *ui_view_chats(const struct ui_view *v);
const struct ui_group *ui_view_group(const struct ui_view *v,
		    const char *jid);

/* For tests: the search (ui/search.h; on says whether it is shown),
 * borrowed from v. */
const struct ui_search *ui_view_search(const struct ui_view *v);

#endif
