/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/history.c -- the bulk path of a history sync (protocol.md 12):
 * many messages in one savepoint with one prepared statement, and chats
 * from Conversations that fill gaps without overriding live data
 * (store/store.h).
 *
 * Per row it costs one INSERT (the UNIQUE (chat, from_me, id) index makes
 * a duplicate a no-op); the insert trigger (migration 8) puts the row in
 * the backlog fts_pending, which store_fts_catch_up() indexes after the
 * import, in large batches (perf.md H2); the chat rows are written once
 * per chat per call, after the rows.  That makes the path several times
 * faster than store_msg_insert_incoming() per message (two chat UPDATEs
 * per row).
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"


static bool
msg_ok(const struct store_msg_new *m)
{
	if (!store_q_str_ok(m->chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(m->id, STORE_MSG_ID_MAX, true) ||
	    !store_q_str_ok(m->sender, STORE_JID_MAX, false) ||
	    !store_q_str_ok(m->quoted_id, STORE_MSG_ID_MAX, false) ||
	    !store_q_str_ok(m->quoted_sender, STORE_JID_MAX, false) ||
	    !store_q_str_ok(m->quoted_text, STORE_MSG_TEXT_MAX, false) ||
	    (m->text == NULL && m->text_len > 0) ||
	    m->text_len > STORE_MSG_TEXT_MAX ||
	    m->payload_len > STORE_MSG_PAYLOAD_MAX ||
	    (m->payload == NULL && m->payload_len > 0) ||
	    ((m->kind < STORE_MSG_TEXT || m->kind > STORE_MSG_HIDDEN) &&
	    m->kind != STORE_MSG_RICH) ||
	    !store_q_media_ok(m->media))
		return false;
	if (m->from_me)
		return m->state == STORE_MSG_RECEIVED ||
		    m->state == STORE_MSG_SENT ||
		    m->state == STORE_MSG_DELIVERED ||
		    m->state == STORE_MSG_READ || m->state == STORE_MSG_PLAYED;
	return m->state == STORE_MSG_RECEIVED || m->state == STORE_MSG_READ ||
	    m->state == STORE_MSG_PLAYED;
}

/* The state a history message is stored in: never unread, never
 * awaiting an ack. */
static enum store_msg_state
hist_state(const struct store_msg_new *m)
{
	if (m->state == STORE_MSG_RECEIVED)
		return m->from_me ? STORE_MSG_SENT : STORE_MSG_READ;
	return m->state;
}

/* The newest imported row of one chat in this call. */
struct touched {
	const char	*jid;	/* borrowed from the batch */
	int64_t		 ts_ms, rowid;
};

/* Note row (ts_ms, rowid) of jid; t has room for every distinct chat. */
static void
touch(struct touched *t, size_t *nt, size_t *last, const char *jid,
    int64_t ts_ms, int64_t rowid)
{
	size_t	 i;

	/* A batch is mostly grouped by conversation: try the last one. */
	if (*nt > 0 && strcmp(t[*last].jid, jid) == 0)
		i = *last;
	else {
		for (i = 0; i < *nt; i++)
			if (strcmp(t[i].jid, jid) == 0)
				break;
		if (i == *nt) {
			t[i].jid = jid;
			t[i].ts_ms = ts_ms;
			t[i].rowid = rowid;
			(*nt)++;
		}
		*last = i;
	}
	if (ts_ms > t[i].ts_ms || (ts_ms == t[i].ts_ms && rowid > t[i].rowid)) {
		t[i].ts_ms = ts_ms;
		t[i].rowid = rowid;
	}
}

/* Make (ts_ms, rowid) chat jid's newest message when it is newer, and
 * copy its preview; no unread change. */
static int
chat_newest(struct store *s, const struct touched *t)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "INSERT INTO chat (jid, last_ms,"
	    " last_rowid) VALUES (?1, ?2, ?3)"
	    " ON CONFLICT (jid) DO UPDATE"
	    " SET last_ms = excluded.last_ms, last_rowid = excluded.last_rowid"
	    " WHERE (excluded.last_ms, excluded.last_rowid) >"
	    "   (chat.last_ms, chat.last_rowid) OR chat.last_rowid = 0")) != 0)
		return rc;
	store_q_bind_str(st, 1, t->jid);
	sqlite3_bind_int64(st, 2, t->ts_ms);
	sqlite3_bind_int64(st, 3, t->rowid);
	if ((rc = store_q_run(s, st, "updating a chat")) <= 0)
		return rc;
	/* it is the newest now: its preview */
	return store_q_preview_sync(s, t->jid, false, NULL);
}

/* Insert the rows; note each chat's newest.  Returns the count inserted,
 * -ENOSPC (the disk is full) or -EIO. */
static int
insert_rows(struct store *s, const struct store_msg_new *msgs, size_t n,
    struct touched *t, size_t *nt)
{
	sqlite3_stmt	*st;
	size_t		 i, last = 0;
	int		 rc, inserted = 0;

	if ((rc = store_q_prep(s, &st, "INSERT INTO message (chat, id, sender,"
	    " from_me, ts_ms, kind, text, quoted_id, quoted_sender,"
	    " quoted_text, state, payload)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
	    " ON CONFLICT (chat, from_me, id) DO NOTHING")) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		const struct store_msg_new	*m = &msgs[i];

		if (i > 0) {
			sqlite3_reset(st);
			sqlite3_clear_bindings(st);
		}
		store_q_bind_str(st, 1, m->chat);
		store_q_bind_str(st, 2, m->id);
		store_q_bind_str(st, 3, m->sender);
		sqlite3_bind_int(st, 4, m->from_me);
		sqlite3_bind_int64(st, 5, m->ts_ms);
		sqlite3_bind_int(st, 6, (int)m->kind);
		sqlite3_bind_text(st, 7, m->text_len > 0 ? m->text : "",
		    (int)m->text_len, SQLITE_STATIC);
		store_q_bind_str(st, 8, m->quoted_id);
		store_q_bind_str(st, 9, m->quoted_sender);
		store_q_bind_str(st, 10, m->quoted_text);
		sqlite3_bind_int(st, 11, (int)hist_state(m));
		if (m->payload_len > 0)
			sqlite3_bind_blob(st, 12, m->payload,
			    (int)m->payload_len, SQLITE_STATIC);
		if ((rc = sqlite3_step(st)) != SQLITE_DONE) {
			log_error("importing a message: %s",
			    sqlite3_errmsg(s->db));
			rc = store_step_err(s, rc);	/* -ENOSPC or -EIO */
			store_stmt_done(s, st);
			return rc;
		}
		if (sqlite3_changes(s->db) == 0)
			continue;	/* stored already */
		inserted++;
		if ((rc = store_q_media_put(s, sqlite3_last_insert_rowid(s->db),
		    m->media)) != 0) {
			store_stmt_done(s, st);
			return rc;
		}
		if (m->kind != STORE_MSG_HIDDEN)
			touch(t, nt, &last, m->chat, m->ts_ms,
			    sqlite3_last_insert_rowid(s->db));
	}
	store_stmt_done(s, st);
	return inserted;
}

int
store_hist_import(struct store *s, const struct store_msg_new *msgs,
    size_t n)
{
	struct touched	*t;
	size_t		 nt = 0, i;
	int		 rc, inserted = 0;

	if (n > STORE_HIST_BATCH_MAX || (msgs == NULL && n > 0))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!msg_ok(&msgs[i]))
			return -EINVAL;
	if (n == 0)
		return 0;
	t = xcalloc(n, sizeof(*t));
	if ((rc = store_tx_begin(s)) != 0) {
		free(t);
		return rc;
	}
	rc = inserted = insert_rows(s, msgs, n, t, &nt);
	for (i = 0; rc >= 0 && i < nt; i++)
		rc = chat_newest(s, &t[i]);
	free(t);
	if (rc >= 0 && (rc = store_tx_commit(s)) == 0)
		return inserted;
	if (store_tx_rollback(s) != 0)
		log_error("a rollback failed");
	return rc;
}

int
store_hist_chat(struct store *s, const char *jid, const char *name,
    int64_t last_ms, int unread, bool archived, int64_t pinned,
    int64_t muted_until)
{
	sqlite3_stmt	*st;
	int		 rc, created;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) ||
	    !store_q_str_ok(name, STORE_NAME_MAX, false) || unread < 0 ||
	    last_ms < 0 || pinned < 0 || muted_until < -1)
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = store_q_prep(s, &st, "INSERT INTO chat (jid, name, last_ms,"
	    " unread, archived, pinned, muted_until)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
	    " ON CONFLICT (jid) DO NOTHING")) != 0)
		goto out;
	store_q_bind_str(st, 1, jid);
	store_q_bind_str(st, 2, name);
	sqlite3_bind_int64(st, 3, last_ms);
	sqlite3_bind_int(st, 4, unread);
	sqlite3_bind_int(st, 5, archived);
	sqlite3_bind_int64(st, 6, pinned);
	sqlite3_bind_int64(st, 7, muted_until);
	if ((rc = store_q_run(s, st, "storing a chat")) < 0)
		goto out;
	created = rc > 0;
	if (!created) {
		if ((rc = store_q_prep(s, &st, "UPDATE chat SET"
		    " name = CASE WHEN name = '' THEN ?2 ELSE name END,"
		    " last_ms = CASE WHEN last_rowid = 0 AND ?3 > last_ms"
		    "   THEN ?3 ELSE last_ms END,"
		    " unread = CASE WHEN last_read_rowid = 0 AND ?4 > unread"
		    "   THEN ?4 ELSE unread END"
		    " WHERE jid = ?1")) != 0)
			goto out;
		store_q_bind_str(st, 1, jid);
		store_q_bind_str(st, 2, name);
		sqlite3_bind_int64(st, 3, last_ms);
		sqlite3_bind_int(st, 4, unread);
		if ((rc = store_q_run(s, st, "updating a chat")) < 0)
			goto out;
	}
	rc = created;
out:
	return store_tx_end(s, rc);
}
