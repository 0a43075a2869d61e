/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-poll.c -- polls from the screen (issue 20;
 * protocol-features.md 3.1): the vote key (ui/keys.h) on a selected poll
 * opens PROMPT_VOTE, a chooser over the input: each option with its
 * number and a box, digits or Space (on the option Left and Right move
 * to) toggle, a poll of one answer keeps one, Enter sends CMD_POLL_VOTE
 * (the tally changes when the engine has it), Esc goes back.  The
 * chooser starts with our current vote ticked.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>		/* KEY_* codes */

#include "base/buf.h"
#include "base/i18n.h"
#include "base/rich.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/media.h"
#include "ui/view-int.h"
#include "ui/view-poll.h"

/* Our vote in the poll record r, as a bit per option (bit k-1 for k). */
static uint32_t
our_vote(const struct rich *r)
{
	uint32_t	 on = 0;
	size_t		 i;
	bool		 ours = false;
	unsigned long	 k;

	for (i = 0; i < r->n; i++) {
		if (strcmp(r->kv[i].key, "vote") == 0)
			ours = r->kv[i].val[0] == '\0';
		else if (ours && strcmp(r->kv[i].key, "pick") == 0 &&
		    (k = strtoul(r->kv[i].val, NULL, 10)) >= 1 &&
		    k <= UI_VIEW_POLL_MAX)
			on |= 1u << (k - 1);
		else if (strcmp(r->kv[i].key, "by") != 0 &&
		    strcmp(r->kv[i].key, "pick") != 0)
			ours = false;
	}
	return on;
}

void
ui_view_vote(struct ui_view *v)
{
	const struct ui_msg	*g = &v->msgs.v[v->msgs.sel];
	struct ui_view_prompt	*p = &v->prompt;
	struct rich		 r;
	const char		*sel;

	if (g->rich == NULL || g->deleted || rich_parse(g->rich,
	    strlen(g->rich), &r) != 0 || r.type != RICH_POLL) {
		if (g->rich != NULL)
			rich_release(&r);
		ui_view_note(v, _("select a poll first"));
		return;
	}
	free(p->poll);
	free(p->poll_id);
	p->poll = xstrdup(g->rich);
	p->poll_id = xstrdup(g->id);
	p->poll_n = rich_poll_noptions(&r);
	if (p->poll_n > UI_VIEW_POLL_MAX)
		p->poll_n = UI_VIEW_POLL_MAX;
	sel = rich_get(&r, "sel", NULL);
	p->poll_one = sel != NULL && strcmp(sel, "1") == 0;
	p->poll_on = our_vote(&r) & ((p->poll_n < 32 ? 1u << p->poll_n :
	    0u) - 1u);
	p->poll_cur = 0;
	rich_release(&r);
	ui_view_prompt_start(v, PROMPT_VOTE);
}

/* Option i (from 0) ticked or not. */
static void
toggle(struct ui_view_prompt *p, size_t i)
{
	uint32_t	 bit = 1u << i;

	if (i >= p->poll_n)
		return;
	if (p->poll_one)
		p->poll_on = p->poll_on == bit ? 0 : bit;
	else
		p->poll_on ^= bit;
	p->poll_cur = i;
}

bool
ui_view_vote_key(struct ui_view *v, int k)
{
	struct ui_view_prompt	*p = &v->prompt;

	if (k >= '1' && k <= '9')
		toggle(p, (size_t)(k - '1'));
	else if (k == ' ')
		toggle(p, p->poll_cur);
	else if (k == UI_KEY_FN + KEY_LEFT && p->poll_cur > 0)
		p->poll_cur--;
	else if (k == UI_KEY_FN + KEY_RIGHT && p->poll_cur + 1 < p->poll_n)
		p->poll_cur++;
	return true;	/* nothing is typed here */
}

void
ui_view_vote_enter(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;
	struct cmd		*c;
	char			 picks[UI_VIEW_POLL_MAX * 4 + 1];
	size_t			 i, n = 0;

	picks[0] = '\0';
	for (i = 0; i < p->poll_n; i++)
		if (p->poll_on & 1u << i)
			n += (size_t)snprintf(picks + n, sizeof(picks) - n,
			    "%s%zu", n > 0 ? "," : "", i + 1);
	if (p->poll_id != NULL && v->msgs.chat != NULL) {
		c = cmd_new_chat(CMD_POLL_VOTE, v->msgs.chat);
		ev_set(&c->u.poll_vote.id, p->poll_id);
		ev_set(&c->u.poll_vote.picks, picks);
		ui_view_push(v, c);
	}
	p->kind = PROMPT_NONE;
}

const char *
ui_view_vote_words(struct ui_view *v, char *line, size_t size)
{
	struct ui_view_prompt	*p = &v->prompt;
	struct buf		 b = BUF_INIT;
	struct rich		 r;
	const char		*o;
	bool			 utf8 = ui_media_utf8();
	char			 head[32];
	size_t			 i;

	if (p->poll == NULL || rich_parse(p->poll, strlen(p->poll), &r) != 0)
		return NULL;
	buf_append(&b, p->poll_one ? _("Vote (one):") : _("Vote:"),
	    strlen(p->poll_one ? _("Vote (one):") : _("Vote:")));
	for (i = 0; i < p->poll_n; i++) {
		snprintf(head, sizeof(head), " %s%s%zu ", i == p->poll_cur ?
		    (utf8 ? "▸" : ">") : "", p->poll_on & 1u << i ? "[x]" :
		    "[ ]", i + 1);
		buf_append(&b, head, strlen(head));
		if ((o = rich_poll_option(&r, i + 1)) != NULL) {
			wc_sanitize(o, strlen(o), false, &b);
			b.len--;	/* its NUL */
		}
	}
	rich_release(&r);
	snprintf(line, size, "%.*s; %s", (int)b.len, (const char *)b.p,
	    _("digits or Space toggle, Enter votes, Esc goes back"));
	buf_release(&b);
	return line;
}

/* ---- a poll of ours: question, options, one or several answers ---- */

/* Whether the prompt's text has more than blanks. */
static bool
filled(const struct ui_input *in)
{
	size_t	 i;

	for (i = 0; i < in->len; i++)
		if (in->text[i] != ' ' && in->text[i] != '\t' &&
		    in->text[i] != '\n')
			return true;
	return false;
}

void
ui_view_poll_new(struct ui_view *v, int64_t now)
{
	struct ui_view_prompt	*p = &v->prompt;

	(void)now;
	if (v->msgs.chat == NULL) {
		ui_view_note(v, _("open a chat first"));
		return;
	}
	free(p->poll);
	free(p->poll_id);
	p->poll = p->poll_id = NULL;
	p->poll_n = 0;
	ui_view_prompt_start(v, PROMPT_POLL_Q);
}

void
ui_view_poll_q_enter(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;

	if (!filled(&p->in)) {
		p->err = _("a poll needs a question");
		return;
	}
	free(p->poll);
	free(p->poll_id);
	p->poll = xstrdup(p->in.text);
	p->poll_id = xstrdup("");	/* the options, each ended by '\n' */
	p->poll_n = 0;
	ui_view_prompt_start(v, PROMPT_POLL_OPT);
}

/* Whether the options so far (each ended by '\n') hold o. */
static bool
has_option(const char *list, const char *o)
{
	size_t		 n = strlen(o);
	const char	*s;

	for (s = list; *s != '\0'; s = strchr(s, '\n') + 1)
		if (strncmp(s, o, n) == 0 && s[n] == '\n')
			return true;
	return false;
}

void
ui_view_poll_opt_enter(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;
	struct buf		 b = BUF_INIT;
	char			*o, *nl;

	if (!filled(&p->in)) {
		if (p->poll_n >= 2)
			ui_view_prompt_start(v, PROMPT_POLL_MULTI);
		else
			p->err = _("a poll needs two options at least");
		return;
	}
	o = xstrdup(p->in.text);
	while ((nl = strchr(o, '\n')) != NULL)
		*nl = ' ';	/* one line an option */
	if (has_option(p->poll_id, o)) {
		p->err = _("that option is there already");
		free(o);
		return;
	}
	buf_append(&b, p->poll_id, strlen(p->poll_id));
	buf_append(&b, o, strlen(o));
	buf_append(&b, "\n", 2);
	free(o);
	free(p->poll_id);
	p->poll_id = (char *)b.p;
	if (++p->poll_n == UI_VIEW_POLL_MAX)
		ui_view_prompt_start(v, PROMPT_POLL_MULTI);
	else
		ui_view_prompt_start(v, PROMPT_POLL_OPT);
}

bool
ui_view_poll_multi_key(struct ui_view *v, int k)
{
	struct ui_view_prompt	*p = &v->prompt;
	struct cmd		*c;

	if (k != '1' && k != '2')
		return true;	/* nothing is typed here */
	if (v->msgs.chat != NULL && p->poll != NULL && p->poll_id != NULL) {
		c = cmd_new_chat(CMD_POLL_NEW, v->msgs.chat);
		ev_set(&c->u.poll_new.question, p->poll);
		ev_set(&c->u.poll_new.options, p->poll_id);
		c->u.poll_new.multi = k == '2';
		ui_view_push(v, c);
	}
	p->kind = PROMPT_NONE;
	return true;
}

const char *
ui_view_poll_words(struct ui_view *v, char *line, size_t size, int cols)
{
	struct ui_view_prompt	*p = &v->prompt;

	switch (p->kind) {
	case PROMPT_POLL_Q:
		return _("New poll: its question, Enter goes on to its options, "
		    "Esc goes back");
	case PROMPT_POLL_OPT:
		snprintf(line, size, _("Option %zu (2 to 12): Enter adds it; an "
		    "empty Enter after two goes on"), p->poll_n + 1);
		(void)cols;
		return line;
	case PROMPT_POLL_MULTI:
		return _("One answer or several? 1 one, 2 several; Esc goes "
		    "back");
	default:
		return NULL;
	}
}
