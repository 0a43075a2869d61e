/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-group.c -- fuzz target for the group readers of
 * proto/group.c: the answers to the w:g2 queries (wa_group_iq_parse) and
 * the w:gp2 notifications (wa_group_notification_parse), as the server
 * sends them.  Input: a frame payload (flags byte, then the node), read
 * by wa_bin_unpack() as the engine reads every stanza.  Contract: each
 * reader returns an error or a bounded result (at most
 * WA_GROUP_MAX_GROUPS groups, WA_GROUP_MAX_EVENTS events,
 * WA_GROUP_MAX_PARTICIPANTS participants each), never crashes, never
 * leaks, and on error leaves its outputs untouched.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "proto/group.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena		 a;
	struct wa_node		*n;
	struct wa_group_info	*g = NULL;
	struct wa_group_event	*ev = NULL;
	const char		*why = NULL;
	size_t			 off = 0, k = 0, i;
	int			 rc;

	arena_init(&a, 0);
	if (wa_bin_unpack(data, size, &a, &n, &off) != 0)
		goto out;
	if ((rc = wa_group_iq_parse(n, &a, &g, &k, &why)) == 0) {
		if (k > WA_GROUP_MAX_GROUPS)
			abort();
		for (i = 0; i < k; i++)
			if (g[i].n_participants > WA_GROUP_MAX_PARTICIPANTS)
				abort();
	} else if (g != NULL || k != 0)
		abort();	/* outputs touched on error */
	k = 0;
	if ((rc = wa_group_notification_parse(n, &a, &ev, &k, &why)) == 0) {
		if (k > WA_GROUP_MAX_EVENTS)
			abort();
		for (i = 0; i < k; i++)
			if (ev[i].tag == NULL || ev[i].id == NULL ||
			    ev[i].n_participants > WA_GROUP_MAX_PARTICIPANTS)
				abort();
	} else if (ev != NULL || k != 0)
		abort();
out:
	arena_release(&a);
	return 0;
}
