/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-find.c -- wachat search's filters (src/cli-find.h): the query's
 * from:, in: (chat:), after: and before: taken out of its words, and
 * from:'s person found in the contacts.
 */
#include "base/compat.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "base/err.h"
#include "src/cli.h"
#include "src/cli-find.h"
#include "src/cli-out.h"

#define PEOPLE_MAX	20	/* listed when a name names several */

/* before, value (inert, cut) and after on stderr. */
static void
say(const char *before, const char *value, const char *after)
{
	struct buf	 b = BUF_INIT;

	cli_put_text(&b, value, strnlen(value, 200));
	buf_push(&b, '\0');
	fprintf(stderr, "%s%s%s", before, (char *)b.p, after);
	buf_release(&b);
}

/* DATE as after: and before: take it: YYYY, YYYY-MM or what
 * cli_parse_date() takes (YYYY-MM-DD, ISO 8601). */
static bool
filter_date(const char *v, int64_t *ms)
{
	char	 d[64];
	size_t	 len = strlen(v);

	if (len == 4 || len == 7) {
		snprintf(d, sizeof(d), "%s%s", v, len == 4 ? "-01-01" : "-01");
		v = d;
	}
	return cli_parse_date(v, ms);
}

/* Copy the token at *p (a value in quotes taken whole) into out[size];
 * *p moves past it.  false when it does not fit. */
static bool
token(const char **p, char *out, size_t size)
{
	const char	*s = *p, *e;
	size_t		 len;

	if (*s == '"' && (e = strchr(s + 1, '"')) != NULL) {
		len = (size_t)(e - s - 1);
		s++;
		*p = e + 1;
	} else {
		for (e = s; *e != '\0' && *e != ' '; e++)
			continue;
		len = (size_t)(e - s);
		*p = e;
	}
	if (len >= size)
		return false;
	memcpy(out, s, len);
	out[len] = '\0';
	return true;
}

static const char *const KEYS[] = { "from:", "in:", "chat:", "after:",
    "before:" };

bool
cli_query_is_filter(const char *s)
{
	size_t	 k;

	for (k = 0; k < sizeof(KEYS) / sizeof(KEYS[0]); k++)
		if (strncasecmp(s, KEYS[k], strlen(KEYS[k])) == 0)
			return true;
	return false;
}

bool
cli_query_parse(const char *q, struct cli_query *out)
{
	char	 v[STORE_NAME_MAX + 1];
	size_t	 n = 0, k, len;
	int64_t	 ms;

	memset(out, 0, sizeof(*out));
	while (*q != '\0') {
		if (*q == ' ') {
			q++;
			continue;
		}
		if (strncasecmp(q, "is:starred", 10) == 0 &&
		    (q[10] == ' ' || q[10] == '\0')) {
			out->starred = true;
			q += 10;
			continue;
		}
		for (k = 0; k < sizeof(KEYS) / sizeof(KEYS[0]) &&
		    strncasecmp(q, KEYS[k], strlen(KEYS[k])) != 0; k++)
			continue;
		if (k == sizeof(KEYS) / sizeof(KEYS[0])) {	/* a word */
			len = strcspn(q, " ");
			if (n + len + 2 > sizeof(out->words))
				return false;
			if (n > 0)
				out->words[n++] = ' ';
			memcpy(out->words + n, q, len);
			out->words[n += len] = '\0';
			q += len;
			continue;
		}
		q += strlen(KEYS[k]);
		while (*q == ' ')	/* "from: ana": the next token */
			q++;
		if (!token(&q, v, sizeof(v))) {
			fprintf(stderr, "wachat search: %s: the value is too "
			    "long\n", KEYS[k]);
			return false;
		}
		if (k == 0)
			memcpy(out->from, v, sizeof(v));
		else if (k <= 2)
			memcpy(out->in, v, sizeof(v));
		else if (!filter_date(v, &ms)) {
			say("wachat search: '", v, "' is not a date (YYYY-MM-DD, "
			    "YYYY-MM, YYYY or ISO 8601)\n");
			return false;
		} else if (k == 3)
			out->since_ms = ms;
		else
			out->until_ms = ms;
	}
	return true;
}

int
cli_find_person(struct store *s, const char *who,
    char jid[STORE_JID_MAX + 1])
{
	char		 found[PEOPLE_MAX][STORE_JID_MAX + 1];
	struct store_contact	 k;
	int		 n, i;

	if (strcasecmp(who, "me") == 0) {
		jid[0] = '\0';
		return CLI_OK;
	}
	if (strchr(who, '@') != NULL) {
		snprintf(jid, STORE_JID_MAX + 1, "%s", who);
		return CLI_OK;
	}
	if (cli_phone_jid(who, jid, STORE_JID_MAX + 1))
		return CLI_OK;
	if ((n = store_contact_find(s, who, PEOPLE_MAX, found)) < 0) {
		fprintf(stderr, "wachat: cannot read the contacts: %s\n",
		    wc_strerror(n));
		return CLI_DB;
	}
	if (n == 1) {
		memcpy(jid, found[0], STORE_JID_MAX + 1);
		return CLI_OK;
	}
	if (n == 0) {
		say("wachat: nobody named '", who, "'\n");
		return CLI_NOT_FOUND;
	}
	say("wachat: '", who, "' names several people; name one by its "
	    "number or JID:\n");
	for (i = 0; i < n && i < PEOPLE_MAX; i++) {
		memset(&k, 0, sizeof(k));
		if (store_contact_get(s, found[i], &k) < 0)
			k.name[0] = k.push_name[0] = '\0';
		say("  ", k.name[0] != '\0' ? k.name : k.push_name, "");
		say("  ", found[i], "\n");
	}
	return CLI_AMBIGUOUS;
}
