/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/hex.c -- hexadecimal digits. */
#include "base/compat.h"

#include "base/hex.h"

int
hex_digit(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

void
hex_append(struct buf *out, const uint8_t *p, size_t len)
{
	static const char	 digits[] = "0123456789abcdef";
	size_t			 i;

	buf_reserve(out, 2 * len);
	for (i = 0; i < len; i++) {
		out->p[out->len++] = (uint8_t)digits[p[i] >> 4];
		out->p[out->len++] = (uint8_t)digits[p[i] & 15];
	}
}
