/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-db.c -- the subcommands' database (src/cli-db.h): the
 * read-only open with its reasons in words, the damaged database told
 * apart from other failures, wachat backup, and the output flushed.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/err.h"
#include "src/cli-db.h"
#include "src/cli.h"
#include "src/conf.h"
#include "store/backup.h"
#include "store/store.h"

/* Whether dir/name exists (a file of any kind). */
static bool
has(const char *dir, const char *name)
{
	char		 path[4096];
	struct stat	 st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return lstat(path, &st) == 0;
}

/* SQLite could not open dir/wachat.db though it is there: a WAL it
 * cannot read without a -shm it cannot make (a read-only data dir). */
static void
say_cannot_open(const char *dir)
{
	if (has(dir, "wachat.db-wal") && !has(dir, "wachat.db-shm"))
		fprintf(stderr, "wachat: cannot read %s/wachat.db: its "
		    "wachat.db-wal holds changes not yet in it, which SQLite "
		    "reads only through a wachat.db-shm, and it cannot make "
		    "one in %s (read-only?); copy the data dir (cp -a) to a "
		    "writable place and give that with --data-dir\n", dir,
		    dir);
	else
		fprintf(stderr, "wachat: SQLite cannot open %s/wachat.db "
		    "(read-only data dir?)\n", dir);
}

/* What is wrong with the database of dir (rc of store_open_ro()), on
 * stderr; the exit status. */
static int
say_open_error(const char *dir, int rc, int v)
{
	char	 path[4096];

	if (rc == -ENOENT && has(dir, "wachat.db"))
		say_cannot_open(dir);
	else if (rc == -ENOENT)
		fprintf(stderr, "wachat: no database in %s (wachat has not "
		    "been linked with this data dir)\n", dir);
	else if (rc == WC_EDBEMPTY)
		fprintf(stderr, "wachat: the database %s/wachat.db is empty (0 "
		    "bytes); wachat --fresh-db moves it aside and links anew\n",
		    dir);
	else if (store_err_damaged(rc))
		fprintf(stderr, "wachat: the database %s/wachat.db is damaged "
		    "(%s); keep a copy of it; wachat --fresh-db moves it aside "
		    "and links anew\n", dir, wc_strerror(rc));
	else if (rc == WC_ESCHEMA && v > STORE_SCHEMA_VERSION)
		fprintf(stderr, "wachat: the database in %s was written by a "
		    "newer wachat (schema %d; this one reads %d)\n",
		    dir, v, STORE_SCHEMA_VERSION);
	else if (rc == WC_ESCHEMA)
		fprintf(stderr, "wachat: the database in %s has an older "
		    "schema (%d; this one reads %d): run wachat once to "
		    "upgrade it\n", dir, v, STORE_SCHEMA_VERSION);
	else if (rc == -EPERM)
		fprintf(stderr, "wachat: the data dir %s (or its database) is "
		    "open to other users: chmod 700 the directory and 600 its "
		    "files\n", dir);
	else if (rc == -EACCES) {
		store_denied_path(dir, false, path, sizeof(path));
		fprintf(stderr, "wachat: permission denied: %s (check its "
		    "owner and mode)\n", path);
	} else if (rc == -ENOTDIR)
		fprintf(stderr, "wachat: the data dir %s is not a directory\n",
		    dir);
	else if (rc == -EISDIR)
		fprintf(stderr, "wachat: %s/wachat.db is a directory, not a "
		    "database file\n", dir);
	else
		fprintf(stderr, "wachat: cannot open the database in %s: %s\n",
		    dir, wc_strerror(rc));
	return store_err_damaged(rc) ? CLI_DAMAGED : CLI_DB;
}

int
cli_open_db(const char *file, const char *data_dir, struct store **s)
{
	return cli_open_db_at(file, data_dir, s, NULL, 0);
}

int
cli_open_db_at(const char *file, const char *data_dir, struct store **s,
    char *dir, size_t size)
{
	struct conf	 conf;
	struct conf_env	 env;
	struct conf_err	 err;
	struct conf_arg	 arg = { "data-dir", data_dir };
	int		 rc, v = -1, status = CLI_OK;

	env.home = getenv("HOME");
	env.xdg_config_home = getenv("XDG_CONFIG_HOME");
	env.xdg_data_home = getenv("XDG_DATA_HOME");
	env.xdg_state_home = getenv("XDG_STATE_HOME");
	if (conf_load(&conf, &env, file, &arg, data_dir != NULL ? 1 : 0,
	    &err) != 0) {
		if (err.file[0] != '\0')
			fprintf(stderr, "wachat: %s: %s\n", err.file, err.why);
		else
			fprintf(stderr, "wachat: --%s: %s\n", err.name,
			    err.why);
		return CLI_USAGE;
	}
	if (dir != NULL && size > 0)
		snprintf(dir, size, "%s", conf.data_dir);
	if ((rc = store_open_ro(conf.data_dir, s, &v)) != 0)
		status = say_open_error(conf.data_dir, rc, v);
	conf_release(&conf);
	return status;
}

int
cli_db_failed(struct store *s)
{
	char	 why[256];
	int	 rc;

	if ((rc = store_quick_check(s, why, sizeof(why))) == 0 ||
	    !store_err_damaged(rc))
		return CLI_DB;
	fprintf(stderr, "wachat: the database is damaged (%s); keep a copy "
	    "of it; wachat --fresh-db moves it aside and links anew\n", why);
	return CLI_DAMAGED;
}

int
cli_backup(struct store *s, const char *file)
{
	struct stat	 st;
	int		 rc = store_backup(s, file);

	if (rc == 0) {
		printf("wachat: the database is copied to %s\n", file);
		return CLI_OK;
	}
	if (rc == -EINVAL) {
		fprintf(stderr, "wachat backup: %s is the database itself; "
		    "name another file\n", file);
		return CLI_USAGE;
	}
	if ((rc == -EISDIR || rc == -ENOTDIR) && stat(file, &st) == 0 &&
	    S_ISDIR(st.st_mode)) {
		/* "dir/" fails as ENOTDIR: said as what it is */
		fprintf(stderr, "wachat backup: %s is a directory; give the "
		    "name of the file to write, e.g. %s%swachat-backup.db "
		    "(nothing was written)\n", file, file,
		    file[strlen(file) - 1] == '/' ? "" : "/");
		return CLI_USAGE;
	}
	if (store_err_damaged(rc)) {
		fprintf(stderr, "wachat backup: the database is damaged (%s); "
		    "nothing was written\n", wc_strerror(rc));
		return CLI_DAMAGED;
	}
	fprintf(stderr, "wachat backup: cannot write %s: %s (nothing was "
	    "written)\n", file, wc_strerror(rc));
	return rc == -EIO ? CLI_DB : CLI_WRITE;
}

int
cli_flush(int status)
{
	/* Only a failed standard output is said here: a subcommand that
	 * could not write its own file (backup) said which and why. */
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return status;
	if (errno != 0)
		fprintf(stderr, "wachat: cannot write the output: %s\n",
		    wc_strerror(-errno));
	else
		fprintf(stderr, "wachat: cannot write the output\n");
	return CLI_WRITE;
}

/*
 * What the data dir's files look like: whether wachat.db-wal is there (a
 * wachat has the database open, or left it unclean) and wachat.db's
 * identity, size and time.  A database opened without a WAL was opened
 * immutable (store_open_ro()) and sees no later write: it is opened
 * again when a WAL shows up or the file changes.
 */

void
cli_db_look(const char *dir, struct cli_db_look *l)
{
	char		 path[4096 + 16];
	struct stat	 st;

	memset(l, 0, sizeof(*l));
	snprintf(path, sizeof(path), "%s/wachat.db-wal", dir);
	l->wal = stat(path, &st) == 0;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	if (stat(path, &st) == 0) {
		l->dev = st.st_dev;
		l->ino = st.st_ino;
		l->size = st.st_size;
		l->mtime = st.st_mtim;
	}
}

/* Whether a database opened as at a must be opened again, as now b. */
bool
cli_db_look_changed(const struct cli_db_look *a, const struct cli_db_look *b)
{
	if (a->wal)
		return false;	/* data_version sees the writes */
	return b->wal || a->dev != b->dev || a->ino != b->ino ||
	    a->size != b->size || a->mtime.tv_sec != b->mtime.tv_sec ||
	    a->mtime.tv_nsec != b->mtime.tv_nsec;
}

/* Sleep ms, or less when a signal comes. */
void
cli_nap(long ms)
{
	struct timespec	 t = { ms / 1000, (ms % 1000) * 1000000L };

	(void)nanosleep(&t, NULL);
}
