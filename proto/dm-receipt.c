/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-receipt.c -- receipts as the message engine takes them
 * (proto/dm.h): delivery and read receipts move our messages' ticks (a
 * group's when every member is there), and retry receipts, bounded per
 * device and message, get our message again encrypted for the device
 * that asked (a group's with our SKDM, pairwise), after a fresh prekey
 * bundle when its session may be gone.  Sources: protocol.md 9.6, 10.5,
 * 11.8.
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
#include "proto/crypto.h"
#include "proto/dm-int.h"
#include "proto/group.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/usync.h"

/* --- answering a retry receipt --- */

/* Re-encrypt our message for the device that asked (9.6). */
static void
answer_retry(struct wa_dm *dm, const char *device, const char *chat,
    const char *id, unsigned cnt, int64_t t)
{
	struct wa_dm_out	 o;
	struct buf		 ct = BUF_INIT;
	enum wa_msg_enc_type	 type;
	struct arena		 a;
	struct wa_node		*msg;
	bool			 own = dm_is_own(dm, device);
	int			 rc;

	memset(&o, 0, sizeof(o));
	if ((rc = dm->st->out_get(dm->st->arg, chat, id, &o)) <= 0) {
		log_warn("retry receipt for message %s we do not have", id);
		return;
	}
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		goto out;
	rc = dm_encrypt_for(dm, device, own, chat, o.payload, o.payload_len,
	    &type, &ct);
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	if (rc != 0) {
		(void)dm_store_failed(dm, rc);
		goto out;
	}
	arena_init(&a, 1024);
	msg = wa_nb_new(&a, "message", 6);
	wa_nb_attr(msg, "id", id);
	if (wa_nb_attr_jid(msg, "to", device) != 0) {
		arena_release(&a);
		goto out;
	}
	wa_nb_attr(msg, "type", o.type[0] != '\0' ? o.type : "text");
	if (t > 0)
		wa_nb_attr_num(&a, msg, "t", t);
	wa_nb_attr(msg, "device_fanout", "false");
	if (o.edit[0] != '\0')
		wa_nb_attr(msg, "edit", o.edit);
	dm_enc_kids(dm, &a, msg, type == WA_MSG_ENC_PKMSG, cnt, &ct);
	rc = dm_send(dm, msg);
	arena_release(&a);
	if (rc == 0)
		log_info("message %s re-sent to a device that asked (%u)", id,
		    cnt);
out:
	if (rc != 0)
		log_warn("retry of message %s: %s", id, wc_strerror(rc));
	buf_release(&ct);
	wa_dm_out_release(&o);
}

/* Our message o, with our SKDM of group added, encrypted for ad into ct
 * in one transaction (10.5): 0 and *st, or an error. */
static int
seal_group_retry(struct wa_dm *dm, const struct wa_dm_out *o,
    const char *group, const struct wa_signal_addr *own,
    const struct wa_signal_addr *ad, enum wa_signal_type *st, struct buf *ct)
{
	struct buf	 sk = BUF_INIT, msg = BUF_INIT, plain = BUF_INIT;
	int		 rc;

	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	rc = wa_signal_group_skdm(dm->sig, group, own, &sk);
	if (rc == 0)
		rc = wa_group_message_add_skdm(o->payload, o->payload_len,
		    group, sk.p, sk.len, &msg);
	if (rc == 0) {
		dm_pad(dm, msg.p, msg.len, &plain);
		rc = wa_signal_encrypt(dm->sig, ad, plain.p, plain.len, st,
		    ct);
	}
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	(void)dm_store_failed(dm, rc);
	wa_crypto_wipe(plain.p, plain.len);
	buf_release(&plain);
	buf_release(&msg);
	buf_release(&sk);
	return rc;
}

/* Send our group message o again to device, pairwise, ct its copy. */
static int
send_group_retry(struct wa_dm *dm, const struct wa_dm_out *o,
    const char *device, const char *group, const char *id, bool pkmsg,
    unsigned count, const struct buf *ct)
{
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	arena_init(&a, 1024);
	n = wa_nb_new(&a, "message", 6);
	wa_nb_attr(n, "id", id);
	if (wa_nb_attr_jid(n, "to", group) != 0 ||
	    wa_nb_attr_jid(n, "participant", device) != 0) {
		arena_release(&a);
		return -EINVAL;
	}
	wa_nb_attr(n, "type", o->type[0] != '\0' ? o->type : "text");
	if (o->edit[0] != '\0')
		wa_nb_attr(n, "edit", o->edit);
	dm_enc_kids(dm, &a, n, pkmsg, count, ct);
	rc = dm_send(dm, n);
	arena_release(&a);
	if (rc == 0)
		log_info("group message %s re-sent to a device that asked",
		    id);
	return rc;
}

/* Answer a group retry once a session with device is there: our message
 * (group, id) with our SKDM, pairwise (10.5). */
static void
group_retry_answer(struct wa_dm *dm, const char *device, const char *group,
    const char *id, unsigned count)
{
	struct wa_dm_out	 o;
	struct wa_dm_group	 g;
	struct wa_signal_addr	 own, ad;
	struct buf		 ct = BUF_INIT;
	enum wa_signal_type	 st;
	char			 dev[WA_DM_JID_MAX];
	int			 rc;

	memset(&o, 0, sizeof(o));
	memset(&g, 0, sizeof(g));
	if ((rc = dm->st->out_get(dm->st->arg, group, id, &o)) <= 0) {
		log_warn("group retry for message %s we do not have", id);
		return;
	}
	if (dm->st->group_get(dm->st->arg, group, &g) != 1) {
		wa_dm_out_release(&o);
		return;
	}
	dm_own_device(dm, g.lid, dev, sizeof(dev));
	wa_dm_group_release(&g);
	if ((rc = dm_addr_of(dev, &own)) != 0 ||
	    (rc = dm_addr_of(device, &ad)) != 0)
		goto out;
	if (wa_signal_has_session(dm->sig, &ad) != 1) {
		log_warn("group retry of %s: no session with that device",
		    id);
		goto out;
	}
	if ((rc = seal_group_retry(dm, &o, group, &own, &ad, &st, &ct)) == 0)
		rc = send_group_retry(dm, &o, device, group, id,
		    st == WA_SIGNAL_PKMSG, count, &ct);
out:
	if (rc != 0)
		log_warn("group retry of %s: %s", id, wc_strerror(rc));
	buf_release(&ct);
	wa_dm_out_release(&o);
}

/* Fetch a fresh bundle of device, then answer the retry of (chat, id)
 * (dm->retry; one at a time): 0, or -EBUSY / the send's error. */
static int
retry_fetch(struct wa_dm *dm, const char *device, const char *chat,
    const char *id, unsigned count, int64_t t, bool group)
{
	struct arena	 a;
	struct wa_node	*q;
	const char	*devs[1];
	int		 rc;

	if (dm->retry.active)
		return -EBUSY;	/* one at a time; it will ask again */
	memset(&dm->retry, 0, sizeof(dm->retry));
	dm->retry.active = true;
	dm->retry.group = group;
	snprintf(dm->retry.device, sizeof(dm->retry.device), "%s", device);
	snprintf(dm->retry.chat, sizeof(dm->retry.chat), "%s", chat);
	snprintf(dm->retry.id, sizeof(dm->retry.id), "%s", id);
	dm->retry.count = count;
	dm->retry.t = t;
	dm->host.iq_id(dm->host.arg, dm->retry.iq);
	devs[0] = device;
	arena_init(&a, 512);
	if ((rc = wa_usync_keys_query(dm->retry.iq, devs, 1, &a, &q)) == 0)
		rc = dm_send(dm, q);
	if (rc != 0)
		dm->retry.active = false;
	arena_release(&a);
	return rc;
}

int
dm_retry_device(struct wa_dm *dm, const char *device, const char *chat,
    const char *id, bool group)
{
	return retry_fetch(dm, device, chat, id, 1, 0, group);
}

int
dm_retry_on_iq(struct wa_dm *dm, const struct wa_node *n)
{
	struct pending_retry	 p = dm->retry;
	struct wa_signal_bundle	 b;
	int			 rc;

	if (!dm->retry.active || !wa_str_eqc(wa_node_str(n, "id"),
	    dm->retry.iq))
		return 0;
	dm->retry.active = false;
	rc = wa_usync_bundle(n, p.device, &b);
	if (rc == 1)
		rc = dm_take_bundle(dm, p.device, &b);
	if (rc != 0) {
		log_warn("retry of %s: no bundle (%s)", p.id,
		    rc == 0 ? "none" : wc_strerror(rc));
		return 1;
	}
	if (p.group)
		group_retry_answer(dm, p.device, p.chat, p.id, p.count);
	else
		answer_retry(dm, p.device, p.chat, p.id, p.count, p.t);
	return 1;
}

/* --- our retry receipts --- */

static void
put3(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 16);
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)v;
}

/* <keys><type>05</type><identity/><key><id/><value/></key><skey><id/>
 * <value/><signature/></skey><device-identity/></keys> of k in c (9.6). */
static void
keys_node(struct wa_dm *dm, const struct wa_dm_keys *src, struct arena *a,
    struct wa_node *c)
{
	struct wa_dm_keys	*k = arena_alloc(a, sizeof(*k));
	struct wa_node		*kc, *pk, *sk;
	uint8_t			*b = arena_alloc(a, 7);

	*k = *src;	/* the node borrows its bytes */
	b[0] = 0x05;
	put3(b + 1, k->prekey_id);
	put3(b + 4, k->spk_id);
	kc = wa_nb_kids(a, wa_nb_kid(a, c, "keys", 0), 5);
	wa_nb_bytes(wa_nb_kid(a, &kc[0], "type", 0), b, 1);
	wa_nb_bytes(wa_nb_kid(a, &kc[1], "identity", 0), k->identity, 32);
	pk = wa_nb_kids(a, wa_nb_kid(a, &kc[2], "key", 0), 2);
	wa_nb_bytes(wa_nb_kid(a, &pk[0], "id", 0), b + 1, 3);
	wa_nb_bytes(wa_nb_kid(a, &pk[1], "value", 0), k->prekey_pub, 32);
	sk = wa_nb_kids(a, wa_nb_kid(a, &kc[3], "skey", 0), 3);
	wa_nb_bytes(wa_nb_kid(a, &sk[0], "id", 0), b + 4, 3);
	wa_nb_bytes(wa_nb_kid(a, &sk[1], "value", 0), k->spk_pub, 32);
	wa_nb_bytes(wa_nb_kid(a, &sk[2], "signature", 0), k->spk_sig, 64);
	wa_nb_bytes(wa_nb_kid(a, &kc[4], "device-identity", 0), dm->adv,
	    dm->adv_len);
}

/* Whether our retry receipt for m (count) carries <keys>. */
static bool
wants_keys(struct wa_dm *dm, const struct wa_msg_in *m, unsigned count)
{
	struct wa_signal_addr	 ad;
	const char		*dev = m->participant != NULL &&
			    m->participant[0] != '\0' ? m->participant : m->from;

	if (dm->host.retry_keys == NULL || dm->adv_len == 0)
		return false;
	return count >= 2 || dm_addr_of(dev, &ad) != 0 ||
	    wa_signal_session_check(dm->sig, &ad, NULL, NULL) != 1;
}

int
dm_retry_receipt(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_msg_retry_out *r, struct arena *a, struct wa_node **out)
{
	struct wa_dm_keys	 k;
	struct wa_node		*n;
	int			 rc;

	if ((rc = wa_msg_retry_receipt(r, a, &n)) != 0)
		return rc;
	*out = n;
	if (!wants_keys(dm, m, r->count))
		return 0;
	if ((rc = dm->host.retry_keys(dm->host.arg, &k)) != 0) {
		log_warn("message %s: retry receipt without keys (%s)", r->id,
		    wc_strerror(rc));
		return 0;
	}
	keys_node(dm, &k, a, wa_nb_append(a, n));
	explicit_bzero(&k, sizeof(k));
	log_info("message %s: our keys go with retry receipt %u", r->id,
	    r->count);
	return 0;
}

/* --- retry receipts --- */

/* Beyond WA_DM_RETRY_ANSWER_MAX retry receipts of device for id: true
 * (logged; ignored: no retry storm, 9.6). */
static bool
too_many_retries(struct wa_dm *dm, const char *device, const char *id)
{
	char	 key[COUNTER_KEY];

	snprintf(key, sizeof(key), "%s/%s", device, id);
	if (dm_count(dm->answered, &dm->answered_next, key) <=
	    WA_DM_RETRY_ANSWER_MAX)
		return false;
	log_warn("message %s: retry receipts beyond %u ignored", id,
	    WA_DM_RETRY_ANSWER_MAX);
	return true;
}

/* The retry receipt r of device names a registration id other than the
 * one our session with it was made with (or our session is unusable):
 * the device was reinstalled, a fresh bundle first (9.6; whatsmeow
 * retry.go compares them too).  A store error counts as changed: the
 * bundle fetch is the safe way. */
static bool
regid_changed(struct wa_dm *dm, const char *device,
    const struct wa_msg_receipt_in *r)
{
	return r->has_registration && dm_peer_regid_changed(dm, device,
	    r->registration_id) != 0;
}

/* A 1:1 retry receipt r (n its node) for our message in chat. */
static void
on_retry_receipt(struct wa_dm *dm, const struct wa_node *n,
    const struct wa_msg_receipt_in *r, const char *chat)
{
	struct wa_signal_bundle	 b;
	struct wa_signal_addr	 ad;
	int			 rc;

	if (too_many_retries(dm, r->from, r->id))
		return;
	if (r->has_keys && r->has_registration &&
	    wa_usync_bundle_of(wa_node_child(n, "keys"), r->registration_id,
	    &b) == 0) {
		if ((rc = dm_take_bundle(dm, r->from, &b)) != 0)
			log_warn("retry keys: %s", wc_strerror(rc));
	} else if (dm_addr_of(r->from, &ad) == 0 &&
	    (wa_signal_has_session(dm->sig, &ad) != 1 || r->retry_count >= 2 ||
	    regid_changed(dm, r->from, r))) {
		/* fetch a fresh bundle first, then answer */
		(void)retry_fetch(dm, r->from, chat, r->id, r->retry_count,
		    r->retry_t, false);
		return;
	}
	answer_retry(dm, r->from, chat, r->id, r->retry_count, r->retry_t);
}

/* A group member's device could not read our message: send it the
 * content and our SKDM pairwise (10.5). */
static void
on_group_retry(struct wa_dm *dm, const struct wa_msg_receipt_in *r)
{
	struct wa_signal_addr	 ad;

	if (too_many_retries(dm, r->participant, r->id))
		return;
	(void)dm->st->skr_forget(dm->st->arg, r->from, r->participant);
	if (dm_addr_of(r->participant, &ad) != 0)
		return;
	/* no session with that device, or it asked more than once (its
	 * session may be gone): a fresh bundle first (9.6) */
	if (wa_signal_has_session(dm->sig, &ad) != 1 || r->retry_count >= 2 ||
	    regid_changed(dm, r->participant, r)) {
		if (retry_fetch(dm, r->participant, r->from, r->id,
		    r->retry_count, r->retry_t, true) != 0)
			log_warn("group retry of %s: no bundle asked", r->id);
		return;
	}
	group_retry_answer(dm, r->participant, r->from, r->id,
	    r->retry_count);
}

/* --- ticks --- */

/* The tick a receipt of type (NULL: delivery) moves our message to:
 * true and *st, or false for one that shows nothing (sender, read-self,
 * peer_msg, ...). */
static bool
receipt_state(const char *type, enum wa_dm_state *st)
{
	if (type == NULL || strcmp(type, "inactive") == 0)
		*st = WA_DM_DELIVERED;	/* inactive: it reached a device */
	else if (strcmp(type, "read") == 0 || strcmp(type, "played") == 0)
		*st = WA_DM_READ;
	else
		return false;
	return true;
}

/* The time of receipt r of state st from member for our message id in
 * chat, kept for the message info (a failure is logged: the tick is what
 * counts). */
static void
rtime(struct wa_dm *dm, const struct wa_msg_receipt_in *r, const char *chat,
    const char *id, const char *member, enum wa_dm_state st)
{
	int	 rc;

	if (dm->st->receipt_time == NULL)
		return;
	rc = dm->st->receipt_time(dm->st->arg, chat, id, member, st,
	    r->t > 0 ? r->t * 1000 : dm->host.now_ms(dm->host.arg));
	if (rc < 0 && !dm_store_failed(dm, rc))
		log_warn("receipt time for %s: %s", id, wc_strerror(rc));
}

/* A group member's receipt r for our messages in group: the ticks move
 * when every member is there (protocol.md 9.6). */
static void
on_member_receipt(struct wa_dm *dm, const struct wa_msg_receipt_in *r,
    const char *group)
{
	enum wa_dm_state	 st;
	char			 member[WA_DM_JID_MAX];
	size_t			 i;
	int			 rc;

	if (!receipt_state(r->type, &st) ||
	    !jid_user_of(r->participant, member, sizeof(member)))
		return;
	for (i = 0; i < r->n_ids && !dm_store_held(dm); i++) {
		rtime(dm, r, group, r->ids[i], member, st);
		rc = dm->st->member_receipt(dm->st->arg, group, r->ids[i],
		    member, st);
		if (rc > 0)
			dm_emit_state(dm, group, r->ids[i],
			    (enum wa_dm_state)rc);
		else if (rc < 0 && !dm_store_failed(dm, rc))
			log_warn("receipt for %s: %s", r->ids[i],
			    wc_strerror(rc));
	}
}

/* Move our messages r names in chat to the tick r gives. */
static void
tick(struct wa_dm *dm, const struct wa_msg_receipt_in *r, const char *chat)
{
	enum wa_dm_state	 st;
	char			 who[WA_DM_JID_MAX];
	size_t			 i;
	int			 rc;

	if (!receipt_state(r->type, &st) || dm_is_own(dm, r->from))
		return;		/* our other device has it: no tick */
	if (!jid_user_of(r->participant != NULL ? r->participant : r->from,
	    who, sizeof(who)))
		who[0] = '\0';
	for (i = 0; i < r->n_ids && !dm_store_held(dm); i++) {
		if (who[0] != '\0')
			rtime(dm, r, chat, r->ids[i], who, st);
		rc = dm->st->out_state(dm->st->arg, chat, r->ids[i], st,
		    r->t * 1000);
		if (rc > 0)
			dm_emit_state(dm, chat, r->ids[i], st);
		else if (rc < 0 && !dm_store_failed(dm, rc))
			log_warn("receipt for %s: %s", r->ids[i],
			    wc_strerror(rc));
	}
}

static bool
is_retry(const struct wa_msg_receipt_in *r)
{
	return r->type != NULL && strcmp(r->type, "retry") == 0;
}

/* A group's receipt r (from g.us, participant set): true when handled
 * here, false when it goes on as a 1:1 receipt in the group's chat (the
 * store has no member_receipt). */
static bool
on_group_receipt(struct wa_dm *dm, const struct wa_msg_receipt_in *r)
{
	if (is_retry(r)) {
		on_group_retry(dm, r);
		return true;
	}
	if (dm_is_own(dm, r->participant))
		return true;		/* our other device: no tick */
	if (dm->st->member_receipt == NULL)
		return false;
	on_member_receipt(dm, r, r->from);
	return true;
}

void
dm_recv_receipt(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_msg_receipt_in r;
	struct arena		 a;
	const char		*why = NULL;
	char			 chat[WA_DM_JID_MAX];
	bool			 ok;
	int			 rc;

	arena_init(&a, 1024);
	if ((rc = wa_msg_receipt_parse(n, &a, &r, &why)) != 0) {
		log_warn("a malformed <receipt>: %s", why != NULL ? why :
		    wc_strerror(rc));
		dm_send_ack(dm, n, NULL);
		arena_release(&a);
		return;
	}
	/* The chat: the contact, or for our own devices the recipient. */
	if (dm_is_own(dm, r.from) && r.recipient != NULL)
		ok = jid_user_of(r.recipient, chat, sizeof(chat));
	else
		ok = jid_user_of(r.from, chat, sizeof(chat));
	if (ok && r.participant != NULL && jid_is_group(r.from)) {
		snprintf(chat, sizeof(chat), "%s", r.from);
		if (!on_group_receipt(dm, &r))
			tick(dm, &r, chat);
	} else if (ok && r.participant == NULL) {
		if (is_retry(&r))
			on_retry_receipt(dm, n, &r, chat);
		else
			tick(dm, &r, chat);
	}
	/* The ack once what it moved is stored (reliability.md rule 1):
	 * none when a tick could not be stored (the disk is full, an I/O
	 * error), so the server sends it again at the next connection,
	 * which the host makes soon (WA_DM_EV_STORE_FAILED). */
	if (dm_store_held(dm))
		log_warn("receipt %s: not stored (%s): not acked", r.id,
		    dm->full ? "disk full" : "I/O error");
	else
		dm_send_ack(dm, n, NULL);
	arena_release(&a);
}
