/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-people.c -- the people known who have no chat yet
 * (store_people_without_chat(), store/people.c), for the chat picker
 * (issue 18): named ones only, none with a chat under their PN or LID, a
 * LID mapped to a named PN once (by the PN), by name; the cap.  Made-up
 * JIDs only.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/store.h"
#include "store/store-people.h"
#include "store-test.h"

#define PN(n)	"1555000000" n "@s.whatsapp.net"
#define LID(n)	"10000000000" n "@lid"

static void
test_store_people_without_chat__lists_the_named_with_no_chat_by_name(
    void **state)
{
	struct store		*s = open_mem();
	struct store_person	*p;
	size_t			 n;
	bool			 more;

	(void)state;
	assert_int_equal(store_contact_set_name(s, PN("1"), "zoe"), 0);
	assert_int_equal(store_contact_set_push_name(s, PN("2"), "Bea"), 0);
	/* a chat under the PN: left out */
	assert_int_equal(store_contact_set_name(s, PN("3"), "Carl"), 0);
	assert_int_equal(store_chat_set_name(s, PN("3"), ""), 0);
	/* a chat under the LID of a named PN: left out */
	assert_int_equal(store_contact_set_name(s, PN("4"), "Dan"), 0);
	assert_int_equal(store_lid_put(s, PN("4"), LID("4")), 1);
	assert_int_equal(store_chat_set_name(s, LID("4"), ""), 0);
	/* a LID whose PN is named too: once, by the PN */
	assert_int_equal(store_contact_set_name(s, PN("5"), "Eve"), 0);
	assert_int_equal(store_contact_set_push_name(s, LID("5"), "eve"), 0);
	assert_int_equal(store_lid_put(s, PN("5"), LID("5")), 1);
	/* a LID alone, named: by its LID; a group or nameless: never */
	assert_int_equal(store_contact_set_push_name(s, LID("6"), "Fay"), 0);
	assert_int_equal(store_contact_set_push_name(s, PN("7"), ""), 0);
	assert_int_equal(store_people_without_chat(s, 10, &p, &n, &more), 0);
	assert_false(more);
	assert_int_equal(n, 4);
	assert_string_equal(p[0].push_name, "Bea");
	assert_string_equal(p[0].jid, PN("2"));
	assert_string_equal(p[1].name, "Eve");
	assert_string_equal(p[1].jid, PN("5"));
	assert_string_equal(p[2].push_name, "Fay");
	assert_string_equal(p[2].jid, LID("6"));
	assert_string_equal(p[3].name, "zoe");	/* case ignored */
	free(p);
	assert_int_equal(store_people_without_chat(s, 2, &p, &n, &more), 0);
	assert_true(more);
	assert_int_equal(n, 2);
	free(p);
	assert_int_equal(store_people_without_chat(s, 0, &p, &n, &more),
	    -EINVAL);
	assert_null(p);
	assert_int_equal(store_people_without_chat(s, STORE_PEOPLE_MAX + 1,
	    &p, &n, &more), -EINVAL);
	store_close(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_people_without_chat__lists_the_named_with_no_chat_by_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
