/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-store.c -- a simulated phone's Signal store: in-memory
 * tables of rows (sessions, identities, prekeys, sender keys, and which
 * devices have the phone's sender key), with nested transactions that a
 * journal of old values rolls back; the wa_signal_store_ops of
 * proto/wa-signal.h over them.  Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "phone.h"
#include "proto/wa-signal.h"
#include "sim.h"

/* Wipe and free b (secrets and message text). */
void
phone_wipe(struct buf *b)
{
	if (b->p != NULL)
		explicit_bzero(b->p, b->len);
	buf_release(b);
}


struct kv *
phone_kv_find(struct sim_phone *p, const char *key)
{
	size_t	 i;

	for (i = 0; i < p->nkv; i++)
		if (strcmp(p->kv[i].key, key) == 0)
			return &p->kv[i];
	return NULL;
}

/* Write without journaling: val NULL deletes. */
void
phone_kv_set_raw(struct sim_phone *p, const char *key, const uint8_t *val,
    size_t len)
{
	struct kv	*e = phone_kv_find(p, key);

	if (val == NULL) {
		if (e != NULL) {
			free(e->key);
			phone_wipe(&e->val);
			*e = p->kv[--p->nkv];
		}
		return;
	}
	if (e == NULL) {
		if (p->nkv == p->kv_cap) {
			p->kv_cap = p->kv_cap ? 2 * p->kv_cap : 32;
			p->kv = xrealloc(p->kv, p->kv_cap * sizeof(*p->kv));
		}
		e = &p->kv[p->nkv++];
		e->key = xstrdup(key);
		memset(&e->val, 0, sizeof(e->val));
	}
	e->val.len = 0;
	buf_append(&e->val, val, len);
}

/* Write (val NULL: delete), journaled inside a transaction. */
static void
kv_set(struct sim_phone *p, const char *key, const uint8_t *val, size_t len)
{
	if (p->depth > 0) {
		struct kv	*e = phone_kv_find(p, key);
		struct undo	*u;

		if (p->nundo == p->undo_cap) {
			p->undo_cap = p->undo_cap ? 2 * p->undo_cap : 16;
			p->undo = xrealloc(p->undo, p->undo_cap *
			    sizeof(*p->undo));
		}
		u = &p->undo[p->nundo++];
		u->key = xstrdup(key);
		u->had = e != NULL;
		memset(&u->old, 0, sizeof(u->old));
		if (e != NULL)
			buf_append(&u->old, e->val.p, e->val.len);
	}
	phone_kv_set_raw(p, key, val, len);
}

static void
undo_drop(struct undo *u)
{
	free(u->key);
	phone_wipe(&u->old);
}

static void
key_addr(char *out, size_t len, char kind, const struct wa_signal_addr *a)
{
	snprintf(out, len, "%c/%s/%u", kind, a->name, a->device);
}

static int
op_session_load(void *arg, const struct wa_signal_addr *a, struct buf *out)
{
	char		 k[WA_SIGNAL_NAME_MAX + 32];
	struct kv	*e;

	key_addr(k, sizeof(k), 's', a);
	if ((e = phone_kv_find(arg, k)) == NULL)
		return 0;
	buf_append(out, e->val.p, e->val.len);
	return 1;
}

static int
op_session_store(void *arg, const struct wa_signal_addr *a,
    const uint8_t *rec, size_t len)
{
	char	 k[WA_SIGNAL_NAME_MAX + 32];

	key_addr(k, sizeof(k), 's', a);
	kv_set(arg, k, rec != NULL ? rec : (const uint8_t *)"", len);
	return 0;
}

static int
op_session_contains(void *arg, const struct wa_signal_addr *a)
{
	char	 k[WA_SIGNAL_NAME_MAX + 32];

	key_addr(k, sizeof(k), 's', a);
	return phone_kv_find(arg, k) != NULL;
}

int
phone_session_delete(void *arg, const struct wa_signal_addr *a)
{
	char	 k[WA_SIGNAL_NAME_MAX + 32];

	key_addr(k, sizeof(k), 's', a);
	if (phone_kv_find(arg, k) == NULL)
		return 0;
	kv_set(arg, k, NULL, 0);
	return 1;
}

/* The device of session key k when it belongs to name, else -1. */
static int64_t
session_dev(const char *k, const char *name)
{
	size_t	 n = strlen(name);

	if (k[0] != 's' || k[1] != '/' || strncmp(k + 2, name, n) != 0 ||
	    k[2 + n] != '/')
		return -1;
	return strtoll(k + 3 + n, NULL, 10);
}

static int
op_session_delete_all(void *arg, const char *name)
{
	struct sim_phone	*p = arg;
	int			 n = 0;
	size_t			 i;

	for (i = 0; i < p->nkv;) {
		if (session_dev(p->kv[i].key, name) >= 0) {
			char	*k = xstrdup(p->kv[i].key);

			/* The last row moves here. */
			kv_set(p, k, NULL, 0);
			free(k);
			n++;
		} else
			i++;
	}
	return n;
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t	 x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
op_session_devices(void *arg, const char *name, uint32_t *out, size_t max)
{
	struct sim_phone	*p = arg;
	uint32_t		*all = xcalloc(p->nkv + 1, sizeof(*all));
	size_t			 i, n = 0;
	int64_t			 d;

	for (i = 0; i < p->nkv; i++)
		if ((d = session_dev(p->kv[i].key, name)) >= 0)
			all[n++] = (uint32_t)d;
	qsort(all, n, sizeof(*all), u32_cmp);
	for (i = 0; i < n && i < max; i++)
		out[i] = all[i];
	free(all);
	return (int)n;
}

static int
op_own_load(void *arg, struct wa_signal_own *out)
{
	struct sim_phone		*p = arg;
	const struct sim_signal_keys	*k = &p->a->keys;

	memcpy(out->identity_priv, k->ident_priv, WA_SIGNAL_KEY_LEN);
	memcpy(out->identity_pub, k->ident_pub, WA_SIGNAL_KEY_LEN);
	out->registration_id = k->reg_id;
	out->spk_id = k->spk_id;
	memcpy(out->spk_priv, k->spk_priv, WA_SIGNAL_KEY_LEN);
	memcpy(out->spk_pub, k->spk_pub, WA_SIGNAL_KEY_LEN);
	memcpy(out->spk_sig, k->spk_sig, WA_SIGNAL_SIG_LEN);
	return 1;
}

static int
op_prekey_load(void *arg, uint32_t id, uint8_t priv[WA_SIGNAL_KEY_LEN],
    uint8_t pub[WA_SIGNAL_KEY_LEN])
{
	char		 k[32];
	struct kv	*e;

	snprintf(k, sizeof(k), "p/%" PRIu32, id);
	if ((e = phone_kv_find(arg, k)) == NULL ||
	    e->val.len != 2 * SIM_KEY_LEN)
		return 0;
	memcpy(priv, e->val.p, SIM_KEY_LEN);
	memcpy(pub, e->val.p + SIM_KEY_LEN, SIM_KEY_LEN);
	return 1;
}

static int
op_prekey_remove(void *arg, uint32_t id)
{
	char	 k[32];

	snprintf(k, sizeof(k), "p/%" PRIu32, id);
	kv_set(arg, k, NULL, 0);
	return 0;
}

static int
op_identity_save(void *arg, const struct wa_signal_addr *a,
    const uint8_t key[WA_SIGNAL_KEY_LEN], int64_t now)
{
	char		 k[WA_SIGNAL_NAME_MAX + 32];
	struct kv	*e;
	int		 changed;

	(void)now;
	key_addr(k, sizeof(k), 'i', a);
	e = phone_kv_find(arg, k);
	changed = e != NULL && (e->val.len != WA_SIGNAL_KEY_LEN ||
	    memcmp(e->val.p, key, WA_SIGNAL_KEY_LEN) != 0);
	if (e == NULL || changed)
		kv_set(arg, k, key, WA_SIGNAL_KEY_LEN);
	return changed;
}

static int
op_identity_load(void *arg, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	char		 k[WA_SIGNAL_NAME_MAX + 32];
	struct kv	*e;

	key_addr(k, sizeof(k), 'i', a);
	if ((e = phone_kv_find(arg, k)) == NULL ||
	    e->val.len != WA_SIGNAL_KEY_LEN)
		return 0;
	memcpy(key, e->val.p, WA_SIGNAL_KEY_LEN);
	return 1;
}

static void
skey_key(char *out, size_t len, const char *group,
    const struct wa_signal_addr *a)
{
	snprintf(out, len, "k/%s/%s/%u", group, a->name, a->device);
}

static int
op_skey_load(void *arg, const char *group, const struct wa_signal_addr *a,
    struct buf *out)
{
	char		 k[2 * WA_SIGNAL_NAME_MAX + 48];
	struct kv	*e;

	skey_key(k, sizeof(k), group, a);
	if ((e = phone_kv_find(arg, k)) == NULL)
		return 0;
	buf_append(out, e->val.p, e->val.len);
	return 1;
}

static int
op_skey_store(void *arg, const char *group, const struct wa_signal_addr *a,
    const uint8_t *rec, size_t len)
{
	char	 k[2 * WA_SIGNAL_NAME_MAX + 48];

	skey_key(k, sizeof(k), group, a);
	kv_set(arg, k, rec != NULL ? rec : (const uint8_t *)"", len);
	return 0;
}

static int
op_skey_delete(void *arg, const char *group, const struct wa_signal_addr *a)
{
	char	 k[2 * WA_SIGNAL_NAME_MAX + 48];

	skey_key(k, sizeof(k), group, a);
	if (phone_kv_find(arg, k) == NULL)
		return 0;
	kv_set(arg, k, NULL, 0);
	return 1;
}

static int
op_tx_begin(void *arg)
{
	struct sim_phone	*p = arg;

	if (p->depth >= PHONE_TX_DEPTH)
		return -EINVAL;
	p->marks[p->depth++] = p->nundo;
	return 0;
}

static int
op_tx_commit(void *arg)
{
	struct sim_phone	*p = arg;

	if (p->depth == 0)
		return -EINVAL;
	if (--p->depth == 0) {
		while (p->nundo > 0)
			undo_drop(&p->undo[--p->nundo]);
	}
	return 0;
}

static int
op_tx_rollback(void *arg)
{
	struct sim_phone	*p = arg;
	size_t			 mark;

	if (p->depth == 0)
		return -EINVAL;
	mark = p->marks[--p->depth];
	while (p->nundo > mark) {
		struct undo	*u = &p->undo[--p->nundo];

		phone_kv_set_raw(p, u->key, u->had ? (u->old.p != NULL ?
		    u->old.p : (const uint8_t *)"") : NULL, u->old.len);
		undo_drop(u);
	}
	return 0;
}

void
phone_store_init(struct sim_phone *p)
{
	const struct sim_signal_keys	*keys = &p->a->keys;
	size_t				 i;

	p->ops = (struct wa_signal_store_ops){
		.session_load = op_session_load,
		.session_store = op_session_store,
		.session_contains = op_session_contains,
		.session_delete = phone_session_delete,
		.session_delete_all = op_session_delete_all,
		.session_devices = op_session_devices,
		.own_load = op_own_load,
		.prekey_load = op_prekey_load,
		.prekey_remove = op_prekey_remove,
		.identity_save = op_identity_save,
		.identity_load = op_identity_load,
		.sender_key_load = op_skey_load,
		.sender_key_store = op_skey_store,
		.sender_key_delete = op_skey_delete,
		.tx_begin = op_tx_begin,
		.tx_commit = op_tx_commit,
		.tx_rollback = op_tx_rollback,
		.arg = p,
	};
	/* The phone's own one-time prekeys, private halves kept. */
	for (i = 0; i < keys->nprekeys; i++) {
		uint8_t	 kp[2 * SIM_KEY_LEN];
		char	 k[32];

		memcpy(kp, keys->prekeys[i].priv, SIM_KEY_LEN);
		memcpy(kp + SIM_KEY_LEN, keys->prekeys[i].pub, SIM_KEY_LEN);
		snprintf(k, sizeof(k), "p/%" PRIu32, keys->prekeys[i].id);
		phone_kv_set_raw(p, k, kp, sizeof(kp));
		explicit_bzero(kp, sizeof(kp));
	}
}

void
phone_store_release(struct sim_phone *p)
{
	size_t	 i;

	for (i = 0; i < p->nkv; i++) {
		free(p->kv[i].key);
		phone_wipe(&p->kv[i].val);
	}
	free(p->kv);
	p->kv = NULL;
	p->nkv = p->kv_cap = 0;
	while (p->nundo > 0)
		undo_drop(&p->undo[--p->nundo]);
	free(p->undo);
	p->undo = NULL;
	p->undo_cap = 0;
}
