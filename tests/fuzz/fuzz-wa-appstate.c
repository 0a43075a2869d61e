/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-appstate.c -- fuzz target for app-state sync's
 * readers (proto/appstate.h) as bytes reach them from the server:
 * wa_as_patch_parse() then wa_as_apply() of what parsed, twice: once as
 * it came (its MACs almost never verify) and once with every MAC redone
 * under the target's key, so that each record is decrypted and its
 * SyncActionData, index JSON and action decoded; the same bytes also go
 * to wa_as_snapshot_parse() (and apply), wa_as_mutations_parse(),
 * wa_as_blobref_parse() and wa_as_index_parse() (whose result must encode
 * back and parse to the same strings), and, as a SyncActionData
 * plaintext, into one record encrypted here and applied.  Contract: an
 * error or a result within the header's limits, a record's err one of
 * those documented, never a crash or a leak.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "proto/appstate.h"
#include "proto/crypto.h"
#include "proto/pb.h"
#include "appstate.pb-c.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The seeds' key: keyData 0..31 under ID 00 00 00 00 00 01. */
static const uint8_t KEY_ID[] = { 0, 0, 0, 0, 0, 1 };
static struct wa_as_keys keys;
static int ready;

static int
key_fn(void *arg, const uint8_t *id, size_t len, struct wa_as_keys *out)
{
	(void)arg;
	if (len != sizeof(KEY_ID) || memcmp(id, KEY_ID, len) != 0)
		return 0;
	*out = keys;
	return 1;
}

/* The stored map holds every index MAC whose first byte is even. */
static int
mac_fn(void *arg, enum wa_as_coll c, const uint8_t im[32], uint8_t vm[32])
{
	(void)arg;
	(void)c;
	if (im[0] & 1)
		return 0;
	memset(vm, im[0], 32);
	return 1;
}

static void
check_out(int rc, const struct wa_as_apply_in *in,
    const struct wa_as_apply_out *out, const struct wa_as_state *st,
    const struct wa_as_state *before)
{
	size_t	 i;

	if (rc != 0) {
		if (memcmp(st, before, sizeof(*st)) != 0)
			abort();	/* state changed on error */
		if (rc == WC_EASNOKEY && (out->missing_key_id_len == 0 ||
		    out->missing_key_id_len > WA_AS_KEY_ID_MAX))
			abort();
		return;
	}
	if (out->n_mutations != in->n_records ||
	    out->n_changes > in->n_records || st->version != in->version)
		abort();
	for (i = 0; i < out->n_mutations; i++) {
		const struct wa_as_mutation *m = &out->mutations[i];

		switch (m->err) {
		case 0:
			if (m->index_json == NULL || m->value_plain == NULL)
				abort();
			break;
		case WC_EBADMAC: case WC_EPADDING: case WC_EPROTO:
		case WC_ETRUNC: case WC_EDEPTH: case WC_ETOOBIG:
		case WC_EASINDEX:
			if (m->index_json != NULL ||
			    m->action.kind != WA_AS_ACT_UNKNOWN)
				abort();
			break;
		default:
			abort();
		}
		if ((unsigned)m->action.kind >= WA_AS_ACT_NKIND)
			abort();
	}
}

static void
apply_one(struct arena *a, struct wa_as_apply_in *in)
{
	struct wa_as_apply_out	 out;
	struct wa_as_state	 st = { 0 }, before;
	int			 rc;

	if (!in->snapshot) {
		memset(st.hash, 0x3c, sizeof(st.hash));
		st.version = in->version > 0 ? in->version - 1 : 0;
	}
	before = st;
	in->key_fn = key_fn;
	in->mac_fn = mac_fn;
	rc = wa_as_apply(a, in, &st, &out);
	check_out(rc, in, &out, &st, &before);
}

/* Redo every MAC of the parsed records under the target's key: value
 * MACs, then the hash (as wa_as_apply() walks it, with mac_fn's map) and
 * the snapshot and patch MACs; the apply must then pass them all. */
static void
remac(struct arena *a, struct wa_as_record *r, size_t n, uint64_t version,
    uint8_t smac[32], uint8_t pmac[32])
{
	uint8_t	 h[WA_AS_HASH_LEN], *vms = arena_alloc(a, (n + 1) * 32);
	size_t	 i, j;

	memset(h, 0x3c, sizeof(h));
	for (i = 0; i < n; i++) {
		uint8_t	*v = arena_alloc(a, r[i].value_len);
		uint8_t	 prev[32];
		bool	 found = false;

		memcpy(v, r[i].value, r[i].value_len);
		wa_as_value_mac(&keys, r[i].op, KEY_ID, sizeof(KEY_ID), v,
		    r[i].value_len - 32, v + r[i].value_len - 32);
		r[i].value = v;
		r[i].key_id = KEY_ID;
		r[i].key_id_len = sizeof(KEY_ID);
		for (j = i; j-- > 0;)
			if (memcmp(r[j].index_mac, r[i].index_mac, 32) == 0) {
				if (r[j].op == WA_AS_SET)
					wa_lthash_sub(h, r[j].value +
					    r[j].value_len - 32);
				found = true;
				break;
			}
		if (!found && mac_fn(NULL, 0, r[i].index_mac, prev) == 1)
			wa_lthash_sub(h, prev);
		if (r[i].op == WA_AS_SET)
			wa_lthash_add(h, v + r[i].value_len - 32);
		memcpy(vms + 32 * i, v + r[i].value_len - 32, 32);
	}
	wa_as_snapshot_mac(&keys, h, version, WA_AS_REGULAR_HIGH, smac);
	wa_as_patch_mac(&keys, smac, vms, n, version, WA_AS_REGULAR_HIGH,
	    pmac);
}

static void
fuzz_patch(struct arena *a, const uint8_t *data, size_t size)
{
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_patch	 p;
	uint8_t			 smac[32], pmac[32];

	if (wa_as_patch_parse(a, data, size, &p) != 0)
		return;
	if (p.n_records > WA_AS_MAX_PATCH_RECORDS)
		abort();
	in.coll = WA_AS_REGULAR_HIGH;
	in.records = p.records;
	in.n_records = p.n_records;
	in.key_id = p.key_id;
	in.key_id_len = p.key_id_len;
	in.version = p.has_version && p.version > 0 ? p.version : 1;
	in.snapshot_mac = p.snapshot_mac;
	in.patch_mac = p.patch_mac;
	apply_one(a, &in);
	if (p.n_records > 64)
		return;		/* the reference walk is quadratic */
	remac(a, p.records, p.n_records, in.version, smac, pmac);
	in.key_id = KEY_ID;
	in.key_id_len = sizeof(KEY_ID);
	in.snapshot_mac = smac;
	in.patch_mac = pmac;
	{
		struct wa_as_apply_out	 out;
		struct wa_as_state	 st = { 0 }, before;

		memset(st.hash, 0x3c, sizeof(st.hash));
		st.version = in.version - 1;
		before = st;
		in.key_fn = key_fn;
		in.mac_fn = mac_fn;
		if (wa_as_apply(a, &in, &st, &out) != 0)
			abort();	/* every MAC was made right */
		check_out(0, &in, &out, &st, &before);
	}
}

static void
fuzz_others(struct arena *a, const uint8_t *data, size_t size)
{
	struct wa_as_apply_in	 in = { 0 };
	struct wa_as_snapshot	 s;
	struct wa_as_record	*r;
	struct wa_as_blobref	 b;
	char			**parts, **again;
	size_t			 n, n2, i;
	struct buf		 j = BUF_INIT;

	if (wa_as_snapshot_parse(a, data, size, &s) == 0) {
		in.coll = WA_AS_REGULAR;
		in.snapshot = true;
		in.records = s.records;
		in.n_records = s.n_records;
		in.key_id = s.key_id;
		in.key_id_len = s.key_id_len;
		in.version = s.version;
		in.snapshot_mac = s.mac;
		apply_one(a, &in);
	}
	if (wa_as_mutations_parse(a, data, size, &r, &n) == 0 &&
	    n > WA_AS_MAX_PATCH_RECORDS)
		abort();
	if (wa_as_blobref_parse(a, data, size, &b) == 0 &&
	    b.media_key == NULL && b.media_key_len != 0)
		abort();
	if (wa_as_index_parse(a, (const char *)data, size, &parts, &n) == 0) {
		if (n > WA_AS_INDEX_MAX_PARTS)
			abort();
		if (wa_as_index_encode((const char *const *)parts, n, &j) != 0 ||
		    wa_as_index_parse(a, (const char *)j.p, j.len, &again,
		    &n2) != 0 || n2 != n)
			abort();
		for (i = 0; i < n; i++)
			if (strcmp(parts[i], again[i]) != 0)
				abort();
	}
	buf_release(&j);
}

/* data as the plaintext of one record: encrypted, MAC'd, applied. */
static void
fuzz_plain(struct arena *a, const uint8_t *data, size_t size)
{
	struct wa_as_record	 r;
	struct wa_as_apply_in	 in = { 0 };
	Waas__SyncActionData	*d = NULL;
	EVP_CIPHER_CTX		*c;
	uint8_t			*v, smac[32], pmac[32];
	int			 n1 = 0, n2 = 0;

	if (size > 4096)
		return;
	v = arena_alloc(a, 16 + size + 16 + 32);
	memset(v, 0x42, 16);
	if ((c = EVP_CIPHER_CTX_new()) == NULL)
		return;
	if (EVP_EncryptInit_ex(c, EVP_aes_256_cbc(), NULL, keys.value_enc,
	    v) != 1 || EVP_EncryptUpdate(c, v + 16, &n1, data,
	    (int)size) != 1 || EVP_EncryptFinal_ex(c, v + 16 + n1, &n2) != 1)
		abort();
	EVP_CIPHER_CTX_free(c);
	r.op = WA_AS_SET;
	r.value = v;
	r.value_len = 16 + (size_t)(n1 + n2) + 32;
	r.index_mac = arena_alloc(a, 32);
	if (wa_pb_check(&waas__sync_action_data__descriptor, data, size,
	    WA_PB_MAX_DEPTH) == 0)
		d = waas__sync_action_data__unpack(NULL, size, data);
	if (d != NULL && d->has_index)
		wa_as_index_mac(&keys, d->index.data, d->index.len,
		    (uint8_t *)r.index_mac);
	else
		memset((uint8_t *)r.index_mac, 1, 32);
	if (d != NULL)
		waas__sync_action_data__free_unpacked(d, NULL);
	remac(a, &r, 1, 1, smac, pmac);
	in.coll = WA_AS_REGULAR_HIGH;
	in.records = &r;
	in.n_records = 1;
	in.key_id = KEY_ID;
	in.key_id_len = sizeof(KEY_ID);
	in.version = 1;
	in.snapshot_mac = smac;
	in.patch_mac = pmac;
	{
		struct wa_as_apply_out	 out;
		struct wa_as_state	 st = { 0 }, before;

		memset(st.hash, 0x3c, sizeof(st.hash));
		before = st;
		in.key_fn = key_fn;
		in.mac_fn = mac_fn;
		if (wa_as_apply(a, &in, &st, &out) != 0)
			abort();
		check_out(0, &in, &out, &st, &before);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct arena	 a;

	if (!ready) {
		uint8_t	 kd[32];
		int	 i;

		for (i = 0; i < 32; i++)
			kd[i] = (uint8_t)i;
		if (wa_crypto_init() != 0 ||
		    wa_as_keys_expand(kd, sizeof(kd), &keys) != 0)
			abort();
		ready = 1;
	}
	arena_init(&a, 0);
	fuzz_patch(&a, data, size);
	fuzz_others(&a, data, size);
	fuzz_plain(&a, data, size);
	arena_release(&a);
	return 0;
}
