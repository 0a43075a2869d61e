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

/* Free md and what it owns; NULL is a no-op. */
void		wa_msg_media_free(struct wa_msg_media *md);

#endif
