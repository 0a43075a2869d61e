/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-store.h -- an in-memory store behind both op tables
 * the message engine takes: struct wa_dm_store_ops (messages, the
 * outbox, device lists, groups, sender-key holders) and struct
 * wa_signal_store_ops (sessions, identities, prekeys, sender keys), so
 * that proto/dm*.c runs without SQLite.  One key-value table holds
 * everything; nested transactions snapshot it (rollback restores, the
 * outermost commit makes it "durable"), and fake_store_crash() drops what
 * no commit made durable, as a kill -9 would.  Any op can be made to
 * fail once (fake_store_fail()), and every op counts its calls.
 *
 * Each store is also a Signal device of its own (identity, registration
 * id, signed prekey, FAKE_STORE_PREKEYS one-time prekeys), so a second
 * store with a wa_signal over it plays a peer: fake_store_bundle() is
 * that device's prekey bundle as the server would hand it out.
 *
 * Semantics follow src/app-dm.c and store/: an outgoing message is
 * QUEUED until the server's ack; SENT and FAILED move only from QUEUED,
 * QUEUED only from FAILED (a retry), DELIVERED and READ only forward;
 * out_next returns the oldest QUEUED row after a rowid.  group_sent and
 * member_receipt, hist_put are NULL (optional in proto/dm.h).
 *
 * Plain C, no cmocka: a failure of the fake itself aborts.  One thread.
 */
#ifndef WC_FAKE_STORE_H
#define WC_FAKE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "proto/dm.h"
#include "proto/wa-signal.h"

#define FAKE_STORE_PREKEYS	4	/* one-time prekeys 1..4 */

struct fake_store;

/* A new empty store with a fresh Signal device (wa_crypto_init() must
 * have run).  Free with fake_store_free(). */
struct fake_store *fake_store_new(void);
void		 fake_store_free(struct fake_store *f);	/* NULL: no-op */

/* The op tables over f (arg = f); f must outlive their use. */
void		 fake_store_dm_ops(struct fake_store *f,
		    struct wa_dm_store_ops *ops);
void		 fake_store_signal_ops(struct fake_store *f,
		    struct wa_signal_store_ops *ops);

/* f's device's bundle, with one-time prekey prekey_id (0: none). */
void		 fake_store_bundle(const struct fake_store *f,
		    uint32_t prekey_id, struct wa_signal_bundle *b);
uint32_t	 fake_store_registration_id(const struct fake_store *f);

/*
 * Make the next call of op (its field name in either ops struct, e.g.
 * "tx_commit", "out_next") return rc instead of doing anything; op
 * "tx_commit_outer" fails only the commit that closes the outermost
 * level.  A failed commit undoes its level (as SQLite rolls back after a
 * failed COMMIT).  Up to 8 pending failures.
 */
void		 fake_store_fail(struct fake_store *f, const char *op, int rc);
/* How many times op has been called (failed calls included). */
unsigned	 fake_store_calls(const struct fake_store *f, const char *op);
/* Open transaction levels (0: none). */
int		 fake_store_tx_depth(const struct fake_store *f);
/* A crash: every open transaction is lost, what was committed stays. */
void		 fake_store_crash(struct fake_store *f);

/* Our message (chat, id): its enum wa_dm_state, or -1 when unknown. */
int		 fake_store_state(const struct fake_store *f, const char *chat,
		    const char *id);
/* Any stored message (chat, from_me, id): its text into out[len]: true,
 * or false when there is none. */
bool		 fake_store_text(const struct fake_store *f, const char *chat,
		    bool from_me, const char *id, char *out, size_t len);
/* The reaction of sender ("" us) to target in chat: its emoji into
 * out[len]: true, or false when there is none. */
bool		 fake_store_reaction(const struct fake_store *f,
		    const char *chat, const char *target, const char *sender,
		    char *out, size_t len);
/* The number of stored messages of chat (outgoing and incoming). */
size_t		 fake_store_count(const struct fake_store *f, const char *chat);
/* Whether device holds our sender key of group (skr_put). */
bool		 fake_store_skr(const struct fake_store *f, const char *group,
		    const char *device);
/* Whether a has a session record; fake_store_session() appends it to
 * out (true), or returns false when there is none. */
bool		 fake_store_has_session(const struct fake_store *f,
		    const struct wa_signal_addr *a);
bool		 fake_store_session(const struct fake_store *f,
		    const struct wa_signal_addr *a, struct buf *out);
/*
 * A group known to the store (as group_put would leave it): members[i]
 * with alternates alts[i] (may be NULL or ""), lid: LID-addressed.
 */
void		 fake_store_put_group(struct fake_store *f, const char *group,
		    bool lid, const char *const *members,
		    const char *const *alts, size_t n);

#endif
