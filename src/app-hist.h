/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-hist.h -- the composition root's binding of history sync
 * (proto/hsync.h) to the store (store/store.h).  Engine thread (the thread
 * that owns the store).
 */
#ifndef WC_APP_HIST_H
#define WC_APP_HIST_H

#include <stddef.h>
#include <stdint.h>

#include "hsync.h"

struct store;

/*
 * Fill *ops with the queue (store_histq_*) and the import of a parsed
 * chunk over s: chats by their PN user JID when known (protocol.md 5.3),
 * messages as read (no unread count, no read receipt: the backlog),
 * their content as proto/msg.h reads a live message (text, replies; other
 * types a line naming them; reactions, edits and protocol messages not
 * stored), 400 to a transaction, duplicates ignored; push names and
 * PN-LID mappings.  s is borrowed for the life of the ops.
 */
void	app_hist_ops(struct store *s, struct wa_hsync_store_ops *ops);

/* Queue a history notification (store_histq_put()).  Returns 0, -EINVAL
 * or -EIO. */
int	app_hist_put(struct store *s, const char *id, const uint8_t *msg,
	    size_t len, int64_t now_ms);

#endif
