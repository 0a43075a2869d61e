/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/usync.c -- device lists and prekey bundles (proto/usync.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "proto/node.h"
#include "proto/usync.h"

static int
check_n(size_t n)
{
	return n == 0 || n > WA_USYNC_MAX_USERS ? -EINVAL : 0;
}

int
wa_usync_devices_query(const char *id, const char *sid,
    const char *const *users, size_t n, struct arena *a, struct wa_node **out)
{
	struct wa_node	*iq, *us, *c, *q, *qc, *list, *u;
	size_t		 i;

	if (check_n(n) != 0 || id == NULL || sid == NULL)
		return -EINVAL;
	iq = wa_nb_new(a, "iq", 4);
	wa_nb_attr(iq, "id", id);
	wa_nb_attr(iq, "xmlns", "usync");
	wa_nb_attr(iq, "type", "get");
	wa_nb_attr_server(iq, "to");
	us = wa_nb_kid(a, wa_nb_kids(a, iq, 1), "usync", 5);
	wa_nb_attr(us, "sid", sid);
	wa_nb_attr(us, "mode", "query");
	wa_nb_attr(us, "last", "true");
	wa_nb_attr(us, "index", "0");
	wa_nb_attr(us, "context", "message");
	c = wa_nb_kids(a, us, 2);
	q = wa_nb_kid(a, &c[0], "query", 0);
	qc = wa_nb_kids(a, q, 2);
	wa_nb_attr(wa_nb_kid(a, &qc[0], "devices", 1), "version", "2");
	wa_nb_kid(a, &qc[1], "lid", 0);
	list = wa_nb_kid(a, &c[1], "list", 0);
	u = wa_nb_kids(a, list, n);
	for (i = 0; i < n; i++)
		if (wa_nb_attr_jid(wa_nb_kid(a, &u[i], "user", 1), "jid",
		    users[i]) != 0)
			return -EINVAL;
	*out = iq;
	return 0;
}

/* A decimal attribute 0..max, or -1. */
static long
num_attr(const struct wa_node *n, const char *key, long max)
{
	struct wa_str	 s = wa_node_str(n, key);
	long		 v = 0;
	size_t		 i;

	if (s.len == 0 || s.len > 9)
		return -1;
	for (i = 0; i < s.len; i++) {
		if (s.p[i] < '0' || s.p[i] > '9')
			return -1;
		v = v * 10 + (s.p[i] - '0');
	}
	return v > max ? -1 : v;
}

static int
parse_user(const struct wa_node *un, struct wa_usync_user *u)
{
	const struct wa_node	*dl, *d, *l;
	size_t			 i;
	long			 id;

	memset(u, 0, sizeof(*u));
	if (!wa_node_jid(un, "jid", u->jid, sizeof(u->jid)))
		return WC_EPROTO;
	if (wa_node_child(un, "error") != NULL)
		u->error = true;
	if ((l = wa_node_child(un, "lid")) != NULL &&
	    !wa_node_jid(l, "val", u->lid, sizeof(u->lid)))
		u->lid[0] = '\0';
	dl = wa_node_child(wa_node_child(un, "devices"), "device-list");
	if (dl == NULL) {
		if (wa_node_child(un, "devices") != NULL &&
		    wa_node_child(wa_node_child(un, "devices"), "error") !=
		    NULL)
			u->error = true;
		return 0;
	}
	for (i = 0; i < wa_node_nkids(dl); i++) {
		d = wa_node_kid(dl, i);
		if (!wa_str_eqc(d->tag, "device"))
			continue;
		if ((id = num_attr(d, "id", 255)) < 0)
			return WC_EPROTO;
		if (id > 0 && wa_node_str(d, "key-index").len == 0)
			continue;	/* 8.2: as Baileys */
		if (wa_node_str_is(d, "is_hosted", "true"))
			continue;
		if (u->n_devices < WA_USYNC_MAX_DEVICES)
			u->devices[u->n_devices++] = (uint16_t)id;
	}
	return 0;
}

int
wa_usync_devices_parse(const struct wa_node *iq, struct wa_usync_user *out,
    size_t max)
{
	const struct wa_node	*list;
	size_t			 i, n = 0;
	int			 rc;

	if (!wa_node_str_is(iq, "type", "result"))
		return WC_EPROTO;
	list = wa_node_child(wa_node_child(iq, "usync"), "list");
	if (list == NULL)
		return WC_EPROTO;
	for (i = 0; i < wa_node_nkids(list) && n < max; i++) {
		if (!wa_str_eqc(wa_node_kid(list, i)->tag, "user"))
			continue;
		if ((rc = parse_user(wa_node_kid(list, i), &out[n])) != 0)
			return rc;
		n++;
	}
	return (int)n;
}

int
wa_usync_keys_query(const char *id, const char *const *jids, size_t n,
    struct arena *a, struct wa_node **out)
{
	struct wa_node	*iq, *key, *u;
	size_t		 i;

	if (check_n(n) != 0 || id == NULL)
		return -EINVAL;
	iq = wa_nb_new(a, "iq", 4);
	wa_nb_attr(iq, "id", id);
	wa_nb_attr(iq, "xmlns", "encrypt");
	wa_nb_attr(iq, "type", "get");
	wa_nb_attr_server(iq, "to");
	key = wa_nb_kid(a, wa_nb_kids(a, iq, 1), "key", 0);
	u = wa_nb_kids(a, key, n);
	for (i = 0; i < n; i++) {
		wa_nb_kid(a, &u[i], "user", 2);
		if (wa_nb_attr_jid(&u[i], "jid", jids[i]) != 0)
			return -EINVAL;
		wa_nb_attr(&u[i], "reason", "identity");
	}
	*out = iq;
	return 0;
}

/* The bytes of child tag of n, exactly len of them. */
static const uint8_t *
exact(const struct wa_node *n, const char *tag, size_t len)
{
	const uint8_t	*p;
	size_t		 l;

	if (!wa_node_bytes(wa_node_child(n, tag), &p, &l) || l != len)
		return NULL;
	return p;
}

static uint32_t
be(const uint8_t *p, size_t n)
{
	uint32_t	 v = 0;
	size_t		 i;

	for (i = 0; i < n; i++)
		v = v << 8 | p[i];
	return v;
}

int
wa_usync_bundle_of(const struct wa_node *k, uint32_t regid,
    struct wa_signal_bundle *out)
{
	const struct wa_node	*sk = wa_node_child(k, "skey");
	const struct wa_node	*ok = wa_node_child(k, "key");
	const uint8_t		*idn, *sid, *sv, *sg, *kid, *kv;

	if ((idn = exact(k, "identity", 32)) == NULL ||
	    (sid = exact(sk, "id", 3)) == NULL ||
	    (sv = exact(sk, "value", 32)) == NULL ||
	    (sg = exact(sk, "signature", 64)) == NULL)
		return WC_EPROTO;
	memset(out, 0, sizeof(*out));
	out->registration_id = regid;
	memcpy(out->identity, idn, 32);
	out->spk_id = be(sid, 3);
	memcpy(out->spk_pub, sv, 32);
	memcpy(out->spk_sig, sg, 64);
	if (ok != NULL) {
		if ((kid = exact(ok, "id", 3)) == NULL ||
		    (kv = exact(ok, "value", 32)) == NULL)
			return WC_EPROTO;
		out->has_prekey = true;
		out->prekey_id = be(kid, 3);
		memcpy(out->prekey_pub, kv, 32);
	}
	return 0;
}

int
wa_usync_bundle(const struct wa_node *iq, const char *jid,
    struct wa_signal_bundle *out)
{
	const struct wa_node	*list = wa_node_child(iq, "list"), *u;
	const uint8_t		*reg;
	char			 j[WA_USYNC_JID_MAX];
	size_t			 i;
	int			 rc;

	for (i = 0; i < wa_node_nkids(list); i++) {
		u = wa_node_kid(list, i);
		if (!wa_str_eqc(u->tag, "user") ||
		    !wa_node_jid(u, "jid", j, sizeof(j)) || strcmp(j, jid) != 0)
			continue;
		if (wa_node_child(u, "error") != NULL)
			return 0;
		/* [WM] also accepts the parts inside <keys>. */
		if (wa_node_child(u, "keys") != NULL &&
		    wa_node_child(u, "identity") == NULL)
			u = wa_node_child(u, "keys");
		if ((reg = exact(wa_node_kid(list, i), "registration", 4)) == NULL &&
		    (reg = exact(u, "registration", 4)) == NULL)
			return WC_EPROTO;
		if ((rc = wa_usync_bundle_of(u, be(reg, 4), out)) != 0)
			return rc;
		return 1;
	}
	return 0;
}
