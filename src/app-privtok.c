/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-privtok.c -- store/'s privacy tokens (store/privtok.c,
 * migration 11) bound into the tok_* ops of struct wa_dm_store_ops
 * (proto/dm.h; protocol.md 15.6).  The thread that owns the store.
 */
#include "base/compat.h"

#include <string.h>

#include "proto/dm.h"
#include "src/app-dm.h"
#include "store/store.h"

_Static_assert(WA_PRIVTOK_MAX == STORE_PRIVTOK_MAX,
    "the engine and the store keep tokens of the same size");
_Static_assert(WA_PRIVTOK_SALT_MAX == STORE_SALT_MAX,
    "the engine and the store keep salts of the same size");

static int
tok_get(void *arg, const char *jid, struct wa_dm_tok *out)
{
	struct store_privtok	 t;
	int			 rc;

	memset(out, 0, sizeof(*out));
	if ((rc = store_privtok_get(arg, jid, &t)) != 1)
		return rc;
	memcpy(out->token, t.token, t.len);
	out->len = t.len;
	out->t = t.t;
	out->sender_t = t.sender_t;
	return 1;
}

static int
tok_put(void *arg, const char *jid, const uint8_t *token, size_t len,
    int64_t t)
{
	return store_privtok_put(arg, jid, token, len, t);
}

static int
tok_sent(void *arg, const char *jid, int64_t sender_t)
{
	return store_privtok_sent(arg, jid, sender_t);
}

static int
salt_get(void *arg, uint8_t *out, size_t *len)
{
	return store_privtok_salt_get(arg, out, len);
}

void
app_privtok_ops(struct store *s, struct wa_dm_store_ops *ops)
{
	ops->tok_get = tok_get;
	ops->tok_put = tok_put;
	ops->tok_sent = tok_sent;
	ops->salt_get = salt_get;
	ops->arg = s;
}
