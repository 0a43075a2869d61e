/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-privtok.c -- privacy tokens in the store
 * (store/privtok.c, migration 11): a contact's token kept unless an
 * older one comes, our issuing noted apart from it, the nctSalt, the
 * refusals, and a schema-10 database migrated to 11 with its rows kept.
 * Made-up JIDs only.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store-test.h"

#define BOB	"207000000000002@lid"
#define CAROL	"15550000003@s.whatsapp.net"

static void
test_store_privtok__keeps_the_newest_token_and_our_issuing(void **state)
{
	struct store		*s = open_mem();
	struct store_privtok	 t;
	static const uint8_t	 t1[] = "token-one", t2[] = "token-two";

	(void)state;
	assert_int_equal(store_privtok_get(s, BOB, &t), 0);
	assert_int_equal(t.len, 0);
	assert_int_equal(store_privtok_put(s, BOB, t1, sizeof(t1), 1000), 1);
	assert_int_equal(store_privtok_get(s, BOB, &t), 1);
	assert_int_equal(t.len, sizeof(t1));
	assert_memory_equal(t.token, t1, sizeof(t1));
	assert_int_equal(t.t, 1000);
	assert_int_equal(t.sender_t, 0);
	/* an older one is ignored, a newer or equal one replaces it */
	assert_int_equal(store_privtok_put(s, BOB, t2, sizeof(t2), 999), 0);
	assert_int_equal(store_privtok_get(s, BOB, &t), 1);
	assert_memory_equal(t.token, t1, sizeof(t1));
	assert_int_equal(store_privtok_put(s, BOB, t2, sizeof(t2), 1000), 1);
	assert_int_equal(store_privtok_get(s, BOB, &t), 1);
	assert_memory_equal(t.token, t2, sizeof(t2));
	/* our issuing leaves its token alone, and the reverse */
	assert_int_equal(store_privtok_sent(s, BOB, 5000), 0);
	assert_int_equal(store_privtok_put(s, BOB, t1, sizeof(t1), 2000), 1);
	assert_int_equal(store_privtok_get(s, BOB, &t), 1);
	assert_memory_equal(t.token, t1, sizeof(t1));
	assert_int_equal(t.t, 2000);
	assert_int_equal(t.sender_t, 5000);
	/* issuing first: a row without a token */
	assert_int_equal(store_privtok_sent(s, CAROL, 7), 0);
	assert_int_equal(store_privtok_get(s, CAROL, &t), 1);
	assert_int_equal(t.len, 0);
	assert_int_equal(t.sender_t, 7);
	store_close(s);
}

static void
test_store_privtok__refuses_bad_arguments(void **state)
{
	struct store		*s = open_mem();
	struct store_privtok	 t;
	uint8_t			 big[STORE_PRIVTOK_MAX + 1];
	size_t			 len;

	(void)state;
	memset(big, 1, sizeof(big));
	assert_int_equal(store_privtok_put(s, BOB, big, sizeof(big), 1),
	    -EINVAL);
	assert_int_equal(store_privtok_put(s, BOB, big, 0, 1), -EINVAL);
	assert_int_equal(store_privtok_put(s, BOB, big, 4, 0), -EINVAL);
	assert_int_equal(store_privtok_put(s, "", big, 4, 1), -EINVAL);
	assert_int_equal(store_privtok_put(s, NULL, big, 4, 1), -EINVAL);
	assert_int_equal(store_privtok_sent(s, BOB, 0), -EINVAL);
	assert_int_equal(store_privtok_get(s, NULL, &t), -EINVAL);
	assert_int_equal(store_privtok_salt_put(s, big, STORE_SALT_MAX + 1),
	    -EINVAL);
	assert_int_equal(store_privtok_salt_get(s, big, NULL), -EINVAL);
	assert_int_equal(store_privtok_salt_get(s, big, &len), 0);
	store_close(s);
}

static void
test_store_privtok_salt__replaced_whole(void **state)
{
	struct store	*s = open_mem();
	uint8_t		 a[32], b[16], out[STORE_SALT_MAX];
	size_t		 len = 99;

	(void)state;
	memset(a, 0xaa, sizeof(a));
	memset(b, 0xbb, sizeof(b));
	assert_int_equal(store_privtok_salt_get(s, out, &len), 0);
	assert_int_equal(len, 0);
	assert_int_equal(store_privtok_salt_put(s, a, sizeof(a)), 0);
	assert_int_equal(store_privtok_salt_get(s, out, &len), 1);
	assert_int_equal(len, sizeof(a));
	assert_memory_equal(out, a, sizeof(a));
	assert_int_equal(store_privtok_salt_put(s, b, sizeof(b)), 0);
	assert_int_equal(store_privtok_salt_get(s, out, &len), 1);
	assert_int_equal(len, sizeof(b));
	assert_memory_equal(out, b, sizeof(b));
	store_close(s);
}

static void
test_store_open__migrates_a_schema_10_database_to_11(void **state)
{
	char		*dir = tmpdir(), path[300];
	struct store	*s = NULL;
	struct store_privtok t;
	static const uint8_t tok[] = "tok";
	sqlite3		*db;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	/* a schema-10 database: made by this code, migration 11's tables
	 * dropped and the version set back, a PN-LID mapping in it */
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_lid_put(s, CAROL, BOB), 1);
	store_close(s);
	s = NULL;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(store_tok_register(db), 0);	/* message_fts's */
	/* (and migration 12's tokenizer undone: the index of before) */
	assert_int_equal(sqlite3_exec(db, UNDO_14 "DROP TABLE privtok;"
	    "ALTER TABLE chat DROP COLUMN peek;"
	    "ALTER TABLE chat DROP COLUMN draft;"
	    "DROP TABLE privtok_salt; DROP TABLE message_fts;"
	    "CREATE VIRTUAL TABLE message_fts USING fts5(text,"
	    " content = 'message', content_rowid = 'rowid',"
	    " tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2');"
	    "UPDATE counter SET value = 10 WHERE name = 'schema_version';"
	    "PRAGMA user_version = 10", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(store_privtok_put(s, BOB, tok, sizeof(tok), 9), 1);
	store_close(s);
	s = NULL;
	assert_int_equal(count_rows(path, "SELECT count(*) FROM lid_map"), 1);
	assert_int_equal(count_rows(path, "SELECT value FROM counter"
	    " WHERE name = 'schema_version'"), STORE_SCHEMA_VERSION);
	/* reopening migrates nothing again and keeps the token */
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_privtok_get(s, BOB, &t), 1);
	assert_int_equal(t.t, 9);
	store_close(s);
	rmtree(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_privtok__keeps_the_newest_token_and_our_issuing),
		cmocka_unit_test(test_store_privtok__refuses_bad_arguments),
		cmocka_unit_test(test_store_privtok_salt__replaced_whole),
		cmocka_unit_test(test_store_open__migrates_a_schema_10_database_to_11),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
