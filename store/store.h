/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store.h -- wachat's SQLite database: every SQL statement lives in
 * store/.  It knows tables and rows (this device's keys, one-time prekeys),
 * not wire formats.  A struct store is one connection, used by one thread
 * at a time (the engine thread for the live path); it is opened in WAL mode
 * with synchronous=NORMAL.  Errors are negative codes (src/err.h); SQLite's
 * own codes never leave store/.
 */
#ifndef STORE_H
#define STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define STORE_SCHEMA_VERSION	1	/* the newest migration store_open() knows */
#define STORE_KEY_LEN		32	/* a Curve25519 private or public key */
#define STORE_SIG_LEN		64	/* an XEdDSA signature */

struct store;

/*
 * Open (creating as needed) the database "wachat.db" in dir, which is
 * created with mode 0700 when missing.  Refuses a dir or database file
 * whose mode grants any group or other permission (-EPERM), a database
 * written by a newer wachat (WC_ESCHEMA, the file left untouched), and a
 * file that is not a SQLite database (-EIO).  Runs the numbered migrations
 * up to STORE_SCHEMA_VERSION in one transaction.  dir NULL or ":memory:"
 * opens a private in-memory database (tests).  Returns 0 and *out, freed
 * with store_close().  Any thread; the store then belongs to it.
 */
MUST_CHECK int	store_open(const char *dir, struct store **out);

/* Close the database and free s (NULL is a no-op). */
void		store_close(struct store *s);

/* The schema version of an open store (for tests and diagnostics). */
int		store_schema_version(struct store *s);

/*
 * This companion device's own key material, made once at registration
 * (protocol.md 3.2) and kept for the life of the link.
 */
struct store_device {
	uint8_t		 noise_priv[STORE_KEY_LEN];	/* Noise static key */
	uint8_t		 noise_pub[STORE_KEY_LEN];
	uint8_t		 identity_priv[STORE_KEY_LEN];	/* Signal identity */
	uint8_t		 identity_pub[STORE_KEY_LEN];
	uint32_t	 registration_id;		/* 14-bit in practice */
	uint8_t		 adv_secret[STORE_KEY_LEN];	/* the QR's ADV secret */
	uint32_t	 spk_id;			/* signed prekey id, 24-bit */
	uint8_t		 spk_priv[STORE_KEY_LEN];
	uint8_t		 spk_pub[STORE_KEY_LEN];
	uint8_t		 spk_sig[STORE_SIG_LEN];	/* over 05 || spk_pub */
	char		 jid[96];	/* own AD-JID once paired, else "" */
	char		 lid[96];	/* own LID AD-JID once paired, else "" */
	char		 push_name[128];/* may be "" */
	uint8_t		 account_sig_key[STORE_KEY_LEN]; /* ADV; zero until paired */
	uint8_t		*adv_identity;	/* ADVSignedDeviceIdentity bytes, or NULL */
	size_t		 adv_identity_len;
};

/*
 * Load the device row into *out.  Returns 1 when there is one, 0 when the
 * store holds no device yet (*out untouched), or -EIO on a read error
 * (never "no device" on an error).  out->adv_identity, when not NULL, is
 * the caller's to free with store_device_release().
 */
MUST_CHECK int	store_device_load(struct store *s, struct store_device *out);

/* Insert or replace the device row, in one transaction.  Returns 0 or -EIO. */
MUST_CHECK int	store_device_save(struct store *s, const struct store_device *d);

/* Wipe d's keys and free d->adv_identity. */
void		store_device_release(struct store_device *d);

/* Delete the device and every prekey (logged out).  Returns 0 or -EIO. */
MUST_CHECK int	store_device_forget(struct store *s);

/* A one-time prekey (protocol.md 7.3): id 1..0xFFFFFF. */
struct store_prekey {
	uint32_t	 id;
	uint8_t		 priv[STORE_KEY_LEN];
	uint8_t		 pub[STORE_KEY_LEN];
};

#define STORE_PREKEY_ID_MAX	0xFFFFFFu	/* 3 bytes on the wire */

/*
 * The id the next generated prekey takes: 1 in a new store, then one past
 * the last stored, wrapping from 0xFFFFFF to 1 (protocol.md 7.3).  Returns
 * 0 and *id, or -EIO.
 */
MUST_CHECK int	store_prekey_next_id(struct store *s, uint32_t *id);

/*
 * Store n prekeys and advance the next id past the last of them, in one
 * transaction with one prepared statement reused across rows, so keys are
 * durable before they are uploaded.  A key whose id is already stored
 * replaces nothing: the batch fails with -EEXIST and nothing is written
 * (an id the server may still hold is never given a second key).
 * Returns 0, -EEXIST, -EINVAL (an id of 0 or above 0xFFFFFF) or -EIO.
 */
MUST_CHECK int	store_prekey_put(struct store *s, const struct store_prekey *keys,
		    size_t n);

/*
 * Load prekey id.  Returns 1 and *out when stored, 0 when not, or -EIO.
 */
MUST_CHECK int	store_prekey_get(struct store *s, uint32_t id,
		    struct store_prekey *out);

/* Delete prekey id (used by an incoming pkmsg).  Returns 0 or -EIO. */
MUST_CHECK int	store_prekey_remove(struct store *s, uint32_t id);

/*
 * Mark every stored prekey with id in [first, last] as uploaded (the
 * server acknowledged the upload).  Returns 0 or -EIO.
 */
MUST_CHECK int	store_prekey_mark_uploaded(struct store *s, uint32_t first,
		    uint32_t last);

/*
 * Load up to max prekeys not yet uploaded, lowest id first, into out.
 * Returns their count (>= 0) or -EIO.  After a crash between storing and
 * uploading, these are the keys to upload again, unchanged.
 */
MUST_CHECK int	store_prekey_pending(struct store *s, struct store_prekey *out,
		    size_t max);

/* Count stored prekeys (uploaded or not).  Returns the count or -EIO. */
MUST_CHECK int	store_prekey_count(struct store *s);

#endif
