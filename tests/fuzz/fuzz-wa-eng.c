/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/fuzz-wa-eng.c -- fuzz target for the engine's stanza
 * handlers: hostile frames fed to a logged-in engine (proto/eng.h) through
 * its connection's frame callback, so the dispatch of
 * proto/eng-stanza.c and every handler behind it sees them: <iq> (ping,
 * set, answers), <notification> (devices, encrypt, account_sync,
 * companion_reg_refresh, w:gp2, ...), <message> (decrypted against the
 * fixed Signal world of tests/fuzz/signal-world.h, so that a real payload
 * reaches the Message parser and the store), <receipt>, <ack>,
 * <chatstate>, <presence>, <ib>, <call>, <failure>, <stream:error>.
 * The connection is tests/fakes/fake-conn.c (no socket), the stores are
 * the world's in-memory one and a device table here, the version is
 * pinned (a failure 405 looks nothing up) and history sync is left out
 * (it fetches over HTTPS).
 * Input: frames, each a 2-byte big-endian length and that many bytes
 * (flags byte, then the node); what is left at the end is one more frame;
 * at most FUZZ_MAX_FRAMES.  Each input gets a new engine, the random
 * stream restarted and a store transaction rolled back after, so every
 * run starts from the same state.
 * Contract: no crash, no leak, no transaction left open; an engine still
 * online answers a ping afterwards; the loop closes clean.
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/bin.h"
#include "proto/eng.h"
#include "proto/node.h"
#include "tests/fakes/fake-conn.h"
#include "tests/fakes/fake-rand.h"
#include "tests/fakes/fake-store.h"
#include "tests/fuzz/signal-world.h"

#define FUZZ_MAX_FRAMES	64

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct sw		 w;
static struct wa_dm_store_ops	 dm_ops;
static struct wa_device		 dev;
static struct buf		 success, ping;
static bool			 ready;

/* --- the engine's device table (struct wa_store_ops) --- */

static int
dev_load(void *arg, struct wa_device *out)
{
	(void)arg;
	*out = dev;
	return 1;
}

static int
dev_ok(void *arg, const struct wa_device *d)
{
	(void)arg;
	(void)d;
	return 0;
}

static int
dev_forget(void *arg)
{
	(void)arg;
	return 0;
}

static int
pk_next(void *arg, uint32_t *id)
{
	(void)arg;
	*id = 100;
	return 0;
}

static int
pk_put(void *arg, const struct wa_prekey *k, size_t n)
{
	(void)arg;
	(void)k;
	(void)n;
	return 0;
}

static int
pk_pending(void *arg, struct wa_prekey *out, size_t max)
{
	(void)arg;
	(void)out;
	(void)max;
	return 0;
}

static int
pk_mark(void *arg, uint32_t first, uint32_t last)
{
	(void)arg;
	(void)first;
	(void)last;
	return 0;
}

static int
pk_count(void *arg)
{
	(void)arg;
	return 50;	/* enough: no upload of 812 new keys per run */
}

static const struct wa_store_ops dev_ops = {
	.device_load = dev_load,
	.device_save = dev_ok,
	.device_forget = dev_forget,
	.prekey_next_id = pk_next,
	.prekey_put = pk_put,
	.prekey_pending = pk_pending,
	.prekey_mark_uploaded = pk_mark,
	.prekey_count = pk_count,
};

static void
on_event(void *arg, const struct wa_eng_ev *ev)
{
	(void)arg;
	(void)ev;
}

static void
on_dm_event(void *arg, const struct wa_dm_ev *ev)
{
	(void)arg;
	(void)ev;
}

/* One stanza of ours, packed into out (a frame payload). */
static void
pack(struct wa_node *n, struct buf *out)
{
	if (wa_bin_pack(n, out) != 0)
		abort();
}

static void
setup(void)
{
	struct arena	 a;
	struct wa_node	*n;

	sw_build(&w);
	fake_store_dm_ops(w.us, &dm_ops);
	memset(&dev, 0, sizeof(dev));
	dev.registration_id = fake_store_registration_id(w.us);
	dev.spk_id = 1;
	snprintf(dev.jid, sizeof(dev.jid), "%s", SW_OWN_JID);
	snprintf(dev.lid, sizeof(dev.lid), "%s", SW_OWN_LID);
	snprintf(dev.push_name, sizeof(dev.push_name), "Ann");
	memset(dev.adv_identity, 0x42, 40);
	dev.adv_identity_len = 40;
	arena_init(&a, 0);
	n = wa_nb_new(&a, "success", 4);
	wa_nb_attr(n, "t", "1700000000");
	wa_nb_attr(n, "props", "1");
	if (wa_nb_attr_jid(n, "lid", SW_OWN_LID) != 0)
		abort();
	pack(n, &success);
	n = wa_nb_new(&a, "iq", 4);
	wa_nb_attr(n, "id", "fuzz-ping");
	wa_nb_attr_server(n, "from");
	wa_nb_attr(n, "type", "get");
	wa_nb_attr(n, "xmlns", "urn:xmpp:ping");
	pack(n, &ping);
	arena_release(&a);
}

/* After the hostile frames: an engine still online answers a ping. */
static void
still_answers(struct wa_eng *e, struct wa_conn *c)
{
	struct arena	 a;
	struct wa_node	*n;
	const struct buf *b;
	size_t		 before;

	if (c == NULL || !wa_eng_is_online(e) || c != fake_conn_last())
		return;
	before = fake_conn_sent(c);
	if (!fake_conn_frame(c, ping.p, ping.len))
		return;
	if (fake_conn_sent(c) != before + 1 ||
	    (b = fake_conn_last_sent(c)) == NULL)
		abort();
	arena_init(&a, 0);
	if (wa_bin_decode(b->p, b->len, &a, &n, NULL) != 0 ||
	    !wa_str_eqc(n->tag, "iq") || !wa_node_str_is(n, "type", "result") ||
	    !wa_node_str_is(n, "id", "fuzz-ping"))
		abort();
	arena_release(&a);
}

static void
feed(struct wa_eng *e, const uint8_t *p, size_t size)
{
	size_t	 k, len;

	for (k = 0; k < FUZZ_MAX_FRAMES && size > 0; k++) {
		struct wa_conn	*c = fake_conn_last();

		if (size >= 2 && ((size_t)p[0] << 8 | p[1]) <= size - 2) {
			len = (size_t)p[0] << 8 | p[1];
			p += 2;
			size -= 2;
		} else
			len = size;
		/* A connection the engine closed gets no more frames; a
		 * new one (a reconnect) comes up as the server would. */
		if (c != NULL && !wa_conn_is_open(c) && fake_conn_up(c))
			(void)fake_conn_frame(c, success.p, success.len);
		if (c != NULL)
			(void)fake_conn_frame(c, p, len);
		p += len;
		size -= len;
		(void)e;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wa_eng_cfg	 cfg;
	struct wa_eng		*e;
	struct wa_conn		*c;
	uv_loop_t		 loop;

	if (!ready) {
		setup();
		ready = true;
	}
	fake_rand_reset(SW_SEED + 2);
	if (w.us_ops.tx_begin(w.us_ops.arg) != 0 || uv_loop_init(&loop) != 0)
		abort();
	memset(&cfg, 0, sizeof(cfg));
	cfg.url = "ws://127.0.0.1:9/ws";	/* never dialled: fake-conn */
	cfg.version = "2.3000.1";		/* pinned: no look-up */
	cfg.ping_ms = 1000;
	cfg.rng = fake_rand_fill;
	cfg.now_ms = sw_now;
	cfg.store = &dev_ops;
	cfg.on_event = on_event;
	cfg.signal_store = &w.us_ops;
	cfg.dm_store = &dm_ops;
	cfg.on_dm_event = on_dm_event;
	cfg.dm.send_read_receipts = true;
	cfg.dm.send_presence = true;
	if (wa_eng_new(&loop, &cfg, &e) != 0 || wa_eng_start(e) != 0 ||
	    (c = fake_conn_last()) == NULL || !fake_conn_up(c) ||
	    !fake_conn_frame(c, success.p, success.len) ||
	    !wa_eng_is_online(e))
		abort();
	feed(e, data, size);
	still_answers(e, fake_conn_last());
	wa_eng_free(e);
	if (uv_run(&loop, UV_RUN_DEFAULT) != 0 || uv_loop_close(&loop) != 0)
		abort();	/* a handle left behind */
	if (fake_store_tx_depth(w.us) != 1)
		abort();	/* a transaction left open or closed twice */
	if (w.us_ops.tx_rollback(w.us_ops.arg) != 0)
		abort();
	return 0;
}
