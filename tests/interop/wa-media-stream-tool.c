/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/interop/wa-media-stream-tool.c -- the C side of tests/interop/
 * media-stream-check.mjs: the streaming contexts of proto/media-stream.c
 * against Baileys.  Binary input on stdin, read and fed in pieces of
 * CHUNK bytes; hex on stdout, one line:
 *
 *   sdecrypt TYPE KEY ENC SHA LEN CHUNK  blob -> "ok PLAINTEXT" or
 *                                        "error CODE WHY"
 *   sencrypt TYPE KEY CHUNK              plaintext -> "BLOB ENC_SHA256
 *                                        SHA256 LEN"
 *
 * TYPE is Baileys' media type name ("image", "audio", "document", ...);
 * KEY, ENC and SHA are hex, ENC and SHA may be "-"; LEN is the declared
 * plaintext length in decimal or "-".
 */
#include "base/compat.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/hex.h"
#include "proto/crypto.h"
#include "proto/media-stream.h"
#include "proto/media.h"

static const char *
info_of(const char *type)
{
	static const struct {
		const char	*type, *info;
	} m[] = {
		{ "image", WA_MEDIA_INFO_IMAGE },
		{ "sticker", WA_MEDIA_INFO_IMAGE },
		{ "video", WA_MEDIA_INFO_VIDEO },
		{ "ptv", WA_MEDIA_INFO_VIDEO },
		{ "audio", WA_MEDIA_INFO_AUDIO },
		{ "ptt", WA_MEDIA_INFO_AUDIO },
		{ "document", WA_MEDIA_INFO_DOCUMENT },
	};
	size_t	 i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		if (strcmp(m[i].type, type) == 0)
			return m[i].info;
	exit(2);
}

static uint8_t *
unhex(const char *s, uint8_t *out, size_t len)
{
	size_t	 i;
	int	 h, l;

	if (strcmp(s, "-") == 0)
		return NULL;
	if (strlen(s) != 2 * len)
		exit(2);
	for (i = 0; i < len; i++) {
		h = hex_digit(s[2 * i]);
		l = hex_digit(s[2 * i + 1]);
		if (h < 0 || l < 0)
			exit(2);
		out[i] = (uint8_t)(h << 4 | l);
	}
	return out;
}

static void
put_hex(const void *p, size_t len)
{
	struct buf	 h = BUF_INIT;

	hex_append(&h, p, len);
	fwrite(h.p != NULL ? h.p : (uint8_t *)"", 1, h.len, stdout);
	buf_release(&h);
}

static int
sdecrypt(char **argv, size_t chunk)
{
	uint8_t			 key[32], enc[32], sha[32];
	const uint8_t		*encp, *shap;
	uint64_t		 len;
	struct wa_media_dec	*d;
	struct buf		 out = BUF_INIT;
	uint8_t			*in = malloc(chunk), *o;
	const char		*why = "";
	size_t			 n, w;
	int			 rc;

	unhex(argv[3], key, 32);
	encp = unhex(argv[4], enc, 32);
	shap = unhex(argv[5], sha, 32);
	len = strcmp(argv[6], "-") == 0 ? WA_MEDIA_LEN_UNKNOWN :
	    strtoull(argv[6], NULL, 10);
	o = malloc(chunk + WA_MEDIA_STREAM_SLACK);
	if ((rc = wa_media_dec_new(key, info_of(argv[2]), encp, shap, len,
	    1u << 28, &d)) != 0) {
		printf("error %d new\n", rc);
		return 0;
	}
	while (rc == 0 && (n = fread(in, 1, chunk, stdin)) > 0)
		if ((rc = wa_media_dec_update(d, in, n, o, chunk +
		    WA_MEDIA_STREAM_SLACK, &w)) == 0)
			buf_append(&out, o, w);
	if (rc == 0 && (rc = wa_media_dec_finish(d, o, &w, &why)) == 0)
		buf_append(&out, o, w);
	if (rc != 0)
		printf("error %d %s\n", rc, why);
	else {
		printf("ok ");
		put_hex(out.p, out.len);
		putchar('\n');
	}
	wa_media_dec_free(d);
	buf_release(&out);
	free(in);
	free(o);
	return 0;
}

static int
sencrypt(char **argv, size_t chunk)
{
	uint8_t				 key[32], tail[WA_MEDIA_ENC_TAIL];
	struct wa_media_enc_result	 r;
	struct wa_media_enc		*e;
	struct buf			 out = BUF_INIT;
	uint8_t				*in = malloc(chunk), *o;
	size_t				 n, w;

	unhex(argv[3], key, 32);
	o = malloc(chunk + 16);
	if (wa_media_enc_new(key, info_of(argv[2]), &e) != 0)
		return 1;
	while ((n = fread(in, 1, chunk, stdin)) > 0) {
		if (wa_media_enc_update(e, in, n, o, chunk + 16, &w) != 0)
			return 1;
		buf_append(&out, o, w);
	}
	if (wa_media_enc_finish(e, tail, &r) != 0)
		return 1;
	buf_append(&out, tail, sizeof(tail));
	put_hex(out.p, out.len);
	putchar(' ');
	put_hex(r.file_enc_sha256, 32);
	putchar(' ');
	put_hex(r.file_sha256, 32);
	printf(" %llu\n", (unsigned long long)r.file_len);
	wa_media_enc_free(e);
	buf_release(&out);
	free(in);
	free(o);
	return 0;
}

int
main(int argc, char **argv)
{
	size_t	 chunk;

	if (argc < 3 || wa_crypto_init() != 0)
		return 2;
	if (strcmp(argv[1], "sdecrypt") == 0 && argc == 8) {
		chunk = strtoul(argv[7], NULL, 10);
		return chunk > 0 ? sdecrypt(argv, chunk) : 2;
	}
	if (strcmp(argv[1], "sencrypt") == 0 && argc == 5) {
		chunk = strtoul(argv[4], NULL, 10);
		return chunk > 0 ? sencrypt(argv, chunk) : 2;
	}
	return 2;
}
