/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-draw.c -- drawing the chat screen (ui_view_draw(),
 * ui_view_colours(); ui/view-int.h): the chat list on the left, on the
 * right the open chat's bar (name; typing…, online or last seen; a
 * group's member count), the messages (ui/msgs.h) or what stands in
 * their place (ui/view-panes.c), the line over the input (a note, a
 * prompt's words, the reply or edit being written, the selected
 * message's keys), the input line up to a few rows, the help line at the
 * bottom, and the key page.  Main thread (curses).
 */
#include "base/compat.h"

#include <stdio.h>
#include <string.h>

#include <curses.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/notice.h"
#include "ui/text.h"
#include "ui/term.h"
#include "ui/view-int.h"

#define PAIR_READ	2	/* read ticks (ui/msgs-draw.c) */
#define INPUT_ROWS_MAX	5
#define LIST_COLS_MIN	16	/* the chat list: a third of the width, */
#define LIST_COLS_MAX	32	/* within these */

/*
 * The senders' colours (ui/groups.h): mid-tone colours of the 256-colour
 * cube, which read on dark and light backgrounds alike (red, green, blue,
 * magenta, teal, orange, violet, olive); with 8 colours the basic ones
 * but yellow and white (unreadable on light) and black (on dark).
 */
static const short sender_256[UI_GROUP_COLOURS] = {
	167, 71, 68, 133, 37, 172, 98, 100,
};
static const short sender_8[UI_GROUP_COLOURS] = {
	COLOR_RED, COLOR_GREEN, COLOR_BLUE, COLOR_MAGENTA, COLOR_CYAN,
	COLOR_RED, COLOR_GREEN, COLOR_MAGENTA,
};

void
ui_view_colours(void)
{
	short	 bg = -1, fg;
	int	 i;

	if (!has_colors())
		return;
	if (use_default_colors() != OK ||
	    init_pair(PAIR_READ, COLOR_CYAN, -1) != OK) {
		bg = COLOR_BLACK;
		(void)init_pair(PAIR_READ, COLOR_CYAN, COLOR_BLACK);
	}
	for (i = 0; i < UI_GROUP_COLOURS; i++) {
		fg = COLORS >= 256 ? sender_256[i] : sender_8[i];
		if (COLOR_PAIRS > UI_GROUP_PAIR0 + i)
			(void)init_pair((short)(UI_GROUP_PAIR0 + i), fg, bg);
	}
}

/* The key page being laid out: rows counted from 0 over the whole page,
 * those from top on drawn from screen row y while they fit. */
struct help_pen {
	int	 x, w, y, rows, top, n;
	bool	 draw;
};

#define HELP_KEY_COLS	12

/* One entry: the key, then what it does wrapped to the columns left
 * (continued under the text, never cut in a word); a key wider than its
 * column stands on a row of its own, its text under it. */
static void
help_entry(struct help_pen *p, const char *key, const char *what)
{
	struct ui_line	 l[8];
	int		 n, i, tw = p->w - HELP_KEY_COLS - 1, r;
	bool		 alone = ui_text_width(key, strlen(key)) >
			    HELP_KEY_COLS;

	if (tw < 8)
		tw = 8;
	n = ui_text_wrap(what, strlen(what), tw, l, 8);
	for (i = alone ? -1 : 0; i < n && i < 8; i++, p->n++) {
		r = p->n - p->top;
		if (!p->draw || r < 0 || r >= p->rows)
			continue;
		if (i < 0 || (i == 0 && !alone))
			(void)ui_view_put(p->y + r, p->x, key, i < 0 ? p->w :
			    HELP_KEY_COLS);
		if (i >= 0)
			(void)ui_text_draw(p->y + r, p->x + HELP_KEY_COLS + 1,
			    what + l[i].off, l[i].len, tw);
	}
}

static void
help_entries(struct ui_view *v, struct help_pen *p)
{
	static const char *const fixed[][2] = {
		{ "Ctrl-a Ctrl-e", N_("start, end of the line") },
		{ "Ctrl-k Ctrl-u", N_("delete to the end, to the start") },
		{ "1-6 0", N_("quick reactions, remove (react prompt)") },
		{ "r a d l b", N_("rename, add, remove, leave; b blocks "
		    "(info)") },
		{ "@", N_("mention a group member (Up, Down, Tab)") },
		{ "Alt-r", N_("log in again (when the status line says "
		    "stopped)") },
	};
	/* Two actions that go together, on one entry when both are bound:
	 * "PgUp PgDn", "Home End", "Alt-m Alt-d", "Ctrl-l Alt-z", and the
	 * app-state keys two by two (so that the page, with jump-date,
	 * archived, the chat's mute, pin, archive, ... keys and the media
	 * keys, fits the 40 rows tests/ui-de-tmux.sh gives it). */
	static const struct {
		int		 first, second;
		const char	*what;
	} pairs[] = {
		{ UI_ACT_PREV_PAGE, UI_ACT_NEXT_PAGE,
		    N_("older, newer messages") },
		{ UI_ACT_OLDEST, UI_ACT_NEWEST,
		    N_("oldest, newest messages (input empty)") },
		{ UI_ACT_COPY, UI_ACT_OPEN_LINK,
		    N_("copy the selected message, open a link") },
		{ UI_ACT_GROUP_NEW, UI_ACT_GROUP_LEAVE,
		    N_("new group, leave the group") },
		{ UI_ACT_LIST, UI_ACT_ARCHIVED,
		    N_("hide, show the list; archived chats") },
		{ UI_ACT_PEEK, UI_ACT_JUMP_DATE,
		    N_("peek (no read receipts); jump to a date") },
		{ UI_ACT_SELECT_UP, UI_ACT_SELECT_DOWN,
		    N_("select a message (input empty), a newer one") },
		{ UI_ACT_REACT, UI_ACT_STAR,
		    N_("react to, star the selected message") },
		{ UI_ACT_FIND, UI_ACT_FIND_ALL,
		    N_("search the open chat, all chats") },
		{ UI_ACT_MUTE, UI_ACT_PIN,
		    N_("mute or unmute, pin or unpin the chat") },
		{ UI_ACT_ARCHIVE, UI_ACT_MARK_UNREAD,
		    N_("archive the chat, mark it unread") },
		{ UI_ACT_DELETE_CHAT, UI_ACT_CLEAR_CHAT,
		    N_("delete, clear the chat (asks first)") },
		{ UI_ACT_CANCEL, UI_ACT_HELP,
		    N_("leave selection, reply, prompt; help") },
		{ UI_ACT_ATTACH, UI_ACT_VOICE,
		    N_("send a file (Tab completes), a voice note") },
		{ UI_ACT_EDIT, UI_ACT_DELETE,
		    N_("edit, delete for everyone your selected message") },
		{ UI_ACT_DOWNLOAD, UI_ACT_OPEN,
		    N_("download, open the selected file") },
		{ UI_ACT_GROUP_INFO, UI_ACT_DISAPPEAR,
		    N_("group info; disappearing messages (timer)") },
		{ UI_ACT_NEW_CHAT, UI_ACT_CARD_CHAT,
		    N_("open a chat (name, number; a card's number)") },
		{ UI_ACT_FORWARD, UI_ACT_SAVE_AS,
		    N_("forward the selected message, save its file") },
		{ UI_ACT_RETRY, UI_ACT_VOTE,
		    N_("send a failed message again; vote (a poll)") },
		{ UI_ACT_SEND, UI_ACT_POLL_NEW,
		    N_("send (or reply); send a poll") },
	};
	const int *kk = v->o.keys.key;
	char	 key[32];
	size_t	 k, j;
	int	 i;

	p->n = 0;
	for (i = 0; i < UI_ACT_COUNT; i++) {
		for (j = 0; j < sizeof(pairs) / sizeof(pairs[0]); j++)
			if ((i == pairs[j].first || i == pairs[j].second) &&
			    kk[pairs[j].first] != 0 && kk[pairs[j].second] != 0)
				break;
		if (i == UI_ACT_REJECT_CALL)
			continue;	/* with Alt-r, below */
		if (j < sizeof(pairs) / sizeof(pairs[0])) {
			if (i == pairs[j].second)
				continue;
			ui_keys_name(kk[i], key, sizeof(key) / 2);
			k = strlen(key);
			key[k++] = ' ';
			ui_keys_name(kk[pairs[j].second], key + k,
			    sizeof(key) - k);
			help_entry(p, key, _(pairs[j].what));
			continue;
		}
		/* Enter replies to a selected message too (README,
		 * wachat.1): "Enter Ctrl-r" */
		if (i == UI_ACT_REPLY) {
			memcpy(key, "Enter ", 6);
			ui_keys_name(v->o.keys.key[i], key + 6,
			    sizeof(key) - 6);
		} else
			ui_keys_name(v->o.keys.key[i], key, sizeof(key));
		if (key[0] != '\0')
			help_entry(p, key, ui_keys_action_help(
			    (enum ui_key_action)i));
	}
	help_entry(p, _("Enter"), v->o.enter_sends ? _("send") :
	    _("new line"));
	for (k = 0; k + 1 < sizeof(fixed) / sizeof(fixed[0]); k++)
		help_entry(p, fixed[k][0], _(fixed[k][1]));
	/* the two keys of the status line on one entry: "Alt-0 Alt-r" */
	ui_keys_name(kk[UI_ACT_REJECT_CALL], key, sizeof(key) / 2);
	if (key[0] == '\0') {
		help_entry(p, fixed[k][0], _(fixed[k][1]));
		return;
	}
	k = strlen(key);
	snprintf(key + k, sizeof(key) - k, " Alt-r");
	help_entry(p, key, _("decline a call; log in again (status line)"));
}

/* The key page, from its row v->help.top (clamped here); Up, Down, PgUp
 * and PgDn scroll it when it does not fit (ui/view-keys.c). */
static void
draw_help(struct ui_view *v, int y, int x, int h, int w)
{
	struct help_pen	 p = { x, w, y + 1, h - 1, 0, 0, false };

	help_entries(v, &p);		/* how many rows */
	if (v->help.top > p.n - p.rows)
		v->help.top = p.n - p.rows;
	if (v->help.top < 0)
		v->help.top = 0;
	v->help.rows = p.rows;
	p.top = v->help.top;
	p.draw = true;
	help_entries(v, &p);
	attron(A_BOLD);
	(void)ui_view_put(y, x, p.n > p.rows ? _("Keys (Up, Down, PgUp, PgDn "
	    "scroll; any other key closes this page)") : _("Keys (any key "
	    "closes this page)"), w);
	attroff(A_BOLD);
}

/* What the bar says after the name of chat ch: typing…, online or
 * when last seen; else a group's member count, or that we left it; NULL
 * for nothing (line: size bytes it may be written into). */
static const char *
bar_state(struct ui_view *v, const struct ui_chat *ch, int64_t now,
    char *line, size_t size)
{
	const struct ui_group	*g;
	char			 when[32];

	if (v->bar.typing)
		return _("typing…");
	if (v->bar.online == 1)
		return _("online");
	if (v->bar.last_seen_ms != 0) {
		ui_chats_when(v->bar.last_seen_ms, now, when, sizeof(when));
		snprintf(line, size, _("last seen %s"), when);
		return line;
	}
	if (!ch->group || (g = ui_view_open_group(v)) == NULL)
		return NULL;
	if (g->left)
		return _("you are no longer a member");
	if (!g->known)
		return NULL;
	snprintf(line, size, ngettext("%zu member", "%zu members", g->n),
	    g->n);
	return line;
}

/* The open chat's bar: name, then typing…, online or last seen. */
static void
draw_bar(struct ui_view *v, int y, int x, int w, int64_t now)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	char		 line[96];
	const char	*state;
	int		 used;

	attron(A_BOLD);
	mvhline(y, x, ' ', w);
	if (ch == NULL) {
		ui_view_put(y, x + 1, _("No chat open: Ctrl-n finds one or "
		    "starts one"), w - 1);
		attroff(A_BOLD);
		return;
	}
	used = 1 + ui_view_put(y, x + 1, ch->name, w - 1);
	attroff(A_BOLD);
	if (ui_view_peeking(v, ch)) {
		used += ui_view_put(y, x + used, "  ", w - used);
		attron(A_REVERSE);
		used += ui_view_put(y, x + used, _("peek"), w - used);
		attroff(A_REVERSE);
	}
	if (ch->ephemeral_s > 0) {
		char	 span[48];

		notice_ephem_span(ch->ephemeral_s, span, sizeof(span));
		snprintf(line, sizeof(line), _("disappearing: %s"), span);
		used += ui_view_put(y, x + used, "  ", w - used);
		used += ui_view_put(y, x + used, line, w - used);
	}
	if (ch->blocked) {
		used += ui_view_put(y, x + used, "  ", w - used);
		attron(A_REVERSE);
		used += ui_view_put(y, x + used, _("blocked"), w - used);
		attroff(A_REVERSE);
	}
	if ((state = bar_state(v, ch, now, line, sizeof(line))) != NULL) {
		attron(A_DIM);
		used += ui_view_put(y, x + used, "  ", w - used);
		(void)ui_view_put(y, x + used, state, w - used);
		attroff(A_DIM);
	}
}

/* Of the help line's items (separated by two spaces), the ones that fit
 * in cols columns, into out[size]: whole items, those of least use left
 * out first (Up, the next chat, send, quit; the help key stays). */
static void
fit_hints(const char *line, int cols, char *out, size_t size)
{
	static const int drop[] = { 2, 1, 0, 4, 3 };	/* in this order */
	const char	*item[8];
	size_t		 len[8], n = 0, k, i, o;
	bool		 gone[8] = { false };
	const char	*p = line, *sep;
	int		 width;

	while (n < 8) {
		sep = strstr(p, "  ");
		item[n] = p;
		len[n++] = sep != NULL ? (size_t)(sep - p) : strlen(p);
		if (sep == NULL)
			break;
		p = sep + 2;
	}
	for (k = 0;; k++) {
		o = 0;
		width = 0;
		out[0] = '\0';
		for (i = 0; i < n; i++) {
			if (gone[i] || o + len[i] + 3 > size)
				continue;
			if (o > 0) {
				memcpy(out + o, "  ", 2);
				o += 2;
			}
			memcpy(out + o, item[i], len[i]);
			o += len[i];
			out[o] = '\0';
		}
		width = ui_text_width(out, o);
		if (width <= cols || k >= sizeof(drop) / sizeof(drop[0]))
			return;
		if ((size_t)drop[k] < n)
			gone[drop[k]] = true;
	}
}

/* The help line at the bottom. */
static void
draw_hints(struct ui_view *v, int y, int x, int w)
{
	char	 send[32], next[32], help[32], quit[32], line[256], fit[256];

	ui_keys_name(v->o.keys.key[UI_ACT_SEND], send, sizeof(send));
	ui_keys_name(v->o.keys.key[UI_ACT_NEXT_CHAT], next, sizeof(next));
	ui_keys_name(v->o.keys.key[UI_ACT_HELP], help, sizeof(help));
	ui_keys_name(v->o.keys.key[UI_ACT_QUIT], quit, sizeof(quit));
	snprintf(line, sizeof(line), _("%s send  %s next chat  Up select  "
	    "%s help  %s quit"), v->o.enter_sends ? "Enter" : send, next,
	    help, quit);
	fit_hints(line, w - 1, fit, sizeof(fit));
	attron(A_REVERSE);
	mvhline(y, x, ' ', w);
	(void)ui_view_put(y, x + 1, fit, w - 1);
	attroff(A_REVERSE);
}

/* The keys of the selected message g (into line[size]): reply, react and
 * copy for every message; edit (once sent) and delete only for ours;
 * resend only for a failed one; card-chat for a contact card. */
static const char *
sel_keys(const struct ui_view *v, const struct ui_msg *g, char *line,
    size_t size)
{
	const struct ui_keymap	*km = &v->o.keys;
	char			 a[32], b[32];
	size_t			 k;
	bool			 ours = g->from_me && !g->notice && !g->deleted;

	ui_keys_name(km->key[UI_ACT_REACT], a, sizeof(a));
	ui_keys_name(km->key[UI_ACT_COPY], b, sizeof(b));
	k = (size_t)snprintf(line, size, _("Enter reply  %s react  %s copy"),
	    a, b);
	if (ours && k < size && g->tick != UI_TICK_QUEUED &&
	    g->tick != UI_TICK_FAILED) {
		ui_keys_name(km->key[UI_ACT_EDIT], a, sizeof(a));
		k += (size_t)snprintf(line + k, size - k, _("  %s edit"), a);
	}
	if (ours && k < size) {
		ui_keys_name(km->key[UI_ACT_DELETE], a, sizeof(a));
		k += (size_t)snprintf(line + k, size - k, _("  %s delete"), a);
	}
	if (g->from_me && g->tick == UI_TICK_FAILED && k < size) {
		ui_keys_name(km->key[UI_ACT_RETRY], a, sizeof(a));
		k += (size_t)snprintf(line + k, size - k, _("  %s resend"), a);
	}
	if (g->rich != NULL && strncmp(g->rich, "contacts\n", 9) == 0 &&
	    km->key[UI_ACT_CARD_CHAT] != 0 && k < size) {
		ui_keys_name(km->key[UI_ACT_CARD_CHAT], a, sizeof(a));
		k += (size_t)snprintf(line + k, size - k, _("  %s chat"), a);
	}
	if (g->rich != NULL && strncmp(g->rich, "poll\n", 5) == 0 &&
	    !g->deleted && km->key[UI_ACT_VOTE] != 0 && k < size) {
		ui_keys_name(km->key[UI_ACT_VOTE], a, sizeof(a));
		k += (size_t)snprintf(line + k, size - k, _("  %s vote"), a);
	}
	if (k < size)
		(void)snprintf(line + k, size - k, "%s", _("  Esc back"));
	return line;
}

/* The line over the input line while nothing is open over it: a note,
 * the reply or edit being written, the selected message's keys, or NULL
 * (into line[size], for cols columns). */
static const char *
chat_above(struct ui_view *v, char *line, size_t size, int cols)
{
	const struct ui_member	*m[UI_VIEW_MENTIONS];
	size_t			 at;

	if (v->note != NULL)
		return v->note;
	if (ui_view_mention_offer(v, m, UI_VIEW_MENTIONS, &at) > 0)
		return _("mention: Up/Down choose, Tab or Enter puts the name "
		    "in, Esc none");
	if (v->chat.reply_id != NULL)
		return ui_view_with_name(line, size, cols, _("replying to: %s "
		    "(Esc cancels)"), v->chat.reply_text);
	if (v->chat.edit_id != NULL)
		return _("editing your message: Enter sends the new text, "
		    "Esc cancels");
	if (v->msgs.sel < 0 || v->msgs.sel >= (int)v->msgs.n)
		return NULL;
	return sel_keys(v, &v->msgs.v[v->msgs.sel], line, size);
}

/* The right side of the screen and its input line as drawn. */
struct side {
	int	 y, x, h, w;	/* the box right of the chat list, over
				 * the help line */
	int	 iy;		/* the input's first row */
	int	 ix;		/* its text's column (after its lead) */
	int	 shown;		/* its rows drawn */
	int	 first;		/* its first layout row drawn */
	int	 crow, ccol;	/* the cursor in its layout */
	int	 my, mh;	/* the message pane's first row and rows */
};

/* The line over the input, dim: on one row, or wrapped onto two when it
 * is wider (a prompt's answers are never cut off in a narrow window),
 * the rows taken from the pane's. */
static void
draw_above(struct side *s, const char *above)
{
	struct ui_line	 l[2];
	int		 n, i;

	n = ui_text_wrap(above, strlen(above), s->w - 1, l, 2);
	if (n > 2)
		n = 2;
	if (n < 2 || s->mh < 4) {
		n = 1;
		l[0].off = 0;
		l[0].len = strlen(above);
	}
	s->mh -= n;
	attron(A_DIM);
	for (i = 0; i < n; i++)
		(void)ui_text_draw(s->iy - 1 - n + i, s->x + 1,
		    above + l[i].off, l[i].len, s->w - 1);
	attroff(A_DIM);
}

/* The input at the bottom of the side: what is typed, up to a few rows,
 * under a rule and the line over it (the search's query, a prompt's
 * text, the message).  Leaves the rows over it for the pane in s. */
static void
draw_input(struct ui_view *v, struct side *s)
{
	struct ui_line	 l[INPUT_ROWS_MAX];
	struct ui_input	*in = v->search.on ? &v->search.q :
			    v->prompt.kind != PROMPT_NONE ? &v->prompt.in :
			    v->pick.on ? &v->pick.q : &v->in;
	char		 line[512], more[160], line2[176];
	const char	*above = NULL, *lead = "> ";
	int		 rows, i, lead_w;

	if (v->search.on)
		lead = "/ ";
	else if (v->prompt.kind != PROMPT_NONE)
		above = ui_view_prompt_text(v, line, sizeof(line), s->w - 1,
		    &lead);
	else if (v->pick.on)
		above = v->pick.err != NULL ? v->pick.err : _("Type part of a "
		    "name or number; Enter opens, Esc back");
	else
		above = chat_above(v, line, sizeof(line), s->w - 1);
	lead_w = ui_text_width(lead, strlen(lead));
	s->ix = s->x + lead_w;
	rows = ui_input_layout(in, s->w - lead_w - 1, l, INPUT_ROWS_MAX,
	    &s->crow, &s->ccol);
	s->shown = rows < INPUT_ROWS_MAX ? rows : INPUT_ROWS_MAX;
	s->first = s->crow - s->shown + 1 > 0 ? s->crow - s->shown + 1 : 0;
	s->iy = s->y + s->h - s->shown;
	mvhline(s->iy - 1, s->x, ACS_HLINE, s->w);
	if (s->first > 0) {
		/* rows of the text above the ones shown: said on the rule */
		snprintf(more, sizeof(more), ngettext("%d more line above",
		    "%d more lines above", s->first), s->first);
		snprintf(line2, sizeof(line2), " \xe2\x86\x91 %s ", more);
		attron(A_DIM);
		(void)ui_view_put(s->iy - 1, s->x + 2, line2, s->w - 3);
		attroff(A_DIM);
	}
	if (v->prompt.kind == PROMPT_NONE && !v->search.on && !v->pick.on &&
	    ui_view_open_left(v)) {
		/* The input is off: say why where it was. */
		attron(A_DIM);
		(void)ui_view_put(s->iy, s->x + 1, _("you are no longer a "
		    "member of this group: nothing can be sent to it"),
		    s->w - 1);
		attroff(A_DIM);
		s->shown = 0;
		s->crow = s->first = 1;
	}
	for (i = 0; i < s->shown; i++) {
		if (i == 0)
			(void)ui_view_put(s->iy, s->x, lead, lead_w);
		if (s->first + i < rows)	/* l[] starts at row first */
			(void)ui_text_draw(s->iy + i, s->ix,
			    in->text + l[i].off, l[i].len, s->w - lead_w - 1);
	}
	s->my = s->y + 1;
	s->mh = s->iy - 1 - s->my;
	if (above != NULL)
		draw_above(s, above);
}

/* Over the input: the search, the group info (a prompt of its open) or
 * the messages, with "PgUp: more" when older ones are in the store. */
static void
draw_pane(struct ui_view *v, const struct side *s, int64_t now)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);
	int		 x = s->x + 1, w = s->w - 1;

	if (v->search.on) {
		if (s->mh > 1)
			ui_view_panes_search(v, s->my, x, s->mh, w, now);
		return;
	}
	if (v->pick.on) {
		if (s->mh > 1)
			ui_view_panes_pick(v, s->my, x, s->mh, w);
		return;
	}
	if (v->info.on) {
		if (s->mh > 1)
			ui_view_panes_info(v, s->my, x, s->mh, w);
		return;
	}
	if (v->minfo.on) {
		if (s->mh > 1)
			ui_view_panes_minfo(v, s->my, x, s->mh, w);
		return;
	}
	if (v->once_img != NULL) {	/* a view-once photo, once */
		if (s->mh > 1)
			ui_view_media_once_draw(v, s->my, x, s->mh, w);
		return;
	}
	if (s->mh <= 0)
		return;
	ui_msgs_draw(&v->msgs, s->my, x, s->mh, w, ch != NULL ? ch->name : "",
	    now);
	v->geo.my = s->my;
	v->geo.mx = x;
	v->geo.mh = s->mh;
	v->geo.mw = w;
	if (v->msgs.more_before && ui_msgs_at_top(&v->msgs)) {
		attron(A_DIM);
		(void)ui_view_put(s->my, s->x + s->w - 12, _("PgUp: more"), 11);
		attroff(A_DIM);
	}
	ui_view_panes_mention(v, s->my, x, s->mh, w);
}

/* The chat list on the left (lw columns of w, over h rows) and the rule
 * right of it. */
static void
draw_list(struct ui_view *v, int y, int x, int h, int lw, int64_t now)
{
	attron(A_BOLD);
	mvhline(y, x, ' ', lw);
	if (v->chats.folder) {
		/* the archived folder, and the way back (also the
		 * archived key, the key page says) */
		attron(A_UNDERLINE);
		(void)ui_view_put(y, x + 1, _("Archived, Esc: back"),
		    lw - 1);
		attroff(A_UNDERLINE);
	} else
		(void)ui_view_put(y, x + 1, _("Chats"), lw - 1);
	attroff(A_BOLD);
	ui_view_chat_mark_drafts(v);
	ui_view_contact_mark(v);
	ui_chats_draw(&v->chats, y + 1, x, h - 1, lw, now);
	mvvline(y, x + lw, ACS_VLINE, h);
	v->geo.ly = y + 1;
	v->geo.lx = x;
	v->geo.lh = h - 1;
	v->geo.lw = lw;
}

bool
ui_view_draw(struct ui_view *v, int y, int x, int h, int w, int64_t now)
{
	struct side	 s;
	int		 lw = w / 3;

	/* the links drawn this time (none when hyperlinks are off) */
	ui_term_links_clear(&v->links);
	memset(&v->geo, 0, sizeof(v->geo));	/* where a click lands */
	v->msgs.links = v->o.hyperlinks ? &v->links : NULL;
	/* thumbnails in the colours the terminal has (ui/thumb.h) */
	v->msgs.thumb_rows = v->o.thumbnail_rows;
	v->msgs.thumb_colours = ui_thumb_colours_of(has_colors() ? COLORS : 0);
	v->msgs.thumb_proto = (enum ui_thumb_proto)v->o.thumbnail_proto;
	v->spots.n = 0;
	v->msgs.spots = &v->spots;
	if (w < UI_VIEW_MIN_COLS || h < UI_VIEW_MIN_ROWS) {
		curs_set(0);
		return false;
	}
	draw_hints(v, y + h - 1, x, w);
	h--;
	lw = lw < LIST_COLS_MIN ? LIST_COLS_MIN : lw > LIST_COLS_MAX ?
	    LIST_COLS_MAX : lw;
	memset(&s, 0, sizeof(s));
	s.y = y;
	s.h = h;
	if (v->list_hidden) {		/* the open chat takes the width */
		s.x = x;
		s.w = w;
	} else {
		draw_list(v, y, x, h, lw, now);
		s.x = x + lw + 1;
		s.w = w - lw - 1;
	}
	if (v->help.on) {
		curs_set(0);
		draw_help(v, s.y, s.x + 1, s.h, s.w - 1);
		return true;
	}
	draw_bar(v, s.y, s.x, s.w, now);
	if (v->info.on && v->prompt.kind == PROMPT_NONE && !v->pick.on) {
		curs_set(0);
		ui_view_panes_info(v, s.y + 1, s.x + 1, s.h - 1, s.w - 1);
		return true;
	}
	draw_input(v, &s);
	draw_pane(v, &s, now);
	/* The cursor where the next key goes, unless a message is
	 * selected (curses sends nothing when it does not change). */
	if ((v->msgs.sel < 0 || v->search.on || v->pick.on) &&
	    s.crow - s.first < s.shown) {
		move(s.iy + s.crow - s.first, s.ix + s.ccol);
		curs_set(1);
	} else
		curs_set(0);
	return true;
}
