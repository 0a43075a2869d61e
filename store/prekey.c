/* SPDX-License-Identifier: GPL-3.0-or-later */
/* store/prekey.c -- one-time prekeys (table prekey), protocol.md 7.3. */
#include "base/compat.h"

#include <errno.h>

#include <sodium.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/log.h"
#include "store/store-int.h"

int
store_prekey_next_id(struct store *s, uint32_t *id)
{
	sqlite3_stmt	**st = &s->st[ST_COUNTER_GET];
	int		 rc;

	if ((rc = store_prepare(s, st,
	    "SELECT value FROM counter WHERE name = 'next_prekey_id'")) != 0)
		return rc;
	if (sqlite3_step(*st) != SQLITE_ROW) {
		log_error("reading the prekey counter: %s", sqlite3_errmsg(s->db));
		sqlite3_reset(*st);
		return -EIO;
	}
	*id = (uint32_t)sqlite3_column_int64(*st, 0);
	sqlite3_reset(*st);
	return 0;
}

static int
insert_all(struct store *s, const struct store_prekey *keys, size_t n)
{
	sqlite3_stmt	**ins = &s->st[ST_PREKEY_INSERT];
	sqlite3_stmt	**set = &s->st[ST_COUNTER_SET];
	uint32_t	 next;
	size_t		 i;
	int		 rc;

	if ((rc = store_prepare(s, ins,
	    "INSERT INTO prekey (id, priv, pub) VALUES (?1, ?2, ?3)")) != 0)
		return rc;
	for (i = 0; i < n; i++) {
		sqlite3_bind_int64(*ins, 1, keys[i].id);
		sqlite3_bind_blob(*ins, 2, keys[i].priv, STORE_KEY_LEN,
		    SQLITE_STATIC);
		sqlite3_bind_blob(*ins, 3, keys[i].pub, STORE_KEY_LEN,
		    SQLITE_STATIC);
		rc = sqlite3_step(*ins);
		sqlite3_reset(*ins);
		if (rc == SQLITE_CONSTRAINT_PRIMARYKEY) {
			log_warn("prekey %u is already stored", keys[i].id);
			return -EEXIST;
		}
		if (rc != SQLITE_DONE) {
			log_error("storing prekeys: %s", sqlite3_errmsg(s->db));
			return store_step_err(s, rc);
		}
	}
	sqlite3_clear_bindings(*ins);
	next = keys[n - 1].id >= STORE_PREKEY_ID_MAX ? 1 : keys[n - 1].id + 1;
	if ((rc = store_prepare(s, set, "UPDATE counter SET value = ?1"
	    " WHERE name = 'next_prekey_id'")) != 0)
		return rc;
	sqlite3_bind_int64(*set, 1, next);
	rc = sqlite3_step(*set);
	sqlite3_reset(*set);
	if (rc != SQLITE_DONE) {
		log_error("advancing the prekey counter: %s",
		    sqlite3_errmsg(s->db));
		return store_step_err(s, rc);
	}
	return 0;
}

int
store_prekey_put(struct store *s, const struct store_prekey *keys, size_t n)
{
	size_t	 i;
	int	 rc;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		if (keys[i].id == 0 || keys[i].id > STORE_PREKEY_ID_MAX)
			return -EINVAL;
	if ((rc = store_exec(s, "BEGIN IMMEDIATE")) != 0)
		return rc;
	if ((rc = insert_all(s, keys, n)) != 0 ||
	    (rc = store_exec(s, "COMMIT")) != 0) {
		(void)store_exec(s, "ROLLBACK");
		return rc;
	}
	return 0;
}

int
store_prekey_get(struct store *s, uint32_t id, struct store_prekey *out)
{
	sqlite3_stmt	**st = &s->st[ST_PREKEY_GET];
	const void	*priv, *pub;
	int		 rc;

	if ((rc = store_prepare(s, st,
	    "SELECT priv, pub FROM prekey WHERE id = ?1")) != 0)
		return rc;
	sqlite3_bind_int64(*st, 1, id);
	rc = sqlite3_step(*st);
	if (rc == SQLITE_DONE) {
		sqlite3_reset(*st);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		log_error("reading prekey %u: %s", id, sqlite3_errmsg(s->db));
		sqlite3_reset(*st);
		return -EIO;
	}
	priv = sqlite3_column_blob(*st, 0);
	pub = sqlite3_column_blob(*st, 1);
	if (priv == NULL || pub == NULL ||
	    sqlite3_column_bytes(*st, 0) != STORE_KEY_LEN ||
	    sqlite3_column_bytes(*st, 1) != STORE_KEY_LEN) {
		log_error("prekey %u is corrupt", id);
		sqlite3_reset(*st);
		return -EIO;
	}
	out->id = id;
	memcpy(out->priv, priv, STORE_KEY_LEN);
	memcpy(out->pub, pub, STORE_KEY_LEN);
	sqlite3_reset(*st);
	return 1;
}

static int
step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	int	 rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE) {
		log_error("%s: %s", what, sqlite3_errmsg(s->db));
		return store_step_err(s, rc);	/* -ENOSPC or -EIO */
	}
	return 0;
}

int
store_prekey_remove(struct store *s, uint32_t id)
{
	sqlite3_stmt	**st = &s->st[ST_PREKEY_REMOVE];
	int		 rc;

	if ((rc = store_prepare(s, st, "DELETE FROM prekey WHERE id = ?1")) != 0)
		return rc;
	sqlite3_bind_int64(*st, 1, id);
	return step_done(s, *st, "removing a prekey");
}

int
store_prekey_mark_uploaded(struct store *s, uint32_t first, uint32_t last)
{
	sqlite3_stmt	**st = &s->st[ST_PREKEY_UPLOADED];
	int		 rc;

	if ((rc = store_prepare(s, st, "UPDATE prekey SET uploaded = 1"
	    " WHERE id BETWEEN ?1 AND ?2")) != 0)
		return rc;
	sqlite3_bind_int64(*st, 1, first);
	sqlite3_bind_int64(*st, 2, last);
	return step_done(s, *st, "marking prekeys uploaded");
}

int
store_prekey_pending(struct store *s, struct store_prekey *out, size_t max)
{
	sqlite3_stmt	**st = &s->st[ST_PREKEY_PENDING];
	size_t		 n = 0;
	int		 rc;

	if ((rc = store_prepare(s, st, "SELECT id, priv, pub FROM prekey"
	    " WHERE uploaded = 0 ORDER BY id LIMIT ?1")) != 0)
		return rc;
	sqlite3_bind_int64(*st, 1, (sqlite3_int64)max);
	while ((rc = sqlite3_step(*st)) == SQLITE_ROW) {
		if (sqlite3_column_bytes(*st, 1) != STORE_KEY_LEN ||
		    sqlite3_column_bytes(*st, 2) != STORE_KEY_LEN) {
			log_error("a pending prekey is corrupt");
			rc = SQLITE_CORRUPT;
			break;
		}
		out[n].id = (uint32_t)sqlite3_column_int64(*st, 0);
		memcpy(out[n].priv, sqlite3_column_blob(*st, 1), STORE_KEY_LEN);
		memcpy(out[n].pub, sqlite3_column_blob(*st, 2), STORE_KEY_LEN);
		n++;
	}
	sqlite3_reset(*st);
	if (rc != SQLITE_DONE) {
		sodium_memzero(out, n * sizeof(*out));
		log_error("reading pending prekeys: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	return (int)n;
}

int
store_prekey_count(struct store *s)
{
	sqlite3_stmt	**st = &s->st[ST_PREKEY_COUNT];
	int		 rc, n;

	if ((rc = store_prepare(s, st, "SELECT count(*) FROM prekey")) != 0)
		return rc;
	if (sqlite3_step(*st) != SQLITE_ROW) {
		sqlite3_reset(*st);
		return -EIO;
	}
	n = sqlite3_column_int(*st, 0);
	sqlite3_reset(*st);
	return n;
}
