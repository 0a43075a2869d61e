/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-poll.c -- the message engine's poll ops (proto/dm.h) over the
 * store (store/store-poll.h; protocol-features.md 3.1).  Engine thread.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>

#include "proto/dm.h"
#include "src/app-dm.h"
#include "store/store.h"

static int
poll_put(void *arg, const char *chat, const char *id, const char *creator,
    const uint8_t *secret, size_t len)
{
	return store_poll_put(arg, chat, id, creator, secret, len);
}

static int
poll_get(void *arg, const char *chat, const char *id,
    char creator[WA_DM_JID_MAX], uint8_t *secret, size_t *secret_len,
    char **rec)
{
	struct store_poll	 p;
	int			 rc;

	if ((rc = store_poll_get(arg, chat, id, &p)) != 1)
		return rc;
	if (strlen(p.creator) >= WA_DM_JID_MAX || p.secret_len > *secret_len) {
		store_poll_release(&p);
		return 0;
	}
	memcpy(creator, p.creator, strlen(p.creator) + 1);
	memcpy(secret, p.secret, p.secret_len);
	*secret_len = p.secret_len;
	*rec = p.text;		/* the caller's now */
	p.text = NULL;
	explicit_bzero(p.secret, sizeof(p.secret));
	store_poll_release(&p);
	return 1;
}

static int
poll_set(void *arg, const char *chat, const char *id, const char *rec)
{
	return store_poll_set(arg, chat, id, rec, strlen(rec));
}

static int
poll_pend_put(void *arg, const char *chat, const char *poll,
    const char *voter, const uint8_t *data, size_t len, int64_t ts_ms)
{
	return store_poll_pend_put(arg, chat, poll, voter, data, len, ts_ms);
}

static int
poll_pend_take(void *arg, const char *chat, const char *poll,
    char voter[WA_DM_JID_MAX], uint8_t **data, size_t *len)
{
	return store_poll_pend_take(arg, chat, poll, voter, WA_DM_JID_MAX,
	    data, len);
}

void
app_poll_ops(struct store *s, struct wa_dm_store_ops *ops)
{
	(void)s;
	ops->poll_put = poll_put;
	ops->poll_get = poll_get;
	ops->poll_set = poll_set;
	ops->poll_pend_put = poll_pend_put;
	ops->poll_pend_take = poll_pend_take;
}
