/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/media.c -- media rows in words (ui/media.h).
 */
#include "base/compat.h"

#include <langinfo.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/media-text.h"
#include "base/sanitize.h"
#include "ui/media.h"

bool
ui_media_utf8(void)
{
	const char	*cs = nl_langinfo(CODESET);

	return cs != NULL && (strcmp(cs, "UTF-8") == 0 ||
	    strcmp(cs, "utf8") == 0);
}

const char *
ui_media_icon(enum ev_media_type t, bool utf8)
{
	switch (t) {
	case EV_MEDIA_IMAGE:	return utf8 ? "\xf0\x9f\x93\xb7" : "[IMG]";
	case EV_MEDIA_VIDEO:	return utf8 ? "\xf0\x9f\x8e\xac" : "[VID]";
	case EV_MEDIA_GIF:	return utf8 ? "\xf0\x9f\x8e\xa6" : "[GIF]";
	case EV_MEDIA_PTV:	return utf8 ? "\xf0\x9f\x8e\xa5" : "[VID]";
	case EV_MEDIA_AUDIO:	return utf8 ? "\xf0\x9f\x8e\xb5" : "[AUD]";
	case EV_MEDIA_PTT:	return utf8 ? "\xf0\x9f\x8e\xa4" : "[MIC]";
	case EV_MEDIA_DOCUMENT:	return utf8 ? "\xf0\x9f\x93\x84" : "[DOC]";
	case EV_MEDIA_STICKER:	return utf8 ? "\xf0\x9f\x8c\x9f" : "[STK]";
	case EV_MEDIA_NONE:	break;
	}
	return "";
}

static void
put(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

/* The icon, words and local path of m into b (no NUL). */
static void
head(const struct ev_media *m, bool multiline, struct buf *b)
{
	struct buf	 clean = BUF_INIT;
	bool		 utf8 = ui_media_utf8();

	put(b, ui_media_icon(m->type, utf8));
	buf_push(b, ' ');
	media_describe(m, utf8, b);
	if (m->dl_state == EV_DL_DONE && m->path[0] != '\0') {
		buf_push(b, multiline ? '\n' : ' ');
		wc_sanitize(m->path, strlen(m->path), false, &clean);
		buf_append(b, clean.p, clean.len - 1);
	} else if (m->dl_state != EV_DL_NONE && m->dl_state != EV_DL_DONE) {
		char	 pc[16];

		buf_push(b, multiline ? '\n' : ' ');
		put(b, media_dl_words(m->dl_state));
		if (m->dl_state == EV_DL_DOWNLOADING) {
			snprintf(pc, sizeof(pc), " %u%%", m->dl_percent > 100 ?
			    100u : m->dl_percent);
			put(b, pc);
		}
	}
	buf_release(&clean);
}

char *
ui_media_head(const struct ev_media *m)
{
	struct buf	 b = BUF_INIT;

	head(m, true, &b);
	buf_push(&b, '\0');
	return (char *)b.p;
}

char *
ui_media_text(const struct ev_media *m, bool multiline)
{
	struct buf	 b = BUF_INIT, clean = BUF_INIT;

	head(m, multiline, &b);
	if (m->caption[0] != '\0') {
		buf_push(&b, multiline ? '\n' : ' ');
		wc_sanitize(m->caption, strlen(m->caption), multiline, &clean);
		buf_append(&b, clean.p, clean.len - 1);
	}
	buf_release(&clean);
	buf_push(&b, '\0');
	return (char *)b.p;
}

char *
ui_media_preview(enum ev_media_type t, const char *text)
{
	struct buf	 b = BUF_INIT, clean = BUF_INIT;

	put(&b, ui_media_icon(t, ui_media_utf8()));
	buf_push(&b, ' ');
	put(&b, media_word(t, false));
	if (text != NULL && text[0] != '\0') {
		buf_push(&b, ' ');
		wc_sanitize(text, strcspn(text, "\n"), false, &clean);
		buf_append(&b, clean.p, clean.len - 1);
		buf_release(&clean);
	}
	buf_push(&b, '\0');
	return (char *)b.p;
}
