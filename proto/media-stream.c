/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-stream.c -- the media scheme in a stream
 * (proto/media-stream.h; protocol-features.md 1.3).  The cipher and the
 * HMAC run here over one slice of at most SLICE bytes before the next
 * slice, so the bytes are still in the cache for the second pass; the
 * two SHA-256s (of the plaintext and of the blob) go through
 * proto/media-pipe.h, on a second thread once a file is past its first
 * 256 KiB.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/media-pipe.h"
#include "proto/media-stream.h"
#include "proto/media.h"

#define BLOCK	16
#define SLICE	(64 * 1024)	/* bytes per pass; also feed's buffer */
/* What the decrypt side keeps back: the last block and the MAC, and a
 * partial block before them. */
#define KEEP	(BLOCK + WA_MEDIA_MAC_LEN)

enum state {
	ST_OPEN,
	ST_DONE,	/* finished: only free */
	ST_FAILED,	/* an error: only free */
};

/* The OpenSSL state both directions share. */
struct passes {
	EVP_CIPHER_CTX	*cipher;
	EVP_MAC_CTX	*hmac;		/* over iv ‖ enc */
	EVP_MD_CTX	*enc_sha;	/* over enc ‖ mac */
	EVP_MD_CTX	*plain_sha;	/* over the plaintext */
	/* The whole-file passes, until finish drains it: stream A is
	 * the input of update, B its output (enc_sha, plain_sha when
	 * decrypting; plain_sha, hmac and enc_sha when encrypting: the
	 * encrypting side's cipher alone is as slow as both SHA-256s, so
	 * its MAC goes to the worker too). */
	struct wa_media_pipe *pipe;
};

struct wa_media_dec {
	struct passes	 x;
	enum state	 st;
	uint8_t		 held[KEEP + BLOCK + 8];	/* < KEEP + BLOCK used */
	size_t		 nheld;
	uint64_t	 fed;		/* blob bytes so far */
	uint64_t	 max_blob;	/* most blob bytes we accept */
	uint64_t	 plain;		/* plaintext bytes written */
	uint64_t	 file_len;	/* declared, or WA_MEDIA_LEN_UNKNOWN */
	uint64_t	 max_len;
	bool		 has_enc, has_plain;
	uint8_t		 enc_sha256[WA_MEDIA_HASH_LEN];
	uint8_t		 sha256[WA_MEDIA_HASH_LEN];
	uint8_t		*scratch;	/* feed's output, SLICE + slack */
};

struct wa_media_enc {
	struct passes	 x;
	enum state	 st;
	uint8_t		 held[BLOCK];
	size_t		 nheld;
	uint64_t	 plain;
};

uint64_t
wa_media_blob_len(uint64_t len)
{
	return len / BLOCK * BLOCK + BLOCK + WA_MEDIA_MAC_LEN;
}

static void
passes_release(struct passes *x)
{
	/* First: it joins the worker, which may still use the digests. */
	wa_media_pipe_free(x->pipe);
	EVP_CIPHER_CTX_free(x->cipher);
	EVP_MAC_CTX_free(x->hmac);
	EVP_MD_CTX_free(x->enc_sha);
	EVP_MD_CTX_free(x->plain_sha);
	memset(x, 0, sizeof(*x));
}

/* The pipe's updates (proto/media-pipe.h): a SHA-256; and, encrypting,
 * the ciphertext's HMAC and SHA-256 together, each over the slot while
 * it is in the worker's cache. */
static bool
sha_of(void *arg, const uint8_t *p, size_t n)
{
	return EVP_DigestUpdate(arg, p, n) == 1;
}

static bool
sealed_of(void *arg, const uint8_t *p, size_t n)
{
	struct passes	*x = arg;

	return EVP_MAC_update(x->hmac, p, n) == 1 &&
	    EVP_DigestUpdate(x->enc_sha, p, n) == 1;
}

/* Key the four passes from media_key and info; iv first into the HMAC. */
static int
passes_init(struct passes *x, const uint8_t *media_key, const char *info,
    bool encrypt)
{
	struct wa_media_keys	 k;
	EVP_MAC			*mac;
	OSSL_PARAM		 params[2];
	int			 rc, ok;

	memset(x, 0, sizeof(*x));
	if ((rc = wa_media_keys(media_key, info, &k)) != 0)
		return rc;
	x->cipher = EVP_CIPHER_CTX_new();
	x->enc_sha = EVP_MD_CTX_new();
	x->plain_sha = EVP_MD_CTX_new();
	mac = EVP_MAC_fetch(NULL, "HMAC", NULL);
	x->hmac = mac != NULL ? EVP_MAC_CTX_new(mac) : NULL;
	EVP_MAC_free(mac);
	params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
	    (char *)"SHA256", 0);
	params[1] = OSSL_PARAM_construct_end();
	ok = x->cipher != NULL && x->enc_sha != NULL &&
	    x->plain_sha != NULL && x->hmac != NULL &&
	    EVP_CipherInit_ex(x->cipher, EVP_aes_256_cbc(), NULL,
	    k.cipher_key, k.iv, encrypt ? 1 : 0) == 1 &&
	    EVP_CIPHER_CTX_set_padding(x->cipher, 0) == 1 &&
	    EVP_DigestInit_ex(x->enc_sha, EVP_sha256(), NULL) == 1 &&
	    EVP_DigestInit_ex(x->plain_sha, EVP_sha256(), NULL) == 1 &&
	    EVP_MAC_init(x->hmac, k.mac_key, sizeof(k.mac_key), params) == 1 &&
	    EVP_MAC_update(x->hmac, k.iv, sizeof(k.iv)) == 1;
	wa_crypto_wipe(&k, sizeof(k));
	if (!ok) {
		passes_release(x);
		return WC_ECRYPTO;
	}
	x->pipe = encrypt ? wa_media_pipe_new(sha_of, x->plain_sha,
	    sealed_of, x) : wa_media_pipe_new(sha_of, x->enc_sha, sha_of,
	    x->plain_sha);
	return 0;
}

/* CBC over in[0..n) (a multiple of 16, at most SLICE) into out. */
static bool
cbc(struct passes *x, const uint8_t *in, size_t n, uint8_t *out)
{
	int	 w;

	return EVP_CipherUpdate(x->cipher, out, &w, in, (int)n) == 1 &&
	    (size_t)w == n;
}

/* Decrypt whole blocks in[0..n) into out, slice by slice. */
static bool
dec_blocks(struct wa_media_dec *d, const uint8_t *in, size_t n, uint8_t *out)
{
	size_t	 off, step;

	for (off = 0; off < n; off += step) {
		step = n - off < SLICE ? n - off : SLICE;
		if (EVP_MAC_update(d->x.hmac, in + off, step) != 1 ||
		    !cbc(&d->x, in + off, step, out + off))
			return false;
	}
	d->plain += n;
	return true;
}

int
wa_media_dec_new(const uint8_t media_key[WA_MEDIA_KEY_LEN], const char *info,
    const uint8_t *file_enc_sha256, const uint8_t *file_sha256,
    uint64_t file_len, uint64_t max_len, struct wa_media_dec **out)
{
	struct wa_media_dec	*d;
	uint64_t		 base;
	int			 rc;

	if (info == NULL || out == NULL || media_key == NULL)
		return -EINVAL;
	if (file_len != WA_MEDIA_LEN_UNKNOWN && file_len > max_len)
		return WC_ETOOBIG;
	d = xcalloc(1, sizeof(*d));
	if ((rc = passes_init(&d->x, media_key, info, false)) != 0) {
		free(d);
		return rc;
	}
	d->file_len = file_len;
	d->max_len = max_len;
	base = file_len != WA_MEDIA_LEN_UNKNOWN ? file_len : max_len;
	d->max_blob = base > UINT64_MAX - 2 * BLOCK ? UINT64_MAX :
	    wa_media_blob_len(base);
	if ((d->has_enc = file_enc_sha256 != NULL))
		memcpy(d->enc_sha256, file_enc_sha256, WA_MEDIA_HASH_LEN);
	if ((d->has_plain = file_sha256 != NULL))
		memcpy(d->sha256, file_sha256, WA_MEDIA_HASH_LEN);
	*out = d;
	return 0;
}

/* A failed context keeps no thread: the pipe's worker joined here. */
static int
dec_fail(struct wa_media_dec *d, int rc)
{
	d->st = ST_FAILED;
	wa_media_pipe_abort(d->x.pipe);
	return rc;
}

static int
enc_fail(struct wa_media_enc *e, int rc)
{
	e->st = ST_FAILED;
	wa_media_pipe_abort(e->x.pipe);
	return rc;
}

/* Decrypt what in[0..len) completes into out[0..*out_len), keeping the
 * last block, the MAC and a partial block back in d->held. */
static bool
dec_take(struct wa_media_dec *d, const uint8_t *in, size_t len, uint8_t *out,
    size_t *out_len)
{
	size_t	 avail, proc, take, hb, rest;

	*out_len = 0;
	avail = d->nheld + len;
	if (avail < KEEP + BLOCK) {
		memcpy(d->held + d->nheld, in, len);
		d->nheld = avail;
		return true;
	}
	/* The most whole blocks that leave KEEP bytes or more behind. */
	proc = (avail - KEEP) / BLOCK * BLOCK;
	if (d->nheld >= proc) {
		if (!dec_blocks(d, d->held, proc, out))
			return false;
		memmove(d->held, d->held + proc, d->nheld - proc);
		d->nheld -= proc;
		memcpy(d->held + d->nheld, in, len);
		d->nheld += len;
		*out_len = proc;
		return true;
	}
	hb = (d->nheld + BLOCK - 1) / BLOCK * BLOCK;
	take = hb - d->nheld;
	if (hb > 0) {
		memcpy(d->held + d->nheld, in, take);
		if (!dec_blocks(d, d->held, hb, out))
			return false;
	}
	if (!dec_blocks(d, in + take, proc - hb, out + hb))
		return false;
	rest = avail - proc;
	memcpy(d->held, in + len - rest, rest);
	d->nheld = rest;
	*out_len = proc;
	return true;
}

int
wa_media_dec_update(struct wa_media_dec *d, const uint8_t *in, size_t len,
    uint8_t *out, size_t out_cap, size_t *out_len)
{
	int	 rc;

	if (d->st != ST_OPEN)
		return WC_ESTATE;
	if (out_cap < len || out_cap - len < WA_MEDIA_STREAM_SLACK)
		return -EINVAL;
	if (len > d->max_blob - d->fed)
		return dec_fail(d, WC_ETOOBIG);
	d->fed += len;
	if (!dec_take(d, in, len, out, out_len))
		return dec_fail(d, WC_ECRYPTO);
	/* fileEncSha256 over the input, fileSha256 over the output. */
	if ((rc = wa_media_pipe_add(d->x.pipe, in, len, out, *out_len)) != 0)
		return dec_fail(d, rc);
	return 0;
}

int
wa_media_dec_feed(struct wa_media_dec *d, const uint8_t *in, size_t len,
    wa_media_sink_fn sink, void *arg)
{
	size_t	 off = 0, step, n;
	int	 rc;

	if (sink == NULL)
		return -EINVAL;
	if (d->scratch == NULL)
		d->scratch = xmalloc(SLICE + WA_MEDIA_STREAM_SLACK);
	do {
		step = len - off < SLICE ? len - off : SLICE;
		if ((rc = wa_media_dec_update(d, in + off, step, d->scratch,
		    SLICE + WA_MEDIA_STREAM_SLACK, &n)) != 0)
			return rc;
		if (n > 0 && (rc = sink(arg, d->scratch, n)) != 0)
			return dec_fail(d, rc);
		off += step;
	} while (off < len);
	return 0;
}

/* Checks 3..6 of wa_media_dec_finish on the last block d->held[0..16). */
static int
dec_last(struct wa_media_dec *d, uint8_t last[BLOCK], size_t *n,
    const char **w)
{
	uint8_t		 h[EVP_MAX_MD_SIZE];
	size_t		 hl, pad, i;
	unsigned int	 ul;
	uint64_t	 total;
	uint8_t		 bad;

	if (EVP_MAC_update(d->x.hmac, d->held, BLOCK) != 1 ||
	    EVP_MAC_final(d->x.hmac, h, &hl, sizeof(h)) != 1 ||
	    hl != WA_CRYPTO_HASH_LEN)
		return WC_ECRYPTO;
	if (CRYPTO_memcmp(h, d->held + BLOCK, WA_MEDIA_MAC_LEN) != 0) {
		*w = "media MAC does not verify (wrong key or tampered blob)";
		return WC_EBADMAC;
	}
	if (!cbc(&d->x, d->held, BLOCK, last))
		return WC_ECRYPTO;
	/* The MAC has passed: timing here tells nothing new. */
	pad = last[BLOCK - 1];
	bad = pad == 0 || pad > BLOCK;
	for (i = 0; !bad && i < pad; i++)
		bad |= last[BLOCK - 1 - i] != pad;
	if (bad) {
		*w = "bad PKCS#7 padding after decryption";
		return WC_EPADDING;
	}
	*n = BLOCK - pad;
	if (EVP_DigestUpdate(d->x.plain_sha, last, *n) != 1 ||
	    EVP_DigestFinal_ex(d->x.plain_sha, h, &ul) != 1)
		return WC_ECRYPTO;
	if (d->has_plain && CRYPTO_memcmp(h, d->sha256, sizeof(d->sha256))) {
		*w = "SHA-256 of the plaintext differs from fileSHA256";
		return WC_EFILEHASH;
	}
	total = d->plain + *n;
	if (d->file_len != WA_MEDIA_LEN_UNKNOWN && total != d->file_len) {
		*w = total < d->file_len ? "media file is shorter than its "
		    "declared fileLength" : "media file is longer than its "
		    "declared fileLength";
		return total < d->file_len ? WC_EPROTO : WC_ETOOBIG;
	}
	if (total > d->max_len) {
		*w = "media file is larger than the caller's cap";
		return WC_ETOOBIG;
	}
	return 0;
}

int
wa_media_dec_finish(struct wa_media_dec *d, uint8_t out[16], size_t *out_len,
    const char **why)
{
	uint8_t		 h[EVP_MAX_MD_SIZE], last[BLOCK];
	unsigned int	 hl;
	const char	*w = "the crypto library failed";
	size_t		 n = 0;
	int		 rc;

	if (d->st != ST_OPEN) {
		w = "media decryption already ended";
		rc = WC_ESTATE;
		goto fail;
	}
	/* The worker joined, both digests are this thread's again. */
	if (wa_media_pipe_drain(d->x.pipe) != 0 ||
	    EVP_DigestFinal_ex(d->x.enc_sha, h, &hl) != 1) {
		rc = dec_fail(d, WC_ECRYPTO);
		goto fail;
	}
	if (d->has_enc && CRYPTO_memcmp(h, d->enc_sha256, WA_MEDIA_HASH_LEN)) {
		w = "SHA-256 of the download is not fileEncSHA256";
		rc = dec_fail(d, WC_EENCHASH);
		goto fail;
	}
	if (d->nheld != KEEP) {
		w = "media blob is not whole AES blocks plus a 10-byte MAC";
		rc = dec_fail(d, WC_ETRUNC);
		goto fail;
	}
	if ((rc = dec_last(d, last, &n, &w)) != 0) {
		wa_crypto_wipe(last, sizeof(last));
		rc = dec_fail(d, rc);
		goto fail;
	}
	memcpy(out, last, n);
	wa_crypto_wipe(last, sizeof(last));
	d->plain += n;
	d->st = ST_DONE;
	*out_len = n;
	return 0;
fail:
	if (why != NULL)
		*why = w;
	return rc;
}

uint64_t
wa_media_dec_plain_len(const struct wa_media_dec *d)
{
	return d->plain;
}

void
wa_media_dec_free(struct wa_media_dec *d)
{
	if (d == NULL)
		return;
	passes_release(&d->x);
	if (d->scratch != NULL) {
		wa_crypto_wipe(d->scratch, SLICE + WA_MEDIA_STREAM_SLACK);
		free(d->scratch);
	}
	wa_crypto_wipe(d, sizeof(*d));
	free(d);
}

int
wa_media_enc_new(const uint8_t media_key[WA_MEDIA_KEY_LEN], const char *info,
    struct wa_media_enc **out)
{
	struct wa_media_enc	*e;
	int			 rc;

	if (info == NULL || out == NULL || media_key == NULL)
		return -EINVAL;
	e = xcalloc(1, sizeof(*e));
	if ((rc = passes_init(&e->x, media_key, info, true)) != 0) {
		free(e);
		return rc;
	}
	*out = e;
	return 0;
}

/* Encrypt whole blocks in[0..n) into out (slices: OpenSSL takes an int). */
static bool
enc_blocks(struct wa_media_enc *e, const uint8_t *in, size_t n, uint8_t *out)
{
	size_t	 off, step;

	for (off = 0; off < n; off += step) {
		step = n - off < SLICE ? n - off : SLICE;
		if (!cbc(&e->x, in + off, step, out + off))
			return false;
	}
	return true;
}

int
wa_media_enc_update(struct wa_media_enc *e, const uint8_t *in, size_t len,
    uint8_t *out, size_t out_cap, size_t *out_len)
{
	size_t	 avail, proc, take = 0, o = 0, rest;
	int	 rc;

	if (e->st != ST_OPEN)
		return WC_ESTATE;
	if (out_cap < len || out_cap - len < BLOCK)
		return -EINVAL;
	e->plain += len;
	*out_len = 0;
	avail = e->nheld + len;
	if (avail < BLOCK) {
		memcpy(e->held + e->nheld, in, len);
		e->nheld = avail;
		proc = 0;
		goto hash;
	}
	proc = avail / BLOCK * BLOCK;
	if (e->nheld > 0) {
		take = BLOCK - e->nheld;
		memcpy(e->held + e->nheld, in, take);
		o = BLOCK;
		if (!enc_blocks(e, e->held, BLOCK, out))
			goto fail;
	}
	if (!enc_blocks(e, in + take, proc - o, out + o))
		goto fail;
	rest = avail - proc;
	memcpy(e->held, in + len - rest, rest);
	e->nheld = rest;
	*out_len = proc;
hash:
	/* fileSha256 over the input, fileEncSha256 over the output. */
	if ((rc = wa_media_pipe_add(e->x.pipe, in, len, out, proc)) != 0)
		return enc_fail(e, rc);
	return 0;
fail:
	return enc_fail(e, WC_ECRYPTO);
}

int
wa_media_enc_finish(struct wa_media_enc *e, uint8_t out[WA_MEDIA_ENC_TAIL],
    struct wa_media_enc_result *r)
{
	uint8_t		 h[EVP_MAX_MD_SIZE];
	uint8_t		 pad = (uint8_t)(BLOCK - e->nheld);
	size_t		 hl;
	unsigned int	 ul;
	bool		 ok;

	if (e->st != ST_OPEN)
		return WC_ESTATE;
	memset(e->held + e->nheld, pad, pad);
	/* The worker joined: the digests are this thread's again. */
	ok = wa_media_pipe_drain(e->x.pipe) == 0 &&
	    enc_blocks(e, e->held, BLOCK, out) &&
	    EVP_MAC_update(e->x.hmac, out, BLOCK) == 1 &&
	    EVP_MAC_final(e->x.hmac, h, &hl, sizeof(h)) == 1 &&
	    hl == WA_CRYPTO_HASH_LEN;
	if (ok) {
		memcpy(out + BLOCK, h, WA_MEDIA_MAC_LEN);
		ok = EVP_DigestUpdate(e->x.enc_sha, out, WA_MEDIA_ENC_TAIL) ==
		    1 &&
		    EVP_DigestFinal_ex(e->x.enc_sha, r->file_enc_sha256,
		    &ul) == 1 &&
		    EVP_DigestFinal_ex(e->x.plain_sha, r->file_sha256,
		    &ul) == 1;
	}
	wa_crypto_wipe(e->held, sizeof(e->held));
	if (!ok)
		return enc_fail(e, WC_ECRYPTO);
	r->file_len = e->plain;
	r->blob_len = wa_media_blob_len(e->plain);
	e->st = ST_DONE;
	return 0;
}

void
wa_media_enc_free(struct wa_media_enc *e)
{
	if (e == NULL)
		return;
	passes_release(&e->x);
	wa_crypto_wipe(e, sizeof(*e));
	free(e);
}
