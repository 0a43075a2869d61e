/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/history.c -- the simulated phone's chat history and history
 * sync (protocol.md 12, 14.1-14.2): a history generated from a seed (1:1
 * chats with contacts made for it, groups in the sim's group table, text
 * in several scripts and emoji, replies, messages from both sides over
 * the past years, push names, PN-LID mappings), sent to a companion after
 * it links the way the phone does: HistorySync chunks (INITIAL_BOOTSTRAP,
 * RECENT, FULL, PUSH_NAME) built with proto/history.h, zlib-deflated,
 * encrypted with a fresh media key (proto/media.h, "WhatsApp History
 * Keys"), stored on the media host (media.c), and each announced by a
 * HistorySyncNotification in a peer message from the phone (device 0) to
 * the companion, encrypted and queued like any routed message
 * (sim_phone_peer_send()).  Also: the media_conn iq, the hist_sync
 * receipts, on-demand requests (12.4) and faulty blobs for tests.  The
 * generator is in history-gen.c, the admin routes in history-admin.c.
 * Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <sodium.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/history.h"
#include "proto/media.h"
#include "proto/msg.h"
#include "nodes.h"
#include "session.h"
#include "sim.h"
#include "base/xmalloc.h"
#include "history.h"
#include "pbw.h"
#include "tokens.h"

/* --- chunks --- */

/* Messages [lo, hi) of chat, sent newest first. */
struct seg {
	size_t		 chat, lo, hi;
};

struct chunk {
	int32_t		 type;
	struct seg	*v;
	size_t		 n, cap, nmsgs;
	bool		 pushnames, lid_maps;
};

static void
seg_add(struct chunk *k, size_t chat, size_t lo, size_t hi)
{
	if (k->n == k->cap) {
		k->cap = k->cap ? 2 * k->cap : 64;
		k->v = xrealloc(k->v, k->cap * sizeof(*k->v));
	}
	k->v[k->n++] = (struct seg){ chat, lo, hi };
	k->nmsgs += hi - lo;
}

static char *
a_strdup(struct arena *ar, const char *str)
{
	size_t	 n = strlen(str) + 1;
	char	*p = arena_alloc(ar, n);

	memcpy(p, str, n);
	return p;
}

static char *
pn_jid(struct arena *ar, const struct sim_account *u)
{
	char	 j[HIST_JID_MAX];

	snprintf(j, sizeof(j), "%s@s.whatsapp.net", u->pn);
	return a_strdup(ar, j);
}

/* What one shipped blob says in its notification. */
struct ship {
	const char	*kind;		/* for the blob list */
	int32_t		 type;
	uint32_t	 order, progress;
	int64_t		 oldest;	/* s; 0 absent */
	const char	*od_id;		/* on-demand request id, or NULL */
	size_t		 nconvs, nmsgs;
	bool		 corrupt, gone;
};

/*
 * Encrypt the zlib stream z with a fresh media key, store it on the media
 * host, and send device dev of a the notification (a peer message from
 * a's phone).  Adds a row to list when not NULL.  Returns 0 or an error.
 */
static int
ship(struct sim *s, struct sim_account *a, uint32_t dev,
    const struct buf *z, const struct ship *sp, struct json_object *list)
{
	struct wa_hist_notif	 n;
	struct buf		 enc = BUF_INIT, msg = BUF_INIT;
	struct sim_blob		*b;
	uint8_t			 key[WA_MEDIA_KEY_LEN];
	uint8_t			 enc_sha[32], file_sha[32];
	char			 id[40];
	int			 rc;

	sim_random(key, sizeof(key));
	if ((rc = wa_media_encrypt(key, WA_MEDIA_INFO_HISTORY, z->p, z->len,
	    &enc, enc_sha, file_sha)) != 0)
		goto out;
	if (sp->corrupt && enc.len > WA_MEDIA_MAC_LEN)
		/* A flipped ciphertext bit: the hash of what is served
		 * matches the notification, its MAC does not. */
		enc.p[(enc.len - WA_MEDIA_MAC_LEN) / 2] ^= 0x01;
	b = sim_media_put(s, sp->kind, &enc);
	b->gone = sp->gone;
	memcpy(b->media_key, key, sizeof(key));
	memcpy(b->file_sha256, file_sha, sizeof(file_sha));
	memset(&n, 0, sizeof(n));
	n.file_sha256 = file_sha;
	n.file_enc_sha256 = b->enc_sha256;
	n.media_key = key;
	n.file_length = z->len;
	n.direct_path = b->path;
	n.sync_type = sp->type;
	n.chunk_order = sp->order;
	n.progress = sp->progress;
	n.oldest_msg_ts_s = sp->oldest;
	n.original_msg_id = sp->od_id;
	n.peer_data_request_session_id = sp->od_id;
	if ((rc = wa_hist_notification_build(&n, &msg)) != 0)
		goto out;
	if ((rc = sim_phone_peer_send(s, a, dev, &msg, id)) != 0)
		goto out;
	snprintf(b->pn, sizeof(b->pn), "%s", a->pn);
	b->device = dev;
	snprintf(b->msg_id, sizeof(b->msg_id), "%s", id);
	b->sync_type = sp->type;
	b->chunk_order = sp->order;
	b->progress = sp->progress;
	b->nconvs = sp->nconvs;
	b->nmsgs = sp->nmsgs;
	s->hist_chunks++;
	sim_log(s, "history: %s to %s:%u: %s chunk %u (%zu chats, %zu "
	    "messages, %zu bytes), progress %u, notification %s", sp->kind,
	    a->pn, dev, sp->type == WA_HIST_INITIAL_BOOTSTRAP ?
	    "INITIAL_BOOTSTRAP" : sp->type == WA_HIST_RECENT ? "RECENT" :
	    sp->type == WA_HIST_FULL ? "FULL" : sp->type == WA_HIST_PUSH_NAME ?
	    "PUSH_NAME" : sp->type == WA_HIST_ON_DEMAND ? "ON_DEMAND" : "?",
	    sp->order, sp->nconvs, sp->nmsgs, b->data.len, sp->progress, id);
	if (list != NULL)
		json_object_array_add(list, sim_media_blob_json(b));
out:
	wa_crypto_wipe(key, sizeof(key));
	buf_release(&enc);
	buf_release(&msg);
	return rc;
}

/* The E2E Message of every message of k, in the order they are sent,
 * appended to e2e; message x at off[x], len[x] bytes.  Returns 0 or an
 * error. */
static int
chunk_messages(const struct sim_hist *h, const struct chunk *k,
    const char *own, struct arena *ar, struct buf *e2e, size_t *off,
    size_t *len)
{
	size_t	 i, q, x = 0;
	int	 rc = 0;

	for (i = 0; i < k->n && rc == 0; i++) {
		const struct hchat	*c = &h->c[k->v[i].chat];

		for (q = k->v[i].hi; q > k->v[i].lo && rc == 0; q--) {
			const struct hmsg	*m = &c->m[q - 1];
			struct wa_msg_text	 t;

			memset(&t, 0, sizeof(t));
			t.text = m->text;
			if (m->quoted >= 0) {
				const struct hmsg *qm = &c->m[m->quoted];

				t.quoted_id = qm->id;
				t.quoted_participant = qm->from_me ? own :
				    pn_jid(ar, qm->sender);
				t.quoted_text = qm->text;
			}
			off[x] = e2e->len;
			rc = wa_msg_build_text(&t, e2e);
			len[x] = e2e->len - off[x];
			x++;
		}
	}
	return rc;
}

/* The conversation of segment sg of chunk type type into cv: the chat,
 * its participants and messages [sg->lo, sg->hi) newest first, their
 * E2E Messages from msg (at off, len; *x the next); *oldest lowered to
 * the oldest message's time. */
static void
chunk_conv(const struct sim_hist *h, int32_t type, const struct seg *sg,
    struct wa_hist_conv *cv, struct arena *ar, const struct buf *msg,
    const size_t *off, const size_t *len, size_t *x, int64_t *oldest)
{
	const struct hchat	*c = &h->c[sg->chat];
	size_t			 q;

	cv->id = c->jid;
	cv->name = c->name;
	if (c->peer != NULL) {
		char	 l[HIST_JID_MAX];

		cv->display_name = c->name;
		snprintf(l, sizeof(l), "%s@lid", c->peer->lid);
		cv->lid_jid = a_strdup(ar, l);
	}
	if (c->n > 0)
		cv->last_msg_ts_s = cv->conversation_ts_s =
		    (uint64_t)c->m[c->n - 1].ts;
	cv->end_of_history = sg->lo == 0 && type != WA_HIST_ON_DEMAND;
	cv->ephemeral_s = c->eph;		/* protocol-features.md 3.5 */
	cv->ephemeral_ts_s = c->eph_ts;
	if (c->g != NULL) {
		cv->participants = arena_alloc(ar, c->g->n *
		    sizeof(*cv->participants));
		for (q = 0; q < c->g->n; q++) {
			cv->participants[q].jid = pn_jid(ar, c->g->m[q].acct);
			cv->participants[q].rank = c->g->m[q].superadmin ? 2 :
			    c->g->m[q].admin ? 1 : 0;
		}
		cv->n_participants = c->g->n;
	}
	cv->n_msgs = sg->hi - sg->lo;
	cv->msgs = arena_alloc(ar, (cv->n_msgs + 1) * sizeof(*cv->msgs));
	memset(cv->msgs, 0, (cv->n_msgs + 1) * sizeof(*cv->msgs));
	for (q = 0; q < cv->n_msgs; q++, (*x)++) {
		const struct hmsg	*m = &c->m[sg->hi - 1 - q];
		struct wa_hist_msg	*w = &cv->msgs[q];

		w->remote_jid = c->jid;
		w->from_me = m->from_me;
		w->id = m->id;
		if (c->g != NULL && !m->from_me)
			w->key_participant = w->participant = pn_jid(ar,
			    m->sender);
		w->message = msg->p + off[*x];
		w->message_len = len[*x];
		w->ts_s = (uint64_t)m->ts;
		w->status = m->from_me ? WA_HIST_STATUS_READ : -1;
		if (!m->from_me)
			w->push_name = m->sender->name;
		if (*oldest == 0 || m->ts < *oldest)
			*oldest = m->ts;
	}
}

/* The push names and the PN-LID mappings of the contacts of h into hs,
 * as chunk k asks. */
static void
chunk_names(const struct sim_hist *h, const struct chunk *k,
    struct wa_hist *hs, struct arena *ar)
{
	size_t	 i;

	if (k->pushnames) {
		hs->pushnames = arena_alloc(ar, (h->npool + 1) *
		    sizeof(*hs->pushnames));
		for (i = 0; i < h->npool; i++) {
			hs->pushnames[i].jid = pn_jid(ar, h->pool[i]);
			hs->pushnames[i].name = h->pool[i]->name;
		}
		hs->n_pushnames = h->npool;
	}
	if (k->lid_maps) {
		hs->lid_maps = arena_alloc(ar, (h->npool + 1) *
		    sizeof(*hs->lid_maps));
		for (i = 0; i < h->npool; i++) {
			char	 l[HIST_JID_MAX];

			snprintf(l, sizeof(l), "%s@lid", h->pool[i]->lid);
			hs->lid_maps[i].pn_jid = pn_jid(ar, h->pool[i]);
			hs->lid_maps[i].lid_jid = a_strdup(ar, l);
		}
		hs->n_lid_maps = h->npool;
	}
}

/* Build chunk k of a's history into a HistorySync, deflate and ship it. */
static int
ship_chunk(struct sim *s, struct sim_account *a, uint32_t dev,
    const struct chunk *k, uint32_t order, uint32_t progress,
    const char *od_id, struct json_object *list)
{
	struct sim_hist		*h = a->hist;
	struct arena		 ar;
	struct wa_hist		 hs;
	struct buf		 e2e = BUF_INIT, raw = BUF_INIT, z = BUF_INIT;
	size_t			*off, *len, i, x = 0;
	int64_t			 oldest = 0;
	struct ship		 sp;
	int			 rc;

	arena_init(&ar, 0);
	memset(&hs, 0, sizeof(hs));
	hs.sync_type = k->type;
	hs.chunk_order = order;
	hs.progress = progress;
	hs.convs = arena_alloc(&ar, (k->n + 1) * sizeof(*hs.convs));
	memset(hs.convs, 0, (k->n + 1) * sizeof(*hs.convs));
	off = xcalloc(k->nmsgs + 1, sizeof(*off));
	len = xcalloc(k->nmsgs + 1, sizeof(*len));
	/* The E2E Messages first (e2e moves as it grows). */
	rc = chunk_messages(h, k, pn_jid(&ar, a), &ar, &e2e, off, len);
	for (i = 0; i < k->n && rc == 0; i++) {
		chunk_conv(h, k->type, &k->v[i], &hs.convs[hs.n_convs], &ar,
		    &e2e, off, len, &x, &oldest);
		sim_tok_hist_conv(s, a, h->c[k->v[i].chat].peer,
		    &hs.convs[hs.n_convs], &ar);	/* tokens.c */
		hs.n_msgs += hs.convs[hs.n_convs++].n_msgs;
	}
	if (rc == 0)
		chunk_names(h, k, &hs, &ar);
	if (rc == 0 && k->lid_maps)
		sim_tok_hist_salt(a, &hs, &ar);		/* tokens.c */
	if (rc == 0)
		rc = wa_hist_build(&hs, &raw);
	if (rc == 0)
		rc = wa_hist_deflate(raw.p, raw.len, 6, &z);
	if (rc == 0) {
		memset(&sp, 0, sizeof(sp));
		sp.kind = od_id != NULL ? "on-demand" : "chunk";
		sp.type = k->type;
		sp.order = order;
		sp.progress = progress;
		sp.oldest = oldest;
		sp.od_id = od_id;
		sp.nconvs = hs.n_convs;
		sp.nmsgs = hs.n_msgs;
		rc = ship(s, a, dev, &z, &sp, list);
	}
	free(off);
	free(len);
	buf_release(&e2e);
	buf_release(&raw);
	buf_release(&z);
	arena_release(&ar);
	return rc;
}

/* Ship k when it holds anything, then empty it. */
static int
flush(struct sim *s, struct sim_account *a, uint32_t dev, struct chunk *k,
    uint32_t *order, size_t *sent, size_t total, struct json_object *list)
{
	uint32_t	 progress;
	int		 rc;

	if (k->n == 0 && !k->pushnames)
		return 0;
	*sent += k->nmsgs;
	progress = total == 0 ? 100 : (uint32_t)(*sent * 100 / total);
	rc = ship_chunk(s, a, dev, k, (*order)++, progress, NULL, list);
	k->n = k->nmsgs = 0;
	k->pushnames = k->lid_maps = false;
	return rc;
}

/*
 * The whole history to companion dev of a, as the phone sends it after
 * linking: INITIAL_BOOTSTRAP (every chat with its newest messages, names,
 * participants, PN-LID mappings), RECENT chunks (the rest of the last
 * year), FULL chunks (older), each chat newest first, chunk_order
 * 0, 1, ..., progress rising to 100, then PUSH_NAME.
 */
/*
 * The INITIAL_BOOTSTRAP chunk into k: the newest messages of every chat
 * (as many as fit h->chunk over the chats, 1 to HIST_BOOT_MAX each);
 * top[i] where chat i's bootstrap starts.  Returns how many messages the
 * whole sync sends (those older than a year only when full), for the
 * progress.
 */
static size_t
boot_chunk(const struct sim_hist *h, struct chunk *k, size_t *top,
    bool full)
{
	int64_t		 cutoff = h->now - HIST_YEAR;
	size_t		 boot, i, total = 0;

	boot = h->chunk / (h->nc > 0 ? h->nc : 1);
	if (boot < 1)
		boot = 1;
	if (boot > HIST_BOOT_MAX)
		boot = HIST_BOOT_MAX;
	k->type = WA_HIST_INITIAL_BOOTSTRAP;
	k->lid_maps = true;
	for (i = 0; i < h->nc; i++) {
		size_t	 n = h->c[i].n;

		top[i] = n > boot ? n - boot : 0;
		seg_add(k, i, top[i], n);
		if (full)
			total += n;
		else {
			size_t	 p = 0;

			while (p < top[i] && h->c[i].m[p].ts < cutoff)
				p++;
			total += n - p;
		}
	}
	return total;
}

int
hist_send(struct sim *s, struct sim_account *a, uint32_t dev,
    struct json_object *list)
{
	struct sim_hist	*h = a->hist;
	struct sim_device *d = sim_device_find(a, dev);
	bool		 full = !h->full_if_asked || (d != NULL && d->full_sync);
	size_t		 total;
	struct chunk	 k;
	size_t		 i, sent = 0, *top;
	uint32_t	 order = 0;
	int64_t		 cutoff = h->now - HIST_YEAR;
	int		 pass, rc = 0;
	double		 t0 = hist_now_ms();

	memset(&k, 0, sizeof(k));
	top = xcalloc(h->nc + 1, sizeof(*top));
	total = boot_chunk(h, &k, top, full);
	rc = flush(s, a, dev, &k, &order, &sent, total, list);
	for (pass = 0; pass < (full ? 2 : 1) && rc == 0; pass++) {
		k.type = pass == 0 ? WA_HIST_RECENT : WA_HIST_FULL;
		for (i = 0; i < h->nc && rc == 0; i++) {
			const struct hchat	*c = &h->c[i];
			size_t			 p = 0, lo, hi, take;

			while (p < top[i] && c->m[p].ts < cutoff)
				p++;
			lo = pass == 0 ? p : 0;
			hi = pass == 0 ? top[i] : p;
			while (hi > lo && rc == 0) {
				take = hi - lo;
				if (take > h->chunk - k.nmsgs)
					take = h->chunk - k.nmsgs;
				seg_add(&k, i, hi - take, hi);
				hi -= take;
				if (k.nmsgs >= h->chunk)
					rc = flush(s, a, dev, &k, &order, &sent,
					    total, list);
			}
		}
		if (rc == 0)
			rc = flush(s, a, dev, &k, &order, &sent, total, list);
	}
	if (rc == 0) {
		k.type = WA_HIST_PUSH_NAME;
		k.pushnames = true;
		rc = flush(s, a, dev, &k, &order, &sent, total, list);
	}
	free(top);
	free(k.v);
	h->runs++;
	sim_log(s, "history of %s to device %u: %u notifications, %zu "
	    "messages in %.0f ms%s%s", a->pn, dev, order, sent,
	    hist_now_ms() - t0,
	    full ? "" : " (no FULL chunks: requireFullSync is false)",
	    rc != 0 ? " (stopped by an error)" : "");
	if (rc != 0)
		sim_log(s, "history of %s: %s", a->pn, wc_strerror(rc));
	return rc;
}

/* --- after linking --- */

struct hist_job {
	uv_timer_t		 t;
	struct sim		*s;
	struct sim_account	*a;
	uint32_t		 dev;
};

static void
job_closed(uv_handle_t *h)
{
	free(h->data);
}

static void
job_fire(uv_timer_t *t)
{
	struct hist_job	*j = t->data;

	if (!j->s->stopping && j->a->hist != NULL)
		(void)hist_send(j->s, j->a, j->dev, NULL);
	uv_close((uv_handle_t *)t, job_closed);
}

void
sim_hist_linked(struct sim *s, struct sim_account *a, struct sim_device *d)
{
	struct hist_job	*j;

	if (a->hist == NULL || d->hist_sent || s->stopping)
		return;
	d->hist_sent = true;
	j = xcalloc(1, sizeof(*j));
	j->s = s;
	j->a = a;
	j->dev = d->id;
	uv_timer_init(&s->loop, &j->t);
	j->t.data = j;
	/* After the answer to the upload, as the phone takes a moment. */
	uv_timer_start(&j->t, job_fire, 50, 0);
}

/* --- the media_conn iq (protocol.md 14.2) --- */

int
sim_hist_media_conn(struct sim_conn *c, const struct wa_node *n)
{
	struct sim	*s = c->s;
	struct arena	 ar;
	struct wa_node	*r, *mc, *host;
	struct wa_str	 id = sn_get(n, "id");
	char		 idc[64], hn[96], auth[64], ttl[16];
	uint8_t		 rnd[25];

	if (!wa_str_eqc(sn_get(n, "xmlns"), "w:m") ||
	    !wa_str_eqc(sn_get(n, "type"), "set") ||
	    sn_find(n, "media_conn") == NULL)
		return 0;
	snprintf(idc, sizeof(idc), "%.*s", (int)id.len, id.p);
	/* Standard base64 with '+', '/' and '=', as the real tokens have:
	 * clients must escape it in the upload URL (1.4). */
	sim_random(rnd, sizeof(rnd));
	sodium_bin2base64(auth, sizeof(auth), rnd, sizeof(rnd),
	    sodium_base64_VARIANT_ORIGINAL);
	sim_media_auth_add(s, auth, (int64_t)time(NULL) + s->media_auth_ttl);
	snprintf(ttl, sizeof(ttl), "%u", s->media_auth_ttl);
	sim_media_hostname(s, hn, sizeof(hn));
	arena_init(&ar, 0);
	r = sn_new(&ar, "iq");
	sn_attr_jid(&ar, r, "from", "", "s.whatsapp.net", 0);
	sn_attr(&ar, r, "type", "result");
	sn_attr(&ar, r, "id", idc);
	mc = sn_child(&ar, r, "media_conn");
	sn_attr(&ar, mc, "auth", auth);
	sn_attr(&ar, mc, "ttl", "3600");
	sn_attr(&ar, mc, "auth_ttl", ttl);
	sn_attr(&ar, mc, "max_buckets", "12");
	host = sn_child(&ar, mc, "host");
	sn_attr(&ar, host, "hostname", hn);
	(void)sim_conn_send_node(c, r);
	arena_release(&ar);
	c->answered++;
	s->media_conns++;
	sim_conn_log(c, "media_conn: host %s", hn);
	return 1;
}

/* --- receipts and on-demand requests --- */

void
sim_hist_receipt(struct sim *s, struct sim_account *a, const char *id,
    const char *from)
{
	struct sim_blob	*b;
	bool		 known = false;

	s->hist_receipts++;
	for (b = s->blobs; b != NULL; b = b->next)
		if (strcmp(b->msg_id, id) == 0 && strcmp(b->pn, a->pn) == 0) {
			b->receipt = true;
			known = true;
		}
	sim_log(s, "history: hist_sync receipt %s from %s%s", id, from,
	    known ? "" : " (no such notification)");
}

/* The device number of a device JID "user[:dev]@server" (0 without). */
static uint32_t
jid_device(const char *jid)
{
	const char	*colon = strchr(jid, ':'), *at = strchr(jid, '@');

	if (colon == NULL || at == NULL || colon > at)
		return 0;
	return (uint32_t)strtoul(colon + 1, NULL, 10);
}

void
sim_hist_on_demand(struct sim *s, struct sim_account *a, const char *from,
    const char *msg_id, const uint8_t *p, size_t len)
{
	struct sim_hist		*h = a->hist;
	struct wa_hist_od_req	 rq;
	struct arena		 ar;
	struct chunk		 k;
	const char		*why = NULL;
	const uint8_t		*dsm;
	size_t			 i, idx = 0, count, dsm_len;
	int64_t			 ts;
	int			 rc;

	arena_init(&ar, 0);
	/* Baileys sends it to its own user, so as deviceSentMessage(31)
	 * {message(2)}: the request is inside (wa_hist_on_demand_parse()
	 * reads only a bare protocolMessage). */
	if (sim_pb_find(p, len, 31, &dsm, &dsm_len) &&
	    sim_pb_find(dsm, dsm_len, 2, &p, &len))
		sim_log(s, "history: on-demand request %s is wrapped in a "
		    "deviceSentMessage", msg_id);
	if ((rc = wa_hist_on_demand_parse(p, len, &ar, &rq, &why)) != 0) {
		sim_log(s, "history: on-demand request %s from %s unreadable: "
		    "%s", msg_id, from, why != NULL ? why : wc_strerror(rc));
		arena_release(&ar);
		return;
	}
	memset(&k, 0, sizeof(k));
	k.type = WA_HIST_ON_DEMAND;
	for (i = 0; h != NULL && i < h->nc; i++) {
		const struct hchat	*c = &h->c[i];
		char			 l[HIST_JID_MAX] = "";

		if (c->peer != NULL)
			snprintf(l, sizeof(l), "%s@lid", c->peer->lid);
		if (strcmp(c->jid, rq.chat_jid) == 0 || strcmp(l,
		    rq.chat_jid) == 0)
			break;
	}
	count = rq.count > 0 ? (size_t)rq.count : 50;
	if (count > HIST_OD_MAX)
		count = HIST_OD_MAX;
	if (h != NULL && i < h->nc) {
		const struct hchat	*c = &h->c[i];

		for (idx = 0; idx < c->n; idx++)
			if (strcmp(c->m[idx].id, rq.oldest_msg_id) == 0)
				break;
		if (idx == c->n) {
			/* Not a message we hold: by its time (s, or ms). */
			ts = rq.oldest_ts_s > 100000000000LL ?
			    rq.oldest_ts_s / 1000 : rq.oldest_ts_s;
			for (idx = 0; idx < c->n && c->m[idx].ts < ts; idx++)
				;
		}
		seg_add(&k, i, idx > count ? idx - count : 0, idx);
	}
	s->hist_on_demand++;
	sim_log(s, "history: on-demand request %s from %s for %s: %zu older "
	    "messages", msg_id, from, rq.chat_jid, k.nmsgs);
	if (h != NULL && (rc = ship_chunk(s, a, jid_device(from), &k, 0, 100,
	    msg_id, NULL)) != 0)
		sim_log(s, "history: on-demand answer not sent: %s",
		    wc_strerror(rc));
	free(k.v);
	arena_release(&ar);
}

/* --- faults --- */

/* A Message quoting a quote ... depth levels deep (inside out). */
static void
nested(unsigned depth, struct buf *out)
{
	struct buf	 cur = BUF_INIT, ci = BUF_INIT, ext = BUF_INIT;

	sim_pb_ld(&cur, 1, (const uint8_t *)"the bottom", 10);
	for (unsigned i = 0; i < depth; i++) {
		ci.len = ext.len = 0;
		sim_pb_ld(&ci, 3, cur.p, cur.len);		/* quotedMessage */
		sim_pb_ld(&ext, 1, (const uint8_t *)"deeper", 6);
		sim_pb_ld(&ext, 17, ci.p, ci.len);		/* contextInfo */
		cur.len = 0;
		sim_pb_ld(&cur, 6, ext.p, ext.len);		/* extendedText */
	}
	buf_append(out, cur.p, cur.len);
	buf_release(&cur);
	buf_release(&ci);
	buf_release(&ext);
}

/* A one-message HistorySync (RECENT) for the faults, zlib'd into z. */
static int
fault_blob(struct sim_account *a, const char *kind, uint32_t order,
    struct buf *z, size_t *nmsgs)
{
	struct sim_hist		*h = a->hist;
	struct wa_hist		 hs;
	struct wa_hist_conv	 cv;
	struct wa_hist_msg	 m;
	struct buf		 e2e = BUF_INIT, raw = BUF_INIT;
	struct wa_msg_text	 t = { .text = "this blob should never be "
				    "imported" };
	char			 chat[HIST_JID_MAX], id[24];
	uint8_t			 r[8];
	int			 rc;

	if (strcmp(kind, "bomb") == 0) {
		uint8_t	*zeros = xcalloc(1, HIST_BOMB);

		rc = wa_hist_deflate(zeros, HIST_BOMB, 9, z);
		free(zeros);
		*nmsgs = 0;
		return rc;
	}
	if (h != NULL && h->nc > 0)
		snprintf(chat, sizeof(chat), "%s", h->c[0].jid);
	else
		snprintf(chat, sizeof(chat), "%s@s.whatsapp.net", a->pn);
	sim_random(r, sizeof(r));
	snprintf(id, sizeof(id), "3EB0FA%02X%02X%02X%02X%02X%02X%02X%02X",
	    r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
	if (strcmp(kind, "nest") == 0)
		nested(HIST_NEST, &e2e);
	else if ((rc = wa_msg_build_text(&t, &e2e)) != 0)
		return rc;
	memset(&hs, 0, sizeof(hs));
	memset(&cv, 0, sizeof(cv));
	memset(&m, 0, sizeof(m));
	m.remote_jid = chat;
	m.id = id;
	m.message = e2e.p;
	m.message_len = e2e.len;
	m.ts_s = (uint64_t)(h != NULL ? h->now : time(NULL)) - 40 * HIST_YEAR /
	    10;
	m.status = -1;
	cv.id = chat;
	cv.msgs = &m;
	cv.n_msgs = 1;
	hs.sync_type = WA_HIST_RECENT;
	hs.chunk_order = order;
	hs.progress = 100;
	hs.convs = &cv;
	hs.n_convs = 1;
	hs.n_msgs = 1;
	rc = wa_hist_build(&hs, &raw);
	if (rc == 0)
		rc = wa_hist_deflate(raw.p, raw.len, 6, z);
	*nmsgs = 1;
	buf_release(&e2e);
	buf_release(&raw);
	return rc;
}

/* A faulty blob (corrupt, bomb, nest, gone) to companion dev of a. */
int
hist_send_fault(struct sim *s, struct sim_account *a, uint32_t dev,
    const char *kind, struct json_object *list)
{
	struct buf	 z = BUF_INIT;
	struct ship	 sp;
	size_t		 nm = 0;
	int		 rc;

	uint32_t	 order = 90 + (uint32_t)(s->hist_faults % 10);

	if ((rc = fault_blob(a, kind, order, &z, &nm)) == 0) {
		memset(&sp, 0, sizeof(sp));
		sp.kind = kind;
		sp.type = WA_HIST_RECENT;
		sp.order = order;
		sp.progress = 100;
		sp.nconvs = nm;
		sp.nmsgs = nm;
		sp.corrupt = strcmp(kind, "corrupt") == 0;
		sp.gone = strcmp(kind, "gone") == 0;
		rc = ship(s, a, dev, &z, &sp, list);
	}
	if (rc == 0)
		s->hist_faults++;
	buf_release(&z);
	return rc;
}
