/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-dm-peer.c -- a peer device under both its addresses
 * (proto/dm-peer.c, issue 15 point 3; protocol.md 5.3) as the message
 * engine receives group messages, against fakes: an in-memory store
 * (tests/fakes/fake-store.c, which keeps the PN-LID mapping both ways),
 * a transport that records what is sent (fake-transport.c) and a still
 * clock.  The group member is a real Signal party over a fake store of
 * its own: what wachat reads is what that party encrypted.
 *
 * A stanza names the sender in one namespace and gives the other in an
 * attribute: participant (LID) with participant_pn, or participant (PN)
 * with participant_lid.  The mapping is saved from either, so that a
 * later skmsg whose sender is named only in the other namespace finds
 * the sender key its SKDM left under the first: read at once, no retry
 * receipt.
 */
#include "base/compat.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "proto/crypto.h"
#include "proto/dm.h"
#include "proto/group.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-clock.h"
#include "tests/fakes/fake-store.h"
#include "tests/fakes/fake-transport.h"

#define T0_MS		1700000000000LL
#define ME_DEV		"15550000001:3@s.whatsapp.net"	/* this device */
#define PN_DEV		"15550000002@s.whatsapp.net"	/* the member */
#define LID_DEV		"200000000000002@lid"		/* ... its LID */
#define GROUP		"120363000000000001@g.us"
#define MAX_EVS		16

struct ctx {
	struct fake_clock	 clock;
	struct fake_transport	 wire;
	struct wa_dm_host	 host;
	struct fake_store	*st, *pst;	/* ours, the member's */
	struct wa_dm_store_ops	 dm_ops;
	struct wa_signal_store_ops sig_ops, psig_ops;
	struct wa_signal	*sig, *psig;
	struct wa_dm		*dm;
	struct wa_signal_addr	 me, pn;	/* our device, the member's */
	char			 texts[MAX_EVS][64];
	size_t			 nevs;
	struct arena		 a;
};

static const uint8_t adv[] = { 0x0a, 0x03, 'a', 'd', 'v' };

static void
on_event(void *arg, const struct wa_dm_ev *e)
{
	struct ctx	*c = arg;

	if (e->kind != WA_DM_EV_MESSAGE || e->notice || c->nevs >= MAX_EVS)
		return;
	snprintf(c->texts[c->nevs++], sizeof(c->texts[0]), "%s",
	    e->text != NULL ? e->text : "");
}

static int
setup(void **state)
{
	struct ctx		*c = calloc(1, sizeof(*c));
	struct wa_dm_cfg	 cfg = { true, true, true };
	struct wa_signal_bundle	 b;

	assert_non_null(c);
	assert_int_equal(wa_crypto_init(), 0);
	fake_clock_init(&c->clock, T0_MS);
	fake_transport_init(&c->wire, &c->clock);
	fake_transport_host(&c->wire, &c->host);
	c->st = fake_store_new();
	c->pst = fake_store_new();
	fake_store_dm_ops(c->st, &c->dm_ops);
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
	assert_int_equal(wa_signal_addr_from_jid(PN_DEV, strlen(PN_DEV),
	    &c->pn), 0);
	/* the member has a session with us, from our bundle */
	fake_store_bundle(c->st, 1, &b);
	assert_int_equal(wa_signal_process_bundle(c->psig, &c->me, &b, NULL),
	    0);
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

/* An <enc v="2" type> holding b, in k. */
static void
enc_kid(struct ctx *c, struct wa_node *k, const char *type,
    const struct buf *b)
{
	uint8_t	*v = arena_alloc(&c->a, b->len);

	memcpy(v, b->p, b->len);
	wa_nb_kid(&c->a, k, "enc", 2);
	wa_nb_attr(k, "v", "2");
	wa_nb_attr(k, "type", type);
	wa_nb_bytes(k, v, b->len);
}

/* The member's skmsg of text (its sender key, made on first use). */
static void
skmsg_of(struct ctx *c, const char *text, struct buf *out)
{
	struct wa_msg_text	 t = { .text = text };
	struct buf		 msg = BUF_INIT, plain = BUF_INIT;

	assert_int_equal(wa_msg_build_text(&t, &msg), 0);
	wa_msg_pad(msg.p, msg.len, 1, &plain);
	assert_int_equal(wa_signal_group_encrypt(c->psig, GROUP, &c->pn,
	    plain.p, plain.len, out), 0);
	buf_release(&msg);
	buf_release(&plain);
}

/*
 * Feed a group <message id from=GROUP participant [attr=alt]> with the
 * member's SKDM pairwise (a pkmsg to us) when skdm, then its skmsg of
 * text.
 */
static void
group_message(struct ctx *c, const char *id, const char *participant,
    const char *attr, const char *alt, bool skdm, const char *text)
{
	struct buf		 sk = BUF_INIT, m = BUF_INIT, p = BUF_INIT;
	struct buf		 ct = BUF_INIT, skm = BUF_INIT;
	enum wa_signal_type	 type;
	struct wa_node		*n, *k;

	if (skdm) {
		assert_int_equal(wa_signal_group_skdm(c->psig, GROUP, &c->pn,
		    &sk), 0);
		assert_int_equal(wa_group_message_skdm(GROUP, sk.p, sk.len,
		    &m), 0);
		wa_msg_pad(m.p, m.len, 1, &p);
		assert_int_equal(wa_signal_encrypt(c->psig, &c->me, p.p,
		    p.len, &type, &ct), 0);
		assert_int_equal(type, WA_SIGNAL_PKMSG);
	}
	skmsg_of(c, text, &skm);
	n = wa_nb_new(&c->a, "message", 6);
	wa_nb_attr(n, "id", id);
	assert_int_equal(wa_nb_attr_jid(n, "from", GROUP), 0);
	assert_int_equal(wa_nb_attr_jid(n, "participant", participant), 0);
	if (attr != NULL)
		assert_int_equal(wa_nb_attr_jid(n, attr, alt), 0);
	wa_nb_attr(n, "type", "text");
	wa_nb_attr(n, "t", "1700000000");
	k = wa_nb_kids(&c->a, n, skdm ? 2 : 1);
	if (skdm)
		enc_kid(c, &k[0], "pkmsg", &ct);
	enc_kid(c, &k[skdm ? 1 : 0], "skmsg", &skm);
	(void)wa_dm_stanza(c->dm, n);
	buf_release(&sk);
	buf_release(&m);
	buf_release(&p);
	buf_release(&ct);
	buf_release(&skm);
}

/* The number of retry receipts on the wire. */
static int
retries(struct ctx *c)
{
	return fake_transport_find(&c->wire, 0, "receipt", "type", "retry") < 0
	    ? 0 : 1;
}

/* The SKDM under PN (participant_lid given), the skmsg under LID alone. */
static void
test_dm_peer_skmsg__read__when_the_skdm_came_under_pn_with_its_lid(
    void **state)
{
	struct ctx	*c = *state;

	group_message(c, "3EB0A1", PN_DEV, "participant_lid", LID_DEV, true,
	    "one");
	assert_int_equal(c->nevs, 1);
	assert_string_equal(c->texts[0], "one");
	group_message(c, "3EB0A2", LID_DEV, NULL, NULL, false, "two");
	assert_int_equal(c->nevs, 2);
	assert_string_equal(c->texts[1], "two");
	assert_int_equal(retries(c), 0);
}

/* The reverse: the SKDM under LID (participant_pn given), the skmsg
 * under PN alone. */
static void
test_dm_peer_skmsg__read__when_the_skdm_came_under_lid_with_its_pn(
    void **state)
{
	struct ctx	*c = *state;

	group_message(c, "3EB0B1", LID_DEV, "participant_pn", PN_DEV, true,
	    "one");
	assert_int_equal(c->nevs, 1);
	group_message(c, "3EB0B2", PN_DEV, NULL, NULL, false, "two");
	assert_int_equal(c->nevs, 2);
	assert_string_equal(c->texts[1], "two");
	assert_int_equal(retries(c), 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    test_dm_peer_skmsg__read__when_the_skdm_came_under_pn_with_its_lid,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    test_dm_peer_skmsg__read__when_the_skdm_came_under_lid_with_its_pn,
		    setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
