/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-store-draft.c -- a chat's draft, the input line left unsent
 * (store_chat_set_draft(), store/chat.c; schema migration 13's
 * chat.draft): kept across a reopen, given back by the chat list, cleared
 * by "", bounded.  Made-up JIDs only.
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
#include "store-test.h"

#define ALICE	"100000000001@lid"
#define BOB	"100000000002@lid"

/* An incoming message in chat, so that the chat is listed. */
static void
message_in(struct store *s, const char *chat, const char *id, int64_t ts)
{
	struct store_msg_new	 m;

	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.sender = "";
	m.ts_ms = ts;
	m.kind = STORE_MSG_TEXT;
	m.text = "hello";
	m.text_len = 5;
	m.state = STORE_MSG_RECEIVED;
	assert_int_equal(store_msg_insert_incoming(s, &m, NULL), 0);
}

/* chat's draft in a fresh chat list (a copy, freed by the caller), or
 * NULL when the chat is not listed. */
static char *
draft_of(struct store *s, const char *chat)
{
	struct store_chat_list	 l;
	char			*d = NULL;
	size_t			 i;

	assert_int_equal(store_chat_list(s, false, 100, &l), 0);
	for (i = 0; i < l.n; i++)
		if (strcmp(l.chats[i].jid, chat) == 0) {
			assert_non_null(l.chats[i].draft);
			d = strdup(l.chats[i].draft);
		}
	store_chat_list_free(&l);
	return d;
}

static void
assert_draft(struct store *s, const char *chat, const char *want)
{
	char	*d = draft_of(s, chat);

	assert_non_null(d);
	assert_string_equal(d, want);
	free(d);
}

static void
test_store_chat_set_draft__keeps_it_across_a_reopen__until_cleared(
    void **state)
{
	char		*dir = tmpdir();
	struct store	*s = NULL;

	(void)state;
	assert_int_equal(store_open(dir, &s), 0);
	message_in(s, ALICE, "A1", 1000);
	message_in(s, BOB, "B1", 2000);
	assert_draft(s, ALICE, "");
	assert_int_equal(store_chat_set_draft(s, ALICE,
	    "half a thought\nand a second line"), 0);
	assert_draft(s, ALICE, "half a thought\nand a second line");
	assert_draft(s, BOB, "");
	store_close(s);

	s = NULL;
	assert_int_equal(store_open(dir, &s), 0);
	assert_draft(s, ALICE, "half a thought\nand a second line");
	/* a new draft replaces it; "" and NULL clear */
	assert_int_equal(store_chat_set_draft(s, ALICE, "second"), 0);
	assert_draft(s, ALICE, "second");
	assert_int_equal(store_chat_set_draft(s, ALICE, ""), 0);
	assert_draft(s, ALICE, "");
	assert_int_equal(store_chat_set_draft(s, BOB, "b"), 0);
	assert_int_equal(store_chat_set_draft(s, BOB, NULL), 0);
	assert_draft(s, BOB, "");
	store_close(s);
	s = NULL;
	assert_int_equal(store_open(dir, &s), 0);
	assert_draft(s, ALICE, "");
	store_close(s);
	rmtree(dir);
	free(dir);
}

static void
test_store_chat_set_draft__creates_a_chat_only_for_a_draft_kept(
    void **state)
{
	struct store	*s = open_mem();
	char		*d;

	(void)state;
	/* clearing the draft of a chat the store does not have makes none */
	assert_int_equal(store_chat_set_draft(s, ALICE, ""), 0);
	assert_null(draft_of(s, ALICE));
	/* a chat started by number, nothing sent: its draft is kept */
	assert_int_equal(store_chat_set_draft(s, ALICE, "hi"), 0);
	d = draft_of(s, ALICE);
	assert_non_null(d);
	assert_string_equal(d, "hi");
	free(d);
	store_close(s);
}

static void
test_store_chat_set_draft__fails_with_einval__on_no_jid_or_a_long_text(
    void **state)
{
	struct store	*s = open_mem();
	char		*big = malloc(STORE_DRAFT_MAX + 2);

	(void)state;
	assert_non_null(big);
	message_in(s, ALICE, "A1", 1000);
	assert_int_equal(store_chat_set_draft(s, NULL, "x"), -EINVAL);
	assert_int_equal(store_chat_set_draft(s, "", "x"), -EINVAL);
	memset(big, 'x', STORE_DRAFT_MAX + 1);
	big[STORE_DRAFT_MAX + 1] = '\0';
	assert_int_equal(store_chat_set_draft(s, ALICE, big), -EINVAL);
	assert_draft(s, ALICE, "");
	/* STORE_DRAFT_MAX bytes are taken */
	big[STORE_DRAFT_MAX] = '\0';
	assert_int_equal(store_chat_set_draft(s, ALICE, big), 0);
	assert_draft(s, ALICE, big);
	free(big);
	store_close(s);
}


/* chat's peek mode in a fresh chat list (-1: not listed). */
static int
peek_of(struct store *s, const char *chat)
{
	struct store_chat_list	 l;
	int			 p = -1;
	size_t			 i;

	assert_int_equal(store_chat_list(s, false, 100, &l), 0);
	for (i = 0; i < l.n; i++)
		if (strcmp(l.chats[i].jid, chat) == 0)
			p = l.chats[i].peek;
	store_chat_list_free(&l);
	return p;
}

/* Peek (migration 13's chat.peek): 0 as the setting until set, then 1
 * on or 2 off, kept across a reopen; a bad JID refused. */
static void
test_store_chat_set_peek__keeps_on_and_off_across_a_reopen(void **state)
{
	char		*dir = tmpdir();
	struct store	*s = NULL;

	(void)state;
	assert_int_equal(store_open(dir, &s), 0);
	message_in(s, ALICE, "A1", 1000);
	message_in(s, BOB, "B1", 2000);
	assert_int_equal(peek_of(s, ALICE), 0);
	assert_int_equal(store_chat_set_peek(s, ALICE, true), 0);
	assert_int_equal(store_chat_set_peek(s, BOB, false), 0);
	store_close(s);
	s = NULL;
	assert_int_equal(store_open(dir, &s), 0);
	assert_int_equal(peek_of(s, ALICE), 1);
	assert_int_equal(peek_of(s, BOB), 2);
	/* a new message keeps it */
	message_in(s, ALICE, "A2", 3000);
	assert_int_equal(peek_of(s, ALICE), 1);
	assert_int_equal(store_chat_set_peek(s, ALICE, false), 0);
	assert_int_equal(peek_of(s, ALICE), 2);
	assert_int_equal(store_chat_set_peek(s, "", true), -EINVAL);
	assert_int_equal(store_chat_set_peek(s, NULL, true), -EINVAL);
	store_close(s);
	rmtree(dir);
	free(dir);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_chat_set_draft__keeps_it_across_a_reopen__until_cleared),
		cmocka_unit_test(test_store_chat_set_draft__creates_a_chat_only_for_a_draft_kept),
		cmocka_unit_test(test_store_chat_set_draft__fails_with_einval__on_no_jid_or_a_long_text),
		cmocka_unit_test(test_store_chat_set_peek__keeps_on_and_off_across_a_reopen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
