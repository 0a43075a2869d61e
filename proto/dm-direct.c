/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-direct.c -- the 1:1 fan-out of the outbox (struct dm_fanout,
 * proto/dm-int.h): a message to a contact goes to every device of the
 * contact and to our own other devices (those wrapped in
 * deviceSentMessage), each copy encrypted pairwise, all in one
 * <message><participants> stanza (protocol.md 9.2-9.4).  Called by the
 * core (dm-job.c) through dm_direct_fanout only.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/xmalloc.h"
#include "proto/dm-int.h"
#include "proto/msg.h"

#define MAX_FANOUT	(2 * WA_USYNC_MAX_DEVICES)	/* contact and us */

/* The users: the contact, then us, in the chat's namespace (9.4). */
static void
direct_start(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	const char	*own;

	own = jid_is_lid(j->o.chat) && dm->own_lid[0] != '\0' ?
	    dm->own_lid : dm->own_pn;
	j->users = xcalloc(2, sizeof(*j->users));
	j->asked = xcalloc(2, sizeof(*j->asked));
	j->nusers = 2;
	if (!jid_user_of(j->o.chat, j->users[0], sizeof(j->users[0]))) {
		dm_job_fail(dm, -EINVAL, "not a contact's JID");
		return;
	}
	snprintf(j->users[1], sizeof(j->users[1]), "%s", own);
	dm_job_devices(dm);
}

/* One copy per device with a session (a device without one had no
 * bundle: skipped, logged; one whose encryption fails is left out and
 * reported, dm_peer_skip()); at least one must be the contact's. */
static int
direct_seal(struct wa_dm *dm, struct dm_seal *s)
{
	struct job		*j = &dm->job;
	struct wa_signal_addr	 ad;
	size_t			 i, npeer = 0;
	int			 rc;

	s->why = "cannot encrypt";
	if (j->ndevs > MAX_FANOUT) {
		s->why = "too many devices";
		return WC_ETOOBIG;
	}
	dm_seal_reserve(s, j->ndevs);
	for (i = 0; i < j->ndevs; i++) {
		if (dm_addr_of(j->devs[i], &ad) != 0 ||
		    wa_signal_has_session(dm->sig, &ad) != 1)
			continue;
		rc = dm_encrypt_for(dm, j->devs[i], j->own[i], j->users[0],
		    j->o.payload, j->o.payload_len, &s->enc[s->n].type,
		    &s->ct[s->n]);
		if (rc != 0 && dm_peer_skip(dm, s, j->devs[i], rc))
			continue;	/* the other devices still get it */
		if (rc != 0)
			return rc;
		s->enc[s->n].jid = j->devs[i];
		s->enc[s->n].ct = s->ct[s->n].p;
		s->enc[s->n].ct_len = s->ct[s->n].len;
		s->n++;
		if (!j->own[i])
			npeer++;
	}
	if (npeer == 0) {
		s->why = "no device of the contact could be reached";
		return WC_ENOSESSION;
	}
	return 0;
}

static int
direct_stanza(struct wa_dm *dm, struct dm_seal *s, struct arena *a,
    struct wa_node **out)
{
	struct job		*j = &dm->job;
	struct wa_msg_send	 ms;
	int			 rc;

	memset(&ms, 0, sizeof(ms));
	ms.id = j->o.id;
	ms.to = j->users[0];
	ms.type = j->o.type[0] != '\0' ? j->o.type : "text";
	ms.mediatype = dm_mediatype(&j->o);
	ms.edit = j->o.edit[0] != '\0' ? j->o.edit : NULL;
	ms.encs = s->enc;
	ms.n_encs = s->n;
	ms.device_identity = dm->adv;
	ms.device_identity_len = dm->adv_len;
	ms.reporting_token = dm_reporting_token(dm, j->users[1], j->users[0],
	    a);
	s->why = "cannot build the stanza";
	if ((rc = wa_msg_stanza(&ms, a, out)) != 0)
		return rc;
	/* the privacy token (15.6): never to ourselves */
	if (!dm_is_own(dm, j->users[0]))
		dm_tok_attach(dm, j->users[0], a, *out);
	return 0;
}

/* Acked: our own token to the contact, once per 7-day bucket, but not
 * after a protocol message (an edit, a delete: Baileys, as WA Web). */
static void
direct_acked(struct wa_dm *dm)
{
	if (dm->job.o.edit[0] == '\0')
		dm_tok_after_send(dm, dm->job.users[0]);
}

const struct dm_fanout dm_direct_fanout = {
	.name = "message",
	.contact_required = true,
	.start = direct_start,
	.need = NULL,
	.seal = direct_seal,
	.stanza = direct_stanza,
	.acked = direct_acked,
};
