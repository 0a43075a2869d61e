/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-rtime.h -- part of store/store.h (included at its end):
 * when each recipient's devices said our message was delivered and read
 * (protocol.md 9.6 receipts; migration 20, table receipt_time), for the
 * message-info key (issue 20).  A 1:1 message has one recipient, the
 * contact; a group message one per member that sent a receipt.  Kept
 * beside the tick (store_msg_mark(), store_msg_member_receipt()), which
 * holds only the best state of the whole message.  Thread: the store's.
 */
#ifndef WC_STORE_RTIME_H
#define WC_STORE_RTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct store;
enum store_msg_state;

#define STORE_RTIME_MAX	1024	/* recipients read back for one message */

/* One recipient's times (store_rtime_list()): ms since the epoch, 0 not
 * yet. */
struct store_rtime {
	char		 member[129];	/* user JID, as the receipt named it */
	int64_t		 delivered_ms;
	int64_t		 read_ms;
};

/*
 * A receipt of state (DELIVERED, READ or PLAYED, which counts as READ)
 * from member (a user JID, no device) at ts_ms (> 0) for our message
 * (chat, id): its first delivery and first read time kept (a read is a
 * delivery too: one without a delivery before sets both; an earlier
 * time replaces a later one).  Nothing is stored for a message not ours
 * or not stored.  Returns 1 when a row was written, 0 when not ours,
 * -EINVAL (a string empty or too long, another state, ts_ms <= 0),
 * -ENOSPC or -EIO.
 */
MUST_CHECK int	store_rtime_put(struct store *s, const char *chat,
		    const char *id, const char *member,
		    enum store_msg_state state, int64_t ts_ms);

/*
 * The recipients' times of our message (chat, id), by member, into
 * out[0..max) (at most STORE_RTIME_MAX are read).  Returns the count
 * (>= 0), -EINVAL or -EIO.
 */
MUST_CHECK int	store_rtime_list(struct store *s, const char *chat,
		    const char *id, struct store_rtime *out, size_t max);

#endif
