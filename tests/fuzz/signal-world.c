/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/signal-world.c -- the fixed Signal world of the fuzz targets
 * (tests/fuzz/signal-world.h).
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/log.h"
#include "proto/crypto.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-rand.h"
#include "tests/fakes/fake-store.h"
#include "tests/fuzz/signal-world.h"

int64_t
sw_now(void *arg)
{
	(void)arg;
	return SW_NOW_MS;
}

static void
must(int rc)
{
	if (rc != 0)
		abort();
}

static void
addr(const char *jid, struct wa_signal_addr *a)
{
	must(wa_signal_addr_from_jid(jid, strlen(jid), a));
}

void
sw_build(struct sw *w)
{
	struct wa_signal_bundle	 b;
	struct buf		 c = BUF_INIT, p = BUF_INIT, skdm = BUF_INIT;
	enum wa_signal_type	 type;
	static const uint8_t	 hello[] = { 0x0a, 0x05, 'h', 'e', 'l', 'l',
				    'o', 0x01 };

	memset(w, 0, sizeof(*w));
	/* Errors only: a fuzzer's millions of refusals are not news. */
	if (log_open(NULL, LOG_ERROR) != 0)
		abort();
	fake_rand_install(SW_SEED);
	must(wa_crypto_init());
	w->us = fake_store_new();
	w->peer = fake_store_new();
	fake_store_signal_ops(w->us, &w->us_ops);
	fake_store_signal_ops(w->peer, &w->peer_ops);
	must(wa_signal_new(&w->us_ops, sw_now, NULL, &w->s_us));
	must(wa_signal_new(&w->peer_ops, sw_now, NULL, &w->s_peer));
	addr(SW_PEER_JID, &w->peer_addr);
	addr(SW_OWN_JID, &w->own_addr);
	addr(SW_OTHER_JID, &w->other_addr);

	/* The peer starts a session with our prekey 1; we read its pkmsg. */
	fake_store_bundle(w->us, 1, &b);
	must(wa_signal_process_bundle(w->s_peer, &w->own_addr, &b, NULL));
	must(wa_signal_encrypt(w->s_peer, &w->own_addr, hello, sizeof(hello),
	    &type, &c));
	if (type != WA_SIGNAL_PKMSG)
		abort();
	must(wa_signal_decrypt(w->s_us, &w->peer_addr, type, c.p, c.len, &p,
	    NULL));
	/* We answer; the peer reads it, so its next payloads are msgs. */
	c.len = p.len = 0;
	must(wa_signal_encrypt(w->s_us, &w->peer_addr, hello, sizeof(hello),
	    &type, &c));
	must(wa_signal_decrypt(w->s_peer, &w->own_addr, type, c.p, c.len, &p,
	    NULL));
	/* The peer's sender key of SW_GROUP, its SKDM processed by us. */
	must(wa_signal_group_skdm(w->s_peer, SW_GROUP, &w->peer_addr, &skdm));
	must(wa_signal_group_process_skdm(w->s_us, SW_GROUP, &w->peer_addr,
	    skdm.p, skdm.len));
	buf_release(&c);
	buf_release(&p);
	buf_release(&skdm);
}
