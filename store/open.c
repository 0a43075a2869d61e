/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/open.c -- the two ways into the database (store/store.h): the
 * engine's read-write store, which is store/db.c's connection with the
 * after-commit hooks of the modules that need one registered on it (the
 * search index's batch, store/search.c), and the command line's
 * read-only connection.  At the top of store/'s call graph: nothing in
 * store/ calls it.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/log.h"
#include "store/backup.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

int
store_open(const char *dir, struct store **out)
{
	struct store	*s;
	int		 rc;

	if ((rc = store_db_open(dir, &s)) != 0)
		return rc;
	if ((rc = store_fts_attach(s)) != 0) {
		store_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

/* A file or directory that exists with no group or other permission. */
static int
ro_mode_ok(const char *path, bool dir)
{
	struct stat	 st;

	if (stat(path, &st) != 0)
		return -errno;
	if (dir != S_ISDIR(st.st_mode))
		return dir ? -ENOTDIR : -EISDIR;
	if ((st.st_mode & 077) != 0) {
		log_warn("%s is open to other users (mode %03o)", path,
		    (unsigned)(st.st_mode & 0777));
		return -EPERM;
	}
	return 0;
}

/*
 * The URI a reader opens path by.  A database with neither a -wal nor a
 * -shm beside it was closed cleanly by its last writer, which folded the
 * WAL in: everything is in the file, and no wachat has it open (a
 * connection in WAL mode keeps both while it is open).  It is opened
 * immutable=1: no -wal or -shm made (the data dir is left as found), and
 * readable on a read-only mount, where SQLite could make neither
 * (SQLite's wal.html "Read-Only Databases").  Else the plain file:
 * SQLite reads the WAL through the -shm.  Returned xmalloc'd.
 */
static char *
ro_uri(const char *path)
{
	struct stat	 st;
	static const char hex[] = "0123456789ABCDEF";
	size_t		 len = strlen(path), i, o = 0;
	char		*side = xmalloc(len + sizeof("-wal"));
	char		*uri = xmalloc(3 * len + sizeof("file:?immutable=1"));
	bool		 clean;

	snprintf(side, len + sizeof("-wal"), "%s-wal", path);
	clean = lstat(side, &st) != 0 && errno == ENOENT;
	snprintf(side, len + sizeof("-wal"), "%s-shm", path);
	clean = clean && lstat(side, &st) != 0 && errno == ENOENT;
	free(side);
	memcpy(uri, "file:", 5);
	o = 5;
	for (i = 0; i < len; i++) {
		unsigned char	 c = (unsigned char)path[i];

		if (c == '%' || c == '?' || c == '#' || c < 0x21 || c > 0x7e) {
			uri[o++] = '%';
			uri[o++] = hex[c >> 4];
			uri[o++] = hex[c & 15];
		} else
			uri[o++] = (char)c;
	}
	snprintf(uri + o, sizeof("?immutable=1"), "%s",
	    clean ? "?immutable=1" : "");
	return uri;
}

/* store_open_ro(), and store_open_ro_beside() with precheck false: the
 * header check by a raw read of the file only when asked, since closing
 * that fd drops every fcntl lock this process holds on the file. */
static int
open_ro(const char *dir, struct store **out, int *version, bool precheck)
{
	struct store	*s;
	sqlite3_stmt	*st;
	char		*path, *uri;
	size_t		 len;
	int		 rc, v = -1;

	if (dir == NULL || out == NULL)
		return -EINVAL;
	len = strlen(dir) + sizeof("/wachat.db");
	path = xmalloc(len);
	snprintf(path, len, "%s/wachat.db", dir);
	if ((rc = ro_mode_ok(dir, true)) != 0 ||
	    (rc = ro_mode_ok(path, false)) != 0 ||
	    (precheck && (rc = store_db_precheck(path)) != 0)) {
		free(path);
		return rc;
	}
	s = xcalloc(1, sizeof(*s));
	uri = ro_uri(path);
	free(path);
	rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY |
	    SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI, NULL);
	free(uri);
	if (rc != SQLITE_OK) {
		rc = s->db != NULL ? store_db_error(s) : -ENOMEM;
		store_close(s);
		return rc;
	}
	/* A reader never checkpoints: the file and its WAL stay as found. */
	store_keep_as_is(s);
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, 5000);
	if ((rc = store_tok_register(s->db)) != 0) {
		store_close(s);
		return rc;
	}
	rc = -EIO;
	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) ==
	    SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW) {
			v = sqlite3_column_int(st, 0);
			rc = 0;
		} else
			log_warn("reading the schema version: %s",
			    sqlite3_errmsg(s->db));
		sqlite3_finalize(st);
	}
	if (rc != 0)
		rc = store_db_error(s);
	if (rc == 0 && version != NULL)
		*version = v;
	if (rc == 0)
		rc = store_schema_check(s, v);
	if (rc == 0 && v != STORE_SCHEMA_VERSION)
		rc = WC_ESCHEMA;	/* an older one: wachat upgrades it */
	if (rc != 0) {
		store_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

int
store_open_ro(const char *dir, struct store **out, int *version)
{
	return open_ro(dir, out, version, true);
}

int
store_open_ro_beside(const char *dir, struct store **out)
{
	return open_ro(dir, out, NULL, false);
}
