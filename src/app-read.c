/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-read.c -- the events the engine thread reads from the store
 * (src/app-int.h): the chat list, pages of messages, search hits, a
 * group's metadata with its members' names, and a message's reactions.
 * Rows become typed payloads here: the store's states and kinds as
 * base/event.h's, reactions counted per emoji, names looked up, so the
 * screen has what it shows.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/event.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/notice.h"
#include "base/sanitize.h"
#include "base/sysrand.h"
#include "base/xmalloc.h"
#include "src/app-dm.h"
#include "src/app-int.h"
#include "src/app-media.h"
#include "store/store.h"
#include "store/store-people.h"

#define PAGE_DEFAULT	50
#define CHATS_MAX	1000
#define PEOPLE_MAX	2000	/* people offered to the chat picker */
#define SEARCH_DEFAULT	50

/* A stored message state as the UI's. */
static enum ev_state
state_of(enum store_msg_state st)
{
	switch (st) {
	case STORE_MSG_FAILED:		return EV_STATE_FAILED;
	case STORE_MSG_QUEUED:		return EV_STATE_QUEUED;
	case STORE_MSG_SENT:		return EV_STATE_SENT;
	case STORE_MSG_DELIVERED:	return EV_STATE_DELIVERED;
	case STORE_MSG_RECEIVED:	return EV_STATE_NONE;
	case STORE_MSG_READ:		return EV_STATE_READ;
	case STORE_MSG_PLAYED:		return EV_STATE_PLAYED;
	}
	return EV_STATE_NONE;
}

/* A stored row's kind as the UI's (hidden rows are never read out). */
static enum ev_row_kind
kind_of(enum store_msg_kind k)
{
	switch (k) {
	case STORE_MSG_TEXT:		return EV_ROW_TEXT;
	case STORE_MSG_MEDIA:		return EV_ROW_MEDIA;
	case STORE_MSG_NOTICE:		return EV_ROW_NOTICE;
	case STORE_MSG_UNSUPPORTED:	return EV_ROW_UNSUPPORTED;
	case STORE_MSG_PLACEHOLDER:	return EV_ROW_PLACEHOLDER;
	case STORE_MSG_HIDDEN:		return EV_ROW_TEXT;
	case STORE_MSG_RICH:		return EV_ROW_RICH;
	}
	return EV_ROW_TEXT;
}

char *
app_read_name(struct app *a, const char *jid)
{
	char	 name[1100];

	if (app_dm_name(a->store, jid, name, sizeof(name)) != 1)
		name[0] = '\0';
	return xstrdup(name);
}

/* notice_name_fn of the store: a person's contact or push name now. */
static void
name_now(void *arg, const char *jid, char *out, size_t len)
{
	struct app	*a = arg;

	if (app_dm_name(a->store, jid, out, len) != 1)
		out[0] = '\0';
}

char *
app_read_notice(struct app *a, const char *text)
{
	char	 words[1024];

	if (notice_group_words(text, name_now, a, words, sizeof(words)) != 1)
		return NULL;
	return xstrdup(words);
}

/* ---- the groups the UI was told of ---- */

static int
told_cmp(const void *k, const void *e)
{
	return strcmp(k, *(char *const *)e);
}

static bool
told_has(const struct app_told *t, const char *jid)
{
	return t->n > 0 && bsearch(jid, t->v, t->n, sizeof(*t->v),
	    told_cmp) != NULL;
}

static void
told_add(struct app_told *t, const char *jid)
{
	size_t	 lo = 0, hi = t->n, mid;
	int	 d;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if ((d = strcmp(jid, t->v[mid])) == 0)
			return;
		if (d < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	memmove(t->v + lo + 1, t->v + lo, (t->n - lo) * sizeof(*t->v));
	t->v[lo] = xstrdup(jid);
	t->n++;
}

void
app_read_release(struct app *a)
{
	size_t	 i;

	for (i = 0; i < a->told.n; i++)
		free(a->told.v[i]);
	free(a->told.v);
	a->told.v = NULL;
	a->told.n = 0;
}

/* ---- groups ---- */

static enum ev_role
role_of(int admin)
{
	return admin == 2 ? EV_ROLE_CREATOR : admin == 1 ? EV_ROLE_ADMIN :
	    EV_ROLE_MEMBER;
}

struct ev *
app_read_group(struct app *a, const char *group)
{
	struct store_group	 g;
	struct ev		*ev;
	struct ev_group		*eg;
	size_t			 i;

	if (store_group_get(a->store, group, &g) != 1)
		return NULL;
	ev = ev_new(EV_GROUP);
	eg = &ev->u.group;
	ev_set(&eg->jid, group);
	ev_set(&eg->subject, g.subject);
	ev_set(&eg->description, g.description);
	eg->left = g.left;
	eg->members = xcalloc(g.n + 1, sizeof(*eg->members));
	for (i = 0; i < g.n; i++) {
		const struct store_group_member *sm = &g.members[i];
		struct ev_member	*m = &eg->members[i];
		/* the PN when the store has it, else the JID given */
		const char		*pn = jid_is_pn(sm->alt) ? sm->alt :
					    sm->jid;

		m->jid = xstrdup(pn);
		m->alt = xstrdup(pn == sm->alt ? sm->jid : sm->alt);
		m->name = app_read_name(a, sm->jid);
		m->role = role_of(sm->admin);
		m->is_me = a->own_user[0] != '\0' &&
		    (strcmp(sm->jid, a->own_user) == 0 ||
		    strcmp(sm->alt, a->own_user) == 0);
	}
	eg->nmembers = (uint32_t)g.n;
	store_group_release(&g);
	told_add(&a->told, group);
	return ev;
}

/* ---- the chat list ---- */

/* A chat's preview: its newest row's text, a typed notice in words (the
 * member it names by number). */
static char *
preview_of(struct app *a, const struct store_chat *sc)
{
	char	 words[512], who[64], *g;

	if (sc->last_kind != STORE_MSG_NOTICE)
		return xstrdup(sc->last_text);
	if ((g = app_read_notice(a, sc->last_text)) != NULL)
		return g;	/* a group's line, its people named now */
	who[0] = '+';
	if (sc->last_sender == NULL ||
	    !jid_phone_of(sc->last_sender, who + 1, sizeof(who) - 1))
		who[0] = '\0';
	if (notice_text_words(sc->last_text, who, words, sizeof(words)) == 1)
		return xstrdup(words);
	return xstrdup(sc->last_text);
}

static void
chat_of(struct app *a, const struct store_chat *sc, struct ev_chat *ec)
{
	bool	 group = jid_is_group(sc->jid);

	ec->jid = xstrdup(sc->jid);
	ec->name = xstrdup(wc_has_label(sc->contact_name) ? sc->contact_name :
	    wc_has_label(sc->name) ? sc->name : wc_has_label(sc->push_name) ?
	    sc->push_name : "");
	ec->preview = preview_of(a, sc);
	ec->last_ms = sc->last_ms;
	ec->unread = sc->unread > 0 ? (uint32_t)sc->unread : 0;
	/* muted for ever (-1), or until a time still to come */
	ec->muted = sc->muted_until == -1 || sc->muted_until > sys_now_ms(NULL);
	ec->muted_until = sc->muted_until;
	ec->pinned = sc->pinned != 0;
	ec->pinned_ms = sc->pinned;
	ec->archived = sc->archived;
	ec->last_from_me = sc->last_from_me;
	ec->last_state = state_of(sc->last_state);
	ec->last_kind = kind_of(sc->last_kind);
	if (sc->last_kind == STORE_MSG_MEDIA && sc->last_media >=
	    STORE_MEDIA_IMAGE && sc->last_media <= STORE_MEDIA_STICKER)
		ec->last_media = (enum ev_media_type)sc->last_media;
	ec->last_deleted = sc->last_deleted;
	ec->last_sender = xstrdup(!sc->last_from_me && group ?
	    sc->last_sender : "");
	ec->last_sender_name = !sc->last_from_me && group &&
	    sc->last_sender[0] != '\0' ? app_read_name(a, sc->last_sender) :
	    xstrdup("");
	ec->draft = xstrdup(sc->draft != NULL ? sc->draft : "");
	ec->peek = sc->peek;
	ec->ephemeral_s = sc->ephemeral_s;
	ec->marked_unread = sc->marked_unread;
}

/* The people who have no chat yet into ev's EV_CHATS (none on an error:
 * the picker offers the chats alone). */
static void
people_of(struct app *a, struct ev_chats *ec)
{
	struct store_person	*p;
	size_t			 n, i;
	bool			 more;

	ec->with_people = true;
	if (store_people_without_chat(a->store, PEOPLE_MAX, &p, &n, &more) !=
	    0)
		return;
	ec->people = xcalloc(n > 0 ? n : 1, sizeof(*ec->people));
	ec->npeople = (uint32_t)n;
	for (i = 0; i < n; i++) {
		ec->people[i].jid = xstrdup(p[i].jid);
		ec->people[i].name = xstrdup(wc_has_label(p[i].name) ?
		    p[i].name : p[i].push_name);
		ec->people[i].push_name = xstrdup(p[i].push_name);
	}
	free(p);
}

void
app_read_chats(struct app *a, const struct cmd_load_chats *c)
{
	struct store_chat_list	 l[2];
	struct ev		*ev, *g;
	size_t			 i, k, n, max = c->max > 0 &&
				    c->max <= CHATS_MAX ? c->max : CHATS_MAX;
	int			 rc;

	memset(l, 0, sizeof(l));
	/* the chats not archived, then the archived folder's */
	for (k = 0; k < 2; k++)
		if ((rc = store_chat_list(a->store, k == 1, max, &l[k])) != 0) {
			store_chat_list_free(&l[0]);
			app_eng_error(a, _("cannot read the chat list"), rc);
			return;
		}
	/* the groups' details first, once: the screen names their
	 * senders and members without asking */
	for (k = 0; k < 2; k++)
		for (i = 0; i < l[k].n; i++)
			if (jid_is_group(l[k].chats[i].jid) &&
			    !told_has(&a->told, l[k].chats[i].jid) &&
			    (g = app_read_group(a, l[k].chats[i].jid)) != NULL)
				app_eng_send(a, g);
	ev = ev_new(EV_CHATS);
	n = l[0].n + l[1].n;
	ev->u.chats.chats = xcalloc(n > 0 ? n : 1,
	    sizeof(*ev->u.chats.chats));
	ev->u.chats.nchats = (uint32_t)n;
	ev->u.chats.more = l[0].more || l[1].more;
	for (k = 0, n = 0; k < 2; k++) {
		for (i = 0; i < l[k].n; i++)
			chat_of(a, &l[k].chats[i], &ev->u.chats.chats[n++]);
		store_chat_list_free(&l[k]);
	}
	if (c->people)
		people_of(a, &ev->u.chats);
	app_eng_send(a, ev);
}

/* ---- pages ---- */

/* The most reactors named per emoji: more than a pane's width shows;
 * the rest are counted only. */
#define TALLY_NAMED_MAX	64

/* The reactions of a row (one per sender) counted per emoji, in the
 * order each emoji first came, into *out and *n, each with who sent it
 * and their name as known now. */
static void
tally(struct app *a, const struct store_reaction *r, size_t nr,
    struct ev_tally **out, uint32_t *n)
{
	struct ev_tally		*t = NULL;
	struct ev_reactor	*w;
	uint32_t		 k = 0, j;
	size_t			 i;

	for (i = 0; i < nr; i++) {
		for (j = 0; j < k && strcmp(t[j].emoji, r[i].emoji) != 0; j++)
			;
		if (j == k) {
			t = xrealloc(t, ((size_t)k + 1) * sizeof(*t));
			memset(&t[k], 0, sizeof(t[k]));
			t[k].emoji = xstrdup(r[i].emoji);
			k++;
		}
		t[j].count++;
		if (t[j].nwho >= TALLY_NAMED_MAX)
			continue;
		t[j].who = xrealloc(t[j].who, ((size_t)t[j].nwho + 1) *
		    sizeof(*t[j].who));
		w = &t[j].who[t[j].nwho++];
		w->sender = xstrdup(r[i].sender);
		w->name = r[i].sender[0] != '\0' ? app_read_name(a,
		    r[i].sender) : xstrdup("");
	}
	*out = t;
	*n = k;
}

static void
msg_of(struct app *a, const struct store_msg *m, struct ev_msg *em)
{
	struct store_media	 md;
	char			*g;

	em->rowid = m->rowid;
	em->id = xstrdup(m->id);
	em->sender = xstrdup(m->sender);
	em->sender_name = m->sender[0] != '\0' ? app_read_name(a, m->sender) :
	    xstrdup("");
	em->from_me = m->from_me;
	em->ts_ms = m->ts_ms;
	em->kind = kind_of(m->kind);
	ev_set_len(&em->text, m->text, m->text_len);
	em->quoted_id = xstrdup(m->quoted_id);
	em->quoted_sender = xstrdup(m->quoted_sender);
	em->quoted_text = xstrdup(m->quoted_text);
	em->state = state_of(m->state);
	em->edited_ms = m->edited_ms;
	em->deleted = m->deleted;
	em->starred = m->starred;
	em->forwarded = m->forwarded;
	tally(a, m->reactions, m->nreactions, &em->reactions,
	    &em->nreactions);
	if (m->kind == STORE_MSG_MEDIA && store_media_get(a->store, m->chat,
	    m->from_me, m->id, &md) == 1) {
		app_media_ev_of_store(&md, &em->media);
		store_media_release(&md);
	}
	if (m->kind == STORE_MSG_NOTICE && (g = app_read_notice(a,
	    em->text)) != NULL) {
		/* a group's line: its people named as known now */
		free(em->text);
		em->text = g;
	} else if (m->kind == STORE_MSG_NOTICE)	/* typed: said in words
						 * by the UI */
		notice_parse(em->text, &em->notice_kind, &em->notice_device);
}

/* EV_PAGE of chat in direction dir from page p. */
static struct ev *
page_ev(struct app *a, const char *chat, enum ev_page_dir dir,
    const struct store_msg_page *p)
{
	struct ev	*ev = ev_new(EV_PAGE);
	struct ev_page	*ep = &ev->u.page;
	size_t		 i;

	ev_set(&ep->chat, chat);
	ep->dir = dir;
	ep->msgs = xcalloc(p->n > 0 ? p->n : 1, sizeof(*ep->msgs));
	ep->nmsgs = (uint32_t)p->n;
	for (i = 0; i < p->n; i++)
		msg_of(a, &p->msgs[i], &ep->msgs[i]);
	return ev;
}

/*
 * EV_PAGE_AROUND: the message of rowid in chat with max / 2 rows on each
 * side (a search hit, in context), with whether older and newer rows are
 * left.
 */
static void
around(struct app *a, const struct cmd_load_page *c, size_t max)
{
	struct store_msg_page	 p, q;
	struct ev		*ev;
	bool			 before = false, after = false;
	int			 rc;

	memset(&p, 0, sizeof(p));
	memset(&q, 0, sizeof(q));
	rc = store_msg_page_around(a->store, c->chat, c->rowid, max / 2,
	    max / 2, &p);
	if (rc == 0 && p.n > 0) {
		/* one row each way says whether more are left */
		if ((rc = store_msg_page_before(a->store, c->chat,
		    p.msgs[0].ts_ms, p.msgs[0].rowid, 1, &q)) == 0)
			before = q.n > 0;
		store_msg_page_free(&q);
		if (rc == 0 && (rc = store_msg_page_after(a->store, c->chat,
		    p.msgs[p.n - 1].ts_ms, p.msgs[p.n - 1].rowid, 1, &q)) == 0)
			after = q.n > 0;
		store_msg_page_free(&q);
	}
	if (rc != 0) {
		store_msg_page_free(&p);
		app_eng_error(a, _("cannot read the messages"), rc);
		return;
	}
	ev = page_ev(a, c->chat, EV_PAGE_AROUND, &p);
	ev->u.page.more_before = before;
	ev->u.page.more_after = after;
	store_msg_page_free(&p);
	app_eng_send(a, ev);
}

/*
 * Whether chat has a row older than p's first (p not empty): *before.
 * Returns 0 or the store's error.
 */
static int
older_left(struct app *a, const char *chat, const struct store_msg_page *p,
    bool *before)
{
	struct store_msg_page	 q;
	int			 rc;

	*before = false;
	if (p->n == 0)
		return 0;
	memset(&q, 0, sizeof(q));
	if ((rc = store_msg_page_before(a->store, chat, p->msgs[0].ts_ms,
	    p->msgs[0].rowid, 1, &q)) == 0)
		*before = q.n > 0;
	store_msg_page_free(&q);
	return rc;
}

/*
 * EV_PAGE_UNREAD: opening a chat with c->unread unread messages.  When
 * the first of them is among the newest max rows, the newest page (the
 * screen finds the line's place by counting back); else the max rows
 * from it, with more_after (and more_before when older rows are left).
 * EV_PAGE_FROM: the max rows from the first at or after c->from.ts_ms
 * (none: an empty page, the screen says so).
 */
static void
page_from(struct app *a, const struct cmd_load_page *c, size_t max)
{
	struct store_msg_page	 p;
	struct ev		*ev;
	int64_t			 ts = 0, rowid = 0;
	bool			 before = false, from = false;
	int			 rc = 0;

	memset(&p, 0, sizeof(p));
	if (c->dir == EV_PAGE_FROM) {
		rc = store_msg_page_from(a->store, c->chat, c->from.ts_ms, max,
		    &p);
		from = true;
	} else if (c->unread > 0 && (rc = store_msg_first_unread(a->store,
	    c->chat, c->unread, &ts, &rowid)) == 1) {
		/* rowid - 1: the page after the row just before it */
		rc = store_msg_page_after(a->store, c->chat, ts, rowid - 1,
		    max, &p);
		if ((from = rc == 0 && p.more) == false)
			store_msg_page_free(&p);
	}
	if (rc >= 0 && !from) {
		memset(&p, 0, sizeof(p));
		rc = store_msg_page_newest(a->store, c->chat, max, &p);
		before = p.more;
	} else if (rc >= 0)
		rc = older_left(a, c->chat, &p, &before);
	if (rc < 0) {
		store_msg_page_free(&p);
		app_eng_error(a, _("cannot read the messages"), rc);
		return;
	}
	ev = page_ev(a, c->chat, c->dir, &p);
	ev->u.page.more_before = before;
	ev->u.page.more_after = from && p.more;
	store_msg_page_free(&p);
	app_eng_send(a, ev);
}

void
app_read_page(struct app *a, const struct cmd_load_page *c)
{
	struct store_msg_page	 p;
	struct ev		*ev;
	size_t			 max = c->max;
	int			 rc = -EINVAL;

	if (c->chat[0] == '\0')
		return;
	if (max == 0 || max > STORE_MSG_PAGE_MAX)
		max = PAGE_DEFAULT;
	if (c->dir == EV_PAGE_AROUND) {
		around(a, c, max);
		return;
	}
	if (c->dir == EV_PAGE_UNREAD || c->dir == EV_PAGE_FROM) {
		page_from(a, c, max);
		return;
	}
	memset(&p, 0, sizeof(p));
	switch (c->dir) {
	case EV_PAGE_NEWEST:
		rc = store_msg_page_newest(a->store, c->chat, max, &p);
		break;
	case EV_PAGE_OLDEST:
		rc = store_msg_page_oldest(a->store, c->chat, max, &p);
		break;
	case EV_PAGE_BEFORE:
		rc = store_msg_page_before(a->store, c->chat, c->from.ts_ms,
		    c->from.rowid, max, &p);
		break;
	case EV_PAGE_AFTER:
		rc = store_msg_page_after(a->store, c->chat, c->from.ts_ms,
		    c->from.rowid, max, &p);
		break;
	case EV_PAGE_AROUND:
	case EV_PAGE_UNREAD:
	case EV_PAGE_FROM:
		break;
	}
	if (rc != 0) {
		app_eng_error(a, _("cannot read the messages"), rc);
		return;
	}
	ev = page_ev(a, c->chat, c->dir, &p);
	/* more: rows left in the direction read (newer ones from the
	 * oldest) */
	if (c->dir == EV_PAGE_AFTER || c->dir == EV_PAGE_OLDEST)
		ev->u.page.more_after = p.more;
	else
		ev->u.page.more_before = p.more;
	store_msg_page_free(&p);
	app_eng_send(a, ev);
}

void
app_read_tally(struct app *a, struct ev_reaction *r)
{
	struct store_msg	 m;
	struct store_msg_page	 p;
	int			 rc, k;

	memset(&m, 0, sizeof(m));
	for (rc = 0, k = 0; rc != 1 && k < 2; k++) {
		store_msg_release(&m);
		memset(&m, 0, sizeof(m));
		rc = store_msg_get(a->store, r->target.chat, k == 1,
		    r->target.id, &m);
	}
	if (rc != 1)
		return;		/* not stored (yet): not counted */
	/* the row itself, with its reactions: the page after the one just
	 * before it */
	memset(&p, 0, sizeof(p));
	if (store_msg_page_after(a->store, r->target.chat, m.ts_ms,
	    m.rowid - 1, 1, &p) == 0 && p.n == 1 &&
	    p.msgs[0].rowid == m.rowid) {
		r->counted = true;
		ev_set(&r->target.sender, m.sender);
		r->target.from_me = m.from_me;
		tally(a, p.msgs[0].reactions, p.msgs[0].nreactions, &r->tally,
		    &r->ntally);
	}
	store_msg_page_free(&p);
	store_msg_release(&m);
}

/* ---- search ---- */

static void
hit_of(struct app *a, const struct store_search_hit *h, struct ev_hit *e)
{
	e->rowid = h->rowid;
	e->chat = xstrdup(h->chat);
	e->chat_name = xstrdup(h->chat_name);
	e->id = xstrdup(h->id);
	e->sender = xstrdup(h->sender);
	e->sender_name = h->sender[0] != '\0' ? app_read_name(a, h->sender) :
	    xstrdup("");
	e->from_me = h->from_me;
	e->ts_ms = h->ts_ms;
	ev_set_len(&e->snippet, h->snippet, h->snippet_len);
	e->match_start = (uint32_t)h->match_start;
	e->match_end = (uint32_t)h->match_end;
	e->cut_before = h->cut_before;
	e->cut_after = h->cut_after;
}

void
app_read_search(struct app *a, const struct cmd_search *c)
{
	struct store_search_filter f;
	struct store_search_result r;
	struct ev		*ev;
	struct ev_search	*es;
	size_t			 i, max = c->max > 0 && c->max <=
				    STORE_SEARCH_MAX ? c->max : SEARCH_DEFAULT;
	int			 rc;

	memset(&f, 0, sizeof(f));
	memset(&r, 0, sizeof(r));
	f.chat = c->chat[0] != '\0' ? c->chat : NULL;
	f.sender = c->by_sender ? c->sender : NULL;
	f.since_ms = c->since_ms;
	f.until_ms = c->until_ms;
	f.starred = c->starred;
	if ((rc = store_search(a->store, c->query, &f, max, &r)) != 0) {
		app_eng_error(a, _("cannot search the messages"), rc);
		return;
	}
	ev = ev_new(EV_SEARCH);
	es = &ev->u.search;
	ev_set(&es->query, c->query);
	es->more = r.more || r.truncated;
	es->hits = xcalloc(r.n > 0 ? r.n : 1, sizeof(*es->hits));
	es->nhits = (uint32_t)r.n;
	for (i = 0; i < r.n; i++)
		hit_of(a, &r.hits[i], &es->hits[i]);
	store_search_free(&r);
	app_eng_send(a, ev);
}
