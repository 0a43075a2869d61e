/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-int.h -- the rooms of the chat screen (ui/view.h), for its own
 * files alone: the state of struct ui_view, a part for each room, and
 * what the rooms ask of each other.  The files:
 *   ui/view.c         the view itself: made and freed, events taken (the
 *                     apply path: the only code of the view that reads
 *                     an event), time passing, what tests read
 *   ui/view-keys.c    key dispatch: which room takes a key, each room's
 *                     table of (action, handler)
 *   ui/view-draw.c    drawing: the frame, the bar, the input line and
 *                     the line over it, the help line and the key page
 *   ui/view-panes.c   drawing the group info and the search's hits;
 *                     ui_view_put()
 *   ui/view-info.c    the open group's info and what changes the group
 *   ui/view-contact.c a contact's info page, profiles (EV_PROFILE) and
 *                     the blocklist (EV_BLOCKLIST): blocked marks, the
 *                     block question
 *   ui/view-search.c  the search: opened, closed, queries sent
 *   ui/view-pick.c    the chat picker and the members offered for a
 *                     mention: what matches, what Enter opens or puts
 *   ui/view-forward.c the forward key: the picker over the chats,
 *                     marks, CMD_FORWARD
 *   ui/view-attach.c  a file to send: the attach and voice-note keys,
 *                     their path prompt with Tab completion, the
 *                     caption, the file-picker-command's pick
 *   ui/view-prompt.c  the one-line prompts (a number, an emoji, a
 *                     group's name or members) and the y/n questions:
 *                     their keys and the line over them
 *   ui/view-chat.c    the open chat as we write in it: drafts, our
 *                     typing, the reply or edit being written, sending,
 *                     what is done to the selected message, paging;
 *                     chats opened and marked read
 *   ui/view-select.c  the selected message's keys (a room of view-keys)
 *   ui/view-mouse.c   clicks on the list, the wheel over the messages
 *   ui/view-links.c   the selected message copied to the clipboard
 *   ui/view-notify.c  the bell, desktop notifications and the window
 *                     title for what comes while it is not seen; the
 *                     call that rings and the reject-call key
 *   ui/view-state.c   what every room uses: the push, the passing note,
 *                     a name cut to fit, the open chat and its group, a
 *                     prompt started and dropped, the editing keys
 *
 * Who calls whom (nm of libui.a, the view's files and the rest of
 * libui.a; a file calls only files below it, never back up, so there is
 * no circle):
 *
 *   screen.o ------> view.o, view-keys.o, view-draw.o, screen-draw.o,
 *                    view-notify.o, view-mouse.o
 *   screen-draw.o -> view-draw.o, view-notify.o
 *   view.o --------> view-chat.o, view-search.o, view-state.o, view-forward.o,
 *                    view-notify.o
 *   view-notify.o -> view-state.o, notify.o
 *   view-keys.o ---> view-select.o, view-chat.o, view-info.o, view-prompt.o,
 *                    view-attach.o, view-forward.o, view-notify.o
 *                    (the reject-call key),
 *                    view-search.o, view-pick.o, view-links.o,
 *                    view-state.o
 *   view-draw.o ---> view-panes.o, view-prompt.o, view-pick.o,
 *                    view-state.o, msgs-draw.o
 *   view-panes.o --> view-info.o, view-pick.o, view-forward.o, view-state.o
 *   view-forward.o > view-pick.o, view-state.o
 *   view-msginfo.o > view-state.o (view-keys.o, view-select.o, view.o
 *                    and view-panes.o call it)
 *   view-pick.o ---> view-chat.o, view-state.o
 *   view-links.o --> view-state.o, msgs-draw.o, term.o
 *   view-select.o -> view-chat.o, view-links.o, view-card.o, view-forward.o,
 *                    view-poll.o
 *   view-card.o ---> view-chat.o, view-state.o, rich.o
 *   view-poll.o ---> view-state.o (view-keys.o -> view-poll.o too)
 *   view-mouse.o --> view-chat.o, view-state.o
 *   view-info.o ---> view-contact.o, view-state.o
 *   view-contact.o > view-state.o
 *   view-search.o -> view-chat.o, view-state.o
 *   view-prompt.o -> view-attach.o, view-chat.o, view-state.o,
 *                    view-card.o, view-poll.o
 *   view-attach.o -> view-chat.o, view-state.o
 *   view-chat.o ---> view-state.o
 *   view-state.o --> (no view file)
 *   msgs.o --------> msgs-draw.o   (and msgs-draw.o never back)
 *   and below all these: search.o, chats.o, msgs.o, msgs-draw.o,
 *   groups.o, input.o, keys.o, text.o, qr.o (search.o -> chats.o,
 *   groups.o, input.o; chats.o -> groups.o; all -> text.o).
 *
 * Main thread only.  Only the two drawing files call curses (and the
 * editing keys' beep(), in ui/view-state.c).
 */
#ifndef UI_VIEW_INT_H
#define UI_VIEW_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "ui/chats.h"
#include "ui/groups.h"
#include "ui/input.h"
#include "ui/keys.h"
#include "ui/msgs.h"
#include "ui/search.h"
#include "ui/term.h"
#include "ui/view.h"

#define UI_VIEW_KEY_ESC		0x1b
#define UI_VIEW_DRAFTS_MAX	64	/* chats whose unsent text is kept */
#define UI_VIEW_PHONE_MIN	5	/* digits of a phone number with its */
#define UI_VIEW_PHONE_MAX	20	/* country code, as pairing takes them */
#define UI_VIEW_MENTIONS	5	/* members offered for a mention */

/* The prompt or question open over the input line (ui/view-prompt.c). */
enum ui_view_prompt_kind {
	PROMPT_NONE,
	PROMPT_REACT,		/* an emoji for the selected message */
	PROMPT_GROUP_SUBJECT,	/* new group: its subject */
	PROMPT_GROUP_MEMBERS,	/* new group: its members */
	PROMPT_RENAME,		/* the open group's new subject */
	PROMPT_ADD,		/* members to add to it */
	PROMPT_REMOVE,		/* members to remove from it */
	PROMPT_LEAVE,		/* leave it?  y or n */
	PROMPT_REVOKE,		/* delete our message for everyone?  y/n */
	PROMPT_DATE,		/* a date to jump to in the open chat */
	PROMPT_MUTE,		/* mute the selected chat: for how long */
	PROMPT_EPHEMERAL,	/* the selected chat's disappearing
				 * messages: which timer */
	PROMPT_DELETE_CHAT,	/* delete it?  y or n */
	PROMPT_CLEAR_CHAT,	/* clear its messages?  y or n */
	PROMPT_ATTACH,		/* a file to send: its path */
	PROMPT_CAPTION,		/* ... then its caption */
	PROMPT_VOICE,		/* an Ogg Opus file to send as a voice note */
	PROMPT_SAVE_MEDIA,	/* where to copy the selected file */
	PROMPT_CARD,		/* which number on the contact card */
	PROMPT_BLOCK,		/* block (or unblock) the open contact?
				 * y or n */
	PROMPT_VOTE, PROMPT_POLL_Q, PROMPT_POLL_OPT, PROMPT_POLL_MULTI, /* a
				 * poll: the vote; a new one's question,
				 * options, one or several answers */
};
#define UI_VIEW_POLL_MAX	12	/* options the vote chooser offers */

/* The open chat's bar: what the events say of the contact. */
struct ui_view_bar {
	bool		 typing;	/* "typing…" shown */
	int64_t		 typing_until;	/* ms since 1970: shown until */
	int		 online;	/* -1 unknown, 0, 1 */
	int64_t		 last_seen_ms;	/* ms since 1970, 0 unknown */
};

/* What was typed in a chat left unsent (chat NULL: a free slot). */
struct ui_view_draft {
	char		*chat, *text;
};

/* The open chat as we write in it (ui/view-chat.c). */
struct ui_view_chat {
	/* The reply being written, all NULL when none; reply_sender
	 * NULL also when the quoted message is ours. */
	char		*reply_id, *reply_sender, *reply_text;
	char		*edit_id;	/* our message being edited, or NULL */
	/* Each chat's draft, the newest UI_VIEW_DRAFTS_MAX: the slots in
	 * use first, oldest first; kept in the store as they change
	 * (CMD_DRAFT), and read from the first EV_CHATS. */
	struct ui_view_draft drafts[UI_VIEW_DRAFTS_MAX];
	bool		 drafts_loaded;	/* the first EV_CHATS's taken */
	/* Our typing. */
	bool		 composing;
	int64_t		 composing_ms;	/* CMD_TYPING 1 sent at */
	int64_t		 edit_ms;	/* the last edit */
	char		*composing_chat;
	/* Older history asked of the phone: one request in flight at a
	 * time (CMD_HISTORY_MORE), answered by EV_HISTORY and the page it
	 * makes the pane read, or given up after UI_VIEW_PHONE_MS. */
	char		*asked_chat;	/* in flight for, or NULL */
	int64_t		 asked_ms;	/* seen in flight at (ms), 0: not
					 * yet ticked */
	bool		 asked_page;	/* the answer came: the page it
					 * asked of the store is awaited */
	char		*phone_empty;	/* the chat the phone last had
					 * nothing older for, or NULL */
	char		 jump_day[16];	/* the date jumped to ("YYYY-MM-DD"),
					 * said when it has no message */
};

/* The prompt or question open (ui/view-prompt.c). */
struct ui_view_prompt {
	enum ui_view_prompt_kind kind;
	struct ui_input	 in;		/* the prompt's text */
	const char	*err;		/* static, translated, or NULL */
	char		*react_id;	/* PROMPT_REACT's message */
	bool		 react_mine;	/* ... is ours */
	char		*revoke_id;	/* asked about in PROMPT_REVOKE */
	char		*new_subject;	/* a new group's, members asked */
	char		*made_subject;	/* a group asked for: opened when
					 * its EV_GROUP comes */
	unsigned	 made_count;	/* the members asked for with it */
	char		*attach_path;	/* PROMPT_CAPTION's file (~ expanded) */
	char		*attach_names;	/* the names Tab found, shown over
					 * the prompt until the next key */
	char		*save_from;	/* PROMPT_SAVE_MEDIA's file */
	char		*card;		/* PROMPT_CARD's record (base/rich.h) */
	size_t		 card_n;	/* ... and how many numbers it holds */
	/* PROMPT_VOTE's record (base/rich.h) and id (a new poll's question,
	 * options each ended by '\n'), options (<= UI_VIEW_POLL_MAX), the
	 * one Space toggles (from 0), those ticked (bit i), one answer? */
	char		*poll, *poll_id;
	size_t		 poll_n, poll_cur;
	uint32_t	 poll_on;
	bool		 poll_one;
};

/* The open group's info in the message pane's place (ui/view-info.c). */
struct ui_view_info {
	bool		 on;
	int		 sel;		/* the selected member */
	int		 top;		/* the first member drawn */
	int		 rows;		/* member rows last drawn */
	bool		 contact;	/* the open chat is a contact's: its
					 * page (ui/view-contact.c) */
};

/* What the server said of a contact or group (EV_PROFILE) and the
 * blocklist (EV_BLOCKLIST), for the info pages (ui/view-contact.c). */
struct ui_view_prof {
	char		*jid;		/* whose the profile is (raw), or NULL */
	bool		 about_known;
	char		*about;		/* sanitised, or NULL */
	int64_t		 about_ms;	/* 0 unknown */
	enum ev_pic_state pic_state;
	struct ui_thumb	*pic;		/* SHOWN: the picture, else NULL */
	char		**blocked;	/* user JIDs (raw) */
	size_t		 nblocked;
};

/*
 * What counts as read (ui/view-chat.c): the open chat's messages once
 * they have been on a seen screen (the terminal focused, by its focus
 * reports, and the window big enough for the chat screen) without the
 * key page, the group info, the search or the chat picker in their place,
 * for UI_VIEW_READ_MS on end; a
 * chat only passed through on the way to another is not read.
 */
struct ui_view_read {
	bool		 unseen;	/* the screen is not seen (focus out,
					 * window too small) */
	bool		 pending;	/* the open chat holds messages not
					 * yet marked read */
	int64_t		 since;		/* ms: shown, seen, since; 0 not */
	bool		 below;		/* messages came under the view
					 * (reading back): read once the
					 * bottom is reached */
	bool		 unmarked;	/* this opening asked for the chat's
					 * "marked unread" to go */
};

/* A person with no chat yet, for the chat picker (EV_CHATS people):
 * strings owned, sanitised. */
struct ui_person {
	char		*jid;		/* raw (a key, never shown) */
	char		*name;		/* address-book, else push name */
	char		*push;		/* push name, "" none */
};

/* The chat picker (ui/view-pick.c): its query and the entry chosen
 * among the chats that match it (and "new chat with +NUMBER"). */
struct ui_view_pick {
	bool		 on;
	struct ui_input	 q;		/* the name or number typed */
	int		 sel;		/* the entry chosen */
	int		 top;		/* the first entry drawn */
	int		 rows;		/* entries last drawn */
	const char	*err;		/* static, translated, or NULL */
	struct ui_person *people;	/* who has no chat yet, as the
					 * last EV_CHATS with people said */
	size_t		 npeople;
	/* Forwarding (ui/view-forward.c): the picker lists the chats
	 * alone, Space marks them, Enter forwards message (fwd_chat,
	 * fwd_from_me, fwd_id) to the marked ones (or the chosen one). */
	bool		 fwd;
	char		*fwd_chat, *fwd_id;	/* raw, owned */
	bool		 fwd_from_me;
	char		**marks;	/* the chats marked: raw JIDs, owned */
	uint32_t	 nmarks;
};

#include "ui/view-minfo.h"	/* the message info; forwarding */

/* Mentions being typed in a group (ui/view-pick.c): the member chosen
 * among those offered for the "@" before the cursor. */
struct ui_view_mention {
	int		 sel;
	size_t		 off;		/* Esc: no offer for the "@" at
					 * off - 1 (0: none refused) */
};

/* Notifications waiting for the next refresh (ui/view-notify.c). */
struct ui_view_ntf {
	unsigned	 n;		/* messages and reactions since the
					 * last flush */
	bool		 chats_differ;	/* ... in more than one chat */
	char		*chat;		/* the newest one's chat (raw) */
	char		*sender;	/* ... who sent it (raw JID; "") */
	char		*sender_name;	/* ... by the name it came with */
	char		*text;		/* ... its text (raw), or for a
					 * reaction its emoji */
	bool		 reaction;	/* ... is a reaction to ours */
	int64_t		 since;		/* ms: the first one came at */
	bool		 call;		/* ... is a call that rings: its
					 * words are the body whatever
					 * notify-preview says */
	bool		 title_set;	/* the window title is ours (the
					 * terminal's was saved) */
	unsigned	 title_shown;	/* the count in it */
};

/* The call that rings (ui/view-notify.c): from its "incoming call"
 * line (EV_NOTICE_CALL_IN) until its last line comes, the reject key
 * declines it, or UI_VIEW_RING_MS pass.  id NULL: none rings. */
#define UI_VIEW_RING_MS	120000
struct ui_view_ring {
	char		*id;		/* the line's id (CMD_CALL_REJECT) */
	char		*chat;
	char		*who;		/* the caller's name, sanitised */
	uint32_t	 bits;		/* EV_CALL_* */
	int64_t		 since;		/* ms */
};

/* The key page (ui/view-draw.c). */
struct ui_view_help {
	bool		 on;
	int		 top, rows;	/* its scroll, rows last drawn */
};

struct ui_view {
	struct ui_view_opts o;
	ui_view_push_fn	 push;
	void		*arg;
	char		*own_name;	/* our push name, sanitised; NULL
					 * while none is known */
	char		*own_number;	/* our phone number, digits; NULL
					 * while none is known */
	bool		 connected;
	bool		 linked;	/* the store holds our account (linked
					 * before, or just now): its chats show,
					 * connected or not */
	bool		 disk_full;	/* offline for a full disk: Enter
					 * keeps the text in the input */
	struct ui_chats	 chats;
	struct ui_msgs	 msgs;
	struct ui_input	 in;		/* the input line */
	struct ui_groups groups;
	struct ui_search search;
	bool		 search_info;	/* the group info was shown when
					 * the search opened */
	struct ui_view_bar bar;
	struct ui_view_chat chat;
	struct ui_view_prompt prompt;
	struct ui_view_info info;
	struct ui_view_prof prof;
	struct ui_view_help help;
	struct ui_view_read read;
	struct ui_view_pick pick;
	struct ui_view_minfo minfo;
	struct ui_view_mention mention;
	struct ui_view_ntf ntf;
	struct ui_view_ring ring;
	bool		 list_hidden;	/* the chat list hidden (the list
					 * key): the open chat takes the
					 * width */
	bool		 pasting;	/* between the bracketed-paste marks */
	bool		 paste_cr;	/* the paste's last key was a CR */
	/* Chat list reloads. */
	bool		 chats_due;
	bool		 chats_asked;	/* CMD_LOAD_CHATS not yet answered */
	int64_t		 chats_ms;	/* last CMD_LOAD_CHATS */
	char		*note;		/* a passing line, sanitised */
	char		*deleted;	/* the chat the delete key asked to
					 * delete, closed when the server
					 * takes it; or NULL */
	char		*star_id;	/* the message a star key asked for
					 * (ui/view-chatact.c), marked when
					 * the server takes it; or NULL */
	struct buf	 term_out;	/* for the terminal after the next
					 * refresh (OSC 52), ui/term.h */
	struct ui_term_links links;	/* the links the last draw drew */
	struct ui_thumb_spots spots;	/* ... and the room it left for
					 * images (ui/thumb.h) */
	/* Where the last draw put the chat list's rows and the message
	 * pane (0 rows: not drawn), for the mouse. */
	struct {
		int	 ly, lx, lh, lw;
		int	 my, mx, mh, mw;
	} geo;
	char		*link_id;	/* the message the open-link key
					 * last opened a link of ... */
	size_t		 link_next;	/* ... and where the next starts */
	char		*media_open_id;	/* the message whose file the open
					 * key opens once downloaded, or
					 * NULL */
	bool		 media_open_photo; /* ... a view-once photo */
	struct ui_thumb	*once_img;	/* a view-once photo shown until a
					 * key (no open-command), or NULL */
};

/* What an action does in a room of the key dispatch, the key typed at
 * now (ms) (ui/view-keys.c). */
typedef void	(*ui_view_act_fn)(struct ui_view *, int64_t);

/* ---- ui/view-select.c: the selected message's room ---- */

/* Whether a message is selected (the room is open); its actions
 * (indexed by enum ui_key_action, NULL: not taken); its other keys
 * (true: taken). */
bool		 ui_view_selected_on(const struct ui_view *v);
extern const ui_view_act_fn ui_view_select_acts[];
bool		 ui_view_select_key(struct ui_view *v, int k,
		    enum ui_key_action a, int64_t now);

/* ---- ui/view-state.c ---- */

/* Hand c (taken; NULL: nothing) to the view's push function. */
void		 ui_view_push(struct ui_view *v, struct cmd *c);

/* Say text (copied, sanitised; NULL: nothing) on the line over the input
 * until the next key. */
void		 ui_view_note(struct ui_view *v, const char *text);

/*
 * The sentence fmt (one %s) with name in it, into line[size], the name
 * cut short ("…") so that the whole sentence fits in cols columns (names
 * are long; what the sentence says after them must show).  Returns line.
 */
const char	*ui_view_with_name(char *line, size_t size, int cols,
		    const char *fmt, const char *name);

/* Whether chat (may be NULL) is the open chat. */
bool		 ui_view_is_open(const struct ui_view *v, const char *chat);

/* The open chat's group, or NULL when it is not a group. */
struct ui_group	*ui_view_open_group(const struct ui_view *v);

/* Whether the open chat is a group we are no longer a member of. */
bool		 ui_view_open_left(const struct ui_view *v);

/* Drop the prompt's state (at the view's end). */
void		 ui_view_prompt_release(struct ui_view *v);

/* Open prompt kind, empty, or with text (borrowed) in it. */
void		 ui_view_prompt_start(struct ui_view *v,
		    enum ui_view_prompt_kind kind);
void		 ui_view_prompt_start_with(struct ui_view *v,
		    enum ui_view_prompt_kind kind, const char *text);

/* Ask for an emoji for message id (borrowed; mine: it is ours), or
 * whether to delete our message id for everyone. */
void		 ui_view_prompt_react(struct ui_view *v, const char *id,
		    bool mine);
void		 ui_view_prompt_revoke(struct ui_view *v, const char *id);
/* Jump to a date (the jump-date key): its prompt, with a chat open. */
void		 ui_view_prompt_date(struct ui_view *v, int64_t now);

/* The editing keys of the input line, prompts and the search's query
 * (in): true when k was one (a text key beeps when it does not fit). */
bool		 ui_view_keys_edit(struct ui_input *in, int k);

/* Whether k is a key that types a character (not a control, not a
 * function key). */
bool		 ui_view_keys_text(int k);

/*
 * The PN JID of the phone number d[0..n) (digits only, country code
 * first: UI_VIEW_PHONE_MIN to UI_VIEW_PHONE_MAX of them, not starting
 * with 0) into jid[JID_MAX].  Returns false when d is no such number.
 */
bool		 ui_view_phone_jid(const char *d, size_t n, char *jid);

/* ---- ui/view-notify.c ---- */

void		 ui_view_notify_release(struct ui_view *v);

/* Our phone number (digits, borrowed; NULL or "" keeps the one known),
 * for the mentions that reach a muted chat. */
void		 ui_view_notify_own(struct ui_view *v, const char *number);

/*
 * EV_MESSAGE m (borrowed), after the pane took it: a message of someone
 * else not on a seen screen (its chat open at the newest row, the
 * terminal focused, nothing over the pane) waits for the next
 * ui_view_notify_flush(); in a muted chat only when it mentions us.
 */
void		 ui_view_notify_message(struct ui_view *v,
		    const struct ev_message *m, int64_t now);

/* EV_REACTION r (borrowed): someone else's reaction to one of ours, not
 * on a seen screen and not in a muted chat, waits likewise. */
void		 ui_view_notify_reaction(struct ui_view *v,
		    const struct ev_reaction *r, int64_t now);

/*
 * A call's line m (EV_MESSAGE with a call notice, borrowed): an
 * "incoming call" line makes its call the one that rings (v->ring) and
 * waits for the next flush as a notification whether or not the chat
 * is seen or muted (a call is not a message to read later); the call's
 * last line (missed, answered or declined elsewhere, declined here)
 * ends the ring.  Other lines: nothing.
 */
void		 ui_view_call_line(struct ui_view *v,
		    const struct ev_message *m, int64_t now);

/* The reject-call key: CMD_CALL_REJECT for the call that rings, which
 * rings no more on the screen (the engine's "declined" line, or its
 * error, says how it went); without one the note says so. */
void		 ui_view_call_reject(struct ui_view *v, int64_t now);

/* ---- ui/view-attach.c: a file to send ---- */

/* The attach key (PROMPT_ATTACH, or the file-picker-command's pick, then
 * PROMPT_CAPTION) and the voice-note key (PROMPT_VOICE), on the open
 * chat; without one the note says so. */
void		 ui_view_attach(struct ui_view *v, int64_t now);
void		 ui_view_voice(struct ui_view *v, int64_t now);
/* Enter in PROMPT_ATTACH or PROMPT_VOICE (the path: a regular file, or
 * the prompt's error says so), in PROMPT_CAPTION (CMD_SEND_FILE). */
void		 ui_view_attach_enter(struct ui_view *v);
void		 ui_view_caption_enter(struct ui_view *v);
/* Their keys before editing: Tab completes the file name (true: taken);
 * any key drops the names Tab showed. */
bool		 ui_view_attach_key(struct ui_view *v, int k);
/* The line over those prompts (into line[size]), or NULL for another. */
const char	*ui_view_attach_words(struct ui_view *v, char *line,
		    size_t size);

/* ---- ui/view-chatact.c: the chat's app-state keys ---- */

/* The keys (chat_acts of ui/view-keys.c), on the selected chat: mute
 * (PROMPT_MUTE asks how long), pin or unpin, archive or unarchive, mark
 * read or unread (as it is now), star or unstar the selected message,
 * delete or clear the chat (asked first).  Each pushes a CMD_CHAT_ACT;
 * without a chat (or message) the note says so. */
void		 ui_view_ca_mute(struct ui_view *v, int64_t now);
void		 ui_view_ca_pin(struct ui_view *v, int64_t now);
void		 ui_view_ca_archive(struct ui_view *v, int64_t now);
void		 ui_view_ca_unread(struct ui_view *v, int64_t now);
void		 ui_view_ca_star(struct ui_view *v, int64_t now);
void		 ui_view_ca_delete(struct ui_view *v, int64_t now);
void		 ui_view_ca_clear(struct ui_view *v, int64_t now);

/* PROMPT_MUTE's keys: 1 8 hours, 2 a week, 3 always, 0 unmute (then it
 * closes); every other key is taken and does nothing. */
bool		 ui_view_ca_mute_key(struct ui_view *v, int k);
/* The disappearing key (Alt-h): PROMPT_EPHEMERAL asks which timer for
 * the selected chat; its keys 1 24 hours, 2 7 days, 3 90 days, 0 off
 * push a CMD_EPHEMERAL (then it closes; every other key is taken and
 * does nothing).  Issue 20, protocol-features.md 3.5. */
void		 ui_view_ca_ephemeral(struct ui_view *v, int64_t now);
bool		 ui_view_ca_ephemeral_key(struct ui_view *v, int k);
/* y or n to PROMPT_DELETE_CHAT and PROMPT_CLEAR_CHAT. */
void		 ui_view_ca_answer_delete(struct ui_view *v, bool yes);
void		 ui_view_ca_answer_clear(struct ui_view *v, bool yes);
/* The line over the input of those three prompts (into line[size], for
 * cols columns), or NULL for another prompt. */
const char	*ui_view_ca_words(struct ui_view *v, char *line, size_t size,
		    int cols);

/* EV_APP_STATE's step of a change of ours said in the note: "muting…"
 * while the server has it, offline, not synced yet, not taken. */
void		 ui_view_ca_event(struct ui_view *v,
		    const struct ev_app_state *e);

/* ---- ui/view-links.c ---- */

/* The copy key: the selected message's text (as shown) on the clipboard
 * through OSC 52 (v->term_out), said in the note; or why not. */
void		 ui_view_links_copy(struct ui_view *v);

/* ui/view-card.c: the card-chat key on the selected message (a contact
 * card: its number's chat opened, or PROMPT_CARD asks which), and
 * PROMPT_CARD's keys (a digit; true: every key is taken). */
void		 ui_view_card_chat(struct ui_view *v);
bool		 ui_view_card_key(struct ui_view *v, int k);

/* The open-link key: the selected message's first URL (the next one when
 * pressed again on the same message) to the view's open_link function
 * (link-open-command), said in the note; or why not. */
void		 ui_view_links_open(struct ui_view *v);

/* ---- ui/view-chat.c ---- */

/* Whether chat ch (may be NULL: no) is read without read receipts and
 * left unread: its own peek mode, else the peek setting. */
bool		 ui_view_peeking(const struct ui_view *v,
		    const struct ui_chat *ch);

/* The peek key: the open chat's peek mode turned over, kept in the store
 * (CMD_PEEK), said in the note. */
void		 ui_view_chat_peek(struct ui_view *v);

void		 ui_view_chat_release(struct ui_view *v);

/* The open chat (if any) is left for chat jid (borrowed): our typing
 * stops, the reply or edit goes, the input line's text is kept as the
 * open chat's draft and jid's draft, if any, comes back. */
void		 ui_view_chat_leave(struct ui_view *v, const char *jid);

/* Stop our typing (CMD_TYPING paused) where it was on. */
void		 ui_view_chat_typing_stop(struct ui_view *v);

/* The input line changed at now (ms): CMD_TYPING composing, at most
 * every UI_VIEW_TYPING_MS, or paused when it is empty. */
void		 ui_view_chat_typing_edit(struct ui_view *v, int64_t now);

/* Time passes: our typing pauses UI_VIEW_TYPING_MS after the last key;
 * a request for older history unanswered for UI_VIEW_PHONE_MS is given
 * up, said in the note. */
void		 ui_view_chat_tick(struct ui_view *v, int64_t now);

/* EV_HISTORY (borrowed): a chunk came while the phone was asked for
 * older history: the asked chat's pane reads the store's older page.
 * EV_ERROR (borrowed) with the asked chat: the request could not go, and
 * is no longer awaited. */
void		 ui_view_chat_history(struct ui_view *v, const struct ev *ev);

/* EV_PAGE (borrowed), after the pane took it: the page the phone's
 * answer asked for ends the request, saying "no older messages on your
 * phone" when it holds none. */
void		 ui_view_chat_paged(struct ui_view *v, const struct ev *ev);

/* Scroll the message pane dir (-1 older, +1 newer) by rows, asking for
 * the next page at either end (older history of the phone at the top). */
void		 ui_view_chat_scroll(struct ui_view *v, int dir, int rows);

/* Send what the input line holds (a reply, an edit or a message). */
void		 ui_view_chat_send(struct ui_view *v);

/* The chat list's draft marks from the drafts kept (the other chats';
 * the open one's is in its input line). */
void		 ui_view_chat_mark_drafts(struct ui_view *v);

/* The drafts stored (ec borrowed, the first EV_CHATS only: later ones
 * may be older than a CMD_DRAFT sent since), as drafts kept, the
 * newest chats' first, for the chats that have none in memory. */
void		 ui_view_chat_drafts_load(struct ui_view *v,
		    const struct ev_chats *ec);

/* The open chat's input line kept as its draft, in the store too
 * (CMD_DRAFT) when it changed; the line stays.  Not while editing a
 * message.  Before quitting. */
void		 ui_view_chat_keep_draft(struct ui_view *v);

/*
 * A message sent in chat that the engine could not store (EV_ERROR's
 * unsent text): back at the start of the input line when chat is open
 * (before what was typed since, with a space), else at the start of
 * chat's draft, so that nothing typed is lost.  Strings borrowed.
 */
void		 ui_view_chat_unsent(struct ui_view *v, const char *chat,
		    const char *text);

/* Drop the reply or edit being written. */
void		 ui_view_chat_cancel(struct ui_view *v);

/* The selected message m->v[m->sel]: reply to it; edit it; delete it
 * (after a question); send it again (a failed one of ours); react. */
void		 ui_view_chat_reply(struct ui_view *v);
/* Forget the reply being written (sent, as a file). */
void		 ui_view_chat_drop_reply(struct ui_view *v);
void		 ui_view_chat_edit(struct ui_view *v, int64_t now);
void		 ui_view_chat_delete(struct ui_view *v, int64_t now);
void		 ui_view_chat_retry(struct ui_view *v);
void		 ui_view_chat_react(struct ui_view *v);

/* Older rows: the store's next page, or once the phone's history. */
void		 ui_view_chat_older(struct ui_view *v);

/* A page of the open chat up (dir < 0, older) or down, from where the
 * pane is: the selection (a search hit opened) goes. */
void		 ui_view_chat_page(struct ui_view *v, int dir);

/* Home (end false) and End: the open chat's oldest messages, or its
 * newest, followed live again (ui_msgs_oldest(), ui_msgs_newest()). */
void		 ui_view_chat_jump(struct ui_view *v, bool end);

/* The open chat (if any) read: the list's unread count gone, and
 * CMD_MARK_READ when read receipts are on. */
void		 ui_view_chat_mark_read(struct ui_view *v);

/* The open chat has messages to be read (it opened with unread ones, one
 * came): read at once when it has been shown, seen, for UI_VIEW_READ_MS,
 * else by ui_view_chat_read_tick() once it has. */
void		 ui_view_chat_read_due(struct ui_view *v, int64_t now);

/* Time passes (now, ms): the open chat read when it is due and has been
 * shown, seen, for UI_VIEW_READ_MS. */
void		 ui_view_chat_read_tick(struct ui_view *v, int64_t now);

/* Open the chat selected in the list when it is not the open one. */
void		 ui_view_open_selected(struct ui_view *v);

/* Open chat (borrowed; selected in the list, added when the list lacks
 * it) at the message of rowid, in context. */
void		 ui_view_open_at(struct ui_view *v, const char *chat,
		    int64_t rowid);

/* ---- ui/view-media.c: the selected message's file ---- */

/* The download key: CMD_MEDIA_GET for the selected message (said in the
 * note; its path when it is downloaded already). */
void		 ui_view_media_get(struct ui_view *v);
/* The open key: open-command with the file's path, downloaded first
 * when it is not; without open-command the path is said. */
void		 ui_view_media_open(struct ui_view *v);
/* The save-as key: a path prompt (PROMPT_SAVE_MEDIA) for the downloaded
 * file; ui_view_media_take_save() is its Enter: copied there, never over
 * a file. */
void		 ui_view_media_save(struct ui_view *v);
void		 ui_view_media_take_save(struct ui_view *v);
/* EV_MEDIA_DL: the row's line, the note, and the file opened when the
 * open key waits for it. */
void		 ui_view_media_event(struct ui_view *v,
		    const struct ev_media_dl *d);
/* A view-once photo opened without open-command (3.4): drawn once in
 * half-blocks in the message pane's place (y, x, h rows, w columns)
 * until a typed key (which it takes; a resize, mouse, focus keep it). */
bool		 ui_view_media_once_on(const struct ui_view *v);
bool		 ui_view_media_once_key(struct ui_view *v, int k, int a,
		    int64_t now);
void		 ui_view_media_once_draw(struct ui_view *v, int y, int x,
		    int h, int w);

/* ---- ui/view-prompt.c ---- */

/* A key k (action a) for the prompt open; it takes every key. */
void		 ui_view_prompt_key(struct ui_view *v, int k,
		    enum ui_key_action a);

/*
 * The line over the prompt open (its error, or what to type), into
 * line[size] when it is made for cols columns, and in *lead what the
 * input line starts with.  Returns the line (static, translated, or
 * line).
 */
const char	*ui_view_prompt_text(struct ui_view *v, char *line,
		    size_t size, int cols, const char **lead);

/* ---- ui/view-pick.c ---- */

/* Open the chat picker, its query empty, and ask for the people with no
 * chat (CMD_LOAD_CHATS people); close it (nothing opened). */
void		 ui_view_pick_open(struct ui_view *v);
void		 ui_view_pick_close(struct ui_view *v);

/* The people with no chat yet from ec (borrowed), in place of those
 * known; ui_view_pick_release() frees them (ui_view_free()). */
void		 ui_view_pick_people(struct ui_view *v,
		    const struct ev_chats *ec);
void		 ui_view_pick_release(struct ui_view *v);

/* Its query changed: the first entry chosen again. */
void		 ui_view_pick_edited(struct ui_view *v);

/* Choose the entry by (-1 up, +1 down, more a page) from the chosen one,
 * within the entries. */
void		 ui_view_pick_move(struct ui_view *v, int by);

/* Enter: open the chosen chat (or the new chat by number); with nothing
 * to open, say why on the picker's line and stay. */
void		 ui_view_pick_enter(struct ui_view *v);

/* The indexes into v->chats.v of the chats matching the query (the
 * archived ones too), in the list's order, *n of them: an array the
 * caller frees. */
size_t		*ui_view_pick_list(const struct ui_view *v, size_t *n);

/* The indexes into v->pick.people of the people matching the query by
 * name, push name or number, *n of them (the entries after the chats):
 * an array the caller frees. */
size_t		*ui_view_pick_people_list(const struct ui_view *v, size_t *n);

/* Whether the query is a phone number that no chat in the list and no
 * person has: its JID into jid[size] (size >= JID_MAX), the entry after
 * the chats and the people. */
bool		 ui_view_pick_number(const struct ui_view *v, char *jid,
		    size_t size);

/*
 * The members offered for a mention: with the cursor of the input line
 * after "@" and part of a name (the "@" at the line's start or after a
 * space) in an open group, the members but us whose name, a word of it
 * or number starts with that part, into out[max] (borrowed from the
 * group until it changes), and the "@"'s byte offset in *at.  Returns
 * how many (0: none offered; then *at untouched).
 */
int		 ui_view_mention_offer(const struct ui_view *v,
		    const struct ui_member **out, int max, size_t *at);

/* Choose among them (by +1, -1, wrapping round); Esc: none offered
 * for this "@" again; Tab or Enter: "@" and part replaced by the chosen
 * member's name (its number when it has none) and a space, returning
 * true (false when none was offered). */
void		 ui_view_mention_move(struct ui_view *v, int by);
void		 ui_view_mention_refuse(struct ui_view *v);
bool		 ui_view_mention_insert(struct ui_view *v);

/* ---- ui/view-info.c ---- */

/* Show the open group's info (asking for it), or say it is no group. */
void		 ui_view_info_open(struct ui_view *v);

/* From the info: ask to leave the open group; rename it (a prompt with
 * its subject); add members (a prompt); remove the selected member (a
 * prompt with them).  Each says why not when it cannot. */
void		 ui_view_info_leave(struct ui_view *v);
void		 ui_view_info_rename(struct ui_view *v);
void		 ui_view_info_add(struct ui_view *v);
void		 ui_view_info_remove(struct ui_view *v);

/* Whether we may add and remove members of g: an admin, or not known
 * yet (the server decides then). */
bool		 ui_view_info_may_manage(const struct ui_group *g);

/* ---- ui/view-contact.c ---- */

/* Show the open contact's info page (1:1 chat), asking for its about
 * text and picture (CMD_PROFILE; a group's info asks for its picture the
 * same way: ui_view_contact_ask()). */
void		 ui_view_contact_open(struct ui_view *v);

/* The info in the message pane's place, from its top, no message
 * selected: a contact's page (contact) or a group's members. */
void		 ui_view_contact_show(struct ui_view *v, bool contact);

/* CMD_PROFILE for jid (asked each time; what is kept of another jid is
 * forgotten). */
void		 ui_view_contact_ask(struct ui_view *v, const char *jid);

/* The block key on the contact's page: the question (PROMPT_BLOCK). */
void		 ui_view_contact_block(struct ui_view *v);

/* y or n to PROMPT_BLOCK: CMD_BLOCK (block, or unblock a blocked one). */
void		 ui_view_contact_answer_block(struct ui_view *v, bool yes);

/* PROMPT_BLOCK's question, into line[size] (the name cut to cols). */
const char	*ui_view_contact_words(struct ui_view *v, char *line,
		    size_t size, int cols);

/* Whether jid (a user JID) is on the blocklist last said. */
bool		 ui_view_blocked(const struct ui_view *v, const char *jid);

/* Mark the chat list's chats blocked or not (before it is drawn). */
void		 ui_view_contact_mark(struct ui_view *v);

/* EV_PROFILE and EV_BLOCKLIST taken (ev borrowed). */
void		 ui_view_contact_profile(struct ui_view *v, const struct ev *ev);
void		 ui_view_contact_blocklist(struct ui_view *v,
		    const struct ev *ev);

/* Free what the profile and the blocklist hold. */
void		 ui_view_contact_release(struct ui_view *v);

/* ---- ui/view-search.c ---- */

/* Open the search: in the open chat, or (global, or no chat open) in
 * all; open already: the other scope, the query kept. */
void		 ui_view_search_open(struct ui_view *v, bool global,
		    int64_t now);

/* Close it: the view as it was (the group info back if shown). */
void		 ui_view_search_close(struct ui_view *v);

/* Its query changed: parsed again and searched (debounced). */
void		 ui_view_search_edit(struct ui_view *v, int64_t now);

/* Open the chosen hit's chat at it (the search closes). */
void		 ui_view_search_enter(struct ui_view *v);

/* Time passes: a query due is sent. */
void		 ui_view_search_tick(struct ui_view *v, int64_t now);

/* ---- ui/view-panes.c ---- */

/* Draw s at (y, x) in at most cols columns (none when cols <= 0).
 * Returns the columns drawn. */
int		 ui_view_put(int y, int x, const char *s, int cols);

/* The open group's info, and the search, in the box at (y, x), h rows
 * by w columns. */
void		 ui_view_panes_info(struct ui_view *v, int y, int x, int h,
		    int w);
void		 ui_view_panes_search(struct ui_view *v, int y, int x, int h,
		    int w, int64_t now);

/* The chat picker's entries in the box at (y, x), h rows by w columns,
 * scrolled so that the chosen one shows; the members offered for a
 * mention at the bottom of such a box, over what is drawn there. */
void		 ui_view_panes_pick(struct ui_view *v, int y, int x, int h,
		    int w);
void		 ui_view_panes_mention(struct ui_view *v, int y, int x, int h,
		    int w);

#endif
