/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-out.c -- the subcommands' output (src/cli-out.h): text from the
 * network made inert for a terminal, JSON strings, times, and the line
 * written to stdout.
 */
#include "base/compat.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/jid.h"
#include "base/sanitize.h"
#include "src/cli-out.h"
#include "store/store.h"
#include "store/store-search.h"

/* Append s, NUL-terminated. */
void
cli_put(struct buf *b, const char *s)
{
	buf_append(b, s, strlen(s));
}

void
cli_putf(struct buf *b, const char *fmt, ...)
{
	char	 tmp[256];
	va_list	 ap;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n > 0)
		buf_append(b, tmp, (size_t)n < sizeof(tmp) ? (size_t)n :
		    sizeof(tmp) - 1);
}

/* Text from the network, inert on a terminal, on one line. */
void
cli_put_text(struct buf *b, const char *p, size_t len)
{
	wc_sanitize(p, len, false, b);
	b->len--;	/* its NUL */
}

void
cli_put_lines(struct buf *b, const char *p, size_t len, size_t indent)
{
	struct buf	 t = BUF_INIT;
	size_t		 i, k;

	wc_sanitize(p, len, true, &t);
	for (i = 0; i + 1 < t.len; i++) {	/* not its NUL */
		buf_push(b, t.p[i]);
		for (k = 0; t.p[i] == '\n' && k < indent; k++)
			buf_push(b, ' ');
	}
	buf_release(&t);
}

/* Code point c as JSON's \uXXXX, two of them (UTF-16) above U+FFFF. */
static void
json_escape_cp(struct buf *b, uint32_t c)
{
	if (c > 0xFFFF) {
		c -= 0x10000;
		cli_putf(b, "\\u%04x\\u%04x", (unsigned)(0xD800 + (c >> 10)),
		    (unsigned)(0xDC00 + (c & 0x3FF)));
	} else
		cli_putf(b, "\\u%04x", (unsigned)c);
}

/*
 * A JSON string of p[0..len): valid UTF-8, controls escaped.  Returns
 * the byte length of the UTF-8 a JSON reader decodes (for offsets).
 */
size_t
cli_json_chars(struct buf *b, const char *p, size_t len)
{
	const unsigned char	*u = (const unsigned char *)p;
	size_t			 i = 0, n, out = 0;
	uint32_t		 c;

	while (i < len) {
		if ((n = wc_utf8_seq(u + i, len - i, &c)) == 0) {
			cli_put(b, "\\ufffd");
			out += 3;
			i++;
			continue;
		}
		if (c == '"' || c == '\\') {
			buf_push(b, '\\');
			buf_push(b, (uint8_t)c);
		} else if (c == '\n')
			cli_put(b, "\\n");
		else if (c == '\t')
			cli_put(b, "\\t");
		else if (wc_unsafe_cp(c) || wc_invisible_cp(c))
			json_escape_cp(b, c);
		else
			buf_append(b, u + i, n);
		out += n;
		i += n;
	}
	return out;
}

void
cli_json_str(struct buf *b, const char *key, const char *p, size_t len)
{
	cli_putf(b, ",\"%s\":\"", key);
	cli_json_chars(b, p, len);
	buf_push(b, '"');
}

void
cli_json_s(struct buf *b, const char *key, const char *s)
{
	cli_json_str(b, key, s, strlen(s));
}

/* Time ts_ms: "YYYY-MM-DD HH:MM" local (text) or ISO 8601 UTC (JSON). */
void
cli_put_time(struct buf *b, int64_t ts_ms, bool utc)
{
	time_t		 t = (time_t)(ts_ms / 1000);
	struct tm	 tm;
	char		 s[40];

	if ((utc ? gmtime_r(&t, &tm) : localtime_r(&t, &tm)) == NULL) {
		cli_put(b, "?");
		return;
	}
	if (utc)
		strftime(s, sizeof(s), "%Y-%m-%dT%H:%M:%SZ", &tm);
	else
		strftime(s, sizeof(s), "%Y-%m-%d %H:%M", &tm);
	cli_put(b, s);
}

void
cli_put_marks(struct buf *b, bool json, int64_t pinned, int64_t muted_until,
    bool archived, bool marked_unread, int64_t now_ms)
{
	bool	 muted = muted_until == -1 || muted_until > now_ms;

	if (json) {
		cli_putf(b, ",\"pinned\":%s,\"archived\":%s,\"muted\":%s,"
		    "\"muted_until\":%lld,\"marked_unread\":%s",
		    pinned != 0 ? "true" : "false", archived ? "true" : "false",
		    muted ? "true" : "false", (long long)muted_until,
		    marked_unread ? "true" : "false");
		return;
	}
	if (marked_unread)
		cli_put(b, " [marked unread]");
	if (pinned != 0)
		cli_put(b, " [pinned]");
	if (muted_until == -1)
		cli_put(b, " [muted always]");
	else if (muted) {
		cli_put(b, " [muted until ");
		cli_put_time(b, muted_until, false);
		cli_put(b, "]");
	}
	if (archived)
		cli_put(b, " [archived]");
}

bool
cli_write_line(struct buf *b)
{
	bool	 ok;

	buf_push(b, '\n');
	ok = fwrite(b->p, 1, b->len, stdout) == b->len;
	b->len = 0;
	return ok;
}

/*
 * A group message's text[0..len) as the screen shows it, into out (with
 * no NUL): each "@DIGITS" (5 to 20 digits, not followed by another) of a
 * person whose name is known (PN or LID: name_of(arg, JID, buf, size) puts
 * it, or "" when none, in buf) as "@Name"; the others as they are.  Raw
 * text: the caller sanitises it as it prints it.
 */
void
cli_named_mentions(const char *text, size_t len,
    void (*name_of)(void *, const char *, char *, size_t), void *arg,
    struct buf *out)
{
	char	 jid[64], name[256];
	size_t	 done = 0, off, n;
	int	 k;

	while (jid_next_mention(text, len, done, &off, &n)) {
		name[0] = '\0';
		for (k = 0; k < 2 && name[0] == '\0'; k++) {
			snprintf(jid, sizeof(jid), "%.*s@%s", (int)n,
			    text + off, k == 0 ? "s.whatsapp.net" : "lid");
			name_of(arg, jid, name, sizeof(name));
		}
		buf_append(out, text + done, off - done);
		if (name[0] != '\0')
			buf_append(out, name, strlen(name));
		else
			buf_append(out, text + off, n);
		done = off + n;
	}
	buf_append(out, text + done, len - done);
}

void
cli_put_snippet(struct buf *b, const struct store_search_hit *h, bool marks)
{
	if (h->cut_before)
		cli_put(b, "...");
	cli_put_text(b, h->snippet, h->match_start);
	if (marks && h->match_end > h->match_start)
		cli_put(b, "*");
	cli_put_text(b, h->snippet + h->match_start, h->match_end -
	    h->match_start);
	if (marks && h->match_end > h->match_start)
		cli_put(b, "*");
	cli_put_text(b, h->snippet + h->match_end, h->snippet_len -
	    h->match_end);
	if (h->cut_after)
		cli_put(b, "...");
}

/* A hit as JSON: its fields, the snippet and where its match is in it
 * (counted in the JSON's characters). */
static void
put_hit_json(struct buf *b, const struct store_search_hit *h,
    const char *chat, const char *who)
{
	size_t	 a, m;

	cli_put(b, "{\"type\":\"hit\"");
	cli_json_s(b, "chat", h->chat);
	cli_json_s(b, "chat_name", chat);
	cli_json_s(b, "id", h->id);
	cli_putf(b, ",\"rowid\":%lld,\"ts_ms\":%lld", (long long)h->rowid,
	    (long long)h->ts_ms);
	cli_put(b, ",\"time\":\"");
	cli_put_time(b, h->ts_ms, true);
	cli_putf(b, "\",\"from_me\":%s", h->from_me ? "true" : "false");
	cli_json_s(b, "sender", h->sender);
	cli_json_s(b, "sender_name", who);
	cli_put(b, ",\"snippet\":\"");
	a = cli_json_chars(b, h->snippet, h->match_start);
	m = cli_json_chars(b, h->snippet + h->match_start, h->match_end -
	    h->match_start);
	cli_json_chars(b, h->snippet + h->match_end, h->snippet_len -
	    h->match_end);
	cli_putf(b, "\",\"match\":[%zu,%zu]", a, a + m);
	cli_putf(b, ",\"cut_before\":%s,\"cut_after\":%s}", h->cut_before ?
	    "true" : "false", h->cut_after ? "true" : "false");
}

void
cli_put_hit(struct buf *b, const struct store_search_hit *h,
    const char *chat, const char *who, bool json, bool marks)
{
	if (json) {
		put_hit_json(b, h, chat, who);
		return;
	}
	cli_put_time(b, h->ts_ms, false);
	cli_put(b, "  ");
	cli_put_text(b, chat, strlen(chat));
	cli_put(b, "  ");
	cli_put_text(b, who, strlen(who));
	cli_put(b, ": ");
	cli_put_snippet(b, h, marks);
}
