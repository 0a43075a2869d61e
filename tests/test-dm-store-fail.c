/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-dm-store-fail.c -- the message engine (proto/dm*.c) when a
 * write fails, against the fakes of tests/fakes/ (an in-memory store
 * whose ops can be made to fail once, a transport that records what is
 * sent, a clock that stands still): issue 15, point 7 and the same class
 * elsewhere.
 *
 *  - A w:gp2 notification whose change cannot be stored (-ENOSPC) is
 *    refused (wa_dm_stanza() < 0: the engine does not ack it), nothing of
 *    it is kept or shown, the disk-full event goes out; sent again on the
 *    next connection it is stored and shown once.
 *  - A devices notification whose cache cannot be dropped is refused too.
 *  - A reaction, an edit and a delete whose outbox row cannot be stored
 *    leave nothing here either: the change and the row are one
 *    transaction.
 *  - A receipt whose tick fails with -EIO is not acked, the store-failed
 *    event goes out (the host reconnects later), and no other receipt is
 *    taken until the next connection; sent again, it is stored and acked.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "proto/dm.h"
#include "proto/node.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-clock.h"
#include "tests/fakes/fake-store.h"
#include "tests/fakes/fake-transport.h"

#define T0_MS		1700000000000LL
#define ME_DEV		"15550000001:3@s.whatsapp.net"
#define CONTACT		"15550000002@s.whatsapp.net"
#define GROUP		"120363000000000001@g.us"
#define MAX_EVS		32

struct ev {
	enum wa_dm_ev_kind	 kind;
	char			 chat[WA_DM_JID_MAX];
	char			 text[128];
	int			 err;
};

struct ctx {
	struct fake_clock	 clock;
	struct fake_transport	 wire;
	struct wa_dm_host	 host;
	struct fake_store	*st;
	struct wa_dm_store_ops	 dm_ops;
	struct wa_signal_store_ops sig_ops;
	struct wa_signal	*sig;
	struct wa_dm		*dm;
	struct ev		 evs[MAX_EVS];
	size_t			 nevs;
	struct arena		 a;
};

static const uint8_t adv[] = { 0x0a, 0x03, 'a', 'd', 'v' };

static void
on_event(void *arg, const struct wa_dm_ev *e)
{
	struct ctx	*c = arg;
	struct ev	*v;

	assert_true(c->nevs < MAX_EVS);
	v = &c->evs[c->nevs++];
	memset(v, 0, sizeof(*v));
	v->kind = e->kind;
	snprintf(v->chat, sizeof(v->chat), "%s", e->chat != NULL ? e->chat :
	    "");
	snprintf(v->text, sizeof(v->text), "%s", e->text != NULL ? e->text :
	    "");
	v->err = e->err;
}

/* How many events of kind the module said. */
static size_t
evs_of(const struct ctx *c, enum wa_dm_ev_kind kind)
{
	size_t	 i, n = 0;

	for (i = 0; i < c->nevs; i++)
		if (c->evs[i].kind == kind)
			n++;
	return n;
}

static void
online(struct ctx *c)
{
	wa_dm_online(c->dm, ME_DEV, "", "Me", 1234, adv, sizeof(adv));
}

static int
setup(void **state)
{
	struct ctx		*c = calloc(1, sizeof(*c));
	struct wa_dm_cfg	 cfg = { true, true, true };

	assert_non_null(c);
	assert_int_equal(wa_crypto_init(), 0);
	fake_clock_init(&c->clock, T0_MS);
	fake_transport_init(&c->wire, &c->clock);
	fake_transport_host(&c->wire, &c->host);
	c->st = fake_store_new();
	fake_store_dm_ops(c->st, &c->dm_ops);
	fake_store_signal_ops(c->st, &c->sig_ops);
	arena_init(&c->a, 4096);
	assert_int_equal(wa_signal_new(&c->sig_ops, fake_clock_now, &c->clock,
	    &c->sig), 0);
	assert_int_equal(wa_dm_new(&c->host, &c->dm_ops, c->sig, &cfg,
	    on_event, c, &c->dm), 0);
	online(c);
	*state = c;
	return 0;
}

static int
teardown(void **state)
{
	struct ctx	*c = *state;

	wa_dm_free(c->dm);
	wa_signal_free(c->sig);
	fake_store_free(c->st);
	fake_transport_release(&c->wire);
	arena_release(&c->a);
	free(c);
	return 0;
}

/* <notification from=GROUP type="w:gp2" id participant=CONTACT t>
 * <subject subject/></notification> (11.7). */
static struct wa_node *
subject_notification(struct ctx *c, const char *subject)
{
	struct wa_node	*n = wa_nb_new(&c->a, "notification", 5), *k;

	assert_int_equal(wa_nb_attr_jid(n, "from", GROUP), 0);
	wa_nb_attr(n, "type", "w:gp2");
	wa_nb_attr(n, "id", "gp-1");
	assert_int_equal(wa_nb_attr_jid(n, "participant", CONTACT), 0);
	wa_nb_attr(n, "t", "1700000000");
	k = wa_nb_kids(&c->a, n, 1);
	wa_nb_kid(&c->a, &k[0], "subject", 1);
	wa_nb_attr(&k[0], "subject", subject);
	return n;
}

static void
group_change_not_stored(void **state)
{
	struct ctx	*c = *state;
	struct wa_node	*n = subject_notification(c, "New name");

	fake_store_fail(c->st, "group_subject", -ENOSPC);
	assert_int_equal(wa_dm_stanza(c->dm, n), -ENOSPC);
	assert_int_equal(fake_store_count(c->st, GROUP), 0);
	assert_int_equal(evs_of(c, WA_DM_EV_MESSAGE), 0);
	assert_int_equal(evs_of(c, WA_DM_EV_GROUP), 0);
	assert_int_equal(evs_of(c, WA_DM_EV_DISK_FULL), 1);
	assert_int_equal(fake_store_tx_depth(c->st), 0);
	/* the disk still full: refused again, said once */
	assert_int_equal(wa_dm_stanza(c->dm, n), -ENOSPC);
	assert_int_equal(evs_of(c, WA_DM_EV_DISK_FULL), 1);

	/* room again, the next connection: the redelivery is taken */
	wa_dm_offline(c->dm);
	online(c);
	assert_int_equal(wa_dm_stanza(c->dm, n), 0);
	assert_int_equal(fake_store_count(c->st, GROUP), 1);
	assert_int_equal(evs_of(c, WA_DM_EV_MESSAGE), 1);
	assert_non_null(strstr(c->evs[c->nevs - 2].text,
	    "wachat-notice/1 group subject "));
	assert_non_null(strstr(c->evs[c->nevs - 2].text, " New name"));
	assert_int_equal(evs_of(c, WA_DM_EV_GROUP), 1);
}

/* The event line fails to store (-EIO): the subject goes back too. */
static void
group_line_not_stored(void **state)
{
	struct ctx	*c = *state;

	fake_store_fail(c->st, "in_insert", -EIO);
	assert_int_equal(wa_dm_stanza(c->dm, subject_notification(c, "X")),
	    -EIO);
	assert_int_equal(fake_store_count(c->st, GROUP), 0);
	assert_int_equal(evs_of(c, WA_DM_EV_MESSAGE), 0);
	assert_int_equal(evs_of(c, WA_DM_EV_GROUP), 0);
	assert_int_equal(evs_of(c, WA_DM_EV_STORE_FAILED), 1);
	assert_int_equal(fake_store_tx_depth(c->st), 0);
}

static void
devices_not_stored(void **state)
{
	struct ctx	*c = *state;
	struct wa_node	*n = wa_nb_new(&c->a, "notification", 3), *k;

	assert_int_equal(wa_nb_attr_jid(n, "from", CONTACT), 0);
	wa_nb_attr(n, "type", "devices");
	wa_nb_attr(n, "id", "dev-1");
	k = wa_nb_kids(&c->a, n, 1);
	wa_nb_kid(&c->a, &k[0], "add", 0);
	fake_store_fail(c->st, "devices_put", -ENOSPC);
	assert_int_equal(wa_dm_stanza(c->dm, n), -ENOSPC);
	wa_dm_offline(c->dm);
	online(c);
	assert_int_equal(wa_dm_stanza(c->dm, n), 0);
}

static void
reaction_not_queued(void **state)
{
	struct ctx	*c = *state;
	char		 e[16];

	fake_store_fail(c->st, "out_insert", -ENOSPC);
	assert_int_equal(wa_dm_send_reaction(c->dm, CONTACT, "T1", false,
	    "\xf0\x9f\x91\x8d"), -ENOSPC);
	assert_false(fake_store_reaction(c->st, CONTACT, "T1", "", e,
	    sizeof(e)));
	assert_int_equal(fake_store_count(c->st, CONTACT), 0);
	assert_int_equal(evs_of(c, WA_DM_EV_REACTION), 0);
	assert_int_equal(fake_store_tx_depth(c->st), 0);
	/* with room it is both */
	assert_int_equal(wa_dm_send_reaction(c->dm, CONTACT, "T1", false,
	    "\xf0\x9f\x91\x8d"), 0);
	assert_true(fake_store_reaction(c->st, CONTACT, "T1", "", e,
	    sizeof(e)));
	assert_int_equal(fake_store_count(c->st, CONTACT), 1);
	assert_int_equal(evs_of(c, WA_DM_EV_REACTION), 1);
}

/* Our message "M1" saying "hello", as sent earlier. */
static void
put_ours(struct ctx *c)
{
	struct wa_dm_msg m;
	static const uint8_t pl[] = { 0x0a, 0x05, 'h', 'e', 'l', 'l', 'o' };

	memset(&m, 0, sizeof(m));
	m.chat = CONTACT;
	m.id = "M1";
	m.sender = "";
	m.from_me = true;
	m.ts_ms = T0_MS;
	m.text = "hello";
	m.state = WA_DM_QUEUED;
	m.payload = pl;
	m.payload_len = sizeof(pl);
	assert_int_equal(c->dm_ops.out_insert(c->st, &m, "text", NULL), 0);
	assert_int_equal(c->dm_ops.out_state(c->st, CONTACT, "M1",
	    WA_DM_SENT, T0_MS), 1);
}

static void
edit_and_delete_not_queued(void **state)
{
	struct ctx	*c = *state;
	char		 t[64];

	put_ours(c);
	fake_store_fail(c->st, "out_insert", -ENOSPC);
	assert_int_equal(wa_dm_send_edit(c->dm, CONTACT, "M1", "edited"),
	    -ENOSPC);
	assert_true(fake_store_text(c->st, CONTACT, true, "M1", t,
	    sizeof(t)));
	assert_string_equal(t, "hello");
	fake_store_fail(c->st, "out_insert", -EIO);
	assert_int_equal(wa_dm_send_revoke(c->dm, CONTACT, "M1"), -EIO);
	assert_true(fake_store_text(c->st, CONTACT, true, "M1", t,
	    sizeof(t)));
	assert_string_equal(t, "hello");
	assert_int_equal(fake_store_count(c->st, CONTACT), 1);
	assert_int_equal(evs_of(c, WA_DM_EV_CHANGED), 0);
	assert_int_equal(fake_store_tx_depth(c->st), 0);
	/* with room: the change and its outbox row */
	assert_int_equal(wa_dm_send_edit(c->dm, CONTACT, "M1", "edited"), 0);
	assert_true(fake_store_text(c->st, CONTACT, true, "M1", t,
	    sizeof(t)));
	assert_string_equal(t, "edited");
	assert_int_equal(fake_store_count(c->st, CONTACT), 2);
	assert_int_equal(evs_of(c, WA_DM_EV_CHANGED), 1);
}

/* <receipt from=CONTACT id=M1 t> (a delivery, 11.8). */
static struct wa_node *
delivery(struct ctx *c)
{
	struct wa_node	*n = wa_nb_new(&c->a, "receipt", 3);

	assert_int_equal(wa_nb_attr_jid(n, "from", CONTACT), 0);
	wa_nb_attr(n, "id", "M1");
	wa_nb_attr(n, "t", "1700000001");
	return n;
}

static void
receipt_io_error_not_acked(void **state)
{
	struct ctx	*c = *state;
	size_t		 from;

	put_ours(c);
	from = fake_transport_count(&c->wire);
	fake_store_fail(c->st, "out_state", -EIO);
	assert_int_equal(wa_dm_stanza(c->dm, delivery(c)), 1);
	assert_int_equal(fake_transport_find(&c->wire, from, "ack", NULL,
	    NULL), -1);
	assert_int_equal(fake_store_state(c->st, CONTACT, "M1"), WA_DM_SENT);
	assert_int_equal(evs_of(c, WA_DM_EV_STORE_FAILED), 1);
	assert_int_equal(evs_of(c, WA_DM_EV_STATE), 0);
	/* nothing more is taken on this connection, nothing acked */
	assert_int_equal(wa_dm_stanza(c->dm, delivery(c)), 1);
	assert_int_equal(fake_transport_find(&c->wire, from, "ack", NULL,
	    NULL), -1);
	assert_int_equal(fake_store_state(c->st, CONTACT, "M1"), WA_DM_SENT);

	/* the next connection: stored, shown, acked */
	wa_dm_offline(c->dm);
	online(c);
	from = fake_transport_count(&c->wire);
	assert_int_equal(wa_dm_stanza(c->dm, delivery(c)), 1);
	assert_true(fake_transport_find(&c->wire, from, "ack", NULL, NULL) >=
	    0);
	assert_int_equal(fake_store_state(c->st, CONTACT, "M1"),
	    WA_DM_DELIVERED);
	assert_int_equal(evs_of(c, WA_DM_EV_STATE), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(group_change_not_stored,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(group_line_not_stored,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(devices_not_stored,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(reaction_not_queued,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(edit_and_delete_not_queued,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(receipt_io_error_not_acked,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
