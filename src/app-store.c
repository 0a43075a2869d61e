/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-store.c -- struct wa_store_ops and struct wa_signal_store_ops
 * over store/ (src/app-store.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "src/app-store.h"
#include "base/err.h"
#include "store/store.h"

static int
device_load(void *arg, struct wa_device *out)
{
	struct store_device	 d;
	int			 rc;

	memset(&d, 0, sizeof(d));
	if ((rc = store_device_load(arg, &d)) <= 0)
		return rc;
	if (d.adv_identity_len > WA_ENG_ADV_MAX ||
	    strlen(d.jid) >= sizeof(out->jid) ||
	    strlen(d.lid) >= sizeof(out->lid)) {
		store_device_release(&d);
		return WC_ETOOBIG;
	}
	memset(out, 0, sizeof(*out));
	memcpy(out->noise_priv, d.noise_priv, 32);
	memcpy(out->noise_pub, d.noise_pub, 32);
	memcpy(out->identity_priv, d.identity_priv, 32);
	memcpy(out->identity_pub, d.identity_pub, 32);
	out->registration_id = d.registration_id;
	memcpy(out->adv_secret, d.adv_secret, 32);
	out->spk_id = d.spk_id;
	memcpy(out->spk_priv, d.spk_priv, 32);
	memcpy(out->spk_pub, d.spk_pub, 32);
	memcpy(out->spk_sig, d.spk_sig, 64);
	snprintf(out->jid, sizeof(out->jid), "%s", d.jid);
	snprintf(out->lid, sizeof(out->lid), "%s", d.lid);
	snprintf(out->push_name, sizeof(out->push_name), "%s", d.push_name);
	memcpy(out->account_sig_key, d.account_sig_key, 32);
	if (d.adv_identity != NULL && d.adv_identity_len > 0)
		memcpy(out->adv_identity, d.adv_identity, d.adv_identity_len);
	out->adv_identity_len = d.adv_identity_len;
	out->unconfirmed = d.unconfirmed;
	store_device_release(&d);
	return 1;
}

static int
device_save(void *arg, const struct wa_device *in)
{
	struct store_device	 d;
	int			 rc;

	memset(&d, 0, sizeof(d));
	memcpy(d.noise_priv, in->noise_priv, 32);
	memcpy(d.noise_pub, in->noise_pub, 32);
	memcpy(d.identity_priv, in->identity_priv, 32);
	memcpy(d.identity_pub, in->identity_pub, 32);
	d.registration_id = in->registration_id;
	memcpy(d.adv_secret, in->adv_secret, 32);
	d.spk_id = in->spk_id;
	memcpy(d.spk_priv, in->spk_priv, 32);
	memcpy(d.spk_pub, in->spk_pub, 32);
	memcpy(d.spk_sig, in->spk_sig, 64);
	snprintf(d.jid, sizeof(d.jid), "%s", in->jid);
	snprintf(d.lid, sizeof(d.lid), "%s", in->lid);
	snprintf(d.push_name, sizeof(d.push_name), "%s", in->push_name);
	memcpy(d.account_sig_key, in->account_sig_key, 32);
	/* Borrowed for the call; store_device_save() copies. */
	d.adv_identity = in->adv_identity_len > 0 ?
	    (uint8_t *)(uintptr_t)in->adv_identity : NULL;
	d.adv_identity_len = in->adv_identity_len;
	d.unconfirmed = in->unconfirmed;
	rc = store_device_save(arg, &d);
	d.adv_identity = NULL;
	store_device_release(&d);
	return rc;
}

static int
device_forget(void *arg)
{
	return store_device_forget(arg);
}

static int
prekey_next_id(void *arg, uint32_t *id)
{
	return store_prekey_next_id(arg, id);
}

/* struct wa_prekey and struct store_prekey have the same fields. */
_Static_assert(sizeof(struct wa_prekey) == sizeof(struct store_prekey),
    "prekey layouts differ");

static int
prekey_put(void *arg, const struct wa_prekey *k, size_t n)
{
	struct store_prekey	*s = calloc(n > 0 ? n : 1, sizeof(*s));
	size_t			 i;
	int			 rc;

	if (s == NULL)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		s[i].id = k[i].id;
		memcpy(s[i].priv, k[i].priv, 32);
		memcpy(s[i].pub, k[i].pub, 32);
	}
	rc = store_prekey_put(arg, s, n);
	explicit_bzero(s, n * sizeof(*s));
	free(s);
	return rc;
}

static int
prekey_pending(void *arg, struct wa_prekey *out, size_t max)
{
	struct store_prekey	*s = calloc(max > 0 ? max : 1, sizeof(*s));
	int			 n, i;

	if (s == NULL)
		return -ENOMEM;
	n = store_prekey_pending(arg, s, max);
	for (i = 0; i < n; i++) {
		out[i].id = s[i].id;
		memcpy(out[i].priv, s[i].priv, 32);
		memcpy(out[i].pub, s[i].pub, 32);
	}
	explicit_bzero(s, max * sizeof(*s));
	free(s);
	return n;
}

static int
prekey_mark_uploaded(void *arg, uint32_t first, uint32_t last)
{
	return store_prekey_mark_uploaded(arg, first, last);
}

static int
prekey_count(void *arg)
{
	return store_prekey_count(arg);
}

static int
version_load(void *arg, uint32_t *rev)
{
	return store_wa_version_load(arg, rev);
}

static int
version_save(void *arg, uint32_t rev)
{
	return store_wa_version_save(arg, rev);
}

void
app_store_ops(struct store *s, struct wa_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->device_load = device_load;
	ops->device_save = device_save;
	ops->device_forget = device_forget;
	ops->prekey_next_id = prekey_next_id;
	ops->prekey_put = prekey_put;
	ops->prekey_pending = prekey_pending;
	ops->prekey_mark_uploaded = prekey_mark_uploaded;
	ops->prekey_count = prekey_count;
	ops->version_load = version_load;
	ops->version_save = version_save;
	ops->arg = s;
}

/* ---- Signal state (proto/wa-signal.h) ---- */

_Static_assert(WA_SIGNAL_NAME_MAX == STORE_SIGNAL_NAME_MAX,
    "address name caps differ");
_Static_assert(WA_SIGNAL_KEY_LEN == STORE_KEY_LEN, "key lengths differ");

static int
sig_session_load(void *arg, const struct wa_signal_addr *a, struct buf *out)
{
	return store_signal_session_load(arg, a->name, a->device, out);
}

static int
sig_session_store(void *arg, const struct wa_signal_addr *a,
    const uint8_t *rec, size_t len)
{
	return store_signal_session_store(arg, a->name, a->device, rec, len);
}

static int
sig_session_contains(void *arg, const struct wa_signal_addr *a)
{
	return store_signal_session_contains(arg, a->name, a->device);
}

static int
sig_session_delete(void *arg, const struct wa_signal_addr *a)
{
	return store_signal_session_delete(arg, a->name, a->device);
}

static int
sig_session_delete_all(void *arg, const char *name)
{
	return store_signal_session_delete_all(arg, name);
}

static int
sig_session_devices(void *arg, const char *name, uint32_t *out, size_t max)
{
	return store_signal_session_devices(arg, name, out, max);
}

static int
sig_own_load(void *arg, struct wa_signal_own *out)
{
	struct store_device	 d;
	int			 rc;

	memset(&d, 0, sizeof(d));
	if ((rc = store_device_load(arg, &d)) <= 0)
		return rc;
	memcpy(out->identity_priv, d.identity_priv, 32);
	memcpy(out->identity_pub, d.identity_pub, 32);
	out->registration_id = d.registration_id;
	out->spk_id = d.spk_id;
	memcpy(out->spk_priv, d.spk_priv, 32);
	memcpy(out->spk_pub, d.spk_pub, 32);
	memcpy(out->spk_sig, d.spk_sig, 64);
	store_device_release(&d);
	return 1;
}

static int
sig_prekey_load(void *arg, uint32_t id, uint8_t priv[WA_SIGNAL_KEY_LEN],
    uint8_t pub[WA_SIGNAL_KEY_LEN])
{
	struct store_prekey	 k;
	int			 rc;

	if ((rc = store_prekey_get(arg, id, &k)) == 1) {
		memcpy(priv, k.priv, 32);
		memcpy(pub, k.pub, 32);
	}
	explicit_bzero(&k, sizeof(k));
	return rc;
}

static int
sig_prekey_remove(void *arg, uint32_t id)
{
	return store_prekey_remove(arg, id);
}

static int
sig_identity_save(void *arg, const struct wa_signal_addr *a,
    const uint8_t key[WA_SIGNAL_KEY_LEN], int64_t now_ms)
{
	return store_signal_identity_save(arg, a->name, a->device, key, now_ms);
}

static int
sig_identity_load(void *arg, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	return store_signal_identity_load(arg, a->name, a->device, key, NULL);
}

static int
sig_identity_delete_all(void *arg, const char *name, int64_t *changed_ms)
{
	return store_signal_identity_delete_all(arg, name, changed_ms);
}

static int
sig_sender_key_load(void *arg, const char *group,
    const struct wa_signal_addr *sender, struct buf *out)
{
	return store_signal_sender_key_load(arg, group, sender->name,
	    sender->device, out);
}

static int
sig_sender_key_store(void *arg, const char *group,
    const struct wa_signal_addr *sender, const uint8_t *rec, size_t len)
{
	return store_signal_sender_key_store(arg, group, sender->name,
	    sender->device, rec, len);
}

static int
sig_sender_key_delete(void *arg, const char *group,
    const struct wa_signal_addr *sender)
{
	return store_signal_sender_key_delete(arg, group, sender->name,
	    sender->device);
}

static int
sig_tx_begin(void *arg)
{
	return store_tx_begin(arg);
}

static int
sig_tx_commit(void *arg)
{
	return store_tx_commit(arg);
}

static int
sig_tx_rollback(void *arg)
{
	return store_tx_rollback(arg);
}

void
app_store_signal_ops(struct store *s, struct wa_signal_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->session_load = sig_session_load;
	ops->session_store = sig_session_store;
	ops->session_contains = sig_session_contains;
	ops->session_delete = sig_session_delete;
	ops->session_delete_all = sig_session_delete_all;
	ops->session_devices = sig_session_devices;
	ops->own_load = sig_own_load;
	ops->prekey_load = sig_prekey_load;
	ops->prekey_remove = sig_prekey_remove;
	ops->identity_save = sig_identity_save;
	ops->identity_load = sig_identity_load;
	ops->identity_delete_all = sig_identity_delete_all;
	ops->sender_key_load = sig_sender_key_load;
	ops->sender_key_store = sig_sender_key_store;
	ops->sender_key_delete = sig_sender_key_delete;
	ops->tx_begin = sig_tx_begin;
	ops->tx_commit = sig_tx_commit;
	ops->tx_rollback = sig_tx_rollback;
	ops->arg = s;
}
