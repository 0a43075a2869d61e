/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-media.h -- a message's media (protocol-features.md 1.6) from
 * the engine's form (proto/msg.h struct wa_msg_media) to the store's
 * (store/store.h struct store_media) and from either to the UI's
 * (base/event.h struct ev_media).  Pure functions: any thread.
 */
#ifndef WC_APP_MEDIA_H
#define WC_APP_MEDIA_H

#include <stddef.h>

#include "base/event.h"
#include "proto/msg.h"
#include "store/store.h"

/*
 * *out as the store's form of w (every pointer borrowed from w: it must
 * outlive out's use), download and upload states NONE.  A type the store
 * does not know leaves out->type 0 (the store refuses it).  Cannot fail.
 */
void	app_media_store(const struct wa_msg_media *w, struct store_media *out);

/*
 * The text to store with a media message (the search index reads it,
 * store/store.h struct store_msg_new): a document's file name, a newline
 * and its caption, else the caption alone ("" none).  Malloc'd; the
 * caller frees it.  Aborts on out-of-memory only.
 */
char	*app_media_text(const struct wa_msg_media *w);

/* Fill *em (its strings owned: replaced with copies) from w, download
 * state NONE.  Aborts on out-of-memory only. */
void	app_media_ev_of_msg(const struct wa_msg_media *w, struct ev_media *em);

/* *md as the engine's form of the stored m, to send it (every pointer
 * borrowed from m; NULL for an empty caption or file name): the url,
 * direct path, media key and hashes as stored, so that a forward reuses
 * the upload (protocol-features.md 3.7).  Cannot fail. */
void	app_media_wire(const struct store_media *m, struct wa_msg_media *md);
/* Fill *em (its strings replaced with copies) from the stored m. */
void	app_media_ev_of_store(const struct store_media *m,
	    struct ev_media *em);

#endif
