/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-dm-askey.c -- the message engine takes an app-state key
 * share (protocol-features.md 2.3; proto/dm-recv.c take_keys) against
 * fakes: an in-memory store (tests/fakes/fake-store.c) whose as_key_put
 * and transactions this test watches, a transport that records what is
 * sent and a still clock.  The sender is a real Signal party over a fake
 * store of its own: our own phone (device 0 of our number), or another
 * account.  Our phone's share has its keys stored inside the message's
 * transaction and the host told after the commit (the sync module then
 * fetches); another account's share is dropped, and so is one that does
 * not parse; each message is acked all the same.
 */
#include "base/compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/askey.h"
#include "proto/crypto.h"
#include "proto/dm.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-clock.h"
#include "tests/fakes/fake-store.h"
#include "tests/fakes/fake-transport.h"

#define T0_MS		1700000000000LL
#define ME_DEV		"15550000001:3@s.whatsapp.net"	/* this device */
#define PHONE		"15550000001@s.whatsapp.net"	/* our phone */
#define OTHER		"15550000002@s.whatsapp.net"	/* someone else */

static const uint8_t	 KID1[] = { 0, 0, 0, 0, 0x4d, 0x21 };
static const uint8_t	 KID2[] = { 0, 0, 0, 0, 0x4d, 0x22 };
static const uint8_t	 DATA[32] = { 1, 2, 3, 4, 5, 6, 7, 8 };

struct ctx {
	struct fake_clock	 clock;
	struct fake_transport	 wire;
	struct wa_dm_host	 host;
	struct fake_store	*st, *pst;	/* ours, the sender's */
	struct wa_dm_store_ops	 dm_ops, real;
	struct wa_signal_store_ops sig_ops, psig_ops;
	struct wa_signal	*sig, *psig;
	struct wa_dm		*dm;
	struct wa_signal_addr	 me;
	struct arena		 a;
	int			 depth;		/* transactions open */
	uint8_t			 ids[4][WA_ASKEY_ID_MAX];
	size_t			 nkeys;		/* as_key_put calls */
	int			 kicks;		/* host app_state_keys */
};

static struct ctx	*CTX;

static int
tx_begin(void *arg)
{
	CTX->depth++;
	return CTX->real.tx_begin(arg);
}

static int
tx_commit(void *arg)
{
	CTX->depth--;
	return CTX->real.tx_commit(arg);
}

static int
tx_rollback(void *arg)
{
	CTX->depth--;
	return CTX->real.tx_rollback(arg);
}

static int
as_key_put(void *arg, const struct wa_askey *k)
{
	(void)arg;
	assert_true(CTX->depth > 0);	/* in the message's transaction */
	assert_true(CTX->nkeys < 4);
	assert_int_equal(k->data_len, 32);
	assert_memory_equal(k->data, DATA, 32);
	memcpy(CTX->ids[CTX->nkeys++], k->id, k->id_len);
	return 1;
}

static void
app_state_keys(void *arg)
{
	(void)arg;
	assert_int_equal(CTX->depth, 0);	/* after the commit */
	CTX->kicks++;
}

static void
on_event(void *arg, const struct wa_dm_ev *e)
{
	(void)arg;
	(void)e;
}

static int
setup(void **state)
{
	struct ctx		*c = calloc(1, sizeof(*c));
	struct wa_dm_cfg	 cfg = { true, true, true };
	static const uint8_t	 adv[] = { 0x0a, 0x03, 'a', 'd', 'v' };

	assert_non_null(c);
	CTX = c;
	assert_int_equal(wa_crypto_init(), 0);
	fake_clock_init(&c->clock, T0_MS);
	fake_transport_init(&c->wire, &c->clock);
	fake_transport_host(&c->wire, &c->host);
	c->host.app_state_keys = app_state_keys;
	c->st = fake_store_new();
	c->pst = fake_store_new();
	fake_store_dm_ops(c->st, &c->dm_ops);
	c->real = c->dm_ops;
	c->dm_ops.tx_begin = tx_begin;
	c->dm_ops.tx_commit = tx_commit;
	c->dm_ops.tx_rollback = tx_rollback;
	c->dm_ops.as_key_put = as_key_put;
	fake_store_signal_ops(c->st, &c->sig_ops);
	fake_store_signal_ops(c->pst, &c->psig_ops);
	assert_int_equal(wa_signal_new(&c->sig_ops, fake_clock_now, &c->clock,
	    &c->sig), 0);
	assert_int_equal(wa_signal_new(&c->psig_ops, fake_clock_now,
	    &c->clock, &c->psig), 0);
	assert_int_equal(wa_dm_new(&c->host, &c->dm_ops, c->sig, &cfg,
	    on_event, c, &c->dm), 0);
	assert_int_equal(wa_signal_addr_from_jid(ME_DEV, strlen(ME_DEV),
	    &c->me), 0);
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
	CTX = NULL;
	return 0;
}

/*
 * Message msg[0..len) from from (a device of ours or not) to us as a
 * 1:1 pkmsg with id; returns what wa_dm_stanza() says.
 */
static int
deliver(struct ctx *c, const char *from, const char *id, const uint8_t *msg,
    size_t len)
{
	struct wa_signal_bundle	 b;
	enum wa_signal_type	 type;
	struct buf		 p = BUF_INIT, ct = BUF_INIT;
	struct wa_node		*n, *k;
	uint8_t			*v;
	int			 rc;

	fake_store_bundle(c->st, 1, &b);
	assert_int_equal(wa_signal_process_bundle(c->psig, &c->me, &b, NULL),
	    0);
	wa_msg_pad(msg, len, 1, &p);
	assert_int_equal(wa_signal_encrypt(c->psig, &c->me, p.p, p.len,
	    &type, &ct), 0);
	assert_int_equal(type, WA_SIGNAL_PKMSG);
	n = wa_nb_new(&c->a, "message", 5);
	wa_nb_attr(n, "id", id);
	assert_int_equal(wa_nb_attr_jid(n, "from", from), 0);
	wa_nb_attr(n, "type", "text");
	wa_nb_attr(n, "t", "1700000000");
	k = wa_nb_kids(&c->a, n, 1);
	v = arena_alloc(&c->a, ct.len);
	memcpy(v, ct.p, ct.len);
	wa_nb_kid(&c->a, k, "enc", 2);
	wa_nb_attr(k, "v", "2");
	wa_nb_attr(k, "type", "pkmsg");
	wa_nb_bytes(k, v, ct.len);
	rc = wa_dm_stanza(c->dm, n);
	buf_release(&p);
	buf_release(&ct);
	return rc;
}

/* A share of KID1 and KID2. */
static void
share(struct buf *out)
{
	struct wa_askey	 k[2];

	memset(k, 0, sizeof(k));
	k[0].id = KID1;
	k[0].id_len = sizeof(KID1);
	k[0].data = DATA;
	k[0].data_len = 32;
	k[0].ts = T0_MS;
	k[1] = k[0];
	k[1].id = KID2;
	assert_int_equal(wa_askey_share_build(k, 2, out), 0);
}

/* The message id was acked, and decrypted (no retry receipt asked for
 * it again). */
static bool
acked(struct ctx *c, const char *id)
{
	return fake_transport_find(&c->wire, 0, "ack", "id", id) >= 0 &&
	    fake_transport_find(&c->wire, 0, "receipt", "type", "retry") < 0;
}

static void
test_dm_askey_share__stored_in_its_transaction_then_kicked__from_our_phone(
    void **state)
{
	struct ctx	*c = *state;
	struct buf	 m = BUF_INIT;

	share(&m);
	(void)deliver(c, PHONE, "3EB0KEYSHARE01", m.p, m.len);
	assert_int_equal(c->nkeys, 2);
	assert_memory_equal(c->ids[0], KID1, sizeof(KID1));
	assert_memory_equal(c->ids[1], KID2, sizeof(KID2));
	assert_int_equal(c->kicks, 1);
	assert_int_equal(c->depth, 0);
	assert_true(acked(c, "3EB0KEYSHARE01"));
	buf_release(&m);
}

static void
test_dm_askey_share__ignored__from_another_account(void **state)
{
	struct ctx	*c = *state;
	struct buf	 m = BUF_INIT;

	share(&m);
	(void)deliver(c, OTHER, "3EB0KEYSHARE02", m.p, m.len);
	assert_int_equal(c->nkeys, 0);
	assert_int_equal(c->kicks, 0);
	assert_true(acked(c, "3EB0KEYSHARE02"));
	buf_release(&m);
}

static void
test_dm_askey_share__dropped__when_it_holds_no_usable_key(void **state)
{
	struct ctx	*c = *state;
	/* protocolMessage{type=6, appStateSyncKeyShare{}} */
	static const uint8_t m[] = { 0x62, 0x04, 0x10, 0x06, 0x3a, 0x00 };

	(void)deliver(c, PHONE, "3EB0KEYSHARE03", m, sizeof(m));
	assert_int_equal(c->nkeys, 0);
	assert_int_equal(c->kicks, 0);
	assert_true(acked(c, "3EB0KEYSHARE03"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dm_askey_share__stored_in_its_transaction_then_kicked__from_our_phone, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dm_askey_share__ignored__from_another_account, setup, teardown),
		cmocka_unit_test_setup_teardown(test_dm_askey_share__dropped__when_it_holds_no_usable_key, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
