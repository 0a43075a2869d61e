/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/signal.c -- Signal state (tables session, identity, sender_key):
 * libsignal's records as opaque blobs keyed by address, and remote
 * identity keys with the time they changed (store/store.h, protocol.md
 * 5.4, 11.2, 16).  The transactions the engine wraps around "session
 * advanced + message stored" are store/tx.c's.
 *
 * Statements come from the connection's cache by their SQL text
 * (store_stmt()), prepared once per connection.
 */
#include "base/compat.h"

#include <errno.h>

#include <sodium.h>

#define LOG_TAG "store"
#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "store/store-int.h"

static int
check_name(const char *name)
{
	if (name == NULL || strnlen(name, STORE_SIGNAL_NAME_MAX + 1) >
	    STORE_SIGNAL_NAME_MAX)
		return -EINVAL;
	return 0;
}

/* A statement for sql from the connection's cache (store_stmt()). */
static int
prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	return store_stmt(s, sql, st);
}

/* Step a statement that returns no rows, then finalize it. */
static int
run(struct store *s, sqlite3_stmt *st, const char *what)
{
	int	 rc = sqlite3_step(st);

	if (rc != SQLITE_DONE)
		log_error("%s: %s", what, sqlite3_errmsg(s->db));
	store_stmt_done(s, st);
	return rc == SQLITE_DONE ? 0 : store_step_err(s, rc);
}

static void
bind_addr(sqlite3_stmt *st, int col, const char *name, uint32_t device)
{
	sqlite3_bind_text(st, col, name, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, col + 1, device);
}

/*
 * Step st (which selects one blob) and append the blob to out.  Returns
 * 1, 0 (no row), -EIO (SQLite could not read the row: never "none"),
 * -ENOMEM, or WC_EBADRECORD when the row was read but its record is NULL,
 * empty or above STORE_SIGNAL_RECORD_MAX: damaged, for the caller to
 * quarantine and rebuild (reliability.md 9); finalizes st.
 */
static int
load_blob(struct store *s, sqlite3_stmt *st, struct buf *out,
    const char *what)
{
	const void	*p;
	int		 rc, n;

	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		store_stmt_done(s, st);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		log_error("%s: %s", what, sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		return -EIO;
	}
	p = sqlite3_column_blob(st, 0);
	n = sqlite3_column_bytes(st, 0);
	if (p == NULL && sqlite3_errcode(s->db) == SQLITE_NOMEM) {
		store_stmt_done(s, st);
		return -ENOMEM;
	}
	if (p == NULL || n <= 0 || (size_t)n > STORE_SIGNAL_RECORD_MAX) {
		log_warn("%s: the stored record is damaged (%d bytes)", what,
		    n);
		store_stmt_done(s, st);
		return WC_EBADRECORD;
	}
	buf_append(out, p, (size_t)n);
	store_stmt_done(s, st);
	return 1;
}

int
store_signal_session_load(struct store *s, const char *name, uint32_t device,
    struct buf *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(name)) != 0)
		return rc;
	if ((rc = prepare(s, "SELECT record FROM session"
	    " WHERE name = ?1 AND device = ?2", &st)) != 0)
		return rc;
	bind_addr(st, 1, name, device);
	return load_blob(s, st, out, "loading a session");
}

int
store_signal_session_store(struct store *s, const char *name,
    uint32_t device, const uint8_t *rec, size_t len)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(name)) != 0)
		return rc;
	if (rec == NULL || len == 0 || len > STORE_SIGNAL_RECORD_MAX)
		return -EINVAL;
	if ((rc = prepare(s, "INSERT OR REPLACE INTO session"
	    " (name, device, record) VALUES (?1, ?2, ?3)", &st)) != 0)
		return rc;
	bind_addr(st, 1, name, device);
	sqlite3_bind_blob(st, 3, rec, (int)len, SQLITE_STATIC);
	return run(s, st, "storing a session");
}

int
store_signal_session_contains(struct store *s, const char *name,
    uint32_t device)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(name)) != 0)
		return rc;
	if ((rc = prepare(s, "SELECT 1 FROM session"
	    " WHERE name = ?1 AND device = ?2", &st)) != 0)
		return rc;
	bind_addr(st, 1, name, device);
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		log_error("looking a session up: %s", sqlite3_errmsg(s->db));
	store_stmt_done(s, st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

int
store_signal_session_delete(struct store *s, const char *name,
    uint32_t device)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(name)) != 0)
		return rc;
	if ((rc = prepare(s, "DELETE FROM session"
	    " WHERE name = ?1 AND device = ?2", &st)) != 0)
		return rc;
	bind_addr(st, 1, name, device);
	if ((rc = run(s, st, "deleting a session")) != 0)
		return rc;
	return sqlite3_changes(s->db) > 0 ? 1 : 0;
}

int
store_signal_session_delete_all(struct store *s, const char *name)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(name)) != 0)
		return rc;
	if ((rc = prepare(s, "DELETE FROM session WHERE name = ?1", &st)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if ((rc = run(s, st, "deleting sessions")) != 0)
		return rc;
	return sqlite3_changes(s->db);
}

int
store_signal_session_devices(struct store *s, const char *name,
    uint32_t *out, size_t max)
{
	sqlite3_stmt	*st;
	int		 rc, n = 0;

	if ((rc = check_name(name)) != 0)
		return rc;
	if ((rc = prepare(s, "SELECT device FROM session WHERE name = ?1"
	    " ORDER BY device", &st)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if ((size_t)n < max)
			out[n] = (uint32_t)sqlite3_column_int64(st, 0);
		n++;
	}
	if (rc != SQLITE_DONE)
		log_error("listing sessions: %s", sqlite3_errmsg(s->db));
	store_stmt_done(s, st);
	return rc == SQLITE_DONE ? n : -EIO;
}

int
store_signal_identity_load(struct store *s, const char *name,
    uint32_t device, uint8_t key[STORE_KEY_LEN], int64_t *changed_ms)
{
	sqlite3_stmt	*st;
	const void	*p;
	int		 rc;

	if ((rc = check_name(name)) != 0)
		return rc;
	if ((rc = prepare(s, "SELECT key, changed_ms FROM identity"
	    " WHERE name = ?1 AND device = ?2", &st)) != 0)
		return rc;
	bind_addr(st, 1, name, device);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		store_stmt_done(s, st);
		return 0;
	}
	if (rc != SQLITE_ROW) {
		log_error("loading an identity: %s", sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		return -EIO;
	}
	p = sqlite3_column_blob(st, 0);
	if (p == NULL || sqlite3_column_bytes(st, 0) != STORE_KEY_LEN) {
		log_warn("loading an identity: the stored key is damaged");
		store_stmt_done(s, st);
		return WC_EBADRECORD;
	}
	memcpy(key, p, STORE_KEY_LEN);
	if (changed_ms != NULL)
		*changed_ms = sqlite3_column_int64(st, 1);
	store_stmt_done(s, st);
	return 1;
}

int
store_signal_identity_delete_all(struct store *s, const char *name,
    int64_t *changed_ms)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(name)) != 0)
		return rc;
	if (changed_ms != NULL) {
		*changed_ms = 0;
		if ((rc = prepare(s, "SELECT coalesce(max(changed_ms), 0)"
		    " FROM identity WHERE name = ?1", &st)) != 0)
			return rc;
		sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
		if ((rc = sqlite3_step(st)) == SQLITE_ROW)
			*changed_ms = sqlite3_column_int64(st, 0);
		else
			log_error("reading identities: %s",
			    sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		if (rc != SQLITE_ROW)
			return store_step_err(s, rc);
	}
	if ((rc = prepare(s, "DELETE FROM identity WHERE name = ?1", &st)) !=
	    0)
		return rc;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	if ((rc = run(s, st, "deleting identities")) != 0)
		return rc;
	return sqlite3_changes(s->db);
}

int
store_signal_identity_save(struct store *s, const char *name,
    uint32_t device, const uint8_t key[STORE_KEY_LEN], int64_t now_ms)
{
	sqlite3_stmt	*st;
	uint8_t		 old[STORE_KEY_LEN];
	int		 rc, had;

	if ((rc = check_name(name)) != 0)
		return rc;
	had = store_signal_identity_load(s, name, device, old, NULL);
	if (had == WC_EBADRECORD) {
		/* replaced by the key now seen, and told as a change: the
		 * user cannot know the damaged one was this key */
		log_warn("the damaged identity of device %u is quarantined: "
		    "replaced by the key now seen, reported as a change",
		    device);
		had = 1;
		memset(old, 0, sizeof(old));
	} else if (had < 0)
		return had;
	if (had == 1 && sodium_memcmp(old, key, STORE_KEY_LEN) == 0)
		return 0;
	if (had == 0)
		rc = prepare(s, "INSERT INTO identity (name, device, key,"
		    " seen_ms) VALUES (?1, ?2, ?3, ?4)", &st);
	else
		rc = prepare(s, "UPDATE identity SET key = ?3, seen_ms = ?4,"
		    " changed_ms = ?4 WHERE name = ?1 AND device = ?2", &st);
	if (rc != 0)
		return rc;
	bind_addr(st, 1, name, device);
	sqlite3_bind_blob(st, 3, key, STORE_KEY_LEN, SQLITE_STATIC);
	sqlite3_bind_int64(st, 4, now_ms);
	if ((rc = run(s, st, "saving an identity")) != 0)
		return rc;
	return had;
}

int
store_signal_sender_key_load(struct store *s, const char *group_id,
    const char *name, uint32_t device, struct buf *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(group_id)) != 0 || (rc = check_name(name)) != 0)
		return rc;
	if ((rc = prepare(s, "SELECT record FROM sender_key WHERE group_id = ?1"
	    " AND name = ?2 AND device = ?3", &st)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, group_id, -1, SQLITE_STATIC);
	bind_addr(st, 2, name, device);
	return load_blob(s, st, out, "loading a sender key");
}

int
store_signal_sender_key_store(struct store *s, const char *group_id,
    const char *name, uint32_t device, const uint8_t *rec, size_t len)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(group_id)) != 0 || (rc = check_name(name)) != 0)
		return rc;
	if (rec == NULL || len == 0 || len > STORE_SIGNAL_RECORD_MAX)
		return -EINVAL;
	if ((rc = prepare(s, "INSERT OR REPLACE INTO sender_key"
	    " (group_id, name, device, record) VALUES (?1, ?2, ?3, ?4)",
	    &st)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, group_id, -1, SQLITE_STATIC);
	bind_addr(st, 2, name, device);
	sqlite3_bind_blob(st, 4, rec, (int)len, SQLITE_STATIC);
	return run(s, st, "storing a sender key");
}

int
store_signal_sender_key_delete(struct store *s, const char *group_id,
    const char *name, uint32_t device)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = check_name(group_id)) != 0 || (rc = check_name(name)) != 0)
		return rc;
	if ((rc = prepare(s, "DELETE FROM sender_key WHERE group_id = ?1"
	    " AND name = ?2 AND device = ?3", &st)) != 0)
		return rc;
	sqlite3_bind_text(st, 1, group_id, -1, SQLITE_STATIC);
	bind_addr(st, 2, name, device);
	if ((rc = run(s, st, "deleting a sender key")) != 0)
		return rc;
	return sqlite3_changes(s->db) > 0 ? 1 : 0;
}
