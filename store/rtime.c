/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/rtime.c -- each recipient's delivery and read time of our
 * messages (store/store-rtime.h; table receipt_time, migration 20).
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"

int
store_rtime_put(struct store *s, const char *chat, const char *id,
    const char *member, enum store_msg_state state, int64_t ts_ms)
{
	sqlite3_stmt	*st;
	int		 rc;
	bool		 read = state == STORE_MSG_READ ||
			    state == STORE_MSG_PLAYED;

	if ((!read && state != STORE_MSG_DELIVERED) || ts_ms <= 0 ||
	    !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true) ||
	    !store_q_str_ok(member, STORE_JID_MAX, true))
		return -EINVAL;
	/* only our stored messages; the first times win */
	if ((rc = store_q_prep(s, &st, "INSERT INTO receipt_time"
	    " (chat, id, member, delivered_ms, read_ms)"
	    " SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS (SELECT 1 FROM message"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = 1)"
	    " ON CONFLICT (chat, id, member) DO UPDATE SET"
	    " delivered_ms = CASE WHEN delivered_ms = 0 OR"
	    " delivered_ms > excluded.delivered_ms"
	    " THEN excluded.delivered_ms ELSE delivered_ms END,"
	    " read_ms = CASE WHEN excluded.read_ms > 0 AND (read_ms = 0 OR"
	    " read_ms > excluded.read_ms) THEN excluded.read_ms"
	    " ELSE read_ms END")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	store_q_bind_str(st, 3, member);
	sqlite3_bind_int64(st, 4, ts_ms);
	sqlite3_bind_int64(st, 5, read ? ts_ms : 0);
	rc = store_q_run(s, st, "recording a receipt's time");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

int
store_rtime_list(struct store *s, const char *chat, const char *id,
    struct store_rtime *out, size_t max)
{
	sqlite3_stmt	*st;
	int		 rc, n = 0;

	if (out == NULL || !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if (max > STORE_RTIME_MAX)
		max = STORE_RTIME_MAX;
	if ((rc = store_q_prep(s, &st, "SELECT member, delivered_ms, read_ms"
	    " FROM receipt_time WHERE chat = ?1 AND id = ?2"
	    " ORDER BY member LIMIT ?3")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int64(st, 3, (sqlite3_int64)max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		store_q_col_copy(st, 0, out[n].member, sizeof(out[n].member));
		out[n].delivered_ms = sqlite3_column_int64(st, 1);
		out[n].read_ms = sqlite3_column_int64(st, 2);
		n++;
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_DONE) {
		log_error("reading receipt times: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	return n;
}
