/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-frame.c -- fuzz target for the frame reader
 * (proto/frame.c).  Input: byte 0's low bit says whether the stream is a
 * client's (opening with the connection header) and the rest of it picks
 * the size cap (0: the default, otherwise that * 37); byte 1 seeds how the
 * rest is cut into chunks; the rest is the stream.  Contract: whatever the
 * stream and however it is cut, the reader yields exactly the frames a
 * plain whole-stream parse finds, then stops where that parse stops: at a
 * wrong connection header with WC_EPROTO, at an over-cap length with
 * WC_ETOOBIG, or needing more bytes with the unfinished frame pending.
 * Each chunk is copied into an allocation of its own size, so a read past
 * a chunk is caught by ASan.  No crash, no leak.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "proto/frame.h"
#include "base/xmalloc.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The reference: frame k of s[0..n) starts at *off; 1 found, 0 need more,
 * WC_ETOOBIG over the cap. */
static int
ref_next(const uint8_t *s, size_t n, size_t cap, size_t *off, size_t *len)
{
	size_t	 l;

	if (n - *off < WA_FRAME_HEADER_LEN)
		return 0;
	l = (size_t)s[*off] << 16 | (size_t)s[*off + 1] << 8 | s[*off + 2];
	if (l > cap)
		return WC_ETOOBIG;
	if (n - *off - WA_FRAME_HEADER_LEN < l)
		return 0;
	*len = l;
	return 1;
}

/* The connection header at the start of s[0..n): 1 whole, 0 a correct
 * start, WC_EPROTO wrong. */
static int
ref_conn(const uint8_t *s, size_t n)
{
	size_t	 i;

	for (i = 0; i < WA_FRAME_CONN_HEADER_LEN && i < n; i++)
		if (s[i] != (uint8_t)WA_FRAME_CONN_HEADER[i])
			return WC_EPROTO;
	return n >= WA_FRAME_CONN_HEADER_LEN;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wa_frame_reader	 r;
	const uint8_t		*s, *f;
	uint8_t			*chunk;
	size_t			 n, cap, at = 0, ref_off = 0, ref_len = 0;
	size_t			 len, c;
	uint32_t		 x;
	int			 rc, want, done = 0, client;

	if (size < 2)
		return 0;
	client = data[0] & 1;
	cap = data[0] >> 1 == 0 ? WA_FRAME_MAX_LEN :
	    (size_t)(data[0] >> 1) * 37;
	x = data[1] * 2654435761u + 1;
	s = data + 2;
	n = size - 2;

	wa_frame_reader_init(&r, data[0] >> 1 == 0 ? 0 : cap, client);
	while (!done) {
		/* Chunks of 0..40 bytes, sometimes the whole rest. */
		x = x * 1103515245u + 12345u;
		c = (x >> 16) % 8 == 0 ? n - at : (x >> 16) % 41;
		if (c > n - at)
			c = n - at;
		chunk = xmalloc(c);
		if (c > 0)
			memcpy(chunk, s + at, c);
		wa_frame_reader_feed(&r, chunk, c);
		at += c;
		while ((rc = wa_frame_reader_next(&r, &f, &len)) == 1) {
			if (client && ref_off == 0) {
				if (ref_conn(s, at) != 1)
					abort();
				ref_off = WA_FRAME_CONN_HEADER_LEN;
			}
			if (ref_next(s, at, cap, &ref_off, &ref_len) != 1 ||
			    len != ref_len || memcmp(f, s + ref_off +
			    WA_FRAME_HEADER_LEN, len) != 0)
				abort();
			ref_off += WA_FRAME_HEADER_LEN + len;
		}
		if (client && ref_off == 0) {
			want = ref_conn(s, at);
			if (want == WC_EPROTO) {
				if (rc != WC_EPROTO)
					abort();
				free(chunk);
				break;
			}
			if (want == 0) {
				if (rc != 0 || wa_frame_reader_pending(&r) != 0)
					abort();
				free(chunk);
				if (at == n)
					break;
				continue;
			}
			ref_off = WA_FRAME_CONN_HEADER_LEN;
		}
		want = ref_next(s, at, cap, &ref_off, &ref_len);
		if (rc == WC_ETOOBIG) {
			if (want != WC_ETOOBIG)
				abort();
			done = 1;
		} else if (rc != 0 || want == 1 || want == WC_ETOOBIG) {
			abort();	/* missed a whole frame or an error */
		} else if (wa_frame_reader_pending(&r) != at - ref_off)
			abort();
		free(chunk);
		if (at == n)
			done = 1;
	}
	wa_frame_reader_release(&r);
	return 0;
}
