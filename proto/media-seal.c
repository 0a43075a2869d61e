/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-seal.c -- a file to send encrypted into its upload blob in
 * a temp file, a chunk at a time (proto/media-seal.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/media-seal.h"

/* Start the disk's writeback every so many bytes, so the fsync at the end
 * waits for little and dirty pages do not pile up (Linux). */
#define FLUSH_EVERY	(8u << 20)

int
wa_media_seal_kind(enum wa_msg_media_type t, const char **info,
    const char **mms_type)
{
	switch (t) {
	case WA_MEDIA_IMAGE:
	case WA_MEDIA_STICKER:
		*info = WA_MEDIA_INFO_IMAGE;
		*mms_type = "image";
		return 0;
	case WA_MEDIA_VIDEO:
	case WA_MEDIA_GIF:
	case WA_MEDIA_PTV:
		*info = WA_MEDIA_INFO_VIDEO;
		*mms_type = "video";
		return 0;
	case WA_MEDIA_AUDIO:
	case WA_MEDIA_PTT:
		*info = WA_MEDIA_INFO_AUDIO;
		*mms_type = "audio";
		return 0;
	case WA_MEDIA_DOCUMENT:
		*info = WA_MEDIA_INFO_DOCUMENT;
		*mms_type = "document";
		return 0;
	case WA_MEDIA_NONE:
		break;
	}
	return -EINVAL;
}

/* All of p[0..n) to fd; 0 or -errno. */
static int
write_all(int fd, const uint8_t *p, size_t n)
{
	ssize_t	 w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* src's bytes through e into out; 0 or an error. */
static int
pump(int in, int out, struct wa_media_enc *e, struct wa_media_enc_result *r)
{
	static const size_t	 cap = WA_MEDIA_SEAL_CHUNK + 16;
	uint8_t			*buf = malloc(WA_MEDIA_SEAL_CHUNK);
	uint8_t			*ct = malloc(cap), tail[WA_MEDIA_ENC_TAIL];
	ssize_t			 n;
	size_t			 m = 0;
	uint64_t		 written = 0, flushed = 0;
	int			 rc = 0;

	if (buf == NULL || ct == NULL)
		rc = -ENOMEM;
	while (rc == 0) {
		if ((n = read(in, buf, WA_MEDIA_SEAL_CHUNK)) < 0) {
			if (errno != EINTR)
				rc = -errno;
			continue;
		}
		if (n == 0)
			break;
		if ((rc = wa_media_enc_update(e, buf, (size_t)n, ct, cap,
		    &m)) == 0)
			rc = write_all(out, ct, m);
		written += m;
#ifdef SYNC_FILE_RANGE_WRITE
		if (rc == 0 && written - flushed >= FLUSH_EVERY) {
			/* Advisory: an error here shows again at the fsync. */
			(void)sync_file_range(out, (off_t)flushed,
			    (off_t)(written - flushed), SYNC_FILE_RANGE_WRITE);
			flushed = written;
		}
#endif
	}
	if (rc == 0 && (rc = wa_media_enc_finish(e, tail, r)) == 0 &&
	    (rc = write_all(out, tail, sizeof(tail))) == 0 && fsync(out) != 0)
		rc = -errno;
	free(buf);
	free(ct);
	return rc;
}

int
wa_media_seal_file(const char *src, const char *dir, enum wa_msg_media_type t,
    const uint8_t media_key[WA_MEDIA_KEY_LEN],
    char blob_path[WA_MEDIA_SEAL_PATH_MAX], struct wa_media_enc_result *r)
{
	struct wa_media_enc	*e = NULL;
	const char		*info, *mms;
	int			 in, out, rc, n;

	if (src == NULL || dir == NULL || media_key == NULL ||
	    blob_path == NULL || r == NULL)
		return -EINVAL;
	if ((rc = wa_media_seal_kind(t, &info, &mms)) != 0)
		return rc;
	n = snprintf(blob_path, WA_MEDIA_SEAL_PATH_MAX, "%s/wachat-ul-XXXXXX",
	    dir);
	if (n < 0 || (size_t)n >= WA_MEDIA_SEAL_PATH_MAX)
		return WC_ETOOBIG;
	if ((in = open(src, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if ((out = mkstemp(blob_path)) < 0) {
		rc = -errno;
		(void)close(in);
		return rc;
	}
	if ((rc = wa_media_enc_new(media_key, info, &e)) == 0)
		rc = pump(in, out, e, r);
	wa_media_enc_free(e);
	(void)close(in);
	if (close(out) != 0 && rc == 0)
		rc = -errno;
	if (rc != 0)
		(void)unlink(blob_path);
	return rc;
}
