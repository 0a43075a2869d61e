/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-video.c -- a video to send: its duration, its picture's
 * size and a JPEG thumbnail of its first frame, through FFmpeg's
 * libraries (libavformat reads the container a buffer at a time through
 * its own I/O, libavcodec decodes the first frame, libswscale scales it
 * to the thumbnail's size in RGB, turned upright by the stream's display
 * matrix (a phone's portrait video), libjpeg-turbo encodes it as photos'
 * thumbnails are: proto/media-thumb.c).  Built without FFmpeg
 * (configure --without-ffmpeg, or its packages absent) it says so
 * (-ENOTSUP) and the video goes without them.  See
 * proto/media-probe.h.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/media-probe.h"
#include "proto/media-thumb.h"

#ifndef HAVE_FFMPEG

bool
wa_media_video_available(void)
{
	return false;
}

const char *
wa_media_video_version(void)
{
	return NULL;
}

int
wa_media_video_probe(const char *path, struct wa_media_probe *p)
{
	if (path == NULL || p == NULL)
		return -EINVAL;
	return -ENOTSUP;
}

#else

#include <pthread.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libswscale/swscale.h>

#define VIDEO_PACKETS_MAX	1024	/* packets read for a first frame */
#define VIDEO_PROBE_BYTES	(4 << 20)	/* libavformat's probesize */

static pthread_once_t	 quiet_once = PTHREAD_ONCE_INIT;

/* FFmpeg prints to stderr by default: under curses it would draw over
 * the screen.  Its level is process-wide; set once. */
static void
quiet(void)
{
	av_log_set_level(AV_LOG_QUIET);
}

bool
wa_media_video_available(void)
{
	return true;
}

const char *
wa_media_video_version(void)
{
	return av_version_info();
}

/* What one probe holds; released by video_close(). */
struct vid {
	AVFormatContext		*fc;
	AVCodecContext		*cc;
	AVPacket		*pkt;
	AVFrame			*frame;
	int			 stream;
};

static void
video_close(struct vid *v)
{
	av_frame_free(&v->frame);
	av_packet_free(&v->pkt);
	avcodec_free_context(&v->cc);
	avformat_close_input(&v->fc);
}

/* Open path as MP4 (the only container libmagic sends here as a video),
 * local files only, and find its video stream.  0 or WC_EPROTO. */
static int
video_open(const char *path, struct vid *v)
{
	const AVInputFormat	*fmt = av_find_input_format("mp4");
	AVDictionary		*opt = NULL;
	const AVCodec		*dec = NULL;
	char			*url;
	int			 rc;

	if (fmt == NULL)
		return WC_EPROTO;
	/* "file:" so that a name with a colon is not a protocol */
	url = xmalloc(strlen(path) + 6);
	memcpy(url, "file:", 5);
	memcpy(url + 5, path, strlen(path) + 1);
	(void)av_dict_set(&opt, "protocol_whitelist", "file", 0);
	(void)av_dict_set_int(&opt, "probesize", VIDEO_PROBE_BYTES, 0);
	rc = avformat_open_input(&v->fc, url, fmt, &opt);
	av_dict_free(&opt);
	free(url);
	if (rc < 0)
		return WC_EPROTO;
	/* No avformat_find_stream_info(): MP4's header (moov) holds the
	 * streams' codecs, sides and durations, and that call would decode
	 * and queue up to probesize bytes of packets in every stream. */
	if ((v->stream = av_find_best_stream(v->fc, AVMEDIA_TYPE_VIDEO, -1,
	    -1, &dec, 0)) < 0 || dec == NULL)
		return WC_EPROTO;
	if ((v->cc = avcodec_alloc_context3(dec)) == NULL ||
	    avcodec_parameters_to_context(v->cc,
	    v->fc->streams[v->stream]->codecpar) < 0)
		return WC_EPROTO;
	v->cc->thread_count = 1;
	if (avcodec_open2(v->cc, dec, NULL) < 0)
		return WC_EPROTO;
	v->pkt = av_packet_alloc();
	v->frame = av_frame_alloc();
	return v->pkt != NULL && v->frame != NULL ? 0 : -ENOMEM;
}

/* The container's duration in whole seconds, rounded to the nearest (1
 * at least for a video that has one); 0 when it says none. */
static uint32_t
video_seconds(const struct vid *v)
{
	const AVStream	*st = v->fc->streams[v->stream];
	int64_t		 us = v->fc->duration;

	if ((us == AV_NOPTS_VALUE || us <= 0) &&
	    st->duration != AV_NOPTS_VALUE && st->duration > 0)
		us = av_rescale_q(st->duration, st->time_base,
		    AV_TIME_BASE_Q);
	if (us == AV_NOPTS_VALUE || us <= 0)
		return 0;
	us = (us + AV_TIME_BASE / 2) / AV_TIME_BASE;
	if (us > UINT32_MAX)
		return UINT32_MAX;
	return us > 0 ? (uint32_t)us : 1;
}

/* How far the picture turns clockwise to be shown upright (the stream's
 * display matrix, as players read it): 0, 90, 180 or 270 degrees. */
static int
video_turn(const struct vid *v)
{
	const AVStream	*st = v->fc->streams[v->stream];
	const int32_t	*m = NULL;
	double		 ccw;
	int		 turn;

#if LIBAVCODEC_VERSION_INT >= AV_VERSION_INT(60, 31, 102)
	const AVPacketSideData	*sd = av_packet_side_data_get(
				    st->codecpar->coded_side_data,
				    st->codecpar->nb_coded_side_data,
				    AV_PKT_DATA_DISPLAYMATRIX);

	if (sd != NULL && sd->size >= 9 * sizeof(int32_t))
		m = (const int32_t *)sd->data;
#else
	size_t		 n = 0;
	const uint8_t	*p = av_stream_get_side_data(st,
			    AV_PKT_DATA_DISPLAYMATRIX, &n);

	if (p != NULL && n >= 9 * sizeof(int32_t))
		m = (const int32_t *)(const void *)p;
#endif
	if (m == NULL)
		return 0;
	ccw = av_display_rotation_get(m);
	if (ccw != ccw)		/* NaN: a matrix that is no rotation */
		return 0;
	turn = (int)((-ccw + 360 * 2 + 45) / 90) % 4;
	return turn * 90;
}

/* px (w x h RGB) turned clockwise by turn degrees into a new buffer of
 * the same size (heap); its sides into *ow, *oh. */
static uint8_t *
turn_pixels(const uint8_t *px, uint32_t w, uint32_t h, int turn,
    uint32_t *ow, uint32_t *oh)
{
	uint8_t		*out = xmalloc((size_t)w * h * 3);
	uint32_t	 x, y, nx, ny, nw = turn == 180 ? w : h;

	*ow = nw;
	*oh = turn == 180 ? h : w;
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++) {
			nx = turn == 90 ? h - 1 - y : turn == 180 ? w - 1 - x :
			    y;
			ny = turn == 90 ? x : turn == 180 ? h - 1 - y :
			    w - 1 - x;
			memcpy(out + ((size_t)ny * nw + nx) * 3,
			    px + ((size_t)y * w + x) * 3, 3);
		}
	return out;
}

/* Decode until the first picture is in v->frame, reading at most
 * VIDEO_PACKETS_MAX packets.  0 or WC_EPROTO. */
static int
first_frame(struct vid *v)
{
	int	 n, rc;

	for (n = 0; n < VIDEO_PACKETS_MAX; n++) {
		if ((rc = av_read_frame(v->fc, v->pkt)) < 0)
			break;
		if (v->pkt->stream_index != v->stream) {
			av_packet_unref(v->pkt);
			continue;
		}
		rc = avcodec_send_packet(v->cc, v->pkt);
		av_packet_unref(v->pkt);
		if (rc < 0 && rc != AVERROR(EAGAIN))
			return WC_EPROTO;
		if (avcodec_receive_frame(v->cc, v->frame) == 0)
			return 0;
	}
	/* the end: what the decoder still holds */
	(void)avcodec_send_packet(v->cc, NULL);
	return avcodec_receive_frame(v->cc, v->frame) == 0 ? 0 : WC_EPROTO;
}

/* The frame scaled to the thumbnail's sides as RGB, turned upright by
 * turn degrees, then a JPEG into p.  0, WC_EPROTO or -ENOMEM. */
static int
frame_thumb(const struct vid *v, int turn, struct wa_media_probe *p)
{
	const AVFrame		*f = v->frame;
	struct SwsContext	*sws;
	uint32_t		 tw, th;
	uint8_t			*px, *dst[4] = { NULL };
	int			 stride[4] = { 0 }, rc;

	if (f->width <= 0 || f->height <= 0 ||
	    f->width > WA_MEDIA_PROBE_SIDE_MAX ||
	    f->height > WA_MEDIA_PROBE_SIDE_MAX)
		return WC_EPROTO;
	wa_media_thumb_sides((uint32_t)f->width, (uint32_t)f->height, &tw,
	    &th);
	sws = sws_getContext(f->width, f->height, (enum AVPixelFormat)f->format,
	    (int)tw, (int)th, AV_PIX_FMT_RGB24, SWS_BILINEAR, NULL, NULL,
	    NULL);
	if (sws == NULL)
		return WC_EPROTO;
	px = xcalloc((size_t)tw * th, 3);
	dst[0] = px;
	stride[0] = (int)tw * 3;
	rc = sws_scale(sws, (const uint8_t *const *)f->data, f->linesize, 0,
	    f->height, dst, stride) == (int)th ? 0 : WC_EPROTO;
	sws_freeContext(sws);
	if (rc == 0 && turn != 0) {
		uint8_t	*up = turn_pixels(px, tw, th, turn, &tw, &th);

		free(px);
		px = up;
	}
	if (rc == 0)
		rc = wa_media_thumb_encode(px, tw, th, &p->thumb,
		    &p->thumb_len);
	free(px);
	return rc;
}

/* The sides w x h of the picture as it is shown (turned by turn
 * degrees) into p; none over WA_MEDIA_PROBE_SIDE_MAX. */
static void
set_sides(struct wa_media_probe *p, int w, int h, int turn)
{
	if (w <= 0 || h <= 0 || w > WA_MEDIA_PROBE_SIDE_MAX ||
	    h > WA_MEDIA_PROBE_SIDE_MAX)
		return;
	p->width = (uint32_t)(turn % 180 != 0 ? h : w);
	p->height = (uint32_t)(turn % 180 != 0 ? w : h);
}

int
wa_media_video_probe(const char *path, struct wa_media_probe *p)
{
	struct vid	 v = { NULL, NULL, NULL, NULL, -1 };
	int		 rc;

	if (path == NULL || p == NULL)
		return -EINVAL;
	(void)pthread_once(&quiet_once, quiet);
	if ((rc = video_open(path, &v)) == 0) {
		const AVCodecParameters *cp = v.fc->streams[v.stream]->codecpar;

		int	 turn = video_turn(&v);

		p->seconds = video_seconds(&v);
		set_sides(p, cp->width, cp->height, turn);
		if ((rc = first_frame(&v)) == 0) {
			/* a header without them (MPEG-4 part 2): the frame's */
			if (p->width == 0)
				set_sides(p, v.frame->width, v.frame->height,
				    turn);
			rc = frame_thumb(&v, turn, p);
		}
	}
	video_close(&v);
	return rc;
}

#endif
