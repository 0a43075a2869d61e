/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli.c -- wachat chats, history, search, export, backup: the database read
 * directly, read-only, while another wachat may be running on it
 * (src/cli.h, doc/wachat.1 SUBCOMMANDS).
 *
 * Text output passes every string that came from the network through
 * wc_sanitize() (single-line), as the screen does.  JSON output is one
 * object per line; its strings are valid UTF-8 (each invalid byte becomes
 * U+FFFD) with every control character, DEL, C1 control, bidirectional
 * control, line separator and invisible character (zero-width space and
 * joiner, BOM, tags, ...: wc_invisible_cp()) escaped as \uXXXX (a
 * surrogate pair above U+FFFF), so a line printed raw to a terminal is
 * inert and shows every hidden character, and a JSON reader gets the
 * text back.  Times:
 * text in local time, JSON as ts_ms and ISO 8601 UTC.  The strings are
 * not marked for translation (po/POTFILES.in does not list this file).
 */
#include "base/compat.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "base/buf.h"
#include "src/cli.h"
#include "src/cli-media.h"
#include "src/cli-out.h"
#include "src/cli-db.h"
#include "src/cli-find.h"
#include "src/conf.h"
#include "base/err.h"
#include "base/notice.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/sanitize.h"
#include "store/store.h"
#include "base/xmalloc.h"

#define LIMIT_DEFAULT	50
#define PAGE		200	/* rows read at a time */

struct cli {
	struct store	*s;
	bool		 json;
	struct buf	 line;
	int		 status;	/* CLI_WRITE once a write failed */
	char		 who[STORE_JID_MAX + 1];	/* sender name cache */
	char		 who_name[STORE_NAME_MAX + 1];
	int64_t		 max_rowid;	/* the highest rowid printed */
	char		 dir[4096];	/* the data dir */
};

/* What the command line says, before the database opens. */
struct cli_args {
	const char	*cmd;		/* the subcommand's name */
	const char	*chat, *format, *data_dir, *file;	/* or NULL */
	const char	*arg;		/* CHAT, or QUERY's words joined */
	int64_t		 since;		/* ms since the epoch */
	bool		 since_set, json, follow, archived, marks;
	long		 limit;
	char		 query[4096];	/* search's words, joined */
};

/* Write the line and start the next. */
static void
flush_line(struct cli *c)
{
	if (!cli_write_line(&c->line))
		c->status = CLI_WRITE;
}

/* ------------------------------------------------------------------ */
/* Names */

/* "+<user>" for a phone-number user JID, else the JID. */
static void
jid_label(const char *jid, char *out, size_t size)
{
	struct jid	 j;

	if (jid_parse(jid, &j) == 0 && j.user_len > 0 && jid_is_pn(jid))
		snprintf(out, size, "+%.*s", (int)(j.server - 1 - jid), jid);
	else
		snprintf(out, size, "%s", jid);
}

static const char *
chat_label(const struct store_chat *ch, char *tmp, size_t size)
{
	if (wc_has_label(ch->name))
		return ch->name;
	if (wc_has_label(ch->contact_name))
		return ch->contact_name;
	if (wc_has_label(ch->push_name))
		return ch->push_name;
	jid_label(ch->jid, tmp, size);
	return tmp;
}

/* The name of user jid (contact name, push name, +number). */
static const char *
user_name(struct cli *c, const char *jid)
{
	struct store_contact	 k;

	if (strcmp(c->who, jid) == 0)
		return c->who_name;
	snprintf(c->who, sizeof(c->who), "%s", jid);
	if (store_contact_get(c->s, jid, &k) == 1 && (wc_has_label(k.name) ||
	    wc_has_label(k.push_name)))
		snprintf(c->who_name, sizeof(c->who_name), "%s",
		    wc_has_label(k.name) ? k.name : k.push_name);
	else
		jid_label(jid, c->who_name, sizeof(c->who_name));
	return c->who_name;
}

/* notice_name_fn of the shell: a person's contact or push name now. */
static void
name_now(void *arg, const char *jid, char *out, size_t len)
{
	struct cli		*c = arg;
	struct store_contact	 k;

	out[0] = '\0';
	if (store_contact_get(c->s, jid, &k) == 1 && (wc_has_label(k.name) ||
	    wc_has_label(k.push_name)))
		snprintf(out, len, "%s", wc_has_label(k.name) ? k.name :
		    k.push_name);
}

/* Who wrote a message: "You" (as the screen says it), the group author,
 * or the 1:1 peer. */
static const char *
sender_name(struct cli *c, const char *chat, bool from_me,
    const char *sender)
{
	if (from_me)
		return "You";
	return user_name(c, sender[0] != '\0' ? sender : chat);
}

/* ------------------------------------------------------------------ */
/* Arguments */

/* A phone number as people write it, as a PN user JID; false if not. */
bool
cli_phone_jid(const char *s, char *out, size_t size)
{
	char	 d[32];
	size_t	 n = 0;

	if (*s == '+')
		s++;
	for (; *s != '\0'; s++) {
		if (strchr(" -()", *s) != NULL)
			continue;
		if (*s < '0' || *s > '9' || n + 1 >= sizeof(d))
			return false;
		d[n++] = *s;
	}
	d[n] = '\0';
	if (n < 5 || d[0] == '0')
		return false;
	return jid_from_phone(d, n, out, size);
}

/* The chat whose JID is exactly jid: 1 (copied to out), 0, or -EIO. */
static int
exact_chat(struct cli *c, const char *jid, char out[STORE_JID_MAX + 1])
{
	struct store_chat_list	 l;
	int			 rc;

	if ((rc = store_chat_find(c->s, jid, 1, &l)) != 0)
		return rc;
	rc = l.n > 0 && strcmp(l.chats[0].jid, jid) == 0;
	if (rc == 1)
		snprintf(out, STORE_JID_MAX + 1, "%s", jid);
	store_chat_list_free(&l);
	return rc;
}

static void
say_no_chat(const char *arg)
{
	struct buf	 b = BUF_INIT;

	cli_put_text(&b, arg, strnlen(arg, 200));
	buf_push(&b, '\0');
	fprintf(stderr, "wachat: no chat '%s'\n", (char *)b.p);
	buf_release(&b);
}

/*
 * The chat arg names, its JID in out: a JID names that chat; a phone
 * number its PN chat, else the chat of its LID (protocol.md 5.3); else a
 * unique name.  Returns an exit status.
 */
static int
resolve_chat(struct cli *c, const char *arg, char out[STORE_JID_MAX + 1])
{
	struct store_chat_list	 l;
	char			 jid[STORE_JID_MAX + 1], lid[STORE_JID_MAX + 1];
	char			 tmp[STORE_JID_MAX + 2];
	struct buf		 b = BUF_INIT;
	const char		*name;
	size_t			 i;
	int			 rc;

	if (strlen(arg) > STORE_NAME_MAX) {
		say_no_chat(arg);
		return CLI_NOT_FOUND;
	}
	if (cli_phone_jid(arg, jid, sizeof(jid)) || strchr(arg, '@') != NULL) {
		if (strchr(arg, '@') != NULL)
			snprintf(jid, sizeof(jid), "%s", arg);
		if ((rc = exact_chat(c, jid, out)) == 0 &&
		    (rc = store_lid_get_lid(c->s, jid, lid)) == 1)
			rc = exact_chat(c, lid, out);
		if (rc < 0)
			goto dberr;
		if (rc == 0)
			say_no_chat(arg);
		return rc == 1 ? CLI_OK : CLI_NOT_FOUND;
	}
	if ((rc = store_chat_find(c->s, arg, 20, &l)) != 0)
		goto dberr;
	if (l.n == 1) {
		snprintf(out, STORE_JID_MAX + 1, "%s", l.chats[0].jid);
		store_chat_list_free(&l);
		return CLI_OK;
	}
	if (l.n == 0) {
		say_no_chat(arg);
		store_chat_list_free(&l);
		return CLI_NOT_FOUND;
	}
	cli_put_text(&b, arg, strlen(arg));
	buf_push(&b, '\0');
	fprintf(stderr, "wachat: '%s' names %s%zu chats; name one by its "
	    "JID:\n", (char *)b.p, l.more ? "more than " : "", l.n);
	for (i = 0; i < l.n; i++) {
		name = chat_label(&l.chats[i], tmp, sizeof(tmp));
		b.len = 0;
		cli_put(&b, "  ");
		cli_put_text(&b, name, strlen(name));
		cli_put(&b, "  ");
		cli_put_text(&b, l.chats[i].jid, strlen(l.chats[i].jid));
		buf_push(&b, '\0');
		fprintf(stderr, "%s\n", (char *)b.p);
	}
	buf_release(&b);
	store_chat_list_free(&l);
	return CLI_AMBIGUOUS;
dberr:
	fprintf(stderr, "wachat: cannot read the chats: %s\n",
	    wc_strerror(rc));
	return CLI_DB;
}

int
cli_chat_jid(struct store *s, const char *arg, char *out, size_t size)
{
	struct cli	 c;
	char		 jid[STORE_JID_MAX + 1];
	int		 status;

	memset(&c, 0, sizeof(c));
	c.s = s;
	if ((status = resolve_chat(&c, arg, jid)) == CLI_OK)
		snprintf(out, size, "%s", jid);
	buf_release(&c.line);
	return status;
}


static bool
parse_count(const char *s, long *out)
{
	char	*end;
	long	 v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0' || v < 0 || v > 100000000)
		return false;
	*out = v;
	return true;
}

/* ------------------------------------------------------------------ */
/* The subcommands */

static int
cmd_chats(struct cli *c, const struct cli_args *args, const char *jid)
{
	struct store_chat_list	 l;
	char			 tmp[STORE_JID_MAX + 2], words[512];
	int			 rc, a;
	size_t			 i, nshown = 0;
	int64_t			 now = (int64_t)time(NULL) * 1000;
	bool			 unread = strcmp(args->cmd, "unread") == 0;

	(void)jid;
	/* chats: those not archived, or with --archived the archived ones;
	 * unread: both, the archived ones marked */
	for (a = 0; a < 2; a++) {
		if (!unread && (a == 1) != args->archived)
			continue;
		if ((rc = store_chat_list(c->s, a == 1, 1000000, &l)) != 0) {
			fprintf(stderr, "wachat: cannot read the chats: %s\n",
			    wc_strerror(rc));
			return CLI_DB;
		}
		for (i = 0; i < l.n; i++) {
			const struct store_chat	*ch = &l.chats[i];
			const char		*name = chat_label(ch, tmp,
						    sizeof(tmp));
			const char		*text = ch->last_deleted ?
						    "(message deleted)" :
						    ch->last_text;

			if (unread && ch->unread == 0 && !ch->marked_unread)
				continue;	/* unread, or marked so */
			nshown++;
			if (!ch->last_deleted &&
			    ch->last_kind == STORE_MSG_NOTICE &&
			    notice_group_words(ch->last_text, name_now, c,
			    words, sizeof(words)) == 1)
				text = words;
			else if (!ch->last_deleted &&
			    ch->last_kind == STORE_MSG_NOTICE &&
			    notice_text_words(ch->last_text,
			    ch->last_sender != NULL && ch->last_sender[0] !=
			    '\0' ? user_name(c, ch->last_sender) : "", words,
			    sizeof(words)) == 1)
				text = words;

			if (c->json) {
				cli_put(&c->line, "{\"type\":\"chat\"");
				cli_json_s(&c->line, "jid", ch->jid);
				cli_json_s(&c->line, "name", name);
				cli_putf(&c->line, ",\"last_ms\":%lld",
				    (long long)ch->last_ms);
				if (ch->last_ms > 0) {
					cli_put(&c->line, ",\"time\":\"");
					cli_put_time(&c->line, ch->last_ms, true);
					cli_put(&c->line, "\"");
				} else
					cli_put(&c->line, ",\"time\":null");
				cli_putf(&c->line, ",\"unread\":%d", ch->unread);
				cli_put_marks(&c->line, true, ch->pinned,
				    ch->muted_until, ch->archived,
				    ch->marked_unread, now);
				cli_json_s(&c->line, "last_text", text);
				buf_push(&c->line, '}');
			} else {
				if (ch->last_ms > 0)
					cli_put_time(&c->line, ch->last_ms, false);
				else
					cli_put(&c->line, "                ");
				cli_put(&c->line, "  ");
				cli_put_text(&c->line, name, strlen(name));
				cli_put(&c->line, " <");
				cli_put_text(&c->line, ch->jid, strlen(ch->jid));
				cli_put(&c->line, ">");
				if (ch->unread > 0)
					cli_putf(&c->line, " [%d unread]",
					    ch->unread);
				cli_put_marks(&c->line, false, ch->pinned,
				    ch->muted_until, ch->archived,
				    ch->marked_unread, now);
				if (text[0] != '\0') {
					cli_put(&c->line, ": ");
					cli_put_text(&c->line, text, strlen(text));
				}
			}
			flush_line(c);
		}
		store_chat_list_free(&l);
	}
	if (nshown == 0 && unread && !c->json)
		fprintf(stderr, "wachat: no unread messages\n");
	return c->status;
}

/* The name of user jid, "You" for "" (ours: a quote's author, a
 * reaction's sender), as the screen says it. */
static const char *
name_or_me(struct cli *c, const char *jid)
{
	return jid[0] == '\0' ? "You" : user_name(c, jid);
}

/* A typed notice row m (base/notice.h) in the user's language into
 * out[len]: true, or false when its text says it. */
static bool
notice_said(struct cli *c, const struct store_msg *m, char *out, size_t len)
{
	enum ev_notice	 kind;
	uint32_t	 device;

	if (m->kind != STORE_MSG_NOTICE)
		return false;
	if (notice_group_words(m->text, name_now, c, out, len) == 1)
		return true;	/* a group's line, its people named now */
	notice_parse(m->text, &kind, &device);
	return notice_words(kind, device, m->sender[0] != '\0' ?
	    user_name(c, m->sender) : "", out, len) == 1;
}

/* m's text, its lines after the first indented, a group's mentions by
 * name (cli_named_mentions()). */
static void
put_text(struct cli *c, const struct store_msg *m, size_t indent)
{
	struct buf	 t = BUF_INIT;

	if (!jid_is_group(m->chat) ||
	    memchr(m->text, '@', m->text_len) == NULL) {
		cli_put_lines(&c->line, m->text, m->text_len, indent);
		return;
	}
	cli_named_mentions(m->text, m->text_len, name_now, c, &t);
	cli_put_lines(&c->line, (const char *)t.p, t.len, indent);
	buf_release(&t);
}

/* What a message line says after its sender (its next lines under the
 * name, after the time). */
static void
put_body(struct cli *c, const struct store_msg *m, bool seconds)
{
	char	 words[512];
	bool	 media = cli_media_or_rich(c->s, m, false, seconds ? 21 :
		    18, &c->line);

	if (media)
		return;	/* its words, file and caption */
	if (m->kind == STORE_MSG_MEDIA)
		cli_put(&c->line, "[media] ");
	else if (m->kind == STORE_MSG_PLACEHOLDER)
		cli_put(&c->line, "(waiting for this message)");
	else if (m->kind == STORE_MSG_UNSUPPORTED && m->text_len == 0)
		cli_put(&c->line, "(a message this wachat cannot show)");
	if (notice_said(c, m, words, sizeof(words)))
		cli_put_text(&c->line, words, strlen(words));
	else
		put_text(c, m, seconds ? 21 : 18);
}

/* One message line (history, export). */
static void
put_msg(struct cli *c, const struct store_msg *m, bool seconds)
{
	char		 who[sizeof(c->who_name)], words[512];
	size_t		 i;

	/* a notice is wachat's line about the chat, nobody's message */
	snprintf(who, sizeof(who), "%s", m->kind == STORE_MSG_NOTICE ? "*" :
	    sender_name(c, m->chat, m->from_me, m->sender));
	if (m->rowid > c->max_rowid)
		c->max_rowid = m->rowid;
	if (c->json) {
		cli_put(&c->line, "{\"type\":\"message\"");
		cli_json_s(&c->line, "chat", m->chat);
		cli_json_s(&c->line, "id", m->id);
		cli_putf(&c->line, ",\"rowid\":%lld,\"ts_ms\":%lld",
		    (long long)m->rowid, (long long)m->ts_ms);
		cli_put(&c->line, ",\"time\":\"");
		cli_put_time(&c->line, m->ts_ms, true);
		cli_putf(&c->line, "\",\"from_me\":%s", m->from_me ? "true" :
		    "false");
		cli_json_s(&c->line, "sender", m->sender);
		cli_json_s(&c->line, "sender_name", who);
		cli_json_s(&c->line, "kind", cli_kind_name(m->kind));
		if (cli_media_or_rich(c->s, m, true, 0, &c->line) &&
		    m->kind == STORE_MSG_RICH)
			;	/* its words and its fields */
		else if (notice_said(c, m, words, sizeof(words)))
			cli_json_s(&c->line, "text", words);
		else
			cli_json_str(&c->line, "text", m->text, m->text_len);
		if (m->quoted_id[0] != '\0') {
			cli_json_s(&c->line, "quoted_id", m->quoted_id);
			cli_json_s(&c->line, "quoted_sender", m->quoted_sender);
			cli_json_s(&c->line, "quoted_sender_name",
			    name_or_me(c, m->quoted_sender));
			cli_json_s(&c->line, "quoted_text", m->quoted_text);
		}
		if (m->nreactions > 0) {
			cli_put(&c->line, ",\"reactions\":[");
			for (i = 0; i < m->nreactions; i++) {
				const struct store_reaction *r =
				    &m->reactions[i];

				cli_put(&c->line, i > 0 ? ",{" : "{");
				cli_put(&c->line, "\"emoji\":\"");
				(void)cli_json_chars(&c->line, r->emoji,
				    strlen(r->emoji));
				cli_put(&c->line, "\"");
				cli_json_s(&c->line, "sender", r->sender);
				cli_json_s(&c->line, "sender_name",
				    name_or_me(c, r->sender));
				cli_put(&c->line, "}");
			}
			cli_put(&c->line, "]");
		}
		cli_putf(&c->line, ",\"edited_ms\":%lld,\"deleted\":%s}",
		    (long long)m->edited_ms, m->deleted ? "true" : "false");
		flush_line(c);
		return;
	}
	if (seconds) {
		time_t		 t = (time_t)(m->ts_ms / 1000);
		struct tm	 tm;
		char		 s[32];

		if (localtime_r(&t, &tm) != NULL &&
		    strftime(s, sizeof(s), "%Y-%m-%d %H:%M:%S", &tm) > 0)
			cli_put(&c->line, s);
	} else
		cli_put_time(&c->line, m->ts_ms, false);
	cli_put(&c->line, "  ");
	cli_put_text(&c->line, who, strlen(who));
	cli_put(&c->line, ": ");
	if (m->quoted_id[0] != '\0' && !m->deleted) {
		const char	*q = name_or_me(c, m->quoted_sender);

		cli_put(&c->line, "[reply to ");
		cli_put_text(&c->line, q, strlen(q));
		if (m->quoted_text[0] != '\0') {
			cli_put(&c->line, ": \"");
			cli_put_text(&c->line, m->quoted_text,
			    strlen(m->quoted_text));
			cli_put(&c->line, "\"");
		}
		cli_put(&c->line, "] ");
	}
	if (m->deleted)
		cli_put(&c->line, "(message deleted)");
	else {
		put_body(c, m, seconds);
		if (m->edited_ms != 0)
			cli_put(&c->line, " (edited)");
		for (i = 0; i < m->nreactions; i++) {
			const struct store_reaction	*r = &m->reactions[i];
			const char			*n = name_or_me(c,
							    r->sender);

			cli_put(&c->line, i == 0 ? " [" : ", ");
			cli_put_text(&c->line, r->emoji, strlen(r->emoji));
			cli_put(&c->line, " ");
			cli_put_text(&c->line, n, strlen(n));
		}
		if (m->nreactions > 0)
			cli_put(&c->line, "]");
	}
	flush_line(c);
}

/* Print the chat's messages from just after (ts, rowid), oldest first,
 * up to limit (0: all).  Returns an exit status. */
static int
print_from(struct cli *c, const char *jid, int64_t ts, int64_t rowid,
    long limit, bool seconds)
{
	struct store_msg_page	 p;
	long			 done = 0;
	size_t			 i, max;
	int			 rc;

	for (;;) {
		max = limit == 0 || limit - done > PAGE ? PAGE :
		    (size_t)(limit - done);
		if ((rc = store_msg_page_after(c->s, jid, ts, rowid, max,
		    &p)) != 0) {
			fprintf(stderr, "wachat: cannot read the messages: "
			    "%s\n", wc_strerror(rc));
			return CLI_DB;
		}
		for (i = 0; i < p.n && c->status == CLI_OK; i++)
			put_msg(c, &p.msgs[i], seconds);
		done += (long)p.n;
		if (p.n > 0) {
			ts = p.msgs[p.n - 1].ts_ms;
			rowid = p.msgs[p.n - 1].rowid;
		}
		i = p.n;
		store_msg_page_free(&p);
		if (i < max || (limit != 0 && done >= limit) ||
		    c->status != CLI_OK)
			break;
	}
	return c->status;
}

/* ------------------------------------------------------------------ */
/* history --follow */

#define FOLLOW_POLL_MS	200	/* between two looks at the database */
#define FOLLOW_PAGE	100	/* rows printed at a time */

static volatile sig_atomic_t	 follow_stop;

static void
on_stop(int sig)
{
	(void)sig;
	follow_stop = 1;
}


/*
 * After the history, the chat's messages as they are stored, from just
 * after rowid cursor, until SIGINT or SIGTERM (CLI_OK then) or an
 * error: every FOLLOW_POLL_MS one PRAGMA data_version, and a read of
 * the rows stored since only when another connection committed.
 */
static int
follow(struct cli *c, const char *jid, int64_t cursor,
    const struct cli_db_look *opened)
{
	struct sigaction	 sa, old_int, old_term;
	struct store_msg_page	 p;
	struct store		*s2;
	struct cli_db_look		 was = *opened, now;
	int64_t			 ver = -1, v;
	bool			 more = true;
	size_t			 i;
	int			 rc, status = CLI_OK;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: the nap ends */
	sigemptyset(&sa.sa_mask);
	follow_stop = 0;
	(void)sigaction(SIGINT, &sa, &old_int);
	(void)sigaction(SIGTERM, &sa, &old_term);
	if (c->max_rowid > cursor)
		cursor = c->max_rowid;
	if (fflush(stdout) != 0)
		status = CLI_WRITE;
	while (status == CLI_OK && !follow_stop) {
		if (!more)
			cli_nap(FOLLOW_POLL_MS);
		if (follow_stop)
			break;
		cli_db_look(c->dir, &now);
		if (cli_db_look_changed(&was, &now) &&
		    store_open_ro(c->dir, &s2, NULL) == 0) {
			/* (no WAL any more, as it was: look again next time) */
			store_close(c->s);
			c->s = s2;
			was = now;
			ver = -1;
		}
		if ((rc = store_data_version(c->s, &v)) != 0)
			goto dberr;
		if (v == ver && !more)
			continue;
		ver = v;
		if ((rc = store_msg_stored_after(c->s, jid, cursor,
		    FOLLOW_PAGE, &p)) != 0)
			goto dberr;
		for (i = 0; i < p.n && c->status == CLI_OK; i++)
			put_msg(c, &p.msgs[i], false);
		if (p.n > 0)
			cursor = p.msgs[p.n - 1].rowid;
		more = p.more;
		store_msg_page_free(&p);
		if (c->status != CLI_OK || fflush(stdout) != 0)
			status = CLI_WRITE;
	}
	(void)sigaction(SIGINT, &old_int, NULL);
	(void)sigaction(SIGTERM, &old_term, NULL);
	return status;
dberr:
	fprintf(stderr, "wachat: cannot read the messages: %s\n",
	    wc_strerror(rc));
	(void)sigaction(SIGINT, &old_int, NULL);
	(void)sigaction(SIGTERM, &old_term, NULL);
	return CLI_DB;
}

/* The history as asked, then (--follow) what comes. */
static int	history(struct cli *, const struct cli_args *, const char *);

static int
cmd_history(struct cli *c, const struct cli_args *a, const char *jid)
{
	struct cli_db_look	 opened;
	int64_t		 cursor = 0;
	int		 rc, status;

	cli_db_look(c->dir, &opened);
	if (a->follow && (rc = store_msg_last_rowid(c->s, &cursor)) != 0) {
		fprintf(stderr, "wachat: cannot read the messages: %s\n",
		    wc_strerror(rc));
		return CLI_DB;
	}
	if ((status = history(c, a, jid)) != CLI_OK || !a->follow)
		return status;
	return follow(c, jid, cursor, &opened);
}

static int
history(struct cli *c, const struct cli_args *a, const char *jid)
{
	struct store_msg_page	 p;
	int64_t			 ts = INT64_MIN, rowid = INT64_MIN;
	long			 seen = 0, limit = a->limit;
	size_t			 max;
	bool			 more;
	int			 rc;

	if (a->since_set)
		return print_from(c, jid, a->since - 1, INT64_MAX, limit,
		    false);
	if (limit == 0)
		return print_from(c, jid, INT64_MIN, INT64_MIN, 0, false);
	/* The newest limit: walk back to the oldest of them, then print
	 * forward from just before it. */
	for (;;) {
		max = limit - seen > PAGE ? PAGE : (size_t)(limit - seen);
		rc = seen == 0 ? store_msg_page_newest(c->s, jid, max, &p) :
		    store_msg_page_before(c->s, jid, ts, rowid, max, &p);
		if (rc != 0) {
			fprintf(stderr, "wachat: cannot read the messages: "
			    "%s\n", wc_strerror(rc));
			return CLI_DB;
		}
		if (p.n > 0) {
			ts = p.msgs[0].ts_ms;
			rowid = p.msgs[0].rowid;
		}
		seen += (long)p.n;
		more = p.more && seen < limit;
		store_msg_page_free(&p);
		if (!more)
			break;
	}
	if (seen == 0)
		return CLI_OK;
	return print_from(c, jid, ts, rowid - 1, limit, false);
}

/* Whether q holds a letter or digit (any byte of a non-ASCII character
 * counts: the index's tokenizer decides what it is), so that a search
 * of punctuation alone is a usage error, not "no hit". */
static bool
has_word(const char *q)
{
	for (; *q != '\0'; q++)
		if ((unsigned char)*q >= 0x80 || isalnum((unsigned char)*q))
			return true;
	return false;
}

static int	usage_error(const char *, const char *);

/* search's filters (src/cli-find.h) into f, its words into q; the chat
 * and the person in in_jid and from_jid.  Returns an exit status. */
static int
search_filters(struct cli *c, const struct cli_args *args,
    struct cli_query *q, struct store_search_filter *f,
    char in_jid[STORE_JID_MAX + 1], char from_jid[STORE_JID_MAX + 1])
{
	int	 rc;

	if (!cli_query_parse(args->arg, q))
		return CLI_USAGE;
	if (!has_word(q->words) && !q->starred)
		return usage_error(args->cmd, "QUERY has no word to search "
		    "for (filters narrow a search for words)");
	f->starred = q->starred;
	if (q->in[0] != '\0') {
		if ((rc = resolve_chat(c, q->in, in_jid)) != CLI_OK)
			return rc;
		f->chat = in_jid;
	}
	if (q->from[0] != '\0') {
		if ((rc = cli_find_person(c->s, q->from, from_jid)) != CLI_OK)
			return rc;
		f->sender = from_jid;
	}
	f->since_ms = q->since_ms;
	f->until_ms = q->until_ms;
	return CLI_OK;
}

static int
cmd_search(struct cli *c, const struct cli_args *args, const char *jid)
{
	static struct cli_query		 q;
	struct store_search_filter	 f;
	struct store_search_result	 r;
	char				 in_jid[STORE_JID_MAX + 1];
	char				 from_jid[STORE_JID_MAX + 1];
	long				 limit = args->limit;
	size_t				 i;
	int				 rc;
	/* *word* on a terminal, in a pipe only when asked: the text as is */
	bool				 marks = args->marks ||
					    isatty(STDOUT_FILENO);

	memset(&f, 0, sizeof(f));
	f.chat = jid;
	if ((rc = search_filters(c, args, &q, &f, in_jid, from_jid)) !=
	    CLI_OK)
		return rc;
	if (limit == 0 || limit > STORE_SEARCH_MAX)
		limit = STORE_SEARCH_MAX;
	if ((rc = store_search(c->s, q.words, &f, (size_t)limit,
	    &r)) != 0) {
		fprintf(stderr, "wachat: cannot search: %s\n", rc == -EINVAL ?
		    "the query is too long" : wc_strerror(rc));
		return rc == -EINVAL ? CLI_USAGE : CLI_DB;
	}
	for (i = 0; i < r.n && c->status == CLI_OK; i++) {
		const struct store_search_hit	*h = &r.hits[i];
		const char			*who = sender_name(c, h->chat,
						    h->from_me, h->sender);
		char				 tmp[STORE_JID_MAX + 2];
		const char			*chat = h->chat_name;

		if (chat[0] == '\0') {
			jid_label(h->chat, tmp, sizeof(tmp));
			chat = tmp;
		}
		cli_put_hit(&c->line, h, chat, who, c->json, marks);
		flush_line(c);
	}
	if (r.n == 0 && !c->json)
		fprintf(stderr, "wachat: no message matches%s\n", f.starred &&
		    !has_word(q.words) ? " (none is starred)" : "");
	if (r.more && !c->json && c->status == CLI_OK)
		fprintf(stderr, "wachat: more messages match (--limit, or more "
		    "words)\n");
	rc = r.n == 0 ? CLI_NOT_FOUND : c->status;
	store_search_free(&r);
	return rc;
}

/* ------------------------------------------------------------------ */
/* The command line */

#define GO_ON	(-1)	/* an argument step passed: on to the next */

static int
usage_error(const char *cmd, const char *why)
{
	fprintf(stderr, "wachat %s: %s (wachat --help lists the "
	    "subcommands)\n", cmd, why);
	return CLI_USAGE;
}

/* The options that do more than keep their value: each takes the value
 * (NULL for a flag) and returns GO_ON or the exit status to stop with. */
static int
opt_json(struct cli_args *a, const char *v)
{
	(void)v;
	a->json = true;
	return GO_ON;
}

static int
opt_archived(struct cli_args *a, const char *v)
{
	(void)v;
	a->archived = true;
	return GO_ON;
}

static int
opt_follow(struct cli_args *a, const char *v)
{
	(void)v;
	a->follow = true;
	return GO_ON;
}

static int
opt_marks(struct cli_args *a, const char *v)
{
	(void)v;
	a->marks = true;
	return GO_ON;
}

static int
opt_since(struct cli_args *a, const char *v)
{
	if (!cli_parse_date(v, &a->since))
		return usage_error(a->cmd, "--since: not a date "
		    "(YYYY-MM-DD or ISO 8601)");
	a->since_set = true;
	return GO_ON;
}

static int
opt_limit(struct cli_args *a, const char *v)
{
	if (!parse_count(v, &a->limit))
		return usage_error(a->cmd, "--limit: not a count");
	return GO_ON;
}

static int
opt_help(struct cli_args *a, const char *v)
{
	(void)a;
	(void)v;
	cli_usage(stdout);
	return fflush(stdout) == 0 ? CLI_OK : CLI_WRITE;
}

#define KEEP(f)	NULL, offsetof(struct cli_args, f)
static const struct cli_opt {
	const char	*name;
	int		 has_arg;
	int		 val;		/* getopt_long's answer for it */
	int		(*fn)(struct cli_args *, const char *);
	size_t		 keep;		/* no fn: the value goes there */
} OPTS[] = {
	{ "json", no_argument, 'j', opt_json, 0 },
	{ "follow", no_argument, 'F', opt_follow, 0 },
	{ "archived", no_argument, 'A', opt_archived, 0 },
	{ "marks", no_argument, 'm', opt_marks, 0 },
	{ "since", required_argument, 's', opt_since, 0 },
	{ "limit", required_argument, 'l', opt_limit, 0 },
	{ "chat", required_argument, 'c', KEEP(chat) },
	{ "format", required_argument, 'f', KEEP(format) },
	{ "data-dir", required_argument, 'd', KEEP(data_dir) },
	{ "config", required_argument, 'C', KEEP(file) },
	{ "help", no_argument, 'h', opt_help, 0 },	/* also -h */
};
#undef KEEP
#define NOPTS	(sizeof(OPTS) / sizeof(OPTS[0]))

/* Read the options of argv into a; GO_ON or an exit status. */
static int
parse_options(struct cli_args *a, int argc, char **argv)
{
	struct option	 opts[NOPTS + 1];
	size_t		 i;
	int		 ch, status;

	for (i = 0; i < NOPTS; i++)
		opts[i] = (struct option){ OPTS[i].name, OPTS[i].has_arg,
		    NULL, OPTS[i].val };
	opts[NOPTS] = (struct option){ NULL, 0, NULL, 0 };
	optind = 1;
	while ((ch = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		for (i = 0; i < NOPTS && OPTS[i].val != ch; i++)
			continue;
		if (i == NOPTS) {
			fprintf(stderr, "wachat %s: wachat --help lists the "
			    "subcommands and their options\n", a->cmd);
			return CLI_USAGE;
		}
		if (OPTS[i].fn == NULL)
			memcpy((char *)a + OPTS[i].keep, &optarg,
			    sizeof(optarg));
		else if ((status = OPTS[i].fn(a, optarg)) != GO_ON)
			return status;
	}
	return GO_ON;
}

/* The arguments after the options, argv[first..argc), for each kind of
 * subcommand; GO_ON or an exit status. */
static int
args_none(struct cli_args *a, int first, int argc, char **argv)
{
	(void)argv;
	if (first != argc)
		return usage_error(a->cmd, "takes no argument");
	return GO_ON;
}

static int
args_chat(struct cli_args *a, int first, int argc, char **argv)
{
	if (first + 1 != argc)
		return usage_error(a->cmd, "takes one CHAT");
	a->arg = argv[first];
	return GO_ON;
}

/* [CHAT] */
static int
args_chat_opt(struct cli_args *a, int first, int argc, char **argv)
{
	return first == argc ? GO_ON : args_chat(a, first, argc, argv);
}

/* The words of QUERY, quoted as one or not. */
static int
args_query(struct cli_args *a, int first, int argc, char **argv)
{
	size_t	 n = 0, l;
	int	 i;

	if (first >= argc)
		return usage_error(a->cmd, "takes a QUERY");
	for (i = first; i < argc; i++) {
		const char	*colon = strchr(argv[i], ':');
		bool		 quote;

		l = strlen(argv[i]);
		/* from:"Ana María" came as one argument without its quotes */
		quote = colon != NULL && cli_query_is_filter(argv[i]) &&
		    strchr(argv[i], ' ') != NULL &&
		    strchr(argv[i], '"') == NULL && colon[1] != '\0';
		if (n + l + 4 > sizeof(a->query))
			return usage_error(a->cmd, "QUERY is too long");
		if (i > first)
			a->query[n++] = ' ';
		if (quote) {
			l = (size_t)(colon - argv[i]) + 1;
			memcpy(a->query + n, argv[i], l);
			n += l;
			a->query[n++] = '"';
			l = strlen(colon + 1);
			memcpy(a->query + n, colon + 1, l);
			a->query[n + l] = '"';
			n++;
		} else
			memcpy(a->query + n, argv[i], l);
		n += l;
	}
	a->query[n] = '\0';
	a->arg = a->query;
	if (!has_word(a->arg))
		return usage_error(a->cmd, "QUERY has no word to search for");
	return GO_ON;
}

/* backup: the one FILE to write. */
static int
args_file(struct cli_args *a, int first, int argc, char **argv)
{
	if (first + 1 != argc)
		return usage_error(a->cmd, "takes one FILE");
	a->arg = argv[first];
	return GO_ON;
}

static int
cmd_backup(struct cli *c, const struct cli_args *a, const char *jid)
{
	(void)jid;
	return cli_backup(c->s, a->arg);
}

/* starred [CHAT]: search's is:starred, in the chat jid or all. */
static int
cmd_starred(struct cli *c, const struct cli_args *a, const char *jid)
{
	struct cli_args	 b = *a;

	b.arg = "is:starred";
	return cmd_search(c, &b, jid);
}

/* export: every message of the chat jid. */
static int
cmd_export(struct cli *c, const struct cli_args *a, const char *jid)
{
	(void)a;
	return print_from(c, jid, INT64_MIN, INT64_MIN, 0, true);
}

/* The subcommands: each runs on the open database with the JID of the
 * chat it names (NULL for none) and returns an exit status. */
static const struct cli_cmd {
	const char	*name;
	int		(*args)(struct cli_args *, int, int, char **);
	int		(*run)(struct cli *, const struct cli_args *,
			    const char *);
	bool		 arg_is_chat;		/* CHAT, or --chat CHAT */
	bool		 since, chat, format;	/* takes that option */
} CMDS[] = {
	{ "chats", args_none, cmd_chats, false, false, false, false },
	{ "unread", args_none, cmd_chats, false, false, false, false },
	{ "history", args_chat, cmd_history, true, true, false, false },
	{ "search", args_query, cmd_search, false, false, true, false },
	{ "starred", args_chat_opt, cmd_starred, true, false, false, false },
	{ "export", args_chat, cmd_export, true, false, false, true },
	{ "backup", args_file, cmd_backup, false, false, false, false },
};
#define NCMDS	(sizeof(CMDS) / sizeof(CMDS[0]))

static const struct cli_cmd *
find_cmd(const char *name)
{
	size_t	 i;

	for (i = 0; i < NCMDS; i++)
		if (strcmp(name, CMDS[i].name) == 0)
			return &CMDS[i];
	return NULL;
}

bool
cli_is_command(const char *arg)
{
	return find_cmd(arg) != NULL;
}

/* The options k does not take are refused; export needs its --format
 * (which says whether it writes JSON).  GO_ON or an exit status. */
static int
check_options(const struct cli_cmd *k, struct cli_args *a)
{
	if ((a->since_set && !k->since) || (a->chat != NULL && !k->chat) ||
	    (a->format != NULL && !k->format) ||
	    (a->follow && strcmp(k->name, "history") != 0) ||
	    (a->archived && strcmp(k->name, "chats") != 0) ||
	    (a->marks && strcmp(k->name, "search") != 0))
		return usage_error(a->cmd, "an option of another subcommand");
	if (k->format) {
		if (a->format == NULL)
			a->format = "txt";
		if (strcmp(a->format, "txt") != 0 &&
		    strcmp(a->format, "jsonl") != 0)
			return usage_error(a->cmd, "--format txt or --format "
			    "jsonl");
		a->json = strcmp(a->format, "jsonl") == 0;
	}
	return GO_ON;
}

int
cli_main(int argc, char **argv)
{
	static struct cli_args	 a;
	const struct cli_cmd	*k = find_cmd(argv[0]);
	const char		*chat;
	char			 jid[STORE_JID_MAX + 1];
	struct cli		 c;
	int			 status;

	memset(&a, 0, sizeof(a));
	a.cmd = argv[0];
	a.limit = LIMIT_DEFAULT;
	if ((status = parse_options(&a, argc, argv)) != GO_ON)
		return status;
	if (k == NULL)		/* main.c asked cli_is_command first */
		return usage_error(a.cmd, "not a subcommand");
	if ((status = k->args(&a, optind, argc, argv)) != GO_ON ||
	    (status = check_options(k, &a)) != GO_ON)
		return status;
	memset(&c, 0, sizeof(c));
	c.json = a.json;
	/* What is wrong is said in one line: the store's warnings (said
	 * again in words) stay off stderr, its errors not. */
	(void)log_open(NULL, LOG_ERROR);
	if ((status = cli_open_db_at(a.file, a.data_dir, &c.s, c.dir,
	    sizeof(c.dir))) != CLI_OK)
		return status;
	chat = k->arg_is_chat ? a.arg : a.chat;
	status = chat != NULL ? resolve_chat(&c, chat, jid) : CLI_OK;
	if (status == CLI_OK)
		status = k->run(&c, &a, chat != NULL ? jid : NULL);
	if (status == CLI_DB)
		status = cli_db_failed(c.s);
	store_close(c.s);
	buf_release(&c.line);
	return cli_flush(status);
}
