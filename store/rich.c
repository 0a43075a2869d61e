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
