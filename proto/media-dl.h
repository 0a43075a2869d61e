/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-dl.h -- downloading one media file (protocol-features.md
 * 1.5) in constant memory: libcurl on a libuv worker thread, as
 * proto/http-get.c does (uv_queue_work; the loop never waits), the body
 * streamed through the decrypt context of proto/media-stream.h into a
 * temp file (0600) in a given directory, which is fsynced and linked to
 * the final path (never replacing a file) only when every check passes; and the media retry
 * request and answer (1.8) for a URL that has expired.
 *
 * Threads: wa_media_dl_start() and wa_media_dl_cancel() on the loop's
 * thread; the done and progress callbacks run there too.  The file
 * helpers (wa_media_out_*, wa_media_dl_fd) and the retry functions are
 * pure over their arguments (plus the file system for the former) and
 * callable from any thread.
 */
#ifndef WA_MEDIA_DL_H
#define WA_MEDIA_DL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/err.h"
#include "proto/bin.h"
#include "proto/media.h"

struct uv_loop_s;
struct wa_media_dl;

#define WA_MEDIA_URL_MAX	4096	/* bytes of a media URL, with NUL */
#define WA_MEDIA_HOST_MAX	256	/* bytes of a host name, with NUL */
#define WA_MEDIA_DL_MORE_MAX	3	/* URLs after the first */

/*
 * The download URL of 1.5 in the form section 6 recommends ([WM]):
 * "https://HOST" DIRECT_PATH ("?" or "&") "hash=" B64 "&mms-type=" MMS
 * "&__wa-mms=", B64 the unpadded base64url of file_enc_sha256 (32 bytes;
 * as proto/hsync.c and the sim's media host read it).  host: letters,
 * digits, '.', '-' and ':' only; direct_path starts with '/'; mms_type
 * ("image", "audio", "video", "document", ...; 1.2) letters, digits and
 * '-'.  Written to out[0..len) with a NUL.  Returns 0.  Errors: -EINVAL
 * (a NULL, a bad host, path or type), WC_ETOOBIG (does not fit).
 */
MUST_CHECK int	wa_media_dl_url(const char *host, const char *direct_path,
		    const uint8_t file_enc_sha256[WA_MEDIA_HASH_LEN],
		    const char *mms_type, char *out, size_t len);

/* --- the temp file --- */

/* A temp file being written; its fields are this module's. */
struct wa_media_out {
	int		 fd;		/* -1 when closed */
	char		*tmp;		/* its path */
	uint64_t	 written;	/* bytes */
	uint64_t	 flushed;	/* bytes handed to writeback */
};

/*
 * Create a temp file ".wachat-dl-XXXXXX" in dir (mode 0600) into *o.
 * Returns 0.  Errors: -EINVAL (NULL), -errno of mkstemp.
 */
MUST_CHECK int	wa_media_out_open(const char *dir, struct wa_media_out *o);

/* Append p[0..len) (a wa_media_sink_fn: arg is the struct wa_media_out).
 * Returns 0 or -errno of write (-ENOSPC, -EIO). */
int		wa_media_out_write(void *arg, const uint8_t *p, size_t len);

/*
 * fsync and close o's file, put it under final_path without ever
 * replacing a file of that name (link(2) then unlink of the temp name;
 * renameat2 RENAME_NOREPLACE where the file system has no hard links)
 * and fsync the directory it is in.  Returns 0.  Errors: -EEXIST
 * (final_path exists: pick another name), -errno (the temp file is
 * removed then).  o is released either way.
 */
MUST_CHECK int	wa_media_out_commit(struct wa_media_out *o,
		    const char *final_path);

/* Close and remove o's file and release o.  Safe on a released o. */
void		wa_media_out_discard(struct wa_media_out *o);

/* --- a download --- */

/* How a download ended. */
enum wa_media_dl_end {
	WA_MEDIA_DL_OK,		/* final_path holds the verified file */
	WA_MEDIA_DL_EXPIRED,	/* HTTP 404 or 410: ask for a re-upload
				 * (wa_media_retry_build) */
	WA_MEDIA_DL_CORRUPT,	/* a check failed (err says which) or the
				 * body is longer than declared */
	WA_MEDIA_DL_TOOBIG,	/* declared, or Content-Length, over the
				 * cap: nothing of the body was read */
	WA_MEDIA_DL_HTTP,	/* another HTTP status (401/403: refresh
				 * media_conn; others: the next host) */
	WA_MEDIA_DL_NETWORK,	/* network, TLS or timeout: retry */
	WA_MEDIA_DL_LOCAL,	/* the temp file or the rename failed */
};

/* What to fetch and how to check it.  Pointers borrowed for the call of
 * wa_media_dl_start() (copied). */
struct wa_media_dl_req {
	const char	*url;		/* http:// or https:// (wa_media_dl_url) */
	const char	*more_urls[WA_MEDIA_DL_MORE_MAX]; /* the same file on
					 * the next media_conn hosts, tried in
					 * order after a network error, an
					 * HTTP status but 401/403/404/410, or
					 * a fileEncSHA256 mismatch (1.5), each
					 * into a fresh temp file; NULL after
					 * the last */
	const char	*ca_file;	/* PEM added to the system's CAs, or
					 * NULL */
	const char	*dir;		/* where the temp file goes */
	const char	*final_path;	/* renamed to on success */
	bool		 free_name;	/* final_path taken at the rename: the
					 * first free of its "-1" .. "-999"
					 * names (wa_media_name_nth), chosen
					 * atomically (link(2) fails EEXIST:
					 * the next); wa_media_dl_path() says
					 * which */
	const uint8_t	*media_key;	/* WA_MEDIA_KEY_LEN bytes */
	const char	*info;		/* WA_MEDIA_INFO_* */
	const uint8_t	*file_enc_sha256; /* 32 bytes, or NULL (no check) */
	const uint8_t	*file_sha256;	/* 32 bytes, or NULL */
	uint64_t	 file_len;	/* declared; WA_MEDIA_LEN_UNKNOWN */
	uint64_t	 max_len;	/* the caller's cap (max-media-size) */
	uint32_t	 connect_timeout_ms;	/* > 0 */
	uint32_t	 stall_timeout_ms;	/* no byte for so long: fail;
						 * > 0 */
};

/*
 * Called once on the loop's thread when the download ends (never after
 * wa_media_dl_cancel()), with the end of the last URL tried.  err: 0 for WA_MEDIA_DL_OK, else the cause: a
 * check's code of wa_media_dec_finish() for CORRUPT, WC_ETOOBIG for
 * TOOBIG (and for a body longer than declared), -ENOENT for EXPIRED,
 * -EPROTO for HTTP, -EIO or -ETIMEDOUT for NETWORK, -errno for LOCAL.
 * status is the HTTP status (0 when none came).  why is an English
 * sentence for the log (host only: no query, no key), borrowed for the
 * call.  No temp file is left when end is not OK.
 */
typedef void	(*wa_media_dl_done_fn)(void *arg, enum wa_media_dl_end end,
		    int err, long status, const char *why);

/*
 * Progress on the loop's thread, coalesced (not every chunk): done bytes
 * of the blob received so far from the URL being tried (0 again when the
 * next one starts) of total (the blob's length from the
 * declared fileLength, else Content-Length, else 0 when unknown).
 * Never after done or cancel.
 */
typedef void	(*wa_media_dl_progress_fn)(void *arg, uint64_t done,
		    uint64_t total);

/*
 * Start downloading r on loop.  done (not NULL) reports; progress may be
 * NULL.  Returns 0 and *out, a handle for wa_media_dl_cancel() valid
 * until done runs.  Errors (nothing started, done not called): -EINVAL
 * (a NULL field, a URL not http(s), a timeout of 0), WC_ETOOBIG (file_len over
 * max_len: refused before any request), -errno of the temp file (made
 * here, before the request), WC_ECRYPTO, libuv's errors.  Loop thread
 * only.
 */
MUST_CHECK int	wa_media_dl_start(struct uv_loop_s *loop,
		    const struct wa_media_dl_req *r, wa_media_dl_done_fn done,
		    wa_media_dl_progress_fn progress, void *arg,
		    struct wa_media_dl **out);

/*
 * The path d's file took: final_path, or with free_name the "-N" name
 * the rename found free.  Borrowed from d; meant for done's call with
 * WA_MEDIA_DL_OK (before that it is final_path).  NULL gives "".  Loop
 * thread.
 */
const char	*wa_media_dl_path(const struct wa_media_dl *d);

/*
 * Stop d: done and progress are not called again; the worker ends soon,
 * removes the temp file and frees d.  A cancel that comes after the file
 * was renamed (the worker had finished) leaves final_path in place.
 * NULL is a no-op.  Loop thread.
 */
void		wa_media_dl_cancel(struct wa_media_dl *d);

/*
 * The receive path without the network: read the blob from fd to its
 * end in chunks of 256 KiB through the decrypt context of r's keys,
 * hashes and lengths into a temp file in r->dir, committed to
 * r->final_path (or, with free_name, its first free "-N" name) when
 * every check passes (r's url, ca_file and timeouts
 * are not used).  For the bench and the tests; any thread.  Returns 0.
 * Errors: those of wa_media_dec_new/update/finish (the temp file
 * removed), -errno of read, of the temp file and of the commit.
 */
MUST_CHECK int	wa_media_dl_fd(int fd, const struct wa_media_dl_req *r,
		    const char **why);

/* --- media retry (1.8) --- */

#define WA_MEDIA_RETRY_ID_MAX	128	/* bytes of a message id */
#define WA_MEDIA_RETRY_IV_LEN	12
#define WA_MEDIA_RETRY_MAX	4096	/* bytes of an answer's enc_p */

/* The request's parts.  Strings borrowed. */
struct wa_media_retry_req {
	const char	*msg_id;	/* the media message's id */
	const char	*own_jid;	/* own PN user, non-AD:
					 * "N@s.whatsapp.net" */
	const char	*chat_jid;	/* the chat of the message */
	const char	*participant;	/* the sender in a group, or NULL */
	bool		 from_me;
	const uint8_t	*media_key;	/* 32 bytes of the message */
	const uint8_t	*iv;		/* 12 random bytes (caller's RNG) */
};

/*
 * Build <receipt id to type="server-error"><encrypt><enc_p/><enc_iv/>
 * </encrypt><rmr jid from_me [participant]/></receipt> (1.8): enc_p =
 * AES-256-GCM(HKDF(media_key, "WhatsApp Media Retry Notification", 32),
 * iv, ServerErrorReceipt{stanzaID = msg_id}, AAD msg_id) ‖ tag.  The node
 * and its bytes are allocated in a.  Returns 0 and *out.  Errors:
 * -EINVAL (a NULL, an empty id or one over WA_MEDIA_RETRY_ID_MAX - 1
 * bytes, a JID that does not parse), WC_ECRYPTO.  *out untouched on
 * error.
 */
MUST_CHECK int	wa_media_retry_build(struct arena *a,
		    const struct wa_media_retry_req *r, struct wa_node **out);

/* The answer's result (MediaRetryNotification.result, and <error code>). */
enum wa_media_retry_result {
	WA_MEDIA_RETRY_GENERAL_ERROR = 0,
	WA_MEDIA_RETRY_SUCCESS = 1,
	WA_MEDIA_RETRY_NOT_FOUND = 2,		/* not on the phone */
	WA_MEDIA_RETRY_DECRYPTION_ERROR = 3,
};

/* A parsed answer; strings point into a. */
struct wa_media_retry_ans {
	const char	*msg_id;	/* the notification's id */
	enum wa_media_retry_result result;
	const char	*direct_path;	/* on SUCCESS: the new directPath
					 * (starts with '/'); else NULL */
};

/*
 * Read a <notification type="mediaretry"> n (1.8) for media_key: its
 * <encrypt> decrypted (AAD = the id) and MediaRetryNotification read
 * (its stanzaID must equal the id), or its <error code="N">.  Strings
 * copied into a.  Returns 0 and *out.  Errors: -EINVAL (NULL, not a
 * mediaretry notification), WC_EPROTO (no id, neither child, a bad code,
 * an iv not 12 bytes, a stanzaID that is not the id, SUCCESS without a
 * direct path starting with '/'), WC_ETOOBIG (enc_p over
 * WA_MEDIA_RETRY_MAX), WC_EBADMAC (does not decrypt: another key),
 * WC_ETRUNC (a field runs past the end).  *out untouched on error.
 */
MUST_CHECK int	wa_media_retry_parse(struct arena *a,
		    const struct wa_node *n, const uint8_t *media_key,
		    struct wa_media_retry_ans *out);

#endif
