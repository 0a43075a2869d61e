/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-ui-text.c -- text layout (ui/text.c) and the input line's
 * editor (ui/input.c): clusters are one unit of width 1 or 2, wrapping
 * never passes the width nor splits a cluster or a UTF-8 sequence, and the
 * editor moves and deletes by cluster; people in groups (ui/groups.c):
 * their names, colours and mentions.  Runs in C.UTF-8.
 */
#include "base/compat.h"

#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/event.h"
#include "ui/groups.h"
#include "ui/input.h"
#include "ui/text.h"

#define THUMBS_TONE	"\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"	/* 👍🏽 */
#define FAMILY		"\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9" \
			"\xe2\x80\x8d\xf0\x9f\x91\xa7"		/* 👨‍👩‍👧 */
#define HEART_VS16	"\xe2\x9d\xa4\xef\xb8\x8f"		/* ❤️ */
#define FLAG_PT		"\xf0\x9f\x87\xb5\xf0\x9f\x87\xb9"	/* 🇵🇹 */
#define CJK		"\xe4\xb8\xad"				/* 中 */
#define E_ACUTE		"e\xcc\x81"				/* é */

static int
setup(void **state)
{
	(void)state;
	return setlocale(LC_ALL, "C.UTF-8") != NULL ? 0 : -1;
}

static void
test_ui_text_next__takes_an_emoji_sequence_as_one_cluster_of_two(void **st)
{
	static const char *const seqs[] = { THUMBS_TONE, FAMILY, HEART_VS16,
	    FLAG_PT, CJK };
	size_t	 i;
	int	 w;

	static const int	 apart[] = { 4, 6, 2, 2, 2 };

	(void)st;
	ui_text_set_clusters(true);	/* a terminal that draws them whole */
	for (i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		assert_int_equal(ui_text_next(seqs[i], strlen(seqs[i]), &w),
		    strlen(seqs[i]));
		assert_int_equal(w, 2);
	}
	/* one that draws each character: one cluster still, as wide as its
	 * characters (the VS16 heart and the flag 2 all the same) */
	ui_text_set_clusters(false);
	for (i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++) {
		assert_int_equal(ui_text_next(seqs[i], strlen(seqs[i]), &w),
		    strlen(seqs[i]));
		assert_int_equal(w, apart[i]);
	}
}

static void
test_ui_text_next__keeps_combining_marks_with_their_base(void **st)
{
	int	 w;

	(void)st;
	assert_int_equal(ui_text_next(E_ACUTE "x", 4, &w), 3);
	assert_int_equal(w, 1);
	/* Two flags are two clusters, not one of four indicators. */
	assert_int_equal(ui_text_next(FLAG_PT FLAG_PT, 16, &w), 8);
}

static void
test_ui_text_width__counts_clusters_not_code_points(void **st)
{
	const char	*s = "a" FAMILY "b" CJK E_ACUTE THUMBS_TONE;

	(void)st;
	ui_text_set_clusters(true);
	assert_int_equal(ui_text_width(s, strlen(s)), 1 + 2 + 1 + 2 + 1 + 2);
	ui_text_set_clusters(false);
	assert_int_equal(ui_text_width(s, strlen(s)), 1 + 6 + 1 + 2 + 1 + 4);
}

static void
test_ui_text_decode__makes_bad_bytes_one_replacement_each(void **st)
{
	uint32_t	 cp;

	(void)st;
	assert_int_equal(ui_text_decode("\xc0\xaf", 2, &cp), 1);
	assert_int_equal(cp, 0xfffd);
	assert_int_equal(ui_text_decode("\xe4\xb8", 2, &cp), 1);
	assert_int_equal(cp, 0xfffd);
	assert_int_equal(ui_text_decode("\xed\xa0\x80", 3, &cp), 1);
	assert_int_equal(ui_text_decode(CJK, 3, &cp), 3);
	assert_int_equal(cp, 0x4e2d);
}

static void
test_ui_text_wrap__breaks_at_spaces_between_words(void **st)
{
	const char	*s = "hello there world";
	struct ui_line	 l[4];

	(void)st;
	assert_int_equal(ui_text_wrap(s, strlen(s), 11, l, 4), 2);
	assert_int_equal(l[0].len, 11);
	assert_memory_equal(s + l[0].off, "hello there", 11);
	assert_memory_equal(s + l[1].off, "world", 5);
	assert_int_equal(l[1].cols, 5);
	assert_int_equal(ui_text_wrap(s, strlen(s), 8, l, 4), 3);
	assert_memory_equal(s + l[1].off, "there", 5);
}

static void
test_ui_text_wrap__keeps_newlines_and_an_empty_last_row(void **st)
{
	struct ui_line	 l[4];

	(void)st;
	assert_int_equal(ui_text_wrap("a\n\nb\n", 5, 10, l, 4), 4);
	assert_int_equal(l[0].len, 1);
	assert_int_equal(l[1].len, 0);
	assert_int_equal(l[2].off, 3);
	assert_int_equal(l[3].len, 0);
	assert_int_equal(ui_text_wrap("", 0, 10, l, 4), 1);
}

static void
test_ui_text_wrap__never_splits_a_wide_cluster(void **st)
{
	/* Five 2-column clusters in 5 columns: two on a row, never a
	 * half. */
	const char	*s = CJK FAMILY CJK THUMBS_TONE FLAG_PT;
	struct ui_line	 l[8];
	int		 n, i;
	size_t		 total = 0;

	(void)st;
	ui_text_set_clusters(true);
	n = ui_text_wrap(s, strlen(s), 5, l, 8);
	assert_int_equal(n, 3);
	for (i = 0; i < n; i++) {
		assert_true(l[i].cols <= 5);
		assert_int_equal(ui_text_width(s + l[i].off, l[i].len),
		    l[i].cols);
		total += l[i].len;
	}
	assert_int_equal(total, strlen(s));
	assert_int_equal(l[1].off, strlen(CJK FAMILY));
	ui_text_set_clusters(false);
}

/* Random strings of mixed clusters at every width from 1 to 40, for both
 * kinds of terminal: no row wider than the width (but a lone cluster
 * wider than it), every row starts on a cluster, the rows cover the text
 * in order. */
static void
test_ui_text_wrap__random_text_fits_every_width(void **st)
{
	static const char *const parts[] = { "a", "bc", " ", "  ", CJK,
	    FAMILY, HEART_VS16, E_ACUTE, THUMBS_TONE, "\n", "word",
	    "\xef\xbf\xbd" };
	char		 s[512];
	struct ui_line	 l[512];
	size_t		 len, off;
	int		 round, width, n, i, w;

	(void)st;
	srand(7);
	for (round = 0; round < 300; round++) {
		ui_text_set_clusters(round % 2 == 0);
		len = 0;
		while (len < 400) {
			const char	*p = parts[rand() % 12];

			memcpy(s + len, p, strlen(p));
			len += strlen(p);
		}
		for (width = 1; width <= 40; width++) {
			n = ui_text_wrap(s, len, width, l, 512);
			assert_true(n <= 512);
			off = 0;
			for (i = 0; i < n; i++) {
				assert_true(l[i].off >= off);
				/* wider only when one cluster is */
				assert_true(l[i].cols <= width ||
				    ui_text_next(s + l[i].off, l[i].len, &w) ==
				    l[i].len);
				/* A row starts on a cluster boundary. */
				off = 0;
				while (off < l[i].off)
					off += ui_text_next(s + off,
					    len - off, &w);
				assert_int_equal(off, l[i].off);
				off = l[i].off + l[i].len;
			}
		}
	}
	ui_text_set_clusters(false);
}

static void
test_ui_text_fit__stops_before_a_cluster_that_does_not_fit(void **st)
{
	const char	*s = "ab" CJK "c";
	int		 used;

	(void)st;
	assert_int_equal(ui_text_fit(s, strlen(s), 3, &used), 2);
	assert_int_equal(used, 2);
	assert_int_equal(ui_text_fit(s, strlen(s), 4, &used), 5);
	assert_int_equal(used, 4);
}

static void
test_ui_input__moves_and_deletes_by_cluster(void **st)
{
	struct ui_input	 in;

	(void)st;
	ui_input_init(&in);
	assert_int_equal(ui_input_insert(&in, "a" FAMILY "b", 2 +
	    strlen(FAMILY)), 0);
	ui_input_left(&in);
	assert_int_equal(in.cur, 1 + strlen(FAMILY));
	ui_input_left(&in);
	assert_int_equal(in.cur, 1);
	ui_input_delete(&in);
	assert_string_equal(in.text, "ab");
	assert_int_equal(ui_input_insert(&in, THUMBS_TONE,
	    strlen(THUMBS_TONE)), 0);
	assert_string_equal(in.text, "a" THUMBS_TONE "b");
	ui_input_backspace(&in);
	assert_string_equal(in.text, "ab");
	assert_int_equal(in.cur, 1);
	ui_input_end(&in);
	assert_int_equal(in.cur, 2);
	ui_input_home(&in);
	assert_int_equal(in.cur, 0);
	ui_input_backspace(&in);	/* at the start: nothing */
	assert_string_equal(in.text, "ab");
	ui_input_release(&in);
}

static void
test_ui_input__encodes_typed_code_points_as_utf8(void **st)
{
	struct ui_input	 in;

	(void)st;
	ui_input_init(&in);
	assert_int_equal(ui_input_insert_cp(&in, 0x4e2d), 0);
	assert_int_equal(ui_input_insert_cp(&in, 0x1f44d), 0);
	assert_int_equal(ui_input_insert_cp(&in, 0xe9), 0);
	assert_string_equal(in.text, CJK "\xf0\x9f\x91\x8d\xc3\xa9");
	assert_int_equal(ui_input_insert_cp(&in, 0xd800), -EINVAL);
	assert_int_equal(ui_input_insert_cp(&in, 0x110000), -EINVAL);
	ui_input_release(&in);
}

static void
test_ui_input__home_end_and_kills_act_on_the_cursors_line(void **st)
{
	struct ui_input	 in;

	(void)st;
	ui_input_init(&in);
	assert_int_equal(ui_input_insert(&in, "one\ntwo\nthree", 13), 0);
	in.cur = 5;		/* "t|wo" */
	ui_input_home(&in);
	assert_int_equal(in.cur, 4);
	ui_input_end(&in);
	assert_int_equal(in.cur, 7);
	in.cur = 5;
	ui_input_kill_end(&in);
	assert_string_equal(in.text, "one\nt\nthree");
	ui_input_kill_start(&in);
	assert_string_equal(in.text, "one\n\nthree");
	assert_int_equal(in.cur, 4);
	ui_input_release(&in);
}

static void
test_ui_input__refuses_text_past_the_limit(void **st)
{
	struct ui_input	 in;
	char		*big = malloc(UI_INPUT_MAX);

	(void)st;
	assert_non_null(big);
	memset(big, 'x', UI_INPUT_MAX);
	ui_input_init(&in);
	assert_int_equal(ui_input_insert(&in, big, UI_INPUT_MAX), 0);
	assert_int_equal(ui_input_insert(&in, "y", 1), -E2BIG);
	assert_int_equal(in.len, UI_INPUT_MAX);
	ui_input_release(&in);
	free(big);
}

static void
test_ui_input_layout__puts_the_cursor_on_its_row_and_column(void **st)
{
	struct ui_input	 in;
	struct ui_line	 l[4];
	int		 row, col;

	(void)st;
	ui_input_init(&in);
	assert_int_equal(ui_input_insert(&in, "hello world\n" CJK "x", 16),
	    0);
	assert_int_equal(ui_input_layout(&in, 8, l, 4, &row, &col), 3);
	assert_int_equal(row, 2);
	assert_int_equal(col, 3);
	in.cur = 2;
	(void)ui_input_layout(&in, 8, l, 4, &row, &col);
	assert_int_equal(row, 0);
	assert_int_equal(col, 2);
	/* A full row with the cursor at its end: the next row's start. */
	ui_input_clear(&in);
	assert_int_equal(ui_input_insert(&in, "abcd", 4), 0);
	assert_int_equal(ui_input_layout(&in, 4, l, 4, &row, &col), 2);
	assert_int_equal(row, 1);
	assert_int_equal(col, 0);
	ui_input_release(&in);
}

/* More rows than shown: the rows given end with the cursor's, wherever
 * it is (seven lines, four rows shown). */
static void
test_ui_input_layout__gives_the_rows_around_the_cursor_past_max(void **st)
{
	static const char	 text[] = "a1\na2\na3\na4\na5\na6\na7";
	struct ui_input		 in;
	struct ui_line		 l[4];
	int			 row, col;

	(void)st;
	ui_input_init(&in);
	assert_int_equal(ui_input_insert(&in, text, sizeof(text) - 1), 0);
	assert_int_equal(ui_input_layout(&in, 8, l, 4, &row, &col), 7);
	assert_int_equal(row, 6);
	assert_int_equal(col, 2);
	assert_memory_equal(in.text + l[0].off, "a4", 2);
	assert_memory_equal(in.text + l[3].off, "a7", 2);
	/* the cursor on the second line: the first four */
	in.cur = 4;
	(void)ui_input_layout(&in, 8, l, 4, &row, &col);
	assert_int_equal(row, 1);
	assert_memory_equal(in.text + l[0].off, "a1", 2);
	assert_memory_equal(in.text + l[3].off, "a4", 2);
	ui_input_release(&in);
}


/* A group of two: Ann (a PN JID, named) and a LID without a name. */
static struct ui_group *
two_group(struct ui_groups *gs)
{
	struct ev_member m[2];
	struct ev	 ev;
	struct ui_group	*g;

	memset(&ev, 0, sizeof(ev));
	memset(m, 0, sizeof(m));
	ev.kind = EV_GROUP;
	ev.u.group.subject = (char *)"G";
	ev.u.group.jid = (char *)"1203630001@g.us";
	ev.u.group.description = (char *)"";
	ev.u.group.members = m;
	ev.u.group.nmembers = 2;
	m[0].jid = (char *)"4915550001@s.whatsapp.net";
	m[0].alt = (char *)"";
	m[0].name = (char *)"Ann Lee";
	m[1].jid = (char *)"20000000000001@lid";
	m[1].alt = (char *)"";
	m[1].name = (char *)"";
	g = ui_groups_apply(gs, &ev);
	assert_non_null(g);
	return g;
}

static void
test_ui_group_name__takes_the_given_then_member_then_number_then_lid(void **st)
{
	struct ui_groups gs;
	struct ui_group	*g;
	struct buf	 b = BUF_INIT;

	(void)st;
	ui_groups_init(&gs);
	g = two_group(&gs);
	ui_group_name(g, "4915550001:7@s.whatsapp.net", "Pushy\x1b", &b);
	assert_string_equal((char *)b.p, "Pushy\xef\xbf\xbd");
	b.len = 0;
	/* Any device of the member: her name. */
	ui_group_name(g, "4915550001:7@s.whatsapp.net", "", &b);
	assert_string_equal((char *)b.p, "Ann Lee");
	b.len = 0;
	ui_group_name(g, "4915550002@s.whatsapp.net", NULL, &b);
	assert_string_equal((char *)b.p, "+4915550002");
	b.len = 0;
	ui_group_name(g, "20000000000001@lid", NULL, &b);
	assert_string_equal((char *)b.p, "~\xe2\x80\xa6" "000001");
	b.len = 0;
	ui_group_name(NULL, "12@lid", NULL, &b);
	assert_string_equal((char *)b.p, "~12");
	buf_release(&b);
	ui_groups_release(&gs);
}

static void
test_ui_group_colour__is_one_per_person_whatever_the_device(void **st)
{
	unsigned	 seen[UI_GROUP_COLOURS] = { 0 };
	char		 jid[64];
	unsigned	 c, n = 0;
	int		 i;

	(void)st;
	assert_int_equal(ui_group_colour("4915550001@s.whatsapp.net"),
	    ui_group_colour("4915550001:12@s.whatsapp.net"));
	/* 64 people use more than half the palette, each within it. */
	for (i = 0; i < 64; i++) {
		snprintf(jid, sizeof(jid), "49155500%02d@s.whatsapp.net", i);
		c = ui_group_colour(jid);
		assert_true(c < UI_GROUP_COLOURS);
		n += seen[c]++ == 0;
	}
	assert_true(n > UI_GROUP_COLOURS / 2);
}

static void
test_ui_group_mentions__names_members_and_marks_them_from_the_start(void **st)
{
	struct ui_groups gs;
	struct ui_group	*g;
	struct buf	 b = BUF_INIT;
	struct ui_span	*sp;
	size_t		 n;

	(void)st;
	ui_groups_init(&gs);
	g = two_group(&gs);
	buf_append(&b, "xx", 2);	/* offsets count from the text */
	ui_group_mentions(g, "@4915550001: see @20000000000001, "
	    "@49155500012 @ @", &b, &sp, &n);
	assert_string_equal((char *)b.p + 2, "@Ann Lee: see "
	    "@20000000000001, @49155500012 @ @");
	assert_int_equal(n, 2);
	assert_int_equal(sp[0].off, 0);
	assert_int_equal(sp[0].len, strlen("@Ann Lee"));
	assert_int_equal(sp[1].off, strlen("@Ann Lee: see "));
	assert_int_equal(sp[1].len, strlen("@20000000000001"));
	free(sp);
	/* No group: as it is, no spans. */
	b.len = 0;
	ui_group_mentions(NULL, "@4915550001", &b, &sp, &n);
	assert_string_equal((char *)b.p, "@4915550001");
	assert_int_equal(n, 0);
	assert_null(sp);
	buf_release(&b);
	ui_groups_release(&gs);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ui_text_next__takes_an_emoji_sequence_as_one_cluster_of_two),
		cmocka_unit_test(test_ui_text_next__keeps_combining_marks_with_their_base),
		cmocka_unit_test(test_ui_text_width__counts_clusters_not_code_points),
		cmocka_unit_test(test_ui_text_decode__makes_bad_bytes_one_replacement_each),
		cmocka_unit_test(test_ui_text_wrap__breaks_at_spaces_between_words),
		cmocka_unit_test(test_ui_text_wrap__keeps_newlines_and_an_empty_last_row),
		cmocka_unit_test(test_ui_text_wrap__never_splits_a_wide_cluster),
		cmocka_unit_test(test_ui_text_wrap__random_text_fits_every_width),
		cmocka_unit_test(test_ui_text_fit__stops_before_a_cluster_that_does_not_fit),
		cmocka_unit_test(test_ui_input__moves_and_deletes_by_cluster),
		cmocka_unit_test(test_ui_input__encodes_typed_code_points_as_utf8),
		cmocka_unit_test(test_ui_input__home_end_and_kills_act_on_the_cursors_line),
		cmocka_unit_test(test_ui_input__refuses_text_past_the_limit),
		cmocka_unit_test(test_ui_input_layout__puts_the_cursor_on_its_row_and_column),
		cmocka_unit_test(test_ui_input_layout__gives_the_rows_around_the_cursor_past_max),
		cmocka_unit_test(test_ui_group_name__takes_the_given_then_member_then_number_then_lid),
		cmocka_unit_test(test_ui_group_colour__is_one_per_person_whatever_the_device),
		cmocka_unit_test(test_ui_group_mentions__names_members_and_marks_them_from_the_start),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
