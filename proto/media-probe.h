/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-probe.h -- what a file to send is (issue 19;
 * protocol-features.md 1.6): its type by content (libmagic, never by its
 * name), the media message it goes as, a voice note's duration and
 * waveform, and for a JPEG photo its size and the small JPEG thumbnail
 * sent inline (JPEGThumbnail: the longer side
 * WA_MEDIA_PROBE_THUMB_SIDE pixels at most, quality 50, as [BL] makes
 * it).  Blocking file I/O: call it off the loop's thread (a worker or the
 * CLI); any thread, no shared state.
 */
#ifndef WA_MEDIA_PROBE_H
#define WA_MEDIA_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "proto/msg.h"

#define WA_MEDIA_PROBE_MIME_MAX		128	/* bytes of mimetype, NUL in */
#define WA_MEDIA_PROBE_THUMB_SIDE	100	/* pixels, the longer side */
#define WA_MEDIA_PROBE_SIDE_MAX		65500	/* pixels; a larger photo is
						 * sent as a document */

#define WA_MEDIA_PROBE_WAVEFORM		64	/* bytes of a voice note's
						 * waveform ([BL]) */

/* What the sender asked for besides the content. */
#define WA_MEDIA_PROBE_PTT	0x1u	/* an Ogg Opus file as a voice note */
#define WA_MEDIA_PROBE_STICKER	0x2u	/* a WebP picture as a sticker */

/* What wa_media_probe() found. */
struct wa_media_probe {
	enum wa_msg_media_type type;	/* IMAGE, VIDEO, AUDIO, PTT, STICKER
					 * or DOCUMENT */
	char		 mimetype[WA_MEDIA_PROBE_MIME_MAX];
	uint64_t	 size;		/* bytes of the file */
	uint32_t	 width, height;	/* IMAGE: pixels of the photo;
					 * STICKER: of the WebP's header;
					 * VIDEO: of its picture (FFmpeg)
					 * (0 when it does not read) */
	bool		 animated;	/* STICKER: an animated WebP (VP8X) */
	uint8_t		*thumb;		/* IMAGE, VIDEO (its first frame): a
					 * JPEG (heap), or NULL when it could
					 * not be made */
	size_t		 thumb_len;
	uint32_t	 seconds;	/* PTT: the duration, rounded up;
					 * VIDEO: rounded to the nearest (1
					 * at least); 0 unknown */
	int		 video_err;	/* VIDEO: 0 when its duration, size
					 * and thumbnail were read; -ENOTSUP
					 * built without FFmpeg; WC_EPROTO
					 * (or -ENOMEM) it did not decode:
					 * then it goes without those */
	uint8_t		 waveform[WA_MEDIA_PROBE_WAVEFORM];	/* PTT */
	size_t		 waveform_len;	/* PTT: WA_MEDIA_PROBE_WAVEFORM, or 0
					 * when the audio did not decode */
};

/*
 * Look at the regular file path and fill *out: the mimetype libmagic
 * reads in its first bytes (256 KiB at most: never the whole file) and the type it goes as: image/jpeg an IMAGE
 * (width, height and the thumbnail); image/webp a STICKER when flags has
 * WA_MEDIA_PROBE_STICKER (width, height and whether it is animated, read
 * from its RIFF header); video/mp4 a VIDEO (seconds, width, height and
 * the thumbnail by wa_media_video_probe(); what it could not read left
 * 0 or NULL, and why in video_err); audio/ogg a PTT (mimetype
 * "audio/ogg; codecs=opus"; seconds and the waveform of the decoded
 * samples (libopusfile): WA_MEDIA_PROBE_WAVEFORM blocks of the first
 * channel, each floor(100 * mean |sample| / the largest block's mean),
 * as [BL] makes it, protocol-features.md 1.6) when flags has
 * WA_MEDIA_PROBE_PTT; any
 * other audio/... type an AUDIO; everything else (PNG included:
 * WhatsApp's photos are JPEG and we do not convert; an animated GIF too:
 * WhatsApp's clients convert it to an MP4 sent with gifPlayback,
 * protocol-features.md 1.6, which wachat does not) a DOCUMENT.  A
 * JPEG whose header does not read, or with a side over
 * WA_MEDIA_PROBE_SIDE_MAX, goes as a DOCUMENT too; a thumbnail that
 * cannot be made is left out (thumb NULL).  out is the caller's; free
 * what it owns with wa_media_probe_release().
 * Returns 0.  Errors: -EINVAL (a NULL; WA_MEDIA_PROBE_PTT for a file that
 * is not Ogg Opus, or whose audio does not open), -errno of stat() or
 * open(), -EISDIR (not a regular file), WC_EPROTO (libmagic could not
 * be loaded or read the file).  On error *out owns nothing.
 */
MUST_CHECK int	wa_media_probe(const char *path, unsigned flags,
		    struct wa_media_probe *out);

/* Free what p owns (the thumbnail); p itself stays.  NULL is a no-op. */
void		wa_media_probe_release(struct wa_media_probe *p);

/*
 * proto/media-video.c: a video's duration, size and thumbnail by
 * FFmpeg's libraries (libavformat, libavcodec, libswscale; optional at
 * configure time: --without-ffmpeg, or absent packages).
 */

/* Whether wachat was built with FFmpeg.  Any thread. */
bool		wa_media_video_available(void);

/* The version of the FFmpeg libraries in use (av_version_info(), static:
 * "5.1.6-0+deb12u1"), or NULL when built without them.  Any thread. */
const char	*wa_media_video_version(void);

/*
 * The MP4 file path (only that container is opened; local files only)
 * into p: seconds (the container's duration rounded to the nearest
 * second, 1 at least; 0 when it has none), width and height of its video
 * stream as it is shown (swapped when its display matrix turns it a
 * quarter, as a phone's portrait video; 0 over WA_MEDIA_PROBE_SIDE_MAX)
 * and thumb, a JPEG of its first decoded frame turned upright the same
 * way, made as a photo's (proto/media-thumb.h).  Streamed: libavformat reads the file through
 * a small buffer (at most 4 MiB are probed), at most 1024 packets are
 * read for the first frame, one decoder thread; nothing holds the whole
 * file.  FFmpeg's own log is silenced (process-wide, once).  Fills only
 * what it read, even on error; p's thumb (heap) is the caller's, freed
 * by wa_media_probe_release().
 * Returns 0.  Errors: -EINVAL (a NULL), -ENOTSUP (built without FFmpeg),
 * WC_EPROTO (it does not open as MP4, has no video stream, or no frame
 * decodes), -ENOMEM.  Blocking; any thread, off the loop's.
 */
MUST_CHECK int	wa_media_video_probe(const char *path,
		    struct wa_media_probe *p);

#endif
