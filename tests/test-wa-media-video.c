/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-video.c -- a video to send (proto/media-video.c,
 * through wa_media_probe()): an MP4 made here with ffmpeg's command line
 * tool (3 s, 320x120, red on its left half and blue on its right, with a
 * sine for sound) gives seconds 3, 320x120 and a JPEG thumbnail of 100x37
 * that decodes (libjpeg) red on the left and blue on the right; the same
 * turned a quarter by its display matrix gives 120x320 and its thumbnail
 * upright, as ffmpeg shows it; a file
 * that only looks like an MP4 to libmagic still goes as a video, without
 * them (WC_EPROTO in video_err); an animated GIF goes as a document; a
 * 50 MB video is probed with the peak resident size grown by less than
 * 8 MiB.
 * Built without FFmpeg the same files give -ENOTSUP and no metadata.
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
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <jpeglib.h>

#include "base/err.h"
#include "proto/media-probe.h"

static char	 dir[] = "/tmp/wa-video-XXXXXX";
static char	 path[256];

/* dir/name made by ffmpeg from the lavfi graph; its path in path. */
static const char *
ffmpeg(const char *name, const char *graph, const char *args)
{
	char	 cmd[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "ffmpeg -nostdin -loglevel error -y "
	    "-f lavfi -i '%s' %s '%s'", graph, args, path);
	assert_int_equal(system(cmd), 0);
	return path;
}

/* The JPEG j[0..n) decoded: its sides and the RGB of its pixel at
 * column x of row y (-1: the middle row). */
static void
jpeg_pixel(const uint8_t *j, size_t n, unsigned x, int y, unsigned *w,
    unsigned *h, uint8_t rgb[3])
{
	struct jpeg_decompress_struct	 d;
	struct jpeg_error_mgr		 e;
	uint8_t				*row;

	d.err = jpeg_std_error(&e);
	jpeg_create_decompress(&d);
	jpeg_mem_src(&d, j, n);
	assert_int_equal(jpeg_read_header(&d, TRUE), JPEG_HEADER_OK);
	d.out_color_space = JCS_RGB;
	jpeg_start_decompress(&d);
	*w = d.output_width;
	*h = d.output_height;
	row = malloc((size_t)*w * 3);
	assert_non_null(row);
	if (y < 0)
		y = (int)(*h / 2);
	while (d.output_scanline <= (unsigned)y)
		(void)jpeg_read_scanlines(&d, &row, 1);
	memcpy(rgb, row + (size_t)x * 3, 3);
	jpeg_abort_decompress(&d);
	jpeg_destroy_decompress(&d);
	free(row);
}

#define RED_BLUE	"color=c=red:s=160x120:d=3[a];" \
			"color=c=blue:s=160x120:d=3[b];" \
			"sine=f=440:d=3[out1];[a][b]hstack[out0]"

static void
test_mp4__seconds_sides_and_a_thumbnail_of_its_frame(void **state)
{
	struct wa_media_probe	 p;
	unsigned		 w, h;
	uint8_t			 rgb[3];

	(void)state;
	assert_int_equal(wa_media_probe(ffmpeg("clip.bin", RED_BLUE,
	    "-c:v libx264 -pix_fmt yuv420p -c:a aac -f mp4"), 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_VIDEO);
	assert_string_equal(p.mimetype, "video/mp4");
	if (!wa_media_video_available()) {
		assert_int_equal(p.video_err, -ENOTSUP);
		assert_int_equal(p.seconds, 0);
		assert_int_equal(p.width, 0);
		assert_null(p.thumb);
		return;
	}
	assert_int_equal(p.video_err, 0);
	assert_int_equal(p.seconds, 3);
	assert_int_equal(p.width, 320);
	assert_int_equal(p.height, 120);
	assert_non_null(p.thumb);
	jpeg_pixel(p.thumb, p.thumb_len, 10, -1, &w, &h, rgb);
	assert_int_equal(w, 100);
	assert_int_equal(h, 37);
	assert_in_range(rgb[0], 200, 255);	/* red on the left */
	assert_in_range(rgb[2], 0, 60);
	jpeg_pixel(p.thumb, p.thumb_len, 90, -1, &w, &h, rgb);
	assert_in_range(rgb[0], 0, 60);		/* blue on the right */
	assert_in_range(rgb[2], 200, 255);
	wa_media_probe_release(&p);
	assert_null(p.thumb);
}

/* The peak resident size so far, in KiB. */
static long
peak_kib(void)
{
	struct rusage	 ru;

	assert_int_equal(getrusage(RUSAGE_SELF, &ru), 0);
	return ru.ru_maxrss;
}

/* A 50 MB video (8 s of noise at 640x480, MPEG-4 at its best quality,
 * its index at the end) is probed without reading it whole into memory:
 * the peak resident size grows by less than 8 MiB (after a first probe
 * has loaded FFmpeg's code). */
static void
test_mp4__a_large_file_streamed(void **state)
{
	struct wa_media_probe	 p;
	struct stat		 st;
	long			 before;

	(void)state;
	assert_int_equal(wa_media_probe(ffmpeg("warm.mp4",
	    "color=c=red:s=64x48:d=1", "-c:v mpeg4"), 0, &p), 0);
	wa_media_probe_release(&p);
	(void)ffmpeg("large.mp4", "testsrc=s=640x480:r=25:d=8,"
	    "noise=alls=100:allf=t", "-c:v mpeg4 -q:v 1 -f mp4");
	assert_int_equal(stat(path, &st), 0);
	assert_true(st.st_size > 40 * 1000 * 1000);
	before = peak_kib();
	assert_int_equal(wa_media_probe(path, 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_VIDEO);
	if (wa_media_video_available()) {
		assert_int_equal(p.seconds, 8);
		assert_int_equal(p.width, 640);
		assert_non_null(p.thumb);
	}
	wa_media_probe_release(&p);
	print_message("# peak RSS %ld KiB before, %ld KiB after probing "
	    "%lld bytes\n", before, peak_kib(), (long long)st.st_size);
	assert_true(peak_kib() - before < 8 * 1024);
}

/* A phone's portrait video: the same red | blue picture with a display
 * matrix that turns it a quarter (ffmpeg's rotate=90, which ffmpeg
 * itself shows as 120x320, blue on top and red below): its sides as it
 * is shown, and its thumbnail upright the same way. */
static void
test_mp4__turned_by_its_display_matrix(void **state)
{
	struct wa_media_probe	 p;
	char			 cmd[1024];
	unsigned		 w, h;
	uint8_t			 rgb[3];

	(void)state;
	(void)ffmpeg("flat.mp4", RED_BLUE, "-c:v libx264 -pix_fmt yuv420p "
	    "-an");
	snprintf(cmd, sizeof(cmd), "ffmpeg -nostdin -loglevel error -y -i "
	    "'%s' -c copy -metadata:s:v:0 rotate=90 '%s/turned.mp4'", path,
	    dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/turned.mp4", dir);
	assert_int_equal(wa_media_probe(path, 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_VIDEO);
	if (!wa_media_video_available())
		return;
	assert_int_equal(p.width, 120);
	assert_int_equal(p.height, 320);
	assert_non_null(p.thumb);
	jpeg_pixel(p.thumb, p.thumb_len, 18, 5, &w, &h, rgb);
	assert_int_equal(w, 37);
	assert_int_equal(h, 100);
	assert_in_range(rgb[2], 200, 255);	/* blue on top */
	assert_in_range(rgb[0], 0, 60);
	jpeg_pixel(p.thumb, p.thumb_len, 18, 94, &w, &h, rgb);
	assert_in_range(rgb[0], 200, 255);	/* red below */
	assert_in_range(rgb[2], 0, 60);
	wa_media_probe_release(&p);
}

/* A long video (10 minutes at 1 frame a second) reads its duration from
 * the container, not by decoding it all. */
static void
test_mp4__ten_minutes(void **state)
{
	struct wa_media_probe	 p;

	(void)state;
	assert_int_equal(wa_media_probe(ffmpeg("long.mp4",
	    "color=c=green:s=64x48:r=1:d=600", "-c:v libx264 -pix_fmt "
	    "yuv420p"), 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_VIDEO);
	if (wa_media_video_available()) {
		assert_int_equal(p.seconds, 600);
		assert_int_equal(p.width, 64);
		assert_int_equal(p.height, 48);
		assert_non_null(p.thumb);
	}
	wa_media_probe_release(&p);
}

static void
test_not_decodable_mp4__a_video_without_metadata(void **state)
{
	static const char	 mp4[] = "\0\0\0\30ftypmp42\0\0\0\0mp42isom"
	    "\0\0\0\10free";
	struct wa_media_probe	 p;
	FILE			*f;

	(void)state;
	snprintf(path, sizeof(path), "%s/cut.mp4", dir);
	assert_non_null(f = fopen(path, "wb"));
	assert_int_equal(fwrite(mp4, 1, sizeof(mp4) - 1, f), sizeof(mp4) - 1);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(wa_media_probe(path, 0, &p), 0);
	assert_int_equal(p.type, WA_MEDIA_VIDEO);
	assert_int_equal(p.video_err, wa_media_video_available() ? WC_EPROTO :
	    -ENOTSUP);
	assert_int_equal(p.seconds, 0);
	assert_int_equal(p.width, 0);
	assert_null(p.thumb);
	assert_int_equal(wa_media_video_probe(NULL, &p), -EINVAL);
}

static void
test_gif__a_document(void **state)
{
	struct wa_media_probe	 p;

	(void)state;
	assert_int_equal(wa_media_probe(ffmpeg("wave.gif",
	    "testsrc=s=64x48:r=5:d=1", "-f gif"), 0, &p), 0);
	assert_string_equal(p.mimetype, "image/gif");
	assert_int_equal(p.type, WA_MEDIA_DOCUMENT);
	assert_null(p.thumb);
}

/* The folder of the files made here, made before and removed after. */
static int
made(void **state)
{
	(void)state;
	return mkdtemp(dir) != NULL ? 0 : -1;
}

static int
gone(void **state)
{
	static const char *const	 names[] = { "warm.mp4", "large.mp4",
					    "clip.bin", "flat.mp4",
					    "turned.mp4", "long.mp4", "cut.mp4",
					    "wave.gif" };
	size_t				 i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		(void)unlink(path);
	}
	return rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mp4__a_large_file_streamed),
		cmocka_unit_test(
		    test_mp4__seconds_sides_and_a_thumbnail_of_its_frame),
		cmocka_unit_test(test_mp4__turned_by_its_display_matrix),
		cmocka_unit_test(test_mp4__ten_minutes),
		cmocka_unit_test(
		    test_not_decodable_mp4__a_video_without_metadata),
		cmocka_unit_test(test_gif__a_document),
	};

	return cmocka_run_group_tests(tests, made, gone);
}
