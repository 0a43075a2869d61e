/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/interop/wa-reporting-tool.c -- the C side of reporting-check.mjs:
 * reads lines "NAME MSGHEX ID FROM TO" (a serialized Message, the message
 * id, the sender's and the chat's JID) and prints for each "NAME TOKENHEX"
 * (wa_reporting_token() made one), "NAME none" (none is due) or "NAME
 * error RC".
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hex.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/reporting.h"

/* Decode the hex of s into b (stops at the first non-hex pair). */
static void
unhex(const char *s, struct buf *b)
{
	size_t	 i, n = strlen(s) / 2;
	int	 hi, lo;

	b->p = xmalloc(n + 1);
	b->len = b->cap = 0;
	for (i = 0; i < n; i++) {
		hi = hex_digit(s[2 * i]);
		lo = hex_digit(s[2 * i + 1]);
		if (hi < 0 || lo < 0)
			break;
		b->p[b->len++] = (uint8_t)(hi << 4 | lo);
	}
}

int
main(void)
{
	static char	 line[1 << 20];
	char		*f[5], *save = NULL;
	struct buf	 b, h = BUF_INIT;
	uint8_t		 tok[WA_REPORTING_TOKEN_LEN];
	size_t		 k;
	int		 rc;

	if (wa_crypto_init() != 0)
		return 1;
	while (fgets(line, sizeof(line), stdin) != NULL) {
		line[strcspn(line, "\r\n")] = '\0';
		for (k = 0; k < 5; k++)
			if ((f[k] = strtok_r(k == 0 ? line : NULL, " ",
			    &save)) == NULL)
				break;
		if (k < 5)
			continue;
		unhex(f[1], &b);
		rc = wa_reporting_token(b.p, b.len, f[2], f[3], f[4], tok);
		if (rc == 1) {
			h.len = 0;
			hex_append(&h, tok, sizeof(tok));
			printf("%s %.*s\n", f[0], (int)h.len, (const char *)h.p);
		} else if (rc == 0)
			printf("%s none\n", f[0]);
		else
			printf("%s error %d\n", f[0], rc);
		free(b.p);
	}
	buf_release(&h);
	return 0;
}
