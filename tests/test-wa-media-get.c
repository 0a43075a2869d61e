/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-get.c -- downloads on request (proto/media-get.c)
 * over a store and an engine played here and a small HTTP server thread
 * (plain HTTP, the module's test setting): media_conn is asked once and
 * its hosts kept; the file lands in the media folder under a free name
 * (an existing file is not replaced) with the plaintext's bytes, the
 * store says downloading then done with the path, progress is coalesced;
 * a second ask ends at once; a size over the cap asks nothing; a flipped
 * byte ends corrupt and leaves no file; 404 sends the media retry
 * receipt and the phone's answer downloads from the new path (kept in
 * the store for the next download), no answer
 * ends expired; 403 asks media_conn again once; at most
 * WA_MGET_RUN_MAX run at once; free stops a download and leaves no file.
 */
#include "base/compat.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <uv.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "proto/bin.h"
#include "proto/crypto.h"
#include "proto/media-get.h"
#include "proto/media.h"
#include "proto/node.h"
#include "tests/loopback.h"

#define PLAIN_LEN	200003
#define RETRY_INFO	"WhatsApp Media Retry Notification"

static uint8_t		 key[32], plain[PLAIN_LEN];
static struct buf	 blob;
static uint8_t		 enc_sha[32], sha[32];
static int		 lsock = -1, port;
static pthread_t	 server;
static atomic_int	 hits, denied, inflight;
static char		 dir[64];

/* --- the media host --- */

static void
put(int fd, const void *p, size_t len)
{
	const uint8_t	*b = p;
	ssize_t		 w;

	for (; len > 0 && (w = send(fd, b, len, MSG_NOSIGNAL)) > 0;
	    b += w, len -= (size_t)w)
		;
}

/* /ok /new: the blob; /bad: a byte flipped; /deny: 403 the first time;
 * /slow: half, a pause, the rest; else 404. */
static void
reply(int fd, const char *path)
{
	char	 h[160];
	uint8_t	*b;
	bool	 ok = strncmp(path, "/ok", 3) == 0 ||
		    strncmp(path, "/new", 4) == 0 ||
		    strncmp(path, "/slow", 5) == 0 ||
		    strncmp(path, "/bad", 4) == 0;

	if (strncmp(path, "/deny", 5) == 0)
		ok = atomic_fetch_add(&denied, 1) > 0;
	if (!ok) {
		snprintf(h, sizeof(h), "HTTP/1.1 %s\r\nContent-Length: 0\r\n"
		    "Connection: close\r\n\r\n", strncmp(path, "/deny", 5) ==
		    0 ? "403 Forbidden" : "404 Not Found");
		put(fd, h, strlen(h));
		return;
	}
	b = malloc(blob.len);
	memcpy(b, blob.p, blob.len);
	if (path[1] == 'b')
		b[blob.len / 3] ^= 1;
	snprintf(h, sizeof(h), "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n"
	    "Connection: close\r\n\r\n", blob.len);
	put(fd, h, strlen(h));
	put(fd, b, blob.len / 2);
	if (path[1] == 's')
		usleep(600 * 1000);
	put(fd, b + blob.len / 2, blob.len - blob.len / 2);
	free(b);
}

static void *
serve(void *arg)
{
	char	 req[4096], path[1024];
	ssize_t	 n;
	int	 fd;

	(void)arg;
	while ((fd = accept(lsock, NULL, NULL)) >= 0) {
		n = recv(fd, req, sizeof(req) - 1, 0);
		req[n > 0 ? n : 0] = '\0';
		atomic_fetch_add(&hits, 1);
		atomic_fetch_add(&inflight, 1);
		if (sscanf(req, "GET %1023s", path) == 1)
			reply(fd, path);
		atomic_fetch_sub(&inflight, 1);
		close(fd);
	}
	return NULL;
}

/* --- the engine and the store played here --- */

struct world {
	uv_loop_t		 loop;
	struct wa_mget		*m;
	struct wa_mget_item	 item;
	bool			 have;		/* lookup finds item */
	int			 state;		/* set_state's last */
	char			 path[WA_MGET_PATH_MAX];
	int			 states_seen;	/* set_state calls */
	char			 kept[WA_MGET_PATH_MAX]; /* set_direct_path's */
	int			 running, most;	/* DOWNLOADING now, at most */
	unsigned		 iqs, receipts;
	char			 iq[32];
	unsigned		 idn;
	unsigned		 progress, done;
	struct wa_mget_ev	 last;
	char			 last_path[WA_MGET_PATH_MAX];
};

static int
w_send(void *arg, const struct wa_node *n)
{
	struct world	*w = arg;

	if (wa_str_eqc(n->tag, "iq")) {
		w->iqs++;
		snprintf(w->iq, sizeof(w->iq), "%.*s",
		    (int)wa_node_str(n, "id").len, wa_node_str(n, "id").p);
	} else if (wa_str_eqc(n->tag, "receipt")) {
		assert_true(wa_node_str_is(n, "type", "server-error"));
		assert_true(wa_node_str_is(n, "id", "MSG1"));
		w->receipts++;
	}
	return 0;
}

static void
w_iq_id(void *arg, char out[32])
{
	struct world	*w = arg;

	snprintf(out, 32, "q%u", ++w->idn);
}

static int
w_rng(void *arg, uint8_t *p, size_t len)
{
	(void)arg;
	memset(p, 0x5a, len);
	return 0;
}

static int
w_lookup(void *arg, const char *chat, const char *id,
    struct wa_mget_item *out)
{
	struct world	*w = arg;

	(void)chat;
	(void)id;
	if (!w->have)
		return 0;
	*out = w->item;
	return 1;
}

static int
w_set_state(void *arg, const char *chat, bool from_me, const char *id,
    enum wa_mget_state st, const char *path)
{
	struct world	*w = arg;

	(void)chat;
	(void)from_me;
	(void)id;
	w->state = (int)st;
	w->states_seen++;
	if (st == WA_MGET_ST_DOWNLOADING && ++w->running > w->most)
		w->most = w->running;
	else if (st != WA_MGET_ST_DOWNLOADING)
		w->running--;
	snprintf(w->path, sizeof(w->path), "%s", path != NULL ? path : "");
	return 1;
}

static int
w_set_direct_path(void *arg, const char *chat, bool from_me, const char *id,
    const char *direct_path)
{
	struct world	*w = arg;

	assert_string_equal(chat, "c@s.whatsapp.net");
	assert_false(from_me);
	assert_string_equal(id, "MSG1");
	snprintf(w->kept, sizeof(w->kept), "%s", direct_path);
	return 1;
}

static void
w_event(void *arg, const struct wa_mget_ev *ev)
{
	struct world	*w = arg;

	if (ev->kind == WA_MGET_EV_PROGRESS) {
		w->progress++;
		return;
	}
	w->done++;
	w->last = *ev;
	snprintf(w->last_path, sizeof(w->last_path), "%s", ev->path);
}

static struct wa_mget_host		 host;
static struct wa_mget_store_ops		 ops;

static void
world_new(struct world *w, uint64_t max, uint32_t retry_ms)
{
	struct wa_mget_cfg	 cfg;

	memset(w, 0, sizeof(*w));
	assert_int_equal(uv_loop_init(&w->loop), 0);
	host.send = w_send;
	host.iq_id = w_iq_id;
	host.rng = w_rng;
	host.loop = &w->loop;
	host.arg = w;
	ops.lookup = w_lookup;
	ops.set_state = w_set_state;
	ops.set_direct_path = w_set_direct_path;
	ops.arg = w;
	memset(&cfg, 0, sizeof(cfg));
	cfg.dir = dir;
	cfg.max_size = max;
	cfg.retry_wait_ms = retry_ms;
	cfg.plain_http = true;
	assert_int_equal(wa_mget_new(&host, &ops, &cfg, w_event, w, &w->m),
	    0);
	w->have = true;
	w->item.type = WA_MEDIA_IMAGE;
	snprintf(w->item.mimetype, sizeof(w->item.mimetype), "image/jpeg");
	w->item.size = PLAIN_LEN;
	memcpy(w->item.media_key, key, 32);
	memcpy(w->item.file_sha256, sha, 32);
	memcpy(w->item.file_enc_sha256, enc_sha, 32);
	w->item.has_key = w->item.has_sha256 = w->item.has_enc_sha256 = true;
	snprintf(w->item.direct_path, sizeof(w->item.direct_path), "/ok/1");
	wa_mget_online(w->m, "15550000001:3@s.whatsapp.net");
}

static void
world_free(struct world *w)
{
	wa_mget_free(w->m);
	while (uv_run(&w->loop, UV_RUN_NOWAIT) != 0)
		;
	assert_int_equal(uv_loop_close(&w->loop), 0);
}

/* The server's answer to the media_conn query sent last. */
static void
answer_conn(struct world *w)
{
	struct arena	 a;
	struct wa_node	*n, *k, *mc, *hk;
	char		 h[64];

	snprintf(h, sizeof(h), "127.0.0.1:%d", port);
	arena_init(&a, 0);
	n = wa_nb_new(&a, "iq", 2);
	wa_nb_attr(n, "id", w->iq);
	wa_nb_attr(n, "type", "result");
	k = wa_nb_kids(&a, n, 1);
	mc = wa_nb_kid(&a, &k[0], "media_conn", 2);
	wa_nb_attr(mc, "auth", "x");
	wa_nb_attr(mc, "ttl", "600");
	hk = wa_nb_kids(&a, mc, 1);
	wa_nb_attr(wa_nb_kid(&a, &hk[0], "host", 1), "hostname", h);
	assert_int_equal(wa_mget_stanza(w->m, n), 1);
	arena_release(&a);
}

/* Run the loop until n downloads ended. */
static void
until_done(struct world *w, unsigned n)
{
	while (w->done < n && uv_run(&w->loop, UV_RUN_ONCE) != 0)
		;
	assert_int_equal(w->done, n);
}

/* The names in dir; asserts none is a temp file; removes them. */
static size_t
files(bool remove)
{
	DIR		*d = opendir(dir);
	struct dirent	*e;
	char		 p[512];
	size_t		 n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' ||
		    strcmp(e->d_name, "..") == 0))
			continue;
		assert_null(strstr(e->d_name, "wachat-dl"));
		n++;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		if (remove)
			unlink(p);
	}
	closedir(d);
	return n;
}

static void
assert_plain(const char *path)
{
	struct buf	 b = BUF_INIT;
	FILE		*f = fopen(path, "rb");
	char		 chunk[65536];
	size_t		 n;

	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		buf_append(&b, chunk, n);
	fclose(f);
	assert_int_equal(b.len, PLAIN_LEN);
	assert_memory_equal(b.p, plain, PLAIN_LEN);
	buf_release(&b);
}

/* --- the tests --- */

static void
test_wa_mget__downloads__into_the_folder_and_keeps_the_hosts(void **state)
{
	struct world	 w;
	char		 want[128];

	(void)state;
	world_new(&w, 0, 0);
	assert_int_equal(wa_mget_get(w.m, "15550000002@s.whatsapp.net",
	    "MSG1", NULL), 0);
	assert_int_equal(w.iqs, 1);
	assert_int_equal(wa_mget_get(w.m, "15550000002@s.whatsapp.net",
	    "MSG1", NULL), -EALREADY);
	answer_conn(&w);
	until_done(&w, 1);
	assert_int_equal(w.last.end, WA_MGET_OK);
	snprintf(want, sizeof(want), "%s/image-MSG1.jpg", dir);
	assert_string_equal(w.last_path, want);
	assert_int_equal(w.state, WA_MGET_ST_DONE);
	assert_string_equal(w.path, want);
	assert_plain(want);
	/* progress: the start, then at most a few per second */
	assert_true(w.progress >= 1 && w.progress <= 6);
	/* the same again: the file is there, nothing is asked */
	w.item.state = WA_MGET_ST_DONE;
	snprintf(w.item.path, sizeof(w.item.path), "%s", want);
	atomic_store(&hits, 0);
	assert_int_equal(wa_mget_get(w.m, "15550000002@s.whatsapp.net",
	    "MSG1", NULL), 0);
	assert_int_equal(w.done, 2);
	assert_int_equal(w.last.end, WA_MGET_OK);
	assert_string_equal(w.last_path, want);
	assert_int_equal(atomic_load(&hits), 0);
	/* asked again with the file gone: downloaded again, the hosts kept
	 * (no second media_conn), under the same free name */
	w.item.state = WA_MGET_ST_NONE;
	assert_int_equal(wa_mget_get(w.m, "15550000002@s.whatsapp.net",
	    "MSG1", NULL), 0);
	until_done(&w, 3);
	assert_int_equal(w.iqs, 1);
	snprintf(want, sizeof(want), "%s/image-MSG1-1.jpg", dir);
	assert_string_equal(w.last_path, want);	/* the first not replaced */
	assert_int_equal(files(true), 2);
	world_free(&w);
}

static void
test_wa_mget__refuses__a_size_over_the_cap_and_no_media(void **state)
{
	struct world	 w;

	(void)state;
	world_new(&w, 1000, 0);
	atomic_store(&hits, 0);
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG1", NULL),
	    0);
	assert_int_equal(w.done, 1);
	assert_int_equal(w.last.end, WA_MGET_TOOBIG);
	assert_int_equal(w.last.err, WC_ETOOBIG);
	assert_int_equal(w.iqs, 0);
	assert_int_equal(w.states_seen, 0);
	w.have = false;
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG2", NULL),
	    0);
	assert_int_equal(w.last.end, WA_MGET_NO_MEDIA);
	w.have = true;
	w.item.has_key = false;
	w.item.size = 10;
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG3", NULL),
	    0);
	assert_int_equal(w.last.end, WA_MGET_NO_MEDIA);
	assert_int_equal(atomic_load(&hits), 0);
	assert_int_equal(wa_mget_get(w.m, "", "MSG3", NULL), -EINVAL);
	world_free(&w);
}

static void
test_wa_mget__ends_corrupt__on_a_flipped_byte_and_leaves_no_file(
    void **state)
{
	struct world	 w;

	(void)state;
	world_new(&w, 0, 0);
	snprintf(w.item.direct_path, sizeof(w.item.direct_path), "/bad/1");
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG1", NULL),
	    0);
	answer_conn(&w);
	until_done(&w, 1);
	assert_int_equal(w.last.end, WA_MGET_CORRUPT);
	assert_int_equal(w.state, WA_MGET_ST_CORRUPT);
	assert_string_equal(w.last_path, "");
	assert_int_equal(files(false), 0);
	world_free(&w);
}

/* The phone's mediaretry answer for MSG1 with a new path. */
static void
answer_retry(struct world *w, const char *path)
{
	struct arena	 a;
	struct wa_node	*n, *k, *e, *ek;
	struct buf	 pb = BUF_INIT;
	uint8_t		 rk[32], iv[12] = { 9 }, *ct;

	assert_int_equal(wa_crypto_hkdf(NULL, 0, key, 32,
	    (const uint8_t *)RETRY_INFO, strlen(RETRY_INFO), rk, 32), 0);
	buf_append(&pb, "\x0a\x04MSG1", 6);
	buf_push(&pb, 0x12);
	buf_push(&pb, (uint8_t)strlen(path));
	buf_append(&pb, path, strlen(path));
	buf_append(&pb, "\x18\x01", 2);
	arena_init(&a, 0);
	ct = arena_alloc(&a, pb.len + 16);
	assert_int_equal(wa_crypto_gcm_seal_once(rk, iv,
	    (const uint8_t *)"MSG1", 4, pb.p, pb.len, ct), 0);
	n = wa_nb_new(&a, "notification", 2);
	wa_nb_attr(n, "id", "MSG1");
	wa_nb_attr(n, "type", "mediaretry");
	k = wa_nb_kids(&a, n, 2);
	wa_nb_kid(&a, &k[0], "rmr", 0);
	e = wa_nb_kid(&a, &k[1], "encrypt", 0);
	ek = wa_nb_kids(&a, e, 2);
	wa_nb_bytes(wa_nb_kid(&a, &ek[0], "enc_p", 0), ct, pb.len + 16);
	wa_nb_bytes(wa_nb_kid(&a, &ek[1], "enc_iv", 0), iv, 12);
	assert_int_equal(wa_mget_stanza(w->m, n), 1);
	arena_release(&a);
	buf_release(&pb);
}

static void
test_wa_mget__asks_the_phone__after_404_and_takes_the_new_path(
    void **state)
{
	struct world	 w;

	(void)state;
	world_new(&w, 0, 0);
	snprintf(w.item.direct_path, sizeof(w.item.direct_path), "/gone/1");
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG1", NULL),
	    0);
	answer_conn(&w);
	while (w.receipts == 0 && uv_run(&w.loop, UV_RUN_ONCE) != 0)
		;
	assert_int_equal(w.receipts, 1);
	assert_int_equal(w.done, 0);
	assert_string_equal(w.kept, "");
	answer_retry(&w, "/new/1");
	until_done(&w, 1);
	assert_int_equal(w.last.end, WA_MGET_OK);
	assert_true(w.last.retried);
	assert_string_equal(w.kept, "/new/1");	/* kept for the next one */
	assert_plain(w.last_path);
	assert_int_equal(files(true), 1);
	world_free(&w);
}

static void
test_wa_mget__ends_expired__when_the_phone_does_not_answer(void **state)
{
	struct world	 w;

	(void)state;
	world_new(&w, 0, 200);
	snprintf(w.item.direct_path, sizeof(w.item.direct_path), "/gone/2");
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG1", NULL),
	    0);
	answer_conn(&w);
	until_done(&w, 1);
	assert_int_equal(w.receipts, 1);
	assert_int_equal(w.last.end, WA_MGET_EXPIRED);
	assert_int_equal(w.state, WA_MGET_ST_EXPIRED);
	assert_int_equal(files(false), 0);
	world_free(&w);
}

static void
test_wa_mget__asks_media_conn_again__once_after_403(void **state)
{
	struct world	 w;

	(void)state;
	world_new(&w, 0, 0);
	atomic_store(&denied, 0);
	snprintf(w.item.direct_path, sizeof(w.item.direct_path), "/deny/1");
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG1", NULL),
	    0);
	answer_conn(&w);
	while (w.iqs < 2 && uv_run(&w.loop, UV_RUN_ONCE) != 0)
		;
	assert_int_equal(w.iqs, 2);
	answer_conn(&w);
	until_done(&w, 1);
	assert_int_equal(w.last.end, WA_MGET_OK);
	assert_int_equal(files(true), 1);
	world_free(&w);
}

static void
test_wa_mget__runs_at_most_the_cap__and_free_stops_them(void **state)
{
	struct world	 w;
	char		 id[16];
	int		 i;

	(void)state;
	world_new(&w, 0, 0);
	snprintf(w.item.direct_path, sizeof(w.item.direct_path), "/slow/1");
	for (i = 0; i < WA_MGET_RUN_MAX + 2; i++) {
		snprintf(id, sizeof(id), "M%d", i);
		assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", id,
		    NULL), 0);
	}
	assert_int_equal(wa_mget_pending(w.m), WA_MGET_RUN_MAX + 2);
	answer_conn(&w);
	until_done(&w, WA_MGET_RUN_MAX + 2);
	assert_int_equal(w.most, WA_MGET_RUN_MAX);
	assert_int_equal(files(true), WA_MGET_RUN_MAX + 2);
	/* free in the middle of one: no event, NONE, no file */
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "M9", NULL),
	    0);
	while (w.progress == 0 && uv_run(&w.loop, UV_RUN_ONCE) != 0)
		;
	w.progress = 0;
	while (atomic_load(&inflight) == 0)
		usleep(10 * 1000);
	world_free(&w);
	assert_int_equal(w.done, WA_MGET_RUN_MAX + 2);
	assert_int_equal(w.state, WA_MGET_ST_NONE);
	usleep(800 * 1000);	/* the worker ends and cleans up */
	assert_int_equal(files(false), 0);
}

static void
test_wa_mget__writes__to_the_path_asked_and_never_over_a_file(
    void **state)
{
	struct world	 w;
	char		 out[128];
	FILE		*f;

	(void)state;
	world_new(&w, 0, 0);
	snprintf(out, sizeof(out), "%s/mine.bin", dir);
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG1", out),
	    0);
	answer_conn(&w);
	until_done(&w, 1);
	assert_int_equal(w.last.end, WA_MGET_OK);
	assert_string_equal(w.last_path, out);
	assert_plain(out);
	unlink(out);
	f = fopen(out, "w");
	fputs("keep", f);
	fclose(f);
	assert_int_equal(wa_mget_get(w.m, "c@s.whatsapp.net", "MSG1", out),
	    0);
	until_done(&w, 2);
	assert_int_equal(w.last.end, WA_MGET_FAILED);
	assert_int_equal(w.last.err, -EEXIST);
	f = fopen(out, "r");
	assert_non_null(f);
	assert_non_null(fgets(out + 100, 8, f));
	fclose(f);
	assert_string_equal(out + 100, "keep");
	assert_int_equal(files(true), 1);
	world_free(&w);
}

static int
setup_all(void **state)
{
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 5 + 3);
	for (i = 0; i < PLAIN_LEN; i++)
		plain[i] = (uint8_t)(i * 17 + (i >> 9));
	if (wa_media_encrypt(key, WA_MEDIA_INFO_IMAGE, plain, PLAIN_LEN,
	    &blob, enc_sha, sha) != 0)
		return -1;
	if ((lsock = loopback_listen(16, &port)) < 0)
		return -1;
	snprintf(dir, sizeof(dir), "/tmp/wachat-mget-test.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	return pthread_create(&server, NULL, serve, NULL);
}

static int
teardown_all(void **state)
{
	(void)state;
	shutdown(lsock, SHUT_RDWR);
	close(lsock);
	pthread_join(server, NULL);
	buf_release(&blob);
	(void)files(true);
	rmdir(dir);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		  test_wa_mget__downloads__into_the_folder_and_keeps_the_hosts),
		cmocka_unit_test(
		  test_wa_mget__refuses__a_size_over_the_cap_and_no_media),
		cmocka_unit_test(
		  test_wa_mget__ends_corrupt__on_a_flipped_byte_and_leaves_no_file),
		cmocka_unit_test(
		  test_wa_mget__asks_the_phone__after_404_and_takes_the_new_path),
		cmocka_unit_test(
		  test_wa_mget__ends_expired__when_the_phone_does_not_answer),
		cmocka_unit_test(
		  test_wa_mget__asks_media_conn_again__once_after_403),
		cmocka_unit_test(
		  test_wa_mget__runs_at_most_the_cap__and_free_stops_them),
		cmocka_unit_test(
		  test_wa_mget__writes__to_the_path_asked_and_never_over_a_file),
	};

	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
