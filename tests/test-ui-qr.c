/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-ui-qr.c -- the pairing QR in half blocks (ui/qr.c): the rows
 * drawn in the terminal are read back into modules, turned into an image
 * and decoded by zbarimg (zbar-tools), which must give back the text.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "ui/qr.h"
#include "base/xmalloc.h"

/* A companion-link QR string shaped as protocol.md 6.2 gives it, made-up
 * values: ref, noise key, identity key, ADV secret (base64), platform. */
static const char	 LINK[] =
    "https://wa.me/settings/linked_devices#"
    "2@Zm9vYmFyYmF6cXV4cXV1eHF1dXpmb29iYXJiYXpxdXg5OTk5OTk5OTk5OTk5OTk5"
    "OTk5OTk5OTk5OTk5OTk5OTk5,"
    "q0c5lVvV4ZcPqB7bqj7mXkq2v9k0WlUq0o0nH7mB2yQ=,"
    "Tm9pc2VLZXlOb2lzZUtleU5vaXNlS2V5Tm9pc2VLZXk=,"
    "QWR2U2VjcmV0QWR2U2VjcmV0QWR2U2VjcmV0QWR2U2U=,"
    "CHROME";

/* Read the rendered rows back into a module bitmap (size x size). */
static uint8_t *
read_back(const struct ui_qr *q)
{
	uint8_t		*m = xcalloc((size_t)q->size * (size_t)q->size, 1);
	struct buf	 row = BUF_INIT;
	int		 r, x;

	for (r = 0; r < ui_qr_rows(q); r++) {
		size_t	 i = 0;

		row.len = 0;
		ui_qr_row(q, r, &row);
		for (x = 0; x < q->size; x++) {
			int	 top, bottom;

			assert_true(i < row.len);
			if (row.p[i] == ' ') {
				top = bottom = 0;
				i += 1;
			} else {
				/* E2 96 80 upper, 84 lower, 88 full */
				assert_true(i + 3 <= row.len);
				assert_int_equal(row.p[i], 0xE2);
				assert_int_equal(row.p[i + 1], 0x96);
				top = row.p[i + 2] == 0x80 || row.p[i + 2] == 0x88;
				bottom = row.p[i + 2] == 0x84 ||
				    row.p[i + 2] == 0x88;
				assert_true(top || bottom);
				i += 3;
			}
			m[(size_t)(2 * r) * (size_t)q->size + (size_t)x] =
			    (uint8_t)top;
			if (2 * r + 1 < q->size)
				m[(size_t)(2 * r + 1) * (size_t)q->size +
				    (size_t)x] = (uint8_t)bottom;
			else
				assert_int_equal(bottom, 0);
		}
		assert_int_equal(i, row.len);	/* nothing after the code */
	}
	buf_release(&row);
	return m;
}

/* Decode the modules with zbarimg; returns the text (caller frees). */
static char *
zbar(const uint8_t *m, int size)
{
	const int	 scale = 6;
	char		 path[] = "/tmp/wachat-qr-XXXXXX";
	char		 cmd[256], *text;
	FILE		*f, *p;
	int		 fd, x, y, px;
	size_t		 n;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "wb");
	assert_non_null(f);
	fprintf(f, "P5\n%d %d\n255\n", size * scale, size * scale);
	for (y = 0; y < size * scale; y++)
		for (x = 0; x < size * scale; x++) {
			px = m[(size_t)(y / scale) * (size_t)size +
			    (size_t)(x / scale)] ? 0 : 255;
			fputc(px, f);
		}
	fclose(f);
	snprintf(cmd, sizeof(cmd), "zbarimg --raw -q -Sdisable "
	    "-Sqrcode.enable %s 2>/dev/null", path);
	p = popen(cmd, "r");
	assert_non_null(p);
	text = xcalloc(4096, 1);
	n = fread(text, 1, 4095, p);
	pclose(p);
	unlink(path);
	while (n > 0 && text[n - 1] == '\n')
		text[--n] = '\0';
	return text;
}

static void
test_ui_qr_rows__read_back_and_decoded__give_the_link(void **state)
{
	struct ui_qr	 q;
	uint8_t		*m;
	char		*text;
	int		 i;

	(void)state;
	assert_true(strlen(LINK) > 200);
	assert_int_equal(ui_qr_make(LINK, &q), 0);
	/* Fits the terminal sizes the first screen plans for. */
	assert_true(ui_qr_cols(&q) >= 61 && ui_qr_cols(&q) <= 69);
	assert_true(ui_qr_rows(&q) <= 35);
	m = read_back(&q);
	assert_memory_equal(m, q.dark, (size_t)q.size * (size_t)q.size);
	/* The quiet zone is light all round. */
	for (i = 0; i < q.size; i++) {
		assert_int_equal(m[i], 0);
		assert_int_equal(m[(size_t)(q.size - 1) * (size_t)q.size +
		    (size_t)i], 0);
		assert_int_equal(m[(size_t)i * (size_t)q.size], 0);
		assert_int_equal(m[(size_t)i * (size_t)q.size +
		    (size_t)(q.size - 1)], 0);
	}
	text = zbar(m, q.size);
	assert_string_equal(text, LINK);
	free(text);
	free(m);
	ui_qr_release(&q);
}

static void
test_ui_qr_make__refuses_empty_and_oversized_text(void **state)
{
	struct ui_qr	 q = { 0, NULL };
	char		*big = xmalloc(4000);

	(void)state;
	memset(big, 'x', 3999);
	big[3999] = '\0';
	assert_int_equal(ui_qr_make("", &q), -EINVAL);
	assert_int_equal(ui_qr_make(big, &q), -EINVAL);
	assert_null(q.dark);
	free(big);
}

int
main(void)
{
	static const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(test_ui_qr_rows__read_back_and_decoded__give_the_link),
		cmocka_unit_test(test_ui_qr_make__refuses_empty_and_oversized_text),
	};

	return cmocka_run_group_tests_name("ui_qr", tests, NULL, NULL);
}
