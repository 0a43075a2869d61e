/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/privtok.h -- privacy tokens (protocol.md 15.6): the 7-day bucket
 * arithmetic of trusted-contact tokens (tctoken), the cstoken a client
 * sends without one (HMAC-SHA256 keyed with the account's nctSalt over
 * the peer's LID), the <tokens> a privacy_token notification or the
 * answer to our own issuing carries, and the iq that issues our token
 * to a contact.  Pure functions: no I/O, no clock (the caller passes the
 * time), no globals; callable from any thread.
 * Sources: protocol.md 9.4, 11.7 (privacy_token), 15.6; Baileys
 * 7.0.0-rc14 Utils/tc-token-utils.js (isTcTokenExpired,
 * shouldSendNewTcToken, storeTcTokensFromIqResult), Socket/messages-send.js
 * (issuePrivacyTokens); whatsmeow tctoken.go, cstoken.go.
 */
#ifndef WA_PRIVTOK_H
#define WA_PRIVTOK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "proto/bin.h"

#define WA_PRIVTOK_BUCKET_S	604800	/* one bucket: 7 days, in s */
#define WA_PRIVTOK_BUCKETS	4	/* a token lives ~28 days */
#define WA_PRIVTOK_MAX		512	/* bytes of a token we keep */
#define WA_PRIVTOK_CSTOKEN_LEN	32	/* HMAC-SHA256 */
#define WA_PRIVTOK_SALT_MAX	64	/* bytes of an nctSalt we keep */
#define WA_PRIVTOK_IN_MAX	16	/* tokens read from one <tokens> */

/*
 * Whether a token with timestamp t (unix s; 0 or less: none) is expired
 * at now_s: older than the first second of the oldest of the
 * WA_PRIVTOK_BUCKETS buckets that end with now's (Baileys
 * isTcTokenExpired).  A token stamped in the future is not expired.
 */
bool	wa_privtok_expired(int64_t t, int64_t now_s);

/*
 * Whether we should issue our own token to a contact again at now_s,
 * having last issued it at sender_t (unix s; 0 or less: never): when
 * now's bucket is past sender_t's (Baileys shouldSendNewTcToken), that
 * is at most once per 7-day bucket.
 */
bool	wa_privtok_should_issue(int64_t sender_t, int64_t now_s);

/*
 * The cstoken for peer (a LID JID "user[:dev]@lid"; the device is
 * dropped): HMAC-SHA256(key = salt[0..salt_len), msg = "<user>@lid")
 * into out (protocol.md 15.6, whatsmeow cstoken.go).  Returns 0, or
 * -EINVAL (salt NULL or empty, peer not a LID JID).
 */
int	wa_privtok_cstoken(const uint8_t *salt, size_t salt_len,
	    const char *peer, uint8_t out[WA_PRIVTOK_CSTOKEN_LEN]);

/* One token read from a <tokens> node; borrows the node. */
struct wa_privtok_in {
	const uint8_t	*token;		/* the bytes; never NULL */
	size_t		 len;		/* 1..WA_PRIVTOK_MAX */
	int64_t		 t;		/* its t attribute, unix s, > 0 */
	char		 jid[96];	/* its jid attribute, or "" */
};

/*
 * The usable tokens of parent's <tokens> child (a privacy_token
 * notification, or the result of our issuing iq): each <token
 * type="trusted_contact" t=T> with bytes; one of another type, without
 * bytes, over WA_PRIVTOK_MAX bytes or without a positive t ("would be
 * expired at once", Baileys) is skipped.  At most max into out.
 * Returns the count (0 when parent has no <tokens>).  out borrows
 * parent's bytes.
 */
size_t	wa_privtok_parse(const struct wa_node *parent,
	    struct wa_privtok_in *out, size_t max);

/*
 * The iq issuing our trusted-contact token to jid (a user JID, PN or
 * LID) stamped t (unix s): <iq xmlns="privacy" type="set"
 * to="s.whatsapp.net" id><tokens><token jid t
 * type="trusted_contact"/></tokens></iq> (protocol.md 15.6), in a.
 * id and jid are borrowed and must outlive the encode.  Returns 0 and
 * *out, or -EINVAL (NULL argument, jid not a JID).
 */
int	wa_privtok_issue_iq(const char *id, const char *jid, int64_t t,
	    struct arena *a, struct wa_node **out);

#endif
