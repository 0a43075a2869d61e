/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-store.c -- the in-memory store of fake-store.h: one
 * key-value table, a snapshot per transaction level, the message ops
 * over it (the Signal ops: fake-store-signal.c).  Keys:
 *
 *   msg/CHAT/FROM_ME/ID    struct row, then the payload (outgoing)
 *   dev/USER               the cached device ids (uint16_t each)
 *   lid/PN, pn/LID         the PN-LID mapping, both ways
 *   name/JID               a push name
 *   grp/GROUP              struct grp, then n (member, alt) pairs
 *   skr/GROUP/DEVICE       a holder of our sender key
 *   sess/NAME/DEV, idk/NAME/DEV, skey/GROUP/NAME/DEV, pre/ID
 *                          Signal records, identity keys, sender keys,
 *                          one-time prekeys (private, then public key)
 */
#include "base/compat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/group.h"
#include "tests/fakes/fake-store-int.h"

/* A stored message. */
struct row {
	int64_t		 rowid;
	char		 chat[WA_DM_JID_MAX];
	char		 id[WA_DM_ID_MAX];
	char		 sender[WA_DM_JID_MAX];
	bool		 from_me;
	int		 state;		/* enum wa_dm_state */
	int64_t		 ts_ms;
	char		 type[16];
	char		 edit[4];
	char		 text[1024];
	size_t		 payload_len;	/* the payload follows */
};

struct grp {
	bool		 lid, left;
	size_t		 n;		/* n (member, alt) pairs follow */
};

/* --- the table --- */

struct kv *
fake_tab_get(const struct tab *t, const char *key)
{
	size_t	 i;

	for (i = 0; i < t->n; i++)
		if (strcmp(t->v[i].key, key) == 0)
			return &t->v[i];
	return NULL;
}

void
fake_tab_put(struct tab *t, const char *key, const void *val, size_t len)
{
	struct kv	*e = fake_tab_get(t, key);

	if (e == NULL) {
		if (t->n == t->cap) {
			t->cap = t->cap == 0 ? 64 : t->cap * 2;
			t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
		}
		e = &t->v[t->n++];
		e->key = xstrdup(key);
	} else
		free(e->val);
	e->val = xmalloc(len + 1);
	if (len > 0)
		memcpy(e->val, val, len);
	e->len = len;
}

bool
fake_tab_del(struct tab *t, const char *key)
{
	struct kv	*e = fake_tab_get(t, key);

	if (e == NULL)
		return false;
	free(e->key);
	free(e->val);
	*e = t->v[--t->n];
	return true;
}

static void
tab_free(struct tab *t)
{
	size_t	 i;

	for (i = 0; i < t->n; i++) {
		free(t->v[i].key);
		free(t->v[i].val);
	}
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static void
tab_copy(struct tab *dst, const struct tab *src)
{
	size_t	 i;

	memset(dst, 0, sizeof(*dst));
	for (i = 0; i < src->n; i++)
		fake_tab_put(dst, src->v[i].key, src->v[i].val, src->v[i].len);
}

void
fake_key(char out[KEY_MAX], const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vsnprintf(out, KEY_MAX, fmt, ap);
	va_end(ap);
}

/* --- counting and failing --- */

/* A failure set for op: true and *rc, and it is used up. */
static bool
take_fail(struct fake_store *f, const char *op, int *rc)
{
	size_t	 i;

	for (i = 0; i < MAX_FAILS; i++)
		if (strcmp(f->fails[i].op, op) == 0) {
			f->fails[i].op[0] = '\0';
			*rc = f->fails[i].rc;
			return true;
		}
	return false;
}

/* Count a call of op; true and *rc when a failure was set for it. */
bool
fake_store_enter(struct fake_store *f, const char *op, int *rc)
{
	size_t	 i;

	for (i = 0; i < sizeof(f->calls) / sizeof(f->calls[0]); i++)
		if (f->calls[i].op == NULL || strcmp(f->calls[i].op, op) == 0) {
			f->calls[i].op = op;
			f->calls[i].n++;
			break;
		}
	return take_fail(f, op, rc);
}

void
fake_store_fail(struct fake_store *f, const char *op, int rc)
{
	size_t	 i;

	for (i = 0; i < MAX_FAILS; i++)
		if (f->fails[i].op[0] == '\0') {
			snprintf(f->fails[i].op, sizeof(f->fails[i].op), "%s",
			    op);
			f->fails[i].rc = rc;
			return;
		}
	abort();
}

unsigned
fake_store_calls(const struct fake_store *f, const char *op)
{
	size_t	 i;

	for (i = 0; i < sizeof(f->calls) / sizeof(f->calls[0]) &&
	    f->calls[i].op != NULL; i++)
		if (strcmp(f->calls[i].op, op) == 0)
			return f->calls[i].n;
	return 0;
}

/* --- transactions --- */

int
fake_store_tx_begin(void *arg)
{
	struct fake_store	*f = arg;

	ENTER(f, "tx_begin");
	if (f->depth == MAX_SNAPS)
		abort();
	tab_copy(&f->snap[f->depth++], &f->t);
	return 0;
}

/* Close the innermost level: keep its writes, or restore (undo). */
static void
tx_close(struct fake_store *f, bool undo)
{
	if (f->depth == 0)
		abort();	/* a commit or rollback without a begin */
	f->depth--;
	if (undo) {
		tab_free(&f->t);
		f->t = f->snap[f->depth];
		memset(&f->snap[f->depth], 0, sizeof(f->snap[0]));
	} else
		tab_free(&f->snap[f->depth]);
}

int
fake_store_tx_commit(void *arg)
{
	struct fake_store	*f = arg;
	int			 rc;

	/* a failed commit undoes the level, as SQLite rolls back after a
	 * failed COMMIT */
	if (fake_store_enter(f, "tx_commit", &rc) ||
	    (f->depth == 1 && take_fail(f, "tx_commit_outer", &rc))) {
		tx_close(f, true);
		return rc;
	}
	tx_close(f, false);
	return 0;
}

int
fake_store_tx_rollback(void *arg)
{
	struct fake_store	*f = arg;

	ENTER(f, "tx_rollback");
	tx_close(f, true);
	return 0;
}

int
fake_store_tx_depth(const struct fake_store *f)
{
	return f->depth;
}

void
fake_store_crash(struct fake_store *f)
{
	while (f->depth > 0)
		tx_close(f, true);
}

/* --- messages --- */

static struct row *
row_get(const struct fake_store *f, const char *chat, bool from_me,
    const char *id)
{
	char		 k[KEY_MAX];
	struct kv	*e;

	fake_key(k, "msg/%s/%d/%s", chat, from_me, id);
	e = fake_tab_get(&f->t, k);
	return e != NULL ? (struct row *)e->val : NULL;
}

static void
row_put(struct fake_store *f, const struct row *r, const uint8_t *payload)
{
	char	 k[KEY_MAX];
	uint8_t	*v = xmalloc(sizeof(*r) + r->payload_len + 1);

	fake_key(k, "msg/%s/%d/%s", r->chat, r->from_me, r->id);
	memcpy(v, r, sizeof(*r));
	if (r->payload_len > 0)
		memcpy(v + sizeof(*r), payload, r->payload_len);
	fake_tab_put(&f->t, k, v, sizeof(*r) + r->payload_len);
	free(v);
}

static void
row_of(struct row *r, const struct wa_dm_msg *m)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->chat, sizeof(r->chat), "%s", m->chat);
	snprintf(r->id, sizeof(r->id), "%s", m->id);
	snprintf(r->sender, sizeof(r->sender), "%s", m->sender != NULL ?
	    m->sender : "");
	snprintf(r->text, sizeof(r->text), "%s", m->text != NULL ? m->text :
	    "");
	r->from_me = m->from_me;
	r->state = m->state;
	r->ts_ms = m->ts_ms;
}

static int
out_insert(void *arg, const struct wa_dm_msg *m, const char *type,
    const char *edit)
{
	struct fake_store	*f = arg;
	struct row		 r;

	ENTER(f, "out_insert");
	row_of(&r, m);
	r.rowid = ++f->next_rowid;
	r.state = WA_DM_QUEUED;
	snprintf(r.type, sizeof(r.type), "%s", type != NULL ? type : "");
	snprintf(r.edit, sizeof(r.edit), "%s", edit != NULL ? edit : "");
	r.payload_len = m->payload_len;
	row_put(f, &r, m->payload);
	return 0;
}

static void
out_fill(const struct row *r, struct wa_dm_out *o)
{
	memset(o, 0, sizeof(*o));
	o->rowid = r->rowid;
	snprintf(o->chat, sizeof(o->chat), "%s", r->chat);
	snprintf(o->id, sizeof(o->id), "%s", r->id);
	snprintf(o->type, sizeof(o->type), "%s", r->type);
	snprintf(o->edit, sizeof(o->edit), "%s", r->edit);
	o->payload = xmalloc(r->payload_len + 1);
	memcpy(o->payload, (const uint8_t *)(r + 1), r->payload_len);
	o->payload_len = r->payload_len;
}

static int
out_next(void *arg, int64_t after, struct wa_dm_out *o)
{
	struct fake_store	*f = arg;
	const struct row	*best = NULL, *r;
	size_t			 i;

	ENTER(f, "out_next");
	for (i = 0; i < f->t.n; i++) {
		if (strncmp(f->t.v[i].key, "msg/", 4) != 0)
			continue;
		r = (const struct row *)f->t.v[i].val;
		if (r->from_me && r->state == WA_DM_QUEUED &&
		    r->payload_len > 0 && r->rowid > after &&
		    (best == NULL || r->rowid < best->rowid))
			best = r;
	}
	if (best == NULL)
		return 0;
	out_fill(best, o);
	return 1;
}

static int
out_get(void *arg, const char *chat, const char *id, struct wa_dm_out *o)
{
	struct fake_store	*f = arg;
	const struct row	*r;

	ENTER(f, "out_get");
	if ((r = row_get(f, chat, true, id)) == NULL || r->payload_len == 0)
		return 0;
	out_fill(r, o);
	return 1;
}

/* Whether state may move from `from` to `to` (store/message.c). */
static bool
may_move(int from, int to)
{
	switch (to) {
	case WA_DM_QUEUED:
		return from == WA_DM_FAILED;
	case WA_DM_SENT:
	case WA_DM_FAILED:
		return from == WA_DM_QUEUED;
	case WA_DM_DELIVERED:
	case WA_DM_READ:
		return from != WA_DM_FAILED && from < to;
	}
	return false;
}

static int
out_state(void *arg, const char *chat, const char *id, enum wa_dm_state state,
    int64_t ts_ms)
{
	struct fake_store	*f = arg;
	struct row		*r;

	ENTER(f, "out_state");
	if ((r = row_get(f, chat, true, id)) == NULL ||
	    !may_move(r->state, (int)state))
		return 0;
	r->state = (int)state;
	if (state == WA_DM_SENT)
		r->ts_ms = ts_ms;
	return 1;
}

static int
out_delete(void *arg, const char *chat, const char *id)
{
	struct fake_store	*f = arg;
	struct row		*r;
	char			 k[KEY_MAX];

	ENTER(f, "out_delete");
	if ((r = row_get(f, chat, true, id)) == NULL ||
	    r->state != WA_DM_FAILED)
		return 0;
	fake_key(k, "msg/%s/1/%s", chat, id);
	return fake_tab_del(&f->t, k) ? 1 : 0;
}

static int
in_insert(void *arg, const struct wa_dm_msg *m)
{
	struct fake_store	*f = arg;
	struct row		 r;

	ENTER(f, "in_insert");
	if (row_get(f, m->chat, m->from_me, m->id) != NULL)
		return 1;
	row_of(&r, m);
	r.rowid = ++f->next_rowid;
	row_put(f, &r, NULL);
	return 0;
}

static int
change(void *arg, const char *chat, const char *id, bool from_me,
    const char *text, int64_t ts_ms)
{
	struct fake_store	*f = arg;
	struct row		*r;

	(void)ts_ms;
	ENTER(f, "change");
	if ((r = row_get(f, chat, from_me, id)) == NULL)
		return 0;
	snprintf(r->text, sizeof(r->text), "%s", text != NULL ? text : "");
	return 1;
}

static int
react(void *arg, const char *chat, const char *target, const char *sender,
    const char *emoji, int64_t ts_ms)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	(void)ts_ms;
	ENTER(f, "react");
	fake_key(k, "react/%s/%s/%s", chat, target, sender);
	if (emoji[0] == '\0')
		(void)fake_tab_del(&f->t, k);
	else
		fake_tab_put(&f->t, k, emoji, strlen(emoji) + 1);
	return 0;
}

static int
mark_read(void *arg, const char *chat, struct buf *ids)
{
	struct fake_store	*f = arg;
	struct row		*r;
	size_t			 i;
	int			 n = 0;

	ENTER(f, "mark_read");
	for (i = 0; i < f->t.n; i++) {
		if (strncmp(f->t.v[i].key, "msg/", 4) != 0)
			continue;
		r = (struct row *)f->t.v[i].val;
		if (r->from_me || r->state != WA_DM_RECEIVED ||
		    strcmp(r->chat, chat) != 0)
			continue;
		r->state = WA_DM_READ;
		buf_append(ids, r->id, strlen(r->id) + 1);
		buf_append(ids, r->sender, strlen(r->sender) + 1);
		n++;
	}
	return n;
}

static int
push_name(void *arg, const char *jid, const char *name)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "push_name");
	fake_key(k, "name/%s", jid);
	fake_tab_put(&f->t, k, name, strlen(name) + 1);
	return 0;
}

static int
name_get(void *arg, const char *jid, char *out, size_t len)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];
	struct kv		*e;

	ENTER(f, "name_get");
	fake_key(k, "name/%s", jid);
	if ((e = fake_tab_get(&f->t, k)) == NULL)
		return 0;
	snprintf(out, len, "%s", (const char *)e->val);
	return 1;
}

static int
lid_put(void *arg, const char *pn, const char *lid)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "lid_put");
	fake_key(k, "lid/%s", pn);
	fake_tab_put(&f->t, k, lid, strlen(lid) + 1);
	fake_key(k, "pn/%s", lid);
	fake_tab_put(&f->t, k, pn, strlen(pn) + 1);
	return 0;
}

/* The other address of user (a PN's LID, a LID's PN): 1, or 0. */
static int
lid_alt(void *arg, const char *user, char *out, size_t len)
{
	struct fake_store	*f = arg;
	struct kv		*e;
	char			 k[KEY_MAX];

	ENTER(f, "lid_alt");
	fake_key(k, "%s/%s", strstr(user, "@lid") != NULL ? "pn" : "lid",
	    user);
	if ((e = fake_tab_get(&f->t, k)) == NULL)
		return 0;
	snprintf(out, len, "%s", (const char *)e->val);
	return 1;
}

static int
devices_get(void *arg, const char *user, uint16_t *ids, size_t max)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];
	struct kv		*e;
	size_t			 n;

	ENTER(f, "devices_get");
	fake_key(k, "dev/%s", user);
	if ((e = fake_tab_get(&f->t, k)) == NULL)
		return 0;
	n = e->len / sizeof(*ids);
	if (n > max)
		n = max;
	memcpy(ids, e->val, n * sizeof(*ids));
	return (int)n;
}

static int
devices_put(void *arg, const char *user, const uint16_t *ids, int n)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "devices_put");
	fake_key(k, "dev/%s", user);
	if (n < 0)
		(void)fake_tab_del(&f->t, k);
	else
		fake_tab_put(&f->t, k, ids, (size_t)n * sizeof(*ids));
	return 0;
}

/* --- groups --- */

void
fake_store_put_group(struct fake_store *f, const char *group, bool lid,
    const char *const *members, const char *const *alts, size_t n)
{
	struct grp	 g;
	struct buf	 b = BUF_INIT;
	char		 k[KEY_MAX], pair[2 * WA_DM_JID_MAX];
	size_t		 i;

	memset(&g, 0, sizeof(g));
	g.lid = lid;
	g.n = n;
	buf_append(&b, &g, sizeof(g));
	for (i = 0; i < n; i++) {
		memset(pair, 0, sizeof(pair));
		snprintf(pair, WA_DM_JID_MAX, "%s", members[i]);
		snprintf(pair + WA_DM_JID_MAX, WA_DM_JID_MAX, "%s",
		    alts != NULL && alts[i] != NULL ? alts[i] : "");
		buf_append(&b, pair, sizeof(pair));
	}
	fake_key(k, "grp/%s", group);
	fake_tab_put(&f->t, k, b.p, b.len);
	buf_release(&b);
}

static int
group_get(void *arg, const char *group, struct wa_dm_group *out)
{
	struct fake_store	*f = arg;
	const struct grp	*g;
	const char		*pairs;
	char			 k[KEY_MAX];
	struct kv		*e;
	size_t			 i;

	ENTER(f, "group_get");
	fake_key(k, "grp/%s", group);
	if ((e = fake_tab_get(&f->t, k)) == NULL)
		return 0;
	g = (const struct grp *)e->val;
	pairs = (const char *)(g + 1);
	memset(out, 0, sizeof(*out));
	out->lid = g->lid;
	out->left = g->left;
	out->members = xcalloc(g->n + 1, sizeof(*out->members));
	out->alts = xcalloc(g->n + 1, sizeof(*out->alts));
	for (i = 0; i < g->n; i++) {
		memcpy(out->members[i], pairs + 2 * i * WA_DM_JID_MAX,
		    WA_DM_JID_MAX);
		memcpy(out->alts[i], pairs + (2 * i + 1) * WA_DM_JID_MAX,
		    WA_DM_JID_MAX);
	}
	out->n = g->n;
	return 1;
}

static int
group_put(void *arg, const struct wa_group_info *gi)
{
	struct fake_store	*f = arg;
	const char		**m, **alt;
	size_t			 i;

	ENTER(f, "group_put");
	m = xcalloc(gi->n_participants + 1, sizeof(*m));
	alt = xcalloc(gi->n_participants + 1, sizeof(*alt));
	for (i = 0; i < gi->n_participants; i++) {
		m[i] = gi->participants[i].jid;
		alt[i] = gi->participants[i].phone_number != NULL ?
		    gi->participants[i].phone_number :
		    gi->participants[i].lid;
	}
	fake_store_put_group(f, gi->jid, gi->lid, m, alt,
	    gi->n_participants);
	free(m);
	free(alt);
	return 0;
}

static int
group_subject(void *arg, const char *group, const char *subject)
{
	struct fake_store	*f = arg;

	(void)group;
	(void)subject;
	ENTER(f, "group_subject");
	return 0;
}

static int
group_member(void *arg, const char *group, const char *jid, const char *alt,
    int admin)
{
	struct fake_store	*f = arg;

	(void)group;
	(void)jid;
	(void)alt;
	(void)admin;
	ENTER(f, "group_member");
	return 0;
}

static int
group_left(void *arg, const char *group, bool left)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];
	struct kv		*e;

	ENTER(f, "group_left");
	fake_key(k, "grp/%s", group);
	if ((e = fake_tab_get(&f->t, k)) != NULL)
		((struct grp *)e->val)->left = left;
	return 0;
}

static int
skr_has(void *arg, const char *group, const char *device)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "skr_has");
	fake_key(k, "skr/%s/%s", group, device);
	return fake_tab_get(&f->t, k) != NULL ? 1 : 0;
}

static int
skr_put(void *arg, const char *group, const char *device)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];

	ENTER(f, "skr_put");
	fake_key(k, "skr/%s/%s", group, device);
	fake_tab_put(&f->t, k, "", 0);
	return 0;
}

static int
skr_forget(void *arg, const char *group, const char *device)
{
	struct fake_store	*f = arg;
	char			 k[KEY_MAX];
	size_t			 i;
	int			 n = 0;

	ENTER(f, "skr_forget");
	fake_key(k, "skr/%s/%s", group, device != NULL ? device : "");
	for (i = 0; i < f->t.n; )
		if (strncmp(f->t.v[i].key, k, strlen(k)) == 0 &&
		    (device == NULL || strcmp(f->t.v[i].key, k) == 0)) {
			n++;
			(void)fake_tab_del(&f->t, f->t.v[i].key);
		} else
			i++;
	return n;
}

void
fake_store_dm_ops(struct fake_store *f, struct wa_dm_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->out_insert = out_insert;
	ops->out_next = out_next;
	ops->out_get = out_get;
	ops->out_state = out_state;
	ops->out_delete = out_delete;
	ops->in_insert = in_insert;
	ops->change = change;
	ops->react = react;
	ops->mark_read = mark_read;
	ops->push_name = push_name;
	ops->lid_put = lid_put;
	ops->lid_alt = lid_alt;
	ops->devices_get = devices_get;
	ops->devices_put = devices_put;
	ops->group_get = group_get;
	ops->group_put = group_put;
	ops->group_subject = group_subject;
	ops->group_member = group_member;
	ops->group_left = group_left;
	ops->skr_has = skr_has;
	ops->skr_put = skr_put;
	ops->skr_forget = skr_forget;
	ops->name_get = name_get;
	ops->tx_begin = fake_store_tx_begin;
	ops->tx_commit = fake_store_tx_commit;
	ops->tx_rollback = fake_store_tx_rollback;
	ops->arg = f;
}

/* --- life --- */

struct fake_store *
fake_store_new(void)
{
	struct fake_store	*f = xcalloc(1, sizeof(*f));

	fake_store_device_init(f);
	return f;
}

void
fake_store_free(struct fake_store *f)
{
	if (f == NULL)
		return;
	fake_store_crash(f);
	tab_free(&f->t);
	wa_crypto_wipe(&f->own, sizeof(f->own));
	free(f);
}

/* --- what the tests read --- */

int
fake_store_state(const struct fake_store *f, const char *chat, const char *id)
{
	const struct row	*r = row_get(f, chat, true, id);

	return r != NULL ? r->state : -1;
}

bool
fake_store_text(const struct fake_store *f, const char *chat, bool from_me,
    const char *id, char *out, size_t len)
{
	const struct row	*r = row_get(f, chat, from_me, id);

	if (r == NULL)
		return false;
	snprintf(out, len, "%s", r->text);
	return true;
}

bool
fake_store_reaction(const struct fake_store *f, const char *chat,
    const char *target, const char *sender, char *out, size_t len)
{
	char		 k[KEY_MAX];
	struct kv	*e;

	fake_key(k, "react/%s/%s/%s", chat, target, sender);
	if ((e = fake_tab_get(&f->t, k)) == NULL)
		return false;
	snprintf(out, len, "%s", (const char *)e->val);
	return true;
}

size_t
fake_store_count(const struct fake_store *f, const char *chat)
{
	const struct row	*r;
	size_t			 i, n = 0;

	for (i = 0; i < f->t.n; i++) {
		if (strncmp(f->t.v[i].key, "msg/", 4) != 0)
			continue;
		r = (const struct row *)f->t.v[i].val;
		n += strcmp(r->chat, chat) == 0;
	}
	return n;
}

bool
fake_store_skr(const struct fake_store *f, const char *group,
    const char *device)
{
	char	 k[KEY_MAX];

	fake_key(k, "skr/%s/%s", group, device);
	return fake_tab_get(&f->t, k) != NULL;
}

