/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-appstate.h -- the composition root's binding of app state sync
 * (proto/appsync.h) to the store (store/store-appstate.h).  Engine thread
 * (the thread that owns the store).
 */
#ifndef WC_APP_APPSTATE_H
#define WC_APP_APPSTATE_H

#include "proto/appsync.h"
#include "proto/askey.h"

struct store;

/*
 * Fill *ops over s (borrowed for the life of the ops): keys, collection
 * states, MAC rows (store_as_*), and the commit of a verified patch or
 * snapshot, each decoded action (proto/appstate.h struct wa_as_action)
 * converted to the store's (struct store_as_action): chats and contacts
 * by their PN user JID when the store maps the LID (protocol.md 5.3),
 * actions the store does not read kept raw, an action without what its
 * kind needs (or with a field over the store's limits) skipped and
 * counted in the log.
 */
void	app_as_ops(struct store *s, struct wa_appsync_store_ops *ops);

/*
 * Store key k of our phone's key share (store_as_key_put()): for
 * proto/dm.h's as_key_put.  Returns 1 stored, 0 an equal or newer key
 * kept, -EINVAL (a length out of the store's range), -ENOSPC or -EIO.
 */
int	app_as_key_put(struct store *s, const struct wa_askey *k);

#endif
