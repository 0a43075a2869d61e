/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/rich.c -- a live location's updates in place (store/store-rich.h;
 * protocol-features.md 3.2).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/rich.h"
#include "base/xmalloc.h"
#include "store/store-int.h"

/* The seq of the live record t, or -1 when it is none. */
static int64_t
seq_of(const char *t, size_t len)
{
	struct rich	 r;
	const char	*v;
	char		*e;
	long long	 n = -1;

	if (rich_parse(t, len, &r) != 0)
		return -1;
	if (r.type == RICH_LIVE && (v = rich_get(&r, "seq", NULL)) != NULL) {
		n = strtoll(v, &e, 10);
		if (*e != '\0')
			n = -1;
	}
	rich_release(&r);
	return n;
}

int
store_rich_live_update(struct store *s, const char *chat, const char *sender,
    bool from_me, int64_t seq, const char *text, size_t len, char *id_out,
    size_t id_size)
{
	sqlite3_stmt	*st;
	int64_t		 rowid = 0, old = -1;
	char		*t, id[STORE_MSG_ID_MAX + 1];
	size_t		 tl;
	int		 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(sender, STORE_JID_MAX, false) || text == NULL ||
	    len > STORE_MSG_TEXT_MAX || id_out == NULL || id_size == 0 ||
	    seq_of(text, len) < 0)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT rowid, id, text FROM message"
	    " WHERE chat = ?1 AND sender = ?2 AND from_me = ?3 AND kind = 7"
	    " AND deleted = 0 AND substr(text, 1, 5) = 'live' || char(10)"
	    " ORDER BY ts_ms DESC, rowid DESC LIMIT 1")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, sender);
	sqlite3_bind_int(st, 3, from_me);
	if ((rc = store_q_step_one(s, st, "finding a live location")) == 1) {
		rowid = sqlite3_column_int64(st, 0);
		store_q_col_copy(st, 1, id, sizeof(id));
		t = store_q_col_dup(st, 2, &tl);
		old = seq_of(t, tl);
		free(t);
	}
	store_stmt_done(s, st);
	if (rc <= 0)
		return rc;
	if (old == seq)
		return 2;	/* this update again (a redelivery) */
	if (old < 0 || seq < old)
		return 0;	/* a new sharing */
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = store_q_prep(s, &st, "UPDATE message SET text = ?2"
	    " WHERE rowid = ?1")) == 0) {
		sqlite3_bind_int64(st, 1, rowid);
		store_q_bind_text(st, 2, text, len);
		rc = store_q_then_sync(s, store_q_run(s, st,
		    "updating a live location"), chat, from_me, id);
	}
	if ((rc = store_tx_end(s, rc)) < 0)
		return rc;
	if (strlen(id) >= id_size)
		return -EINVAL;
	memcpy(id_out, id, strlen(id) + 1);
	return 1;
}

/* --- view-once (protocol-features.md 3.4) --- */

/* The record t[0..len) is a view-once one: 1 closed, 2 opened, else 0. */
static int
viewonce_of(const char *t, size_t len)
{
	struct rich	 r;
	int		 v = STORE_VIEWONCE_NOT;

	if (t == NULL || rich_parse(t, len, &r) != 0)
		return v;
	if (r.type == RICH_VIEWONCE)
		v = rich_get(&r, "opened", NULL) != NULL ?
		    STORE_VIEWONCE_OPENED : STORE_VIEWONCE_CLOSED;
	rich_release(&r);
	return v;
}

/* The view-once row (chat, from_me, id): its rowid and record (heap). */
static int
viewonce_row(struct store *s, const char *chat, bool from_me, const char *id,
    int64_t *rowid, char **rec, size_t *len)
{
	sqlite3_stmt	*st;
	int		 rc;

	*rec = NULL;
	if ((rc = store_q_prep(s, &st, "SELECT rowid, text FROM message"
	    " WHERE chat = ?1 AND from_me = ?2 AND id = ?3 AND kind = 7"
	    " AND deleted = 0")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	sqlite3_bind_int(st, 2, from_me);
	store_q_bind_str(st, 3, id);
	if ((rc = store_q_step_one(s, st, "finding a view-once row")) == 1) {
		*rowid = sqlite3_column_int64(st, 0);
		*rec = store_q_col_dup(st, 1, len);
	}
	store_stmt_done(s, st);
	if (rc == 1 && viewonce_of(*rec, *len) == STORE_VIEWONCE_NOT) {
		free(*rec);
		*rec = NULL;
		rc = 0;
	}
	return rc;
}

int
store_viewonce_state(struct store *s, const char *chat, const char *id,
    bool *from_me)
{
	int64_t		 rowid;
	char		*t;
	size_t		 tl;
	int		 rc, side;

	if (s == NULL || !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	for (side = 0; side < 2; side++) {
		if ((rc = viewonce_row(s, chat, side == 1, id, &rowid, &t,
		    &tl)) < 0)
			return rc;
		if (rc == 1) {
			rc = viewonce_of(t, tl);
			free(t);
			if (from_me != NULL)
				*from_me = side == 1;
			return rc;
		}
	}
	return STORE_VIEWONCE_NOT;
}

/* Rowid's record becomes t[0..len), its media row goes. */
static int
viewonce_close(struct store *s, int64_t rowid, const char *t, size_t len)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "UPDATE message SET text = ?2"
	    " WHERE rowid = ?1")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, rowid);
	store_q_bind_text(st, 2, t, len);
	if ((rc = store_q_run(s, st, "marking a view-once opened")) < 0)
		return rc;
	if ((rc = store_q_prep(s, &st, "DELETE FROM media WHERE msg = ?1"))
	    != 0)
		return rc;
	sqlite3_bind_int64(st, 1, rowid);
	return store_q_run(s, st, "dropping a view-once's media") < 0 ?
	    -EIO : 1;
}

int
store_viewonce_opened(struct store *s, const char *chat, bool from_me,
    const char *id, char **rec_out)
{
	static const char	 add[] = "\nopened=yes";
	int64_t			 rowid = 0;
	char			*t, *n;
	size_t			 tl;
	int			 rc;

	if (rec_out != NULL)
		*rec_out = NULL;
	if (s == NULL || !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = viewonce_row(s, chat, from_me, id, &rowid, &t, &tl)) <= 0)
		return rc;
	if (viewonce_of(t, tl) == STORE_VIEWONCE_OPENED) {
		free(t);
		return 2;
	}
	n = xmalloc(tl + sizeof(add));
	memcpy(n, t, tl);
	memcpy(n + tl, add, sizeof(add));
	free(t);
	if ((rc = store_tx_begin(s)) == 0)
		rc = store_tx_end(s, store_q_then_sync(s, viewonce_close(s,
		    rowid, n, tl + sizeof(add) - 1), chat, from_me, id));
	if (rc >= 0 && rec_out != NULL) {
		*rec_out = n;
		return 1;
	}
	free(n);
	return rc < 0 ? rc : 1;
}
