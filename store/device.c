/* SPDX-License-Identifier: GPL-3.0-or-later */
/* store/device.c -- this device's own key material (table device). */
#include "base/compat.h"

#include <errno.h>

#include <sodium.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

/* Copy a BLOB column of exactly len bytes; false if it is not. */
static bool
blob(sqlite3_stmt *st, int col, uint8_t *dst, size_t len)
{
	const void	*p = sqlite3_column_blob(st, col);

	if (p == NULL || (size_t)sqlite3_column_bytes(st, col) != len)
		return false;
	memcpy(dst, p, len);
	return true;
}

static void
text(sqlite3_stmt *st, int col, char *dst, size_t size)
{
	const unsigned char	*p = sqlite3_column_text(st, col);

	snprintf(dst, size, "%s", p != NULL ? (const char *)p : "");
}

int
store_device_load(struct store *s, struct store_device *out)
{
	sqlite3_stmt		**st = &s->st[ST_DEVICE_LOAD];
	struct store_device	 d;
	int			 rc;

	if ((rc = store_prepare(s, st, "SELECT noise_priv, noise_pub,"
	    " identity_priv, identity_pub, registration_id, adv_secret,"
	    " spk_id, spk_priv, spk_pub, spk_sig, jid, lid, push_name,"
	    " account_sig_key, adv_identity, unconfirmed FROM device"
	    " WHERE id = 1")) != 0)
		return rc;
	rc = sqlite3_step(*st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW) {
		log_error("reading the device: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	memset(&d, 0, sizeof(d));
	if (!blob(*st, 0, d.noise_priv, STORE_KEY_LEN) ||
	    !blob(*st, 1, d.noise_pub, STORE_KEY_LEN) ||
	    !blob(*st, 2, d.identity_priv, STORE_KEY_LEN) ||
	    !blob(*st, 3, d.identity_pub, STORE_KEY_LEN) ||
	    !blob(*st, 5, d.adv_secret, STORE_KEY_LEN) ||
	    !blob(*st, 7, d.spk_priv, STORE_KEY_LEN) ||
	    !blob(*st, 8, d.spk_pub, STORE_KEY_LEN) ||
	    !blob(*st, 9, d.spk_sig, STORE_SIG_LEN)) {
		/* A corrupt row is an error, never "no device". */
		log_error("the device row is corrupt");
		sodium_memzero(&d, sizeof(d));
		sqlite3_reset(*st);
		return -EIO;
	}
	d.registration_id = (uint32_t)sqlite3_column_int64(*st, 4);
	d.spk_id = (uint32_t)sqlite3_column_int64(*st, 6);
	text(*st, 10, d.jid, sizeof(d.jid));
	text(*st, 11, d.lid, sizeof(d.lid));
	text(*st, 12, d.push_name, sizeof(d.push_name));
	(void)blob(*st, 13, d.account_sig_key, STORE_KEY_LEN);
	if (sqlite3_column_type(*st, 14) == SQLITE_BLOB) {
		d.adv_identity_len = (size_t)sqlite3_column_bytes(*st, 14);
		d.adv_identity = xmalloc(d.adv_identity_len);
		memcpy(d.adv_identity, sqlite3_column_blob(*st, 14),
		    d.adv_identity_len);
	}
	d.unconfirmed = sqlite3_column_int64(*st, 15) != 0;
	sqlite3_reset(*st);
	*out = d;
	return 1;
}

int
store_device_save(struct store *s, const struct store_device *d)
{
	sqlite3_stmt	**st = &s->st[ST_DEVICE_SAVE];
	static const uint8_t zero[STORE_KEY_LEN];
	int		 rc;

	if ((rc = store_prepare(s, st, "INSERT OR REPLACE INTO device (id,"
	    " noise_priv, noise_pub, identity_priv, identity_pub,"
	    " registration_id, adv_secret, spk_id, spk_priv, spk_pub, spk_sig,"
	    " jid, lid, push_name, account_sig_key, adv_identity, unconfirmed)"
	    " VALUES (1, ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12,"
	    " ?13, ?14, ?15, ?16)")) != 0)
		return rc;
	sqlite3_bind_blob(*st, 1, d->noise_priv, STORE_KEY_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(*st, 2, d->noise_pub, STORE_KEY_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(*st, 3, d->identity_priv, STORE_KEY_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(*st, 4, d->identity_pub, STORE_KEY_LEN, SQLITE_STATIC);
	sqlite3_bind_int64(*st, 5, d->registration_id);
	sqlite3_bind_blob(*st, 6, d->adv_secret, STORE_KEY_LEN, SQLITE_STATIC);
	sqlite3_bind_int64(*st, 7, d->spk_id);
	sqlite3_bind_blob(*st, 8, d->spk_priv, STORE_KEY_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(*st, 9, d->spk_pub, STORE_KEY_LEN, SQLITE_STATIC);
	sqlite3_bind_blob(*st, 10, d->spk_sig, STORE_SIG_LEN, SQLITE_STATIC);
	sqlite3_bind_text(*st, 11, d->jid, -1, SQLITE_STATIC);
	sqlite3_bind_text(*st, 12, d->lid, -1, SQLITE_STATIC);
	sqlite3_bind_text(*st, 13, d->push_name, -1, SQLITE_STATIC);
	if (memcmp(d->account_sig_key, zero, STORE_KEY_LEN) != 0)
		sqlite3_bind_blob(*st, 14, d->account_sig_key, STORE_KEY_LEN,
		    SQLITE_STATIC);
	if (d->adv_identity != NULL)
		sqlite3_bind_blob(*st, 15, d->adv_identity,
		    (int)d->adv_identity_len, SQLITE_STATIC);
	sqlite3_bind_int64(*st, 16, d->unconfirmed ? 1 : 0);
	rc = sqlite3_step(*st);
	sqlite3_reset(*st);
	sqlite3_clear_bindings(*st);
	if (rc != SQLITE_DONE) {
		log_error("saving the device: %s", sqlite3_errmsg(s->db));
		return store_step_err(s, rc);	/* -ENOSPC or -EIO */
	}
	/* a device again: a later loss of its row is not a log-out */
	return store_exec(s, "DELETE FROM counter WHERE name = 'logged_out'");
}

void
store_device_release(struct store_device *d)
{
	free(d->adv_identity);
	sodium_memzero(d, sizeof(*d));
}

int
store_device_forget(struct store *s)
{
	int	 rc;

	if ((rc = store_exec(s, "BEGIN IMMEDIATE")) != 0)
		return rc;
	if ((rc = store_exec(s, "DELETE FROM device; DELETE FROM prekey;"
	    " UPDATE counter SET value = 1 WHERE name = 'next_prekey_id';"
	    " INSERT OR REPLACE INTO counter (name, value)"
	    " VALUES ('logged_out', 1)")) != 0 ||
	    (rc = store_exec(s, "COMMIT")) != 0) {
		(void)store_exec(s, "ROLLBACK");
		return rc;
	}
	return 0;
}

int
store_device_logged_out(struct store *s)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM counter WHERE name ="
	    " 'logged_out'", -1, &st, NULL) != SQLITE_OK) {
		log_error("reading the log-out mark: %s",
		    sqlite3_errmsg(s->db));
		return -EIO;
	}
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* ---- the WhatsApp Web version looked up (protocol.md 3.3) ---- */

int
store_wa_version_load(struct store *s, uint32_t *rev)
{
	sqlite3_stmt	*st;
	sqlite3_int64	 v;
	int		 rc;

	if (sqlite3_prepare_v2(s->db, "SELECT value FROM counter WHERE name ="
	    " 'wa_version'", -1, &st, NULL) != SQLITE_OK) {
		log_error("reading the saved version: %s",
		    sqlite3_errmsg(s->db));
		return -EIO;
	}
	rc = sqlite3_step(st);
	v = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return -EIO;
	if (v <= 0 || v > UINT32_MAX)
		return 0;	/* not one we wrote: as none */
	*rev = (uint32_t)v;
	return 1;
}

int
store_wa_version_save(struct store *s, uint32_t rev)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO counter (name,"
	    " value) VALUES ('wa_version', ?1)", -1, &st, NULL) != SQLITE_OK) {
		log_error("saving the version: %s", sqlite3_errmsg(s->db));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, (sqlite3_int64)rev);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		log_error("saving the version: %s", sqlite3_errmsg(s->db));
		return store_step_err(s, rc);
	}
	return 0;
}
