/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-util.c -- the helpers every file of the message engine uses
 * (proto/dm-int.h): events to the UI, sends and acks, our own JIDs, the
 * retry counters, notice lines and names, and the Signal steps of a send
 * (padding, pairwise encryption, a session from a bundle).  Calls no
 * other file of the engine.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/dm-int.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/reporting.h"

void
wa_dm_out_release(struct wa_dm_out *o)
{
	free(o->payload);
	memset(o, 0, sizeof(*o));
}

void
wa_dm_group_release(struct wa_dm_group *g)
{
	free(g->members);
	free(g->alts);
	memset(g, 0, sizeof(*g));
}

/* --- events --- */

void
dm_emit(struct wa_dm *dm, const struct wa_dm_ev *ev)
{
	dm->on_event(dm->ev_arg, ev);
}

bool
dm_store_failed(struct wa_dm *dm, int rc)
{
	if (rc == -ENOSPC)
		dm->full = true;
	else if (rc == -EIO)
		dm->io_failed = true;
	return rc == -ENOSPC || rc == -EIO;
}

bool
dm_store_held(const struct wa_dm *dm)
{
	return dm->full || dm->io_failed;
}

void
dm_full_tell(struct wa_dm *dm)
{
	struct wa_dm_ev	 ev;

	if (!dm_store_held(dm) || dm->full_told)
		return;
	dm->full_told = true;
	memset(&ev, 0, sizeof(ev));
	if (dm->full) {
		log_warn("the disk is full: no message is taken until a "
		    "write succeeds again");
		ev.kind = WA_DM_EV_DISK_FULL;
		ev.err = -ENOSPC;
	} else {
		log_warn("a write failed (I/O error): no message is taken "
		    "until the next connection");
		ev.kind = WA_DM_EV_STORE_FAILED;
		ev.err = -EIO;
	}
	dm_emit(dm, &ev);
}

void
dm_emit_state(struct wa_dm *dm, const char *chat, const char *id, int state)
{
	struct wa_dm_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_STATE;
	ev.chat = chat;
	ev.id = id;
	ev.state = state;
	ev.from_me = true;
	dm_emit(dm, &ev);
}

void
dm_emit_group(struct wa_dm *dm, const char *group, bool left)
{
	struct wa_dm_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_GROUP;
	ev.chat = group;
	ev.state = left ? 1 : 0;
	dm_emit(dm, &ev);
}

void
dm_emit_error(struct wa_dm *dm, const char *group, int err, const char *why)
{
	struct wa_dm_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_ERROR;
	ev.chat = group;
	ev.err = err;
	ev.text = why;
	dm_emit(dm, &ev);
}

/* --- sends --- */

const char *
dm_mediatype(const struct wa_dm_out *o)
{
	struct wa_msg_content	 c;
	const char		*name = NULL;

	if (strcmp(o->type, "media") != 0 ||
	    wa_msg_parse(o->payload, o->payload_len, &c) != 0)
		return NULL;
	if (c.kind == WA_MSG_MEDIA && c.media != NULL)
		name = wa_msg_media_name(c.media->type);
	wa_msg_content_release(&c);
	return name;
}

int
dm_send(struct wa_dm *dm, const struct wa_node *n)
{
	return dm->host.send(dm->host.arg, n);
}

void
dm_enc_kids(struct wa_dm *dm, struct arena *a, struct wa_node *n,
    bool pkmsg, unsigned count, const struct buf *ct)
{
	struct wa_node	*c, *enc;
	size_t		 nk = pkmsg && dm->adv != NULL ? 2 : 1;

	c = wa_nb_kids(a, n, nk);
	enc = wa_nb_kid(a, &c[0], "enc", count > 0 ? 3 : 2);
	wa_nb_attr(enc, "v", "2");
	wa_nb_attr(enc, "type", pkmsg ? "pkmsg" : "msg");
	if (count > 0)
		wa_nb_attr_num(a, enc, "count", count);
	wa_nb_bytes(enc, ct->p, ct->len);
	if (nk == 2)
		wa_nb_bytes(wa_nb_kid(a, &c[1], "device-identity", 0),
		    dm->adv, dm->adv_len);
}

void
dm_send_ack(struct wa_dm *dm, const struct wa_node *n, const char *error)
{
	struct arena	 a;
	struct wa_node	*ack;

	arena_init(&a, 512);
	/* from= our PN device on message acks, as Baileys (11.7) */
	if (wa_msg_ack(n, error, wa_str_eqc(n->tag, "message") &&
	    dm->own_jid[0] != '\0' ? dm->own_jid : NULL, &a, &ack) == 0)
		(void)dm_send(dm, ack);
	arena_release(&a);
}

/* --- who we are --- */

bool
dm_is_own(const struct wa_dm *dm, const char *jid)
{
	return jid_same_user(jid, dm->own_pn) ||
	    jid_same_user(jid, dm->own_lid);
}

const char *
dm_own_user(const struct wa_dm *dm, bool lid)
{
	return lid && dm->own_lid[0] != '\0' ? dm->own_lid : dm->own_pn;
}

void
dm_own_device(const struct wa_dm *dm, bool lid, char *out, size_t len)
{
	const char	*u = dm_own_user(dm, lid);

	/* ":0" kept for device 0, unlike jid_with_device(): the sender-key
	 * name has always been written so */
	snprintf(out, len, "%.*s:%u@%s", (int)strcspn(u, "@"), u,
	    dm->own_dev, jid_server_of(u));
}

int
dm_addr_of(const char *jid, struct wa_signal_addr *a)
{
	return wa_signal_addr_from_jid(jid, strlen(jid), a);
}

unsigned
dm_count(struct counter *c, size_t *next, const char *key)
{
	size_t	 i;

	for (i = 0; i < N_COUNTERS; i++)
		if (c[i].n > 0 && strcmp(c[i].key, key) == 0)
			return ++c[i].n;
	i = *next;
	*next = (*next + 1) % N_COUNTERS;
	snprintf(c[i].key, sizeof(c[i].key), "%s", key);
	c[i].n = 1;
	return 1;
}

/* --- lines and names --- */

int
dm_notice_put_kind(struct wa_dm *dm, const struct dm_note *n,
    char id[WA_DM_ID_MAX])
{
	struct wa_dm_msg m;
	uint8_t		 r[8];
	int		 rc;

	if (dm->host.rng(dm->host.arg, r, sizeof(r)) != 0)
		memset(r, 0, sizeof(r));
	if (n->id != NULL)
		snprintf(id, WA_DM_ID_MAX, "%s", n->id);
	else
		snprintf(id, WA_DM_ID_MAX, "wachat-notice-%02X%02X%02X%02X"
		    "%02X%02X%02X%02X", r[0], r[1], r[2], r[3], r[4], r[5],
		    r[6], r[7]);
	memset(&m, 0, sizeof(m));
	m.chat = n->chat;
	m.id = id;
	m.sender = n->sender;
	m.ts_ms = n->ts;
	m.kind = WA_DM_NOTICE;
	m.text = n->text;
	m.state = WA_DM_RECEIVED;
	m.notice_kind = n->kind;
	m.notice_device = n->device;
	if ((rc = dm->st->in_insert(dm->st->arg, &m)) < 0) {
		log_warn("cannot store a notice: %s", wc_strerror(rc));
		return rc;
	}
	return 0;
}

void
dm_emit_queued(struct wa_dm *dm, const char *chat, const char *id,
    const char *text, const char *quoted_id, bool rich, int64_t ts_ms)
{
	struct wa_dm_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_MESSAGE;
	ev.chat = chat;
	ev.id = id;
	ev.sender = "";
	ev.from_me = true;
	ev.text = text;
	ev.quoted_id = quoted_id;
	ev.rich = rich;
	ev.ts_ms = ts_ms;
	ev.state = WA_DM_QUEUED;
	dm_emit(dm, &ev);
}

void
dm_notice_show_kind(struct wa_dm *dm, const struct dm_note *n, const char *id)
{
	struct wa_dm_ev	 ev;

	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_MESSAGE;
	ev.chat = n->chat;
	ev.id = id;
	ev.sender = n->sender;
	ev.text = n->text;
	ev.ts_ms = n->ts;
	ev.notice = true;
	ev.notice_kind = n->kind;
	ev.notice_device = n->device;
	ev.state = WA_DM_RECEIVED;
	dm_emit(dm, &ev);
}

int
dm_notice_put(struct wa_dm *dm, const char *chat, const char *sender,
    int64_t ts, const char *text, char id[WA_DM_ID_MAX])
{
	struct dm_note	 n = { chat, sender, ts, text, WA_DM_NOTE_TEXT, 0,
	    NULL };

	return dm_notice_put_kind(dm, &n, id);
}

void
dm_notice_show(struct wa_dm *dm, const char *chat, const char *sender,
    int64_t ts, const char *text, const char *id)
{
	struct dm_note	 n = { chat, sender, ts, text, WA_DM_NOTE_TEXT, 0,
	    NULL };

	dm_notice_show_kind(dm, &n, id);
}

void
dm_notice_kind(struct wa_dm *dm, const char *chat, const char *sender,
    int64_t ts, const char *text, enum wa_dm_note kind, uint32_t device)
{
	struct dm_note	 n = { chat, sender, ts, text, kind, device,
	    NULL };
	char		 id[WA_DM_ID_MAX];

	if (dm_notice_put_kind(dm, &n, id) == 0)
		dm_notice_show_kind(dm, &n, id);
}

void
dm_notice(struct wa_dm *dm, const char *chat, const char *sender, int64_t ts,
    const char *text)
{
	dm_notice_kind(dm, chat, sender, ts, text, WA_DM_NOTE_TEXT, 0);
}

void
dm_name_of(struct wa_dm *dm, const char *jid, char *out, size_t len)
{
	char	 user[WA_DM_JID_MAX];

	if (!jid_user_of(jid, user, sizeof(user))) {
		snprintf(out, len, "someone");
		return;
	}
	if (dm->st->name_get(dm->st->arg, user, out, len) == 1 &&
	    out[0] != '\0')
		return;
	if (jid_is_pn(user))
		snprintf(out, len, "+%.*s", (int)strcspn(user, "@"), user);
	else
		snprintf(out, len, "someone");
}

/* --- Signal steps --- */

void
dm_pad(struct wa_dm *dm, const uint8_t *p, size_t len, struct buf *out)
{
	uint8_t	 r = 0;

	(void)dm->host.rng(dm->host.arg, &r, 1);
	wa_msg_pad(p, len, r, out);
}

int
dm_encrypt_for(struct wa_dm *dm, const char *device, bool own, const char *chat,
    const uint8_t *p, size_t len, enum wa_msg_enc_type *type, struct buf *ct)
{
	struct wa_signal_addr	 ad;
	struct buf		 dsm = BUF_INIT, plain = BUF_INIT;
	enum wa_signal_type	 st;
	int			 rc;

	if ((rc = dm_addr_of(device, &ad)) != 0)
		return rc;
	if (own) {
		if ((rc = wa_msg_wrap_dsm(p, len, chat, &dsm)) != 0)
			return rc;
		dm_pad(dm, dsm.p, dsm.len, &plain);
	} else
		dm_pad(dm, p, len, &plain);
	rc = wa_signal_encrypt(dm->sig, &ad, plain.p, plain.len, &st, ct);
	buf_release(&dsm);
	buf_release(&plain);
	if (rc == 0)
		*type = st == WA_SIGNAL_PKMSG ? WA_MSG_ENC_PKMSG :
		    WA_MSG_ENC_MSG;
	return rc;
}

int
dm_new_id(struct wa_dm *dm, int64_t now_ms, char id[WA_MSG_ID_LEN + 1])
{
	uint8_t	 rnd[WA_MSG_ID_RAND_LEN];
	char	 pn[WA_DM_JID_MAX];
	int	 rc;

	if ((rc = dm->host.rng(dm->host.arg, rnd, sizeof(rnd))) != 0)
		return rc;
	(void)jid_phone_of(dm->own_pn, pn, sizeof(pn));
	wa_msg_id(rnd, (uint64_t)(now_ms / 1000), pn[0] != '\0' ? pn : NULL,
	    id);
	return 0;
}

const uint8_t *
dm_reporting_token(struct wa_dm *dm, const char *from, const char *to,
    struct arena *a)
{
	struct job	*j = &dm->job;
	uint8_t		*tok = arena_alloc(a, WA_REPORTING_TOKEN_LEN);
	int		 rc;

	rc = wa_reporting_token(j->o.payload, j->o.payload_len, j->o.id, from,
	    to, tok);
	if (rc < 0)
		log_warn("message %s: no reporting token (%s)", j->o.id,
		    wc_strerror(rc));
	return rc == 1 ? tok : NULL;
}
