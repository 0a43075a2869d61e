/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/tx.c -- transactions on a store's connection: nested levels (the
 * outermost a BEGIN IMMEDIATE, the inner ones savepoints), and the
 * after-commit hooks the store's modules register at open, run after
 * each outermost COMMIT (store/store.h; the one registered today is
 * store/search.c's FTS batch, store_fts_batch()).
 */
#include "base/compat.h"

#include <assert.h>
#include <errno.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"

/*
 * The outermost level is BEGIN IMMEDIATE, so the write lock is taken up
 * front and a writer on another connection makes us wait (busy timeout)
 * instead of failing a deferred transaction's upgrade with
 * SQLITE_BUSY_SNAPSHOT; inner levels are savepoints named "tx".  The
 * innermost level is a savepoint exactly when one named "tx" exists,
 * which RELEASE / ROLLBACK TO find out without any state of our own.
 */
int
store_tx_begin(struct store *s)
{
	return store_run(s, sqlite3_get_autocommit(s->db) ?
	    "BEGIN IMMEDIATE" : "SAVEPOINT tx", 0);
}

/*
 * A COMMIT that fails (the disk is full, an I/O error) may leave the
 * transaction open or may have rolled it back already (SQLite decides by
 * the error): it is rolled back here when still open, so that nothing of
 * it is written later by another transaction's commit and the next
 * store_tx_begin() starts a transaction of its own, not a savepoint in
 * this one.  The caller gets the commit's error.
 */
int
store_tx_commit(struct store *s)
{
	size_t	 i;
	int	 rc;

	if (store_run(s, "RELEASE tx", 1) == 0)
		return 0;
	if ((rc = store_run(s, "COMMIT", 0)) != 0) {
		if (!sqlite3_get_autocommit(s->db) &&
		    store_run(s, "ROLLBACK", 0) != 0)
			log_error("a rollback after a failed commit failed");
		return rc;
	}
	for (i = 0; i < s->nafter_commit; i++)
		s->after_commit[i](s);
	return 0;
}

int
store_tx_rollback(struct store *s)
{
	if (store_run(s, "ROLLBACK TO tx", 1) == 0)
		return store_run(s, "RELEASE tx", 0);
	/* SQLite may have rolled the transaction back already (a full
	 * disk, an I/O error): nothing is left to undo. */
	if (sqlite3_get_autocommit(s->db))
		return 0;
	return store_run(s, "ROLLBACK", 0);
}

int
store_tx_probe(struct store *s, int64_t now_ms)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!sqlite3_get_autocommit(s->db))
		return -EBUSY;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = store_stmt(s, "INSERT OR REPLACE INTO counter (name, value)"
	    " VALUES ('disk_probe', ?1)", &st)) == 0) {
		sqlite3_bind_int64(st, 1, now_ms);
		rc = sqlite3_step(st) == SQLITE_DONE ? 0 : store_step_err(s,
		    sqlite3_errcode(s->db));
		store_stmt_done(s, st);
	}
	return store_tx_end(s, rc);
}

int
store_tx_end(struct store *s, int rc)
{
	if (rc >= 0) {
		int	 c = store_tx_commit(s);

		if (c == 0)
			return rc;
		rc = c;
	}
	if (store_tx_rollback(s) != 0)
		log_error("a rollback failed");
	return rc;
}

void
store_tx_after_commit(struct store *s, store_tx_hook fn)
{
	/* Registered by the store's own modules at open: a fixed few. */
	assert(s->nafter_commit < STORE_TX_HOOKS_MAX);
	s->after_commit[s->nafter_commit++] = fn;
}
