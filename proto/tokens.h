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
#define WA_TOKENS_DICT_TAG	0xEC	/* tag byte of dictionary 0 */
#define WA_TOKENS_MAX_LEN	48	/* bytes in the longest token */
#define WA_TOKENS_HASH_SIZE	4096	/* slots in wa_tokens_hash, 2^n */

struct wa_token {
	const char	*s;	/* NUL-terminated printable ASCII */
	uint8_t		 len;	/* strlen(s) */
};

extern const struct wa_token	wa_tokens_single[WA_TOKENS_SINGLE];
extern const struct wa_token	wa_tokens_double[WA_TOKENS_DICTS]
				    [WA_TOKENS_PER_DICT];

/*
 * Every token's wire code, at the slot of its hash with linear probing:
 * < 0x100 a single byte; else the dictionary tag byte (0xEC + K) in the
 * high byte and the index in the low byte.  0 (the code of the empty
 * token, which is never looked up) marks a free slot, where a search ends.
 */
extern const uint16_t		wa_tokens_hash[WA_TOKENS_HASH_SIZE];

/*
 * The home slot of s[0..len) in wa_tokens_hash: h = len, then h = h * 31 +
 * byte over the first two and the last two bytes (every byte when len <=
 * 4), modulo WA_TOKENS_HASH_SIZE.  Five bytes tell the tokens apart about
 * as well as all of them do, and a hash of any string costs the same.
 * tools/gen-tokens.sh computes the same in awk; change both or neither.
 */
static inline size_t
wa_tokens_hash_of(const char *s, size_t len)
{
	const uint8_t	*u = (const uint8_t *)s;
	uint32_t	 h = (uint32_t)len;
	size_t		 i;

	if (len <= 4) {
		for (i = 0; i < len; i++)
			h = h * 31 + u[i];
	} else
		h = ((((h * 31 + u[0]) * 31 + u[1]) * 31 + u[len - 2]) * 31 +
		    u[len - 1]);
	return h & (WA_TOKENS_HASH_SIZE - 1);
}

/* The token of a code from wa_tokens_hash (not 0). */
static inline const struct wa_token *
wa_token_of_code(uint16_t code)
{
	if (code < 0x100)
		return &wa_tokens_single[code];
	return &wa_tokens_double[(code >> 8) - WA_TOKENS_DICT_TAG]
	    [code & 0xFF];
}

#endif
