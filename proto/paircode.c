/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/paircode.c -- the code, key wrapping and key bundle of pairing
 * with a phone-number code (proto/paircode.h; protocol.md 6.7, as [WM]
 * pair-code.go and [BL] socket.ts do it).
 */
#include "base/compat.h"

#include <string.h>

#include <openssl/evp.h>

#include "proto/crypto.h"
#include "base/err.h"
#include "proto/paircode.h"

#define BUNDLE_INFO	"link_code_pairing_key_bundle_encryption_key"

static const char	 alphabet[] = "123456789ABCDEFGHJKLMNPQRSTVWXYZ";

void
wa_paircode_text(const uint8_t rnd[WA_PAIRCODE_RAND_LEN],
    char out[WA_PAIRCODE_LEN + 1])
{
	uint64_t	 v = 0;
	size_t		 i;

	for (i = 0; i < WA_PAIRCODE_RAND_LEN; i++)
		v = v << 8 | rnd[i];
	for (i = 0; i < WA_PAIRCODE_LEN; i++)
		out[i] = alphabet[v >> (5 * (WA_PAIRCODE_LEN - 1 - i)) & 31];
	out[WA_PAIRCODE_LEN] = '\0';
}

void
wa_paircode_display(const char code[WA_PAIRCODE_LEN],
    char out[WA_PAIRCODE_LEN + 2])
{
	memcpy(out, code, 4);
	out[4] = '-';
	memcpy(out + 5, code + 4, 4);
	out[9] = '\0';
}

/* out = AES-256-CTR(PBKDF2-HMAC-SHA256(code, salt), iv, in), 32 bytes. */
static int
ctr32(const char code[WA_PAIRCODE_LEN], const uint8_t salt[32],
    const uint8_t iv[16], const uint8_t in[32], uint8_t out[32])
{
	uint8_t		 key[32], tmp[32];
	EVP_CIPHER_CTX	*x;
	int		 n = 0, n2 = 0, ok;

	if (PKCS5_PBKDF2_HMAC(code, WA_PAIRCODE_LEN, salt, 32,
	    WA_PAIRCODE_ITER, EVP_sha256(), sizeof(key), key) != 1)
		return WC_ECRYPTO;
	if ((x = EVP_CIPHER_CTX_new()) == NULL) {
		wa_crypto_wipe(key, sizeof(key));
		return WC_ECRYPTO;
	}
	ok = EVP_EncryptInit_ex(x, EVP_aes_256_ctr(), NULL, key, iv) == 1 &&
	    EVP_EncryptUpdate(x, tmp, &n, in, 32) == 1 &&
	    EVP_EncryptFinal_ex(x, tmp + n, &n2) == 1 && n + n2 == 32;
	EVP_CIPHER_CTX_free(x);
	wa_crypto_wipe(key, sizeof(key));
	if (ok)
		memcpy(out, tmp, 32);
	wa_crypto_wipe(tmp, sizeof(tmp));
	return ok ? 0 : WC_ECRYPTO;
}

int
wa_paircode_wrap(const char code[WA_PAIRCODE_LEN],
    const uint8_t rnd[WA_PAIRCODE_WRAP_RAND_LEN], const uint8_t pub[32],
    uint8_t out[WA_PAIRCODE_WRAPPED_LEN])
{
	uint8_t	 c[32];
	int	 rc;

	if ((rc = ctr32(code, rnd, rnd + 32, pub, c)) != 0)
		return rc;
	memcpy(out, rnd, 48);
	memcpy(out + 48, c, 32);
	return 0;
}

int
wa_paircode_unwrap(const char code[WA_PAIRCODE_LEN],
    const uint8_t in[WA_PAIRCODE_WRAPPED_LEN], uint8_t pub[32])
{
	return ctr32(code, in, in + 32, in + 48, pub);
}

int
wa_paircode_finish(const uint8_t eph_priv[32], const uint8_t primary_eph[32],
    const uint8_t identity_priv[32], const uint8_t identity_pub[32],
    const uint8_t primary_identity[32],
    const uint8_t rnd[WA_PAIRCODE_FINISH_RAND_LEN],
    uint8_t bundle[WA_PAIRCODE_BUNDLE_LEN], uint8_t adv_secret[32])
{
	const uint8_t	*adv_random = rnd, *salt = rnd + 32, *nonce = rnd + 64;
	uint8_t		 s1[32], s2[32], key[32], plain[96], ikm[96];
	uint8_t		 out[WA_PAIRCODE_BUNDLE_LEN], adv[32];
	int		 rc;

	if ((rc = wa_crypto_x25519(eph_priv, primary_eph, s1)) != 0 ||
	    (rc = wa_crypto_x25519(identity_priv, primary_identity, s2)) != 0)
		goto out;
	if ((rc = wa_crypto_hkdf(salt, 32, s1, 32,
	    (const uint8_t *)BUNDLE_INFO, strlen(BUNDLE_INFO), key,
	    sizeof(key))) != 0)
		goto out;
	memcpy(plain, identity_pub, 32);
	memcpy(plain + 32, primary_identity, 32);
	memcpy(plain + 64, adv_random, 32);
	memcpy(out, salt, 32);
	memcpy(out + 32, nonce, 12);
	if ((rc = wa_crypto_gcm_seal_once(key, nonce, NULL, 0, plain,
	    sizeof(plain), out + 44)) != 0)
		goto out;
	/* adv_secret = HKDF(S1 || S2 || advRandom, no salt, "adv_secret"). */
	memcpy(ikm, s1, 32);
	memcpy(ikm + 32, s2, 32);
	memcpy(ikm + 64, adv_random, 32);
	if ((rc = wa_crypto_hkdf(NULL, 0, ikm, sizeof(ikm),
	    (const uint8_t *)"adv_secret", 10, adv, sizeof(adv))) != 0)
		goto out;
	memcpy(bundle, out, sizeof(out));
	memcpy(adv_secret, adv, sizeof(adv));
out:
	wa_crypto_wipe(s1, sizeof(s1));
	wa_crypto_wipe(s2, sizeof(s2));
	wa_crypto_wipe(key, sizeof(key));
	wa_crypto_wipe(plain, sizeof(plain));
	wa_crypto_wipe(ikm, sizeof(ikm));
	wa_crypto_wipe(adv, sizeof(adv));
	return rc;
}
