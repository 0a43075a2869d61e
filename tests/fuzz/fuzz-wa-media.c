/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-media.c -- fuzz target for the decryption of a
 * downloaded media blob (wa_media_decrypt, proto/media.c: HKDF-SHA256 of
 * the media key, the blob's SHA-256, the truncated HMAC-SHA256,
 * AES-256-CBC and PKCS#7, the plaintext's SHA-256; protocol.md 14.1) and,
 * for a history blob, what proto/hsync.c does next with the plaintext
 * (wa_hist_inflate, then wa_hist_parse; 12.2), with hsync's caps
 * (WA_HSYNC_BLOB_MAX, WA_HIST_MAX_INFLATED).
 * Input: a flags byte, the 32-byte media key, when flag 0x04 the 32-byte
 * fileSHA256 to check, then the blob (enc ‖ mac10).  Flags: 0x01 the
 * harness writes the right MAC over the blob first (so mutations reach
 * the cipher, the padding and zlib); 0x02 the blob's own SHA-256 is
 * checked as fileEncSHA256 (it matches); bits 3-4 the key string
 * (history, image, video, document).
 * Contract: an error with the out buffer as it was, or the plaintext that
 * fits the cap and hashes to fileSHA256 when checked; no crash, no leak.
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/history.h"
#include "proto/hsync.h"
#include "proto/media.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const infos[4] = {
	WA_MEDIA_INFO_HISTORY, WA_MEDIA_INFO_IMAGE, WA_MEDIA_INFO_VIDEO,
	WA_MEDIA_INFO_DOCUMENT,
};

/* hsync's take_blob(): inflate and parse a history plaintext. */
static void
take_blob(const uint8_t *z, size_t len)
{
	struct arena	 a;
	struct buf	 plain = BUF_INIT;
	struct wa_hist	*h = NULL;
	const char	*why = NULL;

	arena_init(&a, 64 * 1024);
	if (wa_hist_inflate(z, len, WA_HIST_MAX_INFLATED, &a, &plain,
	    &why) == 0) {
		if (plain.len > WA_HIST_MAX_INFLATED)
			abort();
		if (wa_hist_parse(plain.p, plain.len, &a, &h, &why) == 0 &&
		    (h == NULL || h->n_convs > WA_HIST_MAX_CONVS))
			abort();
	}
	buf_release(&plain);
	arena_release(&a);
}

/* Overwrite the last 10 bytes of blob with the MAC of the rest. */
static void
fix_mac(const uint8_t key[WA_MEDIA_KEY_LEN], const char *info, uint8_t *blob,
    size_t len)
{
	struct wa_media_keys	 k;
	uint8_t			 mac[WA_CRYPTO_HASH_LEN], *p;
	size_t			 enc = len - WA_MEDIA_MAC_LEN;

	if (len < WA_MEDIA_MAC_LEN || wa_media_keys(key, info, &k) != 0)
		return;
	p = xmalloc(WA_MEDIA_IV_LEN + enc + 1);
	memcpy(p, k.iv, WA_MEDIA_IV_LEN);
	memcpy(p + WA_MEDIA_IV_LEN, blob, enc);
	wa_crypto_hmac_sha256(k.mac_key, sizeof(k.mac_key), p,
	    WA_MEDIA_IV_LEN + enc, mac);
	memcpy(blob + enc, mac, WA_MEDIA_MAC_LEN);
	free(p);
	wa_crypto_wipe(&k, sizeof(k));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool	 ready;
	struct buf	 out = BUF_INIT;
	const uint8_t	*key, *file_sha = NULL, *enc_sha = NULL;
	const char	*info, *why = NULL;
	uint8_t		 flags, ehash[WA_MEDIA_HASH_LEN], phash[WA_MEDIA_HASH_LEN];
	uint8_t		*blob;
	size_t		 len, need = 1 + WA_MEDIA_KEY_LEN;
	int		 rc;

	if (!ready) {
		if (wa_crypto_init() != 0)
			abort();
		ready = true;
	}
	if (size < need)
		return 0;
	flags = data[0];
	key = data + 1;
	info = infos[(flags >> 3) & 3];
	if (flags & 0x04) {
		if (size < need + WA_MEDIA_HASH_LEN)
			return 0;
		file_sha = data + need;
		need += WA_MEDIA_HASH_LEN;
	}
	len = size - need;
	blob = xmalloc(len + 1);
	memcpy(blob, data + need, len);
	if (flags & 0x01)
		fix_mac(key, info, blob, len);
	if (flags & 0x02) {
		wa_crypto_sha256(blob, len, ehash);
		enc_sha = ehash;
	}
	buf_append(&out, "x", 1);	/* appended to: must stay as it was */
	rc = wa_media_decrypt(key, info, blob, len, enc_sha, file_sha,
	    WA_HSYNC_BLOB_MAX, &out, &why);
	if (rc != 0) {
		if (out.len != 1 || why == NULL)
			abort();
	} else {
		if (out.len < 1 || out.len - 1 > WA_HSYNC_BLOB_MAX ||
		    out.len - 1 + WA_MEDIA_MAC_LEN >= len + 1)
			abort();
		if (file_sha != NULL) {
			wa_crypto_sha256(out.p + 1, out.len - 1, phash);
			if (memcmp(phash, file_sha, sizeof(phash)) != 0)
				abort();
		}
		if (info == infos[0])
			take_blob(out.p + 1, out.len - 1);
	}
	wa_crypto_wipe(out.p, out.len);
	buf_release(&out);
	free(blob);
	return 0;
}
