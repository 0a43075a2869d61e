/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-group.c -- the stanza half of groups (proto/group.c): the
 * phash against protocol.md 10.3's vectors and an independent OpenSSL
 * computation, the group <message> and w:g2 iqs walked attribute by
 * attribute, the SKDM Message decoded with protobuf-c, and the readers of
 * <group> and w:gp2 notifications on hand-built and malformed nodes.
 * JIDs and numbers are made up.
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
#include <openssl/evp.h>
#include <openssl/sha.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "e2e.pb-c.h"
#include "base/err.h"
#include "proto/group.h"
#include "proto/msg.h"
#include "proto/node.h"

#define GROUP		"120363000000000001@g.us"
#define GROUP_USER	"120363000000000001"

/* ------------------------------------------------------------------ */
/* helpers */

static size_t
nkids(const struct wa_node *n)
{
	return n->content.kind == WA_VAL_LIST ? n->content.u.list.n : 0;
}

static const struct wa_node *
kid_at(const struct wa_node *n, size_t i)
{
	assert_int_equal(n->content.kind, WA_VAL_LIST);
	assert_true(i < n->content.u.list.n);
	return &n->content.u.list.v[i];
}

static void
assert_tag(const struct wa_node *n, const char *tag)
{
	assert_true(wa_str_eqc(n->tag, tag));
}

/* Attribute number i must be key = the string want. */
static void
assert_sattr_at(const struct wa_node *n, size_t i, const char *key,
    const char *want)
{
	assert_true(i < n->nattrs);
	assert_true(wa_str_eqc(n->attrs[i].key, key));
	assert_int_equal(n->attrs[i].val.kind, WA_VAL_STR);
	assert_true(wa_str_eqc(n->attrs[i].val.u.str, want));
}

/* Attribute number i must be key = the JID user[:device]@server. */
static void
assert_jattr_at(const struct wa_node *n, size_t i, const char *key,
    const char *user, unsigned device, const char *server)
{
	const struct wa_jid	*j;

	assert_true(i < n->nattrs);
	assert_true(wa_str_eqc(n->attrs[i].key, key));
	assert_int_equal(n->attrs[i].val.kind, WA_VAL_JID);
	j = &n->attrs[i].val.u.jid;
	assert_true(wa_str_eqc(j->user, user));
	assert_int_equal(j->device, device);
	assert_true(wa_str_eqc(j->server, server));
}

static void
assert_bytes(const struct wa_node *n, const void *p, size_t len)
{
	const uint8_t	*q;
	size_t		 qlen;

	assert_true(wa_node_bytes(n, &q, &qlen));
	assert_int_equal(qlen, len);
	assert_memory_equal(q, p, len);
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

/* The <iq id xmlns="w:g2" type to> head every w:g2 builder writes. */
static void
assert_g2_iq(const struct wa_node *iq, const char *id, const char *type,
    const char *to_user)
{
	assert_tag(iq, "iq");
	assert_int_equal(iq->nattrs, 4);
	assert_sattr_at(iq, 0, "id", id);
	assert_sattr_at(iq, 1, "xmlns", "w:g2");
	assert_sattr_at(iq, 2, "type", type);
	assert_jattr_at(iq, 3, "to", to_user, 0, "g.us");
	assert_int_equal(nkids(iq), 1);
}

/* An independent phash: OpenSSL SHA-256 over the given AD strings in
 * the given order (the caller sorts them), base64 of the first 6 bytes. */
static void
openssl_phash(const char *const *ad, size_t n, char out[16])
{
	EVP_MD_CTX	*c = EVP_MD_CTX_new();
	unsigned char	 h[SHA256_DIGEST_LENGTH];
	unsigned char	 b64[12];
	unsigned	 hl = 0;
	size_t		 i;

	assert_non_null(c);
	assert_int_equal(EVP_DigestInit_ex(c, EVP_sha256(), NULL), 1);
	for (i = 0; i < n; i++)
		assert_int_equal(EVP_DigestUpdate(c, ad[i], strlen(ad[i])), 1);
	assert_int_equal(EVP_DigestFinal_ex(c, h, &hl), 1);
	EVP_MD_CTX_free(c);
	/* 6 bytes give 8 characters and no padding. */
	assert_int_equal(EVP_EncodeBlock(b64, h, 6), 8);
	snprintf(out, 16, "2:%.8s", (const char *)b64);
}

/* A node for the parser tests, with room for nattrs and nkid children. */
static struct wa_node *
mk(struct arena *a, const char *tag, size_t nattrs)
{
	return wa_nb_new(a, tag, nattrs);
}

/* ------------------------------------------------------------------ */
/* phash */

static void
test_wa_group_phash__matches_the_doc_vectors(void **state)
{
	const char	*one[] = { "5511999999999:3@s.whatsapp.net" };
	const char	*zero[] = { "5511999999999@s.whatsapp.net" };
	const char	*two[] = { "7469250125917:21@s.whatsapp.net",
			    "5511988887777:14@s.whatsapp.net" };
	char		 out[WA_GROUP_PHASH_LEN + 1];

	(void)state;
	assert_int_equal(wa_group_phash(one, 1, out), 0);
	assert_string_equal(out, "2:5s+YxCff");
	assert_int_equal(wa_group_phash(zero, 1, out), 0);
	assert_string_equal(out, "2:RJWVxcMQ");
	/* Given unsorted: the hash sorts. */
	assert_int_equal(wa_group_phash(two, 2, out), 0);
	assert_string_equal(out, "2:AAv/hwhn");
	assert_int_equal(strlen(out), WA_GROUP_PHASH_LEN);
}

static void
test_wa_group_phash__equals_openssl_over_sorted_ad_strings(void **state)
{
	const char	*devs[] = { "222000111:5@lid", "111000222@lid",
			    "999000333:12@lid", "111000222:1@lid",
			    "555000444:99@hosted.lid" };
	/* By hand: AD form, bytewise order, the hosted device left out. */
	const char	*ad[] = { "111000222.0:0@lid", "111000222.0:1@lid",
			    "222000111.0:5@lid", "999000333.0:12@lid" };
	char		 want[16], got[WA_GROUP_PHASH_LEN + 1];
	char		 again[WA_GROUP_PHASH_LEN + 1];
	const char	*rev[4];

	(void)state;
	openssl_phash(ad, 4, want);
	assert_int_equal(wa_group_phash(devs, 5, got), 0);
	assert_string_equal(got, want);
	/* A different order gives the same hash; another set differs. */
	rev[0] = devs[3]; rev[1] = devs[2]; rev[2] = devs[1]; rev[3] = devs[0];
	assert_int_equal(wa_group_phash(rev, 4, again), 0);
	assert_string_equal(again, want);
	assert_int_equal(wa_group_phash(devs, 3, again), 0);
	assert_string_not_equal(again, want);
}

static void
test_wa_group_phash__fails__on_bad_jids(void **state)
{
	const char	*bad[] = { "111@lid", "111:x@lid" };
	const char	*nouser[] = { "lid" };
	const char	*null[] = { NULL };
	char		 out[WA_GROUP_PHASH_LEN + 1] = "unchanged";

	(void)state;
	assert_int_equal(wa_group_phash(bad, 2, out), -EINVAL);
	assert_int_equal(wa_group_phash(nouser, 1, out), -EINVAL);
	assert_int_equal(wa_group_phash(null, 1, out), -EINVAL);
	assert_int_equal(wa_group_phash(NULL, 1, out), -EINVAL);
	assert_int_equal(wa_group_phash(bad, WA_GROUP_MAX_DEVICES + 1, out),
	    -EINVAL);
	assert_string_equal(out, "unchanged");
}

/* ------------------------------------------------------------------ */
/* the group <message> */

static const uint8_t	 ct1[] = { 0x33, 1, 2, 3 };
static const uint8_t	 ct2[] = { 0x33, 4, 5 };
static const uint8_t	 skmsg[] = { 0x33, 9, 9, 9, 9 };
static const uint8_t	 ident[] = { 0x0a, 0x02, 0xaa, 0xbb };

static void
test_wa_group_stanza__lists_skdm_copies_skmsg_and_identity(void **state)
{
	struct wa_msg_enc_out	 e[2] = {
		{ "111000222@lid", WA_MSG_ENC_PKMSG, ct1, sizeof(ct1) },
		{ "222000111:5@lid", WA_MSG_ENC_MSG, ct2, sizeof(ct2) },
	};
	struct wa_group_send	 s = {
		.id = "3EB0AABBCCDDEEFF001122", .to = GROUP,
		.phash = "2:AAv/hwhn", .addressing_mode = "lid",
		.skdm = e, .n_skdm = 2, .skmsg = skmsg,
		.skmsg_len = sizeof(skmsg), .device_identity = ident,
		.device_identity_len = sizeof(ident),
	};
	struct arena		 a;
	struct wa_node		*n;
	const struct wa_node	*parts, *to, *enc;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_group_stanza(&s, &a, &n), 0);
	assert_tag(n, "message");
	assert_int_equal(n->nattrs, 5);
	assert_jattr_at(n, 0, "to", GROUP_USER, 0, "g.us");
	assert_sattr_at(n, 1, "id", "3EB0AABBCCDDEEFF001122");
	assert_sattr_at(n, 2, "type", "text");
	assert_sattr_at(n, 3, "phash", "2:AAv/hwhn");
	assert_sattr_at(n, 4, "addressing_mode", "lid");
	assert_int_equal(nkids(n), 3);
	parts = kid_at(n, 0);
	assert_tag(parts, "participants");
	assert_int_equal(parts->nattrs, 0);
	assert_int_equal(nkids(parts), 2);
	to = kid_at(parts, 0);
	assert_tag(to, "to");
	assert_int_equal(to->nattrs, 1);
	assert_jattr_at(to, 0, "jid", "111000222", 0, "lid");
	enc = kid_at(to, 0);
	assert_tag(enc, "enc");
	assert_int_equal(enc->nattrs, 2);
	assert_sattr_at(enc, 0, "v", "2");
	assert_sattr_at(enc, 1, "type", "pkmsg");
	assert_bytes(enc, ct1, sizeof(ct1));
	to = kid_at(parts, 1);
	assert_jattr_at(to, 0, "jid", "222000111", 5, "lid");
	enc = kid_at(to, 0);
	assert_sattr_at(enc, 1, "type", "msg");
	assert_bytes(enc, ct2, sizeof(ct2));
	enc = kid_at(n, 1);
	assert_tag(enc, "enc");
	assert_int_equal(enc->nattrs, 2);
	assert_sattr_at(enc, 0, "v", "2");
	assert_sattr_at(enc, 1, "type", "skmsg");
	assert_bytes(enc, skmsg, sizeof(skmsg));
	assert_tag(kid_at(n, 2), "device-identity");
	assert_bytes(kid_at(n, 2), ident, sizeof(ident));
	assert_encodes(n);
	arena_release(&a);
}

static void
test_wa_group_stanza__sends_only_skmsg_when_all_have_the_key(void **state)
{
	struct wa_group_send	 s = {
		.id = "3EB0AABBCCDDEEFF001122", .to = GROUP,
		.phash = "2:AAv/hwhn", .addressing_mode = "pn",
		.type = "reaction", .mediatype = "image",
		.skmsg = skmsg, .skmsg_len = sizeof(skmsg),
	};
	struct arena		 a;
	struct wa_node		*n;
	const struct wa_node	*enc;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_group_stanza(&s, &a, &n), 0);
	assert_sattr_at(n, 2, "type", "reaction");
	assert_sattr_at(n, 4, "addressing_mode", "pn");
	assert_int_equal(nkids(n), 1);
	enc = kid_at(n, 0);
	assert_tag(enc, "enc");
	assert_int_equal(enc->nattrs, 4);
	assert_sattr_at(enc, 1, "type", "skmsg");
	assert_sattr_at(enc, 2, "mediatype", "image");
	assert_sattr_at(enc, 3, "decrypt-fail", "hide");
	assert_encodes(n);
	/* An edit carries edit= after addressing_mode. */
	s.type = NULL;
	s.edit = "1";
	s.mediatype = NULL;
	assert_int_equal(wa_group_stanza(&s, &a, &n), 0);
	assert_int_equal(n->nattrs, 6);
	assert_sattr_at(n, 5, "edit", "1");
	assert_sattr_at(kid_at(n, 0), 2, "decrypt-fail", "hide");
	arena_release(&a);
}

static void
test_wa_group_stanza__fails__on_bad_input(void **state)
{
	struct wa_msg_enc_out	 pk = { "111000222@lid", WA_MSG_ENC_PKMSG,
				    ct1, sizeof(ct1) };
	struct wa_msg_enc_out	 sk = { "111000222@lid", WA_MSG_ENC_SKMSG,
				    ct1, sizeof(ct1) };
	struct wa_group_send	 ok = {
		.id = "X", .to = GROUP, .phash = "2:AAv/hwhn",
		.addressing_mode = "lid", .skmsg = skmsg,
		.skmsg_len = sizeof(skmsg),
	};
	struct wa_group_send	 s;
	struct arena		 a;
	struct wa_node		*n = NULL;

	(void)state;
	arena_init(&a, 0);
	s = ok; s.to = "111000222@lid";
	assert_int_equal(wa_group_stanza(&s, &a, &n), -EINVAL);
	s = ok; s.phash = NULL;
	assert_int_equal(wa_group_stanza(&s, &a, &n), -EINVAL);
	s = ok; s.addressing_mode = "other";
	assert_int_equal(wa_group_stanza(&s, &a, &n), -EINVAL);
	s = ok; s.skmsg = NULL;
	assert_int_equal(wa_group_stanza(&s, &a, &n), -EINVAL);
	s = ok; s.skdm = &pk; s.n_skdm = 1;	/* pkmsg, no identity */
	assert_int_equal(wa_group_stanza(&s, &a, &n), -EINVAL);
	s = ok; s.skdm = &sk; s.n_skdm = 1;	/* skmsg is not pairwise */
	assert_int_equal(wa_group_stanza(&s, &a, &n), -EINVAL);
	s = ok; s.id = NULL;
	assert_int_equal(wa_group_stanza(&s, &a, &n), -EINVAL);
	assert_int_equal(wa_group_stanza(NULL, &a, &n), -EINVAL);
	assert_null(n);
	arena_release(&a);
}

/* ------------------------------------------------------------------ */
/* the SKDM Message */

static void
test_wa_group_message_skdm__carries_group_and_skdm_only(void **state)
{
	const uint8_t	 skdm[] = { 0x33, 0x0a, 0x01, 0x02 };
	struct buf	 b = BUF_INIT;
	Wae2e__Message	*m;

	(void)state;
	assert_int_equal(wa_group_message_skdm(GROUP, skdm, sizeof(skdm), &b),
	    0);
	m = wae2e__message__unpack(NULL, b.len, b.p);
	assert_non_null(m);
	assert_null(m->conversation);
	assert_null(m->extendedtextmessage);
	assert_non_null(m->senderkeydistributionmessage);
	assert_string_equal(m->senderkeydistributionmessage->groupid, GROUP);
	assert_true(m->senderkeydistributionmessage->
	    has_axolotlsenderkeydistributionmessage);
	assert_int_equal(m->senderkeydistributionmessage->
	    axolotlsenderkeydistributionmessage.len, sizeof(skdm));
	assert_memory_equal(m->senderkeydistributionmessage->
	    axolotlsenderkeydistributionmessage.data, skdm, sizeof(skdm));
	wae2e__message__free_unpacked(m, NULL);
	/* Errors leave out alone. */
	assert_int_equal(wa_group_message_skdm("111@lid", skdm, sizeof(skdm),
	    &b), -EINVAL);
	assert_int_equal(wa_group_message_skdm(GROUP, skdm, 0, &b), -EINVAL);
	assert_int_equal(wa_group_message_skdm(GROUP, NULL, 4, &b), -EINVAL);
	buf_release(&b);
}

static void
test_wa_group_message_add_skdm__keeps_text_and_adds_skdm(void **state)
{
	const uint8_t		 skdm[] = { 0x33, 0x22 };
	struct wa_msg_text	 t = { .text = "hello group" };
	struct buf		 text = BUF_INIT, b = BUF_INIT;
	Wae2e__Message		*m;

	(void)state;
	assert_int_equal(wa_msg_build_text(&t, &text), 0);
	assert_int_equal(wa_group_message_add_skdm(text.p, text.len, GROUP,
	    skdm, sizeof(skdm), &b), 0);
	m = wae2e__message__unpack(NULL, b.len, b.p);
	assert_non_null(m);
	assert_string_equal(m->conversation, "hello group");
	assert_non_null(m->senderkeydistributionmessage);
	assert_string_equal(m->senderkeydistributionmessage->groupid, GROUP);
	assert_memory_equal(m->senderkeydistributionmessage->
	    axolotlsenderkeydistributionmessage.data, skdm, sizeof(skdm));
	wae2e__message__free_unpacked(m, NULL);
	b.len = 0;
	assert_int_equal(wa_group_message_add_skdm(text.p, text.len, "x@lid",
	    skdm, sizeof(skdm), &b), -EINVAL);
	assert_int_equal(b.len, 0);
	buf_release(&text);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* w:g2 iqs */

static void
test_wa_group_info_query__asks_interactive_query(void **state)
{
	struct arena		 a;
	struct wa_node		*iq;
	const struct wa_node	*q;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_group_info_query("q1", GROUP, &a, &iq), 0);
	assert_g2_iq(iq, "q1", "get", GROUP_USER);
	q = kid_at(iq, 0);
	assert_tag(q, "query");
	assert_int_equal(q->nattrs, 1);
	assert_sattr_at(q, 0, "request", "interactive");
	assert_int_equal(nkids(q), 0);
	assert_encodes(iq);
	assert_int_equal(wa_group_info_query("q1", "111@s.whatsapp.net", &a,
	    &iq), -EINVAL);
	assert_int_equal(wa_group_info_query(NULL, GROUP, &a, &iq), -EINVAL);
	arena_release(&a);
}

static void
test_wa_group_participating_query__asks_participants_and_description(
    void **state)
{
	struct arena		 a;
	struct wa_node		*iq;
	const struct wa_node	*p;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_group_participating_query("q2", &a, &iq), 0);
	assert_g2_iq(iq, "q2", "get", "");
	p = kid_at(iq, 0);
	assert_tag(p, "participating");
	assert_int_equal(p->nattrs, 0);
	assert_int_equal(nkids(p), 2);
	assert_tag(kid_at(p, 0), "participants");
	assert_tag(kid_at(p, 1), "description");
	assert_int_equal(nkids(kid_at(p, 0)), 0);
	assert_encodes(iq);
	arena_release(&a);
}

static void
test_wa_group_create__lists_participants_and_strips_3eb0(void **state)
{
	const char		*ps[] = { "111000222@lid",
				    "15550001111@s.whatsapp.net" };
	struct arena		 a;
	struct wa_node		*iq;
	const struct wa_node	*c;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_group_create("q3", "Hikers", "3EB0ABCDEF",
	    ps, 2, &a, &iq), 0);
	assert_g2_iq(iq, "q3", "set", "");
	c = kid_at(iq, 0);
	assert_tag(c, "create");
	assert_int_equal(c->nattrs, 2);
	assert_sattr_at(c, 0, "subject", "Hikers");
	assert_sattr_at(c, 1, "key", "ABCDEF");
	assert_int_equal(nkids(c), 2);
	assert_tag(kid_at(c, 0), "participant");
	assert_int_equal(kid_at(c, 0)->nattrs, 1);
	assert_jattr_at(kid_at(c, 0), 0, "jid", "111000222", 0, "lid");
	assert_jattr_at(kid_at(c, 1), 0, "jid", "15550001111", 0,
	    "s.whatsapp.net");
	assert_encodes(iq);
	/* A key without the prefix is sent as given; no participants. */
	assert_int_equal(wa_group_create("q3", "Hikers", "K1", NULL, 0, &a,
	    &iq), 0);
	assert_sattr_at(kid_at(iq, 0), 1, "key", "K1");
	assert_int_equal(nkids(kid_at(iq, 0)), 0);
	assert_int_equal(wa_group_create("q3", "", "K1", NULL, 0, &a, &iq),
	    -EINVAL);
	assert_int_equal(wa_group_create("q3", "S", "3EB0", NULL, 0, &a, &iq),
	    -EINVAL);
	assert_int_equal(wa_group_create("q3", "S", "K", NULL, 1, &a, &iq),
	    -EINVAL);
	arena_release(&a);
}

static void
test_wa_group_set_subject__sends_subject_as_content(void **state)
{
	struct arena		 a;
	struct wa_node		*iq;
	const struct wa_node	*s;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_group_set_subject("q4", GROUP, "New name", &a,
	    &iq), 0);
	assert_g2_iq(iq, "q4", "set", GROUP_USER);
	s = kid_at(iq, 0);
	assert_tag(s, "subject");
	assert_int_equal(s->nattrs, 0);
	assert_bytes(s, "New name", 8);
	assert_encodes(iq);
	assert_int_equal(wa_group_set_subject("q4", GROUP, "", &a, &iq),
	    -EINVAL);
	arena_release(&a);
}

static void
test_wa_group_participants_change__uses_the_action_tag(void **state)
{
	const char		*ps[] = { "111000222@lid", "222000111@lid" };
	const char		*tags[] = { "add", "remove", "promote",
				    "demote" };
	enum wa_group_change	 w[] = { WA_GROUP_ADD, WA_GROUP_REMOVE,
				    WA_GROUP_PROMOTE, WA_GROUP_DEMOTE };
	const char		*bad[] = { "x@y@z" };
	struct arena		 a;
	struct wa_node		*iq;
	const struct wa_node	*c;
	size_t			 i;

	(void)state;
	arena_init(&a, 0);
	for (i = 0; i < 4; i++) {
		assert_int_equal(wa_group_participants_change("q5", GROUP,
		    w[i], ps, 2, &a, &iq), 0);
		assert_g2_iq(iq, "q5", "set", GROUP_USER);
		c = kid_at(iq, 0);
		assert_tag(c, tags[i]);
		assert_int_equal(c->nattrs, 0);
		assert_int_equal(nkids(c), 2);
		assert_tag(kid_at(c, 1), "participant");
		assert_jattr_at(kid_at(c, 1), 0, "jid", "222000111", 0, "lid");
		assert_encodes(iq);
	}
	assert_int_equal(wa_group_participants_change("q5", GROUP,
	    WA_GROUP_ADD, ps, 0, &a, &iq), -EINVAL);
	assert_int_equal(wa_group_participants_change("q5", GROUP,
	    WA_GROUP_ADD, bad, 1, &a, &iq), -EINVAL);
	arena_release(&a);
}

static void
test_wa_group_leave__names_the_group_by_id(void **state)
{
	struct arena		 a;
	struct wa_node		*iq;
	const struct wa_node	*l, *g;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_group_leave("q6", GROUP, &a, &iq), 0);
	assert_g2_iq(iq, "q6", "set", "");
	l = kid_at(iq, 0);
	assert_tag(l, "leave");
	assert_int_equal(l->nattrs, 0);
	assert_int_equal(nkids(l), 1);
	g = kid_at(l, 0);
	assert_tag(g, "group");
	assert_int_equal(g->nattrs, 1);
	assert_jattr_at(g, 0, "id", GROUP_USER, 0, "g.us");
	assert_encodes(iq);
	assert_int_equal(wa_group_leave("q6", "111@lid", &a, &iq), -EINVAL);
	arena_release(&a);
}

/* ------------------------------------------------------------------ */
/* reading <group> */

/* A LID-addressed <group> with three participants and a description. */
static struct wa_node *
sample_group(struct arena *a)
{
	struct wa_node	*g = mk(a, "group", 10), *k, *p, *d;

	wa_nb_attr(g, "id", GROUP_USER);
	wa_nb_attr(g, "subject", "Hikers");
	wa_nb_attr(g, "s_t", "1700000001");
	assert_int_equal(wa_nb_attr_jid(g, "s_o", "111000222@lid"), 0);
	wa_nb_attr(g, "creation", "1700000000");
	assert_int_equal(wa_nb_attr_jid(g, "creator", "111000222@lid"), 0);
	wa_nb_attr(g, "size", "3");
	wa_nb_attr(g, "addressing_mode", "lid");
	k = wa_nb_kids(a, g, 6);
	p = wa_nb_kid(a, &k[0], "participant", 3);
	assert_int_equal(wa_nb_attr_jid(p, "jid", "111000222@lid"), 0);
	assert_int_equal(wa_nb_attr_jid(p, "phone_number",
	    "15550001111@s.whatsapp.net"), 0);
	wa_nb_attr(p, "type", "superadmin");
	p = wa_nb_kid(a, &k[1], "participant", 2);
	assert_int_equal(wa_nb_attr_jid(p, "jid", "222000111@lid"), 0);
	wa_nb_attr(p, "type", "admin");
	p = wa_nb_kid(a, &k[2], "participant", 1);
	assert_int_equal(wa_nb_attr_jid(p, "jid", "333000111@lid"), 0);
	d = wa_nb_kid(a, &k[3], "description", 1);
	wa_nb_attr(d, "id", "D1");
	wa_nb_bytes(wa_nb_kid(a, wa_nb_kids(a, d, 1), "body", 0), "Trails",
	    6);
	wa_nb_kid(a, &k[4], "locked", 0);
	wa_nb_attr(wa_nb_kid(a, &k[5], "ephemeral", 1), "expiration",
	    "86400");
	return g;
}

static void
test_wa_group_info_parse__reads_metadata_and_participants(void **state)
{
	struct arena		 a;
	struct wa_group_info	 gi;
	const char		*why = NULL;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_group_info_parse(sample_group(&a), &a, &gi, &why),
	    0);
	assert_string_equal(gi.jid, GROUP);
	assert_string_equal(gi.subject, "Hikers");
	assert_int_equal(gi.subject_t, 1700000001);
	assert_string_equal(gi.subject_owner, "111000222@lid");
	assert_string_equal(gi.creator, "111000222@lid");
	assert_int_equal(gi.creation, 1700000000);
	assert_int_equal(gi.size, 3);
	assert_string_equal(gi.addressing_mode, "lid");
	assert_true(gi.lid);
	assert_string_equal(gi.description, "Trails");
	assert_string_equal(gi.description_id, "D1");
	assert_true(gi.locked);
	assert_false(gi.announce);
	assert_int_equal(gi.ephemeral_s, 86400);
	assert_int_equal(gi.n_participants, 3);
	assert_string_equal(gi.participants[0].jid, "111000222@lid");
	assert_string_equal(gi.participants[0].phone_number,
	    "15550001111@s.whatsapp.net");
	assert_true(gi.participants[0].superadmin);
	assert_true(gi.participants[0].admin);
	assert_string_equal(gi.participants[1].jid, "222000111@lid");
	assert_true(gi.participants[1].admin);
	assert_false(gi.participants[1].superadmin);
	assert_false(gi.participants[2].admin);
	assert_null(gi.participants[2].phone_number);
	assert_null(gi.participants[2].lid);
	arena_release(&a);
}

static void
test_wa_group_info_parse__fails__on_malformed_groups(void **state)
{
	struct arena		 a;
	struct wa_group_info	 gi;
	struct wa_node		*g, *k;
	const char		*why;
	size_t			 i;

	(void)state;
	arena_init(&a, 0);
	memset(&gi, 0x5a, sizeof(gi));
	/* No id. */
	g = mk(&a, "group", 1);
	wa_nb_attr(g, "subject", "x");
	why = NULL;
	assert_int_equal(wa_group_info_parse(g, &a, &gi, &why), WC_EPROTO);
	assert_non_null(why);
	/* A participant without jid. */
	g = mk(&a, "group", 1);
	wa_nb_attr(g, "id", "1");
	wa_nb_kid(&a, wa_nb_kids(&a, g, 1), "participant", 1);
	assert_int_equal(wa_group_info_parse(g, &a, &gi, NULL), WC_EPROTO);
	/* A non-numeric creation. */
	g = mk(&a, "group", 2);
	wa_nb_attr(g, "id", "1");
	wa_nb_attr(g, "creation", "12a");
	assert_int_equal(wa_group_info_parse(g, &a, &gi, NULL), WC_EPROTO);
	/* Too many participants. */
	g = mk(&a, "group", 1);
	wa_nb_attr(g, "id", "1");
	k = wa_nb_kids(&a, g, WA_GROUP_MAX_PARTICIPANTS + 1);
	for (i = 0; i <= WA_GROUP_MAX_PARTICIPANTS; i++)
		wa_nb_attr(wa_nb_kid(&a, &k[i], "participant", 1), "jid",
		    "1@lid");
	assert_int_equal(wa_group_info_parse(g, &a, &gi, NULL), WC_EPROTO);
	/* Not a group. */
	assert_int_equal(wa_group_info_parse(mk(&a, "iq", 0), &a, &gi, NULL),
	    -EINVAL);
	assert_int_equal(wa_group_info_parse(NULL, &a, &gi, NULL), -EINVAL);
	/* *out untouched throughout. */
	assert_int_equal(gi.n_participants, (size_t)0x5a5a5a5a5a5a5a5aULL);
	arena_release(&a);
}

static void
test_wa_group_iq_parse__reads_one_group_lists_and_errors(void **state)
{
	struct arena		 a;
	struct wa_node		*iq, *gs, *k, *e;
	struct wa_group_info	*v;
	size_t			 n;

	(void)state;
	arena_init(&a, 0);
	iq = mk(&a, "iq", 2);
	wa_nb_attr(iq, "type", "result");
	*wa_nb_kids(&a, iq, 1) = *sample_group(&a);
	assert_int_equal(wa_group_iq_parse(iq, &a, &v, &n, NULL), 0);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].subject, "Hikers");
	/* <groups> of two (the second PN-addressed). */
	iq = mk(&a, "iq", 2);
	wa_nb_attr(iq, "type", "result");
	gs = wa_nb_kid(&a, wa_nb_kids(&a, iq, 1), "groups", 0);
	k = wa_nb_kids(&a, gs, 2);
	k[0] = *sample_group(&a);
	wa_nb_kid(&a, &k[1], "group", 2);
	wa_nb_attr(&k[1], "id", "120363000000000002");
	assert_int_equal(wa_group_iq_parse(iq, &a, &v, &n, NULL), 0);
	assert_int_equal(n, 2);
	assert_string_equal(v[1].jid, "120363000000000002@g.us");
	assert_string_equal(v[1].addressing_mode, "pn");
	assert_false(v[1].lid);
	assert_int_equal(v[1].n_participants, 0);
	/* Errors. */
	iq = mk(&a, "iq", 1);
	wa_nb_attr(iq, "type", "error");
	e = wa_nb_kid(&a, wa_nb_kids(&a, iq, 1), "error", 1);
	wa_nb_attr(e, "code", "404");
	assert_int_equal(wa_group_iq_parse(iq, &a, &v, &n, NULL), -ENOENT);
	e->attrs[0].val.u.str = wa_str_c("403");
	assert_int_equal(wa_group_iq_parse(iq, &a, &v, &n, NULL), -EACCES);
	e->attrs[0].val.u.str = wa_str_c("500");
	assert_int_equal(wa_group_iq_parse(iq, &a, &v, &n, NULL), WC_EPROTO);
	iq = mk(&a, "iq", 1);
	wa_nb_attr(iq, "type", "error");	/* no <error> child */
	assert_int_equal(wa_group_iq_parse(iq, &a, &v, &n, NULL), WC_EPROTO);
	iq = mk(&a, "iq", 1);
	wa_nb_attr(iq, "type", "result");	/* no <group> */
	assert_int_equal(wa_group_iq_parse(iq, &a, &v, &n, NULL), WC_EPROTO);
	assert_int_equal(wa_group_iq_parse(NULL, &a, &v, &n, NULL), -EINVAL);
	arena_release(&a);
}

/* ------------------------------------------------------------------ */
/* w:gp2 notifications */

static struct wa_node *
gp2(struct arena *a, size_t nkid, struct wa_node **k)
{
	struct wa_node	*n = mk(a, "notification", 6);

	assert_int_equal(wa_nb_attr_jid(n, "from", GROUP), 0);
	wa_nb_attr(n, "type", "w:gp2");
	wa_nb_attr(n, "id", "N1");
	wa_nb_attr(n, "t", "1700000100");
	assert_int_equal(wa_nb_attr_jid(n, "participant", "111000222@lid"),
	    0);
	wa_nb_attr(n, "notify", "Ann");
	if (nkid > 0)
		*k = wa_nb_kids(a, n, nkid);
	return n;
}

static void
test_wa_group_notification_parse__reads_each_change(void **state)
{
	struct arena		 a;
	struct wa_node		*n, *k, *c, *p;
	struct wa_group_event	*ev;
	size_t			 cnt;

	(void)state;
	arena_init(&a, 0);
	n = gp2(&a, 6, &k);
	c = wa_nb_kid(&a, &k[0], "remove", 1);
	wa_nb_attr(c, "reason", "invite");
	p = wa_nb_kids(&a, c, 2);
	assert_int_equal(wa_nb_attr_jid(wa_nb_kid(&a, &p[0], "participant",
	    2), "jid", "222000111@lid"), 0);
	assert_int_equal(wa_nb_attr_jid(&p[0], "phone_number",
	    "15550002222@s.whatsapp.net"), 0);
	assert_int_equal(wa_nb_attr_jid(wa_nb_kid(&a, &p[1], "participant",
	    1), "jid", "333000111@lid"), 0);
	c = wa_nb_kid(&a, &k[1], "subject", 3);
	wa_nb_attr(c, "subject", "Climbers");
	wa_nb_attr(c, "s_t", "1700000099");
	assert_int_equal(wa_nb_attr_jid(c, "s_o", "111000222@lid"), 0);
	c = wa_nb_kid(&a, &k[2], "ephemeral", 1);
	wa_nb_attr(c, "expiration", "604800");
	wa_nb_kid(&a, &k[3], "announcement", 0);
	wa_nb_kid(&a, &k[4], "membership_approval_mode", 0);
	c = wa_nb_kid(&a, &k[5], "create", 0);
	*wa_nb_kids(&a, c, 1) = *sample_group(&a);

	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, NULL),
	    0);
	assert_int_equal(cnt, 6);
	assert_int_equal(ev[0].kind, WA_GROUP_EV_REMOVE);
	assert_string_equal(ev[0].tag, "remove");
	assert_string_equal(ev[0].group, GROUP);
	assert_string_equal(ev[0].id, "N1");
	assert_int_equal(ev[0].t, 1700000100);
	assert_string_equal(ev[0].author, "111000222@lid");
	assert_string_equal(ev[0].notify, "Ann");
	assert_string_equal(ev[0].reason, "invite");
	assert_int_equal(ev[0].n_participants, 2);
	assert_string_equal(ev[0].participants[0].jid, "222000111@lid");
	assert_string_equal(ev[0].participants[0].phone_number,
	    "15550002222@s.whatsapp.net");
	assert_string_equal(ev[0].participants[1].jid, "333000111@lid");
	assert_int_equal(ev[1].kind, WA_GROUP_EV_SUBJECT);
	assert_string_equal(ev[1].subject, "Climbers");
	assert_int_equal(ev[1].subject_t, 1700000099);
	assert_string_equal(ev[1].subject_owner, "111000222@lid");
	assert_int_equal(ev[2].kind, WA_GROUP_EV_EPHEMERAL);
	assert_int_equal(ev[2].expiration_s, 604800);
	assert_int_equal(ev[3].kind, WA_GROUP_EV_ANNOUNCE);
	assert_int_equal(ev[4].kind, WA_GROUP_EV_OTHER);
	assert_string_equal(ev[4].tag, "membership_approval_mode");
	assert_int_equal(ev[5].kind, WA_GROUP_EV_CREATE);
	assert_non_null(ev[5].created);
	assert_string_equal(ev[5].created->jid, GROUP);
	assert_int_equal(ev[5].created->n_participants, 3);
	arena_release(&a);
}

static void
test_wa_group_notification_parse__reads_add_promote_leave_description(
    void **state)
{
	const char		*tags[] = { "add", "promote", "demote",
				    "leave", "modify" };
	enum wa_group_ev_kind	 kinds[] = { WA_GROUP_EV_ADD,
				    WA_GROUP_EV_PROMOTE, WA_GROUP_EV_DEMOTE,
				    WA_GROUP_EV_LEAVE, WA_GROUP_EV_MODIFY };
	struct arena		 a;
	struct wa_node		*n, *k, *c, *d;
	struct wa_group_event	*ev;
	size_t			 cnt, i;

	(void)state;
	arena_init(&a, 0);
	n = gp2(&a, 7, &k);
	for (i = 0; i < 5; i++) {
		c = wa_nb_kid(&a, &k[i], tags[i], 0);
		assert_int_equal(wa_nb_attr_jid(wa_nb_kid(&a, wa_nb_kids(&a,
		    c, 1), "participant", 2), "jid", "444000111@lid"), 0);
	}
	d = wa_nb_kid(&a, &k[5], "description", 1);
	wa_nb_attr(d, "id", "D2");
	wa_nb_bytes(wa_nb_kid(&a, wa_nb_kids(&a, d, 1), "body", 0), "New", 3);
	d = wa_nb_kid(&a, &k[6], "description", 1);
	wa_nb_attr(d, "id", "D3");
	wa_nb_kid(&a, wa_nb_kids(&a, d, 1), "delete", 0);
	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, NULL),
	    0);
	assert_int_equal(cnt, 7);
	for (i = 0; i < 5; i++) {
		assert_int_equal(ev[i].kind, kinds[i]);
		assert_int_equal(ev[i].n_participants, 1);
		assert_string_equal(ev[i].participants[0].jid,
		    "444000111@lid");
	}
	assert_int_equal(ev[5].kind, WA_GROUP_EV_DESCRIPTION);
	assert_string_equal(ev[5].description, "New");
	assert_string_equal(ev[5].description_id, "D2");
	assert_int_equal(ev[6].kind, WA_GROUP_EV_DESCRIPTION);
	assert_null(ev[6].description);
	assert_string_equal(ev[6].description_id, "D3");
	arena_release(&a);
}

static void
test_wa_group_notification_parse__fails__on_malformed(void **state)
{
	struct arena		 a;
	struct wa_node		*n, *k, *c;
	struct wa_group_event	*ev = NULL;
	size_t			 cnt = 77, i;
	const char		*why;

	(void)state;
	arena_init(&a, 0);
	/* Not w:gp2. */
	n = mk(&a, "notification", 2);
	wa_nb_attr(n, "type", "devices");
	wa_nb_attr(n, "from", GROUP);
	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, NULL),
	    -EINVAL);
	assert_int_equal(wa_group_notification_parse(NULL, &a, &ev, &cnt,
	    NULL), -EINVAL);
	/* No from. */
	n = mk(&a, "notification", 2);
	wa_nb_attr(n, "type", "w:gp2");
	wa_nb_attr(n, "id", "N");
	why = NULL;
	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, &why),
	    WC_EPROTO);
	assert_non_null(why);
	/* A participant without jid. */
	n = gp2(&a, 1, &k);
	c = wa_nb_kid(&a, &k[0], "add", 0);
	wa_nb_kid(&a, wa_nb_kids(&a, c, 1), "participant", 0);
	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, NULL),
	    WC_EPROTO);
	/* A <create> without a <group>. */
	n = gp2(&a, 1, &k);
	wa_nb_kid(&a, &k[0], "create", 0);
	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, NULL),
	    WC_EPROTO);
	/* A non-numeric expiration. */
	n = gp2(&a, 1, &k);
	wa_nb_attr(wa_nb_kid(&a, &k[0], "ephemeral", 1), "expiration", "-1");
	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, NULL),
	    WC_EPROTO);
	/* Too many children. */
	n = gp2(&a, WA_GROUP_MAX_EVENTS + 1, &k);
	for (i = 0; i <= WA_GROUP_MAX_EVENTS; i++)
		wa_nb_kid(&a, &k[i], "locked", 0);
	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, NULL),
	    WC_EPROTO);
	/* Outputs untouched. */
	assert_null(ev);
	assert_int_equal(cnt, 77);
	/* No children: no events, not an error. */
	n = gp2(&a, 0, NULL);
	assert_int_equal(wa_group_notification_parse(n, &a, &ev, &cnt, NULL),
	    0);
	assert_int_equal(cnt, 0);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_group_phash__matches_the_doc_vectors),
		cmocka_unit_test(test_wa_group_phash__equals_openssl_over_sorted_ad_strings),
		cmocka_unit_test(test_wa_group_phash__fails__on_bad_jids),
		cmocka_unit_test(test_wa_group_stanza__lists_skdm_copies_skmsg_and_identity),
		cmocka_unit_test(test_wa_group_stanza__sends_only_skmsg_when_all_have_the_key),
		cmocka_unit_test(test_wa_group_stanza__fails__on_bad_input),
		cmocka_unit_test(test_wa_group_message_skdm__carries_group_and_skdm_only),
		cmocka_unit_test(test_wa_group_message_add_skdm__keeps_text_and_adds_skdm),
		cmocka_unit_test(test_wa_group_info_query__asks_interactive_query),
		cmocka_unit_test(test_wa_group_participating_query__asks_participants_and_description),
		cmocka_unit_test(test_wa_group_create__lists_participants_and_strips_3eb0),
		cmocka_unit_test(test_wa_group_set_subject__sends_subject_as_content),
		cmocka_unit_test(test_wa_group_participants_change__uses_the_action_tag),
		cmocka_unit_test(test_wa_group_leave__names_the_group_by_id),
		cmocka_unit_test(test_wa_group_info_parse__reads_metadata_and_participants),
		cmocka_unit_test(test_wa_group_info_parse__fails__on_malformed_groups),
		cmocka_unit_test(test_wa_group_iq_parse__reads_one_group_lists_and_errors),
		cmocka_unit_test(test_wa_group_notification_parse__reads_each_change),
		cmocka_unit_test(test_wa_group_notification_parse__reads_add_promote_leave_description),
		cmocka_unit_test(test_wa_group_notification_parse__fails__on_malformed),
	};

	if (wa_crypto_init() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
