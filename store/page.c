/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/page.c -- reading messages back (store/store.h): one row with its
 * payload, pages of a chat with their reactions, and the row readers the
 * outbox shares (store_q_read_page()).
 *
 * Paging is by keyset over the index message_page (chat, ts_ms) with the
 * rowid as tiebreak (perf.md U1/U2): a page costs one index seek however
 * deep it lies, and no query loads a whole chat.
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

/* The most reactions attached to the rows of one page. */
#define REACTIONS_PER_PAGE_MAX	8192

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
	m->kind = store_q_kind(sqlite3_column_int64(st, 6));
	m->text = store_q_col_dup(st, 7, &m->text_len);
	m->quoted_id = store_q_col_dup(st, 8, NULL);
	m->quoted_sender = store_q_col_dup(st, 9, NULL);
	m->quoted_text = store_q_col_dup(st, 10, NULL);
	m->state = store_q_state(sqlite3_column_int64(st, 11));
	m->edited_ms = sqlite3_column_int64(st, 12);
	m->deleted = sqlite3_column_int(st, 13) != 0;
	m->attempts = sqlite3_column_int(st, 14);
	m->starred = sqlite3_column_int(st, 15) != 0;
	m->forwarded = (uint32_t)sqlite3_column_int64(st, 16);
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
int
store_q_read_page(struct store *s, sqlite3_stmt *st, size_t max,
    bool payload, struct store_msg_page *p, const char *what)
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

enum page_dir { PAGE_NEWEST, PAGE_OLDEST, PAGE_BEFORE, PAGE_AFTER, PAGE_FROM };

static int
page(struct store *s, const char *chat, enum page_dir dir, int64_t ts_ms,
    int64_t rowid, size_t max, struct store_msg_page *out)
{
	/* kind 5 is STORE_MSG_HIDDEN: never shown; nor a row whose
	 * disappearing-messages time is up (deleted by the engine's timer;
	 * a reader of the shell, or a start, can come before it) */
	static const char *const sql[] = {
		[PAGE_NEWEST] = "SELECT " MSG_COLS " FROM message"
		    " WHERE chat = ?1 AND kind != 5"
		    " AND " STORE_NOT_EXPIRED("")
		    " ORDER BY ts_ms DESC, rowid DESC LIMIT ?2",
		/* The same index walked from its start (Home). */
		[PAGE_OLDEST] = "SELECT " MSG_COLS " FROM message"
		    " WHERE chat = ?1 AND kind != 5"
		    " AND " STORE_NOT_EXPIRED("")
		    " ORDER BY ts_ms, rowid LIMIT ?2",
		/* The range on ts_ms uses the index; the OR only filters the
		 * few rows that share the cursor's ts_ms. */
		[PAGE_BEFORE] = "SELECT " MSG_COLS " FROM message"
		    " WHERE chat = ?1 AND ts_ms <= ?3"
		    " AND (ts_ms < ?3 OR rowid < ?4) AND kind != 5"
		    " AND " STORE_NOT_EXPIRED("")
		    " ORDER BY ts_ms DESC, rowid DESC LIMIT ?2",
		[PAGE_AFTER] = "SELECT " MSG_COLS " FROM message"
		    " WHERE chat = ?1 AND ts_ms >= ?3"
		    " AND (ts_ms > ?3 OR rowid > ?4) AND kind != 5"
		    " AND " STORE_NOT_EXPIRED("")
		    " ORDER BY ts_ms, rowid LIMIT ?2",
		/* One seek to the first row at or after a time (a date). */
		[PAGE_FROM] = "SELECT " MSG_COLS " FROM message"
		    " WHERE chat = ?1 AND ts_ms >= ?3 AND kind != 5"
		    " AND " STORE_NOT_EXPIRED("")
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
	if (dir == PAGE_BEFORE || dir == PAGE_AFTER) {
		sqlite3_bind_int64(st, 3, ts_ms);
		sqlite3_bind_int64(st, 4, rowid);
	} else if (dir == PAGE_FROM)
		sqlite3_bind_int64(st, 3, ts_ms);
	if ((rc = store_q_read_page(s, st, max, false, &p,
	    "loading a page")) != 0)
		return rc;
	/* Read newest first; pages are oldest first. */
	if (dir == PAGE_NEWEST || dir == PAGE_BEFORE)
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
store_msg_page_oldest(struct store *s, const char *chat, size_t max,
    struct store_msg_page *out)
{
	return page(s, chat, PAGE_OLDEST, 0, 0, max, out);
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
store_msg_page_from(struct store *s, const char *chat, int64_t ts_ms,
    size_t max, struct store_msg_page *out)
{
	return page(s, chat, PAGE_FROM, ts_ms, 0, max, out);
}

int
store_msg_first_unread(struct store *s, const char *chat, uint32_t n,
    int64_t *ts_ms, int64_t *rowid)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) || n == 0 ||
	    ts_ms == NULL || rowid == NULL)
		return -EINVAL;
	/* The oldest of the newest n incoming rows that count as unread
	 * (store_msg_insert_incoming(): not ours, not a notice, not
	 * hidden), walked back on message_page. */
	if ((rc = store_q_prep(s, &st, "SELECT ts_ms, rowid FROM"
	    " (SELECT ts_ms, rowid FROM message"
	    "  WHERE chat = ?1 AND from_me = 0 AND kind NOT IN (2, 5)"
	    "  ORDER BY ts_ms DESC, rowid DESC LIMIT ?2)"
	    " ORDER BY ts_ms, rowid LIMIT 1")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	sqlite3_bind_int64(st, 2, (int64_t)n);
	if ((rc = store_q_step_one(s, st, "finding the first unread")) == 1) {
		*ts_ms = sqlite3_column_int64(st, 0);
		*rowid = sqlite3_column_int64(st, 1);
	}
	store_stmt_done(s, st);
	return rc;
}

int
store_msg_stored_after(struct store *s, const char *chat, int64_t rowid,
    size_t max, struct store_msg_page *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) || max == 0 ||
	    max > STORE_MSG_PAGE_MAX || out == NULL)
		return -EINVAL;
	/* The rowid range walks the table from the cursor (only the rows
	 * stored since); "+chat" keeps the planner off the chat index,
	 * which would visit the whole chat. */
	if ((rc = store_q_prep(s, &st, "SELECT " MSG_COLS " FROM message"
	    " WHERE rowid > ?2 AND +chat = ?1 AND kind != 5"
	    " ORDER BY rowid LIMIT ?3")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	sqlite3_bind_int64(st, 2, rowid);
	sqlite3_bind_int64(st, 3, (int64_t)max + 1);
	return store_q_read_page(s, st, max, false, out,
	    "loading the rows stored since");
}

int
store_msg_last_rowid(struct store *s, int64_t *rowid)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (rowid == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT coalesce(max(rowid), 0) FROM"
	    " message")) != 0)
		return rc;
	if ((rc = store_q_step_one(s, st, "reading the last rowid")) == 1)
		*rowid = sqlite3_column_int64(st, 0);
	store_stmt_done(s, st);
	return rc == 1 ? 0 : rc < 0 ? rc : -EIO;
}

int
store_data_version(struct store *s, int64_t *version)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (version == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "PRAGMA data_version")) != 0)
		return rc;
	if ((rc = store_q_step_one(s, st, "reading the data version")) == 1)
		*version = sqlite3_column_int64(st, 0);
	store_stmt_done(s, st);
	return rc == 1 ? 0 : rc < 0 ? rc : -EIO;
}
