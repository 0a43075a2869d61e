/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/appstate-action.c -- the actions of app-state sync: where each
 * index lives (protocol-features.md 2.1), how a SyncActionData reads as a
 * struct wa_as_action (2.2, 2.8) and how ours are written (2.7), for
 * proto/appstate.h.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/appstate-int.h"

/* 2.1's table, [RS] schemas.rs where the sources differ (star in
 * regular_high). */
static const struct as_kind kinds[] = {
	{ "contact", WA_AS_ACT_CONTACT, WA_AS_CRITICAL_UNBLOCK_LOW, 2 },
	{ "lid_contact", WA_AS_ACT_LID_CONTACT, WA_AS_CRITICAL_UNBLOCK_LOW, 1 },
	{ "setting_pushName", WA_AS_ACT_PUSH_NAME, WA_AS_CRITICAL_BLOCK, 1 },
	{ "mute", WA_AS_ACT_MUTE, WA_AS_REGULAR_HIGH, 2 },
	{ "star", WA_AS_ACT_STAR, WA_AS_REGULAR_HIGH, 2 },
	{ "deleteMessageForMe", WA_AS_ACT_DELETE_MSG_FOR_ME,
	    WA_AS_REGULAR_HIGH, 3 },
	{ "clearChat", WA_AS_ACT_CLEAR_CHAT, WA_AS_REGULAR_HIGH, 6 },
	{ "deleteChat", WA_AS_ACT_DELETE_CHAT, WA_AS_REGULAR_HIGH, 6 },
	{ "userStatusMute", WA_AS_ACT_USER_STATUS_MUTE, WA_AS_REGULAR_HIGH, 7 },
	{ "pin_v1", WA_AS_ACT_PIN, WA_AS_REGULAR_LOW, 5 },
	{ "archive", WA_AS_ACT_ARCHIVE, WA_AS_REGULAR_LOW, 3 },
	{ "markChatAsRead", WA_AS_ACT_MARK_READ, WA_AS_REGULAR_LOW, 3 },
	{ "setting_unarchiveChats", WA_AS_ACT_UNARCHIVE_SETTING,
	    WA_AS_REGULAR_LOW, 4 },
	{ "lock", WA_AS_ACT_LOCK, WA_AS_REGULAR_LOW, 7 },
	{ "pnForLidChat", WA_AS_ACT_PN_FOR_LID, WA_AS_REGULAR, 8 },
	{ "setting_locale", WA_AS_ACT_IGNORED, -1, 0 },
	{ "nct_salt_sync", WA_AS_ACT_IGNORED, -1, 0 },
	{ "time_format", WA_AS_ACT_IGNORED, -1, 0 },
	{ "primary_version", WA_AS_ACT_IGNORED, -1, 0 },
	{ "sentinel", WA_AS_ACT_IGNORED, -1, 0 },
	{ "label_edit", WA_AS_ACT_IGNORED, -1, 0 },
	{ "label_jid", WA_AS_ACT_IGNORED, -1, 0 },
	{ "label_message", WA_AS_ACT_IGNORED, -1, 0 },
	{ "setting_disableLinkPreviews", WA_AS_ACT_IGNORED, -1, 0 },
};
#define NKINDS	(sizeof(kinds) / sizeof(kinds[0]))

const struct as_kind *
as_kind_by_name(const char *name)
{
	size_t	 i;

	for (i = 0; i < NKINDS; i++)
		if (strcmp(kinds[i].name, name) == 0)
			return &kinds[i];
	return NULL;
}

const struct as_kind *
as_kind_by_kind(enum wa_as_action_kind k)
{
	size_t	 i;

	for (i = 0; i < NKINDS; i++)
		if (kinds[i].kind == k)
			return &kinds[i];
	return NULL;
}

int
wa_as_action_coll(enum wa_as_action_kind k)
{
	const struct as_kind	*e = as_kind_by_kind(k);

	return e == NULL ? -1 : e->coll;
}

int
wa_as_action_version(enum wa_as_action_kind k)
{
	const struct as_kind	*e = as_kind_by_kind(k);

	return e == NULL ? 0 : e->version;
}

static int64_t
range_last(const Waas__SyncActionMessageRange *r)
{
	return r != NULL && r->has_lastmessagetimestamp ?
	    r->lastmessagetimestamp : 0;
}

/* The message-keyed index of star and deleteMessageForMe. */
static bool
msg_index(char **parts, size_t n, struct wa_as_action *out)
{
	if (n < 5)
		return false;
	out->msg_id = parts[2];
	out->from_me = strcmp(parts[3], "1") == 0;
	out->participant = strcmp(parts[4], "0") == 0 ? NULL : parts[4];
	return true;
}

/* muted with a negative end: forever (-1); with a positive one: until
 * then (ms); with none or 0: forever too ([WM] would read 0 as an end in
 * 1970, i.e. not muted; we never send it, see enc_chat_kinds()). */
static int64_t
mute_end(const Waas__MuteAction *m)
{
	if (!m->has_muted || !m->muted)
		return 0;
	if (!m->has_muteendtimestamp || m->muteendtimestamp == 0 ||
	    m->muteendtimestamp < 0)
		return -1;
	return m->muteendtimestamp;
}

/* The fields of the contact and chat-state kinds from v (fields()). */
static bool
fields_chat(enum wa_as_action_kind k, const Waas__SyncActionValue *v,
    struct wa_as_action *o)
{
	switch (k) {
	case WA_AS_ACT_CONTACT:
		if (v->contactaction == NULL)
			return false;
		o->full_name = v->contactaction->fullname;
		o->first_name = v->contactaction->firstname;
		o->lid = v->contactaction->lidjid;
		o->pn = v->contactaction->pnjid;
		return true;
	case WA_AS_ACT_LID_CONTACT:
		if (v->lidcontactaction == NULL)
			return false;
		o->full_name = v->lidcontactaction->fullname;
		o->first_name = v->lidcontactaction->firstname;
		return true;
	case WA_AS_ACT_PUSH_NAME:
		if (v->pushnamesetting == NULL)
			return false;
		o->push_name = v->pushnamesetting->name;
		return true;
	case WA_AS_ACT_MUTE:
		if (v->muteaction == NULL)
			return false;
		o->flag = v->muteaction->muted;
		o->mute_end_ms = mute_end(v->muteaction);
		return true;
	case WA_AS_ACT_PIN:
		if (v->pinaction == NULL)
			return false;
		o->flag = v->pinaction->pinned;
		return true;
	case WA_AS_ACT_ARCHIVE:
		if (v->archivechataction == NULL)
			return false;
		o->flag = v->archivechataction->archived;
		o->range_last_s = range_last(v->archivechataction->messagerange);
		return true;
	case WA_AS_ACT_MARK_READ:
		if (v->markchatasreadaction == NULL)
			return false;
		o->flag = v->markchatasreadaction->read;
		o->range_last_s =
		    range_last(v->markchatasreadaction->messagerange);
		return true;
	default:
		return false;
	}
}

/* The fields of kind k from v; false when v lacks k's action. */
static bool
fields(enum wa_as_action_kind k, const Waas__SyncActionValue *v,
    char **parts, size_t n, struct wa_as_action *o)
{
	switch (k) {
	case WA_AS_ACT_STAR:
		if (v->staraction == NULL || !msg_index(parts, n, o))
			return false;
		o->flag = v->staraction->starred;
		return true;
	case WA_AS_ACT_DELETE_MSG_FOR_ME:
		if (v->deletemessageformeaction == NULL ||
		    !msg_index(parts, n, o))
			return false;
		o->delete_media = v->deletemessageformeaction->deletemedia;
		o->msg_ts_s = v->deletemessageformeaction->messagetimestamp;
		return true;
	case WA_AS_ACT_CLEAR_CHAT:
		if (v->clearchataction == NULL)
			return false;
		o->delete_starred = n > 2 && strcmp(parts[2], "1") == 0;
		o->delete_media = n > 3 && strcmp(parts[3], "1") == 0;
		o->range_last_s = range_last(v->clearchataction->messagerange);
		return true;
	case WA_AS_ACT_DELETE_CHAT:
		if (v->deletechataction == NULL)
			return false;
		o->delete_media = n > 2 && strcmp(parts[2], "1") == 0;
		o->range_last_s = range_last(v->deletechataction->messagerange);
		return true;
	case WA_AS_ACT_LOCK:
		if (v->lockchataction == NULL)
			return false;
		o->flag = v->lockchataction->locked;
		return true;
	case WA_AS_ACT_UNARCHIVE_SETTING:
		if (v->unarchivechatssetting == NULL)
			return false;
		o->flag = v->unarchivechatssetting->unarchivechats;
		return true;
	case WA_AS_ACT_PN_FOR_LID:
		if (v->pnforlidchataction == NULL)
			return false;
		o->pn = v->pnforlidchataction->pnjid;
		return true;
	case WA_AS_ACT_USER_STATUS_MUTE:
		if (v->userstatusmuteaction == NULL)
			return false;
		o->flag = v->userstatusmuteaction->muted;
		return true;
	default:
		return fields_chat(k, v, o);
	}
}

void
as_action_decode(struct arena *a, const Waas__SyncActionData *d,
    char **parts, size_t n, struct wa_as_action *out)
{
	const struct as_kind	*k;
	const Waas__SyncActionValue *v = d->value;

	(void)a;
	memset(out, 0, sizeof(*out));
	out->kind = WA_AS_ACT_UNKNOWN;
	out->version = d->has_version ? d->version : 0;
	if (v != NULL && v->has_timestamp)
		out->ts_ms = v->timestamp;
	if (n == 0 || (k = as_kind_by_name(parts[0])) == NULL)
		return;
	if (k->kind == WA_AS_ACT_IGNORED) {
		out->kind = WA_AS_ACT_IGNORED;
		return;
	}
	if (k->kind != WA_AS_ACT_PUSH_NAME &&
	    k->kind != WA_AS_ACT_UNARCHIVE_SETTING) {
		if (n < 2)
			return;
		out->chat = parts[1];
	}
	if (v != NULL && fields(k->kind, v, parts, n, out))
		out->kind = k->kind;
	else {
		int64_t	 ts = out->ts_ms;
		int	 ver = out->version;

		memset(out, 0, sizeof(*out));
		out->ts_ms = ts;
		out->version = ver;
	}
}

/* ---- Encoding ours ---- */

/* Everything one SyncActionValue of ours needs, on the stack. */
struct enc {
	Waas__SyncActionValue		 v;
	Waas__SyncActionMessageRange	 range;
	union {
		Waas__MuteAction	 mute;
		Waas__PinAction		 pin;
		Waas__ArchiveChatAction	 archive;
		Waas__MarkChatAsReadAction read;
		Waas__StarAction	 star;
		Waas__DeleteChatAction	 del;
		Waas__ClearChatAction	 clear;
		Waas__DeleteMessageForMeAction dmsg;
		Waas__ContactAction	 contact;
		Waas__PushNameSetting	 push;
	} u;
	const char			*parts[5];
	size_t				 n;
};

static Waas__SyncActionMessageRange *
enc_range(struct enc *e, const struct wa_as_action *a)
{
	if (a->range_last_s <= 0)
		return NULL;
	waas__sync_action_message_range__init(&e->range);
	e->range.has_lastmessagetimestamp = true;
	e->range.lastmessagetimestamp = a->range_last_s;
	return &e->range;
}

static bool
enc_msg_index(struct enc *e, const struct wa_as_action *a)
{
	if (a->msg_id == NULL)
		return false;
	e->parts[2] = a->msg_id;
	e->parts[3] = a->from_me ? "1" : "0";
	e->parts[4] = a->participant != NULL ? a->participant : "0";
	e->n = 5;
	return true;
}

static bool
enc_chat_kinds(struct enc *e, const struct wa_as_action *a)
{
	switch (a->kind) {
	case WA_AS_ACT_MUTE:
		waas__mute_action__init(&e->u.mute);
		e->u.mute.has_muted = true;
		e->u.mute.muted = a->flag;
		if (a->flag) {	/* no end (0) is sent as forever (-1) */
			e->u.mute.has_muteendtimestamp = true;
			e->u.mute.muteendtimestamp = a->mute_end_ms <= 0 ? -1 :
			    a->mute_end_ms;
		}
		e->v.muteaction = &e->u.mute;
		return true;
	case WA_AS_ACT_PIN:
		waas__pin_action__init(&e->u.pin);
		e->u.pin.has_pinned = true;
		e->u.pin.pinned = a->flag;
		e->v.pinaction = &e->u.pin;
		return true;
	case WA_AS_ACT_ARCHIVE:
		waas__archive_chat_action__init(&e->u.archive);
		e->u.archive.has_archived = true;
		e->u.archive.archived = a->flag;
		e->u.archive.messagerange = enc_range(e, a);
		e->v.archivechataction = &e->u.archive;
		return true;
	case WA_AS_ACT_MARK_READ:
		waas__mark_chat_as_read_action__init(&e->u.read);
		e->u.read.has_read = true;
		e->u.read.read = a->flag;
		e->u.read.messagerange = enc_range(e, a);
		e->v.markchatasreadaction = &e->u.read;
		return true;
	case WA_AS_ACT_STAR:
		waas__star_action__init(&e->u.star);
		e->u.star.has_starred = true;
		e->u.star.starred = a->flag;
		e->v.staraction = &e->u.star;
		return enc_msg_index(e, a);
	case WA_AS_ACT_DELETE_MSG_FOR_ME:
		waas__delete_message_for_me_action__init(&e->u.dmsg);
		e->u.dmsg.has_deletemedia = true;
		e->u.dmsg.deletemedia = a->delete_media;
		e->u.dmsg.has_messagetimestamp = a->msg_ts_s != 0;
		e->u.dmsg.messagetimestamp = a->msg_ts_s;
		e->v.deletemessageformeaction = &e->u.dmsg;
		return enc_msg_index(e, a);
	default:
		return false;
	}
}

static bool
enc_other_kinds(struct enc *e, const struct wa_as_action *a)
{
	switch (a->kind) {
	case WA_AS_ACT_DELETE_CHAT:
		waas__delete_chat_action__init(&e->u.del);
		e->u.del.messagerange = enc_range(e, a);
		e->v.deletechataction = &e->u.del;
		e->parts[2] = a->delete_media ? "1" : "0";
		e->n = 3;
		return true;
	case WA_AS_ACT_CLEAR_CHAT:
		waas__clear_chat_action__init(&e->u.clear);
		e->u.clear.messagerange = enc_range(e, a);
		e->v.clearchataction = &e->u.clear;
		e->parts[2] = a->delete_starred ? "1" : "0";
		e->parts[3] = a->delete_media ? "1" : "0";
		e->n = 4;
		return true;
	case WA_AS_ACT_CONTACT:
		/* protobuf-c's fields are char *; packing only reads them */
		waas__contact_action__init(&e->u.contact);
		e->u.contact.fullname = (char *)a->full_name;
		e->u.contact.firstname = (char *)a->first_name;
		e->u.contact.lidjid = (char *)a->lid;
		e->u.contact.pnjid = (char *)a->pn;
		e->v.contactaction = &e->u.contact;
		return true;
	case WA_AS_ACT_PUSH_NAME:
		if (a->push_name == NULL)
			return false;
		waas__push_name_setting__init(&e->u.push);
		e->u.push.name = (char *)a->push_name;
		e->v.pushnamesetting = &e->u.push;
		e->n = 1;
		return true;
	default:
		return enc_chat_kinds(e, a);
	}
}

static bool
strings_ok(const struct wa_as_action *a)
{
	const char	*s[] = { a->full_name, a->first_name, a->lid, a->pn,
	    a->push_name };
	size_t		 i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (s[i] != NULL &&
		    !as_utf8_ok((const uint8_t *)s[i], strlen(s[i])))
			return false;
	return true;
}

int
wa_as_action_encode(const struct wa_as_action *a, int64_t now_ms,
    struct buf *out, char **index_json)
{
	const struct as_kind	*k = as_kind_by_kind(a->kind);
	struct buf		 idx = BUF_INIT;
	Waas__SyncActionData	 d;
	struct enc		 e;
	size_t			 len;
	int			 rc;

	if (k == NULL || k->kind == WA_AS_ACT_IGNORED ||
	    k->kind == WA_AS_ACT_LID_CONTACT || !strings_ok(a))
		return -EINVAL;
	memset(&e, 0, sizeof(e));
	waas__sync_action_value__init(&e.v);
	e.v.has_timestamp = true;
	e.v.timestamp = now_ms;
	e.parts[0] = k->name;
	e.parts[1] = a->chat;
	e.n = 2;
	if (k->kind != WA_AS_ACT_PUSH_NAME && a->chat == NULL)
		return -EINVAL;
	if (!enc_other_kinds(&e, a))
		return -EINVAL;
	if ((rc = wa_as_index_encode(e.parts, e.n, &idx)) != 0)
		return rc;
	waas__sync_action_data__init(&d);
	d.has_index = true;
	d.index.data = idx.p;
	d.index.len = idx.len;
	d.value = &e.v;
	d.has_padding = true;	/* empty, as [WM] and [BL] send it */
	d.has_version = true;
	d.version = k->version;
	len = protobuf_c_message_get_packed_size(&d.base);
	buf_reserve(out, len);
	protobuf_c_message_pack(&d.base, out->p + out->len);
	out->len += len;
	*index_json = xmalloc(idx.len + 1);
	memcpy(*index_json, idx.p, idx.len);
	(*index_json)[idx.len] = '\0';
	buf_release(&idx);
	return 0;
}

int
wa_as_action_decode(struct arena *a, const uint8_t *p, size_t len,
    struct wa_as_action *out)
{
	ProtobufCMessage	*pm;
	Waas__SyncActionData	*d;
	char			**parts;
	size_t			 n;
	int			 rc;

	if (a == NULL || out == NULL || (p == NULL && len > 0))
		return -EINVAL;
	if (len > WA_AS_VALUE_MAX_LEN)
		return WC_ETOOBIG;
	if ((rc = as_pb_unpack(a, &waas__sync_action_data__descriptor, p, len,
	    &pm)) != 0)
		return rc;
	d = (Waas__SyncActionData *)pm;
	if (!d->has_index)
		return WC_EPROTO;
	if ((rc = wa_as_index_parse(a, (const char *)d->index.data,
	    d->index.len, &parts, &n)) != 0)
		return rc;
	as_action_decode(a, d, parts, n, out);
	return 0;
}
