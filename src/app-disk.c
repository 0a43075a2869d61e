/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-disk.c -- a full disk, on the engine thread (src/app-int.h):
 * when a write fails for want of space (the messaging module's
 * WA_DM_EV_DISK_FULL, or a send refused with -ENOSPC), the engine goes
 * offline and stays so (wa_eng_hold(): the server keeps what it could not
 * store, unacked, and sends it again), the status line says "disk full"
 * with the data dir, and every APP_DISK_PROBE_MS a small write
 * transaction (store_tx_probe()) finds out whether there is room again;
 * the first that commits brings the engine back (wa_eng_resume()).
 * reliability.md "Disk full" and rule 1.
 */
#include "base/compat.h"

#define LOG_TAG	"disk"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <uv.h>

#include "base/err.h"
#include "base/i18n.h"
#include "base/log.h"
#include "base/sysrand.h"
#include "base/xmalloc.h"
#include "proto/eng.h"
#include "src/app-int.h"
#include "store/store.h"

static void	on_disk_timer(uv_timer_t *t);

/* Go offline (deferred to this timer: the messaging module may be in the
 * middle of a stanza when it says so), then probe. */
static void
hold(struct app *a)
{
	const char	*dir = a->conf->data_dir;
	size_t		 len = strlen(dir) + 256;
	char		*why = xmalloc(len);

	snprintf(why, len, _("disk full: nothing more can be stored in %s; "
	    "new messages wait on the server until there is room"), dir);
	log_warn("the disk is full: offline until a write succeeds");
	wa_eng_hold(a->eng, -ENOSPC, why);
	free(why);
}

static void
on_disk_timer(uv_timer_t *t)
{
	struct app	*a = t->data;
	int		 rc;

	if (a->stopping || a->eng == NULL)
		return;
	if (!a->disk_held) {
		a->disk_held = true;
		hold(a);
		uv_timer_start(&a->disk_timer, on_disk_timer,
		    APP_DISK_PROBE_MS, 0);
		return;
	}
	if ((rc = store_tx_probe(a->store, sys_now_ms(NULL))) != 0) {
		if (rc != -ENOSPC)
			log_warn("disk probe: %s", wc_strerror(rc));
		uv_timer_start(&a->disk_timer, on_disk_timer,
		    APP_DISK_PROBE_MS, 0);
		return;
	}
	log_info("the disk has room again: connecting");
	a->disk_full = a->disk_held = false;
	wa_eng_resume(a->eng);
}

void
app_disk_full(struct app *a)
{
	if (a->stopping || a->disk_full)
		return;
	a->disk_full = true;
	a->disk_held = false;
	if (!a->disk_timer_on) {
		uv_timer_init(&a->eng_loop, &a->disk_timer);
		a->disk_timer.data = a;
		a->disk_timer_on = true;
	}
	uv_timer_start(&a->disk_timer, on_disk_timer, 0, 0);
}

void
app_disk_stop(struct app *a)
{
	if (!a->disk_timer_on)
		return;
	a->disk_timer_on = false;
	uv_timer_stop(&a->disk_timer);
	uv_close((uv_handle_t *)&a->disk_timer, NULL);
}
