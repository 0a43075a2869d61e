/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/signal-world.h -- the fixed Signal world of fuzz-wa-signal,
 * fuzz-wa-eng and their seed maker gen-wa-signal: two devices, each an
 * in-memory store (tests/fakes/fake-store.h) with a wa_signal over it,
 * made from the deterministic stream of tests/fakes/fake-rand.h, so the
 * same keys come out in every process.  "us" (SW_OWN_JID) holds a session
 * with "peer" (SW_PEER_JID: the peer sent a pkmsg, we answered, the peer
 * read it, so the peer's next payloads are msgs) and the peer's sender
 * key of SW_GROUP (its SKDM processed).  Our one-time prekeys 2..4 and
 * our signed prekey are left for pkmsgs of other senders.  One thread.
 */
#ifndef WC_SIGNAL_WORLD_H
#define WC_SIGNAL_WORLD_H

#include <stdint.h>

#include "proto/wa-signal.h"
#include "tests/fakes/fake-store.h"

#define SW_OWN_JID	"15550002222:3@s.whatsapp.net"
#define SW_OWN_LID	"100000000002222:3@lid"
#define SW_PEER_JID	"15550001111:2@s.whatsapp.net"
#define SW_OTHER_JID	"15550003333@s.whatsapp.net"	/* no session */
#define SW_GROUP	"120363000000000009@g.us"
#define SW_GROUP2	"120363000000000010@g.us"
#define SW_SEED		0x5157415443484154ull	/* the stream's start */
#define SW_NOW_MS	1700000000000ll		/* the clock, ms */

struct sw {
	struct fake_store		*us, *peer;
	struct wa_signal_store_ops	 us_ops, peer_ops;
	struct wa_signal		*s_us, *s_peer;
	struct wa_signal_addr		 peer_addr;	/* as we see it */
	struct wa_signal_addr		 own_addr;	/* as the peer sees us */
	struct wa_signal_addr		 other_addr;
};

/*
 * Keep the log to errors, install the deterministic stream, run
 * wa_crypto_init() and build the world into *w (see above).  Any failure aborts (a broken fake or
 * library, not an input).  Call once per process.
 */
void		sw_build(struct sw *w);

/* The fixed clock (wa_signal_clock_fn). */
int64_t		sw_now(void *arg);

#endif
