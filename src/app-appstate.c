/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-appstate.c -- app state sync's store operations
 * (proto/appsync.h) over store/store-appstate.h (src/app-appstate.h).
 * Engine thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "sync"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/appstate.h"
#include "proto/crypto.h"
#include "src/app-appstate.h"
#include "store/store.h"

int
app_as_key_put(struct store *s, const struct wa_askey *k)
{
	struct store_as_key	 sk;
	int			 rc;

	if (k->id_len > sizeof(sk.id) || k->data_len > sizeof(sk.data) ||
	    k->fp_len > sizeof(sk.fp))
		return -EINVAL;
	memset(&sk, 0, sizeof(sk));
	memcpy(sk.id, k->id, k->id_len);
	sk.id_len = k->id_len;
	memcpy(sk.data, k->data, k->data_len);
	sk.data_len = k->data_len;
	if (k->fp != NULL)
		memcpy(sk.fp, k->fp, k->fp_len);
	sk.fp_len = k->fp != NULL ? k->fp_len : 0;
	sk.ts_ms = k->ts;
	rc = store_as_key_put(s, &sk);
	wa_crypto_wipe(&sk, sizeof(sk));
	return rc;
}

static int
key_any(void *arg)
{
	struct store_as_key	 k;
	int			 rc = store_as_key_newest(arg, &k);

	wa_crypto_wipe(&k, sizeof(k));
	return rc;
}

static int
key_get(void *arg, const uint8_t *id, size_t len, uint8_t *data,
    size_t *data_len)
{
	struct store_as_key	 k;
	int			 rc;

	if ((rc = store_as_key_get(arg, id, len, &k)) == 1) {
		if (k.data_len > WA_ASKEY_DATA_MAX)
			rc = 0;		/* not a key we can use */
		else {
			memcpy(data, k.data, k.data_len);
			*data_len = k.data_len;
		}
	}
	wa_crypto_wipe(&k, sizeof(k));
	return rc;
}

static int
state_get(void *arg, const char *name, struct wa_as_state *out)
{
	struct store_as_state	 st;
	int			 rc;

	if ((rc = store_as_state_get(arg, name, &st)) < 0)
		return rc;
	out->version = st.version;
	memcpy(out->hash, st.hash, sizeof(out->hash));
	return rc;
}

static int
state_reset(void *arg, const char *name)
{
	return store_as_state_reset(arg, name);
}

static int
mac_get(void *arg, const char *name, const uint8_t index_mac[WA_AS_MAC_LEN],
    uint8_t value_mac[WA_AS_MAC_LEN])
{
	return store_as_mac_get(arg, name, index_mac, value_mac);
}

/* The store's kind of a, or -1 when it is kept raw (STORE_AS_OTHER). */
static int
kind_of(enum wa_as_action_kind k)
{
	switch (k) {
	case WA_AS_ACT_CONTACT:		return STORE_AS_CONTACT;
	case WA_AS_ACT_LID_CONTACT:	return STORE_AS_LID_CONTACT;
	case WA_AS_ACT_PUSH_NAME:	return STORE_AS_PUSH_NAME;
	case WA_AS_ACT_MUTE:		return STORE_AS_MUTE;
	case WA_AS_ACT_PIN:		return STORE_AS_PIN;
	case WA_AS_ACT_ARCHIVE:		return STORE_AS_ARCHIVE;
	case WA_AS_ACT_MARK_READ:	return STORE_AS_MARK_READ;
	case WA_AS_ACT_STAR:		return STORE_AS_STAR;
	case WA_AS_ACT_DELETE_MSG_FOR_ME: return STORE_AS_DELETE_MSG;
	case WA_AS_ACT_CLEAR_CHAT:	return STORE_AS_CLEAR_CHAT;
	case WA_AS_ACT_DELETE_CHAT:	return STORE_AS_DELETE_CHAT;
	case WA_AS_ACT_LOCK:		return STORE_AS_LOCK;
	case WA_AS_ACT_UNKNOWN:
	case WA_AS_ACT_UNARCHIVE_SETTING:
	case WA_AS_ACT_PN_FOR_LID:
	case WA_AS_ACT_USER_STATUS_MUTE:
	case WA_AS_ACT_IGNORED:
	case WA_AS_ACT_NKIND:
		break;
	}
	return -1;
}

static bool
fits(const char *p, size_t max)
{
	return p == NULL || strnlen(p, max + 1) <= max;
}

/*
 * The chat or contact a names, as wachat keys it: a LID by its PN when
 * the store maps it (a contact's own pnJID first), a device JID by its
 * user, into out.  False when a names none that fits.
 */
static bool
jid_of(struct store *s, const struct wa_as_action *a, char *out)
{
	char	 pn[STORE_JID_MAX + 1];

	if (a->chat == NULL || !fits(a->chat, STORE_JID_MAX))
		return false;
	if (!jid_user_of(a->chat, out, STORE_JID_MAX + 1))
		snprintf(out, STORE_JID_MAX + 1, "%s", a->chat);
	if (!jid_is_lid(out))
		return true;
	if (a->kind == WA_AS_ACT_CONTACT && a->pn != NULL && jid_is_pn(a->pn) &&
	    jid_user_of(a->pn, pn, sizeof(pn)))
		snprintf(out, STORE_JID_MAX + 1, "%s", pn);
	else if (store_lid_get_pn(s, out, pn) == 1)
		snprintf(out, STORE_JID_MAX + 1, "%s", pn);
	return true;
}

/* Mutation m as the store's action *o (jid in jid[]): false when it is
 * skipped (undecodable, or not what its kind needs). */
static bool
convert(struct store *s, const struct wa_as_mutation *m,
    struct store_as_action *o, char jid[STORE_JID_MAX + 1])
{
	const struct wa_as_action *a = &m->action;
	int			 k = kind_of(a->kind);

	memset(o, 0, sizeof(*o));
	if (m->err != 0)
		return false;
	o->remove = m->op == WA_AS_REMOVE;
	if (k < 0) {
		if (m->index_json == NULL)
			return false;
		o->kind = STORE_AS_OTHER;
		o->index = (const uint8_t *)m->index_json;
		o->index_len = strlen(m->index_json);
		if (o->index_len == 0 || o->index_len > STORE_AS_INDEX_MAX)
			return false;
		if (!o->remove && m->value_plain != NULL &&
		    m->value_len <= STORE_AS_RAW_MAX) {
			o->raw = m->value_plain;
			o->raw_len = m->value_len;
		}
		return true;
	}
	o->kind = (enum store_as_kind)k;
	if (a->kind == WA_AS_ACT_PUSH_NAME) {
		o->full_name = a->push_name;
		return fits(o->full_name, STORE_NAME_MAX);
	}
	if (!jid_of(s, a, jid))
		return false;
	if (o->kind == STORE_AS_LID_CONTACT && !jid_is_lid(jid))
		o->kind = STORE_AS_CONTACT;	/* mapped to its PN */
	o->jid = jid;
	o->msg_id = a->msg_id;
	o->from_me = a->from_me;
	o->participant = a->participant;
	o->flag = a->flag;
	o->mute_end_ms = a->mute_end_ms;
	o->full_name = a->full_name;
	o->first_name = a->first_name;
	o->delete_media = a->delete_media;
	o->delete_starred = a->delete_starred;
	o->ts_ms = a->ts_ms;
	o->range_ms = a->range_last_s > 0 ? a->range_last_s * 1000 : 0;
	if ((k == STORE_AS_STAR || k == STORE_AS_DELETE_MSG) &&
	    (a->msg_id == NULL || a->msg_id[0] == '\0'))
		return false;
	return fits(o->full_name, STORE_NAME_MAX) &&
	    fits(o->first_name, STORE_NAME_MAX) &&
	    fits(o->msg_id, STORE_MSG_ID_MAX) &&
	    fits(o->participant, STORE_JID_MAX);
}

static int
commit(void *arg, const struct wa_appsync_commit *c)
{
	struct store		*s = arg;
	const struct wa_as_apply_out *out = c->out;
	struct store_as_patch	 p;
	struct store_as_mac	*macs;
	struct store_as_action	*acts;
	char			(*jids)[STORE_JID_MAX + 1];
	size_t			 i, n = 0, skipped = 0;
	int			 rc;

	macs = xcalloc(out->n_changes + 1, sizeof(*macs));
	acts = xcalloc(out->n_mutations + 1, sizeof(*acts));
	jids = xcalloc(out->n_mutations + 1, sizeof(*jids));
	for (i = 0; i < out->n_changes; i++) {
		memcpy(macs[i].index_mac, out->changes[i].index_mac,
		    STORE_AS_MAC_LEN);
		memcpy(macs[i].value_mac, out->changes[i].value_mac,
		    STORE_AS_MAC_LEN);
		macs[i].remove = !out->changes[i].set;
	}
	for (i = 0; i < out->n_mutations; i++) {
		if (convert(s, &out->mutations[i], &acts[n], jids[n]))
			n++;
		else
			skipped++;
	}
	if (skipped > 0)
		log_info("app state %s: %zu records not used (undecodable or "
		    "incomplete)", c->name, skipped);
	memset(&p, 0, sizeof(p));
	p.collection = c->name;
	p.snapshot = c->snapshot;
	p.base_version = c->base_version;
	p.version = c->state->version;
	p.hash = c->state->hash;
	p.macs = macs;
	p.nmacs = out->n_changes;
	p.actions = acts;
	p.nactions = n;
	rc = store_as_commit(s, &p);
	free(macs);
	free(acts);
	free(jids);
	return rc;
}

/* The outbox (store_as_pending_*): the oldest queued of collection name. */
static int
pending_next(void *arg, const char *name, int64_t *id, uint8_t **data,
    size_t *len)
{
	struct store_as_pending	*l = NULL;
	size_t			 n = 0;
	int			 rc;

	if ((rc = store_as_pending_list(arg, name, STORE_AS_QUEUED, 1, &l,
	    &n)) < 0)
		return rc;
	if (n == 0) {
		store_as_pending_free(l, n);
		return 0;
	}
	*id = l[0].id;
	*data = xmalloc(l[0].action_len > 0 ? l[0].action_len : 1);
	memcpy(*data, l[0].action, l[0].action_len);
	*len = l[0].action_len;
	store_as_pending_free(l, n);
	return 1;
}

static int
pending_done(void *arg, int64_t id)
{
	int	 rc = store_as_pending_remove(arg, id);

	return rc < 0 ? rc : 0;
}

static int
key_newest(void *arg, uint8_t *id, size_t *id_len, uint8_t *data,
    size_t *data_len)
{
	struct store_as_key	 k;
	int			 rc;

	if ((rc = store_as_key_newest(arg, &k)) == 1) {
		if (k.data_len > WA_ASKEY_DATA_MAX || k.id_len >
		    WA_AS_KEY_ID_MAX)
			rc = 0;		/* not a key we can use */
		else {
			memcpy(id, k.id, k.id_len);
			*id_len = k.id_len;
			memcpy(data, k.data, k.data_len);
			*data_len = k.data_len;
		}
	}
	wa_crypto_wipe(&k, sizeof(k));
	return rc;
}

void
app_as_ops(struct store *s, struct wa_appsync_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->key_any = key_any;
	ops->key_get = key_get;
	ops->state_get = state_get;
	ops->state_reset = state_reset;
	ops->mac_get = mac_get;
	ops->commit = commit;
	ops->pending_next = pending_next;
	ops->pending_done = pending_done;
	ops->key_newest = key_newest;
	ops->arg = s;
}
