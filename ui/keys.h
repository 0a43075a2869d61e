/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/keys.h -- the chat screen's key bindings: an action per key, with
 * defaults after nchat's (features.md 2a: Tab/Shift-Tab next/previous
 * chat, Ctrl-f next unread, Ctrl-n new chat, PgUp/PgDn history, Up to
 * select a message, Alt-s react, Ctrl-d delete, Ctrl-g help, Ctrl-q quit;
 * Alt-d leaves a group as nchat's Alt-d leaves a chat; Alt-g, free in
 * nchat, opens a group's info, Alt-m makes a new group; Alt-/ finds in
 * the open chat as nchat's Alt-/ does, Alt-f, free in nchat, searches
 * every chat; Alt-c copies the selected message (nchat's Ctrl-c is the
 * interrupt here)) and rebindable
 * by name from wachat.conf ("key-send = ctrl-x").  A key
 * is an int: a typed character is its code point; a curses function key
 * is UI_KEY_FN + its KEY_* code; Alt (Esc then a key) adds UI_KEY_ALT.
 * Pure; any thread.
 */
#ifndef UI_KEYS_H
#define UI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#define UI_KEY_FN	0x200000	/* + a curses KEY_* code */
#define UI_KEY_ALT	0x400000	/* + a key */
/* The bracketed-paste marks ESC [ 200 ~ and ESC [ 201 ~ (xterm's mode
 * 2004), as curses codes above KEY_MAX given to define_key(), and as
 * keys. */
#define UI_CURSES_PASTE_BEGIN	01000
#define UI_CURSES_PASTE_END	01001
#define UI_KEY_PASTE_BEGIN	(UI_KEY_FN + UI_CURSES_PASTE_BEGIN)
#define UI_KEY_PASTE_END	(UI_KEY_FN + UI_CURSES_PASTE_END)
/* The focus reports ESC [ I (the terminal got the focus) and ESC [ O (it
 * lost it), xterm's mode 1004, likewise. */
#define UI_CURSES_FOCUS_IN	01002
#define UI_CURSES_FOCUS_OUT	01003
#define UI_KEY_FOCUS_IN		(UI_KEY_FN + UI_CURSES_FOCUS_IN)
#define UI_KEY_FOCUS_OUT	(UI_KEY_FN + UI_CURSES_FOCUS_OUT)

enum ui_key_action {
	UI_ACT_NONE = -1,
	UI_ACT_QUIT,		/* quit */
	UI_ACT_NEXT_CHAT,	/* next-chat */
	UI_ACT_PREV_CHAT,	/* prev-chat */
	UI_ACT_UNREAD_CHAT,	/* unread-chat */
	UI_ACT_NEW_CHAT,	/* new-chat: by phone number */
	UI_ACT_PREV_PAGE,	/* prev-page: older history */
	UI_ACT_NEXT_PAGE,	/* next-page: newer history */
	UI_ACT_SEND,		/* send (also when Enter is a newline) */
	UI_ACT_NEWLINE,		/* newline (when Enter sends) */
	UI_ACT_SELECT_UP,	/* up: select an older message */
	UI_ACT_SELECT_DOWN,	/* down: a newer one */
	UI_ACT_REPLY,		/* reply to the selected message */
	UI_ACT_REACT,		/* react to it */
	UI_ACT_RETRY,		/* send a failed one again */
	UI_ACT_DELETE,		/* delete a failed one here, a sent one of
				 * ours for everyone */
	UI_ACT_CANCEL,		/* leave selection, reply, prompt */
	UI_ACT_HELP,		/* help: every key */
	/* Groups (issue 8), after the first ones so that their numbers
	 * stay those of wachat.conf's list (src/conf.c). */
	UI_ACT_GROUP_INFO,	/* group-info: the open group's info */
	UI_ACT_GROUP_NEW,	/* group-new: make a group */
	UI_ACT_GROUP_LEAVE,	/* group-leave: leave the open group */
	/* Search (issue 9). */
	UI_ACT_FIND,		/* find: search the open chat */
	UI_ACT_FIND_ALL,	/* find-all: search every chat */
	UI_ACT_EDIT,		/* edit: our selected message */
	/* Links and copying (issue 17). */
	UI_ACT_COPY,		/* copy: the selected message's text to
				 * the clipboard (OSC 52) */
	/* Small windows (issue 17). */
	UI_ACT_LIST,		/* list: hide or show the chat list */
	/* Reading far back (issue 17): with the input line empty. */
	UI_ACT_OLDEST,		/* oldest: the chat's first messages */
	UI_ACT_NEWEST,		/* newest: its last, following again */
	UI_ACT_OPEN_LINK,	/* open-link: the selected message's link
				 * (the next one on each press) */
	UI_ACT_PEEK,		/* peek: the open chat read without read
				 * receipts, or as before */
	UI_ACT_JUMP_DATE,	/* jump-date: the first message on or
				 * after a date typed */
	UI_ACT_ARCHIVED,	/* archived: the archived chats' folder,
				 * or back to the chat list */
	/* The selected chat's app state (issue 18), synced to the phone. */
	UI_ACT_MUTE,		/* mute: 8 hours, a week, always, or off */
	UI_ACT_PIN,		/* pin: pin or unpin it */
	UI_ACT_ARCHIVE,		/* archive: archive or unarchive it */
	UI_ACT_MARK_UNREAD,	/* mark-unread: mark it unread, or read */
	UI_ACT_STAR,		/* star: star or unstar the selected
				 * message */
	UI_ACT_DELETE_CHAT,	/* delete-chat: delete it (asks first) */
	UI_ACT_CLEAR_CHAT,	/* clear-chat: clear its messages (asks) */
	/* Media (issue 19). */
	UI_ACT_ATTACH,		/* attach: send a file (its path, or the
				 * file-picker-command's pick; then a
				 * caption) */
	UI_ACT_VOICE,		/* voice-note: send an Ogg Opus file as a
				 * voice note */
	/* The selected message's file (issue 19). */
	UI_ACT_DOWNLOAD,	/* download: into download-dir */
	UI_ACT_OPEN,		/* open: with open-command (downloaded
				 * first when it is not) */
	UI_ACT_SAVE_AS,		/* save-as: copied to a path typed */
	/* Message kinds (issue 20). */
	UI_ACT_CARD_CHAT,	/* card-chat: a chat with a number on the
				 * selected contact card */
	UI_ACT_FORWARD,		/* forward: the selected message to other
				 * chats (a picker) */
	UI_ACT_DISAPPEAR,	/* disappearing: the chat's timer (24
				 * hours, 7 days, 90 days, off) */
	UI_ACT_REJECT_CALL,	/* reject-call: decline the call that
				 * rings (in any room, as quit) */
	UI_ACT_VOTE,		/* vote: on the selected poll (a chooser) */
	UI_ACT_POLL_NEW,	/* poll-new: send a poll to the open chat */
	UI_ACT_MSG_INFO,	/* message-info: our selected message's
				 * delivered and read times per recipient */
	UI_ACT_COUNT
};

#define UI_KEY_ACTIONS	50	/* UI_ACT_COUNT, for the preprocessor */

struct ui_keymap {
	int	 key[UI_ACT_COUNT];	/* 0: unbound */
};

/* The default bindings. */
void		ui_keys_default(struct ui_keymap *km);

/*
 * Parse a key name: "ctrl-a".."ctrl-z", "alt-" + a key, "f1".."f12",
 * "tab", "shift-tab", "enter", "esc", "backspace", "delete", "insert",
 * "up", "down", "left", "right", "home", "end", "pgup", "pgdn", "space",
 * "none" (unbound: 0), or one printable character.  Case does not
 * matter but for the character.  Returns 0 and *key, or -EINVAL.
 */
MUST_CHECK int	ui_keys_parse(const char *name, int *key);

/*
 * The other action bound to the key of action in km (two actions on one
 * key: only the first would ever run), as an enum ui_key_action, or -1
 * when none (or action unknown or unbound).  Any thread.
 */
int		ui_keys_clash(const struct ui_keymap *km, const char *action);

/*
 * Bind action (its name: "send", "next-chat", ... as listed above) to
 * key (a name for ui_keys_parse()).  Returns 0, or -EINVAL with *why (a
 * static English phrase marked N_()) saying what was wrong.
 */
MUST_CHECK int	ui_keys_bind(struct ui_keymap *km, const char *action,
		    const char *key, const char **why);

/* The action bound to key, or UI_ACT_NONE. */
enum ui_key_action ui_keys_action(const struct ui_keymap *km, int key);

/* An action's name ("next-chat"), and what it does (translated). */
const char	*ui_keys_action_name(enum ui_key_action a);
const char	*ui_keys_action_help(enum ui_key_action a);

/* key as people write it ("Ctrl-x", "PgUp", "Alt-s"), into out (size
 * bytes, NUL-terminated); "" for 0. */
void		ui_keys_name(int key, char *out, size_t size);

#endif
