/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-cmd.c -- the engine side of the commands (src/app-int.h): one
 * table of (command kind, handler), tmux style, and the handlers.  The
 * messaging ones go to the engine's messaging module, whose failures are
 * said as EV_ERROR; the others read the store (src/app-read.c) or steer
 * the engine.  Engine thread.
 */
#include "base/compat.h"

#define LOG_TAG	"eng"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/event.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/eng.h"
#include "proto/poll.h"
#include "src/app-hist.h"
#include "src/app-int.h"
#include "src/evq.h"
#include "store/store.h"

#define eng_log(level, ...) log_write(level, "eng", __func__, __VA_ARGS__)

/* The messaging module, or NULL once the engine is gone. */
static struct wa_dm *
dm_of(struct app *a)
{
	return a->eng != NULL ? wa_eng_dm(a->eng) : NULL;
}

/* NULL for "": the messaging module's "none". */
static const char *
opt(const char *s)
{
	return s[0] != '\0' ? s : NULL;
}

/* ---- messaging: each returns < 0 when it could not be done ---- */

static int
send_text(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_send	*s = &c->u.send;
	bool			 reply = s->quoted_id[0] != '\0';

	if (s->chat[0] == '\0')
		return 0;
	return wa_dm_send_text(dm, s->chat, s->text, opt(s->quoted_id),
	    opt(s->quoted_sender), reply ? s->quoted_text : NULL, NULL);
}

static int
react(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_react	*r = &c->u.react;

	if (r->chat[0] == '\0')
		return 0;
	return r->id[0] != '\0' ? wa_dm_send_reaction(dm, r->chat, r->id,
	    r->target_from_me, r->emoji) : -EINVAL;
}

/* The chat's disappearing-messages timer (issue 20). */
static int
ephemeral(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_ephemeral *e = &c->u.ephemeral;

	return e->chat[0] != '\0' ? wa_dm_send_ephemeral(dm, e->chat,
	    e->secs) : 0;
}

static int
mark_read(struct wa_dm *dm, const struct cmd *c)
{
	const char	*chat = c->u.mark_read.chat;

	return chat[0] != '\0' ? wa_dm_mark_read(dm, chat) : 0;
}

static int
typing(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_typing	*t = &c->u.typing;

	return t->chat[0] != '\0' ? wa_dm_typing(dm, t->chat, t->composing) :
	    0;
}

static int
subscribe(struct wa_dm *dm, const struct cmd *c)
{
	const char	*chat = c->u.subscribe.chat;

	return chat[0] != '\0' ? wa_dm_subscribe(dm, chat) : 0;
}

static int
retry(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_msg	*m = &c->u.retry;

	if (m->chat[0] == '\0')
		return 0;
	return m->id[0] != '\0' ? wa_dm_retry(dm, m->chat, m->id) : -EINVAL;
}

/* CMD_RETRY: a message whose upload failed is uploaded again; any other
 * failed message goes back to the outbox. */
static void
retry_any(struct app *a, const struct cmd *c)
{
	const struct cmd_msg	*m = &c->u.retry;
	int			 rc;

	if (m->chat[0] == '\0' || m->id[0] == '\0' || dm_of(a) == NULL)
		return;
	if ((rc = app_upload_retry(a, m->chat, m->id)) == 0)
		rc = retry(dm_of(a), c);
	if (rc == -ENOSPC) {
		app_eng_error(a, _("cannot send the message again: disk full"),
		    rc);
		app_disk_full(a);
	} else if (rc < 0)
		app_eng_error(a, _("the command could not be carried out"), rc);
}

/* CMD_SEND_FILE: refused at once (said), or under way. */
static void
send_file(struct app *a, const struct cmd *c)
{
	const struct cmd_send_file	*f = &c->u.send_file;
	int				 rc;

	if ((rc = app_upload_file(a, f, NULL)) == 0)
		return;
	app_eng_error(a, rc == -EFBIG ? _("the file is larger than "
	    "max-media-size") : rc == -EISDIR ? _("not a file to send") :
	    rc == -ENODATA ? _("the file is empty") : rc == -EACCES ?
	    _("permission denied") : rc == -ENOTCONN ? _("not sent: wachat is stopping") :
	    _("the file cannot be read"), rc);
}

static int
delete_failed(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_msg	*m = &c->u.del;

	if (m->chat[0] == '\0')
		return 0;
	return m->id[0] != '\0' ? wa_dm_delete_failed(dm, m->chat, m->id) :
	    -EINVAL;
}

static int
edit(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_edit	*e = &c->u.edit;

	if (e->chat[0] == '\0')
		return 0;
	return e->id[0] != '\0' ? wa_dm_send_edit(dm, e->chat, e->id,
	    e->text) : -EINVAL;
}

static int
revoke_msg(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_msg	*m = &c->u.revoke;

	if (m->chat[0] == '\0')
		return 0;
	return m->id[0] != '\0' ? wa_dm_send_revoke(dm, m->chat, m->id) :
	    -EINVAL;
}

/* Decline the call that rings (issue 20): the engine sends the reject
 * and writes the call's last line. */
static int
call_reject(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_msg	*m = &c->u.call_reject;

	return wa_dm_call_reject(dm, m->chat, m->id);
}

/* ---- groups (issue 8) ---- */

/*
 * One member as people write it into out: a JID (spaces around it
 * dropped), or a phone number ("+49 151 …": 5 to 20 digits, with spaces,
 * '+', '-', '(', ')', '.', '/') as its PN user JID.  Returns 1, 0 for an
 * empty entry, -EINVAL for anything else.
 */
static int
member_jid(const char *s, char out[JID_MAX])
{
	char	 digits[32];
	size_t	 n, nd = 0, i;

	s += strspn(s, " \t");
	n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	if (n == 0)
		return 0;
	if (memchr(s, '@', n) != NULL) {
		if (n >= JID_MAX)
			return -EINVAL;
		memcpy(out, s, n);
		out[n] = '\0';
		return 1;
	}
	for (i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			if (nd + 1 >= sizeof(digits))
				return -EINVAL;
			digits[nd++] = s[i];
		} else if (strchr(" +-()./", s[i]) == NULL)
			return -EINVAL;
	}
	if (nd < 5 || !jid_from_phone(digits, nd, out, JID_MAX))
		return -EINVAL;
	return 1;
}

/* The members of a group command as JIDs: *v (n of them, pointing into
 * *jids), both freed by the caller.  Returns the count or -EINVAL. */
static int
member_jids(char *const *members, uint32_t nmembers, char (**jids)[JID_MAX],
    const char ***v)
{
	uint32_t	 i;
	int		 n = 0, rc;

	*jids = xcalloc(nmembers + 1, sizeof(**jids));
	*v = xcalloc(nmembers + 1, sizeof(**v));
	if (nmembers > WA_GROUP_MAX_PARTICIPANTS)
		return -EINVAL;
	for (i = 0; i < nmembers; i++) {
		if ((rc = member_jid(members[i], (*jids)[n])) < 0)
			return rc;
		if (rc == 1) {
			(*v)[n] = (*jids)[n];
			n++;
		}
	}
	return n;
}

/* The end of a group command: rc < 0 said as EV_ERROR. */
static void
group_done(struct app *a, int rc)
{
	if (rc < 0)
		app_eng_error(a, _("the command could not be carried out"),
		    rc);
}

/* A command naming members: their JIDs, then run(dm, chat, v, n). */
static void
with_members(struct app *a, const struct cmd *c, const char *chat,
    char *const *members, uint32_t nmembers)
{
	struct wa_dm	*dm = dm_of(a);
	char		(*jids)[JID_MAX] = NULL;
	const char	**v = NULL;
	int		 n, rc;

	if (dm == NULL) {
		group_done(a, -ENOTCONN);
		return;
	}
	if ((n = member_jids(members, nmembers, &jids, &v)) < 0) {
		app_eng_error(a, _("a member is neither a phone number nor a "
		    "JID"), -EINVAL);
		goto out;
	}
	if (c->kind == CMD_GROUP_CREATE)
		rc = wa_dm_group_create(dm, c->u.group_create.subject, v,
		    (size_t)n);
	else if (chat[0] == '\0')
		rc = -EINVAL;
	else
		rc = wa_dm_group_participants(dm, chat, c->kind ==
		    CMD_GROUP_ADD ? WA_GROUP_ADD : WA_GROUP_REMOVE, v,
		    (size_t)n);
	group_done(a, rc);
out:
	free(jids);
	free(v);
}

static void
group_create(struct app *a, const struct cmd *c)
{
	with_members(a, c, "", c->u.group_create.members,
	    c->u.group_create.nmembers);
}

static void
group_add(struct app *a, const struct cmd *c)
{
	with_members(a, c, c->u.group_add.chat, c->u.group_add.members,
	    c->u.group_add.nmembers);
}

static void
group_remove(struct app *a, const struct cmd *c)
{
	with_members(a, c, c->u.group_remove.chat, c->u.group_remove.members,
	    c->u.group_remove.nmembers);
}

static void
group_subject(struct app *a, const struct cmd *c)
{
	const struct cmd_group_subject *g = &c->u.group_subject;
	struct wa_dm	*dm = dm_of(a);

	group_done(a, dm == NULL ? -ENOTCONN : g->chat[0] == '\0' ? -EINVAL :
	    wa_dm_group_subject(dm, g->chat, g->subject));
}

static void
group_leave(struct app *a, const struct cmd *c)
{
	const char	*chat = c->u.group_leave.chat;
	struct wa_dm	*dm = dm_of(a);

	group_done(a, dm == NULL ? -ENOTCONN : chat[0] == '\0' ? -EINVAL :
	    wa_dm_group_leave(dm, chat));
}

static void
group_info(struct app *a, const struct cmd *c)
{
	const char	*chat = c->u.group_info.chat;
	struct wa_dm	*dm = dm_of(a);
	struct ev	*ev;
	int		 rc;

	if (dm == NULL || chat[0] == '\0') {
		group_done(a, dm == NULL ? -ENOTCONN : -EINVAL);
		return;
	}
	/* what the store knows now, then the server's answer */
	if ((ev = app_read_group(a, chat)) != NULL)
		app_eng_send(a, ev);
	rc = wa_dm_group_info(dm, chat);
	group_done(a, rc == -ENOTCONN ? 0 : rc);
}

/* ---- the rest ---- */

static void
quit(struct app *a, const struct cmd *c)
{
	(void)c;
	eng_log(LOG_INFO, "quit asked");
	app_eng_stop(a, "", 0);
}

static void
pair_code(struct app *a, const struct cmd *c)
{
	int	 rc;

	if (a->eng == NULL)
		return;
	rc = wa_eng_pair_code(a->eng, c->u.pair_code.phone);
	if (rc == -EISCONN)	/* linked already: nothing to do */
		eng_log(LOG_INFO, "already linked: no code");
	else if (rc != 0)
		app_eng_error(a, "cannot pair by phone-number code", rc);
}

/* The user's word after the engine went idle (EV_DISCONNECTED idle):
 * start again. */
static void
reconnect(struct app *a, const struct cmd *c)
{
	(void)c;
	if (a->eng == NULL)
		return;
	if (wa_eng_retry(a->eng) != 0)
		eng_log(LOG_INFO, "not idle: nothing to start again");
}

static void
load_chats(struct app *a, const struct cmd *c)
{
	app_read_chats(a, &c->u.load_chats);
}

static void
load_page(struct app *a, const struct cmd *c)
{
	app_read_page(a, &c->u.load_page);
}

static void
search(struct app *a, const struct cmd *c)
{
	app_read_search(a, &c->u.search);
}

/*
 * Ask our phone for the messages of chat older than the oldest stored
 * (on-demand history, protocol.md 12.4).  A refusal is said on the
 * status line.
 */
static void
history_more(struct app *a, const struct cmd *c)
{
	const char	*chat = c->u.history_more.chat;
	struct wa_dm	*dm = dm_of(a);
	int		 rc = -ENOTCONN;

	if (chat[0] == '\0')
		return;
	if (dm != NULL)
		rc = app_hist_request_older(a->store, dm, chat);
	if (rc != 0) {
		struct ev	*ev = ev_new(EV_ERROR);

		eng_log(LOG_WARN, "older history not asked: %s",
		    wc_strerror(rc));
		/* with its chat: the screen stops waiting for an answer */
		ev_set(&ev->u.error.what, _("cannot ask the phone for older "
		    "messages"));
		ev->u.error.err = rc;
		ev_set(&ev->u.error.chat, chat);
		app_eng_send(a, ev);
	}
}

/* A chat's setting the store could not keep, said on the status line:
 * full on a full disk, else plain. */
static void
not_kept(struct app *a, int rc, const char *full, const char *plain)
{
	app_eng_error(a, rc == -ENOSPC ? full : plain, rc);
}

/* Chat's peek mode, in the store (the chat list gives it back). */
static void
peek(struct app *a, const struct cmd *c)
{
	const struct cmd_peek	*p = &c->u.peek;
	int			 rc;

	if (p->chat[0] != '\0' && a->store != NULL &&
	    (rc = store_chat_set_peek(a->store, p->chat, p->on)) != 0)
		not_kept(a, rc, _("cannot keep peek: disk full"),
		    _("cannot keep peek"));
}

/* Keep the input line the user left unsent in a chat (its draft), or
 * clear it: the store gives it back with the chat list at the next
 * start. */
static void
draft(struct app *a, const struct cmd *c)
{
	const struct cmd_draft	*d = &c->u.draft;
	int			 rc;

	if (d->chat[0] != '\0' && a->store != NULL &&
	    (rc = store_chat_set_draft(a->store, d->chat, d->text)) != 0)
		not_kept(a, rc, _("cannot keep the draft: disk full"),
		    _("cannot keep the draft"));
}

/* Our vote on a poll: its option numbers ("1,3") read. */
static int
poll_vote(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_poll_vote	*p = &c->u.poll_vote;
	unsigned			 picks[WA_POLL_READ_MAX];
	const char			*s = p->picks;
	char				*e;
	unsigned long			 v;
	size_t				 n = 0;

	while (*s != '\0') {
		v = strtoul(s, &e, 10);
		if (e == s || v == 0 || v > WA_POLL_READ_MAX ||
		    n == WA_POLL_READ_MAX || (*e != ',' && *e != '\0'))
			return -EINVAL;
		picks[n++] = (unsigned)v;
		s = *e == ',' ? e + 1 : e;
	}
	return wa_dm_send_poll_vote(dm, p->chat, p->id, picks, n);
}

/* A poll of ours: its options, each ended by a newline, read. */
static int
poll_new(struct wa_dm *dm, const struct cmd *c)
{
	const struct cmd_poll_new	*p = &c->u.poll_new;
	const char			*opts[WA_POLL_OPTIONS_MAX + 1];
	char				*copy = xstrdup(p->options), *s, *nl;
	size_t				 n = 0;
	int				 rc;

	for (s = copy; *s != '\0' && n <= WA_POLL_OPTIONS_MAX; s = nl + 1) {
		if ((nl = strchr(s, '\n')) == NULL)
			nl = s + strlen(s) - 1;	/* the last, unended */
		else
			*nl = '\0';
		opts[n++] = s;
	}
	rc = n > WA_POLL_OPTIONS_MAX ? -EINVAL : wa_dm_send_poll(dm, p->chat,
	    p->question, opts, n, p->multi, NULL);
	free(copy);
	return rc;
}

/* ---- the table ---- */

typedef int	(*dm_fn)(struct wa_dm *, const struct cmd *);
typedef void	(*app_fn)(struct app *, const struct cmd *);

/* One handler per kind: dm for a messaging command (nothing when the
 * engine is gone; a failure said as EV_ERROR), else app. */
static const struct {
	dm_fn		 dm;
	app_fn		 app;
} handlers[] = {
	[CMD_QUIT] =		{ NULL, quit },
	[CMD_PAIR_CODE] =	{ NULL, pair_code },
	[CMD_SEND] =		{ send_text, NULL },
	[CMD_REACT] =		{ react, NULL },
	[CMD_MARK_READ] =	{ mark_read, NULL },
	[CMD_TYPING] =		{ typing, NULL },
	[CMD_SUBSCRIBE] =	{ subscribe, NULL },
	[CMD_RETRY] =		{ NULL, retry_any },
	[CMD_DELETE] =		{ delete_failed, NULL },
	[CMD_EDIT] =		{ edit, NULL },
	[CMD_REVOKE] =		{ revoke_msg, NULL },
	[CMD_LOAD_CHATS] =	{ NULL, load_chats },
	[CMD_LOAD_PAGE] =	{ NULL, load_page },
	[CMD_GROUP_CREATE] =	{ NULL, group_create },
	[CMD_GROUP_SUBJECT] =	{ NULL, group_subject },
	[CMD_GROUP_ADD] =	{ NULL, group_add },
	[CMD_GROUP_REMOVE] =	{ NULL, group_remove },
	[CMD_GROUP_LEAVE] =	{ NULL, group_leave },
	[CMD_GROUP_INFO] =	{ NULL, group_info },
	[CMD_SEARCH] =		{ NULL, search },
	[CMD_HISTORY_MORE] =	{ NULL, history_more },
	[CMD_RECONNECT] =	{ NULL, reconnect },
	[CMD_DRAFT] =		{ NULL, draft },
	[CMD_PEEK] =		{ NULL, peek },
	[CMD_CHAT_ACT] =	{ NULL, app_chat_act },
	[CMD_SEND_FILE] =	{ NULL, send_file },
	[CMD_MEDIA_GET] =	{ NULL, app_media_get },
	[CMD_FORWARD] =		{ NULL, app_forward },
	[CMD_EPHEMERAL] =	{ ephemeral, NULL },
	[CMD_CALL_REJECT] =	{ call_reject, NULL },
	[CMD_PROFILE] =		{ NULL, app_profile },
	[CMD_BLOCK] =		{ NULL, app_block },
	[CMD_POLL_VOTE] =	{ poll_vote, NULL },
	[CMD_POLL_NEW] =	{ poll_new, NULL },
	[CMD_MSG_INFO] =	{ NULL, app_msg_info },
};
_Static_assert(sizeof(handlers) / sizeof(handlers[0]) == CMD_KIND_MAX + 1,
    "one handler per command kind");

/* c could not be carried out: EV_ERROR with what and rc; a send's text
 * goes back with it, to its chat's input line, so that the user need
 * not type it again (the screen may have cleared it before the store
 * refused it). */
static void
refused(struct app *a, const struct cmd *c, const char *what, int rc)
{
	struct ev	*ev = ev_new(EV_ERROR);

	ev_set(&ev->u.error.what, what);
	ev->u.error.err = rc;
	if (c->kind == CMD_SEND) {
		ev_set(&ev->u.error.chat, c->u.send.chat);
		ev_set(&ev->u.error.unsent, c->u.send.text);
	}
	app_eng_send(a, ev);
}

/* Whether commands of kind k come from the screen itself (opening a
 * chat, typing), not from a key that asked for them. */
static bool
implicit(enum cmd_kind k)
{
	return k == CMD_MARK_READ || k == CMD_TYPING || k == CMD_SUBSCRIBE;
}

/* What a messaging command of kind k could not do for a full disk, in
 * the user's words (each of handlers[]'s dm ones). */
static const char *
full_words(enum cmd_kind k)
{
	switch (k) {
	case CMD_SEND:
	case CMD_EDIT:
		return _("not sent: disk full");
	case CMD_REACT:
		return _("cannot send the reaction: disk full");
	case CMD_POLL_VOTE:
		return _("cannot send the vote: disk full");
	case CMD_POLL_NEW:
		return _("cannot send the poll: disk full");
	case CMD_MARK_READ:
		return _("cannot mark the chat read: disk full");
	case CMD_TYPING:
		return _("cannot say that you are typing: disk full");
	case CMD_SUBSCRIBE:
		return _("cannot follow the contact's presence: disk full");
	case CMD_RETRY:
		return _("cannot send the message again: disk full");
	case CMD_DELETE:
		return _("cannot delete the message: disk full");
	case CMD_REVOKE:
		return _("cannot delete the message for everyone: disk full");
	default:
		return _("not done: disk full");
	}
}

/* What a messaging command of kind k that failed with rc did not do. */
static const char *
fail_words(enum cmd_kind k, int rc)
{
	if (k != CMD_CALL_REJECT)
		return _("the command could not be carried out");
	if (rc == -ENOENT)
		return _("the call is over");
	if (rc == -ENOTCONN)
		return _("not connected: the call cannot be declined");
	return _("the call could not be declined");
}

static void
run(struct app *a, const struct cmd *c)
{
	struct wa_dm	*dm;
	int		 rc;

	if ((unsigned)c->kind > CMD_KIND_MAX || app_prof_refuse_send(a, c))
		return;
	if (handlers[c->kind].app != NULL) {
		handlers[c->kind].app(a, c);
		return;
	}
	if ((dm = dm_of(a)) == NULL)
		return;
	if ((rc = handlers[c->kind].dm(dm, c)) == -ENOSPC) {
		/* nothing was stored: said, and offline until there is
		 * room (src/app-disk.c); what the screen does by itself as
		 * the user moves (marks read, typing, presence) is not said
		 * over the status line's "disk full" */
		if (implicit(c->kind))
			log_info("%s", full_words(c->kind));
		else
			refused(a, c, full_words(c->kind), rc);
		app_disk_full(a);
	} else if (rc < 0)
		refused(a, c, fail_words(c->kind, rc), rc);
}

void
app_cmd_ready(struct evq *q, void *arg)
{
	struct app	*a = arg;
	struct cmd	*c;

	while (!a->stopping && (c = evq_pop(q)) != NULL) {
		run(a, c);
		cmd_free(c);
	}
}
