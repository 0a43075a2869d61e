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
 * A write that fails with an I/O error (WA_DM_EV_STORE_FAILED) does the
 * same with a wait that doubles each time, from 3 s to 5 minutes, so
 * that what was not stored (and not acked) comes again from the server.
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

	if (a->disk_full) {
		snprintf(why, len, _("disk full: nothing more can be stored "
		    "in %s; new messages wait on the server until there is "
		    "room"), dir);
		log_warn("the disk is full: offline until a write succeeds");
	} else {
		snprintf(why, len, _("cannot store in %s (I/O error); "
		    "trying again in %u s"), dir, a->io_delay_ms / 1000);
		log_warn("a write failed: offline for %u s", a->io_delay_ms /
		    1000);
	}
	wa_eng_hold(a->eng, a->disk_full ? -ENOSPC : -EIO, why);
	free(why);
}

/* The wait before the next probe. */
static unsigned
wait_ms(const struct app *a)
{
	return a->disk_full ? APP_DISK_PROBE_MS : a->io_delay_ms;
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
		uv_timer_start(&a->disk_timer, on_disk_timer, wait_ms(a), 0);
		return;
	}
	if ((rc = store_tx_probe(a->store, sys_now_ms(NULL))) != 0) {
		if (rc != -ENOSPC)
			log_warn("disk probe: %s", wc_strerror(rc));
		uv_timer_start(&a->disk_timer, on_disk_timer, wait_ms(a), 0);
		return;
	}
	log_info("%s: connecting", a->disk_full ? "the disk has room again" :
	    "a write succeeds again");
	a->disk_full = a->io_failed = a->disk_held = false;
	wa_eng_resume(a->eng);
}

/* Start the timer at once: hold on its first turn. */
static void
start(struct app *a)
{
	a->disk_held = false;
	if (!a->disk_timer_on) {
		uv_timer_init(&a->eng_loop, &a->disk_timer);
		a->disk_timer.data = a;
		a->disk_timer_on = true;
	}
	uv_timer_start(&a->disk_timer, on_disk_timer, 0, 0);
}

void
app_disk_ioerr(struct app *a)
{
	if (a->stopping || a->disk_full || a->io_failed)
		return;
	a->io_failed = true;
	/* bounded: 3 s, then twice as long each time, at most 5 minutes */
	a->io_delay_ms = a->io_delay_ms == 0 ? APP_DISK_PROBE_MS :
	    a->io_delay_ms * 2;
	if (a->io_delay_ms > APP_DISK_IO_MAX_MS)
		a->io_delay_ms = APP_DISK_IO_MAX_MS;
	start(a);
}

void
app_disk_full(struct app *a)
{
	if (a->stopping || a->disk_full)
		return;
	a->disk_full = true;
	start(a);
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
