/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-info.c -- the open group's info (ui/view-int.h): shown in the
 * message pane's place (CMD_GROUP_INFO asks for it), and what changes
 * the group from there (a 1:1 chat's info is the contact's page,
 * ui/view-contact.c): the prompts to rename it, add and remove members
 * and the question to leave it, each refused with a note when the open
 * chat is no group, we left it, or we are not one of its admins.  Its
 * keys are in ui/view-keys.c, its drawing in ui/view-panes.c.
 */
#include "base/compat.h"

#include <string.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "ui/view-int.h"

void
ui_view_info_open(struct ui_view *v)
{
	if (ui_view_open_group(v) == NULL) {
		ui_view_contact_open(v);	/* a contact's page */
		return;
	}
	ui_view_contact_show(v, false);
	ui_view_push(v, cmd_new_chat(CMD_GROUP_INFO, v->msgs.chat));
	ui_view_contact_ask(v, v->msgs.chat);	/* its picture */
}

/* The open group when it is one we are in, else NULL and a note why. */
static struct ui_group *
group_to_change(struct ui_view *v)
{
	struct ui_group	*g = ui_view_open_group(v);

	if (g == NULL)
		ui_view_note(v, _("the open chat is not a group"));
	else if (g->left) {
		ui_view_note(v, _("you are no longer a member of this group"));
		return NULL;
	}
	return g;
}

bool
ui_view_info_may_manage(const struct ui_group *g)
{
	const struct ui_member	*me = ui_group_me(g);

	return me == NULL || me->role != UI_GROUP_MEMBER;
}

/* The open group, for adding or removing members: NULL (with a note) when
 * it cannot be changed or we are not one of its admins. */
static struct ui_group *
group_to_manage(struct ui_view *v)
{
	struct ui_group	*g = group_to_change(v);

	if (g != NULL && !ui_view_info_may_manage(g)) {
		ui_view_note(v, _("only the group's admins add or remove "
		    "members"));
		return NULL;
	}
	return g;
}

void
ui_view_info_leave(struct ui_view *v)
{
	if (group_to_change(v) != NULL)
		ui_view_prompt_start(v, PROMPT_LEAVE);
}

void
ui_view_info_rename(struct ui_view *v)
{
	struct ui_group	*g = group_to_change(v);

	if (g != NULL)
		ui_view_prompt_start_with(v, PROMPT_RENAME, g->subject);
}

void
ui_view_info_add(struct ui_view *v)
{
	if (group_to_manage(v) != NULL)
		ui_view_prompt_start(v, PROMPT_ADD);
}

/* Remove: the selected member (not us) in the prompt, to change or take:
 * "+digits" of a number, else the JID itself. */
void
ui_view_info_remove(struct ui_view *v)
{
	struct ui_group		*g = group_to_manage(v);
	const struct ui_member	*m;
	struct buf		 b = BUF_INIT;

	if (g == NULL)
		return;
	if (v->info.sel >= 0 && v->info.sel < (int)g->n &&
	    !(m = &g->v[v->info.sel])->is_me) {
		if (!ui_group_phone_name(m->jid, &b))	/* not a number */
			buf_append(&b, m->jid, strlen(m->jid) + 1);
	} else
		buf_push(&b, '\0');
	ui_view_prompt_start_with(v, PROMPT_REMOVE, (char *)b.p);
	buf_release(&b);
}
