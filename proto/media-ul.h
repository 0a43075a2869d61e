/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-ul.h -- uploading one encrypted media file
 * (protocol-features.md 1.4): the blob (enc ‖ mac10, written by the
 * encrypt context of proto/media-stream.h into a temp file) streamed from
 * its file to POST https://HOST/mms/TYPE/TOKEN?auth=AUTH&token=TOKEN,
 * TOKEN the unpadded base64url of fileEncSHA256 (section 6), each host of
 * media_conn tried in the caller's order (primaries first); the answer's
 * JSON read with json-c for url and direct_path.  libcurl on a libuv
 * worker thread as proto/http-get.c does; memory stays at curl's buffer
 * whatever the file's size.
 *
 * Threads: wa_media_ul_start() and wa_media_ul_cancel() on the loop's
 * thread; the callbacks run there too.  wa_media_ul_url() and
 * wa_media_ul_answer() are pure and callable from any thread.
 */
#ifndef WA_MEDIA_UL_H
#define WA_MEDIA_UL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "proto/media.h"

struct uv_loop_s;
struct wa_media_ul;

#define WA_MEDIA_UL_HOSTS_MAX	8	/* hosts tried, at most */
#define WA_MEDIA_UL_ANSWER_MAX	65536	/* bytes of an answer we read */
#define WA_MEDIA_UL_FIELD_MAX	2048	/* bytes of url, direct_path (NUL
					 * included) */

/*
 * The upload URL of 1.4 into out[0..len) with a NUL: scheme "https" (or
 * "http" when plain_http), host (letters, digits, '.', '-', ':'),
 * "/mms/" mms_type (letters, digits, '-'), the token twice and auth
 * percent-encoded.  Returns 0.  Errors: -EINVAL (a NULL, a bad host or
 * type, an empty auth), WC_ETOOBIG (does not fit).
 */
MUST_CHECK int	wa_media_ul_url(const char *host, const char *mms_type,
		    const uint8_t file_enc_sha256[WA_MEDIA_HASH_LEN],
		    const char *auth, bool plain_http, char *out, size_t len);

/*
 * Read an upload answer body[0..len) (JSON) into url and direct_path
 * (each WA_MEDIA_UL_FIELD_MAX bytes, NUL-terminated; "" when absent).
 * Returns 0 when at least one of them is there.  Errors: WC_ETOOBIG (len
 * over WA_MEDIA_UL_ANSWER_MAX, a field over WA_MEDIA_UL_FIELD_MAX - 1),
 * WC_EPROTO (not a JSON object; neither field; a field that is not a
 * string, has a control character, or a direct_path not starting with
 * '/').  The outputs are written only on success.
 */
MUST_CHECK int	wa_media_ul_answer(const char *body, size_t len,
		    char url[WA_MEDIA_UL_FIELD_MAX],
		    char direct_path[WA_MEDIA_UL_FIELD_MAX]);

/* What to upload.  Pointers borrowed for the call (copied). */
struct wa_media_ul_req {
	const char	*hosts[WA_MEDIA_UL_HOSTS_MAX];	/* in order; NULL
					 * after the last; at least one */
	const char	*auth;		/* media_conn's auth */
	const char	*mms_type;	/* "image", "video", "audio",
					 * "document" (1.2) */
	const char	*path;		/* the blob's file */
	const uint8_t	*file_enc_sha256;	/* 32 bytes */
	const char	*ca_file;	/* PEM added to the system's CAs, or
					 * NULL */
	bool		 plain_http;	/* http://, for a local test host */
	uint32_t	 connect_timeout_ms;	/* > 0 */
	uint32_t	 stall_timeout_ms;	/* no byte for so long: next
						 * host; > 0 */
};

/* How an upload ended. */
enum wa_media_ul_end {
	WA_MEDIA_UL_OK,		/* url and direct_path are set */
	WA_MEDIA_UL_AUTH,	/* HTTP 401 or 403: refresh media_conn and
				 * start again (no other host tried) */
	WA_MEDIA_UL_FAILED,	/* every host failed (the last cause in err,
				 * status, why) */
	WA_MEDIA_UL_LOCAL,	/* the file could not be read */
};

/*
 * Called once on the loop's thread when the upload ends (never after
 * wa_media_ul_cancel()).  err: 0 for OK; else -EPROTO (an HTTP status
 * other than 200, or an answer without url and direct_path), -EIO or
 * -ETIMEDOUT (network), -errno of the file.  status is the last HTTP
 * status (0 when none).  url and direct_path ("" when not OK; one may be
 * "" on OK) and why (an English sentence for the log, host only) are
 * borrowed for the call.
 */
typedef void	(*wa_media_ul_done_fn)(void *arg, enum wa_media_ul_end end,
		    int err, long status, const char *url,
		    const char *direct_path, const char *why);

/* Progress on the loop's thread, coalesced: bytes sent of total (the
 * blob's size), for the host being tried.  Never after done or cancel. */
typedef void	(*wa_media_ul_progress_fn)(void *arg, uint64_t sent,
		    uint64_t total);

/*
 * Start uploading r on loop; done (not NULL) reports, progress may be
 * NULL.  Returns 0 and *out, a handle for wa_media_ul_cancel() valid
 * until done runs.  Errors (done not called): -EINVAL (a NULL, no host,
 * a bad host or type, a timeout of 0), -errno of opening the file,
 * libuv's errors.  Loop thread only.
 */
MUST_CHECK int	wa_media_ul_start(struct uv_loop_s *loop,
		    const struct wa_media_ul_req *r, wa_media_ul_done_fn done,
		    wa_media_ul_progress_fn progress, void *arg,
		    struct wa_media_ul **out);

/* Stop u: no callback again; the worker ends soon and frees u.  An
 * upload the host had already taken stays there.  NULL is a no-op.
 * Loop thread only. */
void		wa_media_ul_cancel(struct wa_media_ul *u);

#endif
