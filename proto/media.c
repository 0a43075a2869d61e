/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media.c -- WhatsApp's media encryption (proto/media.h; protocol.md
 * 14.1).  SHA-256, HMAC and HKDF from proto/crypto.c (libsodium), with
 * libsodium's streaming HMAC for iv ‖ enc so the blob is never copied;
 * AES-256-CBC from OpenSSL with its padding turned off, so a bad PKCS#7
 * pad is told apart from a bad MAC.
 */
#include "base/compat.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <openssl/evp.h>
#include <sodium.h>

#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/media.h"

#define BLOCK	16	/* AES block, bytes */

int
wa_media_keys(const uint8_t media_key[WA_MEDIA_KEY_LEN], const char *info,
    struct wa_media_keys *out)
{
	uint8_t	 x[WA_MEDIA_EXPANDED_LEN];
	int	 rc;

	if (info == NULL)
		return -EINVAL;
	if ((rc = wa_crypto_hkdf(NULL, 0, media_key, WA_MEDIA_KEY_LEN,
	    (const uint8_t *)info, strlen(info), x, sizeof(x))) != 0)
		return rc;
	memcpy(out->iv, x, 16);
	memcpy(out->cipher_key, x + 16, 32);
	memcpy(out->mac_key, x + 48, 32);
	memcpy(out->ref_key, x + 80, 32);
	wa_crypto_wipe(x, sizeof(x));
	return 0;
}

/* mac = HMAC-SHA256(mac_key, iv ‖ enc[0..len)), all 32 bytes. */
static void
media_mac(const struct wa_media_keys *k, const uint8_t *enc, size_t len,
    uint8_t mac[WA_CRYPTO_HASH_LEN])
{
	crypto_auth_hmacsha256_state	 st;

	crypto_auth_hmacsha256_init(&st, k->mac_key, sizeof(k->mac_key));
	crypto_auth_hmacsha256_update(&st, k->iv, sizeof(k->iv));
	crypto_auth_hmacsha256_update(&st, enc, len);
	crypto_auth_hmacsha256_final(&st, mac);
	sodium_memzero(&st, sizeof(st));
}

/*
 * AES-256-CBC over in[0..len) (a multiple of 16) into out, without
 * padding.  OpenSSL counts in int, so long inputs go in slices.
 */
static int
cbc(const struct wa_media_keys *k, bool encrypt, const uint8_t *in,
    size_t len, uint8_t *out)
{
	EVP_CIPHER_CTX	*c;
	size_t		 off = 0;
	int		 n, ok;

	if ((c = EVP_CIPHER_CTX_new()) == NULL)
		return WC_ECRYPTO;
	ok = EVP_CipherInit_ex(c, EVP_aes_256_cbc(), NULL, k->cipher_key,
	    k->iv, encrypt ? 1 : 0) == 1 &&
	    EVP_CIPHER_CTX_set_padding(c, 0) == 1;
	while (ok && off < len) {
		size_t	 step = len - off;

		if (step > (size_t)INT_MAX - BLOCK)
			step = ((size_t)INT_MAX - BLOCK) / BLOCK * BLOCK;
		ok = EVP_CipherUpdate(c, out + off, &n, in + off,
		    (int)step) == 1 && (size_t)n == step;
		off += step;
	}
	if (ok)
		ok = EVP_CipherFinal_ex(c, out + off, &n) == 1 && n == 0;
	EVP_CIPHER_CTX_free(c);
	return ok ? 0 : WC_ECRYPTO;
}

int
wa_media_decrypt(const uint8_t media_key[WA_MEDIA_KEY_LEN], const char *info,
    const uint8_t *blob, size_t len, const uint8_t *file_enc_sha256,
    const uint8_t *file_sha256, size_t max_len, struct buf *out,
    const char **why)
{
	struct wa_media_keys	 k;
	uint8_t			 h[WA_CRYPTO_HASH_LEN];
	const char		*w = NULL;
	size_t			 enc_len, pad, i, start = out->len;
	uint8_t			*plain;
	uint8_t			 bad;
	int			 rc;

	if (info == NULL) {
		w = "no HKDF info string";
		rc = -EINVAL;
		goto fail;
	}
	if (len < BLOCK + WA_MEDIA_MAC_LEN ||
	    (len - WA_MEDIA_MAC_LEN) % BLOCK != 0) {
		w = "media blob is not whole AES blocks plus a 10-byte MAC";
		rc = WC_ETRUNC;
		goto fail;
	}
	enc_len = len - WA_MEDIA_MAC_LEN;
	/* The plaintext is enc_len - 16 .. enc_len - 1 bytes long; its
	 * exact length is checked again after unpadding. */
	if (enc_len - BLOCK > max_len) {
		w = "media blob is larger than the caller's plaintext cap";
		rc = WC_ETOOBIG;
		goto fail;
	}
	if (file_enc_sha256 != NULL) {
		wa_crypto_sha256(blob, len, h);
		if (sodium_memcmp(h, file_enc_sha256, sizeof(h)) != 0) {
			w = "SHA-256 of the download is not fileEncSHA256";
			rc = WA_MEDIA_EENCHASH;
			goto fail;
		}
	}
	if ((rc = wa_media_keys(media_key, info, &k)) != 0) {
		w = "HKDF failed";
		goto fail;
	}
	media_mac(&k, blob, enc_len, h);
	if (sodium_memcmp(h, blob + enc_len, WA_MEDIA_MAC_LEN) != 0) {
		w = "media MAC does not verify (wrong key or tampered blob)";
		rc = WC_EBADMAC;
		goto wipe;
	}
	buf_reserve(out, enc_len);
	plain = out->p + start;
	if ((rc = cbc(&k, false, blob, enc_len, plain)) != 0) {
		w = "AES-256-CBC decryption failed in OpenSSL";
		goto wipe_out;
	}
	/* PKCS#7: the last byte k in 1..16 and the last k bytes all k.  The
	 * MAC has passed, so timing here tells nothing an attacker lacks. */
	pad = plain[enc_len - 1];
	bad = pad == 0 || pad > BLOCK;
	for (i = 0; !bad && i < pad; i++)
		bad |= plain[enc_len - 1 - i] != pad;
	if (bad) {
		w = "bad PKCS#7 padding after decryption";
		rc = WA_MEDIA_EPADDING;
		goto wipe_out;
	}
	if (enc_len - pad > max_len) {
		w = "media plaintext is larger than the caller's cap";
		rc = WC_ETOOBIG;
		goto wipe_out;
	}
	if (file_sha256 != NULL) {
		wa_crypto_sha256(plain, enc_len - pad, h);
		if (sodium_memcmp(h, file_sha256, sizeof(h)) != 0) {
			w = "SHA-256 of the plaintext differs from fileSHA256";
			rc = WA_MEDIA_EFILEHASH;
			goto wipe_out;
		}
	}
	wa_crypto_wipe(&k, sizeof(k));
	out->len = start + enc_len - pad;
	return 0;

wipe_out:
	wa_crypto_wipe(out->p + start, enc_len);
wipe:
	wa_crypto_wipe(&k, sizeof(k));
fail:
	if (why != NULL)
		*why = w;
	return rc;
}

int
wa_media_encrypt(const uint8_t media_key[WA_MEDIA_KEY_LEN], const char *info,
    const uint8_t *p, size_t len, struct buf *out, uint8_t *file_enc_sha256,
    uint8_t *file_sha256)
{
	struct wa_media_keys	 k;
	uint8_t			 mac[WA_CRYPTO_HASH_LEN];
	size_t			 start = out->len, full = len / BLOCK * BLOCK;
	size_t			 enc_len = full + BLOCK;
	uint8_t			 last[BLOCK], *enc;
	uint8_t			 pad = (uint8_t)(BLOCK - len % BLOCK);
	int			 rc;

	if (info == NULL)
		return -EINVAL;
	if ((rc = wa_media_keys(media_key, info, &k)) != 0)
		return rc;
	buf_reserve(out, enc_len + WA_MEDIA_MAC_LEN);
	enc = out->p + start;
	/* Pad without copying p: whole blocks straight from p, the last
	 * block from a stack copy. */
	if (len > full)
		memcpy(last, p + full, len - full);
	memset(last + (len - full), pad, pad);
	if (full > 0)
		memcpy(enc, p, full);
	memcpy(enc + full, last, BLOCK);
	rc = cbc(&k, true, enc, enc_len, enc);
	wa_crypto_wipe(last, sizeof(last));
	if (rc != 0) {
		wa_crypto_wipe(enc, enc_len);
		wa_crypto_wipe(&k, sizeof(k));
		return rc;
	}
	media_mac(&k, enc, enc_len, mac);
	memcpy(enc + enc_len, mac, WA_MEDIA_MAC_LEN);
	wa_crypto_wipe(&k, sizeof(k));
	if (file_enc_sha256 != NULL)
		wa_crypto_sha256(enc, enc_len + WA_MEDIA_MAC_LEN,
		    file_enc_sha256);
	if (file_sha256 != NULL)
		wa_crypto_sha256(p, len, file_sha256);
	out->len = start + enc_len + WA_MEDIA_MAC_LEN;
	return 0;
}
