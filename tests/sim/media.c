/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/media.c -- the simulator's media host (protocol.md 12.2, 14.2,
 * protocol-features.md 1.4-1.5): a second libwebsockets vhost on the sim's
 * loop, HTTPS with the sim's --tls-cert/--tls-key (plain HTTP without
 * them), on --media-port.  GET serves the blobs the phones stored (history
 * sync chunks, media the contacts send) and the clients uploaded, by
 * direct path.  The query string is ignored but for hash= and token=,
 * which must be the base64url SHA-256 of the blob (padded or not) when
 * present (404 otherwise, as for an unknown or withdrawn path; 410 for a
 * blob expired so).  POST /mms/TYPE/TOKEN?auth=AUTH&token=TOKEN takes an
 * upload: AUTH one the media_conn handed out and not expired (401), TOKEN
 * the base64url SHA-256 of the body (400 after the body), the body at
 * most media_max_bytes (413), streamed to a file in media_dir, answered
 * with {"url", "direct_path"}.  Every GET served is counted per blob.
 * Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <json-c/json.h>
#include <libwebsockets.h>
#include <sodium.h>

#include "proto/crypto.h"
#include "base/err.h"
#include "sim.h"
#include "base/xmalloc.h"
#include "keys.h"

#define MEDIA_WRITE_CHUNK	16384	/* bytes per lws_write() */
#define MEDIA_MAX_BYTES		(64u << 20)	/* default upload cap */
#define MEDIA_KEEPALIVE_S	120	/* idle keep-alive, seconds */

/* Per HTTP connection: the blob being sent, or the upload being taken. */
struct mpss {
	struct sim_blob	*b;
	size_t		 off;
	bool		 hdr_due;	/* headers not sent yet (a delay) */
	bool		 up_due;	/* an upload's answer held back */
	/* An upload: */
	bool		 up;
	int		 fd;		/* the file, when fd_ok */
	bool		 fd_ok;
	char		*file;
	char		 kind[24];	/* the mms type */
	char		 token[64];
	uint64_t	 want, got;	/* Content-Length, bytes taken */
	unsigned	 status;	/* the answer due; 0 = none yet */
	crypto_hash_sha256_state sha;
	char		*resp;		/* its JSON body */
};

static size_t
blob_len(const struct sim_blob *b)
{
	return b->file != NULL ? (size_t)b->flen : b->data.len;
}

/* Send the response headers for ps->b; returns the callback's value. */
static int
headers(struct lws *wsi, struct mpss *ps)
{
	uint8_t		 hdr[LWS_PRE + 1024], *start = hdr + LWS_PRE, *p = start;

	ps->hdr_due = false;
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK,
	    "application/octet-stream", blob_len(ps->b), &p,
	    hdr + sizeof(hdr) - 1) != 0 ||
	    lws_finalize_write_http_header(wsi, start, &p,
	    hdr + sizeof(hdr) - 1) != 0)
		return -1;
	lws_callback_on_writable(wsi);
	return 0;
}

struct sim_blob *
sim_media_find(struct sim *s, const char *path)
{
	struct sim_blob	*b;
	size_t		 n = strcspn(path, "?");

	for (b = s->blobs; b != NULL; b = b->next)
		if (strncmp(b->path, path, n) == 0 && (b->path[n] == '?' ||
		    b->path[n] == '\0'))
			return b;
	return NULL;
}

/* A fresh direct path for b, of the shape of WhatsApp's: t62.7119-24 for
 * history blobs, t62.7118-24 for media. */
static void
blob_path(struct sim_blob *b, bool media)
{
	uint8_t		 r[16];
	char		 oh[33];

	sim_random(r, sizeof(r));
	sim_hex(r + 8, 8, oh);
	snprintf(b->path, sizeof(b->path), "/v/t62.%s-24/%u_%u_%u_n.enc"
	    "?ccb=11-4&oh=01_Q5Aa%s&oe=%08X&_nc_sid=5e03e0", media ? "7118" :
	    "7119", (unsigned)(r[0] << 16 | r[1] << 8 | r[2]) + 10000000u,
	    (unsigned)(r[3] << 16 | r[4] << 8 | r[5]) + 1000000000u,
	    (unsigned)(r[6] << 8 | r[7]), oh,
	    (unsigned)(time(NULL) + 30 * 86400));
}

/* b (kind set) on the list under a fresh path. */
static void
blob_add(struct sim *s, struct sim_blob *b)
{
	blob_path(b, strncmp(b->kind, "media", 5) == 0);
	b->seq = ++s->nblobs;
	*s->blobs_tail = b;
	s->blobs_tail = &b->next;
}

struct sim_blob *
sim_media_put(struct sim *s, const char *kind, struct buf *data)
{
	struct sim_blob	*b = xcalloc(1, sizeof(*b));

	snprintf(b->kind, sizeof(b->kind), "%s", kind);
	b->data = *data;
	*data = (struct buf)BUF_INIT;
	wa_crypto_sha256(b->data.p, b->data.len, b->enc_sha256);
	blob_add(s, b);
	return b;
}

struct sim_blob *
sim_media_again(struct sim *s, const struct sim_blob *old)
{
	struct sim_blob	*b = xcalloc(1, sizeof(*b));

	snprintf(b->kind, sizeof(b->kind), "%s", old->kind);
	if (old->file != NULL) {
		b->file = xstrdup(old->file);	/* shared; old unlinks it */
		b->flen = old->flen;
	} else
		buf_append(&b->data, old->data.p, old->data.len);
	memcpy(b->enc_sha256, old->enc_sha256, 32);
	memcpy(b->media_key, old->media_key, 32);
	memcpy(b->file_sha256, old->file_sha256, 32);
	snprintf(b->pn, sizeof(b->pn), "%s", old->pn);
	snprintf(b->msg_id, sizeof(b->msg_id), "%s", old->msg_id);
	blob_add(s, b);
	return b;
}

int
sim_media_read(const struct sim_blob *b, size_t max, struct buf *out)
{
	uint8_t		 chunk[16384];
	ssize_t		 n;
	int		 fd;

	if (blob_len(b) > max)
		return WC_ETOOBIG;
	if (b->file == NULL) {
		buf_append(out, b->data.p, b->data.len);
		return 0;
	}
	if ((fd = open(b->file, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	while ((n = read(fd, chunk, sizeof(chunk))) > 0)
		buf_append(out, chunk, (size_t)n);
	(void)close(fd);
	return n < 0 ? -EIO : 0;
}

void
sim_media_free(struct sim *s)
{
	struct sim_blob	*b;

	while ((b = s->blobs) != NULL) {
		s->blobs = b->next;
		buf_release(&b->data);
		if (b->file != NULL && b->owns_file)
			(void)unlink(b->file);
		free(b->file);
		free(b);
	}
	s->blobs_tail = &s->blobs;
	sim_media_msgs_free(s);
	if (s->media_dir_made)
		(void)rmdir(s->media_dir);
}

/* Refuse with status; returns what the callback returns. */
static int
refuse(struct lws *wsi, unsigned status)
{
	if (lws_return_http_status(wsi, status, NULL) != 0)
		return -1;
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* Forget the upload or file read of ps (a new transaction, or the end). */
static void
ps_reset(struct mpss *ps, bool unlink_file)
{
	if (ps->fd_ok)
		(void)close(ps->fd);
	if (ps->file != NULL && unlink_file)
		(void)unlink(ps->file);
	free(ps->file);
	free(ps->resp);
	memset(ps, 0, sizeof(*ps));
}

void
sim_media_hostname(const struct sim *s, char *out, size_t len)
{
	if (strchr(s->opt.host, ':') != NULL)
		snprintf(out, len, "[%s]:%d", s->opt.host, s->media_port);
	else
		snprintf(out, len, "%s:%d", s->opt.host, s->media_port);
}

void
sim_media_auth_add(struct sim *s, const char *auth, int64_t expires)
{
	struct sim_media_auth	*m;

	m = &s->media_auths[s->media_auth_next++ % (sizeof(s->media_auths) /
	    sizeof(s->media_auths[0]))];
	snprintf(m->auth, sizeof(m->auth), "%s", auth);
	m->expires = expires;
}

/* 0 when auth was handed out and has not expired, else 401. */
static unsigned
auth_check(const struct sim *s, const char *auth)
{
	size_t	 i;

	for (i = 0; auth != NULL && i < sizeof(s->media_auths) /
	    sizeof(s->media_auths[0]); i++)
		if (s->media_auths[i].auth[0] != '\0' &&
		    strcmp(s->media_auths[i].auth, auth) == 0)
			return s->media_auths[i].expires > (int64_t)time(NULL) ?
			    0 : 401;
	return 401;
}

/* token (base64url, '=' padding or none) is that of hash[32]. */
static bool
token_is(const char *token, const uint8_t hash[32])
{
	char	 want[64];
	size_t	 n = strcspn(token, "=");

	sodium_bin2base64(want, sizeof(want), hash, 32,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	return n == strlen(want) && strncmp(token, want, n) == 0 &&
	    strspn(token + n, "=") == strlen(token + n);
}

/*
 * The head of POST path: /mms/TYPE/TOKEN with ?auth and ?token.  Sets
 * ps->status to a refusal, or opens the upload file.
 */
static void
up_begin(struct sim *s, struct lws *wsi, struct mpss *ps, const char *path)
{
	char		 arg[256], cl[32], *end, name[512], hex[17];
	const char	*v, *tok;
	uint8_t		 rnd[8];
	size_t		 tn;

	ps->up = true;
	tok = strncmp(path, "/mms/", 5) == 0 ? strchr(path + 5, '/') : NULL;
	tn = tok != NULL ? (size_t)(tok - path - 5) : 0;
	if (tok == NULL || tn == 0 || tn >= sizeof(ps->kind) ||
	    strlen(tok + 1) >= sizeof(ps->token) || tok[1] == '\0') {
		ps->status = HTTP_STATUS_NOT_FOUND;
		return;
	}
	memcpy(ps->kind, path + 5, tn);
	snprintf(ps->token, sizeof(ps->token), "%s", tok + 1);
	v = lws_get_urlarg_by_name(wsi, "auth=", arg, sizeof(arg));
	if ((ps->status = auth_check(s, v)) != 0)
		return;
	v = lws_get_urlarg_by_name(wsi, "token=", arg, sizeof(arg));
	if (v == NULL || strcmp(v, ps->token) != 0) {
		ps->status = HTTP_STATUS_BAD_REQUEST;
		return;
	}
	if (lws_hdr_copy(wsi, cl, sizeof(cl),
	    WSI_TOKEN_HTTP_CONTENT_LENGTH) <= 0) {
		ps->status = HTTP_STATUS_LENGTH_REQUIRED;
		return;
	}
	ps->want = strtoull(cl, &end, 10);
	if (*end != '\0' || ps->want > s->media_max_bytes) {
		ps->status = HTTP_STATUS_REQ_ENTITY_TOO_LARGE;
		return;
	}
	sim_random(rnd, sizeof(rnd));
	sim_hex(rnd, sizeof(rnd), hex);
	snprintf(name, sizeof(name), "%s/up-%s.enc", s->media_dir, hex);
	if ((ps->fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) < 0) {
		sim_log(s, "media: cannot make %s: %s", name, strerror(errno));
		ps->status = HTTP_STATUS_INTERNAL_SERVER_ERROR;
		return;
	}
	ps->fd_ok = true;
	ps->file = xstrdup(name);
	crypto_hash_sha256_init(&ps->sha);
}

/* A body chunk of an upload. */
static void
up_body(struct sim *s, struct mpss *ps, const void *in, size_t len)
{
	ps->got += len;
	if (ps->status != 0 || !ps->fd_ok)
		return;
	if (ps->got > ps->want || ps->got > s->media_max_bytes) {
		ps->status = HTTP_STATUS_REQ_ENTITY_TOO_LARGE;
		return;
	}
	crypto_hash_sha256_update(&ps->sha, in, len);
	if (write(ps->fd, in, len) != (ssize_t)len) {
		sim_log(s, "media: cannot write %s: %s", ps->file,
		    strerror(errno));
		ps->status = HTTP_STATUS_INTERNAL_SERVER_ERROR;
	}
}

/* The body is in: check the token, keep the blob, answer. */
static void
up_done(struct sim *s, struct lws *wsi, struct mpss *ps)
{
	struct json_object	*o;
	struct sim_blob		*b;
	uint8_t			 h[32];
	char			 host[96], url[512];

	if (ps->status == 0 && ps->got != ps->want)
		ps->status = HTTP_STATUS_BAD_REQUEST;
	if (ps->status == 0) {
		crypto_hash_sha256_final(&ps->sha, h);
		if (!token_is(ps->token, h))
			ps->status = HTTP_STATUS_BAD_REQUEST;
	}
	if (ps->status != 0) {
		s->media_upload_refused++;
		sim_log(s, "media: upload to /mms/%s refused: %u", ps->kind,
		    ps->status);
		lws_callback_on_writable(wsi);
		return;
	}
	(void)close(ps->fd);
	ps->fd_ok = false;
	b = xcalloc(1, sizeof(*b));
	snprintf(b->kind, sizeof(b->kind), "upload");
	b->file = ps->file;
	ps->file = NULL;
	b->owns_file = true;
	b->flen = ps->got;
	memcpy(b->enc_sha256, h, 32);
	blob_add(s, b);
	s->media_uploads++;
	sim_log(s, "media: upload %" PRIu64 " to /mms/%s: %" PRIu64 " bytes",
	    b->seq, ps->kind, b->flen);
	sim_media_hostname(s, host, sizeof(host));
	snprintf(url, sizeof(url), "https://%s%s", host, b->path);
	o = json_object_new_object();
	json_object_object_add(o, "url", json_object_new_string(url));
	json_object_object_add(o, "direct_path",
	    json_object_new_string(b->path));
	ps->resp = xstrdup(json_object_to_json_string_ext(o,
	    JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(o);
	ps->status = HTTP_STATUS_OK;
	if (s->media_up_delay_ms > 0) {
		/* A stalled upload (tests that kill a client while it
		 * waits): the blob is kept, its answer comes late. */
		ps->up_due = true;
		lws_set_timer_usecs(wsi, (lws_usec_t)s->media_up_delay_ms *
		    1000);
		return;
	}
	lws_callback_on_writable(wsi);
}

/* The upload's answer, when writable. */
static int
up_answer(struct lws *wsi, struct mpss *ps)
{
	uint8_t		 hdr[LWS_PRE + 2048], *start = hdr + LWS_PRE, *p = start;
	size_t		 n;
	unsigned	 st = ps->status;

	if (st != HTTP_STATUS_OK) {
		ps_reset(ps, true);
		return refuse(wsi, st);
	}
	n = strlen(ps->resp);
	if (n > 1024 || lws_add_http_common_headers(wsi, HTTP_STATUS_OK,
	    "application/json", n, &p, hdr + sizeof(hdr) - 1) != 0 ||
	    lws_finalize_write_http_header(wsi, start, &p,
	    hdr + sizeof(hdr) - 1) != 0)
		return -1;
	memcpy(start, ps->resp, n);
	if (lws_write(wsi, start, n, LWS_WRITE_HTTP_FINAL) != (int)n)
		return -1;
	ps_reset(ps, false);
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

/* GET path: the blob, or a refusal. */
static int
get_begin(struct sim *s, struct lws *wsi, struct mpss *ps, const char *in)
{
	struct sim_blob	*b = sim_media_find(s, in);
	char		 arg[160];
	const char	*h, *why = NULL;

	h = lws_get_urlarg_by_name(wsi, "hash=", arg, sizeof(arg));
	if (h == NULL)
		h = lws_get_urlarg_by_name(wsi, "token=", arg, sizeof(arg));
	if (b == NULL)
		why = "no such blob";
	else if (b->gone)
		why = b->gone_code == 410 ? "expired" : "withdrawn";
	else if (h != NULL && !token_is(h, b->enc_sha256))
		why = "hash mismatch";
	if (why != NULL) {
		s->media_404++;
		sim_log(s, "media: GET %.*s: %u (%s)", (int)strcspn(in, "?"),
		    in, b != NULL && b->gone && b->gone_code == 410 ? 410u :
		    404u, why);
		return refuse(wsi, b != NULL && b->gone && b->gone_code ==
		    410 ? HTTP_STATUS_GONE : HTTP_STATUS_NOT_FOUND);
	}
	if (b->file != NULL) {
		if ((ps->fd = open(b->file, O_RDONLY | O_CLOEXEC)) < 0)
			return refuse(wsi, HTTP_STATUS_INTERNAL_SERVER_ERROR);
		ps->fd_ok = true;
	}
	b->downloads++;
	s->media_downloads++;
	sim_log(s, "media: GET blob %" PRIu64 " (%s, %zu bytes, download %u)",
	    b->seq, b->kind, blob_len(b), b->downloads);
	ps->b = b;
	ps->off = 0;
	if (s->media_delay_ms > 0) {
		/* Slow media (tests that kill a client mid-import): the
		 * answer starts after the delay. */
		ps->hdr_due = true;
		lws_set_timer_usecs(wsi, (lws_usec_t)s->media_delay_ms * 1000);
		return 0;
	}
	return headers(wsi, ps);
}

/* The next piece of ps->b. */
static int
get_write(struct lws *wsi, struct mpss *ps)
{
	uint8_t		 out[LWS_PRE + MEDIA_WRITE_CHUNK];
	struct sim_blob	*b = ps->b;
	size_t		 n = blob_len(b) - ps->off;

	if (n > MEDIA_WRITE_CHUNK)
		n = MEDIA_WRITE_CHUNK;
	if (b->file == NULL)
		memcpy(out + LWS_PRE, b->data.p + ps->off, n);
	else if (pread(ps->fd, out + LWS_PRE, n, (off_t)ps->off) !=
	    (ssize_t)n)
		return -1;
	if (lws_write(wsi, out + LWS_PRE, n, ps->off + n == blob_len(b) ?
	    LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) != (int)n)
		return -1;
	ps->off += n;
	if (ps->off < blob_len(b)) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	ps_reset(ps, false);
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int
media_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user,
    void *in, size_t len)
{
	struct sim	*s = lws_context_user(lws_get_context(wsi));
	struct mpss	*ps = user;

	switch (reason) {
	case LWS_CALLBACK_HTTP:
		ps_reset(ps, true);
		if (lws_hdr_total_length(wsi, WSI_TOKEN_POST_URI) > 0) {
			up_begin(s, wsi, ps, (const char *)in);
			return 0;
		}
		return get_begin(s, wsi, ps, (const char *)in);
	case LWS_CALLBACK_HTTP_BODY:
		if (ps != NULL && ps->up)
			up_body(s, ps, in, len);
		return 0;
	case LWS_CALLBACK_HTTP_BODY_COMPLETION:
		if (ps != NULL && ps->up)
			up_done(s, wsi, ps);
		return 0;
	case LWS_CALLBACK_TIMER:
		if (ps != NULL && ps->up && ps->up_due) {
			ps->up_due = false;
			lws_callback_on_writable(wsi);
			return 0;
		}
		if (ps == NULL || ps->b == NULL || !ps->hdr_due)
			return 0;
		lws_callback_on_writable(wsi);
		return 0;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (ps != NULL && ps->up && ps->status != 0 && !ps->up_due)
			return up_answer(wsi, ps);
		if (ps != NULL && ps->up)
			return 0;
		if (ps == NULL || ps->b == NULL)
			return 0;
		if (ps->hdr_due)
			return headers(wsi, ps);
		return get_write(wsi, ps);
	case LWS_CALLBACK_CLOSED_HTTP:
		if (ps != NULL)
			ps_reset(ps, true);
		break;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static const struct lws_protocols media_protocols[] = {
	{ "wa-media", media_cb, sizeof(struct mpss), 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

int
sim_media_start(struct sim *s)
{
	struct lws_context_creation_info	 info;
	struct lws_vhost			*vh;

	s->blobs_tail = &s->blobs;
	s->media_auth_ttl = 21600;
	s->media_max_bytes = MEDIA_MAX_BYTES;
	if (s->opt.media_dir != NULL)
		snprintf(s->media_dir, sizeof(s->media_dir), "%s",
		    s->opt.media_dir);
	else {
		const char	*t = getenv("TMPDIR");

		snprintf(s->media_dir, sizeof(s->media_dir),
		    "%s/wachat-sim-media.XXXXXX", t != NULL && t[0] != '\0' ?
		    t : "/tmp");
		if (mkdtemp(s->media_dir) == NULL) {
			sim_log(s, "media host: cannot make %s: %s",
			    s->media_dir, strerror(errno));
			return -errno;
		}
		s->media_dir_made = true;
	}
	memset(&info, 0, sizeof(info));
	info.port = s->opt.media_port;
	info.iface = s->opt.host;
	if (strchr(s->opt.host, ':') == NULL)
		info.options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	info.protocols = media_protocols;
	info.vhost_name = "wachat-sim-media";
	info.ssl_cert_filepath = s->opt.tls_cert;
	info.ssl_private_key_filepath = s->opt.tls_key;
	if (s->opt.tls_cert != NULL)
		info.options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
	/* HTTP/1.1 only: over h2, lws 4.1 leaves streams unfinished after
	 * a few blobs on one connection (curl: "stream was not closed
	 * cleanly"). */
	info.alpn = "http/1.1";
	/* An idle keep-alive connection is the client's to close: lws's
	 * default 5 s is within a second of undici's 4 s (Node's fetch, which
	 * Baileys uses), and a client whose loop runs late sends its next GET
	 * on a connection the host has just closed ("fetch failed", no
	 * request seen here). */
	info.keepalive_timeout = MEDIA_KEEPALIVE_S;
	if ((vh = lws_create_vhost(s->lws, &info)) == NULL) {
		sim_log(s, "media host: cannot listen on %s port %d",
		    s->opt.host, s->opt.media_port);
		return -EADDRINUSE;
	}
	s->media_port = lws_get_vhost_listen_port(vh);
	return 0;
}

struct json_object *
sim_media_blob_json(const struct sim_blob *b)
{
	struct json_object	*o = json_object_new_object();
	char			 hex[65];

	json_object_object_add(o, "seq", json_object_new_int64((int64_t)b->seq));
	json_object_object_add(o, "kind", json_object_new_string(b->kind));
	json_object_object_add(o, "path", json_object_new_string(b->path));
	json_object_object_add(o, "bytes",
	    json_object_new_int64((int64_t)b->data.len));
	sim_hex(b->enc_sha256, 32, hex);
	json_object_object_add(o, "enc_sha256", json_object_new_string(hex));
	/* A test sim: the keys are shown so that tests can check a blob. */
	sim_hex(b->media_key, 32, hex);
	json_object_object_add(o, "media_key", json_object_new_string(hex));
	sim_hex(b->file_sha256, 32, hex);
	json_object_object_add(o, "file_sha256", json_object_new_string(hex));
	json_object_object_add(o, "downloads",
	    json_object_new_int64(b->downloads));
	json_object_object_add(o, "gone", json_object_new_boolean(b->gone));
	json_object_object_add(o, "pn", json_object_new_string(b->pn));
	json_object_object_add(o, "device", json_object_new_int64(b->device));
	json_object_object_add(o, "msg_id", json_object_new_string(b->msg_id));
	json_object_object_add(o, "sync_type",
	    json_object_new_int64(b->sync_type));
	json_object_object_add(o, "chunk_order",
	    json_object_new_int64(b->chunk_order));
	json_object_object_add(o, "progress",
	    json_object_new_int64(b->progress));
	json_object_object_add(o, "conversations",
	    json_object_new_int64((int64_t)b->nconvs));
	json_object_object_add(o, "messages",
	    json_object_new_int64((int64_t)b->nmsgs));
	json_object_object_add(o, "receipt",
	    json_object_new_boolean(b->receipt));
	return o;
}
