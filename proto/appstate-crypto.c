/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appstate-crypto.c -- the collections, the mutation keys, the
 * per-record MACs, the LTHash and the snapshot and patch MACs of app-state
 * sync (proto/appstate.h; protocol-features.md 2.1, 2.5, 2.6), with the
 * helpers the module's other files share (proto/appstate-int.h).  HMACs
 * and HKDF from libsodium (proto/crypto.h), AES-256-CBC from OpenSSL with
 * its padding off, so that a bad PKCS#7 pad is told apart.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#include <openssl/evp.h>
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

/* e = HKDF(value_mac, "WhatsApp Patch Integrity", 128) (2.6). */
static void
lthash_expand(const uint8_t value_mac[WA_AS_MAC_LEN],
    uint8_t e[WA_AS_HASH_LEN])
{
	static const char	 info[] = "WhatsApp Patch Integrity";

	/* Cannot fail: 128 bytes is below the HKDF cap. */
	(void)!wa_crypto_hkdf(NULL, 0, value_mac, WA_AS_MAC_LEN,
	    (const uint8_t *)info, sizeof(info) - 1, e, WA_AS_HASH_LEN);
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

void
wa_as_index_mac(const struct wa_as_keys *k, const void *index, size_t len,
    uint8_t out[WA_AS_MAC_LEN])
{
	wa_crypto_hmac_sha256(k->index, sizeof(k->index), index, len, out);
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
wa_as_value_mac(const struct wa_as_keys *k, int op, const uint8_t *key_id,
    size_t key_id_len, const uint8_t *iv_ct, size_t len,
    uint8_t out[WA_AS_MAC_LEN])
{
	crypto_auth_hmacsha512_state	 st;
	uint8_t				 full[crypto_auth_hmacsha512_BYTES];
	uint8_t				 opb = (uint8_t)(op + 1), tail[8];

	be64((uint64_t)key_id_len + 1, tail);
	crypto_auth_hmacsha512_init(&st, k->value_mac, sizeof(k->value_mac));
	crypto_auth_hmacsha512_update(&st, &opb, 1);
	crypto_auth_hmacsha512_update(&st, key_id, key_id_len);
	crypto_auth_hmacsha512_update(&st, iv_ct, len);
	crypto_auth_hmacsha512_update(&st, tail, sizeof(tail));
	crypto_auth_hmacsha512_final(&st, full);
	memcpy(out, full, WA_AS_MAC_LEN);
	sodium_memzero(&st, sizeof(st));
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
	int	 n, ok;

	/* Callers cap len at WA_AS_VALUE_MAX_LEN, far below INT_MAX. */
	if (len % AS_BLOCK != 0 || len > WA_AS_VALUE_MAX_LEN)
		return WC_ECRYPTO;
	if (c->ctx == NULL && (c->ctx = EVP_CIPHER_CTX_new()) == NULL)
		return WC_ECRYPTO;
	ok = EVP_CipherInit_ex(c->ctx, EVP_aes_256_cbc(), NULL, key, iv,
	    encrypt ? 1 : 0) == 1 &&
	    EVP_CIPHER_CTX_set_padding(c->ctx, 0) == 1 &&
	    EVP_CipherUpdate(c->ctx, out, &n, in, (int)len) == 1 &&
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
