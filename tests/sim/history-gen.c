/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/history-gen.c -- the simulated phone's chat history, made
 * from a seed (protocol.md 12): 1:1 chats with contacts made for it,
 * groups in the sim's group table, text in several scripts and emoji,
 * replies, messages from both sides over the past years, push names.
 * history.c sends it.  Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "history.h"
#include "sim.h"

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

/* The generator's state for a's history: the seed mixed with a's PN. */
static uint64_t
seed_state(const struct sim_hist *h, const struct sim_account *a)
{
	uint64_t	 st = h->seed;
	size_t		 i;

	for (i = 0; a->pn[i] != '\0'; i++)
		st = st * 1099511628211ULL ^ (uint8_t)a->pn[i];
	return st;
}

/* Messages per chat into cnt[0..h->nc): one each, the rest by weight
 * 1/(i+1), what rounding leaves from the first chat on. */
static void
chat_counts(const struct sim_hist *h, size_t *cnt)
{
	uint64_t	 W = 0, rest;
	size_t		 i, k;

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
}

/* Chat c as a new group of a's with a few of the contacts made. */
static void
make_group_chat(struct sim *s, struct sim_account *a, struct sim_hist *h,
    struct hchat *c, uint64_t *st)
{
	size_t	 want = 2 + (size_t)rng_below(st, 5), tries;

	snprintf(c->name, sizeof(c->name), "%s",
	    subjects[h->ngroups % NELEM(subjects)]);
	if (h->ngroups >= NELEM(subjects))
		snprintf(c->name + strlen(c->name), sizeof(c->name) -
		    strlen(c->name), " %u", h->ngroups /
		    (unsigned)NELEM(subjects) + 1);
	c->g = sim_group_make(s, c->name, a, false, h->now - 3 * HIST_YEAR -
	    (int64_t)rng_below(st, HIST_YEAR));
	for (tries = 0; c->g->n < want + 1 && tries < 64; tries++)
		(void)sim_group_member_add(c->g, h->pool[rng_below(st,
		    h->npool)], false);
	sim_group_jid(c->g, c->jid, sizeof(c->jid));
	h->ngroups++;
}

/*
 * The c->n messages of chat number i of a's history, oldest first over
 * 1.5-3 years, the newest at newest (chat i's newer than chat i+1's);
 * *gk counts the messages of the whole history (their ids and words).
 */
static void
make_messages(struct sim_hist *h, struct sim_account *a, struct hchat *c,
    size_t i, uint64_t *st, uint64_t mix, uint64_t *gk)
{
	int64_t	 newest, span, avg, start;
	size_t	 k;

	newest = h->now - (int64_t)i * 7 * 3600 - 60 -
	    (int64_t)rng_below(st, 3600);
	span = 3 * HIST_YEAR * (50 + (int64_t)rng_below(st, 51)) / 100;
	if (span < 4 * (int64_t)c->n)
		span = 4 * (int64_t)c->n;
	avg = span / (int64_t)c->n;
	start = newest - (int64_t)c->n * avg;
	for (k = 0; k < c->n; k++) {
		struct hmsg	*m = &c->m[k];

		m->ts = start + (int64_t)k * avg +
		    (int64_t)rng_below(st, (uint64_t)avg);
		snprintf(m->id, sizeof(m->id), "3EB0A1%016" PRIX64, mix ^ *gk);
		m->from_me = rng_below(st, 3) == 0;
		if (!m->from_me && c->g != NULL) {
			const struct sim_group_member	*gm;

			do
				gm = &c->g->m[rng_below(st, c->g->n)];
			while (gm->acct == a);
			m->sender = gm->acct;
		} else if (!m->from_me)
			m->sender = c->peer;
		m->text = make_text(st, *gk);
		m->quoted = -1;
		if (k > 0 && rng_below(st, 12) == 0)
			m->quoted = (int32_t)(k - 1 - rng_below(st, k < 20 ? k :
			    20));
		(*gk)++;
	}
	c->m[c->n - 1].ts = newest;
}

static int
generate(struct sim *s, struct sim_account *a, struct sim_hist *h)
{
	uint64_t	 st = seed_state(h, a), mix, gk = 0;
	size_t		 n11 = 0, i, k, j = 0;
	bool		*grp;
	size_t		*cnt;
	int		 rc = 0;

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
	chat_counts(h, cnt);
	for (i = 0; i < h->nc; i++) {
		struct hchat	*c = &h->c[i];

		if (grp[i])
			make_group_chat(s, a, h, c, &st);
		else {
			c->peer = h->pool[j++];
			snprintf(c->jid, sizeof(c->jid), "%s@s.whatsapp.net",
			    c->peer->pn);
			snprintf(c->name, sizeof(c->name), "%s", c->peer->name);
		}
		c->n = cnt[i];
		c->m = xcalloc(c->n + 1, sizeof(*c->m));
		if (c->n > 0)
			make_messages(h, a, c, i, &st, mix, &gk);
	}
	h->total = (size_t)gk;
out:
	free(grp);
	free(cnt);
	return rc;
}

double
hist_now_ms(void)
{
	struct timespec	 ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void
hist_summary_json(const struct sim_account *a, struct json_object *o)
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
	double		 t0 = hist_now_ms();
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
	h->gen_ms = hist_now_ms() - t0;
	sim_log(s, "history of %s: %zu chats (%u groups), %zu messages, "
	    "%zu contacts, seed %" PRIu64 ", made in %.0f ms", a->pn, h->nc,
	    h->ngroups, h->total, h->npool, h->seed, h->gen_ms);
	if (res != NULL)
		hist_summary_json(a, res);
	return 200;
}
