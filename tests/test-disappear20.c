/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-disappear20.c -- disappearing messages (issue 20,
 * protocol-features.md 3.5): the store's timer and expiry (store/ephem.c,
 * migration 19: the trigger, store_expire_due() out of the rows, the
 * search index and the preview; rows whose time is up left out by the
 * readers before that; notices never expire; an older setting
 * does not undo a newer one), the Message codec (proto/msg-eph.c: the
 * EPHEMERAL_SETTING protocolMessage built and read, as Baileys wraps it
 * too; contextInfo.expiration read, and set on our text, media and
 * replies; a reaction left alone; hostile input refused) and the words
 * of the event lines (base/notice.c).
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/notice.h"
#include "proto/msg.h"
#include "tests/store-test.h"

#define BOB	"15550000003@s.whatsapp.net"

/* --- the store --- */

/* Insert a received text id at time ts_s (seconds) in BOB's chat. */
static void
put(struct store *s, const char *id, int64_t ts_s, const char *text,
    enum store_msg_kind kind)
{
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = BOB;
	m.id = id;
	m.sender = "";
	m.ts_ms = ts_s * 1000 + 250;
	m.kind = kind;
	m.text = text;
	m.text_len = strlen(text);
	m.state = STORE_MSG_RECEIVED;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
}

static int64_t
expiry(struct store *s, const char *id)
{
	sqlite3_stmt	*st;
	int64_t		 v = -1;

	assert_int_equal(sqlite3_prepare_v2(s->db, "SELECT expire_s FROM"
	    " message WHERE id = ?1", -1, &st, NULL), SQLITE_OK);
	sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void
test_store__timer_kept_and_rows_expire(void **state)
{
	struct store		*s = open_mem();
	struct store_expired	*v;
	struct store_chat_list	 l;
	struct store_msg_page	 pg;
	uint32_t		 secs;
	int64_t			 ts, next;
	size_t			 n;
	bool			 more;

	(void)state;
	put(s, "OLD", 1000, "before the timer papaya", STORE_MSG_TEXT);
	assert_int_equal(store_chat_ephem_set(s, BOB, 604800, 2000, true), 1);
	assert_int_equal(store_chat_ephem_set(s, BOB, 604800, 2500, true), 0);
	/* an older setting does not undo it; a newer one does */
	assert_int_equal(store_chat_ephem_set(s, BOB, 0, 1500, true), 0);
	assert_int_equal(store_chat_ephem(s, BOB, &secs, &ts), 0);
	assert_int_equal(secs, 604800);
	assert_int_equal(ts, 2000);
	assert_int_equal(store_chat_ephem_set(s, BOB, 60, 3000, true), 1);
	put(s, "NEW", 3100, "under the timer papaya", STORE_MSG_TEXT);
	put(s, "LINE", 3101, "a notice", STORE_MSG_NOTICE);
	assert_int_equal(expiry(s, "OLD"), 0);
	assert_int_equal(expiry(s, "NEW"), 3160);
	assert_int_equal(expiry(s, "LINE"), 0);	/* lines stay */
	assert_int_equal(store_expire_next(s, &next), 0);
	assert_int_equal(next, 3160);
	/* its time is up (1970): readers leave it out before the expiry
	 * deletes it (a shell reader, a start) */
	assert_int_equal(hits(s, "papaya"), 1);
	assert_int_equal(store_msg_page_newest(s, BOB, 10, &pg), 0);
	assert_int_equal(pg.n, 2);	/* OLD and the line */
	for (n = 0; n < pg.n; n++)
		assert_string_not_equal(pg.msgs[n].id, "NEW");
	store_msg_page_free(&pg);
	/* the chat list gives the timer */
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_int_equal(l.n, 1);
	assert_int_equal(l.chats[0].ephemeral_s, 60);
	store_chat_list_free(&l);
	/* not yet, then due */
	assert_int_equal(store_expire_due(s, 3159, 16, &v, &n, &more), 0);
	assert_int_equal(n, 0);
	assert_int_equal(store_expire_due(s, 3160, 16, &v, &n, &more), 0);
	assert_int_equal(n, 1);
	assert_false(more);
	assert_string_equal(v[0].chat, BOB);
	assert_string_equal(v[0].id, "NEW");
	assert_false(v[0].from_me);
	store_expired_free(v, n);
	assert_int_equal(expiry(s, "NEW"), -1);	/* the row is gone */
	assert_int_equal(hits(s, "papaya"), 1);	/* and out of the index */
	assert_int_equal(store_expire_next(s, &next), 0);
	assert_int_equal(next, 0);
	/* the preview is the newest row left: the notice */
	assert_int_equal(store_chat_list(s, false, 10, &l), 0);
	assert_string_equal(l.chats[0].last_text, "a notice");
	store_chat_list_free(&l);
	/* off: no expiry for what follows */
	assert_int_equal(store_chat_ephem_set(s, BOB, 0, 4000, true), 1);
	put(s, "AFTER", 4100, "after it", STORE_MSG_TEXT);
	assert_int_equal(expiry(s, "AFTER"), 0);
	store_close(s);
}

static void
test_store__refuses_bad_arguments_and_batches(void **state)
{
	struct store		*s = open_mem();
	struct store_expired	*v;
	uint32_t		 secs;
	int64_t			 ts;
	size_t			 n;
	bool			 more;
	char			 id[16];
	int			 i;

	(void)state;
	assert_int_equal(store_chat_ephem_set(s, "", 60, 1, true), -EINVAL);
	assert_int_equal(store_chat_ephem_set(s, BOB, STORE_EPHEM_MAX + 1, 1,
	    true), -EINVAL);
	assert_int_equal(store_chat_ephem_set(s, BOB, 60, -1, true), -EINVAL);
	/* turning off a chat not stored makes no row */
	assert_int_equal(store_chat_ephem_set(s, BOB, 0, 1, true), 0);
	assert_int_equal(store_chat_ephem(s, BOB, &secs, &ts), 0);
	assert_int_equal(secs, 0);
	assert_int_equal(store_expire_due(s, 1, 0, &v, &n, &more), -EINVAL);
	assert_int_equal(store_chat_ephem_set(s, BOB, 10, 100, false), 1);
	for (i = 0; i < 5; i++) {
		snprintf(id, sizeof(id), "M%d", i);
		put(s, id, 200 + i, "x", STORE_MSG_TEXT);
	}
	assert_int_equal(store_expire_due(s, 1000, 3, &v, &n, &more), 0);
	assert_int_equal(n, 3);
	assert_true(more);
	assert_string_equal(v[0].id, "M0");	/* oldest expiry first */
	store_expired_free(v, n);
	assert_int_equal(store_expire_due(s, 1000, 3, &v, &n, &more), 0);
	assert_int_equal(n, 2);
	assert_false(more);
	store_expired_free(v, n);
	store_close(s);
}

/* --- the Message codec --- */

static void
test_msg__setting_built_and_read(void **state)
{
	struct wa_msg_content	 c;
	struct buf		 b = BUF_INIT, w = BUF_INIT;

	(void)state;
	assert_int_equal(wa_msg_build_ephemeral(604800, 1700000000, &b), 0);
	assert_true(wa_msg_is_eph_setting(b.p, b.len));
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_PROTOCOL);
	assert_int_equal(c.protocol_type, 3);
	assert_int_equal(c.eph, WA_MSG_EPH_SETTING);
	assert_int_equal(c.eph_secs, 604800);
	assert_int_equal(c.eph_ts, 1700000000);
	wa_msg_content_release(&c);
	/* Baileys' form: inside ephemeralMessage (40) {message (1)} */
	buf_push(&w, 0xC2);	/* field 40, length-delimited: 322 */
	buf_push(&w, 0x02);
	buf_push(&w, (uint8_t)(b.len + 2));
	buf_push(&w, 1 << 3 | 2);
	buf_push(&w, (uint8_t)b.len);
	buf_append(&w, b.p, b.len);
	assert_int_equal(wa_msg_parse(w.p, w.len, &c), 0);
	assert_int_equal(c.eph, WA_MSG_EPH_SETTING);
	assert_int_equal(c.eph_secs, 604800);
	wa_msg_content_release(&c);
	/* off */
	b.len = 0;
	assert_int_equal(wa_msg_build_ephemeral(0, 1, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.eph, WA_MSG_EPH_SETTING);
	assert_int_equal(c.eph_secs, 0);
	wa_msg_content_release(&c);
	assert_int_equal(wa_msg_build_ephemeral(1, -1, &b), -EINVAL);
	buf_release(&b);
	buf_release(&w);
}

/* Build t, set the timer on it, parse it back into *c. */
static void
expiring(const struct wa_msg_text *t, uint32_t secs, int64_t ts,
    struct wa_msg_content *c)
{
	struct buf	 b = BUF_INIT, o = BUF_INIT;

	assert_int_equal(wa_msg_build_text(t, &b), 0);
	assert_int_equal(wa_msg_set_expiration(b.p, b.len, secs, ts, &o), 1);
	assert_false(wa_msg_is_eph_setting(o.p, o.len));
	assert_int_equal(wa_msg_parse(o.p, o.len, c), 0);
	buf_release(&b);
	buf_release(&o);
}

static void
test_msg__expiration_set_on_ours_and_read(void **state)
{
	struct wa_msg_content	 c;
	struct wa_msg_text	 t;
	struct wa_msg_key	 k = { BOB, false, "R1", NULL };
	struct buf		 b = BUF_INIT, o = BUF_INIT;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.text = "plain words";
	expiring(&t, 86400, 1700000000, &c);	/* a conversation turned */
	assert_int_equal(c.kind, WA_MSG_TEXT);	/* extended text */
	assert_string_equal(c.text, "plain words");
	assert_int_equal(c.eph, WA_MSG_EPH_CONTENT);
	assert_int_equal(c.eph_secs, 86400);
	assert_int_equal(c.eph_ts, 1700000000);
	wa_msg_content_release(&c);
	t.quoted_id = "Q1";			/* a reply keeps its quote */
	t.quoted_participant = BOB;
	t.quoted_text = "the question";
	expiring(&t, 7776000, 0, &c);
	assert_int_equal(c.kind, WA_MSG_REPLY);
	assert_string_equal(c.quoted_id, "Q1");
	assert_string_equal(c.quoted_text, "the question");
	assert_int_equal(c.eph_secs, 7776000);
	assert_int_equal(c.eph_ts, 0);
	wa_msg_content_release(&c);
	/* a reaction takes none: appended as it is */
	assert_int_equal(wa_msg_build_reaction(&k, "👍", 1, &b), 0);
	assert_int_equal(wa_msg_set_expiration(b.p, b.len, 60, 0, &o), 0);
	assert_int_equal(o.len, b.len);
	assert_memory_equal(o.p, b.p, b.len);
	/* refused: no timer, garbage */
	o.len = 0;
	assert_int_equal(wa_msg_set_expiration(b.p, b.len, 0, 0, &o),
	    -EINVAL);
	assert_true(wa_msg_set_expiration((const uint8_t *)"\x0a\xff", 2, 60,
	    0, &o) < 0);
	assert_int_equal(o.len, 0);
	assert_false(wa_msg_is_eph_setting((const uint8_t *)"\x0a\xff", 2));
	buf_release(&b);
	buf_release(&o);
}

static void
test_msg__plain_message_carries_none(void **state)
{
	struct wa_msg_content	 c;
	struct wa_msg_text	 t;
	struct buf		 b = BUF_INIT;

	(void)state;
	memset(&t, 0, sizeof(t));
	t.text = "no timer";
	assert_int_equal(wa_msg_build_text(&t, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.eph, WA_MSG_EPH_NONE);
	wa_msg_content_release(&c);
	buf_release(&b);
}

/* --- the words --- */

static void
name_of(void *arg, const char *jid, char *out, size_t len)
{
	(void)arg;
	snprintf(out, len, "%s", strcmp(jid, BOB) == 0 ? "Bob" : "");
}

static void
said(const char *actor, const char *secs, const char *want)
{
	char	 code[NOTICE_CODE_MAX * 4], words[200];

	assert_int_equal(notice_group_code(NOTICE_GROUP_EPHEMERAL, actor,
	    NULL, secs, code, sizeof(code)), 1);
	assert_int_equal(notice_group_words(code, name_of, NULL, words,
	    sizeof(words)), 1);
	assert_string_equal(words, want);
}

static void
test_words__event_lines_and_spans(void **state)
{
	char	 span[48];

	(void)state;
	said(BOB, "604800", "Bob turned on disappearing messages: 7 days");
	said(BOB, "86400", "Bob turned on disappearing messages: 24 hours");
	said(BOB, "7776000", "Bob turned on disappearing messages: 90 days");
	said(BOB, "0", "Bob turned off disappearing messages");
	said(NOTICE_GROUP_ME, "604800",
	    "You turned on disappearing messages: 7 days");
	said(NOTICE_GROUP_ME, "0", "You turned off disappearing messages");
	said("15550000009@s.whatsapp.net", "5",
	    "+15550000009 turned on disappearing messages: 5 seconds");
	said(BOB, "junk", "Bob turned off disappearing messages");
	notice_ephem_span(3600, span, sizeof(span));
	assert_string_equal(span, "1 hour");
	notice_ephem_span(2 * 86400, span, sizeof(span));
	assert_string_equal(span, "2 days");
	notice_ephem_span(1, span, sizeof(span));
	assert_string_equal(span, "1 second");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store__timer_kept_and_rows_expire),
		cmocka_unit_test(test_store__refuses_bad_arguments_and_batches),
		cmocka_unit_test(test_msg__setting_built_and_read),
		cmocka_unit_test(test_msg__expiration_set_on_ours_and_read),
		cmocka_unit_test(test_msg__plain_message_carries_none),
		cmocka_unit_test(test_words__event_lines_and_spans),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
