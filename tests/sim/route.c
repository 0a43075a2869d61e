/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/route.c -- the server side of 1:1 messaging in the simulator:
 * prekey bundles (protocol.md 8.1), routing <message> stanzas to each
 * named device (9.4, 11.1) with the server ack (9.6), per-device offline
 * queues delivered at login before <ib><offline count=N/> (11.6) and kept
 * until the device acks (11.7), the relay of receipts (9.6), chat states
 * and presence (15), and the devices notification (8.2, 11.7) when a
 * companion is linked or unlinked.  Group messages (10.3, 10.5) fan out to
 * every device of every member (group.c keeps the groups and answers the
 * w:g2 iqs); group receipts go to the author's device; the w:gp2
 * notifications group.c makes are queued here like messages.
 *
 * Stanzas for device 0 (a simulated primary phone) go to s->phone_hook,
 * the seam for phones that decrypt and answer; without a hook they stay
 * queued and are listed by GET /admin/messages.
 *
 * Group messages and receipts are in route-group.c, chat states and
 * presence in route-presence.c.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <openssl/evp.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/group.h"
#include "proto/node.h"
#include "nodes.h"
#include "session.h"
#include "sim.h"
#include "base/xmalloc.h"
#include "route.h"
#include "tokens.h"

#define ROUTE_MAX_USERS		8192	/* <user> children per bundle query */
#define ROUTE_MAX_IDS		64	/* ids per receipt (id + <item>s) */

int64_t	 route_clock_ms;

int64_t
route_now_s(void)
{
	struct timespec	 ts;
	int64_t		 ms;

	if (clock_gettime(CLOCK_REALTIME, &ts) != 0)
		return (int64_t)time(NULL) + route_clock_ms / 1000;
	ms = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + route_clock_ms;
	return ms >= 0 ? ms / 1000 : 0;
}

static void
cstr(struct wa_str v, char *out, size_t len)
{
	if (v.len >= len)
		v.len = len - 1;
	if (v.len > 0)
		memcpy(out, v.p, v.len);
	out[v.len] = '\0';
}

void
route_attr_str(const struct wa_node *n, const char *key, char *out, size_t len)
{
	cstr(sn_get(n, key), out, len);
}

/* Attribute key of n as text: a JID as "user[:device]@server", a string
 * as it is; "" when absent (out[len]). */
static void
attr_text(const struct wa_node *n, const char *key, char *out, size_t len)
{
	if (!wa_node_jid(n, key, out, len))
		route_attr_str(n, key, out, len);
}

/*
 * Parse a JID value: a JID, or a string "user[.agent|_agent][:device]@
 * server".  Returns false when v is absent or not a JID of digits.
 */
bool
sim_jid_parse(const struct wa_val *v, struct sim_jid *j)
{
	struct wa_str	 u, srv;
	const char	*at, *colon;
	size_t		 i, ulen;

	memset(j, 0, sizeof(*j));
	if (v == NULL)
		return false;
	if (v->kind == WA_VAL_JID) {
		u = v->u.jid.user;
		srv = v->u.jid.server;
		j->device = v->u.jid.device;
	} else if (v->kind == WA_VAL_STR) {
		if ((at = memchr(v->u.str.p, '@', v->u.str.len)) == NULL)
			return false;
		u.p = v->u.str.p;
		u.len = (size_t)(at - v->u.str.p);
		srv.p = at + 1;
		srv.len = v->u.str.len - u.len - 1;
		if ((colon = memchr(u.p, ':', u.len)) != NULL) {
			uint32_t	 d = 0;

			for (i = (size_t)(colon - u.p) + 1; i < u.len; i++) {
				if (u.p[i] < '0' || u.p[i] > '9' || d > 65535)
					return false;
				d = d * 10 + (uint32_t)(u.p[i] - '0');
			}
			j->device = d;
			u.len = (size_t)(colon - u.p);
		}
	} else
		return false;
	/* The user's digits, without an agent suffix. */
	for (ulen = 0; ulen < u.len && u.p[ulen] >= '0' && u.p[ulen] <= '9';
	    ulen++)
		;
	if (ulen == 0 || ulen >= sizeof(j->user) || (ulen < u.len &&
	    u.p[ulen] != '.' && u.p[ulen] != '_'))
		return false;
	memcpy(j->user, u.p, ulen);
	j->user[ulen] = '\0';
	cstr(srv, j->server, sizeof(j->server));
	j->lid = strcmp(j->server, "lid") == 0;
	j->pn = strcmp(j->server, "s.whatsapp.net") == 0 ||
	    strcmp(j->server, "c.us") == 0;
	return true;
}

struct sim_account *
sim_jid_account(struct sim *s, const struct sim_jid *j)
{
	if (j->lid)
		return sim_account_by_lid(s, j->user);
	if (j->pn)
		return sim_account_by_pn(s, j->user);
	return NULL;
}

/* Device id of a (0, or a linked companion) that can receive. */
static struct sim_device *
live_device(struct sim_account *a, uint32_t id)
{
	struct sim_device	*d = sim_device_find(a, id);

	return d != NULL && d->signed_back && !d->removed ? d : NULL;
}

bool
route_device_exists(struct sim_account *a, uint32_t id)
{
	return id == 0 || live_device(a, id) != NULL;
}

void
route_jid_text(char *out, size_t len, const struct sim_account *a, bool lid,
    uint32_t dev)
{
	if (dev == 0)
		snprintf(out, len, "%s@%s", lid ? a->lid : a->pn,
		    lid ? "lid" : "s.whatsapp.net");
	else
		snprintf(out, len, "%s:%u@%s", lid ? a->lid : a->pn, dev,
		    lid ? "lid" : "s.whatsapp.net");
}

void
route_put_jid(struct arena *ar, struct wa_node *n, const char *key,
    const struct sim_account *a, bool lid, uint32_t dev)
{
	sn_attr_jid(ar, n, key, lid ? a->lid : a->pn, lid ? "lid" :
	    "s.whatsapp.net", (uint16_t)dev);
}

void
route_put_t(struct arena *ar, struct wa_node *n, const char *key, int64_t t)
{
	char	 v[24];

	snprintf(v, sizeof(v), "%" PRId64, t);
	sn_attr(ar, n, key, v);
}

/* A connection that can take stanzas for device dev of a. */
static bool
conn_is(const struct sim_conn *c, const struct sim_account *a, uint32_t dev)
{
	return c->authed && c->st == SIM_C_READY && c->acct == a &&
	    c->dev != NULL && c->dev->id == dev;
}

void
route_olog(const struct origin *o, const char *fmt, ...)
{
	char	 line[512];
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (o->c != NULL)
		sim_conn_log(o->c, "%s", line);
	else
		sim_log(o->s, "device %s:%u: %s", o->acct->pn, o->dev, line);
}

static void
origin_conn(struct origin *o, struct sim_conn *c)
{
	o->s = c->s;
	o->c = c;
	o->acct = c->acct;
	o->dev = c->dev->id;
	o->name = c->push_name[0] != '\0' ? c->push_name : c->acct->name;
}

/* --- the route log and offline queues --- */

static struct sim_route *
route_add(struct sim *s, enum sim_route_kind kind, const char *id,
    const char *type, const char *from, struct sim_account *acct,
    uint32_t dev, bool lid, const char *enc, const struct wa_node *n)
{
	struct sim_route	*r = xcalloc(1, sizeof(*r));
	int			 rc;

	if ((rc = wa_bin_encode(n, &r->stanza)) != 0) {
		sim_log(s, "route: cannot encode a stanza for %s:%u: %s",
		    acct->pn, dev, wc_strerror(rc));
		buf_release(&r->stanza);
		free(r);
		return NULL;
	}
	if (s->routes_tail == NULL)
		s->routes_tail = &s->routes;
	r->seq = ++s->nroutes;
	r->kind = kind;
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->type, sizeof(r->type), "%s", type);
	snprintf(r->from, sizeof(r->from), "%s", from);
	route_jid_text(r->to, sizeof(r->to), acct, lid, dev);
	snprintf(r->enc, sizeof(r->enc), "%s", enc);
	attr_text(n, "participant", r->participant, sizeof(r->participant));
	attr_text(n, "recipient", r->recipient, sizeof(r->recipient));
	r->acct = acct;
	r->device = dev;
	r->t = route_now_s();
	*s->routes_tail = r;
	s->routes_tail = &r->next;
	return r;
}

/*
 * Send r to its device: to connection only, or (only NULL) to every live
 * connection of it; with offline="1" when offline.  Device 0 goes to the
 * phone hook.  Returns how many times it was sent.
 */
static unsigned
route_deliver(struct sim *s, struct sim_route *r, struct sim_conn *only,
    bool offline)
{
	struct arena	 a;
	struct wa_node	*n;
	struct sim_conn	*c;
	unsigned	 sent = 0;

	if (r->acked)
		return 0;
	arena_init(&a, 0);
	if (wa_bin_decode(r->stanza.p, r->stanza.len, &a, &n, NULL) != 0) {
		arena_release(&a);
		return 0;	/* cannot happen: it was encoded here */
	}
	if (offline)
		sn_attr(&a, n, "offline", "1");
	if (offline && r->deliveries > 0)
		s->redeliveries++;	/* sent before, never acked */
	if (r->device == 0) {
		if (s->phone_hook != NULL && s->phone_hook(s->phone_arg, s,
		    r->acct, r, n)) {
			r->deliveries++;
			r->acked = true;
			sent = 1;
		}
		arena_release(&a);
		return sent;
	}
	for (c = s->conns; c != NULL; c = c->next) {
		if (!conn_is(c, r->acct, r->device) || (only != NULL &&
		    c != only))
			continue;
		if (sim_conn_send_node(c, n) == 0) {
			sent++;
			r->deliveries++;
			r->last_conn = c->id;
			if (offline)
				r->offline_deliveries++;
		}
	}
	arena_release(&a);
	return sent;
}

bool
sim_route_offline_send(struct sim_conn *c, struct sim_route *r)
{
	return route_deliver(c->s, r, c, true) > 0;
}

int
sim_route_queue(struct sim *s, enum sim_route_kind kind, const char *id,
    const char *type, const char *from, struct sim_account *a, uint32_t dev,
    bool lid, const char *enc, const struct wa_node *n)
{
	struct sim_route	*r;

	if ((r = route_add(s, kind, id, type, from, a, dev, lid, enc, n)) ==
	    NULL)
		return -1;
	return route_deliver(s, r, NULL, false) > 0;
}

size_t
sim_route_devices(const struct sim_account *a, uint32_t *out, size_t max)
{
	const struct sim_device	*d;
	size_t			 n = 0;

	if (max == 0)
		return 0;
	out[n++] = 0;
	for (d = a->devices; d != NULL && n < max; d = d->next)
		if (d->signed_back && !d->removed)
			out[n++] = d->id;
	return n;
}

/* Mark the stanzas of kind with id (and type, for receipts) routed to
 * o's device as acked; returns how many. */
static unsigned
route_ack(const struct origin *o, enum sim_route_kind kind, const char *id,
    const char *type)
{
	struct sim_route	*r;
	unsigned		 n = 0;

	for (r = o->s->routes; r != NULL; r = r->next)
		if (!r->acked && r->kind == kind && r->acct == o->acct &&
		    r->device == o->dev && strcmp(r->id, id) == 0 &&
		    (type == NULL || strcmp(r->type, type) == 0)) {
			r->acked = true;
			n++;
		}
	return n;
}

/* --- prekey bundles (8.1) --- */

static void
put_be(struct arena *a, struct wa_node *n, uint32_t v, size_t len)
{
	uint8_t	 b[4];
	size_t	 i;

	for (i = 0; i < len; i++)
		b[i] = (uint8_t)(v >> (8 * (len - 1 - i)));
	sn_bytes(a, n, b, len);
}

/* The key material of one bundle. */
static void
put_bundle(struct arena *a, struct wa_node *u, uint32_t reg,
    const uint8_t *ident, uint32_t spk_id, const uint8_t *spk,
    const uint8_t *sig, const uint32_t *otk_id, const uint8_t *otk)
{
	struct wa_node	*sk, *k;
	uint8_t		 five = 5;

	put_be(a, sn_child(a, u, "registration"), reg, 4);
	sn_bytes(a, sn_child(a, u, "type"), &five, 1);
	sn_bytes(a, sn_child(a, u, "identity"), ident, SIM_KEY_LEN);
	sk = sn_child(a, u, "skey");
	put_be(a, sn_child(a, sk, "id"), spk_id, 3);
	sn_bytes(a, sn_child(a, sk, "value"), spk, SIM_KEY_LEN);
	sn_bytes(a, sn_child(a, sk, "signature"), sig, 64);
	if (otk_id != NULL) {
		k = sn_child(a, u, "key");
		put_be(a, sn_child(a, k, "id"), *otk_id, 3);
		sn_bytes(a, sn_child(a, k, "value"), otk, SIM_KEY_LEN);
	}
}

static void
bundle_error(struct arena *a, struct wa_node *u, const char *code,
    const char *text)
{
	struct wa_node	*e = sn_child(a, u, "error");

	sn_attr(a, e, "code", code);
	sn_attr(a, e, "text", text);
}

/* Fill u with the bundle of the device named by jid j (8.1, 5.3). */
static void
one_bundle(struct sim_conn *c, struct arena *a, struct wa_node *u,
    const struct sim_jid *j)
{
	struct sim		*s = c->s;
	struct sim_account	*acct = sim_jid_account(s, j);
	struct sim_device	*d;

	if (acct == NULL) {
		bundle_error(a, u, "404", "item-not-found");
		return;
	}
	if (j->device == 0) {
		const struct sim_signal_keys	*k = &acct->keys;
		const struct sim_prekey		*p = NULL;

		if (acct->phone_otks_used < k->nprekeys)
			p = &k->prekeys[acct->phone_otks_used++];
		put_bundle(a, u, k->reg_id, k->ident_pub, k->spk_id,
		    k->spk_pub, k->spk_sig, p != NULL ? &p->id : NULL,
		    p != NULL ? p->pub : NULL);
		acct->phone_bundles++;
		sim_conn_log(c, "bundle of %s@%s (phone): prekey %s", j->user,
		    j->server, p != NULL ? "included" : "none left");
		return;
	}
	if ((d = live_device(acct, j->device)) == NULL || d->uploads == 0) {
		bundle_error(a, u, "404", "item-not-found");
		return;
	}
	{
		struct sim_otk	 otk;
		bool		 have = d->notks > 0;
		unsigned	 notified = 0;

		if (have) {
			otk = d->otks[0];
			(void)sim_prekeys_use(s, acct, d, 1, &notified);
		}
		put_bundle(a, u, d->reg_id, d->ident_pub, d->spk_id,
		    d->spk_pub, d->spk_sig, have ? &otk.id : NULL,
		    have ? otk.pub : NULL);
		if (d->identity.len > 0)
			sn_bytes(a, sn_child(a, u, "device-identity"),
			    d->identity.p, d->identity.len);
		d->bundles_served++;
		sim_conn_log(c, "bundle of %s:%u@%s: prekey %s", j->user,
		    j->device, j->server, have ? "included" : "none left");
	}
}

static void
answer_bundles(struct sim_conn *c, const struct wa_node *n,
    const struct wa_node *key)
{
	struct arena	 a;
	struct wa_node	*r, *list;
	char		 id[80];
	size_t		 i, nu = 0;

	arena_init(&a, 0);
	route_attr_str(n, "id", id, sizeof(id));
	r = sn_new(&a, "iq");
	sn_attr_jid(&a, r, "from", "", "s.whatsapp.net", 0);
	sn_attr(&a, r, "type", "result");
	sn_attr(&a, r, "id", id);
	list = sn_new(&a, "list");
	for (i = 0; key->content.kind == WA_VAL_LIST &&
	    i < key->content.u.list.n && nu < ROUTE_MAX_USERS; i++) {
		const struct wa_node	*q = &key->content.u.list.v[i];
		const struct wa_val	*jv = wa_node_attr(q, "jid");
		struct wa_node		*u;
		struct sim_jid		 j;

		if (!sn_is(q, "user") || jv == NULL)
			continue;
		/* Build the <user> apart, then append it whole. */
		u = sn_new(&a, "user");
		sn_attr_val(&a, u, "jid", jv);
		if (!sim_jid_parse(jv, &j))
			bundle_error(&a, u, "400", "bad-request");
		else
			one_bundle(c, &a, u, &j);
		sn_append(&a, list, u);
		nu++;
	}
	sn_append(&a, r, list);
	(void)sim_conn_send_node(c, r);
	c->answered++;
	arena_release(&a);
}

/* --- messages (9.4, 9.6, 11.1) --- */

static void
send_ack(struct sim_conn *c, const char *cls, const char *id,
    const struct wa_val *from, const char *type, const char *error,
    int64_t t)
{
	struct arena	 a;
	struct wa_node	*r;

	arena_init(&a, 0);
	r = sn_new(&a, "ack");
	sn_attr(&a, r, "class", cls);
	sn_attr(&a, r, "id", id);
	if (from != NULL)
		sn_attr_val(&a, r, "from", from);
	if (type != NULL && type[0] != '\0')
		sn_attr(&a, r, "type", type);
	if (t != 0)
		route_put_t(&a, r, "t", t);
	if (error != NULL)
		sn_attr(&a, r, "error", error);
	(void)sim_conn_send_node(c, r);
	arena_release(&a);
}

/* The server's ack to o, when o is a connection. */
void
route_oack(const struct origin *o, const char *cls, const char *id,
    const struct wa_val *from, const char *type, const char *error,
    int64_t t)
{
	if (o->c != NULL)
		send_ack(o->c, cls, id, from, type, error, t);
}

static void
route_one(struct origin *o, struct msg_ctx *m, const struct sim_jid *tj,
    const struct wa_node *enc)
{
	struct sim		*s = o->s;
	struct sim_account	*ta = sim_jid_account(s, tj), *me = o->acct;
	struct arena		 a;
	struct wa_node		*out;
	const struct wa_node	*rep;
	struct sim_route	*r;
	char			 etype[24];

	if (ta == NULL || (ta != m->peer && ta != me) || enc == NULL ||
	    !route_device_exists(ta, tj->device) || (ta == me &&
	    tj->device == o->dev)) {
		route_olog(o, "message %s: <to jid=\"%s:%u@%s\"> skipped "
		    "(%s)", m->id, tj->user, tj->device, tj->server,
		    enc == NULL ? "no <enc>" : ta == NULL ? "unknown user" :
		    ta != m->peer && ta != me ? "neither addressee nor own" :
		    ta == me && tj->device == o->dev ? "sending device" :
		    "unknown device");
		m->skipped++;
		return;
	}
	route_attr_str(enc, "type", etype, sizeof(etype));
	arena_init(&a, 0);
	out = sn_new(&a, "message");
	route_put_jid(&a, out, "from", me, m->lid, o->dev);
	sn_attr(&a, out, "id", m->id);
	if (m->type[0] != '\0')
		sn_attr(&a, out, "type", m->type);
	route_put_t(&a, out, "t", m->t);
	if (m->edit[0] != '\0')
		sn_attr(&a, out, "edit", m->edit);
	if (m->category[0] != '\0')
		sn_attr(&a, out, "category", m->category);
	if (ta == me) {
		/* Self fan-out (11.1): recipient is the chat. */
		sn_attr_jid(&a, out, "recipient", m->to.user, m->lid ? "lid" :
		    "s.whatsapp.net", 0);
		if (m->lid)
			sn_attr_jid(&a, out, "peer_recipient_pn", m->peer->pn,
			    "s.whatsapp.net", 0);
	}
	if (o->name[0] != '\0')
		sn_attr(&a, out, "notify", o->name);
	if (m->lid)
		sn_attr_jid(&a, out, "sender_pn", me->pn, "s.whatsapp.net", 0);
	else
		sn_attr_jid(&a, out, "sender_lid", me->lid, "lid", 0);
	sn_append(&a, out, enc);
	if (m->ident != NULL && strcmp(etype, "pkmsg") == 0)
		sn_append(&a, out, m->ident);
	/* The sender's reporting token goes with the message (protocol.md
	 * 9.4): the receiver keeps it for a report. */
	if ((rep = sn_find(m->n, "reporting")) != NULL)
		sn_append(&a, out, rep);
	r = route_add(s, SIM_ROUTE_MESSAGE, m->id, m->type, m->from, ta,
	    tj->device, tj->lid, etype, out);
	arena_release(&a);
	if (r == NULL)
		return;
	m->routed++;
	if (route_deliver(s, r, NULL, false) > 0)
		m->sent++;
}

static void
on_message(struct origin *o, const struct wa_node *n)
{
	struct sim		*s = o->s;
	struct msg_ctx		 m;
	const struct wa_node	*parts, *enc;
	size_t			 i;

	memset(&m, 0, sizeof(m));
	m.n = n;
	m.t = route_now_s();
	route_attr_str(n, "id", m.id, sizeof(m.id));
	route_attr_str(n, "type", m.type, sizeof(m.type));
	route_attr_str(n, "edit", m.edit, sizeof(m.edit));
	route_attr_str(n, "category", m.category, sizeof(m.category));
	if (m.id[0] == '\0') {
		route_olog(o, "message without an id ignored");
		return;
	}
	m.to_val = wa_node_attr(n, "to");
	if (!sim_jid_parse(m.to_val, &m.to)) {
		route_oack(o, "message", m.id, NULL, NULL, "400", m.t);
		route_olog(o, "message %s: no usable to: ack error 400",
		    m.id);
		return;
	}
	if (strcmp(m.to.server, "g.us") == 0) {
		route_group_message(o, &m);
		return;
	}
	if (!m.to.lid && !m.to.pn) {
		/* Broadcasts, newsletters: not simulated. */
		route_oack(o, "message", m.id, m.to_val, NULL, "501", m.t);
		route_olog(o, "message %s to @%s: not routed (ack error "
		    "501)", m.id, m.to.server);
		return;
	}
	if ((m.peer = sim_jid_account(s, &m.to)) == NULL) {
		route_oack(o, "message", m.id, m.to_val, NULL, "404", m.t);
		route_olog(o, "message %s to unknown %s@%s: ack error 404",
		    m.id, m.to.user, m.to.server);
		return;
	}
	m.lid = m.to.lid;
	route_jid_text(m.from, sizeof(m.from), o->acct, m.lid, o->dev);
	m.ident = sn_find(n, "device-identity");
	if (sim_tok_refused(o, &m))
		return;		/* 463: a token required (tokens.c) */
	if ((parts = sn_find(n, "participants")) != NULL) {
		for (i = 0; parts->content.kind == WA_VAL_LIST &&
		    i < parts->content.u.list.n && i < ROUTE_MAX_TO; i++) {
			const struct wa_node	*to;
			struct sim_jid		 tj;

			to = &parts->content.u.list.v[i];

			if (!sn_is(to, "to") ||
			    !sim_jid_parse(wa_node_attr(to, "jid"), &tj)) {
				m.skipped++;
				continue;
			}
			route_one(o, &m, &tj, sn_find(to, "enc"));
		}
	} else if ((enc = sn_find(n, "enc")) != NULL) {
		/* One device named by to: a retry resend (device_fanout
		 * false) or a peer message to the own phone (9.4, 9.6). */
		route_one(o, &m, &m.to, enc);
	}
	route_oack(o, "message", m.id, m.to_val, NULL, NULL, m.t);
	route_olog(o, "message %s (%s) to %s@%s: %u devices routed, %u "
	    "sent now, %u skipped", m.id, m.type, m.to.user, m.to.server,
	    m.routed, m.sent, m.skipped);
	sim_tok_routed(o, &m);
}

/* --- receipts (9.6) --- */

static void
on_receipt(struct origin *o, const struct wa_node *n)
{
	struct sim		*s = o->s;
	struct sim_account	*ta, *me = o->acct;
	const struct wa_val	*to_val = wa_node_attr(n, "to");
	const struct wa_node	*list = sn_find(n, "list");
	struct sim_jid		 to;
	char			 id[80], type[24], from[96];
	unsigned		 acked, routed = 0, sent = 0;
	uint32_t		 dev;
	size_t			 i;

	route_attr_str(n, "id", id, sizeof(id));
	route_attr_str(n, "type", type, sizeof(type));
	if (id[0] == '\0') {
		route_olog(o, "receipt without an id ignored");
		return;
	}
	route_oack(o, "receipt", id, to_val, type, NULL, 0);
	/* A receipt is the device's ack of the messages it names (11.7). */
	acked = route_ack(o, SIM_ROUTE_MESSAGE, id, NULL);
	for (i = 0; list != NULL && list->content.kind == WA_VAL_LIST &&
	    i < list->content.u.list.n && i < ROUTE_MAX_IDS; i++) {
		char	 item[80];

		route_attr_str(&list->content.u.list.v[i], "id", item,
		    sizeof(item));
		if (item[0] != '\0')
			acked += route_ack(o, SIM_ROUTE_MESSAGE, item, NULL);
	}
	if (sim_jid_parse(to_val, &to) && strcmp(to.server, "g.us") == 0) {
		route_group_receipt(o, n, &to, id, type);
		return;
	}
	if (!sim_jid_parse(to_val, &to) || (ta = sim_jid_account(s, &to)) == NULL) {
		route_olog(o, "receipt %s (%s): no known addressee, not "
		    "relayed", id, type[0] != '\0' ? type : "delivery");
		return;
	}
	route_jid_text(from, sizeof(from), me, to.lid, o->dev);
	/* To the device named, or to every device of the user. */
	for (dev = 0; dev < 256; dev++) {
		struct arena		 a;
		struct wa_node		*out;
		struct sim_route	*r;
		size_t			 k;

		if (to.device != 0 ? dev != to.device :
		    !route_device_exists(ta, dev))
			continue;
		if (!route_device_exists(ta, dev) || (ta == me &&
		    dev == o->dev))
			continue;
		arena_init(&a, 0);
		out = sn_new(&a, "receipt");
		route_put_jid(&a, out, "from", me, to.lid, o->dev);
		sn_attr(&a, out, "id", id);
		route_put_t(&a, out, "t", route_now_s());
		if (type[0] != '\0')
			sn_attr(&a, out, "type", type);
		for (k = 0; k < n->nattrs; k++) {
			const struct wa_attr	*at = &n->attrs[k];

			if (wa_str_eqc(at->key, "participant") ||
			    wa_str_eqc(at->key, "recipient")) {
				char	 key[16];

				cstr(at->key, key, sizeof(key));
				sn_attr_val(&a, out, key, &at->val);
			}
		}
		for (k = 0; n->content.kind == WA_VAL_LIST &&
		    k < n->content.u.list.n; k++)
			sn_append(&a, out, &n->content.u.list.v[k]);
		r = route_add(s, SIM_ROUTE_RECEIPT, id, type, from, ta, dev,
		    to.lid, "", out);
		arena_release(&a);
		if (r == NULL)
			continue;
		routed++;
		if (route_deliver(s, r, NULL, false) > 0)
			sent++;
	}
	route_olog(o, "receipt %s (%s) to %s:%u@%s: acks %u, relayed to %u "
	    "devices, %u now", id, type[0] != '\0' ? type : "delivery",
	    to.user, to.device, to.server, acked, routed, sent);
}

/*
 * The ack n of a <notification> or <call> (kind) from o: done, the
 * queued ones with its id, participant and recipient (11.7); an id of a
 * queued stanza with another class, participant or recipient is counted
 * and logged, and that stanza stays queued.  Returns how many were done.
 */
static unsigned
route_ack_strict(struct sim_conn *c, const struct origin *o,
    enum sim_route_kind kind, const char *id, const struct wa_node *n)
{
	struct sim_route	*r;
	char			 part[96], rcpt[96];
	unsigned		 k = 0, other = 0;

	attr_text(n, "participant", part, sizeof(part));
	attr_text(n, "recipient", rcpt, sizeof(rcpt));
	for (r = o->s->routes; r != NULL; r = r->next) {
		if (r->acked || r->acct != o->acct || r->device != o->dev ||
		    strcmp(r->id, id) != 0)
			continue;
		if (r->kind == kind && strcmp(r->participant, part) == 0 &&
		    strcmp(r->recipient, rcpt) == 0) {
			r->acked = true;
			k++;
		} else if (r->kind == SIM_ROUTE_NOTIFICATION ||
		    r->kind == SIM_ROUTE_CALL)
			other++;
	}
	if (k == 0 && other > 0) {
		o->s->unmatched_acks++;
		sim_conn_log(c, "ack of %s %s does not match its stanza "
		    "(participant \"%s\", recipient \"%s\"): kept queued",
		    kind == SIM_ROUTE_CALL ? "call" : "notification", id, part,
		    rcpt);
	}
	return k;
}

static void
on_ack(struct sim_conn *c, const struct wa_node *n)
{
	struct origin	 o;
	char		 id[80], cls[24], type[24];
	unsigned	 k;

	origin_conn(&o, c);
	route_attr_str(n, "id", id, sizeof(id));
	route_attr_str(n, "class", cls, sizeof(cls));
	route_attr_str(n, "type", type, sizeof(type));
	if (strcmp(cls, "message") == 0)
		k = route_ack(&o, SIM_ROUTE_MESSAGE, id, NULL);
	else if (strcmp(cls, "notification") == 0)
		k = route_ack_strict(c, &o, SIM_ROUTE_NOTIFICATION, id, n);
	else if (strcmp(cls, "call") == 0)
		k = route_ack_strict(c, &o, SIM_ROUTE_CALL, id, n);
	else
		k = route_ack(&o, SIM_ROUTE_RECEIPT, id, type);
	if (k > 0 || c->s->opt.verbose)
		sim_conn_log(c, "ack of %s %s%s%s: %u queued stanzas done",
		    cls, id, type[0] != '\0' ? " " : "", type, k);
}

void
sim_route_notification_ack(struct sim_conn *c, const struct wa_node *n)
{
	if (c->authed && c->acct != NULL && c->dev != NULL)
		on_ack(c, n);
}

/* --- devices notifications (8.2, 11.7) --- */

static int
strp_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "2:" + base64 of SHA-256 of the sorted device JIDs, first 6 bytes
 * (protocol.md 10.3), over a's current devices. */
static void
device_hash(const struct sim_account *a, char out[16])
{
	char			 jids[ROUTE_MAX_DEVICES][48];
	char			*ptr[ROUTE_MAX_DEVICES];
	const struct sim_device	*d;
	struct buf		 cat = BUF_INIT;
	uint8_t			 h[32];
	unsigned char		 b64[16];
	size_t			 n = 0, i;

	snprintf(jids[n], sizeof(jids[n]), "%s.0:0@s.whatsapp.net", a->pn);
	ptr[n] = jids[n];
	n++;
	for (d = a->devices; d != NULL && n < ROUTE_MAX_DEVICES; d = d->next) {
		if (!d->signed_back || d->removed)
			continue;
		snprintf(jids[n], sizeof(jids[n]), "%s.0:%u@s.whatsapp.net",
		    a->pn, d->id);
		ptr[n] = jids[n];
		n++;
	}
	qsort(ptr, n, sizeof(ptr[0]), strp_cmp);
	for (i = 0; i < n; i++)
		buf_append(&cat, ptr[i], strlen(ptr[i]));
	wa_crypto_sha256(cat.p, cat.len, h);
	buf_release(&cat);
	EVP_EncodeBlock(b64, h, 6);	/* 8 characters, no padding */
	out[0] = '2';
	out[1] = ':';
	memcpy(out + 2, b64, 8);
	out[10] = '\0';
}

unsigned
sim_route_devices_notify(struct sim *s, struct sim_account *a,
    const struct sim_device *d, const char *what)
{
	struct arena	 ar;
	struct wa_node	*n, *op, *dev, *kil;
	struct sim_conn	*c;
	char		 id[32], hash[16], v[16];
	unsigned	 sent = 0;
	int64_t		 t = route_now_s();

	device_hash(a, hash);
	arena_init(&ar, 0);
	n = sn_new(&ar, "notification");
	snprintf(id, sizeof(id), "sim-%" PRIu64, ++s->next_iq);
	route_put_jid(&ar, n, "from", a, false, 0);
	route_put_jid(&ar, n, "lid", a, true, 0);
	sn_attr(&ar, n, "id", id);
	route_put_t(&ar, n, "t", t);
	sn_attr(&ar, n, "type", "devices");
	op = sn_child(&ar, n, what);
	sn_attr(&ar, op, "device_hash", hash);
	dev = sn_child(&ar, op, "device");
	route_put_jid(&ar, dev, "jid", a, false, d->id);
	if (strcmp(what, "add") == 0) {
		snprintf(v, sizeof(v), "%u", d->key_index);
		sn_attr(&ar, dev, "key-index", v);
	}
	route_put_jid(&ar, dev, "lid", a, true, d->id);
	kil = sn_child(&ar, op, "key-index-list");
	route_put_t(&ar, kil, "ts", t);
	for (c = s->conns; c != NULL; c = c->next)
		if (c->authed && c->st == SIM_C_READY && c->dev != NULL &&
		    c->dev != d && sim_conn_send_node(c, n) == 0)
			sent++;
	arena_release(&ar);
	s->device_notifications += sent;
	sim_log(s, "devices notification (%s %s:%u, %s) sent to %u "
	    "connections", what, a->pn, d->id, hash, sent);
	return sent;
}

unsigned
sim_route_remove_device(struct sim *s, struct sim_account *a,
    struct sim_device *d)
{
	struct sim_conn		*c;
	struct sim_route	*r;

	d->removed = true;
	for (c = s->conns; c != NULL; c = c->next)
		if (c->dev == d && c->st != SIM_C_CLOSING)
			sim_conn_drop(c);
	for (r = s->routes; r != NULL; r = r->next)
		if (r->acct == a && r->device == d->id)
			r->acked = true;	/* nobody will take them */
	return sim_route_devices_notify(s, a, d, "remove");
}

/* --- the entry point, the admin report, teardown --- */

int
sim_route_inject(struct sim *s, struct sim_account *a, uint32_t dev,
    const struct wa_node *n)
{
	struct origin	 o;

	if (!route_device_exists(a, dev))
		return WC_ESTATE;
	memset(&o, 0, sizeof(o));
	o.s = s;
	o.acct = a;
	o.dev = dev;
	o.name = a->name;
	if (sn_is(n, "message"))
		on_message(&o, n);
	else if (sn_is(n, "receipt"))
		on_receipt(&o, n);
	else
		return WC_EINVAL;
	return 0;
}

int
sim_route_handle(struct sim_conn *c, const struct wa_node *n)
{
	struct origin	 o;

	if (!c->authed || c->dev == NULL || c->acct == NULL)
		return 0;
	origin_conn(&o, c);
	if (sn_is(n, "message")) {
		on_message(&o, n);
		return 1;
	}
	if (sn_is(n, "receipt")) {
		on_receipt(&o, n);
		return 1;
	}
	if (sn_is(n, "ack") && (wa_str_eqc(sn_get(n, "class"), "message") ||
	    wa_str_eqc(sn_get(n, "class"), "receipt"))) {
		on_ack(c, n);
		return 1;
	}
	if (sn_is(n, "chatstate")) {
		route_chatstate(c, n);
		return 1;
	}
	if (sn_is(n, "presence")) {
		route_presence(c, n);
		return 1;
	}
	if (sn_is(n, "iq") && sim_group_iq(c, n))
		return 1;
	if (sn_is(n, "iq") && wa_str_eqc(sn_get(n, "xmlns"), "encrypt") &&
	    wa_str_eqc(sn_get(n, "type"), "get")) {
		const struct wa_node	*key = sn_find(n, "key");

		if (key != NULL) {
			answer_bundles(c, n, key);
			return 1;
		}
	}
	return 0;
}

struct json_object *
sim_route_json(const struct sim *s)
{
	struct json_object	*arr = json_object_new_array();
	const struct sim_route	*r;

	for (r = s->routes; r != NULL; r = r->next) {
		struct json_object	*o = json_object_new_object();
		struct json_object	*enc = json_object_new_array();

		json_object_object_add(o, "seq",
		    json_object_new_int64((int64_t)r->seq));
		json_object_object_add(o, "kind", json_object_new_string(
		    r->kind == SIM_ROUTE_MESSAGE ? "message" :
		    r->kind == SIM_ROUTE_RECEIPT ? "receipt" :
		    r->kind == SIM_ROUTE_CALL ? "call" : "notification"));
		json_object_object_add(o, "id", json_object_new_string(r->id));
		json_object_object_add(o, "type",
		    json_object_new_string(r->type));
		json_object_object_add(o, "from",
		    json_object_new_string(r->from));
		json_object_object_add(o, "to", json_object_new_string(r->to));
		for (const char *e = r->enc; *e != '\0';) {
			size_t	 l = strcspn(e, " ");

			json_object_array_add(enc,
			    json_object_new_string_len(e, (int)l));
			e += l;
			e += strspn(e, " ");
		}
		json_object_object_add(o, "enc", enc);
		json_object_object_add(o, "t", json_object_new_int64(r->t));
		json_object_object_add(o, "delivered",
		    json_object_new_boolean(r->deliveries > 0));
		json_object_object_add(o, "deliveries",
		    json_object_new_int64(r->deliveries));
		json_object_object_add(o, "offline_deliveries",
		    json_object_new_int64(r->offline_deliveries));
		json_object_object_add(o, "acked",
		    json_object_new_boolean(r->acked));
		json_object_object_add(o, "participant",
		    json_object_new_string(r->participant));
		json_object_object_add(o, "recipient",
		    json_object_new_string(r->recipient));
		json_object_array_add(arr, o);
	}
	return arr;
}

void
sim_route_free(struct sim *s)
{
	struct sim_route	*r;

	while ((r = s->routes) != NULL) {
		s->routes = r->next;
		buf_release(&r->stanza);
		free(r);
	}
	s->routes_tail = &s->routes;
	route_subs_free(s);
}
