/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-forward.c -- CMD_FORWARD (issue 20; protocol-features.md 3.7):
 * a stored message sent again to other chats, marked forwarded.  The
 * content is built anew from what the store keeps: a text as
 * extendedTextMessage{text} (a plain conversation cannot carry the
 * mark), media with the url, direct path, media key and hashes of the
 * original (no upload: [BL] generateForwardMessageContent copies them),
 * a location, contact cards or a link preview from its rich record
 * (proto/msg.h wa_msg_build_rich_forward()).  Each copy gets
 * contextInfo{isForwarded, forwardingScore = the original's + 1} (for
 * our own messages too, where [BL] adds 0 unless forced: wachat marks
 * every forward), and is stored QUEUED with its payload, shown
 * (EV_MESSAGE) and sent by the outbox as any message (a failure: FAILED,
 * Ctrl-t sends it again).  Engine thread.
 */
#include "base/compat.h"

#define LOG_TAG	"eng"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/event.h"
#include "base/i18n.h"
#include "base/jid.h"
#include "base/log.h"
#include "proto/dm.h"
#include "proto/eng.h"
#include "proto/msg.h"
#include "src/app-int.h"
#include "src/app-media.h"
#include "store/store.h"

/* The message being forwarded, as stored. */
struct fwd {
	struct store_msg	 m;
	struct store_media	 sm;
	bool			 has_media;
	uint32_t		 score;
	struct buf		 payload;
};

/* f's payload from its stored content.  Returns 0, -ENOTSUP (a kind not
 * forwarded), -EAGAIN (media not uploaded or without its keys) or the
 * builders' errors. */
static int
build(struct app *a, struct fwd *f)
{
	struct wa_msg_text	 t;
	struct wa_msg_media	 md;
	int			 rc;

	memset(&t, 0, sizeof(t));
	t.text = f->m.text;
	t.forward_score = f->score;
	switch (f->m.kind) {
	case STORE_MSG_TEXT:
		return wa_msg_build_text(&t, &f->payload);
	case STORE_MSG_RICH:
		return wa_msg_build_rich_forward(f->m.text, f->m.text_len,
		    f->score, &f->payload);
	case STORE_MSG_MEDIA:
		if ((rc = store_media_get(a->store, f->m.chat, f->m.from_me,
		    f->m.id, &f->sm)) < 0)
			return rc;
		f->has_media = rc == 1;
		if (rc == 0 || f->sm.direct_path[0] == '\0' ||
		    f->sm.media_key_len == 0)
			return -EAGAIN;
		app_media_wire(&f->sm, &md);
		t.text = "";
		return wa_msg_build_media(&md, &t, &f->payload) == 0 ? 0 :
		    -EAGAIN;
	default:
		return -ENOTSUP;
	}
}

/* The copy of f to chat with the new id: stored (with chat's
 * disappearing-messages timer when it has one, issue 20), then shown.
 * Returns 0 or the store's error. */
static int
put(struct app *a, struct wa_dm *dm, const struct fwd *f, const char *chat,
    const char *id)
{
	struct store_msg_new	 n;
	struct store_media	 sm;
	struct ev		*ev;
	struct buf		 p = BUF_INIT;
	int			 rc;

	buf_append(&p, f->payload.p, f->payload.len);
	if ((rc = wa_dm_expiry(dm, chat, &p)) != 0) {
		buf_release(&p);
		return rc;
	}

	memset(&n, 0, sizeof(n));
	n.chat = chat;
	n.id = id;
	n.sender = "";
	n.from_me = true;
	n.ts_ms = (int64_t)time(NULL) * 1000;
	n.kind = f->m.kind;
	n.text = f->m.text;
	n.text_len = f->m.text_len;
	n.payload = p.p;
	n.payload_len = p.len;
	n.forwarded = f->score;
	if (f->has_media) {
		sm = f->sm;	/* the same file: downloaded, it opens */
		sm.ul_state = STORE_UL_DONE;
		n.media = &sm;
	}
	rc = store_msg_insert_outgoing(a->store, &n, NULL);
	buf_release(&p);
	if (rc != 0)
		return rc;
	ev = ev_new(EV_MESSAGE);
	ev_set(&ev->u.message.key.chat, chat);
	ev_set(&ev->u.message.key.id, id);
	ev->u.message.key.from_me = true;
	ev_set(&ev->u.message.text, f->m.text);
	ev->u.message.state = EV_STATE_QUEUED;
	ev->u.message.ts_ms = n.ts_ms;
	ev->u.message.rich = f->m.kind == STORE_MSG_RICH;
	ev->u.message.forwarded = f->score;
	if (f->has_media)
		app_media_ev_of_store(&f->sm, &ev->u.message.media);
	app_eng_send(a, ev);
	return 0;
}

/* What a refusal of build() or put() says. */
static const char *
words(int rc)
{
	switch (rc) {
	case -ENOENT:
		return _("cannot forward: the message is not stored");
	case -ENOTSUP:
		return _("this kind of message cannot be forwarded");
	case -EAGAIN:
		return _("cannot forward: the file was not sent or received "
		    "whole");
	case -ENOSPC:
		return _("cannot forward: disk full");
	default:
		return _("cannot forward the message");
	}
}

/* Each target of c gets its copy of f; returns the copies made, or the
 * first error when none was. */
static int
fan_out(struct app *a, struct wa_dm *dm, const struct cmd_forward *c,
    const struct fwd *f)
{
	char		 id[WA_DM_ID_MAX];
	uint32_t	 i;
	int		 rc = 0, made = 0;

	for (i = 0; i < c->ntargets && i < CMD_FORWARD_MAX; i++) {
		if (!jid_is_pn(c->targets[i]) && !jid_is_lid(c->targets[i]) &&
		    !jid_is_group(c->targets[i])) {
			rc = -EINVAL;
			continue;
		}
		if ((rc = wa_dm_new_id(dm, id)) == 0 &&
		    (rc = put(a, dm, f, c->targets[i], id)) == 0) {
			made++;
			log_info("message %s forwarded as %s", c->id, id);
		} else if (rc == -ENOSPC)
			break;
	}
	return made > 0 ? made : rc;
}

void
app_forward(struct app *a, const struct cmd *c)
{
	const struct cmd_forward *fc = &c->u.forward;
	struct wa_dm	*dm = a->eng != NULL ? wa_eng_dm(a->eng) : NULL;
	struct fwd	 f;
	int		 rc;

	if (dm == NULL || a->store == NULL || fc->ntargets == 0)
		return;
	memset(&f, 0, sizeof(f));
	rc = store_msg_get(a->store, fc->chat, fc->from_me, fc->id, &f.m);
	if (rc == 1 && f.m.deleted)
		rc = -ENOTSUP;
	else if (rc == 1) {
		f.score = f.m.forwarded + 1;	/* 3.7: the original's + 1 */
		rc = build(a, &f);
	} else if (rc == 0)
		rc = -ENOENT;
	if (rc == 0)
		rc = fan_out(a, dm, fc, &f);
	if (rc < 0) {
		if (rc == -ENOSPC)
			app_disk_full(a);
		app_eng_error(a, words(rc), rc);
	} else {
		wa_dm_outbox_kick(dm);
		app_expire_kick(a);	/* a copy in a disappearing chat */
	}
	buf_release(&f.payload);
	store_media_release(&f.sm);
	store_msg_release(&f.m);
}
