/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-store-signal.c -- the Signal half of the fake store
 * (fake-store.h): struct wa_signal_store_ops over the key-value table of
 * fake-store.c, and the Signal device every fake store is.
 */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "base/buf.h"
#include "proto/crypto.h"
#include "tests/fakes/fake-store-int.h"

/* --- Signal --- */

static void
addr_key(char k[KEY_MAX], const char *kind, const struct wa_signal_addr *a)
{
	fake_key(k, "%s/%s/%u", kind, a->name, (unsigned)a->device);
}

static int
load_into(struct fake_store *f, const char *k, struct buf *out)
{
	struct kv	*e = fake_tab_get(&f->t, k);

	if (e == NULL)
		return 0;
	buf_append(out, e->val, e->len);
	return 1;
}

static int
session_load(void *arg, const struct wa_signal_addr *a, struct buf *out)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "session_load");
	addr_key(k, "sess", a);
	return load_into(f, k, out);
}

static int
session_store(void *arg, const struct wa_signal_addr *a, const uint8_t *rec,
    size_t len)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "session_store");
	addr_key(k, "sess", a);
	fake_tab_put(&f->t, k, rec, len);
	return 0;
}

static int
session_contains(void *arg, const struct wa_signal_addr *a)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "session_contains");
	addr_key(k, "sess", a);
	return fake_tab_get(&f->t, k) != NULL ? 1 : 0;
}

static int
session_delete(void *arg, const struct wa_signal_addr *a)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "session_delete");
	addr_key(k, "sess", a);
	return fake_tab_del(&f->t, k) ? 1 : 0;
}

static int
own_load(void *arg, struct wa_signal_own *out)
{
	struct fake_store	*f = arg;

	ENTER(f, "own_load");
	*out = f->own;
	return 1;
}

static int
prekey_load(void *arg, uint32_t id, uint8_t priv[WA_SIGNAL_KEY_LEN],
    uint8_t pub[WA_SIGNAL_KEY_LEN])
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];
	struct kv		*e;

	ENTER(f, "prekey_load");
	fake_key(k, "pre/%u", (unsigned)id);
	if ((e = fake_tab_get(&f->t, k)) == NULL)
		return 0;
	memcpy(priv, e->val, 32);
	memcpy(pub, e->val + 32, 32);
	return 1;
}

static int
prekey_remove(void *arg, uint32_t id)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "prekey_remove");
	fake_key(k, "pre/%u", (unsigned)id);
	(void)fake_tab_del(&f->t, k);
	return 0;
}

static int
identity_save(void *arg, const struct wa_signal_addr *a,
    const uint8_t key[WA_SIGNAL_KEY_LEN], int64_t now_ms)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];
	struct kv		*e;
	bool			 changed;

	(void)now_ms;
	ENTER(f, "identity_save");
	addr_key(k, "idk", a);
	e = fake_tab_get(&f->t, k);
	changed = e != NULL && memcmp(e->val, key, 32) != 0;
	fake_tab_put(&f->t, k, key, 32);
	return changed ? 1 : 0;
}

static int
identity_load(void *arg, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];
	struct kv		*e;

	ENTER(f, "identity_load");
	addr_key(k, "idk", a);
	if ((e = fake_tab_get(&f->t, k)) == NULL)
		return 0;
	memcpy(key, e->val, 32);
	return 1;
}

static int
sender_key_load(void *arg, const char *group,
    const struct wa_signal_addr *sender, struct buf *out)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "sender_key_load");
	fake_key(k, "skey/%s/%s/%u", group, sender->name,
	    (unsigned)sender->device);
	return load_into(f, k, out);
}

static int
sender_key_store(void *arg, const char *group,
    const struct wa_signal_addr *sender, const uint8_t *rec, size_t len)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "sender_key_store");
	fake_key(k, "skey/%s/%s/%u", group, sender->name,
	    (unsigned)sender->device);
	fake_tab_put(&f->t, k, rec, len);
	return 0;
}

static int
sender_key_delete(void *arg, const char *group,
    const struct wa_signal_addr *sender)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "sender_key_delete");
	fake_key(k, "skey/%s/%s/%u", group, sender->name,
	    (unsigned)sender->device);
	return fake_tab_del(&f->t, k) ? 1 : 0;
}

void
fake_store_signal_ops(struct fake_store *f, struct wa_signal_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->session_load = session_load;
	ops->session_store = session_store;
	ops->session_contains = session_contains;
	ops->session_delete = session_delete;
	ops->own_load = own_load;
	ops->prekey_load = prekey_load;
	ops->prekey_remove = prekey_remove;
	ops->identity_save = identity_save;
	ops->identity_load = identity_load;
	ops->sender_key_load = sender_key_load;
	ops->sender_key_store = sender_key_store;
	ops->sender_key_delete = sender_key_delete;
	ops->tx_begin = fake_store_tx_begin;
	ops->tx_commit = fake_store_tx_commit;
	ops->tx_rollback = fake_store_tx_rollback;
	ops->arg = f;
}

/* --- the store as a Signal device --- */

static void
keypair(uint8_t priv[32], uint8_t pub[32])
{
	randombytes_buf(priv, 32);
	wa_crypto_x25519_base(priv, pub);
}

void
fake_store_device_init(struct fake_store *f)
{
	uint8_t			 msg[33], rnd[WA_CRYPTO_SIG_RANDOM_LEN];
	uint8_t			 kp[64];
	char			 k[KEY_MAX];
	uint32_t		 i;

	keypair(f->own.identity_priv, f->own.identity_pub);
	f->own.registration_id = 1 + randombytes_uniform(16380);
	f->own.spk_id = 1;
	keypair(f->own.spk_priv, f->own.spk_pub);
	msg[0] = 0x05;
	memcpy(msg + 1, f->own.spk_pub, 32);
	randombytes_buf(rnd, sizeof(rnd));
	if (wa_crypto_xeddsa_sign(f->own.identity_priv, msg, sizeof(msg), rnd,
	    f->own.spk_sig) != 0)
		abort();
	for (i = 1; i <= FAKE_STORE_PREKEYS; i++) {
		keypair(kp, kp + 32);
		memcpy(f->prekey_pub[i - 1], kp + 32, 32);
		fake_key(k, "pre/%u", (unsigned)i);
		fake_tab_put(&f->t, k, kp, sizeof(kp));
	}
	sodium_memzero(kp, sizeof(kp));
}

void
fake_store_bundle(const struct fake_store *f, uint32_t prekey_id,
    struct wa_signal_bundle *b)
{
	memset(b, 0, sizeof(*b));
	b->registration_id = f->own.registration_id;
	memcpy(b->identity, f->own.identity_pub, 32);
	b->spk_id = f->own.spk_id;
	memcpy(b->spk_pub, f->own.spk_pub, 32);
	memcpy(b->spk_sig, f->own.spk_sig, 64);
	if (prekey_id >= 1 && prekey_id <= FAKE_STORE_PREKEYS) {
		b->has_prekey = true;
		b->prekey_id = prekey_id;
		memcpy(b->prekey_pub, f->prekey_pub[prekey_id - 1], 32);
	}
}

uint32_t
fake_store_registration_id(const struct fake_store *f)
{
	return f->own.registration_id;
}


/* --- what the tests read --- */

bool
fake_store_has_session(const struct fake_store *f,
    const struct wa_signal_addr *a)
{
	char	 k[KEY_MAX];

	addr_key(k, "sess", a);
	return fake_tab_get(&f->t, k) != NULL;
}

bool
fake_store_session(const struct fake_store *f, const struct wa_signal_addr *a,
    struct buf *out)
{
	char		 k[KEY_MAX];
	struct kv	*e;

	addr_key(k, "sess", a);
	if ((e = fake_tab_get(&f->t, k)) == NULL)
		return false;
	buf_append(out, e->val, e->len);
	return true;
}
