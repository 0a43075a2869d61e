/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-poll20.c -- polls in the store (store/poll.c,
 * migration 17; protocol-features.md 3.1): a poll's secret and creator
 * kept and read with its row's record, the tally written in place (no
 * edit mark, the chat's preview follows), the votes that wait for their
 * poll kept (a newer one of the same voter replaces an older, not the
 * other way round) and taken once, a deleted poll row taking its secret
 * with it, and bad arguments refused.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "store/store.h"
#include "tests/store-test.h"

#define BOB	"15550000003@s.whatsapp.net"
static const char REC[] = "poll\nq=Q\nsel=1\nopt=A\nopt=B";
static const uint8_t SECRET[32] = { 1, 2, 3, 4, 5, 6, 7, 8, 9 };

/* The first column of the one row of sql on s. */
static int
count_rows_mem(struct store *s, const char *sql)
{
	sqlite3_stmt	*st;
	int		 n;

	assert_int_equal(sqlite3_prepare_v2(s->db, sql, -1, &st, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void
insert_poll(struct store *s, const char *id, const char *text)
{
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = BOB;
	m.id = id;
	m.ts_ms = 1000;
	m.kind = STORE_MSG_RICH;
	m.text = text;
	m.text_len = strlen(text);
	m.state = STORE_MSG_RECEIVED;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
}

static void
test_poll__secret_row_and_tally(void **state)
{
	struct store		*s = open_mem();
	struct store_poll	 p;
	const char		*t2 = "poll\nq=Q\nsel=1\nopt=A\nopt=B\nvote=x\n"
	    "by=X\npick=2";

	(void)state;
	/* the secret alone, or the row alone: not a poll to vote on */
	assert_int_equal(store_poll_put(s, BOB, "P1", BOB, SECRET, 32), 0);
	assert_int_equal(store_poll_get(s, BOB, "P1", &p), 0);
	insert_poll(s, "P2", REC);
	assert_int_equal(store_poll_get(s, BOB, "P2", &p), 0);
	insert_poll(s, "P1", REC);
	assert_int_equal(store_poll_get(s, BOB, "P1", &p), 1);
	assert_string_equal(p.creator, BOB);
	assert_int_equal(p.secret_len, 32);
	assert_memory_equal(p.secret, SECRET, 32);
	assert_false(p.from_me);
	assert_string_equal(p.text, REC);
	store_poll_release(&p);
	/* the tally in place */
	assert_int_equal(store_poll_set(s, BOB, "P1", t2, strlen(t2)), 1);
	assert_int_equal(store_poll_get(s, BOB, "P1", &p), 1);
	assert_string_equal(p.text, t2);
	store_poll_release(&p);
	assert_int_equal(count_rows_mem(s, "SELECT count(*) FROM message"
	    " WHERE id = 'P1' AND edited = 0"), 1);
	assert_int_equal(store_poll_set(s, BOB, "P9", t2, strlen(t2)), 0);
	store_close(s);
}

static void
test_poll__waiting_votes(void **state)
{
	struct store	*s = open_mem();
	char		 voter[129];
	uint8_t		*d;
	size_t		 len;

	(void)state;
	assert_int_equal(store_poll_pend_put(s, BOB, "P1", BOB,
	    (const uint8_t *)"old", 3, 100), 0);
	assert_int_equal(store_poll_pend_put(s, BOB, "P1", BOB,
	    (const uint8_t *)"new", 3, 200), 0);
	assert_int_equal(store_poll_pend_put(s, BOB, "P1", BOB,
	    (const uint8_t *)"older", 5, 50), 0);
	assert_int_equal(store_poll_pend_put(s, BOB, "P1", "",
	    (const uint8_t *)"ours", 4, 300), 0);
	assert_int_equal(store_poll_pend_take(s, BOB, "P1", voter,
	    sizeof(voter), &d, &len), 1);
	assert_string_equal(voter, BOB);
	assert_int_equal(len, 3);
	assert_memory_equal(d, "new", 3);
	free(d);
	assert_int_equal(store_poll_pend_take(s, BOB, "P1", voter,
	    sizeof(voter), &d, &len), 1);
	assert_string_equal(voter, "");
	assert_memory_equal(d, "ours", 4);
	free(d);
	assert_int_equal(store_poll_pend_take(s, BOB, "P1", voter,
	    sizeof(voter), &d, &len), 0);
	assert_null(d);
	store_close(s);
}

static void
test_poll__delete_and_bad_args(void **state)
{
	struct store		*s = open_mem();
	struct store_poll	 p;
	uint8_t			 big[65] = { 0 };
	char			 v[8];
	uint8_t			*d;
	size_t			 len;

	(void)state;
	insert_poll(s, "P1", REC);
	assert_int_equal(store_poll_put(s, BOB, "P1", "", SECRET, 32), 0);
	assert_int_equal(store_exec(s, "DELETE FROM message WHERE id = 'P1'"),
	    0);
	assert_int_equal(count_rows_mem(s, "SELECT count(*) FROM poll"), 0);
	assert_int_equal(store_poll_get(s, BOB, "P1", &p), 0);
	assert_int_equal(store_poll_put(s, BOB, "P1", "", big, 65), -EINVAL);
	assert_int_equal(store_poll_put(s, BOB, "P1", "", SECRET, 0), -EINVAL);
	assert_int_equal(store_poll_put(s, NULL, "P1", "", SECRET, 32),
	    -EINVAL);
	assert_int_equal(store_poll_put(s, BOB, "P1", NULL, SECRET, 32),
	    -EINVAL);
	assert_int_equal(store_poll_pend_put(s, BOB, "P1", "", big, 0, 1),
	    -EINVAL);
	assert_int_equal(store_poll_pend_take(s, BOB, "", v, sizeof(v), &d,
	    &len), -EINVAL);
	assert_int_equal(store_poll_set(s, BOB, "P1", NULL, 0), -EINVAL);
	store_close(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_poll__secret_row_and_tally),
		cmocka_unit_test(test_poll__waiting_votes),
		cmocka_unit_test(test_poll__delete_and_bad_args),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
