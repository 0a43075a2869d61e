/* SPDX-License-Identifier: GPL-3.0-or-later */
/* store/query.c -- small statement helpers shared by store/ (store-int.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

/* A required (non-empty) or optional string within max bytes. */
bool
store_q_str_ok(const char *p, size_t max, bool required)
{
	size_t	 len;

	if (p == NULL)
		return !required;
	len = strnlen(p, max + 1);
	return len <= max && (len > 0 || !required);
}

/* A statement for sql from the connection's cache (store_stmt()). */
int
store_q_prep(struct store *s, sqlite3_stmt **st, const char *sql)
{
	return store_stmt(s, sql, st);
}

/*
 * Step st for at most one row: 1 when it gave one (read it, then hand st
 * back), 0 when none, -EIO (logged with what) on an error.
 */
int
store_q_step_one(struct store *s, sqlite3_stmt *st, const char *what)
{
	int	 rc = sqlite3_step(st);

	if (rc == SQLITE_ROW)
		return 1;
	if (rc == SQLITE_DONE)
		return 0;
	log_error("%s: %s", what, sqlite3_errmsg(s->db));
	return store_step_err(s, rc);
}

/*
 * Step st, which returns no rows, and finalize it.  Returns the number of
 * rows changed (>= 0) or -EIO.
 */
int
store_q_run(struct store *s, sqlite3_stmt *st, const char *what)
{
	int	 rc = sqlite3_step(st);

	store_stmt_done(s, st);
	if (rc != SQLITE_DONE) {
		log_error("%s: %s", what, sqlite3_errmsg(s->db));
		return store_step_err(s, rc);
	}
	return sqlite3_changes(s->db);
}

void
store_q_bind_str(sqlite3_stmt *st, int col, const char *p)
{
	sqlite3_bind_text(st, col, p != NULL ? p : "", -1, SQLITE_STATIC);
}

/* Bind p[0..len): text from the network may hold any bytes, NUL too. */
void
store_q_bind_text(sqlite3_stmt *st, int col, const char *p, size_t len)
{
	sqlite3_bind_text(st, col, p != NULL ? p : "", p != NULL ? (int)len :
	    0, SQLITE_STATIC);
}

/* A copy of text column col, NUL-terminated, its length in *len. */
char *
store_q_col_dup(sqlite3_stmt *st, int col, size_t *len)
{
	const unsigned char	*p = sqlite3_column_text(st, col);
	size_t			 n = 0;
	char			*out;

	if (p != NULL)
		n = (size_t)sqlite3_column_bytes(st, col);
	out = xmalloc(n + 1);
	if (n > 0)
		memcpy(out, p, n);
	out[n] = '\0';
	if (len != NULL)
		*len = n;
	return out;
}

/* Copy text column col into out[size], cut at size - 1 bytes. */
void
store_q_col_copy(sqlite3_stmt *st, int col, char *out, size_t size)
{
	const unsigned char	*p = sqlite3_column_text(st, col);
	size_t			 n = 0;

	if (p != NULL)
		n = (size_t)sqlite3_column_bytes(st, col);
	if (n > size - 1)
		n = size - 1;
	if (n > 0)
		memcpy(out, p, n);
	out[n] = '\0';
}

/* A kind column: an unknown value reads as STORE_MSG_UNSUPPORTED. */
enum store_msg_kind
store_q_kind(int64_t v)
{
	return (v >= STORE_MSG_TEXT && v <= STORE_MSG_HIDDEN) ||
	    v == STORE_MSG_RICH ?
	    (enum store_msg_kind)v : STORE_MSG_UNSUPPORTED;
}

/* A state column, clamped to FAILED..PLAYED. */
enum store_msg_state
store_q_state(int64_t v)
{
	if (v < STORE_MSG_FAILED)
		return STORE_MSG_FAILED;
	if (v > STORE_MSG_PLAYED)
		return STORE_MSG_PLAYED;
	return (enum store_msg_state)v;
}
