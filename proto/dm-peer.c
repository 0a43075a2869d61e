/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-peer.c -- a peer device's Signal state as the message engine
 * (proto/dm-int.h) uses it: one device under both its addresses (PN and
 * LID, protocol.md 5.3: a session or sender key stored under one is found
 * from the other), a corrupt session record dropped and rebuilt from a
 * fresh bundle (reliability.md 9), an identity change that makes the
 * device lose our sender keys (10.4), and a device whose encryption fails
 * skipped and reported for its member only.  Calls dm-util.c only.
 * Sources: whatsmeow message.go (the sender's encryption JID is its LID
 * when the mapping is known; sessions migrated), whatsmeow retry.go and
 * Baileys messages-recv.ts (a new identity: a fresh session, our sender
 * key sent again).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/buf.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/dm-int.h"

int
dm_peer_alt(struct wa_dm *dm, const char *jid, char *out, size_t len)
{
	char	 user[WA_DM_JID_MAX], other[WA_DM_JID_MAX];
	int	 rc;

	if (dm->st->lid_alt == NULL || !jid_user_of(jid, user, sizeof(user)) ||
	    (!jid_is_pn(user) && !jid_is_lid(user)))
		return 0;
	if ((rc = dm->st->lid_alt(dm->st->arg, user, other,
	    sizeof(other))) != 1)
		return rc;
	if (!jid_with_device(other, jid_device_of(jid), out, len))
		return 0;
	return 1;
}

void
dm_peer_learn(struct wa_dm *dm, const char *participant, const char *pn_attr,
    const char *lid_attr)
{
	char		 user[WA_DM_JID_MAX], other[WA_DM_JID_MAX];
	const char	*alt;
	int		 rc;

	if (participant == NULL || !jid_user_of(participant, user,
	    sizeof(user)))
		return;
	/* the stanza names the other address in the attribute of the
	 * namespace the participant is not in (5.3, either way) */
	alt = jid_is_lid(user) ? pn_attr : jid_is_pn(user) ? lid_attr : NULL;
	if (alt == NULL || !jid_user_of(alt, other, sizeof(other)) ||
	    jid_is_lid(other) == jid_is_lid(user) ||
	    (!jid_is_pn(other) && !jid_is_lid(other)))
		return;
	if ((rc = dm->st->lid_put(dm->st->arg, jid_is_pn(user) ? user : other,
	    jid_is_lid(user) ? user : other)) < 0)
		log_warn("cannot save a PN-LID mapping: %s", wc_strerror(rc));
}

/* The alternate address of jid into *ad: 1, 0 (none), or an error. */
static int
alt_addr(struct wa_dm *dm, const char *jid, struct wa_signal_addr *ad)
{
	char	 alt[WA_DM_JID_MAX];
	int	 rc;

	if ((rc = dm_peer_alt(dm, jid, alt, sizeof(alt))) != 1)
		return rc;
	return dm_addr_of(alt, ad) == 0 ? 1 : 0;
}

int
dm_peer_group_decrypt(struct wa_dm *dm, const char *group,
    const char *participant, const struct wa_signal_addr *ad,
    const uint8_t *c, size_t len, struct buf *out)
{
	struct wa_signal_addr	 alt;
	int			 rc, rc2;

	rc = wa_signal_group_decrypt(dm->sig, group, ad, c, len, out);
	if (rc != WC_ENOSENDERKEY || alt_addr(dm, participant, &alt) != 1)
		return rc;
	/* the SKDM came under the sender's other address (PN or LID) */
	if ((rc2 = wa_signal_group_decrypt(dm->sig, group, &alt, c, len,
	    out)) == 0)
		log_info("a sender key found under the sender's other "
		    "address");
	return rc2 == 0 || rc2 == WC_EDUPMSG ? rc2 : rc;
}

/* A decrypt error that says nothing of the store (whose errors are
 * negated errnos): the session or the message is at fault. */
static bool
crypto_error(int rc)
{
	return rc == WC_EBADMSG || rc == WC_ECRYPTO || rc == WC_EBADKEY;
}

int
dm_peer_decrypt(struct wa_dm *dm, const char *device,
    const struct wa_signal_addr *ad, enum wa_signal_type type,
    const uint8_t *c, size_t len, struct buf *out, bool *changed)
{
	struct wa_signal_addr	 alt;
	bool			 q = false;
	int			 rc, rc2;

	rc = wa_signal_decrypt(dm->sig, ad, type, c, len, out, changed);
	if (crypto_error(rc) &&
	    (rc2 = wa_signal_session_check(dm->sig, ad, NULL, &q)) < 0)
		return rc2;	/* the store failed: never "no session" */
	if (q)		/* a corrupt record, dropped: a pkmsg makes anew */
		rc = wa_signal_decrypt(dm->sig, ad, type, c, len, out,
		    changed);
	if (type == WA_SIGNAL_MSG && (rc == WC_ENOSESSION ||
	    crypto_error(rc)) && alt_addr(dm, device, &alt) == 1 &&
	    wa_signal_decrypt(dm->sig, &alt, type, c, len, out,
	    changed) == 0) {
		log_info("a session found under the sender's other address");
		rc = 0;
	}
	if (rc == 0 && changed != NULL && *changed)
		dm_peer_identity_changed(dm, device);
	return rc;
}

void
dm_peer_identity_changed(struct wa_dm *dm, const char *device)
{
	char	 alt[WA_DM_JID_MAX];
	int	 rc;

	if (dm->st->skr_forget_device == NULL)
		return;
	/* it no longer holds any sender key of ours, in any group, under
	 * either of its addresses: the next send carries a fresh SKDM */
	if ((rc = dm->st->skr_forget_device(dm->st->arg, device)) < 0 ||
	    (dm_peer_alt(dm, device, alt, sizeof(alt)) == 1 &&
	    (rc = dm->st->skr_forget_device(dm->st->arg, alt)) < 0))
		log_warn("cannot forget a changed device's sender keys: %s",
		    wc_strerror(rc));
	else
		log_info("device %u changed its identity: our sender keys go "
		    "to it again", jid_device_of(device));
}

int
dm_take_bundle(struct wa_dm *dm, const char *device,
    const struct wa_signal_bundle *b)
{
	struct wa_signal_addr	 ad;
	bool			 changed = false;
	char			 chat[WA_DM_JID_MAX];
	int			 rc;

	if ((rc = dm_addr_of(device, &ad)) != 0)
		return rc;
	if ((rc = wa_signal_process_bundle(dm->sig, &ad, b, &changed)) != 0)
		return rc;
	if (!changed)
		return 0;
	dm_peer_identity_changed(dm, device);
	if (jid_user_of(device, chat, sizeof(chat)) && !dm_is_own(dm, device))
		dm_notice_identity(dm, chat, chat);
	return 0;
}

void
dm_notice_identity(struct wa_dm *dm, const char *chat, const char *sender)
{
	dm_notice_kind(dm, chat, sender, dm->host.now_ms(dm->host.arg),
	    "security code changed", WA_DM_NOTE_IDENTITY, 0);
}

int
dm_peer_session(struct wa_dm *dm, const char *device)
{
	struct wa_signal_addr	 ad;

	if (dm_addr_of(device, &ad) != 0)
		return 0;
	return wa_signal_session_check(dm->sig, &ad, NULL, NULL);
}

int
dm_peer_regid_changed(struct wa_dm *dm, const char *device, uint32_t regid)
{
	struct wa_signal_addr	 ad;
	uint32_t		 have = 0;
	int			 rc;

	if (dm_addr_of(device, &ad) != 0)
		return 0;
	if ((rc = wa_signal_session_check(dm->sig, &ad, &have, NULL)) != 1)
		return rc < 0 ? rc : 1;	/* no usable session: fetch one */
	if (have == regid)
		return 0;
	log_info("device %u has a new registration id: a fresh bundle "
	    "first", ad.device);
	return 1;
}

bool
dm_peer_skip(struct wa_dm *dm, struct dm_seal *s, const char *device, int rc)
{
	struct wa_signal_addr	 ad;

	if (!crypto_error(rc) && rc != WC_ENOSESSION && rc != WC_ESTATE)
		return false;	/* the store's: the whole send fails */
	log_warn("device %u not reached: %s; its session is dropped, to be "
	    "rebuilt", jid_device_of(device), wc_strerror(rc));
	if (dm_addr_of(device, &ad) == 0 &&
	    (rc = wa_signal_session_drop(dm->sig, &ad)) < 0)
		log_warn("cannot drop the session: %s", wc_strerror(rc));
	if (s->nskipped < DM_SKIP_MAX)
		snprintf(s->skipped[s->nskipped], WA_DM_JID_MAX, "%s",
		    device);
	s->nskipped++;
	return true;
}

void
dm_peer_report(struct wa_dm *dm, const struct dm_seal *s, const char *chat)
{
	char	 name[128], line[256], user[WA_DM_JID_MAX];
	size_t	 i;

	for (i = 0; i < s->nskipped && i < DM_SKIP_MAX; i++) {
		if (!jid_user_of(s->skipped[i], user, sizeof(user)))
			continue;
		dm_name_of(dm, user, name, sizeof(name));
		snprintf(line, sizeof(line), "message not sent to %s's device "
		    "%u: its encryption failed (the session is rebuilt for "
		    "the next message)", name, jid_device_of(s->skipped[i]));
		dm_notice_kind(dm, chat, user, dm->host.now_ms(dm->host.arg),
		    line, WA_DM_NOTE_NOT_SENT, jid_device_of(s->skipped[i]));
	}
}
