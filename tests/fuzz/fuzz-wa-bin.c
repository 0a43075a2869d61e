/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-bin.c -- fuzz target for the binary node decoder.
 * Contract: any input either decodes or returns an error code; no crash,
 * no leak, no read outside the input.  A tree that decodes is printed and
 * encoded again, and what the encoder writes must decode: the encoder may
 * refuse a tree (an error code) but never produce bytes its own decoder
 * rejects.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "base/err.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena	 a;
	struct buf	 out = BUF_INIT, text = BUF_INIT;
	struct wa_node	*n, *again;
	size_t		 off = 0;

	arena_init(&a, 0);
	if (wa_bin_unpack(data, size, &a, &n, &off) == 0) {
		if (off != 0)
			abort();	/* *err_off is written only on error */
		wa_bin_print(n, 32, &text);
		if (wa_bin_encode(n, &out) == 0 &&
		    wa_bin_decode(out.p, out.len, &a, &again, &off) != 0) {
			fprintf(stderr, "re-encoded tree does not decode\n");
			abort();
		}
	} else if (off > size + (16u << 20))
		abort();
	buf_release(&out);
	buf_release(&text);
	arena_release(&a);
	return 0;
}
