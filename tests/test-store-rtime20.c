/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-rtime20.c -- the receipts' times per recipient
 * (store/store-rtime.h, migration 20; issue 20's message info): a
 * delivery then a read keep both first times, a read alone sets both,
 * an earlier time replaces a later one, a later one does not; others'
 * messages and unknown ones keep nothing; a deleted message takes its
 * rows; bad arguments are refused.
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
#define G	"120363000000000001@g.us"
#define M1	"15559000001@s.whatsapp.net"
#define M2	"15559000002@s.whatsapp.net"

static void
ours(struct store *s, const char *chat, const char *id)
{
	static const uint8_t	 p[] = { 0x0a, 0x01, 'x' };
	struct store_msg_new	 n;

	memset(&n, 0, sizeof(n));
	n.chat = chat;
	n.id = id;
	n.sender = "";
	n.from_me = true;
	n.ts_ms = 1000;
	n.kind = STORE_MSG_TEXT;
	n.text = "x";
	n.text_len = 1;
	n.payload = p;
	n.payload_len = sizeof(p);
	assert_int_equal(store_msg_insert_outgoing(s, &n, NULL), 0);
}

static void
test_rtime__first_times_kept(void **state)
{
	struct store		*s = open_mem();
	struct store_rtime	 t[4];

	(void)state;
	ours(s, BOB, "A1");
	ours(s, G, "G1");
	assert_int_equal(store_rtime_put(s, BOB, "A1", BOB,
	    STORE_MSG_DELIVERED, 5000), 1);
	assert_int_equal(store_rtime_put(s, BOB, "A1", BOB,
	    STORE_MSG_DELIVERED, 6000), 1);	/* a later one: kept 5000 */
	assert_int_equal(store_rtime_put(s, BOB, "A1", BOB, STORE_MSG_READ,
	    9000), 1);
	assert_int_equal(store_rtime_put(s, BOB, "A1", BOB,
	    STORE_MSG_PLAYED, 9500), 1);	/* played: a later read */
	assert_int_equal(store_rtime_list(s, BOB, "A1", t, 4), 1);
	assert_string_equal(t[0].member, BOB);
	assert_true(t[0].delivered_ms == 5000 && t[0].read_ms == 9000);
	/* a group: a read alone sets both; an earlier delivery wins */
	assert_int_equal(store_rtime_put(s, G, "G1", M2, STORE_MSG_READ, 7000),
	    1);
	assert_int_equal(store_rtime_put(s, G, "G1", M1, STORE_MSG_DELIVERED,
	    8000), 1);
	assert_int_equal(store_rtime_put(s, G, "G1", M2, STORE_MSG_DELIVERED,
	    6500), 1);
	assert_int_equal(store_rtime_list(s, G, "G1", t, 4), 2);
	assert_string_equal(t[0].member, M1);
	assert_true(t[0].delivered_ms == 8000 && t[0].read_ms == 0);
	assert_true(t[1].delivered_ms == 6500 && t[1].read_ms == 7000);
	store_close(s);
}

static void
test_rtime__only_ours_and_gone_with_the_message(void **state)
{
	struct store		*s = open_mem();
	struct store_rtime	 t[2];
	struct store_msg_new	 n;

	(void)state;
	memset(&n, 0, sizeof(n));
	n.chat = BOB;
	n.id = "IN1";
	n.sender = "";
	n.ts_ms = 1000;
	n.kind = STORE_MSG_TEXT;
	n.text = "hi";
	n.text_len = 2;
	n.state = STORE_MSG_RECEIVED;
	assert_int_equal(store_msg_insert_incoming(s, &n, NULL), 0);
	assert_int_equal(store_rtime_put(s, BOB, "IN1", BOB,
	    STORE_MSG_DELIVERED, 5000), 0);
	assert_int_equal(store_rtime_put(s, BOB, "NONE", BOB,
	    STORE_MSG_DELIVERED, 5000), 0);
	assert_int_equal(store_rtime_list(s, BOB, "IN1", t, 2), 0);
	ours(s, BOB, "A2");
	assert_int_equal(store_rtime_put(s, BOB, "A2", BOB, STORE_MSG_READ,
	    5000), 1);
	assert_int_equal(store_msg_mark_failed(s, BOB, "A2"), 1);
	assert_int_equal(store_msg_delete_failed(s, BOB, "A2"), 1);
	assert_int_equal(store_rtime_list(s, BOB, "A2", t, 2), 0);
	/* refused */
	assert_int_equal(store_rtime_put(s, BOB, "A2", BOB,
	    STORE_MSG_QUEUED, 5000), -EINVAL);
	assert_int_equal(store_rtime_put(s, BOB, "A2", BOB,
	    STORE_MSG_READ, 0), -EINVAL);
	assert_int_equal(store_rtime_put(s, BOB, "A2", "", STORE_MSG_READ,
	    1), -EINVAL);
	assert_int_equal(store_rtime_list(s, "", "A2", t, 2), -EINVAL);
	store_close(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rtime__first_times_kept),
		cmocka_unit_test(test_rtime__only_ours_and_gone_with_the_message),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
