/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/msgs.c -- the message pane of the open chat (ui/msgs.h): the rows
 * held, paged in from the store and changed by live events.  Their layout
 * and drawing (and the sender's name shown) are in ui/msgs-draw.c, which
 * this file calls (ui_msgs_block_rows() for paging) and which calls
 * nothing here: msgs.o -> msgs-draw.o, never back.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hex.h"
#include "base/i18n.h"
#include "base/notice.h"
#include "ui/msgs.h"
#include "ui/rich.h"
#include "ui/msgs-int.h"
#include "ui/media.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"

enum ui_tick
ui_tick_of(enum ev_state state)
{
	switch (state) {
	case EV_STATE_NONE:		return UI_TICK_NONE;
	case EV_STATE_QUEUED:		return UI_TICK_QUEUED;
	case EV_STATE_SENT:		return UI_TICK_SENT;
	case EV_STATE_DELIVERED:	return UI_TICK_DELIVERED;
	case EV_STATE_READ:
	case EV_STATE_PLAYED:		return UI_TICK_READ;
	case EV_STATE_FAILED:		return UI_TICK_FAILED;
	}
	return UI_TICK_NONE;
}

static void
set_clean(char **slot, const char *s, bool multiline)
{
	free(*slot);
	*slot = ui_msgs_clean(s, multiline);
}

static void
msg_release(struct ui_msg *g)
{
	free(g->id);
	free(g->sender);
	free(g->sender_name);
	free(g->text);
	free(g->quoted_id);
	free(g->quoted_sender);
	free(g->quoted);
	free(g->media);
	free(g->progress);
	ui_msgs_media_free(g->md);
	free(g->rich);
	ui_msgs_reacts_release(g);
	free(g->shown);
	free(g->spans);
	free(g->rows);
	ui_thumb_free(g->thumb);
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
	char		*chat = xstrdup(jid);	/* jid may be m->chat */
	struct cmd	*c;

	clear_rows(m);
	free(m->chat);
	m->chat = chat;
	m->group = NULL;
	m->more_before = m->more_after = m->unseen = false;
	m->unseen_n = 0;
	m->unread_rowid = 0;
	m->unread_n = 0;
	m->reveal = false;
	m->scroll = 0;
	m->sel = -1;
	m->loading = 2;
	c = cmd_new_chat(CMD_LOAD_PAGE, m->chat);
	c->u.load_page.dir = EV_PAGE_NEWEST;
	c->u.load_page.max = UI_MSGS_PAGE;
	return c;
}

struct cmd *
ui_msgs_open_at(struct ui_msgs *m, const char *jid, int64_t rowid)
{
	struct cmd	*c = ui_msgs_open(m, jid);

	c->u.load_page.dir = EV_PAGE_AROUND;
	c->u.load_page.rowid = rowid;
	m->loading = 3;
	m->target = rowid;
	return c;
}

struct cmd *
ui_msgs_open_unread(struct ui_msgs *m, const char *jid, uint32_t unread)
{
	struct cmd	*c = ui_msgs_open(m, jid);

	if (unread == 0)
		return c;
	c->u.load_page.dir = EV_PAGE_UNREAD;
	c->u.load_page.unread = unread;
	m->loading = 5;
	m->unread_n = unread;
	return c;
}

struct cmd *
ui_msgs_from(struct ui_msgs *m, int64_t ts_ms)
{
	struct cmd	*c;

	if (m->chat == NULL)
		return NULL;
	m->loading = 6;
	c = cmd_new_chat(CMD_LOAD_PAGE, m->chat);
	c->u.load_page.dir = EV_PAGE_FROM;
	c->u.load_page.from.ts_ms = ts_ms;
	c->u.load_page.max = UI_MSGS_PAGE;
	return c;
}

/* Drawn with the top of the oldest row held at the pane's top
 * (ui_msgs_draw() brings it down to the rows there are). */
#define SCROLL_TOP	(INT_MAX / 4)

/* Forget the rows held (not the chat, nor its group) and return the
 * CMD_LOAD_PAGE of chat's newest (dir 2) or oldest (dir 4) page. */
static struct cmd *
reload(struct ui_msgs *m, int dir)
{
	struct cmd	*c;

	clear_rows(m);
	m->more_before = m->more_after = m->unseen = false;
	m->unseen_n = 0;
	m->scroll = 0;
	m->sel = -1;
	m->loading = dir;
	c = cmd_new_chat(CMD_LOAD_PAGE, m->chat);
	c->u.load_page.dir = dir == 4 ? EV_PAGE_OLDEST : EV_PAGE_NEWEST;
	c->u.load_page.max = UI_MSGS_PAGE;
	return c;
}

struct cmd *
ui_msgs_oldest(struct ui_msgs *m)
{
	if (m->chat == NULL)
		return NULL;
	m->sel = -1;
	if (m->loading == 0 && !m->more_before && m->n > 0) {
		m->scroll = SCROLL_TOP;	/* held already */
		return NULL;
	}
	return reload(m, 4);
}

struct cmd *
ui_msgs_newest(struct ui_msgs *m)
{
	if (m->chat == NULL)
		return NULL;
	m->sel = -1;
	if (m->loading == 0 && !m->more_after) {
		m->scroll = 0;		/* held already */
		m->unseen = false;
		m->unseen_n = 0;
		return NULL;
	}
	return reload(m, 2);
}

/* CMD_LOAD_PAGE of up to max rows of chat before (dir < 0) or after the
 * keyset cursor of row g (its rowid - back). */
static struct cmd *
page_cmd(const char *chat, int dir, const struct ui_msg *g, int64_t back,
    uint32_t max)
{
	struct cmd		*c = cmd_new_chat(CMD_LOAD_PAGE, chat);
	struct cmd_load_page	*lp = &c->u.load_page;

	lp->dir = dir < 0 ? EV_PAGE_BEFORE : EV_PAGE_AFTER;
	lp->from.ts_ms = g->ts_ms;
	/* A row known only from an event has no rowid: the largest one
	 * for its time, so that a page before it still holds every row
	 * of the store older than it (the duplicate is merged away). */
	lp->from.rowid = g->rowid != 0 ? g->rowid - back : INT64_MAX;
	lp->max = max;
	return c;
}

struct cmd *
ui_msgs_more(struct ui_msgs *m, int dir)
{
	if (m->chat == NULL || m->loading != 0 || m->n == 0)
		return NULL;
	if (dir < 0 ? !m->more_before : !m->more_after)
		return NULL;
	m->loading = dir < 0 ? -1 : 1;
	return page_cmd(m->chat, dir, dir < 0 ? &m->v[0] : &m->v[m->n - 1],
	    0, UI_MSGS_PAGE);
}

static const char *
kind_text(const struct ev_msg *e)
{
	switch (e->kind) {
	case EV_ROW_UNSUPPORTED:
		return _("[a message wachat cannot show yet]");
	case EV_ROW_PLACEHOLDER:
		return _("[waiting for this message: it could not be "
		    "decrypted yet]");
	case EV_ROW_TEXT:
	case EV_ROW_MEDIA:
	case EV_ROW_NOTICE:
	case EV_ROW_RICH:
		break;
	}
	return NULL;
}

/*
 * The words of a typed notice (base/event.h enum ev_notice) in the
 * user's language (base/notice.h notice_words()), or NULL for
 * EV_NOTICE_TEXT (its text says it).  name: the member's name ("" unknown:
 * sender's number), device: the device.  Malloc'd, sanitised.
 */
static char *
notice_line(enum ev_notice kind, uint32_t device, const char *name,
    const char *sender)
{
	char	 num[64], words[512];

	snprintf(num, sizeof(num), "%.*s", (int)strcspn(sender, "@:"), sender);
	if (notice_words(kind, device, name[0] != '\0' ? name : num, words,
	    sizeof(words)) != 1)
		return NULL;
	return ui_msgs_clean(words, false);
}

/* The thumbnail a media row's event carries in hex (base/event.h), or
 * NULL: none, not hex, or over UI_THUMB_BYTES_MAX (ui_thumb_new()). */
static struct ui_thumb *
thumb_of(const struct ev_media *md)
{
	return md->type == EV_MEDIA_NONE ? NULL : ui_thumb_new_hex(md->thumb);
}

/* g a rich row with record rec (base/rich.h): its words as its text. */
static void
set_rich(struct ui_msg *g, const char *rec)
{
	free(g->rich);
	free(g->text);
	g->rich = xstrdup(rec);
	g->text = ui_rich_text(rec);
	ui_thumb_free(g->thumb);	/* a link preview's, under its text */
	g->thumb = ui_rich_thumb(rec);
	g->rows_width = 0;
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
	g->sender_name = ui_msgs_clean(e->sender_name, false);
	if (k != NULL)
		g->text = xstrdup(k);
	else if (e->kind == EV_ROW_NOTICE && (g->text = notice_line(
	    e->notice_kind, e->notice_device, e->sender_name,
	    e->sender)) != NULL)
		;	/* said in the user's language */
	else if (e->kind == EV_ROW_RICH && !e->deleted)
		set_rich(g, e->text);
	else if (e->kind == EV_ROW_MEDIA && e->media.type != EV_MEDIA_NONE) {
		ui_msgs_media_set(g, &e->media);
		g->thumb = thumb_of(&e->media);
	}
	else if (e->kind == EV_ROW_MEDIA) {	/* stored before migration 15 */
		buf_append(&b, _("[media]"), strlen(_("[media]")));
		if (e->text[0] != '\0')
			buf_push(&b, ' ');
		wc_sanitize(e->text, strlen(e->text), true, &b);
		g->text = (char *)b.p;
	} else
		g->text = ui_msgs_clean(e->text, true);
	g->quoted_id = xstrdup(e->quoted_id);
	g->quoted_sender = xstrdup(e->quoted_sender);
	g->quoted = ui_msgs_clean(e->quoted_text, false);
	ui_msgs_reacts_of_tally(g, e->reactions, e->nreactions);
	g->from_me = e->from_me;
	g->notice = e->kind == EV_ROW_NOTICE;
	g->edited = e->edited_ms != 0;
	g->deleted = e->deleted;
	g->starred = e->starred;
	g->forwarded = e->forwarded;
	g->tick = g->from_me ? ui_tick_of(e->state) : UI_TICK_NONE;
}

/* Media row g's text, now its new caption (sanitised), after its
 * media lines. */
static void
media_caption(struct ui_msg *g)
{
	struct buf	 b = BUF_INIT;

	buf_append(&b, g->media, strlen(g->media));
	if (g->text[0] != '\0')
		buf_push(&b, '\n');
	buf_append(&b, g->text, strlen(g->text));
	buf_push(&b, '\0');
	free(g->text);
	g->text = (char *)b.p;
}

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
		    (m->v[i].from_me == e->from_me &&
		    strcmp(m->v[i].id, e->id) == 0))
			return (int)i;
	return -1;
}

/* The rows held replaced by a page's (at most UI_MSGS_KEEP), nothing
 * selected, nor unseen; more_before and more_after as the page says. */
static void
page_replace(struct ui_msgs *m, const struct ev_page *pg)
{
	size_t	 i, n = pg->nmsgs;

	clear_rows(m);
	if (n > UI_MSGS_KEEP)
		n = UI_MSGS_KEEP;
	m->v = xcalloc(n > 0 ? n : 1, sizeof(*m->v));
	for (i = 0; i < n; i++)
		from_row(&m->v[i], &pg->msgs[i]);
	m->n = n;
	m->sel = -1;
	m->more_before = pg->more_before;
	m->more_after = pg->more_after || n < pg->nmsgs;
	m->unseen = false;
	m->unseen_n = 0;
	m->loading = 0;
}

/*
 * A page that replaces the rows held, asked with loading want (else
 * ignored): around a message (3: that one selected, in view), the oldest
 * (4: from the pane's top, nothing older), where the unread start (5: the
 * line above the first, from the first unread when there are more after
 * it, else above the unread_n-th incoming row from the end, as the store
 * counts, or the first of fewer; brought into view at the next draw), or
 * from a date (6: from the top; an empty page leaves the rows held).
 */
static bool
page_jump(struct ui_msgs *m, const struct ev_page *pg, int want)
{
	size_t		 i, at = 0;
	uint32_t	 k = 0;

	if (m->loading != want)
		return true;	/* not asked (or asked again since) */
	if (want == 6 && pg->nmsgs == 0) {
		m->loading = 0;
		return true;
	}
	page_replace(m, pg);
	m->scroll = want == 4 || want == 6 ? SCROLL_TOP : 0;
	if (want == 4)
		m->more_before = false;
	for (i = 0; want == 3 && i < m->n; i++)
		if (m->v[i].rowid == m->target)
			m->sel = (int)i;
	if (want != 5)
		return true;
	for (i = m->n; !pg->more_after && i-- > 0 && k < m->unread_n;)
		if (!m->v[i].from_me && !m->v[i].notice) {
			at = i;
			k++;
		}
	m->unread_rowid = m->n > 0 ? m->v[at].rowid : 0;
	m->reveal = m->unread_rowid != 0;
	return true;
}

/* A newest page (EV_PAGE_NEWEST) replaces the rows: none held, nothing
 * newer; more_before: the store has older ones. */
static void
page_reset(struct ui_msgs *m, bool more_before)
{
	clear_rows(m);
	m->sel = -1;
	m->scroll = 0;
	m->more_after = false;
	m->more_before = more_before;
	m->unseen = false;
	m->unseen_n = 0;
}

/* The rows of a page (e[0..n), oldest first) into those held: one held
 * already is read again in place; a new one goes before the rows held
 * (dir < 0) or after them (a newer page asked for, or the newest).
 * Returns how many were added. */
static size_t
page_merge(struct ui_msgs *m, const struct ev_msg *e, size_t n, int dir)
{
	struct ui_msg	*g;
	size_t		 i, added = 0;
	int		 at;

	for (i = 0; i < n; i++) {
		if ((at = find_row(m, &e[i])) >= 0) {
			/* Held already (a row read again): in place. */
			g = &m->v[at];
			msg_release(g);
			from_row(g, &e[i]);
			continue;
		}
		if (dir > 0 && m->loading != 1)
			continue;	/* a row read again, dropped since */
		g = insert_at(m, dir < 0 ? added : m->n);
		from_row(g, &e[i]);
		added++;
	}
	return added;
}

/* After an older page: beyond UI_MSGS_KEEP the newest rows go (the store
 * has them); the bottom moves up by the rows dropped. */
static void
page_trim_newest(struct ui_msgs *m)
{
	size_t	 i;

	if (m->n <= UI_MSGS_KEEP)
		return;
	for (i = UI_MSGS_KEEP; i < m->n && m->width > 0; i++)
		m->scroll -= ui_msgs_block_rows(m, i, m->width);
	if (m->scroll < 0 || m->width == 0)
		m->scroll = 0;
	drop(m, UI_MSGS_KEEP, m->n);
	m->more_after = true;
}

/* After a newer page that added rows [m->n - added, m->n): the view stays
 * where it was, and beyond UI_MSGS_KEEP the oldest rows go. */
static void
page_trim_oldest(struct ui_msgs *m, size_t added)
{
	size_t	 i;

	for (i = m->n - added; i < m->n && m->width > 0; i++)
		m->scroll += ui_msgs_block_rows(m, i, m->width);
	if (m->n > UI_MSGS_KEEP) {
		drop(m, 0, m->n - UI_MSGS_KEEP);
		m->more_before = true;
	}
}

bool
ui_msgs_page(struct ui_msgs *m, const struct ev *ev)
{
	const struct ev_page	*pg = &ev->u.page;
	size_t			 added;
	int			 dir;

	if (m->chat == NULL || strcmp(pg->chat, m->chat) != 0)
		return false;
	if (pg->dir == EV_PAGE_AROUND || pg->dir == EV_PAGE_OLDEST ||
	    pg->dir == EV_PAGE_UNREAD || pg->dir == EV_PAGE_FROM)
		return page_jump(m, pg, pg->dir == EV_PAGE_AROUND ? 3 :
		    pg->dir == EV_PAGE_OLDEST ? 4 : pg->dir == EV_PAGE_UNREAD ?
		    5 : 6);
	/* -1 older, 0 the newest, 1 newer */
	dir = pg->dir == EV_PAGE_BEFORE ? -1 : pg->dir == EV_PAGE_AFTER ? 1 :
	    0;
	if (dir == 0)
		page_reset(m, pg->more_before);
	added = page_merge(m, pg->msgs, pg->nmsgs, dir);
	if (dir < 0) {
		m->more_before = pg->more_before;
		page_trim_newest(m);
	} else if (dir > 0 && (added > 0 || m->loading == 1)) {
		if (m->loading == 1)
			m->more_after = pg->more_after;
		page_trim_oldest(m, added);
	}
	/* the page asked for came: the newest (2), older (-1), newer (1);
	 * a newest page replaces the rows an unread one (5) was for */
	if (m->loading == (dir == 0 ? 2 : dir < 0 ? -1 : 1) ||
	    (dir == 0 && m->loading == 5))
		m->loading = 0;
	return true;
}

/* The layout rows of all the rows held, at the last width drawn. */
static int
rows_total(struct ui_msgs *m)
{
	size_t	 i;
	int	 t = 0;

	for (i = 0; i < m->n; i++)
		t += ui_msgs_block_rows(m, i, m->width);
	return t;
}

/* A new message not drawn: the view stays where it is (reading back),
 * "new messages below" counts it. */
static bool
below(struct ui_msgs *m)
{
	m->unseen = true;
	if (m->unseen_n < UINT32_MAX)
		m->unseen_n++;
	return false;
}

/* An EV_MESSAGE as a new row, in time order.  Reading back (scrolled
 * up), the view stays in place and the row counts as unseen; with the
 * pane full there, the row is left in the store (more_after). */
static bool
add(struct ui_msgs *m, const struct ev_message *e)
{
	struct ui_msg	*g;
	size_t		 at = m->n;
	int		 q, before = 0;
	bool		 back = m->scroll > 0 && m->width > 0;

	if ((q = ui_msgs_find(m, e->key.id)) >= 0) {
		g = &m->v[q];
		if (e->rich)
			set_rich(g, e->text);
		else if (e->media.type != EV_MEDIA_NONE)
			ui_msgs_media_set(g, &e->media);
		else
			set_clean(&g->text, e->text, true);
		if (g->from_me)
			g->tick = ui_tick_of(e->state);
		g->rows_width = 0;
		return true;
	}
	if (m->more_after)
		return below(m);	/* the newest rows are not held */
	if (m->loading >= 2)
		return false;	/* a page on its way has it */
	if (back && m->n >= UI_MSGS_KEEP) {
		/* dropping the oldest would move the view */
		m->more_after = true;
		return below(m);
	}
	if (back)
		before = rows_total(m);
	while (at > 0 && m->v[at - 1].ts_ms > e->ts_ms)
		at--;
	g = insert_at(m, at);
	g->ts_ms = e->ts_ms;
	g->id = xstrdup(e->key.id);
	g->sender = xstrdup(e->key.sender);
	g->sender_name = ui_msgs_clean(e->sender_name, false);
	if (e->rich)
		set_rich(g, e->text);
	else if (e->media.type != EV_MEDIA_NONE) {
		ui_msgs_media_set(g, &e->media);
		g->thumb = thumb_of(&e->media);
	} else if (!e->notice || (g->text = notice_line(e->notice_kind,
	    e->notice_device, e->sender_name, e->key.sender)) == NULL)
		g->text = ui_msgs_clean(e->text, true);
	g->quoted_id = xstrdup(e->quoted_id);
	g->quoted_sender = xstrdup("");
	q = e->quoted_id[0] != '\0' ? ui_msgs_find(m, e->quoted_id) : -1;
	g->quoted = xstrdup(q >= 0 && q != (int)at ? m->v[q].text : "");
	g->quoted[strcspn(g->quoted, "\n")] = '\0';
	g->from_me = e->key.from_me;
	g->notice = e->notice;
	g->forwarded = e->forwarded;
	g->tick = g->from_me ? ui_tick_of(e->state) : UI_TICK_NONE;
	if (m->n > UI_MSGS_KEEP) {
		drop(m, 0, m->n - UI_MSGS_KEEP);
		m->more_before = true;
	}
	if (back) {
		/* the rows under the view grew: it stays */
		m->scroll += rows_total(m) - before;
		return below(m);
	}
	return true;
}

/* EV_UPLOAD on our row g: the line under it says how far (none once
 * the host has the file). */
static void
upload(struct ui_msg *g, const struct ev_upload *u)
{
	char	 line[128];

	free(g->progress);
	g->progress = NULL;
	g->rows_width = 0;
	if (u->done || !g->from_me)
		return;
	if (u->failed)
		snprintf(line, sizeof(line), "%s", _("upload failed"));
	else if (u->total <= 0)
		snprintf(line, sizeof(line), "%s", _("preparing the upload"));
	else
		snprintf(line, sizeof(line), _("uploading %d%%"),
		    (int)(u->sent * 100 / u->total));
	g->progress = xstrdup(line);
}

/* The message a messaging event is about, or NULL for other kinds. */
static const struct ev_key *
key_of(const struct ev *ev)
{
	switch (ev->kind) {
	case EV_MESSAGE:	return &ev->u.message.key;
	case EV_MSG_STATE:	return &ev->u.msg_state.key;
	case EV_MSG_CHANGED:	return &ev->u.msg_changed.key;
	case EV_REACTION:	return &ev->u.reaction.target;
	case EV_SEND_FAILED:	return &ev->u.send_failed.key;
	case EV_UPLOAD:		return &ev->u.upload.key;
	default:		return NULL;
	}
}

/* EV_REACTION on row g: the store's count of every sender's when the
 * event has it; else this sender's, with *refresh (may be NULL) reading
 * a stored row again. */
static void
reaction(struct ui_msgs *m, struct ui_msg *g, const struct ev_reaction *r,
    struct cmd **refresh)
{
	if (r->counted) {
		ui_msgs_reacts_of_tally(g, r->tally, r->ntally);
		return;
	}
	if (g->rowid != 0 && refresh != NULL) {
		/* The store has every sender's: read the row again (the
		 * page after the row just before). */
		*refresh = page_cmd(m->chat, 1, g, 1, 1);
	}
	ui_msgs_react(g, r->sender, r->emoji);
}

bool
ui_msgs_apply(struct ui_msgs *m, const struct ev *ev, struct cmd **refresh)
{
	const struct ev_key	*k = key_of(ev);
	struct ui_msg		*g;
	int			 i;

	if (refresh != NULL)
		*refresh = NULL;
	if (m->chat == NULL || k == NULL || strcmp(k->chat, m->chat) != 0)
		return false;
	if (ev->kind == EV_MESSAGE)
		return add(m, &ev->u.message);
	if ((i = ui_msgs_find(m, k->id)) < 0)
		return false;
	g = &m->v[i];
	switch (ev->kind) {
	case EV_MSG_STATE:
		if (!g->from_me)
			return false;
		g->tick = ui_tick_of(ev->u.msg_state.state);
		break;
	case EV_SEND_FAILED:
		g->tick = UI_TICK_FAILED;
		break;
	case EV_MSG_CHANGED:
		if (ev->u.msg_changed.gone) {	/* expired: off the screen */
			ui_msgs_remove(m, k->id);
			return true;
		}
		if (ev->u.msg_changed.deleted) {
			g->deleted = true;
			set_clean(&g->text, "", true);
			free(g->rich);
			g->rich = NULL;
		} else if (g->rich != NULL)	/* a live location's update,
						 * not an edit */
			set_rich(g, ev->u.msg_changed.text);
		else {
			g->edited = true;
			set_clean(&g->text, ev->u.msg_changed.text, true);
			if (g->md != NULL)	/* the new caption */
				ui_msgs_media_caption(g, g->text);
			else if (g->media != NULL)
				media_caption(g);
		}
		g->rows_width = 0;
		break;
	case EV_REACTION:
		reaction(m, g, &ev->u.reaction, refresh);
		break;
	case EV_UPLOAD:
		upload(g, &ev->u.upload);
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
ui_msgs_scroll(struct ui_msgs *m, int rows)
{
	m->scroll += rows;
	if (m->scroll < 0)
		m->scroll = 0;
	if (m->scroll == 0 && !m->more_after) {
		m->unseen = false;	/* the bottom reached */
		m->unseen_n = 0;
	}
}

bool
ui_msgs_at_top(const struct ui_msgs *m)
{
	return m->height == 0 || m->at_top;	/* never drawn: as at top */
}
