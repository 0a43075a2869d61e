/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/signal.c -- libsignal-protocol-c over struct wa_signal_store_ops
 * (proto/wa-signal.h): the crypto provider, the store callbacks with who
 * frees each buffer, and the session, encrypt and decrypt calls wrapped
 * in the store's transactions, and the same for group sender keys (SKDM,
 * skmsg).  No SQL here.
 *
 * Buffer ownership at the libsignal boundary: a signal_buffer this file
 * hands to libsignal through a load callback (session, prekey, identity)
 * is libsignal's to free; record bytes libsignal passes to a store
 * callback are borrowed for the call; objects libsignal returns to us
 * (ciphertext messages, plaintext buffers, keys we decode) are released
 * here with SIGNAL_UNREF or signal_buffer_(bzero_)free.
 *
 * Allocation: every libsignal call runs in a scope of the bump arena of
 * proto/signal-arena.h, opened by the wa_signal_* call and closed after
 * every libsignal object of the call is freed (outputs are copied out
 * first).  The arena is paused around whatever reaches the store (the
 * ops, hence SQLite), OpenSSL (which caches global state lazily) or a
 * caller's buffer, so only libsignal's and protobuf-c's per-call blocks
 * come from it.
 */
#include "base/compat.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* SHA256_Init() and its kin: deprecated in OpenSSL 3 for EVP, whose
 * re-initialisation allocates (see p_hmac_init()). */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <sodium.h>

#include <curve.h>
#include <group_cipher.h>
#include <group_session_builder.h>
#include <protocol.h>
#include <sender_key_record.h>
#include <session_builder.h>
#include <session_cipher.h>
#include <session_pre_key.h>
#include <signal_protocol.h>

#define LOG_TAG "signal"
#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "proto/signal-arena.h"
#include "proto/wa-signal.h"
#include "base/xmalloc.h"

#define SERIALIZED_KEY_LEN	(WA_SIGNAL_KEY_LEN + 1)	/* 05 || key */
#define DJB_TYPE		0x05	/* libsignal's Curve25519 key type */
#define AES_BLOCK		16
#define HMAC_POOL		4	/* HMAC states open at once, kept */

/* An HMAC-SHA256 in progress: the inner hash running, the outer pad. */
struct hmac {
	SHA256_CTX	 in;
	uint8_t		 opad[64];
	bool		 busy;
};

/* The crypto provider's state: HMAC states kept for reuse, and one AES
 * context per mode, made at first use and re-keyed after (OpenSSL 3
 * allocates 3 times for a new context; perf.md 5.2). */
struct provider {
	struct hmac			 hmac_pool[HMAC_POOL];
	EVP_CIPHER_CTX			*aes[2];	/* CBC, CTR */
	EVP_CIPHER			*cipher[2];	/* fetched once: a
					 * static EVP_aes_*() is fetched
					 * again at every init (OpenSSL 3) */
};

struct wa_signal {
	const struct wa_signal_store_ops *ops;
	wa_signal_clock_fn		 now_ms;
	void				*clock_arg;
	signal_context			*ctx;
	signal_protocol_store_context	*store;
	pthread_mutex_t			 lock;	/* recursive (libsignal) */
	struct provider			 prov;	/* its user data */
	struct buf			 tmp;	/* loaded records; wiped */
	bool				 identity_changed; /* save_identity */
};

int
wa_signal_err(int err)
{
	/*
	 * libsignal's own codes are -1000..-1201; the rest of the range it
	 * reserves (down to SG_ERR_MINIMUM) is where base/err.h's WC_E* codes
	 * begin (they count up from -10000), so only that band is mapped.
	 */
	if (err > SG_ERR_UNKNOWN || err <= SG_ERR_UNKNOWN - 1000)
		return err;	/* 0, negative errno or WC_E* */
	switch (err) {
	case SG_ERR_DUPLICATE_MESSAGE:
		return WC_EDUPMSG;
	case SG_ERR_NO_SESSION:
		return WC_ENOSESSION;
	case SG_ERR_INVALID_MESSAGE:
	case SG_ERR_INVALID_MAC:
	case SG_ERR_INVALID_VERSION:
	case SG_ERR_LEGACY_MESSAGE:
	case SG_ERR_INVALID_PROTO_BUF:
	case SG_ERR_STALE_KEY_EXCHANGE:
		return WC_EBADMSG;
	case SG_ERR_INVALID_KEY:
	case SG_ERR_VRF_SIG_VERIF_FAILED:
		return WC_EBADKEY;
	case SG_ERR_INVALID_KEY_ID:
		return WC_ENOKEY;
	case SG_ERR_UNTRUSTED_IDENTITY:
		return WC_EUNTRUSTED;
	default:
		return WC_ECRYPTO;
	}
}

/* ---- the crypto provider ---------------------------------------------- */

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
	bool		 ar = wa_signal_arena_pause();	/* OpenSSL */
	int		 rc = 0;

	(void)u;
	if ((c = EVP_MD_CTX_new()) == NULL)
		rc = SG_ERR_NOMEM;
	else if (EVP_DigestInit_ex(c, EVP_sha512(), NULL) != 1) {
		EVP_MD_CTX_free(c);
		rc = SG_ERR_UNKNOWN;
	} else
		*ctx = c;
	wa_signal_arena_resume(ar);
	return rc;
}

static int
p_sha512_update(void *ctx, const uint8_t *data, size_t len, void *u)
{
	bool	 ar = wa_signal_arena_pause();
	int	 rc;

	(void)u;
	rc = EVP_DigestUpdate(ctx, data, len) == 1 ? 0 : SG_ERR_UNKNOWN;
	wa_signal_arena_resume(ar);
	return rc;
}

/* Finalize, then start over: libsignal may reuse the context. */
static int
p_sha512_final(void *ctx, signal_buffer **out, void *u)
{
	uint8_t		 md[64];
	unsigned	 n = 0;
	bool		 ar = wa_signal_arena_pause();
	int		 ok;

	(void)u;
	ok = EVP_DigestFinal_ex(ctx, md, &n) == 1 && n == sizeof(md) &&
	    EVP_DigestInit_ex(ctx, EVP_sha512(), NULL) == 1;
	wa_signal_arena_resume(ar);
	if (!ok)
		return SG_ERR_UNKNOWN;
	*out = signal_buffer_create(md, n);
	sodium_memzero(md, sizeof(md));
	return *out != NULL ? 0 : SG_ERR_NOMEM;
}

static void
p_sha512_cleanup(void *ctx, void *u)
{
	bool	 ar = wa_signal_arena_pause();

	(void)u;
	EVP_MD_CTX_free(ctx);
	wa_signal_arena_resume(ar);
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
	ar = wa_signal_arena_pause();	/* OpenSSL: glibc's, kept */
	if (*c == NULL)
		*c = EVP_CIPHER_fetch(NULL, name, NULL);
	if (*ctx == NULL) {
		if (*c == NULL || (*ctx = EVP_CIPHER_CTX_new()) == NULL) {
			wa_signal_arena_resume(ar);
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
	wa_signal_arena_resume(ar);
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

/* Free what the provider kept (the AES contexts). */
static void
provider_release(struct provider *s)
{
	EVP_CIPHER_CTX_free(s->aes[0]);
	EVP_CIPHER_CTX_free(s->aes[1]);
	s->aes[0] = s->aes[1] = NULL;
	EVP_CIPHER_free(s->cipher[0]);
	EVP_CIPHER_free(s->cipher[1]);
	s->cipher[0] = s->cipher[1] = NULL;
}

static void
p_lock(void *u)
{
	struct wa_signal	*s = u;

	pthread_mutex_lock(&s->lock);
}

static void
p_unlock(void *u)
{
	struct wa_signal	*s = u;

	pthread_mutex_unlock(&s->lock);
}

/* ---- keys and addresses ----------------------------------------------- */

static int
decode_pub(struct wa_signal *s, const uint8_t raw[WA_SIGNAL_KEY_LEN],
    ec_public_key **out)
{
	uint8_t	 b[SERIALIZED_KEY_LEN];

	b[0] = DJB_TYPE;
	memcpy(b + 1, raw, WA_SIGNAL_KEY_LEN);
	return curve_decode_point(out, b, sizeof(b), s->ctx);
}

/*
 * The engine keeps private keys as 32 random bytes, which X25519 clamps
 * (wa_crypto_x25519_base() made the public half that way); libsignal's
 * agreement uses the scalar as given, so clamp before handing it over.
 */
static void
clamp(const uint8_t in[WA_SIGNAL_KEY_LEN], uint8_t out[WA_SIGNAL_KEY_LEN])
{
	memcpy(out, in, WA_SIGNAL_KEY_LEN);
	out[0] &= 248;
	out[31] &= 127;
	out[31] |= 64;
}

static int
decode_pair(struct wa_signal *s, const uint8_t priv[WA_SIGNAL_KEY_LEN],
    const uint8_t pub[WA_SIGNAL_KEY_LEN], ec_key_pair **out)
{
	ec_public_key	*pk = NULL;
	ec_private_key	*sk = NULL;
	uint8_t		 k[WA_SIGNAL_KEY_LEN];
	int		 rc;

	clamp(priv, k);
	if ((rc = decode_pub(s, pub, &pk)) == 0 &&
	    (rc = curve_decode_private_point(&sk, k, sizeof(k), s->ctx)) == 0)
		rc = ec_key_pair_create(out, pk, sk);
	sodium_memzero(k, sizeof(k));
	SIGNAL_UNREF(pk);
	SIGNAL_UNREF(sk);
	return rc;
}

static bool
addr_ok(const struct wa_signal_addr *a)
{
	size_t	 n = strnlen(a->name, sizeof(a->name));

	return n > 0 && n <= WA_SIGNAL_NAME_MAX &&
	    a->device <= WA_SIGNAL_DEVICE_MAX;
}

/* libsignal's address (not NUL-terminated) as ours. */
static int
from_sg(const signal_protocol_address *sa, struct wa_signal_addr *a)
{
	if (sa == NULL || sa->name == NULL || sa->name_len == 0 ||
	    sa->name_len > WA_SIGNAL_NAME_MAX ||
	    memchr(sa->name, '\0', sa->name_len) != NULL ||
	    sa->device_id < 0 || sa->device_id > WA_SIGNAL_DEVICE_MAX)
		return SG_ERR_INVAL;
	memcpy(a->name, sa->name, sa->name_len);
	a->name[sa->name_len] = '\0';
	a->device = (uint32_t)sa->device_id;
	return 0;
}

static void
to_sg(const struct wa_signal_addr *a, signal_protocol_address *sa)
{
	sa->name = a->name;
	sa->name_len = strlen(a->name);
	sa->device_id = (int32_t)a->device;
}

/* Hand the bytes in s->tmp to libsignal as a new buffer, and wipe tmp. */
static int
tmp_to_buffer(struct wa_signal *s, signal_buffer **out)
{
	*out = signal_buffer_create(s->tmp.p, s->tmp.len);
	if (s->tmp.p != NULL)
		sodium_memzero(s->tmp.p, s->tmp.len);
	s->tmp.len = 0;
	return *out != NULL ? 0 : SG_ERR_NOMEM;
}

static int
own_load(struct wa_signal *s, struct wa_signal_own *own)
{
	bool	 ar = wa_signal_arena_pause();	/* the store */
	int	 rc = s->ops->own_load(s->ops->arg, own);

	wa_signal_arena_resume(ar);
	return rc == 1 ? 0 : rc == 0 ? WC_ESTATE : rc;
}

/* ---- session store ---------------------------------------------------- */

static int
st_load_session(signal_buffer **record, signal_buffer **user_record,
    const signal_protocol_address *sa, void *u)
{
	struct wa_signal	*s = u;
	struct wa_signal_addr	 a;
	bool			 ar;
	int			 rc;

	(void)user_record;	/* we keep none */
	if ((rc = from_sg(sa, &a)) != 0)
		return rc;
	s->tmp.len = 0;
	ar = wa_signal_arena_pause();	/* the store; s->tmp lives on */
	rc = s->ops->session_load(s->ops->arg, &a, &s->tmp);
	wa_signal_arena_resume(ar);
	if (rc != 1)
		return rc;
	return (rc = tmp_to_buffer(s, record)) == 0 ? 1 : rc;
}

static int
st_sub_devices(signal_int_list **sessions, const char *name, size_t len,
    void *u)
{
	struct wa_signal	*s = u;
	char			 n[WA_SIGNAL_NAME_MAX + 1];
	uint32_t		 dev[WA_SIGNAL_DEVICE_MAX + 1];
	signal_int_list		*l;
	bool			 ar;
	int			 rc, i;

	if (name == NULL || len == 0 || len > WA_SIGNAL_NAME_MAX ||
	    memchr(name, '\0', len) != NULL)
		return SG_ERR_INVAL;
	memcpy(n, name, len);
	n[len] = '\0';
	if (s->ops->session_devices == NULL)
		rc = 0;
	else {
		ar = wa_signal_arena_pause();
		rc = s->ops->session_devices(s->ops->arg, n, dev,
		    sizeof(dev) / sizeof(dev[0]));
		wa_signal_arena_resume(ar);
		if (rc < 0)
			return rc;
	}
	if (rc > (int)(sizeof(dev) / sizeof(dev[0])))
		rc = (int)(sizeof(dev) / sizeof(dev[0]));
	if ((l = signal_int_list_alloc()) == NULL)
		return SG_ERR_NOMEM;
	for (i = 0; i < rc; i++)
		if (signal_int_list_push_back(l, (int)dev[i]) != 0) {
			signal_int_list_free(l);
			return SG_ERR_NOMEM;
		}
	*sessions = l;
	return rc;
}

static int
st_store_session(const signal_protocol_address *sa, uint8_t *rec,
    size_t len, uint8_t *user_rec, size_t user_len, void *u)
{
	struct wa_signal	*s = u;
	struct wa_signal_addr	 a;
	bool			 ar;
	int			 rc;

	(void)user_rec;
	(void)user_len;
	if ((rc = from_sg(sa, &a)) != 0)
		return rc;
	ar = wa_signal_arena_pause();	/* the store */
	rc = s->ops->session_store(s->ops->arg, &a, rec, len);
	wa_signal_arena_resume(ar);
	return rc;
}

static int
st_contains_session(const signal_protocol_address *sa, void *u)
{
	struct wa_signal	*s = u;
	struct wa_signal_addr	 a;
	bool			 ar;
	int			 rc;

	if ((rc = from_sg(sa, &a)) != 0)
		return rc;
	ar = wa_signal_arena_pause();	/* the store */
	rc = s->ops->session_contains(s->ops->arg, &a);
	wa_signal_arena_resume(ar);
	return rc;
}

static int
st_delete_session(const signal_protocol_address *sa, void *u)
{
	struct wa_signal	*s = u;
	struct wa_signal_addr	 a;
	bool			 ar;
	int			 rc;

	if ((rc = from_sg(sa, &a)) != 0)
		return rc;
	ar = wa_signal_arena_pause();	/* the store */
	rc = s->ops->session_delete(s->ops->arg, &a);
	wa_signal_arena_resume(ar);
	return rc;
}

static int
st_delete_all(const char *name, size_t len, void *u)
{
	struct wa_signal	*s = u;
	char			 n[WA_SIGNAL_NAME_MAX + 1];
	bool			 ar;
	int			 rc;

	if (name == NULL || len == 0 || len > WA_SIGNAL_NAME_MAX ||
	    memchr(name, '\0', len) != NULL)
		return SG_ERR_INVAL;
	if (s->ops->session_delete_all == NULL)
		return -ENOTSUP;
	memcpy(n, name, len);
	n[len] = '\0';
	ar = wa_signal_arena_pause();	/* the store */
	rc = s->ops->session_delete_all(s->ops->arg, n);
	wa_signal_arena_resume(ar);
	return rc;
}

/* ---- one-time and signed prekeys -------------------------------------- */

/* Our keys are made by the engine (proto/eng.c) and kept as raw key
 * pairs; libsignal wants its own serialized records, built here. */
static int
st_load_prekey(signal_buffer **record, uint32_t id, void *u)
{
	struct wa_signal	*s = u;
	uint8_t			 priv[WA_SIGNAL_KEY_LEN];
	uint8_t			 pub[WA_SIGNAL_KEY_LEN];
	ec_key_pair		*kp = NULL;
	session_pre_key		*pk = NULL;
	bool			 ar = wa_signal_arena_pause();	/* store */
	int			 rc;

	rc = s->ops->prekey_load(s->ops->arg, id, priv, pub);
	wa_signal_arena_resume(ar);
	if (rc == 0)
		return SG_ERR_INVALID_KEY_ID;
	if (rc < 0)
		return rc;
	if ((rc = decode_pair(s, priv, pub, &kp)) == 0 &&
	    (rc = session_pre_key_create(&pk, id, kp)) == 0)
		rc = session_pre_key_serialize(record, pk);
	sodium_memzero(priv, sizeof(priv));
	SIGNAL_UNREF(pk);
	SIGNAL_UNREF(kp);
	return rc;
}

static int
st_store_prekey(uint32_t id, uint8_t *rec, size_t len, void *u)
{
	(void)id;
	(void)rec;
	(void)len;
	(void)u;
	return -ENOTSUP;	/* prekeys are stored by the engine (7.3) */
}

static int
st_contains_prekey(uint32_t id, void *u)
{
	struct wa_signal	*s = u;
	uint8_t			 priv[WA_SIGNAL_KEY_LEN];
	uint8_t			 pub[WA_SIGNAL_KEY_LEN];
	bool			 ar = wa_signal_arena_pause();	/* store */
	int			 rc;

	rc = s->ops->prekey_load(s->ops->arg, id, priv, pub);
	wa_signal_arena_resume(ar);
	sodium_memzero(priv, sizeof(priv));
	return rc;
}

static int
st_remove_prekey(uint32_t id, void *u)
{
	struct wa_signal	*s = u;
	bool			 ar;
	int			 rc;

	ar = wa_signal_arena_pause();	/* the store */
	rc = s->ops->prekey_remove(s->ops->arg, id);
	wa_signal_arena_resume(ar);
	return rc;
}

/* Only the current signed prekey is kept (no rotation yet, 7.6). */
static int
st_load_spk(signal_buffer **record, uint32_t id, void *u)
{
	struct wa_signal	*s = u;
	struct wa_signal_own	 own;
	ec_key_pair		*kp = NULL;
	session_signed_pre_key	*spk = NULL;
	int			 rc;

	if ((rc = own_load(s, &own)) != 0)
		return rc;
	if (own.spk_id != id)
		rc = SG_ERR_INVALID_KEY_ID;
	else if ((rc = decode_pair(s, own.spk_priv, own.spk_pub, &kp)) == 0 &&
	    (rc = session_signed_pre_key_create(&spk, id, 0, kp, own.spk_sig,
	    sizeof(own.spk_sig))) == 0)
		rc = session_signed_pre_key_serialize(record, spk);
	sodium_memzero(&own, sizeof(own));
	SIGNAL_UNREF(spk);
	SIGNAL_UNREF(kp);
	return rc;
}

static int
st_store_spk(uint32_t id, uint8_t *rec, size_t len, void *u)
{
	(void)id;
	(void)rec;
	(void)len;
	(void)u;
	return -ENOTSUP;	/* the device row holds it (3.2) */
}

static int
st_contains_spk(uint32_t id, void *u)
{
	struct wa_signal	*s = u;
	struct wa_signal_own	 own;
	int			 rc;

	if ((rc = own_load(s, &own)) == 0)
		rc = own.spk_id == id;
	sodium_memzero(&own, sizeof(own));
	return rc;
}

static int
st_remove_spk(uint32_t id, void *u)
{
	(void)id;
	(void)u;
	return -ENOTSUP;
}

/* ---- identities ------------------------------------------------------- */

static int
st_identity_pair(signal_buffer **pub, signal_buffer **priv, void *u)
{
	struct wa_signal	*s = u;
	struct wa_signal_own	 own;
	uint8_t			 b[SERIALIZED_KEY_LEN];
	int			 rc;

	if ((rc = own_load(s, &own)) != 0)
		return rc;
	b[0] = DJB_TYPE;
	memcpy(b + 1, own.identity_pub, WA_SIGNAL_KEY_LEN);
	*pub = signal_buffer_create(b, sizeof(b));
	clamp(own.identity_priv, own.identity_priv);
	*priv = signal_buffer_create(own.identity_priv, WA_SIGNAL_KEY_LEN);
	sodium_memzero(&own, sizeof(own));
	if (*pub == NULL || *priv == NULL) {
		signal_buffer_free(*pub);
		signal_buffer_bzero_free(*priv);
		*pub = *priv = NULL;
		return SG_ERR_NOMEM;
	}
	return 0;
}

static int
st_registration_id(void *u, uint32_t *id)
{
	struct wa_signal	*s = u;
	struct wa_signal_own	 own;
	int			 rc;

	if ((rc = own_load(s, &own)) == 0)
		*id = own.registration_id;
	sodium_memzero(&own, sizeof(own));
	return rc;
}

/*
 * key NULL: libsignal "forgets" a new identity whose first pkmsg failed to
 * decrypt.  Nothing to do: the whole decryption is rolled back, so the
 * identity stored before it is back in place.
 */
static int
st_save_identity(const signal_protocol_address *sa, uint8_t *key,
    size_t len, void *u)
{
	struct wa_signal	*s = u;
	struct wa_signal_addr	 a;
	bool			 ar;
	int			 rc;

	if (key == NULL)
		return 0;
	if ((rc = from_sg(sa, &a)) != 0)
		return rc;
	if (len != SERIALIZED_KEY_LEN || key[0] != DJB_TYPE)
		return SG_ERR_INVALID_KEY;
	ar = wa_signal_arena_pause();	/* the clock and the store */
	rc = s->ops->identity_save(s->ops->arg, &a, key + 1,
	    s->now_ms(s->clock_arg));
	wa_signal_arena_resume(ar);
	if (rc < 0)
		return rc;
	if (rc == 1)
		s->identity_changed = true;
	return 0;
}

/* WhatsApp trusts every identity and reports a change instead (11.2). */
static int
st_is_trusted(const signal_protocol_address *sa, uint8_t *key, size_t len,
    void *u)
{
	(void)sa;
	(void)key;
	(void)len;
	(void)u;
	return 1;
}

/* ---- sender-key store ------------------------------------------------- */

static int
sk_name(const signal_protocol_sender_key_name *n, char *group,
    struct wa_signal_addr *a)
{
	if (n == NULL || n->group_id == NULL || n->group_id_len == 0 ||
	    n->group_id_len > WA_SIGNAL_NAME_MAX ||
	    memchr(n->group_id, '\0', n->group_id_len) != NULL)
		return SG_ERR_INVAL;
	memcpy(group, n->group_id, n->group_id_len);
	group[n->group_id_len] = '\0';
	return from_sg(&n->sender, a);
}

static int
st_store_sender_key(const signal_protocol_sender_key_name *n, uint8_t *rec,
    size_t len, uint8_t *user_rec, size_t user_len, void *u)
{
	struct wa_signal	*s = u;
	char			 group[WA_SIGNAL_NAME_MAX + 1];
	struct wa_signal_addr	 a;
	bool			 ar;
	int			 rc;

	(void)user_rec;
	(void)user_len;
	if (s->ops->sender_key_store == NULL)
		return -ENOTSUP;
	if ((rc = sk_name(n, group, &a)) != 0)
		return rc;
	ar = wa_signal_arena_pause();	/* the store */
	rc = s->ops->sender_key_store(s->ops->arg, group, &a, rec, len);
	wa_signal_arena_resume(ar);
	return rc;
}

static int
st_load_sender_key(signal_buffer **record, signal_buffer **user_record,
    const signal_protocol_sender_key_name *n, void *u)
{
	struct wa_signal	*s = u;
	char			 group[WA_SIGNAL_NAME_MAX + 1];
	struct wa_signal_addr	 a;
	bool			 ar;
	int			 rc;

	(void)user_record;
	if (s->ops->sender_key_load == NULL)
		return 0;
	if ((rc = sk_name(n, group, &a)) != 0)
		return rc;
	s->tmp.len = 0;
	ar = wa_signal_arena_pause();	/* the store; s->tmp lives on */
	rc = s->ops->sender_key_load(s->ops->arg, group, &a, &s->tmp);
	wa_signal_arena_resume(ar);
	if (rc != 1)
		return rc;
	return (rc = tmp_to_buffer(s, record)) == 0 ? 1 : rc;
}

/* ---- the context ------------------------------------------------------ */

static int
set_stores(struct wa_signal *s)
{
	signal_protocol_session_store		 ss = {
		.load_session_func = st_load_session,
		.get_sub_device_sessions_func = st_sub_devices,
		.store_session_func = st_store_session,
		.contains_session_func = st_contains_session,
		.delete_session_func = st_delete_session,
		.delete_all_sessions_func = st_delete_all,
		.user_data = s,
	};
	signal_protocol_pre_key_store		 ps = {
		.load_pre_key = st_load_prekey,
		.store_pre_key = st_store_prekey,
		.contains_pre_key = st_contains_prekey,
		.remove_pre_key = st_remove_prekey,
		.user_data = s,
	};
	signal_protocol_signed_pre_key_store	 sps = {
		.load_signed_pre_key = st_load_spk,
		.store_signed_pre_key = st_store_spk,
		.contains_signed_pre_key = st_contains_spk,
		.remove_signed_pre_key = st_remove_spk,
		.user_data = s,
	};
	signal_protocol_identity_key_store	 is = {
		.get_identity_key_pair = st_identity_pair,
		.get_local_registration_id = st_registration_id,
		.save_identity = st_save_identity,
		.is_trusted_identity = st_is_trusted,
		.user_data = s,
	};
	signal_protocol_sender_key_store	 sks = {
		.store_sender_key = st_store_sender_key,
		.load_sender_key = st_load_sender_key,
		.user_data = s,
	};
	int					 rc;

	if ((rc = signal_protocol_store_context_create(&s->store,
	    s->ctx)) != 0)
		return rc;
	if ((rc = signal_protocol_store_context_set_session_store(s->store,
	    &ss)) != 0 ||
	    (rc = signal_protocol_store_context_set_pre_key_store(s->store,
	    &ps)) != 0 ||
	    (rc = signal_protocol_store_context_set_signed_pre_key_store(
	    s->store, &sps)) != 0 ||
	    (rc = signal_protocol_store_context_set_identity_key_store(
	    s->store, &is)) != 0 ||
	    (rc = signal_protocol_store_context_set_sender_key_store(s->store,
	    &sks)) != 0)
		return rc;
	return 0;
}

static const signal_crypto_provider provider = {
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

/* A libsignal context with the provider, for key making. */
struct wa_signal_keygen {
	signal_context		*ctx;
	struct provider		 prov;
};

int
wa_signal_keygen_new(struct wa_signal_keygen **out)
{
	struct wa_signal_keygen	*k = xcalloc(1, sizeof(*k));
	signal_crypto_provider	 p = provider;
	int			 rc;

	p.user_data = &k->prov;
	if ((rc = signal_context_create(&k->ctx, k)) != 0 ||
	    (rc = signal_context_set_crypto_provider(k->ctx, &p)) != 0) {
		wa_signal_keygen_free(k);
		return wa_signal_err(rc);
	}
	*out = k;
	return 0;
}

struct signal_context *
wa_signal_keygen_context(struct wa_signal_keygen *k)
{
	return k->ctx;
}

void
wa_signal_keygen_free(struct wa_signal_keygen *k)
{
	if (k == NULL)
		return;
	if (k->ctx != NULL)
		signal_context_destroy(k->ctx);
	provider_release(&k->prov);
	free(k);
}

int
wa_signal_new(const struct wa_signal_store_ops *ops, wa_signal_clock_fn now_ms,
    void *clock_arg, struct wa_signal **out)
{
	signal_crypto_provider	 p = provider;
	pthread_mutexattr_t	 attr;
	struct wa_signal	*s;
	int			 rc;

	if (ops == NULL || now_ms == NULL || ops->session_load == NULL ||
	    ops->session_store == NULL || ops->session_contains == NULL ||
	    ops->session_delete == NULL || ops->own_load == NULL ||
	    ops->prekey_load == NULL || ops->prekey_remove == NULL ||
	    ops->identity_save == NULL || ops->identity_load == NULL ||
	    ops->tx_begin == NULL || ops->tx_commit == NULL ||
	    ops->tx_rollback == NULL)
		return -EINVAL;
	s = xcalloc(1, sizeof(*s));
	s->ops = ops;
	s->now_ms = now_ms;
	s->clock_arg = clock_arg;
	pthread_mutexattr_init(&attr);
	pthread_mutexattr_settype(&attr, PTHREAD_MUTEX_RECURSIVE);
	rc = pthread_mutex_init(&s->lock, &attr);
	pthread_mutexattr_destroy(&attr);
	if (rc != 0) {
		free(s);
		return -rc;
	}
	p.user_data = &s->prov;
	if ((rc = signal_context_create(&s->ctx, s)) != 0 ||
	    (rc = signal_context_set_crypto_provider(s->ctx, &p)) != 0 ||
	    (rc = signal_context_set_locking_functions(s->ctx, p_lock,
	    p_unlock)) != 0 ||
	    (rc = set_stores(s)) != 0)
		goto fail;
	*out = s;
	return 0;
fail:
	wa_signal_free(s);
	return wa_signal_err(rc);
}

void
wa_signal_free(struct wa_signal *s)
{
	if (s == NULL)
		return;
	if (s->store != NULL)
		signal_protocol_store_context_destroy(s->store);
	if (s->ctx != NULL)
		signal_context_destroy(s->ctx);
	provider_release(&s->prov);
	if (s->tmp.p != NULL)
		sodium_memzero(s->tmp.p, s->tmp.cap);
	buf_release(&s->tmp);
	pthread_mutex_destroy(&s->lock);
	free(s);
}

/* ---- addresses -------------------------------------------------------- */

static const struct {
	const char	*server;
	int		 domain;	/* the "_N" suffix; 0: none */
} servers[] = {
	{ "s.whatsapp.net", 0 },
	{ "c.us", 0 },		/* legacy PN server (5.1) */
	{ "lid", 1 },
	{ "hosted", 128 },
	{ "hosted.lid", 129 },
};

/* A decimal 0..255 in [p, end), without leading zeros. */
static int
parse_small(const char *p, const char *end, uint32_t *out)
{
	uint32_t	 v = 0;

	if (p == end || (p[0] == '0' && end - p > 1) || end - p > 3)
		return WC_EINVAL;
	for (; p < end; p++) {
		if (*p < '0' || *p > '9')
			return WC_EINVAL;
		v = v * 10 + (uint32_t)(*p - '0');
	}
	if (v > WA_SIGNAL_DEVICE_MAX)
		return WC_EINVAL;
	*out = v;
	return 0;
}

int
wa_signal_addr_from_jid(const char *jid, size_t len, struct wa_signal_addr *out)
{
	const char	*at, *colon, *dot, *user_end, *srv;
	size_t		 ulen, slen, i;
	uint32_t	 device = 0, agent;
	int		 domain = -1;

	if (jid == NULL || len == 0 ||
	    (at = memchr(jid, '@', len)) == NULL)
		return WC_EINVAL;
	srv = at + 1;
	slen = len - (size_t)(srv - jid);
	for (i = 0; i < sizeof(servers) / sizeof(servers[0]); i++)
		if (strlen(servers[i].server) == slen &&
		    memcmp(servers[i].server, srv, slen) == 0)
			domain = servers[i].domain;
	if (domain < 0)
		return WC_EINVAL;
	colon = memchr(jid, ':', (size_t)(at - jid));
	user_end = colon != NULL ? colon : at;
	/* A legacy text agent ("user.N", 5.2): the server alone decides the
	 * domain ([WM] ActualAgent), so the agent is checked and dropped. */
	if ((dot = memchr(jid, '.', (size_t)(user_end - jid))) != NULL) {
		if (parse_small(dot + 1, user_end, &agent) != 0)
			return WC_EINVAL;
		user_end = dot;
	}
	ulen = (size_t)(user_end - jid);
	if (ulen == 0 || ulen > WA_SIGNAL_USER_MAX)
		return WC_EINVAL;
	for (i = 0; i < ulen; i++)
		if (jid[i] < '0' || jid[i] > '9')
			return WC_EINVAL;
	if (colon != NULL && parse_small(colon + 1, at, &device) != 0)
		return WC_EINVAL;
	memcpy(out->name, jid, ulen);
	if (domain != 0)
		snprintf(out->name + ulen, sizeof(out->name) - ulen, "_%d",
		    domain);
	else
		out->name[ulen] = '\0';
	out->device = device;
	return 0;
}

/* ---- sessions --------------------------------------------------------- */

int
wa_signal_has_session(struct wa_signal *s, const struct wa_signal_addr *a)
{
	if (!addr_ok(a))
		return -EINVAL;
	return s->ops->session_contains(s->ops->arg, a);
}

int
wa_signal_remote_identity(struct wa_signal *s, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	if (!addr_ok(a))
		return -EINVAL;
	return s->ops->identity_load(s->ops->arg, a, key);
}

/* Open a transaction level; identity changes are counted from here. */
static int
tx_begin(struct wa_signal *s)
{
	bool	 ar = wa_signal_arena_pause();	/* the store */
	int	 rc;

	s->identity_changed = false;
	rc = s->ops->tx_begin(s->ops->arg);
	wa_signal_arena_resume(ar);
	return rc;
}

/* Commit on success (rc == 0), else roll back; returns the first error. */
static int
tx_end(struct wa_signal *s, int rc)
{
	bool	 ar = wa_signal_arena_pause();	/* the store, the log */
	int	 rc2;

	if (rc == 0 && (rc = s->ops->tx_commit(s->ops->arg)) == 0) {
		wa_signal_arena_resume(ar);
		return 0;
	}
	if ((rc2 = s->ops->tx_rollback(s->ops->arg)) != 0)
		log_error("rolling back Signal state: %s", wc_strerror(rc2));
	wa_signal_arena_resume(ar);
	return rc;
}

/*
 * Close the arena scope of a wa_signal_* call, once every libsignal
 * object it made is freed.  Blocks that outlived it (none expected: a
 * libsignal object kept past the call) keep their chunk alive; said once.
 */
static void
arena_leave(void)
{
	static bool	 said;
	size_t		 n;

	if ((n = wa_signal_arena_leave()) != 0 &&
	    !__atomic_exchange_n(&said, true, __ATOMIC_RELAXED))
		log_warn("%zu libsignal allocations outlived their call "
		    "(their arena chunk is kept)", n);
}

/* Append to a caller's buffer from inside a scope: never the arena's. */
static void
out_append(struct buf *out, signal_buffer *b)
{
	bool	 ar = wa_signal_arena_pause();

	buf_append(out, signal_buffer_data(b), signal_buffer_len(b));
	wa_signal_arena_resume(ar);
}

int
wa_signal_process_bundle(struct wa_signal *s, const struct wa_signal_addr *a,
    const struct wa_signal_bundle *b, bool *identity_changed)
{
	signal_protocol_address	 sa;
	ec_public_key		*ik = NULL, *spk = NULL, *opk = NULL;
	session_pre_key_bundle	*bundle = NULL;
	session_builder		*builder = NULL;
	int			 rc;

	if (!addr_ok(a))
		return -EINVAL;
	if (b->spk_id > WA_SIGNAL_PREKEY_ID_MAX ||
	    (b->has_prekey && (b->prekey_id == 0 ||
	    b->prekey_id > WA_SIGNAL_PREKEY_ID_MAX)))
		return WC_EBADKEY;
	to_sg(a, &sa);
	(void)wa_signal_arena_enter();
	if ((rc = decode_pub(s, b->identity, &ik)) != 0 ||
	    (rc = decode_pub(s, b->spk_pub, &spk)) != 0 ||
	    (b->has_prekey && (rc = decode_pub(s, b->prekey_pub, &opk)) != 0))
		goto out;
	if ((rc = session_pre_key_bundle_create(&bundle, b->registration_id,
	    (int)a->device, b->has_prekey ? b->prekey_id : 0, opk, b->spk_id,
	    spk, b->spk_sig, sizeof(b->spk_sig), ik)) != 0 ||
	    (rc = session_builder_create(&builder, s->store, &sa,
	    s->ctx)) != 0)
		goto out;
	if ((rc = tx_begin(s)) != 0)
		goto out;
	rc = tx_end(s, wa_signal_err(session_builder_process_pre_key_bundle(
	    builder, bundle)));
	if (rc == 0 && identity_changed != NULL)
		*identity_changed = s->identity_changed;
out:
	session_builder_free(builder);
	SIGNAL_UNREF(bundle);
	SIGNAL_UNREF(ik);
	SIGNAL_UNREF(spk);
	SIGNAL_UNREF(opk);
	arena_leave();
	if (rc != 0)
		log_warn("prekey bundle of device %u refused: %s", a->device,
		    wc_strerror(wa_signal_err(rc)));
	return wa_signal_err(rc);
}

int
wa_signal_encrypt(struct wa_signal *s, const struct wa_signal_addr *a,
    const uint8_t *p, size_t len, enum wa_signal_type *type, struct buf *out)
{
	signal_protocol_address	 sa;
	session_cipher		*cipher = NULL;
	ciphertext_message	*msg = NULL;
	signal_buffer		*ser = NULL;
	int			 rc, t = 0;

	if (!addr_ok(a) || (p == NULL && len > 0))
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	to_sg(a, &sa);
	if ((rc = tx_begin(s)) != 0)
		return rc;
	rc = s->ops->session_contains(s->ops->arg, a);
	(void)wa_signal_arena_enter();
	if (rc == 0)
		rc = WC_ENOSESSION;
	else if (rc == 1 && (rc = session_cipher_create(&cipher, s->store, &sa,
	    s->ctx)) == 0)
		rc = session_cipher_encrypt(cipher, p, len, &msg);
	if (rc == 0) {
		t = ciphertext_message_get_type(msg);
		ser = ciphertext_message_get_serialized(msg);
		if ((t != CIPHERTEXT_PREKEY_TYPE &&
		    t != CIPHERTEXT_SIGNAL_TYPE) || ser == NULL)
			rc = WC_ECRYPTO;
	}
	if ((rc = tx_end(s, wa_signal_err(rc))) == 0) {
		out_append(out, ser);
		*type = t == CIPHERTEXT_PREKEY_TYPE ? WA_SIGNAL_PKMSG :
		    WA_SIGNAL_MSG;
	}
	SIGNAL_UNREF(msg);
	session_cipher_free(cipher);
	arena_leave();
	return rc;
}

static int
decrypt_msg(struct wa_signal *s, session_cipher *cipher,
    enum wa_signal_type type, const uint8_t *c, size_t len,
    signal_buffer **plain)
{
	pre_key_signal_message	*pk = NULL;
	signal_message		*m = NULL;
	int			 rc;

	switch (type) {
	case WA_SIGNAL_PKMSG:
		if ((rc = pre_key_signal_message_deserialize(&pk, c, len,
		    s->ctx)) == 0)
			rc = session_cipher_decrypt_pre_key_signal_message(
			    cipher, pk, NULL, plain);
		SIGNAL_UNREF(pk);
		return rc;
	case WA_SIGNAL_MSG:
		if ((rc = signal_message_deserialize(&m, c, len,
		    s->ctx)) == 0)
			rc = session_cipher_decrypt_signal_message(cipher, m,
			    NULL, plain);
		SIGNAL_UNREF(m);
		return rc;
	}
	return -EINVAL;
}

int
wa_signal_decrypt(struct wa_signal *s, const struct wa_signal_addr *a,
    enum wa_signal_type type, const uint8_t *c, size_t len, struct buf *out,
    bool *identity_changed)
{
	signal_protocol_address	 sa;
	session_cipher		*cipher = NULL;
	signal_buffer		*plain = NULL;
	int			 rc;

	if (!addr_ok(a) || c == NULL ||
	    (type != WA_SIGNAL_PKMSG && type != WA_SIGNAL_MSG))
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	if (len == 0)
		return WC_EBADMSG;
	to_sg(a, &sa);
	(void)wa_signal_arena_enter();
	if ((rc = session_cipher_create(&cipher, s->store, &sa,
	    s->ctx)) != 0) {
		rc = wa_signal_err(rc);
		goto out;
	}
	if ((rc = tx_begin(s)) != 0)
		goto out;
	rc = decrypt_msg(s, cipher, type, c, len, &plain);
	/* libsignal's SG_ERR_UNKNOWN while decrypting means a field it
	 * needed was missing: the message's fault. */
	rc = tx_end(s, rc == SG_ERR_UNKNOWN ? WC_EBADMSG : wa_signal_err(rc));
	if (rc == 0) {
		out_append(out, plain);
		if (identity_changed != NULL)
			*identity_changed = s->identity_changed;
	}
out:
	if (plain != NULL)
		signal_buffer_bzero_free(plain);
	session_cipher_free(cipher);
	arena_leave();
	if (rc != 0 && rc != WC_EDUPMSG)
		log_warn("%s from device %u not decrypted: %s",
		    type == WA_SIGNAL_PKMSG ? "pkmsg" : "msg", a->device,
		    wc_strerror(rc));
	return rc;
}

/* ---- groups: sender keys (10.2-10.4, 11.2) ---------------------------- */

/*
 * Check the arguments common to the group calls and fill in libsignal's
 * sender key name n, which points into group and a (both must outlive
 * every use of n).
 */
static int
group_name(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *a, signal_protocol_sender_key_name *n)
{
	size_t	 len;

	if (group == NULL || a == NULL || !addr_ok(a))
		return -EINVAL;
	len = strnlen(group, WA_SIGNAL_NAME_MAX + 1);
	if (len == 0 || len > WA_SIGNAL_NAME_MAX)
		return -EINVAL;
	if (s->ops->sender_key_load == NULL || s->ops->sender_key_store == NULL)
		return -ENOTSUP;
	n->group_id = group;
	n->group_id_len = len;
	to_sg(a, &n->sender);
	return 0;
}

/* libsignal's "no session" is, for a sender key, "no sender key". */
static int
group_err(int rc)
{
	if (rc == SG_ERR_NO_SESSION || rc == SG_ERR_INVALID_KEY_ID)
		return WC_ENOSENDERKEY;
	/* SG_ERR_UNKNOWN while decoding means a field was missing. */
	if (rc == SG_ERR_UNKNOWN)
		return WC_EBADMSG;
	return wa_signal_err(rc);
}

int
wa_signal_group_skdm(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *own_addr, struct buf *skdm_out)
{
	signal_protocol_sender_key_name	  n;
	group_session_builder		 *builder = NULL;
	sender_key_distribution_message	 *skdm = NULL;
	signal_buffer			 *ser = NULL;
	int				  rc;

	if ((rc = group_name(s, group, own_addr, &n)) != 0)
		return rc;
	(void)wa_signal_arena_enter();
	if ((rc = group_session_builder_create(&builder, s->store,
	    s->ctx)) != 0) {
		rc = wa_signal_err(rc);
		goto out;
	}
	if ((rc = tx_begin(s)) != 0)
		goto out;
	rc = group_session_builder_create_session(builder, &skdm, &n);
	if (rc == 0 && (ser = ciphertext_message_get_serialized(
	    (ciphertext_message *)skdm)) == NULL)
		rc = WC_ECRYPTO;
	if ((rc = tx_end(s, group_err(rc))) == 0)
		out_append(skdm_out, ser);
out:
	SIGNAL_UNREF(skdm);
	group_session_builder_free(builder);
	arena_leave();
	if (rc != 0)
		log_warn("no SKDM for a group: %s", wc_strerror(rc));
	return rc;
}

int
wa_signal_group_process_skdm(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *sender_addr, const uint8_t *skdm, size_t len)
{
	signal_protocol_sender_key_name	  n;
	group_session_builder		 *builder = NULL;
	sender_key_distribution_message	 *m = NULL;
	int				  rc;

	if ((rc = group_name(s, group, sender_addr, &n)) != 0)
		return rc;
	if (skdm == NULL)
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	if (len == 0)
		return WC_EBADMSG;
	(void)wa_signal_arena_enter();
	if ((rc = sender_key_distribution_message_deserialize(&m, skdm, len,
	    s->ctx)) != 0) {
		/* A missing field, a bad version or protobuf: the input's
		 * fault; an invalid signing key stays WC_EBADKEY. */
		rc = rc == SG_ERR_INVALID_KEY ? WC_EBADKEY :
		    rc == SG_ERR_NOMEM ? -ENOMEM : WC_EBADMSG;
		goto out;
	}
	if ((rc = group_session_builder_create(&builder, s->store,
	    s->ctx)) != 0) {
		rc = wa_signal_err(rc);
		goto out;
	}
	if ((rc = tx_begin(s)) != 0)
		goto out;
	rc = tx_end(s, group_err(group_session_builder_process_session(
	    builder, &n, m)));
out:
	group_session_builder_free(builder);
	SIGNAL_UNREF(m);
	arena_leave();
	if (rc != 0)
		log_warn("SKDM from device %u refused: %s", sender_addr->device,
		    wc_strerror(rc));
	return rc;
}

int
wa_signal_group_encrypt(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *own_addr, const uint8_t *p, size_t len,
    struct buf *out)
{
	signal_protocol_sender_key_name	  n;
	group_cipher			 *cipher = NULL;
	ciphertext_message		 *msg = NULL;
	signal_buffer			 *ser = NULL;
	int				  rc;

	if ((rc = group_name(s, group, own_addr, &n)) != 0)
		return rc;
	if (p == NULL && len > 0)
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	(void)wa_signal_arena_enter();
	if ((rc = group_cipher_create(&cipher, s->store, &n, s->ctx)) != 0) {
		rc = wa_signal_err(rc);
		goto out;
	}
	if ((rc = tx_begin(s)) != 0)
		goto out;
	rc = group_cipher_encrypt(cipher, p, len, &msg);
	if (rc == 0 && ((ser = ciphertext_message_get_serialized(msg)) ==
	    NULL || ciphertext_message_get_type(msg) !=
	    CIPHERTEXT_SENDERKEY_TYPE))
		rc = WC_ECRYPTO;
	if ((rc = tx_end(s, group_err(rc))) == 0)
		out_append(out, ser);
out:
	SIGNAL_UNREF(msg);
	group_cipher_free(cipher);
	arena_leave();
	if (rc != 0)
		log_warn("skmsg not encrypted: %s", wc_strerror(rc));
	return rc;
}

/*
 * After group_cipher_decrypt() failed with rc: whether the sender's record
 * has a key with key_id at all.  libsignal reports an unknown key id as an
 * invalid message; the caller must tell "no sender key" (ask for the SKDM
 * again) from a forged or broken skmsg.  Returns rc mapped, or
 * WC_ENOSENDERKEY.
 */
static int
group_decrypt_err(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *a, uint32_t key_id, int rc)
{
	sender_key_record	*rec = NULL;
	sender_key_state	*state = NULL;
	bool			 ar;
	int			 lr;

	if (rc != SG_ERR_INVALID_MESSAGE && rc != SG_ERR_NO_SESSION &&
	    rc != SG_ERR_INVALID_KEY_ID)
		return group_err(rc);
	s->tmp.len = 0;
	ar = wa_signal_arena_pause();	/* the store; s->tmp lives on */
	lr = s->ops->sender_key_load(s->ops->arg, group, a, &s->tmp);
	wa_signal_arena_resume(ar);
	if (lr < 0)
		rc = lr;
	else if (lr == 0)
		rc = WC_ENOSENDERKEY;
	else if (sender_key_record_deserialize(&rec, s->tmp.p, s->tmp.len,
	    s->ctx) != 0)
		rc = WC_EBADMSG;	/* a stored record libsignal wrote */
	else if (sender_key_record_get_sender_key_state_by_id(rec, &state,
	    key_id) != 0)
		rc = WC_ENOSENDERKEY;
	else
		rc = group_err(rc);
	if (s->tmp.p != NULL)
		sodium_memzero(s->tmp.p, s->tmp.len);
	s->tmp.len = 0;
	SIGNAL_UNREF(rec);
	return rc;
}

int
wa_signal_group_decrypt(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *sender_addr, const uint8_t *c, size_t len,
    struct buf *out)
{
	signal_protocol_sender_key_name	  n;
	group_cipher			 *cipher = NULL;
	sender_key_message		 *m = NULL;
	signal_buffer			 *plain = NULL;
	int				  rc;

	if ((rc = group_name(s, group, sender_addr, &n)) != 0)
		return rc;
	if (c == NULL)
		return -EINVAL;
	if (len > WA_SIGNAL_MAX_LEN)
		return WC_ETOOBIG;
	if (len == 0)
		return WC_EBADMSG;
	(void)wa_signal_arena_enter();
	if ((rc = sender_key_message_deserialize(&m, c, len, s->ctx)) != 0) {
		rc = rc == SG_ERR_NOMEM ? -ENOMEM : WC_EBADMSG;
		goto out;
	}
	if ((rc = group_cipher_create(&cipher, s->store, &n, s->ctx)) != 0) {
		rc = wa_signal_err(rc);
		goto out;
	}
	if ((rc = tx_begin(s)) != 0)
		goto out;
	rc = group_cipher_decrypt(cipher, m, NULL, &plain);
	if (rc != 0)
		rc = group_decrypt_err(s, group, sender_addr,
		    sender_key_message_get_key_id(m), rc);
	if ((rc = tx_end(s, rc)) == 0)
		out_append(out, plain);
out:
	if (plain != NULL)
		signal_buffer_bzero_free(plain);
	SIGNAL_UNREF(m);
	group_cipher_free(cipher);
	arena_leave();
	if (rc != 0 && rc != WC_EDUPMSG)
		log_warn("skmsg from device %u not decrypted: %s",
		    sender_addr->device, wc_strerror(rc));
	return rc;
}

int
wa_signal_group_forget(struct wa_signal *s, const char *group,
    const struct wa_signal_addr *own_addr)
{
	signal_protocol_sender_key_name	 n;
	int				 rc;

	if ((rc = group_name(s, group, own_addr, &n)) != 0)
		return rc;
	if (s->ops->sender_key_delete == NULL)
		return -ENOTSUP;
	return s->ops->sender_key_delete(s->ops->arg, group, own_addr);
}
