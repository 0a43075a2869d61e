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
 * it, then one skmsg) and answers retry receipts for what it sent.
 *
 * This file holds the phone itself, its JIDs, receiving 1:1 messages and
 * receipts, the seam the router calls (sim_phone_take), reinstalling,
 * and the admin report; the Signal tables are in phone-store.c, sending
 * in phone-send.c, groups in phone-group.c, the echo and chatty contacts
 * in phone-chatty.c.  Loop thread only.
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
#include "base/xmalloc.h"
#include "nodes.h"
#include "phone.h"
#include "proto/bin.h"
#include "proto/history.h"
#include "proto/msg.h"
#include "proto/reporting.h"
#include "proto/wa-signal.h"
#include "sim.h"

int64_t
phone_now_ms(void *arg)
{
	struct timespec	 ts;

	(void)arg;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}


int
sim_phone_new(struct sim *s, struct sim_account *a, struct sim_phone **out)
{
	struct sim_phone	*p = xcalloc(1, sizeof(*p));
	int			 rc;

	p->s = s;
	p->a = a;
	phone_store_init(p);
	if ((rc = wa_signal_new(&p->ops, phone_now_ms, NULL, &p->sig)) != 0) {
		sim_phone_free(p);
		return rc;
	}
	*out = p;
	return 0;
}

void
phone_entry_log_add(struct entry **v, size_t *n, size_t *cap,
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
	free(m->vote);
	free(m->poll_secret);
	free(m->dsm_destination);
}

void
sim_phone_free(struct sim_phone *p)
{
	size_t	 i;

	if (p == NULL)
		return;
	wa_signal_free(p->sig);
	phone_store_release(p);
	for (i = 0; i < p->nin; i++)
		inbox_release(&p->in[i]);
	free(p->in);
	free(p->rcpt);
	free(p->sent);
	for (i = 0; i < p->ngin; i++)
		free(p->gin[i].text);
	free(p->gin);
	for (i = 0; i < PHONE_GROUP_SENT_MAX; i++) {
		phone_wipe(&p->gsent[i].msg);
		phone_wipe(&p->dsent[i].msg);
	}
	free(p);
}

/* --- JIDs --- */

/* Split "user[:device]@server" (user digits).  Returns false otherwise. */
bool
phone_split_jid(const char *jid, char *user, size_t ulen, char *server,
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
struct sim_account *
phone_jid_account(struct sim *s, const char *jid, bool *lid)
{
	char		 user[SIM_PN_MAX], server[32];
	uint32_t	 dev;

	if (!phone_split_jid(jid, user, sizeof(user), server, sizeof(server),
	    &dev))
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

void
phone_device_jid(char *out, size_t len, const struct sim_account *a, bool lid,
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
void
phone_attr_jid(struct arena *ar, struct wa_node *n, const char *key,
    const char *jid)
{
	char		 user[SIM_PN_MAX], server[32];
	uint32_t	 dev;

	if (phone_split_jid(jid, user, sizeof(user), server, sizeof(server),
	    &dev))
		sn_attr_jid(ar, n, key, user, server, (uint16_t)dev);
	else
		sn_attr(ar, n, key, jid);
}

/* The text of JID (or string) value v into out ("" when absent). */
void
phone_val_jid(const struct wa_val *v, char *out, size_t len)
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

/* --- receiving --- */

void
phone_inject(struct sim_phone *p, struct wa_node *n, const char *what)
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

char *
phone_dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

const char *
phone_kind_name(enum wa_msg_kind k)
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
	case WA_MSG_MEDIA:	return "media";
	case WA_MSG_RICH:	return "rich";
	case WA_MSG_POLL_VOTE:	return "poll-vote";
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

const char *
phone_reporting_verdict(const struct wa_node *n, const char *id,
    const char *sender, const char *chat, const uint8_t *msg, size_t len)
{
	const uint8_t	*got;
	uint8_t		 want[WA_REPORTING_TOKEN_LEN];
	char		 from[PHONE_JID_MAX];
	const char	*at, *colon;
	int		 rc;

	if ((rc = wa_reporting_find(n, &got)) == 0)
		return "absent";
	if (rc < 0 || (at = strchr(sender, '@')) == NULL)
		return "mismatched";
	colon = strchr(sender, ':');
	if (colon != NULL && colon < at)
		snprintf(from, sizeof(from), "%.*s%s", (int)(colon - sender),
		    sender, at);
	else
		snprintf(from, sizeof(from), "%s", sender);
	if (wa_reporting_token(msg, len, id, from, chat, want) != 1)
		return "mismatched";
	return memcmp(got, want, sizeof(want)) == 0 ? "matched" : "mismatched";
}

/* Decrypt one <enc> of stanza n; returns 1 when read, 0 for a duplicate,
 * or an error (a retry receipt is due). */
static int
receive_enc(struct sim_phone *p, const struct wa_node *n,
    const struct wa_msg_in *in, const struct wa_msg_enc_in *e,
    struct wa_msg_content *c, struct inbox **m, struct buf *keep)
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
	if (rc == 0)
		phone_media_take(p, in->id, in->from, plain.p, len);
	if (rc == 0 && *m != NULL && c->dsm_destination == NULL) {
		char	 me[PHONE_JID_MAX];

		/* To us, in the namespace of the sender's JID. */
		phone_device_jid(me, sizeof(me), p->a,
		    strstr(in->from, "@lid") != NULL, 0);
		(*m)->reporting = phone_reporting_verdict(n, in->id, in->from,
		    me, plain.p, len);
	}
	/* A peerDataOperationRequestMessage (history on demand, 12.4) or
	 * an app-state key request (protocol-features.md 2.3): the
	 * Message itself goes to history.c or appstate.c. */
	if (rc == 0 && c->kind == WA_MSG_PROTOCOL && (c->protocol_type ==
	    WA_HIST_PROTO_PDO_REQ || c->protocol_type == PHONE_AS_KEY_REQ)) {
		keep->len = 0;
		buf_append(keep, plain.p, len);
	}
out:
	phone_wipe(&plain);
	if (rc != 0) {
		if (*m != NULL)
			(*m)->err = rc;
		return rc;
	}
	return 1;
}

/* A retry receipt for m (9.6), at most PHONE_RETRY_MAX per message and
 * sender; marks inbox row fail_idx retried. */
void
phone_send_retry(struct sim_phone *p, const struct wa_msg_in *m,
    size_t fail_idx, struct arena *ar)
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
	phone_inject(p, r, "retry receipt");
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
		phone_inject(p, r, "receipt");
}

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
	int32_t			 pdo_type = 0;
	int			 rc;

	arena_init(&ar, 0);
	if ((rc = wa_msg_stanza_parse(n, &ar, &in, &why)) != 0) {
		sim_log(s, "phone %s: unreadable message stanza: %s",
		    p->a->pn, why != NULL ? why : wc_strerror(rc));
		arena_release(&ar);
		return;
	}
	if (strstr(in.from, "@g.us") != NULL) {
		phone_take_group_message(p, n, &in, &ar);
		arena_release(&ar);
		return;
	}
	sender = phone_jid_account(s, in.from, &sender_lid);
	for (i = 0; i < in.n_encs; i++) {
		const struct wa_msg_enc_in	*e = &in.encs[i];
		struct wa_msg_content		 c;
		struct inbox			*m;

		if (e->type != WA_MSG_ENC_MSG && e->type != WA_MSG_ENC_PKMSG)
			continue;
		memset(&c, 0, sizeof(c));
		rc = receive_enc(p, n, &in, e, &c, &m, &pdo);
		if (rc > 0 && c.kind == WA_MSG_PROTOCOL)
			pdo_type = c.protocol_type;
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
			m->kind = phone_kind_name(c.kind);
			m->text = phone_dup_or_null(c.text);
			m->quoted_id = phone_dup_or_null(c.quoted_id);
			m->emoji = phone_dup_or_null(c.emoji);
			m->target_id = phone_dup_or_null(c.target.id);
			m->vote = sim_phone_vote_hex(&c);
			m->poll_secret = sim_phone_poll_secret_hex(&c);
			m->dsm_destination = phone_dup_or_null(
			    c.dsm_destination);
			m->forwarded = c.forwarded;
			m->eph = c.eph == WA_MSG_EPH_SETTING ? "setting" :
			    c.eph == WA_MSG_EPH_CONTENT ? "content" : NULL;
			m->eph_secs = c.eph_secs;
		}
		sim_log(s, "phone %s: message %s from %s (%s, %s%s)",
		    p->a->pn, in.id, in.from, e->type_name,
		    phone_kind_name(c.kind), c.dsm_destination != NULL ?
		    ", sent by an own device" : "");
		if (p->a->echo && sender != NULL && sender != p->a &&
		    !sender->echo && c.dsm_destination == NULL &&
		    (c.kind == WA_MSG_TEXT || c.kind == WA_MSG_REPLY) &&
		    c.text != NULL) {
			char	 chat[PHONE_JID_MAX];

			phone_device_jid(chat, sizeof(chat), sender,
			    sender_lid, 0);
			phone_echo_schedule(p, in.from, chat, in.id, c.text);
		}
		wa_msg_content_release(&c);
	}
	if (failed && !read && !dup)
		phone_send_retry(p, &in, fail_idx, &ar);
	else if (read || dup)
		send_delivered(p, &in, sender == p->a, &ar);
	if (pdo.len > 0 && sender == p->a && pdo_type == PHONE_AS_KEY_REQ)
		/* From our own companion: keys it lacks (appstate.c). */
		sim_as_key_request(s, p->a, in.from, pdo.p, pdo.len);
	else if (pdo.len > 0 && sender == p->a)
		/* From our own companion: history on demand (history.c). */
		sim_hist_on_demand(s, p->a, in.from, in.id, pdo.p, pdo.len);
	phone_wipe(&pdo);
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
	phone_val_jid(wa_node_attr(n, "from"), e.peer, sizeof(e.peer));
	e.t = (int64_t)time(NULL);
	phone_entry_log_add(&p->rcpt, &p->nrcpt, &p->rcpt_cap, &e);
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

				phone_val_jid(wa_node_attr(n, "from"), from,
				    sizeof(from));
				sim_hist_receipt(j->s, j->a, j->id, from);
			}
			if (strcmp(j->type, "retry") == 0 &&
			    wa_node_attr(n, "participant") != NULL)
				phone_group_retry(j->a->phone, n, j->id);
			else if (strcmp(j->type, "retry") == 0)
				phone_dm_retry(j->a->phone, n, j->id);
			else if (strcmp(j->type, "server-error") == 0)
				phone_media_retry(j->a->phone, n, j->id);
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
			phone_kv_set_raw(p, k, NULL, 0);
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

/* --- the admin report --- */

void
phone_add_opt(struct json_object *o, const char *key, const char *v)
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

		phone_add_opt(o, "id", v[i].id);
		phone_add_opt(o, sends ? "to" : "from", v[i].peer);
		phone_add_opt(o, "type", v[i].type);
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
	json_object_object_add(o, "dm_resends",
	    json_object_new_int64((int64_t)p->dm_resends));
	json_object_object_add(o, "echoes",
	    json_object_new_int64((int64_t)p->echoes));
	for (i = 0; i < p->nin; i++) {
		const struct inbox	*m = &p->in[i];
		struct json_object	*e = json_object_new_object();

		json_object_object_add(e, "seq",
		    json_object_new_int64((int64_t)m->seq));
		phone_add_opt(e, "id", m->id);
		phone_add_opt(e, "from", m->from);
		if (m->recipient[0] != '\0')
			phone_add_opt(e, "recipient", m->recipient);
		phone_add_opt(e, "enc", m->enc);
		json_object_object_add(e, "t", json_object_new_int64(m->t));
		json_object_object_add(e, "offline",
		    json_object_new_boolean(m->offline));
		if (m->err != 0) {
			phone_add_opt(e, "error", wc_strerror(m->err));
			json_object_object_add(e, "retried",
			    json_object_new_boolean(m->retried));
		} else {
			phone_add_opt(e, "kind", m->kind);
			phone_add_opt(e, "text", m->text);
			phone_add_opt(e, "quoted_id", m->quoted_id);
			phone_add_opt(e, "emoji", m->emoji);
			phone_add_opt(e, "target_id", m->target_id);
			phone_add_opt(e, "vote", m->vote);
			phone_add_opt(e, "poll_secret", m->poll_secret);
			phone_add_opt(e, "dsm_destination", m->dsm_destination);
			if (m->eph != NULL) {
				phone_add_opt(e, "ephemeral", m->eph);
				json_object_object_add(e, "expiration",
				    json_object_new_int64(m->eph_secs));
			}
			if (m->reporting != NULL)
				phone_add_opt(e, "reporting", m->reporting);
			if (m->forwarded > 0)
				json_object_object_add(e, "forwarded",
				    json_object_new_int64(m->forwarded));
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
