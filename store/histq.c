/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/histq.c -- history-sync notifications waiting to be imported
 * (table hist_queue; store/store.h).  A notification is queued in the
 * transaction that stores its message's Signal session, so it survives a
 * crash between the ack and the end of its import (protocol.md 12.1).
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/buf.h"
#include "base/log.h"
#include "store/store-int.h"

int
store_histq_put(struct store *s, const char *id, const uint8_t *msg,
    size_t len, int64_t now_ms)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(id, STORE_MSG_ID_MAX, true) || msg == NULL ||
	    len == 0 || len > STORE_MSG_PAYLOAD_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT OR IGNORE INTO hist_queue"
	    " (id, msg, queued_ms) VALUES (?1, ?2, ?3)")) != 0)
		return rc;
	store_q_bind_str(st, 1, id);
	sqlite3_bind_blob(st, 2, msg, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, now_ms);
	rc = store_q_run(s, st, "queueing a history notification");
	return rc < 0 ? rc : 0;
}

int
store_histq_next(struct store *s, char id[STORE_MSG_ID_MAX + 1],
    struct buf *msg)
{
	sqlite3_stmt	*st;
	const void	*p;
	int		 rc, n;

	if (id == NULL || msg == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT id, msg FROM hist_queue"
	    " WHERE imported = 0 ORDER BY rowid LIMIT 1")) != 0)
		return rc;
	if ((rc = store_q_step_one(s, st, "reading the history queue")) ==
	    1) {
		store_q_col_copy(st, 0, id, STORE_MSG_ID_MAX + 1);
		p = sqlite3_column_blob(st, 1);
		n = sqlite3_column_bytes(st, 1);
		if (p != NULL && n > 0)
			buf_append(msg, p, (size_t)n);
	}
	store_stmt_done(s, st);
	return rc;
}

int
store_histq_imported(struct store *s, const char *id)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "UPDATE hist_queue SET imported = 1"
	    " WHERE id = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, id);
	rc = store_q_run(s, st, "marking a history notification imported");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

int
store_histq_unreceipted(struct store *s, struct buf *ids)
{
	sqlite3_stmt	*st;
	const unsigned char *p;
	int		 rc, n = 0;

	if (ids == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT id FROM hist_queue"
	    " WHERE imported = 1 ORDER BY rowid")) != 0)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		p = sqlite3_column_text(st, 0);
		if (p == NULL)
			continue;
		buf_append(ids, p, strlen((const char *)p) + 1);
		n++;
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_DONE) {
		log_error("reading the history queue: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	return n;
}

int
store_histq_done(struct store *s, const char *id)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "DELETE FROM hist_queue WHERE id = ?1"))
	    != 0)
		return rc;
	store_q_bind_str(st, 1, id);
	rc = store_q_run(s, st, "dropping a history notification");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}
