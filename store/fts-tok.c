/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/fts-tok.c -- the "wachat" FTS5 tokenizer of the search index
 * (migration 12, issue 17): unicode61 remove_diacritics 2 for every
 * script that separates its words, and overlapping bigrams for runs of
 * Chinese, Japanese and Korean characters, which unicode61 would keep as
 * one token per run (so that 北京 found nothing in 我明天早上到北京。).
 *
 * A CJK run is a maximal sequence of ideographs (CJK Unified Ideographs
 * and their extensions, compatibility ideographs, 々 〆 〇), kana (with
 * ー and the half-width forms) and hangul (syllables and jamo); anything
 * else (CJK punctuation such as 。、「」 included) is handed to unicode61.
 * In a document a run c1..cn gives the tokens c1c2, c2c3, ..., c(n-1)cn
 * and then the unigram cn, at consecutive positions: every character of
 * the run begins exactly one token, so a one-character query, a prefix
 * term "c"*, finds every occurrence of c (the bigrams that begin with it
 * and the run's last character), through the 1-character prefix index.
 * In a query a run gives its bigrams only (its single character when it
 * has one): FTS5 makes them a phrase, which matches exactly where the
 * run's text occurs inside a run of the message.  No bigram spans two
 * runs.  A text with no CJK character is tokenized exactly as unicode61
 * does.
 *
 * The search's own matching (store/search.c) asks for the runs whole
 * (STORE_TOK_RUNS) and matches them as substrings, which is the same
 * test.  Connection-local: registered on every connection that may read
 * or write message_fts (store_db_open(), store_open_ro()).
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

/* The unicode61 tokenizer, found on the connection at registration. */
struct tok_module {
	fts5_tokenizer	 uni;
	void		*uni_ud;
};

struct store_tok {
	struct tok_module	*m;
	Fts5Tokenizer		*u;	/* unicode61 remove_diacritics 2 */
};

static fts5_api *
api_of(sqlite3 *db)
{
	fts5_api	*api = NULL;
	sqlite3_stmt	*st;

	if (sqlite3_prepare_v2(db, "SELECT fts5(?1)", -1, &st, NULL) !=
	    SQLITE_OK) {
		log_error("no FTS5: %s", sqlite3_errmsg(db));
		return NULL;
	}
	sqlite3_bind_pointer(st, 1, (void *)&api, "fts5_api_ptr", NULL);
	(void)sqlite3_step(st);
	sqlite3_finalize(st);
	return api;
}

bool
store_tok_is_cjk(uint32_t c)
{
	return (c >= 0x1100 && c <= 0x11FF) ||	/* hangul jamo */
	    (c >= 0x3005 && c <= 0x3007) ||	/* 々 〆 〇 */
	    (c >= 0x3041 && c <= 0x309F) ||	/* hiragana */
	    (c >= 0x30A1 && c <= 0x30FF) ||	/* katakana (ー, not ・) */
	    (c >= 0x3131 && c <= 0x318E) ||	/* hangul compatibility jamo */
	    (c >= 0x31F0 && c <= 0x31FF) ||	/* katakana extension */
	    (c >= 0x3400 && c <= 0x4DBF) ||	/* extension A */
	    (c >= 0x4E00 && c <= 0x9FFF) ||	/* unified ideographs */
	    (c >= 0xA960 && c <= 0xA97F) ||	/* jamo extended A */
	    (c >= 0xAC00 && c <= 0xD7FF) ||	/* syllables, jamo ext. B */
	    (c >= 0xF900 && c <= 0xFAFF) ||	/* compatibility ideographs */
	    (c >= 0xFF66 && c <= 0xFF9F) ||	/* half-width katakana */
	    (c >= 0xFFA0 && c <= 0xFFDC) ||	/* half-width hangul */
	    (c >= 0x20000 && c <= 0x3FFFF);	/* extensions B-H, compat. */
}

/* The code point at t[i..n) and its length (an invalid or cut sequence:
 * one byte, U+FFFD). */
static uint32_t
cp_at(const unsigned char *t, int i, int n, int *len)
{
	uint32_t	 c = t[i];
	int		 k, need;

	*len = 1;
	if (c < 0x80)
		return c;
	need = c >= 0xF5 ? 0 : c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC2 ? 1 :
	    0;
	if (need == 0 || n - i <= need)
		return 0xFFFD;
	c &= 0x3Fu >> need;
	for (k = 1; k <= need; k++) {
		if ((t[i + k] & 0xC0) != 0x80)
			return 0xFFFD;
		c = c << 6 | (t[i + k] & 0x3F);
	}
	*len = need + 1;
	return c;
}

/* unicode61 over a slice of the text: its offsets moved to the whole. */
struct shift {
	void	*ctx;
	int	 (*cb)(void *, int, const char *, int, int, int);
	int	 off;
	int	 rc;	/* what cb last said: unicode61 takes SQLITE_DONE for
			 * its own end and returns SQLITE_OK */
};

static int
shift_cb(void *ctx, int flags, const char *tok, int ntok, int start, int end)
{
	struct shift	*sh = ctx;

	return sh->rc = sh->cb(sh->ctx, flags, tok, ntok, start + sh->off,
	    end + sh->off);
}

static int
words(struct store_tok *t, struct shift *sh, int flags, const char *text,
    int a, int b)
{
	int	 rc;

	if (b <= a)
		return SQLITE_OK;
	sh->off = a;
	rc = t->m->uni.xTokenize(t->u, sh, flags & ~STORE_TOK_RUNS, text + a,
	    b - a, shift_cb);
	return rc != SQLITE_OK ? rc : sh->rc;
}

/* The tokens of a CJK run from text[a..], whose n characters end at
 * ends[]; single: the whole run is one character. */
static int
run_tokens(struct shift *sh, int flags, const char *text, int a,
    const int *ends, int n, bool single)
{
	int	 i, from = a;

	for (i = 0; i + 1 < n; i++) {
		if ((sh->rc = sh->cb(sh->ctx, 0, text + from, ends[i + 1] -
		    from, from, ends[i + 1])) != SQLITE_OK)
			return sh->rc;
		from = ends[i];
	}
	/* The last character alone: in a document always (each character
	 * begins a token), in a query only when it is the whole run. */
	if (n > 0 && (single || (flags & FTS5_TOKENIZE_QUERY) == 0))
		return sh->rc = sh->cb(sh->ctx, 0, text + from, ends[n - 1] -
		    from, from, ends[n - 1]);
	return SQLITE_OK;
}

#define RUN_CHUNK	64	/* characters of a run tokenized at once */

/* The CJK run that begins at text[*i]: its tokens, or the run whole;
 * *i moves past it. */
static int
run(struct shift *sh, int flags, const char *text, int n, int *i)
{
	const unsigned char	*u = (const unsigned char *)text;
	int			 ends[RUN_CHUNK + 1];
	int			 a = *i, k = 0, total = 0, len, rc;

	while (*i < n && u[*i] >= 0x80 &&
	    store_tok_is_cjk(cp_at(u, *i, n, &len))) {
		*i += len;
		total++;
		if ((flags & STORE_TOK_RUNS) != 0)
			continue;
		ends[k++] = *i;
		if (k == RUN_CHUNK + 1) {
			/* Its bigrams so far; the next chunk begins with
			 * this one's last character. */
			if ((rc = run_tokens(sh, flags | FTS5_TOKENIZE_QUERY,
			    text, a, ends, k, false)) != SQLITE_OK)
				return rc;
			a = ends[k - 2];
			ends[0] = ends[k - 1];
			k = 1;
		}
	}
	if ((flags & STORE_TOK_RUNS) != 0)
		return sh->rc = sh->cb(sh->ctx, STORE_TOK_RUN, text + a, *i - a,
		    a, *i);
	return run_tokens(sh, flags, text, a, ends, k, total == 1);
}

int
store_tok_split(struct store_tok *t, void *ctx, int flags, const char *text,
    int n, int (*cb)(void *, int, const char *, int, int, int))
{
	const unsigned char	*u = (const unsigned char *)text;
	struct shift		 sh = { ctx, cb, 0, SQLITE_OK };
	int			 i = 0, seg = 0, len, rc;

	while (i < n) {
		if (u[i] < 0x80 || !store_tok_is_cjk(cp_at(u, i, n, &len))) {
			i += u[i] < 0x80 ? 1 : len;
			continue;
		}
		if ((rc = words(t, &sh, flags, text, seg, i)) != SQLITE_OK ||
		    (rc = run(&sh, flags, text, n, &i)) != SQLITE_OK)
			return rc;
		seg = i;
	}
	return words(t, &sh, flags, text, seg, n);
}

int
store_tok_new(struct store *s, struct store_tok **out)
{
	static const char	*args[] = { "remove_diacritics", "2" };
	struct tok_module	*m;
	struct store_tok	*t;
	fts5_api		*api;
	void			*ud = NULL;
	fts5_tokenizer		 tk;

	if ((api = api_of(s->db)) == NULL ||
	    api->xFindTokenizer(api, STORE_TOK_NAME, &ud, &tk) != SQLITE_OK) {
		log_error("no %s tokenizer on the connection", STORE_TOK_NAME);
		return -EIO;
	}
	m = ud;
	t = xcalloc(1, sizeof(*t));
	t->m = m;
	if (m->uni.xCreate(m->uni_ud, args, 2, &t->u) != SQLITE_OK) {
		log_error("cannot create the unicode61 tokenizer");
		free(t);
		return -EIO;
	}
	*out = t;
	return 0;
}

void
store_tok_free(struct store_tok *t)
{
	if (t == NULL)
		return;
	t->m->uni.xDelete(t->u);
	free(t);
}

/* --- the FTS5 tokenizer --- */

static int
x_create(void *ud, const char **argv, int argc, Fts5Tokenizer **out)
{
	static const char	*args[] = { "remove_diacritics", "2" };
	struct tok_module	*m = ud;
	struct store_tok	*t;

	(void)argv;
	if (argc != 0)	/* the behaviour is fixed: the index relies on it */
		return SQLITE_ERROR;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return SQLITE_NOMEM;
	t->m = m;
	if (m->uni.xCreate(m->uni_ud, args, 2, &t->u) != SQLITE_OK) {
		free(t);
		return SQLITE_ERROR;
	}
	*out = (Fts5Tokenizer *)t;
	return SQLITE_OK;
}

static void
x_delete(Fts5Tokenizer *p)
{
	struct store_tok	*t = (struct store_tok *)p;

	t->m->uni.xDelete(t->u);
	free(t);
}

static int
x_tokenize(Fts5Tokenizer *p, void *ctx, int flags, const char *text, int n,
    int (*cb)(void *, int, const char *, int, int, int))
{
	int	 rc;

	rc = store_tok_split((struct store_tok *)p, ctx,
	    flags & ~STORE_TOK_RUNS, text, n, cb);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static void
module_free(void *p)
{
	free(p);
}

int
store_tok_register(sqlite3 *db)
{
	fts5_tokenizer		 mine = { x_create, x_delete, x_tokenize };
	struct tok_module	*m;
	fts5_api		*api;

	if ((api = api_of(db)) == NULL)
		return -EIO;
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return -ENOMEM;
	if (api->xFindTokenizer(api, "unicode61", &m->uni_ud, &m->uni) !=
	    SQLITE_OK) {
		log_error("no unicode61 tokenizer");
		free(m);
		return -EIO;
	}
	if (api->xCreateTokenizer(api, STORE_TOK_NAME, m, &mine,
	    module_free) != SQLITE_OK) {	/* module_free not called */
		log_error("cannot register the %s tokenizer", STORE_TOK_NAME);
		free(m);
		return -EIO;
	}
	return 0;
}
