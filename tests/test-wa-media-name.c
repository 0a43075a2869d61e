/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-name.c -- names and paths of downloaded media
 * (proto/media-name.c): a hostile document name loses its directories,
 * control characters and leading dots; no name gives TYPE-ID.EXT from
 * the mimetype; an existing file is never named again ("-1", "-2");
 * the size and auto-download settings parse or are refused.
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/err.h"
#include "proto/media-name.h"

static void
safe_is(const char *fn, const char *mime, const char *type, const char *id,
    const char *want)
{
	char	out[256];
	int	n;

	n = wa_media_name_safe(fn, mime, type, id, out, sizeof(out));
	assert_int_equal(n, (int)strlen(want));
	assert_string_equal(out, want);
}

static void
test_wa_media_name_safe__keeps__a_plain_document_name(void **state)
{
	(void)state;
	safe_is("Report 2026.pdf", "application/pdf", "document", "ABC",
	    "Report 2026.pdf");
	safe_is("Grüße.txt", NULL, "document", "ABC", "Grüße.txt");
}

static void
test_wa_media_name_safe__drops__directories_dots_and_controls(void **state)
{
	(void)state;
	safe_is("../../etc/passwd", NULL, "document", "X", "passwd");
	safe_is("..\\..\\boot.ini", NULL, "document", "X", "boot.ini");
	safe_is(".bashrc", NULL, "document", "X", "bashrc");
	safe_is("a\x1b[31mred\n.txt", NULL, "document", "X", "a_[31mred_.txt");
	safe_is("bad\xff\xc0\x80.bin", NULL, "document", "X", "bad__.bin");
	safe_is("c1\xc2\x9b.txt", NULL, "document", "X", "c1_.txt");
	safe_is("-rf", NULL, "document", "X", "rf");
}

static void
test_wa_media_name_safe__names__by_type_and_id_when_nothing_is_left(
    void **state)
{
	(void)state;
	safe_is(NULL, "image/jpeg", "image", "3EB0A1B2", "image-3EB0A1B2.jpg");
	safe_is("...", "audio/ogg; codecs=opus", "ptt", "ID/../x",
	    "ptt-IDx.ogg");
	safe_is("/", "application/x-nothing", "document", "", "document-0.bin");
	safe_is("", NULL, NULL, NULL, "file-0.bin");
	safe_is("dir/", "VIDEO/MP4", "vi/deo", "1", "video-1.mp4");
}

static void
test_wa_media_name_safe__cuts__a_long_name_on_a_character(void **state)
{
	char	 in[600], out[256];
	size_t	 i;
	int	 n;

	(void)state;
	for (i = 0; i + 2 < sizeof(in); i += 2)
		memcpy(in + i, "\xc3\xa4", 2);	/* ä */
	in[i] = '\0';
	n = wa_media_name_safe(in, NULL, "document", "X", out, sizeof(out));
	assert_int_equal(n, WA_MEDIA_NAME_MAX);
	assert_int_equal(n % 2, 0);
	assert_int_equal(wa_media_name_safe("abc", NULL, NULL, NULL, out, 3),
	    WC_ETOOBIG);
	assert_int_equal(wa_media_name_safe("abc", NULL, NULL, NULL, NULL, 9),
	    -EINVAL);
}

static void
touch(const char *path)
{
	int	fd;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
}

static void
test_wa_media_name_nth__puts_the_number__before_the_extension(void **state)
{
	char	 p[64];

	(void)state;
	assert_int_equal(wa_media_name_nth("d/Five.pdf", 0, p, sizeof(p)), 0);
	assert_string_equal(p, "d/Five.pdf");
	assert_int_equal(wa_media_name_nth("d/Five.pdf", 4, p, sizeof(p)), 0);
	assert_string_equal(p, "d/Five-4.pdf");
	assert_int_equal(wa_media_name_nth("d.x/noext", 1, p, sizeof(p)), 0);
	assert_string_equal(p, "d.x/noext-1");
	assert_int_equal(wa_media_name_nth("/d/.hid", 2, p, sizeof(p)), 0);
	assert_string_equal(p, "/d/.hid-2");
	assert_int_equal(wa_media_name_nth("a.pdf", 12, p, 7), WC_ETOOBIG);
	assert_int_equal(wa_media_name_nth("", 1, p, sizeof(p)), -EINVAL);
}

static void
test_wa_media_name_free__never__names_an_existing_file(void **state)
{
	char	 dir[] = "/tmp/wa-media-name-XXXXXX", p[512], want[512];

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_int_equal(wa_media_name_free(dir, "a.pdf", p, sizeof(p)), 0);
	snprintf(want, sizeof(want), "%s/a.pdf", dir);
	assert_string_equal(p, want);
	touch(p);
	assert_int_equal(wa_media_name_free(dir, "a.pdf", p, sizeof(p)), 0);
	snprintf(want, sizeof(want), "%s/a-1.pdf", dir);
	assert_string_equal(p, want);
	touch(p);
	assert_int_equal(wa_media_name_free(dir, "a.pdf", p, sizeof(p)), 0);
	snprintf(want, sizeof(want), "%s/a-2.pdf", dir);
	assert_string_equal(p, want);
	assert_int_equal(access(p, F_OK), -1);	/* a name, not a file */
	snprintf(want, sizeof(want), "%s/noext", dir);
	touch(want);
	assert_int_equal(wa_media_name_free(dir, "noext", p, sizeof(p)), 0);
	snprintf(want, sizeof(want), "%s/noext-1", dir);
	assert_string_equal(p, want);
	assert_int_equal(wa_media_name_free(dir, "x/y", p, sizeof(p)), -EINVAL);
	assert_int_equal(wa_media_name_free(dir, "", p, sizeof(p)), -EINVAL);
	assert_int_equal(wa_media_name_free(dir, "a.pdf", p, 8), WC_ETOOBIG);
	snprintf(want, sizeof(want), "%s/a.pdf", dir);
	unlink(want);
	snprintf(want, sizeof(want), "%s/a-1.pdf", dir);
	unlink(want);
	snprintf(want, sizeof(want), "%s/noext", dir);
	unlink(want);
	assert_int_equal(rmdir(dir), 0);
}

static void
size_is(const char *s, uint64_t want)
{
	uint64_t v = 7;

	assert_int_equal(wa_media_size_parse(s, &v), 0);
	assert_true(v == want);
}

static void
test_wa_media_size_parse__reads__binary_units(void **state)
{
	uint64_t v;

	(void)state;
	size_is("1234", 1234);
	size_is("5M", 5u << 20);
	size_is("700k", 700u << 10);
	size_is("2GiB", (uint64_t)2 << 30);
	size_is("2G", (uint64_t)2 << 30);
	size_is("3TB", (uint64_t)3 << 40);
	size_is("0", 0);
	assert_int_equal(wa_media_size_parse("", &v), -EINVAL);
	assert_int_equal(wa_media_size_parse("M", &v), -EINVAL);
	assert_int_equal(wa_media_size_parse("5X", &v), -EINVAL);
	assert_int_equal(wa_media_size_parse("5Mi", &v), -EINVAL);
	assert_int_equal(wa_media_size_parse("5 M", &v), -EINVAL);
	assert_int_equal(wa_media_size_parse("-5", &v), -EINVAL);
	assert_int_equal(wa_media_size_parse("18446744073709551616", &v),
	    WC_ETOOBIG);
	assert_int_equal(wa_media_size_parse("17179869184G", &v), WC_ETOOBIG);
	assert_int_equal(wa_media_size_parse(NULL, &v), -EINVAL);
}

static void
test_wa_media_auto_parse__reads__kinds_and_caps(void **state)
{
	struct wa_media_auto a;

	(void)state;
	assert_int_equal(wa_media_auto_parse("none", &a), 0);
	assert_true(a.max[WA_MEDIA_AUTO_IMAGE] == 0);
	assert_int_equal(wa_media_auto_parse("image:5M, ptt:2M", &a), 0);
	assert_true(a.max[WA_MEDIA_AUTO_IMAGE] == 5u << 20);
	assert_true(a.max[WA_MEDIA_AUTO_PTT] == 2u << 20);
	assert_true(a.max[WA_MEDIA_AUTO_VIDEO] == 0);
	assert_true(a.max[WA_MEDIA_AUTO_DOCUMENT] == 0);
	assert_int_equal(wa_media_auto_parse("document:1G,sticker:100K", &a),
	    0);
	assert_true(a.max[WA_MEDIA_AUTO_DOCUMENT] == (uint64_t)1 << 30);
	assert_true(a.max[WA_MEDIA_AUTO_STICKER] == 100u << 10);
	assert_int_equal(wa_media_auto_parse("image:5M,pdf:1M", &a), -EINVAL);
	assert_true(a.max[WA_MEDIA_AUTO_IMAGE] == 0);
	assert_int_equal(wa_media_auto_parse("image", &a), -EINVAL);
	assert_int_equal(wa_media_auto_parse("image:lots", &a), -EINVAL);
	assert_int_equal(wa_media_auto_parse("image:5M,", &a), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_media_name_safe__keeps__a_plain_document_name),
		cmocka_unit_test(test_wa_media_name_safe__drops__directories_dots_and_controls),
		cmocka_unit_test(test_wa_media_name_safe__names__by_type_and_id_when_nothing_is_left),
		cmocka_unit_test(test_wa_media_name_safe__cuts__a_long_name_on_a_character),
		cmocka_unit_test(test_wa_media_name_free__never__names_an_existing_file),
		cmocka_unit_test(test_wa_media_name_nth__puts_the_number__before_the_extension),
		cmocka_unit_test(test_wa_media_size_parse__reads__binary_units),
		cmocka_unit_test(test_wa_media_auto_parse__reads__kinds_and_caps),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
