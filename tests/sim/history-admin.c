/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/history-admin.c -- the admin routes of history sync under
 * /admin/history (tests/sim/README.md): give a phone a history, read its
 * chats and messages, send it or a faulty blob again, list the blobs on
 * the media host, the counters, the media host's delay.  Loop thread
 * only.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "base/err.h"
#include "history.h"
#include "sim.h"

int
sim_json_num(struct json_object *o, const char *key, int64_t *out)
{
	struct json_object	*v;
	const char		*str;
	char			*end;

	if (o == NULL || !json_object_object_get_ex(o, key, &v))
		return 0;
	if (json_object_is_type(v, json_type_int)) {
		*out = json_object_get_int64(v);
		return 1;
	}
	if (!json_object_is_type(v, json_type_string))
		return -1;
	str = json_object_get_string(v);
	errno = 0;
	*out = strtoll(str, &end, 10);
	return errno == 0 && end != str && *end == '\0' ? 1 : -1;
}

bool
sim_query(const char *q, const char *name, char *val, size_t len)
{
	size_t	 nl = strlen(name);

	while (q != NULL && *q != '\0') {
		const char	*end = strchr(q, '&');
		size_t		 n = end != NULL ? (size_t)(end - q) : strlen(q);

		if (n > nl && strncmp(q, name, nl) == 0 && q[nl] == '=') {
			size_t	 vl = n - nl - 1, i, o = 0;

			/* %XX decoded (a JID's @ may come as %40). */
			for (i = 0; i < vl && o + 1 < len; i++) {
				const char	*c = q + nl + 1 + i;
				unsigned	 x;

				if (*c == '%' && i + 2 < vl &&
				    sscanf(c + 1, "%2x", &x) == 1) {
					val[o++] = (char)x;
					i += 2;
				} else
					val[o++] = *c;
			}
			val[o] = '\0';
			return true;
		}
		if (end == NULL)
			break;
		q = end + 1;
	}
	return false;
}

static void
msg_json(const struct sim_account *a, const struct hchat *c,
    const struct hmsg *m, struct json_object *o)
{
	char	 j[HIST_JID_MAX];

	snprintf(j, sizeof(j), "%s@s.whatsapp.net", m->from_me ? a->pn :
	    m->sender->pn);
	json_object_object_add(o, "id", json_object_new_string(m->id));
	json_object_object_add(o, "from_me", json_object_new_boolean(m->from_me));
	json_object_object_add(o, "sender", json_object_new_string(j));
	json_object_object_add(o, "push_name", json_object_new_string(
	    m->from_me ? a->name : m->sender->name));
	json_object_object_add(o, "ts", json_object_new_int64(m->ts));
	json_object_object_add(o, "text", json_object_new_string(m->text));
	if (m->quoted >= 0)
		json_object_object_add(o, "quoted_id",
		    json_object_new_string(c->m[m->quoted].id));
}

static struct json_object *
chats_json(const struct sim_account *a)
{
	const struct sim_hist	*h = a->hist;
	struct json_object	*o = json_object_new_object(), *arr;

	hist_summary_json(a, o);
	arr = json_object_new_array();
	/* Chat i's newest message is newer than chat i+1's (generate()):
	 * this is the order a client shows them in. */
	for (size_t i = 0; i < h->nc; i++) {
		const struct hchat	*c = &h->c[i];
		struct json_object	*x = json_object_new_object(), *nm;

		json_object_object_add(x, "jid", json_object_new_string(c->jid));
		json_object_object_add(x, "name", json_object_new_string(c->name));
		json_object_object_add(x, "group",
		    json_object_new_boolean(c->g != NULL));
		if (c->g != NULL)
			json_object_object_add(x, "members",
			    json_object_new_int64((int64_t)c->g->n));
		json_object_object_add(x, "messages",
		    json_object_new_int64((int64_t)c->n));
		if (c->n > 0) {
			nm = json_object_new_object();
			msg_json(a, c, &c->m[c->n - 1], nm);
			json_object_object_add(x, "newest", nm);
			json_object_object_add(x, "oldest_ts",
			    json_object_new_int64(c->m[0].ts));
		}
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "chat_list", arr);
	return o;
}

static int
chat_json(const struct sim_account *a, const char *jid, const char *q,
    struct buf *out)
{
	const struct sim_hist	*h = a->hist;
	struct json_object	*o, *arr;
	char			 v[32];
	size_t			 i, k, off = 0, lim = SIZE_MAX;

	for (i = 0; i < h->nc; i++)
		if (strcmp(h->c[i].jid, jid) == 0)
			break;
	if (i == h->nc)
		return sim_json_error(out, 404, "no such chat in the history");
	if (sim_query(q, "offset", v, sizeof(v)))
		off = (size_t)strtoull(v, NULL, 10);
	if (sim_query(q, "limit", v, sizeof(v)))
		lim = (size_t)strtoull(v, NULL, 10);
	o = json_object_new_object();
	json_object_object_add(o, "jid", json_object_new_string(h->c[i].jid));
	json_object_object_add(o, "name", json_object_new_string(h->c[i].name));
	json_object_object_add(o, "group",
	    json_object_new_boolean(h->c[i].g != NULL));
	json_object_object_add(o, "count", json_object_new_int64(
	    (int64_t)h->c[i].n));
	arr = json_object_new_array();
	for (k = off; k < h->c[i].n && k - off < lim; k++) {
		struct json_object	*x = json_object_new_object();

		msg_json(a, &h->c[i], &h->c[i].m[k], x);
		json_object_array_add(arr, x);
	}
	json_object_object_add(o, "messages", arr);
	return sim_json_reply(out, o, 200);
}

/* The companions of a to send to: dev (> 0) or every linked one that
 * uploaded keys; at most max into out. */
static size_t
targets(struct sim_account *a, int64_t dev, uint32_t *out, size_t max)
{
	struct sim_device	*d;
	size_t			 n = 0;

	for (d = a->devices; d != NULL && n < max; d = d->next)
		if (d->signed_back && !d->removed && d->uploads > 0 &&
		    (dev <= 0 || d->id == (uint32_t)dev))
			out[n++] = d->id;
	return n;
}

struct json_object *
sim_hist_status_json(const struct sim *s)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "media_port", json_object_new_int(s->media_port));
	json_object_object_add(o, "media_tls",
	    json_object_new_boolean(s->opt.tls_cert != NULL));
	json_object_object_add(o, "chunks_sent",
	    json_object_new_int64((int64_t)s->hist_chunks));
	json_object_object_add(o, "blobs", json_object_new_int64((int64_t)s->nblobs));
	json_object_object_add(o, "downloads",
	    json_object_new_int64((int64_t)s->media_downloads));
	json_object_object_add(o, "not_found",
	    json_object_new_int64((int64_t)s->media_404));
	json_object_object_add(o, "media_conn",
	    json_object_new_int64((int64_t)s->media_conns));
	json_object_object_add(o, "hist_sync_receipts",
	    json_object_new_int64((int64_t)s->hist_receipts));
	json_object_object_add(o, "on_demand_answered",
	    json_object_new_int64((int64_t)s->hist_on_demand));
	json_object_object_add(o, "faults_sent",
	    json_object_new_int64((int64_t)s->hist_faults));
	json_object_object_add(o, "media_delay_ms",
	    json_object_new_int64(s->media_delay_ms));
	return o;
}

/* One request under /admin/history, for the handlers of hist_routes[]. */
struct hist_call {
	const char		*q;	/* the query string, or NULL */
	struct json_object	*in;	/* the JSON body, or NULL */
	struct sim_account	*a;	/* the account pn names, or NULL */
};

/* GET /admin/history/blobs: every blob on the media host. */
static int
h_blobs(struct sim *s, const struct hist_call *k, struct buf *out)
{
	struct json_object	*list = json_object_new_array();
	struct sim_blob		*b;

	(void)k;
	for (b = s->blobs; b != NULL; b = b->next)
		json_object_array_add(list, sim_media_blob_json(b));
	return sim_json_reply(out, list, 200);
}

/* GET /admin/history/status: the counters. */
static int
h_status(struct sim *s, const struct hist_call *k, struct buf *out)
{
	(void)k;
	return sim_json_reply(out, sim_hist_status_json(s), 200);
}

/* POST /admin/history/media {delay_ms}: the media host's delay. */
static int
h_media(struct sim *s, const struct hist_call *k, struct buf *out)
{
	int64_t	 v;

	if (sim_json_num(k->in, "delay_ms", &v) != 1 || v < 0 || v > 60000)
		return sim_json_error(out, 400, "delay_ms: 0-60000");
	s->media_delay_ms = (unsigned)v;
	sim_log(s, "media: delay %u ms", s->media_delay_ms);
	return sim_json_reply(out, sim_hist_status_json(s), 200);
}

/* The history's parameters from in into cfg: 0, or the status of the
 * error written. */
static int
set_cfg(struct sim *s, struct json_object *in, struct sim_hist_cfg *cfg,
    struct buf *out)
{
	const char	*full;
	int64_t		 v;
	int		 rc;

	memset(cfg, 0, sizeof(*cfg));
	if (sim_json_num(in, "chats", &v) != 1 || v < 1 || v > HIST_MAX_CHATS)
		return sim_json_error(out, 400, "give chats (1-20000)");
	cfg->chats = (unsigned)v;
	if (sim_json_num(in, "messages", &v) != 1 || v < 0 || v > HIST_MAX_MSGS)
		return sim_json_error(out, 400, "give messages (0-2000000)");
	cfg->msgs = (unsigned)v;
	if ((rc = sim_json_num(in, "seed", &v)) < 0)
		return sim_json_error(out, 400, "seed: a number");
	cfg->seed = rc == 1 ? (uint64_t)v : 1;
	if ((rc = sim_json_num(in, "chunk", &v)) < 0 || (rc == 1 && (v < 1 ||
	    v > HIST_MAX_CHUNK)))
		return sim_json_error(out, 400, "chunk: 1-100000 messages");
	cfg->chunk = rc == 1 ? (unsigned)v : s->opt.hist_chunk;
	if ((rc = sim_json_num(in, "now", &v)) < 0 || (rc == 1 && v < 0))
		return sim_json_error(out, 400, "now: unix seconds");
	cfg->now = rc == 1 ? v : 0;
	full = sim_json_str(in, "full");
	if (full != NULL && strcmp(full, "always") != 0 &&
	    strcmp(full, "if-asked") != 0)
		return sim_json_error(out, 400, "full: always or if-asked");
	cfg->full_if_asked = full != NULL ? strcmp(full, "if-asked") == 0 :
	    s->opt.hist_full_if_asked;
	return 0;
}

/* POST /admin/history {pn, chats, messages, seed?, chunk?, now?, full?}. */
static int
h_set(struct sim *s, const struct hist_call *k, struct buf *out)
{
	struct sim_hist_cfg	 cfg;
	struct json_object	*o;
	const char		*why;
	int			 st;

	if ((st = set_cfg(s, k->in, &cfg, out)) != 0)
		return st;
	o = json_object_new_object();
	st = sim_hist_set(s, k->a, &cfg, o, &why);
	if (st != 200) {
		json_object_put(o);
		return sim_json_error(out, st, why);
	}
	return sim_json_reply(out, o, 200);
}

/* GET /admin/history?pn=PN: the summary and the chat list. */
static int
h_chats(struct sim *s, const struct hist_call *k, struct buf *out)
{
	(void)s;
	if (k->a->hist == NULL)
		return sim_json_error(out, 404, "this account has no history");
	return sim_json_reply(out, chats_json(k->a), 200);
}

/* GET /admin/history/chat?pn=PN&jid=CHAT[&offset=N&limit=N]. */
static int
h_chat(struct sim *s, const struct hist_call *k, struct buf *out)
{
	char	 jid[HIST_JID_MAX];

	(void)s;
	if (k->a->hist == NULL)
		return sim_json_error(out, 404, "this account has no history");
	if (!sim_query(k->q, "jid", jid, sizeof(jid)))
		return sim_json_error(out, 400, "give ?pn=PN&jid=CHAT");
	return chat_json(k->a, jid, k->q, out);
}

/* POST /admin/history/ephemeral {pn, jid, secs, ts?}: chat jid of the
 * history has disappearing messages on (secs; 0 off) since ts (unix s;
 * 0: none given), as its Conversation will say (protocol-features.md
 * 3.5). */
static int
h_ephemeral(struct sim *s, const struct hist_call *k, struct buf *out)
{
	const char	*jid = sim_json_str(k->in, "jid");
	int64_t		 secs = -1, ts = 0;
	size_t		 i;

	(void)s;
	if (k->a->hist == NULL)
		return sim_json_error(out, 404, "this account has no history");
	if (jid == NULL || sim_json_num(k->in, "secs", &secs) != 1 ||
	    secs < 0 || secs > UINT32_MAX || sim_json_num(k->in, "ts", &ts) < 0
	    || ts < 0)
		return sim_json_error(out, 400, "give jid, secs (and ts)");
	for (i = 0; i < k->a->hist->nc; i++)
		if (strcmp(k->a->hist->c[i].jid, jid) == 0) {
			k->a->hist->c[i].eph = (uint32_t)secs;
			k->a->hist->c[i].eph_ts = ts;
			return chat_json(k->a, jid, "limit=0", out);
		}
	return sim_json_error(out, 404, "no such chat in the history");
}

/*
 * POST /admin/history/send {pn, device?} (kind NULL) and
 * /admin/history/fault {pn, kind, device?}: the history, or a faulty
 * blob, to the companion device or to every one linked with keys.
 */
static int
send_to(struct sim *s, const struct hist_call *k, bool fault,
    struct buf *out)
{
	struct sim_account	*a = k->a;
	struct json_object	*o, *list;
	const char		*kind = sim_json_str(k->in, "kind");
	uint32_t		 devs[64];
	size_t			 nd, i;
	int64_t			 dev = 0;
	int			 rc;

	if (sim_json_num(k->in, "device", &dev) < 0)
		return sim_json_error(out, 400, "device: a number");
	if (fault && (kind == NULL || (strcmp(kind, "corrupt") != 0 &&
	    strcmp(kind, "bomb") != 0 && strcmp(kind, "nest") != 0 &&
	    strcmp(kind, "gone") != 0)))
		return sim_json_error(out, 400, "kind: corrupt, bomb, nest or gone");
	if (!fault && a->hist == NULL)
		return sim_json_error(out, 404, "this account has no history");
	if ((nd = targets(a, dev, devs, 64)) == 0)
		return sim_json_error(out, 409, "no linked companion with keys to send "
		    "to");
	list = json_object_new_array();
	for (i = 0, rc = 0; i < nd && rc == 0; i++) {
		if (!fault) {
			sim_device_find(a, devs[i])->hist_sent = true;
			rc = hist_send(s, a, devs[i], list);
		} else
			rc = hist_send_fault(s, a, devs[i], kind, list);
	}
	if (rc != 0) {
		json_object_put(list);
		return sim_json_error(out, 500, wc_strerror(rc));
	}
	o = json_object_new_object();
	json_object_object_add(o, "sent", list);
	return sim_json_reply(out, o, 200);
}

static int
h_send(struct sim *s, const struct hist_call *k, struct buf *out)
{
	return send_to(s, k, false, out);
}

static int
h_fault(struct sim *s, const struct hist_call *k, struct buf *out)
{
	return send_to(s, k, true, out);
}

/*
 * The routes: the path after "history", the method, whether the route is
 * about one account (pn, in the body of a POST or the query of a GET:
 * looked up first, for every route of those not found before), and the
 * handler.
 */
static const struct hist_route {
	const char	*path;
	bool		 post;
	bool		 account;
	int		(*fn)(struct sim *, const struct hist_call *,
			    struct buf *);
} hist_routes[] = {
	{ "/blobs", false, false, h_blobs },
	{ "/status", false, false, h_status },
	{ "/media", true, false, h_media },
	{ "", true, true, h_set },
	{ "", false, true, h_chats },
	{ "/chat", false, true, h_chat },
	{ "/send", true, true, h_send },
	{ "/ephemeral", true, true, h_ephemeral },
	{ "/fault", true, true, h_fault },
};

/* The route for path and method among those with account acct, or
 * NULL. */
static const struct hist_route *
hist_route(const char *path, bool post, bool acct)
{
	size_t	 i;

	for (i = 0; i < sizeof(hist_routes) / sizeof(hist_routes[0]); i++)
		if (hist_routes[i].account == acct &&
		    hist_routes[i].post == post &&
		    strcmp(hist_routes[i].path, path) == 0)
			return &hist_routes[i];
	return NULL;
}

int
sim_hist_admin(struct sim *s, const char *path, const char *q,
    struct json_object *in, bool post, struct buf *out)
{
	const struct hist_route	*r;
	struct hist_call	 k;
	char			 pn[SIM_PN_MAX];

	if (strncmp(path, "history", 7) != 0 || (path[7] != '\0' &&
	    path[7] != '/'))
		return 0;
	path += 7;
	memset(&k, 0, sizeof(k));
	k.q = q;
	k.in = in;
	if ((r = hist_route(path, post, false)) != NULL)
		return r->fn(s, &k, out);
	if (post) {
		const char	*p = sim_json_str(in, "pn");

		snprintf(pn, sizeof(pn), "%s", p != NULL ? p : "");
	} else if (!sim_query(q, "pn", pn, sizeof(pn)))
		return sim_json_error(out, 400, "give ?pn=PN");
	if ((k.a = sim_account_by_pn(s, pn)) == NULL)
		return sim_json_error(out, 404, "no such account");
	if ((r = hist_route(path, post, true)) != NULL)
		return r->fn(s, &k, out);
	return sim_json_error(out, 404, "no such route");
}
