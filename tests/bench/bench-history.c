/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/bench/bench-history.c -- the history benches of perf.md 3.1 (issue
 * 7): U1 history_open_1M and U2 scroll_1M, with nchat's query pattern
 * (perf.md 2.3) run on the same rows in the same process as the peer, and
 * the database that rss_connected (tests/bench/run-history.sh) opens.
 *
 *   bench-history gen DIR [--messages N] [--chats K] [--per M] [--api]
 *   bench-history graft SRC_DIR DEST_DIR
 *   bench-history run DIR [--only NAME] [--samples S] [--peer-samples P]
 *
 * gen: DIR/wachat.db, made by store_open() (wachat's own schema), holding
 * chat 15550001234@s.whatsapp.net with N messages (default 1,000,000) and
 * K other chats (default 999: 899 1:1 chats and 100 groups) of M messages
 * each (default 100), in one transaction: every message row by
 * store/message.c's own INSERT statement (insert_row()'s SQL and binds,
 * prepared once: the store API prepares it per row, ~190 us a row) but
 * each chat's newest message, which goes through
 * store_msg_insert_incoming() and so writes the chat row and its preview
 * exactly as after every row; reactions, names and contacts by the store
 * API (store_reaction_set, store_chat_set_name, store_contact_set_*).
 * --api sends every row through store_msg_insert_incoming(): the .dump of
 * both databases is byte for byte the same (checked at 4,000 rows).  The
 * page cache is raised for the connection during the load (no change to
 * the file).  Then DIR/nchat.db, nchat's table
 * (`messages`, UNIQUE(chatId, id), no other index) holding the same rows
 * in the same order.  Texts are a deterministic mix (fixed seed) of
 * English, Spanish, Russian, Arabic, Hindi, Chinese and Japanese words and
 * emoji, mostly short with a long tail (1 to about 1,000 bytes); about one
 * message in 40 has 1 to 3 reactions; some are replies.  DIR/stamp names
 * the schema version and the parameters: a DIR whose stamp differs is
 * made again, one that matches is kept (the cache of `make bench`).
 *
 * graft: copy the chats, messages, reactions and contacts of SRC_DIR's
 * database into DEST_DIR's (a data dir that wachat has just paired), as
 * INSERT ... SELECT in rowid order through SQLite, keeping the rowids; the
 * destination must hold no message yet.  For rss_connected.
 *
 * run: one JSON line per bench on stdout (perf.md 3.0), a table and the
 * targets on stderr.  Single-threaded; the store is opened once and stays
 * warm, as on the engine thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <sqlite3.h>

#include "alloc-count.h"
#include "sqlite-count.h"
#include "base/err.h"
#include "store/store-int.h"
#include "store/store.h"
#include "base/xmalloc.h"

#if defined(__GNUC__) && !defined(__clang__)
#define BENCH_OP	__attribute__((noipa))
#else
#define BENCH_OP	__attribute__((noinline))
#endif

#define GEN_VERSION	1	/* bump when the generated rows change */
#define BIG_CHAT	"15550001234@s.whatsapp.net"
#define PAGE_ROWS	50	/* one screen: src/app.c's PAGE_DEFAULT */
#define CHATS_MAX	1000	/* src/app.c's load_chats() maximum */
#define T0_MS		1600000000000LL	/* 2020-09-13, the oldest message */

static void
die(const char *what, const char *detail)
{
	fprintf(stderr, "bench-history: %s%s%s\n", what,
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

/* ------------------------------------------------------------------------
 * The generator's text: xorshift64* with a fixed seed.
 * ------------------------------------------------------------------------ */

static uint64_t	rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t
rnd(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return rng_state * 2685821657736338717ull;
}

static uint32_t
rnd_below(uint32_t n)
{
	return (uint32_t)((rnd() >> 32) % n);
}

static const char *const W_EN[] = { "the", "be", "to", "of", "and", "a",
	"in", "that", "have", "I", "it", "for", "not", "on", "with", "you",
	"do", "at", "this", "but", "from", "they", "we", "say", "her", "she",
	"or", "an", "will", "my", "one", "all", "would", "there", "what",
	"so", "up", "out", "about", "who", "get", "which", "go", "me", "when",
	"make", "can", "like", "time", "no", "just", "know", "take", "people",
	"tomorrow", "dinner", "meeting", "ok", "thanks", "lol", "see", "soon",
	"home", "train", "late", "photo", "call", "later", "weekend" };
static const char *const W_ES[] = { "hola", "qué", "tal", "mañana", "sí",
	"gracias", "niño", "también", "está", "vamos", "comer", "después",
	"corazón", "año", "cumpleaños", "llegó", "fútbol", "ahora" };
static const char *const W_RU[] = { "привет", "как", "дела", "завтра",
	"спасибо", "хорошо", "встреча", "сегодня", "вечером", "дома",
	"работа", "позвони", "люблю", "да", "нет", "потом" };
static const char *const W_AR[] = { "مرحبا", "كيف", "حالك", "شكرا",
	"غدا", "نعم", "لا", "البيت", "العمل", "صديقي", "إن", "شاء", "الله",
	"مساء", "الخير" };
static const char *const W_HI[] = { "नमस्ते", "कैसे", "हो", "धन्यवाद", "कल",
	"हाँ", "नहीं", "घर", "काम", "दोस्त", "खाना", "चलो" };
static const char *const W_ZH[] = { "你好", "谢谢", "明天", "今天", "晚上",
	"吃饭", "好的", "没问题", "朋友", "工作", "回家", "开会" };
static const char *const W_JA[] = { "こんにちは", "ありがとう", "明日",
	"今日", "ご飯", "大丈夫", "友達", "仕事", "帰る", "また", "ね" };
static const char *const EMOJI[] = { "😂", "❤️", "👍", "🙏", "😊", "🎉",
	"😭", "🔥", "👀", "🤣", "😍", "👋🏽", "🇧🇷", "👨‍👩‍👧", "🥳", "✅" };

struct lang {
	const char *const	*w;
	size_t			 n;
	bool			 spaces;	/* CJK: no spaces */
};

#define LANG(a, sp)	{ a, sizeof(a) / sizeof(a[0]), sp }
static const struct lang LANGS[] = {
	LANG(W_EN, true), LANG(W_EN, true), LANG(W_EN, true), LANG(W_ES, true),
	LANG(W_RU, true), LANG(W_AR, true), LANG(W_HI, true), LANG(W_ZH, false),
	LANG(W_JA, false),
};

/* A message text into b (size bytes): word counts mostly 1-12, one in 20
 * up to 60, one in 200 up to 200 (long messages, pasted text). */
static size_t
gen_text(char *b, size_t size, const struct lang *l)
{
	size_t		 len = 0, wl;
	uint32_t	 words, r = rnd_below(1000), i;
	const char	*w;

	if (r < 5)
		words = 60 + rnd_below(140);
	else if (r < 55)
		words = 13 + rnd_below(48);
	else
		words = 1 + rnd_below(12);
	for (i = 0; i < words; i++) {
		if (rnd_below(12) == 0)
			w = EMOJI[rnd_below(sizeof(EMOJI) / sizeof(EMOJI[0]))];
		else
			w = l->w[rnd_below((uint32_t)l->n)];
		wl = strlen(w);
		if (len + wl + 2 >= size)
			break;
		if (len > 0 && l->spaces)
			b[len++] = ' ';
		memcpy(b + len, w, wl);
		len += wl;
	}
	if (len + 2 < size && rnd_below(4) == 0)
		b[len++] = rnd_below(2) ? '?' : '.';
	b[len] = '\0';
	return len;
}

/* ------------------------------------------------------------------------
 * gen
 * ------------------------------------------------------------------------ */

struct gen_opts {
	unsigned long	 messages;	/* in BIG_CHAT */
	unsigned long	 chats;		/* other chats */
	unsigned long	 per;		/* messages in each other chat */
	bool		 api;		/* every row by the store API */
};

static void
stamp_text(char *b, size_t size, const struct gen_opts *g)
{
	snprintf(b, size, "schema=%d gen=%d messages=%lu chats=%lu per=%lu"
	    "%s\n", STORE_SCHEMA_VERSION, GEN_VERSION, g->messages, g->chats,
	    g->per, g->api ? " api" : "");
}

static bool
stamp_ok(const char *dir, const struct gen_opts *g)
{
	char	 path[4096], want[256], have[256];
	FILE	*f;
	bool	 ok;

	snprintf(path, sizeof(path), "%s/stamp", dir);
	if ((f = fopen(path, "r")) == NULL)
		return false;
	ok = fgets(have, sizeof(have), f) != NULL;
	fclose(f);
	stamp_text(want, sizeof(want), g);
	return ok && strcmp(have, want) == 0;
}

/*
 * The bulk path: store/message.c's insert_row() statement (the same SQL
 * text, the same binds), prepared once instead of per row.  The chat row
 * and its preview are not touched here: each chat's newest message goes
 * through store_msg_insert_incoming(), whose chat_bump() and
 * preview_sync() then write what they would have written after every
 * row (the newest (ts_ms, rowid) wins, and no message is unread).
 */
static const char INSERT_ROW_SQL[] = "INSERT INTO message (chat, id, sender,"
    " from_me, ts_ms, kind, text, quoted_id, quoted_sender,"
    " quoted_text, state, payload)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";

static void
bind_s(sqlite3_stmt *st, int col, const char *p)
{
	sqlite3_bind_text(st, col, p != NULL ? p : "", -1, SQLITE_STATIC);
}

static void
bulk_insert(struct store *s, sqlite3_stmt *st, const struct store_msg_new *m)
{
	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	bind_s(st, 1, m->chat);
	bind_s(st, 2, m->id);
	bind_s(st, 3, m->sender);
	sqlite3_bind_int(st, 4, m->from_me);
	sqlite3_bind_int64(st, 5, m->ts_ms);
	sqlite3_bind_int(st, 6, (int)m->kind);
	sqlite3_bind_text(st, 7, m->text_len > 0 ? m->text : "",
	    (int)m->text_len, SQLITE_STATIC);
	bind_s(st, 8, m->quoted_id);
	bind_s(st, 9, m->quoted_sender);
	bind_s(st, 10, m->quoted_text);
	sqlite3_bind_int(st, 11, (int)m->state);
	if (sqlite3_step(st) != SQLITE_DONE)
		die("bulk insert", sqlite3_errmsg(s->db));
}

/* Insert one message of chat: with the bulk statement, or (bulk NULL)
 * with the store API. */
static void
put_msg(struct store *s, sqlite3_stmt *bulk, const char *chat, bool group,
    unsigned long k, int64_t ts, const struct lang *l, int64_t *last_ids)
{
	static char		 text[8192], id[32], sender[64], prev[32];
	struct store_msg_new	 m;
	int			 rc;

	memset(&m, 0, sizeof(m));
	/* 3EB0 and 18 hex digits, as WhatsApp Web's ids. */
	snprintf(id, sizeof(id), "3EB0%018llX",
	    (unsigned long long)(rnd() & 0xFFFFFFFFFFFFFFFull) ^ k);
	m.chat = chat;
	m.id = id;
	m.from_me = rnd_below(5) < 2;
	if (group && !m.from_me) {
		snprintf(sender, sizeof(sender), "1555%07u@s.whatsapp.net",
		    rnd_below(40));
		m.sender = sender;
	}
	m.ts_ms = ts;
	m.kind = rnd_below(30) == 0 ? STORE_MSG_MEDIA : STORE_MSG_TEXT;
	m.text_len = gen_text(text, sizeof(text), l);
	m.text = text;
	/* A reply to the message before, one in 25 (in the same chat). */
	if (last_ids[0] == (int64_t)k && k > 0 && rnd_below(25) == 0) {
		m.quoted_id = prev;
		m.quoted_text = "ok, see you then";
		if (group)
			m.quoted_sender = "15550000007@s.whatsapp.net";
	}
	/* History: ours delivered or read, theirs read. */
	m.state = m.from_me && rnd_below(10) == 0 ? STORE_MSG_DELIVERED :
	    STORE_MSG_READ;
	if (bulk != NULL)
		bulk_insert(s, bulk, &m);
	else if ((rc = store_msg_insert_incoming(s, &m, NULL)) != 0)
		die("store_msg_insert_incoming", wc_strerror(rc));
	last_ids[0] = (int64_t)k + 1;
	memcpy(prev, id, sizeof(prev));
	/* Reactions on about one message in 40, 1 to 3 of them. */
	if (rnd_below(40) == 0) {
		uint32_t	 n = 1 + rnd_below(3), i;

		for (i = 0; i < n; i++) {
			char	 who[64];

			if (i == 0 && rnd_below(2) == 0)
				who[0] = '\0';	/* our own */
			else
				snprintf(who, sizeof(who),
				    "1555%07u@s.whatsapp.net", rnd_below(40));
			if ((rc = store_reaction_set(s, chat, id, who,
			    EMOJI[rnd_below(6)], ts + 1000 + i)) < 0)
				die("store_reaction_set", wc_strerror(rc));
		}
	}
}

static void
exec_sql(sqlite3 *db, const char *sql)
{
	char	*msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK)
		die(sql, msg != NULL ? msg : sqlite3_errmsg(db));
}

/* nchat's table (lib/ncutil/src/messagecache.cpp, MessageCache::AddProfile)
 * with the same rows, in rowid order. */
static void
gen_nchat(const char *dir)
{
	char	 path[4096], sql[4200];
	sqlite3	*db;

	snprintf(path, sizeof(path), "%s/nchat.db", dir);
	(void)unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		die("cannot create", path);
	exec_sql(db, "CREATE TABLE messages (chatId TEXT, id TEXT,"
	    " senderId TEXT, text TEXT, quotedId TEXT, quotedText TEXT,"
	    " quotedSender TEXT, filePath TEXT, fileType TEXT, timeSent INT,"
	    " isOutgoing INT, isRead INT, isLast INT DEFAULT 0,"
	    " UNIQUE(chatId, id) ON CONFLICT REPLACE)");
	snprintf(sql, sizeof(sql), "ATTACH '%s/wachat.db' AS w", dir);
	exec_sql(db, sql);
	exec_sql(db, "BEGIN");
	exec_sql(db, "INSERT INTO messages (chatId, id, senderId, text,"
	    " quotedId, quotedText, quotedSender, filePath, fileType, timeSent,"
	    " isOutgoing, isRead) SELECT chat, id, sender, text, quoted_id,"
	    " quoted_text, quoted_sender, '', '', ts_ms, from_me, state >= 4"
	    " FROM w.message ORDER BY rowid");
	exec_sql(db, "COMMIT");
	exec_sql(db, "DETACH w");
	sqlite3_close(db);
}

static void
gen(const char *dir, const struct gen_opts *g)
{
	char		 path[4096], stamp[256], jid[64];
	struct store	*s;
	sqlite3_stmt	*bulk = NULL;
	int64_t		 ts, last[1] = { 0 };
	unsigned long	 i, c;
	double		 t0 = now_ns();
	FILE		*f;
	int		 rc;
	static const char *const files[] = { "wachat.db", "wachat.db-wal",
		"wachat.db-shm", "nchat.db", "stamp" };

	if (stamp_ok(dir, g)) {
		fprintf(stderr, "bench-history: %s is current\n", dir);
		return;
	}
	fprintf(stderr, "bench-history: generating %s (%lu + %lu x %lu "
	    "messages)\n", dir, g->messages, g->chats, g->per);
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		die("cannot create", dir);
	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, files[i]);
		(void)unlink(path);
	}
	if ((rc = store_open(dir, &s)) != 0)
		die("store_open", wc_strerror(rc));
	/* A connection setting only (the file is the same): a page cache
	 * that holds the indexes, or every random insert into the UNIQUE
	 * index reads from disk. */
	if ((rc = store_exec(s, "PRAGMA cache_size = -262144")) != 0)
		die("PRAGMA cache_size", wc_strerror(rc));
	if ((rc = store_tx_begin(s)) != 0)
		die("BEGIN", wc_strerror(rc));
	if ((rc = store_contact_set_push_name(s, BIG_CHAT, "Ana María")) != 0)
		die("store_contact_set_push_name", wc_strerror(rc));
	/* The big chat: ~2.4 years at one message per ~75 s on average,
	 * second resolution as the server's t, so some ms collide. */
	ts = T0_MS;
	if (!g->api && sqlite3_prepare_v2(s->db, INSERT_ROW_SQL, -1, &bulk,
	    NULL) != SQLITE_OK)
		die("prepare", sqlite3_errmsg(s->db));
	for (i = 0; i < g->messages; i++) {
		ts += (int64_t)rnd_below(150) * 1000;
		put_msg(s, i + 1 < g->messages ? bulk : NULL, BIG_CHAT, false,
		    i, ts,
		    &LANGS[rnd_below(sizeof(LANGS) / sizeof(LANGS[0]))], last);
	}
	/* The other chats, spread over the same time span. */
	for (c = 0; c < g->chats; c++) {
		bool			 group = c % 9 == 8;
		const struct lang	*l = &LANGS[c % (sizeof(LANGS) /
					    sizeof(LANGS[0]))];

		if (group)
			snprintf(jid, sizeof(jid), "1203630%011lu@g.us", c);
		else
			snprintf(jid, sizeof(jid), "1666%07lu@s.whatsapp.net",
			    c);
		if (group && (rc = store_chat_set_name(s, jid,
		    "Family & friends 🎉")) != 0)
			die("store_chat_set_name", wc_strerror(rc));
		if (!group && c % 3 == 0 && (rc = store_contact_set_name(s, jid,
		    "Contact")) != 0)
			die("store_contact_set_name", wc_strerror(rc));
		ts = T0_MS + (int64_t)rnd_below(700000000) * 100;
		for (i = 0; i < g->per; i++) {
			ts += (int64_t)rnd_below(3600) * 1000;
			put_msg(s, i + 1 < g->per ? bulk : NULL, jid, group, i,
			    ts, l, last);
		}
	}
	sqlite3_finalize(bulk);
	if ((rc = store_tx_commit(s)) != 0)
		die("COMMIT", wc_strerror(rc));
	(void)store_exec(s, "PRAGMA wal_checkpoint(TRUNCATE)");
	store_close(s);
	fprintf(stderr, "bench-history: wachat.db in %.1f s\n",
	    (now_ns() - t0) / 1e9);
	gen_nchat(dir);
	snprintf(path, sizeof(path), "%s/stamp", dir);
	stamp_text(stamp, sizeof(stamp), g);
	if ((f = fopen(path, "w")) == NULL || fputs(stamp, f) < 0 ||
	    fclose(f) != 0)
		die("cannot write", path);
	fprintf(stderr, "bench-history: done in %.1f s\n",
	    (now_ns() - t0) / 1e9);
}

/* ------------------------------------------------------------------------
 * graft
 * ------------------------------------------------------------------------ */

static void
graft(const char *src, const char *dest)
{
	struct store	*s;
	sqlite3_stmt	*st;
	char		 sql[4200];
	int		 rc, n;

	if ((rc = store_open(dest, &s)) != 0)
		die("store_open", wc_strerror(rc));
	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM message", -1, &st,
	    NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW)
		die("counting messages", sqlite3_errmsg(s->db));
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (n != 0)
		die("the destination holds messages already", dest);
	snprintf(sql, sizeof(sql), "ATTACH '%s/wachat.db' AS g", src);
	exec_sql(s->db, sql);
	exec_sql(s->db, "BEGIN IMMEDIATE");
	exec_sql(s->db, "DELETE FROM chat; DELETE FROM reaction;"
	    " INSERT INTO message SELECT * FROM g.message ORDER BY rowid;"
	    " INSERT INTO chat SELECT * FROM g.chat;"
	    " INSERT INTO reaction SELECT * FROM g.reaction;"
	    " INSERT OR REPLACE INTO contact SELECT * FROM g.contact;");
	exec_sql(s->db, "COMMIT");
	exec_sql(s->db, "DETACH g");
	(void)store_exec(s, "PRAGMA wal_checkpoint(TRUNCATE)");
	store_close(s);
}

/* ------------------------------------------------------------------------
 * run: the timed operations
 * ------------------------------------------------------------------------ */

struct hctx {
	struct store	*s;
	sqlite3		*nchat;
	int64_t		 ts, rowid;	/* keyset cursor (scroll) */
	int64_t		 depth;		/* OFFSET (bench_offset_op) */
	const char	*nchat_id;	/* nchat's fromMsgId */
	size_t		 rows;		/* rows of the last page */
};

/* U1 as the UI asks it (src/app.c load_chats() and load_page() with flag
 * 0): the chat list, then the newest page of the open chat. */
BENCH_OP static int
bench_history_open_op(struct hctx *c)
{
	struct store_chat_list	 l;
	struct store_msg_page	 p;
	int			 rc;

	if ((rc = store_chat_list(c->s, false, CHATS_MAX, &l)) != 0)
		return rc;
	store_chat_list_free(&l);
	if ((rc = store_msg_page_newest(c->s, BIG_CHAT, PAGE_ROWS, &p)) != 0)
		return rc;
	c->rows = p.n;
	store_msg_page_free(&p);
	return 0;
}

/* U2: load_page() with flag -1, the page just older than the cursor. */
BENCH_OP static int
bench_scroll_op(struct hctx *c)
{
	struct store_msg_page	 p;
	int			 rc;

	if ((rc = store_msg_page_before(c->s, BIG_CHAT, c->ts, c->rowid,
	    PAGE_ROWS, &p)) != 0)
		return rc;
	c->rows = p.n;
	store_msg_page_free(&p);
	return 0;
}

/* One statement of nchat, rows read and dropped (column text copied, as
 * its std::string lambdas do).  Returns the rows or -EIO. */
static int
nchat_q(sqlite3 *db, const char *sql, const char *chat, const char *id,
    int64_t ts, int limit, int64_t *out)
{
	sqlite3_stmt	*st;
	int		 rc, n = 0, i;
	size_t		 sink = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, chat, -1, SQLITE_STATIC);
	if (id != NULL)
		sqlite3_bind_text(st, 2, id, -1, SQLITE_STATIC);
	else
		sqlite3_bind_int64(st, 2, ts);
	if (limit > 0)
		sqlite3_bind_int(st, 3, limit);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		n++;
		if (out != NULL)
			*out = sqlite3_column_int64(st, 0);
		for (i = 0; i < sqlite3_column_count(st); i++)
			sink += (size_t)sqlite3_column_bytes(st, i);
	}
	sqlite3_finalize(st);
	(void)sink;
	return rc == SQLITE_DONE ? n : -EIO;
}

/*
 * nchat's history fetch from message fromMsgId (MessageCache::Fetch, then
 * the FetchRequest it queues): the sent time and isLast of fromMsgId, the
 * COUNT(*) of older messages, the sent time again, then the older page
 * ordered by timeSent with only UNIQUE(chatId, id) to help.  Its first
 * screen is this fetch from the newest message; a scroll, from the oldest
 * shown.  nchat keeps no chat list in its cache (the list comes from the
 * network), so its side of U1 has none: that flatters nchat.
 */
BENCH_OP static int
bench_nchat_fetch_op(struct hctx *c)
{
	int64_t	 ts = 0, cnt = 0;
	int	 rc;

	if ((rc = nchat_q(c->nchat, "SELECT timeSent, isLast FROM messages"
	    " WHERE chatId = ? AND id = ?", BIG_CHAT, c->nchat_id, 0, 0,
	    &ts)) < 0 ||
	    (rc = nchat_q(c->nchat, "SELECT COUNT(*) FROM messages"
	    " WHERE chatId = ? AND timeSent < ?", BIG_CHAT, NULL, ts, 0,
	    &cnt)) < 0 ||
	    (rc = nchat_q(c->nchat, "SELECT timeSent FROM messages"
	    " WHERE chatId = ? AND id = ?", BIG_CHAT, c->nchat_id, 0, 0,
	    &ts)) < 0 ||
	    (rc = nchat_q(c->nchat, "SELECT id, senderId, text, quotedId,"
	    " quotedText, quotedSender, filePath, fileType, timeSent,"
	    " isOutgoing, isRead FROM messages WHERE chatId = ? AND"
	    " timeSent < ? ORDER BY timeSent DESC LIMIT ?", BIG_CHAT, NULL,
	    ts, PAGE_ROWS, NULL)) < 0)
		return rc;
	c->rows = (size_t)rc;
	return 0;
}

/* The OFFSET pattern on wachat's own table and index (perf.md 2.3's
 * "OFFSET 500000" row), for comparison only. */
BENCH_OP static int
bench_offset_op(struct hctx *c)
{
	sqlite3_stmt	*st;
	int		 rc, n = 0;

	if (sqlite3_prepare_v2(c->s->db, "SELECT rowid, chat, id, sender,"
	    " from_me, ts_ms, kind, text, quoted_id, quoted_sender,"
	    " quoted_text, state, edited, deleted, attempts FROM message"
	    " WHERE chat = ?1 ORDER BY ts_ms DESC, rowid DESC"
	    " LIMIT ?2 OFFSET ?3", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_text(st, 1, BIG_CHAT, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 2, PAGE_ROWS);
	sqlite3_bind_int64(st, 3, c->depth);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		n++;
	sqlite3_finalize(st);
	c->rows = (size_t)n;
	return rc == SQLITE_DONE ? 0 : -EIO;
}

typedef int (*op_fn)(struct hctx *);

static int
cmp_double(const void *a, const void *b)
{
	double	 x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct stats {
	double		 median, min, p95;
	unsigned long	 iters;
};

/* Warm up, then samples runs of iters ops (iters 0: about 10 ms each). */
static struct stats
measure(op_fn fn, struct hctx *c, unsigned long samples, unsigned long iters)
{
	struct stats	 r;
	double		*t, t0, per;
	unsigned long	 s, i;
	int		 rc = 0;

	if (fn(c) != 0 || fn(c) != 0)
		die("warm-up failed", NULL);
	/* Calibrate on the fastest of three single operations, so that one
	 * preempted operation does not shrink every sample; at least 5 per
	 * sample below 10 ms. */
	if (iters == 0) {
		per = 1e12;
		for (i = 0; i < 3; i++) {
			t0 = now_ns();
			rc |= fn(c);
			if (now_ns() - t0 < per)
				per = now_ns() - t0;
		}
		iters = (unsigned long)(2e7 / (per > 1 ? per : 1));
		if (iters < 5 && per < 1e7)
			iters = 5;
		if (iters == 0)
			iters = 1;
	}
	t = xcalloc(samples, sizeof(*t));
	for (s = 0; s < samples; s++) {
		t0 = now_ns();
		for (i = 0; i < iters; i++)
			rc |= fn(c);
		t[s] = (now_ns() - t0) / (double)iters;
	}
	if (rc != 0)
		die("operation failed", NULL);
	qsort(t, samples, sizeof(*t), cmp_double);
	r.median = samples % 2 ? t[samples / 2] :
	    (t[samples / 2 - 1] + t[samples / 2]) / 2;
	r.min = t[0];
	r.p95 = t[(size_t)((double)(samples - 1) * 0.95 + 0.5)];
	r.iters = iters;
	free(t);
	return r;
}

static void
count_one(op_fn fn, struct hctx *c, struct alloc_count *ac, uint64_t *sq)
{
	sqlite_count_start();
	alloc_count_start();
	if (fn(c) != 0)
		die("operation failed", NULL);
	alloc_count_stop(ac);
	*sq = sqlite_count_stop();
}

struct run_opts {
	const char	*only;
	unsigned long	 samples, peer_samples, iters;
};

static bool
selected(const struct run_opts *o, const char *name)
{
	size_t	 n;

	if (o->only == NULL)
		return true;
	n = strlen(o->only);
	return strcmp(o->only, name) == 0 || (strncmp(o->only, name, n) == 0 &&
	    name[n] == '/');
}

static void
print_line(const char *name, const struct stats *us,
    const struct alloc_count *ac, uint64_t sq, const struct run_opts *o,
    const struct stats *peer, const char *extra)
{
	printf("{\"name\":\"%s\",\"median_ns\":%.1f,\"min_ns\":%.1f,"
	    "\"p95_ns\":%.1f,\"allocs\":%llu,\"bytes\":%llu,"
	    "\"allocs_excl_sqlite\":%llu,\"iters\":%lu,\"samples\":%lu",
	    name, us->median, us->min, us->p95, (unsigned long long)ac->calls,
	    (unsigned long long)ac->bytes,
	    (unsigned long long)(ac->calls >= sq ? ac->calls - sq : 0),
	    us->iters, o->samples);
	if (peer != NULL)
		printf(",\"peer\":\"nchat\",\"peer_median_ns\":%.1f,"
		    "\"peer_min_ns\":%.1f,\"peer_samples\":%lu,\"ratio\":%.1f",
		    peer->median, peer->min, o->peer_samples,
		    peer->median / us->median);
	printf("%s}\n", extra != NULL ? extra : "");
	fflush(stdout);
}

/* The message depth rows from the newest: its (ts_ms, rowid) and id. */
static void
cursor_at(struct store *s, unsigned long depth, int64_t *ts, int64_t *rowid,
    char *id, size_t idsize)
{
	sqlite3_stmt	*st;

	if (sqlite3_prepare_v2(s->db, "SELECT ts_ms, rowid, id FROM message"
	    " WHERE chat = ?1 ORDER BY ts_ms DESC, rowid DESC LIMIT 1"
	    " OFFSET ?2", -1, &st, NULL) != SQLITE_OK)
		die("cursor", sqlite3_errmsg(s->db));
	sqlite3_bind_text(st, 1, BIG_CHAT, -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 2, (int64_t)depth);
	if (sqlite3_step(st) != SQLITE_ROW)
		die("no message at that depth", NULL);
	*ts = sqlite3_column_int64(st, 0);
	*rowid = sqlite3_column_int64(st, 1);
	snprintf(id, idsize, "%s", (const char *)sqlite3_column_text(st, 2));
	sqlite3_finalize(st);
}

static unsigned long
chat_size(struct store *s)
{
	sqlite3_stmt	*st;
	unsigned long	 n;

	if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM message"
	    " WHERE chat = ?1", -1, &st, NULL) != SQLITE_OK)
		die("count", sqlite3_errmsg(s->db));
	sqlite3_bind_text(st, 1, BIG_CHAT, -1, SQLITE_STATIC);
	if (sqlite3_step(st) != SQLITE_ROW)
		die("count", sqlite3_errmsg(s->db));
	n = (unsigned long)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void
run(const char *dir, const struct run_opts *o)
{
	static const unsigned long	 depths[] = { 10000, 500000, 999000 };
	static const char *const	 dnames[] = { "10k", "500k", "999k" };
	struct hctx			 c;
	struct stats			 us, peer, off;
	struct alloc_count		 ac;
	uint64_t			 sq;
	char				 path[4096], id[STORE_MSG_ID_MAX + 1];
	char				 name[64], extra[256];
	unsigned long			 total, i, k;
	int				 rc;

	memset(&c, 0, sizeof(c));
	if ((rc = store_open(dir, &c.s)) != 0)
		die("store_open", wc_strerror(rc));
	snprintf(path, sizeof(path), "%s/nchat.db", dir);
	if (sqlite3_open_v2(path, &c.nchat, SQLITE_OPEN_READONLY, NULL) !=
	    SQLITE_OK)
		die("cannot open", path);
	total = chat_size(c.s);

	if (selected(o, "history_open_1M")) {
		double	 first[5], t0;

		/* A fresh store each time: store_open() and the first
		 * queries, the OS cache warm (not cold: no drop_caches). */
		for (k = 0; k < 5; k++) {
			struct hctx	 f = c;

			t0 = now_ns();
			if ((rc = store_open(dir, &f.s)) != 0 ||
			    bench_history_open_op(&f) != 0)
				die("open", wc_strerror(rc));
			first[k] = now_ns() - t0;
			store_close(f.s);
		}
		qsort(first, 5, sizeof(first[0]), cmp_double);
		us = measure(bench_history_open_op, &c, o->samples, o->iters);
		count_one(bench_history_open_op, &c, &ac, &sq);
		if (c.rows != PAGE_ROWS)
			die("the newest page is short", NULL);
		cursor_at(c.s, 0, &c.ts, &c.rowid, id, sizeof(id));
		c.nchat_id = id;
		peer = measure(bench_nchat_fetch_op, &c, o->peer_samples, 1);
		snprintf(extra, sizeof(extra), ",\"open_first_ns\":%.1f,"
		    "\"rows\":%d,\"chat_messages\":%lu", first[2], PAGE_ROWS,
		    total);
		print_line("history_open_1M", &us, &ac, sq, o, &peer, extra);
	}
	for (i = 0; i < sizeof(depths) / sizeof(depths[0]); i++) {
		unsigned long	 d = depths[i];

		snprintf(name, sizeof(name), "scroll_1M/%s", dnames[i]);
		if (!selected(o, name))
			continue;
		/* A smaller chat (gen --messages): the deepest full page. */
		if (d + PAGE_ROWS >= total)
			d = total > PAGE_ROWS ? total - PAGE_ROWS - 1 : 0;
		cursor_at(c.s, d, &c.ts, &c.rowid, id, sizeof(id));
		c.nchat_id = id;
		us = measure(bench_scroll_op, &c, o->samples, o->iters);
		count_one(bench_scroll_op, &c, &ac, &sq);
		if (c.rows != PAGE_ROWS && total > PAGE_ROWS)
			die("a scroll page is short", name);
		peer = measure(bench_nchat_fetch_op, &c, o->peer_samples, 1);
		if (c.rows != PAGE_ROWS && total > PAGE_ROWS)
			die("nchat's page is short", name);
		/* OFFSET on our own index, for the same rows. */
		c.depth = (int64_t)d + 1;
		off = measure(bench_offset_op, &c, o->peer_samples, 1);
		snprintf(extra, sizeof(extra), ",\"depth\":%lu,\"rows\":%d,"
		    "\"offset_median_ns\":%.1f", d, PAGE_ROWS, off.median);
		print_line(name, &us, &ac, sq, o, &peer, extra);
	}
	sqlite3_close(c.nchat);
	store_close(c.s);
}

static void
usage(void)
{
	fprintf(stderr, "usage: bench-history gen DIR [--messages N]"
	    " [--chats K] [--per M] [--api]\n"
	    "       bench-history graft SRC_DIR DEST_DIR\n"
	    "       bench-history run DIR [--only NAME] [--samples S]"
	    " [--peer-samples P] [--iters N]\n");
	exit(2);
}

int
main(int argc, char **argv)
{
	static const struct option	 lo[] = {
		{ "messages", required_argument, NULL, 'm' },
		{ "chats", required_argument, NULL, 'c' },
		{ "per", required_argument, NULL, 'p' },
		{ "api", no_argument, NULL, 'a' },
		{ "only", required_argument, NULL, 'o' },
		{ "samples", required_argument, NULL, 's' },
		{ "peer-samples", required_argument, NULL, 'P' },
		{ "iters", required_argument, NULL, 'n' },
		{ NULL, 0, NULL, 0 },
	};
	struct gen_opts	 g = { 1000000, 999, 100, false };
	struct run_opts	 o = { NULL, 15, 1, 0 };
	const char	*cmd;
	int		 ch;

	if (argc < 3)
		usage();
	cmd = argv[1];
	optind = 2;
	while ((ch = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		switch (ch) {
		case 'm': g.messages = strtoul(optarg, NULL, 10); break;
		case 'c': g.chats = strtoul(optarg, NULL, 10); break;
		case 'p': g.per = strtoul(optarg, NULL, 10); break;
		case 'a': g.api = true; break;
		case 'o': o.only = optarg; break;
		case 's': o.samples = strtoul(optarg, NULL, 10); break;
		case 'P': o.peer_samples = strtoul(optarg, NULL, 10); break;
		case 'n': o.iters = strtoul(optarg, NULL, 10); break;
		default: usage();
		}
	}
	if (o.samples == 0 || o.peer_samples == 0 || g.messages == 0)
		usage();
	if (strcmp(cmd, "gen") == 0 && optind == argc - 1)
		gen(argv[optind], &g);
	else if (strcmp(cmd, "graft") == 0 && optind == argc - 2)
		graft(argv[optind], argv[optind + 1]);
	else if (strcmp(cmd, "run") == 0 && optind == argc - 1) {
		if (!sqlite_count_install())
			die("sqlite3_config(SQLITE_CONFIG_MALLOC) failed", NULL);
		run(argv[optind], &o);
	} else
		usage();
	return 0;
}
