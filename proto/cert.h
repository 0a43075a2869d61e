/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/cert.h -- the server's Noise certificate chain (protocol.md 2.4):
 * verify the CertChain a server sends in its ServerHello, and issue one
 * (for the test server).  Pure functions over caller buffers; the time is
 * passed in.  Callable from any thread.
 */
#ifndef WA_CERT_H
#define WA_CERT_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "proto/crypto.h"

/*
 * WhatsApp's root public key (Curve25519, 32 bytes; protocol.md 2.4):
 * 142375574d0a587166aae71ebe516437c4a28b73e3695c6ce1f7f9545da8ee6b.  The
 * trusted root is a setting; this is its default.
 */
extern const uint8_t	WA_CERT_WHATSAPP_ROOT[WA_CRYPTO_KEY_LEN];

#define WA_CERT_ROOT_SERIAL	0	/* the intermediate's issuerSerial */

/*
 * Verify the packed CertChain chain[0..len) for a server whose Noise static
 * key is server_static (as wa_noise_read_server_hello() decrypted it),
 * against the trusted root key root_pub, at now_s (Unix seconds, UTC).
 * The checks, in order (protocol.md 2.4 steps 1-7):
 *   1. both certificates have details and a 64-byte signature;
 *   2. the intermediate's signature verifies with root_pub;
 *   3. the intermediate's issuerSerial is 0 and its key is 32 bytes;
 *   4. the leaf's signature verifies with the intermediate's key;
 *   5. the leaf's issuerSerial is the intermediate's serial;
 *   6. the leaf's key is server_static;
 *   7. notBefore <= now_s <= notAfter, intermediate then leaf.
 * An absent integer field counts as 0 (proto2's default).  Returns 0.
 * Errors, one per class:
 *   WC_ECERTFORMAT  malformed (not a CertChain, a part missing, a
 *                   signature not 64 bytes, a key not 32 bytes);
 *   WC_ECERTROOT    the intermediate is not signed by the trusted root;
 *   WC_ECERTSIG     the leaf is not signed by the intermediate;
 *   WC_ECERTISSUER  wrong issuer serial (intermediate's not 0, or the
 *                   leaf's not the intermediate's serial);
 *   WC_ECERTKEY     the leaf key is not the server's static key;
 *   WC_ECERTEXPIRED now_s is after a notAfter;
 *   WC_ECERTNOTYET  now_s is before a notBefore.
 * On error, if reason is not NULL, *reason is set to a short English
 * sentence naming the certificate and the check (a static string, for
 * logs and the user).  *reason is untouched on success.
 */
MUST_CHECK int	wa_cert_verify(const uint8_t *chain, size_t len,
		    const uint8_t root_pub[WA_CRYPTO_KEY_LEN],
		    const uint8_t server_static[WA_CRYPTO_KEY_LEN],
		    uint64_t now_s, const char **reason);

/* One certificate to issue, and the key that signs it. */
struct wa_cert_spec {
	uint32_t	 serial;
	uint32_t	 issuer_serial;
	const uint8_t	*key;		/* 32 bytes: the certified public key */
	uint64_t	 not_before_s;	/* Unix seconds, UTC */
	uint64_t	 not_after_s;
	const uint8_t	*signer_priv;	/* 32 bytes: the issuer's private key */
	const uint8_t	*random;	/* 64 fresh random bytes to sign with */
};

/*
 * Issue a chain as specified: each certificate's Details (every field
 * written, 0s included) are packed and signed with its signer_priv;
 * the packed CertChain{leaf, intermediate} is appended to out.  Nothing is
 * checked, so tests can issue bad chains.  Returns 0.  Errors: WC_ECRYPTO;
 * out untouched on error.
 */
MUST_CHECK int	wa_cert_issue_spec(const struct wa_cert_spec *intermediate,
		    const struct wa_cert_spec *leaf, struct buf *out);

/*
 * Issue the chain a server sends (interop.md 1): an intermediate with
 * serial int_serial, issuerSerial 0 and the public key of int_priv, signed
 * by root_priv; a leaf with serial leaf_serial, issuerSerial int_serial and
 * key server_static_pub, signed by int_priv; both valid from not_before_s
 * to not_after_s (Unix seconds).  random holds 128 fresh random bytes (64
 * per signature).  Appends the packed CertChain to out.  Returns 0.
 * Errors: WC_ECRYPTO; out untouched on error.
 */
MUST_CHECK int	wa_cert_issue(const uint8_t root_priv[WA_CRYPTO_KEY_LEN],
		    const uint8_t int_priv[WA_CRYPTO_KEY_LEN],
		    const uint8_t server_static_pub[WA_CRYPTO_KEY_LEN],
		    uint32_t int_serial, uint32_t leaf_serial,
		    uint64_t not_before_s, uint64_t not_after_s,
		    const uint8_t random[2 * WA_CRYPTO_SIG_RANDOM_LEN],
		    struct buf *out);

#endif
