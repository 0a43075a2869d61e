/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appstate-encode.c -- our own app-state patch (proto/appstate.h;
 * protocol-features.md 2.7): each mutation's SyncActionData encrypted with
 * the caller's IV, its index and value MACs, the new LTHash on the base
 * state, the snapshot and patch MACs, packed as a SyncdPatch without a
 * version field.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "proto/appstate-int.h"
#include "proto/crypto.h"

/* Encrypt one mutation into rec (index MAC, value blob, key ID) and its
 * op and value MAC into mu. */
static int
seal_one(struct arena *a, struct as_cbc *cbc, const struct wa_as_keys *k,
    const uint8_t *key_id, size_t key_id_len, enum wa_as_coll c,
    const struct wa_as_send *m, int64_t now_ms, struct wa_as_record *rec,
    struct wa_as_mutation *mu)
{
	struct buf	 sad = BUF_INIT;
	char		*json = NULL;
	uint8_t		*blob, *im;
	size_t		 padded, pad, body;
	int		 rc;

	if (m->action == NULL || (m->op != WA_AS_SET && m->op != WA_AS_REMOVE)
	    || wa_as_action_coll(m->action->kind) != (int)c)
		return -EINVAL;
	if ((rc = wa_as_action_encode(m->action, now_ms, &sad, &json)) != 0)
		return rc;
	pad = AS_BLOCK - sad.len % AS_BLOCK;
	padded = sad.len + pad;
	body = AS_BLOCK + padded;
	if (body + WA_AS_MAC_LEN > WA_AS_VALUE_MAX_LEN) {
		rc = -EINVAL;
		goto out;
	}
	blob = arena_alloc(a, body + WA_AS_MAC_LEN);
	memcpy(blob, m->iv, AS_BLOCK);
	memcpy(blob + AS_BLOCK, sad.p, sad.len);
	memset(blob + AS_BLOCK + sad.len, (int)pad, pad);
	if ((rc = as_cbc_run(cbc, k->value_enc, m->iv, true, blob + AS_BLOCK,
	    padded, blob + AS_BLOCK)) != 0)
		goto out;
	wa_as_value_mac(k, m->op, key_id, key_id_len, blob, body, blob + body);
	im = arena_alloc(a, WA_AS_MAC_LEN);
	wa_as_index_mac(k, json, strlen(json), im);
	rec->op = m->op;
	rec->index_mac = im;
	rec->value = blob;
	rec->value_len = body + WA_AS_MAC_LEN;
	rec->key_id = key_id;
	rec->key_id_len = key_id_len;
	memset(mu, 0, sizeof(*mu));
	mu->op = m->op;
	memcpy(mu->index_mac, im, WA_AS_MAC_LEN);
	memcpy(mu->value_mac, blob + body, WA_AS_MAC_LEN);
out:
	wa_crypto_wipe(sad.p, sad.len);
	buf_release(&sad);
	free(json);
	return rc;
}

/* Pack the SyncdPatch of the n records with its two MACs onto *out. */
static void
patch_pack(struct arena *a, const struct wa_as_record *rec, size_t n,
    const uint8_t *key_id, size_t key_id_len, const uint8_t smac[],
    const uint8_t pmac[], struct buf *out)
{
	Waas__SyncdPatch	 p;
	Waas__KeyId		 kid;
	Waas__SyncdMutation	**mp, *ms;
	Waas__SyncdRecord	*rs;
	Waas__SyncdIndex	*is;
	Waas__SyncdValue	*vs;
	size_t			 i, len;

	waas__key_id__init(&kid);
	kid.has_id = true;
	kid.id.data = (uint8_t *)key_id;
	kid.id.len = key_id_len;
	mp = arena_alloc(a, n * sizeof(*mp));
	ms = arena_alloc(a, n * sizeof(*ms));
	rs = arena_alloc(a, n * sizeof(*rs));
	is = arena_alloc(a, n * sizeof(*is));
	vs = arena_alloc(a, n * sizeof(*vs));
	for (i = 0; i < n; i++) {
		waas__syncd_index__init(&is[i]);
		is[i].has_blob = true;
		is[i].blob.data = (uint8_t *)rec[i].index_mac;
		is[i].blob.len = WA_AS_MAC_LEN;
		waas__syncd_value__init(&vs[i]);
		vs[i].has_blob = true;
		vs[i].blob.data = (uint8_t *)rec[i].value;
		vs[i].blob.len = rec[i].value_len;
		waas__syncd_record__init(&rs[i]);
		rs[i].index = &is[i];
		rs[i].value = &vs[i];
		rs[i].keyid = &kid;
		waas__syncd_mutation__init(&ms[i]);
		ms[i].has_operation = true;
		ms[i].operation = rec[i].op;
		ms[i].record = &rs[i];
		mp[i] = &ms[i];
	}
	waas__syncd_patch__init(&p);
	p.n_mutations = n;
	p.mutations = mp;
	p.has_snapshotmac = true;
	p.snapshotmac.data = (uint8_t *)smac;
	p.snapshotmac.len = WA_AS_MAC_LEN;
	p.has_patchmac = true;
	p.patchmac.data = (uint8_t *)pmac;
	p.patchmac.len = WA_AS_MAC_LEN;
	p.keyid = &kid;
	len = protobuf_c_message_get_packed_size(&p.base);
	buf_reserve(out, len);
	protobuf_c_message_pack(&p.base, out->p + out->len);
	out->len += len;
}

int
wa_as_patch_encode(struct arena *a, const struct wa_as_keys *keys,
    const uint8_t *key_id, size_t key_id_len, enum wa_as_coll c,
    const struct wa_as_state *base, const struct wa_as_send *m, size_t n,
    int64_t now_ms, wa_as_mac_fn mac_fn, void *mac_arg,
    struct buf *out_patch, struct wa_as_state *new_state,
    struct wa_as_change **changes, size_t *n_changes)
{
	struct as_cbc		 cbc = AS_CBC_INIT;
	struct wa_as_record	*rec;
	struct wa_as_mutation	*mu;
	struct wa_as_change	*ch;
	uint8_t			 hash[WA_AS_HASH_LEN], smac[WA_AS_MAC_LEN];
	uint8_t			 pmac[WA_AS_MAC_LEN], *vms;
	size_t			 i, n_ch;
	uint64_t		 version = base->version + 1;
	int			 rc = 0;

	if (n == 0 || n > WA_AS_MAX_PATCH_RECORDS || key_id == NULL ||
	    key_id_len == 0 || key_id_len > WA_AS_KEY_ID_MAX ||
	    (unsigned)c >= WA_AS_NCOLL || mac_fn == NULL)
		return -EINVAL;
	rec = arena_alloc(a, n * sizeof(*rec));
	mu = arena_alloc(a, n * sizeof(*mu));
	for (i = 0; i < n && rc == 0; i++)
		rc = seal_one(a, &cbc, keys, key_id, key_id_len, c, &m[i],
		    now_ms, &rec[i], &mu[i]);
	as_cbc_release(&cbc);
	if (rc != 0)
		return rc;
	memcpy(hash, base->hash, sizeof(hash));
	if ((rc = as_hash_apply(a, c, false, rec, mu, n, keys, mac_fn, mac_arg,
	    hash, &ch, &n_ch)) != 0)
		return rc;
	wa_as_snapshot_mac(keys, hash, version, c, smac);
	vms = arena_alloc(a, n * WA_AS_MAC_LEN);
	for (i = 0; i < n; i++)
		memcpy(vms + i * WA_AS_MAC_LEN, mu[i].value_mac, WA_AS_MAC_LEN);
	wa_as_patch_mac(keys, smac, vms, n, version, c, pmac);
	patch_pack(a, rec, n, key_id, key_id_len, smac, pmac, out_patch);
	new_state->version = version;
	memcpy(new_state->hash, hash, sizeof(hash));
	*changes = ch;
	*n_changes = n_ch;
	return 0;
}
