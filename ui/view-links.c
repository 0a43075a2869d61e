/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-links.c -- the selected message as text to take elsewhere
 * (ui/view-int.h): copied to the clipboard through the terminal (OSC 52,
 * ui/term.h), which works over SSH and through tmux (`set-clipboard
 * on`), the note saying what was copied; its link opened
 * (link-open-command).
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/xmalloc.h"
#include "ui/term.h"
#include "ui/view-int.h"

#define PREVIEW_MAX	200	/* bytes of the text the note shows */

/* The selected message, or NULL (said in the note). */
static struct ui_msg *
selected(struct ui_view *v)
{
	if (v->msgs.sel < 0 || v->msgs.sel >= (int)v->msgs.n) {
		ui_view_note(v, _("select a message first (Up)"));
		return NULL;
	}
	return &v->msgs.v[v->msgs.sel];
}

/* The start of t (its first line, PREVIEW_MAX bytes at most, cut at a
 * character), and "…" when that is not all of it, into out[size]. */
static void
preview(const char *t, char *out, size_t size)
{
	size_t	 n = strcspn(t, "\n");
	bool	 cut = t[n] != '\0';

	if (n > PREVIEW_MAX) {
		n = PREVIEW_MAX;
		while (n > 0 && ((unsigned char)t[n] & 0xc0) == 0x80)
			n--;
		cut = true;
	}
	snprintf(out, size, "%.*s%s", (int)n, t, cut ? "\xe2\x80\xa6" : "");
}

void
ui_view_links_copy(struct ui_view *v)
{
	struct ui_msg	*g;
	const char	*t;
	char		 start[PREVIEW_MAX + 8], line[512];
	size_t		 len, put;
	int		 cols = v->msgs.width > 20 ? v->msgs.width : 60;

	if ((g = selected(v)) == NULL)
		return;
	if (!v->o.clipboard) {
		ui_view_note(v, _("copying is off (clipboard = no in "
		    "wachat.conf)"));
		return;
	}
	t = g->deleted ? "" : ui_msgs_text(&v->msgs, (size_t)v->msgs.sel);
	if ((len = strlen(t)) == 0) {
		ui_view_note(v, _("this message has no text to copy"));
		return;
	}
	put = ui_term_osc52(&v->term_out, t, len);
	preview(t, start, sizeof(start));
	ui_view_note(v, ui_view_with_name(line, sizeof(line), cols,
	    put < len ? _("copied the first 64 KiB to the clipboard: %s") :
	    _("copied to the clipboard: %s"), start));
}

void
ui_view_links_open(struct ui_view *v)
{
	struct ui_msg	*g;
	const char	*t;
	char		 url[UI_TERM_URL_MAX + 1], line[512];
	size_t		 len, from, off, n;
	int		 cols = v->msgs.width > 20 ? v->msgs.width : 60;

	if ((g = selected(v)) == NULL)
		return;
	t = g->deleted ? "" : ui_msgs_text(&v->msgs, (size_t)v->msgs.sel);
	len = strlen(t);
	/* by id: a row that came as an event has no rowid yet */
	from = v->link_id != NULL && strcmp(g->id, v->link_id) == 0 ?
	    v->link_next : 0;
	if (!ui_term_next_url(t, len, from, &off, &n) &&
	    (from == 0 || !ui_term_next_url(t, len, 0, &off, &n))) {
		ui_view_note(v, _("this message has no link"));
		return;
	}
	/* the next press opens the next link, then the first again */
	free(v->link_id);
	v->link_id = xstrdup(g->id);
	v->link_next = off + n;
	memcpy(url, t + off, n);
	url[n] = '\0';
	if (v->o.open_link == NULL) {
		ui_view_note(v, _("no program opens links here: set "
		    "link-open-command in wachat.conf"));
		return;
	}
	v->o.open_link(v->o.notify_arg, url);
	ui_view_note(v, ui_view_with_name(line, sizeof(line), cols,
	    _("opening %s"), url));
}
