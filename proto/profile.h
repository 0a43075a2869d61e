/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/profile.h -- contacts' profiles and the blocklist on the wire
 * (issue 20): the blocklist query, change and notification (protocol.md
 * 15.5, protocol-features.md 3.9), the profile picture query
 * (protocol-features.md 4.1: [WM] user.go GetProfilePictureInfo, [BL]
 * profilePictureUrl) and the about text through usync's <status/>
 * (protocol-features.md 4.2: [BL] USyncStatusProtocol, [WM]
 * GetUserInfo), built and read.  Pure functions over struct wa_node
 * (proto/bin.h) and a blocklist in memory; no I/O.  Any thread, on data
 * that thread owns.
 */
#ifndef WA_PROFILE_H
#define WA_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/compat.h"
#include "proto/bin.h"

#define WA_PROF_JID_MAX		128	/* bytes of a JID, NUL in */
#define WA_PROF_BLOCK_MAX	4096	/* blocked contacts kept */
#define WA_PROF_PIC_ID_MAX	64	/* bytes of a picture id, NUL in */
#define WA_PROF_URL_MAX		2048	/* bytes of a picture URL, NUL in */
#define WA_PROF_ABOUT_MAX	1024	/* bytes of an about text kept, NUL
					 * in (WhatsApp allows 139 chars) */
#define WA_PROF_KIDS_MAX	WA_PROF_BLOCK_MAX /* children read of one
					 * <list> or <blocklist> */

/* The blocked contacts: user JIDs (no device) as the server names them. */
struct wa_blocklist {
	char		(*v)[WA_PROF_JID_MAX];	/* owned */
	size_t		 n, cap;
};

/* Empty l (nothing allocated). */
void		wa_blocklist_init(struct wa_blocklist *l);

/* Free l's entries; l is empty after.  Idempotent. */
void		wa_blocklist_release(struct wa_blocklist *l);

/* Whether jid (a user JID; a device part is ignored) is in l. */
bool		wa_blocklist_has(const struct wa_blocklist *l, const char *jid);

/*
 * Block (block true) or unblock jid in l: added once, or removed.
 * Returns 1 when l changed, 0 when it did not, or -EINVAL (jid empty or
 * not shorter than WA_PROF_JID_MAX), WC_ETOOBIG (WA_PROF_BLOCK_MAX are
 * kept).
 */
int		wa_blocklist_set(struct wa_blocklist *l, const char *jid,
		    bool block);

/*
 * <iq id xmlns="blocklist" type="get" to="s.whatsapp.net"/> in a (id
 * borrowed).  Never NULL.
 */
struct wa_node	*wa_prof_blocklist_get(struct arena *a, const char *id);

/*
 * <iq id xmlns="blocklist" type="set" to="s.whatsapp.net"><item
 * action="block|unblock" jid [pn_jid]/></iq> in a (borrowed strings;
 * protocol.md 15.5, [WM] user.go UpdateBlocklist): jid the contact's
 * LID when known (else its PN), pn_jid its PN beside a LID when blocking
 * (NULL: none).  Returns 0 and *out, or -EINVAL (jid or pn_jid not a
 * JID).
 */
MUST_CHECK int	wa_prof_blocklist_set(struct arena *a, const char *id,
		    const char *jid, const char *pn_jid, bool block,
		    struct wa_node **out);

/*
 * The answer to the get, <iq type="result"><list [dhash]><item
 * jid/>...</list></iq>, as the whole of l (replaced; a device part of a
 * JID dropped).  Returns the count kept, or WC_EPROTO (an error iq, no
 * <list>), WC_ETOOBIG (more than WA_PROF_KIDS_MAX children; l
 * untouched).  Items without a JID are skipped (logged by the caller
 * through the count).
 */
MUST_CHECK int	wa_prof_blocklist_parse(const struct wa_node *iq,
		    struct wa_blocklist *l);

/*
 * A <blocklist> of a <notification type="account_sync"> (protocol-
 * features.md 3.9: <item jid action="block|unblock"/>, the action on
 * <blocklist> itself when an item has none) applied to l.  Returns the
 * number of changes made (>= 0), or WC_EPROTO (not a <blocklist>),
 * WC_ETOOBIG (too many children; l untouched).  Items without a JID or
 * with an unknown action are skipped.
 */
MUST_CHECK int	wa_prof_blocklist_change(const struct wa_node *bl,
		    struct wa_blocklist *l);

/*
 * <iq id xmlns="w:profile:picture" type="get" to="s.whatsapp.net"
 * target><picture type="preview|image" query="url"/></iq> in a (borrowed
 * strings; protocol-features.md 4.1).  Returns 0 and *out, or -EINVAL
 * (target not a JID).
 */
MUST_CHECK int	wa_prof_picture_get(struct arena *a, const char *id,
		    const char *target, bool preview, struct wa_node **out);

/* A picture as the server describes it. */
struct wa_prof_pic {
	char		 id[WA_PROF_PIC_ID_MAX];
	char		 url[WA_PROF_URL_MAX];
	char		 direct_path[WA_PROF_URL_MAX];	/* "" none */
};

/*
 * The answer to the picture query into *out (zeroed first).  Returns 0
 * (id and url set), or -ENOENT (no picture: error 404, status 204, or a
 * <picture> without a url), -EACCES (hidden by privacy: error 401),
 * WC_EPROTO (another error, no <picture>, an id or url too long, a url
 * that is not https:// or http://).
 */
MUST_CHECK int	wa_prof_picture_parse(const struct wa_node *iq,
		    struct wa_prof_pic *out);

/*
 * Whether id is one a picture file may be named after: 1 to
 * WA_PROF_PIC_ID_MAX - 1 characters of [0-9A-Za-z_-].  Pure.
 */
bool		wa_prof_pic_id_ok(const char *id);

/*
 * The usync about-text query for the user jid (borrowed), iq id and usync
 * sid id: <iq xmlns="usync" type="get"><usync sid mode="query"
 * last="true" index="0" context="interactive"><query><status/></query>
 * <list><user jid/></list></usync></iq> (protocol.md 8.2,
 * protocol-features.md 4.2).  Returns 0 and *out, or -EINVAL (not a
 * JID).
 */
MUST_CHECK int	wa_prof_status_get(struct arena *a, const char *id,
		    const char *jid, struct wa_node **out);

/* A user's about text from the usync answer. */
struct wa_prof_status {
	bool		 known;		/* false: hidden (code 401) or none */
	char		 text[WA_PROF_ABOUT_MAX];	/* raw network text,
					 * cut at a character's boundary */
	int64_t		 t;		/* when it was set, unix s; 0 unknown */
};

/*
 * The usync answer's <status> of user jid into *out (zeroed first).
 * Returns 0 (known tells whether a text is there), or WC_EPROTO (not a
 * result, no <usync><list>, no <user> of that jid).
 */
MUST_CHECK int	wa_prof_status_parse(const struct wa_node *iq,
		    const char *jid, struct wa_prof_status *out);

#endif
