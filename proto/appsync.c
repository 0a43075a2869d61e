/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/appsync.c -- app state sync in the engine (proto/appsync.h). */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

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
#include "proto/bin.h"
#include "proto/crypto.h"
#include "proto/http-get.h"
#include "proto/media.h"
#include "proto/mediaconn.h"
#include "proto/node.h"

/* A collection's standing on this connection. */
enum cstate {
	C_IDLE,		/* up to date as far as we know */
	C_WANT,		/* to fetch in the next iq */
	C_ASKED,	/* in the iq out, or its answer being taken */
	C_PARKED,	/* waits for a key (wa_appsync_keys()) */
	C_RETRY,	/* the server or the network failed: at the next
			 * trigger */
	C_DEAD,		/* given up until the next login */
};

struct coll {
	enum cstate	 st;
	bool		 again;		/* a trigger came while ASKED */
	bool		 stop;		/* the rest of this answer is skipped */
	bool		 more;		/* has_more_patches */
	int		 resets;	/* snapshots after a mismatch, in a
					 * row (a good one ends the row) */
};

/* One piece of an answer, taken in order. */
enum item_kind { I_SNAPSHOT, I_PATCH, I_END };

struct item {
	enum item_kind	 kind;
	enum wa_as_coll	 coll;
	uint8_t		*p;		/* the node's bytes, owned */
	size_t		 len;
};

enum mstate { M_IDLE, M_SYNC, M_TAKE, M_MEDIA_CONN, M_FETCH };

/* A key asked of the phone, and when (wall clock, ms). */
struct asked {
	uint8_t		 id[WA_AS_KEY_ID_MAX];
	size_t		 len;
	int64_t		 at_ms;
};

/* The last keys expanded (one apply uses one or two). */
#define KEY_CACHE	4
struct kc {
	uint8_t		 id[WA_AS_KEY_ID_MAX];
	size_t		 len;
	struct wa_as_keys keys;
};

struct wa_appsync {
	struct wa_appsync_host	 host;
	const struct wa_appsync_store_ops *st;
	wa_appsync_event_fn	 on_event;
	void			*ev_arg;

	bool			 online, held, running, rerun;
	enum mstate		 state;
	char			 iq[32];	/* the sync iq out */
	char			 mc_iq[32];	/* the media_conn iq out */
	unsigned		 rounds;	/* iqs since the trigger */
	uint64_t		 asked_ms;	/* the iq out was sent (uv_now) */
	struct coll		 c[WA_AS_NCOLL];

	/* The answer being taken: items[next..n). */
	struct item		*items;
	size_t			 n, next;
	/* The item waiting for its blob: parsed into ia. */
	struct arena		 ia;
	struct wa_as_patch	 patch;		/* I_PATCH */
	struct wa_as_blobref	 ref;		/* what is downloaded */
	size_t			 host_i;
	struct wa_http_get	*get;
	struct wa_mediaconn	 mc;

	/* What this answer committed, for one event. */
	struct wa_appsync_ev	 done;

	/* our own mutations (proto/appsync-send.c); NULL: none sent */
	struct wa_astx		*tx;
	int			 tx_coll;	/* the collection of the send
						 * out, -1 none */

	struct asked		 asked[WA_APPSYNC_KEYS_ASKED];
	struct kc		 kc[KEY_CACHE];
	size_t			 nkc;
};

static void	run(struct wa_appsync *s);
static void	store_failed(struct wa_appsync *s, int rc);

/* --- lookups for wa_as_apply() --- */

static int
key_fn(void *arg, const uint8_t *id, size_t len, struct wa_as_keys *out)
{
	struct wa_appsync	*s = arg;
	uint8_t			 data[WA_ASKEY_DATA_MAX];
	size_t			 dlen = 0, i;
	int			 rc;

	if (len == 0 || len > WA_AS_KEY_ID_MAX)
		return 0;
	for (i = 0; i < s->nkc; i++)
		if (s->kc[i].len == len && memcmp(s->kc[i].id, id, len) == 0) {
			*out = s->kc[i].keys;
			return 1;
		}
	if ((rc = s->st->key_get(s->st->arg, id, len, data, &dlen)) != 1)
		return rc;
	rc = wa_as_keys_expand(data, dlen, out);
	wa_crypto_wipe(data, sizeof(data));
	if (rc != 0)
		return 0;	/* keyData we cannot use: as missing */
	i = s->nkc < KEY_CACHE ? s->nkc++ : 0;
	memcpy(s->kc[i].id, id, len);
	s->kc[i].len = len;
	s->kc[i].keys = *out;
	return 1;
}

static void
forget_keys(struct wa_appsync *s)
{
	wa_crypto_wipe(s->kc, sizeof(s->kc));
	s->nkc = 0;
}

/* --- life --- */

int
wa_appsync_new(const struct wa_appsync_host *host,
    const struct wa_appsync_store_ops *st, wa_appsync_event_fn on_event,
    void *ev_arg, struct wa_appsync **out)
{
	struct wa_appsync	*s;

	if (host == NULL || st == NULL || on_event == NULL || out == NULL ||
	    host->send == NULL || host->iq_id == NULL ||
	    host->send_peer == NULL || host->now_ms == NULL ||
	    host->loop == NULL || st->key_any == NULL || st->key_get == NULL ||
	    st->state_get == NULL || st->state_reset == NULL ||
	    st->mac_get == NULL || st->commit == NULL)
		return -EINVAL;
	s = xcalloc(1, sizeof(*s));
	s->host = *host;
	if (s->host.http_get == NULL || s->host.http_cancel == NULL) {
		s->host.http_get = wa_http_get;
		s->host.http_cancel = wa_http_get_cancel;
	}
	s->st = st;
	s->on_event = on_event;
	s->ev_arg = ev_arg;
	arena_init(&s->ia, 4096);
	s->tx = astx_new(&s->host, st, on_event, ev_arg);
	s->tx_coll = -1;
	*out = s;
	return 0;
}

/* Forget the answer being taken and the download in flight. */
static void
drop_answer(struct wa_appsync *s)
{
	size_t	 i;

	if (s->get != NULL)
		s->host.http_cancel(s->get);
	s->get = NULL;
	for (i = 0; i < s->n; i++)
		free(s->items[i].p);
	free(s->items);
	s->items = NULL;
	s->n = s->next = 0;
	arena_reset(&s->ia);
	memset(&s->patch, 0, sizeof(s->patch));
	memset(&s->ref, 0, sizeof(s->ref));
	forget_keys(s);
	s->iq[0] = s->mc_iq[0] = '\0';
	s->state = M_IDLE;
	s->tx_coll = -1;
	astx_reset(s->tx);
}

void
wa_appsync_free(struct wa_appsync *s)
{
	if (s == NULL)
		return;
	drop_answer(s);
	astx_free(s->tx);
	arena_release(&s->ia);
	free(s);
}

static void
emit(struct wa_appsync *s, const struct wa_appsync_ev *ev)
{
	s->on_event(s->ev_arg, ev);
}

/* A collection to fetch (again, if asked now). */
static void
want(struct wa_appsync *s, enum wa_as_coll c)
{
	if (s->c[c].st == C_ASKED)
		s->c[c].again = true;
	else if (s->c[c].st != C_DEAD)
		s->c[c].st = C_WANT;
}

/* A trigger: a fresh budget of rounds, then fetch what is wanted. */
static void
trigger(struct wa_appsync *s)
{
	int	 i;

	for (i = 0; i < WA_AS_NCOLL; i++)
		if (s->c[i].st == C_RETRY)
			s->c[i].st = C_WANT;	/* "retried later" (2.4) */
	if ((s->state == M_SYNC || s->state == M_MEDIA_CONN) &&
	    uv_now(s->host.loop) - s->asked_ms > WA_APPSYNC_IQ_TIMEOUT_MS) {
		/* an answer that never came: asked again */
		log_warn("app state: no answer to the %s iq: asking again",
		    s->state == M_SYNC ? "sync" : "media_conn");
		drop_answer(s);
		for (i = 0; i < WA_AS_NCOLL; i++)
			if (s->c[i].st == C_ASKED)
				s->c[i].st = C_WANT;
	}
	if (s->state == M_IDLE)
		s->rounds = 0;
	run(s);
}

void
wa_appsync_online(struct wa_appsync *s)
{
	int	 i, rc;

	drop_answer(s);
	s->online = true;
	s->held = false;
	s->mc.n = 0;
	for (i = 0; i < WA_AS_NCOLL; i++) {
		memset(&s->c[i], 0, sizeof(s->c[i]));
		s->c[i].st = C_WANT;
	}
	if ((rc = s->st->key_any(s->st->arg)) == 0) {
		/* the phone shares them after linking: wait for that */
		log_info("no app-state key yet: waiting for the phone's");
		for (i = 0; i < WA_AS_NCOLL; i++)
			s->c[i].st = C_PARKED;
		astx_no_key(s->tx);	/* our own changes wait */
		return;
	}
	if (rc < 0)
		log_warn("app-state keys: %s", wc_strerror(rc));
	trigger(s);
}

void
wa_appsync_offline(struct wa_appsync *s)
{
	int	 i;

	s->online = false;
	drop_answer(s);
	for (i = 0; i < WA_AS_NCOLL; i++)
		if (s->c[i].st == C_ASKED)
			s->c[i].st = C_WANT;
}

void
wa_appsync_keys(struct wa_appsync *s)
{
	struct wa_as_state	 st;
	int			 i, rc;

	for (i = 0; i < WA_AS_NCOLL; i++) {
		if (s->c[i].st == C_PARKED) {
			want(s, (enum wa_as_coll)i);
			continue;
		}
		rc = s->st->state_get(s->st->arg, wa_as_coll_name(i), &st);
		if (rc == 0 || (rc == 1 && st.version == 0))
			want(s, (enum wa_as_coll)i);	/* never synced */
	}
	if (s->online)
		trigger(s);
}

/* --- the sync iq (2.4) --- */

/* Send one <sync> iq for every wanted collection; false when none. */
static bool
send_sync(struct wa_appsync *s)
{
	struct arena		 a;
	struct wa_node		*iq, *sync, *k;
	struct wa_as_state	 st;
	size_t			 nk = 0, j = 0;
	int			 i, rc;

	for (i = 0; i < WA_AS_NCOLL; i++)
		if (s->c[i].st == C_WANT)
			nk++;
	if (nk == 0)
		return false;
	if (s->rounds >= WA_APPSYNC_MAX_ROUNDS) {
		log_warn("app state: %u sync rounds in a row; the rest waits "
		    "for the next notification or login", s->rounds);
		for (i = 0; i < WA_AS_NCOLL; i++)
			if (s->c[i].st == C_WANT)
				s->c[i].st = C_RETRY;
		return false;
	}
	s->rounds++;
	arena_init(&a, 1024);
	s->host.iq_id(s->host.arg, s->iq);
	iq = wa_nb_new(&a, "iq", 4);
	wa_nb_attr(iq, "id", s->iq);
	wa_nb_attr(iq, "xmlns", "w:sync:app:state");
	wa_nb_attr(iq, "type", "set");
	wa_nb_attr_server(iq, "to");
	sync = wa_nb_kid(&a, wa_nb_kids(&a, iq, 1), "sync", 0);
	k = wa_nb_kids(&a, sync, nk);
	for (i = 0; i < WA_AS_NCOLL; i++) {
		struct wa_node	*c;

		if (s->c[i].st != C_WANT)
			continue;
		if ((rc = s->st->state_get(s->st->arg, wa_as_coll_name(i),
		    &st)) < 0) {
			log_error("app state %s: %s", wa_as_coll_name(i),
			    wc_strerror(rc));
			st.version = 0;
		} else if (rc == 0)
			st.version = 0;
		c = wa_nb_kid(&a, &k[j++], "collection", 3);
		wa_nb_attr(c, "name", wa_as_coll_name(i));
		/* a snapshot is asked without a version ([WM], [RS]) */
		wa_nb_attr(c, "return_snapshot", st.version == 0 ? "true" :
		    "false");
		if (st.version != 0)
			wa_nb_attr_num(&a, c, "version", (int64_t)st.version);
		s->c[i].st = C_ASKED;
		s->c[i].again = s->c[i].stop = s->c[i].more = false;
	}
	s->state = M_SYNC;
	s->asked_ms = uv_now(s->host.loop);
	if ((rc = s->host.send(s->host.arg, iq)) != 0) {
		log_warn("app state sync iq not sent: %s", wc_strerror(rc));
		for (i = 0; i < WA_AS_NCOLL; i++)
			if (s->c[i].st == C_ASKED)
				s->c[i].st = C_RETRY;
		s->state = M_IDLE;
		s->iq[0] = '\0';
	}
	arena_release(&a);
	return rc == 0;
}

/* --- taking an answer --- */

static void
add_item(struct wa_appsync *s, size_t *cap, enum item_kind kind,
    enum wa_as_coll c, const uint8_t *p, size_t len)
{
	struct item	*it;

	if (s->n == *cap) {
		*cap = *cap == 0 ? 16 : *cap * 2;
		s->items = xrealloc(s->items, *cap * sizeof(*s->items));
	}
	it = &s->items[s->n++];
	it->kind = kind;
	it->coll = c;
	it->len = len;
	it->p = NULL;
	if (len > 0) {
		it->p = xmalloc(len);
		memcpy(it->p, p, len);
	}
}

/* A <collection type="error"> (2.4): 409 carries the winning patches
 * (taken, then fetched again), 400 and 404 are fatal, the rest retried
 * at the next trigger.  Returns true when its patches are to be taken. */
static bool
coll_error(struct wa_appsync *s, enum wa_as_coll c, const struct wa_node *k)
{
	const struct wa_node	*e = wa_node_child(k, "error");
	int64_t			 code = 0;

	if (e == NULL || wa_node_num(e, "code", &code) != 1)
		code = 0;
	if (code == 409) {
		log_info("app state %s: conflict (409): taking the newer "
		    "patches", wa_as_coll_name(c));
		s->c[c].more = true;
		return true;
	}
	if (code == 400 || code == 404) {
		log_warn("app state %s: the server refused it (%" PRId64 "): "
		    "given up until the next login", wa_as_coll_name(c), code);
		s->c[c].st = C_DEAD;
		return false;
	}
	log_warn("app state %s: server error %" PRId64 ": again later",
	    wa_as_coll_name(c), code);
	s->c[c].st = C_RETRY;
	return false;
}

/* One <collection> of the answer into items. */
static void
take_coll(struct wa_appsync *s, const struct wa_node *k, size_t *cap)
{
	const struct wa_node	*pp, *sn, *p;
	const uint8_t		*b;
	char			 name[32];
	size_t			 i, n, len, taken = 0;
	int			 c;

	wa_node_str_copy(k, "name", name, sizeof(name));
	if ((c = wa_as_coll_find(name)) < 0 || s->c[c].st != C_ASKED) {
		log_warn("app state: an answer for a collection not asked");
		return;
	}
	s->c[c].more = wa_node_str_is(k, "has_more_patches", "true");
	if (wa_node_str_is(k, "type", "error") && !coll_error(s,
	    (enum wa_as_coll)c, k))
		return;
	if ((sn = wa_node_child(k, "snapshot")) != NULL &&
	    wa_node_bytes(sn, &b, &len))
		add_item(s, cap, I_SNAPSHOT, (enum wa_as_coll)c, b, len);
	/* <patches><patch/>...</patches>, or <patch> right under it ([BL]) */
	pp = wa_node_child(k, "patches");
	for (int pass = 0; pass < 2; pass++) {
		const struct wa_node *parent = pass == 0 ? pp : k;

		n = wa_node_nkids(parent);
		for (i = 0; i < n; i++) {
			p = wa_node_kid(parent, i);
			if (!wa_str_eqc(p->tag, "patch") ||
			    !wa_node_bytes(p, &b, &len))
				continue;
			if (taken++ == WA_APPSYNC_MAX_PATCHES) {
				s->c[c].more = true;	/* the rest: next */
				break;
			}
			add_item(s, cap, I_PATCH, (enum wa_as_coll)c, b, len);
		}
	}
	add_item(s, cap, I_END, (enum wa_as_coll)c, NULL, 0);
}

/* The answer n to our own patch (proto/appsync-send.c): true when it is
 * all taken; false after a 409, whose patches are taken as any answer's
 * (and the collection fetched again before the patch is built anew). */
static bool
own_answer(struct wa_appsync *s, const struct wa_node *n)
{
	enum wa_as_coll	 c = (enum wa_as_coll)s->tx_coll;
	int		 rc;

	s->tx_coll = -1;
	if ((rc = astx_answer(s->tx, n)) == ASTX_CONFLICT)
		return false;
	s->c[c].st = s->c[c].again ? C_WANT : C_IDLE;
	s->state = M_IDLE;
	if (rc < 0)
		store_failed(s, rc);
	return true;
}

static void
on_sync_answer(struct wa_appsync *s, const struct wa_node *n)
{
	const struct wa_node	*sync, *k;
	size_t			 i, nk, cap = 0;

	s->iq[0] = '\0';
	if (s->tx_coll >= 0 && own_answer(s, n))
		return;
	sync = wa_node_child(n, "sync");
	if (!wa_node_str_is(n, "type", "result") || sync == NULL) {
		log_warn("app state: the sync iq failed (%.*s): again later",
		    (int)wa_node_str(wa_node_child(n, "error"), "code").len,
		    wa_node_str(wa_node_child(n, "error"), "code").p);
		for (i = 0; i < WA_AS_NCOLL; i++)
			if (s->c[i].st == C_ASKED)
				s->c[i].st = C_RETRY;
		s->state = M_IDLE;
		return;
	}
	memset(&s->done, 0, sizeof(s->done));
	s->done.kind = WA_APPSYNC_EV_CHANGED;
	nk = wa_node_nkids(sync);
	for (i = 0; i < nk; i++) {
		k = wa_node_kid(sync, i);
		if (wa_str_eqc(k->tag, "collection"))
			take_coll(s, k, &cap);
	}
	/* asked but not answered: again later */
	for (i = 0; i < WA_AS_NCOLL; i++) {
		bool	 seen = false;
		size_t	 j;

		for (j = 0; j < s->n; j++)
			seen |= s->items[j].coll == (enum wa_as_coll)i;
		if (s->c[i].st == C_ASKED && !seen)
			s->c[i].st = C_RETRY;
	}
	s->next = 0;
	s->state = M_TAKE;
}

/* --- outcomes of one item --- */

/* A write failed with rc: nothing more on this connection. */
static void
store_failed(struct wa_appsync *s, int rc)
{
	struct wa_appsync_ev	 ev;
	bool			 told = s->held;

	log_error("app state: the store failed: %s", wc_strerror(rc));
	s->held = true;
	if (told || (rc != -ENOSPC && rc != -EIO))
		return;
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_APPSYNC_EV_STORE_FAILED;
	ev.err = rc;
	emit(s, &ev);
}

/* Collection c cannot be trusted (a MAC or LTHash mismatch, a malformed
 * or undecryptable patch or snapshot: why): its state is reset and a
 * snapshot fetched, WA_APPSYNC_MAX_RESETS times per connection. */
static void
mismatch(struct wa_appsync *s, enum wa_as_coll c, const char *why, int err)
{
	int	 rc;

	s->c[c].stop = true;
	log_warn("app state %s: %s (%s)", wa_as_coll_name(c), why,
	    wc_strerror(err));
	if ((rc = s->st->state_reset(s->st->arg, wa_as_coll_name(c))) < 0) {
		store_failed(s, rc);
		return;
	}
	if (s->c[c].resets++ >= WA_APPSYNC_MAX_RESETS) {
		log_warn("app state %s: still wrong after %d snapshots: given "
		    "up until the next login", wa_as_coll_name(c),
		    WA_APPSYNC_MAX_RESETS);
		s->c[c].st = C_DEAD;
		return;
	}
	log_info("app state %s: reset, fetching a snapshot",
	    wa_as_coll_name(c));
	s->c[c].st = C_WANT;	/* version 0 now: a snapshot */
}

static bool
asked_recently(struct wa_appsync *s, const uint8_t *id, size_t len,
    int64_t now)
{
	size_t	 i, old = 0;

	for (i = 0; i < WA_APPSYNC_KEYS_ASKED; i++) {
		if (s->asked[i].len == len && memcmp(s->asked[i].id, id,
		    len) == 0) {
			if (now - s->asked[i].at_ms < WA_APPSYNC_KEY_REQUEST_MS)
				return true;
			old = i;
			break;
		}
		if (s->asked[i].at_ms < s->asked[old].at_ms)
			old = i;
	}
	memcpy(s->asked[old].id, id, len);
	s->asked[old].len = len;
	s->asked[old].at_ms = now;
	return false;
}

/* Collection c waits for key id[0..len): parked, and the key asked of our
 * phone once per WA_APPSYNC_KEY_REQUEST_MS (2.3). */
static void
missing_key(struct wa_appsync *s, enum wa_as_coll c, const uint8_t *id,
    size_t len)
{
	struct buf	 msg = BUF_INIT;
	const uint8_t	*ids[1] = { id };
	size_t		 lens[1] = { len };
	int		 rc;

	s->c[c].stop = true;
	s->c[c].st = C_PARKED;
	if (len == 0 || len > WA_AS_KEY_ID_MAX)
		return;
	if (asked_recently(s, id, len, s->host.now_ms(s->host.arg))) {
		log_info("app state %s: waits for a key asked before",
		    wa_as_coll_name(c));
		return;
	}
	if ((rc = wa_askey_request(ids, lens, 1, &msg)) == 0)
		rc = s->host.send_peer(s->host.arg, msg.p, msg.len);
	buf_release(&msg);
	if (rc != 0)
		log_warn("app state %s: key request not sent: %s",
		    wa_as_coll_name(c), wc_strerror(rc));
	else
		log_info("app state %s: a key is missing: asked our phone",
		    wa_as_coll_name(c));
}

/* What the actions of out change, for the event. */
static void
count_actions(struct wa_appsync *s, const struct wa_as_apply_out *out)
{
	size_t	 i;

	for (i = 0; i < out->n_mutations; i++) {
		const struct wa_as_mutation *m = &out->mutations[i];

		if (m->err != 0)
			continue;
		s->done.actions++;
		switch (m->action.kind) {
		case WA_AS_ACT_CONTACT:
		case WA_AS_ACT_LID_CONTACT:
		case WA_AS_ACT_PUSH_NAME:
			s->done.names = true;
			break;
		case WA_AS_ACT_MUTE:
		case WA_AS_ACT_PIN:
		case WA_AS_ACT_ARCHIVE:
		case WA_AS_ACT_MARK_READ:
		case WA_AS_ACT_STAR:
		case WA_AS_ACT_DELETE_MSG_FOR_ME:
		case WA_AS_ACT_CLEAR_CHAT:
		case WA_AS_ACT_DELETE_CHAT:
		case WA_AS_ACT_LOCK:
			s->done.chats = true;
			break;
		case WA_AS_ACT_UNKNOWN:
		case WA_AS_ACT_UNARCHIVE_SETTING:
		case WA_AS_ACT_PN_FOR_LID:
		case WA_AS_ACT_USER_STATUS_MUTE:
		case WA_AS_ACT_IGNORED:
		case WA_AS_ACT_NKIND:
			break;
		}
	}
}

/*
 * Verify records[0..n) (a snapshot, or a patch) of collection c and
 * commit them.  The outcome goes to the collection's state.
 */
static void
apply(struct wa_appsync *s, enum wa_as_coll c, bool snapshot,
    const struct wa_as_record *records, size_t n, uint64_t version,
    bool has_version, const uint8_t *key_id, size_t key_id_len,
    const uint8_t *snapshot_mac, const uint8_t *patch_mac)
{
	struct wa_as_apply_in	 in;
	struct wa_as_apply_out	 out;
	struct wa_appsync_commit cm;
	struct wa_as_state	 st, before;
	struct arena		 a;
	int			 rc;

	if ((rc = s->st->state_get(s->st->arg, wa_as_coll_name(c), &st)) <
	    0) {
		store_failed(s, rc);
		return;
	}
	if (rc == 0)
		memset(&st, 0, sizeof(st));
	if (!snapshot && st.version == 0) {
		/* a patch on nothing: the server owes us a snapshot */
		mismatch(s, c, "a patch came for a collection never synced",
		    WC_ESTATE);
		return;
	}
	before = st;
	memset(&in, 0, sizeof(in));
	in.coll = c;
	in.snapshot = snapshot;
	in.records = records;
	in.n_records = n;
	in.key_id = key_id;
	in.key_id_len = key_id_len;
	in.version = snapshot || has_version ? version : st.version + 1;
	in.snapshot_mac = snapshot_mac;
	in.patch_mac = patch_mac;
	in.key_fn = key_fn;
	in.key_arg = s;
	in.mac_fn = as_store_mac;
	in.mac_arg = (void *)s->st;
	memset(&out, 0, sizeof(out));
	arena_init(&a, 16 * 1024);
	rc = wa_as_apply(&a, &in, &st, &out);
	if (rc == WC_ESTATE && !snapshot) {
		log_debug("app state %s: patch %" PRIu64 " is applied already",
		    wa_as_coll_name(c), in.version);
	} else if (rc == WC_EASNOKEY) {
		missing_key(s, c, out.missing_key_id, out.missing_key_id_len);
	} else if (rc == WC_EASHASH || rc == WC_EASPATCHMAC) {
		mismatch(s, c, rc == WC_EASHASH ? "the LTHash does not give "
		    "the snapshot MAC" : "the patch MAC does not verify", rc);
	} else if (rc == -ENOSPC || rc == -EIO) {
		store_failed(s, rc);
	} else if (rc != 0) {
		mismatch(s, c, snapshot ? "the snapshot is unusable" :
		    "the patch is unusable", rc);
	} else {
		memset(&cm, 0, sizeof(cm));
		cm.coll = c;
		cm.name = wa_as_coll_name(c);
		cm.snapshot = snapshot;
		cm.base_version = before.version;
		cm.state = &st;
		cm.out = &out;
		if ((rc = s->st->commit(s->st->arg, &cm)) == -ESTALE) {
			/* the state moved under us: fetch from it again */
			log_info("app state %s: the stored version moved",
			    wa_as_coll_name(c));
			s->c[c].stop = true;
			s->c[c].more = true;
		} else if (rc < 0)
			store_failed(s, rc);
		else {
			log_info("app state %s: %s %" PRIu64 " committed (%zu "
			    "records)", wa_as_coll_name(c), snapshot ?
			    "snapshot" : "patch", st.version, n);
			s->done.colls |= 1u << c;
			count_actions(s, &out);
			if (snapshot)
				s->c[c].resets = 0;	/* recovered */
		}
	}
	arena_release(&a);
}

/* --- downloads (2.4: like media, 1.5) --- */

static void	fetch(struct wa_appsync *s);
static void	blob_taken(struct wa_appsync *s, const uint8_t *p, size_t len);

/* The item waiting for its blob failed for good (why): as a mismatch. */
static void
blob_failed(struct wa_appsync *s, const char *why, int err)
{
	struct item	*it = &s->items[s->next];

	mismatch(s, it->coll, why, err);
	s->next++;
	arena_reset(&s->ia);
	s->state = M_TAKE;
}

static void
on_fetched(void *arg, int err, long status, uint8_t *body, size_t len,
    const char *why)
{
	struct wa_appsync	*s = arg;
	struct item		*it = &s->items[s->next];
	struct buf		 plain = BUF_INIT;
	const char		*why2 = NULL;
	int			 rc;

	s->get = NULL;
	if (err != 0 || status < 200 || status > 299) {
		free(body);
		if (err == 0 && (status == 404 || status == 410)) {
			blob_failed(s, "the blob is gone from the media server",
			    -ENOENT);
			run(s);
			return;
		}
		if (err == 0)
			log_warn("app state blob: HTTP %ld", status);
		else
			log_warn("app state blob: %s", why);
		if (++s->host_i < s->mc.n) {
			fetch(s);	/* the next host */
			return;
		}
		/* the network: this collection again later */
		s->c[it->coll].stop = true;
		s->c[it->coll].st = C_RETRY;
		s->next++;
		arena_reset(&s->ia);
		s->state = M_TAKE;
		run(s);
		return;
	}
	rc = wa_media_decrypt(s->ref.media_key, WA_MEDIA_INFO_APP_STATE, body,
	    len, s->ref.enc_sha256, s->ref.sha256, WA_APPSYNC_BLOB_MAX, &plain,
	    &why2);
	free(body);
	if (rc != 0) {
		log_warn("app state blob: %s", why2 != NULL ? why2 :
		    wc_strerror(rc));
		blob_failed(s, "the blob does not decrypt", rc);
	} else
		blob_taken(s, plain.p, plain.len);
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	run(s);
}

static void
fetch(struct wa_appsync *s)
{
	struct wa_http_req	 r;
	char			 url[WA_MEDIACONN_HOST_MAX + 4096];
	int			 rc;

	if ((rc = wa_mediaconn_url(s->mc.hosts[s->host_i],
	    s->ref.direct_path, s->ref.enc_sha256, "md-app-state", url,
	    sizeof(url))) != 0) {
		blob_failed(s, "the blob reference names no usable path", rc);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.url = url;
	r.ca_file = s->host.ca_file;
	r.timeout_ms = WA_APPSYNC_TIMEOUT_MS;
	r.max_body = WA_APPSYNC_BLOB_MAX + 64;
	r.headers[0] = "Origin: https://web.whatsapp.com";
	r.headers[1] = "Referer: https://web.whatsapp.com/";
	s->state = M_FETCH;
	if ((rc = s->host.http_get(s->host.loop, &r, on_fetched, s,
	    &s->get)) != 0) {
		struct item *it = &s->items[s->next];

		log_warn("app state blob download not started: %s",
		    wc_strerror(rc));
		s->c[it->coll].stop = true;
		s->c[it->coll].st = C_RETRY;
		s->next++;
		arena_reset(&s->ia);
		s->state = M_TAKE;
	}
}

/* Download s->ref: the hosts first when none is fresh. */
static void
download(struct wa_appsync *s)
{
	struct arena	 a;
	int		 rc;

	if (s->ref.direct_path == NULL || s->ref.media_key == NULL ||
	    s->ref.media_key_len != WA_MEDIA_KEY_LEN ||
	    s->ref.enc_sha256 == NULL || s->ref.enc_sha256_len != 32 ||
	    (s->ref.sha256 != NULL && s->ref.sha256_len != 32)) {
		blob_failed(s, "the blob reference lacks a key, path or hash",
		    WC_EPROTO);
		return;
	}
	if (s->ref.size > WA_APPSYNC_BLOB_MAX) {
		blob_failed(s, "the blob is larger than wachat takes",
		    WC_ETOOBIG);
		return;
	}
	s->host_i = 0;
	if (wa_mediaconn_fresh(&s->mc, uv_now(s->host.loop))) {
		fetch(s);
		return;
	}
	s->host.iq_id(s->host.arg, s->mc_iq);
	arena_init(&a, 256);
	s->state = M_MEDIA_CONN;
	s->asked_ms = uv_now(s->host.loop);
	if ((rc = s->host.send(s->host.arg, wa_mediaconn_iq(&a,
	    s->mc_iq))) != 0) {
		struct item *it = &s->items[s->next];

		s->mc_iq[0] = '\0';
		s->c[it->coll].stop = true;
		s->c[it->coll].st = C_RETRY;
		s->next++;
		arena_reset(&s->ia);
		s->state = M_TAKE;
	}
	arena_release(&a);
}

/* The decrypted blob of the current item: a snapshot, or a patch's
 * external mutations. */
static void
blob_taken(struct wa_appsync *s, const uint8_t *p, size_t len)
{
	struct item		*it = &s->items[s->next];
	struct wa_as_snapshot	 sn;
	struct wa_as_record	*recs;
	size_t			 n;
	int			 rc;

	if (it->kind == I_SNAPSHOT) {
		if ((rc = wa_as_snapshot_parse(&s->ia, p, len, &sn)) != 0)
			mismatch(s, it->coll, "the snapshot is malformed", rc);
		else
			apply(s, it->coll, true, sn.records, sn.n_records,
			    sn.version, true, sn.key_id, sn.key_id_len, sn.mac,
			    NULL);
	} else if ((rc = wa_as_mutations_parse(&s->ia, p, len, &recs, &n)) !=
	    0)
		mismatch(s, it->coll, "the external mutations are malformed",
		    rc);
	else
		apply(s, it->coll, false, recs, n, s->patch.version,
		    s->patch.has_version, s->patch.key_id,
		    s->patch.key_id_len, s->patch.snapshot_mac,
		    s->patch.patch_mac);
	s->next++;
	arena_reset(&s->ia);
	s->state = M_TAKE;
}

/* --- the answer, item by item --- */

/* The end of a collection's items: fetch it again when there is more. */
static void
coll_end(struct wa_appsync *s, enum wa_as_coll c)
{
	struct coll	*k = &s->c[c];

	if (k->st != C_ASKED)
		return;		/* parked, reset, retried or dead */
	k->st = k->more || k->again ? C_WANT : C_IDLE;
}

/* Take the current item; false when it waits for a download. */
static bool
take_item(struct wa_appsync *s)
{
	struct item	*it = &s->items[s->next];
	int		 rc;

	if (it->kind == I_END) {
		coll_end(s, it->coll);
		s->next++;
		return true;
	}
	if (s->c[it->coll].stop || s->c[it->coll].st != C_ASKED) {
		s->next++;	/* this collection's answer is given up */
		return true;
	}
	arena_reset(&s->ia);
	if (it->kind == I_SNAPSHOT) {
		if ((rc = wa_as_blobref_parse(&s->ia, it->p, it->len,
		    &s->ref)) != 0) {
			blob_failed(s, "the snapshot reference is malformed",
			    rc);
			return true;
		}
		download(s);
		return s->state == M_TAKE;
	}
	if ((rc = wa_as_patch_parse(&s->ia, it->p, it->len, &s->patch)) !=
	    0) {
		mismatch(s, it->coll, "the patch is malformed", rc);
		s->next++;
		return true;
	}
	if (!s->patch.has_macs) {
		mismatch(s, it->coll, "a patch without its MACs", WC_EPROTO);
		s->next++;
		return true;
	}
	if (s->patch.external != NULL) {
		s->ref = *s->patch.external;
		download(s);
		return s->state == M_TAKE;
	}
	apply(s, it->coll, false, s->patch.records, s->patch.n_records,
	    s->patch.version, s->patch.has_version, s->patch.key_id,
	    s->patch.key_id_len, s->patch.snapshot_mac, s->patch.patch_mac);
	s->next++;
	return true;
}

/* The answer is taken: one event for what it committed. */
static void
answer_done(struct wa_appsync *s)
{
	struct wa_appsync_ev	 ev = s->done;
	size_t			 i;

	for (i = 0; i < s->n; i++)
		free(s->items[i].p);
	free(s->items);
	s->items = NULL;
	s->n = s->next = 0;
	forget_keys(s);
	s->state = M_IDLE;
	memset(&s->done, 0, sizeof(s->done));
	if (ev.colls != 0) {
		ev.kind = WA_APPSYNC_EV_CHANGED;
		emit(s, &ev);
	}
}

/* Nothing to fetch: our own oldest mutation of an up-to-date collection
 * (proto/appsync-send.c), if any. */
static void
send_own(struct wa_appsync *s)
{
	unsigned	 idle = 0;
	int		 i, c;

	for (i = 0; i < WA_AS_NCOLL; i++)
		if (s->c[i].st == C_IDLE)
			idle |= 1u << i;
	if (s->tx == NULL || idle == 0 || (c = astx_send(s->tx, idle,
	    s->iq)) < 0)
		return;
	s->c[c].st = C_ASKED;
	s->c[c].again = s->c[c].stop = s->c[c].more = false;
	s->tx_coll = c;
	s->state = M_SYNC;
}

static void
run_once(struct wa_appsync *s)
{
	if (!s->online || s->held) {
		if (s->held && s->state == M_TAKE)
			answer_done(s);
		return;
	}
	while (s->state == M_TAKE && s->next < s->n)
		if (!take_item(s) || s->held)
			break;
	if (s->state == M_TAKE && (s->next >= s->n || s->held))
		answer_done(s);
	if (s->state == M_IDLE && !s->held && !send_sync(s))
		send_own(s);
}

/* A loop, not a recursion, over what callbacks start. */
static void
run(struct wa_appsync *s)
{
	if (s->running) {
		s->rerun = true;
		return;
	}
	s->running = true;
	do {
		s->rerun = false;
		run_once(s);
	} while (s->rerun);
	s->running = false;
}

bool
wa_appsync_outbox(struct wa_appsync *s)
{
	int	 rc;

	astx_queued(s->tx);
	if (!s->online || s->tx == NULL)
		return false;
	if ((rc = s->st->key_any(s->st->arg)) == 0) {
		astx_no_key(s->tx);
		return true;
	}
	if (rc < 0)
		log_warn("app-state keys: %s", wc_strerror(rc));
	run(s);
	return true;
}

/* --- stanzas --- */

static void
on_server_sync(struct wa_appsync *s, const struct wa_node *n)
{
	const struct wa_node	*k;
	char			 name[32];
	size_t			 i, nk = wa_node_nkids(n);
	int			 c;

	for (i = 0; i < nk; i++) {
		k = wa_node_kid(n, i);
		if (!wa_str_eqc(k->tag, "collection"))
			continue;
		wa_node_str_copy(k, "name", name, sizeof(name));
		if ((c = wa_as_coll_find(name)) < 0)
			continue;
		if (s->c[c].st == C_PARKED || s->c[c].st == C_DEAD)
			continue;	/* waits for its key, or given up */
		want(s, (enum wa_as_coll)c);
	}
	trigger(s);
}

int
wa_appsync_stanza(struct wa_appsync *s, const struct wa_node *n)
{
	struct wa_str	 id;

	if (wa_str_eqc(n->tag, "notification") && wa_node_str_is(n, "type",
	    "server_sync")) {
		if (s->online)
			on_server_sync(s, n);
		return 1;
	}
	if (!wa_str_eqc(n->tag, "iq") || (id = wa_node_str(n, "id")).len == 0)
		return 0;
	if (s->state == M_SYNC && wa_str_eqc(id, s->iq)) {
		on_sync_answer(s, n);
		run(s);
		return 1;
	}
	if (s->state == M_MEDIA_CONN && wa_str_eqc(id, s->mc_iq)) {
		s->mc_iq[0] = '\0';
		if (wa_mediaconn_take(&s->mc, n, uv_now(s->host.loop)) == 0)
			log_warn("media_conn gave no host: trying %s",
			    WA_MEDIACONN_DEFAULT);
		s->host_i = 0;
		fetch(s);
		run(s);
		return 1;
	}
	return 0;
}
