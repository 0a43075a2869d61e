/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/ephem.c -- disappearing messages (store/store-ephem.h, migration
 * 17; protocol-features.md 3.5): a chat's timer, and the rows whose time
 * is up deleted.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "base/xmalloc.h"
#include "store/store-int.h"

int
store_chat_ephem_set(struct store *s, const char *jid, uint32_t secs,
    int64_t ts_s, bool only_newer)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) ||
	    secs > STORE_EPHEM_MAX || ts_s < 0 || ts_s > INT64_MAX / 1000)
		return -EINVAL;
	/* off: no row made for a chat that has none */
	if ((rc = store_q_prep(s, &st, secs == 0 ? "UPDATE chat SET"
	    " ephemeral_s = ?2, ephemeral_ts = ?3 WHERE jid = ?1"
	    " AND ephemeral_s != ?2 AND (?4 = 0 OR ?3 >= ephemeral_ts)" :
	    "INSERT INTO chat (jid, ephemeral_s,"
	    " ephemeral_ts) VALUES (?1, ?2, ?3) ON CONFLICT (jid) DO UPDATE"
	    " SET ephemeral_s = excluded.ephemeral_s,"
	    " ephemeral_ts = excluded.ephemeral_ts"
	    " WHERE ephemeral_s != excluded.ephemeral_s"
	    " AND (?4 = 0 OR excluded.ephemeral_ts >= ephemeral_ts)")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_int64(st, 2, secs);
	sqlite3_bind_int64(st, 3, ts_s);
	sqlite3_bind_int(st, 4, only_newer);
	rc = store_q_run(s, st, "setting a chat's timer");
	if (rc < 0)
		return rc;
	return rc > 0 ? 1 : 0;
}

int
store_chat_ephem(struct store *s, const char *jid, uint32_t *secs,
    int64_t *ts_s)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || secs == NULL ||
	    ts_s == NULL)
		return -EINVAL;
	*secs = 0;
	*ts_s = 0;
	if ((rc = store_q_prep(s, &st, "SELECT ephemeral_s, ephemeral_ts"
	    " FROM chat WHERE jid = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	if ((rc = store_q_step_one(s, st, "reading a chat's timer")) == 1) {
		int64_t	 v = sqlite3_column_int64(st, 0);

		*secs = v > 0 && v <= STORE_EPHEM_MAX ? (uint32_t)v : 0;
		*ts_s = sqlite3_column_int64(st, 1);
		store_stmt_done(s, st);
	}
	return rc < 0 ? rc : 0;
}

void
store_expired_free(struct store_expired *v, size_t n)
{
	size_t	 i;

	for (i = 0; v != NULL && i < n; i++) {
		free(v[i].chat);
		free(v[i].id);
	}
	free(v);
}

/* Read the due rows (up to max + 1) into *v; rows' rowids into *ids. */
static int
due_rows(struct store *s, int64_t now_s, size_t max,
    struct store_expired **v, int64_t **ids, size_t *n, bool *more)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "SELECT rowid, chat, id, from_me"
	    " FROM message WHERE expire_s > 0 AND expire_s <= ?1"
	    " ORDER BY expire_s, rowid LIMIT ?2")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, now_s);
	sqlite3_bind_int64(st, 2, (int64_t)max + 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == max) {
			*more = true;
			break;
		}
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		*ids = xrealloc(*ids, (*n + 1) * sizeof(**ids));
		(*ids)[*n] = sqlite3_column_int64(st, 0);
		(*v)[*n].chat = store_q_col_dup(st, 1, NULL);
		(*v)[*n].id = store_q_col_dup(st, 2, NULL);
		(*v)[*n].from_me = sqlite3_column_int(st, 3) != 0;
		(*n)++;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("reading the expired messages: %s",
		    sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		return -EIO;
	}
	store_stmt_done(s, st);
	return 0;
}

/* Delete row rowid and refresh its chat's newest message. */
static int
expire_one(struct store *s, int64_t rowid, const char *chat)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "DELETE FROM message WHERE rowid = ?1"))
	    != 0)
		return rc;
	sqlite3_bind_int64(st, 1, rowid);
	if ((rc = store_q_run(s, st, "deleting an expired message")) < 0)
		return rc;
	return store_q_chat_refresh(s, chat);
}

int
store_expire_due(struct store *s, int64_t now_s, size_t max,
    struct store_expired **out, size_t *n, bool *more)
{
	struct store_expired	*v = NULL;
	int64_t			*ids = NULL;
	size_t			 k = 0, i;
	int			 rc;

	if (out == NULL || n == NULL || more == NULL || max == 0 ||
	    max > 4096)
		return -EINVAL;
	*out = NULL;
	*n = 0;
	*more = false;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	rc = due_rows(s, now_s, max, &v, &ids, &k, more);
	for (i = 0; rc == 0 && i < k; i++)
		rc = expire_one(s, ids[i], v[i].chat);
	free(ids);
	if ((rc = store_tx_end(s, rc)) < 0) {
		store_expired_free(v, k);
		*more = false;
		return rc;
	}
	*out = v;
	*n = k;
	return 0;
}

int
store_expire_next(struct store *s, int64_t *when_s)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (when_s == NULL)
		return -EINVAL;
	*when_s = 0;
	if ((rc = store_q_prep(s, &st, "SELECT min(expire_s) FROM message"
	    " WHERE expire_s > 0")) != 0)
		return rc;
	if ((rc = store_q_step_one(s, st, "reading the next expiry")) == 1) {
		*when_s = sqlite3_column_int64(st, 0);
		store_stmt_done(s, st);
	}
	return rc < 0 ? rc : 0;
}
