/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg-media.c -- the media messages of a received Message flattened
 * (protocol-features.md 1.6): image, video (GIF, round video note), audio
 * (voice note), document and sticker, with what the screen shows and
 * what a later download needs (1.5).  Pure functions; any thread.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "proto/msg-int.h"

const char *
wa_msg_media_name(enum wa_msg_media_type t)
{
	switch (t) {
	case WA_MEDIA_IMAGE:	return "image";
	case WA_MEDIA_VIDEO:	return "video";
	case WA_MEDIA_GIF:	return "gif";
	case WA_MEDIA_PTV:	return "ptv";
	case WA_MEDIA_AUDIO:	return "audio";
	case WA_MEDIA_PTT:	return "ptt";
	case WA_MEDIA_DOCUMENT:	return "document";
	case WA_MEDIA_STICKER:	return "sticker";
	case WA_MEDIA_NONE:	break;
	}
	return "";
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* A copy of bytes b when present, 0 < len <= max and (want 0 or) len ==
 * want; else NULL and *len 0. */
static uint8_t *
bytes(bool has, ProtobufCBinaryData b, size_t max, size_t want, size_t *len)
{
	uint8_t	*p;

	*len = 0;
	if (!has || b.len == 0 || b.len > max || (want != 0 && b.len != want))
		return NULL;
	p = xmalloc(b.len);
	memcpy(p, b.data, b.len);
	*len = b.len;
	return p;
}

/* The fields every media message has, under the names of 1.6. */
struct common {
	const char		*url, *mimetype, *direct_path;
	protobuf_c_boolean	 has_sha, has_enc, has_key, has_len, has_ts;
	ProtobufCBinaryData	 sha, enc, key;
	uint64_t		 len;
	int64_t			 ts;
};

#define COMMON(x) { (x)->url, (x)->mimetype, (x)->directpath, \
	(x)->has_filesha256, (x)->has_fileencsha256, (x)->has_mediakey, \
	(x)->has_filelength, (x)->has_mediakeytimestamp, (x)->filesha256, \
	(x)->fileencsha256, (x)->mediakey, (x)->filelength, \
	(x)->mediakeytimestamp }

static struct wa_msg_media *
media_new(enum wa_msg_media_type type, const struct common *c)
{
	struct wa_msg_media	*md = xcalloc(1, sizeof(*md));

	md->type = type;
	md->url = dup_or_null(c->url);
	md->mimetype = dup_or_null(c->mimetype);
	md->direct_path = dup_or_null(c->direct_path);
	md->file_sha256 = bytes(c->has_sha, c->sha, WA_MSG_SHA256_LEN,
	    WA_MSG_SHA256_LEN, &md->file_sha256_len);
	md->file_enc_sha256 = bytes(c->has_enc, c->enc, WA_MSG_SHA256_LEN,
	    WA_MSG_SHA256_LEN, &md->file_enc_sha256_len);
	md->media_key = bytes(c->has_key, c->key, WA_MSG_MEDIA_KEY_LEN,
	    WA_MSG_MEDIA_KEY_LEN, &md->media_key_len);
	md->file_length = c->has_len ? c->len : 0;
	md->media_key_ts = c->has_ts && c->ts > 0 ? c->ts : 0;
	return md;
}

static struct wa_msg_media *
image(const Wae2e__Message__ImageMessage *x)
{
	struct common		 c = COMMON(x);
	struct wa_msg_media	*md = media_new(WA_MEDIA_IMAGE, &c);

	md->caption = dup_or_null(x->caption);
	md->width = x->has_width ? x->width : 0;
	md->height = x->has_height ? x->height : 0;
	md->thumb = bytes(x->has_jpegthumbnail, x->jpegthumbnail,
	    WA_MSG_THUMB_MAX, 0, &md->thumb_len);
	return md;
}

static struct wa_msg_media *
video(const Wae2e__Message__VideoMessage *x, bool ptv)
{
	struct common		 c = COMMON(x);
	struct wa_msg_media	*md = media_new(ptv ? WA_MEDIA_PTV :
				    x->has_gifplayback && x->gifplayback ?
				    WA_MEDIA_GIF : WA_MEDIA_VIDEO, &c);

	md->caption = dup_or_null(x->caption);
	md->width = x->has_width ? x->width : 0;
	md->height = x->has_height ? x->height : 0;
	md->seconds = x->has_seconds ? x->seconds : 0;
	md->thumb = bytes(x->has_jpegthumbnail, x->jpegthumbnail,
	    WA_MSG_THUMB_MAX, 0, &md->thumb_len);
	return md;
}

static struct wa_msg_media *
audio(const Wae2e__Message__AudioMessage *x)
{
	struct common		 c = COMMON(x);
	struct wa_msg_media	*md = media_new(x->has_ptt && x->ptt ?
				    WA_MEDIA_PTT : WA_MEDIA_AUDIO, &c);

	md->seconds = x->has_seconds ? x->seconds : 0;
	md->waveform = bytes(x->has_waveform, x->waveform,
	    WA_MSG_WAVEFORM_MAX, 0, &md->waveform_len);
	return md;
}

static struct wa_msg_media *
document(const Wae2e__Message__DocumentMessage *x)
{
	struct common		 c = COMMON(x);
	struct wa_msg_media	*md = media_new(WA_MEDIA_DOCUMENT, &c);

	md->caption = dup_or_null(x->caption);
	md->file_name = dup_or_null(x->filename != NULL ? x->filename :
	    x->title);
	md->pages = x->has_pagecount ? x->pagecount : 0;
	md->thumb = bytes(x->has_jpegthumbnail, x->jpegthumbnail,
	    WA_MSG_THUMB_MAX, 0, &md->thumb_len);
	return md;
}

static struct wa_msg_media *
sticker(const Wae2e__Message__StickerMessage *x)
{
	struct common		 c = COMMON(x);
	struct wa_msg_media	*md = media_new(WA_MEDIA_STICKER, &c);

	md->animated = x->has_isanimated && x->isanimated;
	md->width = x->has_width ? x->width : 0;
	md->height = x->has_height ? x->height : 0;
	md->thumb = bytes(x->has_pngthumbnail, x->pngthumbnail,
	    WA_MSG_THUMB_MAX, 0, &md->thumb_len);
	return md;
}

struct wa_msg_media *
wa_msg_media_of(const Wae2e__Message *m, const Wae2e__ContextInfo **ci)
{
	*ci = NULL;
	if (m->imagemessage != NULL) {
		*ci = m->imagemessage->contextinfo;
		return image(m->imagemessage);
	}
	if (m->videomessage != NULL || m->ptvmessage != NULL) {
		const Wae2e__Message__VideoMessage *v = m->videomessage !=
		    NULL ? m->videomessage : m->ptvmessage;

		*ci = v->contextinfo;
		return video(v, m->videomessage == NULL);
	}
	if (m->audiomessage != NULL) {
		*ci = m->audiomessage->contextinfo;
		return audio(m->audiomessage);
	}
	if (m->documentmessage != NULL) {
		*ci = m->documentmessage->contextinfo;
		return document(m->documentmessage);
	}
	if (m->stickermessage != NULL) {
		*ci = m->stickermessage->contextinfo;
		return sticker(m->stickermessage);
	}
	return NULL;
}

void
wa_msg_media_free(struct wa_msg_media *md)
{
	if (md == NULL)
		return;
	free(md->mimetype);
	free(md->caption);
	free(md->file_name);
	free(md->thumb);
	free(md->waveform);
	if (md->media_key != NULL)
		explicit_bzero(md->media_key, md->media_key_len);
	free(md->media_key);
	free(md->direct_path);
	free(md->url);
	free(md->file_sha256);
	free(md->file_enc_sha256);
	free(md);
}
