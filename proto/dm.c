/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/dm.c -- 1:1 messaging in the engine (proto/dm.h). */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "dm"
#include "base/arena.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "proto/dm.h"
#include "proto/history.h"
#include "base/err.h"
#include "base/log.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/usync.h"
#include "base/xmalloc.h"
#include "proto/dm-int.h"

#define MAX_FANOUT	(2 * WA_USYNC_MAX_DEVICES)	/* 1:1 */

void
wa_dm_out_release(struct wa_dm_out *o)
{
	free(o->payload);
	memset(o, 0, sizeof(*o));
}

/* --- small helpers --- */

void
dm_emit(struct wa_dm *dm, const struct wa_dm_ev *ev)
{
	dm->on_event(dm->ev_arg, ev);
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

int
dm_send(struct wa_dm *dm, const struct wa_node *n)
{
	return dm->host.send(dm->host.arg, n);
}

/* "user[:dev]@server" -> "user@server" in out; false when not a JID. */
bool
dm_user_of(const char *jid, char *out, size_t len)
{
	const char	*at = strchr(jid, '@'), *colon;
	size_t		 ulen;
	int		 k;

	if (at == NULL || at == jid)
		return false;
	colon = memchr(jid, ':', (size_t)(at - jid));
	ulen = (size_t)((colon != NULL ? colon : at) - jid);
	k = snprintf(out, len, "%.*s%s", (int)ulen, jid, at);
	return k > 0 && (size_t)k < len;
}

/* The device number of an AD-JID (0 without one). */
unsigned
dm_device_of(const char *jid)
{
	const char	*at = strchr(jid, '@'), *colon;

	if (at == NULL)
		return 0;
	colon = memchr(jid, ':', (size_t)(at - jid));
	return colon != NULL ? (unsigned)strtoul(colon + 1, NULL, 10) : 0;
}

const char *
dm_server_of(const char *jid)
{
	const char	*at = strchr(jid, '@');

	return at != NULL ? at + 1 : "";
}

bool
dm_same_user(const char *a, const char *b)
{
	char	 ua[WA_DM_JID_MAX], ub[WA_DM_JID_MAX];

	return a[0] != '\0' && b[0] != '\0' && dm_user_of(a, ua, sizeof(ua)) &&
	    dm_user_of(b, ub, sizeof(ub)) && strcmp(ua, ub) == 0;
}

/* One of our own accounts' JIDs (PN or LID)? */
bool
dm_is_own(const struct wa_dm *dm, const char *jid)
{
	return dm_same_user(jid, dm->own_pn) || dm_same_user(jid, dm->own_lid);
}

/* Bump the counter of key; returns its new value. */
static unsigned
count(struct counter *c, size_t *next, const char *key)
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

int
dm_addr_of(const char *jid, struct wa_signal_addr *a)
{
	return wa_signal_addr_from_jid(jid, strlen(jid), a);
}

/* Store a notice line in chat and tell the UI. */
void
dm_notice(struct wa_dm *dm, const char *chat, const char *sender, int64_t ts,
    const char *text)
{
	struct wa_dm_msg m;
	struct wa_dm_ev	 ev;
	char		 id[WA_DM_ID_MAX];
	uint8_t		 r[8];
	int		 rc;

	if (dm->host.rng(dm->host.arg, r, sizeof(r)) != 0)
		memset(r, 0, sizeof(r));
	snprintf(id, sizeof(id), "wachat-notice-%02X%02X%02X%02X%02X%02X%02X"
	    "%02X", r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7]);
	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.sender = sender;
	m.ts_ms = ts;
	m.kind = WA_DM_NOTICE;
	m.text = text;
	m.state = WA_DM_RECEIVED;
	if ((rc = dm->st->in_insert(dm->st->arg, &m)) < 0) {
		log_warn("cannot store a notice: %s", wc_strerror(rc));
		return;
	}
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_MESSAGE;
	ev.chat = chat;
	ev.id = id;
	ev.sender = sender;
	ev.text = text;
	ev.ts_ms = ts;
	ev.notice = true;
	ev.state = WA_DM_RECEIVED;
	dm_emit(dm, &ev);
}

void
dm_name_of(struct wa_dm *dm, const char *jid, char *out, size_t len)
{
	char	 user[WA_DM_JID_MAX];

	if (!dm_user_of(jid, user, sizeof(user))) {
		snprintf(out, len, "someone");
		return;
	}
	if (dm->st->name_get(dm->st->arg, user, out, len) == 1 &&
	    out[0] != '\0')
		return;
	if (strcmp(dm_server_of(user), "s.whatsapp.net") == 0)
		snprintf(out, len, "+%.*s", (int)strcspn(user, "@"), user);
	else
		snprintf(out, len, "someone");
}

/* --- lifecycle --- */

int
wa_dm_new(const struct wa_dm_host *host, const struct wa_dm_store_ops *st,
    struct wa_signal *sig, const struct wa_dm_cfg *cfg,
    wa_dm_event_fn on_event, void *ev_arg, struct wa_dm **out)
{
	struct wa_dm	*dm;

	if (host == NULL || st == NULL || sig == NULL || cfg == NULL ||
	    on_event == NULL || host->send == NULL || host->iq_id == NULL ||
	    host->now_ms == NULL || host->rng == NULL ||
	    st->out_insert == NULL || st->out_next == NULL ||
	    st->out_get == NULL || st->out_state == NULL ||
	    st->out_delete == NULL ||
	    st->in_insert == NULL || st->change == NULL ||
	    st->react == NULL || st->mark_read == NULL ||
	    st->push_name == NULL || st->lid_put == NULL ||
	    st->devices_get == NULL || st->devices_put == NULL ||
	    st->tx_begin == NULL || st->tx_commit == NULL ||
	    st->tx_rollback == NULL || st->group_get == NULL ||
	    st->group_put == NULL || st->group_subject == NULL ||
	    st->group_member == NULL || st->group_left == NULL ||
	    st->skr_has == NULL || st->skr_put == NULL ||
	    st->skr_forget == NULL || st->name_get == NULL)
		return -EINVAL;
	dm = xcalloc(1, sizeof(*dm));
	dm->host = *host;
	dm->st = st;
	dm->sig = sig;
	dm->cfg = *cfg;
	dm->on_event = on_event;
	dm->ev_arg = ev_arg;
	*out = dm;
	return 0;
}

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
wa_dm_online(struct wa_dm *dm, const char *own_jid, const char *own_lid,
    const char *push_name, uint32_t registration_id, const uint8_t *adv,
    size_t adv_len)
{
	dm->online = true;
	snprintf(dm->own_jid, sizeof(dm->own_jid), "%s", own_jid);
	if (!dm_user_of(own_jid, dm->own_pn, sizeof(dm->own_pn)))
		dm->own_pn[0] = '\0';
	if (own_lid == NULL || !dm_user_of(own_lid, dm->own_lid,
	    sizeof(dm->own_lid)))
		dm->own_lid[0] = '\0';
	dm->own_dev = dm_device_of(own_jid);
	snprintf(dm->push_name, sizeof(dm->push_name), "%s",
	    push_name != NULL ? push_name : "");
	dm->regid = registration_id;
	dm->adv = adv;
	dm->adv_len = adv_len;
	dm->cursor = 0;
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
	memset(&dm->retry, 0, sizeof(dm->retry));
}

/* --- sending: the outbox --- */


/* The job's message failed for good: mark it, tell the UI, go on. */
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

static void	kick_one(struct wa_dm *dm);
static void	job_fanout(struct wa_dm *dm);
static void	dm_job_encrypt(struct wa_dm *dm);

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
	const char	*own;
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
	if (strcmp(dm_server_of(j->o.chat), "g.us") == 0) {
		j->group = true;
		dm_group_job_start(dm);
		return;
	}
	/* The whole stanza uses the chat's namespace (9.4). */
	own = strcmp(dm_server_of(j->o.chat), "lid") == 0 &&
	    dm->own_lid[0] != '\0' ? dm->own_lid : dm->own_pn;
	j->users = xcalloc(2, sizeof(*j->users));
	j->asked = xcalloc(2, sizeof(*j->asked));
	j->nusers = 2;
	if (!dm_user_of(j->o.chat, j->users[0], sizeof(j->users[0]))) {
		dm_job_fail(dm, -EINVAL, "not a contact's JID");
		return;
	}
	snprintf(j->users[1], sizeof(j->users[1]), "%s", own);
	dm_job_devices(dm);
}

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
		if (u[i].lid[0] != '\0' && strcmp(dm_server_of(u[i].jid),
		    "s.whatsapp.net") == 0 && dm_user_of(u[i].jid, pn,
		    sizeof(pn)) && dm_user_of(u[i].lid, u[i].lid,
		    sizeof(u[i].lid)))
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

/* The fan-out list from the cached device lists, then the keys. */
static void
job_fanout(struct wa_dm *dm)
{
	struct job	*j = &dm->job;
	uint16_t	 ids[WA_USYNC_MAX_DEVICES];
	char		 dev[WA_DM_JID_MAX];
	size_t		 u;
	int		 k, i, rc;

	j->ndevs = 0;
	for (u = 0; u < j->nusers; u++) {
		const char	*at = strchr(j->users[u], '@');
		bool		 own = dm_is_own(dm, j->users[u]);

		k = dm->st->devices_get(dm->st->arg, j->users[u], ids,
		    WA_USYNC_MAX_DEVICES);
		if (k < 0) {
			dm_job_fail(dm, k, "cannot read the device list");
			return;
		}
		if (k == 0 && u == 0 && !j->group) {
			/* usync knows nobody of this number */
			dm_job_fail(dm, WC_EPROTO, "the number is not on "
			    "WhatsApp");
			return;
		}
		for (i = 0; i < k; i++) {
			if (own && ids[i] == dm->own_dev)
				continue;	/* never our own device */
			if (ids[i] == 99)
				continue;	/* hosted: no fan-out (10.3) */
			if (ids[i] == 0)
				snprintf(dev, sizeof(dev), "%s", j->users[u]);
			else
				snprintf(dev, sizeof(dev), "%.*s:%u%s",
				    (int)(at - j->users[u]), j->users[u],
				    ids[i], at);
			if (!dm_job_add_dev(j, dev, own)) {
				dm_job_fail(dm, WC_ETOOBIG, "too many "
				    "devices");
				return;
			}
		}
	}
	if (j->group && (rc = dm_group_job_need(dm)) != 0) {
		dm_job_fail(dm, rc, "cannot read who holds our sender key");
		return;
	}
	dm_job_keys(dm);
}

/* The key query for devices that need a copy and have no session, in
 * batches; then the encryption. */
void
dm_job_keys(struct wa_dm *dm)
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
		rc = wa_signal_has_session(dm->sig, &ad);
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
		if (j->group)
			dm_group_job_encrypt(dm);
		else
			dm_job_encrypt(dm);
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

/* Build a session from a bundle; a changed identity becomes a notice. */
int
dm_take_bundle(struct wa_dm *dm, const char *device,
    const struct wa_signal_bundle *b)
{
	struct wa_signal_addr	 ad;
	bool			 changed = false;
	char			 chat[WA_DM_JID_MAX];
	int			 rc;

	if ((rc = dm_addr_of(device, &ad)) != 0)
		return rc;
	if ((rc = wa_signal_process_bundle(dm->sig, &ad, b, &changed)) != 0)
		return rc;
	if (changed && dm_user_of(device, chat, sizeof(chat)) &&
	    !dm_is_own(dm, device))
		dm_notice(dm, chat, chat, dm->host.now_ms(dm->host.arg),
		    "security code changed");
	return 0;
}

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
			    dm_device_of(j->devs[i]), rc == 0 ? "no bundle" :
			    wc_strerror(rc));
	}
	dm_job_keys(dm);
}

/* Pad with one random byte's worth (9.3). */
void
dm_pad(struct wa_dm *dm, const uint8_t *p, size_t len, struct buf *out)
{
	uint8_t	 r = 0;

	(void)dm->host.rng(dm->host.arg, &r, 1);
	wa_msg_pad(p, len, r, out);
}

/*
 * Encrypt payload p for device (wrapped in deviceSentMessage for chat
 * when own); appends the ciphertext to *ct.
 */
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

static void
dm_job_encrypt(struct wa_dm *dm)
{
	struct job		*j = &dm->job;
	struct wa_msg_enc_out	 enc[MAX_FANOUT];
	struct buf		 ct[MAX_FANOUT];
	struct wa_msg_send	 s;
	struct wa_signal_addr	 ad;
	struct arena		 a;
	struct wa_node		*n;
	size_t			 i, ne = 0, npeer = 0;
	int			 rc = 0;

	memset(ct, 0, sizeof(ct));
	if (j->ndevs > MAX_FANOUT) {
		dm_job_fail(dm, WC_ETOOBIG, "too many devices");
		return;
	}
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0) {
		dm_job_fail(dm, rc, "cannot open a transaction");
		return;
	}
	for (i = 0; i < j->ndevs; i++) {
		if (dm_addr_of(j->devs[i], &ad) != 0 ||
		    wa_signal_has_session(dm->sig, &ad) != 1)
			continue;	/* no bundle: skipped (logged) */
		rc = dm_encrypt_for(dm, j->devs[i], j->own[i], j->users[0],
		    j->o.payload, j->o.payload_len, &enc[ne].type, &ct[ne]);
		if (rc != 0)
			break;
		enc[ne].jid = j->devs[i];
		enc[ne].ct = ct[ne].p;
		enc[ne].ct_len = ct[ne].len;
		ne++;
		if (!j->own[i])
			npeer++;
	}
	/* Persist before send: the advanced sessions are durable before
	 * any ciphertext leaves. */
	if (rc == 0 && npeer > 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	if (rc == 0 && npeer == 0) {
		for (i = 0; i < ne; i++)
			buf_release(&ct[i]);
		dm_job_fail(dm, WC_ENOSESSION, "no device of the contact could "
		    "be reached");
		return;
	}
	if (rc != 0) {
		for (i = 0; i < ne; i++)
			buf_release(&ct[i]);
		dm_job_fail(dm, rc, "cannot encrypt");
		return;
	}
	memset(&s, 0, sizeof(s));
	s.id = j->o.id;
	s.to = j->users[0];
	s.type = j->o.type[0] != '\0' ? j->o.type : "text";
	s.edit = j->o.edit[0] != '\0' ? j->o.edit : NULL;
	s.encs = enc;
	s.n_encs = ne;
	s.device_identity = dm->adv;
	s.device_identity_len = dm->adv_len;
	arena_init(&a, 4096);
	rc = wa_msg_stanza(&s, &a, &n);
	if (rc == 0) {
		j->phase = P_ACK;
		if ((rc = dm_send(dm, n)) != 0)
			log_warn("message %s: %s; resent on the next "
			    "connection", j->o.id, wc_strerror(rc));
		else
			log_info("message %s sent to %zu devices", j->o.id,
			    ne);
	}
	arena_release(&a);
	for (i = 0; i < ne; i++)
		buf_release(&ct[i]);
	if (rc != 0 && j->phase != P_ACK)
		dm_job_fail(dm, rc, "cannot build the stanza");
}

/* The server's ack of our message (9.6). */
static int
dm_on_server_ack(struct wa_dm *dm, const struct wa_node *n)
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
	if (ack.error != NULL) {
		snprintf(why, sizeof(why), "the server refused it (error %s)",
		    ack.error);
		arena_release(&a);
		dm_job_fail(dm, WC_EPROTO, why);
		return 1;
	}
	if (j->group)
		dm_group_job_acked(dm);
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

/* --- commands --- */

static int
queue(struct wa_dm *dm, const char *chat, const struct buf *payload,
    const char *text, const char *quoted_id, const char *quoted_sender,
    const char *quoted_text, const char *type, const char *edit,
    char id_out[WA_DM_ID_MAX], bool show)
{
	struct wa_dm_msg m;
	struct wa_dm_ev	 ev;
	uint8_t		 rnd[WA_MSG_ID_RAND_LEN];
	char		 id[WA_MSG_ID_LEN + 1], user[WA_DM_JID_MAX], pnu[40];
	int64_t		 now = dm->host.now_ms(dm->host.arg);
	int		 rc;

	if (!dm_user_of(chat, user, sizeof(user)) || strcmp(user, chat) != 0)
		return -EINVAL;
	if ((rc = dm->host.rng(dm->host.arg, rnd, sizeof(rnd))) != 0)
		return rc;
	snprintf(pnu, sizeof(pnu), "%.*s", (int)strcspn(dm->own_pn, "@"),
	    dm->own_pn);
	wa_msg_id(rnd, (uint64_t)(now / 1000), pnu[0] != '\0' ? pnu : NULL,
	    id);
	memset(&m, 0, sizeof(m));
	m.chat = chat;
	m.id = id;
	m.sender = "";
	m.from_me = true;
	m.ts_ms = now;
	m.kind = WA_DM_TEXT;
	m.text = text;
	m.quoted_id = quoted_id;
	m.quoted_sender = quoted_sender;
	m.quoted_text = quoted_text;
	m.state = WA_DM_QUEUED;
	m.payload = payload->p;
	m.payload_len = payload->len;
	if ((rc = dm->st->out_insert(dm->st->arg, &m, type, edit)) < 0)
		return rc;
	if (id_out != NULL)
		snprintf(id_out, WA_DM_ID_MAX, "%s", id);
	if (show) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_DM_EV_MESSAGE;
		ev.chat = chat;
		ev.id = id;
		ev.sender = "";
		ev.from_me = true;
		ev.text = text;
		ev.quoted_id = quoted_id;
		ev.ts_ms = now;
		ev.state = WA_DM_QUEUED;
		dm_emit(dm, &ev);
	}
	dm_kick(dm);
	return 0;
}

int
wa_dm_send_text(struct wa_dm *dm, const char *chat, const char *text,
    const char *quoted_id, const char *quoted_sender, const char *quoted_text,
    char id_out[WA_DM_ID_MAX])
{
	struct wa_msg_text	 t;
	struct buf		 p = BUF_INIT;
	char			**ment = NULL;
	int			 rc;

	if (chat == NULL || text == NULL || text[0] == '\0' ||
	    strlen(text) > WA_DM_TEXT_MAX)
		return -EINVAL;
	memset(&t, 0, sizeof(t));
	t.text = text;
	t.quoted_id = quoted_id;
	t.quoted_participant = quoted_id != NULL ? (quoted_sender != NULL &&
	    quoted_sender[0] != '\0' ? quoted_sender : dm->own_pn) : NULL;
	t.quoted_text = quoted_text;
	/* "@NUMBER" of a group member: a mention (contextInfo.mentionedJid) */
	if (strcmp(dm_server_of(chat), "g.us") == 0)
		t.n_mentions = dm_group_mentions(dm, chat, text, &ment);
	t.mentions = (const char *const *)ment;
	if ((rc = wa_msg_build_text(&t, &p)) == 0)
		rc = queue(dm, chat, &p, text, quoted_id, quoted_sender,
		    quoted_text, "text", NULL, id_out, true);
	buf_release(&p);
	free(ment);
	return rc;
}

/* The MessageKey of message id of chat (from_me: ours), 11.5. */
static void
msg_key(struct wa_msg_key *k, const char *chat, const char *id, bool from_me)
{
	memset(k, 0, sizeof(*k));
	k->remote_jid = chat;
	k->from_me = from_me;
	k->id = id;
}

int
wa_dm_send_reaction(struct wa_dm *dm, const char *chat, const char *target,
    bool from_me, const char *emoji)
{
	struct wa_msg_key	 k;
	struct buf		 p = BUF_INIT;
	struct wa_dm_ev		 ev;
	int64_t			 now = dm->host.now_ms(dm->host.arg);
	int			 rc;

	if (chat == NULL || target == NULL || emoji == NULL)
		return -EINVAL;
	msg_key(&k, chat, target, from_me);
	if ((rc = wa_msg_build_reaction(&k, emoji, now, &p)) != 0)
		goto out;
	if ((rc = dm->st->react(dm->st->arg, chat, target, "", emoji,
	    now)) < 0)
		goto out;
	/* the emoji goes with it, so the store keeps the reaction hidden
	 * and knows a removal (edit 7) */
	rc = queue(dm, chat, &p, emoji, NULL, NULL, NULL, "reaction",
	    emoji[0] == '\0' ? "7" : NULL, NULL, false);
	if (rc == 0) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_DM_EV_REACTION;
		ev.chat = chat;
		ev.id = target;
		ev.sender = "";
		ev.text = emoji;
		ev.from_me = true;
		ev.ts_ms = now;
		dm_emit(dm, &ev);
	}
out:
	buf_release(&p);
	return rc;
}

/* Our message target of chat changed here (text NULL: revoked): the
 * store and the UI at once, the stanza through the outbox. */
static int
change_own(struct wa_dm *dm, const char *chat, const char *target,
    const char *text, const struct buf *p, const char *edit)
{
	struct wa_dm_ev	 ev;
	int64_t		 now = dm->host.now_ms(dm->host.arg);
	int		 rc;

	rc = dm->st->change(dm->st->arg, chat, target, true, text, now);
	if (rc <= 0)
		return rc < 0 ? rc : -ENOENT;
	/* kept hidden: the payload's field tells the stanza's edit */
	if ((rc = queue(dm, chat, p, text != NULL ? text : "", NULL, NULL,
	    NULL, "text", edit, NULL, false)) != 0)
		return rc;
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_CHANGED;
	ev.chat = chat;
	ev.id = target;
	ev.from_me = true;
	ev.text = text;
	ev.ts_ms = now;
	dm_emit(dm, &ev);
	return 0;
}

int
wa_dm_send_edit(struct wa_dm *dm, const char *chat, const char *target,
    const char *text)
{
	struct wa_msg_key	 k;
	struct buf		 p = BUF_INIT;
	int			 rc;

	if (chat == NULL || target == NULL || text == NULL ||
	    text[0] == '\0' || strlen(text) > WA_DM_TEXT_MAX)
		return -EINVAL;
	msg_key(&k, chat, target, true);
	if ((rc = wa_msg_build_edit(&k, text, dm->host.now_ms(dm->host.arg),
	    &p)) == 0)
		rc = change_own(dm, chat, target, text, &p, "1");
	buf_release(&p);
	return rc;
}

int
wa_dm_send_revoke(struct wa_dm *dm, const char *chat, const char *target)
{
	struct wa_msg_key	 k;
	struct buf		 p = BUF_INIT;
	int			 rc;

	if (chat == NULL || target == NULL)
		return -EINVAL;
	msg_key(&k, chat, target, true);
	if ((rc = wa_msg_build_revoke(&k, &p)) == 0)
		rc = change_own(dm, chat, target, NULL, &p, "7");
	buf_release(&p);
	return rc;
}

int
wa_dm_send_peer(struct wa_dm *dm, const uint8_t *payload, size_t len)
{
	struct wa_signal_addr	 ad;
	enum wa_msg_enc_type	 type;
	struct buf		 ct = BUF_INIT;
	struct arena		 a;
	struct wa_node		*n;
	uint8_t			 rnd[WA_MSG_ID_RAND_LEN];
	char			 id[WA_MSG_ID_LEN + 1], pnu[40];
	int			 rc;

	if (payload == NULL || len == 0)
		return -EINVAL;
	if (!dm->online || dm->own_pn[0] == '\0')
		return -ENOTCONN;
	/* our phone: device 0 of our own number (12.4) */
	if ((rc = dm_addr_of(dm->own_pn, &ad)) != 0)
		return rc;
	if ((rc = wa_signal_has_session(dm->sig, &ad)) != 1)
		return rc < 0 ? rc : WC_ENOSESSION;
	if ((rc = dm->host.rng(dm->host.arg, rnd, sizeof(rnd))) != 0)
		return rc;
	snprintf(pnu, sizeof(pnu), "%.*s", (int)strcspn(dm->own_pn, "@"),
	    dm->own_pn);
	wa_msg_id(rnd, (uint64_t)(dm->host.now_ms(dm->host.arg) / 1000), pnu,
	    id);
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	rc = dm_encrypt_for(dm, dm->own_pn, false, dm->own_pn, payload, len,
	    &type, &ct);
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	if (rc != 0) {
		buf_release(&ct);
		return rc;
	}
	arena_init(&a, 1024);
	n = wa_nb_new(&a, "message", 6);
	wa_nb_attr(n, "id", id);
	if ((rc = wa_nb_attr_jid(n, "to", dm->own_pn)) == 0) {
		wa_nb_attr(n, "type", "text");
		wa_nb_attr(n, "category", "peer");
		wa_nb_attr(n, "push_priority", "high_force");
		dm_enc_kids(dm, &a, n, type == WA_MSG_ENC_PKMSG, 0, &ct);
		rc = dm_send(dm, n);
	}
	arena_release(&a);
	buf_release(&ct);
	if (rc == 0)
		log_info("peer message %s sent to our phone", id);
	return rc;
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

int
wa_dm_delete_failed(struct wa_dm *dm, const char *chat, const char *id)
{
	struct wa_dm_ev	 ev;
	int		 rc;

	if ((rc = dm->st->out_delete(dm->st->arg, chat, id)) <= 0)
		return rc;
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_CHANGED;
	ev.chat = chat;
	ev.id = id;
	ev.from_me = true;
	dm_emit(dm, &ev);		/* text NULL: gone */
	return 1;
}

int
wa_dm_mark_read(struct wa_dm *dm, const char *chat)
{
	struct buf		 ids = BUF_INIT;
	const char		*v[WA_MSG_MAX_IDS];
	struct wa_msg_receipt_out r;
	struct arena		 a;
	struct wa_node		*n;
	size_t			 off = 0, k = 0;
	int			 rc, cnt;

	if ((cnt = dm->st->mark_read(dm->st->arg, chat, &ids)) <= 0) {
		buf_release(&ids);
		return cnt;
	}
	rc = 0;
	if (dm->online && dm->cfg.send_read_receipts) {
		bool	 group = strcmp(dm_server_of(chat), "g.us") == 0;
		const char *who = NULL;

		arena_init(&a, 1024);
		while (off < ids.len) {
			/* pairs: id, then its sender ("" in 1:1 chats) */
			v[k++] = (const char *)ids.p + off;
			off += strlen((const char *)ids.p + off) + 1;
			who = off < ids.len ? (const char *)ids.p + off : "";
			off += strlen(who) + 1;
			/* a group receipt names the author (11.8) */
			if (!group && k < WA_MSG_MAX_IDS && off < ids.len)
				continue;
			memset(&r, 0, sizeof(r));
			r.to = chat;
			r.participant = group && who[0] != '\0' ? who : NULL;
			r.type = "read";
			r.ids = v;
			r.n_ids = k;
			r.t = dm->host.now_ms(dm->host.arg) / 1000;
			if ((rc = wa_msg_receipt(&r, &a, &n)) == 0)
				rc = dm_send(dm, n);
			k = 0;
		}
		arena_release(&a);
	}
	buf_release(&ids);
	return rc < 0 ? rc : cnt;
}

int
wa_dm_typing(struct wa_dm *dm, const char *chat, bool composing)
{
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	if (!dm->online || !dm->cfg.send_typing)
		return 0;
	arena_init(&a, 256);
	if ((rc = wa_msg_chatstate(chat, composing ? WA_MSG_COMPOSING :
	    WA_MSG_PAUSED, &a, &n)) == 0)
		rc = dm_send(dm, n);
	arena_release(&a);
	return rc;
}

int
wa_dm_subscribe(struct wa_dm *dm, const char *chat)
{
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	if (!dm->online)
		return 0;
	arena_init(&a, 256);
	if ((rc = wa_msg_presence_subscribe(chat, NULL, 0, &a, &n)) == 0)
		rc = dm_send(dm, n);
	arena_release(&a);
	return rc;
}

/* --- receiving --- */

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

/* Our retry receipt for a message we cannot decrypt (9.6), bounded. */
void
dm_send_retry(struct wa_dm *dm, const struct wa_msg_in *m)
{
	struct wa_msg_retry_out	 r;
	struct arena		 a;
	struct wa_node		*n;
	char			 key[COUNTER_KEY];
	unsigned		 c;

	snprintf(key, sizeof(key), "%s/%s", m->from, m->id);
	c = count(dm->sent_retries, &dm->sent_next, key);
	if (c > WA_DM_RETRY_SEND_MAX) {
		log_warn("message %s: no retry receipt after %u", m->id,
		    WA_DM_RETRY_SEND_MAX);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.to = m->from;
	r.id = m->id;
	r.participant = m->participant;
	r.recipient = m->recipient;
	r.count = c;
	r.t = m->t;
	r.registration_id = dm->regid;
	arena_init(&a, 512);
	if (wa_msg_retry_receipt(&r, &a, &n) == 0 && dm_send(dm, n) == 0)
		log_info("message %s: retry receipt %u sent", m->id, c);
	arena_release(&a);
}

int
dm_enc_end(struct wa_dm *dm, int rc, struct buf *plain, bool changed,
    bool from_me, const char *chat, const char *sender)
{
	int	 rc2;

	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else if ((rc2 = dm->st->tx_rollback(dm->st->arg)) != 0)
		log_error("rollback: %s", wc_strerror(rc2));
	wa_crypto_wipe(plain->p, plain->len);
	buf_release(plain);
	if (rc == 0 && changed && !from_me)
		dm_notice(dm, chat, sender, dm->host.now_ms(dm->host.arg),
		    "security code changed");
	return rc;
}

/* Store and announce what a decrypted Message holds. */
int
dm_apply(struct wa_dm *dm, const struct wa_msg_in *m, const char *chat,
    const char *sender, bool from_me, const struct wa_msg_content *c,
    bool *shown)
{
	struct wa_dm_msg m2;
	struct wa_dm_ev	 ev;
	char		 line[160], qs[WA_DM_JID_MAX];
	int64_t		 now = dm->host.now_ms(dm->host.arg);
	int64_t		 ts = m->t > 0 ? m->t * 1000 : now;
	int		 rc;

	/* The server's t has whole seconds: a live message within its
	 * second takes our clock's ms, so that it sorts after what we sent
	 * in that same second. */
	if (m->t > 0 && now >= ts && now < ts + 1000)
		ts = now;

	memset(&ev, 0, sizeof(ev));
	ev.chat = chat;
	ev.sender = sender;
	ev.from_me = from_me;
	ev.ts_ms = ts;
	switch (c->kind) {
	case WA_MSG_TEXT:
	case WA_MSG_REPLY:
	case WA_MSG_UNSUPPORTED:
	case WA_MSG_PROTOCOL:
		memset(&m2, 0, sizeof(m2));
		m2.chat = chat;
		m2.id = m->id;
		m2.sender = sender;
		m2.from_me = from_me;
		m2.ts_ms = ts;
		m2.state = from_me ? WA_DM_SENT : WA_DM_RECEIVED;
		if (c->kind == WA_MSG_UNSUPPORTED || c->kind ==
		    WA_MSG_PROTOCOL) {
			if (c->kind == WA_MSG_PROTOCOL)
				snprintf(line, sizeof(line), "protocol "
				    "message of type %d", c->protocol_type);
			else if (c->unsupported_name != NULL)
				snprintf(line, sizeof(line), "unsupported "
				    "message type: %s", c->unsupported_name);
			else
				snprintf(line, sizeof(line), "unsupported "
				    "message type: field %u",
				    c->unsupported_field);
			if (c->kind == WA_MSG_PROTOCOL)
				return 0;	/* not for the chat */
			m2.kind = WA_DM_NOTICE;
			m2.text = line;
			ev.notice = true;
		} else {
			m2.kind = WA_DM_TEXT;
			m2.text = c->text != NULL ? c->text : "";
			m2.quoted_id = c->quoted_id;
			if (c->quoted_participant != NULL && dm_user_of(
			    c->quoted_participant, qs, sizeof(qs)))
				m2.quoted_sender = qs;
			m2.quoted_text = c->quoted_text;
		}
		if ((rc = dm->st->in_insert(dm->st->arg, &m2)) < 0)
			return rc;
		if (rc == 1)
			return 0;	/* a duplicate: stored already */
		ev.kind = WA_DM_EV_MESSAGE;
		ev.id = m->id;
		ev.text = m2.text;
		ev.quoted_id = m2.quoted_id;
		ev.state = m2.state;
		*shown = true;
		break;
	case WA_MSG_REACTION:
		if (c->target.id == NULL)
			return 0;
		if ((rc = dm->st->react(dm->st->arg, chat, c->target.id,
		    sender, c->emoji != NULL ? c->emoji : "", ts)) < 0)
			return rc;
		ev.kind = WA_DM_EV_REACTION;
		ev.id = c->target.id;
		ev.text = c->emoji != NULL ? c->emoji : "";
		*shown = true;
		break;
	case WA_MSG_EDIT:
	case WA_MSG_REVOKE:
		if (c->target.id == NULL)
			return 0;
		/* The target is ours when the sender is us, whatever the
		 * key says. */
		if ((rc = dm->st->change(dm->st->arg, chat, c->target.id,
		    from_me, c->kind == WA_MSG_EDIT ? (c->text != NULL ?
		    c->text : "") : NULL, ts)) < 0)
			return rc;
		if (rc == 0)
			return 0;
		ev.kind = WA_DM_EV_CHANGED;
		ev.id = c->target.id;
		ev.text = c->kind == WA_MSG_EDIT ? c->text : NULL;
		*shown = true;
		break;
	case WA_MSG_EMPTY:
	case WA_MSG_SKDM:
		return 0;
	}
	dm_emit(dm, &ev);
	return 0;
}

/*
 * One <enc>: decrypt, unpad, parse, store, in one transaction.  Returns 0,
 * 1 when it decrypted but holds no Message we can read (the session still
 * advances), or the decryption's or the store's error (nothing written).
 */
static int
take_enc(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_msg_enc_in *e, char chat[WA_DM_JID_MAX],
    const char *sender, bool from_me, bool *shown)
{
	struct wa_signal_addr	 ad;
	struct wa_msg_content	 c;
	struct buf		 plain = BUF_INIT;
	size_t			 len;
	bool			 changed = false, unreadable = false;
	bool			 hist = false;
	int			 rc, crc;

	if ((rc = dm_addr_of(m->from, &ad)) != 0)
		return rc;
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	rc = wa_signal_decrypt(dm->sig, &ad, e->type == WA_MSG_ENC_PKMSG ?
	    WA_SIGNAL_PKMSG : WA_SIGNAL_MSG, e->ct, e->ct_len, &plain,
	    &changed);
	if (rc == 0) {
		/* Decrypted: the session advanced whatever the content. */
		crc = wa_msg_unpad(plain.p, plain.len, &len);
		if (crc == 0 && (crc = wa_msg_parse(plain.p, len, &c)) == 0) {
			/* our own device's message: its chat is the
			 * destination (11.3) */
			if (c.dsm_destination != NULL && from_me &&
			    !dm_user_of(c.dsm_destination, chat, WA_DM_JID_MAX))
				crc = WC_EPROTO;
			if (crc == 0 && from_me && c.kind == WA_MSG_PROTOCOL &&
			    c.protocol_type == WA_HIST_PROTO_NOTIF &&
			    dm->st->hist_put != NULL) {
				/* history from our phone (12.1): queued with
				 * the session, imported after the ack */
				rc = dm->st->hist_put(dm->st->arg, m->id,
				    plain.p, len);
				hist = rc == 0;
			} else if (crc == 0)
				rc = dm_apply(dm, m, chat, sender, from_me, &c,
				    shown);
			wa_msg_content_release(&c);
		}
		if (crc != 0) {
			log_warn("message %s: unreadable content (%s)", m->id,
			    wc_strerror(crc));
			unreadable = true;
		}
	}
	rc = dm_enc_end(dm, rc, &plain, changed, from_me, chat, sender);
	if (rc == 0 && hist && dm->host.history != NULL)
		dm->host.history(dm->host.arg);
	return rc == 0 && unreadable ? 1 : rc;
}

static void
on_message(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_msg_in	 m;
	struct wa_msg_receipt_out r;
	struct arena		 a;
	struct wa_node		*rn;
	const char		*why = NULL, *ids[1];
	char			 chat[WA_DM_JID_MAX], sender[WA_DM_JID_MAX];
	bool			 from_me, shown = false, failed = false;
	bool			 bad_pb = false;
	size_t			 i;
	int			 rc;

	arena_init(&a, 1024);
	if ((rc = wa_msg_stanza_parse(n, &a, &m, &why)) != 0) {
		log_warn("a malformed <message>: %s", why != NULL ? why :
		    wc_strerror(rc));
		dm_send_ack(dm, n, "487");
		arena_release(&a);
		return;
	}
	if (strcmp(dm_server_of(m.from), "g.us") == 0) {
		dm_group_on_message(dm, n, &m);
		arena_release(&a);
		return;
	}
	if (strcmp(dm_server_of(m.from), "broadcast") == 0 ||
	    m.participant != NULL) {
		/* status and broadcasts: not handled; acked, not lost on the
		 * server's side */
		log_info("message %s from a broadcast: not handled", m.id);
		dm_send_ack(dm, n, NULL);
		arena_release(&a);
		return;
	}
	from_me = dm_is_own(dm, m.from);
	if (from_me) {
		/* our own device: the chat is the recipient (11.1) */
		if (m.recipient == NULL || !dm_user_of(m.recipient, chat,
		    sizeof(chat)))
			snprintf(chat, sizeof(chat), "%s", dm->own_pn);
		sender[0] = '\0';
	} else {
		/* a contact; its chat by PN when the stanza names it */
		if (!dm_user_of(m.sender_pn != NULL ? m.sender_pn : m.from, chat,
		    sizeof(chat))) {
			dm_send_ack(dm, n, "487");
			arena_release(&a);
			return;
		}
		snprintf(sender, sizeof(sender), "%s", chat);
		if (m.sender_pn != NULL) {
			char	 lid[WA_DM_JID_MAX];

			if (dm_user_of(m.from, lid, sizeof(lid)))
				(void)dm->st->lid_put(dm->st->arg, chat, lid);
		}
		if (m.notify != NULL)
			(void)dm->st->push_name(dm->st->arg, chat, m.notify);
	}
	for (i = 0; i < m.n_encs; i++) {
		const struct wa_msg_enc_in *e = &m.encs[i];

		if (e->type != WA_MSG_ENC_MSG && e->type != WA_MSG_ENC_PKMSG)
			continue;	/* skmsg and others: later */
		if (e->v != 2)
			continue;
		rc = take_enc(dm, &m, e, chat, sender, from_me, &shown);
		if (rc == WC_EDUPMSG) {
			log_info("message %s: a duplicate, ignored", m.id);
			continue;
		}
		if (rc == 1) {
			/* decrypted but not a Message we can read: rejected,
			 * acked with 491 (11.2), the chat goes on */
			bad_pb = true;
			continue;
		}
		if (rc != 0) {
			log_warn("message %s: cannot decrypt (%s)", m.id,
			    wc_strerror(rc));
			failed = true;
		}
	}
	if (failed)
		dm_send_retry(dm, &m);
	else {
		/* 11.8: one delivery receipt once handled */
		memset(&r, 0, sizeof(r));
		r.to = m.from;
		r.recipient = m.recipient;
		ids[0] = m.id;
		r.ids = ids;
		r.n_ids = 1;
		r.type = from_me ? "sender" : (!dm->presence_sent ?
		    "inactive" : NULL);
		if (wa_msg_receipt(&r, &a, &rn) == 0)
			(void)dm_send(dm, rn);
	}
	dm_send_ack(dm, n, bad_pb ? "491" : NULL);
	(void)shown;
	arena_release(&a);
}

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
	if (rc != 0)
		goto out;
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

int
dm_retry_fetch(struct wa_dm *dm, const char *device, const char *chat,
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

static void
on_retry_receipt(struct wa_dm *dm, const struct wa_node *n,
    const struct wa_msg_receipt_in *r, const char *chat)
{
	struct wa_signal_bundle	 b;
	struct wa_signal_addr	 ad;
	char			 key[COUNTER_KEY];
	int			 rc;

	snprintf(key, sizeof(key), "%s/%s", r->from, r->id);
	if (count(dm->answered, &dm->answered_next, key) >
	    WA_DM_RETRY_ANSWER_MAX) {
		log_warn("message %s: retry receipts beyond %u ignored",
		    r->id, WA_DM_RETRY_ANSWER_MAX);
		return;
	}
	if (r->has_keys && r->has_registration &&
	    wa_usync_bundle_of(wa_node_child(n, "keys"), r->registration_id,
	    &b) == 0) {
		if ((rc = dm_take_bundle(dm, r->from, &b)) != 0)
			log_warn("retry keys: %s", wc_strerror(rc));
	} else if (dm_addr_of(r->from, &ad) == 0 &&
	    (wa_signal_has_session(dm->sig, &ad) != 1 || r->retry_count >= 2)) {
		/* fetch a fresh bundle first, then answer */
		(void)dm_retry_fetch(dm, r->from, chat, r->id, r->retry_count,
		    r->retry_t, false);
		return;
	}
	answer_retry(dm, r->from, chat, r->id, r->retry_count, r->retry_t);
}

static void
on_retry_keys(struct wa_dm *dm, const struct wa_node *n)
{
	struct pending_retry	 p = dm->retry;
	struct wa_signal_bundle	 b;
	int			 rc;

	dm->retry.active = false;
	rc = wa_usync_bundle(n, p.device, &b);
	if (rc == 1)
		rc = dm_take_bundle(dm, p.device, &b);
	if (rc != 0) {
		log_warn("retry of %s: no bundle (%s)", p.id,
		    rc == 0 ? "none" : wc_strerror(rc));
		return;
	}
	if (p.group)
		dm_group_retry_answer(dm, p.device, p.chat, p.id, p.count);
	else
		answer_retry(dm, p.device, p.chat, p.id, p.count, p.t);
}

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
	    !dm_user_of(r->participant, member, sizeof(member)))
		return;
	for (i = 0; i < r->n_ids; i++) {
		rc = dm->st->member_receipt(dm->st->arg, group, r->ids[i],
		    member, st);
		if (rc > 0)
			dm_emit_state(dm, group, r->ids[i],
			    (enum wa_dm_state)rc);
		else if (rc < 0)
			log_warn("receipt for %s: %s", r->ids[i],
			    wc_strerror(rc));
	}
}

static void
on_receipt(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_msg_receipt_in r;
	struct arena		 a;
	const char		*why = NULL;
	char			 chat[WA_DM_JID_MAX];
	enum wa_dm_state	 st;
	size_t			 i;
	int			 rc;

	arena_init(&a, 1024);
	if ((rc = wa_msg_receipt_parse(n, &a, &r, &why)) != 0) {
		log_warn("a malformed <receipt>: %s", why != NULL ? why :
		    wc_strerror(rc));
		dm_send_ack(dm, n, NULL);
		arena_release(&a);
		return;
	}
	dm_send_ack(dm, n, NULL);
	/* The chat: the contact, or for our own devices the recipient. */
	if (dm_is_own(dm, r.from) && r.recipient != NULL)
		rc = dm_user_of(r.recipient, chat, sizeof(chat)) ? 0 : -EINVAL;
	else
		rc = dm_user_of(r.from, chat, sizeof(chat)) ? 0 : -EINVAL;
	if (rc == 0 && r.participant != NULL &&
	    strcmp(dm_server_of(r.from), "g.us") == 0) {
		if (r.type != NULL && strcmp(r.type, "retry") == 0) {
			char	 key[COUNTER_KEY];

			/* bounded as in 1:1 (9.6): no retry storm */
			snprintf(key, sizeof(key), "%s/%s", r.participant,
			    r.id);
			if (count(dm->answered, &dm->answered_next, key) <=
			    WA_DM_RETRY_ANSWER_MAX)
				dm_group_on_retry(dm, &r);
			else
				log_warn("message %s: retry receipts beyond %u "
				    "ignored", r.id, WA_DM_RETRY_ANSWER_MAX);
			arena_release(&a);
			return;
		}
		if (dm_is_own(dm, r.participant)) {
			arena_release(&a);
			return;		/* our other device: no tick */
		}
		snprintf(chat, sizeof(chat), "%s", r.from);
		if (dm->st->member_receipt != NULL) {
			on_member_receipt(dm, &r, chat);
			arena_release(&a);
			return;
		}
	} else if (rc != 0 || r.participant != NULL) {
		arena_release(&a);
		return;
	}
	if (r.type != NULL && strcmp(r.type, "retry") == 0) {
		on_retry_receipt(dm, n, &r, chat);
		arena_release(&a);
		return;
	}
	if (!receipt_state(r.type, &st)) {
		arena_release(&a);
		return;
	}
	if (dm_is_own(dm, r.from)) {
		arena_release(&a);
		return;		/* our other device has it: no tick */
	}
	for (i = 0; i < r.n_ids; i++) {
		rc = dm->st->out_state(dm->st->arg, chat, r.ids[i], st,
		    r.t * 1000);
		if (rc > 0)
			dm_emit_state(dm, chat, r.ids[i], st);
		else if (rc < 0)
			log_warn("receipt for %s: %s", r.ids[i],
			    wc_strerror(rc));
	}
	arena_release(&a);
}

static void
on_chatstate(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_msg_chatstate_in c;
	struct wa_dm_ev		 ev;
	struct arena		 a;
	char			 chat[WA_DM_JID_MAX];

	arena_init(&a, 256);
	if (wa_msg_chatstate_parse(n, &a, &c) == 0 && c.participant == NULL &&
	    dm_user_of(c.from, chat, sizeof(chat))) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_DM_EV_TYPING;
		ev.chat = chat;
		ev.sender = chat;
		ev.state = c.state != WA_MSG_PAUSED;
		dm_emit(dm, &ev);
	}
	arena_release(&a);
}

static void
on_presence(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_msg_presence_in p;
	struct wa_dm_ev		 ev;
	struct arena		 a;
	char			 chat[WA_DM_JID_MAX];

	arena_init(&a, 256);
	if (wa_msg_presence_parse(n, &a, &p) == 0 &&
	    dm_user_of(p.from, chat, sizeof(chat)) && !dm_is_own(dm, chat)) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_DM_EV_PRESENCE;
		ev.chat = chat;
		ev.state = p.available;
		ev.ts_ms = p.last_s * 1000;
		dm_emit(dm, &ev);
	}
	arena_release(&a);
}

/* <notification type="devices">: the cached list is stale (11.7). */
static void
on_devices(struct wa_dm *dm, const struct wa_node *n)
{
	char	 user[WA_DM_JID_MAX];
	char	 from[WA_DM_JID_MAX];

	if (wa_node_jid(n, "from", from, sizeof(from)) &&
	    dm_user_of(from, user, sizeof(user)))
		(void)dm->st->devices_put(dm->st->arg, user, NULL, -1);
}

int
wa_dm_stanza(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_str	 id;

	if (wa_str_eqc(n->tag, "message")) {
		on_message(dm, n);
		return 1;
	}
	if (wa_str_eqc(n->tag, "receipt")) {
		on_receipt(dm, n);
		return 1;
	}
	if (wa_str_eqc(n->tag, "ack"))
		return wa_node_str_is(n, "class", "message") ?
		    dm_on_server_ack(dm, n) : 0;
	if (wa_str_eqc(n->tag, "chatstate")) {
		on_chatstate(dm, n);
		return 1;
	}
	if (wa_str_eqc(n->tag, "presence")) {
		on_presence(dm, n);
		return 1;
	}
	if (wa_str_eqc(n->tag, "notification") &&
	    wa_node_str_is(n, "type", "devices")) {
		on_devices(dm, n);
		return 0;	/* the engine acks notifications */
	}
	if (wa_str_eqc(n->tag, "notification") &&
	    wa_node_str_is(n, "type", "w:gp2")) {
		dm_group_on_notification(dm, n);
		return 0;	/* the engine acks notifications */
	}
	if (!wa_str_eqc(n->tag, "iq"))
		return 0;
	if (dm_group_on_iq(dm, n))
		return 1;
	id = wa_node_str(n, "id");
	if (dm->retry.active && wa_str_eqc(id, dm->retry.iq)) {
		on_retry_keys(dm, n);
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
