/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/media.c -- a message's media (table media of schema migration
 * 15; store/store.h struct store_media): stored with its message row in
 * the same savepoint (store/message.c calls store_q_media_put()), read
 * by message key, and the download and upload states set.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "base/xmalloc.h"
#include "store/store-int.h"

/* The media row of the message (?1 chat, ?2 id, ?3 from_me). */
#define BY_KEY	" WHERE msg = (SELECT rowid FROM message WHERE chat = ?1" \
	" AND id = ?2 AND from_me = ?3)"

static bool
blob_ok(const uint8_t *p, size_t len, size_t max)
{
	return (p != NULL || len == 0) && len <= max;
}

/* The limits of store/store.h on what m holds. */
static bool
media_ok(const struct store_media *m)
{
	return m->type >= STORE_MEDIA_IMAGE && m->type <= STORE_MEDIA_STICKER &&
	    m->size >= 0 && store_q_str_ok(m->mimetype, STORE_MEDIA_STR_MAX,
	    false) && store_q_str_ok(m->caption, STORE_MSG_TEXT_MAX, false) &&
	    store_q_str_ok(m->file_name, STORE_MEDIA_STR_MAX, false) &&
	    store_q_str_ok(m->direct_path, STORE_MEDIA_STR_MAX, false) &&
	    store_q_str_ok(m->url, STORE_MEDIA_STR_MAX, false) &&
	    store_q_str_ok(m->path, STORE_MEDIA_STR_MAX, false) &&
	    blob_ok(m->thumb, m->thumb_len, STORE_MEDIA_THUMB_MAX) &&
	    blob_ok(m->waveform, m->waveform_len, STORE_MEDIA_BLOB_MAX) &&
	    blob_ok(m->media_key, m->media_key_len, STORE_MEDIA_BLOB_MAX) &&
	    blob_ok(m->file_sha256, m->file_sha256_len, STORE_MEDIA_BLOB_MAX) &&
	    blob_ok(m->file_enc_sha256, m->file_enc_sha256_len,
	    STORE_MEDIA_BLOB_MAX) &&
	    m->dl_state >= STORE_DL_NONE && m->dl_state <= STORE_DL_EXPIRED &&
	    m->ul_state >= STORE_UL_NONE && m->ul_state <= STORE_UL_FAILED;
}

bool
store_q_media_ok(const struct store_media *m)
{
	return m == NULL || media_ok(m);
}

static void
bind_blob(sqlite3_stmt *st, int col, const uint8_t *p, size_t len)
{
	if (p != NULL && len > 0)
		sqlite3_bind_blob(st, col, p, (int)len, SQLITE_STATIC);
	else
		sqlite3_bind_null(st, col);
}

int
store_q_media_put(struct store *s, int64_t msg, const struct store_media *m)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (m == NULL)
		return 0;
	if ((rc = store_q_prep(s, &st, "INSERT OR REPLACE INTO media (msg,"
	    " type, animated, mimetype, size, width, height, seconds, pages,"
	    " caption, file_name, thumb, waveform, media_key, direct_path, url,"
	    " file_sha256, file_enc_sha256, key_ts, dl_state, path, ul_state)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13,"
	    " ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21, ?22)")) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, msg);
	sqlite3_bind_int(st, 2, (int)m->type);
	sqlite3_bind_int(st, 3, m->animated);
	store_q_bind_str(st, 4, m->mimetype);
	sqlite3_bind_int64(st, 5, m->size);
	sqlite3_bind_int64(st, 6, m->width);
	sqlite3_bind_int64(st, 7, m->height);
	sqlite3_bind_int64(st, 8, m->seconds);
	sqlite3_bind_int64(st, 9, m->pages);
	store_q_bind_str(st, 10, m->caption);
	store_q_bind_str(st, 11, m->file_name);
	bind_blob(st, 12, m->thumb, m->thumb_len);
	bind_blob(st, 13, m->waveform, m->waveform_len);
	bind_blob(st, 14, m->media_key, m->media_key_len);
	store_q_bind_str(st, 15, m->direct_path);
	store_q_bind_str(st, 16, m->url);
	bind_blob(st, 17, m->file_sha256, m->file_sha256_len);
	bind_blob(st, 18, m->file_enc_sha256, m->file_enc_sha256_len);
	sqlite3_bind_int64(st, 19, m->key_ts);
	sqlite3_bind_int(st, 20, (int)m->dl_state);
	store_q_bind_str(st, 21, m->path);
	sqlite3_bind_int(st, 22, (int)m->ul_state);
	rc = store_q_run(s, st, "storing a message's media");
	return rc < 0 ? rc : 0;
}

/* A malloc'd copy of blob column col (NULL when absent), its length in
 * *len. */
static uint8_t *
col_blob(sqlite3_stmt *st, int col, size_t *len)
{
	const void	*p = sqlite3_column_blob(st, col);
	int		 n = sqlite3_column_bytes(st, col);
	uint8_t		*out;

	*len = 0;
	if (p == NULL || n <= 0)
		return NULL;
	out = xmalloc((size_t)n);
	memcpy(out, p, (size_t)n);
	*len = (size_t)n;
	return out;
}

static uint32_t
col_u32(sqlite3_stmt *st, int col)
{
	int64_t	 v = sqlite3_column_int64(st, col);

	return v >= 0 && v <= UINT32_MAX ? (uint32_t)v : 0;
}

/* Fill *m from the row st gave (the columns of store_media_get()). */
static void
media_of_row(sqlite3_stmt *st, struct store_media *m)
{
	int64_t	 dl = sqlite3_column_int64(st, 19);
	int64_t	 ul = sqlite3_column_int64(st, 20);

	m->type = (enum store_media_type)sqlite3_column_int(st, 0);
	m->animated = sqlite3_column_int(st, 1) != 0;
	m->mimetype = store_q_col_dup(st, 2, NULL);
	m->size = sqlite3_column_int64(st, 3);
	m->width = col_u32(st, 4);
	m->height = col_u32(st, 5);
	m->seconds = col_u32(st, 6);
	m->pages = col_u32(st, 7);
	m->caption = store_q_col_dup(st, 8, NULL);
	m->file_name = store_q_col_dup(st, 9, NULL);
	m->thumb = col_blob(st, 10, &m->thumb_len);
	m->waveform = col_blob(st, 11, &m->waveform_len);
	m->media_key = col_blob(st, 12, &m->media_key_len);
	m->direct_path = store_q_col_dup(st, 13, NULL);
	m->url = store_q_col_dup(st, 14, NULL);
	m->file_sha256 = col_blob(st, 15, &m->file_sha256_len);
	m->file_enc_sha256 = col_blob(st, 16, &m->file_enc_sha256_len);
	m->key_ts = sqlite3_column_int64(st, 17);
	m->path = store_q_col_dup(st, 18, NULL);
	/* a state a newer wachat wrote reads as the nearest we know */
	m->dl_state = dl >= STORE_DL_NONE && dl <= STORE_DL_EXPIRED ?
	    (enum store_dl_state)dl : STORE_DL_FAILED;
	m->ul_state = ul >= STORE_UL_NONE && ul <= STORE_UL_FAILED ?
	    (enum store_ul_state)ul : STORE_UL_FAILED;
}

int
store_media_get(struct store *s, const char *chat, bool from_me,
    const char *id, struct store_media *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (out == NULL || !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT type, animated, mimetype, size,"
	    " width, height, seconds, pages, caption, file_name, thumb,"
	    " waveform, media_key, direct_path, url, file_sha256,"
	    " file_enc_sha256, key_ts, path, dl_state, ul_state"
	    " FROM media" BY_KEY)) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, from_me);
	if ((rc = store_q_step_one(s, st, "reading a message's media")) == 1) {
		memset(out, 0, sizeof(*out));
		media_of_row(st, out);
	}
	store_stmt_done(s, st);
	return rc;
}

void
store_media_release(struct store_media *m)
{
	if (m == NULL)
		return;
	free(m->mimetype);
	free(m->caption);
	free(m->file_name);
	free(m->thumb);
	free(m->waveform);
	if (m->media_key != NULL)
		explicit_bzero(m->media_key, m->media_key_len);
	free(m->media_key);
	free(m->direct_path);
	free(m->url);
	free(m->file_sha256);
	free(m->file_enc_sha256);
	free(m->path);
	memset(m, 0, sizeof(*m));
}

int
store_media_set_download(struct store *s, const char *chat, bool from_me,
    const char *id, enum store_dl_state state, const char *path)
{
	sqlite3_stmt	*st;
	bool		 has = path != NULL && path[0] != '\0';
	int		 rc;

	if (state < STORE_DL_NONE || state > STORE_DL_EXPIRED ||
	    has != (state == STORE_DL_DONE) ||
	    !store_q_str_ok(path, STORE_MEDIA_STR_MAX, false) ||
	    !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "UPDATE media SET dl_state = ?4,"
	    " path = ?5" BY_KEY)) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, from_me);
	sqlite3_bind_int(st, 4, (int)state);
	store_q_bind_str(st, 5, path);
	return store_q_run(s, st, "setting a media download state");
}

int
store_media_set_direct_path(struct store *s, const char *chat, bool from_me,
    const char *id, const char *direct_path)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(direct_path, STORE_MEDIA_STR_MAX, true) ||
	    direct_path[0] != '/' ||
	    !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "UPDATE media SET direct_path = ?4,"
	    " url = ''" BY_KEY)) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, from_me);
	store_q_bind_str(st, 4, direct_path);
	return store_q_run(s, st, "setting a media direct path");
}

int
store_media_dl_reset(struct store *s)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "UPDATE media SET dl_state = 0"
	    " WHERE dl_state = 1")) != 0)
		return rc;
	return store_q_run(s, st, "resetting the media downloads");
}

int
store_media_set_upload(struct store *s, const char *chat, const char *id,
    enum store_ul_state state)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (state < STORE_UL_NONE || state > STORE_UL_FAILED ||
	    !store_q_str_ok(chat, STORE_JID_MAX, true) ||
	    !store_q_str_ok(id, STORE_MSG_ID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "UPDATE media SET ul_state = ?4"
	    BY_KEY)) != 0)
		return rc;
	store_q_bind_str(st, 1, chat);
	store_q_bind_str(st, 2, id);
	sqlite3_bind_int(st, 3, 1);
	sqlite3_bind_int(st, 4, (int)state);
	return store_q_run(s, st, "setting a media upload state");
}
