/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-print.c -- the line-mode front end (src/app-int.h): without a
 * curses screen, each event the user should hear of is one line on
 * standard output (and a QR code drawn in the terminal), by a table of
 * (event kind, printer).  Network text is sanitised to one line.  Main
 * thread.
 */
#include "base/compat.h"

#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/event.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/media-text.h"
#include "base/sanitize.h"
#include "src/app-int.h"
#include "base/notice.h"
#include "base/rich.h"
#include "ui/media.h"
#include "ui/qr.h"

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

/* A chat's name for a line: +digits for a PN JID, else the JID,
 * sanitised; with its NUL. */
static void
chat_name(struct buf *out, const char *jid)
{
	struct jid	 j;

	if (jid_is_pn(jid) && jid_parse(jid, &j) == 0) {
		buf_push(out, '+');
		buf_append(out, j.user, j.user_len);
		buf_push(out, '\0');
	} else
		wc_sanitize(jid, strlen(jid), false, out);
}

/* Network text on one line, sanitised; with its NUL. */
static void
one_line(struct buf *out, const char *text)
{
	wc_sanitize(text, strlen(text), false, out);
}

static const char *
state_word(enum ev_state st)
{
	switch (st) {
	case EV_STATE_QUEUED:		return _("queued");
	case EV_STATE_SENT:		return _("sent");
	case EV_STATE_DELIVERED:	return _("delivered");
	case EV_STATE_READ:		return _("read");
	case EV_STATE_FAILED:		return _("failed");
	case EV_STATE_NONE:
	case EV_STATE_PLAYED:
		break;
	}
	return "";
}

/* ---- the connection ---- */

static void
connecting(const struct ev *ev, bool qr)
{
	(void)ev;
	(void)qr;
	printf("%s\n", _("connecting…"));
}

static void
qr_code(const struct ev *ev, bool qr)
{
	if (qr)
		draw_qr(ev->u.qr.code);
	printf(_("scan this QR code with your phone within %lu s: %s\n"),
	    (unsigned long)ev->u.qr.secs, ev->u.qr.code);
}

static void
pair_code(const struct ev *ev, bool qr)
{
	(void)qr;
	printf(_("enter this code on your phone: %s\n"), ev->u.pair_code.code);
}

static void
paired(const struct ev *ev, bool qr)
{
	(void)qr;
	printf(_("linked as +%s\n"), ev->u.paired.number);
}

static void
connected(const struct ev *ev, bool qr)
{
	(void)qr;
	printf(_("connected as +%s\n"), ev->u.connected.number);
}

static void
disconnected(const struct ev *ev, bool qr)
{
	const struct ev_disconnected *d = &ev->u.disconnected;

	(void)qr;
	if (d->idle)
		printf(_("stopped: %s\n"), d->why);
	else if (d->retry_ms == 0)
		printf(_("reconnecting: %s\n"), d->why);
	else
		printf(_("reconnecting in %lu s: %s\n"),
		    (unsigned long)(d->retry_ms + 999) / 1000, d->why);
}

static void
logged_out(const struct ev *ev, bool qr)
{
	(void)qr;
	printf(_("logged out: %s\n"), ev->u.logged_out.why);
}

static void
failure(const struct ev *ev, bool qr)
{
	(void)qr;
	if (ev->u.error.err == 0)	/* information */
		printf("%s\n", ev->u.error.what);
	else
		printf(_("error: %s (%s)\n"), ev->u.error.what,
		    wc_strerror(ev->u.error.err));
}

static void
stopped(const struct ev *ev, bool qr)
{
	const struct ev_end	*s = &ev->u.stopped;

	(void)qr;
	if (s->err == WC_ELOGGEDOUT)
		return;		/* EV_LOGGED_OUT said it */
	if (s->why[0] != '\0')
		printf(_("stopped: %s\n"), s->why);
	else if (s->err != 0)
		printf(_("stopped: %s\n"), wc_strerror(s->err));
}

static void
history(const struct ev *ev, bool qr)
{
	const struct ev_history	*h = &ev->u.history;

	(void)qr;
	if (h->step == EV_HISTORY_CHUNK)
		printf(_("history: %lu messages imported (%lu%%)\n"),
		    (unsigned long)h->stored, (unsigned long)h->progress);
	else if (h->step == EV_HISTORY_REFUSED)
		printf(_("history: a part was skipped: %s\n"), h->why);
}

/* A download's end (not its progress). */
static void
media_dl(const struct ev *ev, bool qr)
{
	const struct ev_media_dl	*d = &ev->u.media_dl;
	struct buf			 path = BUF_INIT;

	(void)qr;
	if (d->state == EV_DL_DOWNLOADING)
		return;
	if (d->state == EV_DL_DONE) {
		one_line(&path, d->path);
		printf(_("media: downloaded to %s\n"), (char *)path.p);
		buf_release(&path);
	} else
		printf(_("media: %s\n"), media_dl_words(d->state));
}

/* ---- messaging ---- */

/*
 * The words the screen shows for a media message ("Photo · 640×480",
 * then " · " and its caption) or a rich record (rich_describe()'s lines
 * joined by " · "), sanitised on one line into out; false: neither.
 */
static bool
kind_words(const struct ev_message *m, struct buf *out)
{
	struct buf	 raw = BUF_INIT, one = BUF_INIT;
	bool		 utf8 = ui_media_utf8();
	const char	*sep = utf8 ? " \xc2\xb7 " : " - ";
	size_t		 i;

	if (m->media.type != EV_MEDIA_NONE) {
		media_describe(&m->media, utf8, &raw);
		if (m->media.caption != NULL && m->media.caption[0] != '\0') {
			buf_append(&raw, sep, strlen(sep));
			buf_append(&raw, m->media.caption,
			    strlen(m->media.caption));
		}
	} else if (!m->rich || rich_describe(m->text, strlen(m->text), utf8,
	    true, &raw) != 0) {
		buf_release(&raw);
		return false;
	}
	for (i = 0; i < raw.len; i++)	/* the lines joined */
		if (raw.p[i] == '\n')
			buf_append(&one, sep, strlen(sep));
		else
			buf_push(&one, raw.p[i]);
	buf_push(&one, '\0');
	one_line(out, (const char *)one.p);
	buf_release(&one);
	buf_release(&raw);
	return true;
}

static void
message(const struct ev *ev, bool qr)
{
	const struct ev_message	*m = &ev->u.message;
	struct buf		 who = BUF_INIT, txt = BUF_INIT;
	char			 words[512];

	(void)qr;
	chat_name(&who, m->key.chat);
	if (m->notice || !kind_words(m, &txt))
		one_line(&txt, m->notice && notice_words(m->notice_kind,
		    m->notice_device, m->sender_name[0] != '\0' ?
		    m->sender_name : m->key.sender, words, sizeof(words)) ?
		    words : m->text);
	if (m->notice)
		printf(_("%s: (%s)\n"), (char *)who.p, (char *)txt.p);
	else if (m->key.from_me)
		printf(_("to %s: %s\n"), (char *)who.p, (char *)txt.p);
	else
		printf(_("from %s: %s\n"), (char *)who.p, (char *)txt.p);
	buf_release(&who);
	buf_release(&txt);
}

static void
msg_state(const struct ev *ev, bool qr)
{
	const struct ev_msg_state *s = &ev->u.msg_state;
	struct buf		 who = BUF_INIT;

	(void)qr;
	chat_name(&who, s->key.chat);
	printf(_("to %s: message %s %s\n"), (char *)who.p, s->key.id,
	    state_word(s->state));
	buf_release(&who);
}

static void
msg_changed(const struct ev *ev, bool qr)
{
	const struct ev_msg_changed *c = &ev->u.msg_changed;
	struct buf		 who = BUF_INIT, txt = BUF_INIT;

	(void)qr;
	chat_name(&who, c->key.chat);
	one_line(&txt, c->text);
	if (c->gone)	/* disappearing messages: its time was up */
		printf(_("%s: message %s expired\n"), (char *)who.p,
		    c->key.id);
	else if (c->deleted)
		printf(_("%s: message %s deleted\n"), (char *)who.p,
		    c->key.id);
	else
		printf(_("%s: message %s edited: %s\n"), (char *)who.p,
		    c->key.id, (char *)txt.p);
	buf_release(&who);
	buf_release(&txt);
}

static void
reaction(const struct ev *ev, bool qr)
{
	const struct ev_reaction *r = &ev->u.reaction;
	struct buf		 who = BUF_INIT, txt = BUF_INIT;

	(void)qr;
	chat_name(&who, r->target.chat);
	one_line(&txt, r->emoji);
	printf(_("%s: reaction %s to message %s\n"), (char *)who.p,
	    (char *)txt.p, r->target.id);
	buf_release(&who);
	buf_release(&txt);
}

static void
typing(const struct ev *ev, bool qr)
{
	struct buf	 who = BUF_INIT;

	(void)qr;
	if (!ev->u.typing.composing)
		return;
	chat_name(&who, ev->u.typing.chat);
	printf(_("%s is typing\n"), (char *)who.p);
	buf_release(&who);
}

static void
presence(const struct ev *ev, bool qr)
{
	struct buf	 who = BUF_INIT;

	(void)qr;
	chat_name(&who, ev->u.presence.chat);
	printf(ev->u.presence.online ? _("%s is online\n") :
	    _("%s is offline\n"), (char *)who.p);
	buf_release(&who);
}

static void
send_failed(const struct ev *ev, bool qr)
{
	const struct ev_send_failed *f = &ev->u.send_failed;
	struct buf		 who = BUF_INIT, txt = BUF_INIT;

	(void)qr;
	chat_name(&who, f->key.chat);
	one_line(&txt, f->why);
	printf(_("to %s: message %s not sent: %s\n"), (char *)who.p,
	    f->key.id, (char *)txt.p);
	buf_release(&who);
	buf_release(&txt);
}

/* One printer per kind; NULL: nothing to say (the chat list, pages,
 * groups and search hits are asked by the screen only). */
static void (*const printers[])(const struct ev *, bool) = {
	[EV_CONNECTING] =	connecting,
	[EV_QR] =		qr_code,
	[EV_PAIR_CODE] =	pair_code,
	[EV_PAIRED] =		paired,
	[EV_CONNECTED] =	connected,
	[EV_DISCONNECTED] =	disconnected,
	[EV_LOGGED_OUT] =	logged_out,
	[EV_ERROR] =		failure,
	[EV_STOPPED] =		stopped,
	[EV_MESSAGE] =		message,
	[EV_MSG_STATE] =	msg_state,
	[EV_MSG_CHANGED] =	msg_changed,
	[EV_REACTION] =		reaction,
	[EV_TYPING] =		typing,
	[EV_PRESENCE] =		presence,
	[EV_SEND_FAILED] =	send_failed,
	[EV_CHATS] =		NULL,
	[EV_PAGE] =		NULL,
	[EV_GROUP] =		NULL,
	[EV_SEARCH] =		NULL,
	[EV_HISTORY] =		history,
	[EV_OWN_NAME] =		NULL,
	[EV_LINKED] =		NULL,	/* the screen's, for its chat list */
	[EV_APP_STATE] =	NULL,	/* the screen's, for its chat list */
	[EV_UPLOAD] =		NULL,	/* the screen's, on the message's line */
	[EV_MEDIA_DL] =		media_dl,
	[EV_PROFILE] =		NULL,	/* the screen's, for a chat's info */
	[EV_BLOCKLIST] =	NULL,	/* the screen's, for its chat list */
	[EV_MSG_INFO] =		NULL,	/* the screen's, asked by its key */
};
_Static_assert(sizeof(printers) / sizeof(printers[0]) == EV_KIND_MAX + 1,
    "one printer per event kind");

void
app_print_ev(const struct ev *ev, bool qr)
{
	if ((unsigned)ev->kind <= EV_KIND_MAX && printers[ev->kind] != NULL)
		printers[ev->kind](ev, qr);
	fflush(stdout);
}
