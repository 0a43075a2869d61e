/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/contact.c -- who people are (tables contact, lid_map, device_list
 * of schema migration 3; store/store.h): push and address-book names, the
 * PN-LID mapping (protocol.md 5.3) and cached usync device lists (8.2).
 */
#include "base/compat.h"

#include <errno.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "store/store-int.h"

static int
contact_set(struct store *s, const char *sql, const char *jid,
    const char *name)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) ||
	    !store_q_str_ok(name, STORE_NAME_MAX, false))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, sql)) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	store_q_bind_str(st, 2, name);
	rc = store_q_run(s, st, "storing a contact");
	return rc < 0 ? rc : 0;
}

int
store_contact_set_push_name(struct store *s, const char *jid,
    const char *push_name)
{
	return contact_set(s, "INSERT INTO contact (jid, push_name)"
	    " VALUES (?1, ?2) ON CONFLICT (jid) DO UPDATE"
	    " SET push_name = excluded.push_name", jid, push_name);
}

int
store_contact_set_name(struct store *s, const char *jid, const char *name)
{
	return contact_set(s, "INSERT INTO contact (jid, name)"
	    " VALUES (?1, ?2) ON CONFLICT (jid) DO UPDATE"
	    " SET name = excluded.name", jid, name);
}

int
store_contact_get(struct store *s, const char *jid, struct store_contact *out)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT push_name, name, first_name"
	    " FROM contact"
	    " WHERE jid = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	if ((rc = store_q_step_one(s, st, "loading a contact")) == 1) {
		store_q_col_copy(st, 0, out->push_name, sizeof(out->push_name));
		store_q_col_copy(st, 1, out->name, sizeof(out->name));
		store_q_col_copy(st, 2, out->first_name,
		    sizeof(out->first_name));
	}
	store_stmt_done(s, st);
	return rc;
}

int
store_contact_find(struct store *s, const char *who, size_t max,
    char (*jids)[STORE_JID_MAX + 1])
{
	sqlite3_stmt	*st;
	int		 rc, n = 0, pass;

	if (!store_q_str_ok(who, STORE_NAME_MAX, true) || max == 0 ||
	    max > 64 || jids == NULL)
		return -EINVAL;
	/* Pass 0: a name equal to who; 1: a name containing it. */
	for (pass = 0; pass < 2 && n == 0; pass++) {
		if ((rc = store_q_prep(s, &st, "SELECT jid FROM contact WHERE"
		    " CASE ?2 WHEN 0 THEN name = ?1 COLLATE NOCASE"
		    "  OR push_name = ?1 COLLATE NOCASE"
		    " ELSE instr(lower(name), lower(?1)) > 0"
		    "  OR instr(lower(push_name), lower(?1)) > 0 END"
		    " ORDER BY jid LIMIT ?3")) != 0)
			return rc;
		store_q_bind_str(st, 1, who);
		sqlite3_bind_int(st, 2, pass);
		sqlite3_bind_int64(st, 3, (int64_t)max + 1);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			if ((size_t)n++ < max)
				store_q_col_copy(st, 0, jids[n - 1],
				    STORE_JID_MAX + 1);
		store_stmt_done(s, st);
		if (rc != SQLITE_DONE) {
			log_error("finding a contact: %s", sqlite3_errmsg(s->db));
			return -EIO;
		}
	}
	return n;
}

int
store_lid_put(struct store *s, const char *pn, const char *lid)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(pn, STORE_JID_MAX, true) ||
	    !store_q_str_ok(lid, STORE_JID_MAX, true))
		return -EINVAL;
	/* OR REPLACE drops a row that holds either side; the WHERE makes a
	 * repeated pair a no-op that reports 0. */
	if ((rc = store_q_prep(s, &st, "INSERT OR REPLACE INTO lid_map (pn, lid)"
	    " SELECT ?1, ?2 WHERE NOT EXISTS"
	    " (SELECT 1 FROM lid_map WHERE pn = ?1 AND lid = ?2)")) != 0)
		return rc;
	store_q_bind_str(st, 1, pn);
	store_q_bind_str(st, 2, lid);
	rc = store_q_run(s, st, "storing a PN-LID mapping");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

static int
lid_get(struct store *s, const char *sql, const char *key,
    char out[STORE_JID_MAX + 1])
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(key, STORE_JID_MAX, true) || out == NULL)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, sql)) != 0)
		return rc;
	store_q_bind_str(st, 1, key);
	if ((rc = store_q_step_one(s, st, "loading a PN-LID mapping")) == 1)
		store_q_col_copy(st, 0, out, STORE_JID_MAX + 1);
	store_stmt_done(s, st);
	return rc;
}

int
store_lid_get_lid(struct store *s, const char *pn, char out[STORE_JID_MAX + 1])
{
	return lid_get(s, "SELECT lid FROM lid_map WHERE pn = ?1", pn, out);
}

int
store_lid_get_pn(struct store *s, const char *lid, char out[STORE_JID_MAX + 1])
{
	return lid_get(s, "SELECT pn FROM lid_map WHERE lid = ?1", lid, out);
}

/* A device list entry: id u32 BE, key index u32 BE, hosted (0 or 1). */
#define DEVLIST_ENTRY_LEN	9

static void
put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static uint32_t
get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

int
store_devlist_put(struct store *s, const char *user,
    const struct store_devlist_entry *devs, size_t n, int64_t fetched_ms)
{
	uint8_t		 blob[STORE_DEVLIST_MAX * DEVLIST_ENTRY_LEN + 1];
	sqlite3_stmt	*st;
	size_t		 i;
	int		 rc;

	if (!store_q_str_ok(user, STORE_JID_MAX, true) || n > STORE_DEVLIST_MAX ||
	    (devs == NULL && n > 0))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		uint8_t	*p = blob + i * DEVLIST_ENTRY_LEN;

		put_be32(p, devs[i].id);
		put_be32(p + 4, devs[i].key_index);
		p[8] = devs[i].hosted ? 1 : 0;
	}
	if ((rc = store_q_prep(s, &st, "INSERT OR REPLACE INTO device_list"
	    " (user, devices, fetched_ms) VALUES (?1, ?2, ?3)")) != 0)
		return rc;
	store_q_bind_str(st, 1, user);
	/* An empty list is a zero-length blob (the column is NOT NULL). */
	sqlite3_bind_blob(st, 2, blob, (int)(n * DEVLIST_ENTRY_LEN),
	    SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, fetched_ms);
	rc = store_q_run(s, st, "caching a device list");
	return rc < 0 ? rc : 0;
}

int
store_devlist_get(struct store *s, const char *user,
    struct store_devlist_entry *out, size_t max, int64_t *fetched_ms)
{
	const uint8_t	*p;
	sqlite3_stmt	*st;
	size_t		 len, n, i;
	int		 rc;

	if (!store_q_str_ok(user, STORE_JID_MAX, true) || (out == NULL && max > 0))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT devices, fetched_ms FROM device_list"
	    " WHERE user = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, user);
	rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		store_stmt_done(s, st);
		return -ENOENT;
	}
	if (rc != SQLITE_ROW) {
		log_error("loading a device list: %s", sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		return -EIO;
	}
	p = sqlite3_column_blob(st, 0);
	len = (size_t)sqlite3_column_bytes(st, 0);
	if (len % DEVLIST_ENTRY_LEN != 0 ||
	    len / DEVLIST_ENTRY_LEN > STORE_DEVLIST_MAX ||
	    (p == NULL && len > 0)) {
		log_error("a cached device list is corrupt (%zu bytes)", len);
		store_stmt_done(s, st);
		return -EIO;
	}
	n = len / DEVLIST_ENTRY_LEN;
	for (i = 0; i < n && i < max; i++) {
		const uint8_t	*e = p + i * DEVLIST_ENTRY_LEN;

		out[i].id = get_be32(e);
		out[i].key_index = get_be32(e + 4);
		out[i].hosted = e[8] != 0;
	}
	if (fetched_ms != NULL)
		*fetched_ms = sqlite3_column_int64(st, 1);
	store_stmt_done(s, st);
	return (int)n;
}

int
store_devlist_forget(struct store *s, const char *user)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(user, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "DELETE FROM device_list WHERE user = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, user);
	rc = store_q_run(s, st, "forgetting a device list");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}
