/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg.c -- the message layer of 1:1 messaging (proto/msg.h): Message
 * protobufs built and flattened, padding, message ids, and the <message>,
 * <receipt>, <ack>, <chatstate> and <presence> nodes.  Sections of
 * protocol.md are named where each fact is used.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "e2e.pb-c.h"
#include "base/err.h"
#include "proto/msg.h"
#include "proto/msg-int.h"
#include "proto/node.h"
#include "proto/pb.h"
#include "proto/reporting.h"
#include "base/xmalloc.h"

/* Message field numbers used below (9.1, 17). */
#define F_CONTEXT_INFO		35	/* Message.messageContextInfo */
#define F_DSM			31	/* Message.deviceSentMessage */
#define DSM_DESTINATION		1	/* DeviceSentMessage.destinationJid */
#define DSM_MESSAGE		2	/* DeviceSentMessage.message */
#define WIRE_LEN		2	/* length-delimited wire type */

#define PT_REVOKE	WAE2E__MESSAGE__PROTOCOL_MESSAGE__TYPE__REVOKE
#define PT_EDIT		WAE2E__MESSAGE__PROTOCOL_MESSAGE__TYPE__MESSAGE_EDIT

/*
 * Names of the fields of WAWebProtobufsE2E.Message, as Baileys' WAProto
 * (7.0.0-rc14) spells them, so that an unsupported message can say what it
 * is ("imageMessage").  Sorted by number.
 */
static const struct {
	uint32_t	 num;
	const char	*name;
} field_names[] = {
	{ 1, "conversation" },
	{ 2, "senderKeyDistributionMessage" },
	{ 3, "imageMessage" },
	{ 4, "contactMessage" },
	{ 5, "locationMessage" },
	{ 6, "extendedTextMessage" },
	{ 7, "documentMessage" },
	{ 8, "audioMessage" },
	{ 9, "videoMessage" },
	{ 10, "call" },
	{ 11, "chat" },
	{ 12, "protocolMessage" },
	{ 13, "contactsArrayMessage" },
	{ 14, "highlyStructuredMessage" },
	{ 15, "fastRatchetKeySenderKeyDistributionMessage" },
	{ 16, "sendPaymentMessage" },
	{ 18, "liveLocationMessage" },
	{ 22, "requestPaymentMessage" },
	{ 23, "declinePaymentRequestMessage" },
	{ 24, "cancelPaymentRequestMessage" },
	{ 25, "templateMessage" },
	{ 26, "stickerMessage" },
	{ 28, "groupInviteMessage" },
	{ 29, "templateButtonReplyMessage" },
	{ 30, "productMessage" },
	{ 31, "deviceSentMessage" },
	{ 35, "messageContextInfo" },
	{ 36, "listMessage" },
	{ 37, "viewOnceMessage" },
	{ 38, "orderMessage" },
	{ 39, "listResponseMessage" },
	{ 40, "ephemeralMessage" },
	{ 41, "invoiceMessage" },
	{ 42, "buttonsMessage" },
	{ 43, "buttonsResponseMessage" },
	{ 44, "paymentInviteMessage" },
	{ 45, "interactiveMessage" },
	{ 46, "reactionMessage" },
	{ 47, "stickerSyncRmrMessage" },
	{ 48, "interactiveResponseMessage" },
	{ 49, "pollCreationMessage" },
	{ 50, "pollUpdateMessage" },
	{ 51, "keepInChatMessage" },
	{ 53, "documentWithCaptionMessage" },
	{ 54, "requestPhoneNumberMessage" },
	{ 55, "viewOnceMessageV2" },
	{ 56, "encReactionMessage" },
	{ 58, "editedMessage" },
	{ 59, "viewOnceMessageV2Extension" },
	{ 60, "pollCreationMessageV2" },
	{ 61, "scheduledCallCreationMessage" },
	{ 62, "groupMentionedMessage" },
	{ 63, "pinInChatMessage" },
	{ 64, "pollCreationMessageV3" },
	{ 65, "scheduledCallEditMessage" },
	{ 66, "ptvMessage" },
	{ 67, "botInvokeMessage" },
	{ 69, "callLogMesssage" },
	{ 70, "messageHistoryBundle" },
	{ 71, "encCommentMessage" },
	{ 72, "bcallMessage" },
	{ 74, "lottieStickerMessage" },
	{ 75, "eventMessage" },
	{ 76, "encEventResponseMessage" },
	{ 77, "commentMessage" },
	{ 78, "newsletterAdminInviteMessage" },
	{ 80, "placeholderMessage" },
	{ 82, "secretEncryptedMessage" },
	{ 83, "albumMessage" },
	{ 85, "eventCoverImage" },
	{ 86, "stickerPackMessage" },
	{ 87, "statusMentionMessage" },
	{ 88, "pollResultSnapshotMessage" },
	{ 90, "pollCreationOptionImageMessage" },
	{ 91, "associatedChildMessage" },
	{ 92, "groupStatusMentionMessage" },
	{ 93, "pollCreationMessageV4" },
	{ 95, "statusAddYours" },
	{ 96, "groupStatusMessage" },
	{ 97, "richResponseMessage" },
	{ 98, "statusNotificationMessage" },
	{ 99, "limitSharingMessage" },
	{ 100, "botTaskMessage" },
	{ 101, "questionMessage" },
	{ 102, "messageHistoryNotice" },
	{ 103, "groupStatusMessageV2" },
	{ 104, "botForwardedMessage" },
	{ 105, "statusQuestionAnswerMessage" },
	{ 106, "questionReplyMessage" },
	{ 107, "questionResponseMessage" },
	{ 109, "statusQuotedMessage" },
	{ 110, "statusStickerInteractionMessage" },
	{ 111, "pollCreationMessageV5" },
	{ 113, "newsletterFollowerInviteMessageV2" },
	{ 114, "pollResultSnapshotMessageV3" },
};

const char *
wa_msg_field_name(uint32_t num)
{
	size_t	 lo = 0, hi = sizeof(field_names) / sizeof(field_names[0]);

	while (lo < hi) {
		size_t	 mid = lo + (hi - lo) / 2;

		if (field_names[mid].num == num)
			return field_names[mid].name;
		if (field_names[mid].num < num)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* --- ids and padding (9.3, 9.5) --- */

void
wa_msg_id(const uint8_t rnd[WA_MSG_ID_RAND_LEN], uint64_t unix_s,
    const char *own_user, char out[WA_MSG_ID_LEN + 1])
{
	static const char	 hex[] = "0123456789ABCDEF";
	struct buf		 in = BUF_INIT;
	uint8_t			 ts[8], h[WA_CRYPTO_HASH_LEN];
	size_t			 i;

	for (i = 0; i < 8; i++)
		ts[i] = (uint8_t)(unix_s >> (56 - 8 * i));
	buf_append(&in, ts, sizeof(ts));
	if (own_user != NULL && own_user[0] != '\0') {
		buf_append(&in, own_user, strlen(own_user));
		buf_append(&in, "@c.us", 5);
	}
	buf_append(&in, rnd, WA_MSG_ID_RAND_LEN);
	wa_crypto_sha256(in.p, in.len, h);
	buf_release(&in);
	memcpy(out, "3EB0", 4);
	for (i = 0; i < 9; i++) {
		out[4 + 2 * i] = hex[h[i] >> 4];
		out[5 + 2 * i] = hex[h[i] & 0x0F];
	}
	out[WA_MSG_ID_LEN] = '\0';
}

void
wa_msg_pad(const uint8_t *p, size_t len, uint8_t rnd, struct buf *out)
{
	uint8_t	 k = (uint8_t)((rnd & 0x0F) + 1);
	uint8_t	 pad[WA_MSG_PAD_MAX];

	memset(pad, k, k);
	buf_reserve(out, len + k);
	buf_append(out, p, len);
	buf_append(out, pad, k);
}

int
wa_msg_unpad(const uint8_t *p, size_t len, size_t *out_len)
{
	size_t	 k, i;

	if (len == 0)
		return WC_EPROTO;
	k = p[len - 1];
	if (k == 0 || k > len)
		return WC_EPROTO;
	for (i = len - k; i < len; i++)
		if (p[i] != k)
			return WC_EPROTO;
	*out_len = len - k;
	return 0;
}

/* --- building Message protobufs --- */

/* protobuf-c's structs take char *, and packing never writes through it. */
static char *
unconst(const char *s)
{
	return (char *)(uintptr_t)s;
}

static void
pack(const ProtobufCMessage *m, struct buf *out)
{
	size_t	 n = protobuf_c_message_get_packed_size(m);

	buf_reserve(out, n);
	out->len += protobuf_c_message_pack(m, out->p + out->len);
}

static void
key_init(Wae2e__MessageKey *k, const struct wa_msg_key *t)
{
	wae2e__message_key__init(k);
	k->remotejid = unconst(t->remote_jid);
	k->has_fromme = 1;
	k->fromme = t->from_me;
	k->id = unconst(t->id);
	k->participant = unconst(t->participant);
}

int
wa_msg_build_text(const struct wa_msg_text *t, struct buf *out)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message				 q = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ExtendedTextMessage	 x =
	    WAE2E__MESSAGE__EXTENDED_TEXT_MESSAGE__INIT;
	Wae2e__ContextInfo			 ci = WAE2E__CONTEXT_INFO__INIT;

	if (t == NULL || t->text == NULL ||
	    (t->n_mentions > 0 && t->mentions == NULL))
		return -EINVAL;
	if (t->quoted_id == NULL && t->n_mentions == 0 &&
	    t->forward_score == 0) {
		m.conversation = unconst(t->text);	/* 9.1 */
		pack(&m.base, out);
		return 0;
	}
	x.text = unconst(t->text);
	x.contextinfo = &ci;
	m.extendedtextmessage = &x;
	if (t->quoted_id != NULL) {
		ci.stanzaid = unconst(t->quoted_id);
		ci.participant = unconst(t->quoted_participant);
		ci.remotejid = unconst(t->quoted_remote_jid);
		/* The quoted message travels along, so the peer can show
		 * it even without a copy; we carry its text. */
		if (t->quoted_text != NULL) {
			q.conversation = unconst(t->quoted_text);
			ci.quotedmessage = &q;
		}
	}
	ci.n_mentionedjid = t->n_mentions;
	ci.mentionedjid = (char **)(uintptr_t)t->mentions;
	ci.has_forwardingscore = ci.has_isforwarded = t->forward_score > 0;
	ci.forwardingscore = t->forward_score;
	ci.isforwarded = t->forward_score > 0;
	pack(&m.base, out);
	return 0;
}

int
wa_msg_build_reaction(const struct wa_msg_key *target, const char *emoji,
    int64_t ts_ms, struct buf *out)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ReactionMessage	 r =
	    WAE2E__MESSAGE__REACTION_MESSAGE__INIT;
	Wae2e__MessageKey		 k;

	if (target == NULL || target->id == NULL)
		return -EINVAL;
	key_init(&k, target);
	r.key = &k;
	r.text = unconst(emoji != NULL ? emoji : "");	/* "" removes (11.5) */
	r.has_sendertimestampms = 1;
	r.sendertimestampms = ts_ms;
	m.reactionmessage = &r;
	pack(&m.base, out);
	return 0;
}

int
wa_msg_build_revoke(const struct wa_msg_key *target, struct buf *out)
{
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ProtocolMessage	 pm =
	    WAE2E__MESSAGE__PROTOCOL_MESSAGE__INIT;
	Wae2e__MessageKey		 k;

	if (target == NULL || target->id == NULL)
		return -EINVAL;
	key_init(&k, target);
	pm.key = &k;
	pm.has_type = 1;
	pm.type = PT_REVOKE;	/* 11.4 */
	m.protocolmessage = &pm;
	pack(&m.base, out);
	return 0;
}

int
wa_msg_build_edit(const struct wa_msg_key *target, const char *text,
    int64_t ts_ms, struct buf *out)
{
	Wae2e__Message				 outer = WAE2E__MESSAGE__INIT;
	Wae2e__Message				 mid = WAE2E__MESSAGE__INIT;
	Wae2e__Message				 edited = WAE2E__MESSAGE__INIT;
	Wae2e__Message__FutureProofMessage	 fp =
	    WAE2E__MESSAGE__FUTURE_PROOF_MESSAGE__INIT;
	Wae2e__Message__ProtocolMessage		 pm =
	    WAE2E__MESSAGE__PROTOCOL_MESSAGE__INIT;
	Wae2e__MessageKey			 k;

	if (target == NULL || target->id == NULL || text == NULL)
		return -EINVAL;
	key_init(&k, target);
	edited.conversation = unconst(text);
	pm.key = &k;
	pm.has_type = 1;
	pm.type = PT_EDIT;	/* 11.4, 11.5 */
	pm.editedmessage = &edited;
	pm.has_timestampms = 1;
	pm.timestampms = ts_ms;
	mid.protocolmessage = &pm;
	fp.message = &mid;
	outer.editedmessage = &fp;
	pack(&outer.base, out);
	return 0;
}

/* Protobuf wire helpers for wa_msg_wrap_dsm(), which keeps the inner
 * message's bytes exactly as they were built. */
static void
put_varint(struct buf *b, uint64_t v)
{
	while (v >= 0x80) {
		buf_push(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	buf_push(b, (uint8_t)v);
}

static size_t
varint_len(uint64_t v)
{
	size_t	 n = 1;

	while (v >= 0x80) {
		v >>= 7;
		n++;
	}
	return n;
}

static int
get_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *v)
{
	uint64_t	 r = 0;
	unsigned	 shift;

	for (shift = 0; shift < 64; shift += 7) {
		if (*pos >= len)
			return WC_ETRUNC;
		r |= (uint64_t)(p[*pos] & 0x7F) << shift;
		if ((p[(*pos)++] & 0x80) == 0) {
			*v = r;
			return 0;
		}
	}
	return WC_EPROTO;
}

unsigned
wa_msg_first_field(const uint8_t *p, size_t len)
{
	uint64_t	 key;
	size_t		 pos = 0;

	if (p == NULL || get_varint(p, len, &pos, &key) != 0 ||
	    key >> 3 > UINT32_MAX)
		return 0;
	return (unsigned)(key >> 3);
}

/* Append each top-level field num of p[0..len) (checked wire data) to
 * out, tag and all. */
static int
copy_fields(const uint8_t *p, size_t len, uint32_t num, struct buf *out)
{
	size_t		 pos = 0, start;
	uint64_t	 key, v;
	int		 rc;

	while (pos < len) {
		start = pos;
		if ((rc = get_varint(p, len, &pos, &key)) != 0)
			return rc;
		switch (key & 7) {
		case 0:
			rc = get_varint(p, len, &pos, &v);
			break;
		case 1:
			rc = len - pos < 8 ? WC_ETRUNC : 0;
			pos += rc == 0 ? 8 : 0;
			break;
		case 5:
			rc = len - pos < 4 ? WC_ETRUNC : 0;
			pos += rc == 0 ? 4 : 0;
			break;
		case 2:
			if ((rc = get_varint(p, len, &pos, &v)) == 0 &&
			    v > len - pos)
				rc = WC_ETRUNC;
			if (rc == 0)
				pos += (size_t)v;
			break;
		default:
			rc = WC_EPROTO;
			break;
		}
		if (rc != 0)
			return rc;
		if ((key >> 3) == num)
			buf_append(out, p + start, pos - start);
	}
	return 0;
}

int
wa_msg_wrap_dsm(const uint8_t *inner, size_t len, const char *destination,
    struct buf *out)
{
	size_t	 dlen, sub, old = out->len;
	int	 rc;

	if (destination == NULL)
		return -EINVAL;
	if ((rc = wa_pb_check(&wae2e__message__descriptor, inner, len,
	    WA_PB_MAX_DEPTH)) != 0)
		return rc;
	dlen = strlen(destination);
	sub = 1 + varint_len(dlen) + dlen + 1 + varint_len(len) + len;
	/* 9.2: deviceSentMessage(31){destinationJid(1), message(2)} */
	put_varint(out, (uint64_t)F_DSM << 3 | WIRE_LEN);
	put_varint(out, sub);
	put_varint(out, DSM_DESTINATION << 3 | WIRE_LEN);
	put_varint(out, dlen);
	buf_append(out, destination, dlen);
	put_varint(out, DSM_MESSAGE << 3 | WIRE_LEN);
	put_varint(out, len);
	buf_append(out, inner, len);
	/* ... and messageContextInfo(35) copied from the inner message. */
	if ((rc = copy_fields(inner, len, F_CONTEXT_INFO, out)) != 0) {
		out->len = old;
		return rc;
	}
	return 0;
}

/* --- reading Message protobufs (11.3-11.5) --- */

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static void
key_copy(struct wa_msg_key_in *d, const Wae2e__MessageKey *k)
{
	if (k == NULL)
		return;
	d->remote_jid = dup_or_null(k->remotejid);
	d->from_me = k->has_fromme && k->fromme;
	d->id = dup_or_null(k->id);
	d->participant = dup_or_null(k->participant);
}

/* The text of a message shown as text: conversation or extended text. */
static const char *
text_of(const Wae2e__Message *m)
{
	if (m == NULL)
		return NULL;
	if (m->conversation != NULL)
		return m->conversation;
	if (m->extendedtextmessage != NULL)
		return m->extendedtextmessage->text;
	return NULL;
}

/* The FutureProofMessage wrapper to open next, in whatsmeow's order
 * (types/events/events.go UnwrapRaw; 11.3 step 4), or NULL. */
static const Wae2e__Message *
unwrap_next(const Wae2e__Message *m)
{
	const Wae2e__Message__FutureProofMessage *w[] = {
		m->botinvokemessage, m->ephemeralmessage, m->viewoncemessage,
		m->viewoncemessagev2, m->viewoncemessagev2extension,
		m->lottiestickermessage, m->documentwithcaptionmessage,
		m->editedmessage,
	};
	size_t	 i;

	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		if (w[i] != NULL && w[i]->message != NULL)
			return w[i]->message;
	return NULL;
}

/* The lowest-numbered field of m that we do not model, or 0. */
static uint32_t
unknown_field(const Wae2e__Message *m)
{
	uint32_t	 best = 0;
	size_t		 i;

	for (i = 0; i < m->base.n_unknown_fields; i++)
		if (best == 0 || m->base.unknown_fields[i].tag < best)
			best = m->base.unknown_fields[i].tag;
	return best;
}

static void
classify(const Wae2e__Message *m, struct wa_msg_content *c)
{
	const Wae2e__Message__ProtocolMessage	*pm = m->protocolmessage;
	const Wae2e__Message__ExtendedTextMessage *x = m->extendedtextmessage;
	const Wae2e__ContextInfo		*ci;

	if (pm != NULL) {
		c->protocol_type = pm->has_type ? pm->type : 0;
		if (pm->has_type && pm->type == PT_REVOKE) {
			c->kind = WA_MSG_REVOKE;
			key_copy(&c->target, pm->key);
		} else if (pm->has_type && pm->type == PT_EDIT) {
			c->kind = WA_MSG_EDIT;
			key_copy(&c->target, pm->key);
			c->text = dup_or_null(text_of(pm->editedmessage));
			c->ts_ms = pm->has_timestampms ? pm->timestampms : 0;
		} else
			c->kind = WA_MSG_PROTOCOL;
		return;
	}
	if (m->reactionmessage != NULL) {
		c->kind = WA_MSG_REACTION;
		key_copy(&c->target, m->reactionmessage->key);
		c->emoji = xstrdup(m->reactionmessage->text != NULL ?
		    m->reactionmessage->text : "");
		c->ts_ms = m->reactionmessage->has_sendertimestampms ?
		    m->reactionmessage->sendertimestampms : 0;
		return;
	}
	if (wa_msg_rich_of(m, c))
		return;
	if ((c->media = wa_msg_media_of(m, &ci)) != NULL) {
		c->kind = WA_MSG_MEDIA;
		c->text = dup_or_null(c->media->caption);
		if (ci != NULL && ci->stanzaid != NULL) {
			c->quoted_id = xstrdup(ci->stanzaid);
			c->quoted_participant = dup_or_null(ci->participant);
			c->quoted_text = dup_or_null(text_of(ci->quotedmessage));
		}
		return;
	}
	if (x != NULL) {
		ci = x->contextinfo;
		c->text = xstrdup(x->text != NULL ? x->text : "");
		if (ci != NULL && ci->stanzaid != NULL) {
			c->kind = WA_MSG_REPLY;
			c->quoted_id = xstrdup(ci->stanzaid);
			c->quoted_participant = dup_or_null(ci->participant);
			c->quoted_text = dup_or_null(text_of(ci->quotedmessage));
		} else
			c->kind = WA_MSG_TEXT;
		return;
	}
	if (m->conversation != NULL) {
		c->kind = WA_MSG_TEXT;
		c->text = xstrdup(m->conversation);
		return;
	}
	if ((c->unsupported_field = unknown_field(m)) != 0) {
		c->kind = WA_MSG_UNSUPPORTED;
		c->unsupported_name = wa_msg_field_name(c->unsupported_field);
		return;
	}
	c->kind = c->skdm_len > 0 || c->skdm_group != NULL ? WA_MSG_SKDM :
	    WA_MSG_EMPTY;
}

int
wa_msg_parse(const uint8_t *p, size_t len, struct wa_msg_content *out)
{
	struct wa_msg_content	 c;
	ProtobufCMessage	*pm;
	const Wae2e__Message	*m, *next;
	const Wae2e__MessageContextInfo *ctx = NULL;
	const Wae2e__Message__SenderKeyDistributionMessage *skdm = NULL;
	int			 rc;

	if ((rc = wa_pb_unpack(&wae2e__message__descriptor, p, len, &pm)) != 0)
		return rc;
	memset(&c, 0, sizeof(c));
	m = (const Wae2e__Message *)pm;
	/* 11.3 step 1: from our own device, the content is inside. */
	if (m->devicesentmessage != NULL) {
		c.dsm_destination = xstrdup(
		    m->devicesentmessage->destinationjid != NULL ?
		    m->devicesentmessage->destinationjid : "");
		ctx = m->messagecontextinfo;
		skdm = m->senderkeydistributionmessage;
		if (m->devicesentmessage->message != NULL)
			m = m->devicesentmessage->message;
	}
	/* Steps 2 and 4: the SKDM and context info of the innermost level
	 * that has them; wrappers opened.  The depth check bounds the loop. */
	for (;;) {
		if (m->messagecontextinfo != NULL)
			ctx = m->messagecontextinfo;
		if (m->senderkeydistributionmessage != NULL)
			skdm = m->senderkeydistributionmessage;
		c.view_once |= m->viewoncemessage != NULL ||	/* 3.4 */
		    m->viewoncemessagev2 != NULL ||
		    m->viewoncemessagev2extension != NULL;
		if ((next = unwrap_next(m)) == NULL)
			break;
		m = next;
	}
	if (skdm != NULL) {
		c.skdm_group = dup_or_null(skdm->groupid);
		if (skdm->has_axolotlsenderkeydistributionmessage &&
		    skdm->axolotlsenderkeydistributionmessage.len > 0) {
			c.skdm_len = skdm->axolotlsenderkeydistributionmessage.len;
			c.skdm = xmalloc(c.skdm_len);
			memcpy(c.skdm, skdm->axolotlsenderkeydistributionmessage.data,
			    c.skdm_len);
		}
	}
	/* Step 5: keep the message secret. */
	if (ctx != NULL && ctx->has_messagesecret &&
	    ctx->messagesecret.len > 0) {
		c.message_secret_len = ctx->messagesecret.len;
		c.message_secret = xmalloc(c.message_secret_len);
		memcpy(c.message_secret, ctx->messagesecret.data,
		    c.message_secret_len);
	}
	classify(m, &c);
	c.forwarded = wa_msg_fwd_score(m);
	wa_msg_eph_of(m, &c);	/* protocol-features.md 3.5 */
	protobuf_c_message_free_unpacked(pm, NULL);
	*out = c;
	return 0;
}

static void
free_key(struct wa_msg_key_in *k)
{
	free(k->remote_jid);
	free(k->id);
	free(k->participant);
}

void
wa_msg_content_release(struct wa_msg_content *c)
{
	if (c == NULL)
		return;
	free(c->text);
	free(c->quoted_id);
	free(c->quoted_participant);
	free(c->quoted_text);
	free_key(&c->target);
	free(c->emoji);
	free(c->dsm_destination);
	free(c->skdm);
	free(c->skdm_group);
	if (c->message_secret != NULL)
		explicit_bzero(c->message_secret, c->message_secret_len);
	free(c->message_secret);
	wa_msg_media_free(c->media);
	free(c->poll_enc);
	free(c->poll_iv);
	memset(c, 0, sizeof(*c));
}

/* --- building nodes (proto/node.h) --- */

static const char *
enc_name(enum wa_msg_enc_type t)
{
	switch (t) {
	case WA_MSG_ENC_MSG:
		return "msg";
	case WA_MSG_ENC_PKMSG:
		return "pkmsg";
	case WA_MSG_ENC_SKMSG:
		return "skmsg";
	case WA_MSG_ENC_OTHER:
		break;
	}
	return NULL;
}

int
wa_msg_stanza(const struct wa_msg_send *s, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*n, *ch, *parts, *to, *enc;
	const char	*type;
	size_t		 i;
	bool		 pkmsg = false, hide;

	if (s == NULL || s->id == NULL || s->to == NULL || s->encs == NULL ||
	    s->n_encs == 0)
		return -EINVAL;
	for (i = 0; i < s->n_encs; i++) {
		if (s->encs[i].type != WA_MSG_ENC_MSG &&
		    s->encs[i].type != WA_MSG_ENC_PKMSG)
			return -EINVAL;
		if (s->encs[i].jid == NULL || (s->encs[i].ct == NULL &&
		    s->encs[i].ct_len > 0))
			return -EINVAL;
		pkmsg |= s->encs[i].type == WA_MSG_ENC_PKMSG;
	}
	/* 9.4: <device-identity> iff some <enc> is a pkmsg. */
	if (pkmsg && (s->device_identity == NULL ||
	    s->device_identity_len == 0))
		return -EINVAL;
	type = s->type != NULL ? s->type : "text";
	hide = s->edit != NULL || strcmp(type, "reaction") == 0;

	n = wa_nb_new(a, "message", 5);
	wa_nb_attr(n, "id", s->id);
	if (wa_nb_attr_jid(n, "to", s->to) != 0 ||
	    wa_nb_attr_jid(n, "peer_recipient_pn", s->peer_recipient_pn) != 0)
		return -EINVAL;
	wa_nb_attr(n, "type", type);
	wa_nb_attr(n, "edit", s->edit);
	ch = wa_nb_kids(a, n, 1 + pkmsg + (s->reporting_token != NULL));
	parts = wa_nb_kid(a, &ch[0], "participants", 0);
	to = wa_nb_kids(a, parts, s->n_encs);
	for (i = 0; i < s->n_encs; i++) {
		wa_nb_kid(a, &to[i], "to", 1);
		if (wa_nb_attr_jid(&to[i], "jid", s->encs[i].jid) != 0)
			return -EINVAL;
		enc = wa_nb_kid(a, wa_nb_kids(a, &to[i], 1), "enc", 4);
		wa_nb_attr(enc, "v", "2");
		wa_nb_attr(enc, "type", enc_name(s->encs[i].type));
		wa_nb_attr(enc, "mediatype", s->mediatype);
		if (hide)
			wa_nb_attr(enc, "decrypt-fail", "hide");
		wa_nb_bytes(enc, s->encs[i].ct, s->encs[i].ct_len);
	}
	if (pkmsg)
		wa_nb_bytes(wa_nb_kid(a, &ch[1], "device-identity", 0),
		    s->device_identity, s->device_identity_len);
	if (s->reporting_token != NULL)
		wa_reporting_node(s->reporting_token, a, &ch[1 + pkmsg]);
	*out = n;
	return 0;
}

/* --- reading nodes --- */

#define FAIL(msg) do {				\
	if (why != NULL)			\
		*why = (msg);			\
	return WC_EPROTO;			\
} while (0)

static int
parse_enc(const struct wa_node *e, struct wa_msg_enc_in *d, struct arena *a,
    const char **why)
{
	const struct wa_val	*tv = wa_node_attr(e, "type");
	int64_t			 v = 0, count = 0;

	memset(d, 0, sizeof(*d));
	if (tv == NULL || (d->type_name = wa_node_text(a, e, "type")) == NULL ||
	    d->type_name[0] == '\0')
		FAIL("<enc> without a type");
	if (e->content.kind != WA_VAL_BYTES && e->content.kind != WA_VAL_STR)
		FAIL("<enc> without ciphertext");
	if (wa_node_num(e, "v", &v) < 0 || wa_node_num(e, "count", &count) < 0 ||
	    count > 0xFFFF || v > 0xFFFF)
		FAIL("<enc> with a bad v or count");
	d->v = (unsigned)v;
	d->count = (unsigned)count;
	d->ct = (const uint8_t *)e->content.u.str.p;
	d->ct_len = e->content.u.str.len;
	d->mediatype = wa_node_text(a, e, "mediatype");
	d->hide_fail = wa_node_str_is(e, "decrypt-fail", "hide");
	if (d->v != 2 && d->v != 3)
		d->type = WA_MSG_ENC_OTHER;
	else if (strcmp(d->type_name, "msg") == 0)
		d->type = WA_MSG_ENC_MSG;
	else if (strcmp(d->type_name, "pkmsg") == 0)
		d->type = WA_MSG_ENC_PKMSG;
	else if (strcmp(d->type_name, "skmsg") == 0)
		d->type = WA_MSG_ENC_SKMSG;
	else
		d->type = WA_MSG_ENC_OTHER;
	return 0;
}

int
wa_msg_stanza_parse(const struct wa_node *n, struct arena *a,
    struct wa_msg_in *out, const char **why)
{
	struct wa_msg_in	 m;
	size_t			 i, ne = 0;
	int			 rc;

	if (n == NULL || !wa_str_eqc(n->tag, "message")) {
		if (why != NULL)
			*why = "not a <message>";
		return -EINVAL;
	}
	memset(&m, 0, sizeof(m));
	if ((m.id = wa_node_text(a, n, "id")) == NULL || m.id[0] == '\0')
		FAIL("<message> without an id");
	if ((m.from = wa_node_text(a, n, "from")) == NULL || m.from[0] == '\0')
		FAIL("<message> without a from");
	if ((rc = wa_node_num(n, "t", &m.t)) < 0)
		FAIL("<message> with a non-numeric t");
	m.participant = wa_node_text(a, n, "participant");
	m.recipient = wa_node_text(a, n, "recipient");
	m.type = wa_node_text(a, n, "type");
	m.notify = wa_node_text(a, n, "notify");
	if (m.notify != NULL && strcmp(m.notify, "-") == 0)
		m.notify = NULL;	/* 15.4 */
	m.category = wa_node_text(a, n, "category");
	m.edit = wa_node_text(a, n, "edit");
	m.sender_pn = wa_node_text(a, n, "sender_pn");
	m.sender_lid = wa_node_text(a, n, "sender_lid");
	m.participant_pn = wa_node_text(a, n, "participant_pn");
	m.participant_lid = wa_node_text(a, n, "participant_lid");
	m.addressing_mode = wa_node_text(a, n, "addressing_mode");
	m.offline = wa_node_attr(n, "offline") != NULL;
	m.unavailable = wa_node_child(n, "unavailable") != NULL;
	for (i = 0; i < wa_node_nkids(n); i++)
		ne += wa_str_eqc(n->content.u.list.v[i].tag, "enc");
	if (ne > WA_MSG_MAX_ENCS)
		FAIL("<message> with too many <enc>");
	if (ne > 0)
		m.encs = arena_alloc(a, ne * sizeof(*m.encs));
	for (i = 0; i < wa_node_nkids(n); i++) {
		const struct wa_node	*e = &n->content.u.list.v[i];

		if (!wa_str_eqc(e->tag, "enc"))
			continue;
		if ((rc = parse_enc(e, &m.encs[m.n_encs], a, why)) != 0)
			return rc;
		m.n_known += m.encs[m.n_encs].type != WA_MSG_ENC_OTHER;
		m.n_encs++;
	}
	/* whatsmeow NACKs a stanza with nothing it can decrypt (488). */
	if (m.n_known == 0 && !m.unavailable)
		FAIL(m.n_encs == 0 ? "<message> without <enc>" :
		    "<message> with only unknown <enc> types");
	*out = m;
	return 0;
}

/* --- acks and receipts --- */

static void
attr_val(struct wa_node *n, const char *key, const struct wa_val *v)
{
	struct wa_attr	*at;

	if (v == NULL)
		return;
	at = &n->attrs[n->nattrs++];
	at->key = wa_str_c(key);
	at->val = *v;
}

int
wa_msg_ack(const struct wa_node *n, const char *error,
    const char *own_pn_device, struct arena *a, struct wa_node **out)
{
	const struct wa_val	*id, *from;
	struct wa_node		*k;
	bool			 message;

	if (n == NULL || (id = wa_node_attr(n, "id")) == NULL ||
	    (from = wa_node_attr(n, "from")) == NULL)
		return -EINVAL;
	message = wa_str_eqc(n->tag, "message");
	k = wa_nb_new(a, "ack", 8);
	k->attrs[k->nattrs].key = wa_str_c("class");
	k->attrs[k->nattrs].val.kind = WA_VAL_STR;
	k->attrs[k->nattrs++].val.u.str = n->tag;
	attr_val(k, "id", id);
	attr_val(k, "to", from);
	attr_val(k, "participant", wa_node_attr(n, "participant"));
	attr_val(k, "recipient", wa_node_attr(n, "recipient"));
	/* 11.7: type copied except on message acks (whatsmeow). */
	if (!message)
		attr_val(k, "type", wa_node_attr(n, "type"));
	wa_nb_attr(k, "error", error);
	if (message && wa_nb_attr_jid(k, "from", own_pn_device) != 0)
		return -EINVAL;
	*out = k;
	return 0;
}

int
wa_msg_receipt(const struct wa_msg_receipt_out *r, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*n, *list, *items;
	size_t		 i;

	if (r == NULL || r->to == NULL || r->ids == NULL || r->n_ids == 0)
		return -EINVAL;
	for (i = 0; i < r->n_ids; i++)
		if (r->ids[i] == NULL)
			return -EINVAL;
	n = wa_nb_new(a, "receipt", 6);
	wa_nb_attr(n, "id", r->ids[0]);
	if (wa_nb_attr_jid(n, "to", r->to) != 0 ||
	    wa_nb_attr_jid(n, "participant", r->participant) != 0 ||
	    wa_nb_attr_jid(n, "recipient", r->recipient) != 0)
		return -EINVAL;
	wa_nb_attr(n, "type", r->type);
	if (r->t != 0)
		wa_nb_attr_num(a, n, "t", r->t);
	if (r->n_ids > 1) {	/* 11.8: more ids as <list><item id/> */
		list = wa_nb_kid(a, wa_nb_kids(a, n, 1), "list", 0);
		items = wa_nb_kids(a, list, r->n_ids - 1);
		for (i = 1; i < r->n_ids; i++)
			wa_nb_attr(wa_nb_kid(a, &items[i - 1], "item", 1), "id", r->ids[i]);
	}
	*out = n;
	return 0;
}

int
wa_msg_retry_receipt(const struct wa_msg_retry_out *r, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*n, *ch, *retry;
	uint8_t		*reg;

	if (r == NULL || r->to == NULL || r->id == NULL || r->count == 0)
		return -EINVAL;
	n = wa_nb_new(a, "receipt", 6);
	wa_nb_attr(n, "id", r->id);
	if (wa_nb_attr_jid(n, "to", r->to) != 0 ||
	    wa_nb_attr_jid(n, "participant", r->participant) != 0 ||
	    wa_nb_attr_jid(n, "recipient", r->recipient) != 0)
		return -EINVAL;
	wa_nb_attr(n, "type", "retry");
	wa_nb_attr(n, "category", r->category);
	ch = wa_nb_kids(a, n, 2);
	retry = wa_nb_kid(a, &ch[0], "retry", 4);	/* 9.6 */
	wa_nb_attr_num(a, retry, "count", r->count);
	wa_nb_attr(retry, "id", r->id);
	wa_nb_attr_num(a, retry, "t", r->t);
	wa_nb_attr(retry, "v", "1");
	reg = arena_alloc(a, 4);
	reg[0] = (uint8_t)(r->registration_id >> 24);
	reg[1] = (uint8_t)(r->registration_id >> 16);
	reg[2] = (uint8_t)(r->registration_id >> 8);
	reg[3] = (uint8_t)r->registration_id;
	wa_nb_bytes(wa_nb_kid(a, &ch[1], "registration", 0), reg, 4);
	*out = n;
	return 0;
}

int
wa_msg_receipt_parse(const struct wa_node *n, struct arena *a,
    struct wa_msg_receipt_in *out, const char **why)
{
	struct wa_msg_receipt_in r;
	const struct wa_node	*list, *retry, *reg;
	size_t			 i, n_items = 0;
	int64_t			 v;

	if (n == NULL || !wa_str_eqc(n->tag, "receipt")) {
		if (why != NULL)
			*why = "not a <receipt>";
		return -EINVAL;
	}
	memset(&r, 0, sizeof(r));
	if ((r.id = wa_node_text(a, n, "id")) == NULL || r.id[0] == '\0')
		FAIL("<receipt> without an id");
	if ((r.from = wa_node_text(a, n, "from")) == NULL || r.from[0] == '\0')
		FAIL("<receipt> without a from");
	if (wa_node_num(n, "t", &r.t) < 0)
		FAIL("<receipt> with a non-numeric t");
	r.type = wa_node_text(a, n, "type");
	r.participant = wa_node_text(a, n, "participant");
	r.recipient = wa_node_text(a, n, "recipient");
	if ((list = wa_node_child(n, "list")) != NULL)
		for (i = 0; i < wa_node_nkids(list); i++)
			n_items += wa_str_eqc(list->content.u.list.v[i].tag,
			    "item");
	if (n_items + 1 > WA_MSG_MAX_IDS)
		FAIL("<receipt> with too many ids");
	r.ids = arena_alloc(a, (n_items + 1) * sizeof(*r.ids));
	r.ids[r.n_ids++] = r.id;
	for (i = 0; list != NULL && i < wa_node_nkids(list); i++) {
		const struct wa_node	*it = &list->content.u.list.v[i];

		if (!wa_str_eqc(it->tag, "item"))
			continue;
		if ((r.ids[r.n_ids] = wa_node_text(a, it, "id")) == NULL ||
		    r.ids[r.n_ids][0] == '\0')
			FAIL("<item> without an id");
		r.n_ids++;
	}
	if ((retry = wa_node_child(n, "retry")) != NULL) {
		v = 0;
		if (wa_node_num(retry, "count", &v) < 0 || v > 0xFFFF)
			FAIL("<retry> with a bad count");
		r.retry_count = (unsigned)v;
		if (wa_node_num(retry, "t", &r.retry_t) < 0)
			FAIL("<retry> with a non-numeric t");
	}
	if ((reg = wa_node_child(n, "registration")) != NULL) {
		const uint8_t	*b = (const uint8_t *)reg->content.u.str.p;

		if ((reg->content.kind != WA_VAL_BYTES &&
		    reg->content.kind != WA_VAL_STR) ||
		    reg->content.u.str.len != 4)
			FAIL("<registration> not 4 bytes");
		r.has_registration = true;
		r.registration_id = (uint32_t)b[0] << 24 |
		    (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
	}
	r.has_keys = wa_node_child(n, "keys") != NULL;
	*out = r;
	return 0;
}

int
wa_msg_server_ack_parse(const struct wa_node *n, struct arena *a,
    struct wa_msg_server_ack *out, const char **why)
{
	struct wa_msg_server_ack k;

	if (n == NULL || !wa_str_eqc(n->tag, "ack") ||
	    !wa_node_str_is(n, "class", "message")) {
		if (why != NULL)
			*why = "not an <ack class=\"message\">";
		return -EINVAL;
	}
	memset(&k, 0, sizeof(k));
	if ((k.id = wa_node_text(a, n, "id")) == NULL || k.id[0] == '\0')
		FAIL("<ack> without an id");
	if (wa_node_num(n, "t", &k.t) < 0)
		FAIL("<ack> with a non-numeric t");
	k.from = wa_node_text(a, n, "from");
	k.error = wa_node_text(a, n, "error");
	k.phash = wa_node_text(a, n, "phash");
	*out = k;
	return 0;
}

/* --- chat state and presence (15) --- */

int
wa_msg_chatstate(const char *to, enum wa_msg_chatstate st, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*n, *c;

	n = wa_nb_new(a, "chatstate", 1);
	if (to == NULL || wa_nb_attr_jid(n, "to", to) != 0)
		return -EINVAL;
	c = wa_nb_kids(a, n, 1);
	switch (st) {
	case WA_MSG_COMPOSING:
		wa_nb_kid(a, c, "composing", 0);
		break;
	case WA_MSG_RECORDING:
		wa_nb_attr(wa_nb_kid(a, c, "composing", 1), "media", "audio");
		break;
	case WA_MSG_PAUSED:
		wa_nb_kid(a, c, "paused", 0);
		break;
	}
	*out = n;
	return 0;
}

int
wa_msg_chatstate_parse(const struct wa_node *n, struct arena *a,
    struct wa_msg_chatstate_in *out)
{
	struct wa_msg_chatstate_in c;
	const struct wa_node	*k;

	if (n == NULL || !wa_str_eqc(n->tag, "chatstate"))
		return -EINVAL;
	memset(&c, 0, sizeof(c));
	if ((c.from = wa_node_text(a, n, "from")) == NULL || c.from[0] == '\0')
		return WC_EPROTO;
	c.participant = wa_node_text(a, n, "participant");
	if ((k = wa_node_child(n, "composing")) != NULL)
		c.state = wa_node_str_is(k, "media", "audio") ? WA_MSG_RECORDING :
		    WA_MSG_COMPOSING;
	else if (wa_node_child(n, "paused") != NULL)
		c.state = WA_MSG_PAUSED;
	else
		return WC_EPROTO;
	*out = c;
	return 0;
}

int
wa_msg_presence(bool available, const char *name, struct arena *a,
    struct wa_node **out)
{
	struct wa_node	*n;

	if (name == NULL || name[0] == '\0')
		return -EINVAL;
	n = wa_nb_new(a, "presence", 2);
	wa_nb_attr(n, "type", available ? "available" : "unavailable");
	wa_nb_attr(n, "name", name);
	*out = n;
	return 0;
}

int
wa_msg_presence_subscribe(const char *to, const uint8_t *tctoken,
    size_t tctoken_len, struct arena *a, struct wa_node **out)
{
	struct wa_node	*n;

	n = wa_nb_new(a, "presence", 2);
	wa_nb_attr(n, "type", "subscribe");
	if (to == NULL || wa_nb_attr_jid(n, "to", to) != 0)
		return -EINVAL;
	if (tctoken != NULL && tctoken_len > 0)
		wa_nb_bytes(wa_nb_kid(a, wa_nb_kids(a, n, 1), "tctoken", 0), tctoken,
		    tctoken_len);
	*out = n;
	return 0;
}

int
wa_msg_presence_parse(const struct wa_node *n, struct arena *a,
    struct wa_msg_presence_in *out)
{
	struct wa_msg_presence_in p;
	const struct wa_val	*type;

	if (n == NULL || !wa_str_eqc(n->tag, "presence"))
		return -EINVAL;
	memset(&p, 0, sizeof(p));
	if ((p.from = wa_node_text(a, n, "from")) == NULL || p.from[0] == '\0')
		return WC_EPROTO;
	type = wa_node_attr(n, "type");
	p.available = type == NULL || wa_node_str_is(n, "type", "available");
	if (wa_node_str_is(n, "last", "deny"))
		p.last_denied = true;
	else if (wa_node_num(n, "last", &p.last_s) < 0)
		return WC_EPROTO;
	*out = p;
	return 0;
}
