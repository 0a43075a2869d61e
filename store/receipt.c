/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/receipt.c -- receipts and message states (store/store.h): a
 * message moved forward by a receipt, a group message's recipients and
 * the receipts of each member (table member_receipt, migration 9), and a
 * chat marked read with the read receipts it owes.
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

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
		rc = store_q_then_sync(s, store_q_run(s, st,
		    "applying a receipt"), chat, from_me, id);
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
	rc = store_q_then_sync(s, store_q_run(s, st, "applying a receipt"),
	    chat, true, id);
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
	    " marked_unread = 0, last_read_rowid = last_rowid"
	    " WHERE jid = ?1")) == 0) {
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
