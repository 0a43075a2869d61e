/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-ev-wire.c -- fuzz target for the wire form of events
 * and commands (base/event-wire.h), the bytes a screen attached over a
 * socket would send and read.  Contract: any input either decodes, frame
 * after frame, or returns an error code; no crash, no leak, no read
 * outside the input, no allocation beyond a small multiple of it.  What
 * decodes encodes again, to the very bytes it came from.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/event-wire.h"
#include "base/event.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The frame p[0..used) decoded as given: encoded again, it is the same. */
static void
same_again(int rc, const uint8_t *p, size_t used, const struct buf *b)
{
	if (rc != 0 || b->len != used || memcmp(b->p, p, used) != 0) {
		fprintf(stderr, "a decoded frame does not encode back\n");
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf	 b = BUF_INIT;
	struct ev	*ev;
	struct cmd	*c;
	size_t		 off = 0, used;
	int		 rc;

	/* a stream of frames, events and commands mixed, until one fails */
	while (off < size) {
		b.len = 0;
		if ((rc = ev_wire_decode(data + off, size - off, &ev,
		    &used)) == 0) {
			same_again(ev_wire_encode(ev, &b), data + off, used,
			    &b);
			ev_free(ev);
		} else if ((rc = cmd_wire_decode(data + off, size - off, &c,
		    &used)) == 0) {
			same_again(cmd_wire_encode(c, &b), data + off, used,
			    &b);
			cmd_free(c);
		} else
			break;
		if (used < EV_WIRE_HEADER || used > size - off)
			abort();
		off += used;
	}
	buf_release(&b);
	return 0;
}
