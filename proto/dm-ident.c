/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-ident.c -- a contact's identity changed (proto/dm-int.h):
 * <notification type="encrypt" from=USER><identity/></notification>, which
 * the server sends when a user reinstalls (protocol.md 7.4, 11.7).  Every
 * session and stored identity of that user's devices goes, under its PN
 * and its LID addresses (5.3), with the memory of which of its devices
 * hold our sender keys (10.4) and its cached device list (8.2): the next
 * send fetches the device list and fresh bundles, and gives each device a
 * new SKDM, instead of encrypting on a session the phone no longer has.
 * One "security code changed" line in the 1:1 chat (11.2), unless the
 * receive path already wrote one for the same change.  All in one store
 * transaction; a store failure leaves the notification unacked, so the
 * server sends it again (reliability.md rule 1).
 * Sources: whatsmeow notification.go handleEncryptNotification (delete
 * all sessions and identities of the user; the ack copies type), Baileys
 * identity-change-handler.ts (no reset when nothing is known of the user).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/dm-int.h"
#include "proto/node.h"

/*
 * A change the receive path noticed (an identity that replaced another,
 * store changed_ms) this long before the notification's t or later is the
 * change the notification is about: already told, not told twice.  Wide
 * for the skew between the server's clock and ours.
 */
#define IDENT_SAME_CHANGE_MS	(5 * 60 * 1000)

/* What one reset did. */
struct reset {
	int	 forgotten;	/* sessions + identities deleted */
	int	 holders;	/* sender-key holder rows dropped */
	int64_t	 changed_ms;	/* latest change already noticed, or 0 */
};

/* Forget user (a non-AD PN or LID JID) as 11.7 says, inside the open
 * transaction: 0 or the store's error. */
static int
reset_user(struct wa_dm *dm, const char *user, struct reset *r)
{
	struct wa_signal_addr	 ad;
	int64_t			 ch = 0;
	int			 rc;

	if (dm_addr_of(user, &ad) != 0)
		return 0;
	if ((rc = wa_signal_forget_user(dm->sig, ad.name, &ch)) < 0)
		return rc;
	r->forgotten += rc;
	if (ch > r->changed_ms)
		r->changed_ms = ch;
	if (dm->st->skr_forget_user != NULL) {
		if ((rc = dm->st->skr_forget_user(dm->st->arg, user)) < 0)
			return rc;
		r->holders += rc;
	}
	/* the next send asks usync again (8.2) */
	rc = dm->st->devices_put(dm->st->arg, user, NULL, -1);
	return rc < 0 ? rc : 0;
}

/* The notification's t (unix s) in ms, or now when it has none. */
static int64_t
stanza_ms(struct wa_dm *dm, const struct wa_node *n)
{
	char	 t[24], *end;
	long long v;

	wa_node_str_copy(n, "t", t, sizeof(t));
	v = strtoll(t, &end, 10);
	if (t[0] == '\0' || *end != '\0' || v <= 0 || v > 1LL << 40)
		return dm->host.now_ms(dm->host.arg);
	return (int64_t)v * 1000;
}

/* Once per change: not for a user we knew nothing of, nor our own
 * account (whatsmeow resets it too, Baileys skips it), nor a change the
 * receive path already told. */
static bool
to_tell(struct wa_dm *dm, const struct wa_node *n, const struct reset *r,
    bool own)
{
	if (r->forgotten == 0 || own)
		return false;
	return r->changed_ms == 0 ||
	    r->changed_ms < stanza_ms(dm, n) - IDENT_SAME_CHANGE_MS;
}

static void
log_reset(const struct reset *r, bool tell, bool own)
{
	if (r->forgotten == 0 && r->holders == 0)
		log_info("an identity notification for a user we have no "
		    "session with: nothing to reset");
	else
		log_info("a contact's identity changed: %d sessions and "
		    "identities, %d sender-key holders forgotten%s",
		    r->forgotten, r->holders, tell ? "" : own ?
		    " (our own account)" : " (the change was told already)");
}

/* After error rc: a write that failed is not acked (sent again);
 * anything else would fail again, so it is acked (no endless resends). */
static int
failed(struct wa_dm *dm, int rc)
{
	if (!dm_store_failed(dm, rc)) {
		log_warn("an identity notification not handled (%s): acked",
		    wc_strerror(rc));
		return 0;
	}
	log_warn("an identity notification not stored (%s): not acked",
	    wc_strerror(rc));
	return rc;
}

int
dm_ident_on_notification(struct wa_dm *dm, const struct wa_node *n)
{
	struct reset	 r = { 0, 0, 0 };
	struct dm_note	 note;
	char		 from[WA_DM_JID_MAX], user[WA_DM_JID_MAX];
	char		 alt[WA_DM_JID_MAX], chat[WA_DM_JID_MAX];
	char		 id[WA_DM_ID_MAX];
	bool		 has_alt, own, tell = false;
	int		 rc;

	if (!wa_node_jid(n, "from", from, sizeof(from)) ||
	    !jid_user_of(from, user, sizeof(user)) ||
	    (!jid_is_pn(user) && !jid_is_lid(user))) {
		log_info("an identity notification from no user: ignored");
		return 0;
	}
	has_alt = dm_peer_alt(dm, user, alt, sizeof(alt)) == 1;
	own = dm_is_own(dm, user);
	/* the chat by PN when known, as the receive path files it */
	snprintf(chat, sizeof(chat), "%s", has_alt && jid_is_pn(alt) ? alt :
	    user);
	note = (struct dm_note){ chat, chat, dm->host.now_ms(dm->host.arg),
	    "security code changed", WA_DM_NOTE_IDENTITY, 0, NULL };
	if ((rc = dm->st->tx_begin(dm->st->arg)) < 0)
		return failed(dm, rc);
	if ((rc = reset_user(dm, user, &r)) == 0 && has_alt)
		rc = reset_user(dm, alt, &r);
	if (rc == 0 && (tell = to_tell(dm, n, &r, own)))
		rc = dm_notice_put_kind(dm, &note, id);
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	if (rc < 0)
		return failed(dm, rc);
	log_reset(&r, tell, own);
	if (tell)
		dm_notice_show_kind(dm, &note, id);
	return 0;
}
