/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/cli-db-fill18.c -- chats with the phone's marks (issue 18: pin,
 * mute, archive) for tests/marks18-*.sh and tests/check-cli-marks18.sh,
 * made through the store API (made-up numbers only):
 *
 *   cli-db-fill18 marks DIR SECONDS
 *
 * Messages are some minutes old, all incoming and unread unless said:
 *   Ana    (+15550000001, push name)   1 unread, pinned first (older pin)
 *   Bob    (+15550000002, contact)     read, pinned last (newest pin)
 *   Carla  (+15550000003)              1 unread, the newest message
 *   Dora   (+15550000004)              3 unread, muted always
 *   Emil   (+15550000005)              2 unread, muted until an hour ago
 *   Finn   (+15550000006)              1 unread, muted until SECONDS on
 *   Gina   (+15550000007)              2 unread, archived
 *   Hugo   (+15550000008)              read, archived, muted always
 * and two people with no chat: Zoe Zebra (+15550000009, address book)
 * and Quentin (+15550000010, push name only).
 *
 *   cli-db-fill18 extra DIR
 *
 * The user's own actions as the screen applies them (store_as_apply()):
 *   Weekend hike ⛰ (120363000000000009@g.us, Ana a member): our message,
 *          the chat deleted (deleteChat), then Ana's "Still there?"
 *   Ivo    (+15550000011, contact)     read, then marked unread
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "store/store.h"
#include "store/store-appstate.h"

#define MIN	60000LL

static void
check(int rc, const char *what)
{
	if (rc < 0) {
		fprintf(stderr, "cli-db-fill18: %s: %s\n", what,
		    wc_strerror(rc));
		exit(1);
	}
}

/* n incoming messages from number's chat, ending at ts, read or not. */
static void
msgs(struct store *s, const char *num, int n, int64_t ts, bool read,
    const char *text)
{
	char			 jid[64], id[32], t[128];
	struct store_msg_new	 m;
	int			 i;

	snprintf(jid, sizeof(jid), "%s@s.whatsapp.net", num);
	for (i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "M%s%d", num + 7, i);
		snprintf(t, sizeof(t), "%s%s", text, i + 1 < n ? " (earlier)" :
		    "");
		memset(&m, 0, sizeof(m));
		m.chat = jid;
		m.id = id;
		m.sender = "";
		m.ts_ms = ts - (int64_t)(n - 1 - i) * 1000;
		m.kind = STORE_MSG_TEXT;
		m.text = t;
		m.text_len = strlen(t);
		m.state = STORE_MSG_RECEIVED;
		check(store_msg_insert_incoming(s, &m, NULL), "incoming");
	}
	if (read) {
		struct store_msg_ref	*ids = NULL;
		size_t			 k = 0;

		check(store_chat_mark_read(s, jid, 64, &ids, &k), "read");
		store_msg_refs_free(ids, k);
	}
}

static void
flags(struct store *s, const char *num, int64_t muted_until, int64_t pinned,
    bool archived)
{
	char	 jid[64];

	snprintf(jid, sizeof(jid), "%s@s.whatsapp.net", num);
	check(store_chat_set_flags(s, jid, muted_until, pinned, archived),
	    "flags");
}

static void
name(struct store *s, const char *num, const char *n, bool push)
{
	char	 jid[64];

	snprintf(jid, sizeof(jid), "%s@s.whatsapp.net", num);
	check(push ? store_contact_set_push_name(s, jid, n) :
	    store_contact_set_name(s, jid, n), "name");
}

/* One of the user's own actions on chat jid, as the screen applies it. */
static void
own(struct store *s, enum store_as_kind kind, const char *jid, int64_t ts)
{
	struct store_as_action	 a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.jid = jid;
	a.ts_ms = ts;
	check(store_as_apply(s, NULL, &a, 1), "app state");
}

/* A message in chat from sender ("": ours, in a group) at ts. */
static void
one(struct store *s, const char *chat, const char *id, const char *sender,
    int64_t ts, const char *text)
{
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.sender = sender;
	m.from_me = sender[0] == '\0';
	m.ts_ms = ts;
	m.kind = STORE_MSG_TEXT;
	m.text = text;
	m.text_len = strlen(text);
	m.state = m.from_me ? STORE_MSG_SENT : STORE_MSG_RECEIVED;
	check(store_msg_insert_incoming(s, &m, NULL), "message");
}

#define HIKE	"120363000000000009@g.us"

static int
extra(const char *dir, int64_t now)
{
	struct store_group_member mem = { (char *)"15550000001@s.whatsapp.net",
		(char *)"", 0 };
	struct store_group	 g = { (char *)HIKE,
		(char *)"Weekend hike \xe2\x9b\xb0", (char *)"", (char *)"pn",
		(char *)"", 0, false, &mem, 1 };
	struct store		*s;

	check(store_open(dir, &s), "open");
	name(s, "15550000001", "Ana", true);
	name(s, "15550000011", "Ivo", false);
	check(store_group_put(s, &g), "group");
	one(s, HIKE, "H1", "", now - 10 * MIN, "who comes");
	own(s, STORE_AS_DELETE_CHAT, HIKE, now - 9 * MIN);
	one(s, HIKE, "H2", "15550000001@s.whatsapp.net", now - 1 * MIN,
	    "Still there?");
	msgs(s, "15550000011", 1, now - 5 * MIN, true, "ivo wrote");
	own(s, STORE_AS_MARK_READ, "15550000011@s.whatsapp.net", now);
	store_close(s);
	return 0;
}

int
main(int argc, char **argv)
{
	struct store	*s;
	int64_t		 now = (int64_t)time(NULL) * 1000;
	long		 secs;

	if (argc == 3 && strcmp(argv[1], "extra") == 0)
		return extra(argv[2], now);
	if (argc != 4 || strcmp(argv[1], "marks") != 0 ||
	    (secs = strtol(argv[3], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: cli-db-fill18 marks DIR SECONDS | "
		    "extra DIR\n");
		return 2;
	}
	check(store_open(argv[2], &s), "open");
	name(s, "15550000001", "Ana", true);
	name(s, "15550000002", "Bob", false);
	name(s, "15550000003", "Carla", false);
	name(s, "15550000004", "Dora", false);
	name(s, "15550000005", "Emil", false);
	name(s, "15550000006", "Finn", false);
	name(s, "15550000007", "Gina", false);
	name(s, "15550000008", "Hugo", false);
	name(s, "15550000009", "Zoe Zebra", false);
	name(s, "15550000010", "Quentin", true);
	msgs(s, "15550000001", 1, now - 20 * MIN, false, "ana writes");
	msgs(s, "15550000002", 1, now - 30 * MIN, true, "bob wrote");
	msgs(s, "15550000003", 1, now - 1 * MIN, false, "carla writes");
	msgs(s, "15550000004", 3, now - 2 * MIN, false, "dora writes");
	msgs(s, "15550000005", 2, now - 3 * MIN, false, "emil writes");
	msgs(s, "15550000006", 1, now - 4 * MIN, false, "finn writes");
	msgs(s, "15550000007", 2, now - 5 * MIN, false, "gina writes");
	msgs(s, "15550000008", 1, now - 6 * MIN, true, "hugo wrote");
	flags(s, "15550000001", 0, now - 100 * MIN, false);
	flags(s, "15550000002", 0, now - 50 * MIN, false);
	flags(s, "15550000004", -1, 0, false);
	flags(s, "15550000005", now - 60 * MIN, 0, false);
	flags(s, "15550000006", now + (int64_t)secs * 1000, 0, false);
	flags(s, "15550000007", 0, 0, true);
	flags(s, "15550000008", -1, 0, true);
	store_close(s);
	return 0;
}
