/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/tokens.h -- the binary node format's token tables (protocol.md
 * section 4.2, dictionary version 3), generated into proto/tokens.c by
 * tools/gen-tokens.sh.  Constant data; readable from any thread.
 */
#ifndef WA_TOKENS_H
#define WA_TOKENS_H

#include <stddef.h>
#include <stdint.h>

#define WA_TOKENS_SINGLE	236	/* byte 0 is LIST_EMPTY, 1..235 tokens */
#define WA_TOKENS_DICTS		4	/* tag bytes 0xEC..0xEF */
#define WA_TOKENS_PER_DICT	256
#define WA_TOKENS_INDEXED	(WA_TOKENS_SINGLE - 1 + \
				 WA_TOKENS_DICTS * WA_TOKENS_PER_DICT)

struct wa_token {
	const char	*s;	/* NUL-terminated printable ASCII */
	uint8_t		 len;	/* strlen(s) */
};

/* A token and its wire code: < 0x100 a single byte; else the dictionary
 * tag byte (0xEC + K) in the high byte and the index in the low byte. */
struct wa_token_index {
	const char	*s;
	uint8_t		 len;
	uint16_t	 code;
};

extern const struct wa_token		wa_tokens_single[WA_TOKENS_SINGLE];
extern const struct wa_token		wa_tokens_double[WA_TOKENS_DICTS]
					    [WA_TOKENS_PER_DICT];
/* Sorted by length, then by bytes (memcmp order). */
extern const struct wa_token_index	wa_tokens_index[WA_TOKENS_INDEXED];

#endif
