/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/sanitize.c -- inert text for the terminal (base/sanitize.h). */
#include "base/compat.h"

#include <stdint.h>

#include "base/buf.h"
#include "base/sanitize.h"

static const char	 REPLACEMENT[] = "\xEF\xBF\xBD";	/* U+FFFD */
static const char	 RETURN_SYM[] = "\xE2\x8F\x8E";	/* U+23CE */

size_t
wc_utf8_seq(const unsigned char *p, size_t len, uint32_t *cp)
{
	uint32_t	 c;
	size_t		 n, i;

	if (p[0] < 0x80) {
		*cp = p[0];
		return 1;
	}
	if (p[0] >= 0xC2 && p[0] <= 0xDF) {
		n = 2;
		c = p[0] & 0x1F;
	} else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
		n = 3;
		c = p[0] & 0x0F;
	} else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
		n = 4;
		c = p[0] & 0x07;
	} else
		return 0;
	if (len < n)
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (p[i] & 0x3F);
	}
	if ((n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 ||
	    c > 0x10FFFF)) || (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

bool
wc_unsafe_cp(uint32_t c)
{
	return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) ||
	    (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069) ||
	    c == 0x2028 || c == 0x2029 || c == 0x200E || c == 0x200F ||
	    c == 0x061C;
}

void
wc_sanitize(const char *in, size_t len, bool multiline, struct buf *out)
{
	const unsigned char	*p = (const unsigned char *)in;
	size_t			 i = 0, n;
	uint32_t		 c;

	buf_reserve(out, len + 1);
	while (i < len) {
		if ((n = wc_utf8_seq(p + i, len - i, &c)) == 0) {
			buf_append(out, REPLACEMENT, 3);
			i++;
			continue;
		}
		if (c == '\t')
			buf_push(out, ' ');
		else if (c == '\n' && multiline)
			buf_push(out, '\n');
		else if (c == '\n')
			buf_append(out, RETURN_SYM, 3);
		else if (wc_unsafe_cp(c))
			buf_append(out, REPLACEMENT, 3);
		else
			buf_append(out, p + i, n);
		i += n;
	}
	buf_push(out, '\0');
}
