/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-hsync-store.c -- history sync (proto/hsync.c) when the store
 * fails (issue 15 point 7, reliability.md "Disk full"): a queued
 * notification with an inline chunk over a fake store whose import, whose
 * mark "imported", whose queue read or whose drop after the server's ack
 * fails with -ENOSPC or -EIO.  Each time the host is told once
 * (WA_HSYNC_EV_STORE_FAILED with the error), no hist_sync receipt goes
 * out for what is not marked, the chunk is not taken again and again on
 * the same connection, and on the next connection, with room again, it is
 * imported and receipted once.
 */
#include "base/compat.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <uv.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/history.h"
#include "proto/hsync.h"
#include "proto/node.h"

#define OWN	"15550000001:1@s.whatsapp.net"
#define QID	"3EB0HSYNCSTOREFAIL"
#define SPIN	50	/* next() calls before the fake gives up */

struct world {
	uv_loop_t	 loop;
	struct wa_hsync	*h;
	struct buf	 msg;		/* the queued notification */
	bool		 queued;	/* next() gives it */
	bool		 marked;	/* imported, receipt not acked */
	int		 next_rc, import_rc, imported_rc, done_rc;
	int		 nexts, imports, receipts;
	int		 failed, progress;	/* events */
	int		 failed_err;
};

static int
f_next(void *arg, char id[WA_HSYNC_ID_MAX], struct buf *msg)
{
	struct world	*w = arg;

	if (++w->nexts > SPIN)
		return 0;	/* a loop that would never end */
	if (w->next_rc < 0)
		return w->next_rc;
	if (!w->queued)
		return 0;
	snprintf(id, WA_HSYNC_ID_MAX, "%s", QID);
	buf_append(msg, w->msg.p, w->msg.len);
	return 1;
}

static int
f_import(void *arg, const struct wa_hist *h)
{
	struct world	*w = arg;

	(void)h;
	w->imports++;
	return w->import_rc < 0 ? w->import_rc : 3;
}

static int
f_imported(void *arg, const char *id)
{
	struct world	*w = arg;

	assert_string_equal(id, QID);
	if (w->imported_rc < 0)
		return w->imported_rc;
	w->queued = false;
	w->marked = true;
	return 0;
}

static int
f_unreceipted(void *arg, struct buf *ids)
{
	struct world	*w = arg;

	if (!w->marked)
		return 0;
	buf_append(ids, QID, sizeof(QID));
	return 1;
}

static int
f_done(void *arg, const char *id)
{
	struct world	*w = arg;

	(void)id;
	if (w->done_rc < 0)
		return w->done_rc;
	w->marked = false;
	return 0;
}

static int
h_send(void *arg, const struct wa_node *n)
{
	struct world	*w = arg;

	if (wa_str_eqc(n->tag, "receipt") && wa_node_str_is(n, "type",
	    "hist_sync"))
		w->receipts++;
	return 0;
}

static void
h_iq_id(void *arg, char out[32])
{
	(void)arg;
	snprintf(out, 32, "hsync-1");
}

static void
on_event(void *arg, const struct wa_hsync_ev *ev)
{
	struct world	*w = arg;

	switch (ev->kind) {
	case WA_HSYNC_EV_STORE_FAILED:
		w->failed++;
		w->failed_err = ev->err;
		break;
	case WA_HSYNC_EV_PROGRESS:
		w->progress++;
		break;
	default:
		break;
	}
}

/* A notification whose chunk (one push name) is inline. */
static void
make_msg(struct buf *out)
{
	struct wa_hist		 h;
	struct wa_hist_pushname	 pn = { "15550000003@s.whatsapp.net", "bob" };
	struct wa_hist_notif	 n;
	struct buf		 blob = BUF_INIT, z = BUF_INIT;

	memset(&h, 0, sizeof(h));
	h.sync_type = WA_HIST_INITIAL_BOOTSTRAP;
	h.progress = 100;
	h.pushnames = &pn;
	h.n_pushnames = 1;
	assert_int_equal(wa_hist_build(&h, &blob), 0);
	assert_int_equal(wa_hist_deflate(blob.p, blob.len, 6, &z), 0);
	memset(&n, 0, sizeof(n));
	n.sync_type = WA_HIST_INITIAL_BOOTSTRAP;
	n.progress = 100;
	n.inline_payload = z.p;
	n.inline_payload_len = z.len;
	assert_int_equal(wa_hist_notification_build(&n, out), 0);
	buf_release(&blob);
	buf_release(&z);
}

static int
setup(void **state)
{
	static struct wa_hsync_store_ops ops;
	struct wa_hsync_host	 host;
	struct world		*w = calloc(1, sizeof(*w));

	assert_non_null(w);
	assert_int_equal(uv_loop_init(&w->loop), 0);
	memset(&ops, 0, sizeof(ops));
	ops.next = f_next;
	ops.import = f_import;
	ops.imported = f_imported;
	ops.unreceipted = f_unreceipted;
	ops.done = f_done;
	ops.arg = w;
	memset(&host, 0, sizeof(host));
	host.send = h_send;
	host.iq_id = h_iq_id;
	host.loop = &w->loop;
	host.arg = w;
	assert_int_equal(wa_hsync_new(&host, &ops, on_event, w, &w->h), 0);
	make_msg(&w->msg);
	w->queued = true;
	*state = w;
	return 0;
}

static int
teardown(void **state)
{
	struct world	*w = *state;

	wa_hsync_free(w->h);
	buf_release(&w->msg);
	(void)uv_loop_close(&w->loop);
	free(w);
	return 0;
}

/* The next connection with room: imported and receipted once. */
static void
reconnect_with_room(struct world *w)
{
	wa_hsync_offline(w->h);
	w->next_rc = w->import_rc = w->imported_rc = w->done_rc = 0;
	w->nexts = w->imports = w->receipts = w->progress = 0;
	wa_hsync_online(w->h, OWN);
	assert_int_equal(w->imports, 1);
	assert_false(w->queued);
	assert_int_equal(w->receipts, 1);
	assert_int_equal(w->progress, 1);
}

/* The import fails: said once, kept, not taken again until the next
 * connection. */
static void
import_fails(void **state, int err)
{
	struct world	*w = *state;

	w->import_rc = err;
	wa_hsync_online(w->h, OWN);
	assert_int_equal(w->imports, 1);
	assert_int_equal(w->failed, 1);
	assert_int_equal(w->failed_err, err);
	assert_int_equal(w->receipts, 0);
	assert_int_equal(w->progress, 0);
	assert_true(w->queued);
	wa_hsync_kick(w->h);	/* another notification came */
	assert_int_equal(w->imports, 1);
	assert_int_equal(w->failed, 1);
	reconnect_with_room(w);
}

static void
test_import_full(void **state)
{
	import_fails(state, -ENOSPC);
}

static void
test_import_ioerr(void **state)
{
	import_fails(state, -EIO);
}

/* Imported, but the mark fails: no receipt, said, taken again later. */
static void
test_imported_full(void **state)
{
	struct world	*w = *state;

	w->imported_rc = -ENOSPC;
	wa_hsync_online(w->h, OWN);
	assert_int_equal(w->imports, 1);
	assert_int_equal(w->receipts, 0);
	assert_int_equal(w->failed, 1);
	assert_int_equal(w->failed_err, -ENOSPC);
	assert_int_equal(w->progress, 0);
	assert_true(w->queued);
	reconnect_with_room(w);
}

/* The queue cannot be read: said. */
static void
test_next_ioerr(void **state)
{
	struct world	*w = *state;

	w->next_rc = -EIO;
	wa_hsync_online(w->h, OWN);
	assert_int_equal(w->failed, 1);
	assert_int_equal(w->failed_err, -EIO);
	assert_int_equal(w->imports, 0);
	reconnect_with_room(w);
}

/* The server acks the receipt, but the drop fails: said; the receipt
 * goes again at the next login. */
static void
test_done_full(void **state)
{
	struct world	*w = *state;
	struct arena	 a;
	struct wa_node	*n;

	wa_hsync_online(w->h, OWN);
	assert_int_equal(w->receipts, 1);
	w->done_rc = -ENOSPC;
	arena_init(&a, 256);
	n = wa_nb_new(&a, "ack", 4);
	wa_nb_attr(n, "class", "receipt");
	wa_nb_attr(n, "type", "hist_sync");
	wa_nb_attr(n, "id", QID);
	assert_int_equal(wa_hsync_stanza(w->h, n), 1);
	arena_release(&a);
	assert_int_equal(w->failed, 1);
	assert_int_equal(w->failed_err, -ENOSPC);
	assert_true(w->marked);
	wa_hsync_offline(w->h);
	w->done_rc = 0;
	w->receipts = 0;
	wa_hsync_online(w->h, OWN);
	assert_int_equal(w->receipts, 1);	/* sent again */
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_import_full, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_import_ioerr, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_imported_full, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_next_ioerr, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(test_done_full, setup,
		    teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
