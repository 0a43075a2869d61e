/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg-int.h -- what proto/msg.c and proto/msg-media.c share, for
 * them alone.  Pure functions; any thread.
 */
#ifndef WA_MSG_INT_H
#define WA_MSG_INT_H

#include "e2e.pb-c.h"
#include "proto/msg.h"

/*
 * The media of m (protocol-features.md 1.6), when it holds an image,
 * video, ptv, audio, document or sticker message: a new struct (free
 * with wa_msg_media_free()) and its ContextInfo in *ci (may be NULL);
 * NULL when m holds none.  Aborts on out-of-memory only.
 */
struct wa_msg_media *wa_msg_media_of(const Wae2e__Message *m,
		    const Wae2e__ContextInfo **ci);

/*
 * When m (the innermost Message) is a location, a live location, one or
 * several contact cards, view-once media (c->view_once: it came in a
 * view-once wrapper; or its own viewOnce flag) or a text with a link
 * preview (a title or description): its rich record (base/rich.h) as
 * c->text, c->kind WA_MSG_RICH, c->rich_type, and for a live location
 * c->live_seq, for a preview the reply fields (its thumbnail is in
 * the record);
 * returns true.  Else false and c untouched (protocol-features.md 3.2,
 * 3.3, 3.4, 3.6).  Aborts on out-of-memory only.
 */
bool		wa_msg_rich_of(const Wae2e__Message *m,
		    struct wa_msg_content *c);

/* The forwarding of m's content (protocol-features.md 3.7): 0 when its
 * contextInfo (text, media, location, contact cards) says it is not
 * forwarded, else its forwardingScore, at least 1 (proto/msg-fwd.c). */
uint32_t	wa_msg_fwd_score(const Wae2e__Message *m);

/*
 * When m (the innermost Message) is a poll (pollCreationMessage 49, V2
 * 60, V3 64, V5 111; protocol-features.md 3.1): its "poll" record
 * (base/rich.h: q, sel, each opt; at most WA_POLL_READ_MAX options) as
 * c->text, c->kind WA_MSG_RICH, c->rich_type RICH_POLL; when it is a
 * pollUpdateMessage (50): c->kind WA_MSG_POLL_VOTE, c->target the poll's
 * key, c->poll_enc / poll_iv its vote (each NULL when absent or of a
 * bad size), c->ts_ms; returns true (proto/msg-poll.c).  Else false, c
 * untouched.  Aborts on out-of-memory only.
 */
bool		wa_msg_poll_of(const Wae2e__Message *m,
		    struct wa_msg_content *c);

/*
 * The disappearing-messages timer m (the innermost Message) carries into
 * c->eph, eph_secs, eph_ts (proto/msg-eph.c; protocol-features.md 3.5):
 * an EPHEMERAL_SETTING protocolMessage (ephemeralExpiration 4,
 * ephemeralSettingTimestamp 5) is WA_MSG_EPH_SETTING, a content message
 * whose contextInfo has expiration (25; and ephemeralSettingTimestamp
 * 26) is WA_MSG_EPH_CONTENT; else c is untouched.
 */
void		wa_msg_eph_of(const Wae2e__Message *m,
		    struct wa_msg_content *c);

/* Free md and what it owns; NULL is a no-op. */
void		wa_msg_media_free(struct wa_msg_media *md);

#endif
