/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * store/store-int.h -- what the files of store/ share: the connection and
 * its cached prepared statements.  Not for other modules.
 */
#ifndef STORE_INT_H
#define STORE_INT_H

#include <sqlite3.h>

#include "store.h"

enum store_stmt {
	ST_DEVICE_LOAD,
	ST_DEVICE_SAVE,
	ST_PREKEY_INSERT,
	ST_PREKEY_GET,
	ST_PREKEY_REMOVE,
	ST_PREKEY_UPLOADED,
	ST_PREKEY_PENDING,
	ST_PREKEY_COUNT,
	ST_COUNTER_GET,
	ST_COUNTER_SET,
	ST_COUNT_
};

struct store {
	sqlite3		*db;
	sqlite3_stmt	*st[ST_COUNT_];	/* prepared on first use, then reused */
};

/* Run sql (no rows).  Returns 0 or -EIO, with the message on stderr. */
int	store_exec(struct store *s, const char *sql);

/* Prepare sql into *st once, or reset *st for reuse.  Returns 0 or -EIO. */
int	store_prepare(struct store *s, sqlite3_stmt **st, const char *sql);

#endif
