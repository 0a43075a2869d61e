/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appstate-apply.c -- verifying and applying a patch or snapshot to
 * a collection's state, and decoding each record into an action
 * (proto/appstate.h; protocol-features.md 2.2, 2.5, 2.6, 2.8).
 *
 * The hash and the map follow the wire: every record's value MAC enters
 * the LTHash, the patch MAC and the changes as it came, and the keyed
 * snapshot and patch MACs over them decide whether the call succeeds.
 * Each record's content is used only when its own value MAC verifies, it
 * decrypts, its SyncActionData parses, its index gives its index MAC and
 * its index JSON parses; otherwise the record's err says why.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#include <sodium.h>

#include "base/err.h"
#include "proto/appstate-int.h"
#include "proto/crypto.h"

/* The records seen so far in this call, by index MAC: an open-addressing
 * table (SipHash keyed from the index key, so that the server cannot aim
 * collisions at it) of the latest record's position. */
struct seen {
	uint32_t	*slot;		/* record position + 1; 0 empty */
	size_t		 mask;
	uint8_t		 sip[crypto_shorthash_KEYBYTES];
};

static void
seen_init(struct arena *a, struct seen *s, size_t n,
    const struct wa_as_keys *k)
{
	static const char	 tag[] = "wachat app-state seen table";
	uint8_t			 h[WA_CRYPTO_HASH_LEN];
	size_t			 cap = 16;

	while (cap < 2 * n)
		cap <<= 1;
	s->slot = arena_alloc(a, cap * sizeof(*s->slot));
	memset(s->slot, 0, cap * sizeof(*s->slot));
	s->mask = cap - 1;
	wa_crypto_hmac_sha256(k->index, sizeof(k->index), tag,
	    sizeof(tag) - 1, h);
	memcpy(s->sip, h, sizeof(s->sip));
	wa_crypto_wipe(h, sizeof(h));
}

/* The slot of index MAC im: the one that holds it, or the empty one
 * where it goes. */
static uint32_t *
seen_slot(struct seen *s, const struct wa_as_record *r, const uint8_t *im)
{
	uint8_t		 h[crypto_shorthash_BYTES];
	uint64_t	 v;
	size_t		 i;

	crypto_shorthash(h, im, WA_AS_MAC_LEN, s->sip);
	memcpy(&v, h, sizeof(v));
	for (i = (size_t)v & s->mask;; i = (i + 1) & s->mask)
		if (s->slot[i] == 0 ||
		    memcmp(r[s->slot[i] - 1].index_mac, im, WA_AS_MAC_LEN) == 0)
			return &s->slot[i];
}

/* The keys of key_id, from the last ones looked up when they match. */
struct keycache {
	const uint8_t	*id;
	size_t		 len;
	struct wa_as_keys k;
};

static int
keys_get(const struct wa_as_apply_in *in, struct keycache *kc,
    const uint8_t *id, size_t len, struct wa_as_apply_out *out)
{
	int	 rc;

	if (kc->id != NULL && kc->len == len && memcmp(kc->id, id, len) == 0)
		return 0;
	rc = in->key_fn(in->key_arg, id, len, &kc->k);
	if (rc < 0)
		return rc;
	if (rc == 0) {
		memcpy(out->missing_key_id, id, len);
		out->missing_key_id_len = len;
		return WC_EASNOKEY;
	}
	kc->id = id;
	kc->len = len;
	return 0;
}

/* Decrypt, unpad, parse and check one record whose value MAC verified. */
static int
record_open(struct arena *a, struct as_cbc *cbc, const struct wa_as_keys *k,
    const struct wa_as_record *r, struct wa_as_mutation *m)
{
	size_t			 ct_len = r->value_len - AS_BLOCK - WA_AS_MAC_LEN;
	uint8_t			*plain = arena_alloc(a, ct_len);
	uint8_t			 im[WA_AS_MAC_LEN], pad, bad = 0;
	ProtobufCMessage	*pm;
	Waas__SyncActionData	*d;
	char			**parts;
	size_t			 i, n;
	int			 rc;

	if ((rc = as_cbc_run(cbc, k->value_enc, r->value, false,
	    r->value + AS_BLOCK, ct_len, plain)) != 0)
		return rc;
	pad = plain[ct_len - 1];
	if (pad == 0 || pad > AS_BLOCK)
		return WC_EPADDING;
	for (i = ct_len - pad; i < ct_len; i++)
		bad |= plain[i] ^ pad;
	if (bad != 0)
		return WC_EPADDING;
	if ((rc = as_pb_unpack(a, &waas__sync_action_data__descriptor, plain,
	    ct_len - pad, &pm)) != 0)
		return rc;
	d = (Waas__SyncActionData *)pm;
	if (!d->has_index)
		return WC_EASINDEX;
	wa_as_index_mac(k, d->index.data, d->index.len, im);
	if (sodium_memcmp(im, r->index_mac, WA_AS_MAC_LEN) != 0)
		return WC_EASINDEX;
	if ((rc = wa_as_index_parse(a, (const char *)d->index.data,
	    d->index.len, &parts, &n)) != 0)
		return rc;
	m->value_plain = plain;
	m->value_len = ct_len - pad;
	m->index_json = as_strndup(a, d->index.data, d->index.len);
	as_action_decode(a, d, parts, n, &m->action);
	return 0;
}

/* Check record i's value MAC with its key and decode it into *m. */
static int
record_decode(struct arena *a, const struct wa_as_apply_in *in,
    struct keycache *kc, struct as_cbc *cbc, const struct wa_as_record *r,
    struct wa_as_mutation *m, struct wa_as_apply_out *out)
{
	uint8_t		 vm[WA_AS_MAC_LEN];
	size_t		 body = r->value_len - WA_AS_MAC_LEN;
	int		 rc;

	memset(m, 0, sizeof(*m));
	m->op = r->op;
	memcpy(m->index_mac, r->index_mac, WA_AS_MAC_LEN);
	memcpy(m->value_mac, r->value + body, WA_AS_MAC_LEN);
	if ((rc = keys_get(in, kc, r->key_id, r->key_id_len, out)) != 0)
		return rc;
	wa_as_value_mac(&kc->k, r->op, r->key_id, r->key_id_len, r->value,
	    body, vm);
	if (sodium_memcmp(vm, m->value_mac, WA_AS_MAC_LEN) != 0) {
		m->err = WC_EBADMAC;
		return 0;
	}
	rc = record_open(a, cbc, &kc->k, r, m);
	if (rc == WC_ECRYPTO)
		return rc;
	if (rc != 0) {
		m->err = rc;
		m->index_json = NULL;
		m->value_plain = NULL;
		m->value_len = 0;
		memset(&m->action, 0, sizeof(m->action));
	}
	return 0;
}

/* The hash step of record i (2.6): subtract the previous value, add a
 * SET's; the table then points at i. */
struct hash_run {
	enum wa_as_coll			 coll;
	bool				 snapshot;
	const struct wa_as_record	*records;
	wa_as_mac_fn			 mac_fn;
	void				*mac_arg;
};

static int
hash_step(const struct hash_run *in, struct seen *s,
    const struct wa_as_mutation *mu, uint32_t i, uint8_t hash[])
{
	uint32_t	*slot = seen_slot(s, in->records, mu[i].index_mac);
	uint8_t		 prev[WA_AS_MAC_LEN];
	int		 rc;

	if (*slot != 0) {
		if (mu[*slot - 1].op == WA_AS_SET)
			wa_lthash_sub(hash, mu[*slot - 1].value_mac);
	} else if (!in->snapshot) {
		if ((rc = in->mac_fn(in->mac_arg, in->coll, mu[i].index_mac,
		    prev)) < 0)
			return rc;
		if (rc == 1)
			wa_lthash_sub(hash, prev);
	}
	if (mu[i].op == WA_AS_SET)
		wa_lthash_add(hash, mu[i].value_mac);
	*slot = i + 1;
	return 0;
}

/* The changes: one per distinct index MAC, its last record's state, in
 * the order of those last records. */
static void
changes_make(struct arena *a, struct seen *s, const struct hash_run *in,
    const struct wa_as_mutation *mu, size_t n, struct wa_as_change **out,
    size_t *n_out)
{
	struct wa_as_change	*ch;
	size_t			 i, k = 0;

	ch = arena_alloc(a, (n ? n : 1) * sizeof(*ch));
	for (i = 0; i < n; i++) {
		struct wa_as_change *c;

		if (*seen_slot(s, in->records, mu[i].index_mac) != i + 1)
			continue;	/* a later record has the last word */
		c = &ch[k++];
		memcpy(c->index_mac, mu[i].index_mac, WA_AS_MAC_LEN);
		c->set = mu[i].op == WA_AS_SET;
		if (c->set)
			memcpy(c->value_mac, mu[i].value_mac, WA_AS_MAC_LEN);
		else
			memset(c->value_mac, 0, WA_AS_MAC_LEN);
	}
	*out = ch;
	*n_out = k;
}

int
as_hash_apply(struct arena *a, enum wa_as_coll coll, bool snapshot,
    const struct wa_as_record *records, const struct wa_as_mutation *mu,
    size_t n, const struct wa_as_keys *k, wa_as_mac_fn mac_fn,
    void *mac_arg, uint8_t hash[WA_AS_HASH_LEN],
    struct wa_as_change **changes, size_t *n_changes)
{
	struct hash_run	 hr = { coll, snapshot, records, mac_fn, mac_arg };
	struct seen	 s;
	size_t		 i;
	int		 rc;

	seen_init(a, &s, n, k);
	for (i = 0; i < n; i++)
		if ((rc = hash_step(&hr, &s, mu, (uint32_t)i, hash)) != 0)
			return rc;
	changes_make(a, &s, &hr, mu, n, changes, n_changes);
	return 0;
}

static int
apply_check(const struct wa_as_apply_in *in, const struct wa_as_state *st)
{
	if ((unsigned)in->coll >= WA_AS_NCOLL || in->key_fn == NULL ||
	    (!in->snapshot && in->mac_fn == NULL) ||
	    (in->records == NULL && in->n_records > 0))
		return -EINVAL;
	if (in->key_id == NULL || in->key_id_len == 0 ||
	    in->key_id_len > WA_AS_KEY_ID_MAX || in->snapshot_mac == NULL ||
	    (!in->snapshot && in->patch_mac == NULL))
		return WC_EPROTO;
	if (in->n_records > (in->snapshot ? WA_AS_MAX_SNAPSHOT_RECORDS :
	    WA_AS_MAX_PATCH_RECORDS))
		return WC_ETOOBIG;
	if (!in->snapshot && in->version <= st->version)
		return WC_ESTATE;
	return 0;
}

static int
macs_check(struct arena *a, const struct wa_as_apply_in *in,
    const struct wa_as_keys *k, const struct wa_as_mutation *mu,
    const uint8_t hash[])
{
	uint8_t		 smac[WA_AS_MAC_LEN], pmac[WA_AS_MAC_LEN], *vms;
	size_t		 i;

	wa_as_snapshot_mac(k, hash, in->version, in->coll, smac);
	if (sodium_memcmp(smac, in->snapshot_mac, WA_AS_MAC_LEN) != 0)
		return WC_EASHASH;
	if (in->snapshot)
		return 0;
	vms = arena_alloc(a, (in->n_records ? in->n_records : 1) *
	    WA_AS_MAC_LEN);
	for (i = 0; i < in->n_records; i++)
		memcpy(vms + i * WA_AS_MAC_LEN, mu[i].value_mac,
		    WA_AS_MAC_LEN);
	wa_as_patch_mac(k, in->snapshot_mac, vms, in->n_records, in->version,
	    in->coll, pmac);
	if (sodium_memcmp(pmac, in->patch_mac, WA_AS_MAC_LEN) != 0)
		return WC_EASPATCHMAC;
	return 0;
}

int
wa_as_apply(struct arena *a, const struct wa_as_apply_in *in,
    struct wa_as_state *state, struct wa_as_apply_out *out)
{
	struct keycache		 main = { 0 }, rec = { 0 };
	struct as_cbc		 cbc = AS_CBC_INIT;
	struct wa_as_mutation	*mu;
	struct wa_as_change	*ch = NULL;
	uint8_t			 hash[WA_AS_HASH_LEN];
	size_t			 i, n_ch = 0;
	int			 rc;

	memset(out, 0, sizeof(*out));
	if ((rc = apply_check(in, state)) != 0)
		return rc;
	if ((rc = keys_get(in, &main, in->key_id, in->key_id_len, out)) != 0)
		return rc;
	rec = main;
	if (in->snapshot)
		memset(hash, 0, sizeof(hash));
	else
		memcpy(hash, state->hash, sizeof(hash));
	mu = arena_alloc(a, (in->n_records ? in->n_records : 1) * sizeof(*mu));
	for (i = 0; i < in->n_records && rc == 0; i++)
		rc = record_decode(a, in, &rec, &cbc, &in->records[i], &mu[i],
		    out);
	as_cbc_release(&cbc);
	if (rc == 0)
		rc = as_hash_apply(a, in->coll, in->snapshot, in->records, mu,
		    in->n_records, &main.k, in->mac_fn, in->mac_arg, hash, &ch,
		    &n_ch);
	if (rc == 0)
		rc = macs_check(a, in, &main.k, mu, hash);
	wa_crypto_wipe(&main.k, sizeof(main.k));
	wa_crypto_wipe(&rec.k, sizeof(rec.k));
	if (rc != 0)
		return rc;
	out->mutations = mu;
	out->n_mutations = in->n_records;
	out->changes = ch;
	out->n_changes = n_ch;
	out->reset = in->snapshot;
	state->version = in->version;
	memcpy(state->hash, hash, sizeof(hash));
	return 0;
}
