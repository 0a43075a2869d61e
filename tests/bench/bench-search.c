/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-search.c -- the history-store and search benches of
 * issue 9: perf.md H2 history_sync_store and U3 fts_1M, over the
 * 1,000,000-message database of tests/bench/bench-history.c (gen).
 *
 *   bench-search run SRC_DIR WORK_DIR [--only NAME] [--samples S]
 *                    [--no-copy] [--round C]
 *
 * SRC_DIR/wachat.db (bench-history gen's, left untouched) is copied to
 * WORK_DIR and opened by store_open(): a database of an older schema is
 * migrated there, and the time the migrations take (5 and 12 build the
 * FTS index over every row it holds) is printed on stderr.  --no-copy uses WORK_DIR's
 * database as it is; --round C makes the imported ids differ (C a
 * letter, default H) so an import can run again on the same database.
 *
 * history_sync_store (H2): 500 conversations x 40 messages (20,000,
 * the fixture of perf.md H1), deterministic text (fixed seed) in English,
 * Spanish, Russian, Japanese words and emoji, stored by
 * store_hist_import() in batches of 400, each its own transaction (the
 * rows are searchable at once, through the FTS backlog), then indexed
 * by store_fts_catch_up() in batches of 5,000 (timed apart: the worker
 * does it when the import is done), and each conversation by
 * store_hist_chat().  Timed: the calls; the messages are made before.
 * One line: median/min/p95 per batch of 400, msgs_per_s over the whole
 * 20,000 (the import), catch_up_msgs_per_s, msgs_per_s_indexed (import
 * and catch-up together), and the chat calls.
 *
 * fts_1M (U3): store_search() with a limit of 50 (hits with snippets,
 * that is, the rows fetched) over the result, 1,020,000 messages: a
 * prefix of 1, 2, 3 and 5 characters, a whole word, two words, a word
 * that occurs once, a word scoped to a 100-message chat, a 2-character
 * prefix scoped to the 1,000,000-message chat, a Cyrillic prefix, and
 * Chinese and Japanese inside runs written without spaces (a word, one
 * character, three characters, kana: the bigrams of migration 12).  Each
 * sample is one search (a keystroke), so p95_ns is per keystroke.
 *
 * One JSON line per bench on stdout (perf.md 3.0), a table on stderr.
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "alloc-count.h"
#include "base/err.h"
#include "store/store.h"
#include "base/xmalloc.h"

#define CONVS		500
#define PER_CONV	40
#define BATCH		400
#define CATCH_UP	5000	/* rows a store_fts_catch_up() call */
#define BIG_CHAT	"15550001234@s.whatsapp.net"
#define SMALL_CHAT	"16660000000@s.whatsapp.net"	/* gen: English */
#define RARE_WORD	"xylophonist"

static void
die(const char *what, const char *detail)
{
	fprintf(stderr, "bench-search: %s%s%s\n", what,
	    detail != NULL ? ": " : "", detail != NULL ? detail : "");
	exit(1);
}

static double
now_ns(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static uint64_t	rng_state = 0xD1B54A32D192ED03ull;
static char	round_tag = 'H';	/* --round: other ids, same texts */

static uint32_t
rnd_below(uint32_t n)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return (uint32_t)(((rng_state * 2685821657736338717ull) >> 32) % n);
}

static const char *const WORDS[] = { "the", "to", "and", "you", "see",
	"tomorrow", "dinner", "meeting", "thanks", "home", "train", "late",
	"photo", "call", "later", "weekend", "hola", "mañana", "gracias",
	"después", "привет", "завтра", "спасибо", "встреча", "明日", "ありがとう",
	"ご飯", "😂", "👍", "❤️", "ok", "lol", "what", "time", "people" };
#define NWORDS	(sizeof(WORDS) / sizeof(WORDS[0]))

/* 1-12 words mostly, one in 20 up to 60. */
static size_t
gen_text(char *b, size_t size)
{
	uint32_t	 words = rnd_below(20) == 0 ? 13 + rnd_below(48) :
			    1 + rnd_below(12), i;
	size_t		 len = 0, wl;
	const char	*w;

	for (i = 0; i < words; i++) {
		w = WORDS[rnd_below(NWORDS)];
		wl = strlen(w);
		if (len + wl + 2 >= size)
			break;
		if (len > 0)
			b[len++] = ' ';
		memcpy(b + len, w, wl);
		len += wl;
	}
	b[len] = '\0';
	return len;
}

static void
copy_file(const char *from, const char *to)
{
	char	 buf[1 << 16];
	ssize_t	 n;
	int	 in, out;

	if ((in = open(from, O_RDONLY)) < 0)
		die("cannot open", from);
	if ((out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
		die("cannot create", to);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			die("cannot write", to);
	if (n < 0 || close(out) != 0)
		die("cannot copy", from);
	close(in);
}

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stats {
	double	 median, min, p95;
};

static struct stats
stats_of(double *t, size_t n)
{
	struct stats	 r;

	qsort(t, n, sizeof(*t), cmp_double);
	r.median = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	r.min = t[0];
	r.p95 = t[(size_t)((double)(n - 1) * 0.95 + 0.5)];
	return r;
}

static bool
selected(const char *only, const char *name)
{
	size_t	 n;

	if (only == NULL)
		return true;
	n = strlen(only);
	return strcmp(only, name) == 0 || (strncmp(only, name, n) == 0 &&
	    name[n] == '/');
}

/* H2.  The batches' messages, then the timed imports. */
static void
bench_hist(struct store *s)
{
	struct store_msg_new	*m = xcalloc(CONVS * PER_CONV, sizeof(*m));
	char			(*jids)[48] = xcalloc(CONVS, sizeof(*jids));
	char			(*idv)[32] = xcalloc(CONVS * PER_CONV, 32);
	char			**texts = xcalloc(CONVS * PER_CONV,
				    sizeof(*texts));
	char			 text[4096], sender[48];
	double			 t[CONVS * PER_CONV / BATCH], ct[CONVS];
	double			 t0, total = 0, ctotal = 0, catch_up;
	struct stats		 st, cs;
	struct alloc_count	 ac;
	size_t			 i, k, b, nb = CONVS * PER_CONV / BATCH;
	int			 rc, inserted = 0;
	int64_t			 ts;

	for (i = 0; i < CONVS; i++) {
		if (i % 10 == 9)
			snprintf(jids[i], sizeof(jids[i]),
			    "1203639%011zu@g.us", i);
		else
			snprintf(jids[i], sizeof(jids[i]),
			    "1777%07zu@s.whatsapp.net", i);
		/* a conversation's messages, oldest first, 2021-2022 */
		ts = 1610000000000LL + (int64_t)rnd_below(40000000) * 1000;
		for (k = 0; k < PER_CONV; k++) {
			struct store_msg_new	*x = &m[i * PER_CONV + k];
			size_t			 j = i * PER_CONV + k;

			snprintf(idv[j], 32, "3EB0%c%06zu%05zu", round_tag,
			    i, k);
			x->chat = jids[i];
			x->id = idv[j];
			x->from_me = rnd_below(5) < 2;
			if (i % 10 == 9 && !x->from_me) {
				snprintf(sender, sizeof(sender),
				    "1555%07u@s.whatsapp.net", rnd_below(40));
				x->sender = xstrdup(sender);
			}
			ts += (int64_t)rnd_below(7200) * 1000;
			x->ts_ms = ts;
			x->kind = STORE_MSG_TEXT;
			x->text_len = gen_text(text, sizeof(text));
			if (j == 12345) {
				snprintf(text, sizeof(text), "the "
				    RARE_WORD " came late");
				x->text_len = strlen(text);
			}
			texts[j] = xstrdup(text);
			x->text = texts[j];
			x->state = x->from_me ? STORE_MSG_READ :
			    STORE_MSG_READ;
		}
	}
	for (b = 0; b < nb; b++) {
		if (b == 1)
			alloc_count_start();
		t0 = now_ns();
		rc = store_hist_import(s, &m[b * BATCH], BATCH);
		t[b] = now_ns() - t0;
		if (b == 1)
			alloc_count_stop(&ac);
		if (rc < 0)
			die("store_hist_import", wc_strerror(rc));
		inserted += rc;
		total += t[b];
	}
	if (inserted != CONVS * PER_CONV)
		die("not every message was stored", NULL);
	/* The deferred indexing of those rows, in batches of CATCH_UP. */
	t0 = now_ns();
	while ((rc = store_fts_catch_up(s, CATCH_UP)) > 0)
		;
	if (rc < 0)
		die("store_fts_catch_up", wc_strerror(rc));
	catch_up = now_ns() - t0;
	for (i = 0; i < CONVS; i++) {
		t0 = now_ns();
		rc = store_hist_chat(s, jids[i], i % 10 == 9 ? "Book club 📚" :
		    "", m[i * PER_CONV + PER_CONV - 1].ts_ms, 0, false, 0, 0);
		ct[i] = now_ns() - t0;
		ctotal += ct[i];
		if (rc < 0)
			die("store_hist_chat", wc_strerror(rc));
	}
	st = stats_of(t, nb);
	cs = stats_of(ct, CONVS);
	printf("{\"name\":\"history_sync_store\",\"median_ns\":%.1f,"
	    "\"min_ns\":%.1f,\"p95_ns\":%.1f,\"allocs\":%llu,\"bytes\":%llu,"
	    "\"iters\":1,\"samples\":%zu,\"batch\":%d,\"messages\":%d,"
	    "\"msgs_per_s\":%.0f,\"fts\":\"deferred\","
	    "\"catch_up_batch\":%d,\"catch_up_msgs_per_s\":%.0f,"
	    "\"msgs_per_s_indexed\":%.0f,"
	    "\"chat_median_ns\":%.1f,\"chat_p95_ns\":%.1f,"
	    "\"msgs_per_s_with_chats\":%.0f}\n", st.median, st.min, st.p95,
	    (unsigned long long)ac.calls, (unsigned long long)ac.bytes, nb,
	    BATCH, CONVS * PER_CONV, CONVS * PER_CONV / (total / 1e9),
	    CATCH_UP, CONVS * PER_CONV / (catch_up / 1e9),
	    CONVS * PER_CONV / ((total + catch_up) / 1e9),
	    cs.median, cs.p95, CONVS * PER_CONV / ((total + ctotal) / 1e9));
	fflush(stdout);
	fprintf(stderr, "history_sync_store     %8.0f messages/s (batch of %d:"
	    " median %.2f ms, p95 %.2f ms); with the chats %.0f/s;\n"
	    "                       FTS catch-up %.0f/s; import + catch-up"
	    " %.0f/s\n",
	    CONVS * PER_CONV / (total / 1e9), BATCH, st.median / 1e6,
	    st.p95 / 1e6, CONVS * PER_CONV / ((total + ctotal) / 1e9),
	    CONVS * PER_CONV / (catch_up / 1e9),
	    CONVS * PER_CONV / ((total + catch_up) / 1e9));
	for (i = 0; i < CONVS * PER_CONV; i++) {
		free(texts[i]);
		free((char *)(uintptr_t)m[i].sender);
	}
	free(texts);
	free(idv);
	free(jids);
	free(m);
}

struct fts_case {
	const char	*name;
	const char	*query;
	const char	*chat;
};

static const struct fts_case CASES[] = {
	{ "fts_1M/prefix1", "t", NULL },
	{ "fts_1M/prefix2", "th", NULL },
	{ "fts_1M/prefix3", "tom", NULL },
	{ "fts_1M/prefix5", "tomor", NULL },
	{ "fts_1M/word", "tomorrow", NULL },
	{ "fts_1M/two_words", "see you", NULL },
	{ "fts_1M/rare_word", RARE_WORD, NULL },
	{ "fts_1M/cyrillic_prefix3", "зав", NULL },
	/* Chinese and Japanese are written without spaces (gen's texts
	 * join their words): a word inside a run, one character, a
	 * three-character word, a word of kana inside a run (issue 17). */
	{ "fts_1M/cjk_word_in_run", "吃饭", NULL },
	{ "fts_1M/cjk_char", "饭", NULL },
	{ "fts_1M/cjk_word3", "没问题", NULL },
	{ "fts_1M/cjk_kana_in_run", "がとう", NULL },
	{ "fts_1M/chat_word", "dinner", SMALL_CHAT },
	{ "fts_1M/chat1M_prefix2", "th", BIG_CHAT },
	{ "fts_1M/chat1M_word", "dinner", BIG_CHAT },
};

static void
bench_fts(struct store *s, const char *only, size_t samples)
{
	double				*t = xcalloc(samples, sizeof(*t));
	struct store_search_filter	 f;
	struct store_search_result	 r;
	struct alloc_count		 ac;
	struct stats			 st;
	size_t				 c, i, hits = 0;
	bool				 trunc = false;
	int				 rc;

	for (c = 0; c < sizeof(CASES) / sizeof(CASES[0]); c++) {
		const struct fts_case	*k = &CASES[c];

		if (!selected(only, k->name))
			continue;
		memset(&f, 0, sizeof(f));
		f.chat = k->chat;
		for (i = 0; i < 3 + samples; i++) {
			double	 t0;

			if (i == 2)
				alloc_count_start();
			t0 = now_ns();
			rc = store_search(s, k->query, &f, 50, &r);
			if (i >= 3)
				t[i - 3] = now_ns() - t0;
			if (i == 2)
				alloc_count_stop(&ac);
			if (rc != 0)
				die("store_search", wc_strerror(rc));
			hits = r.n;
			trunc = r.truncated;
			store_search_free(&r);
		}
		if (hits == 0)
			die("no hit", k->name);
		st = stats_of(t, samples);
		printf("{\"name\":\"%s\",\"median_ns\":%.1f,\"min_ns\":%.1f,"
		    "\"p95_ns\":%.1f,\"allocs\":%llu,\"bytes\":%llu,"
		    "\"iters\":1,\"samples\":%zu,\"query\":\"%s\","
		    "\"scope\":\"%s\",\"hits\":%zu,\"truncated\":%s}\n",
		    k->name, st.median, st.min, st.p95,
		    (unsigned long long)ac.calls, (unsigned long long)ac.bytes,
		    samples, k->query, k->chat != NULL ? k->chat : "all",
		    hits, trunc ? "true" : "false");
		fflush(stdout);
		fprintf(stderr, "%-26s p50 %8.3f ms  p95 %8.3f ms  %3zu hits"
		    "%s\n", k->name, st.median / 1e6, st.p95 / 1e6, hits,
		    trunc ? " (truncated)" : "");
	}
	free(t);
}

int
main(int argc, char **argv)
{
	static const struct option	 lo[] = {
		{ "only", required_argument, NULL, 'o' },
		{ "samples", required_argument, NULL, 's' },
		{ "no-copy", no_argument, NULL, 'n' },
		{ "round", required_argument, NULL, 'r' },
		{ NULL, 0, NULL, 0 },
	};
	const char	*only = NULL;
	char		 from[4096], to[4096];
	struct store	*s;
	size_t		 samples = 31;
	bool		 copy = true;
	double		 t0;
	int		 ch, rc;

	if (argc < 4 || strcmp(argv[1], "run") != 0) {
		fprintf(stderr, "usage: bench-search run SRC_DIR WORK_DIR"
		    " [--only NAME] [--samples S]\n");
		return 2;
	}
	optind = 4;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (ch) {
		case 'o': only = optarg; break;
		case 's': samples = strtoul(optarg, NULL, 10); break;
		case 'n': copy = false; break;
		case 'r': round_tag = optarg[0]; break;
		default: return 2;
		}
	}
	if (samples == 0)
		return 2;
	if (mkdir(argv[3], 0700) != 0 && errno != EEXIST)
		die("cannot create", argv[3]);
	if (copy) {
		snprintf(from, sizeof(from), "%s/wachat.db", argv[2]);
		snprintf(to, sizeof(to), "%s/wachat.db", argv[3]);
		copy_file(from, to);
		snprintf(to, sizeof(to), "%s/wachat.db-wal", argv[3]);
		(void)unlink(to);
		snprintf(to, sizeof(to), "%s/wachat.db-shm", argv[3]);
		(void)unlink(to);
	}
	t0 = now_ns();
	if ((rc = store_open(argv[3], &s)) != 0)
		die("store_open", wc_strerror(rc));
	fprintf(stderr, "bench-search: opened (migrations included) in %.1f s"
	    "\n", (now_ns() - t0) / 1e9);
	bench_hist(s);	/* also stores the rare word fts_1M looks for */
	bench_fts(s, only != NULL && strcmp(only, "history_sync_store") == 0 ?
	    "none" : only, samples);
	store_close(s);
	return 0;
}
