/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-send.c -- the commands of the message engine (proto/dm.h):
 * a text (with a group's mentions), a reaction, an edit and a delete go
 * into the outbox (dm-job.c); the peer message to our phone, read
 * receipts, chat states and the presence subscription go out at once;
 * a failed message can be deleted.  Sources: protocol.md 11.4, 11.5,
 * 11.8, 12.4, 15.
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
#include "base/xmalloc.h"
#include "proto/dm-int.h"
#include "proto/msg.h"
#include "proto/node.h"
#include "proto/reporting.h"

/* The member of g whose user part is p[0..k) (PN or LID), or NULL. */
static const char *
member_named(const struct wa_dm_group *g, const char *p, size_t k)
{
	size_t	 i;

	for (i = 0; i < g->n; i++) {
		if (strncmp(g->members[i], p, k) == 0 &&
		    g->members[i][k] == '@')
			return g->members[i];
		if (strncmp(g->alts[i], p, k) == 0 && g->alts[i][k] == '@')
			return g->alts[i];
	}
	return NULL;
}

/* The members of group mentioned in text as "@DIGITS" (their user part,
 * PN or LID): a malloc'd array of JIDs (one malloc block, free() it) in
 * *out and their count; 0 and NULL when none. */
static size_t
mentions(struct wa_dm *dm, const char *group, const char *text, char ***out)
{
	struct wa_dm_group	 g;
	struct buf		 b = BUF_INIT;
	const char		*j;
	size_t			 i, k, n = 0, off[WA_MSG_MAX_IDS];
	size_t			 len = strlen(text), from = 0, at;
	char			**v;

	*out = NULL;
	memset(&g, 0, sizeof(g));
	if (strchr(text, '@') == NULL ||
	    dm->st->group_get(dm->st->arg, group, &g) != 1)
		return 0;
	while (n < WA_MSG_MAX_IDS &&
	    jid_next_mention(text, len, from, &at, &k)) {
		if ((j = member_named(&g, text + at, k)) != NULL) {
			off[n++] = b.len;
			buf_append(&b, j, strlen(j) + 1);
		}
		from = at + k;
	}
	wa_dm_group_release(&g);
	if (n == 0) {
		buf_release(&b);
		return 0;
	}
	/* the pointers, then the strings, in one block */
	v = xmalloc(n * sizeof(*v) + b.len);
	memcpy((char *)(v + n), b.p, b.len);
	for (i = 0; i < n; i++)
		v[i] = (char *)(v + n) + off[i];
	buf_release(&b);
	*out = v;
	return n;
}

/* Give the Message in p its messageContextInfo.messageSecret: 32 fresh
 * random bytes, as both references do for every message but reactions
 * (proto/reporting.h); kept in the outbox payload, so a resend carries
 * the same one.  Returns 0 or the host rng's error. */
static int
add_secret(struct wa_dm *dm, struct buf *p)
{
	uint8_t	 secret[WA_REPORTING_SECRET_LEN];
	int	 rc;

	if (!wa_reporting_wanted(p->p, p->len))
		return 0;
	if ((rc = dm->host.rng(dm->host.arg, secret, sizeof(secret))) < 0)
		return rc;
	wa_reporting_add_secret(secret, p);
	explicit_bzero(secret, sizeof(secret));
	return 0;
}

int
wa_dm_expiry(struct wa_dm *dm, const char *chat, struct buf *p)
{
	struct buf	 q = BUF_INIT;
	uint32_t	 secs = 0;
	int64_t		 ts = 0;
	int		 rc;

	if (dm->st->eph_get == NULL || dm->st->eph_get(dm->st->arg, chat,
	    &secs, &ts) < 0 || secs == 0)
		return 0;
	if ((rc = wa_msg_set_expiration(p->p, p->len, secs, ts, &q)) < 0) {
		buf_release(&q);
		return rc;
	}
	buf_release(p);
	*p = q;
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
	if (jid_is_group(chat))
		t.n_mentions = mentions(dm, chat, text, &ment);
	t.mentions = (const char *const *)ment;
	if ((rc = wa_msg_build_text(&t, &p)) == 0 &&
	    (rc = wa_dm_expiry(dm, chat, &p)) == 0 &&
	    (rc = add_secret(dm, &p)) == 0)
		rc = dm_job_queue(dm, chat, &p, text, quoted_id, quoted_sender,
		    quoted_text, "text", NULL, id_out, true);
	buf_release(&p);
	free(ment);
	return rc;
}

int
wa_dm_send_media(struct wa_dm *dm, const char *chat,
    const struct wa_msg_media *md, const char *quoted_id,
    const char *quoted_sender, const char *quoted_text,
    char id_out[WA_DM_ID_MAX])
{
	struct buf	 p = BUF_INIT;
	int		 rc;

	if (chat == NULL)
		return -EINVAL;
	if ((rc = wa_dm_media_payload(dm, md, quoted_id, quoted_sender,
	    quoted_text, &p)) == 0 && (rc = wa_dm_expiry(dm, chat, &p)) == 0)
		rc = dm_job_queue(dm, chat, &p, md->caption != NULL ?
		    md->caption : "", quoted_id, quoted_sender, quoted_text,
		    "media", NULL, id_out, true);
	buf_release(&p);
	return rc;
}

int
wa_dm_media_payload(struct wa_dm *dm, const struct wa_msg_media *md,
    const char *quoted_id, const char *quoted_sender, const char *quoted_text,
    struct buf *out)
{
	struct wa_msg_text	 t;
	struct buf		 p = BUF_INIT;
	int			 rc;

	if (md == NULL || out == NULL || (md->caption != NULL &&
	    strlen(md->caption) > WA_DM_TEXT_MAX))
		return -EINVAL;
	memset(&t, 0, sizeof(t));
	t.text = "";
	t.quoted_id = quoted_id;
	t.quoted_participant = quoted_id != NULL ? (quoted_sender != NULL &&
	    quoted_sender[0] != '\0' ? quoted_sender : dm->own_pn) : NULL;
	t.quoted_text = quoted_text;
	if ((rc = wa_msg_build_media(md, &t, &p)) == 0 &&
	    (rc = add_secret(dm, &p)) == 0)
		buf_append(out, p.p, p.len);
	buf_release(&p);
	return rc;
}

int
wa_dm_new_id(struct wa_dm *dm, char id[WA_DM_ID_MAX])
{
	char	 v[WA_MSG_ID_LEN + 1];
	int	 rc;

	if ((rc = dm_new_id(dm, dm->host.now_ms(dm->host.arg), v)) == 0)
		snprintf(id, WA_DM_ID_MAX, "%s", v);
	return rc;
}

void
wa_dm_outbox_kick(struct wa_dm *dm)
{
	dm_kick(dm);
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

/* End the transaction of a local change and its outbox row: commit (rc
 * 0) or roll back.  Returns rc, or the commit's error. */
static int
change_end(struct wa_dm *dm, int rc)
{
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	return rc;
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
	if ((rc = wa_msg_build_reaction(&k, emoji, now, &p)) != 0 ||
	    (rc = dm->st->tx_begin(dm->st->arg)) != 0)
		goto out;
	/* the reaction here and its outbox row commit together: never one
	 * shown that is not sent */
	rc = dm->st->react(dm->st->arg, chat, target, "", emoji, now);
	/* the emoji goes with it, so the store keeps the reaction hidden
	 * and knows a removal (edit 7) */
	if (rc >= 0)
		rc = dm_job_put(dm, chat, &p, emoji, "reaction",
		    emoji[0] == '\0' ? "7" : NULL);
	if ((rc = change_end(dm, rc < 0 ? rc : 0)) == 0) {
		memset(&ev, 0, sizeof(ev));
		ev.kind = WA_DM_EV_REACTION;
		ev.chat = chat;
		ev.id = target;
		ev.sender = "";
		ev.text = emoji;
		ev.from_me = true;
		ev.ts_ms = now;
		dm_emit(dm, &ev);
		dm_kick(dm);
	}
out:
	buf_release(&p);
	return rc;
}

/* Our message target of chat changed here (text NULL: revoked): the
 * store's change and the outbox row in one transaction, then the UI and
 * the outbox's kick. */
static int
change_own(struct wa_dm *dm, const char *chat, const char *target,
    const char *text, const struct buf *p, const char *edit)
{
	struct wa_dm_ev	 ev;
	int64_t		 now = dm->host.now_ms(dm->host.arg);
	int		 rc;

	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	rc = dm->st->change(dm->st->arg, chat, target, true, text, now);
	if (rc == 0)
		rc = -ENOENT;
	/* kept hidden: the payload's field tells the stanza's edit */
	if (rc > 0)
		rc = dm_job_put(dm, chat, p, text != NULL ? text : "", "text",
		    edit);
	if ((rc = change_end(dm, rc)) != 0)
		return rc;
	memset(&ev, 0, sizeof(ev));
	ev.kind = WA_DM_EV_CHANGED;
	ev.chat = chat;
	ev.id = target;
	ev.from_me = true;
	ev.text = text;
	ev.ts_ms = now;
	dm_emit(dm, &ev);
	dm_kick(dm);
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
	    &p)) == 0 && (rc = add_secret(dm, &p)) == 0)
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
	if ((rc = wa_msg_build_revoke(&k, &p)) == 0 &&
	    (rc = add_secret(dm, &p)) == 0)
		rc = change_own(dm, chat, target, NULL, &p, "7");
	buf_release(&p);
	return rc;
}

int
wa_dm_send_ephemeral(struct wa_dm *dm, const char *chat, uint32_t secs)
{
	struct buf	 p = BUF_INIT;
	struct dm_note	 n;
	char		 line[160], num[16], id[WA_DM_ID_MAX];
	int64_t		 now = dm->host.now_ms(dm->host.arg);
	int		 rc;

	if (chat == NULL || secs > WA_DM_EPH_MAX)
		return -EINVAL;
	if (jid_is_group(chat))
		return wa_dm_group_ephemeral(dm, chat, secs);
	snprintf(num, sizeof(num), "%u", (unsigned)secs);
	if (dm->st->eph_set == NULL || notice_group_code(
	    NOTICE_GROUP_EPHEMERAL, NOTICE_GROUP_ME, NULL, num, line,
	    sizeof(line)) != 1)
		return -EINVAL;
	if ((rc = wa_msg_build_ephemeral(secs, now / 1000, &p)) != 0 ||
	    (rc = dm->st->tx_begin(dm->st->arg)) != 0)
		goto out;
	/* the timer, its line and the outbox row commit together; the
	 * protocol message is kept hidden (type "protocol") */
	rc = dm->st->eph_set(dm->st->arg, chat, secs, now / 1000, false);
	if (rc >= 0)
		rc = dm_job_put(dm, chat, &p, "", "protocol", NULL);
	memset(&n, 0, sizeof(n));
	n.chat = chat;
	n.sender = "";
	n.ts = now;
	n.text = line;
	n.kind = WA_DM_NOTE_TEXT;
	if (rc >= 0)
		rc = dm_notice_put_kind(dm, &n, id);
	if ((rc = change_end(dm, rc < 0 ? rc : 0)) == 0) {
		dm_notice_show_kind(dm, &n, id);
		dm_kick(dm);
	}
out:
	buf_release(&p);
	return rc;
}

/* The peer <message> with the copy ct for our phone. */
static int
send_peer(struct wa_dm *dm, const char *id, enum wa_msg_enc_type type,
    const struct buf *ct)
{
	struct arena	 a;
	struct wa_node	*n;
	int		 rc;

	arena_init(&a, 1024);
	n = wa_nb_new(&a, "message", 6);
	wa_nb_attr(n, "id", id);
	if ((rc = wa_nb_attr_jid(n, "to", dm->own_pn)) == 0) {
		wa_nb_attr(n, "type", "text");
		wa_nb_attr(n, "category", "peer");
		wa_nb_attr(n, "push_priority", "high_force");
		dm_enc_kids(dm, &a, n, type == WA_MSG_ENC_PKMSG, 0, ct);
		rc = dm_send(dm, n);
	}
	arena_release(&a);
	return rc;
}

int
wa_dm_send_peer(struct wa_dm *dm, const uint8_t *payload, size_t len)
{
	struct wa_signal_addr	 ad;
	enum wa_msg_enc_type	 type;
	struct buf		 ct = BUF_INIT;
	char			 id[WA_MSG_ID_LEN + 1];
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
	if ((rc = dm_new_id(dm, dm->host.now_ms(dm->host.arg), id)) != 0)
		return rc;
	if ((rc = dm->st->tx_begin(dm->st->arg)) != 0)
		return rc;
	rc = dm_encrypt_for(dm, dm->own_pn, false, dm->own_pn, payload, len,
	    &type, &ct);
	/* persist before send */
	if (rc == 0)
		rc = dm->st->tx_commit(dm->st->arg);
	else
		(void)dm->st->tx_rollback(dm->st->arg);
	if (rc == 0)
		rc = send_peer(dm, id, type, &ct);
	buf_release(&ct);
	if (rc == 0)
		log_info("peer message %s sent to our phone", id);
	return rc;
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

/* Send the read receipts for the ids (pairs: id, then its sender, "" in
 * 1:1 chats) in ids[0..len) of chat: in batches for a contact, one per
 * message in a group (it names the author, 11.8).  0 or the last
 * error. */
static int
send_read(struct wa_dm *dm, const char *chat, const struct buf *ids)
{
	const char		*v[WA_MSG_MAX_IDS], *who = NULL;
	struct wa_msg_receipt_out r;
	struct arena		 a;
	struct wa_node		*n;
	bool			 group = jid_is_group(chat);
	size_t			 off = 0, k = 0;
	int			 rc = 0;

	arena_init(&a, 1024);
	while (off < ids->len) {
		v[k++] = (const char *)ids->p + off;
		off += strlen((const char *)ids->p + off) + 1;
		who = off < ids->len ? (const char *)ids->p + off : "";
		off += strlen(who) + 1;
		if (!group && k < WA_MSG_MAX_IDS && off < ids->len)
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
	return rc;
}

int
wa_dm_mark_read(struct wa_dm *dm, const char *chat)
{
	struct buf	 ids = BUF_INIT;
	int		 rc = 0, cnt;

	if ((cnt = dm->st->mark_read(dm->st->arg, chat, &ids)) <= 0) {
		buf_release(&ids);
		return cnt;
	}
	if (dm->online && dm->cfg.send_read_receipts)
		rc = send_read(dm, chat, &ids);
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

	struct wa_dm_tok tok;
	bool		 has;

	if (!dm->online)
		return 0;
	/* with the contact's token when we hold one (15.6) */
	has = dm_tok_valid(dm, chat, &tok) == 1;
	arena_init(&a, 256);
	if ((rc = wa_msg_presence_subscribe(chat, has ? tok.token : NULL,
	    has ? tok.len : 0, &a, &n)) == 0)
		rc = dm_send(dm, n);
	arena_release(&a);
	return rc;
}
