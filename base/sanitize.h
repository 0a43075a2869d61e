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

struct buf;

/*
 * Append to out a copy of in[0..len) that a terminal shows inert: valid
 * UTF-8 only (each invalid byte becomes U+FFFD); no C0 control (ESC, BEL,
 * CR, backspace, ...), DEL or C1 control (U+0080-U+009F): each becomes
 * U+FFFD, except tab, which becomes a space, and newline, which stays
 * when multiline is true and becomes U+23CE (a return symbol) when not;
 * no bidirectional mark, override or isolate (U+200E, U+200F, U+061C,
 * U+202A-U+202E, U+2066-U+2069) and no U+2028/U+2029 separators: each
 * becomes U+FFFD (wc_unsafe_cp()).  A NUL is
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

#endif
