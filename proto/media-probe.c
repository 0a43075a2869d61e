/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-probe.c -- a file to send typed by its content (libmagic)
 * and, for a voice note, its duration and waveform (libopusfile), for a
 * JPEG photo its size and inline thumbnail (libjpeg-turbo:
 * decoded scaled down by the library, sampled to at most
 * WA_MEDIA_PROBE_THUMB_SIDE pixels a side a row at a time, re-encoded at
 * quality 50 by proto/media-thumb.c).  Memory stays at a few rows of the scaled photo whatever
 * its size.  See proto/media-probe.h.
 */
#include "base/compat.h"

#include <sys/stat.h>

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <magic.h>
#include <opusfile.h>

#include "base/xmalloc.h"
#include "proto/media-probe.h"
#include "proto/media-thumb.h"

#define SCANS_MAX	64	/* a progressive JPEG of more scans: no
				 * thumbnail */

static void
jpeg_progress(j_common_ptr ci)
{
	if (ci->is_decompressor &&
	    ((j_decompress_ptr)ci)->input_scan_number > SCANS_MAX)
		longjmp(((struct wa_jpeg_err *)ci->err)->jmp, 1);
}

#define MAGIC_HEAD_BYTES	(256u << 10)	/* of a file libmagic reads */

/* The mimetype of path by libmagic into mime (from its first
 * MAGIC_HEAD_BYTES); 0 or WC_EPROTO. */
static int
magic_type(const char *path, char mime[WA_MEDIA_PROBE_MIME_MAX])
{
	magic_t		 m = magic_open(MAGIC_MIME_TYPE | MAGIC_ERROR);
	size_t		 head = MAGIC_HEAD_BYTES;
	const char	*t;
	int		 rc = WC_EPROTO;

	if (m == NULL)
		return WC_EPROTO;
	/* libmagic reads up to 7 MiB of the file into memory by default */
	(void)magic_setparam(m, MAGIC_PARAM_BYTES_MAX, &head);
	if (magic_load(m, NULL) == 0 && (t = magic_file(m, path)) != NULL &&
	    strlen(t) < WA_MEDIA_PROBE_MIME_MAX) {
		memcpy(mime, t, strlen(t) + 1);
		rc = 0;
	}
	magic_close(m);
	return rc;
}

/* The decoder's rows sampled into px (tw x th RGB). */
static void
sample_rows(struct jpeg_decompress_struct *d, uint8_t *row, uint8_t *px,
    uint32_t tw, uint32_t th)
{
	uint32_t	 dw = d->output_width, dh = d->output_height;
	uint32_t	 y, x, ty, next = 0;
	JSAMPROW	 rp = row;

	for (y = 0; y < dh; y++) {
		(void)jpeg_read_scanlines(d, &rp, 1);
		ty = (uint32_t)((uint64_t)y * th / dh);
		if (ty != next || next >= th)
			continue;
		for (x = 0; x < tw; x++)
			memcpy(px + ((size_t)ty * tw + x) * 3,
			    row + (size_t)((uint64_t)x * dw / tw) * 3, 3);
		next++;
	}
}

/* The library's own scaling (1/1 to 1/8), as far as it keeps both sides
 * of a w x h photo at or above the thumbnail's tw x th. */
static unsigned
scale_denom(uint32_t w, uint32_t h, uint32_t tw, uint32_t th)
{
	unsigned	 denom = 1;

	while (denom < 8 && w / (denom * 2) >= tw && h / (denom * 2) >= th)
		denom *= 2;
	return denom;
}

/* The photo in f: its sides and the thumbnail into p.  0, or WC_EPROTO
 * when the header does not read or a side is too large (then it goes as
 * a document). */
static int
jpeg_probe(FILE *f, struct wa_media_probe *p)
{
	struct jpeg_decompress_struct	 d;
	struct jpeg_progress_mgr	 pm = { .progress_monitor =
					    jpeg_progress };
	struct wa_jpeg_err		 e;
	uint8_t *volatile		 row = NULL, *volatile px = NULL;
	uint32_t			 tw, th;

	d.err = wa_jpeg_err_init(&e);
	if (setjmp(e.jmp) != 0) {
		jpeg_destroy_decompress(&d);
		free(row);
		free(px);
		return p->width > 0 ? 0 : WC_EPROTO;	/* no thumbnail */
	}
	jpeg_create_decompress(&d);
	d.progress = &pm;
	jpeg_stdio_src(&d, f);
	if (jpeg_read_header(&d, TRUE) != JPEG_HEADER_OK ||
	    d.image_width == 0 || d.image_height == 0 ||
	    d.image_width > WA_MEDIA_PROBE_SIDE_MAX ||
	    d.image_height > WA_MEDIA_PROBE_SIDE_MAX)
		longjmp(e.jmp, 1);
	p->width = d.image_width;
	p->height = d.image_height;
	wa_media_thumb_sides(p->width, p->height, &tw, &th);
	d.scale_num = 1;
	d.scale_denom = scale_denom(p->width, p->height, tw, th);
	d.out_color_space = JCS_RGB;
	jpeg_start_decompress(&d);
	row = xmalloc((size_t)d.output_width * 3);
	px = xcalloc((size_t)tw * th, 3);
	sample_rows(&d, row, px, tw, th);
	jpeg_finish_decompress(&d);
	jpeg_destroy_decompress(&d);
	if (wa_media_thumb_encode(px, tw, th, &p->thumb, &p->thumb_len) != 0)
		p->thumb = NULL;	/* no thumbnail: still a photo */
	free(row);
	free(px);
	return 0;
}

#define OPUS_RATE	48000	/* Hz: what libopusfile decodes at */
#define PCM_CHUNK	5760	/* samples a channel per read (120 ms) */

/* The duration and waveform of the Ogg Opus file path into p: decoded a
 * chunk at a time, each sample's magnitude added to its block's sum.  0;
 * -EINVAL when it does not open as Opus or its length is unknown. */
static int
opus_probe(const char *path, struct wa_media_probe *p)
{
	OggOpusFile	*of = op_open_file(path, NULL);
	double		 sum[WA_MEDIA_PROBE_WAVEFORM] = { 0 }, top = 0;
	float		 pcm[PCM_CHUNK * 2];
	ogg_int64_t	 total, at = 0, block;
	int		 n, ch, i, li;

	if (of == NULL)
		return -EINVAL;
	total = op_pcm_total(of, -1);
	if (total <= 0) {
		op_free(of);
		return -EINVAL;
	}
	p->seconds = (uint32_t)((total + OPUS_RATE - 1) / OPUS_RATE);
	block = total / WA_MEDIA_PROBE_WAVEFORM > 0 ?
	    total / WA_MEDIA_PROBE_WAVEFORM : 1;
	while ((n = op_read_float(of, pcm, PCM_CHUNK * 2, &li)) > 0) {
		ch = op_channel_count(of, li);
		for (i = 0; i < n; i++, at++)
			if (at / block < WA_MEDIA_PROBE_WAVEFORM)
				sum[at / block] += fabs((double)pcm[i * ch]);
	}
	op_free(of);
	if (n < 0)		/* a damaged stream: the duration only */
		return 0;
	for (i = 0; i < WA_MEDIA_PROBE_WAVEFORM; i++)
		top = sum[i] > top ? sum[i] : top;
	for (i = 0; i < WA_MEDIA_PROBE_WAVEFORM; i++)
		p->waveform[i] = top > 0 ? (uint8_t)floor(100 * sum[i] / top) :
		    0;
	p->waveform_len = WA_MEDIA_PROBE_WAVEFORM;
	return 0;
}

/* A WebP sticker's size and animation from the first bytes of path
 * (RIFF "WEBP" with a VP8, VP8L or VP8X chunk first); left 0 when they
 * do not read so. */
static void
webp_probe(const char *path, struct wa_media_probe *p)
{
	uint8_t	 h[30];
	FILE	*f;
	size_t	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return;
	n = fread(h, 1, sizeof(h), f);
	(void)fclose(f);
	if (n < sizeof(h) || memcmp(h, "RIFF", 4) != 0 ||
	    memcmp(h + 8, "WEBP", 4) != 0)
		return;
	if (memcmp(h + 12, "VP8 ", 4) == 0 && h[23] == 0x9d &&
	    h[24] == 0x01 && h[25] == 0x2a) {
		p->width = (uint32_t)(h[26] | h[27] << 8) & 0x3fff;
		p->height = (uint32_t)(h[28] | h[29] << 8) & 0x3fff;
	} else if (memcmp(h + 12, "VP8L", 4) == 0 && h[20] == 0x2f) {
		uint32_t b = (uint32_t)h[21] | (uint32_t)h[22] << 8 |
		    (uint32_t)h[23] << 16 | (uint32_t)h[24] << 24;

		p->width = (b & 0x3fff) + 1;
		p->height = ((b >> 14) & 0x3fff) + 1;
	} else if (memcmp(h + 12, "VP8X", 4) == 0) {
		p->animated = (h[20] & 0x02) != 0;
		p->width = ((uint32_t)h[24] | (uint32_t)h[25] << 8 |
		    (uint32_t)h[26] << 16) + 1;
		p->height = ((uint32_t)h[27] | (uint32_t)h[28] << 8 |
		    (uint32_t)h[29] << 16) + 1;
	}
}

/* The message type of mimetype mime under flags; -EINVAL for a voice
 * note of something else than Ogg. */
static int
type_of(const char *mime, unsigned flags, enum wa_msg_media_type *t)
{
	bool	 ogg = strcmp(mime, "audio/ogg") == 0;

	if ((flags & WA_MEDIA_PROBE_PTT) != 0 && !ogg)
		return -EINVAL;
	if (strcmp(mime, "image/jpeg") == 0)
		*t = WA_MEDIA_IMAGE;
	else if (strcmp(mime, "image/webp") == 0 &&
	    (flags & WA_MEDIA_PROBE_STICKER) != 0)
		*t = WA_MEDIA_STICKER;
	else if (strcmp(mime, "video/mp4") == 0)
		*t = WA_MEDIA_VIDEO;
	else if (ogg && (flags & WA_MEDIA_PROBE_PTT) != 0)
		*t = WA_MEDIA_PTT;
	else if (strncmp(mime, "audio/", 6) == 0)
		*t = WA_MEDIA_AUDIO;
	else
		*t = WA_MEDIA_DOCUMENT;
	return 0;
}

int
wa_media_probe(const char *path, unsigned flags, struct wa_media_probe *out)
{
	struct stat	 st;
	FILE		*f;
	int		 rc;

	if (path == NULL || out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (stat(path, &st) != 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EISDIR;
	out->size = (uint64_t)st.st_size;
	if ((rc = magic_type(path, out->mimetype)) != 0 ||
	    (rc = type_of(out->mimetype, flags, &out->type)) != 0)
		return rc;
	if (out->type == WA_MEDIA_PTT) {
		snprintf(out->mimetype, sizeof(out->mimetype),
		    "audio/ogg; codecs=opus");
		if ((rc = opus_probe(path, out)) != 0) {
			memset(out, 0, sizeof(*out));
			return rc;
		}
	}
	if (out->type == WA_MEDIA_STICKER)
		webp_probe(path, out);
	if (out->type == WA_MEDIA_VIDEO)
		out->video_err = wa_media_video_probe(path, out);
	if (out->type != WA_MEDIA_IMAGE)
		return 0;
	if ((f = fopen(path, "rb")) == NULL) {
		rc = -errno;
		memset(out, 0, sizeof(*out));
		return rc;
	}
	if (jpeg_probe(f, out) != 0) {
		out->type = WA_MEDIA_DOCUMENT;
		out->width = out->height = 0;
	}
	(void)fclose(f);
	return 0;
}

void
wa_media_probe_release(struct wa_media_probe *p)
{
	if (p == NULL)
		return;
	free(p->thumb);
	p->thumb = NULL;
	p->thumb_len = 0;
}
