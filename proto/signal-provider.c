/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/signal-provider.c -- the crypto provider wachat gives
 * libsignal-protocol-c (proto/signal-int.h): random bytes from libsodium,
 * HMAC-SHA256 on states from a small pool, SHA-512 and AES-256 (CBC with
 * PKCS#7 padding, CTR) on OpenSSL.  OpenSSL's own memory is kept out of
 * the per-call scope (base/scope-alloc.h): it is glibc's.
 */
#include "base/compat.h"

#include <stdlib.h>
#include <string.h>

/* SHA256_Init() and its kin: deprecated in OpenSSL 3 for EVP, whose
 * re-initialisation allocates (see p_hmac_init()). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <sodium.h>

#include <signal_protocol.h>

#include "base/xmalloc.h"
#include "base/scope-alloc.h"
#include "proto/signal-int.h"
#include "proto/wa-signal.h"

static int
p_random(uint8_t *data, size_t len, void *u)
{
	(void)u;
	randombytes_buf(data, len);
	return 0;
}

/*
 * HMAC-SHA256 (RFC 2104) on OpenSSL's SHA-256, whose compression uses the
 * CPU's SHA extensions where there are some (a fraction of libsodium's
 * portable instructions per block; libsignal runs a dozen HMACs per
 * message), on states from a small pool kept in the context (libsignal
 * opens at most a few at once): a MAC allocates nothing, where EVP_MAC
 * and even a reused EVP_MD_CTX allocate on every init in OpenSSL 3.0
 * (perf.md 5.2).  A MAC beyond the pool gets a state of its own, freed
 * after.
 */

/* Wipe a MAC's state and give it back to the pool (or free it). */
static void
p_hmac_release(struct provider *s, struct hmac *h)
{
	size_t	 i;

	sodium_memzero(h, sizeof(*h));	/* busy no more, too */
	for (i = 0; i < HMAC_POOL; i++)
		if (h == &s->hmac_pool[i])
			return;
	free(h);
}

static int
p_hmac_init(void **ctx, const uint8_t *key, size_t key_len, void *u)
{
	struct provider	*s = u;
	struct hmac	*h = NULL;
	uint8_t		 k[64], ipad[64];
	size_t		 i;

	for (i = 0; i < HMAC_POOL; i++)
		if (!s->hmac_pool[i].busy) {
			h = &s->hmac_pool[i];
			break;
		}
	if (h == NULL && (h = calloc(1, sizeof(*h))) == NULL)
		return SG_ERR_NOMEM;
	h->busy = true;
	memset(k, 0, sizeof(k));
	if (key_len > sizeof(k))	/* a long key is hashed first */
		SHA256(key, key_len, k);
	else if (key_len > 0)
		memcpy(k, key, key_len);
	for (i = 0; i < sizeof(k); i++) {
		ipad[i] = k[i] ^ 0x36;
		h->opad[i] = k[i] ^ 0x5c;
	}
	SHA256_Init(&h->in);
	SHA256_Update(&h->in, ipad, sizeof(ipad));
	sodium_memzero(k, sizeof(k));
	sodium_memzero(ipad, sizeof(ipad));
	*ctx = h;
	return 0;
}

static int
p_hmac_update(void *ctx, const uint8_t *data, size_t len, void *u)
{
	struct hmac	*h = ctx;

	(void)u;
	return SHA256_Update(&h->in, data, len) == 1 ? 0 : SG_ERR_UNKNOWN;
}

static int
p_hmac_final(void *ctx, signal_buffer **out, void *u)
{
	struct hmac	*h = ctx;
	SHA256_CTX	 o;
	uint8_t		 ih[32], md[32];

	(void)u;
	SHA256_Final(ih, &h->in);
	SHA256_Init(&o);
	SHA256_Update(&o, h->opad, sizeof(h->opad));
	SHA256_Update(&o, ih, sizeof(ih));
	SHA256_Final(md, &o);
	sodium_memzero(ih, sizeof(ih));
	sodium_memzero(&o, sizeof(o));
	*out = signal_buffer_create(md, sizeof(md));
	sodium_memzero(md, sizeof(md));
	return *out != NULL ? 0 : SG_ERR_NOMEM;
}

static void
p_hmac_cleanup(void *ctx, void *u)
{
	p_hmac_release(u, ctx);
}

static int
p_sha512_init(void **ctx, void *u)
{
	EVP_MD_CTX	*c;
	bool		 ar = scope_alloc_pause();	/* OpenSSL */
	int		 rc = 0;

	(void)u;
	if ((c = EVP_MD_CTX_new()) == NULL)
		rc = SG_ERR_NOMEM;
	else if (EVP_DigestInit_ex(c, EVP_sha512(), NULL) != 1) {
		EVP_MD_CTX_free(c);
		rc = SG_ERR_UNKNOWN;
	} else
		*ctx = c;
	scope_alloc_resume(ar);
	return rc;
}

static int
p_sha512_update(void *ctx, const uint8_t *data, size_t len, void *u)
{
	bool	 ar = scope_alloc_pause();
	int	 rc;

	(void)u;
	rc = EVP_DigestUpdate(ctx, data, len) == 1 ? 0 : SG_ERR_UNKNOWN;
	scope_alloc_resume(ar);
	return rc;
}

/* Finalize, then start over: libsignal may reuse the context. */
static int
p_sha512_final(void *ctx, signal_buffer **out, void *u)
{
	uint8_t		 md[64];
	unsigned	 n = 0;
	bool		 ar = scope_alloc_pause();
	int		 ok;

	(void)u;
	ok = EVP_DigestFinal_ex(ctx, md, &n) == 1 && n == sizeof(md) &&
	    EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) == 1;
	scope_alloc_resume(ar);
	if (!ok)
		return SG_ERR_UNKNOWN;
	*out = signal_buffer_create(md, n);
	sodium_memzero(md, sizeof(md));
	return *out != NULL ? 0 : SG_ERR_NOMEM;
}

static void
p_sha512_cleanup(void *ctx, void *u)
{
	bool	 ar = scope_alloc_pause();

	(void)u;
	EVP_MD_CTX_free(ctx);
	scope_alloc_resume(ar);
}

/* AES-256 in the modes libsignal asks for: CBC with PKCS#7 padding (what
 * libsignal calls PKCS5), and CTR. */
static int
p_aes(struct provider *s, signal_buffer **out, int cipher, const uint8_t *key,
    size_t key_len, const uint8_t *iv, size_t iv_len, const uint8_t *in,
    size_t len, int enc)
{
	static const uint8_t	 zero[32];
	EVP_CIPHER		**c;
	EVP_CIPHER_CTX		**ctx;
	const char		*name;
	uint8_t			*tmp;
	int			 n1 = 0, n2 = 0, rc = SG_ERR_UNKNOWN, ok;
	bool			 ar;

	if (cipher == SG_CIPHER_AES_CBC_PKCS5) {
		name = "AES-256-CBC";
		c = &s->cipher[0];
		ctx = &s->aes[0];
	} else if (cipher == SG_CIPHER_AES_CTR_NOPADDING) {
		name = "AES-256-CTR";
		c = &s->cipher[1];
		ctx = &s->aes[1];
	} else
		return SG_ERR_INVAL;
	if (key_len != 32 || iv_len != AES_BLOCK ||
	    len > WA_SIGNAL_MAX_LEN + AES_BLOCK)
		return SG_ERR_INVAL;
	tmp = xmalloc(len + AES_BLOCK);	/* the arena's, in a scope */
	ar = scope_alloc_pause();	/* OpenSSL: glibc's, kept */
	if (*c == NULL)
		*c = EVP_CIPHER_fetch(NULL, name, NULL);
	if (*ctx == NULL) {
		if (*c == NULL || (*ctx = EVP_CIPHER_CTX_new()) == NULL) {
			scope_alloc_resume(ar);
			free(tmp);
			return SG_ERR_NOMEM;
		}
		ok = EVP_CipherInit_ex(*ctx, *c, NULL, key, iv, enc) == 1;
	} else	/* the same cipher: only the key, IV and direction */
		ok = EVP_CipherInit_ex(*ctx, NULL, NULL, key, iv, enc) == 1;
	ok = ok && EVP_CipherUpdate(*ctx, tmp, &n1, in, (int)len) == 1 &&
	    EVP_CipherFinal_ex(*ctx, tmp + n1, &n2) == 1;
	/* No message key schedule left behind until the next call; after
	 * a failure (a bad padding, say) the context is made anew. */
	if (!ok || EVP_CipherInit_ex(*ctx, NULL, NULL, zero, zero, -1) != 1) {
		EVP_CIPHER_CTX_free(*ctx);
		*ctx = NULL;
	}
	scope_alloc_resume(ar);
	if (ok) {
		*out = signal_buffer_create(tmp, (size_t)n1 + (size_t)n2);
		rc = *out != NULL ? 0 : SG_ERR_NOMEM;
	}
	sodium_memzero(tmp, len + AES_BLOCK);
	free(tmp);
	return rc;
}

static int
p_encrypt(signal_buffer **out, int cipher, const uint8_t *key,
    size_t key_len, const uint8_t *iv, size_t iv_len, const uint8_t *p,
    size_t len, void *u)
{
	return p_aes(u, out, cipher, key, key_len, iv, iv_len, p, len, 1);
}

static int
p_decrypt(signal_buffer **out, int cipher, const uint8_t *key,
    size_t key_len, const uint8_t *iv, size_t iv_len, const uint8_t *c,
    size_t len, void *u)
{
	return p_aes(u, out, cipher, key, key_len, iv, iv_len, c, len, 0);
}

void
sig_provider_release(struct provider *s)
{
	EVP_CIPHER_CTX_free(s->aes[0]);
	EVP_CIPHER_CTX_free(s->aes[1]);
	s->aes[0] = s->aes[1] = NULL;
	EVP_CIPHER_free(s->cipher[0]);
	EVP_CIPHER_free(s->cipher[1]);
	s->cipher[0] = s->cipher[1] = NULL;
}

/* ---- the provider ---------------------------------------------------- */

const signal_crypto_provider sig_provider = {
	.random_func = p_random,
	.hmac_sha256_init_func = p_hmac_init,
	.hmac_sha256_update_func = p_hmac_update,
	.hmac_sha256_final_func = p_hmac_final,
	.hmac_sha256_cleanup_func = p_hmac_cleanup,
	.sha512_digest_init_func = p_sha512_init,
	.sha512_digest_update_func = p_sha512_update,
	.sha512_digest_final_func = p_sha512_final,
	.sha512_digest_cleanup_func = p_sha512_cleanup,
	.encrypt_func = p_encrypt,
	.decrypt_func = p_decrypt,
};
