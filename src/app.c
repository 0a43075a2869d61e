/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app.c -- the composition root (src/app.h): the engine thread with
 * the store and the engine, the main thread with the plain-text front
 * end, and the two queues between them (src/evq.h).
 */
#include "base/compat.h"

/* Lines from the main thread are tagged "ui", the engine thread's "eng". */
#define LOG_TAG	"ui"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uv.h>

#include "src/app-dm.h"
#include "src/app-hist.h"
#include "src/app-store.h"
#include "src/app.h"
#include "base/buf.h"
#include "src/conf.h"
#include "proto/crypto.h"
#include "proto/eng.h"
#include "base/err.h"
#include "base/sysrand.h"
#include "base/event.h"
#include "src/evq.h"
#include "base/i18n.h"
#include "base/log.h"
#include "ui/qr.h"
#include "ui/screen.h"
#include "base/sanitize.h"
#include "store/store.h"
#include "base/xmalloc.h"

#define eng_log(level, ...) log_write(level, "eng", __func__, __VA_ARGS__)

struct app {
	const struct conf	*conf;
	struct ui_view_opts	 view;		/* the chat screen's settings */

	/* Main thread. */
	uv_loop_t		 ui_loop;
	uv_signal_t		 sigint, sigterm;
	struct ui_screen	*screen;	/* curses, or NULL: lines */
	uv_poll_t		 keys;		/* stdin, with screen */
	uv_signal_t		 sigwinch;	/* with screen */
	uv_timer_t		 tick;		/* countdowns, with screen */
	int			 saved_err;	/* stderr under the screen, or -1 */
	struct evq		 events;	/* engine -> main */
	uv_thread_t		 thread;
	bool			 quit_sent;	/* CMD_QUIT pushed */
	bool			 stopped;	/* EV_STOPPED seen */
	bool			 draw_qr;	/* stdout is a terminal */
	int			 status;	/* exit status */

	/* Engine thread (set up by the main thread before it starts). */
	uv_loop_t		 eng_loop;
	struct evq		 cmds;		/* main -> engine */
	struct store		*store;
	struct wa_store_ops	 ops;
	struct wa_signal_store_ops sig_ops;
	struct wa_dm_store_ops	 dm_ops;
	struct wa_hsync_store_ops hs_ops;
	struct wa_eng		*eng;
	char			 own_user[128];	/* our PN user JID, once
						 * connected */
	int			 lock_fd;	/* the data dir's lock, or -1 */
	bool			 stopping;	/* the engine is being shut */
	char			*stop_text;	/* EV_STOPPED's text, or NULL */
	char			*last_words;	/* said on stderr once the screen
					 * is gone: why wachat stopped by
					 * itself, or NULL */
	int			 stop_err;	/* EV_STOPPED's err */
};

static void
free_ev(void *p)
{
	ev_free(p);
}

static void
free_cmd(void *p)
{
	cmd_free(p);
}

/* ---- the engine thread ---- */

/* Send ev to the main thread (taking ownership). */
static void
send_ev(struct app *a, struct ev *ev)
{
	(void)evq_push(&a->events, ev);
}

/*
 * Stop the engine: free it, close the command queue; the engine loop then
 * runs out of handles.  text and err go out with EV_STOPPED.  Engine
 * thread; the first call wins.
 */
static void
stop(struct app *a, const char *text, int err)
{
	if (a->stopping)
		return;
	a->stopping = true;
	a->stop_text = xstrdup(text);
	a->stop_err = err;
	wa_eng_free(a->eng);
	a->eng = NULL;
	evq_close(&a->cmds);
}

static void
on_eng_event(void *arg, const struct wa_eng_ev *e)
{
	struct app	*a = arg;
	struct ev	*ev = NULL;

	switch (e->kind) {
	case WA_ENG_EV_CONNECTING:
		ev = ev_new(EV_CONNECTING, e->text);
		ev->num = e->num;
		break;
	case WA_ENG_EV_QR:
		ev = ev_new(EV_QR, e->text);
		ev->secs = e->secs;
		break;
	case WA_ENG_EV_PAIRED:
		ev = ev_new(EV_PAIRED, e->text);
		break;
	case WA_ENG_EV_CONNECTED:
		ev = ev_new(EV_CONNECTED, e->text);
		snprintf(a->own_user, sizeof(a->own_user), "%.*s@%s",
		    (int)strcspn(e->text, ":@"), e->text,
		    strchr(e->text, '@') != NULL ? strchr(e->text, '@') + 1 :
		    "s.whatsapp.net");
		break;
	case WA_ENG_EV_PREKEYS_STORED:
	case WA_ENG_EV_PREKEYS_SENT:
	case WA_ENG_EV_PREKEYS_UPLOADED:
	case WA_ENG_EV_PREKEY_COUNT:
		eng_log(LOG_INFO, "prekeys: event %d, %" PRIu32
		    " keys from id %" PRIu32, (int)e->kind, e->num, e->id);
		break;
	case WA_ENG_EV_QR_REFRESH:
		eng_log(LOG_INFO, "the server retired the QR's ADV secret");
		break;
	case WA_ENG_EV_PAIR_CODE:
		ev = ev_new(EV_PAIR_CODE, e->text);
		break;
	case WA_ENG_EV_VERSION:
		eng_log(LOG_INFO, "failure 405: logging in again as version %s",
		    e->text);
		break;
	case WA_ENG_EV_DISCONNECTED:
		ev = ev_new(EV_DISCONNECTED, e->text);
		ev->err = e->err;
		ev->retry_ms = e->retry_ms;
		break;
	case WA_ENG_EV_LOGGED_OUT:
		ev = ev_new(EV_LOGGED_OUT, e->text);
		ev->err = e->err;
		send_ev(a, ev);
		stop(a, "", WC_ELOGGEDOUT);
		return;
	case WA_ENG_EV_STOPPED:
		stop(a, e->text, e->err != 0 ? e->err : -ECANCELED);
		return;
	case WA_ENG_EV_ERROR:
		ev = ev_new(EV_ERROR, e->text);
		ev->err = e->err;
		break;
	}
	if (ev != NULL)
		send_ev(a, ev);
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* History sync's events, for the main thread (engine thread). */
static void
on_hsync_event(void *arg, const struct wa_hsync_ev *e)
{
	struct app	*a = arg;
	struct ev	*ev;

	ev = ev_new(EV_HISTORY, e->kind == WA_HSYNC_EV_FAILED ? e->why : NULL);
	ev->state = e->kind == WA_HSYNC_EV_PROGRESS ? 0 :
	    e->kind == WA_HSYNC_EV_FAILED ? 1 : 2;
	ev->num = e->progress;
	ev->secs = (uint32_t)e->count;
	ev->err = e->err;
	send_ev(a, ev);
}

/* A group member's or author's name (engine thread); "" unknown. */
static char *
sender_name(struct app *a, const char *jid)
{
	char	 name[1100];

	if (app_dm_name(a->store, jid, name, sizeof(name)) != 1)
		name[0] = '\0';
	return xstrdup(name);
}

/* EV_GROUP for group, read from the store (engine thread); NULL when the
 * group is unknown. */
static struct ev *
group_ev(struct app *a, const char *group)
{
	struct store_group	 g;
	struct ev		*ev;
	size_t			 i;

	if (store_group_get(a->store, group, &g) != 1)
		return NULL;
	ev = ev_new(EV_GROUP, g.subject);
	ev->chat = xstrdup(group);
	ev->aux = xstrdup(g.description);
	ev->num = g.left ? 1 : 0;
	ev->members = xcalloc(g.n + 1, sizeof(*ev->members));
	for (i = 0; i < g.n; i++) {
		struct ev_member	*m = &ev->members[i];
		const char		*pn = strstr(g.members[i].alt,
					    "@s.whatsapp.net") != NULL ?
					    g.members[i].alt : g.members[i].jid;

		m->jid = xstrdup(pn);
		m->alt = xstrdup(pn == g.members[i].alt ? g.members[i].jid :
		    g.members[i].alt);
		m->name = sender_name(a, g.members[i].jid);
		m->admin = g.members[i].admin;
		m->is_me = a->own_user[0] != '\0' &&
		    (strcmp(g.members[i].jid, a->own_user) == 0 ||
		    strcmp(g.members[i].alt, a->own_user) == 0);
	}
	ev->nmembers = g.n;
	store_group_release(&g);
	return ev;
}

/*
 * Take the data dir's lock (DIR/lock, 0600, flock exclusive, kept while
 * wachat runs).  Returns 0, -EWOULDBLOCK when another process holds it,
 * or -errno.
 */
static int
lock_data_dir(struct app *a, const char *dir)
{
	size_t	 len = strlen(dir) + 8;
	char	*path = xmalloc(len);
	int	 fd, rc = 0;

	snprintf(path, len, "%s/lock", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(path);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		rc = errno == EWOULDBLOCK ? -EWOULDBLOCK : -errno;
		(void)close(fd);
		return rc;
	}
	a->lock_fd = fd;
	return 0;
}

/* The messaging module's events, as events for the main thread. */
static void
on_dm_event(void *arg, const struct wa_dm_ev *e)
{
	struct app	*a = arg;
	struct ev	*ev;
	enum ev_kind	 k = EV_MESSAGE;

	switch (e->kind) {
	case WA_DM_EV_MESSAGE:		k = EV_MESSAGE; break;
	case WA_DM_EV_STATE:		k = EV_MSG_STATE; break;
	case WA_DM_EV_CHANGED:		k = EV_MSG_CHANGED; break;
	case WA_DM_EV_REACTION:		k = EV_REACTION; break;
	case WA_DM_EV_TYPING:		k = EV_TYPING; break;
	case WA_DM_EV_PRESENCE:		k = EV_PRESENCE; break;
	case WA_DM_EV_SEND_FAILED:	k = EV_SEND_FAILED; break;
	case WA_DM_EV_ERROR:		k = EV_ERROR; break;
	case WA_DM_EV_GROUP:
		if (e->chat != NULL && (ev = group_ev(a, e->chat)) != NULL) {
			ev->num = e->state != 0;
			send_ev(a, ev);
		}
		return;
	}
	ev = ev_new(k, e->text);
	ev->chat = dup_or_null(e->chat);
	ev->id = dup_or_null(e->id);
	ev->sender = dup_or_null(e->sender);
	ev->quoted_id = dup_or_null(e->quoted_id);
	ev->state = e->state;
	ev->from_me = e->from_me;
	ev->notice = e->notice;
	ev->deleted = e->kind == WA_DM_EV_CHANGED && e->text == NULL;
	ev->err = e->err;
	ev->ts_ms = e->ts_ms;
	if (k == EV_MESSAGE && e->sender != NULL && e->sender[0] != '\0' &&
	    e->chat != NULL && strstr(e->chat, "@g.us") != NULL)
		ev->sender_name = sender_name(a, e->sender);
	send_ev(a, ev);
}

/* A messaging command for the engine's messaging module. */
static void
dm_cmd(struct app *a, const struct cmd *c)
{
	struct wa_dm	*dm = a->eng != NULL ? wa_eng_dm(a->eng) : NULL;
	struct ev	*ev;
	int		 rc = -ENOTCONN;

	if (dm == NULL || c->chat == NULL)
		return;
	switch (c->kind) {
	case CMD_SEND:
		rc = wa_dm_send_text(dm, c->chat, c->arg, c->id, c->aux,
		    c->quoted, NULL);
		break;
	case CMD_REACT:
		rc = c->id != NULL ? wa_dm_send_reaction(dm, c->chat, c->id,
		    c->flag != 0, c->arg) : -EINVAL;
		break;
	case CMD_MARK_READ:
		rc = wa_dm_mark_read(dm, c->chat);
		break;
	case CMD_TYPING:
		rc = wa_dm_typing(dm, c->chat, c->flag != 0);
		break;
	case CMD_SUBSCRIBE:
		rc = wa_dm_subscribe(dm, c->chat);
		break;
	case CMD_RETRY:
		rc = c->id != NULL ? wa_dm_retry(dm, c->chat, c->id) : -EINVAL;
		break;
	case CMD_EDIT:
		rc = c->id != NULL && c->arg != NULL ? wa_dm_send_edit(dm,
		    c->chat, c->id, c->arg) : -EINVAL;
		break;
	case CMD_REVOKE:
		rc = c->id != NULL ? wa_dm_send_revoke(dm, c->chat, c->id) :
		    -EINVAL;
		break;
	case CMD_DELETE:
		rc = c->id != NULL ? wa_dm_delete_failed(dm, c->chat, c->id) :
		    -EINVAL;
		break;
	case CMD_QUIT:
	case CMD_PAIR_CODE:
	case CMD_LOAD_CHATS:
	case CMD_LOAD_PAGE:
	case CMD_GROUP_CREATE:
	case CMD_GROUP_SUBJECT:
	case CMD_GROUP_ADD:
	case CMD_GROUP_REMOVE:
	case CMD_GROUP_LEAVE:
	case CMD_GROUP_INFO:
	case CMD_HISTORY_MORE:
	case CMD_SEARCH:
		return;
	}
	if (rc < 0) {
		ev = ev_new(EV_ERROR, _("the command could not be carried out"));
		ev->err = rc;
		send_ev(a, ev);
	}
}

#define PAGE_DEFAULT	50
#define CHATS_MAX	1000

/* "👍 2  ❤️" from a row's reactions (one per sender). */
static char *
reaction_summary(const struct store_msg *m)
{
	struct buf	 b = BUF_INIT;
	size_t		 i, j, n;
	bool		 seen;

	for (i = 0; i < m->nreactions; i++) {
		seen = false;
		for (j = 0; j < i && !seen; j++)
			seen = strcmp(m->reactions[j].emoji,
			    m->reactions[i].emoji) == 0;
		if (seen)
			continue;
		for (n = 0, j = i; j < m->nreactions; j++)
			n += strcmp(m->reactions[j].emoji,
			    m->reactions[i].emoji) == 0;
		if (b.len > 0)
			buf_append(&b, "  ", 2);
		buf_append(&b, m->reactions[i].emoji,
		    strlen(m->reactions[i].emoji));
		if (n > 1) {
			char	 num[24];

			snprintf(num, sizeof(num), " %zu", n);
			buf_append(&b, num, strlen(num));
		}
	}
	buf_push(&b, '\0');
	return (char *)b.p;
}

/* EV_CHATS from the store (engine thread). */
static void
load_chats(struct app *a, const struct cmd *c)
{
	struct store_chat_list	 l;
	struct ev		*ev;
	size_t			 i, max = c->flag > 0 && c->flag <= CHATS_MAX ?
				    (size_t)c->flag : CHATS_MAX;
	int			 rc;

	memset(&l, 0, sizeof(l));
	if ((rc = store_chat_list(a->store, false, max, &l)) != 0) {
		ev = ev_new(EV_ERROR, _("cannot read the chat list"));
		ev->err = rc;
		send_ev(a, ev);
		return;
	}
	ev = ev_new(EV_CHATS, NULL);
	ev->chats = xcalloc(l.n > 0 ? l.n : 1, sizeof(*ev->chats));
	ev->nchats = l.n;
	ev->more = l.more;
	for (i = 0; i < l.n; i++) {
		const struct store_chat	*sc = &l.chats[i];
		struct ev_chat		*ec = &ev->chats[i];

		ec->jid = xstrdup(sc->jid);
		ec->name = xstrdup(sc->contact_name[0] != '\0' ?
		    sc->contact_name : sc->name[0] != '\0' ? sc->name :
		    sc->push_name);
		ec->preview = xstrdup(sc->last_text);
		ec->last_ms = sc->last_ms;
		ec->unread = sc->unread;
		ec->muted = sc->muted_until != 0;
		ec->pinned = sc->pinned != 0;
		ec->last_from_me = sc->last_from_me;
		ec->last_state = sc->last_state;
		ec->last_kind = sc->last_kind;
		ec->last_deleted = sc->last_deleted;
		ec->last_sender = xstrdup(!sc->last_from_me &&
		    strstr(sc->jid, "@g.us") != NULL ? sc->last_sender : "");
		ec->last_sender_name = !sc->last_from_me &&
		    sc->last_sender[0] != '\0' && strstr(sc->jid, "@g.us") !=
		    NULL ? sender_name(a, sc->last_sender) : xstrdup("");
	}
	store_chat_list_free(&l);
	send_ev(a, ev);
}

/* EV_PAGE of chat from page p (engine thread): num, more as given. */
static struct ev *
page_ev(struct app *a, const char *chat, const struct store_msg_page *p,
    int num, bool more)
{
	struct ev		*ev;
	size_t			 i;

	ev = ev_new(EV_PAGE, NULL);
	ev->chat = xstrdup(chat);
	ev->num = (uint32_t)num;
	ev->more = more;
	ev->msgs = xcalloc(p->n > 0 ? p->n : 1, sizeof(*ev->msgs));
	ev->nmsgs = p->n;
	for (i = 0; i < p->n; i++) {
		const struct store_msg	*m = &p->msgs[i];
		struct ev_msg		*em = &ev->msgs[i];

		em->rowid = m->rowid;
		em->id = xstrdup(m->id);
		em->sender = xstrdup(m->sender);
		em->sender_name = m->sender[0] != '\0' ?
		    sender_name(a, m->sender) : xstrdup("");
		em->from_me = m->from_me;
		em->ts_ms = m->ts_ms;
		em->kind = m->kind;
		em->text = xmalloc(m->text_len + 1);
		memcpy(em->text, m->text, m->text_len);
		em->text[m->text_len] = '\0';
		em->quoted_id = xstrdup(m->quoted_id);
		em->quoted_sender = xstrdup(m->quoted_sender);
		em->quoted_text = xstrdup(m->quoted_text);
		em->state = m->state;
		em->edited_ms = m->edited_ms;
		em->deleted = m->deleted;
		em->reactions = reaction_summary(m);
	}
	return ev;
}

/*
 * EV_PAGE num 2: the message of rowid aux in chat with max / 2 rows on
 * each side (a search hit, in context; engine thread), with whether
 * older and newer rows are left.
 */
static void
load_around(struct app *a, const struct cmd *c, size_t max)
{
	struct store_msg_page	 p, q;
	struct ev		*ev;
	long long		 rowid = 0;
	bool			 before = false, after = false;
	int			 rc;

	memset(&p, 0, sizeof(p));
	memset(&q, 0, sizeof(q));
	if (c->aux == NULL || sscanf(c->aux, "%lld", &rowid) != 1)
		rc = -EINVAL;
	else
		rc = store_msg_page_around(a->store, c->chat, rowid, max / 2,
		    max / 2, &p);
	if (rc == 0 && p.n > 0) {
		/* one row each way says whether more are left */
		if ((rc = store_msg_page_before(a->store, c->chat,
		    p.msgs[0].ts_ms, p.msgs[0].rowid, 1, &q)) == 0)
			before = q.n > 0;
		store_msg_page_free(&q);
		if (rc == 0 && (rc = store_msg_page_after(a->store, c->chat,
		    p.msgs[p.n - 1].ts_ms, p.msgs[p.n - 1].rowid, 1, &q)) == 0)
			after = q.n > 0;
		store_msg_page_free(&q);
	}
	if (rc != 0) {
		store_msg_page_free(&p);
		ev = ev_new(EV_ERROR, _("cannot read the messages"));
		ev->err = rc;
		send_ev(a, ev);
		return;
	}
	ev = page_ev(a, c->chat, &p, 2, before);
	ev->more_after = after;
	store_msg_page_free(&p);
	send_ev(a, ev);
}

/* EV_SEARCH answering CMD_SEARCH (engine thread). */
static void
search(struct app *a, const struct cmd *c)
{
	struct store_search_filter f;
	struct store_search_result r;
	struct ev		*ev;
	size_t			 i, max = c->flag > 0 && c->flag <=
				    STORE_SEARCH_MAX ? (size_t)c->flag : 50;
	int			 rc;

	memset(&f, 0, sizeof(f));
	memset(&r, 0, sizeof(r));
	f.chat = c->chat;
	f.sender = c->aux;
	f.since_ms = c->since_ms;
	f.until_ms = c->until_ms;
	if ((rc = store_search(a->store, c->arg, &f, max, &r)) != 0) {
		ev = ev_new(EV_ERROR, _("cannot search the messages"));
		ev->err = rc;
		send_ev(a, ev);
		return;
	}
	ev = ev_new(EV_SEARCH, c->arg);
	ev->more = r.more || r.truncated;
	ev->hits = xcalloc(r.n > 0 ? r.n : 1, sizeof(*ev->hits));
	ev->nhits = r.n;
	for (i = 0; i < r.n; i++) {
		const struct store_search_hit	*h = &r.hits[i];
		struct ev_hit			*e = &ev->hits[i];

		e->rowid = h->rowid;
		e->chat = xstrdup(h->chat);
		e->chat_name = xstrdup(h->chat_name);
		e->id = xstrdup(h->id);
		e->sender = xstrdup(h->sender);
		e->sender_name = h->sender[0] != '\0' ?
		    sender_name(a, h->sender) : xstrdup("");
		e->from_me = h->from_me;
		e->ts_ms = h->ts_ms;
		e->snippet = xmalloc(h->snippet_len + 1);
		memcpy(e->snippet, h->snippet, h->snippet_len);
		e->snippet[h->snippet_len] = '\0';
		e->match_start = h->match_start;
		e->match_end = h->match_end;
		e->cut_before = h->cut_before;
		e->cut_after = h->cut_after;
	}
	store_search_free(&r);
	send_ev(a, ev);
}

/* EV_PAGE from the store by keyset (engine thread; perf.md U1, U2). */
static void
load_page(struct app *a, const struct cmd *c)
{
	struct store_msg_page	 p;
	struct ev		*ev;
	long long		 ts = 0, rowid = 0;
	unsigned long		 max = PAGE_DEFAULT;
	int			 rc;

	if (c->arg[0] != '\0')
		max = strtoul(c->arg, NULL, 10);
	if (max == 0 || max > STORE_MSG_PAGE_MAX)
		max = PAGE_DEFAULT;
	if (c->flag == 2) {
		load_around(a, c, max);
		return;
	}
	memset(&p, 0, sizeof(p));
	if (c->flag != 0 && (c->aux == NULL ||
	    sscanf(c->aux, "%lld:%lld", &ts, &rowid) != 2))
		rc = -EINVAL;
	else if (c->flag == 0)
		rc = store_msg_page_newest(a->store, c->chat, max, &p);
	else if (c->flag < 0)
		rc = store_msg_page_before(a->store, c->chat, ts, rowid, max,
		    &p);
	else
		rc = store_msg_page_after(a->store, c->chat, ts, rowid, max,
		    &p);
	if (rc != 0) {
		ev = ev_new(EV_ERROR, _("cannot read the messages"));
		ev->err = rc;
		send_ev(a, ev);
		return;
	}
	ev = page_ev(a, c->chat, &p, c->flag, p.more);
	store_msg_page_free(&p);
	send_ev(a, ev);
}

/* Split a list of members ("+49 151 …, 4915…@s.whatsapp.net") into
 * user JIDs in *out (up to max); returns the count, -EINVAL on a bad
 * entry. */
static int
member_jids(const char *list, char (*out)[128], size_t max)
{
	size_t	 n = 0, k;
	const char *p = list;

	while (*p != '\0') {
		char	 digits[32];
		size_t	 nd = 0;
		const char *e;

		while (*p == ',' || *p == ';' || *p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		e = p + strcspn(p, ",;\t");
		if (memchr(p, '@', (size_t)(e - p)) != NULL) {
			k = (size_t)(e - p);
			while (k > 0 && p[k - 1] == ' ')
				k--;
			if (n >= max || k >= sizeof(out[0]))
				return -EINVAL;
			memcpy(out[n], p, k);
			out[n++][k] = '\0';
		} else {
			/* a phone number as people write it */
			for (; p < e; p++) {
				if (*p >= '0' && *p <= '9') {
					if (nd + 1 >= sizeof(digits))
						return -EINVAL;
					digits[nd++] = *p;
				} else if (strchr(" +-()./", *p) == NULL)
					return -EINVAL;
			}
			if (nd < 5 || nd > 20 || n >= max)
				return -EINVAL;
			digits[nd] = '\0';
			snprintf(out[n++], sizeof(out[0]), "%s@s.whatsapp.net",
			    digits);
		}
		p = e;
	}
	return (int)n;
}

/*
 * Ask our phone for the messages of chat older than the oldest stored
 * (on-demand history, protocol.md 12.4; engine thread).  A refusal is
 * said on the status line.
 */
static void
history_more(struct app *a, const char *chat)
{
	struct wa_dm	*dm = a->eng != NULL ? wa_eng_dm(a->eng) : NULL;
	struct ev	*ev;
	int		 rc = -ENOTCONN;

	if (dm != NULL)
		rc = app_hist_request_older(a->store, dm, chat);
	if (rc != 0) {
		eng_log(LOG_WARN, "older history not asked: %s",
		    wc_strerror(rc));
		ev = ev_new(EV_ERROR, _("cannot ask the phone for older "
		    "messages"));
		ev->err = rc;
		send_ev(a, ev);
	}
}

/* A group command (issue 8), carried out by the messaging module. */
static void
group_cmd(struct app *a, const struct cmd *c)
{
	struct wa_dm	*dm = a->eng != NULL ? wa_eng_dm(a->eng) : NULL;
	char		(*jids)[128] = NULL;
	const char	**v = NULL;
	struct ev	*ev;
	int		 rc = -ENOTCONN, n = 0, i;

	if (dm == NULL)
		goto out;
	if (c->kind == CMD_GROUP_CREATE || c->kind == CMD_GROUP_ADD ||
	    c->kind == CMD_GROUP_REMOVE) {
		jids = xcalloc(WA_GROUP_MAX_PARTICIPANTS, sizeof(*jids));
		v = xcalloc(WA_GROUP_MAX_PARTICIPANTS, sizeof(*v));
		n = member_jids(c->kind == CMD_GROUP_CREATE ? (c->aux != NULL ?
		    c->aux : "") : c->arg, jids, WA_GROUP_MAX_PARTICIPANTS);
		if (n < 0) {
			ev = ev_new(EV_ERROR, _("a member is neither a phone "
			    "number nor a JID"));
			ev->err = -EINVAL;
			send_ev(a, ev);
			goto done;
		}
		for (i = 0; i < n; i++)
			v[i] = jids[i];
	}
	switch (c->kind) {
	case CMD_GROUP_CREATE:
		rc = wa_dm_group_create(dm, c->arg, v, (size_t)n);
		break;
	case CMD_GROUP_SUBJECT:
		rc = c->chat != NULL ? wa_dm_group_subject(dm, c->chat,
		    c->arg) : -EINVAL;
		break;
	case CMD_GROUP_ADD:
	case CMD_GROUP_REMOVE:
		rc = c->chat != NULL ? wa_dm_group_participants(dm, c->chat,
		    c->kind == CMD_GROUP_ADD ? WA_GROUP_ADD : WA_GROUP_REMOVE,
		    v, (size_t)n) : -EINVAL;
		break;
	case CMD_GROUP_LEAVE:
		rc = c->chat != NULL ? wa_dm_group_leave(dm, c->chat) :
		    -EINVAL;
		break;
	case CMD_GROUP_INFO:
		if (c->chat == NULL) {
			rc = -EINVAL;
			break;
		}
		/* what the store knows now, then the server's answer */
		if ((ev = group_ev(a, c->chat)) != NULL)
			send_ev(a, ev);
		rc = wa_dm_group_info(dm, c->chat);
		if (rc == -ENOTCONN)
			rc = 0;
		break;
	default:
		rc = -EINVAL;
		break;
	}
out:
	if (rc < 0) {
		ev = ev_new(EV_ERROR, _("the command could not be carried out"));
		ev->err = rc;
		send_ev(a, ev);
	}
done:
	free(jids);
	free(v);
}

/* The command queue's wakeup: drain it. */
static void
on_cmds(struct evq *q, void *arg)
{
	struct app	*a = arg;
	struct cmd	*c;
	struct ev	*ev;
	int		 rc;

	while (!a->stopping && (c = evq_pop(q)) != NULL) {
		switch (c->kind) {
		case CMD_QUIT:
			eng_log(LOG_INFO, "quit asked");
			stop(a, "", 0);
			break;
		case CMD_PAIR_CODE:
			if (a->eng == NULL)
				break;
			rc = wa_eng_pair_code(a->eng, c->arg);
			if (rc == -EISCONN)	/* linked already: nothing to do */
				eng_log(LOG_INFO, "already linked: no code");
			else if (rc != 0) {
				ev = ev_new(EV_ERROR, "cannot pair by "
				    "phone-number code");
				ev->err = rc;
				send_ev(a, ev);
			}
			break;
		case CMD_SEND:
		case CMD_REACT:
		case CMD_MARK_READ:
		case CMD_TYPING:
		case CMD_SUBSCRIBE:
		case CMD_RETRY:
		case CMD_DELETE:
		case CMD_EDIT:
		case CMD_REVOKE:
			dm_cmd(a, c);
			break;
		case CMD_LOAD_CHATS:
			load_chats(a, c);
			break;
		case CMD_LOAD_PAGE:
			if (c->chat != NULL)
				load_page(a, c);
			break;
		case CMD_GROUP_CREATE:
		case CMD_GROUP_SUBJECT:
		case CMD_GROUP_ADD:
		case CMD_GROUP_REMOVE:
		case CMD_GROUP_LEAVE:
		case CMD_GROUP_INFO:
			group_cmd(a, c);
			break;
		case CMD_HISTORY_MORE:
			if (c->chat != NULL)
				history_more(a, c->chat);
			break;
		case CMD_SEARCH:
			search(a, c);
			break;
		}
		cmd_free(c);
	}
}

static void
eng_thread(void *arg)
{
	struct app		*a = arg;
	const struct conf	*c = a->conf;
	struct wa_eng_cfg	 cfg;
	struct ev		*ev;
	int			 rc;

	if ((rc = store_open(c->data_dir, &a->store)) != 0) {
		size_t	 len = strlen(c->data_dir) + 512;
		char	*what = xmalloc(len);

		eng_log(LOG_ERROR, "store_open %s: %s", c->data_dir,
		    wc_strerror(rc));
		if (rc == -EPERM)
			snprintf(what, len, _("the data dir %s (or its "
			    "database) is open to other users: wachat keeps "
			    "keys there and refuses it; chmod 700 the "
			    "directory and 600 its files"), c->data_dir);
		else
			snprintf(what, len, _("cannot open the store in %s"),
			    c->data_dir);
		stop(a, what, rc);	/* said once, as why it stopped */
		free(what);
		goto out;
	}
	/* One wachat per data dir: a second would log in as the same device
	 * and take messages from the first.  The shell commands read
	 * without this lock. */
	if ((rc = lock_data_dir(a, c->data_dir)) != 0) {
		char	 what[600];

		snprintf(what, sizeof(what), rc == -EWOULDBLOCK ?
		    _("another wachat is running with the data dir %s") :
		    _("cannot lock the data dir %s"), c->data_dir);
		stop(a, what, rc);	/* said once, as why it stopped */
		goto out;
	}
	app_store_ops(a->store, &a->ops);
	memset(&cfg, 0, sizeof(cfg));
	cfg.url = c->url;
	cfg.ca_file = c->ca_file;
	cfg.root_pub = c->has_root_key ? c->root_key : NULL;
	cfg.version = c->version;
	cfg.version_url = c->version_url;
	cfg.qr_file = c->qr_file;
	cfg.rng = sys_random;
	cfg.now_ms = sys_now_ms;
	cfg.store = &a->ops;
	cfg.on_event = on_eng_event;
	cfg.ev_arg = a;
	app_store_signal_ops(a->store, &a->sig_ops);
	app_dm_ops(a->store, &a->dm_ops);
	app_hist_ops(a->store, &a->hs_ops);
	cfg.signal_store = &a->sig_ops;
	cfg.dm_store = &a->dm_ops;
	cfg.hsync_store = &a->hs_ops;
	cfg.on_hsync_event = on_hsync_event;
	cfg.hsync_ev_arg = a;
	cfg.on_dm_event = on_dm_event;
	cfg.dm_ev_arg = a;
	cfg.dm.send_read_receipts = c->read_receipts;
	cfg.dm.send_typing = c->send_typing;
	cfg.dm.send_presence = c->send_presence;
	cfg.full_history = c->full_history;
	if ((rc = wa_eng_new(&a->eng_loop, &cfg, &a->eng)) != 0) {
		eng_log(LOG_ERROR, "wa_eng_new: %s", wc_strerror(rc));
		stop(a, "", rc);
		goto out;
	}
	if ((rc = wa_eng_start(a->eng)) != 0) {
		eng_log(LOG_ERROR, "wa_eng_start: %s", wc_strerror(rc));
		stop(a, "", rc);
	}
out:
	uv_run(&a->eng_loop, UV_RUN_DEFAULT);
	/* The loop ran out of handles: the engine and the queue are gone. */
	store_close(a->store);
	if (a->lock_fd >= 0)
		(void)close(a->lock_fd);	/* releases the lock */
	a->lock_fd = -1;
	a->store = NULL;
	if ((rc = uv_loop_close(&a->eng_loop)) != 0) {
		eng_log(LOG_ERROR, "the engine loop has handles left: %s",
		    wc_strerror(rc));
		if (a->stop_err == 0)
			a->stop_err = rc;
	}
	ev = ev_new(EV_STOPPED, a->stop_text);
	ev->err = a->stop_err;
	free(a->stop_text);
	a->stop_text = NULL;
	send_ev(a, ev);	/* the last touch of shared state */
}

/* ---- the main thread ---- */

/* The phone number of a JID ("15550000001:1@s.whatsapp.net"). */
static void
print_number(struct buf *out, const char *jid)
{
	size_t	 n = strcspn(jid, ":@");

	buf_append(out, jid, n);
}

static void
draw_qr(const char *text)
{
	struct ui_qr	 q;
	struct buf	 row = BUF_INIT;
	int		 r;

	if (ui_qr_make(text, &q) != 0)
		return;
	for (r = 0; r < ui_qr_rows(&q); r++) {
		row.len = 0;
		/* Dark on light whatever the terminal's colours: phones
		 * often fail to read an inverted code. */
		buf_append(&row, "\033[30;47m", 8);
		ui_qr_row(&q, r, &row);
		buf_append(&row, "\033[0m\n", 5);
		fwrite(row.p, 1, row.len, stdout);
	}
	buf_release(&row);
	ui_qr_release(&q);
}

static void
close_cb(uv_handle_t *h)
{
	(void)h;
}

static void	print_dm(const struct ev *ev);

static void
print_ev(struct app *a, const struct ev *ev)
{
	struct buf	 num = BUF_INIT;

	switch (ev->kind) {
	case EV_CONNECTING:
		printf("%s\n", _("connecting…"));
		break;
	case EV_QR:
		if (a->draw_qr)
			draw_qr(ev->text);
		printf(_("scan this QR code with your phone within %lu s: "
		    "%s\n"), (unsigned long)ev->secs, ev->text);
		break;
	case EV_PAIR_CODE:
		printf(_("enter this code on your phone: %s\n"), ev->text);
		break;
	case EV_PAIRED:
		print_number(&num, ev->text);
		buf_push(&num, '\0');
		printf(_("linked as +%s\n"), num.p);
		break;
	case EV_CONNECTED:
		print_number(&num, ev->text);
		buf_push(&num, '\0');
		printf(_("connected as +%s\n"), num.p);
		break;
	case EV_DISCONNECTED:
		if (ev->retry_ms == 0)
			printf(_("reconnecting: %s\n"), ev->text);
		else
			printf(_("reconnecting in %lu s: %s\n"),
			    (unsigned long)(ev->retry_ms + 999) / 1000,
			    ev->text);
		break;
	case EV_LOGGED_OUT:
		printf(_("logged out: %s\n"), ev->text);
		break;
	case EV_ERROR:
		printf(_("error: %s (%s)\n"), ev->text, wc_strerror(ev->err));
		break;
	case EV_MESSAGE:
	case EV_MSG_STATE:
	case EV_MSG_CHANGED:
	case EV_REACTION:
	case EV_TYPING:
	case EV_PRESENCE:
	case EV_SEND_FAILED:
		print_dm(ev);
		break;
	case EV_CHATS:
	case EV_PAGE:
	case EV_GROUP:
	case EV_SEARCH:
		break;		/* asked by the screen only */
	case EV_HISTORY:
		if (ev->state == 0)
			printf(_("history: %lu messages imported (%lu%%)\n"),
			    (unsigned long)ev->secs, (unsigned long)ev->num);
		else if (ev->state == 1)
			printf(_("history: a part was skipped: %s\n"),
			    ev->text);
		break;
	case EV_STOPPED:
		if (ev->err == WC_ELOGGEDOUT)
			break;		/* EV_LOGGED_OUT said it */
		if (ev->text[0] != '\0')
			printf(_("stopped: %s\n"), ev->text);
		else if (ev->err != 0)
			printf(_("stopped: %s\n"), wc_strerror(ev->err));
		break;
	}
	buf_release(&num);
	fflush(stdout);
}

/* A chat's name for a line: +digits for a PN JID, else the JID. */
static void
chat_name(struct buf *out, const char *jid)
{
	size_t	 n = strcspn(jid, "@:");

	if (strstr(jid, "@s.whatsapp.net") != NULL) {
		buf_push(out, '+');
		buf_append(out, jid, n);
		buf_push(out, '\0');
	} else
		wc_sanitize(jid, strlen(jid), false, out);
}

static const char *
state_word(int st)
{
	switch (st) {
	case WA_DM_QUEUED:	return _("queued");
	case WA_DM_SENT:	return _("sent");
	case WA_DM_DELIVERED:	return _("delivered");
	case WA_DM_READ:	return _("read");
	case WA_DM_FAILED:	return _("failed");
	}
	return "";
}

/* A messaging event as a line; network text sanitised (one line). */
static void
print_dm(const struct ev *ev)
{
	struct buf	 who = BUF_INIT, txt = BUF_INIT;

	chat_name(&who, ev->chat != NULL ? ev->chat : "");
	wc_sanitize(ev->text, strlen(ev->text), false, &txt);
	switch (ev->kind) {
	case EV_MESSAGE:
		if (ev->notice)
			printf(_("%s: (%s)\n"), (char *)who.p, (char *)txt.p);
		else if (ev->from_me)
			printf(_("to %s: %s\n"), (char *)who.p, (char *)txt.p);
		else
			printf(_("from %s: %s\n"), (char *)who.p,
			    (char *)txt.p);
		break;
	case EV_MSG_STATE:
		printf(_("to %s: message %s %s\n"), (char *)who.p,
		    ev->id != NULL ? ev->id : "", state_word(ev->state));
		break;
	case EV_MSG_CHANGED:
		if (ev->deleted)
			printf(_("%s: message %s deleted\n"), (char *)who.p,
			    ev->id != NULL ? ev->id : "");
		else
			printf(_("%s: message %s edited: %s\n"),
			    (char *)who.p, ev->id != NULL ? ev->id : "",
			    (char *)txt.p);
		break;
	case EV_REACTION:
		printf(_("%s: reaction %s to message %s\n"), (char *)who.p,
		    (char *)txt.p, ev->id != NULL ? ev->id : "");
		break;
	case EV_TYPING:
		if (ev->state)
			printf(_("%s is typing\n"), (char *)who.p);
		break;
	case EV_PRESENCE:
		printf(ev->state ? _("%s is online\n") : _("%s is offline\n"),
		    (char *)who.p);
		break;
	case EV_SEND_FAILED:
		printf(_("to %s: message %s not sent: %s\n"), (char *)who.p,
		    ev->id != NULL ? ev->id : "", (char *)txt.p);
		break;
	default:
		break;
	}
	buf_release(&who);
	buf_release(&txt);
}

static void
on_events(struct evq *q, void *arg)
{
	struct app	*a = arg;
	struct ev	*ev;
	char		 words[512];

	while (!a->stopped && (ev = evq_pop(q)) != NULL) {
		if (a->screen != NULL)
			ui_screen_apply(a->screen, ev);
		else
			print_ev(a, ev);
		/* The screen goes with wachat: what made it stop by itself
		 * is said again on the terminal after it. */
		if (a->screen != NULL && ev->kind == EV_LOGGED_OUT) {
			snprintf(words, sizeof(words), _("logged out: %s; run "
			    "wachat again to link it anew"), ev->text);
			free(a->last_words);
			a->last_words = xstrdup(words);
		} else if (a->screen != NULL && ev->kind == EV_STOPPED &&
		    !a->quit_sent && a->last_words == NULL &&
		    (ev->text[0] != '\0' || ev->err != 0)) {
			snprintf(words, sizeof(words), _("stopped: %s"),
			    ev->text[0] != '\0' ? ev->text :
			    wc_strerror(ev->err));
			a->last_words = xstrdup(words);
		}
		if (ev->kind == EV_STOPPED) {
			a->stopped = true;
			/* Asked to quit and stopped cleanly: success. */
			a->status = a->quit_sent && ev->err == 0 ?
			    EXIT_SUCCESS : EXIT_FAILURE;
			uv_close((uv_handle_t *)&a->sigint, close_cb);
			uv_close((uv_handle_t *)&a->sigterm, close_cb);
			if (a->screen != NULL) {
				uv_close((uv_handle_t *)&a->keys, close_cb);
				uv_close((uv_handle_t *)&a->sigwinch,
				    close_cb);
				uv_close((uv_handle_t *)&a->tick, close_cb);
			}
			evq_close(q);
		}
		ev_free(ev);
	}
}

/* Ask the engine to stop (once). */
static void
quit(struct app *a)
{
	if (a->quit_sent)
		return;
	a->quit_sent = true;
	(void)evq_push(&a->cmds, cmd_new(CMD_QUIT, NULL));
}

/* libwebsockets' log levels (LLL_*), for wa_conn_set_lws_log(). */
#define LWS_ERR		1
#define LWS_WARN	2
#define LWS_NOTICE	4

/* One line of libwebsockets' log, into ours (without its newline). */
static void
lws_line(int level, const char *line)
{
	size_t	 n = strlen(line);

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	log_write(level & LWS_ERR ? LOG_ERROR : level & LWS_WARN ? LOG_WARN :
	    LOG_INFO, "lws", "libwebsockets", "%.*s", (int)n, line);
}

static void
on_signal(uv_signal_t *s, int signum)
{
	struct app	*a = s->data;

	log_info("signal %d", signum);
	if (a->quit_sent) {
		/* Asked twice: the user will not wait for a clean stop. */
		log_warn("second signal: exiting at once");
		ui_screen_free(a->screen);
		_exit(EXIT_FAILURE);
	}
	quit(a);
}

/* Keys on stdin (curses screen only): the quit keys quit (q only before
 * linking); the chat screen's commands go out through push_cmd(). */
static void	on_tick(uv_timer_t *t);

static void
on_keys(uv_poll_t *p, int status, int events)
{
	struct app	*a = p->data;

	(void)events;
	if (status < 0) {
		log_warn("stdin: %s", wc_strerror(status));
		uv_poll_stop(p);
		return;
	}
	switch (ui_screen_key(a->screen)) {
	case UI_SCREEN_QUIT:
		log_info("quit key");
		quit(a);
		break;
	case UI_SCREEN_PAIR_PHONE:
		log_info("link by phone-number code asked from the screen");
		(void)evq_push(&a->cmds, cmd_new(CMD_PAIR_CODE,
		    ui_screen_phone(a->screen)));
		break;
	case UI_SCREEN_NONE:
		break;
	}
	/* the next tick soon after a key: what waits on a pause in typing
	 * (the search as you type, ui/view.c) goes then, not a second on */
	if (!uv_is_closing((uv_handle_t *)&a->tick))
		uv_timer_start(&a->tick, on_tick, 160, 1000);
}

/* A command from the chat screen, to the engine (takes c). */
static void
push_cmd(void *arg, struct cmd *c)
{
	struct app	*a = arg;

	(void)evq_push(&a->cmds, c);
}

/*
 * The chat screen's settings from c; the key bindings' names are checked
 * here (ui/keys.h), each wrong one said on stderr.  Returns 0 or -EINVAL.
 */
static int
view_opts(const struct conf *c, struct ui_view_opts *o)
{
	const char	*why;
	int		 i, rc = 0;

	ui_view_opts_default(o);
	o->enter_sends = c->enter_sends;
	o->read_receipts = c->read_receipts;
	o->send_typing = c->send_typing;
	for (i = 0; i < CONF_KEY_ACTIONS; i++) {
		if (c->keys[i] == NULL)
			continue;
		why = NULL;
		if (ui_keys_bind(&o->keys, conf_key_actions[i], c->keys[i],
		    &why) != 0) {
			fprintf(stderr, "wachat: key-%s: %s\n",
			    conf_key_actions[i], _(why));
			rc = -EINVAL;
		}
	}
	/* A key set for an action that another has too: one of the two
	 * could never run. */
	for (i = 0; rc == 0 && i < CONF_KEY_ACTIONS; i++) {
		int	 j;

		if (c->keys[i] == NULL ||
		    (j = ui_keys_clash(&o->keys, conf_key_actions[i])) < 0)
			continue;
		fprintf(stderr, _("wachat: key-%s: %s is also the key of %s "
		    "(bind that one to another key, or to none)\n"),
		    conf_key_actions[i], c->keys[i],
		    ui_keys_action_name((enum ui_key_action)j));
		rc = -EINVAL;
	}
	return rc;
}

static void
on_winch(uv_signal_t *s, int signum)
{
	struct app	*a = s->data;

	(void)signum;
	ui_screen_resize(a->screen);
}

static void
on_tick(uv_timer_t *t)
{
	struct app	*a = t->data;

	ui_screen_render(a->screen);
}

/*
 * Give the terminal back, and stderr; the handles are closed already when
 * the loop has run out, else closed here.
 */
static void
stop_screen(struct app *a)
{
	if (a->screen == NULL)
		return;
	if (!uv_is_closing((uv_handle_t *)&a->keys)) {
		uv_close((uv_handle_t *)&a->keys, close_cb);
		uv_close((uv_handle_t *)&a->sigwinch, close_cb);
		uv_close((uv_handle_t *)&a->tick, close_cb);
	}
	ui_screen_free(a->screen);
	a->screen = NULL;
	if (a->saved_err >= 0) {
		(void)dup2(a->saved_err, STDERR_FILENO);
		(void)close(a->saved_err);
		a->saved_err = -1;
	}
}

/*
 * Take over the terminal when stdin and stdout are both one: keys from
 * stdin, resizes, a one-second redraw.  Else a->screen stays NULL and the
 * events are printed as lines.
 */
static void
start_screen(struct app *a)
{
	int	 rc, fd;

	if (!isatty(STDIN_FILENO) || !a->draw_qr)
		return;
	if ((rc = ui_screen_new(&a->screen)) != 0) {
		log_warn("no curses screen: %s", wc_strerror(rc));
		return;
	}
	ui_screen_attach(a->screen, &a->view, push_cmd, a);
	/* Libraries' stray lines on stderr (libwebsockets' notices) go to
	 * the log file, not across the screen. */
	if ((fd = open(a->conf->log_file, O_WRONLY | O_APPEND |
	    O_CLOEXEC)) >= 0) {
		if ((a->saved_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC,
		    3)) >= 0)
			(void)dup2(fd, STDERR_FILENO);
		(void)close(fd);
	}
	if ((rc = uv_poll_init(&a->ui_loop, &a->keys, STDIN_FILENO)) != 0) {
		log_warn("uv_poll_init stdin: %s", wc_strerror(rc));
		ui_screen_free(a->screen);
		a->screen = NULL;
		return;
	}
	a->keys.data = a->sigwinch.data = a->tick.data = a;
	uv_signal_init(&a->ui_loop, &a->sigwinch);
	uv_timer_init(&a->ui_loop, &a->tick);
	uv_poll_start(&a->keys, UV_READABLE, on_keys);
	uv_signal_start(&a->sigwinch, on_winch, SIGWINCH);
	uv_timer_start(&a->tick, on_tick, 1000, 1000);
}

/* mkdir -p for the parents of path, each new one 0700. */
static void
make_parents(const char *path)
{
	char	*p = xstrdup(path), *s;

	for (s = strchr(p + 1, '/'); s != NULL; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			break;
		*s = '/';
	}
	free(p);
}

int
app_run(const struct conf *c, const char *pair_pn)
{
	struct app	 a;
	int		 rc;

	memset(&a, 0, sizeof(a));
	a.conf = c;
	a.status = EXIT_FAILURE;
	a.lock_fd = -1;
	a.draw_qr = isatty(STDOUT_FILENO) == 1;
	a.saved_err = -1;
	if (view_opts(c, &a.view) != 0)
		return EXIT_FAILURE;

	make_parents(c->log_file);
	if ((rc = log_open(c->log_file, c->log_level)) != 0) {
		fprintf(stderr, _("wachat: cannot open the log file %s: %s\n"),
		    c->log_file, wc_strerror(rc));
		return EXIT_FAILURE;
	}
	make_parents(c->data_dir);
	/* libwebsockets' own lines go to the log, never to the terminal. */
	wa_conn_set_lws_log(LWS_ERR | LWS_WARN | LWS_NOTICE, lws_line);
	if ((rc = wa_crypto_init()) != 0) {
		fprintf(stderr, _("wachat: cannot start the crypto library: "
		    "%s\n"), wc_strerror(rc));
		goto out_log;
	}
	if ((rc = uv_loop_init(&a.ui_loop)) != 0)
		goto fail;
	if ((rc = uv_loop_init(&a.eng_loop)) != 0)
		goto fail_ui;
	if ((rc = evq_init(&a.events, &a.ui_loop, free_ev, on_events,
	    &a)) != 0)
		goto fail_eng;
	if ((rc = evq_init(&a.cmds, &a.eng_loop, free_cmd, on_cmds,
	    &a)) != 0) {
		evq_close(&a.events);
		goto fail_q;
	}
	uv_signal_init(&a.ui_loop, &a.sigint);
	uv_signal_init(&a.ui_loop, &a.sigterm);
	a.sigint.data = a.sigterm.data = &a;
	uv_signal_start(&a.sigint, on_signal, SIGINT);
	uv_signal_start(&a.sigterm, on_signal, SIGTERM);
	/* Queued before the engine starts: it asks for the code as soon as
	 * its loop runs. */
	if (pair_pn != NULL)
		(void)evq_push(&a.cmds, cmd_new(CMD_PAIR_CODE, pair_pn));
	/* The screen before the engine, so its first lines miss no stray
	 * stderr. */
	start_screen(&a);
	if ((rc = uv_thread_create(&a.thread, eng_thread, &a)) != 0) {
		log_error("uv_thread_create: %s", wc_strerror(rc));
		uv_close((uv_handle_t *)&a.sigint, close_cb);
		uv_close((uv_handle_t *)&a.sigterm, close_cb);
		stop_screen(&a);
		evq_close(&a.events);
		evq_close(&a.cmds);
		uv_run(&a.eng_loop, UV_RUN_DEFAULT);
		evq_release(&a.cmds);
		goto fail_q;
	}
	uv_run(&a.ui_loop, UV_RUN_DEFAULT);
	uv_thread_join(&a.thread);
	stop_screen(&a);
	if (a.last_words != NULL) {
		fprintf(stderr, "wachat: %s\n", a.last_words);
		free(a.last_words);
	}
	evq_release(&a.cmds);
	evq_release(&a.events);
	if ((rc = uv_loop_close(&a.ui_loop)) != 0) {
		log_error("the main loop has handles left: %s",
		    wc_strerror(rc));
		a.status = EXIT_FAILURE;
	}
	log_info("exit %d", a.status);
	log_close();
	return a.status;

fail_q:
	uv_run(&a.ui_loop, UV_RUN_DEFAULT);
	evq_release(&a.events);
fail_eng:
	(void)uv_loop_close(&a.eng_loop);
fail_ui:
	(void)uv_loop_close(&a.ui_loop);
fail:
	fprintf(stderr, _("wachat: cannot start: %s\n"), wc_strerror(rc));
out_log:
	log_close();
	return EXIT_FAILURE;
}
