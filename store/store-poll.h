/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-poll.h -- part of store/store.h (included at its end):
 * polls (protocol-features.md 3.1; migration 17).  A poll is a message
 * row of kind STORE_MSG_RICH whose text is its "poll" record
 * (base/rich.h), tally included; beside it the table poll keeps its
 * creator and messageSecret (what decrypts its votes) and poll_pending
 * the votes that came before the poll (each an opaque blob the engine
 * made).  Thread: the store's.
 */
#ifndef WC_STORE_POLL_H
#define WC_STORE_POLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct store;

#define STORE_POLL_SECRET_MAX	64	/* bytes of a messageSecret */
#define STORE_POLL_PEND_MAX	8192	/* bytes of one waiting vote */

/* A poll as store_poll_get() reads it. */
struct store_poll {
	char		 creator[129];	/* user JID; "" ours */
	uint8_t		 secret[STORE_POLL_SECRET_MAX];
	size_t		 secret_len;
	bool		 from_me;	/* the row is ours */
	char		*text;		/* malloc'd: the row's record */
	size_t		 text_len;
};

/*
 * Keep the secret[0..len) (1..STORE_POLL_SECRET_MAX bytes) and creator
 * (a user JID, "" ours) of poll id in chat (its row stored or not yet),
 * replacing what was kept.  Returns 0, -EINVAL (a NULL or too long
 * argument), -ENOSPC, -EIO.
 */
MUST_CHECK int	store_poll_put(struct store *s, const char *chat,
		    const char *id, const char *creator,
		    const uint8_t *secret, size_t len);

/*
 * The poll id of chat into *out (zeroed first; release with
 * store_poll_release()): 1 when both its secret and its row (not
 * deleted, a poll record) are stored, 0 when either is not, -EINVAL,
 * -EIO.
 */
MUST_CHECK int	store_poll_get(struct store *s, const char *chat,
		    const char *id, struct store_poll *out);

/* Free what p owns and zero it. */
void		store_poll_release(struct store_poll *p);

/*
 * The poll row id of chat takes the record text[0..len) (its tally
 * changed) in place: its time, id and place stay, it is not marked
 * edited; the chat's preview and the search index follow.  Returns 1,
 * 0 when no such poll row is stored, -EINVAL, -ENOSPC, -EIO.
 */
MUST_CHECK int	store_poll_set(struct store *s, const char *chat,
		    const char *id, const char *text, size_t len);

/*
 * Keep the vote data[0..len) (1..STORE_POLL_PEND_MAX bytes) of voter (a
 * user JID, "" ours) for poll id of chat, which is not stored yet, sent
 * at ts_ms: it replaces voter's waiting vote when it is not older.
 * Returns 0, -EINVAL, -ENOSPC, -EIO.
 */
MUST_CHECK int	store_poll_pend_put(struct store *s, const char *chat,
		    const char *poll, const char *voter, const uint8_t *data,
		    size_t len, int64_t ts_ms);

/*
 * Take one waiting vote for poll of chat (oldest first) and forget it:
 * 1 with its voter in voter[vsize] and its data in *data (malloc'd, the
 * caller frees) and *len, 0 when none waits, -EINVAL, -ENOSPC, -EIO.
 */
MUST_CHECK int	store_poll_pend_take(struct store *s, const char *chat,
		    const char *poll, char *voter, size_t vsize,
		    uint8_t **data, size_t *len);

#endif
