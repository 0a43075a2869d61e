/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-store-int.h -- what the two files of the fake store
 * (fake-store.c: the table, transactions, the message ops;
 * fake-store-signal.c: the Signal ops and the device) share.  Only for
 * those two files.
 */
#ifndef WC_FAKE_STORE_INT_H
#define WC_FAKE_STORE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/wa-signal.h"
#include "tests/fakes/fake-store.h"

#define KEY_MAX		512
#define MAX_FAILS	8
#define MAX_SNAPS	16

struct kv {
	char		*key;
	uint8_t		*val;
	size_t		 len;
};

/* The key-value table: every record of the store. */
struct tab {
	struct kv	*v;
	size_t		 n, cap;
};

struct op_count {
	const char	*op;
	unsigned	 n;
};

struct fake_store {
	struct tab		 t;
	struct tab		 snap[MAX_SNAPS];	/* one per open level */
	int			 depth;
	int64_t			 next_rowid;
	struct wa_signal_own	 own;
	uint8_t			 prekey_pub[FAKE_STORE_PREKEYS][32];
	struct {
		char	 op[32];
		int	 rc;
	}			 fails[MAX_FAILS];
	struct op_count		 calls[64];
};

/* The entry of key, or NULL. */
struct kv	*fake_tab_get(const struct tab *t, const char *key);
/* Insert or replace key with a copy of val[0..len). */
void		 fake_tab_put(struct tab *t, const char *key, const void *val,
		    size_t len);
/* Delete key: true when it was there. */
bool		 fake_tab_del(struct tab *t, const char *key);
/* A key from a format, into out[KEY_MAX]. */
void		 fake_key(char out[KEY_MAX], const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));
/* Count a call of op: true and *rc when a failure was set for it. */
bool		 fake_store_enter(struct fake_store *f, const char *op,
		    int *rc);
/* The transaction ops (arg: the store), shared by both op tables. */
int		 fake_store_tx_begin(void *arg);
int		 fake_store_tx_commit(void *arg);
int		 fake_store_tx_rollback(void *arg);
/* Make f a Signal device: identity, signed prekey, one-time prekeys. */
void		 fake_store_device_init(struct fake_store *f);

#define ENTER(f, op) do {						\
	int	 rc_;							\
									\
	if (fake_store_enter((f), (op), &rc_))				\
		return rc_;						\
} while (0)

#endif
