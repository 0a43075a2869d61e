/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-dm-admin-store.c -- the answers to our own group changes
 * (proto/dm-admin.c: subject, participants, leave, create) when a write
 * fails, against the fakes of tests/fakes/ (issue 15 point 7, the same
 * class elsewhere): the change and its line are one transaction, the
 * line is shown only after the commit, and when the store fails nothing
 * of it is kept or shown, the failure is said for the group (an error
 * event) and the disk-full or store-failed event goes out.  With room,
 * each is stored and shown once.
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

#include "base/arena.h"
#include "proto/crypto.h"
#include "proto/dm.h"
#include "proto/group.h"
#include "proto/node.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-clock.h"
#include "tests/fakes/fake-store.h"
#include "tests/fakes/fake-transport.h"

#define T0_MS		1700000000000LL
#define ME_DEV		"15550000001:3@s.whatsapp.net"
#define ME		"15550000001@s.whatsapp.net"
#define BOB		"15550000002@s.whatsapp.net"
#define GROUP		"120363000000000001@g.us"
#define MAX_EVS		32

struct ev {
	enum wa_dm_ev_kind	 kind;
	char			 chat[WA_DM_JID_MAX];
	char			 text[160];
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

static size_t
evs_of(const struct ctx *c, enum wa_dm_ev_kind kind)
{
	size_t	 i, n = 0;

	for (i = 0; i < c->nevs; i++)
		if (c->evs[i].kind == kind)
			n++;
	return n;
}

/* The last event of kind, or NULL. */
static const struct ev *
last_of(const struct ctx *c, enum wa_dm_ev_kind kind)
{
	size_t	 i;

	for (i = c->nevs; i > 0; i--)
		if (c->evs[i - 1].kind == kind)
			return &c->evs[i - 1];
	return NULL;
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
	const char		*members[] = { ME, BOB };

	assert_non_null(c);
	assert_int_equal(wa_crypto_init(), 0);
	fake_clock_init(&c->clock, T0_MS);
	fake_transport_init(&c->wire, &c->clock);
	fake_transport_host(&c->wire, &c->host);
	c->st = fake_store_new();
	fake_store_dm_ops(c->st, &c->dm_ops);
	fake_store_signal_ops(c->st, &c->sig_ops);
	fake_store_put_group(c->st, GROUP, false, members, NULL, 2);
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

/* The id of the last iq sent, into id[64]. */
static void
last_iq(struct ctx *c, char id[64])
{
	size_t	 n = fake_transport_count(&c->wire);
	const struct wa_node *iq;

	assert_true(n > 0);
	iq = fake_transport_node(&c->wire, n - 1);
	assert_true(wa_str_eqc(iq->tag, "iq"));
	assert_true(fake_node_attr(iq, "id", id, 64));
}

/* <iq id from="g.us" type="result">, with kid (may be NULL). */
static struct wa_node *
result(struct ctx *c, const char *id, struct wa_node **kid)
{
	struct wa_node	*n = wa_nb_new(&c->a, "iq", 3);

	wa_nb_attr(n, "id", id);
	assert_int_equal(wa_nb_attr_jid(n, "from", "g.us"), 0);
	wa_nb_attr(n, "type", "result");
	if (kid != NULL)
		*kid = wa_nb_kids(&c->a, n, 1);
	return n;
}

/* Our subject change, answered. */
static int
subject_answered(struct ctx *c)
{
	char	 id[64];

	assert_int_equal(wa_dm_group_subject(c->dm, GROUP, "New name"), 0);
	last_iq(c, id);
	return wa_dm_stanza(c->dm, result(c, id, NULL));
}

/* The store failed: nothing kept or shown, the failure said. */
static void
not_kept(struct ctx *c, int err, enum wa_dm_ev_kind told)
{
	const struct ev	*e = last_of(c, WA_DM_EV_ERROR);

	assert_int_equal(fake_store_count(c->st, GROUP), 0);
	assert_int_equal(evs_of(c, WA_DM_EV_MESSAGE), 0);
	assert_int_equal(fake_store_tx_depth(c->st), 0);
	assert_non_null(e);
	assert_string_equal(e->chat, GROUP);
	assert_int_equal(e->err, err);
	assert_non_null(strstr(e->text, "could not be stored"));
	assert_int_equal(evs_of(c, told), 1);
}

static void
subject_not_stored(void **state)
{
	struct ctx	*c = *state;

	fake_store_fail(c->st, "group_subject", -ENOSPC);
	(void)subject_answered(c);
	not_kept(c, -ENOSPC, WA_DM_EV_DISK_FULL);
}

/* The line fails: the subject goes back with it. */
static void
subject_line_not_stored(void **state)
{
	struct ctx	*c = *state;

	fake_store_fail(c->st, "in_insert", -EIO);
	(void)subject_answered(c);
	not_kept(c, -EIO, WA_DM_EV_STORE_FAILED);
}

/* With room: stored, then shown once. */
static void
subject_stored(void **state)
{
	struct ctx	*c = *state;
	const struct ev	*e;

	assert_int_equal(subject_answered(c), 1);	/* taken */
	assert_int_equal(fake_store_count(c->st, GROUP), 1);
	assert_int_equal(evs_of(c, WA_DM_EV_MESSAGE), 1);
	e = last_of(c, WA_DM_EV_MESSAGE);
	/* stored as a group line's code, named when shown */
	assert_non_null(strstr(e->text, "wachat-notice/1 group subject me - "));
	assert_int_equal(evs_of(c, WA_DM_EV_ERROR), 0);
	assert_int_equal(fake_store_tx_depth(c->st), 0);
}

/* Our add of a member, answered: <add><participant jid/></add>; the
 * member cannot be stored. */
static void
members_not_stored(void **state)
{
	struct ctx	*c = *state;
	const char	*jids[] = { "15550000009@s.whatsapp.net" };
	struct wa_node	*n, *k, *p;
	char		 id[64];

	assert_int_equal(wa_dm_group_participants(c->dm, GROUP, WA_GROUP_ADD,
	    jids, 1), 0);
	last_iq(c, id);
	n = result(c, id, &k);
	wa_nb_kid(&c->a, &k[0], "add", 0);
	p = wa_nb_kids(&c->a, &k[0], 1);
	wa_nb_kid(&c->a, &p[0], "participant", 1);
	assert_int_equal(wa_nb_attr_jid(&p[0], "jid", jids[0]), 0);
	fake_store_fail(c->st, "group_member", -ENOSPC);
	(void)wa_dm_stanza(c->dm, n);
	not_kept(c, -ENOSPC, WA_DM_EV_DISK_FULL);
}

static void
leave_not_stored(void **state)
{
	struct ctx		*c = *state;
	struct wa_dm_group	 g;
	char			 id[64];

	assert_int_equal(wa_dm_group_leave(c->dm, GROUP), 0);
	last_iq(c, id);
	fake_store_fail(c->st, "in_insert", -ENOSPC);
	(void)wa_dm_stanza(c->dm, result(c, id, NULL));
	not_kept(c, -ENOSPC, WA_DM_EV_DISK_FULL);
	assert_int_equal(evs_of(c, WA_DM_EV_GROUP), 0);
	/* the leave went back with its line */
	memset(&g, 0, sizeof(g));
	assert_int_equal(c->dm_ops.group_get(c->st, GROUP, &g), 1);
	assert_false(g.left);
	wa_dm_group_release(&g);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(subject_not_stored, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(subject_line_not_stored, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(subject_stored, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(members_not_stored, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(leave_not_stored, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
