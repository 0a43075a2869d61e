/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-media.c -- the selected message's media (ui/view-int.h; issue
 * 19): downloaded (CMD_MEDIA_GET), opened with open-command once it is
 * (downloaded first when it is not), or copied elsewhere through a path
 * prompt, never over a file; a download's progress and end
 * (EV_MEDIA_DL) on the message's line, and its end on the line over
 * the input.  A view-once row (protocol-features.md 3.4) is opened once
 * (its file in a temp file the engine side picks and removes), never
 * downloaded or saved.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/media-text.h"
#include "base/rich.h"
#include "base/sanitize.h"
#include "base/buf.h"
#include "base/xmalloc.h"
#include "ui/msgs.h"
#include "ui/view-int.h"

#define LINE_MAX_BYTES	1024

static int
cols_of(const struct ui_view *v)
{
	return v->msgs.width > 20 ? v->msgs.width : 60;
}

/* The selected row and its media, or NULL (said in the note). */
static const struct ev_media *
selected(struct ui_view *v, struct ui_msg **g)
{
	const struct ev_media	*md;

	if (v->msgs.sel < 0 || v->msgs.sel >= (int)v->msgs.n) {
		ui_view_note(v, _("select a message first (Up)"));
		return NULL;
	}
	*g = &v->msgs.v[v->msgs.sel];
	if ((md = ui_msgs_media_of(&v->msgs, (size_t)v->msgs.sel)) == NULL ||
	    (*g)->deleted) {
		ui_view_note(v, _("this message has no file"));
		return NULL;
	}
	return md;
}

/* Whether the selected row is a view-once record (base/rich.h): 0 not, 1
 * not opened yet, 2 opened (protocol-features.md 3.4). */
static int
view_once(const struct ui_view *v, struct ui_msg **g)
{
	struct rich	 r;
	int		 once = 0;

	if (v->msgs.sel < 0 || v->msgs.sel >= (int)v->msgs.n)
		return 0;
	*g = &v->msgs.v[v->msgs.sel];
	if ((*g)->rich == NULL || (*g)->deleted ||
	    rich_parse((*g)->rich, strlen((*g)->rich), &r) != 0)
		return 0;
	if (r.type == RICH_VIEWONCE)
		once = rich_get(&r, "opened", NULL) != NULL ? 2 : 1;
	rich_release(&r);
	return once;
}

/* A view-once row is never saved: said, true. */
static bool
no_save(struct ui_view *v)
{
	struct ui_msg	*g;

	if (view_once(v, &g) == 0)
		return false;
	ui_view_note(v, _("a view-once message cannot be saved"));
	return true;
}

/* Downloaded as the store says (the file may have gone since). */
static bool
said_done(const struct ev_media *md)
{
	return md->dl_state == EV_DL_DONE && md->path[0] != '\0';
}

/* Downloaded and still there: a file of the size it had. */
static bool
have_file(const struct ev_media *md)
{
	struct stat	 st;

	return said_done(md) && stat(md->path, &st) == 0 &&
	    S_ISREG(st.st_mode) && (md->size <= 0 ||
	    (int64_t)st.st_size == md->size);
}

/* Say "s PATH" with the path cut to fit. */
static void
note_path(struct ui_view *v, const char *fmt, const char *path)
{
	char		 line[LINE_MAX_BYTES];
	struct buf	 clean = BUF_INIT;

	wc_sanitize(path, strlen(path), false, &clean);
	ui_view_note(v, ui_view_with_name(line, sizeof(line), cols_of(v),
	    fmt, (const char *)clean.p));
	buf_release(&clean);
}

static void
ask(struct ui_view *v, const struct ui_msg *g)
{
	struct cmd	*c = cmd_new_chat(CMD_MEDIA_GET, v->msgs.chat);

	ev_set(&c->u.media_get.id, g->id);
	ui_view_push(v, c);
}

void
ui_view_media_get(struct ui_view *v)
{
	const struct ev_media	*md;
	struct ui_msg		*g;

	if (no_save(v) || (md = selected(v, &g)) == NULL)
		return;
	if (have_file(md)) {
		note_path(v, _("downloaded: %s"), md->path);
		return;
	}
	if (md->dl_state == EV_DL_DOWNLOADING) {
		ui_view_note(v, _("downloading..."));
		return;
	}
	ask(v, g);
	ui_view_note(v, _("downloading..."));
}

static void
open_path(struct ui_view *v, const char *path)
{
	char	 why[256];
	int	 rc;

	if (v->o.open_media == NULL) {
		note_path(v, _("no program opens files here (open-command): "
		    "%s"), path);
		return;
	}
	if ((rc = v->o.open_media(v->o.notify_arg, path)) != 0) {
		snprintf(why, sizeof(why), _("open-command failed: %s"),
		    wc_strerror(rc));
		ui_view_note(v, why);
		return;
	}
	note_path(v, _("opening %s"), path);
}

void
ui_view_media_open(struct ui_view *v)
{
	const struct ev_media	*md;
	struct ui_msg		*g;
	int			 once = view_once(v, &g);

	if (once == 2) {
		ui_view_note(v, _("a view-once message opens once: already "
		    "opened"));
		return;
	}
	if (once == 1) {	/* into a temp file of its own (src/) */
		free(v->media_open_id);
		v->media_open_id = xstrdup(g->id);
		v->media_open_photo = strstr(g->rich, "\nmedia=image") != NULL;
		ask(v, g);
		ui_view_note(v, _("downloading, then opening..."));
		return;
	}
	if ((md = selected(v, &g)) == NULL)
		return;
	if (have_file(md)) {
		open_path(v, md->path);
		return;
	}
	free(v->media_open_id);
	v->media_open_id = xstrdup(g->id);	/* opened once it is here */
	if (md->dl_state != EV_DL_DOWNLOADING)
		ask(v, g);
	ui_view_note(v, _("downloading, then opening..."));
}

void
ui_view_media_save(struct ui_view *v)
{
	const struct ev_media	*md;
	struct ui_msg		*g;

	if (no_save(v) || (md = selected(v, &g)) == NULL)
		return;
	if (!have_file(md)) {
		ui_view_note(v, said_done(md) ? _("the file is gone from "
		    "the disk: Alt-w downloads it again") :
		    _("download the file first"));
		return;
	}
	if (v->o.save_media == NULL) {
		ui_view_note(v, _("cannot save files here"));
		return;
	}
	free(v->prompt.save_from);
	v->prompt.save_from = xstrdup(md->path);
	ui_view_prompt_start(v, PROMPT_SAVE_MEDIA);
}

void
ui_view_media_take_save(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;
	int			 rc;

	if (p->in.text[0] == '\0' || p->save_from == NULL) {
		p->err = _("type where to save it");
		return;
	}
	rc = v->o.save_media(v->o.notify_arg, p->save_from, p->in.text);
	if (rc == -EEXIST) {
		p->err = _("a file of that name is there: not replaced");
		return;
	}
	if (rc != 0) {
		p->err = _("cannot save the file there");
		return;
	}
	note_path(v, _("saved as %s"), p->in.text);
	free(p->save_from);
	p->save_from = NULL;
	p->kind = PROMPT_NONE;
}

/* A view-once photo's file at path, without open-command: read, removed
 * at once (it is no longer needed) and shown until a key. */
static void
show_once(struct ui_view *v, const char *path)
{
	struct buf	 b = BUF_INIT;
	char		 chunk[65536];
	size_t		 n;
	FILE		*f = fopen(path, "rb");

	while (f != NULL && b.len <= UI_THUMB_BYTES_MAX &&
	    (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	if (f != NULL)
		fclose(f);
	(void)remove(path);
	ui_thumb_free(v->once_img);
	v->once_img = ui_thumb_new(b.p, b.len);
	buf_release(&b);
	ui_view_note(v, v->once_img != NULL ? _("a view-once photo: any key "
	    "closes it") : _("the view-once photo cannot be shown here"));
}

/* The end of a download, on the line over the input. */
static void
say_end(struct ui_view *v, const struct ev_media_dl *d)
{
	if (d->state == EV_DL_DONE)
		note_path(v, _("downloaded: %s"), d->path);
	else
		ui_view_note(v, media_dl_words(d->state));
}

void
ui_view_media_event(struct ui_view *v, const struct ev_media_dl *d)
{
	bool	 mine = v->media_open_id != NULL &&
		    strcmp(v->media_open_id, d->id) == 0;

	(void)ui_msgs_media_dl(&v->msgs, d);
	if (d->state == EV_DL_DOWNLOADING)
		return;
	if (mine) {
		free(v->media_open_id);
		v->media_open_id = NULL;
	}
	if (ui_view_is_open(v, d->chat) || mine)
		say_end(v, d);
	if (mine && d->state == EV_DL_DONE && v->media_open_photo &&
	    v->o.open_media == NULL)
		show_once(v, d->path);
	else if (mine && d->state == EV_DL_DONE)
		open_path(v, d->path);
	if (mine)
		v->media_open_photo = false;
}

bool
ui_view_media_once_on(const struct ui_view *v)
{
	return v->once_img != NULL;
}

bool
ui_view_media_once_key(struct ui_view *v, int k, int a, int64_t now)
{
	(void)a;
	(void)now;
	if (k >= UI_KEY_FN && k < UI_KEY_ALT)
		return true;	/* a resize, the mouse, the focus: kept */
	ui_thumb_free(v->once_img);	/* gone: it opens once */
	v->once_img = NULL;
	ui_view_note(v, "");
	return true;
}

void
ui_view_media_once_draw(struct ui_view *v, int y, int x, int h, int w)
{
	int	 rows = ui_thumb_rows(v->once_img, w, h, v->msgs.thumb_colours),
		 i;

	for (i = 0; i < rows; i++)
		ui_thumb_draw_row(v->once_img, i, y + i, x);
}
