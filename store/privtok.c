/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/privtok.c -- privacy tokens (store/store.h, migration 11;
 * protocol.md 15.6): each contact's trusted-contact token to us with its
 * timestamp, when we last issued ours to it, and the account's nctSalt.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"

int
store_privtok_get(struct store *s, const char *jid, struct store_privtok *out)
{
	sqlite3_stmt	*st;
	const void	*p;
	size_t		 len;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if ((rc = store_q_prep(s, &st, "SELECT token, t, sender_t FROM privtok"
	    " WHERE jid = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	if ((rc = store_q_step_one(s, st, "loading a privacy token")) != 1) {
		store_stmt_done(s, st);
		return rc;
	}
	p = sqlite3_column_blob(st, 0);
	len = (size_t)sqlite3_column_bytes(st, 0);
	if (p != NULL && len > 0 && len <= sizeof(out->token)) {
		memcpy(out->token, p, len);
		out->len = len;
		out->t = sqlite3_column_int64(st, 1);
	}
	out->sender_t = sqlite3_column_int64(st, 2);
	store_stmt_done(s, st);
	return 1;
}

int
store_privtok_put(struct store *s, const char *jid, const uint8_t *token,
    size_t len, int64_t t)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || token == NULL ||
	    len == 0 || len > STORE_PRIVTOK_MAX || t <= 0)
		return -EINVAL;
	/* an older token never replaces a newer one */
	if ((rc = store_q_prep(s, &st, "INSERT INTO privtok (jid, token, t)"
	    " VALUES (?1, ?2, ?3) ON CONFLICT (jid) DO UPDATE SET"
	    " token = excluded.token, t = excluded.t"
	    " WHERE excluded.t >= privtok.t")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_blob(st, 2, token, (int)len, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, t);
	rc = store_q_run(s, st, "storing a privacy token");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

int
store_privtok_sent(struct store *s, const char *jid, int64_t sender_t)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || sender_t <= 0)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT INTO privtok (jid, sender_t)"
	    " VALUES (?1, ?2) ON CONFLICT (jid) DO UPDATE SET"
	    " sender_t = excluded.sender_t")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_int64(st, 2, sender_t);
	rc = store_q_run(s, st, "noting our issued privacy token");
	return rc < 0 ? rc : 0;
}

int
store_privtok_salt_put(struct store *s, const uint8_t *salt, size_t len)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (salt == NULL || len == 0 || len > STORE_SALT_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT OR REPLACE INTO privtok_salt"
	    " (id, salt) VALUES (1, ?1)")) != 0)
		return rc;
	sqlite3_bind_blob(st, 1, salt, (int)len, SQLITE_STATIC);
	rc = store_q_run(s, st, "storing the nctSalt");
	return rc < 0 ? rc : 0;
}

int
store_privtok_salt_get(struct store *s, uint8_t out[STORE_SALT_MAX],
    size_t *len)
{
	sqlite3_stmt	*st;
	const void	*p;
	size_t		 n;
	int		 rc;

	if (out == NULL || len == NULL)
		return -EINVAL;
	*len = 0;
	if ((rc = store_q_prep(s, &st, "SELECT salt FROM privtok_salt"
	    " WHERE id = 1")) != 0)
		return rc;
	if ((rc = store_q_step_one(s, st, "loading the nctSalt")) != 1) {
		store_stmt_done(s, st);
		return rc;
	}
	p = sqlite3_column_blob(st, 0);
	n = (size_t)sqlite3_column_bytes(st, 0);
	rc = 0;
	if (p != NULL && n > 0 && n <= STORE_SALT_MAX) {
		memcpy(out, p, n);
		*len = n;
		rc = 1;
	}
	store_stmt_done(s, st);
	return rc;
}
