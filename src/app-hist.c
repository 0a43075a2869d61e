/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-hist.c -- history sync's store operations (proto/hsync.h) over
 * store/: the queue of notifications, and the import of a parsed
 * HistorySync chunk (protocol.md 12.3): chats, messages (their content
 * read like a live message's, proto/msg.h), push names and the PN-LID
 * mapping.  Engine thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "hist"
#include "src/app-hist.h"
#include "src/app-media.h"
#include "base/buf.h"
#include "base/rich.h"
#include "base/err.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/msg.h"
#include "store/store.h"
#include "base/xmalloc.h"

#define BATCH		400	/* messages per transaction (perf.md H2) */

static int
q_next(void *arg, char id[WA_HSYNC_ID_MAX], struct buf *msg)
{
	char	 tmp[STORE_MSG_ID_MAX + 1];
	int	 rc;

	if ((rc = store_histq_next(arg, tmp, msg)) == 1)
		snprintf(id, WA_HSYNC_ID_MAX, "%s", tmp);
	return rc;
}

static int
q_done(void *arg, const char *id)
{
	return store_histq_done(arg, id);
}

static int
q_imported(void *arg, const char *id)
{
	return store_histq_imported(arg, id);
}

static int
q_unreceipted(void *arg, struct buf *ids)
{
	return store_histq_unreceipted(arg, ids);
}

/* "123@lid" -> its PN user JID when the store knows it, else itself;
 * "123:4@s.whatsapp.net" -> "123@s.whatsapp.net"; what is not a user's
 * JID, as it is. */
static void
user_jid(struct store *s, const char *jid, char out[STORE_JID_MAX + 1])
{
	char	 pn[STORE_JID_MAX + 1];

	if (!jid_user_of(jid, out, STORE_JID_MAX + 1)) {
		snprintf(out, STORE_JID_MAX + 1, "%s", jid);
		return;
	}
	if (jid_is_lid(out) && store_lid_get_pn(s, out, pn) == 1)
		snprintf(out, STORE_JID_MAX + 1, "%s", pn);
}

/* A history status (12.3) as the state of one of our messages. */
static enum store_msg_state
out_state(int32_t st)
{
	switch (st) {
	case WA_HIST_STATUS_PLAYED:		return STORE_MSG_PLAYED;
	case WA_HIST_STATUS_READ:		return STORE_MSG_READ;
	case WA_HIST_STATUS_DELIVERY_ACK:	return STORE_MSG_DELIVERED;
	default:				return STORE_MSG_SENT;
	}
}

/* One batch of rows, with the strings they point to. */
struct batch {
	struct store_msg_new	 m[BATCH];
	struct wa_msg_content	 c[BATCH];
	char			 sender[BATCH][STORE_JID_MAX + 1];
	char			 notice[BATCH][96];
	struct store_media	 media[BATCH];	/* borrows from c */
	char			*mtext[BATCH];	/* a media row's text; owned */
	size_t			 n;
	int			 stored;
};

static int
flush(struct store *s, struct batch *b)
{
	size_t	 i;
	int	 rc = 0;

	if (b->n > 0 && (rc = store_hist_import(s, b->m, b->n)) > 0)
		b->stored += rc;
	for (i = 0; i < b->n; i++) {
		wa_msg_content_release(&b->c[i]);
		free(b->mtext[i]);
		b->mtext[i] = NULL;
	}
	b->n = 0;
	return rc < 0 ? rc : 0;
}

/* Add message hm of chat to the batch (flushed when full). */
static int
add(struct store *s, struct batch *b, const char *chat, bool group,
    const struct wa_hist_msg *hm)
{
	struct store_msg_new	*m;
	struct wa_msg_content	*c;
	const char		*who;
	int			 rc;

	if (hm->message == NULL || hm->id == NULL)
		return 0;	/* a stub (a group event) or a refused one */
	if (b->n == BATCH && (rc = flush(s, b)) != 0)
		return rc;
	m = &b->m[b->n];
	c = &b->c[b->n];
	memset(m, 0, sizeof(*m));
	if (wa_msg_parse(hm->message, hm->message_len, c) != 0) {
		memset(c, 0, sizeof(*c));
		return 0;	/* unreadable: skipped, the rest goes on */
	}
	m->chat = chat;
	m->id = hm->id;
	m->from_me = hm->from_me;
	m->ts_ms = (int64_t)hm->ts_s * 1000;
	b->sender[b->n][0] = '\0';
	who = hm->key_participant != NULL ? hm->key_participant :
	    hm->participant;
	if (group && !hm->from_me && who != NULL)
		user_jid(s, who, b->sender[b->n]);
	m->sender = b->sender[b->n];
	/* the backlog is read: no notification, no read receipt */
	m->state = hm->from_me ? out_state(hm->status) : STORE_MSG_READ;
	b->mtext[b->n] = NULL;
	switch (c->kind) {
	case WA_MSG_TEXT:
	case WA_MSG_REPLY:
		m->kind = STORE_MSG_TEXT;
		m->text = c->text != NULL ? c->text : "";
		m->text_len = strlen(m->text);
		m->quoted_id = c->quoted_id;
		m->quoted_text = c->quoted_text;
		break;
	case WA_MSG_MEDIA:
		m->kind = STORE_MSG_MEDIA;
		app_media_store(c->media, &b->media[b->n]);
		m->media = &b->media[b->n];
		m->text = b->mtext[b->n] = app_media_text(c->media);
		m->text_len = strlen(m->text);
		if (m->text_len > STORE_MSG_TEXT_MAX)
			m->text_len = STORE_MSG_TEXT_MAX;
		m->quoted_id = c->quoted_id;
		m->quoted_text = c->quoted_text;
		break;
	case WA_MSG_UNSUPPORTED:	/* said by its field (base/rich.h) */
		rich_other_record(c->unsupported_field, b->notice[b->n],
		    sizeof(b->notice[0]));
		m->kind = STORE_MSG_RICH;
		m->text = b->notice[b->n];
		m->text_len = strlen(m->text);
		break;
	case WA_MSG_RICH:
		m->kind = STORE_MSG_RICH;
		m->text = c->rich_type == RICH_LIVE ? (b->mtext[b->n] =
		    rich_with_update(c->text, m->ts_ms)) : c->text;
		m->text_len = strlen(m->text);
		m->quoted_id = c->quoted_id;
		break;
	default:
		/* reactions, edits, revokes, protocol messages: not rows */
		wa_msg_content_release(c);
		return 0;
	}
	b->n++;
	return 0;
}

/* A name or mapping's store result rc: a refused one counted in *soft
 * (0), a full disk or an I/O error returned. */
static int
soft_put(int rc, int *soft)
{
	if (rc == -ENOSPC || rc == -EIO)
		return rc;
	if (rc < 0)
		(*soft)++;
	return 0;
}

/*
 * The privacy tokens of conversation cv (protocol.md 12.3, 15.6), kept
 * under the contact's LID user JID when known (as proto/dm-tok.c reads
 * them): its token to us and when we issued ours.  Returns as the store.
 */
static int
conv_tokens(struct store *s, const struct wa_hist_conv *cv)
{
	char	 key[STORE_JID_MAX + 1], lid[STORE_JID_MAX + 1];
	int	 rc = 0;

	if (jid_is_group(cv->id) || (cv->tc_token_len == 0 &&
	    cv->tc_token_sender_ts_s == 0))
		return 0;
	if (!jid_user_of(cv->id, key, sizeof(key)))
		return 0;
	if (cv->lid_jid != NULL && jid_is_lid(cv->lid_jid))
		(void)jid_user_of(cv->lid_jid, key, sizeof(key));
	else if (jid_is_pn(key) && store_lid_get_lid(s, key, lid) == 1)
		snprintf(key, sizeof(key), "%s", lid);
	if (cv->tc_token_len > 0 && cv->tc_token_ts_s > 0 &&
	    cv->tc_token_len <= STORE_PRIVTOK_MAX)
		rc = store_privtok_put(s, key, cv->tc_token, cv->tc_token_len,
		    (int64_t)cv->tc_token_ts_s);
	if (rc >= 0 && cv->tc_token_sender_ts_s > 0)
		rc = store_privtok_sent(s, key,
		    (int64_t)cv->tc_token_sender_ts_s);
	return rc;
}

/* The account's nctSalt (15.6: cstoken) and the chats' tokens of h:
 * one refused counted in *soft; 0, or a full disk or an I/O error. */
static int
import_tokens(struct store *s, const struct wa_hist *h, int *soft)
{
	size_t	 i;
	int	 rc = 0;

	if (h->nct_salt_len > 0 && h->nct_salt_len <= STORE_SALT_MAX)
		rc = soft_put(store_privtok_salt_put(s, h->nct_salt,
		    h->nct_salt_len), soft);
	for (i = 0; rc == 0 && i < h->n_convs; i++)
		rc = soft_put(conv_tokens(s, &h->convs[i]), soft);
	return rc;
}

static int
import(void *arg, const struct wa_hist *h)
{
	struct store		*s = arg;
	struct batch		*b = xcalloc(1, sizeof(*b));
	char			 chat[STORE_JID_MAX + 1];
	size_t			 i, k;
	int			 rc = 0, soft = 0;

	/* names and mappings first: the chats' senders are read by them;
	 * one refused is skipped, a full disk or an I/O error ends the
	 * import (the chunk stays queued and comes again) */
	for (i = 0; rc == 0 && i < h->n_lid_maps; i++)
		rc = soft_put(store_lid_put(s, h->lid_maps[i].pn_jid,
		    h->lid_maps[i].lid_jid), &soft);
	for (i = 0; rc == 0 && i < h->n_pushnames; i++)
		if (h->pushnames[i].name != NULL &&
		    h->pushnames[i].name[0] != '\0' &&
		    strcmp(h->pushnames[i].name, "-") != 0)
			rc = soft_put(store_contact_set_push_name(s,
			    h->pushnames[i].jid, h->pushnames[i].name), &soft);
	if (rc == 0)
		rc = import_tokens(s, h, &soft);
	for (i = 0; rc == 0 && i < h->n_convs; i++) {
		const struct wa_hist_conv *cv = &h->convs[i];
		bool	 group = jid_is_group(cv->id);
		const char *name = cv->name != NULL ? cv->name :
		    cv->display_name;
		uint64_t last = cv->last_msg_ts_s != 0 ? cv->last_msg_ts_s :
		    cv->conversation_ts_s;

		if (jid_is_broadcast(cv->id))
			continue;	/* status: not a chat */
		if (cv->pn_jid != NULL && jid_is_lid(cv->id))
			user_jid(s, cv->pn_jid, chat);
		else
			user_jid(s, cv->id, chat);
		if ((rc = store_hist_chat(s, chat, group ? name : NULL,
		    (int64_t)last * 1000, (int)cv->unread_count, cv->archived,
		    cv->pinned != 0 ? (int64_t)last * 1000 : 0,
		    (int64_t)cv->mute_end_s * 1000)) < 0)
			break;
		/* its disappearing-messages timer, before its messages: they
		 * take their expiry from it (protocol-features.md 3.5) */
		if (cv->ephemeral_s <= STORE_EPHEM_MAX && (rc =
		    store_chat_ephem_set(s, chat, cv->ephemeral_s,
		    cv->ephemeral_ts_s, true)) < 0)
			break;
		rc = 0;
		for (k = 0; rc == 0 && k < cv->n_msgs; k++)
			rc = add(s, b, chat, group, &cv->msgs[k]);
		if (rc == 0)
			rc = flush(s, b);
	}
	if (rc != 0) {
		/* the rows of a batch that did not go in: free their text */
		for (k = 0; k < b->n; k++)
			wa_msg_content_release(&b->c[k]);
	} else {
		int	 c;

		rc = b->stored;
		/* the search index takes the imported rows in large batches
		 * (searches see them before too, store_search()) */
		while ((c = store_fts_catch_up(s, 5000)) > 0)
			;
		if (c < 0)
			log_warn("search index: %s", wc_strerror(c));
	}
	if (soft > 0)
		log_warn("history: %d names or mappings not stored", soft);
	free(b);
	return rc;
}

void
app_hist_ops(struct store *s, struct wa_hsync_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->next = q_next;
	ops->done = q_done;
	ops->imported = q_imported;
	ops->unreceipted = q_unreceipted;
	ops->import = import;
	ops->arg = s;
}

int
app_hist_request_older(struct store *s, struct wa_dm *dm, const char *chat)
{
	struct store_msg_page	 p;
	struct wa_hist_od_req	 r;
	struct buf		 msg = BUF_INIT;
	int			 rc;

	memset(&p, 0, sizeof(p));
	if ((rc = store_msg_page_after(s, chat, INT64_MIN, 0, 1, &p)) == 0 &&
	    p.n == 1) {
		memset(&r, 0, sizeof(r));
		r.chat_jid = chat;
		r.oldest_msg_id = p.msgs[0].id;
		r.oldest_from_me = p.msgs[0].from_me;
		r.count = APP_HIST_OLDER;
		r.oldest_ts_s = p.msgs[0].ts_ms / 1000;
		if ((rc = wa_hist_on_demand_request(&r, &msg)) == 0)
			rc = wa_dm_send_peer(dm, msg.p, msg.len);
	} else if (rc == 0)
		rc = -ENOENT;	/* nothing stored to go back from */
	store_msg_page_free(&p);
	buf_release(&msg);
	return rc;
}

int
app_hist_put(struct store *s, const char *id, const uint8_t *msg,
    size_t len, int64_t now_ms)
{
	return store_histq_put(s, id, msg, len, now_ms);
}
