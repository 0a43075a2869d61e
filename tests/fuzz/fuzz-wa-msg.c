/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-msg.c -- fuzz target for the Message parser
 * (wa_msg_parse, proto/msg.c), the decoder of every decrypted plaintext.
 * Input: the plaintext as a peer's device would send it, padding and all.
 * Contract: wa_msg_unpad() and wa_msg_parse() return an error or a
 * flattened message, never crash, never leak and never recurse without a
 * bound (wa_pb_check() runs first).  A message that parses and was not
 * itself sent by our own device parses to the same kind and text once
 * wrapped by wa_msg_wrap_dsm(), with the wrapper's destination, unless the
 * two added levels take it past the depth limit.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "proto/msg.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
same(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wa_msg_content	 c, w;
	struct buf		 b = BUF_INIT;
	size_t			 len;
	int			 rc;

	/* The padded form first, as the engine sees it (9.3). */
	if (wa_msg_unpad(data, size, &len) == 0) {
		if (len >= size)
			abort();
		if (wa_msg_parse(data, len, &c) == 0)
			wa_msg_content_release(&c);
	}
	if (wa_msg_parse(data, size, &c) != 0)
		return 0;
	if (c.kind == WA_MSG_UNSUPPORTED && c.unsupported_field == 0)
		abort();
	if (c.dsm_destination == NULL) {
		if (wa_msg_wrap_dsm(data, size, "1@lid", &b) != 0)
			abort();	/* it parsed, so it passes the check */
		rc = wa_msg_parse(b.p, b.len, &w);
		if (rc == 0) {
			if (w.kind != c.kind || !same(w.text, c.text) ||
			    !same(w.dsm_destination, "1@lid") ||
			    w.skdm_len != c.skdm_len)
				abort();
			wa_msg_content_release(&w);
		} else if (rc != WC_EDEPTH)
			abort();
		buf_release(&b);
	}
	wa_msg_content_release(&c);
	return 0;
}
