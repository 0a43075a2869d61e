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

#include "proto/dm.h"
#include "proto/hsync.h"

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

#define APP_HIST_OLDER	50	/* messages asked of the phone at a time */

struct wa_dm;

/*
 * Ask our phone (wa_dm_send_peer()) for the APP_HIST_OLDER messages of
 * chat older than the oldest one stored (on-demand history, protocol.md
 * 12.4); they come as a history chunk.  Returns 0.  Errors: -ENOENT
 * (nothing stored in chat to go back from), the store's and
 * wa_dm_send_peer()'s errors.
 */
int	app_hist_request_older(struct store *s, struct wa_dm *dm,
	    const char *chat);

/* Queue a history notification (store_histq_put()).  Returns 0, -EINVAL
 * or -EIO. */
int	app_hist_put(struct store *s, const char *id, const uint8_t *msg,
	    size_t len, int64_t now_ms);

#endif
