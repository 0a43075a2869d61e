/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/backup.c -- the database's health from outside its tables
 * (store/backup.h): the background integrity check, moving a damaged
 * database aside, the online backup to a file.
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/log.h"
#include "store/backup.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

bool
store_err_damaged(int err)
{
	return err == WC_EDBEMPTY || err == WC_EDBNOTDB ||
	    err == WC_EDBMALFORMED || err == WC_EDBNOKEYS;
}

/* Whether this process may use path as mode (access(2)); when not, path
 * into out. */
static bool
denied(const char *path, int mode, char *out, size_t size)
{
	if (access(path, mode) == 0 || (errno != EACCES && errno != EPERM))
		return false;
	snprintf(out, size, "%s", path);
	return true;
}

void
store_denied_path(const char *dir, bool write, char *out, size_t size)
{
	static const char *const sfx[] = { "", "-wal", "-shm" };
	char		 path[4096];
	size_t		 i;
	int		 fmode = write ? R_OK | W_OK : R_OK;
	bool		 shm;

	snprintf(path, sizeof(path), "%s/wachat.db-shm", dir);
	shm = access(path, F_OK) == 0;
	/* SQLite makes the -wal and -shm files beside the database */
	if (denied(dir, write || !shm ? R_OK | W_OK | X_OK : R_OK | X_OK,
	    out, size))
		return;
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(path, sizeof(path), "%s/wachat.db%s", dir, sfx[i]);
		if (access(path, F_OK) == 0 && denied(path, fmode, out, size))
			return;
	}
	snprintf(out, size, "%s", dir);
}

/* SQLite's report as one line: its "*** in database main ***" heading
 * dropped, each control character a space. */
static void
one_line(char *out, size_t size, const char *t)
{
	static const char	 head[] = "*** in database main ***";
	size_t			 i;

	if (strncmp(t, head, sizeof(head) - 1) == 0)
		t += sizeof(head) - 1;
	t += strspn(t, "\n ");
	snprintf(out, size, "%s", t);
	for (i = 0; out[i] != '\0'; i++)
		if ((unsigned char)out[i] < 0x20 || out[i] == 0x7f)
			out[i] = ' ';
}

int
store_quick_check(struct store *s, char *why, size_t size)
{
	sqlite3_stmt		*st;
	const unsigned char	*t;
	int			 rc;

	if (why != NULL && size > 0)
		why[0] = '\0';
	if (sqlite3_prepare_v2(s->db, "PRAGMA quick_check(1)", -1, &st,
	    NULL) != SQLITE_OK) {
		rc = store_db_error(s);
		if (why != NULL && size > 0)
			snprintf(why, size, "%s", sqlite3_errmsg(s->db));
		return rc == -EIO ? WC_EDBMALFORMED : rc;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		t = sqlite3_column_text(st, 0);
		rc = t != NULL && strcmp((const char *)t, "ok") == 0 ? 0 :
		    WC_EDBMALFORMED;
		if (rc != 0 && why != NULL && size > 0)
			one_line(why, size, t != NULL ? (const char *)t : "");
	} else {
		sqlite3_finalize(st);
		rc = store_db_error(s);
		if (why != NULL && size > 0)
			snprintf(why, size, "%s", sqlite3_errmsg(s->db));
		/* a damaged page stops the check itself */
		return rc;
	}
	sqlite3_finalize(st);
	return rc;
}

void
store_interrupt(struct store *s)
{
	sqlite3_interrupt(s->db);
}

/* The name for wachat.db set aside: base plus the time, or with -N. */
static int
aside_name(const char *dir, char *out, size_t size)
{
	char		 stamp[32];
	struct stat	 st;
	struct tm	 tm;
	time_t		 now = time(NULL);
	int		 i;

	if (localtime_r(&now, &tm) == NULL ||
	    strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm) == 0)
		return -EINVAL;
	for (i = 1; i <= 100; i++) {
		if (i == 1)
			snprintf(out, size, "%s/wachat.db.damaged-%s", dir,
			    stamp);
		else
			snprintf(out, size, "%s/wachat.db.damaged-%s-%d", dir,
			    stamp, i);
		if (lstat(out, &st) != 0 && errno == ENOENT)
			return 0;
	}
	return -EEXIST;
}

/* Rename from to to without replacing anything at to. */
static int
move_noreplace(const char *from, const char *to)
{
	if (link(from, to) != 0)
		return -errno;
	if (unlink(from) != 0) {
		int	 rc = -errno;

		(void)unlink(to);
		return rc;
	}
	return 0;
}

int
store_move_aside(const char *dir, char *out, size_t size)
{
	static const char *const sfx[] = { "-wal", "-shm" };
	size_t	 len = strlen(dir) + 64;
	char	*from = xmalloc(len), *to;
	int	 rc;
	size_t	 i;

	snprintf(from, len, "%s/wachat.db", dir);
	if (access(from, F_OK) != 0) {
		rc = -errno;
		free(from);
		return rc;
	}
	if ((rc = aside_name(dir, out, size)) != 0 ||
	    (rc = move_noreplace(from, out)) != 0) {
		free(from);
		return rc;
	}
	to = xmalloc(strlen(out) + 8);
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]) && rc == 0; i++) {
		snprintf(from, len, "%s/wachat.db%s", dir, sfx[i]);
		snprintf(to, strlen(out) + 8, "%s%s", out, sfx[i]);
		if (access(from, F_OK) == 0)
			rc = move_noreplace(from, to);
	}
	log_warn("the damaged database is kept as %s", out);
	free(to);
	free(from);
	return rc;
}

/* Whether file is the database of s or one of its -wal, -shm files. */
static bool
is_own_file(struct store *s, const char *file)
{
	const char	*db = sqlite3_db_filename(s->db, "main");
	static const char *const sfx[] = { "", "-wal", "-shm" };
	struct stat	 a, b;
	char		 path[4096];
	size_t		 i;

	if (db == NULL || db[0] == '\0' || stat(file, &a) != 0)
		return false;
	for (i = 0; i < sizeof(sfx) / sizeof(sfx[0]); i++) {
		snprintf(path, sizeof(path), "%s%s", db, sfx[i]);
		if (stat(path, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return true;
	}
	return false;
}

/* The pages of s into the open database dst, one self-contained file. */
static int
copy_into(struct store *s, sqlite3 *dst)
{
	sqlite3_backup	*bk;
	int		 rc;

	if ((bk = sqlite3_backup_init(dst, "main", s->db, "main")) == NULL)
		return -EIO;
	rc = sqlite3_backup_step(bk, -1);
	(void)sqlite3_backup_finish(bk);
	if (rc != SQLITE_DONE) {
		log_error("backup: %s", sqlite3_errstr(rc));
		return store_db_error(s) != -EIO ? store_db_error(s) :
		    (rc & 0xff) == SQLITE_FULL ? -ENOSPC : -EIO;
	}
	if (sqlite3_exec(dst, "PRAGMA journal_mode = DELETE", NULL, NULL,
	    NULL) != SQLITE_OK)
		return (sqlite3_extended_errcode(dst) & 0xff) == SQLITE_FULL ?
		    -ENOSPC : -EIO;
	return 0;
}

/* fsync the file at path, or the directory that holds it. */
static int
sync_path(const char *path, bool parent)
{
	char	*copy = xstrdup(path);
	int	 fd, rc = 0;

	fd = open(parent ? dirname(copy) : copy, O_RDONLY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -errno;
	if (fsync(fd) != 0 && !parent)
		rc = -errno;
	(void)close(fd);
	return rc;
}

int
store_backup(struct store *s, const char *file)
{
	sqlite3	*dst = NULL;
	size_t	 len = strlen(file) + 16;
	char	*tmp = xmalloc(len);
	mode_t	 old;
	int	 fd, rc;

	if (is_own_file(s, file)) {
		free(tmp);
		return -EINVAL;
	}
	snprintf(tmp, len, "%s.tmp-XXXXXX", file);
	if ((fd = mkstemp(tmp)) < 0) {	/* 0600 */
		rc = -errno;
		free(tmp);
		return rc;
	}
	(void)close(fd);
	old = umask(077);	/* its journal too */
	if (sqlite3_open_v2(tmp, &dst, SQLITE_OPEN_READWRITE |
	    SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
		rc = -EIO;
	else
		rc = copy_into(s, dst);
	if (dst != NULL && sqlite3_close(dst) != SQLITE_OK && rc == 0)
		rc = -EIO;
	umask(old);
	if (rc == 0)
		rc = sync_path(tmp, false);
	if (rc == 0 && rename(tmp, file) != 0)
		rc = -errno;
	if (rc == 0)
		(void)sync_path(file, true);
	else
		(void)unlink(tmp);
	free(tmp);
	return rc;
}
