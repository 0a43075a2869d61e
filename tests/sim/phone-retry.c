/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone-retry.c -- a simulated phone answers a retry receipt for
 * a 1:1 message it sent, as phones do (protocol.md 9.6; whatsmeow
 * retry.go handleRetryReceipt): it keeps its last 1:1 messages, and
 * encrypts the one asked for again for the device that asked alone, on
 * a session built from the receipt's <keys> when it has them (a pkmsg),
 * else from a fresh bundle when the receipt's registration id is not the
 * one its session was made with, else on the session it has.  A copy for
 * one of its own companions goes as deviceSentMessage.  Loop thread only.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "nodes.h"
#include "phone.h"
#include "proto/bin.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/usync.h"
#include "proto/wa-signal.h"
#include "sim.h"

void
phone_dm_keep(struct sim_phone *p, const char *id, const char *chat,
    const char *type, const struct buf *inner)
{
	struct gsent	*d = &p->dsent[p->next_dsent++ % PHONE_GROUP_SENT_MAX];

	phone_wipe(&d->msg);
	snprintf(d->group, sizeof(d->group), "%s", chat);
	snprintf(d->id, sizeof(d->id), "%s", id);
	snprintf(d->type, sizeof(d->type), "%s", type);
	buf_append(&d->msg, inner->p, inner->len);
}

static struct gsent *
kept(struct sim_phone *p, const char *id)
{
	size_t	 i;

	for (i = 0; i < PHONE_GROUP_SENT_MAX; i++)
		if (p->dsent[i].id[0] != '\0' && strcmp(p->dsent[i].id, id) == 0)
			return &p->dsent[i];
	return NULL;
}

/* The receipt's <registration> (4 bytes BE): true and *regid. */
static bool
registration(const struct wa_node *n, uint32_t *regid)
{
	const uint8_t	*b;
	size_t		 len;

	if (!wa_node_bytes(sn_find(n, "registration"), &b, &len) || len != 4)
		return false;
	*regid = (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 |
	    (uint32_t)b[2] << 8 | b[3];
	return true;
}

/*
 * The session with addr made ready for the resend: from the <keys> of n
 * (how "keys"), else dropped when its registration id is not the
 * receipt's (phone_encrypt_for then fetches a fresh bundle: "bundle"),
 * else kept ("session").  Returns 0 or a Signal error.
 */
static int
session_for(struct sim_phone *p, const struct wa_node *n,
    const struct wa_signal_addr *addr, const char **how)
{
	struct wa_signal_bundle	 b;
	const struct wa_node	*keys = sn_find(n, "keys");
	uint32_t		 regid, had = 0;
	bool			 has_reg = registration(n, &regid);
	int			 rc;

	*how = "session";
	if (keys != NULL && has_reg &&
	    wa_usync_bundle_of(keys, regid, &b) == 0) {
		*how = "keys";
		(void)phone_session_delete(p, addr);
		return wa_signal_process_bundle(p->sig, addr, &b, NULL);
	}
	rc = wa_signal_session_check(p->sig, addr, &had, NULL);
	if (rc < 0)
		return rc;
	if (rc == 0 || (has_reg && had != regid)) {
		*how = "bundle";
		(void)phone_session_delete(p, addr);
	}
	return 0;
}

/* <message to=DEVICE id type device_fanout=false><enc count/></message>
 * of the kept message d, encrypted for device dev of t. */
static int
resend(struct sim_phone *p, const struct gsent *d, struct sim_account *t,
    uint32_t dev, bool lid, const char *device, const char *count)
{
	struct buf		 dsm = BUF_INIT;
	const struct buf	*plain = &d->msg;
	struct arena		 ar;
	struct wa_node		*parts, *msg, *enc;
	unsigned		 npk = 0;
	int			 rc;

	if (t == p->a) {	/* one of our companions: its copy */
		if ((rc = wa_msg_wrap_dsm(d->msg.p, d->msg.len, d->group,
		    &dsm)) != 0)
			return rc;
		plain = &dsm;
	}
	arena_init(&ar, 0);
	parts = sn_new(&ar, "participants");
	rc = phone_encrypt_for(p, t, dev, lid, plain, &ar, parts, false,
	    &npk);
	phone_wipe(&dsm);
	if (rc == 0 && (parts->content.kind != WA_VAL_LIST ||
	    parts->content.u.list.n != 1 || (enc = (struct wa_node *)sn_find(
	    &parts->content.u.list.v[0], "enc")) == NULL))
		rc = WC_ESTATE;
	if (rc == 0) {
		sn_attr(&ar, enc, "count", count);
		msg = sn_new(&ar, "message");
		sn_attr(&ar, msg, "id", d->id);
		phone_attr_jid(&ar, msg, "to", device);
		sn_attr(&ar, msg, "type", d->type);
		sn_attr(&ar, msg, "device_fanout", "false");
		sn_append(&ar, msg, enc);
		rc = sim_route_inject(p->s, p->a, 0, msg);
	} else if (rc == 1)
		rc = WC_ESTATE;	/* no bundle to build a session from */
	arena_release(&ar);
	return rc;
}

void
phone_dm_retry(struct sim_phone *p, const struct wa_node *n, const char *id)
{
	struct sim		*s = p->s;
	struct sim_account	*t;
	struct wa_signal_addr	 addr;
	const struct wa_node	*retry = sn_find(n, "retry");
	struct gsent		*d;
	struct wa_str		 cv;
	char			 from[PHONE_JID_MAX], user[SIM_PN_MAX];
	char			 server[32], cnt[16];
	const char		*how = "";
	uint32_t		 dev;
	bool			 lid = false;
	int			 rc;

	phone_val_jid(wa_node_attr(n, "from"), from, sizeof(from));
	if ((d = kept(p, id)) == NULL || !phone_split_jid(from, user,
	    sizeof(user), server, sizeof(server), &dev) ||
	    (t = phone_jid_account(s, from, &lid)) == NULL) {
		sim_log(s, "phone %s: retry receipt for %s from %s: nothing to "
		    "resend", p->a->pn, id, from);
		return;
	}
	cv = retry != NULL ? sn_get(retry, "count") : (struct wa_str){ "1", 1 };
	snprintf(cnt, sizeof(cnt), "%.*s", (int)cv.len, cv.p);
	if ((rc = wa_signal_addr_from_jid(from, strlen(from), &addr)) == 0 &&
	    (rc = session_for(p, n, &addr, &how)) == 0)
		rc = resend(p, d, t, dev, lid, from, cnt[0] != '\0' ? cnt :
		    "1");
	if (rc != 0) {
		sim_log(s, "phone %s: cannot answer the retry receipt for %s: "
		    "%s", p->a->pn, id, wc_strerror(rc));
		return;
	}
	p->dm_resends++;
	sim_log(s, "phone %s: message %s resent to %s (retry %s, %s)",
	    p->a->pn, id, from, cnt, how);
}
