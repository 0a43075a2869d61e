/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/media.c -- the simulator's media host (protocol.md 12.2, 14.2):
 * a second libwebsockets vhost on the sim's loop, HTTPS with the sim's
 * --tls-cert/--tls-key (plain HTTP without them), on --media-port, serving
 * GET of the blobs the phones stored (history sync chunks) by direct path.
 * The query string is ignored but for hash=, which must be the unpadded
 * base64url SHA-256 of the blob when present (404 otherwise, as for an
 * unknown or withdrawn path).  Every GET served is counted per blob.
 * Loop thread only.
 */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <json-c/json.h>
#include <libwebsockets.h>
#include <sodium.h>

#include "proto/crypto.h"
#include "base/err.h"
#include "sim.h"
#include "base/xmalloc.h"

#define MEDIA_WRITE_CHUNK	16384	/* bytes per lws_write() */

/* Per HTTP connection: the blob being sent. */
struct mpss {
	struct sim_blob	*b;
	size_t		 off;
	bool		 hdr_due;	/* headers not sent yet (a delay) */
};

/* Send the response headers for ps->b; returns the callback's value. */
static int
headers(struct lws *wsi, struct mpss *ps)
{
	uint8_t		 hdr[LWS_PRE + 1024], *start = hdr + LWS_PRE, *p = start;

	ps->hdr_due = false;
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK,
	    "application/octet-stream", ps->b->data.len, &p,
	    hdr + sizeof(hdr) - 1) != 0 ||
	    lws_finalize_write_http_header(wsi, start, &p,
	    hdr + sizeof(hdr) - 1) != 0)
		return -1;
	lws_callback_on_writable(wsi);
	return 0;
}

static struct sim_blob *
blob_find(struct sim *s, const char *path)
{
	struct sim_blob	*b;
	size_t		 n = strcspn(path, "?");

	for (b = s->blobs; b != NULL; b = b->next)
		if (strncmp(b->path, path, n) == 0 && (b->path[n] == '?' ||
		    b->path[n] == '\0'))
			return b;
	return NULL;
}

struct sim_blob *
sim_media_put(struct sim *s, const char *kind, struct buf *data)
{
	struct sim_blob	*b = xcalloc(1, sizeof(*b));
	uint8_t		 r[16];
	char		 oh[33];

	sim_random(r, sizeof(r));
	sim_hex(r + 8, 8, oh);
	/* The shape of WhatsApp's history paths. */
	snprintf(b->path, sizeof(b->path), "/v/t62.7119-24/%u_%u_%u_n.enc"
	    "?ccb=11-4&oh=01_Q5Aa%s&oe=%08X&_nc_sid=5e03e0",
	    (unsigned)(r[0] << 16 | r[1] << 8 | r[2]) + 10000000u,
	    (unsigned)(r[3] << 16 | r[4] << 8 | r[5]) + 1000000000u,
	    (unsigned)(r[6] << 8 | r[7]), oh,
	    (unsigned)(time(NULL) + 30 * 86400));
	snprintf(b->kind, sizeof(b->kind), "%s", kind);
	b->data = *data;
	*data = (struct buf)BUF_INIT;
	wa_crypto_sha256(b->data.p, b->data.len, b->enc_sha256);
	b->seq = ++s->nblobs;
	*s->blobs_tail = b;
	s->blobs_tail = &b->next;
	return b;
}

void
sim_media_free(struct sim *s)
{
	struct sim_blob	*b;

	while ((b = s->blobs) != NULL) {
		s->blobs = b->next;
		buf_release(&b->data);
		free(b);
	}
	s->blobs_tail = &s->blobs;
}

/* Refuse with status; returns what the callback returns. */
static int
refuse(struct lws *wsi, unsigned status)
{
	if (lws_return_http_status(wsi, status, NULL) != 0)
		return -1;
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

static int
media_cb(struct lws *wsi, enum lws_callback_reasons reason, void *user,
    void *in, size_t len)
{
	struct sim	*s = lws_context_user(lws_get_context(wsi));
	struct mpss	*ps = user;
	uint8_t		 out[LWS_PRE + MEDIA_WRITE_CHUNK];
	char		 arg[160], want[64];
	const char	*h;
	struct sim_blob	*b;
	size_t		 n;

	switch (reason) {
	case LWS_CALLBACK_HTTP:
		b = blob_find(s, (const char *)in);
		h = lws_get_urlarg_by_name(wsi, "hash=", arg, sizeof(arg));
		if (b != NULL)
			sodium_bin2base64(want, sizeof(want), b->enc_sha256, 32,
			    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
		if (b == NULL || b->gone || (h != NULL && strcmp(h, want) !=
		    0)) {
			s->media_404++;
			sim_log(s, "media: GET %.*s: 404 (%s)", (int)strcspn(
			    (const char *)in, "?"), (const char *)in, b == NULL ?
			    "no such blob" : b->gone ? "withdrawn" :
			    "hash mismatch");
			return refuse(wsi, HTTP_STATUS_NOT_FOUND);
		}
		b->downloads++;
		s->media_downloads++;
		sim_log(s, "media: GET blob %" PRIu64 " (%s, %zu bytes, "
		    "download %u)", b->seq, b->kind, b->data.len, b->downloads);
		ps->b = b;
		ps->off = 0;
		if (s->media_delay_ms > 0) {
			/* Slow media (tests that kill a client mid-import):
			 * the answer starts after the delay. */
			ps->hdr_due = true;
			lws_set_timer_usecs(wsi, (lws_usec_t)s->media_delay_ms *
			    1000);
			return 0;
		}
		return headers(wsi, ps);
	case LWS_CALLBACK_TIMER:
		if (ps == NULL || ps->b == NULL || !ps->hdr_due)
			return 0;
		lws_callback_on_writable(wsi);
		return 0;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (ps == NULL || ps->b == NULL)
			return 0;
		if (ps->hdr_due)
			return headers(wsi, ps);
		b = ps->b;
		n = b->data.len - ps->off;
		if (n > MEDIA_WRITE_CHUNK)
			n = MEDIA_WRITE_CHUNK;
		memcpy(out + LWS_PRE, b->data.p + ps->off, n);
		if (lws_write(wsi, out + LWS_PRE, n, ps->off + n ==
		    b->data.len ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) !=
		    (int)n)
			return -1;
		ps->off += n;
		if (ps->off < b->data.len) {
			lws_callback_on_writable(wsi);
			return 0;
		}
		ps->b = NULL;
		return lws_http_transaction_completed(wsi) ? -1 : 0;
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
