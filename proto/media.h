/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media.h -- WhatsApp's media encryption (protocol.md 14.1), used for
 * history sync blobs (12.2, info WA_MEDIA_INFO_HISTORY) and later for
 * images, documents and app-state blobs: HKDF-SHA256 of the 32-byte media
 * key into iv, cipher key, MAC key and ref key; AES-256-CBC with PKCS#7;
 * a 10-byte truncated HMAC-SHA256 over iv ‖ ciphertext appended to the
 * upload; SHA-256 of the upload (fileEncSHA256) and of the plaintext
 * (fileSHA256).  Pure functions over caller buffers: no I/O, no clock, no
 * randomness (the media key is passed in); callable from any thread after
 * wa_crypto_init() (proto/crypto.h).
 */
#ifndef WA_MEDIA_H
#define WA_MEDIA_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/err.h"

#define WA_MEDIA_KEY_LEN	32	/* mediaKey, bytes */
#define WA_MEDIA_IV_LEN		16
#define WA_MEDIA_MAC_LEN	10	/* truncated HMAC after enc */
#define WA_MEDIA_HASH_LEN	32	/* fileSHA256, fileEncSHA256 */
#define WA_MEDIA_EXPANDED_LEN	112	/* HKDF output: iv, cipher, mac, ref */

/* HKDF info strings (protocol.md 14.1; whatsmeow download.go, Baileys
 * MEDIA_HKDF_KEY_MAPPING). */
#define WA_MEDIA_INFO_IMAGE	"WhatsApp Image Keys"	/* image, sticker */
#define WA_MEDIA_INFO_VIDEO	"WhatsApp Video Keys"	/* video, gif, ptv */
#define WA_MEDIA_INFO_AUDIO	"WhatsApp Audio Keys"	/* audio, ptt */
#define WA_MEDIA_INFO_DOCUMENT	"WhatsApp Document Keys"
#define WA_MEDIA_INFO_HISTORY	"WhatsApp History Keys"	/* md-msg-hist */
#define WA_MEDIA_INFO_APP_STATE	"WhatsApp App State Keys" /* md-app-state */
#define WA_MEDIA_INFO_LINK_THUMB "WhatsApp Link Thumbnail Keys"
#define WA_MEDIA_INFO_IMAGE_THUMB "WhatsApp Image Thumbnail Keys"
#define WA_MEDIA_INFO_VIDEO_THUMB "WhatsApp Video Thumbnail Keys"
#define WA_MEDIA_INFO_DOCUMENT_THUMB "WhatsApp Document Thumbnail Keys"
#define WA_MEDIA_INFO_STICKER_PACK "WhatsApp Sticker Pack Keys"

/*
 * This module's own failures, one per check of wa_media_decrypt(), so the
 * caller can tell a corrupt download (retry another host) from a wrong key
 * (do not); base/err.h's codes, named by wc_strerror().
 */
#define WA_MEDIA_EENCHASH	WC_EENCHASH	/* SHA-256(blob) != fileEncSHA256 */
#define WA_MEDIA_EPADDING	WC_EPADDING	/* bad PKCS#7 padding */
#define WA_MEDIA_EFILEHASH	WC_EFILEHASH	/* SHA-256(plaintext) != fileSHA256 */

/* The four keys of one media key and info string (protocol.md 14.1). */
struct wa_media_keys {
	uint8_t	iv[WA_MEDIA_IV_LEN];		/* expanded[0:16] */
	uint8_t	cipher_key[32];			/* expanded[16:48], AES-256 */
	uint8_t	mac_key[32];			/* expanded[48:80], HMAC */
	uint8_t	ref_key[32];			/* expanded[80:112], unused */
};

/*
 * Expand media_key with HKDF-SHA256 (empty salt, info = the NUL-terminated
 * info string, 112 bytes) into *out (protocol.md 14.1).  out holds secrets:
 * wipe it with wa_crypto_wipe() when done.  Returns 0.  Errors: -EINVAL
 * (info NULL).  *out untouched on error.
 */
MUST_CHECK int	wa_media_keys(const uint8_t media_key[WA_MEDIA_KEY_LEN],
		    const char *info, struct wa_media_keys *out);

/*
 * Decrypt and verify the downloaded blob[0..len) = enc ‖ mac10 (protocol.md
 * 14.1, 12.2) with media_key and info, appending the plaintext to out.
 * Checks, in this order, each with its own error:
 *   1. shape: len >= 16 + 10 and len - 10 a multiple of 16 (WC_ETRUNC), and
 *      len - 10 - 16 <= max_len, the caller's cap on the plaintext in bytes
 *      (WC_ETOOBIG), before anything is allocated (so at most max_len + 16
 *      bytes are; the exact length is checked against max_len after 4);
 *   2. SHA-256(blob) == file_enc_sha256 when that is not NULL
 *      (WA_MEDIA_EENCHASH: a corrupt or wrong download);
 *   3. HMAC-SHA256(mac_key, iv ‖ enc)[0:10] == mac10 (WC_EBADMAC: wrong key
 *      or tampered blob);
 *   4. PKCS#7 padding of 1..16 bytes all equal (WA_MEDIA_EPADDING);
 *   5. SHA-256(plaintext) == file_sha256 when not NULL (WA_MEDIA_EFILEHASH).
 * file_enc_sha256 and file_sha256 are WA_MEDIA_HASH_LEN bytes or NULL.
 * Also -EINVAL (info NULL), WC_ECRYPTO (OpenSSL failed: out of memory).
 * On error out->len is unchanged (bytes written past it are wiped) and,
 * when why is not NULL, *why is set to a static English sentence for the
 * log naming the failed check; no key or plaintext is logged.
 */
MUST_CHECK int	wa_media_decrypt(const uint8_t media_key[WA_MEDIA_KEY_LEN],
		    const char *info, const uint8_t *blob, size_t len,
		    const uint8_t *file_enc_sha256, const uint8_t *file_sha256,
		    size_t max_len, struct buf *out, const char **why);

/*
 * Encrypt p[0..len) with media_key and info (protocol.md 14.1): append
 * enc ‖ mac10 (the upload body, len / 16 * 16 + 16 + 10 bytes) to out and
 * store SHA-256 of what was appended in file_enc_sha256 and SHA-256(p) in
 * file_sha256 (each WA_MEDIA_HASH_LEN bytes; either may be NULL).  The
 * simulator uploads history blobs with it; media_key comes from the
 * caller's CSPRNG.  Returns 0.  Errors: -EINVAL (info NULL), WC_ECRYPTO
 * (OpenSSL failed).  out->len unchanged on error.
 */
MUST_CHECK int	wa_media_encrypt(const uint8_t media_key[WA_MEDIA_KEY_LEN],
		    const char *info, const uint8_t *p, size_t len,
		    struct buf *out, uint8_t *file_enc_sha256,
		    uint8_t *file_sha256);

#endif
