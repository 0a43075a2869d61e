/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-name.h -- where a downloaded media file goes (issue 19):
 * a safe file name from the sender's document name, or from the media
 * type and message id with the extension its mimetype has; a path in
 * the download folder that names no existing file ("-1", "-2" before
 * the extension); and the size settings max-media-size and
 * auto-download ("image:5M,ptt:2M").
 *
 * Text from the network (file names, mimetypes, message ids) is treated
 * as hostile: the output holds no '/', no control character (C0, DEL,
 * and C1 as UTF-8), and does not start with '.'.
 *
 * Threads: every function is pure over its arguments, except
 * wa_media_name_free(), which also reads the file system (lstat); all
 * are callable from any thread.  No function allocates.
 */
#ifndef WA_MEDIA_NAME_H
#define WA_MEDIA_NAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

#define WA_MEDIA_NAME_MAX	200	/* bytes of a file name, without NUL */
#define WA_MEDIA_NAME_TRIES	999	/* "-1" .. "-999", then give up */

/*
 * The extension (no dot) for a mimetype ("image/jpeg" -> "jpg"; the
 * parameters after ';' ignored, case ignored); "bin" for an unknown or
 * NULL one.  Returns a static string.
 */
const char	*wa_media_name_ext(const char *mimetype);

/*
 * A safe file name for a received file into out[0..len) with a NUL.
 * file_name (a document's fileName, may be NULL): its part after the
 * last '/' or '\\', control characters and invalid UTF-8 turned into
 * '_', leading '.', ' ' and '-' dropped, cut to WA_MEDIA_NAME_MAX bytes
 * on a character boundary.  When nothing is left, the name is
 * TYPE "-" ID "." EXT: type a word ("image", "document"; NULL: "file";
 * letters only kept), id the message id's letters and digits (NULL or
 * none: "0"), ext wa_media_name_ext(mimetype).
 * Returns the length written.  Errors: -EINVAL (out NULL or len 0),
 * WC_ETOOBIG (len too small for the name).
 */
MUST_CHECK int	wa_media_name_safe(const char *file_name,
		    const char *mimetype, const char *type,
		    const char *msg_id, char *out, size_t len);

/*
 * DIR "/" NAME into out[0..len) when no file of that name exists (lstat
 * says ENOENT), else the first of NAME with "-1" .. "-999" put before
 * its extension ("a.pdf" -> "a-1.pdf"; a name without '.' gets it at
 * the end) that does not.  name must be a wa_media_name_safe() result.
 * The check is not atomic: the caller renames without replacing
 * (link(2), or RENAME_NOREPLACE) and takes the next name on EEXIST
 * (wa_media_dl_req.free_name does).
 * Returns 0.  Errors: -EINVAL (a NULL, an empty dir or name, a '/' in
 * name), WC_ETOOBIG (does not fit), -EEXIST (every try exists), -errno
 * of lstat other than ENOENT.
 */
MUST_CHECK int	wa_media_name_free(const char *dir, const char *name,
		    char *out, size_t len);

/*
 * The i-th name of path into out[0..len): i 0 is path itself, else
 * "-I" put before the extension of its last component ("d/a.pdf", 2 ->
 * "d/a-2.pdf"; a component without '.', or only a leading one, gets it
 * at the end).  Pure.  Returns 0.  Errors: -EINVAL (a NULL, an empty
 * path), WC_ETOOBIG (does not fit).
 */
MUST_CHECK int	wa_media_name_nth(const char *path, unsigned i, char *out,
		    size_t len);

/*
 * A size setting: digits, then optionally K, M, G or T (powers of 1024,
 * case ignored) and an optional "B" or "iB" ("5M", "2GiB", "700k",
 * "1234").  *out in bytes.  Returns 0.  Errors: -EINVAL (NULL, empty,
 * no digits, another suffix, trailing text), WC_ETOOBIG (over
 * UINT64_MAX).
 */
MUST_CHECK int	wa_media_size_parse(const char *s, uint64_t *out);

/* Media kinds auto-download knows, by the words of the setting. */
enum wa_media_auto_kind {
	WA_MEDIA_AUTO_IMAGE,	/* "image" */
	WA_MEDIA_AUTO_VIDEO,	/* "video" (and GIFs, round videos) */
	WA_MEDIA_AUTO_AUDIO,	/* "audio" */
	WA_MEDIA_AUTO_PTT,	/* "ptt": voice messages */
	WA_MEDIA_AUTO_DOCUMENT,	/* "document" */
	WA_MEDIA_AUTO_STICKER,	/* "sticker" */
	WA_MEDIA_AUTO_KINDS
};

/* Up to what size each kind downloads by itself; 0: not at all. */
struct wa_media_auto {
	uint64_t	max[WA_MEDIA_AUTO_KINDS];	/* bytes */
};

/*
 * The auto-download setting: "none" (or empty), or a comma-separated
 * list of KIND ":" SIZE (KIND a word of enum wa_media_auto_kind, SIZE as
 * wa_media_size_parse; spaces around items allowed; a kind named twice:
 * the last wins) into *a (all 0 first).  Returns 0.  Errors: -EINVAL
 * (NULL, an unknown kind, a missing ':', a bad size; *a then all 0),
 * WC_ETOOBIG (an item over 63 bytes or a size over UINT64_MAX).
 */
MUST_CHECK int	wa_media_auto_parse(const char *s, struct wa_media_auto *a);

#endif
