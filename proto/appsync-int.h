/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appsync-int.h -- between proto/appsync.c (the receive side, the
 * module's state machine) and proto/appsync-send.c (our own mutations,
 * protocol-features.md 2.7).  Not for use outside proto/appsync*.c.
 * Engine thread only.
 */
#ifndef WA_APPSYNC_INT_H
#define WA_APPSYNC_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/appsync.h"

struct wa_node;
struct wa_astx;

/* How a send went (astx_answer()), or < 0: a store error (-ENOSPC,
 * -EIO) committing an accepted patch. */
enum {
	ASTX_DONE = 0,		/* accepted and committed, or refused and
				 * left in the outbox (reported): the
				 * collection is idle again */
	ASTX_CONFLICT = 1,	/* 409: take the answer's patches, fetch
				 * again, then build anew */
};

/*
 * The sender over the module's borrowed host, store ops and event
 * callback.  NULL (nothing is ever sent) when the store ops lack
 * pending_next, pending_done, key_newest or the host lacks rng.
 */
struct wa_astx	*astx_new(const struct wa_appsync_host *h,
		    const struct wa_appsync_store_ops *st,
		    wa_appsync_event_fn on_event, void *ev_arg);
void		 astx_free(struct wa_astx *t);

/* A new connection (or none): the mutation in flight is forgotten (it
 * stays in the outbox), the collections given up on are tried again. */
void		 astx_reset(struct wa_astx *t);

/*
 * Build and send the oldest queued mutation of the first collection
 * whose bit (1 << enum wa_as_coll) is in idle, on its stored state,
 * with the newest key: an iq whose id is written to iq.  Returns the
 * collection sent, or -1 when nothing went (nothing queued, no key: an
 * WA_APPSYNC_EV_NO_KEY once per connection, or the send failed).
 */
int		 astx_send(struct wa_astx *t, unsigned idle, char iq[32]);

/* The answer n to the iq astx_send() sent: ASTX_DONE, ASTX_CONFLICT,
 * or < 0 (a store error). */
int		 astx_answer(struct wa_astx *t, const struct wa_node *n);

/* A mutation was queued: told again when there is no key. */
void		 astx_queued(struct wa_astx *t);

/* Whether any mutation waits in the outbox (1), none (0), or < 0. */
int		 astx_any(struct wa_astx *t);

/* No key is stored: say so once per connection when something waits. */
void		 astx_no_key(struct wa_astx *t);

/*
 * wa_as_mac_fn over the store: arg is the module's const struct
 * wa_appsync_store_ops * (cast to void *); the value MAC of index_mac
 * (WA_AS_MAC_LEN bytes each) in collection c is written to value_mac.
 * Returns mac_get's answer as is: 1 found, 0 none, or < 0.
 */
int		 as_store_mac(void *arg, enum wa_as_coll c,
		    const uint8_t index_mac[WA_AS_MAC_LEN],
		    uint8_t value_mac[WA_AS_MAC_LEN]);

#endif
