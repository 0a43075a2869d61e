/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appsync-send.c -- our own app-state mutations (mute, pin,
 * archive, ... made in wachat; protocol-features.md 2.7): the oldest
 * queued mutation of an up-to-date collection is built into a patch on
 * the stored state with the newest key (2.3), sent in a <sync> iq, and
 * committed (new version, hash, MAC row, the action's effect) once the
 * server takes it; a 409 goes back to proto/appsync.c, which takes the
 * winning patches and fetches again before it is built anew.  Engine
 * thread only (proto/appsync-int.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "sync"
#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/appstate.h"
#include "proto/appsync-int.h"
#include "proto/appsync.h"
#include "proto/askey.h"
#include "proto/crypto.h"
#include "proto/node.h"

struct wa_astx {
	const struct wa_appsync_host	 *h;
	const struct wa_appsync_store_ops *st;
	wa_appsync_event_fn		  on_event;
	void				 *ev_arg;

	/* The mutation out: coll -1 when none. */
	int			 coll;
	int64_t			 id;
	int			 attempts;	/* sends of last_id */
	int64_t			 last_id;
	struct wa_as_state	 base, next;
	struct arena		 a;		/* act's strings, changes */
	struct wa_as_action	 act;
	struct wa_as_change	*changes;
	size_t			 nchanges;

	unsigned		 blocked;	/* collections given up on for
						 * this connection */
	bool			 told_no_key;
};

struct wa_astx *
astx_new(const struct wa_appsync_host *h,
    const struct wa_appsync_store_ops *st, wa_appsync_event_fn on_event,
    void *ev_arg)
{
	struct wa_astx	*t;

	if (st->pending_next == NULL || st->pending_done == NULL ||
	    st->key_newest == NULL || h->rng == NULL)
		return NULL;
	t = xcalloc(1, sizeof(*t));
	t->h = h;
	t->st = st;
	t->on_event = on_event;
	t->ev_arg = ev_arg;
	t->coll = -1;
	arena_init(&t->a, 2048);
	return t;
}

void
astx_free(struct wa_astx *t)
{
	if (t == NULL)
		return;
	arena_release(&t->a);
	free(t);
}

void
astx_reset(struct wa_astx *t)
{
	if (t == NULL)
		return;
	t->coll = -1;
	t->attempts = 0;
	t->blocked = 0;
	t->told_no_key = false;
	arena_reset(&t->a);
}

static void
tell(struct wa_astx *t, enum wa_appsync_ev_kind kind, int err)
{
	struct wa_appsync_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = kind;
	ev.err = err;
	if (kind != WA_APPSYNC_EV_NO_KEY)
		ev.action = &t->act;
	t->on_event(t->ev_arg, &ev);
}

int
astx_any(struct wa_astx *t)
{
	int64_t	 id;
	uint8_t	*p = NULL;
	size_t	 len = 0;
	int	 i, rc;

	if (t == NULL)
		return 0;
	for (i = 0; i < WA_AS_NCOLL; i++) {
		rc = t->st->pending_next(t->st->arg, wa_as_coll_name(i), &id,
		    &p, &len);
		free(p);
		p = NULL;
		if (rc != 0)
			return rc;
	}
	return 0;
}

void
astx_no_key(struct wa_astx *t)
{
	if (t == NULL || t->told_no_key || astx_any(t) != 1)
		return;
	t->told_no_key = true;
	log_info("own app-state changes wait: no app-state key yet");
	tell(t, WA_APPSYNC_EV_NO_KEY, 0);
}

void
astx_queued(struct wa_astx *t)
{
	if (t != NULL) {
		t->told_no_key = false;
		t->blocked = 0;		/* the user asked again */
	}
}

int
as_store_mac(void *arg, enum wa_as_coll c,
    const uint8_t index_mac[WA_AS_MAC_LEN], uint8_t value_mac[WA_AS_MAC_LEN])
{
	const struct wa_appsync_store_ops	*st = arg;

	return st->mac_get(st->arg, wa_as_coll_name(c), index_mac, value_mac);
}

/* Mutation id of collection c, SyncActionData p[0..len), given up for
 * good (it does not decode, or is not of c): removed, said. */
static void
drop(struct wa_astx *t, enum wa_as_coll c, int64_t id, int err)
{
	log_warn("app state %s: own change %" PRId64 " unusable (%s): "
	    "dropped", wa_as_coll_name(c), id, wc_strerror(err));
	(void)t->st->pending_done(t->st->arg, id);
	memset(&t->act, 0, sizeof(t->act));
	tell(t, WA_APPSYNC_EV_SEND_FAILED, err);
}

/* The <sync> iq of patch p[0..len) on t->base of collection c. */
static int
send_iq(struct wa_astx *t, enum wa_as_coll c, const struct buf *p,
    char iq_id[32])
{
	struct arena	 a;
	struct wa_node	*iq, *sync, *k, *pt;
	int		 rc;

	arena_init(&a, 512);
	t->h->iq_id(t->h->arg, iq_id);
	iq = wa_nb_new(&a, "iq", 4);
	wa_nb_attr(iq, "id", iq_id);
	wa_nb_attr(iq, "xmlns", "w:sync:app:state");
	wa_nb_attr(iq, "type", "set");
	wa_nb_attr_server(iq, "to");
	sync = wa_nb_kid(&a, wa_nb_kids(&a, iq, 1), "sync", 0);
	k = wa_nb_kid(&a, wa_nb_kids(&a, sync, 1), "collection", 3);
	wa_nb_attr(k, "name", wa_as_coll_name(c));
	/* the version the patch is built on (2.7 step 5) */
	wa_nb_attr_num(&a, k, "version", (int64_t)t->base.version);
	wa_nb_attr(k, "return_snapshot", "false");
	pt = wa_nb_kid(&a, wa_nb_kids(&a, k, 1), "patch", 0);
	wa_nb_bytes(pt, p->p, p->len);
	rc = t->h->send(t->h->arg, iq);
	arena_release(&a);
	return rc;
}

/* Build mutation (id, act) of c on its stored state with key (kid,
 * kdata) and send it.  Returns 0, or < 0 (said). */
static int
build(struct wa_astx *t, enum wa_as_coll c, const uint8_t *kid,
    size_t kid_len, const uint8_t *kdata, size_t kdata_len, char iq[32])
{
	struct wa_as_keys	 keys;
	struct wa_as_send	 m;
	struct buf		 patch = BUF_INIT;
	int			 rc;

	if ((rc = t->st->state_get(t->st->arg, wa_as_coll_name(c),
	    &t->base)) < 0)
		return rc;
	if (rc == 0)
		memset(&t->base, 0, sizeof(t->base));
	if ((rc = wa_as_keys_expand(kdata, kdata_len, &keys)) != 0)
		return rc;
	memset(&m, 0, sizeof(m));
	m.op = WA_AS_SET;
	m.action = &t->act;
	if ((rc = t->h->rng(t->h->arg, m.iv, sizeof(m.iv))) == 0)
		rc = wa_as_patch_encode(&t->a, &keys, kid, kid_len, c,
		    &t->base, &m, 1, t->act.ts_ms, as_store_mac,
		    (void *)t->st, &patch,
		    &t->next, &t->changes, &t->nchanges);
	wa_crypto_wipe(&keys, sizeof(keys));
	if (rc == 0 && t->nchanges != 1)
		rc = WC_ESTATE;		/* one SET gives one change */
	if (rc == 0)
		rc = send_iq(t, c, &patch, iq);
	buf_release(&patch);
	return rc;
}

/* The oldest queued mutation of c into t->act (1), none (0), or < 0. */
static int
next_of(struct wa_astx *t, enum wa_as_coll c)
{
	uint8_t	*p = NULL;
	size_t	 len = 0;
	int	 rc;

	arena_reset(&t->a);
	memset(&t->act, 0, sizeof(t->act));
	rc = t->st->pending_next(t->st->arg, wa_as_coll_name(c), &t->id, &p,
	    &len);
	if (rc != 1) {
		free(p);
		return rc;
	}
	rc = wa_as_action_decode(&t->a, p, len, &t->act);
	free(p);
	if (rc == 0 && wa_as_action_coll(t->act.kind) != (int)c)
		rc = -EINVAL;
	if (rc != 0) {
		drop(t, c, t->id, rc);
		return next_of(t, c);	/* the next one, if any */
	}
	return 1;
}

int
astx_send(struct wa_astx *t, unsigned idle, char iq[32])
{
	uint8_t		 kid[WA_AS_KEY_ID_MAX], kdata[WA_ASKEY_DATA_MAX];
	size_t		 kid_len = 0, kdata_len = 0;
	int		 i, rc, krc = -1;

	if (t == NULL || t->coll >= 0)
		return -1;
	for (i = 0; i < WA_AS_NCOLL; i++) {
		if ((idle & (1u << i)) == 0 || (t->blocked & (1u << i)) != 0)
			continue;
		if ((rc = next_of(t, (enum wa_as_coll)i)) <= 0) {
			if (rc < 0)
				log_warn("app state %s: the outbox: %s",
				    wa_as_coll_name(i), wc_strerror(rc));
			continue;
		}
		if (krc < 0 && (krc = t->st->key_newest(t->st->arg, kid,
		    &kid_len, kdata, &kdata_len)) != 1) {
			wa_crypto_wipe(kdata, sizeof(kdata));
			if (krc == 0)
				astx_no_key(t);
			return -1;
		}
		if (t->id != t->last_id) {	/* attempts per mutation */
			t->attempts = 0;
			t->last_id = t->id;
		}
		rc = build(t, (enum wa_as_coll)i, kid, kid_len, kdata,
		    kdata_len, iq);
		if (rc != 0) {
			log_warn("app state %s: own change not sent: %s",
			    wa_as_coll_name(i), wc_strerror(rc));
			t->blocked |= 1u << i;
			tell(t, WA_APPSYNC_EV_SEND_FAILED, rc);
			continue;
		}
		wa_crypto_wipe(kdata, sizeof(kdata));
		t->coll = i;
		t->attempts++;
		log_info("app state %s: own change %" PRId64 " sent on version "
		    "%" PRIu64 " (attempt %d)", wa_as_coll_name(i), t->id,
		    t->base.version, t->attempts);
		tell(t, WA_APPSYNC_EV_SENDING, 0);
		return i;
	}
	wa_crypto_wipe(kdata, sizeof(kdata));
	return -1;
}

/* The patch was taken: commit it as a verified patch of one SET. */
static int
commit(struct wa_astx *t)
{
	struct wa_as_mutation	 mu;
	struct wa_as_apply_out	 out;
	struct wa_appsync_commit cm;
	int			 rc;

	memset(&mu, 0, sizeof(mu));
	mu.op = WA_AS_SET;
	memcpy(mu.index_mac, t->changes[0].index_mac, WA_AS_MAC_LEN);
	memcpy(mu.value_mac, t->changes[0].value_mac, WA_AS_MAC_LEN);
	mu.action = t->act;
	memset(&out, 0, sizeof(out));
	out.mutations = &mu;
	out.n_mutations = 1;
	out.changes = t->changes;
	out.n_changes = t->nchanges;
	memset(&cm, 0, sizeof(cm));
	cm.coll = (enum wa_as_coll)t->coll;
	cm.name = wa_as_coll_name(t->coll);
	cm.base_version = t->base.version;
	cm.state = &t->next;
	cm.out = &out;
	if ((rc = t->st->commit(t->st->arg, &cm)) == -ESTALE) {
		/* cannot be while the collection was ours; the server has
		 * it: the next fetch brings it */
		log_warn("app state %s: the stored version moved under our "
		    "own patch", cm.name);
		rc = 0;
	}
	return rc;
}

/* The <collection> of t->coll in answer sync, or NULL. */
static const struct wa_node *
coll_of(const struct wa_astx *t, const struct wa_node *sync)
{
	size_t	 i, n = wa_node_nkids(sync);

	for (i = 0; i < n; i++) {
		const struct wa_node *k = wa_node_kid(sync, i);

		if (wa_str_eqc(k->tag, "collection") && wa_node_str_is(k,
		    "name", wa_as_coll_name(t->coll)))
			return k;
	}
	return NULL;
}

/* Accepted: committed, out of the outbox, said. */
static int
accepted(struct wa_astx *t)
{
	struct wa_appsync_ev	 ev;
	int			 rc;

	if ((rc = commit(t)) < 0)
		return rc;	/* stays queued: sent again next time */
	if ((rc = t->st->pending_done(t->st->arg, t->id)) < 0)
		log_warn("app state: own change %" PRId64 " not removed from "
		    "the outbox: %s", t->id, wc_strerror(rc));
	log_info("app state %s: own change %" PRId64 " taken as version "
	    "%" PRIu64, wa_as_coll_name(t->coll), t->id, t->next.version);
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_APPSYNC_EV_CHANGED;
	ev.actions = 1;
	ev.colls = 1u << t->coll;
	ev.chats = true;
	t->on_event(t->ev_arg, &ev);
	tell(t, WA_APPSYNC_EV_SENT, 0);
	t->attempts = 0;
	return ASTX_DONE;
}

/* Not taken (code > 0 the server's, < 0 ours): left queued, the
 * collection not tried again on this connection. */
static int
refused(struct wa_astx *t, int code)
{
	log_warn("app state %s: own change %" PRId64 " not taken (%d): kept "
	    "in the outbox", wa_as_coll_name(t->coll), t->id, code);
	t->blocked |= 1u << t->coll;
	t->attempts = 0;
	tell(t, WA_APPSYNC_EV_SEND_FAILED, code);
	return ASTX_DONE;
}

int
astx_answer(struct wa_astx *t, const struct wa_node *n)
{
	const struct wa_node	*sync, *k, *e;
	int64_t			 code = 0;
	int			 rc;

	if (t == NULL || t->coll < 0)
		return ASTX_DONE;
	sync = wa_node_child(n, "sync");
	if (!wa_node_str_is(n, "type", "result") || sync == NULL) {
		e = wa_node_child(n, "error");
		if (e == NULL || wa_node_num(e, "code", &code) != 1)
			code = 500;
		rc = refused(t, (int)code);
	} else if ((k = coll_of(t, sync)) == NULL ||
	    !wa_node_str_is(k, "type", "error"))
		rc = accepted(t);	/* [RS]: no <collection> = taken */
	else {
		e = wa_node_child(k, "error");
		if (e == NULL || wa_node_num(e, "code", &code) != 1)
			code = 500;
		if (code != 409)
			rc = refused(t, (int)code);
		else if (t->attempts >= WA_APPSYNC_SEND_ATTEMPTS) {
			(void)refused(t, 409);
			rc = ASTX_CONFLICT;	/* its patches still taken */
		} else {
			log_info("app state %s: own change %" PRId64 ": 409, "
			    "built again on the newer state",
			    wa_as_coll_name(t->coll), t->id);
			rc = ASTX_CONFLICT;
		}
	}
	t->coll = -1;
	return rc;
}
