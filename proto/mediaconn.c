/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/mediaconn.c -- the media hosts of <media_conn> (proto/mediaconn.h). */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sodium.h>

#include "base/arena.h"
#include "base/err.h"
#include "proto/bin.h"
#include "proto/mediaconn.h"
#include "proto/node.h"

struct wa_node *
wa_mediaconn_iq(struct arena *a, const char *id)
{
	struct wa_node	*n;

	n = wa_nb_new(a, "iq", 4);
	wa_nb_attr(n, "id", id);
	wa_nb_attr(n, "xmlns", "w:m");
	wa_nb_attr(n, "type", "set");
	wa_nb_attr_server(n, "to");
	(void)wa_nb_kid(a, wa_nb_kids(a, n, 1), "media_conn", 0);
	return n;
}

/* The upload auth of media_conn c: printable ASCII only (it goes into a
 * URL, percent-encoded), else none. */
static void
take_auth(struct wa_mediaconn *mc, const struct wa_node *c)
{
	struct wa_str	 v = wa_node_str(c, "auth");
	size_t		 i;

	if (v.len == 0 || v.len >= sizeof(mc->auth))
		return;
	for (i = 0; i < v.len; i++)
		if ((unsigned char)v.p[i] <= 0x20 ||
		    (unsigned char)v.p[i] >= 0x7f)
			return;
	memcpy(mc->auth, v.p, v.len);
	mc->auth[v.len] = '\0';
}

size_t
wa_mediaconn_take(struct wa_mediaconn *mc, const struct wa_node *n,
    uint64_t now_ms)
{
	const struct wa_node	*c, *k;
	size_t			 i, nk;
	int64_t			 ttl;
	char			*h;

	mc->n = 0;
	mc->auth[0] = '\0';
	c = wa_node_child(n, "media_conn");
	if (wa_node_str_is(n, "type", "result") && c != NULL) {
		take_auth(mc, c);
		nk = wa_node_nkids(c);
		for (i = 0; i < nk && mc->n < WA_MEDIACONN_HOSTS; i++) {
			k = wa_node_kid(c, i);
			if (!wa_str_eqc(k->tag, "host"))
				continue;
			h = mc->hosts[mc->n];
			wa_node_str_copy(k, "hostname", h,
			    WA_MEDIACONN_HOST_MAX);
			if (h[0] != '\0' && strspn(h, "abcdefghijklmnopqrstuvwxyz"
			    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]") ==
			    strlen(h))
				mc->n++;
		}
		if (wa_node_num(c, "ttl", &ttl) != 1 || ttl <= 0)
			ttl = WA_MEDIACONN_TTL_S;
		mc->expires_ms = now_ms + (uint64_t)ttl * 1000;
	}
	if (mc->n > 0)
		return mc->n;
	snprintf(mc->hosts[0], WA_MEDIACONN_HOST_MAX, "%s",
	    WA_MEDIACONN_DEFAULT);
	mc->n = 1;
	mc->expires_ms = now_ms + 60 * 1000;
	return 0;
}

bool
wa_mediaconn_fresh(const struct wa_mediaconn *mc, uint64_t now_ms)
{
	return mc->n > 0 && now_ms < mc->expires_ms;
}

int
wa_mediaconn_url(const char *host, const char *direct_path,
    const uint8_t *enc_sha256, const char *mms_type, char *out, size_t len)
{
	char	 b64[sodium_base64_ENCODED_LEN(32,
		    sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
	int	 n;

	if (host == NULL || direct_path == NULL || enc_sha256 == NULL ||
	    mms_type == NULL || out == NULL || direct_path[0] != '/')
		return -EINVAL;
	sodium_bin2base64(b64, sizeof(b64), enc_sha256, 32,
	    sodium_base64_VARIANT_URLSAFE_NO_PADDING);
	n = snprintf(out, len, "https://%s%s%shash=%s&mms-type=%s&__wa-mms=",
	    host, direct_path, strchr(direct_path, '?') != NULL ? "&" : "?",
	    b64, mms_type);
	if (n < 0 || (size_t)n >= len)
		return WC_ETOOBIG;
	return 0;
}
