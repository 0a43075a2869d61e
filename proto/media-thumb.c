/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-thumb.c -- the inline JPEG thumbnail of a photo or video to
 * send (protocol-features.md 1.6): its sides and its encoding
 * (libjpeg-turbo), and libjpeg's errors as a longjmp for the decoders
 * that use it (proto/media-probe.c, proto/media-video.c).  See
 * proto/media-thumb.h.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/media-probe.h"
#include "proto/media-thumb.h"

#define THUMB_QUALITY	50	/* [BL] extractImageThumb */

static void
jpeg_fail(j_common_ptr ci)
{
	longjmp(((struct wa_jpeg_err *)ci->err)->jmp, 1);
}

static void
jpeg_quiet(j_common_ptr ci, int level)
{
	(void)ci;
	(void)level;
}

struct jpeg_error_mgr *
wa_jpeg_err_init(struct wa_jpeg_err *e)
{
	struct jpeg_error_mgr	*m = jpeg_std_error(&e->mgr);

	m->error_exit = jpeg_fail;
	m->emit_message = jpeg_quiet;
	return m;
}

void
wa_media_thumb_sides(uint32_t w, uint32_t h, uint32_t *tw, uint32_t *th)
{
	uint32_t	 side = w > h ? w : h;

	if (side <= WA_MEDIA_PROBE_THUMB_SIDE) {
		*tw = w;
		*th = h;
		return;
	}
	*tw = (uint32_t)((uint64_t)w * WA_MEDIA_PROBE_THUMB_SIDE / side);
	*th = (uint32_t)((uint64_t)h * WA_MEDIA_PROBE_THUMB_SIDE / side);
	*tw = *tw > 0 ? *tw : 1;
	*th = *th > 0 ? *th : 1;
}

int
wa_media_thumb_encode(const uint8_t *px, uint32_t tw, uint32_t th,
    uint8_t **out, size_t *len)
{
	struct jpeg_compress_struct	 c;
	struct wa_jpeg_err		 e;
	unsigned char			*mem = NULL;
	unsigned long			 n = 0;
	JSAMPROW			 rp;

	c.err = wa_jpeg_err_init(&e);
	if (setjmp(e.jmp) != 0) {
		jpeg_destroy_compress(&c);
		free(mem);
		return WC_EPROTO;
	}
	jpeg_create_compress(&c);
	jpeg_mem_dest(&c, &mem, &n);
	c.image_width = tw;
	c.image_height = th;
	c.input_components = 3;
	c.in_color_space = JCS_RGB;
	jpeg_set_defaults(&c);
	jpeg_set_quality(&c, THUMB_QUALITY, TRUE);
	jpeg_start_compress(&c, TRUE);
	while (c.next_scanline < c.image_height) {
		rp = (JSAMPROW)(uintptr_t)(px + (size_t)c.next_scanline *
		    tw * 3);
		(void)jpeg_write_scanlines(&c, &rp, 1);
	}
	jpeg_finish_compress(&c);
	jpeg_destroy_compress(&c);
	*out = xmalloc(n);
	memcpy(*out, mem, n);
	*len = n;
	free(mem);
	return 0;
}
