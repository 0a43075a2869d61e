/* SPDX-License-Identifier: GPL-3.0-or-later */
/* src/app-dm.c -- store/ bound into struct wa_dm_store_ops (app-dm.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/app-dm.h"
#include "src/app-appstate.h"
#include "src/app-hist.h"
#include "src/app-media.h"
#include "base/buf.h"
#include "base/jid.h"
#include "base/notice.h"
#include "base/sanitize.h"
#include "proto/msg.h"
#include "store/store.h"
#include "base/xmalloc.h"

#define OUTBOX_PAGE	64

static void
fill_out(const struct store_msg *m, struct wa_dm_out *o)
{
	memset(o, 0, sizeof(*o));
	o->rowid = m->rowid;
	snprintf(o->chat, sizeof(o->chat), "%s", m->chat);
	snprintf(o->id, sizeof(o->id), "%s", m->id);
	o->payload = xmalloc(m->payload_len > 0 ? m->payload_len : 1);
	memcpy(o->payload, m->payload, m->payload_len);
	o->payload_len = m->payload_len;
	/* A hidden row is what its payload's first field says (protocol.md
	 * 9.4, 11.4, 11.5; whatsmeow getEditAttribute): reactionMessage (46)
	 * goes as type "reaction", an empty one (taking ours back) with
	 * edit 7; protocolMessage (12, a delete) with edit 7; editedMessage
	 * (58) with edit 1; a poll's vote (pollUpdateMessage, 50) as type
	 * "poll" (protocol-features.md 3.1).  A photo, video, audio,
	 * document or sticker of ours goes as type "media", which gives its
	 * <enc> the mediatype (protocol-features.md 1.7, [WM]
	 * getTypeFromMessage, [RS] stanza_type_from_message). */
	snprintf(o->type, sizeof(o->type), "%s", m->kind == STORE_MSG_RICH &&
	    m->text_len > 5 && memcmp(m->text, "poll\n", 5) == 0 ? "poll" :
	    m->kind == STORE_MSG_MEDIA ? "media" : "text");
	o->edit[0] = '\0';
	if (m->kind == STORE_MSG_HIDDEN) {
		switch (wa_msg_first_field(m->payload, m->payload_len)) {
		case 12:	/* a timer (type "text", no edit) or a delete */
			if (!wa_msg_is_eph_setting(m->payload,
			    m->payload_len))
				snprintf(o->edit, sizeof(o->edit), "7");
			break;
		case 58:
			snprintf(o->edit, sizeof(o->edit), "1");
			break;
		case 50:
			snprintf(o->type, sizeof(o->type), "poll");
			break;
		default:
			snprintf(o->type, sizeof(o->type), "reaction");
			if (m->text_len == 0)
				snprintf(o->edit, sizeof(o->edit), "7");
			break;
		}
	}
}

static int
out_insert(void *arg, const struct wa_dm_msg *m, const char *type,
    const char *edit)
{
	struct store_msg_new	 n;

	/* edit follows from the kind and the payload (fill_out) */
	memset(&n, 0, sizeof(n));
	n.chat = m->chat;
	n.id = m->id;
	n.sender = "";
	n.from_me = true;
	n.ts_ms = m->ts_ms;
	/* a reaction, an edit, a delete or a timer (type "protocol") is
	 * not a message of the chat:
	 * kept hidden (fill_out() reads back what it is) */
	n.kind = (type != NULL && (strcmp(type, "reaction") == 0 ||
	    strcmp(type, "protocol") == 0 || (strcmp(type, "poll") == 0 &&
	    wa_msg_first_field(m->payload, m->payload_len) == 50))) ||
	    (edit != NULL && edit[0] != '\0') ? STORE_MSG_HIDDEN :
	    STORE_MSG_TEXT;
	/* a poll of ours: its rich record (base/rich.h) as its text */
	if (n.kind == STORE_MSG_TEXT && type != NULL &&
	    strcmp(type, "poll") == 0)
		n.kind = STORE_MSG_RICH;
	n.text = m->text;
	n.text_len = m->text != NULL ? strlen(m->text) : 0;
	n.quoted_id = m->quoted_id;
	n.quoted_sender = m->quoted_sender;
	n.quoted_text = m->quoted_text;
	n.payload = m->payload;
	n.payload_len = m->payload_len;
	return store_msg_insert_outgoing(arg, &n, NULL);
}

static int
out_next(void *arg, int64_t after, struct wa_dm_out *o)
{
	struct store_msg_page	 p;
	size_t			 i;
	int			 rc;

	memset(&p, 0, sizeof(p));
	if ((rc = store_msg_outbox(arg, OUTBOX_PAGE, &p)) != 0)
		return rc;
	rc = 0;
	for (i = 0; i < p.n; i++)
		if (p.msgs[i].rowid > after) {
			fill_out(&p.msgs[i], o);
			rc = 1;
			break;
		}
	store_msg_page_free(&p);
	return rc;
}

static int
out_get(void *arg, const char *chat, const char *id, struct wa_dm_out *o)
{
	struct store_msg	 m;
	int			 rc;

	memset(&m, 0, sizeof(m));
	if ((rc = store_msg_get(arg, chat, true, id, &m)) != 1)
		return rc;
	if (m.payload == NULL || m.payload_len == 0)
		rc = 0;		/* pruned: cannot be sent again */
	else
		fill_out(&m, o);
	store_msg_release(&m);
	return rc;
}

static int
out_state(void *arg, const char *chat, const char *id,
    enum wa_dm_state state, int64_t ts_ms)
{
	switch (state) {
	case WA_DM_QUEUED:
		return store_msg_retry(arg, chat, id);
	case WA_DM_SENT:
		return store_msg_mark_sent(arg, chat, id, ts_ms);
	case WA_DM_DELIVERED:
		return store_msg_mark(arg, chat, true, id,
		    STORE_MSG_DELIVERED);
	case WA_DM_READ:
		return store_msg_mark(arg, chat, true, id, STORE_MSG_READ);
	case WA_DM_FAILED:
		return store_msg_mark_failed(arg, chat, id);
	case WA_DM_RECEIVED:
		break;
	}
	return -EINVAL;
}

static int
out_delete(void *arg, const char *chat, const char *id)
{
	return store_msg_delete_failed(arg, chat, id);
}

enum ev_notice
app_dm_note(enum wa_dm_note n)
{
	switch (n) {
	case WA_DM_NOTE_TEXT:		return EV_NOTICE_TEXT;
	case WA_DM_NOTE_IDENTITY:	return EV_NOTICE_IDENTITY;
	case WA_DM_NOTE_NOT_SENT:	return EV_NOTICE_NOT_SENT;
	case WA_DM_NOTE_CALL_IN:	return EV_NOTICE_CALL_IN;
	case WA_DM_NOTE_CALL_MISSED:	return EV_NOTICE_CALL_MISSED;
	case WA_DM_NOTE_CALL_ELSEWHERE:	return EV_NOTICE_CALL_ELSEWHERE;
	case WA_DM_NOTE_CALL_DECLINED:	return EV_NOTICE_CALL_DECLINED;
	case WA_DM_NOTE_CALL_REJECTED:	return EV_NOTICE_CALL_REJECTED;
	}
	return EV_NOTICE_TEXT;
}

/* A call notice's bits go from proto/dm.h to base/event.h as they are. */
_Static_assert(WA_DM_CALL_VIDEO == EV_CALL_VIDEO &&
    WA_DM_CALL_GROUP == EV_CALL_GROUP, "the call bits differ");

static int
in_insert(void *arg, const struct wa_dm_msg *m)
{
	struct store_msg_new	 n;
	struct store_media	 md;
	char			 code[NOTICE_CODE_MAX], *mtext = NULL;
	int			 rc;

	memset(&n, 0, sizeof(n));
	n.chat = m->chat;
	n.id = m->id;
	n.sender = m->sender;
	n.from_me = m->from_me;
	n.ts_ms = m->ts_ms;
	n.kind = m->kind == WA_DM_NOTICE ? STORE_MSG_NOTICE : STORE_MSG_TEXT;
	n.text = m->text;
	/* a typed notice keeps its kind, not its English words */
	if (m->kind == WA_DM_NOTICE && notice_code(app_dm_note(m->notice_kind),
	    m->notice_device, code, sizeof(code)))
		n.text = code;
	n.text_len = n.text != NULL ? strlen(n.text) : 0;
	n.quoted_id = m->quoted_id;
	n.quoted_sender = m->quoted_sender;
	n.quoted_text = m->quoted_text;
	n.state = m->from_me ? STORE_MSG_SENT : STORE_MSG_RECEIVED;
	n.forwarded = m->forwarded;
	if (m->kind == WA_DM_RICH) {
		n.kind = STORE_MSG_RICH;
		if (m->media != NULL) {	/* view-once: what opens it */
			app_media_store(m->media, &md);
			n.media = &md;
		}
	}
	if (m->kind == WA_DM_MEDIA && m->media != NULL) {
		/* its caption, after a document's name, for the search */
		n.kind = STORE_MSG_MEDIA;
		app_media_store(m->media, &md);
		n.media = &md;
		n.text = mtext = app_media_text(m->media);
		n.text_len = strlen(mtext);
		if (n.text_len > STORE_MSG_TEXT_MAX)
			n.text_len = STORE_MSG_TEXT_MAX;
	}
	rc = store_msg_insert_incoming(arg, &n, NULL);
	free(mtext);
	return rc == 2 ? 0 : rc;
}

static int
change(void *arg, const char *chat, const char *id, bool from_me,
    const char *text, int64_t ts_ms)
{
	if (text == NULL)
		return store_msg_revoke(arg, chat, from_me, id);
	return store_msg_edit(arg, chat, from_me, id, text, strlen(text),
	    ts_ms > 0 ? ts_ms : 1);
}

static int
live_update(void *arg, const char *chat, const char *sender, bool from_me,
    int64_t seq, const char *text, char *id_out, size_t id_size)
{
	return store_rich_live_update(arg, chat, sender, from_me, seq, text,
	    strlen(text), id_out, id_size);
}

static int
react(void *arg, const char *chat, const char *target, const char *sender,
    const char *emoji, int64_t ts_ms)
{
	int	 rc = store_reaction_set(arg, chat, target, sender, emoji,
		    ts_ms);

	return rc < 0 ? rc : 0;
}

static int
mark_read(void *arg, const char *chat, struct buf *ids)
{
	struct store_msg_ref	*r = NULL;
	size_t			 n = 0, i, total = 0;
	int			 rc;

	do {
		if ((rc = store_chat_mark_read(arg, chat, STORE_MSG_PAGE_MAX,
		    &r, &n)) < 0)
			return rc;
		for (i = 0; i < n; i++) {
			/* pairs: the id, then its sender (proto/dm.h) */
			buf_append(ids, r[i].id, strlen(r[i].id) + 1);
			buf_append(ids, r[i].sender, strlen(r[i].sender) + 1);
		}
		total += n;
		store_msg_refs_free(r, n);
		r = NULL;
		n = 0;
	} while (rc == 1);
	return (int)total;
}

static int
push_name(void *arg, const char *jid, const char *name)
{
	if (strcmp(name, "-") == 0)
		return 0;
	return store_contact_set_push_name(arg, jid, name);
}

static int
lid_put(void *arg, const char *pn, const char *lid)
{
	int	 rc = store_lid_put(arg, pn, lid);

	return rc < 0 ? rc : 0;
}

static int
lid_alt(void *arg, const char *user, char *out, size_t len)
{
	char	 other[STORE_JID_MAX + 1];
	int	 rc;

	rc = jid_is_lid(user) ? store_lid_get_pn(arg, user, other) :
	    store_lid_get_lid(arg, user, other);
	if (rc == 1)
		snprintf(out, len, "%s", other);
	return rc;
}

static int
devices_get(void *arg, const char *user, uint16_t *ids, size_t max)
{
	struct store_devlist_entry	 d[STORE_DEVLIST_MAX];
	size_t				 i, k;
	int				 rc;

	rc = store_devlist_get(arg, user, d, STORE_DEVLIST_MAX, NULL);
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return rc;
	k = (size_t)rc < max ? (size_t)rc : max;
	for (i = 0; i < k; i++)
		ids[i] = (uint16_t)d[i].id;
	return (int)k;
}

static int
devices_put(void *arg, const char *user, const uint16_t *ids, int n)
{
	struct store_devlist_entry	 d[STORE_DEVLIST_MAX];
	int				 i, rc;

	if (n < 0) {
		rc = store_devlist_forget(arg, user);
		return rc < 0 ? rc : 0;
	}
	if (n > STORE_DEVLIST_MAX)
		n = STORE_DEVLIST_MAX;
	memset(d, 0, sizeof(d));
	for (i = 0; i < n; i++)
		d[i].id = ids[i];
	return store_devlist_put(arg, user, d, (size_t)n, 0);
}

static int
tx_begin(void *arg)
{
	return store_tx_begin(arg);
}

static int
tx_commit(void *arg)
{
	return store_tx_commit(arg);
}

static int
tx_rollback(void *arg)
{
	return store_tx_rollback(arg);
}

/* --- groups --- */

static int
group_get(void *arg, const char *group, struct wa_dm_group *out)
{
	struct store_group	 g;
	size_t			 i;
	int			 rc;

	if ((rc = store_group_get(arg, group, &g)) != 1)
		return rc;
	memset(out, 0, sizeof(*out));
	out->lid = strcmp(g.mode, "lid") == 0;
	out->left = g.left;
	out->members = xcalloc(g.n + 1, sizeof(*out->members));
	out->alts = xcalloc(g.n + 1, sizeof(*out->alts));
	for (i = 0; i < g.n; i++) {
		snprintf(out->members[out->n], sizeof(out->members[0]), "%s",
		    g.members[i].jid);
		snprintf(out->alts[out->n], sizeof(out->alts[0]), "%s",
		    g.members[i].alt);
		out->n++;
	}
	store_group_release(&g);
	return 1;
}

static int
group_put(void *arg, const struct wa_group_info *gi)
{
	struct store_group	 g;
	size_t			 i;
	int			 rc, soft = 0;

	memset(&g, 0, sizeof(g));
	g.jid = (char *)gi->jid;
	g.subject = (char *)(gi->subject != NULL ? gi->subject : "");
	g.description = (char *)(gi->description != NULL ?
	    gi->description : "");
	g.mode = (char *)(gi->lid ? "lid" : "pn");
	g.creator = (char *)(gi->creator != NULL ? gi->creator : "");
	g.creation_ms = gi->creation * 1000;
	g.n = gi->n_participants;
	g.members = xcalloc(g.n + 1, sizeof(*g.members));
	for (i = 0; i < g.n; i++) {
		const struct wa_group_participant *p = &gi->participants[i];
		const char *alt = p->phone_number != NULL ? p->phone_number :
		    p->lid;

		g.members[i].jid = (char *)p->jid;
		g.members[i].alt = (char *)(alt != NULL ? alt : "");
		g.members[i].admin = p->superadmin ? 2 : p->admin ? 1 : 0;
		/* the names the server gives go to the contacts */
		if (p->display_name != NULL && p->display_name[0] != '\0' &&
		    store_contact_set_push_name(arg, alt != NULL &&
		    jid_is_pn(alt) ? alt : p->jid,
		    p->display_name) < 0)
			soft++;
		if (p->phone_number != NULL &&
		    store_lid_put(arg, p->phone_number, p->jid) < 0)
			soft++;
		else if (p->lid != NULL && store_lid_put(arg, p->jid, p->lid) <
		    0)
			soft++;
	}
	/* names and mappings are a best effort: the group is what counts */
	rc = store_group_put(arg, &g);
	free(g.members);
	/* the group's disappearing-messages timer as the server has it
	 * now (protocol-features.md 3.5) */
	if (rc >= 0 && gi->ephemeral_s >= 0 && gi->ephemeral_s <=
	    STORE_EPHEM_MAX && store_chat_ephem_set(arg, gi->jid,
	    (uint32_t)gi->ephemeral_s, (int64_t)time(NULL), false) < 0)
		soft++;
	(void)soft;
	return rc;
}

static int
group_subject(void *arg, const char *group, const char *subject)
{
	int	 rc = store_group_set_subject(arg, group, subject);

	return rc < 0 ? rc : 0;
}

static int
group_member(void *arg, const char *group, const char *jid, const char *alt,
    int admin)
{
	int	 rc;

	if (admin < 0)
		rc = store_group_member_remove(arg, group, jid);
	else
		rc = store_group_member_put(arg, group, jid, alt, admin);
	return rc < 0 ? rc : 0;
}

static int
group_left(void *arg, const char *group, bool left)
{
	int	 rc = store_group_set_left(arg, group, left);

	return rc < 0 ? rc : 0;
}

static int
group_sent(void *arg, const char *group, const char *id, unsigned recipients)
{
	int	 rc = store_msg_recipients(arg, group, id, recipients);

	return rc < 0 ? rc : 0;
}

static int
receipt_time(void *arg, const char *chat, const char *id, const char *member,
    enum wa_dm_state state, int64_t ts_ms)
{
	int	 rc = store_rtime_put(arg, chat, id, member, state ==
		    WA_DM_READ ? STORE_MSG_READ : STORE_MSG_DELIVERED, ts_ms);

	return rc < 0 ? rc : 0;
}

static int
member_receipt(void *arg, const char *group, const char *id,
    const char *member, enum wa_dm_state state)
{
	int	 rc = store_msg_member_receipt(arg, group, id, member,
	    state == WA_DM_READ ? STORE_MSG_READ : STORE_MSG_DELIVERED);

	if (rc == STORE_MSG_READ)
		return WA_DM_READ;
	if (rc == STORE_MSG_DELIVERED)
		return WA_DM_DELIVERED;
	return rc < 0 ? rc : 0;
}

static int
skr_has(void *arg, const char *group, const char *device)
{
	return store_skr_has(arg, group, device);
}

static int
skr_put(void *arg, const char *group, const char *device)
{
	return store_skr_put(arg, group, device);
}

static int
skr_forget(void *arg, const char *group, const char *device)
{
	return store_skr_forget(arg, group, device);
}

static int
skr_forget_device(void *arg, const char *device)
{
	return store_skr_forget_device(arg, device);
}

static int
skr_forget_user(void *arg, const char *user)
{
	return store_skr_forget_user(arg, user);
}

int
app_dm_name(struct store *s, const char *jid, char *out, size_t len)
{
	struct store_contact	*c = xmalloc(sizeof(*c));
	char			 other[STORE_JID_MAX + 1];
	int			 rc, k;

	for (k = 0; k < 2; k++) {
		rc = store_contact_get(s, jid, c);
		if (rc == 1 && (wc_has_label(c->name) ||
		    wc_has_label(c->push_name))) {
			snprintf(out, len, "%s", wc_has_label(c->name) ?
			    c->name : c->push_name);
			free(c);
			return 1;
		}
		/* then the same person under the other JID (5.3) */
		if (jid_is_lid(jid))
			rc = store_lid_get_pn(s, jid, other);
		else
			rc = store_lid_get_lid(s, jid, other);
		if (rc != 1)
			break;
		jid = other;
	}
	free(c);
	if (len > 0)
		out[0] = '\0';
	return 0;
}

static int
hist_put(void *arg, const char *id, const uint8_t *msg, size_t len)
{
	return app_hist_put(arg, id, msg, len, (int64_t)time(NULL) * 1000);
}

static int
eph_set(void *arg, const char *chat, uint32_t secs, int64_t ts_s,
    bool only_newer)
{
	return store_chat_ephem_set(arg, chat, secs, ts_s, only_newer);
}

static int
eph_get(void *arg, const char *chat, uint32_t *secs, int64_t *ts_s)
{
	return store_chat_ephem(arg, chat, secs, ts_s);
}

static int
as_key_put(void *arg, const struct wa_askey *k)
{
	return app_as_key_put(arg, k);
}

static int
name_get(void *arg, const char *jid, char *out, size_t len)
{
	return app_dm_name(arg, jid, out, len);
}

void
app_dm_ops(struct store *s, struct wa_dm_store_ops *ops)
{
	memset(ops, 0, sizeof(*ops));
	ops->out_insert = out_insert;
	ops->out_next = out_next;
	ops->out_get = out_get;
	ops->out_state = out_state;
	ops->out_delete = out_delete;
	ops->in_insert = in_insert;
	ops->live_update = live_update;
	ops->change = change;
	ops->react = react;
	ops->mark_read = mark_read;
	ops->push_name = push_name;
	ops->lid_put = lid_put;
	ops->lid_alt = lid_alt;
	ops->devices_get = devices_get;
	ops->devices_put = devices_put;
	ops->group_get = group_get;
	ops->group_put = group_put;
	ops->group_subject = group_subject;
	ops->group_member = group_member;
	ops->group_left = group_left;
	ops->skr_has = skr_has;
	ops->skr_put = skr_put;
	ops->skr_forget = skr_forget;
	ops->skr_forget_device = skr_forget_device;
	ops->skr_forget_user = skr_forget_user;
	ops->group_sent = group_sent;
	ops->member_receipt = member_receipt;
	ops->receipt_time = receipt_time;
	ops->name_get = name_get;
	ops->eph_set = eph_set;
	ops->eph_get = eph_get;
	ops->hist_put = hist_put;
	ops->as_key_put = as_key_put;
	ops->tx_begin = tx_begin;
	ops->tx_commit = tx_commit;
	ops->tx_rollback = tx_rollback;
	ops->arg = s;
	app_privtok_ops(s, ops);
	app_poll_ops(s, ops);
}
