/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-message.c -- the message store (store/message.c,
 * page.c, outbox.c, receipt.c, edit.c, chat.c, contact.c):
 * exactly-once delivery, the outbox across a reopen, forward-only states,
 * keyset paging, the chat list, reactions, read receipts, contacts, the
 * PN-LID mapping, device lists and migration 3.  Made-up JIDs only.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

#include <cmocka.h>
#include <sqlite3.h>

#include "base/err.h"
#include "base/buf.h"
#include "store/store.h"
#include "store-test.h"

#define ALICE	"100000000001@lid"
#define BOB	"100000000002@lid"
#define CAROL	"100000000003@lid"
#define GROUP	"120363000000000001@g.us"

/* An incoming text message from sender in chat. */
static struct store_msg_new
in_msg(const char *chat, const char *id, const char *sender, int64_t ts_ms,
    const char *text)
{
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.sender = sender;
	m.ts_ms = ts_ms;
	m.kind = STORE_MSG_TEXT;
	m.text = text;
	m.text_len = strlen(text);
	m.state = STORE_MSG_RECEIVED;
	return m;
}

/* An outgoing text message whose payload is the text's bytes prefixed
 * with "pb:" (any bytes would do). */
static struct store_msg_new
out_msg(const char *chat, const char *id, int64_t ts_ms, const char *text,
    const uint8_t *payload, size_t payload_len)
{
	struct store_msg_new	 m = in_msg(chat, id, "", ts_ms, text);

	m.from_me = true;
	m.payload = payload;
	m.payload_len = payload_len;
	m.state = STORE_MSG_QUEUED;
	return m;
}

static enum store_msg_state
state_of(struct store *s, const char *chat, bool from_me, const char *id)
{
	struct store_msg	 m;
	enum store_msg_state	 st;

	assert_int_equal(store_msg_get(s, chat, from_me, id, &m), 1);
	st = m.state;
	store_msg_release(&m);
	return st;
}

/* Find chat jid in a fresh chat list; returns its index or -1. */
static int
chat_index(const struct store_chat_list *l, const char *jid)
{
	size_t	 i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->chats[i].jid, jid) == 0)
			return (int)i;
	return -1;
}

static int
unread_of(struct store *s, const char *jid)
{
	struct store_chat_list	 l;
	int			 i, n;

	assert_int_equal(store_chat_list(s, false, 100, &l), 0);
	i = chat_index(&l, jid);
	assert_true(i >= 0);
	n = l.chats[i].unread;
	store_chat_list_free(&l);
	return n;
}

static void
test_store_msg_insert_incoming__stores_a_message_once__a_redelivery_is_a_duplicate(
    void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 m = in_msg(ALICE, "3EB0A1", "", 1000, "hi");
	struct store_msg_page	 p;
	int64_t			 r1 = 0, r2 = 0;

	(void)state;
	assert_int_equal(store_msg_insert_incoming(s, &m, &r1), 0);
	assert_true(r1 > 0);
	/* The same (chat, from_me, id) again, even with other content. */
	m.text = "changed";
	m.text_len = 7;
	assert_int_equal(store_msg_insert_incoming(s, &m, &r2), 1);
	assert_int_equal(r2, r1);
	assert_int_equal(store_msg_page_newest(s, ALICE, 50, &p), 0);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.msgs[0].text, "hi");
	assert_int_equal(p.msgs[0].state, STORE_MSG_RECEIVED);
	store_msg_page_free(&p);
	assert_int_equal(unread_of(s, ALICE), 1);
	/* The same id from us is another message. */
	m.from_me = true;
	m.state = STORE_MSG_SENT;
	assert_int_equal(store_msg_insert_incoming(s, &m, &r2), 0);
	assert_true(r2 != r1);
	assert_int_equal(unread_of(s, ALICE), 1);
	store_close(s);
}

static void
test_store_msg_insert_incoming__fills_a_placeholder_in_place(void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 m = in_msg(ALICE, "3EB0P", "", 1000, "");
	struct store_msg_new	 later = in_msg(ALICE, "3EB0Q", "", 2000, "q");
	struct store_msg_page	 p;
	int64_t			 r1, r2;

	(void)state;
	m.kind = STORE_MSG_PLACEHOLDER;
	assert_int_equal(store_msg_insert_incoming(s, &m, &r1), 0);
	assert_int_equal(store_msg_insert_incoming(s, &later, NULL), 0);
	m.kind = STORE_MSG_TEXT;
	m.text = "recovered";
	m.text_len = 9;
	assert_int_equal(store_msg_insert_incoming(s, &m, &r2), 2);
	assert_int_equal(r2, r1);
	/* Filled once; a third delivery is a plain duplicate. */
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 1);
	assert_int_equal(store_msg_page_newest(s, ALICE, 50, &p), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.msgs[0].rowid, r1);
	assert_string_equal(p.msgs[0].text, "recovered");
	assert_int_equal(p.msgs[0].kind, STORE_MSG_TEXT);
	store_msg_page_free(&p);
	assert_int_equal(unread_of(s, ALICE), 2);
	store_close(s);
}

static void
test_store_msg_outbox__survives_a_reopen_with_payload_and_state(void **state)
{
	static const uint8_t	 pb1[] = { 0x0a, 0x03, 'o', 'n', 'e' };
	static const uint8_t	 pb2[] = { 0x0a, 0x03, 't', 'w', 'o', 0x00 };
	static const uint8_t	 pb3[] = { 0x0a, 0x05, 't', 'h', 'r', 'e', 'e' };
	struct store_msg_new	 m1 = out_msg(BOB, "3EB001", 1000, "one", pb1,
				    sizeof(pb1));
	struct store_msg_new	 m2 = out_msg(BOB, "3EB002", 1001, "two", pb2,
				    sizeof(pb2));
	struct store_msg_new	 m3 = out_msg(CAROL, "3EB003", 1002, "three",
				    pb3, sizeof(pb3));
	struct store_msg_page	 p;
	struct store_msg	 got;
	struct store		*s = NULL;
	char			*dir = tmpdir();
	int64_t			 r1;

	(void)state;
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &m1, &r1), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &m2, NULL), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &m3, NULL), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &m3, NULL), -EEXIST);
	assert_int_equal(store_msg_note_attempt(s, BOB, "3EB002"), 1);
	assert_int_equal(store_msg_mark_sent(s, BOB, "3EB001", 5000), 1);
	store_close(s);
	s = NULL;

	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_msg_outbox(s, 10, &p), 0);
	assert_int_equal(p.n, 2);
	assert_false(p.more);
	assert_string_equal(p.msgs[0].id, "3EB002");
	assert_int_equal(p.msgs[0].state, STORE_MSG_QUEUED);
	assert_int_equal(p.msgs[0].attempts, 1);
	assert_int_equal(p.msgs[0].payload_len, sizeof(pb2));
	assert_memory_equal(p.msgs[0].payload, pb2, sizeof(pb2));
	assert_string_equal(p.msgs[1].id, "3EB003");
	assert_string_equal(p.msgs[1].chat, CAROL);
	assert_memory_equal(p.msgs[1].payload, pb3, sizeof(pb3));
	store_msg_page_free(&p);
	/* The acked one left the outbox with the server's time; its payload
	 * stays for retry receipts. */
	assert_int_equal(store_msg_get(s, BOB, true, "3EB001", &got), 1);
	assert_int_equal(got.rowid, r1);
	assert_int_equal(got.state, STORE_MSG_SENT);
	assert_int_equal(got.ts_ms, 5000);
	assert_int_equal(got.payload_len, sizeof(pb1));
	store_msg_release(&got);
	/* A bounded outbox says there is more. */
	assert_int_equal(store_msg_outbox(s, 1, &p), 0);
	assert_int_equal(p.n, 1);
	assert_true(p.more);
	store_msg_page_free(&p);
	store_close(s);
	rmtree(dir);
	free(dir);
}

static void
test_store_msg_mark__moves_states_only_forward(void **state)
{
	static const uint8_t	 pb[] = { 1, 2, 3 };
	struct store_msg_new	 m = out_msg(BOB, "3EB0F1", 1000, "x", pb, 3);
	struct store_msg_new	 in = in_msg(BOB, "3EB0F2", "", 1001, "y");
	struct store		*s = open_mem();

	(void)state;
	assert_int_equal(store_msg_insert_outgoing(s, &m, NULL), 0);
	assert_int_equal(store_msg_mark_sent(s, BOB, "3EB0F1", 0), 1);
	assert_int_equal(store_msg_mark_sent(s, BOB, "3EB0F1", 0), 0);
	assert_int_equal(store_msg_mark(s, BOB, true, "3EB0F1",
	    STORE_MSG_READ), 1);
	/* A late delivery receipt and a late ack change nothing. */
	assert_int_equal(store_msg_mark(s, BOB, true, "3EB0F1",
	    STORE_MSG_DELIVERED), 0);
	assert_int_equal(store_msg_mark_failed(s, BOB, "3EB0F1"), 0);
	assert_int_equal(state_of(s, BOB, true, "3EB0F1"), STORE_MSG_READ);
	assert_int_equal(store_msg_mark(s, BOB, true, "3EB0F1",
	    STORE_MSG_PLAYED), 1);
	assert_int_equal(store_msg_mark(s, BOB, true, "3EB0F1",
	    STORE_MSG_READ), 0);
	assert_int_equal(state_of(s, BOB, true, "3EB0F1"), STORE_MSG_PLAYED);
	/* Only receipt states are accepted; unknown ids change nothing. */
	assert_int_equal(store_msg_mark(s, BOB, true, "3EB0F1",
	    STORE_MSG_QUEUED), -EINVAL);
	assert_int_equal(store_msg_mark(s, BOB, true, "nope",
	    STORE_MSG_READ), 0);
	/* An incoming message: received -> read, never "delivered". */
	assert_int_equal(store_msg_insert_incoming(s, &in, NULL), 0);
	assert_int_equal(store_msg_mark(s, BOB, false, "3EB0F2",
	    STORE_MSG_DELIVERED), 0);
	assert_int_equal(store_msg_mark(s, BOB, false, "3EB0F2",
	    STORE_MSG_READ), 1);
	assert_int_equal(state_of(s, BOB, false, "3EB0F2"), STORE_MSG_READ);
	store_close(s);
}

/* A group message's ticks wait for every member it went to. */
static void
test_store_msg_member_receipt__moves_a_group_message_when_every_member_is_there(
    void **state)
{
	struct store		*s = open_mem();
	const uint8_t		 pl[] = "pb:x";
	struct store_msg_new	 g = out_msg(GROUP, "G1", 1000, "hello all", pl,
	    sizeof(pl));
	struct store_msg_new	 o = out_msg(GROUP, "G0", 900, "old", pl,
	    sizeof(pl));

	(void)state;
	assert_int_equal(store_msg_insert_outgoing(s, &o, NULL), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &g, NULL), 0);
	assert_int_equal(store_msg_recipients(s, GROUP, "G1", 3), 1);
	assert_int_equal(store_msg_recipients(s, GROUP, "NOPE", 3), 0);
	assert_int_equal(store_msg_mark_sent(s, GROUP, "G1", 1100), 1);
	/* two of three delivered: one tick still */
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", ALICE,
	    STORE_MSG_DELIVERED), 0);
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", ALICE,
	    STORE_MSG_DELIVERED), 0);		/* the same member twice */
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", BOB,
	    STORE_MSG_READ), 0);		/* read counts as delivered */
	assert_int_equal(state_of(s, GROUP, true, "G1"), STORE_MSG_SENT);
	/* the third: delivered to all */
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", CAROL,
	    STORE_MSG_DELIVERED), STORE_MSG_DELIVERED);
	assert_int_equal(state_of(s, GROUP, true, "G1"), STORE_MSG_DELIVERED);
	/* read by two, then played by the third: read by all */
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", ALICE,
	    STORE_MSG_READ), 0);
	assert_int_equal(state_of(s, GROUP, true, "G1"), STORE_MSG_DELIVERED);
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", CAROL,
	    STORE_MSG_PLAYED), STORE_MSG_READ);
	assert_int_equal(state_of(s, GROUP, true, "G1"), STORE_MSG_READ);
	/* never backwards; late receipts change nothing */
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", BOB,
	    STORE_MSG_DELIVERED), 0);
	assert_int_equal(state_of(s, GROUP, true, "G1"), STORE_MSG_READ);
	/* a message without a count (stored before migration 9) moves on
	 * the first receipt, as before; unknown ids and bad input too */
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G0", ALICE,
	    STORE_MSG_DELIVERED), STORE_MSG_DELIVERED);
	assert_int_equal(store_msg_member_receipt(s, GROUP, "NOPE", ALICE,
	    STORE_MSG_READ), 0);
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", ALICE,
	    STORE_MSG_SENT), -EINVAL);
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G1", "",
	    STORE_MSG_READ), -EINVAL);
	/* a FAILED message is never revived */
	g.id = "G2";
	assert_int_equal(store_msg_insert_outgoing(s, &g, NULL), 0);
	assert_int_equal(store_msg_recipients(s, GROUP, "G2", 1), 1);
	assert_int_equal(store_msg_mark_failed(s, GROUP, "G2"), 1);
	assert_int_equal(store_msg_member_receipt(s, GROUP, "G2", ALICE,
	    STORE_MSG_READ), 0);
	assert_int_equal(state_of(s, GROUP, true, "G2"), STORE_MSG_FAILED);
	store_close(s);
}

static void
test_store_msg_mark_failed__keeps_the_payload_for_a_retry__or_a_delete(
    void **state)
{
	static const uint8_t	 pb[] = { 9, 9 };
	struct store_msg_new	 a = out_msg(BOB, "3EB0X1", 1000, "a", pb, 2);
	struct store_msg_new	 b = out_msg(BOB, "3EB0X2", 2000, "b", pb, 2);
	struct store_chat_list	 l;
	struct store_msg_page	 p;
	struct store		*s = open_mem();

	(void)state;
	assert_int_equal(store_msg_insert_outgoing(s, &a, NULL), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &b, NULL), 0);
	assert_int_equal(store_msg_mark_failed(s, BOB, "3EB0X2"), 1);
	/* A receipt never revives a failed message. */
	assert_int_equal(store_msg_mark(s, BOB, true, "3EB0X2",
	    STORE_MSG_DELIVERED), 0);
	assert_int_equal(store_msg_outbox(s, 10, &p), 0);
	assert_int_equal(p.n, 1);
	store_msg_page_free(&p);
	assert_int_equal(store_msg_retry(s, BOB, "3EB0X2"), 1);
	assert_int_equal(store_msg_retry(s, BOB, "3EB0X2"), 0);
	assert_int_equal(store_msg_outbox(s, 10, &p), 0);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.msgs[1].id, "3EB0X2");
	assert_memory_equal(p.msgs[1].payload, pb, 2);
	store_msg_page_free(&p);
	/* Only a failed message can be deleted; the preview falls back. */
	assert_int_equal(store_msg_delete_failed(s, BOB, "3EB0X2"), 0);
	assert_int_equal(store_msg_mark_failed(s, BOB, "3EB0X2"), 1);
	assert_int_equal(store_msg_delete_failed(s, BOB, "3EB0X2"), 1);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].last_text, "a");
	assert_int_equal(l.chats[0].last_ms, 1000);
	store_chat_list_free(&l);
	store_close(s);
}

static void
test_store_msg_payload_prune__drops_only_acked_old_payloads(void **state)
{
	static const uint8_t	 pb[] = { 7 };
	struct store_msg_new	 a = out_msg(BOB, "3EB0Y1", 1000, "a", pb, 1);
	struct store_msg_new	 b = out_msg(BOB, "3EB0Y2", 1001, "b", pb, 1);
	struct store_msg_new	 c = out_msg(BOB, "3EB0Y3", 9000, "c", pb, 1);
	struct store_msg	 m;
	struct store		*s = open_mem();

	(void)state;
	assert_int_equal(store_msg_insert_outgoing(s, &a, NULL), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &b, NULL), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &c, NULL), 0);
	assert_int_equal(store_msg_mark_sent(s, BOB, "3EB0Y1", 0), 1);
	assert_int_equal(store_msg_mark_sent(s, BOB, "3EB0Y3", 0), 1);
	assert_int_equal(store_msg_payload_prune(s, 5000), 1);
	assert_int_equal(store_msg_get(s, BOB, true, "3EB0Y1", &m), 1);
	assert_null(m.payload);
	store_msg_release(&m);
	assert_int_equal(store_msg_get(s, BOB, true, "3EB0Y2", &m), 1);
	assert_int_equal(m.payload_len, 1);	/* still queued */
	store_msg_release(&m);
	assert_int_equal(store_msg_get(s, BOB, true, "3EB0Y3", &m), 1);
	assert_int_equal(m.payload_len, 1);	/* too recent */
	store_msg_release(&m);
	store_close(s);
}

#define NPAGING	1000

/* Walk chat from the newest page back to the oldest with pages of size
 * max, writing rowids newest first into out.  Returns the count. */
static size_t
walk_back(struct store *s, const char *chat, size_t max, int64_t *out,
    size_t cap)
{
	struct store_msg_page	 p;
	size_t			 n = 0, i;
	bool			 more;

	assert_int_equal(store_msg_page_newest(s, chat, max, &p), 0);
	for (;;) {
		int64_t		 ts, rowid;

		assert_true(p.n <= max);
		for (i = p.n; i > 0; i--) {
			assert_true(n < cap);
			out[n++] = p.msgs[i - 1].rowid;
		}
		more = p.more;
		if (p.n == 0 || !more) {
			store_msg_page_free(&p);
			break;
		}
		ts = p.msgs[0].ts_ms;
		rowid = p.msgs[0].rowid;
		store_msg_page_free(&p);
		assert_int_equal(store_msg_page_before(s, chat, ts, rowid, max,
		    &p), 0);
	}
	return n;
}

static void
test_store_msg_page__visits_every_message_once_in_order__among_equal_times(
    void **state)
{
	static int64_t		 back[NPAGING + 1], fwd[NPAGING + 1];
	struct store		*s = open_mem();
	struct store_msg_page	 p;
	size_t			 i, j, n, nf = 0;
	int64_t			 ts, rowid, prev_ts = INT64_MIN, prev_rowid = 0;
	char			 id[32];

	(void)state;
	/* Times in runs of 7 equal values, stored out of time order, and
	 * another chat's messages in between. */
	for (i = 0; i < NPAGING; i++) {
		size_t			 k = (i * 389) % NPAGING;
		struct store_msg_new	 m;

		snprintf(id, sizeof(id), "3EB0%06zu", k);
		m = in_msg(ALICE, id, "", 1000 + (int64_t)(k / 7), "m");
		assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
		if (i % 10 == 0) {
			m.chat = BOB;
			assert_int_equal(store_msg_insert_incoming(s, &m, NULL),
			    0);
		}
	}
	n = walk_back(s, ALICE, 13, back, NPAGING + 1);
	assert_int_equal(n, NPAGING);
	/* Forward from before the oldest row. */
	ts = INT64_MIN;
	rowid = 0;
	for (;;) {
		assert_int_equal(store_msg_page_after(s, ALICE, ts, rowid, 17,
		    &p), 0);
		for (i = 0; i < p.n; i++) {
			assert_string_equal(p.msgs[i].chat, ALICE);
			/* strictly ascending (ts_ms, rowid) */
			assert_true(p.msgs[i].ts_ms > prev_ts ||
			    (p.msgs[i].ts_ms == prev_ts &&
			    p.msgs[i].rowid > prev_rowid));
			prev_ts = p.msgs[i].ts_ms;
			prev_rowid = p.msgs[i].rowid;
			assert_true(nf < NPAGING);
			fwd[nf++] = p.msgs[i].rowid;
		}
		if (p.n == 0 || !p.more) {
			store_msg_page_free(&p);
			break;
		}
		ts = p.msgs[p.n - 1].ts_ms;
		rowid = p.msgs[p.n - 1].rowid;
		store_msg_page_free(&p);
	}
	assert_int_equal(nf, NPAGING);
	/* The oldest page (Home) is the walk forward's first rows, more
	 * after it; as big as the chat, nothing more. */
	assert_int_equal(store_msg_page_oldest(s, ALICE, 17, &p), 0);
	assert_int_equal(p.n, 17);
	assert_true(p.more);
	for (i = 0; i < p.n; i++) {
		assert_string_equal(p.msgs[i].chat, ALICE);
		assert_int_equal(p.msgs[i].rowid, fwd[i]);
	}
	store_msg_page_free(&p);
	assert_int_equal(store_msg_page_oldest(s, BOB, STORE_MSG_PAGE_MAX, &p),
	    0);
	assert_int_equal(p.n, NPAGING / 10);
	assert_false(p.more);
	store_msg_page_free(&p);
	assert_int_equal(store_msg_page_oldest(s, ALICE, 0, &p), -EINVAL);
	/* The walk back is the walk forward reversed: each row once. */
	for (i = 0; i < NPAGING; i++)
		assert_int_equal(back[i], fwd[NPAGING - 1 - i]);
	for (i = 1; i < NPAGING; i++)
		for (j = 0; j < i; j += 97)
			assert_true(fwd[i] != fwd[j]);
	/* Limits. */
	assert_int_equal(store_msg_page_newest(s, ALICE, 0, &p), -EINVAL);
	assert_int_equal(store_msg_page_newest(s, ALICE,
	    STORE_MSG_PAGE_MAX + 1, &p), -EINVAL);
	store_close(s);
}

static void
test_store_msg_first_unread__finds_the_oldest_of_the_last_n__incoming_not_notices(
    void **state)
{
	static const uint8_t	 pb[] = { 1 };
	struct store		*s = open_mem();
	struct store_msg_new	 m;
	int64_t			 ts = 0, rowid = 0, r[6];
	char			 id[8];
	int			 i;

	(void)state;
	assert_int_equal(store_msg_first_unread(s, ALICE, 1, &ts, &rowid), 0);
	/* in 1000, in 2000, ours 3000, in 4000, notice 5000, in 6000 */
	for (i = 0; i < 6; i++) {
		snprintf(id, sizeof(id), "U%d", i);
		m = i == 2 ? out_msg(ALICE, id, 3000, "mine", pb, 1) :
		    in_msg(ALICE, id, "", (i + 1) * 1000, "in");
		if (i == 4)
			m.kind = STORE_MSG_NOTICE;
		if (i == 2)
			assert_int_equal(store_msg_insert_outgoing(s, &m, &r[i]),
			    0);
		else
			assert_int_equal(store_msg_insert_incoming(s, &m, &r[i]),
			    0);
	}
	assert_int_equal(store_msg_first_unread(s, ALICE, 1, &ts, &rowid), 1);
	assert_int_equal(rowid, r[5]);
	assert_int_equal(ts, 6000);
	/* ours and the notice are not counted */
	assert_int_equal(store_msg_first_unread(s, ALICE, 2, &ts, &rowid), 1);
	assert_int_equal(rowid, r[3]);
	assert_int_equal(store_msg_first_unread(s, ALICE, 3, &ts, &rowid), 1);
	assert_int_equal(rowid, r[1]);
	assert_int_equal(ts, 2000);
	/* more than there are: the oldest incoming */
	assert_int_equal(store_msg_first_unread(s, ALICE, 99, &ts, &rowid), 1);
	assert_int_equal(rowid, r[0]);
	assert_int_equal(store_msg_first_unread(s, BOB, 1, &ts, &rowid), 0);
	assert_int_equal(store_msg_first_unread(s, ALICE, 0, &ts, &rowid),
	    -EINVAL);
	store_close(s);
}

static void
test_store_msg_page_from__seeks_the_first_row__at_or_after_a_time(
    void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 m;
	struct store_msg_page	 p;
	int64_t			 r[10];
	char			 id[8];
	int			 i;

	(void)state;
	/* one a day, from day 1 (86400000 ms) to day 10 */
	for (i = 0; i < 10; i++) {
		snprintf(id, sizeof(id), "D%d", i);
		m = in_msg(ALICE, id, "", (int64_t)(i + 1) * 86400000, "day");
		assert_int_equal(store_msg_insert_incoming(s, &m, &r[i]), 0);
	}
	/* the start of day 4: day 4's row first, three of them, more */
	assert_int_equal(store_msg_page_from(s, ALICE, 4LL * 86400000, 3, &p),
	    0);
	assert_int_equal(p.n, 3);
	assert_true(p.more);
	assert_int_equal(p.msgs[0].rowid, r[3]);
	assert_int_equal(p.msgs[2].rowid, r[5]);
	store_msg_page_free(&p);
	/* between two rows: the next one */
	assert_int_equal(store_msg_page_from(s, ALICE, 4LL * 86400000 + 1, 50,
	    &p), 0);
	assert_int_equal(p.n, 6);
	assert_false(p.more);
	assert_int_equal(p.msgs[0].rowid, r[4]);
	assert_int_equal(p.msgs[5].rowid, r[9]);
	store_msg_page_free(&p);
	/* before the first: from the start; after the last: none */
	assert_int_equal(store_msg_page_from(s, ALICE, 0, 2, &p), 0);
	assert_int_equal(p.msgs[0].rowid, r[0]);
	store_msg_page_free(&p);
	assert_int_equal(store_msg_page_from(s, ALICE, 11LL * 86400000, 5, &p),
	    0);
	assert_int_equal(p.n, 0);
	assert_false(p.more);
	store_msg_page_free(&p);
	assert_int_equal(store_msg_page_from(s, ALICE, 0, 0, &p), -EINVAL);
	store_close(s);
}

static void
test_store_chat_list__orders_by_activity__with_the_newest_message(
    void **state)
{
	static const uint8_t	 pb[] = { 1 };
	struct store		*s = open_mem();
	struct store_msg_new	 a = in_msg(ALICE, "A1", "", 1000, "from alice");
	struct store_msg_new	 b = in_msg(BOB, "B1", "", 2000, "from bob");
	struct store_msg_new	 g = in_msg(GROUP, "G1", CAROL, 3000, "group");
	struct store_msg_new	 old = in_msg(BOB, "B0", "", 500, "older");
	struct store_msg_new	 mine = out_msg(ALICE, "A2", 4000, "mine", pb,
				    1);
	struct store_chat_list	 l;

	(void)state;
	assert_int_equal(store_msg_insert_incoming(s, &a, NULL), 0);
	assert_int_equal(store_msg_insert_incoming(s, &b, NULL), 0);
	assert_int_equal(store_msg_insert_incoming(s, &g, NULL), 0);
	/* An older message (history) does not move its chat or preview. */
	assert_int_equal(store_msg_insert_incoming(s, &old, NULL), 0);
	assert_int_equal(store_contact_set_push_name(s, BOB, "Bob"), 0);
	assert_int_equal(store_chat_set_name(s, GROUP, "Climbing"), 0);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 3);
	assert_string_equal(l.chats[0].jid, GROUP);
	assert_string_equal(l.chats[0].name, "Climbing");
	assert_string_equal(l.chats[0].last_sender, CAROL);
	assert_string_equal(l.chats[1].jid, BOB);
	assert_string_equal(l.chats[1].push_name, "Bob");
	assert_string_equal(l.chats[1].last_text, "from bob");
	assert_int_equal(l.chats[1].unread, 2);
	assert_string_equal(l.chats[2].jid, ALICE);
	store_chat_list_free(&l);

	/* Our message moves Alice to the top; an edit shows in the
	 * preview; a revoke shows as deleted. */
	assert_int_equal(store_msg_insert_outgoing(s, &mine, NULL), 0);
	assert_int_equal(store_msg_edit(s, ALICE, true, "A2", "mine, fixed",
	    12, 4100), 1);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_string_equal(l.chats[0].jid, ALICE);
	assert_string_equal(l.chats[0].last_text, "mine, fixed");
	assert_true(l.chats[0].last_from_me);
	assert_int_equal(l.chats[0].last_state, STORE_MSG_QUEUED);
	store_chat_list_free(&l);
	/* The preview follows the ack (with the server's time) and the
	 * receipts of the newest message. */
	assert_int_equal(store_msg_mark_sent(s, ALICE, "A2", 4200), 1);
	assert_int_equal(store_msg_mark(s, ALICE, true, "A2",
	    STORE_MSG_READ), 1);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_string_equal(l.chats[0].jid, ALICE);
	assert_int_equal(l.chats[0].last_ms, 4200);
	assert_int_equal(l.chats[0].last_state, STORE_MSG_READ);
	store_chat_list_free(&l);
	assert_int_equal(store_msg_revoke(s, GROUP, false, "G1"), 1);
	/* Pinned first; archived chats listed apart; a bounded list. */
	assert_int_equal(store_chat_set_flags(s, GROUP, 0, 77, false), 0);
	assert_int_equal(store_chat_set_flags(s, BOB, -1, 0, true), 0);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.chats[0].jid, GROUP);
	assert_int_equal(l.chats[0].pinned, 77);
	assert_true(l.chats[0].last_deleted);
	assert_string_equal(l.chats[0].last_text, "");
	assert_string_equal(l.chats[1].jid, ALICE);
	store_chat_list_free(&l);
	assert_int_equal(store_chat_list(s, true, 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].jid, BOB);
	assert_int_equal(l.chats[0].muted_until, -1);
	store_chat_list_free(&l);
	assert_int_equal(store_chat_list(s, false, 1, &l), 0);
	assert_int_equal(l.n, 1);
	assert_true(l.more);
	store_chat_list_free(&l);
	store_close(s);
}

static void
test_store_msg_edit__keeps_the_newest_edit__and_a_revoke_clears_the_text(
    void **state)
{
	static const char	 nul_text[] = { 'a', '\0', 'b' };
	struct store		*s = open_mem();
	struct store_msg_new	 m = in_msg(ALICE, "E1", "", 1000, "orig");
	struct store_msg	 got;

	(void)state;
	m.quoted_id = "E0";
	m.quoted_text = "quoted";
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
	assert_int_equal(store_msg_edit(s, ALICE, false, "E1", nul_text, 3,
	    2000), 1);
	assert_int_equal(store_msg_edit(s, ALICE, false, "E1", "stale", 5,
	    1500), 0);
	assert_int_equal(store_msg_edit(s, ALICE, true, "E1", "wrong", 5,
	    3000), 0);
	assert_int_equal(store_msg_get(s, ALICE, false, "E1", &got), 1);
	assert_int_equal(got.text_len, 3);
	assert_memory_equal(got.text, nul_text, 3);
	assert_int_equal(got.edited_ms, 2000);
	assert_string_equal(got.quoted_text, "quoted");
	store_msg_release(&got);
	assert_int_equal(store_msg_revoke(s, ALICE, false, "E1"), 1);
	assert_int_equal(store_msg_revoke(s, ALICE, false, "E1"), 0);
	assert_int_equal(store_msg_edit(s, ALICE, false, "E1", "late", 4,
	    9000), 0);
	assert_int_equal(store_msg_get(s, ALICE, false, "E1", &got), 1);
	assert_true(got.deleted);
	assert_int_equal(got.text_len, 0);
	assert_string_equal(got.text, "");
	assert_string_equal(got.quoted_text, "");
	store_msg_release(&got);
	assert_int_equal(store_msg_revoke(s, ALICE, false, "none"), 0);
	store_close(s);
}

/* The reactions on the only message of chat, via a page. */
static void
reactions_of(struct store *s, const char *chat, struct store_msg_page *p)
{
	assert_int_equal(store_msg_page_newest(s, chat, 10, p), 0);
	assert_int_equal(p->n, 1);
}

static void
test_store_reaction_set__keeps_one_per_sender__and_empty_removes(
    void **state)
{
	struct store		*s = open_mem();
	struct store_msg_new	 m = in_msg(GROUP, "R1", ALICE, 1000, "post");
	struct store_msg_page	 p;

	(void)state;
	/* A reaction may arrive before its target. */
	assert_int_equal(store_reaction_set(s, GROUP, "R1", BOB,
	    "\xf0\x9f\x91\x8d", 1100), 1);
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
	assert_int_equal(store_reaction_set(s, GROUP, "R1", "",
	    "\xe2\x9d\xa4", 1200), 1);
	assert_int_equal(store_reaction_set(s, GROUP, "R1", BOB,
	    "\xf0\x9f\x98\x82", 1300), 1);
	/* An older reaction arriving late loses. */
	assert_int_equal(store_reaction_set(s, GROUP, "R1", BOB,
	    "\xf0\x9f\x98\xae", 1250), 0);
	reactions_of(s, GROUP, &p);
	assert_int_equal(p.msgs[0].nreactions, 2);
	assert_string_equal(p.msgs[0].reactions[0].sender, "");
	assert_string_equal(p.msgs[0].reactions[0].emoji, "\xe2\x9d\xa4");
	assert_string_equal(p.msgs[0].reactions[1].sender, BOB);
	assert_string_equal(p.msgs[0].reactions[1].emoji, "\xf0\x9f\x98\x82");
	store_msg_page_free(&p);
	/* "" removes, and stays removed against a late older one. */
	assert_int_equal(store_reaction_set(s, GROUP, "R1", BOB, "", 1400), 1);
	assert_int_equal(store_reaction_set(s, GROUP, "R1", BOB,
	    "\xf0\x9f\x98\x82", 1300), 0);
	reactions_of(s, GROUP, &p);
	assert_int_equal(p.msgs[0].nreactions, 1);
	assert_string_equal(p.msgs[0].reactions[0].sender, "");
	store_msg_page_free(&p);
	assert_int_equal(store_reaction_set(s, GROUP, "R1", NULL, "x", 1),
	    -EINVAL);
	store_close(s);
}

static void
test_store_chat_mark_read__returns_exactly_the_unread_received_ids(
    void **state)
{
	static const uint8_t	 pb[] = { 1 };
	struct store		*s = open_mem();
	struct store_msg_ref	*ids = NULL;
	struct store_chat_list	 l;
	size_t			 n = 0, i;
	char			 id[16];

	(void)state;
	for (i = 0; i < 5; i++) {
		struct store_msg_new	 m;

		snprintf(id, sizeof(id), "U%zu", i);
		m = in_msg(GROUP, id, i % 2 ? ALICE : BOB, 1000 + (int64_t)i,
		    "u");
		assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
	}
	{
		struct store_msg_new	 mine = out_msg(GROUP, "M1", 1010, "m",
					    pb, 1);
		struct store_msg_new	 hist = in_msg(GROUP, "H1", ALICE, 900,
					    "h");
		struct store_msg_new	 note = in_msg(GROUP, "N1", "", 1020,
					    "security code changed");
		struct store_msg_new	 other = in_msg(BOB, "O1", "", 1000,
					    "o");

		hist.state = STORE_MSG_READ;
		note.kind = STORE_MSG_NOTICE;
		assert_int_equal(store_msg_insert_outgoing(s, &mine, NULL), 0);
		assert_int_equal(store_msg_insert_incoming(s, &hist, NULL), 0);
		assert_int_equal(store_msg_insert_incoming(s, &note, NULL), 0);
		assert_int_equal(store_msg_insert_incoming(s, &other, NULL), 0);
	}
	assert_int_equal(unread_of(s, GROUP), 5);
	assert_int_equal(store_chat_mark_read(s, GROUP, 3, &ids, &n), 1);
	assert_int_equal(n, 3);
	assert_string_equal(ids[0].id, "U0");
	assert_string_equal(ids[0].sender, BOB);
	assert_string_equal(ids[1].id, "U1");
	assert_string_equal(ids[1].sender, ALICE);
	assert_string_equal(ids[2].id, "U2");
	store_msg_refs_free(ids, n);
	assert_int_equal(unread_of(s, GROUP), 0);
	assert_int_equal(store_chat_mark_read(s, GROUP, 3, &ids, &n), 0);
	assert_int_equal(n, 2);
	assert_string_equal(ids[0].id, "U3");
	assert_string_equal(ids[1].id, "U4");
	store_msg_refs_free(ids, n);
	assert_int_equal(store_chat_mark_read(s, GROUP, 3, &ids, &n), 0);
	assert_int_equal(n, 0);
	store_msg_refs_free(ids, n);
	assert_int_equal(state_of(s, GROUP, false, "U4"), STORE_MSG_READ);
	/* Another chat is untouched; last_read_rowid is the newest row. */
	assert_int_equal(state_of(s, BOB, false, "O1"), STORE_MSG_RECEIVED);
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	i = (size_t)chat_index(&l, GROUP);
	assert_int_equal(l.chats[i].last_read_rowid, l.chats[i].last_rowid);
	assert_string_equal(l.chats[i].last_text, "security code changed");
	i = (size_t)chat_index(&l, BOB);
	assert_int_equal(l.chats[i].unread, 1);
	store_chat_list_free(&l);
	store_close(s);
}

static void
test_store_contact__keeps_push_name_and_name_apart(void **state)
{
	struct store		*s = open_mem();
	struct store_contact	 c;

	(void)state;
	assert_int_equal(store_contact_get(s, ALICE, &c), 0);
	assert_int_equal(store_contact_set_push_name(s, ALICE, "Ali"), 0);
	assert_int_equal(store_contact_set_name(s, ALICE, "Alice Liddell"), 0);
	assert_int_equal(store_contact_set_push_name(s, ALICE,
	    "Ali \xe2\x80\xae evil"), 0);
	assert_int_equal(store_contact_get(s, ALICE, &c), 1);
	/* Stored as given: sanitizing is the UI's job. */
	assert_string_equal(c.push_name, "Ali \xe2\x80\xae evil");
	assert_string_equal(c.name, "Alice Liddell");
	store_close(s);
}

static void
test_store_lid__maps_both_ways__one_to_one(void **state)
{
	struct store	*s = open_mem();
	char		 out[STORE_JID_MAX + 1];

	(void)state;
	assert_int_equal(store_lid_get_lid(s, "15550001@s.whatsapp.net", out),
	    0);
	assert_int_equal(store_lid_put(s, "15550001@s.whatsapp.net",
	    "200001@lid"), 1);
	assert_int_equal(store_lid_put(s, "15550001@s.whatsapp.net",
	    "200001@lid"), 0);
	assert_int_equal(store_lid_get_lid(s, "15550001@s.whatsapp.net", out),
	    1);
	assert_string_equal(out, "200001@lid");
	assert_int_equal(store_lid_get_pn(s, "200001@lid", out), 1);
	assert_string_equal(out, "15550001@s.whatsapp.net");
	/* The LID moves to another number: the old number loses it. */
	assert_int_equal(store_lid_put(s, "15550002@s.whatsapp.net",
	    "200001@lid"), 1);
	assert_int_equal(store_lid_get_lid(s, "15550001@s.whatsapp.net", out),
	    0);
	assert_int_equal(store_lid_get_pn(s, "200001@lid", out), 1);
	assert_string_equal(out, "15550002@s.whatsapp.net");
	store_close(s);
}

static void
test_store_devlist__round_trips_ids_key_indexes_and_hosted(void **state)
{
	static const struct store_devlist_entry devs[] = {
		{ 0, 0, false }, { 7, 2, false }, { 99, 3, true },
	};
	struct store_devlist_entry	 out[4];
	struct store			*s = open_mem();
	int64_t				 t = 0;

	(void)state;
	assert_int_equal(store_devlist_get(s, ALICE, out, 4, &t), -ENOENT);
	assert_int_equal(store_devlist_put(s, ALICE, devs, 3, 123456), 0);
	memset(out, 0, sizeof(out));
	assert_int_equal(store_devlist_get(s, ALICE, out, 4, &t), 3);
	assert_int_equal(t, 123456);
	assert_int_equal(out[1].id, 7);
	assert_int_equal(out[1].key_index, 2);
	assert_false(out[1].hosted);
	assert_int_equal(out[2].id, 99);
	assert_int_equal(out[2].key_index, 3);
	assert_true(out[2].hosted);
	/* Only max written, the count still told. */
	assert_int_equal(store_devlist_get(s, ALICE, out, 1, NULL), 3);
	/* An empty list is cached, unlike none. */
	assert_int_equal(store_devlist_put(s, BOB, NULL, 0, 5), 0);
	assert_int_equal(store_devlist_get(s, BOB, out, 4, NULL), 0);
	assert_int_equal(store_devlist_forget(s, ALICE), 1);
	assert_int_equal(store_devlist_forget(s, ALICE), 0);
	assert_int_equal(store_devlist_get(s, ALICE, out, 4, NULL), -ENOENT);
	assert_int_equal(store_devlist_put(s, ALICE, devs,
	    STORE_DEVLIST_MAX + 1, 0), -EINVAL);
	store_close(s);
}

static void
test_store_msg__refuses_oversized_fields(void **state)
{
	struct store		*s = open_mem();
	char			 jid[STORE_JID_MAX + 2];
	struct store_msg_new	 m = in_msg(ALICE, "L1", "", 1, "x");
	struct store_msg_page	 p;

	(void)state;
	memset(jid, 'a', sizeof(jid) - 1);
	jid[sizeof(jid) - 1] = '\0';
	m.chat = jid;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), -EINVAL);
	m.chat = ALICE;
	m.text_len = STORE_MSG_TEXT_MAX + 1;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), -EINVAL);
	m.text_len = 1;
	m.id = "";
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), -EINVAL);
	m.id = "L1";
	m.state = STORE_MSG_QUEUED;	/* not for others' messages */
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), -EINVAL);
	/* Outgoing needs a payload. */
	m.from_me = true;
	assert_int_equal(store_msg_insert_outgoing(s, &m, NULL), -EINVAL);
	assert_int_equal(store_lid_put(s, jid, "1@lid"), -EINVAL);
	assert_int_equal(store_msg_page_newest(s, ALICE, 10, &p), 0);
	assert_int_equal(p.n, 0);
	store_msg_page_free(&p);
	store_close(s);
}

static void
test_store_open__brings_a_schema_2_database_to_the_newest__and_reopens_idempotently(
    void **state)
{
	char			*dir = tmpdir(), path[300];
	struct store		*s = NULL;
	struct store_prekey	 k;
	struct store_msg_new	 m = in_msg(ALICE, "V1", "", 1, "kept");
	sqlite3			*db;

	(void)state;
	snprintf(path, sizeof(path), "%s/wachat.db", dir);
	/* A schema-2 database holding a prekey: made by this code, then
	 * the tables of migrations 3 to 5 dropped and the version set back. */
	assert_int_equal(store_open(dir, &s), 0);
	memset(&k, 0x11, sizeof(k));
	k.id = 1;
	assert_int_equal(store_prekey_put(s, &k, 1), 0);
	store_close(s);
	s = NULL;
	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(store_tok_register(db), 0);	/* message_fts's */
	assert_int_equal(sqlite3_exec(db, UNDO_14_TABLES
	    "DROP TABLE chat; DROP TABLE message;"
	    "DROP TABLE reaction; DROP TABLE contact; DROP TABLE lid_map;"
	    "DROP TABLE device_list; DROP TABLE grp; DROP TABLE grp_member;"
	    "DROP TABLE sender_key_recipient; DROP TABLE message_fts;"
	    "DROP TABLE fts_pending; DROP TABLE hist_queue;"
	    "DROP TABLE member_receipt;"
	    "ALTER TABLE device DROP COLUMN unconfirmed;"
	    "DROP TABLE privtok; DROP TABLE privtok_salt;"
	    "DELETE FROM counter WHERE name = 'schema_version';"
	    "PRAGMA user_version = 2", NULL, NULL,
	    NULL), SQLITE_OK);
	sqlite3_close(db);

	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(STORE_SCHEMA_VERSION, 20);
	assert_int_equal(store_prekey_count(s), 1);
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
	store_close(s);
	s = NULL;
	/* Reopening runs no migration again and keeps every row. */
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_schema_version(s), STORE_SCHEMA_VERSION);
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 1);
	store_close(s);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM message"), 1);
	assert_int_equal(count_rows(path, "SELECT count(*) FROM sqlite_master"
	    " WHERE name = 'message_page'"), 1);
	rmtree(dir);
	free(dir);
}

static void
test_store_group__keeps_members_subject_and_sender_key_recipients(void **state)
{
	char			*dir = tmpdir();
	struct store		*s = NULL;
	char			 m1[] = "111@lid", a1[] = "4911@s.whatsapp.net";
	char			 m2[] = "222@lid", a2[] = "";
	char			 m3[] = "333@lid", a3[] = "4933@s.whatsapp.net";
	char			 gj[] = "123-456@g.us", subj[] = "Hikers";
	char			 empty[] = "", mode[] = "lid";
	struct store_group_member mem[3] = {
		{ m1, a1, 0 }, { m2, a2, 2 }, { m3, a3, 1 },
	};
	struct store_group	 g = { gj, subj, empty, mode, m2, 1000, false,
				    mem, 3 }, out;
	struct store_chat_list	 cp;

	(void)state;
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_group_get(s, g.jid, &out), 0);
	assert_int_equal(store_group_put(s, &g), 0);
	assert_int_equal(store_group_get(s, g.jid, &out), 1);
	assert_string_equal(out.subject, "Hikers");
	assert_string_equal(out.mode, "lid");
	assert_int_equal(out.n, 3);
	/* admins first: the creator, then the admin, then by JID */
	assert_string_equal(out.members[0].jid, "222@lid");
	assert_int_equal(out.members[0].admin, 2);
	assert_string_equal(out.members[1].jid, "333@lid");
	assert_string_equal(out.members[2].alt, "4911@s.whatsapp.net");
	store_group_release(&out);
	/* the chat list names the group by its subject */
	assert_int_equal(store_group_set_subject(s, g.jid, "Hikers 2026"), 1);
	memset(&cp, 0, sizeof(cp));
	assert_int_equal(store_chat_list(s, false, 10, &cp), 0);
	assert_int_equal(cp.n, 1);
	assert_string_equal(cp.chats[0].name, "Hikers 2026");
	store_chat_list_free(&cp);
	/* removed by the PN alternate; added back; left */
	assert_int_equal(store_group_member_remove(s, g.jid,
	    "4911@s.whatsapp.net"), 1);
	assert_int_equal(store_group_member_remove(s, g.jid, "999@lid"), 0);
	assert_int_equal(store_group_member_put(s, g.jid, "444@lid", NULL, 0),
	    0);
	assert_int_equal(store_group_set_left(s, g.jid, true), 1);
	assert_int_equal(store_group_get(s, g.jid, &out), 1);
	assert_int_equal(out.n, 3);
	assert_true(out.left);
	assert_string_equal(out.members[2].jid, "444@lid");
	store_group_release(&out);
	/* who holds our sender key */
	assert_int_equal(store_skr_has(s, g.jid, "111:3@lid"), 0);
	assert_int_equal(store_skr_put(s, g.jid, "111:3@lid"), 0);
	assert_int_equal(store_skr_put(s, g.jid, "333@lid"), 0);
	assert_int_equal(store_skr_has(s, g.jid, "111:3@lid"), 1);
	assert_int_equal(store_skr_forget(s, g.jid, "111:3@lid"), 1);
	assert_int_equal(store_skr_has(s, g.jid, "111:3@lid"), 0);
	assert_int_equal(store_skr_has(s, g.jid, "333@lid"), 1);
	assert_int_equal(store_skr_forget(s, g.jid, NULL), 1);
	assert_int_equal(store_skr_has(s, g.jid, "333@lid"), 0);
	/* the history queue: next, imported (receipt due), done */
	{
		static const uint8_t	 n1[] = { 1, 2, 3 }, n2[] = { 4 };
		char			 id[STORE_MSG_ID_MAX + 1];
		struct buf		 b = BUF_INIT;

		assert_int_equal(store_histq_put(s, "N1", n1, 3, 1), 0);
		assert_int_equal(store_histq_put(s, "N2", n2, 1, 2), 0);
		assert_int_equal(store_histq_put(s, "N1", n2, 1, 3), 0);
		assert_int_equal(store_histq_next(s, id, &b), 1);
		assert_string_equal(id, "N1");
		assert_int_equal(b.len, 3);
		assert_int_equal(store_histq_imported(s, "N1"), 1);
		b.len = 0;
		assert_int_equal(store_histq_next(s, id, &b), 1);
		assert_string_equal(id, "N2");
		b.len = 0;
		assert_int_equal(store_histq_unreceipted(s, &b), 1);
		assert_string_equal((const char *)b.p, "N1");
		assert_int_equal(store_histq_done(s, "N1"), 1);
		assert_int_equal(store_histq_done(s, "N1"), 0);
		b.len = 0;
		assert_int_equal(store_histq_unreceipted(s, &b), 0);
		buf_release(&b);
	}
	/* survives a reopen */
	store_close(s);
	s = NULL;
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_group_get(s, g.jid, &out), 1);
	assert_string_equal(out.subject, "Hikers 2026");
	store_group_release(&out);
	store_close(s);
	rmtree(dir);
	free(dir);
}

static void
test_store_msg_hidden__a_sent_reaction_is_in_the_outbox_but_never_shown(
    void **state)
{
	char			*dir = tmpdir();
	struct store		*s = NULL;
	static const uint8_t	 pb[] = { 0xF2, 0x02, 0x01, 0x00 };
	struct store_msg_new	 t = out_msg(ALICE, "T1", 1000, "hello", pb, 4);
	struct store_msg_new	 r = out_msg(ALICE, "R1", 2000, "👍", pb, 4);
	struct store_msg_page	 p;
	struct store_chat_list	 l;

	(void)state;
	r.kind = STORE_MSG_HIDDEN;
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &t, NULL), 0);
	assert_int_equal(store_msg_insert_outgoing(s, &r, NULL), 0);
	/* the outbox sends both */
	memset(&p, 0, sizeof(p));
	assert_int_equal(store_msg_outbox(s, 10, &p), 0);
	assert_int_equal(p.n, 2);
	assert_int_equal(p.msgs[1].kind, STORE_MSG_HIDDEN);
	store_msg_page_free(&p);
	/* the chat shows the text alone, and its preview is the text */
	assert_int_equal(store_msg_page_newest(s, ALICE, 10, &p), 0);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.msgs[0].id, "T1");
	store_msg_page_free(&p);
	memset(&l, 0, sizeof(l));
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_string_equal(l.chats[0].last_text, "hello");
	assert_int_equal(l.chats[0].last_ms, 1000);
	store_chat_list_free(&l);
	/* acked: the text moves to sent; the reaction stays hidden and
	 * the chat's order is unchanged */
	assert_int_equal(store_msg_mark_sent(s, ALICE, "T1", 1500), 1);
	assert_int_equal(state_of(s, ALICE, true, "T1"), STORE_MSG_SENT);
	assert_int_equal(store_msg_mark_sent(s, ALICE, "R1", 3000), 1);
	memset(&l, 0, sizeof(l));
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_string_equal(l.chats[0].last_text, "hello");
	store_chat_list_free(&l);
	store_close(s);
	rmtree(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_group__keeps_members_subject_and_sender_key_recipients),
		cmocka_unit_test(test_store_msg_hidden__a_sent_reaction_is_in_the_outbox_but_never_shown),
		cmocka_unit_test(test_store_msg_insert_incoming__stores_a_message_once__a_redelivery_is_a_duplicate),
		cmocka_unit_test(test_store_msg_insert_incoming__fills_a_placeholder_in_place),
		cmocka_unit_test(test_store_msg_outbox__survives_a_reopen_with_payload_and_state),
		cmocka_unit_test(test_store_msg_mark__moves_states_only_forward),
		cmocka_unit_test(test_store_msg_mark_failed__keeps_the_payload_for_a_retry__or_a_delete),
		cmocka_unit_test(test_store_msg_payload_prune__drops_only_acked_old_payloads),
		cmocka_unit_test(test_store_msg_page__visits_every_message_once_in_order__among_equal_times),
		cmocka_unit_test(test_store_msg_first_unread__finds_the_oldest_of_the_last_n__incoming_not_notices),
		cmocka_unit_test(test_store_msg_page_from__seeks_the_first_row__at_or_after_a_time),
		cmocka_unit_test(test_store_chat_list__orders_by_activity__with_the_newest_message),
		cmocka_unit_test(test_store_msg_edit__keeps_the_newest_edit__and_a_revoke_clears_the_text),
		cmocka_unit_test(test_store_reaction_set__keeps_one_per_sender__and_empty_removes),
		cmocka_unit_test(test_store_chat_mark_read__returns_exactly_the_unread_received_ids),
		cmocka_unit_test(test_store_contact__keeps_push_name_and_name_apart),
		cmocka_unit_test(test_store_lid__maps_both_ways__one_to_one),
		cmocka_unit_test(test_store_devlist__round_trips_ids_key_indexes_and_hosted),
		cmocka_unit_test(test_store_msg__refuses_oversized_fields),
		cmocka_unit_test(test_store_msg_member_receipt__moves_a_group_message_when_every_member_is_there),
		cmocka_unit_test(test_store_open__brings_a_schema_2_database_to_the_newest__and_reopens_idempotently),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
