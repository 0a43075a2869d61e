/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/sim/keys.c -- randomness and libsignal key material for the sim. */
#include "compat.h"

#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <signal/signal_protocol.h>
#include <signal/curve.h>
#include <signal/key_helper.h>
#include <signal/session_pre_key.h>

#include "keys.h"
#include "xmalloc.h"

void
sim_random(void *p, size_t len)
{
	if (len > 0 && RAND_bytes(p, (int)len) != 1)
		abort();
}

int
sim_rng(void *arg, uint8_t *p, size_t len)
{
	(void)arg;
	sim_random(p, len);
	return 0;
}

/* The provider: libsignal needs these even to make keys (random, SHA-512
 * for signatures); HMAC and AES complete it for later sessions. */

static int
p_random(uint8_t *data, size_t len, void *u)
{
	(void)u;
	return len == 0 || RAND_bytes(data, (int)len) == 1 ? 0 : SG_ERR_UNKNOWN;
}

static int
p_hmac_init(void **ctx, const uint8_t *key, size_t key_len, void *u)
{
	EVP_MAC		*mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	EVP_MAC_CTX	*c;
	OSSL_PARAM	 params[2];

	(void)u;
	if (mac == NULL)
		return SG_ERR_NOMEM;
	c = EVP_MAC_CTX_new(mac);
	EVP_MAC_free(mac);
	if (c == NULL)
		return SG_ERR_NOMEM;
	params[0] = OSSL_PARAM_construct_utf8_string("digest",
	    (char *)"SHA256", 0);
	params[1] = OSSL_PARAM_construct_end();
	if (EVP_MAC_init(c, key, key_len, params) != 1) {
		EVP_MAC_CTX_free(c);
		return SG_ERR_UNKNOWN;
	}
	*ctx = c;
	return 0;
}

static int
p_hmac_update(void *ctx, const uint8_t *data, size_t len, void *u)
{
	(void)u;
	return EVP_MAC_update(ctx, data, len) == 1 ? 0 : SG_ERR_UNKNOWN;
}

static int
p_hmac_final(void *ctx, signal_buffer **out, void *u)
{
	uint8_t	 md[32];
	size_t	 n = 0;

	(void)u;
	if (EVP_MAC_final(ctx, md, &n, sizeof(md)) != 1)
		return SG_ERR_UNKNOWN;
	if ((*out = signal_buffer_create(md, n)) == NULL)
		return SG_ERR_NOMEM;
	return 0;
}

static void
p_hmac_cleanup(void *ctx, void *u)
{
	(void)u;
	EVP_MAC_CTX_free(ctx);
}

static int
p_sha512_init(void **ctx, void *u)
{
	EVP_MD_CTX	*c = EVP_MD_CTX_new();

	(void)u;
	if (c == NULL)
		return SG_ERR_NOMEM;
	if (EVP_DigestInit_ex(c, EVP_sha512(), NULL) != 1) {
		EVP_MD_CTX_free(c);
		return SG_ERR_UNKNOWN;
	}
	*ctx = c;
	return 0;
}

static int
p_sha512_update(void *ctx, const uint8_t *data, size_t len, void *u)
{
	(void)u;
	return EVP_DigestUpdate(ctx, data, len) == 1 ? 0 : SG_ERR_UNKNOWN;
}

static int
p_sha512_final(void *ctx, signal_buffer **out, void *u)
{
	uint8_t		 md[64];
	unsigned	 n = 0;

	(void)u;
	if (EVP_DigestFinal_ex(ctx, md, &n) != 1 ||
	    EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) != 1)
		return SG_ERR_UNKNOWN;
	if ((*out = signal_buffer_create(md, n)) == NULL)
		return SG_ERR_NOMEM;
	return 0;
}

static void
p_sha512_cleanup(void *ctx, void *u)
{
	(void)u;
	EVP_MD_CTX_free(ctx);
}

static const EVP_CIPHER *
aes_cipher(int cipher, size_t key_len)
{
	if (cipher == SG_CIPHER_AES_CBC_PKCS5)
		return key_len == 16 ? EVP_aes_128_cbc() : key_len == 24 ?
		    EVP_aes_192_cbc() : key_len == 32 ? EVP_aes_256_cbc() : NULL;
	if (cipher == SG_CIPHER_AES_CTR_NOPADDING)
		return key_len == 16 ? EVP_aes_128_ctr() : key_len == 24 ?
		    EVP_aes_192_ctr() : key_len == 32 ? EVP_aes_256_ctr() : NULL;
	return NULL;
}

static int
p_aes(signal_buffer **out, int cipher, const uint8_t *key, size_t key_len,
    const uint8_t *iv, size_t iv_len, const uint8_t *in, size_t len, int enc)
{
	const EVP_CIPHER	*c = aes_cipher(cipher, key_len);
	EVP_CIPHER_CTX		*ctx;
	uint8_t			*buf;
	int			 n1 = 0, n2 = 0, rc = SG_ERR_UNKNOWN;

	if (c == NULL || iv_len != 16 || len > (1u << 30))
		return SG_ERR_INVAL;
	if ((ctx = EVP_CIPHER_CTX_new()) == NULL)
		return SG_ERR_NOMEM;
	buf = xmalloc(len + 16);
	if (EVP_CipherInit_ex(ctx, c, NULL, key, iv, enc) == 1 &&
	    EVP_CipherUpdate(ctx, buf, &n1, in, (int)len) == 1 &&
	    EVP_CipherFinal_ex(ctx, buf + n1, &n2) == 1) {
		*out = signal_buffer_create(buf, (size_t)n1 + (size_t)n2);
		rc = *out != NULL ? 0 : SG_ERR_NOMEM;
	}
	EVP_CIPHER_CTX_free(ctx);
	free(buf);
	return rc;
}

static int
p_encrypt(signal_buffer **out, int cipher, const uint8_t *key,
    size_t key_len, const uint8_t *iv, size_t iv_len, const uint8_t *p,
    size_t len, void *u)
{
	(void)u;
	return p_aes(out, cipher, key, key_len, iv, iv_len, p, len, 1);
}

static int
p_decrypt(signal_buffer **out, int cipher, const uint8_t *key,
    size_t key_len, const uint8_t *iv, size_t iv_len, const uint8_t *c,
    size_t len, void *u)
{
	(void)u;
	return p_aes(out, cipher, key, key_len, iv, iv_len, c, len, 0);
}

struct signal_context *
sim_signal_new(void)
{
	signal_crypto_provider	 p = {
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
		.user_data = NULL,
	};
	signal_context		*sc = NULL;

	if (signal_context_create(&sc, NULL) != 0)
		return NULL;
	if (signal_context_set_crypto_provider(sc, &p) != 0) {
		signal_context_destroy(sc);
		return NULL;
	}
	return sc;
}

/* Copy a serialized libsignal public key (05 ‖ 32) as 32 raw bytes. */
static int
pub_raw(const ec_public_key *k, uint8_t out[SIM_KEY_LEN])
{
	signal_buffer	*b = NULL;
	int		 rc;

	if ((rc = ec_public_key_serialize(&b, k)) != 0)
		return rc;
	if (signal_buffer_len(b) != SIM_KEY_LEN + 1) {
		signal_buffer_free(b);
		return SG_ERR_UNKNOWN;
	}
	memcpy(out, signal_buffer_data(b) + 1, SIM_KEY_LEN);
	signal_buffer_free(b);
	return 0;
}

static int
priv_raw(const ec_private_key *k, uint8_t out[SIM_KEY_LEN])
{
	signal_buffer	*b = NULL;
	int		 rc;

	if ((rc = ec_private_key_serialize(&b, k)) != 0)
		return rc;
	if (signal_buffer_len(b) != SIM_KEY_LEN) {
		signal_buffer_bzero_free(b);
		return SG_ERR_UNKNOWN;
	}
	memcpy(out, signal_buffer_data(b), SIM_KEY_LEN);
	signal_buffer_bzero_free(b);
	return 0;
}

int
sim_signal_keys_make(struct signal_context *sc, size_t nprekeys,
    struct sim_signal_keys *out)
{
	ratchet_identity_key_pair			*ident = NULL;
	session_signed_pre_key				*spk = NULL;
	signal_protocol_key_helper_pre_key_list_node	*head = NULL, *n;
	struct sim_signal_keys				 k;
	size_t						 i = 0;
	int						 rc;

	memset(&k, 0, sizeof(k));
	if ((rc = signal_protocol_key_helper_generate_identity_key_pair(&ident,
	    sc)) != 0)
		goto out;
	if ((rc = signal_protocol_key_helper_generate_registration_id(
	    &k.reg_id, 0, sc)) != 0)
		goto out;
	if ((rc = pub_raw(ratchet_identity_key_pair_get_public(ident),
	    k.ident_pub)) != 0 ||
	    (rc = priv_raw(ratchet_identity_key_pair_get_private(ident),
	    k.ident_priv)) != 0)
		goto out;
	k.spk_id = 1;
	if ((rc = signal_protocol_key_helper_generate_signed_pre_key(&spk,
	    ident, k.spk_id, 0, sc)) != 0)
		goto out;
	if ((rc = pub_raw(ec_key_pair_get_public(
	    session_signed_pre_key_get_key_pair(spk)), k.spk_pub)) != 0 ||
	    (rc = priv_raw(ec_key_pair_get_private(
	    session_signed_pre_key_get_key_pair(spk)), k.spk_priv)) != 0)
		goto out;
	if (session_signed_pre_key_get_signature_len(spk) != sizeof(k.spk_sig)) {
		rc = SG_ERR_UNKNOWN;
		goto out;
	}
	memcpy(k.spk_sig, session_signed_pre_key_get_signature(spk),
	    sizeof(k.spk_sig));
	if (nprekeys > 0) {
		if ((rc = signal_protocol_key_helper_generate_pre_keys(&head, 1,
		    (unsigned)nprekeys, sc)) != 0)
			goto out;
		k.prekeys = xcalloc(nprekeys, sizeof(*k.prekeys));
		for (n = head; n != NULL && i < nprekeys; n =
		    signal_protocol_key_helper_key_list_next(n), i++) {
			session_pre_key	*pk =
			    signal_protocol_key_helper_key_list_element(n);
			ec_key_pair	*kp = session_pre_key_get_key_pair(pk);

			k.prekeys[i].id = session_pre_key_get_id(pk);
			if ((rc = pub_raw(ec_key_pair_get_public(kp),
			    k.prekeys[i].pub)) != 0 ||
			    (rc = priv_raw(ec_key_pair_get_private(kp),
			    k.prekeys[i].priv)) != 0)
				goto out;
		}
		k.nprekeys = i;
	}
	*out = k;
	memset(&k, 0, sizeof(k));
out:
	sim_signal_keys_release(&k);
	if (head != NULL)
		signal_protocol_key_helper_key_list_free(head);
	SIGNAL_UNREF(spk);
	SIGNAL_UNREF(ident);
	return rc;
}

void
sim_signal_keys_release(struct sim_signal_keys *k)
{
	if (k->prekeys != NULL) {
		explicit_bzero(k->prekeys, k->nprekeys * sizeof(*k->prekeys));
		free(k->prekeys);
	}
	explicit_bzero(k, sizeof(*k));
}

void
sim_hex(const uint8_t *p, size_t len, char *out)
{
	sodium_bin2hex(out, 2 * len + 1, p, len);
}

int
sim_unhex(const char *s, uint8_t *out, size_t len)
{
	size_t	 got = 0;

	if (strlen(s) != 2 * len || sodium_hex2bin(out, len, s, 2 * len,
	    NULL, &got, NULL) != 0 || got != len)
		return -1;
	return 0;
}
