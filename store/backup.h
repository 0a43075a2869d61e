/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/backup.h -- the database's health, seen from outside the tables
 * (store/backup.c; reliability.md rule 9 and the "Corrupt DB" figure):
 * an integrity check that can run on a connection of its own while
 * wachat runs, a damaged database moved aside (never overwritten), and an
 * online backup to a file (SQLite's backup API: a consistent copy that
 * holds what is still in the WAL, which copying wachat.db alone loses).
 *
 * The errors that say what is wrong with a database, here and from
 * store_open() and store_open_ro() (store/store.h): WC_EDBEMPTY (the file
 * is 0 bytes), WC_EDBNOTDB (its header is not SQLite's: not a database),
 * WC_EDBMALFORMED (SQLite found a damaged page), -ENOSPC (the disk is
 * full), -EROFS (a read-only file system), -EACCES (no permission to
 * write or read it), -EPERM (open to other users).
 */
#ifndef STORE_BACKUP_H
#define STORE_BACKUP_H

#include <stdbool.h>
#include <stddef.h>

struct store;

/*
 * The database of s is damaged: make store_close() leave it and its WAL
 * as they are (no checkpoint at close, which would write the WAL's pages
 * into the damaged file and delete the WAL).  store_open_ro()
 * connections are always so.  s's thread; NULL is a no-op.
 */
void	store_keep_as_is(struct store *s);

/* Whether err is one of the errors of a damaged database: WC_EDBEMPTY,
 * WC_EDBNOTDB, WC_EDBMALFORMED.  Any thread. */
bool	store_err_damaged(int err);

/*
 * store_open_ro() for a process whose own store_open() connection on
 * dir/wachat.db is open (the background check of src/app-db.c): the same
 * connection and errors (*version not given), but the file is never
 * opened outside SQLite, so nothing drops the POSIX locks that tell other
 * processes' SQLite connections that the WAL is in use (closing any fd
 * of a file drops every fcntl lock of the process on it).  The header was
 * checked when the first connection opened; damage since then is found
 * by SQLite (WC_EDBNOTDB or WC_EDBMALFORMED from the first read).  Any
 * thread.
 */
int	store_open_ro_beside(const char *dir, struct store **out);

/*
 * Run SQLite's PRAGMA quick_check on s (checks every page and the
 * b-trees' structure, not the indexes' contents; O(size of the database)).
 * Returns 0 when it says "ok"; WC_EDBMALFORMED (or WC_EDBNOTDB) when it
 * finds damage, the first problem it names copied into why (size bytes,
 * NUL-terminated; why NULL: not copied); -EINTR when store_interrupt()
 * stopped it; -EIO or another error of store_db_error() when it cannot
 * run.  Meant for a connection of its own (store_open_ro()) on a worker
 * thread: it reads the whole file.  s's thread.
 */
int	store_quick_check(struct store *s, char *why, size_t size);

/*
 * Make the statement running on s (store_quick_check(), store_backup())
 * stop soon with -EINTR (sqlite3_interrupt).  Any thread, but s must not
 * be closed meanwhile (the caller's mutex).
 */
void	store_interrupt(struct store *s);

/*
 * Move the database of dir aside: wachat.db and, when present, its
 * wachat.db-wal and wachat.db-shm are renamed to
 * wachat.db.damaged-YYYYmmdd-HHMMSS (local time; -2, -3, ... appended
 * when that name is taken: an earlier file is never overwritten) with
 * the same -wal and -shm suffixes, in dir.  The caller holds the data
 * dir's lock and has no connection open on the database.  Returns 0 with
 * the new path of wachat.db in out (size bytes), -ENOENT when there is no
 * wachat.db, -EEXIST when 100 names are all taken, or -errno of a rename
 * (the files moved so far stay moved; none is lost).  Any thread.
 */
int	store_move_aside(const char *dir, char *out, size_t size);

/*
 * Which path of the data dir dir this process has no permission for
 * (after an -EACCES): dir itself (searched and read, and written when
 * write is true or there is no wachat.db-shm yet, which SQLite makes
 * beside the database), else the first of its wachat.db, wachat.db-wal,
 * wachat.db-shm that exists and cannot be read (or, write true,
 * written); dir when none is found (permissions may have changed
 * since).  Written into out (size bytes, NUL-terminated).  Any thread.
 */
void	store_denied_path(const char *dir, bool write, char *out, size_t size);

/*
 * Write a consistent copy of s's database to file with SQLite's online
 * backup API (one step: it reads in one read transaction, so a writer on
 * another connection, a running wachat, neither blocks it nor tears it;
 * it holds what is still in the WAL).  The copy is written to a
 * temporary file beside file (mode 0600), switched to journal_mode
 * DELETE (one self-contained file, readable by sqlite3 -readonly),
 * synced, then renamed over file; on any failure the temporary file is
 * removed and file is untouched.  Refuses (-EINVAL) when file names the
 * database itself or its -wal or -shm file.  Returns 0, -errno (the
 * temporary file, the rename: -ENOENT for a missing directory, -EACCES,
 * -ENOSPC, ...), an error of store_db_error(), or -EINTR after
 * store_interrupt().  s's thread (a store_open_ro() connection does).
 */
int	store_backup(struct store *s, const char *file);

#endif
