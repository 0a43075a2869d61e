/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-base-notice.c -- typed notice lines as stored text
 * (base/notice.h, issue 15 point 4): a code gives back its kind and
 * device, the English words older versions stored are read as their
 * kind, and anything else (a newer or malformed code, a group event
 * line) stays text.
 */
#include "base/compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/notice.h"

static void
test_notice_parse__gives_back_the_kind__of_every_code(void **state)
{
	char		 code[NOTICE_CODE_MAX];
	enum ev_notice	 k;
	uint32_t	 d;

	(void)state;
	assert_int_equal(notice_code(EV_NOTICE_NOT_SENT, 7, code,
	    sizeof(code)), 1);
	notice_parse(code, &k, &d);
	assert_int_equal(k, EV_NOTICE_NOT_SENT);
	assert_int_equal(d, 7);
	assert_int_equal(notice_code(EV_NOTICE_IDENTITY, 0, code,
	    sizeof(code)), 1);
	notice_parse(code, &k, &d);
	assert_int_equal(k, EV_NOTICE_IDENTITY);
	assert_int_equal(notice_code(EV_NOTICE_TEXT, 0, code, sizeof(code)),
	    0);
	notice_parse("security code changed", &k, &d);
	assert_int_equal(k, EV_NOTICE_IDENTITY);
}

static void
test_notice_parse__keeps_text__for_what_is_no_code(void **state)
{
	static const char *const texts[] = {
		"Alice added Bob", "wachat-notice/2 identity",
		"wachat-notice/1 not-sent", "wachat-notice/1 not-sent x",
		"wachat-notice/1 not-sent 1x", "wachat-notice/1 not-sent 99999",
		"wachat-notice/1 other", "",
	};
	enum ev_notice	 k;
	uint32_t	 d;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		notice_parse(texts[i], &k, &d);
		assert_int_equal(k, EV_NOTICE_TEXT);
		assert_int_equal(d, 0);
	}
	notice_parse(NULL, &k, &d);
	assert_int_equal(k, EV_NOTICE_TEXT);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		    test_notice_parse__gives_back_the_kind__of_every_code),
		cmocka_unit_test(
		    test_notice_parse__keeps_text__for_what_is_no_code),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
