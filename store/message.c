/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/message.c -- storing a message (table message of schema migration
 * 3, with its media row of migration 15; store/store.h): an outgoing one queued with its payload, an incoming
 * one exactly once per (chat, from_me, id), a placeholder filled in place;
 * and the by-key updates the outbox and edits share (store-int.h).
 *
 * Every write of more than one row runs in a savepoint (store_tx_begin()),
 * so it nests inside the engine's "decrypt + store + ratchet" transaction
 * (reliability.md rule 1).  The chat's newest message and preview follow
 * through store/chat.c; a searchable row stored here counts towards the
 * search index's next batch (s->fts_live, store_fts_batch()).
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"

/* Validate the strings and sizes of a new message. */
static bool
new_ok(const struct store_msg_new *m)
{
	return m != NULL && store_q_str_ok(m->chat, STORE_JID_MAX, true) &&
	    store_q_str_ok(m->id, STORE_MSG_ID_MAX, true) &&
	    store_q_str_ok(m->sender, STORE_JID_MAX, false) &&
	    store_q_str_ok(m->quoted_id, STORE_MSG_ID_MAX, false) &&
	    store_q_str_ok(m->quoted_sender, STORE_JID_MAX, false) &&
	    store_q_str_ok(m->quoted_text, STORE_MSG_TEXT_MAX, false) &&
	    (m->text != NULL || m->text_len == 0) &&
	    m->text_len <= STORE_MSG_TEXT_MAX &&
	    m->payload_len <= STORE_MSG_PAYLOAD_MAX &&
	    (m->payload != NULL || m->payload_len == 0) &&
	    ((m->kind >= STORE_MSG_TEXT && m->kind <= STORE_MSG_HIDDEN) ||
	    m->kind == STORE_MSG_RICH) &&
	    (m->media == NULL || m->kind == STORE_MSG_MEDIA ||
	    m->kind == STORE_MSG_RICH) &&
	    store_q_media_ok(m->media);
}

/*
 * Insert m as a new row in state; returns 0 and *rowid, -EEXIST when
 * (chat, from_me, id) is stored, or -EIO.
 */
static int
insert_row(struct store *s, const struct store_msg_new *m,
    enum store_msg_state state, int64_t *rowid)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "INSERT INTO message (chat, id, sender,"
	    " from_me, ts_ms, kind, text, quoted_id, quoted_sender,"
	    " quoted_text, state, payload, forwarded)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
	    " ?13)"))
	    != 0)
		return rc;
	store_q_bind_str(st, 1, m->chat);
	store_q_bind_str(st, 2, m->id);
	store_q_bind_str(st, 3, m->sender);
	sqlite3_bind_int(st, 4, m->from_me);
	sqlite3_bind_int64(st, 5, m->ts_ms);
	sqlite3_bind_int(st, 6, (int)m->kind);
	store_q_bind_text(st, 7, m->text, m->text_len);
	store_q_bind_str(st, 8, m->quoted_id);
	store_q_bind_str(st, 9, m->quoted_sender);
	store_q_bind_str(st, 10, m->quoted_text);
	sqlite3_bind_int(st, 11, (int)state);
	if (m->payload != NULL && m->payload_len > 0)
		sqlite3_bind_blob(st, 12, m->payload, (int)m->payload_len,
		    SQLITE_STATIC);
	sqlite3_bind_int64(st, 13, (sqlite3_int64)m->forwarded);
	rc = sqlite3_step(st);
	store_stmt_done(s, st);
	if (rc == SQLITE_CONSTRAINT_UNIQUE)
		return -EEXIST;
	if (rc != SQLITE_DONE) {
		log_error("storing a message: %s", sqlite3_errmsg(s->db));
		return store_step_err(s, rc);
	}
	*rowid = sqlite3_last_insert_rowid(s->db);
	if ((rc = store_q_media_put(s, *rowid, m->media)) != 0)
		return rc;
	/* the insert trigger's condition (migration 8) */
	if ((m->kind == STORE_MSG_TEXT || m->kind == STORE_MSG_MEDIA) &&
	    m->text_len > 0)
		s->fts_live++;
	return 0;
}

int
store_msg_insert_outgoing(struct store *s, const struct store_msg_new *m,
    int64_t *rowid)
{
	int64_t	 id = 0;
	int	 rc;

	/* a media message whose upload is to run gets its payload after it
	 * (store/store-upload.h) */
	bool	 later = m->media != NULL &&
	    m->media->ul_state == STORE_UL_UPLOADING;

	if (!new_ok(m) || !m->from_me || (!later && (m->payload == NULL ||
	    m->payload_len == 0)))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = insert_row(s, m, STORE_MSG_QUEUED, &id)) == 0 &&
	    m->kind != STORE_MSG_HIDDEN &&
	    (rc = store_q_chat_bump(s, m->chat, m->ts_ms, id, 0)) == 0)
		rc = store_q_preview_sync(s, m->chat, true, m->id);
	if ((rc = store_tx_end(s, rc)) == 0 && rowid != NULL)
		*rowid = id;
	return rc;
}

/* Fill placeholder row rowid with m's content, in place. */
static int
fill_placeholder(struct store *s, int64_t rowid, const struct store_msg_new *m)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "UPDATE message SET sender = ?2, kind = ?3,"
	    " text = ?4, quoted_id = ?5, quoted_sender = ?6, quoted_text = ?7,"
	    " forwarded = ?8 WHERE rowid = ?1")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, rowid);
	store_q_bind_str(st, 2, m->sender);
	sqlite3_bind_int(st, 3, (int)m->kind);
	store_q_bind_text(st, 4, m->text, m->text_len);
	store_q_bind_str(st, 5, m->quoted_id);
	store_q_bind_str(st, 6, m->quoted_sender);
	store_q_bind_str(st, 7, m->quoted_text);
	sqlite3_bind_int64(st, 8, (sqlite3_int64)m->forwarded);
	rc = store_q_run(s, st, "filling a placeholder");
	if (rc >= 0)
		rc = store_q_media_put(s, rowid, m->media);
	return rc < 0 ? rc : 2;
}

/* Look up (chat, from_me, id): 1 with *rowid and *kind, 0, or -EIO. */
static int
find_row(struct store *s, const char *chat, bool from_me, const char *id,
    int64_t *rowid, int *kind)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "SELECT rowid, kind FROM message"
	    " WHERE chat = ?1 AND from_me = ?2 AND id = ?3")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	sqlite3_bind_int(st, 2, from_me);
	store_q_bind_str(st, 3, id);
	if ((rc = store_q_step_one(s, st, "finding a message")) == 1) {
		*rowid = sqlite3_column_int64(st, 0);
		*kind = sqlite3_column_int(st, 1);
	}
	store_stmt_done(s, st);
	return rc;
}

/* Our other devices' messages arrive sent or later; others' received,
 * or read already (history sync). */
static bool
incoming_state_ok(bool from_me, enum store_msg_state state)
{
	if (from_me)
		return state == STORE_MSG_SENT ||
		    state == STORE_MSG_DELIVERED || state == STORE_MSG_READ ||
		    state == STORE_MSG_PLAYED;
	return state == STORE_MSG_RECEIVED || state == STORE_MSG_READ ||
	    state == STORE_MSG_PLAYED;
}

int
store_msg_insert_incoming(struct store *s, const struct store_msg_new *m,
    int64_t *rowid)
{
	int64_t	 id = 0;
	int	 rc, kind = 0;

	if (!new_ok(m))
		return -EINVAL;
	if (!incoming_state_ok(m->from_me, m->state))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	rc = find_row(s, m->chat, m->from_me, m->id, &id, &kind);
	if (rc == 1) {
		if (kind == STORE_MSG_PLACEHOLDER &&
		    m->kind != STORE_MSG_PLACEHOLDER)
			rc = fill_placeholder(s, id, m);
		if (rc == 2 && (rc = store_q_preview_sync(s, m->chat, m->from_me,
		    m->id)) == 0)
			rc = 2;
	} else if (rc == 0) {
		/* A local notice gets no read receipt: it is stored read. */
		rc = insert_row(s, m, !m->from_me && m->kind ==
		    STORE_MSG_NOTICE ? STORE_MSG_READ : m->state, &id);
		if (rc == -EEXIST)	/* cannot happen after find_row */
			rc = -EIO;
		if (rc == 0)
			rc = store_q_chat_bump(s, m->chat, m->ts_ms, id,
			    !m->from_me && m->kind != STORE_MSG_NOTICE &&
			    m->state == STORE_MSG_RECEIVED ? 1 : 0);
		if (rc == 0)
			rc = store_q_preview_sync(s, m->chat, m->from_me, m->id);
	}
	if ((rc = store_tx_end(s, rc)) >= 0 && rowid != NULL)
		*rowid = id;
	return rc;
}

/* Run an UPDATE/DELETE with ?1 chat, ?2 id (and ?3 from_me when
 * from_me >= 0); returns rows changed or -EIO. */
int
store_q_by_key(struct store *s, const char *sql, const char *chat,
    const char *id, int from_me, const char *what)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, sql)) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	if (from_me >= 0)
		sqlite3_bind_int(st, 3, from_me);
	return store_q_run(s, st, what);
}

/* store_q_by_key() and a preview refresh, in one savepoint. */
int
store_q_by_key_sync(struct store *s, const char *sql, const char *chat,
    const char *id, bool from_me, const char *what)
{
	int	 rc;

	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	rc = store_q_then_sync(s, store_q_by_key(s, sql, chat, id, from_me,
	    what), chat, from_me, id);
	return store_tx_end(s, rc);
}
