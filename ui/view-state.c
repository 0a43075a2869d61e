/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-state.c -- what every room of the chat screen uses
 * (ui/view-int.h), below them all: a command handed to the view's push
 * function, the passing note, a sentence with a name cut to fit, which
 * chat is open and its group, a prompt or question started and dropped
 * (what its keys do is ui/view-prompt.c's), and the editing keys of the
 * input line, the prompts and the search's query.  It calls no other
 * ui/view-*.c file.  Main thread; curses only for the editing keys'
 * beep().
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curses.h>		/* KEY_* codes, beep() */

#include "base/buf.h"
#include "base/jid.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/text.h"
#include "ui/view-int.h"

#define NAME_COLS_MIN	8	/* a name cut shorter says nothing */

/* ---- the view's push, the note, names cut to fit ---- */

void
ui_view_push(struct ui_view *v, struct cmd *c)
{
	if (c != NULL)
		v->push(v->arg, c);
}

void
ui_view_note(struct ui_view *v, const char *text)
{
	struct buf	 b = BUF_INIT;

	free(v->note);
	v->note = NULL;
	if (text == NULL)
		return;
	wc_sanitize(text, strlen(text), false, &b);
	v->note = (char *)b.p;
}

/*
 * s as it fits in cols columns, into out[size]: whole characters as seen
 * (ui_text_fit()), ending in "…" when cut ("..." on a
 * terminal that is not UTF-8).  Returns out.
 */
static const char *
shorten(const char *s, int cols, char *out, size_t size)
{
	const char	*dots;
	size_t		 len = strlen(s), n;
	int		 dw;

	n = ui_text_fit(s, len, cols, NULL);
	if (n == len) {
		snprintf(out, size, "%s", s);
		return out;
	}
	/* "..." where the terminal has no "…" (ui_text_ascii()) */
	dots = ui_text_ascii() ? "..." : "\u2026";
	dw = ui_text_ascii() ? 3 : 1;
	n = ui_text_fit(s, len, cols > dw ? cols - dw : 0, NULL);
	snprintf(out, size, "%.*s%s", (int)n, s, dots);
	return out;
}

/*
 * The sentence fmt with name put where its "%s" is (and "%%" read as
 * "%"), into line[size], cut at size - 1 bytes: what snprintf(line, size,
 * fmt, name) writes for such a sentence, without handing a translated
 * string to printf as its format.
 */
static void
put_name(char *line, size_t size, const char *fmt, const char *name)
{
	size_t	 n = 0;
	bool	 put = false;

	if (size == 0)
		return;
	for (; *fmt != '\0' && n + 1 < size; fmt++) {
		if (fmt[0] == '%' && fmt[1] == 's' && !put) {
			for (; *name != '\0' && n + 1 < size; name++)
				line[n++] = *name;
			put = true;
			fmt++;
		} else if (fmt[0] == '%' && fmt[1] == '%') {
			line[n++] = '%';
			fmt++;
		} else
			line[n++] = *fmt;
	}
	line[n] = '\0';
}

const char *
ui_view_with_name(char *line, size_t size, int cols, const char *fmt,
    const char *name)
{
	char	 nm[256];
	int	 rest;

	put_name(line, size, fmt, "");
	rest = cols - ui_text_width(line, strlen(line));
	put_name(line, size, fmt, shorten(name, rest > NAME_COLS_MIN ? rest :
	    NAME_COLS_MIN, nm, sizeof(nm)));
	return line;
}

bool
ui_view_is_open(const struct ui_view *v, const char *chat)
{
	return chat != NULL && v->msgs.chat != NULL &&
	    strcmp(chat, v->msgs.chat) == 0;
}

struct ui_group *
ui_view_open_group(const struct ui_view *v)
{
	return ui_group_is_jid(v->msgs.chat) ?
	    ui_groups_find(&v->groups, v->msgs.chat) : NULL;
}

bool
ui_view_open_left(const struct ui_view *v)
{
	const struct ui_group	*g = ui_view_open_group(v);

	return g != NULL && g->left;
}

/* ---- a prompt started and dropped ---- */

void
ui_view_prompt_release(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;

	ui_input_release(&p->in);
	free(p->react_id);
	free(p->revoke_id);
	free(p->new_subject);
	free(p->made_subject);
	free(p->attach_path);
	free(p->attach_names);
	free(p->save_from);
	free(p->card);
	free(p->poll);
	free(p->poll_id);
	memset(p, 0, sizeof(*p));
}

void
ui_view_prompt_start(struct ui_view *v, enum ui_view_prompt_kind kind)
{
	v->prompt.kind = kind;
	v->prompt.err = NULL;
	ui_input_clear(&v->prompt.in);
}

void
ui_view_prompt_start_with(struct ui_view *v, enum ui_view_prompt_kind kind,
    const char *text)
{
	ui_view_prompt_start(v, kind);
	if (ui_input_insert(&v->prompt.in, text, strlen(text)) != 0)
		ui_input_clear(&v->prompt.in);
}

void
ui_view_prompt_react(struct ui_view *v, const char *id, bool mine)
{
	free(v->prompt.react_id);
	v->prompt.react_id = xstrdup(id);
	v->prompt.react_mine = mine;
	ui_view_prompt_start(v, PROMPT_REACT);
}

void
ui_view_prompt_date(struct ui_view *v, int64_t now)
{
	(void)now;
	if (v->msgs.chat != NULL)
		ui_view_prompt_start(v, PROMPT_DATE);
}

void
ui_view_prompt_revoke(struct ui_view *v, const char *id)
{
	free(v->prompt.revoke_id);
	v->prompt.revoke_id = xstrdup(id);
	ui_view_prompt_start(v, PROMPT_REVOKE);
}

bool
ui_view_phone_jid(const char *d, size_t n, char *jid)
{
	return n >= UI_VIEW_PHONE_MIN && n <= UI_VIEW_PHONE_MAX &&
	    d[0] != '0' && strspn(d, "0123456789") >= n &&
	    jid_from_phone(d, n, jid, JID_MAX);
}

/* ---- the editing keys ---- */

bool
ui_view_keys_text(int k)
{
	return k >= 0x20 && k != 0x7f && k < UI_KEY_FN &&
	    !(k >= 0x80 && k < 0xa0);
}

bool
ui_view_keys_edit(struct ui_input *in, int k)
{
	switch (k) {
	case UI_KEY_FN + KEY_LEFT:	ui_input_left(in); return true;
	case UI_KEY_FN + KEY_RIGHT:	ui_input_right(in); return true;
	case UI_KEY_FN + KEY_HOME:
	case 0x01:			ui_input_home(in); return true;
	case UI_KEY_FN + KEY_END:
	case 0x05:			ui_input_end(in); return true;
	case UI_KEY_FN + KEY_BACKSPACE:
	case 0x7f:
	case 0x08:			ui_input_backspace(in); return true;
	case UI_KEY_FN + KEY_DC:	ui_input_delete(in); return true;
	case 0x0b:			ui_input_kill_end(in); return true;
	case 0x15:			ui_input_kill_start(in); return true;
	}
	if (ui_view_keys_text(k)) {
		if (ui_input_insert_cp(in, (uint32_t)k) != 0)
			beep();
		return true;
	}
	return false;
}
