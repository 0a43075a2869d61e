/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-seal.c -- wa_media_seal_file() and
 * wa_media_seal_kind() (proto/media-seal.c): a file of several chunks
 * sealed into a temp blob that wa_media_decrypt() opens with the hashes
 * the result gives (the same bytes as the one-shot encrypt), the kinds of
 * 1.2, and no blob left behind when it fails.
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/buf.h"
#include "proto/media-seal.h"

static char	 dir[] = "/tmp/wa-seal-XXXXXX";

/* The bytes of file path, its length in *n. */
static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE	*f = fopen(path, "rb");
	uint8_t	*p;
	long	 len;

	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	rewind(f);
	p = malloc((size_t)len + 1);
	assert_non_null(p);
	assert_int_equal(fread(p, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

static void
test_seal__a_multi_chunk_file_decrypts_with_its_hashes(void **state)
{
	static const size_t		 len = 3 * WA_MEDIA_SEAL_CHUNK + 1234;
	uint8_t				 key[32], enc_sha[32], sha[32];
	uint8_t				*plain = malloc(len), *blob;
	char				 src[256], bp[WA_MEDIA_SEAL_PATH_MAX];
	struct wa_media_enc_result	 r;
	struct buf			 out = BUF_INIT, ref = BUF_INIT;
	struct stat			 st;
	size_t				 i, n;
	FILE				*f;

	(void)state;
	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(i * 7 + 1);
	for (i = 0; i < len; i++)
		plain[i] = (uint8_t)(i * 131 + (i >> 9));
	snprintf(src, sizeof(src), "%s/photo.jpg", dir);
	assert_non_null(f = fopen(src, "wb"));
	assert_int_equal(fwrite(plain, 1, len, f), len);
	fclose(f);
	assert_int_equal(wa_media_seal_file(src, dir, WA_MEDIA_IMAGE, key, bp,
	    &r), 0);
	assert_int_equal(strncmp(bp, dir, strlen(dir)), 0);
	assert_int_equal(stat(bp, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(r.file_len, len);
	assert_int_equal(r.blob_len, (uint64_t)st.st_size);
	blob = slurp(bp, &n);
	assert_int_equal(wa_media_decrypt(key, WA_MEDIA_INFO_IMAGE, blob, n,
	    r.file_enc_sha256, r.file_sha256, len, &out, NULL), 0);
	assert_int_equal(out.len, len);
	assert_memory_equal(out.p, plain, len);
	/* The same bytes and hashes as the one-shot encrypt. */
	assert_int_equal(wa_media_encrypt(key, WA_MEDIA_INFO_IMAGE, plain, len,
	    &ref, enc_sha, sha), 0);
	assert_int_equal(ref.len, n);
	assert_memory_equal(ref.p, blob, n);
	assert_memory_equal(enc_sha, r.file_enc_sha256, 32);
	assert_memory_equal(sha, r.file_sha256, 32);
	/* Under another type's keys it does not open. */
	out.len = 0;
	assert_int_not_equal(wa_media_decrypt(key, WA_MEDIA_INFO_AUDIO, blob,
	    n, NULL, NULL, len, &out, NULL), 0);
	assert_int_equal(unlink(bp), 0);
	free(blob);
	free(plain);
	buf_release(&out);
	buf_release(&ref);
}

static void
test_kind__info_and_mms_type_of_each_type(void **state)
{
	const char	*info, *mms;

	(void)state;
	assert_int_equal(wa_media_seal_kind(WA_MEDIA_STICKER, &info, &mms), 0);
	assert_string_equal(info, WA_MEDIA_INFO_IMAGE);
	assert_string_equal(mms, "image");
	assert_int_equal(wa_media_seal_kind(WA_MEDIA_GIF, &info, &mms), 0);
	assert_string_equal(mms, "video");
	assert_int_equal(wa_media_seal_kind(WA_MEDIA_PTT, &info, &mms), 0);
	assert_string_equal(info, WA_MEDIA_INFO_AUDIO);
	assert_string_equal(mms, "audio");
	assert_int_equal(wa_media_seal_kind(WA_MEDIA_DOCUMENT, &info, &mms), 0);
	assert_string_equal(info, WA_MEDIA_INFO_DOCUMENT);
	assert_string_equal(mms, "document");
	assert_int_equal(wa_media_seal_kind(WA_MEDIA_NONE, &info, &mms),
	    -EINVAL);
}

static void
test_seal__fails_and_leaves_no_blob(void **state)
{
	uint8_t				 key[32] = { 1 };
	char				 bp[WA_MEDIA_SEAL_PATH_MAX], src[256];
	char				 cmd[128];
	struct wa_media_enc_result	 r;

	(void)state;
	snprintf(src, sizeof(src), "%s/none", dir);
	assert_int_equal(wa_media_seal_file(src, dir, WA_MEDIA_DOCUMENT, key,
	    bp, &r), -ENOENT);
	snprintf(src, sizeof(src), "%s/photo.jpg", dir);
	assert_int_equal(wa_media_seal_file(src, "/nonexistent-dir",
	    WA_MEDIA_DOCUMENT, key, bp, &r), -ENOENT);
	assert_int_equal(wa_media_seal_file(src, dir, WA_MEDIA_NONE, key, bp,
	    &r), -EINVAL);
	/* A folder cannot be read: no wachat-ul-* left in dir. */
	assert_int_not_equal(wa_media_seal_file(dir, dir, WA_MEDIA_DOCUMENT,
	    key, bp, &r), 0);
	snprintf(cmd, sizeof(cmd), "ls '%s' | grep -q wachat-ul-", dir);
	assert_int_not_equal(system(cmd), 0);
}

/* The folder of the test's files, made before and removed after. */
static int
group_setup(void **state)
{
	(void)state;
	return mkdtemp(dir) != NULL ? 0 : -1;
}

static int
group_teardown(void **state)
{
	char	 cmd[64];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		    test_seal__a_multi_chunk_file_decrypts_with_its_hashes),
		cmocka_unit_test(test_kind__info_and_mms_type_of_each_type),
		cmocka_unit_test(test_seal__fails_and_leaves_no_blob),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
