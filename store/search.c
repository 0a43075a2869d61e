/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/search.c -- full-text search over the FTS5 index message_fts of
 * schema migration 5 and its backlog (the batch after a commit,
 * registered on the store at open as an after-commit hook; the catch-up
 * after a history import), a message in context, chats by name
 * (store/store.h).
 *
 * A user's query never reaches FTS5's query syntax: it is cut into words
 * by the index's own tokenizer ("wachat", store/fts-tok.c: unicode61
 * remove_diacritics 2, and bigrams for runs of CJK characters), and each
 * word becomes a quoted prefix term, "word"*, AND-ed with the others; a
 * CJK run is one term, "run"*, which FTS5 tokenizes into the phrase of
 * its bigrams.  So quotes, AND, NEAR(, '*' and any other character typed
 * are separators or folded letters, never operators, and what is matched
 * is folded exactly as the index folded the messages.  The same
 * tokenizer finds the byte offsets of the first matched word in a hit's
 * text for its snippet; a CJK run matches, here as in the index, where
 * its text occurs (its characters are all CJK, so that is inside a run).
 *
 * Order and bounds (perf.md U3, A14): hits are newest first, never
 * ranked.  First, the STORE_SEARCH_CANDIDATES matches with the highest
 * rowids (FTS5 walks its doclists backwards, so this costs about the
 * same for a rare word and for a one-letter prefix, whose doclist is one
 * entry of the prefix index) are joined to their rows, filtered and
 * ordered by time: that is the answer when they are all the matches, or
 * when there is no chat filter (truncated: older matches exist), or when
 * limit of them are in the chat asked for.  Otherwise the chat is
 * searched whole (in_chat()).  Rows of
 * the backlog (fts_pending, rows imported but not indexed yet) are read
 * and matched here with the same tokenizer, and merged in.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/buf.h"
#include "base/log.h"
#include "base/rich.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

#define TERM_MAX	256	/* bytes of one folded query word kept */
#define SNIPPET_LEAD	60	/* bytes of context before the match */
#define CHAT_WALK	3000	/* newest rows of a chat matched one by one */

/* The index's tokenizer (store/fts-tok.c), for the search's own
 * matching. */
struct fold {
	struct store_tok	*t;
};

static int
fold_init(struct store *s, struct fold *f)
{
	f->t = NULL;
	return store_tok_new(s, &f->t);
}

static void
fold_release(struct fold *f)
{
	store_tok_free(f->t);
	f->t = NULL;
}

/* The query's folded words, deduplicated. */
struct terms {
	char	 w[STORE_SEARCH_TERMS_MAX][TERM_MAX + 1];
	size_t	 len[STORE_SEARCH_TERMS_MAX];
	bool	 run[STORE_SEARCH_TERMS_MAX];	/* a CJK run: a substring */
	size_t	 n;
};

static int
term_cb(void *ctx, int flags, const char *tok, int ntok, int start, int end)
{
	struct terms	*t = ctx;
	size_t		 i, n = (size_t)ntok;

	(void)start;
	(void)end;
	if (ntok <= 0 || t->n == STORE_SEARCH_TERMS_MAX)
		return SQLITE_OK;
	if (n > TERM_MAX)	/* still a prefix of the word */
		for (n = TERM_MAX; n > 0 &&
		    ((unsigned char)tok[n] & 0xC0) == 0x80; n--)
			;
	for (i = 0; i < t->n; i++)
		if (t->len[i] == n && memcmp(t->w[i], tok, n) == 0)
			return SQLITE_OK;
	memcpy(t->w[t->n], tok, n);
	t->w[t->n][n] = '\0';
	t->run[t->n] = (flags & STORE_TOK_RUN) != 0;
	t->len[t->n++] = n;
	return SQLITE_OK;
}

/*
 * The FTS5 expression for t: "w1"* "w2"* ... (implicit AND), each word
 * a string with any '"' doubled, so nothing in it is syntax.
 */
static char *
fts_expr(const struct terms *t)
{
	size_t	 cap = 1, i, j, o = 0;
	char	*e;

	for (i = 0; i < t->n; i++)
		cap += 2 * t->len[i] + 5;
	e = xmalloc(cap);
	for (i = 0; i < t->n; i++) {
		if (i > 0)
			e[o++] = ' ';
		e[o++] = '"';
		for (j = 0; j < t->len[i]; j++) {
			if (t->w[i][j] == '"')
				e[o++] = '"';
			e[o++] = t->w[i][j];
		}
		e[o++] = '"';
		e[o++] = '*';
	}
	e[o] = '\0';
	return e;
}

/* The first word of a text that one of the terms begins. */
struct first_match {
	const struct terms *t;
	int		 start, end;	/* -1: none yet */
};

static int
match_cb(void *ctx, int flags, const char *tok, int ntok, int start, int end)
{
	struct first_match	*m = ctx;
	size_t			 i;

	(void)flags;
	for (i = 0; i < m->t->n; i++)
		if (!m->t->run[i] && (size_t)ntok >= m->t->len[i] &&
		    memcmp(tok, m->t->w[i], m->t->len[i]) == 0) {
			m->start = start;
			m->end = end;
			return SQLITE_DONE;	/* stop tokenizing */
		}
	return SQLITE_OK;
}

/* Which terms some word of a text begins (a bit per term). */
struct all_match {
	const struct terms *t;
	uint32_t	 seen, want;
};

static int
all_cb(void *ctx, int flags, const char *tok, int ntok, int start, int end)
{
	struct all_match	*m = ctx;
	size_t			 i;

	(void)flags;
	(void)start;
	(void)end;
	for (i = 0; i < m->t->n; i++)
		if (!m->t->run[i] && (size_t)ntok >= m->t->len[i] &&
		    memcmp(tok, m->t->w[i], m->t->len[i]) == 0)
			m->seen |= 1u << i;
	return m->seen == m->want ? SQLITE_DONE : SQLITE_OK;
}

/* Whether every term begins a word of text[0..len), as the index would
 * match it (for rows not indexed yet). */
static bool
matches_all(struct fold *f, const struct terms *t, const char *text,
    size_t len)
{
	struct all_match	 m = { t, 0, 0 };

	size_t			 i;

	m.want = t->n >= 32 ? UINT32_MAX : (1u << t->n) - 1;
	if (len >= INT32_MAX)
		return false;
	/* A CJK run matches where its text occurs (inside a run of the
	 * text, as its characters are all CJK): the index's phrase of
	 * bigrams. */
	for (i = 0; i < t->n; i++)
		if (t->run[i]) {
			if (memmem(text, len, t->w[i], t->len[i]) == NULL)
				return false;
			m.seen |= 1u << i;
		}
	if (m.seen != m.want)
		(void)store_tok_split(f->t, &m, FTS5_TOKENIZE_DOCUMENT, text,
		    (int)len, all_cb);
	return m.seen == m.want;
}

/* The earliest occurrence of a CJK run term in text[0..len), when before
 * m's word: m's match then. */
static void
first_run(const struct terms *t, const char *text, size_t len,
    struct first_match *m)
{
	const char	*p;
	size_t		 i, lim;

	for (i = 0; i < t->n; i++) {
		if (!t->run[i])
			continue;
		lim = m->start >= 0 ? (size_t)m->start + t->len[i] - 1 : len;
		if (lim > len)
			lim = len;
		if ((p = memmem(text, lim, t->w[i], t->len[i])) != NULL) {
			m->start = (int)(p - text);
			m->end = m->start + (int)t->len[i];
		}
	}
}

/* Back p[0..*off] to the start of a UTF-8 sequence. */
static size_t
utf8_back(const char *p, size_t off)
{
	while (off > 0 && ((unsigned char)p[off] & 0xC0) == 0x80)
		off--;
	return off;
}

/* Fill h's snippet from text[0..len): a window around the first match. */
static void
snippet(struct fold *f, const struct terms *t, const char *text, size_t len,
    struct store_search_hit *h)
{
	struct first_match	 m = { t, -1, -1 };
	size_t			 a = 0, b, ms = 0, me = 0, i;

	if (len < INT32_MAX)
		(void)store_tok_split(f->t, &m, FTS5_TOKENIZE_DOCUMENT, text,
		    (int)len, match_cb);
	first_run(t, text, len, &m);
	if (m.start >= 0 && (size_t)m.end <= len) {
		ms = (size_t)m.start;
		me = (size_t)m.end;
		if (ms > SNIPPET_LEAD) {
			a = utf8_back(text, ms - SNIPPET_LEAD);
			/* Begin at a word when one starts near. */
			for (i = a; i < ms && i < a + 16; i++)
				if (text[i] == ' ') {
					a = i + 1;
					break;
				}
		}
	}
	b = a + STORE_SNIPPET_MAX < len ? utf8_back(text, a +
	    STORE_SNIPPET_MAX) : len;
	if (me > b)
		me = b;
	if (ms > me)
		ms = me;
	h->snippet = xmalloc(b - a + 1);
	memcpy(h->snippet, text + a, b - a);
	h->snippet[b - a] = '\0';
	h->snippet_len = b - a;
	h->match_start = ms - a;
	h->match_end = me - a;
	if (m.start < 0)
		h->match_start = h->match_end = 0;
	h->cut_before = a > 0;
	h->cut_after = b < len;
}

static void	hit_release(struct store_search_hit *h);

/* Bind the filters to st (?2 chat, ?3 sender, ?4 since, ?5 until, ?8
 * starred). */
static void
bind_filters(sqlite3_stmt *st, const struct store_search_filter *flt)
{
	if (flt->chat != NULL)
		store_q_bind_str(st, 2, flt->chat);
	if (flt->sender != NULL)
		store_q_bind_str(st, 3, flt->sender);
	if (flt->since_ms != 0)
		sqlite3_bind_int64(st, 4, flt->since_ms);
	if (flt->until_ms != 0)
		sqlite3_bind_int64(st, 5, flt->until_ms);
	if (flt->starred)
		sqlite3_bind_int(st, 8, 1);
}

void
store_search_free(struct store_search_result *r)
{
	size_t	 i;

	if (r == NULL)
		return;
	for (i = 0; i < r->n; i++)
		hit_release(&r->hits[i]);
	free(r->hits);
	memset(r, 0, sizeof(*r));
}

#define HIT_COLS "m.rowid, m.chat, m.id, m.sender, m.from_me, m.ts_ms," \
	" m.text, COALESCE(NULLIF(" CHAT_NAME_SQL ", ''), NULLIF(k.name, '')," \
	" k.push_name, ''), m.kind"
#define HIT_JOINS " LEFT JOIN chat c ON c.jid = m.chat" \
	" LEFT JOIN contact k ON k.jid = m.chat"
/* ?3 sender (NULL: anyone; '': our own; else a group author, or the
 * other side of a 1:1 chat), ?4 since, ?5 until (NULL: no bound), ?8
 * starred only (NULL: any). */
#define HIT_FILTERS " AND (?3 IS NULL OR (?3 = '' AND m.from_me = 1) OR" \
	" (?3 != '' AND m.from_me = 0 AND (m.sender = ?3 OR" \
	"  (m.sender = '' AND m.chat = ?3))))" \
	" AND (?4 IS NULL OR m.ts_ms >= ?4) AND (?5 IS NULL OR m.ts_ms < ?5)" \
	" AND (?8 IS NULL OR m.starred = 1)" \
	" AND " STORE_NOT_EXPIRED("m.")

/* h's snippet of a rich record (base/rich.h: a location, contact
 * cards, a link preview, ...) text[0..len): its words as the chat says
 * them (rich_describe(), no link), its lines joined by "; ", never its
 * key=value text; a record that does not parse, as it is. */
static void
rich_snippet(struct fold *f, const struct terms *t, const char *text,
    size_t len, struct store_search_hit *h)
{
	struct buf	 w = BUF_INIT, line = BUF_INIT;
	size_t		 i;

	if (rich_describe(text, len, true, false, &w) != 0 || w.len == 0) {
		buf_release(&w);
		snippet(f, t, text, len, h);
		return;
	}
	for (i = 0; i < w.len; i++)
		if (w.p[i] == '\n')
			buf_append(&line, "; ", 2);
		else
			buf_push(&line, w.p[i]);
	snippet(f, t, (const char *)line.p, line.len, h);
	buf_release(&line);
	buf_release(&w);
}

/* Append the hit of st's row (HIT_COLS) to r. */
static void
read_hit(struct fold *f, const struct terms *t, sqlite3_stmt *st,
    struct store_search_result *r, size_t *cap)
{
	struct store_search_hit	*h;
	const char		*text;

	if (r->n == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		r->hits = xrealloc(r->hits, *cap * sizeof(*r->hits));
	}
	h = &r->hits[r->n++];
	memset(h, 0, sizeof(*h));
	h->rowid = sqlite3_column_int64(st, 0);
	h->chat = store_q_col_dup(st, 1, NULL);
	h->id = store_q_col_dup(st, 2, NULL);
	h->sender = store_q_col_dup(st, 3, NULL);
	h->from_me = sqlite3_column_int(st, 4) != 0;
	h->ts_ms = sqlite3_column_int64(st, 5);
	text = (const char *)sqlite3_column_text(st, 6);
	if (text != NULL && sqlite3_column_int(st, 8) == STORE_MSG_RICH)
		rich_snippet(f, t, text, (size_t)sqlite3_column_bytes(st, 6),
		    h);
	else
		snippet(f, t, text != NULL ? text : "", text != NULL ?
		    (size_t)sqlite3_column_bytes(st, 6) : 0, h);
	h->chat_name = store_q_col_dup(st, 7, NULL);
}

static void
hit_release(struct store_search_hit *h)
{
	free(h->chat);
	free(h->id);
	free(h->sender);
	free(h->chat_name);
	free(h->snippet);
}

/* Newest first: ts_ms, then rowid, descending. */
static int
hit_cmp(const void *a, const void *b)
{
	const struct store_search_hit	*x = a, *y = b;

	if (x->ts_ms != y->ts_ms)
		return x->ts_ms > y->ts_ms ? -1 : 1;
	return x->rowid > y->rowid ? -1 : x->rowid < y->rowid;
}

/*
 * The rows stored but not indexed yet (fts_pending) that pass the
 * filters and match every term, appended to r; then r is ordered and
 * cut to limit.  The cost grows with the backlog of pending rows, which
 * store_fts_catch_up() empties.
 */
static int
add_pending(struct store *s, struct fold *f, const struct terms *t,
    const struct store_search_filter *flt, size_t limit, size_t *cap,
    struct store_search_result *r)
{
	sqlite3_stmt	*st;
	size_t		 before = r->n, i;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "SELECT " HIT_COLS
	    /* CROSS JOIN: the backlog drives, whatever the planner
	     * guesses of its size. */
	    " FROM fts_pending p CROSS JOIN message m ON m.rowid = p.rowid"
	    HIT_JOINS " WHERE (?2 IS NULL OR m.chat = ?2) AND m.deleted = 0"
	    " AND m.kind IN (0, 1) AND m.text != ''" HIT_FILTERS)) != 0)
		return rc;
	bind_filters(st, flt);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char	*text;

		text = (const char *)sqlite3_column_text(st, 6);
		if (text != NULL && matches_all(f, t, text,
		    (size_t)sqlite3_column_bytes(st, 6)))
			read_hit(f, t, st, r, cap);
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_DONE) {
		log_error("searching: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	if (r->n > before)
		qsort(r->hits, r->n, sizeof(*r->hits), hit_cmp);
	if (r->n > limit) {
		for (i = limit; i < r->n; i++)
			hit_release(&r->hits[i]);
		r->n = limit;
		r->more = true;
	}
	return 0;
}


/*
 * Read up to limit hits of st into r (one more sets r->more); column 8,
 * when there is one, is the candidate count (*ncand).  Hands st back.
 */
static int
read_hits(struct store *s, struct fold *f, const struct terms *t,
    sqlite3_stmt *st, size_t limit, size_t *cap, int *ncand,
    struct store_search_result *r)
{
	int	 rc;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		*ncand = sqlite3_column_int(st, 9);
		if (r->n == limit) {
			r->more = true;
			break;
		}
		read_hit(f, t, st, r, cap);
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("searching: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	return 0;
}

/* How many candidates the query has, up to STORE_SEARCH_CANDIDATES. */
static int
count_candidates(struct store *s, const char *expr, int *ncand)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "SELECT count(*) FROM (SELECT rowid"
	    " FROM message_fts WHERE message_fts MATCH ?1"
	    " ORDER BY rowid DESC LIMIT ?2)")) != 0)
		return rc;
	store_q_bind_str(st, 1, expr);
	sqlite3_bind_int(st, 2, STORE_SEARCH_CANDIDATES);
	if ((rc = store_q_step_one(s, st, "searching")) == 1)
		*ncand = sqlite3_column_int(st, 0);
	store_stmt_done(s, st);
	return rc == 1 ? 0 : rc < 0 ? rc : -EIO;
}

/*
 * Every match in chat flt->chat, newest first, exactly.  First its
 * newest CHAT_WALK rows are read and matched here as the index would
 * (the backlog's rows included): a word or prefix common in the chat
 * gives its limit hits there, whatever the chat's size.  Failing that,
 * the chat is walked by time (index message_page) against the set of
 * all matches, which is small for a word that is rare in the chat unless
 * it is common elsewhere.
 */
static int
in_chat(struct store *s, struct fold *f, const struct terms *t,
    const char *expr, const struct store_search_filter *flt, size_t limit,
    size_t *cap, struct store_search_result *r)
{
	sqlite3_stmt	*st;
	const char	*text;
	size_t		 i;
	int		 rc, rows = 0, ncand;

	if ((rc = store_q_prep(s, &st, "SELECT " HIT_COLS
	    " FROM message m" HIT_JOINS " WHERE m.chat = ?2"
	    " AND m.deleted = 0 AND m.kind IN (0, 1) AND m.text != ''"
	    HIT_FILTERS " ORDER BY m.ts_ms DESC, m.rowid DESC LIMIT ?6")) != 0)
		return rc;
	bind_filters(st, flt);
	sqlite3_bind_int(st, 6, CHAT_WALK);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		rows++;
		text = (const char *)sqlite3_column_text(st, 6);
		if (text == NULL || !matches_all(f, t, text,
		    (size_t)sqlite3_column_bytes(st, 6)))
			continue;
		if (r->n == limit) {
			r->more = true;
			break;
		}
		read_hit(f, t, st, r, cap);
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("searching: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	if (r->more || rows < CHAT_WALK)
		return 0;	/* the backlog's rows were read too */
	for (i = 0; i < r->n; i++)
		hit_release(&r->hits[i]);
	r->n = 0;
	if ((rc = store_q_prep(s, &st, "SELECT " HIT_COLS ", 0"
	    " FROM message m" HIT_JOINS
	    " WHERE m.chat = ?2 AND m.rowid IN (SELECT rowid"
	    "   FROM message_fts WHERE message_fts MATCH ?1)" HIT_FILTERS
	    " ORDER BY m.ts_ms DESC, m.rowid DESC LIMIT ?6")) != 0)
		return rc;
	store_q_bind_str(st, 1, expr);
	bind_filters(st, flt);
	sqlite3_bind_int64(st, 6, (int64_t)limit + 1);
	if ((rc = read_hits(s, f, t, st, limit, cap, &ncand, r)) != 0)
		return rc;
	return add_pending(s, f, t, flt, limit, cap, r);
}

/*
 * First the candidates: the STORE_SEARCH_CANDIDATES matches stored last,
 * filtered and ordered by time.  That is the whole answer when they are
 * all the matches, or without a chat filter (truncated when there were
 * more), or when they hold limit hits in the chat.  Otherwise, a chat
 * filter walks the chat's rows against every match.
 */
static int
run_search(struct store *s, struct fold *f, const struct terms *t,
    const char *expr, const struct store_search_filter *flt, size_t limit,
    struct store_search_result *r)
{
	sqlite3_stmt	*st;
	size_t		 cap = 0, i;
	int		 rc, ncand = -1;

	if ((rc = store_q_prep(s, &st, "WITH f AS MATERIALIZED (SELECT rowid"
	    "   AS r FROM message_fts WHERE message_fts MATCH ?1"
	    "   ORDER BY rowid DESC LIMIT ?7)"
	    " SELECT " HIT_COLS ", (SELECT count(*) FROM f)"
	    " FROM f JOIN message m ON m.rowid = f.r" HIT_JOINS
	    " WHERE (?2 IS NULL OR m.chat = ?2)" HIT_FILTERS
	    " ORDER BY m.ts_ms DESC, m.rowid DESC LIMIT ?6")) != 0)
		return rc;
	store_q_bind_str(st, 1, expr);
	bind_filters(st, flt);
	sqlite3_bind_int64(st, 6, (int64_t)limit + 1);
	sqlite3_bind_int(st, 7, STORE_SEARCH_CANDIDATES);
	if ((rc = read_hits(s, f, t, st, limit, &cap, &ncand, r)) != 0)
		return rc;
	if (ncand < 0 && (rc = count_candidates(s, expr, &ncand)) != 0)
		return rc;
	if (ncand >= STORE_SEARCH_CANDIDATES) {
		if (flt->chat == NULL || r->more) {
			r->truncated = r->more = true;
			return add_pending(s, f, t, flt, limit, &cap, r);
		}
		/* Too few in the chat among the candidates. */
		for (i = 0; i < r->n; i++)
			hit_release(&r->hits[i]);
		r->n = 0;
		r->more = false;
		return in_chat(s, f, t, expr, flt, limit, &cap, r);
	}
	return add_pending(s, f, t, flt, limit, &cap, r);
}

/* No word, is:starred: every starred message that passes the filters,
 * newest first (the kinds shown in a chat: not notices, hidden rows or
 * placeholders). */
static int
starred_all(struct store *s, struct fold *f, const struct terms *t,
    const struct store_search_filter *flt, size_t limit,
    struct store_search_result *r)
{
	sqlite3_stmt	*st;
	size_t		 cap = 0;
	int		 ncand;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "SELECT " HIT_COLS ", 0"
	    " FROM message m" HIT_JOINS " WHERE m.starred = 1"
	    " AND m.deleted = 0 AND m.kind IN (0, 1, 6, 7)"
	    " AND (?2 IS NULL OR m.chat = ?2)" HIT_FILTERS
	    " ORDER BY m.ts_ms DESC, m.rowid DESC LIMIT ?6")) != 0)
		return rc;
	bind_filters(st, flt);
	sqlite3_bind_int64(st, 6, (int64_t)limit + 1);
	return read_hits(s, f, t, st, limit, &cap, &ncand, r);
}

int
store_search(struct store *s, const char *query,
    const struct store_search_filter *filter, size_t limit,
    struct store_search_result *out)
{
	static const struct store_search_filter	 none;
	struct store_search_result		 r;
	struct fold				 f;
	struct terms				*t;
	char					*expr;
	size_t					 qlen;
	int					 rc;

	if (filter == NULL)
		filter = &none;
	if (query == NULL || out == NULL || limit == 0 ||
	    limit > STORE_SEARCH_MAX ||
	    (qlen = strnlen(query, STORE_SEARCH_QUERY_MAX + 1)) >
	    STORE_SEARCH_QUERY_MAX ||
	    !store_q_str_ok(filter->chat, STORE_JID_MAX, false) ||
	    !store_q_str_ok(filter->sender, STORE_JID_MAX, false))
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	if ((rc = fold_init(s, &f)) != 0)
		return rc;
	t = xcalloc(1, sizeof(*t));
	(void)store_tok_split(f.t, t, FTS5_TOKENIZE_QUERY | STORE_TOK_RUNS,
	    query, (int)qlen, term_cb);
	if (t->n == 0 && !filter->starred) {	/* nothing to look for */
		free(t);
		fold_release(&f);
		*out = r;
		return 0;
	}
	if (t->n == 0)
		rc = starred_all(s, &f, t, filter, limit, &r);
	else {
		expr = fts_expr(t);
		rc = run_search(s, &f, t, expr, filter, limit, &r);
		free(expr);
	}
	free(t);
	fold_release(&f);
	if (rc != 0) {
		store_search_free(&r);
		return rc;
	}
	*out = r;
	return 0;
}

int
store_fts_catch_up(struct store *s, size_t max)
{
	sqlite3_stmt	*st;
	int64_t		 last = INT64_MAX;
	int		 rc;

	if (max == 0 || max > STORE_FTS_CATCH_UP_MAX)
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	/* The max-th pending rowid: the batch is every pending row up to
	 * it, in rowid order. */
	if ((rc = store_q_prep(s, &st, "SELECT rowid FROM fts_pending"
	    " ORDER BY rowid LIMIT 1 OFFSET ?1")) != 0)
		goto out;
	sqlite3_bind_int64(st, 1, (int64_t)max - 1);
	if ((rc = store_q_step_one(s, st, "reading the FTS backlog")) == 1)
		last = sqlite3_column_int64(st, 0);
	store_stmt_done(s, st);
	if (rc < 0)
		goto out;
	if ((rc = store_q_prep(s, &st, "INSERT INTO message_fts (rowid, text)"
	    " SELECT m.rowid, m.text FROM fts_pending p"
	    " JOIN message m ON m.rowid = p.rowid WHERE p.rowid <= ?1"
	    " AND m.deleted = 0 AND m.kind IN (0, 1) AND m.text != ''"
	    " ORDER BY p.rowid")) != 0)
		goto out;
	sqlite3_bind_int64(st, 1, last);
	if ((rc = store_q_run(s, st, "indexing messages")) < 0)
		goto out;
	if ((rc = store_q_prep(s, &st, "DELETE FROM fts_pending"
	    " WHERE rowid <= ?1")) != 0)
		goto out;
	sqlite3_bind_int64(st, 1, last);
	if ((rc = store_q_run(s, st, "indexing messages")) < 0)
		goto out;
	rc = store_fts_backlog(s);
out:
	s->fts_batching = true;	/* this commit is the batch */
	rc = store_tx_end(s, rc);
	s->fts_batching = false;
	if (rc >= 0 && s->fts_live > (size_t)rc)
		s->fts_live = (size_t)rc;
	return rc;
}

int
store_fts_backlog(struct store *s)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "SELECT count(*) FROM fts_pending"))
	    != 0)
		return rc;
	if ((rc = store_q_step_one(s, st, "reading the FTS backlog")) == 1)
		rc = sqlite3_column_int(st, 0);
	else if (rc == 0)
		rc = -EIO;
	store_stmt_done(s, st);
	return rc;
}

void
store_fts_batch(struct store *s)
{
	int	 rc;

	if (s->fts_live < STORE_FTS_BATCH || s->fts_batching ||
	    !sqlite3_get_autocommit(s->db))
		return;
	if ((rc = store_fts_catch_up(s, STORE_FTS_BATCH_MAX)) < 0)
		log_warn("search index: a batch failed (%d); its rows wait",
		    rc);
}

int
store_fts_attach(struct store *s)
{
	int	 rc;

	/* What an earlier run left in the backlog waits for the next
	 * batch. */
	if ((rc = store_fts_backlog(s)) < 0)
		return rc;
	s->fts_live = (size_t)rc;
	store_tx_after_commit(s, store_fts_batch);
	return 0;
}

int
store_msg_page_around(struct store *s, const char *chat, int64_t rowid,
    size_t before, size_t after, struct store_msg_page *out)
{
	struct store_msg_page	 older, newer;
	sqlite3_stmt		*st;
	int64_t			 ts = 0;
	int			 rc;

	if (!store_q_str_ok(chat, STORE_JID_MAX, true) || out == NULL ||
	    before > STORE_MSG_PAGE_MAX || after > STORE_MSG_PAGE_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT ts_ms FROM message"
	    " WHERE rowid = ?1 AND chat = ?2 AND kind != 5")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, rowid);
	store_q_bind_str(st, 2, chat);
	if ((rc = store_q_step_one(s, st, "finding a message")) == 1)
		ts = sqlite3_column_int64(st, 0);
	store_stmt_done(s, st);
	if (rc <= 0)
		return rc == 0 ? -ENOENT : rc;
	memset(&older, 0, sizeof(older));
	if (before > 0 && (rc = store_msg_page_before(s, chat, ts, rowid,
	    before, &older)) != 0)
		return rc;
	/* (ts, rowid - 1) < (ts, rowid): the row itself comes first. */
	if ((rc = store_msg_page_after(s, chat, ts, rowid - 1, after + 1,
	    &newer)) != 0) {
		store_msg_page_free(&older);
		return rc;
	}
	if (newer.n == 0 || newer.msgs[0].rowid != rowid) {
		/* Hidden rows are not in pages; anything else is a race
		 * with a writer that deleted it. */
		store_msg_page_free(&older);
		store_msg_page_free(&newer);
		return -ENOENT;
	}
	if (older.n > 0) {
		older.msgs = xrealloc(older.msgs, (older.n + newer.n) *
		    sizeof(*older.msgs));
		memcpy(older.msgs + older.n, newer.msgs, newer.n *
		    sizeof(*newer.msgs));
		older.n += newer.n;
		older.more = older.more || newer.more;
		free(newer.msgs);
		*out = older;
	} else {
		free(older.msgs);
		*out = newer;
	}
	return 0;
}

int
store_chat_find(struct store *s, const char *who, size_t max,
    struct store_chat_list *out)
{
	struct store_chat_list	 l;
	sqlite3_stmt		*st;
	size_t			 cap = 0;
	int			 rc, pass;

	if (!store_q_str_ok(who, STORE_NAME_MAX, true) || max == 0 ||
	    max > INT32_MAX || out == NULL)
		return -EINVAL;
	memset(&l, 0, sizeof(l));
	/* Pass 0: the JID; 1: a name equal; 2: a name containing who. */
	for (pass = 0; pass < 3 && l.n == 0; pass++) {
		if ((rc = store_q_prep(s, &st, "SELECT " CHAT_HEAD_COLS
		    " FROM chat c LEFT JOIN contact k ON k.jid = c.jid"
		    " WHERE CASE ?2"
		    "  WHEN 0 THEN c.jid = ?1"
		    "  WHEN 1 THEN " CHAT_NAME_SQL " = ?1 COLLATE NOCASE"
		    "   OR k.name = ?1 COLLATE NOCASE"
		    "   OR k.push_name = ?1 COLLATE NOCASE"
		    "  ELSE instr(lower(" CHAT_NAME_SQL "), lower(?1)) > 0"
		    "   OR instr(lower(k.name), lower(?1)) > 0"
		    "   OR instr(lower(k.push_name), lower(?1)) > 0 END"
		    " ORDER BY c.pinned DESC, c.last_ms DESC LIMIT ?3")) != 0)
			goto fail;
		store_q_bind_str(st, 1, who);
		sqlite3_bind_int(st, 2, pass);
		sqlite3_bind_int64(st, 3, (int64_t)max + 1);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
			struct store_chat	*c;

			if (l.n == max) {
				l.more = true;
				break;
			}
			if (l.n == cap) {
				cap = cap == 0 ? 8 : cap * 2;
				l.chats = xrealloc(l.chats, cap *
				    sizeof(*l.chats));
			}
			c = &l.chats[l.n++];
			store_q_chat_head(st, c);
			c->last_sender = xstrdup("");
			c->last_text = xstrdup("");
		}
		store_stmt_done(s, st);
		if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
			log_error("finding a chat: %s", sqlite3_errmsg(s->db));
			rc = -EIO;
			goto fail;
		}
	}
	*out = l;
	return 0;
fail:
	store_chat_list_free(&l);
	return rc;
}
