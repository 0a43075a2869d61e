/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/tokens.c -- privacy tokens in the simulator (tokens.h): the
 * server's strictness about 1:1 messages to users that take them only
 * with a token (ack error 463), the tokens it hands out and the admin
 * routes under /admin/tokens.  Sources: protocol.md 9.4, 9.6, 11.7,
 * 15.6; Baileys 7.0.0-rc14 messages-recv.js (the notification's shape,
 * handleBadAck), tc-token-utils.js (the iq result's <tokens>);
 * whatsapp-rust tctoken.rs (the result names each token's jid).
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "keys.h"
#include "nodes.h"
#include "proto/crypto.h"
#include "proto/node.h"
#include "session.h"
#include "tokens.h"

#define TOK_BUCKET_S	604800		/* 7 days */
#define TOK_BUCKETS	4
#define TOK_RULES	64
#define TOK_GIVEN	256		/* tokens kept, oldest dropped */
#define TOK_ISSUES	64		/* (issuer, contact) pairs counted */
#define TOK_NACKED	64		/* ids of refused messages kept */

enum tok_mode { MODE_OFF, MODE_TOKEN, MODE_REFUSE };

/* A token the sim gave holder to write to issuer with. */
struct given {
	char		 holder[SIM_PN_MAX], issuer[SIM_PN_MAX];
	uint8_t		 tok[SIM_TOK_LEN];
	int64_t		 t;
	const char	*via;		/* "notification", "iq", "history" */
};

/* Issuings of clients: from's account issued its token to "to". */
struct issue {
	char		 from[SIM_PN_MAX], to[SIM_PN_MAX];
	unsigned	 n;
	int64_t		 last_t;
};

struct sim_tok {
	struct {
		char		 pn[SIM_PN_MAX];
		enum tok_mode	 mode;
	} rule[TOK_RULES];
	size_t		 nrules;
	struct given	 given[TOK_GIVEN];
	size_t		 ngiven, next_given;
	struct issue	 issue[TOK_ISSUES];
	size_t		 nissues;
	char		 nacked[TOK_NACKED][80];
	size_t		 nnacked;
	uint64_t	 nacks, given_count, issued, notifications;
	uint64_t	 ok_tctoken, ok_cstoken;
	uint64_t	 next_id;
};

static struct sim_tok *
state(struct sim *s)
{
	if (s->tok == NULL)
		s->tok = xcalloc(1, sizeof(*s->tok));
	return s->tok;
}

static enum tok_mode
mode_of(struct sim *s, const struct sim_account *a)
{
	struct sim_tok	*t = state(s);
	size_t		 i;

	for (i = 0; i < t->nrules; i++)
		if (strcmp(t->rule[i].pn, a->pn) == 0)
			return t->rule[i].mode;
	return MODE_OFF;
}

/* Not older than the 4 buckets that end with now's (15.6). */
static bool
fresh(int64_t t, int64_t now)
{
	return t > 0 && t >= (now / TOK_BUCKET_S - (TOK_BUCKETS - 1)) *
	    TOK_BUCKET_S;
}

void
sim_tok_salt(const struct sim_account *a, uint8_t out[SIM_SALT_LEN])
{
	static const char	 tag[] = "wachat-sim nctSalt ";

	wa_crypto_sha256_pair(tag, sizeof(tag) - 1, a->pn, strlen(a->pn),
	    out);
}

/* A new token from issuer to holder, stamped t, remembered. */
static const struct given *
give(struct sim *s, const struct sim_account *holder,
    const struct sim_account *issuer, int64_t t, const char *via)
{
	struct sim_tok	*st = state(s);
	struct given	*g = &st->given[st->next_given];

	memset(g, 0, sizeof(*g));
	snprintf(g->holder, sizeof(g->holder), "%s", holder->pn);
	snprintf(g->issuer, sizeof(g->issuer), "%s", issuer->pn);
	sim_random(g->tok, sizeof(g->tok));
	g->t = t;
	g->via = via;
	st->next_given = (st->next_given + 1) % TOK_GIVEN;
	if (st->ngiven < TOK_GIVEN)
		st->ngiven++;
	st->given_count++;
	return g;
}

bool
sim_tok_given(struct sim *s, const struct sim_account *holder,
    const struct sim_account *contact, const uint8_t **tok, size_t *len,
    int64_t *t)
{
	struct sim_tok		*st = state(s);
	const struct given	*best = NULL;
	size_t			 i;

	for (i = 0; i < st->ngiven; i++) {
		const struct given *g = &st->given[i];

		if (strcmp(g->holder, holder->pn) == 0 &&
		    strcmp(g->issuer, contact->pn) == 0 &&
		    fresh(g->t, route_now_s()) &&
		    (best == NULL || g->t >= best->t))
			best = g;
	}
	if (best == NULL)
		return false;
	*tok = best->tok;
	*len = sizeof(best->tok);
	*t = best->t;
	return true;
}

/* m's <tctoken> is one issuer gave holder, not expired. */
static bool
tctoken_ok(struct sim *s, const struct sim_account *holder,
    const struct sim_account *issuer, const struct wa_node *n)
{
	struct sim_tok	*st = state(s);
	const uint8_t	*p;
	size_t		 len, i;

	if (n == NULL || !sim_node_bytes(n, &p, &len) || len != SIM_TOK_LEN)
		return false;
	for (i = 0; i < st->ngiven; i++) {
		const struct given *g = &st->given[i];

		if (strcmp(g->holder, holder->pn) == 0 &&
		    strcmp(g->issuer, issuer->pn) == 0 &&
		    memcmp(g->tok, p, len) == 0 && fresh(g->t, route_now_s()))
			return true;
	}
	return false;
}

/* m's <cstoken> is HMAC-SHA256(holder's nctSalt, "<peer LID>@lid"). */
static bool
cstoken_ok(const struct sim_account *holder, const struct sim_account *peer,
    const struct wa_node *n)
{
	uint8_t		 salt[SIM_SALT_LEN], want[WA_CRYPTO_HASH_LEN];
	char		 msg[SIM_PN_MAX + 8];
	const uint8_t	*p;
	size_t		 len;

	if (n == NULL || !sim_node_bytes(n, &p, &len) || len != sizeof(want) ||
	    peer->lid[0] == '\0')
		return false;
	sim_tok_salt(holder, salt);
	snprintf(msg, sizeof(msg), "%s@lid", peer->lid);
	wa_crypto_hmac_sha256(salt, sizeof(salt), msg, strlen(msg), want);
	return memcmp(p, want, sizeof(want)) == 0;
}

bool
sim_tok_refused(struct origin *o, const struct msg_ctx *m)
{
	struct sim_tok	*st = state(o->s);
	enum tok_mode	 mode;
	const char	*why;

	if (m->peer == NULL || m->peer == o->acct ||
	    strcmp(m->category, "peer") == 0 ||
	    sn_find(m->n, "participants") == NULL)
		return false;	/* retry resends, peer messages: no token */
	if ((mode = mode_of(o->s, m->peer)) == MODE_OFF)
		return false;
	if (mode == MODE_TOKEN && tctoken_ok(o->s, o->acct, m->peer,
	    sn_find(m->n, "tctoken"))) {
		st->ok_tctoken++;
		return false;
	}
	if (mode == MODE_TOKEN && cstoken_ok(o->acct, m->peer,
	    sn_find(m->n, "cstoken"))) {
		st->ok_cstoken++;
		return false;
	}
	why = mode == MODE_REFUSE ? "the addressee refuses it" :
	    sn_find(m->n, "tctoken") != NULL ? "its tctoken is not valid" :
	    sn_find(m->n, "cstoken") != NULL ? "its cstoken is not valid" :
	    "it carries no token";
	st->nacks++;
	snprintf(st->nacked[st->nnacked % TOK_NACKED], sizeof(st->nacked[0]),
	    "%s", m->id);
	st->nnacked++;
	route_oack(o, "message", m->id, m->to_val, NULL, "463", m->t);
	route_olog(o, "message %s to %s@%s: the addressee requires a privacy "
	    "token and %s: ack error 463", m->id, m->to.user, m->to.server,
	    why);
	return true;
}

/* Send holder's companions a privacy_token notification with issuer's
 * new token to it, stamped t: the count queued. */
static unsigned
notify(struct sim *s, struct sim_account *holder,
    const struct sim_account *issuer, int64_t t, const struct given **gout)
{
	struct sim_tok		*st = state(s);
	const struct given	*g = give(s, holder, issuer, t, "notification");
	struct arena		 a;
	struct wa_node		*n, *toks, *tok;
	uint32_t		 devs[ROUTE_MAX_DEVICES];
	char			 id[32], from[SIM_PN_MAX + 24], v[24];
	size_t			 nd, i;
	unsigned		 queued = 0;

	arena_init(&a, 0);
	snprintf(id, sizeof(id), "sim-tok-%" PRIu64, ++st->next_id);
	snprintf(from, sizeof(from), "%s@s.whatsapp.net", issuer->pn);
	n = sn_new(&a, "notification");
	sn_attr_jid(&a, n, "from", issuer->pn, "s.whatsapp.net", 0);
	if (issuer->lid[0] != '\0')
		sn_attr_jid(&a, n, "sender_lid", issuer->lid, "lid", 0);
	sn_attr(&a, n, "type", "privacy_token");
	sn_attr(&a, n, "id", id);
	route_put_t(&a, n, "t", route_now_s());
	toks = sn_child(&a, n, "tokens");
	tok = sn_child(&a, toks, "token");
	sn_attr_jid(&a, tok, "jid", holder->pn, "s.whatsapp.net", 0);
	snprintf(v, sizeof(v), "%" PRId64, t);
	sn_attr(&a, tok, "t", v);
	sn_attr(&a, tok, "type", "trusted_contact");
	sn_bytes(&a, tok, g->tok, sizeof(g->tok));
	nd = sim_route_devices(holder, devs, ROUTE_MAX_DEVICES);
	for (i = 0; i < nd; i++)
		if (devs[i] != 0 && sim_route_queue(s, SIM_ROUTE_NOTIFICATION,
		    id, "privacy_token", from, holder, devs[i], false, "",
		    n) >= 0)
			queued++;
	arena_release(&a);
	st->notifications++;
	sim_log(s, "privacy_token notification %s from %s to %s: queued for "
	    "%u devices", id, issuer->pn, holder->pn, queued);
	if (gout != NULL)
		*gout = g;
	return queued;
}

void
sim_tok_routed(struct origin *o, const struct msg_ctx *m)
{
	if (m->peer == NULL || m->peer == o->acct ||
	    strcmp(m->category, "peer") == 0 ||
	    sn_find(m->n, "participants") == NULL ||
	    mode_of(o->s, o->acct) == MODE_OFF)
		return;
	(void)notify(o->s, m->peer, o->acct, route_now_s(), NULL);
}

/* A client's issuing: from issued its token to "to" at t. */
static void
count_issue(struct sim *s, const struct sim_account *from,
    const struct sim_account *to, int64_t t)
{
	struct sim_tok	*st = state(s);
	struct issue	*is = NULL;
	size_t		 i;

	st->issued++;
	for (i = 0; i < st->nissues; i++)
		if (strcmp(st->issue[i].from, from->pn) == 0 &&
		    strcmp(st->issue[i].to, to->pn) == 0)
			is = &st->issue[i];
	if (is == NULL && st->nissues < TOK_ISSUES) {
		is = &st->issue[st->nissues++];
		snprintf(is->from, sizeof(is->from), "%s", from->pn);
		snprintf(is->to, sizeof(is->to), "%s", to->pn);
	}
	if (is != NULL) {
		is->n++;
		is->last_t = t;
	}
}

int
sim_tok_iq(struct sim_conn *c, const struct wa_node *n)
{
	const struct wa_node	*toks = sn_find(n, "tokens");
	struct arena		 a;
	struct wa_node		*r, *rt, *tok;
	struct wa_str		 id = sn_get(n, "id");
	char			 idb[80], v[24];
	size_t			 i, given = 0;

	if (toks == NULL || c->acct == NULL)
		return 0;
	arena_init(&a, 0);
	r = sn_new(&a, "iq");
	snprintf(idb, sizeof(idb), "%.*s", (int)id.len, id.p);
	sn_attr_jid(&a, r, "from", "", "s.whatsapp.net", 0);
	sn_attr(&a, r, "type", "result");
	sn_attr(&a, r, "id", idb);
	rt = sn_child(&a, r, "tokens");
	for (i = 0; toks->content.kind == WA_VAL_LIST &&
	    i < toks->content.u.list.n && i < 16; i++) {
		const struct wa_node	*k = &toks->content.u.list.v[i];
		const struct given	*g;
		struct sim_account	*to;
		struct sim_jid		 j;
		int64_t			 t = 0;

		if (!sn_is(k, "token") ||
		    !sim_jid_parse(wa_node_attr(k, "jid"), &j) ||
		    (to = sim_jid_account(c->s, &j)) == NULL ||
		    to == c->acct)
			continue;
		(void)wa_node_num(k, "t", &t);
		count_issue(c->s, c->acct, to, t);
		/* the contact's token to the issuer (Baileys stores it
		 * under the contact, storeTcTokensFromIqResult) */
		g = give(c->s, c->acct, to, route_now_s(), "iq");
		tok = sn_child(&a, rt, "token");
		sn_attr_jid(&a, tok, "jid", j.user, j.lid ? "lid" :
		    "s.whatsapp.net", 0);
		snprintf(v, sizeof(v), "%" PRId64, g->t);
		sn_attr(&a, tok, "t", v);
		sn_attr(&a, tok, "type", "trusted_contact");
		sn_bytes(&a, tok, g->tok, sizeof(g->tok));
		given++;
	}
	(void)sim_conn_send_node(c, r);
	arena_release(&a);
	c->answered++;
	sim_conn_log(c, "privacy tokens issued: %zu answered with the "
	    "contact's token", given);
	return 1;
}

void
sim_tok_hist_conv(struct sim *s, const struct sim_account *holder,
    const struct sim_account *peer, struct wa_hist_conv *cv,
    struct arena *ar)
{
	struct sim_tok	*st = state(s);
	const uint8_t	*tok;
	uint8_t		*p;
	size_t		 len, i;
	int64_t		 t;

	if (peer == NULL)
		return;
	if (sim_tok_given(s, holder, peer, &tok, &len, &t)) {
		p = arena_alloc(ar, len);
		memcpy(p, tok, len);
		cv->tc_token = p;
		cv->tc_token_len = len;
		cv->tc_token_ts_s = (uint64_t)t;
	}
	for (i = 0; i < st->nissues; i++)
		if (strcmp(st->issue[i].from, holder->pn) == 0 &&
		    strcmp(st->issue[i].to, peer->pn) == 0 &&
		    st->issue[i].last_t > 0)
			cv->tc_token_sender_ts_s = (uint64_t)st->issue[i].last_t;
}

void
sim_tok_hist_salt(const struct sim_account *holder, struct wa_hist *hs,
    struct arena *ar)
{
	uint8_t	*salt = arena_alloc(ar, SIM_SALT_LEN);

	sim_tok_salt(holder, salt);
	hs->nct_salt = salt;
	hs->nct_salt_len = SIM_SALT_LEN;
}

/* --- /admin/tokens --- */

static const char *const mode_names[] = { "off", "token", "refuse" };

/* POST /admin/tokens/require {pn, mode}: mark pn. */
static int
require(struct sim *s, struct json_object *in, struct buf *out)
{
	struct sim_tok		*st = state(s);
	struct json_object	*o;
	const char		*pn = sim_json_str(in, "pn"), *m = sim_json_str(in, "mode");
	size_t			 i, k;

	if (pn == NULL || sim_account_by_pn(s, pn) == NULL)
		return sim_json_error(out, 404, "give the pn of a known user");
	if (m == NULL)
		m = "token";
	for (k = 0; k < 3 && strcmp(m, mode_names[k]) != 0; k++)
		;
	if (k == 3)
		return sim_json_error(out, 400, "mode: off, token or refuse");
	for (i = 0; i < st->nrules && strcmp(st->rule[i].pn, pn) != 0; i++)
		;
	if (i == st->nrules) {
		if (st->nrules == TOK_RULES)
			return sim_json_error(out, 422, "too many marked users");
		st->nrules++;
	}
	snprintf(st->rule[i].pn, sizeof(st->rule[i].pn), "%s", pn);
	st->rule[i].mode = (enum tok_mode)k;
	sim_log(s, "privacy tokens: %s now %s", pn, mode_names[k]);
	o = json_object_new_object();
	json_object_object_add(o, "pn", json_object_new_string(pn));
	json_object_object_add(o, "mode", json_object_new_string(m));
	return sim_json_reply(out, o, 200);
}

/* POST /admin/tokens/notify {pn, to, t?}: pn's token to "to". */
static int
notify_route(struct sim *s, struct json_object *in, struct buf *out)
{
	struct sim_account	*from, *to;
	struct json_object	*o, *tv;
	const struct given	*g = NULL;
	const char		*p = sim_json_str(in, "pn"), *q = sim_json_str(in, "to");
	char			 hex[2 * SIM_TOK_LEN + 1];
	int64_t			 t = route_now_s();
	unsigned		 queued;

	if (p == NULL || q == NULL || (from = sim_account_by_pn(s, p)) ==
	    NULL || (to = sim_account_by_pn(s, q)) == NULL)
		return sim_json_error(out, 404, "give pn and to, known users");
	if (json_object_object_get_ex(in, "t", &tv))
		t = json_object_get_int64(tv);
	if (t <= 0)
		return sim_json_error(out, 400, "t: unix seconds");
	queued = notify(s, to, from, t, &g);
	sim_hex(g->tok, sizeof(g->tok), hex);
	o = json_object_new_object();
	json_object_object_add(o, "token", json_object_new_string(hex));
	json_object_object_add(o, "t", json_object_new_int64(t));
	json_object_object_add(o, "queued", json_object_new_int64(queued));
	return sim_json_reply(out, o, 200);
}

static struct json_object *
state_json(struct sim *s)
{
	struct sim_tok		*st = state(s);
	struct json_object	*o = sim_tok_status_json(s), *v, *e;
	char			 hex[2 * SIM_TOK_LEN + 1];
	size_t			 i;

	v = json_object_new_array();
	for (i = 0; i < st->nrules; i++) {
		e = json_object_new_object();
		json_object_object_add(e, "pn",
		    json_object_new_string(st->rule[i].pn));
		json_object_object_add(e, "mode",
		    json_object_new_string(mode_names[st->rule[i].mode]));
		json_object_array_add(v, e);
	}
	json_object_object_add(o, "marked", v);
	v = json_object_new_array();
	for (i = 0; i < st->nissues; i++) {
		e = json_object_new_object();
		json_object_object_add(e, "from",
		    json_object_new_string(st->issue[i].from));
		json_object_object_add(e, "to",
		    json_object_new_string(st->issue[i].to));
		json_object_object_add(e, "count",
		    json_object_new_int64(st->issue[i].n));
		json_object_object_add(e, "last_t",
		    json_object_new_int64(st->issue[i].last_t));
		json_object_array_add(v, e);
	}
	json_object_object_add(o, "client_issued", v);
	v = json_object_new_array();
	for (i = 0; i < st->ngiven; i++) {
		const struct given *g = &st->given[i];

		e = json_object_new_object();
		json_object_object_add(e, "holder",
		    json_object_new_string(g->holder));
		json_object_object_add(e, "issuer",
		    json_object_new_string(g->issuer));
		sim_hex(g->tok, sizeof(g->tok), hex);
		json_object_object_add(e, "token", json_object_new_string(hex));
		json_object_object_add(e, "t", json_object_new_int64(g->t));
		json_object_object_add(e, "via", json_object_new_string(g->via));
		json_object_array_add(v, e);
	}
	json_object_object_add(o, "given", v);
	v = json_object_new_array();
	for (i = 0; i < st->nnacked && i < TOK_NACKED; i++)
		json_object_array_add(v, json_object_new_string(st->nacked[i]));
	json_object_object_add(o, "nacked", v);
	return o;
}

int
sim_tok_admin(struct sim *s, const char *path, struct json_object *in,
    bool post, struct buf *out)
{
	if (strncmp(path, "tokens", 6) != 0 || (path[6] != '\0' &&
	    path[6] != '/'))
		return 0;
	if (!post && strcmp(path, "tokens") == 0)
		return sim_json_reply(out, state_json(s), 200);
	if (post && strcmp(path, "tokens/require") == 0)
		return require(s, in, out);
	if (post && strcmp(path, "tokens/notify") == 0)
		return notify_route(s, in, out);
	return sim_json_error(out, 404, "no such route");
}

struct json_object *
sim_tok_status_json(struct sim *s)
{
	struct sim_tok		*st = state(s);
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "nacks_463",
	    json_object_new_int64((int64_t)st->nacks));
	json_object_object_add(o, "tokens_given",
	    json_object_new_int64((int64_t)st->given_count));
	json_object_object_add(o, "tokens_issued",
	    json_object_new_int64((int64_t)st->issued));
	json_object_object_add(o, "notifications",
	    json_object_new_int64((int64_t)st->notifications));
	json_object_object_add(o, "accepted_tctoken",
	    json_object_new_int64((int64_t)st->ok_tctoken));
	json_object_object_add(o, "accepted_cstoken",
	    json_object_new_int64((int64_t)st->ok_cstoken));
	return o;
}

void
sim_tok_free(struct sim *s)
{
	free(s->tok);
	s->tok = NULL;
}
