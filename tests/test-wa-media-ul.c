/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-media-ul.c -- media uploads (proto/media-ul.c) against two
 * tiny HTTP hosts in this program (threads on 127.0.0.1): the first
 * answers 500 or 401 as a test asks, the second checks the upload as a
 * media host must (the path /mms/TYPE/TOKEN, auth and token in the
 * query, token = unpadded base64url SHA-256 of the body, Origin) and
 * answers url and direct_path.  An upload goes to the second host after
 * the first fails, stops at 401, ends FAILED when every host fails; then
 * a round trip: a file encrypted by the stream context into a temp file,
 * uploaded, downloaded back from the answer's direct path through
 * proto/media-dl.c and equal to the original.  The URL form and the
 * answer's JSON are checked on their own.
 */
#include "base/compat.h"

#include <arpa/inet.h>
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
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>
#include <sodium.h>
#include <uv.h>

#include "base/buf.h"
#include "base/err.h"
#include "proto/crypto.h"
#include "proto/media-dl.h"
#include "proto/media-stream.h"
#include "proto/media-ul.h"
#include "proto/media.h"

#define AUTH	"a+b/c=="	/* escaped in the query */

struct host {
	int		 sock, port;
	pthread_t	 th;
	bool		 good;		/* checks and stores, else fails */
	atomic_int	 fail_status;	/* the bad host's answer */
	atomic_int	 requests;
};

static struct host	 bad, good;
static struct buf	 stored;	/* the good host's last upload */
static char		 stored_path[256];
static pthread_mutex_t	 mu = PTHREAD_MUTEX_INITIALIZER;
static char		 dir[64];

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
reply(int fd, int status, const char *body)
{
	char	 h[256];

	snprintf(h, sizeof(h), "HTTP/1.1 %d X\r\nContent-Length: %zu\r\n"
	    "Content-Type: application/json\r\nConnection: close\r\n\r\n",
	    status, strlen(body));
	send_all(fd, h, strlen(h));
	send_all(fd, body, strlen(body));
}

/* A POST the way a media host checks it; answers on fd. */
static void
check_upload(struct host *h, int fd, const char *req, const char *path,
    const uint8_t *body, size_t len)
{
	uint8_t		 sha[32];
	char		 tok[64], want[512], ans[512];

	crypto_hash_sha256(sha, body, len);
	sodium_bin2base64(tok, sizeof(tok), sha, 32,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	snprintf(want, sizeof(want), "/mms/image/%s?auth=a%%2Bb%%2Fc%%3D%%3D"
	    "&token=%s", tok, tok);
	if (strcmp(path, want) != 0 || strcasestr(req,
	    "\r\nOrigin: https://web.whatsapp.com\r\n") == NULL) {
		reply(fd, 400, "{}");
		return;
	}
	pthread_mutex_lock(&mu);
	stored.len = 0;
	buf_append(&stored, body, len);
	snprintf(stored_path, sizeof(stored_path), "/v/t62/%.8s.enc?ccb=1",
	    tok);
	snprintf(ans, sizeof(ans), "{\"url\":\"http://127.0.0.1:%d%s\","
	    "\"direct_path\":\"%s\",\"handle\":null}", h->port, stored_path,
	    stored_path);
	pthread_mutex_unlock(&mu);
	reply(fd, 200, ans);
}

static void
serve_get(int fd, const char *path)
{
	char	 h[128];

	pthread_mutex_lock(&mu);
	if (strncmp(path, stored_path, strlen(stored_path)) != 0) {
		pthread_mutex_unlock(&mu);
		reply(fd, 404, "");
		return;
	}
	snprintf(h, sizeof(h), "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n"
	    "Connection: close\r\n\r\n", stored.len);
	send_all(fd, h, strlen(h));
	send_all(fd, stored.p, stored.len);
	pthread_mutex_unlock(&mu);
}

/* Read a request: headers into req, the body (Content-Length) into b. */
static bool
read_req(int fd, char *req, size_t cap, struct buf *b)
{
	size_t		 got = 0, cl = 0, have;
	char		*end = NULL, *p;
	uint8_t		 t[65536];
	ssize_t		 n;

	while (end == NULL && got < cap - 1) {
		if ((n = recv(fd, req + got, cap - 1 - got, 0)) <= 0)
			return false;
		got += (size_t)n;
		req[got] = '\0';
		end = strstr(req, "\r\n\r\n");
	}
	if (end == NULL)
		return false;
	if ((p = strcasestr(req, "\r\nContent-Length:")) != NULL)
		cl = strtoul(p + 17, NULL, 10);
	have = got - (size_t)(end + 4 - req);
	buf_append(b, end + 4, have);
	end[2] = '\0';
	while (b->len < cl && (n = recv(fd, t, sizeof(t), 0)) > 0)
		buf_append(b, t, (size_t)n);
	return b->len == cl;
}

static void *
serve(void *arg)
{
	struct host	*h = arg;
	char		 req[8192], m[8], path[1024];
	struct buf	 b = { 0 };
	int		 fd;

	while ((fd = accept(h->sock, NULL, NULL)) >= 0) {
		b.len = 0;
		if (read_req(fd, req, sizeof(req), &b) &&
		    sscanf(req, "%7s %1023s", m, path) == 2) {
			atomic_fetch_add(&h->requests, 1);
			if (!h->good)
				reply(fd, atomic_load(&h->fail_status),
				    "{\"error\":1}");
			else if (strcmp(m, "POST") == 0)
				check_upload(h, fd, req, path, b.p, b.len);
			else
				serve_get(fd, path);
		}
		close(fd);
	}
	buf_release(&b);
	return NULL;
}

static int
host_up(struct host *h, bool is_good)
{
	struct sockaddr_in	 sa;
	socklen_t		 sl = sizeof(sa);

	h->good = is_good;
	atomic_init(&h->fail_status, 500);
	h->sock = socket(AF_INET, SOCK_STREAM, 0);
	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(h->sock, (struct sockaddr *)&sa, sizeof(sa)) != 0 ||
	    listen(h->sock, 8) != 0 ||
	    getsockname(h->sock, (struct sockaddr *)&sa, &sl) != 0)
		return -1;
	h->port = ntohs(sa.sin_port);
	return pthread_create(&h->th, NULL, serve, h);
}

static void
host_down(struct host *h)
{
	shutdown(h->sock, SHUT_RDWR);
	close(h->sock);
	pthread_join(h->th, NULL);
}

static int
setup_all(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/wachat-ul-test.XXXXXX");
	if (mkdtemp(dir) == NULL)
		return -1;
	return host_up(&bad, false) == 0 && host_up(&good, true) == 0 ? 0 :
	    -1;
}

static int
teardown_all(void **state)
{
	(void)state;
	host_down(&bad);
	host_down(&good);
	buf_release(&stored);
	rmdir(dir);
	return 0;
}

/* --- the blob: a plaintext encrypted by the stream into a file --- */

static uint8_t				 key[32];
static struct wa_media_enc_result	 res;
static char				 blob_path[128];
static uint8_t				*plain;
#define PLAIN_LEN	(1000 * 1000 + 3)

static void
make_blob(void)
{
	struct wa_media_enc	*e;
	struct wa_media_out	 o;
	uint8_t			*out, tail[WA_MEDIA_ENC_TAIL];
	size_t			 i, n;

	for (i = 0; i < 32; i++)
		key[i] = (uint8_t)(i + 40);
	plain = malloc(PLAIN_LEN);
	for (i = 0; i < PLAIN_LEN; i++)
		plain[i] = (uint8_t)(i ^ (i >> 11));
	out = malloc(PLAIN_LEN + 16);
	assert_int_equal(wa_media_enc_new(key, WA_MEDIA_INFO_IMAGE, &e), 0);
	assert_int_equal(wa_media_out_open(dir, &o), 0);
	assert_int_equal(wa_media_enc_update(e, plain, PLAIN_LEN, out,
	    PLAIN_LEN + 16, &n), 0);
	assert_int_equal(wa_media_out_write(&o, out, n), 0);
	assert_int_equal(wa_media_enc_finish(e, tail, &res), 0);
	assert_int_equal(wa_media_out_write(&o, tail, sizeof(tail)), 0);
	snprintf(blob_path, sizeof(blob_path), "%s/blob", dir);
	assert_int_equal(wa_media_out_commit(&o, blob_path), 0);
	wa_media_enc_free(e);
	free(out);
}

struct run {
	bool			 ended;
	enum wa_media_ul_end	 end;
	int			 err;
	long			 status;
	char			 url[WA_MEDIA_UL_FIELD_MAX];
	char			 dp[WA_MEDIA_UL_FIELD_MAX];
	uint64_t		 sent, total;
};

static void
on_done(void *arg, enum wa_media_ul_end end, int err, long status,
    const char *url, const char *dp, const char *why)
{
	struct run	*r = arg;

	(void)why;
	r->ended = true;
	r->end = end;
	r->err = err;
	r->status = status;
	snprintf(r->url, sizeof(r->url), "%s", url);
	snprintf(r->dp, sizeof(r->dp), "%s", dp);
}

static void
on_progress(void *arg, uint64_t sent, uint64_t total)
{
	struct run	*r = arg;

	r->sent = sent;
	r->total = total;
}

static void
upload(const char *h0, const char *h1, struct run *r)
{
	struct wa_media_ul_req	 q;
	struct wa_media_ul	*u;
	uv_loop_t		 loop;

	memset(r, 0, sizeof(*r));
	memset(&q, 0, sizeof(q));
	q.hosts[0] = h0;
	q.hosts[1] = h1;
	q.auth = AUTH;
	q.mms_type = "image";
	q.path = blob_path;
	q.file_enc_sha256 = res.file_enc_sha256;
	q.plain_http = true;
	q.connect_timeout_ms = 5000;
	q.stall_timeout_ms = 5000;
	assert_int_equal(uv_loop_init(&loop), 0);
	assert_int_equal(wa_media_ul_start(&loop, &q, on_done, on_progress, r,
	    &u), 0);
	while (uv_run(&loop, UV_RUN_DEFAULT) != 0)
		;
	assert_true(r->ended);
	assert_int_equal(uv_loop_close(&loop), 0);
}

static void
dl_done(void *arg, enum wa_media_dl_end end, int err, long status,
    const char *why)
{
	int	*e = arg;

	(void)status;
	(void)why;
	*e = end == WA_MEDIA_DL_OK ? err : -1;
}

static void
test_wa_media_ul__goes_on__to_the_next_host_and_round_trips(void **state)
{
	char			 h0[64], h1[64], url[WA_MEDIA_URL_MAX];
	char			 final[128];
	struct wa_media_dl_req	 q;
	struct run		 r;
	struct stat		 st;
	uint8_t			*back;
	FILE			*f;
	int			 before = atomic_load(&bad.requests);

	(void)state;
	make_blob();
	snprintf(h0, sizeof(h0), "127.0.0.1:%d", bad.port);
	snprintf(h1, sizeof(h1), "127.0.0.1:%d", good.port);
	upload(h0, h1, &r);
	assert_int_equal(r.end, WA_MEDIA_UL_OK);
	assert_int_equal(r.err, 0);
	assert_int_equal(r.status, 200);
	assert_int_equal(atomic_load(&bad.requests), before + 1);
	assert_int_equal(stored.len, res.blob_len);
	assert_string_equal(r.dp, stored_path);
	assert_non_null(strstr(r.url, stored_path));
	assert_int_equal(r.total, res.blob_len);
	/* Back down from the answer's direct path, through the checks. */
	memset(&q, 0, sizeof(q));
	snprintf(url, sizeof(url), "http://%s%s", h1, r.dp);
	snprintf(final, sizeof(final), "%s/back.jpg", dir);
	q.url = url;
	q.dir = dir;
	q.final_path = final;
	q.media_key = key;
	q.info = WA_MEDIA_INFO_IMAGE;
	q.file_enc_sha256 = res.file_enc_sha256;
	q.file_sha256 = res.file_sha256;
	q.file_len = res.file_len;
	q.max_len = res.file_len;
	q.connect_timeout_ms = 5000;
	q.stall_timeout_ms = 5000;
	{
		struct wa_media_dl	*d;
		uv_loop_t		 loop;
		int			 done_err = 1;

		assert_int_equal(uv_loop_init(&loop), 0);
		assert_int_equal(wa_media_dl_start(&loop, &q, dl_done, NULL,
		    &done_err, &d), 0);
		while (uv_run(&loop, UV_RUN_DEFAULT) != 0)
			;
		assert_int_equal(uv_loop_close(&loop), 0);
		assert_int_equal(done_err, 0);
	}
	assert_int_equal(stat(final, &st), 0);
	assert_int_equal(st.st_size, PLAIN_LEN);
	back = malloc(PLAIN_LEN);
	f = fopen(final, "rb");
	assert_int_equal(fread(back, 1, PLAIN_LEN, f), PLAIN_LEN);
	fclose(f);
	assert_memory_equal(back, plain, PLAIN_LEN);
	free(back);
	unlink(final);
}

static void
test_wa_media_ul__stops__at_401_and_fails__when_every_host_fails(
    void **state)
{
	char		 h0[64], h1[64];
	struct run	 r;
	int		 before = atomic_load(&good.requests);

	(void)state;
	snprintf(h0, sizeof(h0), "127.0.0.1:%d", bad.port);
	snprintf(h1, sizeof(h1), "127.0.0.1:%d", good.port);
	atomic_store(&bad.fail_status, 401);
	upload(h0, h1, &r);
	assert_int_equal(r.end, WA_MEDIA_UL_AUTH);
	assert_int_equal(r.status, 401);
	assert_string_equal(r.dp, "");
	assert_int_equal(atomic_load(&good.requests), before);
	atomic_store(&bad.fail_status, 500);
	upload(h0, h0, &r);
	assert_int_equal(r.end, WA_MEDIA_UL_FAILED);
	assert_int_equal(r.err, -EPROTO);
	assert_int_equal(r.status, 500);
	assert_string_equal(r.url, "");
	/* Nobody listening: a network error. */
	upload("127.0.0.1:1", NULL, &r);
	assert_int_equal(r.end, WA_MEDIA_UL_FAILED);
	assert_int_equal(r.err, -EIO);
	unlink(blob_path);
	free(plain);
}

static void
test_wa_media_ul_url__builds__the_upload_form(void **state)
{
	uint8_t	 h[32];
	char	 u[512];

	(void)state;
	memset(h, 0xfb, sizeof(h));
	assert_int_equal(wa_media_ul_url("mmg.whatsapp.net", "document", h,
	    "Ab+/=x", false, u, sizeof(u)), 0);
	assert_string_equal(u, "https://mmg.whatsapp.net/mms/document/"
	    "-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_s?auth=Ab%2B%2F%3Dx"
	    "&token=-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_v7-_s");
	assert_int_equal(wa_media_ul_url("h/x", "image", h, "a", false, u,
	    sizeof(u)), -EINVAL);
	assert_int_equal(wa_media_ul_url("h", "Image", h, "a", false, u,
	    sizeof(u)), -EINVAL);
	assert_int_equal(wa_media_ul_url("h", "image", h, "", false, u,
	    sizeof(u)), -EINVAL);
	assert_int_equal(wa_media_ul_url("h", "image", h, "a", false, u, 40),
	    WC_ETOOBIG);
}

static void
test_wa_media_ul_answer__reads__url_and_direct_path(void **state)
{
	char	 u[WA_MEDIA_UL_FIELD_MAX], d[WA_MEDIA_UL_FIELD_MAX];
	char	*big;
	const char *j;

	(void)state;
	j = "{\"url\":\"https://mmg.whatsapp.net/v/x.enc?a=1\","
	    "\"direct_path\":\"/v/x.enc?a=1\",\"handle\":\"h\","
	    "\"object_id\":\"1\"} ";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), 0);
	assert_string_equal(u, "https://mmg.whatsapp.net/v/x.enc?a=1");
	assert_string_equal(d, "/v/x.enc?a=1");
	j = "{\"direct_path\":\"/only\"}";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), 0);
	assert_string_equal(u, "");
	assert_string_equal(d, "/only");
	j = "{\"handle\":\"h\"}";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), WC_EPROTO);
	j = "{\"direct_path\":\"no-slash\"}";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), WC_EPROTO);
	j = "{\"url\":5}";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), WC_EPROTO);
	j = "{\"url\":\"a\\u001bb\"}";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), WC_EPROTO);
	j = "[\"url\"]";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), WC_EPROTO);
	j = "{\"url\":\"x\"} trailing";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), WC_EPROTO);
	j = "{\"a\":[[[[[[[[[[[[1]]]]]]]]]]]],\"url\":\"x\"}";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), WC_EPROTO);
	j = "not json";
	assert_int_equal(wa_media_ul_answer(j, strlen(j), u, d), WC_EPROTO);
	big = malloc(WA_MEDIA_UL_FIELD_MAX + 32);
	snprintf(big, WA_MEDIA_UL_FIELD_MAX + 32, "{\"url\":\"%0*d\"}",
	    WA_MEDIA_UL_FIELD_MAX, 0);
	assert_int_equal(wa_media_ul_answer(big, strlen(big), u, d),
	    WC_ETOOBIG);
	free(big);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wa_media_ul__goes_on__to_the_next_host_and_round_trips),
		cmocka_unit_test(test_wa_media_ul__stops__at_401_and_fails__when_every_host_fails),
		cmocka_unit_test(test_wa_media_ul_url__builds__the_upload_form),
		cmocka_unit_test(test_wa_media_ul_answer__reads__url_and_direct_path),
	};

	if (wa_crypto_init() != 0)
		return 1;
	return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
