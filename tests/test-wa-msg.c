/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-msg.c -- the message layer (proto/msg.c): message ids,
 * padding, the Message protobufs we build (decoded again with protobuf-c
 * and checked field by field against protocol.md 9 and 11), the flattening
 * parser for every kind, hostile nesting, and the <message>, <receipt>,
 * <ack>, <chatstate> and <presence> nodes.  JIDs and numbers are made up.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/sha.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "e2e.pb-c.h"
#include "base/err.h"
#include "proto/msg.h"
#include "proto/pb.h"
#include "base/xmalloc.h"

#define PEER		"15550001111@s.whatsapp.net"
#define PEER_LID	"111222333444555@lid"
#define PEER_DEV	"111222333444555:7@lid"
#define ME_DEV		"999888777666555:3@lid"

/* ------------------------------------------------------------------ */
/* helpers */

static Wae2e__Message *
unpack(const struct buf *b)
{
	Wae2e__Message	*m = wae2e__message__unpack(NULL, b->len, b->p);

	assert_non_null(m);
	return m;
}

/* A message packed with protobuf-c, for the parser. */
static void
pack_msg(const Wae2e__Message *m, struct buf *out)
{
	size_t	 n = wae2e__message__get_packed_size(m);

	buf_reserve(out, n);
	out->len += wae2e__message__pack(m, out->p + out->len);
}

static const struct wa_node *
kid_at(const struct wa_node *n, size_t i)
{
	assert_int_equal(n->content.kind, WA_VAL_LIST);
	assert_true(i < n->content.u.list.n);
	return &n->content.u.list.v[i];
}

static size_t
nkids(const struct wa_node *n)
{
	return n->content.kind == WA_VAL_LIST ? n->content.u.list.n : 0;
}

static void
assert_tag(const struct wa_node *n, const char *tag)
{
	assert_true(wa_str_eqc(n->tag, tag));
}

/* The attribute key must be a string equal to want (NULL: absent). */
static void
assert_sattr(const struct wa_node *n, const char *key, const char *want)
{
	const struct wa_val	*v = wa_node_attr(n, key);

	if (want == NULL) {
		assert_null(v);
		return;
	}
	assert_non_null(v);
	assert_int_equal(v->kind, WA_VAL_STR);
	assert_true(wa_str_eqc(v->u.str, want));
}

/* The attribute key must be a JID user[:device]@server. */
static void
assert_jattr(const struct wa_node *n, const char *key, const char *user,
    unsigned device, const char *server)
{
	const struct wa_val	*v = wa_node_attr(n, key);

	assert_non_null(v);
	assert_int_equal(v->kind, WA_VAL_JID);
	assert_true(wa_str_eqc(v->u.jid.user, user));
	assert_int_equal(v->u.jid.device, device);
	assert_true(wa_str_eqc(v->u.jid.server, server));
}

/* Encode n and decode it again: the wire can carry it. */
static void
assert_encodes(const struct wa_node *n)
{
	struct buf	 b = BUF_INIT;
	struct arena	 a;
	struct wa_node	*back;

	arena_init(&a, 0);
	assert_int_equal(wa_bin_encode(n, &b), 0);
	assert_int_equal(wa_bin_decode(b.p, b.len, &a, &back, NULL), 0);
	assert_true(wa_node_eq(n, back));
	arena_release(&a);
	buf_release(&b);
}

/* Node construction for the parser tests. */
static struct wa_node *
node(struct arena *a, const char *tag, size_t nattrs, size_t nkid)
{
	struct wa_node	*n = arena_alloc(a, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->tag = wa_str_c(tag);
	n->attrs = arena_alloc(a, (nattrs + 1) * sizeof(*n->attrs));
	if (nkid > 0) {
		n->content.kind = WA_VAL_LIST;
		n->content.u.list.v = arena_alloc(a, nkid * sizeof(*n));
		memset(n->content.u.list.v, 0, nkid * sizeof(*n));
	}
	return n;
}

static void
add_attr(struct wa_node *n, const char *key, const char *val)
{
	struct wa_attr	*at = &n->attrs[n->nattrs++];

	at->key = wa_str_c(key);
	at->val.kind = WA_VAL_STR;
	at->val.u.str = wa_str_c(val);
}

static void
add_jid(struct wa_node *n, const char *key, const char *user,
    unsigned device, const char *server)
{
	struct wa_attr	*at = &n->attrs[n->nattrs++];

	memset(at, 0, sizeof(*at));
	at->key = wa_str_c(key);
	at->val.kind = WA_VAL_JID;
	at->val.u.jid.user = wa_str_c(user);
	at->val.u.jid.device = (uint16_t)device;
	at->val.u.jid.server = wa_str_c(server);
}

static struct wa_node *
add_kid(struct wa_node *n, const struct wa_node *c)
{
	struct wa_node	*slot = &n->content.u.list.v[n->content.u.list.n++];

	*slot = *c;
	return slot;
}

static struct wa_node *
enc_node(struct arena *a, const char *type, const char *v, const void *ct,
    size_t len)
{
	struct wa_node	*e = node(a, "enc", 3, 0);

	if (type != NULL)
		add_attr(e, "type", type);
	if (v != NULL)
		add_attr(e, "v", v);
	if (ct != NULL) {
		e->content.kind = WA_VAL_BYTES;
		e->content.u.str.p = ct;
		e->content.u.str.len = len;
	}
	return e;
}

/* ------------------------------------------------------------------ */
/* ids and padding */

static void
test_wa_msg_id__is_3EB0_and_the_sha256_of_time_user_and_random(void **state)
{
	uint8_t		 rnd[WA_MSG_ID_RAND_LEN], in[64], h[32];
	char		 id[WA_MSG_ID_LEN + 1], want[WA_MSG_ID_LEN + 1];
	uint64_t	 ts = 1764480000;
	size_t		 i, n = 0;

	(void)state;
	for (i = 0; i < sizeof(rnd); i++)
		rnd[i] = (uint8_t)(i * 17 + 3);
	wa_msg_id(rnd, ts, "15550002222", id);
	/* 9.5: uint64 BE seconds ‖ user ‖ "@c.us" ‖ 16 random bytes. */
	for (i = 0; i < 8; i++)
		in[n++] = (uint8_t)(ts >> (56 - 8 * i));
	memcpy(in + n, "15550002222@c.us", 16);
	n += 16;
	memcpy(in + n, rnd, sizeof(rnd));
	n += sizeof(rnd);
	SHA256(in, n, h);
	memcpy(want, "3EB0", 4);
	for (i = 0; i < 9; i++)
		snprintf(want + 4 + 2 * i, 3, "%02X", h[i]);
	assert_int_equal(strlen(id), 22);
	assert_string_equal(id, want);
}

static void
test_wa_msg_id__leaves_out_the_user_when_unknown(void **state)
{
	uint8_t		 rnd[WA_MSG_ID_RAND_LEN] = { 1 }, in[24], h[32];
	char		 id[WA_MSG_ID_LEN + 1], with[WA_MSG_ID_LEN + 1], want[3];
	size_t		 i;

	(void)state;
	wa_msg_id(rnd, 7, NULL, id);
	wa_msg_id(rnd, 7, "1555", with);
	memset(in, 0, 8);
	in[7] = 7;
	memcpy(in + 8, rnd, 16);
	SHA256(in, sizeof(in), h);
	for (i = 0; i < 9; i++) {
		snprintf(want, sizeof(want), "%02X", h[i]);
		assert_memory_equal(id + 4 + 2 * i, want, 2);
	}
	assert_string_not_equal(id, with);
}

static void
test_wa_msg_pad__appends_1_to_16_bytes_each_equal_to_the_count(void **state)
{
	static const uint8_t	 p[] = { 0x0a, 0x02, 'h', 'i' };
	unsigned		 r;
	size_t			 k, i, len;

	(void)state;
	for (r = 0; r < 256; r++) {
		struct buf	 b = BUF_INIT;

		wa_msg_pad(p, sizeof(p), (uint8_t)r, &b);
		k = (r & 0x0F) + 1;	/* 9.3 */
		assert_int_equal(b.len, sizeof(p) + k);
		assert_memory_equal(b.p, p, sizeof(p));
		for (i = sizeof(p); i < b.len; i++)
			assert_int_equal(b.p[i], k);
		assert_int_equal(wa_msg_unpad(b.p, b.len, &len), 0);
		assert_int_equal(len, sizeof(p));
		buf_release(&b);
	}
}

static void
test_wa_msg_unpad__refuses_bad_padding(void **state)
{
	uint8_t	 zero[] = { 'a', 0 };
	uint8_t	 over[] = { 3, 3 };
	uint8_t	 mixed[] = { 'a', 2, 3, 3 };	/* k = 3 but one byte is 2 */
	uint8_t	 big[20];
	size_t	 len = 12345;

	(void)state;
	assert_int_equal(wa_msg_unpad(zero, 0, &len), WC_EPROTO);
	assert_int_equal(wa_msg_unpad(zero, sizeof(zero), &len), WC_EPROTO);
	assert_int_equal(wa_msg_unpad(over, sizeof(over), &len), WC_EPROTO);
	assert_int_equal(wa_msg_unpad(mixed, sizeof(mixed), &len), WC_EPROTO);
	assert_int_equal(len, 12345);	/* untouched on error */
	/* whatsmeow accepts any k up to the length, all bytes equal. */
	memset(big, 17, sizeof(big));
	big[0] = 'x';
	big[1] = 'y';
	big[2] = 'z';
	assert_int_equal(wa_msg_unpad(big, sizeof(big), &len), 0);
	assert_int_equal(len, 3);
}

/* ------------------------------------------------------------------ */
/* builders */

static void
test_wa_msg_build_text__plain_text_is_a_conversation(void **state)
{
	struct wa_msg_text	 t = { .text = "hello" };
	struct buf		 b = BUF_INIT;
	Wae2e__Message		*m;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &b), 0);
	/* conversation(1), length 5: the whole message. */
	assert_int_equal(b.len, 7);
	assert_int_equal(b.p[0], 0x0a);
	assert_int_equal(b.p[1], 5);
	m = unpack(&b);
	assert_string_equal(m->conversation, "hello");
	assert_null(m->extendedtextmessage);
	assert_int_equal(m->base.n_unknown_fields, 0);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);
}

static void
test_wa_msg_build_text__a_reply_is_extended_text_with_context(void **state)
{
	const char		*mentions[] = { PEER };
	struct wa_msg_text	 t = {
		.text = "yes", .quoted_id = "3EB0AAAAAAAAAAAAAAAAAA",
		.quoted_participant = PEER, .quoted_text = "are you there?",
		.mentions = mentions, .n_mentions = 1,
	};
	struct buf		 b = BUF_INIT;
	Wae2e__Message		*m;
	Wae2e__ContextInfo	*ci;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &b), 0);
	assert_int_equal(b.p[0], 6 << 3 | 2);	/* extendedTextMessage(6) */
	m = unpack(&b);
	assert_null(m->conversation);
	assert_non_null(m->extendedtextmessage);
	assert_string_equal(m->extendedtextmessage->text, "yes");
	ci = m->extendedtextmessage->contextinfo;
	assert_non_null(ci);
	assert_string_equal(ci->stanzaid, "3EB0AAAAAAAAAAAAAAAAAA");
	assert_string_equal(ci->participant, PEER);
	assert_null(ci->remotejid);
	assert_non_null(ci->quotedmessage);
	assert_string_equal(ci->quotedmessage->conversation, "are you there?");
	assert_int_equal(ci->n_mentionedjid, 1);
	assert_string_equal(ci->mentionedjid[0], PEER);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);
}

static void
test_wa_msg_build_text__a_reply_without_quoted_text_omits_it(void **state)
{
	struct wa_msg_text	 t = { .text = "ok", .quoted_id = "3EB0Z",
	    .quoted_participant = PEER };
	struct buf		 b = BUF_INIT;
	Wae2e__Message		*m;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &b), 0);
	m = unpack(&b);
	assert_non_null(m->extendedtextmessage);
	assert_string_equal(m->extendedtextmessage->contextinfo->stanzaid,
	    "3EB0Z");
	assert_null(m->extendedtextmessage->contextinfo->quotedmessage);
	assert_int_equal(m->extendedtextmessage->contextinfo->n_mentionedjid,
	    0);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);
}

static void
test_wa_msg_build_text__fails__without_text(void **state)
{
	struct wa_msg_text	 t = { .text = NULL };
	struct buf		 b = BUF_INIT;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &b), -EINVAL);
	assert_int_equal(b.len, 0);
}

static void
test_wa_msg_build_reaction__carries_the_target_key_and_emoji(void **state)
{
	struct wa_msg_key	 k = { .remote_jid = PEER_LID, .from_me = false,
	    .id = "3EB0BBBBBBBBBBBBBBBBBB" };
	struct buf		 b = BUF_INIT;
	Wae2e__Message		*m;
	Wae2e__Message__ReactionMessage *r;

	(void)state;
	assert_int_equal(wa_msg_build_reaction(&k, "\xf0\x9f\x91\x8d",
	    1764480000123, &b), 0);
	m = unpack(&b);
	r = m->reactionmessage;
	assert_non_null(r);
	assert_non_null(r->key);
	assert_string_equal(r->key->remotejid, PEER_LID);
	assert_true(r->key->has_fromme);
	assert_false(r->key->fromme);
	assert_string_equal(r->key->id, "3EB0BBBBBBBBBBBBBBBBBB");
	assert_null(r->key->participant);
	assert_string_equal(r->text, "\xf0\x9f\x91\x8d");
	assert_true(r->has_sendertimestampms);
	assert_int_equal(r->sendertimestampms, 1764480000123);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);

	/* An empty emoji removes the reaction, and is still sent (11.5). */
	assert_int_equal(wa_msg_build_reaction(&k, "", 1, &b), 0);
	m = unpack(&b);
	assert_non_null(m->reactionmessage->text);
	assert_string_equal(m->reactionmessage->text, "");
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);
}

static void
test_wa_msg_build_revoke__is_protocol_message_type_0(void **state)
{
	struct wa_msg_key	 k = { .remote_jid = PEER_LID, .from_me = true,
	    .id = "3EB0CCCCCCCCCCCCCCCCCC" };
	struct buf		 b = BUF_INIT;
	Wae2e__Message		*m;

	(void)state;
	assert_int_equal(wa_msg_build_revoke(&k, &b), 0);
	assert_int_equal(b.p[0], 12 << 3 | 2);	/* protocolMessage(12) */
	m = unpack(&b);
	assert_non_null(m->protocolmessage);
	assert_true(m->protocolmessage->has_type);
	assert_int_equal(m->protocolmessage->type, 0);
	assert_string_equal(m->protocolmessage->key->id,
	    "3EB0CCCCCCCCCCCCCCCCCC");
	assert_true(m->protocolmessage->key->fromme);
	assert_string_equal(m->protocolmessage->key->remotejid, PEER_LID);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);
}

static void
test_wa_msg_build_edit__wraps_a_type_14_protocol_message(void **state)
{
	struct wa_msg_key	 k = { .remote_jid = PEER_LID, .from_me = true,
	    .id = "3EB0DDDDDDDDDDDDDDDDDD" };
	struct buf		 b = BUF_INIT;
	Wae2e__Message		*m, *in;
	Wae2e__Message__ProtocolMessage *pm;

	(void)state;
	assert_int_equal(wa_msg_build_edit(&k, "fixed", 42, &b), 0);
	/* editedMessage(58) is a two-byte tag: 0xd2 0x03. */
	assert_int_equal(b.p[0], 0xd2);
	assert_int_equal(b.p[1], 0x03);
	m = unpack(&b);
	assert_non_null(m->editedmessage);
	in = m->editedmessage->message;
	assert_non_null(in);
	pm = in->protocolmessage;
	assert_non_null(pm);
	assert_int_equal(pm->type, 14);
	assert_string_equal(pm->key->id, "3EB0DDDDDDDDDDDDDDDDDD");
	assert_string_equal(pm->editedmessage->conversation, "fixed");
	assert_true(pm->has_timestampms);
	assert_int_equal(pm->timestampms, 42);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);
}

static void
test_wa_msg_wrap_dsm__wraps_and_copies_the_context_info(void **state)
{
	Wae2e__Message			 in = WAE2E__MESSAGE__INIT;
	Wae2e__MessageContextInfo	 ctx = WAE2E__MESSAGE_CONTEXT_INFO__INIT;
	uint8_t				 secret[32];
	struct buf			 inner = BUF_INIT, b = BUF_INIT;
	Wae2e__Message			*m;

	(void)state;
	memset(secret, 0x5a, sizeof(secret));
	in.conversation = (char *)"hi";
	ctx.has_messagesecret = 1;
	ctx.messagesecret.data = secret;
	ctx.messagesecret.len = sizeof(secret);
	in.messagecontextinfo = &ctx;
	pack_msg(&in, &inner);
	assert_int_equal(wa_msg_wrap_dsm(inner.p, inner.len, PEER_LID, &b), 0);
	m = unpack(&b);
	assert_non_null(m->devicesentmessage);
	assert_string_equal(m->devicesentmessage->destinationjid, PEER_LID);
	assert_null(m->devicesentmessage->phash);	/* 9.2: not set */
	assert_non_null(m->devicesentmessage->message);
	assert_string_equal(m->devicesentmessage->message->conversation, "hi");
	assert_non_null(m->messagecontextinfo);
	assert_int_equal(m->messagecontextinfo->messagesecret.len, 32);
	assert_memory_equal(m->messagecontextinfo->messagesecret.data, secret,
	    32);
	assert_null(m->conversation);
	wae2e__message__free_unpacked(m, NULL);
	buf_release(&b);

	/* Broken inner bytes are refused and nothing is appended. */
	assert_int_equal(wa_msg_wrap_dsm(inner.p, inner.len - 1, PEER_LID, &b),
	    WC_ETRUNC);
	assert_int_equal(b.len, 0);
	buf_release(&inner);
}

/* ------------------------------------------------------------------ */
/* the parser */

static void
test_wa_msg_parse__reads_text_and_extended_text(void **state)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ExtendedTextMessage	 x =
	    WAE2E__MESSAGE__EXTENDED_TEXT_MESSAGE__INIT;
	struct wa_msg_text			 t = { .text = "plain" };
	struct wa_msg_content			 c;
	struct buf				 b = BUF_INIT;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_TEXT);
	assert_string_equal(c.text, "plain");
	assert_null(c.dsm_destination);
	assert_null(c.quoted_id);
	wa_msg_content_release(&c);
	buf_release(&b);

	/* Extended text without a quote (a link preview) is text too. */
	x.text = (char *)"see https://example.org";
	m.extendedtextmessage = &x;
	pack_msg(&m, &b);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_TEXT);
	assert_string_equal(c.text, "see https://example.org");
	wa_msg_content_release(&c);
	buf_release(&b);
}

static void
test_wa_msg_parse__reads_a_reply(void **state)
{
	struct wa_msg_text	 t = { .text = "yes", .quoted_id = "3EB0Q",
	    .quoted_participant = PEER, .quoted_text = "really?" };
	struct wa_msg_content	 c;
	struct buf		 b = BUF_INIT;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_REPLY);
	assert_string_equal(c.text, "yes");
	assert_string_equal(c.quoted_id, "3EB0Q");
	assert_string_equal(c.quoted_participant, PEER);
	assert_string_equal(c.quoted_text, "really?");
	wa_msg_content_release(&c);
	assert_null(c.text);	/* released and zeroed */
	buf_release(&b);
}

static void
test_wa_msg_parse__reads_reactions_and_their_removal(void **state)
{
	struct wa_msg_key	 k = { .remote_jid = PEER_LID, .from_me = true,
	    .id = "3EB0R" };
	struct wa_msg_content	 c;
	struct buf		 b = BUF_INIT;

	(void)state;
	assert_int_equal(wa_msg_build_reaction(&k, "\xe2\x9d\xa4", 99, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_REACTION);
	assert_string_equal(c.emoji, "\xe2\x9d\xa4");
	assert_string_equal(c.target.id, "3EB0R");
	assert_string_equal(c.target.remote_jid, PEER_LID);
	assert_true(c.target.from_me);
	assert_int_equal(c.ts_ms, 99);
	wa_msg_content_release(&c);
	buf_release(&b);

	assert_int_equal(wa_msg_build_reaction(&k, NULL, 100, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_REACTION);
	assert_string_equal(c.emoji, "");
	wa_msg_content_release(&c);
	buf_release(&b);
}

static void
test_wa_msg_parse__reads_revokes_and_edits(void **state)
{
	struct wa_msg_key		 k = { .remote_jid = PEER_LID,
	    .id = "3EB0E" };
	Wae2e__Message			 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message			 e = WAE2E__MESSAGE__INIT;
	Wae2e__Message__ProtocolMessage	 pm =
	    WAE2E__MESSAGE__PROTOCOL_MESSAGE__INIT;
	Wae2e__MessageKey		 mk = WAE2E__MESSAGE_KEY__INIT;
	struct wa_msg_content		 c;
	struct buf			 b = BUF_INIT;

	(void)state;
	assert_int_equal(wa_msg_build_revoke(&k, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_REVOKE);
	assert_string_equal(c.target.id, "3EB0E");
	assert_false(c.target.from_me);
	wa_msg_content_release(&c);
	buf_release(&b);

	assert_int_equal(wa_msg_build_edit(&k, "new words", 5000, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_EDIT);
	assert_int_equal(c.protocol_type, 14);
	assert_string_equal(c.target.id, "3EB0E");
	assert_string_equal(c.text, "new words");
	assert_int_equal(c.ts_ms, 5000);
	wa_msg_content_release(&c);
	buf_release(&b);

	/* Older clients send the protocolMessage unwrapped (11.5). */
	mk.id = (char *)"3EB0OLD";
	e.conversation = (char *)"direct";
	pm.key = &mk;
	pm.has_type = 1;
	pm.type = 14;
	pm.editedmessage = &e;
	m.protocolmessage = &pm;
	pack_msg(&m, &b);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_EDIT);
	assert_string_equal(c.target.id, "3EB0OLD");
	assert_string_equal(c.text, "direct");
	wa_msg_content_release(&c);
	buf_release(&b);

	/* Any other protocolMessage type is passed on by number. */
	pm.type = 5;
	pm.editedmessage = NULL;
	pack_msg(&m, &b);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_PROTOCOL);
	assert_int_equal(c.protocol_type, 5);
	wa_msg_content_release(&c);
	buf_release(&b);
}

static void
test_wa_msg_parse__unwraps_device_sent_and_ephemeral(void **state)
{
	Wae2e__Message				 m = WAE2E__MESSAGE__INIT;
	Wae2e__Message				 in = WAE2E__MESSAGE__INIT;
	Wae2e__Message__FutureProofMessage	 fp =
	    WAE2E__MESSAGE__FUTURE_PROOF_MESSAGE__INIT;
	struct wa_msg_text			 t = { .text = "to myself" };
	struct wa_msg_content			 c;
	struct buf				 inner = BUF_INIT, b = BUF_INIT;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &inner), 0);
	assert_int_equal(wa_msg_wrap_dsm(inner.p, inner.len, PEER_LID, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_TEXT);
	assert_string_equal(c.text, "to myself");
	assert_string_equal(c.dsm_destination, PEER_LID);
	wa_msg_content_release(&c);
	buf_release(&b);
	buf_release(&inner);

	/* ephemeralMessage(40){message{conversation}} (11.3 step 4). */
	in.conversation = (char *)"disappearing";
	fp.message = &in;
	m.ephemeralmessage = &fp;
	pack_msg(&m, &b);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_TEXT);
	assert_string_equal(c.text, "disappearing");
	assert_null(c.dsm_destination);
	wa_msg_content_release(&c);
	buf_release(&b);
}

static void
test_wa_msg_parse__keeps_the_skdm_and_message_secret(void **state)
{
	Wae2e__Message					 m =
	    WAE2E__MESSAGE__INIT;
	Wae2e__Message__SenderKeyDistributionMessage	 s =
	    WAE2E__MESSAGE__SENDER_KEY_DISTRIBUTION_MESSAGE__INIT;
	Wae2e__MessageContextInfo			 ctx =
	    WAE2E__MESSAGE_CONTEXT_INFO__INIT;
	uint8_t						 skdm[40], secret[32];
	struct wa_msg_content				 c;
	struct buf					 b = BUF_INIT;

	(void)state;
	memset(skdm, 0x33, sizeof(skdm));
	memset(secret, 0x44, sizeof(secret));
	s.groupid = (char *)"120363000000000001@g.us";
	s.has_axolotlsenderkeydistributionmessage = 1;
	s.axolotlsenderkeydistributionmessage.data = skdm;
	s.axolotlsenderkeydistributionmessage.len = sizeof(skdm);
	m.senderkeydistributionmessage = &s;
	pack_msg(&m, &b);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_SKDM);	/* nothing to show */
	assert_string_equal(c.skdm_group, "120363000000000001@g.us");
	assert_int_equal(c.skdm_len, sizeof(skdm));
	assert_memory_equal(c.skdm, skdm, sizeof(skdm));
	wa_msg_content_release(&c);
	buf_release(&b);

	/* With text next to it, the text is the content. */
	m.conversation = (char *)"hello group";
	ctx.has_messagesecret = 1;
	ctx.messagesecret.data = secret;
	ctx.messagesecret.len = sizeof(secret);
	m.messagecontextinfo = &ctx;
	pack_msg(&m, &b);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_TEXT);
	assert_string_equal(c.text, "hello group");
	assert_int_equal(c.skdm_len, sizeof(skdm));
	assert_int_equal(c.message_secret_len, 32);
	assert_memory_equal(c.message_secret, secret, 32);
	wa_msg_content_release(&c);
	buf_release(&b);
}

static void
test_wa_msg_parse__names_unsupported_types(void **state)
{
	/* groupInviteMessage(28) with an empty body, then an unknown field
	 * 1000.  (An imageMessage is media now: tests/test-wa-msg-media.c;
	 * a contactMessage a contact card: tests/test-kinds20.c.) */
	static const uint8_t	 image[] = { 0xe2, 0x01, 0x00 };
	static const uint8_t	 unknown[] = { 0xc2, 0x3e, 0x01, 0x00 };
	static const uint8_t	 ctx_only[] = { 0x9a, 0x02, 0x00 };
	struct wa_msg_content	 c;

	(void)state;
	assert_int_equal(wa_msg_parse(image, sizeof(image), &c), 0);
	assert_int_equal(c.kind, WA_MSG_UNSUPPORTED);
	assert_int_equal(c.unsupported_field, 28);
	assert_string_equal(c.unsupported_name, "groupInviteMessage");
	wa_msg_content_release(&c);

	assert_int_equal(wa_msg_parse(unknown, sizeof(unknown), &c), 0);
	assert_int_equal(c.kind, WA_MSG_UNSUPPORTED);
	assert_int_equal(c.unsupported_field, 1000);
	assert_null(c.unsupported_name);
	wa_msg_content_release(&c);

	/* messageContextInfo(35) alone: nothing to show. */
	assert_int_equal(wa_msg_parse(ctx_only, sizeof(ctx_only), &c), 0);
	assert_int_equal(c.kind, WA_MSG_EMPTY);
	wa_msg_content_release(&c);

	assert_string_equal(wa_msg_field_name(46), "reactionMessage");
	assert_string_equal(wa_msg_field_name(9), "videoMessage");
	assert_null(wa_msg_field_name(17));
}

/* n levels of Message{extendedTextMessage(6){contextInfo(17){
 * quotedMessage(3){...}}}} around Message{conversation "x"}.  Every
 * wrapper is a prefix (tag, length), so the lengths are worked out from
 * the inside and the prefixes written from the outside. */
static void
deep_quote(size_t n, struct buf *out)
{
	static const uint8_t	 tag3[] = { 0x1a }, tag17[] = { 0x8a, 0x01 };
	static const uint8_t	 tag6[] = { 0x32 };
	const uint8_t		*tags[3] = { tag3, tag17, tag6 };
	const size_t		 tlen[3] = { 1, 2, 1 };
	size_t			*lens = xcalloc(3 * n + 1, sizeof(*lens));
	size_t			 i, k, len;

	lens[0] = 3;	/* 0a 01 'x' */
	for (i = 0; i < 3 * n; i++) {
		for (len = lens[i], k = 1; len >= 0x80; len >>= 7)
			k++;
		lens[i + 1] = tlen[i % 3] + k + lens[i];
	}
	for (i = 3 * n; i-- > 0;) {
		buf_append(out, tags[i % 3], tlen[i % 3]);
		for (len = lens[i]; len >= 0x80; len >>= 7)
			buf_push(out, (uint8_t)(len | 0x80));
		buf_push(out, (uint8_t)len);
	}
	buf_append(out, "\x0a\x01x", 3);
	assert_int_equal(out->len, lens[3 * n]);
	free(lens);
}

static void
test_wa_msg_parse__fails__on_a_10000_deep_quote(void **state)
{
	struct wa_msg_content	 c;
	struct buf		 b = BUF_INIT;

	(void)state;
	deep_quote(10000, &b);
	memset(&c, 0x7f, sizeof(c));
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), WC_EDEPTH);
	assert_int_equal(((uint8_t *)&c)[0], 0x7f);	/* untouched */
	buf_release(&b);

	/* A few levels are fine: 21 quotes are 64 message levels.  No
	 * stanzaId, so it reads as text. */
	deep_quote(21, &b);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_TEXT);
	wa_msg_content_release(&c);
	buf_release(&b);
	deep_quote(22, &b);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), WC_EDEPTH);
	buf_release(&b);
}

static void
test_wa_msg_parse__fails__on_every_truncation(void **state)
{
	struct wa_msg_text	 t = { .text = "yes", .quoted_id = "3EB0Q",
	    .quoted_participant = PEER, .quoted_text = "really?" };
	struct wa_msg_content	 c;
	struct buf		 b = BUF_INIT;
	size_t			 cut;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &b), 0);
	/* One top-level field: every cut lands inside it. */
	for (cut = 1; cut < b.len; cut++)
		assert_int_equal(wa_msg_parse(b.p, cut, &c), WC_ETRUNC);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* <message> */

static void
test_wa_msg_stanza__lists_each_device_and_the_identity_for_pkmsg(void **state)
{
	static const uint8_t		 ct1[] = { 1, 2, 3 }, ct2[] = { 4, 5 };
	static const uint8_t		 ident[] = { 0x0a, 0x01, 0x00 };
	struct wa_msg_enc_out		 encs[] = {
		{ PEER_DEV, WA_MSG_ENC_PKMSG, ct1, sizeof(ct1) },
		{ ME_DEV, WA_MSG_ENC_MSG, ct2, sizeof(ct2) },
	};
	struct wa_msg_send		 s = {
		.id = "3EB0S", .to = PEER_LID, .encs = encs, .n_encs = 2,
		.device_identity = ident, .device_identity_len = sizeof(ident),
	};
	const struct wa_node		*parts, *to, *enc, *di;
	struct wa_node			*n;
	struct arena			 a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_msg_stanza(&s, &a, &n), 0);
	assert_tag(n, "message");
	assert_sattr(n, "id", "3EB0S");
	assert_jattr(n, "to", "111222333444555", 0, "lid");
	assert_sattr(n, "type", "text");
	assert_sattr(n, "edit", NULL);
	assert_int_equal(nkids(n), 2);
	parts = kid_at(n, 0);
	assert_tag(parts, "participants");
	assert_int_equal(nkids(parts), 2);
	to = kid_at(parts, 0);
	assert_tag(to, "to");
	assert_jattr(to, "jid", "111222333444555", 7, "lid");
	enc = kid_at(to, 0);
	assert_tag(enc, "enc");
	assert_sattr(enc, "v", "2");
	assert_sattr(enc, "type", "pkmsg");
	assert_sattr(enc, "decrypt-fail", NULL);
	assert_int_equal(enc->content.kind, WA_VAL_BYTES);
	assert_int_equal(enc->content.u.str.len, 3);
	assert_memory_equal(enc->content.u.str.p, ct1, 3);
	to = kid_at(parts, 1);
	assert_jattr(to, "jid", "999888777666555", 3, "lid");
	assert_sattr(kid_at(to, 0), "type", "msg");
	di = kid_at(n, 1);
	assert_tag(di, "device-identity");
	assert_int_equal(di->content.kind, WA_VAL_BYTES);
	assert_memory_equal(di->content.u.str.p, ident, sizeof(ident));
	assert_encodes(n);
	arena_release(&a);
}

static void
test_wa_msg_stanza__sends_no_identity_with_only_msg(void **state)
{
	static const uint8_t		 ct[] = { 9 };
	struct wa_msg_enc_out		 enc = { PEER_DEV, WA_MSG_ENC_MSG, ct, 1 };
	struct wa_msg_send		 s = {
		.id = "3EB0T", .to = PEER_LID, .type = "reaction", .edit = "7",
		.peer_recipient_pn = PEER, .encs = &enc, .n_encs = 1,
	};
	struct wa_node			*n;
	struct arena			 a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_msg_stanza(&s, &a, &n), 0);
	assert_int_equal(nkids(n), 1);
	assert_sattr(n, "type", "reaction");
	assert_sattr(n, "edit", "7");
	assert_jattr(n, "peer_recipient_pn", "15550001111", 0,
	    "s.whatsapp.net");
	assert_sattr(kid_at(kid_at(kid_at(n, 0), 0), 0), "decrypt-fail",
	    "hide");
	assert_encodes(n);
	arena_release(&a);
}

static void
test_wa_msg_stanza__fails__on_bad_input(void **state)
{
	static const uint8_t		 ct[] = { 9 };
	struct wa_msg_enc_out		 enc = { PEER_DEV, WA_MSG_ENC_PKMSG,
	    ct, 1 };
	struct wa_msg_send		 s = { .id = "3EB0U", .to = PEER_LID,
	    .encs = &enc, .n_encs = 1 };
	struct wa_node			*n = NULL;
	struct arena			 a;

	(void)state;
	arena_init(&a, 0);
	/* A pkmsg needs <device-identity> (9.4). */
	assert_int_equal(wa_msg_stanza(&s, &a, &n), -EINVAL);
	enc.type = WA_MSG_ENC_SKMSG;
	assert_int_equal(wa_msg_stanza(&s, &a, &n), -EINVAL);
	enc.type = WA_MSG_ENC_MSG;
	enc.jid = "111:x@lid";
	assert_int_equal(wa_msg_stanza(&s, &a, &n), -EINVAL);
	enc.jid = PEER_DEV;
	s.n_encs = 0;
	assert_int_equal(wa_msg_stanza(&s, &a, &n), -EINVAL);
	s.n_encs = 1;
	s.id = NULL;
	assert_int_equal(wa_msg_stanza(&s, &a, &n), -EINVAL);
	assert_null(n);
	arena_release(&a);
}

/* A 1:1 <message> as 11.1 shows it. */
static struct wa_node *
incoming(struct arena *a, bool with_id, bool with_from)
{
	static const uint8_t	 ct[] = { 0x33, 0x0a };
	struct wa_node		*n = node(a, "message", 8, 4);

	if (with_id)
		add_attr(n, "id", "3EB0IN");
	if (with_from)
		add_jid(n, "from", "111222333444555", 7, "lid");
	add_attr(n, "t", "1764480000");
	add_attr(n, "type", "text");
	add_attr(n, "notify", "Alice");
	add_attr(n, "offline", "1");
	add_jid(n, "sender_pn", "15550001111", 0, "s.whatsapp.net");
	add_kid(n, enc_node(a, "pkmsg", "2", ct, sizeof(ct)));
	return n;
}

static void
test_wa_msg_stanza_parse__reads_a_1to1_message(void **state)
{
	struct wa_msg_in	 m;
	struct wa_node		*n;
	struct arena		 a;
	const char		*why = NULL;

	(void)state;
	arena_init(&a, 0);
	n = incoming(&a, true, true);
	add_kid(n, enc_node(&a, "msmsg", "2", "zz", 2));
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, &why), 0);
	assert_string_equal(m.id, "3EB0IN");
	assert_string_equal(m.from, PEER_DEV);
	assert_string_equal(m.type, "text");
	assert_string_equal(m.notify, "Alice");
	assert_string_equal(m.sender_pn, PEER);
	assert_null(m.participant);
	assert_null(m.recipient);
	assert_int_equal(m.t, 1764480000);
	assert_true(m.offline);
	assert_false(m.unavailable);
	assert_int_equal(m.n_encs, 2);
	assert_int_equal(m.n_known, 1);
	assert_int_equal(m.encs[0].type, WA_MSG_ENC_PKMSG);
	assert_int_equal(m.encs[0].v, 2);
	assert_int_equal(m.encs[0].ct_len, 2);
	assert_int_equal(m.encs[0].ct[0], 0x33);
	assert_int_equal(m.encs[1].type, WA_MSG_ENC_OTHER);
	assert_string_equal(m.encs[1].type_name, "msmsg");
	arena_release(&a);
}

static void
test_wa_msg_stanza_parse__reads_our_own_fan_out(void **state)
{
	struct wa_msg_in	 m;
	struct wa_node		*n;
	struct arena		 a;

	(void)state;
	arena_init(&a, 0);
	n = node(&a, "message", 6, 1);
	add_jid(n, "from", "999888777666555", 5, "lid");
	add_jid(n, "recipient", "111222333444555", 0, "lid");
	add_attr(n, "id", "3EB0FAN");
	add_attr(n, "type", "text");
	add_attr(n, "notify", "-");
	add_kid(n, enc_node(&a, "msg", "2", "a", 1));
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, NULL), 0);
	assert_string_equal(m.from, "999888777666555:5@lid");
	assert_string_equal(m.recipient, PEER_LID);
	assert_null(m.notify);	/* "-" is no name (15.4) */
	assert_int_equal(m.encs[0].type, WA_MSG_ENC_MSG);
	assert_false(m.offline);
	assert_int_equal(m.t, 0);
	arena_release(&a);
}

static void
test_wa_msg_stanza_parse__fails__on_malformed_stanzas(void **state)
{
	struct wa_msg_in	 m;
	struct wa_node		*n;
	struct arena		 a;
	const char		*why;

	(void)state;
	arena_init(&a, 0);
	why = NULL;
	assert_int_equal(wa_msg_stanza_parse(incoming(&a, false, true), &a,
	    &m, &why), WC_EPROTO);
	assert_string_equal(why, "<message> without an id");
	assert_int_equal(wa_msg_stanza_parse(incoming(&a, true, false), &a,
	    &m, &why), WC_EPROTO);
	assert_string_equal(why, "<message> without a from");

	n = incoming(&a, true, true);
	n->content.u.list.n = 0;
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, &why), WC_EPROTO);
	assert_string_equal(why, "<message> without <enc>");

	n = incoming(&a, true, true);
	n->content.u.list.n = 0;
	add_kid(n, enc_node(&a, "frskmsg", "2", "x", 1));
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, &why), WC_EPROTO);
	assert_string_equal(why, "<message> with only unknown <enc> types");

	n = incoming(&a, true, true);
	add_kid(n, enc_node(&a, NULL, "2", "x", 1));
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, &why), WC_EPROTO);
	assert_string_equal(why, "<enc> without a type");

	n = incoming(&a, true, true);
	add_kid(n, enc_node(&a, "msg", "2", NULL, 0));
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, &why), WC_EPROTO);
	assert_string_equal(why, "<enc> without ciphertext");

	n = incoming(&a, true, true);
	n->attrs[2].val.u.str = wa_str_c("12x");	/* t */
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, &why), WC_EPROTO);

	n = node(&a, "receipt", 0, 0);
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, &why), -EINVAL);

	/* <unavailable/> instead of <enc> is a message to ack, not an
	 * error. */
	n = incoming(&a, true, true);
	n->content.u.list.n = 0;
	add_kid(n, node(&a, "unavailable", 0, 0));
	assert_int_equal(wa_msg_stanza_parse(n, &a, &m, &why), 0);
	assert_true(m.unavailable);
	assert_int_equal(m.n_encs, 0);
	arena_release(&a);
}

/* ------------------------------------------------------------------ */
/* acks and receipts */

static void
test_wa_msg_ack__answers_a_message_with_its_id_and_sender(void **state)
{
	struct wa_node	*in, *k;
	struct arena	 a;

	(void)state;
	arena_init(&a, 0);
	in = node(&a, "message", 4, 0);
	add_attr(in, "id", "3EB0ACK");
	add_jid(in, "from", "120363000000000001", 0, "g.us");
	add_jid(in, "participant", "111222333444555", 2, "lid");
	add_attr(in, "type", "text");
	assert_int_equal(wa_msg_ack(in, "491", "15550002222:4@s.whatsapp.net",
	    &a, &k), 0);
	assert_tag(k, "ack");
	assert_sattr(k, "class", "message");
	assert_sattr(k, "id", "3EB0ACK");
	assert_jattr(k, "to", "120363000000000001", 0, "g.us");
	assert_jattr(k, "participant", "111222333444555", 2, "lid");
	assert_sattr(k, "type", NULL);	/* not on message acks (11.7) */
	assert_sattr(k, "error", "491");
	assert_jattr(k, "from", "15550002222", 4, "s.whatsapp.net");
	assert_encodes(k);

	/* Other classes keep their type; no from. */
	in = node(&a, "notification", 3, 0);
	add_attr(in, "id", "123");
	add_attr(in, "from", "s.whatsapp.net");
	add_attr(in, "type", "encrypt");
	assert_int_equal(wa_msg_ack(in, NULL, "15550002222:4@s.whatsapp.net",
	    &a, &k), 0);
	assert_sattr(k, "class", "notification");
	assert_sattr(k, "type", "encrypt");
	assert_sattr(k, "to", "s.whatsapp.net");
	assert_null(wa_node_attr(k, "from"));
	assert_null(wa_node_attr(k, "error"));

	in = node(&a, "message", 1, 0);
	add_attr(in, "id", "x");
	assert_int_equal(wa_msg_ack(in, NULL, NULL, &a, &k), -EINVAL);
	arena_release(&a);
}

static void
test_wa_msg_receipt__delivery_has_no_type_and_read_lists_ids(void **state)
{
	const char			*ids[] = { "3EB01", "3EB02", "3EB03" };
	struct wa_msg_receipt_out	 r = { .to = PEER_DEV, .ids = ids,
	    .n_ids = 1 };
	const struct wa_node		*list;
	struct wa_node			*n;
	struct arena			 a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_msg_receipt(&r, &a, &n), 0);
	assert_tag(n, "receipt");
	assert_sattr(n, "id", "3EB01");
	assert_jattr(n, "to", "111222333444555", 7, "lid");
	assert_null(wa_node_attr(n, "type"));
	assert_null(wa_node_attr(n, "t"));
	assert_int_equal(n->content.kind, WA_VAL_NONE);
	assert_encodes(n);

	r.to = PEER_LID;
	r.type = "read";
	r.t = 1764480001;
	r.n_ids = 3;
	assert_int_equal(wa_msg_receipt(&r, &a, &n), 0);
	assert_sattr(n, "type", "read");
	assert_sattr(n, "t", "1764480001");
	assert_sattr(n, "id", "3EB01");
	list = kid_at(n, 0);
	assert_tag(list, "list");
	assert_int_equal(nkids(list), 2);
	assert_tag(kid_at(list, 0), "item");
	assert_sattr(kid_at(list, 0), "id", "3EB02");
	assert_sattr(kid_at(list, 1), "id", "3EB03");
	assert_encodes(n);

	r.n_ids = 0;
	assert_int_equal(wa_msg_receipt(&r, &a, &n), -EINVAL);
	arena_release(&a);
}

static void
test_wa_msg_retry_receipt__has_retry_and_registration(void **state)
{
	struct wa_msg_retry_out	 r = { .to = PEER_DEV, .id = "3EB0F",
	    .count = 2, .t = 1764480002, .registration_id = 0x01020304 };
	const struct wa_node	*retry, *reg;
	struct wa_node		*n;
	struct arena		 a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_msg_retry_receipt(&r, &a, &n), 0);
	assert_tag(n, "receipt");
	assert_sattr(n, "type", "retry");
	assert_sattr(n, "id", "3EB0F");
	assert_jattr(n, "to", "111222333444555", 7, "lid");
	retry = kid_at(n, 0);
	assert_tag(retry, "retry");
	assert_sattr(retry, "count", "2");
	assert_sattr(retry, "id", "3EB0F");
	assert_sattr(retry, "t", "1764480002");
	assert_sattr(retry, "v", "1");
	reg = kid_at(n, 1);
	assert_tag(reg, "registration");
	assert_int_equal(reg->content.kind, WA_VAL_BYTES);
	assert_int_equal(reg->content.u.str.len, 4);
	assert_memory_equal(reg->content.u.str.p, "\x01\x02\x03\x04", 4);
	assert_null(wa_node_attr(n, "category"));
	assert_encodes(n);
	r.category = "peer";
	assert_int_equal(wa_msg_retry_receipt(&r, &a, &n), 0);
	assert_sattr(n, "category", "peer");
	r.count = 0;
	assert_int_equal(wa_msg_retry_receipt(&r, &a, &n), -EINVAL);
	arena_release(&a);
}

static void
test_wa_msg_receipt_parse__reads_ids_and_retries(void **state)
{
	struct wa_msg_receipt_in r;
	struct wa_node		*n, *list, *retry, *reg;
	struct arena		 a;
	const char		*why;

	(void)state;
	arena_init(&a, 0);
	n = node(&a, "receipt", 4, 1);
	add_jid(n, "from", "111222333444555", 7, "lid");
	add_attr(n, "id", "3EB01");
	add_attr(n, "type", "read");
	add_attr(n, "t", "1764480003");
	list = add_kid(n, node(&a, "list", 0, 2));
	add_attr(add_kid(list, node(&a, "item", 1, 0)), "id", "3EB02");
	add_attr(add_kid(list, node(&a, "item", 1, 0)), "id", "3EB03");
	assert_int_equal(wa_msg_receipt_parse(n, &a, &r, NULL), 0);
	assert_string_equal(r.from, PEER_DEV);
	assert_string_equal(r.type, "read");
	assert_int_equal(r.t, 1764480003);
	assert_int_equal(r.n_ids, 3);
	assert_string_equal(r.ids[0], "3EB01");
	assert_string_equal(r.ids[1], "3EB02");
	assert_string_equal(r.ids[2], "3EB03");
	assert_false(r.has_registration);

	/* A delivery receipt has no type. */
	n->nattrs = 2;
	n->content.kind = WA_VAL_NONE;
	assert_int_equal(wa_msg_receipt_parse(n, &a, &r, NULL), 0);
	assert_null(r.type);
	assert_int_equal(r.n_ids, 1);

	n = node(&a, "receipt", 3, 3);
	add_jid(n, "from", "111222333444555", 7, "lid");
	add_attr(n, "id", "3EB0F");
	add_attr(n, "type", "retry");
	retry = add_kid(n, node(&a, "retry", 4, 0));
	add_attr(retry, "count", "3");
	add_attr(retry, "id", "3EB0F");
	add_attr(retry, "t", "1764480002");
	add_attr(retry, "v", "1");
	reg = add_kid(n, node(&a, "registration", 0, 0));
	reg->content.kind = WA_VAL_BYTES;
	reg->content.u.str.p = "\x00\x00\x30\x39";
	reg->content.u.str.len = 4;
	add_kid(n, node(&a, "keys", 0, 0));
	assert_int_equal(wa_msg_receipt_parse(n, &a, &r, NULL), 0);
	assert_string_equal(r.type, "retry");
	assert_int_equal(r.retry_count, 3);
	assert_int_equal(r.retry_t, 1764480002);
	assert_true(r.has_registration);
	assert_int_equal(r.registration_id, 12345);
	assert_true(r.has_keys);

	reg->content.u.str.len = 3;
	assert_int_equal(wa_msg_receipt_parse(n, &a, &r, &why), WC_EPROTO);
	assert_string_equal(why, "<registration> not 4 bytes");

	n = node(&a, "receipt", 1, 0);
	add_attr(n, "id", "x");
	assert_int_equal(wa_msg_receipt_parse(n, &a, &r, &why), WC_EPROTO);
	assert_string_equal(why, "<receipt> without a from");
	arena_release(&a);
}

static void
test_wa_msg_server_ack_parse__reads_id_time_and_error(void **state)
{
	struct wa_msg_server_ack k;
	struct wa_node		*n;
	struct arena		 a;

	(void)state;
	arena_init(&a, 0);
	n = node(&a, "ack", 5, 0);
	add_attr(n, "class", "message");
	add_attr(n, "id", "3EB0S");
	add_jid(n, "from", "111222333444555", 0, "lid");
	add_attr(n, "t", "1764480004");
	assert_int_equal(wa_msg_server_ack_parse(n, &a, &k, NULL), 0);
	assert_string_equal(k.id, "3EB0S");
	assert_string_equal(k.from, PEER_LID);
	assert_int_equal(k.t, 1764480004);
	assert_null(k.error);
	add_attr(n, "error", "479");
	assert_int_equal(wa_msg_server_ack_parse(n, &a, &k, NULL), 0);
	assert_string_equal(k.error, "479");

	n->attrs[0].val.u.str = wa_str_c("receipt");
	assert_int_equal(wa_msg_server_ack_parse(n, &a, &k, NULL), -EINVAL);
	arena_release(&a);
}

/* ------------------------------------------------------------------ */
/* chat state and presence */

static void
test_wa_msg_chatstate__builds_and_reads_typing(void **state)
{
	struct wa_msg_chatstate_in	 c;
	struct wa_node			*n, *in;
	struct arena			 a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_msg_chatstate(PEER_LID, WA_MSG_COMPOSING, &a, &n),
	    0);
	assert_tag(n, "chatstate");
	assert_jattr(n, "to", "111222333444555", 0, "lid");
	assert_null(wa_node_attr(n, "from"));
	assert_tag(kid_at(n, 0), "composing");
	assert_int_equal(kid_at(n, 0)->nattrs, 0);
	assert_encodes(n);
	assert_int_equal(wa_msg_chatstate(PEER_LID, WA_MSG_RECORDING, &a, &n),
	    0);
	assert_sattr(kid_at(n, 0), "media", "audio");
	assert_int_equal(wa_msg_chatstate(PEER_LID, WA_MSG_PAUSED, &a, &n), 0);
	assert_tag(kid_at(n, 0), "paused");

	in = node(&a, "chatstate", 1, 1);
	add_jid(in, "from", "111222333444555", 0, "lid");
	add_attr(add_kid(in, node(&a, "composing", 1, 0)), "media", "audio");
	assert_int_equal(wa_msg_chatstate_parse(in, &a, &c), 0);
	assert_string_equal(c.from, PEER_LID);
	assert_int_equal(c.state, WA_MSG_RECORDING);
	in->content.u.list.n = 0;
	add_kid(in, node(&a, "paused", 0, 0));
	assert_int_equal(wa_msg_chatstate_parse(in, &a, &c), 0);
	assert_int_equal(c.state, WA_MSG_PAUSED);
	in->content.u.list.n = 0;
	assert_int_equal(wa_msg_chatstate_parse(in, &a, &c), WC_EPROTO);
	arena_release(&a);
}

static void
test_wa_msg_presence__builds_and_reads_presence(void **state)
{
	struct wa_msg_presence_in	 p;
	struct wa_node			*n, *in;
	struct arena			 a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_msg_presence(true, "Bob", &a, &n), 0);
	assert_tag(n, "presence");
	assert_sattr(n, "type", "available");
	assert_sattr(n, "name", "Bob");
	assert_int_equal(wa_msg_presence(false, "Bob", &a, &n), 0);
	assert_sattr(n, "type", "unavailable");
	assert_int_equal(wa_msg_presence(true, "", &a, &n), -EINVAL);

	assert_int_equal(wa_msg_presence_subscribe(PEER_LID,
	    (const uint8_t *)"tok", 3, &a, &n), 0);
	assert_sattr(n, "type", "subscribe");
	assert_jattr(n, "to", "111222333444555", 0, "lid");
	assert_tag(kid_at(n, 0), "tctoken");
	assert_int_equal(kid_at(n, 0)->content.u.str.len, 3);
	assert_encodes(n);

	in = node(&a, "presence", 3, 0);
	add_jid(in, "from", "111222333444555", 0, "lid");
	add_attr(in, "type", "unavailable");
	add_attr(in, "last", "1764470000");
	assert_int_equal(wa_msg_presence_parse(in, &a, &p), 0);
	assert_string_equal(p.from, PEER_LID);
	assert_false(p.available);
	assert_int_equal(p.last_s, 1764470000);
	assert_false(p.last_denied);
	in->attrs[2].val.u.str = wa_str_c("deny");
	assert_int_equal(wa_msg_presence_parse(in, &a, &p), 0);
	assert_true(p.last_denied);
	assert_int_equal(p.last_s, 0);
	in->nattrs = 1;
	assert_int_equal(wa_msg_presence_parse(in, &a, &p), 0);
	assert_true(p.available);
	arena_release(&a);
}

static int
setup(void **state)
{
	(void)state;
	return wa_crypto_init();
}

int
main(void)
{
	static const struct CMUnitTest	 tests[] = {
		cmocka_unit_test(test_wa_msg_id__is_3EB0_and_the_sha256_of_time_user_and_random),
		cmocka_unit_test(test_wa_msg_id__leaves_out_the_user_when_unknown),
		cmocka_unit_test(test_wa_msg_pad__appends_1_to_16_bytes_each_equal_to_the_count),
		cmocka_unit_test(test_wa_msg_unpad__refuses_bad_padding),
		cmocka_unit_test(test_wa_msg_build_text__plain_text_is_a_conversation),
		cmocka_unit_test(test_wa_msg_build_text__a_reply_is_extended_text_with_context),
		cmocka_unit_test(test_wa_msg_build_text__a_reply_without_quoted_text_omits_it),
		cmocka_unit_test(test_wa_msg_build_text__fails__without_text),
		cmocka_unit_test(test_wa_msg_build_reaction__carries_the_target_key_and_emoji),
		cmocka_unit_test(test_wa_msg_build_revoke__is_protocol_message_type_0),
		cmocka_unit_test(test_wa_msg_build_edit__wraps_a_type_14_protocol_message),
		cmocka_unit_test(test_wa_msg_wrap_dsm__wraps_and_copies_the_context_info),
		cmocka_unit_test(test_wa_msg_parse__reads_text_and_extended_text),
		cmocka_unit_test(test_wa_msg_parse__reads_a_reply),
		cmocka_unit_test(test_wa_msg_parse__reads_reactions_and_their_removal),
		cmocka_unit_test(test_wa_msg_parse__reads_revokes_and_edits),
		cmocka_unit_test(test_wa_msg_parse__unwraps_device_sent_and_ephemeral),
		cmocka_unit_test(test_wa_msg_parse__keeps_the_skdm_and_message_secret),
		cmocka_unit_test(test_wa_msg_parse__names_unsupported_types),
		cmocka_unit_test(test_wa_msg_parse__fails__on_a_10000_deep_quote),
		cmocka_unit_test(test_wa_msg_parse__fails__on_every_truncation),
		cmocka_unit_test(test_wa_msg_stanza__lists_each_device_and_the_identity_for_pkmsg),
		cmocka_unit_test(test_wa_msg_stanza__sends_no_identity_with_only_msg),
		cmocka_unit_test(test_wa_msg_stanza__fails__on_bad_input),
		cmocka_unit_test(test_wa_msg_stanza_parse__reads_a_1to1_message),
		cmocka_unit_test(test_wa_msg_stanza_parse__reads_our_own_fan_out),
		cmocka_unit_test(test_wa_msg_stanza_parse__fails__on_malformed_stanzas),
		cmocka_unit_test(test_wa_msg_ack__answers_a_message_with_its_id_and_sender),
		cmocka_unit_test(test_wa_msg_receipt__delivery_has_no_type_and_read_lists_ids),
		cmocka_unit_test(test_wa_msg_retry_receipt__has_retry_and_registration),
		cmocka_unit_test(test_wa_msg_receipt_parse__reads_ids_and_retries),
		cmocka_unit_test(test_wa_msg_server_ack_parse__reads_id_time_and_error),
		cmocka_unit_test(test_wa_msg_chatstate__builds_and_reads_typing),
		cmocka_unit_test(test_wa_msg_presence__builds_and_reads_presence),
	};

	return cmocka_run_group_tests_name("wa_msg", tests, setup, NULL);
}
