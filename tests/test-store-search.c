/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-search.c -- full-text search (store/search.c), the
 * history import (store/history.c), a message in context and schema
 * migration 5: what a user searching or opening a hit would see.
 * Made-up JIDs only.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/err.h"
#include "store/store.h"
#include "store-test.h"

#define ALICE	"100000000001@lid"
#define BOB	"100000000002@lid"
#define CAROL	"100000000003@lid"
#define GROUP	"120363000000000001@g.us"

static struct store_msg_new
msg(const char *chat, const char *id, const char *sender, int64_t ts_ms,
    const char *text)
{
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.sender = sender;
	m.ts_ms = ts_ms;
	m.kind = STORE_MSG_TEXT;
	m.text = text;
	m.text_len = strlen(text);
	m.state = STORE_MSG_RECEIVED;
	return m;
}

static void
put(struct store *s, const char *chat, const char *id, const char *sender,
    int64_t ts_ms, const char *text)
{
	struct store_msg_new	 m = msg(chat, id, sender, ts_ms, text);

	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
}

/* Search query with filter (may be NULL); return the hit count and keep
 * the result in *r. */
static size_t
find(struct store *s, const char *query, const struct store_search_filter *f,
    struct store_search_result *r)
{
	assert_int_equal(store_search(s, query, f, 50, r), 0);
	return r->n;
}

/* The ids of a search's hits, in order, joined by ','. */
static const char *
ids(struct store *s, const char *query, const struct store_search_filter *f)
{
	static char			 out[512];
	struct store_search_result	 r;
	size_t				 i, o = 0;

	find(s, query, f, &r);
	out[0] = '\0';
	for (i = 0; i < r.n; i++)
		o += (size_t)snprintf(out + o, sizeof(out) - o, "%s%s",
		    i > 0 ? "," : "", r.hits[i].id);
	store_search_free(&r);
	return out;
}

static void
test_store_search__folds_diacritics_and_case__both_ways(void **state)
{
	struct store	*s = open_mem();

	(void)state;
	put(s, ALICE, "A1", "", 1000, "Un café à Paris?");
	put(s, ALICE, "A2", "", 2000, "naïve RÉSUMÉ attached");
	put(s, ALICE, "A3", "", 3000, "cafeteria closed");
	assert_string_equal(ids(s, "cafe", NULL), "A3,A1");
	assert_string_equal(ids(s, "CAFÉ", NULL), "A3,A1");
	assert_string_equal(ids(s, "resume", NULL), "A2");
	assert_string_equal(ids(s, "Naive résumé", NULL), "A2");
	assert_string_equal(ids(s, "paris", NULL), "A1");
	store_close(s);
}

static void
test_store_search__matches_prefixes_of_words_and_ands_the_words(void **state)
{
	struct store	*s = open_mem();

	(void)state;
	put(s, ALICE, "A1", "", 1000, "meeting tomorrow at ten");
	put(s, ALICE, "A2", "", 2000, "the meet is off");
	put(s, BOB, "B1", "", 3000, "tomorrow then");
	put(s, BOB, "B2", "", 4000, "unmet expectations");
	assert_string_equal(ids(s, "meet", NULL), "A2,A1");
	assert_string_equal(ids(s, "m", NULL), "A2,A1");
	assert_string_equal(ids(s, "u", NULL), "B2");
	assert_string_equal(ids(s, "me", NULL), "A2,A1");
	assert_string_equal(ids(s, "meet tomor", NULL), "A1");
	assert_string_equal(ids(s, "tomorrow meeting", NULL), "A1");
	assert_string_equal(ids(s, "tomorrow", NULL), "B1,A1");
	/* a word inside another is not a match: only prefixes */
	assert_string_equal(ids(s, "met", NULL), "");
	store_close(s);
}

static void
test_store_search__finds_cyrillic_and_japanese_words(void **state)
{
	struct store	*s = open_mem();

	(void)state;
	put(s, ALICE, "R1", "", 1000, "Привет! Встреча завтра вечером");
	put(s, ALICE, "J1", "", 2000, "明日 ご飯 食べよう");
	put(s, ALICE, "J2", "", 3000, "今日は雨です");
	assert_string_equal(ids(s, "встреча", NULL), "R1");
	assert_string_equal(ids(s, "ВСТРЕЧ", NULL), "R1");
	assert_string_equal(ids(s, "завтра привет", NULL), "R1");
	assert_string_equal(ids(s, "明日", NULL), "J1");
	assert_string_equal(ids(s, "ご飯", NULL), "J1");
	/* a run of CJK without spaces is indexed in bigrams: a word
	 * inside it is found too (issue 17) */
	assert_string_equal(ids(s, "今日", NULL), "J2");
	assert_string_equal(ids(s, "雨", NULL), "J2");
	assert_string_equal(ids(s, "雨です", NULL), "J2");
	store_close(s);
}

static void
test_store_search__takes_hostile_queries_as_words__never_a_syntax_error(
    void **state)
{
	static const char *const q[] = { "\"", "AND", "*", "NEAR(", "(",
		")", "a\" OR \"b", "text:x", "^start", "-minus", "'", "\"\"*",
		"NOT", "OR OR", "{x y}", "x + y", "a*b", "\\", "%",
		"\x01\x1b[2J", "\xff\xfe", "", "   " };
	struct store			*s = open_mem();
	struct store_search_result	 r;
	size_t				 i;

	(void)state;
	put(s, ALICE, "A1", "", 1000, "this AND that, near the text");
	for (i = 0; i < sizeof(q) / sizeof(q[0]); i++) {
		assert_int_equal(store_search(s, q[i], NULL, 10, &r), 0);
		store_search_free(&r);
	}
	/* the operators' words are plain words */
	assert_string_equal(ids(s, "AND", NULL), "A1");
	assert_string_equal(ids(s, "NEAR(", NULL), "A1");
	assert_string_equal(ids(s, "\"that\" AND", NULL), "A1");
	assert_string_equal(ids(s, "text:", NULL), "A1");
	assert_string_equal(ids(s, "OR", NULL), "");
	assert_string_equal(ids(s, "\"", NULL), "");
	store_close(s);
}

static void
test_store_search__filters_by_chat_sender_and_time(void **state)
{
	struct store			*s = open_mem();
	struct store_search_filter	 f;
	struct store_msg_new		 mine;
	static const uint8_t		 pb[] = "pb";

	(void)state;
	put(s, GROUP, "G1", BOB, 1000, "lunch at noon");
	put(s, GROUP, "G2", CAROL, 2000, "lunch? yes");
	put(s, ALICE, "A1", "", 3000, "lunch tomorrow");
	put(s, ALICE, "A2", "", 4000, "lunch again");
	mine = msg(ALICE, "A3", "", 5000, "lunch is on me");
	mine.from_me = true;
	mine.payload = pb;
	mine.payload_len = 2;
	assert_int_equal(store_msg_insert_outgoing(s, &mine, NULL), 0);
	memset(&f, 0, sizeof(f));
	f.chat = GROUP;
	assert_string_equal(ids(s, "lunch", &f), "G2,G1");
	f.sender = BOB;
	assert_string_equal(ids(s, "lunch", &f), "G1");
	memset(&f, 0, sizeof(f));
	f.sender = ALICE;	/* the other side of a 1:1 chat */
	assert_string_equal(ids(s, "lunch", &f), "A2,A1");
	f.sender = "";		/* our own */
	assert_string_equal(ids(s, "lunch", &f), "A3");
	memset(&f, 0, sizeof(f));
	f.since_ms = 2000;
	f.until_ms = 4000;
	assert_string_equal(ids(s, "lunch", &f), "A1,G2");
	f.chat = ALICE;
	assert_string_equal(ids(s, "lunch", &f), "A1");
	assert_string_equal(ids(s, "noon", &f), "");
	store_close(s);
}

static void
test_store_search__orders_newest_first_by_time__not_by_storage(void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 old[2];

	(void)state;
	put(s, ALICE, "NEW", "", 50000, "report ready");
	/* history arrives later with older times */
	old[0] = msg(ALICE, "OLD1", "", 1000, "report draft");
	old[1] = msg(BOB, "OLD2", "", 2000, "report v2");
	assert_int_equal(store_hist_import(s, old, 2), 2);
	assert_string_equal(ids(s, "report", NULL), "NEW,OLD2,OLD1");
	store_close(s);
}

static void
test_store_search__keeps_the_index_current_on_revoke_edit_and_delete(
    void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 out;
	static const uint8_t	 pb[] = "pb";

	(void)state;
	put(s, ALICE, "A1", "", 1000, "secret plan");
	put(s, ALICE, "A2", "", 2000, "typo teh plan");
	assert_string_equal(ids(s, "plan", NULL), "A2,A1");
	assert_int_equal(store_msg_revoke(s, ALICE, false, "A1"), 1);
	assert_string_equal(ids(s, "secret", NULL), "");
	assert_string_equal(ids(s, "plan", NULL), "A2");
	assert_int_equal(store_msg_edit(s, ALICE, false, "A2", "fixed the "
	    "scheme", 16, 3000), 1);
	assert_string_equal(ids(s, "teh", NULL), "");
	assert_string_equal(ids(s, "plan", NULL), "");
	assert_string_equal(ids(s, "scheme", NULL), "A2");
	/* a failed outgoing message deleted leaves the index too */
	out = msg(BOB, "B1", "", 4000, "unsent draft");
	out.from_me = true;
	out.payload = pb;
	out.payload_len = 2;
	assert_int_equal(store_msg_insert_outgoing(s, &out, NULL), 0);
	assert_string_equal(ids(s, "unsent", NULL), "B1");
	assert_int_equal(store_msg_mark_failed(s, BOB, "B1"), 1);
	assert_int_equal(store_msg_delete_failed(s, BOB, "B1"), 1);
	assert_string_equal(ids(s, "unsent", NULL), "");
	store_close(s);
}

static void
test_store_search__sees_imported_rows_before_and_after_the_index_catches_up(
    void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 m[4];
	struct store_search_filter f;

	(void)state;
	put(s, ALICE, "LIVE", "", 500, "océan live");
	m[0] = msg(ALICE, "H1", "", 1000, "Océan Atlantique");
	m[1] = msg(ALICE, "H2", "", 2000, "ocean to be edited");
	m[2] = msg(BOB, "H3", "", 3000, "ocean to be revoked");
	m[3] = msg(BOB, "H4", "", 4000, "nothing here");
	assert_int_equal(store_hist_import(s, m, 4), 4);
	/* in the backlog: found all the same, merged in time order */
	assert_string_equal(ids(s, "ocean", NULL), "H3,H2,H1,LIVE");
	assert_string_equal(ids(s, "atlan oce", NULL), "H1");
	memset(&f, 0, sizeof(f));
	f.chat = BOB;
	assert_string_equal(ids(s, "ocean", &f), "H3");
	/* changed while waiting: found by what it says now */
	assert_int_equal(store_msg_edit(s, ALICE, false, "H2", "sea now", 7,
	    5000), 1);
	assert_int_equal(store_msg_revoke(s, BOB, false, "H3"), 1);
	assert_string_equal(ids(s, "ocean", NULL), "H1,LIVE");
	assert_string_equal(ids(s, "sea", NULL), "H2");
	/* indexed in two batches (the live row waits too, migration 8);
	 * the same answers from the index */
	assert_int_equal(store_fts_catch_up(s, 2), 3);
	assert_int_equal(store_fts_catch_up(s, 100), 0);
	assert_int_equal(store_fts_catch_up(s, 100), 0);
	assert_string_equal(ids(s, "ocean", NULL), "H1,LIVE");
	assert_string_equal(ids(s, "sea", NULL), "H2");
	assert_string_equal(ids(s, "revoked", NULL), "");
	/* and it stays current afterwards */
	assert_int_equal(store_msg_edit(s, ALICE, false, "H1", "Pacific", 7,
	    6000), 1);
	assert_string_equal(ids(s, "ocean", NULL), "LIVE");
	assert_string_equal(ids(s, "pacif", NULL), "H1");
	assert_int_equal(store_fts_catch_up(s, 0), -EINVAL);
	store_close(s);
}

/* Live messages are searchable the moment they are stored, wait in the
 * backlog, and are indexed 64 at a time after a commit (migration 8,
 * perf.md R4), across a restart too. */
static void
test_store_search__indexes_live_messages_in_batches_and_finds_them_at_once(
    void **state)
{
	char			*dir = tmpdir(), path[300], id[16], text[64];
	struct store		*s = NULL;
	int			 i;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(store_open(dir, &s), 0);
	for (i = 0; i < 150; i++) {
		snprintf(id, sizeof(id), "L%03d", i);
		snprintf(text, sizeof(text), "live word%03d tide", i);
		put(s, i % 2 ? ALICE : BOB, id, "", 1000 + i, text);
		snprintf(text, sizeof(text), "word%03d", i);
		assert_string_equal(ids(s, text, NULL), id);
	}
	/* two batches of 64 indexed, 22 waiting */
	assert_int_equal(count_rows(path, "SELECT count(*) FROM fts_pending"),
	    22);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM message_fts"
	    " WHERE message_fts MATCH 'tide'"), 128);
	assert_string_equal(ids(s, "word000", NULL), "L000");
	assert_string_equal(ids(s, "word149", NULL), "L149");
	/* a revoke and an edit of rows on both sides of the line */
	assert_int_equal(store_msg_revoke(s, BOB, false, "L000"), 1);
	assert_int_equal(store_msg_edit(s, ALICE, false, "L149", "ebb now", 7,
	    9000), 1);
	assert_string_equal(ids(s, "word000", NULL), "");
	assert_string_equal(ids(s, "word149", NULL), "");
	assert_string_equal(ids(s, "ebb", NULL), "L149");
	store_close(s);
	/* the rows left waiting count towards the next batch */
	s = NULL;
	assert_int_equal(store_open(dir, &s), 0);
	for (i = 150; i < 192; i++) {
		snprintf(id, sizeof(id), "L%03d", i);
		snprintf(text, sizeof(text), "live word%03d tide", i);
		put(s, ALICE, id, "", 1000 + i, text);
	}
	assert_int_equal(count_rows(path, "SELECT count(*) FROM fts_pending"),
	    0);
	assert_string_equal(ids(s, "ebb", NULL), "L149");
	assert_string_equal(ids(s, "word191", NULL), "L191");
	assert_string_equal(ids(s, "word000", NULL), "");
	store_close(s);
	rmtree(dir);
	free(dir);
}

/* n messages "common word N" in chat, times from ts0 up, imported. */
static void
bulk(struct store *s, const char *chat, int n, int64_t ts0, const char *tag)
{
	struct store_msg_new	*m = calloc((size_t)n, sizeof(*m));
	char			(*id)[24] = calloc((size_t)n, 24);
	char			(*tx)[40] = calloc((size_t)n, 40);
	int			 i;

	assert_non_null(m);
	for (i = 0; i < n; i++) {
		snprintf(id[i], 24, "%s%d", tag, i);
		snprintf(tx[i], 40, "common word %d", i);
		m[i] = msg(chat, id[i], "", ts0 + i, tx[i]);
	}
	assert_int_equal(store_hist_import(s, m, (size_t)n), n);
	free(m);
	free(id);
	free(tx);
}

static void
test_store_search__scoped_to_a_chat_finds_its_matches_among_many(void **state)
{
	struct store			*s = open_mem();
	struct store_search_filter	 f;
	struct store_search_result	 r;
	char				 id[16];
	int				 i;

	(void)state;
	put(s, ALICE, "A1", "", 10, "a common thing");
	put(s, ALICE, "A2", "", 20, "common ground");
	put(s, CAROL, "C1", "", 30, "common sense");
	/* more matches stored after them than the candidates read */
	bulk(s, BOB, STORE_SEARCH_CANDIDATES + 500, 1000, "B");
	assert_int_equal(store_fts_catch_up(s, STORE_FTS_CATCH_UP_MAX), 0);
	assert_int_equal(find(s, "common", NULL, &r), 50);
	assert_true(r.truncated);
	assert_string_equal(r.hits[0].id, "B2499");
	store_search_free(&r);
	memset(&f, 0, sizeof(f));
	f.chat = ALICE;		/* a small chat: all of its rows */
	assert_string_equal(ids(s, "common", &f), "A2,A1");
	f.chat = BOB;		/* among the candidates */
	assert_int_equal(find(s, "comm wor", &f, &r), 50);
	assert_string_equal(r.hits[0].id, "B2499");
	assert_string_equal(r.hits[49].id, "B2450");
	assert_true(r.more);
	store_search_free(&r);
	f.chat = ALICE;		/* not among them: all of its rows */
	assert_int_equal(find(s, "com", &f, &r), 2);
	assert_false(r.more);
	assert_false(r.truncated);
	store_search_free(&r);
	/* a large chat whose newest rows do not match: walked by time
	 * against all the matches, from the index and the backlog */
	bulk(s, CAROL, 5000, 100000, "K");
	put(s, CAROL, "C2", "", 200000, "unrelated");
	bulk(s, BOB, STORE_SEARCH_CANDIDATES + 10, 500000, "Z");
	for (i = 0; i < 3500; i++) {
		snprintf(id, sizeof(id), "N%d", i);
		put(s, CAROL, id, "", 300000 + i, "nothing to see");
	}
	f.chat = CAROL;
	assert_int_equal(find(s, "common", &f, &r), 50);
	assert_string_equal(r.hits[0].id, "K4999");
	assert_string_equal(r.hits[49].id, "K4950");
	assert_false(r.truncated);
	store_search_free(&r);
	assert_int_equal(store_fts_catch_up(s, STORE_FTS_CATCH_UP_MAX), 0);
	assert_int_equal(find(s, "common", &f, &r), 50);
	assert_string_equal(r.hits[0].id, "K4999");
	store_search_free(&r);
	assert_string_equal(ids(s, "unrel", &f), "C2");
	f.since_ms = 20;
	f.until_ms = 31;
	assert_string_equal(ids(s, "sense", &f), "C1");
	store_close(s);
}

static void
test_store_search__gives_a_snippet_with_the_match_offsets(void **state)
{
	struct store			*s = open_mem();
	struct store_search_result	 r;
	char				 longtext[2048];
	size_t				 i;

	(void)state;
	put(s, ALICE, "A1", "", 1000, "Une réunion au café demain");
	assert_int_equal(find(s, "cafe", NULL, &r), 1);
	assert_string_equal(r.hits[0].snippet, "Une réunion au café demain");
	assert_int_equal(r.hits[0].match_end - r.hits[0].match_start,
	    strlen("café"));
	assert_memory_equal(r.hits[0].snippet + r.hits[0].match_start, "café",
	    strlen("café"));
	assert_string_equal(r.hits[0].chat, ALICE);
	assert_false(r.hits[0].cut_before);
	store_search_free(&r);
	/* a long text: a window around the match, cut at characters */
	for (i = 0; i + 4 < sizeof(longtext) - 16; i += 4)
		memcpy(longtext + i, "ééé ", 4);	/* 2-byte é */
	memcpy(longtext + 1000, " needle ", 8);
	longtext[sizeof(longtext) - 16] = '\0';
	put(s, BOB, "B1", "", 2000, longtext);
	assert_int_equal(find(s, "needle", NULL, &r), 1);
	assert_true(r.hits[0].cut_before);
	assert_true(r.hits[0].cut_after);
	assert_true(r.hits[0].snippet_len <= STORE_SNIPPET_MAX);
	assert_memory_equal(r.hits[0].snippet + r.hits[0].match_start,
	    "needle", 6);
	assert_int_equal(r.hits[0].match_end - r.hits[0].match_start, 6);
	/* it begins and ends on whole UTF-8 characters */
	assert_true(((unsigned char)r.hits[0].snippet[0] & 0xC0) != 0x80);
	assert_true(((unsigned char)r.hits[0].snippet[r.hits[0].snippet_len]
	    & 0xC0) != 0x80);
	store_search_free(&r);
	store_close(s);
}

static void
test_store_search__names_the_chat_and_reports_more(void **state)
{
	struct store			*s = open_mem();
	struct store_search_result	 r;
	char				 id[16];
	int				 i;

	(void)state;
	assert_int_equal(store_chat_set_name(s, GROUP, "Hikers"), 0);
	assert_int_equal(store_contact_set_push_name(s, ALICE, "Alice"), 0);
	put(s, GROUP, "G1", BOB, 1000, "trail map");
	put(s, ALICE, "A1", "", 2000, "trail mix");
	assert_int_equal(find(s, "trail", NULL, &r), 2);
	assert_string_equal(r.hits[0].chat_name, "Alice");
	assert_string_equal(r.hits[1].chat_name, "Hikers");
	assert_false(r.more);
	store_search_free(&r);
	for (i = 0; i < 5; i++) {
		snprintf(id, sizeof(id), "X%d", i);
		put(s, BOB, id, "", 3000 + i, "trail again");
	}
	assert_int_equal(store_search(s, "trail", NULL, 3, &r), 0);
	assert_int_equal(r.n, 3);
	assert_true(r.more);
	assert_string_equal(r.hits[0].id, "X4");
	store_search_free(&r);
	assert_int_equal(store_search(s, "trail", NULL, 0, &r), -EINVAL);
	assert_int_equal(store_search(s, NULL, NULL, 5, &r), -EINVAL);
	store_close(s);
}

static void
test_store_hist_import__counts_duplicates_and_keeps_unread_and_receipts_off(
    void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 m[5];
	struct store_chat_list	 l;
	struct store_msg_ref	*refs = NULL;
	size_t			 n = 9;

	(void)state;
	m[0] = msg(ALICE, "H1", "", 1000, "first");
	m[1] = msg(ALICE, "H3", "", 3000, "newest of alice");
	m[2] = msg(ALICE, "H2", "", 2000, "middle");
	m[3] = msg(GROUP, "G1", BOB, 5000, "group hello");
	m[4] = msg(ALICE, "H1", "", 1000, "first again");	/* duplicate */
	assert_int_equal(store_hist_import(s, m, 5), 4);
	/* the same batch again (a resumed import): nothing twice */
	assert_int_equal(store_hist_import(s, m, 5), 0);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.chats[0].jid, GROUP);
	assert_string_equal(l.chats[0].last_text, "group hello");
	assert_string_equal(l.chats[1].jid, ALICE);
	assert_int_equal(l.chats[1].last_ms, 3000);
	assert_string_equal(l.chats[1].last_text, "newest of alice");
	assert_int_equal(l.chats[1].unread, 0);
	assert_int_equal(l.chats[1].last_state, STORE_MSG_READ);
	store_chat_list_free(&l);
	/* no read receipt is ever owed for backlog */
	assert_int_equal(store_chat_mark_read(s, ALICE, 10, &refs, &n), 0);
	assert_int_equal(n, 0);
	store_msg_refs_free(refs, n);
	assert_string_equal(ids(s, "first", NULL), "H1");
	assert_int_equal(store_hist_import(s, m, STORE_HIST_BATCH_MAX + 1),
	    -EINVAL);
	store_close(s);
}

static void
test_store_hist_import__never_replaces_a_newer_live_preview(void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 m[2], bad;
	struct store_chat_list	 l;

	(void)state;
	put(s, ALICE, "LIVE", "", 9000, "live and new");
	m[0] = msg(ALICE, "H1", "", 1000, "old one");
	m[1] = msg(BOB, "B1", "", 2000, "bob's old one");
	assert_int_equal(store_hist_import(s, m, 2), 2);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.chats[0].jid, ALICE);
	assert_string_equal(l.chats[0].last_text, "live and new");
	assert_int_equal(l.chats[0].unread, 1);	/* the live one */
	assert_string_equal(l.chats[1].last_text, "bob's old one");
	store_chat_list_free(&l);
	/* one bad message: nothing of the batch is written */
	bad = msg(CAROL, "", "", 1, "no id");
	m[0] = msg(CAROL, "C1", "", 1, "valid");
	m[1] = bad;
	assert_int_equal(store_hist_import(s, m, 2), -EINVAL);
	assert_string_equal(ids(s, "valid", NULL), "");
	store_close(s);
}

static void
test_store_hist_chat__fills_gaps_without_overriding_live_data(void **state)
{
	struct store		*s = open_mem();
	struct store_chat_list	 l;
	struct store_msg_ref	*refs = NULL;
	size_t			 n = 0;

	(void)state;
	assert_int_equal(store_hist_chat(s, GROUP, "Old subject", 7000, 3,
	    true, 0, -1), 1);
	assert_int_equal(store_chat_list(s, true, 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].name, "Old subject");
	assert_int_equal(l.chats[0].last_ms, 7000);
	assert_int_equal(l.chats[0].unread, 3);
	assert_int_equal(l.chats[0].muted_until, -1);
	store_chat_list_free(&l);
	/* live: a new subject, flags from app state, the chat read */
	assert_int_equal(store_chat_set_name(s, GROUP, "New subject"), 0);
	assert_int_equal(store_chat_set_flags(s, GROUP, 0, 0, false), 0);
	assert_int_equal(store_chat_mark_read(s, GROUP, 10, &refs, &n), 0);
	store_msg_refs_free(refs, n);
	put(s, GROUP, "G1", BOB, 8000, "hi");
	assert_int_equal(store_chat_mark_read(s, GROUP, 10, &refs, &n), 0);
	store_msg_refs_free(refs, n);
	assert_int_equal(store_hist_chat(s, GROUP, "Old subject", 9999, 5,
	    true, 1, -1), 0);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].name, "New subject");
	assert_int_equal(l.chats[0].last_ms, 8000);
	assert_int_equal(l.chats[0].unread, 0);
	assert_int_equal(l.chats[0].muted_until, 0);
	store_chat_list_free(&l);
	assert_int_equal(store_hist_chat(s, "", NULL, 0, 0, false, 0, 0),
	    -EINVAL);
	store_close(s);
}

static void
test_store_msg_page_around__opens_a_hit_in_context(void **state)
{
	struct store			*s = open_mem();
	struct store_search_result	 r;
	struct store_msg_page		 p;
	char				 id[16], text[32];
	int64_t				 target;
	int				 i;

	(void)state;
	for (i = 0; i < 20; i++) {
		snprintf(id, sizeof(id), "M%02d", i);
		snprintf(text, sizeof(text), "%s %d", i == 7 ? "unique" :
		    "filler", i);
		/* two share a time: the keyset tiebreak is the rowid */
		put(s, ALICE, id, "", 1000 + (i == 8 ? 7 : i), text);
	}
	put(s, BOB, "B1", "", 1007, "other chat");
	assert_int_equal(find(s, "unique", NULL, &r), 1);
	target = r.hits[0].rowid;
	store_search_free(&r);
	assert_int_equal(store_msg_page_around(s, ALICE, target, 3, 2, &p), 0);
	assert_int_equal(p.n, 6);
	assert_string_equal(p.msgs[0].id, "M04");
	assert_string_equal(p.msgs[3].id, "M07");
	assert_int_equal(p.msgs[3].rowid, target);
	assert_string_equal(p.msgs[4].id, "M08");
	assert_string_equal(p.msgs[5].id, "M09");
	assert_true(p.more);
	store_msg_page_free(&p);
	/* at the start of the chat: fewer before */
	assert_int_equal(store_msg_page_around(s, ALICE, target, 50, 0, &p), 0);
	assert_int_equal(p.n, 8);
	assert_string_equal(p.msgs[0].id, "M00");
	assert_string_equal(p.msgs[7].id, "M07");
	store_msg_page_free(&p);
	assert_int_equal(store_msg_page_around(s, BOB, target, 3, 3, &p),
	    -ENOENT);
	assert_int_equal(store_msg_page_around(s, ALICE, target, 501, 3, &p),
	    -EINVAL);
	store_close(s);
}

static void
test_store_open__indexes_a_schema_4_database_in_migration_5(void **state)
{
	char			*dir = tmpdir(), path[300];
	struct store		*s = NULL;
	sqlite3			*db;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(store_open(dir, &s), 0);
	put(s, ALICE, "A1", "", 1000, "Crème brûlée recipe");
	put(s, ALICE, "A2", "", 2000, "revoked words");
	assert_int_equal(store_msg_revoke(s, ALICE, false, "A2"), 1);
	store_close(s);
	/* Back to schema 4: no index, no triggers (nor what later
	 * migrations add); then a row written by a wachat of schema 4. */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(store_tok_register(db), 0);
	assert_int_equal(sqlite3_exec(db, "DROP TABLE message_fts;"
	    "DROP TRIGGER message_fts_insert; DROP TRIGGER message_fts_delete;"
	    "DROP TRIGGER message_fts_update; DROP TABLE fts_pending;"
	    "DROP TABLE IF EXISTS hist_queue; DROP TABLE member_receipt;"
	    "ALTER TABLE message DROP COLUMN recipients;"
	    "ALTER TABLE device DROP COLUMN unconfirmed;"
	    "DROP TABLE privtok; DROP TABLE privtok_salt;" UNDO_14
	    "ALTER TABLE chat DROP COLUMN peek;"
	    "ALTER TABLE chat DROP COLUMN draft;"
	    "INSERT INTO message (chat, id, from_me, ts_ms, text, state)"
	    " VALUES ('" BOB "', 'B1', 0, 3000, 'written before', 3);"
	    "DELETE FROM counter WHERE name = 'schema_version';"
	    "PRAGMA user_version = 4", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	s = NULL;
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_string_equal(ids(s, "creme brulee", NULL), "A1");
	assert_string_equal(ids(s, "written", NULL), "B1");
	assert_string_equal(ids(s, "revoked", NULL), "");
	store_close(s);
	rmtree(dir);
	free(dir);
}

static void
exec_sql(const char *path, const char *sql)
{
	sqlite3	*db;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(store_tok_register(db), 0);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void
set_version(const char *path, int v)
{
	char	 sql[64];
	sqlite3	*db;

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", v);
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
}

static void
test_store_open_ro__reads_and_refuses_another_schema(void **state)
{
	char			*dir = tmpdir(), path[300];
	struct store		*s = NULL, *ro = NULL;
	struct store_chat_list	 l;
	int			 v = 0;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(store_open_ro(dir, &ro, &v), -ENOENT);
	assert_int_equal(store_open(dir, &s), 0);
	put(s, ALICE, "A1", "", 1000, "hello reader");
	assert_int_equal(store_contact_set_push_name(s, ALICE, "Alice"), 0);
	/* a writer holds a write transaction: the reader still reads */
	assert_int_equal(store_tx_begin(s), 0);
	put(s, ALICE, "A2", "", 2000, "hello uncommitted");
	assert_int_equal(store_open_ro(dir, &ro, &v), 0);
	assert_int_equal(v, STORE_SCHEMA_VERSION);
	assert_string_equal(ids(ro, "hello", NULL), "A1");
	assert_int_equal(store_chat_find(ro, "alice", 5, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].jid, ALICE);
	store_chat_list_free(&l);
	assert_int_equal(store_chat_find(ro, "lic", 5, &l), 0);
	assert_int_equal(l.n, 1);
	store_chat_list_free(&l);
	assert_int_equal(store_chat_find(ro, "nobody", 5, &l), 0);
	assert_int_equal(l.n, 0);
	store_chat_list_free(&l);
	/* it writes nothing */
	assert_int_equal(store_chat_set_name(ro, ALICE, "x"), -EIO);
	assert_int_equal(store_tx_commit(s), 0);
	store_close(ro);
	store_close(s);
	/* a newer wachat's: the version and its copy in the counter table */
	set_version(path, STORE_SCHEMA_VERSION + 1);
	assert_int_equal(store_open_ro(dir, &ro, &v), WC_EDBMALFORMED);
	exec_sql(path, "UPDATE counter SET value = value + 1"
	    " WHERE name = 'schema_version'");
	assert_int_equal(store_open_ro(dir, &ro, &v), WC_ESCHEMA);
	assert_int_equal(v, STORE_SCHEMA_VERSION + 1);
	/* an older one: without the newest migration's tables */
	exec_sql(path, UNDO_20
	    "DELETE FROM counter WHERE name = 'schema_version'");
	set_version(path, STORE_SCHEMA_VERSION - 1);
	assert_int_equal(store_open_ro(dir, &ro, &v), WC_ESCHEMA);
	assert_int_equal(v, STORE_SCHEMA_VERSION - 1);
	rmtree(dir);
	free(dir);
}

/* --- CJK (issue 17): runs of CJK characters are indexed in bigrams --- */

struct want {
	const char	*query, *ids;
};

/* Each query of w[] gives its ids: first with the rows still in the FTS
 * backlog (matched by store/search.c itself), then indexed (matched by
 * FTS5 through the "wachat" tokenizer): both must agree. */
static void
check_both_ways(struct store *s, const struct want *w, size_t n)
{
	size_t	 i, pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass == 1) {
			assert_true(store_fts_catch_up(s, 10000) >= 0);
			assert_int_equal(store_fts_backlog(s), 0);
		}
		for (i = 0; i < n; i++) {
			if (strcmp(ids(s, w[i].query, NULL), w[i].ids) != 0)
				fail_msg("pass %zu: \"%s\" gave \"%s\", not "
				    "\"%s\"", pass, w[i].query,
				    ids(s, w[i].query, NULL), w[i].ids);
		}
	}
}

static void
test_store_search__finds_chinese_words_inside_a_run(void **state)
{
	static const struct want	 w[] = {
		{ "北京", "C3,C1" },	/* the case */
		{ "早上", "C2,C1" },
		{ "明天早上", "C2,C1" },
		{ "天早上到", "C1" },
		{ "我明天早上到北京", "C1" },
		{ "北京。", "C3,C1" },	/* punctuation is a separator */
		{ "北早", "" },		/* not adjacent */
		{ "上海", "C3" },
		{ "京上", "" },		/* never across two runs */
		{ "明天 北京", "C1" },	/* words AND-ed */
		{ "東京", "" },
	};
	struct store	*s = open_mem();

	(void)state;
	put(s, ALICE, "C1", "", 1000, "我明天早上到北京。");
	put(s, ALICE, "C2", "", 2000, "明天早上见");
	put(s, BOB, "C3", "", 3000, "北京，上海");
	check_both_ways(s, w, sizeof(w) / sizeof(w[0]));
	store_close(s);
}

static void
test_store_search__finds_latin_words_and_cjk_in_one_text(void **state)
{
	static const struct want	 w[] = {
		{ "北京", "M1" },
		{ "hotel", "M1" },
		{ "HOTEL 北京", "M1" },
		{ "北京hotel", "M1" },	/* two words: 北京 and hotel */
		{ "meeting", "M1" },
		{ "ting", "" },		/* Latin words: prefixes only */
		{ "café 明天", "M2" },
		{ "cafe", "M2" },
		{ "天", "M2,M1" },
	};
	struct store	*s = open_mem();

	(void)state;
	put(s, ALICE, "M1", "", 1000, "Meeting在北京Hotel明天");
	put(s, ALICE, "M2", "", 2000, "明天 Café?");
	check_both_ways(s, w, sizeof(w) / sizeof(w[0]));
	store_close(s);
}

static void
test_store_search__finds_japanese_kana_and_korean_inside_words(
    void **state)
{
	static const struct want	 w[] = {
		{ "ございます", "J1" },
		{ "がとう", "J1" },
		{ "コーヒー", "J2" },
		{ "飲み", "J2" },
		{ "ヒーを飲", "J2" },
		{ "ｶﾀｶﾅ", "J3" },	/* half-width katakana */
		{ "서울", "K1" },
		{ "울에", "K1" },	/* inside the eojeol 서울에서 */
		{ "만나", "K1" },
		{ "서울에서 만나요", "K1" },
		{ "부산", "" },
	};
	struct store	*s = open_mem();

	(void)state;
	put(s, ALICE, "J1", "", 1000, "ありがとうございます");
	put(s, ALICE, "J2", "", 2000, "コーヒーを飲みたい！");
	put(s, ALICE, "J3", "", 3000, "ﾊﾝｶｸｶﾀｶﾅです");
	put(s, BOB, "K1", "", 4000, "내일 서울에서 만나요");
	check_both_ways(s, w, sizeof(w) / sizeof(w[0]));
	store_close(s);
}

static void
test_store_search__finds_one_cjk_character_wherever_it_is(void **state)
{
	static const struct want	 w[] = {
		/* at the end of a run, at its start, inside, alone */
		{ "京", "O4,O3,O2,O1" },
		{ "都", "O2" },
		{ "東", "O3" },
		{ "서", "O5" },
		{ "요", "O5" },
		{ "ね", "O6" },
		{ "雨", "" },
	};
	struct store	*s = open_mem();

	(void)state;
	put(s, ALICE, "O1", "", 1000, "我到北京");
	put(s, ALICE, "O2", "", 2000, "京都に行く");
	put(s, ALICE, "O3", "", 3000, "東京タワー");
	put(s, ALICE, "O4", "", 4000, "京 alone");
	put(s, ALICE, "O5", "", 5000, "서울 가요");
	put(s, ALICE, "O6", "", 6000, "そうね");
	check_both_ways(s, w, sizeof(w) / sizeof(w[0]));
	store_close(s);
}

static void
test_store_search__finds_cjk_across_the_chunks_of_a_long_run(void **state)
{
	static const char	 pool[] = "的一是不了人我在有他这中大来上国个到说们"
	    "为子和你地出道也时年得就那要下以生会自着去之过家学对可她里后小"
	    "么心多天而能好都然没日于起还发成事只作当想看文无开手十用主行方";
	static struct want	 w[2];
	char			 text[1024], q[64];
	struct store		*s = open_mem();
	size_t			 i, o = 0, c = 0;

	(void)state;
	/* 100 characters in one run (3 bytes each); the query is the 60th
	 * to the 70th, over the 64-character chunk boundary. */
	for (i = 0; i < 100; i++) {
		memcpy(text + o, pool + (i * 3) % (sizeof(pool) - 1), 3);
		o += 3;
	}
	text[o] = '\0';
	for (i = 59; i < 70; i++)
		memcpy(q + c++ * 3, text + i * 3, 3);
	q[c * 3] = '\0';
	w[0].query = q;
	w[0].ids = "L1";
	w[1].query = text;	/* the whole run */
	w[1].ids = "L1";
	put(s, ALICE, "L1", "", 1000, text);
	check_both_ways(s, w, 2);
	store_close(s);
}

static void
test_store_search__snippet_marks_the_cjk_match(void **state)
{
	struct store			*s = open_mem();
	struct store_search_result	 r;

	(void)state;
	put(s, ALICE, "C1", "", 1000, "我明天早上到北京。Meet at 8");
	assert_int_equal(find(s, "北京", NULL, &r), 1);
	assert_int_equal(r.hits[0].match_end - r.hits[0].match_start,
	    strlen("北京"));
	assert_memory_equal(r.hits[0].snippet + r.hits[0].match_start, "北京",
	    strlen("北京"));
	store_search_free(&r);
	/* the earliest of a Latin word and a run */
	assert_int_equal(find(s, "meet 早上", NULL, &r), 1);
	assert_memory_equal(r.hits[0].snippet + r.hits[0].match_start, "早上",
	    strlen("早上"));
	store_search_free(&r);
	assert_true(store_fts_catch_up(s, 100) >= 0);
	assert_int_equal(find(s, "京", NULL, &r), 1);
	assert_memory_equal(r.hits[0].snippet + r.hits[0].match_start, "京",
	    strlen("京"));
	assert_int_equal(r.hits[0].match_end - r.hits[0].match_start,
	    strlen("京"));
	store_search_free(&r);
	store_close(s);
}

static void
test_store_open__reindexes_cjk_in_migration_12(void **state)
{
	char			*dir = tmpdir(), path[300];
	struct store		*s = NULL;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(store_open(dir, &s), 0);
	put(s, ALICE, "A1", "", 1000, "我明天早上到北京。");
	put(s, ALICE, "A2", "", 2000, "plain words");
	put(s, ALICE, "A3", "", 3000, "gone 北京");
	assert_int_equal(store_msg_revoke(s, ALICE, false, "A3"), 1);
	assert_true(store_fts_catch_up(s, 100) >= 0);
	put(s, BOB, "B1", "", 4000, "在北京等你");	/* left in the backlog */
	store_close(s);
	/* Back to schema 11: the index of unicode61, a run one token. */
	exec_sql(path, UNDO_14 "ALTER TABLE chat DROP COLUMN peek;"
	    "ALTER TABLE chat DROP COLUMN draft;"
	    "DROP TABLE message_fts;"
	    "CREATE VIRTUAL TABLE message_fts USING fts5(text,"
	    " content = 'message', content_rowid = 'rowid',"
	    " tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2');"
	    "INSERT INTO message_fts (rowid, text) SELECT rowid, text"
	    " FROM message WHERE deleted = 0 AND kind IN (0, 1)"
	    " AND text != '' AND rowid NOT IN (SELECT rowid FROM fts_pending);"
	    "UPDATE counter SET value = 11 WHERE name = 'schema_version';");
	set_version(path, 11);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM message_fts"
	    " WHERE message_fts MATCH '北京'"), 0);
	s = NULL;
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	/* the indexed row, by the index itself; the backlog's stays there */
	assert_int_equal(count_rows(path, "SELECT count(*) FROM message_fts"
	    " WHERE message_fts MATCH '北京'"), 1);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM fts_pending"),
	    1);
	assert_string_equal(ids(s, "北京", NULL), "B1,A1");
	assert_string_equal(ids(s, "plain", NULL), "A2");
	assert_true(store_fts_catch_up(s, 100) >= 0);
	assert_string_equal(ids(s, "北京", NULL), "B1,A1");
	assert_string_equal(ids(s, "早上", NULL), "A1");
	store_close(s);
	rmtree(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_search__folds_diacritics_and_case__both_ways),
		cmocka_unit_test(test_store_search__matches_prefixes_of_words_and_ands_the_words),
		cmocka_unit_test(test_store_search__finds_cyrillic_and_japanese_words),
		cmocka_unit_test(test_store_search__takes_hostile_queries_as_words__never_a_syntax_error),
		cmocka_unit_test(test_store_search__filters_by_chat_sender_and_time),
		cmocka_unit_test(test_store_search__orders_newest_first_by_time__not_by_storage),
		cmocka_unit_test(test_store_search__keeps_the_index_current_on_revoke_edit_and_delete),
		cmocka_unit_test(test_store_search__sees_imported_rows_before_and_after_the_index_catches_up),
		cmocka_unit_test(test_store_search__indexes_live_messages_in_batches_and_finds_them_at_once),
		cmocka_unit_test(test_store_search__scoped_to_a_chat_finds_its_matches_among_many),
		cmocka_unit_test(test_store_search__gives_a_snippet_with_the_match_offsets),
		cmocka_unit_test(test_store_search__names_the_chat_and_reports_more),
		cmocka_unit_test(test_store_hist_import__counts_duplicates_and_keeps_unread_and_receipts_off),
		cmocka_unit_test(test_store_hist_import__never_replaces_a_newer_live_preview),
		cmocka_unit_test(test_store_hist_chat__fills_gaps_without_overriding_live_data),
		cmocka_unit_test(test_store_msg_page_around__opens_a_hit_in_context),
		cmocka_unit_test(test_store_open__indexes_a_schema_4_database_in_migration_5),
		cmocka_unit_test(test_store_open_ro__reads_and_refuses_another_schema),
		cmocka_unit_test(test_store_search__finds_chinese_words_inside_a_run),
		cmocka_unit_test(test_store_search__finds_latin_words_and_cjk_in_one_text),
		cmocka_unit_test(test_store_search__finds_japanese_kana_and_korean_inside_words),
		cmocka_unit_test(test_store_search__finds_one_cjk_character_wherever_it_is),
		cmocka_unit_test(test_store_search__finds_cjk_across_the_chunks_of_a_long_run),
		cmocka_unit_test(test_store_search__snippet_marks_the_cjk_match),
		cmocka_unit_test(test_store_open__reindexes_cjk_in_migration_12),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
