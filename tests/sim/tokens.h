/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/tokens.h -- privacy tokens in the simulator (tokens.c;
 * protocol.md 9.6, 11.7, 15.6; tests/sim/README.md): users marked as
 * requiring a token, the trusted-contact tokens the server hands out
 * (privacy_token notifications, the answer to a client's issuing, history
 * sync), the account's nctSalt for cstoken, and the 463 refusal of a 1:1
 * message that carries neither.  Loop thread only.
 */
#ifndef SIM_TOKENS_H
#define SIM_TOKENS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/history.h"
#include "route.h"
#include "sim.h"

#define SIM_TOK_LEN	20	/* bytes of a token the sim issues */
#define SIM_SALT_LEN	32	/* bytes of an account's nctSalt */

/*
 * A 1:1 <message> m from o (with <participants>, to another user, not a
 * peer message): when its addressee requires a token and m carries no
 * valid <tctoken> (one the sim issued from the addressee to o's account,
 * not expired: 4 buckets of 7 days) nor a valid <cstoken>
 * (HMAC-SHA256(o's account's nctSalt, "<addressee LID>@lid")), or when
 * the addressee refuses even with one, o gets <ack class="message" id
 * from error="463"/> and true is returned: the message is not routed.
 * false: route it.
 */
bool	sim_tok_refused(struct origin *o, const struct msg_ctx *m);

/* m from o was routed: when o's account requires a token, its addressee
 * gets o's token to it (a privacy_token notification), as the server
 * sends one when a contact writes. */
void	sim_tok_routed(struct origin *o, const struct msg_ctx *m);

/* <iq xmlns="privacy" type="set"><tokens><token jid t
 * type="trusted_contact"/>…</tokens></iq> from c: each issuing counted,
 * answered with <tokens> holding, for each user named, that user's token
 * to c's account.  1 when it was such an iq (answered), 0 when not. */
int	sim_tok_iq(struct sim_conn *c, const struct wa_node *n);

/* The nctSalt of account a (SIM_SALT_LEN bytes, fixed per account). */
void	sim_tok_salt(const struct sim_account *a, uint8_t out[SIM_SALT_LEN]);

/* The newest valid token that contact gave holder: true and *tok (borrowed
 * until the next issuing), *len, *t; false when none. */
bool	sim_tok_given(struct sim *s, const struct sim_account *holder,
	    const struct sim_account *contact, const uint8_t **tok,
	    size_t *len, int64_t *t);

/* History sync (history.c): conversation cv of holder with peer (NULL
 * for a group) gets the newest valid token peer gave holder (tcToken,
 * tcTokenTimestamp) and when holder last issued its own to peer
 * (tcTokenSenderTimestamp); strings and bytes in ar. */
void	sim_tok_hist_conv(struct sim *s, const struct sim_account *holder,
	    const struct sim_account *peer, struct wa_hist_conv *cv,
	    struct arena *ar);
/* The HistorySync hs gets holder's nctSalt (field 19), in ar. */
void	sim_tok_hist_salt(const struct sim_account *holder, struct wa_hist *hs,
	    struct arena *ar);

/* The routes under /admin/tokens (README): 0 when path is not one, else
 * the HTTP status of the answer written to out. */
int	sim_tok_admin(struct sim *s, const char *path, struct json_object *in,
	    bool post, struct buf *out);

/* The counters, for GET /admin/status. */
struct json_object *sim_tok_status_json(struct sim *s);

/* Free the state (at exit). */
void	sim_tok_free(struct sim *s);

#endif
