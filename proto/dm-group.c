/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-group.c -- the group fan-out of the outbox (struct dm_fanout,
 * proto/dm-int.h): one sender key per group, its SKDM pairwise only to
 * the devices that lack it, one skmsg for everyone, the participant hash;
 * the devices that got the SKDM are recorded once the server acks.
 * Members unknown to the store are asked first (P_META, through
 * dm-admin.c).  Called by the core (dm-job.c) through dm_group_fanout
 * only.  Sources: protocol.md 10.2-10.4; interop.md 6.
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
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/dm-int.h"
#include "proto/group.h"
#include "proto/msg.h"

/* The users: the group's members and us, from the store; an unknown
 * group is asked first (P_META: the answer calls this again). */
static void
group_start(struct wa_dm *dm)
{
	struct job		*j = &dm->job;
	struct wa_dm_group	 g;
	const char		*own;
	size_t			 i;
	bool			 have_own = false;
	int			 rc;

	memset(&g, 0, sizeof(g));
	rc = dm->st->group_get(dm->st->arg, j->o.chat, &g);
	if (rc < 0) {
		dm_job_fail(dm, rc, "cannot read the group");
		return;
	}
	if (rc == 0) {
		j->phase = P_META;
		if ((rc = dm_group_ask(dm, GQ_JOB, j->o.chat)) != 0)
			log_warn("group query not sent: %s", wc_strerror(rc));
		return;
	}
	if (g.left) {
		wa_dm_group_release(&g);
		dm_job_fail(dm, -EACCES, "you are no longer a member of this "
		    "group");
		return;
	}
	j->lid = g.lid;
	own = dm_own_user(dm, g.lid);
	if (g.lid && dm->own_lid[0] == '\0') {
		wa_dm_group_release(&g);
		dm_job_fail(dm, WC_EPROTO, "our LID is unknown");
		return;
	}
	dm_own_device(dm, g.lid, j->own_dev, sizeof(j->own_dev));
	j->users = xcalloc(g.n + 1, sizeof(*j->users));
	j->asked = xcalloc(g.n + 1, sizeof(*j->asked));
	j->nusers = 0;
	for (i = 0; i < g.n; i++) {
		if (jid_same_user(g.members[i], own))
			have_own = true;
		snprintf(j->users[j->nusers++], WA_DM_JID_MAX, "%s",
		    g.members[i]);
	}
	if (!have_own)
		snprintf(j->users[j->nusers++], WA_DM_JID_MAX, "%s", own);
	wa_dm_group_release(&g);
	dm_job_devices(dm);
}

/*
 * Our sender key for the group: a damaged one is quarantined (dropped,
 * reliability.md 9); when we have none, nobody holds it, so the memory of
 * who does is reset and the next key's SKDM goes to every device.
 */
static int
group_own_key(struct wa_dm *dm)
{
	struct job		*j = &dm->job;
	struct wa_signal_addr	 own;
	bool			 q = false;
	int			 rc;

	if (dm_addr_of(j->own_dev, &own) != 0)
		return 0;	/* group_seal says why */
	if ((rc = wa_signal_group_check(dm->sig, j->o.chat, &own, &q)) != 0)
		return rc < 0 ? rc : 0;
	if (q)
		log_warn("our sender key for a group was damaged: a new one, "
		    "its SKDM to every member device");
	return dm->st->skr_forget(dm->st->arg, j->o.chat, NULL);
}

/* A pairwise copy for the devices that lack our sender key. */
static int
group_need(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	size_t		 i;
	int		 rc;

	if ((rc = group_own_key(dm)) < 0)
		return rc;
	for (i = 0; i < j->ndevs; i++) {
		rc = dm->st->skr_has(dm->st->arg, j->o.chat, j->devs[i]);
		if (rc < 0)
			return rc;
		j->need[i] = rc == 0;
	}
	return 0;
}

/* The SKDM skdm[0..len) encrypted pairwise for each device that needs
 * it and has a session (one without had no bundle: skipped, logged; one
 * whose encryption fails is left out and reported, dm_peer_skip()). */
static int
seal_skdm(struct wa_dm *dm, struct dm_seal *s, const struct buf *skdm)
{
	struct job		*j = &dm->job;
	struct wa_signal_addr	 ad;
	struct buf		 plain = BUF_INIT;
	enum wa_signal_type	 st;
	size_t			 i;
	int			 rc = 0;

	for (i = 0; rc == 0 && i < j->ndevs; i++) {
		if (!j->need[i] || dm_addr_of(j->devs[i], &ad) != 0 ||
		    wa_signal_has_session(dm->sig, &ad) != 1)
			continue;
		plain.len = 0;
		dm_pad(dm, skdm->p, skdm->len, &plain);
		rc = wa_signal_encrypt(dm->sig, &ad, plain.p, plain.len, &st,
		    &s->ct[s->n]);
		if (rc != 0 && dm_peer_skip(dm, s, j->devs[i], rc)) {
			rc = 0;		/* the others still get it */
			continue;
		}
		if (rc != 0)
			break;
		s->enc[s->n].jid = j->devs[i];
		s->enc[s->n].type = st == WA_SIGNAL_PKMSG ? WA_MSG_ENC_PKMSG :
		    WA_MSG_ENC_MSG;
		s->enc[s->n].ct = s->ct[s->n].p;
		s->enc[s->n].ct_len = s->ct[s->n].len;
		s->pkmsg |= st == WA_SIGNAL_PKMSG;
		j->got[i] = true;
		s->n++;
	}
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	return rc;
}

/* The members the message goes to, for its ticks: the devices come
 * grouped by user (dm-job.c's fan-out list). */
static unsigned
recipients(const struct job *j)
{
	unsigned	 nr = 0;
	size_t		 i;

	for (i = 0; i < j->ndevs; i++)
		if (!j->own[i] && (i == 0 || j->own[i - 1] ||
		    !jid_same_user(j->devs[i], j->devs[i - 1])))
			nr++;
	return nr;
}

/* Our sender key (made when we have none) and its SKDM (10.2), the
 * pairwise copies, the skmsg, and the recipients for the ticks. */
static int
group_seal(struct wa_dm *dm, struct dm_seal *s)
{
	struct job		*j = &dm->job;
	struct wa_signal_addr	 own;
	struct buf		 skdm = BUF_INIT, plain = BUF_INIT;
	struct buf		 sk = BUF_INIT;
	size_t			 i, nneed = 0;
	int			 rc;

	if ((rc = dm_addr_of(j->own_dev, &own)) != 0) {
		s->why = "our device address is malformed";
		return rc;
	}
	s->why = "cannot encrypt for the group";
	for (i = 0; i < j->ndevs; i++)
		nneed += j->need[i];
	dm_seal_reserve(s, nneed);
	rc = wa_signal_group_skdm(dm->sig, j->o.chat, &own, &sk);
	if (rc == 0 && nneed > 0)
		rc = wa_group_message_skdm(j->o.chat, sk.p, sk.len, &skdm);
	if (rc == 0)
		rc = seal_skdm(dm, s, &skdm);
	if (rc == 0) {
		dm_pad(dm, j->o.payload, j->o.payload_len, &plain);
		rc = wa_signal_group_encrypt(dm->sig, j->o.chat, &own, plain.p,
		    plain.len, &s->skmsg);
	}
	if (rc == 0 && dm->st->group_sent != NULL)
		rc = dm->st->group_sent(dm->st->arg, j->o.chat, j->o.id,
		    recipients(j));
	s->arena_len = 4096 + 512 * s->n;
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	buf_release(&skdm);
	buf_release(&sk);
	return rc;
}

static int
group_stanza(struct wa_dm *dm, struct dm_seal *s, struct arena *a,
    struct wa_node **out)
{
	struct job		*j = &dm->job;
	struct wa_group_send	 gs;
	char			*phash;
	const char		**devs;
	size_t			 i, nd = 0;
	int			 rc;

	devs = xcalloc(j->ndevs + 1, sizeof(*devs));
	for (i = 0; i < j->ndevs; i++)
		devs[nd++] = j->devs[i];
	devs[nd++] = j->own_dev;
	/* In a, as the node: it keeps the pointer and is encoded after
	 * this returns (dm_send() in proto/dm-job.c). */
	phash = arena_alloc(a, WA_GROUP_PHASH_LEN + 1);
	rc = wa_group_phash(devs, nd, phash);
	free(devs);
	if (rc != 0)
		return rc;	/* s->why from the seal */
	memset(&gs, 0, sizeof(gs));
	gs.id = j->o.id;
	gs.to = j->o.chat;
	gs.type = j->o.type[0] != '\0' ? j->o.type : "text";
	gs.mediatype = dm_mediatype(&j->o);
	gs.phash = phash;
	gs.addressing_mode = j->lid ? "lid" : "pn";
	gs.edit = j->o.edit[0] != '\0' ? j->o.edit : NULL;
	gs.skdm = s->enc;
	gs.n_skdm = s->n;
	gs.skmsg = s->skmsg.p;
	gs.skmsg_len = s->skmsg.len;
	if (s->pkmsg) {
		gs.device_identity = dm->adv;
		gs.device_identity_len = dm->adv_len;
	}
	gs.reporting_token = dm_reporting_token(dm, j->lid ? dm->own_lid :
	    dm->own_pn, j->o.chat, a);
	s->why = "cannot build the stanza";
	return wa_group_stanza(&gs, a, out);
}

/* The server has the message: the devices that got our SKDM hold our
 * sender key from now on. */
static void
group_acked(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	size_t		 i;
	int		 rc;

	for (i = 0; i < j->ndevs; i++)
		if (j->got[i] && (rc = dm->st->skr_put(dm->st->arg, j->o.chat,
		    j->devs[i])) != 0)
			log_warn("cannot record a sender-key holder: %s",
			    wc_strerror(rc));
}

const struct dm_fanout dm_group_fanout = {
	.name = "group message",
	.contact_required = false,
	.start = group_start,
	.need = group_need,
	.seal = group_seal,
	.stanza = group_stanza,
	.acked = group_acked,
};
