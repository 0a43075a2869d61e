/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-sigrec.c -- fuzz target for Signal records read back
 * from the database: the bytes store/signal.c hands to the Signal layer
 * (proto/signal-store.c, then libsignal-protocol-c's deserializers), as
 * a damaged disk may hold them.  A fixed world is made once: us ("A") and
 * a peer ("B", 15550001111) in in-memory stores shaped as the real ones
 * (records 1..STORE_SIGNAL_RECORD_MAX bytes, identity keys 32), a 1:1
 * session both ways, a group sender key both ways, and B's messages to
 * us (a pkmsg, a msg, an skmsg, an SKDM).  Each input replaces one of A's
 * records, then A uses it.  Byte 0 picks which:
 *   0  the session record of B: encrypt to B, decrypt B's msg, then
 *      (record reset) B's pkmsg;
 *   1  the sender-key record of B in the group: decrypt B's skmsg, then
 *      (record reset) process B's SKDM;
 *   2  our own sender-key record in the group: encrypt, make the SKDM;
 *   3  our device material and one-time prekey as the device and prekey
 *      rows give them (identity 32+32, registration id 4, signed prekey
 *      id 4, 32+32, signature 64, prekey id 4, 32+32; big-endian ids):
 *      decrypt B's pkmsg, then process B's bundle and encrypt;
 *   4  B's identity key (32 bytes): read it, decrypt B's pkmsg.
 * Randomness is libsodium's, replaced by a counter-mode SHA-256 stream
 * reset before every input, so runs repeat exactly.
 * Contract: every record is used or refused with an error code; no crash,
 * no leak, no read outside the input.
 *
 * Built with -DWA_SIGREC_WRITE_SEEDS and tests/fuzz/replay.c left out, the
 * file is a program writing genuine seeds (the world's records, made by
 * libsignal-protocol-c as wachat stores them) into the directory named by
 * its argument (tests/fuzz/corpus/wa-sigrec).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "base/buf.h"
#include "base/err.h"
#include "proto/crypto.h"
#include "proto/wa-signal.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define RECORD_MAX	(1u << 20)	/* STORE_SIGNAL_RECORD_MAX */
#define NREC		8
#define GROUP		"120363000000000001@g.us"
#define B_JID		"15550001111@s.whatsapp.net"
#define A_JID		"15550009999@s.whatsapp.net"
#define PREKEY_ID	31
#define OWN_LEN		(32 + 32 + 4 + 4 + 32 + 32 + 64 + 4 + 32 + 32)

/* ---- a deterministic RNG for libsodium ---- */

static uint64_t	 rng_ctr;

static void
rng_buf(void *const p, const size_t n)
{
	uint8_t		 blk[32], in[8];
	size_t		 off = 0, k;
	int		 i;

	while (off < n) {
		for (i = 0; i < 8; i++)
			in[i] = (uint8_t)(rng_ctr >> (8 * i));
		rng_ctr++;
		crypto_hash_sha256(blk, in, sizeof(in));
		k = n - off < sizeof(blk) ? n - off : sizeof(blk);
		memcpy((uint8_t *)p + off, blk, k);
		off += k;
	}
}

static uint32_t
rng_random(void)
{
	uint32_t	 v;

	rng_buf(&v, sizeof(v));
	return v;
}

static const char *
rng_name(void)
{
	return "fuzz-counter";
}

static struct randombytes_implementation	 rng_impl = {
	.implementation_name = rng_name,
	.random = rng_random,
	.buf = rng_buf,
};

/* ---- an in-memory store, shaped as store/signal.c ---- */

struct rec {
	bool		 used;
	char		 group[WA_SIGNAL_NAME_MAX + 1];	/* "" for a session */
	struct wa_signal_addr a;
	struct buf	 b;
};

struct mem {
	struct rec		 r[NREC];
	struct wa_signal_own	 own;
	bool			 has_prekey;
	uint32_t		 pk_id;
	uint8_t			 pk_priv[32], pk_pub[32];
	bool			 has_id;
	struct wa_signal_addr	 id_a;
	uint8_t			 id_key[32];
	int64_t			 now;
};

static struct rec *
find(struct mem *m, const char *group, const struct wa_signal_addr *a,
    bool make)
{
	size_t	 i;

	for (i = 0; i < NREC; i++)
		if (m->r[i].used && strcmp(m->r[i].group, group) == 0 &&
		    strcmp(m->r[i].a.name, a->name) == 0 &&
		    m->r[i].a.device == a->device)
			return &m->r[i];
	for (i = 0; make && i < NREC; i++)
		if (!m->r[i].used) {
			m->r[i].used = true;
			snprintf(m->r[i].group, sizeof(m->r[i].group), "%s",
			    group);
			m->r[i].a = *a;
			m->r[i].b.len = 0;
			return &m->r[i];
		}
	return NULL;
}

static int
rec_load(struct mem *m, const char *group, const struct wa_signal_addr *a,
    struct buf *out)
{
	struct rec	*r = find(m, group, a, false);

	if (r == NULL)
		return 0;
	if (r->b.len == 0 || r->b.len > RECORD_MAX)
		return -EIO;	/* store/signal.c: "the stored record is corrupt" */
	buf_append(out, r->b.p, r->b.len);
	return 1;
}

static int
rec_store(struct mem *m, const char *group, const struct wa_signal_addr *a,
    const uint8_t *p, size_t len)
{
	struct rec	*r;

	if (len == 0 || len > RECORD_MAX)
		return -EINVAL;
	if ((r = find(m, group, a, true)) == NULL)
		return -ENOSPC;
	r->b.len = 0;
	buf_append(&r->b, p, len);
	return 0;
}

static int
m_session_load(void *arg, const struct wa_signal_addr *a, struct buf *out)
{
	return rec_load(arg, "", a, out);
}

static int
m_session_store(void *arg, const struct wa_signal_addr *a, const uint8_t *p,
    size_t len)
{
	return rec_store(arg, "", a, p, len);
}

static int
m_session_contains(void *arg, const struct wa_signal_addr *a)
{
	return find(arg, "", a, false) != NULL;
}

static int
m_session_delete(void *arg, const struct wa_signal_addr *a)
{
	struct rec	*r = find(arg, "", a, false);

	if (r == NULL)
		return 0;
	r->used = false;
	return 1;
}

static int
m_own_load(void *arg, struct wa_signal_own *out)
{
	struct mem	*m = arg;

	*out = m->own;
	return 1;
}

static int
m_prekey_load(void *arg, uint32_t id, uint8_t priv[32], uint8_t pub[32])
{
	struct mem	*m = arg;

	if (!m->has_prekey || m->pk_id != id)
		return 0;
	memcpy(priv, m->pk_priv, 32);
	memcpy(pub, m->pk_pub, 32);
	return 1;
}

static int
m_prekey_remove(void *arg, uint32_t id)
{
	struct mem	*m = arg;

	if (m->has_prekey && m->pk_id == id)
		m->has_prekey = false;
	return 0;
}

static int
m_identity_save(void *arg, const struct wa_signal_addr *a,
    const uint8_t key[32], int64_t now_ms)
{
	struct mem	*m = arg;
	int		 changed;

	(void)now_ms;
	changed = m->has_id && memcmp(m->id_key, key, 32) != 0;
	m->has_id = true;
	m->id_a = *a;
	memcpy(m->id_key, key, 32);
	return changed;
}

static int
m_identity_load(void *arg, const struct wa_signal_addr *a, uint8_t key[32])
{
	struct mem	*m = arg;

	if (!m->has_id || strcmp(m->id_a.name, a->name) != 0 ||
	    m->id_a.device != a->device)
		return 0;
	memcpy(key, m->id_key, 32);
	return 1;
}

static int
m_sk_load(void *arg, const char *group, const struct wa_signal_addr *a,
    struct buf *out)
{
	return rec_load(arg, group, a, out);
}

static int
m_sk_store(void *arg, const char *group, const struct wa_signal_addr *a,
    const uint8_t *p, size_t len)
{
	return rec_store(arg, group, a, p, len);
}

static int
m_tx(void *arg)
{
	(void)arg;
	return 0;
}

static int64_t
m_now(void *arg)
{
	return ((struct mem *)arg)->now;
}

static void
ops_init(struct wa_signal_store_ops *o, struct mem *m)
{
	memset(o, 0, sizeof(*o));
	o->session_load = m_session_load;
	o->session_store = m_session_store;
	o->session_contains = m_session_contains;
	o->session_delete = m_session_delete;
	o->own_load = m_own_load;
	o->prekey_load = m_prekey_load;
	o->prekey_remove = m_prekey_remove;
	o->identity_save = m_identity_save;
	o->identity_load = m_identity_load;
	o->sender_key_load = m_sk_load;
	o->sender_key_store = m_sk_store;
	o->tx_begin = o->tx_commit = o->tx_rollback = m_tx;
	o->arg = m;
}

/* Copy src's contents into dst (records deep-copied). */
static void
mem_copy(struct mem *dst, const struct mem *src)
{
	size_t	 i;

	for (i = 0; i < NREC; i++) {
		struct buf	 keep = dst->r[i].b;

		dst->r[i] = src->r[i];
		dst->r[i].b = keep;
		dst->r[i].b.len = 0;
		if (src->r[i].used)
			buf_append(&dst->r[i].b, src->r[i].b.p,
			    src->r[i].b.len);
	}
	dst->own = src->own;
	dst->has_prekey = src->has_prekey;
	dst->pk_id = src->pk_id;
	memcpy(dst->pk_priv, src->pk_priv, 32);
	memcpy(dst->pk_pub, src->pk_pub, 32);
	dst->has_id = src->has_id;
	dst->id_a = src->id_a;
	memcpy(dst->id_key, src->id_key, 32);
	dst->now = src->now;
}

/* A call's result: any error code is fine, a positive one beyond 1 is not. */
static void
any(int rc)
{
	if (rc > 1)
		abort();
}

/* ---- the world ---- */

struct world {
	struct mem			 a0, b;	/* A's stores as made; B's */
	struct mem			 a;	/* A's, per input */
	struct wa_signal_store_ops	 aops, bops;
	struct wa_signal		*as, *bs;
	struct wa_signal_addr		 aa, ba;
	struct wa_signal_bundle		 bbundle;
	struct buf			 pkmsg, msg, skmsg, skdm;
};

static void
party(struct mem *m, const char *label, uint32_t regid)
{
	uint8_t	 seed[64], sm[33], rnd[64];

	memset(m, 0, sizeof(*m));
	m->now = 1750000000000LL;
	wa_crypto_sha256(label, strlen(label), seed);
	memcpy(m->own.identity_priv, seed, 32);
	wa_crypto_x25519_base(m->own.identity_priv, m->own.identity_pub);
	m->own.registration_id = regid;
	m->own.spk_id = 1;
	wa_crypto_sha256(m->own.identity_priv, 32, m->own.spk_priv);
	wa_crypto_x25519_base(m->own.spk_priv, m->own.spk_pub);
	sm[0] = 0x05;
	memcpy(sm + 1, m->own.spk_pub, 32);
	memset(rnd, 0x42, sizeof(rnd));
	if (wa_crypto_xeddsa_sign(m->own.identity_priv, sm, sizeof(sm), rnd,
	    m->own.spk_sig) != 0)
		abort();
	m->has_prekey = true;
	m->pk_id = PREKEY_ID;
	wa_crypto_sha256(m->own.spk_priv, 32, m->pk_priv);
	wa_crypto_x25519_base(m->pk_priv, m->pk_pub);
}

static void
world_init(struct world *w)
{
	struct wa_signal_bundle	 ab;
	struct buf		 pt = BUF_INIT;
	enum wa_signal_type	 t;

	memset(w, 0, sizeof(*w));
	randombytes_set_implementation(&rng_impl);
	rng_ctr = 0;
	if (wa_crypto_init() != 0)
		abort();
	party(&w->a0, "fuzz party A", 1234);
	party(&w->b, "fuzz party B", 4321);
	ops_init(&w->aops, &w->a0);
	ops_init(&w->bops, &w->b);
	if (wa_signal_addr_from_jid(A_JID, strlen(A_JID), &w->aa) != 0 ||
	    wa_signal_addr_from_jid(B_JID, strlen(B_JID), &w->ba) != 0 ||
	    wa_signal_new(&w->aops, m_now, &w->a0, &w->as) != 0 ||
	    wa_signal_new(&w->bops, m_now, &w->b, &w->bs) != 0)
		abort();
	/* B's and A's bundles, as the server hands them out (8.1). */
	memset(&ab, 0, sizeof(ab));
	ab.registration_id = w->a0.own.registration_id;
	memcpy(ab.identity, w->a0.own.identity_pub, 32);
	ab.spk_id = w->a0.own.spk_id;
	memcpy(ab.spk_pub, w->a0.own.spk_pub, 32);
	memcpy(ab.spk_sig, w->a0.own.spk_sig, 64);
	ab.has_prekey = true;
	ab.prekey_id = PREKEY_ID;
	memcpy(ab.prekey_pub, w->a0.pk_pub, 32);
	w->bbundle = ab;
	w->bbundle.registration_id = w->b.own.registration_id;
	memcpy(w->bbundle.identity, w->b.own.identity_pub, 32);
	memcpy(w->bbundle.spk_pub, w->b.own.spk_pub, 32);
	memcpy(w->bbundle.spk_sig, w->b.own.spk_sig, 64);
	memcpy(w->bbundle.prekey_pub, w->b.pk_pub, 32);
	/* B starts the session: its pkmsg is kept as made. */
	if (wa_signal_process_bundle(w->bs, &w->aa, &ab, NULL) != 0 ||
	    wa_signal_encrypt(w->bs, &w->aa, (const uint8_t *)"hi A", 4, &t,
	    &w->pkmsg) != 0 || t != WA_SIGNAL_PKMSG ||
	    wa_signal_decrypt(w->as, &w->ba, t, w->pkmsg.p, w->pkmsg.len,
	    &pt, NULL) != 0)
		abort();
	/* A answers, so B's next message is a msg. */
	pt.len = 0;
	w->msg.len = 0;
	if (wa_signal_encrypt(w->as, &w->ba, (const uint8_t *)"hi B", 4, &t,
	    &pt) != 0 || wa_signal_decrypt(w->bs, &w->aa, t, pt.p, pt.len,
	    &w->skmsg, NULL) != 0)
		abort();
	/* The session A keeps now is the one before B's msg below. */
	if (wa_signal_encrypt(w->bs, &w->aa, (const uint8_t *)"again", 5, &t,
	    &w->msg) != 0 || t != WA_SIGNAL_MSG)
		abort();
	/* Group: B's SKDM and skmsg; A has processed the SKDM. */
	w->skmsg.len = 0;
	if (wa_signal_group_skdm(w->bs, GROUP, &w->ba, &w->skdm) != 0 ||
	    wa_signal_group_encrypt(w->bs, GROUP, &w->ba,
	    (const uint8_t *)"to all", 6, &w->skmsg) != 0 ||
	    wa_signal_group_process_skdm(w->as, GROUP, &w->ba, w->skdm.p,
	    w->skdm.len) != 0)
		abort();
	pt.len = 0;
	if (wa_signal_group_skdm(w->as, GROUP, &w->aa, &pt) != 0)
		abort();
	buf_release(&pt);
	/* B's pkmsg consumed our prekey; a damaged session record must not
	 * stop the pkmsg from reaching the prekey path. */
	w->a0.has_prekey = true;
	/* From here on A's context runs over the per-input copy. */
	w->aops.arg = &w->a;
	wa_signal_free(w->as);
	if (wa_signal_new(&w->aops, m_now, &w->a, &w->as) != 0)
		abort();
}

/* Replace A's record (group "" for a session) by p[0..len). */
static void
set_rec(struct world *w, const char *group, const struct wa_signal_addr *a,
    const uint8_t *p, size_t len)
{
	struct rec	*r;

	mem_copy(&w->a, &w->a0);
	if ((r = find(&w->a, group, a, true)) == NULL)
		abort();
	r->b.len = 0;
	buf_append(&r->b, p, len);	/* 0 bytes: a corrupt row */
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

static void
set_own(struct world *w, const uint8_t *p)
{
	struct wa_signal_own	*o = &w->a.own;

	mem_copy(&w->a, &w->a0);
	memcpy(o->identity_priv, p, 32);
	memcpy(o->identity_pub, p + 32, 32);
	o->registration_id = be32(p + 64);
	o->spk_id = be32(p + 68);
	memcpy(o->spk_priv, p + 72, 32);
	memcpy(o->spk_pub, p + 104, 32);
	memcpy(o->spk_sig, p + 136, 64);
	w->a.pk_id = be32(p + 200);
	memcpy(w->a.pk_priv, p + 204, 32);
	memcpy(w->a.pk_pub, p + 236, 32);
	w->a.has_prekey = true;
}

static void
session_ops(struct world *w, const uint8_t *p, size_t len)
{
	struct buf		 out = BUF_INIT;
	enum wa_signal_type	 t;
	uint8_t			 key[32];

	set_rec(w, "", &w->ba, p, len);
	any(wa_signal_has_session(w->as, &w->ba));
	any(wa_signal_remote_identity(w->as, &w->ba, key));
	any(wa_signal_encrypt(w->as, &w->ba, (const uint8_t *)"x", 1, &t,
	    &out));
	any(wa_signal_decrypt(w->as, &w->ba, WA_SIGNAL_MSG, w->msg.p,
	    w->msg.len, &out, NULL));
	set_rec(w, "", &w->ba, p, len);
	any(wa_signal_decrypt(w->as, &w->ba, WA_SIGNAL_PKMSG, w->pkmsg.p,
	    w->pkmsg.len, &out, NULL));
	buf_release(&out);
}

static void
sender_key_ops(struct world *w, bool own, const uint8_t *p, size_t len)
{
	struct buf	 out = BUF_INIT;

	set_rec(w, GROUP, own ? &w->aa : &w->ba, p, len);
	if (own) {
		any(wa_signal_group_encrypt(w->as, GROUP, &w->aa,
		    (const uint8_t *)"y", 1, &out));
		any(wa_signal_group_skdm(w->as, GROUP, &w->aa, &out));
	} else {
		any(wa_signal_group_decrypt(w->as, GROUP, &w->ba,
		    w->skmsg.p, w->skmsg.len, &out));
		set_rec(w, GROUP, &w->ba, p, len);
		any(wa_signal_group_process_skdm(w->as, GROUP, &w->ba,
		    w->skdm.p, w->skdm.len));
	}
	buf_release(&out);
}

static void
own_ops(struct world *w, const uint8_t *p)
{
	struct buf		 out = BUF_INIT;
	enum wa_signal_type	 t;

	set_own(w, p);
	/* No session with B yet: the pkmsg makes it from our keys. */
	(void)m_session_delete(&w->a, &w->ba);
	any(wa_signal_decrypt(w->as, &w->ba, WA_SIGNAL_PKMSG, w->pkmsg.p,
	    w->pkmsg.len, &out, NULL));
	any(wa_signal_process_bundle(w->as, &w->ba, &w->bbundle, NULL));
	any(wa_signal_encrypt(w->as, &w->ba, (const uint8_t *)"z", 1, &t,
	    &out));
	buf_release(&out);
}

static void
identity_ops(struct world *w, const uint8_t *p)
{
	struct buf	 out = BUF_INIT;
	uint8_t		 key[32];
	bool		 changed;

	mem_copy(&w->a, &w->a0);
	w->a.has_id = true;
	w->a.id_a = w->ba;
	memcpy(w->a.id_key, p, 32);
	if (wa_signal_remote_identity(w->as, &w->ba, key) != 1 ||
	    memcmp(key, p, 32) != 0)
		abort();
	(void)m_session_delete(&w->a, &w->ba);
	if (wa_signal_decrypt(w->as, &w->ba, WA_SIGNAL_PKMSG, w->pkmsg.p,
	    w->pkmsg.len, &out, &changed) == 0 &&
	    changed != (memcmp(p, w->b.own.identity_pub, 32) != 0))
		abort();
	buf_release(&out);
}

static struct world	 w;	/* made once; A's copy reset per input */
static int		 ready;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1 || size > RECORD_MAX + 1)
		return 0;
	if (!ready) {
		world_init(&w);
		ready = 1;
	}
	rng_ctr = 1u << 20;	/* the same stream for every input */
	switch (data[0] % 5) {
	case 0:
		session_ops(&w, data + 1, size - 1);
		break;
	case 1:
	case 2:
		sender_key_ops(&w, data[0] % 5 == 2, data + 1, size - 1);
		break;
	case 3:
		if (size - 1 == OWN_LEN)
			own_ops(&w, data + 1);
		break;
	default:
		if (size - 1 == 32)	/* store/signal.c refuses others */
			identity_ops(&w, data + 1);
		break;
	}
	return 0;
}

#ifdef WA_SIGREC_WRITE_SEEDS
static void
seed(const char *dir, const char *name, uint8_t mode, const uint8_t *p,
    size_t len)
{
	char	 path[4096];
	FILE	*f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if ((f = fopen(path, "wb")) == NULL || fputc(mode, f) == EOF ||
	    (len > 0 && fwrite(p, 1, len, f) != len) || fclose(f) != 0)
		abort();
}

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

int
main(int argc, char **argv)
{
	const char		*dir = argc > 1 ? argv[1] : ".";
	const struct rec	*r;
	uint8_t			 own[OWN_LEN];
	const struct wa_signal_own *o;

	world_init(&w);
	if ((r = find(&w.a0, "", &w.ba, false)) == NULL)
		abort();
	seed(dir, "session", 0, r->b.p, r->b.len);
	seed(dir, "session-truncated", 0, r->b.p, r->b.len / 2);
	seed(dir, "session-empty", 0, NULL, 0);
	if ((r = find(&w.a0, GROUP, &w.ba, false)) == NULL)
		abort();
	seed(dir, "sender-key", 1, r->b.p, r->b.len);
	seed(dir, "sender-key-truncated", 1, r->b.p, r->b.len - 7);
	if ((r = find(&w.a0, GROUP, &w.aa, false)) == NULL)
		abort();
	seed(dir, "own-sender-key", 2, r->b.p, r->b.len);
	o = &w.a0.own;
	memcpy(own, o->identity_priv, 32);
	memcpy(own + 32, o->identity_pub, 32);
	put32(own + 64, o->registration_id);
	put32(own + 68, o->spk_id);
	memcpy(own + 72, o->spk_priv, 32);
	memcpy(own + 104, o->spk_pub, 32);
	memcpy(own + 136, o->spk_sig, 64);
	put32(own + 200, PREKEY_ID);
	memcpy(own + 204, w.a0.pk_priv, 32);
	memcpy(own + 236, w.a0.pk_pub, 32);
	seed(dir, "own-prekey", 3, own, sizeof(own));
	memset(own + 236, 0, 32);	/* a zero (low-order) prekey */
	seed(dir, "own-prekey-zero", 3, own, sizeof(own));
	seed(dir, "identity", 4, w.b.own.identity_pub, 32);
	seed(dir, "identity-other", 4, w.a0.own.identity_pub, 32);
	return 0;
}
#endif
