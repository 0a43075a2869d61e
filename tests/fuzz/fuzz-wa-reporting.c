/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-reporting.c -- fuzz target for the reporting
 * token's field walk (proto/reporting.c), which reads a serialized
 * Message we built but must never trust it.  Input: a Message.
 * Contract: wa_reporting_content() returns an error or the kept fields,
 * never reading outside the input, never crashing or leaking; what it
 * keeps is no longer than the input, and walking it again gives it back
 * unchanged (it is already filtered and sorted); wa_reporting_secret(),
 * wa_reporting_wanted() and wa_reporting_token() agree with it: a token
 * is made only for a wanted Message with a secret and a non-empty
 * content.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "proto/crypto.h"
#include "proto/reporting.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	 init;
	struct buf	 c = BUF_INIT, again = BUF_INIT;
	const uint8_t	*s;
	size_t		 slen;
	uint8_t		 tok[WA_REPORTING_TOKEN_LEN];
	int		 rc, rs, rt;

	if (!init && wa_crypto_init() != 0)
		abort();
	init = 1;
	rc = wa_reporting_content(data, size, &c);
	if (rc == 0) {
		if (c.len > size)
			abort();
		if (wa_reporting_content(c.p, c.len, &again) != 0 ||
		    again.len != c.len ||
		    (c.len > 0 && memcmp(again.p, c.p, c.len) != 0))
			abort();
	} else if (c.len != 0)
		abort();	/* out unchanged on error */
	rs = wa_reporting_secret(data, size, &s, &slen);
	if (rs == 1 && (slen == 0 || s < data || s + slen > data + size))
		abort();
	rt = wa_reporting_token(data, size, "3EB0AABBCCDDEEFF001122",
	    "1@lid", "2@lid", tok);
	if (rt == 1 && (rc != 0 || c.len == 0 || rs != 1 ||
	    !wa_reporting_wanted(data, size)))
		abort();
	buf_release(&c);
	buf_release(&again);
	return 0;
}
