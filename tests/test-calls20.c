/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-calls20.c -- declining a call (issue 20 point 1;
 * protocol-features.md 5 step 3): the reject stanza as
 * wa_call_reject_build() writes it (whatsmeow RejectCall, Baileys
 * rejectCall: <call id from to><reject call-id call-creator count="0"/>
 * </call>), read back through the binary codec, and its refusals; the
 * "declined here" notice kept as its code and said in words
 * (base/notice.c).
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/notice.h"
#include "proto/bin.h"
#include "proto/call.h"
#include "proto/node.h"

static void
attr_is(const struct wa_node *n, const char *key, const char *want)
{
	char	 v[128];

	if (!wa_node_jid(n, key, v, sizeof(v)))
		wa_node_str_copy(n, key, v, sizeof(v));
	assert_string_equal(v, want);
}

static void
test_reject__stanza_as_whatsmeow_and_baileys_send_it(void **state)
{
	struct arena	 a, b;
	struct wa_node	*n, *back;
	const struct wa_node *r;
	struct buf	 out = BUF_INIT;
	size_t		 off = 0;

	(void)state;
	arena_init(&a, 0);
	arena_init(&b, 0);
	assert_int_equal(wa_call_reject_build("3EB0AA", "15550000001@s.whatsapp.net",
	    "15550000002@s.whatsapp.net", "C0FFEE11", "15550000002@s.whatsapp.net",
	    &a, &n), 0);
	assert_int_equal(wa_bin_encode(n, &out), 0);
	assert_int_equal(wa_bin_decode(out.p, out.len, &b, &back, &off), 0);
	assert_true(wa_str_eqc(back->tag, "call"));
	attr_is(back, "id", "3EB0AA");
	attr_is(back, "from", "15550000001@s.whatsapp.net");
	attr_is(back, "to", "15550000002@s.whatsapp.net");
	assert_int_equal(wa_node_nkids(back), 1);
	r = wa_node_kid(back, 0);
	assert_true(wa_str_eqc(r->tag, "reject"));
	attr_is(r, "call-id", "C0FFEE11");
	attr_is(r, "call-creator", "15550000002@s.whatsapp.net");
	attr_is(r, "count", "0");
	assert_int_equal(wa_node_nkids(r), 0);
	buf_release(&out);
	arena_release(&a);
	arena_release(&b);
}

static void
test_reject__refusals(void **state)
{
	struct arena	 a;
	struct wa_node	*n = NULL;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_call_reject_build("", "1@s.whatsapp.net",
	    "2@s.whatsapp.net", "C", "2@s.whatsapp.net", &a, &n), -EINVAL);
	assert_int_equal(wa_call_reject_build("i", "1@s.whatsapp.net",
	    "2@s.whatsapp.net", "", "2@s.whatsapp.net", &a, &n), -EINVAL);
	assert_int_equal(wa_call_reject_build("i", NULL, "2@s.whatsapp.net",
	    "C", "2@s.whatsapp.net", &a, &n), -EINVAL);
	assert_int_equal(wa_call_reject_build("i", "1@s.whatsapp.net",
	    "2@s.whatsapp.net", "C", NULL, &a, &n), -EINVAL);
	assert_int_equal(wa_call_reject_build("i", "1@s.whatsapp.net",
	    "2@s.whatsapp.net", "C", "2@s.whatsapp.net", &a, NULL), -EINVAL);
	assert_null(n);
	arena_release(&a);
}

static void
test_notice__declined_here_kept_and_said(void **state)
{
	char		 code[NOTICE_CODE_MAX], words[128];
	enum ev_notice	 kind;
	uint32_t	 bits;

	(void)state;
	assert_int_equal(notice_code(EV_NOTICE_CALL_REJECTED, EV_CALL_VIDEO,
	    code, sizeof(code)), 1);
	assert_string_equal(code, "wachat-notice/1 call-rejected video");
	notice_parse(code, &kind, &bits);
	assert_int_equal(kind, EV_NOTICE_CALL_REJECTED);
	assert_int_equal(bits, EV_CALL_VIDEO);
	assert_int_equal(notice_words(EV_NOTICE_CALL_REJECTED, 0, "", words,
	    sizeof(words)), 1);
	assert_string_equal(words, "Declined voice call");
	assert_int_equal(notice_text_words("wachat-notice/1 call-rejected "
	    "group-video", "", words, sizeof(words)), 1);
	assert_string_equal(words, "Declined group video call");
	/* declined on another device stays its own line */
	assert_int_equal(notice_words(EV_NOTICE_CALL_DECLINED, 0, "", words,
	    sizeof(words)), 1);
	assert_string_equal(words, "Declined on another device");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		    test_reject__stanza_as_whatsmeow_and_baileys_send_it),
		cmocka_unit_test(test_reject__refusals),
		cmocka_unit_test(test_notice__declined_here_kept_and_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
