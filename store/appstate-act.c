/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/appstate-act.c -- committing a verified app-state patch or
 * snapshot (store_as_commit()) and applying decoded actions to chats,
 * contacts and messages (store_as_apply()); store/store-appstate.h,
 * schema migration 14, protocol-features.md 2.1, 2.2, 2.6, 2.8.
 *
 * One run holds each statement it needs from the connection's cache for
 * the whole commit (taken at its first use, reset after each step, handed
 * back at the end), binds strings and blobs SQLITE_STATIC, and checks
 * each action as it comes: an invalid one fails the run, and the
 * savepoint around it undoes everything written before.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"

/* The statements of a run, by use. */
enum as_q {
	Q_MAC_SET,
	Q_MAC_DEL,
	Q_MAC_CLEAR,
	Q_RAW_CLEAR,
	Q_STATE_GET,
	Q_STATE_PUT,
	Q_CONTACT_SET,
	Q_CONTACT_CLEAR,
	Q_PUSH_NAME,
	Q_RAW_SET,
	Q_RAW_DEL,
	Q_READ_MSGS,
	Q_READ_CHAT,
	Q_STAR,
	Q_STAR_KEEP,
	Q_STAR_FORGET,
	Q_STAR_FORGET_CHAT,
	Q_MSG_DEL,
	Q_REACT_DEL,
	Q_RCPT_DEL,
	Q_UNREAD_DEC,
	Q_RANGE_DEL,
	Q_REACT_ORPHANS,
	Q_RCPT_ORPHANS,
	Q_CHAT_DEL_EMPTY,
	Q_UNREAD_RECOUNT,
	/* a chat flag's UPDATE, then (the chat missing, the flag on) its
	 * INSERT: F_* below, in pairs */
	Q_FLAG_,
	Q_COUNT_ = Q_FLAG_ + 10
};

/* The chat columns app state sets. */
enum as_flag {
	F_MUTED,
	F_PINNED,
	F_ARCHIVED,
	F_UNREAD,
	F_LOCKED,
};

/* A message row that counts in the unread count: not ours, not a notice
 * (2) nor hidden (5), RECEIVED (3). */
#define UNREAD_ROW "from_me = 0 AND state = 3 AND kind NOT IN (2, 5)"

static const char *const as_sql[Q_COUNT_] = {
	[Q_MAC_SET] = "INSERT OR REPLACE INTO as_mac"
	    " (collection, index_mac, value_mac) VALUES (?1, ?2, ?3)",
	[Q_MAC_DEL] = "DELETE FROM as_mac WHERE collection = ?1"
	    " AND index_mac = ?2",
	[Q_MAC_CLEAR] = "DELETE FROM as_mac WHERE collection = ?1",
	[Q_RAW_CLEAR] = "DELETE FROM as_raw WHERE collection = ?1",
	[Q_STATE_GET] = "SELECT version FROM as_state WHERE collection = ?1",
	[Q_STATE_PUT] = "INSERT OR REPLACE INTO as_state"
	    " (collection, version, hash) VALUES (?1, ?2, ?3)",
	[Q_CONTACT_SET] = "INSERT INTO contact (jid, name, first_name)"
	    " VALUES (?1, ?2, ?3) ON CONFLICT (jid) DO UPDATE"
	    " SET name = excluded.name, first_name = excluded.first_name",
	[Q_CONTACT_CLEAR] = "UPDATE contact SET name = '', first_name = ''"
	    " WHERE jid = ?1",
	[Q_PUSH_NAME] = "INSERT OR REPLACE INTO as_setting (name, value, ts_ms)"
	    " VALUES ('push_name', ?1, ?2)",
	[Q_RAW_SET] = "INSERT OR REPLACE INTO as_raw (collection, idx, data)"
	    " VALUES (?1, ?2, ?3)",
	[Q_RAW_DEL] = "DELETE FROM as_raw WHERE collection = ?1 AND idx = ?2",
	[Q_READ_MSGS] = "UPDATE message SET state = 4 WHERE chat = ?1"
	    " AND state = 3 AND ts_ms <= ?2",
	[Q_READ_CHAT] = "UPDATE chat SET marked_unread = 0,"
	    " last_read_rowid = last_rowid WHERE jid = ?1",
	[Q_STAR] = "UPDATE message SET starred = ?4 WHERE chat = ?1"
	    " AND from_me = ?2 AND id = ?3",
	[Q_STAR_KEEP] = "INSERT OR IGNORE INTO star_pending (chat, from_me, id)"
	    " VALUES (?1, ?2, ?3)",
	[Q_STAR_FORGET] = "DELETE FROM star_pending WHERE chat = ?1"
	    " AND from_me = ?2 AND id = ?3",
	[Q_STAR_FORGET_CHAT] = "DELETE FROM star_pending WHERE chat = ?1",
	[Q_MSG_DEL] = "DELETE FROM message WHERE chat = ?1 AND from_me = ?2"
	    " AND id = ?3 RETURNING " UNREAD_ROW,
	[Q_REACT_DEL] = "DELETE FROM reaction WHERE chat = ?1"
	    " AND target_id = ?2",
	[Q_RCPT_DEL] = "DELETE FROM member_receipt WHERE chat = ?1 AND id = ?2",
	[Q_UNREAD_DEC] = "UPDATE chat SET unread = unread - 1 WHERE jid = ?1"
	    " AND unread > 0",
	[Q_RANGE_DEL] = "DELETE FROM message WHERE chat = ?1 AND ts_ms <= ?2"
	    " AND (?3 OR starred = 0)",
	[Q_REACT_ORPHANS] = "DELETE FROM reaction WHERE chat = ?1 AND target_id"
	    " NOT IN (SELECT id FROM message WHERE chat = ?1)",
	[Q_RCPT_ORPHANS] = "DELETE FROM member_receipt WHERE chat = ?1 AND id"
	    " NOT IN (SELECT id FROM message WHERE chat = ?1 AND from_me = 1)",
	[Q_CHAT_DEL_EMPTY] = "DELETE FROM chat WHERE jid = ?1 AND NOT EXISTS"
	    " (SELECT 1 FROM message WHERE chat = ?1)",
	[Q_UNREAD_RECOUNT] = "UPDATE chat SET unread = (SELECT count(*)"
	    " FROM message WHERE chat = ?1 AND " UNREAD_ROW ") WHERE jid = ?1",
#define FLAG_SQL(f, col) \
	[Q_FLAG_ + 2 * (f)] = "UPDATE chat SET " col " = ?2 WHERE jid = ?1", \
	[Q_FLAG_ + 2 * (f) + 1] = "INSERT INTO chat (jid, " col ")" \
	    " VALUES (?1, ?2)"
	FLAG_SQL(F_MUTED, "muted_until"),
	FLAG_SQL(F_PINNED, "pinned"),
	FLAG_SQL(F_ARCHIVED, "archived"),
	FLAG_SQL(F_UNREAD, "marked_unread"),
	FLAG_SQL(F_LOCKED, "locked"),
#undef FLAG_SQL
};

/* One commit or apply in progress. */
struct as_run {
	struct store	*s;
	const char	*coll;		/* NULL: store_as_apply() without one */
	sqlite3_stmt	*st[Q_COUNT_];
};

/* The statement which of run r, prepared (or taken from the cache) at
 * its first use.  Returns 0 or -EIO. */
static int
q(struct as_run *r, enum as_q which, sqlite3_stmt **st)
{
	if (r->st[which] == NULL && store_stmt(r->s, as_sql[which],
	    &r->st[which]) != 0)
		return -EIO;
	*st = r->st[which];
	return 0;
}

/* Step st to its end and reset it for the next use.  Returns the rows
 * it changed (>= 0), -ENOSPC or -EIO (logged). */
static int
step(struct as_run *r, sqlite3_stmt *st)
{
	int	 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	if (rc != SQLITE_DONE) {
		log_error("app state: %s", sqlite3_errmsg(r->s->db));
		sqlite3_reset(st);
		return store_step_err(r->s, rc);
	}
	sqlite3_reset(st);
	return sqlite3_changes(r->s->db);
}

static void
run_done(struct as_run *r)
{
	size_t	 i;

	for (i = 0; i < Q_COUNT_; i++)
		store_stmt_done(r->s, r->st[i]);
}

/* Run statement which with ?1 = jid (and ?2 = v when v_used). */
static int
by_jid(struct as_run *r, enum as_q which, const char *jid, bool v_used,
    int64_t v)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = q(r, which, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	if (v_used)
		sqlite3_bind_int64(st, 2, v);
	return step(r, st);
}

/* Chat jid's flag f = v; a missing chat is created only for a flag
 * turned on (an unmute of an unknown chat makes no chat row). */
static int
set_flag(struct as_run *r, const char *jid, enum as_flag f, int64_t v)
{
	int	 rc;

	if ((rc = by_jid(r, Q_FLAG_ + 2 * f, jid, true, v)) != 0 || v == 0)
		return rc < 0 ? rc : 0;
	rc = by_jid(r, Q_FLAG_ + 2 * f + 1, jid, true, v);
	return rc < 0 ? rc : 0;
}

/* The newest message time a range action reaches. */
static int64_t
bound(const struct store_as_action *a)
{
	if (a->range_ms > 0)
		return a->range_ms;
	return a->ts_ms > 0 ? a->ts_ms : INT64_MAX;
}

static int
contact(struct as_run *r, const struct store_as_action *a)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(a->full_name, STORE_NAME_MAX, false) ||
	    !store_q_str_ok(a->first_name, STORE_NAME_MAX, false))
		return -EINVAL;
	if (a->remove)
		return (rc = by_jid(r, Q_CONTACT_CLEAR, a->jid, false, 0)) < 0 ?
		    rc : 0;
	if ((rc = q(r, Q_CONTACT_SET, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, a->jid);
	store_q_bind_str(st, 2, a->full_name);
	store_q_bind_str(st, 3, a->first_name);
	return (rc = step(r, st)) < 0 ? rc : 0;
}

static int
push_name(struct as_run *r, const struct store_as_action *a)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(a->full_name, STORE_NAME_MAX, false))
		return -EINVAL;
	if (a->remove)
		return 0;
	if ((rc = q(r, Q_PUSH_NAME, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, a->full_name);
	sqlite3_bind_int64(st, 2, a->ts_ms);
	return (rc = step(r, st)) < 0 ? rc : 0;
}

/* An action wachat does not read: its raw row set or deleted. */
static int
other(struct as_run *r, const struct store_as_action *a)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (r->coll == NULL || a->index == NULL || a->index_len == 0 ||
	    a->index_len > STORE_AS_INDEX_MAX || a->raw_len > STORE_AS_RAW_MAX ||
	    (a->raw == NULL && a->raw_len > 0))
		return -EINVAL;
	if ((rc = q(r, a->remove ? Q_RAW_DEL : Q_RAW_SET, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, r->coll);
	sqlite3_bind_blob(st, 2, a->index, (int)a->index_len, SQLITE_STATIC);
	if (!a->remove)	/* zero bytes: an empty blob, not NULL */
		sqlite3_bind_blob(st, 3, a->raw != NULL ? (const void *)a->raw :
		    "", (int)a->raw_len, SQLITE_STATIC);
	return (rc = step(r, st)) < 0 ? rc : 0;
}

/* Bind ?1 chat, ?2 from_me, ?3 id of a's message to st. */
static void
bind_msg(sqlite3_stmt *st, const struct store_as_action *a)
{
	store_q_bind_str(st, 1, a->jid);
	sqlite3_bind_int(st, 2, a->from_me);
	store_q_bind_str(st, 3, a->msg_id);
}

static int
star(struct as_run *r, const struct store_as_action *a)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = q(r, Q_STAR, &st)) != 0)
		return rc;
	bind_msg(st, a);
	sqlite3_bind_int(st, 4, a->flag);
	if ((rc = step(r, st)) != 0)
		return rc < 0 ? rc : 0;
	/* not stored yet (history comes after app state): a star is kept
	 * for the message's arrival (migration 16's trigger), an unstar
	 * takes a kept one back */
	if ((rc = q(r, a->flag ? Q_STAR_KEEP : Q_STAR_FORGET, &st)) != 0)
		return rc;
	bind_msg(st, a);
	return (rc = step(r, st)) < 0 ? rc : 0;
}

/* Delete message a for me, with its reactions and receipts; the unread
 * count loses it when it counted, the preview falls back. */
static int
delete_msg(struct as_run *r, const struct store_as_action *a)
{
	sqlite3_stmt	*st;
	bool		 found = false, unread = false;
	int		 rc;

	if ((rc = q(r, Q_MSG_DEL, &st)) != 0)
		return rc;
	bind_msg(st, a);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		found = true;
		unread = sqlite3_column_int(st, 0) != 0;
	}
	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		log_error("app state: %s", sqlite3_errmsg(r->s->db));
		return store_step_err(r->s, rc);
	}
	if (!found)
		return 0;	/* not stored: nothing to delete */
	if ((rc = q(r, Q_REACT_DEL, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, a->jid);
	store_q_bind_str(st, 2, a->msg_id);
	if ((rc = step(r, st)) < 0 || (rc = q(r, Q_RCPT_DEL, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, a->jid);
	store_q_bind_str(st, 2, a->msg_id);
	if ((rc = step(r, st)) < 0 || (unread &&
	    (rc = by_jid(r, Q_UNREAD_DEC, a->jid, false, 0)) < 0))
		return rc;
	return store_q_chat_refresh(r->s, a->jid);
}

/* Clear chat a up to its bound (starred rows kept unless starred_too),
 * or delete it (drop_chat): then its row goes too when no message is
 * left. */
static int
clear_chat(struct as_run *r, const struct store_as_action *a, bool starred_too,
    bool drop_chat)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = q(r, Q_RANGE_DEL, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, a->jid);
	sqlite3_bind_int64(st, 2, bound(a));
	sqlite3_bind_int(st, 3, starred_too);
	if ((rc = step(r, st)) < 0 ||
	    (rc = by_jid(r, Q_REACT_ORPHANS, a->jid, false, 0)) < 0 ||
	    (rc = by_jid(r, Q_RCPT_ORPHANS, a->jid, false, 0)) < 0)
		return rc;
	if (starred_too &&
	    (rc = by_jid(r, Q_STAR_FORGET_CHAT, a->jid, false, 0)) < 0)
		return rc;
	if (drop_chat && (rc = by_jid(r, Q_CHAT_DEL_EMPTY, a->jid, false, 0)) != 0)
		return rc < 0 ? rc : 0;	/* the chat row is gone */
	if ((rc = by_jid(r, Q_UNREAD_RECOUNT, a->jid, false, 0)) < 0)
		return rc;
	return store_q_chat_refresh(r->s, a->jid);
}

/* Mark chat a read (its messages up to the bound READ, the unread count
 * what is left unread) or unread. */
static int
mark_read(struct as_run *r, const struct store_as_action *a)
{
	int	 rc;

	if (!a->flag)
		return set_flag(r, a->jid, F_UNREAD, 1);
	if ((rc = by_jid(r, Q_READ_MSGS, a->jid, true, bound(a))) < 0 ||
	    (rc = by_jid(r, Q_READ_CHAT, a->jid, false, 0)) < 0 ||
	    (rc = by_jid(r, Q_UNREAD_RECOUNT, a->jid, false, 0)) < 0)
		return rc;
	return 0;
}

/* The kinds that change a chat or a message of it: jid required, and a
 * message id for those of one message. */
static int
chat_action(struct as_run *r, const struct store_as_action *a)
{
	if ((a->kind == STORE_AS_STAR || a->kind == STORE_AS_DELETE_MSG) &&
	    !store_q_str_ok(a->msg_id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if (a->remove)	/* only SETs carry meaning ([WM]) */
		return 0;
	switch (a->kind) {
	case STORE_AS_MUTE:
		return set_flag(r, a->jid, F_MUTED, !a->flag ? 0 :
		    a->mute_end_ms < 0 ? -1 : a->mute_end_ms);
	case STORE_AS_PIN:
		return set_flag(r, a->jid, F_PINNED, !a->flag ? 0 :
		    a->ts_ms > 0 ? a->ts_ms : 1);
	case STORE_AS_ARCHIVE:
		return set_flag(r, a->jid, F_ARCHIVED, a->flag);
	case STORE_AS_LOCK:
		return set_flag(r, a->jid, F_LOCKED, a->flag);
	case STORE_AS_MARK_READ:
		return mark_read(r, a);
	case STORE_AS_STAR:
		return star(r, a);
	case STORE_AS_DELETE_MSG:
		return delete_msg(r, a);
	case STORE_AS_DELETE_CHAT:
		return clear_chat(r, a, true, true);
	case STORE_AS_CLEAR_CHAT:
		return clear_chat(r, a, a->delete_starred, false);
	default:
		return -EINVAL;
	}
}

/* Check and apply one action.  Returns 0, -EINVAL, -ENOSPC or -EIO. */
static int
apply_one(struct as_run *r, const struct store_as_action *a)
{
	switch (a->kind) {
	case STORE_AS_OTHER:
		return other(r, a);
	case STORE_AS_PUSH_NAME:
		return push_name(r, a);
	default:
		break;
	}
	if ((unsigned)a->kind >= STORE_AS_KIND_COUNT_ ||
	    !store_q_str_ok(a->jid, STORE_JID_MAX, true))
		return -EINVAL;
	if (a->kind == STORE_AS_CONTACT || a->kind == STORE_AS_LID_CONTACT)
		return contact(r, a);
	return chat_action(r, a);
}

static int
apply_all(struct as_run *r, const struct store_as_action *acts, size_t n)
{
	size_t	 i;
	int	 rc;

	if (n > STORE_AS_COMMIT_MAX || (acts == NULL && n > 0))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if ((rc = apply_one(r, &acts[i])) != 0)
			return rc;
	return 0;
}

/* The MAC rows of p, in order. */
static int
put_macs(struct as_run *r, const struct store_as_patch *p)
{
	sqlite3_stmt	*st;
	size_t		 i;
	int		 rc;

	if (p->nmacs > STORE_AS_COMMIT_MAX || (p->macs == NULL && p->nmacs > 0))
		return -EINVAL;
	if (p->snapshot &&
	    ((rc = by_jid(r, Q_MAC_CLEAR, p->collection, false, 0)) < 0 ||
	    (rc = by_jid(r, Q_RAW_CLEAR, p->collection, false, 0)) < 0))
		return rc;
	for (i = 0; i < p->nmacs; i++) {
		const struct store_as_mac	*m = &p->macs[i];

		if ((rc = q(r, m->remove ? Q_MAC_DEL : Q_MAC_SET, &st)) != 0)
			return rc;
		store_q_bind_str(st, 1, p->collection);
		sqlite3_bind_blob(st, 2, m->index_mac, STORE_AS_MAC_LEN,
		    SQLITE_STATIC);
		if (!m->remove)
			sqlite3_bind_blob(st, 3, m->value_mac, STORE_AS_MAC_LEN,
			    SQLITE_STATIC);
		if ((rc = step(r, st)) < 0)
			return rc;
	}
	return 0;
}

/* A patch is applied on the version it was verified on only. */
static int
check_base(struct as_run *r, const struct store_as_patch *p)
{
	sqlite3_stmt	*st;
	uint64_t	 v = 0;
	int		 rc;

	if (p->snapshot)
		return 0;
	if ((rc = q(r, Q_STATE_GET, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, p->collection);
	if ((rc = sqlite3_step(st)) == SQLITE_ROW)
		v = (uint64_t)sqlite3_column_int64(st, 0);
	sqlite3_reset(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_step_err(r->s, rc);
	return v == p->base_version ? 0 : -ESTALE;
}

static int
put_state(struct as_run *r, const struct store_as_patch *p)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = q(r, Q_STATE_PUT, &st)) != 0)
		return rc;
	store_q_bind_str(st, 1, p->collection);
	sqlite3_bind_int64(st, 2, (int64_t)p->version);
	sqlite3_bind_blob(st, 3, p->hash, STORE_AS_HASH_LEN, SQLITE_STATIC);
	return (rc = step(r, st)) < 0 ? rc : 0;
}

int
store_as_commit(struct store *s, const struct store_as_patch *p)
{
	struct as_run	 r;
	int		 rc;

	if (p == NULL || !store_q_str_ok(p->collection, STORE_AS_COLL_MAX,
	    true) || p->version > INT64_MAX || p->hash == NULL)
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	r.s = s;
	r.coll = p->collection;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = check_base(&r, p)) == 0 && (rc = put_macs(&r, p)) == 0 &&
	    (rc = apply_all(&r, p->actions, p->nactions)) == 0)
		rc = put_state(&r, p);
	run_done(&r);
	return store_tx_end(s, rc);
}

int
store_as_apply(struct store *s, const char *collection,
    const struct store_as_action *actions, size_t n)
{
	struct as_run	 r;
	int		 rc;

	if (!store_q_str_ok(collection, STORE_AS_COLL_MAX, false))
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	r.s = s;
	r.coll = collection != NULL && collection[0] != '\0' ? collection :
	    NULL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	rc = apply_all(&r, actions, n);
	run_done(&r);
	return store_tx_end(s, rc);
}
