/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-history.c -- history sync's protocol layer
 * (proto/media.c, proto/history.c): the media scheme against a reference
 * written here on OpenSSL's own HKDF, HMAC and AES (not libsodium, which
 * proto/media.c uses), each decryption check failing on its own, the
 * HistorySync round trip build -> deflate -> encrypt -> decrypt -> inflate
 * -> parse with text in several scripts and emoji, the inflate cap, deep
 * nesting, truncation, the notification and the on-demand request (the
 * latter walked tag by tag on the wire).  JIDs and numbers are made up.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/kdf.h>
#include <openssl/sha.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/crypto.h"
#include "base/err.h"
#include "proto/history.h"
#include "proto/media.h"
#include "proto/msg.h"

/* ------------------------------------------------------------------ */
/* an independent media scheme (protocol.md 14.1) on OpenSSL */

static void
ref_expand(const uint8_t key[32], const char *info, uint8_t out[112])
{
	EVP_PKEY_CTX	*c = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, NULL);
	size_t		 n = 112;

	assert_non_null(c);
	assert_int_equal(EVP_PKEY_derive_init(c), 1);
	assert_int_equal(EVP_PKEY_CTX_set_hkdf_md(c, EVP_sha256()), 1);
	assert_int_equal(EVP_PKEY_CTX_set1_hkdf_key(c, key, 32), 1);
	assert_int_equal(EVP_PKEY_CTX_add1_hkdf_info(c,
	    (const unsigned char *)info, (int)strlen(info)), 1);
	assert_int_equal(EVP_PKEY_derive(c, out, &n), 1);
	assert_int_equal(n, 112);
	EVP_PKEY_CTX_free(c);
}

/*
 * enc ‖ mac10 of p[0..len) padded as given: pad_byte < 0 is PKCS#7, else
 * len must be a multiple of 16 and no padding is added (for a bad pad).
 */
static void
ref_encrypt(const uint8_t key[32], const char *info, const uint8_t *p,
    size_t len, bool pkcs7, struct buf *out)
{
	uint8_t		 x[112], mac[32];
	unsigned	 mac_len = 32;
	EVP_CIPHER_CTX	*c = EVP_CIPHER_CTX_new();
	int		 n, m;
	HMAC_CTX	*h;

	ref_expand(key, info, x);
	buf_reserve(out, len + 16 + 10);
	assert_int_equal(EVP_EncryptInit_ex(c, EVP_aes_256_cbc(), NULL, x + 16,
	    x), 1);
	EVP_CIPHER_CTX_set_padding(c, pkcs7 ? 1 : 0);
	assert_int_equal(EVP_EncryptUpdate(c, out->p, &n, p, (int)len), 1);
	assert_int_equal(EVP_EncryptFinal_ex(c, out->p + n, &m), 1);
	EVP_CIPHER_CTX_free(c);
	out->len = (size_t)(n + m);
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
	h = HMAC_CTX_new();
	HMAC_Init_ex(h, x + 48, 32, EVP_sha256(), NULL);
	HMAC_Update(h, x, 16);
	HMAC_Update(h, out->p, out->len);
	HMAC_Final(h, mac, &mac_len);
	HMAC_CTX_free(h);
#pragma GCC diagnostic pop
	buf_append(out, mac, 10);
}

static void
fill(uint8_t *p, size_t len, uint32_t seed)
{
	size_t	 i;

	for (i = 0; i < len; i++) {
		seed = seed * 1103515245u + 12345u;
		p[i] = (uint8_t)(seed >> 16);
	}
}

static const uint8_t *
media_key(void)
{
	static uint8_t	 k[32];

	fill(k, sizeof(k), 7);
	return k;
}

/* ------------------------------------------------------------------ */
/* media */

static void
test_wa_media_keys__match__openssl_hkdf(void **state)
{
	struct wa_media_keys	 k;
	uint8_t			 x[112];

	(void)state;
	assert_int_equal(wa_media_keys(media_key(), WA_MEDIA_INFO_HISTORY, &k),
	    0);
	ref_expand(media_key(), "WhatsApp History Keys", x);
	assert_memory_equal(k.iv, x, 16);
	assert_memory_equal(k.cipher_key, x + 16, 32);
	assert_memory_equal(k.mac_key, x + 48, 32);
	assert_memory_equal(k.ref_key, x + 80, 32);
	/* Another info string, other keys. */
	assert_int_equal(wa_media_keys(media_key(), WA_MEDIA_INFO_IMAGE, &k), 0);
	assert_memory_not_equal(k.iv, x, 16);
	assert_int_equal(wa_media_keys(media_key(), NULL, &k), -EINVAL);
}

static void
test_wa_media_encrypt__matches__openssl_reference_at_each_size(void **state)
{
	static const size_t	 sizes[] = { 0, 1, 15, 16, 17, 31, 32, 1000,
	    65537 };
	uint8_t			*p = malloc(65537), h_enc[32], h_plain[32];
	uint8_t			 want[32];
	size_t			 i;

	(void)state;
	fill(p, 65537, 99);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct buf	 ours = BUF_INIT, ref = BUF_INIT, back = BUF_INIT;
		const char	*why = NULL;

		assert_int_equal(wa_media_encrypt(media_key(),
		    WA_MEDIA_INFO_HISTORY, p, sizes[i], &ours, h_enc, h_plain),
		    0);
		ref_encrypt(media_key(), WA_MEDIA_INFO_HISTORY, p, sizes[i],
		    true, &ref);
		assert_int_equal(ours.len, sizes[i] / 16 * 16 + 16 + 10);
		assert_int_equal(ours.len, ref.len);
		assert_memory_equal(ours.p, ref.p, ref.len);
		SHA256(ref.p, ref.len, want);
		assert_memory_equal(h_enc, want, 32);
		SHA256(p, sizes[i], want);
		assert_memory_equal(h_plain, want, 32);
		/* And back, with both hashes checked. */
		buf_append(&back, "x", 1);
		assert_int_equal(wa_media_decrypt(media_key(),
		    WA_MEDIA_INFO_HISTORY, ref.p, ref.len, h_enc, h_plain,
		    sizes[i], &back, &why), 0);
		assert_int_equal(back.len, 1 + sizes[i]);
		assert_int_equal(back.p[0], 'x');
		if (sizes[i] > 0)
			assert_memory_equal(back.p + 1, p, sizes[i]);
		buf_release(&ours);
		buf_release(&ref);
		buf_release(&back);
	}
	free(p);
}

/* Decrypt blob expecting rc; out must keep its length. */
static void
decrypt_fails(const uint8_t *blob, size_t len, const uint8_t *enc_hash,
    const uint8_t *plain_hash, size_t max, int rc)
{
	struct buf	 out = BUF_INIT;
	const char	*why = NULL;

	buf_append(&out, "keep", 4);
	assert_int_equal(wa_media_decrypt(media_key(), WA_MEDIA_INFO_HISTORY,
	    blob, len, enc_hash, plain_hash, max, &out, &why), rc);
	assert_int_equal(out.len, 4);
	assert_memory_equal(out.p, "keep", 4);
	assert_non_null(why);
	buf_release(&out);
}

static void
test_wa_media_decrypt__fails__on_each_check(void **state)
{
	static const char	 text[] = "history blob plaintext, 40 bytes..";
	struct buf		 b = BUF_INIT, pad = BUF_INIT;
	uint8_t			 h_enc[32], h_plain[32], bad[32];
	uint8_t			 block[32];

	(void)state;
	assert_int_equal(wa_media_encrypt(media_key(), WA_MEDIA_INFO_HISTORY,
	    (const uint8_t *)text, sizeof(text), &b, h_enc, h_plain), 0);
	/* The encrypted hash: checked before the MAC. */
	memcpy(bad, h_enc, 32);
	bad[31] ^= 1;
	decrypt_fails(b.p, b.len, bad, h_plain, 1024, WA_MEDIA_EENCHASH);
	/* The MAC: a flipped MAC byte, a flipped ciphertext byte. */
	b.p[b.len - 1] ^= 0x80;
	decrypt_fails(b.p, b.len, NULL, h_plain, 1024, WC_EBADMAC);
	b.p[b.len - 1] ^= 0x80;
	b.p[3] ^= 0x01;
	decrypt_fails(b.p, b.len, NULL, h_plain, 1024, WC_EBADMAC);
	b.p[3] ^= 0x01;
	/* The wrong key (another info string). */
	{
		struct buf	 o = BUF_INIT;

		assert_int_equal(wa_media_decrypt(media_key(),
		    WA_MEDIA_INFO_APP_STATE, b.p, b.len, NULL, NULL, 1024, &o,
		    NULL), WC_EBADMAC);
		buf_release(&o);
	}
	/* The plaintext hash. */
	memcpy(bad, h_plain, 32);
	bad[0] ^= 1;
	decrypt_fails(b.p, b.len, h_enc, bad, 1024, WA_MEDIA_EFILEHASH);
	/* Shape and cap. */
	decrypt_fails(b.p, b.len - 1, NULL, NULL, 1024, WC_ETRUNC);
	decrypt_fails(b.p, 25, NULL, NULL, 1024, WC_ETRUNC);
	decrypt_fails(b.p, b.len, NULL, NULL, 16, WC_ETOOBIG);
	/* One byte under the plaintext: refused after unpadding. */
	decrypt_fails(b.p, b.len, NULL, NULL, sizeof(text) - 1, WC_ETOOBIG);
	/* The padding: a correctly MACed blob whose last byte is 0, then
	 * one whose last byte is 17, then 3 with a wrong byte before it. */
	memset(block, 'a', sizeof(block));
	block[31] = 0;
	ref_encrypt(media_key(), WA_MEDIA_INFO_HISTORY, block, 32, false,
	    &pad);
	decrypt_fails(pad.p, pad.len, NULL, NULL, 1024, WA_MEDIA_EPADDING);
	pad.len = 0;
	block[31] = 17;
	ref_encrypt(media_key(), WA_MEDIA_INFO_HISTORY, block, 32, false,
	    &pad);
	decrypt_fails(pad.p, pad.len, NULL, NULL, 1024, WA_MEDIA_EPADDING);
	pad.len = 0;
	block[31] = 3;
	block[30] = 3;
	block[29] = 2;
	ref_encrypt(media_key(), WA_MEDIA_INFO_HISTORY, block, 32, false,
	    &pad);
	decrypt_fails(pad.p, pad.len, NULL, NULL, 1024, WA_MEDIA_EPADDING);
	/* ... and 3 3 3 is a good pad. */
	pad.len = 0;
	block[29] = 3;
	ref_encrypt(media_key(), WA_MEDIA_INFO_HISTORY, block, 32, false,
	    &pad);
	{
		struct buf	 o = BUF_INIT;

		assert_int_equal(wa_media_decrypt(media_key(),
		    WA_MEDIA_INFO_HISTORY, pad.p, pad.len, NULL, NULL, 1024, &o,
		    NULL), 0);
		assert_int_equal(o.len, 29);
		buf_release(&o);
	}
	buf_release(&pad);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* a history chunk to round-trip */

#define PEER	"15550001111@s.whatsapp.net"
#define PEER_LID "100000000001111@lid"
#define GROUP	"120363000000000009@g.us"
#define OWN	"15550009999@s.whatsapp.net"

static const char *const texts[] = {
	"Hello, see you at 8?",
	"مرحبا، كيف حالك؟",			/* Arabic */
	"नमस्ते, आप कैसे हैं?",			/* Hindi */
	"你好，明天见 🙂",			/* Chinese, emoji */
	"こんにちは 👋🏽 family: 👨‍👩‍👧‍👦",	/* Japanese, ZWJ */
	"Привет! Как дела?",			/* Russian */
};
#define N_TEXTS	(sizeof(texts) / sizeof(texts[0]))

struct fixture {
	struct buf		 e2e[N_TEXTS];
	struct wa_hist_msg	 m1[N_TEXTS];
	struct wa_hist_msg	 m2[2];
	struct wa_hist_participant parts[3];
	struct wa_hist_conv	 convs[2];
	struct wa_hist_pushname	 names[2];
	struct wa_hist_lid_map	 maps[1];
	struct wa_hist		 h;
};

static const char *const stub_params[] = { "15550002222", "👍" };

static void
fixture_init(struct fixture *f)
{
	size_t	 i;

	memset(f, 0, sizeof(*f));
	for (i = 0; i < N_TEXTS; i++) {
		struct wa_msg_text	 t = { .text = texts[i] };
		char			 id[32];
		struct wa_hist_msg	*m = &f->m1[i];

		assert_int_equal(wa_msg_build_text(&t, &f->e2e[i]), 0);
		snprintf(id, sizeof(id), "3EB0%018zu", i);
		m->remote_jid = PEER;
		m->from_me = i % 2 == 0;
		m->id = strdup(id);
		m->message = f->e2e[i].p;
		m->message_len = f->e2e[i].len;
		m->ts_s = 1700000000 + i * 60;
		m->status = (int32_t)(i % 6);
		m->push_name = i % 2 == 0 ? NULL : "Zoë 🌸";
		m->msg_order_id = i + 1;
	}
	f->m1[1].starred = true;
	/* A group: a text with a participant, and a system message. */
	f->m2[0] = f->m1[3];
	f->m2[0].remote_jid = GROUP;
	f->m2[0].from_me = false;
	f->m2[0].id = "3EB0GROUP0000000001";
	f->m2[0].key_participant = "15550002222@s.whatsapp.net";
	f->m2[0].participant = "15550002222@s.whatsapp.net";
	f->m2[0].push_name = "Ана";
	f->m2[1].remote_jid = GROUP;
	f->m2[1].id = "3EB0GROUP0000000002";
	f->m2[1].ts_s = 1700001000;
	f->m2[1].status = -1;
	f->m2[1].stub_type = 27;	/* GROUP_PARTICIPANT_ADD */
	f->m2[1].stub_params = stub_params;
	f->m2[1].n_stub_params = 2;
	f->parts[0].jid = OWN;
	f->parts[0].rank = 2;
	f->parts[1].jid = "15550002222@s.whatsapp.net";
	f->parts[1].rank = 1;
	f->parts[2].jid = "100000000003333@lid";
	f->convs[0].id = PEER;
	f->convs[0].name = "Zoë";
	f->convs[0].display_name = "Zoë Müller 🌸";
	f->convs[0].pn_jid = PEER;
	f->convs[0].lid_jid = PEER_LID;
	f->convs[0].last_msg_ts_s = 1700000300;
	f->convs[0].conversation_ts_s = 1700000301;
	f->convs[0].unread_count = 3;
	f->convs[0].pinned = 1;
	f->convs[0].mute_end_s = 1800000000;
	f->convs[0].msgs = f->m1;
	f->convs[0].n_msgs = N_TEXTS;
	f->convs[0].tc_token = (const uint8_t *)"\x01\x02\x03";
	f->convs[0].tc_token_len = 3;
	f->convs[0].tc_token_ts_s = 1690000000;
	f->convs[1].id = GROUP;
	f->convs[1].name = "家族 👨‍👩‍👧";
	f->convs[1].archived = true;
	f->convs[1].marked_as_unread = true;
	f->convs[1].ephemeral_s = 604800;
	f->convs[1].msgs = f->m2;
	f->convs[1].n_msgs = 2;
	f->convs[1].participants = f->parts;
	f->convs[1].n_participants = 3;
	f->names[0].jid = PEER;
	f->names[0].name = "Zoë 🌸";
	f->names[1].jid = "15550002222@s.whatsapp.net";
	f->names[1].name = "Ана";
	f->maps[0].pn_jid = PEER;
	f->maps[0].lid_jid = PEER_LID;
	f->h.sync_type = WA_HIST_RECENT;
	f->h.chunk_order = 2;
	f->h.progress = 40;
	f->h.convs = f->convs;
	f->h.n_convs = 2;
	f->h.n_msgs = N_TEXTS + 2;
	f->h.pushnames = f->names;
	f->h.n_pushnames = 2;
	f->h.lid_maps = f->maps;
	f->h.n_lid_maps = 1;
}

static void
fixture_release(struct fixture *f)
{
	size_t	 i;

	for (i = 0; i < N_TEXTS; i++) {
		free((char *)(uintptr_t)f->m1[i].id);
		buf_release(&f->e2e[i]);
	}
}

static void
assert_str(const char *got, const char *want)
{
	if (want == NULL)
		assert_null(got);
	else
		assert_string_equal(got, want);
}

static void
assert_msg_equal(const struct wa_hist_msg *g, const struct wa_hist_msg *w)
{
	size_t	 i;

	assert_str(g->remote_jid, w->remote_jid);
	assert_int_equal(g->from_me, w->from_me);
	assert_str(g->id, w->id);
	assert_str(g->key_participant, w->key_participant);
	assert_int_equal(g->message_len, w->message_len);
	if (w->message != NULL)
		assert_memory_equal(g->message, w->message, w->message_len);
	else
		assert_null(g->message);
	assert_int_equal(g->message_err, 0);
	assert_int_equal(g->ts_s, w->ts_s);
	assert_int_equal(g->status, w->status);
	assert_str(g->participant, w->participant);
	assert_str(g->push_name, w->push_name);
	assert_int_equal(g->stub_type, w->stub_type);
	assert_int_equal(g->n_stub_params, w->n_stub_params);
	for (i = 0; i < w->n_stub_params; i++)
		assert_string_equal(g->stub_params[i], w->stub_params[i]);
	assert_int_equal(g->starred, w->starred);
	assert_int_equal(g->msg_order_id, w->msg_order_id);
}

static void
assert_hist_equal(const struct wa_hist *g, const struct wa_hist *w)
{
	size_t	 i, j;

	assert_int_equal(g->sync_type, w->sync_type);
	assert_int_equal(g->chunk_order, w->chunk_order);
	assert_int_equal(g->progress, w->progress);
	assert_int_equal(g->n_convs, w->n_convs);
	assert_int_equal(g->n_msgs, w->n_msgs);
	assert_int_equal(g->n_bad_msgs, 0);
	for (i = 0; i < w->n_convs; i++) {
		const struct wa_hist_conv	*gc = &g->convs[i], *wc = &w->convs[i];

		assert_str(gc->id, wc->id);
		assert_str(gc->name, wc->name);
		assert_str(gc->display_name, wc->display_name);
		assert_str(gc->pn_jid, wc->pn_jid);
		assert_str(gc->lid_jid, wc->lid_jid);
		assert_int_equal(gc->last_msg_ts_s, wc->last_msg_ts_s);
		assert_int_equal(gc->conversation_ts_s, wc->conversation_ts_s);
		assert_int_equal(gc->unread_count, wc->unread_count);
		assert_int_equal(gc->archived, wc->archived);
		assert_int_equal(gc->marked_as_unread, wc->marked_as_unread);
		assert_int_equal(gc->pinned, wc->pinned);
		assert_int_equal(gc->mute_end_s, wc->mute_end_s);
		assert_int_equal(gc->ephemeral_s, wc->ephemeral_s);
		assert_int_equal(gc->tc_token_len, wc->tc_token_len);
		if (wc->tc_token_len > 0)
			assert_memory_equal(gc->tc_token, wc->tc_token,
			    wc->tc_token_len);
		assert_int_equal(gc->tc_token_ts_s, wc->tc_token_ts_s);
		assert_int_equal(gc->n_msgs, wc->n_msgs);
		for (j = 0; j < wc->n_msgs; j++)
			assert_msg_equal(&gc->msgs[j], &wc->msgs[j]);
		assert_int_equal(gc->n_participants, wc->n_participants);
		for (j = 0; j < wc->n_participants; j++) {
			assert_string_equal(gc->participants[j].jid,
			    wc->participants[j].jid);
			assert_int_equal(gc->participants[j].rank,
			    wc->participants[j].rank);
		}
	}
	assert_int_equal(g->n_pushnames, w->n_pushnames);
	for (i = 0; i < w->n_pushnames; i++) {
		assert_str(g->pushnames[i].jid, w->pushnames[i].jid);
		assert_str(g->pushnames[i].name, w->pushnames[i].name);
	}
	assert_int_equal(g->n_lid_maps, w->n_lid_maps);
	for (i = 0; i < w->n_lid_maps; i++) {
		assert_str(g->lid_maps[i].pn_jid, w->lid_maps[i].pn_jid);
		assert_str(g->lid_maps[i].lid_jid, w->lid_maps[i].lid_jid);
	}
}

static void
test_wa_hist__round_trips__through_deflate_and_media_encryption(void **state)
{
	struct fixture		 f;
	struct buf		 pb = BUF_INIT, z = BUF_INIT, enc = BUF_INIT;
	struct buf		 dec = BUF_INIT, inf = BUF_INIT;
	uint8_t			 h_enc[32], h_plain[32];
	struct arena		 a;
	struct wa_hist		*h = NULL;
	const char		*why = NULL;
	size_t			 i;

	(void)state;
	fixture_init(&f);
	arena_init(&a, 0);
	assert_int_equal(wa_hist_build(&f.h, &pb), 0);
	assert_int_equal(wa_hist_deflate(pb.p, pb.len, 6, &z), 0);
	assert_true(z.len > 2 && z.p[0] == 0x78);	/* RFC 1950 CMF */
	assert_int_equal(wa_media_encrypt(media_key(), WA_MEDIA_INFO_HISTORY,
	    z.p, z.len, &enc, h_enc, h_plain), 0);
	assert_int_equal(wa_media_decrypt(media_key(), WA_MEDIA_INFO_HISTORY,
	    enc.p, enc.len, h_enc, h_plain, WA_HIST_MAX_INFLATED, &dec, &why),
	    0);
	assert_int_equal(wa_hist_inflate(dec.p, dec.len, 0, &a, &inf, &why),
	    0);
	assert_int_equal(inf.len, pb.len);
	assert_memory_equal(inf.p, pb.p, pb.len);
	assert_int_equal(wa_hist_parse(inf.p, inf.len, &a, &h, &why), 0);
	assert_non_null(h);
	assert_hist_equal(h, &f.h);
	/* The message bytes are the E2E Message wa_msg_parse() reads. */
	for (i = 0; i < N_TEXTS; i++) {
		struct wa_msg_content	 c;

		assert_int_equal(wa_msg_parse(h->convs[0].msgs[i].message,
		    h->convs[0].msgs[i].message_len, &c), 0);
		assert_int_equal(c.kind, WA_MSG_TEXT);
		assert_string_equal(c.text, texts[i]);
		wa_msg_content_release(&c);
	}
	/* The parse does not need the inflated bytes afterwards. */
	memset(inf.p, 0, inf.len);
	assert_string_equal(h->convs[1].name, "家族 👨‍👩‍👧");
	assert_string_equal(h->convs[0].msgs[4].id, "3EB0000000000000000004");
	buf_release(&pb);
	buf_release(&z);
	buf_release(&enc);
	buf_release(&dec);
	buf_release(&inf);
	arena_release(&a);
	fixture_release(&f);
}

static void
test_wa_hist_parse__skips__entries_without_ids(void **state)
{
	struct wa_hist_msg	 m[2] = { { .id = NULL, .status = -1 },
	    { .id = "3EB0AA", .status = -1 } };
	struct wa_hist_conv	 c[2] = { { .id = NULL }, { .id = PEER,
	    .msgs = m, .n_msgs = 2 } };
	struct wa_hist_pushname	 pn = { .jid = NULL, .name = "x" };
	struct wa_hist		 in = { .sync_type = -1, .convs = c,
	    .n_convs = 2, .pushnames = &pn, .n_pushnames = 1 };
	struct buf		 b = BUF_INIT;
	struct arena		 a;
	struct wa_hist		*h = NULL;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_hist_build(&in, &b), 0);
	assert_int_equal(wa_hist_parse(b.p, b.len, &a, &h, NULL), 0);
	assert_int_equal(h->sync_type, -1);
	assert_int_equal(h->n_convs, 1);
	assert_string_equal(h->convs[0].id, PEER);
	assert_int_equal(h->convs[0].n_msgs, 1);
	assert_int_equal(h->n_msgs, 1);
	assert_string_equal(h->convs[0].msgs[0].id, "3EB0AA");
	assert_null(h->convs[0].msgs[0].message);
	assert_int_equal(h->n_pushnames, 0);
	buf_release(&b);
	arena_release(&a);
}

/* ------------------------------------------------------------------ */
/* hostile blobs */

static void
test_wa_hist_inflate__fails__above_the_cap_before_allocating_more(void **state)
{
	size_t		 big = 8u << 20;
	uint8_t		*zeros = calloc(1, big);
	struct buf	 z = BUF_INIT, out = BUF_INIT;
	const char	*why = NULL;
	struct arena	 a;

	(void)state;
	arena_init(&a, 0);
	assert_int_equal(wa_hist_deflate(zeros, big, 9, &z), 0);
	assert_true(z.len < 16384);		/* a 500x bomb */
	assert_int_equal(wa_hist_inflate(z.p, z.len, 1u << 20, &a, &out,
	    &why), WC_ETOOBIG);
	assert_non_null(why);
	assert_non_null(strstr(why, "cap"));
	assert_int_equal(out.len, 0);
	assert_true(out.cap <= 2u << 20);	/* max + 1, rounded up by buf */
	/* Exactly at the cap is fine; one byte less is not. */
	assert_int_equal(wa_hist_inflate(z.p, z.len, big, &a, &out, &why), 0);
	assert_int_equal(out.len, big);
	assert_memory_equal(out.p, zeros, big);
	out.len = 0;
	assert_int_equal(wa_hist_inflate(z.p, z.len, big - 1, NULL, &out,
	    &why), WC_ETOOBIG);
	assert_int_equal(out.len, 0);
	buf_release(&z);
	buf_release(&out);
	arena_release(&a);
	free(zeros);
}

static void
test_wa_hist_inflate__fails__on_truncated_and_corrupt_streams(void **state)
{
	struct fixture	 f;
	struct buf	 pb = BUF_INIT, z = BUF_INIT, out = BUF_INIT;
	const char	*why = NULL;
	struct arena	 a;
	struct wa_hist	*h = NULL;

	(void)state;
	fixture_init(&f);
	arena_init(&a, 0);
	assert_int_equal(wa_hist_build(&f.h, &pb), 0);
	assert_int_equal(wa_hist_deflate(pb.p, pb.len, 6, &z), 0);
	assert_int_equal(wa_hist_inflate(z.p, z.len / 2, 0, &a, &out, &why),
	    WC_ETRUNC);
	assert_int_equal(out.len, 0);
	/* Everything but the Adler-32 trailer. */
	assert_int_equal(wa_hist_inflate(z.p, z.len - 4, 0, &a, &out, &why),
	    WC_ETRUNC);
	/* A wrong checksum. */
	z.p[z.len - 1] ^= 1;
	assert_int_equal(wa_hist_inflate(z.p, z.len, 0, &a, &out, &why),
	    WC_EINFLATE);
	assert_non_null(why);
	/* Not zlib at all (the raw protobuf). */
	assert_int_equal(wa_hist_inflate(pb.p, pb.len, 0, &a, &out, &why),
	    WC_EINFLATE);
	assert_int_equal(wa_hist_inflate(pb.p, 0, 0, &a, &out, &why),
	    WC_ETRUNC);
	assert_int_equal(out.len, 0);
	/* A truncated protobuf: cut inside the last conversation. */
	assert_int_equal(wa_hist_parse(pb.p, pb.len - 7, &a, &h, &why),
	    WC_ETRUNC);
	assert_null(h);
	buf_release(&pb);
	buf_release(&z);
	buf_release(&out);
	arena_release(&a);
	fixture_release(&f);
}

/* Append a varint. */
static void
put_varint(struct buf *b, uint64_t v)
{
	while (v >= 0x80) {
		buf_push(b, (uint8_t)(v | 0x80));
		v >>= 7;
	}
	buf_push(b, (uint8_t)v);
}

/* depth levels of field num (length-delimited) around inner. */
static void
nest(struct buf *b, uint32_t num, size_t depth, const uint8_t *inner,
    size_t inner_len)
{
	size_t	*lens = calloc(depth + 1, sizeof(*lens));
	size_t	 i, len = inner_len;
	struct buf tmp = BUF_INIT;

	/* Lengths from the inside out, then write from the outside in. */
	for (i = depth; i > 0; i--) {
		lens[i] = len;
		tmp.len = 0;
		put_varint(&tmp, len);
		len += 1 + tmp.len;
	}
	for (i = 1; i <= depth; i++) {
		put_varint(b, (uint64_t)num << 3 | 2);
		put_varint(b, lens[i]);
	}
	buf_append(b, inner, inner_len);
	buf_release(&tmp);
	free(lens);
}

static void
test_wa_hist_parse__fails__on_10000_deep_nesting(void **state)
{
	struct buf	 b = BUF_INIT;
	struct arena	 a;
	struct wa_hist	*h = NULL;
	const char	*why = NULL;
	int		 rc;

	(void)state;
	arena_init(&a, 0);
	/* HistorySync.conversations(2) -> Conversation.messages(2) ->
	 * HistorySyncMsg.msgOrderID(2), a varint given as bytes: the schema
	 * has no recursive message (history.proto), so the depth check
	 * descends 3 levels and protobuf-c refuses the wire type there,
	 * without recursing any deeper. */
	nest(&b, 2, 10000, (const uint8_t *)"", 0);
	rc = wa_hist_parse(b.p, b.len, &a, &h, &why);
	assert_int_equal(rc, WC_EPROTO);
	assert_null(h);
	/* The same through key(1) fields: 1 -> HistorySync.syncType (a
	 * varint given as bytes). */
	b.len = 0;
	nest(&b, 1, 10000, (const uint8_t *)"", 0);
	rc = wa_hist_parse(b.p, b.len, &a, &h, &why);
	assert_int_equal(rc, WC_EPROTO);
	assert_non_null(why);
	assert_null(h);
	buf_release(&b);
	arena_release(&a);
}

static void
test_wa_hist_parse__drops__a_message_nested_10000_deep(void **state)
{
	struct buf		 deep = BUF_INIT, ctx = BUF_INIT, b = BUF_INIT;
	struct wa_hist_msg	 m[2] = { { .id = "3EB0DEEP", .status = -1 },
	    { .id = "3EB0GOOD", .status = -1 } };
	struct wa_hist_conv	 c = { .id = PEER, .msgs = m, .n_msgs = 2 };
	struct wa_hist		 in = { .sync_type = WA_HIST_RECENT,
	    .convs = &c, .n_convs = 1 };
	struct wa_msg_text	 t = { .text = "fine" };
	struct buf		 good = BUF_INIT;
	struct arena		 a;
	struct wa_hist		*h = NULL;
	const char		*why = NULL;
	size_t			 i;

	(void)state;
	/* Message{extendedTextMessage(6){contextInfo(17){quotedMessage(3){
	 * extendedTextMessage(6){...}}}}} 5,000 times: 10,000 levels. */
	for (i = 0; i < 5000; i++) {
		struct buf	 x = BUF_INIT;

		put_varint(&x, 3 << 3 | 2);
		put_varint(&x, deep.len);
		buf_append(&x, deep.p, deep.len);
		ctx.len = 0;
		put_varint(&ctx, 17 << 3 | 2);
		put_varint(&ctx, x.len);
		buf_append(&ctx, x.p, x.len);
		deep.len = 0;
		put_varint(&deep, 6 << 3 | 2);
		put_varint(&deep, ctx.len);
		buf_append(&deep, ctx.p, ctx.len);
		buf_release(&x);
	}
	assert_int_equal(wa_msg_build_text(&t, &good), 0);
	m[0].message = deep.p;
	m[0].message_len = deep.len;
	m[1].message = good.p;
	m[1].message_len = good.len;
	arena_init(&a, 0);
	assert_int_equal(wa_hist_build(&in, &b), 0);
	assert_int_equal(wa_hist_parse(b.p, b.len, &a, &h, &why), 0);
	assert_int_equal(h->n_msgs, 2);
	assert_int_equal(h->n_bad_msgs, 1);
	assert_int_equal(h->convs[0].msgs[0].message_err, WC_EDEPTH);
	assert_null(h->convs[0].msgs[0].message);
	assert_int_equal(h->convs[0].msgs[1].message_err, 0);
	assert_int_equal(h->convs[0].msgs[1].message_len, good.len);
	buf_release(&deep);
	buf_release(&ctx);
	buf_release(&b);
	buf_release(&good);
	arena_release(&a);
}

static void
test_wa_hist_parse__fails__over_the_string_cap(void **state)
{
	char			*longname = malloc(WA_HIST_MAX_STR + 2);
	struct wa_hist_conv	 c = { .id = PEER };
	struct wa_hist		 in = { .sync_type = 0, .convs = &c,
	    .n_convs = 1 };
	struct buf		 b = BUF_INIT;
	struct arena		 a;
	struct wa_hist		*h = NULL;
	const char		*why = NULL;

	(void)state;
	memset(longname, 'n', WA_HIST_MAX_STR + 1);
	longname[WA_HIST_MAX_STR + 1] = '\0';
	c.name = longname;
	arena_init(&a, 0);
	assert_int_equal(wa_hist_build(&in, &b), 0);
	assert_int_equal(wa_hist_parse(b.p, b.len, &a, &h, &why), WC_ETOOBIG);
	assert_null(h);
	assert_non_null(why);
	longname[WA_HIST_MAX_STR] = '\0';	/* exactly the cap */
	b.len = 0;
	assert_int_equal(wa_hist_build(&in, &b), 0);
	assert_int_equal(wa_hist_parse(b.p, b.len, &a, &h, &why), 0);
	assert_int_equal(strlen(h->convs[0].name), WA_HIST_MAX_STR);
	buf_release(&b);
	arena_release(&a);
	free(longname);
}

/* ------------------------------------------------------------------ */
/* the notification and the on-demand request */

/* Read one field from p[*pos..len): its number, wire type and either its
 * varint or its bytes. */
static void
next_field(const uint8_t *p, size_t len, size_t *pos, uint32_t *num,
    unsigned *wt, uint64_t *v, const uint8_t **bytes)
{
	uint64_t	 key = 0, x = 0;
	unsigned	 sh = 0;

	assert_true(*pos < len);
	do {
		key |= (uint64_t)(p[*pos] & 0x7F) << sh;
		sh += 7;
	} while (p[(*pos)++] & 0x80);
	*num = (uint32_t)(key >> 3);
	*wt = (unsigned)(key & 7);
	assert_true(*wt == 0 || *wt == 2);
	sh = 0;
	do {
		x |= (uint64_t)(p[*pos] & 0x7F) << sh;
		sh += 7;
	} while (p[(*pos)++] & 0x80);
	*v = x;
	if (*wt == 2) {
		*bytes = p + *pos;
		*pos += (size_t)x;
		assert_true(*pos <= len);
	}
}

static void
test_wa_hist_on_demand_request__carries_12_4_fields_and_parses_back(void **state)
{
	struct wa_hist_od_req	 r = { .chat_jid = PEER,
	    .oldest_msg_id = "3EB0OLDEST", .oldest_from_me = true,
	    .count = 50, .oldest_ts_s = 1700000000 };
	struct wa_hist_od_req	 back = { 0 };
	struct buf		 b = BUF_INIT;
	struct arena		 a;
	const uint8_t		*pm, *pdo, *od;
	size_t			 pos = 0, pm_len, pdo_len = 0, od_len = 0;
	uint32_t		 num;
	unsigned		 wt;
	uint64_t		 v;
	int			 seen = 0;
	struct wa_msg_content	 c;

	(void)state;
	assert_int_equal(wa_hist_on_demand_request(&r, &b), 0);
	/* Message{12: ProtocolMessage} and nothing else. */
	next_field(b.p, b.len, &pos, &num, &wt, &v, &pm);
	assert_int_equal(num, 12);
	assert_int_equal(pos, b.len);
	pm_len = (size_t)v;
	for (pos = 0; pos < pm_len;) {
		next_field(pm, pm_len, &pos, &num, &wt, &v, &pdo);
		if (num == 2) {
			assert_int_equal(v, 16);
			seen |= 1;
		} else {
			assert_int_equal(num, 16);
			pdo_len = (size_t)v;
			seen |= 2;
		}
	}
	assert_int_equal(seen, 3);
	for (pos = 0; pos < pdo_len;) {
		next_field(pdo, pdo_len, &pos, &num, &wt, &v, &od);
		if (num == 1) {
			assert_int_equal(v, 3);	/* HISTORY_SYNC_ON_DEMAND */
			seen |= 4;
		} else {
			assert_int_equal(num, 4);
			od_len = (size_t)v;
			seen |= 8;
		}
	}
	assert_int_equal(seen, 15);
	for (pos = 0; pos < od_len;) {
		const uint8_t	*s;

		next_field(od, od_len, &pos, &num, &wt, &v, &s);
		switch (num) {
		case 1:
			assert_int_equal(v, strlen(PEER));
			assert_memory_equal(s, PEER, v);
			break;
		case 2:
			assert_memory_equal(s, "3EB0OLDEST", v);
			break;
		case 3:
			assert_int_equal(v, 1);
			break;
		case 4:
			assert_int_equal(v, 50);
			break;
		case 5:		/* seconds, despite the field's name */
			assert_int_equal(v, 1700000000);
			break;
		default:
			fail();
		}
		seen |= 16 << num;
	}
	assert_int_equal(seen, 15 | 32 | 64 | 128 | 256 | 512);
	/* wa_msg_parse() sees a protocolMessage of type 16. */
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_PROTOCOL);
	assert_int_equal(c.protocol_type, 16);
	wa_msg_content_release(&c);
	/* And back. */
	arena_init(&a, 0);
	assert_int_equal(wa_hist_on_demand_parse(b.p, b.len, &a, &back, NULL),
	    0);
	assert_string_equal(back.chat_jid, PEER);
	assert_string_equal(back.oldest_msg_id, "3EB0OLDEST");
	assert_true(back.oldest_from_me);
	assert_int_equal(back.count, 50);
	assert_int_equal(back.oldest_ts_s, 1700000000);
	/* Not a request: a notification, a text. */
	r.count = 0;
	assert_int_equal(wa_hist_on_demand_request(&r, &b), -EINVAL);
	b.len = 0;
	{
		struct wa_msg_text	 t = { .text = "hi" };

		assert_int_equal(wa_msg_build_text(&t, &b), 0);
	}
	memset(&back, 0, sizeof(back));
	assert_int_equal(wa_hist_on_demand_parse(b.p, b.len, &a, &back, NULL),
	    WC_EPROTO);
	assert_null(back.chat_jid);
	buf_release(&b);
	arena_release(&a);
}

static void
test_wa_hist_notification_parse__reads_12_1_fields(void **state)
{
	uint8_t			 fsha[32], fenc[32], key[32];
	struct wa_hist_notif	 n = { 0 }, back = { 0 };
	struct buf		 b = BUF_INIT;
	struct arena		 a;
	struct wa_msg_content	 c;
	const char		*why = NULL;

	(void)state;
	fill(fsha, 32, 1);
	fill(fenc, 32, 2);
	fill(key, 32, 3);
	n.file_sha256 = fsha;
	n.file_enc_sha256 = fenc;
	n.media_key = key;
	n.file_length = 123456;
	n.direct_path = "/v/t62.7119-24/12345_67890?ccb=11-4&oh=01_x&oe=6789";
	n.sync_type = WA_HIST_INITIAL_BOOTSTRAP;
	n.chunk_order = 1;
	n.progress = 17;
	n.oldest_msg_ts_s = 1690000000;
	n.original_msg_id = "3EB0ORIG";
	n.peer_data_request_session_id = "sess-1";
	arena_init(&a, 0);
	assert_int_equal(wa_hist_notification_build(&n, &b), 0);
	assert_int_equal(wa_msg_parse(b.p, b.len, &c), 0);
	assert_int_equal(c.kind, WA_MSG_PROTOCOL);
	assert_int_equal(c.protocol_type, 5);
	wa_msg_content_release(&c);
	assert_int_equal(wa_hist_notification_parse(b.p, b.len, &a, &back,
	    &why), 0);
	assert_memory_equal(back.file_sha256, fsha, 32);
	assert_memory_equal(back.file_enc_sha256, fenc, 32);
	assert_memory_equal(back.media_key, key, 32);
	assert_int_equal(back.file_length, 123456);
	assert_string_equal(back.direct_path, n.direct_path);
	assert_int_equal(back.sync_type, 0);
	assert_int_equal(back.chunk_order, 1);
	assert_int_equal(back.progress, 17);
	assert_int_equal(back.oldest_msg_ts_s, 1690000000);
	assert_string_equal(back.original_msg_id, "3EB0ORIG");
	assert_string_equal(back.peer_data_request_session_id, "sess-1");
	assert_null(back.inline_payload);
	assert_null(back.enc_handle);

	/* An inline bootstrap payload needs no download fields. */
	memset(&n, 0, sizeof(n));
	n.inline_payload = (const uint8_t *)"\x78\x9c\x03\x00\x00\x00\x00\x01";
	n.inline_payload_len = 8;
	n.sync_type = WA_HIST_INITIAL_BOOTSTRAP;
	b.len = 0;
	assert_int_equal(wa_hist_notification_build(&n, &b), 0);
	memset(&back, 0, sizeof(back));
	assert_int_equal(wa_hist_notification_parse(b.p, b.len, &a, &back,
	    &why), 0);
	assert_int_equal(back.inline_payload_len, 8);
	assert_memory_equal(back.inline_payload, n.inline_payload, 8);
	assert_null(back.direct_path);

	/* Neither: refused. */
	n.inline_payload = NULL;
	n.direct_path = "/v/x";
	n.media_key = key;
	b.len = 0;
	assert_int_equal(wa_hist_notification_build(&n, &b), 0);
	memset(&back, 0, sizeof(back));
	assert_int_equal(wa_hist_notification_parse(b.p, b.len, &a, &back,
	    &why), WC_EPROTO);
	assert_null(back.direct_path);
	assert_non_null(why);
	/* A hash that is not 32 bytes. */
	n.file_enc_sha256 = fenc;
	b.len = 0;
	assert_int_equal(wa_hist_notification_build(&n, &b), 0);
	assert_int_equal(wa_hist_notification_parse(b.p, b.len, &a, &back,
	    &why), 0);
	{
		/* The hash's length byte follows tag 4<<3|2 = 0x22. */
		uint8_t	*q = memchr(b.p, 0x22, b.len);

		while (q != NULL && q[1] != 32)
			q = memchr(q + 1, 0x22, b.len - (size_t)(q + 1 - b.p));
		assert_non_null(q);
		q[1] = 31;	/* now 31 bytes, and the next field is off */
		memset(&back, 0, sizeof(back));
		assert_int_not_equal(wa_hist_notification_parse(b.p, b.len,
		    &a, &back, &why), 0);
		assert_null(back.direct_path);
	}
	/* Not a notification: an on-demand request. */
	{
		struct wa_hist_od_req	 r = { .chat_jid = PEER,
		    .oldest_msg_id = "x", .count = 1 };

		b.len = 0;
		assert_int_equal(wa_hist_on_demand_request(&r, &b), 0);
		assert_int_equal(wa_hist_notification_parse(b.p, b.len, &a,
		    &back, &why), WC_EPROTO);
	}
	buf_release(&b);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_media_keys__match__openssl_hkdf),
		cmocka_unit_test(test_wa_media_encrypt__matches__openssl_reference_at_each_size),
		cmocka_unit_test(test_wa_media_decrypt__fails__on_each_check),
		cmocka_unit_test(test_wa_hist__round_trips__through_deflate_and_media_encryption),
		cmocka_unit_test(test_wa_hist_parse__skips__entries_without_ids),
		cmocka_unit_test(test_wa_hist_inflate__fails__above_the_cap_before_allocating_more),
		cmocka_unit_test(test_wa_hist_inflate__fails__on_truncated_and_corrupt_streams),
		cmocka_unit_test(test_wa_hist_parse__fails__on_10000_deep_nesting),
		cmocka_unit_test(test_wa_hist_parse__drops__a_message_nested_10000_deep),
		cmocka_unit_test(test_wa_hist_parse__fails__over_the_string_cap),
		cmocka_unit_test(test_wa_hist_on_demand_request__carries_12_4_fields_and_parses_back),
		cmocka_unit_test(test_wa_hist_notification_parse__reads_12_1_fields),
	};

	if (wa_crypto_init() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
