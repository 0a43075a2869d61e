/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/edit.c -- what changes a stored message afterwards (store/store.h;
 * protocol.md 11.4, 11.5): edits, revokes, and reactions (table reaction
 * of migration 3).
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "store/store-int.h"

int
store_msg_edit(struct store *s, const char *chat, bool from_me,
    const char *id, const char *text, size_t text_len, int64_t edit_ms)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true) || edit_ms <= 0 ||
	    (text == NULL && text_len > 0) || text_len > STORE_MSG_TEXT_MAX)
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = store_q_prep(s, &st, "UPDATE message SET text = ?4, edited = ?5"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = ?3 AND deleted = 0"
	    " AND edited < ?5 AND kind != 7")) == 0) {	/* RICH: no text */
		store_q_bind_str(st, 1, chat);
		store_q_bind_str(st, 2, id);
		sqlite3_bind_int(st, 3, from_me);
		store_q_bind_text(st, 4, text, text_len);
		sqlite3_bind_int64(st, 5, edit_ms);
		rc = store_q_then_sync(s, store_q_run(s, st,
		    "editing a message"), chat, from_me, id);
	}
	return store_tx_end(s, rc);
}

int
store_msg_revoke(struct store *s, const char *chat, bool from_me,
    const char *id)
{
	/* An unsent (QUEUED) row keeps its payload: the outbox sends it
	 * before the revoke that follows it. */
	return store_q_by_key_sync(s, "UPDATE message SET deleted = 1,"
	    " text = '', quoted_id = '', quoted_sender = '', quoted_text = '',"
	    " payload = CASE WHEN state = 0 THEN payload ELSE NULL END"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = ?3 AND deleted = 0",
	    chat, id, from_me, "revoking a message");
}

int
store_reaction_set(struct store *s, const char *chat, const char *target_id,
    const char *sender, const char *emoji, int64_t ts_ms)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(target_id, STORE_MSG_ID_MAX, true) ||
	    sender == NULL || !store_q_str_ok(sender, STORE_JID_MAX, false) ||
	    !store_q_str_ok(emoji, STORE_NAME_MAX, false))
		return -EINVAL;
	/* Last writer by ts_ms wins; a tie goes to the one arriving last. */
	if ((rc = store_q_prep(s, &st, "INSERT INTO reaction (chat, target_id, sender,"
	    " emoji, ts_ms) VALUES (?1, ?2, ?3, ?4, ?5)"
	    " ON CONFLICT (chat, target_id, sender) DO UPDATE"
	    " SET emoji = excluded.emoji, ts_ms = excluded.ts_ms"
	    " WHERE excluded.ts_ms > reaction.ts_ms OR"
	    " (excluded.ts_ms = reaction.ts_ms AND"
	    "  excluded.emoji <> reaction.emoji)")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, target_id);
	store_q_bind_str(st, 3, sender);
	store_q_bind_str(st, 4, emoji);
	sqlite3_bind_int64(st, 5, ts_ms);
	return store_q_run(s, st, "storing a reaction");
}
