/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/db.c -- opening the database: file modes, pragmas, numbered
 * schema migrations.  The statements of each table live in their own file
 * (store/device.c, store/prekey.c).
 */
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#define LOG_TAG "store"
#include "err.h"
#include "log.h"
#include "store-int.h"
#include "xmalloc.h"

/*
 * Migration N takes the schema from version N-1 to N.  Append only: a
 * released migration is never edited, so every past schema can still be
 * brought forward.
 */
static const char *const migrations[] = {
	/* 1: this device's keys and its one-time prekeys */
	"CREATE TABLE device ("
	"  id INTEGER PRIMARY KEY CHECK (id = 1),"
	"  noise_priv BLOB NOT NULL, noise_pub BLOB NOT NULL,"
	"  identity_priv BLOB NOT NULL, identity_pub BLOB NOT NULL,"
	"  registration_id INTEGER NOT NULL,"
	"  adv_secret BLOB NOT NULL,"
	"  spk_id INTEGER NOT NULL, spk_priv BLOB NOT NULL,"
	"  spk_pub BLOB NOT NULL, spk_sig BLOB NOT NULL,"
	"  jid TEXT NOT NULL DEFAULT '', lid TEXT NOT NULL DEFAULT '',"
	"  push_name TEXT NOT NULL DEFAULT '',"
	"  account_sig_key BLOB, adv_identity BLOB);"
	"CREATE TABLE prekey ("
	"  id INTEGER PRIMARY KEY CHECK (id BETWEEN 1 AND 16777215),"
	"  priv BLOB NOT NULL, pub BLOB NOT NULL,"
	"  uploaded INTEGER NOT NULL DEFAULT 0);"
	"CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL);"
	"INSERT INTO counter VALUES ('next_prekey_id', 1);",
};

#define NMIGRATIONS	((int)(sizeof(migrations) / sizeof(migrations[0])))

_Static_assert(NMIGRATIONS == STORE_SCHEMA_VERSION,
    "STORE_SCHEMA_VERSION must name the newest migration");

int
store_exec(struct store *s, const char *sql)
{
	char	*msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		log_error("%s", msg != NULL ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

int
store_prepare(struct store *s, sqlite3_stmt **st, const char *sql)
{
	if (*st != NULL) {
		sqlite3_reset(*st);
		sqlite3_clear_bindings(*st);
		return 0;
	}
	if (sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st,
	    NULL) != SQLITE_OK) {
		log_error("%s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	return 0;
}

static int
user_version(struct store *s, int *v)
{
	sqlite3_stmt	*st;
	int		 rc = -EIO;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) !=
	    SQLITE_OK)
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		rc = 0;
	}
	sqlite3_finalize(st);
	return rc;
}

static int
migrate(struct store *s)
{
	char	 sql[64];
	int	 v, i, rc;

	if ((rc = user_version(s, &v)) != 0)
		return rc;
	if (v > STORE_SCHEMA_VERSION)
		return WC_ESCHEMA;
	if (v == STORE_SCHEMA_VERSION)
		return 0;
	if ((rc = store_exec(s, "BEGIN IMMEDIATE")) != 0)
		return rc;
	for (i = v; i < NMIGRATIONS; i++)
		if ((rc = store_exec(s, migrations[i])) != 0)
			goto fail;
	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d",
	    STORE_SCHEMA_VERSION);
	if ((rc = store_exec(s, sql)) != 0 || (rc = store_exec(s, "COMMIT")) != 0)
		goto fail;
	return 0;
fail:
	(void)store_exec(s, "ROLLBACK");
	return rc;
}

/* A path exists with no group or other permission, or is created so. */
static int
check_mode(const char *path, bool dir)
{
	struct stat	 st;

	if (stat(path, &st) != 0) {
		if (errno != ENOENT)
			return -errno;
		if (!dir)
			return 0;	/* SQLite creates it under our umask */
		if (mkdir(path, 0700) != 0 && errno != EEXIST)
			return -errno;
		return stat(path, &st) == 0 && (st.st_mode & 077) == 0 ? 0 :
		    -EPERM;
	}
	if (dir != S_ISDIR(st.st_mode))
		return dir ? -ENOTDIR : -EISDIR;
	if ((st.st_mode & 077) != 0) {
		log_error("%s is open to other users (mode %03o); "
		    "refusing to use it (chmod %s %s)", path,
		    (unsigned)(st.st_mode & 0777), dir ? "700" : "600", path);
		return -EPERM;
	}
	return 0;
}

int
store_open(const char *dir, struct store **out)
{
	struct store	*s;
	char		*path = NULL;
	mode_t		 old;
	int		 rc, flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX;

	if (dir != NULL && strcmp(dir, ":memory:") != 0) {
		size_t	 len = strlen(dir) + sizeof("/wachat.db");

		if ((rc = check_mode(dir, true)) != 0)
			return rc;
		path = xmalloc(len);
		snprintf(path, len, "%s/wachat.db", dir);
		if ((rc = check_mode(path, false)) != 0) {
			free(path);
			return rc;
		}
	}
	s = xcalloc(1, sizeof(*s));
	old = umask(077);	/* the database, its WAL and SHM files: 0600 */
	rc = sqlite3_open_v2(path != NULL ? path : ":memory:", &s->db, flags,
	    NULL);
	umask(old);
	free(path);
	if (rc != SQLITE_OK) {
		store_close(s);
		return -EIO;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, 5000);
	if ((rc = store_exec(s, "PRAGMA journal_mode = WAL;"
	    "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")) != 0 ||
	    (rc = migrate(s)) != 0) {
		store_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

int
store_schema_version(struct store *s)
{
	int	 v = -1;

	return user_version(s, &v) == 0 ? v : -EIO;
}

void
store_close(struct store *s)
{
	size_t	 i;

	if (s == NULL)
		return;
	for (i = 0; i < sizeof(s->st) / sizeof(s->st[0]); i++)
		sqlite3_finalize(s->st[i]);
	sqlite3_close(s->db);
	free(s);
}
