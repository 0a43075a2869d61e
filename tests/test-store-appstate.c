/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-appstate.c -- what app state sync keeps (store/
 * appstate.c, store/appstate-act.c; schema migration 14;
 * protocol-features.md 2): each action's effect as the chat list, the
 * contacts, the message pages and the search show it; one commit atomic
 * (an invalid action or an SQL error half way leaves everything as it
 * was); reset; the sync keys keeping the newer; a schema-13 database
 * migrated with its rows; the outbox of our own mutations across a
 * reopen.  Made-up JIDs only.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "store/store.h"
#include "store/store-search.h"
#include "store-test.h"

#define ALICE	"100000000001@s.whatsapp.net"
#define BOB	"100000000002@s.whatsapp.net"
#define CAROL	"100000000003@lid"
#define GROUP	"120363000000000001@g.us"
#define HI	"regular_high"
#define LOW	"regular_low"
#define NOW	1700000000000LL		/* ms */

/* A message in chat: incoming (RECEIVED, unread) or ours (SENT). */
static void
msg(struct store *s, const char *chat, const char *id, bool from_me,
    int64_t ts, const char *text)
{
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.from_me = from_me;
	m.ts_ms = ts;
	m.kind = STORE_MSG_TEXT;
	m.text = text;
	m.text_len = strlen(text);
	m.state = from_me ? STORE_MSG_SENT : STORE_MSG_RECEIVED;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
}

/* What the chat list shows of one chat. */
struct seen {
	bool		 listed, archived, marked_unread, locked;
	int		 unread, pos;	/* pos: its place in its list */
	int64_t		 muted_until, pinned;
	char		 last_text[64];
};

static struct seen
chat_seen(struct store *s, const char *jid)
{
	struct store_chat_list	 l;
	struct seen		 v;
	size_t			 i;
	int			 a;

	memset(&v, 0, sizeof(v));
	for (a = 0; a < 2; a++) {
		assert_int_equal(store_chat_list(s, a, 100, &l), 0);
		for (i = 0; i < l.n; i++) {
			struct store_chat	*c = &l.chats[i];

			if (strcmp(c->jid, jid) != 0)
				continue;
			v.listed = true;
			v.archived = c->archived;
			v.marked_unread = c->marked_unread;
			v.locked = c->locked;
			v.unread = c->unread;
			v.pos = (int)i;
			v.muted_until = c->muted_until;
			v.pinned = c->pinned;
			snprintf(v.last_text, sizeof(v.last_text), "%s",
			    c->last_text);
		}
		store_chat_list_free(&l);
	}
	return v;
}

/* The ids of chat's newest messages, oldest first, "*" after a starred
 * one, each followed by a space. */
static const char *
page(struct store *s, const char *chat)
{
	static char		 out[512];
	struct store_msg_page	 p;
	size_t			 i, n = 0;

	out[0] = '\0';
	assert_int_equal(store_msg_page_newest(s, chat, 100, &p), 0);
	for (i = 0; i < p.n; i++)
		n += (size_t)snprintf(out + n, sizeof(out) - n, "%s%s ",
		    p.msgs[i].id, p.msgs[i].starred ? "*" : "");
	store_msg_page_free(&p);
	return out;
}

static struct store_as_action
act(enum store_as_kind kind, const char *jid, bool flag)
{
	struct store_as_action	 a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.jid = jid;
	a.flag = flag;
	a.ts_ms = NOW;
	return a;
}

/* Commit acts as the patch base -> base + 1 of coll, with a hash of
 * bytes base + 1 and one MAC row per action (index MAC byte i, value
 * MAC byte base + 1).  Returns store_as_commit()'s result. */
static int
commit(struct store *s, const char *coll, uint64_t base,
    const struct store_as_action *acts, size_t n)
{
	struct store_as_patch	 p;
	struct store_as_mac	*m = calloc(n + 1, sizeof(*m));
	uint8_t			 hash[STORE_AS_HASH_LEN];
	size_t			 i;
	int			 rc;

	memset(hash, (int)(base + 1), sizeof(hash));
	for (i = 0; i < n; i++) {
		memset(m[i].index_mac, 0, STORE_AS_MAC_LEN);
		memcpy(m[i].index_mac, &i, sizeof(i));
		memset(m[i].value_mac, (int)(base + 1), STORE_AS_MAC_LEN);
	}
	memset(&p, 0, sizeof(p));
	p.collection = coll;
	p.base_version = base;
	p.version = base + 1;
	p.hash = hash;
	p.macs = m;
	p.nmacs = n;
	p.actions = acts;
	p.nactions = n;
	rc = store_as_commit(s, &p);
	free(m);
	return rc;
}

static void
commit_one(struct store *s, const char *coll, struct store_as_action a)
{
	struct store_as_state	 st;

	assert_true(store_as_state_get(s, coll, &st) >= 0);
	assert_int_equal(commit(s, coll, st.version, &a, 1), 0);
}

/* --- contacts and names --- */

static void
test_store_as_commit__contact_sets_full_and_first_name__remove_clears_them(
    void **state)
{
	struct store		*s = open_mem();
	struct store_contact	 c;
	struct store_as_action	 a = act(STORE_AS_CONTACT, ALICE, false);
	struct store_chat_list	 l;

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "hello");
	assert_int_equal(store_contact_set_push_name(s, ALICE, "ali"), 0);
	a.full_name = "Alice Liddell";
	a.first_name = "Alice";
	commit_one(s, "critical_unblock_low", a);
	assert_int_equal(store_contact_get(s, ALICE, &c), 1);
	assert_string_equal(c.name, "Alice Liddell");
	assert_string_equal(c.first_name, "Alice");
	assert_string_equal(c.push_name, "ali");	/* not app state's */
	/* the chat list names the chat by it */
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].contact_name, "Alice Liddell");
	store_chat_list_free(&l);
	/* a LID-only contact, by its LID */
	a = act(STORE_AS_LID_CONTACT, CAROL, false);
	a.full_name = "Carol";
	commit_one(s, "critical_unblock_low", a);
	assert_int_equal(store_contact_get(s, CAROL, &c), 1);
	assert_string_equal(c.name, "Carol");
	assert_string_equal(c.first_name, "");
	/* REMOVE: the address-book names go, the push name stays */
	a = act(STORE_AS_CONTACT, ALICE, false);
	a.remove = true;
	commit_one(s, "critical_unblock_low", a);
	assert_int_equal(store_contact_get(s, ALICE, &c), 1);
	assert_string_equal(c.name, "");
	assert_string_equal(c.first_name, "");
	assert_string_equal(c.push_name, "ali");
	store_close(s);
}

static void
test_store_as_commit__push_name_is_ours__until_the_next_one(void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_PUSH_NAME, NULL, false);
	char			 name[STORE_NAME_MAX + 1] = "";

	(void)state;
	assert_int_equal(store_as_push_name(s, name), 0);
	a.full_name = "Me Myself";
	commit_one(s, "critical_block", a);
	assert_int_equal(store_as_push_name(s, name), 1);
	assert_string_equal(name, "Me Myself");
	a.full_name = "Me";
	commit_one(s, "critical_block", a);
	assert_int_equal(store_as_push_name(s, name), 1);
	assert_string_equal(name, "Me");
	store_close(s);
}

/* --- chat flags --- */

static void
test_store_as_commit__mute_until_always_and_unmute(void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_MUTE, ALICE, true);

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "hello");
	a.mute_end_ms = NOW + 8 * 3600 * 1000;
	commit_one(s, HI, a);
	assert_true(chat_seen(s, ALICE).muted_until == NOW + 8 * 3600 * 1000);
	a.mute_end_ms = -5;	/* any negative: always */
	commit_one(s, HI, a);
	assert_true(chat_seen(s, ALICE).muted_until == -1);
	a = act(STORE_AS_MUTE, ALICE, false);
	commit_one(s, HI, a);
	assert_true(chat_seen(s, ALICE).muted_until == 0);
	/* unmuting a chat never seen makes no chat */
	a = act(STORE_AS_MUTE, BOB, false);
	commit_one(s, HI, a);
	assert_false(chat_seen(s, BOB).listed);
	store_close(s);
}

static void
test_store_as_commit__pin_puts_the_chat_first__unpin_back(void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_PIN, ALICE, true);

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "older");
	msg(s, BOB, "B1", false, 2000, "newer");
	assert_int_equal(chat_seen(s, ALICE).pos, 1);
	commit_one(s, LOW, a);
	assert_int_equal(chat_seen(s, ALICE).pos, 0);
	assert_true(chat_seen(s, ALICE).pinned == NOW);	/* the pin time */
	a.flag = false;
	commit_one(s, LOW, a);
	assert_true(chat_seen(s, ALICE).pinned == 0);
	assert_int_equal(chat_seen(s, ALICE).pos, 1);
	store_close(s);
}

static void
test_store_as_commit__archive_moves_the_chat__lock_marks_it(void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_ARCHIVE, ALICE, true);
	struct store_chat_list	 l;
	struct seen		 v;

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "hello");
	commit_one(s, LOW, a);
	v = chat_seen(s, ALICE);
	assert_true(v.listed && v.archived);
	a.flag = false;
	commit_one(s, LOW, a);
	assert_false(chat_seen(s, ALICE).archived);
	a = act(STORE_AS_LOCK, ALICE, true);
	commit_one(s, LOW, a);
	assert_true(chat_seen(s, ALICE).locked);
	a = act(STORE_AS_MARK_READ, ALICE, false);
	commit_one(s, LOW, a);
	/* a chat found by name carries the flags too */
	assert_int_equal(store_chat_find(s, ALICE, 5, &l), 0);
	assert_int_equal(l.n, 1);
	assert_true(l.chats[0].locked && l.chats[0].marked_unread);
	store_chat_list_free(&l);
	a = act(STORE_AS_LOCK, ALICE, true);
	a.flag = false;
	commit_one(s, LOW, a);
	assert_false(chat_seen(s, ALICE).locked);
	/* a REMOVE carries no meaning: the chat stays as it is */
	a = act(STORE_AS_ARCHIVE, ALICE, true);
	a.remove = true;
	commit_one(s, LOW, a);
	assert_false(chat_seen(s, ALICE).archived);
	store_close(s);
}

static void
test_store_as_commit__mark_read_clears_unread_and_owes_no_receipt__unread_marks(
    void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_MARK_READ, ALICE, false);
	struct store_msg_ref	*ids = NULL;
	struct seen		 v;
	size_t			 n = 9;

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "one");
	msg(s, ALICE, "A2", false, 2000, "two");
	assert_int_equal(chat_seen(s, ALICE).unread, 2);
	commit_one(s, LOW, a);	/* marked unread on the phone */
	v = chat_seen(s, ALICE);
	assert_true(v.marked_unread);
	assert_int_equal(v.unread, 2);
	a.flag = true;		/* read on the phone */
	commit_one(s, LOW, a);
	v = chat_seen(s, ALICE);
	assert_false(v.marked_unread);
	assert_int_equal(v.unread, 0);
	/* the phone sent the read receipts: wachat owes none */
	assert_int_equal(store_chat_mark_read(s, ALICE, 10, &ids, &n), 0);
	assert_int_equal(n, 0);
	store_msg_refs_free(ids, n);
	/* read up to a message range: a later message stays unread */
	msg(s, ALICE, "A3", false, 3000, "three");
	msg(s, ALICE, "A4", false, 5000, "four");
	a.range_ms = 3000;
	commit_one(s, LOW, a);
	assert_int_equal(chat_seen(s, ALICE).unread, 1);
	/* marked unread, then read here: the mark goes */
	a = act(STORE_AS_MARK_READ, ALICE, false);
	commit_one(s, LOW, a);
	assert_true(chat_seen(s, ALICE).marked_unread);
	assert_int_equal(store_chat_mark_read(s, ALICE, 10, &ids, &n), 0);
	assert_int_equal(n, 1);		/* A4's receipt is ours to send */
	store_msg_refs_free(ids, n);
	assert_false(chat_seen(s, ALICE).marked_unread);
	store_close(s);
}

static void
test_store_chat_unread_summary__leaves_out_muted_and_archived_chats(
    void **state)
{
	struct store			*s = open_mem();
	struct store_unread_summary	 u;
	struct store_as_action		 a = act(STORE_AS_MUTE, BOB, true);

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "one");
	msg(s, ALICE, "A2", false, 1001, "two");
	msg(s, BOB, "B1", false, 1000, "one");
	msg(s, CAROL, "C1", false, 1000, "one");
	msg(s, GROUP, "G1", true, 1000, "ours");
	assert_int_equal(store_chat_unread_summary(s, NOW, &u), 0);
	assert_true(u.messages == 4 && u.chats == 3 && u.archived == 0);
	a.mute_end_ms = NOW + 1000;	/* muted for a second more */
	commit_one(s, HI, a);
	a = act(STORE_AS_ARCHIVE, CAROL, true);
	commit_one(s, LOW, a);
	a = act(STORE_AS_MARK_READ, GROUP, false);	/* marked unread */
	commit_one(s, LOW, a);
	assert_int_equal(store_chat_unread_summary(s, NOW, &u), 0);
	assert_true(u.messages == 2 && u.chats == 2 && u.archived == 1);
	/* once the mute has run out, Bob counts again */
	assert_int_equal(store_chat_unread_summary(s, NOW + 1000, &u), 0);
	assert_true(u.messages == 3 && u.chats == 3);
	assert_int_equal(store_chat_unread_summary(s, NOW, NULL), -EINVAL);
	store_close(s);
}

/* --- messages --- */

static void
test_store_as_commit__star_shows_in_the_page__unstar_clears(void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_STAR, ALICE, true);

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "one");
	msg(s, ALICE, "A1", true, 2000, "ours, same id");
	a.msg_id = "A1";
	a.from_me = true;
	commit_one(s, HI, a);
	assert_string_equal(page(s, ALICE), "A1 A1* ");
	a.flag = false;
	commit_one(s, HI, a);
	assert_string_equal(page(s, ALICE), "A1 A1 ");
	/* a message not stored: nothing, and no error */
	a.msg_id = "NOPE";
	commit_one(s, HI, a);
	assert_string_equal(page(s, ALICE), "A1 A1 ");
	store_close(s);
}

/* The one integer sql (a count) answers on s. */
static int
count(struct store *s, const char *sql)
{
	sqlite3_stmt	*st;
	int		 n;

	assert_int_equal(sqlite3_prepare_v2(s->db, sql, -1, &st, NULL),
	    SQLITE_OK);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/* App state comes at login, the phone's history after it: a star for a
 * message not stored yet is kept and stars it when it comes (migration
 * 16); an unstar before then takes it back; deleting the chat forgets
 * it. */
static void
test_store_as_commit__a_star_before_its_message_stars_it_on_arrival(
    void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_STAR, ALICE, true);
	struct store_as_action	 d = act(STORE_AS_DELETE_CHAT, BOB, true);

	(void)state;
	a.msg_id = "H1";
	commit_one(s, HI, a);
	a.msg_id = "H2";
	commit_one(s, HI, a);
	a.flag = false;		/* H2 unstarred before it came */
	commit_one(s, HI, a);
	assert_int_equal(count(s, "SELECT count(*) FROM star_pending"), 1);
	msg(s, ALICE, "H1", true, 500, "ours, same id: not the one starred");
	msg(s, ALICE, "H1", false, 1000, "from history");
	msg(s, ALICE, "H2", false, 2000, "unstarred");
	assert_string_equal(page(s, ALICE), "H1 H1* H2 ");
	assert_int_equal(count(s, "SELECT count(*) FROM star_pending"), 0);
	/* Bob's chat deleted after a star of a message not there: gone */
	a = act(STORE_AS_STAR, BOB, true);
	a.msg_id = "B9";
	commit_one(s, HI, a);
	d.ts_ms = NOW;
	commit_one(s, "regular_high", d);
	assert_int_equal(count(s, "SELECT count(*) FROM star_pending"), 0);
	msg(s, BOB, "B9", false, NOW + 1000, "after the delete");
	assert_string_equal(page(s, BOB), "B9 ");
	store_close(s);
}

static void
test_store_as_commit__delete_for_me_drops_the_message_its_hit_and_preview(
    void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_DELETE_MSG, ALICE, false);
	struct seen		 v;

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "first apple");
	msg(s, ALICE, "A2", false, 2000, "second banana");
	assert_int_equal(hits(s, "banana"), 1);
	a.msg_id = "A2";
	commit_one(s, HI, a);
	assert_string_equal(page(s, ALICE), "A1 ");
	assert_int_equal(hits(s, "banana"), 0);
	assert_int_equal(hits(s, "apple"), 1);
	v = chat_seen(s, ALICE);
	assert_string_equal(v.last_text, "first apple");
	assert_int_equal(v.unread, 1);	/* the deleted one no longer counts */
	store_close(s);
}

static void
test_store_as_commit__clear_chat_keeps_starred_unless_asked(void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_STAR, ALICE, true);

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "kiwi one");
	msg(s, ALICE, "A2", false, 2000, "kiwi two");
	msg(s, ALICE, "A3", true, 3000, "kiwi three");
	a.msg_id = "A2";
	commit_one(s, HI, a);
	a = act(STORE_AS_CLEAR_CHAT, ALICE, false);
	commit_one(s, HI, a);
	assert_string_equal(page(s, ALICE), "A2* ");
	assert_int_equal(hits(s, "kiwi"), 1);
	assert_true(chat_seen(s, ALICE).listed);	/* the chat stays */
	assert_int_equal(chat_seen(s, ALICE).unread, 1);
	a.delete_starred = true;
	commit_one(s, HI, a);
	assert_string_equal(page(s, ALICE), "");
	assert_int_equal(hits(s, "kiwi"), 0);
	assert_true(chat_seen(s, ALICE).listed);
	assert_int_equal(chat_seen(s, ALICE).unread, 0);
	store_close(s);
}

static void
test_store_as_commit__delete_chat_drops_messages_hits_and_row__keeps_contact(
    void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_DELETE_CHAT, ALICE, false);
	struct store_contact	 c;

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "mango");
	msg(s, ALICE, "A2", true, 2000, "mango too");
	msg(s, BOB, "B1", false, 1500, "mango elsewhere");
	assert_int_equal(store_reaction_set(s, ALICE, "A1", "", "x", 1600), 1);
	assert_int_equal(store_contact_set_name(s, ALICE, "Alice"), 0);
	commit_one(s, HI, a);
	assert_false(chat_seen(s, ALICE).listed);
	assert_string_equal(page(s, ALICE), "");
	assert_int_equal(hits(s, "mango"), 1);	/* Bob's only */
	assert_int_equal(store_contact_get(s, ALICE, &c), 1);
	assert_string_equal(c.name, "Alice");
	assert_true(chat_seen(s, BOB).listed);
	/* an old deleteChat (a snapshot's) spares what came after it */
	msg(s, BOB, "B2", false, NOW + 5, "after the delete");
	a = act(STORE_AS_DELETE_CHAT, BOB, false);
	commit_one(s, HI, a);
	assert_string_equal(page(s, BOB), "B2 ");
	assert_string_equal(chat_seen(s, BOB).last_text, "after the delete");
	store_close(s);
}

/* A deleted group chat back with a member's message: deleteChat took
 * the messages and the chat row (with the subject it held), not the
 * group tables nor the contacts, so the list, the lookup by name and the
 * search name the group by its subject again. */
static void
test_store_as_commit__delete_group_chat__keeps_subject_members_and_names(
    void **state)
{
	struct store			*s = open_mem();
	struct store_as_action		 a = act(STORE_AS_DELETE_CHAT, GROUP,
					    false);
	struct store_group_member	 mem[2] = {
		{ (char *)ALICE, (char *)"", 0 }, { (char *)BOB, (char *)"", 1 }
	};
	struct store_group		 g = { (char *)GROUP,
		(char *)"Weekend hike", (char *)"", (char *)"pn", (char *)"",
		0, false, mem, 2 };
	struct store_group		 got;
	struct store_contact		 c;
	struct store_chat_list		 l;
	struct store_search_result	 r;
	struct store_msg_new		 m;

	(void)state;
	assert_int_equal(store_group_put(s, &g), 0);
	assert_int_equal(store_contact_set_name(s, ALICE, "Alice"), 0);
	msg(s, GROUP, "G1", true, 1000, "who comes");
	commit_one(s, HI, a);
	assert_false(chat_seen(s, GROUP).listed);
	assert_int_equal(store_group_get(s, GROUP, &got), 1);
	assert_string_equal(got.subject, "Weekend hike");
	assert_int_equal(got.n, 2);
	store_group_release(&got);
	assert_int_equal(store_contact_get(s, ALICE, &c), 1);
	assert_string_equal(c.name, "Alice");
	/* a member posts: the chat is back, under its subject */
	memset(&m, 0, sizeof(m));
	m.chat = GROUP;
	m.id = "G2";
	m.sender = ALICE;
	m.ts_ms = NOW + 5;
	m.kind = STORE_MSG_TEXT;
	m.text = "Still there?";
	m.text_len = strlen(m.text);
	m.state = STORE_MSG_RECEIVED;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
	assert_int_equal(store_chat_list(s, false, 100, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].name, "Weekend hike");
	assert_int_equal(l.chats[0].unread, 1);
	store_chat_list_free(&l);
	assert_int_equal(store_chat_find(s, "weekend", 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].jid, GROUP);
	store_chat_list_free(&l);
	assert_int_equal(store_chat_find(s, "Weekend hike", 10, &l), 0);
	assert_int_equal(l.n, 1);
	store_chat_list_free(&l);
	assert_int_equal(store_search(s, "still", NULL, 10, &r), 0);
	assert_int_equal(r.n, 1);
	assert_string_equal(r.hits[0].chat_name, "Weekend hike");
	store_search_free(&r);
	store_close(s);
}

/* --- actions wachat does not read, MACs, snapshot, reset --- */

static int
raw_rows(struct store *s, const char *coll)
{
	sqlite3_stmt	*st;
	int		 n;

	assert_int_equal(sqlite3_prepare_v2(s->db, "SELECT count(*) FROM as_raw"
	    " WHERE collection = ?1", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, coll, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_ROW);
	n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

static void
test_store_as_commit__keeps_unknown_actions_raw__snapshot_replaces_all(
    void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a[2];
	struct store_as_patch	 p;
	struct store_as_mac	 m;
	struct store_as_state	 st;
	uint8_t			 hash[STORE_AS_HASH_LEN], v[STORE_AS_MAC_LEN];
	uint8_t			 idx0[STORE_AS_MAC_LEN] = { 0 };

	(void)state;
	a[0] = act(STORE_AS_OTHER, NULL, false);
	a[0].index = (const uint8_t *)"[\"label_edit\",\"1\"]";
	a[0].index_len = strlen((const char *)a[0].index);
	a[0].raw = (const uint8_t *)"\x0a\x01x";
	a[0].raw_len = 3;
	a[1] = a[0];
	a[1].index = (const uint8_t *)"[\"label_edit\",\"2\"]";
	assert_int_equal(commit(s, "regular", 0, a, 2), 0);
	assert_int_equal(raw_rows(s, "regular"), 2);
	/* the MAC rows: index MAC i -> value MAC 0x01 */
	assert_int_equal(store_as_mac_get(s, "regular", idx0, v), 1);
	assert_int_equal(v[0], 1);
	assert_int_equal(store_as_mac_get(s, HI, idx0, v), 0);
	a[1].remove = true;	/* a REMOVE drops its raw row */
	assert_int_equal(commit(s, "regular", 1, &a[1], 1), 0);
	assert_int_equal(raw_rows(s, "regular"), 1);
	/* a snapshot: the MAC and raw rows of before are gone */
	memset(&p, 0, sizeof(p));
	memset(&m, 0, sizeof(m));
	memset(hash, 7, sizeof(hash));
	m.index_mac[0] = 9;
	memset(m.value_mac, 9, sizeof(m.value_mac));
	p.collection = "regular";
	p.snapshot = true;
	p.base_version = 1234;	/* not checked for a snapshot */
	p.version = 40;
	p.hash = hash;
	p.macs = &m;
	p.nmacs = 1;
	assert_int_equal(store_as_commit(s, &p), 0);
	assert_int_equal(store_as_mac_get(s, "regular", idx0, v), 0);
	assert_int_equal(store_as_mac_get(s, "regular", m.index_mac, v), 1);
	assert_int_equal(v[0], 9);
	assert_int_equal(raw_rows(s, "regular"), 0);
	assert_int_equal(store_as_state_get(s, "regular", &st), 1);
	assert_true(st.version == 40 && st.hash[127] == 7);
	/* a patch's REMOVE deletes its MAC row */
	m.remove = true;
	p.snapshot = false;
	p.base_version = 40;
	p.version = 41;
	assert_int_equal(store_as_commit(s, &p), 0);
	assert_int_equal(store_as_mac_get(s, "regular", m.index_mac, v), 0);
	store_close(s);
}

static void
test_store_as_state_reset__discards_version_hash_and_macs__not_chats(
    void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_ARCHIVE, ALICE, true);
	struct store_as_state	 st;
	uint8_t			 idx0[STORE_AS_MAC_LEN] = { 0 }, v[32];
	size_t			 i;

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "hello");
	assert_int_equal(store_as_state_get(s, LOW, &st), 0);
	assert_true(st.version == 0);
	assert_int_equal(commit(s, LOW, 0, &a, 1), 0);
	assert_int_equal(commit(s, LOW, 1, &a, 1), 0);
	assert_int_equal(store_as_state_get(s, LOW, &st), 1);
	assert_true(st.version == 2 && st.hash[0] == 2);
	assert_int_equal(commit(s, HI, 0, &a, 1), 0);
	assert_int_equal(store_as_state_reset(s, LOW), 0);
	memset(&st, 0xff, sizeof(st));
	assert_int_equal(store_as_state_get(s, LOW, &st), 0);
	assert_true(st.version == 0);
	for (i = 0; i < STORE_AS_HASH_LEN; i++)
		assert_int_equal(st.hash[i], 0);
	assert_int_equal(store_as_mac_get(s, LOW, idx0, v), 0);
	assert_int_equal(store_as_mac_get(s, HI, idx0, v), 1);	/* its own */
	assert_true(chat_seen(s, ALICE).archived);	/* chats stay */
	/* a patch on the old base is refused now: the state moved */
	assert_int_equal(commit(s, LOW, 2, &a, 1), -ESTALE);
	assert_int_equal(commit(s, LOW, 0, &a, 1), 0);
	assert_int_equal(store_as_state_reset(s, ""), -EINVAL);
	store_close(s);
}

/* --- atomicity --- */

/* n contact actions, "c<i>@s.whatsapp.net" named "N<i>"; strings in
 * names (n * 48 bytes). */
static struct store_as_action *
contacts(size_t n, char *names)
{
	struct store_as_action	*a = calloc(n, sizeof(*a));
	size_t			 i;

	for (i = 0; i < n; i++) {
		char	*jid = names + i * 48, *nm = jid + 32;

		snprintf(jid, 32, "c%zu@s.whatsapp.net", i);
		snprintf(nm, 16, "N%zu", i);
		a[i] = act(STORE_AS_CONTACT, jid, false);
		a[i].full_name = nm;
	}
	return a;
}

/* The state, a MAC and a contact as they were before the failed
 * commits. */
static void
assert_as_before(struct store *s)
{
	struct store_as_state	 st;
	struct store_contact	 c;
	uint8_t			 idx[STORE_AS_MAC_LEN] = { 0 }, v[32];
	size_t			 i = 1;

	assert_int_equal(store_as_state_get(s, "critical_unblock_low", &st), 1);
	assert_true(st.version == 1 && st.hash[5] == 1);
	memcpy(idx, &i, sizeof(i));
	assert_int_equal(store_as_mac_get(s, "critical_unblock_low", idx, v), 1);
	assert_int_equal(v[0], 1);	/* not 2 */
	i = 2;
	memcpy(idx, &i, sizeof(i));
	assert_int_equal(store_as_mac_get(s, "critical_unblock_low", idx, v), 0);
	assert_int_equal(store_contact_get(s, "c1@s.whatsapp.net", &c), 1);
	assert_string_equal(c.name, "N1");
	assert_int_equal(store_contact_get(s, "c2@s.whatsapp.net", &c), 0);
	assert_int_equal(store_contact_get(s, "c700@s.whatsapp.net", &c), 0);
	assert_false(chat_seen(s, ALICE).archived);
}

static void
test_store_as_commit__a_failure_half_way_leaves_everything_as_before(
    void **state)
{
	struct store		*s = open_mem();
	char			*names = calloc(1000, 48);
	char			 big[STORE_NAME_MAX + 2];
	struct store_as_action	*a = contacts(1000, names);
	struct store_as_state	 st;
	struct store_contact	 c;

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "hello");
	assert_int_equal(commit(s, "critical_unblock_low", 0, a, 2), 0);
	assert_as_before(s);
	/* a patch that archives Alice first, then names 998 contacts, its
	 * 500th action without a JID */
	a[0] = act(STORE_AS_ARCHIVE, ALICE, true);
	a[499].jid = NULL;
	assert_int_equal(commit(s, "critical_unblock_low", 1, a, 1000),
	    -EINVAL);
	assert_as_before(s);
	/* its 500th name over STORE_NAME_MAX */
	a[499].jid = names + 499 * 48;
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	a[499].full_name = big;
	assert_int_equal(commit(s, "critical_unblock_low", 1, a, 1000),
	    -EINVAL);
	assert_as_before(s);
	/* an SQL error in its 500th action: a trigger refuses the row */
	a[499].full_name = names + 499 * 48 + 32;
	assert_int_equal(sqlite3_exec(s->db, "CREATE TEMP TRIGGER refuse"
	    " BEFORE INSERT ON contact WHEN new.jid = 'c499@s.whatsapp.net'"
	    " BEGIN SELECT RAISE(ABORT, 'injected'); END;", NULL, NULL, NULL),
	    SQLITE_OK);
	assert_int_equal(commit(s, "critical_unblock_low", 1, a, 1000), -EIO);
	assert_as_before(s);
	/* without the fault the same patch goes through whole */
	assert_int_equal(sqlite3_exec(s->db, "DROP TRIGGER refuse", NULL, NULL,
	    NULL), SQLITE_OK);
	assert_int_equal(commit(s, "critical_unblock_low", 1, a, 1000), 0);
	assert_true(chat_seen(s, ALICE).archived);
	assert_int_equal(store_contact_get(s, "c999@s.whatsapp.net", &c), 1);
	assert_string_equal(c.name, "N999");
	assert_int_equal(store_as_state_get(s, "critical_unblock_low", &st), 1);
	assert_true(st.version == 2);
	free(a);
	free(names);
	store_close(s);
}

/* Arguments out of range: -EINVAL, nothing written. */
static void
test_store_as_commit__refuses_bad_patches(void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_STAR, ALICE, true);
	struct store_as_patch	 p;
	struct store_as_state	 st;
	uint8_t			 hash[STORE_AS_HASH_LEN] = { 0 };

	(void)state;
	assert_int_equal(commit(s, HI, 0, &a, 1), -EINVAL);	/* no msg id */
	a = act(STORE_AS_KIND_COUNT_, ALICE, true);
	assert_int_equal(commit(s, HI, 0, &a, 1), -EINVAL);
	a = act(STORE_AS_OTHER, NULL, false);		/* no index */
	assert_int_equal(commit(s, HI, 0, &a, 1), -EINVAL);
	assert_int_equal(store_as_apply(s, NULL, &a, 1), -EINVAL);
	memset(&p, 0, sizeof(p));
	p.collection = HI;
	assert_int_equal(store_as_commit(s, &p), -EINVAL);	/* no hash */
	p.hash = hash;
	p.version = (uint64_t)INT64_MAX + 1;
	assert_int_equal(store_as_commit(s, &p), -EINVAL);
	p.version = 1;
	p.collection = "a-collection-name-longer-than-32-bytes";
	assert_int_equal(store_as_commit(s, &p), -EINVAL);
	p.collection = HI;
	p.nmacs = 1;	/* without macs */
	assert_int_equal(store_as_commit(s, &p), -EINVAL);
	assert_int_equal(store_as_commit(s, NULL), -EINVAL);
	assert_int_equal(store_as_state_get(s, HI, &st), 0);
	store_close(s);
}

/* Our own action shown at once, the collection untouched, its mutation
 * queued in the same transaction. */
static void
test_store_as_apply__shows_our_mute_at_once__state_untouched(void **state)
{
	struct store		*s = open_mem();
	struct store_as_action	 a = act(STORE_AS_MUTE, ALICE, true);
	struct store_as_state	 st;
	struct store_as_pending	*p = NULL;
	size_t			 n = 0;

	(void)state;
	msg(s, ALICE, "A1", false, 1000, "hello");
	a.mute_end_ms = -1;
	assert_int_equal(store_tx_begin(s), 0);
	assert_int_equal(store_as_apply(s, HI, &a, 1), 0);
	assert_int_equal(store_as_pending_add(s, HI, (const uint8_t *)"[]", 2,
	    (const uint8_t *)"m", 1, NOW, NULL), 0);
	assert_int_equal(store_tx_commit(s), 0);
	assert_true(chat_seen(s, ALICE).muted_until == -1);
	assert_int_equal(store_as_state_get(s, HI, &st), 0);
	assert_int_equal(store_as_pending_list(s, HI, STORE_AS_QUEUED, 10, &p,
	    &n), 0);
	assert_int_equal(n, 1);
	store_as_pending_free(p, n);
	store_close(s);
}

/* --- keys --- */

static struct store_as_key
key(uint8_t id, uint8_t data, int64_t ts)
{
	struct store_as_key	 k;

	memset(&k, 0, sizeof(k));
	k.id[0] = 0;
	k.id[1] = id;
	k.id_len = 2;
	memset(k.data, data, 32);
	k.data_len = 32;
	k.fp[0] = 0x08;
	k.fp[1] = id;
	k.fp_len = 2;
	k.ts_ms = ts;
	return k;
}

static void
test_store_as_key__keeps_the_newer_of_one_id__newest_sends(void **state)
{
	struct store		*s = open_mem();
	struct store_as_key	 k = key(1, 0xa1, 100), out;
	uint8_t			 id[2] = { 0, 1 };

	(void)state;
	assert_int_equal(store_as_key_newest(s, &out), 0);
	assert_int_equal(store_as_key_put(s, &k), 1);
	k = key(1, 0xa0, 50);		/* an older share of the same id */
	assert_int_equal(store_as_key_put(s, &k), 0);
	k = key(1, 0xa0, 100);		/* the same again */
	assert_int_equal(store_as_key_put(s, &k), 0);
	assert_int_equal(store_as_key_get(s, id, 2, &out), 1);
	assert_true(out.data[0] == 0xa1 && out.data_len == 32 &&
	    out.ts_ms == 100 && out.fp_len == 2 && out.fp[1] == 1);
	k = key(1, 0xa2, 200);		/* newer: replaces */
	assert_int_equal(store_as_key_put(s, &k), 1);
	assert_int_equal(store_as_key_get(s, id, 2, &out), 1);
	assert_int_equal(out.data[0], 0xa2);
	k = key(2, 0xb0, 150);
	assert_int_equal(store_as_key_put(s, &k), 1);
	assert_int_equal(store_as_key_newest(s, &out), 1);
	assert_true(out.id[1] == 1 && out.ts_ms == 200);
	k = key(3, 0xc0, 300);
	assert_int_equal(store_as_key_put(s, &k), 1);
	assert_int_equal(store_as_key_newest(s, &out), 1);
	assert_int_equal(out.id[1], 3);
	id[1] = 9;
	assert_int_equal(store_as_key_get(s, id, 2, &out), 0);
	k.id_len = 0;
	assert_int_equal(store_as_key_put(s, &k), -EINVAL);
	k = key(4, 0, 1);
	k.data_len = STORE_AS_KEY_DATA_MAX + 1;
	assert_int_equal(store_as_key_put(s, &k), -EINVAL);
	explicit_bzero(&out, sizeof(out));
	store_close(s);
}

/* --- the outbox and the migration, on disk --- */

static void
test_store_as_pending__keeps_our_mutations_in_order_across_a_reopen(
    void **state)
{
	char			*dir = tmpdir();
	struct store		*s = NULL;
	struct store_as_pending	*p = NULL;
	int64_t			 id[3];
	size_t			 n = 0, i;

	(void)state;
	assert_int_equal(store_open(dir, &s), 0);
	for (i = 0; i < 3; i++) {
		char	 idx[40];

		snprintf(idx, sizeof(idx), "[\"mute\",\"%zu@s.whatsapp.net\"]", i);
		assert_int_equal(store_as_pending_add(s, i == 1 ? LOW : HI,
		    (const uint8_t *)idx, strlen(idx), (const uint8_t *)"\x01\x02",
		    2, NOW + (int64_t)i, &id[i]), 0);
	}
	assert_true(id[0] < id[1] && id[1] < id[2]);
	assert_int_equal(store_as_pending_mark(s, id[0], STORE_AS_SENT), 1);
	assert_int_equal(store_as_pending_mark(s, id[1], STORE_AS_FAILED), 1);
	assert_int_equal(store_as_pending_mark(s, 999, STORE_AS_SENT), 0);
	assert_int_equal(store_as_pending_mark(s, id[1], 7), -EINVAL);
	store_close(s);
	s = NULL;
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_as_pending_list(s, NULL, STORE_AS_QUEUED, 10, &p,
	    &n), 0);
	assert_int_equal(n, 1);
	assert_true(p[0].id == id[2] && p[0].created_ms == NOW + 2 &&
	    p[0].action_len == 2 && p[0].action[1] == 2 &&
	    p[0].state == STORE_AS_QUEUED);
	assert_string_equal(p[0].collection, HI);
	assert_memory_equal(p[0].index, "[\"mute\",\"2@s.whatsapp.net\"]",
	    p[0].index_len);
	store_as_pending_free(p, n);
	/* at login the sent one is queued again, before the newer one */
	assert_int_equal(store_as_pending_requeue(s), 1);
	assert_int_equal(store_as_pending_list(s, HI, STORE_AS_QUEUED, 1, &p,
	    &n), 1);	/* one more than max */
	assert_true(n == 1 && p[0].id == id[0]);
	store_as_pending_free(p, n);
	assert_int_equal(store_as_pending_list(s, LOW, STORE_AS_FAILED, 10, &p,
	    &n), 0);
	assert_true(n == 1 && p[0].id == id[1]);
	store_as_pending_free(p, n);
	/* done: removed */
	assert_int_equal(store_as_pending_remove(s, id[0]), 1);
	assert_int_equal(store_as_pending_remove(s, id[0]), 0);
	assert_int_equal(store_as_pending_list(s, NULL, STORE_AS_QUEUED, 10, &p,
	    &n), 0);
	assert_true(n == 1 && p[0].id == id[2]);
	store_as_pending_free(p, n);
	assert_int_equal(store_as_pending_add(s, HI, NULL, 0,
	    (const uint8_t *)"x", 1, NOW, NULL), -EINVAL);
	store_close(s);
	rmtree(dir);
	free(dir);
}

static void
test_store_open__migrates_a_schema_13_database_to_14_keeping_every_row(
    void **state)
{
	char			*dir = tmpdir(), path[300];
	struct store		*s = NULL;
	struct store_contact	 c;
	struct store_as_action	 a = act(STORE_AS_STAR, ALICE, true);
	struct seen		 v;
	sqlite3			*db;
	int			 before;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	assert_int_equal(store_open(dir, &s), 0);
	msg(s, ALICE, "A1", false, 1000, "papaya");
	msg(s, ALICE, "A2", true, 2000, "ours");
	assert_int_equal(store_contact_set_name(s, ALICE, "Alice"), 0);
	assert_int_equal(store_contact_set_push_name(s, BOB, "bob"), 0);
	assert_int_equal(store_chat_set_flags(s, ALICE, -1, 5, false), 0);
	assert_int_equal(store_chat_set_draft(s, BOB, "unsent"), 0);
	assert_int_equal(store_reaction_set(s, ALICE, "A1", "", "y", 3000), 1);
	store_close(s);
	s = NULL;
	/* back to schema 13: migration 14's tables and columns gone */
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(store_tok_register(db), 0);
	assert_int_equal(sqlite3_exec(db, UNDO_14
	    "UPDATE counter SET value = 13 WHERE name = 'schema_version';"
	    "PRAGMA user_version = 13", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(db);
	before = count_rows(path, "SELECT (SELECT count(*) FROM message) * 1000"
	    " + (SELECT count(*) FROM chat) * 100"
	    " + (SELECT count(*) FROM contact) * 10"
	    " + (SELECT count(*) FROM reaction)");
	assert_int_equal(before, 2000 + 200 + 20 + 1);

	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	store_close(s);
	s = NULL;
	assert_int_equal(count_rows(path, "SELECT (SELECT count(*) FROM message)"
	    " * 1000 + (SELECT count(*) FROM chat) * 100"
	    " + (SELECT count(*) FROM contact) * 10"
	    " + (SELECT count(*) FROM reaction)"), before);
	assert_int_equal(store_open(dir, &s), 0);
	v = chat_seen(s, ALICE);
	assert_true(v.listed && v.muted_until == -1 && v.pinned == 5 &&
	    v.unread == 1 && !v.marked_unread && !v.locked);
	assert_string_equal(v.last_text, "ours");
	assert_string_equal(page(s, ALICE), "A1 A2 ");
	assert_int_equal(hits(s, "papaya"), 1);
	assert_int_equal(store_contact_get(s, ALICE, &c), 1);
	assert_string_equal(c.name, "Alice");
	assert_string_equal(c.first_name, "");
	assert_int_equal(store_contact_get(s, BOB, &c), 1);
	assert_string_equal(c.push_name, "bob");
	/* and the new columns work on the old rows */
	a.msg_id = "A1";
	commit_one(s, HI, a);
	assert_string_equal(page(s, ALICE), "A1* A2 ");
	store_close(s);
	rmtree(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_as_commit__contact_sets_full_and_first_name__remove_clears_them),
		cmocka_unit_test(test_store_as_commit__push_name_is_ours__until_the_next_one),
		cmocka_unit_test(test_store_as_commit__mute_until_always_and_unmute),
		cmocka_unit_test(test_store_as_commit__pin_puts_the_chat_first__unpin_back),
		cmocka_unit_test(test_store_as_commit__archive_moves_the_chat__lock_marks_it),
		cmocka_unit_test(test_store_as_commit__mark_read_clears_unread_and_owes_no_receipt__unread_marks),
		cmocka_unit_test(test_store_chat_unread_summary__leaves_out_muted_and_archived_chats),
		cmocka_unit_test(test_store_as_commit__star_shows_in_the_page__unstar_clears),
		cmocka_unit_test(test_store_as_commit__a_star_before_its_message_stars_it_on_arrival),
		cmocka_unit_test(test_store_as_commit__delete_for_me_drops_the_message_its_hit_and_preview),
		cmocka_unit_test(test_store_as_commit__clear_chat_keeps_starred_unless_asked),
		cmocka_unit_test(test_store_as_commit__delete_chat_drops_messages_hits_and_row__keeps_contact),
		cmocka_unit_test(test_store_as_commit__delete_group_chat__keeps_subject_members_and_names),
		cmocka_unit_test(test_store_as_commit__keeps_unknown_actions_raw__snapshot_replaces_all),
		cmocka_unit_test(test_store_as_state_reset__discards_version_hash_and_macs__not_chats),
		cmocka_unit_test(test_store_as_commit__a_failure_half_way_leaves_everything_as_before),
		cmocka_unit_test(test_store_as_commit__refuses_bad_patches),
		cmocka_unit_test(test_store_as_apply__shows_our_mute_at_once__state_untouched),
		cmocka_unit_test(test_store_as_key__keeps_the_newer_of_one_id__newest_sends),
		cmocka_unit_test(test_store_as_pending__keeps_our_mutations_in_order_across_a_reopen),
		cmocka_unit_test(test_store_open__migrates_a_schema_13_database_to_14_keeping_every_row),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
