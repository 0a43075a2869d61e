/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-media-stream.c -- fuzz target for the readers of
 * outside bytes in proto/media-stream.c, media-dl-retry.c and
 * media-ul.c.  The first byte picks one (its value modulo 3):
 *   0  the stream decrypt context over a blob, differential against the
 *      one-shot wa_media_decrypt(): input byte 1 holds flags (0x01: the
 *      harness writes the right MAC first, so mutations reach the cipher
 *      and the padding; 0x02: the blob's own SHA-256 is checked as
 *      fileEncSHA256; bits 2-3 the key string), byte 2 picks the chunk
 *      size (1, 15, 16, 17, 4095, 65536, whole), then the 32-byte media
 *      key, then the blob;
 *   1  wa_media_retry_parse() of a binary node (wa_bin_decode of the
 *      bytes after a 32-byte media key);
 *   2  wa_media_ul_answer() of the rest as an upload answer.
 * Contract: no crash, no leak; the stream and the one-shot agree (both
 * fail, or both give the same plaintext); the parsers give an error or
 * results within their caps.  The seeds in corpus/wa-media-stream were
 * written with wa_media_encrypt, wa_bin_encode and json by hand.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/xmalloc.h"
#include "proto/bin.h"
#include "proto/crypto.h"
#include "proto/media-dl.h"
#include "proto/media-stream.h"
#include "proto/media-ul.h"
#include "proto/media.h"

#define FUZZ_MAX_PLAIN	(1u << 20)

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const infos[4] = {
	WA_MEDIA_INFO_IMAGE, WA_MEDIA_INFO_VIDEO, WA_MEDIA_INFO_AUDIO,
	WA_MEDIA_INFO_DOCUMENT,
};
static const size_t chunks[7] = { 1, 15, 16, 17, 4095, 65536, SIZE_MAX };

/* The right MAC over blob's enc part into its last 10 bytes, computed in
 * two updates (iv, then enc) with libsodium's HMAC state. */
static void
fix_mac(const uint8_t *key, const char *info, uint8_t *blob, size_t len)
{
	crypto_auth_hmacsha256_state	 st;
	struct wa_media_keys		 k;
	uint8_t				 mac[WA_CRYPTO_HASH_LEN];

	if (len < WA_MEDIA_MAC_LEN || wa_media_keys(key, info, &k) != 0)
		return;
	crypto_auth_hmacsha256_init(&st, k.mac_key, sizeof(k.mac_key));
	crypto_auth_hmacsha256_update(&st, k.iv, sizeof(k.iv));
	crypto_auth_hmacsha256_update(&st, blob, len - WA_MEDIA_MAC_LEN);
	crypto_auth_hmacsha256_final(&st, mac);
	memcpy(blob + len - WA_MEDIA_MAC_LEN, mac, WA_MEDIA_MAC_LEN);
	wa_crypto_wipe(&st, sizeof(st));
	wa_crypto_wipe(&k, sizeof(k));
}

static void
stream(const uint8_t *data, size_t size)
{
	struct wa_media_dec	*d;
	struct buf		 one = BUF_INIT, two = BUF_INIT;
	uint8_t			 flags, h[32], *blob, *out;
	const char		*info;
	size_t			 len, chunk, off = 0, step, n;
	int			 r1, r2;

	if (size < 3 + WA_MEDIA_KEY_LEN)
		return;
	flags = data[1];
	info = infos[(flags >> 2) & 3];
	chunk = chunks[data[2] % 7];
	len = size - 3 - WA_MEDIA_KEY_LEN;
	blob = xmalloc(len + 1);
	memcpy(blob, data + 3 + WA_MEDIA_KEY_LEN, len);
	if (flags & 0x01)
		fix_mac(data + 3, info, blob, len);
	wa_crypto_sha256(blob, len, h);
	r1 = wa_media_decrypt(data + 3, info, blob, len, flags & 0x02 ? h :
	    NULL, NULL, FUZZ_MAX_PLAIN, &one, NULL);
	if (wa_media_dec_new(data + 3, info, flags & 0x02 ? h : NULL, NULL,
	    WA_MEDIA_LEN_UNKNOWN, FUZZ_MAX_PLAIN, &d) != 0)
		abort();
	if (chunk > len)
		chunk = len;
	out = xmalloc(chunk + WA_MEDIA_STREAM_SLACK);
	r2 = 0;
	do {
		step = len - off < chunk ? len - off : chunk;
		if ((r2 = wa_media_dec_update(d, blob + off, step, out,
		    step + WA_MEDIA_STREAM_SLACK, &n)) != 0)
			break;
		buf_append(&two, out, n);
		off += step;
	} while (off < len);
	if (r2 == 0 && (r2 = wa_media_dec_finish(d, out, &n, NULL)) == 0)
		buf_append(&two, out, n);
	if ((r1 == 0) != (r2 == 0) || (r1 == 0 && (one.len != two.len ||
	    (one.len > 0 && memcmp(one.p, two.p, one.len) != 0))))
		abort();
	wa_media_dec_free(d);
	buf_release(&one);
	buf_release(&two);
	free(out);
	free(blob);
}

static void
retry(const uint8_t *data, size_t size)
{
	struct wa_media_retry_ans	 ans;
	struct arena			 a;
	struct wa_node			*n;

	if (size < WA_MEDIA_KEY_LEN)
		return;
	arena_init(&a, 0);
	if (wa_bin_decode(data + WA_MEDIA_KEY_LEN, size - WA_MEDIA_KEY_LEN,
	    &a, &n, NULL) == 0 && wa_media_retry_parse(&a, n, data, &ans) == 0) {
		if (ans.msg_id == NULL || strlen(ans.msg_id) >=
		    WA_MEDIA_RETRY_ID_MAX)
			abort();
		if ((ans.result == WA_MEDIA_RETRY_SUCCESS) !=
		    (ans.direct_path != NULL) || (ans.direct_path != NULL &&
		    ans.direct_path[0] != '/'))
			abort();
	}
	arena_release(&a);
}

static void
answer(const uint8_t *data, size_t size)
{
	char	*u = xmalloc(WA_MEDIA_UL_FIELD_MAX);
	char	*d = xmalloc(WA_MEDIA_UL_FIELD_MAX);

	if (wa_media_ul_answer((const char *)data, size, u, d) == 0 &&
	    ((u[0] == '\0' && d[0] == '\0') || (d[0] != '\0' && d[0] != '/') ||
	    strlen(u) >= WA_MEDIA_UL_FIELD_MAX))
		abort();
	free(u);
	free(d);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int	 inited;

	if (!inited) {
		if (wa_crypto_init() != 0)
			abort();
		inited = 1;
	}
	if (size < 1)
		return 0;
	switch (data[0] % 3) {
	case 0:
		stream(data, size);
		break;
	case 1:
		retry(data + 1, size - 1);
		break;
	default:
		answer(data + 1, size - 1);
		break;
	}
	return 0;
}
