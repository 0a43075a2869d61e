/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/route.h -- what the parts of the simulator's router share:
 * route.c (the route log and offline queues, prekey bundles, 1:1
 * messages, receipts, acks, devices notifications), route-group.c (group
 * messages and receipts) and route-presence.c (chat states, presence).
 * Loop thread only.
 */
#ifndef SIM_ROUTE_H
#define SIM_ROUTE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "session.h"
#include "sim.h"

#define ROUTE_MAX_TO		8192	/* <to> children routed per message
					 * (a group of 1024 with their
					 * companions) */
#define ROUTE_MAX_DEVICES	64	/* devices per account in a hash */

/* Who sent a stanza being routed: a connection, or (injected through
 * sim_route_inject) a device without one, such as a simulated phone. */
struct origin {
	struct sim		*s;
	struct sim_conn		*c;	/* NULL when injected */
	struct sim_account	*acct;
	uint32_t		 dev;
	const char		*name;	/* push name for notify, or "" */
};

/* What one <message> from o carries, for its targets. */
struct msg_ctx {
	const struct wa_node	*n;
	const struct wa_node	*ident;		/* <device-identity> */
	struct sim_account	*peer;		/* the addressee */
	struct sim_jid		 to;
	const struct wa_val	*to_val;
	char			 id[80], type[24], edit[8], category[24];
	char			 from[96];	/* sender device, as sent */
	bool			 lid;		/* the stanza's namespace */
	bool			 plid;		/* groups: the sender's (the
						 * group_flip knob) */
	int64_t			 t;
	unsigned		 routed, sent, skipped;
};

/* --- route.c --- */
/* The server's clock, ms ahead of the real one (negative: behind; knob
 * clock_ms, admin.c): the t of what the server stamps.  The sim's
 * thread. */
extern int64_t	 route_clock_ms;
/* The server's time (the real one plus route_clock_ms), in unix s. */
int64_t	route_now_s(void);
/* Attribute key of n as a C string into out[0..len) ("" when absent;
 * cut to fit). */
void	route_attr_str(const struct wa_node *n, const char *key, char *out,
	    size_t len);
/* Device id of a exists and can receive: 0 (the phone) or a linked
 * companion. */
bool	route_device_exists(struct sim_account *a, uint32_t id);
/* The JID of device dev of a in namespace lid, as text, into out. */
void	route_jid_text(char *out, size_t len, const struct sim_account *a,
	    bool lid, uint32_t dev);
/* Attribute key = the JID of device dev of a in namespace lid. */
void	route_put_jid(struct arena *ar, struct wa_node *n, const char *key,
	    const struct sim_account *a, bool lid, uint32_t dev);
/* Attribute key = t (unix s) in decimal. */
void	route_put_t(struct arena *ar, struct wa_node *n, const char *key,
	    int64_t t);
/* Log a line about what o sent (its connection's log, or the sim's). */
void	route_olog(const struct origin *o, const char *fmt, ...)
	    PRINTFLIKE(2, 3);
/* The server's <ack class id [from] [type] [t] [error]/> to o, when o is
 * a connection (type NULL or "" and t 0: left out). */
void	route_oack(const struct origin *o, const char *cls, const char *id,
	    const struct wa_val *from, const char *type, const char *error,
	    int64_t t);

/* --- route-group.c --- */
/*
 * <message to="<group>@g.us"> from o (10.3, 10.5), m filled from it:
 * fanned out to every device of every member, acked (with the server's
 * phash when the client's differs; error 403 or 404).
 */
void	route_group_message(struct origin *o, struct msg_ctx *m);
/* <receipt to="<group>@g.us" participant=AUTHOR> n from o, with its id
 * and type ("" for delivery): relayed to the author's devices. */
void	route_group_receipt(struct origin *o, const struct wa_node *n,
	    const struct sim_jid *to, const char *id, const char *type);

/* --- route-presence.c --- */
/* <chatstate to=USER> from c: to that user's other connections. */
void	route_chatstate(struct sim_conn *c, const struct wa_node *n);
/* <presence> from c: a subscription (15.2) or c's account's presence. */
void	route_presence(struct sim_conn *c, const struct wa_node *n);
/* Free every presence subscription (at exit). */
void	route_subs_free(struct sim *s);

#endif
