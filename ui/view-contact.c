/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-contact.c -- a contact's info page (ui/view-int.h; issue 20):
 * opened by the info key (Alt-g) in a 1:1 chat, in the message pane's
 * place like a group's info; its profile asked for (CMD_PROFILE) and
 * kept from EV_PROFILE (about text, the picture as a thumbnail,
 * ui/thumb.h); the blocklist kept from EV_BLOCKLIST, the chat list's
 * chats marked from it, and the block key's question (PROMPT_BLOCK,
 * then CMD_BLOCK).  Its drawing is in ui/view-panes.c.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/groups.h"
#include "ui/thumb.h"
#include "ui/view-int.h"

/* Forget the profile kept (the blocklist stays). */
static void
prof_reset(struct ui_view_prof *p)
{
	free(p->jid);
	free(p->about);
	ui_thumb_free(p->pic);
	p->jid = p->about = NULL;
	p->pic = NULL;
	p->about_known = false;
	p->about_ms = 0;
	p->pic_state = EV_PIC_ASKING;
}

void
ui_view_contact_ask(struct ui_view *v, const char *jid)
{
	struct ui_view_prof	*p = &v->prof;

	if (jid == NULL)
		return;
	if (p->jid == NULL || strcmp(p->jid, jid) != 0) {
		prof_reset(p);
		p->jid = xstrdup(jid);
	}
	/* asked each time: a picture whose id changed comes again (the
	 * engine keeps the picture of an id it knows) */
	ui_view_push(v, cmd_new_chat(CMD_PROFILE, jid));
}

void
ui_view_contact_open(struct ui_view *v)
{
	if (v->msgs.chat == NULL) {
		ui_view_note(v, _("no chat is open"));
		return;
	}
	ui_view_contact_show(v, true);
	ui_view_contact_ask(v, v->msgs.chat);
}

void
ui_view_contact_show(struct ui_view *v, bool contact)
{
	v->info.on = true;
	v->info.contact = contact;
	v->info.sel = 0;
	v->info.top = 0;
	v->msgs.sel = -1;
}

bool
ui_view_blocked(const struct ui_view *v, const char *jid)
{
	size_t	 i;

	if (jid == NULL)
		return false;
	for (i = 0; i < v->prof.nblocked; i++)
		if (strcmp(v->prof.blocked[i], jid) == 0)
			return true;
	return false;
}

void
ui_view_contact_mark(struct ui_view *v)
{
	size_t	 i;

	for (i = 0; i < v->chats.n; i++)
		v->chats.v[i].blocked = !v->chats.v[i].group &&
		    ui_view_blocked(v, v->chats.v[i].jid);
}

void
ui_view_contact_block(struct ui_view *v)
{
	if (!v->info.contact || v->msgs.chat == NULL)
		return;
	ui_view_prompt_start(v, PROMPT_BLOCK);
}

void
ui_view_contact_answer_block(struct ui_view *v, bool yes)
{
	struct cmd	*c;

	if (!yes || v->msgs.chat == NULL)
		return;
	c = cmd_new_chat(CMD_BLOCK, v->msgs.chat);
	c->u.block.block = !ui_view_blocked(v, v->msgs.chat);
	ui_view_push(v, c);
	ui_view_note(v, c->u.block.block ? _("blocking…") :
	    _("unblocking…"));
}

const char *
ui_view_contact_words(struct ui_view *v, char *line, size_t size, int cols)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	const char	*name = ch != NULL ? ch->name : "";

	if (ui_view_blocked(v, v->msgs.chat))
		return ui_view_with_name(line, size, cols, _("Unblock %s? y "
		    "unblocks, n keeps them blocked"), name);
	return ui_view_with_name(line, size, cols, _("Block %s? y blocks "
	    "them, n does not"), name);
}

void
ui_view_contact_profile(struct ui_view *v, const struct ev *ev)
{
	const struct ev_profile	*e = &ev->u.profile;
	struct ui_view_prof	*p = &v->prof;
	struct buf		 b = BUF_INIT;

	if (p->jid == NULL || strcmp(p->jid, e->jid) != 0)
		return;		/* asked before another was */
	free(p->about);
	p->about = NULL;
	p->about_known = e->about_known;
	if (e->about_known) {
		wc_sanitize(e->about, strlen(e->about), false, &b);
		buf_push(&b, '\0');
		p->about = (char *)b.p;
	}
	p->about_ms = e->about_ms;
	p->pic_state = e->pic_state;
	ui_thumb_free(p->pic);
	p->pic = e->pic_state == EV_PIC_SHOWN ? ui_thumb_new_hex(e->pic) :
	    NULL;
	if (e->pic_state == EV_PIC_SHOWN && p->pic == NULL)
		p->pic_state = EV_PIC_FAILED;
}

void
ui_view_contact_blocklist(struct ui_view *v, const struct ev *ev)
{
	const struct ev_blocklist *e = &ev->u.blocklist;
	struct ui_view_prof	*p = &v->prof;
	size_t			 i;

	for (i = 0; i < p->nblocked; i++)
		free(p->blocked[i]);
	free(p->blocked);
	p->blocked = xcalloc(e->njids > 0 ? e->njids : 1, sizeof(char *));
	for (i = 0; i < e->njids; i++)
		p->blocked[i] = xstrdup(e->jids[i]);
	p->nblocked = e->njids;
}

void
ui_view_contact_release(struct ui_view *v)
{
	size_t	 i;

	prof_reset(&v->prof);
	for (i = 0; i < v->prof.nblocked; i++)
		free(v->prof.blocked[i]);
	free(v->prof.blocked);
	v->prof.blocked = NULL;
	v->prof.nblocked = 0;
}
