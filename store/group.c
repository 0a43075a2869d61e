/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/group.c -- groups: metadata, participants and the devices that
 * hold our sender key (tables grp, grp_member, sender_key_recipient of
 * schema migration 4; store/store.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/err.h"
#include "base/log.h"
#include "store/store-int.h"
#include "base/xmalloc.h"

static bool
group_ok(const struct store_group *g)
{
	size_t	 i;

	if (g == NULL || !store_q_str_ok(g->jid, STORE_JID_MAX, true) ||
	    !store_q_str_ok(g->subject, STORE_GROUP_TEXT_MAX, false) ||
	    !store_q_str_ok(g->description, STORE_GROUP_TEXT_MAX, false) ||
	    !store_q_str_ok(g->mode, 8, false) ||
	    !store_q_str_ok(g->creator, STORE_JID_MAX, false) ||
	    g->n > STORE_GROUP_MEMBERS_MAX || (g->n > 0 && g->members == NULL))
		return false;
	for (i = 0; i < g->n; i++)
		if (!store_q_str_ok(g->members[i].jid, STORE_JID_MAX, true) ||
		    !store_q_str_ok(g->members[i].alt, STORE_JID_MAX, false))
			return false;
	return true;
}

static int
member_put(struct store *s, const char *grp, const char *jid,
    const char *alt, int admin)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, "INSERT INTO grp_member"
	    " (grp, jid, alt, admin) VALUES (?1, ?2, ?3, ?4)"
	    " ON CONFLICT (grp, jid) DO UPDATE SET admin = excluded.admin,"
	    " alt = CASE excluded.alt WHEN '' THEN alt ELSE excluded.alt END"))
	    != 0)
		return rc;
	store_q_bind_str(st, 1, grp);
	store_q_bind_str(st, 2, jid);
	store_q_bind_str(st, 3, alt);
	sqlite3_bind_int(st, 4, admin);
	rc = store_q_run(s, st, "storing a group member");
	return rc < 0 ? rc : 0;
}

static int
exec_1(struct store *s, const char *sql, const char *a1, const char *what)
{
	sqlite3_stmt	*st;
	int		 rc;

	if ((rc = store_q_prep(s, &st, sql)) != 0)
		return rc;
	store_q_bind_str(st, 1, a1);
	return store_q_run(s, st, what);
}

int
store_group_put(struct store *s, const struct store_group *g)
{
	sqlite3_stmt	*st;
	size_t		 i;
	int		 rc;

	if (!group_ok(g))
		return -EINVAL;
	if ((rc = store_tx_begin(s)) != 0)
		return rc;
	rc = store_q_prep(s, &st, "INSERT INTO grp (jid, subject, description,"
	    " mode, creator, creation_ms, left_group)"
	    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (jid) DO UPDATE"
	    " SET subject = excluded.subject,"
	    " description = excluded.description, mode = excluded.mode,"
	    " creator = excluded.creator, creation_ms = excluded.creation_ms,"
	    " left_group = excluded.left_group");
	if (rc == 0) {
		store_q_bind_str(st, 1, g->jid);
		store_q_bind_str(st, 2, g->subject);
		store_q_bind_str(st, 3, g->description);
		store_q_bind_str(st, 4, g->mode != NULL && g->mode[0] != '\0' ?
		    g->mode : "pn");
		store_q_bind_str(st, 5, g->creator);
		sqlite3_bind_int64(st, 6, g->creation_ms);
		sqlite3_bind_int(st, 7, g->left ? 1 : 0);
		rc = store_q_run(s, st, "storing a group");
	}
	if (rc >= 0)
		rc = exec_1(s, "DELETE FROM grp_member WHERE grp = ?1", g->jid,
		    "replacing group members");
	for (i = 0; rc >= 0 && i < g->n; i++)
		rc = member_put(s, g->jid, g->members[i].jid,
		    g->members[i].alt, g->members[i].admin);
	if (rc >= 0 && g->subject != NULL && g->subject[0] != '\0')
		rc = store_chat_set_name(s, g->jid, g->subject);
	else if (rc >= 0)
		rc = exec_1(s, "INSERT OR IGNORE INTO chat (jid) VALUES (?1)",
		    g->jid, "creating a group chat");
	return store_tx_end(s, rc < 0 ? rc : 0);
}

void
store_group_release(struct store_group *g)
{
	size_t	 i;

	if (g == NULL)
		return;
	for (i = 0; i < g->n; i++) {
		free(g->members[i].jid);
		free(g->members[i].alt);
	}
	free(g->members);
	free(g->jid);
	free(g->subject);
	free(g->description);
	free(g->mode);
	free(g->creator);
	memset(g, 0, sizeof(*g));
}

int
store_group_get(struct store *s, const char *jid, struct store_group *out)
{
	sqlite3_stmt	*st;
	size_t		 cap = 0;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) || out == NULL)
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if ((rc = store_q_prep(s, &st, "SELECT jid, subject, description,"
	    " mode, creator, creation_ms, left_group FROM grp WHERE jid = ?1"))
	    != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	if ((rc = store_q_step_one(s, st, "loading a group")) == 1) {
		out->jid = store_q_col_dup(st, 0, NULL);
		out->subject = store_q_col_dup(st, 1, NULL);
		out->description = store_q_col_dup(st, 2, NULL);
		out->mode = store_q_col_dup(st, 3, NULL);
		out->creator = store_q_col_dup(st, 4, NULL);
		out->creation_ms = sqlite3_column_int64(st, 5);
		out->left = sqlite3_column_int(st, 6) != 0;
	}
	store_stmt_done(s, st);
	if (rc != 1)
		return rc;
	if ((rc = store_q_prep(s, &st, "SELECT jid, alt, admin FROM grp_member"
	    " WHERE grp = ?1 ORDER BY admin DESC, jid")) != 0) {
		store_group_release(out);
		return rc;
	}
	store_q_bind_str(st, 1, jid);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW &&
	    out->n < STORE_GROUP_MEMBERS_MAX) {
		if (out->n == cap) {
			cap = cap == 0 ? 16 : cap * 2;
			out->members = xrealloc(out->members, cap *
			    sizeof(*out->members));
		}
		out->members[out->n].jid = store_q_col_dup(st, 0, NULL);
		out->members[out->n].alt = store_q_col_dup(st, 1, NULL);
		out->members[out->n].admin = sqlite3_column_int(st, 2);
		out->n++;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		log_error("loading group members: %s", sqlite3_errmsg(s->db));
		store_stmt_done(s, st);
		store_group_release(out);
		return -EIO;
	}
	store_stmt_done(s, st);
	return 1;
}

int
store_group_set_subject(struct store *s, const char *jid, const char *subject)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true) ||
	    !store_q_str_ok(subject, STORE_GROUP_TEXT_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "UPDATE grp SET subject = ?2"
	    " WHERE jid = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	store_q_bind_str(st, 2, subject);
	if ((rc = store_q_run(s, st, "renaming a group")) <= 0)
		return rc;
	if ((rc = store_chat_set_name(s, jid, subject)) != 0)
		return rc;
	return 1;
}

int
store_group_set_left(struct store *s, const char *jid, bool left)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(jid, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "UPDATE grp SET left_group = ?2"
	    " WHERE jid = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, jid);
	sqlite3_bind_int(st, 2, left ? 1 : 0);
	rc = store_q_run(s, st, "marking a group left");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

int
store_group_member_put(struct store *s, const char *grp, const char *jid,
    const char *alt, int admin)
{
	if (!store_q_str_ok(grp, STORE_JID_MAX, true) ||
	    !store_q_str_ok(jid, STORE_JID_MAX, true) ||
	    !store_q_str_ok(alt, STORE_JID_MAX, false) || admin < 0 ||
	    admin > 2)
		return -EINVAL;
	return member_put(s, grp, jid, alt, admin);
}

int
store_group_member_remove(struct store *s, const char *grp, const char *jid)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(grp, STORE_JID_MAX, true) ||
	    !store_q_str_ok(jid, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "DELETE FROM grp_member WHERE grp = ?1"
	    " AND (jid = ?2 OR alt = ?2)")) != 0)
		return rc;
	store_q_bind_str(st, 1, grp);
	store_q_bind_str(st, 2, jid);
	rc = store_q_run(s, st, "removing a group member");
	return rc < 0 ? rc : rc > 0 ? 1 : 0;
}

int
store_skr_has(struct store *s, const char *grp, const char *device)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(grp, STORE_JID_MAX, true) ||
	    !store_q_str_ok(device, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "SELECT 1 FROM sender_key_recipient"
	    " WHERE grp = ?1 AND device = ?2")) != 0)
		return rc;
	store_q_bind_str(st, 1, grp);
	store_q_bind_str(st, 2, device);
	rc = store_q_step_one(s, st, "reading sender-key recipients");
	store_stmt_done(s, st);
	return rc;
}

int
store_skr_put(struct store *s, const char *grp, const char *device)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(grp, STORE_JID_MAX, true) ||
	    !store_q_str_ok(device, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "INSERT OR IGNORE INTO"
	    " sender_key_recipient (grp, device) VALUES (?1, ?2)")) != 0)
		return rc;
	store_q_bind_str(st, 1, grp);
	store_q_bind_str(st, 2, device);
	rc = store_q_run(s, st, "storing a sender-key recipient");
	return rc < 0 ? rc : 0;
}

int
store_skr_forget(struct store *s, const char *grp, const char *device)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(grp, STORE_JID_MAX, true) ||
	    !store_q_str_ok(device, STORE_JID_MAX, false))
		return -EINVAL;
	if (device == NULL)
		return exec_1(s, "DELETE FROM sender_key_recipient"
		    " WHERE grp = ?1", grp, "forgetting sender-key recipients");
	if ((rc = store_q_prep(s, &st, "DELETE FROM sender_key_recipient"
	    " WHERE grp = ?1 AND device = ?2")) != 0)
		return rc;
	store_q_bind_str(st, 1, grp);
	store_q_bind_str(st, 2, device);
	return store_q_run(s, st, "forgetting a sender-key recipient");
}

int
store_skr_forget_device(struct store *s, const char *device)
{
	sqlite3_stmt	*st;
	int		 rc;

	if (!store_q_str_ok(device, STORE_JID_MAX, true))
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, "DELETE FROM sender_key_recipient"
	    " WHERE device = ?1")) != 0)
		return rc;
	store_q_bind_str(st, 1, device);
	return store_q_run(s, st, "forgetting a changed device's sender keys");
}

int
store_skr_forget_user(struct store *s, const char *user)
{
	sqlite3_stmt	*st;
	const char	*at;
	char		 head[STORE_JID_MAX + 2];
	int		 rc;

	if (!store_q_str_ok(user, STORE_JID_MAX, true) ||
	    (at = strchr(user, '@')) == NULL || at == user ||
	    memchr(user, ':', (size_t)(at - user)) != NULL)
		return -EINVAL;
	/* its device 0 (user itself) and every "<user>:<n>@<server>" */
	snprintf(head, sizeof(head), "%.*s:", (int)(at - user), user);
	if ((rc = store_q_prep(s, &st, "DELETE FROM sender_key_recipient"
	    " WHERE device = ?1 OR (substr(device, 1, length(?2)) = ?2"
	    " AND substr(device, -length(?3)) = ?3)")) != 0)
		return rc;
	store_q_bind_str(st, 1, user);
	store_q_bind_str(st, 2, head);
	store_q_bind_str(st, 3, at);
	return store_q_run(s, st, "forgetting a user's sender-key holders");
}
