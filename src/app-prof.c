/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-prof.c -- profiles and the blocklist (proto/prof.h, issue 20)
 * bound to the screen (src/app-int.h): the module's events as EV_PROFILE
 * (the picture's bytes in hex, as a thumbnail's) and EV_BLOCKLIST,
 * CMD_PROFILE and CMD_BLOCK handed to it, and a send to a blocked
 * contact refused before it reaches the outbox.  Engine thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hex.h"
#include "base/i18n.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/eng.h"
#include "proto/prof.h"
#include "src/app-int.h"

_Static_assert((int)WA_PROF_PIC_FAILED == (int)EV_PIC_FAILED &&
    (int)WA_PROF_PIC_SHOWN == (int)EV_PIC_SHOWN, "the same states");

static struct wa_prof *
prof_of(struct app *a)
{
	return a->eng != NULL ? wa_eng_prof(a->eng) : NULL;
}

static void
say_profile(struct app *a, const struct wa_prof_ev *e)
{
	struct ev	*ev = ev_new(EV_PROFILE);
	struct ev_profile *p = &ev->u.profile;
	struct buf	 b = BUF_INIT;

	ev_set(&p->jid, e->jid);
	p->about_known = e->about_known;
	ev_set(&p->about, e->about);
	p->about_ms = e->about_ms;
	p->pic_state = (enum ev_pic_state)e->pic_state;
	ev_set(&p->pic_id, e->pic_id);
	if (e->pic != NULL && e->pic_len > 0)
		hex_append(&b, e->pic, e->pic_len);
	buf_push(&b, '\0');
	free(p->pic);
	p->pic = (char *)b.p;
	app_eng_send(a, ev);
}

static void
say_blocklist(struct app *a, const struct wa_blocklist *bl)
{
	struct ev	*ev = ev_new(EV_BLOCKLIST);
	size_t		 i;

	ev->u.blocklist.jids = xcalloc(bl->n > 0 ? bl->n : 1, sizeof(char *));
	for (i = 0; i < bl->n; i++)
		ev->u.blocklist.jids[i] = xstrdup(bl->v[i]);
	ev->u.blocklist.njids = (uint32_t)bl->n;
	app_eng_send(a, ev);
}

void
app_prof_event(void *arg, const struct wa_prof_ev *e)
{
	struct app	*a = arg;

	switch (e->kind) {
	case WA_PROF_EV_BLOCKLIST:
		say_blocklist(a, e->bl);
		break;
	case WA_PROF_EV_PROFILE:
		say_profile(a, e);
		break;
	case WA_PROF_EV_REFUSED:
		app_eng_error(a, e->block ? _("the contact was not blocked") :
		    _("the contact was not unblocked"), e->err);
		break;
	}
}

void
app_profile(struct app *a, const struct cmd *c)
{
	struct wa_prof		*p = prof_of(a);
	struct wa_prof_ev	 e;
	int			 rc;

	if (c->u.profile.chat[0] == '\0')
		return;
	rc = p != NULL ? wa_prof_ask(p, c->u.profile.chat) : -ENOTCONN;
	if (rc == 0)
		return;
	log_info("profile not asked for: %s", wc_strerror(rc));
	memset(&e, 0, sizeof(e));
	e.kind = WA_PROF_EV_PROFILE;
	e.jid = c->u.profile.chat;
	e.about = e.pic_id = "";
	e.pic_state = WA_PROF_PIC_FAILED;
	say_profile(a, &e);
}

void
app_block(struct app *a, const struct cmd *c)
{
	const struct cmd_block	*b = &c->u.block;
	struct wa_prof		*p = prof_of(a);
	int			 rc;

	if (b->chat[0] == '\0')
		return;
	rc = p != NULL ? wa_prof_block(p, b->chat, b->block) : -ENOTCONN;
	if (rc == 0 || rc == -EALREADY)
		return;
	app_eng_error(a, b->block ? _("the contact was not blocked") :
	    _("the contact was not unblocked"), rc);
}

bool
app_prof_refuse_send(struct app *a, const struct cmd *c)
{
	const char	*chat;
	struct ev	*ev;

	if (c->kind == CMD_SEND)
		chat = c->u.send.chat;
	else if (c->kind == CMD_SEND_FILE)
		chat = c->u.send_file.chat;
	else
		return false;
	if (!wa_prof_blocked(prof_of(a), chat))
		return false;
	ev = ev_new(EV_ERROR);
	ev_set(&ev->u.error.what, _("not sent: you blocked this contact "
	    "(unblock them on their info page, Alt-g)"));
	ev->u.error.err = -EPERM;
	ev_set(&ev->u.error.chat, chat);
	if (c->kind == CMD_SEND)
		ev_set(&ev->u.error.unsent, c->u.send.text);
	app_eng_send(a, ev);
	return true;
}
