/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appstate-crypto.c -- the collections, the mutation keys, the
 * per-record MACs, the LTHash and the snapshot and patch MACs of app-state
 * sync (proto/appstate.h; protocol-features.md 2.1, 2.5, 2.6), with the
 * helpers the module's other files share (proto/appstate-int.h).  HMACs
 * and HKDF from libsodium (proto/crypto.h), except those that run for
 * every record of a snapshot (the LTHash's HKDF, the index and value
 * MACs), which run on OpenSSL's SHA-256 and SHA-512 (SHA-NI and AVX2
 * where the CPU has them; libsodium's are portable C, three times as
 * slow); AES-256-CBC from OpenSSL with its padding off, so that a bad
 * PKCS#7 pad is told apart.
 */
/* SHA256_Init() and friends: deprecated in OpenSSL 3 for EVP, whose
 * contexts are allocated; these live on the stack. */
#define OPENSSL_API_COMPAT	0x10100000L
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/sha.h>
#include <sodium.h>

#include "base/err.h"
#include "proto/appstate-int.h"
#include "proto/crypto.h"
#include "proto/pb.h"

static const char *const coll_names[WA_AS_NCOLL] = {
	"critical_block", "critical_unblock_low", "regular_high",
	"regular_low", "regular",
};

const char *
wa_as_coll_name(enum wa_as_coll c)
{
	if ((unsigned)c >= WA_AS_NCOLL)
		return NULL;
	return coll_names[c];
}

int
wa_as_coll_find(const char *name)
{
	int	 i;

	if (name == NULL)
		return -1;
	for (i = 0; i < WA_AS_NCOLL; i++)
		if (strcmp(name, coll_names[i]) == 0)
			return i;
	return -1;
}

int
wa_as_keys_expand(const uint8_t *key_data, size_t len, struct wa_as_keys *out)
{
	static const char	 info[] = "WhatsApp Mutation Keys";
	uint8_t			 x[160];
	int			 rc;

	if (key_data == NULL || len == 0 || len > WA_AS_KEY_DATA_MAX)
		return -EINVAL;
	if ((rc = wa_crypto_hkdf(NULL, 0, key_data, len,
	    (const uint8_t *)info, sizeof(info) - 1, x, sizeof(x))) != 0)
		return rc;
	memcpy(out->index, x, 32);
	memcpy(out->value_enc, x + 32, 32);
	memcpy(out->value_mac, x + 64, 32);
	memcpy(out->snapshot_mac, x + 96, 32);
	memcpy(out->patch_mac, x + 128, 32);
	wa_crypto_wipe(x, sizeof(x));
	return 0;
}

/* An HMAC-SHA256 key: the states after its ipad and opad blocks. */
struct hm {
	SHA256_CTX	 in, out;
};

static void
hm_key(struct hm *h, const uint8_t *key, size_t len)
{
	uint8_t		 pad[64];
	size_t		 i;

	/* len <= 32 here (a zero salt, a PRK): no hashing of the key. */
	memset(pad, 0x36, sizeof(pad));
	for (i = 0; i < len; i++)
		pad[i] ^= key[i];
	SHA256_Init(&h->in);
	SHA256_Update(&h->in, pad, sizeof(pad));
	memset(pad, 0x5c, sizeof(pad));
	for (i = 0; i < len; i++)
		pad[i] ^= key[i];
	SHA256_Init(&h->out);
	SHA256_Update(&h->out, pad, sizeof(pad));
	wa_crypto_wipe(pad, sizeof(pad));
}

/* out = HMAC(h, a ‖ b ‖ c); any part may be empty. */
static void
hm_run(const struct hm *h, const void *a, size_t a_len, const void *b,
    size_t b_len, const void *c, size_t c_len, uint8_t out[32])
{
	SHA256_CTX	 x = h->in;
	uint8_t		 inner[32];

	SHA256_Update(&x, a, a_len);
	SHA256_Update(&x, b, b_len);
	SHA256_Update(&x, c, c_len);
	SHA256_Final(inner, &x);
	x = h->out;
	SHA256_Update(&x, inner, sizeof(inner));
	SHA256_Final(out, &x);
	wa_crypto_wipe(&x, sizeof(x));
}

/* e = HKDF(value_mac, "WhatsApp Patch Integrity", 128) (2.6; RFC 5869
 * with an empty salt, which is 32 zero bytes). */
static void
lthash_expand(const uint8_t value_mac[WA_AS_MAC_LEN],
    uint8_t e[WA_AS_HASH_LEN])
{
	static const char	 info[] = "WhatsApp Patch Integrity";
	static const uint8_t	 zero[32];
	struct hm		 h;
	uint8_t			 prk[32], n;

	hm_key(&h, zero, sizeof(zero));
	hm_run(&h, value_mac, WA_AS_MAC_LEN, NULL, 0, NULL, 0, prk);
	hm_key(&h, prk, sizeof(prk));
	for (n = 1; n <= WA_AS_HASH_LEN / 32; n++)
		hm_run(&h, n == 1 ? NULL : e + 32 * (n - 2), n == 1 ? 0 : 32, info,
		    sizeof(info) - 1, &n, 1, e + 32 * (n - 1));
	wa_crypto_wipe(prk, sizeof(prk));
	wa_crypto_wipe(&h, sizeof(h));
}

static void
lthash_mix(uint8_t hash[WA_AS_HASH_LEN],
    const uint8_t value_mac[WA_AS_MAC_LEN], bool add)
{
	uint8_t		 e[WA_AS_HASH_LEN];
	unsigned	 i;

	lthash_expand(value_mac, e);
	for (i = 0; i < WA_AS_HASH_LEN; i += 2) {
		unsigned	 h = hash[i] | (unsigned)hash[i + 1] << 8;
		unsigned	 v = e[i] | (unsigned)e[i + 1] << 8;

		h = (add ? h + v : h - v) & 0xffffu;
		hash[i] = (uint8_t)h;
		hash[i + 1] = (uint8_t)(h >> 8);
	}
}

void
wa_lthash_add(uint8_t hash[WA_AS_HASH_LEN],
    const uint8_t value_mac[WA_AS_MAC_LEN])
{
	lthash_mix(hash, value_mac, true);
}

void
wa_lthash_sub(uint8_t hash[WA_AS_HASH_LEN],
    const uint8_t value_mac[WA_AS_MAC_LEN])
{
	lthash_mix(hash, value_mac, false);
}

static void
be64(uint64_t v, uint8_t b[8])
{
	int	 i;

	for (i = 7; i >= 0; i--) {
		b[i] = (uint8_t)v;
		v >>= 8;
	}
}

void
wa_as_index_mac(const struct wa_as_keys *k, const void *index, size_t len,
    uint8_t out[WA_AS_MAC_LEN])
{
	struct hm	 h;

	hm_key(&h, k->index, sizeof(k->index));
	hm_run(&h, index, len, NULL, 0, NULL, 0, out);
	wa_crypto_wipe(&h, sizeof(h));
}

void
wa_as_value_mac(const struct wa_as_keys *k, int op, const uint8_t *key_id,
    size_t key_id_len, const uint8_t *iv_ct, size_t len,
    uint8_t out[WA_AS_MAC_LEN])
{
	SHA512_CTX	 x;
	uint8_t		 pad[SHA512_CBLOCK], inner[SHA512_DIGEST_LENGTH];
	uint8_t		 opb = (uint8_t)(op + 1), tail[8];
	size_t		 i;

	be64((uint64_t)key_id_len + 1, tail);
	memset(pad, 0x36, sizeof(pad));
	for (i = 0; i < sizeof(k->value_mac); i++)
		pad[i] ^= k->value_mac[i];
	SHA512_Init(&x);
	SHA512_Update(&x, pad, sizeof(pad));
	SHA512_Update(&x, &opb, 1);
	SHA512_Update(&x, key_id, key_id_len);
	SHA512_Update(&x, iv_ct, len);
	SHA512_Update(&x, tail, sizeof(tail));
	SHA512_Final(inner, &x);
	memset(pad, 0x5c, sizeof(pad));
	for (i = 0; i < sizeof(k->value_mac); i++)
		pad[i] ^= k->value_mac[i];
	SHA512_Init(&x);
	SHA512_Update(&x, pad, sizeof(pad));
	SHA512_Update(&x, inner, sizeof(inner));
	SHA512_Final(inner, &x);
	memcpy(out, inner, WA_AS_MAC_LEN);
	wa_crypto_wipe(pad, sizeof(pad));
	wa_crypto_wipe(inner, sizeof(inner));
	wa_crypto_wipe(&x, sizeof(x));
}

/* HMAC-SHA256(key, head ‖ mid[0..mid_len) ‖ uint64_BE(version) ‖ name). */
static void
tail_mac(const uint8_t key[32], const uint8_t *head, size_t head_len,
    const uint8_t *mid, size_t mid_len, uint64_t version, enum wa_as_coll c,
    uint8_t out[WA_AS_MAC_LEN])
{
	crypto_auth_hmacsha256_state	 st;
	const char			*name = wa_as_coll_name(c);
	uint8_t				 v[8];

	be64(version, v);
	crypto_auth_hmacsha256_init(&st, key, 32);
	crypto_auth_hmacsha256_update(&st, head, head_len);
	if (mid_len > 0)
		crypto_auth_hmacsha256_update(&st, mid, mid_len);
	crypto_auth_hmacsha256_update(&st, v, sizeof(v));
	if (name != NULL)
		crypto_auth_hmacsha256_update(&st, (const uint8_t *)name,
		    strlen(name));
	crypto_auth_hmacsha256_final(&st, out);
	sodium_memzero(&st, sizeof(st));
}

void
wa_as_snapshot_mac(const struct wa_as_keys *k,
    const uint8_t hash[WA_AS_HASH_LEN], uint64_t version, enum wa_as_coll c,
    uint8_t out[WA_AS_MAC_LEN])
{
	tail_mac(k->snapshot_mac, hash, WA_AS_HASH_LEN, NULL, 0, version, c,
	    out);
}

void
wa_as_patch_mac(const struct wa_as_keys *k,
    const uint8_t snapshot_mac[WA_AS_MAC_LEN], const uint8_t *value_macs,
    size_t n, uint64_t version, enum wa_as_coll c,
    uint8_t out[WA_AS_MAC_LEN])
{
	tail_mac(k->patch_mac, snapshot_mac, WA_AS_MAC_LEN, value_macs,
	    n * WA_AS_MAC_LEN, version, c, out);
}

int
as_cbc_run(struct as_cbc *c, const uint8_t key[32], const uint8_t iv[AS_BLOCK],
    bool encrypt, const uint8_t *in, size_t len, uint8_t *out)
{
	int	 n, ok, dir = encrypt ? 1 : 0;

	/* Callers cap len at WA_AS_VALUE_MAX_LEN, far below INT_MAX. */
	if (len % AS_BLOCK != 0 || len > WA_AS_VALUE_MAX_LEN)
		return WC_ECRYPTO;
	if (c->ctx == NULL && (c->ctx = EVP_CIPHER_CTX_new()) == NULL)
		return WC_ECRYPTO;
	if (c->dir != dir || sodium_memcmp(c->key, key, 32) != 0) {
		/* A new key schedule: OpenSSL allocates for it. */
		ok = EVP_CipherInit_ex(c->ctx, EVP_aes_256_cbc(), NULL, key,
		    iv, dir) == 1 &&
		    EVP_CIPHER_CTX_set_padding(c->ctx, 0) == 1;
		c->dir = ok ? dir : -1;
		memcpy(c->key, key, 32);
	} else	/* the same key: only the IV changes, nothing allocated */
		ok = EVP_CipherInit_ex(c->ctx, NULL, NULL, NULL, iv, -1) == 1;
	ok = ok && EVP_CipherUpdate(c->ctx, out, &n, in, (int)len) == 1 &&
	    (size_t)n == len &&
	    EVP_CipherFinal_ex(c->ctx, out + len, &n) == 1 && n == 0;
	return ok ? 0 : WC_ECRYPTO;
}

void
as_cbc_release(struct as_cbc *c)
{
	if (c->ctx != NULL)
		EVP_CIPHER_CTX_free(c->ctx);	/* wipes the key schedule */
	c->ctx = NULL;
	c->dir = -1;
	wa_crypto_wipe(c->key, sizeof(c->key));
}

static void *
pb_alloc(void *data, size_t size)
{
	return arena_alloc(data, size);
}

static void
pb_free(void *data, void *p)
{
	(void)data;
	(void)p;	/* the arena frees everything at once */
}

int
as_pb_unpack(struct arena *a, const ProtobufCMessageDescriptor *d,
    const uint8_t *p, size_t len, ProtobufCMessage **out)
{
	ProtobufCAllocator	 al = { pb_alloc, pb_free, a };
	ProtobufCMessage	*m;
	int			 rc;

	if ((rc = wa_pb_check(d, p, len, WA_PB_MAX_DEPTH)) != 0)
		return rc;
	if ((m = protobuf_c_message_unpack(d, &al, len, p)) == NULL)
		return WC_EPROTO;
	*out = m;
	return 0;
}

char *
as_strndup(struct arena *a, const void *s, size_t len)
{
	char	*p = arena_alloc(a, len + 1);

	if (len > 0)
		memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

bool
as_utf8_ok(const uint8_t *s, size_t len)
{
	size_t	 i = 0;

	while (i < len) {
		uint8_t		 c = s[i];
		uint32_t	 cp;
		size_t		 n, j;

		if (c < 0x80) {
			i++;
			continue;
		}
		if (c >= 0xc2 && c <= 0xdf)
			n = 1, cp = c & 0x1f;
		else if (c >= 0xe0 && c <= 0xef)
			n = 2, cp = c & 0x0f;
		else if (c >= 0xf0 && c <= 0xf4)
			n = 3, cp = c & 0x07;
		else
			return false;
		if (len - i <= n)
			return false;
		for (j = 1; j <= n; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if ((n == 2 && cp < 0x800) || (n == 3 && cp < 0x10000) ||
		    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += n + 1;
	}
	return true;
}
