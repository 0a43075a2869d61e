/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-dl.c -- media downloads (proto/media-dl.c) against
 * a tiny HTTP server in this program (a thread on 127.0.0.1 serving fixed
 * answers by path): a good blob lands at the final path with the
 * plaintext's bytes (mode 0600) and progress up to the blob's length; a
 * flipped byte ends "corrupt" with the check's error and leaves neither
 * the file nor a temp file; 404 and 410 end "expired"; a declared size
 * over the cap is refused before any request, and a Content-Length over
 * it before the body is read; a body longer than declared is cut off;
 * the next URL is tried after a 500 or a fileEncSHA256 mismatch, not
 * after 404 or 403; cancel calls nothing back.  Then the receive path from a file
 * descriptor, the URL form, and the media retry request and answer
 * (1.8) with the answer built here by hand.
 */
#include "base/compat.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
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
#include "proto/media-dl.h"
#include "proto/media-stream.h"
#include "proto/media.h"
#include "proto/node.h"
#include "tests/loopback.h"

#define PLAIN_LEN	300007	/* bytes: several curl writes */

static uint8_t		 key[32], plain[PLAIN_LEN];
static struct buf	 blob;
static uint8_t		 enc_sha[32], sha[32];
static int		 lsock = -1;
static int		 port;
static atomic_int	 requests;
static pthread_t	 server;
static char		 dir[64];

/* --- the server --- */

static void
send_all(int fd, const void *p, size_t len)
{
	const uint8_t	*b = p;
	ssize_t		 w;

	while (len > 0 && (w = send(fd, b, len, MSG_NOSIGNAL)) > 0) {
		b += w;
		len -= (size_t)w;
	}
}

static void
answer(int fd, const char *path)
{
	char	 h[256];
	uint8_t	*b;

	if (strncmp(path, "/longcl", 7) == 0) {
		/* No Content-Length: only the decrypt context can tell. */
		snprintf(h, sizeof(h), "HTTP/1.1 200 OK\r\nConnection: close"
		    "\r\n\r\n");
		send_all(fd, h, strlen(h));
		send_all(fd, blob.p, blob.len);
		send_all(fd, blob.p, 100);
	} else if (strncmp(path, "/ok", 3) == 0 ||
	    strncmp(path, "/long", 5) == 0 ||
	    strncmp(path, "/corrupt", 8) == 0) {
		size_t	 extra = path[1] == 'l' ? 100 : 0;

		b = malloc(blob.len + extra);
		memcpy(b, blob.p, blob.len);
		memset(b + blob.len, 7, extra);
		if (path[1] == 'c')
			b[blob.len / 2] ^= 0x10;
		snprintf(h, sizeof(h), "HTTP/1.1 200 OK\r\nContent-Length: "
		    "%zu\r\nConnection: close\r\n\r\n", blob.len + extra);
		send_all(fd, h, strlen(h));
		send_all(fd, b, blob.len + extra);
		free(b);
	} else if (strncmp(path, "/stall", 6) == 0) {
		/* Part of the body, then a pause the test cancels in. */
		snprintf(h, sizeof(h), "HTTP/1.1 200 OK\r\nContent-Length: "
		    "%zu\r\nConnection: close\r\n\r\n", blob.len);
		send_all(fd, h, strlen(h));
		send_all(fd, blob.p, 100000);
		usleep(1500 * 1000);
		send_all(fd, blob.p + 100000, blob.len - 100000);
	} else if (strncmp(path, "/big", 4) == 0) {
		snprintf(h, sizeof(h), "HTTP/1.1 200 OK\r\nContent-Length: "
		    "%d\r\nConnection: close\r\n\r\n", 50 * 1000 * 1000);
		send_all(fd, h, strlen(h));
		send_all(fd, blob.p, blob.len);
	} else {
		snprintf(h, sizeof(h), "HTTP/1.1 %s\r\nContent-Length: 9\r\n"
		    "Connection: close\r\n\r\nnot here\n",
		    strncmp(path, "/gone410", 8) == 0 ? "410 Gone" :
		    strncmp(path, "/deny", 5) == 0 ? "403 Forbidden" :
		    strncmp(path, "/fail500", 8) == 0 ?
		    "500 Internal Server Error" :
		    "404 Not Found");
		send_all(fd, h, strlen(h));
	}
}

static void *
serve(void *arg)
{
	char	 req[4096], path[512];
	ssize_t	 n;
	size_t	 got;
	int	 fd;

	(void)arg;
	while ((fd = accept(lsock, NULL, NULL)) >= 0) {
		got = 0;
		while (got < sizeof(req) - 1 && (n = recv(fd, req + got,
		    sizeof(req) - 1 - got, 0)) > 0) {
			got += (size_t)n;
			req[got] = '\0';
			if (strstr(req, "\r\n\r\n") != NULL)
				break;
		}
		req[got] = '\0';
		atomic_fetch_add(&requests, 1);
		if (sscanf(req, "GET %511s", path) == 1)
			answer(fd, path);
		close(fd);
	}
	return NULL;
}

static int
setup_all(void **state)
{
	size_t			 i;

	(void)state;
	for (i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(i * 7 + 1);
	for (i = 0; i < PLAIN_LEN; i++)
		plain[i] = (uint8_t)(i * 131 + (i >> 8));
	if (wa_media_encrypt(key, WA_MEDIA_INFO_IMAGE, plain, PLAIN_LEN,
	    &blob, enc_sha, sha) != 0)
		return -1;
	if ((lsock = loopback_listen(8, &port)) < 0)
		return -1;
	snprintf(dir, sizeof(dir), "/tmp/wachat-dl-test.XXXXXX");
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
	rmdir(dir);
	return 0;
}

/* The names in dir, but for keep; asserts none is a temp file. */
static size_t
count_files(const char *keep)
{
	DIR		*d = opendir(dir);
	struct dirent	*e;
	size_t		 n = 0;

	assert_non_null(d);
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' ||
		    strcmp(e->d_name, "..") == 0))
			continue;
		if (strstr(e->d_name, ".wachat-dl-") != NULL)
			fail_msg("a temp file is left: %s", e->d_name);
		if (keep == NULL || strcmp(e->d_name, keep) != 0)
			print_message("# left: %s\n", e->d_name);
		if (keep == NULL || strcmp(e->d_name, keep) != 0)
			n++;
	}
	closedir(d);
	return n;
}

/* --- one download on a loop --- */

struct run {
	bool			 ended;
	enum wa_media_dl_end	 end;
	int			 err;
	long			 status;
	char			 why[256];
	uint64_t		 last_done, last_total;
	unsigned		 ticks;
	bool			 restarts;	/* a next URL is given */
};

static void
on_done(void *arg, enum wa_media_dl_end end, int err, long status,
    const char *why)
{
	struct run	*r = arg;

	r->ended = true;
	r->end = end;
	r->err = err;
	r->status = status;
	snprintf(r->why, sizeof(r->why), "%s", why);
}

static void
on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct run	*r = arg;

	/* Monotonic but for the restart at a next URL. */
	if (!r->restarts)
		assert_true(done >= r->last_done);
	r->last_done = done;
	r->last_total = total;
	r->ticks++;
}

static void
req_for(struct wa_media_dl_req *q, const char *path, char *url,
    char *final, uint64_t file_len, uint64_t max_len)
{
	snprintf(url, 256, "http://127.0.0.1:%d%s", port, path);
	snprintf(final, 256, "%s/file.jpg", dir);
	memset(q, 0, sizeof(*q));
	q->url = url;
	q->dir = dir;
	q->final_path = final;
	q->media_key = key;
	q->info = WA_MEDIA_INFO_IMAGE;
	q->file_enc_sha256 = enc_sha;
	q->file_sha256 = sha;
	q->file_len = file_len;
	q->max_len = max_len;
	q->connect_timeout_ms = 5000;
	q->stall_timeout_ms = 5000;
}

static void
run_dl2(const char *path, const char *next, uint64_t file_len,
    uint64_t max_len, struct run *r)
{
	struct wa_media_dl_req	 q;
	struct wa_media_dl	*d;
	uv_loop_t		 loop;
	char			 url[256], url2[256], final[256];

	memset(r, 0, sizeof(*r));
	r->restarts = next != NULL;
	req_for(&q, path, url, final, file_len, max_len);
	if (next != NULL) {
		snprintf(url2, sizeof(url2), "http://127.0.0.1:%d%s", port,
		    next);
		q.more_urls[0] = url2;
	}
	assert_int_equal(uv_loop_init(&loop), 0);
	assert_int_equal(wa_media_dl_start(&loop, &q, on_done, on_progress,
	    r, &d), 0);
	while (!r->ended && uv_run(&loop, UV_RUN_ONCE) != 0)
		;
	assert_true(r->ended);
	while (uv_run(&loop, UV_RUN_NOWAIT) != 0)
		;
	assert_int_equal(uv_loop_close(&loop), 0);
}

static void
run_dl(const char *path, uint64_t file_len, uint64_t max_len,
    struct run *r)
{
	run_dl2(path, NULL, file_len, max_len, r);
}

static void
test_wa_media_dl__saves__the_verified_plaintext_at_the_final_path(
    void **state)
{
	struct run	 r;
	char		 final[256];
	struct stat	 st;
	struct buf	 got = { 0 };
	FILE		*f;
	uint8_t		 b[65536];
	size_t		 n;

	(void)state;
	run_dl("/ok/v/t62/abc.enc?ccb=1", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_OK);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(r.last_done, blob.len);
	assert_int_equal(r.last_total, blob.len);
	snprintf(final, sizeof(final), "%s/file.jpg", dir);
	assert_int_equal(stat(final, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal(st.st_size, PLAIN_LEN);
	f = fopen(final, "rb");
	while ((n = fread(b, 1, sizeof(b), f)) > 0)
		buf_append(&got, b, n);
	fclose(f);
	assert_int_equal(got.len, PLAIN_LEN);
	assert_memory_equal(got.p, plain, PLAIN_LEN);
	buf_release(&got);
	assert_int_equal(count_files("file.jpg"), 0);
	unlink(final);
}

static void
test_wa_media_dl__ends_corrupt__on_a_flipped_byte_and_leaves_no_file(
    void **state)
{
	struct run	 r;

	(void)state;
	run_dl("/corrupt", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_CORRUPT);
	assert_int_equal(r.err, WC_EENCHASH);
	assert_non_null(strstr(r.why, "fileEncSHA256"));
	assert_int_equal(count_files(NULL), 0);
}

static void
test_wa_media_dl__ends_expired__on_404_and_410(void **state)
{
	struct run	 r;

	(void)state;
	run_dl("/nothing", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_EXPIRED);
	assert_int_equal(r.err, -ENOENT);
	assert_int_equal(r.status, 404);
	assert_int_equal(count_files(NULL), 0);
	run_dl("/gone410", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_EXPIRED);
	assert_int_equal(r.status, 410);
	run_dl("/deny", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_HTTP);
	assert_int_equal(r.status, 403);
	assert_int_equal(count_files(NULL), 0);
}

static void
test_wa_media_dl__refuses__a_file_over_the_cap_before_reading_it(
    void **state)
{
	struct wa_media_dl_req	 q;
	struct wa_media_dl	*d = NULL;
	struct run		 r;
	uv_loop_t		 loop;
	char			 url[256], final[256];
	int			 before = atomic_load(&requests);

	(void)state;
	/* Declared over the cap: no request at all. */
	req_for(&q, "/ok", url, final, PLAIN_LEN, PLAIN_LEN - 1);
	assert_int_equal(uv_loop_init(&loop), 0);
	assert_int_equal(wa_media_dl_start(&loop, &q, on_done, on_progress,
	    &r, &d), WC_ETOOBIG);
	assert_null(d);
	assert_int_equal(uv_loop_close(&loop), 0);
	assert_int_equal(atomic_load(&requests), before);
	assert_int_equal(count_files(NULL), 0);
	/* No declared length, a Content-Length of 50 MB over a 1 MB cap:
	 * ends before a byte of the body reaches the file. */
	run_dl("/big", WA_MEDIA_LEN_UNKNOWN, 1000 * 1000, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_TOOBIG);
	assert_int_equal(r.err, WC_ETOOBIG);
	assert_int_equal(r.last_done, 0);
	assert_int_equal(count_files(NULL), 0);
}

static void
test_wa_media_dl__cuts_off__a_body_longer_than_declared(void **state)
{
	struct run	 r;

	(void)state;
	/* Content-Length says so: refused before the body. */
	run_dl("/long", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_TOOBIG);
	assert_int_equal(r.err, WC_ETOOBIG);
	assert_int_equal(r.last_done, 0);
	assert_int_equal(count_files(NULL), 0);
	/* No Content-Length: cut off at the declared blob's end. */
	run_dl("/longcl", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_CORRUPT);
	assert_int_equal(r.err, WC_ETOOBIG);
	assert_non_null(strstr(r.why, "longer than"));
	assert_true(r.last_done <= blob.len);
	assert_int_equal(count_files(NULL), 0);
}

/* 1.5: a status but 401/403/404/410 and a fileEncSHA256 mismatch go on
 * to the next host; 404 and 403 stop. */
static void
test_wa_media_dl__tries__the_next_url_after_a_failure_that_allows_it(
    void **state)
{
	struct run	 r;
	char		 final[256];
	struct stat	 st;
	int		 before;

	(void)state;
	snprintf(final, sizeof(final), "%s/file.jpg", dir);
	run_dl2("/fail500", "/ok", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_OK);
	assert_int_equal(stat(final, &st), 0);
	assert_int_equal(st.st_size, PLAIN_LEN);
	unlink(final);
	run_dl2("/corrupt", "/ok", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_OK);
	assert_int_equal(r.last_done, blob.len);
	unlink(final);
	before = atomic_load(&requests);
	run_dl2("/nothing", "/ok", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_EXPIRED);
	assert_int_equal(atomic_load(&requests), before + 1);
	run_dl2("/deny", "/ok", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_HTTP);
	assert_int_equal(r.status, 403);
	/* Both fail: the last one's end. */
	run_dl2("/fail500", "/gone410", PLAIN_LEN, 1 << 30, &r);
	assert_int_equal(r.end, WA_MEDIA_DL_EXPIRED);
	assert_int_equal(r.status, 410);
	assert_int_equal(count_files(NULL), 0);
}

static void
never_done(void *arg, enum wa_media_dl_end end, int err, long status,
    const char *why)
{
	(void)arg;
	(void)end;
	(void)err;
	(void)status;
	(void)why;
	fail_msg("done called after cancel");
}

static void
count_progress(void *arg, uint64_t done, uint64_t total)
{
	struct run	*r = arg;

	(void)total;
	r->last_done = done;
	r->ticks++;
}

static void
test_wa_media_dl_cancel__calls__nothing_back_and_removes_the_temp_file(
    void **state)
{
	struct wa_media_dl_req	 q;
	struct wa_media_dl	*d;
	struct run		 r;
	uv_loop_t		 loop;
	char			 url[256], final[256];
	unsigned		 ticks;

	(void)state;
	memset(&r, 0, sizeof(r));
	req_for(&q, "/stall", url, final, PLAIN_LEN, 1 << 30);
	assert_int_equal(uv_loop_init(&loop), 0);
	/* Cancelled in the server's pause, with part of the body in the
	 * temp file. */
	assert_int_equal(wa_media_dl_start(&loop, &q, never_done,
	    count_progress, &r, &d), 0);
	while (r.last_done == 0 && uv_run(&loop, UV_RUN_ONCE) != 0)
		;
	assert_true(r.last_done > 0 && r.last_done < blob.len);
	wa_media_dl_cancel(d);
	ticks = r.ticks;
	while (uv_run(&loop, UV_RUN_DEFAULT) != 0)
		;
	assert_int_equal(r.ticks, ticks);
	/* Cancelled before the worker starts. */
	assert_int_equal(wa_media_dl_start(&loop, &q, never_done, NULL, NULL,
	    &d), 0);
	wa_media_dl_cancel(d);
	while (uv_run(&loop, UV_RUN_DEFAULT) != 0)
		;
	assert_int_equal(uv_loop_close(&loop), 0);
	/* A cancel that lost the race to the rename leaves the file
	 * (documented); a temp file is never left. */
	unlink(final);
	assert_int_equal(count_files(NULL), 0);
}

static void
test_wa_media_dl_fd__decrypts__a_file_and_removes_a_bad_one(void **state)
{
	struct wa_media_dl_req	 q;
	char			 url[256], final[256], src[256];
	const char		*why = NULL;
	struct stat		 st;
	FILE			*f;
	int			 fd;

	(void)state;
	snprintf(src, sizeof(src), "%s/blob", dir);
	f = fopen(src, "wb");
	fwrite(blob.p, 1, blob.len, f);
	fclose(f);
	req_for(&q, "/", url, final, PLAIN_LEN, 1 << 30);
	fd = open(src, O_RDONLY);
	assert_int_equal(wa_media_dl_fd(fd, &q, &why), 0);
	close(fd);
	assert_int_equal(stat(final, &st), 0);
	assert_int_equal(st.st_size, PLAIN_LEN);
	unlink(final);
	/* The wrong file hash: nothing at the final path, no temp file. */
	q.file_sha256 = enc_sha;
	fd = open(src, O_RDONLY);
	assert_int_equal(wa_media_dl_fd(fd, &q, &why), WC_EFILEHASH);
	close(fd);
	assert_int_not_equal(stat(final, &st), 0);
	unlink(src);
	assert_int_equal(count_files(NULL), 0);
}

/* Issue 19: with free_name the file takes the first name free at the
 * rename (file-1.jpg, file-2.jpg), never over one there. */
static void
test_wa_media_dl_fd__takes_the_next_free_name__with_free_name(void **state)
{
	struct wa_media_dl_req	 q;
	char			 url[256], final[256], src[256], p[300];
	const char		*why = NULL;
	struct stat		 st;
	FILE			*f;
	int			 fd, i;

	(void)state;
	snprintf(src, sizeof(src), "%s/blob", dir);
	f = fopen(src, "wb");
	fwrite(blob.p, 1, blob.len, f);
	fclose(f);
	req_for(&q, "/", url, final, PLAIN_LEN, 1 << 30);
	q.free_name = true;
	f = fopen(final, "w");
	fputs("mine", f);
	fclose(f);
	for (i = 1; i <= 2; i++) {
		fd = open(src, O_RDONLY);
		assert_int_equal(wa_media_dl_fd(fd, &q, &why), 0);
		close(fd);
		snprintf(p, sizeof(p), "%s/file-%d.jpg", dir, i);
		assert_int_equal(stat(p, &st), 0);
		assert_int_equal(st.st_size, PLAIN_LEN);
		unlink(p);
		if (i == 1) {	/* file-1.jpg taken: the next gets -2 */
			f = fopen(p, "w");
			fclose(f);
		}
	}
	snprintf(p, sizeof(p), "%s/file-1.jpg", dir);
	unlink(p);
	assert_int_equal(stat(final, &st), 0);
	assert_int_equal(st.st_size, 4);	/* "mine" stays */
	unlink(final);
	unlink(src);
	assert_int_equal(count_files(NULL), 0);
}

static void
test_wa_media_dl_url__builds__the_recommended_form(void **state)
{
	uint8_t	 h[32];
	char	 u[512];

	(void)state;
	memset(h, 0xfb, sizeof(h));
	assert_int_equal(wa_media_dl_url("mmg.whatsapp.net",
	    "/v/t62.7118-24/1_n.enc?ccb=11-4&oh=x", h, "image", u,
	    sizeof(u)), 0);
	assert_string_equal(u, "https://mmg.whatsapp.net/v/t62.7118-24/1_n.enc"
	    "?ccb=11-4&oh=x&hash=-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_s"
	    "&mms-type=image&__wa-mms=");
	assert_int_equal(wa_media_dl_url("h", "/p", h, "audio", u,
	    sizeof(u)), 0);
	assert_non_null(strstr(u, "https://h/p?hash="));
	assert_int_equal(wa_media_dl_url("evil/host", "/p", h, "image", u,
	    sizeof(u)), -EINVAL);
	assert_int_equal(wa_media_dl_url("h", "p", h, "image", u, sizeof(u)),
	    -EINVAL);
	assert_int_equal(wa_media_dl_url("h", "/p#x", h, "image", u,
	    sizeof(u)), -EINVAL);
	assert_int_equal(wa_media_dl_url("h", "/p", h, "image", u, 20),
	    WC_ETOOBIG);
}

/* --- media retry --- */

static const uint8_t	 riv[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };

static void
retry_key(const uint8_t *mk, uint8_t out[32])
{
	const char	*info = "WhatsApp Media Retry Notification";

	assert_int_equal(wa_crypto_hkdf(NULL, 0, mk, 32,
	    (const uint8_t *)info, strlen(info), out, 32), 0);
}

static void
test_wa_media_retry_build__encrypts__the_receipt_for_the_phone(void **state)
{
	struct wa_media_retry_req	 q = {
		.msg_id = "3EB0ABCDEF", .own_jid = "15550001111@s.whatsapp.net",
		.chat_jid = "120363000000000009@g.us",
		.participant = "15550002222@s.whatsapp.net", .from_me = false,
		.media_key = key, .iv = riv,
	};
	struct arena			 a;
	struct wa_node			*n;
	const struct wa_node		*enc, *rmr;
	const uint8_t			*ct, *iv;
	size_t				 ctl, ivl;
	uint8_t				 k[32], pt[64];
	char				 j[128];

	(void)state;
	arena_init(&a, 4096);
	assert_int_equal(wa_media_retry_build(&a, &q, &n), 0);
	assert_true(wa_str_eqc(n->tag, "receipt"));
	assert_true(wa_node_str_is(n, "id", "3EB0ABCDEF"));
	assert_true(wa_node_str_is(n, "type", "server-error"));
	assert_true(wa_node_jid(n, "to", j, sizeof(j)));
	assert_string_equal(j, "15550001111@s.whatsapp.net");
	enc = wa_node_child(n, "encrypt");
	assert_true(wa_node_bytes(wa_node_child(enc, "enc_p"), &ct, &ctl));
	assert_true(wa_node_bytes(wa_node_child(enc, "enc_iv"), &iv, &ivl));
	assert_int_equal(ivl, 12);
	assert_memory_equal(iv, riv, 12);
	assert_int_equal(ctl, 2 + 10 + 16);
	retry_key(key, k);
	assert_int_equal(wa_crypto_gcm_open_once(k, riv,
	    (const uint8_t *)"3EB0ABCDEF", 10, ct, ctl, pt), 0);
	assert_memory_equal(pt, "\x0a\x0a" "3EB0ABCDEF", 12);
	rmr = wa_node_child(n, "rmr");
	assert_true(wa_node_jid(rmr, "jid", j, sizeof(j)));
	assert_string_equal(j, "120363000000000009@g.us");
	assert_true(wa_node_str_is(rmr, "from_me", "false"));
	assert_true(wa_node_jid(rmr, "participant", j, sizeof(j)));
	assert_string_equal(j, "15550002222@s.whatsapp.net");
	/* A 1:1 chat: no participant. */
	q.participant = NULL;
	q.from_me = true;
	assert_int_equal(wa_media_retry_build(&a, &q, &n), 0);
	rmr = wa_node_child(n, "rmr");
	assert_false(wa_node_jid(rmr, "participant", j, sizeof(j)));
	assert_true(wa_node_str_is(rmr, "from_me", "true"));
	q.msg_id = "";
	assert_int_equal(wa_media_retry_build(&a, &q, &n), -EINVAL);
	arena_release(&a);
}

/* A mediaretry notification for id: an <encrypt> of pb under mk. */
static struct wa_node *
answer_node(struct arena *a, const char *id, const uint8_t *pb, size_t len,
    const uint8_t *mk, size_t ivlen)
{
	struct wa_node	*n, *k, *e, *ek;
	uint8_t		 rk[32], *ct;

	retry_key(mk, rk);
	ct = arena_alloc(a, len + 16);
	assert_int_equal(wa_crypto_gcm_seal_once(rk, riv, (const uint8_t *)id,
	    strlen(id), pb, len, ct), 0);
	n = wa_nb_new(a, "notification", 2);
	wa_nb_attr(n, "id", id);
	wa_nb_attr(n, "type", "mediaretry");
	k = wa_nb_kids(a, n, 2);
	wa_nb_kid(a, &k[0], "rmr", 0);
	e = wa_nb_kid(a, &k[1], "encrypt", 0);
	ek = wa_nb_kids(a, e, 2);
	wa_nb_bytes(wa_nb_kid(a, &ek[0], "enc_p", 0), ct, len + 16);
	wa_nb_bytes(wa_nb_kid(a, &ek[1], "enc_iv", 0), riv, ivlen);
	return n;
}

static void
test_wa_media_retry_parse__reads__the_new_path_and_each_failure(
    void **state)
{
	/* stanzaID "ID1", directPath "/v/new?x=1", result SUCCESS, and a
	 * messageSecret (field 4) to skip. */
	static const uint8_t	 ok[] = "\x0a\x03ID1\x12\x0a/v/new?x=1\x18\x01"
	    "\x22\x02zz";
	static const uint8_t	 nf[] = "\x0a\x03ID1\x18\x02";
	static const uint8_t	 other[] = "\x0a\x03ID2\x12\x02/v\x18\x01";
	static const uint8_t	 nopath[] = "\x0a\x03ID1\x18\x01";
	static const uint8_t	 trunc[] = "\x0a\x09ID1";
	struct wa_media_retry_ans	 ans;
	struct arena			 a;
	struct wa_node			*n, *k;
	uint8_t				 other_key[32];

	(void)state;
	arena_init(&a, 4096);
	n = answer_node(&a, "ID1", ok, sizeof(ok) - 1, key, 12);
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), 0);
	assert_string_equal(ans.msg_id, "ID1");
	assert_int_equal(ans.result, WA_MEDIA_RETRY_SUCCESS);
	assert_string_equal(ans.direct_path, "/v/new?x=1");
	n = answer_node(&a, "ID1", nf, sizeof(nf) - 1, key, 12);
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), 0);
	assert_int_equal(ans.result, WA_MEDIA_RETRY_NOT_FOUND);
	assert_null(ans.direct_path);
	/* Another message's answer, SUCCESS without a path, a field past
	 * the end, another key, a short iv. */
	n = answer_node(&a, "ID1", other, sizeof(other) - 1, key, 12);
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), WC_EPROTO);
	n = answer_node(&a, "ID1", nopath, sizeof(nopath) - 1, key, 12);
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), WC_EPROTO);
	n = answer_node(&a, "ID1", trunc, sizeof(trunc) - 1, key, 12);
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), WC_ETRUNC);
	memset(other_key, 9, sizeof(other_key));
	n = answer_node(&a, "ID1", ok, sizeof(ok) - 1, other_key, 12);
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), WC_EBADMAC);
	n = answer_node(&a, "ID1", ok, sizeof(ok) - 1, key, 11);
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), WC_EPROTO);
	/* <error code="2"/>: not on the phone. */
	n = wa_nb_new(&a, "notification", 2);
	wa_nb_attr(n, "id", "ID1");
	wa_nb_attr(n, "type", "mediaretry");
	k = wa_nb_kids(&a, n, 1);
	wa_nb_attr(wa_nb_kid(&a, &k[0], "error", 1), "code", "2");
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), 0);
	assert_int_equal(ans.result, WA_MEDIA_RETRY_NOT_FOUND);
	wa_nb_kid(&a, &k[0], "error", 1);
	wa_nb_attr(&k[0], "code", "x");
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), WC_EPROTO);
	wa_nb_kid(&a, &k[0], "other", 0);
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), WC_EPROTO);
	n = wa_nb_new(&a, "notification", 2);
	wa_nb_attr(n, "id", "ID1");
	wa_nb_attr(n, "type", "w:gp2");
	assert_int_equal(wa_media_retry_parse(&a, n, key, &ans), -EINVAL);
	arena_release(&a);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_media_dl__saves__the_verified_plaintext_at_the_final_path),
		cmocka_unit_test(test_wa_media_dl__ends_corrupt__on_a_flipped_byte_and_leaves_no_file),
		cmocka_unit_test(test_wa_media_dl__ends_expired__on_404_and_410),
		cmocka_unit_test(test_wa_media_dl__refuses__a_file_over_the_cap_before_reading_it),
		cmocka_unit_test(test_wa_media_dl__cuts_off__a_body_longer_than_declared),
		cmocka_unit_test(test_wa_media_dl__tries__the_next_url_after_a_failure_that_allows_it),
		cmocka_unit_test(test_wa_media_dl_cancel__calls__nothing_back_and_removes_the_temp_file),
		cmocka_unit_test(test_wa_media_dl_fd__decrypts__a_file_and_removes_a_bad_one),
		cmocka_unit_test(test_wa_media_dl_fd__takes_the_next_free_name__with_free_name),
		cmocka_unit_test(test_wa_media_dl_url__builds__the_recommended_form),
		cmocka_unit_test(test_wa_media_retry_build__encrypts__the_receipt_for_the_phone),
		cmocka_unit_test(test_wa_media_retry_parse__reads__the_new_path_and_each_failure),
	};

	if (wa_crypto_init() != 0)
		return 1;
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
