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
#include <stdio.h>
#include <string.h>

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

/* A fake notice_name_fn: Bob and Carol are known, anyone else is not. */
static void
fake_name(void *arg, const char *jid, char *out, size_t len)
{
	(void)arg;
	if (strcmp(jid, "15550000003@s.whatsapp.net") == 0)
		snprintf(out, len, "Bob");
	else if (strcmp(jid, "15550000004@s.whatsapp.net") == 0)
		snprintf(out, len, "Carol");
}

/* words of the code of (verb, actor, them, subject), named by fake_name */
static const char *
group_line(enum notice_group verb, const char *actor, const char *them,
    const char *subject)
{
	static char	 words[512];
	char		 code[256];

	assert_int_equal(notice_group_code(verb, actor, them, subject, code,
	    sizeof(code)), 1);
	assert_int_equal(notice_group_words(code, fake_name, NULL, words,
	    sizeof(words)), 1);
	return words;
}

#define BOB	"15550000003@s.whatsapp.net"
#define CAROL	"15550000004@s.whatsapp.net"
#define DAN	"15550000005@s.whatsapp.net"

/* A group's line names its people when it is read: by the name known
 * then, else by number; we are You (the subject of a sentence) or you;
 * someone unknown is someone; text that is no group code is left. */
static void
test_notice_group__words_name_the_people__as_known_when_read(void **state)
{
	char	 code[64], words[64];

	(void)state;
	assert_string_equal(group_line(NOTICE_GROUP_CREATE, BOB, NULL, NULL),
	    "Bob created the group");
	assert_string_equal(group_line(NOTICE_GROUP_CREATE, DAN, NULL, NULL),
	    "+15550000005 created the group");
	assert_string_equal(group_line(NOTICE_GROUP_CREATE, NOTICE_GROUP_ME,
	    NULL, NULL), "You created the group");
	assert_string_equal(group_line(NOTICE_GROUP_ADD, BOB,
	    CAROL "," NOTICE_GROUP_ME "," DAN, NULL),
	    "Bob added Carol, you, +15550000005");
	assert_string_equal(group_line(NOTICE_GROUP_REMOVE, NOTICE_GROUP_ME,
	    CAROL, NULL), "You removed Carol");
	assert_string_equal(group_line(NOTICE_GROUP_LEFT, CAROL, CAROL, NULL),
	    "Carol left");
	assert_string_equal(group_line(NOTICE_GROUP_LEFT, NOTICE_GROUP_ME,
	    NOTICE_GROUP_ME, NULL), "You left");
	assert_string_equal(group_line(NOTICE_GROUP_SUBJECT, NULL, NULL,
	    "Hikers, 2027\nand more"),
	    "someone changed the subject to \"Hikers, 2027 and more\"");
	assert_string_equal(group_line(NOTICE_GROUP_PROMOTE, BOB, DAN, NULL),
	    "Bob made +15550000005 an admin");
	assert_string_equal(group_line(NOTICE_GROUP_DEMOTE, NOTICE_GROUP_ME,
	    BOB, NULL), "You dismissed Bob as admin");
	assert_string_equal(group_line(NOTICE_GROUP_DELETED, BOB, NULL, NULL),
	    "The group was deleted");
	/* a LID member unknown: by the LID's digits */
	assert_string_equal(group_line(NOTICE_GROUP_ADD, BOB,
	    "100000000000009@lid", NULL), "Bob added 100000000000009");
	/* a JID with a space cannot stand as a token: someone */
	assert_string_equal(group_line(NOTICE_GROUP_CREATE, "a b@x", NULL,
	    NULL), "someone created the group");
	/* no room: no code */
	assert_int_equal(notice_group_code(NOTICE_GROUP_SUBJECT, BOB, NULL,
	    "a subject far too long for the room given to it here", code,
	    sizeof(code)), 0);
	assert_string_equal(code, "");
	/* text that is no group code, or one of an unknown verb */
	assert_int_equal(notice_group_words("Bob created the group",
	    fake_name, NULL, words, sizeof(words)), 0);
	assert_int_equal(notice_group_words("wachat-notice/1 group fly " BOB
	    " -", fake_name, NULL, words, sizeof(words)), 0);
	assert_int_equal(notice_group_words("wachat-notice/1 group create",
	    fake_name, NULL, words, sizeof(words)), 0);
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
		cmocka_unit_test(
		    test_notice_group__words_name_the_people__as_known_when_read),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
