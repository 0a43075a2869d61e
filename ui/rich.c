/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/rich.c -- a rich row in the pane and the chat list (ui/rich.h). */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hex.h"
#include "base/jid.h"
#include "base/rich.h"
#include "base/xmalloc.h"
#include "ui/media.h"
#include "ui/rich.h"
#include "ui/thumb.h"

char *
ui_rich_text(const char *rec)
{
	struct buf	 b = BUF_INIT;
	const char	*w;

	if (rich_describe(rec, strlen(rec), ui_media_utf8(), true, &b) != 0) {
		w = rich_other_words(0);
		buf_append(&b, w, strlen(w));
	}
	buf_push(&b, '\0');
	return (char *)b.p;
}

struct ui_thumb *
ui_rich_thumb(const char *rec)
{
	struct rich	 r;
	const char	*h;
	struct ui_thumb	*t = NULL;

	if (rich_parse(rec, strlen(rec), &r) != 0)
		return NULL;
	if (r.type == RICH_PREVIEW && (h = rich_get(&r, "thumb", NULL)) !=
	    NULL && strlen(h) / 2 <= RICH_THUMB_MAX)
		t = ui_thumb_new_hex(h);
	rich_release(&r);
	return t;
}

char *
ui_rich_preview(const char *rec)
{
	struct buf	 b = BUF_INIT;

	if (rich_summary(rec, strlen(rec), &b) != 0) {
		buf_release(&b);
		return NULL;
	}
	buf_push(&b, '\0');
	return (char *)b.p;
}

int
ui_rich_card_jid(const char *rec, size_t i, char *jid, size_t size,
    size_t *n)
{
	struct rich	 r;
	char		 d[32];
	size_t		 len;
	int		 ok = 0;

	if (n != NULL)
		*n = 0;
	if (rich_parse(rec, strlen(rec), &r) != 0)
		return 0;
	if (n != NULL)
		*n = rich_numbers(&r);
	if (rich_number(&r, i, d, sizeof(d)) && (len = strlen(d)) >= 5 &&
	    len <= 20 && d[0] != '0' && size >= JID_MAX)
		ok = jid_from_phone(d, len, jid, size) ? 1 : 0;
	rich_release(&r);
	return ok;
}
