/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-seal.h -- the file to send encrypted into the blob to
 * upload (issue 19; protocol-features.md 1.2-1.4): read in chunks
 * through the stream encrypt context (proto/media-stream.h) into a new
 * temp file in the caller's folder (the data dir), so memory stays at one
 * chunk (and the stream context's slots, proto/media-stream.h) whatever
 * the file's size, with the disk's writeback started every 8 MB; and the HKDF info and mms-type of each
 * media type (1.2).  Blocking file I/O: a worker or the CLI, not the
 * loop's thread; no shared state, any thread.
 */
#ifndef WA_MEDIA_SEAL_H
#define WA_MEDIA_SEAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "proto/media-stream.h"
#include "proto/media.h"
#include "proto/msg.h"

#define WA_MEDIA_SEAL_CHUNK	262144	/* bytes read at a time */
#define WA_MEDIA_SEAL_PATH_MAX	4096	/* bytes of the blob's path, NUL
					 * in */

/*
 * The HKDF info (WA_MEDIA_INFO_*) and the upload's mms-type ("image",
 * "video", "audio", "document") of media type t (1.2: a sticker is an
 * image, a GIF and a round video note a video, a voice note audio), both
 * static.  Returns 0.  Errors: -EINVAL (WA_MEDIA_NONE, an unknown type).
 */
MUST_CHECK int	wa_media_seal_kind(enum wa_msg_media_type t,
		    const char **info, const char **mms_type);

/*
 * Encrypt the regular file src with media_key (32 bytes from the
 * caller's CSPRNG) under the info of type t into a new file
 * dir/wachat-ul-XXXXXX (mode 0600, flushed with fsync), its path into
 * blob_path, and fill *r (the hashes and lengths of 1.3, as the message
 * and the upload take them).  The caller removes the blob when done.
 * Returns 0.  Errors: -EINVAL (a NULL; the type of
 * wa_media_seal_kind()), WC_ETOOBIG (the path does not fit), -errno of
 * open, read, write, fsync or mkstemp (e.g. -ENOENT, -ENOSPC),
 * WC_ECRYPTO; on error no blob is left.
 */
MUST_CHECK int	wa_media_seal_file(const char *src, const char *dir,
		    enum wa_msg_media_type t,
		    const uint8_t media_key[WA_MEDIA_KEY_LEN],
		    char blob_path[WA_MEDIA_SEAL_PATH_MAX],
		    struct wa_media_enc_result *r);

#endif
