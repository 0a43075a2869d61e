/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/media.h -- a media message as the message pane and the chat list
 * show it (issue 19): an icon (ASCII in a locale whose codeset is not
 * UTF-8), the words of base/media-text.h, the caption.  Main thread.
 */
#ifndef UI_MEDIA_H
#define UI_MEDIA_H

#include <stdbool.h>

#include "base/event.h"

/* The locale's codeset is UTF-8 (nl_langinfo(CODESET)). */
bool	ui_media_utf8(void);

/* The icon of type t: a pictograph, or "[IMG]"-like ASCII when !utf8;
 * static. */
const char *ui_media_icon(enum ev_media_type t, bool utf8);

/*
 * The text of a media row, sanitised, in a new string the caller frees:
 * "<icon> <words>" (base/media-text.h media_describe()), then, when the
 * file is downloaded, a line with its local path, then the caption's
 * lines (multiline) or the caption after a space (!multiline).
 */
char	*ui_media_text(const struct ev_media *m, bool multiline);

/* The lines of ui_media_text() before the caption, in a new string. */
char	*ui_media_head(const struct ev_media *m);

/* The chat list's preview of a media message of type t whose stored
 * text is text (its caption, after a document's file name): "<icon>
 * <word> <text's first line>", sanitised, new. */
char	*ui_media_preview(enum ev_media_type t, const char *text);

#endif
