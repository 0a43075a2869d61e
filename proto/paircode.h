/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/paircode.h -- the pure part of pairing with a phone-number code
 * (protocol.md 6.7): the 8-character code, the wrapping of ephemeral keys
 * with it (PBKDF2-HMAC-SHA256, 131072 rounds, then AES-256-CTR), and the
 * key bundle and ADV secret of companion_finish.  No I/O, no globals;
 * callable from any thread once wa_crypto_init() has returned.  The
 * engine (proto/eng.c) drives it.  Each wrap or unwrap costs one PBKDF2
 * of 131072 rounds (tens of ms).
 */
#ifndef WA_PAIRCODE_H
#define WA_PAIRCODE_H

#include <stddef.h>
#include <stdint.h>

#define WA_PAIRCODE_LEN		8	/* characters of the code */
#define WA_PAIRCODE_RAND_LEN	5	/* random bytes it encodes */
#define WA_PAIRCODE_ITER	131072	/* PBKDF2 rounds (2 << 16) */
#define WA_PAIRCODE_WRAPPED_LEN	80	/* salt 32 || iv 16 || key 32 */
#define WA_PAIRCODE_WRAP_RAND_LEN 48	/* salt and iv */
/* bundleSalt 32 || nonce 12 || AES-GCM(96 bytes) with its 16-byte tag */
#define WA_PAIRCODE_BUNDLE_LEN	(32 + 12 + 96 + 16)
#define WA_PAIRCODE_FINISH_RAND_LEN (32 + 32 + 12) /* advRandom, salt, nonce */

/*
 * Write the code of the 5 random bytes rnd to out: base32, most
 * significant bits first, with the alphabet
 * 123456789ABCDEFGHJKLMNPQRSTVWXYZ, NUL-terminated (9 bytes).
 */
void		wa_paircode_text(const uint8_t rnd[WA_PAIRCODE_RAND_LEN],
		    char out[WA_PAIRCODE_LEN + 1]);

/* Write code as WhatsApp shows it, "XXXX-XXXX", NUL-terminated. */
void		wa_paircode_display(const char code[WA_PAIRCODE_LEN],
		    char out[WA_PAIRCODE_LEN + 2]);

/*
 * Wrap the 32-byte key pub with code (its 8 characters): out = salt ||
 * iv || AES-256-CTR(PBKDF2(code, salt), iv, pub), salt and iv taken from
 * rnd (48 fresh random bytes).  Returns 0.  Errors: WC_ECRYPTO (OpenSSL
 * failed); out untouched on error.
 */
MUST_CHECK int	wa_paircode_wrap(const char code[WA_PAIRCODE_LEN],
		    const uint8_t rnd[WA_PAIRCODE_WRAP_RAND_LEN],
		    const uint8_t pub[32],
		    uint8_t out[WA_PAIRCODE_WRAPPED_LEN]);

/* The inverse of wa_paircode_wrap(): pub from in.  Same errors. */
MUST_CHECK int	wa_paircode_unwrap(const char code[WA_PAIRCODE_LEN],
		    const uint8_t in[WA_PAIRCODE_WRAPPED_LEN], uint8_t pub[32]);

/*
 * 6.7 step 4: with our ephemeral private key eph_priv, the primary's
 * (unwrapped) ephemeral key primary_eph, our identity key pair and the
 * primary's identity key, and rnd (advRandom 32 || bundleSalt 32 ||
 * nonce 12, fresh), write the wrapped key bundle of companion_finish to
 * bundle and the new ADV secret to adv_secret.  Returns 0.  Errors:
 * WC_ELOWORDER (a low-order key from the primary), WC_ECRYPTO; outputs
 * untouched on error.
 */
MUST_CHECK int	wa_paircode_finish(const uint8_t eph_priv[32],
		    const uint8_t primary_eph[32],
		    const uint8_t identity_priv[32],
		    const uint8_t identity_pub[32],
		    const uint8_t primary_identity[32],
		    const uint8_t rnd[WA_PAIRCODE_FINISH_RAND_LEN],
		    uint8_t bundle[WA_PAIRCODE_BUNDLE_LEN],
		    uint8_t adv_secret[32]);

#endif
