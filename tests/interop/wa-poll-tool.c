/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/interop/wa-poll-tool.c -- wachat's poll vote crypto
 * (proto/poll.h) for tests/interop/poll-check.mjs, which checks it
 * against Baileys:
 *   wa-poll-tool enc SECRET ID CREATOR VOTER IV OPTION...
 *     prints the encPayload (hex) of a vote for the OPTIONs;
 *   wa-poll-tool dec SECRET ID CREATOR VOTER IV ENC OPTION...
 *     prints, one a line, the OPTIONs the vote ENC chose (by their
 *     SHA-256), or fails with the decryption's error.
 * SECRET, IV and ENC in hex.  Exit status 0, 1 on a failure, 2 on usage.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hex.h"
#include "proto/crypto.h"
#include "proto/poll.h"

/* Hex s into out (room for max): its length, or -1. */
static long
unhex(const char *s, uint8_t *out, size_t max)
{
	size_t	 n = strlen(s), i;
	int	 hi, lo;

	if (n % 2 != 0 || n / 2 > max)
		return -1;
	for (i = 0; i < n / 2; i++) {
		if ((hi = hex_digit(s[2 * i])) < 0 ||
		    (lo = hex_digit(s[2 * i + 1])) < 0)
			return -1;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return (long)(n / 2);
}

static int
enc(char **argv, int argc)
{
	uint8_t		 secret[WA_POLL_SECRET_MAX], iv[WA_POLL_IV_LEN];
	uint8_t		 h[WA_POLL_READ_MAX][WA_POLL_HASH_LEN];
	struct buf	 out = BUF_INIT;
	long		 sl;
	int		 i, n = argc - 7;
	size_t		 k;

	if ((sl = unhex(argv[2], secret, sizeof(secret))) <= 0 ||
	    unhex(argv[6], iv, sizeof(iv)) != WA_POLL_IV_LEN ||
	    n > WA_POLL_READ_MAX)
		return 2;
	for (i = 0; i < n; i++)
		wa_poll_option_hash(argv[7 + i], h[i]);
	if (wa_poll_vote_encrypt(secret, (size_t)sl, argv[3], argv[4],
	    argv[5], iv, (const uint8_t (*)[WA_POLL_HASH_LEN])h, (size_t)n,
	    &out) != 0)
		return 1;
	for (k = 0; k < out.len; k++)
		printf("%02x", out.p[k]);
	printf("\n");
	buf_release(&out);
	return 0;
}

static int
dec(char **argv, int argc)
{
	static uint8_t	 e[WA_POLL_ENC_MAX];
	uint8_t		 secret[WA_POLL_SECRET_MAX], iv[WA_POLL_IV_LEN];
	uint8_t		 h[WA_POLL_READ_MAX][WA_POLL_HASH_LEN], oh[32];
	long		 sl, el;
	size_t		 n, k;
	int		 i, rc;

	if ((sl = unhex(argv[2], secret, sizeof(secret))) <= 0 ||
	    unhex(argv[6], iv, sizeof(iv)) != WA_POLL_IV_LEN ||
	    (el = unhex(argv[7], e, sizeof(e))) < 0)
		return 2;
	if ((rc = wa_poll_vote_decrypt(secret, (size_t)sl, argv[3], argv[4],
	    argv[5], iv, sizeof(iv), e, (size_t)el, h, WA_POLL_READ_MAX,
	    &n)) != 0) {
		fprintf(stderr, "decrypt: %s\n", wc_strerror(rc));
		return 1;
	}
	for (i = 8; i < argc; i++) {
		wa_poll_option_hash(argv[i], oh);
		for (k = 0; k < n; k++)
			if (memcmp(oh, h[k], sizeof(oh)) == 0)
				printf("%s\n", argv[i]);
	}
	return 0;
}

int
main(int argc, char **argv)
{
	if (wa_crypto_init() != 0)
		return 1;
	if (argc >= 7 && strcmp(argv[1], "enc") == 0)
		return enc(argv, argc);
	if (argc >= 8 && strcmp(argv[1], "dec") == 0)
		return dec(argv, argc);
	fprintf(stderr, "usage: wa-poll-tool enc|dec SECRET ID CREATOR VOTER "
	    "IV [ENC] OPTION...\n");
	return 2;
}
