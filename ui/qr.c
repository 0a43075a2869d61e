/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/qr.c -- the pairing QR code in half blocks. */
#include "base/compat.h"

#include <errno.h>

#include <qrencode.h>

#include "ui/qr.h"
#include "base/xmalloc.h"

int
ui_qr_make(const char *text, struct ui_qr *out)
{
	QRcode	*code;
	int	 size, x, y, w;

	if (text == NULL || text[0] == '\0')
		return -EINVAL;
	/* 8-bit mode, case-sensitive: the link is base64 and a URL. */
	if ((code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_L)) == NULL)
		return errno == ENOMEM ? -ENOMEM : -EINVAL;
	w = code->width;
	size = w + 2 * UI_QR_QUIET;
	out->size = size;
	out->dark = xcalloc((size_t)size * (size_t)size, 1);
	for (y = 0; y < w; y++)
		for (x = 0; x < w; x++)
			out->dark[(size_t)(y + UI_QR_QUIET) * (size_t)size +
			    (size_t)(x + UI_QR_QUIET)] =
			    code->data[(size_t)y * (size_t)w + (size_t)x] & 1;
	QRcode_free(code);
	return 0;
}

void
ui_qr_release(struct ui_qr *q)
{
	free(q->dark);
	q->dark = NULL;
	q->size = 0;
}

void
ui_qr_row(const struct ui_qr *q, int r, struct buf *out)
{
	/* Indexed by top << 1 | bottom. */
	static const char *const cell[4] = {
		" ", "\xe2\x96\x84", "\xe2\x96\x80", "\xe2\x96\x88",
	};
	int	 x, top, bottom;

	for (x = 0; x < q->size; x++) {
		top = q->dark[(size_t)(2 * r) * (size_t)q->size + (size_t)x];
		bottom = 2 * r + 1 < q->size ?
		    q->dark[(size_t)(2 * r + 1) * (size_t)q->size + (size_t)x] :
		    0;
		buf_append(out, cell[top << 1 | bottom],
		    strlen(cell[top << 1 | bottom]));
	}
}
