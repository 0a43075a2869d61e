/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/sim/account.c -- accounts, contacts and their devices. */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "sim.h"
#include "base/xmalloc.h"

static bool
is_digits(const char *s, size_t max)
{
	size_t	 n = 0;

	if (s == NULL)
		return false;
	for (; s[n] != '\0'; n++)
		if (s[n] < '0' || s[n] > '9' || n >= max)
			return false;
	return n > 0;
}

struct sim_account *
sim_account_by_pn(struct sim *s, const char *pn)
{
	struct sim_account	*a;

	for (a = s->accounts; a != NULL; a = a->next)
		if (strcmp(a->pn, pn) == 0)
			return a;
	return NULL;
}

struct sim_account *
sim_account_by_lid(struct sim *s, const char *lid)
{
	struct sim_account	*a;

	for (a = s->accounts; a != NULL; a = a->next)
		if (strcmp(a->lid, lid) == 0)
			return a;
	return NULL;
}

struct sim_account *
sim_account_default(struct sim *s)
{
	struct sim_account	*a, *found = NULL;

	/* The oldest account (the list is newest first). */
	for (a = s->accounts; a != NULL; a = a->next)
		if (!a->contact)
			found = a;
	return found;
}

int
sim_account_add(struct sim *s, const char *pn, const char *lid,
    const char *name, bool contact, const char *owner,
    struct sim_account **out)
{
	struct sim_account	*a;
	char			 auto_lid[SIM_PN_MAX];
	int			 rc;

	if (!is_digits(pn, 20))
		return -EINVAL;
	if (lid == NULL || lid[0] == '\0') {
		/* 1000000000 + a counter, like real 15-digit LIDs. */
		unsigned long long	 n = 100000000000000ULL;

		do
			snprintf(auto_lid, sizeof(auto_lid), "%llu", ++n);
		while (sim_account_by_lid(s, auto_lid) != NULL);
		lid = auto_lid;
	} else if (!is_digits(lid, 20))
		return -EINVAL;
	if (owner != NULL && owner[0] != '\0' && !is_digits(owner, 20))
		return -EINVAL;
	if (sim_account_by_pn(s, pn) != NULL || sim_account_by_lid(s, lid) !=
	    NULL)
		return -EEXIST;
	a = xcalloc(1, sizeof(*a));
	snprintf(a->pn, sizeof(a->pn), "%s", pn);
	snprintf(a->lid, sizeof(a->lid), "%s", lid);
	snprintf(a->name, sizeof(a->name), "%s", name != NULL ? name : "");
	snprintf(a->owner, sizeof(a->owner), "%s", owner != NULL ? owner : "");
	a->contact = contact;
	a->next_device = 1;
	a->next_key_index = 1;
	if ((rc = sim_signal_keys_make(s->sig, s->opt.nprekeys, &a->keys)) !=
	    0) {
		free(a);
		return rc;
	}
	if ((rc = sim_phone_new(s, a, &a->phone)) != 0) {
		sim_signal_keys_release(&a->keys);
		free(a);
		return rc;
	}
	a->echo = contact && strcmp(a->name, "Echo") == 0;
	s->phone_hook = sim_phone_take;
	s->phone_arg = NULL;
	a->next = s->accounts;
	s->accounts = a;
	sim_log(s, "account %s: %s lid %s with %zu prekeys", contact ?
	    "contact" : "created", a->pn, a->lid, a->keys.nprekeys);
	*out = a;
	if (contact)
		sim_as_contact(s, a);	/* its owner's address book */
	if (!contact && s->opt.hist_chats > 0) {
		/* --history-chats: every account's phone holds a history. */
		struct sim_hist_cfg	 cfg = {
			.chats = s->opt.hist_chats,
			.msgs = s->opt.hist_msgs,
			.seed = s->opt.hist_seed,
			.chunk = s->opt.hist_chunk,
			.full_if_asked = s->opt.hist_full_if_asked,
		};
		const char		*why;

		if (sim_hist_set(s, a, &cfg, NULL, &why) != 200)
			sim_log(s, "account %s: no history: %s", a->pn, why);
	}
	return 0;
}

struct sim_device *
sim_device_find(struct sim_account *a, uint32_t id)
{
	struct sim_device	*d;

	for (d = a->devices; d != NULL; d = d->next)
		if (d->id == id)
			return d;
	return NULL;
}

struct sim_device *
sim_device_add(struct sim_account *a)
{
	struct sim_device	*d = xcalloc(1, sizeof(*d));

	d->id = a->next_device++;
	d->key_index = a->next_key_index++;
	d->next = a->devices;
	a->devices = d;
	return d;
}

void
sim_accounts_free(struct sim *s)
{
	struct sim_account	*a;
	struct sim_device	*d;

	while ((a = s->accounts) != NULL) {
		s->accounts = a->next;
		while ((d = a->devices) != NULL) {
			a->devices = d->next;
			buf_release(&d->identity);
			sim_prekeys_release(d);
			free(d);
		}
		sim_phone_free(a->phone);
		sim_hist_free(a);
		sim_as_free(a);
		sim_signal_keys_release(&a->keys);
		free(a);
	}
}

static void
put_hex(struct json_object *o, const char *key, const uint8_t *p,
    size_t len)
{
	char	 hex[2 * 256 + 1];

	if (len > 256)
		len = 256;
	sim_hex(p, len, hex);
	json_object_object_add(o, key, json_object_new_string(hex));
}

struct json_object *
sim_device_json(const struct sim_account *a, const struct sim_device *d)
{
	struct json_object	*o = json_object_new_object();
	char			 jid[96];
	char			 pid[2] = { d->platform_id, '\0' };

	snprintf(jid, sizeof(jid), "%s:%u@s.whatsapp.net", a->pn, d->id);
	json_object_object_add(o, "jid", json_object_new_string(jid));
	snprintf(jid, sizeof(jid), "%s:%u@lid", a->lid, d->id);
	json_object_object_add(o, "lid", json_object_new_string(jid));
	json_object_object_add(o, "device", json_object_new_int64(d->id));
	json_object_object_add(o, "key_index",
	    json_object_new_int64(d->key_index));
	json_object_object_add(o, "registration_id",
	    json_object_new_int64(d->reg_id));
	put_hex(o, "noise_pub", d->noise_pub, sizeof(d->noise_pub));
	put_hex(o, "identity_pub", d->ident_pub, sizeof(d->ident_pub));
	json_object_object_add(o, "signed_prekey_id",
	    json_object_new_int64(d->spk_id));
	put_hex(o, "signed_prekey_pub", d->spk_pub, sizeof(d->spk_pub));
	put_hex(o, "signed_prekey_sig", d->spk_sig, sizeof(d->spk_sig));
	json_object_object_add(o, "platform_id", json_object_new_string(pid));
	json_object_object_add(o, "os", json_object_new_string(d->os));
	json_object_object_add(o, "signed_back",
	    json_object_new_boolean(d->signed_back));
	json_object_object_add(o, "identity_len",
	    json_object_new_int64((int64_t)d->identity.len));
	json_object_object_add(o, "paired_at",
	    json_object_new_int64(d->paired_at));
	json_object_object_add(o, "removed",
	    json_object_new_boolean(d->removed));
	json_object_object_add(o, "bundles_served",
	    json_object_new_int64((int64_t)d->bundles_served));
	sim_prekeys_json(d, o);
	return o;
}

struct json_object *
sim_account_json(const struct sim_account *a, bool keys)
{
	struct json_object		*o = json_object_new_object();
	struct json_object		*devs = json_object_new_array();
	struct json_object		*blocked;
	const struct sim_device		*d;
	size_t				 i;

	json_object_object_add(o, "pn", json_object_new_string(a->pn));
	json_object_object_add(o, "lid", json_object_new_string(a->lid));
	json_object_object_add(o, "name", json_object_new_string(a->name));
	json_object_object_add(o, "kind", json_object_new_string(a->contact ?
	    "contact" : "account"));
	json_object_object_add(o, "echo", json_object_new_boolean(a->echo));
	if (a->owner[0] != '\0')
		json_object_object_add(o, "contact_of",
		    json_object_new_string(a->owner));
	json_object_object_add(o, "registration_id",
	    json_object_new_int64(a->keys.reg_id));
	put_hex(o, "identity_pub", a->keys.ident_pub,
	    sizeof(a->keys.ident_pub));
	json_object_object_add(o, "signed_prekey_id",
	    json_object_new_int64(a->keys.spk_id));
	json_object_object_add(o, "prekeys",
	    json_object_new_int64((int64_t)a->keys.nprekeys));
	/* The phone's one-time prekeys the server still holds (8.1). */
	json_object_object_add(o, "phone_prekeys_left", json_object_new_int64(
	    (int64_t)(a->keys.nprekeys - a->phone_otks_used)));
	json_object_object_add(o, "phone_bundles",
	    json_object_new_int64((int64_t)a->phone_bundles));
	json_object_object_add(o, "available",
	    json_object_new_boolean(a->available));
	json_object_object_add(o, "last_seen",
	    json_object_new_int64(a->last_seen));
	blocked = json_object_new_array();
	for (i = 0; i < a->nblocked; i++)
		json_object_array_add(blocked,
		    json_object_new_string(a->blocked[i]));
	json_object_object_add(o, "blocked", blocked);	/* profile.c */
	if (keys) {
		put_hex(o, "signed_prekey_pub", a->keys.spk_pub,
		    sizeof(a->keys.spk_pub));
		put_hex(o, "signed_prekey_sig", a->keys.spk_sig,
		    sizeof(a->keys.spk_sig));
		if (a->keys.nprekeys > 0) {
			json_object_object_add(o, "first_prekey_id",
			    json_object_new_int64(a->keys.prekeys[0].id));
			put_hex(o, "first_prekey_pub", a->keys.prekeys[0].pub,
			    SIM_KEY_LEN);
		}
	}
	for (d = a->devices; d != NULL; d = d->next)
		json_object_array_add(devs, sim_device_json(a, d));
	json_object_object_add(o, "devices", devs);
	return o;
}
