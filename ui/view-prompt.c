/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-prompt.c -- the prompts and questions over the input line
 * (ui/view-int.h): the one-line prompts (an emoji to react, a new group's name and members, a group's new name,
 * members to add or remove) and the y/n questions (leave the group?
 * delete our message for everyone?), as a table of (prompt, what it
 * starts with, what Enter or y/n does), and the line each shows over the
 * input.  The commands they make: CMD_REACT, CMD_GROUP_CREATE,
 * CMD_GROUP_SUBJECT, CMD_GROUP_ADD, CMD_GROUP_REMOVE, CMD_GROUP_LEAVE,
 * CMD_REVOKE.  A prompt is started (by the rooms that ask) and dropped
 * in ui/view-state.c.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curses.h>		/* KEY_ENTER */

#include "base/buf.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/xmalloc.h"
#include "ui/text.h"
#include "ui/view-int.h"
#include "ui/view-poll.h"

/* Digits of a phone number with its country code, as the pairing
 * prompt takes them. */
#define PHONE_MIN	5
#define PHONE_MAX	20

/* The quick reactions, on keys 1 to 6 in the react prompt. */
static const char *const quick[] = {
	"\xf0\x9f\x91\x8d", "\xe2\x9d\xa4\xef\xb8\x8f", "\xf0\x9f\x98\x82",
	"\xf0\x9f\x98\xae", "\xf0\x9f\x98\xa2", "\xf0\x9f\x99\x8f",
};

/* ---- reactions ---- */

/*
 * Whether s is one emoji, as WhatsApp takes a reaction: a single
 * character as seen (a grapheme cluster: with its skin tone, joined
 * people, a flag's two letters, a keycap), starting with a pictograph or
 * symbol (U+2000 on, past the letters of every script in the BMP but
 * CJK's own symbols) or, for a keycap, a digit, # or * with U+20E3.
 */
static bool
one_emoji(const char *s)
{
	size_t		 len = strlen(s), n;
	uint32_t	 cp = 0;
	int		 cols;

	if (len == 0 || (n = ui_text_next(s, len, &cols)) != len)
		return false;
	(void)ui_text_decode(s, len, &cp);
	if (cp >= 0x1f000 || (cp >= 0x2000 && cp < 0x3000) ||
	    (cp >= 0x3030 && cp <= 0x303d) || cp == 0x3297 || cp == 0x3299)
		return true;
	return (cp == '#' || cp == '*' || (cp >= '0' && cp <= '9')) &&
	    strstr(s, "\xe2\x83\xa3") != NULL;	/* U+20E3 */
}

static void
react(struct ui_view *v, const char *emoji)
{
	struct ui_view_prompt	*p = &v->prompt;
	struct cmd		*c;

	if (p->react_id != NULL && v->msgs.chat != NULL) {
		c = cmd_new_chat(CMD_REACT, v->msgs.chat);
		ev_set(&c->u.react.id, p->react_id);
		ev_set(&c->u.react.emoji, emoji);
		c->u.react.target_from_me = p->react_mine;
		ui_view_push(v, c);
	}
	free(p->react_id);
	p->react_id = NULL;
	p->kind = PROMPT_NONE;
}

/* Enter in the react prompt: the emoji typed. */
static void
react_enter(struct ui_view *v)
{
	if (one_emoji(v->prompt.in.text))
		react(v, v->prompt.in.text);
	else if (!ui_input_is_empty(&v->prompt.in))
		v->prompt.err = _("a reaction is one emoji: 1 to 6, 0 removes "
		    "yours, or type one and Enter");
}

/* 1 to 6 in the empty react prompt: a quick reaction; 0 removes ours. */
static bool
react_quick(struct ui_view *v, int k)
{
	if (!ui_input_is_empty(&v->prompt.in) || k < '0' || k > '6')
		return false;
	react(v, k == '0' ? "" : quick[k - '1']);
	return true;
}

/* ---- groups ---- */

/*
 * A member typed as a JID, p[0..n) holding its '@' at p + d: digits, then
 * a PN or LID server and nothing else (a device or agent refused).
 * Appended to out as typed; false for anything else.
 */
static bool
member_jid(const char *p, size_t n, size_t d, struct buf *out)
{
	char	 jid[JID_MAX];

	if (d == 0 || d > PHONE_MAX + 12 ||
	    strspn(p, "0123456789") != d || n >= sizeof(jid))
		return false;
	memcpy(jid, p, n);
	jid[n] = '\0';
	if (!jid_is_pn(jid) && !jid_is_lid(jid))
		return false;
	buf_append(out, p, n);
	return true;
}

/*
 * A member typed as a phone number, p[0..n): 5 to 20 digits with the
 * country code first (spaces, '-', '(', ')' and '+' ignored).  Appended
 * to out as its PN JID; false for anything else.
 */
static bool
member_number(const char *p, size_t n, struct buf *out)
{
	char	 num[PHONE_MAX], jid[JID_MAX];
	size_t	 d, i;

	for (d = i = 0; i < n; i++) {
		if (p[i] >= '0' && p[i] <= '9') {
			if (d == 0 && p[i] == '0')
				return false;
			if (d < sizeof(num))
				num[d] = p[i];
			d++;
		} else if (strchr(" -()+", p[i]) == NULL)
			return false;
	}
	if (d < PHONE_MIN || d > PHONE_MAX ||
	    !jid_from_phone(num, d, jid, sizeof(jid)))
		return false;
	buf_append(out, jid, strlen(jid));
	return true;
}

/*
 * Members typed in a prompt: phone numbers with their country code (as
 * the new-chat prompt takes them: 5 to 20 digits; spaces, '-', '(', ')'
 * and '+' ignored) or user JIDs (digits "@s.whatsapp.net" or "@lid"),
 * separated by commas or semicolons.  Appends them to the string array
 * *v of *nv as JIDs and returns true; false for anything else (*v then
 * holds those before).
 */
static bool
parse_members(const char *text, char ***v, uint32_t *nv)
{
	struct buf	 one = BUF_INIT;
	const char	*p = text, *end, *at;
	size_t		 n;
	bool		 ok = true;

	for (; *p != '\0'; p = *end != '\0' ? end + 1 : end) {
		end = p + strcspn(p, ",;");
		while (p < end && *p == ' ')
			p++;
		n = (size_t)(end - p);
		while (n > 0 && p[n - 1] == ' ')
			n--;
		if (n == 0)
			continue;
		one.len = 0;
		at = memchr(p, '@', n);
		if (at != NULL ? !member_jid(p, n, (size_t)(at - p), &one) :
		    !member_number(p, n, &one)) {
			ok = false;
			break;
		}
		buf_push(&one, '\0');
		ev_push_str(v, nv, (char *)one.p);
	}
	buf_release(&one);
	return ok;
}

/* Free the string array v of n (parse_members()). */
static void
members_free(char **v, uint32_t n)
{
	uint32_t	 i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Whether what the prompt holds is a name: not empty nor spaces. */
static bool
is_name(const struct ui_input *in)
{
	return !ui_input_is_empty(in) && in->text[strspn(in->text, " ")] !=
	    '\0';
}

/* Enter with a new group's name: its members are asked next. */
static void
take_subject(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;

	if (!is_name(&p->in)) {
		p->err = _("a group needs a name");
		return;
	}
	free(p->new_subject);
	p->new_subject = xstrdup(p->in.text);
	ui_view_prompt_start(v, PROMPT_GROUP_MEMBERS);
}

/* The new group asked for with the n members m (JIDs; taken): it opens
 * when its EV_GROUP comes (ui/view.c). */
static void
make_group(struct ui_view *v, char **m, uint32_t n)
{
	struct ui_view_prompt	*p = &v->prompt;
	struct cmd		*c = cmd_new(CMD_GROUP_CREATE);

	ev_set(&c->u.group_create.subject, p->new_subject);
	c->u.group_create.members = m;
	c->u.group_create.nmembers = n;
	ui_view_push(v, c);
	free(p->made_subject);
	p->made_subject = p->new_subject;
	p->new_subject = NULL;
	p->made_count = n;
	ui_view_note(v, _("making the group…"));
}

/* Enter with members: a new group's, or those to add or remove. */
static void
take_members(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;
	enum ui_view_prompt_kind kind = p->kind;
	struct cmd_group_members *gm;
	struct cmd		*c;
	char			**m = NULL;
	uint32_t		 n = 0;

	if (!parse_members(p->in.text, &m, &n) ||
	    (kind != PROMPT_GROUP_MEMBERS && n == 0)) {
		members_free(m, n);
		p->err = _("members are phone numbers with their country code "
		    "or JIDs, separated by commas");
		return;
	}
	if (kind == PROMPT_GROUP_MEMBERS)
		make_group(v, m, n);
	else if (v->msgs.chat != NULL) {
		c = cmd_new_chat(kind == PROMPT_ADD ? CMD_GROUP_ADD :
		    CMD_GROUP_REMOVE, v->msgs.chat);
		gm = kind == PROMPT_ADD ? &c->u.group_add : &c->u.group_remove;
		gm->members = m;
		gm->nmembers = n;
		ui_view_push(v, c);
	} else
		members_free(m, n);
	p->kind = PROMPT_NONE;
}

/* Enter with the open group's new name. */
static void
take_rename(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;
	struct cmd		*c;

	if (!is_name(&p->in)) {
		p->err = _("a group needs a name");
		return;
	}
	if (v->msgs.chat != NULL) {
		c = cmd_new_chat(CMD_GROUP_SUBJECT, v->msgs.chat);
		ev_set(&c->u.group_subject.subject, p->in.text);
		ui_view_push(v, c);
	}
	p->kind = PROMPT_NONE;
}

/* Enter with a date: the open chat from its first message on or after
 * it (ui_msgs_from()); the page that comes says when there is none. */
static void
take_date(struct ui_view *v)
{
	struct ui_view_prompt	*p = &v->prompt;
	int64_t			 ms;

	if (!ui_chats_parse_day(p->in.text, (int64_t)time(NULL) * 1000, &ms,
	    v->chat.jump_day, sizeof(v->chat.jump_day))) {
		p->err = _("not a date: YYYY-MM-DD, today, yesterday or a "
		    "weekday");
		return;
	}
	v->msgs.sel = -1;
	ui_view_push(v, ui_msgs_from(&v->msgs, ms));
	p->kind = PROMPT_NONE;
}

/* ---- questions ---- */

/* y or n to leaving the open group. */
static void
answer_leave(struct ui_view *v, bool yes)
{
	if (yes && v->msgs.chat != NULL)
		ui_view_push(v, cmd_new_chat(CMD_GROUP_LEAVE, v->msgs.chat));
}

/* y or n to deleting our message for everyone. */
static void
answer_revoke(struct ui_view *v, bool yes)
{
	struct cmd	*c;

	if (yes && v->msgs.chat != NULL && v->prompt.revoke_id != NULL) {
		c = cmd_new_chat(CMD_REVOKE, v->msgs.chat);
		ev_set(&c->u.revoke.id, v->prompt.revoke_id);
		ui_view_push(v, c);
	}
	free(v->prompt.revoke_id);
	v->prompt.revoke_id = NULL;
}

/* The answer k gives to a y/n question: 1 yes (y, or German j), 0 no,
 * -1 neither (the question stays). */
static int
yes_no(int k)
{
	if (k == 'y' || k == 'Y' || k == 'j' || k == 'J')
		return 1;
	return k == 'n' || k == 'N' ? 0 : -1;
}

/* ---- the prompts ---- */

static const struct prompt_type {
	const char	*lead;		/* the input line starts with it */
	void		(*enter)(struct ui_view *);	/* Enter */
	void		(*answer)(struct ui_view *, bool);	/* a question:
					 * y or n (then it closes) */
	bool		(*key)(struct ui_view *, int);	/* its own keys,
					 * before editing; true: taken */
} prompts[] = {
	[PROMPT_NONE] =		 { "> ", NULL, NULL, NULL },
	[PROMPT_REACT] =	 { "", react_enter, NULL, react_quick },
	[PROMPT_GROUP_SUBJECT] = { "> ", take_subject, NULL, NULL },
	[PROMPT_GROUP_MEMBERS] = { "> ", take_members, NULL, NULL },
	[PROMPT_RENAME] =	 { "> ", take_rename, NULL, NULL },
	[PROMPT_ADD] =		 { "> ", take_members, NULL, NULL },
	[PROMPT_REMOVE] =	 { "> ", take_members, NULL, NULL },
	[PROMPT_LEAVE] =	 { "", NULL, answer_leave, NULL },
	[PROMPT_REVOKE] =	 { "", NULL, answer_revoke, NULL },
	[PROMPT_BLOCK] =	 { "", NULL, ui_view_contact_answer_block,
				   NULL },
	[PROMPT_DATE] =		 { "> ", take_date, NULL, NULL },
	[PROMPT_MUTE] =		 { "", NULL, NULL, ui_view_ca_mute_key },
	[PROMPT_EPHEMERAL] =	 { "", NULL, NULL, ui_view_ca_ephemeral_key },
	[PROMPT_DELETE_CHAT] =	 { "", NULL, ui_view_ca_answer_delete, NULL },
	[PROMPT_CLEAR_CHAT] =	 { "", NULL, ui_view_ca_answer_clear, NULL },
	[PROMPT_ATTACH] =	 { "> ", ui_view_attach_enter, NULL,
				   ui_view_attach_key },
	[PROMPT_CAPTION] =	 { "> ", ui_view_caption_enter, NULL, NULL },
	[PROMPT_VOICE] =	 { "> ", ui_view_attach_enter, NULL,
				   ui_view_attach_key },
	[PROMPT_SAVE_MEDIA] =	 { "> ", ui_view_media_take_save, NULL, NULL },
	[PROMPT_CARD] =		 { "", NULL, NULL, ui_view_card_key },
	[PROMPT_VOTE] =		 { "", ui_view_vote_enter, NULL,
				   ui_view_vote_key },
	[PROMPT_POLL_Q] =	 { "> ", ui_view_poll_q_enter, NULL, NULL },
	[PROMPT_POLL_OPT] =	 { "> ", ui_view_poll_opt_enter, NULL, NULL },
	[PROMPT_POLL_MULTI] =	 { "", NULL, NULL, ui_view_poll_multi_key },
};

static void
prompt_cancel(struct ui_view *v)
{
	if (v->prompt.kind == PROMPT_GROUP_MEMBERS) {
		free(v->prompt.new_subject);
		v->prompt.new_subject = NULL;
	}
	free(v->prompt.attach_path);
	free(v->prompt.attach_names);
	v->prompt.attach_path = v->prompt.attach_names = NULL;
	v->prompt.kind = PROMPT_NONE;
}

void
ui_view_prompt_key(struct ui_view *v, int k, enum ui_key_action a)
{
	const struct prompt_type	*t = &prompts[v->prompt.kind];
	int				 yes;

	if (a == UI_ACT_CANCEL || k == UI_VIEW_KEY_ESC) {
		prompt_cancel(v);
		return;
	}
	if (t->answer != NULL) {
		if ((yes = yes_no(k)) >= 0) {
			t->answer(v, yes == 1);
			v->prompt.kind = PROMPT_NONE;
		}
		return;
	}
	if (k == '\r' || k == '\n' || k == UI_KEY_FN + KEY_ENTER) {
		if (t->enter != NULL)
			t->enter(v);
		return;
	}
	if (t->key != NULL && t->key(v, k))
		return;
	v->prompt.err = NULL;
	(void)ui_view_keys_edit(&v->prompt.in, k);
}

/* What to type in the prompt open, over it (into line, size bytes, for
 * cols columns), or NULL. */
static const char *
prompt_words(struct ui_view *v, char *line, size_t size, int cols)
{
	struct ui_chat	*ch = ui_chats_selected(&v->chats);

	switch (v->prompt.kind) {
	case PROMPT_REACT:
		snprintf(line, size, _("React: 1 %s 2 %s 3 %s 4 %s 5 %s 6 %s, "
		    "0 removes, or type one and Enter; Esc goes back"),
		    quick[0], quick[1], quick[2], quick[3], quick[4],
		    quick[5]);
		return line;
	case PROMPT_GROUP_SUBJECT:
		return _("New group: its name, Enter goes on to its members, "
		    "Esc goes back");
	case PROMPT_GROUP_MEMBERS:
		return ui_view_with_name(line, size, cols, _("Members of %s: "
		    "phone numbers with their country code or JIDs, separated "
		    "by commas; Enter makes the group"),
		    v->prompt.new_subject != NULL ? v->prompt.new_subject : "");
	case PROMPT_RENAME:
		return _("The group's new name, Enter renames it, Esc goes "
		    "back");
	case PROMPT_ADD:
		return _("Add to the group: phone numbers or JIDs, separated "
		    "by commas; Enter adds them");
	case PROMPT_REMOVE:
		return _("Remove from the group: phone numbers or JIDs, "
		    "separated by commas; Enter removes them");
	case PROMPT_LEAVE:
		return ui_view_with_name(line, size, cols, _("Leave the group "
		    "%s? y leaves it, n stays"), ch != NULL ? ch->name : "");
	case PROMPT_BLOCK:
		return ui_view_contact_words(v, line, size, cols);
	case PROMPT_REVOKE:
		return _("Delete this message for everyone? y deletes it, n "
		    "keeps it");
	case PROMPT_DATE:
		return _("Jump to a date: YYYY-MM-DD, today, yesterday or a "
		    "weekday; Enter goes, Esc goes back");
	case PROMPT_SAVE_MEDIA:
		return _("Save the file as: a path, Enter copies it there "
		    "(never over a file), Esc goes back");
	case PROMPT_MUTE:
	case PROMPT_EPHEMERAL:
	case PROMPT_DELETE_CHAT:
	case PROMPT_CLEAR_CHAT:
		return ui_view_ca_words(v, line, size, cols);
	case PROMPT_ATTACH:
	case PROMPT_CAPTION:
	case PROMPT_VOICE:
		return ui_view_attach_words(v, line, size);
	case PROMPT_CARD:
		snprintf(line, size, _("Chat with which number on the card? "
		    "1 to %zu; Esc goes back"), v->prompt.card_n);
		return line;
	case PROMPT_VOTE:
		return ui_view_vote_words(v, line, size);
	case PROMPT_POLL_Q:
	case PROMPT_POLL_OPT:
	case PROMPT_POLL_MULTI:
		return ui_view_poll_words(v, line, size, cols);
	case PROMPT_NONE:
		break;
	}
	return NULL;
}

const char *
ui_view_prompt_text(struct ui_view *v, char *line, size_t size, int cols,
    const char **lead)
{
	*lead = prompts[v->prompt.kind].lead;
	if (v->prompt.err != NULL)
		return v->prompt.err;
	return prompt_words(v, line, size, cols);
}
