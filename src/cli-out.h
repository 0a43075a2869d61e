/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-out.h -- the output of the read-only subcommands (src/cli.c):
 * lines built in a struct buf, then written to stdout.  Text output passes
 * every string from the network through wc_sanitize() (single-line); JSON
 * strings are valid UTF-8 with every control, bidirectional control and
 * invisible character escaped as \uXXXX (doc/wachat.1, SUBCOMMANDS).  Main
 * thread only; no state of its own.  None fails: a buffer grows or aborts
 * on out-of-memory as base/buf.h says.
 */
#ifndef WC_CLI_OUT_H
#define WC_CLI_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;
struct store_search_hit;

/* Append the NUL-terminated s to b (without its NUL). */
void	cli_put(struct buf *b, const char *s);

/* Append printf(fmt, ...) to b, cut at 255 bytes. */
void	cli_putf(struct buf *b, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Append p[0..len) (text from the network) to b, inert on a terminal and
 * on one line (wc_sanitize() single-line). */
void	cli_put_text(struct buf *b, const char *p, size_t len);

/* cli_put_text() of p[0..len), but each line break in it starts a new
 * output line (a '\n' in b) with indent spaces before what follows. */
void	cli_put_lines(struct buf *b, const char *p, size_t len, size_t indent);

/*
 * A group message's text[0..len) as the screen shows it, appended to out
 * (no NUL): each "@DIGITS" (5 to 20 digits, not followed by another) of
 * someone whose name name_of(arg, JID, buf, size) knows (tried as the PN
 * JID, then the LID) as "@Name", the others as they are (issue 17 point
 * 12).  Raw text in and out: the caller sanitises it as it prints it.
 */
void	cli_named_mentions(const char *text, size_t len,
	    void (*name_of)(void *arg, const char *jid, char *buf, size_t size),
	    void *arg, struct buf *out);

/*
 * Append p[0..len) to b as the inside of a JSON string: valid UTF-8
 * (each invalid byte U+FFFD), '"' and '\\' escaped, controls and invisible
 * characters as \uXXXX (a surrogate pair above U+FFFF).  Returns the
 * byte length of the UTF-8 a JSON reader decodes from it (for offsets).
 */
size_t	cli_json_chars(struct buf *b, const char *p, size_t len);

/* Append ,"key":"p[0..len)" to b (key is ours, not escaped). */
void	cli_json_str(struct buf *b, const char *key, const char *p,
	    size_t len);

/* cli_json_str() of the NUL-terminated s. */
void	cli_json_s(struct buf *b, const char *key, const char *s);

/* Append the time ts_ms (ms since the epoch): "YYYY-MM-DD HH:MM" local
 * time, or with utc ISO 8601 UTC ("YYYY-MM-DDTHH:MM:SSZ"); "?" when the
 * time cannot be represented. */
void	cli_put_time(struct buf *b, int64_t ts_ms, bool utc);

/*
 * A chat's marks as wachat chats prints them (issue 18), appended to b:
 * pinned (ms pinned at, 0 not), muted_until (ms, 0 not muted, -1 always;
 * a time not after now_ms is a mute that ended: not muted), archived,
 * marked_unread (the user's mark, Alt-u or the phone's; no count).
 * Text: " [marked unread]", " [pinned]", " [muted until YYYY-MM-DD HH:MM]" (local time) or
 * " [muted always]", " [archived]", each only when it holds.  JSON:
 * ,"pinned":B,"archived":B,"muted":B (muted now),"muted_until":N (as
 * stored),"marked_unread":B.
 */
void	cli_put_marks(struct buf *b, bool json, int64_t pinned,
	    int64_t muted_until, bool archived, bool marked_unread,
	    int64_t now_ms);

/*
 * A search hit's text as wachat search prints it, appended to b: "..."
 * where h cut the text before or after, the snippet sanitized, and the
 * first match as *word* when marks (a terminal, or --marks), else the
 * text as it is (a pipe).  h is borrowed.
 */
void	cli_put_snippet(struct buf *b, const struct store_search_hit *h,
	    bool marks);

/*
 * A search hit h as wachat search and wachat starred print it, appended
 * to b: with json one object {"type":"hit", chat, chat_name, id, rowid,
 * ts_ms, time (UTC), from_me, sender, sender_name, snippet, match
 * ([start, end) in the snippet's JSON characters), cut_before,
 * cut_after}; else "YYYY-MM-DD HH:MM  CHAT  WHO: " and the snippet
 * (cli_put_snippet(), marks as there).  chat and who are the names to
 * print (raw: sanitized here); all borrowed.
 */
void	cli_put_hit(struct buf *b, const struct store_search_hit *h,
	    const char *chat, const char *who, bool json, bool marks);

/* Write b and a newline to stdout and empty b.  Returns false when the
 * write failed (the caller's exit status CLI_WRITE). */
bool	cli_write_line(struct buf *b);

#endif
