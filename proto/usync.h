/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/usync.h -- device lists and prekey bundles of other users: the
 * usync device query (protocol.md 8.2) and the prekey-bundle query (8.1),
 * built and read.  Pure functions over struct wa_node (proto/bin.h); no
 * I/O.  Any thread, on nodes that thread owns.
 */
#ifndef WA_USYNC_H
#define WA_USYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "proto/wa-signal.h"

#define WA_USYNC_MAX_USERS	64	/* users in one query */
#define WA_USYNC_MAX_DEVICES	64	/* devices kept per user */
#define WA_USYNC_JID_MAX	96	/* bytes of a JID, with the NUL */

/* One user's devices from a usync answer. */
struct wa_usync_user {
	char		 jid[WA_USYNC_JID_MAX];	/* the user JID, non-AD */
	char		 lid[WA_USYNC_JID_MAX];	/* <lid val>, or "" */
	uint16_t	 devices[WA_USYNC_MAX_DEVICES];	/* ids, 0 first when
							 * present */
	size_t		 n_devices;
	bool		 error;		/* the server answered an <error> for it */
};

/*
 * Build in a the usync device query for users[0..n) (non-AD JIDs, PN or
 * LID; borrowed) with iq id and usync sid (borrowed): <iq xmlns="usync"
 * type="get" to=s.whatsapp.net><usync sid mode="query" last="true"
 * index="0" context="message"><query><devices version="2"/><lid/></query>
 * <list><user jid/>...</list></usync></iq> (8.2).  Returns 0 and *out.
 * Errors: -EINVAL (n is 0 or above WA_USYNC_MAX_USERS, a bad JID).
 */
MUST_CHECK int	wa_usync_devices_query(const char *id, const char *sid,
		    const char *const *users, size_t n, struct arena *a,
		    struct wa_node **out);

/*
 * Read a usync answer (the <iq type="result">) into out[0..max): one
 * entry per <user>, with its device ids.  Companions (id > 0) without
 * key-index are skipped, as Baileys does (8.2); hosted devices too (we do
 * not address them yet).  Returns the count of users (<= max).  Errors:
 * WC_EPROTO (not a result, no <usync><list>, a <user> without jid, a
 * device id that is not 0..255).
 */
MUST_CHECK int	wa_usync_devices_parse(const struct wa_node *iq,
		    struct wa_usync_user *out, size_t max);

/*
 * Build in a the prekey-bundle query for the device JIDs jids[0..n)
 * (borrowed): <iq xmlns="encrypt" type="get"><key><user jid
 * reason="identity"/>...</key></iq> (8.1).  Returns 0 and *out.  Errors:
 * -EINVAL (n 0 or above WA_USYNC_MAX_USERS, a bad JID).
 */
MUST_CHECK int	wa_usync_keys_query(const char *id, const char *const *jids,
		    size_t n, struct arena *a, struct wa_node **out);

/*
 * Read the bundle of device JID jid from a prekey-bundle answer (8.1).
 * Returns 1 and *out, 0 when the answer has no <user> for jid or an
 * <error> for it.  Errors: WC_EPROTO (a part missing or of the wrong
 * size: registration 4 bytes, identity 32, skey id 3, value 32, signature
 * 64, key id 3, value 32).
 */
MUST_CHECK int	wa_usync_bundle(const struct wa_node *iq, const char *jid,
		    struct wa_signal_bundle *out);

/*
 * Read a bundle from a node holding the parts as children (<registration>
 * given separately as regid): the <keys> of a retry receipt (9.6) or a
 * <user> of 8.1.  Returns 0.  Errors: WC_EPROTO as above.
 */
MUST_CHECK int	wa_usync_bundle_of(const struct wa_node *keys, uint32_t regid,
		    struct wa_signal_bundle *out);

#endif
