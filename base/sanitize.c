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

/*
 * Code points that draw nothing and take no room (Unicode's default
 * ignorables that are format characters, and the fillers that render
 * blank): a name can hide them to look like another.  The joiners and
 * selectors that emoji and some scripts need are kept by keep_invisible().
 */
bool
wc_invisible_cp(uint32_t c)
{
	return c == 0x00AD || c == 0x034F || c == 0x115F || c == 0x1160 ||
	    c == 0x17B4 || c == 0x17B5 || c == 0x180E || c == 0x180F ||
	    (c >= 0x200B && c <= 0x200D) || (c >= 0x2060 && c <= 0x2064) ||
	    (c >= 0x206A && c <= 0x206F) || c == 0x3164 || c == 0xFEFF ||
	    c == 0xFFA0 || (c >= 0xFFF9 && c <= 0xFFFB) ||
	    (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xFE00 && c <= 0xFE0F) ||
	    (c >= 0xE0000 && c <= 0xE0FFF);
}

/* Pictographs an emoji sequence is made of (Extended_Pictographic, in
 * ranges), the skin tones and the keycap mark among them. */
static bool
emoji_cp(uint32_t c)
{
	return c == 0x00A9 || c == 0x00AE || c == 0x203C || c == 0x2049 ||
	    c == 0x2122 || c == 0x2139 || (c >= 0x2190 && c <= 0x21FF) ||
	    (c >= 0x2300 && c <= 0x23FF) || c == 0x24C2 ||
	    (c >= 0x25A0 && c <= 0x27BF) || (c >= 0x2900 && c <= 0x297F) ||
	    (c >= 0x2B00 && c <= 0x2BFF) || c == 0x3030 || c == 0x303D ||
	    c == 0x3297 || c == 0x3299 || c == 0x20E3 ||
	    (c >= 0x1F000 && c <= 0x1FAFF);
}

/* Letters of the scripts that use ZWJ and ZWNJ to choose a glyph
 * (Arabic and Syriac joining, the Brahmic half forms). */
static bool
joining_script_cp(uint32_t c)
{
	return (c >= 0x0600 && c <= 0x08FF) || (c >= 0x0900 && c <= 0x0DFF) ||
	    (c >= 0x0F00 && c <= 0x109F) || (c >= 0x1780 && c <= 0x17FF) ||
	    (c >= 0xA8E0 && c <= 0xA8FF) || (c >= 0xFB50 && c <= 0xFDFF) ||
	    (c >= 0xFE70 && c <= 0xFEFC);
}

/*
 * Whether the invisible code point c, after the last code point kept
 * (prev, 0 at the start) and before next (0 at the end), does work that
 * shows: a joiner inside an emoji sequence or between letters of a
 * joining script; an emoji or text presentation selector after a
 * pictograph or a keycap's digit; another variation selector after a
 * symbol or an ideograph; a tag character in a flag's tag sequence
 * (U+1F3F4 then tags, ended by U+E007F).
 */
static bool
keep_invisible(uint32_t c, uint32_t prev, uint32_t next)
{
	if (c == 0x200D)
		return (emoji_cp(prev) || prev == 0xFE0F) ? emoji_cp(next) :
		    joining_script_cp(prev) && joining_script_cp(next);
	if (c == 0x200C)
		return joining_script_cp(prev) && joining_script_cp(next);
	if (c == 0xFE0E || c == 0xFE0F)
		return emoji_cp(prev) || (prev >= '0' && prev <= '9') ||
		    prev == '#' || prev == '*';
	if (c >= 0xFE00 && c <= 0xFE0D)
		return prev >= 0x2000;
	if (c >= 0xE0100 && c <= 0xE01EF)
		return prev >= 0x3400;
	if (c >= 0xE0020 && c <= 0xE007F)
		return prev == 0x1F3F4 || (prev >= 0xE0020 && prev <= 0xE007E);
	return false;
}

/* The code point after p[0..len), 0 when none or not UTF-8. */
static uint32_t
next_cp(const unsigned char *p, size_t len)
{
	uint32_t	 c;

	if (len == 0 || wc_utf8_seq(p, len, &c) == 0)
		return 0;
	return c;
}

void
wc_sanitize(const char *in, size_t len, bool multiline, struct buf *out)
{
	const unsigned char	*p = (const unsigned char *)in;
	size_t			 i = 0, n;
	uint32_t		 c, prev = 0;

	buf_reserve(out, len + 1);
	while (i < len) {
		if ((n = wc_utf8_seq(p + i, len - i, &c)) == 0) {
			buf_append(out, REPLACEMENT, 3);
			prev = 0xFFFD;
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
		else if (wc_invisible_cp(c) && !keep_invisible(c, prev,
		    next_cp(p + i + n, len - i - n))) {
			i += n;		/* dropped: prev stays */
			continue;
		} else
			buf_append(out, p + i, n);
		prev = c;
		i += n;
	}
	buf_push(out, '\0');
}

bool
wc_blank_label(const char *s, size_t len)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 i = 0, n;
	uint32_t		 c;

	while (i < len) {
		if ((n = wc_utf8_seq(p + i, len - i, &c)) == 0)
			return false;
		if (!(c == ' ' || c == '\t' || c == 0x00A0 ||
		    (c >= 0x2000 && c <= 0x200A) || c == 0x202F ||
		    c == 0x205F || c == 0x3000 || c == 0x2800 ||
		    wc_invisible_cp(c)))
			return false;
		i += n;
	}
	return true;
}
