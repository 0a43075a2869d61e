/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/event.h -- the typed messages between the two threads (style.md
 * 3.1): events from the engine thread to the UI thread, commands from the
 * UI thread to the engine thread.  Each is a kind and that kind's payload,
 * one struct per kind in a tagged union (nchat's protocol.h: one typed
 * request or notification per kind, so the screen never parses what the
 * engine formatted).
 *
 * Every payload is plain data: fixed-width integers, bools, enums, strings
 * and arrays with a uint32_t count; no pointer into anything else.  An
 * event or command owns every string and array in its payload: a string
 * is a NUL-terminated owned copy, never NULL once made by ev_new() or
 * cmd_new() ("" when empty or not known); an array is owned with its
 * elements (NULL when its count is 0 is allowed).  Text from the network
 * comes as sent: sanitise it before showing it.  So an event can cross
 * threads in a struct evq (src/evq.h), be written to a socket with
 * base/event-wire.h, and be freed by whichever thread ends up holding it.
 * libc only; every function is callable from any thread.
 */
#ifndef WC_EVENT_H
#define WC_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- shared pieces ---- */

/*
 * A message as the store and WhatsApp's MessageKey name it.  chat: the
 * contact's user JID or the group JID; id: the message id; sender: the
 * author's user JID in a group, "" for ours (and in a 1:1 chat, where the
 * chat says who); from_me: the message is ours.
 */
struct ev_key {
	char		*chat;
	char		*id;
	char		*sender;
	bool		 from_me;
};

/* A row's place in the store's keyset order (perf.md U1, U2): rows go by
 * ts_ms, then rowid. */
struct ev_cursor {
	int64_t		 ts_ms;		/* ms since the epoch, UTC */
	int64_t		 rowid;
};

/* Where a page of messages lies (CMD_LOAD_PAGE, EV_PAGE). */
enum ev_page_dir {
	EV_PAGE_NEWEST,		/* the chat's newest rows */
	EV_PAGE_BEFORE,		/* the rows just older than a cursor */
	EV_PAGE_AFTER,		/* the rows just newer than a cursor */
	EV_PAGE_AROUND,		/* a message (by rowid) with rows each side:
				 * a search hit, in context */
	EV_PAGE_OLDEST,		/* the chat's oldest rows (Home) */
	EV_PAGE_UNREAD,		/* opening a chat with unread messages:
				 * the newest rows when its first unread
				 * is among them, else the rows from it */
	EV_PAGE_FROM,		/* the rows from the first on or after a
				 * time (jump to a date) */
};

/* Where one of our messages is; an incoming one is EV_STATE_NONE. */
enum ev_state {
	EV_STATE_NONE,		/* received, or not ours */
	EV_STATE_QUEUED,	/* stored, not yet acked by the server */
	EV_STATE_SENT,		/* one tick */
	EV_STATE_DELIVERED,	/* on a device of the contact */
	EV_STATE_READ,		/* read */
	EV_STATE_PLAYED,	/* played (voice); shown as read */
	EV_STATE_FAILED,	/* the server refused it; may be retried */
};

/* What a stored row holds (EV_PAGE, EV_CHATS). */
enum ev_row_kind {
	EV_ROW_TEXT,		/* text, maybe a reply */
	EV_ROW_MEDIA,		/* media; text is the caption */
	EV_ROW_NOTICE,		/* a line from wachat, not a person */
	EV_ROW_UNSUPPORTED,	/* a type wachat cannot show yet */
	EV_ROW_PLACEHOLDER,	/* not decrypted yet; awaits a resend */
	EV_ROW_RICH,		/* a location, contact cards, view-once
				 * media, a link preview or another kind not
				 * shown: text is its rich record
				 * (base/rich.h) */
};

/* What kind of media a row holds (protocol-features.md 1.6; the
 * numbers of proto/msg.h enum wa_msg_media_type). */
enum ev_media_type {
	EV_MEDIA_NONE,		/* not media */
	EV_MEDIA_IMAGE,
	EV_MEDIA_VIDEO,
	EV_MEDIA_GIF,		/* a video that plays as a GIF */
	EV_MEDIA_PTV,		/* a round video note */
	EV_MEDIA_AUDIO,
	EV_MEDIA_PTT,		/* a voice message */
	EV_MEDIA_DOCUMENT,
	EV_MEDIA_STICKER,
};

/* Where a media file's download stands (store/store.h enum
 * store_dl_state). */
enum ev_dl_state {
	EV_DL_NONE,		/* not fetched */
	EV_DL_DOWNLOADING,
	EV_DL_DONE,		/* path holds the file */
	EV_DL_FAILED,
	EV_DL_CORRUPT,		/* the file did not match its hashes */
	EV_DL_EXPIRED,		/* gone from the server */
	/* Said by EV_MEDIA_DL only (the store keeps CORRUPT and NONE): */
	EV_DL_LENGTH,		/* the file was not its declared length */
	EV_DL_TOOBIG,		/* over max-media-size: not asked for */
	EV_DL_NO_MEDIA,		/* nothing to download (no such message,
				 * or no key or path) */
};
#define EV_DL_MAX	EV_DL_NO_MEDIA

/* A row's media (EV_MESSAGE, EV_PAGE): type EV_MEDIA_NONE and the rest
 * zero and "" when the row holds none.  Strings are raw network text
 * (path: ours). */
struct ev_media {
	enum ev_media_type type;
	bool		 animated;	/* a sticker: animated */
	int64_t		 size;		/* bytes; 0 unknown */
	uint32_t	 width;		/* pixels; 0 unknown */
	uint32_t	 height;
	uint32_t	 seconds;	/* audio and video; 0 unknown */
	uint32_t	 pages;		/* documents; 0 unknown */
	char		*mimetype;
	char		*file_name;	/* documents */
	char		*caption;
	enum ev_dl_state dl_state;
	uint32_t	 dl_percent;	/* EV_DL_DOWNLOADING: 0..100 (from
					 * EV_MEDIA_DL; the store has none) */
	char		*path;		/* the downloaded file; "" none */
	char		*thumb;		/* the thumbnail's bytes (JPEG; a
					 * sticker's WebP or PNG) in lowercase
					 * hex (base/hex.h), "" none; at most
					 * 2 * 64 KiB */
};

/*
 * What a notice line says (EV_MESSAGE, EV_PAGE), so that the screen says
 * it in the user's language: EV_NOTICE_TEXT a line whose words are its
 * text (group events); the others have their fields (notice_device) and
 * are rendered by the UI with _(), their text only an English fallback.
 * Stored as base/notice.h codes.
 */
enum ev_notice {
	EV_NOTICE_TEXT,		/* the text says it */
	EV_NOTICE_IDENTITY,	/* the sender's security code changed */
	EV_NOTICE_NOT_SENT,	/* our message did not reach the sender's
				 * device notice_device (its encryption
				 * failed; the session is rebuilt) */
	/* A call (protocol-features.md 5; wachat shows calls, never takes
	 * one, declines one when the user asks): notice_device holds the
	 * call's EV_CALL_* bits. */
	EV_NOTICE_CALL_IN,	/* a call rings */
	EV_NOTICE_CALL_MISSED,	/* it ended unanswered (or came from the
				 * offline queue, over) */
	EV_NOTICE_CALL_ELSEWHERE, /* answered on another device */
	EV_NOTICE_CALL_DECLINED, /* declined on another device */
	EV_NOTICE_CALL_REJECTED, /* declined here (CMD_CALL_REJECT) */
};
#define EV_NOTICE_MAX	EV_NOTICE_CALL_REJECTED

/* The bits of an EV_NOTICE_CALL_* notice's notice_device. */
#define EV_CALL_VIDEO	0x1u	/* a video call (else voice) */
#define EV_CALL_GROUP	0x2u	/* a group call */

/* A group member's standing (EV_GROUP). */
enum ev_role {
	EV_ROLE_MEMBER,
	EV_ROLE_ADMIN,
	EV_ROLE_CREATOR,	/* the superadmin */
};

/* One person's reaction in an ev_tally: who, and the name known for
 * them when the event was made.  Strings owned, never NULL. */
struct ev_reactor {
	char		*sender;	/* user JID; "" us */
	char		*name;		/* contact or push name; "" unknown
					 * or us */
};

/* One emoji of a message's reactions, with how many people sent it and
 * who they are.  emoji owned, never NULL or "".  who[0..nwho) in the
 * order they reacted, nwho <= count (the rest unnamed). */
struct ev_tally {
	char		*emoji;
	uint32_t	 count;		/* >= 1 */
	struct ev_reactor *who;
	uint32_t	 nwho;
};

/* ---- events: what the engine tells the UI ---- */

enum ev_kind {
	EV_CONNECTING,		/* u.connecting: an attempt starts */
	EV_QR,			/* u.qr: a QR code to show */
	EV_PAIR_CODE,		/* u.pair_code: the code to type on the phone */
	EV_PAIRED,		/* u.paired: linked */
	EV_CONNECTED,		/* u.connected: logged in */
	EV_DISCONNECTED,	/* u.disconnected: the connection went */
	EV_LOGGED_OUT,		/* u.logged_out: the device was forgotten */
	EV_ERROR,		/* u.error: something failed; wachat goes on */
	EV_STOPPED,		/* u.stopped: the engine thread is done and
				 * may be joined.  Always the last event. */
	/* Messaging (proto/dm.h): 1:1 chats and groups alike. */
	EV_MESSAGE,		/* u.message: a message was stored */
	EV_MSG_STATE,		/* u.msg_state: our message moved on */
	EV_MSG_CHANGED,		/* u.msg_changed: edited or deleted */
	EV_REACTION,		/* u.reaction: someone reacted */
	EV_TYPING,		/* u.typing */
	EV_PRESENCE,		/* u.presence */
	EV_SEND_FAILED,		/* u.send_failed: our message failed */
	/* Answers to CMD_LOAD_CHATS and CMD_LOAD_PAGE, read from the store
	 * on the engine thread. */
	EV_CHATS,		/* u.chats */
	EV_PAGE,		/* u.page */
	/* Groups (issue 8). */
	EV_GROUP,		/* u.group: a group's metadata: before the
				 * first EV_CHATS that lists it, on a change,
				 * and answering CMD_GROUP_INFO */
	EV_SEARCH,		/* u.search: the answer to CMD_SEARCH */
	EV_HISTORY,		/* u.history: history sync (issue 9) */
	EV_OWN_NAME,		/* u.own_name: our push name became known
				 * or changed while connected */
	EV_LINKED,		/* u.linked: at start, the account linked
				 * before (the store holds it), before any
				 * connection: its chats can show offline */
	EV_APP_STATE,		/* u.app_state: the phone's app state
				 * (issue 18) changed names or chats in the
				 * store: once per batch of patches */
	EV_UPLOAD,		/* u.upload: our media message's file is
				 * being uploaded (issue 19), coalesced */
	EV_MEDIA_DL,		/* u.media_dl: a download of a message's
				 * media goes on or ended (CMD_MEDIA_GET,
				 * auto-download; issue 19) */
	EV_PROFILE,		/* u.profile: a contact's or group's about
				 * text and picture (CMD_PROFILE; issue 20) */
	EV_BLOCKLIST,		/* u.blocklist: the blocked contacts, whole
				 * (at login, after a change) */
	EV_MSG_INFO,		/* u.msg_info: the answer to CMD_MSG_INFO */
};
#define EV_KIND_MAX	EV_MSG_INFO

/* EV_CONNECTING */
struct ev_connecting {
	uint32_t	 attempt;	/* from 1 */
};

/* EV_QR */
struct ev_qr {
	char		*code;		/* the QR code's text */
	uint32_t	 secs;		/* seconds it is shown */
};

/* EV_PAIR_CODE */
struct ev_pair_code {
	char		*code;		/* as WhatsApp shows it, "XXXX-XXXX" */
};

/* EV_PAIRED, EV_CONNECTED, EV_OWN_NAME, EV_LINKED: our account. */
struct ev_account {
	char		*jid;		/* our PN AD-JID, "15550000001:4@..." */
	char		*number;	/* its user part: the phone number,
					 * digits (shown after a '+') */
	char		*name;		/* our push name as the server gave
					 * it (network text), "" while none
					 * is known */
};

/* EV_DISCONNECTED */
struct ev_disconnected {
	char		*why;		/* in words */
	int32_t		 err;		/* the code (base/err.h) */
	uint32_t	 retry_ms;	/* until the next attempt; 0: at once */
	bool		 idle;		/* no attempt until the user asks
					 * (CMD_RECONNECT): the QR codes ran
					 * out, or the server refused the
					 * login with no retry; retry_ms 0 */
};

/* EV_LOGGED_OUT, EV_STOPPED */
struct ev_end {
	char		*why;		/* in words; EV_STOPPED: "" when asked
					 * to quit */
	int32_t		 err;		/* 0 or the code that ended it */
};

/* EV_ERROR */
struct ev_error {
	char		*what;		/* what failed, in words */
	int32_t		 err;		/* the code (base/err.h); 0: what is
					 * information, said as it is (no
					 * "error:", no reason) */
	char		*chat;		/* the chat a group command was about,
					 * or "" */
	char		*unsent;	/* a CMD_SEND the engine could not
					 * store: its text, for chat's input
					 * line again (nothing typed is
					 * lost); else "" */
	char		*lasting;	/* a short warning that holds until
					 * quit (a damaged database), kept on
					 * the status line; "" for none */
};

/* EV_MESSAGE: a message was stored (ours as queued, or one received).
 * Group event lines (created, subject changed, added, removed, left,
 * promoted) come as notices. */
struct ev_message {
	struct ev_key	 key;
	char		*sender_name;	/* in a group: the author's contact or
					 * push name; "" unknown or ours */
	char		*text;
	char		*quoted_id;	/* a reply's quoted message, or "" */
	enum ev_state	 state;
	bool		 notice;	/* a line from wachat, not a person */
	int64_t		 ts_ms;
	enum ev_notice	 notice_kind;	/* notice: what it says */
	uint32_t	 notice_device;	/* EV_NOTICE_NOT_SENT: the device;
					 * EV_NOTICE_CALL_*: EV_CALL_* bits */
	struct ev_media	 media;		/* a media message's; type NONE else */
	bool		 rich;		/* text is a rich record (base/rich.h):
					 * a row of kind EV_ROW_RICH */
	uint32_t	 forwarded;	/* 0: not forwarded; else its
					 * forwardingScore (at least 1;
					 * protocol-features.md 3.7) */
};

/*
 * EV_UPLOAD: how the upload of our media message key stands: sent of
 * total bytes (total 0 before the file is sealed), done (the host has
 * it; the message then goes as any other), failed (the message is
 * FAILED: CMD_RETRY uploads it again).  Coalesced: a few a second.
 */
struct ev_upload {
	struct ev_key	 key;
	int64_t		 sent;
	int64_t		 total;
	bool		 done;
	bool		 failed;
};

/* EV_MSG_STATE: our message key moved to state. */
struct ev_msg_state {
	struct ev_key	 key;
	enum ev_state	 state;
};

/* EV_MSG_CHANGED: the message key now says text, or was deleted. */
struct ev_msg_changed {
	struct ev_key	 key;
	char		*text;		/* "" when deleted */
	bool		 deleted;	/* revoked for everyone */
	int64_t		 ts_ms;		/* of the change; 0 unknown */
	bool		 gone;		/* its disappearing-messages time
					 * was up: no longer stored (not
					 * shown any more); with deleted */
};

/*
 * EV_REACTION: sender reacted to the message target with emoji ("": took
 * it back).  When the store holds the target, counted is set, target's
 * sender and from_me are the stored ones, and tally[0..ntally) is every
 * reaction it now has (this one included), in the order they first came;
 * else counted is false, target has chat and id only, and ntally is 0.
 */
struct ev_reaction {
	struct ev_key	 target;
	char		*sender;	/* who reacted: user JID; "" us */
	bool		 from_me;	/* the reaction is ours */
	char		*emoji;
	int64_t		 ts_ms;
	bool		 counted;
	struct ev_tally	*tally;
	uint32_t	 ntally;
};

/* EV_TYPING */
struct ev_typing {
	char		*chat;
	char		*sender;	/* who types, or "" (the chat) */
	bool		 composing;	/* typing (true) or stopped */
};

/* EV_PRESENCE */
struct ev_presence {
	char		*chat;		/* a user JID */
	bool		 online;
	int64_t		 last_seen_ms;	/* 0 unknown */
};

/* EV_SEND_FAILED: our message key failed. */
struct ev_send_failed {
	struct ev_key	 key;
	char		*why;		/* in words */
	int32_t		 err;
};

/* One chat of EV_CHATS. */
struct ev_chat {
	char		*jid;
	char		*name;		/* contact, push or group name; "" */
	char		*preview;	/* the newest message's text, raw */
	int64_t		 last_ms;	/* 0: no message */
	uint32_t	 unread;
	bool		 muted;		/* muted when it was read */
	int64_t		 muted_until;	/* ms since 1970: muted until then;
					 * 0 not muted, -1 always (the
					 * screen counts an ended one as
					 * unmuted) */
	bool		 pinned;
	int64_t		 pinned_ms;	/* when pinned (newest pin first);
					 * 0 not pinned */
	bool		 archived;	/* in the archived folder, after the
					 * chats that are not */
	bool		 last_from_me;
	enum ev_state	 last_state;
	enum ev_row_kind last_kind;
	enum ev_media_type last_media;	/* EV_ROW_MEDIA: its type */
	bool		 last_deleted;
	char		*last_sender;	/* groups: the newest message's
					 * author's user JID; "" ours or 1:1 */
	char		*last_sender_name; /* groups: that author's name
					 * when not ours; "" */
	char		*draft;		/* the input line left unsent in
					 * it, as stored (CMD_DRAFT), raw
					 * (may hold newlines); "" none */
	int32_t		 peek;		/* read without read receipts
					 * (CMD_PEEK): 0 as the peek
					 * setting, 1 on, 2 off */
	bool		 marked_unread;	/* "mark as unread" (app state) */
	uint32_t	 ephemeral_s;	/* disappearing messages' timer,
					 * seconds (86400, 604800,
					 * 7776000); 0 off */
};

/* A person the address book or a push name knows who has no chat yet
 * (EV_CHATS people, for the chat picker). */
struct ev_person {
	char		*jid;		/* user JID, PN or LID */
	char		*name;		/* address-book name, else push
					 * name; raw, "" none */
	char		*push_name;	/* push name, raw, "" none */
};

/*
 * EV_CHATS: the chat list, in list order: the chats not archived
 * (pinned first, newest pin first, then by last message), then the
 * archived ones in the same order.  With people (CMD_LOAD_CHATS asked
 * for them), the people known who have no chat.
 */
struct ev_chats {
	struct ev_chat	*chats;
	uint32_t	 nchats;
	bool		 more;		/* more chats than these */
	bool		 with_people;	/* people below answers the ask */
	struct ev_person *people;	/* by name */
	uint32_t	 npeople;
};

/* One message of EV_PAGE. */
struct ev_msg {
	int64_t		 rowid;		/* its cursor is (ts_ms, rowid) */
	char		*id;
	char		*sender;	/* "" ours or 1:1 */
	char		*sender_name;	/* groups: the author's contact or
					 * push name; "" unknown or ours */
	bool		 from_me;
	int64_t		 ts_ms;
	enum ev_row_kind kind;
	char		*text;		/* raw network text */
	char		*quoted_id;	/* "" not a reply */
	char		*quoted_sender;
	char		*quoted_text;
	enum ev_state	 state;
	int64_t		 edited_ms;	/* 0: never edited */
	bool		 deleted;
	bool		 starred;	/* starred (app state, 2.1) */
	struct ev_tally	*reactions;	/* in the order they first came */
	uint32_t	 nreactions;
	enum ev_notice	 notice_kind;	/* EV_ROW_NOTICE: what it says */
	uint32_t	 notice_device;	/* EV_NOTICE_NOT_SENT: the device;
					 * EV_NOTICE_CALL_*: EV_CALL_* bits */
	struct ev_media	 media;		/* EV_ROW_MEDIA: its media */
	uint32_t	 forwarded;	/* as ev_message's */
};

/*
 * EV_PAGE: rows of chat, oldest first, answering CMD_LOAD_PAGE's dir.
 * more_before: older rows exist (looked at for NEWEST, BEFORE, AROUND);
 * more_after: newer rows exist (looked at for AFTER and AROUND; false
 * otherwise).
 */
struct ev_page {
	char		*chat;
	enum ev_page_dir dir;
	bool		 more_before;
	bool		 more_after;
	struct ev_msg	*msgs;
	uint32_t	 nmsgs;
};

/* One member of EV_GROUP. */
struct ev_member {
	char		*jid;		/* user JID (PN when known, else LID) */
	char		*alt;		/* the other one (the LID), or "" */
	char		*name;		/* contact or push name; "" unknown */
	enum ev_role	 role;
	bool		 is_me;
};

/* EV_GROUP */
struct ev_group {
	char		*jid;		/* "...@g.us" */
	char		*subject;
	char		*description;	/* "" none */
	bool		 left;		/* we are no longer a member */
	struct ev_member *members;
	uint32_t	 nmembers;
};

/* One hit of EV_SEARCH. */
struct ev_hit {
	int64_t		 rowid;		/* open it with EV_PAGE_AROUND */
	char		*chat;
	char		*chat_name;	/* "" unknown */
	char		*id;
	char		*sender;	/* group author's user JID, or "" */
	char		*sender_name;	/* "" unknown or ours */
	bool		 from_me;
	int64_t		 ts_ms;
	char		*snippet;	/* text around the first match, raw */
	uint32_t	 match_start;	/* snippet[match_start..match_end) is
					 * the first matched word (bytes) */
	uint32_t	 match_end;
	bool		 cut_before;	/* text left out before the snippet */
	bool		 cut_after;	/* and after it */
};

/* EV_SEARCH */
struct ev_search {
	char		*query;		/* CMD_SEARCH's query, as asked */
	struct ev_hit	*hits;		/* newest first */
	uint32_t	 nhits;
	bool		 more;		/* more matches than these */
};

/* What EV_HISTORY says. */
enum ev_history_step {
	EV_HISTORY_CHUNK,	/* a chunk was imported */
	EV_HISTORY_REFUSED,	/* a chunk was refused: why, err */
	EV_HISTORY_IDLE,	/* all taken: the queue is empty */
};

/* EV_HISTORY (proto/hsync.h) */
struct ev_history {
	enum ev_history_step step;
	uint32_t	 progress;	/* CHUNK: the phone's progress, % */
	uint32_t	 stored;	/* CHUNK: messages stored */
	char		*why;		/* REFUSED: in words; else "" */
	int32_t		 err;		/* REFUSED: the code */
};

/* What the user does to a chat from wachat (CMD_CHAT_ACT), synced to
 * the phone and the other companions as app state
 * (protocol-features.md 2.1, 2.7). */
enum ev_chat_act {
	EV_ACT_NONE,
	EV_ACT_MUTE,		/* until mute_until (ms; -1 always) */
	EV_ACT_UNMUTE,
	EV_ACT_PIN,
	EV_ACT_UNPIN,
	EV_ACT_ARCHIVE,
	EV_ACT_UNARCHIVE,
	EV_ACT_MARK_READ,
	EV_ACT_MARK_UNREAD,
	EV_ACT_STAR,		/* the message (id, from_me, sender) */
	EV_ACT_UNSTAR,
	EV_ACT_DELETE_CHAT,	/* its messages and the chat, here and on
				 * the phone */
	EV_ACT_CLEAR_CHAT,	/* its messages but the starred ones */
};
#define EV_ACT_MAX	EV_ACT_CLEAR_CHAT

/* Where an EV_APP_STATE stands. */
enum ev_as_step {
	EV_AS_CHANGED,		/* patches were committed: actions, names,
				 * chats say what */
	EV_AS_QUEUED,		/* act is kept in the outbox while offline:
				 * sent once connected */
	EV_AS_SENDING,		/* act went to the server */
	EV_AS_SENT,		/* the server took act: it is done (a
				 * CHANGED with chats came before) */
	EV_AS_FAILED,		/* act was not taken (err: > 0 the server's
				 * code, < 0 ours): kept in the outbox, sent
				 * again at the next login */
	EV_AS_NO_KEY,		/* changes wait: app state is not synced
				 * yet (no key from the phone) */
};
#define EV_AS_STEP_MAX	EV_AS_NO_KEY

/* EV_APP_STATE (proto/appsync.h): what a batch of committed patches
 * changed (the chat list and the names are to be read again), or how a
 * change of ours goes (step). */
struct ev_app_state {
	uint32_t	 actions;	/* actions committed */
	bool		 names;		/* contact or push names */
	bool		 chats;		/* mute, pin, archive, read, deletes */
	enum ev_as_step	 step;
	enum ev_chat_act act;		/* QUEUED .. FAILED: ours; else NONE */
	int32_t		 err;		/* FAILED */
};

/* EV_MEDIA_DL: the download of message (chat, id)'s media.  state
 * EV_DL_DOWNLOADING while it goes (got of total bytes, total 0 unknown;
 * at most a few a second), then once its end: DONE (path), CORRUPT,
 * LENGTH, EXPIRED, TOOBIG, FAILED (err says why), NO_MEDIA. */
struct ev_media_dl {
	char		*chat;
	char		*id;
	bool		 from_me;
	enum ev_dl_state state;
	int64_t		 got;		/* bytes */
	int64_t		 total;		/* bytes; 0 unknown */
	uint32_t	 percent;	/* DOWNLOADING: 0..100 */
	char		*path;		/* DONE: the file */
	int32_t		 err;		/* FAILED: the code */
	bool		 retried;	/* the phone uploaded it again (1.8) */
};

/* Where a profile picture stands (EV_PROFILE). */
enum ev_pic_state {
	EV_PIC_ASKING,		/* not known yet */
	EV_PIC_SHOWN,		/* pic holds it */
	EV_PIC_NONE,		/* none set (404, status 204) */
	EV_PIC_HIDDEN,		/* hidden by the contact's privacy (401) */
	EV_PIC_FAILED,		/* the query or the download failed */
};
#define EV_PIC_MAX	EV_PIC_FAILED

/*
 * EV_PROFILE: what the server says of jid (a user or group JID) when its
 * info is opened (protocol-features.md 4.1, 4.2).  Sent once the answers
 * are in, and again when the picture is downloaded.  about is raw
 * network text ("" none or hidden: about_known false); pic the preview
 * picture's JPEG bytes in lowercase hex (base/hex.h), at most 2 * 64
 * KiB, "" unless pic_state is EV_PIC_SHOWN; pic_id the server's id of it.
 */
struct ev_profile {
	char		*jid;
	bool		 about_known;
	char		*about;
	int64_t		 about_ms;	/* when it was set; 0 unknown */
	enum ev_pic_state pic_state;
	char		*pic_id;
	char		*pic;
};

/* EV_BLOCKLIST: every blocked contact (user JIDs, as the server names
 * them: a LID or a PN), after the login's query or a change (ours or a
 * notification, protocol.md 15.5). */
struct ev_blocklist {
	char		**jids;
	uint32_t	 njids;
};

/* One recipient of EV_MSG_INFO: when its devices said our message was
 * delivered and read (protocol.md 9.6 receipts), 0 not yet. */
struct ev_rcpt {
	char		*jid;		/* user JID (a group member's PN when
					 * known) */
	char		*name;		/* contact or push name; "" unknown */
	int64_t		 delivered_ms;
	int64_t		 read_ms;
};

/* EV_MSG_INFO: our message (chat, id), sent at ts_ms (0 not yet), and
 * its recipients: the contact of a 1:1 chat, every member (but us) of
 * a group, in the store's order of members. */
struct ev_msg_info {
	char		*chat;
	char		*id;
	int64_t		 ts_ms;
	struct ev_rcpt	*rcpts;
	uint32_t	 nrcpts;
};

/* One event.  Owns its payload. */
struct ev {
	enum ev_kind	 kind;
	union {
		struct ev_connecting	 connecting;
		struct ev_qr		 qr;
		struct ev_pair_code	 pair_code;
		struct ev_account	 paired;
		struct ev_account	 connected;
		struct ev_disconnected	 disconnected;
		struct ev_end		 logged_out;
		struct ev_error		 error;
		struct ev_end		 stopped;
		struct ev_message	 message;
		struct ev_msg_state	 msg_state;
		struct ev_msg_changed	 msg_changed;
		struct ev_reaction	 reaction;
		struct ev_typing	 typing;
		struct ev_presence	 presence;
		struct ev_send_failed	 send_failed;
		struct ev_chats		 chats;
		struct ev_page		 page;
		struct ev_group		 group;
		struct ev_search	 search;
		struct ev_history	 history;
		struct ev_account	 own_name;
		struct ev_account	 linked;
		struct ev_app_state	 app_state;
		struct ev_upload	 upload;
		struct ev_media_dl	 media_dl;
		struct ev_profile	 profile;
		struct ev_blocklist	 blocklist;
		struct ev_msg_info	 msg_info;
	} u;
};

/*
 * A new event of kind: every string of its payload "" (owned), every
 * number 0, every array empty.  Returns the event, freed with ev_free().
 * Aborts on out-of-memory, and on a kind above EV_KIND_MAX.
 */
struct ev	*ev_new(enum ev_kind kind);

/* Free ev with its payload.  NULL is a no-op. */
void		 ev_free(struct ev *ev);

/* The name of kind for logs ("EV_MESSAGE"); "?" for an unknown one. */
const char	*ev_kind_name(enum ev_kind kind);


/* ---- commands: what the UI asks of the engine ---- */

enum cmd_kind {
	CMD_QUIT,		/* stop: close the connection and the store,
				 * then send EV_STOPPED; no payload */
	CMD_PAIR_CODE,		/* u.pair_code: link by phone-number code
				 * instead of QR; EV_PAIR_CODE answers */
	/* Messaging.  A failure answers with EV_ERROR. */
	CMD_SEND,		/* u.send */
	CMD_REACT,		/* u.react */
	CMD_MARK_READ,		/* u.mark_read: the user read chat */
	CMD_TYPING,		/* u.typing */
	CMD_SUBSCRIBE,		/* u.subscribe: ask for chat's presence */
	CMD_RETRY,		/* u.retry: send our failed message again */
	CMD_DELETE,		/* u.del: delete our failed message */
	CMD_EDIT,		/* u.edit: our message now says text (the UI
				 * keeps the 15 minutes) */
	CMD_REVOKE,		/* u.revoke: delete our message for everyone
				 * (the UI keeps the two days) */
	CMD_LOAD_CHATS,		/* u.load_chats: EV_CHATS answers */
	CMD_LOAD_PAGE,		/* u.load_page: EV_PAGE answers */
	/* Groups (issue 8).  Failures answer with EV_ERROR (what = why);
	 * success with EV_GROUP and the event lines. */
	CMD_GROUP_CREATE,	/* u.group_create */
	CMD_GROUP_SUBJECT,	/* u.group_subject */
	CMD_GROUP_ADD,		/* u.group_add */
	CMD_GROUP_REMOVE,	/* u.group_remove */
	CMD_GROUP_LEAVE,	/* u.group_leave */
	CMD_GROUP_INFO,		/* u.group_info: EV_GROUP, as stored, then
				 * fresh from the server when online */
	/* History (issue 9). */
	CMD_SEARCH,		/* u.search: EV_SEARCH answers */
	CMD_HISTORY_MORE,	/* u.history_more: the user scrolled above
				 * chat's oldest stored message: ask the
				 * phone for older ones (on-demand history,
				 * protocol.md 12.4); they come as
				 * EV_HISTORY */
	CMD_RECONNECT,		/* start again after an EV_DISCONNECTED with
				 * idle set (new QR codes, or a new login);
				 * no payload */
	CMD_DRAFT,		/* u.draft: keep chat's unsent input line
				 * in the store (EV_CHATS gives it back);
				 * a failure answers with EV_ERROR */
	CMD_PEEK,		/* u.peek: chat's peek mode on or off, in
				 * the store (EV_CHATS gives it back); a
				 * failure answers with EV_ERROR */
	CMD_CHAT_ACT,		/* u.chat_act: mute, pin, archive, ... a
				 * chat (or star a message) for every
				 * device of the account: EV_APP_STATE
				 * says how it goes */
	CMD_SEND_FILE,		/* u.send_file: a file as a media message
				 * (issue 19): shown at once, uploaded, then
				 * sent; EV_UPLOAD says how it goes, a
				 * refusal is EV_ERROR */
	CMD_MEDIA_GET,		/* u.media_get: download a message's media
				 * (issue 19); EV_MEDIA_DL says how it
				 * goes */
	CMD_FORWARD,		/* u.forward: a message forwarded to other
				 * chats (issue 20); each copy is shown
				 * (EV_MESSAGE) and goes through the
				 * outbox, a refusal is EV_ERROR */
	CMD_EPHEMERAL,		/* u.ephemeral: chat's disappearing
				 * messages' timer (issue 20): a 1:1
				 * chat's sent as a message, a group's
				 * asked of the server; the event line
				 * and EV_CHATS say it took, a failure
				 * is EV_ERROR */
	CMD_CALL_REJECT,	/* u.call_reject: decline the call that
				 * rings (issue 20): chat is the call's
				 * chat, id its EV_NOTICE_CALL_IN line's
				 * id; its EV_NOTICE_CALL_REJECTED line
				 * answers, a failure EV_ERROR */
	CMD_PROFILE,		/* u.profile: ask for chat's about text and
				 * picture (issue 20); EV_PROFILE answers */
	CMD_BLOCK,		/* u.block: block or unblock a contact;
				 * EV_BLOCKLIST answers, a refusal EV_ERROR */
	CMD_POLL_VOTE,		/* u.poll_vote: vote on a poll (issue 20):
				 * the tally changes at once
				 * (EV_MSG_CHANGED), a refusal is
				 * EV_ERROR */
	CMD_POLL_NEW,		/* u.poll_new: send a poll (issue 20): shown
				 * as EV_MESSAGE, a refusal is EV_ERROR */
	CMD_MSG_INFO,		/* u.msg_info: our message's receipts per
				 * recipient (issue 20); EV_MSG_INFO
				 * answers */
};
#define CMD_KIND_MAX	CMD_MSG_INFO

/* Every command about one chat and nothing else (CMD_MARK_READ,
 * CMD_SUBSCRIBE, CMD_GROUP_LEAVE, CMD_GROUP_INFO, CMD_HISTORY_MORE). */
struct cmd_chat {
	char		*chat;		/* a user or group JID */
};

/* CMD_RETRY, CMD_DELETE, CMD_REVOKE: our message (chat, id);
 * CMD_CALL_REJECT: the ringing call's line (chat, id). */
struct cmd_msg {
	char		*chat;
	char		*id;
};

/* CMD_PAIR_CODE */
struct cmd_pair_code {
	char		*phone;		/* digits, country code first */
};

/* CMD_SEND: text to chat, a reply when quoted_id is not "". */
struct cmd_send {
	char		*chat;
	char		*text;
	char		*quoted_id;	/* "" not a reply */
	char		*quoted_sender;	/* the quoted author's user JID;
					 * "" ours */
	char		*quoted_text;	/* the quoted text shown (may be "") */
};

/* CMD_SEND_FILE: the file path to chat, with caption ("" none), a
 * reply when quoted_id is not "", as a voice note when ptt (an Ogg Opus
 * file only). */
struct cmd_send_file {
	char		*chat;
	char		*path;		/* absolute or from wachat's cwd */
	char		*caption;
	char		*quoted_id;	/* "" not a reply */
	char		*quoted_sender;	/* as CMD_SEND's */
	char		*quoted_text;
	bool		 ptt;
};

/* CMD_REACT: emoji ("" takes ours back) on message (chat, id). */
struct cmd_react {
	char		*chat;
	char		*id;
	bool		 target_from_me; /* the message is ours */
	char		*emoji;
};

/* CMD_TYPING */
struct cmd_typing {
	char		*chat;
	bool		 composing;	/* typing (true) or stopped */
};

/* CMD_EDIT */
struct cmd_edit {
	char		*chat;
	char		*id;
	char		*text;
};

/* CMD_LOAD_CHATS */
struct cmd_load_chats {
	uint32_t	 max;		/* chats at most; 0: the engine's cap */
	bool		 people;	/* also the people known who have no
					 * chat (EV_CHATS people) */
};

/*
 * CMD_LOAD_PAGE: up to max rows of chat (0: 50): the newest, the oldest,
 * the rows before or after the cursor from, around the message of rowid
 * (max / 2 each side), from the first of the last unread incoming
 * messages (EV_PAGE_UNREAD: the newest page when that one is in it), or
 * from the first on or after from.ts_ms (EV_PAGE_FROM).  The EV_PAGE of
 * EV_PAGE_UNREAD and EV_PAGE_FROM says more_before and more_after.
 */
struct cmd_load_page {
	char		*chat;
	enum ev_page_dir dir;
	struct ev_cursor from;		/* EV_PAGE_BEFORE, EV_PAGE_AFTER;
					 * EV_PAGE_FROM: from.ts_ms */
	int64_t		 rowid;		/* EV_PAGE_AROUND */
	uint32_t	 max;
	uint32_t	 unread;	/* EV_PAGE_UNREAD: the chat's unread
					 * count (>= 1) */
};

/*
 * CMD_GROUP_CREATE: a group named subject with members[0..nmembers)
 * (each a user JID or a phone number as people write it; may be none).
 */
struct cmd_group_create {
	char		*subject;
	char		**members;
	uint32_t	 nmembers;
};

/* CMD_GROUP_SUBJECT */
struct cmd_group_subject {
	char		*chat;		/* the group */
	char		*subject;
};

/* CMD_GROUP_ADD, CMD_GROUP_REMOVE: members as for CMD_GROUP_CREATE, at
 * least one. */
struct cmd_group_members {
	char		*chat;		/* the group */
	char		**members;
	uint32_t	 nmembers;
};

/*
 * CMD_SEARCH: the messages matching query (words, each a prefix), in chat
 * ("" all chats), by sender when by_sender (a user JID, "" our own), in
 * [since_ms, until_ms] (0: open), at most max hits (0: 50).
 */
struct cmd_search {
	char		*query;
	char		*chat;
	bool		 by_sender;
	char		*sender;
	int64_t		 since_ms;
	int64_t		 until_ms;
	uint32_t	 max;
	bool		 starred;	/* only starred messages (is:starred);
					 * with it query may have no word */
};

/* CMD_DRAFT: text (UTF-8, at most CMD_DRAFT_MAX bytes) is what is left
 * typed in chat's input line; "" clears chat's draft. */
#define CMD_DRAFT_MAX	65536
struct cmd_draft {
	char		*chat;
	char		*text;
};

/* CMD_PEEK: chat read without read receipts (on), or as before. */
struct cmd_peek {
	char		*chat;
	bool		 on;
};

/* CMD_CHAT_ACT: act on chat (a user or group JID). */
struct cmd_chat_act {
	char		*chat;
	enum ev_chat_act act;
	int64_t		 mute_until;	/* MUTE: ms since 1970; -1 always */
	char		*id;		/* STAR, UNSTAR: the message */
	bool		 from_me;	/* ... ours */
	char		*sender;	/* ... its author in a group, a user
					 * JID; "" ours or in a 1:1 chat */
	int64_t		 last_ms;	/* ARCHIVE .. CLEAR_CHAT: the time of
					 * the chat's newest message as the
					 * screen has it (ms; 0 none): the
					 * messages the change covers */
};

/* CMD_MEDIA_GET: the media of message id in chat, into out (a file that
 * exists there is not replaced), or "" a free name in download-dir. */
struct cmd_media_get {
	char		*chat;
	char		*id;
	char		*out;
};

/* CMD_FORWARD: message (chat, from_me, id) to each of targets[0..
 * ntargets) (user or group JIDs, at most CMD_FORWARD_MAX). */
#define CMD_FORWARD_MAX	64
struct cmd_forward {
	char		*chat;
	char		*id;
	bool		 from_me;
	char		**targets;
	uint32_t	 ntargets;
};

/* CMD_EPHEMERAL: chat's timer, secs (0 off; 86400, 604800 or 7776000
 * on: WhatsApp's apps offer no other; protocol-features.md 3.5). */
struct cmd_ephemeral {
	char		*chat;
	uint32_t	 secs;
};

/* CMD_BLOCK: block chat (a user JID) when block, else unblock it. */
struct cmd_block {
	char		*chat;
	bool		 block;
};

/* CMD_POLL_VOTE: our vote on poll id of chat: picks, the options' numbers
 * (from 1) separated by ',' ("" takes our vote back). */
struct cmd_poll_vote {
	char		*chat;
	char		*id;
	char		*picks;
};

/* CMD_POLL_NEW: a poll to chat: its question and options (2 to 12, each
 * ended by '\n'); multi: any number of them may be chosen, else one. */
struct cmd_poll_new {
	char		*chat;
	char		*question;
	char		*options;
	bool		 multi;
};

/* One command.  Owns its payload. */
struct cmd {
	enum cmd_kind	 kind;
	union {
		struct cmd_pair_code	 pair_code;
		struct cmd_send		 send;
		struct cmd_react	 react;
		struct cmd_chat		 mark_read;
		struct cmd_typing	 typing;
		struct cmd_chat		 subscribe;
		struct cmd_msg		 retry;
		struct cmd_msg		 del;
		struct cmd_edit		 edit;
		struct cmd_msg		 revoke;
		struct cmd_load_chats	 load_chats;
		struct cmd_load_page	 load_page;
		struct cmd_group_create	 group_create;
		struct cmd_group_subject group_subject;
		struct cmd_group_members group_add;
		struct cmd_group_members group_remove;
		struct cmd_chat		 group_leave;
		struct cmd_chat		 group_info;
		struct cmd_search	 search;
		struct cmd_chat		 history_more;
		struct cmd_draft	 draft;
		struct cmd_peek		 peek;
		struct cmd_chat_act	 chat_act;
		struct cmd_send_file	 send_file;
		struct cmd_media_get	 media_get;
		struct cmd_forward	 forward;
		struct cmd_ephemeral	 ephemeral;
		struct cmd_msg		 call_reject;
		struct cmd_chat		 profile;
		struct cmd_block	 block;
		struct cmd_poll_vote	 poll_vote;
		struct cmd_poll_new	 poll_new;
		struct cmd_msg		 msg_info;
	} u;
};

/*
 * A new command of kind: every string of its payload "" (owned), every
 * number 0, every array empty.  Returns it, freed with cmd_free().
 * Aborts on out-of-memory, and on a kind above CMD_KIND_MAX.
 */
struct cmd	*cmd_new(enum cmd_kind kind);

/*
 * cmd_new(kind) with its chat set to a copy of chat (NULL means ""), for
 * the kinds whose payload names a chat (every kind but CMD_QUIT,
 * CMD_PAIR_CODE, CMD_LOAD_CHATS, CMD_GROUP_CREATE and CMD_RECONNECT; for
 * those chat is
 * ignored).  Aborts on out-of-memory.
 */
struct cmd	*cmd_new_chat(enum cmd_kind kind, const char *chat);

/* Free c with its payload.  NULL is a no-op. */
void		 cmd_free(struct cmd *c);

/* The name of kind for logs ("CMD_SEND"); "?" for an unknown one. */
const char	*cmd_kind_name(enum cmd_kind kind);


/* ---- building payloads ---- */

/*
 * Replace the owned string *slot (NULL or a string of a payload) by a
 * copy of s (NULL means "").  Aborts on out-of-memory.
 */
void		 ev_set(char **slot, const char *s);

/*
 * Replace *slot by a copy of s[0..len) (bytes, NUL-terminated after them;
 * s may hold no NUL).  Aborts on out-of-memory.
 */
void		 ev_set_len(char **slot, const char *s, size_t len);

/* Append a copy of s (NULL means "") to the owned string array *v of *n
 * strings.  Aborts on out-of-memory. */
void		 ev_push_str(char ***v, uint32_t *n, const char *s);

#endif
