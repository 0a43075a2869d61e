/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/qr.h -- the pairing QR code as terminal text: libqrencode makes the
 * modules, and each character cell shows two of them, one above the other,
 * with the Unicode half blocks.  A 170-300 byte companion-link string
 * (protocol.md 6.2) becomes a version 9-12 code, 53-65 modules across plus
 * a quiet zone of 2 on each side: 57-69 columns and 29-35 rows.  Pure
 * functions (no curses); callable from any thread.
 */
#ifndef UI_QR_H
#define UI_QR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define UI_QR_QUIET	2	/* modules of light border on each side */

struct ui_qr {
	int	 size;		/* modules across, quiet zone included */
	uint8_t	*dark;		/* size * size: 1 dark, 0 light, row-major */
};

/*
 * Encode text (NUL-terminated, 8-bit) as a QR code with error correction
 * level L, the smallest version that holds it, and a quiet zone of
 * UI_QR_QUIET modules.  Returns 0 and fills *out, freed with
 * ui_qr_release().  Errors: -EINVAL (text empty or too long for any QR
 * version), -ENOMEM.  *out untouched on error.
 */
MUST_CHECK int	ui_qr_make(const char *text, struct ui_qr *out);

/* Free q's modules (q itself is the caller's). */
void		ui_qr_release(struct ui_qr *q);

/* Terminal rows the code needs: two modules per row. */
static inline int
ui_qr_rows(const struct ui_qr *q)
{
	return (q->size + 1) / 2;
}

/* Terminal columns the code needs: one module per column. */
static inline int
ui_qr_cols(const struct ui_qr *q)
{
	return q->size;
}

/*
 * Append terminal row r (0 <= r < ui_qr_rows(q)) to out as UTF-8, one
 * character per module column: ' ' (both light), U+2580 upper half (top
 * dark), U+2584 lower half (bottom dark), U+2588 full block (both dark).
 * Dark modules are drawn in the foreground colour, so the caller shows the
 * row in dark-on-light colours whatever the terminal's theme (a QR code
 * read inverted fails on many phones).  No NUL is appended.
 */
void		ui_qr_row(const struct ui_qr *q, int r, struct buf *out);

#endif
