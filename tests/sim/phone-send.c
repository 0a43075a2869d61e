/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-send.c -- a simulated phone sends (protocol.md
 * 9.2-9.4): a text, reply or reaction to every device of the addressee
 * and, as deviceSentMessage, to its own account's companions, sessions
 * made from the devices' prekey bundles (8.1); peer messages to its own
 * companions (history sync notifications); a deeply nested reply for the
 * tests.  Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "base/arena.h"
#include "base/err.h"
#include "nodes.h"
#include "pbw.h"
#include "phone.h"
#include "proto/bin.h"
#include "proto/msg.h"
#include "proto/wa-signal.h"
#include "sim.h"

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
int
phone_encrypt_for(struct sim_phone *p, struct sim_account *t, uint32_t dev,
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

	phone_device_jid(jid, sizeof(jid), t, lid, dev);
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
	phone_wipe(&padded);
	if (rc != 0) {
		buf_release(&ct);
		return rc;
	}
	to = sn_new(ar, "to");
	phone_attr_jid(ar, to, "jid", jid);
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

	if ((rc = phone_encrypt_for(p, peer, 0, lid, inner, ar, parts, hide,
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
			rc = phone_encrypt_for(p, own[k], d->id, lid, k == 0 ?
			    inner : dsm, ar, parts, hide, &cnt->pkmsgs);
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
struct json_object *
phone_devices_json(const struct wa_node *parts)
{
	struct json_object	*devs = json_object_new_array();

	for (size_t i = 0; parts->content.kind == WA_VAL_LIST &&
	    i < parts->content.u.list.n; i++) {
		const struct wa_node	*to = &parts->content.u.list.v[i];
		const struct wa_node	*enc = sn_find(to, "enc");
		struct json_object	*o = json_object_new_object();
		struct wa_str		 et;
		char			 txt[PHONE_JID_MAX];

		phone_val_jid(wa_node_attr(to, "jid"), txt, sizeof(txt));
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
 * with stanza type (and edit, may be NULL; mediatype on each <enc>,
 * protocol-features.md 1.7, may be NULL): a copy for every device of
 * the addressee, a deviceSentMessage for every companion of p's account
 * (9.2), routed as p's device would send it.  Fills id (the message id).
 * Returns 0; -EINVAL (chat is not a user JID of a known other account),
 * or a Signal error.
 */
int
phone_send_msg(struct sim_phone *p, const char *chat, const struct buf *inner,
    const char *type, const char *edit, const char *mediatype,
    char id[WA_MSG_ID_LEN + 1],
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

	if (!phone_split_jid(chat, user, sizeof(user), server, sizeof(server),
	    &dev) || dev != 0 || (peer = phone_jid_account(s, chat, &lid)) ==
	    NULL || peer == me)
		return -EINVAL;
	/* A message too deep to wrap (a hostile test message) goes to the
	 * addressee only: no copy for the own companions. */
	if (wa_msg_wrap_dsm(inner->p, inner->len, chat, &dsm) != 0)
		dsm.len = 0;
	hide = strcmp(type, "reaction") == 0 || edit != NULL;
	sim_random(rnd, sizeof(rnd));
	wa_msg_id(rnd, (uint64_t)time(NULL), me->pn, id);
	if (s->next_msg_id[0] != '\0') {	/* a test named it */
		memcpy(id, s->next_msg_id, sizeof(s->next_msg_id));
		s->next_msg_id[0] = '\0';
	}
	arena_init(&ar, 0);
	parts = sn_new(&ar, "participants");
	rc = encrypt_all(p, peer, lid, inner, &dsm, &ar, parts, hide, &cnt);
	buf_release(&dsm);
	if (rc < 0) {
		arena_release(&ar);
		return rc;
	}
	for (size_t i = 0; mediatype != NULL && parts->content.kind ==
	    WA_VAL_LIST && i < parts->content.u.list.n; i++) {
		struct wa_node	*enc = (struct wa_node *)sn_find(
		    &parts->content.u.list.v[i], "enc");

		if (enc != NULL)
			sn_attr(&ar, enc, "mediatype", mediatype);
	}
	msg = sn_new(&ar, "message");
	sn_attr(&ar, msg, "id", id);
	phone_attr_jid(&ar, msg, "to", chat);
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
	devs = phone_devices_json(parts);
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
	phone_entry_log_add(&p->sent, &p->nsent, &p->sent_cap, &e);
	phone_dm_keep(p, id, chat, type, inner);
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
	if ((rc = phone_encrypt_for(p, a, dev, false, msg, &ar, parts, false,
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
	phone_device_jid(from, sizeof(from), a, false, 0);
	rc = sim_route_queue(s, SIM_ROUTE_MESSAGE, id, "text", from, a, dev,
	    false, etype, m);
	arena_release(&ar);
	return rc < 0 ? WC_EPROTO : 0;
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

	sim_pb_ld(&cur, 1, (const uint8_t *)"the bottom", 10);
	for (i = 0; i < nest; i++) {
		ci.len = ext.len = 0;
		sim_pb_ld(&ci, 3, cur.p, cur.len);	/* quotedMessage */
		sim_pb_ld(&ext, 1, (const uint8_t *)"deeper", 6);
		sim_pb_ld(&ext, 17, ci.p, ci.len);	/* contextInfo */
		cur.len = 0;
		sim_pb_ld(&cur, 6, ext.p, ext.len);	/* extendedText */
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
		    "", phone_now_ms(NULL), &inner);
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
		rc = phone_send_msg(a->phone, req->to, &inner, type, NULL, NULL, id,
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
