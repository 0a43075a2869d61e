/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-panes.c -- what the chat screen draws in the message pane's
 * place (ui/view-int.h): the open group's info (subject, description,
 * members with their roles, the keys) and the search (its title with the
 * filters taken, the hits two rows each with their match highlighted, or
 * what is instead), the chat picker's entries and the members offered
 * for a mention (ui/view-pick.c), and ui_view_put(), the string drawer it and
 * ui/view-draw.c share.  It never calls ui/view-draw.c.  Main thread
 * (curses).
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "ui/text.h"
#include "ui/thumb.h"
#include "ui/view-int.h"

/* One member's row of the group info: name in their colour, number,
 * creator or admin; we are "You" with our push name (own_name, or NULL),
 * no number. */
static void
draw_member(const struct ui_member *m, const char *own_name, int y, int x,
    int w, bool sel)
{
	struct buf	 b = BUF_INIT;
	attr_t		 hl = A_BOLD;
	int		 used;

	if (sel)
		attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	if (has_colors())
		hl |= COLOR_PAIR(UI_GROUP_PAIR0 + (int)ui_group_colour(m->jid));
	attron(hl);
	used = 1 + ui_view_put(y, x + 1, m->is_me ? _("You") : m->shown,
	    w - 1);
	attroff(hl);
	if (m->is_me && own_name != NULL && own_name[0] != '\0') {
		buf_append(&b, "  ", 2);
		buf_append(&b, own_name, strlen(own_name));
	} else if (!m->is_me && m->name[0] != '\0') {
		buf_append(&b, "  ", 2);
		ui_group_name(NULL, m->jid, NULL, &b);
		b.len--;	/* its NUL */
	}
	if (m->role == UI_GROUP_CREATOR || m->role == UI_GROUP_ADMIN) {
		const char	*r = m->role == UI_GROUP_CREATOR ?
		    _("creator") : _("admin");

		buf_append(&b, "  ", 2);
		buf_append(&b, r, strlen(r));
	}
	buf_push(&b, '\0');
	attron(A_DIM);
	(void)ui_view_put(y, x + used, (char *)b.p, w - used);
	attroff(A_DIM);
	if (sel)
		attroff(A_REVERSE);
	buf_release(&b);
}

/* The group's subject, description (up to 3 rows) and member count from
 * row y, above row end, w columns.  Returns the next row. */
static int
draw_info_head(const struct ui_group *g, int y, int end, int x, int w)
{
	struct ui_line	 dl[3];
	char		 line[256];
	int		 row = y, i, nd;

	attron(A_BOLD);
	(void)ui_view_put(row++, x, g->subject, w);
	attroff(A_BOLD);
	nd = ui_text_wrap(g->desc, strlen(g->desc), w, dl, 3);
	attron(A_DIM);
	for (i = 0; g->desc[0] != '\0' && i < nd && i < 3 && row < end; i++)
		(void)ui_text_draw(row++, x, g->desc + dl[i].off, dl[i].len, w);
	attroff(A_DIM);
	if (row < end) {
		if (g->left)
			snprintf(line, sizeof(line), "%s",
			    _("you are no longer a member"));
		else
			snprintf(line, sizeof(line), ngettext("%zu member",
			    "%zu members", g->n), g->n);
		attron(A_UNDERLINE);
		(void)ui_view_put(row++, x, line, w);
		attroff(A_UNDERLINE);
	}
	return row;
}

/* The members of g in list rows from row y, scrolled to the selected
 * one. */
static void
draw_members(struct ui_view *v, const struct ui_group *g, int y, int x,
    int w, int list)
{
	struct ui_view_info	*in = &v->info;
	int			 i;

	if (in->sel >= (int)g->n)
		in->sel = g->n > 0 ? (int)g->n - 1 : 0;
	if (in->sel < in->top)
		in->top = in->sel;
	else if (in->sel >= in->top + list)
		in->top = in->sel - list + 1;
	for (i = 0; i < list && in->top + i < (int)g->n; i++)
		draw_member(&g->v[in->top + i], v->own_name, y + i, x, w,
		    in->top + i == in->sel);
}

/* The profile's picture from row y, at most max rows high and w wide,
 * as a media thumbnail is (ui/thumb.h: the terminal's image protocol
 * where it has one, else half-blocks; none when thumbnails are off).
 * Returns the rows it took. */
static int
draw_pic(struct ui_view *v, int y, int x, int max, int w)
{
	struct ui_view_prof	*p = &v->prof;
	struct ui_thumb_spots	*s = &v->spots;
	int			 rows = v->o.thumbnail_rows, n, r;

	if (p->pic == NULL || rows < 1 ||
	    v->msgs.thumb_proto == UI_THUMB_PROTO_OFF)
		return 0;
	rows = rows < max ? rows : max;
	if ((n = ui_thumb_rows(p->pic, w, rows, v->msgs.thumb_colours)) <= 0)
		return 0;
	if (ui_thumb_proto_pixels(v->msgs.thumb_proto) &&
	    s->n < UI_THUMB_SPOTS_MAX) {
		s->v[s->n].y = y;
		s->v[s->n].x = x;
		s->v[s->n++].t = p->pic;
		for (r = 0; r < n; r++)
			mvhline(y + r, x, ' ', ui_thumb_cells(p->pic)->cols);
	} else
		for (r = 0; r < n; r++)
			ui_thumb_draw_row(p->pic, r, y + r, x);
	return n + 1;
}

/* What is said of the picture when none is drawn ("" nothing). */
static const char *
pic_words(const struct ui_view *v)
{
	switch (v->prof.pic_state) {
	case EV_PIC_ASKING:	return _("Picture: asking…");
	case EV_PIC_NONE:	return _("Picture: none");
	case EV_PIC_HIDDEN:	return _("Picture: hidden by their privacy "
				    "settings");
	case EV_PIC_FAILED:	return _("Picture: could not be fetched");
	case EV_PIC_SHOWN:	break;
	}
	return v->prof.pic != NULL && (v->o.thumbnail_rows < 1 ||
	    v->msgs.thumb_proto == UI_THUMB_PROTO_OFF) ?
	    _("Picture: not drawn (thumbnails are off)") : "";
}

/* "Label: text" at row y (the label dim). */
static void
draw_field(int y, int x, int w, const char *label, const char *text)
{
	int	 used;

	attron(A_DIM);
	used = ui_view_put(y, x, label, w);
	attroff(A_DIM);
	used += ui_view_put(y, x + used, " ", w - used);
	(void)ui_view_put(y, x + used, text, w - used);
}

/* The contact's about text (sanitised), or why there is none. */
static const char *
about_words(const struct ui_view *v)
{
	const struct ui_view_prof *p = &v->prof;

	if (p->about_known && p->about != NULL && p->about[0] != '\0')
		return p->about;
	return p->pic_state == EV_PIC_ASKING ? _("asking…") :
	    _("none, or hidden by their privacy settings");
}

/* The contact's last seen from the presence the bar keeps (into
 * line[size]), or that it is not known. */
static const char *
seen_words(const struct ui_view *v, int64_t now, char *line, size_t size)
{
	if (v->bar.online == 1)
		return _("online");
	if (v->bar.last_seen_ms == 0)
		return _("not known, or hidden by their privacy settings");
	ui_chats_when(v->bar.last_seen_ms, now, line, size);
	return line;
}

/* A contact's info page in the box at (y, x), h rows by w columns: its
 * title, the picture, name, number, about text, last seen, whether blocked, and
 * the keys at the bottom. */
static void
draw_contact(struct ui_view *v, int y, int x, int h, int w)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	struct buf	 num = BUF_INIT;
	bool		 blocked = ui_view_blocked(v, v->msgs.chat);
	char		 when[64];
	const char	*pw = pic_words(v);
	int		 row = y, end = y + h - 1;

	attron(A_DIM);
	(void)ui_view_put(end, x, blocked ? _("b unblocks, Esc closes") :
	    _("b blocks, Esc closes"), w);
	attroff(A_DIM);
	attron(A_UNDERLINE);
	(void)ui_view_put(row++, x, _("Contact info"), w);
	attroff(A_UNDERLINE);
	row += draw_pic(v, row, x, end - row - 5, w);
	attron(A_BOLD);
	(void)ui_view_put(row++, x, ch != NULL ? ch->name : "", w);
	attroff(A_BOLD);
	if (v->msgs.chat != NULL && ui_group_phone_name(v->msgs.chat, &num) &&
	    row < end)
		draw_field(row++, x, w, _("Number:"), (char *)num.p);
	buf_release(&num);
	if (row < end)
		draw_field(row++, x, w, _("About:"), about_words(v));
	if (row < end)
		draw_field(row++, x, w, _("Last seen:"), seen_words(v,
		    (int64_t)time(NULL) * 1000, when, sizeof(when)));
	if (blocked && row < end) {
		attron(A_REVERSE);
		(void)ui_view_put(row++, x, _("blocked: you blocked this "
		    "contact"), w);
		attroff(A_REVERSE);
	}
	if (pw[0] != '\0' && row < end)
		(void)ui_view_put(row++, x, pw, w);
	v->info.rows = 0;
}

/* The open group's info in the box at (y, x), h rows by w columns:
 * subject, description, member count, the members (scrolled to the
 * selected one) and the keys at the bottom. */
void
ui_view_panes_info(struct ui_view *v, int y, int x, int h, int w)
{
	struct ui_group	*g = ui_view_open_group(v);
	struct ui_line	 dl[2];
	const char	*keys = g == NULL || ui_view_info_may_manage(g) ?
			    _("Up/Down choose, r renames, a adds, d "
			    "removes, l leaves, Esc closes") :
			    _("Up/Down choose, r renames, l leaves, Esc "
			    "closes");
	int		 row, end, i, nd;

	if (v->info.contact) {
		draw_contact(v, y, x, h, w);
		return;
	}
	/* The keys at the bottom, on two rows when they need them. */
	nd = ui_text_wrap(keys, strlen(keys), w, dl, 2);
	nd = nd < 2 ? nd : 2;
	end = y + h - nd;
	attron(A_DIM);
	for (i = 0; i < nd; i++)
		(void)ui_text_draw(end + i, x, keys + dl[i].off, dl[i].len, w);
	attroff(A_DIM);
	if (g == NULL || !g->known) {
		(void)ui_view_put(y, x, _("asking for the group's info…"), w);
		return;
	}
	/* its picture first, when the members keep room */
	row = draw_info_head(g, y + (end - y > 14 ? draw_pic(v, y, x, 4, w) :
	    0), end, x, w);
	v->info.rows = end - row;
	if (v->info.rows >= 1)
		draw_members(v, g, row, x, w, v->info.rows);
}

/* The search's title (into b, with a NUL): where it looks, then the
 * filters taken. */
static void
search_title(struct ui_view *v, struct buf *b)
{
	const struct ui_search		*s = &v->search;
	const struct ui_search_query	*q = &s->qy;
	char				 line[256];
	int				 i;

	if (s->global)
		snprintf(line, sizeof(line), "%s", _("Search all chats"));
	else {
		i = s->scope != NULL ? ui_chats_find(&v->chats, s->scope) : -1;
		(void)ui_view_with_name(line, sizeof(line), 40,
		    _("Search in %s"), i >= 0 ? v->chats.v[i].name : "");
	}
	buf_append(b, line, strlen(line));
	if (q->chat != NULL && q->chat_name != NULL) {
		buf_append(b, "  in:", 5);
		buf_append(b, q->chat_name, strlen(q->chat_name));
	}
	if (q->sender != NULL) {
		buf_append(b, "  from:", 7);
		if (q->sender[0] == '\0')
			buf_append(b, "me", 2);
		else if (q->sender_name != NULL)
			buf_append(b, q->sender_name, strlen(q->sender_name));
	}
	if (q->since_text != NULL) {
		buf_append(b, "  after:", 8);
		buf_append(b, q->since_text, strlen(q->since_text));
	}
	if (q->until_text != NULL) {
		buf_append(b, "  before:", 9);
		buf_append(b, q->until_text, strlen(q->until_text));
	}
	if (q->starred)
		buf_append(b, "  is:starred", 12);
	buf_push(b, '\0');
}

/* What the search's list says instead of hits, or NULL (into line). */
static const char *
search_state(struct ui_view *v, char *line, size_t size)
{
	const struct ui_search		*s = &v->search;
	const struct ui_search_query	*q = &s->qy;
	const char			*bad = q->bad != NULL ? q->bad : "";

	switch (q->err) {
	case UI_SEARCH_NO_CHAT:
		snprintf(line, size, _("no chat is named %s"), bad);
		return line;
	case UI_SEARCH_NO_PERSON:
		snprintf(line, size, _("nobody is named %s"), bad);
		return line;
	case UI_SEARCH_AMBIGUOUS:
		snprintf(line, size, _("%s starts several names: type more "
		    "of it"), bad);
		return line;
	case UI_SEARCH_BAD_DATE:
		snprintf(line, size, _("%s is not a date: YYYY-MM-DD, YYYY-MM "
		    "or YYYY"), bad);
		return line;
	case UI_SEARCH_OK:
		break;
	}
	if (q->words == NULL || (q->words[0] == '\0' && !q->starred))
		return _("Type words; filters: from:NAME in:CHAT "
		    "after:DATE before:DATE is:starred");
	if (s->asked != NULL && !s->answered && s->n == 0)
		return _("searching…");
	if (s->answered && s->n == 0)
		return _("no results");
	return NULL;
}

/* The snippet of h at (y, x), at most w columns, its match highlighted
 * and shown (the start left out, "…", when the match is further on). */
static void
draw_snippet(const struct ui_search_hit *h, int y, int x, int w)
{
	const char	*t = h->snippet;
	size_t		 off = 0, len = strlen(t), n;
	int		 cols, used = 0;

	if (w < 2)
		return;
	while (off < h->hl_start &&
	    ui_text_width(t + off, h->hl_end - off) > w - 2) {
		n = ui_text_next(t + off, len - off, &cols);
		off += n;
	}
	if (off > 0)
		used += ui_view_put(y, x, "\xe2\x80\xa6", w);
	if (h->hl_start > off)
		used += ui_text_draw(y, x + used, t + off, h->hl_start - off,
		    w - used);
	if (h->hl_end > h->hl_start && h->hl_start >= off) {
		attron(A_BOLD | A_UNDERLINE);
		used += ui_text_draw(y, x + used, t + h->hl_start,
		    h->hl_end - h->hl_start, w - used);
		attroff(A_BOLD | A_UNDERLINE);
	}
	if (len > h->hl_end && w > used)
		(void)ui_text_draw(y, x + used, t + h->hl_end,
		    len - h->hl_end, w - used);
}

/* One hit in two rows at (y, x), w columns: when, the chat (all chats),
 * who wrote it (in their colour in a group), then the snippet. */
static void
draw_hit(struct ui_view *v, const struct ui_search_hit *h, int y, int x,
    int w, bool sel, int64_t now)
{
	char		 when[32];
	const char	*who = h->from_me ? _("You") : h->who[0] != '\0' ?
			    h->who : (v->search.global ? "" : h->chat_name);
	attr_t		 hl = A_BOLD;
	int		 used;

	if (sel)
		attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	mvhline(y + 1, x, ' ', w);
	ui_chats_when(h->ts_ms, now, when, sizeof(when));
	attron(A_DIM);
	used = ui_view_put(y, x + 1, when, w - 1) + 1;
	attroff(A_DIM);
	if (v->search.global) {
		used += ui_view_put(y, x + used, "  ", w - used);
		attron(A_BOLD);
		used += ui_view_put(y, x + used, h->chat_name, w - used);
		attroff(A_BOLD);
	}
	if (who[0] != '\0') {
		used += ui_view_put(y, x + used, "  ", w - used);
		if (h->colour >= 0 && has_colors())
			hl |= COLOR_PAIR(UI_GROUP_PAIR0 + h->colour);
		attron(hl);
		(void)ui_view_put(y, x + used, who, w - used);
		attroff(hl);
	}
	draw_snippet(h, y + 1, x + 3, w - 3);
	if (sel)
		attroff(A_REVERSE);
}

/* The search in the box at (y, x), h rows by w columns: its title with
 * the filters, the hits (scrolled to the chosen one) or what is instead,
 * and the keys at the bottom. */
void
ui_view_panes_search(struct ui_view *v, int y, int x, int h, int w, int64_t now)
{
	struct ui_search	*s = &v->search;
	struct ui_line		 dl[2];
	struct buf		 b = BUF_INIT;
	char			 line[512];
	const char		*keys = _("Up/Down choose, Enter opens the "
				    "message, Esc closes");
	const char		*state;
	int			 row = y, end, i, nd, list, shown;

	nd = ui_text_wrap(keys, strlen(keys), w, dl, 2);
	nd = nd < 2 ? nd : 2;
	end = y + h - nd;
	attron(A_DIM);
	for (i = 0; i < nd && end + i > y; i++)
		(void)ui_text_draw(end + i, x, keys + dl[i].off, dl[i].len, w);
	attroff(A_DIM);
	search_title(v, &b);
	attron(A_BOLD | A_UNDERLINE);
	(void)ui_view_put(row++, x, (char *)b.p, w);
	attroff(A_BOLD | A_UNDERLINE);
	buf_release(&b);
	if (row >= end)
		return;
	if ((state = search_state(v, line, sizeof(line))) != NULL) {
		attron(A_DIM);
		(void)ui_view_put(row, x + 1, state, w - 1);
		attroff(A_DIM);
		s->rows = 0;
		return;
	}
	list = (end - row - (s->more ? 1 : 0)) / 2;
	s->rows = list;
	if (list < 1)
		return;
	if (s->sel >= (int)s->n)
		s->sel = s->n > 0 ? (int)s->n - 1 : 0;
	if (s->sel < s->top)
		s->top = s->sel;
	else if (s->sel >= s->top + list)
		s->top = s->sel - list + 1;
	for (shown = 0; shown < list && s->top + shown < (int)s->n; shown++)
		draw_hit(v, &s->v[s->top + shown], row + 2 * shown, x, w,
		    s->top + shown == s->sel, now);
	if (s->more && s->top + shown >= (int)s->n) {
		attron(A_DIM);
		(void)ui_view_put(row + 2 * shown, x + 1, _("more results…: "
		    "add words or filters to narrow the search"), w - 1);
		attroff(A_DIM);
	}
}

/* ---- the chat picker ---- */

/* One entry: the chat's name, its number when the name is another,
 * its unread count; or the new chat by number (jid). */
static void
draw_pick_row(const struct ui_chat *ch, const char *jid, int y, int x,
    int w, int mark)
{
	struct buf	 b = BUF_INIT;
	char		 line[160];
	int		 used;
	bool		 sel = (mark & 1) != 0;

	if (sel)
		attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	if (ch == NULL) {
		ui_chats_jid_name(jid, &b);
		snprintf(line, sizeof(line), _("new chat with %s"),
		    (char *)b.p);
		attron(A_BOLD);
		(void)ui_view_put(y, x + 1, line, w - 1);
		attroff(A_BOLD);
		goto out;
	}
	used = 1;
	if (mark & 2)		/* forwarding: [x] marked, [ ] not */
		used += ui_view_put(y, x + used, (mark & 4) ? "[x] " : "[ ] ",
		    w - used);
	used += ui_view_put(y, x + used, ch->name, w - used);
	if (!ch->group && ch->name[0] != '+') {
		ui_chats_jid_name(ch->jid, &b);
		if (((char *)b.p)[0] == '+') {
			attron(A_DIM);
			used += ui_view_put(y, x + used, "  ", w - used);
			used += ui_view_put(y, x + used, (char *)b.p, w - used);
			attroff(A_DIM);
		}
	}
	if (ch->unread > 0) {
		snprintf(line, sizeof(line), "  (%d)", ch->unread);
		used += ui_view_put(y, x + used, line, w - used);
	}
	if (ch->archived) {
		snprintf(line, sizeof(line), "  [%s]", _("archived"));
		attron(A_DIM);
		(void)ui_view_put(y, x + used, line, w - used);
		attroff(A_DIM);
	}
out:
	if (sel)
		attroff(A_REVERSE);
	buf_release(&b);
}

/* A person with no chat yet: the name, the number when there is one,
 * and that there is no chat (dim). */
static void
draw_person_row(const struct ui_person *pe, int y, int x, int w, bool sel)
{
	struct buf	 b = BUF_INIT;
	char		 line[160];
	int		 used;

	if (sel)
		attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	used = 1 + ui_view_put(y, x + 1, pe->name, w - 1);
	ui_chats_jid_name(pe->jid, &b);
	attron(A_DIM);
	if (((char *)b.p)[0] == '+') {
		used += ui_view_put(y, x + used, "  ", w - used);
		used += ui_view_put(y, x + used, (char *)b.p, w - used);
	}
	snprintf(line, sizeof(line), "  [%s]", _("new chat"));
	(void)ui_view_put(y, x + used, line, w - used);
	attroff(A_DIM);
	if (sel)
		attroff(A_REVERSE);
	buf_release(&b);
}

/* draw_pick_row()'s mark: 1 chosen, 2 forwarding, 4 marked. */
static int
pick_mark(const struct ui_view *v, bool sel, const char *jid)
{
	return (sel ? 1 : 0) | (v->pick.fwd ? 2 : 0) |
	    (jid != NULL && ui_view_fwd_marked(v, jid) ? 4 : 0);
}

void
ui_view_panes_pick(struct ui_view *v, int y, int x, int h, int w)
{
	struct ui_view_pick	*p = &v->pick;
	char			 jid[JID_MAX], line[160];
	size_t			*idx, *pidx, n, np;
	bool			 num = ui_view_pick_number(v, jid, sizeof(jid));
	int			 total, list, i, e;

	idx = ui_view_pick_list(v, &n);
	pidx = ui_view_pick_people_list(v, &np);
	total = (int)(n + np) + (num ? 1 : 0);
	/* what it lists: the chats, the people, a number's new chat */
	if (p->fwd)
		snprintf(line, sizeof(line), ngettext("Forward to: %zu chat "
		    "(Space marks, Enter sends)", "Forward to: %zu chats "
		    "(Space marks, Enter sends)", (size_t)total),
		    (size_t)total);
	else
		snprintf(line, sizeof(line), ngettext("Open a chat: %zu chat",
		    "Open a chat: %zu chats", (size_t)total), (size_t)total);
	attron(A_BOLD | A_UNDERLINE);
	(void)ui_view_put(y, x, line, w);
	attroff(A_BOLD | A_UNDERLINE);
	list = h - 1;
	p->rows = list > 0 ? list : 0;
	if (total == 0 && list > 0) {
		attron(A_DIM);
		(void)ui_view_put(y + 1, x + 1, _("no chat has that name"),
		    w - 1);
		attroff(A_DIM);
	}
	if (p->sel >= total)
		p->sel = total > 0 ? total - 1 : 0;
	if (p->sel < p->top)
		p->top = p->sel;
	else if (list > 0 && p->sel >= p->top + list)
		p->top = p->sel - list + 1;
	for (i = 0; i < list && (e = p->top + i) < total; i++) {
		if ((size_t)e >= n && (size_t)e < n + np)
			draw_person_row(&p->people[pidx[(size_t)e - n]],
			    y + 1 + i, x, w, e == p->sel);
		else
			draw_pick_row((size_t)e < n ? &v->chats.v[idx[e]] :
			    NULL, jid, y + 1 + i, x, w, pick_mark(v, e == p->sel,
			    (size_t)e < n ? v->chats.v[idx[e]].jid : NULL));
	}
	free(idx);
	free(pidx);
}

/* ---- the message info (ui/view-msginfo.c) ---- */

/* "HH:MM" (or the date) of ms into out[size]; "—" (ASCII "-") for 0. */
static void
when_or_dash(int64_t ms, char *out, size_t size)
{
	if (ms > 0)
		ui_chats_when(ms, ms, out, size);
	else
		snprintf(out, size, "%s", ui_text_ascii() ? "-" : "\u2014");
}

void
ui_view_panes_minfo(struct ui_view *v, int y, int x, int h, int w)
{
	const struct ui_view_minfo	*m = &v->minfo;
	char				 d[32], r[32], line[160];
	size_t				 i;

	attron(A_BOLD | A_UNDERLINE);
	(void)ui_view_put(y, x, _("Message info (Esc closes)"), w);
	attroff(A_BOLD | A_UNDERLINE);
	if (h < 2)
		return;
	when_or_dash(m->ts_ms, d, sizeof(d));
	snprintf(line, sizeof(line), _("sent %s"), d);
	(void)ui_view_put(y + 1, x + 1, m->got ? line : _("asking..."), w - 1);
	for (i = 0; m->got && i < m->n && (int)i + 2 < h; i++) {
		int	 used;

		when_or_dash(m->rows[i].delivered_ms, d, sizeof(d));
		when_or_dash(m->rows[i].read_ms, r, sizeof(r));
		used = 1 + ui_view_put(y + 2 + (int)i, x + 1, m->rows[i].name,
		    w / 2 - 1);
		snprintf(line, sizeof(line), _("  delivered %s  read %s"), d, r);
		(void)ui_view_put(y + 2 + (int)i, x + used, line, w - used);
	}
}

/* ---- the members offered for a mention ---- */

void
ui_view_panes_mention(struct ui_view *v, int y, int x, int h, int w)
{
	const struct ui_member	*m[UI_VIEW_MENTIONS];
	size_t			 at;
	int			 n = ui_view_mention_offer(v, m,
				    UI_VIEW_MENTIONS, &at), i, top;

	if (n == 0 || h <= 0)
		return;
	if (v->mention.sel >= n)
		v->mention.sel = n - 1;
	top = n > h ? n - h : 0;
	if (v->mention.sel < top)
		top = v->mention.sel;
	for (i = 0; i < h && top + i < n; i++)
		draw_member(m[top + i], v->own_name, y + h - (n - top < h ?
		    n - top : h) + i, x, w, top + i == v->mention.sel);
}

int
ui_view_put(int y, int x, const char *s, int cols)
{
	return cols > 0 ? ui_text_draw(y, x, s, strlen(s), cols) : 0;
}
