/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-media.h -- part of store/store.h (included at its end): a
 * message's media (table media, schema migration 15; store/media.c;
 * protocol-features.md 1.6): what the screen shows,
 * what a download needs, the download and upload states.  Stored with
 * its message (store/store.h struct store_msg_new.media, in the same
 * savepoint), read and updated here.  Every function runs on the
 * thread that owns the store, as store/store.h says.
 */
#ifndef WC_STORE_MEDIA_H
#define WC_STORE_MEDIA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct store;

/* Media types (protocol-features.md 1.6; the numbers of proto/msg.h
 * enum wa_msg_media_type, kept in the media table's type column). */
enum store_media_type {
	STORE_MEDIA_IMAGE = 1,
	STORE_MEDIA_VIDEO = 2,
	STORE_MEDIA_GIF = 3,		/* video with gifPlayback */
	STORE_MEDIA_PTV = 4,		/* round video note */
	STORE_MEDIA_AUDIO = 5,
	STORE_MEDIA_PTT = 6,		/* voice note */
	STORE_MEDIA_DOCUMENT = 7,
	STORE_MEDIA_STICKER = 8,
};

/* Where the download of a media file stands. */
enum store_dl_state {
	STORE_DL_NONE = 0,		/* not fetched */
	STORE_DL_DOWNLOADING = 1,
	STORE_DL_DONE = 2,		/* path holds the file */
	STORE_DL_FAILED = 3,		/* a network or disk error; may retry */
	STORE_DL_CORRUPT = 4,		/* a hash or the MAC did not match */
	STORE_DL_EXPIRED = 5,		/* 404/410: needs a re-upload (1.8) */
};

/* Where the upload of our own media send stands. */
enum store_ul_state {
	STORE_UL_NONE = 0,		/* not ours, or not started */
	STORE_UL_UPLOADING = 1,
	STORE_UL_DONE = 2,
	STORE_UL_FAILED = 3,
};

#define STORE_MEDIA_THUMB_MAX	(64 << 10)	/* bytes of a thumbnail */
#define STORE_MEDIA_BLOB_MAX	256	/* bytes of a waveform, key, hash */
#define STORE_MEDIA_STR_MAX	4096	/* bytes of a path, URL, mimetype,
					 * file name */

/*
 * A message's media (table media, migration 15).  Given to the store:
 * every pointer borrowed for the call, NULL strings stored as "", NULL
 * byte arrays (with length 0) stored as absent.  Read back
 * (store_media_get()): owned by the struct, strings never NULL ("" when
 * empty), byte arrays NULL when absent; free with store_media_release().
 */
struct store_media {
	enum store_media_type type;
	bool		 animated;	/* sticker: animated WebP */
	char		*mimetype;
	int64_t		 size;		/* bytes of the file (fileLength) */
	uint32_t	 width, height;	/* pixels; 0 unknown */
	uint32_t	 seconds;	/* audio, video; 0 unknown */
	uint32_t	 pages;		/* document; 0 unknown */
	char		*caption;	/* <= STORE_MSG_TEXT_MAX bytes */
	char		*file_name;	/* document */
	uint8_t		*thumb;		/* <= STORE_MEDIA_THUMB_MAX bytes */
	size_t		 thumb_len;
	uint8_t		*waveform;	/* voice note; <= STORE_MEDIA_BLOB_MAX */
	size_t		 waveform_len;
	uint8_t		*media_key;	/* 32 bytes (1.2) */
	size_t		 media_key_len;
	char		*direct_path;
	char		*url;
	uint8_t		*file_sha256;	/* 32 bytes */
	size_t		 file_sha256_len;
	uint8_t		*file_enc_sha256; /* 32 bytes */
	size_t		 file_enc_sha256_len;
	int64_t		 key_ts;	/* mediaKeyTimestamp, unix s; 0 none */
	enum store_dl_state dl_state;
	char		*path;		/* the downloaded file; "" none */
	enum store_ul_state ul_state;
};

/*
 * The media of message (chat, from_me, id) (store_msg_new.media, then
 * the download and upload states) into *out, freed with
 * store_media_release().  Returns 1 and *out, 0 (no such message, or it
 * has no media row), -EINVAL (a NULL or too long argument) or -EIO.
 * Thread: the store's.
 */
MUST_CHECK int	store_media_get(struct store *s, const char *chat,
		    bool from_me, const char *id, struct store_media *out);

/* Free what m owns and zero it (NULL or zeroed: a no-op). */
void		store_media_release(struct store_media *m);

/*
 * The download of message (chat, from_me, id)'s media is now state; path
 * (the local file, <= STORE_MEDIA_STR_MAX bytes) is stored with
 * STORE_DL_DONE and must be NULL or "" otherwise (the stored path is
 * then cleared).  Returns 1 when a media row changed, 0 when the message
 * has none, -EINVAL (a bad state, DONE without a path, a path with
 * another state) or -EIO.
 */
MUST_CHECK int	store_media_set_download(struct store *s, const char *chat,
		    bool from_me, const char *id, enum store_dl_state state,
		    const char *path);

/*
 * The media of message (chat, from_me, id) was uploaded again by the
 * phone (the media retry of protocol-features.md 1.8): its direct path
 * (<= STORE_MEDIA_STR_MAX bytes, starting with '/') is now direct_path
 * and its stored URL, which named the old path, is cleared, so that a
 * later download asks the new path first.  Returns 1 when a media row
 * changed, 0 when the message has none, -EINVAL (a NULL, empty, too long
 * or relative path), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_media_set_direct_path(struct store *s, const char *chat,
		    bool from_me, const char *id, const char *direct_path);

/*
 * Every download the store says is running (STORE_DL_DOWNLOADING) is
 * set back to STORE_DL_NONE: called once at a start, before any
 * download, so that the rows a killed wachat left (kill -9, a crash:
 * wa_mget_free() did not run) can be downloaded again.  Returns the
 * number of rows reset (>= 0), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_media_dl_reset(struct store *s);

/*
 * The upload of our message (chat, id)'s media is now state.  Returns 1
 * when a media row changed, 0 when none, -EINVAL (a bad state) or -EIO.
 */
MUST_CHECK int	store_media_set_upload(struct store *s, const char *chat,
		    const char *id, enum store_ul_state state);

#endif
