/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/appstate.c -- app state sync's rows (schema migration 14;
 * store/store-appstate.h, protocol-features.md 2.3, 2.6, 2.7): the sync
 * keys, each collection's version, LTHash and MAC rows, our own push name
 * as synced, and the outbox of our own mutations.  Committing a patch
 * and applying its actions: store/appstate-act.c.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

/* Copy blob column col of st into out[max] and *len; false when it does
 * not fit or is shorter than min (a damaged row). */
static bool
col_blob(sqlite3_stmt *st, int col, uint8_t *out, size_t min, size_t max,
    size_t *len)
{
	const void	*p = sqlite3_column_blob(st, col);
	size_t		 n = (size_t)sqlite3_column_bytes(st, col);

	if (n < min || n > max || (p == NULL && n > 0))
		return false;
	if (n > 0)
		memcpy(out, p, n);
	*len = n;
	return true;
}

int
store_as_key_put(struct store *s, const struct store_as_key *k)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (k == NULL || k->id_len == 0 || k->id_len > STORE_AS_KEY_ID_MAX ||
	    k->data_len == 0 || k->data_len > STORE_AS_KEY_DATA_MAX ||
	    k->fp_len > STORE_AS_FP_MAX)
		return -EINVAL;
	/* The same id again replaces the key only when newer ([WM]). */
	if ((rc = store_q_prep(s, &st, "INSERT INTO as_key (id, data, fp, ts_ms)"
	    " VALUES (?1, ?2, ?3, ?4) ON CONFLICT (id) DO UPDATE"
	    " SET data = excluded.data, fp = excluded.fp, ts_ms = excluded.ts_ms"
	    " WHERE excluded.ts_ms > as_key.ts_ms")) != 0)
		return rc;
	sqlite3_bind_blob(st, 1, k->id, (int)k->id_len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 2, k->data, (int)k->data_len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 3, k->fp, (int)k->fp_len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, k->ts_ms);
	rc = store_q_run(s, st, "storing an app-state key");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

/* Read a key row (id, data, fp, ts_ms) of st into *out: 1, 0 (no row),
 * or -EIO (an error or a damaged row: *out untouched).  Hands st back. */
static int
key_read(struct store *s, sqlite3_stmt *st, struct store_as_key *out)
{
	struct store_as_key	 k;
	int			 rc;

	if ((rc = store_q_step_one(s, st, "loading an app-state key")) == 1) {
		memset(&k, 0, sizeof(k));
		if (!col_blob(st, 0, k.id, 1, sizeof(k.id), &k.id_len) ||
		    !col_blob(st, 1, k.data, 1, sizeof(k.data), &k.data_len) ||
		    !col_blob(st, 2, k.fp, 0, sizeof(k.fp), &k.fp_len)) {
			log_error("an app-state key row is damaged");
			rc = -EIO;
		} else {
			k.ts_ms = sqlite3_column_int64(st, 3);
			*out = k;
		}
		explicit_bzero(&k, sizeof(k));
	}
	store_stmt_done(s, st);
	return rc;
}

int
store_as_key_get(struct store *s, const uint8_t *id, size_t id_len,
    struct store_as_key *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (id == NULL || id_len == 0 || id_len > STORE_AS_KEY_ID_MAX ||
	    out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT id, data, fp, ts_ms FROM as_key"
	    " WHERE id = ?1")) != 0)
		return rc;
	sqlite3_bind_blob(st, 1, id, (int)id_len, SQLITE_STATIC);
	return key_read(s, st, out);
}

int
store_as_key_newest(struct store *s, struct store_as_key *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT id, data, fp, ts_ms FROM as_key"
	    " ORDER BY ts_ms DESC, id DESC LIMIT 1")) != 0)
		return rc;
	return key_read(s, st, out);
}

int
store_as_state_get(struct store *s, const char *name,
    struct store_as_state *out)
{
	struct store_as_state	 v;
	sqlite3_stmt		*st;
	size_t			 len;
	int			 rc;

	if (!store_q_str_ok(name, STORE_AS_COLL_MAX, true) || out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT version, hash FROM as_state"
	    " WHERE collection = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, name);
	memset(&v, 0, sizeof(v));
	if ((rc = store_q_step_one(s, st, "loading an app-state version")) == 1) {
		int64_t	 ver = sqlite3_column_int64(st, 0);

		if (ver < 0 || !col_blob(st, 1, v.hash, STORE_AS_HASH_LEN,
		    STORE_AS_HASH_LEN, &len)) {
			log_error("the app-state row of %s is damaged", name);
			rc = -EIO;
		}
		v.version = (uint64_t)ver;
	}
	store_stmt_done(s, st);
	if (rc >= 0)
		*out = v;
	return rc;
}

int
store_as_state_reset(struct store *s, const char *name)
{
	static const char *const sql[] = {
		"DELETE FROM as_state WHERE collection = ?1",
		"DELETE FROM as_mac WHERE collection = ?1",
	};
	sqlite3_stmt	*st;
	size_t		 i;
	int		 rc;

	if (!store_q_str_ok(name, STORE_AS_COLL_MAX, true))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	for (i = 0; i < sizeof(sql) / sizeof(sql[0]) && rc >= 0; i++) {
		if ((rc = store_q_prep(s, &st, sql[i])) != 0)
			break;
		store_q_bind_str(st, 1, name);
		rc = store_q_run(s, st, "resetting an app-state collection");
	}
	return store_tx_end(s, rc < 0 ? rc : 0);
}

int
store_as_mac_get(struct store *s, const char *name,
    const uint8_t index_mac[STORE_AS_MAC_LEN],
    uint8_t value_mac[STORE_AS_MAC_LEN])
{
	sqlite3_stmt	**st = &s->st[ST_AS_MAC_GET];
	size_t		 len;
	int		 rc;

	if (!store_q_str_ok(name, STORE_AS_COLL_MAX, true) ||
	    index_mac == NULL || value_mac == NULL)
		return -EINVAL;
	/* Its own slot, not the cache: one lookup per record of a patch. */
	if ((rc = store_prepare(s, st, "SELECT value_mac FROM as_mac"
	    " WHERE collection = ?1 AND index_mac = ?2")) != 0)
		return rc;
	store_q_bind_str(*st, 1, name);
	sqlite3_bind_blob(*st, 2, index_mac, STORE_AS_MAC_LEN, SQLITE_STATIC);
	if ((rc = store_q_step_one(s, *st, "loading an app-state MAC")) == 1 &&
	    (!col_blob(*st, 0, value_mac, STORE_AS_MAC_LEN, STORE_AS_MAC_LEN,
	    &len))) {
		log_error("an app-state MAC row of %s is damaged", name);
		rc = -EIO;
	}
	sqlite3_reset(*st);
	return rc;
}

int
store_as_push_name(struct store *s, char out[STORE_NAME_MAX + 1])
{
	sqlite3_stmt	*st;
	int		 rc;

	if (out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT value FROM as_setting"
	    " WHERE name = 'push_name'")) != 0)
		return rc;
	if ((rc = store_q_step_one(s, st, "loading the push name")) == 1)
		store_q_col_copy(st, 0, out, STORE_NAME_MAX + 1);
	store_stmt_done(s, st);
	return rc;
}

int
store_as_pending_add(struct store *s, const char *collection,
    const uint8_t *index, size_t index_len, const uint8_t *action,
    size_t action_len, int64_t now_ms, int64_t *id)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(collection, STORE_AS_COLL_MAX, true) ||
	    index == NULL || index_len == 0 || index_len > STORE_AS_INDEX_MAX ||
	    action == NULL || action_len == 0 || action_len > STORE_AS_RAW_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT INTO as_pending"
	    " (collection, action, idx, state, created_ms)"
	    " VALUES (?1, ?2, ?3, 0, ?4)")) != 0)
		return rc;
	store_q_bind_str(st, 1, collection);
	sqlite3_bind_blob(st, 2, action, (int)action_len, SQLITE_STATIC);
	sqlite3_bind_blob(st, 3, index, (int)index_len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, now_ms);
	if ((rc = store_q_run(s, st, "queueing an app-state mutation")) < 0)
		return rc;
	if (id != NULL)
		*id = sqlite3_last_insert_rowid(s->db);
	return 0;
}

void
store_as_pending_free(struct store_as_pending *p, size_t n)
{
	size_t	 i;

	if (p == NULL)
		return;
	for (i = 0; i < n; i++) {
		free(p[i].action);
		free(p[i].index);
	}
	free(p);
}

/* A malloc'd copy of blob column col (at least one byte allocated). */
static uint8_t *
blob_dup(sqlite3_stmt *st, int col, size_t *len)
{
	const void	*p = sqlite3_column_blob(st, col);
	size_t		 n = (size_t)sqlite3_column_bytes(st, col);
	uint8_t		*out = xmalloc(n > 0 ? n : 1);

	if (n > 0 && p != NULL)
		memcpy(out, p, n);
	*len = p != NULL ? n : 0;
	return out;
}

int
store_as_pending_list(struct store *s, const char *collection,
    enum store_as_pending_state state, size_t max,
    struct store_as_pending **out, size_t *n)
{
	struct store_as_pending	*l;
	sqlite3_stmt		*st;
	size_t			 k = 0;
	int			 rc, more = 0;

	if (!store_q_str_ok(collection, STORE_AS_COLL_MAX, false) ||
	    state < STORE_AS_QUEUED || state > STORE_AS_FAILED || max == 0 ||
	    max > STORE_AS_PENDING_MAX || out == NULL || n == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT id, collection, action, idx,"
	    " state, created_ms FROM as_pending WHERE state = ?1"
	    " AND (?2 IS NULL OR collection = ?2) ORDER BY id LIMIT ?3")) != 0)
		return rc;
	sqlite3_bind_int(st, 1, (int)state);
	if (collection != NULL)
		store_q_bind_str(st, 2, collection);
	sqlite3_bind_int64(st, 3, (int64_t)max + 1);
	l = xcalloc(max, sizeof(*l));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct store_as_pending	*p = &l[k];

		if (k == max) {
			more = 1;
			break;
		}
		p->id = sqlite3_column_int64(st, 0);
		store_q_col_copy(st, 1, p->collection, sizeof(p->collection));
		p->action = blob_dup(st, 2, &p->action_len);
		p->index = blob_dup(st, 3, &p->index_len);
		p->state = (enum store_as_pending_state)sqlite3_column_int(st, 4);
		p->created_ms = sqlite3_column_int64(st, 5);
		k++;
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("listing app-state mutations: %s",
		    sqlite3_errmsg(s->db));
		store_as_pending_free(l, k);
		return -EIO;
	}
	*out = l;
	*n = k;
	return more;
}

/* Run sql with ?1 id and ?2 v (a statement without ?2 ignores it).
 * Returns the rows changed or an error. */
static int
pending_run(struct store *s, const char *sql, int64_t id, int v)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, sql)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, v);
	return store_q_run(s, st, "updating an app-state mutation");
}

int
store_as_pending_mark(struct store *s, int64_t id,
    enum store_as_pending_state state)
{
	int	 rc;

	if (state < STORE_AS_QUEUED || state > STORE_AS_FAILED)
		return -EINVAL;
	rc = pending_run(s, "UPDATE as_pending SET state = ?2 WHERE id = ?1",
	    id, (int)state);
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

int
store_as_pending_requeue(struct store *s)
{
	return pending_run(s, "UPDATE as_pending SET state = ?2"
	    " WHERE state = ?1", STORE_AS_SENT, STORE_AS_QUEUED);
}

int
store_as_pending_remove(struct store *s, int64_t id)
{
	int	 rc = pending_run(s, "DELETE FROM as_pending WHERE id = ?1",
	    id, 0);

	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}
