/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-forward20.c -- forwarding (issue 20; protocol-features.md
 * 3.7): a text and a photo built with a forward score carry
 * contextInfo{isForwarded, forwardingScore} and read back with it
 * (a text as extendedTextMessage, never a bare conversation); the rich
 * records of a location, one contact card, several cards and a link
 * preview forwarded (wa_msg_build_rich_forward()) read back as the same
 * record, forwarded; a live location, view-once media, a kind not shown,
 * no record and score 0 are refused; isForwarded without a score counts
 * as 1.
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

#include "base/buf.h"
#include "base/err.h"
#include "base/rich.h"
#include "e2e.pb-c.h"
#include "proto/msg.h"

/* p's Message parsed into c. */
static void
read_back(const struct buf *p, struct wa_msg_content *c)
{
	assert_int_equal(wa_msg_parse(p->p, p->len, c), 0);
}

/* rec forwarded with score, read back: the same record, forwarded
 * score; its first Message field is field. */
static void
round_trip(const char *rec, uint32_t score, unsigned field)
{
	struct buf		 p = BUF_INIT;
	struct wa_msg_content	 c;

	assert_int_equal(wa_msg_build_rich_forward(rec, strlen(rec), score,
	    &p), 0);
	assert_int_equal(wa_msg_first_field(p.p, p.len), field);
	read_back(&p, &c);
	assert_int_equal(c.kind, WA_MSG_RICH);
	assert_string_equal(c.text, rec);
	assert_int_equal(c.forwarded, score);
	wa_msg_content_release(&c);
	buf_release(&p);
}

static void
test_forward__text_marked_and_read_back(void **state)
{
	struct wa_msg_text	 t;
	struct buf		 p = BUF_INIT;
	struct wa_msg_content	 c;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.text = "pass it on";
	t.forward_score = 3;
	assert_int_equal(wa_msg_build_text(&t, &p), 0);
	assert_int_equal(wa_msg_first_field(p.p, p.len), 6);
	read_back(&p, &c);
	assert_int_equal(c.kind, WA_MSG_TEXT);
	assert_string_equal(c.text, "pass it on");
	assert_int_equal(c.forwarded, 3);
	wa_msg_content_release(&c);
	/* not a forward: a bare conversation, nothing forwarded */
	p.len = 0;
	t.forward_score = 0;
	assert_int_equal(wa_msg_build_text(&t, &p), 0);
	assert_int_equal(wa_msg_first_field(p.p, p.len), 1);
	read_back(&p, &c);
	assert_int_equal(c.forwarded, 0);
	wa_msg_content_release(&c);
	buf_release(&p);
}

static void
test_forward__photo_keeps_its_keys(void **state)
{
	static uint8_t		 key[32] = { 1 }, sha[32] = { 2 }, enc[32] = { 3 };
	struct wa_msg_media	 md;
	struct wa_msg_text	 t;
	struct buf		 p = BUF_INIT;
	struct wa_msg_content	 c;

	(void)state;
	memset(&md, 0, sizeof(md));
	md.type = WA_MEDIA_IMAGE;
	md.mimetype = "image/jpeg";
	md.file_length = 1234;
	md.caption = "the beach";
	md.media_key = key;
	md.media_key_len = sizeof(key);
	md.direct_path = "/v/t62/sim.enc";
	md.url = "https://mmg.example/v/t62/sim.enc";
	md.file_sha256 = sha;
	md.file_sha256_len = sizeof(sha);
	md.file_enc_sha256 = enc;
	md.file_enc_sha256_len = sizeof(enc);
	memset(&t, 0, sizeof(t));
	t.text = "";
	t.forward_score = 1;
	assert_int_equal(wa_msg_build_media(&md, &t, &p), 0);
	read_back(&p, &c);
	assert_int_equal(c.kind, WA_MSG_MEDIA);
	assert_int_equal(c.forwarded, 1);
	assert_null(c.quoted_id);
	assert_string_equal(c.media->direct_path, "/v/t62/sim.enc");
	assert_memory_equal(c.media->media_key, key, sizeof(key));
	assert_memory_equal(c.media->file_enc_sha256, enc, sizeof(enc));
	wa_msg_content_release(&c);
	buf_release(&p);
}

static void
test_forward__rich_records_read_back(void **state)
{
	(void)state;
	round_trip("location\nlat=52.516275\nlon=13.377704\nname=Tor\n"
	    "addr=Platz\ncomment=here", 2, 5);
	round_trip("contacts\ncard=Ana\ntel=+1 555 0100\nwaid=15550100", 1, 4);
	round_trip("contacts\ncard=Ana\ntel=+1 555 0100\nwaid=15550100\n"
	    "tel=+1 555 0199\ncard=Bee\ncard=Cy\ntel=+49 30 1", 7, 13);
	round_trip("preview\ntext=look https://example.org\n"
	    "url=https://example.org\ntitle=Example\ndesc=A page\n"
	    "thumb=ffd8ffe0", 1, 6);
}

static void
test_forward__refused_kinds(void **state)
{
	static const char *const no[] = {
		"live\nlat=48.100000\nlon=11.500000\nseq=3",
		"viewonce\nmedia=image",
		"other\nfield=49",
	};
	struct buf	 p = BUF_INIT;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_int_equal(wa_msg_build_rich_forward(no[i],
		    strlen(no[i]), 1, &p), -ENOTSUP);
	assert_int_equal(wa_msg_build_rich_forward("just text", 9, 1, &p),
	    WC_EPROTO);
	assert_int_equal(wa_msg_build_rich_forward("contacts\n", 9, 1, &p),
	    WC_EPROTO);
	assert_int_equal(wa_msg_build_rich_forward("location\nname=x", 15, 0,
	    &p), -EINVAL);
	assert_int_equal(p.len, 0);
	buf_release(&p);
}

static void
test_forward__is_forwarded_without_score_counts_one(void **state)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ExtendedTextMessage	 x =
	    WAE2E__MESSAGE__EXTENDED_TEXT_MESSAGE__INIT;
	Wae2e__ContextInfo			 ci = WAE2E__CONTEXT_INFO__INIT;
	struct buf				 p = BUF_INIT;
	struct wa_msg_content			 c;

	(void)state;
	x.text = "hi";
	x.contextinfo = &ci;
	ci.has_isforwarded = 1;
	ci.isforwarded = 1;
	m.extendedtextmessage = &x;
	buf_reserve(&p, protobuf_c_message_get_packed_size(&m.base));
	p.len = protobuf_c_message_pack(&m.base, p.p);
	read_back(&p, &c);
	assert_int_equal(c.forwarded, 1);
	wa_msg_content_release(&c);
	buf_release(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forward__text_marked_and_read_back),
		cmocka_unit_test(test_forward__photo_keeps_its_keys),
		cmocka_unit_test(test_forward__rich_records_read_back),
		cmocka_unit_test(test_forward__refused_kinds),
		cmocka_unit_test(test_forward__is_forwarded_without_score_counts_one),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
