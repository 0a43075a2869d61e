/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/sanitize.h -- the one sanitizer for text from the network (message
 * text, push names, reasons) before any output shows it: the screen, the
 * line output, the window title, the log (reliability.md: text from the
 * network never reaches the terminal raw).  Pure; any thread.
 */
#ifndef WC_SANITIZE_H
#define WC_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct buf;

/*
 * Append to out a copy of in[0..len) that a terminal shows inert: valid
 * UTF-8 only (each invalid byte becomes U+FFFD); no C0 control (ESC, BEL,
 * CR, backspace, ...), DEL or C1 control (U+0080-U+009F): each becomes
 * U+FFFD, except tab, which becomes a space, and newline, which stays
 * when multiline is true and becomes U+23CE (a return symbol) when not;
 * no bidirectional mark, override or isolate (U+200E, U+200F, U+061C,
 * U+202A-U+202E, U+2066-U+2069) and no U+2028/U+2029 separators: each
 * becomes U+FFFD (wc_unsafe_cp()); no invisible character
 * (wc_invisible_cp(): zero-width space, word joiner, BOM, soft hyphen,
 * the Hangul fillers, tags, ...): each is dropped, so that a name cannot
 * hide one to pass for another, except where it does visible work: a
 * zero-width joiner inside an emoji sequence (U+1F469 U+200D U+1F4BB) or
 * ZWJ/ZWNJ between two letters of a joining script (Arabic, Devanagari,
 * ...), a variation selector after a pictograph, keycap digit, symbol or
 * ideograph, and the tag characters of a flag's tag sequence.  A NUL is
 * appended after the text (not counted in what a caller reads as the
 * text's length: out->len - 1).  Cannot fail (aborts on out-of-memory).
 */
void	wc_sanitize(const char *in, size_t len, bool multiline, struct buf *out);

/*
 * The length (1-4) of the well-formed UTF-8 sequence at p[0..len), len >=
 * 1, with its code point in *cp; 0 when the bytes are not one (overlong,
 * surrogate, above U+10FFFF, cut short).  Pure.
 */
size_t	wc_utf8_seq(const unsigned char *p, size_t len, uint32_t *cp);

/* Whether code point c moves the cursor, rings, starts a sequence or
 * reorders text (the set wc_sanitize() replaces).  Pure. */
bool	wc_unsafe_cp(uint32_t c);

/* Whether code point c draws nothing and takes no room: the format
 * characters among Unicode's default ignorables (U+200B-U+200D,
 * U+2060-U+2064, U+FEFF, variation selectors, tags, ...), the soft hyphen
 * and the blank Hangul fillers.  Pure. */
bool	wc_invisible_cp(uint32_t c);

/*
 * Whether s[0..len) shows nothing a reader could tell apart: only spaces
 * (ASCII, no-break, the U+2000 block, ideographic, Braille blank) and
 * invisible characters (wc_invisible_cp()), or empty.  Invalid UTF-8 is
 * not blank (it shows as U+FFFD).  A name for which this is true is no
 * name: callers show the number instead.  Pure; any thread.
 */
bool	wc_blank_label(const char *s, size_t len);

/* Whether NUL-terminated s (NULL allowed: false) is a name worth showing:
 * not NULL and not wc_blank_label().  Pure; any thread. */
static inline bool
wc_has_label(const char *s)
{
	return s != NULL && !wc_blank_label(s, strlen(s));
}

#endif
