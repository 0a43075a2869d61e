/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/test-base.c -- the base layer: arena, buf, error strings. */
#include "base/compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <stdlib.h>
#include <stdio.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "base/sanitize.h"

static void
test_arena_alloc__returns_aligned_disjoint_blocks__across_chunks(void **state)
{
	struct arena	 a;
	unsigned char	*p[100];
	size_t		 i;

	(void)state;
	arena_init(&a, 256);
	for (i = 0; i < 100; i++) {
		p[i] = arena_alloc(&a, 1 + i * 3);
		assert_int_equal((uintptr_t)p[i] % 16, 0);
		memset(p[i], (int)i, 1 + i * 3);
	}
	for (i = 0; i < 100; i++)
		for (size_t k = 0; k < 1 + i * 3; k++)
			assert_int_equal(p[i][k], (unsigned char)i);
	/* A block larger than a chunk gets a chunk of its own. */
	assert_non_null(arena_alloc(&a, 10000));
	arena_release(&a);
}

static void
test_arena_reset__folds_the_chunks_into_one__for_reuse(void **state)
{
	struct arena	 a;
	struct arena_chunk *kept;

	(void)state;
	arena_init(&a, 64);
	arena_alloc(&a, 10);
	arena_alloc(&a, 1000);
	arena_alloc(&a, 10);
	arena_reset(&a);
	kept = a.head;
	assert_non_null(kept);
	/* One chunk of the three's total (64 + 1008 + 64 bytes) holds the
	 * same blocks again: no new chunk. */
	assert_non_null(arena_alloc(&a, 10));
	assert_non_null(arena_alloc(&a, 1000));
	assert_non_null(arena_alloc(&a, 10));
	assert_ptr_equal(a.head, kept);
	arena_release(&a);
	assert_null(a.head);
}

static void
test_arena_alloc__adds_no_chunk__in_the_steady_state(void **state)
{
	struct arena	 a;
	struct arena_chunk *first = NULL;
	int		 round, i;

	(void)state;
	arena_init(&a, 0);
	/* 300 KiB a round in the default 16 KiB chunks, as a large tree. */
	for (round = 0; round < 4; round++) {
		arena_reset(&a);
		if (round == 1)
			first = a.head;
		for (i = 0; i < 3000; i++)
			assert_non_null(arena_alloc(&a, 100));
		/* A new chunk would be the head: from the second round on,
		 * the folded one holds every block. */
		if (round >= 1)
			assert_ptr_equal(a.head, first);
	}
	arena_release(&a);
}

static void
test_arena_alloc__returns_a_block__of_length_0(void **state)
{
	struct arena	 a;
	unsigned char	*p, *q;

	(void)state;
	arena_init(&a, 32);
	p = arena_alloc(&a, 0);
	assert_non_null(p);
	q = arena_alloc(&a, 32);	/* exactly a chunk */
	assert_non_null(q);
	q[0] = q[31] = 1;
	assert_non_null(arena_alloc(&a, 0));
	arena_release(&a);
}

static void
test_buf_append__grows_and_keeps_the_bytes(void **state)
{
	struct buf	 b = BUF_INIT;
	size_t		 i;

	(void)state;
	for (i = 0; i < 10000; i++)
		buf_push(&b, (uint8_t)i);
	buf_append(&b, "xyz", 3);
	buf_append(&b, NULL, 0);
	assert_int_equal(b.len, 10003);
	assert_true(b.cap >= b.len);
	for (i = 0; i < 10000; i++)
		assert_int_equal(b.p[i], (uint8_t)i);
	assert_memory_equal(b.p + 10000, "xyz", 3);
	buf_release(&b);
	assert_null(b.p);
	assert_int_equal(b.len, 0);
}

static void
test_wc_strerror__names_every_code(void **state)
{
	(void)state;
	assert_string_equal(wc_strerror(WC_EDEPTH), "nesting deeper than the limit");
	assert_string_equal(wc_strerror(WC_ETRAILING), "bytes left after the node");
	assert_string_equal(wc_strerror(0), "success");
	assert_string_equal(wc_strerror(-2), "No such file or directory");
	assert_string_equal(wc_strerror(-1005), "libsignal error");
	assert_string_equal(wc_strerror(-20000), "unknown error");
	for (int e = WC_EPROTO; e <= WC_ETRAILING; e++)
		assert_string_not_equal(wc_strerror(e), "unknown error");
}

/* wc_sanitize(in) as a string (single line unless multiline). */
static char *
san(const char *in, size_t len, bool multiline, struct buf *b)
{
	b->len = 0;
	wc_sanitize(in, len, multiline, b);
	assert_int_equal(b->p[b->len - 1], '\0');
	return (char *)b->p;
}

static void
test_wc_sanitize__makes_escapes_controls_and_overrides_inert(void **state)
{
	struct buf	 b = BUF_INIT;
	static const char clear[] = "a\x1b[2Jb";
	static const char osc52[] = "\x1b]52;c;aGVsbG8=\x07x";
	static const char c1[] = "\xc2\x9b" "31m";	/* U+009B CSI */

	(void)state;
	/* ESC and BEL become U+FFFD: no sequence can start. */
	assert_string_equal(san(clear, sizeof(clear) - 1, false, &b),
	    "a\xEF\xBF\xBD[2Jb");
	assert_null(strchr(san(osc52, sizeof(osc52) - 1, false, &b), 0x1b));
	assert_null(strchr((char *)b.p, 0x07));
	/* the 8-bit CSI too */
	assert_string_equal(san(c1, sizeof(c1) - 1, false, &b),
	    "\xEF\xBF\xBD" "31m");
	/* CR cannot return to the start of the line to overwrite it */
	assert_string_equal(san("ok\revil", 7, false, &b),
	    "ok\xEF\xBF\xBD" "evil");
	/* U+202E right-to-left override and U+2066 isolate */
	assert_string_equal(san("\xe2\x80\xae" "gnp.exe", 10, false, &b),
	    "\xEF\xBF\xBD" "gnp.exe");
	assert_string_equal(san("\xe2\x81\xa6x", 4, false, &b),
	    "\xEF\xBF\xBD" "x");
	/* the right-to-left mark and the Arabic letter mark */
	assert_string_equal(san("a\xe2\x80\x8f\xd8\x9c" "b", 7, false, &b),
	    "a\xEF\xBF\xBD\xEF\xBF\xBD" "b");
	/* invalid UTF-8: an overlong slash, a lone continuation, a cut-short
	 * sequence, a surrogate */
	assert_string_equal(san("\xc0\xaf", 2, false, &b),
	    "\xEF\xBF\xBD\xEF\xBF\xBD");
	assert_string_equal(san("\x80", 1, false, &b), "\xEF\xBF\xBD");
	assert_string_equal(san("\xe2\x82", 2, false, &b),
	    "\xEF\xBF\xBD\xEF\xBF\xBD");
	assert_string_equal(san("\xed\xa0\x80", 3, false, &b),
	    "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
	/* a NUL inside the text */
	assert_string_equal(san("a\0b", 3, false, &b), "a\xEF\xBF\xBD" "b");
	buf_release(&b);
}

static void
test_wc_sanitize__keeps_text_emoji_and_newlines_as_asked(void **state)
{
	struct buf	 b = BUF_INIT;
	/* emoji with a zero-width joiner and a skin tone, CJK, Arabic */
	static const char txt[] = "hi \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f"
	    "\x92\xbb \xe4\xbd\xa0\xe5\xa5\xbd \xd9\x85\xd8\xb1\xd8\xad\xd8"
	    "\xa8\xd8\xa7";

	(void)state;
	assert_string_equal(san(txt, sizeof(txt) - 1, false, &b), txt);
	assert_string_equal(san("a\nb", 3, true, &b), "a\nb");
	assert_string_equal(san("a\nb", 3, false, &b), "a\xE2\x8F\x8E" "b");
	assert_string_equal(san("a\tb", 3, false, &b), "a b");
	assert_string_equal(san("", 0, false, &b), "");
	buf_release(&b);
}

static void
test_wc_sanitize__drops_invisible_characters__keeping_emoji_joiners(void **state)
{
	struct buf	 b = BUF_INIT;
	/* family: woman ZWJ woman ZWJ girl; heart with VS16 in a kiss */
	static const char family[] = "\xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f"
	    "\x91\xa9\xe2\x80\x8d\xf0\x9f\x91\xa7";
	static const char kiss[] = "\xf0\x9f\x91\xa9\xe2\x80\x8d\xe2\x9d"
	    "\xa4\xef\xb8\x8f\xe2\x80\x8d\xf0\x9f\x92\x8b";
	/* England: black flag, tags g b e n g, cancel tag */
	static const char england[] = "\xf0\x9f\x8f\xb4\xf3\xa0\x81\xa7"
	    "\xf3\xa0\x81\xa2\xf3\xa0\x81\xa5\xf3\xa0\x81\xae\xf3\xa0"
	    "\x81\xa7\xf3\xa0\x81\xbf";
	/* keycap one: 1 VS16 U+20E3 */
	static const char keycap[] = "1\xef\xb8\x8f\xe2\x83\xa3";
	/* Persian "mi-khaham" with ZWNJ between two Arabic letters */
	static const char fa[] = "\xd9\x85\xdb\x8c\xe2\x80\x8c\xd8\xae";

	(void)state;
	/* U+200B, U+FEFF, U+2060, U+00AD inside a name: gone */
	assert_string_equal(san("Al\xe2\x80\x8bice\xef\xbb\xbf", 11, false,
	    &b), "Alice");
	assert_string_equal(san("Bo\xe2\x81\xa0" "b\xc2\xad", 8, true, &b),
	    "Bob");
	/* ZWJ and ZWNJ between Latin letters, and at the ends: gone */
	assert_string_equal(san("\xe2\x80\x8d" "A\xe2\x80\x8d" "B\xe2\x80"
	    "\x8c" "C\xe2\x80\x8d", 15, false, &b), "ABC");
	/* a Hangul filler alone (a blank name), tags outside a flag, a
	 * variation selector after a Latin letter */
	assert_string_equal(san("\xe3\x85\xa4", 3, false, &b), "");
	assert_string_equal(san("x\xf3\xa0\x81\xa7y", 6, false, &b), "xy");
	assert_string_equal(san("a\xef\xb8\x8f", 4, false, &b), "a");
	/* what emoji and joining scripts need stays, byte for byte */
	assert_string_equal(san(family, sizeof(family) - 1, false, &b), family);
	assert_string_equal(san(kiss, sizeof(kiss) - 1, false, &b), kiss);
	assert_string_equal(san(england, sizeof(england) - 1, false, &b),
	    england);
	assert_string_equal(san(keycap, sizeof(keycap) - 1, false, &b), keycap);
	assert_string_equal(san(fa, sizeof(fa) - 1, false, &b), fa);
	buf_release(&b);
}

static void
test_wc_blank_label__is_true_for_names_that_show_nothing(void **state)
{
	(void)state;
	assert_true(wc_blank_label("", 0));
	assert_true(wc_blank_label("\xe2\x80\x8b\xe2\x80\x8b", 6));
	assert_true(wc_blank_label(" \xe3\x85\xa4\xe2\xa0\x80\xc2\xa0", 9));
	assert_false(wc_blank_label("\xe2\x80\x8b" "a", 4));
	assert_false(wc_blank_label("\xff", 1));
	assert_false(wc_has_label(NULL));
	assert_false(wc_has_label("\xef\xbb\xbf"));
	assert_true(wc_has_label("Ana"));
}

static void
test_log_write__keeps_network_text_inert_in_the_log(void **state)
{
	char	 path[] = "/tmp/wachat-test-log.XXXXXX", got[512];
	FILE	*f;
	size_t	 n;
	int	 fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(log_open(path, LOG_INFO), 0);
	log_write(LOG_WARN, "test", "here", "message %s: %s", "ID\x1b[2J",
	    "two\nlines\r\xe2\x80\xae");
	log_close();
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(got, 1, sizeof(got) - 1, f);
	fclose(f);
	unlink(path);
	got[n] = '\0';
	assert_null(strchr(got, 0x1b));
	assert_null(strchr(got, '\r'));
	assert_null(strstr(got, "\xe2\x80\xae"));
	/* one line, ending in its newline */
	assert_ptr_equal(strchr(got, '\n'), got + n - 1);
	assert_non_null(strstr(got, "WARN test here: message ID"));
}

int
main(void)
{
	static const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(test_arena_alloc__returns_aligned_disjoint_blocks__across_chunks),
		cmocka_unit_test(test_arena_reset__folds_the_chunks_into_one__for_reuse),
		cmocka_unit_test(test_arena_alloc__adds_no_chunk__in_the_steady_state),
		cmocka_unit_test(test_arena_alloc__returns_a_block__of_length_0),
		cmocka_unit_test(test_buf_append__grows_and_keeps_the_bytes),
		cmocka_unit_test(test_wc_strerror__names_every_code),
		cmocka_unit_test(test_wc_sanitize__makes_escapes_controls_and_overrides_inert),
		cmocka_unit_test(test_wc_sanitize__keeps_text_emoji_and_newlines_as_asked),
		cmocka_unit_test(test_wc_sanitize__drops_invisible_characters__keeping_emoji_joiners),
		cmocka_unit_test(test_wc_blank_label__is_true_for_names_that_show_nothing),
		cmocka_unit_test(test_log_write__keeps_network_text_inert_in_the_log),
	};

	return cmocka_run_group_tests_name("base", tests, NULL, NULL);
}
