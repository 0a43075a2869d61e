/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-media.h -- a media message in the output of wachat history and
 * wachat export (src/cli.c; doc/wachat.1): its words, the caption, the
 * local file once downloaded; in JSON a "media" object.  Main thread.
 */
#ifndef WC_CLI_MEDIA_H
#define WC_CLI_MEDIA_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

struct buf;

/* The name of a row's kind in the JSON output ("text", "media",
 * "notice", ...), static. */
const char	*cli_kind_name(enum store_msg_kind k);

/*
 * Append to line the media of row m (kind STORE_MSG_MEDIA), read from s:
 * as text "[Photo - 1.2 MB - 1600x1200] " (base/media-text.h, ASCII
 * separators), "(file: PATH) " once downloaded, then the caption with its
 * lines after the first indented by indent columns; as JSON (json) the
 * member ,"media":{type, mimetype, size, width, height, seconds, pages,
 * file_name, caption, download, path}.  Returns true, or false (nothing
 * appended) when m has no media row (stored before migration 15) or it
 * cannot be read.
 */
bool	cli_media(struct store *s, const struct store_msg *m, bool json,
	    size_t indent, struct buf *line);

/*
 * cli_media() for a row of kind STORE_MSG_MEDIA; for one of kind
 * STORE_MSG_RICH (base/rich.h: a location, contact cards, view-once
 * media, a link preview, another kind not shown) its words
 * (rich_describe(), ASCII, with the OpenStreetMap link), lines after
 * the first indented by indent columns; as JSON ,"text":"WORDS",
 * "rich":{"type":"location","fields":[["lat","52.5"],...]} (the record's
 * fields in order; a view-once row's say its media type only, never a
 * path or content).  Returns true when it appended, false for another
 * kind (or media without a media row).
 */
bool	cli_media_or_rich(struct store *s, const struct store_msg *m,
	    bool json, size_t indent, struct buf *line);

#endif
