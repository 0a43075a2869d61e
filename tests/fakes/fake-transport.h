/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-transport.h -- the engine's side of the wire for unit
 * tests: a struct wa_dm_host whose send() records each node (encoded
 * with wa_bin_encode, so the sender's arena may go; decoded again on
 * demand) instead of writing it to a socket, and can be made to fail;
 * iq ids "fake-1", "fake-2", ...; deterministic "random" bytes; the time
 * of a struct fake_clock.  Plain C, one thread; a failure of the fake
 * itself aborts.
 */
#ifndef WC_FAKE_TRANSPORT_H
#define WC_FAKE_TRANSPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/bin.h"
#include "proto/dm.h"
#include "tests/fakes/fake-clock.h"

struct fake_transport {
	struct buf	*frames;	/* the nodes sent, encoded */
	size_t		 n, cap;
	int		 fail_n;	/* the next fail_n sends fail ... */
	int		 fail_rc;	/* ... with this code */
	unsigned	 failed;	/* sends that failed */
	unsigned	 iq_seq;
	uint8_t		 rng_seq;
	unsigned	 histories;	/* host.history() calls */
	struct fake_clock *clock;	/* borrowed */
	struct arena	 a;		/* decoded nodes */
	/* Called with each node as it is sent (before a failure); may be
	 * NULL. */
	void		(*on_send)(void *arg, const struct wa_node *n);
	void		*on_send_arg;
};

/* Start t over clock (borrowed; must outlive t). */
void		fake_transport_init(struct fake_transport *t,
		    struct fake_clock *clock);
void		fake_transport_release(struct fake_transport *t);

/* A host over t: send, iq_id, now_ms, rng, history (arg = t). */
void		fake_transport_host(struct fake_transport *t,
		    struct wa_dm_host *h);

/* The next n sends fail with rc (nothing recorded). */
void		fake_transport_fail(struct fake_transport *t, int n, int rc);

/* Nodes sent so far. */
size_t		fake_transport_count(const struct fake_transport *t);
/* Node i (0 first), decoded into t's arena: valid until the release. */
const struct wa_node *fake_transport_node(struct fake_transport *t,
		    size_t i);
/*
 * The index of the first node at or after from with tag and, when key is
 * not NULL, attribute key equal to val (a JID attribute compared as
 * text); -1 when none.
 */
int		fake_transport_find(struct fake_transport *t, size_t from,
		    const char *tag, const char *key, const char *val);

/* Attribute key of n as text into out[len] (a JID as "user[:d]@server"):
 * true, false when n has none. */
bool		fake_node_attr(const struct wa_node *n, const char *key,
		    char *out, size_t len);

#endif
