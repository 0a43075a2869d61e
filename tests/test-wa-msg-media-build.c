/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-msg-media-build.c -- wa_msg_build_media() (proto/msg-media.c;
 * protocol-features.md 1.6): every media type we send, built and read back
 * by wa_msg_parse() and by protobuf-c's own unpack, with the fields a
 * receiving phone needs to download and show it; a reply; what is refused.
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

#include "e2e.pb-c.h"
#include "base/buf.h"
#include "proto/msg.h"

static uint8_t	 key[32], sha[32], enc[32], wave[64], thumb[40];

/* A media description with every download field set, of type t. */
static struct wa_msg_media
sample(enum wa_msg_media_type t, const char *mime)
{
	struct wa_msg_media	 md;
	size_t			 i;

	for (i = 0; i < 32; i++) {
		key[i] = (uint8_t)i;
		sha[i] = (uint8_t)(0x40 + i);
		enc[i] = (uint8_t)(0x80 + i);
	}
	memset(&md, 0, sizeof(md));
	md.type = t;
	md.mimetype = (char *)(uintptr_t)mime;
	md.file_length = 123456;
	md.url = (char *)"https://mmg.example.net/o1/v/t62/abc?ccb=9";
	md.direct_path = (char *)"/o1/v/t62/abc?ccb=9";
	md.media_key = key;
	md.media_key_len = sizeof(key);
	md.file_sha256 = sha;
	md.file_sha256_len = sizeof(sha);
	md.file_enc_sha256 = enc;
	md.file_enc_sha256_len = sizeof(enc);
	md.media_key_ts = 1764815000;
	return md;
}

/* md built and read back by wa_msg_parse() into c; the bytes in *b. */
static void
roundtrip(const struct wa_msg_media *md, const struct wa_msg_text *reply,
    struct buf *b, struct wa_msg_content *c)
{
	*b = (struct buf)BUF_INIT;
	assert_int_equal(wa_msg_build_media(md, reply, b), 0);
	assert_int_equal(wa_msg_parse(b->p, b->len, c), 0);
	assert_int_equal(c->kind, WA_MSG_MEDIA);
	assert_non_null(c->media);
	assert_int_equal(c->media->type, md->type);
	assert_string_equal(c->media->mimetype, md->mimetype);
	assert_string_equal(c->media->url, md->url);
	assert_string_equal(c->media->direct_path, md->direct_path);
	assert_int_equal(c->media->file_length, md->file_length);
	assert_int_equal(c->media->media_key_ts, md->media_key_ts);
	assert_int_equal(c->media->media_key_len, 32);
	assert_memory_equal(c->media->media_key, key, 32);
	assert_int_equal(c->media->file_sha256_len, 32);
	assert_memory_equal(c->media->file_sha256, sha, 32);
	assert_int_equal(c->media->file_enc_sha256_len, 32);
	assert_memory_equal(c->media->file_enc_sha256, enc, 32);
}

static void
test_image__caption_dims_thumb(void **state)
{
	struct wa_msg_media	 md = sample(WA_MEDIA_IMAGE, "image/jpeg");
	struct wa_msg_content	 c;
	struct buf		 b;
	Wae2e__Message		*m;

	(void)state;
	md.caption = (char *)"the harbour at dusk";
	md.width = 1600;
	md.height = 1200;
	memset(thumb, 0xd8, sizeof(thumb));
	md.thumb = thumb;
	md.thumb_len = sizeof(thumb);
	roundtrip(&md, NULL, &b, &c);
	assert_string_equal(c.media->caption, "the harbour at dusk");
	assert_int_equal(c.media->width, 1600);
	assert_int_equal(c.media->height, 1200);
	assert_int_equal(c.media->thumb_len, sizeof(thumb));
	assert_memory_equal(c.media->thumb, thumb, sizeof(thumb));
	assert_null(c.quoted_id);
	wa_msg_content_release(&c);
	m = wae2e__message__unpack(NULL, b.len, b.p);
	assert_non_null(m);
	assert_non_null(m->imagemessage);	/* field 3 */
	assert_null(m->documentmessage);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);
}

static void
test_video_gif_and_round_note(void **state)
{
	static const enum wa_msg_media_type	 t[] = { WA_MEDIA_VIDEO,
					    WA_MEDIA_GIF, WA_MEDIA_PTV };
	struct wa_msg_content			 c;
	struct buf				 b;
	Wae2e__Message				*m;
	size_t					 i;

	(void)state;
	for (i = 0; i < 3; i++) {
		struct wa_msg_media	 md = sample(t[i], "video/mp4");

		md.seconds = 17;
		md.width = 640;
		md.height = 360;
		roundtrip(&md, NULL, &b, &c);
		assert_int_equal(c.media->seconds, 17);
		assert_int_equal(c.media->width, 640);
		wa_msg_content_release(&c);
		m = wae2e__message__unpack(NULL, b.len, b.p);
		assert_non_null(m);
		if (t[i] == WA_MEDIA_PTV) {
			assert_non_null(m->ptvmessage);	/* field 66 */
			assert_null(m->videomessage);
		} else {
			assert_non_null(m->videomessage);
			assert_int_equal(m->videomessage->gifplayback,
			    t[i] == WA_MEDIA_GIF);
		}
		wae2e__message__free_unpacked(m, NULL);
		buf_release(&b);
	}
}

static void
test_voice_note__ptt_seconds_64_byte_waveform(void **state)
{
	struct wa_msg_media	 md = sample(WA_MEDIA_PTT,
				    "audio/ogg; codecs=opus");
	struct wa_msg_content	 c;
	struct buf		 b;
	Wae2e__Message		*m;
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(wave); i++)
		wave[i] = (uint8_t)(i * 100 / 63);
	md.seconds = 4;
	md.waveform = wave;
	md.waveform_len = sizeof(wave);
	roundtrip(&md, NULL, &b, &c);
	assert_int_equal(c.media->seconds, 4);
	assert_int_equal(c.media->waveform_len, 64);
	assert_memory_equal(c.media->waveform, wave, 64);
	wa_msg_content_release(&c);
	m = wae2e__message__unpack(NULL, b.len, b.p);
	assert_non_null(m);
	assert_non_null(m->audiomessage);
	assert_true(m->audiomessage->has_ptt && m->audiomessage->ptt);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);

	md = sample(WA_MEDIA_AUDIO, "audio/mpeg");	/* not a voice note */
	roundtrip(&md, NULL, &b, &c);
	assert_int_equal(c.media->waveform_len, 0);
	wa_msg_content_release(&c);
	buf_release(&b);
}

static void
test_document__name_caption_and_unnamed(void **state)
{
	struct wa_msg_media	 md = sample(WA_MEDIA_DOCUMENT,
				    "application/pdf");
	struct wa_msg_content	 c;
	struct buf		 b;
	Wae2e__Message		*m;

	(void)state;
	md.file_name = (char *)"minutes 2026-12.pdf";
	md.caption = (char *)"for Tuesday";
	roundtrip(&md, NULL, &b, &c);
	assert_string_equal(c.media->file_name, "minutes 2026-12.pdf");
	assert_string_equal(c.media->caption, "for Tuesday");
	wa_msg_content_release(&c);
	m = wae2e__message__unpack(NULL, b.len, b.p);
	assert_non_null(m);
	assert_non_null(m->documentmessage);	/* inline, no wrapper */
	assert_null(m->documentwithcaptionmessage);
	assert_string_equal(m->documentmessage->filename,
	    "minutes 2026-12.pdf");
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);

	md.file_name = NULL;
	md.caption = NULL;
	md.media_key_ts = 0;
	roundtrip(&md, NULL, &b, &c);
	assert_string_equal(c.media->file_name, "file");
	assert_null(c.media->caption);
	wa_msg_content_release(&c);
	m = wae2e__message__unpack(NULL, b.len, b.p);
	assert_non_null(m);
	assert_false(m->documentmessage->has_mediakeytimestamp);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);
}

static void
test_sticker__dims_and_animated(void **state)
{
	struct wa_msg_media	 md = sample(WA_MEDIA_STICKER, "image/webp");
	struct wa_msg_content	 c;
	struct buf		 b;

	(void)state;
	md.width = md.height = 512;
	md.animated = true;
	roundtrip(&md, NULL, &b, &c);
	assert_int_equal(c.media->width, 512);
	assert_true(c.media->animated);
	wa_msg_content_release(&c);
	buf_release(&b);
}

static void
test_reply__quote_travels(void **state)
{
	struct wa_msg_media	 md = sample(WA_MEDIA_IMAGE, "image/jpeg");
	struct wa_msg_text	 r;
	struct wa_msg_content	 c;
	struct buf		 b;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.quoted_id = "3EB0AAAA";
	r.quoted_participant = "15551234567@s.whatsapp.net";
	r.quoted_text = "send me the picture";
	roundtrip(&md, &r, &b, &c);
	assert_string_equal(c.quoted_id, "3EB0AAAA");
	assert_string_equal(c.quoted_text, "send me the picture");
	wa_msg_content_release(&c);
	buf_release(&b);
}

static void
test_refused__missing_or_bad_download_fields(void **state)
{
	struct wa_msg_media	 md;
	struct buf		 b;
	uint8_t			 big[WA_MSG_WAVEFORM_MAX + 1] = { 0 };

	(void)state;
	b = (struct buf)BUF_INIT;
	assert_int_equal(wa_msg_build_media(NULL, NULL, &b), -EINVAL);
	md = sample(WA_MEDIA_NONE, "image/jpeg");
	assert_int_equal(wa_msg_build_media(&md, NULL, &b), -EINVAL);
	md = sample((enum wa_msg_media_type)99, "image/jpeg");
	assert_int_equal(wa_msg_build_media(&md, NULL, &b), -EINVAL);
	md = sample(WA_MEDIA_IMAGE, "image/jpeg");
	md.media_key_len = 31;
	assert_int_equal(wa_msg_build_media(&md, NULL, &b), -EINVAL);
	md = sample(WA_MEDIA_IMAGE, "image/jpeg");
	md.direct_path = (char *)"o1/v/t62";
	assert_int_equal(wa_msg_build_media(&md, NULL, &b), -EINVAL);
	md = sample(WA_MEDIA_IMAGE, NULL);
	assert_int_equal(wa_msg_build_media(&md, NULL, &b), -EINVAL);
	md = sample(WA_MEDIA_IMAGE, "image/jpeg");
	md.file_enc_sha256 = NULL;
	assert_int_equal(wa_msg_build_media(&md, NULL, &b), -EINVAL);
	md = sample(WA_MEDIA_PTT, "audio/ogg; codecs=opus");
	md.waveform = big;
	md.waveform_len = sizeof(big);
	assert_int_equal(wa_msg_build_media(&md, NULL, &b), -EINVAL);
	assert_int_equal(b.len, 0);
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_image__caption_dims_thumb),
		cmocka_unit_test(test_video_gif_and_round_note),
		cmocka_unit_test(test_voice_note__ptt_seconds_64_byte_waveform),
		cmocka_unit_test(test_document__name_caption_and_unnamed),
		cmocka_unit_test(test_sticker__dims_and_animated),
		cmocka_unit_test(test_reply__quote_travels),
		cmocka_unit_test(test_refused__missing_or_bad_download_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
