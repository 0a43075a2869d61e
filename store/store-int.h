/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-int.h -- what the files of store/ share: the connection,
 * its cached prepared statements and after-commit hooks, and the helpers
 * one file offers the others, by file from the bottom of their call graph
 * up (db.c calls no other file; no two files call each other in a
 * circle).  Not for other modules.
 */
#ifndef STORE_INT_H
#define STORE_INT_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

enum store_stmt {
	ST_DEVICE_LOAD,
	ST_DEVICE_SAVE,
	ST_PREKEY_INSERT,
	ST_PREKEY_GET,
	ST_PREKEY_REMOVE,
	ST_PREKEY_UPLOADED,
	ST_PREKEY_PENDING,
	ST_PREKEY_COUNT,
	ST_COUNTER_GET,
	ST_COUNTER_SET,
	ST_AS_MAC_GET,		/* store_as_mac_get(), per record */
	ST_COUNT_
};

#define STORE_STMT_CACHE	160	/* statements kept prepared by SQL text */

/* A statement of the cache: its SQL (owned copy), in use or free. */
struct store_cached {
	char		*sql;		/* owned copy of the text */
	const char	*seen;		/* the caller's pointer it was last
					 * asked by: a hint only, checked
					 * against sql before it is trusted */
	sqlite3_stmt	*st;
	int		 busy;
};

/*
 * A function a module of store/ registers at open to run after every
 * outermost COMMIT on the connection (store_tx_after_commit()).  It runs
 * outside any transaction and may open its own; it reports nothing (a
 * failure is its own to log).
 */
typedef void	(*store_tx_hook)(struct store *s);
#define STORE_TX_HOOKS_MAX	4

struct store {
	sqlite3		*db;
	sqlite3_stmt	*st[ST_COUNT_];	/* prepared on first use, then reused */
	struct store_cached cache[STORE_STMT_CACHE];
	size_t		 ncache;
	store_tx_hook	 after_commit[STORE_TX_HOOKS_MAX]; /* store/tx.c */
	size_t		 nafter_commit;
	size_t		 fts_live;	/* rows of the FTS backlog at least,
					 * counted as written (store_fts_batch) */
	bool		 fts_batching;	/* inside store_fts_batch() */
};

/* --- store/db.c: the connection and its statements --- */

/*
 * The read-write connection of store_open() without the modules' hooks:
 * file modes, pragmas, migrations.  Returns 0 and *out, or the errors of
 * store_open() (-EPERM, WC_ESCHEMA, -EIO, a negative errno).
 */
int	store_db_open(const char *dir, struct store **out);

/*
 * The error code for a failed step, exec or commit whose SQLite result
 * was rc (extended codes are on): -ENOSPC when the disk is full
 * (SQLITE_FULL, or an I/O error with errno ENOSPC), else -EIO.
 */
int	store_step_err(struct store *s, int rc);

/*
 * The error the connection's last failed call stands for: WC_EDBNOTDB,
 * WC_EDBMALFORMED, -ENOSPC, -EROFS, -EACCES, -EINTR (interrupted), the
 * open's errno, else -EIO.  s's thread.
 */
int	store_db_error(struct store *s);

/*
 * Whether the schema version v (the header's user_version, as read) is
 * one a wachat wrote: the tables must be those of version v (each
 * migration's mark, store/db.c), and the copy of the version that every
 * migration writes into the counter table, when there, must equal v
 * (a version above STORE_SCHEMA_VERSION needs it: a newer wachat writes
 * it).  Returns 0 (v is this wachat's or an older one's), WC_ESCHEMA (a
 * newer wachat's), WC_EDBMALFORMED (the header is damaged: said in the
 * log), or an error of store_db_error().  s's thread.
 */
int	store_schema_check(struct store *s, int v);

/*
 * The database file path before SQLite opens it: WC_EDBEMPTY when it is a
 * regular file of 0 bytes (never taken for a new database), WC_EDBNOTDB
 * when it does not start with SQLite's 16-byte header string, 0 when it
 * is missing or looks sound, a negative errno when it cannot be read.
 * It opens and closes the file with a raw fd: only in a process that has
 * no SQLite connection on path yet, since closing any fd of a file drops
 * every POSIX (fcntl) lock the process holds on it, SQLite's included,
 * and the next outside connection to close would then take itself for
 * the last, checkpoint and delete the WAL and -shm still in use.
 */
int	store_db_precheck(const char *path);

/* Run sql (no rows).  Returns 0, -ENOSPC (disk full) or -EIO, with the
 * message on stderr. */
int	store_exec(struct store *s, const char *sql);

/* Prepare sql into *st once, or reset *st for reuse.  Returns 0 or -EIO. */
int	store_prepare(struct store *s, sqlite3_stmt **st, const char *sql);

/*
 * A prepared statement for sql, from the cache (prepared once per
 * connection, perf.md 5.4) when sql is cached and not in use, else a
 * fresh one.  Hand it back with store_stmt_done() on every path.
 * Returns 0 and *st, or -EIO (*st NULL).
 */
int	store_stmt(struct store *s, const char *sql, sqlite3_stmt **st);

/* Done with st from store_stmt(): reset (cached) or finalized.  NULL is
 * a no-op. */
void	store_stmt_done(struct store *s, sqlite3_stmt *st);

/* Run sql, one statement without rows, through the cache.  Returns 0,
 * -ENOSPC (disk full) or -EIO (logged unless quiet). */
int	store_run(struct store *s, const char *sql, int quiet);

/* --- store/tx.c: transactions (store_tx_begin() in store.h) --- */

/* Finish a level of store_tx_begin(): commit it when rc >= 0 (returning
 * rc, or the commit's error), else roll it back (returning rc; a failed
 * rollback is logged). */
int	store_tx_end(struct store *s, int rc);

/* Run fn after every outermost COMMIT of s from now on, after the hooks
 * registered before it.  At most STORE_TX_HOOKS_MAX per store (more is a
 * bug: assert). */
void	store_tx_after_commit(struct store *s, store_tx_hook fn);

/* --- store/search.c: the FTS backlog --- */

/*
 * The FTS backlog after a commit (migration 8): when at least
 * STORE_FTS_BATCH searchable rows were written since the last batch, index
 * up to STORE_FTS_BATCH_MAX of the oldest pending rows in a transaction of
 * their own.  The after-commit hook store_fts_attach() registers; does
 * nothing inside a transaction or a batch.  A failure is logged and the
 * rows stay in the backlog (searches read it).
 */
#define STORE_FTS_BATCH		64
#define STORE_FTS_BATCH_MAX	256
void	store_fts_batch(struct store *s);

/*
 * The search index's part of store_open(): counts the backlog an earlier
 * run left (it waits for the next batch) and registers store_fts_batch()
 * as an after-commit hook of s.  Returns 0 or -EIO.
 */
int	store_fts_attach(struct store *s);

/* The number of rows in the FTS backlog: >= 0, or -EIO. */
int	store_fts_backlog(struct store *s);

/* --- store/fts-tok.c: the search index's tokenizer (migration 12) --- */

#define STORE_TOK_NAME	"wachat"	/* as message_fts names it */
/* store_tok_split() flag: hand each CJK run whole to the callback, with
 * STORE_TOK_RUN in its flags, instead of its bigrams. */
#define STORE_TOK_RUNS	0x4000
#define STORE_TOK_RUN	0x4000

/*
 * Register the "wachat" FTS5 tokenizer on db (unicode61 remove_diacritics
 * 2, with bigrams for runs of CJK characters; see store/fts-tok.c), as
 * every connection that opens message_fts must before its first use.
 * Returns 0, -ENOMEM or -EIO (no FTS5; logged).  Thread: db's.
 */
int	store_tok_register(sqlite3 *db);

/* Whether code point c is one of the CJK characters tokenized in
 * bigrams (ideographs, kana, hangul). */
bool	store_tok_is_cjk(uint32_t c);

/* An instance of the tokenizer for the search's own matching. */
struct store_tok;

/*
 * A new instance of the tokenizer registered on s's connection: 0 and
 * *out (freed with store_tok_free()), or -EIO (not registered; logged).
 */
int	store_tok_new(struct store *s, struct store_tok **out);
void	store_tok_free(struct store_tok *t);

/*
 * Tokenize text[0..n) as the index does with flags (FTS5_TOKENIZE_*),
 * calling cb(ctx, tflags, token, ntoken, start, end) for each token
 * (start, end: byte offsets in text); with STORE_TOK_RUNS in flags a CJK
 * run comes whole (tflags STORE_TOK_RUN, the token its unfolded text).
 * Stops at the first cb result other than SQLITE_OK and returns it
 * (SQLITE_DONE: cb's own stop), else SQLITE_OK.
 */
int	store_tok_split(struct store_tok *t, void *ctx, int flags,
	    const char *text, int n,
	    int (*cb)(void *, int, const char *, int, int, int));

/* --- store/media.c --- */

/* m is NULL or within the limits of store/store.h struct store_media. */
bool	store_q_media_ok(const struct store_media *m);
/* Store m (NULL: nothing) as the media of message row msg, replacing
 * any; inside the caller's savepoint.  Returns 0, -ENOSPC or -EIO. */
int	store_q_media_put(struct store *s, int64_t msg,
	    const struct store_media *m);

/* --- store/query.c: statement helpers --- */

/* p is a string within max bytes, non-empty when required (NULL is
 * accepted when not required). */
bool	store_q_str_ok(const char *p, size_t max, bool required);
/* store_stmt() with the arguments in the order of the callers. */
int	store_q_prep(struct store *s, sqlite3_stmt **st, const char *sql);
/* Step st for at most one row: 1 when it gave one (read it, then hand st
 * back with store_stmt_done()), 0 when none, -ENOSPC (disk full) or -EIO
 * (logged with what). */
int	store_q_step_one(struct store *s, sqlite3_stmt *st, const char *what);
/* Step st, which returns no rows, and hand it back.  Returns the number
 * of rows changed (>= 0), -ENOSPC (disk full) or -EIO (logged with
 * what). */
int	store_q_run(struct store *s, sqlite3_stmt *st, const char *what);
/* Bind p (NULL as "") to col, SQLITE_STATIC: p must outlive the step. */
void	store_q_bind_str(sqlite3_stmt *st, int col, const char *p);
/* Bind p[0..len) (NULL as "") to col, SQLITE_STATIC: text from the
 * network may hold any bytes, NUL too. */
void	store_q_bind_text(sqlite3_stmt *st, int col, const char *p,
	    size_t len);
/* A malloc'd NUL-terminated copy of text column col, its length in *len
 * (may be NULL).  Aborts on out-of-memory. */
char	*store_q_col_dup(sqlite3_stmt *st, int col, size_t *len);
/* Copy text column col into out[size], cut at size - 1 bytes. */
void	store_q_col_copy(sqlite3_stmt *st, int col, char *out, size_t size);
/* A message's kind and state column as stored (unknown kinds read as
 * UNSUPPORTED, states are clamped to FAILED..PLAYED). */
enum store_msg_kind	store_q_kind(int64_t v);
enum store_msg_state	store_q_state(int64_t v);

/* --- store/chat.c: a chat's newest message, for every message writer --- */

/* Create chat jid if missing; make (ts_ms, rowid) its newest message when
 * it is newer than the stored one; add unread.  Returns 0 or -EIO. */
int	store_q_chat_bump(struct store *s, const char *jid, int64_t ts_ms,
	    int64_t rowid, int unread);
/* Copy chat jid's newest message into its preview columns; with id (and
 * from_me) only when that message is the newest, id NULL: always.
 * Returns 0 or -EIO. */
int	store_q_preview_sync(struct store *s, const char *jid, bool from_me,
	    const char *id);
/* After a write that returned rc (1: one message changed), refresh the
 * preview when (jid, from_me, id) is the chat's newest.  Returns rc or
 * -EIO. */
int	store_q_then_sync(struct store *s, int rc, const char *jid,
	    bool from_me, const char *id);
/* Point chat jid's newest message at what is stored now (after a delete
 * or a time change), with its preview.  Returns 0 or -EIO. */
int	store_q_chat_refresh(struct store *s, const char *jid);
/* A chat c's name: its own (a group's subject as it was stored on the
 * chat row), else the subject in the group tables (which a deleted
 * chat's row, gone with its messages, no longer holds), else ''. */
#define CHAT_NAME_SQL "COALESCE(NULLIF(c.name, ''), (SELECT g.subject" \
	" FROM grp g WHERE g.jid = c.jid), '')"
/* Fill *c (zeroed first) from columns 0-12 of a chat row: jid, name
 * (CHAT_NAME_SQL), contact name, push name, last_ms, unread, muted_until, pinned,
 * archived, last_read_rowid, last_rowid, marked_unread, locked (strings
 * malloc'd).  CHAT_HEAD_COLS names them for a chat c joined to contact
 * k. */
#define CHAT_HEAD_COLS "c.jid, " CHAT_NAME_SQL ", COALESCE(k.name, '')," \
	" COALESCE(k.push_name, ''), c.last_ms, c.unread, c.muted_until," \
	" c.pinned, c.archived, c.last_read_rowid, c.last_rowid," \
	" c.marked_unread, c.locked"
#define CHAT_HEAD_NCOLS	13
void	store_q_chat_head(sqlite3_stmt *st, struct store_chat *c);

/* --- store/message.c: updates of one message by its key --- */

/* Run an UPDATE/DELETE with ?1 chat, ?2 id (and ?3 from_me when
 * from_me >= 0).  Returns the rows changed, -EINVAL (chat or id empty
 * or too long) or -EIO. */
int	store_q_by_key(struct store *s, const char *sql, const char *chat,
	    const char *id, int from_me, const char *what);
/* store_q_by_key() and, when it changed the row, a preview refresh, in
 * one savepoint.  Returns as store_q_by_key(). */
int	store_q_by_key_sync(struct store *s, const char *sql,
	    const char *chat, const char *id, bool from_me, const char *what);

/* SQL true for a message row (columns prefixed p: "m." or "") whose
 * disappearing-messages time is not up (migration 19, store/ephem.c):
 * readers leave out what the engine's expiry is about to delete. */
#define STORE_NOT_EXPIRED(p) "(" p "expire_s = 0 OR " p "expire_s >" \
	" unixepoch())"

/* --- store/page.c: reading message rows --- */

/* The columns of a message row, in the order store_q_read_page() reads
 * them; payload, when asked for, follows as column MSG_NCOLS. */
#define MSG_COLS "rowid, chat, id, sender, from_me, ts_ms, kind, text," \
	" quoted_id, quoted_sender, quoted_text, state, edited, deleted," \
	" attempts, starred, forwarded"
#define MSG_NCOLS	17

/* Read up to max rows of st (MSG_COLS, then payload when payload is
 * true) into *p; one more row sets p->more.  Hands st back.  Returns 0
 * or -EIO (logged with what; *p freed). */
int	store_q_read_page(struct store *s, sqlite3_stmt *st, size_t max,
	    bool payload, struct store_msg_page *p, const char *what);

#endif
