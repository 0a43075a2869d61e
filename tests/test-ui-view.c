/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-ui-view.c -- the chat screen's logic without a terminal
 * (ui/view.c, ui/chats.c, ui/msgs.c, ui/keys.c): which commands events
 * and keys send to the engine (what the wire will carry: loads, read
 * receipts, typing, sends, replies, reactions, retries, deletes), the
 * keyset paging that keeps at most three pages, rows updated in place,
 * and network text sanitised on the way in.  Made-up JIDs.
 */
#include "base/compat.h"

#include <curses.h>
#include <errno.h>
#include <locale.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ui/chats.h"
#include "src/conf.h"
#include "base/buf.h"
#include "base/event.h"
#include "ui/groups.h"
#include "ui/keys.h"
#include "ui/msgs.h"
#include "ui/notify.h"
#include "ui/search.h"
#include "ui/term.h"
#include "ui/text.h"
#include "ui/view.h"
#include "base/xmalloc.h"

#define ALICE	"15550000002@s.whatsapp.net"
#define BOB	"15550000003@s.whatsapp.net"
#define NOW	1700000000000LL

/* Row i's reactions line for w columns (valid until the next call). */
static const char *
reacts_line(const struct ui_msgs *m, size_t i, int w)
{
	static struct buf	 b = BUF_INIT;

	buf_release(&b);
	ui_msgs_reactions(m, i, w, &b);
	return (const char *)b.p;
}
#define ENTER	'\r'
#define UP	(UI_KEY_FN + KEY_UP)

/* The commands the view pushed, oldest first. */
struct sink {
	struct cmd	*c[512];
	size_t		 n;
};

static void
sink_push(void *arg, struct cmd *c)
{
	struct sink	*s = arg;

	assert_true(s->n < 512);
	s->c[s->n++] = c;
}

static void
sink_clear(struct sink *s)
{
	size_t	 i;

	for (i = 0; i < s->n; i++)
		cmd_free(s->c[i]);
	s->n = 0;
}

/* How many commands of kind were pushed; *last gets the last one. */
static size_t
count(const struct sink *s, enum cmd_kind kind, const struct cmd **last)
{
	size_t	 i, n = 0;

	for (i = 0; i < s->n; i++)
		if (s->c[i]->kind == kind) {
			n++;
			if (last != NULL)
				*last = s->c[i];
		}
	return n;
}

/* EV_CONNECTED for our account, as the engine says it. */
static struct ev *
connected_ev(void)
{
	struct ev	*ev = ev_new(EV_CONNECTED);

	ev_set(&ev->u.connected.jid, "15550000001:1@s.whatsapp.net");
	ev_set(&ev->u.connected.number, "15550000001");
	return ev;
}

/* EV_ERROR saying what failed. */
static struct ev *
error_ev(const char *what)
{
	struct ev	*ev = ev_new(EV_ERROR);

	ev_set(&ev->u.error.what, what);
	return ev;
}

/* The keyset cursor of a CMD_LOAD_PAGE is (ts_ms, rowid). */
static void
assert_cursor(const struct cmd *c, int64_t ts_ms, int64_t rowid)
{
	assert_int_equal(c->kind, CMD_LOAD_PAGE);
	assert_true(c->u.load_page.from.ts_ms == ts_ms);
	assert_true(c->u.load_page.from.rowid == rowid);
}

/* A group command's members are the JIDs given (NULL after the last),
 * in that order. */
static void
assert_members(char *const *v, uint32_t n, ...)
{
	va_list		 ap;
	const char	*want;
	uint32_t	 i = 0;

	va_start(ap, n);
	while ((want = va_arg(ap, const char *)) != NULL) {
		assert_true(i < n);
		assert_string_equal(v[i], want);
		i++;
	}
	va_end(ap);
	assert_int_equal(i, n);
}

static struct ev *
chats_ev(int unread_alice, int unread_bob)
{
	struct ev	*ev = ev_new(EV_CHATS);

	ev->u.chats.nchats = 2;
	ev->u.chats.chats = xcalloc(2, sizeof(*ev->u.chats.chats));
	ev->u.chats.chats[0].jid = xstrdup(ALICE);
	ev->u.chats.chats[0].name = xstrdup("Alice");
	ev->u.chats.chats[0].preview = xstrdup("hi\x1b[2J there");
	ev->u.chats.chats[0].last_ms = NOW;
	ev->u.chats.chats[0].unread = unread_alice;
	ev->u.chats.chats[1].jid = xstrdup(BOB);
	ev->u.chats.chats[1].name = xstrdup("");
	ev->u.chats.chats[1].preview = xstrdup("yo");
	ev->u.chats.chats[1].last_ms = NOW - 1000;
	ev->u.chats.chats[1].unread = unread_bob;
	return ev;
}

/* A page of n rows of chat, rowids from first_rowid, one second apart,
 * oldest first; direction dir (-1 before, 0 the newest, 1 after, 2
 * around), more rows that way as given. */
static struct ev *
page_ev(const char *chat, int dir, int64_t first_rowid, size_t n, int more)
{
	struct ev	*ev = ev_new(EV_PAGE);
	char		 id[32];
	size_t		 i;

	ev_set(&ev->u.page.chat, chat);
	ev->u.page.dir = dir < 0 ? EV_PAGE_BEFORE : dir == 0 ? EV_PAGE_NEWEST :
	    dir == 1 ? EV_PAGE_AFTER : EV_PAGE_AROUND;
	if (dir == 1)
		ev->u.page.more_after = more != 0;
	else
		ev->u.page.more_before = more != 0;
	ev->u.page.nmsgs = (uint32_t)n;
	ev->u.page.msgs = xcalloc(n > 0 ? n : 1, sizeof(*ev->u.page.msgs));
	for (i = 0; i < n; i++) {
		struct ev_msg	*m = &ev->u.page.msgs[i];

		snprintf(id, sizeof(id), "ID%lld", (long long)(first_rowid +
		    (int64_t)i));
		m->rowid = first_rowid + (int64_t)i;
		m->id = xstrdup(id);
		m->sender = xstrdup("");
		m->sender_name = xstrdup("");
		m->from_me = (i % 2) == 1;
		m->ts_ms = NOW - 1000000 + m->rowid * 1000;
		m->text = xstrdup("text");
		m->quoted_id = xstrdup("");
		m->quoted_sender = xstrdup("");
		m->quoted_text = xstrdup("");
		m->state = m->from_me ? EV_STATE_SENT : EV_STATE_NONE;
	}
	return ev;
}

static struct ev *
msg_ev(const char *chat, const char *id, int from_me, const char *text)
{
	struct ev		*ev = ev_new(EV_MESSAGE);
	struct ev_message	*m = &ev->u.message;

	ev_set(&m->key.chat, chat);
	ev_set(&m->key.id, id);
	m->key.from_me = from_me != 0;
	ev_set(&m->text, text);
	m->state = from_me ? EV_STATE_QUEUED : EV_STATE_NONE;
	m->ts_ms = NOW;
	return ev;
}

static void
apply_at(struct ui_view *v, struct ev *ev, int64_t now)
{
	ui_view_apply(v, ev, now);
	ev_free(ev);
}

static void
apply(struct ui_view *v, struct ev *ev)
{
	apply_at(v, ev, NOW);
}

static void
type(struct ui_view *v, const char *s)
{
	for (; *s != '\0'; s++)
		(void)ui_view_key(v, (unsigned char)*s, NOW);
}

struct fixture {
	struct sink	 sink;
	struct ui_view	*v;
};

static int
setup(void **state)
{
	struct fixture		*f = xcalloc(1, sizeof(*f));
	struct ui_view_opts	 o;

	ui_view_opts_default(&o);
	f->v = ui_view_new(&o, sink_push, &f->sink);
	*state = f;
	return 0;
}

static int
teardown(void **state)
{
	struct fixture	*f = *state;

	ui_view_free(f->v);
	sink_clear(&f->sink);
	free(f);
	return 0;
}

/* Connected, with the list and Alice's newest page in. */
static void
open_alice(struct fixture *f, int unread)
{
	apply(f->v, connected_ev());
	apply(f->v, chats_ev(unread, 0));
	/* Nothing opens by itself: Tab opens the first chat. */
	assert_null(ui_view_open_chat(f->v));
	(void)ui_view_key(f->v, '\t', NOW);
	apply(f->v, page_ev(ALICE, 0, 100, 10, 0));
}

static void
test_ui_view__loads_the_chat_list_when_connected(void **state)
{
	struct fixture	*f = *state;

	apply(f->v, connected_ev());
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 1);
}

static void
test_ui_view__tab_opens_the_first_chat_with_page_subscribe_and_read(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_alice(f, 2);
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 1);
	assert_string_equal(c->u.load_page.chat, ALICE);
	/* two unread: the page that shows where they start */
	assert_int_equal(c->u.load_page.dir, EV_PAGE_UNREAD);
	assert_int_equal(c->u.load_page.unread, 2);
	assert_int_equal(c->u.load_page.max, 50);
	assert_int_equal(count(&f->sink, CMD_SUBSCRIBE, &c), 1);
	assert_string_equal(c->u.subscribe.chat, ALICE);
	/* read once shown for UI_VIEW_READ_MS, not before */
	ui_view_tick(f->v, NOW);
	ui_view_tick(f->v, NOW + UI_VIEW_READ_MS - 1);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 0);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 2);
	ui_view_tick(f->v, NOW + UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, &c), 1);
	assert_string_equal(c->u.mark_read.chat, ALICE);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 0);
}

static void
test_ui_view__a_chat_passed_through_with_tab_is_not_read(void **st)
{
	struct fixture	*f = *st;

	apply(f->v, connected_ev());
	apply(f->v, chats_ev(2, 3));
	(void)ui_view_key(f->v, '\t', NOW);		/* Alice's */
	ui_view_tick(f->v, NOW);
	(void)ui_view_key(f->v, '\t', NOW + 500);	/* on to Bob's */
	ui_view_tick(f->v, NOW + 500);
	ui_view_tick(f->v, NOW + UI_VIEW_READ_MS + 100);
	assert_string_equal(ui_view_open_chat(f->v), BOB);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 0);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 2);
	ui_view_tick(f->v, NOW + 500 + UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 1);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 2);
	assert_int_equal(ui_view_chats(f->v)->v[1].unread, 0);
}

static void
test_ui_view__nothing_is_read_while_the_screen_is_not_seen(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_alice(f, 0);
	ui_view_seen(f->v, false, NOW);			/* focus out */
	apply(f->v, msg_ev(ALICE, "IN1", 0, "hello"));
	apply(f->v, chats_ev(1, 0));
	ui_view_tick(f->v, NOW + 10 * UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 0);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 1);
	/* focus in: read after UI_VIEW_READ_MS seen */
	ui_view_seen(f->v, true, NOW + 20000);
	ui_view_tick(f->v, NOW + 20000 + UI_VIEW_READ_MS - 1);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 0);
	ui_view_tick(f->v, NOW + 20000 + UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, &c), 1);
	assert_string_equal(c->u.mark_read.chat, ALICE);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 0);
}

static void
test_ui_view__sends_no_read_receipt_when_the_setting_is_off(void **st)
{
	struct fixture		*f = *st;
	struct ui_view_opts	 o;

	ui_view_free(f->v);
	ui_view_opts_default(&o);
	o.read_receipts = false;
	f->v = ui_view_new(&o, sink_push, &f->sink);
	open_alice(f, 2);
	apply(f->v, msg_ev(ALICE, "IN1", 0, "hello"));
	ui_view_tick(f->v, NOW + 2 * UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 0);
}

static void
test_ui_view__marks_read_a_message_that_comes_while_shown(void **st)
{
	struct fixture	*f = *st;

	open_alice(f, 0);
	ui_view_tick(f->v, NOW);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 0);
	/* shown for UI_VIEW_READ_MS already: read at once */
	apply_at(f->v, msg_ev(ALICE, "IN1", 0, "hello"),
	    NOW + UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 1);
	/* Another chat's message is not read. */
	apply_at(f->v, msg_ev(BOB, "IN2", 0, "hello"),
	    NOW + 2 * UI_VIEW_READ_MS);
	ui_view_tick(f->v, NOW + 4 * UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, NULL), 1);
}

static void
test_ui_view__enter_sends_the_text_with_typing_around_it(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_alice(f, 0);
	sink_clear(&f->sink);
	type(f->v, "hi ");
	(void)ui_view_key(f->v, 0x1f44d, NOW);	/* 👍 */
	assert_int_equal(count(&f->sink, CMD_TYPING, &c), 1);
	assert_true(c->u.typing.composing);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 1);
	assert_string_equal(c->u.send.chat, ALICE);
	assert_string_equal(c->u.send.text, "hi \xf0\x9f\x91\x8d");
	assert_string_equal(c->u.send.quoted_id, "");
	assert_int_equal(count(&f->sink, CMD_TYPING, &c), 2);
	assert_false(c->u.typing.composing);
	assert_string_equal(ui_view_input(f->v), "");
	/* Nothing typed: Enter sends nothing. */
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 1);
}

static void
test_ui_view__typing_is_sent_at_most_every_few_seconds(void **st)
{
	struct fixture	*f = *st;

	open_alice(f, 0);
	sink_clear(&f->sink);
	type(f->v, "abcdef");
	assert_int_equal(count(&f->sink, CMD_TYPING, NULL), 1);
	(void)ui_view_key(f->v, 'g', NOW + UI_VIEW_TYPING_MS);
	assert_int_equal(count(&f->sink, CMD_TYPING, NULL), 2);
	/* Idle: paused. */
	ui_view_tick(f->v, NOW + 3 * UI_VIEW_TYPING_MS);
	assert_int_equal(count(&f->sink, CMD_TYPING, NULL), 3);
	assert_false(f->sink.c[f->sink.n - 1]->u.typing.composing);
}

/* A pasted text (between the bracketed-paste marks) keeps its lines: its
 * newlines are not Enter, its tabs and control characters are not keys;
 * Enter after it sends it whole. */
static void
test_ui_view__a_pasted_text_keeps_its_lines_and_sends_on_enter(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_alice(f, 0);
	sink_clear(&f->sink);
	(void)ui_view_key(f->v, UI_KEY_PASTE_BEGIN, NOW);
	type(f->v, "line one\r\tline two\n\x11\x07" "end");
	(void)ui_view_key(f->v, UI_KEY_ALT + 'g', NOW);	/* a pasted ESC g */
	(void)ui_view_key(f->v, UI_KEY_PASTE_END, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 0);
	assert_false(ui_view_info_shown(f->v));
	assert_non_null(ui_view_open_chat(f->v));
	assert_string_equal(ui_view_input(f->v), "line one\n    line two\nend");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 1);
	assert_string_equal(c->u.send.text, "line one\n    line two\nend");
	/* after the paste, Enter is Enter again */
	type(f->v, "x");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 2);
}

/* A blank message is not sent; spaces and blank lines around one go. */
static void
test_ui_view__sends_no_blank_message_and_trims_one(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_alice(f, 0);
	type(f->v, "   ");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 0);
	assert_string_equal(ui_view_input(f->v), "   ");
	(void)ui_view_key(f->v, 0x15, NOW);	/* Ctrl-u */
	(void)ui_view_key(f->v, UI_KEY_PASTE_BEGIN, NOW);
	type(f->v, "\r\n  two\r\nlines  \r\n\r\n");
	(void)ui_view_key(f->v, UI_KEY_PASTE_END, NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 1);
	assert_string_equal(c->u.send.text, "two\nlines");
}

/* What is typed stays with its chat: another chat opens with its own
 * draft (or none), and coming back brings it again. */
static void
test_ui_view__each_chat_keeps_its_draft(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	int			 back;

	assert_int_equal(ui_keys_parse("shift-tab", &back), 0);
	open_alice(f, 0);
	type(f->v, "for alice");
	(void)ui_view_key(f->v, '\t', NOW);	/* the next chat: Bob */
	assert_string_equal(ui_view_open_chat(f->v), BOB);
	assert_string_equal(ui_view_input(f->v), "");
	type(f->v, "for bob");
	(void)ui_view_key(f->v, back, NOW);
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	assert_string_equal(ui_view_input(f->v), "for alice");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 1);
	assert_string_equal(c->u.send.chat, ALICE);
	(void)ui_view_key(f->v, '\t', NOW);
	assert_string_equal(ui_view_input(f->v), "for bob");
	(void)ui_view_key(f->v, back, NOW);
	assert_string_equal(ui_view_input(f->v), "");	/* sent: no draft */
}

/* Drafts across restarts (issue 17 point 10): the first chat list's
 * drafts are the screen's (a later list's, maybe older than a CMD_DRAFT
 * since, are not); a chat left with text typed, a message sent and the
 * program stopping each keep the open chat's draft in the store with
 * CMD_DRAFT, once per change. */
static void
test_ui_view__drafts_go_to_the_store_and_come_back_with_the_first_list(
    void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	struct ev		*ev;

	apply(f->v, connected_ev());
	ev = chats_ev(0, 0);
	ev_set(&ev->u.chats.chats[1].draft, "from before");
	apply(f->v, ev);
	ev = chats_ev(0, 0);
	ev_set(&ev->u.chats.chats[0].draft, "stale");
	apply(f->v, ev);
	(void)ui_view_key(f->v, '\t', NOW);	/* Alice: no draft */
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	assert_string_equal(ui_view_input(f->v), "");
	type(f->v, "for alice");
	assert_int_equal(count(&f->sink, CMD_DRAFT, NULL), 0);
	(void)ui_view_key(f->v, '\t', NOW);	/* Bob: his, cursor at its end */
	assert_string_equal(ui_view_open_chat(f->v), BOB);
	assert_string_equal(ui_view_input(f->v), "from before");
	type(f->v, "!");
	assert_string_equal(ui_view_input(f->v), "from before!");
	assert_int_equal(count(&f->sink, CMD_DRAFT, &c), 1);
	assert_string_equal(c->u.draft.chat, ALICE);
	assert_string_equal(c->u.draft.text, "for alice");
	/* sent: Bob's draft cleared in the store */
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 1);
	assert_int_equal(count(&f->sink, CMD_DRAFT, &c), 2);
	assert_string_equal(c->u.draft.chat, BOB);
	assert_string_equal(c->u.draft.text, "");
	/* stopping with text typed keeps it, once */
	type(f->v, "later");
	ui_view_quitting(f->v);
	assert_int_equal(count(&f->sink, CMD_DRAFT, &c), 3);
	assert_string_equal(c->u.draft.chat, BOB);
	assert_string_equal(c->u.draft.text, "later");
	assert_string_equal(ui_view_input(f->v), "later");
	ui_view_quitting(f->v);
	assert_int_equal(count(&f->sink, CMD_DRAFT, NULL), 3);
	/* back to Alice: her draft, unchanged, is not stored again; Bob's
	 * is kept as it was */
	(void)ui_view_key(f->v, '\t', NOW);
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	assert_string_equal(ui_view_input(f->v), "for alice");
	assert_int_equal(count(&f->sink, CMD_DRAFT, NULL), 3);
}

static void
test_ui_view__enter_is_a_newline_and_the_send_key_sends_if_set(void **st)
{
	struct fixture		*f = *st;
	struct ui_view_opts	 o;
	const struct cmd	*c = NULL;
	int			 key;

	ui_view_free(f->v);
	ui_view_opts_default(&o);
	o.enter_sends = false;
	f->v = ui_view_new(&o, sink_push, &f->sink);
	open_alice(f, 0);
	type(f->v, "a");
	(void)ui_view_key(f->v, ENTER, NOW);
	type(f->v, "b");
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 0);
	assert_string_equal(ui_view_input(f->v), "a\nb");
	assert_int_equal(ui_keys_parse("ctrl-x", &key), 0);
	(void)ui_view_key(f->v, key, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 1);
	assert_string_equal(c->u.send.text, "a\nb");
}

static void
test_ui_view__up_selects_and_enter_replies_with_the_quoted_sender(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_alice(f, 0);
	(void)ui_view_key(f->v, UP, NOW);
	/* The newest row (ID109, odd: ours); one more Up: ID108, theirs. */
	assert_string_equal(ui_view_selected(f->v), "ID109");
	(void)ui_view_key(f->v, UP, NOW);
	assert_string_equal(ui_view_selected(f->v), "ID108");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_null(ui_view_selected(f->v));
	type(f->v, "yes");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 1);
	assert_string_equal(c->u.send.quoted_id, "ID108");
	assert_string_equal(c->u.send.quoted_sender, ALICE);
	assert_string_equal(c->u.send.text, "yes");
	/* the quoted line */
	assert_string_equal(c->u.send.quoted_text, "text");
	/* A reply to our own message has no quoted sender (ours). */
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	type(f->v, "me");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 2);
	assert_string_equal(c->u.send.quoted_id, "ID109");
	assert_string_equal(c->u.send.quoted_sender, "");
}

static void
test_ui_view__up_with_text_typed_does_not_select(void **st)
{
	struct fixture	*f = *st;

	open_alice(f, 0);
	type(f->v, "x");
	(void)ui_view_key(f->v, UP, NOW);
	assert_null(ui_view_selected(f->v));
}

static void
test_ui_view__react_takes_a_quick_emoji_or_a_typed_one(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	int			 alt_s;

	assert_int_equal(ui_keys_parse("alt-s", &alt_s), 0);
	open_alice(f, 0);
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, alt_s, NOW);
	(void)ui_view_key(f->v, '1', NOW);
	assert_int_equal(count(&f->sink, CMD_REACT, &c), 1);
	assert_string_equal(c->u.react.id, "ID109");
	assert_string_equal(c->u.react.emoji, "\xf0\x9f\x91\x8d");
	assert_true(c->u.react.target_from_me);	/* ours */
	/* The selection stays: one Up more is the message before. */
	assert_string_equal(ui_view_selected(f->v), "ID109");
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, alt_s, NOW);
	(void)ui_view_key(f->v, 0x1f389, NOW);	/* 🎉 */
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_REACT, &c), 2);
	assert_string_equal(c->u.react.id, "ID108");
	assert_string_equal(c->u.react.emoji, "\xf0\x9f\x8e\x89");
	assert_false(c->u.react.target_from_me);
	/* One emoji only: words or two emoji are refused, the prompt stays;
	 * one with its skin tone, or a keycap, goes. */
	(void)ui_view_key(f->v, alt_s, NOW);
	type(f->v, "abc");
	(void)ui_view_key(f->v, ENTER, NOW);
	(void)ui_view_key(f->v, 0x15, NOW);	/* Ctrl-u: the prompt empty */
	(void)ui_view_key(f->v, 0x1f44d, NOW);
	(void)ui_view_key(f->v, 0x1f44d, NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_REACT, NULL), 2);
	(void)ui_view_key(f->v, 0x15, NOW);
	(void)ui_view_key(f->v, 0x1f44d, NOW);
	(void)ui_view_key(f->v, 0x1f3fd, NOW);	/* medium skin tone */
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_REACT, &c), 3);
	assert_string_equal(c->u.react.emoji,
	    "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd");
	(void)ui_view_key(f->v, alt_s, NOW);
	type(f->v, "7");	/* not a quick key: typed */
	(void)ui_view_key(f->v, 0xfe0f, NOW);
	(void)ui_view_key(f->v, 0x20e3, NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_REACT, &c), 4);
	assert_string_equal(c->u.react.emoji, "7\xef\xb8\x8f\xe2\x83\xa3");
}

static void
test_ui_view__retry_and_delete_act_on_failed_messages_only(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	struct ev		*ev;
	int			 retry, del;

	assert_int_equal(ui_keys_parse("ctrl-t", &retry), 0);
	assert_int_equal(ui_keys_parse("ctrl-d", &del), 0);
	open_alice(f, 0);
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, retry, NOW);
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, del, NOW);
	assert_int_equal(count(&f->sink, CMD_RETRY, NULL), 0);
	assert_int_equal(count(&f->sink, CMD_DELETE, NULL), 0);
	ev = ev_new(EV_SEND_FAILED);
	ev_set(&ev->u.send_failed.why, "refused");
	ev_set(&ev->u.send_failed.key.chat, ALICE);
	ev_set(&ev->u.send_failed.key.id, "ID109");
	ev->u.send_failed.key.from_me = true;
	apply(f->v, ev);
	(void)ui_view_key(f->v, 0x1b, NOW);
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, retry, NOW);
	assert_int_equal(count(&f->sink, CMD_RETRY, &c), 1);
	assert_string_equal(c->u.retry.id, "ID109");
	(void)ui_view_key(f->v, del, NOW);
	assert_int_equal(count(&f->sink, CMD_DELETE, &c), 1);
	assert_string_equal(c->u.del.id, "ID109");
	assert_string_equal(c->u.del.chat, ALICE);
	/* never sent, it is gone from the pane at once */
	assert_int_equal(ui_msgs_find(ui_view_msgs(f->v), "ID109"), -1);
	assert_null(ui_view_selected(f->v));
}

/* Alt-e on our newest message (sent 891 s ago): its text in the input
 * line; Enter sends the new text as an edit, not a message; after 15
 * minutes, or on someone else's message, a note instead. */
static void
test_ui_view__alt_e_edits_our_message_within_15_minutes(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	int			 edit, bs;

	assert_int_equal(ui_keys_parse("alt-e", &edit), 0);
	assert_int_equal(ui_keys_parse("backspace", &bs), 0);
	open_alice(f, 0);
	(void)ui_view_key(f->v, UP, NOW);
	assert_string_equal(ui_view_selected(f->v), "ID109");
	(void)ui_view_key(f->v, edit, NOW);
	assert_null(ui_view_selected(f->v));
	assert_string_equal(ui_view_input(f->v), "text");
	(void)ui_view_key(f->v, bs, NOW);
	type(f->v, "ts");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_EDIT, &c), 1);
	assert_string_equal(c->u.edit.chat, ALICE);
	assert_string_equal(c->u.edit.id, "ID109");
	assert_string_equal(c->u.edit.text, "texts");
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 0);
	assert_string_equal(ui_view_input(f->v), "");
	/* Esc while editing: nothing sent, the input empty again */
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, edit, NOW);
	(void)ui_view_key(f->v, 0x1b, NOW);
	assert_string_equal(ui_view_input(f->v), "");
	type(f->v, "new");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_EDIT, NULL), 1);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 1);
	/* 16 minutes on: too late */
	(void)ui_view_key(f->v, UP, NOW + 10 * 60 * 1000);
	assert_string_equal(ui_view_selected(f->v), "ID109");
	(void)ui_view_key(f->v, edit, NOW + 10 * 60 * 1000);
	assert_string_equal(ui_view_input(f->v), "");
	assert_int_equal(count(&f->sink, CMD_EDIT, NULL), 1);
	/* Alice's message (ID108) cannot be edited */
	(void)ui_view_key(f->v, UP, NOW);
	assert_string_equal(ui_view_selected(f->v), "ID108");
	(void)ui_view_key(f->v, edit, NOW);
	assert_string_equal(ui_view_input(f->v), "");
	(void)ui_view_key(f->v, ENTER, NOW);	/* a reply, then */
	assert_int_equal(count(&f->sink, CMD_EDIT, NULL), 1);
}

/* Ctrl-d on our sent message asks, y deletes it for everyone, n keeps
 * it; on Alice's message it does nothing. */
static void
test_ui_view__ctrl_d_deletes_our_message_for_everyone_after_asking(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	int			 del;

	assert_int_equal(ui_keys_parse("ctrl-d", &del), 0);
	open_alice(f, 0);
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, del, NOW);
	(void)ui_view_key(f->v, 'n', NOW);
	assert_int_equal(count(&f->sink, CMD_REVOKE, NULL), 0);
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, del, NOW);
	(void)ui_view_key(f->v, 'x', NOW);	/* neither: still asking */
	assert_int_equal(count(&f->sink, CMD_REVOKE, NULL), 0);
	(void)ui_view_key(f->v, 'y', NOW);
	assert_int_equal(count(&f->sink, CMD_REVOKE, &c), 1);
	assert_string_equal(c->u.revoke.chat, ALICE);
	assert_string_equal(c->u.revoke.id, "ID109");
	assert_int_equal(count(&f->sink, CMD_DELETE, NULL), 0);
	/* Alice's message: nothing asked, nothing sent */
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, UP, NOW);
	assert_string_equal(ui_view_selected(f->v), "ID108");
	(void)ui_view_key(f->v, del, NOW);
	(void)ui_view_key(f->v, 'y', NOW);
	assert_int_equal(count(&f->sink, CMD_REVOKE, NULL), 1);
	/* two days later: too late */
	(void)ui_view_key(f->v, 0x1b, NOW);
	(void)ui_view_key(f->v, UP, NOW + 2 * 86400000LL);
	(void)ui_view_key(f->v, del, NOW + 2 * 86400000LL);
	(void)ui_view_key(f->v, 'y', NOW + 2 * 86400000LL);
	assert_int_equal(count(&f->sink, CMD_REVOKE, NULL), 1);
}

static void
test_ui_view__tab_opens_the_next_chat_and_ctrl_f_the_unread_one(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	int			 ctrl_f;

	open_alice(f, 0);
	(void)ui_view_key(f->v, '\t', NOW);
	assert_string_equal(ui_view_open_chat(f->v), BOB);
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 2);
	assert_string_equal(c->u.load_page.chat, BOB);
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_BTAB, NOW);
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	apply(f->v, chats_ev(0, 4));
	assert_int_equal(ui_keys_parse("ctrl-f", &ctrl_f), 0);
	(void)ui_view_key(f->v, ctrl_f, NOW);
	assert_string_equal(ui_view_open_chat(f->v), BOB);
	ui_view_tick(f->v, NOW);
	ui_view_tick(f->v, NOW + UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, &c), 1);
	assert_string_equal(c->u.mark_read.chat, BOB);
}

static void
test_ui_view__new_chat_by_number_opens_its_jid(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	int			 ctrl_n;

	open_alice(f, 0);
	assert_int_equal(ui_keys_parse("ctrl-n", &ctrl_n), 0);
	(void)ui_view_key(f->v, ctrl_n, NOW);
	type(f->v, "12");
	(void)ui_view_key(f->v, ENTER, NOW);	/* too short: stays */
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	type(f->v, "3 456-7890");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_string_equal(ui_view_open_chat(f->v),
	    "1234567890@s.whatsapp.net");
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 2);
	assert_string_equal(c->u.load_page.chat, "1234567890@s.whatsapp.net");
	/* The list reloads without it: it stays, selected. */
	apply(f->v, chats_ev(0, 0));
	assert_string_equal(ui_view_open_chat(f->v),
	    "1234567890@s.whatsapp.net");
	type(f->v, "hi");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 1);
	assert_string_equal(c->u.send.chat, "1234567890@s.whatsapp.net");
}

static void
test_ui_view__chat_list_reloads_at_most_once_a_second(void **st)
{
	struct fixture	*f = *st;

	open_alice(f, 0);
	sink_clear(&f->sink);
	apply_at(f->v, msg_ev(BOB, "A", 0, "1"), NOW + 5000);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 1);
	apply_at(f->v, msg_ev(BOB, "B", 0, "2"), NOW + 5100);
	apply_at(f->v, msg_ev(BOB, "C", 0, "3"), NOW + 5200);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 1);
	ui_view_tick(f->v, NOW + 5500);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 1);
	ui_view_tick(f->v, NOW + 6000);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 2);
	ui_view_tick(f->v, NOW + 9000);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 2);
}

/* A chat list asked for before the open chat was read comes back
 * counting it unread (the store read it before the mark): the list is
 * asked for again after the mark, so the count does not stay (a CI run
 * saw Echo's count stay after a mute's reload). */
static void
test_ui_view__a_list_asked_before_the_read_is_asked_again(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_alice(f, 2);
	ui_view_tick(f->v, NOW);
	sink_clear(&f->sink);
	apply_at(f->v, msg_ev(BOB, "B1", 0, "yo"), NOW + 1000);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 1);
	ui_view_tick(f->v, NOW + UI_VIEW_READ_MS);
	assert_int_equal(count(&f->sink, CMD_MARK_READ, &c), 1);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 0);
	/* the answer to the load asked before the mark */
	apply_at(f->v, chats_ev(2, 1), NOW + UI_VIEW_READ_MS + 10);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 2);
	ui_view_tick(f->v, NOW + 1999);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 1);
	ui_view_tick(f->v, NOW + 2000);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 2);
	/* its answer, after the mark, has the chat read */
	apply_at(f->v, chats_ev(0, 1), NOW + 2010);
	assert_int_equal(ui_view_chats(f->v)->v[0].unread, 0);
	/* and a read with no list in flight asks for none */
	ui_view_tick(f->v, NOW + 9000);
	assert_int_equal(count(&f->sink, CMD_LOAD_CHATS, NULL), 2);
}

/* The "N unread messages" line and "new messages below" (issue 17
 * point 8). */
static void
test_ui_msgs__places_the_unread_line__and_counts_new_ones_below(void **st)
{
	struct ui_msgs	 m;
	struct cmd	*c;
	struct ev	*ev;
	int		 scroll;

	(void)st;
	ui_msgs_init(&m);
	c = ui_msgs_open_unread(&m, ALICE, 3);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_UNREAD);
	assert_int_equal(c->u.load_page.unread, 3);
	cmd_free(c);
	/* rows 100..109, the even ones incoming: the third from the end
	 * is 104 */
	ev = page_ev(ALICE, 0, 100, 10, 0);
	ev->u.page.dir = EV_PAGE_UNREAD;
	assert_true(ui_msgs_page(&m, ev));
	ev_free(ev);
	assert_int_equal(m.n, 10);
	assert_int_equal(m.unread_rowid, 104);
	assert_int_equal(m.unread_n, 3);
	assert_true(m.reveal);
	assert_int_equal(m.loading, 0);
	/* more than a page: from the first unread, the line above it */
	cmd_free(ui_msgs_open_unread(&m, ALICE, 70));
	ev = page_ev(ALICE, 0, 200, 10, 0);
	ev->u.page.dir = EV_PAGE_UNREAD;
	ev->u.page.more_after = true;
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	assert_int_equal(m.unread_rowid, 200);
	assert_true(m.more_after);
	/* opened with none unread: no line */
	cmd_free(ui_msgs_open_unread(&m, ALICE, 0));
	assert_int_equal(m.unread_rowid, 0);
	ev = page_ev(ALICE, 0, 300, 10, 0);
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	/* at the bottom a new message is shown */
	m.width = 40;
	ev = msg_ev(ALICE, "NEW1", 0, "new one");
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	assert_false(m.unseen);
	/* reading back, the next is held under the view: not shown */
	m.scroll = 5;
	ev = msg_ev(ALICE, "NEW2", 0, "new two");
	assert_false(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	assert_int_equal(m.n, 12);
	assert_true(m.unseen);
	assert_int_equal(m.unseen_n, 1);
	assert_int_equal(m.scroll, 5 + 2);
	scroll = m.scroll;
	ev = msg_ev(ALICE, "NEW3", 0, "new three");
	(void)ui_msgs_apply(&m, ev, NULL);
	ev_free(ev);
	assert_int_equal(m.unseen_n, 2);
	assert_true(m.scroll > scroll);
	/* the bottom reached: seen */
	ui_msgs_scroll(&m, -m.scroll);
	assert_false(m.unseen);
	assert_int_equal(m.unseen_n, 0);
	ui_msgs_release(&m);
}

static void
test_ui_msgs__pages_back_by_keyset_and_keeps_three_pages(void **st)
{
	struct ui_msgs	 m;
	struct cmd	*c;
	struct ev	*ev;

	(void)st;
	ui_msgs_init(&m);
	c = ui_msgs_open(&m, ALICE);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_NEWEST);
	cmd_free(c);
	assert_null(ui_msgs_more(&m, -1));	/* the first page is due */
	ev = page_ev(ALICE, 0, 1000, 50, 1);
	assert_true(ui_msgs_page(&m, ev));
	ev_free(ev);
	assert_int_equal(m.n, 50);
	c = ui_msgs_more(&m, -1);
	assert_non_null(c);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_BEFORE);
	/* The cursor of the oldest row held: ts_ms:rowid. */
	assert_cursor(c, 1700000000000LL, 1000);
	assert_null(ui_msgs_more(&m, -1));	/* one at a time */
	cmd_free(c);
	ev = page_ev(ALICE, -1, 950, 50, 1);
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	c = ui_msgs_more(&m, -1);
	assert_cursor(c, 1699999950000LL, 950);
	cmd_free(c);
	ev = page_ev(ALICE, -1, 900, 50, 1);
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	assert_int_equal(m.n, 150);
	assert_false(m.more_after);
	c = ui_msgs_more(&m, -1);
	cmd_free(c);
	ev = page_ev(ALICE, -1, 850, 50, 0);
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	/* Never more than three pages: the newest went. */
	assert_int_equal(m.n, UI_MSGS_KEEP);
	assert_int_equal(m.v[0].rowid, 850);
	assert_int_equal(m.v[m.n - 1].rowid, 999);
	assert_false(m.more_before);
	assert_true(m.more_after);
	assert_null(ui_msgs_more(&m, -1));
	c = ui_msgs_more(&m, 1);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_AFTER);
	assert_cursor(c, 1699999999000LL, 999);
	cmd_free(c);
	ev = page_ev(ALICE, 1, 1000, 50, 0);
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	assert_int_equal(m.n, UI_MSGS_KEEP);
	assert_int_equal(m.v[0].rowid, 900);
	assert_true(m.more_before);
	assert_false(m.more_after);
	ui_msgs_release(&m);
}

static void
test_ui_msgs__updates_rows_in_place_and_sanitises_text(void **st)
{
	struct ui_msgs	 m;
	struct cmd	*c;
	struct ev	*ev;
	int		 i;

	(void)st;
	ui_msgs_init(&m);
	cmd_free(ui_msgs_open(&m, ALICE));
	ev = page_ev(ALICE, 0, 1, 3, 0);
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	ev = msg_ev(ALICE, "OUT1", 1,
	    "a\x1b[2Jb\x1b]52;c;aGk=\x07" "c\rd\xe2\x80\xae" "e\n" "f");
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	i = ui_msgs_find(&m, "OUT1");
	assert_int_equal(i, 3);
	assert_null(strchr(m.v[i].text, 0x1b));
	assert_null(strchr(m.v[i].text, 0x07));
	assert_null(strchr(m.v[i].text, '\r'));
	assert_null(strstr(m.v[i].text, "\xe2\x80\xae"));
	assert_non_null(strstr(m.v[i].text, "\xef\xbf\xbd"));
	assert_non_null(strchr(m.v[i].text, '\n'));	/* kept: multiline */
	assert_int_equal(m.v[i].tick, UI_TICK_QUEUED);
	ev = ev_new(EV_MSG_STATE);
	ev_set(&ev->u.msg_state.key.chat, ALICE);
	ev_set(&ev->u.msg_state.key.id, "OUT1");
	ev->u.msg_state.state = EV_STATE_DELIVERED;
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	assert_int_equal(m.v[i].tick, UI_TICK_DELIVERED);
	ev = ev_new(EV_MSG_CHANGED);
	ev_set(&ev->u.msg_changed.key.chat, ALICE);
	ev_set(&ev->u.msg_changed.key.id, "ID1");
	ev->u.msg_changed.deleted = true;
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	assert_true(m.v[0].deleted);
	ev = ev_new(EV_MSG_CHANGED);
	ev_set(&ev->u.msg_changed.text, "new\x1b text");
	ev_set(&ev->u.msg_changed.key.chat, ALICE);
	ev_set(&ev->u.msg_changed.key.id, "ID2");
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	assert_true(m.v[1].edited);
	assert_null(strchr(m.v[1].text, 0x1b));
	/* A reaction to a stored row reads it again: the row after the
	 * cursor just before it. */
	ev = ev_new(EV_REACTION);
	ev_set(&ev->u.reaction.emoji, "\xe2\x9d\xa4\x1b");
	ev_set(&ev->u.reaction.target.chat, ALICE);
	ev_set(&ev->u.reaction.target.id, "ID3");
	ev_set(&ev->u.reaction.sender, ALICE);
	assert_true(ui_msgs_apply(&m, ev, &c));
	ev_free(ev);
	assert_non_null(c);
	assert_int_equal(c->kind, CMD_LOAD_PAGE);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_AFTER);
	assert_int_equal(c->u.load_page.max, 1);
	assert_cursor(c, 1699999003000LL, 2);
	cmd_free(c);
	assert_null(strchr(reacts_line(&m, 2, 80), 0x1b));
	/* The answer refreshes the row in place, adds none. */
	ev = page_ev(ALICE, 1, 3, 1, 1);
	ev->u.page.msgs[0].reactions = xcalloc(1,
	    sizeof(*ev->u.page.msgs[0].reactions));
	ev->u.page.msgs[0].reactions[0].emoji = xstrdup("\xe2\x9d\xa4");
	ev->u.page.msgs[0].reactions[0].count = 2;
	ev->u.page.msgs[0].nreactions = 1;
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	assert_int_equal(m.n, 4);
	assert_string_equal(reacts_line(&m, 2, 80), "\xe2\x9d\xa4 2");
	/* Another chat's events change nothing. */
	ev = msg_ev(BOB, "X", 0, "x");
	assert_false(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	ui_msgs_release(&m);
}

/* A reaction the engine counted: the row shows every sender's as the
 * store has them, and no page is asked for again. */
static void
test_ui_msgs__shows_the_engines_count__of_a_counted_reaction(void **st)
{
	struct ui_msgs	 m;
	struct cmd	*c = NULL;
	struct ev	*ev;

	(void)st;
	ui_msgs_init(&m);
	cmd_free(ui_msgs_open(&m, ALICE));
	ev = page_ev(ALICE, 0, 1, 3, 0);
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	ev = ev_new(EV_REACTION);
	ev_set(&ev->u.reaction.emoji, "\xe2\x9d\xa4");
	ev_set(&ev->u.reaction.target.chat, ALICE);
	ev_set(&ev->u.reaction.target.id, "ID3");
	ev_set(&ev->u.reaction.sender, ALICE);
	ev->u.reaction.counted = true;
	ev->u.reaction.tally = xcalloc(2, sizeof(*ev->u.reaction.tally));
	ev->u.reaction.tally[0].emoji = xstrdup("\xf0\x9f\x91\x8d");
	ev->u.reaction.tally[0].count = 1;
	ev->u.reaction.tally[1].emoji = xstrdup("\xe2\x9d\xa4");
	ev->u.reaction.tally[1].count = 3;
	ev->u.reaction.ntally = 2;
	assert_true(ui_msgs_apply(&m, ev, &c));
	ev_free(ev);
	assert_null(c);
	assert_string_equal(reacts_line(&m, 2, 80),
	    "\xf0\x9f\x91\x8d  \xe2\x9d\xa4 3");
	/* every reaction taken back: none shown */
	ev = ev_new(EV_REACTION);
	ev_set(&ev->u.reaction.target.chat, ALICE);
	ev_set(&ev->u.reaction.target.id, "ID3");
	ev->u.reaction.counted = true;
	assert_true(ui_msgs_apply(&m, ev, &c));
	ev_free(ev);
	assert_null(c);
	assert_string_equal(reacts_line(&m, 2, 80), "");
	ui_msgs_release(&m);
}

/* tally[k] of ev: emoji sent by who[0..n) (NULL: ours) named names. */
static void
tally_set(struct ev_tally *t, const char *emoji, uint32_t count,
    const char *const *who, const char *const *names, uint32_t n)
{
	uint32_t	 j;

	t->emoji = xstrdup(emoji);
	t->count = count;
	t->who = xcalloc(n > 0 ? n : 1, sizeof(*t->who));
	for (j = 0; j < n; j++) {
		t->who[j].sender = xstrdup(who[j] != NULL ? who[j] : "");
		t->who[j].name = xstrdup(names[j]);
	}
	t->nwho = n;
}

/* Who reacted, by name: ours "You", a named contact by the name known
 * (control characters gone), an unnamed one by number; names that do not
 * fit the width counted as "+n"; a sender's reaction the engine did not
 * count moves to the new emoji, and its removal takes it away. */
static void
test_ui_msgs__names_who_reacted__within_the_width(void **st)
{
	static const char *const who1[] = { BOB, NULL };
	static const char *const names1[] = { "Bob\x1b[2J", "" };
	static const char *const who2[] = { ALICE };
	static const char *const names2[] = { "" };
	struct ui_msgs	 m;
	struct cmd	*c = NULL;
	struct ev	*ev;
	const char	*l;

	(void)st;
	ui_msgs_init(&m);
	cmd_free(ui_msgs_open(&m, ALICE));
	ev = page_ev(ALICE, 0, 1, 3, 0);
	(void)ui_msgs_page(&m, ev);
	ev_free(ev);
	ev = ev_new(EV_REACTION);
	ev_set(&ev->u.reaction.target.chat, ALICE);
	ev_set(&ev->u.reaction.target.id, "ID3");
	ev->u.reaction.counted = true;
	ev->u.reaction.tally = xcalloc(2, sizeof(*ev->u.reaction.tally));
	tally_set(&ev->u.reaction.tally[0], "\xf0\x9f\x91\x8d", 2, who1,
	    names1, 2);
	tally_set(&ev->u.reaction.tally[1], "\xe2\x9d\xa4", 1, who2, names2,
	    1);
	ev->u.reaction.ntally = 2;
	assert_true(ui_msgs_apply(&m, ev, &c));
	ev_free(ev);
	assert_null(c);
	l = reacts_line(&m, 2, 80);
	assert_null(strchr(l, 0x1b));
	assert_string_equal(l, "\xf0\x9f\x91\x8d 2 Bob\xef\xbf\xbd[2J, You  "
	    "\xe2\x9d\xa4 +15550000002");
	/* 20 columns: the thumbs' names, not the heart's */
	assert_string_equal(reacts_line(&m, 2, 20),
	    "\xf0\x9f\x91\x8d 2 Bob\xef\xbf\xbd[2J, You  \xe2\x9d\xa4");
	/* 19: the first name and "+1" */
	assert_string_equal(reacts_line(&m, 2, 19),
	    "\xf0\x9f\x91\x8d 2 Bob\xef\xbf\xbd[2J, +1  \xe2\x9d\xa4");
	/* 8: the emoji and counts only */
	assert_string_equal(reacts_line(&m, 2, 8),
	    "\xf0\x9f\x91\x8d 2  \xe2\x9d\xa4");
	/* Bob's next, not counted: his moves to the heart, then goes */
	ev = ev_new(EV_REACTION);
	ev_set(&ev->u.reaction.target.chat, ALICE);
	ev_set(&ev->u.reaction.target.id, "ID3");
	ev_set(&ev->u.reaction.sender, BOB);
	ev_set(&ev->u.reaction.emoji, "\xe2\x9d\xa4");
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	assert_string_equal(reacts_line(&m, 2, 80), "\xf0\x9f\x91\x8d You  "
	    "\xe2\x9d\xa4 2 +15550000002, +15550000003");
	ev = ev_new(EV_REACTION);
	ev_set(&ev->u.reaction.target.chat, ALICE);
	ev_set(&ev->u.reaction.target.id, "ID3");
	ev_set(&ev->u.reaction.sender, BOB);
	assert_true(ui_msgs_apply(&m, ev, NULL));
	ev_free(ev);
	assert_string_equal(reacts_line(&m, 2, 80), "\xf0\x9f\x91\x8d You  "
	    "\xe2\x9d\xa4 +15550000002");
	ui_msgs_release(&m);
}

static void
test_ui_chats__sanitises_names_previews_and_shows_numbers(void **st)
{
	struct ui_chats	 c;
	struct ev	*ev = chats_ev(1, 0);

	(void)st;
	ui_chats_init(&c);
	ui_chats_set(&c, ev, NULL, 0);
	ev_free(ev);
	assert_int_equal(c.n, 2);
	assert_null(strchr(c.v[0].preview, 0x1b));
	assert_string_equal(c.v[0].name, "Alice");
	assert_string_equal(c.v[1].name, "+15550000003");
	assert_null(ui_chats_selected(&c));
	assert_true(ui_chats_next_unread(&c));
	assert_string_equal(ui_chats_selected(&c)->jid, ALICE);
	assert_false(ui_chats_next_unread(&c));	/* only Alice's */
	ui_chats_release(&c);
}

/* Issue 18: an archived chat is out of the list, counted on the Archived
 * row and shown in the folder; choosing it shows its folder; a mute that
 * ends while the list is shown ends there too. */
static void
test_ui_chats__keeps_archived_chats_in_their_folder_and_ends_mutes(
    void **st)
{
	struct ui_chats	 c;
	struct ev	*ev = chats_ev(1, 2);
	size_t		 lo, hi;
	int		 k;

	(void)st;
	ev->u.chats.chats[0].muted_until = NOW + 1000;
	ev->u.chats.chats[1].archived = true;
	ui_chats_init(&c);
	ui_chats_set(&c, ev, NULL, NOW);
	ev_free(ev);
	assert_int_equal(c.narch, 1);
	assert_true(c.v[0].muted);
	ui_chats_range(&c, &lo, &hi);
	assert_int_equal(hi - lo, 1);			/* Alice alone */
	assert_false(ui_chats_slot(&c, 0, &k));
	assert_int_equal(k, 0);
	assert_true(ui_chats_slot(&c, 1, &k));		/* the Archived row */
	assert_int_equal(ui_chats_archived_unread(&c), 1);
	assert_true(ui_chats_move(&c, 1));
	assert_string_equal(ui_chats_selected(&c)->jid, ALICE);
	assert_true(ui_chats_move(&c, 1));		/* not into Bob's */
	assert_string_equal(ui_chats_selected(&c)->jid, ALICE);
	ui_chats_folder(&c, true);
	ui_chats_range(&c, &lo, &hi);
	assert_int_equal(hi - lo, 1);
	assert_string_equal(c.v[lo].jid, BOB);
	assert_false(ui_chats_slot(&c, 1, &k));	/* no Archived row */
	assert_int_equal(k, -1);
	ui_chats_folder(&c, false);
	assert_true(ui_chats_select(&c, BOB));		/* as the picker */
	assert_true(c.folder);
	assert_false(ui_chats_tick(&c, NOW + 999));	/* not yet over */
	assert_true(ui_chats_tick(&c, NOW + 1000));	/* over at its time */
	assert_false(c.v[0].muted);
	ui_chats_release(&c);
}

/* A name that hides zero-width characters shows without them (it cannot
 * pass for another), and one made of nothing visible shows the number. */
static void
test_ui_chats__drops_invisible_characters_from_names(void **st)
{
	struct ui_chats	 c;
	struct ev	*ev = chats_ev(0, 0);

	(void)st;
	free(ev->u.chats.chats[0].name);
	ev->u.chats.chats[0].name = xstrdup("Al\xe2\x80\x8bice\xef\xbb\xbf");
	free(ev->u.chats.chats[1].name);
	ev->u.chats.chats[1].name = xstrdup("\xe2\x80\x8b\xe3\x85\xa4 ");
	ui_chats_init(&c);
	ui_chats_set(&c, ev, NULL, 0);
	ev_free(ev);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[0].name, "Alice");
	assert_string_equal(c.v[1].name, "+15550000003");
	ui_chats_release(&c);
}

static void
test_ui_chats_when__gives_the_time_today_else_the_date(void **st)
{
	char	 out[32];

	(void)st;
	setenv("TZ", "UTC", 1);
	tzset();
	/* 2023-11-14 22:13:20 UTC */
	ui_chats_when(NOW, NOW + 60000, out, sizeof(out));
	assert_string_equal(out, "22:13");
	ui_chats_when(NOW - 86400000LL, NOW, out, sizeof(out));
	assert_string_equal(out, "13 Nov");
	ui_chats_when(NOW - 400LL * 86400000LL, NOW, out, sizeof(out));
	assert_string_equal(out, "2022-10-10");
}

/* A day typed to jump to (issue 17 point 8). */
static void
test_ui_chats_parse_day__takes_a_date_today_yesterday_and_weekdays(
    void **st)
{
	const int64_t	 day = 86400000LL, midnight = 1699920000000LL;
	int64_t		 ms = 0;
	char		 label[16];

	(void)st;
	setenv("TZ", "UTC", 1);
	tzset();
	/* now: Tue 2023-11-14 22:13:20 UTC; its midnight 1699920000 s */
	assert_true(ui_chats_parse_day("2023-11-14", NOW, &ms, label,
	    sizeof(label)));
	assert_int_equal(ms, midnight);
	assert_string_equal(label, "2023-11-14");
	assert_true(ui_chats_parse_day(" 2020-02-29 ", NOW, &ms, label,
	    sizeof(label)));
	assert_string_equal(label, "2020-02-29");
	assert_true(ui_chats_parse_day("today", NOW, &ms, label,
	    sizeof(label)));
	assert_int_equal(ms, midnight);
	assert_true(ui_chats_parse_day("Yesterday", NOW, &ms, label,
	    sizeof(label)));
	assert_int_equal(ms, midnight - day);
	assert_string_equal(label, "2023-11-13");
	/* the last such day, today included */
	assert_true(ui_chats_parse_day("tuesday", NOW, &ms, label,
	    sizeof(label)));
	assert_int_equal(ms, midnight);
	assert_true(ui_chats_parse_day("WEDNESDAY", NOW, &ms, label,
	    sizeof(label)));
	assert_int_equal(ms, midnight - 6 * day);
	assert_string_equal(label, "2023-11-08");
	/* not dates */
	assert_false(ui_chats_parse_day("2023-02-30", NOW, &ms, label,
	    sizeof(label)));
	assert_false(ui_chats_parse_day("2023-13-01", NOW, &ms, label,
	    sizeof(label)));
	assert_false(ui_chats_parse_day("2023-11-14x", NOW, &ms, label,
	    sizeof(label)));
	assert_false(ui_chats_parse_day("", NOW, &ms, label, sizeof(label)));
	assert_false(ui_chats_parse_day("someday", NOW, &ms, label,
	    sizeof(label)));
}

/* The chat list's short dates (issue 17 point 10). */
static void
test_ui_chats_list_when__says_yesterday_a_weekday_or_a_short_date(
    void **st)
{
	const int64_t	 day = 86400000LL;
	char		 out[64];

	(void)st;
	setenv("TZ", "UTC", 1);
	tzset();
	/* now: Tue 2023-11-14 22:13:20 UTC */
	ui_chats_list_when(NOW - 3600000LL, NOW, out, sizeof(out));
	assert_string_equal(out, "21:13");
	ui_chats_list_when(NOW - day, NOW, out, sizeof(out));
	assert_string_equal(out, "Yesterday");
	/* just before today's midnight is yesterday too */
	ui_chats_list_when(NOW - 22LL * 3600000LL - 14LL * 60000LL, NOW, out,
	    sizeof(out));
	assert_string_equal(out, "Yesterday");
	ui_chats_list_when(NOW - 2 * day, NOW, out, sizeof(out));
	assert_string_equal(out, "Sun");
	ui_chats_list_when(NOW - 6 * day, NOW, out, sizeof(out));
	assert_string_equal(out, "Wed");
	ui_chats_list_when(NOW - 7 * day, NOW, out, sizeof(out));
	assert_string_equal(out, "07 Nov");
	ui_chats_list_when(NOW - 400 * day, NOW, out, sizeof(out));
	assert_string_equal(out, "Oct 2022");
	assert_true(strlen(out) < 10);
}

static void
test_ui_keys__parse_names_and_bind_actions(void **st)
{
	struct ui_keymap	 km;
	const char		*why = NULL;
	char			 name[32];
	int			 k;

	(void)st;
	ui_keys_default(&km);
	assert_int_equal(ui_keys_action(&km, 0x11), UI_ACT_QUIT);
	assert_int_equal(ui_keys_action(&km, '\t'), UI_ACT_NEXT_CHAT);
	assert_int_equal(ui_keys_action(&km, 'q'), UI_ACT_NONE);
	assert_int_equal(ui_keys_parse("F1", &k), 0);
	assert_int_equal(k, UI_KEY_FN + KEY_F(1));
	assert_int_equal(ui_keys_parse("Alt-s", &k), 0);
	assert_int_equal(k, UI_KEY_ALT + 's');
	assert_int_equal(ui_keys_parse("ctrl-1", &k), -EINVAL);
	assert_int_equal(ui_keys_parse("f13", &k), -EINVAL);
	assert_int_equal(ui_keys_parse("", &k), -EINVAL);
	assert_int_equal(ui_keys_parse("ab", &k), -EINVAL);
	assert_int_equal(ui_keys_bind(&km, "help", "f1", &why), 0);
	assert_int_equal(ui_keys_action(&km, UI_KEY_FN + KEY_F(1)),
	    UI_ACT_HELP);
	assert_int_equal(ui_keys_bind(&km, "fly", "f1", &why), -EINVAL);
	assert_non_null(why);
	assert_int_equal(ui_keys_bind(&km, "send", "ctrl-", &why), -EINVAL);
	/* the defaults share no key; help on quit's key clashes with it */
	for (k = 0; k < UI_ACT_COUNT; k++)
		assert_int_equal(ui_keys_clash(&km, ui_keys_action_name(
		    (enum ui_key_action)k)), -1);
	assert_int_equal(ui_keys_bind(&km, "help", "ctrl-q", &why), 0);
	assert_int_equal(ui_keys_clash(&km, "help"), UI_ACT_QUIT);
	assert_int_equal(ui_keys_clash(&km, "quit"), UI_ACT_HELP);
	assert_int_equal(ui_keys_bind(&km, "help", "f1", &why), 0);
	ui_keys_name(UI_KEY_ALT + 's', name, sizeof(name));
	assert_string_equal(name, "Alt-s");
	ui_keys_name(0x18, name, sizeof(name));
	assert_string_equal(name, "Ctrl-x");
	ui_keys_name(UI_KEY_FN + KEY_NPAGE, name, sizeof(name));
	assert_string_equal(name, "PgDn");
}

/* The text of screen row y from column x, n cells (wide cells once). */
static void
row_text(int y, int x, int n, char *out, size_t size)
{
	wchar_t	 w[256];
	int	 got;

	out[0] = '\0';
	got = mvinnwstr(y, x, w, n < 255 ? n : 255);
	if (got != ERR)
		(void)wcstombs(out, w, size);
}

/* The view drawn on a curses screen (a terminal of /dev/null): the pane
 * border is straight, text after wide clusters starts where ui/text.c
 * says, and a box too small is refused. */
static void
test_ui_view_draw__lays_out_wide_text_in_its_columns(void **st)
{
	struct fixture	*f = *st;
	FILE		*out = fopen("/dev/null", "w");
	FILE		*in = fopen("/dev/null", "r");
	SCREEN		*sc;
	struct ev	*ev;
	char		 text[512];
	int		 y, lw = 20, cols, k;
	cchar_t		 cc;
	wchar_t		 wc[CCHARW_MAX + 1];
	attr_t		 at;
	short		 pair;
	bool		 found = false;

	assert_non_null(out);
	assert_non_null(in);
	sc = newterm("xterm", out, in);
	assert_non_null(sc);
	(void)resizeterm(20, 60);
	open_alice(f, 0);
	ev = page_ev(ALICE, 0, 1, 1, 0);
	free(ev->u.page.msgs[0].text);
	ev->u.page.msgs[0].text = xstrdup("\xe4\xb8\xad\xe6\x96\x87"
	    "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"
	    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9X");
	apply(f->v, ev);
	/* For a terminal that draws clusters whole (ui/text.h). */
	ui_text_set_clusters(true);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 19, 60, NOW));
	/* The list's border, straight down every row but the help line. */
	for (y = 1; y < 19; y++)
		assert_int_equal(mvinch(y, lw) & A_CHARTEXT,
		    ACS_VLINE & A_CHARTEXT);
	/* "中文👍🏽👨‍👩X": 2+2+2+2 columns, then X, at the indent. */
	for (y = 1; y < 19 && !found; y++) {
		row_text(y, lw + 1, 39, text, sizeof(text));
		if (strstr(text, "\xe4\xb8\xad") == NULL)
			continue;
		found = true;
		cols = lw + 1 + 1 + 2;	/* border, pane margin, indent */
		assert_int_equal(mvin_wch(y, cols + 8, &cc), OK);
		assert_int_equal(getcchar(&cc, wc, &at, &pair, NULL), OK);
		assert_int_equal(wc[0], L'X');
		/* The thumbs up keeps its skin tone in its cell. */
		assert_int_equal(mvin_wch(y, cols + 4, &cc), OK);
		k = getcchar(&cc, NULL, &at, &pair, NULL);
		assert_true(k >= 2);
	}
	assert_true(found);
	/* For one that draws each character (xterm, tmux 3.3): the skin
	 * tone in a cell of its own after the thumb, the man and the woman
	 * each in theirs (no joiner left dangling at a cell's end): X at
	 * +12. */
	ui_text_set_clusters(false);
	ev = page_ev(ALICE, 0, 1, 1, 0);
	free(ev->u.page.msgs[0].text);
	ev->u.page.msgs[0].text = xstrdup("\xe4\xb8\xad\xe6\x96\x87"
	    "\xf0\x9f\x91\x8d\xf0\x9f\x8f\xbd"
	    "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9X");
	apply(f->v, ev);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 19, 60, NOW));
	found = false;
	for (y = 1; y < 19 && !found; y++) {
		row_text(y, lw + 1, 39, text, sizeof(text));
		if (strstr(text, "\xe4\xb8\xad") == NULL)
			continue;
		found = true;
		cols = lw + 1 + 1 + 2;
		assert_int_equal(mvin_wch(y, cols + 12, &cc), OK);
		assert_int_equal(getcchar(&cc, wc, &at, &pair, NULL), OK);
		assert_int_equal(wc[0], L'X');
		assert_int_equal(mvin_wch(y, cols + 6, &cc), OK);
		assert_int_equal(getcchar(&cc, wc, &at, &pair, NULL), OK);
		assert_int_equal(wc[0], 0x1f3fd);
		assert_int_equal(mvin_wch(y, cols + 8, &cc), OK);
		assert_int_equal(getcchar(&cc, wc, &at, &pair, NULL), OK);
		assert_int_equal(wc[0], 0x1f468);
		assert_int_equal(mvin_wch(y, cols + 10, &cc), OK);
		assert_int_equal(getcchar(&cc, wc, &at, &pair, NULL), OK);
		assert_int_equal(wc[0], 0x1f469);
	}
	assert_true(found);
	/* The input line, under its rule, above the help line. */
	assert_int_equal(mvinch(17, lw + 1) & A_CHARTEXT,
	    ACS_HLINE & A_CHARTEXT);
	row_text(18, lw + 1, 3, text, sizeof(text));
	assert_string_equal(text, ">  ");
	row_text(19, 0, 12, text, sizeof(text));
	assert_string_equal(text, " Enter send ");
	/* Too small: nothing drawn, the caller says so. */
	assert_false(ui_view_draw(f->v, 1, 0, 9, 30, NOW));
	endwin();
	delscreen(sc);
	fclose(out);
	fclose(in);
}

/* wachat.conf's key-ACTION names (src/conf.c) are the screen's actions. */
static void
test_ui_keys__binds_every_action_the_settings_file_names(void **st)
{
	struct ui_keymap	 km;
	const char		*why = NULL;
	int			 i, f1;

	(void)st;
	assert_true(CONF_KEY_ACTIONS <= UI_ACT_COUNT);
	assert_int_equal(ui_keys_parse("f1", &f1), 0);
	for (i = 0; i < CONF_KEY_ACTIONS; i++) {
		ui_keys_default(&km);
		assert_int_equal(ui_keys_bind(&km, conf_key_actions[i], "f1",
		    &why), 0);
		/* The same action, at the same number. */
		assert_int_equal(ui_keys_action(&km, f1), i);
		assert_string_equal(ui_keys_action_name(ui_keys_action(&km,
		    f1)), conf_key_actions[i]);
	}
	/* Every action: once src/conf.c's list names the group actions
	 * (group-info, group-new, group-leave) too. */
#if CONF_KEY_ACTIONS == UI_KEY_ACTIONS
	assert_int_equal(CONF_KEY_ACTIONS, UI_ACT_COUNT);
#endif
}


/* ---- groups ---- */

#define GROUP	"120363000000000001@g.us"
#define ME	"15550000001@s.whatsapp.net"
#define CAROL	"123456789012345@lid"
#define DAN	"987654321098765@lid"
#define ZED	"15550000005@s.whatsapp.net"

/* admin: 0 a member, 1 an admin, 2 the creator */
static void
member(struct ev_member *m, const char *jid, const char *name, int admin,
    int is_me)
{
	m->jid = xstrdup(jid);
	m->alt = xstrdup("");
	m->name = xstrdup(name);
	m->role = admin == 2 ? EV_ROLE_CREATOR : admin == 1 ? EV_ROLE_ADMIN :
	    EV_ROLE_MEMBER;
	m->is_me = is_me != 0;
}

/* GROUP "Hikers": Zed made it, Alice is an admin, Carol (a LID), us,
 * Bob and Dan (a LID) without names; left as given. */
static struct ev *
group_ev(const char *subject, int left)
{
	struct ev	*ev = ev_new(EV_GROUP);

	ev_set(&ev->u.group.jid, GROUP);
	ev_set(&ev->u.group.subject, subject);
	ev_set(&ev->u.group.description, "Sundays\x1b[2J at nine");
	ev->u.group.left = left != 0;
	ev->u.group.nmembers = 6;
	ev->u.group.members = xcalloc(6, sizeof(*ev->u.group.members));
	member(&ev->u.group.members[0], BOB, "", 0, 0);
	member(&ev->u.group.members[1], ME, "", 0, 1);
	member(&ev->u.group.members[2], DAN, "", 0, 0);
	member(&ev->u.group.members[3], CAROL, "Carol", 0, 0);
	member(&ev->u.group.members[4], ALICE, "Alice\x1b]0;x\x07", 1, 0);
	member(&ev->u.group.members[5], ZED, "Zed", 2, 0);
	return ev;
}

/* The list: the group first (with its last message at NOW), then Alice. */
static struct ev *
group_chats_ev(const char *preview, int last_from_me)
{
	struct ev	*ev = ev_new(EV_CHATS);

	ev->u.chats.nchats = 2;
	ev->u.chats.chats = xcalloc(2, sizeof(*ev->u.chats.chats));
	ev->u.chats.chats[0].jid = xstrdup(GROUP);
	ev->u.chats.chats[0].name = xstrdup("Hikers");
	ev->u.chats.chats[0].preview = xstrdup(preview);
	ev->u.chats.chats[0].last_ms = NOW;
	ev->u.chats.chats[0].last_from_me = last_from_me;
	ev->u.chats.chats[1].jid = xstrdup(ALICE);
	ev->u.chats.chats[1].name = xstrdup("Alice");
	ev->u.chats.chats[1].preview = xstrdup("yo");
	ev->u.chats.chats[1].last_ms = NOW - 1000;
	return ev;
}

static struct ev *
group_msg_ev(const char *id, const char *sender, const char *name,
    const char *text)
{
	struct ev	*ev = msg_ev(GROUP, id, sender[0] == '\0', text);

	ev_set(&ev->u.message.key.sender, sender);
	ev_set(&ev->u.message.sender_name, name);
	return ev;
}

/* Connected, the group's members known, its list row in and opened. */
static void
open_group(struct fixture *f)
{
	apply(f->v, connected_ev());
	apply(f->v, group_ev("Hikers", 0));
	apply(f->v, group_chats_ev("hi", 0));
	(void)ui_view_key(f->v, '\t', NOW);
	assert_string_equal(ui_view_open_chat(f->v), GROUP);
	apply(f->v, page_ev(GROUP, 0, 100, 0, 0));
}

static int
key(const char *name)
{
	int	 k = 0;

	assert_int_equal(ui_keys_parse(name, &k), 0);
	return k;
}

static void
test_ui_chats__a_group_row_shows_the_sender_before_its_preview(void **st)
{
	struct fixture		*f = *st;
	const struct ui_chats	*c;

	apply(f->v, connected_ev());
	apply(f->v, group_ev("Hikers", 0));
	/* A message of Alice's, her name from the event. */
	apply(f->v, group_msg_ev("G1", ALICE, "Alice", "hi\x1b[2J all"));
	apply(f->v, group_chats_ev("hi\x1b[2J all", 0));
	c = ui_view_chats(f->v);
	assert_int_equal(c->n, 2);
	assert_string_equal(c->v[0].name, "Hikers");
	assert_true(c->v[0].group);
	assert_non_null(strstr(c->v[0].preview, "Alice: hi"));
	assert_null(strchr(c->v[0].preview, 0x1b));
	/* Bob's, without a name: his number. */
	apply(f->v, group_msg_ev("G2", BOB, "", "yo"));
	apply(f->v, group_chats_ev("yo", 0));
	assert_string_equal(ui_view_chats(f->v)->v[0].preview,
	    "+15550000003: yo");
	/* Ours, a mention by name. */
	apply(f->v, group_chats_ev("me @123456789012345", 1));
	assert_string_equal(ui_view_chats(f->v)->v[0].preview,
	    "You: me @Carol");
	/* A 1:1 chat's preview has no name before it. */
	assert_string_equal(ui_view_chats(f->v)->v[1].preview, "yo");
	/* After a restart the list itself names the author (EV_CHATS
	 * last_sender / last_sender_name), sanitised. */
	{
		struct ev	*ev = group_chats_ev("back again", 0);

		ev->u.chats.chats[0].last_ms = NOW + 5000;
		ev->u.chats.chats[0].last_sender = xstrdup(ALICE);
		ev->u.chats.chats[0].last_sender_name =
		    xstrdup("Ali\x1b[31mce");
		apply(f->v, ev);
	}
	assert_null(strchr(ui_view_chats(f->v)->v[0].preview, 0x1b));
	assert_non_null(strstr(ui_view_chats(f->v)->v[0].preview,
	    "ce: back again"));
}

static void
test_ui_view__opening_a_group_asks_for_its_info_not_its_presence(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	apply(f->v, connected_ev());
	apply(f->v, group_chats_ev("hi", 0));
	(void)ui_view_key(f->v, '\t', NOW);
	assert_string_equal(ui_view_open_chat(f->v), GROUP);
	assert_int_equal(count(&f->sink, CMD_SUBSCRIBE, NULL), 0);
	assert_int_equal(count(&f->sink, CMD_GROUP_INFO, &c), 1);
	assert_string_equal(c->u.group_info.chat, GROUP);
	/* Known: not asked again when it opens again. */
	apply(f->v, group_ev("Hikers", 0));
	(void)ui_view_key(f->v, '\t', NOW);
	(void)ui_view_key(f->v, '\t', NOW);
	assert_string_equal(ui_view_open_chat(f->v), GROUP);
	assert_int_equal(count(&f->sink, CMD_GROUP_INFO, NULL), 1);
	assert_int_equal(count(&f->sink, CMD_SUBSCRIBE, &c), 1);
	assert_string_equal(c->u.subscribe.chat, ALICE);
}

/* Row i's sender as the header shows it. */
static void
sender_of(struct ui_msgs *m, int i, char *out, size_t size, int *colour)
{
	struct buf	 b = BUF_INIT;

	assert_true(i >= 0);
	ui_msgs_sender(m, (size_t)i, "peer", &b, colour);
	snprintf(out, size, "%s", (char *)b.p);
	buf_release(&b);
}

static void
test_ui_view__group_messages_name_each_sender_in_their_colour(void **st)
{
	struct fixture	*f = *st;
	struct ui_msgs	*m;
	char		 name[64];
	int		 colour;

	open_group(f);
	apply(f->v, group_msg_ev("A", ALICE, "", "a"));
	apply(f->v, group_msg_ev("B", BOB, "", "b"));
	apply(f->v, group_msg_ev("C", CAROL, "", "c"));
	apply(f->v, group_msg_ev("D", DAN, "", "d"));
	apply(f->v, group_msg_ev("E", "15550000009@s.whatsapp.net",
	    "Eve\x1b[31m", "e"));
	apply(f->v, group_msg_ev("M", "", "", "mine"));
	m = ui_view_msgs(f->v);
	/* The member's name (sanitised), from the last EV_GROUP. */
	sender_of(m, ui_msgs_find(m, "A"), name, sizeof(name), &colour);
	assert_non_null(strstr(name, "Alice"));
	assert_null(strchr(name, 0x1b));
	assert_null(strchr(name, 0x07));
	assert_int_equal(colour, (int)ui_group_colour(ALICE));
	/* No name: +digits of a PN, a short LID. */
	sender_of(m, ui_msgs_find(m, "B"), name, sizeof(name), &colour);
	assert_string_equal(name, "+15550000003");
	sender_of(m, ui_msgs_find(m, "C"), name, sizeof(name), &colour);
	assert_string_equal(name, "Carol");
	sender_of(m, ui_msgs_find(m, "D"), name, sizeof(name), &colour);
	assert_string_equal(name, "~\xe2\x80\xa6" "098765");
	/* The message's own name first, sanitised. */
	sender_of(m, ui_msgs_find(m, "E"), name, sizeof(name), &colour);
	assert_null(strchr(name, 0x1b));
	assert_int_equal(strncmp(name, "Eve", 3), 0);
	/* Ours: "You", no colour. */
	sender_of(m, ui_msgs_find(m, "M"), name, sizeof(name), &colour);
	assert_string_equal(name, "You");
	assert_int_equal(colour, -1);
	/* A page's rows carry their names too. */
	{
		struct ev	*ev = page_ev(GROUP, 0, 1, 1, 0);

		free(ev->u.page.msgs[0].sender);
		ev->u.page.msgs[0].sender =
		    xstrdup("15550000008@s.whatsapp.net");
		free(ev->u.page.msgs[0].sender_name);
		ev->u.page.msgs[0].sender_name = xstrdup("Fay");
		ev->u.page.msgs[0].from_me = 0;
		apply(f->v, ev);
	}
	sender_of(m, ui_msgs_find(m, "ID1"), name, sizeof(name), &colour);
	assert_string_equal(name, "Fay");
}

static void
test_ui_view__mentions_of_members_read_as_their_names(void **st)
{
	struct fixture	*f = *st;
	struct ui_msgs	*m;
	int		 i;

	apply(f->v, connected_ev());
	apply(f->v, group_chats_ev("hi", 0));
	(void)ui_view_key(f->v, '\t', NOW);
	apply(f->v, page_ev(GROUP, 0, 100, 0, 0));
	apply(f->v, group_msg_ev("A", BOB, "", "hey @123456789012345 and "
	    "@15550000002, not @15550000099 nor @1555000000"));
	m = ui_view_msgs(f->v);
	i = ui_msgs_find(m, "A");
	/* Members not known yet: as written. */
	assert_string_equal(ui_msgs_text(m, (size_t)i), "hey "
	    "@123456789012345 and @15550000002, not @15550000099 nor "
	    "@1555000000");
	apply(f->v, group_ev("Hikers", 0));
	assert_string_equal(ui_msgs_text(m, (size_t)i), "hey @Carol and "
	    "@Alice\xef\xbf\xbd" "]0;x\xef\xbf\xbd, not @15550000099 nor "
	    "@1555000000");
	/* Two spans, each in the person's colour. */
	assert_int_equal(m->v[i].nspans, 2);
	assert_int_equal(m->v[i].spans[0].off, 4);
	assert_int_equal(m->v[i].spans[0].len, strlen("@Carol"));
	assert_int_equal(m->v[i].spans[0].colour, ui_group_colour(CAROL));
	assert_int_equal(m->v[i].spans[1].colour, ui_group_colour(ALICE));
	/* A member's other JID (its LID) and ourselves read as names too. */
	{
		struct ev	*ev = group_ev("Hikers", 0);

		ev_set(&ev->u.group.members[5].alt, "777777777777777@lid");
		apply(f->v, ev);
	}
	apply(f->v, group_msg_ev("B", BOB, "", "@777777777777777 and @15550000001"));
	i = ui_msgs_find(m, "B");
	assert_string_equal(ui_msgs_text(m, (size_t)i), "@Zed and @you");
}

static void
test_ui_view__group_info_lists_admins_first_and_closes_on_esc(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	const struct ui_group	*g;

	open_group(f);
	sink_clear(&f->sink);
	(void)ui_view_key(f->v, key("alt-g"), NOW);
	assert_true(ui_view_info_shown(f->v));
	assert_int_equal(count(&f->sink, CMD_GROUP_INFO, &c), 1);
	assert_string_equal(c->u.group_info.chat, GROUP);
	g = ui_view_group(f->v, GROUP);
	assert_non_null(g);
	assert_int_equal(g->n, 6);
	assert_string_equal(g->subject, "Hikers");
	assert_null(strchr(g->desc, 0x1b));
	assert_string_equal(g->v[0].jid, ZED);
	assert_int_equal(g->v[0].role, UI_GROUP_CREATOR);
	assert_string_equal(g->v[1].jid, ALICE);
	assert_string_equal(g->v[2].shown, "Carol");
	assert_string_equal(g->v[3].shown, "+15550000001");
	assert_true(g->v[3].is_me);
	assert_string_equal(g->v[4].shown, "+15550000003");
	assert_string_equal(g->v[5].jid, DAN);
	/* Keys do not reach the input line while it is shown. */
	type(f->v, "xyz");
	assert_string_equal(ui_view_input(f->v), "");
	(void)ui_view_key(f->v, 0x1b, NOW);
	assert_false(ui_view_info_shown(f->v));
	/* Not a group: the contact's page, no group info asked. */
	(void)ui_view_key(f->v, '\t', NOW);
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	(void)ui_view_key(f->v, key("alt-g"), NOW);
	assert_true(ui_view_info_shown(f->v));
	assert_int_equal(count(&f->sink, CMD_GROUP_INFO, NULL), 1);
}

/* A 1:1 chat's info is the contact's page (issue 20): its profile asked,
 * b asks and y blocks (n does nothing), the blocklist that comes makes
 * b unblock, and a text to a blocked contact is not sent (it stays). */
static void
test_ui_view__contact_page_asks_its_profile_and_blocks_after_asking(
    void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	struct ev		*ev;

	open_alice(f, 0);
	(void)ui_view_key(f->v, key("alt-g"), NOW);
	assert_true(ui_view_info_shown(f->v));
	assert_int_equal(count(&f->sink, CMD_PROFILE, &c), 1);
	assert_string_equal(c->u.profile.chat, ALICE);
	assert_int_equal(count(&f->sink, CMD_GROUP_INFO, NULL), 0);
	(void)ui_view_key(f->v, 'b', NOW);
	(void)ui_view_key(f->v, 'n', NOW);
	assert_int_equal(count(&f->sink, CMD_BLOCK, NULL), 0);
	(void)ui_view_key(f->v, 'b', NOW);
	(void)ui_view_key(f->v, 'y', NOW);
	assert_int_equal(count(&f->sink, CMD_BLOCK, &c), 1);
	assert_string_equal(c->u.block.chat, ALICE);
	assert_true(c->u.block.block);
	ev = ev_new(EV_BLOCKLIST);
	ev->u.blocklist.jids = xcalloc(1, sizeof(char *));
	ev->u.blocklist.jids[0] = xstrdup(ALICE);
	ev->u.blocklist.njids = 1;
	apply(f->v, ev);
	(void)ui_view_key(f->v, 'b', NOW);
	(void)ui_view_key(f->v, 'y', NOW);
	assert_int_equal(count(&f->sink, CMD_BLOCK, &c), 2);
	assert_false(c->u.block.block);
	(void)ui_view_key(f->v, 0x1b, NOW);
	assert_false(ui_view_info_shown(f->v));
	type(f->v, "hi");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 0);
	assert_string_equal(ui_view_input(f->v), "hi");
}

static void
test_ui_view__makes_a_group_from_a_subject_then_its_members(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	struct ev		*ev;

	open_alice(f, 0);
	(void)ui_view_key(f->v, key("alt-m"), NOW);
	(void)ui_view_key(f->v, ENTER, NOW);	/* no name: stays */
	type(f->v, "Hikers");
	(void)ui_view_key(f->v, ENTER, NOW);
	type(f->v, "12x");
	(void)ui_view_key(f->v, ENTER, NOW);	/* not a number: stays */
	assert_int_equal(count(&f->sink, CMD_GROUP_CREATE, NULL), 0);
	(void)ui_view_key(f->v, 0x15, NOW);	/* Ctrl-u */
	type(f->v, "+1 555 000-0003, " CAROL ",,");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_CREATE, &c), 1);
	assert_int_equal(c->kind, CMD_GROUP_CREATE);	/* no chat yet */
	assert_string_equal(c->u.group_create.subject, "Hikers");
	assert_members(c->u.group_create.members, c->u.group_create.nmembers,
	    BOB, CAROL, NULL);
	/* The group comes: it opens. */
	ev = group_ev("Hikers", 0);
	apply(f->v, ev);
	assert_string_equal(ui_view_open_chat(f->v), GROUP);
	/* No members is a group too. */
	(void)ui_view_key(f->v, key("alt-m"), NOW);
	type(f->v, "Solo");
	(void)ui_view_key(f->v, ENTER, NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_CREATE, &c), 2);
	assert_string_equal(c->u.group_create.subject, "Solo");
	assert_int_equal(c->u.group_create.nmembers, 0);
}

static void
test_ui_view__info_renames_adds_and_removes_members(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_group(f);
	(void)ui_view_key(f->v, key("alt-g"), NOW);
	/* A plain member may rename, not add or remove: a and d do
	 * nothing but say so, and the info view stays. */
	(void)ui_view_key(f->v, 'a', NOW);
	(void)ui_view_key(f->v, 'd', NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_ADD, NULL), 0);
	assert_int_equal(count(&f->sink, CMD_GROUP_REMOVE, NULL), 0);
	assert_true(ui_view_info_shown(f->v));
	/* Made an admin, we may. */
	{
		struct ev	*ev = group_ev("Hikers", 0);

		ev->u.group.members[1].role = EV_ROLE_ADMIN;
		apply(f->v, ev);
	}
	/* r: the subject in the prompt, to change. */
	(void)ui_view_key(f->v, 'r', NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_SUBJECT, NULL), 0);
	type(f->v, " 2");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_SUBJECT, &c), 1);
	assert_string_equal(c->u.group_subject.chat, GROUP);
	assert_string_equal(c->u.group_subject.subject, "Hikers 2");
	/* a: numbers typed. */
	(void)ui_view_key(f->v, 'a', NOW);
	type(f->v, "15550000004; 15550000006");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_ADD, &c), 1);
	assert_string_equal(c->u.group_add.chat, GROUP);
	assert_members(c->u.group_add.members, c->u.group_add.nmembers,
	    "15550000004@s.whatsapp.net", "15550000006@s.whatsapp.net",
	    NULL);
	/* d: the member chosen (Down to Bob, the fifth), in the prompt. */
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_END, NOW);
	(void)ui_view_key(f->v, UP, NOW);
	(void)ui_view_key(f->v, 'd', NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_REMOVE, &c), 1);
	assert_string_equal(c->u.group_remove.chat, GROUP);
	assert_members(c->u.group_remove.members, c->u.group_remove.nmembers,
	    BOB, NULL);
	/* A LID member goes as its JID. */
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_END, NOW);
	(void)ui_view_key(f->v, 'd', NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_REMOVE, &c), 2);
	assert_members(c->u.group_remove.members, c->u.group_remove.nmembers,
	    DAN, NULL);
	/* Nothing to remove: the prompt stays. */
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_HOME, NOW);
	(void)ui_view_key(f->v, 'a', NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_ADD, NULL), 1);
	(void)ui_view_key(f->v, 0x1b, NOW);
	assert_true(ui_view_info_shown(f->v));
}

static void
test_ui_view__leaving_a_group_asks_first(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_group(f);
	(void)ui_view_key(f->v, key("alt-d"), NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_LEAVE, NULL), 0);
	type(f->v, "x");			/* neither: still asked */
	(void)ui_view_key(f->v, 'n', NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_LEAVE, NULL), 0);
	assert_string_equal(ui_view_input(f->v), "");
	(void)ui_view_key(f->v, key("alt-d"), NOW);
	(void)ui_view_key(f->v, 0x1b, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_LEAVE, NULL), 0);
	/* From the info: l, then y. */
	(void)ui_view_key(f->v, key("alt-g"), NOW);
	(void)ui_view_key(f->v, 'l', NOW);
	(void)ui_view_key(f->v, 'y', NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_LEAVE, &c), 1);
	assert_string_equal(c->u.group_leave.chat, GROUP);
	/* Not from a 1:1 chat. */
	(void)ui_view_key(f->v, 0x1b, NOW);
	(void)ui_view_key(f->v, '\t', NOW);
	(void)ui_view_key(f->v, key("alt-d"), NOW);
	(void)ui_view_key(f->v, 'y', NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_LEAVE, NULL), 1);
}

static void
test_ui_view__a_group_we_left_takes_no_input(void **st)
{
	struct fixture	*f = *st;

	open_group(f);
	type(f->v, "a");
	apply(f->v, group_ev("Hikers", 1));
	assert_true(ui_view_group(f->v, GROUP)->left);
	type(f->v, "hi");
	(void)ui_view_key(f->v, ENTER, NOW);
	(void)ui_view_key(f->v, key("ctrl-x"), NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 0);
	assert_string_equal(ui_view_input(f->v), "a");
	/* Nothing to leave, rename or add to. */
	(void)ui_view_key(f->v, key("alt-d"), NOW);
	(void)ui_view_key(f->v, 'y', NOW);
	(void)ui_view_key(f->v, key("alt-g"), NOW);
	(void)ui_view_key(f->v, 'r', NOW);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_GROUP_LEAVE, NULL), 0);
	assert_int_equal(count(&f->sink, CMD_GROUP_SUBJECT, NULL), 0);
	/* Back in (added again): the input works. */
	(void)ui_view_key(f->v, 0x1b, NOW);
	apply(f->v, group_ev("Hikers", 0));
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 1);
}

/* A curses screen on /dev/null, colours on, the size given. */
struct term {
	FILE	*out, *in;
	SCREEN	*sc;
};

static void
term_open(struct term *t, int rows, int cols)
{
	t->out = fopen("/dev/null", "w");
	t->in = fopen("/dev/null", "r");
	assert_non_null(t->out);
	assert_non_null(t->in);
	t->sc = newterm("xterm-256color", t->out, t->in);
	if (t->sc == NULL)
		t->sc = newterm("xterm", t->out, t->in);
	assert_non_null(t->sc);
	(void)resizeterm(rows, cols);
	assert_int_equal(start_color(), OK);
	ui_view_colours();
}

static void
term_close(struct term *t)
{
	endwin();
	delscreen(t->sc);
	fclose(t->out);
	fclose(t->in);
}

/* The screen row that holds s from column x on, or -1. */
static int
find_row(int x, int w, const char *s)
{
	char	 text[512];
	int	 y;

	for (y = 0; y < LINES; y++) {
		row_text(y, x, w, text, sizeof(text));
		if (strstr(text, s) != NULL)
			return y;
	}
	return -1;
}

/* The colour pair and attributes of the cell at (y, x). */
static short
pair_at(int y, int x, attr_t *at)
{
	cchar_t	 cc;
	wchar_t	 wc[CCHARW_MAX + 1];
	short	 pair = -1;

	assert_int_equal(mvin_wch(y, x, &cc), OK);
	assert_int_equal(getcchar(&cc, wc, at, &pair, NULL), OK);
	return pair;
}

/* A group drawn: senders' names in their colour (one person one colour
 * in two views; two people two colours), mentions highlighted, group
 * events centred and dim, the info view, the input off once left. */
static void
test_ui_view_draw__shows_senders_in_colour_mentions_and_events(void **st)
{
	struct fixture		*f = *st;
	struct fixture		 f2;
	struct ui_view_opts	 o;
	struct term		 t;
	struct ev		*ev;
	attr_t			 at;
	short			 alice1, alice2, bob;
	int			 y, x, lw = 26, c;
	char			 text[512];
	const char		*p;

	/* Two people of two colours (else the test is void). */
	assert_int_not_equal(ui_group_colour(ALICE), ui_group_colour(BOB));
	term_open(&t, 30, 80);
	open_group(f);
	apply(f->v, group_msg_ev("A", ALICE, "", "ping @15550000003"));
	apply(f->v, group_msg_ev("B", BOB, "", "pong"));
	ev = group_msg_ev("N", ALICE, "", "Alice added Dan");
	ev->u.message.notice = true;
	apply(f->v, ev);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 29, 80, NOW));
	x = lw + 2;
	y = find_row(x, 80 - x, "Alice");
	assert_true(y > 0);
	alice1 = pair_at(y, x, &at);
	assert_true(at & A_BOLD);
	assert_int_equal(alice1, UI_GROUP_PAIR0 + (int)ui_group_colour(ALICE));
	y = find_row(x, 80 - x, "+15550000003 ");
	assert_true(y > 0);
	bob = pair_at(y, x, &at);
	assert_int_not_equal(alice1, bob);
	/* The mention of Bob (no name: his number) in his colour. */
	y = find_row(x, 80 - x, "ping @15550000003");
	assert_true(y > 0);
	row_text(y, x, 80 - x, text, sizeof(text));
	p = strstr(text, "@1555");
	c = x + (int)(p - text);
	assert_int_equal(pair_at(y, c, &at), bob);
	assert_true(at & A_BOLD);
	assert_int_equal(pair_at(y, x + 2, &at), 0);	/* "ping" plain */
	/* The event line: centred, dim. */
	y = find_row(x, 80 - x, "Alice added Dan");
	assert_true(y > 0);
	row_text(y, x - 1, 80 - x + 1, text, sizeof(text));
	c = (int)(strstr(text, "Alice added") - text);
	assert_true(c > 10);
	(void)pair_at(y, x - 1 + c, &at);
	assert_true(at & A_DIM);
	/* Another view (as after a restart): the same colour for Alice. */
	memset(&f2, 0, sizeof(f2));
	ui_view_opts_default(&o);
	f2.v = ui_view_new(&o, sink_push, &f2.sink);
	open_group(&f2);
	apply(f2.v, group_msg_ev("Z", ALICE, "", "again"));
	erase();
	assert_true(ui_view_draw(f2.v, 1, 0, 29, 80, NOW));
	y = find_row(x, 80 - x, "Alice");
	assert_true(y > 0);
	alice2 = pair_at(y, x, &at);
	assert_int_equal(alice1, alice2);
	ui_view_free(f2.v);
	sink_clear(&f2.sink);
	/* The info: subject, count, members with their marks. */
	(void)ui_view_key(f->v, key("alt-g"), NOW);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 29, 80, NOW));
	assert_true(find_row(x, 80 - x, "Hikers") > 0);
	assert_true(find_row(x, 80 - x, "6 members") > 0);
	assert_true(find_row(x, 80 - x, "Zed  +15550000005  creator") > 0);
	assert_true(find_row(x, 80 - x, "Alice") > 0);
	/* we are "You", not "+15550000001  you" (no name known here) */
	assert_true(find_row(x, 80 - x, " You") > 0);
	assert_true(find_row(x, 80 - x, "+15550000001") < 0);
	assert_true(find_row(x, 80 - x, "Esc closes") > 0);
	assert_true(find_row(x, 80 - x, "Sundays") > 0);
	(void)ui_view_key(f->v, 0x1b, NOW);
	/* Left: said where the input was. */
	apply(f->v, group_ev("Hikers", 1));
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 29, 80, NOW));
	y = find_row(x - 1, 80 - x + 1, "no longer a member of this group");
	assert_true(y >= 27);
	term_close(&t);
}


/* ---- search (issue 9) ---- */

#define FAMILY	"120363000000000002@g.us"
#define FAM1	"15550000009@s.whatsapp.net"

/* Keys typed at now_ms. */
static void
type_at(struct ui_view *v, const char *s, int64_t now_ms)
{
	for (; *s != '\0'; s++)
		(void)ui_view_key(v, (unsigned char)*s, now_ms);
}

/* The search opened by key k, text typed at t, a tick after the
 * debounce, then closed: the last CMD_SEARCH pushed (or NULL), with the
 * state line's error (UI_SEARCH_*) in *err. */
static const struct cmd *
search_for(struct fixture *f, const char *k, const char *text, int64_t t,
    enum ui_search_err *err)
{
	const struct cmd	*c = NULL;
	size_t			 i, n = strlen(text), before;

	sink_clear(&f->sink);
	(void)ui_view_key(f->v, key(k), t);
	assert_true(ui_view_search(f->v)->on);
	assert_true(n > 0);
	for (i = 0; i + 1 < n; i++)
		(void)ui_view_key(f->v, (unsigned char)text[i], t);
	/* Only what is asked once the whole text is typed. */
	before = f->sink.n;
	(void)ui_view_key(f->v, (unsigned char)text[n - 1], t);
	ui_view_tick(f->v, t + UI_SEARCH_DEBOUNCE_MS);
	if (err != NULL)
		*err = ui_view_search(f->v)->qy.err;
	for (i = before; i < f->sink.n; i++)
		if (f->sink.c[i]->kind == CMD_SEARCH)
			c = f->sink.c[i];
	(void)ui_view_key(f->v, 0x1b, t + 1000);
	assert_false(ui_view_search(f->v)->on);
	return c;
}

/* An EV_SEARCH answering query with n hits in chat, rowids from 40
 * down, newest first. */
static struct ev *
search_ev(const char *query, const char *chat, size_t n, int more)
{
	struct ev	*ev = ev_new(EV_SEARCH);
	size_t		 i;

	ev_set(&ev->u.search.query, query);
	ev->u.search.more = more != 0;
	ev->u.search.nhits = (uint32_t)n;
	ev->u.search.hits = xcalloc(n > 0 ? n : 1, sizeof(*ev->u.search.hits));
	for (i = 0; i < n; i++) {
		struct ev_hit	*h = &ev->u.search.hits[i];

		h->rowid = 40 - (int64_t)i;
		h->chat = xstrdup(chat);
		h->chat_name = xstrdup("");
		h->id = xstrdup("X");
		h->sender = xstrdup("");
		h->sender_name = xstrdup("");
		h->from_me = (i % 2) == 1;
		h->ts_ms = NOW - (int64_t)i * 60000;
		/* "…say <ESC>[2J hello there" with "hello" matched */
		h->snippet = xstrdup("say \x1b[2J hello there");
		h->match_start = 9;
		h->match_end = 14;
		h->cut_before = true;
	}
	return ev;
}

static void
test_ui_view__find_searches_the_open_chat_as_you_type(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	size_t			 i;

	open_alice(f, 0);
	type(f->v, "draft");
	sink_clear(&f->sink);
	(void)ui_view_key(f->v, key("alt-/"), NOW);
	assert_true(ui_view_search(f->v)->on);
	assert_false(ui_view_search(f->v)->global);
	/* Nothing typed: nothing asked. */
	ui_view_tick(f->v, NOW + 1000);
	assert_int_equal(count(&f->sink, CMD_SEARCH, NULL), 0);
	/* The first key asks at once, the next ones after the debounce. */
	type_at(f->v, "hel", NOW + 1000);
	assert_int_equal(count(&f->sink, CMD_SEARCH, &c), 1);
	assert_string_equal(c->u.search.query, "h");
	ui_view_tick(f->v, NOW + 1000 + UI_SEARCH_DEBOUNCE_MS - 1);
	assert_int_equal(count(&f->sink, CMD_SEARCH, NULL), 1);
	ui_view_tick(f->v, NOW + 1000 + UI_SEARCH_DEBOUNCE_MS);
	assert_int_equal(count(&f->sink, CMD_SEARCH, &c), 2);
	assert_string_equal(c->u.search.query, "hel");
	assert_string_equal(c->u.search.chat, ALICE);
	assert_false(c->u.search.by_sender);
	assert_int_equal(c->u.search.max, UI_SEARCH_HITS);
	assert_true(c->u.search.since_ms == 0 && c->u.search.until_ms == 0);
	/* Not sent again without a change. */
	ui_view_tick(f->v, NOW + 5000);
	assert_int_equal(count(&f->sink, CMD_SEARCH, NULL), 2);
	/* The keys went to the search, not to the input line. */
	assert_string_equal(ui_view_input(f->v), "draft");
	for (i = 0; i < f->sink.n; i++)
		assert_false(f->sink.c[i]->kind == CMD_TYPING &&
		    f->sink.c[i]->u.typing.composing);
	/* Deleting every character: no query, nothing sent. */
	(void)ui_view_key(f->v, 0x15, NOW + 6000);
	ui_view_tick(f->v, NOW + 7000);
	assert_int_equal(count(&f->sink, CMD_SEARCH, NULL), 2);
	(void)ui_view_key(f->v, 0x1b, NOW + 7000);
	assert_false(ui_view_search(f->v)->on);
	assert_string_equal(ui_view_input(f->v), "draft");
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
}

/* The list of the group test with a chat of a name of two words and one
 * of its first word. */
static struct ev *
family_chats_ev(void)
{
	struct ev	*ev = group_chats_ev("hi", 0);

	ev->u.chats.chats = xrealloc(ev->u.chats.chats,
	    4 * sizeof(*ev->u.chats.chats));
	memset(&ev->u.chats.chats[2], 0, 2 * sizeof(*ev->u.chats.chats));
	ev->u.chats.chats[2].jid = xstrdup(FAMILY);
	ev->u.chats.chats[2].name = xstrdup("Family Group");
	ev->u.chats.chats[2].preview = xstrdup("");
	ev->u.chats.chats[3].jid = xstrdup(FAM1);
	ev->u.chats.chats[3].name = xstrdup("Family");
	ev->u.chats.chats[3].preview = xstrdup("");
	ev->u.chats.nchats = 4;
	return ev;
}

static int64_t
local_ms(int y, int m, int d)
{
	struct tm	 tm;

	memset(&tm, 0, sizeof(tm));
	tm.tm_year = y - 1900;
	tm.tm_mon = m - 1;
	tm.tm_mday = d;
	tm.tm_isdst = -1;
	return (int64_t)mktime(&tm) * 1000;
}

static void
test_ui_view__global_search_takes_filters_as_typed(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c;
	enum ui_search_err	 err;
	int64_t			 t = NOW;

	open_group(f);
	apply(f->v, family_chats_ev());
	/* All chats: no chat, no author, no dates. */
	c = search_for(f, "alt-f", "hello world", t += 10000, &err);
	assert_non_null(c);
	assert_string_equal(c->u.search.query, "hello world");
	assert_string_equal(c->u.search.chat, "");
	assert_false(c->u.search.by_sender);
	/* Alt-/ in the open group: that chat. */
	c = search_for(f, "alt-/", "hello", t += 10000, NULL);
	assert_string_equal(c->u.search.chat, GROUP);
	/* from:me, with the words around it. */
	c = search_for(f, "alt-f", "hi from:me there", t += 10000, NULL);
	assert_string_equal(c->u.search.query, "hi there");
	assert_true(c->u.search.by_sender);
	assert_string_equal(c->u.search.sender, "");
	assert_string_equal(c->u.search.chat, "");
	/* from: a name (a whole one, though another starts with it), a
	 * number, a member by the start of a name. */
	c = search_for(f, "alt-f", "from:Alice hi", t += 10000, NULL);
	assert_true(c->u.search.by_sender);
	assert_string_equal(c->u.search.sender, ALICE);
	assert_string_equal(c->u.search.query, "hi");
	c = search_for(f, "alt-f", "from:+19 hi", t += 10000, &err);
	assert_null(c);		/* "+19" is no number, nor a name */
	assert_int_equal(err, UI_SEARCH_NO_PERSON);
	c = search_for(f, "alt-f", "from:+1 hi", t += 10000, &err);
	assert_non_null(c);	/* the start of Bob's number only */
	assert_true(c->u.search.by_sender);
	assert_string_equal(c->u.search.sender, BOB);
	c = search_for(f, "alt-f", "from:+15550000003 hi", t += 10000, NULL);
	assert_true(c->u.search.by_sender);
	assert_string_equal(c->u.search.sender, BOB);
	c = search_for(f, "alt-f", "from:car hi", t += 10000, NULL);
	assert_true(c->u.search.by_sender);
	assert_string_equal(c->u.search.sender, CAROL);
	c = search_for(f, "alt-f", "from:Nobody hi", t += 10000, &err);
	assert_null(c);
	assert_int_equal(err, UI_SEARCH_NO_PERSON);
	/* in: a chat, by a name of two words, its start, in quotes. */
	c = search_for(f, "alt-f", "in:Hikers hi", t += 10000, NULL);
	assert_string_equal(c->u.search.chat, GROUP);
	assert_string_equal(c->u.search.query, "hi");
	c = search_for(f, "alt-f", "dinner in:family group", t += 10000, NULL);
	assert_string_equal(c->u.search.chat, FAMILY);
	assert_string_equal(c->u.search.query, "dinner");
	c = search_for(f, "alt-f", "in:Family dinner", t += 10000, NULL);
	assert_string_equal(c->u.search.chat, FAM1);
	assert_string_equal(c->u.search.query, "dinner");
	c = search_for(f, "alt-f", "chat:\"Family Group\" dinner",
	    t += 10000, NULL);
	assert_string_equal(c->u.search.chat, FAMILY);
	assert_string_equal(c->u.search.query, "dinner");
	c = search_for(f, "alt-f", "in:hik hi", t += 10000, NULL);
	assert_string_equal(c->u.search.chat, GROUP);
	c = search_for(f, "alt-f", "in:fam hi", t += 10000, &err);
	assert_null(c);		/* Family or Family Group? */
	assert_int_equal(err, UI_SEARCH_AMBIGUOUS);
	c = search_for(f, "alt-f", "in:Nowhere hi", t += 10000, &err);
	assert_null(c);
	assert_int_equal(err, UI_SEARCH_NO_CHAT);
	/* Dates: after a day (from it on), before a month (up to it). */
	c = search_for(f, "alt-f", "after:2024-01-15 before:2024-03 hi",
	    t += 10000, NULL);
	assert_true(c->u.search.since_ms == local_ms(2024, 1, 15));
	assert_true(c->u.search.until_ms == local_ms(2024, 3, 1));
	assert_string_equal(c->u.search.query, "hi");
	c = search_for(f, "alt-f", "after:2024-02-30 hi", t += 10000, &err);
	assert_null(c);
	assert_int_equal(err, UI_SEARCH_BAD_DATE);
	/* All filters at once, in the group searched. */
	c = search_for(f, "alt-/", "from:me before:2025 walk", t += 10000,
	    NULL);
	assert_string_equal(c->u.search.chat, GROUP);
	assert_true(c->u.search.by_sender);
	assert_string_equal(c->u.search.sender, "");
	assert_true(c->u.search.until_ms == local_ms(2025, 1, 1));
	assert_string_equal(c->u.search.query, "walk");
	/* Filters without a word: nothing to look for (the store finds
	 * nothing without one). */
	c = search_for(f, "alt-f", "from:me in:Hikers", t += 10000, NULL);
	assert_null(c);
}

static void
test_ui_view__search_lists_the_answer_to_the_last_query_only(void **st)
{
	struct fixture		*f = *st;
	const struct ui_search	*s;
	const char		*p;

	open_alice(f, 0);
	(void)ui_view_key(f->v, key("alt-/"), NOW);
	type_at(f->v, "hello", NOW);
	ui_view_tick(f->v, NOW + 1000);
	s = ui_view_search(f->v);
	assert_string_equal(s->asked, "hello");
	/* The answer to "h", late: stale. */
	apply(f->v, search_ev("h", ALICE, 3, 0));
	assert_int_equal(s->n, 0);
	assert_false(s->answered);
	apply(f->v, search_ev("hello", ALICE, 2, 1));
	assert_int_equal(s->n, 2);
	assert_true(s->more);
	assert_int_equal(s->sel, 0);
	/* The snippet inert, cut marked, the match found in it. */
	p = s->v[0].snippet;
	assert_null(strchr(p, 0x1b));
	assert_memory_equal(p, "\xe2\x80\xa6" "say ", 7);
	assert_int_equal(s->v[0].hl_end - s->v[0].hl_start, 5);
	assert_memory_equal(p + s->v[0].hl_start, "hello", 5);
	assert_string_equal(s->v[0].chat_name, "Alice");
	assert_true(s->v[1].from_me);
	assert_int_equal(s->v[1].colour, -1);
	/* Down chooses the older one; Esc: back where we were. */
	(void)ui_view_key(f->v, UP + (KEY_DOWN - KEY_UP), NOW);
	assert_int_equal(s->sel, 1);
	(void)ui_view_key(f->v, UP, NOW);
	assert_int_equal(s->sel, 0);
	(void)ui_view_key(f->v, 0x1b, NOW);
	assert_false(s->on);
	assert_int_equal(s->n, 0);
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	assert_null(ui_view_selected(f->v));
}

static void
test_ui_view__enter_opens_a_hit_in_its_chat_at_the_message(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	const struct ui_chats	*cs;
	struct ui_msgs		*m;
	struct ev		*ev;

	open_alice(f, 0);
	(void)ui_view_key(f->v, key("alt-f"), NOW);
	type_at(f->v, "hello", NOW);
	ui_view_tick(f->v, NOW + 1000);
	apply(f->v, search_ev("hello", BOB, 2, 0));
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_DOWN, NOW);
	sink_clear(&f->sink);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_false(ui_view_search(f->v)->on);
	/* Bob's chat, selected in the list, at rowid 39 in context. */
	assert_string_equal(ui_view_open_chat(f->v), BOB);
	cs = ui_view_chats(f->v);
	assert_string_equal(cs->sel, BOB);
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 1);
	assert_string_equal(c->u.load_page.chat, BOB);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_AROUND);
	assert_int_equal(c->u.load_page.rowid, 39);
	assert_int_equal(count(&f->sink, CMD_SUBSCRIBE, NULL), 1);
	assert_int_equal(count(&f->sink, CMD_SEND, NULL), 0);
	/* A newest page of Bob's (late) does not take the place of it. */
	m = ui_view_msgs(f->v);
	/* The page around it: the hit selected, more both ways. */
	ev = page_ev(BOB, 2, 37, 5, 1);
	ev->u.page.more_after = true;
	apply(f->v, ev);
	assert_int_equal(m->n, 5);
	assert_non_null(ui_view_selected(f->v));
	assert_string_equal(ui_view_selected(f->v), "ID39");
	assert_true(m->more_before);
	assert_true(m->more_after);
	assert_int_equal(m->loading, 0);
	/* A live message of Bob's is not appended below rows not held. */
	apply(f->v, msg_ev(BOB, "LIVE", 0, "new"));
	assert_int_equal(m->n, 5);
	/* PgDn pages on after the newest row held, PgUp before the
	 * oldest. */
	sink_clear(&f->sink);
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_NPAGE, NOW);
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 1);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_AFTER);
	assert_int_equal(c->u.load_page.from.rowid, 41);
	apply(f->v, page_ev(BOB, 1, 42, 3, 0));
	assert_int_equal(m->n, 8);
	assert_false(m->more_after);
	sink_clear(&f->sink);
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_PPAGE, NOW);
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 1);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_BEFORE);
	assert_int_equal(c->u.load_page.from.rowid, 37);
}

static void
test_ui_view__a_hit_of_the_open_chat_or_a_new_one_opens_in_context(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	const char		*carl = "15550000077@s.whatsapp.net";

	open_alice(f, 0);
	/* In the chat open: its rows again, around the hit. */
	(void)ui_view_key(f->v, key("alt-/"), NOW);
	type_at(f->v, "hello", NOW);
	ui_view_tick(f->v, NOW + 500);
	apply(f->v, search_ev("hello", ALICE, 1, 0));
	sink_clear(&f->sink);
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 1);
	assert_string_equal(c->u.load_page.chat, ALICE);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_AROUND);
	assert_int_equal(c->u.load_page.rowid, 40);
	assert_int_equal(count(&f->sink, CMD_SUBSCRIBE, NULL), 0);
	/* A page of 0 rows around it (it went meanwhile): nothing
	 * selected, nothing breaks. */
	apply(f->v, page_ev(ALICE, 2, 1, 0, 0));
	assert_null(ui_view_selected(f->v));
	/* A chat the list does not hold: added and selected. */
	(void)ui_view_key(f->v, key("alt-f"), NOW + 1000);
	type_at(f->v, "hello", NOW + 1000);
	ui_view_tick(f->v, NOW + 1500);
	apply(f->v, search_ev("hello", carl, 1, 0));
	(void)ui_view_key(f->v, ENTER, NOW + 1000);
	assert_string_equal(ui_view_open_chat(f->v), carl);
	assert_string_equal(ui_view_chats(f->v)->sel, carl);
	/* The message cannot be read (EV_ERROR): the newest page. */
	sink_clear(&f->sink);
	apply(f->v, error_ev("cannot read the messages"));
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 1);
	assert_string_equal(c->u.load_page.chat, carl);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_NEWEST);
}

static void
test_ui_view__esc_closes_the_search_back_to_the_group_info(void **st)
{
	struct fixture	*f = *st;

	open_group(f);
	(void)ui_view_key(f->v, key("alt-g"), NOW);
	assert_true(ui_view_info_shown(f->v));
	(void)ui_view_key(f->v, key("alt-/"), NOW);
	assert_false(ui_view_info_shown(f->v));
	assert_true(ui_view_search(f->v)->on);
	/* Alt-f while open: all chats, the query kept. */
	type_at(f->v, "walk", NOW);
	(void)ui_view_key(f->v, key("alt-f"), NOW);
	assert_true(ui_view_search(f->v)->global);
	assert_string_equal(ui_view_search(f->v)->q.text, "walk");
	(void)ui_view_key(f->v, 0x1b, NOW);
	assert_true(ui_view_info_shown(f->v));
	assert_false(ui_view_search(f->v)->on);
	/* Reopened: empty. */
	(void)ui_view_key(f->v, key("alt-f"), NOW);
	assert_string_equal(ui_view_search(f->v)->q.text, "");
}

/* The search drawn in a small window (60x20): title with the filters,
 * hits with the match highlighted and no escape sequence, the "more"
 * and "no results" lines, the query in the input line. */
/* A long group name inside a question is cut short ("…"), so that the
 * question's answer keys still show in 80 columns. */
static void
test_ui_view_draw__a_long_name_leaves_the_question_whole(void **st)
{
	struct fixture	*f = *st;
	struct term	 t;
	struct ev	*ev;
	char		 text[512];
	int		 y;

	term_open(&t, 24, 80);
	apply(f->v, connected_ev());
	apply(f->v, group_ev("Hikers", 0));
	ev = group_chats_ev("hi", 0);
	free(ev->u.chats.chats[0].name);
	ev->u.chats.chats[0].name = xstrdup("The very long name of the weekend "
	    "hiking and climbing club of the valley");
	apply(f->v, ev);
	(void)ui_view_key(f->v, '\t', NOW);
	apply(f->v, page_ev(GROUP, 0, 100, 0, 0));
	(void)ui_view_key(f->v, key("alt-d"), NOW);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 23, 80, NOW));
	y = find_row(0, 80, "Leave the group The very long");
	assert_true(y > 0);
	row_text(y, 0, 80, text, sizeof(text));
	assert_non_null(strstr(text, "\xe2\x80\xa6? y leaves it, n stays"));
	term_close(&t);
}

/* A paste past the 65,536 bytes a message holds: the input keeps what
 * fits, and the screen says the rest was left out. */
static void
test_ui_view_draw__a_paste_too_long_is_cut_and_said(void **st)
{
	struct fixture	*f = *st;
	struct term	 t;
	int		 i;

	term_open(&t, 24, 100);
	open_alice(f, 0);
	(void)ui_view_key(f->v, UI_KEY_PASTE_BEGIN, NOW);
	for (i = 0; i < UI_INPUT_MAX + 100; i++)
		(void)ui_view_key(f->v, 'a' + i % 26, NOW);
	(void)ui_view_key(f->v, UI_KEY_PASTE_END, NOW);
	assert_int_equal(strlen(ui_view_input(f->v)), UI_INPUT_MAX);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 23, 100, NOW));
	assert_true(find_row(0, 100, "the paste was cut at 65,536 bytes") > 0);
	term_close(&t);
}

/* A group made with fewer members than asked for says so when it opens,
 * and "making the group…" is gone. */
static void
test_ui_view_draw__a_new_group_says_who_could_not_be_added(void **st)
{
	struct fixture	*f = *st;
	struct term	 t;

	term_open(&t, 24, 100);
	open_alice(f, 0);
	(void)ui_view_key(f->v, key("alt-m"), NOW);
	type(f->v, "Hikers");
	(void)ui_view_key(f->v, ENTER, NOW);
	type(f->v, "15550000002, 15550000003, 15550000004, 15550000005, "
	    "15550000006, 15550000007, 15550000099");
	(void)ui_view_key(f->v, ENTER, NOW);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 23, 100, NOW));
	assert_true(find_row(0, 100, "making the group") > 0);
	apply(f->v, group_ev("Hikers", 0));	/* 5 members besides us */
	assert_string_equal(ui_view_open_chat(f->v), GROUP);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 23, 100, NOW));
	assert_true(find_row(0, 100, "making the group") < 0);
	assert_true(find_row(0, 100, "only 5 of 7 members could be added "
	    "(not on WhatsApp?)") > 0);
	term_close(&t);
}

/* In a small window the key page scrolls to its last entry; any other
 * key closes it. */
static void
test_ui_view_draw__the_key_page_scrolls_in_a_small_window(void **st)
{
	struct fixture	*f = *st;
	struct term	 t;
	int		 i;

	term_open(&t, 13, 40);
	open_alice(f, 0);
	(void)ui_view_key(f->v, key("ctrl-g"), NOW);
	erase();
	assert_true(ui_view_draw(f->v, 0, 0, 13, 40, NOW));
	assert_true(find_row(0, 40, "Keys (Up, Down") >= 0);
	assert_true(find_row(0, 40, "rename, add") < 0);
	for (i = 0; i < 30; i++)
		(void)ui_view_key(f->v, UI_KEY_FN + KEY_NPAGE, NOW);
	erase();
	assert_true(ui_view_draw(f->v, 0, 0, 13, 40, NOW));
	assert_true(find_row(0, 40, "Alt-r") >= 0);	/* the last entry */
	assert_true(find_row(0, 40, "Keys (Up, Down") >= 0);
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_UP, NOW);
	(void)ui_view_key(f->v, 'x', NOW);	/* closes, types nothing */
	erase();
	assert_true(ui_view_draw(f->v, 0, 0, 13, 40, NOW));
	assert_true(find_row(0, 40, "Keys (") < 0);
	assert_string_equal(ui_view_input(f->v), "");
	term_close(&t);
}

static void
test_ui_view_draw__search_fits_a_small_window(void **st)
{
	struct fixture	*f = *st;
	struct term	 t;
	struct ev	*ev;
	char		 text[512];
	attr_t		 at;
	int		 y, x, lw = 20, c, i;
	bool		 more = false;

	term_open(&t, 20, 60);
	open_group(f);
	(void)ui_view_key(f->v, key("alt-f"), NOW);
	type_at(f->v, "from:Alice hello", NOW);
	ui_view_tick(f->v, NOW + 1000);
	ev = search_ev("hello", GROUP, 8, 1);
	for (i = 0; i < 8; i++) {
		free(ev->u.search.hits[i].sender);
		ev->u.search.hits[i].sender = xstrdup(ALICE);
		ev->u.search.hits[i].from_me = 0;
	}
	apply(f->v, ev);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 19, 60, NOW));
	x = lw + 2;
	assert_true(find_row(x, 60 - x, "Search all chats  from:Alice") > 0);
	y = find_row(x, 60 - x, "Hikers  Alice");
	assert_true(y > 0);
	/* The sender in her colour. */
	row_text(y, x, 60 - x, text, sizeof(text));
	c = x + (int)(strstr(text, "Alice") - text);
	assert_int_equal(pair_at(y, c, &at),
	    UI_GROUP_PAIR0 + (int)ui_group_colour(ALICE));
	/* The snippet: inert, the match bold and underlined. */
	row_text(y + 1, x, 60 - x, text, sizeof(text));
	assert_null(strchr(text, 0x1b));
	assert_non_null(strstr(text, "say \xef\xbf\xbd[2J hello"));
	c = x + 1 + (int)ui_text_width(text, (size_t)(strstr(text, "hello") -
	    text));
	(void)pair_at(y + 1, c - 1, &at);
	assert_true(at & A_UNDERLINE);
	/* The query in the input line, the keys above it. */
	assert_true(find_row(lw + 1, 60 - lw - 1, "/ from:Alice hello") == 18);
	assert_true(find_row(x, 60 - x, "Esc closes") > 0);
	/* The last hits and the "more" line, once scrolled down. */
	for (i = 0; i < 8; i++)
		(void)ui_view_key(f->v, UI_KEY_FN + KEY_DOWN, NOW);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 19, 60, NOW));
	for (y = 0; y < 20; y++) {
		row_text(y, x, 60 - x, text, sizeof(text));
		more |= strstr(text, "more results") != NULL;
	}
	assert_true(more);
	/* No hit. */
	apply(f->v, search_ev("hello", GROUP, 0, 0));
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 19, 60, NOW));
	assert_true(find_row(x, 60 - x, "no results") > 0);
	term_close(&t);
}

static void
test_ui_view__above_the_oldest_message__the_phone_is_asked_once(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;
	struct ev		*ev;
	size_t			 pages;

	open_alice(f, 0);	/* the store has nothing older: more 0 */
	sink_clear(&f->sink);
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_PPAGE, NOW);
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_PPAGE, NOW);
	(void)ui_view_key(f->v, UI_KEY_FN + KEY_PPAGE, NOW);
	/* no page from the store, one request to the phone */
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, NULL), 0);
	assert_int_equal(count(&f->sink, CMD_HISTORY_MORE, &c), 1);
	assert_string_equal(c->u.history_more.chat, ALICE);
	/* what the phone sends is imported: the pane asks the store */
	ev = ev_new(EV_HISTORY);
	ev->u.history.step = EV_HISTORY_CHUNK;
	ev->u.history.progress = 100;
	ev->u.history.stored = 20;
	apply(f->v, ev);
	pages = count(&f->sink, CMD_LOAD_PAGE, &c);
	assert_int_equal(pages, 1);
	assert_int_equal(c->u.load_page.dir, EV_PAGE_BEFORE);
	assert_string_equal(c->u.load_page.chat, ALICE);
}

static void
test_ui_view__typed_at_name_of_a_member_goes_as_a_mention(void **st)
{
	struct fixture		*f = *st;
	const struct cmd	*c = NULL;

	open_group(f);
	sink_clear(&f->sink);
	type(f->v, "see you @Carol and @Zed! @Nobody stays");
	(void)ui_view_key(f->v, ENTER, NOW);
	assert_int_equal(count(&f->sink, CMD_SEND, &c), 1);
	assert_string_equal(c->u.send.chat, GROUP);
	assert_string_equal(c->u.send.text, "see you @123456789012345 and "
	    "@15550000005! @Nobody stays");
}


/* ---- notifications (ui/notify.c, ui/view-notify.c) ---- */

/* What the view handed to notify-command. */
struct notified {
	int	 n;
	char	 title[256], body[512];
};

static void
notified_fn(void *arg, const char *title, const char *body)
{
	struct notified	*w = arg;

	w->n++;
	snprintf(w->title, sizeof(w->title), "%s", title);
	snprintf(w->body, sizeof(w->body), "%s", body);
}

/* The fixture's view made again with desktop notifications through the
 * terminal as OSC 777 (in tmux or not) and a notify function into w. */
static void
notify_view(struct fixture *f, struct notified *w, bool in_tmux)
{
	struct ui_view_opts	 o;

	ui_view_free(f->v);
	ui_view_opts_default(&o);
	o.notify_osc = UI_NOTIFY_OSC_777;
	o.in_tmux = in_tmux;
	o.notify = notified_fn;
	o.notify_arg = w;
	f->v = ui_view_new(&o, sink_push, &f->sink);
	memset(w, 0, sizeof(*w));
}

/* What the view writes to the terminal at the next refresh, as a
 * string (the buffer emptied). */
static char *
flushed(struct ui_view *v)
{
	struct buf	*out;
	char		*s;

	ui_view_notify_flush(v, NOW + 100000);
	out = ui_view_term_out(v);
	s = xmalloc(out->len + 1);
	memcpy(s, out->p, out->len);
	s[out->len] = '\0';
	out->len = 0;
	return s;
}

static void
test_ui_notify__osc_sequences_as_terminals_read_them(void **st)
{
	struct buf	 b = BUF_INIT;
	enum ui_notify_osc o = UI_NOTIFY_OSC_NONE;

	(void)st;
	ui_notify_osc(&b, UI_NOTIFY_OSC_777, false, "Bob; x", "hi;\x1b]0;x\a");
	buf_push(&b, '\0');
	/* the title's ';' and every control character go */
	assert_string_equal((char *)b.p,
	    "\x1b]777;notify;Bob x;hi; ]0;x\x1b\\");
	b.len = 0;
	ui_notify_osc(&b, UI_NOTIFY_OSC_777, true, "Bob", "hi");
	buf_push(&b, '\0');
	/* tmux's passthrough: DCS tmux; the ESCs doubled, ST */
	assert_string_equal((char *)b.p,
	    "\x1bPtmux;\x1b\x1b]777;notify;Bob;hi\x1b\x1b\\\x1b\\");
	b.len = 0;
	ui_notify_osc(&b, UI_NOTIFY_OSC_9, false, "Bob", "hi");
	buf_push(&b, '\0');
	assert_string_equal((char *)b.p, "\x1b]9;Bob: hi\x1b\\");
	b.len = 0;
	ui_notify_osc(&b, UI_NOTIFY_OSC_99, false, "Bob", "hi");
	buf_push(&b, '\0');
	assert_string_equal((char *)b.p,
	    "\x1b]99;i=1:d=0;Bob\x1b\\\x1b]99;i=1:p=body;hi\x1b\\");
	b.len = 0;
	ui_notify_osc(&b, UI_NOTIFY_OSC_NONE, true, "Bob", "hi");
	assert_int_equal(b.len, 0);
	ui_notify_title(&b, 3);
	buf_push(&b, '\0');
	assert_string_equal((char *)b.p, "\x1b]2;wachat (3)\x1b\\");
	buf_release(&b);
	assert_int_equal(ui_notify_osc_parse("osc99", &o), 0);
	assert_int_equal(o, UI_NOTIFY_OSC_99);
	assert_int_equal(ui_notify_osc_parse("osc8", &o), -EINVAL);
	assert_int_equal(o, UI_NOTIFY_OSC_99);
}

static void
test_ui_notify__clean_cuts_long_text_at_a_character(void **st)
{
	struct buf	 b = BUF_INIT;
	char		 in[400];
	size_t		 i;

	(void)st;
	/* 2-byte characters: cut at one, "…" after, within max */
	for (i = 0; i + 2 <= 300; i += 2)
		memcpy(in + i, "\xc3\xa9", 2);
	in[300] = '\0';
	ui_notify_clean(in, 300, UI_NOTIFY_BODY_MAX, false, &b);
	assert_true(b.len <= UI_NOTIFY_BODY_MAX);
	assert_int_equal(b.p[b.len], '\0');
	assert_memory_equal(b.p + b.len - 3, "…", 3);
	assert_int_equal((b.len - 3) % 2, 0);
	b.len = 0;
	/* C1 controls, runs of spaces and the ends */
	ui_notify_clean("  a\xc2\x9b" "b \n\n c  ", 13, 100, false, &b);
	assert_string_equal((char *)b.p, "a b c");
	buf_release(&b);
}

static void
test_ui_view__a_message_in_another_chat_notifies_once(void **st)
{
	struct fixture	*f = *st;
	struct notified	 w;
	char		*out;

	notify_view(f, &w, false);
	open_alice(f, 0);
	free(flushed(f->v));		/* the title */
	apply(f->v, msg_ev(BOB, "IN1", 0, "hello\x1b[2J bob"));
	out = flushed(f->v);
	/* the bell, then OSC 777 with the chat's name and the text */
	assert_non_null(strstr(out, "\a\x1b]777;notify;+15550000003;"
	    "hello\xef\xbf\xbd[2J bob\x1b\\"));
	free(out);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.title, "+15550000003");
	assert_string_equal(w.body, "hello\xef\xbf\xbd[2J bob");
	/* nothing more comes: nothing more goes */
	out = flushed(f->v);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(w.n, 1);
	/* two between refreshes, in two chats: one notification */
	apply(f->v, msg_ev(BOB, "IN2", 0, "one"));
	apply(f->v, msg_ev("15550000009@s.whatsapp.net", "IN3", 0, "two"));
	out = flushed(f->v);
	assert_non_null(strstr(out, "]777;notify;wachat;2 new messages"));
	assert_null(strstr(out + 1, "\a"));	/* one bell */
	free(out);
	assert_int_equal(w.n, 2);
}

static void
test_ui_view__a_new_chat_is_named_once_the_list_has_it(void **st)
{
	struct fixture	*f = *st;
	struct notified	 w;
	struct ev	*ev;

	notify_view(f, &w, false);
	open_alice(f, 0);
	ui_view_notify_flush(f->v, NOW);
	apply(f->v, msg_ev("15550000009@s.whatsapp.net", "IN1", 0, "new"));
	/* the list's reload due (or asked), not answered: it waits */
	ui_view_notify_flush(f->v, NOW + 10);
	assert_int_equal(w.n, 0);
	ev = chats_ev(0, 0);
	free(ev->u.chats.chats[1].jid);
	free(ev->u.chats.chats[1].name);
	ev->u.chats.chats[1].jid = xstrdup("15550000009@s.whatsapp.net");
	ev->u.chats.chats[1].name = xstrdup("Carol");
	apply(f->v, ev);
	ui_view_notify_flush(f->v, NOW + 20);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.title, "Carol");
	/* no answer: after UI_VIEW_NOTIFY_WAIT_MS it goes by number */
	apply(f->v, msg_ev("15550000008@s.whatsapp.net", "IN2", 0, "x"));
	ui_view_notify_flush(f->v, NOW + UI_VIEW_NOTIFY_WAIT_MS - 1);
	assert_int_equal(w.n, 1);
	ui_view_notify_flush(f->v, NOW + UI_VIEW_NOTIFY_WAIT_MS);
	assert_int_equal(w.n, 2);
	assert_string_equal(w.title, "+15550000008");
}

static void
test_ui_view__a_message_on_a_seen_screen_does_not_notify(void **st)
{
	struct fixture	*f = *st;
	struct notified	 w;
	char		*out;

	notify_view(f, &w, false);
	open_alice(f, 0);
	free(flushed(f->v));
	apply(f->v, msg_ev(ALICE, "IN1", 0, "shown"));
	out = flushed(f->v);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(w.n, 0);
	/* our own message never notifies */
	apply(f->v, msg_ev(BOB, "OUT1", 1, "mine"));
	assert_int_equal((free(flushed(f->v)), w.n), 0);
	/* the terminal unfocused: the open chat's message notifies */
	ui_view_seen(f->v, false, NOW);
	apply(f->v, msg_ev(ALICE, "IN2", 0, "unseen"));
	out = flushed(f->v);
	assert_non_null(strstr(out, "\a"));
	assert_non_null(strstr(out, ";Alice;unseen\x1b\\"));
	free(out);
	assert_int_equal(w.n, 1);
	/* the bell off: no BEL, the rest still */
	ui_view_free(f->v);
	{
		struct ui_view_opts	 o;

		ui_view_opts_default(&o);
		o.bell = false;
		o.notify = notified_fn;
		o.notify_arg = &w;
		f->v = ui_view_new(&o, sink_push, &f->sink);
	}
	open_alice(f, 0);
	free(flushed(f->v));
	apply(f->v, msg_ev(BOB, "IN3", 0, "quiet"));
	out = flushed(f->v);
	assert_string_equal(out, "");	/* no bell, no OSC by default */
	free(out);
	assert_int_equal(w.n, 2);
}

static void
test_ui_view__a_muted_chat_notifies_only_a_mention(void **st)
{
	struct fixture	*f = *st;
	struct notified	 w;
	struct ev	*ev;
	char		*out;

	notify_view(f, &w, true);
	open_alice(f, 0);
	ev = chats_ev(0, 0);
	ev->u.chats.chats[1].muted = true;
	apply(f->v, ev);
	free(flushed(f->v));
	apply(f->v, msg_ev(BOB, "IN1", 0, "chatter"));
	out = flushed(f->v);
	assert_string_equal(out, "");
	free(out);
	assert_int_equal(w.n, 0);
	apply(f->v, msg_ev(BOB, "IN2", 0, "look @15550000001!"));
	out = flushed(f->v);
	/* in tmux: wrapped in its passthrough */
	assert_non_null(strstr(out, "\x1bPtmux;\x1b\x1b]777;notify;"));
	free(out);
	assert_int_equal(w.n, 1);
	assert_string_equal(w.body, "look @15550000001!");
	/* @155500000012 is someone else */
	apply(f->v, msg_ev(BOB, "IN3", 0, "@155500000012"));
	assert_int_equal((free(flushed(f->v)), w.n), 1);
}

/* Bob's 👍 to message id of his chat (ours: to_ours), counted. */
static struct ev *
thumbs_up_ev(const char *id, bool to_ours)
{
	struct ev	*ev = ev_new(EV_REACTION);

	ev_set(&ev->u.reaction.emoji, "\xf0\x9f\x91\x8d");
	ev_set(&ev->u.reaction.target.chat, BOB);
	ev_set(&ev->u.reaction.target.id, id);
	ev_set(&ev->u.reaction.sender, BOB);
	ev->u.reaction.target.from_me = to_ours;
	ev->u.reaction.counted = true;
	return ev;
}

static void
test_ui_view__a_reaction_to_ours_notifies(void **st)
{
	struct fixture	*f = *st;
	struct notified	 w;

	notify_view(f, &w, false);
	open_alice(f, 0);
	free(flushed(f->v));
	apply(f->v, thumbs_up_ev("OUT1", true));
	free(flushed(f->v));
	assert_int_equal(w.n, 1);
	assert_string_equal(w.title, "+15550000003");
	assert_string_equal(w.body,
	    "+15550000003 reacted \xf0\x9f\x91\x8d to your message");
	/* to someone else's message: nothing */
	apply(f->v, thumbs_up_ev("IN1", false));
	free(flushed(f->v));
	assert_int_equal(w.n, 1);
}

static void
test_ui_view__the_title_counts_unread_chats_not_muted(void **st)
{
	struct fixture	*f = *st;
	struct notified	 w;
	struct ev	*ev;
	char		*out;

	notify_view(f, &w, false);
	apply(f->v, connected_ev());
	apply(f->v, chats_ev(2, 1));
	out = flushed(f->v);
	/* the terminal's title saved first, then ours */
	assert_string_equal(out, "\x1b[22;0t\x1b]2;wachat (2)\x1b\\");
	free(out);
	ev = chats_ev(2, 1);
	ev->u.chats.chats[1].muted = true;
	apply(f->v, ev);
	out = flushed(f->v);
	assert_string_equal(out, "\x1b]2;wachat (1)\x1b\\");
	free(out);
	apply(f->v, chats_ev(0, 0));
	out = flushed(f->v);
	assert_string_equal(out, "\x1b]2;wachat\x1b\\");
	free(out);
	ui_view_notify_end(f->v);
	out = flushed(f->v);
	/* put back at the end; the next flush would save it again */
	assert_string_equal(strstr(out, "\x1b[23;0t"), out);
	free(out);
}


/* ---- links and the mouse (ui/msgs-draw.c, ui/view-links.c) ---- */

struct opened {
	int	 n;
	char	 url[256];
};

static void
opened_fn(void *arg, const char *url)
{
	struct opened	*o = arg;

	o->n++;
	snprintf(o->url, sizeof(o->url), "%s", url);
}

static void
test_ui_view_draw__urls_are_links_underlined_and_opened(void **st)
{
	struct fixture		*f = *st;
	FILE			*out = fopen("/dev/null", "w");
	FILE			*in = fopen("/dev/null", "r");
	SCREEN			*sc;
	struct ev		*ev;
	struct ui_view_opts	 o;
	struct opened		 op;
	const struct ui_term_links *l;
	int			 pass;

	assert_non_null(out);
	assert_non_null(in);
	sc = newterm("xterm", out, in);
	assert_non_null(sc);
	(void)resizeterm(20, 60);
	for (pass = 0; pass < 2; pass++) {
		ui_view_free(f->v);
		sink_clear(&f->sink);
		ui_view_opts_default(&o);
		o.hyperlinks = pass == 0;
		o.open_link = opened_fn;
		o.notify_arg = &op;
		memset(&op, 0, sizeof(op));
		f->v = ui_view_new(&o, sink_push, &f->sink);
		open_alice(f, 0);
		ev = page_ev(ALICE, 0, 1, 1, 0);
		free(ev->u.page.msgs[0].text);
		ev->u.page.msgs[0].text = xstrdup("see https://example.org/a?b=1"
		    " and http://x.test/y.");
		apply(f->v, ev);
		erase();
		assert_true(ui_view_draw(f->v, 1, 0, 19, 60, NOW));
		l = ui_view_links(f->v);
		if (pass == 1) {	/* hyperlinks = no */
			assert_int_equal(l->n, 0);
			continue;
		}
		/* both URLs, the full stop after the second left out */
		assert_int_equal(l->n, 2);
		assert_string_equal(l->v[0].url, "https://example.org/a?b=1");
		assert_string_equal(l->v[0].text, "https://example.org/a?b=1");
		assert_string_equal(l->v[1].url, "http://x.test/y");
		/* drawn underlined where the link says */
		assert_true(mvinch(l->v[0].y, l->v[0].x) & A_UNDERLINE);
		assert_int_equal(mvinch(l->v[0].y, l->v[0].x) & A_CHARTEXT,
		    'h');
		assert_false(mvinch(l->v[0].y, l->v[0].x - 2) & A_UNDERLINE);
		/* the open-link key: select first, then each link in turn */
		(void)ui_view_key(f->v, UI_KEY_ALT + 'o', NOW);
		assert_int_equal(op.n, 0);
		(void)ui_view_key(f->v, UP, NOW);
		(void)ui_view_key(f->v, UI_KEY_ALT + 'o', NOW);
		assert_int_equal(op.n, 1);
		assert_string_equal(op.url, "https://example.org/a?b=1");
		(void)ui_view_key(f->v, UI_KEY_ALT + 'o', NOW);
		assert_string_equal(op.url, "http://x.test/y");
		(void)ui_view_key(f->v, UI_KEY_ALT + 'o', NOW);
		assert_string_equal(op.url, "https://example.org/a?b=1");
		assert_int_equal(op.n, 3);
	}
	endwin();
	delscreen(sc);
	fclose(out);
	fclose(in);
}

static void
test_ui_view__a_click_opens_a_chat_and_the_wheel_scrolls(void **st)
{
	struct fixture		*f = *st;
	FILE			*out = fopen("/dev/null", "w");
	FILE			*in = fopen("/dev/null", "r");
	SCREEN			*sc;
	const struct cmd	*c = NULL;
	struct ui_view_opts	 o;

	assert_non_null(out);
	assert_non_null(in);
	sc = newterm("xterm", out, in);
	assert_non_null(sc);
	(void)resizeterm(20, 60);
	open_alice(f, 0);
	apply(f->v, page_ev(ALICE, 0, 100, 40, 1));
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 19, 60, NOW));
	/* the wheel over the pane: 3 rows up, and back */
	ui_view_mouse(f->v, 10, 40, UI_VIEW_WHEEL_UP, NOW);
	assert_int_equal(ui_view_msgs(f->v)->scroll, UI_VIEW_WHEEL_ROWS);
	ui_view_mouse(f->v, 10, 40, UI_VIEW_WHEEL_DOWN, NOW);
	assert_int_equal(ui_view_msgs(f->v)->scroll, 0);
	/* over the list it scrolls nothing */
	ui_view_mouse(f->v, 10, 5, UI_VIEW_WHEEL_UP, NOW);
	assert_int_equal(ui_view_msgs(f->v)->scroll, 0);
	/* the list's second chat (rows 4 and 5: "Chats" on row 2) */
	sink_clear(&f->sink);
	ui_view_mouse(f->v, 5, 3, UI_VIEW_CLICK, NOW);
	assert_string_equal(ui_view_open_chat(f->v), BOB);
	assert_int_equal(count(&f->sink, CMD_LOAD_PAGE, &c), 1);
	assert_string_equal(c->u.load_page.chat, BOB);
	/* below the last chat: nothing */
	ui_view_mouse(f->v, 12, 3, UI_VIEW_CLICK, NOW);
	assert_string_equal(ui_view_open_chat(f->v), BOB);
	/* mouse = no: nothing */
	ui_view_free(f->v);
	ui_view_opts_default(&o);
	o.mouse = false;
	f->v = ui_view_new(&o, sink_push, &f->sink);
	open_alice(f, 0);
	erase();
	assert_true(ui_view_draw(f->v, 1, 0, 19, 60, NOW));
	ui_view_mouse(f->v, 5, 3, UI_VIEW_CLICK, NOW);
	assert_string_equal(ui_view_open_chat(f->v), ALICE);
	endwin();
	delscreen(sc);
	fclose(out);
	fclose(in);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ui_view__typed_at_name_of_a_member_goes_as_a_mention, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__above_the_oldest_message__the_phone_is_asked_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__loads_the_chat_list_when_connected, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__tab_opens_the_first_chat_with_page_subscribe_and_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__sends_no_read_receipt_when_the_setting_is_off, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__marks_read_a_message_that_comes_while_shown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__enter_sends_the_text_with_typing_around_it, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__typing_is_sent_at_most_every_few_seconds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__alt_e_edits_our_message_within_15_minutes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__ctrl_d_deletes_our_message_for_everyone_after_asking,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__each_chat_keeps_its_draft,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__drafts_go_to_the_store_and_come_back_with_the_first_list,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__sends_no_blank_message_and_trims_one,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_pasted_text_keeps_its_lines_and_sends_on_enter,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__enter_is_a_newline_and_the_send_key_sends_if_set, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__up_selects_and_enter_replies_with_the_quoted_sender, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__up_with_text_typed_does_not_select, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__react_takes_a_quick_emoji_or_a_typed_one, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__retry_and_delete_act_on_failed_messages_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__tab_opens_the_next_chat_and_ctrl_f_the_unread_one, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_chat_passed_through_with_tab_is_not_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__nothing_is_read_while_the_screen_is_not_seen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__new_chat_by_number_opens_its_jid, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__chat_list_reloads_at_most_once_a_second, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_list_asked_before_the_read_is_asked_again, setup, teardown),
		cmocka_unit_test(test_ui_msgs__places_the_unread_line__and_counts_new_ones_below),
		cmocka_unit_test(test_ui_msgs__pages_back_by_keyset_and_keeps_three_pages),
		cmocka_unit_test(test_ui_msgs__updates_rows_in_place_and_sanitises_text),
		cmocka_unit_test(test_ui_msgs__shows_the_engines_count__of_a_counted_reaction),
		cmocka_unit_test(test_ui_msgs__names_who_reacted__within_the_width),
		cmocka_unit_test(test_ui_chats_parse_day__takes_a_date_today_yesterday_and_weekdays),
		cmocka_unit_test(test_ui_chats__sanitises_names_previews_and_shows_numbers),
		cmocka_unit_test(test_ui_chats__keeps_archived_chats_in_their_folder_and_ends_mutes),
		cmocka_unit_test(test_ui_chats__drops_invisible_characters_from_names),
		cmocka_unit_test(test_ui_chats_when__gives_the_time_today_else_the_date),
		cmocka_unit_test(test_ui_chats_list_when__says_yesterday_a_weekday_or_a_short_date),
		cmocka_unit_test(test_ui_keys__parse_names_and_bind_actions),
		cmocka_unit_test_setup_teardown(test_ui_view_draw__lays_out_wide_text_in_its_columns, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view_draw__urls_are_links_underlined_and_opened, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_click_opens_a_chat_and_the_wheel_scrolls, setup, teardown),
		cmocka_unit_test(test_ui_keys__binds_every_action_the_settings_file_names),
		cmocka_unit_test_setup_teardown(test_ui_chats__a_group_row_shows_the_sender_before_its_preview, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__opening_a_group_asks_for_its_info_not_its_presence, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__group_messages_name_each_sender_in_their_colour, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__mentions_of_members_read_as_their_names, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__group_info_lists_admins_first_and_closes_on_esc, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__makes_a_group_from_a_subject_then_its_members, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__info_renames_adds_and_removes_members, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__leaving_a_group_asks_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__contact_page_asks_its_profile_and_blocks_after_asking, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_group_we_left_takes_no_input, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view_draw__shows_senders_in_colour_mentions_and_events, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__find_searches_the_open_chat_as_you_type, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__global_search_takes_filters_as_typed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__search_lists_the_answer_to_the_last_query_only, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__enter_opens_a_hit_in_its_chat_at_the_message, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_hit_of_the_open_chat_or_a_new_one_opens_in_context, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__esc_closes_the_search_back_to_the_group_info, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view_draw__search_fits_a_small_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view_draw__a_long_name_leaves_the_question_whole, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view_draw__a_paste_too_long_is_cut_and_said, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view_draw__the_key_page_scrolls_in_a_small_window, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view_draw__a_new_group_says_who_could_not_be_added, setup, teardown),
		cmocka_unit_test(test_ui_notify__osc_sequences_as_terminals_read_them),
		cmocka_unit_test(test_ui_notify__clean_cuts_long_text_at_a_character),
		cmocka_unit_test_setup_teardown(test_ui_view__a_message_in_another_chat_notifies_once, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_message_on_a_seen_screen_does_not_notify, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_new_chat_is_named_once_the_list_has_it, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_muted_chat_notifies_only_a_mention, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__a_reaction_to_ours_notifies, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ui_view__the_title_counts_unread_chats_not_muted, setup, teardown),
	};

	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
