/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/cli-db-fill17.c -- the database tests/check-cli-shell-17.sh
 * reads, made through the store API (made-up JIDs and numbers only):
 *
 *   cli-db-fill17 fill DIR         the chats and messages below, then exit
 *   cli-db-fill17 add DIR ID TEXT  one more incoming message from Ana,
 *                                  now, then exit (for history --follow)
 *   cli-db-fill17 add-group DIR ID TEXT  one more from Carol in the
 *                                  group, now (for its mentions)
 *
 * fill: Ana (+15550000001, push name) with two unread messages, one of
 * them three lines long; the group "Lunch Crew" with Carol's (contact name)
 * unread message and one of ours; Bob (+15550000002) read, nothing
 * unread.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/err.h"
#include "store/store.h"

#define ANA	"15550000001@s.whatsapp.net"
#define BOB	"15550000002@s.whatsapp.net"
#define CAROL	"15550000003@s.whatsapp.net"
#define GROUP	"120363000000000009@g.us"
#define T0	1577836800000LL		/* 2020-01-01T00:00:00Z */
#define MIN	60000LL

static void
check(int rc, const char *what)
{
	if (rc < 0) {
		fprintf(stderr, "cli-db-fill17: %s: %s\n", what,
		    wc_strerror(rc));
		exit(1);
	}
}

static void
in(struct store *s, const char *chat, const char *id, const char *sender,
    bool from_me, int64_t ts, const char *text)
{
	static const uint8_t	 pb[] = "pb";
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.sender = sender;
	m.from_me = from_me;
	m.ts_ms = ts;
	m.kind = STORE_MSG_TEXT;
	m.text = text;
	m.text_len = strlen(text);
	m.state = from_me ? STORE_MSG_SENT : STORE_MSG_RECEIVED;
	if (from_me) {
		m.payload = pb;
		m.payload_len = 2;
		check(store_msg_insert_outgoing(s, &m, NULL), "outgoing");
		check(store_msg_mark_sent(s, chat, id, 0), "sent");
	} else
		check(store_msg_insert_incoming(s, &m, NULL), "incoming");
}

static void
fill(struct store *s)
{
	struct store_msg_ref	*ids;
	size_t			 n;

	check(store_contact_set_push_name(s, ANA, "Ana"), "push name");
	check(store_contact_set_push_name(s, BOB, "Bob"), "push name");
	check(store_contact_set_name(s, CAROL, "Carol"), "contact");
	check(store_chat_set_name(s, GROUP, "Lunch Crew"), "group name");
	in(s, BOB, "B1", "", false, T0, "old news from bob");
	check(store_chat_mark_read(s, BOB, 10, &ids, &n), "read");
	store_msg_refs_free(ids, n);
	in(s, GROUP, "G1", CAROL, false, T0 + MIN, "lunch at noon");
	in(s, GROUP, "G2", "", true, T0 + 2 * MIN, "lunch sounds good");
	in(s, ANA, "A1", "", false, T0 + 3 * MIN, "first line\nsecond line\n"
	    "third \x1b[31mline");
	in(s, ANA, "A2", "", false, T0 + 4 * MIN, "are you there?");
	check(store_fts_catch_up(s, 100), "catch up");
}

int
main(int argc, char **argv)
{
	struct store	*s;

	if (!(argc == 3 && strcmp(argv[1], "fill") == 0) &&
	    !(argc == 5 && strcmp(argv[1], "add") == 0) &&
	    !(argc == 5 && strcmp(argv[1], "add-group") == 0)) {
		fprintf(stderr, "usage: cli-db-fill17 fill DIR | add DIR ID "
		    "TEXT | add-group DIR ID TEXT\n");
		return 2;
	}
	check(store_open(argv[2], &s), "open");
	if (argc == 3)
		fill(s);
	else if (strcmp(argv[1], "add-group") == 0)
		in(s, GROUP, argv[3], CAROL, false,
		    (int64_t)time(NULL) * 1000, argv[4]);
	else
		in(s, ANA, argv[3], "", false, (int64_t)time(NULL) * 1000,
		    argv[4]);
	store_close(s);
	return 0;
}
