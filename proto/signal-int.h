/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/signal-int.h -- what the files of the Signal layer
 * (proto/wa-signal.h) share: the context's state and the functions one of
 * them calls in another.  Not for other modules.  Same thread contract as
 * proto/wa-signal.h.
 *
 * The files, each calling only those above it (no circle):
 *   signal-provider.c  the crypto provider libsignal calls: random bytes,
 *                      HMAC-SHA256 (pooled states), SHA-512, AES-256
 *   signal-store.c     libsignal's store callbacks over struct
 *                      wa_signal_store_ops, with who frees each buffer,
 *                      and the key and address conversions they share
 *   signal.c           the context (new, free, the key-making one), the
 *                      error mapping, JID to address, and the
 *                      transaction and allocation scope of every call
 *   signal-session.c   1:1 sessions: prekey bundles, encrypt, decrypt
 *   signal-group.c     group sender keys: SKDM, skmsg encrypt, decrypt
 *
 * Allocation: every libsignal call runs in a scope of the per-call
 * allocator of base/scope-alloc.h, opened by the wa_signal_* call and
 * closed (sig_scope_leave()) after every libsignal object of the call is
 * freed (outputs are copied out first).  The scope is paused around
 * whatever reaches the store (the ops, hence SQLite), OpenSSL (which
 * caches global state lazily) or a caller's buffer, so only libsignal's
 * and protobuf-c's per-call blocks come from it.
 */
#ifndef WA_SIGNAL_INT_H
#define WA_SIGNAL_INT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/sha.h>

#include <signal_protocol.h>

#include "base/buf.h"
#include "base/scope-alloc.h"
#include "proto/wa-signal.h"

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

/* ---- signal-provider.c ---- */

/* The provider's functions; copy it and set user_data to a struct
 * provider (zeroed), freed with sig_provider_release(). */
extern const signal_crypto_provider sig_provider;

/* Free what the provider kept (the AES contexts and ciphers). */
void	sig_provider_release(struct provider *p);

/* ---- signal-store.c ---- */

/* Give s->store every store callback.  Returns 0 or libsignal's error. */
int	sig_set_stores(struct wa_signal *s);

/* raw (32 bytes) as libsignal's public key, in *out.  Returns 0 or
 * libsignal's error (SG_ERR_INVALID_KEY). */
int	sig_decode_pub(struct wa_signal *s,
	    const uint8_t raw[WA_SIGNAL_KEY_LEN], ec_public_key **out);

/* wa_signal_err(err), with its common case (0, an errno or a WC_E* code,
 * which pass unchanged) inline. */
static inline int
sig_err(int err)
{
	return err > SG_ERR_UNKNOWN || err <= SG_ERR_UNKNOWN - 1000 ? err :
	    wa_signal_err(err);
}

/* a has a name of 1..WA_SIGNAL_NAME_MAX bytes and a device in range.
 * (This and the helpers below are inline: every encrypt and decrypt runs
 * them, and a call into another file costs more than their bodies.) */
static inline bool
sig_addr_ok(const struct wa_signal_addr *a)
{
	size_t	 n = strnlen(a->name, sizeof(a->name));

	return n > 0 && n <= WA_SIGNAL_NAME_MAX &&
	    a->device <= WA_SIGNAL_DEVICE_MAX;
}

/* a as libsignal's address, pointing into a (which must outlive sa). */
static inline void
sig_to_sg(const struct wa_signal_addr *a, signal_protocol_address *sa)
{
	sa->name = a->name;
	sa->name_len = strlen(a->name);
	sa->device_id = (int32_t)a->device;
}

/* ---- signal.c ---- */

/* Open a transaction level; identity changes are counted from here.
 * Returns 0 or the store's error. */
static inline int
sig_tx_begin(struct wa_signal *s)
{
	bool	 ar = scope_alloc_pause();	/* the store */
	int	 rc;

	s->identity_changed = false;
	rc = s->ops->tx_begin(s->ops->arg);
	scope_alloc_resume(ar);
	return rc;
}

/* Commit on success (rc == 0), else roll back; returns the first error. */
int	sig_tx_end(struct wa_signal *s, int rc);

/* Close the allocation scope of a wa_signal_* call (a block that outlived
 * it is logged, once per process). */
void	sig_scope_leave(void);

/* Append b to a caller's buffer from inside a scope: never the scope's
 * memory. */
static inline void
sig_out_append(struct buf *out, signal_buffer *b)
{
	bool	 ar = scope_alloc_pause();

	buf_append(out, signal_buffer_data(b), signal_buffer_len(b));
	scope_alloc_resume(ar);
}

#endif
