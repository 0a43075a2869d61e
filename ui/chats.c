/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/chats.c -- the chat list pane (ui/chats.h). */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curses.h>

#include "base/buf.h"
#include "ui/chats.h"
#include "ui/rich.h"
#include "ui/media.h"
#include "base/i18n.h"
#include "base/sanitize.h"
#include "ui/text.h"
#include "base/xmalloc.h"

#define MARK_PINNED	"\xf0\x9f\x93\x8c"	/* 📌 */
#define MARK_MUTED	"\xf0\x9f\x94\x87"	/* 🔇 */
#define MARK_PINNED_ASCII "^"
#define MARK_MUTED_ASCII "~"
#define MARK_BLOCKED	"\xe2\x8a\x98"	/* ⊘ */
#define MARK_BLOCKED_ASCII "x"
#define MARK_UNREAD	"\xe2\x97\x8f"		/* ● marked unread */
#define MARK_UNREAD_ASCII "*"

/* Muted at now: for ever (-1), or until a time still to come. */
static bool
muted_at(int64_t until, int64_t now)
{
	return until == -1 || until > now;
}

void
ui_chats_init(struct ui_chats *c)
{
	memset(c, 0, sizeof(*c));
}

static void
chat_release(struct ui_chat *ch)
{
	free(ch->jid);
	free(ch->name);
	free(ch->preview);
	free(ch->draft);
}

void
ui_chats_release(struct ui_chats *c)
{
	size_t	 i;

	for (i = 0; i < c->n; i++)
		chat_release(&c->v[i]);
	free(c->v);
	free(c->sel);
	memset(c, 0, sizeof(*c));
}

static char *
sanitised(const char *s, bool multiline)
{
	struct buf	 b = BUF_INIT;

	wc_sanitize(s, strlen(s), multiline, &b);
	return (char *)b.p;
}

void
ui_chats_jid_name(const char *jid, struct buf *out)
{
	if (!ui_group_phone_name(jid, out))
		wc_sanitize(jid, strlen(jid), false, out);
}

static void
chat_fill(struct ui_chat *ch, const char *jid, const char *name)
{
	struct buf	 b = BUF_INIT;

	ch->jid = xstrdup(jid);
	ch->group = ui_group_is_jid(jid);
	if (wc_has_label(name))
		ch->name = sanitised(name, false);
	else {
		ui_chats_jid_name(jid, &b);
		ch->name = (char *)b.p;
	}
}

int
ui_chats_find(const struct ui_chats *c, const char *jid)
{
	size_t	 i;

	for (i = 0; i < c->n; i++)
		if (strcmp(c->v[i].jid, jid) == 0)
			return (int)i;
	return -1;
}

/*
 * A group's preview: the text after who sent it, "You" for ours; the
 * sender of another's comes with the chat (EV_CHATS last_sender and
 * last_sender_name), else from the messages seen (ui_groups_note())
 * when their time is the chat's last.
 */
static char *
group_preview(const struct ev_chat *e, const struct ui_group *g,
    const char *text)
{
	struct buf	 b = BUF_INIT;
	struct ui_span	*sp;
	size_t		 n;
	char		*t = sanitised(text, false);

	if (e->last_kind == EV_ROW_NOTICE || e->last_deleted || e->last_ms == 0)
		return t;
	if (e->last_from_me)
		buf_append(&b, _("You"), strlen(_("You")));
	else if (e->last_sender != NULL && e->last_sender[0] != '\0') {
		ui_group_name(g, e->last_sender, e->last_sender_name, &b);
		b.len--;	/* the NUL */
	} else if (g != NULL && g->last_ms == e->last_ms && !g->last_from_me &&
	    g->last_sender[0] != '\0') {
		ui_group_name(g, g->last_sender, g->last_name, &b);
		b.len--;	/* the NUL */
	}
	if (b.len > 0)
		buf_append(&b, ": ", 2);
	/* Mentions by name, as in the chat. */
	ui_group_mentions(g, t, &b, &sp, &n);
	free(sp);
	free(t);
	return (char *)b.p;
}

void
ui_chats_group(struct ui_chats *c, const struct ui_group *g)
{
	int	 i = ui_chats_find(c, g->jid);

	if (i < 0 || g->subject[0] == '\0')
		return;
	free(c->v[i].name);
	c->v[i].name = xstrdup(g->subject);
}

/* Chat ch from e (gs names groups). */
static void
chat_from(struct ui_chat *ch, const struct ev_chat *e,
    const struct ui_groups *gs, int64_t now)
{
	const struct ui_group	*g = gs != NULL ? ui_groups_find(gs, e->jid) :
				    NULL;
	const char		*text = e->last_deleted ? _("message deleted") :
				    e->preview;
	char			*md = NULL;

	/* media: its icon and word first (sanitised already) */
	if (!e->last_deleted && e->last_kind == EV_ROW_MEDIA &&
	    e->last_media != EV_MEDIA_NONE)
		text = md = ui_media_preview(e->last_media, e->preview);
	else if (!e->last_deleted && e->last_kind == EV_ROW_RICH &&
	    (md = ui_rich_preview(e->preview)) != NULL)
		text = md;	/* its words, not its record */
	chat_fill(ch, e->jid, wc_has_label(e->name) || g == NULL ? e->name :
	    g->subject);
	ch->preview = ch->group ? group_preview(e, g, text) :
	    sanitised(text, false);
	free(md);
	ch->last_ms = e->last_ms;
	ch->unread = (int)e->unread;
	ch->muted_until = e->muted_until;
	/* by its end when it came with one, else as the engine saw it */
	ch->muted = e->muted_until != 0 ? muted_at(e->muted_until, now) :
	    e->muted;
	ch->archived = e->archived;
	ch->marked_unread = e->marked_unread;
	ch->peek = e->peek >= 0 && e->peek <= 2 ? e->peek : 0;
	ch->ephemeral_s = e->ephemeral_s;
	ch->pinned = e->pinned;
	ch->last_from_me = e->last_from_me;
	ch->last_state = e->last_state;
}

/* A new chat at v[0] (opened from the picker, no message yet) moved past
 * the pinned chats after it in v[1 .. n): the top of the unpinned part,
 * pinned staying first. */
static void
after_pinned(struct ui_chat *v, size_t n)
{
	struct ui_chat	 ch;
	size_t		 p = 1;

	while (p < n && v[p].pinned && !v[p].archived)
		p++;
	if (p == 1)
		return;
	ch = v[0];
	memmove(v, v + 1, (p - 1) * sizeof(*v));
	v[p - 1] = ch;
}

void
ui_chats_set(struct ui_chats *c, const struct ev *ev,
    const struct ui_groups *gs, int64_t now)
{
	const struct ev_chats *ec = &ev->u.chats;
	struct ui_chat	*v;
	size_t		 i, n = 0, extra = 0, pass;
	bool		 keep;

	keep = c->sel != NULL;
	if (keep) {
		for (i = 0; i < ec->nchats; i++)
			if (strcmp(ec->chats[i].jid, c->sel) == 0)
				break;
		extra = i == ec->nchats;
	}
	v = xcalloc(ec->nchats + extra + 1, sizeof(*v));
	if (extra) {
		/* Started by number, not stored yet: it stays, first
		 * after the pinned ones (after_pinned()). */
		int	 old = ui_chats_find(c, c->sel);

		if (old >= 0 && !c->v[old].archived) {
			v[n++] = c->v[old];
			memset(&c->v[old], 0, sizeof(c->v[old]));
		} else
			chat_fill(&v[n++], c->sel, NULL);
	}
	/* the chats not archived, then the archived ones */
	c->narch = 0;
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < ec->nchats; i++) {
			if (ec->chats[i].archived != (pass == 1))
				continue;
			chat_from(&v[n++], &ec->chats[i], gs, now);
			c->narch += pass;
		}
	if (extra)
		after_pinned(v, n);
	for (i = 0; i < n; i++)
		if (v[i].preview == NULL)
			v[i].preview = xstrdup("");
	for (i = 0; i < c->n; i++)
		chat_release(&c->v[i]);
	free(c->v);
	c->v = v;
	c->n = n;
	if (c->narch == 0)
		c->folder = false;
	if (c->top >= n)
		c->top = 0;
}

bool
ui_chats_tick(struct ui_chats *c, int64_t now)
{
	bool	 changed = false;
	size_t	 i;

	for (i = 0; i < c->n; i++)
		if (c->v[i].muted && c->v[i].muted_until != 0 &&
		    !muted_at(c->v[i].muted_until, now)) {
			c->v[i].muted = false;
			changed = true;
		}
	return changed;
}

void
ui_chats_range(const struct ui_chats *c, size_t *lo, size_t *hi)
{
	*lo = c->folder ? c->n - c->narch : 0;
	*hi = c->folder ? c->n : c->n - c->narch;
}

void
ui_chats_folder(struct ui_chats *c, bool on)
{
	c->folder = on && c->narch > 0;
	c->top = 0;
}

int
ui_chats_archived_unread(const struct ui_chats *c)
{
	size_t	 i;
	int	 k = 0;

	for (i = c->n - c->narch; i < c->n; i++)
		if (c->v[i].unread > 0 && !c->v[i].muted)
			k++;
	return k;
}

bool
ui_chats_slot(const struct ui_chats *c, size_t i, int *chat)
{
	size_t	 lo, hi;

	ui_chats_range(c, &lo, &hi);
	*chat = -1;
	if (lo + c->top + i < hi) {
		*chat = (int)(lo + c->top + i);
		return false;
	}
	return !c->folder && c->narch > 0 && lo + c->top + i == hi;
}

struct ui_chat *
ui_chats_selected(const struct ui_chats *c)
{
	int	 i = c->sel != NULL ? ui_chats_find(c, c->sel) : -1;

	return i >= 0 ? &c->v[i] : NULL;
}

bool
ui_chats_select(struct ui_chats *c, const char *jid)
{
	int	 i = ui_chats_find(c, jid);

	if (i < 0)
		return false;
	if (c->v[i].archived != c->folder)
		ui_chats_folder(c, c->v[i].archived);
	if (c->sel == jid)
		return true;
	free(c->sel);
	c->sel = xstrdup(jid);
	return true;
}

/* The index of the selected chat among those shown (lo .. hi), or -1. */
static int
shown_sel(const struct ui_chats *c, size_t lo, size_t hi)
{
	int	 i = c->sel != NULL ? ui_chats_find(c, c->sel) : -1;

	return i >= (int)lo && i < (int)hi ? i - (int)lo : -1;
}

bool
ui_chats_move(struct ui_chats *c, int dir)
{
	size_t	 lo, hi;
	int	 i, n;

	ui_chats_range(c, &lo, &hi);
	if ((n = (int)(hi - lo)) == 0)
		return false;
	i = shown_sel(c, lo, hi);
	if (i < 0)
		i = dir > 0 ? -1 : 0;
	i = (i + (dir > 0 ? 1 : -1) + n) % n;
	return ui_chats_select(c, c->v[lo + (size_t)i].jid);
}

bool
ui_chats_next_unread(struct ui_chats *c)
{
	size_t	 lo, hi;
	int	 i, k, start, n;

	ui_chats_range(c, &lo, &hi);
	if ((n = (int)(hi - lo)) == 0)
		return false;
	start = shown_sel(c, lo, hi);
	for (k = 1; k <= n; k++) {
		i = (start + k + n) % n;
		if (c->v[lo + (size_t)i].unread > 0 && i != start)
			return ui_chats_select(c, c->v[lo + (size_t)i].jid);
	}
	return false;
}

void
ui_chats_open(struct ui_chats *c, const char *jid)
{
	if (ui_chats_find(c, jid) < 0) {
		c->v = xrealloc(c->v, (c->n + 1) * sizeof(*c->v));
		memmove(c->v + 1, c->v, c->n * sizeof(*c->v));
		memset(&c->v[0], 0, sizeof(c->v[0]));
		chat_fill(&c->v[0], jid, NULL);
		c->v[0].preview = xstrdup("");
		c->n++;
		after_pinned(c->v, c->n);
	}
	(void)ui_chats_select(c, jid);
	c->top = 0;
}

void
ui_chats_when(int64_t ts_ms, int64_t now_ms, char *out, size_t size)
{
	time_t		 t = (time_t)(ts_ms / 1000);
	time_t		 n = (time_t)(now_ms / 1000);
	struct tm	 tm, tn;

	if (size == 0)
		return;
	out[0] = '\0';
	if (localtime_r(&t, &tm) == NULL || localtime_r(&n, &tn) == NULL)
		return;
	if (tm.tm_year == tn.tm_year && tm.tm_yday == tn.tm_yday)
		(void)strftime(out, size, "%H:%M", &tm);
	else if (tm.tm_year == tn.tm_year)
		(void)strftime(out, size, "%d %b", &tm);
	else
		(void)strftime(out, size, "%Y-%m-%d", &tm);
}

/* The local midnight starting the day of tm (its fields normalised). */
static bool
day_start(struct tm *tm, int64_t *ms, char *label, size_t size)
{
	time_t	 t;
	int	 y = tm->tm_year, m = tm->tm_mon, d = tm->tm_mday;

	tm->tm_hour = tm->tm_min = tm->tm_sec = 0;
	tm->tm_isdst = -1;
	if ((t = mktime(tm)) == (time_t)-1)
		return false;
	if (tm->tm_year != y || tm->tm_mon != m || tm->tm_mday != d)
		return false;	/* Feb 30 normalised to March */
	*ms = (int64_t)t * 1000;
	(void)strftime(label, size, "%Y-%m-%d", tm);
	return true;
}

bool
ui_chats_parse_day(const char *s, int64_t now_ms, int64_t *ms, char *label,
    size_t size)
{
	static const char *const days[] = { "sunday", "monday", "tuesday",
	    "wednesday", "thursday", "friday", "saturday" };
	time_t		 now = (time_t)(now_ms / 1000);
	struct tm	 tm, back;
	char		 w[32], name[64], tail;
	int		 y, m, d, i;
	size_t		 n;

	while (*s == ' ')
		s++;
	n = strlen(s);
	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n == 0 || n >= sizeof(w) || localtime_r(&now, &tm) == NULL)
		return false;
	memcpy(w, s, n);
	w[n] = '\0';
	if (sscanf(w, "%4d-%2d-%2d%c", &y, &m, &d, &tail) == 3 &&
	    y >= 1970 && m >= 1 && m <= 12 && d >= 1 && d <= 31) {
		memset(&tm, 0, sizeof(tm));
		tm.tm_year = y - 1900;
		tm.tm_mon = m - 1;
		tm.tm_mday = d;
		return day_start(&tm, ms, label, size);
	}
	if (strcasecmp(w, "today") == 0 || strcasecmp(w, _("today")) == 0)
		return day_start(&tm, ms, label, size);
	if (strcasecmp(w, "yesterday") == 0 ||
	    strcasecmp(w, _("yesterday")) == 0) {
		tm.tm_mday--;
		return day_start(&tm, ms, label, size);
	}
	for (i = 0; i < 7; i++) {	/* today, then back a day at a time */
		back = tm;
		back.tm_mday -= i;
		back.tm_hour = 12;	/* mktime()'s wday, clear of DST */
		back.tm_isdst = -1;
		if (mktime(&back) == (time_t)-1)
			return false;
		if (strftime(name, sizeof(name), "%A", &back) == 0)
			name[0] = '\0';
		if (strcasecmp(w, days[back.tm_wday]) == 0 ||
		    (name[0] != '\0' && strcasecmp(w, name) == 0))
			return day_start(&back, ms, label, size);
	}
	return false;
}

void
ui_chats_set_draft(struct ui_chats *c, const char *jid, const char *text)
{
	int	 i = ui_chats_find(c, jid);
	char	*line;

	if (i < 0)
		return;
	free(c->v[i].draft);
	c->v[i].draft = NULL;
	if (text == NULL || text[0] == '\0')
		return;
	line = xstrdup(text);
	line[strcspn(line, "\n")] = '\0';
	c->v[i].draft = sanitised(line, false);
	free(line);
}

/* The local midnight days before now's day (0: today's). */
static time_t
midnight(const struct tm *now, int days)
{
	struct tm	 m = *now;

	m.tm_hour = m.tm_min = m.tm_sec = 0;
	m.tm_mday -= days;
	m.tm_isdst = -1;
	return mktime(&m);
}

void
ui_chats_list_when(int64_t ts_ms, int64_t now_ms, char *out, size_t size)
{
	time_t		 t = (time_t)(ts_ms / 1000);
	time_t		 n = (time_t)(now_ms / 1000);
	struct tm	 tm, tn;

	if (size == 0)
		return;
	out[0] = '\0';
	if (localtime_r(&t, &tm) == NULL || localtime_r(&n, &tn) == NULL)
		return;
	if (t >= midnight(&tn, 0) && t < midnight(&tn, -1))
		(void)strftime(out, size, "%H:%M", &tm);
	else if (t >= midnight(&tn, 1) && t < midnight(&tn, 0))
		snprintf(out, size, "%s", _("Yesterday"));
	else if (t >= midnight(&tn, 6) && t < midnight(&tn, 0))
		(void)strftime(out, size, "%a", &tm);
	else if (t > n - 365 * 86400 && t < n)
		(void)strftime(out, size, "%d %b", &tm);
	else
		(void)strftime(out, size, "%b %Y", &tm);
}

/* The tick of our last message in the list (as the pane draws it). */
static const char *
list_tick(enum ev_state st, bool ascii)
{
	switch (st) {
	case EV_STATE_QUEUED:	return ascii ? "..." : "\xe2\x80\xa6"; /* … */
	case EV_STATE_SENT:	return ascii ? "v" : "\xe2\x9c\x93";	/* ✓ */
	case EV_STATE_DELIVERED:
	case EV_STATE_READ:
	case EV_STATE_PLAYED:
		return ascii ? "vv" : "\xe2\x9c\x93\xe2\x9c\x93";
	case EV_STATE_FAILED:	return "!";
	case EV_STATE_NONE:	break;
	}
	return "";
}

/* Draw s cut to cols columns at (y, x); returns the columns used. */
static int
put(int y, int x, const char *s, int cols)
{
	return cols > 0 ? ui_text_draw(y, x, s, strlen(s), cols) : 0;
}

/* What chat ch's second row ends with, into num[size]: its unread
 * count, the marked-unread mark, our last message's tick, or nothing. */
static void
count_text(const struct ui_chat *ch, bool ascii, char *num, size_t size)
{
	num[0] = '\0';
	if (ch->unread > 0)
		snprintf(num, size, " %d", ch->unread);
	else if (ch->marked_unread)
		snprintf(num, size, " %s", ascii ? MARK_UNREAD_ASCII :
		    MARK_UNREAD);
	else if (ch->last_from_me && ch->draft == NULL)
		snprintf(num, size, " %s", list_tick(ch->last_state, ascii));
}

/* Chat ch's two rows from (row, x), w columns: marks, name (bold when
 * unread) and when; the preview (dim when muted) and the unread count
 * (bold; dim and not bold when muted, so a terminal without dim still
 * tells them apart). */
static void
draw_chat(const struct ui_chat *ch, int row, int x, int w, int64_t now_ms,
    bool ascii)
{
	char	 when[64], num[16];
	int	 used = 0, tw, nw, px = 1;

	mvhline(row, x, ' ', w);
	mvhline(row + 1, x, ' ', w);
	when[0] = '\0';
	if (ch->last_ms != 0)
		ui_chats_list_when(ch->last_ms, now_ms, when, sizeof(when));
	tw = ui_text_width(when, strlen(when));
	if (ch->pinned)
		used += put(row, x + used, ascii ? MARK_PINNED_ASCII :
		    MARK_PINNED, w - used);
	if (ch->muted)
		used += put(row, x + used, ascii ? MARK_MUTED_ASCII :
		    MARK_MUTED, w - used);
	if (ch->blocked)
		used += put(row, x + used, ascii ? MARK_BLOCKED_ASCII :
		    MARK_BLOCKED, w - used);
	if (used > 0)
		used += put(row, x + used, " ", w - used);
	if ((ch->unread > 0 || ch->marked_unread) && !ch->muted)
		attron(A_BOLD);
	used += put(row, x + used, ch->name, w - used - tw - 1);
	if ((ch->unread > 0 || ch->marked_unread) && !ch->muted)
		attroff(A_BOLD);
	if (tw > 0 && tw < w)
		(void)put(row, x + w - tw, when, tw);
	count_text(ch, ascii, num, sizeof(num));
	nw = ui_text_width(num, strlen(num));
	if (ch->draft != NULL) {
		/* what is typed there unsent, marked */
		attron(A_BOLD);
		px += put(row + 1, x + px, _("Draft:"), w - 1 - nw);
		attroff(A_BOLD);
		px += put(row + 1, x + px, " ", w - px - nw);
		(void)put(row + 1, x + px, ch->draft, w - px - nw);
	} else {
		if (ch->muted)
			attron(A_DIM);
		/* ours in a 1:1 chat (a group's preview names its sender) */
		if (ch->last_from_me && !ch->group && ch->last_ms != 0)
			px += put(row + 1, x + px, _("You: "), w - 1 - nw);
		(void)put(row + 1, x + px, ch->preview, w - px - nw);
		if (ch->muted)
			attroff(A_DIM);
	}
	if (nw > 0 && nw < w) {
		attr_t	 a = ch->unread == 0 && !ch->marked_unread ? 0 :
			    ch->muted ? A_DIM : A_BOLD;

		if (a != 0)
			attron(a);
		(void)put(row + 1, x + w - nw, num, nw);
		if (a != 0)
			attroff(a);
	}
}

/* The Archived row at (row, x), w columns: "Archived: 3 chats" (how
 * many it holds) and under it "1 unread" (of them unread and not muted)
 * when some are, bold then. */
static void
draw_archived(const struct ui_chats *c, int row, int x, int w)
{
	char	 line[96], held[48];
	int	 n = ui_chats_archived_unread(c), k = (int)c->narch;

	mvhline(row, x, ' ', w);
	mvhline(row + 1, x, ' ', w);
	snprintf(held, sizeof(held), ngettext("Archived: %d chat",
	    "Archived: %d chats", k), k);
	/* how many unread on the row's second line */
	snprintf(line, sizeof(line), ngettext("%d unread", "%d unread", n), n);
	if (n > 0)
		attron(A_BOLD);
	(void)put(row, x + 1, held, w - 1);
	if (n > 0)
		(void)put(row + 1, x + 1, line, w - 1);
	if (n > 0)
		attroff(A_BOLD);
}

void
ui_chats_draw(struct ui_chats *c, int y, int x, int h, int w,
    int64_t now_ms)
{
	int	 per = 2, fit = h / per, sel, i, k, shown;
	size_t	 lo, hi;

	if (fit < 1 || w < 4)
		return;
	ui_chats_range(c, &lo, &hi);
	shown = (int)(hi - lo) + (!c->folder && c->narch > 0 ? 1 : 0);
	if (c->top + (size_t)fit > (size_t)shown)
		c->top = shown > fit ? (size_t)(shown - fit) : 0;
	sel = shown_sel(c, lo, hi);
	if (sel >= 0) {
		/* the last chat selected: the Archived row under it shown
		 * too (no key selects that row) */
		int	 want = sel;

		if (fit > 1 && !c->folder && c->narch > 0 &&
		    sel == (int)(hi - lo) - 1)
			want = sel + 1;
		if ((size_t)sel < c->top)
			c->top = (size_t)sel;
		else if ((size_t)want >= c->top + (size_t)fit)
			c->top = (size_t)want - (size_t)fit + 1;
	}
	for (i = 0; i < fit; i++) {
		if (ui_chats_slot(c, (size_t)i, &k)) {
			draw_archived(c, y + i * per, x, w);
			break;
		}
		if (k < 0)
			break;
		if (k - (int)lo == sel)
			attron(A_REVERSE);
		draw_chat(&c->v[k], y + i * per, x, w, now_ms, c->ascii);
		if (k - (int)lo == sel)
			attroff(A_REVERSE);
	}
}
