/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-recv.c -- what comes in to the message engine (proto/dm.h),
 * receipts aside: 1:1 messages (pkmsg, msg; our own devices' copies),
 * group messages (the pairwise SKDM copy, then the skmsg), each <enc>
 * decrypted and stored with the session it advanced in one transaction;
 * only after its COMMIT is it shown, and then the delivery receipt (or
 * our retry receipt when one cannot be read) and the ack go out.  What
 * cannot be stored (the disk is full, an I/O error) is not shown, not
 * receipted and not acked: the server keeps it and sends it again, and
 * its session did not advance on disk, so it decrypts then
 * (reliability.md rule 1).  Chat states, presence, and the devices
 * notification.  Sources: protocol.md 9.5, 9.6, 10.2, 11.1-11.8, 12.1.
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
#include "base/notice.h"
#include "base/rich.h"
#include "proto/askey.h"
#include "proto/crypto.h"
#include "proto/dm-int.h"
#include "proto/history.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "base/xmalloc.h"

/* --- storing what a Message holds --- */

/*
 * What one <enc> stored, for the UI once its transaction has committed:
 * ev is emitted only then.  Its strings point at the caller's chat and
 * sender, the stanza's id, the content (alive until after the commit) or
 * line.
 */
struct shown {
	struct wa_dm_ev	 ev;
	bool		 emit;
	char		*rec;		/* a rich record made here; owned */
	char		 id[WA_DM_ID_MAX]; /* a live location's row */
};

/*
 * The rich record (base/rich.h) of content we do not show: "other" with
 * its Message field, so that the screen can say what it is; each such
 * arrival is logged by its field (no content), so that the next kinds to
 * build can be chosen (issue 20).
 */
static char *
other_record(const struct wa_msg_content *c)
{
	char	 rec[32];

	log_info("a message of a kind not shown: Message field %u (%s)",
	    c->unsupported_field, c->unsupported_name != NULL ?
	    c->unsupported_name : "unknown");
	rich_other_record(c->unsupported_field, rec, sizeof(rec));
	return xstrdup(rec);
}

/* A live location update of a row stored before (store_ops live_update):
 * 1 (sh to show as a change of that row, or nothing to show: a repeated
 * update), 0 (none: store it anew), or the store's error. */
static int
apply_live(struct wa_dm *dm, const struct wa_msg_content *c,
    struct shown *sh)
{
	struct wa_dm_ev	*ev = &sh->ev;
	int		 rc;

	if (dm->st->live_update == NULL || c->live_seq <= 0)
		return 0;
	if ((rc = dm->st->live_update(dm->st->arg, ev->chat, ev->sender,
	    ev->from_me, c->live_seq, sh->rec, sh->id, sizeof(sh->id))) <= 0)
		return rc;
	if (rc == 2)
		return 1;	/* had it: nothing to show */
	ev->kind = WA_DM_EV_CHANGED;
	ev->id = sh->id;
	ev->text = sh->rec;
	sh->emit = true;	/* after the commit */
	return 1;
}

/* A text, a reply or a line for an unsupported type, stored: 1 (sh to
 * show), 0 (a duplicate), or the store's error. */
static int
apply_text(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_msg_content *c, struct shown *sh)
{
	struct wa_dm_ev	*ev = &sh->ev;
	struct wa_dm_msg m2;
	char		 qs[WA_DM_JID_MAX];
	int		 rc;

	memset(&m2, 0, sizeof(m2));
	m2.chat = ev->chat;
	m2.id = m->id;
	m2.sender = ev->sender;
	m2.from_me = ev->from_me;
	m2.ts_ms = ev->ts_ms;
	m2.state = ev->from_me ? WA_DM_SENT : WA_DM_RECEIVED;
	m2.forwarded = c->forwarded;
	if (c->kind == WA_MSG_UNSUPPORTED || c->kind == WA_MSG_RICH) {
		if (c->kind == WA_MSG_UNSUPPORTED)
			sh->rec = other_record(c);
		else if (c->rich_type == RICH_LIVE)
			sh->rec = rich_with_update(c->text, ev->ts_ms);
		if (c->rich_type == RICH_LIVE &&
		    (rc = apply_live(dm, c, sh)) != 0)
			return rc;
		m2.kind = WA_DM_RICH;
		m2.media = c->media;	/* view-once: kept beside it */
		m2.text = sh->rec != NULL ? sh->rec : c->text;
		m2.quoted_id = c->quoted_id;
	} else {
		m2.kind = c->kind == WA_MSG_MEDIA ? WA_DM_MEDIA : WA_DM_TEXT;
		m2.media = c->media;
		m2.text = c->text != NULL ? c->text : "";
		m2.quoted_id = c->quoted_id;
		if (c->quoted_participant != NULL && jid_user_of(
		    c->quoted_participant, qs, sizeof(qs)))
			m2.quoted_sender = qs;
		m2.quoted_text = c->quoted_text;
	}
	if ((rc = dm->st->in_insert(dm->st->arg, &m2)) < 0)
		return rc;
	if (rc == 1)
		return 0;	/* a duplicate: stored already */
	if (c->kind == WA_MSG_RICH && c->rich_type == RICH_POLL) {
		/* its secret kept, the votes that waited for it tallied */
		if ((rc = dm_poll_created(dm, m, ev->chat, ev->sender,
		    ev->from_me, c, &sh->rec)) < 0)
			return rc;
		if (rc == 1)
			m2.text = sh->rec;
	}
	ev->kind = WA_DM_EV_MESSAGE;
	ev->id = m->id;
	ev->text = m2.text;
	ev->quoted_id = m2.quoted_id;
	ev->state = m2.state;
	ev->media = m2.kind == WA_DM_RICH ? NULL : c->media;
	ev->rich = m2.kind == WA_DM_RICH;
	ev->forwarded = m2.forwarded;
	sh->emit = true;	/* after the commit */
	return 1;
}

/* A reaction: 1 (sh to show), 0 (none), or the store's error. */
static int
apply_reaction(struct wa_dm *dm, const struct wa_msg_content *c,
    struct shown *sh)
{
	struct wa_dm_ev	*ev = &sh->ev;
	int		 rc;

	if (c->target.id == NULL)
		return 0;
	if ((rc = dm->st->react(dm->st->arg, ev->chat, c->target.id,
	    ev->sender, c->emoji != NULL ? c->emoji : "", ev->ts_ms)) < 0)
		return rc;
	ev->kind = WA_DM_EV_REACTION;
	ev->id = c->target.id;
	ev->text = c->emoji != NULL ? c->emoji : "";
	sh->emit = true;	/* after the commit */
	return 1;
}

/* A poll's vote: 1 (sh to show: the poll's new tally), 0 (none), or
 * the store's error. */
static int
apply_vote(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_msg_content *c, struct shown *sh)
{
	struct wa_dm_ev	*ev = &sh->ev;
	int		 rc;

	if ((rc = dm_poll_vote(dm, m, ev->chat, ev->sender, ev->from_me, c,
	    &sh->rec)) <= 0)
		return rc;
	ev->kind = WA_DM_EV_CHANGED;
	ev->id = c->target.id;
	ev->text = sh->rec;
	ev->rich = true;
	sh->emit = true;	/* after the commit */
	return 1;
}

/* An edit or a revoke: 1 (sh to show), 0 (no such message), or the
 * store's error.  The target is ours when the sender is us, whatever the
 * key says. */
static int
apply_change(struct wa_dm *dm, const struct wa_msg_content *c,
    struct shown *sh)
{
	struct wa_dm_ev	*ev = &sh->ev;
	bool		 edit = c->kind == WA_MSG_EDIT;
	int		 rc;

	if (c->target.id == NULL)
		return 0;
	if ((rc = dm->st->change(dm->st->arg, ev->chat, c->target.id,
	    ev->from_me, edit ? (c->text != NULL ? c->text : "") : NULL,
	    ev->ts_ms)) <= 0)
		return rc;
	ev->kind = WA_DM_EV_CHANGED;
	ev->id = c->target.id;
	ev->text = edit ? c->text : NULL;
	sh->emit = true;	/* after the commit */
	return 1;
}

/* --- disappearing messages (protocol-features.md 3.5) --- */

#define EPH_MAX	(366u * 86400u)	/* seconds: a longer timer is refused */

/*
 * An EPHEMERAL_SETTING protocolMessage: chat's timer kept (a setting
 * older than the kept one ignored) and, when it changed, its event line
 * ("Bob turned on disappearing messages: 7 days", base/notice.h) stored
 * under the message's id.  1 (sh to show), 0 (no change), or the
 * store's error.
 */
static int
apply_eph_setting(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_msg_content *c, struct shown *sh)
{
	struct wa_dm_ev	*ev = &sh->ev;
	struct dm_note	 n;
	char		 line[400], secs[16];
	int64_t		 t = c->eph_ts > 0 ? c->eph_ts : ev->ts_ms / 1000;
	int		 rc;

	if (dm->st->eph_set == NULL || c->eph_secs > EPH_MAX) {
		log_warn("message %s: a timer of %u s, ignored", m->id,
		    (unsigned)c->eph_secs);
		return 0;
	}
	if ((rc = dm->st->eph_set(dm->st->arg, ev->chat, c->eph_secs, t,
	    true)) <= 0)
		return rc;
	snprintf(secs, sizeof(secs), "%u", (unsigned)c->eph_secs);
	if (notice_group_code(NOTICE_GROUP_EPHEMERAL, ev->from_me ?
	    NOTICE_GROUP_ME : ev->sender, NULL, secs, line, sizeof(line)) != 1)
		return 0;
	memset(&n, 0, sizeof(n));
	n.chat = ev->chat;
	n.sender = "";
	n.ts = ev->ts_ms;
	n.text = line;
	n.kind = WA_DM_NOTE_TEXT;
	n.id = m->id;
	if ((rc = dm_notice_put_kind(dm, &n, sh->id)) != 0)
		return rc;
	sh->rec = xstrdup(line);
	ev->kind = WA_DM_EV_MESSAGE;
	ev->id = sh->id;
	ev->sender = "";
	ev->from_me = false;
	ev->text = sh->rec;
	ev->notice = true;
	ev->notice_kind = WA_DM_NOTE_TEXT;
	ev->state = WA_DM_RECEIVED;
	sh->emit = true;	/* after the commit */
	return 1;
}

/* A content message sent in a disappearing chat (contextInfo
 * expiration): that timer kept as the chat's when it is newer than the
 * kept one, before the message is stored (its expiry follows from it).
 * 0 or the store's error. */
static int
apply_eph_content(struct wa_dm *dm, const struct wa_msg_content *c,
    const struct wa_dm_ev *ev)
{
	int	 rc;

	if (c->eph != WA_MSG_EPH_CONTENT || c->eph_secs == 0 ||
	    c->eph_secs > EPH_MAX || dm->st->eph_set == NULL)
		return 0;
	rc = dm->st->eph_set(dm->st->arg, ev->chat, c->eph_secs,
	    c->eph_ts > 0 ? c->eph_ts : ev->ts_ms / 1000, true);
	return rc < 0 ? rc : 0;
}

/*
 * The ts_ms of a message whose server time is t (whole seconds; 0: none)
 * handled now: a live message within its second takes our clock's ms, so
 * that it sorts after what we sent in that same second; and a message of
 * the same second as the one before it never sorts before it (handled
 * after the second had passed, it would take the second's start), so that
 * the displayed order is the arrival order (reliability.md: (t, seq)).
 */
static int64_t
recv_ts(struct wa_dm *dm, int64_t t, int64_t now)
{
	int64_t	 ts = t > 0 ? t * 1000 : now;

	if (t > 0 && now >= ts && now < ts + 1000)
		ts = now;
	/* Within the second only (a full one: the rowid orders the rest);
	 * an older message sorts by its own time. */
	if (t > 0 && dm->recv_ts_ms >= ts && dm->recv_ts_ms < t * 1000 + 1000)
		ts = dm->recv_ts_ms < t * 1000 + 999 ? dm->recv_ts_ms + 1 :
		    dm->recv_ts_ms;
	if (ts > dm->recv_ts_ms)
		dm->recv_ts_ms = ts;
	return ts;
}

/* Store what a decrypted Message holds, in the open transaction: 0 or
 * the store's error; sh filled for the UI, told after the commit. */
static int
apply(struct wa_dm *dm, const struct wa_msg_in *m, const char *chat,
    const char *sender, bool from_me, const struct wa_msg_content *c,
    struct shown *sh)
{
	struct wa_dm_ev	*ev = &sh->ev;
	int64_t		 ts = recv_ts(dm, m->t, dm->host.now_ms(dm->host.arg));
	int		 rc = 0;

	memset(ev, 0, sizeof(*ev));
	ev->chat = chat;
	ev->sender = sender;
	ev->from_me = from_me;
	ev->ts_ms = ts;
	switch (c->kind) {
	case WA_MSG_TEXT:
	case WA_MSG_REPLY:
	case WA_MSG_MEDIA:
	case WA_MSG_UNSUPPORTED:
	case WA_MSG_RICH:
		if ((rc = apply_eph_content(dm, c, ev)) == 0)
			rc = apply_text(dm, m, c, sh);
		break;
	case WA_MSG_REACTION:
		rc = apply_reaction(dm, c, sh);
		break;
	case WA_MSG_POLL_VOTE:
		rc = apply_vote(dm, m, c, sh);
		break;
	case WA_MSG_EDIT:
	case WA_MSG_REVOKE:
		rc = apply_change(dm, c, sh);
		break;
	case WA_MSG_PROTOCOL:	/* not for the chat, but a timer */
		if (c->eph == WA_MSG_EPH_SETTING)
			rc = apply_eph_setting(dm, m, c, sh);
		break;
	case WA_MSG_EMPTY:
	case WA_MSG_SKDM:
		break;
	}
	return rc < 0 ? rc : 0;
}

/*
 * End the transaction of one received <enc> whose result is rc: commit
 * (rc 0) or roll back, wipe and free the plaintext, and once committed
 * tell the UI what was stored (sh; *shown set) and add the "security
 * code changed" line when changed (not for our own).  Nothing is told
 * when the commit fails: nothing was stored.  Returns rc, or the
 * commit's error.
 */
static int
enc_end(struct wa_dm *dm, int rc, struct buf *plain, bool changed,
    bool from_me, const char *chat, const char *sender,
    struct shown *sh, bool *shown)
{
	int	 rc2;

	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else if ((rc2 = dm->st->tx_rollback(dm->st->arg)) != 0)
		log_error("rollback: %s", wc_strerror(rc2));
	wa_crypto_wipe(plain->p, plain->len);
	buf_release(plain);
	if (rc == 0 && sh->emit) {
		dm_emit(dm, &sh->ev);
		*shown = true;
	}
	free(sh->rec);
	sh->rec = NULL;
	if (rc != 0)
		return rc;
	if (changed && !from_me)
		dm_notice_identity(dm, chat, sender);
	return 0;
}

/* --- what every <message> ends with --- */

/* What the <enc>s of one message came to. */
struct outcome {
	bool	 shown;		/* the UI was told */
	bool	 failed;	/* one could not be decrypted: retry receipt */
	bool	 bad_pb;	/* one held no Message we read: ack 491 */
	bool	 unstored;	/* one could not be stored: no receipt, no
				 * ack (the server sends it again) */
};

/* Fold the result rc of one <enc> into o. */
static void
enc_result(struct wa_dm *dm, const struct wa_msg_in *m, int rc, bool group,
    struct outcome *o)
{
	if (dm_store_failed(dm, rc)) {
		log_warn("%s %s: not stored (%s): not acked, the server keeps "
		    "it", group ? "group message" : "message", m->id,
		    wc_strerror(rc));
		o->unstored = true;
	} else if (rc == WC_EDUPMSG)
		log_info("message %s: a duplicate, ignored", m->id);
	else if (rc == 1)
		/* decrypted but not a Message we can read: rejected, acked
		 * with 491 (11.2), the chat goes on */
		o->bad_pb = true;
	else if (rc != 0) {
		log_warn("%s %s: cannot decrypt (%s)", group ?
		    "group message" : "message", m->id, wc_strerror(rc));
		o->failed = true;
	}
}

/* Our retry receipt for a message we cannot decrypt (9.6), bounded. */
static void
send_retry(struct wa_dm *dm, const struct wa_msg_in *m)
{
	struct wa_msg_retry_out	 r;
	struct arena		 a;
	struct wa_node		*n;
	char			 key[COUNTER_KEY];
	unsigned		 c;

	snprintf(key, sizeof(key), "%s/%s", m->from, m->id);
	c = dm_count(dm->sent_retries, &dm->sent_next, key);
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
	if (dm_retry_receipt(dm, m, &r, &a, &n) == 0 && dm_send(dm, n) == 0)
		log_info("message %s: retry receipt %u sent", m->id, c);
	arena_release(&a);
}

/*
 * The retry receipt (o->failed), else one delivery receipt (11.8: a
 * group's names the participant, a 1:1's the recipient), then the ack of
 * n (491 when content was unreadable).  Nothing when an <enc> could not
 * be stored (o->unstored): the server keeps the message and sends it
 * again, at the next login at the latest.
 */
static void
finish(struct wa_dm *dm, const struct wa_node *n, const struct wa_msg_in *m,
    bool from_me, bool group, const struct outcome *o)
{
	struct wa_msg_receipt_out r;
	struct arena		 a;
	struct wa_node		*rn;
	const char		*ids[1];

	if (o->unstored)
		return;
	arena_init(&a, 512);
	if (o->failed)
		send_retry(dm, m);
	else {
		memset(&r, 0, sizeof(r));
		r.to = m->from;
		if (group)
			r.participant = m->participant;
		else
			r.recipient = m->recipient;
		ids[0] = m->id;
		r.ids = ids;
		r.n_ids = 1;
		r.type = from_me ? "sender" : (!dm->presence_sent ?
		    "inactive" : NULL);
		if (wa_msg_receipt(&r, &a, &rn) == 0)
			(void)dm_send(dm, rn);
	}
	arena_release(&a);
	dm_send_ack(dm, n, o->bad_pb ? "491" : NULL);
}

/* --- 1:1 --- */

/*
 * The app-state key share p[0..len) of message m (protocol-features.md
 * 2.3): taken only from our own account ([BL] SELF_ONLY_TYPES, [WM]
 * IsFromMe), each key stored in the message's transaction; *keys set when
 * one was new.  Another sender's is logged and dropped, as an unreadable
 * share is (in *crc).  Returns 0 or the store's error.
 */
static int
take_keys(struct wa_dm *dm, const struct wa_msg_in *m, const uint8_t *p,
    size_t len, bool from_me, bool *keys, int *crc)
{
	struct wa_askey_share	 ks;
	struct arena		 a;
	const char		*why = NULL;
	size_t			 i;
	int			 rc = 0, n = 0;

	if (!from_me) {
		log_warn("message %s: an app-state key share from another "
		    "account: ignored", m->id);
		return 0;
	}
	if (dm->st->as_key_put == NULL)
		return 0;
	arena_init(&a, 1024);
	if ((*crc = wa_askey_share_parse(p, len, &a, &ks, &why)) != 0)
		log_warn("message %s: app-state key share: %s", m->id,
		    why != NULL ? why : wc_strerror(*crc));
	for (i = 0; *crc == 0 && rc >= 0 && i < ks.n; i++)
		if ((rc = dm->st->as_key_put(dm->st->arg, &ks.keys[i])) > 0)
			n++;
	arena_release(&a);
	if (rc < 0)
		return rc;
	if (*crc == 0)
		log_info("message %s: %zu app-state keys shared, %d new", m->id,
		    ks.n, n);
	*keys = n > 0;
	return 0;
}

/* A decrypted 1:1 Message p[0..len), parsed as c: history from our
 * phone (12.1) is queued with the session (*hist), app-state keys stored
 * with it (*keys), anything else applied (sh).  Returns 0, the store's
 * error, or the content's error in *crc. */
static int
take_content(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_msg_content *c, const uint8_t *p, size_t len,
    char chat[WA_DM_JID_MAX], const char *sender, bool from_me,
    struct shown *sh, bool *hist, bool *keys, int *crc)
{
	char			 dest[WA_DM_JID_MAX];
	int			 rc = 0;

	/* our own device's message: its chat is the destination (11.3) */
	if (c->dsm_destination != NULL && from_me) {
		if (jid_user_of(c->dsm_destination, dest, sizeof(dest)))
			snprintf(chat, WA_DM_JID_MAX, "%s", dest);
		else
			*crc = WC_EPROTO;
	}
	if (*crc == 0 && from_me && c->kind == WA_MSG_PROTOCOL &&
	    c->protocol_type == WA_HIST_PROTO_NOTIF &&
	    dm->st->hist_put != NULL) {
		/* imported after the ack */
		rc = dm->st->hist_put(dm->st->arg, m->id, p, len);
		*hist = rc == 0;
	} else if (*crc == 0 && c->kind == WA_MSG_PROTOCOL &&
	    c->protocol_type == WA_ASKEY_PROTO_SHARE)
		rc = take_keys(dm, m, p, len, from_me, keys, crc);
	else if (*crc == 0)
		rc = apply(dm, m, chat, sender, from_me, c, sh);
	return rc;
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
	struct shown		 sh;
	struct buf		 plain = BUF_INIT;
	size_t			 len;
	bool			 changed = false, hist = false;
	bool			 parsed = false, keys = false;
	int			 rc, crc = 0;

	if ((rc = dm_addr_of(m->from, &ad)) != 0)
		return rc;
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	memset(&sh, 0, sizeof(sh));
	rc = dm_peer_decrypt(dm, m->from, &ad, e->type == WA_MSG_ENC_PKMSG ?
	    WA_SIGNAL_PKMSG : WA_SIGNAL_MSG, e->ct, e->ct_len, &plain,
	    &changed);
	if (rc == 0) {
		/* Decrypted: the session advanced whatever the content. */
		if ((crc = wa_msg_unpad(plain.p, plain.len, &len)) == 0 &&
		    (crc = wa_msg_parse(plain.p, len, &c)) == 0) {
			parsed = true;
			rc = take_content(dm, m, &c, plain.p, len, chat,
			    sender, from_me, &sh, &hist, &keys, &crc);
		}
		if (crc != 0)
			log_warn("message %s: unreadable content (%s)", m->id,
			    wc_strerror(crc));
	}
	rc = enc_end(dm, rc, &plain, changed, from_me, chat, sender, &sh,
	    shown);
	if (parsed)
		wa_msg_content_release(&c);
	if (rc == 0 && hist && dm->host.history != NULL)
		dm->host.history(dm->host.arg);
	if (rc == 0 && keys && dm->host.app_state_keys != NULL)
		dm->host.app_state_keys(dm->host.arg);
	return rc == 0 && crc != 0 ? 1 : rc;
}

/* The chat and sender of a 1:1 message m: false when it names neither
 * (refused).  Records the contact's PN-LID mapping and push name. */
static bool
direct_parties(struct wa_dm *dm, const struct wa_msg_in *m, bool from_me,
    char chat[WA_DM_JID_MAX], char sender[WA_DM_JID_MAX])
{
	char	 lid[WA_DM_JID_MAX];

	if (from_me) {
		/* our own device: the chat is the recipient (11.1) */
		if (m->recipient == NULL || !jid_user_of(m->recipient, chat,
		    WA_DM_JID_MAX))
			snprintf(chat, WA_DM_JID_MAX, "%s", dm->own_pn);
		sender[0] = '\0';
		return true;
	}
	/* a contact; its chat by PN when the stanza names it */
	if (!jid_user_of(m->sender_pn != NULL ? m->sender_pn : m->from, chat,
	    WA_DM_JID_MAX))
		return false;
	snprintf(sender, WA_DM_JID_MAX, "%s", chat);
	if (m->sender_pn != NULL && jid_user_of(m->from, lid, sizeof(lid)))
		(void)dm->st->lid_put(dm->st->arg, chat, lid);
	if (m->notify != NULL)
		(void)dm->st->push_name(dm->st->arg, chat, m->notify);
	return true;
}

static void
on_direct(struct wa_dm *dm, const struct wa_node *n, const struct wa_msg_in *m)
{
	struct outcome	 o;
	char		 chat[WA_DM_JID_MAX], sender[WA_DM_JID_MAX];
	bool		 from_me = dm_is_own(dm, m->from);
	size_t		 i;

	if (!direct_parties(dm, m, from_me, chat, sender)) {
		dm_send_ack(dm, n, "487");
		return;
	}
	memset(&o, 0, sizeof(o));
	for (i = 0; i < m->n_encs; i++) {
		const struct wa_msg_enc_in *e = &m->encs[i];

		if (e->type != WA_MSG_ENC_MSG && e->type != WA_MSG_ENC_PKMSG)
			continue;	/* skmsg and others: later */
		if (e->v != 2)
			continue;
		enc_result(dm, m, take_enc(dm, m, e, chat, sender, from_me,
		    &o.shown), false, &o);
		if (o.unstored)
			break;	/* the rest comes again with it */
	}
	finish(dm, n, m, from_me, false, &o);
}

/* --- groups --- */

/* Is user (any form) a member of the known group?  1 yes, 0 no, -1 the
 * group is unknown. */
static int
is_member(struct wa_dm *dm, const char *group, const char *user)
{
	struct wa_dm_group	 g;
	size_t			 i;
	int			 rc;

	memset(&g, 0, sizeof(g));
	if (dm->st->group_get(dm->st->arg, group, &g) != 1)
		return -1;
	rc = 0;
	for (i = 0; i < g.n && rc == 0; i++)
		if (jid_same_user(g.members[i], user) ||
		    (g.alts[i][0] != '\0' && jid_same_user(g.alts[i], user)))
			rc = 1;
	wa_dm_group_release(&g);
	return rc;
}

/* The SKDM of a pairwise copy (10.2), from a member only.  Its failure
 * is logged: the content still applies. */
static void
take_skdm(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_signal_addr *ad, const struct wa_msg_content *c,
    const char *sender, bool from_me)
{
	int	 rc;

	if (!from_me && is_member(dm, m->from, sender) == 0)
		log_warn("message %s: an SKDM from outside the group, refused",
		    m->id);
	else if ((rc = wa_signal_group_process_skdm(dm->sig, m->from, ad,
	    c->skdm, c->skdm_len)) != 0)
		log_warn("message %s: SKDM refused (%s)", m->id,
		    wc_strerror(rc));
}

/*
 * One <enc> of a group message, in one transaction: a pairwise copy (its
 * SKDM processed, any content applied) or the skmsg.  Returns 0, 1 when
 * it decrypted but holds nothing readable, or an error (nothing written).
 */
static int
take_group_enc(struct wa_dm *dm, const struct wa_msg_in *m,
    const struct wa_msg_enc_in *e, const char *sender, bool from_me,
    bool *shown)
{
	struct wa_signal_addr	 ad;
	struct wa_msg_content	 c;
	struct shown		 sh;
	struct buf		 plain = BUF_INIT;
	size_t			 len;
	bool			 changed = false, parsed = false;
	int			 rc, crc;

	if ((rc = dm_addr_of(m->participant, &ad)) != 0)
		return rc;
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	memset(&sh, 0, sizeof(sh));
	if (e->type == WA_MSG_ENC_SKMSG)
		rc = dm_peer_group_decrypt(dm, m->from, m->participant, &ad,
		    e->ct, e->ct_len, &plain);
	else
		rc = dm_peer_decrypt(dm, m->participant, &ad, e->type ==
		    WA_MSG_ENC_PKMSG ? WA_SIGNAL_PKMSG : WA_SIGNAL_MSG, e->ct,
		    e->ct_len, &plain, &changed);
	crc = 0;
	if (rc == 0) {
		crc = wa_msg_unpad(plain.p, plain.len, &len);
		if (crc == 0 && (crc = wa_msg_parse(plain.p, len, &c)) == 0) {
			parsed = true;
			if (c.skdm_len > 0 && e->type != WA_MSG_ENC_SKMSG)
				take_skdm(dm, m, &ad, &c, sender, from_me);
			if (c.kind != WA_MSG_SKDM)
				rc = apply(dm, m, m->from, sender, from_me, &c,
				    &sh);
		}
		if (crc != 0)
			log_warn("message %s: unreadable content (%s)", m->id,
			    wc_strerror(crc));
	}
	rc = enc_end(dm, rc, &plain, changed, from_me, m->from, sender, &sh,
	    shown);
	if (parsed)
		wa_msg_content_release(&c);
	return rc == 0 && crc != 0 ? 1 : rc;
}

/* The sender of a group message (by PN when the stanza gives it, 5.3;
 * "" for us): false when it has none.  Records the PN-LID mapping and
 * the push name. */
static bool
group_sender(struct wa_dm *dm, const struct wa_msg_in *m, bool *from_me,
    char sender[WA_DM_JID_MAX])
{
	char	 pn[WA_DM_JID_MAX];

	if (m->participant == NULL || !jid_user_of(m->participant, sender,
	    WA_DM_JID_MAX))
		return false;
	*from_me = dm_is_own(dm, m->participant);
	if (m->participant_pn != NULL && jid_user_of(m->participant_pn, pn,
	    sizeof(pn)))
		snprintf(sender, WA_DM_JID_MAX, "%s", pn);
	dm_peer_learn(dm, m->participant, m->participant_pn, m->participant_lid);
	if (!*from_me && m->notify != NULL)
		(void)dm->st->push_name(dm->st->arg, sender, m->notify);
	if (*from_me)
		sender[0] = '\0';
	return true;
}

/* A <message> from a group (from g.us, participant set). */
static void
on_group(struct wa_dm *dm, const struct wa_node *n, const struct wa_msg_in *m)
{
	struct outcome	 o;
	char		 sender[WA_DM_JID_MAX];
	bool		 from_me = false;
	size_t		 i;
	int		 pass;

	if (!group_sender(dm, m, &from_me, sender)) {
		log_warn("group message %s without a sender: refused", m->id);
		dm_send_ack(dm, n, "487");
		return;
	}
	memset(&o, 0, sizeof(o));
	/* Pairwise copies (the SKDM) first, then the skmsg (11.3). */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < m->n_encs; i++) {
			const struct wa_msg_enc_in *e = &m->encs[i];
			bool	 sk = e->type == WA_MSG_ENC_SKMSG;

			if (e->v != 2 || (pass == 0) == sk ||
			    (e->type != WA_MSG_ENC_MSG && e->type !=
			    WA_MSG_ENC_PKMSG && !sk))
				continue;
			if (!o.unstored)
				enc_result(dm, m, take_group_enc(dm, m, e,
				    sender, from_me, &o.shown), true, &o);
		}
	finish(dm, n, m, from_me, true, &o);
}

void
dm_recv_message(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_msg_in	 m;
	struct arena		 a;
	const char		*why = NULL;
	int			 rc;

	arena_init(&a, 1024);
	if ((rc = wa_msg_stanza_parse(n, &a, &m, &why)) != 0) {
		log_warn("a malformed <message>: %s", why != NULL ? why :
		    wc_strerror(rc));
		dm_send_ack(dm, n, "487");
	} else if (jid_is_group(m.from))
		on_group(dm, n, &m);
	else if (jid_is_broadcast(m.from) || m.participant != NULL) {
		/* status and broadcasts: not handled; acked, not lost on the
		 * server's side */
		log_info("message %s from a broadcast: not handled", m.id);
		dm_send_ack(dm, n, NULL);
	} else
		on_direct(dm, n, &m);
	arena_release(&a);
}

/* --- chat states, presence, devices --- */

void
dm_recv_chatstate(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_msg_chatstate_in c;
	struct wa_dm_ev		 ev;
	struct arena		 a;
	char			 chat[WA_DM_JID_MAX];

	arena_init(&a, 256);
	if (wa_msg_chatstate_parse(n, &a, &c) == 0 && c.participant == NULL &&
	    jid_user_of(c.from, chat, sizeof(chat))) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_DM_EV_TYPING;
		ev.chat = chat;
		ev.sender = chat;
		ev.state = c.state != WA_MSG_PAUSED;
		dm_emit(dm, &ev);
	}
	arena_release(&a);
}

void
dm_recv_presence(struct wa_dm *dm, const struct wa_node *n)
{
	struct wa_msg_presence_in p;
	struct wa_dm_ev		 ev;
	struct arena		 a;
	char			 chat[WA_DM_JID_MAX];

	arena_init(&a, 256);
	if (wa_msg_presence_parse(n, &a, &p) == 0 &&
	    jid_user_of(p.from, chat, sizeof(chat)) && !dm_is_own(dm, chat)) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_DM_EV_PRESENCE;
		ev.chat = chat;
		ev.state = p.available;
		ev.ts_ms = p.last_s * 1000;
		dm_emit(dm, &ev);
	}
	arena_release(&a);
}

int
dm_recv_devices(struct wa_dm *dm, const struct wa_node *n)
{
	char	 user[WA_DM_JID_MAX];
	char	 from[WA_DM_JID_MAX];
	int	 rc;

	if (!wa_node_jid(n, "from", from, sizeof(from)) ||
	    !jid_user_of(from, user, sizeof(user)))
		return 0;
	/* a stale list kept would miss the new device: not acked then */
	if ((rc = dm->st->devices_put(dm->st->arg, user, NULL, -1)) < 0 &&
	    dm_store_failed(dm, rc)) {
		log_warn("devices notification: not stored (%s): not acked",
		    wc_strerror(rc));
		return rc;
	}
	return 0;
}
