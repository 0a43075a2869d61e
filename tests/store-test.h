/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/store-test.h -- what the store's cmocka tests share: a temporary
 * directory and its removal, an in-memory store, and a count read from a
 * database file through a connection of its own.  Header-only (static
 * inline functions, each program using what it needs), included once
 * per test program after <cmocka.h> and <sqlite3.h>.
 */
#ifndef TESTS_STORE_TEST_H
#define TESTS_STORE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "store/store-int.h"

/* SQL that takes a database of schema 20 back to schema 19 (store/db.c,
 * migration 20: the receipts' times). */
#define UNDO_20 "DROP TRIGGER IF EXISTS receipt_time_delete;" \
	"DROP TABLE receipt_time;"

/* SQL that takes a database of schema 20 back to schema 18 (store/db.c,
 * migration 19: disappearing messages' timers and expiry). */
#define UNDO_19 UNDO_20 "DROP TRIGGER IF EXISTS message_expire_set;" \
	"DROP INDEX message_expire;" \
	"ALTER TABLE message DROP COLUMN expire_s;" \
	"ALTER TABLE chat DROP COLUMN ephemeral_s;" \
	"ALTER TABLE chat DROP COLUMN ephemeral_ts;"

/* SQL that takes a database of schema 19 back to schema 17 (store/db.c,
 * migration 18: message.forwarded). */
#define UNDO_18 UNDO_19 "ALTER TABLE message DROP COLUMN forwarded;"

/* SQL that takes a database of schema 19 back to schema 16 (store/db.c,
 * migration 17: polls' secrets and waiting votes). */
#define UNDO_17 UNDO_18 "DROP TRIGGER IF EXISTS poll_delete; DROP TABLE poll;" \
	"DROP TABLE poll_pending;"

/* SQL that takes a database of schema 18 back to schema 15 (store/db.c,
 * migration 16: the stars kept for messages not stored yet). */
#define UNDO_16 UNDO_17 "DROP TRIGGER IF EXISTS star_pending_apply;" \
	"DROP TABLE star_pending;"

/* SQL that takes a database of schema 18 back to schema 14 (store/db.c,
 * migration 15: the media table). */
#define UNDO_15 UNDO_16 "DROP TRIGGER IF EXISTS media_delete;" \
	"DROP TRIGGER IF EXISTS media_revoke; DROP TRIGGER IF EXISTS media_edit;" \
	"DROP TABLE media;"

/*
 * SQL that takes a database of schema 14 back to schema 13,
 * for the tests that make an older database (store/db.c, migration 14):
 * its tables, or its tables and its columns.
 */
#define UNDO_14_TABLES UNDO_15 "DROP TABLE as_key; DROP TABLE as_state;" \
	"DROP TABLE as_mac; DROP TABLE as_raw; DROP TABLE as_pending;" \
	"DROP TABLE as_setting;"
#define UNDO_14 UNDO_14_TABLES \
	"ALTER TABLE contact DROP COLUMN first_name;" \
	"ALTER TABLE chat DROP COLUMN marked_unread;" \
	"ALTER TABLE chat DROP COLUMN locked;" \
	"DROP INDEX message_starred;" \
	"ALTER TABLE message DROP COLUMN starred;"

/* A fresh directory under /tmp; the caller frees the name and removes it
 * (rmtree()). */
static inline char *
tmpdir(void)
{
	char	 tmpl[] = "/tmp/wachat-test-XXXXXX";
	char	*d = mkdtemp(tmpl);

	assert_non_null(d);
	return strdup(d);
}

static inline void
rmtree(const char *dir)
{
	char	 cmd[512];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	assert_int_equal(system(cmd), 0);
}

/* A store in memory, every migration run. */
static inline struct store *
open_mem(void)
{
	struct store	*s = NULL;

	assert_int_equal(store_open(NULL, &s), 0);
	return s;
}

/* The first column of the one row sql (a SELECT count(*) ...) gives on
 * the database file at path. */
static inline int
count_rows(const char *path, const char *sql)
{
	sqlite3		*db;
	sqlite3_stmt	*st;
	int		 n;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(store_tok_register(db), 0);	/* for message_fts */
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return n;
}

/* How many messages a search for word finds (at most 100). */
static inline size_t
hits(struct store *s, const char *word)
{
	struct store_search_result	 r;
	size_t				 n;

	assert_int_equal(store_search(s, word, NULL, 100, &r), 0);
	n = r.n;
	store_search_free(&r);
	return n;
}

#endif
