/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-stream.c -- the streaming media contexts
 * (proto/media-stream.c) against the one-shot scheme of proto/media.c
 * (libsodium's SHA-256 and HMAC there, OpenSSL's here): for each size
 * around the block size and each chunk size (1, 15, 16, 17, 4095, 64 KiB,
 * the whole), the stream encrypts to the one-shot's bytes and hashes and
 * decrypts the one-shot's blob to the plaintext; every check of the
 * decryption fails on its own with its own error (a byte flipped in the
 * ciphertext, in the MAC, a wrong declared length either way, each wrong
 * hash, a truncated or overlong blob, the caller's cap); and files past
 * the 256 KiB where the hashing moves to a second thread, the same bytes
 * and every error path with that thread joined.
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

#include "base/buf.h"
#include "base/err.h"
#include "proto/crypto.h"
#include "proto/media-stream.h"
#include "proto/media.h"

static const size_t	 sizes[] = { 0, 1, 15, 16, 17, 31, 32, 33, 4095,
	4096, 65536, 65537, 200003 };
static const size_t	 chunks[] = { 1, 15, 16, 17, 4095, 65536, SIZE_MAX };

#define NSIZES	(sizeof(sizes) / sizeof(sizes[0]))
#define NCHUNKS	(sizeof(chunks) / sizeof(chunks[0]))

static void
fill(uint8_t *p, size_t len, unsigned seed)
{
	size_t	 i;

	for (i = 0; i < len; i++)
		p[i] = (uint8_t)(i * 131 + seed * 17 + (i >> 9));
}

static void
key_of(uint8_t k[WA_MEDIA_KEY_LEN], unsigned seed)
{
	fill(k, WA_MEDIA_KEY_LEN, seed + 1000);
}

/* The one-shot encryption: blob and both hashes. */
struct ref {
	struct buf	 blob;
	uint8_t		 enc[32], sha[32];
};

static void
ref_encrypt(const uint8_t *key, const char *info, const uint8_t *p,
    size_t len, struct ref *r)
{
	memset(r, 0, sizeof(*r));
	assert_int_equal(wa_media_encrypt(key, info, p, len, &r->blob, r->enc,
	    r->sha), 0);
}

/* Stream-decrypt blob in pieces of chunk bytes into plain (cap bytes). */
static int
stream_decrypt(const uint8_t *key, const char *info, const uint8_t *blob,
    size_t len, size_t chunk, const uint8_t *enc, const uint8_t *sha,
    uint64_t file_len, uint64_t max_len, struct buf *plain,
    const char **why)
{
	struct wa_media_dec	*d;
	uint8_t			*out;
	size_t			 off = 0, step, n;
	int			 rc;

	if ((rc = wa_media_dec_new(key, info, enc, sha, file_len, max_len,
	    &d)) != 0)
		return rc;
	out = malloc((chunk < len ? chunk : len) + WA_MEDIA_STREAM_SLACK);
	assert_non_null(out);
	do {
		step = len - off < chunk ? len - off : chunk;
		if ((rc = wa_media_dec_update(d, blob + off, step, out,
		    step + WA_MEDIA_STREAM_SLACK, &n)) != 0)
			goto out;
		buf_append(plain, out, n);
		off += step;
	} while (off < len);
	if ((rc = wa_media_dec_finish(d, out, &n, why)) == 0) {
		buf_append(plain, out, n);
		assert_int_equal(wa_media_dec_plain_len(d), plain->len);
	}
out:
	free(out);
	wa_media_dec_free(d);
	return rc;
}

static void
test_wa_media_enc__gives__the_one_shot_blob_and_hashes_at_each_chunk_size(
    void **state)
{
	uint8_t				 key[32], tail[WA_MEDIA_ENC_TAIL];
	struct wa_media_enc_result	 r;
	struct wa_media_enc		*e;
	struct ref			 ref;
	struct buf			 got;
	uint8_t				*p, *out;
	size_t				 s, c, off, step, n;

	(void)state;
	for (s = 0; s < NSIZES; s++) {
		p = malloc(sizes[s] + 1);
		fill(p, sizes[s], (unsigned)s);
		key_of(key, (unsigned)s);
		ref_encrypt(key, WA_MEDIA_INFO_VIDEO, p, sizes[s], &ref);
		for (c = 0; c < NCHUNKS; c++) {
			memset(&got, 0, sizeof(got));
			assert_int_equal(wa_media_enc_new(key,
			    WA_MEDIA_INFO_VIDEO, &e), 0);
			out = malloc((chunks[c] < sizes[s] ? chunks[c] :
			    sizes[s]) + 16);
			off = 0;
			do {
				step = sizes[s] - off < chunks[c] ?
				    sizes[s] - off : chunks[c];
				assert_int_equal(wa_media_enc_update(e,
				    p + off, step, out, step + 16, &n), 0);
				buf_append(&got, out, n);
				off += step;
			} while (off < sizes[s]);
			assert_int_equal(wa_media_enc_finish(e, tail, &r), 0);
			buf_append(&got, tail, sizeof(tail));
			assert_int_equal(got.len, ref.blob.len);
			assert_memory_equal(got.p, ref.blob.p, got.len);
			assert_memory_equal(r.file_enc_sha256, ref.enc, 32);
			assert_memory_equal(r.file_sha256, ref.sha, 32);
			assert_int_equal(r.file_len, sizes[s]);
			assert_int_equal(r.blob_len, ref.blob.len);
			assert_int_equal(wa_media_blob_len(sizes[s]),
			    ref.blob.len);
			assert_int_equal(wa_media_enc_finish(e, tail, &r),
			    WC_ESTATE);
			wa_media_enc_free(e);
			free(out);
			buf_release(&got);
		}
		buf_release(&ref.blob);
		free(p);
	}
}

static void
test_wa_media_dec__gives__the_plaintext_at_each_size_and_chunk_size(
    void **state)
{
	uint8_t		 key[32];
	struct ref	 ref;
	struct buf	 got;
	uint8_t		*p;
	size_t		 s, c;
	const char	*why = NULL;

	(void)state;
	for (s = 0; s < NSIZES; s++) {
		p = malloc(sizes[s] + 1);
		fill(p, sizes[s], (unsigned)s + 7);
		key_of(key, (unsigned)s + 7);
		ref_encrypt(key, WA_MEDIA_INFO_DOCUMENT, p, sizes[s], &ref);
		for (c = 0; c < NCHUNKS; c++) {
			memset(&got, 0, sizeof(got));
			assert_int_equal(stream_decrypt(key,
			    WA_MEDIA_INFO_DOCUMENT, ref.blob.p, ref.blob.len,
			    chunks[c], ref.enc, ref.sha, sizes[s], sizes[s],
			    &got, &why), 0);
			assert_int_equal(got.len, sizes[s]);
			if (sizes[s] > 0)
				assert_memory_equal(got.p, p, sizes[s]);
			buf_release(&got);
			/* No hashes, no declared length: the MAC alone. */
			assert_int_equal(stream_decrypt(key,
			    WA_MEDIA_INFO_DOCUMENT, ref.blob.p, ref.blob.len,
			    chunks[c], NULL, NULL, WA_MEDIA_LEN_UNKNOWN,
			    sizes[s], &got, &why), 0);
			assert_int_equal(got.len, sizes[s]);
			buf_release(&got);
		}
		buf_release(&ref.blob);
		free(p);
	}
}

/* The stream's blob decrypts with the one-shot, both hashes checked. */
static void
test_wa_media_enc__decrypts__with_the_one_shot(void **state)
{
	uint8_t				 key[32], tail[WA_MEDIA_ENC_TAIL];
	uint8_t				 p[1000], out[1000 + 16];
	struct wa_media_enc_result	 r;
	struct wa_media_enc		*e;
	struct buf			 blob = { 0 }, back = { 0 };
	size_t				 n;

	(void)state;
	fill(p, sizeof(p), 3);
	key_of(key, 3);
	assert_int_equal(wa_media_enc_new(key, WA_MEDIA_INFO_AUDIO, &e), 0);
	assert_int_equal(wa_media_enc_update(e, p, sizeof(p), out,
	    sizeof(out), &n), 0);
	buf_append(&blob, out, n);
	assert_int_equal(wa_media_enc_finish(e, tail, &r), 0);
	buf_append(&blob, tail, sizeof(tail));
	wa_media_enc_free(e);
	assert_int_equal(wa_media_decrypt(key, WA_MEDIA_INFO_AUDIO, blob.p,
	    blob.len, r.file_enc_sha256, r.file_sha256, sizeof(p), &back,
	    NULL), 0);
	assert_int_equal(back.len, sizeof(p));
	assert_memory_equal(back.p, p, sizeof(p));
	buf_release(&blob);
	buf_release(&back);
}

/* One case of the tamper table: run it at chunk sizes 1, 17 and whole. */
static void
expect_fail(const uint8_t *key, const uint8_t *blob, size_t len,
    const uint8_t *enc, const uint8_t *sha, uint64_t file_len,
    uint64_t max_len, int want, const char *want_why)
{
	static const size_t	 cs[] = { 1, 17, SIZE_MAX };
	struct buf		 got;
	const char		*why;
	size_t			 c;

	for (c = 0; c < sizeof(cs) / sizeof(cs[0]); c++) {
		memset(&got, 0, sizeof(got));
		why = NULL;
		assert_int_equal(stream_decrypt(key, WA_MEDIA_INFO_IMAGE,
		    blob, len, cs[c], enc, sha, file_len, max_len, &got,
		    &why), want);
		if (want_why != NULL) {
			assert_non_null(why);
			assert_non_null(strstr(why, want_why));
		}
		buf_release(&got);
	}
}

static void
test_wa_media_dec__fails__on_each_check_with_its_own_error(void **state)
{
	uint8_t		 key[32], p[100], bad[32];
	struct ref	 ref;
	uint8_t		*b;
	size_t		 len;

	(void)state;
	fill(p, sizeof(p), 9);
	key_of(key, 9);
	ref_encrypt(key, WA_MEDIA_INFO_IMAGE, p, sizeof(p), &ref);
	len = ref.blob.len;
	b = malloc(len + 32);
	memset(bad, 0x5a, sizeof(bad));

	/* A byte flipped in the ciphertext: the enc hash first, then
	 * (without it) the MAC. */
	memcpy(b, ref.blob.p, len);
	b[20] ^= 1;
	expect_fail(key, b, len, ref.enc, ref.sha, 100, 100, WC_EENCHASH,
	    "fileEncSHA256");
	expect_fail(key, b, len, NULL, ref.sha, 100, 100, WC_EBADMAC, "MAC");
	/* In the MAC. */
	memcpy(b, ref.blob.p, len);
	b[len - 1] ^= 0x80;
	expect_fail(key, b, len, ref.enc, ref.sha, 100, 100, WC_EENCHASH,
	    NULL);
	expect_fail(key, b, len, NULL, NULL, 100, 100, WC_EBADMAC, "MAC");
	/* The wrong hashes. */
	expect_fail(key, ref.blob.p, len, bad, ref.sha, 100, 100,
	    WC_EENCHASH, NULL);
	expect_fail(key, ref.blob.p, len, ref.enc, bad, 100, 100,
	    WC_EFILEHASH, "fileSHA256");
	/* A wrong declared length: shorter than the blob is cut off during
	 * the feed, longer fails at the end. */
	expect_fail(key, ref.blob.p, len, ref.enc, ref.sha, 90, 100,
	    WC_ETOOBIG, NULL);
	expect_fail(key, ref.blob.p, len, ref.enc, ref.sha, 99, 100,
	    WC_ETOOBIG, "longer than its declared");
	expect_fail(key, ref.blob.p, len, ref.enc, ref.sha, 101, 200,
	    WC_EPROTO, "shorter than its declared");
	/* Over the caller's cap: refused before a byte, and on the way. */
	expect_fail(key, ref.blob.p, len, ref.enc, ref.sha, 100, 99,
	    WC_ETOOBIG, NULL);
	expect_fail(key, ref.blob.p, len, ref.enc, ref.sha,
	    WA_MEDIA_LEN_UNKNOWN, 50, WC_ETOOBIG, NULL);
	expect_fail(key, ref.blob.p, len, ref.enc, ref.sha,
	    WA_MEDIA_LEN_UNKNOWN, 99, WC_ETOOBIG, "cap");
	/* Truncated: not whole blocks plus a MAC, and shorter than one. */
	expect_fail(key, ref.blob.p, len - 1, NULL, NULL, 100, 100,
	    WC_ETRUNC, "whole AES blocks");
	expect_fail(key, ref.blob.p, 25, NULL, NULL, 100, 100, WC_ETRUNC,
	    NULL);
	expect_fail(key, ref.blob.p, 0, NULL, NULL, 100, 100, WC_ETRUNC,
	    NULL);
	/* A trailing byte past the blob with no declared length. */
	memcpy(b, ref.blob.p, len);
	b[len] = 0;
	expect_fail(key, b, len + 1, NULL, NULL, WA_MEDIA_LEN_UNKNOWN, 1000,
	    WC_ETRUNC, NULL);
	/* The other type's key. */
	{
		struct buf	 got = { 0 };

		assert_int_equal(stream_decrypt(key, WA_MEDIA_INFO_VIDEO,
		    ref.blob.p, len, 7, NULL, NULL, 100, 100, &got, NULL),
		    WC_EBADMAC);
		buf_release(&got);
	}
	free(b);
	buf_release(&ref.blob);
}

/* Bad padding under a MAC that verifies: the blob made here with the
 * MAC recomputed, as only the key's holder could. */
static void
test_wa_media_dec__fails__on_bad_padding_under_a_good_mac(void **state)
{
	uint8_t				 key[32], p[32], out[64], tail[26];
	uint8_t				 blob[32 + 10], h[32];
	struct wa_media_keys		 k;
	struct wa_media_enc_result	 r;
	struct wa_media_enc		*e;
	struct buf			 got = { 0 };
	const char			*why = NULL;
	size_t				 n;

	(void)state;
	key_of(key, 4);
	/* 32 bytes of plaintext whose last byte is 0x11 (17: no pad), then
	 * encrypted without the pad block: enc = the 32 bytes. */
	fill(p, sizeof(p), 4);
	p[31] = 0x11;
	assert_int_equal(wa_media_enc_new(key, WA_MEDIA_INFO_IMAGE, &e), 0);
	assert_int_equal(wa_media_enc_update(e, p, 32, out, sizeof(out), &n),
	    0);
	assert_int_equal(n, 32);
	memcpy(blob, out, 32);
	assert_int_equal(wa_media_enc_finish(e, tail, &r), 0);
	wa_media_enc_free(e);
	assert_int_equal(wa_media_keys(key, WA_MEDIA_INFO_IMAGE, &k), 0);
	{
		uint8_t	 m[16 + 32];

		memcpy(m, k.iv, 16);
		memcpy(m + 16, blob, 32);
		wa_crypto_hmac_sha256(k.mac_key, 32, m, sizeof(m), h);
	}
	memcpy(blob + 32, h, 10);
	assert_int_equal(stream_decrypt(key, WA_MEDIA_INFO_IMAGE, blob,
	    sizeof(blob), 5, NULL, NULL, WA_MEDIA_LEN_UNKNOWN, 100, &got,
	    &why), WC_EPADDING);
	assert_non_null(strstr(why, "padding"));
	buf_release(&got);
}

static int
sink_collect(void *arg, const uint8_t *p, size_t len)
{
	buf_append(arg, p, len);
	return 0;
}

static int
sink_full(void *arg, const uint8_t *p, size_t len)
{
	(void)arg;
	(void)p;
	(void)len;
	return -ENOSPC;
}

static void
test_wa_media_dec_feed__hands__the_plaintext_to_the_sink(void **state)
{
	uint8_t			 key[32], last[16];
	uint8_t			*p;
	struct ref		 ref;
	struct wa_media_dec	*d;
	struct buf		 got = { 0 };
	size_t			 n, len = 300001;

	(void)state;
	p = malloc(len);
	fill(p, len, 11);
	key_of(key, 11);
	ref_encrypt(key, WA_MEDIA_INFO_VIDEO, p, len, &ref);
	assert_int_equal(wa_media_dec_new(key, WA_MEDIA_INFO_VIDEO, ref.enc,
	    ref.sha, len, len, &d), 0);
	assert_int_equal(wa_media_dec_feed(d, ref.blob.p, 1000, sink_collect,
	    &got), 0);
	assert_int_equal(wa_media_dec_feed(d, ref.blob.p + 1000,
	    ref.blob.len - 1000, sink_collect, &got), 0);
	assert_int_equal(wa_media_dec_finish(d, last, &n, NULL), 0);
	buf_append(&got, last, n);
	assert_int_equal(got.len, len);
	assert_memory_equal(got.p, p, len);
	/* A second finish, and an update after it, are refused. */
	assert_int_equal(wa_media_dec_finish(d, last, &n, NULL), WC_ESTATE);
	assert_int_equal(wa_media_dec_update(d, p, 0, last, sizeof(last) +
	    WA_MEDIA_STREAM_SLACK, &n), WC_ESTATE);
	wa_media_dec_free(d);
	/* The sink's error ends the feed and the context. */
	assert_int_equal(wa_media_dec_new(key, WA_MEDIA_INFO_VIDEO, ref.enc,
	    ref.sha, len, len, &d), 0);
	assert_int_equal(wa_media_dec_feed(d, ref.blob.p, ref.blob.len,
	    sink_full, NULL), -ENOSPC);
	assert_int_equal(wa_media_dec_finish(d, last, &n, NULL), WC_ESTATE);
	wa_media_dec_free(d);
	buf_release(&got);
	buf_release(&ref.blob);
	free(p);
}

/* Encrypt p[0..len) in pieces of chunk bytes into blob (the tail too). */
static void
stream_encrypt(const uint8_t *key, const uint8_t *p, size_t len,
    size_t chunk, struct buf *blob, struct wa_media_enc_result *r)
{
	uint8_t			 tail[WA_MEDIA_ENC_TAIL];
	struct wa_media_enc	*e;
	uint8_t			*out;
	size_t			 off = 0, step, n;

	assert_int_equal(wa_media_enc_new(key, WA_MEDIA_INFO_VIDEO, &e), 0);
	out = malloc((chunk < len ? chunk : len) + 16);
	assert_non_null(out);
	do {
		step = len - off < chunk ? len - off : chunk;
		assert_int_equal(wa_media_enc_update(e, p + off, step, out,
		    step + 16, &n), 0);
		buf_append(blob, out, n);
		off += step;
	} while (off < len);
	assert_int_equal(wa_media_enc_finish(e, tail, r), 0);
	buf_append(blob, tail, sizeof(tail));
	wa_media_enc_free(e);
	free(out);
}

/* Files past the 256 KiB where a context starts hashing on its second
 * thread (proto/media-pipe.h): the same blob, hashes and plaintext as
 * the one-shot, at chunk sizes from 4095 bytes to the whole file. */
static void
test_wa_media_stream__gives__the_one_shot_bytes_on_two_threads(void **state)
{
	static const size_t		 big[] = { 1024 * 1024,
		5 * 1024 * 1024 + 7 };
	static const size_t		 cs[] = { 4095, 65536,
		1024 * 1024 + 3, SIZE_MAX };
	uint8_t				 key[32];
	struct wa_media_enc_result	 r;
	struct ref			 ref;
	struct buf			 got;
	const char			*why = NULL;
	uint8_t				*p;
	size_t				 s, c;

	(void)state;
	for (s = 0; s < sizeof(big) / sizeof(big[0]); s++) {
		p = malloc(big[s]);
		assert_non_null(p);
		fill(p, big[s], (unsigned)s + 21);
		key_of(key, (unsigned)s + 21);
		ref_encrypt(key, WA_MEDIA_INFO_VIDEO, p, big[s], &ref);
		for (c = 0; c < sizeof(cs) / sizeof(cs[0]); c++) {
			memset(&got, 0, sizeof(got));
			stream_encrypt(key, p, big[s], cs[c], &got, &r);
			assert_int_equal(got.len, ref.blob.len);
			assert_memory_equal(got.p, ref.blob.p, got.len);
			assert_memory_equal(r.file_enc_sha256, ref.enc, 32);
			assert_memory_equal(r.file_sha256, ref.sha, 32);
			assert_int_equal(r.file_len, big[s]);
			buf_release(&got);
			assert_int_equal(stream_decrypt(key,
			    WA_MEDIA_INFO_VIDEO, ref.blob.p, ref.blob.len,
			    cs[c], ref.enc, ref.sha, big[s], big[s], &got,
			    &why), 0);
			assert_int_equal(got.len, big[s]);
			assert_memory_equal(got.p, p, big[s]);
			buf_release(&got);
		}
		buf_release(&ref.blob);
		free(p);
	}
}

static int
sink_full_at_2m(void *arg, const uint8_t *p, size_t len)
{
	size_t	*seen = arg;

	(void)p;
	*seen += len;
	return *seen > 2 * 1024 * 1024 ? -ENOSPC : 0;
}

/* The checks and the error paths with the second thread running: a
 * flipped byte at 3 MiB, in the MAC, a wrong fileSha256, a write error
 * at 2 MiB (the sink), and contexts freed in the middle of a file (the
 * thread is joined each time: ASan and TSan see it). */
static void
test_wa_media_stream__fails__and_joins_on_two_threads(void **state)
{
	static const size_t	 len = 4 * 1024 * 1024 + 5;
	uint8_t			 key[32], bad[32], last[16];
	uint8_t			*p, *b, *out;
	struct ref		 ref;
	struct buf		 got = { 0 };
	struct wa_media_dec	*d;
	struct wa_media_enc	*e;
	const char		*why;
	size_t			 n, seen = 0, c;
	static const size_t	 cs[] = { 65536, SIZE_MAX };

	(void)state;
	p = malloc(len);
	assert_non_null(p);
	fill(p, len, 31);
	key_of(key, 31);
	ref_encrypt(key, WA_MEDIA_INFO_IMAGE, p, len, &ref);
	b = malloc(ref.blob.len);
	assert_non_null(b);
	memset(bad, 0x5a, sizeof(bad));
	for (c = 0; c < sizeof(cs) / sizeof(cs[0]); c++) {
		memcpy(b, ref.blob.p, ref.blob.len);
		b[3 * 1024 * 1024] ^= 4;
		why = NULL;
		assert_int_equal(stream_decrypt(key, WA_MEDIA_INFO_IMAGE, b,
		    ref.blob.len, cs[c], ref.enc, ref.sha, len, len, &got,
		    &why), WC_EENCHASH);
		assert_non_null(strstr(why, "fileEncSHA256"));
		buf_release(&got);
		assert_int_equal(stream_decrypt(key, WA_MEDIA_INFO_IMAGE, b,
		    ref.blob.len, cs[c], NULL, ref.sha, len, len, &got,
		    &why), WC_EBADMAC);
		buf_release(&got);
		memcpy(b, ref.blob.p, ref.blob.len);
		b[ref.blob.len - 3] ^= 0x10;
		assert_int_equal(stream_decrypt(key, WA_MEDIA_INFO_IMAGE, b,
		    ref.blob.len, cs[c], NULL, ref.sha, len, len, &got,
		    &why), WC_EBADMAC);
		assert_non_null(strstr(why, "MAC"));
		buf_release(&got);
		assert_int_equal(stream_decrypt(key, WA_MEDIA_INFO_IMAGE,
		    ref.blob.p, ref.blob.len, cs[c], ref.enc, bad, len, len,
		    &got, &why), WC_EFILEHASH);
		buf_release(&got);
	}
	/* A write error at 2 MiB ends the feed; the context then only
	 * frees. */
	assert_int_equal(wa_media_dec_new(key, WA_MEDIA_INFO_IMAGE, ref.enc,
	    ref.sha, len, len, &d), 0);
	assert_int_equal(wa_media_dec_feed(d, ref.blob.p, ref.blob.len,
	    sink_full_at_2m, &seen), -ENOSPC);
	assert_true(seen > 2 * 1024 * 1024 && seen < len);
	assert_int_equal(wa_media_dec_finish(d, last, &n, NULL), WC_ESTATE);
	wa_media_dec_free(d);
	/* Freed in the middle, without finish. */
	out = malloc(1024 * 1024 + WA_MEDIA_STREAM_SLACK);
	assert_non_null(out);
	assert_int_equal(wa_media_dec_new(key, WA_MEDIA_INFO_IMAGE, ref.enc,
	    ref.sha, len, len, &d), 0);
	for (c = 0; c < 3; c++)
		assert_int_equal(wa_media_dec_update(d, ref.blob.p + c *
		    1024 * 1024, 1024 * 1024, out, 1024 * 1024 +
		    WA_MEDIA_STREAM_SLACK, &n), 0);
	wa_media_dec_free(d);
	assert_int_equal(wa_media_enc_new(key, WA_MEDIA_INFO_IMAGE, &e), 0);
	for (c = 0; c < 3; c++)
		assert_int_equal(wa_media_enc_update(e, p + c * 1024 * 1024,
		    1024 * 1024, out, 1024 * 1024 + 16, &n), 0);
	wa_media_enc_free(e);
	free(out);
	free(b);
	free(p);
	buf_release(&ref.blob);
}

static void
test_wa_media_stream__refuses__bad_arguments(void **state)
{
	uint8_t			 key[32] = { 0 }, out[64];
	struct wa_media_dec	*d = NULL;
	struct wa_media_enc	*e = NULL;
	size_t			 n;

	(void)state;
	assert_int_equal(wa_media_dec_new(key, NULL, NULL, NULL, 1, 1, &d),
	    -EINVAL);
	assert_int_equal(wa_media_enc_new(key, NULL, &e), -EINVAL);
	assert_null(d);
	assert_null(e);
	assert_int_equal(wa_media_dec_new(key, WA_MEDIA_INFO_IMAGE, NULL,
	    NULL, 10, 100, &d), 0);
	/* out must hold the input and the slack. */
	assert_int_equal(wa_media_dec_update(d, out, 20, out, 20 +
	    WA_MEDIA_STREAM_SLACK - 1, &n), -EINVAL);
	wa_media_dec_free(d);
	assert_int_equal(wa_media_enc_new(key, WA_MEDIA_INFO_IMAGE, &e), 0);
	assert_int_equal(wa_media_enc_update(e, out, 20, out, 35, &n),
	    -EINVAL);
	wa_media_enc_free(e);
	wa_media_dec_free(NULL);
	wa_media_enc_free(NULL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_media_enc__gives__the_one_shot_blob_and_hashes_at_each_chunk_size),
		cmocka_unit_test(test_wa_media_dec__gives__the_plaintext_at_each_size_and_chunk_size),
		cmocka_unit_test(test_wa_media_enc__decrypts__with_the_one_shot),
		cmocka_unit_test(test_wa_media_dec__fails__on_each_check_with_its_own_error),
		cmocka_unit_test(test_wa_media_dec__fails__on_bad_padding_under_a_good_mac),
		cmocka_unit_test(test_wa_media_dec_feed__hands__the_plaintext_to_the_sink),
		cmocka_unit_test(test_wa_media_stream__gives__the_one_shot_bytes_on_two_threads),
		cmocka_unit_test(test_wa_media_stream__fails__and_joins_on_two_threads),
		cmocka_unit_test(test_wa_media_stream__refuses__bad_arguments),
	};

	if (wa_crypto_init() != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
