/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-upload.h -- part of store/store.h (included at its end):
 * our own media messages while their file is uploaded (issue 19;
 * store/media-up.c; protocol-features.md 1.4).  Such a message is stored
 * before its upload (store_msg_insert_outgoing() with its media's
 * ul_state STORE_UL_UPLOADING and no payload yet): it shows in its chat
 * at once, QUEUED, and the outbox (store_msg_outbox()) leaves it out
 * while its upload runs (UPLOADING) or failed (FAILED).  The upload's
 * end gives it its payload in the same transaction that marks the
 * upload DONE, and only then may it be sent: once, under its id.  Every
 * function runs on the thread that owns the store, as store/store.h
 * says.
 */
#ifndef WC_STORE_UPLOAD_H
#define WC_STORE_UPLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct store;

/* What the media host gave for an upload (store_media_uploaded()).
 * Borrowed for the call. */
struct store_media_up {
	const char	*url;		/* <= STORE_MEDIA_STR_MAX bytes */
	const char	*direct_path;	/* <= STORE_MEDIA_STR_MAX bytes */
	const uint8_t	*file_sha256;	/* 32 bytes */
	const uint8_t	*file_enc_sha256; /* 32 bytes */
	const uint8_t	*payload;	/* the Message protobuf to send */
	size_t		 payload_len;	/* 1..STORE_MSG_PAYLOAD_MAX bytes */
};

/*
 * Our message (chat, id)'s upload ended well: its media row takes url,
 * direct_path and the hashes, ul_state DONE, and the message its
 * payload, in one transaction; a QUEUED message is then in the outbox.
 * Returns 1, 0 (no such message of ours, or its upload is not
 * UPLOADING: nothing changed), -EINVAL (a NULL, a too long string, no
 * payload or a hash missing), -ENOSPC or -EIO.
 */
MUST_CHECK int	store_media_uploaded(struct store *s, const char *chat,
		    const char *id, const struct store_media_up *u);

/*
 * Our message (chat, id)'s file is sealed (its blob kept in the data dir
 * until sent): its media row takes the hashes (32 bytes each), so that a
 * restart uploads the same blob without sealing it again.  Returns 1, 0
 * (no such message uploading), -EINVAL, -ENOSPC or -EIO.
 */
MUST_CHECK int	store_media_sealed(struct store *s, const char *chat,
		    const char *id, const uint8_t *file_sha256,
		    const uint8_t *file_enc_sha256);

/*
 * Our message (chat, id)'s upload failed: ul_state FAILED and the
 * message FAILED (from QUEUED), in one transaction.  Returns 1, 0 (no
 * such message uploading), -EINVAL, -ENOSPC or -EIO.
 */
MUST_CHECK int	store_media_upload_failed(struct store *s, const char *chat,
		    const char *id);

/*
 * The user retries our message (chat, id) whose upload failed: FAILED
 * back to QUEUED and ul_state UPLOADING, in one transaction (the upload
 * is then the caller's to start again).  Returns 1, 0 (not a failed
 * upload of ours: a plain failed message is store_msg_retry()'s),
 * -EINVAL, -ENOSPC or -EIO.
 */
MUST_CHECK int	store_media_upload_retry(struct store *s, const char *chat,
		    const char *id);

/* One message whose upload is to run (store_media_uploading()). */
struct store_media_ul_key {
	char		 chat[256];
	char		 id[128];
};

/*
 * Our QUEUED messages whose upload is UPLOADING (an upload a stop or a
 * crash cut short), oldest first, at most max of them, into out[0..max).
 * Returns their count (>= 0) or -EIO.
 */
MUST_CHECK int	store_media_uploading(struct store *s,
		    struct store_media_ul_key *out, size_t max);

#endif
