/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/signal-store.c -- libsignal-protocol-c's store callbacks over
 * struct wa_signal_store_ops (proto/signal-int.h): sessions, one-time and
 * signed prekeys (built from the raw key pairs the engine keeps),
 * identities (every one trusted, a change reported, 11.2) and sender
 * keys; and the key and address conversions they share with the rest of
 * the layer.  No SQL here.
 *
 * Buffer ownership at the libsignal boundary: a signal_buffer this file
 * hands to libsignal through a load callback (session, prekey, identity)
 * is libsignal's to free; record bytes libsignal passes to a store
 * callback are borrowed for the call.  The allocation scope
 * (base/scope-alloc.h) is paused around every op: the store's memory is
 * glibc's.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#include <sodium.h>

#include <curve.h>
#include <sender_key_record.h>
#include <session_pre_key.h>
#include <session_record.h>
#include <signal_protocol.h>

#define LOG_TAG "signal"
#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "base/scope-alloc.h"
#include "proto/signal-int.h"
#include "proto/wa-signal.h"

/* ---- keys and addresses ----------------------------------------------- */

int
sig_decode_pub(struct wa_signal *s, const uint8_t raw[WA_SIGNAL_KEY_LEN],
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
	if ((rc = sig_decode_pub(s, pub, &pk)) == 0 &&
	    (rc = curve_decode_private_point(&sk, k, sizeof(k), s->ctx)) == 0)
		rc = ec_key_pair_create(out, pk, sk);
	sodium_memzero(k, sizeof(k));
	SIGNAL_UNREF(pk);
	SIGNAL_UNREF(sk);
	return rc;
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
	bool	 ar = scope_alloc_pause();	/* the store */
	int	 rc = s->ops->own_load(s->ops->arg, own);

	scope_alloc_resume(ar);
	return rc == 1 ? 0 : rc == 0 ? WC_ESTATE : rc;
}

/*
 * After a load op returned rc into s->tmp: a record that was read but is
 * damaged (the store's WC_EBADRECORD, or bytes that do not deserialize
 * as a session, sender_key false, or a sender-key record) is
 * quarantined: wiped, logged, and given to libsignal as none, so that it
 * builds a fresh one, which replaces the damaged row when stored
 * (reliability.md 9).  A read error of the store stays an error.
 * Returns rc, or 0 for a damaged record.
 */
static int
quarantine(struct wa_signal *s, int rc, bool sender_key)
{
	session_record		*r = NULL;
	sender_key_record	*k = NULL;

	if (rc == 1 && !sender_key &&
	    session_record_deserialize(&r, s->tmp.p, s->tmp.len, s->ctx) != 0)
		rc = WC_EBADRECORD;
	if (rc == 1 && sender_key && sender_key_record_deserialize(&k,
	    s->tmp.p, s->tmp.len, s->ctx) != 0)
		rc = WC_EBADRECORD;
	SIGNAL_UNREF(r);
	SIGNAL_UNREF(k);
	if (rc != WC_EBADRECORD)
		return rc;
	if (s->tmp.p != NULL)
		sodium_memzero(s->tmp.p, s->tmp.len);
	s->tmp.len = 0;
	log_warn("a damaged %s record is quarantined: a new one is made",
	    sender_key ? "sender-key" : "session");
	return 0;
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
	ar = scope_alloc_pause();	/* the store; s->tmp lives on */
	rc = s->ops->session_load(s->ops->arg, &a, &s->tmp);
	scope_alloc_resume(ar);
	if ((rc = quarantine(s, rc, false)) != 1)
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
		ar = scope_alloc_pause();
		rc = s->ops->session_devices(s->ops->arg, n, dev,
		    sizeof(dev) / sizeof(dev[0]));
		scope_alloc_resume(ar);
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
	ar = scope_alloc_pause();	/* the store */
	rc = s->ops->session_store(s->ops->arg, &a, rec, len);
	scope_alloc_resume(ar);
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
	ar = scope_alloc_pause();	/* the store */
	rc = s->ops->session_contains(s->ops->arg, &a);
	scope_alloc_resume(ar);
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
	ar = scope_alloc_pause();	/* the store */
	rc = s->ops->session_delete(s->ops->arg, &a);
	scope_alloc_resume(ar);
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
	ar = scope_alloc_pause();	/* the store */
	rc = s->ops->session_delete_all(s->ops->arg, n);
	scope_alloc_resume(ar);
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
	bool			 ar = scope_alloc_pause();	/* store */
	int			 rc;

	rc = s->ops->prekey_load(s->ops->arg, id, priv, pub);
	scope_alloc_resume(ar);
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
	bool			 ar = scope_alloc_pause();	/* store */
	int			 rc;

	rc = s->ops->prekey_load(s->ops->arg, id, priv, pub);
	scope_alloc_resume(ar);
	sodium_memzero(priv, sizeof(priv));
	return rc;
}

static int
st_remove_prekey(uint32_t id, void *u)
{
	struct wa_signal	*s = u;
	bool			 ar;
	int			 rc;

	ar = scope_alloc_pause();	/* the store */
	rc = s->ops->prekey_remove(s->ops->arg, id);
	scope_alloc_resume(ar);
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
	ar = scope_alloc_pause();	/* the clock and the store */
	rc = s->ops->identity_save(s->ops->arg, &a, key + 1,
	    s->now_ms(s->clock_arg));
	scope_alloc_resume(ar);
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
	ar = scope_alloc_pause();	/* the store */
	rc = s->ops->sender_key_store(s->ops->arg, group, &a, rec, len);
	scope_alloc_resume(ar);
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
	ar = scope_alloc_pause();	/* the store; s->tmp lives on */
	rc = s->ops->sender_key_load(s->ops->arg, group, &a, &s->tmp);
	scope_alloc_resume(ar);
	if ((rc = quarantine(s, rc, true)) != 1)
		return rc;
	return (rc = tmp_to_buffer(s, record)) == 0 ? 1 : rc;
}

/* ---- the callbacks, given to libsignal -------------------------------- */

int
sig_set_stores(struct wa_signal *s)
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
