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
		"wachat-notice/1 other", "wachat-notice/1 call-in",
		"wachat-notice/1 call-in audio", "wachat-notice/1 call-missed "
		"voice ", "wachat-notice/1 call-over voice", "",
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

/* A call's notice (issue 16 point 2): each kind and media as a code and
 * back, and its words. */
static void
test_notice_call__code_and_words__for_each_kind_and_media(void **state)
{
	static const enum ev_notice kinds[] = {
		EV_NOTICE_CALL_IN, EV_NOTICE_CALL_MISSED,
		EV_NOTICE_CALL_ELSEWHERE, EV_NOTICE_CALL_DECLINED,
	};
	char		 code[NOTICE_CODE_MAX], words[128];
	enum ev_notice	 k;
	uint32_t	 d, bits;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		for (bits = 0; bits < 4; bits++) {
			assert_int_equal(notice_code(kinds[i], bits, code,
			    sizeof(code)), 1);
			notice_parse(code, &k, &d);
			assert_int_equal(k, kinds[i]);
			assert_int_equal(d, bits);
			assert_int_equal(notice_text_words(code, "", words,
			    sizeof(words)), 1);
		}
	assert_int_equal(notice_code(EV_NOTICE_CALL_MISSED, EV_CALL_VIDEO,
	    code, sizeof(code)), 1);
	assert_string_equal(code, "wachat-notice/1 call-missed video");
	assert_int_equal(notice_text_words(code, "", words, sizeof(words)), 1);
	assert_string_equal(words, "Missed video call");
	assert_int_equal(notice_words(EV_NOTICE_CALL_IN, EV_CALL_GROUP, "",
	    words, sizeof(words)), 1);
	assert_string_equal(words, "Incoming group voice call");
	assert_int_equal(notice_words(EV_NOTICE_CALL_ELSEWHERE, 0, "",
	    words, sizeof(words)), 1);
	assert_string_equal(words, "Answered on another device");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		    test_notice_parse__gives_back_the_kind__of_every_code),
		cmocka_unit_test(
		    test_notice_parse__keeps_text__for_what_is_no_code),
		cmocka_unit_test(
		    test_notice_call__code_and_words__for_each_kind_and_media),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
