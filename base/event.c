/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/event.c -- the events and commands of base/event.h: making and
 * freeing them.  libc only; callable from any thread.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/event.h"
#include "base/xmalloc.h"

struct ev *
ev_new(enum ev_kind kind, const char *text)
{
	struct ev	*ev = xcalloc(1, sizeof(*ev));

	ev->kind = kind;
	ev->text = xstrdup(text != NULL ? text : "");
	return ev;
}

void
ev_free(struct ev *ev)
{
	size_t	 i;

	if (ev == NULL)
		return;
	for (i = 0; i < ev->nchats; i++) {
		free(ev->chats[i].jid);
		free(ev->chats[i].name);
		free(ev->chats[i].preview);
		free(ev->chats[i].last_sender_name);
		free(ev->chats[i].last_sender);
	}
	free(ev->chats);
	for (i = 0; i < ev->nmsgs; i++) {
		free(ev->msgs[i].id);
		free(ev->msgs[i].sender);
		free(ev->msgs[i].sender_name);
		free(ev->msgs[i].text);
		free(ev->msgs[i].quoted_id);
		free(ev->msgs[i].quoted_sender);
		free(ev->msgs[i].quoted_text);
		free(ev->msgs[i].reactions);
	}
	free(ev->msgs);
	for (i = 0; i < ev->nmembers; i++) {
		free(ev->members[i].jid);
		free(ev->members[i].alt);
		free(ev->members[i].name);
	}
	free(ev->members);
	for (i = 0; i < ev->nhits; i++) {
		free(ev->hits[i].chat);
		free(ev->hits[i].chat_name);
		free(ev->hits[i].id);
		free(ev->hits[i].sender);
		free(ev->hits[i].sender_name);
		free(ev->hits[i].snippet);
	}
	free(ev->hits);
	free(ev->sender_name);
	free(ev->aux);
	free(ev->text);
	free(ev->chat);
	free(ev->id);
	free(ev->sender);
	free(ev->quoted_id);
	free(ev);
}

struct cmd *
cmd_new(enum cmd_kind kind, const char *arg)
{
	struct cmd	*c = xcalloc(1, sizeof(*c));

	c->kind = kind;
	c->arg = xstrdup(arg != NULL ? arg : "");
	return c;
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

struct cmd *
cmd_new_chat(enum cmd_kind kind, const char *chat, const char *id,
    const char *arg, const char *aux, int flag)
{
	struct cmd	*c = cmd_new(kind, arg);

	c->chat = dup_or_null(chat);
	c->id = dup_or_null(id);
	c->aux = dup_or_null(aux);
	c->flag = flag;
	return c;
}

void
cmd_free(struct cmd *c)
{
	if (c == NULL)
		return;
	free(c->arg);
	free(c->chat);
	free(c->id);
	free(c->aux);
	free(c->quoted);
	free(c);
}
