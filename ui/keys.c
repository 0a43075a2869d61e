/* SPDX-License-Identifier: GPL-3.0-or-later */
/* ui/keys.c -- the chat screen's key bindings (ui/keys.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curses.h>

#include "base/i18n.h"
#include "ui/keys.h"
#include "ui/text.h"

static const struct {
	const char	*name;
	const char	*help;		/* N_() */
	const char	*key;		/* default */
} acts[UI_ACT_COUNT] = {
	[UI_ACT_QUIT] =		{ "quit", N_("quit"), "ctrl-q" },
	[UI_ACT_NEXT_CHAT] =	{ "next-chat", N_("next chat"), "tab" },
	[UI_ACT_PREV_CHAT] =	{ "prev-chat", N_("previous chat"),
				  "shift-tab" },
	[UI_ACT_UNREAD_CHAT] =	{ "unread-chat", N_("next unread chat"),
				  "ctrl-f" },
	[UI_ACT_NEW_CHAT] =	{ "new-chat",
				  N_("open a chat by name or number (or a new "
				  "one)"), "ctrl-n" },
	[UI_ACT_PREV_PAGE] =	{ "prev-page", N_("older messages"),
				  "pgup" },
	[UI_ACT_NEXT_PAGE] =	{ "next-page", N_("newer messages"),
				  "pgdn" },
	[UI_ACT_SEND] =		{ "send", N_("send (or reply)"), "ctrl-x" },
	[UI_ACT_NEWLINE] =	{ "newline",
				  N_("new line in the message"), "alt-enter" },
	[UI_ACT_SELECT_UP] =	{ "up",
				  N_("select a message (input empty)"), "up" },
	[UI_ACT_SELECT_DOWN] =	{ "down", N_("select a newer message"),
				  "down" },
	[UI_ACT_REPLY] =	{ "reply",
				  N_("reply to the selected message"),
				  "ctrl-r" },
	[UI_ACT_REACT] =	{ "react", N_("react to the selected message"),
				  "alt-s" },
	[UI_ACT_RETRY] =	{ "retry",
				  N_("send the selected failed message again"),
				  "ctrl-t" },
	[UI_ACT_DELETE] =	{ "delete",
				  N_("delete your selected message for "
				  "everyone (a failed one: here)"),
				  "ctrl-d" },
	[UI_ACT_CANCEL] =	{ "cancel",
				  N_("leave selection, reply or prompt"),
				  "esc" },
	[UI_ACT_HELP] =		{ "help", N_("show or hide this help"),
				  "ctrl-g" },
	[UI_ACT_GROUP_INFO] =	{ "group-info",
				  N_("info: a group's members, a contact's "
				  "profile"), "alt-g" },
	[UI_ACT_GROUP_NEW] =	{ "group-new", N_("new group"), "alt-m" },
	[UI_ACT_GROUP_LEAVE] =	{ "group-leave", N_("leave the group"),
				  "alt-d" },
	[UI_ACT_FIND] =		{ "find", N_("search the open chat"),
				  "alt-/" },
	[UI_ACT_FIND_ALL] =	{ "find-all",
				  N_("search all chats (from:, in:, after:, "
				  "before:)"), "alt-f" },
	[UI_ACT_EDIT] =		{ "edit",
				  N_("edit your selected message (15 "
				  "minutes)"), "alt-e" },
	[UI_ACT_COPY] =		{ "copy",
				  N_("copy the selected message"), "alt-c" },
	/* nchat's Ctrl-l; wachat has no redraw key (it redraws itself). */
	[UI_ACT_LIST] =		{ "list", N_("hide or show the chat list"),
				  "ctrl-l" },
	/* With text typed, Home and End move the cursor (ui/view-keys.c). */
	[UI_ACT_OLDEST] =	{ "oldest",
				  N_("the chat's oldest messages (input "
				  "empty)"), "home" },
	[UI_ACT_NEWEST] =	{ "newest",
				  N_("its newest messages, following again"),
				  "end" },
	[UI_ACT_OPEN_LINK] =	{ "open-link",
				  N_("open the selected message's link"),
				  "alt-o" },
	[UI_ACT_PEEK] =		{ "peek",
				  N_("peek: read without read receipts "
				  "(again: off)"), "alt-p" },
	[UI_ACT_JUMP_DATE] =	{ "jump-date",
				  N_("jump to a date"), "alt-j" },
	[UI_ACT_ARCHIVED] =	{ "archived",
				  N_("archived chats (again, Esc: back)"),
				  "alt-z" },
	[UI_ACT_MUTE] =		{ "mute", N_("mute or unmute the chat"),
				  "alt-n" },
	[UI_ACT_PIN] =		{ "pin", N_("pin or unpin the chat"),
				  "alt-t" },
	[UI_ACT_ARCHIVE] =	{ "archive",
				  N_("archive or unarchive the chat"),
				  "alt-a" },
	[UI_ACT_MARK_UNREAD] =	{ "mark-unread",
				  N_("mark the chat unread (or read)"),
				  "alt-u" },
	[UI_ACT_STAR] =		{ "star",
				  N_("star or unstar the selected message"),
				  "alt-*" },
	[UI_ACT_DELETE_CHAT] =	{ "delete-chat",
				  N_("delete the chat (asks first)"),
				  "alt-x" },
	[UI_ACT_CLEAR_CHAT] =	{ "clear-chat",
				  N_("clear the chat's messages (asks first)"),
				  "alt-k" },
	/* nchat's Ctrl-a is the start of the line here. */
	[UI_ACT_ATTACH] =	{ "attach",
				  N_("send a file (a reply too): its path, "
				  "then a caption"), "ctrl-o" },
	[UI_ACT_VOICE] =	{ "voice-note",
				  N_("send an Ogg Opus file as a voice note"),
				  "alt-v" },
	[UI_ACT_DOWNLOAD] =	{ "download",
				  N_("download the selected message's file"),
				  "alt-w" },
	[UI_ACT_OPEN] =		{ "open",
				  N_("open the selected message's file"),
				  "alt-l" },
	[UI_ACT_SAVE_AS] =	{ "save-as",
				  N_("save the selected file elsewhere"),
				  "alt-y" },
	[UI_ACT_CARD_CHAT] =	{ "card-chat",
				  N_("chat with a number on the selected "
				  "contact card"), "alt-i" },
	[UI_ACT_FORWARD] =	{ "forward",
				  N_("forward the selected message to chats "
				  "(Space marks several)"), "alt-." },
	[UI_ACT_DISAPPEAR] =	{ "disappearing",
				  N_("disappearing messages: 24 hours, 7 "
				  "days, 90 days or off"), "alt-h" },
	[UI_ACT_REJECT_CALL] =	{ "reject-call",
				  N_("decline the call that rings"), "alt-0" },
	[UI_ACT_VOTE] =		{ "vote", N_("vote on the selected poll"),
				  "alt-b" },
	[UI_ACT_POLL_NEW] =	{ "poll-new", N_("send a poll to the chat"),
				  "alt-q" },
	[UI_ACT_MSG_INFO] =	{ "message-info",
				  N_("when your selected message was delivered "
				  "and read, per recipient"), "alt-?" },
};

_Static_assert(UI_ACT_COUNT == UI_KEY_ACTIONS, "UI_KEY_ACTIONS");

static const struct {
	const char	*name;
	const char	*shown;
	int		 key;
} named[] = {
	{ "tab", "Tab", '\t' },
	{ "shift-tab", "Shift-Tab", UI_KEY_FN + KEY_BTAB },
	{ "enter", "Enter", '\r' },
	{ "esc", "Esc", 0x1b },
	{ "space", "Space", ' ' },
	{ "backspace", "Backspace", UI_KEY_FN + KEY_BACKSPACE },
	{ "delete", "Delete", UI_KEY_FN + KEY_DC },
	{ "insert", "Insert", UI_KEY_FN + KEY_IC },
	{ "up", "Up", UI_KEY_FN + KEY_UP },
	{ "down", "Down", UI_KEY_FN + KEY_DOWN },
	{ "left", "Left", UI_KEY_FN + KEY_LEFT },
	{ "right", "Right", UI_KEY_FN + KEY_RIGHT },
	{ "home", "Home", UI_KEY_FN + KEY_HOME },
	{ "end", "End", UI_KEY_FN + KEY_END },
	{ "pgup", "PgUp", UI_KEY_FN + KEY_PPAGE },
	{ "pgdn", "PgDn", UI_KEY_FN + KEY_NPAGE },
};

void
ui_keys_default(struct ui_keymap *km)
{
	int	 i;

	for (i = 0; i < UI_ACT_COUNT; i++)
		if (ui_keys_parse(acts[i].key, &km->key[i]) != 0)
			km->key[i] = 0;
}

/* The key of each form of key name (ui_keys_parse()), or -1 when name
 * is not of that form. */

/* "ctrl-a" to "ctrl-z". */
static int
ctrl_key(const char *name)
{
	char	 c;

	if (strncasecmp(name, "ctrl-", 5) != 0 || name[5] == '\0' ||
	    name[6] != '\0')
		return -1;
	c = name[5] | 0x20;
	return c >= 'a' && c <= 'z' ? c - 'a' + 1 : -1;
}

/* "f1" to "f12". */
static int
fn_key(const char *name)
{
	char	*end;
	long	 f;

	if ((name[0] != 'f' && name[0] != 'F') || name[1] < '1' ||
	    name[1] > '9')
		return -1;
	f = strtol(name + 1, &end, 10);
	if (*end != '\0' || f < 1 || f > 12)
		return -1;
	return UI_KEY_FN + KEY_F((int)f);
}

/* "tab", "pgup", ... (named[]). */
static int
named_key(const char *name)
{
	size_t	 i;

	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (strcasecmp(name, named[i].name) == 0)
			return named[i].key;
	return -1;
}

/* One printable character (its code point), not a control one. */
static int
char_key(const char *name)
{
	size_t	 n = strlen(name);
	uint32_t cp;

	if (n == 0 || n > 4 || ui_text_decode(name, n, &cp) != n ||
	    cp == 0xfffd || cp < 0x21 || cp == 0x7f || (cp >= 0x80 &&
	    cp < 0xa0))
		return -1;
	return (int)cp;
}

int
ui_keys_parse(const char *name, int *key)
{
	int	 k, alt = 0;

	if (strncasecmp(name, "alt-", 4) == 0 && name[4] != '\0') {
		alt = UI_KEY_ALT;
		name += 4;
	}
	if (strcasecmp(name, "none") == 0 && alt == 0) {
		*key = 0;
		return 0;
	}
	/* A name of one form is of no other (a bad "ctrl-1" or "f13" is
	 * no key either way). */
	if ((k = ctrl_key(name)) < 0 && (k = fn_key(name)) < 0 &&
	    (k = named_key(name)) < 0 && (k = char_key(name)) < 0)
		return -EINVAL;
	*key = alt + k;
	return 0;
}

/* The index of the action named name, or -1. */
static int
action_of(const char *name)
{
	int	 i;

	for (i = 0; i < UI_ACT_COUNT; i++)
		if (strcmp(acts[i].name, name) == 0)
			return i;
	return -1;
}

int
ui_keys_bind(struct ui_keymap *km, const char *action, const char *key,
    const char **why)
{
	int	 i = action_of(action), k;

	if (i < 0) {
		*why = N_("no such key action");
		return -EINVAL;
	}
	if (ui_keys_parse(key, &k) != 0) {
		*why = N_("not a key name (ctrl-x, alt-s, f1, tab, pgup, "
		    "...)");
		return -EINVAL;
	}
	km->key[i] = k;
	return 0;
}

int
ui_keys_clash(const struct ui_keymap *km, const char *action)
{
	int	 i = action_of(action), j;

	if (i < 0 || km->key[i] == 0)
		return -1;
	for (j = 0; j < UI_ACT_COUNT; j++)
		if (j != i && km->key[j] == km->key[i])
			return j;
	return -1;
}

enum ui_key_action
ui_keys_action(const struct ui_keymap *km, int key)
{
	int	 i;

	if (key == 0)
		return UI_ACT_NONE;
	for (i = 0; i < UI_ACT_COUNT; i++)
		if (km->key[i] == key)
			return (enum ui_key_action)i;
	return UI_ACT_NONE;
}

const char *
ui_keys_action_name(enum ui_key_action a)
{
	return a >= 0 && a < UI_ACT_COUNT ? acts[a].name : "";
}

const char *
ui_keys_action_help(enum ui_key_action a)
{
	return a >= 0 && a < UI_ACT_COUNT ? _(acts[a].help) : "";
}

void
ui_keys_name(int key, char *out, size_t size)
{
	const char	*alt = "";
	size_t		 i;
	int		 k = key;

	if (size == 0)
		return;
	out[0] = '\0';
	if (key == 0)
		return;
	if (k >= UI_KEY_ALT) {
		alt = "Alt-";
		k -= UI_KEY_ALT;
	}
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++)
		if (named[i].key == k) {
			snprintf(out, size, "%s%s", alt, named[i].shown);
			return;
		}
	if (k >= UI_KEY_FN + KEY_F(1) && k <= UI_KEY_FN + KEY_F(12))
		snprintf(out, size, "%sF%d", alt, k - UI_KEY_FN - KEY_F0);
	else if (k >= 1 && k <= 26)
		snprintf(out, size, "%sCtrl-%c", alt, 'a' + k - 1);
	else if (k < UI_KEY_FN) {
		char	 u[5] = { 0 };

		if (k < 0x80)
			u[0] = (char)k;
		else if (k < 0x800) {
			u[0] = (char)(0xc0 | k >> 6);
			u[1] = (char)(0x80 | (k & 0x3f));
		} else if (k < 0x10000) {
			u[0] = (char)(0xe0 | k >> 12);
			u[1] = (char)(0x80 | (k >> 6 & 0x3f));
			u[2] = (char)(0x80 | (k & 0x3f));
		} else {
			u[0] = (char)(0xf0 | k >> 18);
			u[1] = (char)(0x80 | (k >> 12 & 0x3f));
			u[2] = (char)(0x80 | (k >> 6 & 0x3f));
			u[3] = (char)(0x80 | (k & 0x3f));
		}
		snprintf(out, size, "%s%s", alt, u);
	} else
		snprintf(out, size, "%skey %d", alt, k - UI_KEY_FN);
}
