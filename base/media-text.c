/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/media-text.c -- media messages in words (base/media-text.h).
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/media-text.h"
#include "base/sanitize.h"

const char *
media_word(enum ev_media_type t, bool animated)
{
	switch (t) {
	case EV_MEDIA_IMAGE:	return _("Photo");
	case EV_MEDIA_VIDEO:	return _("Video");
	case EV_MEDIA_GIF:	return _("GIF");
	case EV_MEDIA_PTV:	return _("Round video");
	case EV_MEDIA_AUDIO:	return _("Audio");
	case EV_MEDIA_PTT:	return _("Voice message");
	case EV_MEDIA_DOCUMENT:	return _("Document");
	case EV_MEDIA_STICKER:	return animated ? _("Animated sticker") :
				    _("Sticker");
	case EV_MEDIA_NONE:	break;
	}
	return "";
}

const char *
media_name(enum ev_media_type t)
{
	switch (t) {
	case EV_MEDIA_IMAGE:	return "image";
	case EV_MEDIA_VIDEO:	return "video";
	case EV_MEDIA_GIF:	return "gif";
	case EV_MEDIA_PTV:	return "ptv";
	case EV_MEDIA_AUDIO:	return "audio";
	case EV_MEDIA_PTT:	return "ptt";
	case EV_MEDIA_DOCUMENT:	return "document";
	case EV_MEDIA_STICKER:	return "sticker";
	case EV_MEDIA_NONE:	break;
	}
	return "";
}

void
media_size(int64_t bytes, char *out, size_t len)
{
	/* TRANSLATORS: units of a file's size: bytes, kilo-, mega-,
	 * gigabytes (1000-based) */
	const char	*unit[] = { N_("B"), N_("KB"), N_("MB"), N_("GB") };
	double		 v = (double)(bytes > 0 ? bytes : 0);
	size_t		 u = 0;

	while (v >= 1000 && u < 3) {
		v /= 1000;
		u++;
	}
	if (u == 0)
		snprintf(out, len, "%" PRId64 " %s", bytes > 0 ? bytes : 0,
		    _(unit[0]));
	else if (v < 9.95)
		snprintf(out, len, "%.1f %s", v, _(unit[u]));
	else
		snprintf(out, len, "%.0f %s", v, _(unit[u]));
}

const char *
media_dl_words(enum ev_dl_state st)
{
	switch (st) {
	case EV_DL_NONE:
	case EV_DL_DONE:	return "";
	case EV_DL_DOWNLOADING:	return _("downloading");
	case EV_DL_CORRUPT:	return _("corrupt");
	case EV_DL_LENGTH:	return _("corrupt: not the declared length");
	case EV_DL_EXPIRED:	return _("expired");
	case EV_DL_TOOBIG:	return _("too big (max-media-size)");
	case EV_DL_FAILED:	return _("download failed");
	case EV_DL_NO_MEDIA:	return _("nothing to download");
	}
	return "";
}

void
media_duration(uint32_t s, char *out, size_t len)
{
	if (s >= 3600)
		snprintf(out, len, "%u:%02u:%02u", s / 3600, s / 60 % 60,
		    s % 60);
	else
		snprintf(out, len, "%u:%02u", s / 60, s % 60);
}

static void
put(struct buf *out, const char *s)
{
	buf_append(out, s, strlen(s));
}

/* One more part after " · ". */
static void
part(struct buf *out, bool utf8, const char *s)
{
	put(out, utf8 ? " \xc2\xb7 " : " - ");
	put(out, s);
}

void
media_describe(const struct ev_media *m, bool utf8, struct buf *out)
{
	struct buf	 name = BUF_INIT;
	char		 t[64];
	bool		 timed = m->type == EV_MEDIA_VIDEO ||
			    m->type == EV_MEDIA_GIF || m->type == EV_MEDIA_PTV ||
			    m->type == EV_MEDIA_AUDIO || m->type == EV_MEDIA_PTT;

	if (m->type == EV_MEDIA_NONE)
		return;
	put(out, media_word(m->type, m->animated));
	if (timed && m->seconds > 0) {
		media_duration(m->seconds, t, sizeof(t));
		buf_push(out, ' ');
		put(out, t);
	}
	if (m->type == EV_MEDIA_DOCUMENT && m->file_name[0] != '\0') {
		wc_sanitize(m->file_name, strlen(m->file_name), false, &name);
		buf_push(out, ' ');
		buf_append(out, name.p, name.len - 1);
		buf_release(&name);
	}
	if (m->size > 0) {
		media_size(m->size, t, sizeof(t));
		part(out, utf8, t);
	}
	if (m->width > 0 && m->height > 0 && m->type != EV_MEDIA_DOCUMENT &&
	    m->type != EV_MEDIA_AUDIO && m->type != EV_MEDIA_PTT) {
		snprintf(t, sizeof(t), utf8 ? "%u\xc3\x97%u" : "%ux%u",
		    m->width, m->height);
		part(out, utf8, t);
	}
	if (m->type == EV_MEDIA_DOCUMENT && m->pages > 0) {
		snprintf(t, sizeof(t), ngettext("%u page", "%u pages",
		    m->pages), m->pages);
		part(out, utf8, t);
	}
}
