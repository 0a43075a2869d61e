/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-ephem.h -- part of store/store.h (included at its end):
 * disappearing messages (protocol-features.md 3.5; migration 19).  A
 * chat's timer (chat.ephemeral_s, seconds, 0 off) and the unix second it
 * was set (chat.ephemeral_ts); each message row stored while a timer is
 * in force (its time at or after ephemeral_ts) takes expire_s = its time
 * in seconds + the timer, by a trigger, whoever writes it (received,
 * ours, the phone's history); notices and hidden protocol rows never
 * expire.  store_expire_due() deletes the rows whose time is up, which
 * takes them out of the search index (the delete trigger of migration 5)
 * and out of their chat's preview.  Thread: the store's.
 */
#ifndef WC_STORE_EPHEM_H
#define WC_STORE_EPHEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct store;

/* The timers WhatsApp's apps offer (whatsmeow DisappearingTimer*), in
 * seconds; others are stored as they come but not offered. */
#define STORE_EPHEM_24H		86400u
#define STORE_EPHEM_7D		604800u
#define STORE_EPHEM_90D		7776000u
#define STORE_EPHEM_MAX		(366u * 86400u)	/* above: refused */

/*
 * Set chat jid's timer to secs (0 off; at most STORE_EPHEM_MAX) as of
 * unix second ts_s (>= 0), creating the chat row when missing (not
 * for secs 0: a chat not stored has no timer to turn off).  When
 * only_newer is true, a setting older than the stored one (ts_s below
 * ephemeral_ts) is ignored (an old message must not undo a newer
 * change).  Returns 1 when the timer changed, 0 when it was already
 * secs (or the setting was older), -EINVAL (jid empty or too long, secs
 * or ts_s out of range), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_chat_ephem_set(struct store *s, const char *jid,
		    uint32_t secs, int64_t ts_s, bool only_newer);

/*
 * Chat jid's timer into *secs and the time it was set into *ts_s (both
 * 0 for a chat that has none or is not stored).  Returns 0, -EINVAL or
 * -EIO.
 */
MUST_CHECK int	store_chat_ephem(struct store *s, const char *jid,
		    uint32_t *secs, int64_t *ts_s);

/* A message row that expired (store_expire_due()). */
struct store_expired {
	char	*chat;
	char	*id;
	bool	 from_me;
};

/*
 * Delete the message rows whose expire_s is at or before now_s, at most
 * max (1..4096) of them, oldest expiry first, in one transaction, and
 * refresh their chats' previews.  *out (malloc'd, NULL when none; free
 * with store_expired_free()) and *n say which went.  *more is set when
 * rows are left that are due too.  Returns 0, -EINVAL, -ENOSPC or -EIO
 * (nothing deleted).
 */
MUST_CHECK int	store_expire_due(struct store *s, int64_t now_s, size_t max,
		    struct store_expired **out, size_t *n, bool *more);

/* The earliest expire_s of any row into *when_s (0 none).  Returns 0 or
 * -EIO. */
MUST_CHECK int	store_expire_next(struct store *s, int64_t *when_s);

/* Free what store_expire_due() gave (v may be NULL). */
void		store_expired_free(struct store_expired *v, size_t n);

#endif
