/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/media-up.c -- our media messages while their file is uploaded
 * (store/store-upload.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"

/* The media row of our message (?1 chat, ?2 id). */
#define OURS	" WHERE msg = (SELECT rowid FROM message WHERE chat = ?1" \
	" AND id = ?2 AND from_me = 1)"

static bool
key_ok(const char *chat, const char *id)
{
	return store_q_str_ok(chat, STORE_JID_MAX, true) &&
	    store_q_str_ok(id, STORE_MSG_ID_MAX, true);
}

/* The media row's part of store_media_uploaded(): 1, 0 or the error. */
static int
set_done(struct store *s, const char *chat, const char *id,
    const struct store_media_up *u)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "UPDATE media SET url = ?3,"
	    " direct_path = ?4, file_sha256 = ?5, file_enc_sha256 = ?6,"
	    " ul_state = 2" OURS " AND ul_state = 1")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	store_q_bind_str(st, 3, u->url);
	store_q_bind_str(st, 4, u->direct_path);
	sqlite3_bind_blob(st, 5, u->file_sha256, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 6, u->file_enc_sha256, 32, SQLITE_STATIC);
	return store_q_run(s, st, "marking an upload done");
}

int
store_media_uploaded(struct store *s, const char *chat, const char *id,
    const struct store_media_up *u)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!key_ok(chat, id) || u == NULL || u->file_sha256 == NULL ||
	    u->file_enc_sha256 == NULL || u->payload == NULL ||
	    u->payload_len == 0 || u->payload_len > STORE_MSG_PAYLOAD_MAX ||
	    !store_q_str_ok(u->url, STORE_MEDIA_STR_MAX, false) ||
	    !store_q_str_ok(u->direct_path, STORE_MEDIA_STR_MAX, false))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = set_done(s, chat, id, u)) == 1 &&
	    (rc = store_q_prep(s, &st, "UPDATE message SET payload = ?3"
	    " WHERE chat = ?1 AND id = ?2 AND from_me = 1")) == 0) {
		store_q_bind_str(st, 1, chat);
		store_q_bind_str(st, 2, id);
		sqlite3_bind_blob(st, 3, u->payload, (int)u->payload_len,
		    SQLITE_STATIC);
		rc = store_q_run(s, st, "storing an upload's message");
	}
	return store_tx_end(s, rc);
}

int
store_media_sealed(struct store *s, const char *chat, const char *id,
    const uint8_t *file_sha256, const uint8_t *file_enc_sha256)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!key_ok(chat, id) || file_sha256 == NULL || file_enc_sha256 == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "UPDATE media SET file_sha256 = ?3,"
	    " file_enc_sha256 = ?4" OURS " AND ul_state = 1")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_blob(st, 3, file_sha256, 32, SQLITE_STATIC);
	sqlite3_bind_blob(st, 4, file_enc_sha256, 32, SQLITE_STATIC);
	return store_q_run(s, st, "keeping a sealed file's hashes");
}

/* Set our (chat, id)'s ul_state from one state to another: 1, 0 or the
 * error. */
static int
ul_move(struct store *s, const char *chat, const char *id, int from, int to)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "UPDATE media SET ul_state = ?4" OURS
	    " AND ul_state = ?3")) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, from);
	sqlite3_bind_int(st, 4, to);
	return store_q_run(s, st, "setting an upload state");
}

int
store_media_upload_failed(struct store *s, const char *chat, const char *id)
{
	int	 rc;

	if (!key_ok(chat, id))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = ul_move(s, chat, id, STORE_UL_UPLOADING, STORE_UL_FAILED))
	    == 1 && (rc = store_msg_mark_failed(s, chat, id)) >= 0)
		rc = 1;
	return store_tx_end(s, rc);
}

int
store_media_upload_retry(struct store *s, const char *chat, const char *id)
{
	int	 rc;

	if (!key_ok(chat, id))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	if ((rc = ul_move(s, chat, id, STORE_UL_FAILED, STORE_UL_UPLOADING))
	    == 1 && (rc = store_msg_retry(s, chat, id)) >= 0)
		rc = 1;
	return store_tx_end(s, rc);
}

int
store_media_uploading(struct store *s, struct store_media_ul_key *out,
    size_t max)
{
	sqlite3_stmt	*st;
	size_t		 n = 0;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "SELECT m.chat, m.id FROM message m"
	    " JOIN media d ON d.msg = m.rowid WHERE m.from_me = 1"
	    " AND m.state = 0 AND d.ul_state = 1 ORDER BY m.rowid"
	    " LIMIT ?1")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, (int64_t)max);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
		store_q_col_copy(st, 0, out[n].chat, sizeof(out[n].chat));
		store_q_col_copy(st, 1, out[n].id, sizeof(out[n].id));
		n++;
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_DONE && rc != SQLITE_ROW) {
		log_warn("listing uploads: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	return (int)n;
}
