/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/message.c -- chats, messages, the outbox, reactions, contacts, the
 * PN-LID mapping and cached device lists (tables chat, message, reaction,
 * contact, lid_map, device_list of schema migration 3; store/store.h).
 *
 * Paging is by keyset over the index message_page (chat, ts_ms) with the
 * rowid as tiebreak (perf.md U1/U2): a page costs one index seek however
 * deep it lies, and no query loads a whole chat.  Writes of more than one
 * row run in a savepoint (store_tx_begin()), so they nest inside the
 * engine's "decrypt + store + ratchet" transaction (reliability.md rule 1).
 *
 * Statements are prepared per call, like store/signal.c: store-int.h's
 * cache has no slots for them yet (a prepare is a few microseconds; the
 * page budget is 1 ms).
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

/* The most reactions attached to the rows of one page. */
#define REACTIONS_PER_PAGE_MAX	8192

#define MSG_COLS "rowid, chat, id, sender, from_me, ts_ms, kind, text," \
	" quoted_id, quoted_sender, quoted_text, state, edited, deleted," \
	" attempts"
#define MSG_NCOLS	15	/* payload, when asked for, is column 15 */

/* Bind p[0..len): text from the network may hold any bytes, NUL too. */
static void
bind_text(sqlite3_stmt *st, int col, const char *p, size_t len)
{
	sqlite3_bind_text(st, col, p != NULL ? p : "", p != NULL ? (int)len :
	    0, SQLITE_STATIC);
}

static enum store_msg_kind
kind_of(int64_t v)
{
	return v >= STORE_MSG_TEXT && v <= STORE_MSG_HIDDEN ?
	    (enum store_msg_kind)v : STORE_MSG_UNSUPPORTED;
}

static enum store_msg_state
state_of(int64_t v)
{
	if (v < STORE_MSG_FAILED)
		return STORE_MSG_FAILED;
	if (v > STORE_MSG_PLAYED)
		return STORE_MSG_PLAYED;
	return (enum store_msg_state)v;
}

/* Fill *m from a row of MSG_COLS (and payload at MSG_NCOLS). */
static void
read_msg(sqlite3_stmt *st, struct store_msg *m, bool payload)
{
	memset(m, 0, sizeof(*m));
	m->rowid = sqlite3_column_int64(st, 0);
	m->chat = store_q_col_dup(st, 1, NULL);
	m->id = store_q_col_dup(st, 2, NULL);
	m->sender = store_q_col_dup(st, 3, NULL);
	m->from_me = sqlite3_column_int(st, 4) != 0;
	m->ts_ms = sqlite3_column_int64(st, 5);
	m->kind = kind_of(sqlite3_column_int64(st, 6));
	m->text = store_q_col_dup(st, 7, &m->text_len);
	m->quoted_id = store_q_col_dup(st, 8, NULL);
	m->quoted_sender = store_q_col_dup(st, 9, NULL);
	m->quoted_text = store_q_col_dup(st, 10, NULL);
	m->state = state_of(sqlite3_column_int64(st, 11));
	m->edited_ms = sqlite3_column_int64(st, 12);
	m->deleted = sqlite3_column_int(st, 13) != 0;
	m->attempts = sqlite3_column_int(st, 14);
	if (payload && sqlite3_column_type(st, MSG_NCOLS) == SQLITE_BLOB) {
		const void	*p = sqlite3_column_blob(st, MSG_NCOLS);
		int		 n = sqlite3_column_bytes(st, MSG_NCOLS);

		if (p != NULL && n > 0) {
			m->payload = xmalloc((size_t)n);
			memcpy(m->payload, p, (size_t)n);
			m->payload_len = (size_t)n;
		}
	}
}

void
store_msg_release(struct store_msg *m)
{
	size_t	 i;

	if (m == NULL)
		return;
	free(m->chat);
	free(m->id);
	free(m->sender);
	free(m->text);
	free(m->quoted_id);
	free(m->quoted_sender);
	free(m->quoted_text);
	if (m->payload != NULL)
		explicit_bzero(m->payload, m->payload_len);
	free(m->payload);
	for (i = 0; i < m->nreactions; i++) {
		free(m->reactions[i].sender);
		free(m->reactions[i].emoji);
	}
	free(m->reactions);
	memset(m, 0, sizeof(*m));
}

void
store_msg_page_free(struct store_msg_page *p)
{
	size_t	 i;

	if (p == NULL)
		return;
	for (i = 0; i < p->n; i++)
		store_msg_release(&p->msgs[i]);
	free(p->msgs);
	memset(p, 0, sizeof(*p));
}

/*
 * Read up to max rows of st (MSG_COLS [+ payload]) into a page; one more
 * row sets more.  Finalizes st.  Returns 0 or -EIO (page freed).
 */
static int
read_page(struct store *s, sqlite3_stmt *st, size_t max, bool payload,
    struct store_msg_page *p, const char *what)
{
	int	 rc;

	memset(p, 0, sizeof(*p));
	p->msgs = xcalloc(max, sizeof(*p->msgs));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (p->n == max) {
			p->more = true;
			break;
		}
		read_msg(st, &p->msgs[p->n++], payload);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("%s: %s", what, sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		store_msg_page_free(p);
		return -EIO;
	}
	store_stmt_done(s, st);
	return 0;
}

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
	    m->kind >= STORE_MSG_TEXT && m->kind <= STORE_MSG_HIDDEN;
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
	    " quoted_text, state, payload)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"))
	    != 0)
		return rc;
	store_q_bind_str(st, 1, m->chat);
	store_q_bind_str(st, 2, m->id);
	store_q_bind_str(st, 3, m->sender);
	sqlite3_bind_int(st, 4, m->from_me);
	sqlite3_bind_int64(st, 5, m->ts_ms);
	sqlite3_bind_int(st, 6, (int)m->kind);
	bind_text(st, 7, m->text, m->text_len);
	store_q_bind_str(st, 8, m->quoted_id);
	store_q_bind_str(st, 9, m->quoted_sender);
	store_q_bind_str(st, 10, m->quoted_text);
	sqlite3_bind_int(st, 11, (int)state);
	if (m->payload != NULL && m->payload_len > 0)
		sqlite3_bind_blob(st, 12, m->payload, (int)m->payload_len,
		    SQLITE_STATIC);
	rc = sqlite3_step(st);
	store_stmt_done(s, st);
	if (rc == SQLITE_CONSTRAINT_UNIQUE)
		return -EEXIST;
	if (rc != SQLITE_DONE) {
		log_error("storing a message: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	*rowid = sqlite3_last_insert_rowid(s->db);
	/* the insert trigger's condition (migration 8) */
	if ((m->kind == STORE_MSG_TEXT || m->kind == STORE_MSG_MEDIA) &&
	    m->text_len > 0)
		s->fts_live++;
	return 0;
}

/*
 * Create chat jid if missing; make (ts_ms, rowid) its newest message when
 * it is newer than the stored one; add unread.  Returns 0 or -EIO.
 */
static int
chat_bump(struct store *s, const char *jid, int64_t ts_ms, int64_t rowid,
    int unread)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "INSERT INTO chat (jid, last_ms, last_rowid,"
	    " unread) VALUES (?1, ?2, ?3, ?4)"
	    " ON CONFLICT (jid) DO UPDATE"
	    " SET unread = unread + excluded.unread,"
	    " last_ms = CASE WHEN (excluded.last_ms, excluded.last_rowid) >"
	    "   (last_ms, last_rowid) THEN excluded.last_ms ELSE last_ms END,"
	    " last_rowid = CASE WHEN (excluded.last_ms, excluded.last_rowid) >"
	    "   (last_ms, last_rowid) THEN excluded.last_rowid"
	    "   ELSE last_rowid END")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_int64(st, 2, ts_ms);
	sqlite3_bind_int64(st, 3, rowid);
	sqlite3_bind_int(st, 4, unread);
	rc = store_q_run(s, st, "updating a chat");
	return rc < 0 ? rc : 0;
}

#define STR_(x)	#x
#define STR(x)	STR_(x)
#define LAST(col, dflt) "COALESCE((SELECT " col " FROM message" \
	" WHERE rowid = chat.last_rowid), " dflt ")"

/*
 * Copy chat jid's newest message into its preview columns (the chat list
 * reads nothing else).  With id (and from_me) only when that message is
 * the newest; id NULL: always.  Returns 0 or -EIO.
 */
int
store_q_preview_sync(struct store *s, const char *jid, bool from_me,
    const char *id)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "UPDATE chat SET"
	    " last_from_me = " LAST("from_me", "0") ","
	    " last_sender = " LAST("sender", "''") ","
	    " last_kind = " LAST("kind", "0") ","
	    " last_state = " LAST("state", "0") ","
	    " last_deleted = " LAST("deleted", "0") ","
	    " last_text = " LAST("substr(text, 1, "
	    STR(STORE_CHAT_PREVIEW_MAX) ")", "''")
	    " WHERE jid = ?1 AND (?2 IS NULL OR last_rowid = (SELECT rowid"
	    "   FROM message WHERE chat = ?1 AND from_me = ?3 AND id = ?2))"))
	    != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	if (id != NULL)
		store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, from_me);
	rc = store_q_run(s, st, "updating a chat preview");
	return rc < 0 ? rc : 0;
}

/* After a write that returned rc (1: one message changed), refresh the
 * preview when that message is the chat's newest.  Returns rc or -EIO. */
static int
then_sync(struct store *s, int rc, const char *jid, bool from_me,
    const char *id)
{
	int	 r;

	if (rc != 1)
		return rc;
	return (r = store_q_preview_sync(s, jid, from_me, id)) != 0 ? r : rc;
}

/* Point chat jid's newest message at what is stored now (after a
 * delete or a time change), with its preview.  Returns 0 or -EIO. */
static int
chat_refresh(struct store *s, const char *jid)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "UPDATE chat SET"
	    " last_ms = COALESCE((SELECT ts_ms FROM message WHERE chat = ?1"
	    "   AND kind != 5"	/* STORE_MSG_HIDDEN */
	    "   ORDER BY ts_ms DESC, rowid DESC LIMIT 1), 0),"
	    " last_rowid = COALESCE((SELECT rowid FROM message WHERE chat = ?1"
	    "   AND kind != 5"	/* STORE_MSG_HIDDEN */
	    "   ORDER BY ts_ms DESC, rowid DESC LIMIT 1), 0)"
	    " WHERE jid = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	rc = store_q_run(s, st, "updating a chat");
	return rc < 0 ? rc : store_q_preview_sync(s, jid, false, NULL);
}

int
store_msg_insert_outgoing(struct store *s, const struct store_msg_new *m,
    int64_t *rowid)
{
	int64_t	 id = 0;
	int	 rc;

	if (!new_ok(m) || !m->from_me || m->payload == NULL ||
	    m->payload_len == 0)
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = insert_row(s, m, STORE_MSG_QUEUED, &id)) == 0 &&
	    m->kind != STORE_MSG_HIDDEN &&
	    (rc = chat_bump(s, m->chat, m->ts_ms, id, 0)) == 0)
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
	    " text = ?4, quoted_id = ?5, quoted_sender = ?6, quoted_text = ?7"
	    " WHERE rowid = ?1")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, rowid);
	store_q_bind_str(st, 2, m->sender);
	sqlite3_bind_int(st, 3, (int)m->kind);
	bind_text(st, 4, m->text, m->text_len);
	store_q_bind_str(st, 5, m->quoted_id);
	store_q_bind_str(st, 6, m->quoted_sender);
	store_q_bind_str(st, 7, m->quoted_text);
	rc = store_q_run(s, st, "filling a placeholder");
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
			rc = chat_bump(s, m->chat, m->ts_ms, id, !m->from_me &&
			    m->kind != STORE_MSG_NOTICE &&
			    m->state == STORE_MSG_RECEIVED ? 1 : 0);
		if (rc == 0)
			rc = store_q_preview_sync(s, m->chat, m->from_me, m->id);
	}
	if ((rc = store_tx_end(s, rc)) >= 0 && rowid != NULL)
		*rowid = id;
	return rc;
}

int
store_msg_outbox(struct store *s, size_t max, struct store_msg_page *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (max == 0 || max > STORE_MSG_PAGE_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT " MSG_COLS ", payload FROM message"
	    " WHERE state = 0 ORDER BY rowid LIMIT ?1")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, (int64_t)max + 1);
	return read_page(s, st, max, true, out, "loading the outbox");
}

/* Run an UPDATE/DELETE with ?1 chat, ?2 id (and ?3 from_me when
 * from_me >= 0); returns rows changed or -EIO. */
static int
by_key(struct store *s, const char *sql, const char *chat, const char *id,
    int from_me, const char *what)
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

int
store_msg_note_attempt(struct store *s, const char *chat, const char *id)
{
	return by_key(s, "UPDATE message SET attempts = attempts + 1"
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
		int	 r = chat_refresh(s, chat);

		if (r != 0)
			rc = r;
	} else {
		rc = then_sync(s, rc, chat, true, id);
	}
	return store_tx_end(s, rc);
}

int
store_msg_mark(struct store *s, const char *chat, bool from_me,
    const char *id, enum store_msg_state state)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (state != STORE_MSG_DELIVERED && state != STORE_MSG_READ &&
	    state != STORE_MSG_PLAYED)
		return -EINVAL;
	if (!store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	/* state >= 0: a FAILED message is never revived by a receipt. */
	if ((rc = store_q_prep(s, &st, "UPDATE message SET state = ?4"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = ?3"
	    " AND state >= 0 AND state < ?4")) == 0) {
		store_q_bind_str(st, 1, chat);
		store_q_bind_str(st, 2, id);
		sqlite3_bind_int(st, 3, from_me);
		sqlite3_bind_int(st, 4, (int)state);
		rc = then_sync(s, store_q_run(s, st, "applying a receipt"), chat,
		    from_me, id);
	}
	return store_tx_end(s, rc);
}

int
store_msg_recipients(struct store *s, const char *chat, const char *id,
    unsigned recipients)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true) || recipients > 100000)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "UPDATE message SET recipients = ?3"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = 1")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, (int)recipients);
	return store_q_run(s, st, "recording a group message's recipients");
}

/* How many members of (chat, id) delivered it (a read counts: only
 * DELIVERED and READ are kept) into *delivered, and read it into *read.
 * Returns 0 or -EIO. */
static int
members_at(struct store *s, const char *chat, const char *id,
    int *delivered, int *read)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "SELECT count(*),"
	    " coalesce(sum(state >= ?3), 0) FROM member_receipt"
	    " WHERE chat = ?1 AND id = ?2")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, STORE_MSG_READ);
	if ((rc = store_q_step_one(s, st, "counting receipts")) == 1) {
		*delivered = sqlite3_column_int(st, 0);
		*read = sqlite3_column_int(st, 1);
		rc = 0;
	} else if (rc == 0)
		rc = -EIO;
	store_stmt_done(s, st);
	return rc;
}

int
store_msg_member_receipt(struct store *s, const char *chat, const char *id,
    const char *member, enum store_msg_state state)
{
	sqlite3_stmt	*st;
	int		 rc, n = 0, cur = 0, to = 0, got = 0, seen = 0;

	if (state == STORE_MSG_PLAYED)
		state = STORE_MSG_READ;
	if ((state != STORE_MSG_DELIVERED && state != STORE_MSG_READ) ||
	    !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true) ||
	    !store_q_str_ok(member, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = store_q_prep(s, &st, "SELECT recipients, state FROM message"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = 1")) != 0)
		goto out;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	if ((rc = store_q_step_one(s, st, "reading a group message")) == 1) {
		n = sqlite3_column_int(st, 0);
		cur = sqlite3_column_int(st, 1);
	}
	store_stmt_done(s, st);
	/* unknown, FAILED, or every member read it already */
	if (rc <= 0 || cur < 0 || cur >= (int)STORE_MSG_READ) {
		rc = rc < 0 ? rc : 0;
		goto out;
	}
	if (n == 0) {		/* no count: the first receipt moves it */
		to = (int)state;
		goto move;
	}
	if ((rc = store_q_prep(s, &st, "INSERT INTO member_receipt"
	    " (chat, id, member, state) VALUES (?1, ?2, ?3, ?4)"
	    " ON CONFLICT (chat, id, member) DO UPDATE"
	    " SET state = max(state, excluded.state)")) != 0)
		goto out;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	store_q_bind_str(st, 3, member);
	sqlite3_bind_int(st, 4, (int)state);
	if ((rc = store_q_run(s, st, "recording a receipt")) < 0)
		goto out;
	if ((rc = members_at(s, chat, id, &got, &seen)) < 0)
		goto out;
	to = seen >= n ? STORE_MSG_READ : got >= n ? STORE_MSG_DELIVERED : 0;
move:
	rc = 0;
	if (to <= cur)
		goto out;
	if ((rc = store_q_prep(s, &st, "UPDATE message SET state = ?3"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = 1")) != 0)
		goto out;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, to);
	rc = then_sync(s, store_q_run(s, st, "applying a receipt"), chat, true,
	    id);
	if (rc == 1 && to == STORE_MSG_READ && n > 0) {
		if ((rc = store_q_prep(s, &st, "DELETE FROM member_receipt"
		    " WHERE chat = ?1 AND id = ?2")) == 0) {
			store_q_bind_str(st, 1, chat);
			store_q_bind_str(st, 2, id);
			rc = store_q_run(s, st, "dropping receipts");
		}
		if (rc >= 0)
			rc = 1;
	}
	if (rc == 1)
		rc = to;
out:
	return store_tx_end(s, rc);
}

/* by_key() and a preview refresh, in one savepoint. */
static int
by_key_sync(struct store *s, const char *sql, const char *chat,
    const char *id, bool from_me, const char *what)
{
	int	 rc;

	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	rc = then_sync(s, by_key(s, sql, chat, id, from_me, what), chat,
	    from_me, id);
	return store_tx_end(s, rc);
}

int
store_msg_mark_failed(struct store *s, const char *chat, const char *id)
{
	return by_key_sync(s, "UPDATE message SET state = -1"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = ?3 AND state = 0",
	    chat, id, true, "marking a message failed");
}

int
store_msg_retry(struct store *s, const char *chat, const char *id)
{
	return by_key_sync(s, "UPDATE message SET state = 0, attempts = 0"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = ?3 AND state = -1",
	    chat, id, true, "requeueing a message");
}

int
store_msg_delete_failed(struct store *s, const char *chat, const char *id)
{
	int	 rc;

	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	rc = by_key(s, "DELETE FROM message"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = 1 AND state = -1",
	    chat, id, -1, "deleting a message");
	if (rc == 1) {
		int	 r = chat_refresh(s, chat);

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

int
store_msg_get(struct store *s, const char *chat, bool from_me, const char *id,
    struct store_msg *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true) || out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT " MSG_COLS ", payload FROM message"
	    " WHERE chat = ?1 AND from_me = ?2 AND id = ?3")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	sqlite3_bind_int(st, 2, from_me);
	store_q_bind_str(st, 3, id);
	if ((rc = store_q_step_one(s, st, "loading a message")) == 1) {
		read_msg(st, out, true);
	}
	store_stmt_done(s, st);
	return rc;
}

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
	    " AND edited < ?5")) == 0) {
		store_q_bind_str(st, 1, chat);
		store_q_bind_str(st, 2, id);
		sqlite3_bind_int(st, 3, from_me);
		bind_text(st, 4, text, text_len);
		sqlite3_bind_int64(st, 5, edit_ms);
		rc = then_sync(s, store_q_run(s, st, "editing a message"), chat,
		    from_me, id);
	}
	return store_tx_end(s, rc);
}

int
store_msg_revoke(struct store *s, const char *chat, bool from_me,
    const char *id)
{
	/* An unsent (QUEUED) row keeps its payload: the outbox sends it
	 * before the revoke that follows it. */
	return by_key_sync(s, "UPDATE message SET deleted = 1, text = '',"
	    " quoted_id = '', quoted_sender = '', quoted_text = '',"
	    " payload = CASE WHEN state = 0 THEN payload ELSE NULL END"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = ?3 AND deleted = 0",
	    chat, id, from_me, "revoking a message");
}

/*
 * Attach the reactions on the rows of p (ascending (ts_ms, rowid)), in
 * one query over the page's key range.  Returns 0 or -EIO.
 */
static int
attach_reactions(struct store *s, const char *chat, struct store_msg_page *p)
{
	const struct store_msg	*first, *last;
	sqlite3_stmt		*st;
	size_t			 i = 0;
	int			 rc;

	if (p->n == 0)
		return 0;
	first = &p->msgs[0];
	last = &p->msgs[p->n - 1];
	if ((rc = store_q_prep(s, &st, "SELECT m.rowid, r.sender, r.emoji, r.ts_ms"
	    " FROM message m JOIN reaction r"
	    "   ON r.chat = m.chat AND r.target_id = m.id"
	    " WHERE m.chat = ?1 AND m.ts_ms BETWEEN ?2 AND ?4"
	    " AND (m.ts_ms, m.rowid) >= (?2, ?3)"
	    " AND (m.ts_ms, m.rowid) <= (?4, ?5) AND r.emoji <> ''"
	    " ORDER BY m.ts_ms, m.rowid, r.ts_ms LIMIT ?6")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	sqlite3_bind_int64(st, 2, first->ts_ms);
	sqlite3_bind_int64(st, 3, first->rowid);
	sqlite3_bind_int64(st, 4, last->ts_ms);
	sqlite3_bind_int64(st, 5, last->rowid);
	sqlite3_bind_int(st, 6, REACTIONS_PER_PAGE_MAX);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t			 rowid;
		struct store_msg	*m;
		struct store_reaction	*r;

		rowid = sqlite3_column_int64(st, 0);
		while (i < p->n && p->msgs[i].rowid != rowid)
			i++;
		if (i == p->n)
			break;	/* rows come in page order */
		m = &p->msgs[i];
		m->reactions = xrealloc(m->reactions, (m->nreactions + 1) *
		    sizeof(*m->reactions));
		r = &m->reactions[m->nreactions++];
		r->sender = store_q_col_dup(st, 1, NULL);
		r->emoji = store_q_col_dup(st, 2, NULL);
		r->ts_ms = sqlite3_column_int64(st, 3);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("loading reactions: %s", sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		return -EIO;
	}
	store_stmt_done(s, st);
	return 0;
}

enum page_dir { PAGE_NEWEST, PAGE_BEFORE, PAGE_AFTER };

static int
page(struct store *s, const char *chat, enum page_dir dir, int64_t ts_ms,
    int64_t rowid, size_t max, struct store_msg_page *out)
{
	/* kind 5 is STORE_MSG_HIDDEN: never shown */
	static const char *const sql[] = {
		[PAGE_NEWEST] = "SELECT " MSG_COLS " FROM message"
		    " WHERE chat = ?1 AND kind != 5"
		    " ORDER BY ts_ms DESC, rowid DESC LIMIT ?2",
		/* The range on ts_ms uses the index; the OR only filters the
		 * few rows that share the cursor's ts_ms. */
		[PAGE_BEFORE] = "SELECT " MSG_COLS " FROM message"
		    " WHERE chat = ?1 AND ts_ms <= ?3"
		    " AND (ts_ms < ?3 OR rowid < ?4) AND kind != 5"
		    " ORDER BY ts_ms DESC, rowid DESC LIMIT ?2",
		[PAGE_AFTER] = "SELECT " MSG_COLS " FROM message"
		    " WHERE chat = ?1 AND ts_ms >= ?3"
		    " AND (ts_ms > ?3 OR rowid > ?4) AND kind != 5"
		    " ORDER BY ts_ms, rowid LIMIT ?2",
	};
	struct store_msg_page	 p;
	sqlite3_stmt		*st;
	size_t			 i;
	int			 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) || max == 0 ||
	    max > STORE_MSG_PAGE_MAX || out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, sql[dir])) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	sqlite3_bind_int64(st, 2, (int64_t)max + 1);
	if (dir != PAGE_NEWEST) {
		sqlite3_bind_int64(st, 3, ts_ms);
		sqlite3_bind_int64(st, 4, rowid);
	}
	if ((rc = read_page(s, st, max, false, &p, "loading a page")) != 0)
		return rc;
	/* Read newest first; pages are oldest first. */
	if (dir != PAGE_AFTER)
		for (i = 0; i < p.n / 2; i++) {
			struct store_msg	 t = p.msgs[i];

			p.msgs[i] = p.msgs[p.n - 1 - i];
			p.msgs[p.n - 1 - i] = t;
		}
	if ((rc = attach_reactions(s, chat, &p)) != 0) {
		store_msg_page_free(&p);
		return rc;
	}
	*out = p;
	return 0;
}

int
store_msg_page_newest(struct store *s, const char *chat, size_t max,
    struct store_msg_page *out)
{
	return page(s, chat, PAGE_NEWEST, 0, 0, max, out);
}

int
store_msg_page_before(struct store *s, const char *chat, int64_t ts_ms,
    int64_t rowid, size_t max, struct store_msg_page *out)
{
	return page(s, chat, PAGE_BEFORE, ts_ms, rowid, max, out);
}

int
store_msg_page_after(struct store *s, const char *chat, int64_t ts_ms,
    int64_t rowid, size_t max, struct store_msg_page *out)
{
	return page(s, chat, PAGE_AFTER, ts_ms, rowid, max, out);
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

void
store_chat_list_free(struct store_chat_list *l)
{
	size_t	 i;

	if (l == NULL)
		return;
	for (i = 0; i < l->n; i++) {
		struct store_chat	*c = &l->chats[i];

		free(c->jid);
		free(c->name);
		free(c->contact_name);
		free(c->push_name);
		free(c->last_sender);
		free(c->last_text);
	}
	free(l->chats);
	memset(l, 0, sizeof(*l));
}

void
store_q_chat_head(sqlite3_stmt *st, struct store_chat *c)
{
	memset(c, 0, sizeof(*c));
	c->jid = store_q_col_dup(st, 0, NULL);
	c->name = store_q_col_dup(st, 1, NULL);
	c->contact_name = store_q_col_dup(st, 2, NULL);
	c->push_name = store_q_col_dup(st, 3, NULL);
	c->last_ms = sqlite3_column_int64(st, 4);
	c->unread = sqlite3_column_int(st, 5);
	c->muted_until = sqlite3_column_int64(st, 6);
	c->pinned = sqlite3_column_int64(st, 7);
	c->archived = sqlite3_column_int(st, 8) != 0;
	c->last_read_rowid = sqlite3_column_int64(st, 9);
	c->last_rowid = sqlite3_column_int64(st, 10);
}

int
store_chat_list(struct store *s, bool archived, size_t max,
    struct store_chat_list *out)
{
	struct store_chat_list	 l;
	sqlite3_stmt		*st;
	size_t			 cap = 0;
	int			 rc;

	if (max == 0 || max > INT32_MAX || out == NULL)
		return -EINVAL;
	/* One query over the chat table (which holds each chat's preview),
	 * with the names by the contact's primary key: no query per chat and
	 * no read into the message table. */
	if ((rc = store_q_prep(s, &st, "SELECT c.jid, c.name, COALESCE(k.name, ''),"
	    " COALESCE(k.push_name, ''), c.last_ms, c.unread, c.muted_until,"
	    " c.pinned, c.archived, c.last_read_rowid, c.last_rowid,"
	    " c.last_from_me, c.last_sender, c.last_kind, c.last_state,"
	    " c.last_deleted, c.last_text"
	    " FROM chat c LEFT JOIN contact k ON k.jid = c.jid"
	    " WHERE c.archived = ?1"
	    " ORDER BY c.pinned DESC, c.last_ms DESC LIMIT ?2")) != 0)
		return rc;
	sqlite3_bind_int(st, 1, archived);
	sqlite3_bind_int64(st, 2, (int64_t)max + 1);
	memset(&l, 0, sizeof(l));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_chat	*c;

		if (l.n == max) {
			l.more = true;
			break;
		}
		if (l.n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			l.chats = xrealloc(l.chats, cap * sizeof(*l.chats));
		}
		c = &l.chats[l.n++];
		store_q_chat_head(st, c);
		c->last_from_me = sqlite3_column_int(st, 11) != 0;
		c->last_sender = store_q_col_dup(st, 12, NULL);
		c->last_kind = kind_of(sqlite3_column_int64(st, 13));
		c->last_state = state_of(sqlite3_column_int64(st, 14));
		c->last_deleted = sqlite3_column_int(st, 15) != 0;
		c->last_text = store_q_col_dup(st, 16, &c->last_text_len);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("loading the chat list: %s", sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		store_chat_list_free(&l);
		return -EIO;
	}
	store_stmt_done(s, st);
	*out = l;
	return 0;
}

int
store_chat_set_name(struct store *s, const char *jid, const char *name)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) ||
	    !store_q_str_ok(name, STORE_NAME_MAX, false))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT INTO chat (jid, name) VALUES (?1, ?2)"
	    " ON CONFLICT (jid) DO UPDATE SET name = excluded.name")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	store_q_bind_str(st, 2, name);
	rc = store_q_run(s, st, "naming a chat");
	return rc < 0 ? rc : 0;
}

int
store_chat_set_flags(struct store *s, const char *jid, int64_t muted_until,
    int64_t pinned, bool archived)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || muted_until < -1 ||
	    pinned < 0)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT INTO chat (jid, muted_until, pinned,"
	    " archived) VALUES (?1, ?2, ?3, ?4)"
	    " ON CONFLICT (jid) DO UPDATE"
	    " SET muted_until = excluded.muted_until,"
	    " pinned = excluded.pinned, archived = excluded.archived")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_int64(st, 2, muted_until);
	sqlite3_bind_int64(st, 3, pinned);
	sqlite3_bind_int(st, 4, archived);
	rc = store_q_run(s, st, "setting chat flags");
	return rc < 0 ? rc : 0;
}

void
store_msg_refs_free(struct store_msg_ref *ids, size_t n)
{
	size_t	 i;

	if (ids == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(ids[i].id);
		free(ids[i].sender);
	}
	free(ids);
}

/* Read the oldest RECEIVED rows of jid (up to max, one more sets *more)
 * and mark them READ.  Returns 0 or -EIO. */
static int
take_unread(struct store *s, const char *jid, size_t max,
    struct store_msg_ref **ids, size_t *n, bool *more)
{
	struct store_msg_ref	*r = xcalloc(max, sizeof(*r));
	sqlite3_stmt		*st;
	size_t			 k = 0;
	int			 rc;

	*more = false;
	/* "state = 3" is literal so the partial index message_unread
	 * serves it. */
	if ((rc = store_q_prep(s, &st, "SELECT id, sender, ts_ms FROM message"
	    " WHERE chat = ?1 AND state = 3"
	    " ORDER BY ts_ms, rowid LIMIT ?2")) != 0)
		goto fail;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_int64(st, 2, (int64_t)max + 1);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (k == max) {
			*more = true;
			break;
		}
		r[k].id = store_q_col_dup(st, 0, NULL);
		r[k].sender = store_q_col_dup(st, 1, NULL);
		r[k].ts_ms = sqlite3_column_int64(st, 2);
		k++;
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("loading unread messages: %s", sqlite3_errmsg(s->db));
		rc = -EIO;
		goto fail;
	}
	if ((rc = store_q_prep(s, &st, "UPDATE message SET state = 4"
	    " WHERE rowid IN (SELECT rowid FROM message"
	    "   WHERE chat = ?1 AND state = 3 ORDER BY ts_ms, rowid LIMIT ?2)"))
	    != 0)
		goto fail;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_int64(st, 2, (int64_t)k);
	if ((rc = store_q_run(s, st, "marking messages read")) < 0)
		goto fail;
	*ids = r;
	*n = k;
	return 0;
fail:
	store_msg_refs_free(r, k);
	return rc;
}

int
store_chat_mark_read(struct store *s, const char *jid, size_t max,
    struct store_msg_ref **ids, size_t *n)
{
	struct store_msg_ref	*r = NULL;
	sqlite3_stmt		*st;
	size_t			 k = 0;
	bool			 more = false;
	int			 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || max == 0 ||
	    max > STORE_MSG_PAGE_MAX || ids == NULL || n == NULL)
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = take_unread(s, jid, max, &r, &k, &more)) == 0 &&
	    (rc = store_q_prep(s, &st, "UPDATE chat SET unread = 0,"
	    " last_read_rowid = last_rowid WHERE jid = ?1")) == 0) {
		store_q_bind_str(st, 1, jid);
		if ((rc = store_q_run(s, st, "marking a chat read")) >= 0)
			rc = store_q_preview_sync(s, jid, false, NULL);
	}
	if ((rc = store_tx_end(s, rc)) < 0) {
		store_msg_refs_free(r, k);
		return rc;
	}
	*ids = r;
	*n = k;
	return more ? 1 : 0;
}

static int
contact_set(struct store *s, const char *sql, const char *jid,
    const char *name)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) ||
	    !store_q_str_ok(name, STORE_NAME_MAX, false))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, sql)) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	store_q_bind_str(st, 2, name);
	rc = store_q_run(s, st, "storing a contact");
	return rc < 0 ? rc : 0;
}

int
store_contact_set_push_name(struct store *s, const char *jid,
    const char *push_name)
{
	return contact_set(s, "INSERT INTO contact (jid, push_name)"
	    " VALUES (?1, ?2) ON CONFLICT (jid) DO UPDATE"
	    " SET push_name = excluded.push_name", jid, push_name);
}

int
store_contact_set_name(struct store *s, const char *jid, const char *name)
{
	return contact_set(s, "INSERT INTO contact (jid, name)"
	    " VALUES (?1, ?2) ON CONFLICT (jid) DO UPDATE"
	    " SET name = excluded.name", jid, name);
}

int
store_contact_get(struct store *s, const char *jid, struct store_contact *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT push_name, name FROM contact"
	    " WHERE jid = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	if ((rc = store_q_step_one(s, st, "loading a contact")) == 1) {
		store_q_col_copy(st, 0, out->push_name, sizeof(out->push_name));
		store_q_col_copy(st, 1, out->name, sizeof(out->name));
	}
	store_stmt_done(s, st);
	return rc;
}

int
store_lid_put(struct store *s, const char *pn, const char *lid)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(pn, STORE_JID_MAX, true) ||
	    !store_q_str_ok(lid, STORE_JID_MAX, true))
		return -EINVAL;
	/* OR REPLACE drops a row that holds either side; the WHERE makes a
	 * repeated pair a no-op that reports 0. */
	if ((rc = store_q_prep(s, &st, "INSERT OR REPLACE INTO lid_map (pn, lid)"
	    " SELECT ?1, ?2 WHERE NOT EXISTS"
	    " (SELECT 1 FROM lid_map WHERE pn = ?1 AND lid = ?2)")) != 0)
		return rc;
	store_q_bind_str(st, 1, pn);
	store_q_bind_str(st, 2, lid);
	rc = store_q_run(s, st, "storing a PN-LID mapping");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

static int
lid_get(struct store *s, const char *sql, const char *key,
    char out[STORE_JID_MAX + 1])
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(key, STORE_JID_MAX, true) || out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, sql)) != 0)
		return rc;
	store_q_bind_str(st, 1, key);
	if ((rc = store_q_step_one(s, st, "loading a PN-LID mapping")) == 1)
		store_q_col_copy(st, 0, out, STORE_JID_MAX + 1);
	store_stmt_done(s, st);
	return rc;
}

int
store_lid_get_lid(struct store *s, const char *pn, char out[STORE_JID_MAX + 1])
{
	return lid_get(s, "SELECT lid FROM lid_map WHERE pn = ?1", pn, out);
}

int
store_lid_get_pn(struct store *s, const char *lid, char out[STORE_JID_MAX + 1])
{
	return lid_get(s, "SELECT pn FROM lid_map WHERE lid = ?1", lid, out);
}

/* A device list entry: id u32 BE, key index u32 BE, hosted (0 or 1). */
#define DEVLIST_ENTRY_LEN	9

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t
get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

int
store_devlist_put(struct store *s, const char *user,
    const struct store_devlist_entry *devs, size_t n, int64_t fetched_ms)
{
	uint8_t		 blob[STORE_DEVLIST_MAX * DEVLIST_ENTRY_LEN + 1];
	sqlite3_stmt	*st;
	size_t		 i;
	int		 rc;

	if (!store_q_str_ok(user, STORE_JID_MAX, true) || n > STORE_DEVLIST_MAX ||
	    (devs == NULL && n > 0))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		uint8_t	*p = blob + i * DEVLIST_ENTRY_LEN;

		put_be32(p, devs[i].id);
		put_be32(p + 4, devs[i].key_index);
		p[8] = devs[i].hosted ? 1 : 0;
	}
	if ((rc = store_q_prep(s, &st, "INSERT OR REPLACE INTO device_list"
	    " (user, devices, fetched_ms) VALUES (?1, ?2, ?3)")) != 0)
		return rc;
	store_q_bind_str(st, 1, user);
	/* An empty list is a zero-length blob (the column is NOT NULL). */
	sqlite3_bind_blob(st, 2, blob, (int)(n * DEVLIST_ENTRY_LEN),
	    SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, fetched_ms);
	rc = store_q_run(s, st, "caching a device list");
	return rc < 0 ? rc : 0;
}

int
store_devlist_get(struct store *s, const char *user,
    struct store_devlist_entry *out, size_t max, int64_t *fetched_ms)
{
	const uint8_t	*p;
	sqlite3_stmt	*st;
	size_t		 len, n, i;
	int		 rc;

	if (!store_q_str_ok(user, STORE_JID_MAX, true) || (out == NULL && max > 0))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT devices, fetched_ms FROM device_list"
	    " WHERE user = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, user);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		store_stmt_done(s, st);
		return -ENOENT;
	}
	if (rc != SQLITE_ROW) {
		log_error("loading a device list: %s", sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		return -EIO;
	}
	p = sqlite3_column_blob(st, 0);
	len = (size_t)sqlite3_column_bytes(st, 0);
	if (len % DEVLIST_ENTRY_LEN != 0 ||
	    len / DEVLIST_ENTRY_LEN > STORE_DEVLIST_MAX ||
	    (p == NULL && len > 0)) {
		log_error("a cached device list is corrupt (%zu bytes)", len);
		store_stmt_done(s, st);
		return -EIO;
	}
	n = len / DEVLIST_ENTRY_LEN;
	for (i = 0; i < n && i < max; i++) {
		const uint8_t	*e = p + i * DEVLIST_ENTRY_LEN;

		out[i].id = get_be32(e);
		out[i].key_index = get_be32(e + 4);
		out[i].hosted = e[8] != 0;
	}
	if (fetched_ms != NULL)
		*fetched_ms = sqlite3_column_int64(st, 1);
	store_stmt_done(s, st);
	return (int)n;
}

int
store_devlist_forget(struct store *s, const char *user)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(user, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "DELETE FROM device_list WHERE user = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, user);
	rc = store_q_run(s, st, "forgetting a device list");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}
