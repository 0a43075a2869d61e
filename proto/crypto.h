/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/crypto.h -- the primitives of the Noise handshake, the transport
 * cipher and the certificate chain (protocol.md 0, 2.2, 2.4, 2.5): SHA-256,
 * HMAC-SHA256 and HKDF-SHA256 (libsodium), AES-256-GCM (OpenSSL), X25519
 * (libsodium) and libsignal's "curve25519 signatures" (XEdDSA, through
 * libsignal-protocol-c).  Keys are 32 raw bytes, without libsignal's 0x05
 * type byte.  Nothing here reads a clock or a random source: the random
 * bytes a signature needs are passed in.  Every function is callable from
 * any thread once wa_crypto_init() has returned; a struct wa_crypto_gcm
 * belongs to one thread at a time.
 */
#ifndef WA_CRYPTO_H
#define WA_CRYPTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WA_CRYPTO_KEY_LEN	32	/* X25519 and AES-256 keys, bytes */
#define WA_CRYPTO_HASH_LEN	32	/* SHA-256 and HMAC-SHA256 output */
#define WA_CRYPTO_SIG_LEN	64	/* XEdDSA signature */
#define WA_CRYPTO_SIG_RANDOM_LEN 64	/* random input of one signature */
#define WA_CRYPTO_GCM_NONCE_LEN	12
#define WA_CRYPTO_GCM_TAG_LEN	16	/* appended to every ciphertext */
/* Plaintext cap, bytes (OpenSSL counts in int). */
#define WA_CRYPTO_GCM_MAX_LEN	(1u << 30)
#define WA_CRYPTO_HKDF_MAX_LEN	(255 * 32)	/* RFC 5869 output cap */

struct evp_cipher_ctx_st;

/* An AES-256-GCM key schedule for one direction, set up once per key. */
struct wa_crypto_gcm {
	struct evp_cipher_ctx_st *ctx;	/* OpenSSL's; NULL: released */
	bool			 encrypt;	/* seals (true) or opens */
};

/*
 * Initialise libsodium.  Call once, before any other thread uses this
 * module (main thread, at start-up); later calls are harmless.  Returns 0.
 * Errors: WC_ECRYPTO (sodium_init() failed).
 */
MUST_CHECK int	wa_crypto_init(void);

/* out = SHA-256(p[0..len)). */
void		wa_crypto_sha256(const void *p, size_t len,
		    uint8_t out[WA_CRYPTO_HASH_LEN]);

/* out = SHA-256(a[0..a_len) ‖ b[0..b_len)): MixHash without a copy; out
 * may overlap a or b. */
void		wa_crypto_sha256_pair(const void *a, size_t a_len,
		    const void *b, size_t b_len,
		    uint8_t out[WA_CRYPTO_HASH_LEN]);

/* out = HMAC-SHA256(key[0..key_len), p[0..len)); any key length. */
void		wa_crypto_hmac_sha256(const uint8_t *key, size_t key_len,
		    const void *p, size_t len, uint8_t out[WA_CRYPTO_HASH_LEN]);

/*
 * HKDF-SHA256 (RFC 5869): extract with salt[0..salt_len) (empty means 32
 * zero bytes, as the RFC says) over ikm[0..ikm_len), expand with
 * info[0..info_len) into out[0..out_len).  Any pointer may be NULL when its
 * length is 0.  Returns 0.  Errors: WC_ETOOBIG (out_len above
 * WA_CRYPTO_HKDF_MAX_LEN); out untouched on error.
 */
MUST_CHECK int	wa_crypto_hkdf(const uint8_t *salt, size_t salt_len,
		    const uint8_t *ikm, size_t ikm_len, const uint8_t *info,
		    size_t info_len, uint8_t *out, size_t out_len);

/*
 * Set up g for sealing (encrypt true) or opening with the 32-byte key.
 * The key schedule is computed once here; wa_crypto_gcm_seal() and _open()
 * then allocate nothing.  Release g with wa_crypto_gcm_release(), which
 * wipes the schedule.  Returns 0.  Errors: WC_ECRYPTO (OpenSSL failed,
 * which means out of memory); g is left released on error.
 */
MUST_CHECK int	wa_crypto_gcm_init(struct wa_crypto_gcm *g,
		    const uint8_t key[WA_CRYPTO_KEY_LEN], bool encrypt);

/*
 * Give g a new key and direction, keeping its OpenSSL context when it has
 * one (so a handshake, which changes keys often, allocates once); a g that
 * is zeroed or released is set up as by wa_crypto_gcm_init().  Returns 0.
 * Errors: WC_ECRYPTO; g is left released on error.
 */
MUST_CHECK int	wa_crypto_gcm_rekey(struct wa_crypto_gcm *g,
		    const uint8_t key[WA_CRYPTO_KEY_LEN], bool encrypt);

/*
 * Encrypt p[0..len) with the 12-byte nonce and aad[0..aad_len) (aad may
 * be NULL when aad_len is 0) into out[0..len + 16): the ciphertext, then
 * the 16-byte tag.  out may equal p (in place), but may not otherwise
 * overlap it.  g must have been set up with encrypt true.  Returns 0.
 * Errors: WC_ETOOBIG (len above WA_CRYPTO_GCM_MAX_LEN), WC_ESTATE (g is
 * set up for opening or released), WC_ECRYPTO (OpenSSL failed).
 */
MUST_CHECK int	wa_crypto_gcm_seal(struct wa_crypto_gcm *g,
		    const uint8_t nonce[WA_CRYPTO_GCM_NONCE_LEN],
		    const uint8_t *aad, size_t aad_len, const uint8_t *p,
		    size_t len, uint8_t *out);

/*
 * Decrypt and authenticate c[0..len) (ciphertext ‖ 16-byte tag) with the
 * nonce and aad[0..aad_len) into out[0..len - 16).  out may equal c.  g
 * must have been set up with encrypt false.  Returns 0.  Errors: WC_ETRUNC
 * (len < 16), WC_ETOOBIG (len above WA_CRYPTO_GCM_MAX_LEN + 16),
 * WC_EBADMAC (the tag does not match: out[0..len - 16) is zeroed, so no
 * unauthenticated byte escapes), WC_ESTATE (g set up for sealing, or
 * released), WC_ECRYPTO.
 */
MUST_CHECK int	wa_crypto_gcm_open(struct wa_crypto_gcm *g,
		    const uint8_t nonce[WA_CRYPTO_GCM_NONCE_LEN],
		    const uint8_t *aad, size_t aad_len, const uint8_t *c,
		    size_t len, uint8_t *out);

/* Wipe and free g's key schedule; g may be set up again.  Releasing a
 * released (or zeroed) g does nothing. */
void		wa_crypto_gcm_release(struct wa_crypto_gcm *g);

/*
 * One-shot forms of wa_crypto_gcm_seal() and _open() for keys used once
 * or twice (the handshake): set up, run, release.  Same arguments and
 * errors.
 */
MUST_CHECK int	wa_crypto_gcm_seal_once(const uint8_t key[WA_CRYPTO_KEY_LEN],
		    const uint8_t nonce[WA_CRYPTO_GCM_NONCE_LEN],
		    const uint8_t *aad, size_t aad_len, const uint8_t *p,
		    size_t len, uint8_t *out);
MUST_CHECK int	wa_crypto_gcm_open_once(const uint8_t key[WA_CRYPTO_KEY_LEN],
		    const uint8_t nonce[WA_CRYPTO_GCM_NONCE_LEN],
		    const uint8_t *aad, size_t aad_len, const uint8_t *c,
		    size_t len, uint8_t *out);

/*
 * pub = the X25519 public key of priv (32 random bytes; clamped here, as
 * X25519 does, so any 32 bytes are a private key).
 */
void		wa_crypto_x25519_base(const uint8_t priv[WA_CRYPTO_KEY_LEN],
		    uint8_t pub[WA_CRYPTO_KEY_LEN]);

/*
 * shared = X25519(priv, pub).  Returns 0.  Errors: WC_ELOWORDER (pub is a
 * low-order point, so the secret is all zeros and says nothing of priv:
 * RFC 7748 6.1's check); shared untouched on error.
 */
MUST_CHECK int	wa_crypto_x25519(const uint8_t priv[WA_CRYPTO_KEY_LEN],
		    const uint8_t pub[WA_CRYPTO_KEY_LEN],
		    uint8_t shared[WA_CRYPTO_KEY_LEN]);

/*
 * Sign msg[0..len) with the Curve25519 private key priv (clamped first, so
 * the signature belongs to wa_crypto_x25519_base(priv)), libsignal's way
 * (curve_calculate_signature(): the sign bit of the Edwards key in the top
 * bit of the last byte), using the 64 bytes random (fresh, secret, from
 * the caller's CSPRNG).  Writes the 64-byte signature to sig.  Computed on
 * libsodium, the same bytes as libsignal-protocol-c's curve25519_sign(),
 * which this module also replaces in the process so that libsignal's own
 * signatures (skmsg, signed prekeys) are made the same way (crypto.c).
 * Allocates nothing; keeps the Edwards points of the last 4 keys signed
 * with per thread.  Any thread.  Returns 0.  Errors: WC_ECRYPTO (libsodium
 * refused a scalar, which a clamped key and a hash reduced mod L only do
 * with probability 2^-252); sig untouched on error.
 */
MUST_CHECK int	wa_crypto_xeddsa_sign(const uint8_t priv[WA_CRYPTO_KEY_LEN],
		    const uint8_t *msg, size_t len,
		    const uint8_t random[WA_CRYPTO_SIG_RANDOM_LEN],
		    uint8_t sig[WA_CRYPTO_SIG_LEN]);

/*
 * Verify the 64-byte signature sig over msg[0..len) with the Curve25519
 * public key pub (libsignal's curve_verify_signature).  Returns 0 when it
 * verifies.  Errors: WC_EBADSIG (it does not, or out of memory inside
 * libsignal).
 */
MUST_CHECK int	wa_crypto_xeddsa_verify(const uint8_t pub[WA_CRYPTO_KEY_LEN],
		    const uint8_t *msg, size_t len,
		    const uint8_t sig[WA_CRYPTO_SIG_LEN]);

/* Zero p[0..len) in a way the compiler keeps (sodium_memzero). */
void		wa_crypto_wipe(void *p, size_t len);

#endif
