/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-probe.c -- wa_media_probe() (proto/media-probe.c):
 * files made here typed by their content whatever their names (a JPEG
 * photo with its size and a decodable thumbnail, PNG and text as
 * documents, WebP as a sticker only when asked, MP4 video, Ogg as a voice
 * note when asked, with its duration and waveform from opusenc's file),
 * and what it refuses.
 */
#include "base/compat.h"

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jpeglib.h>

#include "proto/media-probe.h"

static char	 dir[] = "/tmp/wa-probe-XXXXXX";
static char	 path[256];

/* dir/name with bytes p[0..n); its path in path. */
static const char *
put(const char *name, const void *p, size_t n)
{
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(p, 1, n, f), n);
	assert_int_equal(fclose(f), 0);
	return path;
}

/* A w x h gradient JPEG at dir/name. */
static const char *
put_jpeg(const char *name, unsigned w, unsigned h)
{
	struct jpeg_compress_struct	 c;
	struct jpeg_error_mgr		 e;
	unsigned char			*mem = NULL;
	unsigned long			 n = 0;
	uint8_t				*row = malloc(w * 3);
	unsigned			 x;
	const char			*p;

	assert_non_null(row);
	c.err = jpeg_std_error(&e);
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &mem, &n);
	c.image_width = w;
	c.image_height = h;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < h) {
		for (x = 0; x < w; x++) {
			row[x * 3] = (uint8_t)(x * 255 / w);
			row[x * 3 + 1] = (uint8_t)(c.next_scanline * 255 / h);
			row[x * 3 + 2] = 128;
		}
		(void)jpeg_write_scanlines(&c, &row, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	p = put(name, mem, n);
	free(mem);
	free(row);
	return p;
}

static void
test_photo__size_and_a_thumbnail_of_100_px(void **state)
{
	struct wa_media_probe			 p;
	struct jpeg_decompress_struct		 d;
	struct jpeg_error_mgr			 e;

	(void)state;
	/* Named like a document: the content decides. */
	assert_int_equal(wa_media_probe(put_jpeg("report.pdf", 1600, 1200), 0,
	    &p), 0);
	assert_int_equal(p.type, WA_MEDIA_IMAGE);
	assert_string_equal(p.mimetype, "image/jpeg");
	assert_int_equal(p.width, 1600);
	assert_int_equal(p.height, 1200);
	assert_true(p.size > 0);
	assert_non_null(p.thumb);
	d.err = jpeg_std_error(&e);
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, p.thumb, p.thumb_len);
	assert_int_equal(jpeg_read_header(&d, TRUE), JPEG_HEADER_OK);
	assert_int_equal(d.image_width, WA_MEDIA_PROBE_THUMB_SIDE);
	assert_int_equal(d.image_height, 75);
	jpeg_destroy_decompress(&d);
	wa_media_probe_release(&p);
	assert_null(p.thumb);

	/* A small photo keeps its sides in the thumbnail. */
	assert_int_equal(wa_media_probe(put_jpeg("a", 40, 30), 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_IMAGE);
	assert_non_null(p.thumb);
	wa_media_probe_release(&p);
}

static void
test_broken_jpeg__goes_as_a_document(void **state)
{
	static const uint8_t	 soi[] = { 0xff, 0xd8, 0xff, 0xe0, 0, 16, 'J',
				    'F', 'I', 'F', 0, 1, 1, 0, 0, 1, 0, 1, 0, 0 };
	struct wa_media_probe	 p;

	(void)state;
	assert_int_equal(wa_media_probe(put("cut.jpg", soi, sizeof(soi)), 0,
	    &p), 0);
	assert_int_equal(p.type, WA_MEDIA_DOCUMENT);
	assert_int_equal(p.width, 0);
	assert_null(p.thumb);
}

static void
test_types__png_text_webp_mp4_ogg(void **state)
{
	static const uint8_t	 png[] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a,
	    '\n', 0, 0, 0, 13, 'I', 'H', 'D', 'R', 0, 0, 0, 1, 0, 0, 0, 1, 8,
	    2, 0, 0, 0, 0x90, 0x77, 0x53, 0xde };
	static const char	 webp[] = "RIFF\44\0\0\0WEBPVP8 \30\0\0\0";
	static const char	 mp4[] = "\0\0\0\30ftypmp42\0\0\0\0mp42isom";
	static const char	 ogg[] = "OggS\0\2\0\0\0\0\0\0\0\0\1\0\0\0\0\0"
	    "\0\0\0\0\0\0\1\23OpusHead\1\1\070\1\200\273\0\0\0\0\0";
	static const char	 txt[] = "minutes of the meeting\n";
	struct wa_media_probe	 p;

	(void)state;
	assert_int_equal(wa_media_probe(put("x.jpg", png, sizeof(png)), 0,
	    &p), 0);
	assert_int_equal(p.type, WA_MEDIA_DOCUMENT);
	assert_string_equal(p.mimetype, "image/png");
	assert_int_equal(wa_media_probe(put("notes", txt, sizeof(txt) - 1), 0,
	    &p), 0);
	assert_int_equal(p.type, WA_MEDIA_DOCUMENT);
	assert_string_equal(p.mimetype, "text/plain");
	put("s.webp", webp, sizeof(webp) - 1);
	assert_int_equal(wa_media_probe(path, 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_DOCUMENT);
	assert_int_equal(wa_media_probe(path, WA_MEDIA_PROBE_STICKER, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_STICKER);
	assert_string_equal(p.mimetype, "image/webp");
	assert_int_equal(wa_media_probe(put("v", mp4, sizeof(mp4) - 1), 0,
	    &p), 0);
	assert_int_equal(p.type, WA_MEDIA_VIDEO);
	assert_string_equal(p.mimetype, "video/mp4");
	put("voice.ogg", ogg, sizeof(ogg) - 1);
	assert_int_equal(wa_media_probe(path, 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_AUDIO);
	assert_string_equal(p.mimetype, "audio/ogg");
	/* Only a header: Ogg, but no audio to decode. */
	assert_int_equal(wa_media_probe(path, WA_MEDIA_PROBE_PTT, &p),
	    -EINVAL);
}

/* A 16-bit mono WAV at 48 kHz: 1 s of a 440 Hz tone, 1 s of silence,
 * 1 s of the tone at half the loudness; its Ogg Opus by opusenc at
 * dir/voice.opus (the tests' build packages have opus-tools). */
static const char *
put_voice(void)
{
	static uint8_t	 wav[44 + 3 * 48000 * 2];
	uint32_t	 n = 3 * 48000, i;
	double		 amp;
	int16_t		 v;
	char		 cmd[600];

	memcpy(wav, "RIFF\0\0\0\0WAVEfmt \20\0\0\0\1\0\1\0"
	    "\200\273\0\0\0\167\1\0\2\0\20\0data", 40);
	wav[4] = (uint8_t)((36 + n * 2) & 0xff);
	wav[5] = (uint8_t)(((36 + n * 2) >> 8) & 0xff);
	wav[6] = (uint8_t)((36 + n * 2) >> 16);
	wav[40] = (uint8_t)((n * 2) & 0xff);
	wav[41] = (uint8_t)(((n * 2) >> 8) & 0xff);
	wav[42] = (uint8_t)((n * 2) >> 16);
	for (i = 0; i < n; i++) {
		amp = i < 48000 ? 16000 : i < 96000 ? 0 : 8000;
		v = (int16_t)(amp * sin(2 * M_PI * 440 * i / 48000.0));
		wav[44 + i * 2] = (uint8_t)(v & 0xff);
		wav[45 + i * 2] = (uint8_t)((uint16_t)v >> 8);
	}
	put("voice.wav", wav, sizeof(wav));
	snprintf(cmd, sizeof(cmd), "opusenc --quiet '%s/voice.wav' "
	    "'%s/voice.opus'", dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/voice.opus", dir);
	return path;
}

static void
test_voice_note__seconds_and_64_byte_waveform(void **state)
{
	struct wa_media_probe	 p;
	size_t			 i, top = 0;

	(void)state;
	assert_int_equal(wa_media_probe(put_voice(), WA_MEDIA_PROBE_PTT, &p),
	    0);
	assert_int_equal(p.type, WA_MEDIA_PTT);
	assert_string_equal(p.mimetype, "audio/ogg; codecs=opus");
	assert_int_equal(p.seconds, 3);
	assert_int_equal(p.waveform_len, WA_MEDIA_PROBE_WAVEFORM);
	for (i = 0; i < 64; i++)
		top = p.waveform[i] > top ? p.waveform[i] : top;
	assert_int_equal(top, 100);
	/* The loud second, the silent one, the half-loud one. */
	for (i = 2; i < 20; i++)
		assert_in_range(p.waveform[i], 85, 100);
	for (i = 24; i < 40; i++)
		assert_in_range(p.waveform[i], 0, 3);
	for (i = 45; i < 62; i++)
		assert_in_range(p.waveform[i], 40, 60);
	/* Not asked as a voice note: plain audio, no waveform. */
	assert_int_equal(wa_media_probe(path, 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_AUDIO);
	assert_int_equal(p.waveform_len, 0);
}

static void
test_refused__ptt_of_not_ogg_a_folder_a_missing_file(void **state)
{
	struct wa_media_probe	 p;

	(void)state;
	assert_int_equal(wa_media_probe(put("t.ogg", "text\n", 5),
	    WA_MEDIA_PROBE_PTT, &p), -EINVAL);
	assert_int_equal(wa_media_probe(dir, 0, &p), -EISDIR);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(wa_media_probe(path, 0, &p), -ENOENT);
	assert_int_equal(wa_media_probe(NULL, 0, &p), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_photo__size_and_a_thumbnail_of_100_px),
		cmocka_unit_test(test_broken_jpeg__goes_as_a_document),
		cmocka_unit_test(test_types__png_text_webp_mp4_ogg),
		cmocka_unit_test(test_voice_note__seconds_and_64_byte_waveform),
		cmocka_unit_test(test_refused__ptt_of_not_ogg_a_folder_a_missing_file),
	};
	char	 cmd[64];
	int	 rc;

	if (mkdtemp(dir) == NULL)
		return 1;
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		return 1;
	return rc;
}
