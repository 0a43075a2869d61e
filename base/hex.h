/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/hex.h -- hexadecimal digits, for the command line, test tools and
 * logs.  Pure functions; callable from any thread.
 */
#ifndef WC_HEX_H
#define WC_HEX_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* The value 0..15 of the hex digit c (either case), or -1. */
int	hex_digit(int c);

/* Append 2 * len lower-case hex digits for p[0..len) to out (no NUL). */
void	hex_append(struct buf *out, const uint8_t *p, size_t len);

#endif
