/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/msgs-media.c -- a media row's media kept with it (ui/msgs.h), so
 * that a download's progress and end (EV_MEDIA_DL) redraw its lines:
 * "downloading 42%", then the file's path, or what went wrong.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "ui/media.h"
#include "ui/msgs.h"

static char *
dup_or_empty(const char *s)
{
	return xstrdup(s != NULL ? s : "");
}

void
ui_msgs_media_free(struct ev_media *m)
{
	if (m == NULL)
		return;
	free(m->mimetype);
	free(m->file_name);
	free(m->caption);
	free(m->path);
	free(m->thumb);
	free(m);
}

/* g's lines from g->md. */
static void
render(struct ui_msg *g)
{
	free(g->media);
	free(g->text);
	g->media = ui_media_head(g->md);
	g->text = ui_media_text(g->md, true);
	g->rows_width = 0;
}

void
ui_msgs_media_set(struct ui_msg *g, const struct ev_media *em)
{
	struct ev_media	*m = xcalloc(1, sizeof(*m));

	*m = *em;
	m->mimetype = dup_or_empty(em->mimetype);
	m->file_name = dup_or_empty(em->file_name);
	m->caption = dup_or_empty(em->caption);
	m->path = dup_or_empty(em->path);
	m->thumb = xstrdup("");		/* drawn once, not kept */
	ui_msgs_media_free(g->md);
	g->md = m;
	render(g);
}

void
ui_msgs_media_caption(struct ui_msg *g, const char *caption)
{
	if (g->md == NULL)
		return;
	free(g->md->caption);
	g->md->caption = dup_or_empty(caption);
	render(g);
}

int
ui_msgs_media_dl(struct ui_msgs *m, const struct ev_media_dl *d)
{
	struct ui_msg	*g = NULL;
	size_t		 q;

	if (m->chat == NULL || strcmp(m->chat, d->chat) != 0)
		return -1;
	for (q = 0; q < m->n && g == NULL; q++)	/* not ui_msgs_find(): */
		if (strcmp(m->v[q].id, d->id) == 0)	/* msgs.o calls here */
			g = &m->v[q];
	if (g == NULL || g->md == NULL || g->deleted)
		return -1;
	q--;
	g->md->dl_state = d->state;
	g->md->dl_percent = d->percent;
	free(g->md->path);
	g->md->path = xstrdup(d->state == EV_DL_DONE ? d->path : "");
	render(g);
	return (int)q;
}

const struct ev_media *
ui_msgs_media_of(const struct ui_msgs *m, size_t i)
{
	return i < m->n ? m->v[i].md : NULL;
}
