/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-stream.h -- WhatsApp's media encryption in a stream
 * (protocol-features.md 1.2, 1.3; protocol.md 14.1), for files of any
 * size in constant memory: a decrypt context fed the downloaded blob
 * (enc ‖ mac10) in chunks of any size, and an encrypt context fed the
 * plaintext, each keeping at most a few blocks back.  The one-shot
 * proto/media.h is the same scheme over one buffer.  AES-256-CBC, HMAC-
 * SHA256 and SHA-256 from OpenSSL (its SHA extensions make the three
 * passes fast).  Pure: no I/O, no clock, no randomness (the media key is
 * passed in).  A context is used by one thread at a time; any thread may
 * create one after wa_crypto_init() (proto/crypto.h).  Past its first
 * 256 KiB a context hashes fileSha256 and fileEncSha256 on a second
 * thread of its own (proto/media-pipe.h: 3 MiB of copies while it
 * runs), which finish, free and any error join: no thread outlives the
 * context or its failure, none is started for a small file, and the
 * results are the same bytes as on one thread.
 */
#ifndef WA_MEDIA_STREAM_H
#define WA_MEDIA_STREAM_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "proto/media.h"

/* Room an update's output needs beyond its input, bytes: the blocks kept
 * back from earlier calls. */
#define WA_MEDIA_STREAM_SLACK	48
/* The tail of an encrypted upload: the last block and the MAC. */
#define WA_MEDIA_ENC_TAIL	(16 + WA_MEDIA_MAC_LEN)
/* No declared length (wa_media_dec_new's file_len). */
#define WA_MEDIA_LEN_UNKNOWN	UINT64_MAX

struct wa_media_dec;
struct wa_media_enc;

/*
 * Where a decrypt context writes plaintext: called with p[0..len), len
 * > 0, borrowed for the call.  Returns 0, or an error (< 0) that ends the
 * feed and is returned by it (e.g. -ENOSPC from a write).
 */
typedef int	(*wa_media_sink_fn)(void *arg, const uint8_t *p, size_t len);

/*
 * The size of the upload (enc ‖ mac10) of a plaintext of len bytes:
 * len / 16 * 16 + 16 + 10.  Callable from any thread.
 */
uint64_t	wa_media_blob_len(uint64_t len);

/*
 * A decrypt context for one download with media_key and info (one of
 * proto/media.h's WA_MEDIA_INFO_*, NUL-terminated; 1.2).  file_enc_sha256
 * and file_sha256 (WA_MEDIA_HASH_LEN bytes each, copied) are the
 * message's hashes, or NULL to skip that check; file_len is the
 * message's fileLength in bytes or WA_MEDIA_LEN_UNKNOWN; max_len caps
 * the plaintext in bytes (the caller's max-media-size).  Returns 0 and
 * *out, to free with wa_media_dec_free().  Errors: -EINVAL (info or out
 * NULL), WC_ETOOBIG (file_len > max_len: refused before any byte is
 * read), WC_ECRYPTO (OpenSSL failed: out of memory).  *out untouched on
 * error.
 */
MUST_CHECK int	wa_media_dec_new(const uint8_t media_key[WA_MEDIA_KEY_LEN],
		    const char *info, const uint8_t *file_enc_sha256,
		    const uint8_t *file_sha256, uint64_t file_len,
		    uint64_t max_len, struct wa_media_dec **out);

/*
 * Feed in[0..len) (any size, 0 included), the next bytes of the blob.
 * Writes the plaintext it can already give (whole blocks that are
 * neither the last block nor the MAC) to out[0..*out_len); out must hold
 * len + WA_MEDIA_STREAM_SLACK bytes (out_cap).  That plaintext is not
 * verified yet: keep it apart (a temp file) until wa_media_dec_finish()
 * returns 0.  Returns 0.  Errors: -EINVAL (out_cap too small),
 * WC_ETOOBIG (more bytes than the blob of file_len, or of max_len, can
 * have: a body longer than declared is cut off here), WC_ECRYPTO,
 * WC_ESTATE (a call after an error or after finish).  After an error the
 * context only accepts wa_media_dec_free().
 */
MUST_CHECK int	wa_media_dec_update(struct wa_media_dec *d,
		    const uint8_t *in, size_t len, uint8_t *out,
		    size_t out_cap, size_t *out_len);

/*
 * wa_media_dec_update() with the plaintext handed to sink(arg, ...) in
 * slices of up to 64 KiB (a buffer of the context's).  Returns 0, the
 * errors of wa_media_dec_update(), or sink's error.
 */
MUST_CHECK int	wa_media_dec_feed(struct wa_media_dec *d, const uint8_t *in,
		    size_t len, wa_media_sink_fn sink, void *arg);

/*
 * End of the blob: decrypt the last block into out[0..*out_len) (out
 * holds 16 bytes; 0..15 are written) and check, in the order of 1.3 and
 * 1.5, each with its own error:
 *   1. SHA-256 of all bytes fed == file_enc_sha256 (WC_EENCHASH);
 *   2. the blob is whole blocks plus a 10-byte MAC, at least 26 bytes
 *      (WC_ETRUNC);
 *   3. HMAC-SHA256(mac_key, iv ‖ enc)[0:10] == mac10 (WC_EBADMAC);
 *   4. PKCS#7 padding of 1..16 equal bytes (WC_EPADDING);
 *   5. SHA-256 of the plaintext == file_sha256 (WC_EFILEHASH);
 *   6. the plaintext is file_len bytes (WC_EPROTO: shorter than declared;
 *      longer is WC_ETOOBIG from update) and at most max_len (WC_ETOOBIG).
 * Returns 0 when every check given passes.  Also WC_ECRYPTO, WC_ESTATE
 * (called twice or after an error).  *why, when why is not NULL, is set
 * on error to a static English sentence for the log naming the check (no
 * key or plaintext in it).  On error out's bytes are wiped.
 */
MUST_CHECK int	wa_media_dec_finish(struct wa_media_dec *d, uint8_t out[16],
		    size_t *out_len, const char **why);

/* Plaintext bytes written so far (by update, feed and finish). */
uint64_t	wa_media_dec_plain_len(const struct wa_media_dec *d);

/* Wipe the keys and free d.  NULL is a no-op. */
void		wa_media_dec_free(struct wa_media_dec *d);

/* What an encryption gives for the message's fields (1.6). */
struct wa_media_enc_result {
	uint8_t		 file_sha256[WA_MEDIA_HASH_LEN];	/* of p */
	uint8_t		 file_enc_sha256[WA_MEDIA_HASH_LEN];	/* of blob */
	uint64_t	 file_len;	/* plaintext bytes (fileLength) */
	uint64_t	 blob_len;	/* upload bytes: enc ‖ mac10 */
};

/*
 * An encrypt context with media_key (32 bytes from the caller's CSPRNG)
 * and info (WA_MEDIA_INFO_*).  Returns 0 and *out, to free with
 * wa_media_enc_free().  Errors: -EINVAL (info or out NULL), WC_ECRYPTO.
 * *out untouched on error.
 */
MUST_CHECK int	wa_media_enc_new(const uint8_t media_key[WA_MEDIA_KEY_LEN],
		    const char *info, struct wa_media_enc **out);

/*
 * Feed the plaintext in[0..len) (any size); writes the ciphertext of the
 * whole blocks so far to out[0..*out_len); out holds len + 16 bytes
 * (out_cap).  Returns 0.  Errors: -EINVAL (out_cap too small),
 * WC_ECRYPTO, WC_ESTATE (after finish or an error).
 */
MUST_CHECK int	wa_media_enc_update(struct wa_media_enc *e, const uint8_t *in,
		    size_t len, uint8_t *out, size_t out_cap, size_t *out_len);

/*
 * End of the plaintext: writes the padded last block and the MAC to
 * out[0..WA_MEDIA_ENC_TAIL) (always WA_MEDIA_ENC_TAIL bytes) and fills
 * *r.  Returns 0.  Errors: WC_ECRYPTO, WC_ESTATE (twice, after an
 * error).
 */
MUST_CHECK int	wa_media_enc_finish(struct wa_media_enc *e,
		    uint8_t out[WA_MEDIA_ENC_TAIL],
		    struct wa_media_enc_result *r);

/* Wipe the keys and free e.  NULL is a no-op. */
void		wa_media_enc_free(struct wa_media_enc *e);

#endif
