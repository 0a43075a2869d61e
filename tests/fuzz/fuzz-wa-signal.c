/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-signal.c -- fuzz target for the Signal layer's
 * readers of what peers send (proto/wa-signal.h): wa_signal_decrypt() of a
 * pkmsg and a msg, wa_signal_group_decrypt() of an skmsg and
 * wa_signal_group_process_skdm(), over the fixed world of
 * tests/fuzz/signal-world.h (our identity, prekeys, a session with the
 * peer and the peer's sender key of a group, in an in-memory store), so
 * that a payload gets past the header to the MAC, the ratchet and the
 * chain.  Then, as the engine does, the plaintext is unpadded and parsed
 * (wa_msg_unpad, wa_msg_parse) and an SKDM it carries is processed.
 * Input: a mode byte, then the payload:
 *   0 a pkmsg from SW_OTHER_JID (no session yet)
 *   1 a pkmsg from SW_PEER_JID (a session exists)
 *   2 a msg from SW_PEER_JID
 *   3 an skmsg of SW_GROUP from SW_PEER_JID
 *   4 a 2-byte big-endian length L, an SKDM of SW_GROUP2 from
 *     SW_OTHER_JID of L bytes, then an skmsg under it (which must not
 *     decrypt when the SKDM was refused: the world has no such key)
 * Each input runs inside a store transaction that is rolled back after,
 * and with the random stream restarted, so every run starts from the same
 * world.  Contract: an error code, or a plaintext of at most the
 * payload's length; the same msg or skmsg does not decrypt twice; every
 * transaction the layer opens is closed; no crash, no leak.
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "base/buf.h"
#include "proto/msg.h"
#include "proto/wa-signal.h"
#include "tests/fakes/fake-rand.h"
#include "tests/fakes/fake-store.h"
#include "tests/fuzz/signal-world.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sw	 w;
static bool		 ready;

/* The engine's next steps with a plaintext p from a in group (or NULL). */
static void
take_plain(const struct buf *p, const struct wa_signal_addr *a,
    const char *group)
{
	struct wa_msg_content	 c;
	size_t			 len;

	if (wa_msg_unpad(p->p, p->len, &len) != 0 ||
	    wa_msg_parse(p->p, len, &c) != 0)
		return;
	if (c.skdm != NULL && c.skdm_len > 0 &&
	    wa_signal_group_process_skdm(w.s_us, c.skdm_group != NULL ?
	    c.skdm_group : group != NULL ? group : SW_GROUP2, a, c.skdm,
	    c.skdm_len) != 0)
		c.skdm_len = 0;		/* refused: the message stays */
	wa_msg_content_release(&c);
}

static int
one(uint8_t mode, const uint8_t *d, size_t len, struct buf *out)
{
	const struct wa_signal_addr	*a;
	size_t				 l;
	int				 rc, skdm_rc;

	switch (mode) {
	case 0:
	case 1:
		a = mode == 0 ? &w.other_addr : &w.peer_addr;
		rc = wa_signal_decrypt(w.s_us, a, WA_SIGNAL_PKMSG, d, len, out,
		    NULL);
		if (rc == 0)
			take_plain(out, a, NULL);
		return rc;
	case 2:
		rc = wa_signal_decrypt(w.s_us, &w.peer_addr, WA_SIGNAL_MSG, d,
		    len, out, NULL);
		if (rc == 0) {
			struct buf	 again = BUF_INIT;

			if (wa_signal_decrypt(w.s_us, &w.peer_addr,
			    WA_SIGNAL_MSG, d, len, &again, NULL) == 0)
				abort();	/* replayed */
			buf_release(&again);
			take_plain(out, &w.peer_addr, NULL);
		}
		return rc;
	case 3:
		rc = wa_signal_group_decrypt(w.s_us, SW_GROUP, &w.peer_addr, d,
		    len, out);
		break;
	default:
		if (len < 2)
			return 0;
		l = (size_t)d[0] << 8 | d[1];
		d += 2;
		len -= 2;
		if (l > len)
			l = len;
		skdm_rc = wa_signal_group_process_skdm(w.s_us, SW_GROUP2,
		    &w.other_addr, d, l);
		rc = wa_signal_group_decrypt(w.s_us, SW_GROUP2, &w.other_addr,
		    d + l, len - l, out);
		if (skdm_rc != 0 && rc == 0)
			abort();	/* no key of this sender, yet it read */
		d += l;
		len -= l;
		break;
	}
	if (rc == 0) {
		struct buf	 again = BUF_INIT;

		if (wa_signal_group_decrypt(w.s_us, mode == 3 ? SW_GROUP :
		    SW_GROUP2, mode == 3 ? &w.peer_addr : &w.other_addr, d, len,
		    &again) == 0)
			abort();	/* replayed */
		buf_release(&again);
		take_plain(out, mode == 3 ? &w.peer_addr : &w.other_addr,
		    mode == 3 ? SW_GROUP : SW_GROUP2);
	}
	return rc;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct buf	 out = BUF_INIT;
	int		 rc;

	if (!ready) {
		sw_build(&w);
		ready = true;
	}
	if (size < 1)
		return 0;
	fake_rand_reset(SW_SEED + 1);
	if (w.us_ops.tx_begin(w.us_ops.arg) != 0)
		abort();
	rc = one(data[0] % 5, data + 1, size - 1, &out);
	if (rc == 0 && out.len > size)
		abort();
	if (rc != 0 && out.len != 0)
		abort();	/* *out untouched on error */
	if (fake_store_tx_depth(w.us) != 1)
		abort();	/* a level left open or closed twice */
	if (w.us_ops.tx_rollback(w.us_ops.arg) != 0)
		abort();
	buf_release(&out);
	return 0;
}
