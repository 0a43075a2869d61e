/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/crypto.c -- hashes, HKDF, AES-256-GCM, X25519 and XEdDSA for the
 * Noise layer and the certificate chain.  See crypto.h.
 *
 * Hashes, HMAC and X25519 come from libsodium, whose states live on the
 * stack, so the handshake allocates nothing for them.  AES-GCM comes from
 * OpenSSL because libsodium's needs AES-NI.  Signatures are made and
 * checked on libsodium's group arithmetic bit for bit as
 * libsignal-protocol-c makes and checks them, and libsignal's own signing
 * and verification are routed here (curve25519_sign(),
 * curve25519_verify()).
 */
#include "base/compat.h"

#include <assert.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdlib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <sodium.h>

#include <curve.h>
#include <signal_protocol.h>

#include "proto/crypto.h"
#include "base/err.h"
#include "base/scope-alloc.h"

#define DJB_TYPE	0x05	/* libsignal's type byte of a Curve25519 key */

int
wa_crypto_init(void)
{
	return sodium_init() < 0 ? WC_ECRYPTO : 0;
}

void
wa_crypto_sha256(const void *p, size_t len, uint8_t out[WA_CRYPTO_HASH_LEN])
{
	crypto_hash_sha256(out, p, len);
}

void
wa_crypto_sha256_pair(const void *a, size_t a_len, const void *b,
    size_t b_len, uint8_t out[WA_CRYPTO_HASH_LEN])
{
	crypto_hash_sha256_state st;

	crypto_hash_sha256_init(&st);
	crypto_hash_sha256_update(&st, a, a_len);
	crypto_hash_sha256_update(&st, b, b_len);
	crypto_hash_sha256_final(&st, out);
}

void
wa_crypto_hmac_sha256(const uint8_t *key, size_t key_len, const void *p,
    size_t len, uint8_t out[WA_CRYPTO_HASH_LEN])
{
	crypto_auth_hmacsha256_state st;

	crypto_auth_hmacsha256_init(&st, key, key_len);
	crypto_auth_hmacsha256_update(&st, p, len);
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}

/*
 * RFC 5869.  An empty salt needs no special case: HMAC pads its key with
 * zeros to the block size, so an empty key and 32 zero bytes are the same
 * key.
 */
int
wa_crypto_hkdf(const uint8_t *salt, size_t salt_len, const uint8_t *ikm,
    size_t ikm_len, const uint8_t *info, size_t info_len, uint8_t *out,
    size_t out_len)
{
	static const uint8_t		 none[1];
	crypto_auth_hmacsha256_state	 st;
	uint8_t				 prk[WA_CRYPTO_HASH_LEN];
	uint8_t				 t[WA_CRYPTO_HASH_LEN], ctr;
	size_t				 off, n;
	unsigned			 i;

	if (out_len > WA_CRYPTO_HKDF_MAX_LEN)
		return WC_ETOOBIG;
	crypto_auth_hmacsha256_init(&st, salt != NULL ? salt : none, salt_len);
	crypto_auth_hmacsha256_update(&st, ikm != NULL ? ikm : none, ikm_len);
	crypto_auth_hmacsha256_final(&st, prk);
	for (i = 1, off = 0; off < out_len; i++) {
		crypto_auth_hmacsha256_init(&st, prk, sizeof(prk));
		if (i > 1)
			crypto_auth_hmacsha256_update(&st, t, sizeof(t));
		crypto_auth_hmacsha256_update(&st, info != NULL ? info : none,
		    info_len);
		ctr = (uint8_t)i;
		crypto_auth_hmacsha256_update(&st, &ctr, 1);
		crypto_auth_hmacsha256_final(&st, t);
		n = out_len - off < sizeof(t) ? out_len - off : sizeof(t);
		memcpy(out + off, t, n);
		off += n;
	}
	sodium_memzero(&st, sizeof(st));
	sodium_memzero(prk, sizeof(prk));
	sodium_memzero(t, sizeof(t));
	return 0;
}

int
wa_crypto_gcm_init(struct wa_crypto_gcm *g,
    const uint8_t key[WA_CRYPTO_KEY_LEN], bool encrypt)
{
	EVP_CIPHER_CTX	*c;

	g->ctx = NULL;
	g->encrypt = encrypt;
	if ((c = EVP_CIPHER_CTX_new()) == NULL)
		return WC_ECRYPTO;
	if (EVP_CipherInit_ex(c, EVP_aes_256_gcm(), NULL, key, NULL,
	    encrypt ? 1 : 0) != 1) {
		EVP_CIPHER_CTX_free(c);
		return WC_ECRYPTO;
	}
	g->ctx = c;
	return 0;
}

int
wa_crypto_gcm_rekey(struct wa_crypto_gcm *g,
    const uint8_t key[WA_CRYPTO_KEY_LEN], bool encrypt)
{
	if (g->ctx == NULL)
		return wa_crypto_gcm_init(g, key, encrypt);
	g->encrypt = encrypt;
	if (EVP_CipherInit_ex(g->ctx, NULL, NULL, key, NULL,
	    encrypt ? 1 : 0) != 1) {
		wa_crypto_gcm_release(g);
		return WC_ECRYPTO;
	}
	return 0;
}

/* Start one message: the new nonce (the key stays), then the AAD. */
static int
gcm_start(struct wa_crypto_gcm *g, const uint8_t *nonce, const uint8_t *aad,
    size_t aad_len)
{
	int	 n;

	if (EVP_CipherInit_ex(g->ctx, NULL, NULL, NULL, nonce, -1) != 1)
		return WC_ECRYPTO;
	if (aad_len > 0 && (aad_len > INT_MAX ||
	    EVP_CipherUpdate(g->ctx, NULL, &n, aad, (int)aad_len) != 1))
		return WC_ECRYPTO;
	return 0;
}

int
wa_crypto_gcm_seal(struct wa_crypto_gcm *g,
    const uint8_t nonce[WA_CRYPTO_GCM_NONCE_LEN], const uint8_t *aad,
    size_t aad_len, const uint8_t *p, size_t len, uint8_t *out)
{
	int	 n, rc;

	if (g->ctx == NULL || !g->encrypt)
		return WC_ESTATE;
	if (len > WA_CRYPTO_GCM_MAX_LEN)
		return WC_ETOOBIG;
	if ((rc = gcm_start(g, nonce, aad, aad_len)) != 0)
		return rc;
	/* GCM is a stream mode: Update writes len bytes, Final none. */
	if (len > 0 && EVP_CipherUpdate(g->ctx, out, &n, p, (int)len) != 1)
		return WC_ECRYPTO;
	if (EVP_CipherFinal_ex(g->ctx, out + len, &n) != 1 ||
	    EVP_CIPHER_CTX_ctrl(g->ctx, EVP_CTRL_GCM_GET_TAG,
	    WA_CRYPTO_GCM_TAG_LEN, out + len) != 1)
		return WC_ECRYPTO;
	return 0;
}

int
wa_crypto_gcm_open(struct wa_crypto_gcm *g,
    const uint8_t nonce[WA_CRYPTO_GCM_NONCE_LEN], const uint8_t *aad,
    size_t aad_len, const uint8_t *c, size_t len, uint8_t *out)
{
	uint8_t	 tag[WA_CRYPTO_GCM_TAG_LEN];
	size_t	 plen;
	int	 n, rc;

	if (g->ctx == NULL || g->encrypt)
		return WC_ESTATE;
	if (len < WA_CRYPTO_GCM_TAG_LEN)
		return WC_ETRUNC;
	plen = len - WA_CRYPTO_GCM_TAG_LEN;
	if (plen > WA_CRYPTO_GCM_MAX_LEN)
		return WC_ETOOBIG;
	/* Copied first: decrypting in place must not depend on c's tail. */
	memcpy(tag, c + plen, sizeof(tag));
	if ((rc = gcm_start(g, nonce, aad, aad_len)) != 0)
		return rc;
	if (plen > 0 && EVP_CipherUpdate(g->ctx, out, &n, c, (int)plen) != 1)
		return WC_ECRYPTO;
	if (EVP_CIPHER_CTX_ctrl(g->ctx, EVP_CTRL_GCM_SET_TAG, sizeof(tag),
	    tag) != 1)
		return WC_ECRYPTO;
	if (EVP_CipherFinal_ex(g->ctx, out + plen, &n) != 1) {
		sodium_memzero(out, plen);
		return WC_EBADMAC;
	}
	return 0;
}

void
wa_crypto_gcm_release(struct wa_crypto_gcm *g)
{
	/* EVP_CIPHER_CTX_free() cleanses the key schedule. */
	EVP_CIPHER_CTX_free(g->ctx);
	g->ctx = NULL;
}

int
wa_crypto_gcm_seal_once(const uint8_t key[WA_CRYPTO_KEY_LEN],
    const uint8_t nonce[WA_CRYPTO_GCM_NONCE_LEN], const uint8_t *aad,
    size_t aad_len, const uint8_t *p, size_t len, uint8_t *out)
{
	struct wa_crypto_gcm	 g;
	int			 rc;

	if ((rc = wa_crypto_gcm_init(&g, key, true)) != 0)
		return rc;
	rc = wa_crypto_gcm_seal(&g, nonce, aad, aad_len, p, len, out);
	wa_crypto_gcm_release(&g);
	return rc;
}

int
wa_crypto_gcm_open_once(const uint8_t key[WA_CRYPTO_KEY_LEN],
    const uint8_t nonce[WA_CRYPTO_GCM_NONCE_LEN], const uint8_t *aad,
    size_t aad_len, const uint8_t *c, size_t len, uint8_t *out)
{
	struct wa_crypto_gcm	 g;
	int			 rc;

	if ((rc = wa_crypto_gcm_init(&g, key, false)) != 0)
		return rc;
	rc = wa_crypto_gcm_open(&g, nonce, aad, aad_len, c, len, out);
	wa_crypto_gcm_release(&g);
	return rc;
}

void
wa_crypto_x25519_base(const uint8_t priv[WA_CRYPTO_KEY_LEN],
    uint8_t pub[WA_CRYPTO_KEY_LEN])
{
	/* Fails only for a result of zero, which a clamped scalar times the
	 * base point never is. */
	if (crypto_scalarmult_base(pub, priv) != 0)
		abort();
}

int
wa_crypto_x25519(const uint8_t priv[WA_CRYPTO_KEY_LEN],
    const uint8_t pub[WA_CRYPTO_KEY_LEN], uint8_t shared[WA_CRYPTO_KEY_LEN])
{
	uint8_t	 s[WA_CRYPTO_KEY_LEN];

	/* libsodium refuses (-1) an all-zero result: a low-order pub. */
	if (crypto_scalarmult(s, priv, pub) != 0) {
		sodium_memzero(s, sizeof(s));
		return WC_ELOWORDER;
	}
	memcpy(shared, s, sizeof(s));
	sodium_memzero(s, sizeof(s));
	return 0;
}

/*
 * XEdDSA signing as libsignal-protocol-c 2.3.3 does it (curve25519_sign()
 * in curve25519/ed25519/additions/curve_sigs.c), on libsodium's group
 * arithmetic: about a third of the instructions of libsignal's ref10, and
 * one scalar multiplication instead of two when the key's Edwards point is
 * cached (perf.md S3: a group send signs every skmsg with the same key).
 * For the clamped Curve25519 private key k, message M and 64 random bytes
 * Z:
 *   A = k.B, encoded with the sign bit of x (k as it is, not reduced);
 *   r = SHA-512(0xFE || 0xFF x 31 || k || M || Z) mod L;
 *   R = r.B;  h = SHA-512(R || A || M) mod L;  s = r + h.k mod L;
 *   the signature is R || s with the sign bit of A in the top bit of its
 * last byte (s < L leaves that bit free).  test-wa-crypto checks the
 * bytes against libsignal's own curve25519_sign() for the same inputs.
 */
/* The last keys' Edwards points, per thread (a ring, oldest replaced):
 * key -> point, both 32 bytes.  Keys are compared in constant time (a
 * private key is one). */
struct xed_slot {
	uint8_t	 key[WA_CRYPTO_KEY_LEN];
	uint8_t	 val[WA_CRYPTO_KEY_LEN];
	bool	 set;
};

static bool
xed_cached(const struct xed_slot *c, unsigned n,
    const uint8_t key[WA_CRYPTO_KEY_LEN], uint8_t val[WA_CRYPTO_KEY_LEN])
{
	unsigned	 i;

	for (i = 0; i < n; i++)
		if (c[i].set &&
		    sodium_memcmp(c[i].key, key, WA_CRYPTO_KEY_LEN) == 0) {
			memcpy(val, c[i].val, WA_CRYPTO_KEY_LEN);
			return true;
		}
	return false;
}

static void
xed_keep(struct xed_slot *c, unsigned n, unsigned *next,
    const uint8_t key[WA_CRYPTO_KEY_LEN], const uint8_t val[WA_CRYPTO_KEY_LEN])
{
	struct xed_slot	*e = &c[(*next)++ % n];

	memcpy(e->key, key, WA_CRYPTO_KEY_LEN);
	memcpy(e->val, val, WA_CRYPTO_KEY_LEN);
	e->set = true;
}

#define XED_CACHE	4	/* private keys' points kept per thread */

static _Thread_local struct xed_slot	xed_cache[XED_CACHE];
static _Thread_local unsigned		xed_next;

/* A = k.B for the clamped k, from the cache or computed; 0 or -1 (k is
 * zero: no key). */
static int
xed_point(const uint8_t k[WA_CRYPTO_KEY_LEN], uint8_t a[WA_CRYPTO_KEY_LEN])
{
	if (xed_cached(xed_cache, XED_CACHE, k, a))
		return 0;
	if (crypto_scalarmult_ed25519_base_noclamp(a, k) != 0)
		return -1;
	xed_keep(xed_cache, XED_CACHE, &xed_next, k, a);
	return 0;
}

/* The signature of k (clamped) over msg[0..len) with random z; 0 or -1. */
static int
xed_sign(const uint8_t k[WA_CRYPTO_KEY_LEN], const uint8_t *msg, size_t len,
    const uint8_t z[WA_CRYPTO_SIG_RANDOM_LEN], uint8_t sig[WA_CRYPTO_SIG_LEN])
{
	crypto_hash_sha512_state	 h;
	uint8_t				 pad[32], a[WA_CRYPTO_KEY_LEN];
	uint8_t				 wide[64], r[32], hr[32], kr[32], t[32];
	int				 rc = -1;

	if (xed_point(k, a) != 0)
		return -1;
	memset(pad, 0xff, sizeof(pad));
	pad[0] = 0xfe;
	crypto_hash_sha512_init(&h);
	crypto_hash_sha512_update(&h, pad, sizeof(pad));
	crypto_hash_sha512_update(&h, k, WA_CRYPTO_KEY_LEN);
	crypto_hash_sha512_update(&h, msg, len);
	crypto_hash_sha512_update(&h, z, WA_CRYPTO_SIG_RANDOM_LEN);
	crypto_hash_sha512_final(&h, wide);
	crypto_core_ed25519_scalar_reduce(r, wide);
	if (crypto_scalarmult_ed25519_base_noclamp(sig, r) != 0)
		goto out;	/* r = 0: 2^-252 */
	crypto_hash_sha512_init(&h);
	crypto_hash_sha512_update(&h, sig, 32);
	crypto_hash_sha512_update(&h, a, sizeof(a));
	crypto_hash_sha512_update(&h, msg, len);
	crypto_hash_sha512_final(&h, wide);
	crypto_core_ed25519_scalar_reduce(hr, wide);
	memset(wide, 0, sizeof(wide));
	memcpy(wide, k, WA_CRYPTO_KEY_LEN);
	crypto_core_ed25519_scalar_reduce(kr, wide);
	crypto_core_ed25519_scalar_mul(t, hr, kr);
	crypto_core_ed25519_scalar_add(sig + 32, r, t);
	sig[63] = (uint8_t)((sig[63] & 0x7f) | (a[31] & 0x80));
	rc = 0;
out:
	sodium_memzero(wide, sizeof(wide));
	sodium_memzero(r, sizeof(r));
	sodium_memzero(kr, sizeof(kr));
	sodium_memzero(t, sizeof(t));
	sodium_memzero(&h, sizeof(h));
	return rc;
}

/*
 * Whether WACHAT_XEDDSA=libsignal asks for libsignal's own code: then
 * *own is (looked up once) libsignal's definition of sym, the next after
 * ours, which may be NULL when it cannot be found.
 */
static bool
libsignal_own(const char *sym, void **own)
{
	const char	*e = getenv("WACHAT_XEDDSA");

	if (e == NULL || strcmp(e, "libsignal") != 0)
		return false;
	if (*own == NULL)
		*own = dlsym(RTLD_NEXT, sym);
	return true;
}

/*
 * libsignal-protocol-c's signing primitive, replaced for the whole process
 * (its callers inside the library reach it through the PLT): every
 * signature libsignal makes (sender-key messages, signed prekeys) is
 * xed_sign()'s, the same bytes its own code gives.  Returns 0, or -1 as
 * libsignal's does on failure.  WACHAT_XEDDSA=libsignal hands every call
 * to libsignal's own (for comparing).
 */
int	curve25519_sign(unsigned char *, const unsigned char *,
	    const unsigned char *, const unsigned long, const unsigned char *);

int
curve25519_sign(unsigned char *signature_out,
    const unsigned char *curve25519_privkey, const unsigned char *msg,
    const unsigned long msg_len, const unsigned char *random)
{
	static void	*own;
	int		(*next)(unsigned char *, const unsigned char *,
			    const unsigned char *, const unsigned long,
			    const unsigned char *);

	if (libsignal_own("curve25519_sign", &own)) {
		*(void **)&next = own;
		return next != NULL ? next(signature_out, curve25519_privkey,
		    msg, msg_len, random) : -1;
	}
	return xed_sign(curve25519_privkey, msg, msg_len, random,
	    signature_out);
}

/*
 * XEdDSA verification as libsignal-protocol-c 2.3.3 does it
 * (curve25519_verify()), on libsodium: the Curve25519 public key u (its
 * top bit ignored) becomes the Edwards y = (u - 1) / (u + 1) mod 2^255 -
 * 19, given the sign bit the signature carries in its last byte, and the
 * signature with that bit cleared is checked as Ed25519 over M.
 * libsodium's check is the same equation with stricter input checks (S
 * below L, R and A not of small order), which no signer following the
 * scheme fails.  The y of the last XED_VCACHE keys are kept per thread
 * (a group's members sign with the same sender key every time).
 */
#define XED_VCACHE	256

static _Thread_local struct xed_slot	xed_vcache[XED_VCACHE];
static _Thread_local unsigned		xed_vnext;

/* y = (u - 1) / (u + 1) mod p for the key u (bit 255 ignored; u = -1
 * gives 0, as libsignal's fe_invert does); 0 or -1 (out of memory). */
static int
xed_edwards_y(const uint8_t u_in[WA_CRYPTO_KEY_LEN],
    uint8_t y_out[WA_CRYPTO_KEY_LEN])
{
	uint8_t	 ub[WA_CRYPTO_KEY_LEN];
	BN_CTX	*bc;
	BIGNUM	*p, *u, *num, *den, *y;
	bool	 ar;
	int	 rc = -1;

	if (xed_cached(xed_vcache, XED_VCACHE, u_in, y_out))
		return 0;
	memcpy(ub, u_in, sizeof(ub));
	ub[31] &= 0x7f;
	/* inside a libsignal call: OpenSSL's memory is glibc's */
	ar = scope_alloc_pause();
	if ((bc = BN_CTX_new()) == NULL) {
		scope_alloc_resume(ar);
		return -1;
	}
	BN_CTX_start(bc);
	p = BN_CTX_get(bc);
	u = BN_CTX_get(bc);
	num = BN_CTX_get(bc);
	den = BN_CTX_get(bc);
	y = BN_CTX_get(bc);
	if (y == NULL || BN_lebin2bn(ub, sizeof(ub), u) == NULL ||
	    !BN_set_word(p, 19) || !BN_lshift(num, BN_value_one(), 255) ||
	    !BN_sub(p, num, p) ||				/* 2^255 - 19 */
	    !BN_nnmod(u, u, p, bc) ||
	    !BN_mod_sub(num, u, BN_value_one(), p, bc) ||
	    !BN_mod_add(den, u, BN_value_one(), p, bc))
		goto out;
	if (BN_is_zero(den))
		BN_zero(y);
	else if (BN_mod_inverse(den, den, p, bc) == NULL ||
	    !BN_mod_mul(y, num, den, p, bc))
		goto out;
	if (BN_bn2lebinpad(y, y_out, WA_CRYPTO_KEY_LEN) !=
	    WA_CRYPTO_KEY_LEN)
		goto out;
	xed_keep(xed_vcache, XED_VCACHE, &xed_vnext, u_in, y_out);
	rc = 0;
out:
	BN_CTX_end(bc);
	BN_CTX_free(bc);
	scope_alloc_resume(ar);
	return rc;
}

/*
 * libsignal-protocol-c's verification primitive, replaced for the whole
 * process as curve25519_sign() is: 0 when sig verifies, -1 when not (its
 * convention).  WACHAT_XEDDSA=libsignal hands every call to libsignal's
 * own.
 */
int	curve25519_verify(const unsigned char *, const unsigned char *,
	    const unsigned char *, const unsigned long);

int
curve25519_verify(const unsigned char *signature,
    const unsigned char *curve25519_pubkey, const unsigned char *msg,
    const unsigned long msg_len)
{
	static void	*own;
	int		(*next)(const unsigned char *, const unsigned char *,
			    const unsigned char *, const unsigned long);
	uint8_t		 a[WA_CRYPTO_KEY_LEN], sig[WA_CRYPTO_SIG_LEN];

	if (libsignal_own("curve25519_verify", &own)) {
		*(void **)&next = own;
		return next != NULL ? next(signature, curve25519_pubkey, msg,
		    msg_len) : -1;
	}
	if (xed_edwards_y(curve25519_pubkey, a) != 0)
		return -1;
	a[31] = (uint8_t)((a[31] & 0x7f) | (signature[63] & 0x80));
	memcpy(sig, signature, sizeof(sig));
	sig[63] &= 0x7f;
	return crypto_sign_ed25519_verify_detached(sig, msg, msg_len, a) == 0 ?
	    0 : -1;
}

int
wa_crypto_xeddsa_sign(const uint8_t priv[WA_CRYPTO_KEY_LEN],
    const uint8_t *msg, size_t len,
    const uint8_t random[WA_CRYPTO_SIG_RANDOM_LEN],
    uint8_t sig[WA_CRYPTO_SIG_LEN])
{
	static const uint8_t	 none[1];
	uint8_t			 k[WA_CRYPTO_KEY_LEN], out[WA_CRYPTO_SIG_LEN];
	int			 rc;

	/*
	 * libsignal signs with the scalar as given, X25519 clamps it: clamp
	 * here so the signature matches wa_crypto_x25519_base(priv).
	 */
	memcpy(k, priv, sizeof(k));
	k[0] &= 248;
	k[31] &= 127;
	k[31] |= 64;
	rc = curve25519_sign(out, k, msg != NULL ? msg : none, len, random);
	if (rc == 0)
		memcpy(sig, out, sizeof(out));
	sodium_memzero(k, sizeof(k));
	return rc == 0 ? 0 : WC_ECRYPTO;
}

int
wa_crypto_xeddsa_verify(const uint8_t pub[WA_CRYPTO_KEY_LEN],
    const uint8_t *msg, size_t len, const uint8_t sig[WA_CRYPTO_SIG_LEN])
{
	static const uint8_t	 none[1];
	ec_public_key		*key = NULL;
	uint8_t			 point[1 + WA_CRYPTO_KEY_LEN];
	int			 ok;

	point[0] = DJB_TYPE;
	memcpy(point + 1, pub, WA_CRYPTO_KEY_LEN);
	if (curve_decode_point(&key, point, sizeof(point), NULL) != 0)
		return WC_EBADSIG;
	/* 1 valid, 0 invalid, < 0 error (all refusals here). */
	ok = curve_verify_signature(key, msg != NULL ? msg : none, len, sig,
	    WA_CRYPTO_SIG_LEN);
	SIGNAL_UNREF(key);
	return ok == 1 ? 0 : WC_EBADSIG;
}

void
wa_crypto_wipe(void *p, size_t len)
{
	sodium_memzero(p, len);
}
