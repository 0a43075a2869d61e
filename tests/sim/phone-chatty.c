/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-chatty.c -- the talking contacts: an echo phone reads
 * every text it gets and answers "echo: TEXT"; a chatty one writes to
 * its owner every so many seconds while the owner has a linked
 * companion.  Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "phone.h"
#include "proto/msg.h"
#include "sim.h"

/* A chatty contact's timer (sim_phone_chatty). */
struct sim_chatty {
	uv_timer_t		 t;
	struct sim		*s;
	struct sim_account	*a;		/* NULL once stopped */
	unsigned		 next;		/* next of chatty_texts */
};

/* What a chatty contact says, in turn. */
static const char *const chatty_texts[] = {
	"Hi! How is your day going? \xf0\x9f\x98\x8a",
	"\xc2\xbfQu\xc3\xa9 tal? \xc2\xa1Hace un d\xc3\xad" "a precioso! "
	    "\xe2\x98\x80\xef\xb8\x8f",
	"Bonjour ! On prend un caf\xc3\xa9 demain ? \xe2\x98\x95",
	"Guten Abend! Hast du den Film gesehen? \xf0\x9f\x8e\xac",
	"Ol\xc3\xa1! Tudo bem por a\xc3\xad? \xf0\x9f\x8c\xbb",
	"\xe3\x81\x93\xe3\x82\x93\xe3\x81\xab\xe3\x81\xa1\xe3\x81\xaf"
	    "\xef\xbc\x81 \xf0\x9f\x8c\xb8",
	"Ciao! Ho trovato una pizzeria fantastica \xf0\x9f\x8d\x95",
	"Just thinking of you \xe2\x80\x94 talk soon! \xf0\x9f\x91\x8b",
};

/* An echo answer waiting for its timer. */
struct echo_job {
	uv_timer_t		 t;
	struct sim		*s;
	struct sim_account	*a;
	char			 sender[PHONE_JID_MAX];	/* device JID */
	char			 chat[PHONE_JID_MAX];	/* user JID */
	char			 id[80];
	char			*text;
};

/* --- the echo --- */

static void
echo_closed(uv_handle_t *h)
{
	struct echo_job	*j = h->data;

	free(j->text);
	free(j);
}

static void
echo_fire(uv_timer_t *t)
{
	struct echo_job		*j = t->data;
	struct sim_phone	*p = j->a->phone;

	if (!j->s->stopping && p != NULL) {
		struct arena		 ar;
		struct wa_node		*r;
		struct buf		 inner = BUF_INIT, txt = BUF_INIT;
		const char		*ids[1] = { j->id };
		struct wa_msg_receipt_out ro = {
			.to = j->sender,
			.type = "read",
			.ids = ids,
			.n_ids = 1,
			.t = (int64_t)time(NULL),
		};
		struct wa_msg_text	 mt;
		char			 id[WA_MSG_ID_LEN + 1];
		int			 rc;

		arena_init(&ar, 0);
		if (wa_msg_receipt(&ro, &ar, &r) == 0)
			phone_inject(p, r, "read receipt");
		arena_release(&ar);
		buf_append(&txt, "echo: ", 6);
		buf_append(&txt, j->text, strlen(j->text) + 1);
		memset(&mt, 0, sizeof(mt));
		mt.text = (const char *)txt.p;
		if ((rc = wa_msg_build_text(&mt, &inner)) == 0)
			rc = phone_send_msg(p, j->chat, &inner, "text", NULL, NULL,
			    id, NULL);
		if (rc != 0)
			sim_log(j->s, "phone %s: echo to %s failed: %s",
			    j->a->pn, j->chat, wc_strerror(rc));
		else
			p->echoes++;
		buf_release(&inner);
		phone_wipe(&txt);
	}
	uv_close((uv_handle_t *)t, echo_closed);
}

void
phone_echo_schedule(struct sim_phone *p, const char *sender, const char *chat,
    const char *id, const char *text)
{
	struct echo_job	*j;

	if (p->s->stopping)
		return;
	j = xcalloc(1, sizeof(*j));
	j->s = p->s;
	j->a = p->a;
	snprintf(j->sender, sizeof(j->sender), "%s", sender);
	snprintf(j->chat, sizeof(j->chat), "%s", chat);
	snprintf(j->id, sizeof(j->id), "%s", id);
	j->text = xstrdup(text);
	uv_timer_init(&p->s->loop, &j->t);
	j->t.data = j;
	uv_timer_start(&j->t, echo_fire, PHONE_ECHO_MS, 0);
}

/* --- the chatty contact --- */

static void
chatty_closed(uv_handle_t *h)
{
	free(h->data);
}

/* a's owner has a linked companion with its prekeys on the server. */
static bool
owner_linked(struct sim *s, const struct sim_account *a,
    struct sim_account **owner)
{
	const struct sim_device	*d;

	if (a->owner[0] == '\0' ||
	    (*owner = sim_account_by_pn(s, a->owner)) == NULL)
		return false;
	for (d = (*owner)->devices; d != NULL; d = d->next)
		if (!d->removed && d->uploads > 0)
			return true;
	return false;
}

static void
chatty_fire(uv_timer_t *t)
{
	struct sim_chatty	*c = t->data;
	struct sim_account	*a = c->a, *owner;
	struct buf		 inner = BUF_INIT;
	struct wa_msg_text	 mt;
	char			 chat[PHONE_JID_MAX];
	char			 id[WA_MSG_ID_LEN + 1];
	int			 rc;

	if (a == NULL || c->s->stopping || a->phone == NULL ||
	    !owner_linked(c->s, a, &owner))
		return;
	snprintf(chat, sizeof(chat), "%s@s.whatsapp.net", owner->pn);
	memset(&mt, 0, sizeof(mt));
	mt.text = chatty_texts[c->next];
	c->next = (c->next + 1) % (sizeof(chatty_texts) /
	    sizeof(chatty_texts[0]));
	if ((rc = wa_msg_build_text(&mt, &inner)) == 0)
		rc = phone_send_msg(a->phone, chat, &inner, "text", NULL, NULL, id,
		    NULL);
	if (rc != 0)
		sim_log(c->s, "phone %s: chatty message to %s failed: %s",
		    a->pn, owner->pn, wc_strerror(rc));
	else
		sim_log(c->s, "phone %s: chatty message %s to %s", a->pn, id,
		    owner->pn);
	buf_release(&inner);
}

static void
chatty_stop(struct sim_account *a)
{
	struct sim_chatty	*c = a->chatty;

	if (c == NULL)
		return;
	c->a = NULL;
	uv_timer_stop(&c->t);
	uv_close((uv_handle_t *)&c->t, chatty_closed);
	a->chatty = NULL;
}

int
sim_phone_chatty(struct sim *s, struct sim_account *a, unsigned period_s)
{
	struct sim_chatty	*c;

	if (period_s > PHONE_CHATTY_MAX_S ||
	    (period_s > 0 && a->owner[0] == '\0'))
		return -EINVAL;
	if (s->stopping)
		return WC_ESTATE;
	chatty_stop(a);
	a->chatty_s = period_s;
	if (period_s == 0)
		return 0;
	c = xcalloc(1, sizeof(*c));
	c->s = s;
	c->a = a;
	uv_timer_init(&s->loop, &c->t);
	c->t.data = c;
	uv_timer_start(&c->t, chatty_fire, (uint64_t)period_s * 1000,
	    (uint64_t)period_s * 1000);
	a->chatty = c;
	sim_log(s, "phone %s: writes to %s every %u s once it is linked",
	    a->pn, a->owner, period_s);
	return 0;
}

void
sim_phone_chatty_stop_all(struct sim *s)
{
	struct sim_account	*a;

	for (a = s->accounts; a != NULL; a = a->next)
		chatty_stop(a);
}
