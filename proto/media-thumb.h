/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-thumb.h -- the inline JPEG thumbnail (JPEGThumbnail) of a
 * photo or video to send (protocol-features.md 1.6: [BL] makes it at
 * quality 50; here the longer side WA_MEDIA_PROBE_THUMB_SIDE pixels at
 * most), and libjpeg's fatal errors as a longjmp instead of exit().
 * Used by proto/media-probe.c and proto/media-video.c.  No shared state:
 * any thread.
 */
#ifndef WA_MEDIA_THUMB_H
#define WA_MEDIA_THUMB_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jpeglib.h>

#include "base/err.h"

/* libjpeg's error manager and where a fatal error jumps to. */
struct wa_jpeg_err {
	struct jpeg_error_mgr	 mgr;
	jmp_buf			 jmp;
};

/* e's manager, libjpeg's standard one with its fatal errors jumping to
 * e->jmp (set it with setjmp() before any call) and its warnings
 * silenced; returned to be set as the codec's err.  e is the caller's
 * and outlives the codec. */
struct jpeg_error_mgr	*wa_jpeg_err_init(struct wa_jpeg_err *e);

/* The thumbnail's sides for a w x h picture: the longer one
 * WA_MEDIA_PROBE_THUMB_SIDE at most, the ratio kept, 1 at least, into
 * *tw, *th.  Any thread. */
void		wa_media_thumb_sides(uint32_t w, uint32_t h, uint32_t *tw,
		    uint32_t *th);

/* px (tw x th RGB, 3 bytes a pixel, rows top down) as a baseline JPEG
 * at quality 50 ([BL] extractImageThumb) into *out (heap, the caller's),
 * *len bytes.  Returns 0, or WC_EPROTO when libjpeg fails (*out then
 * untouched).  Any thread. */
MUST_CHECK int	wa_media_thumb_encode(const uint8_t *px, uint32_t tw,
		    uint32_t th, uint8_t **out, size_t *len);

#endif
