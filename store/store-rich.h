/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-rich.h -- part of store/store.h (included at its end): the
 * rows of kind STORE_MSG_RICH (base/rich.h) that change after they are
 * stored: a live location's updates (protocol-features.md 3.2) and a
 * view-once message opened (3.4).  No migration: a rich row is a message
 * row whose text is its record; a view-once record has beside it a media
 * row (store/store-media.h) with what opening it needs, which the
 * printers (wachat history, export, search) never read for a rich row.
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

/* Where a view-once message stands (store_viewonce_state()). */
enum store_viewonce {
	STORE_VIEWONCE_NOT = 0,		/* no such row, or not view-once */
	STORE_VIEWONCE_CLOSED = 1,	/* not opened yet: its media row there */
	STORE_VIEWONCE_OPENED = 2,	/* opened once: its media row gone */
};

/*
 * Whether message (chat, id) (received, else ours) is a view-once record
 * (a rich row, not deleted, whose record is of type "viewonce"), and
 * whether it was opened; *from_me (may be NULL) says which row.  Returns
 * an enum store_viewonce (>= 0), -EINVAL (a NULL or too long argument)
 * or -EIO.
 */
MUST_CHECK int	store_viewonce_state(struct store *s, const char *chat,
		    const char *id, bool *from_me);

/*
 * View-once message (chat, from_me, id) was opened: its record takes an
 * "opened=yes" field (the chat says "View once photo · opened"; not
 * marked edited) and its media row (the key, the path, the hashes) is
 * deleted, in one transaction, so that it opens once.  *rec_out (may be
 * NULL) takes the new record, heap, NUL-terminated, the caller frees it.
 * Returns 1 (done), 2 (opened already: nothing changed), 0 (no such row,
 * or not view-once), -EINVAL or -EIO.
 */
MUST_CHECK int	store_viewonce_opened(struct store *s, const char *chat,
		    bool from_me, const char *id, char **rec_out);

#endif
