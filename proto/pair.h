/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/pair.h -- the pure part of pairing by QR: checking the device
 * identity pair-success carries and making the device signature
 * (protocol.md 6.4).  No I/O, no globals; callable from any thread once
 * wa_crypto_init() has returned.  The engine (proto/eng.c) drives it.
 */
#ifndef WA_PAIR_H
#define WA_PAIR_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "proto/crypto.h"

#define WA_PAIR_KEY_LEN	32

/*
 * Check the ADVSignedDeviceIdentityHMAC p[0..len) of pair-success: its
 * HMAC-SHA256 keyed with adv_secret (6.4 step 2; 06 05 before the details
 * for a HOSTED account), then the account signature by the account key
 * over 06 00 (06 05 for a HOSTED device) || details || identity_pub (step
 * 4); then sign 06 01 || details || identity_pub || account key with
 * identity_priv, using the 64 fresh secret bytes random (step 5).  On
 * success appends the whole signed identity (account key and device
 * signature included: what is stored, step 6) to full and the reply copy
 * without the account key (6.5, [WM]) to reply, copies the account key
 * to account_key and sets *key_index (ADVDeviceIdentity.keyIndex, 0 when
 * absent).  Returns 0.  Errors: WC_EBADMAC (the HMAC does not match: the
 * reply is error 401 hmac-mismatch), WC_EBADSIG (the account signature
 * does not verify: 401 signature-mismatch), WC_EPROTO (malformed
 * protobuf or a key or signature of the wrong length), WC_ECRYPTO
 * (signing failed).  On error full, reply, account_key and *key_index
 * are untouched.
 */
MUST_CHECK int	wa_pair_verify(const uint8_t adv_secret[WA_PAIR_KEY_LEN],
		    const uint8_t identity_priv[WA_PAIR_KEY_LEN],
		    const uint8_t identity_pub[WA_PAIR_KEY_LEN],
		    const uint8_t *p, size_t len,
		    const uint8_t random[WA_CRYPTO_SIG_RANDOM_LEN],
		    struct buf *full, struct buf *reply,
		    uint8_t account_key[WA_PAIR_KEY_LEN], uint32_t *key_index);

#endif
