/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-starred20.c -- the starred messages (issue 20 point 4;
 * protocol-features.md 3.8): store_search() with the starred filter
 * (is:starred) lists every starred message newest first without a word,
 * narrows a search for words to the starred ones, keeps the chat filter,
 * leaves out an unstarred and a revoked one, and finds a starred message
 * still in the search backlog; a starred rich record (a location) says
 * its words in its snippet, never its key=value text (issue 20 point 3).
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
#define ANA	"15550000004@s.whatsapp.net"

static void
put(struct store *s, const char *chat, const char *id, int64_t ts,
    const char *text)
{
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.ts_ms = ts;
	m.kind = STORE_MSG_TEXT;
	m.text = text;
	m.text_len = strlen(text);
	m.state = STORE_MSG_RECEIVED;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
}

static void
star(struct store *s, const char *chat, const char *id)
{
	struct store_as_action	 a;

	memset(&a, 0, sizeof(a));
	a.kind = STORE_AS_STAR;
	a.jid = chat;
	a.msg_id = id;
	a.flag = true;
	assert_int_equal(store_as_apply(s, NULL, &a, 1), 0);
}

/* The ids of query's hits under f, joined by spaces, into out. */
static void
ids(struct store *s, const char *query, const struct store_search_filter *f,
    char *out, size_t len)
{
	struct store_search_result	 r;
	size_t				 i, n = 0;

	assert_int_equal(store_search(s, query, f, 50, &r), 0);
	out[0] = '\0';
	for (i = 0; i < r.n; i++)
		n += (size_t)snprintf(out + n, len - n, "%s%s", i > 0 ? " " :
		    "", r.hits[i].id);
	store_search_free(&r);
}

static struct store *
filled(void)
{
	struct store	*s = open_mem();

	put(s, BOB, "B1", 1000, "apple pie tonight");
	put(s, BOB, "B2", 2000, "banana split");
	put(s, BOB, "B3", 3000, "apple tart");
	put(s, ANA, "A1", 1500, "apple juice");
	put(s, ANA, "A2", 2500, "the address: Main Street 5");
	star(s, BOB, "B1");
	star(s, BOB, "B2");
	star(s, ANA, "A2");
	return s;
}

static void
test_starred__without_words_every_starred_newest_first(void **state)
{
	struct store_search_filter	 f = { .starred = true };
	struct store			*s = filled();
	char				 got[256];

	(void)state;
	ids(s, "", &f, got, sizeof(got));
	assert_string_equal(got, "A2 B2 B1");
	f.chat = BOB;
	ids(s, "", &f, got, sizeof(got));
	assert_string_equal(got, "B2 B1");
	/* no word and no is:starred: nothing, as before */
	f.starred = false;
	ids(s, "", &f, got, sizeof(got));
	assert_string_equal(got, "");
	store_close(s);
}

static void
test_starred__narrows_a_search_for_words(void **state)
{
	struct store_search_filter	 f = { .starred = true };
	struct store			*s = filled();
	char				 got[256];

	(void)state;
	ids(s, "apple", &f, got, sizeof(got));
	assert_string_equal(got, "B1");
	ids(s, "apple", NULL, got, sizeof(got));
	assert_string_equal(got, "B3 A1 B1");
	f.chat = ANA;
	ids(s, "apple", &f, got, sizeof(got));
	assert_string_equal(got, "");
	ids(s, "main", &f, got, sizeof(got));
	assert_string_equal(got, "A2");
	store_close(s);
}

static void
test_starred__revoked_and_unstarred_left_out(void **state)
{
	struct store_search_filter	 f = { .starred = true };
	struct store			*s = filled();
	struct store_as_action		 a;
	char				 got[256];

	(void)state;
	memset(&a, 0, sizeof(a));
	a.kind = STORE_AS_STAR;
	a.jid = BOB;
	a.msg_id = "B2";
	a.flag = false;
	assert_int_equal(store_as_apply(s, NULL, &a, 1), 0);
	assert_int_equal(store_msg_revoke(s, ANA, false, "A2"), 1);
	ids(s, "", &f, got, sizeof(got));
	assert_string_equal(got, "B1");
	store_close(s);
}

static void
test_starred__a_rich_record_in_words(void **state)
{
	struct store_search_filter	 f = { .starred = true };
	struct store			*s = open_mem();
	struct store_search_result	 r;
	struct store_msg_new		 m;
	static const char		 rec[] = "location\nlat=52.516275\n"
	    "lon=13.377704\nname=Brandenburger Tor\naddr=Pariser Platz";

	(void)state;
	memset(&m, 0, sizeof(m));
	m.chat = BOB;
	m.id = "L1";
	m.ts_ms = 1000;
	m.kind = STORE_MSG_RICH;
	m.text = rec;
	m.text_len = strlen(rec);
	m.state = STORE_MSG_RECEIVED;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
	/* a text that looks like a record stays as it is */
	put(s, BOB, "T1", 900, "location\nname=x");
	star(s, BOB, "L1");
	star(s, BOB, "T1");
	assert_int_equal(store_search(s, "", &f, 10, &r), 0);
	assert_int_equal(r.n, 2);
	assert_string_equal(r.hits[0].snippet, "Location: Brandenburger Tor; "
	    "Pariser Platz; 52.516275, 13.377704");
	assert_int_equal(r.hits[0].snippet_len, strlen(r.hits[0].snippet));
	assert_false(r.hits[0].cut_after);
	assert_null(strstr(r.hits[0].snippet, "lat="));
	assert_string_equal(r.hits[1].snippet, "location\nname=x");
	store_search_free(&r);
	store_close(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		    test_starred__without_words_every_starred_newest_first),
		cmocka_unit_test(test_starred__narrows_a_search_for_words),
		cmocka_unit_test(test_starred__revoked_and_unstarred_left_out),
		cmocka_unit_test(test_starred__a_rich_record_in_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
