/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-rich.h -- part of store/store.h (included at its end): the
 * rows of kind STORE_MSG_RICH (base/rich.h) that change after they are
 * stored: a live location's updates (protocol-features.md 3.2).  No
 * migration: a rich row is a message row whose text is its record.
 * Thread: the store's.
 */
#ifndef WC_STORE_RICH_H
#define WC_STORE_RICH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct store;

/*
 * A live location update from sender ("" ours or 1:1) in chat, with
 * sequence number seq and record text[0..len) (a "live" record): the
 * newest live location row of that sender in chat (not deleted) whose
 * own seq is lower takes text in place (its time, id and place in the
 * chat stay; it is not marked edited; the search index and the chat's
 * preview follow).  How updates travel is not established by the
 * sources (protocol-features.md 7): wachat takes a higher sequence
 * number from the same sender in the same chat as an update, the same
 * one as that update again, a lower one as a new sharing.
 * Returns 1 with that row's id in id_out[id_size], 2 when that row has
 * this seq already (nothing changed), 0 when no row takes it (store the
 * update as a new message), -EINVAL (a NULL or too long argument, text
 * not a live record) or -EIO.
 */
MUST_CHECK int	store_rich_live_update(struct store *s, const char *chat,
		    const char *sender, bool from_me, int64_t seq,
		    const char *text, size_t len, char *id_out,
		    size_t id_size);

#endif
