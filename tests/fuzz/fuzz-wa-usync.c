/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-usync.c -- fuzz target for the answers the usync and
 * prekey queries get (proto/usync.c; protocol.md 8.1, 8.2, 9.6): the input
 * is one frame as the server sends it (flags byte and binary node,
 * proto/bin.h), unpacked, then read as the engine reads it
 * (proto/dm-job.c, proto/dm-receipt.c): wa_usync_devices_parse() for the
 * device lists and LIDs, wa_usync_bundle() for every <user jid> of its
 * <list> and every device the usync answer named, and
 * wa_usync_bundle_of() of a retry receipt's <keys>.
 * Contract: read or refused with WC_EPROTO; counts and lengths within
 * their bounds; no crash, no leak, no read outside the input.  Seeds:
 * tests/fuzz/seeds-baileys.mjs (Baileys' binary-node encoder).
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/bin.h"
#include "proto/node.h"
#include "proto/usync.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
bundle(const struct wa_node *iq, const char *jid)
{
	struct wa_signal_bundle	 b;
	int			 rc;

	rc = wa_usync_bundle(iq, jid, &b);
	if (rc != 0 && rc != 1 && rc != WC_EPROTO)
		abort();
	if (rc == 1 && ((b.spk_id >> 24) != 0 || (b.has_prekey &&
	    (b.prekey_id >> 24) != 0)))
		abort();	/* 3-byte ids */
}

static void
devices(const struct wa_node *iq)
{
	struct wa_usync_user	*u;
	char			 jid[WA_USYNC_JID_MAX + 16];
	const char		*at;
	size_t			 i, j;
	int			 k;

	u = xcalloc(WA_USYNC_MAX_USERS, sizeof(*u));
	k = wa_usync_devices_parse(iq, u, WA_USYNC_MAX_USERS);
	if (k != WC_EPROTO && (k < 0 || k > WA_USYNC_MAX_USERS))
		abort();
	for (i = 0; k > 0 && i < (size_t)k; i++) {
		if (u[i].n_devices > WA_USYNC_MAX_DEVICES ||
		    memchr(u[i].jid, '\0', sizeof(u[i].jid)) == NULL ||
		    memchr(u[i].lid, '\0', sizeof(u[i].lid)) == NULL)
			abort();
		/* The devices' bundles, by their AD-JIDs (dm-job.c's way). */
		if ((at = strchr(u[i].jid, '@')) == NULL)
			continue;
		for (j = 0; j < u[i].n_devices; j++) {
			if (u[i].devices[j] > 255)
				abort();
			snprintf(jid, sizeof(jid), "%.*s:%u%s",
			    (int)(at - u[i].jid), u[i].jid,
			    (unsigned)u[i].devices[j], at);
			bundle(iq, u[i].devices[j] == 0 ? u[i].jid : jid);
		}
	}
	free(u);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena		 a;
	struct wa_node		*n;
	const struct wa_node	*list, *keys;
	struct wa_signal_bundle	 b;
	const uint8_t		*reg;
	char			 jid[WA_USYNC_JID_MAX];
	size_t			 off = 0, i, len;
	int			 rc;

	arena_init(&a, 0);
	/* wa_bin_unpack() caps the frame (WA_BIN_MAX_FRAME). */
	if (wa_bin_unpack(data, size, &a, &n, &off) != 0)
		goto out;
	devices(n);
	list = wa_node_child(n, "list");
	for (i = 0; i < wa_node_nkids(list); i++)
		if (wa_node_jid(wa_node_kid(list, i), "jid", jid, sizeof(jid)))
			bundle(n, jid);
	/* A retry receipt's keys, with its <registration> (9.6). */
	if ((keys = wa_node_child(n, "keys")) != NULL) {
		uint32_t	 regid = 0;

		if (wa_node_bytes(wa_node_child(n, "registration"), &reg,
		    &len) && len == 4)
			regid = (uint32_t)reg[0] << 24 | reg[1] << 16 |
			    reg[2] << 8 | reg[3];
		rc = wa_usync_bundle_of(keys, regid, &b);
		if (rc != 0 && rc != WC_EPROTO)
			abort();
		if (rc == 0 && b.registration_id != regid)
			abort();
	}
out:
	arena_release(&a);
	return 0;
}
