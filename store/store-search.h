/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-search.h -- part of store/store.h (included at its end, for
 * its types): the full-text search, reading in context and the chats
 * found by name.  Include store/store.h, not this.
 */
#ifndef WC_STORE_SEARCH_H
#define WC_STORE_SEARCH_H

/*
 * ---------------------------------------------------------------------
 * Full-text search, reading in context (store/search.c, schema
 * migration 5), read-only access (store/open.c).
 *
 * Every searchable message (not revoked; a text or a media caption; not
 * empty) is in the FTS5 index message_fts or in its backlog (table
 * fts_pending), kept current by triggers on the message table for every
 * write, whichever function makes it.  A row written goes to the backlog
 * (migration 8: indexing it in its own transaction would cost more than
 * storing it, perf.md R4); after a commit that leaves 64 or more rows
 * written since the last batch, the store indexes up to 256 of the
 * oldest in a transaction of its own (the after-commit hook of
 * store_tx_commit()), and store_fts_catch_up() indexes
 * what a history import left in large batches (perf.md H2).  A search
 * reads the index and the backlog, so it always sees every stored
 * message; only its cost grows with the backlog (about 1 us per pending
 * row), so the caller catches up soon after an import, off the UI
 * thread.  The
 * index folds case and removes diacritics (unicode61 remove_diacritics
 * 2, features.md D2).  unicode61 splits words at spaces and punctuation
 * only, so a run of Chinese or Japanese characters without spaces is one
 * word: a query finds it by its start (prefix), not by a word inside the
 * run.  Same threads as the rest of the store.
 * ---------------------------------------------------------------------
 */
#define STORE_SEARCH_MAX	500	/* rows in one search answer */
#define STORE_SEARCH_QUERY_MAX	1024	/* bytes of a user's query */
#define STORE_SEARCH_TERMS_MAX	16	/* words of a query used */
#define STORE_SNIPPET_MAX	240	/* bytes of a snippet (about) */

/*
 * Which messages a search considers.  NULL / 0 fields do not filter.
 */
struct store_search_filter {
	const char	*chat;		/* only this chat JID, or NULL */
	const char	*sender;	/* only this author: a group
					 * participant's user JID, "" for our
					 * own messages; NULL: anyone */
	int64_t		 since_ms;	/* ts_ms >= since_ms; 0: no bound */
	int64_t		 until_ms;	/* ts_ms < until_ms; 0: no bound */
	bool		 starred;	/* only starred messages (app state's
					 * star, migration 14; is:starred) */
};

/* One search hit.  Strings owned by the result, never NULL. */
struct store_search_hit {
	int64_t		 rowid;		/* for store_msg_page_around() */
	char		*chat;
	char		*id;
	char		*sender;	/* group author's user JID, or "" */
	bool		 from_me;
	int64_t		 ts_ms;
	char		*chat_name;	/* chat name, contact name or push
					 * name of the chat, or "" */
	char		*snippet;	/* a window of the text around the
					 * first match, cut at UTF-8
					 * boundaries: snippet_len bytes,
					 * then a NUL; not sanitized (but
					 * for a rich record, STORE_MSG_RICH:
					 * its words, rich_describe() without
					 * the link, lines joined by "; ",
					 * never its key=value text) */
	size_t		 snippet_len;
	size_t		 match_start;	/* the first matched word is */
	size_t		 match_end;	/* snippet[match_start..match_end)
					 * (equal when none is known) */
	bool		 cut_before;	/* text left out before the snippet */
	bool		 cut_after;	/* and after it */
};

struct store_search_result {
	struct store_search_hit *hits;
	size_t		 n;
	/* More matches exist than were returned: the limit was reached,
	 * or (truncated) only the most recently stored candidates were
	 * ordered, see store_search(). */
	bool		 more;
	bool		 truncated;
};

/*
 * Search the messages for query, a user's words as typed: it is split
 * into words by the index's own tokenizer (quotes, operators such as
 * AND/OR/NOT/NEAR, '*', parentheses and other punctuation are just
 * separators, never syntax, so no input is a syntax error); each word
 * (at most STORE_SEARCH_TERMS_MAX) is a prefix that must match the start
 * of a word of the message, and all words must match (AND).  A run of
 * Chinese, Japanese or Korean characters in the query (ideographs, kana,
 * hangul; store/fts-tok.c) matches wherever its text occurs inside a run
 * of such characters in the message, a word inside the run included
 * ("北京" finds "我明天早上到北京。"; one character finds every message
 * with it).  Returns up
 * to limit (1..STORE_SEARCH_MAX) hits that pass filter (NULL: none),
 * newest first (ts_ms, then rowid, descending), each with a snippet.
 * Bounded per keystroke (perf.md U3): only the STORE_SEARCH_CANDIDATES
 * most recently stored matches are read and ordered by time, and
 * out->truncated says when there were more (older matches exist: refine
 * the query).  With a chat filter whose chat holds fewer than limit of
 * those, every match in the chat is considered (exact): its newest 3,000
 * messages are matched one by one, then, when they hold fewer than limit
 * hits, the chat is walked by time against the set of all matches (the
 * one costly case: a word rare in the chat but in hundreds of thousands
 * of messages elsewhere).  Rows of the FTS backlog are always all
 * considered.  A query with no
 * word (only punctuation, or "") gives no hit, unless filter->starred:
 * then every starred message that passes the other filters (of any kind
 * but revoked ones) is a hit, newest first, its snippet the start of its
 * text (no match), read through the partial index message_starred
 * (migration 14) with a chat filter, else by a walk of the message
 * table's starred rows.  Returns 0 and *out (freed with store_search_free()), -EINVAL
 * (query NULL or above STORE_SEARCH_QUERY_MAX, limit, a filter string
 * above its limit) or -EIO.  Works on a store_open_ro() connection.
 */
#define STORE_SEARCH_CANDIDATES	2000
MUST_CHECK int	store_search(struct store *s, const char *query,
		    const struct store_search_filter *filter, size_t limit,
		    struct store_search_result *out);
/* Free a result and reset it to empty (NULL is a no-op). */
void		store_search_free(struct store_search_result *r);

/*
 * Index up to max (1..STORE_FTS_CATCH_UP_MAX) rows of the backlog (those
 * store_hist_import() left, and live rows not batched yet; oldest rowid
 * first) in one savepoint: each
 * row as it is now (a row revoked or emptied meanwhile is dropped from
 * the backlog, not indexed).  Batches of a few thousand rows cost a
 * fraction per row of what 400 rows per transaction cost.  Returns the
 * number of rows still in the backlog (0: the index is complete),
 * -EINVAL or -EIO (nothing changed).  The writing connection's thread
 * (the history worker).
 */
#define STORE_FTS_CATCH_UP_MAX	100000
MUST_CHECK int	store_fts_catch_up(struct store *s, size_t max);

/*
 * The message rowid of chat in context, for opening a search hit: up to
 * before (0..STORE_MSG_PAGE_MAX) messages just older than it, the
 * message itself, and up to after (0..STORE_MSG_PAGE_MAX) just newer, by
 * keyset as store_msg_page_before()/after() (the same order, oldest
 * first, with reactions).  out->more is true when either side has more
 * rows (page on from the first or last row with store_msg_page_before()
 * or _after()).  Returns 0 and *out (freed with store_msg_page_free()),
 * -ENOENT (no message rowid in chat), -EINVAL or -EIO.
 */
MUST_CHECK int	store_msg_page_around(struct store *s, const char *chat,
		    int64_t rowid, size_t before, size_t after,
		    struct store_msg_page *out);

/*
 * Chats matching who, for naming a chat on the command line: the chat
 * whose JID is who; else those whose name, contact name or push name
 * equals who ignoring ASCII case; else those whose names contain it
 * (ASCII case ignored).  Up to max (>= 1) chats in store_chat_list()'s
 * order, out->more when there are more.  Returns 0 and *out (freed with
 * store_chat_list_free(); n may be 0), -EINVAL or -EIO.
 */
MUST_CHECK int	store_chat_find(struct store *s, const char *who,
		    size_t max, struct store_chat_list *out);

/*
 * Open dir/wachat.db read-only (SQLITE_OPEN_READONLY: no migration, no
 * write, not even a WAL checkpoint), with a busy timeout of 5 s, for the
 * command-line readers (features.md D3): it reads while a running wachat
 * writes the same database in WAL mode.  A database with no -wal and no
 * -shm (closed cleanly, open nowhere) is opened immutable: the data dir
 * stays as found, and it reads on a read-only mount too (a wachat that
 * starts during such a read is not seen: the read is of the file as it
 * was).  *version (may be NULL) receives the database's schema version
 * when it could be read.  Returns 0 and *out (closed with
 * store_close()), -ENOENT (no database in dir, or SQLite cannot open it:
 * a -wal without its -shm in a read-only dir), -EPERM
 * (dir or file open to group or others), WC_ESCHEMA (the schema is not
 * STORE_SCHEMA_VERSION: newer, or older and not yet migrated by a
 * wachat that writes), WC_EDBEMPTY, WC_EDBNOTDB, WC_EDBMALFORMED (damaged:
 * store/backup.h), -EIO.  Any thread.
 */
MUST_CHECK int	store_open_ro(const char *dir, struct store **out,
		    int *version);

#endif
