/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/appstate.c -- app state ("syncd", protocol-features.md 2) in
 * the sim: per account the five collections (2.1) as the server keeps
 * them (version, the patches in the order stored) and as the phone does
 * (the LTHash and the live records, 2.6), the phone's app-state sync keys
 * and their share and request peer messages (2.3), the patches the phone
 * authors (a contact for every contact made, the admin's mute, pin, ...;
 * proto/appstate.h's encoder, then applied like any patch), and the
 * <iq xmlns="w:sync:app:state"> (2.4, 2.7): snapshots as encrypted blobs
 * on the media host, pages of patches, patches of companions verified
 * and stored, 409 for a stale base, server_sync to the other devices.
 * The admin routes and faults are in appstate-admin.c.  Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "appstate.h"
#include "base/arena.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "nodes.h"
#include "pbw.h"
#include "proto/crypto.h"
#include "proto/media.h"
#include "route.h"
#include "session.h"
#include "sim.h"

static int64_t
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- keys (2.3) --- */

struct as_key *
as_key_new(struct sim_as *as, bool withheld)
{
	struct as_key	*k;
	size_t		 i;
	bool		 dup;

	if (as->nkeys == AS_KEYS_MAX)
		return NULL;
	k = &as->keys[as->nkeys];
	memset(k, 0, sizeof(*k));
	do {
		/* The shape of the phone's ids: 00 00 00 00 and two bytes. */
		sim_random(k->id + 4, 2);
		for (i = 0, dup = false; i < as->nkeys; i++)
			dup |= memcmp(as->keys[i].id, k->id, AS_KEY_ID_LEN) == 0;
	} while (dup);
	sim_random(k->data, sizeof(k->data));
	sim_random(&k->raw_id, sizeof(k->raw_id));
	k->ts_ms = now_ms();
	k->withheld = withheld;
	if (wa_as_keys_expand(k->data, sizeof(k->data), &k->k) != 0)
		return NULL;
	as->nkeys++;
	return k;
}

static struct as_key *
key_find(struct sim_as *as, const uint8_t *id, size_t len)
{
	size_t	 i;

	for (i = 0; i < as->nkeys; i++)
		if (len == AS_KEY_ID_LEN && memcmp(as->keys[i].id, id, len) == 0)
			return &as->keys[i];
	return NULL;
}

/* wa_as_key_fn over the phone's keys. */
static int
key_fn(void *arg, const uint8_t *id, size_t len, struct wa_as_keys *out)
{
	struct as_key	*k = key_find(arg, id, len);

	if (k == NULL)
		return 0;
	*out = k->k;
	return 1;
}

/* --- records --- */

static struct as_rec *
rec_find(struct as_coll *c, const uint8_t *index_mac)
{
	size_t	 i;

	for (i = 0; i < c->nr; i++)
		if (memcmp(c->r[i].index_mac, index_mac, WA_AS_MAC_LEN) == 0)
			return &c->r[i];
	return NULL;
}

/* wa_as_mac_fn over the live records. */
static int
mac_fn(void *arg, enum wa_as_coll c, const uint8_t *index_mac,
    uint8_t *value_mac_out)
{
	struct sim_as	*as = arg;
	struct as_rec	*r = rec_find(&as->c[c], index_mac);

	if (r == NULL)
		return 0;
	memcpy(value_mac_out, r->value_mac, WA_AS_MAC_LEN);
	return 1;
}

static void
rec_release(struct as_rec *r)
{
	buf_release(&r->value);
	free(r->index_json);
	json_object_put(r->action);
}

/* Record m (read from wire record w) of the patch of version by by. */
static void
rec_put(struct as_coll *c, const struct wa_as_record *w,
    const struct wa_as_mutation *m, uint64_t version, const char *by)
{
	struct as_rec	*r = rec_find(c, m->index_mac);

	if (m->op == WA_AS_REMOVE) {
		if (r != NULL) {
			rec_release(r);
			*r = c->r[--c->nr];
		}
		return;
	}
	if (r == NULL) {
		if (c->nr == c->rcap) {
			c->rcap = c->rcap ? 2 * c->rcap : 64;
			c->r = xrealloc(c->r, c->rcap * sizeof(*c->r));
		}
		r = &c->r[c->nr++];
		memset(r, 0, sizeof(*r));
	} else {
		rec_release(r);
		memset(r, 0, sizeof(*r));
	}
	memcpy(r->index_mac, m->index_mac, WA_AS_MAC_LEN);
	memcpy(r->value_mac, m->value_mac, WA_AS_MAC_LEN);
	buf_append(&r->value, w->value, w->value_len);
	memcpy(r->key_id, w->key_id, w->key_id_len);
	r->key_id_len = w->key_id_len;
	if (m->err == 0 && m->index_json != NULL) {
		r->index_json = xstrdup(m->index_json);
		r->action = as_action_json(&m->action);
	}
	r->version = version;
	snprintf(r->by, sizeof(r->by), "%s", by);
}

static void	share_once(struct sim *, struct sim_account *,
		    struct sim_device *);

/* --- storing a patch --- */

/* The encoded size of the mutations (field 2) of patch p[0..len). */
static size_t
mut_bytes(const uint8_t *p, size_t len)
{
	struct sim_pb_field	 f;
	size_t			 off = 0, n = 0;

	while (sim_pb_next(p, len, &off, &f) == 1)
		if (f.num == 2)
			n += f.end - f.start;
	return n;
}

/*
 * Verify patch p[0..len) on collection c of a as its next version and
 * store it: the records, the new LTHash, the patch.  The MACs (value MAC
 * of each record, snapshot MAC, patch MAC) are checked by wa_as_apply()
 * on the sim's state.  Returns 0; an error and *why (static) otherwise,
 * nothing changed.
 */
static int
take_patch(struct sim_as *as, enum wa_as_coll c, const uint8_t *p,
    size_t len, const char *by, const char **why)
{
	struct as_coll		*col = &as->c[c];
	struct arena		 ar;
	struct wa_as_patch	 pt;
	struct wa_as_apply_in	 in;
	struct wa_as_apply_out	 out;
	struct wa_as_state	 st = col->st;
	struct as_patch		*sp;
	size_t			 i;
	int			 rc;

	arena_init(&ar, 0);
	*why = NULL;
	if ((rc = wa_as_patch_parse(&ar, p, len, &pt)) != 0)
		*why = "the patch does not parse";
	else if (pt.external != NULL) {
		*why = "externalMutations in a sent patch (the sim takes "
		    "inline mutations only)";
		rc = WC_EPROTO;
	} else if (!pt.has_macs || pt.key_id == NULL) {
		*why = "the patch lacks its MACs or key id";
		rc = WC_EPROTO;
	} else if (pt.has_version && pt.version != st.version + 1) {
		*why = "the patch's version is not the next one";
		rc = WC_ESTATE;
	}
	if (rc == 0) {
		memset(&in, 0, sizeof(in));
		in.coll = c;
		in.records = pt.records;
		in.n_records = pt.n_records;
		in.key_id = pt.key_id;
		in.key_id_len = pt.key_id_len;
		in.version = st.version + 1;
		in.snapshot_mac = pt.snapshot_mac;
		in.patch_mac = pt.patch_mac;
		in.key_fn = key_fn;
		in.key_arg = as;
		in.mac_fn = mac_fn;
		in.mac_arg = as;
		if ((rc = wa_as_apply(&ar, &in, &st, &out)) != 0)
			*why = rc == WC_EASNOKEY ? "a key the phone does not "
			    "have" : rc == WC_EASHASH ? "the snapshot MAC does "
			    "not match the sim's LTHash" : rc == WC_EASPATCHMAC ?
			    "the patch MAC does not verify" :
			    "the patch does not apply";
	}
	if (rc != 0) {
		arena_release(&ar);
		return rc;
	}
	for (i = 0; i < out.n_mutations; i++)
		rec_put(col, &pt.records[i], &out.mutations[i], st.version, by);
	col->st = st;
	if (col->np == col->pcap) {
		col->pcap = col->pcap ? 2 * col->pcap : 16;
		col->p = xrealloc(col->p, col->pcap * sizeof(*col->p));
	}
	sp = &col->p[col->np++];
	memset(sp, 0, sizeof(*sp));
	sp->version = st.version;
	buf_append(&sp->bytes, p, len);
	snprintf(sp->by, sizeof(sp->by), "%s", by);
	sp->nmut = pt.n_records;
	sp->mut_bytes = mut_bytes(p, len);
	arena_release(&ar);
	return 0;
}

/* Flip a bit of the patch MAC of stored patch sp (the patch-mac fault). */
static void
spoil_patch_mac(struct as_patch *sp)
{
	struct sim_pb_field	 f;
	size_t			 off = 0;

	while (sim_pb_next(sp->bytes.p, sp->bytes.len, &off, &f) == 1)
		if (f.num == 5 && f.wire == 2 && f.len > 0) {
			sp->bytes.p[f.end - 1] ^= 0x01;
			sp->bad_mac = true;
			return;
		}
}

int
as_author(struct sim *s, struct sim_account *a, enum wa_as_coll c,
    const struct wa_as_action *acts, const int *ops, size_t n,
    const char **why)
{
	struct sim_as		*as = a->as;
	struct as_key		*k = &as->keys[as->nkeys - 1];
	struct wa_as_send	*m = xcalloc(n + 1, sizeof(*m));
	struct wa_as_state	 st;
	struct wa_as_change	*ch;
	struct arena		 ar;
	struct buf		 patch = BUF_INIT;
	struct sim_device	*d;
	size_t			 i, nch;
	int			 rc;

	for (i = 0; i < n; i++) {
		m[i].op = ops != NULL ? ops[i] : WA_AS_SET;
		m[i].action = &acts[i];
		sim_random(m[i].iv, sizeof(m[i].iv));
	}
	arena_init(&ar, 0);
	rc = wa_as_patch_encode(&ar, &k->k, k->id, AS_KEY_ID_LEN, c,
	    &as->c[c].st, m, n, now_ms(), mac_fn, as, &patch, &st, &ch, &nch);
	free(m);
	arena_release(&ar);
	if (rc != 0) {
		*why = "the phone cannot encode that action";
		buf_release(&patch);
		return rc;
	}
	/* Stored as any patch: verified on the sim's state first. */
	rc = take_patch(as, c, patch.p, patch.len, "phone", why);
	buf_release(&patch);
	if (rc != 0) {
		sim_log(s, "appstate %s: the phone's own patch for %s is "
		    "refused: %s", a->pn, wa_as_coll_name(c), *why);
		return rc;
	}
	if (as->fault_patch_mac) {
		as->fault_patch_mac = false;
		spoil_patch_mac(&as->c[c].p[as->c[c].np - 1]);
	}
	sim_log(s, "appstate %s: the phone authored %s version %" PRIu64
	    " (%zu mutations%s)", a->pn, wa_as_coll_name(c),
	    as->c[c].st.version, n, as->c[c].p[as->c[c].np - 1].bad_mac ?
	    ", its patch MAC spoiled" : "");
	/* The first content: companions linked before get the keys now. */
	for (d = a->devices; d != NULL; d = d->next)
		share_once(s, a, d);
	(void)as_notify(s, a, c, 0);
	return 0;
}

/* --- the contacts of an account (2.8) --- */

/* A surname for contact u, from its number (so a test can tell the
 * address-book name from the push name). */
static const char *
surname(const struct sim_account *u)
{
	static const char *const v[] = {
		"Lindqvist", "Moreau", "Okafor", "Tanaka", "Novak",
		"Alvarez", "Schneider", "Kowalski", "Haddad", "Ferreira",
	};
	size_t	 n = strlen(u->pn);

	return v[(n > 0 ? (unsigned)(u->pn[n - 1] - '0') : 0) % 10];
}

/* The contact action of u into x (strings in ar). */
static void
contact_action(struct arena *ar, const struct sim_account *u,
    struct wa_as_action *x)
{
	char	 b[SIM_NAME_MAX + 64];
	size_t	 n;

	memset(x, 0, sizeof(*x));
	x->kind = WA_AS_ACT_CONTACT;
	snprintf(b, sizeof(b), "%s@s.whatsapp.net", u->pn);
	x->chat = sn_strdup(ar, b);
	if (u->name[0] != '\0') {
		snprintf(b, sizeof(b), "%s %s", u->name, surname(u));
		x->full_name = sn_strdup(ar, b);
		x->first_name = sn_strdup(ar, u->name);
	} else {
		n = strlen(u->pn);
		snprintf(b, sizeof(b), "Contact %s", u->pn + (n > 4 ? n - 4 :
		    0));
		x->full_name = sn_strdup(ar, b);
	}
	snprintf(b, sizeof(b), "%s@lid", u->lid);
	x->lid = sn_strdup(ar, b);
}

/* Author the pending contacts of a in one patch. */
static void
flush_contacts(struct sim *s, struct sim_account *a)
{
	struct sim_as		*as = a->as;
	struct wa_as_action	*x;
	struct arena		 ar;
	const char		*why;
	size_t			 i, n = as->npending;

	if (n == 0)
		return;
	as->npending = 0;
	arena_init(&ar, 0);
	x = arena_alloc(&ar, n * sizeof(*x));
	for (i = 0; i < n; i++)
		contact_action(&ar, as->pending[i], &x[i]);
	if (as_author(s, a, WA_AS_CRITICAL_UNBLOCK_LOW, x, NULL, n, &why) != 0)
		sim_log(s, "appstate %s: %zu contacts not authored: %s", a->pn,
		    n, why);
	arena_release(&ar);
}

struct sim_as *
as_get(struct sim *s, struct sim_account *a)
{
	if (a->as == NULL) {
		a->as = xcalloc(1, sizeof(*a->as));
		(void)as_key_new(a->as, false);
	}
	flush_contacts(s, a);
	return a->as;
}

void
sim_as_contact(struct sim *s, struct sim_account *contact)
{
	struct sim_account	*a;
	struct sim_as		*as;

	if (contact->owner[0] == '\0' ||
	    (a = sim_account_by_pn(s, contact->owner)) == NULL || a->contact)
		return;
	if (a->as == NULL)
		(void)as_get(s, a);
	as = a->as;
	if (as->npending == as->pending_cap) {
		as->pending_cap = as->pending_cap ? 2 * as->pending_cap : 16;
		as->pending = xrealloc(as->pending, as->pending_cap *
		    sizeof(*as->pending));
	}
	as->pending[as->npending++] = contact;
}

void
sim_as_free(struct sim_account *a)
{
	struct sim_as	*as = a->as;
	size_t		 c, i;

	if (as == NULL)
		return;
	for (c = 0; c < WA_AS_NCOLL; c++) {
		for (i = 0; i < as->c[c].np; i++)
			buf_release(&as->c[c].p[i].bytes);
		free(as->c[c].p);
		for (i = 0; i < as->c[c].nr; i++)
			rec_release(&as->c[c].r[i]);
		free(as->c[c].r);
	}
	free(as->pending);
	wa_crypto_wipe(as->keys, sizeof(as->keys));
	free(as);
	a->as = NULL;
}

/* --- key share and request (2.3) --- */

/* The Message of a key share of keys k[0..n) into out. */
static void
share_build(struct as_key *const *k, size_t n, struct buf *out)
{
	struct buf	 keys = BUF_INIT, one = BUF_INIT, t = BUF_INIT;
	struct buf	 fp = BUF_INIT, data = BUF_INIT, pm = BUF_INIT;
	size_t		 i;

	for (i = 0; i < n; i++) {
		one.len = t.len = fp.len = data.len = 0;
		sim_pb_ld(&t, 1, k[i]->id, AS_KEY_ID_LEN);	/* keyId */
		sim_pb_ld(&one, 1, t.p, t.len);		/* keyId */
		sim_pb_uint(&fp, 1, k[i]->raw_id);		/* rawId */
		sim_pb_uint(&fp, 2, 0);			/* currentIndex */
		sim_pb_ld(&fp, 3, "\0", 1);		/* deviceIndexes [0] */
		sim_pb_ld(&data, 1, k[i]->data, AS_KEY_LEN);	/* keyData */
		sim_pb_ld(&data, 2, fp.p, fp.len);	/* fingerprint */
		sim_pb_uint(&data, 3, (uint64_t)k[i]->ts_ms);	/* timestamp */
		sim_pb_ld(&one, 2, data.p, data.len);	/* keyData */
		sim_pb_ld(&keys, 1, one.p, one.len);	/* keys */
	}
	sim_pb_uint(&pm, 2, 6);			/* APP_STATE_SYNC_KEY_SHARE */
	sim_pb_ld(&pm, 7, keys.p, keys.len);	/* appStateSyncKeyShare */
	sim_pb_ld(out, 12, pm.p, pm.len);	/* protocolMessage */
	wa_crypto_wipe(data.p, data.len);
	wa_crypto_wipe(one.p, one.len);
	wa_crypto_wipe(keys.p, keys.len);
	buf_release(&keys);
	buf_release(&one);
	buf_release(&t);
	buf_release(&fp);
	buf_release(&data);
	buf_release(&pm);
}

/* Share keys k[0..n) with companion dev of a (a peer message). */
static int
share_send(struct sim *s, struct sim_account *a, uint32_t dev,
    struct as_key *const *k, size_t n)
{
	struct buf	 msg = BUF_INIT;
	char		 id[40];
	int		 rc;

	share_build(k, n, &msg);
	rc = sim_phone_peer_send(s, a, dev, &msg, id);
	wa_crypto_wipe(msg.p, msg.len);
	buf_release(&msg);
	if (rc == 0) {
		a->as->shares++;
		sim_log(s, "appstate %s: key share of %zu keys to device %u "
		    "(message %s)", a->pn, n, dev, id);
	} else
		sim_log(s, "appstate %s: no key share to device %u: %s", a->pn,
		    dev, wc_strerror(rc));
	return rc;
}

/* Whether collection state of as holds anything. */
static bool
as_empty(const struct sim_as *as)
{
	size_t	 c;

	for (c = 0; c < WA_AS_NCOLL; c++)
		if (as->c[c].st.version > 0)
			return false;
	return true;
}

/* Share every key but the withheld ones with companion d of a, once. */
static void
share_once(struct sim *s, struct sim_account *a, struct sim_device *d)
{
	struct sim_as	*as = a->as;
	struct as_key	*k[AS_KEYS_MAX];
	size_t		 i, n = 0;

	if (d->as_shared || d->removed || d->uploads == 0 || s->stopping)
		return;
	d->as_shared = true;
	for (i = 0; i < as->nkeys; i++)
		if (!as->keys[i].withheld)
			k[n++] = &as->keys[i];
	if (n > 0)
		(void)share_send(s, a, d->id, k, n);
}

void
sim_as_linked(struct sim *s, struct sim_account *a, struct sim_device *d)
{
	if (a->contact || d->as_shared)
		return;
	/* A phone with nothing in its app state shares its keys when it
	 * first has something (as_author()). */
	if (!as_empty(as_get(s, a)))
		share_once(s, a, d);
}

void
sim_as_key_request(struct sim *s, struct sim_account *a, const char *from,
    const uint8_t *p, size_t len)
{
	struct sim_as		*as = as_get(s, a);
	struct as_key		*k[AS_KEYS_MAX], *x;
	struct sim_pb_field	 f;
	const uint8_t		*q;
	size_t			 ql, off = 0, i, n = 0, asked = 0;
	const char		*colon = strchr(from, ':');
	uint32_t		 dev = colon != NULL ? (uint32_t)strtoul(colon +
				    1, NULL, 10) : 0;

	/* A companion that writes to its own user wraps it in a
	 * deviceSentMessage (31) {message (2)}. */
	if (sim_pb_find(p, len, 31, &q, &ql) && sim_pb_find(q, ql, 2, &q, &ql)) {
		p = q;
		len = ql;
	}
	as->requests++;
	if (sim_pb_find(p, len, 12, &q, &ql) &&
	    sim_pb_find(q, ql, 8, &q, &ql)) {
		/* appStateSyncKeyRequest {keyIds (1): KeyId {keyId (1)}} */
		while (sim_pb_next(q, ql, &off, &f) == 1 && asked < 256) {
			const uint8_t	*id;
			size_t		 idl;

			if (f.num != 1 || f.wire != 2)
				continue;
			asked++;
			if (!sim_pb_find(f.p, f.len, 1, &id, &idl) ||
			    (x = key_find(as, id, idl)) == NULL)
				continue;
			x->asked++;
			x->withheld = false;
			for (i = 0; i < n && k[i] != x; i++)
				;
			if (i == n && n < AS_KEYS_MAX)
				k[n++] = x;
		}
	}
	sim_log(s, "appstate %s: key request from %s for %zu keys, %zu known",
	    a->pn, from, asked, n);
	if (n > 0 && dev != 0)
		(void)share_send(s, a, dev, k, n);
}

/* --- server_sync --- */

unsigned
as_notify(struct sim *s, struct sim_account *a, enum wa_as_coll c,
    uint32_t except)
{
	uint32_t	 devs[64];
	size_t		 nd = sim_route_devices(a, devs, 64), i;
	unsigned	 sent = 0;
	char		 v[24];

	snprintf(v, sizeof(v), "%" PRIu64, a->as->c[c].st.version);
	for (i = 0; i < nd; i++) {
		struct arena	 ar;
		struct wa_node	*n, *ch;
		char		 id[40];
		uint8_t		 r[8];

		if (devs[i] == 0 || devs[i] == except)
			continue;
		arena_init(&ar, 0);
		sim_random(r, sizeof(r));
		snprintf(id, sizeof(id), "%02X%02X%02X%02X%02X%02X%02X%02X",
		    r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
		n = sn_new(&ar, "notification");
		sn_attr_jid(&ar, n, "from", "", "s.whatsapp.net", 0);
		sn_attr(&ar, n, "type", "server_sync");
		sn_attr(&ar, n, "id", id);
		route_put_t(&ar, n, "t", route_now_s());
		ch = sn_child(&ar, n, "collection");
		sn_attr(&ar, ch, "name", wa_as_coll_name(c));
		sn_attr(&ar, ch, "version", v);
		if (sim_route_queue(s, SIM_ROUTE_NOTIFICATION, id,
		    "server_sync", "s.whatsapp.net", a, devs[i], false, "",
		    n) >= 0)
			sent++;
		arena_release(&ar);
	}
	a->as->notifications += sent;
	return sent;
}

/* --- serving: blobs, snapshots, patches (2.4) --- */

/* Encrypt z as an app-state blob on the media host; its
 * ExternalBlobReference into ref.  Returns the blob, or NULL. */
static struct sim_blob *
put_blob(struct sim *s, const char *kind, const struct buf *z,
    struct buf *ref)
{
	struct buf	 enc = BUF_INIT;
	struct sim_blob	*b;
	uint8_t		 key[WA_MEDIA_KEY_LEN], enc_sha[32], file_sha[32];

	sim_random(key, sizeof(key));
	if (wa_media_encrypt(key, WA_MEDIA_INFO_APP_STATE, z->p, z->len, &enc,
	    enc_sha, file_sha) != 0) {
		buf_release(&enc);
		return NULL;
	}
	b = sim_media_put(s, kind, &enc);
	memcpy(b->media_key, key, sizeof(key));
	memcpy(b->file_sha256, file_sha, sizeof(file_sha));
	sim_pb_ld(ref, 1, key, sizeof(key));		/* mediaKey */
	sim_pb_ld(ref, 2, b->path, strlen(b->path));	/* directPath */
	sim_pb_uint(ref, 4, z->len);			/* fileSizeBytes */
	sim_pb_ld(ref, 5, file_sha, 32);		/* fileSha256 */
	sim_pb_ld(ref, 6, b->enc_sha256, 32);		/* fileEncSha256 */
	wa_crypto_wipe(key, sizeof(key));
	return b;
}

/* A SyncdRecord of r into out. */
static void
record_bytes(const struct as_rec *r, struct buf *out)
{
	struct buf	 t = BUF_INIT;

	sim_pb_ld(&t, 1, r->index_mac, WA_AS_MAC_LEN);
	sim_pb_ld(out, 1, t.p, t.len);			/* index */
	t.len = 0;
	sim_pb_ld(&t, 1, r->value.p, r->value.len);
	sim_pb_ld(out, 2, t.p, t.len);			/* value */
	t.len = 0;
	sim_pb_ld(&t, 1, r->key_id, r->key_id_len);
	sim_pb_ld(out, 3, t.p, t.len);			/* keyId */
	buf_release(&t);
}

/* The key of collection col's MACs: the last patch's, or the phone's
 * current one. */
static struct as_key *
coll_key(struct sim_as *as, const struct as_coll *col)
{
	struct wa_as_patch	 pt;
	struct arena		 ar;
	struct as_key		*k = NULL;

	if (col->np > 0) {
		arena_init(&ar, 0);
		if (wa_as_patch_parse(&ar, col->p[col->np - 1].bytes.p,
		    col->p[col->np - 1].bytes.len, &pt) == 0)
			k = key_find(as, pt.key_id, pt.key_id_len);
		arena_release(&ar);
	}
	return k != NULL ? k : &as->keys[as->nkeys - 1];
}

/* The snapshot of collection c of a, stored as a blob; its reference
 * into ref.  Returns 0 or an error. */
static int
snapshot(struct sim *s, struct sim_account *a, enum wa_as_coll c,
    struct buf *ref)
{
	struct sim_as	*as = a->as;
	struct as_coll	*col = &as->c[c];
	struct as_key	*k = coll_key(as, col);
	struct buf	 z = BUF_INIT, t = BUF_INIT, r = BUF_INIT;
	struct sim_blob	*b;
	uint8_t		 mac[WA_AS_MAC_LEN];
	size_t		 i;

	sim_pb_uint(&t, 1, col->st.version);
	sim_pb_ld(&z, 1, t.p, t.len);			/* version */
	for (i = 0; i < col->nr; i++) {
		r.len = 0;
		record_bytes(&col->r[i], &r);
		sim_pb_ld(&z, 2, r.p, r.len);		/* records */
	}
	wa_as_snapshot_mac(&k->k, col->st.hash, col->st.version, c, mac);
	if (as->fault_snapshot_mac) {
		as->fault_snapshot_mac = false;
		mac[0] ^= 0x01;
		sim_log(s, "appstate %s: the snapshot of %s has a spoiled MAC",
		    a->pn, wa_as_coll_name(c));
	}
	sim_pb_ld(&z, 3, mac, sizeof(mac));		/* mac */
	t.len = 0;
	sim_pb_ld(&t, 1, k->id, AS_KEY_ID_LEN);
	sim_pb_ld(&z, 4, t.p, t.len);			/* keyId */
	b = put_blob(s, "app-state", &z, ref);
	if (b != NULL) {
		col->snapshots++;
		sim_log(s, "appstate %s: snapshot of %s version %" PRIu64
		    " (%zu records, %zu bytes) as blob %" PRIu64, a->pn,
		    wa_as_coll_name(c), col->st.version, col->nr, z.len,
		    b->seq);
	}
	buf_release(&z);
	buf_release(&t);
	buf_release(&r);
	return b != NULL ? 0 : WC_ECRYPTO;
}

/* Stored patch sp as served into out: with its version, and its
 * mutations as an external blob when they are over the inline size. */
static void
patch_bytes(struct sim *s, struct as_patch *sp, struct buf *out)
{
	struct sim_pb_field	 f;
	struct buf		 muts = BUF_INIT, ref = BUF_INIT, v = BUF_INIT;
	size_t			 off = 0;
	size_t			 max = s->as_inline_max > 0 ?
				    s->as_inline_max : AS_INLINE_DEFAULT;

	if (sp->mut_bytes <= max) {
		buf_append(out, sp->bytes.p, sp->bytes.len);
	} else {
		while (sim_pb_next(sp->bytes.p, sp->bytes.len, &off, &f) == 1) {
			if (f.num == 2 && f.wire == 2)
				sim_pb_ld(&muts, 1, f.p, f.len);
			else
				buf_append(out, sp->bytes.p + f.start,
				    f.end - f.start);
		}
		if (sp->ext == NULL)
			sp->ext = put_blob(s, "app-state-patch", &muts,
			    &ref);
		else {
			/* The same blob again (its reference rebuilt). */
			sim_pb_ld(&ref, 1, sp->ext->media_key, 32);
			sim_pb_ld(&ref, 2, sp->ext->path, strlen(sp->ext->path));
			sim_pb_uint(&ref, 4, muts.len);
			sim_pb_ld(&ref, 5, sp->ext->file_sha256, 32);
			sim_pb_ld(&ref, 6, sp->ext->enc_sha256, 32);
		}
		sim_pb_ld(out, 3, ref.p, ref.len);	/* externalMutations */
	}
	/* version last: a reader merges it over any the sender put. */
	sim_pb_uint(&v, 1, sp->version);
	sim_pb_ld(out, 1, v.p, v.len);
	buf_release(&muts);
	buf_release(&ref);
	buf_release(&v);
}

/* <patches> with the patches after version from of col (a page) into
 * cn; has_more_patches when more are left. */
static void
add_patches(struct sim *s, struct arena *ar, struct wa_node *cn,
    struct as_coll *col, uint64_t from)
{
	size_t		 page = s->as_page > 0 ? s->as_page : AS_PAGE_DEFAULT;
	size_t		 i, n = 0;
	struct wa_node	*ps;

	for (i = 0; i < col->np && col->p[i].version <= from; i++)
		;
	if (i == col->np)
		return;
	ps = sn_new(ar, "patches");
	for (; i < col->np && n < page; i++, n++) {
		struct wa_node	*pn = sn_new(ar, "patch");
		struct buf	 b = BUF_INIT;

		patch_bytes(s, &col->p[i], &b);
		sn_bytes(ar, pn, b.p, b.len);
		buf_release(&b);
		sn_append(ar, ps, pn);
	}
	if (i < col->np)
		sn_attr(ar, cn, "has_more_patches", "true");
	sn_append(ar, cn, ps);
}

/* An error collection: <collection name type="error"><error code
 * [text]/> into cn. */
static void
coll_error(struct arena *ar, struct wa_node *cn, int code, const char *text)
{
	struct wa_node	*e;
	char		 v[16];

	sn_attr(ar, cn, "type", "error");
	e = sn_new(ar, "error");
	snprintf(v, sizeof(v), "%d", code);
	sn_attr(ar, e, "code", v);
	if (text != NULL)
		sn_attr(ar, e, "text", text);
	sn_append(ar, cn, e);
}

static bool
attr_u64(const struct wa_node *n, const char *key, uint64_t *out)
{
	struct wa_str	 v = sn_get(n, key);
	char		 b[24], *end;

	*out = 0;
	if (v.len == 0)
		return true;
	if (v.len >= sizeof(b))
		return false;
	memcpy(b, v.p, v.len);
	b[v.len] = '\0';
	errno = 0;
	*out = strtoull(b, &end, 10);
	return errno == 0 && *end == '\0' && b[0] != '-';
}

/* A companion's patch in collection node q (2.7): stale base 409 with
 * the newer patches, else verified and stored, the other devices told.
 * The answer (an error) into cn; returns true when cn is to be sent
 * ([RS]: an accepted patch gets no <collection>). */
static bool
take_sent(struct sim_conn *c, struct arena *ar, const struct wa_node *q,
    enum wa_as_coll ci, struct wa_node *cn)
{
	struct sim	*s = c->s;
	struct sim_as	*as = c->acct->as;
	struct as_coll	*col = &as->c[ci];
	const struct wa_node *pn = sn_find(q, "patch");
	const uint8_t	*p;
	size_t		 len;
	uint64_t	 base;
	const char	*why;
	char		 by[AS_BY_MAX], v[24];

	if (as->fault_conflict) {
		/* Someone else moved the version: the phone authors a
		 * patch of its own first. */
		as->fault_conflict = false;
		(void)as_conflict(s, c->acct, ci);
	}
	if (!attr_u64(q, "version", &base) || !sim_node_bytes(pn, &p, &len)) {
		coll_error(ar, cn, 400, "a patch needs version and bytes");
		as->refused++;
		return true;
	}
	if (base < col->st.version) {
		as->conflicts++;
		snprintf(v, sizeof(v), "%" PRIu64, col->st.version);
		sn_attr(ar, cn, "version", v);
		coll_error(ar, cn, 409, NULL);
		add_patches(s, ar, cn, col, base);
		sim_conn_log(c, "appstate: patch for %s on version %" PRIu64
		    ", the server has %" PRIu64 ": 409", wa_as_coll_name(ci),
		    base, col->st.version);
		return true;
	}
	if (base > col->st.version) {
		as->refused++;
		coll_error(ar, cn, 400, "version ahead of the server");
		return true;
	}
	snprintf(by, sizeof(by), "device %u", c->dev->id);
	if (take_patch(as, ci, p, len, by, &why) != 0) {
		as->refused++;
		sim_conn_log(c, "appstate: patch for %s refused: %s",
		    wa_as_coll_name(ci), why);
		coll_error(ar, cn, 400, why);
		return true;
	}
	as->accepted++;
	sim_conn_log(c, "appstate: patch for %s stored as version %" PRIu64
	    " (%zu mutations); %u devices told", wa_as_coll_name(ci),
	    col->st.version, col->p[col->np - 1].nmut,
	    as_notify(s, c->acct, ci, c->dev->id));
	return false;
}

/* A fetch in collection node q (2.4) into cn. */
static void
fetch(struct sim_conn *c, struct arena *ar, const struct wa_node *q,
    enum wa_as_coll ci, struct wa_node *cn)
{
	struct sim_as	*as = c->acct->as;
	struct as_coll	*col = &as->c[ci];
	uint64_t	 from;
	char		 v[24];

	as->fetches++;
	snprintf(v, sizeof(v), "%" PRIu64, col->st.version);
	sn_attr(ar, cn, "version", v);
	if (wa_str_eqc(sn_get(q, "return_snapshot"), "true")) {
		struct buf	 ref = BUF_INIT;
		struct wa_node	*sn;

		if (snapshot(c->s, c->acct, ci, &ref) != 0) {
			coll_error(ar, cn, 500, "no snapshot");
			buf_release(&ref);
			return;
		}
		sn = sn_new(ar, "snapshot");
		sn_bytes(ar, sn, ref.p, ref.len);
		sn_append(ar, cn, sn);
		buf_release(&ref);
		return;
	}
	if (!attr_u64(q, "version", &from) || from > col->st.version) {
		coll_error(ar, cn, 400, "version ahead of the server");
		return;
	}
	add_patches(c->s, ar, cn, col, from);
}

int
sim_as_iq(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_node	*sync = sn_find(n, "sync");
	struct arena		 ar;
	struct wa_node		*r, *rs;
	struct wa_str		 id = sn_get(n, "id");
	size_t			 i, nc = 0;
	char			 idc[64];

	if (sync == NULL || sync->content.kind != WA_VAL_LIST)
		return 0;
	(void)as_get(c->s, c->acct);
	arena_init(&ar, 0);
	snprintf(idc, sizeof(idc), "%.*s", (int)id.len, id.p);
	r = sn_new(&ar, "iq");
	sn_attr_jid(&ar, r, "from", "", "s.whatsapp.net", 0);
	sn_attr(&ar, r, "type", "result");
	sn_attr(&ar, r, "id", idc);
	rs = sn_new(&ar, "sync");
	for (i = 0; i < sync->content.u.list.n; i++) {
		const struct wa_node	*q = &sync->content.u.list.v[i];
		struct wa_node		*cn;
		struct wa_str		 nm = sn_get(q, "name");
		char			 name[32];
		int			 ci;

		if (!sn_is(q, "collection"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)nm.len, nm.p);
		cn = sn_new(&ar, "collection");
		sn_attr(&ar, cn, "name", name);
		nc++;
		if ((ci = wa_as_coll_find(name)) < 0)
			coll_error(&ar, cn, 404, "no such collection");
		else if (sn_find(q, "patch") != NULL) {
			if (!take_sent(c, &ar, q, (enum wa_as_coll)ci, cn))
				continue;
		} else
			fetch(c, &ar, q, (enum wa_as_coll)ci, cn);
		sn_append(&ar, rs, cn);
	}
	sn_append(&ar, r, rs);
	(void)sim_conn_send_node(c, r);
	arena_release(&ar);
	c->answered++;
	sim_conn_log(c, "appstate: sync iq with %zu collections answered", nc);
	return 1;
}
