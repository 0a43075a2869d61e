/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/search.h -- message search on the chat screen (issue 9): what is
 * typed in the search prompt parsed into CMD_SEARCH's fields, as people
 * type filters in search boxes (features.md D2): "from:NAME", "from:+NUMBER"
 * or "from:me" (the author), "in:CHAT NAME" or "chat:CHAT NAME" (a chat;
 * a name of several words is taken as long as it names a chat, or in
 * quotes), "after:DATE" (from that day on) and "before:DATE" (up to that
 * day, not included), DATE as YYYY-MM-DD, YYYY-MM or YYYY in local time;
 * the rest are the words.  Names are matched against the chat list and
 * the members of the groups known, case-insensitively for ASCII, a whole
 * name before the start of one.  And the answer (EV_SEARCH) as the
 * screen lists it: each hit's chat and sender names, its snippet
 * sanitised (base/sanitize.h) on one line with where the match is.  Pure:
 * no curses, no translated strings; main thread (one struct ui_search is
 * used by one thread).
 */
#ifndef UI_SEARCH_H
#define UI_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ui/chats.h"
#include "base/event.h"
#include "ui/groups.h"
#include "ui/input.h"

#define UI_SEARCH_HITS		100	/* hits asked (CMD_SEARCH flag) */
#define UI_SEARCH_DEBOUNCE_MS	150	/* CMD_SEARCH at most this often
					 * while typing */
#define UI_SEARCH_NAME_WORDS	6	/* words of an unquoted name */
#define UI_SEARCH_SNIPPET_MAX	1024	/* bytes of a snippet taken */

/* Why a query cannot be searched. */
enum ui_search_err {
	UI_SEARCH_OK,
	UI_SEARCH_NO_CHAT,	/* in: names no chat */
	UI_SEARCH_NO_PERSON,	/* from: names nobody */
	UI_SEARCH_AMBIGUOUS,	/* from: or in: starts several names */
	UI_SEARCH_BAD_DATE,	/* after: or before: is not a date */
};

/* A query parsed; strings owned. */
struct ui_search_query {
	char		*words;		/* the words, by single spaces; "" */
	char		*chat;		/* raw JID, or NULL: any chat */
	char		*chat_name;	/* sanitised, for the title; or NULL */
	char		*sender;	/* raw user JID, "" ours, NULL anyone */
	char		*sender_name;	/* sanitised; NULL with sender NULL
					 * or "" */
	int64_t		 since_ms;	/* 0: open */
	int64_t		 until_ms;	/* 0: open (not included) */
	char		*since_text;	/* the dates as typed (checked), or */
	char		*until_text;	/* NULL */
	bool		 starred;	/* is:starred: only starred messages,
					 * with or without words */
	enum ui_search_err err;
	char		*bad;		/* sanitised: what err is about */
};

/* One hit as listed; strings owned, never NULL, sanitised but the JIDs. */
struct ui_search_hit {
	int64_t		 rowid;
	int64_t		 ts_ms;
	char		*chat;		/* raw JID */
	char		*chat_name;	/* the chat list's name, else the
					 * hit's, else +number or the JID */
	char		*sender;	/* raw; "" */
	char		*who;		/* the sender's name in a group; ""
					 * ours or a 1:1 chat's (its name is
					 * chat_name) */
	int		 colour;	/* ui_group_colour() of a group's
					 * sender; -1 none */
	bool		 from_me;
	char		*snippet;	/* one line; "…" where cut */
	size_t		 hl_start;	/* snippet[hl_start..hl_end) is the */
	size_t		 hl_end;	/* first match (equal: none) */
};

struct ui_search {
	bool		 on;		/* the search is shown */
	bool		 global;	/* all chats, else scope */
	char		*scope;		/* the chat searched in, or NULL */
	struct ui_input	 q;		/* what is typed */
	struct ui_search_query qy;	/* q parsed (after each edit) */
	char		*asked;		/* the words of the last CMD_SEARCH,
					 * or NULL: none sent */
	bool		 due;		/* q changed since, not sent yet */
	int64_t		 sent_ms;	/* the last CMD_SEARCH at */
	bool		 answered;	/* the answer to asked came */
	struct ui_search_hit *v;	/* newest first */
	size_t		 n;
	bool		 more;		/* more matches than listed */
	int		 sel;		/* the chosen hit */
	int		 top;		/* the first hit drawn */
	int		 rows;		/* hits last drawn */
};

/* An empty search, not shown; released with ui_search_release(). */
void		ui_search_init(struct ui_search *s);
/* Free what s holds (s itself is the caller's); s is empty after. */
void		ui_search_release(struct ui_search *s);
/* Free what q holds and zero it (a zeroed q is empty). */
void		ui_search_query_release(struct ui_search_query *q);

/*
 * Parse text (the prompt's, UTF-8) into *out (released first; released
 * by the caller with ui_search_query_release()), names resolved against
 * cs and gs (either may be NULL); the word is:starred (case ignored)
 * sets out->starred.  Sets out->err (and out->bad) when a
 * filter cannot be taken; out->words holds the words either way.
 */
void		ui_search_parse(const char *text, const struct ui_chats *cs,
		    const struct ui_groups *gs, struct ui_search_query *out);

/*
 * The CMD_SEARCH for q (scope: the chat to search in when q names none,
 * or NULL: all chats), or NULL when there is nothing to search: an
 * error, or no word (the store finds nothing without one) and no
 * is:starred (which lists the starred messages without one).  The caller
 * takes the command.
 */
struct cmd	*ui_search_cmd(const struct ui_search_query *q,
		    const char *scope);

/*
 * Take an EV_SEARCH (borrowed) when it answers the last query sent
 * (its query equal to s->asked); others are stale and ignored.  The hits
 * replace those listed, the first chosen; names as the chat list cs and
 * the groups gs (may be NULL) give them.  Returns true when taken.
 */
bool		ui_search_take(struct ui_search *s, const struct ev *ev,
		    const struct ui_chats *cs, const struct ui_groups *gs);

/* Forget the hits listed (and the query asked). */
void		ui_search_clear(struct ui_search *s);

/*
 * The date d ("YYYY", "YYYY-MM" or "YYYY-MM-DD", len bytes; year 1970 to
 * 9999) as the ms of its first local midnight in *ms.  Returns false
 * (*ms untouched) when d is not such a date.
 */
bool		ui_search_date(const char *d, size_t len, int64_t *ms);

#endif
