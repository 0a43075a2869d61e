/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-frame.c -- the WhatsApp frame layer (proto/frame.c): the
 * reader at every split point of a multi-frame stream, its size cap, and
 * the writer's connection header.
 */
#include "base/compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "proto/frame.h"
#include "base/xmalloc.h"

/* Payload sizes of the test stream: empty, tiny, and across 0xff. */
static const size_t	 sizes[] = { 0, 1, 2, 3, 0, 5, 255, 256, 40 };
#define NFRAMES		(sizeof(sizes) / sizeof(sizes[0]))

/* Payload byte j of frame i. */
static uint8_t
pbyte(size_t i, size_t j)
{
	return (uint8_t)(i * 31 + j * 7 + 1);
}

/* The test stream: the frames of sizes[], written by a server writer. */
static void
stream(struct buf *out)
{
	struct wa_frame_writer	 w;
	uint8_t			 p[300];
	size_t			 i, j;

	wa_frame_writer_init(&w, false);
	for (i = 0; i < NFRAMES; i++) {
		for (j = 0; j < sizes[i]; j++)
			p[j] = pbyte(i, j);
		assert_int_equal(wa_frame_write(&w, p, sizes[i], out), 0);
	}
}

/* Drain r; check each frame against the stream's, counting in *got. */
static void
drain(struct wa_frame_reader *r, size_t *got)
{
	const uint8_t	*f;
	size_t		 len, j;
	int		 rc;

	while ((rc = wa_frame_reader_next(r, &f, &len)) == 1) {
		assert_true(*got < NFRAMES);
		assert_int_equal(len, sizes[*got]);
		for (j = 0; j < len; j++)
			assert_int_equal(f[j], pbyte(*got, j));
		(*got)++;
	}
	assert_int_equal(rc, 0);
}

/* Feed s cut at the given points (ascending offsets, n of them). */
static void
feed_cut(const struct buf *s, const size_t *cuts, size_t n)
{
	struct wa_frame_reader	 r;
	size_t			 got = 0, at = 0, i, end;

	wa_frame_reader_init(&r, 0, false);
	for (i = 0; i <= n; i++) {
		end = i < n ? cuts[i] : s->len;
		wa_frame_reader_feed(&r, s->p + at, end - at);
		drain(&r, &got);
		at = end;
	}
	assert_int_equal(got, NFRAMES);
	assert_int_equal(wa_frame_reader_pending(&r), 0);
	wa_frame_reader_release(&r);
}

static void
test_wa_frame_reader__yields_every_frame__at_every_split_point(void **state)
{
	struct buf	 s = BUF_INIT;
	size_t		 cut[2];

	(void)state;
	stream(&s);
	feed_cut(&s, NULL, 0);
	for (cut[0] = 0; cut[0] <= s.len; cut[0]++)
		feed_cut(&s, cut, 1);
	buf_release(&s);
}

static void
test_wa_frame_reader__yields_every_frame__cut_twice_within_8_bytes(
    void **state)
{
	struct buf	 s = BUF_INIT;
	size_t		 cut[2];

	(void)state;
	stream(&s);
	/* Every way to cut a 3-byte length in three, wherever it lies. */
	for (cut[0] = 0; cut[0] <= s.len; cut[0] += 1)
		for (cut[1] = cut[0]; cut[1] <= s.len && cut[1] < cut[0] + 8;
		    cut[1]++)
			feed_cut(&s, cut, 2);
	buf_release(&s);
}

static void
test_wa_frame_reader__yields_every_frame__fed_one_byte_at_a_time(
    void **state)
{
	struct buf		 s = BUF_INIT;
	struct wa_frame_reader	 r;
	size_t			 got = 0, i;

	(void)state;
	stream(&s);
	wa_frame_reader_init(&r, 0, false);
	for (i = 0; i < s.len; i++) {
		wa_frame_reader_feed(&r, s.p + i, 1);
		drain(&r, &got);
	}
	/* Empty chunks change nothing. */
	wa_frame_reader_feed(&r, NULL, 0);
	drain(&r, &got);
	assert_int_equal(got, NFRAMES);
	wa_frame_reader_release(&r);
	buf_release(&s);
}

static void
test_wa_frame_reader__points_into_the_chunk__when_a_frame_lies_whole_in_it(
    void **state)
{
	static const uint8_t	 two[] = { 0, 0, 2, 'h', 'i', 0, 0, 1, '!' };
	struct wa_frame_reader	 r;
	const uint8_t		*f;
	size_t			 len;

	(void)state;
	wa_frame_reader_init(&r, 0, false);
	wa_frame_reader_feed(&r, two, sizeof(two));
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), 1);
	assert_ptr_equal(f, two + 3);
	assert_int_equal(len, 2);
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), 1);
	assert_ptr_equal(f, two + 8);
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), 0);
	wa_frame_reader_release(&r);
}

static void
test_wa_frame_reader__carries_a_large_frame__across_many_chunks(
    void **state)
{
	struct wa_frame_writer	 w;
	struct wa_frame_reader	 r;
	struct buf		 s = BUF_INIT;
	const uint8_t		*f;
	uint8_t			*p;
	size_t			 n = 70000, len, i, at, step;
	int			 rc, frames = 0;

	(void)state;
	p = xmalloc(n);
	for (i = 0; i < n; i++)
		p[i] = (uint8_t)(i % 251);
	wa_frame_writer_init(&w, false);
	assert_int_equal(wa_frame_write(&w, p, n, &s), 0);
	assert_int_equal(wa_frame_write(&w, p, 10, &s), 0);
	wa_frame_reader_init(&r, 0, false);
	for (at = 0, step = 1; at < s.len; at += step, step = step * 3 + 1) {
		if (step > s.len - at)
			step = s.len - at;
		wa_frame_reader_feed(&r, s.p + at, step);
		while ((rc = wa_frame_reader_next(&r, &f, &len)) == 1) {
			assert_int_equal(len, frames == 0 ? n : 10);
			assert_memory_equal(f, p, len);
			frames++;
		}
		assert_int_equal(rc, 0);
	}
	assert_int_equal(frames, 2);
	wa_frame_reader_release(&r);
	buf_release(&s);
	free(p);
}

static void
test_wa_frame_reader__refuses_a_length_over_the_cap__for_good(void **state)
{
	static const uint8_t	 big[] = { 0x00, 0x03, 0xe9, 'x' }; /* 1001 */
	static const uint8_t	 ok[] = { 0x00, 0x03, 0xe8 };	/* 1000 */
	static const uint8_t	 max[] = { 0xff, 0xff, 0xff };
	struct wa_frame_reader	 r;
	const uint8_t		*f = NULL;
	size_t			 len = 99;

	(void)state;
	wa_frame_reader_init(&r, 1000, false);
	wa_frame_reader_feed(&r, ok, sizeof(ok));
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), 0);
	wa_frame_reader_release(&r);

	wa_frame_reader_init(&r, 1000, false);
	wa_frame_reader_feed(&r, big, sizeof(big));
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), WC_ETOOBIG);
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), WC_ETOOBIG);
	wa_frame_reader_feed(&r, ok, sizeof(ok));
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), WC_ETOOBIG);
	assert_null(f);
	assert_int_equal(len, 99);
	wa_frame_reader_release(&r);

	/* Split inside the length: caught once the length is whole. */
	wa_frame_reader_init(&r, 1000, false);
	wa_frame_reader_feed(&r, big, 2);
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), 0);
	wa_frame_reader_feed(&r, big + 2, 2);
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), WC_ETOOBIG);
	wa_frame_reader_release(&r);

	/* The default cap is the largest 24-bit length, 16 MiB - 1. */
	wa_frame_reader_init(&r, 0, false);
	assert_int_equal(r.max_len, WA_FRAME_MAX_LEN);
	wa_frame_reader_feed(&r, max, sizeof(max));
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), 0);
	assert_int_equal(wa_frame_reader_pending(&r), 3);
	wa_frame_reader_release(&r);
	wa_frame_reader_init(&r, 1u << 30, false);
	assert_int_equal(r.max_len, WA_FRAME_MAX_LEN);
	wa_frame_reader_release(&r);
}

static void
test_wa_frame_reader__skips_a_clients_connection_header__however_cut(
    void **state)
{
	struct wa_frame_writer	 w;
	struct wa_frame_reader	 r;
	struct buf		 s = BUF_INIT;
	const uint8_t		*f;
	size_t			 len, cut, i;
	int			 n;

	(void)state;
	wa_frame_writer_init(&w, true);
	assert_int_equal(wa_frame_write(&w, (const uint8_t *)"one", 3, &s), 0);
	assert_int_equal(wa_frame_write(&w, (const uint8_t *)"two", 3, &s), 0);
	for (cut = 0; cut <= s.len; cut++) {
		wa_frame_reader_init(&r, 0, true);
		wa_frame_reader_feed(&r, s.p, cut);
		n = 0;
		while (wa_frame_reader_next(&r, &f, &len) == 1)
			assert_memory_equal(f, n++ == 0 ? "one" : "two", 3);
		wa_frame_reader_feed(&r, s.p + cut, s.len - cut);
		while (wa_frame_reader_next(&r, &f, &len) == 1)
			assert_memory_equal(f, n++ == 0 ? "one" : "two", 3);
		assert_int_equal(n, 2);
		wa_frame_reader_release(&r);
	}
	/* Any other first bytes are refused, for good. */
	for (i = 0; i < WA_FRAME_CONN_HEADER_LEN; i++) {
		s.p[i] ^= 0x20;
		wa_frame_reader_init(&r, 0, true);
		wa_frame_reader_feed(&r, s.p, s.len);
		assert_int_equal(wa_frame_reader_next(&r, &f, &len), WC_EPROTO);
		assert_int_equal(wa_frame_reader_next(&r, &f, &len), WC_EPROTO);
		wa_frame_reader_release(&r);
		s.p[i] ^= 0x20;
	}
	/* A reader for the server's stream takes the header as a length. */
	wa_frame_reader_init(&r, 1000, false);
	wa_frame_reader_feed(&r, s.p, s.len);
	assert_int_equal(wa_frame_reader_next(&r, &f, &len), WC_ETOOBIG);
	wa_frame_reader_release(&r);
	buf_release(&s);
}

static void
test_wa_frame_write__puts_the_connection_header__before_the_first_frame_only(
    void **state)
{
	static const uint8_t	 want[] = {
		0x57, 0x41, 0x06, 0x03, 0x00, 0x00, 0x02, 'a', 'b',
		0x00, 0x00, 0x01, 'c',
	};
	struct wa_frame_writer	 w;
	struct buf		 out = BUF_INIT;

	(void)state;
	wa_frame_writer_init(&w, true);
	assert_int_equal(wa_frame_write(&w, (const uint8_t *)"ab", 2, &out), 0);
	assert_int_equal(wa_frame_write(&w, (const uint8_t *)"c", 1, &out), 0);
	assert_int_equal(out.len, sizeof(want));
	assert_memory_equal(out.p, want, sizeof(want));
	/* The server's writer never writes it. */
	out.len = 0;
	wa_frame_writer_init(&w, false);
	assert_int_equal(wa_frame_write(&w, (const uint8_t *)"ab", 2, &out), 0);
	assert_int_equal(out.len, 5);
	assert_memory_equal(out.p, want + 4, 5);
	buf_release(&out);
}

static void
test_wa_frame_write__refuses_a_frame_over_16_mib__leaving_out(void **state)
{
	struct wa_frame_writer	 w;
	struct buf		 out = BUF_INIT;
	uint8_t			*p = NULL;

	(void)state;
	wa_frame_writer_init(&w, true);
	assert_int_equal(wa_frame_write(&w, (const uint8_t *)"x",
	    WA_FRAME_MAX_LEN + 1, &out), WC_ETOOBIG);
	assert_int_equal(wa_frame_reserve(&w, 1u << 24, &out, &p), WC_ETOOBIG);
	assert_null(p);
	assert_int_equal(out.len, 0);
	/* The refused frame did not use up the connection header. */
	assert_int_equal(wa_frame_write(&w, (const uint8_t *)"x", 1, &out), 0);
	assert_int_equal(out.len, 8);
	assert_memory_equal(out.p, "WA\x06\x03\x00\x00\x01x", 8);
	buf_release(&out);
}

static void
test_wa_frame_reserve__leaves_the_payload_to_fill__as_write_would(
    void **state)
{
	struct wa_frame_writer	 w1, w2;
	struct buf		 a = BUF_INIT, b = BUF_INIT;
	uint8_t			*p;

	(void)state;
	wa_frame_writer_init(&w1, true);
	wa_frame_writer_init(&w2, true);
	assert_int_equal(wa_frame_write(&w1, (const uint8_t *)"hello", 5, &a),
	    0);
	assert_int_equal(wa_frame_reserve(&w2, 5, &b, &p), 0);
	memcpy(p, "hello", 5);
	assert_int_equal(a.len, b.len);
	assert_memory_equal(a.p, b.p, a.len);
	/* A frame the largest length allows. */
	b.len = 0;
	assert_int_equal(wa_frame_reserve(&w2, WA_FRAME_MAX_LEN, &b, &p), 0);
	assert_int_equal(b.len, 3 + WA_FRAME_MAX_LEN);
	assert_memory_equal(b.p, "\xff\xff\xff", 3);
	buf_release(&a);
	buf_release(&b);
}

int
main(void)
{
	static const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(test_wa_frame_reader__yields_every_frame__at_every_split_point),
		cmocka_unit_test(test_wa_frame_reader__yields_every_frame__cut_twice_within_8_bytes),
		cmocka_unit_test(test_wa_frame_reader__yields_every_frame__fed_one_byte_at_a_time),
		cmocka_unit_test(test_wa_frame_reader__points_into_the_chunk__when_a_frame_lies_whole_in_it),
		cmocka_unit_test(test_wa_frame_reader__carries_a_large_frame__across_many_chunks),
		cmocka_unit_test(test_wa_frame_reader__refuses_a_length_over_the_cap__for_good),
		cmocka_unit_test(test_wa_frame_reader__skips_a_clients_connection_header__however_cut),
		cmocka_unit_test(test_wa_frame_write__puts_the_connection_header__before_the_first_frame_only),
		cmocka_unit_test(test_wa_frame_write__refuses_a_frame_over_16_mib__leaving_out),
		cmocka_unit_test(test_wa_frame_reserve__leaves_the_payload_to_fill__as_write_would),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
