/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/msgs-draw.c -- the message pane's layout and drawing (ui/msgs.h): a
 * row's text wrapped (mentions named) and cached for a width, the rows a
 * message takes, the name its header shows for the sender, and the pane
 * drawn from the bottom up: day separators, headers with ticks, quotes,
 * text, thumbnails under a media row's first line (ui/thumb.h: half-block
 * cells, or blank cells and a spot for the terminal's image), reactions
 * (who sent them, named to the width), notices.  Only ui_msgs_draw() calls curses.  Nothing
 * here calls ui/msgs.c.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "base/buf.h"
#include "ui/chats.h"
#include "base/i18n.h"
#include "ui/msgs.h"
#include "ui/media.h"
#include "ui/msgs-int.h"
#include "ui/term.h"
#include "base/xmalloc.h"

#define PAIR_READ	2	/* read ticks: cyan (ui/view-draw.c inits it) */
#define INDENT		2	/* the text under its header */

static bool
same_day(int64_t a_ms, int64_t b_ms)
{
	time_t		 a = (time_t)(a_ms / 1000), b = (time_t)(b_ms / 1000);
	struct tm	 ta, tb;

	if (localtime_r(&a, &ta) == NULL || localtime_r(&b, &tb) == NULL)
		return true;
	return ta.tm_year == tb.tm_year && ta.tm_yday == tb.tm_yday;
}

/* Lay out g's text for w columns (cached): mentions named, wrapped. */
static void
wrap(const struct ui_msgs *m, struct ui_msg *g, int w)
{
	struct buf	 b = BUF_INIT;
	const char	*t;
	size_t		 len;

	if (g->rows_width == w && g->rows != NULL)
		return;
	free(g->shown);
	free(g->spans);
	g->shown = NULL;
	g->spans = NULL;
	g->nspans = 0;
	if (m->group != NULL && !g->deleted) {
		ui_group_mentions(m->group, g->text, &b, &g->spans,
		    &g->nspans);
		g->shown = (char *)b.p;
	}
	if (g->progress != NULL && !g->deleted) {
		/* our upload's line, under the text (mention spans stay) */
		memset(&b, 0, sizeof(b));
		t = g->shown != NULL ? g->shown : g->text;
		buf_append(&b, t, strlen(t));
		buf_push(&b, '\n');
		buf_append(&b, g->progress, strlen(g->progress));
		buf_push(&b, '\0');
		free(g->shown);
		g->shown = (char *)b.p;
	}
	t = g->deleted ? "" : g->shown != NULL ? g->shown : g->text;
	len = strlen(t);
	free(g->rows);
	g->nrows = ui_text_wrap(t, len, w, NULL, 0);
	g->rows = xcalloc((size_t)g->nrows, sizeof(*g->rows));
	(void)ui_text_wrap(t, len, w, g->rows, g->nrows);
	g->rows_width = w;
}

/* The rows g's thumbnail takes at width w (0: none, thumbnails off, or
 * it does not decode): at most m->thumb_rows, under the text. */
static int
thumb_rows(const struct ui_msgs *m, struct ui_msg *g, int w)
{
	if (g->thumb == NULL || g->deleted || m->thumb_rows < 1)
		return 0;
	return ui_thumb_rows(g->thumb, w - INDENT, m->thumb_rows,
	    m->thumb_colours);
}

/* The wrapped rows of g's first line (a media row's words, the
 * thumbnail goes under them): those that start before its first
 * newline. */
static int
first_line_rows(const struct ui_msg *g)
{
	const char	*t = g->shown != NULL ? g->shown : g->text;
	size_t		 nl = strcspn(t, "\n");
	int		 i;

	for (i = 0; i < g->nrows && g->rows[i].off < nl; i++)
		;
	return i;
}

int
ui_msgs_block_rows(struct ui_msgs *m, size_t i, int w)
{
	struct ui_msg	*g = &m->v[i];
	int		 r = 0;

	if (i == 0 || !same_day(m->v[i - 1].ts_ms, g->ts_ms))
		r++;
	if (m->unread_rowid != 0 && g->rowid == m->unread_rowid)
		r++;	/* the "N unread messages" line */
	if (g->notice) {
		wrap(m, g, w - 2);
		return r + g->nrows;
	}
	wrap(m, g, w - INDENT);
	r += 1 + (g->deleted ? 1 : g->nrows + thumb_rows(m, g, w));
	r += g->quoted_id[0] != '\0' && !g->deleted;	/* the quote goes too */
	r += g->nreacts > 0;
	return r;
}

const char *
ui_msgs_text(struct ui_msgs *m, size_t i)
{
	int	 w = m->width > INDENT + 4 ? m->width : 80;

	(void)ui_msgs_block_rows(m, i, w);
	return m->v[i].shown != NULL ? m->v[i].shown : m->v[i].text;
}

void
ui_msgs_sender(const struct ui_msgs *m, size_t i, const char *peer,
    struct buf *out, int *colour)
{
	const struct ui_msg	*g = &m->v[i];

	*colour = -1;
	if (g->from_me)
		buf_append(out, _("You"), strlen(_("You")) + 1);
	else if (g->sender[0] != '\0' && ui_group_is_jid(m->chat)) {
		/* In a group: who wrote it, in their colour. */
		ui_group_name(m->group, g->sender, g->sender_name, out);
		*colour = (int)ui_group_colour(g->sender);
	} else
		buf_append(out, peer, strlen(peer) + 1);
}

/* Who sent reaction r of a row, appended to out with its NUL: "You" for
 * ours, else as a sender is named (ui_group_name()). */
static void
reactor_name(const struct ui_msgs *m, const struct ui_reactor *r,
    struct buf *out)
{
	const struct ui_member	*mb;

	mb = m->group != NULL && r->sender[0] != '\0' ?
	    ui_group_member(m->group, r->sender) : NULL;
	if (r->sender[0] == '\0' || (mb != NULL && mb->is_me))
		buf_append(out, _("You"), strlen(_("You")) + 1);
	else
		ui_group_name(m->group, r->sender, r->name, out);
}

/* The display width of ", +n". */
static int
more_width(uint32_t n)
{
	char	 s[24];

	return snprintf(s, sizeof(s), ", +%u", (unsigned)n);
}

void
ui_msgs_reactions(const struct ui_msgs *m, size_t i, int w, struct buf *out)
{
	const struct ui_msg	*g = &m->v[i];
	const struct ui_react	*r;
	struct buf		 name = BUF_INIT;
	char			 num[24];
	int			*head, used = 0, rest = 0, nw;
	size_t			 k, j;

	if (g->nreacts == 0) {
		buf_push(out, '\0');
		return;
	}
	/* each emoji and its count go in whatever the width: the names
	 * share what is left, first come first */
	head = xcalloc(g->nreacts, sizeof(*head));
	for (k = 0; k < g->nreacts; k++) {
		r = &g->reacts[k];
		head[k] = ui_text_width(r->emoji, strlen(r->emoji)) +
		    (k > 0 ? 2 : 0);
		if (r->count > 1)
			head[k] += snprintf(num, sizeof(num), " %u",
			    (unsigned)r->count);
		rest += head[k];
	}
	for (k = 0; k < g->nreacts; k++) {
		r = &g->reacts[k];
		if (k > 0)
			buf_append(out, "  ", 2);
		buf_append(out, r->emoji, strlen(r->emoji));
		if (r->count > 1) {
			snprintf(num, sizeof(num), " %u", (unsigned)r->count);
			buf_append(out, num, strlen(num));
		}
		used += head[k];
		rest -= head[k];
		for (j = 0; j < r->nwho; j++) {
			name.len = 0;
			buf_append(&name, j == 0 ? " " : ", ", j == 0 ? 1 : 2);
			reactor_name(m, &r->who[j], &name);
			nw = ui_text_width((char *)name.p, name.len - 1);
			/* room for it, and for "+n" when others follow */
			if (used + nw + (r->count > j + 1 ? more_width(
			    r->count - (uint32_t)j - 1) : 0) + rest > w)
				break;
			buf_append(out, name.p, name.len - 1);
			used += nw;
		}
		if (j > 0 && r->count > j) {
			snprintf(num, sizeof(num), ", +%u",
			    (unsigned)(r->count - j));
			buf_append(out, num, strlen(num));
			used += more_width(r->count - (uint32_t)j);
		}
	}
	buf_push(out, '\0');
	buf_release(&name);
	free(head);
}

static const char *
tick_text(enum ui_tick t)
{
	bool	 u = ui_media_utf8();

	switch (t) {
	case UI_TICK_NONE:	return "";
	case UI_TICK_QUEUED:	return u ? "\xe2\x80\xa6" : "...";	/* … */
	case UI_TICK_SENT:	return u ? "\xe2\x9c\x93" : "v";	/* ✓ */
	case UI_TICK_DELIVERED:
	case UI_TICK_READ:	return u ? "\xe2\x9c\x93\xe2\x9c\x93" : "vv";
	case UI_TICK_FAILED:	return "!";
	}
	return "";
}

/* A drawing row: only drawn when it falls in [top, top + h). */
struct pen {
	int	 y, x, h, w;
	int	 top;		/* the layout row drawn at y */
	int	 row;		/* the next layout row */
};

/* The screen row of the pen's next row, or -1 when it is not shown;
 * moves the pen on a row. */
static int
next_row(struct pen *p)
{
	int	 r = p->row++;

	return r >= p->top && r < p->top + p->h ? p->y + r - p->top : -1;
}

static void
draw_day(struct pen *p, int64_t ts_ms, int64_t now_ms)
{
	char		 day[64], line[96];
	time_t		 t = (time_t)(ts_ms / 1000);
	struct tm	 tm;
	int		 y = next_row(p), cols, x;

	if (y < 0)
		return;
	if (same_day(ts_ms, now_ms))
		snprintf(day, sizeof(day), "%s", _("Today"));
	else if (localtime_r(&t, &tm) == NULL ||
	    strftime(day, sizeof(day), "%a %d %b %Y", &tm) == 0)
		day[0] = '\0';
	snprintf(line, sizeof(line), "\xe2\x94\x80\xe2\x94\x80 %s "
	    "\xe2\x94\x80\xe2\x94\x80", day);
	cols = ui_text_width(line, strlen(line));
	x = p->x + (p->w - cols) / 2;
	attron(A_DIM);
	(void)ui_text_draw(y, x < p->x ? p->x : x, line, strlen(line), p->w);
	attroff(A_DIM);
}

/* The "N unread messages" line above the first unread message, centred
 * and bold (WhatsApp's, nchat's). */
static void
draw_unread(struct pen *p, uint32_t n)
{
	char	 line[160];
	int	 y = next_row(p), cols, x;

	if (y < 0)
		return;
	snprintf(line, sizeof(line), ngettext("%u unread message",
	    "%u unread messages", n), (unsigned)n);
	cols = ui_text_width(line, strlen(line));
	x = p->x + (p->w - cols) / 2;
	attron(A_BOLD);
	(void)ui_text_draw(y, x < p->x ? p->x : x, line, strlen(line), p->w);
	attroff(A_BOLD);
}

/* The attributes of a mention of a person of colour c. */
static attr_t
mention_attr(unsigned c)
{
	return A_BOLD | (has_colors() ? COLOR_PAIR(UI_GROUP_PAIR0 + (int)c) :
	    A_UNDERLINE);
}

/* Draw bytes [off, end) of t at (y, x), at most cols columns, the parts
 * in spans highlighted.  Returns the columns drawn. */
static int
draw_spans(int y, int x, const char *t, size_t off, size_t end, int cols,
    const struct ui_span *sp, size_t nsp)
{
	size_t	 k, a, b;
	int	 used = 0;

	for (k = 0; k < nsp && off < end; k++) {
		a = sp[k].off > off ? sp[k].off : off;
		b = sp[k].off + sp[k].len < end ? sp[k].off + sp[k].len : end;
		if (b <= off || a >= end)
			continue;
		if (a > off)
			used += ui_text_draw(y, x + used, t + off, a - off,
			    cols - used);
		attron(mention_attr(sp[k].colour));
		used += ui_text_draw(y, x + used, t + a, b - a, cols - used);
		attroff(mention_attr(sp[k].colour));
		off = b;
	}
	if (off < end)
		used += ui_text_draw(y, x + used, t + off, end - off,
		    cols - used);
	return used;
}

/*
 * Draw bytes [off, end) of g's text t at (y, x), at most cols columns:
 * the URLs in it (ui_term_next_url()) underlined, each piece added to
 * links (may be NULL) with its whole URL, for the terminal's hyperlink
 * (OSC 8) over it; the rest as draw_spans().
 */
static void
draw_row(int y, int x, const char *t, size_t off, size_t end, int cols,
    const struct ui_msg *g, struct ui_term_links *links)
{
	size_t	 len = strlen(t), from = 0, uo, un, a, b;
	int	 used = 0, n;

	while (off < end && ui_term_next_url(t, len, from, &uo, &un)) {
		from = uo + un;
		if (uo + un <= off)
			continue;
		if (uo >= end)
			break;
		a = uo > off ? uo : off;
		b = uo + un < end ? uo + un : end;
		if (a > off)
			used += draw_spans(y, x + used, t, off, a, cols - used,
			    g->spans, g->nspans);
		attron(A_UNDERLINE);
		n = ui_text_draw(y, x + used, t + a, b - a, cols - used);
		attroff(A_UNDERLINE);
		/* a piece cut by the pane's edge is no link */
		if (links != NULL && n == (int)(b - a))
			ui_term_links_add(links, y, x + used, t + a, b - a,
			    t + uo, un);
		used += n;
		off = b;
	}
	if (off < end)
		(void)draw_spans(y, x + used, t, off, end, cols - used,
		    g->spans, g->nspans);
}

/* Draw rows [from, to) of g's text, indented, or centred (notices). */
static void
draw_rows(struct pen *p, const struct ui_msg *g, int from, int to,
    int indent, bool centre, struct ui_term_links *links)
{
	const char	*t = g->shown != NULL ? g->shown : g->text;
	int		 i, y, x;

	for (i = from; i < to; i++) {
		if ((y = next_row(p)) < 0)
			continue;
		x = p->x + indent;
		if (centre && g->rows[i].cols < p->w)
			x = p->x + (p->w - g->rows[i].cols) / 2;
		draw_row(y, x, t, g->rows[i].off, g->rows[i].off +
		    g->rows[i].len, p->w - (x - p->x), g, links);
	}
}

/* The tick t at (y, x), tw columns: read ones in colour (bold without
 * colours), failed ones bold. */
static void
draw_tick(int y, int x, enum ui_tick t, const char *tick, int tw)
{
	attr_t	 a = t == UI_TICK_READ ? (has_colors() ?
		    COLOR_PAIR(PAIR_READ) : A_BOLD) : t == UI_TICK_FAILED ?
		    A_BOLD : 0;

	if (a != 0)
		attron(a);
	(void)ui_text_draw(y, x, tick, strlen(tick), tw);
	if (a != 0)
		attroff(a);
}

/* "forwarded" for a forwarded row, "forwarded many times" from a score
 * of UI_MSGS_FWD_MANY (protocol-features.md 3.7: the apps' threshold is
 * not in the sources; 5 as the issue asks), else "". */
#define UI_MSGS_FWD_MANY	5
static const char *
fwd_words(const struct ui_msg *g)
{
	if (g->forwarded == 0 || g->deleted)
		return "";
	return g->forwarded >= UI_MSGS_FWD_MANY ?
	    _(" (forwarded many times)") : _(" (forwarded)");
}

/* Message i's header at row y: the sender (in a group in their colour; in
 * a 1:1 chat the chat's name, peer), the time, "(forwarded)",
 * "(edited)", "(starred)", our tick. */
static void
draw_head(struct ui_msgs *m, size_t i, const struct pen *p, int y,
    const char *peer)
{
	struct ui_msg	*g = &m->v[i];
	struct buf	 who = BUF_INIT;
	char		 when[32], head[192];
	const char	*tick;
	int		 used, tw, colour;
	attr_t		 hl = A_BOLD;

	ui_chats_when(g->ts_ms, g->ts_ms, when, sizeof(when));
	ui_msgs_sender(m, i, peer, &who, &colour);
	if (colour >= 0 && has_colors())
		hl |= COLOR_PAIR(UI_GROUP_PAIR0 + colour);
	attron(hl);
	used = ui_text_draw(y, p->x, (char *)who.p, strlen((char *)who.p),
	    p->w - 8);
	attroff(hl);
	buf_release(&who);
	snprintf(head, sizeof(head), " %s%s%s%s", when, fwd_words(g),
	    g->edited &&
	    !g->deleted ? _(" (edited)") : "", g->starred && !g->deleted ?
	    _(" (starred)") : "");
	used += ui_text_draw(y, p->x + used, head, strlen(head), p->w - used);
	tick = tick_text(g->tick);
	tw = ui_text_width(tick, strlen(tick));
	if (tw > 0 && used + 1 + tw <= p->w)
		draw_tick(y, p->x + used + 1, g->tick, tick, tw);
}

/* Who wrote the message g quotes, appended to out with its NUL: "You"
 * for ours, the sender of the quoted row when it is held (m->v[held],
 * held >= 0), else the
 * quoted author's JID (the chat itself in a 1:1 chat: peer; in a group
 * its member); false, out untouched, when nobody is known. */
static bool
quote_who(const struct ui_msgs *m, const struct ui_msg *g, int held,
    const char *peer, struct buf *out)
{
	const struct ui_member	*mb;
	int			 colour;

	if (held >= 0) {
		ui_msgs_sender(m, (size_t)held, peer, out, &colour);
		return true;
	}
	if (g->quoted_sender[0] == '\0')
		return false;
	if (!ui_group_is_jid(m->chat)) {
		if (m->chat != NULL && strcmp(g->quoted_sender, m->chat) == 0)
			buf_append(out, peer, strlen(peer) + 1);
		else
			buf_append(out, _("You"), strlen(_("You")) + 1);
		return true;
	}
	mb = m->group != NULL ? ui_group_member(m->group, g->quoted_sender) :
	    NULL;
	if (mb != NULL && mb->is_me)
		buf_append(out, _("You"), strlen(_("You")) + 1);
	else
		ui_group_name(m->group, g->quoted_sender, NULL, out);
	return true;
}

/* The quoted line of a reply at row y: "> Name: text" (the text from
 * the quoted row when it is held and the reply has none; "> …" when it is
 * not known; no name when its author is not). */
static void
draw_quote(const struct ui_msgs *m, const struct ui_msg *g, const char *peer,
    const struct pen *p, int y)
{
	struct buf	 q = BUF_INIT, who = BUF_INIT;
	const char	*t = g->quoted;
	int		 held = -1, i;

	for (i = 0; i < (int)m->n && held < 0; i++)
		if (strcmp(m->v[i].id, g->quoted_id) == 0 && !m->v[i].notice)
			held = i;
	if (t[0] == '\0' && held >= 0 && !m->v[held].deleted)
		t = m->v[held].text;
	buf_append(&q, "> ", 2);
	if (quote_who(m, g, held, peer, &who)) {
		buf_append(&q, who.p, strlen((char *)who.p));
		buf_append(&q, ": ", 2);
	}
	if (t[0] != '\0')
		buf_append(&q, t, strcspn(t, "\n"));
	else
		buf_append(&q, "\xe2\x80\xa6", 3);
	buf_push(&q, '\0');
	attron(A_DIM);
	(void)ui_text_draw(y, p->x + INDENT, (char *)q.p, strlen((char *)q.p),
	    p->w - INDENT);
	attroff(A_DIM);
	buf_release(&q);
	buf_release(&who);
}

/* g's thumbnail rows (as laid out by ui_msgs_block_rows()), indented. */
static void
draw_thumb(const struct ui_msgs *m, struct ui_msg *g, struct pen *p)
{
	int	 n = thumb_rows(m, g, p->w), r, y;
	bool	 whole = p->row >= p->top && p->row + n <= p->top + p->h;
	struct ui_thumb_spots *s = m->spots;

	/* an image drawn by the terminal where it fits whole in the pane
	 * (a part is half-blocks): blank cells under it */
	if (whole && n > 0 && ui_thumb_proto_pixels(m->thumb_proto) &&
	    s != NULL && s->n < UI_THUMB_SPOTS_MAX) {
		s->v[s->n].y = p->y + p->row - p->top;
		s->v[s->n].x = p->x + INDENT;
		s->v[s->n++].t = g->thumb;
		for (r = 0; r < n; r++)
			if ((y = next_row(p)) >= 0)
				mvhline(y, p->x + INDENT, ' ',
				    ui_thumb_cells(g->thumb)->cols);
		return;
	}
	for (r = 0; r < n; r++)
		if ((y = next_row(p)) >= 0)
			ui_thumb_draw_row(g->thumb, r, y, p->x + INDENT);
}

static void
draw_msg(struct ui_msgs *m, size_t i, struct pen *p, const char *peer,
    int64_t now_ms)
{
	struct ui_msg	*g = &m->v[i];
	struct buf	 line = BUF_INIT;
	int		 y, k;
	bool		 sel = (int)i == m->sel;

	if (i == 0 || !same_day(m->v[i - 1].ts_ms, g->ts_ms))
		draw_day(p, g->ts_ms, now_ms);
	if (m->unread_rowid != 0 && g->rowid == m->unread_rowid)
		draw_unread(p, m->unread_n);
	if (g->notice) {
		attron(A_DIM | A_ITALIC);
		draw_rows(p, g, 0, g->nrows, 2, true, NULL);
		attroff(A_DIM | A_ITALIC);
		return;
	}
	if ((y = next_row(p)) >= 0) {
		if (sel) {
			attron(A_REVERSE);
			mvhline(y, p->x, ' ', p->w);
		}
		draw_head(m, i, p, y, peer);
		if (sel)
			attroff(A_REVERSE);
	}
	if (g->quoted_id[0] != '\0' && !g->deleted && (y = next_row(p)) >= 0)
		draw_quote(m, g, peer, p, y);
	if (!g->deleted) {
		k = first_line_rows(g);
		draw_rows(p, g, 0, k, INDENT, false, m->links);
		draw_thumb(m, g, p);
		draw_rows(p, g, k, g->nrows, INDENT, false, m->links);
	} else if ((y = next_row(p)) >= 0) {
		attron(A_DIM | A_ITALIC);
		(void)ui_text_draw(y, p->x + INDENT, _("message deleted"),
		    strlen(_("message deleted")), p->w - INDENT);
		attroff(A_DIM | A_ITALIC);
	}
	if (g->nreacts > 0 && (y = next_row(p)) >= 0) {
		ui_msgs_reactions(m, i, p->w - INDENT, &line);
		(void)ui_text_draw(y, p->x + INDENT, (char *)line.p,
		    strlen((char *)line.p), p->w - INDENT);
		buf_release(&line);
	}
}

/* "N new messages below" on row y (the pane's last), in reverse: new
 * messages came while reading back (ui_msgs_apply()). */
static void
draw_below(int y, int x, int w, uint32_t n)
{
	char	 line[160];

	snprintf(line, sizeof(line), ngettext("\xe2\x86\x93 %u new message "
	    "below (End)", "\xe2\x86\x93 %u new messages below (End)", n),
	    (unsigned)n);
	attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	(void)ui_text_draw(y, x + 1, line, strlen(line), w - 1);
	attroff(A_REVERSE);
}

void
ui_msgs_draw(struct ui_msgs *m, int y, int x, int h, int w,
    const char *peer, int64_t now_ms)
{
	struct pen	 p;
	int		 total = 0, *start, i, bottom, s, e;
	bool		 mark;

	m->height = h;
	m->width = w;
	if (h < 1 || w < INDENT + 4)
		return;
	if (m->scroll == 0 && !m->more_after) {
		m->unseen = false;	/* at the bottom: seen */
		m->unseen_n = 0;
	}
	/* the mark over the pane's last row (a row of messages under the
	 * view: the view itself stays) */
	mark = m->unseen && m->unseen_n > 0 && h > 1;
	start = xcalloc(m->n + 1, sizeof(*start));
	for (i = 0; i < (int)m->n; i++) {
		start[i] = total;
		total += ui_msgs_block_rows(m, (size_t)i, w);
	}
	start[m->n] = total;
	if (m->scroll > total - h)
		m->scroll = total - h > 0 ? total - h : 0;
	if (m->sel >= 0 && m->sel < (int)m->n) {
		/* Keep the selected message in view, its header first. */
		s = start[m->sel];
		e = start[m->sel + 1];
		bottom = total - m->scroll;
		if (e > bottom)
			m->scroll = total - e;
		bottom = total - m->scroll;
		if (s < bottom - h)
			m->scroll = total - (s + h);
		if (m->scroll < 0)
			m->scroll = 0;
	}
	if (m->reveal) {
		/* The unread line in view: at the top when it is above. */
		m->reveal = false;
		for (i = 0; i < (int)m->n; i++)
			if (m->v[i].rowid == m->unread_rowid &&
			    start[i] < total - m->scroll - h)
				m->scroll = total - (start[i] + h);
	}
	bottom = total - m->scroll;
	memset(&p, 0, sizeof(p));
	p.y = y;
	p.x = x;
	p.h = h;
	p.w = w;
	p.top = bottom - h;
	/* Fewer rows than the pane: they sit at its bottom. */
	if (p.top < 0) {
		p.y -= p.top;
		p.h += p.top;
		p.top = 0;
	}
	m->at_top = p.top <= 0;
	for (i = 0; i < (int)m->n; i++) {
		if (start[i + 1] <= p.top || start[i] >= bottom) {
			p.row = start[i + 1];
			continue;
		}
		p.row = start[i];
		draw_msg(m, (size_t)i, &p, peer, now_ms);
	}
	free(start);
	if (mark)
		draw_below(y + h - 1, x, w, m->unseen_n);
}
