/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-expire.c -- disappearing messages on the engine thread
 * (src/app-int.h; protocol-features.md 3.5): one libuv timer armed for
 * the earliest expiry the store holds (store_expire_next()); when it
 * fires, the rows whose time is up are deleted (store_expire_due(): out
 * of the database, the search index and their chats' previews) and each
 * is said to the screen as an EV_MSG_CHANGED with gone set, which takes
 * the line off.  Armed again after every message stored (app_expire_kick())
 * and after each round.
 */
#include "base/compat.h"

#define LOG_TAG	"expire"

#include <stdint.h>

#include <uv.h>

#include "base/err.h"
#include "base/event.h"
#include "base/log.h"
#include "base/sysrand.h"
#include "src/app-int.h"
#include "store/store.h"

#define EXPIRE_BATCH	256		/* rows per round */
#define EXPIRE_MAX_WAIT	(3600 * 1000)	/* ms: looked at again at least
					 * hourly (a clock that jumped) */

static void	on_expire(uv_timer_t *t);

/* Tell the screen that row x is gone. */
static void
say_gone(struct app *a, const struct store_expired *x)
{
	struct ev	*ev = ev_new(EV_MSG_CHANGED);

	ev_set(&ev->u.msg_changed.key.chat, x->chat);
	ev_set(&ev->u.msg_changed.key.id, x->id);
	ev->u.msg_changed.key.from_me = x->from_me;
	ev->u.msg_changed.deleted = true;
	ev->u.msg_changed.gone = true;
	app_eng_send(a, ev);
}

/* Arm the timer for delay_ms from now, making it on first use. */
static void
arm(struct app *a, uint64_t delay_ms)
{
	if (!a->expire_on) {
		uv_timer_init(&a->eng_loop, &a->expire_timer);
		a->expire_timer.data = a;
		a->expire_on = true;
	}
	uv_timer_start(&a->expire_timer, on_expire, delay_ms, 0);
}

void
app_expire_kick(struct app *a)
{
	int64_t	 when_s, now_ms;
	int	 rc;

	if (a->stopping || a->store == NULL)
		return;
	if ((rc = store_expire_next(a->store, &when_s)) != 0) {
		log_warn("the next expiry: %s", wc_strerror(rc));
		return;
	}
	if (when_s == 0) {
		if (a->expire_on)
			uv_timer_stop(&a->expire_timer);
		return;
	}
	now_ms = sys_now_ms(NULL);
	if (when_s * 1000 <= now_ms)
		arm(a, 0);
	else
		arm(a, when_s * 1000 - now_ms > EXPIRE_MAX_WAIT ?
		    EXPIRE_MAX_WAIT : (uint64_t)(when_s * 1000 - now_ms));
}

static void
on_expire(uv_timer_t *t)
{
	struct app		*a = t->data;
	struct store_expired	*v;
	size_t			 n, i;
	bool			 more;
	int			 rc;

	if (a->stopping || a->store == NULL)
		return;
	if ((rc = store_expire_due(a->store, sys_now_ms(NULL) / 1000,
	    EXPIRE_BATCH, &v, &n, &more)) != 0) {
		/* kept: looked at again in a while */
		log_warn("expired messages not deleted: %s", wc_strerror(rc));
		arm(a, 60 * 1000);
		return;
	}
	if (n > 0)
		log_info("%zu expired messages deleted", n);
	for (i = 0; i < n; i++)
		say_gone(a, &v[i]);
	store_expired_free(v, n);
	if (more)
		arm(a, 0);
	else
		app_expire_kick(a);
}

void
app_expire_stop(struct app *a)
{
	if (!a->expire_on)
		return;
	a->expire_on = false;
	uv_timer_stop(&a->expire_timer);
	uv_close((uv_handle_t *)&a->expire_timer, NULL);
}
