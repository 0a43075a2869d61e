/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/askey.h -- the app-state sync keys as they travel in a Message
 * (protocol-features.md 2.3, protocol.md 13.1): reading the phone's
 * protocolMessage APP_STATE_SYNC_KEY_SHARE (type 6) and building our
 * APP_STATE_SYNC_KEY_REQUEST (type 7), and the reverse of each for the
 * simulator and the tests.  Schema: proto/e2e.proto (Message.
 * AppStateSyncKey*, ProtocolMessage fields 7 and 8).  Pure functions
 * over caller buffers, depth- and size-capped; callable from any thread.
 */
#ifndef WA_ASKEY_H
#define WA_ASKEY_H

#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct arena;
struct buf;

#define WA_ASKEY_PROTO_SHARE	6	/* ProtocolMessage.type */
#define WA_ASKEY_PROTO_REQUEST	7
#define WA_ASKEY_ID_MAX		64	/* bytes of a key id */
#define WA_ASKEY_DATA_MAX	64	/* bytes of keyData (32 today) */
#define WA_ASKEY_FP_MAX		512	/* bytes of a packed fingerprint */
#define WA_ASKEY_MAX		256	/* keys in one share or request */

/* One key of a share.  Pointers into the arena given to the parser. */
struct wa_askey {
	const uint8_t	*id;		/* AppStateSyncKeyId.keyID */
	size_t		 id_len;	/* 1..WA_ASKEY_ID_MAX */
	const uint8_t	*data;		/* AppStateSyncKeyData.keyData */
	size_t		 data_len;	/* 1..WA_ASKEY_DATA_MAX */
	const uint8_t	*fp;		/* the fingerprint message as packed
					 * again, or NULL */
	size_t		 fp_len;	/* 0..WA_ASKEY_FP_MAX */
	int64_t		 ts;		/* AppStateSyncKeyData.timestamp as
					 * sent (ms), 0 when absent */
};

/* A key share: n keys (1..WA_ASKEY_MAX). */
struct wa_askey_share {
	const struct wa_askey *keys;
	size_t		 n;
};

/*
 * Read the decrypted, unpadded Message p[0..len) as a protocolMessage of
 * type WA_ASKEY_PROTO_SHARE into *out, its arrays and bytes in arena a
 * (freed with it).  A key without an id or data, or with one out of its
 * range, is skipped (logged by the caller from the counts: out->n is
 * what is usable).  Returns 0.  Errors: WC_EPROTO (not well-formed, not
 * that type, no share, no usable key), WC_EDEPTH, WC_ETRUNC, WC_ETOOBIG
 * (more than WA_ASKEY_MAX keys); *why (may be NULL) then names the
 * fault in English.  *out untouched on error.
 */
MUST_CHECK int	wa_askey_share_parse(const uint8_t *p, size_t len,
		    struct arena *a, struct wa_askey_share *out,
		    const char **why);

/*
 * Append to *out the Message of a key share of keys[0..n) (the
 * simulator's phone; tests).  Returns 0, or -EINVAL (n 0 or over
 * WA_ASKEY_MAX, a key out of its ranges).
 */
MUST_CHECK int	wa_askey_share_build(const struct wa_askey *keys, size_t n,
		    struct buf *out);

/*
 * Append to *out the Message asking our phone for the keys ids[i]
 * (ids[i][0..lens[i]), i < n): protocolMessage{type=7,
 * appStateSyncKeyRequest{keyIDs}} (2.3).  Returns 0, or -EINVAL (n 0 or
 * over WA_ASKEY_MAX, an id empty or over WA_ASKEY_ID_MAX).
 */
MUST_CHECK int	wa_askey_request(const uint8_t *const *ids, const size_t *lens,
		    size_t n, struct buf *out);

/*
 * Read a key request p[0..len) (the simulator's phone; tests): up to max
 * key ids into ids[] / lens[] (pointing into arena a).  Returns the
 * count (>= 1).  Errors as wa_askey_share_parse().
 */
MUST_CHECK int	wa_askey_request_parse(const uint8_t *p, size_t len,
		    struct arena *a, const uint8_t **ids, size_t *lens,
		    size_t max, const char **why);

#endif
