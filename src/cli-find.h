/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-find.h -- wachat search's filters (src/cli-find.c), as the
 * screen's search takes them (doc/wachat.1, SUBCOMMANDS): from:NAME,
 * from:+NUMBER, from:me, in:CHAT (chat:CHAT), after:DATE, before:DATE,
 * is:starred among the words.  Part of src/cli.c; main thread.  Their words are not
 * marked for translation, as src/cli.c's.
 */
#ifndef WC_CLI_FIND_H
#define WC_CLI_FIND_H

#include <stdbool.h>
#include <stdint.h>

#include "store/store.h"

/* A query taken apart.  Strings in the struct, NUL-terminated. */
struct cli_query {
	char	 words[4096];		/* the words to search for */
	char	 from[STORE_NAME_MAX + 1];	/* from:'s value, or "" */
	char	 in[STORE_NAME_MAX + 1];	/* in:'s value, or "" */
	int64_t	 since_ms, until_ms;	/* after:, before:; 0: none */
	bool	 starred;		/* is:starred: only starred ones */
};

/*
 * Take query q (the words of the command line joined by spaces; a value
 * of several words in double quotes, from:"Ana María") apart into *out.
 * Returns true, or false with a usage error said on stderr (a date that
 * is none, a value too long).
 */
bool	cli_query_parse(const char *q, struct cli_query *out);

/* Whether s begins with a filter's key (from:, in:, chat:, after:,
 * before:; case ignored).  Pure. */
bool	cli_query_is_filter(const char *s);

/*
 * The user from:'s value names, for store_search()'s sender filter, into
 * jid: "me" is "" (our own messages), a phone number (country code
 * first) or a JID that one, else a contact's name or push name (equal,
 * ASCII case ignored, or else a unique part of one).  Returns CLI_OK,
 * CLI_NOT_FOUND (no such person), CLI_AMBIGUOUS (several: listed) or
 * CLI_DB, each but the first said on stderr.
 */
int	cli_find_person(struct store *s, const char *who,
	    char jid[STORE_JID_MAX + 1]);

#endif
