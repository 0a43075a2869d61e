/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/prekeys.c -- what the simulator answers a logged-in companion
 * (protocol.md 7; interop.md 3-4): the prekey count and upload (checked,
 * stored per device), passive/active, the key-bundle digest, props,
 * blocklist, privacy, usync (8.2), and the low-prekey encrypt
 * notification (7.4) when the admin hands keys out.  An iq it does not
 * know is answered with error 501 and logged as unanswered, so that no
 * client waits on a query timeout.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <openssl/evp.h>

#include "base/arena.h"
#include "proto/crypto.h"
#include "nodes.h"
#include "session.h"
#include "sim.h"
#include "base/xmalloc.h"
#include "tokens.h"

bool
sim_node_bytes(const struct wa_node *n, const uint8_t **p, size_t *len)
{
	if (n == NULL || (n->content.kind != WA_VAL_BYTES &&
	    n->content.kind != WA_VAL_STR))
		return false;
	*p = (const uint8_t *)n->content.u.str.p;
	*len = n->content.u.str.len;
	return true;
}

/* The id of n as a C string. */
static void
node_id(const struct wa_node *n, char *out, size_t len)
{
	struct wa_str	 id = sn_get(n, "id");

	snprintf(out, len, "%.*s", (int)id.len, id.p);
}

/* A result or error iq answering n, to be filled and sent. */
static struct wa_node *
answer(struct arena *a, const struct wa_node *n, const char *type)
{
	struct wa_node	*r = sn_new(a, "iq");
	char		 id[64];

	node_id(n, id, sizeof(id));
	sn_attr_jid(a, r, "from", "", "s.whatsapp.net", 0);
	sn_attr(a, r, "type", type);
	sn_attr(a, r, "id", id);
	return r;
}

static void
send_free(struct sim_conn *c, struct arena *a, struct wa_node *r)
{
	(void)sim_conn_send_node(c, r);
	arena_release(a);
	c->answered++;
}

struct wa_node *
sim_iq_answer(struct arena *a, const struct wa_node *n, const char *type)
{
	return answer(a, n, type);
}

void
sim_iq_send_free(struct sim_conn *c, struct arena *a, struct wa_node *r)
{
	send_free(c, a, r);
}

void
sim_iq_result(struct sim_conn *c, const struct wa_node *n)
{
	struct arena	 a;

	arena_init(&a, 0);
	send_free(c, &a, answer(&a, n, "result"));
}

void
sim_iq_error(struct sim_conn *c, const struct wa_node *n, int code,
    const char *text)
{
	struct arena	 a;
	struct wa_node	*r, *e;
	char		 v[16];

	arena_init(&a, 0);
	r = answer(&a, n, "error");
	e = sn_child(&a, r, "error");
	snprintf(v, sizeof(v), "%d", code);
	sn_attr(&a, e, "code", v);
	sn_attr(&a, e, "text", text);
	send_free(c, &a, r);
}

/* Big-endian value of exactly len (1-4) bytes in node n; -1 if absent. */
static int64_t
be_child(const struct wa_node *n, size_t want)
{
	const uint8_t	*p;
	size_t		 len, i;
	uint32_t	 v = 0;

	if (!sim_node_bytes(n, &p, &len) || len != want)
		return -1;
	for (i = 0; i < len; i++)
		v = v << 8 | p[i];
	return v;
}

/* Copy exactly len bytes of n's content to out; false otherwise. */
static bool
take(const struct wa_node *n, uint8_t *out, size_t want)
{
	const uint8_t	*p;
	size_t		 len;

	if (!sim_node_bytes(n, &p, &len) || len != want)
		return false;
	memcpy(out, p, want);
	return true;
}

static int
otk_cmp(const void *a, const void *b)
{
	uint32_t	 x = ((const struct sim_otk *)a)->id;
	uint32_t	 y = ((const struct sim_otk *)b)->id;

	return x < y ? -1 : x > y;
}

static struct sim_otk *
otk_find(struct sim_otk *v, size_t n, uint32_t id)
{
	struct sim_otk	 k = { .id = id };

	return n == 0 ? NULL : bsearch(&k, v, n, sizeof(*v), otk_cmp);
}

static void
otk_push(struct sim_otk **v, size_t *n, size_t *cap, const struct sim_otk *k)
{
	if (*n == *cap) {
		*cap = *cap == 0 ? 1024 : 2 * *cap;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = *k;
}

void
sim_prekeys_release(struct sim_device *d)
{
	free(d->otks);
	free(d->hist);
	d->otks = d->hist = NULL;
	d->notks = d->otks_cap = d->nhist = d->hist_cap = 0;
}

/*
 * <iq xmlns="encrypt" type="set"> with <registration>, <type>, <identity>,
 * <list> and <skey> (protocol.md 7.3).  Returns NULL when stored, else
 * why it was refused.
 */
static const char *
upload(struct sim_conn *c, const struct wa_node *n, size_t *nkeys)
{
	struct sim_device	*d = c->dev;
	const struct wa_node	*list, *skey, *t;
	struct sim_otk		*keys = NULL;
	uint8_t			 ident[SIM_KEY_LEN], spk[SIM_KEY_LEN];
	uint8_t			 sig[64], msg[1 + SIM_KEY_LEN];
	int64_t			 reg, spk_id;
	size_t			 i, nk = 0, cap = 0, nnew = 0, nhist, nheld;
	const char		*why = NULL;

	if ((reg = be_child(sn_find(n, "registration"), 4)) < 0)
		return "<registration> is not 4 bytes";
	if ((t = sn_find(n, "type")) == NULL || be_child(t, 1) != 5)
		return "<type> is not 05";
	if (!take(sn_find(n, "identity"), ident, SIM_KEY_LEN))
		return "<identity> is not 32 bytes";
	if (memcmp(ident, d->ident_pub, SIM_KEY_LEN) != 0)
		return "<identity> is not the identity paired";
	if ((list = sn_find(n, "list")) == NULL)
		return "no <list>";
	if ((skey = sn_find(n, "skey")) == NULL ||
	    (spk_id = be_child(sn_find(skey, "id"), 3)) < 0 ||
	    !take(sn_find(skey, "value"), spk, SIM_KEY_LEN) ||
	    !take(sn_find(skey, "signature"), sig, 64))
		return "<skey> lacks a 3-byte id, 32-byte value or 64-byte "
		    "signature";
	msg[0] = 5;
	memcpy(msg + 1, spk, SIM_KEY_LEN);
	if (wa_crypto_xeddsa_verify(ident, msg, sizeof(msg), sig) != 0)
		return "the signed prekey's signature does not verify";
	for (i = 0; list->content.kind == WA_VAL_LIST &&
	    i < list->content.u.list.n; i++) {
		const struct wa_node	*k = &list->content.u.list.v[i];
		struct sim_otk		 o;
		int64_t			 id;

		if (!sn_is(k, "key")) {
			why = "<list> has a child that is not <key>";
			goto out;
		}
		if ((id = be_child(sn_find(k, "id"), 3)) <= 0) {
			why = "a <key> id is not 3 bytes (or is 0)";
			goto out;
		}
		if (!take(sn_find(k, "value"), o.pub, SIM_KEY_LEN)) {
			why = "a <key> value is not 32 bytes";
			goto out;
		}
		o.id = (uint32_t)id;
		otk_push(&keys, &nk, &cap, &o);
	}
	if (nk == 0) {
		why = "<list> is empty";
		goto out;
	}
	qsort(keys, nk, sizeof(*keys), otk_cmp);
	for (i = 1; i < nk; i++)
		if (keys[i].id == keys[i - 1].id) {
			why = "a prekey id appears twice in <list>";
			goto out;
		}
	/* Accepted: merge into what the device holds and its history. */
	d->reg_id = (uint32_t)reg;
	d->spk_id = (uint32_t)spk_id;
	memcpy(d->spk_pub, spk, SIM_KEY_LEN);
	memcpy(d->spk_sig, sig, 64);
	d->spk_verified = true;
	/* Search only the sorted prefixes: the tails grow in this loop. */
	nhist = d->nhist;
	nheld = d->notks;
	for (i = 0; i < nk; i++) {
		struct sim_otk	*h = otk_find(d->hist, nhist, keys[i].id);
		struct sim_otk	*held = otk_find(d->otks, nheld, keys[i].id);

		if (h != NULL && memcmp(h->pub, keys[i].pub, SIM_KEY_LEN) != 0) {
			d->id_conflicts++;
			sim_conn_log(c, "prekey id %" PRIu32 " uploaded again "
			    "with a different key", keys[i].id);
			memcpy(h->pub, keys[i].pub, SIM_KEY_LEN);
		}
		if (held != NULL)
			memcpy(held->pub, keys[i].pub, SIM_KEY_LEN);
		else {
			otk_push(&d->otks, &d->notks, &d->otks_cap, &keys[i]);
			nnew++;
		}
		if (h == NULL)
			otk_push(&d->hist, &d->nhist, &d->hist_cap, &keys[i]);
	}
	qsort(d->otks, d->notks, sizeof(*d->otks), otk_cmp);
	qsort(d->hist, d->nhist, sizeof(*d->hist), otk_cmp);
	d->uploads++;
	*nkeys = nk;
	(void)nnew;
out:
	free(keys);
	return why;
}

/* <iq type="result"><count value="N"/></iq>. */
static void
answer_count(struct sim_conn *c, const struct wa_node *n)
{
	struct arena	 a;
	struct wa_node	*r, *ch;
	char		 v[24];

	arena_init(&a, 0);
	r = answer(&a, n, "result");
	ch = sn_child(&a, r, "count");
	snprintf(v, sizeof(v), "%zu", c->dev->notks);
	sn_attr(&a, ch, "value", v);
	sim_conn_log(c, "prekey count: %zu", c->dev->notks);
	send_free(c, &a, r);
}

static void
put_be(struct arena *a, struct wa_node *n, uint32_t v, size_t len)
{
	uint8_t	 b[4];
	size_t	 i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)(v >> (8 * (len - 1 - i)));
	sn_bytes(a, n, b, len);
}

/* The key-bundle digest (protocol.md 7.5); 404 before any upload. */
static void
answer_digest(struct sim_conn *c, const struct wa_node *n)
{
	struct sim_device	*d = c->dev;
	struct arena		 a;
	struct wa_node		*r, *dg, *sk, *ch, *list;
	EVP_MD_CTX		*md;
	uint8_t			 hash[20], five = 5;
	unsigned		 hl = 0;
	size_t			 i;

	if (d->uploads == 0) {
		sim_iq_error(c, n, 404, "item-not-found");
		return;
	}
	arena_init(&a, 0);
	r = answer(&a, n, "result");
	dg = sn_child(&a, r, "digest");
	put_be(&a, sn_child(&a, dg, "registration"), d->reg_id, 4);
	sn_bytes(&a, sn_child(&a, dg, "type"), &five, 1);
	sn_bytes(&a, sn_child(&a, dg, "identity"), d->ident_pub, SIM_KEY_LEN);
	sk = sn_child(&a, dg, "skey");
	put_be(&a, sn_child(&a, sk, "id"), d->spk_id, 3);
	sn_bytes(&a, sn_child(&a, sk, "value"), d->spk_pub, SIM_KEY_LEN);
	sn_bytes(&a, sn_child(&a, sk, "signature"), d->spk_sig, 64);
	list = sn_child(&a, dg, "list");
	/* Children made in one go: sn_child would copy the array each time. */
	if (d->notks > 0) {
		struct wa_node	*v = arena_alloc(&a, d->notks * sizeof(*v));

		memset(v, 0, d->notks * sizeof(*v));
		for (i = 0; i < d->notks; i++) {
			struct wa_node	*tmp = sn_new(&a, "id");

			put_be(&a, tmp, d->otks[i].id, 3);
			v[i] = *tmp;
		}
		list->content.kind = WA_VAL_LIST;
		list->content.u.list.v = v;
		list->content.u.list.n = d->notks;
	}
	md = EVP_MD_CTX_new();
	if (md == NULL)
		abort();
	EVP_DigestInit_ex(md, EVP_sha1(), NULL);
	EVP_DigestUpdate(md, d->ident_pub, SIM_KEY_LEN);
	EVP_DigestUpdate(md, d->spk_pub, SIM_KEY_LEN);
	EVP_DigestUpdate(md, d->spk_sig, 64);
	for (i = 0; i < d->notks; i++)
		EVP_DigestUpdate(md, d->otks[i].pub, SIM_KEY_LEN);
	EVP_DigestFinal_ex(md, hash, &hl);
	EVP_MD_CTX_free(md);
	ch = sn_child(&a, dg, "hash");
	sn_bytes(&a, ch, hash, sizeof(hash));
	send_free(c, &a, r);
}

/* <props protocol="1" hash="..."/>: no properties. */
static void
answer_props(struct sim_conn *c, const struct wa_node *n)
{
	struct arena	 a;
	struct wa_node	*r, *p;

	arena_init(&a, 0);
	r = answer(&a, n, "result");
	p = sn_child(&a, r, "props");
	sn_attr(&a, p, "protocol", "1");
	sn_attr(&a, p, "hash", "sim");
	send_free(c, &a, r);
}

static void
answer_privacy(struct sim_conn *c, const struct wa_node *n)
{
	static const char *const cats[][2] = {
		{ "last", "all" }, { "online", "all" },
		{ "profile", "all" }, { "status", "all" },
		{ "groupadd", "all" }, { "readreceipts", "all" },
		{ "calladd", "all" }, { "messages", "all" },
	};
	struct arena	 a;
	struct wa_node	*r, *p, *ch;
	size_t		 i;

	arena_init(&a, 0);
	r = answer(&a, n, "result");
	p = sn_child(&a, r, "privacy");
	for (i = 0; i < sizeof(cats) / sizeof(cats[0]); i++) {
		ch = sn_child(&a, p, "category");
		sn_attr(&a, ch, "name", cats[i][0]);
		sn_attr(&a, ch, "value", cats[i][1]);
	}
	send_free(c, &a, r);
}

/* The user part of JID attribute key of n, as a C string. */
bool
sim_jid_user(const struct wa_node *n, const char *key, char *user, size_t ulen,
    bool *lid)
{
	const struct wa_val	*v = wa_node_attr(n, key);
	struct wa_str		 u, srv;
	const char		*at, *colon;

	if (v == NULL)
		return false;
	if (v->kind == WA_VAL_JID) {
		u = v->u.jid.user;
		srv = v->u.jid.server;
	} else if (v->kind == WA_VAL_STR) {
		at = memchr(v->u.str.p, '@', v->u.str.len);
		if (at == NULL)
			return false;
		u.p = v->u.str.p;
		u.len = (size_t)(at - v->u.str.p);
		srv.p = at + 1;
		srv.len = v->u.str.len - u.len - 1;
	} else
		return false;
	if ((colon = memchr(u.p, ':', u.len)) != NULL)
		u.len = (size_t)(colon - u.p);
	if (u.len == 0 || u.len >= ulen)
		return false;
	memcpy(user, u.p, u.len);
	user[u.len] = '\0';
	*lid = wa_str_eqc(srv, "lid");
	return true;
}

/* usync (protocol.md 8.2): device lists and LIDs of known accounts. */
static void
answer_usync(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_node	*us = sn_find(n, "usync"), *q, *list;
	struct arena		 a;
	struct wa_node		*r, *rus, *rlist;
	bool			 want_dev, want_lid, want_status;
	size_t			 i;

	if (us == NULL || (q = sn_find(us, "query")) == NULL ||
	    (list = sn_find(us, "list")) == NULL) {
		sim_iq_error(c, n, 400, "bad-request");
		return;
	}
	want_dev = sn_find(q, "devices") != NULL;
	want_lid = sn_find(q, "lid") != NULL;
	want_status = sn_find(q, "status") != NULL;
	arena_init(&a, 0);
	r = answer(&a, n, "result");
	rus = sn_child(&a, r, "usync");
	{
		struct wa_str	 sid = sn_get(us, "sid");
		char		 tmp[64];

		snprintf(tmp, sizeof(tmp), "%.*s", (int)sid.len, sid.p);
		sn_attr(&a, rus, "sid", tmp);
	}
	sn_attr(&a, rus, "mode", "query");
	sn_attr(&a, rus, "last", "true");
	sn_attr(&a, rus, "index", "0");
	rlist = sn_child(&a, rus, "list");
	for (i = 0; list->content.kind == WA_VAL_LIST &&
	    i < list->content.u.list.n; i++) {
		const struct wa_node	*u = &list->content.u.list.v[i];
		struct sim_account	*acct;
		struct wa_node		*ru, *devs, *dl, *dn;
		const struct sim_device	*d;
		char			 user[SIM_PN_MAX], v[16];
		bool			 lid;

		if (!sim_jid_user(u, "jid", user, sizeof(user), &lid))
			continue;
		acct = lid ? sim_account_by_lid(c->s, user) :
		    sim_account_by_pn(c->s, user);
		if (acct == NULL)
			continue;
		ru = sn_child(&a, rlist, "user");
		sn_attr_jid(&a, ru, "jid", user, lid ? "lid" : "s.whatsapp.net",
		    0);
		if (want_dev) {
			devs = sn_child(&a, ru, "devices");
			dl = sn_child(&a, devs, "device-list");
			dn = sn_child(&a, dl, "device");
			sn_attr(&a, dn, "id", "0");
			for (d = acct->devices; d != NULL; d = d->next) {
				if (!d->signed_back || d->removed)
					continue;
				dn = sn_child(&a, dl, "device");
				snprintf(v, sizeof(v), "%u", d->id);
				sn_attr(&a, dn, "id", v);
				snprintf(v, sizeof(v), "%u", d->key_index);
				sn_attr(&a, dn, "key-index", v);
			}
		}
		if (want_lid) {
			dn = sn_child(&a, ru, "lid");
			sn_attr_jid(&a, dn, "val", acct->lid, "lid", 0);
		}
		if (want_status)
			sim_prof_usync_status(&a, ru, acct);
	}
	send_free(c, &a, r);
}

/* <iq xmlns="encrypt" type="set"><list>: the prekey upload (7.2). */
static int
iq_upload(struct sim_conn *c, const struct wa_node *n)
{
	size_t		 nk = 0;
	const char	*why = upload(c, n, &nk);

	if (why != NULL) {
		c->dev->refused_uploads++;
		sim_conn_log(c, "prekey upload refused: %s", why);
		sim_iq_error(c, n, 400, why);
		return 1;
	}
	sim_conn_log(c, "prekey upload: %zu keys, signed prekey %u verified; "
	    "%zu held", nk, c->dev->spk_id, c->dev->notks);
	sim_iq_result(c, n);
	/* Linked and reachable: the phone shares its app-state keys
	 * (appstate.c), then its history follows (history.c). */
	sim_as_linked(c->s, c->acct, c->dev);
	sim_hist_linked(c->s, c->acct, c->dev);
	return 1;
}

/* <iq xmlns="encrypt" type="set"><rotate><skey>: a new signed prekey,
 * its signature checked by the device's identity. */
static int
iq_rotate(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_node	*sk = sn_find(sn_find(n, "rotate"), "skey");
	uint8_t			 spk[SIM_KEY_LEN], sig[64];
	uint8_t			 msg[1 + SIM_KEY_LEN];
	int64_t			 id;

	if (sk == NULL || (id = be_child(sn_find(sk, "id"), 3)) < 0 ||
	    !take(sn_find(sk, "value"), spk, SIM_KEY_LEN) ||
	    !take(sn_find(sk, "signature"), sig, 64)) {
		sim_iq_error(c, n, 400, "bad-request");
		return 1;
	}
	msg[0] = 5;
	memcpy(msg + 1, spk, SIM_KEY_LEN);
	if (wa_crypto_xeddsa_verify(c->dev->ident_pub, msg, sizeof(msg),
	    sig) != 0) {
		sim_iq_error(c, n, 400, "signature-mismatch");
		return 1;
	}
	c->dev->spk_id = (uint32_t)id;
	memcpy(c->dev->spk_pub, spk, SIM_KEY_LEN);
	memcpy(c->dev->spk_sig, sig, 64);
	c->dev->spk_verified = true;
	sim_iq_result(c, n);
	return 1;
}

static int
iq_passive(struct sim_conn *c, const struct wa_node *n)
{
	c->passive = sn_find(n, "passive") != NULL;
	sim_iq_result(c, n);
	/* 7.2: the server delivers the offline backlog once the client
	 * leaves passive mode (offline.c). */
	if (!c->passive)
		sim_offline_start(c);
	return 1;
}

/* A set the sim takes without keeping anything (privacy tokens and
 * settings, the dirty-bit clean). */
static int
iq_ok(struct sim_conn *c, const struct wa_node *n)
{
	sim_iq_result(c, n);
	return 1;
}

static int
iq_count(struct sim_conn *c, const struct wa_node *n)
{
	answer_count(c, n);
	return 1;
}

static int
iq_digest(struct sim_conn *c, const struct wa_node *n)
{
	answer_digest(c, n);
	return 1;
}

static int
iq_props(struct sim_conn *c, const struct wa_node *n)
{
	answer_props(c, n);
	return 1;
}

static int
iq_privacy(struct sim_conn *c, const struct wa_node *n)
{
	answer_privacy(c, n);
	return 1;
}

static int
iq_usync(struct sim_conn *c, const struct wa_node *n)
{
	answer_usync(c, n);
	return 1;
}

#define IQ_GET	0x1
#define IQ_SET	0x2

/*
 * The iqs of a logged-in connection the sim answers: xmlns, the types
 * (get, set), the child the iq must have (or NULL) and the handler (1
 * when it answered).
 */
static const struct connect_iq {
	const char	*xmlns;
	int		 types;
	const char	*child;
	int		(*fn)(struct sim_conn *, const struct wa_node *);
} connect_iqs[] = {
	{ "encrypt", IQ_GET, "count", iq_count },
	{ "encrypt", IQ_SET, "list", iq_upload },
	{ "encrypt", IQ_GET, "digest", iq_digest },
	{ "encrypt", IQ_SET, "rotate", iq_rotate },
	{ "passive", IQ_SET, NULL, iq_passive },
	{ "abt", IQ_GET | IQ_SET, "props", iq_props },
	{ "w", IQ_GET | IQ_SET, "props", iq_props },
	{ "blocklist", IQ_GET, NULL, sim_prof_blocklist_get },	/* profile.c */
	{ "blocklist", IQ_SET, "item", sim_prof_blocklist_set },
	{ "w:profile:picture", IQ_GET, "picture", sim_prof_picture },
	{ "privacy", IQ_GET, NULL, iq_privacy },
	{ "privacy", IQ_SET, "tokens", sim_tok_iq },	/* tokens.c */
	{ "privacy", IQ_SET, NULL, iq_ok },
	{ "usync", IQ_GET, NULL, iq_usync },
	{ "w:m", IQ_SET, "media_conn", sim_hist_media_conn },	/* history.c */
	{ "w:sync:app:state", IQ_SET, "sync", sim_as_iq },	/* appstate.c */
	{ "urn:xmpp:whatsapp:dirty", IQ_SET, NULL, iq_ok },
};

/* Any other iq: never leave a query unanswered. */
static int
iq_unanswered(struct sim_conn *c, const struct wa_node *n)
{
	struct buf	 txt = BUF_INIT;

	c->s->unanswered++;
	c->unknown++;
	wa_bin_print(n, 0, &txt);
	buf_push(&txt, '\0');
	sim_conn_log(c, "unanswered query (sent error 501):\n%s",
	    (char *)txt.p);
	buf_release(&txt);
	sim_iq_error(c, n, 501, "feature-not-implemented");
	return 1;
}

int
sim_connect_handle(struct sim_conn *c, const struct wa_node *n)
{
	struct wa_str		 type = sn_get(n, "type");
	struct wa_str		 xmlns = sn_get(n, "xmlns");
	const struct connect_iq	*q;
	size_t			 i;
	int			 t;

	if (sim_route_handle(c, n))
		return 1;	/* 1:1 messaging: route.c */
	if (sn_is(n, "presence"))
		return 1;	/* before login: ignored */
	if (!c->authed || c->dev == NULL)
		return 0;
	if (sn_is(n, "ack"))
		return 1;	/* the client's ack of a notification */
	t = wa_str_eqc(type, "get") ? IQ_GET : wa_str_eqc(type, "set") ?
	    IQ_SET : 0;
	if (!sn_is(n, "iq") || t == 0)
		return 0;
	for (i = 0; i < sizeof(connect_iqs) / sizeof(connect_iqs[0]); i++) {
		q = &connect_iqs[i];
		if ((q->types & t) != 0 && wa_str_eqc(xmlns, q->xmlns) &&
		    (q->child == NULL || sn_find(n, q->child) != NULL) &&
		    q->fn(c, n))
			return 1;
	}
	return iq_unanswered(c, n);
}

/* <notification type="encrypt"><count value="N"/></notification> (7.4). */
static int
send_low(struct sim_conn *c, size_t count)
{
	struct arena	 a;
	struct wa_node	*n, *ch;
	char		 id[32], v[24];
	int		 rc;

	arena_init(&a, 0);
	n = sn_new(&a, "notification");
	sim_conn_iq_id(c, id, sizeof(id));
	sn_attr_jid(&a, n, "from", "", "s.whatsapp.net", 0);
	sn_attr(&a, n, "type", "encrypt");
	sn_attr(&a, n, "id", id);
	snprintf(v, sizeof(v), "%lld", (long long)time(NULL));
	sn_attr(&a, n, "t", v);
	ch = sn_child(&a, n, "count");
	snprintf(v, sizeof(v), "%zu", count);
	sn_attr(&a, ch, "value", v);
	rc = sim_conn_send_node(c, n);
	arena_release(&a);
	if (rc == 0)
		sim_conn_log(c, "sent encrypt notification: count %zu", count);
	return rc;
}

size_t
sim_prekeys_use(struct sim *s, struct sim_account *a, struct sim_device *d,
    size_t n, unsigned *notified)
{
	struct sim_conn	*c;

	*notified = 0;
	if (n > d->notks)
		n = d->notks;
	if (n > 0)
		memmove(d->otks, d->otks + n, (d->notks - n) *
		    sizeof(*d->otks));
	d->notks -= n;
	d->prekeys_used += n;
	sim_log(s, "%s:%u: %zu prekeys handed out, %zu left", a->pn, d->id, n,
	    d->notks);
	if (d->notks >= SIM_PREKEY_LOW)
		return n;
	for (c = s->conns; c != NULL; c = c->next)
		if (c->authed && c->dev == d && c->st == SIM_C_READY &&
		    send_low(c, d->notks) == 0) {
			(*notified)++;
			d->low_notifications++;
		}
	return n;
}

void
sim_prekeys_json(const struct sim_device *d, struct json_object *o)
{
	struct json_object	*p = json_object_new_object();

	json_object_object_add(p, "count", json_object_new_int64(
	    (int64_t)d->notks));
	json_object_object_add(p, "first_id", json_object_new_int64(
	    d->notks > 0 ? d->otks[0].id : 0));
	json_object_object_add(p, "last_id", json_object_new_int64(
	    d->notks > 0 ? d->otks[d->notks - 1].id : 0));
	json_object_object_add(p, "uploads", json_object_new_int64(
	    (int64_t)d->uploads));
	json_object_object_add(p, "refused_uploads", json_object_new_int64(
	    (int64_t)d->refused_uploads));
	json_object_object_add(p, "ever_uploaded", json_object_new_int64(
	    (int64_t)d->nhist));
	json_object_object_add(p, "used", json_object_new_int64(
	    (int64_t)d->prekeys_used));
	json_object_object_add(p, "id_conflicts", json_object_new_int64(
	    (int64_t)d->id_conflicts));
	json_object_object_add(p, "low_notifications", json_object_new_int64(
	    (int64_t)d->low_notifications));
	json_object_object_add(p, "signed_prekey_verified",
	    json_object_new_boolean(d->spk_verified));
	json_object_object_add(o, "prekeys", p);
}
