/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-msg-media.c -- wa_msg_parse() on media messages
 * (proto/msg-media.c; protocol-features.md 1.6): Messages built with
 * protobuf-c as a sender builds them, read back as the screen and a
 * later download need them, inside the wrappers too, with the size caps.
 */
#include "base/compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "e2e.pb-c.h"
#include "proto/msg.h"
#include "base/xmalloc.h"

static uint8_t	 key[32], sha[32], enc[32];

/* m packed into a new buffer, its length in *len. */
static uint8_t *
pack(const Wae2e__Message *m, size_t *len)
{
	uint8_t	*p;

	*len = wae2e__message__get_packed_size(m);
	p = xmalloc(*len + 1);
	assert_int_equal(wae2e__message__pack(m, p), *len);
	return p;
}

static ProtobufCBinaryData
bin(uint8_t *p, size_t n)
{
	ProtobufCBinaryData	 b = { n, p };

	return b;
}

static void
parse(const Wae2e__Message *m, struct wa_msg_content *c)
{
	size_t	 len;
	uint8_t	*p = pack(m, &len);

	assert_int_equal(wa_msg_parse(p, len, c), 0);
	free(p);
}

static void
test_image__caption_size_dims_thumb_and_download_fields(void **state)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ImageMessage	 im =
	    WAE2E__MESSAGE__IMAGE_MESSAGE__INIT;
	uint8_t				 thumb[] = { 0xff, 0xd8, 0xff, 0xd9 };
	struct wa_msg_content		 c;

	(void)state;
	memset(key, 7, sizeof(key));
	memset(sha, 8, sizeof(sha));
	memset(enc, 9, sizeof(enc));
	im.url = (char *)"https://mmg.whatsapp.net/o1/v/t62/x.enc";
	im.mimetype = (char *)"image/jpeg";
	im.caption = (char *)"the beach";
	im.has_filelength = 1;
	im.filelength = 123456;
	im.has_width = im.has_height = 1;
	im.width = 1600;
	im.height = 1200;
	im.has_mediakey = im.has_filesha256 = im.has_fileencsha256 = 1;
	im.mediakey = bin(key, 32);
	im.filesha256 = bin(sha, 32);
	im.fileencsha256 = bin(enc, 32);
	im.directpath = (char *)"/o1/v/t62/x.enc?ccb=11-4";
	im.has_mediakeytimestamp = 1;
	im.mediakeytimestamp = 1733000000;
	im.has_jpegthumbnail = 1;
	im.jpegthumbnail = bin(thumb, sizeof(thumb));
	m.imagemessage = &im;
	parse(&m, &c);
	assert_int_equal(c.kind, WA_MSG_MEDIA);
	assert_non_null(c.media);
	assert_int_equal(c.media->type, WA_MEDIA_IMAGE);
	assert_string_equal(wa_msg_media_name(c.media->type), "image");
	assert_string_equal(c.text, "the beach");
	assert_string_equal(c.media->caption, "the beach");
	assert_string_equal(c.media->mimetype, "image/jpeg");
	assert_int_equal(c.media->file_length, 123456);
	assert_int_equal(c.media->width, 1600);
	assert_int_equal(c.media->height, 1200);
	assert_int_equal(c.media->media_key_len, 32);
	assert_memory_equal(c.media->media_key, key, 32);
	assert_memory_equal(c.media->file_sha256, sha, 32);
	assert_memory_equal(c.media->file_enc_sha256, enc, 32);
	assert_string_equal(c.media->direct_path, "/o1/v/t62/x.enc?ccb=11-4");
	assert_string_equal(c.media->url,
	    "https://mmg.whatsapp.net/o1/v/t62/x.enc");
	assert_int_equal(c.media->media_key_ts, 1733000000);
	assert_int_equal(c.media->thumb_len, sizeof(thumb));
	assert_memory_equal(c.media->thumb, thumb, sizeof(thumb));
	wa_msg_content_release(&c);
	assert_null(c.media);
}

static void
test_video__gif_and_round_note_apart(void **state)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__VideoMessage	 v =
	    WAE2E__MESSAGE__VIDEO_MESSAGE__INIT;
	struct wa_msg_content		 c;

	(void)state;
	v.has_seconds = 1;
	v.seconds = 184;
	v.has_width = v.has_height = 1;
	v.width = 640;
	v.height = 360;
	v.caption = (char *)"clip";
	m.videomessage = &v;
	parse(&m, &c);
	assert_int_equal(c.media->type, WA_MEDIA_VIDEO);
	assert_int_equal(c.media->seconds, 184);
	assert_int_equal(c.media->width, 640);
	assert_string_equal(c.text, "clip");
	wa_msg_content_release(&c);

	v.has_gifplayback = 1;
	v.gifplayback = 1;
	parse(&m, &c);
	assert_int_equal(c.media->type, WA_MEDIA_GIF);
	wa_msg_content_release(&c);

	v.has_gifplayback = 0;
	m.videomessage = NULL;
	m.ptvmessage = &v;
	parse(&m, &c);
	assert_int_equal(c.kind, WA_MSG_MEDIA);
	assert_int_equal(c.media->type, WA_MEDIA_PTV);
	assert_string_equal(wa_msg_media_name(c.media->type), "ptv");
	wa_msg_content_release(&c);
}

static void
test_audio__voice_note_with_waveform_and_audio(void **state)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__AudioMessage	 a =
	    WAE2E__MESSAGE__AUDIO_MESSAGE__INIT;
	uint8_t				 wave[64], big[WA_MSG_WAVEFORM_MAX + 1];
	struct wa_msg_content		 c;

	(void)state;
	memset(wave, 50, sizeof(wave));
	memset(big, 1, sizeof(big));
	a.mimetype = (char *)"audio/ogg; codecs=opus";
	a.has_seconds = a.has_ptt = a.has_waveform = 1;
	a.seconds = 12;
	a.ptt = 1;
	a.waveform = bin(wave, sizeof(wave));
	m.audiomessage = &a;
	parse(&m, &c);
	assert_int_equal(c.media->type, WA_MEDIA_PTT);
	assert_int_equal(c.media->seconds, 12);
	assert_int_equal(c.media->waveform_len, 64);
	assert_null(c.text);	/* no caption */
	wa_msg_content_release(&c);

	/* music, and a waveform above the cap is dropped */
	a.ptt = 0;
	a.waveform = bin(big, sizeof(big));
	parse(&m, &c);
	assert_int_equal(c.media->type, WA_MEDIA_AUDIO);
	assert_null(c.media->waveform);
	assert_int_equal(c.media->waveform_len, 0);
	wa_msg_content_release(&c);
}

static void
test_document__name_pages_and_caption_wrapper(void **state)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message			 inner = WAE2E__MESSAGE__INIT;
	Wae2e__Message__FutureProofMessage fp =
	    WAE2E__MESSAGE__FUTURE_PROOF_MESSAGE__INIT;
	Wae2e__Message__DocumentMessage	 d =
	    WAE2E__MESSAGE__DOCUMENT_MESSAGE__INIT;
	uint8_t				 shortkey[16];
	struct wa_msg_content		 c;

	(void)state;
	memset(shortkey, 1, sizeof(shortkey));
	d.filename = (char *)"report.pdf";
	d.title = (char *)"Report";
	d.mimetype = (char *)"application/pdf";
	d.has_pagecount = d.has_filelength = 1;
	d.pagecount = 12;
	d.filelength = 2500000;
	d.caption = (char *)"for Monday";
	d.has_mediakey = 1;
	d.mediakey = bin(shortkey, sizeof(shortkey)); /* not 32: dropped */
	inner.documentmessage = &d;
	fp.message = &inner;
	m.documentwithcaptionmessage = &fp;
	parse(&m, &c);
	assert_int_equal(c.kind, WA_MSG_MEDIA);
	assert_int_equal(c.media->type, WA_MEDIA_DOCUMENT);
	assert_string_equal(c.media->file_name, "report.pdf");
	assert_int_equal(c.media->pages, 12);
	assert_int_equal(c.media->file_length, 2500000);
	assert_string_equal(c.text, "for Monday");
	assert_null(c.media->media_key);
	wa_msg_content_release(&c);

	/* no fileName: the title names it */
	d.filename = NULL;
	parse(&m, &c);
	assert_string_equal(c.media->file_name, "Report");
	wa_msg_content_release(&c);
}

static void
test_sticker__static_animated_and_ephemeral(void **state)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message			 inner = WAE2E__MESSAGE__INIT;
	Wae2e__Message__FutureProofMessage fp =
	    WAE2E__MESSAGE__FUTURE_PROOF_MESSAGE__INIT;
	Wae2e__Message__StickerMessage	 st =
	    WAE2E__MESSAGE__STICKER_MESSAGE__INIT;
	uint8_t				*thumb = xcalloc(1,
					    WA_MSG_THUMB_MAX + 1);
	struct wa_msg_content		 c;

	(void)state;
	st.mimetype = (char *)"image/webp";
	st.has_width = st.has_height = st.has_filelength = 1;
	st.width = st.height = 512;
	st.filelength = 20480;
	st.has_pngthumbnail = 1;
	st.pngthumbnail = bin(thumb, WA_MSG_THUMB_MAX + 1); /* too big */
	inner.stickermessage = &st;
	fp.message = &inner;
	m.ephemeralmessage = &fp;
	parse(&m, &c);
	assert_int_equal(c.media->type, WA_MEDIA_STICKER);
	assert_false(c.media->animated);
	assert_int_equal(c.media->width, 512);
	assert_null(c.media->thumb);
	wa_msg_content_release(&c);

	st.has_isanimated = 1;
	st.isanimated = 1;
	m.ephemeralmessage = NULL;
	m.viewoncemessagev2 = &fp;
	parse(&m, &c);
	assert_true(c.media->animated);
	wa_msg_content_release(&c);
	free(thumb);
}

static void
test_media_reply__quotes_like_text(void **state)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message			 q = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ImageMessage	 im =
	    WAE2E__MESSAGE__IMAGE_MESSAGE__INIT;
	Wae2e__ContextInfo		 ci = WAE2E__CONTEXT_INFO__INIT;
	struct wa_msg_content		 c;

	(void)state;
	q.conversation = (char *)"where are you?";
	ci.stanzaid = (char *)"3EB0AAAA";
	ci.participant = (char *)"15551234567@s.whatsapp.net";
	ci.quotedmessage = &q;
	im.contextinfo = &ci;
	m.imagemessage = &im;
	parse(&m, &c);
	assert_int_equal(c.kind, WA_MSG_MEDIA);
	assert_string_equal(c.quoted_id, "3EB0AAAA");
	assert_string_equal(c.quoted_text, "where are you?");
	assert_null(c.text);
	wa_msg_content_release(&c);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image__caption_size_dims_thumb_and_download_fields),
		cmocka_unit_test(test_video__gif_and_round_note_apart),
		cmocka_unit_test(test_audio__voice_note_with_waveform_and_audio),
		cmocka_unit_test(test_document__name_pages_and_caption_wrapper),
		cmocka_unit_test(test_sticker__static_animated_and_ephemeral),
		cmocka_unit_test(test_media_reply__quotes_like_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
