/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/people.c -- the people known who have no chat yet
 * (store/store-people.h): one read-only query.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define LOG_TAG "store"
#include "base/log.h"
#include "base/xmalloc.h"
#include "store/store-int.h"
#include "store/store-people.h"

/* Per contact: its PN (itself, or the mapping's for a LID), and the names
 * of that PN's row when it has any, else its own.  A LID whose PN is a
 * contact with a name is left to that PN's row; a user with a chat under
 * either JID is left out. */
#define PEOPLE_SQL							\
	"SELECT COALESCE(m.pn, c.jid), c.name, c.push_name FROM contact c"	\
	" LEFT JOIN lid_map m ON m.lid = c.jid"				\
	" WHERE (c.name <> '' OR c.push_name <> '')"			\
	"  AND (c.jid LIKE '%@s.whatsapp.net' OR c.jid LIKE '%@lid')"	\
	"  AND NOT EXISTS (SELECT 1 FROM chat h WHERE h.jid = c.jid"	\
	"   OR h.jid = m.pn"						\
	"   OR h.jid = (SELECT lid FROM lid_map WHERE pn = c.jid))"	\
	"  AND NOT (m.pn IS NOT NULL AND EXISTS (SELECT 1 FROM contact p"	\
	"   WHERE p.jid = m.pn AND (p.name <> '' OR p.push_name <> '')))"	\
	" ORDER BY CASE WHEN c.name <> '' THEN c.name ELSE c.push_name END"	\
	"  COLLATE NOCASE, 1 LIMIT ?1"

int
store_people_without_chat(struct store *s, size_t max,
    struct store_person **out, size_t *n, bool *more)
{
	struct store_person	*v;
	sqlite3_stmt		*st;
	size_t			 k = 0;
	int			 rc;

	if (out == NULL || n == NULL || more == NULL)
		return -EINVAL;
	*out = NULL;
	*n = 0;
	*more = false;
	if (max == 0 || max > STORE_PEOPLE_MAX)
		return -EINVAL;
	if ((rc = store_q_prep(s, &st, PEOPLE_SQL)) != 0)
		return rc;
	sqlite3_bind_int64(st, 1, (int64_t)max + 1);
	v = xcalloc(max, sizeof(*v));
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (k == max) {
			*more = true;
			continue;
		}
		store_q_col_copy(st, 0, v[k].jid, sizeof(v[k].jid));
		store_q_col_copy(st, 1, v[k].name, sizeof(v[k].name));
		store_q_col_copy(st, 2, v[k].push_name,
		    sizeof(v[k].push_name));
		k++;
	}
	store_stmt_done(s, st);
	if (rc != SQLITE_DONE) {
		log_error("listing the people: %s", sqlite3_errmsg(s->db));
		free(v);
		*more = false;
		return -EIO;
	}
	*out = v;
	*n = k;
	return 0;
}
