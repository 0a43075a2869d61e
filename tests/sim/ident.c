/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/ident.c -- the server's word that a user's identity changed
 * (tests/sim/sim.h): after a reinstall, every device of every other
 * account gets <notification type="encrypt" from=USER id t><identity/>
 * </notification> (protocol.md 7.4, 11.7), queued like any routed stanza:
 * sent at once to a connected device, again at each login (offline="1")
 * until that device acks it.  Source: whatsmeow notification.go
 * handleEncryptNotification, Baileys identity-change-handler.ts (the
 * shape a client reads).
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "nodes.h"
#include "route.h"
#include "sim.h"

#define IDENT_MAX_DEVICES	64

unsigned
sim_ident_notify(struct sim *s, struct sim_account *a, bool lid)
{
	struct sim_account	*b;
	struct arena		 ar;
	struct wa_node		*n;
	char			 id[32], from[96];
	uint32_t		 devs[IDENT_MAX_DEVICES];
	unsigned		 queued = 0;
	size_t			 i, nd;

	if (lid && a->lid[0] == '\0')
		lid = false;
	arena_init(&ar, 0);
	n = sn_new(&ar, "notification");
	snprintf(id, sizeof(id), "sim-id-%" PRIu64, ++s->next_iq);
	route_put_jid(&ar, n, "from", a, lid, 0);
	route_jid_text(from, sizeof(from), a, lid, 0);
	sn_attr(&ar, n, "id", id);
	sn_attr(&ar, n, "type", "encrypt");
	route_put_t(&ar, n, "t", route_now_s());
	(void)sn_child(&ar, n, "identity");
	for (b = s->accounts; b != NULL; b = b->next) {
		if (b == a)
			continue;
		nd = sim_route_devices(b, devs, IDENT_MAX_DEVICES);
		for (i = 0; i < nd; i++)
			if (sim_route_queue(s, SIM_ROUTE_NOTIFICATION, id,
			    "encrypt", from, b, devs[i], false, "", n) >= 0)
				queued++;
	}
	arena_release(&ar);
	sim_log(s, "phone %s: identity notification %s (from its %s) queued "
	    "for %u devices", a->pn, id, lid ? "LID" : "PN", queued);
	return queued;
}
