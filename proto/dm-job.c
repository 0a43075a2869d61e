/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-job.c -- the outbox core of the message engine (proto/dm.h,
 * proto/dm-int.h): one queued message at a time, oldest first, through
 * the phases P_DEVICES (usync device lists), P_KEYS (prekey bundles),
 * the seal (every copy encrypted in one store transaction, committed
 * before anything leaves: persist before send, reliability.md rule 1)
 * and P_ACK (the server's ack moves it to SENT, or a refusal to FAILED);
 * then the next.  What differs between a 1:1 and a group message is a
 * fan-out's (struct dm_fanout), reached only through dm->kinds.  A send
 * that fails leaves the message QUEUED for the next connection.
 * Sources: protocol.md 8, 9.4-9.6, 10.3.
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
#include "base/xmalloc.h"
#include "proto/dm-int.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/usync.h"

static void	kick_one(struct wa_dm *dm);
static void	job_fanout(struct wa_dm *dm);
static void	job_keys(struct wa_dm *dm);

void
dm_job_clear(struct wa_dm *dm)
{
	struct job	*j = &dm->job;

	free(j->users);
	free(j->asked);
	free(j->devs);
	free(j->own);
	free(j->need);
	free(j->kasked);
	free(j->got);
	wa_dm_out_release(&dm->job.o);
	memset(&dm->job, 0, sizeof(dm->job));
}

void
dm_job_fail(struct wa_dm *dm, int err, const char *why)
{
	struct wa_dm_ev	 ev;
	int		 rc;

	log_warn("message %s not sent: %s (%s)", dm->job.o.id, why,
	    wc_strerror(err));
	if ((rc = dm->st->out_state(dm->st->arg, dm->job.o.chat, dm->job.o.id,
	    WA_DM_FAILED, 0)) < 0)
		log_error("cannot mark %s failed: %s", dm->job.o.id,
		    wc_strerror(rc));
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_SEND_FAILED;
	ev.chat = dm->job.o.chat;
	ev.id = dm->job.o.id;
	ev.from_me = true;
	ev.err = err;
	ev.text = why;
	ev.state = WA_DM_FAILED;
	dm_emit(dm, &ev);
	dm_job_clear(dm);
	dm_kick(dm);
}

/*
 * Start the next queued message, if any and if idle.  A message that
 * fails at once asks for the next one through here again: a loop, not a
 * recursion, however many fail in a row.
 */
void
dm_kick(struct wa_dm *dm)
{
	if (dm->kicking) {
		dm->rekick = true;
		return;
	}
	dm->kicking = true;
	do {
		dm->rekick = false;
		kick_one(dm);
	} while (dm->rekick);
	dm->kicking = false;
}

static void
kick_one(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	int		 rc;

	if (!dm->online || j->phase != P_IDLE)
		return;
	if ((rc = dm->st->out_next(dm->st->arg, dm->cursor, &j->o)) <= 0) {
		if (rc < 0)
			log_error("outbox: %s", wc_strerror(rc));
		memset(&j->o, 0, sizeof(j->o));
		return;
	}
	dm->cursor = j->o.rowid;
	j->phase = P_DEVICES;
	j->kind = dm->kinds[jid_is_group(j->o.chat) ? DM_KIND_GROUP :
	    DM_KIND_DIRECT];
	j->kind->start(dm);
}

void
dm_job_meta(struct wa_dm *dm, const char *group, int rc, const char *why)
{
	if (dm->job.phase != P_META)
		return;
	if (rc != 0)
		dm_job_fail(dm, rc, why);
	else if (strcmp(dm->job.o.chat, group) == 0)
		dm->job.kind->start(dm);
}

/* --- P_DEVICES --- */

void
dm_job_devices(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	uint16_t	 ids[WA_USYNC_MAX_DEVICES];
	const char	*need[WA_USYNC_MAX_USERS];
	size_t		 nneed = 0, i;
	struct arena	 a;
	struct wa_node	*q;
	int		 rc;

	j->phase = P_DEVICES;
	for (i = 0; i < j->nusers && nneed < WA_USYNC_MAX_USERS; i++) {
		if (j->asked[i])
			continue;
		rc = dm->st->devices_get(dm->st->arg, j->users[i], ids,
		    WA_USYNC_MAX_DEVICES);
		if (rc < 0) {
			dm_job_fail(dm, rc, "cannot read the device list");
			return;
		}
		if (rc == 0) {
			j->asked[i] = true;
			need[nneed++] = j->users[i];
		}
	}
	if (nneed == 0) {
		job_fanout(dm);
		return;
	}
	dm->host.iq_id(dm->host.arg, j->iq);
	arena_init(&a, 1024);
	rc = wa_usync_devices_query(j->iq, j->iq, need, nneed, &a, &q);
	if (rc == 0)
		rc = dm_send(dm, q);
	arena_release(&a);
	if (rc != 0)
		log_warn("usync not sent: %s", wc_strerror(rc));
	/* a send error means the connection is going: the outbox starts
	 * again on the next one */
}

/* The device lists came: cached (with the PN-LID mappings), then the
 * next batch or the fan-out. */
static void
on_usync(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_usync_user	*u;
	char			 pn[WA_DM_JID_MAX];
	int			 k, i, rc;

	u = xcalloc(WA_USYNC_MAX_USERS, sizeof(*u));
	k = wa_usync_devices_parse(n, u, WA_USYNC_MAX_USERS);
	if (k < 0) {
		free(u);
		dm_job_fail(dm, k, "the server did not list the devices");
		return;
	}
	for (i = 0; i < k; i++) {
		if (u[i].error)
			continue;
		if ((rc = dm->st->devices_put(dm->st->arg, u[i].jid,
		    u[i].devices, (int)u[i].n_devices)) < 0)
			log_warn("cannot cache devices: %s", wc_strerror(rc));
		if (u[i].lid[0] != '\0' && jid_is_pn(u[i].jid) &&
		    jid_user_of(u[i].jid, pn, sizeof(pn)) &&
		    jid_user_of(u[i].lid, u[i].lid, sizeof(u[i].lid)))
			(void)dm->st->lid_put(dm->st->arg, pn, u[i].lid);
	}
	free(u);
	dm_job_devices(dm);
}

bool
dm_job_add_dev(struct job *j, const char *device, bool own)
{
	size_t	 cap;

	if (j->ndevs == j->capdevs) {
		if (j->capdevs >= DM_FANOUT_MAX)
			return false;
		cap = j->capdevs == 0 ? 16 : j->capdevs * 2;
		j->devs = xrealloc(j->devs, cap * sizeof(*j->devs));
		j->own = xrealloc(j->own, cap * sizeof(*j->own));
		j->need = xrealloc(j->need, cap * sizeof(*j->need));
		j->kasked = xrealloc(j->kasked, cap * sizeof(*j->kasked));
		j->got = xrealloc(j->got, cap * sizeof(*j->got));
		j->capdevs = cap;
	}
	snprintf(j->devs[j->ndevs], WA_DM_JID_MAX, "%s", device);
	j->own[j->ndevs] = own;
	j->need[j->ndevs] = true;
	j->kasked[j->ndevs] = false;
	j->got[j->ndevs] = false;
	j->ndevs++;
	return true;
}

/* Add user's cached devices ids[0..k) to the fan-out (never our own
 * device, never a hosted one): 0, or the failure's error with *why. */
static int
add_user_devs(struct wa_dm *dm, const char *user, const uint16_t *ids,
    int k, const char **why)
{
	char	 dev[WA_DM_JID_MAX];
	bool	 own = dm_is_own(dm, user);
	int	 i;

	for (i = 0; i < k; i++) {
		if (own && ids[i] == dm->own_dev)
			continue;	/* never our own device */
		if (ids[i] == 99)
			continue;	/* hosted: no fan-out (10.3) */
		if (!jid_with_device(user, ids[i], dev, sizeof(dev)))
			continue;	/* not a user JID: no device of it */
		if (!dm_job_add_dev(&dm->job, dev, own)) {
			*why = "too many devices";
			return WC_ETOOBIG;
		}
	}
	return 0;
}

/* The fan-out list from the cached device lists, then the keys. */
static void
job_fanout(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	uint16_t	 ids[WA_USYNC_MAX_DEVICES];
	const char	*why = NULL;
	size_t		 u;
	int		 k, rc;

	j->ndevs = 0;
	for (u = 0; u < j->nusers; u++) {
		k = dm->st->devices_get(dm->st->arg, j->users[u], ids,
		    WA_USYNC_MAX_DEVICES);
		if (k < 0) {
			dm_job_fail(dm, k, "cannot read the device list");
			return;
		}
		if (k == 0 && u == 0 && j->kind->contact_required) {
			/* usync knows nobody of this number */
			dm_job_fail(dm, WC_EPROTO, "the number is not on "
			    "WhatsApp");
			return;
		}
		if ((rc = add_user_devs(dm, j->users[u], ids, k, &why)) != 0) {
			dm_job_fail(dm, rc, why);
			return;
		}
	}
	if (j->kind->need != NULL && (rc = j->kind->need(dm)) != 0) {
		dm_job_fail(dm, rc, "cannot read who holds our sender key");
		return;
	}
	job_keys(dm);
}

/* --- P_KEYS --- */

/* Encrypt and send; see below. */
static void	job_seal(struct wa_dm *dm);

/* The key query for devices that need a copy and have no session, in
 * batches; then the seal. */
static void
job_keys(struct wa_dm *dm)
{
	struct job		*j = &dm->job;
	const char		*need[WA_USYNC_MAX_USERS];
	struct wa_signal_addr	 ad;
	struct arena		 a;
	struct wa_node		*q;
	size_t			 u, nneed = 0;
	int			 rc;

	for (u = 0; u < j->ndevs && nneed < WA_USYNC_MAX_USERS; u++) {
		if (!j->need[u] || j->kasked[u] ||
		    (rc = dm_addr_of(j->devs[u], &ad)) != 0)
			continue;
		/* a corrupt record counts as none: rebuilt from a bundle */
		rc = dm_peer_session(dm, j->devs[u]);
		if (rc < 0) {
			dm_job_fail(dm, rc, "cannot read a session");
			return;
		}
		if (rc == 0) {
			j->kasked[u] = true;
			need[nneed++] = j->devs[u];
		}
	}
	if (nneed == 0) {
		job_seal(dm);
		return;
	}
	j->phase = P_KEYS;
	dm->host.iq_id(dm->host.arg, j->iq);
	arena_init(&a, 1024);
	rc = wa_usync_keys_query(j->iq, need, nneed, &a, &q);
	if (rc == 0)
		rc = dm_send(dm, q);
	arena_release(&a);
	if (rc != 0)
		log_warn("key query not sent: %s", wc_strerror(rc));
}

/* The bundles came: a session for each device asked that has none, then
 * the next batch or the seal. */
static void
on_keys(struct wa_dm *dm, const struct wa_node *n)
{
	struct job		*j = &dm->job;
	struct wa_signal_bundle	 b;
	struct wa_signal_addr	 ad;
	size_t			 i;
	int			 rc;

	if (!wa_node_str_is(n, "type", "result")) {
		dm_job_fail(dm, WC_EPROTO, "the server gave no prekeys");
		return;
	}
	for (i = 0; i < j->ndevs; i++) {
		if (!j->kasked[i] || dm_addr_of(j->devs[i], &ad) != 0 ||
		    wa_signal_has_session(dm->sig, &ad) == 1)
			continue;
		rc = wa_usync_bundle(n, j->devs[i], &b);
		if (rc == 1)
			rc = dm_take_bundle(dm, j->devs[i], &b);
		if (rc != 0)
			log_warn("device %u of a contact: no session (%s)",
			    jid_device_of(j->devs[i]), rc == 0 ? "no bundle" :
			    wc_strerror(rc));
	}
	job_keys(dm);
}

/* --- the seal and the send --- */

void
dm_seal_reserve(struct dm_seal *s, size_t n)
{
	s->enc = xcalloc(n + 1, sizeof(*s->enc));
	s->ct = xcalloc(n + 1, sizeof(*s->ct));
	s->cap = n + 1;
}

static void
seal_release(struct dm_seal *s)
{
	size_t	 i;

	for (i = 0; i < s->cap; i++)
		buf_release(&s->ct[i]);
	free(s->ct);
	free(s->enc);
	buf_release(&s->skmsg);
	memset(s, 0, sizeof(*s));
}

/* The devices the seal left out (their encryption failed): each named
 * in the chat for its member, and the first sent the message again from
 * a fresh bundle, as for a retry receipt. */
static void
seal_skipped(struct wa_dm *dm, const struct dm_seal *s)
{
	struct job	*j = &dm->job;
	int		 rc;

	if (s->nskipped == 0)
		return;
	dm_peer_report(dm, s, j->o.chat);
	if ((rc = dm_retry_device(dm, s->skipped[0], j->o.chat, j->o.id,
	    jid_is_group(j->o.chat))) != 0)
		log_warn("message %s: no resend to the skipped device (%s)",
		    j->o.id, wc_strerror(rc));
}

/*
 * Every session is there: the fan-out encrypts inside one transaction,
 * which commits before the stanza is built and sent (persist before send:
 * the advanced sessions are durable before any ciphertext leaves).  A
 * send error leaves the message QUEUED: it goes again on the next
 * connection.
 */
static void
job_seal(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	const struct dm_fanout *f = j->kind;
	struct dm_seal	 s;
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	memset(&s, 0, sizeof(s));
	s.arena_len = 4096;
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0) {
		dm_job_fail(dm, rc, "cannot open a transaction");
		return;
	}
	rc = f->seal(dm, &s);
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	if (dm_store_failed(dm, rc) && dm->full) {
		/* Nothing went out and the sessions did not advance on
		 * disk: the message stays QUEUED for the next connection,
		 * not failed. */
		log_warn("message %s not sent now: the disk is full",
		    j->o.id);
		seal_release(&s);
		dm_job_clear(dm);
		dm_full_tell(dm);	/* last: may go offline */
		return;
	}
	if (rc != 0) {
		dm_job_fail(dm, rc, s.why);
		seal_release(&s);
		return;
	}
	arena_init(&a, s.arena_len);
	if ((rc = f->stanza(dm, &s, &a, &n)) != 0)
		dm_job_fail(dm, rc, s.why);
	else {
		j->phase = P_ACK;
		if ((rc = dm_send(dm, n)) != 0)
			log_warn("message %s: %s; resent on the next "
			    "connection", j->o.id, wc_strerror(rc));
		else
			log_info("%s %s sent (%zu devices, %zu pairwise "
			    "copies, %zu skipped)", f->name, j->o.id,
			    j->ndevs, s.n, s.nskipped);
		seal_skipped(dm, &s);
	}
	arena_release(&a);
	seal_release(&s);
}

/* --- P_ACK --- */

int
dm_job_on_ack(struct wa_dm *dm, const struct wa_node *n)
{
	struct job		*j = &dm->job;
	struct wa_msg_server_ack ack;
	struct arena		 a;
	char			 why[96];
	int			 rc;

	arena_init(&a, 512);
	if (wa_msg_server_ack_parse(n, &a, &ack, NULL) != 0 ||
	    j->phase != P_ACK || strcmp(ack.id, j->o.id) != 0) {
		arena_release(&a);
		return 0;
	}
	if (ack.error != NULL && strcmp(ack.error, "463") == 0 &&
	    j->kind == dm->kinds[DM_KIND_DIRECT]) {
		/* 15.6: our token issued, then once more with theirs */
		arena_release(&a);
		if (j->tok_resent || dm_tok_recover(dm) != 0)
			dm_job_fail(dm, WC_EPROTO, "the contact takes "
			    "messages only with a privacy token (error 463)");
		return 1;
	}
	if (ack.error != NULL) {
		snprintf(why, sizeof(why), "the server refused it (error %s)",
		    ack.error);
		arena_release(&a);
		dm_job_fail(dm, WC_EPROTO, why);
		return 1;
	}
	if (j->kind->acked != NULL)
		j->kind->acked(dm);
	rc = dm->st->out_state(dm->st->arg, j->o.chat, j->o.id, WA_DM_SENT,
	    ack.t > 0 ? ack.t * 1000 : dm->host.now_ms(dm->host.arg));
	arena_release(&a);
	if (rc < 0)
		log_error("cannot mark %s sent: %s", j->o.id, wc_strerror(rc));
	else if (rc > 0)
		dm_emit_state(dm, j->o.chat, j->o.id, WA_DM_SENT);
	dm_job_clear(dm);
	dm_kick(dm);
	return 1;
}

int
dm_job_on_iq(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_str	 id = wa_node_str(n, "id");

	if (dm->job.phase == P_TOKEN && wa_str_eqc(id, dm->job.iq)) {
		/* our token issued after a 463: the message once more, with
		 * the token the answer gave (15.6) */
		dm_tok_recovered(dm, n);
		dm->job.tok_resent = true;
		dm->job.phase = P_KEYS;
		job_keys(dm);
		return 1;
	}

	if (dm->job.phase == P_DEVICES && wa_str_eqc(id, dm->job.iq)) {
		on_usync(dm, n);
		return 1;
	}
	if (dm->job.phase == P_KEYS && wa_str_eqc(id, dm->job.iq)) {
		on_keys(dm, n);
		return 1;
	}
	return 0;
}

/* --- into the outbox --- */

/* A queued row of ours in chat (a user JID), quoted as given (NULLs for
 * none), with a new id into id and its time into *now.  Returns 0 or the
 * store's error. */
static int
out_insert(struct wa_dm *dm, const char *chat, const struct buf *payload,
    const char *text, const char *const quoted[3], const char *type,
    const char *edit, char id[WA_MSG_ID_LEN + 1], int64_t *now)
{
	struct wa_dm_msg m;
	char		 user[WA_DM_JID_MAX];
	int		 rc;

	*now = dm->host.now_ms(dm->host.arg);
	if (!jid_user_of(chat, user, sizeof(user)) || strcmp(user, chat) != 0)
		return -EINVAL;
	if ((rc = dm_new_id(dm, *now, id)) != 0)
		return rc;
	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.sender = "";
	m.from_me = true;
	m.ts_ms = *now;
	m.kind = WA_DM_TEXT;
	m.text = text;
	m.quoted_id = quoted[0];
	m.quoted_sender = quoted[1];
	m.quoted_text = quoted[2];
	m.state = WA_DM_QUEUED;
	m.payload = payload->p;
	m.payload_len = payload->len;
	rc = dm->st->out_insert(dm->st->arg, &m, type, edit);
	return rc < 0 ? rc : 0;
}

int
dm_job_put(struct wa_dm *dm, const char *chat, const struct buf *payload,
    const char *text, const char *type, const char *edit)
{
	static const char *const none[3] = { NULL, NULL, NULL };
	char		 id[WA_MSG_ID_LEN + 1];
	int64_t		 now;

	return out_insert(dm, chat, payload, text, none, type, edit, id, &now);
}

int
dm_job_queue(struct wa_dm *dm, const char *chat, const struct buf *payload,
    const char *text, const char *quoted_id, const char *quoted_sender,
    const char *quoted_text, const char *type, const char *edit,
    char id_out[WA_DM_ID_MAX], bool show)
{
	const char	*quoted[3] = { quoted_id, quoted_sender, quoted_text };
	char		 id[WA_MSG_ID_LEN + 1];
	int64_t		 now;
	int		 rc;

	if ((rc = out_insert(dm, chat, payload, text, quoted, type, edit, id,
	    &now)) != 0)
		return rc;
	if (id_out != NULL)
		snprintf(id_out, WA_DM_ID_MAX, "%s", id);
	if (show)
		dm_emit_queued(dm, chat, id, text, quoted_id, false, now);
	dm_kick(dm);
	return 0;
}

int
wa_dm_retry(struct wa_dm *dm, const char *chat, const char *id)
{
	int	 rc;

	if ((rc = dm->st->out_state(dm->st->arg, chat, id, WA_DM_QUEUED,
	    0)) <= 0)
		return rc;
	dm_emit_state(dm, chat, id, WA_DM_QUEUED);
	dm->cursor = 0;
	dm_kick(dm);
	return 1;
}
