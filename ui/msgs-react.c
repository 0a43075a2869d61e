/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/msgs-react.c -- the reactions a row of the message pane holds
 * (ui/msgs-int.h): from the engine's count, or one sender's at a time
 * from events it did not count; and the sanitiser every network string
 * of a row goes through.  ui/msgs.c calls it, never the other way.  Main
 * thread.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/msgs-int.h"

char *
ui_msgs_clean(const char *s, bool multiline)
{
	struct buf	 b = BUF_INIT;

	if (s == NULL)
		s = "";
	wc_sanitize(s, strlen(s), multiline, &b);
	return (char *)b.p;
}

static void
reactor_release(struct ui_reactor *r)
{
	free(r->sender);
	free(r->name);
}

static void
react_release(struct ui_react *r)
{
	size_t	 i;

	free(r->emoji);
	for (i = 0; i < r->nwho; i++)
		reactor_release(&r->who[i]);
	free(r->who);
}

void
ui_msgs_reacts_release(struct ui_msg *g)
{
	size_t	 i;

	for (i = 0; i < g->nreacts; i++)
		react_release(&g->reacts[i]);
	free(g->reacts);
	g->reacts = NULL;
	g->nreacts = 0;
}

/* g's reactions, all of them, from the engine's count t[0..n): each
 * emoji and name sanitised. */
void
ui_msgs_reacts_of_tally(struct ui_msg *g, const struct ev_tally *t, uint32_t n)
{
	struct ui_react	*r;
	uint32_t	 i, j;

	ui_msgs_reacts_release(g);
	if (n == 0)
		return;
	g->reacts = xcalloc(n, sizeof(*g->reacts));
	for (i = 0; i < n; i++) {
		if (t[i].emoji == NULL || t[i].emoji[0] == '\0' ||
		    t[i].count == 0)
			continue;
		r = &g->reacts[g->nreacts++];
		r->emoji = ui_msgs_clean(t[i].emoji, false);
		r->count = t[i].count;
		r->who = xcalloc(t[i].nwho > 0 ? t[i].nwho : 1,
		    sizeof(*r->who));
		for (j = 0; j < t[i].nwho && j < t[i].count; j++) {
			r->who[j].sender = xstrdup(t[i].who[j].sender);
			r->who[j].name = ui_msgs_clean(t[i].who[j].name, false);
		}
		r->nwho = j;
	}
}

/* The most people whose reactions to one row known only from events
 * are kept. */
#define REACTORS_MAX	256

/* Take sender's reaction to g away, if g has it named. */
static void
unreact(struct ui_msg *g, const char *sender)
{
	struct ui_react	*r;
	size_t		 i, j;

	for (i = 0; i < g->nreacts; i++) {
		r = &g->reacts[i];
		for (j = 0; j < r->nwho; j++)
			if (strcmp(r->who[j].sender, sender) == 0)
				break;
		if (j == r->nwho)
			continue;
		reactor_release(&r->who[j]);
		memmove(&r->who[j], &r->who[j + 1], (r->nwho - j - 1) *
		    sizeof(*r->who));
		r->nwho--;
		if (--r->count == 0) {
			react_release(r);
			memmove(r, r + 1, (g->nreacts - i - 1) * sizeof(*r));
			g->nreacts--;
		}
		return;
	}
}

/* sender's reaction to g is emoji now ("" none): an event the engine
 * did not count. */
void
ui_msgs_react(struct ui_msg *g, const char *sender, const char *emoji)
{
	struct ui_react	*r;
	char		*e = ui_msgs_clean(emoji, false);
	size_t		 i, n = 0;

	unreact(g, sender);
	for (i = 0; i < g->nreacts; i++)
		n += g->reacts[i].count;
	if (e[0] == '\0' || n >= REACTORS_MAX) {
		free(e);	/* bounded: one per sender */
		return;
	}
	for (i = 0; i < g->nreacts && strcmp(g->reacts[i].emoji, e) != 0;
	    i++)
		;
	if (i == g->nreacts) {
		g->reacts = xrealloc(g->reacts, (g->nreacts + 1) *
		    sizeof(*g->reacts));
		r = &g->reacts[g->nreacts++];
		memset(r, 0, sizeof(*r));
		r->emoji = e;
	} else {
		r = &g->reacts[i];
		free(e);
	}
	r->who = xrealloc(r->who, (r->nwho + 1) * sizeof(*r->who));
	r->who[r->nwho].sender = xstrdup(sender);
	r->who[r->nwho].name = xstrdup("");
	r->nwho++;
	r->count++;
}
