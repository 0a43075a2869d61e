/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/outbox.c -- the outbox (store/store.h): QUEUED messages read back
 * for sending, attempts counted, the server's ack (SENT) or refusal
 * (FAILED), a retry, a failed message deleted, old payloads dropped.
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "store/store-int.h"

int
store_msg_outbox(struct store *s, size_t max, struct store_msg_page *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (max == 0 || max > STORE_MSG_PAGE_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT " MSG_COLS ", payload FROM message"
	    " WHERE state = 0 AND NOT EXISTS (SELECT 1 FROM media d"
	    " WHERE d.msg = message.rowid AND d.ul_state IN (1, 3))"
	    " ORDER BY rowid LIMIT ?1")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, (int64_t)max + 1);
	return store_q_read_page(s, st, max, true, out, "loading the outbox");
}

int
store_msg_note_attempt(struct store *s, const char *chat, const char *id)
{
	return store_q_by_key(s, "UPDATE message SET attempts = attempts + 1"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = 1", chat, id, -1,
	    "counting an attempt");
}

int
store_msg_mark_sent(struct store *s, const char *chat, const char *id,
    int64_t server_ts_ms)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true) || server_ts_ms < 0)
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = store_q_prep(s, &st, "UPDATE message SET state = 1,"
	    " ts_ms = CASE WHEN ?3 > 0 THEN ?3 ELSE ts_ms END"
	    " WHERE chat = ?1 AND from_me = 1 AND id = ?2 AND state = 0"))
	    == 0) {
		store_q_bind_str(st, 1, chat);
		store_q_bind_str(st, 2, id);
		sqlite3_bind_int64(st, 3, server_ts_ms);
		rc = store_q_run(s, st, "marking a message sent");
	}
	if (rc == 1 && server_ts_ms > 0) {
		int	 r = store_q_chat_refresh(s, chat);

		if (r != 0)
			rc = r;
	} else {
		rc = store_q_then_sync(s, rc, chat, true, id);
	}
	return store_tx_end(s, rc);
}

int
store_msg_mark_failed(struct store *s, const char *chat, const char *id)
{
	return store_q_by_key_sync(s, "UPDATE message SET state = -1"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = ?3 AND state = 0",
	    chat, id, true, "marking a message failed");
}

int
store_msg_retry(struct store *s, const char *chat, const char *id)
{
	return store_q_by_key_sync(s, "UPDATE message SET state = 0,"
	    " attempts = 0 WHERE chat = ?1 AND id = ?2 AND from_me = ?3 AND state = -1",
	    chat, id, true, "requeueing a message");
}

int
store_msg_delete_failed(struct store *s, const char *chat, const char *id)
{
	int	 rc;

	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	rc = store_q_by_key(s, "DELETE FROM message"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = 1 AND state = -1",
	    chat, id, -1, "deleting a message");
	if (rc == 1) {
		int	 r = store_q_chat_refresh(s, chat);

		if (r != 0)
			rc = r;
	}
	return store_tx_end(s, rc);
}

int
store_msg_payload_prune(struct store *s, int64_t before_ms)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "UPDATE message SET payload = NULL"
	    " WHERE payload IS NOT NULL AND ts_ms < ?1 AND from_me = 1"
	    " AND state > 0")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, before_ms);
	return store_q_run(s, st, "dropping payloads");
}
