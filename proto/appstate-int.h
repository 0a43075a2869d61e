/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appstate-int.h -- what the files of the app-state module
 * (proto/appstate-*.c, proto/appstate.h) share and nothing else includes:
 * the protobuf-c allocator over an arena, AES-256-CBC without OpenSSL's
 * padding, and the table of actions (protocol-features.md 2.1).
 */
#ifndef WA_APPSTATE_INT_H
#define WA_APPSTATE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "base/arena.h"
#include "proto/appstate.h"
#include "appstate.pb-c.h"

#define AS_BLOCK	16	/* AES block, bytes */

/* wa_pb_check() with WA_PB_MAX_DEPTH, then protobuf-c's unpack with every
 * allocation taken from a (nothing to free).  Errors as wa_pb_unpack(). */
int	as_pb_unpack(struct arena *a, const ProtobufCMessageDescriptor *d,
	    const uint8_t *p, size_t len, ProtobufCMessage **out);

/* A copy of s[0..len) with a NUL after it, in a. */
char	*as_strndup(struct arena *a, const void *s, size_t len);

/* An OpenSSL AES-256-CBC context kept across records, its key schedule
 * redone only when the key or direction changes; set up with
 * AS_CBC_INIT, as_cbc_release() when done (wipes the key). */
#define AS_CBC_INIT	{ NULL, { 0 }, -1 }
struct as_cbc {
	void	*ctx;		/* EVP_CIPHER_CTX; NULL until first use */
	uint8_t	 key[32];	/* the key ctx is set up with */
	int	 dir;		/* 1 encrypt, 0 decrypt, -1 none yet */
};

/* AES-256-CBC of in[0..len) (whole blocks) into out (may equal in),
 * without padding.  Returns 0.  Errors: WC_ECRYPTO. */
int	as_cbc_run(struct as_cbc *c, const uint8_t key[32],
	    const uint8_t iv[AS_BLOCK], bool encrypt, const uint8_t *in,
	    size_t len, uint8_t *out);
void	as_cbc_release(struct as_cbc *c);

/* One known index name (2.1). */
struct as_kind {
	const char		*name;		/* index[0] */
	enum wa_as_action_kind	 kind;
	int			 coll;		/* enum wa_as_coll, -1 none */
	int			 version;	/* SyncActionData.version */
};

/* The entry for index name name, or NULL. */
const struct as_kind *as_kind_by_name(const char *name);
/* The (first) entry of kind k, or NULL. */
const struct as_kind *as_kind_by_kind(enum wa_as_action_kind k);

/* Fill *out from the decoded SyncActionData d and its index parts (2.2);
 * kind UNKNOWN when the index or its action is not one we know. */
void	as_action_decode(struct arena *a, const Waas__SyncActionData *d,
	    char **parts, size_t n, struct wa_as_action *out);

/*
 * The LTHash step of 2.6 over the n records (index MACs from records[i],
 * op and value MAC from mu[i]) into hash, previous values from earlier
 * records then (unless snapshot) mac_fn, keyed by k (the seen table's
 * SipHash key); the net changes into *changes (in a).  Returns 0, or
 * mac_fn's error.
 */
int	as_hash_apply(struct arena *a, enum wa_as_coll coll, bool snapshot,
	    const struct wa_as_record *records,
	    const struct wa_as_mutation *mu, size_t n,
	    const struct wa_as_keys *k, wa_as_mac_fn mac_fn, void *mac_arg,
	    uint8_t hash[WA_AS_HASH_LEN], struct wa_as_change **changes,
	    size_t *n_changes);

/* Is s[0..len) valid UTF-8 (no overlong forms, no surrogates, at most
 * U+10FFFF)? */
bool	as_utf8_ok(const uint8_t *s, size_t len);

#endif
