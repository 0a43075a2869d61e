/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/wa-eng-driver.c -- runs the engine (proto/eng.c) with a real store
 * (store/ through src/app-store.c) and no UI, for tests/sim-eng.sh.  Prints
 * each engine event as a line on stdout and stops at the awaited one:
 *   connecting N KIND | qr IDX SECS TEXT | paired JID | connected JID
 *   prekeys-stored N first=ID | prekeys-sent N first=ID
 *   prekeys-uploaded N first=ID | prekey-count N first=0 | qr-refresh:
 *   pair-code XXXX-XXXX | version 2.3000.N
 *   disconnected err=E retry_ms=R: TEXT
 *   logged-out: TEXT | stopped: TEXT | error err=E: TEXT
 *   store-put n=N first=ID   (the store committed a prekey batch)
 *   timeout
 * then, on exit, "store jid=JID prekeys=N pending=M" (or "store none").
 * --show only prints that line.  --crash-after-store ends the process
 * with _exit(9) right after the first prekey batch is committed (before
 * the upload leaves).  --pair-code PN pairs by phone-number code instead
 * of QR; --version pins the version, --version-url is where it is looked
 * up after failure 405, --ca-file the extra CA file.  Exit status: 0 when the awaited event came (and
 * --linger-ms passed), 1 on a set-up error, 2 on timeout, 4 when libuv
 * handles were left open.
 */
#include "compat.h"

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "app-store.h"
#include "crypto.h"
#include "eng.h"
#include "err.h"
#include "sysrand.h"
#include "store.h"

struct drv {
	uv_loop_t		 loop;
	uv_timer_t		 deadline, linger;
	struct wa_eng		*e;
	struct store		*s;
	struct wa_store_ops	 real, ops;
	const char		*until;
	uint64_t		 linger_ms;
	bool			 crash_after_store;
	bool			 done;
	int			 status;
};

static void
finish(struct drv *d, int status)
{
	if (d->done)
		return;
	d->done = true;
	d->status = status;
	fflush(stdout);
	wa_eng_free(d->e);
	d->e = NULL;
	uv_close((uv_handle_t *)&d->deadline, NULL);
	uv_close((uv_handle_t *)&d->linger, NULL);
}

static void
on_linger(uv_timer_t *t)
{
	finish(t->data, 0);
}

static const char *
kind_name(enum wa_eng_ev_kind k)
{
	switch (k) {
	case WA_ENG_EV_CONNECTING:	return "connecting";
	case WA_ENG_EV_QR:		return "qr";
	case WA_ENG_EV_PAIRED:		return "paired";
	case WA_ENG_EV_CONNECTED:	return "connected";
	case WA_ENG_EV_PREKEYS_STORED:	return "prekeys-stored";
	case WA_ENG_EV_PREKEYS_SENT:	return "prekeys-sent";
	case WA_ENG_EV_PREKEYS_UPLOADED: return "prekeys-uploaded";
	case WA_ENG_EV_PREKEY_COUNT:	return "prekey-count";
	case WA_ENG_EV_QR_REFRESH:	return "qr-refresh";
	case WA_ENG_EV_PAIR_CODE:	return "pair-code";
	case WA_ENG_EV_VERSION:		return "version";
	case WA_ENG_EV_DISCONNECTED:	return "disconnected";
	case WA_ENG_EV_LOGGED_OUT:	return "logged-out";
	case WA_ENG_EV_STOPPED:		return "stopped";
	case WA_ENG_EV_ERROR:		return "error";
	}
	return "?";
}

static void
on_event(void *arg, const struct wa_eng_ev *ev)
{
	struct drv	*d = arg;
	const char	*k = kind_name(ev->kind);

	switch (ev->kind) {
	case WA_ENG_EV_CONNECTING:
		printf("%s %" PRIu32 " %s\n", k, ev->num, ev->text);
		break;
	case WA_ENG_EV_QR:
		printf("%s %" PRIu32 " %" PRIu32 " %s\n", k, ev->num, ev->secs,
		    ev->text);
		break;
	case WA_ENG_EV_PAIRED:
	case WA_ENG_EV_CONNECTED:
	case WA_ENG_EV_PAIR_CODE:
	case WA_ENG_EV_VERSION:
		printf("%s %s\n", k, ev->text);
		break;
	case WA_ENG_EV_PREKEYS_STORED:
	case WA_ENG_EV_PREKEYS_SENT:
	case WA_ENG_EV_PREKEYS_UPLOADED:
	case WA_ENG_EV_PREKEY_COUNT:
		printf("%s %" PRIu32 " first=%" PRIu32 "\n", k, ev->num,
		    ev->id);
		break;
	case WA_ENG_EV_DISCONNECTED:
		printf("%s err=%d retry_ms=%" PRIu32 ": %s\n", k, ev->err,
		    ev->retry_ms, ev->text);
		break;
	case WA_ENG_EV_QR_REFRESH:
	case WA_ENG_EV_LOGGED_OUT:
	case WA_ENG_EV_STOPPED:
		printf("%s: %s\n", k, ev->text);
		break;
	case WA_ENG_EV_ERROR:
		printf("%s err=%d: %s\n", k, ev->err, ev->text);
		break;
	}
	fflush(stdout);
	if (d->done || d->until == NULL || strcmp(d->until, k) != 0)
		return;
	if (d->linger_ms > 0) {
		d->until = NULL;
		uv_timer_start(&d->linger, on_linger, d->linger_ms, 0);
	} else
		finish(d, 0);
}

static void
on_deadline(uv_timer_t *t)
{
	printf("timeout\n");
	finish(t->data, 2);
}

/* The store's prekey_put, reported, and the crash point of the test. */
static int
put_wrap(void *arg, const struct wa_prekey *k, size_t n)
{
	struct drv	*d = arg;
	int		 rc = d->real.prekey_put(d->real.arg, k, n);

	printf("store-put n=%zu first=%" PRIu32 " rc=%d\n", n,
	    n > 0 ? k[0].id : 0, rc);
	fflush(stdout);
	if (rc == 0 && d->crash_after_store)
		_exit(9);
	return rc;
}

static int
w_load(void *a, struct wa_device *o)
{
	struct drv	*d = a;

	return d->real.device_load(d->real.arg, o);
}
static int
w_save(void *a, const struct wa_device *v)
{
	struct drv	*d = a;

	return d->real.device_save(d->real.arg, v);
}
static int
w_forget(void *a)
{
	struct drv	*d = a;

	return d->real.device_forget(d->real.arg);
}
static int
w_next(void *a, uint32_t *id)
{
	struct drv	*d = a;

	return d->real.prekey_next_id(d->real.arg, id);
}
static int
w_pend(void *a, struct wa_prekey *o, size_t m)
{
	struct drv	*d = a;

	return d->real.prekey_pending(d->real.arg, o,
	    m);
}
static int
w_mark(void *a, uint32_t f, uint32_t l)
{
	struct drv	*d = a;

	return d->real.prekey_mark_uploaded(d->real.arg, f,
	    l);
}
static int
w_count(void *a)
{
	struct drv	*d = a;

	return d->real.prekey_count(d->real.arg);
}

static void
show_store(struct store *s)
{
	struct store_device	 dev;
	struct store_prekey	*pk;
	int			 rc, count, pend;

	memset(&dev, 0, sizeof(dev));
	rc = store_device_load(s, &dev);
	count = store_prekey_count(s);
	pk = calloc(4096, sizeof(*pk));
	pend = pk != NULL ? store_prekey_pending(s, pk, 4096) : -ENOMEM;
	free(pk);
	if (rc == 1)
		printf("store jid=%s prekeys=%d pending=%d\n",
		    dev.jid[0] != '\0' ? dev.jid : "-", count, pend);
	else if (rc == 0)
		printf("store none prekeys=%d\n", count);
	else
		printf("store error %d\n", rc);
	store_device_release(&dev);
}

static int
parse_hex32(const char *s, uint8_t out[32])
{
	size_t	 i;

	if (strlen(s) != 64)
		return -1;
	for (i = 0; i < 32; i++) {
		unsigned	 v;

		if (sscanf(s + 2 * i, "%2x", &v) != 1)
			return -1;
		out[i] = (uint8_t)v;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	static const struct option	 longopts[] = {
		{ "url", required_argument, NULL, 'u' },
		{ "root", required_argument, NULL, 'r' },
		{ "store", required_argument, NULL, 's' },
		{ "qr-file", required_argument, NULL, 'f' },
		{ "qr-ms", required_argument, NULL, 'q' },
		{ "ping-ms", required_argument, NULL, 'p' },
		{ "ping-deadline-ms", required_argument, NULL, 'P' },
		{ "until", required_argument, NULL, 't' },
		{ "linger-ms", required_argument, NULL, 'l' },
		{ "deadline-ms", required_argument, NULL, 'd' },
		{ "crash-after-store", no_argument, NULL, 'c' },
		{ "show", no_argument, NULL, 'S' },
		{ "pair-code", required_argument, NULL, 'C' },
		{ "version", required_argument, NULL, 'V' },
		{ "version-url", required_argument, NULL, 'U' },
		{ "ca-file", required_argument, NULL, 'A' },
		{ NULL, 0, NULL, 0 },
	};
	struct drv		 d;
	struct wa_eng_cfg	 cfg;
	uint8_t			 root[32];
	const char		*dir = NULL;
	unsigned long		 deadline = 20000;
	bool			 show = false;
	int			 ch, rc;

	memset(&d, 0, sizeof(d));
	memset(&cfg, 0, sizeof(cfg));
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		switch (ch) {
		case 'u':
			cfg.url = optarg;
			break;
		case 'r':
			if (parse_hex32(optarg, root) != 0) {
				fprintf(stderr, "--root: 64 hex digits\n");
				return 1;
			}
			cfg.root_pub = root;
			break;
		case 's':
			dir = optarg;
			break;
		case 'f':
			cfg.qr_file = optarg;
			break;
		case 'q':
			cfg.qr_first_ms = cfg.qr_next_ms =
			    (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'p':
			cfg.ping_ms = (uint32_t)strtoul(optarg, NULL, 10);
			break;
		case 'P':
			cfg.ping_deadline_ms = (uint32_t)strtoul(optarg, NULL,
			    10);
			break;
		case 't':
			d.until = optarg;
			break;
		case 'l':
			d.linger_ms = strtoull(optarg, NULL, 10);
			break;
		case 'd':
			deadline = strtoul(optarg, NULL, 10);
			break;
		case 'c':
			d.crash_after_store = true;
			break;
		case 'S':
			show = true;
			break;
		case 'C':
			cfg.pair_pn = optarg;
			break;
		case 'V':
			cfg.version = optarg;
			break;
		case 'U':
			cfg.version_url = optarg;
			break;
		case 'A':
			cfg.ca_file = optarg;
			break;
		default:
			fprintf(stderr, "usage: wa-eng-driver --store DIR "
			    "[--url URL --root HEX --until EVENT ...]\n");
			return 1;
		}
	}
	if (dir == NULL) {
		fprintf(stderr, "--store DIR is required\n");
		return 1;
	}
	if (wa_crypto_init() != 0) {
		fprintf(stderr, "wa_crypto_init failed\n");
		return 1;
	}
	if ((rc = store_open(dir, &d.s)) != 0) {
		fprintf(stderr, "store_open %s: %s\n", dir, wc_strerror(rc));
		return 1;
	}
	if (show) {
		show_store(d.s);
		store_close(d.s);
		return 0;
	}
	app_store_ops(d.s, &d.real);
	d.ops.device_load = w_load;
	d.ops.device_save = w_save;
	d.ops.device_forget = w_forget;
	d.ops.prekey_next_id = w_next;
	d.ops.prekey_put = put_wrap;
	d.ops.prekey_pending = w_pend;
	d.ops.prekey_mark_uploaded = w_mark;
	d.ops.prekey_count = w_count;
	d.ops.arg = &d;
	cfg.os = "wa-eng-driver";
	cfg.rng = sys_random;
	cfg.now_ms = sys_now_ms;
	cfg.store = &d.ops;
	cfg.on_event = on_event;
	cfg.ev_arg = &d;
	if (uv_loop_init(&d.loop) != 0)
		return 1;
	if ((rc = wa_eng_new(&d.loop, &cfg, &d.e)) != 0) {
		fprintf(stderr, "wa_eng_new: %s\n", wc_strerror(rc));
		store_close(d.s);
		return 1;
	}
	uv_timer_init(&d.loop, &d.deadline);
	uv_timer_init(&d.loop, &d.linger);
	d.deadline.data = d.linger.data = &d;
	uv_timer_start(&d.deadline, on_deadline, deadline, 0);
	if ((rc = wa_eng_start(d.e)) != 0) {
		fprintf(stderr, "wa_eng_start: %s\n", wc_strerror(rc));
		finish(&d, 1);
	}
	uv_run(&d.loop, UV_RUN_DEFAULT);
	show_store(d.s);
	store_close(d.s);
	if (uv_loop_close(&d.loop) != 0) {
		printf("handles left open\n");
		return 4;
	}
	fflush(stdout);
	return d.status;
}
