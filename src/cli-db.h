/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-db.h -- the subcommands' database (src/cli-db.c): opened
 * read-only with the settings' data dir, what is wrong with it said in
 * words with its exit status (src/cli.h), and wachat backup.  Part of
 * src/cli.c; main thread.  Their words are not marked for translation,
 * as src/cli.c's.
 */
#ifndef WC_CLI_DB_H
#define WC_CLI_DB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

struct store;

/*
 * What the data dir's files look like (cli_db_look()): whether
 * wachat.db-wal is there (a wachat has the database open, or left it
 * unclean) and wachat.db's identity, size and time.  A database opened
 * without a WAL was opened immutable (store_open_ro()) and sees no later
 * write: cli_db_look_changed() says when it must be opened again (a WAL
 * shows up or the file changes).  cli_nap(): sleep ms, or less when a
 * signal comes.  For history --follow; main thread.
 */
struct cli_db_look {
	bool		 wal;
	dev_t		 dev;
	ino_t		 ino;
	off_t		 size;
	struct timespec	 mtime;
};

void	cli_db_look(const char *dir, struct cli_db_look *l);
bool	cli_db_look_changed(const struct cli_db_look *a,
	    const struct cli_db_look *b);
void	cli_nap(long ms);

/*
 * Load the settings (file: --config or NULL; data_dir: --data-dir or
 * NULL) and open the data dir's database read-only into *s.  Returns
 * CLI_OK, CLI_USAGE (a bad setting), CLI_DAMAGED (empty, not a database,
 * malformed) or CLI_DB (missing, other schema, permissions, ...), the
 * reason said on stderr.
 */
int	cli_open_db(const char *file, const char *data_dir, struct store **s);

/* cli_open_db(), and the data dir it opened copied to dir[size] (for a
 * subcommand that looks at the dir's other files: history --follow). */
int	cli_open_db_at(const char *file, const char *data_dir,
	    struct store **s, char *dir, size_t size);

/*
 * A subcommand failed to read s (CLI_DB): when PRAGMA quick_check finds
 * the database damaged, say so on stderr and return CLI_DAMAGED; else
 * CLI_DB.
 */
int	cli_db_failed(struct store *s);

/*
 * wachat backup FILE: a consistent copy of s's database (store_backup(),
 * SQLite's online backup: what is still in the WAL included) written to
 * file, 0600, atomically.  Returns CLI_OK (file named on stdout),
 * CLI_USAGE (file is the database itself), CLI_DAMAGED (the database is
 * damaged), CLI_WRITE (file cannot be written: its directory, space,
 * permissions), CLI_DB (the database cannot be read), the reason said on
 * stderr.
 */
int	cli_backup(struct store *s, const char *file);

/*
 * The end of a subcommand: standard output flushed.  Returns status, or
 * CLI_WRITE when standard output could not be written (a full disk, a
 * closed pipe), said in one line on stderr with why (errno's words).  A
 * CLI_WRITE status passed in is returned as it is and not said again:
 * its subcommand said which file and why.  Main thread.
 */
int	cli_flush(int status);

#endif
