/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/cli-db-fill.c -- the database tests/check-cli-read.sh reads,
 * made through the store API (made-up JIDs and numbers only):
 *
 *   cli-db-fill fill DIR     chats and messages (below), then exit
 *   cli-db-fill names DIR    chats whose names hide invisible characters
 *                            (below), then exit
 *   cli-db-fill hold DIR     open DIR's database, begin a write
 *                            transaction holding a new message, print
 *                            "holding" and keep it open until standard
 *                            input closes; then roll it back
 *
 * fill: Ana María (+15550000001, push name; 3 messages, one from us,
 * one with ESC and OSC sequences and a bidi override in it, one that is
 * revoked), the group "Café Society" (2 members' messages, one edited),
 * Bob (a LID chat mapped from +15550000002), two chats named "Team" and
 * "Team B" (ambiguous "Tea"), and 300 history messages imported in Ana's
 * chat (2020-01-01 on, one per minute).
 *
 * names: "Al<U+200B>ice<U+FEFF>" (+15550000001, push name) and a group
 * whose member "Dev <woman technologist: U+1F469 U+200D U+1F4BB>" (contact
 * name) writes "ship<U+2060>it"; +15550000002, whose push name is only a
 * zero-width space and a Hangul filler, says "hi".
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "store/store.h"

#define ANA	"15550000001@s.whatsapp.net"
#define BOB_PN	"15550000002@s.whatsapp.net"
#define BOB	"200000000002@lid"
#define GROUP	"120363000000000009@g.us"
#define CAROL	"15550000003@s.whatsapp.net"
#define TEAM	"120363000000000010@g.us"
#define TEAMB	"120363000000000011@g.us"
#define T0	1577836800000LL		/* 2020-01-01T00:00:00Z */
#define DAY	86400000LL

static void
check(int rc, const char *what)
{
	if (rc < 0) {
		fprintf(stderr, "cli-db-fill: %s: %s\n", what, wc_strerror(rc));
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
	static struct store_msg_new	 h[300];
	static char			 ids[300][16], texts[300][48];
	int				 i;

	for (i = 0; i < 300; i++) {
		snprintf(ids[i], sizeof(ids[i]), "HIST%03d", i);
		snprintf(texts[i], sizeof(texts[i]), "history line %d%s", i,
		    i == 7 ? " with the word zanzibar" : "");
		memset(&h[i], 0, sizeof(h[i]));
		h[i].chat = ANA;
		h[i].id = ids[i];
		h[i].ts_ms = T0 + (int64_t)i * 60000;
		h[i].kind = STORE_MSG_TEXT;
		h[i].text = texts[i];
		h[i].text_len = strlen(texts[i]);
		h[i].state = STORE_MSG_READ;
		h[i].from_me = i % 3 == 0;
	}
	check(store_hist_import(s, h, 300), "import");
	check(store_contact_set_push_name(s, ANA, "Ana María"), "push name");
	in(s, ANA, "A1", "", false, T0 + 400 * DAY, "Quieres un café mañana?");
	in(s, ANA, "A2", "", true, T0 + 400 * DAY + 60000, "Sí! a las 10");
	in(s, ANA, "A3", "", false, T0 + 400 * DAY + 120000,
	    "evil \x1b[2J\x1b]52;c;SGVsbG8=\x07 cafe \xe2\x80\xae"
	    "txt.exe\x9b" "31m done");
	in(s, ANA, "A4", "", false, T0 + 400 * DAY + 180000, "gone soon");
	check(store_msg_revoke(s, ANA, false, "A4"), "revoke");
	check(store_chat_set_name(s, GROUP, "Café Society"), "group name");
	check(store_contact_set_name(s, CAROL, "Carol"), "contact");
	in(s, GROUP, "G1", CAROL, false, T0 + 300 * DAY, "Who brings the "
	    "croissants?");
	in(s, GROUP, "G2", BOB, false, T0 + 300 * DAY + 1000, "I will, "
	    "\"promise\"\\ok");
	check(store_msg_edit(s, GROUP, false, "G2", "I will bring them", 17,
	    T0 + 300 * DAY + 5000), "edit");
	/* our reply to Carol's question, and two reactions to it */
	{
		static const uint8_t	 pb[] = "pb";
		struct store_msg_new	 m;

		memset(&m, 0, sizeof(m));
		m.chat = GROUP;
		m.id = "G3";
		m.sender = "";
		m.from_me = true;
		m.ts_ms = T0 + 300 * DAY + 2000;
		m.kind = STORE_MSG_TEXT;
		m.text = "me too";
		m.text_len = 6;
		m.quoted_id = "G1";
		m.quoted_sender = CAROL;
		m.quoted_text = "Who brings the croissants?";
		m.state = STORE_MSG_SENT;
		m.payload = pb;
		m.payload_len = 2;
		check(store_msg_insert_outgoing(s, &m, NULL), "reply");
		check(store_msg_mark_sent(s, GROUP, "G3", 0), "sent");
		check(store_reaction_set(s, GROUP, "G1", BOB, "\xf0\x9f\x91\x8d",
		    T0 + 300 * DAY + 3000), "reaction");
		check(store_reaction_set(s, GROUP, "G1", "", "\xe2\x9d\xa4",
		    T0 + 300 * DAY + 4000), "reaction");
	}
	check(store_lid_put(s, BOB_PN, BOB), "lid");
	check(store_contact_set_push_name(s, BOB, "Bob"), "bob");
	in(s, BOB, "B1", "", false, T0 + 200 * DAY, "see you at the station");
	check(store_chat_set_name(s, TEAM, "Team"), "team");
	check(store_chat_set_name(s, TEAMB, "Team B"), "team b");
	in(s, TEAM, "T1", CAROL, false, T0 + 100 * DAY, "standup moved");
	check(store_fts_catch_up(s, 100), "catch up");
}

static void
fill_names(struct store *s)
{
	check(store_contact_set_push_name(s, ANA,
	    "Al\xe2\x80\x8bice\xef\xbb\xbf"), "push name");
	in(s, ANA, "N1", "", false, T0, "hello");
	check(store_contact_set_name(s, CAROL,
	    "Dev \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb"), "contact");
	check(store_chat_set_name(s, GROUP, "Crew"), "group name");
	in(s, GROUP, "N2", CAROL, false, T0 + 1000, "ship\xe2\x81\xa0it");
	check(store_contact_set_push_name(s, BOB_PN, "\xe2\x80\x8b\xe3\x85\xa4"),
	    "blank push name");
	in(s, BOB_PN, "N3", "", false, T0 + 2000, "hi");
}

int
main(int argc, char **argv)
{
	struct store	*s;
	char		 line[64];

	if (argc != 3 || (strcmp(argv[1], "fill") != 0 &&
	    strcmp(argv[1], "names") != 0 && strcmp(argv[1], "hold") != 0)) {
		fprintf(stderr, "usage: cli-db-fill fill|names|hold DIR\n");
		return 2;
	}
	check(store_open(argv[2], &s), "open");
	if (strcmp(argv[1], "fill") == 0) {
		fill(s);
		store_close(s);
		return 0;
	}
	if (strcmp(argv[1], "names") == 0) {
		fill_names(s);
		store_close(s);
		return 0;
	}
	check(store_tx_begin(s), "begin");
	in(s, ANA, "HELD", "", false, T0 + 500 * DAY, "uncommitted zanzibar");
	printf("holding\n");
	fflush(stdout);
	while (fgets(line, sizeof(line), stdin) != NULL)
		;
	check(store_tx_rollback(s), "rollback");
	store_close(s);
	return 0;
}
