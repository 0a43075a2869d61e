/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/mediaconn.h -- the media hosts the server names in its answer to
 * <media_conn/> (protocol-features.md 1.1, protocol.md 14.2), shared by
 * the engine modules that download blobs (proto/hsync.c history blobs,
 * proto/appsync.c app-state blobs): the query, the answer read into a
 * small cache with its expiry.  Pure functions over the caller's struct;
 * callable from any thread (each module keeps its own).
 */
#ifndef WA_MEDIACONN_H
#define WA_MEDIACONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct arena;
struct wa_node;

#define WA_MEDIACONN_HOSTS	4	/* hosts kept, in the answer's order */
#define WA_MEDIACONN_HOST_MAX	256	/* bytes of a host name, with NUL */
#define WA_MEDIACONN_DEFAULT	"mmg.whatsapp.net" /* when none is named */
#define WA_MEDIACONN_TTL_S	300	/* when the answer names no ttl */
#define WA_MEDIACONN_AUTH_MAX	512	/* bytes of the upload auth, with NUL */

struct wa_mediaconn {
	char		 hosts[WA_MEDIACONN_HOSTS][WA_MEDIACONN_HOST_MAX];
	char		 auth[WA_MEDIACONN_AUTH_MAX]; /* the upload's auth
					 * (1.4); "" when none was named */
	size_t		 n;		/* 0: none known (ask) */
	uint64_t	 expires_ms;	/* on the caller's clock */
};

/* <iq id xmlns="w:m" type="set" to="s.whatsapp.net"><media_conn/></iq>
 * in arena a (id borrowed).  Never NULL. */
struct wa_node	*wa_mediaconn_iq(struct arena *a, const char *id);

/*
 * Read the answer n (the iq of our query, any type) into *mc at now_ms:
 * the auth attribute (printable ASCII; "" when absent or longer than
 * WA_MEDIACONN_AUTH_MAX - 1 bytes), the <host hostname> names that are plain host names (letters, digits,
 * ".-:[]": nothing that could bend a URL), at most WA_MEDIACONN_HOSTS,
 * valid for the answer's ttl (s; WA_MEDIACONN_TTL_S when absent); when
 * it names none (an error answer too), WA_MEDIACONN_DEFAULT for 60 s.
 * Returns the number of hosts the answer named (0: the default is used).
 */
size_t		wa_mediaconn_take(struct wa_mediaconn *mc,
		    const struct wa_node *n, uint64_t now_ms);

/* Whether mc holds hosts still valid at now_ms. */
bool		wa_mediaconn_fresh(const struct wa_mediaconn *mc,
		    uint64_t now_ms);

/*
 * The download URL of direct_path on host (protocol-features.md 1.5,
 * [WM] form): https://HOST/PATH{?|&}hash=B64URL(enc_sha256)&mms-type=
 * MMS_TYPE&__wa-mms= into out[len] (enc_sha256: 32 bytes).  Returns 0,
 * -EINVAL (a NULL argument, a path not starting with '/') or WC_ETOOBIG
 * (out too small).
 */
MUST_CHECK int	wa_mediaconn_url(const char *host, const char *direct_path,
		    const uint8_t *enc_sha256, const char *mms_type, char *out,
		    size_t len);

#endif
