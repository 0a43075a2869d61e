/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg-media.c -- the media messages of a received Message flattened
 * (protocol-features.md 1.6): image, video (GIF, round video note), audio
 * (voice note), document and sticker, with what the screen shows and
 * what a later download needs (1.5); and built for sending (1.6's filling
 * rules).  Pure functions; any thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
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

/* --- building a media Message (the sender's side of 1.6) --- */

/* Bytes b[0..n) as protobuf-c wants them; absent when n is 0. */
static ProtobufCBinaryData
bin(const uint8_t *b, size_t n, protobuf_c_boolean *has)
{
	ProtobufCBinaryData	 d = { n, (uint8_t *)(uintptr_t)b };

	*has = n > 0 && b != NULL;
	return d;
}

/* The fields every media message sets (1.6 "always set"), copied into
 * the sub-message x of type T by the caller's macro. */
#define FILL_COMMON(x, md) do { \
	(x)->url = (char *)(uintptr_t)(md)->url; \
	(x)->mimetype = (char *)(uintptr_t)(md)->mimetype; \
	(x)->directpath = (char *)(uintptr_t)(md)->direct_path; \
	(x)->filesha256 = bin((md)->file_sha256, (md)->file_sha256_len, \
	    &(x)->has_filesha256); \
	(x)->fileencsha256 = bin((md)->file_enc_sha256, \
	    (md)->file_enc_sha256_len, &(x)->has_fileencsha256); \
	(x)->mediakey = bin((md)->media_key, (md)->media_key_len, \
	    &(x)->has_mediakey); \
	(x)->has_filelength = 1; \
	(x)->filelength = (md)->file_length; \
	(x)->has_mediakeytimestamp = (md)->media_key_ts > 0; \
	(x)->mediakeytimestamp = (md)->media_key_ts; \
	(x)->contextinfo = ci; \
} while (0)

/* What a media message to build must have: the download fields. */
static bool
buildable(const struct wa_msg_media *md)
{
	return md->mimetype != NULL && md->direct_path != NULL &&
	    md->direct_path[0] == '/' && md->media_key != NULL &&
	    md->media_key_len == WA_MSG_MEDIA_KEY_LEN &&
	    md->file_sha256 != NULL &&
	    md->file_sha256_len == WA_MSG_SHA256_LEN &&
	    md->file_enc_sha256 != NULL &&
	    md->file_enc_sha256_len == WA_MSG_SHA256_LEN &&
	    md->waveform_len <= WA_MSG_WAVEFORM_MAX &&
	    md->thumb_len <= WA_MSG_THUMB_MAX;
}

static void
build_visual(const struct wa_msg_media *md, Wae2e__ContextInfo *ci,
    Wae2e__Message *m, Wae2e__Message__ImageMessage *im,
    Wae2e__Message__VideoMessage *vm)
{
	if (md->type == WA_MEDIA_IMAGE) {
		FILL_COMMON(im, md);
		im->caption = (char *)(uintptr_t)md->caption;
		im->has_width = im->has_height = md->width > 0;
		im->width = md->width;
		im->height = md->height;
		im->jpegthumbnail = bin(md->thumb, md->thumb_len,
		    &im->has_jpegthumbnail);
		m->imagemessage = im;
		return;
	}
	FILL_COMMON(vm, md);
	vm->caption = (char *)(uintptr_t)md->caption;
	vm->has_width = vm->has_height = md->width > 0;
	vm->width = md->width;
	vm->height = md->height;
	vm->has_seconds = md->seconds > 0;
	vm->seconds = md->seconds;
	vm->has_gifplayback = md->type == WA_MEDIA_GIF;
	vm->gifplayback = md->type == WA_MEDIA_GIF;
	vm->jpegthumbnail = bin(md->thumb, md->thumb_len,
	    &vm->has_jpegthumbnail);
	if (md->type == WA_MEDIA_PTV)
		m->ptvmessage = vm;
	else
		m->videomessage = vm;
}

static void
build_other(const struct wa_msg_media *md, Wae2e__ContextInfo *ci,
    Wae2e__Message *m, Wae2e__Message__AudioMessage *am,
    Wae2e__Message__DocumentMessage *dm, Wae2e__Message__StickerMessage *sm)
{
	switch (md->type) {
	case WA_MEDIA_AUDIO:
	case WA_MEDIA_PTT:
		FILL_COMMON(am, md);
		am->has_ptt = 1;
		am->ptt = md->type == WA_MEDIA_PTT;
		am->has_seconds = md->seconds > 0;
		am->seconds = md->seconds;
		am->waveform = bin(md->waveform, md->waveform_len,
		    &am->has_waveform);
		m->audiomessage = am;
		break;
	case WA_MEDIA_STICKER:
		FILL_COMMON(sm, md);
		sm->has_width = sm->has_height = md->width > 0;
		sm->width = md->width;
		sm->height = md->height;
		sm->has_isanimated = 1;
		sm->isanimated = md->animated;
		sm->pngthumbnail = bin(md->thumb, md->thumb_len,
		    &sm->has_pngthumbnail);
		m->stickermessage = sm;
		break;
	default:	/* WA_MEDIA_DOCUMENT */
		FILL_COMMON(dm, md);
		dm->caption = (char *)(uintptr_t)md->caption;
		/* [BL] names a document without a name "file" (1.6). */
		dm->filename = (char *)(uintptr_t)(md->file_name != NULL ?
		    md->file_name : "file");
		dm->title = dm->filename;
		dm->has_pagecount = md->pages > 0;
		dm->pagecount = md->pages;
		dm->jpegthumbnail = bin(md->thumb, md->thumb_len,
		    &dm->has_jpegthumbnail);
		m->documentmessage = dm;
		break;
	}
}

int
wa_msg_build_media(const struct wa_msg_media *md,
    const struct wa_msg_text *reply, struct buf *out)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message				 q = WAE2E__MESSAGE__INIT;
	Wae2e__ContextInfo			 cib = WAE2E__CONTEXT_INFO__INIT;
	Wae2e__ContextInfo			*ci = NULL;
	Wae2e__Message__ImageMessage		 im =
	    WAE2E__MESSAGE__IMAGE_MESSAGE__INIT;
	Wae2e__Message__VideoMessage		 vm =
	    WAE2E__MESSAGE__VIDEO_MESSAGE__INIT;
	Wae2e__Message__AudioMessage		 am =
	    WAE2E__MESSAGE__AUDIO_MESSAGE__INIT;
	Wae2e__Message__DocumentMessage		 dm =
	    WAE2E__MESSAGE__DOCUMENT_MESSAGE__INIT;
	Wae2e__Message__StickerMessage		 sm =
	    WAE2E__MESSAGE__STICKER_MESSAGE__INIT;
	size_t					 n;

	if (md == NULL || out == NULL || md->type == WA_MEDIA_NONE ||
	    md->type > WA_MEDIA_STICKER || !buildable(md))
		return -EINVAL;
	if (reply != NULL && reply->forward_score > 0) {
		ci = &cib;
		ci->has_forwardingscore = ci->has_isforwarded = 1;
		ci->forwardingscore = reply->forward_score;
		ci->isforwarded = 1;
	}
	if (reply != NULL && reply->quoted_id != NULL) {
		ci = &cib;
		ci->stanzaid = (char *)(uintptr_t)reply->quoted_id;
		ci->participant = (char *)(uintptr_t)reply->quoted_participant;
		ci->remotejid = (char *)(uintptr_t)reply->quoted_remote_jid;
		if (reply->quoted_text != NULL) {
			q.conversation = (char *)(uintptr_t)reply->quoted_text;
			ci->quotedmessage = &q;
		}
	}
	if (md->type <= WA_MEDIA_PTV)
		build_visual(md, ci, &m, &im, &vm);
	else
		build_other(md, ci, &m, &am, &dm, &sm);
	n = protobuf_c_message_get_packed_size(&m.base);
	buf_reserve(out, n);
	out->len += protobuf_c_message_pack(&m.base, out->p + out->len);
	return 0;
}
