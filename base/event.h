/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/event.h -- the typed messages between the two threads (style.md
 * 3.1): events from the engine thread to the UI thread, commands from the
 * UI thread to the engine thread.  Each is plain data that owns its
 * strings, so it can cross threads in a struct evq (src/evq.h) and be
 * freed by whichever thread ends up holding it.  libc only; every
 * function is callable from any thread.
 */
#ifndef WC_EVENT_H
#define WC_EVENT_H

#include <stdint.h>

/* What the engine tells the UI. */
enum ev_kind {
	EV_CONNECTING,		/* a connection attempt starts; num = attempt */
	EV_QR,			/* text = QR text to show for secs seconds */
	EV_PAIR_CODE,		/* text = the code to type on the phone */
	EV_PAIRED,		/* text = own JID (linked) */
	EV_CONNECTED,		/* logged in; text = own JID */
	EV_DISCONNECTED,	/* text = reason in words, err = the code,
				 * retry_ms = delay before the next attempt */
	EV_LOGGED_OUT,		/* text = reason; the device was forgotten */
	EV_ERROR,		/* text = what failed, in words; err = code */
	EV_STOPPED,		/* the engine thread is done and may be
				 * joined; text = why ("" when asked to
				 * quit), err = 0 or the code that ended it.
				 * Always the last event. */
	/* 1:1 messaging (proto/dm.h): chat is the contact's user JID; text
	 * comes from the network as sent (sanitise before showing it). */
	EV_MESSAGE,		/* a message was stored: chat, id, sender
				 * ("" ours), from_me, text, quoted_id,
				 * state, notice, ts_ms */
	EV_MSG_STATE,		/* our message (chat, id) moved to state */
	EV_MSG_CHANGED,		/* (chat, id) edited to text, or deleted
				 * (deleted = 1, text "") */
	EV_REACTION,		/* sender reacted to (chat, id) with text
				 * ("" removed) */
	EV_TYPING,		/* chat is typing (state 1) or stopped */
	EV_PRESENCE,		/* chat online (state 1) or not; ts_ms =
				 * last seen, 0 unknown */
	EV_SEND_FAILED,		/* our (chat, id) failed: text = why, err */
	/* Answers to CMD_LOAD_CHATS and CMD_LOAD_PAGE, read from the store
	 * on the engine thread. */
	EV_CHATS,		/* chats[0..nchats), in list order; more */
	EV_PAGE,		/* chat's msgs[0..nmsgs), oldest first; num =
				 * the command's direction (2: around a
				 * message; then more = older rows exist,
				 * more_after = newer rows exist); more */
	/* Groups (issue 8): chat is the group JID ("...@g.us").  Group
	 * messages come as EV_MESSAGE with chat = the group and sender =
	 * the author's user JID, sender_name its name.  Group event lines
	 * (created, subject changed, added, removed, left, promoted) come
	 * as EV_MESSAGE with notice = 1. */
	EV_GROUP,		/* a group's metadata, at login, on a change
				 * or answering CMD_GROUP_INFO: chat, text =
				 * subject, members[0..nmembers), num = 1
				 * when we are no longer a member (left or
				 * removed), aux = the description ("") */
	/* Search (issue 9; store_search()). */
	EV_SEARCH,		/* the answer to CMD_SEARCH: text = its query,
				 * hits[0..nhits), newest first; more: there
				 * are more matches than these */
	/* History sync (issue 9; proto/hsync.h). */
	EV_HISTORY,		/* state 0: a chunk was imported: num = the
				 * phone's progress in percent, secs = the
				 * messages stored; state 1: a chunk was
				 * refused: text = why, err; state 2: all
				 * taken (the queue is empty) */
};
/* One hit of EV_SEARCH.  Strings owned by the event, never NULL; text
 * from the network raw (sanitise before showing it). */
struct ev_hit {
	int64_t		 rowid;		/* open it with CMD_LOAD_PAGE flag 2 */
	char		*chat;
	char		*chat_name;	/* "" unknown */
	char		*id;
	char		*sender;	/* group author's user JID, or "" */
	char		*sender_name;	/* "" unknown or ours */
	int		 from_me;
	int64_t		 ts_ms;
	char		*snippet;	/* text around the first match */
	size_t		 match_start;	/* snippet[match_start..match_end) is
					 * the first matched word */
	size_t		 match_end;
	int		 cut_before;	/* text left out before the snippet */
	int		 cut_after;	/* and after it */
};

/* One member of EV_GROUP.  Strings owned by the event, never NULL. */
struct ev_member {
	char		*jid;		/* user JID (PN when known, else LID) */
	char		*alt;		/* the other one (the LID), or "" */
	char		*name;		/* contact or push name; "" unknown */
	int		 admin;		/* 1 admin, 2 superadmin (creator) */
	int		 is_me;		/* 1: this is us */
};

/* One chat of EV_CHATS.  Strings owned by the event, never NULL. */
struct ev_chat {
	char		*jid;
	char		*name;		/* contact, push or group name; "" */
	char		*preview;	/* the newest message's text, raw */
	int64_t		 last_ms;	/* 0: no message */
	int		 unread;
	int		 muted;		/* 1 muted */
	int		 pinned;	/* 1 pinned */
	int		 last_from_me;
	int		 last_state;	/* enum store_msg_state */
	int		 last_kind;	/* enum store_msg_kind */
	int		 last_deleted;
	char		*last_sender;	/* groups: the newest message's
					 * author's user JID; "" ours or 1:1 */
	char		*last_sender_name; /* groups: the newest message's
					 * author's name when not ours; "" */
};

/* One message of EV_PAGE.  Strings owned by the event, never NULL. */
struct ev_msg {
	int64_t		 rowid;		/* keyset cursor with ts_ms */
	char		*id;
	char		*sender;	/* "" ours or 1:1 */
	char		*sender_name;	/* groups: the author's contact or
					 * push name; "" unknown or ours */
	int		 from_me;
	int64_t		 ts_ms;
	int		 kind;		/* enum store_msg_kind */
	char		*text;		/* raw network text */
	char		*quoted_id;
	char		*quoted_sender;
	char		*quoted_text;
	int		 state;		/* enum store_msg_state */
	int64_t		 edited_ms;	/* 0: never edited */
	int		 deleted;
	char		*reactions;	/* "👍 2  ❤️" (count when > 1); "" */
};

/* One event.  Owns text. */
struct ev {
	enum ev_kind	 kind;
	char		*text;		/* never NULL; may be "" */
	int		 err;		/* 0 or a negative code (base/err.h) */
	uint32_t	 secs;		/* EV_QR: seconds the QR is shown */
	uint32_t	 retry_ms;	/* EV_DISCONNECTED */
	uint32_t	 num;		/* EV_CONNECTING: attempt, from 1 */
	/* Messaging events; owned, NULL when not set. */
	char		*chat;
	char		*id;
	char		*sender;
	char		*sender_name;	/* EV_MESSAGE in a group: the
					 * author's name, "" unknown */
	char		*quoted_id;
	char		*aux;		/* EV_GROUP: the description */
	int		 state;		/* enum wa_dm_state (proto/dm.h) */
	int		 from_me;	/* 0 or 1 */
	int		 notice;	/* 1: a line from wachat, not a person */
	int		 deleted;	/* EV_MSG_CHANGED: revoked */
	int64_t		 ts_ms;
	/* EV_CHATS, EV_PAGE; owned */
	struct ev_chat	*chats;
	size_t		 nchats;
	struct ev_msg	*msgs;
	size_t		 nmsgs;
	int		 more;		/* more rows in that direction */
	/* EV_GROUP; owned */
	struct ev_member *members;
	size_t		 nmembers;
	/* EV_SEARCH; owned */
	struct ev_hit	*hits;
	size_t		 nhits;
	int		 more_after;	/* EV_PAGE num 2: newer rows exist */
};

/*
 * A new event of kind with a copy of text (NULL means ""), every number
 * 0.  Returns the event, freed with ev_free().  Aborts on out-of-memory.
 */
struct ev	*ev_new(enum ev_kind kind, const char *text);

/* Free ev and its strings.  NULL is a no-op. */
void		 ev_free(struct ev *ev);


/* What the UI asks of the engine. */
enum cmd_kind {
	CMD_QUIT,		/* stop: close the connection and the store,
				 * then send EV_STOPPED */
	CMD_PAIR_CODE,		/* link by phone-number code instead of QR:
				 * arg = the phone number, digits only with
				 * the country code; EV_PAIR_CODE answers */
	/* 1:1 messaging; chat = the contact's user JID. */
	CMD_SEND,		/* arg = text; id = quoted id or NULL,
				 * aux = quoted sender (NULL: ours), quoted
				 * = the quoted text shown (or NULL) */
	CMD_REACT,		/* id = target, arg = emoji ("" removes),
				 * flag = the target is ours */
	CMD_MARK_READ,		/* the user read chat */
	CMD_TYPING,		/* flag = composing (1) or stopped (0) */
	CMD_SUBSCRIBE,		/* ask for chat's presence */
	CMD_RETRY,		/* send failed message id again */
	CMD_DELETE,		/* delete failed message id */
	CMD_EDIT,		/* our message id now says arg (the UI keeps
				 * the 15 minutes) */
	CMD_REVOKE,		/* delete our message id for everyone (the UI
				 * keeps the two days) */
	CMD_LOAD_CHATS,		/* EV_CHATS with up to flag chats */
	CMD_LOAD_PAGE,		/* EV_PAGE of chat: flag 0 = the newest
				 * page, -1 = before, +1 = after the row
				 * named by aux "TS_MS:ROWID", 2 = around
				 * the message of rowid aux "ROWID" (a
				 * search hit, in context); arg = max rows
				 * in decimal ("" = 50) */
	/* Groups (issue 8).  Failures answer with EV_ERROR (text = why);
	 * success with EV_GROUP and the event lines. */
	CMD_GROUP_CREATE,	/* arg = subject, aux = the members: user
				 * JIDs or phone numbers, separated by
				 * commas or spaces (may be "") */
	CMD_GROUP_SUBJECT,	/* chat = group, arg = the new subject */
	CMD_GROUP_ADD,		/* chat = group, arg = members as above */
	CMD_GROUP_REMOVE,	/* chat = group, arg = members as above */
	CMD_GROUP_LEAVE,	/* chat = group */
	CMD_GROUP_INFO,		/* chat = group: EV_GROUP, fresh from the
				 * server when online, else as stored */
	/* History (issue 9). */
	CMD_SEARCH,		/* search for arg (words, each a prefix):
				 * chat = only that chat (or NULL: all),
				 * aux = only that author (user JID; "" our
				 * own; NULL anyone), since_ms/until_ms the
				 * date range (0: open), flag = the most
				 * hits (0 = 50); EV_SEARCH answers */
	CMD_HISTORY_MORE,	/* the user scrolled above chat's oldest
				 * stored message: ask the phone for older
				 * ones (on-demand history, protocol.md
				 * 12.4); they come as EV_HISTORY */
};

/* One command.  Owns its strings. */
struct cmd {
	enum cmd_kind	 kind;
	char		*arg;		/* never NULL; may be "" */
	char		*chat;		/* messaging: NULL otherwise */
	char		*id;		/* may be NULL */
	char		*aux;		/* may be NULL */
	char		*quoted;	/* CMD_SEND: may be NULL */
	int		 flag;
	int64_t		 since_ms;	/* CMD_SEARCH: 0 = open */
	int64_t		 until_ms;
};

/*
 * A new command with a copy of arg (NULL means "").  Returns it, freed
 * with cmd_free().  Aborts on out-of-memory.
 */
struct cmd	*cmd_new(enum cmd_kind kind, const char *arg);

/*
 * A messaging command: kind with copies of chat, id, arg and aux (each
 * may be NULL; arg NULL means "") and flag.  Freed with cmd_free().
 * Aborts on out-of-memory.
 */
struct cmd	*cmd_new_chat(enum cmd_kind kind, const char *chat,
		    const char *id, const char *arg, const char *aux, int flag);

/* Free c and its strings.  NULL is a no-op. */
void		 cmd_free(struct cmd *c);

#endif
