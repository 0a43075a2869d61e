/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-media.c -- media in wachat history and export (src/cli-media.h).
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/event.h"
#include "base/media-text.h"
#include "base/rich.h"
#include "src/app-media.h"
#include "src/cli-media.h"
#include "src/cli-out.h"
#include "store/store.h"

static const char *
dl_name(enum ev_dl_state d)
{
	switch (d) {
	case EV_DL_NONE:	return "none";
	case EV_DL_DOWNLOADING:	return "downloading";
	case EV_DL_DONE:	return "done";
	case EV_DL_FAILED:	return "failed";
	case EV_DL_CORRUPT:	return "corrupt";
	case EV_DL_EXPIRED:	return "expired";
	case EV_DL_LENGTH:
	case EV_DL_TOOBIG:
	case EV_DL_NO_MEDIA:	break;	/* not stored */
	}
	return "none";
}

static void
put_json(const struct ev_media *e, struct buf *line)
{
	cli_put(line, ",\"media\":{\"type\":\"");
	cli_put(line, media_name(e->type));
	cli_put(line, "\"");
	cli_json_s(line, "mimetype", e->mimetype);
	cli_putf(line, ",\"size\":%lld,\"width\":%u,\"height\":%u,"
	    "\"seconds\":%u,\"pages\":%u,\"animated\":%s", (long long)e->size,
	    e->width, e->height, e->seconds, e->pages, e->animated ? "true" :
	    "false");
	cli_json_s(line, "file_name", e->file_name);
	cli_json_s(line, "caption", e->caption);
	cli_json_s(line, "download", dl_name(e->dl_state));
	cli_json_s(line, "path", e->path);
	cli_put(line, "}");
}

static void
put_text(const struct ev_media *e, size_t indent, struct buf *line)
{
	struct buf	 words = BUF_INIT;

	media_describe(e, false, &words);
	cli_put(line, "[");
	cli_put_text(line, (const char *)words.p, words.len);
	cli_put(line, "]");
	buf_release(&words);
	if (e->dl_state == EV_DL_DONE && e->path[0] != '\0') {
		cli_put(line, " (file: ");
		cli_put_text(line, e->path, strlen(e->path));
		cli_put(line, ")");
	}
	if (e->caption[0] != '\0') {
		cli_put(line, " ");
		cli_put_lines(line, e->caption, strlen(e->caption), indent);
	}
}

const char *
cli_kind_name(enum store_msg_kind k)
{
	switch (k) {
	case STORE_MSG_TEXT:
		return "text";
	case STORE_MSG_MEDIA:
		return "media";
	case STORE_MSG_NOTICE:
		return "notice";
	case STORE_MSG_UNSUPPORTED:
		return "unsupported";
	case STORE_MSG_PLACEHOLDER:
		return "placeholder";
	case STORE_MSG_HIDDEN:
		return "hidden";
	case STORE_MSG_RICH:
		return "rich";
	}
	return "unsupported";
}

bool
cli_media(struct store *s, const struct store_msg *m, bool json,
    size_t indent, struct buf *line)
{
	struct store_media	 md;
	struct ev_media		 e;

	if (store_media_get(s, m->chat, m->from_me, m->id, &md) != 1)
		return false;
	memset(&e, 0, sizeof(e));
	app_media_ev_of_store(&md, &e);
	store_media_release(&md);
	if (json)
		put_json(&e, line);
	else
		put_text(&e, indent, line);
	free(e.mimetype);
	free(e.file_name);
	free(e.caption);
	free(e.path);
	return true;
}

/* The rich row m as JSON: its words as text, its fields. */
static void
rich_json(const struct store_msg *m, const struct rich *r, struct buf *line)
{
	static const char *const types[] = { "other", "location", "live",
		"contacts", "preview", "viewonce", "other", "poll" };
	struct buf	 w = BUF_INIT;
	size_t		 i;

	(void)rich_describe(m->text, m->text_len, false, true, &w);
	cli_json_str(line, "text", w.p != NULL ? (const char *)w.p : "",
	    w.len);
	buf_release(&w);
	cli_put(line, ",\"rich\":{\"type\":\"");
	cli_put(line, types[r->type <= RICH_POLL ? r->type : 0]);
	cli_put(line, "\",\"fields\":[");
	for (i = 0; i < r->n; i++) {
		if (strcmp(r->kv[i].key, "thumb") == 0)
			continue;	/* bytes, not words */
		cli_put(line, i > 0 ? ",[\"" : "[\"");
		(void)cli_json_chars(line, r->kv[i].key, strlen(r->kv[i].key));
		cli_put(line, "\",\"");
		(void)cli_json_chars(line, r->kv[i].val, strlen(r->kv[i].val));
		cli_put(line, "\"]");
	}
	cli_put(line, "]}");
}

bool
cli_media_or_rich(struct store *s, const struct store_msg *m, bool json,
    size_t indent, struct buf *line)
{
	struct rich	 r;
	struct buf	 w = BUF_INIT;

	if (m->kind == STORE_MSG_MEDIA)
		return cli_media(s, m, json, indent, line);
	if (m->kind != STORE_MSG_RICH || m->deleted ||
	    rich_parse(m->text, m->text_len, &r) != 0)
		return false;
	if (json)
		rich_json(m, &r, line);
	else {
		(void)rich_describe(m->text, m->text_len, false, true, &w);
		cli_put_lines(line, w.p != NULL ? (const char *)w.p : "", w.len,
		    indent);
		buf_release(&w);
	}
	rich_release(&r);
	return true;
}
