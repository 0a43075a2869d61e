/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-media.c -- media metadata between the engine, the store and the
 * UI (src/app-media.h).
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "src/app-media.h"
#include "base/buf.h"
#include "base/hex.h"
#include "base/xmalloc.h"

_Static_assert((int)WA_MEDIA_IMAGE == (int)STORE_MEDIA_IMAGE &&
    (int)WA_MEDIA_STICKER == (int)STORE_MEDIA_STICKER &&
    (int)WA_MEDIA_STICKER == (int)EV_MEDIA_STICKER &&
    (int)WA_MEDIA_PTT == (int)EV_MEDIA_PTT &&
    (int)STORE_DL_EXPIRED == (int)EV_DL_EXPIRED,
    "the media numbers differ");
_Static_assert(WA_MSG_THUMB_MAX <= STORE_MEDIA_THUMB_MAX &&
    WA_MSG_WAVEFORM_MAX <= STORE_MEDIA_BLOB_MAX &&
    WA_MSG_MEDIA_KEY_LEN <= STORE_MEDIA_BLOB_MAX,
    "what the engine keeps, the store takes");

/* s when within max bytes, else NULL (the store would refuse the whole
 * message: a hostile length drops the field, not the message). */
static const char *
within(const char *s, size_t max)
{
	return s != NULL && strlen(s) <= max ? s : NULL;
}

void
app_media_store(const struct wa_msg_media *w, struct store_media *out)
{
	memset(out, 0, sizeof(*out));
	if (w->type >= WA_MEDIA_IMAGE && w->type <= WA_MEDIA_STICKER)
		out->type = (enum store_media_type)w->type;
	out->animated = w->animated;
	out->mimetype = (char *)within(w->mimetype, STORE_MEDIA_STR_MAX);
	out->size = w->file_length <= INT64_MAX ? (int64_t)w->file_length : 0;
	out->width = w->width;
	out->height = w->height;
	out->seconds = w->seconds;
	out->pages = w->pages;
	out->caption = (char *)within(w->caption, STORE_MSG_TEXT_MAX);
	out->file_name = (char *)within(w->file_name, STORE_MEDIA_STR_MAX);
	out->thumb = w->thumb;
	out->thumb_len = w->thumb_len;
	out->waveform = w->waveform;
	out->waveform_len = w->waveform_len;
	out->media_key = w->media_key;
	out->media_key_len = w->media_key_len;
	out->direct_path = (char *)within(w->direct_path, STORE_MEDIA_STR_MAX);
	out->url = (char *)within(w->url, STORE_MEDIA_STR_MAX);
	out->file_sha256 = w->file_sha256;
	out->file_sha256_len = w->file_sha256_len;
	out->file_enc_sha256 = w->file_enc_sha256;
	out->file_enc_sha256_len = w->file_enc_sha256_len;
	out->key_ts = w->media_key_ts;
}

char *
app_media_text(const struct wa_msg_media *w)
{
	struct buf	 b = BUF_INIT;
	const char	*cap = w->caption != NULL ? w->caption : "";

	if (w->type == WA_MEDIA_DOCUMENT && w->file_name != NULL &&
	    w->file_name[0] != '\0') {
		buf_append(&b, w->file_name, strlen(w->file_name));
		if (cap[0] != '\0')
			buf_push(&b, '\n');
	}
	buf_append(&b, cap, strlen(cap));
	buf_push(&b, '\0');
	return (char *)b.p;
}

/* The thumbnail p[0..len) as the event carries it: hex, "" none. */
static void
thumb_hex(const uint8_t *p, size_t len, char **slot)
{
	struct buf	 b = BUF_INIT;

	if (p != NULL && len > 0)
		hex_append(&b, p, len);
	buf_push(&b, '\0');
	free(*slot);
	*slot = (char *)b.p;
}

void
app_media_ev_of_msg(const struct wa_msg_media *w, struct ev_media *em)
{
	em->type = w->type >= WA_MEDIA_IMAGE && w->type <= WA_MEDIA_STICKER ?
	    (enum ev_media_type)w->type : EV_MEDIA_NONE;
	em->animated = w->animated;
	em->size = w->file_length <= INT64_MAX ? (int64_t)w->file_length : 0;
	em->width = w->width;
	em->height = w->height;
	em->seconds = w->seconds;
	em->pages = w->pages;
	ev_set(&em->mimetype, w->mimetype != NULL ? w->mimetype : "");
	ev_set(&em->file_name, w->file_name != NULL ? w->file_name : "");
	ev_set(&em->caption, w->caption != NULL ? w->caption : "");
	em->dl_state = EV_DL_NONE;
	ev_set(&em->path, "");
	thumb_hex(w->thumb, w->thumb_len, &em->thumb);
}

void
app_media_ev_of_store(const struct store_media *m, struct ev_media *em)
{
	em->type = m->type >= STORE_MEDIA_IMAGE &&
	    m->type <= STORE_MEDIA_STICKER ? (enum ev_media_type)m->type :
	    EV_MEDIA_NONE;
	em->animated = m->animated;
	em->size = m->size;
	em->width = m->width;
	em->height = m->height;
	em->seconds = m->seconds;
	em->pages = m->pages;
	ev_set(&em->mimetype, m->mimetype);
	ev_set(&em->file_name, m->file_name);
	ev_set(&em->caption, m->caption);
	em->dl_state = (enum ev_dl_state)m->dl_state;
	ev_set(&em->path, m->path);
	thumb_hex(m->thumb, m->thumb_len, &em->thumb);
}

void
app_media_wire(const struct store_media *m, struct wa_msg_media *md)
{
	memset(md, 0, sizeof(*md));
	md->type = (enum wa_msg_media_type)m->type;
	md->animated = m->animated;
	md->mimetype = m->mimetype;
	md->file_length = m->size > 0 ? (uint64_t)m->size : 0;
	md->width = m->width;
	md->height = m->height;
	md->seconds = m->seconds;
	md->pages = m->pages;
	md->caption = m->caption[0] != '\0' ? m->caption : NULL;
	md->file_name = m->file_name[0] != '\0' ? m->file_name : NULL;
	md->thumb = m->thumb;
	md->thumb_len = m->thumb_len;
	md->waveform = m->waveform;
	md->waveform_len = m->waveform_len;
	md->media_key = m->media_key;
	md->media_key_len = m->media_key_len;
	md->direct_path = m->direct_path;
	md->url = m->url;
	md->file_sha256 = m->file_sha256;
	md->file_sha256_len = m->file_sha256_len;
	md->file_enc_sha256 = m->file_enc_sha256;
	md->file_enc_sha256_len = m->file_enc_sha256_len;
	md->media_key_ts = m->key_ts;
}
