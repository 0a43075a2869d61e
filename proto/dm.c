/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm.c -- the front of the message engine (proto/dm.h): the
 * module's life (new, online, offline, free), our presence, and the
 * dispatch of each stanza to the file that handles it (proto/dm-int.h
 * lists them).  It binds the two fan-outs into the outbox core.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/arena.h"
#include "base/jid.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/dm-int.h"
#include "proto/msg.h"
#include "proto/node.h"

/* --- lifecycle --- */

static bool
host_ok(const struct wa_dm_host *h)
{
	return h->send != NULL && h->iq_id != NULL && h->now_ms != NULL &&
	    h->rng != NULL;
}

/* The ops of messages, receipts and devices. */
static bool
store_msg_ok(const struct wa_dm_store_ops *st)
{
	return st->out_insert != NULL && st->out_next != NULL &&
	    st->out_get != NULL && st->out_state != NULL &&
	    st->out_delete != NULL && st->in_insert != NULL &&
	    st->change != NULL && st->react != NULL &&
	    st->mark_read != NULL && st->push_name != NULL &&
	    st->lid_put != NULL && st->devices_get != NULL &&
	    st->devices_put != NULL && st->name_get != NULL;
}

/* The ops of groups and transactions. */
static bool
store_group_ok(const struct wa_dm_store_ops *st)
{
	return st->tx_begin != NULL && st->tx_commit != NULL &&
	    st->tx_rollback != NULL && st->group_get != NULL &&
	    st->group_put != NULL && st->group_subject != NULL &&
	    st->group_member != NULL && st->group_left != NULL &&
	    st->skr_has != NULL && st->skr_put != NULL &&
	    st->skr_forget != NULL;
}

int
wa_dm_new(const struct wa_dm_host *host, const struct wa_dm_store_ops *st,
    struct wa_signal *sig, const struct wa_dm_cfg *cfg,
    wa_dm_event_fn on_event, void *ev_arg, struct wa_dm **out)
{
	struct wa_dm	*dm;

	if (host == NULL || st == NULL || sig == NULL || cfg == NULL ||
	    on_event == NULL || !host_ok(host) || !store_msg_ok(st) ||
	    !store_group_ok(st))
		return -EINVAL;
	dm = xcalloc(1, sizeof(*dm));
	dm->host = *host;
	dm->st = st;
	dm->sig = sig;
	dm->cfg = *cfg;
	dm->on_event = on_event;
	dm->ev_arg = ev_arg;
	dm->kinds[DM_KIND_DIRECT] = &dm_direct_fanout;
	dm->kinds[DM_KIND_GROUP] = &dm_group_fanout;
	*out = dm;
	return 0;
}

void
wa_dm_free(struct wa_dm *dm)
{
	if (dm == NULL)
		return;
	dm_job_clear(dm);
	free(dm);
}

/* 11.8: delivery receipts count only after our presence; without a push
 * name the server refuses one (15.1). */
static void
send_presence(struct wa_dm *dm)
{
	struct arena	 a;
	struct wa_node	*n;

	if (!dm->online || dm->presence_sent || !dm->cfg.send_presence ||
	    dm->push_name[0] == '\0')
		return;
	arena_init(&a, 512);
	if (wa_msg_presence(true, dm->push_name, &a, &n) == 0 &&
	    dm_send(dm, n) == 0)
		dm->presence_sent = true;
	arena_release(&a);
}

void
wa_dm_set_push_name(struct wa_dm *dm, const char *name)
{
	if (name == NULL || strcmp(name, dm->push_name) == 0)
		return;
	snprintf(dm->push_name, sizeof(dm->push_name), "%s", name);
	send_presence(dm);
}

void
wa_dm_set_own(struct wa_dm *dm, const char *own_jid, const char *own_lid)
{
	snprintf(dm->own_jid, sizeof(dm->own_jid), "%s", own_jid);
	if (!jid_user_of(own_jid, dm->own_pn, sizeof(dm->own_pn)))
		dm->own_pn[0] = '\0';
	if (own_lid == NULL || !jid_user_of(own_lid, dm->own_lid,
	    sizeof(dm->own_lid)))
		dm->own_lid[0] = '\0';
	dm->own_dev = jid_device_of(own_jid);
}

void
wa_dm_online(struct wa_dm *dm, const char *own_jid, const char *own_lid,
    const char *push_name, uint32_t registration_id, const uint8_t *adv,
    size_t adv_len)
{
	dm->online = true;
	wa_dm_set_own(dm, own_jid, own_lid);
	snprintf(dm->push_name, sizeof(dm->push_name), "%s",
	    push_name != NULL ? push_name : "");
	dm->regid = registration_id;
	dm->adv = adv;
	dm->adv_len = adv_len;
	dm->cursor = 0;
	dm->full = dm->io_failed = dm->full_told = false; /* tried again */
	dm->presence_sent = false;
	send_presence(dm);
	dm_group_online(dm);
	dm_kick(dm);
}

void
wa_dm_offline(struct wa_dm *dm)
{
	dm->online = false;
	dm_job_clear(dm);
	dm_group_offline(dm);
	dm_tok_offline(dm);
	memset(&dm->retry, 0, sizeof(dm->retry));
}

/* --- the dispatch --- */

/* The handler of a stanza tag: returns what wa_dm_stanza() does. */
struct route {
	const char	*tag;
	int		(*fn)(struct wa_dm *, const struct wa_node *);
};

/* With the disk full (or after a failed write), n is not taken: not
 * acked, so the server keeps it and sends it again at the next login
 * (reliability.md rule 1). */
static bool
refused_full(struct wa_dm *dm, const struct wa_node *n)
{
	if (!dm_store_held(dm))
		return false;
	log_info("<%.*s> not taken: %s", (int)n->tag.len, n->tag.p,
	    dm->full ? "the disk is full" : "a write failed");
	return true;
}

static int
take_message(struct wa_dm *dm, const struct wa_node *n)
{
	if (!refused_full(dm, n))
		dm_recv_message(dm, n);
	return 1;
}

static int
take_receipt(struct wa_dm *dm, const struct wa_node *n)
{
	if (!refused_full(dm, n))
		dm_recv_receipt(dm, n);
	return 1;
}

static int
take_ack(struct wa_dm *dm, const struct wa_node *n)
{
	return wa_node_str_is(n, "class", "message") ? dm_job_on_ack(dm, n) :
	    0;
}

static int
take_chatstate(struct wa_dm *dm, const struct wa_node *n)
{
	dm_recv_chatstate(dm, n);
	return 1;
}

static int
take_presence(struct wa_dm *dm, const struct wa_node *n)
{
	dm_recv_presence(dm, n);
	return 1;
}

/* Ours are devices, w:gp2 and encrypt <identity/> (11.7); the engine
 * acks notifications (0), but not one whose change could not be stored
 * (the store's error). */
static int
take_notification(struct wa_dm *dm, const struct wa_node *n)
{
	bool	 dev = wa_node_str_is(n, "type", "devices");
	bool	 ident = wa_node_str_is(n, "type", "encrypt") &&
	    wa_node_child(n, "identity") != NULL;
	bool	 tok = wa_node_str_is(n, "type", "privacy_token");

	if (!dev && !ident && !tok && !wa_node_str_is(n, "type", "w:gp2"))
		return 0;
	if (refused_full(dm, n))
		return dm->full ? -ENOSPC : -EIO;
	if (ident)
		return dm_ident_on_notification(dm, n);
	if (tok)
		return dm_tok_notification(dm, n);
	return dev ? dm_recv_devices(dm, n) : dm_group_on_notification(dm, n);
}

/* A <call>: shown (dm-call.c); the engine acks it unless the line could
 * not be stored. */
static int
take_call(struct wa_dm *dm, const struct wa_node *n)
{
	if (refused_full(dm, n))
		return dm->full ? -ENOSPC : -EIO;
	return dm_call_on(dm, n);
}

/* An answer to one of our queries: a group's, the pending retry's, the
 * job's. */
static int
take_iq(struct wa_dm *dm, const struct wa_node *n)
{
	return dm_group_on_iq(dm, n) || dm_retry_on_iq(dm, n) ||
	    dm_tok_on_iq(dm, n) || dm_job_on_iq(dm, n);
}

static const struct route routes[] = {
	{ "message", take_message },
	{ "receipt", take_receipt },
	{ "ack", take_ack },
	{ "chatstate", take_chatstate },
	{ "presence", take_presence },
	{ "notification", take_notification },
	{ "call", take_call },
	{ "iq", take_iq },
};

int
wa_dm_stanza(struct wa_dm *dm, const struct wa_node *n)
{
	size_t	 i;
	int	 rc;

	for (i = 0; i < sizeof(routes) / sizeof(routes[0]); i++)
		if (wa_str_eqc(n->tag, routes[i].tag)) {
			rc = routes[i].fn(dm, n);
			dm_full_tell(dm);	/* last: may go offline */
			return rc;
		}
	return 0;
}
