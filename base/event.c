/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/event.c -- the events and commands of base/event.h: the layout
 * tables of their payloads (base/event-layout.h), and making and freeing
 * them by those tables.  libc only; callable from any thread.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/event-layout.h"
#include "base/event.h"
#include "base/xmalloc.h"

/* The enums are read and written as ints by the walks. */
_Static_assert(sizeof(enum ev_page_dir) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ev_state) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ev_row_kind) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ev_role) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ev_history_step) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ev_media_type) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ev_dl_state) == sizeof(int), "enum size");
_Static_assert(sizeof(enum ev_pic_state) == sizeof(int), "enum size");

/*
 * One row of a layout table.  TYPED(T, m, type) is offsetof(T, m), and
 * fails to compile unless member m of T has that type (a generic
 * selection with no other association).
 */
#define TYPED(T, m, type)						\
	(offsetof(T, m) + _Generic(((T *)0)->m, type: 0))
#define F_BOOL(T, m)	{ EV_F_BOOL, #m, TYPED(T, m, bool), 0, 0, NULL }
#define F_I32(T, m)	{ EV_F_I32, #m, TYPED(T, m, int32_t), 0, 0, NULL }
#define F_U32(T, m)	{ EV_F_U32, #m, TYPED(T, m, uint32_t), 0, 0, NULL }
#define F_I64(T, m)	{ EV_F_I64, #m, TYPED(T, m, int64_t), 0, 0, NULL }
#define F_STR(T, m)	{ EV_F_STR, #m, TYPED(T, m, char *), 0, 0, NULL }
#define F_ENUM(T, m, E, max)						\
	{ EV_F_ENUM, #m, TYPED(T, m, enum E), 0, max, NULL }
#define F_STRUCT(T, m, S)						\
	{ EV_F_STRUCT, #m, TYPED(T, m, struct S), 0, 0, &L_##S }
#define F_ARRAY(T, m, n, S)						\
	{ EV_F_ARRAY, #m, TYPED(T, m, struct S *),			\
	    TYPED(T, n, uint32_t), 0, &L_##S }
#define F_STRV(T, m, n)							\
	{ EV_F_ARRAY, #m, TYPED(T, m, char **),				\
	    TYPED(T, n, uint32_t), 0, &L_strv }

#define LAYOUT(S, ...)							\
	static const struct ev_field F_##S[] = { __VA_ARGS__ };		\
	static const struct ev_layout L_##S = { #S, sizeof(struct S),	\
	    F_##S, sizeof(F_##S) / sizeof(F_##S[0]) }

/* An element of a string array (char **): the string alone. */
static const struct ev_field F_strv[] = {
	{ EV_F_STR, "", 0, 0, 0, NULL },
};
static const struct ev_layout L_strv = { "char *", sizeof(char *), F_strv,
    1 };

/* No payload (CMD_QUIT). */
static const struct ev_layout L_none = { "none", 0, NULL, 0 };

/* ---- the shared pieces ---- */

LAYOUT(ev_key,
	F_STR(struct ev_key, chat),
	F_STR(struct ev_key, id),
	F_STR(struct ev_key, sender),
	F_BOOL(struct ev_key, from_me));
LAYOUT(ev_cursor,
	F_I64(struct ev_cursor, ts_ms),
	F_I64(struct ev_cursor, rowid));
LAYOUT(ev_reactor,
	F_STR(struct ev_reactor, sender),
	F_STR(struct ev_reactor, name));
LAYOUT(ev_tally,
	F_STR(struct ev_tally, emoji),
	F_U32(struct ev_tally, count),
	F_ARRAY(struct ev_tally, who, nwho, ev_reactor));

/* ---- events ---- */

LAYOUT(ev_connecting,
	F_U32(struct ev_connecting, attempt));
LAYOUT(ev_qr,
	F_STR(struct ev_qr, code),
	F_U32(struct ev_qr, secs));
LAYOUT(ev_pair_code,
	F_STR(struct ev_pair_code, code));
LAYOUT(ev_account,
	F_STR(struct ev_account, jid),
	F_STR(struct ev_account, number),
	F_STR(struct ev_account, name));
LAYOUT(ev_disconnected,
	F_STR(struct ev_disconnected, why),
	F_I32(struct ev_disconnected, err),
	F_U32(struct ev_disconnected, retry_ms),
	F_BOOL(struct ev_disconnected, idle));
LAYOUT(ev_end,
	F_STR(struct ev_end, why),
	F_I32(struct ev_end, err));
LAYOUT(ev_error,
	F_STR(struct ev_error, what),
	F_I32(struct ev_error, err),
	F_STR(struct ev_error, chat),
	F_STR(struct ev_error, unsent),
	F_STR(struct ev_error, lasting));
LAYOUT(ev_media,
	F_ENUM(struct ev_media, type, ev_media_type, EV_MEDIA_STICKER),
	F_BOOL(struct ev_media, animated),
	F_I64(struct ev_media, size),
	F_U32(struct ev_media, width),
	F_U32(struct ev_media, height),
	F_U32(struct ev_media, seconds),
	F_U32(struct ev_media, pages),
	F_STR(struct ev_media, mimetype),
	F_STR(struct ev_media, file_name),
	F_STR(struct ev_media, caption),
	F_ENUM(struct ev_media, dl_state, ev_dl_state, EV_DL_MAX),
	F_U32(struct ev_media, dl_percent),
	F_STR(struct ev_media, path),
	F_STR(struct ev_media, thumb));
LAYOUT(ev_message,
	F_STRUCT(struct ev_message, key, ev_key),
	F_STR(struct ev_message, sender_name),
	F_STR(struct ev_message, text),
	F_STR(struct ev_message, quoted_id),
	F_ENUM(struct ev_message, state, ev_state, EV_STATE_FAILED),
	F_BOOL(struct ev_message, notice),
	F_I64(struct ev_message, ts_ms),
	F_ENUM(struct ev_message, notice_kind, ev_notice, EV_NOTICE_MAX),
	F_U32(struct ev_message, notice_device),
	F_STRUCT(struct ev_message, media, ev_media),
	F_BOOL(struct ev_message, rich),
	F_U32(struct ev_message, forwarded));
LAYOUT(ev_msg_state,
	F_STRUCT(struct ev_msg_state, key, ev_key),
	F_ENUM(struct ev_msg_state, state, ev_state, EV_STATE_FAILED));
LAYOUT(ev_msg_changed,
	F_STRUCT(struct ev_msg_changed, key, ev_key),
	F_STR(struct ev_msg_changed, text),
	F_BOOL(struct ev_msg_changed, deleted),
	F_I64(struct ev_msg_changed, ts_ms),
	F_BOOL(struct ev_msg_changed, gone));
LAYOUT(ev_reaction,
	F_STRUCT(struct ev_reaction, target, ev_key),
	F_STR(struct ev_reaction, sender),
	F_BOOL(struct ev_reaction, from_me),
	F_STR(struct ev_reaction, emoji),
	F_I64(struct ev_reaction, ts_ms),
	F_BOOL(struct ev_reaction, counted),
	F_ARRAY(struct ev_reaction, tally, ntally, ev_tally));
LAYOUT(ev_typing,
	F_STR(struct ev_typing, chat),
	F_STR(struct ev_typing, sender),
	F_BOOL(struct ev_typing, composing));
LAYOUT(ev_presence,
	F_STR(struct ev_presence, chat),
	F_BOOL(struct ev_presence, online),
	F_I64(struct ev_presence, last_seen_ms));
LAYOUT(ev_send_failed,
	F_STRUCT(struct ev_send_failed, key, ev_key),
	F_STR(struct ev_send_failed, why),
	F_I32(struct ev_send_failed, err));
LAYOUT(ev_chat,
	F_STR(struct ev_chat, jid),
	F_STR(struct ev_chat, name),
	F_STR(struct ev_chat, preview),
	F_I64(struct ev_chat, last_ms),
	F_U32(struct ev_chat, unread),
	F_BOOL(struct ev_chat, muted),
	F_I64(struct ev_chat, muted_until),
	F_BOOL(struct ev_chat, pinned),
	F_I64(struct ev_chat, pinned_ms),
	F_BOOL(struct ev_chat, archived),
	F_BOOL(struct ev_chat, last_from_me),
	F_ENUM(struct ev_chat, last_state, ev_state, EV_STATE_FAILED),
	F_ENUM(struct ev_chat, last_kind, ev_row_kind, EV_ROW_RICH),
	F_ENUM(struct ev_chat, last_media, ev_media_type, EV_MEDIA_STICKER),
	F_BOOL(struct ev_chat, last_deleted),
	F_STR(struct ev_chat, last_sender),
	F_STR(struct ev_chat, last_sender_name),
	F_STR(struct ev_chat, draft),
	F_I32(struct ev_chat, peek),
	F_BOOL(struct ev_chat, marked_unread),
	F_U32(struct ev_chat, ephemeral_s));
LAYOUT(ev_person,
	F_STR(struct ev_person, jid),
	F_STR(struct ev_person, name),
	F_STR(struct ev_person, push_name));
LAYOUT(ev_chats,
	F_ARRAY(struct ev_chats, chats, nchats, ev_chat),
	F_BOOL(struct ev_chats, more),
	F_BOOL(struct ev_chats, with_people),
	F_ARRAY(struct ev_chats, people, npeople, ev_person));
LAYOUT(ev_msg,
	F_I64(struct ev_msg, rowid),
	F_STR(struct ev_msg, id),
	F_STR(struct ev_msg, sender),
	F_STR(struct ev_msg, sender_name),
	F_BOOL(struct ev_msg, from_me),
	F_I64(struct ev_msg, ts_ms),
	F_ENUM(struct ev_msg, kind, ev_row_kind, EV_ROW_RICH),
	F_STR(struct ev_msg, text),
	F_STR(struct ev_msg, quoted_id),
	F_STR(struct ev_msg, quoted_sender),
	F_STR(struct ev_msg, quoted_text),
	F_ENUM(struct ev_msg, state, ev_state, EV_STATE_FAILED),
	F_I64(struct ev_msg, edited_ms),
	F_BOOL(struct ev_msg, deleted),
	F_BOOL(struct ev_msg, starred),
	F_ARRAY(struct ev_msg, reactions, nreactions, ev_tally),
	F_ENUM(struct ev_msg, notice_kind, ev_notice, EV_NOTICE_MAX),
	F_U32(struct ev_msg, notice_device),
	F_STRUCT(struct ev_msg, media, ev_media),
	F_U32(struct ev_msg, forwarded));
LAYOUT(ev_page,
	F_STR(struct ev_page, chat),
	F_ENUM(struct ev_page, dir, ev_page_dir, EV_PAGE_FROM),
	F_BOOL(struct ev_page, more_before),
	F_BOOL(struct ev_page, more_after),
	F_ARRAY(struct ev_page, msgs, nmsgs, ev_msg));
LAYOUT(ev_member,
	F_STR(struct ev_member, jid),
	F_STR(struct ev_member, alt),
	F_STR(struct ev_member, name),
	F_ENUM(struct ev_member, role, ev_role, EV_ROLE_CREATOR),
	F_BOOL(struct ev_member, is_me));
LAYOUT(ev_group,
	F_STR(struct ev_group, jid),
	F_STR(struct ev_group, subject),
	F_STR(struct ev_group, description),
	F_BOOL(struct ev_group, left),
	F_ARRAY(struct ev_group, members, nmembers, ev_member));
LAYOUT(ev_hit,
	F_I64(struct ev_hit, rowid),
	F_STR(struct ev_hit, chat),
	F_STR(struct ev_hit, chat_name),
	F_STR(struct ev_hit, id),
	F_STR(struct ev_hit, sender),
	F_STR(struct ev_hit, sender_name),
	F_BOOL(struct ev_hit, from_me),
	F_I64(struct ev_hit, ts_ms),
	F_STR(struct ev_hit, snippet),
	F_U32(struct ev_hit, match_start),
	F_U32(struct ev_hit, match_end),
	F_BOOL(struct ev_hit, cut_before),
	F_BOOL(struct ev_hit, cut_after));
LAYOUT(ev_search,
	F_STR(struct ev_search, query),
	F_ARRAY(struct ev_search, hits, nhits, ev_hit),
	F_BOOL(struct ev_search, more));
LAYOUT(ev_history,
	F_ENUM(struct ev_history, step, ev_history_step, EV_HISTORY_IDLE),
	F_U32(struct ev_history, progress),
	F_U32(struct ev_history, stored),
	F_STR(struct ev_history, why),
	F_I32(struct ev_history, err));
LAYOUT(ev_app_state,
	F_U32(struct ev_app_state, actions),
	F_BOOL(struct ev_app_state, names),
	F_BOOL(struct ev_app_state, chats),
	F_ENUM(struct ev_app_state, step, ev_as_step, EV_AS_STEP_MAX),
	F_ENUM(struct ev_app_state, act, ev_chat_act, EV_ACT_MAX),
	F_I32(struct ev_app_state, err));
LAYOUT(ev_media_dl,
	F_STR(struct ev_media_dl, chat),
	F_STR(struct ev_media_dl, id),
	F_BOOL(struct ev_media_dl, from_me),
	F_ENUM(struct ev_media_dl, state, ev_dl_state, EV_DL_MAX),
	F_I64(struct ev_media_dl, got),
	F_I64(struct ev_media_dl, total),
	F_U32(struct ev_media_dl, percent),
	F_STR(struct ev_media_dl, path),
	F_I32(struct ev_media_dl, err),
	F_BOOL(struct ev_media_dl, retried));
LAYOUT(ev_rcpt,
	F_STR(struct ev_rcpt, jid),
	F_STR(struct ev_rcpt, name),
	F_I64(struct ev_rcpt, delivered_ms),
	F_I64(struct ev_rcpt, read_ms));
LAYOUT(ev_msg_info,
	F_STR(struct ev_msg_info, chat),
	F_STR(struct ev_msg_info, id),
	F_I64(struct ev_msg_info, ts_ms),
	F_ARRAY(struct ev_msg_info, rcpts, nrcpts, ev_rcpt));

LAYOUT(ev_upload,
	F_STRUCT(struct ev_upload, key, ev_key),
	F_I64(struct ev_upload, sent),
	F_I64(struct ev_upload, total),
	F_BOOL(struct ev_upload, done),
	F_BOOL(struct ev_upload, failed));
LAYOUT(ev_profile,
	F_STR(struct ev_profile, jid),
	F_BOOL(struct ev_profile, about_known),
	F_STR(struct ev_profile, about),
	F_I64(struct ev_profile, about_ms),
	F_ENUM(struct ev_profile, pic_state, ev_pic_state, EV_PIC_MAX),
	F_STR(struct ev_profile, pic_id),
	F_STR(struct ev_profile, pic));
LAYOUT(ev_blocklist,
	F_STRV(struct ev_blocklist, jids, njids));

static const struct ev_kind_info ev_kinds[] = {
	[EV_CONNECTING] =	{ "EV_CONNECTING", &L_ev_connecting, -1 },
	[EV_QR] =		{ "EV_QR", &L_ev_qr, -1 },
	[EV_PAIR_CODE] =	{ "EV_PAIR_CODE", &L_ev_pair_code, -1 },
	[EV_PAIRED] =		{ "EV_PAIRED", &L_ev_account, -1 },
	[EV_CONNECTED] =	{ "EV_CONNECTED", &L_ev_account, -1 },
	[EV_DISCONNECTED] =	{ "EV_DISCONNECTED", &L_ev_disconnected, -1 },
	[EV_LOGGED_OUT] =	{ "EV_LOGGED_OUT", &L_ev_end, -1 },
	[EV_ERROR] =		{ "EV_ERROR", &L_ev_error, -1 },
	[EV_STOPPED] =		{ "EV_STOPPED", &L_ev_end, -1 },
	[EV_MESSAGE] =		{ "EV_MESSAGE", &L_ev_message, -1 },
	[EV_MSG_STATE] =	{ "EV_MSG_STATE", &L_ev_msg_state, -1 },
	[EV_MSG_CHANGED] =	{ "EV_MSG_CHANGED", &L_ev_msg_changed, -1 },
	[EV_REACTION] =		{ "EV_REACTION", &L_ev_reaction, -1 },
	[EV_TYPING] =		{ "EV_TYPING", &L_ev_typing, -1 },
	[EV_PRESENCE] =		{ "EV_PRESENCE", &L_ev_presence, -1 },
	[EV_SEND_FAILED] =	{ "EV_SEND_FAILED", &L_ev_send_failed, -1 },
	[EV_CHATS] =		{ "EV_CHATS", &L_ev_chats, -1 },
	[EV_PAGE] =		{ "EV_PAGE", &L_ev_page, -1 },
	[EV_GROUP] =		{ "EV_GROUP", &L_ev_group, -1 },
	[EV_SEARCH] =		{ "EV_SEARCH", &L_ev_search, -1 },
	[EV_HISTORY] =		{ "EV_HISTORY", &L_ev_history, -1 },
	[EV_OWN_NAME] =		{ "EV_OWN_NAME", &L_ev_account, -1 },
	[EV_LINKED] =		{ "EV_LINKED", &L_ev_account, -1 },
	[EV_APP_STATE] =	{ "EV_APP_STATE", &L_ev_app_state, -1 },
	[EV_UPLOAD] =		{ "EV_UPLOAD", &L_ev_upload, -1 },
	[EV_MEDIA_DL] =		{ "EV_MEDIA_DL", &L_ev_media_dl, -1 },
	[EV_PROFILE] =		{ "EV_PROFILE", &L_ev_profile, -1 },
	[EV_BLOCKLIST] =	{ "EV_BLOCKLIST", &L_ev_blocklist, -1 },
	[EV_MSG_INFO] =		{ "EV_MSG_INFO", &L_ev_msg_info, -1 },
};
_Static_assert(sizeof(ev_kinds) / sizeof(ev_kinds[0]) == EV_KIND_MAX + 1,
    "one row per event kind");

/* ---- commands ---- */

LAYOUT(cmd_chat,
	F_STR(struct cmd_chat, chat));
LAYOUT(cmd_msg,
	F_STR(struct cmd_msg, chat),
	F_STR(struct cmd_msg, id));
LAYOUT(cmd_pair_code,
	F_STR(struct cmd_pair_code, phone));
LAYOUT(cmd_send,
	F_STR(struct cmd_send, chat),
	F_STR(struct cmd_send, text),
	F_STR(struct cmd_send, quoted_id),
	F_STR(struct cmd_send, quoted_sender),
	F_STR(struct cmd_send, quoted_text));
LAYOUT(cmd_send_file,
	F_STR(struct cmd_send_file, chat),
	F_STR(struct cmd_send_file, path),
	F_STR(struct cmd_send_file, caption),
	F_STR(struct cmd_send_file, quoted_id),
	F_STR(struct cmd_send_file, quoted_sender),
	F_STR(struct cmd_send_file, quoted_text),
	F_BOOL(struct cmd_send_file, ptt));
LAYOUT(cmd_react,
	F_STR(struct cmd_react, chat),
	F_STR(struct cmd_react, id),
	F_BOOL(struct cmd_react, target_from_me),
	F_STR(struct cmd_react, emoji));
LAYOUT(cmd_typing,
	F_STR(struct cmd_typing, chat),
	F_BOOL(struct cmd_typing, composing));
LAYOUT(cmd_edit,
	F_STR(struct cmd_edit, chat),
	F_STR(struct cmd_edit, id),
	F_STR(struct cmd_edit, text));
LAYOUT(cmd_load_chats,
	F_U32(struct cmd_load_chats, max),
	F_BOOL(struct cmd_load_chats, people));
LAYOUT(cmd_load_page,
	F_STR(struct cmd_load_page, chat),
	F_ENUM(struct cmd_load_page, dir, ev_page_dir, EV_PAGE_FROM),
	F_STRUCT(struct cmd_load_page, from, ev_cursor),
	F_I64(struct cmd_load_page, rowid),
	F_U32(struct cmd_load_page, max),
	F_U32(struct cmd_load_page, unread));
LAYOUT(cmd_group_create,
	F_STR(struct cmd_group_create, subject),
	F_STRV(struct cmd_group_create, members, nmembers));
LAYOUT(cmd_group_subject,
	F_STR(struct cmd_group_subject, chat),
	F_STR(struct cmd_group_subject, subject));
LAYOUT(cmd_group_members,
	F_STR(struct cmd_group_members, chat),
	F_STRV(struct cmd_group_members, members, nmembers));
LAYOUT(cmd_search,
	F_STR(struct cmd_search, query),
	F_STR(struct cmd_search, chat),
	F_BOOL(struct cmd_search, by_sender),
	F_STR(struct cmd_search, sender),
	F_I64(struct cmd_search, since_ms),
	F_I64(struct cmd_search, until_ms),
	F_U32(struct cmd_search, max),
	F_BOOL(struct cmd_search, starred));
LAYOUT(cmd_draft,
	F_STR(struct cmd_draft, chat),
	F_STR(struct cmd_draft, text));
LAYOUT(cmd_peek,
	F_STR(struct cmd_peek, chat),
	F_BOOL(struct cmd_peek, on));
LAYOUT(cmd_chat_act,
	F_STR(struct cmd_chat_act, chat),
	F_ENUM(struct cmd_chat_act, act, ev_chat_act, EV_ACT_MAX),
	F_I64(struct cmd_chat_act, mute_until),
	F_STR(struct cmd_chat_act, id),
	F_BOOL(struct cmd_chat_act, from_me),
	F_STR(struct cmd_chat_act, sender),
	F_I64(struct cmd_chat_act, last_ms));
LAYOUT(cmd_media_get,
	F_STR(struct cmd_media_get, chat),
	F_STR(struct cmd_media_get, id),
	F_STR(struct cmd_media_get, out));
LAYOUT(cmd_forward,
	F_STR(struct cmd_forward, chat),
	F_STR(struct cmd_forward, id),
	F_BOOL(struct cmd_forward, from_me),
	F_STRV(struct cmd_forward, targets, ntargets));
LAYOUT(cmd_ephemeral,
	F_STR(struct cmd_ephemeral, chat),
	F_U32(struct cmd_ephemeral, secs));
LAYOUT(cmd_block,
	F_STR(struct cmd_block, chat),
	F_BOOL(struct cmd_block, block));
LAYOUT(cmd_poll_vote,
	F_STR(struct cmd_poll_vote, chat),
	F_STR(struct cmd_poll_vote, id),
	F_STR(struct cmd_poll_vote, picks));
LAYOUT(cmd_poll_new,
	F_STR(struct cmd_poll_new, chat),
	F_STR(struct cmd_poll_new, question),
	F_STR(struct cmd_poll_new, options),
	F_BOOL(struct cmd_poll_new, multi));

/* chat_field: the index of chat in the layout's fields, -1 none */
static const struct ev_kind_info cmd_kinds[] = {
	[CMD_QUIT] =		{ "CMD_QUIT", &L_none, -1 },
	[CMD_PAIR_CODE] =	{ "CMD_PAIR_CODE", &L_cmd_pair_code, -1 },
	[CMD_SEND] =		{ "CMD_SEND", &L_cmd_send, 0 },
	[CMD_REACT] =		{ "CMD_REACT", &L_cmd_react, 0 },
	[CMD_MARK_READ] =	{ "CMD_MARK_READ", &L_cmd_chat, 0 },
	[CMD_TYPING] =		{ "CMD_TYPING", &L_cmd_typing, 0 },
	[CMD_SUBSCRIBE] =	{ "CMD_SUBSCRIBE", &L_cmd_chat, 0 },
	[CMD_RETRY] =		{ "CMD_RETRY", &L_cmd_msg, 0 },
	[CMD_DELETE] =		{ "CMD_DELETE", &L_cmd_msg, 0 },
	[CMD_EDIT] =		{ "CMD_EDIT", &L_cmd_edit, 0 },
	[CMD_REVOKE] =		{ "CMD_REVOKE", &L_cmd_msg, 0 },
	[CMD_LOAD_CHATS] =	{ "CMD_LOAD_CHATS", &L_cmd_load_chats, -1 },
	[CMD_LOAD_PAGE] =	{ "CMD_LOAD_PAGE", &L_cmd_load_page, 0 },
	[CMD_GROUP_CREATE] =	{ "CMD_GROUP_CREATE", &L_cmd_group_create, -1 },
	[CMD_GROUP_SUBJECT] =	{ "CMD_GROUP_SUBJECT", &L_cmd_group_subject,
				  0 },
	[CMD_GROUP_ADD] =	{ "CMD_GROUP_ADD", &L_cmd_group_members, 0 },
	[CMD_GROUP_REMOVE] =	{ "CMD_GROUP_REMOVE", &L_cmd_group_members, 0 },
	[CMD_GROUP_LEAVE] =	{ "CMD_GROUP_LEAVE", &L_cmd_chat, 0 },
	[CMD_GROUP_INFO] =	{ "CMD_GROUP_INFO", &L_cmd_chat, 0 },
	[CMD_SEARCH] =		{ "CMD_SEARCH", &L_cmd_search, 1 },
	[CMD_HISTORY_MORE] =	{ "CMD_HISTORY_MORE", &L_cmd_chat, 0 },
	[CMD_RECONNECT] =	{ "CMD_RECONNECT", &L_none, -1 },
	[CMD_DRAFT] =		{ "CMD_DRAFT", &L_cmd_draft, 0 },
	[CMD_PEEK] =		{ "CMD_PEEK", &L_cmd_peek, 0 },
	[CMD_CHAT_ACT] =	{ "CMD_CHAT_ACT", &L_cmd_chat_act, 0 },
	[CMD_SEND_FILE] =	{ "CMD_SEND_FILE", &L_cmd_send_file, 0 },
	[CMD_MEDIA_GET] =	{ "CMD_MEDIA_GET", &L_cmd_media_get, 0 },
	[CMD_FORWARD] =		{ "CMD_FORWARD", &L_cmd_forward, 0 },
	[CMD_EPHEMERAL] =	{ "CMD_EPHEMERAL", &L_cmd_ephemeral, 0 },
	[CMD_CALL_REJECT] =	{ "CMD_CALL_REJECT", &L_cmd_msg, 0 },
	[CMD_PROFILE] =		{ "CMD_PROFILE", &L_cmd_chat, 0 },
	[CMD_BLOCK] =		{ "CMD_BLOCK", &L_cmd_block, 0 },
	[CMD_POLL_VOTE] =	{ "CMD_POLL_VOTE", &L_cmd_poll_vote, 0 },
	[CMD_POLL_NEW] =	{ "CMD_POLL_NEW", &L_cmd_poll_new, 0 },
	[CMD_MSG_INFO] =	{ "CMD_MSG_INFO", &L_cmd_msg, 0 },
};
_Static_assert(sizeof(cmd_kinds) / sizeof(cmd_kinds[0]) == CMD_KIND_MAX + 1,
    "one row per command kind");

const struct ev_kind_info *
ev_kind_info(enum ev_kind kind)
{
	return (unsigned)kind <= EV_KIND_MAX ? &ev_kinds[kind] : NULL;
}

const struct ev_kind_info *
cmd_kind_info(enum cmd_kind kind)
{
	return (unsigned)kind <= CMD_KIND_MAX ? &cmd_kinds[kind] : NULL;
}

/* ---- the walks ---- */

void
ev_layout_fill(const struct ev_layout *l, void *p)
{
	const struct ev_field	*f;
	size_t			 i;

	for (i = 0; i < l->nfields; i++) {
		f = &l->fields[i];
		if (f->type == EV_F_STR)
			ev_ptr_set((char *)p + f->off, xstrdup(""));
		else if (f->type == EV_F_STRUCT)
			ev_layout_fill(f->elem, (char *)p + f->off);
	}
}

void
ev_layout_release(const struct ev_layout *l, void *p)
{
	const struct ev_field	*f;
	char			*at, *v;
	uint32_t		 n, k;
	size_t			 i;

	for (i = 0; i < l->nfields; i++) {
		f = &l->fields[i];
		at = (char *)p + f->off;
		switch (f->type) {
		case EV_F_STR:
			free(ev_ptr_get(at));
			ev_ptr_set(at, NULL);
			break;
		case EV_F_STRUCT:
			ev_layout_release(f->elem, at);
			break;
		case EV_F_ARRAY:
			v = ev_ptr_get(at);
			n = ev_count_get((char *)p + f->count_off);
			for (k = 0; v != NULL && k < n; k++)
				ev_layout_release(f->elem, v + (size_t)k *
				    f->elem->size);
			free(v);
			ev_ptr_set(at, NULL);
			ev_count_set((char *)p + f->count_off, 0);
			break;
		case EV_F_BOOL:
		case EV_F_ENUM:
		case EV_F_I32:
		case EV_F_U32:
		case EV_F_I64:
			break;
		}
	}
}

size_t
ev_layout_wire_min(const struct ev_layout *l)
{
	size_t	 i, n = 0;

	for (i = 0; i < l->nfields; i++)
		switch (l->fields[i].type) {
		case EV_F_BOOL:
			n += 1;
			break;
		case EV_F_I64:
			n += 8;
			break;
		case EV_F_STRUCT:
			n += ev_layout_wire_min(l->fields[i].elem);
			break;
		case EV_F_ENUM:
		case EV_F_I32:
		case EV_F_U32:
		case EV_F_STR:
		case EV_F_ARRAY:
			n += 4;
			break;
		}
	return n;
}

/* ---- events and commands ---- */

struct ev *
ev_new(enum ev_kind kind)
{
	const struct ev_kind_info *k = ev_kind_info(kind);
	struct ev		*ev;

	if (k == NULL)
		abort();
	ev = xcalloc(1, sizeof(*ev));
	ev->kind = kind;
	ev_layout_fill(k->layout, &ev->u);
	return ev;
}

void
ev_free(struct ev *ev)
{
	const struct ev_kind_info *k;

	if (ev == NULL)
		return;
	if ((k = ev_kind_info(ev->kind)) != NULL)
		ev_layout_release(k->layout, &ev->u);
	free(ev);
}

const char *
ev_kind_name(enum ev_kind kind)
{
	const struct ev_kind_info *k = ev_kind_info(kind);

	return k != NULL ? k->name : "?";
}

struct cmd *
cmd_new(enum cmd_kind kind)
{
	const struct ev_kind_info *k = cmd_kind_info(kind);
	struct cmd		*c;

	if (k == NULL)
		abort();
	c = xcalloc(1, sizeof(*c));
	c->kind = kind;
	ev_layout_fill(k->layout, &c->u);
	return c;
}

struct cmd *
cmd_new_chat(enum cmd_kind kind, const char *chat)
{
	struct cmd	*c = cmd_new(kind);
	const struct ev_kind_info *k = cmd_kind_info(kind);
	char		*slot;

	if (k->chat_field >= 0) {
		slot = (char *)&c->u + k->layout->fields[k->chat_field].off;
		free(ev_ptr_get(slot));
		ev_ptr_set(slot, xstrdup(chat != NULL ? chat : ""));
	}
	return c;
}

void
cmd_free(struct cmd *c)
{
	const struct ev_kind_info *k;

	if (c == NULL)
		return;
	if ((k = cmd_kind_info(c->kind)) != NULL)
		ev_layout_release(k->layout, &c->u);
	free(c);
}

const char *
cmd_kind_name(enum cmd_kind kind)
{
	const struct ev_kind_info *k = cmd_kind_info(kind);

	return k != NULL ? k->name : "?";
}

void
ev_set(char **slot, const char *s)
{
	char	*copy = xstrdup(s != NULL ? s : "");

	free(*slot);
	*slot = copy;
}

void
ev_set_len(char **slot, const char *s, size_t len)
{
	char	*copy = xmalloc(len + 1);

	if (len > 0)
		memcpy(copy, s, len);
	copy[len] = '\0';
	free(*slot);
	*slot = copy;
}

void
ev_push_str(char ***v, uint32_t *n, const char *s)
{
	*v = xrealloc(*v, ((size_t)*n + 1) * sizeof(**v));
	(*v)[*n] = xstrdup(s != NULL ? s : "");
	(*n)++;
}
