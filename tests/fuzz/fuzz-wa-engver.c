/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-engver.c -- fuzz target for the page of the version
 * look-up (proto/engver.c, protocol.md 3.3): wa_engver_parse() of the
 * whole input as the body of sw.js, capped as the look-up caps it
 * (WA_ENGVER_MAX_BODY), in its own allocation so that ASan sees a read
 * past the body.  The answer is checked against a slow reference that
 * follows the regex of [BL] and [RS], \\?"client_revision\\?":\s*(\d+)
 * with \s as ASCII blanks: the same first match, the same value, and
 * WC_ETOOBIG exactly when its digits exceed 32 bits.
 * Seeds: tests/fuzz/seeds-baileys.mjs (the sim's page, Baileys' cases).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "proto/engver.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

/* The regex at offset i: the end of its digits in *end, or 0. */
static int
match_at(const char *p, size_t len, size_t i, size_t *d0, size_t *end)
{
	static const char	 key[] = "\"client_revision";
	size_t			 k = sizeof(key) - 1, j;

	if (len - i < k || memcmp(p + i, key, k) != 0)
		return 0;
	j = i + k;
	if (j < len && p[j] == '\\')
		j++;
	if (len - j < 2 || p[j] != '"' || p[j + 1] != ':')
		return 0;
	for (j += 2; j < len && blank(p[j]); j++)
		;
	*d0 = j;
	while (j < len && p[j] >= '0' && p[j] <= '9')
		j++;
	*end = j;
	return j > *d0;
}

static int
reference(const char *p, size_t len, uint32_t *rev)
{
	size_t		 i, d0, end;
	uint64_t	 v = 0;

	for (i = 0; i < len; i++) {
		if (!match_at(p, len, i, &d0, &end))
			continue;
		for (; d0 < end && p[d0] == '0'; d0++)
			;
		if (end - d0 > 10)
			return WC_ETOOBIG;
		for (; d0 < end; d0++)
			v = v * 10 + (uint64_t)(p[d0] - '0');
		if (v > UINT32_MAX)
			return WC_ETOOBIG;
		*rev = (uint32_t)v;
		return 0;
	}
	return -ENOENT;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char		*p;
	uint32_t	 rev = 7, want = 7;
	int		 rc, ref;

	if (size > WA_ENGVER_MAX_BODY)
		return 0;
	if ((p = malloc(size + 1)) == NULL)
		abort();
	memcpy(p, data, size);
	rc = wa_engver_parse(p, size, &rev);
	ref = reference(p, size, &want);
	if (rc != ref || rev != want)
		abort();
	free(p);
	return 0;
}
