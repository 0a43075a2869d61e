/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/search.c -- message search on the chat screen (ui/search.h). */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/buf.h"
#include "base/jid.h"
#include "base/sanitize.h"
#include "ui/search.h"
#include "base/xmalloc.h"

#define ELLIPSIS	"\xe2\x80\xa6"
#define PHONE_MIN	5
#define PHONE_MAX	20

/* How well a name matches what was typed. */
enum match {
	MATCH_NONE,
	MATCH_PREFIX,
	MATCH_EXACT,
};

void
ui_search_init(struct ui_search *s)
{
	memset(s, 0, sizeof(*s));
	ui_input_init(&s->q);
}

void
ui_search_query_release(struct ui_search_query *q)
{
	free(q->words);
	free(q->chat);
	free(q->chat_name);
	free(q->sender);
	free(q->sender_name);
	free(q->since_text);
	free(q->until_text);
	free(q->bad);
	memset(q, 0, sizeof(*q));
}

static void
hits_release(struct ui_search *s)
{
	size_t	 i;

	for (i = 0; i < s->n; i++) {
		free(s->v[i].chat);
		free(s->v[i].chat_name);
		free(s->v[i].sender);
		free(s->v[i].who);
		free(s->v[i].snippet);
	}
	free(s->v);
	s->v = NULL;
	s->n = 0;
	s->more = false;
	s->sel = s->top = 0;
}

void
ui_search_clear(struct ui_search *s)
{
	hits_release(s);
	free(s->asked);
	s->asked = NULL;
	s->answered = false;
	s->due = false;
}

void
ui_search_release(struct ui_search *s)
{
	ui_search_clear(s);
	free(s->scope);
	ui_input_release(&s->q);
	ui_search_query_release(&s->qy);
	memset(s, 0, sizeof(*s));
}

static char *
clean(const char *p, size_t len)
{
	struct buf	 b = BUF_INIT;

	wc_sanitize(p, len, false, &b);
	return (char *)b.p;
}

/* name against v[0..len), ASCII case folded. */
static enum match
match_name(const char *name, const char *v, size_t len)
{
	if (len == 0 || strncasecmp(name, v, len) != 0)
		return MATCH_NONE;
	return name[len] == '\0' ? MATCH_EXACT : MATCH_PREFIX;
}

/* What a name resolves to: the best match so far. */
struct found {
	enum match	 how;
	const char	*jid;		/* borrowed */
	const char	*name;		/* borrowed, sanitised */
	bool		 several;	/* another JID matched as well */
};

static void
consider(struct found *f, const char *jid, const char *name,
    const char *v, size_t len)
{
	enum match	 m = match_name(name, v, len);

	if (m == MATCH_NONE || m < f->how)
		return;
	if (m > f->how) {
		f->how = m;
		f->jid = jid;
		f->name = name;
		f->several = false;
	} else if (strcmp(f->jid, jid) != 0)
		f->several = true;
}

/* A chat named v[0..len) of cs or gs. */
static void
find_chat(const struct ui_chats *cs, const struct ui_groups *gs,
    const char *v, size_t len, struct found *f)
{
	size_t	 i;

	memset(f, 0, sizeof(*f));
	for (i = 0; cs != NULL && i < cs->n; i++)
		consider(f, cs->v[i].jid, cs->v[i].name, v, len);
	for (i = 0; gs != NULL && i < gs->n; i++)
		if (gs->v[i]->subject[0] != '\0')
			consider(f, gs->v[i]->jid, gs->v[i]->subject, v, len);
}

/* A person named v[0..len): a member of a group of gs, or the contact
 * of a 1:1 chat of cs. */
static void
find_person(const struct ui_chats *cs, const struct ui_groups *gs,
    const char *v, size_t len, struct found *f)
{
	const struct ui_member	*m;
	size_t			 i, j;

	memset(f, 0, sizeof(*f));
	for (i = 0; gs != NULL && i < gs->n; i++)
		for (j = 0; j < gs->v[i]->n; j++) {
			m = &gs->v[i]->v[j];
			if (m->is_me)
				continue;
			consider(f, m->jid, m->shown, v, len);
			if (m->name[0] != '\0')
				consider(f, m->jid, m->name, v, len);
		}
	for (i = 0; cs != NULL && i < cs->n; i++)
		if (!cs->v[i].group)
			consider(f, cs->v[i].jid, cs->v[i].name, v, len);
}

/* v[0..len) as a JID typed: "+digits" (or digits) of a phone number, or
 * a JID itself; NULL when it is neither. */
static char *
typed_jid(const char *v, size_t len)
{
	struct buf	 b = BUF_INIT;
	char		 jid[JID_MAX];
	size_t		 i, d = 0;

	if (memchr(v, '@', len) != NULL) {
		for (i = 0; i < len; i++)
			if (v[i] <= ' ' || (unsigned char)v[i] >= 0x7f)
				return NULL;
		buf_append(&b, v, len);
		buf_push(&b, '\0');
		return (char *)b.p;
	}
	for (i = v[0] == '+' ? 1 : 0; i < len; i++) {
		if (v[i] < '0' || v[i] > '9')
			return NULL;
		d++;
	}
	if (d < PHONE_MIN || d > PHONE_MAX || v[len - d] == '0' ||
	    !jid_from_phone(v + len - d, d, jid, sizeof(jid)))
		return NULL;
	return xstrdup(jid);
}

/* The number of the n digits at s. */
static int
digits(const char *s, size_t n)
{
	int	 v = 0;

	while (n-- > 0)
		v = v * 10 + (*s++ - '0');
	return v;
}

bool
ui_search_date(const char *d, size_t len, int64_t *ms)
{
	struct tm	 tm;
	time_t		 t;
	int		 y = 0, mo = 1, day = 1;
	size_t		 i;
	char		 s[11];

	if (len != 4 && len != 7 && len != 10)
		return false;
	memcpy(s, d, len);
	s[len] = '\0';
	for (i = 0; i < len; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : s[i] < '0' || s[i] > '9')
			return false;
	y = digits(s, 4);
	if (len >= 7)
		mo = digits(s + 5, 2);
	if (len == 10)
		day = digits(s + 8, 2);
	if (y < 1970 || mo < 1 || mo > 12 || day < 1 || day > 31)
		return false;
	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = day;
	tm.tm_isdst = -1;
	if ((t = mktime(&tm)) == (time_t)-1 || tm.tm_mday != day ||
	    tm.tm_mon != mo - 1)
		return false;	/* 31 February moved on: not a date */
	*ms = (int64_t)t * 1000;
	return true;
}

/* One token of the prompt: s[off..off + len). */
struct tok {
	size_t	 off, len;
};

/* The tokens of text (runs of non-spaces; a quoted run after a filter's
 * colon is one token), at most max; returns how many. */
static size_t
tokens(const char *text, struct tok *t, size_t max)
{
	size_t		 n = 0, i = 0, start;
	const char	*q;

	while (text[i] != '\0' && n < max) {
		while (text[i] == ' ' || text[i] == '\n')
			i++;
		if (text[i] == '\0')
			break;
		start = i;
		while (text[i] != '\0' && text[i] != ' ' && text[i] != '\n') {
			if (text[i] == ':' && text[i + 1] == '"' &&
			    (q = strchr(text + i + 2, '"')) != NULL) {
				i = (size_t)(q - text) + 1;
				break;
			}
			i++;
		}
		t[n].off = start;
		t[n].len = i - start;
		n++;
	}
	return n;
}

/* Whether token tk of text is the filter key ("from:"): its value then
 * starts at *val. */
static bool
is_filter(const char *text, const struct tok *tk, const char *key,
    size_t *val)
{
	size_t	 k = strlen(key);

	if (tk->len < k || strncasecmp(text + tk->off, key, k) != 0)
		return false;
	*val = tk->off + k;
	return true;
}

#define TOKENS_MAX	64

/*
 * The value of the name filter in token i of t[0..n) (text after its
 * colon at val): quoted, or the most words that name something (a
 * whole name before the start of one).  find is find_chat or
 * find_person.  Returns how many more tokens it took; *f the match, *v
 * and *vlen the value.
 */
static size_t
name_value(const char *text, const struct tok *t, size_t n, size_t i,
    size_t val, const struct ui_chats *cs, const struct ui_groups *gs,
    void (*find)(const struct ui_chats *, const struct ui_groups *,
    const char *, size_t, struct found *), struct found *f,
    const char **v, size_t *vlen)
{
	struct buf	 b = BUF_INIT;
	struct found	 g, best, prefix;
	size_t		 end = t[i].off + t[i].len, k, took = 0, ptook = 0;
	size_t		 blen = 0, plen = 0;
	bool		 empty = val == end;

	memset(&best, 0, sizeof(best));
	memset(&prefix, 0, sizeof(prefix));
	if (!empty && text[val] == '"') {
		*v = text + val + 1;
		*vlen = end - val - 1;
		if (*vlen > 0 && (*v)[*vlen - 1] == '"')
			(*vlen)--;
		find(cs, gs, *v, *vlen, f);
		return 0;
	}
	if (empty) {
		/* "from: alice": the value is the next token. */
		if (i + 1 >= n) {
			*v = text + val;
			*vlen = 0;
			memset(f, 0, sizeof(*f));
			return 0;
		}
		i++;
		val = t[i].off;
	}
	/* The words from val on, one more each time: the longest whole
	 * name wins, else the longest start of a name. */
	buf_append(&b, text + val, t[i].off + t[i].len - val);
	for (k = 0; i + k < n && k < UI_SEARCH_NAME_WORDS; k++) {
		if (k > 0) {
			buf_push(&b, ' ');
			buf_append(&b, text + t[i + k].off, t[i + k].len);
		}
		find(cs, gs, (char *)b.p, b.len, &g);
		if (g.how == MATCH_EXACT) {
			best = g;
			took = k;
			blen = b.len;
		} else if (g.how == MATCH_PREFIX && !g.several) {
			prefix = g;
			ptook = k;
			plen = b.len;
		} else if (k == 0) {
			prefix = g;
			plen = b.len;
		}
		if (g.how == MATCH_NONE)
			break;
	}
	buf_release(&b);
	*v = text + val;
	if (best.how == MATCH_EXACT) {
		*f = best;
		*vlen = blen;
		took += empty;
	} else {
		*f = prefix;
		*vlen = plen;
		took = ptook + empty;
	}
	return took;
}

static void
set_err(struct ui_search_query *q, enum ui_search_err err, const char *v,
    size_t len)
{
	if (q->err != UI_SEARCH_OK)
		return;
	q->err = err;
	free(q->bad);
	q->bad = clean(v, len);
}

/* The name filter's match into *jid and *name. */
static void
take_found(struct ui_search_query *q, const struct found *f, char *typed,
    const char *v, size_t len, enum ui_search_err none, char **jid,
    char **name)
{
	free(*jid);
	free(*name);
	*jid = *name = NULL;
	if (typed != NULL) {
		*jid = typed;
		*name = clean(v, len);
	} else if (f->how == MATCH_NONE)
		set_err(q, none, v, len);
	else if (f->how == MATCH_PREFIX && f->several)
		set_err(q, UI_SEARCH_AMBIGUOUS, v, len);
	else {
		*jid = xstrdup(f->jid);
		*name = xstrdup(f->name);
	}
}

void
ui_search_parse(const char *text, const struct ui_chats *cs,
    const struct ui_groups *gs, struct ui_search_query *out)
{
	struct tok	 t[TOKENS_MAX];
	struct buf	 w = BUF_INIT;
	struct found	 f;
	size_t		 n = tokens(text, t, TOKENS_MAX), i, val, len;
	const char	*v;
	int64_t		 ms;

	ui_search_query_release(out);
	for (i = 0; i < n; i++) {
		const struct tok	*tk = &t[i];

		if (is_filter(text, tk, "from:", &val)) {
			i += name_value(text, t, n, i, val, cs, gs,
			    find_person, &f, &v, &len);
			if (len == 2 && strncasecmp(v, "me", 2) == 0) {
				free(out->sender);
				free(out->sender_name);
				out->sender = xstrdup("");
				out->sender_name = NULL;
			} else if (len > 0)
				take_found(out, &f, typed_jid(v, len), v, len,
				    UI_SEARCH_NO_PERSON, &out->sender,
				    &out->sender_name);
		} else if (is_filter(text, tk, "in:", &val) ||
		    is_filter(text, tk, "chat:", &val)) {
			i += name_value(text, t, n, i, val, cs, gs, find_chat,
			    &f, &v, &len);
			if (len > 0)
				take_found(out, &f, typed_jid(v, len), v, len,
				    UI_SEARCH_NO_CHAT, &out->chat,
				    &out->chat_name);
		} else if (is_filter(text, tk, "after:", &val) ||
		    is_filter(text, tk, "before:", &val)) {
			bool	 after = text[tk->off] == 'a' ||
			    text[tk->off] == 'A';

			len = tk->off + tk->len - val;
			if (len == 0)
				continue;	/* being typed */
			if (!ui_search_date(text + val, len, &ms)) {
				set_err(out, UI_SEARCH_BAD_DATE, text + val,
				    len);
				continue;
			}
			if (after) {
				out->since_ms = ms;
				free(out->since_text);
				out->since_text = clean(text + val, len);
			} else {
				out->until_ms = ms;
				free(out->until_text);
				out->until_text = clean(text + val, len);
			}
		} else if (tk->len == 10 &&
		    strncasecmp(text + tk->off, "is:starred", 10) == 0)
			out->starred = true;
		else {
			if (w.len > 0)
				buf_push(&w, ' ');
			buf_append(&w, text + tk->off, tk->len);
		}
	}
	buf_push(&w, '\0');
	out->words = (char *)w.p;
}

struct cmd *
ui_search_cmd(const struct ui_search_query *q, const char *scope)
{
	struct cmd	*c;

	if (q->err != UI_SEARCH_OK || q->words == NULL ||
	    (q->words[0] == '\0' && !q->starred))
		return NULL;
	c = cmd_new_chat(CMD_SEARCH, q->chat != NULL ? q->chat : scope);
	ev_set(&c->u.search.query, q->words);
	/* sender NULL: anyone; "": our own */
	c->u.search.by_sender = q->sender != NULL;
	ev_set(&c->u.search.sender, q->sender);
	c->u.search.max = UI_SEARCH_HITS;
	c->u.search.since_ms = q->since_ms;
	c->u.search.until_ms = q->until_ms;
	c->u.search.starred = q->starred;
	return c;
}

/* h's snippet on one line, sanitised, with "…" where cut and the match
 * found again in what is shown. */
static void
snippet(struct ui_search_hit *h, const struct ev_hit *e)
{
	struct buf	 b = BUF_INIT;
	size_t		 len = strlen(e->snippet), ms, me, i;
	char		*s;

	if (len > UI_SEARCH_SNIPPET_MAX)
		len = UI_SEARCH_SNIPPET_MAX;
	s = xmalloc(len + 1);
	memcpy(s, e->snippet, len);
	s[len] = '\0';
	for (i = 0; i < len; i++)
		if (s[i] == '\n' || s[i] == '\r' || s[i] == '\t')
			s[i] = ' ';
	ms = e->match_start < len ? e->match_start : len;
	me = e->match_end < len ? e->match_end : len;
	if (me < ms)
		me = ms;
	if (e->cut_before)
		buf_append(&b, ELLIPSIS, strlen(ELLIPSIS));
	wc_sanitize(s, ms, false, &b);
	b.len--;			/* each piece's NUL */
	h->hl_start = b.len;
	wc_sanitize(s + ms, me - ms, false, &b);
	b.len--;
	h->hl_end = b.len;
	wc_sanitize(s + me, len - me, false, &b);
	b.len--;
	if (e->cut_after)
		buf_append(&b, ELLIPSIS, strlen(ELLIPSIS));
	buf_push(&b, '\0');
	h->snippet = (char *)b.p;
	free(s);
}

bool
ui_search_take(struct ui_search *s, const struct ev *ev,
    const struct ui_chats *cs, const struct ui_groups *gs)
{
	const struct ev_search	*es = &ev->u.search;
	struct buf		 b = BUF_INIT;
	size_t			 i;
	int			 k;

	if (ev->kind != EV_SEARCH || s->asked == NULL ||
	    strcmp(es->query, s->asked) != 0)
		return false;
	hits_release(s);
	s->answered = true;
	s->more = es->more;
	s->v = xcalloc(es->nhits > 0 ? es->nhits : 1, sizeof(*s->v));
	for (i = 0; i < es->nhits; i++) {
		const struct ev_hit	*e = &es->hits[i];
		struct ui_search_hit	*h = &s->v[s->n++];

		h->rowid = e->rowid;
		h->ts_ms = e->ts_ms;
		h->chat = xstrdup(e->chat);
		h->sender = xstrdup(e->sender);
		h->from_me = e->from_me;
		h->colour = -1;
		if (cs != NULL && (k = ui_chats_find(cs, e->chat)) >= 0)
			h->chat_name = xstrdup(cs->v[k].name);
		else if (e->chat_name[0] != '\0')
			h->chat_name = clean(e->chat_name,
			    strlen(e->chat_name));
		else {
			ui_chats_jid_name(e->chat, &b);
			h->chat_name = (char *)b.p;
			b = (struct buf)BUF_INIT;
		}
		if (!h->from_me && e->sender[0] != '\0' &&
		    ui_group_is_jid(e->chat)) {
			ui_group_name(gs != NULL ? ui_groups_find(gs,
			    e->chat) : NULL, e->sender, e->sender_name, &b);
			h->who = (char *)b.p;
			b = (struct buf)BUF_INIT;
			h->colour = (int)ui_group_colour(e->sender);
		} else
			h->who = xstrdup("");
		snippet(h, e);
	}
	return true;
}
