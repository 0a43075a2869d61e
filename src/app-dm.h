/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-dm.h -- binds store/'s message tables into the messaging
 * module's struct wa_dm_store_ops (proto/dm.h): the composition root's
 * adapter, mapping its states and rows onto store/'s.  Runs on the thread
 * that owns the store (the engine thread).
 */
#ifndef WC_APP_DM_H
#define WC_APP_DM_H

#include "base/event.h"
#include "proto/dm.h"

struct store;

/*
 * Fill *ops with the adapter over s (borrowed: it must outlive every use
 * of ops).  Transactions are store_tx_begin/commit/rollback, the same
 * savepoints the Signal ops use, so a message and the session it advanced
 * commit together.  The ops return store/'s errors (-EINVAL, -EIO).
 * Cannot fail.
 */
void	app_dm_ops(struct store *s, struct wa_dm_store_ops *ops);

/* Set the privacy-token ops of *ops (tok_get, tok_put, tok_sent,
 * salt_get) over s (src/app-privtok.c; app_dm_ops() calls it).  Cannot
 * fail. */
void	app_privtok_ops(struct store *s, struct wa_dm_store_ops *ops);

/* Set the poll ops of *ops (poll_put, poll_get, poll_set,
 * poll_pend_put, poll_pend_take; store/store-poll.h) over s
 * (src/app-poll.c; app_dm_ops() calls it).  Cannot fail. */
void	app_poll_ops(struct store *s, struct wa_dm_store_ops *ops);

/*
 * A person's name for the screen and event lines: the address-book name,
 * else the push name, of jid (a user JID) or of its PN-LID alternate
 * (protocol.md 5.3), into out[len].  Returns 1, or 0 when none is known
 * (out ""), on the thread that owns s.
 */
int	app_dm_name(struct store *s, const char *jid, char *out, size_t len);

/* The engine's notice kind n as the UI's (an unknown one: text).  Any
 * thread. */
enum ev_notice	app_dm_note(enum wa_dm_note n);

#endif
