/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-send.c -- the engine thread's way to the main thread
 * (src/app-int.h): an event sent, and EV_ERROR.  Below every other
 * engine-thread file (src/app-eng.c, src/app-cmd.c, src/app-read.c call
 * it); it calls none of them.
 */
#include "base/compat.h"

#include "base/event.h"
#include "src/app-int.h"
#include "src/evq.h"

void
app_eng_send(struct app *a, struct ev *ev)
{
	(void)evq_push(&a->events, ev);
}

void
app_eng_error(struct app *a, const char *what, int err)
{
	struct ev	*ev = ev_new(EV_ERROR);

	ev_set(&ev->u.error.what, what);
	ev->u.error.err = err;
	app_eng_send(a, ev);
}
