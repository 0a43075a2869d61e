/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/msgs.c -- the message pane of the open chat (ui/msgs.h). */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>

#include "base/buf.h"
#include "ui/chats.h"
#include "base/i18n.h"
#include "ui/msgs.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"

/* enum store_msg_kind (store/store.h) of a page row. */
#define ROW_MEDIA	1
#define ROW_NOTICE	2
#define ROW_UNSUPPORTED	3
#define ROW_PLACEHOLDER	4

#define PAIR_READ	2	/* read ticks: cyan (ui/view.c inits it) */
#define INDENT		2	/* the text under its header */

enum ui_tick
ui_tick_of_event(int state)
{
	switch (state) {
	case 0:	return UI_TICK_QUEUED;
	case 1:	return UI_TICK_SENT;
	case 2:	return UI_TICK_DELIVERED;
	case 3:	return UI_TICK_READ;
	case 4:	return UI_TICK_FAILED;
	}
	return UI_TICK_NONE;
}

enum ui_tick
ui_tick_of_row(int state)
{
	switch (state) {
	case -1: return UI_TICK_FAILED;
	case 0:	return UI_TICK_QUEUED;
	case 1:	return UI_TICK_SENT;
	case 2:	return UI_TICK_DELIVERED;
	case 4:
	case 5:	return UI_TICK_READ;
	}
	return UI_TICK_NONE;
}

static char *
clean(const char *s, bool multiline)
{
	struct buf	 b = BUF_INIT;

	if (s == NULL)
		s = "";
	wc_sanitize(s, strlen(s), multiline, &b);
	return (char *)b.p;
}

static void
set_clean(char **slot, const char *s, bool multiline)
{
	free(*slot);
	*slot = clean(s, multiline);
}

static void
msg_release(struct ui_msg *g)
{
	size_t	 i;

	free(g->id);
	free(g->sender);
	free(g->sender_name);
	free(g->text);
	free(g->quoted_id);
	free(g->quoted_sender);
	free(g->quoted);
	free(g->reactions);
	for (i = 0; i < g->nreacts; i++) {
		free(g->reacts[i].sender);
		free(g->reacts[i].emoji);
	}
	free(g->reacts);
	free(g->shown);
	free(g->spans);
	free(g->rows);
	memset(g, 0, sizeof(*g));
}

static void
clear_rows(struct ui_msgs *m)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		msg_release(&m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

void
ui_msgs_init(struct ui_msgs *m)
{
	memset(m, 0, sizeof(*m));
	m->sel = -1;
}

void
ui_msgs_release(struct ui_msgs *m)
{
	clear_rows(m);
	free(m->chat);
	ui_msgs_init(m);
}

int
ui_msgs_find(const struct ui_msgs *m, const char *id)
{
	size_t	 i;

	if (id == NULL)
		return -1;
	for (i = m->n; i-- > 0;)
		if (strcmp(m->v[i].id, id) == 0)
			return (int)i;
	return -1;
}

void
ui_msgs_remove(struct ui_msgs *m, const char *id)
{
	int	 i = ui_msgs_find(m, id);

	if (i < 0)
		return;
	msg_release(&m->v[i]);
	memmove(&m->v[i], &m->v[i + 1], (m->n - (size_t)i - 1) *
	    sizeof(*m->v));
	m->n--;
	m->sel = -1;
}

struct cmd *
ui_msgs_open(struct ui_msgs *m, const char *jid)
{
	char	 num[16];

	clear_rows(m);
	free(m->chat);
	m->chat = xstrdup(jid);
	m->group = NULL;
	m->more_before = m->more_after = m->unseen = false;
	m->scroll = 0;
	m->sel = -1;
	m->loading = 2;
	snprintf(num, sizeof(num), "%d", UI_MSGS_PAGE);
	return cmd_new_chat(CMD_LOAD_PAGE, jid, NULL, num, NULL, 0);
}

struct cmd *
ui_msgs_open_at(struct ui_msgs *m, const char *jid, int64_t rowid)
{
	struct cmd	*c = ui_msgs_open(m, jid);
	char		 id[24];

	snprintf(id, sizeof(id), "%" PRId64, rowid);
	free(c->aux);
	c->aux = xstrdup(id);
	c->flag = 2;
	m->loading = 3;
	m->target = rowid;
	return c;
}

/* The keyset cursor of row g: "TS_MS:ROWID" (rowid - back). */
static void
cursor(const struct ui_msg *g, int64_t back, char *out, size_t size)
{
	/* A row known only from an event has no rowid: the largest one
	 * for its time, so that a page before it still holds every row
	 * of the store older than it (the duplicate is merged away). */
	snprintf(out, size, "%" PRId64 ":%" PRId64, g->ts_ms,
	    g->rowid != 0 ? g->rowid - back : INT64_MAX);
}

struct cmd *
ui_msgs_more(struct ui_msgs *m, int dir)
{
	char	 cur[64], num[16];

	if (m->chat == NULL || m->loading != 0 || m->n == 0)
		return NULL;
	if (dir < 0 ? !m->more_before : !m->more_after)
		return NULL;
	cursor(dir < 0 ? &m->v[0] : &m->v[m->n - 1], 0, cur, sizeof(cur));
	m->loading = dir < 0 ? -1 : 1;
	snprintf(num, sizeof(num), "%d", UI_MSGS_PAGE);
	return cmd_new_chat(CMD_LOAD_PAGE, m->chat, NULL, num, cur,
	    dir < 0 ? -1 : 1);
}

static const char *
kind_text(const struct ev_msg *e)
{
	switch (e->kind) {
	case ROW_UNSUPPORTED:
		return _("[a message wachat cannot show yet]");
	case ROW_PLACEHOLDER:
		return _("[waiting for this message: it could not be "
		    "decrypted yet]");
	}
	return NULL;
}

/* Fill g from a page row. */
static void
from_row(struct ui_msg *g, const struct ev_msg *e)
{
	const char	*k = kind_text(e);
	struct buf	 b = BUF_INIT;

	g->rowid = e->rowid;
	g->ts_ms = e->ts_ms;
	g->id = xstrdup(e->id);
	g->sender = xstrdup(e->sender);
	g->sender_name = clean(e->sender_name, false);
	if (k != NULL)
		g->text = xstrdup(k);
	else if (e->kind == ROW_MEDIA) {
		buf_append(&b, _("[media]"), strlen(_("[media]")));
		if (e->text[0] != '\0')
			buf_push(&b, ' ');
		wc_sanitize(e->text, strlen(e->text), true, &b);
		g->text = (char *)b.p;
	} else
		g->text = clean(e->text, true);
	g->quoted_id = xstrdup(e->quoted_id);
	g->quoted_sender = xstrdup(e->quoted_sender);
	g->quoted = clean(e->quoted_text, false);
	g->reactions = clean(e->reactions, false);
	g->from_me = e->from_me != 0;
	g->notice = e->kind == ROW_NOTICE;
	g->edited = e->edited_ms != 0;
	g->deleted = e->deleted != 0;
	g->tick = g->from_me ? ui_tick_of_row(e->state) : UI_TICK_NONE;
}

static int	block_rows(struct ui_msgs *m, size_t i, int w);

/* Rows [from, to) out of the held ones. */
static void
drop(struct ui_msgs *m, size_t from, size_t to)
{
	size_t	 i;

	for (i = from; i < to; i++)
		msg_release(&m->v[i]);
	memmove(m->v + from, m->v + to, (m->n - to) * sizeof(*m->v));
	m->n -= to - from;
	if (m->sel >= (int)to)
		m->sel -= (int)(to - from);
	else if (m->sel >= (int)from)
		m->sel = -1;
}

/* Insert a new row at index at, shifting the selection. */
static struct ui_msg *
insert_at(struct ui_msgs *m, size_t at)
{
	m->v = xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
	memmove(m->v + at + 1, m->v + at, (m->n - at) * sizeof(*m->v));
	memset(&m->v[at], 0, sizeof(m->v[at]));
	m->n++;
	if (m->sel >= (int)at)
		m->sel++;
	return &m->v[at];
}

static int
find_row(const struct ui_msgs *m, const struct ev_msg *e)
{
	size_t	 i;

	for (i = 0; i < m->n; i++)
		if (m->v[i].rowid == e->rowid ||
		    (m->v[i].from_me == (e->from_me != 0) &&
		    strcmp(m->v[i].id, e->id) == 0))
			return (int)i;
	return -1;
}

/* A page around a message (EV_PAGE num 2): the rows, that message
 * selected. */
static bool
page_around(struct ui_msgs *m, const struct ev *ev)
{
	size_t	 i, n = ev->nmsgs;

	if (m->loading != 3)
		return true;	/* not asked (or asked again since) */
	clear_rows(m);
	if (n > UI_MSGS_KEEP)
		n = UI_MSGS_KEEP;
	m->v = xcalloc(n > 0 ? n : 1, sizeof(*m->v));
	m->sel = -1;
	for (i = 0; i < n; i++) {
		from_row(&m->v[i], &ev->msgs[i]);
		if (ev->msgs[i].rowid == m->target)
			m->sel = (int)i;
	}
	m->n = n;
	m->scroll = 0;
	m->more_before = ev->more != 0;
	m->more_after = ev->more_after != 0 || n < ev->nmsgs;
	m->unseen = false;
	m->loading = 0;
	return true;
}

bool
ui_msgs_page(struct ui_msgs *m, const struct ev *ev)
{
	size_t		 i, added = 0;
	int		 dir = (int32_t)ev->num, at;
	struct ui_msg	*g;

	if (m->chat == NULL || ev->chat == NULL ||
	    strcmp(ev->chat, m->chat) != 0)
		return false;
	if (dir == 2)
		return page_around(m, ev);
	if (dir == 0) {
		clear_rows(m);
		m->sel = -1;
		m->scroll = 0;
		m->more_after = false;
		m->more_before = ev->more != 0;
		m->unseen = false;
	}
	for (i = 0; i < ev->nmsgs; i++) {
		const struct ev_msg	*e = &ev->msgs[i];

		if ((at = find_row(m, e)) >= 0) {
			/* Held already (a row read again): in place. */
			g = &m->v[at];
			msg_release(g);
			from_row(g, e);
			continue;
		}
		if (dir > 0 && m->loading != 1)
			continue;	/* a row read again, dropped since */
		g = insert_at(m, dir < 0 ? added : m->n);
		from_row(g, e);
		added++;
	}
	if (dir < 0) {
		m->more_before = ev->more != 0;
		if (m->n > UI_MSGS_KEEP) {
			/* The bottom moves up by the rows dropped. */
			for (i = UI_MSGS_KEEP; i < m->n && m->width > 0; i++)
				m->scroll -= block_rows(m, i, m->width);
			if (m->scroll < 0 || m->width == 0)
				m->scroll = 0;
			drop(m, UI_MSGS_KEEP, m->n);
			m->more_after = true;
		}
	} else if (dir > 0 && (added > 0 || m->loading == 1)) {
		/* Newer rows below: the view stays where it was. */
		for (i = m->n - added; i < m->n && m->width > 0; i++)
			m->scroll += block_rows(m, i, m->width);
		if (m->loading == 1)
			m->more_after = ev->more != 0;
		if (m->n > UI_MSGS_KEEP) {
			drop(m, 0, m->n - UI_MSGS_KEEP);
			m->more_before = true;
		}
	}
	if ((dir == 0 && m->loading == 2) || (dir < 0 && m->loading == -1) ||
	    (dir > 0 && m->loading == 1))
		m->loading = 0;
	return true;
}

/* The reactions summary of a row from its event reactions: "👍 2  ❤️". */
static void
summarise(struct ui_msg *g)
{
	struct buf	 b = BUF_INIT;
	size_t		 i, j, n;
	bool		 seen;
	char		 num[24];

	for (i = 0; i < g->nreacts; i++) {
		if (g->reacts[i].emoji[0] == '\0')
			continue;
		for (seen = false, j = 0; j < i && !seen; j++)
			seen = strcmp(g->reacts[j].emoji,
			    g->reacts[i].emoji) == 0;
		if (seen)
			continue;
		for (n = 0, j = i; j < g->nreacts; j++)
			n += strcmp(g->reacts[j].emoji, g->reacts[i].emoji) ==
			    0;
		if (b.len > 0)
			buf_append(&b, "  ", 2);
		buf_append(&b, g->reacts[i].emoji, strlen(g->reacts[i].emoji));
		if (n > 1) {
			snprintf(num, sizeof(num), " %zu", n);
			buf_append(&b, num, strlen(num));
		}
	}
	buf_push(&b, '\0');
	free(g->reactions);
	g->reactions = (char *)b.p;
}

static void
react(struct ui_msg *g, const char *sender, const char *emoji)
{
	size_t	 i;

	for (i = 0; i < g->nreacts; i++)
		if (strcmp(g->reacts[i].sender, sender) == 0)
			break;
	if (i == g->nreacts) {
		if (g->nreacts >= 256)
			return;		/* bounded: one per sender */
		g->reacts = xrealloc(g->reacts, (g->nreacts + 1) *
		    sizeof(*g->reacts));
		g->reacts[i].sender = xstrdup(sender);
		g->reacts[i].emoji = NULL;
		g->nreacts++;
	}
	set_clean(&g->reacts[i].emoji, emoji, false);
	summarise(g);
}

/* An EV_MESSAGE as a new row, in time order. */
static bool
add(struct ui_msgs *m, const struct ev *ev)
{
	struct ui_msg	*g;
	size_t		 at = m->n;
	int		 q;

	if ((q = ui_msgs_find(m, ev->id)) >= 0) {
		g = &m->v[q];
		set_clean(&g->text, ev->text, true);
		if (g->from_me)
			g->tick = ui_tick_of_event(ev->state);
		g->rows_width = 0;
		return true;
	}
	if (m->more_after || m->loading >= 2) {
		m->unseen = m->more_after;
		return false;	/* the newest rows are not held */
	}
	while (at > 0 && m->v[at - 1].ts_ms > ev->ts_ms)
		at--;
	g = insert_at(m, at);
	g->ts_ms = ev->ts_ms;
	g->id = xstrdup(ev->id != NULL ? ev->id : "");
	g->sender = xstrdup(ev->sender != NULL ? ev->sender : "");
	g->sender_name = clean(ev->sender_name, false);
	g->text = clean(ev->text, true);
	g->quoted_id = xstrdup(ev->quoted_id != NULL ? ev->quoted_id : "");
	g->quoted_sender = xstrdup("");
	q = ui_msgs_find(m, ev->quoted_id);
	g->quoted = xstrdup(q >= 0 && q != (int)at ? m->v[q].text : "");
	g->quoted[strcspn(g->quoted, "\n")] = '\0';
	g->reactions = xstrdup("");
	g->from_me = ev->from_me != 0;
	g->notice = ev->notice != 0;
	g->tick = g->from_me ? ui_tick_of_event(ev->state) : UI_TICK_NONE;
	if (m->n > UI_MSGS_KEEP) {
		drop(m, 0, m->n - UI_MSGS_KEEP);
		m->more_before = true;
	}
	return true;
}

bool
ui_msgs_apply(struct ui_msgs *m, const struct ev *ev, struct cmd **refresh)
{
	struct ui_msg	*g;
	char		 cur[64];
	int		 i;

	if (refresh != NULL)
		*refresh = NULL;
	if (m->chat == NULL || ev->chat == NULL ||
	    strcmp(ev->chat, m->chat) != 0)
		return false;
	if (ev->kind == EV_MESSAGE)
		return add(m, ev);
	if ((i = ui_msgs_find(m, ev->id)) < 0)
		return false;
	g = &m->v[i];
	switch (ev->kind) {
	case EV_MSG_STATE:
		if (!g->from_me)
			return false;
		g->tick = ui_tick_of_event(ev->state);
		break;
	case EV_SEND_FAILED:
		g->tick = UI_TICK_FAILED;
		break;
	case EV_MSG_CHANGED:
		if (ev->deleted) {
			g->deleted = true;
			set_clean(&g->text, "", true);
		} else {
			g->edited = true;
			set_clean(&g->text, ev->text, true);
		}
		g->rows_width = 0;
		break;
	case EV_REACTION:
		if (g->rowid != 0 && refresh != NULL) {
			/* The store has every sender's: read the row
			 * again (the page after the row just before). */
			cursor(g, 1, cur, sizeof(cur));
			*refresh = cmd_new_chat(CMD_LOAD_PAGE, m->chat, NULL,
			    "1", cur, 1);
		}
		react(g, ev->sender != NULL ? ev->sender : "", ev->text);
		break;
	default:
		return false;
	}
	return true;
}

void
ui_msgs_set_group(struct ui_msgs *m, const struct ui_group *g)
{
	size_t	 i;

	m->group = g;
	for (i = 0; i < m->n; i++)
		m->v[i].rows_width = 0;
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

void
ui_msgs_scroll(struct ui_msgs *m, int rows)
{
	m->scroll += rows;
	if (m->scroll < 0)
		m->scroll = 0;
}

bool
ui_msgs_at_top(const struct ui_msgs *m)
{
	return m->height == 0 || m->at_top;	/* never drawn: as at top */
}

/* ---- layout and drawing ---- */

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
	t = g->deleted ? "" : g->shown != NULL ? g->shown : g->text;
	len = strlen(t);
	free(g->rows);
	g->nrows = ui_text_wrap(t, len, w, NULL, 0);
	g->rows = xcalloc((size_t)g->nrows, sizeof(*g->rows));
	(void)ui_text_wrap(t, len, w, g->rows, g->nrows);
	g->rows_width = w;
}

/* The rows message i takes at width w, its day separator included. */
static int
block_rows(struct ui_msgs *m, size_t i, int w)
{
	struct ui_msg	*g = &m->v[i];
	int		 r = 0;

	if (i == 0 || !same_day(m->v[i - 1].ts_ms, g->ts_ms))
		r++;
	if (g->notice) {
		wrap(m, g, w - 2);
		return r + g->nrows;
	}
	wrap(m, g, w - INDENT);
	r += 1 + (g->deleted ? 1 : g->nrows);
	r += g->quoted_id[0] != '\0' && !g->deleted;	/* the quote goes too */
	r += g->reactions[0] != '\0';
	return r;
}

const char *
ui_msgs_text(struct ui_msgs *m, size_t i)
{
	int	 w = m->width > INDENT + 4 ? m->width : 80;

	(void)block_rows(m, i, w);
	return m->v[i].shown != NULL ? m->v[i].shown : m->v[i].text;
}

static const char *
tick_text(enum ui_tick t)
{
	switch (t) {
	case UI_TICK_NONE:	return "";
	case UI_TICK_QUEUED:	return "\xe2\x80\xa6";		/* … */
	case UI_TICK_SENT:	return "\xe2\x9c\x93";		/* ✓ */
	case UI_TICK_DELIVERED:
	case UI_TICK_READ:	return "\xe2\x9c\x93\xe2\x9c\x93";
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

/* Draw the rows of g's text, indented, or centred (notices). */
static void
draw_rows(struct pen *p, const struct ui_msg *g, int indent, bool centre)
{
	const char	*t = g->shown != NULL ? g->shown : g->text;
	int		 i, y, x;

	for (i = 0; i < g->nrows; i++) {
		if ((y = next_row(p)) < 0)
			continue;
		x = p->x + indent;
		if (centre && g->rows[i].cols < p->w)
			x = p->x + (p->w - g->rows[i].cols) / 2;
		(void)draw_spans(y, x, t, g->rows[i].off, g->rows[i].off +
		    g->rows[i].len, p->w - (x - p->x), g->spans, g->nspans);
	}
}

static void
draw_msg(struct ui_msgs *m, size_t i, struct pen *p, const char *peer,
    int64_t now_ms)
{
	struct ui_msg	*g = &m->v[i];
	struct buf	 who = BUF_INIT;
	char		 when[32], head[64];
	const char	*tick;
	int		 y, used, tw, colour;
	attr_t		 hl;
	bool		 sel = (int)i == m->sel;

	if (i == 0 || !same_day(m->v[i - 1].ts_ms, g->ts_ms))
		draw_day(p, g->ts_ms, now_ms);
	ui_chats_when(g->ts_ms, g->ts_ms, when, sizeof(when));
	if (g->notice) {
		attron(A_DIM | A_ITALIC);
		draw_rows(p, g, 2, true);
		attroff(A_DIM | A_ITALIC);
		return;
	}
	if (sel)
		attron(A_REVERSE);
	if ((y = next_row(p)) >= 0) {
		if (sel)
			mvhline(y, p->x, ' ', p->w);
		/* In a group the sender's name in their colour; in a
		 * 1:1 chat the sender is the chat: its name. */
		ui_msgs_sender(m, i, peer, &who, &colour);
		hl = A_BOLD;
		if (colour >= 0 && has_colors())
			hl |= COLOR_PAIR(UI_GROUP_PAIR0 + colour);
		attron(hl);
		used = ui_text_draw(y, p->x, (char *)who.p,
		    strlen((char *)who.p), p->w - 8);
		attroff(hl);
		snprintf(head, sizeof(head), " %s%s", when, g->edited &&
		    !g->deleted ? _(" (edited)") : "");
		used += ui_text_draw(y, p->x + used, head, strlen(head),
		    p->w - used);
		tick = tick_text(g->tick);
		tw = ui_text_width(tick, strlen(tick));
		if (tw > 0 && used + 1 + tw <= p->w) {
			if (g->tick == UI_TICK_READ)
				attron(has_colors() ? COLOR_PAIR(PAIR_READ) :
				    A_BOLD);
			if (g->tick == UI_TICK_FAILED)
				attron(A_BOLD);
			(void)ui_text_draw(y, p->x + used + 1, tick,
			    strlen(tick), tw);
			if (g->tick == UI_TICK_READ)
				attroff(has_colors() ? COLOR_PAIR(PAIR_READ) :
				    A_BOLD);
			if (g->tick == UI_TICK_FAILED)
				attroff(A_BOLD);
		}
	}
	if (sel)
		attroff(A_REVERSE);
	buf_release(&who);
	if (g->quoted_id[0] != '\0' && !g->deleted && (y = next_row(p)) >= 0) {
		struct buf	 q = BUF_INIT;

		buf_append(&q, "> ", 2);
		if (g->quoted[0] != '\0')
			buf_append(&q, g->quoted, strlen(g->quoted));
		else
			buf_append(&q, "\xe2\x80\xa6", 3);
		buf_push(&q, '\0');
		attron(A_DIM);
		(void)ui_text_draw(y, p->x + INDENT, (char *)q.p,
		    strlen((char *)q.p), p->w - INDENT);
		attroff(A_DIM);
		buf_release(&q);
	}
	if (g->deleted) {
		if ((y = next_row(p)) >= 0) {
			attron(A_DIM | A_ITALIC);
			(void)ui_text_draw(y, p->x + INDENT,
			    _("message deleted"), strlen(_("message deleted")),
			    p->w - INDENT);
			attroff(A_DIM | A_ITALIC);
		}
	} else
		draw_rows(p, g, INDENT, false);
	if (g->reactions[0] != '\0' && (y = next_row(p)) >= 0)
		(void)ui_text_draw(y, p->x + INDENT, g->reactions,
		    strlen(g->reactions), p->w - INDENT);
}

void
ui_msgs_draw(struct ui_msgs *m, int y, int x, int h, int w,
    const char *peer, int64_t now_ms)
{
	struct pen	 p;
	int		 total = 0, *start, i, bottom, s, e;

	m->height = h;
	m->width = w;
	if (h < 1 || w < INDENT + 4)
		return;
	start = xcalloc(m->n + 1, sizeof(*start));
	for (i = 0; i < (int)m->n; i++) {
		start[i] = total;
		total += block_rows(m, (size_t)i, w);
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
}
