/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-group.c -- a simulated phone in groups (protocol.md 10,
 * 11.2, 11.3): it processes the SKDMs it gets, decrypts skmsg into its
 * group inbox (GET /admin/mock-phone/group-inbox), sends with its own
 * sender key (the SKDM pairwise to the member devices that lack it, then
 * one skmsg), answers retry receipts for what it sent, and forgets its
 * key when a member leaves.  Loop thread only.
 */
#include "base/compat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>

#include "base/arena.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "nodes.h"
#include "phone.h"
#include "proto/bin.h"
#include "proto/group.h"
#include "proto/msg.h"
#include "proto/reporting.h"
#include "proto/wa-signal.h"
#include "sim.h"

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
    const struct wa_msg_content *c, const char *reporting)
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
	m->kind = phone_kind_name(c->kind);
	m->text = phone_dup_or_null(c->text);
	m->reporting = reporting;
	p->group_decrypted++;
}

/* Unpad (v 2) and parse plain into c; *reporting: the token of stanza n
 * against it (phone_reporting_verdict). */
static int
plain_parse(const struct wa_node *n, const struct wa_msg_in *in,
    const struct wa_msg_enc_in *e, struct buf *plain,
    struct wa_msg_content *c, const char **reporting)
{
	size_t	 len = plain->len;
	int	 rc = 0;

	if (e->v != 3)
		rc = wa_msg_unpad(plain->p, plain->len, &len);
	if (rc == 0)
		rc = wa_msg_parse(plain->p, len, c);
	if (rc == 0)
		*reporting = phone_reporting_verdict(n, in->id,
		    in->participant, in->from, plain->p, len);
	phone_wipe(plain);
	return rc;
}

/*
 * A group <message from=group participant=SENDER> (11.1): each pkmsg/msg
 * <enc> decrypted pairwise from the sender's device (its SKDM processed,
 * 11.3 step 2; a retry resend's content kept), each skmsg decrypted with
 * the sender's key; then a delivery receipt to=group participant=SENDER,
 * or a retry receipt when the content could not be read (10.5).
 */
void
phone_take_group_message(struct sim_phone *p, const struct wa_node *n,
    const struct wa_msg_in *in, struct arena *ar)
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
		const char			*rep = NULL;

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
			rc = plain_parse(n, in, e, &plain, &c, &rep);
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
			ginbox_keep(p, in, e->type_name, &c, rep);
			read = true;
		}
		wa_msg_content_release(&c);
	}
	if (failed && !read && !dup)
		phone_send_retry(p, in, SIZE_MAX, ar);
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
			phone_inject(p, r, "group receipt");
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
			phone_device_jid(v[n], PHONE_JID_MAX, g->m[i].acct,
			    g->lid, devs[k]);
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
	phone_device_jid(ownj, sizeof(ownj), a, g->lid, 0);
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
			phone_device_jid(dj, sizeof(dj), m, g->lid, devs[k]);
			gmem_key(key, sizeof(key), gjid, dj);
			if (phone_kv_find(p, key) != NULL)
				continue;
			rc = phone_encrypt_for(p, m, devs[k], g->lid,
			    &skmsg_plain, &ar, parts, false, &npk);
			if (rc < 0) {
				arena_release(&ar);
				goto fail;
			}
			if (rc > 0) {
				skipped++;
				continue;
			}
			phone_kv_set_raw(p, key, (const uint8_t *)"", 0);
			ncopies++;
		}
	}
	sim_random(&r1, 1);
	wa_msg_pad(inner.p, inner.len, r1, &padded);
	rc = wa_signal_group_encrypt(p->sig, gjid, &own, padded.p, padded.len,
	    &ct);
	phone_wipe(&padded);
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
		json_object_object_add(res, "skdm", phone_devices_json(parts));
		json_object_object_add(res, "skipped",
		    json_object_new_int64(skipped));
	}
	rc = sim_route_inject(s, a, 0, msg);
	arena_release(&ar);
	if (rc != 0)
		goto fail;
	gs = &p->gsent[p->next_gsent++ % PHONE_GROUP_SENT_MAX];
	phone_wipe(&gs->msg);
	snprintf(gs->group, sizeof(gs->group), "%s", gjid);
	snprintf(gs->id, sizeof(gs->id), "%s", id);
	buf_append(&gs->msg, inner.p, inner.len);
	sim_log(s, "phone %s: group message %s to %s: SKDM to %u devices (%u "
	    "pkmsg), %u without keys", a->pn, id, g->id, ncopies, npk,
	    skipped);
	rc = 0;
fail:
	phone_wipe(&inner);
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
void
phone_group_retry(struct sim_phone *p, const struct wa_node *n, const char *id)
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

	phone_val_jid(wa_node_attr(n, "from"), gjid, sizeof(gjid));
	phone_val_jid(wa_node_attr(n, "participant"), pj, sizeof(pj));
	for (i = 0; i < PHONE_GROUP_SENT_MAX; i++)
		if (strcmp(p->gsent[i].id, id) == 0 &&
		    strcmp(p->gsent[i].group, gjid) == 0)
			gs = &p->gsent[i];
	if (gs == NULL || (g = sim_group_find(s, gjid)) == NULL ||
	    !phone_split_jid(pj, user, sizeof(user), server, sizeof(server),
	    &dev) ||
	    (t = phone_jid_account(s, pj, &lid)) == NULL ||
	    sim_group_member(g, t) == NULL) {
		sim_log(s, "phone %s: retry receipt for %s from %s: nothing to "
		    "resend", p->a->pn, id, pj);
		return;
	}
	phone_device_jid(ownj, sizeof(ownj), p->a, g->lid, 0);
	if ((rc = wa_signal_addr_from_jid(ownj, strlen(ownj), &own)) != 0 ||
	    (rc = wa_signal_addr_from_jid(pj, strlen(pj), &addr)) != 0 ||
	    (rc = wa_signal_group_skdm(p->sig, gjid, &own, &skdm)) != 0 ||
	    (rc = wa_group_message_add_skdm(gs->msg.p, gs->msg.len, gjid,
	    skdm.p, skdm.len, &both)) != 0)
		goto out;
	(void)phone_session_delete(p, &addr);
	arena_init(&ar, 0);
	parts = sn_new(&ar, "participants");
	rc = phone_encrypt_for(p, t, dev, lid, &both, &ar, parts, false, &npk);
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
	phone_attr_jid(&ar, msg, "participant", pj);
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
	phone_wipe(&both);
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
	phone_device_jid(ownj, sizeof(ownj), a, g->lid, 0);
	if (wa_signal_addr_from_jid(ownj, strlen(ownj), &own) == 0 &&
	    (rc = wa_signal_group_forget(p->sig, gjid, &own)) < 0)
		sim_log(p->s, "phone %s: cannot drop its sender key for %s: %s",
		    a->pn, g->id, wc_strerror(rc));
	pl = (size_t)snprintf(pre, sizeof(pre), "m/%s/", gjid);
	for (i = 0; i < p->nkv;) {
		if (strncmp(p->kv[i].key, pre, pl) == 0) {
			char	*k = xstrdup(p->kv[i].key);

			/* The last row moves here. */
			phone_kv_set_raw(p, k, NULL, 0);
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
		phone_add_opt(e, "group", m->group);
		phone_add_opt(e, "id", m->id);
		phone_add_opt(e, "from", m->from);
		phone_add_opt(e, "enc", m->enc);
		json_object_object_add(e, "t", json_object_new_int64(m->t));
		phone_add_opt(e, "kind", m->kind);
		phone_add_opt(e, "text", m->text);
		if (m->reporting != NULL)
			phone_add_opt(e, "reporting", m->reporting);
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
