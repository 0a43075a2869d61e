/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/media-text.h -- a media message (base/event.h struct ev_media) in
 * words, for the message pane, the chat list and the line output: its
 * type ("Photo", "Voice message"), size in human units, dimensions or
 * duration, pages, file name.  In the user's language (gettext); network
 * text (the file name) sanitised (base/sanitize.h).  Pure but for
 * gettext: any thread.
 */
#ifndef WC_MEDIA_TEXT_H
#define WC_MEDIA_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/event.h"

struct buf;

/* The word for media type t in the user's language ("Photo", "Video",
 * "GIF", "Round video" (a ptvMessage), "Voice message", "Animated
 * sticker" when animated), static; "" for EV_MEDIA_NONE. */
const char	*media_word(enum ev_media_type t, bool animated);

/* The English name of t for scripts ("image", "ptt": the stanza's
 * mediatype, protocol-features.md 1.7), static; "" for NONE. */
const char	*media_name(enum ev_media_type t);

/* bytes (>= 0) in human units into out[len]: "512 B", "20 KB", "1.2 MB",
 * "3.4 GB" (1000-based, one decimal below 10). */
void		media_size(int64_t bytes, char *out, size_t len);

/*
 * Where a download stands, in the user's language, static: "" for NONE
 * and DONE (the path says it), "downloading" (the caller adds the
 * percentage), "corrupt", "wrong length", "expired", "too big
 * (max-media-size)", "download failed", "nothing to download".
 */
const char	*media_dl_words(enum ev_dl_state st);

/* s seconds as "0:12", "3:04", "1:02:03" into out[len]. */
void		media_duration(uint32_t s, char *out, size_t len);

/*
 * Append to out (no NUL) the line that names m: its word, then for a
 * voice message, audio, video, GIF or round video its duration when
 * known ("Voice message 0:12", "GIF 0:02"),
 * for a document its file name ("Document report.pdf"), then " · " (" - "
 * when !utf8) and each of size, dimensions ("1600×1200", "x" when !utf8)
 * and page count that is known.  The caption is not in it.  Nothing for
 * EV_MEDIA_NONE.
 */
void		media_describe(const struct ev_media *m, bool utf8,
		    struct buf *out);

#endif
