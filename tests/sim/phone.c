/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone.c -- the simulated primary phones (device 0 of every
 * account and contact) with real Signal sessions: libsignal-protocol-c
 * through proto/wa-signal.h over in-memory tables per phone, the
 * message layer of proto/msg.h.  A phone decrypts what is routed to it
 * (protocol.md 11.2), keeps it in an inbox (GET /admin/mock-phone/inbox),
 * answers with a delivery receipt (11.8) or, when it cannot decrypt, a
 * retry receipt (9.6, at most 4 per message as [WM]); it sends when told
 * to (POST /admin/mock-phone/send) as a client does (9.2-9.4): every
 * device of the addressee and its own account's companions (those as
 * deviceSentMessage), sessions from the devices' prekey bundles.  An echo
 * phone reads every text it gets and answers "echo: TEXT"; a chatty one
 * writes to its owner now and then.  In groups (protocol.md 10) a phone
 * processes the SKDMs it gets, decrypts skmsg into its group inbox, sends
 * with its own sender key (SKDM pairwise to the member devices that lack
 * it, then one skmsg) and answers retry receipts for what it sent.  Loop
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
#include "base/err.h"
#include "proto/group.h"
#include "proto/history.h"
#include "proto/msg.h"
#include "nodes.h"
#include "sim.h"
#include "proto/wa-signal.h"
#include "base/xmalloc.h"

#define PHONE_TX_DEPTH		16	/* nested transactions */
#define PHONE_INBOX_MAX		4096	/* messages kept per phone */
#define PHONE_LOG_MAX		4096	/* receipts or sends kept per phone */
#define PHONE_RETRY_SLOTS	64	/* message ids with a retry count */
#define PHONE_RETRY_MAX		4	/* retry receipts per message ([WM]) */
#define PHONE_ECHO_MS		300	/* an echo phone answers after this */
#define PHONE_CHATTY_MAX_S	86400	/* longest chatty period */
#define PHONE_TEXT_MAX		65536	/* bytes of text told to send */
#define PHONE_JID_MAX		96
#define PHONE_GROUP_SENT_MAX	64	/* group sends kept for retries */
#define PHONE_GROUP_DEVICES	64	/* devices of one member */

/* One row of the in-memory Signal tables. */
struct kv {
	char		*key;
	struct buf	 val;
};

/* The old value of a row written inside a transaction. */
struct undo {
	char		*key;
	bool		 had;
	struct buf	 old;
};

/* A message a phone received. */
struct inbox {
	uint64_t	 seq;
	char		 id[80];
	char		 from[PHONE_JID_MAX];
	char		 recipient[PHONE_JID_MAX];
	char		 enc[8];		/* pkmsg, msg */
	const char	*kind;			/* static */
	char		*text;
	char		*quoted_id;
	char		*emoji;
	char		*target_id;
	char		*dsm_destination;
	int64_t		 t;
	bool		 offline;
	int		 err;			/* 0, or why it was not read */
	bool		 retried;		/* a retry receipt was sent */
};

/* A receipt routed to a phone, or a message it sent. */
struct entry {
	char		 id[80];
	char		 peer[PHONE_JID_MAX];	/* receipt from, message to */
	char		 type[24];
	int64_t		 t;
	unsigned	 devices;		/* sends: copies encrypted */
	unsigned	 pkmsgs;
};

/* A group message a phone received (protocol.md 10, 11.2). */
struct ginbox {
	uint64_t	 seq;
	char		 group[48];		/* "<id>@g.us" */
	char		 id[80];
	char		 from[PHONE_JID_MAX];	/* participant: sender device */
	char		 enc[8];		/* skmsg, or pkmsg/msg (retry) */
	const char	*kind;			/* static */
	char		*text;
	int64_t		 t;
	int		 err;			/* 0, or why it was not read */
};

/* A group message a phone sent, kept for retry receipts (10.5). */
struct gsent {
	char		 group[48];
	char		 id[80];
	struct buf	 msg;			/* the Message, unpadded */
};

struct retry_slot {
	char		 id[80];
	char		 from[PHONE_JID_MAX];
	unsigned	 count;
};

struct sim_phone {
	struct sim		*s;
	struct sim_account	*a;
	struct wa_signal	*sig;
	struct wa_signal_store_ops ops;

	struct kv		*kv;
	size_t			 nkv, kv_cap;
	struct undo		*undo;
	size_t			 nundo, undo_cap;
	size_t			 marks[PHONE_TX_DEPTH];
	unsigned		 depth;

	struct inbox		*in;
	size_t			 nin, in_cap;
	uint64_t		 in_seq;
	struct entry		*rcpt;
	size_t			 nrcpt, rcpt_cap;
	struct entry		*sent;
	size_t			 nsent, sent_cap;
	struct retry_slot	 retries[PHONE_RETRY_SLOTS];
	unsigned		 next_retry;
	uint64_t		 decrypted, failed, duplicates, retry_receipts;
	uint64_t		 resent;	/* an id read before, again */
	uint64_t		 echoes;

	struct ginbox		*gin;
	size_t			 ngin, gin_cap;
	uint64_t		 gin_seq;
	struct gsent		 gsent[PHONE_GROUP_SENT_MAX];
	unsigned		 next_gsent;
	uint64_t		 group_decrypted, group_failed, skdms;
	uint64_t		 group_resends;
};

/* A chatty contact's timer (sim_phone_chatty). */
struct sim_chatty {
	uv_timer_t		 t;
	struct sim		*s;
	struct sim_account	*a;		/* NULL once stopped */
	unsigned		 next;		/* next of chatty_texts */
};

/* What a chatty contact says, in turn. */
static const char *const chatty_texts[] = {
	"Hi! How is your day going? \xf0\x9f\x98\x8a",
	"\xc2\xbfQu\xc3\xa9 tal? \xc2\xa1Hace un d\xc3\xad" "a precioso! "
	    "\xe2\x98\x80\xef\xb8\x8f",
	"Bonjour ! On prend un caf\xc3\xa9 demain ? \xe2\x98\x95",
	"Guten Abend! Hast du den Film gesehen? \xf0\x9f\x8e\xac",
	"Ol\xc3\xa1! Tudo bem por a\xc3\xad? \xf0\x9f\x8c\xbb",
	"\xe3\x81\x93\xe3\x82\x93\xe3\x81\xab\xe3\x81\xa1\xe3\x81\xaf"
	    "\xef\xbc\x81 \xf0\x9f\x8c\xb8",
	"Ciao! Ho trovato una pizzeria fantastica \xf0\x9f\x8d\x95",
	"Just thinking of you \xe2\x80\x94 talk soon! \xf0\x9f\x91\x8b",
};

/* An echo answer waiting for its timer. */
struct echo_job {
	uv_timer_t		 t;
	struct sim		*s;
	struct sim_account	*a;
	char			 sender[PHONE_JID_MAX];	/* device JID */
	char			 chat[PHONE_JID_MAX];	/* user JID */
	char			 id[80];
	char			*text;
};

static int64_t
now_ms(void *arg)
{
	struct timespec	 ts;

	(void)arg;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wipe and free b (secrets and message text). */
static void
wipe(struct buf *b)
{
	if (b->p != NULL)
		explicit_bzero(b->p, b->len);
	buf_release(b);
}

/* --- the tables --- */

static struct kv *
kv_find(struct sim_phone *p, const char *key)
{
	size_t	 i;

	for (i = 0; i < p->nkv; i++)
		if (strcmp(p->kv[i].key, key) == 0)
			return &p->kv[i];
	return NULL;
}

/* Write without journaling: val NULL deletes. */
static void
kv_set_raw(struct sim_phone *p, const char *key, const uint8_t *val,
    size_t len)
{
	struct kv	*e = kv_find(p, key);

	if (val == NULL) {
		if (e != NULL) {
			free(e->key);
			wipe(&e->val);
			*e = p->kv[--p->nkv];
		}
		return;
	}
	if (e == NULL) {
		if (p->nkv == p->kv_cap) {
			p->kv_cap = p->kv_cap ? 2 * p->kv_cap : 32;
			p->kv = xrealloc(p->kv, p->kv_cap * sizeof(*p->kv));
		}
		e = &p->kv[p->nkv++];
		e->key = xstrdup(key);
		memset(&e->val, 0, sizeof(e->val));
	}
	e->val.len = 0;
	buf_append(&e->val, val, len);
}

/* Write (val NULL: delete), journaled inside a transaction. */
static void
kv_set(struct sim_phone *p, const char *key, const uint8_t *val, size_t len)
{
	if (p->depth > 0) {
		struct kv	*e = kv_find(p, key);
		struct undo	*u;

		if (p->nundo == p->undo_cap) {
			p->undo_cap = p->undo_cap ? 2 * p->undo_cap : 16;
			p->undo = xrealloc(p->undo, p->undo_cap *
			    sizeof(*p->undo));
		}
		u = &p->undo[p->nundo++];
		u->key = xstrdup(key);
		u->had = e != NULL;
		memset(&u->old, 0, sizeof(u->old));
		if (e != NULL)
			buf_append(&u->old, e->val.p, e->val.len);
	}
	kv_set_raw(p, key, val, len);
}

static void
undo_drop(struct undo *u)
{
	free(u->key);
	wipe(&u->old);
}

static void
key_addr(char *out, size_t len, char kind, const struct wa_signal_addr *a)
{
	snprintf(out, len, "%c/%s/%u", kind, a->name, a->device);
}

static int
op_session_load(void *arg, const struct wa_signal_addr *a, struct buf *out)
{
	char		 k[WA_SIGNAL_NAME_MAX + 32];
	struct kv	*e;

	key_addr(k, sizeof(k), 's', a);
	if ((e = kv_find(arg, k)) == NULL)
		return 0;
	buf_append(out, e->val.p, e->val.len);
	return 1;
}

static int
op_session_store(void *arg, const struct wa_signal_addr *a,
    const uint8_t *rec, size_t len)
{
	char	 k[WA_SIGNAL_NAME_MAX + 32];

	key_addr(k, sizeof(k), 's', a);
	kv_set(arg, k, rec != NULL ? rec : (const uint8_t *)"", len);
	return 0;
}

static int
op_session_contains(void *arg, const struct wa_signal_addr *a)
{
	char	 k[WA_SIGNAL_NAME_MAX + 32];

	key_addr(k, sizeof(k), 's', a);
	return kv_find(arg, k) != NULL;
}

static int
op_session_delete(void *arg, const struct wa_signal_addr *a)
{
	char	 k[WA_SIGNAL_NAME_MAX + 32];

	key_addr(k, sizeof(k), 's', a);
	if (kv_find(arg, k) == NULL)
		return 0;
	kv_set(arg, k, NULL, 0);
	return 1;
}

/* The device of session key k when it belongs to name, else -1. */
static int64_t
session_dev(const char *k, const char *name)
{
	size_t	 n = strlen(name);

	if (k[0] != 's' || k[1] != '/' || strncmp(k + 2, name, n) != 0 ||
	    k[2 + n] != '/')
		return -1;
	return strtoll(k + 3 + n, NULL, 10);
}

static int
op_session_delete_all(void *arg, const char *name)
{
	struct sim_phone	*p = arg;
	int			 n = 0;
	size_t			 i;

	for (i = 0; i < p->nkv;) {
		if (session_dev(p->kv[i].key, name) >= 0) {
			char	*k = xstrdup(p->kv[i].key);

			/* The last row moves here. */
			kv_set(p, k, NULL, 0);
			free(k);
			n++;
		} else
			i++;
	}
	return n;
}

static int
u32_cmp(const void *a, const void *b)
{
	uint32_t	 x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int
op_session_devices(void *arg, const char *name, uint32_t *out, size_t max)
{
	struct sim_phone	*p = arg;
	uint32_t		*all = xcalloc(p->nkv + 1, sizeof(*all));
	size_t			 i, n = 0;
	int64_t			 d;

	for (i = 0; i < p->nkv; i++)
		if ((d = session_dev(p->kv[i].key, name)) >= 0)
			all[n++] = (uint32_t)d;
	qsort(all, n, sizeof(*all), u32_cmp);
	for (i = 0; i < n && i < max; i++)
		out[i] = all[i];
	free(all);
	return (int)n;
}

static int
op_own_load(void *arg, struct wa_signal_own *out)
{
	struct sim_phone		*p = arg;
	const struct sim_signal_keys	*k = &p->a->keys;

	memcpy(out->identity_priv, k->ident_priv, WA_SIGNAL_KEY_LEN);
	memcpy(out->identity_pub, k->ident_pub, WA_SIGNAL_KEY_LEN);
	out->registration_id = k->reg_id;
	out->spk_id = k->spk_id;
	memcpy(out->spk_priv, k->spk_priv, WA_SIGNAL_KEY_LEN);
	memcpy(out->spk_pub, k->spk_pub, WA_SIGNAL_KEY_LEN);
	memcpy(out->spk_sig, k->spk_sig, WA_SIGNAL_SIG_LEN);
	return 1;
}

static int
op_prekey_load(void *arg, uint32_t id, uint8_t priv[WA_SIGNAL_KEY_LEN],
    uint8_t pub[WA_SIGNAL_KEY_LEN])
{
	char		 k[32];
	struct kv	*e;

	snprintf(k, sizeof(k), "p/%" PRIu32, id);
	if ((e = kv_find(arg, k)) == NULL || e->val.len != 2 * SIM_KEY_LEN)
		return 0;
	memcpy(priv, e->val.p, SIM_KEY_LEN);
	memcpy(pub, e->val.p + SIM_KEY_LEN, SIM_KEY_LEN);
	return 1;
}

static int
op_prekey_remove(void *arg, uint32_t id)
{
	char	 k[32];

	snprintf(k, sizeof(k), "p/%" PRIu32, id);
	kv_set(arg, k, NULL, 0);
	return 0;
}

static int
op_identity_save(void *arg, const struct wa_signal_addr *a,
    const uint8_t key[WA_SIGNAL_KEY_LEN], int64_t now)
{
	char		 k[WA_SIGNAL_NAME_MAX + 32];
	struct kv	*e;
	int		 changed;

	(void)now;
	key_addr(k, sizeof(k), 'i', a);
	e = kv_find(arg, k);
	changed = e != NULL && (e->val.len != WA_SIGNAL_KEY_LEN ||
	    memcmp(e->val.p, key, WA_SIGNAL_KEY_LEN) != 0);
	if (e == NULL || changed)
		kv_set(arg, k, key, WA_SIGNAL_KEY_LEN);
	return changed;
}

static int
op_identity_load(void *arg, const struct wa_signal_addr *a,
    uint8_t key[WA_SIGNAL_KEY_LEN])
{
	char		 k[WA_SIGNAL_NAME_MAX + 32];
	struct kv	*e;

	key_addr(k, sizeof(k), 'i', a);
	if ((e = kv_find(arg, k)) == NULL || e->val.len != WA_SIGNAL_KEY_LEN)
		return 0;
	memcpy(key, e->val.p, WA_SIGNAL_KEY_LEN);
	return 1;
}

static void
skey_key(char *out, size_t len, const char *group,
    const struct wa_signal_addr *a)
{
	snprintf(out, len, "k/%s/%s/%u", group, a->name, a->device);
}

static int
op_skey_load(void *arg, const char *group, const struct wa_signal_addr *a,
    struct buf *out)
{
	char		 k[2 * WA_SIGNAL_NAME_MAX + 48];
	struct kv	*e;

	skey_key(k, sizeof(k), group, a);
	if ((e = kv_find(arg, k)) == NULL)
		return 0;
	buf_append(out, e->val.p, e->val.len);
	return 1;
}

static int
op_skey_store(void *arg, const char *group, const struct wa_signal_addr *a,
    const uint8_t *rec, size_t len)
{
	char	 k[2 * WA_SIGNAL_NAME_MAX + 48];

	skey_key(k, sizeof(k), group, a);
	kv_set(arg, k, rec != NULL ? rec : (const uint8_t *)"", len);
	return 0;
}

static int
op_skey_delete(void *arg, const char *group, const struct wa_signal_addr *a)
{
	char	 k[2 * WA_SIGNAL_NAME_MAX + 48];

	skey_key(k, sizeof(k), group, a);
	if (kv_find(arg, k) == NULL)
		return 0;
	kv_set(arg, k, NULL, 0);
	return 1;
}

static int
op_tx_begin(void *arg)
{
	struct sim_phone	*p = arg;

	if (p->depth >= PHONE_TX_DEPTH)
		return -EINVAL;
	p->marks[p->depth++] = p->nundo;
	return 0;
}

static int
op_tx_commit(void *arg)
{
	struct sim_phone	*p = arg;

	if (p->depth == 0)
		return -EINVAL;
	if (--p->depth == 0) {
		while (p->nundo > 0)
			undo_drop(&p->undo[--p->nundo]);
	}
	return 0;
}

static int
op_tx_rollback(void *arg)
{
	struct sim_phone	*p = arg;
	size_t			 mark;

	if (p->depth == 0)
		return -EINVAL;
	mark = p->marks[--p->depth];
	while (p->nundo > mark) {
		struct undo	*u = &p->undo[--p->nundo];

		kv_set_raw(p, u->key, u->had ? (u->old.p != NULL ? u->old.p :
		    (const uint8_t *)"") : NULL, u->old.len);
		undo_drop(u);
	}
	return 0;
}

int
sim_phone_new(struct sim *s, struct sim_account *a, struct sim_phone **out)
{
	struct sim_phone	*p = xcalloc(1, sizeof(*p));
	size_t			 i;
	int			 rc;

	p->s = s;
	p->a = a;
	p->ops = (struct wa_signal_store_ops){
		.session_load = op_session_load,
		.session_store = op_session_store,
		.session_contains = op_session_contains,
		.session_delete = op_session_delete,
		.session_delete_all = op_session_delete_all,
		.session_devices = op_session_devices,
		.own_load = op_own_load,
		.prekey_load = op_prekey_load,
		.prekey_remove = op_prekey_remove,
		.identity_save = op_identity_save,
		.identity_load = op_identity_load,
		.sender_key_load = op_skey_load,
		.sender_key_store = op_skey_store,
		.sender_key_delete = op_skey_delete,
		.tx_begin = op_tx_begin,
		.tx_commit = op_tx_commit,
		.tx_rollback = op_tx_rollback,
		.arg = p,
	};
	/* The phone's own one-time prekeys, private halves kept. */
	for (i = 0; i < a->keys.nprekeys; i++) {
		uint8_t	 kp[2 * SIM_KEY_LEN];
		char	 k[32];

		memcpy(kp, a->keys.prekeys[i].priv, SIM_KEY_LEN);
		memcpy(kp + SIM_KEY_LEN, a->keys.prekeys[i].pub, SIM_KEY_LEN);
		snprintf(k, sizeof(k), "p/%" PRIu32, a->keys.prekeys[i].id);
		kv_set_raw(p, k, kp, sizeof(kp));
		explicit_bzero(kp, sizeof(kp));
	}
	if ((rc = wa_signal_new(&p->ops, now_ms, NULL, &p->sig)) != 0) {
		sim_phone_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

static void
entry_log_add(struct entry **v, size_t *n, size_t *cap,
    const struct entry *e)
{
	if (*n >= PHONE_LOG_MAX)
		return;
	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		*v = xrealloc(*v, *cap * sizeof(**v));
	}
	(*v)[(*n)++] = *e;
}

static void
inbox_release(struct inbox *m)
{
	free(m->text);
	free(m->quoted_id);
	free(m->emoji);
	free(m->target_id);
	free(m->dsm_destination);
}

void
sim_phone_free(struct sim_phone *p)
{
	size_t	 i;

	if (p == NULL)
		return;
	wa_signal_free(p->sig);
	for (i = 0; i < p->nkv; i++) {
		free(p->kv[i].key);
		wipe(&p->kv[i].val);
	}
	free(p->kv);
	while (p->nundo > 0)
		undo_drop(&p->undo[--p->nundo]);
	free(p->undo);
	for (i = 0; i < p->nin; i++)
		inbox_release(&p->in[i]);
	free(p->in);
	free(p->rcpt);
	free(p->sent);
	for (i = 0; i < p->ngin; i++)
		free(p->gin[i].text);
	free(p->gin);
	for (i = 0; i < PHONE_GROUP_SENT_MAX; i++)
		wipe(&p->gsent[i].msg);
	free(p);
}

/* --- JIDs --- */

/* Split "user[:device]@server" (user digits).  Returns false otherwise. */
static bool
split_jid(const char *jid, char *user, size_t ulen, char *server,
    size_t slen, uint32_t *dev)
{
	const char	*at = jid != NULL ? strchr(jid, '@') : NULL;
	const char	*colon;
	size_t		 n;
	char		*end;
	unsigned long	 d = 0;

	if (at == NULL)
		return false;
	colon = memchr(jid, ':', (size_t)(at - jid));
	n = (size_t)((colon != NULL ? colon : at) - jid);
	if (n == 0 || n >= ulen || strlen(at + 1) >= slen || at[1] == '\0')
		return false;
	for (size_t i = 0; i < n; i++)
		if (jid[i] < '0' || jid[i] > '9')
			return false;
	if (colon != NULL) {
		d = strtoul(colon + 1, &end, 10);
		if (end != at || end == colon + 1 || d > 255)
			return false;
	}
	memcpy(user, jid, n);
	user[n] = '\0';
	snprintf(server, slen, "%s", at + 1);
	*dev = (uint32_t)d;
	return true;
}

/* The account a JID names (PN or LID), or NULL. */
static struct sim_account *
jid_account(struct sim *s, const char *jid, bool *lid)
{
	char		 user[SIM_PN_MAX], server[32];
	uint32_t	 dev;

	if (!split_jid(jid, user, sizeof(user), server, sizeof(server), &dev))
		return NULL;
	if (lid != NULL)
		*lid = strcmp(server, "lid") == 0;
	if (strcmp(server, "lid") == 0)
		return sim_account_by_lid(s, user);
	if (strcmp(server, "s.whatsapp.net") == 0 || strcmp(server, "c.us") ==
	    0)
		return sim_account_by_pn(s, user);
	return NULL;
}

static void
device_jid(char *out, size_t len, const struct sim_account *a, bool lid,
    uint32_t dev)
{
	if (dev == 0)
		snprintf(out, len, "%s@%s", lid ? a->lid : a->pn, lid ? "lid" :
		    "s.whatsapp.net");
	else
		snprintf(out, len, "%s:%u@%s", lid ? a->lid : a->pn, dev,
		    lid ? "lid" : "s.whatsapp.net");
}

/* Attribute key = the JID text jid, as a JID value. */
static void
attr_jid(struct arena *ar, struct wa_node *n, const char *key,
    const char *jid)
{
	char		 user[SIM_PN_MAX], server[32];
	uint32_t	 dev;

	if (split_jid(jid, user, sizeof(user), server, sizeof(server), &dev))
		sn_attr_jid(ar, n, key, user, server, (uint16_t)dev);
	else
		sn_attr(ar, n, key, jid);
}

/* The text of JID (or string) value v into out ("" when absent). */
static void
val_jid(const struct wa_val *v, char *out, size_t len)
{
	out[0] = '\0';
	if (v == NULL)
		return;
	if (v->kind == WA_VAL_JID && v->u.jid.device != 0)
		snprintf(out, len, "%.*s:%u@%.*s", (int)v->u.jid.user.len,
		    v->u.jid.user.p, v->u.jid.device,
		    (int)v->u.jid.server.len, v->u.jid.server.p);
	else if (v->kind == WA_VAL_JID)
		snprintf(out, len, "%.*s@%.*s", (int)v->u.jid.user.len,
		    v->u.jid.user.p, (int)v->u.jid.server.len,
		    v->u.jid.server.p);
	else if (v->kind == WA_VAL_STR)
		snprintf(out, len, "%.*s", (int)v->u.str.len, v->u.str.p);
}

/* --- sending --- */

/*
 * The prekey bundle (8.1) of device dev of t into *b, one one-time
 * prekey handed out as for a bundle query (the encrypt notification may
 * follow for a companion).  Returns 0, or 1 when the device cannot
 * receive or never uploaded keys.
 */
static int
bundle_of(struct sim *s, struct sim_account *t, uint32_t dev,
    struct wa_signal_bundle *b)
{
	struct sim_device	*d;
	unsigned		 notified = 0;

	memset(b, 0, sizeof(*b));
	if (dev == 0) {
		const struct sim_signal_keys	*k = &t->keys;

		b->registration_id = k->reg_id;
		memcpy(b->identity, k->ident_pub, SIM_KEY_LEN);
		b->spk_id = k->spk_id;
		memcpy(b->spk_pub, k->spk_pub, SIM_KEY_LEN);
		memcpy(b->spk_sig, k->spk_sig, 64);
		if (t->phone_otks_used < k->nprekeys) {
			const struct sim_prekey	*pk =
			    &k->prekeys[t->phone_otks_used++];

			b->has_prekey = true;
			b->prekey_id = pk->id;
			memcpy(b->prekey_pub, pk->pub, SIM_KEY_LEN);
		}
		t->phone_bundles++;
		return 0;
	}
	if ((d = sim_device_find(t, dev)) == NULL || !d->signed_back ||
	    d->removed || d->uploads == 0)
		return 1;
	b->registration_id = d->reg_id;
	memcpy(b->identity, d->ident_pub, SIM_KEY_LEN);
	b->spk_id = d->spk_id;
	memcpy(b->spk_pub, d->spk_pub, SIM_KEY_LEN);
	memcpy(b->spk_sig, d->spk_sig, 64);
	if (d->notks > 0) {
		b->has_prekey = true;
		b->prekey_id = d->otks[0].id;
		memcpy(b->prekey_pub, d->otks[0].pub, SIM_KEY_LEN);
		(void)sim_prekeys_use(s, t, d, 1, &notified);
	}
	d->bundles_served++;
	return 0;
}

/*
 * Encrypt plain (a serialized Message, unpadded) for device dev of t in
 * namespace lid and add <to jid><enc/></to> to parts; a session comes
 * from the device's bundle when there is none (8.1, one-time prekey
 * handed out as for a bundle query).  Returns 0, 1 when the device has
 * nothing to build a session from (skipped), or an error.
 */
static int
encrypt_for(struct sim_phone *p, struct sim_account *t, uint32_t dev,
    bool lid, const struct buf *plain, struct arena *ar,
    struct wa_node *parts, bool hide, unsigned *npk)
{
	struct wa_signal_addr	 addr;
	struct wa_signal_bundle	 b;
	enum wa_signal_type	 type;
	struct buf		 padded = BUF_INIT, ct = BUF_INIT;
	struct wa_node		*to, *enc;
	char			 jid[PHONE_JID_MAX];
	uint8_t			 rnd;
	int			 rc;

	device_jid(jid, sizeof(jid), t, lid, dev);
	if ((rc = wa_signal_addr_from_jid(jid, strlen(jid), &addr)) != 0)
		return rc;
	if ((rc = wa_signal_has_session(p->sig, &addr)) < 0)
		return rc;
	if (rc == 0) {
		if (bundle_of(p->s, t, dev, &b) != 0)
			return 1;
		if ((rc = wa_signal_process_bundle(p->sig, &addr, &b,
		    NULL)) != 0)
			return rc;
	}
	sim_random(&rnd, 1);
	wa_msg_pad(plain->p, plain->len, rnd, &padded);
	rc = wa_signal_encrypt(p->sig, &addr, padded.p, padded.len, &type,
	    &ct);
	wipe(&padded);
	if (rc != 0) {
		buf_release(&ct);
		return rc;
	}
	to = sn_new(ar, "to");
	attr_jid(ar, to, "jid", jid);
	enc = sn_new(ar, "enc");
	sn_attr(ar, enc, "v", "2");
	sn_attr(ar, enc, "type", type == WA_SIGNAL_PKMSG ? "pkmsg" : "msg");
	if (hide)
		sn_attr(ar, enc, "decrypt-fail", "hide");
	sn_bytes(ar, enc, ct.p, ct.len);
	buf_release(&ct);
	sn_append(ar, to, enc);
	sn_append(ar, parts, to);
	if (type == WA_SIGNAL_PKMSG)
		(*npk)++;
	return 0;
}

/* A companion that can receive (paired, not removed). */
static bool
live(const struct sim_device *d)
{
	return d->signed_back && !d->removed;
}

/* Copies made by encrypt_all(). */
struct copies {
	unsigned	 n, pkmsgs, skipped;
};

/*
 * Add to parts a copy of inner for every device of peer (its phone, then
 * its companions) and of dsm for every companion of p's account (9.2),
 * in namespace lid.  Returns 0 or the first error.
 */
static int
encrypt_all(struct sim_phone *p, struct sim_account *peer, bool lid,
    const struct buf *inner, const struct buf *dsm, struct arena *ar,
    struct wa_node *parts, bool hide, struct copies *cnt)
{
	struct sim_account	*own[2] = { peer, p->a };
	struct sim_device	*d;
	int			 rc, k;

	if ((rc = encrypt_for(p, peer, 0, lid, inner, ar, parts, hide,
	    &cnt->pkmsgs)) != 0)
		return rc < 0 ? rc : 0;
	cnt->n++;
	for (k = 0; k < 2; k++) {
		for (d = own[k]->devices; d != NULL; d = d->next) {
			if (!live(d))
				continue;
			if (k == 1 && dsm->len == 0) {
				cnt->skipped++;
				continue;
			}
			rc = encrypt_for(p, own[k], d->id, lid, k == 0 ? inner :
			    dsm, ar, parts, hide, &cnt->pkmsgs);
			if (rc < 0)
				return rc;
			if (rc == 0)
				cnt->n++;
			else
				cnt->skipped++;
		}
	}
	return 0;
}

/* [{jid, enc}] of the <to> children of parts (a new reference). */
static struct json_object *
devices_json(const struct wa_node *parts)
{
	struct json_object	*devs = json_object_new_array();

	for (size_t i = 0; parts->content.kind == WA_VAL_LIST &&
	    i < parts->content.u.list.n; i++) {
		const struct wa_node	*to = &parts->content.u.list.v[i];
		const struct wa_node	*enc = sn_find(to, "enc");
		struct json_object	*o = json_object_new_object();
		struct wa_str		 et;
		char			 txt[PHONE_JID_MAX];

		val_jid(wa_node_attr(to, "jid"), txt, sizeof(txt));
		json_object_object_add(o, "jid", json_object_new_string(txt));
		et = enc != NULL ? sn_get(enc, "type") : (struct wa_str){ "", 0 };
		json_object_object_add(o, "enc",
		    json_object_new_string_len(et.p, (int)et.len));
		json_object_array_add(devs, o);
	}
	return devs;
}

/*
 * Phone p sends the Message inner[0..len) to chat (a user JID, PN or LID)
 * with stanza type (and edit, may be NULL): a copy for every device of
 * the addressee, a deviceSentMessage for every companion of p's account
 * (9.2), routed as p's device would send it.  Fills id (the message id).
 * Returns 0; -EINVAL (chat is not a user JID of a known other account),
 * or a Signal error.
 */
static int
phone_send_msg(struct sim_phone *p, const char *chat, const struct buf *inner,
    const char *type, const char *edit, char id[WA_MSG_ID_LEN + 1],
    struct json_object *res)
{
	struct sim		*s = p->s;
	struct sim_account	*me = p->a, *peer;
	struct buf		 dsm = BUF_INIT;
	struct arena		 ar;
	struct wa_node		*msg, *parts;
	struct json_object	*devs;
	struct entry		 e;
	char			 user[SIM_PN_MAX], server[32];
	uint8_t			 rnd[WA_MSG_ID_RAND_LEN];
	uint32_t		 dev;
	struct copies		 cnt = { 0, 0, 0 };
	bool			 lid = false, hide;
	int			 rc;

	if (!split_jid(chat, user, sizeof(user), server, sizeof(server),
	    &dev) || dev != 0 || (peer = jid_account(s, chat, &lid)) == NULL ||
	    peer == me)
		return -EINVAL;
	/* A message too deep to wrap (a hostile test message) goes to the
	 * addressee only: no copy for the own companions. */
	if (wa_msg_wrap_dsm(inner->p, inner->len, chat, &dsm) != 0)
		dsm.len = 0;
	hide = strcmp(type, "reaction") == 0 || edit != NULL;
	sim_random(rnd, sizeof(rnd));
	wa_msg_id(rnd, (uint64_t)time(NULL), me->pn, id);
	arena_init(&ar, 0);
	parts = sn_new(&ar, "participants");
	rc = encrypt_all(p, peer, lid, inner, &dsm, &ar, parts, hide, &cnt);
	buf_release(&dsm);
	if (rc < 0) {
		arena_release(&ar);
		return rc;
	}
	msg = sn_new(&ar, "message");
	sn_attr(&ar, msg, "id", id);
	attr_jid(&ar, msg, "to", chat);
	sn_attr(&ar, msg, "type", type);
	if (edit != NULL)
		sn_attr(&ar, msg, "edit", edit);
	if (lid)
		sn_attr_jid(&ar, msg, "peer_recipient_pn", peer->pn,
		    "s.whatsapp.net", 0);
	/* No <device-identity>: a primary phone has no ADV identity to
	 * send (it signs its companions'); receivers (wachat, Baileys) do
	 * not require one with a pkmsg. */
	sn_append(&ar, msg, parts);
	devs = devices_json(parts);
	rc = sim_route_inject(s, me, 0, msg);
	arena_release(&ar);
	if (rc != 0) {
		json_object_put(devs);
		return rc;
	}
	memset(&e, 0, sizeof(e));
	snprintf(e.id, sizeof(e.id), "%s", id);
	snprintf(e.peer, sizeof(e.peer), "%s", chat);
	snprintf(e.type, sizeof(e.type), "%s", type);
	e.t = (int64_t)time(NULL);
	e.devices = cnt.n;
	e.pkmsgs = cnt.pkmsgs;
	entry_log_add(&p->sent, &p->nsent, &p->sent_cap, &e);
	sim_log(s, "phone %s: message %s (%s) to %s@%s: %u copies (%u pkmsg), "
	    "%u devices without keys", me->pn, id, type, user, server,
	    cnt.n, cnt.pkmsgs, cnt.skipped);
	if (res != NULL) {
		json_object_object_add(res, "id", json_object_new_string(id));
		json_object_object_add(res, "to", json_object_new_string(chat));
		json_object_object_add(res, "devices", devs);
		json_object_object_add(res, "skipped",
		    json_object_new_int64(cnt.skipped));
	} else
		json_object_put(devs);
	return 0;
}

int
sim_phone_peer_send(struct sim *s, struct sim_account *a, uint32_t dev,
    const struct buf *msg, char id[40])
{
	struct sim_phone	*p = a->phone;
	struct arena		 ar;
	struct wa_node		*parts, *m;
	const struct wa_node	*enc;
	struct wa_str		 et;
	char			 from[PHONE_JID_MAX], t[24], etype[8];
	uint8_t			 rnd[WA_MSG_ID_RAND_LEN];
	unsigned		 npk = 0;
	int			 rc;

	if (p == NULL || dev == 0)
		return WC_ESTATE;
	arena_init(&ar, 0);
	parts = sn_new(&ar, "participants");
	if ((rc = encrypt_for(p, a, dev, false, msg, &ar, parts, false,
	    &npk)) != 0) {
		arena_release(&ar);
		return rc < 0 ? rc : WC_ESTATE;
	}
	enc = sn_find(&parts->content.u.list.v[0], "enc");
	et = sn_get(enc, "type");
	snprintf(etype, sizeof(etype), "%.*s", (int)et.len, et.p);
	sim_random(rnd, sizeof(rnd));
	wa_msg_id(rnd, (uint64_t)time(NULL), a->pn, id);
	m = sn_new(&ar, "message");
	sn_attr_jid(&ar, m, "from", a->pn, "s.whatsapp.net", 0);
	sn_attr(&ar, m, "id", id);
	sn_attr(&ar, m, "type", "text");
	sn_attr(&ar, m, "category", "peer");
	snprintf(t, sizeof(t), "%lld", (long long)time(NULL));
	sn_attr(&ar, m, "t", t);
	if (a->name[0] != '\0')
		sn_attr(&ar, m, "notify", a->name);
	sn_append(&ar, m, enc);
	device_jid(from, sizeof(from), a, false, 0);
	rc = sim_route_queue(s, SIM_ROUTE_MESSAGE, id, "text", from, a, dev,
	    false, etype, m);
	arena_release(&ar);
	return rc < 0 ? WC_EPROTO : 0;
}

/* Append a protobuf length-delimited field (tag: field << 3 | 2). */
static void
pb_field(struct buf *out, uint32_t field, const uint8_t *p, size_t len)
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

/*
 * A Message nest levels deep: each an extendedTextMessage(6) whose
 * contextInfo(17) quotes (quotedMessage, 3) the next; the innermost a
 * conversation(1).  Built inside out, into out.
 */
static void
nested_message(unsigned nest, struct buf *out)
{
	struct buf	 cur = BUF_INIT, ci = BUF_INIT, ext = BUF_INIT;
	unsigned	 i;

	pb_field(&cur, 1, (const uint8_t *)"the bottom", 10);
	for (i = 0; i < nest; i++) {
		ci.len = ext.len = 0;
		pb_field(&ci, 3, cur.p, cur.len);	/* quotedMessage */
		pb_field(&ext, 1, (const uint8_t *)"deeper", 6);
		pb_field(&ext, 17, ci.p, ci.len);	/* contextInfo */
		cur.len = 0;
		pb_field(&cur, 6, ext.p, ext.len);	/* extendedText */
	}
	buf_append(out, cur.p, cur.len);
	buf_release(&cur);
	buf_release(&ci);
	buf_release(&ext);
}

int
sim_phone_send(struct sim *s, const struct sim_phone_req *req,
    struct json_object *res, const char **why)
{
	struct sim_account	*a;
	struct buf		 inner = BUF_INIT;
	char			 id[WA_MSG_ID_LEN + 1];
	const char		*type = "text";
	int			 rc;

	*why = NULL;
	if (req->from_pn == NULL || req->to == NULL) {
		*why = "give from_pn and to";
		return 400;
	}
	if ((a = sim_account_by_pn(s, req->from_pn)) == NULL ||
	    a->phone == NULL) {
		*why = "no such account";
		return 404;
	}
	if (req->nest > 0) {
		nested_message(req->nest, &inner);
		rc = 0;
	} else if (req->react_to != NULL) {
		struct wa_msg_key	 k = {
			.remote_jid = req->to,
			.from_me = req->react_from_me,
			.id = req->react_to,
		};

		type = "reaction";
		rc = wa_msg_build_reaction(&k, req->emoji != NULL ? req->emoji :
		    "", now_ms(NULL), &inner);
	} else if (req->text == NULL || strlen(req->text) > PHONE_TEXT_MAX) {
		*why = "give text (at most 64 KiB) or react_to";
		return 400;
	} else {
		struct wa_msg_text	 t = {
			.text = req->text,
			.quoted_id = req->quoted_id,
			.quoted_participant = req->quoted_id != NULL ?
			    (req->quoted_participant != NULL ?
			    req->quoted_participant : req->to) : NULL,
		};

		rc = wa_msg_build_text(&t, &inner);
	}
	if (rc == 0)
		rc = phone_send_msg(a->phone, req->to, &inner, type, NULL, id,
		    res);
	buf_release(&inner);
	if (rc == -EINVAL) {
		*why = "to must be the user JID (PN or LID, no device) of "
		    "another account or contact";
		return 400;
	}
	if (rc != 0) {
		*why = wc_strerror(rc);
		return 500;
	}
	return 200;
}

/* --- receiving --- */

static void
inject(struct sim_phone *p, struct wa_node *n, const char *what)
{
	int	 rc;

	if ((rc = sim_route_inject(p->s, p->a, 0, n)) != 0)
		sim_log(p->s, "phone %s: cannot send a %s: %s", p->a->pn,
		    what, wc_strerror(rc));
}

/* The retry count for (from, id), incremented; slots are reused. */
static unsigned
retry_count(struct sim_phone *p, const char *from, const char *id)
{
	struct retry_slot	*r;
	size_t			 i;

	for (i = 0; i < PHONE_RETRY_SLOTS; i++) {
		r = &p->retries[i];
		if (r->count > 0 && strcmp(r->id, id) == 0 &&
		    strcmp(r->from, from) == 0)
			return ++r->count;
	}
	r = &p->retries[p->next_retry++ % PHONE_RETRY_SLOTS];
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->from, sizeof(r->from), "%s", from);
	return r->count = 1;
}

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static const char *
kind_name(enum wa_msg_kind k)
{
	switch (k) {
	case WA_MSG_EMPTY:	return "empty";
	case WA_MSG_TEXT:	return "text";
	case WA_MSG_REPLY:	return "reply";
	case WA_MSG_REACTION:	return "reaction";
	case WA_MSG_EDIT:	return "edit";
	case WA_MSG_REVOKE:	return "revoke";
	case WA_MSG_PROTOCOL:	return "protocol";
	case WA_MSG_SKDM:	return "skdm";
	case WA_MSG_UNSUPPORTED: return "unsupported";
	}
	return "?";
}

static struct inbox *
inbox_add(struct sim_phone *p, const struct wa_msg_in *in, const char *enc)
{
	struct inbox	*m;

	if (p->nin >= PHONE_INBOX_MAX)
		return NULL;
	if (p->nin == p->in_cap) {
		p->in_cap = p->in_cap ? 2 * p->in_cap : 16;
		p->in = xrealloc(p->in, p->in_cap * sizeof(*p->in));
	}
	m = &p->in[p->nin++];
	memset(m, 0, sizeof(*m));
	m->seq = ++p->in_seq;
	snprintf(m->id, sizeof(m->id), "%s", in->id);
	snprintf(m->from, sizeof(m->from), "%s", in->from);
	if (in->recipient != NULL)
		snprintf(m->recipient, sizeof(m->recipient), "%s",
		    in->recipient);
	snprintf(m->enc, sizeof(m->enc), "%s", enc);
	m->kind = "";
	m->t = in->t;
	m->offline = in->offline;
	return m;
}

/* m (the newest inbox row) repeats a message already read: the same id
 * from the same device. */
static bool
already_read(const struct sim_phone *p, const struct inbox *m)
{
	size_t	 i, n = (size_t)(m - p->in);

	for (i = 0; i < n; i++)
		if (p->in[i].err == 0 && strcmp(p->in[i].id, m->id) == 0 &&
		    strcmp(p->in[i].from, m->from) == 0)
			return true;
	return false;
}

static void	echo_schedule(struct sim_phone *p, const char *sender,
		    const char *chat, const char *id, const char *text);

/* Decrypt one <enc>; returns 1 when read, 0 for a duplicate, or an
 * error (a retry receipt is due). */
static int
receive_enc(struct sim_phone *p, const struct wa_msg_in *in,
    const struct wa_msg_enc_in *e, struct wa_msg_content *c, struct inbox **m,
    struct buf *keep)
{
	struct wa_signal_addr	 addr;
	struct buf		 plain = BUF_INIT;
	size_t			 len;
	int			 rc;

	*m = NULL;
	if ((rc = wa_signal_addr_from_jid(in->from, strlen(in->from),
	    &addr)) != 0)
		return rc;
	rc = wa_signal_decrypt(p->sig, &addr, e->type == WA_MSG_ENC_PKMSG ?
	    WA_SIGNAL_PKMSG : WA_SIGNAL_MSG, e->ct, e->ct_len, &plain, NULL);
	if (rc == WC_EDUPMSG) {
		p->duplicates++;
		return 0;
	}
	*m = inbox_add(p, in, e->type == WA_MSG_ENC_PKMSG ? "pkmsg" : "msg");
	if (rc != 0) {
		if (*m != NULL)
			(*m)->err = rc;
		buf_release(&plain);
		return rc;
	}
	if (e->v == 3)
		len = plain.len;
	else if ((rc = wa_msg_unpad(plain.p, plain.len, &len)) != 0)
		goto out;
	rc = wa_msg_parse(plain.p, len, c);
	/* A peerDataOperationRequestMessage (history on demand, 12.4):
	 * the Message itself goes to history.c. */
	if (rc == 0 && c->kind == WA_MSG_PROTOCOL && c->protocol_type ==
	    WA_HIST_PROTO_PDO_REQ) {
		keep->len = 0;
		buf_append(keep, plain.p, len);
	}
out:
	wipe(&plain);
	if (rc != 0) {
		if (*m != NULL)
			(*m)->err = rc;
		return rc;
	}
	return 1;
}

/* A retry receipt for m (9.6), at most PHONE_RETRY_MAX per message and
 * sender; marks inbox row fail_idx retried. */
static void
send_retry(struct sim_phone *p, const struct wa_msg_in *m, size_t fail_idx,
    struct arena *ar)
{
	unsigned		 count = retry_count(p, m->from, m->id);
	struct wa_msg_retry_out	 ro = {
		.to = m->from,
		.id = m->id,
		.participant = m->participant,
		.recipient = m->recipient,
		.count = count,
		.t = m->t,
		.registration_id = p->a->keys.reg_id,
	};
	struct wa_node		*r;

	if (count > PHONE_RETRY_MAX) {
		sim_log(p->s, "phone %s: message %s: no retry receipt after %u",
		    p->a->pn, m->id, PHONE_RETRY_MAX);
		return;
	}
	if (wa_msg_retry_receipt(&ro, ar, &r) != 0)
		return;
	inject(p, r, "retry receipt");
	p->retry_receipts++;
	if (fail_idx < p->nin)
		p->in[fail_idx].retried = true;
	sim_log(p->s, "phone %s: message %s: retry receipt %u sent", p->a->pn,
	    m->id, count);
}

/*
 * The delivery receipt for m (11.8; also for a duplicate, whose sender
 * may have missed the first): type "sender" for a copy from our own
 * account's device (own), "peer_msg" for a peer message, else none.
 */
static void
send_delivered(struct sim_phone *p, const struct wa_msg_in *m, bool own,
    struct arena *ar)
{
	const char		*ids[1] = { m->id };
	struct wa_msg_receipt_out ro = {
		.to = m->from,
		.ids = ids,
		.n_ids = 1,
	};
	struct wa_node		*r;

	if (m->category != NULL && strcmp(m->category, "peer") == 0)
		ro.type = "peer_msg";
	else if (own) {
		ro.type = "sender";
		ro.recipient = m->recipient;
	}
	if (wa_msg_receipt(&ro, ar, &r) == 0)
		inject(p, r, "receipt");
}

static void	take_group_message(struct sim_phone *p,
		    const struct wa_msg_in *in, struct arena *ar);

static void
take_message(struct sim_phone *p, const struct wa_node *n)
{
	struct sim		*s = p->s;
	struct sim_account	*sender;
	struct arena		 ar;
	struct wa_msg_in	 in;
	const char		*why = NULL;
	bool			 read = false, failed = false, dup = false;
	bool			 sender_lid;
	size_t			 i, fail_idx = SIZE_MAX;
	struct buf		 pdo = BUF_INIT;
	int			 rc;

	arena_init(&ar, 0);
	if ((rc = wa_msg_stanza_parse(n, &ar, &in, &why)) != 0) {
		sim_log(s, "phone %s: unreadable message stanza: %s",
		    p->a->pn, why != NULL ? why : wc_strerror(rc));
		arena_release(&ar);
		return;
	}
	if (strstr(in.from, "@g.us") != NULL) {
		take_group_message(p, &in, &ar);
		arena_release(&ar);
		return;
	}
	sender = jid_account(s, in.from, &sender_lid);
	for (i = 0; i < in.n_encs; i++) {
		const struct wa_msg_enc_in	*e = &in.encs[i];
		struct wa_msg_content		 c;
		struct inbox			*m;

		if (e->type != WA_MSG_ENC_MSG && e->type != WA_MSG_ENC_PKMSG)
			continue;
		memset(&c, 0, sizeof(c));
		rc = receive_enc(p, &in, e, &c, &m, &pdo);
		if (rc == 0) {
			dup = true;
			continue;
		}
		if (rc < 0) {
			p->failed++;
			failed = true;
			sim_log(s, "phone %s: message %s from %s: cannot "
			    "read it: %s", p->a->pn, in.id, in.from,
			    wc_strerror(rc));
			if (m != NULL)
				fail_idx = (size_t)(m - p->in);
			continue;
		}
		p->decrypted++;
		read = true;
		if (m != NULL && already_read(p, m)) {
			/* Sent again (its sender missed our receipt, or the
			 * server's ack): a phone shows a message id once. */
			p->nin--;
			p->resent++;
			sim_log(s, "phone %s: message %s from %s again: "
			    "already read", p->a->pn, in.id, in.from);
			wa_msg_content_release(&c);
			continue;
		}
		if (m != NULL) {
			m->kind = kind_name(c.kind);
			m->text = dup_or_null(c.text);
			m->quoted_id = dup_or_null(c.quoted_id);
			m->emoji = dup_or_null(c.emoji);
			m->target_id = dup_or_null(c.target.id);
			m->dsm_destination = dup_or_null(c.dsm_destination);
		}
		sim_log(s, "phone %s: message %s from %s (%s, %s%s)",
		    p->a->pn, in.id, in.from, e->type_name, kind_name(c.kind),
		    c.dsm_destination != NULL ? ", sent by an own device" : "");
		if (p->a->echo && sender != NULL && sender != p->a &&
		    !sender->echo && c.dsm_destination == NULL &&
		    (c.kind == WA_MSG_TEXT || c.kind == WA_MSG_REPLY) &&
		    c.text != NULL) {
			char	 chat[PHONE_JID_MAX];

			device_jid(chat, sizeof(chat), sender, sender_lid, 0);
			echo_schedule(p, in.from, chat, in.id, c.text);
		}
		wa_msg_content_release(&c);
	}
	if (failed && !read && !dup)
		send_retry(p, &in, fail_idx, &ar);
	else if (read || dup)
		send_delivered(p, &in, sender == p->a, &ar);
	if (pdo.len > 0 && sender == p->a)
		/* From our own companion: history on demand (history.c). */
		sim_hist_on_demand(s, p->a, in.from, in.id, pdo.p, pdo.len);
	wipe(&pdo);
	arena_release(&ar);
}

static void
take_receipt(struct sim_phone *p, const char *id, const char *type,
    const struct wa_node *n)
{
	struct entry	 e;

	memset(&e, 0, sizeof(e));
	snprintf(e.id, sizeof(e.id), "%s", id);
	snprintf(e.type, sizeof(e.type), "%s", type[0] != '\0' ? type :
	    "delivery");
	val_jid(wa_node_attr(n, "from"), e.peer, sizeof(e.peer));
	e.t = (int64_t)time(NULL);
	entry_log_add(&p->rcpt, &p->nrcpt, &p->rcpt_cap, &e);
}

/* --- groups (protocol.md 10, 11.2, 11.3) --- */

static void	add_opt(struct json_object *o, const char *key, const char *v);


static struct ginbox *
ginbox_add(struct sim_phone *p, const struct wa_msg_in *in, const char *enc)
{
	struct ginbox	*m;

	if (p->ngin >= PHONE_INBOX_MAX)
		return NULL;
	if (p->ngin == p->gin_cap) {
		p->gin_cap = p->gin_cap ? 2 * p->gin_cap : 16;
		p->gin = xrealloc(p->gin, p->gin_cap * sizeof(*p->gin));
	}
	m = &p->gin[p->ngin++];
	memset(m, 0, sizeof(*m));
	m->seq = ++p->gin_seq;
	snprintf(m->group, sizeof(m->group), "%s", in->from);
	snprintf(m->id, sizeof(m->id), "%s", in->id);
	snprintf(m->from, sizeof(m->from), "%s", in->participant);
	snprintf(m->enc, sizeof(m->enc), "%s", enc);
	m->kind = "";
	m->t = in->t;
	return m;
}

/* Keep c (read from in through enc) in the group inbox, unless the same
 * id from the same sender was read before. */
static void
ginbox_keep(struct sim_phone *p, const struct wa_msg_in *in, const char *enc,
    const struct wa_msg_content *c)
{
	struct ginbox	*m;
	size_t		 i;

	for (i = 0; i < p->ngin; i++)
		if (p->gin[i].err == 0 && strcmp(p->gin[i].id, in->id) == 0 &&
		    strcmp(p->gin[i].from, in->participant) == 0) {
			p->resent++;
			return;
		}
	if ((m = ginbox_add(p, in, enc)) == NULL)
		return;
	m->kind = kind_name(c->kind);
	m->text = dup_or_null(c->text);
	p->group_decrypted++;
}

/* Unpad (v 2) and parse plain into c. */
static int
plain_parse(const struct wa_msg_enc_in *e, struct buf *plain,
    struct wa_msg_content *c)
{
	size_t	 len = plain->len;
	int	 rc = 0;

	if (e->v != 3)
		rc = wa_msg_unpad(plain->p, plain->len, &len);
	if (rc == 0)
		rc = wa_msg_parse(plain->p, len, c);
	wipe(plain);
	return rc;
}

/*
 * A group <message from=group participant=SENDER> (11.1): each pkmsg/msg
 * <enc> decrypted pairwise from the sender's device (its SKDM processed,
 * 11.3 step 2; a retry resend's content kept), each skmsg decrypted with
 * the sender's key; then a delivery receipt to=group participant=SENDER,
 * or a retry receipt when the content could not be read (10.5).
 */
static void
take_group_message(struct sim_phone *p, const struct wa_msg_in *in,
    struct arena *ar)
{
	struct sim		*s = p->s;
	struct wa_signal_addr	 addr;
	bool			 read = false, failed = false, dup = false;
	size_t			 i;
	int			 rc;

	if (in->participant == NULL || wa_signal_addr_from_jid(
	    in->participant, strlen(in->participant), &addr) != 0) {
		sim_log(s, "phone %s: group message %s without a usable "
		    "participant", p->a->pn, in->id);
		return;
	}
	for (i = 0; i < in->n_encs; i++) {
		const struct wa_msg_enc_in	*e = &in->encs[i];
		struct wa_msg_content		 c;
		struct buf			 plain = BUF_INIT;

		memset(&c, 0, sizeof(c));
		if (e->type == WA_MSG_ENC_MSG || e->type == WA_MSG_ENC_PKMSG)
			rc = wa_signal_decrypt(p->sig, &addr, e->type ==
			    WA_MSG_ENC_PKMSG ? WA_SIGNAL_PKMSG : WA_SIGNAL_MSG,
			    e->ct, e->ct_len, &plain, NULL);
		else if (e->type == WA_MSG_ENC_SKMSG)
			rc = wa_signal_group_decrypt(p->sig, in->from, &addr,
			    e->ct, e->ct_len, &plain);
		else
			continue;
		if (rc == WC_EDUPMSG) {
			p->duplicates++;
			dup = true;
			buf_release(&plain);
			continue;
		}
		if (rc == 0)
			rc = plain_parse(e, &plain, &c);
		else
			buf_release(&plain);
		if (rc == 0 && c.skdm_len > 0) {
			rc = wa_signal_group_process_skdm(p->sig, in->from,
			    &addr, c.skdm, c.skdm_len);
			if (rc == 0)
				p->skdms++;
		}
		if (rc != 0) {
			p->group_failed++;
			failed = true;
			sim_log(s, "phone %s: group message %s from %s (%s): "
			    "cannot read it: %s", p->a->pn, in->id,
			    in->participant, e->type_name, wc_strerror(rc));
			wa_msg_content_release(&c);
			continue;
		}
		if (c.kind != WA_MSG_SKDM && c.kind != WA_MSG_EMPTY) {
			ginbox_keep(p, in, e->type_name, &c);
			read = true;
		}
		wa_msg_content_release(&c);
	}
	if (failed && !read && !dup)
		send_retry(p, in, SIZE_MAX, ar);
	else {
		const char			*ids[1] = { in->id };
		struct wa_msg_receipt_out	 ro = {
			.to = in->from,
			.participant = in->participant,
			.ids = ids,
			.n_ids = 1,
		};
		struct wa_node			*r;

		if (wa_msg_receipt(&ro, ar, &r) == 0)
			inject(p, r, "group receipt");
	}
}

/* The memory row "device jid has our sender key for group". */
static void
gmem_key(char *out, size_t len, const char *group, const char *jid)
{
	snprintf(out, len, "m/%s/%s", group, jid);
}

/* The phash (10.3) of every device of every member of g, in its
 * namespace. */
static int
phone_phash(const struct sim_group *g, char out[WA_GROUP_PHASH_LEN + 1])
{
	char		**v = xcalloc(g->n * PHONE_GROUP_DEVICES + 1,
	    sizeof(*v));
	uint32_t	 devs[PHONE_GROUP_DEVICES];
	size_t		 i, k, nd, n = 0;
	int		 rc;

	for (i = 0; i < g->n; i++) {
		nd = sim_route_devices(g->m[i].acct, devs, PHONE_GROUP_DEVICES);
		for (k = 0; k < nd; k++) {
			v[n] = xmalloc(PHONE_JID_MAX);
			device_jid(v[n], PHONE_JID_MAX, g->m[i].acct, g->lid,
			    devs[k]);
			n++;
		}
	}
	rc = wa_group_phash((const char *const *)v, n, out);
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
	return rc;
}

int
sim_phone_group_send(struct sim *s, struct sim_account *a,
    struct sim_group *g, const char *text, struct json_object *res,
    const char **why)
{
	struct sim_phone	*p = a->phone;
	struct wa_signal_addr	 own;
	struct buf		 skdm = BUF_INIT, skmsg_plain = BUF_INIT;
	struct buf		 inner = BUF_INIT, padded = BUF_INIT;
	struct buf		 ct = BUF_INIT;
	struct arena		 ar;
	struct wa_node		*msg, *parts, *enc;
	struct gsent		*gs;
	char			 gjid[48], ownj[PHONE_JID_MAX];
	char			 id[WA_MSG_ID_LEN + 1];
	char			 phash[WA_GROUP_PHASH_LEN + 1];
	uint8_t			 rnd[WA_MSG_ID_RAND_LEN], r1;
	uint32_t		 devs[PHONE_GROUP_DEVICES];
	unsigned		 npk = 0, ncopies = 0, skipped = 0;
	size_t			 i, k, nd;
	int			 rc;
	struct wa_msg_text	 t = { .text = text };

	*why = NULL;
	if (p == NULL) {
		*why = "no phone";
		return 404;
	}
	if (sim_group_member(g, a) == NULL) {
		*why = "not a member of the group";
		return 403;
	}
	if (strlen(text) > PHONE_TEXT_MAX) {
		*why = "text: at most 64 KiB";
		return 400;
	}
	sim_group_jid(g, gjid, sizeof(gjid));
	device_jid(ownj, sizeof(ownj), a, g->lid, 0);
	if ((rc = wa_signal_addr_from_jid(ownj, strlen(ownj), &own)) != 0 ||
	    (rc = wa_signal_group_skdm(p->sig, gjid, &own, &skdm)) != 0 ||
	    (rc = wa_group_message_skdm(gjid, skdm.p, skdm.len,
	    &skmsg_plain)) != 0 || (rc = wa_msg_build_text(&t, &inner)) != 0)
		goto fail;
	arena_init(&ar, 0);
	parts = sn_new(&ar, "participants");
	/* The SKDM pairwise to every device that has not had it (10.4). */
	for (i = 0; i < g->n; i++) {
		struct sim_account	*m = g->m[i].acct;

		nd = sim_route_devices(m, devs, PHONE_GROUP_DEVICES);
		for (k = 0; k < nd; k++) {
			char	 dj[PHONE_JID_MAX], key[2 * PHONE_JID_MAX];

			if (m == a && devs[k] == 0)
				continue;
			device_jid(dj, sizeof(dj), m, g->lid, devs[k]);
			gmem_key(key, sizeof(key), gjid, dj);
			if (kv_find(p, key) != NULL)
				continue;
			rc = encrypt_for(p, m, devs[k], g->lid, &skmsg_plain,
			    &ar, parts, false, &npk);
			if (rc < 0) {
				arena_release(&ar);
				goto fail;
			}
			if (rc > 0) {
				skipped++;
				continue;
			}
			kv_set_raw(p, key, (const uint8_t *)"", 0);
			ncopies++;
		}
	}
	sim_random(&r1, 1);
	wa_msg_pad(inner.p, inner.len, r1, &padded);
	rc = wa_signal_group_encrypt(p->sig, gjid, &own, padded.p, padded.len,
	    &ct);
	wipe(&padded);
	if (rc != 0 || (rc = phone_phash(g, phash)) != 0) {
		arena_release(&ar);
		goto fail;
	}
	sim_random(rnd, sizeof(rnd));
	wa_msg_id(rnd, (uint64_t)time(NULL), a->pn, id);
	msg = sn_new(&ar, "message");
	sn_attr(&ar, msg, "id", id);
	sn_attr_jid(&ar, msg, "to", g->id, "g.us", 0);
	sn_attr(&ar, msg, "type", "text");
	sn_attr(&ar, msg, "phash", phash);
	sn_attr(&ar, msg, "addressing_mode", g->lid ? "lid" : "pn");
	if (ncopies > 0)
		sn_append(&ar, msg, parts);
	enc = sn_new(&ar, "enc");
	sn_attr(&ar, enc, "v", "2");
	sn_attr(&ar, enc, "type", "skmsg");
	sn_bytes(&ar, enc, ct.p, ct.len);
	sn_append(&ar, msg, enc);
	if (res != NULL) {
		json_object_object_add(res, "id", json_object_new_string(id));
		json_object_object_add(res, "group",
		    json_object_new_string(gjid));
		json_object_object_add(res, "skdm", devices_json(parts));
		json_object_object_add(res, "skipped",
		    json_object_new_int64(skipped));
	}
	rc = sim_route_inject(s, a, 0, msg);
	arena_release(&ar);
	if (rc != 0)
		goto fail;
	gs = &p->gsent[p->next_gsent++ % PHONE_GROUP_SENT_MAX];
	wipe(&gs->msg);
	snprintf(gs->group, sizeof(gs->group), "%s", gjid);
	snprintf(gs->id, sizeof(gs->id), "%s", id);
	buf_append(&gs->msg, inner.p, inner.len);
	sim_log(s, "phone %s: group message %s to %s: SKDM to %u devices (%u "
	    "pkmsg), %u without keys", a->pn, id, g->id, ncopies, npk,
	    skipped);
	rc = 0;
fail:
	wipe(&inner);
	buf_release(&skdm);
	buf_release(&skmsg_plain);
	buf_release(&ct);
	if (rc != 0) {
		*why = wc_strerror(rc);
		return 500;
	}
	return 200;
}

/*
 * A retry receipt for a group message p sent (10.5): the Message with the
 * SKDM of p's current key, pairwise to that device only, from a session
 * made anew from its bundle: <message to=group participant=DEVICE
 * type><enc count/></message>.
 */
static void
group_retry(struct sim_phone *p, const struct wa_node *n, const char *id)
{
	struct sim		*s = p->s;
	struct sim_account	*t;
	struct sim_group	*g;
	struct wa_signal_addr	 own, addr;
	struct buf		 skdm = BUF_INIT, both = BUF_INIT;
	struct arena		 ar;
	struct wa_node		*msg, *parts, *to, *enc;
	const struct wa_node	*retry = sn_find(n, "retry");
	char			 gjid[48], pj[PHONE_JID_MAX], ownj[PHONE_JID_MAX];
	char			 user[SIM_PN_MAX], server[32], cnt[16];
	struct wa_str		 cv;
	struct gsent		*gs = NULL;
	uint32_t		 dev;
	unsigned		 npk = 0;
	bool			 lid;
	size_t			 i;
	int			 rc;

	val_jid(wa_node_attr(n, "from"), gjid, sizeof(gjid));
	val_jid(wa_node_attr(n, "participant"), pj, sizeof(pj));
	for (i = 0; i < PHONE_GROUP_SENT_MAX; i++)
		if (strcmp(p->gsent[i].id, id) == 0 &&
		    strcmp(p->gsent[i].group, gjid) == 0)
			gs = &p->gsent[i];
	if (gs == NULL || (g = sim_group_find(s, gjid)) == NULL ||
	    !split_jid(pj, user, sizeof(user), server, sizeof(server), &dev) ||
	    (t = jid_account(s, pj, &lid)) == NULL ||
	    sim_group_member(g, t) == NULL) {
		sim_log(s, "phone %s: retry receipt for %s from %s: nothing to "
		    "resend", p->a->pn, id, pj);
		return;
	}
	device_jid(ownj, sizeof(ownj), p->a, g->lid, 0);
	if ((rc = wa_signal_addr_from_jid(ownj, strlen(ownj), &own)) != 0 ||
	    (rc = wa_signal_addr_from_jid(pj, strlen(pj), &addr)) != 0 ||
	    (rc = wa_signal_group_skdm(p->sig, gjid, &own, &skdm)) != 0 ||
	    (rc = wa_group_message_add_skdm(gs->msg.p, gs->msg.len, gjid,
	    skdm.p, skdm.len, &both)) != 0)
		goto out;
	(void)op_session_delete(p, &addr);
	arena_init(&ar, 0);
	parts = sn_new(&ar, "participants");
	rc = encrypt_for(p, t, dev, lid, &both, &ar, parts, false, &npk);
	if (rc != 0 || parts->content.kind != WA_VAL_LIST ||
	    parts->content.u.list.n != 1 || (to = &parts->content.u.list.v[0],
	    (enc = (struct wa_node *)sn_find(to, "enc")) == NULL)) {
		arena_release(&ar);
		rc = rc != 0 ? rc : WC_ESTATE;
		goto out;
	}
	cv = retry != NULL ? sn_get(retry, "count") : (struct wa_str){ "1", 1 };
	snprintf(cnt, sizeof(cnt), "%.*s", (int)cv.len, cv.p);
	sn_attr(&ar, enc, "count", cnt[0] != '\0' ? cnt : "1");
	msg = sn_new(&ar, "message");
	sn_attr(&ar, msg, "id", id);
	sn_attr_jid(&ar, msg, "to", g->id, "g.us", 0);
	attr_jid(&ar, msg, "participant", pj);
	sn_attr(&ar, msg, "type", "text");
	sn_attr(&ar, msg, "addressing_mode", g->lid ? "lid" : "pn");
	sn_append(&ar, msg, enc);
	rc = sim_route_inject(s, p->a, 0, msg);
	arena_release(&ar);
	if (rc == 0) {
		p->group_resends++;
		sim_log(s, "phone %s: group message %s resent to %s (retry)",
		    p->a->pn, id, pj);
	}
out:
	if (rc != 0)
		sim_log(s, "phone %s: cannot answer the retry receipt for %s: "
		    "%s", p->a->pn, id, wc_strerror(rc));
	buf_release(&skdm);
	wipe(&both);
}

void
sim_phone_group_forget(struct sim_account *a, const struct sim_group *g)
{
	struct sim_phone	*p = a->phone;
	struct wa_signal_addr	 own;
	char			 gjid[48], ownj[PHONE_JID_MAX], pre[64];
	size_t			 i, pl;
	int			 rc;

	if (p == NULL)
		return;
	sim_group_jid(g, gjid, sizeof(gjid));
	device_jid(ownj, sizeof(ownj), a, g->lid, 0);
	if (wa_signal_addr_from_jid(ownj, strlen(ownj), &own) == 0 &&
	    (rc = wa_signal_group_forget(p->sig, gjid, &own)) < 0)
		sim_log(p->s, "phone %s: cannot drop its sender key for %s: %s",
		    a->pn, g->id, wc_strerror(rc));
	pl = (size_t)snprintf(pre, sizeof(pre), "m/%s/", gjid);
	for (i = 0; i < p->nkv;) {
		if (strncmp(p->kv[i].key, pre, pl) == 0) {
			char	*k = xstrdup(p->kv[i].key);

			kv_set_raw(p, k, NULL, 0);	/* the last row moves here */
			free(k);
		} else
			i++;
	}
}

struct json_object *
sim_phone_group_json(const struct sim_account *a, const char *gid)
{
	struct json_object	*arr = json_object_new_array();
	const struct sim_phone	*p = a->phone;
	size_t			 i, n = gid != NULL ? strcspn(gid, "@") : 0;

	for (i = 0; p != NULL && i < p->ngin; i++) {
		const struct ginbox	*m = &p->gin[i];
		struct json_object	*e;

		if (gid != NULL && (strncmp(m->group, gid, n) != 0 ||
		    m->group[n] != '@'))
			continue;
		e = json_object_new_object();
		json_object_object_add(e, "seq",
		    json_object_new_int64((int64_t)m->seq));
		add_opt(e, "group", m->group);
		add_opt(e, "id", m->id);
		add_opt(e, "from", m->from);
		add_opt(e, "enc", m->enc);
		json_object_object_add(e, "t", json_object_new_int64(m->t));
		add_opt(e, "kind", m->kind);
		add_opt(e, "text", m->text);
		json_object_array_add(arr, e);
	}
	return arr;
}

const char *
sim_phone_group_text(const struct sim_account *a, const char *gid,
    const char *id)
{
	const struct sim_phone	*p = a->phone;
	size_t			 i, n = strcspn(gid, "@");

	for (i = 0; p != NULL && i < p->ngin; i++)
		if (strcmp(p->gin[i].id, id) == 0 &&
		    strncmp(p->gin[i].group, gid, n) == 0 &&
		    p->gin[i].group[n] == '@')
			return p->gin[i].text != NULL ? p->gin[i].text : "";
	return NULL;
}

/* A stanza a phone took, handled on the next loop turn: the router sends
 * the sender its server ack first, as the real server does (9.6). */
struct take_job {
	uv_timer_t		 t;
	struct sim		*s;
	struct sim_account	*a;
	enum sim_route_kind	 kind;
	char			 id[80];
	char			 type[24];
	struct buf		 stanza;
};

static void
take_closed(uv_handle_t *h)
{
	struct take_job	*j = h->data;

	buf_release(&j->stanza);
	free(j);
}

static void
take_fire(uv_timer_t *t)
{
	struct take_job	*j = t->data;
	struct arena	 ar;
	struct wa_node	*n;

	arena_init(&ar, 0);
	if (j->a->phone != NULL && wa_bin_decode(j->stanza.p, j->stanza.len,
	    &ar, &n, NULL) == 0) {
		if (j->kind == SIM_ROUTE_RECEIPT) {
			take_receipt(j->a->phone, j->id, j->type, n);
			if (strcmp(j->type, "hist_sync") == 0) {
				char	 from[PHONE_JID_MAX];

				val_jid(wa_node_attr(n, "from"), from,
				    sizeof(from));
				sim_hist_receipt(j->s, j->a, j->id, from);
			}
			if (strcmp(j->type, "retry") == 0 &&
			    wa_node_attr(n, "participant") != NULL)
				group_retry(j->a->phone, n, j->id);
		} else if (j->kind == SIM_ROUTE_NOTIFICATION)
			sim_log(j->s, "phone %s: notification %s (%s) taken",
			    j->a->pn, j->id, j->type);
		else
			take_message(j->a->phone, n);
	}
	arena_release(&ar);
	uv_close((uv_handle_t *)t, take_closed);
}

bool
sim_phone_take(void *arg, struct sim *s, struct sim_account *a,
    const struct sim_route *r, const struct wa_node *n)
{
	struct take_job	*j;
	int		 rc;

	(void)arg;
	if (a->phone == NULL)
		return false;
	j = xcalloc(1, sizeof(*j));
	if ((rc = wa_bin_encode(n, &j->stanza)) != 0) {
		sim_log(s, "phone %s: cannot take a stanza: %s", a->pn,
		    wc_strerror(rc));
		buf_release(&j->stanza);
		free(j);
		return false;
	}
	j->s = s;
	j->a = a;
	j->kind = r->kind;
	snprintf(j->id, sizeof(j->id), "%s", r->id);
	snprintf(j->type, sizeof(j->type), "%s", r->type);
	uv_timer_init(&s->loop, &j->t);
	j->t.data = j;
	uv_timer_start(&j->t, take_fire, 0, 0);
	return true;
}

int
sim_phone_reinstall(struct sim *s, struct sim_account *a)
{
	struct sim_signal_keys	 k, old;
	struct sim_phone	*p;
	int			 rc;

	if (a->phone == NULL || a->phone->depth > 0)
		return WC_ESTATE;
	if ((rc = sim_signal_keys_make(s->sig, s->opt.nprekeys, &k)) != 0)
		return rc;
	old = a->keys;
	a->keys = k;
	if ((rc = sim_phone_new(s, a, &p)) != 0) {
		a->keys = old;
		sim_signal_keys_release(&k);
		return rc;
	}
	sim_phone_free(a->phone);
	a->phone = p;
	sim_signal_keys_release(&old);
	sim_log(s, "phone %s: reinstalled with a new identity, registration "
	    "id %" PRIu32, a->pn, a->keys.reg_id);
	return 0;
}

int
sim_phone_forget(struct sim_account *a)
{
	struct sim_phone	*p = a->phone;
	int			 n = 0;
	size_t			 i;

	if (p == NULL || p->depth > 0)
		return 0;
	for (i = 0; i < p->nkv;) {
		char	 c = p->kv[i].key[0];

		/* Sessions, sender keys (own and received) and the memory of
		 * who has ours: what a reinstalled phone no longer has. */
		if (c == 's' || c == 'k' || c == 'm') {
			char	*k = xstrdup(p->kv[i].key);

			/* The last row moves here. */
			kv_set_raw(p, k, NULL, 0);
			free(k);
			if (c == 's')
				n++;
		} else
			i++;
	}
	sim_log(p->s, "phone %s: %d sessions forgotten (and its sender keys)",
	    a->pn, n);
	return n;
}

/* --- the echo --- */

static void
echo_closed(uv_handle_t *h)
{
	struct echo_job	*j = h->data;

	free(j->text);
	free(j);
}

static void
echo_fire(uv_timer_t *t)
{
	struct echo_job		*j = t->data;
	struct sim_phone	*p = j->a->phone;

	if (!j->s->stopping && p != NULL) {
		struct arena		 ar;
		struct wa_node		*r;
		struct buf		 inner = BUF_INIT, txt = BUF_INIT;
		const char		*ids[1] = { j->id };
		struct wa_msg_receipt_out ro = {
			.to = j->sender,
			.type = "read",
			.ids = ids,
			.n_ids = 1,
			.t = (int64_t)time(NULL),
		};
		struct wa_msg_text	 mt;
		char			 id[WA_MSG_ID_LEN + 1];
		int			 rc;

		arena_init(&ar, 0);
		if (wa_msg_receipt(&ro, &ar, &r) == 0)
			inject(p, r, "read receipt");
		arena_release(&ar);
		buf_append(&txt, "echo: ", 6);
		buf_append(&txt, j->text, strlen(j->text) + 1);
		memset(&mt, 0, sizeof(mt));
		mt.text = (const char *)txt.p;
		if ((rc = wa_msg_build_text(&mt, &inner)) == 0)
			rc = phone_send_msg(p, j->chat, &inner, "text", NULL,
			    id, NULL);
		if (rc != 0)
			sim_log(j->s, "phone %s: echo to %s failed: %s",
			    j->a->pn, j->chat, wc_strerror(rc));
		else
			p->echoes++;
		buf_release(&inner);
		wipe(&txt);
	}
	uv_close((uv_handle_t *)t, echo_closed);
}

static void
echo_schedule(struct sim_phone *p, const char *sender, const char *chat,
    const char *id, const char *text)
{
	struct echo_job	*j;

	if (p->s->stopping)
		return;
	j = xcalloc(1, sizeof(*j));
	j->s = p->s;
	j->a = p->a;
	snprintf(j->sender, sizeof(j->sender), "%s", sender);
	snprintf(j->chat, sizeof(j->chat), "%s", chat);
	snprintf(j->id, sizeof(j->id), "%s", id);
	j->text = xstrdup(text);
	uv_timer_init(&p->s->loop, &j->t);
	j->t.data = j;
	uv_timer_start(&j->t, echo_fire, PHONE_ECHO_MS, 0);
}

/* --- the chatty contact --- */

static void
chatty_closed(uv_handle_t *h)
{
	free(h->data);
}

/* a's owner has a linked companion with its prekeys on the server. */
static bool
owner_linked(struct sim *s, const struct sim_account *a,
    struct sim_account **owner)
{
	const struct sim_device	*d;

	if (a->owner[0] == '\0' ||
	    (*owner = sim_account_by_pn(s, a->owner)) == NULL)
		return false;
	for (d = (*owner)->devices; d != NULL; d = d->next)
		if (!d->removed && d->uploads > 0)
			return true;
	return false;
}

static void
chatty_fire(uv_timer_t *t)
{
	struct sim_chatty	*c = t->data;
	struct sim_account	*a = c->a, *owner;
	struct buf		 inner = BUF_INIT;
	struct wa_msg_text	 mt;
	char			 chat[PHONE_JID_MAX];
	char			 id[WA_MSG_ID_LEN + 1];
	int			 rc;

	if (a == NULL || c->s->stopping || a->phone == NULL ||
	    !owner_linked(c->s, a, &owner))
		return;
	snprintf(chat, sizeof(chat), "%s@s.whatsapp.net", owner->pn);
	memset(&mt, 0, sizeof(mt));
	mt.text = chatty_texts[c->next];
	c->next = (c->next + 1) % (sizeof(chatty_texts) /
	    sizeof(chatty_texts[0]));
	if ((rc = wa_msg_build_text(&mt, &inner)) == 0)
		rc = phone_send_msg(a->phone, chat, &inner, "text", NULL, id,
		    NULL);
	if (rc != 0)
		sim_log(c->s, "phone %s: chatty message to %s failed: %s",
		    a->pn, owner->pn, wc_strerror(rc));
	else
		sim_log(c->s, "phone %s: chatty message %s to %s", a->pn, id,
		    owner->pn);
	buf_release(&inner);
}

static void
chatty_stop(struct sim_account *a)
{
	struct sim_chatty	*c = a->chatty;

	if (c == NULL)
		return;
	c->a = NULL;
	uv_timer_stop(&c->t);
	uv_close((uv_handle_t *)&c->t, chatty_closed);
	a->chatty = NULL;
}

int
sim_phone_chatty(struct sim *s, struct sim_account *a, unsigned period_s)
{
	struct sim_chatty	*c;

	if (period_s > PHONE_CHATTY_MAX_S ||
	    (period_s > 0 && a->owner[0] == '\0'))
		return -EINVAL;
	if (s->stopping)
		return WC_ESTATE;
	chatty_stop(a);
	a->chatty_s = period_s;
	if (period_s == 0)
		return 0;
	c = xcalloc(1, sizeof(*c));
	c->s = s;
	c->a = a;
	uv_timer_init(&s->loop, &c->t);
	c->t.data = c;
	uv_timer_start(&c->t, chatty_fire, (uint64_t)period_s * 1000,
	    (uint64_t)period_s * 1000);
	a->chatty = c;
	sim_log(s, "phone %s: writes to %s every %u s once it is linked",
	    a->pn, a->owner, period_s);
	return 0;
}

void
sim_phone_chatty_stop_all(struct sim *s)
{
	struct sim_account	*a;

	for (a = s->accounts; a != NULL; a = a->next)
		chatty_stop(a);
}

/* --- the admin report --- */

static void
add_opt(struct json_object *o, const char *key, const char *v)
{
	if (v != NULL)
		json_object_object_add(o, key, json_object_new_string(v));
}

static struct json_object *
entries_json(const struct entry *v, size_t n, bool sends)
{
	struct json_object	*arr = json_object_new_array();
	size_t			 i;

	for (i = 0; i < n; i++) {
		struct json_object	*o = json_object_new_object();

		add_opt(o, "id", v[i].id);
		add_opt(o, sends ? "to" : "from", v[i].peer);
		add_opt(o, "type", v[i].type);
		json_object_object_add(o, "t", json_object_new_int64(v[i].t));
		if (sends) {
			json_object_object_add(o, "copies",
			    json_object_new_int64(v[i].devices));
			json_object_object_add(o, "pkmsgs",
			    json_object_new_int64(v[i].pkmsgs));
		}
		json_object_array_add(arr, o);
	}
	return arr;
}

struct json_object *
sim_phone_json(const struct sim_account *a)
{
	struct json_object	*o = json_object_new_object();
	struct json_object	*inbox = json_object_new_array();
	const struct sim_phone	*p = a->phone;
	size_t			 i;

	json_object_object_add(o, "pn", json_object_new_string(a->pn));
	json_object_object_add(o, "echo", json_object_new_boolean(a->echo));
	json_object_object_add(o, "chatty_s",
	    json_object_new_int64((int64_t)a->chatty_s));
	if (p == NULL)
		return o;
	json_object_object_add(o, "decrypted",
	    json_object_new_int64((int64_t)p->decrypted));
	json_object_object_add(o, "failed",
	    json_object_new_int64((int64_t)p->failed));
	json_object_object_add(o, "duplicates",
	    json_object_new_int64((int64_t)p->duplicates));
	json_object_object_add(o, "resent",
	    json_object_new_int64((int64_t)p->resent));
	json_object_object_add(o, "retry_receipts",
	    json_object_new_int64((int64_t)p->retry_receipts));
	json_object_object_add(o, "echoes",
	    json_object_new_int64((int64_t)p->echoes));
	for (i = 0; i < p->nin; i++) {
		const struct inbox	*m = &p->in[i];
		struct json_object	*e = json_object_new_object();

		json_object_object_add(e, "seq",
		    json_object_new_int64((int64_t)m->seq));
		add_opt(e, "id", m->id);
		add_opt(e, "from", m->from);
		if (m->recipient[0] != '\0')
			add_opt(e, "recipient", m->recipient);
		add_opt(e, "enc", m->enc);
		json_object_object_add(e, "t", json_object_new_int64(m->t));
		json_object_object_add(e, "offline",
		    json_object_new_boolean(m->offline));
		if (m->err != 0) {
			add_opt(e, "error", wc_strerror(m->err));
			json_object_object_add(e, "retried",
			    json_object_new_boolean(m->retried));
		} else {
			add_opt(e, "kind", m->kind);
			add_opt(e, "text", m->text);
			add_opt(e, "quoted_id", m->quoted_id);
			add_opt(e, "emoji", m->emoji);
			add_opt(e, "target_id", m->target_id);
			add_opt(e, "dsm_destination", m->dsm_destination);
		}
		json_object_array_add(inbox, e);
	}
	json_object_object_add(o, "inbox", inbox);
	json_object_object_add(o, "receipts", entries_json(p->rcpt, p->nrcpt,
	    false));
	json_object_object_add(o, "sent", entries_json(p->sent, p->nsent,
	    true));
	return o;
}
