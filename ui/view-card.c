/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-card.c -- the card-chat key (ui/keys.h) on a selected contact
 * card (protocol-features.md 3.3; ui/rich.h): a chat with its number
 * opened (a new one when there is none), or, when the card holds
 * several, PROMPT_CARD asks which (a digit, as the card numbers them).
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/i18n.h"
#include "base/xmalloc.h"

#include "base/jid.h"
#include "ui/rich.h"
#include "ui/view-int.h"

/* Open the chat with jid (a new empty one when there is none). */
static void
open_jid(struct ui_view *v, const char *jid)
{
	v->prompt.kind = PROMPT_NONE;
	v->msgs.sel = -1;
	v->info.on = false;
	if (!ui_chats_select(&v->chats, jid))
		ui_chats_open(&v->chats, jid);
	ui_view_open_selected(v);
}

void
ui_view_card_chat(struct ui_view *v)
{
	const struct ui_msg	*g = &v->msgs.v[v->msgs.sel];
	char			 jid[JID_MAX];
	size_t			 n = 0;
	int			 ok;

	ok = g->rich != NULL ? ui_rich_card_jid(g->rich, 1, jid, sizeof(jid),
	    &n) : 0;
	if (n == 0) {
		ui_view_note(v, g->rich != NULL && ok == 0 &&
		    strncmp(g->rich, "contacts\n", 9) == 0 ?
		    _("this contact card has no phone number") :
		    _("select a contact card first"));
		return;
	}
	if (n == 1) {
		if (ok)
			open_jid(v, jid);
		else
			ui_view_note(v, _("the card's number is not a phone "
			    "number with its country code"));
		return;
	}
	free(v->prompt.card);
	v->prompt.card = xstrdup(g->rich);
	v->prompt.card_n = n;
	ui_view_prompt_start(v, PROMPT_CARD);
}

bool
ui_view_card_key(struct ui_view *v, int k)
{
	char	 jid[JID_MAX];

	if (k < '1' || k > '9')
		return true;	/* only a number's digit */
	if ((size_t)(k - '0') > v->prompt.card_n || v->prompt.card == NULL)
		return true;
	if (ui_rich_card_jid(v->prompt.card, (size_t)(k - '0'), jid,
	    sizeof(jid), NULL) != 1) {
		v->prompt.err = _("that number is not a phone number with its "
		    "country code");
		return true;
	}
	open_jid(v, jid);
	return true;
}
