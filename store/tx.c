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

int
store_tx_commit(struct store *s)
{
	size_t	 i;
	int	 rc;

	if (store_run(s, "RELEASE tx", 1) == 0)
		return 0;
	if ((rc = store_run(s, "COMMIT", 0)) != 0)
		return rc;
	for (i = 0; i < s->nafter_commit; i++)
		s->after_commit[i](s);
	return 0;
}

int
store_tx_rollback(struct store *s)
{
	if (store_run(s, "ROLLBACK TO tx", 1) == 0)
		return store_run(s, "RELEASE tx", 0);
	return store_run(s, "ROLLBACK", 0);
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
