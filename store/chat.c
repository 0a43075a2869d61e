/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/chat.c -- the chat table (schema migration 3; store/store.h): a
 * chat's newest message and the copy of its preview, kept current for
 * every file that writes messages (store-int.h), and the chat list, names
 * and app-state flags.
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

/*
 * Create chat jid if missing; make (ts_ms, rowid) its newest message when
 * it is newer than the stored one; add unread.  Returns 0 or -EIO.
 */
int
store_q_chat_bump(struct store *s, const char *jid, int64_t ts_ms,
    int64_t rowid, int unread)
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
int
store_q_then_sync(struct store *s, int rc, const char *jid, bool from_me,
    const char *id)
{
	int	 r;

	if (rc != 1)
		return rc;
	return (r = store_q_preview_sync(s, jid, from_me, id)) != 0 ? r : rc;
}

/* Point chat jid's newest message at what is stored now (after a
 * delete or a time change), with its preview.  Returns 0 or -EIO. */
int
store_q_chat_refresh(struct store *s, const char *jid)
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
		free(c->draft);
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
	c->marked_unread = sqlite3_column_int(st, 11) != 0;
	c->locked = sqlite3_column_int(st, 12) != 0;
}

/* The columns store_chat_list() reads after the chat head. */
#define H	CHAT_HEAD_NCOLS

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
	if ((rc = store_q_prep(s, &st, "SELECT " CHAT_HEAD_COLS ", c.last_from_me, c.last_sender, c.last_kind, c.last_state,"
	    " c.last_deleted, c.last_text, c.draft, c.peek,"
	    " (SELECT type FROM media WHERE msg = c.last_rowid), c.ephemeral_s"
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
		c->last_from_me = sqlite3_column_int(st, H + 0) != 0;
		c->last_sender = store_q_col_dup(st, H + 1, NULL);
		c->last_kind = store_q_kind(sqlite3_column_int64(st, H + 2));
		c->last_state = store_q_state(sqlite3_column_int64(st, H + 3));
		c->last_deleted = sqlite3_column_int(st, H + 4) != 0;
		c->last_text = store_q_col_dup(st, H + 5, &c->last_text_len);
		c->draft = store_q_col_dup(st, H + 6, NULL);
		c->peek = sqlite3_column_int(st, H + 7);
		if (c->peek < 0 || c->peek > 2)
			c->peek = 0;	/* not ours: as the setting */
		c->last_media = sqlite3_column_int(st, H + 8);
		c->ephemeral_s = (uint32_t)sqlite3_column_int64(st, H + 9);
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

int
store_chat_set_draft(struct store *s, const char *jid, const char *text)
{
	sqlite3_stmt	*st;
	bool		 clear = text == NULL || text[0] == '\0';
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) ||
	    !store_q_str_ok(text, STORE_DRAFT_MAX, false))
		return -EINVAL;
	/* a draft cleared creates no chat; one kept may (a chat started
	 * by number, nothing sent in it yet) */
	if ((rc = store_q_prep(s, &st, clear ?
	    "UPDATE chat SET draft = '' WHERE jid = ?1 AND draft != ''" :
	    "INSERT INTO chat (jid, draft) VALUES (?1, ?2)"
	    " ON CONFLICT (jid) DO UPDATE SET draft = excluded.draft")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	if (!clear)
		store_q_bind_str(st, 2, text);
	rc = store_q_run(s, st, "keeping a draft");
	return rc < 0 ? rc : 0;
}

int
store_chat_set_peek(struct store *s, const char *jid, bool on)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT INTO chat (jid, peek)"
	    " VALUES (?1, ?2) ON CONFLICT (jid) DO UPDATE"
	    " SET peek = excluded.peek")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_int(st, 2, on ? 1 : 2);
	rc = store_q_run(s, st, "setting peek");
	return rc < 0 ? rc : 0;
}

int
store_chat_unread_summary(struct store *s, int64_t now_ms,
    struct store_unread_summary *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (out == NULL)
		return -EINVAL;
	/* ?1: now; a chat counts when it is neither muted nor archived. */
#define SHOWN	"archived = 0 AND muted_until != -1 AND muted_until <= ?1"
#define UNREAD	"(unread > 0 OR marked_unread != 0)"
	if ((rc = store_q_prep(s, &st, "SELECT"
	    " COALESCE(SUM(CASE WHEN " SHOWN " AND unread > 0 THEN unread END),"
	    "   0),"
	    " COUNT(CASE WHEN " SHOWN " AND " UNREAD " THEN 1 END),"
	    " COUNT(CASE WHEN archived != 0 AND " UNREAD " THEN 1 END)"
	    " FROM chat")) != 0)
		return rc;
#undef SHOWN
#undef UNREAD
	sqlite3_bind_int64(st, 1, now_ms);
	if ((rc = store_q_step_one(s, st, "counting unread chats")) == 1) {
		out->messages = sqlite3_column_int64(st, 0);
		out->chats = sqlite3_column_int(st, 1);
		out->archived = sqlite3_column_int(st, 2);
	}
	store_stmt_done(s, st);
	return rc == 1 ? 0 : rc < 0 ? rc : -EIO;
}
