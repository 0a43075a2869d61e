/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-dm-ident.c -- a contact's identity changed (proto/
 * dm-ident.c, issue 16 point 6; protocol.md 11.7) as the message engine
 * takes <notification type="encrypt" from=USER><identity/></notification>,
 * against fakes (tests/fakes/): an in-memory store with failures on
 * demand, a transport that records what is sent, a still clock.  The
 * contact is a real Signal party over a fake store of its own; we hold a
 * session with it under its PN and its LID, its identity, its cached
 * device list and the memory that its devices hold our sender key.
 *
 * The reset is one transaction: a write that fails halfway (or the final
 * commit) leaves everything as it was and the notification unacked (the
 * store's error); taken again (the server's resend at the next login) it
 * forgets all of it under both addresses, leaves another contact alone
 * and writes one "security code changed" line; the same notification a
 * third time finds nothing to forget and writes no second line, nor does
 * one whose change the receive path told already; our own account is
 * reset without a line.
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
#include "base/err.h"
#include "proto/crypto.h"
#include "proto/dm.h"
#include "proto/node.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-clock.h"
#include "tests/fakes/fake-store-int.h"
#include "tests/fakes/fake-store.h"
#include "tests/fakes/fake-transport.h"

#define T0_MS		1700000000000LL
#define ME_DEV		"15550000001:3@s.whatsapp.net"	/* this device */
#define PN_USER		"15550000002@s.whatsapp.net"	/* the contact */
#define LID_USER	"200000000000002@lid"		/* ... its LID */
#define PN_DEV2		"15550000002:2@s.whatsapp.net"	/* its companion */
#define OTHER		"155500000021@s.whatsapp.net"	/* someone else */
#define GROUP		"120363000000000001@g.us"

struct ctx {
	struct fake_clock	 clock;
	struct fake_transport	 wire;
	struct wa_dm_host	 host;
	struct fake_store	*st, *pst;	/* ours, the contact's */
	struct wa_dm_store_ops	 dm_ops;
	struct wa_signal_store_ops sig_ops, psig_ops;
	struct wa_signal	*sig, *psig;
	struct wa_dm		*dm;
	struct wa_signal_addr	 pn, lid, other;
	unsigned		 notices;	/* identity lines told */
	char			 notice_chat[128];
	struct arena		 a;
};

static const uint8_t adv[] = { 0x0a, 0x03, 'a', 'd', 'v' };

/* --- the ops the shared fakes lack, over the same table --- */

/* Delete every row whose key starts with prefix: how many. */
static int
del_prefix(struct fake_store *f, const char *prefix)
{
	size_t	 i;
	int	 n = 0;

	for (i = 0; i < f->t.n;)
		if (strncmp(f->t.v[i].key, prefix, strlen(prefix)) == 0) {
			(void)fake_tab_del(&f->t, f->t.v[i].key);
			n++;
		} else
			i++;
	return n;
}

static int
t_session_delete_all(void *arg, const char *name)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "session_delete_all");
	fake_key(k, "sess/%s/", name);
	return del_prefix(f, k);
}

/* When the receive path last saw the contact's identity replace another
 * (the store's changed_ms; the shared fake keeps none): 0 never. */
static int64_t	 seen_change_ms;

static int
t_identity_delete_all(void *arg, const char *name, int64_t *changed_ms)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "identity_delete_all");
	*changed_ms = seen_change_ms;
	fake_key(k, "idk/%s/", name);
	return del_prefix(f, k);
}

/* Is device (an AD-JID) a device of user (a non-AD JID)? */
static bool
device_of(const char *device, const char *user)
{
	const char	*at = strchr(user, '@');
	size_t		 ul = (size_t)(at - user);

	if (strcmp(device, user) == 0)
		return true;
	return strncmp(device, user, ul) == 0 && device[ul] == ':' &&
	    strstr(device, at) != NULL && strcmp(strstr(device, at), at) == 0;
}

static int
t_skr_forget_user(void *arg, const char *user)
{
	struct fake_store	*f = arg;
	const char		*dev;
	size_t			 i;
	int			 n = 0;

	ENTER(f, "skr_forget_user");
	for (i = 0; i < f->t.n;) {
		/* skr/GROUP/DEVICE */
		if (strncmp(f->t.v[i].key, "skr/", 4) == 0 &&
		    (dev = strchr(f->t.v[i].key + 4, '/')) != NULL &&
		    device_of(dev + 1, user)) {
			(void)fake_tab_del(&f->t, f->t.v[i].key);
			n++;
		} else
			i++;
	}
	return n;
}

static void
on_event(void *arg, const struct wa_dm_ev *e)
{
	struct ctx	*c = arg;

	if (e->kind != WA_DM_EV_MESSAGE || !e->notice ||
	    e->notice_kind != WA_DM_NOTE_IDENTITY)
		return;
	c->notices++;
	snprintf(c->notice_chat, sizeof(c->notice_chat), "%s", e->chat);
}

/* Our session with the contact (and its identity) under address a, from
 * the contact's bundle. */
static void
session_with(struct ctx *c, const struct wa_signal_addr *a, uint32_t pk)
{
	struct wa_signal_bundle	 b;

	fake_store_bundle(c->pst, pk, &b);
	assert_int_equal(wa_signal_process_bundle(c->sig, a, &b, NULL), 0);
}

static void
addr(const char *jid, struct wa_signal_addr *a)
{
	assert_int_equal(wa_signal_addr_from_jid(jid, strlen(jid), a), 0);
}

static int
setup(void **state)
{
	struct ctx		*c = calloc(1, sizeof(*c));
	struct wa_dm_cfg	 cfg = { true, true, true };
	uint16_t		 ids[2] = { 0, 2 };

	assert_non_null(c);
	assert_int_equal(wa_crypto_init(), 0);
	fake_clock_init(&c->clock, T0_MS);
	fake_transport_init(&c->wire, &c->clock);
	fake_transport_host(&c->wire, &c->host);
	c->st = fake_store_new();
	c->pst = fake_store_new();
	fake_store_dm_ops(c->st, &c->dm_ops);
	c->dm_ops.skr_forget_user = t_skr_forget_user;
	fake_store_signal_ops(c->st, &c->sig_ops);
	c->sig_ops.session_delete_all = t_session_delete_all;
	c->sig_ops.identity_delete_all = t_identity_delete_all;
	fake_store_signal_ops(c->pst, &c->psig_ops);
	assert_int_equal(wa_signal_new(&c->sig_ops, fake_clock_now, &c->clock,
	    &c->sig), 0);
	assert_int_equal(wa_signal_new(&c->psig_ops, fake_clock_now,
	    &c->clock, &c->psig), 0);
	assert_int_equal(wa_dm_new(&c->host, &c->dm_ops, c->sig, &cfg,
	    on_event, c, &c->dm), 0);
	addr(PN_USER, &c->pn);
	addr(LID_USER, &c->lid);
	addr(OTHER, &c->other);
	assert_int_equal(c->dm_ops.lid_put(c->st, PN_USER, LID_USER), 0);
	session_with(c, &c->pn, 1);
	session_with(c, &c->lid, 2);
	session_with(c, &c->other, 3);
	assert_int_equal(c->dm_ops.devices_put(c->st, PN_USER, ids, 2), 0);
	assert_int_equal(c->dm_ops.skr_put(c->st, GROUP, PN_USER), 0);
	assert_int_equal(c->dm_ops.skr_put(c->st, GROUP, PN_DEV2), 0);
	assert_int_equal(c->dm_ops.skr_put(c->st, GROUP, OTHER), 0);
	seen_change_ms = 0;
	arena_init(&c->a, 4096);
	wa_dm_online(c->dm, ME_DEV, "", "Me", 1234, adv, sizeof(adv));
	*state = c;
	return 0;
}

static int
teardown(void **state)
{
	struct ctx	*c = *state;

	wa_dm_free(c->dm);
	wa_signal_free(c->sig);
	wa_signal_free(c->psig);
	fake_store_free(c->st);
	fake_store_free(c->pst);
	fake_transport_release(&c->wire);
	arena_release(&c->a);
	free(c);
	return 0;
}

/* <notification type="encrypt" from id t><identity/></notification>:
 * what wa_dm_stanza() says (< 0: do not ack). */
static int
notify(struct ctx *c, const char *from, const char *id)
{
	struct wa_node	*n = wa_nb_new(&c->a, "notification", 4);

	assert_int_equal(wa_nb_attr_jid(n, "from", from), 0);
	wa_nb_attr(n, "id", id);
	wa_nb_attr(n, "type", "encrypt");
	wa_nb_attr(n, "t", "1700000000");
	(void)wa_nb_kid(&c->a, wa_nb_kids(&c->a, n, 1), "identity", 0);
	return wa_dm_stanza(c->dm, n);
}

static bool
has_identity(struct ctx *c, const struct wa_signal_addr *a)
{
	uint8_t	 k[32];

	return wa_signal_remote_identity(c->sig, a, k) == 1;
}

/* Everything we knew of the contact is still there (kept is true) or
 * gone (false); the other contact is always kept. */
static void
assert_contact(struct ctx *c, bool kept)
{
	uint16_t	 ids[4];

	assert_int_equal(fake_store_has_session(c->st, &c->pn), kept);
	assert_int_equal(fake_store_has_session(c->st, &c->lid), kept);
	assert_int_equal(has_identity(c, &c->pn), kept);
	assert_int_equal(has_identity(c, &c->lid), kept);
	assert_int_equal(fake_store_skr(c->st, GROUP, PN_USER), kept);
	assert_int_equal(fake_store_skr(c->st, GROUP, PN_DEV2), kept);
	assert_int_equal(c->dm_ops.devices_get(c->st, PN_USER, ids, 4),
	    kept ? 2 : 0);
	assert_true(fake_store_has_session(c->st, &c->other));
	assert_true(has_identity(c, &c->other));
	assert_true(fake_store_skr(c->st, GROUP, OTHER));
	assert_int_equal(fake_store_tx_depth(c->st), 0);
}

/* A reconnect: the engine takes stanzas again after a failed write. */
static void
reconnect(struct ctx *c)
{
	wa_dm_offline(c->dm);
	wa_dm_online(c->dm, ME_DEV, "", "Me", 1234, adv, sizeof(adv));
}

/* A write that fails halfway, then the final commit: nothing changes,
 * no line, not acked; the resend resets it all, by LID, once. */
static void
test_reset_is_one_transaction(void **state)
{
	struct ctx	*c = *state;

	fake_store_fail(c->st, "skr_forget_user", -EIO);
	assert_int_equal(notify(c, LID_USER, "n1"), -EIO);
	assert_int_equal(fake_store_calls(c->st, "identity_delete_all"), 1);
	assert_contact(c, true);
	assert_int_equal(c->notices, 0);
	assert_int_equal(fake_store_count(c->st, PN_USER), 0);

	reconnect(c);
	fake_store_fail(c->st, "tx_commit_outer", -EIO);
	assert_int_equal(notify(c, LID_USER, "n1"), -EIO);
	assert_contact(c, true);
	assert_int_equal(c->notices, 0);
	assert_int_equal(fake_store_count(c->st, PN_USER), 0);

	reconnect(c);
	assert_int_equal(notify(c, LID_USER, "n1"), 0);
	assert_contact(c, false);
	assert_int_equal(c->notices, 1);
	assert_string_equal(c->notice_chat, PN_USER);	/* by PN */
	assert_int_equal(fake_store_count(c->st, PN_USER), 1);

	/* the same notification again: nothing left, no second line */
	assert_int_equal(notify(c, PN_USER, "n1"), 0);
	assert_int_equal(c->notices, 1);
	assert_int_equal(fake_store_count(c->st, PN_USER), 1);
}

/* A user we know nothing of: acked, nothing changes, no line. */
static void
test_unknown_user(void **state)
{
	struct ctx	*c = *state;

	assert_int_equal(notify(c, "15557000009@s.whatsapp.net", "n2"), 0);
	assert_contact(c, true);
	assert_int_equal(c->notices, 0);
	assert_int_equal(fake_store_count(c->st, "15557000009@s.whatsapp.net"),
	    0);
}

/* The disk is full: not acked (the server keeps it), nothing changes. */
static void
test_disk_full(void **state)
{
	struct ctx	*c = *state;

	fake_store_fail(c->st, "session_delete_all", -ENOSPC);
	assert_int_equal(notify(c, PN_USER, "n3"), -ENOSPC);
	assert_contact(c, true);
	assert_int_equal(c->notices, 0);
}

/* The receive path told this change already (a pkmsg with the new key
 * came first, a second after the notification's t): the reset, no second
 * line.  A change it saw long before (10 min) is another one: told. */
static void
test_told_once(void **state)
{
	struct ctx	*c = *state;

	seen_change_ms = 1700000000000LL + 1000;
	assert_int_equal(notify(c, PN_USER, "n4"), 0);
	assert_contact(c, false);
	assert_int_equal(c->notices, 0);
	assert_int_equal(fake_store_count(c->st, PN_USER), 0);

	session_with(c, &c->pn, 4);
	seen_change_ms = 1700000000000LL - 10 * 60 * 1000;
	assert_int_equal(notify(c, PN_USER, "n5"), 0);
	assert_int_equal(c->notices, 1);
	assert_int_equal(fake_store_count(c->st, PN_USER), 1);
}

/* Our own account (our phone reinstalled): reset, as whatsmeow does, but
 * no line in a chat with ourselves. */
static void
test_own_account(void **state)
{
	struct ctx		*c = *state;
	struct wa_signal_addr	 own;

	addr("15550000001@s.whatsapp.net", &own);
	session_with(c, &own, 5);
	assert_int_equal(notify(c, "15550000001@s.whatsapp.net", "n6"), 0);
	assert_false(fake_store_has_session(c->st, &own));
	assert_int_equal(c->notices, 0);
	assert_contact(c, true);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reset_is_one_transaction,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown_user, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_disk_full, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_told_once, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_own_account, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
