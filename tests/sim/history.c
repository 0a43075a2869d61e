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
 * receipts, on-demand requests (12.4) and faulty blobs for tests.  Loop
 * thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

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

#define HIST_MAX_CHATS		20000
#define HIST_MAX_MSGS		2000000
#define HIST_MAX_CHUNK		100000
#define HIST_CHUNK_DEFAULT	3000
#define HIST_BOOT_MAX		20	/* per chat in INITIAL_BOOTSTRAP */
#define HIST_NOW_DEFAULT	1764547200	/* 2025-12-01 00:00 UTC */
#define HIST_DAY		86400
#define HIST_YEAR		(365 * HIST_DAY)
#define HIST_OD_MAX		1000	/* messages in one on-demand answer */
#define HIST_CONTACT_BASE	UINT64_C(15557000000)	/* contacts' PNs */
#define HIST_LID_BASE		UINT64_C(207000000000000)	/* their LIDs */
#define HIST_PREKEYS		4	/* one-time prekeys per contact phone */
#define HIST_POOL_MIN		6	/* contacts when there are groups */
#define HIST_TEXT_MAX		600
#define HIST_NEST		10000	/* the nesting fault's depth */
#define HIST_BOMB		((64u << 20) + (1u << 20))	/* zeros */
#define HIST_JID_MAX		64

struct hmsg {
	int64_t			 ts;		/* unix s */
	char			 id[24];
	char			*text;
	struct sim_account	*sender;	/* NULL when from_me */
	int32_t			 quoted;	/* index in the chat, or -1 */
	bool			 from_me;
};

struct hchat {
	char			 jid[HIST_JID_MAX];
	char			 name[SIM_SUBJECT_MAX];
	struct sim_account	*peer;		/* 1:1 */
	struct sim_group	*g;		/* group */
	struct hmsg		*m;		/* oldest first */
	size_t			 n;
};

struct sim_hist {
	unsigned		 chats, msgs, chunk;
	bool			 full_if_asked;
	uint64_t		 seed;
	int64_t			 now;
	struct hchat		*c;
	size_t			 nc;
	struct sim_account	**pool;		/* contacts made */
	size_t			 npool;
	size_t			 total;		/* messages held */
	unsigned		 ngroups;
	double			 gen_ms;
	uint64_t		 runs;		/* full syncs sent */
};

/* --- the generator --- */

static uint64_t
rng_next(uint64_t *st)
{
	uint64_t	 z = (*st += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static uint64_t
rng_below(uint64_t *st, uint64_t n)
{
	return n == 0 ? 0 : rng_next(st) % n;
}

static const char *const names[] = {
	"Zoë Müller", "José Álvarez", "François Lefèvre", "Dmitri Ivanov",
	"Анна Смирнова", "Νίκος Παπαδόπουλος", "Ελένη Γεωργίου", "أحمد منصور",
	"فاطمة الزهراء", "王伟", "李娜", "佐藤 花子", "김민준", "Søren Kjær",
	"Łukasz Wójcik", "İrem Yılmaz", "Ngọc Trần", "Chloé Dubois",
	"Björn Ångström", "Priya शर्मा", "Noa כהן", "Mia 🌸", "João Conceição",
	"Ольга Петрова",
};

static const char *const subjects[] = {
	"Famille ❤️", "Друзья", "Ομάδα ποδοσφαίρου ⚽", "عائلة", "家族群",
	"Café crew ☕", "Book club 📚", "Wanderlust ✈️", "Équipe projet",
	"Voisins 🏡", "同学会", "Лыжи 2024 ⛷️",
};

static const char *const phrases[] = {
	"Bonjour, on se retrouve au café à midi ?",
	"Très bien, à tout à l'heure ! Ça marche.",
	"Naïve question: is the crème brûlée still on the menu?",
	"Merci pour la soirée, c'était génial",
	"Zürich → Genève, 2 h 45 min",
	"¿Nos vemos mañana en la estación?",
	"Danke schön, das Wetter ist großartig!",
	"Olá! Tudo bem com você?",
	"Привет! Как дела?",
	"Давай встретимся завтра в центре.",
	"Спасибо, всё получилось!",
	"Γεια σου! Τι κάνεις;",
	"Καλημέρα, τα λέμε αύριο.",
	"مرحبا، كيف حالك؟",
	"شكرا جزيلا يا صديقي",
	"你好，今天晚上一起吃饭吗？",
	"我明天早上到北京。",
	"こんにちは、元気ですか？",
	"안녕하세요! 잘 지내요?",
	"שלום, מה שלומך?",
	"नमस्ते, आप कैसे हैं?",
	"Happy birthday!",
	"See you soon",
	"Did you get the tickets?",
	"Sure, I'll call you later.",
	"Running 10 minutes late, sorry!",
	"Can you send me the address?",
	"ok",
	"Haha, that's hilarious",
	"What time does the train leave?",
	"Don't forget the bread 🥖",
	"Good night 🌙",
};

static const char *const emoji[] = {
	"😀", "😂😂😂", "❤️", "🙏", "👍🏽", "🎉🎂", "☕", "🌸", "👨‍👩‍👧",
	"🇫🇷", "👋", "🔥",
};

#define NELEM(v)	(sizeof(v) / sizeof((v)[0]))

/* The text of message number k (global within the history). */
static char *
make_text(uint64_t *st, uint64_t k)
{
	char		 t[HIST_TEXT_MAX];
	size_t		 n;

	n = (size_t)snprintf(t, sizeof(t), "%s",
	    phrases[rng_below(st, NELEM(phrases))]);
	if (rng_below(st, 4) == 0)
		n += (size_t)snprintf(t + n, sizeof(t) - n, " %s",
		    phrases[rng_below(st, NELEM(phrases))]);
	if (rng_below(st, 5) == 0)
		n += (size_t)snprintf(t + n, sizeof(t) - n, " %s",
		    emoji[rng_below(st, NELEM(emoji))]);
	if (rng_below(st, 16) == 0) {
		/* A word found once in the whole history: "qx" + base 26. */
		char	 w[16];
		size_t	 i = 0;
		uint64_t v = k;

		do {
			w[i++] = (char)('a' + v % 26);
			v /= 26;
		} while (v > 0 && i < sizeof(w) - 1);
		w[i] = '\0';
		n += (size_t)snprintf(t + n, sizeof(t) - n, " qx%s", w);
	}
	(void)n;
	return xstrdup(t);
}

void
sim_hist_free(struct sim_account *a)
{
	struct sim_hist	*h = a->hist;

	if (h == NULL)
		return;
	for (size_t i = 0; i < h->nc; i++) {
		for (size_t k = 0; k < h->c[i].n; k++)
			free(h->c[i].m[k].text);
		free(h->c[i].m);
	}
	free(h->c);
	free(h->pool);
	free(h);
	a->hist = NULL;
}

/* A contact of a for the history: PN and LID from the bases. */
static int
make_contact(struct sim *s, struct sim_account *a, size_t k,
    struct sim_account **out)
{
	char		 pn[SIM_PN_MAX], lid[SIM_PN_MAX], name[SIM_NAME_MAX];
	unsigned	 saved = s->opt.nprekeys;
	int		 rc = -EEXIST, tries;

	if (k < NELEM(names))
		snprintf(name, sizeof(name), "%s", names[k]);
	else
		snprintf(name, sizeof(name), "%s %zu", names[k % NELEM(names)],
		    k / NELEM(names) + 1);
	s->opt.nprekeys = HIST_PREKEYS;
	for (tries = 0; tries < 100000 && rc == -EEXIST; tries++) {
		uint64_t	 c = ++s->hist_next_contact;

		snprintf(pn, sizeof(pn), "%" PRIu64, HIST_CONTACT_BASE + c);
		snprintf(lid, sizeof(lid), "%" PRIu64, HIST_LID_BASE + c);
		rc = sim_account_add(s, pn, lid, name, true, a->pn, out);
	}
	s->opt.nprekeys = saved;
	return rc;
}

static int
generate(struct sim *s, struct sim_account *a, struct sim_hist *h)
{
	uint64_t	 st = h->seed, mix, gk = 0, W = 0, rest;
	size_t		 n11 = 0, i, k, j = 0;
	bool		*grp;
	size_t		*cnt;
	int		 rc = 0;

	for (i = 0; a->pn[i] != '\0'; i++)
		st = st * 1099511628211ULL ^ (uint8_t)a->pn[i];
	mix = rng_next(&st);
	h->nc = h->chats;
	h->c = xcalloc(h->nc > 0 ? h->nc : 1, sizeof(*h->c));
	grp = xcalloc(h->nc + 1, sizeof(*grp));
	cnt = xcalloc(h->nc + 1, sizeof(*cnt));
	for (i = 0; i < h->nc; i++) {
		grp[i] = h->nc >= 3 && i % 5 == 2;
		if (!grp[i])
			n11++;
	}
	h->npool = n11;
	if (n11 < h->nc && h->npool < HIST_POOL_MIN)
		h->npool = HIST_POOL_MIN;
	h->pool = xcalloc(h->npool + 1, sizeof(*h->pool));
	for (k = 0; k < h->npool; k++)
		if ((rc = make_contact(s, a, k, &h->pool[k])) != 0)
			goto out;
	/* Messages per chat: one each, the rest by weight 1/(i+1). */
	for (i = 0; i < h->nc; i++)
		W += 1000000000ULL / (i + 1);
	rest = h->msgs >= h->nc ? h->msgs - h->nc : 0;
	for (i = 0, k = 0; i < h->nc; i++) {
		cnt[i] = h->msgs >= h->nc ? 1 + (size_t)(rest *
		    (1000000000ULL / (i + 1)) / W) : i < h->msgs;
		k += cnt[i];
	}
	for (i = 0; k < h->msgs && h->nc > 0; i = (i + 1) % h->nc, k++)
		cnt[i]++;
	for (i = 0; i < h->nc; i++) {
		struct hchat	*c = &h->c[i];
		int64_t		 newest, span, avg, start;

		if (grp[i]) {
			size_t	 want = 2 + (size_t)rng_below(&st, 5), tries;

			snprintf(c->name, sizeof(c->name), "%s",
			    subjects[h->ngroups % NELEM(subjects)]);
			if (h->ngroups >= NELEM(subjects))
				snprintf(c->name + strlen(c->name),
				    sizeof(c->name) - strlen(c->name), " %u",
				    h->ngroups / (unsigned)NELEM(subjects) + 1);
			c->g = sim_group_make(s, c->name, a, false, h->now -
			    3 * HIST_YEAR - (int64_t)rng_below(&st, HIST_YEAR));
			for (tries = 0; c->g->n < want + 1 && tries < 64;
			    tries++)
				(void)sim_group_member_add(c->g, h->pool[
				    rng_below(&st, h->npool)], false);
			sim_group_jid(c->g, c->jid, sizeof(c->jid));
			h->ngroups++;
		} else {
			c->peer = h->pool[j++];
			snprintf(c->jid, sizeof(c->jid), "%s@s.whatsapp.net",
			    c->peer->pn);
			snprintf(c->name, sizeof(c->name), "%s", c->peer->name);
		}
		c->n = cnt[i];
		c->m = xcalloc(c->n + 1, sizeof(*c->m));
		if (c->n == 0)
			continue;
		newest = h->now - (int64_t)i * 7 * 3600 - 60 -
		    (int64_t)rng_below(&st, 3600);
		span = 3 * HIST_YEAR * (50 + (int64_t)rng_below(&st, 51)) / 100;
		if (span < 4 * (int64_t)c->n)
			span = 4 * (int64_t)c->n;
		avg = span / (int64_t)c->n;
		start = newest - (int64_t)c->n * avg;
		for (k = 0; k < c->n; k++) {
			struct hmsg	*m = &c->m[k];

			m->ts = start + (int64_t)k * avg +
			    (int64_t)rng_below(&st, (uint64_t)avg);
			snprintf(m->id, sizeof(m->id), "3EB0A1%016" PRIX64,
			    mix ^ gk);
			m->from_me = rng_below(&st, 3) == 0;
			if (!m->from_me && c->g != NULL) {
				const struct sim_group_member	*gm;

				do
					gm = &c->g->m[rng_below(&st, c->g->n)];
				while (gm->acct == a);
				m->sender = gm->acct;
			} else if (!m->from_me)
				m->sender = c->peer;
			m->text = make_text(&st, gk);
			m->quoted = -1;
			if (k > 0 && rng_below(&st, 12) == 0)
				m->quoted = (int32_t)(k - 1 - rng_below(&st,
				    k < 20 ? k : 20));
			gk++;
		}
		/* The newest at newest: chat i's is newer than chat i+1's. */
		c->m[c->n - 1].ts = newest;
	}
	h->total = (size_t)gk;
out:
	free(grp);
	free(cnt);
	return rc;
}

static double
now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void
summary_json(const struct sim_account *a, struct json_object *o)
{
	const struct sim_hist	*h = a->hist;

	json_object_object_add(o, "pn", json_object_new_string(a->pn));
	json_object_object_add(o, "chats", json_object_new_int64((int64_t)h->nc));
	json_object_object_add(o, "messages",
	    json_object_new_int64((int64_t)h->total));
	json_object_object_add(o, "groups", json_object_new_int64(h->ngroups));
	json_object_object_add(o, "contacts",
	    json_object_new_int64((int64_t)h->npool));
	json_object_object_add(o, "seed", json_object_new_int64((int64_t)h->seed));
	json_object_object_add(o, "chunk", json_object_new_int64(h->chunk));
	json_object_object_add(o, "now", json_object_new_int64(h->now));
	json_object_object_add(o, "full", json_object_new_string(
	    h->full_if_asked ? "if-asked" : "always"));
	json_object_object_add(o, "generate_ms",
	    json_object_new_double(h->gen_ms));
	json_object_object_add(o, "syncs_sent",
	    json_object_new_int64((int64_t)h->runs));
}

int
sim_hist_set(struct sim *s, struct sim_account *a,
    const struct sim_hist_cfg *cfg, struct json_object *res,
    const char **why)
{
	struct sim_hist	*h;
	double		 t0 = now_ms();
	int		 rc;

	*why = NULL;
	if (a->contact) {
		*why = "only an account (not a contact) links companions";
		return 400;
	}
	if (a->hist != NULL) {
		*why = "this account has a history already";
		return 409;
	}
	if (cfg->chats == 0 || cfg->chats > HIST_MAX_CHATS ||
	    cfg->msgs > HIST_MAX_MSGS || cfg->chunk > HIST_MAX_CHUNK) {
		*why = "chats 1-20000, messages 0-2000000, chunk 0-100000";
		return 400;
	}
	h = xcalloc(1, sizeof(*h));
	h->chats = cfg->chats;
	h->msgs = cfg->msgs;
	h->seed = cfg->seed;
	h->chunk = cfg->chunk > 0 ? cfg->chunk : HIST_CHUNK_DEFAULT;
	h->now = cfg->now > 0 ? cfg->now : HIST_NOW_DEFAULT;
	h->full_if_asked = cfg->full_if_asked;
	a->hist = h;
	if ((rc = generate(s, a, h)) != 0) {
		sim_log(s, "history of %s: cannot make its contacts: %s",
		    a->pn, wc_strerror(rc));
		/* The contacts made so far stay; the history goes. */
		sim_hist_free(a);
		*why = "cannot make the history's contacts";
		return 500;
	}
	h->gen_ms = now_ms() - t0;
	sim_log(s, "history of %s: %zu chats (%u groups), %zu messages, "
	    "%zu contacts, seed %" PRIu64 ", made in %.0f ms", a->pn, h->nc,
	    h->ngroups, h->total, h->npool, h->seed, h->gen_ms);
	if (res != NULL)
		summary_json(a, res);
	return 200;
}

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
	size_t			*off, *len, i, x = 0, q;
	char			*own;
	int64_t			 oldest = 0;
	struct ship		 sp;
	int			 rc = 0;

	arena_init(&ar, 0);
	own = pn_jid(&ar, a);
	memset(&hs, 0, sizeof(hs));
	hs.sync_type = k->type;
	hs.chunk_order = order;
	hs.progress = progress;
	hs.convs = arena_alloc(&ar, (k->n + 1) * sizeof(*hs.convs));
	memset(hs.convs, 0, (k->n + 1) * sizeof(*hs.convs));
	off = xcalloc(k->nmsgs + 1, sizeof(*off));
	len = xcalloc(k->nmsgs + 1, sizeof(*len));
	/* The E2E Messages first (e2e moves as it grows). */
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
				    pn_jid(&ar, qm->sender);
				t.quoted_text = qm->text;
			}
			off[x] = e2e.len;
			rc = wa_msg_build_text(&t, &e2e);
			len[x] = e2e.len - off[x];
			x++;
		}
	}
	x = 0;
	for (i = 0; i < k->n && rc == 0; i++) {
		const struct seg	*sg = &k->v[i];
		const struct hchat	*c = &h->c[sg->chat];
		struct wa_hist_conv	*cv = &hs.convs[hs.n_convs++];

		cv->id = c->jid;
		cv->name = c->name;
		if (c->peer != NULL) {
			char	 l[HIST_JID_MAX];

			cv->display_name = c->name;
			snprintf(l, sizeof(l), "%s@lid", c->peer->lid);
			cv->lid_jid = a_strdup(&ar, l);
		}
		if (c->n > 0)
			cv->last_msg_ts_s = cv->conversation_ts_s =
			    (uint64_t)c->m[c->n - 1].ts;
		cv->end_of_history = sg->lo == 0 && k->type !=
		    WA_HIST_ON_DEMAND;
		if (c->g != NULL) {
			cv->participants = arena_alloc(&ar, c->g->n *
			    sizeof(*cv->participants));
			for (q = 0; q < c->g->n; q++) {
				cv->participants[q].jid = pn_jid(&ar,
				    c->g->m[q].acct);
				cv->participants[q].rank =
				    c->g->m[q].superadmin ? 2 :
				    c->g->m[q].admin ? 1 : 0;
			}
			cv->n_participants = c->g->n;
		}
		cv->n_msgs = sg->hi - sg->lo;
		cv->msgs = arena_alloc(&ar, (cv->n_msgs + 1) *
		    sizeof(*cv->msgs));
		memset(cv->msgs, 0, (cv->n_msgs + 1) * sizeof(*cv->msgs));
		for (q = 0; q < cv->n_msgs; q++, x++) {
			const struct hmsg	*m = &c->m[sg->hi - 1 - q];
			struct wa_hist_msg	*w = &cv->msgs[q];

			w->remote_jid = c->jid;
			w->from_me = m->from_me;
			w->id = m->id;
			if (c->g != NULL && !m->from_me)
				w->key_participant = w->participant =
				    pn_jid(&ar, m->sender);
			w->message = e2e.p + off[x];
			w->message_len = len[x];
			w->ts_s = (uint64_t)m->ts;
			w->status = m->from_me ? WA_HIST_STATUS_READ : -1;
			if (!m->from_me)
				w->push_name = m->sender->name;
			if (oldest == 0 || m->ts < oldest)
				oldest = m->ts;
		}
		hs.n_msgs += cv->n_msgs;
	}
	if (rc == 0 && k->pushnames) {
		hs.pushnames = arena_alloc(&ar, (h->npool + 1) *
		    sizeof(*hs.pushnames));
		for (i = 0; i < h->npool; i++) {
			hs.pushnames[i].jid = pn_jid(&ar, h->pool[i]);
			hs.pushnames[i].name = h->pool[i]->name;
		}
		hs.n_pushnames = h->npool;
	}
	if (rc == 0 && k->lid_maps) {
		hs.lid_maps = arena_alloc(&ar, (h->npool + 1) *
		    sizeof(*hs.lid_maps));
		for (i = 0; i < h->npool; i++) {
			char	 l[HIST_JID_MAX];

			snprintf(l, sizeof(l), "%s@lid", h->pool[i]->lid);
			hs.lid_maps[i].pn_jid = pn_jid(&ar, h->pool[i]);
			hs.lid_maps[i].lid_jid = a_strdup(&ar, l);
		}
		hs.n_lid_maps = h->npool;
	}
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
static int
send_history(struct sim *s, struct sim_account *a, uint32_t dev,
    struct json_object *list)
{
	struct sim_hist	*h = a->hist;
	struct sim_device *d = sim_device_find(a, dev);
	bool		 full = !h->full_if_asked || (d != NULL && d->full_sync);
	size_t		 total = 0;
	struct chunk	 k;
	size_t		 boot, i, sent = 0, *top;
	uint32_t	 order = 0;
	int64_t		 cutoff = h->now - HIST_YEAR;
	int		 pass, rc = 0;
	double		 t0 = now_ms();

	memset(&k, 0, sizeof(k));
	boot = h->chunk / (h->nc > 0 ? h->nc : 1);
	if (boot < 1)
		boot = 1;
	if (boot > HIST_BOOT_MAX)
		boot = HIST_BOOT_MAX;
	top = xcalloc(h->nc + 1, sizeof(*top));
	k.type = WA_HIST_INITIAL_BOOTSTRAP;
	k.lid_maps = true;
	for (i = 0; i < h->nc; i++) {
		size_t	 n = h->c[i].n;

		top[i] = n > boot ? n - boot : 0;
		seg_add(&k, i, top[i], n);
		/* What will be sent, for the progress. */
		if (full)
			total += n;
		else {
			size_t	 p = 0;

			while (p < top[i] && h->c[i].m[p].ts < cutoff)
				p++;
			total += n - p;
		}
	}
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
	    "messages in %.0f ms%s%s", a->pn, dev, order, sent, now_ms() - t0,
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
		(void)send_history(j->s, j->a, j->dev, NULL);
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
	char		 idc[64], hn[96], auth[64];
	uint8_t		 rnd[24];

	if (!wa_str_eqc(sn_get(n, "xmlns"), "w:m") ||
	    !wa_str_eqc(sn_get(n, "type"), "set") ||
	    sn_find(n, "media_conn") == NULL)
		return 0;
	snprintf(idc, sizeof(idc), "%.*s", (int)id.len, id.p);
	sim_random(rnd, sizeof(rnd));
	sim_hex(rnd, sizeof(rnd), auth);
	if (strchr(s->opt.host, ':') != NULL)
		snprintf(hn, sizeof(hn), "[%s]:%d", s->opt.host, s->media_port);
	else
		snprintf(hn, sizeof(hn), "%s:%d", s->opt.host, s->media_port);
	arena_init(&ar, 0);
	r = sn_new(&ar, "iq");
	sn_attr_jid(&ar, r, "from", "", "s.whatsapp.net", 0);
	sn_attr(&ar, r, "type", "result");
	sn_attr(&ar, r, "id", idc);
	mc = sn_child(&ar, r, "media_conn");
	sn_attr(&ar, mc, "auth", auth);
	sn_attr(&ar, mc, "ttl", "3600");
	sn_attr(&ar, mc, "auth_ttl", "21600");
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

/*
 * The bytes of length-delimited field want at the top level of the
 * protobuf p[0..len), or false (also for malformed data).
 */
static bool
pb_find(const uint8_t *p, size_t len, uint32_t want, const uint8_t **out,
    size_t *out_len)
{
	size_t		 i = 0;

	while (i < len) {
		uint64_t	 tag = 0, v = 0;
		unsigned	 sh;

		for (sh = 0; i < len && sh < 64; sh += 7) {
			tag |= (uint64_t)(p[i] & 0x7f) << sh;
			if ((p[i++] & 0x80) == 0)
				break;
		}
		switch (tag & 7) {
		case 0:
			while (i < len && (p[i++] & 0x80) != 0)
				;
			break;
		case 1:
			i += 8;
			break;
		case 5:
			i += 4;
			break;
		case 2:
			for (sh = 0; i < len && sh < 64; sh += 7) {
				v |= (uint64_t)(p[i] & 0x7f) << sh;
				if ((p[i++] & 0x80) == 0)
					break;
			}
			if (v > len - i)
				return false;
			if ((tag >> 3) == want) {
				*out = p + i;
				*out_len = (size_t)v;
				return true;
			}
			i += (size_t)v;
			break;
		default:
			return false;
		}
	}
	return false;
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
	if (pb_find(p, len, 31, &dsm, &dsm_len) && pb_find(dsm, dsm_len, 2,
	    &p, &len))
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

/* Protobuf length-delimited field. */
static void
pb_ld(struct buf *out, uint32_t field, const uint8_t *p, size_t len)
{
	uint64_t	 v;

	for (v = (uint64_t)field << 3 | 2; v >= 0x80; v >>= 7)
		buf_push(out, (uint8_t)(v | 0x80));
	buf_push(out, (uint8_t)v);
	for (v = len; v >= 0x80; v >>= 7)
		buf_push(out, (uint8_t)(v | 0x80));
	buf_push(out, (uint8_t)v);
	buf_append(out, p, len);
}

/* A Message quoting a quote ... depth levels deep (inside out). */
static void
nested(unsigned depth, struct buf *out)
{
	struct buf	 cur = BUF_INIT, ci = BUF_INIT, ext = BUF_INIT;

	pb_ld(&cur, 1, (const uint8_t *)"the bottom", 10);
	for (unsigned i = 0; i < depth; i++) {
		ci.len = ext.len = 0;
		pb_ld(&ci, 3, cur.p, cur.len);		/* quotedMessage */
		pb_ld(&ext, 1, (const uint8_t *)"deeper", 6);
		pb_ld(&ext, 17, ci.p, ci.len);		/* contextInfo */
		cur.len = 0;
		pb_ld(&cur, 6, ext.p, ext.len);		/* extendedText */
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
static int
send_fault(struct sim *s, struct sim_account *a, uint32_t dev,
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

/* --- admin --- */

static int
reply(struct buf *out, struct json_object *o, int status)
{
	const char	*txt = json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE);

	buf_append(out, txt, strlen(txt));
	buf_push(out, '\n');
	json_object_put(o);
	return status;
}

static int
error(struct buf *out, int status, const char *msg)
{
	struct json_object	*o = json_object_new_object();

	json_object_object_add(o, "error", json_object_new_string(msg));
	return reply(out, o, status);
}

static const char *
jstr(struct json_object *o, const char *key)
{
	struct json_object	*v;

	if (o == NULL || !json_object_object_get_ex(o, key, &v))
		return NULL;
	return json_object_get_string(v);
}

/* Member key of o as a number (or a decimal string): 1, absent 0, bad
 * -1. */
static int
jnum(struct json_object *o, const char *key, int64_t *out)
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

static bool
query(const char *q, const char *name, char *val, size_t len)
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

	summary_json(a, o);
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
		return error(out, 404, "no such chat in the history");
	if (query(q, "offset", v, sizeof(v)))
		off = (size_t)strtoull(v, NULL, 10);
	if (query(q, "limit", v, sizeof(v)))
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
	return reply(out, o, 200);
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

int
sim_hist_admin(struct sim *s, const char *path, const char *q,
    struct json_object *in, bool post, struct buf *out)
{
	struct sim_account	*a;
	struct json_object	*o, *list;
	struct sim_blob		*b;
	char			 pn[SIM_PN_MAX], jid[HIST_JID_MAX];
	const char		*why, *kind;
	uint32_t		 devs[64];
	size_t			 nd, i;
	int64_t			 v, dev = 0;
	int			 st, rc = 0;

	if (strncmp(path, "history", 7) != 0 || (path[7] != '\0' &&
	    path[7] != '/'))
		return 0;
	path += 7;
	if (!post && strcmp(path, "/blobs") == 0) {
		list = json_object_new_array();
		for (b = s->blobs; b != NULL; b = b->next)
			json_object_array_add(list, sim_media_blob_json(b));
		return reply(out, list, 200);
	}
	if (!post && strcmp(path, "/status") == 0)
		return reply(out, sim_hist_status_json(s), 200);
	if (post && strcmp(path, "/media") == 0) {
		if (jnum(in, "delay_ms", &v) != 1 || v < 0 || v > 60000)
			return error(out, 400, "delay_ms: 0-60000");
		s->media_delay_ms = (unsigned)v;
		sim_log(s, "media: delay %u ms", s->media_delay_ms);
		return reply(out, sim_hist_status_json(s), 200);
	}
	if (post) {
		const char	*p = jstr(in, "pn");

		snprintf(pn, sizeof(pn), "%s", p != NULL ? p : "");
	} else if (!query(q, "pn", pn, sizeof(pn)))
		return error(out, 400, "give ?pn=PN");
	if ((a = sim_account_by_pn(s, pn)) == NULL)
		return error(out, 404, "no such account");
	if (post && path[0] == '\0') {
		struct sim_hist_cfg	 cfg;

		memset(&cfg, 0, sizeof(cfg));
		if (jnum(in, "chats", &v) != 1 || v < 1 || v > HIST_MAX_CHATS)
			return error(out, 400, "give chats (1-20000)");
		cfg.chats = (unsigned)v;
		if (jnum(in, "messages", &v) != 1 || v < 0 || v > HIST_MAX_MSGS)
			return error(out, 400, "give messages (0-2000000)");
		cfg.msgs = (unsigned)v;
		if ((rc = jnum(in, "seed", &v)) < 0)
			return error(out, 400, "seed: a number");
		cfg.seed = rc == 1 ? (uint64_t)v : 1;
		if ((rc = jnum(in, "chunk", &v)) < 0 || (rc == 1 && (v < 1 ||
		    v > HIST_MAX_CHUNK)))
			return error(out, 400, "chunk: 1-100000 messages");
		cfg.chunk = rc == 1 ? (unsigned)v : s->opt.hist_chunk;
		if ((rc = jnum(in, "now", &v)) < 0 || (rc == 1 && v < 0))
			return error(out, 400, "now: unix seconds");
		cfg.now = rc == 1 ? v : 0;
		kind = jstr(in, "full");
		if (kind != NULL && strcmp(kind, "always") != 0 &&
		    strcmp(kind, "if-asked") != 0)
			return error(out, 400, "full: always or if-asked");
		cfg.full_if_asked = kind != NULL ? strcmp(kind, "if-asked") ==
		    0 : s->opt.hist_full_if_asked;
		o = json_object_new_object();
		st = sim_hist_set(s, a, &cfg, o, &why);
		if (st != 200) {
			json_object_put(o);
			return error(out, st, why);
		}
		return reply(out, o, 200);
	}
	if (!post && path[0] == '\0') {
		if (a->hist == NULL)
			return error(out, 404, "this account has no history");
		return reply(out, chats_json(a), 200);
	}
	if (!post && strcmp(path, "/chat") == 0) {
		if (a->hist == NULL)
			return error(out, 404, "this account has no history");
		if (!query(q, "jid", jid, sizeof(jid)))
			return error(out, 400, "give ?pn=PN&jid=CHAT");
		return chat_json(a, jid, q, out);
	}
	if (post && (strcmp(path, "/send") == 0 || strcmp(path, "/fault") ==
	    0)) {
		if ((rc = jnum(in, "device", &dev)) < 0)
			return error(out, 400, "device: a number");
		kind = jstr(in, "kind");
		if (strcmp(path, "/fault") == 0 && (kind == NULL ||
		    (strcmp(kind, "corrupt") != 0 && strcmp(kind, "bomb") != 0 &&
		    strcmp(kind, "nest") != 0 && strcmp(kind, "gone") != 0)))
			return error(out, 400, "kind: corrupt, bomb, nest or "
			    "gone");
		if (strcmp(path, "/send") == 0 && a->hist == NULL)
			return error(out, 404, "this account has no history");
		nd = targets(a, dev, devs, 64);
		if (nd == 0)
			return error(out, 409, "no linked companion with keys "
			    "to send to");
		list = json_object_new_array();
		for (i = 0, rc = 0; i < nd && rc == 0; i++) {
			if (strcmp(path, "/send") == 0) {
				struct sim_device	*d =
				    sim_device_find(a, devs[i]);

				d->hist_sent = true;
				rc = send_history(s, a, devs[i], list);
			} else
				rc = send_fault(s, a, devs[i], kind, list);
		}
		if (rc != 0) {
			json_object_put(list);
			return error(out, 500, wc_strerror(rc));
		}
		o = json_object_new_object();
		json_object_object_add(o, "sent", list);
		return reply(out, o, 200);
	}
	return error(out, 404, "no such route");
}
