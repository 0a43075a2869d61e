/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/poll.c -- polls: their secrets, their tally in place, the votes
 * that wait for their poll (store/store-poll.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/xmalloc.h"
#include "store/store-int.h"

static bool
key_ok(const char *chat, const char *id)
{
	return store_q_str_ok(chat, STORE_JID_MAX, true) &&
	    store_q_str_ok(id, STORE_MSG_ID_MAX, true);
}

int
store_poll_put(struct store *s, const char *chat, const char *id,
    const char *creator, const uint8_t *secret, size_t len)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!key_ok(chat, id) || !store_q_str_ok(creator, STORE_JID_MAX,
	    false) || creator == NULL || secret == NULL || len == 0 ||
	    len > STORE_POLL_SECRET_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT OR REPLACE INTO poll (chat,"
	    " id, creator, secret) VALUES (?1, ?2, ?3, ?4)")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	store_q_bind_str(st, 3, creator);
	sqlite3_bind_blob(st, 4, secret, (int)len, SQLITE_STATIC);
	rc = store_q_run(s, st, "keeping a poll's secret");
	return rc < 0 ? rc : 0;
}

int
store_poll_get(struct store *s, const char *chat, const char *id,
    struct store_poll *out)
{
	sqlite3_stmt	*st;
	int		 rc, n;

	if (out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (!key_ok(chat, id))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT p.creator, p.secret,"
	    " m.from_me, m.text FROM poll p JOIN message m"
	    " ON m.chat = p.chat AND m.id = p.id AND m.kind = 7"
	    " AND m.deleted = 0 AND substr(m.text, 1, 5) = 'poll' || char(10)"
	    " WHERE p.chat = ?1 AND p.id = ?2 LIMIT 1")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	if ((rc = store_q_step_one(s, st, "reading a poll")) == 1) {
		store_q_col_copy(st, 0, out->creator, sizeof(out->creator));
		n = sqlite3_column_bytes(st, 1);
		if (n > 0 && n <= STORE_POLL_SECRET_MAX) {
			memcpy(out->secret, sqlite3_column_blob(st, 1),
			    (size_t)n);
			out->secret_len = (size_t)n;
		}
		out->from_me = sqlite3_column_int(st, 2) != 0;
		out->text = store_q_col_dup(st, 3, &out->text_len);
		if (out->secret_len == 0) {
			store_poll_release(out);
			rc = 0;
		}
	}
	store_stmt_done(s, st);
	return rc;
}

void
store_poll_release(struct store_poll *p)
{
	if (p == NULL)
		return;
	free(p->text);
	memset(p, 0, sizeof(*p));
}

int
store_poll_set(struct store *s, const char *chat, const char *id,
    const char *text, size_t len)
{
	sqlite3_stmt	*st;
	bool		 from_me = false;
	int		 rc;

	if (!key_ok(chat, id) || text == NULL || len > STORE_MSG_TEXT_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT from_me FROM message"
	    " WHERE chat = ?1 AND id = ?2 AND kind = 7 AND deleted = 0"
	    " AND substr(text, 1, 5) = 'poll' || char(10) LIMIT 1")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	if ((rc = store_q_step_one(s, st, "finding a poll")) == 1)
		from_me = sqlite3_column_int(st, 0) != 0;
	store_stmt_done(s, st);
	if (rc <= 0)
		return rc;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = store_q_prep(s, &st, "UPDATE message SET text = ?3"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = ?4 AND kind = 7"))
	    == 0) {
		store_q_bind_str(st, 1, chat);
		store_q_bind_str(st, 2, id);
		store_q_bind_text(st, 3, text, len);
		sqlite3_bind_int(st, 4, from_me);
		rc = store_q_then_sync(s, store_q_run(s, st,
		    "updating a poll's tally"), chat, from_me, id);
	}
	if ((rc = store_tx_end(s, rc)) < 0)
		return rc;
	return 1;
}

int
store_poll_pend_put(struct store *s, const char *chat, const char *poll,
    const char *voter, const uint8_t *data, size_t len, int64_t ts_ms)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!key_ok(chat, poll) || voter == NULL || !store_q_str_ok(voter,
	    STORE_JID_MAX, false) || data == NULL || len == 0 ||
	    len > STORE_POLL_PEND_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT INTO poll_pending (chat, poll,"
	    " voter, data, ts_ms) VALUES (?1, ?2, ?3, ?4, ?5)"
	    " ON CONFLICT (chat, poll, voter) DO UPDATE SET"
	    " data = excluded.data, ts_ms = excluded.ts_ms"
	    " WHERE excluded.ts_ms >= poll_pending.ts_ms")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, poll);
	store_q_bind_str(st, 3, voter);
	sqlite3_bind_blob(st, 4, data, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 5, ts_ms);
	rc = store_q_run(s, st, "keeping a vote for a poll not stored");
	return rc < 0 ? rc : 0;
}

int
store_poll_pend_take(struct store *s, const char *chat, const char *poll,
    char *voter, size_t vsize, uint8_t **data, size_t *len)
{
	sqlite3_stmt	*st;
	int		 rc, n;

	if (!key_ok(chat, poll) || voter == NULL || vsize == 0 ||
	    data == NULL || len == NULL)
		return -EINVAL;
	*data = NULL;
	*len = 0;
	if ((rc = store_q_prep(s, &st, "SELECT voter, data FROM poll_pending"
	    " WHERE chat = ?1 AND poll = ?2 ORDER BY ts_ms LIMIT 1")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, poll);
	if ((rc = store_q_step_one(s, st, "reading a waiting vote")) == 1) {
		store_q_col_copy(st, 0, voter, vsize);
		n = sqlite3_column_bytes(st, 1);
		*data = xmalloc(n > 0 ? (size_t)n : 1);
		if (n > 0)
			memcpy(*data, sqlite3_column_blob(st, 1), (size_t)n);
		*len = (size_t)n;
	}
	store_stmt_done(s, st);
	if (rc <= 0)
		return rc;
	if ((rc = store_q_prep(s, &st, "DELETE FROM poll_pending WHERE"
	    " chat = ?1 AND poll = ?2 AND voter = ?3")) == 0) {
		store_q_bind_str(st, 1, chat);
		store_q_bind_str(st, 2, poll);
		store_q_bind_str(st, 3, voter);
		rc = store_q_run(s, st, "taking a waiting vote");
	}
	if (rc < 0) {
		free(*data);
		*data = NULL;
		return rc;
	}
	return 1;
}
