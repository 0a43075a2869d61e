/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-dl-retry.c -- the media retry request and its answer
 * (proto/media-dl.h; protocol-features.md 1.8): ServerErrorReceipt and
 * MediaRetryNotification are two- and four-field messages, written and
 * read by hand here with every length checked against the bytes left.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/arena.h"
#include "base/err.h"
#include "proto/bin.h"
#include "proto/crypto.h"
#include "proto/media-dl.h"
#include "proto/node.h"

#define RETRY_INFO	"WhatsApp Media Retry Notification"
#define PATH_MAX_LEN	2048	/* bytes of a direct path we accept */

static int
retry_key(const uint8_t *media_key, uint8_t key[WA_CRYPTO_KEY_LEN])
{
	return wa_crypto_hkdf(NULL, 0, media_key, WA_MEDIA_KEY_LEN,
	    (const uint8_t *)RETRY_INFO, strlen(RETRY_INFO), key,
	    WA_CRYPTO_KEY_LEN);
}

int
wa_media_retry_build(struct arena *a, const struct wa_media_retry_req *r,
    struct wa_node **out)
{
	uint8_t		 key[WA_CRYPTO_KEY_LEN], pt[2 + WA_MEDIA_RETRY_ID_MAX];
	uint8_t		*ct, *iv;
	struct wa_node	*n, *k, *e, *ek, *rmr;
	size_t		 idl;
	int		 rc;

	if (a == NULL || r == NULL || out == NULL || r->msg_id == NULL ||
	    r->own_jid == NULL || r->chat_jid == NULL ||
	    r->media_key == NULL || r->iv == NULL)
		return -EINVAL;
	idl = strlen(r->msg_id);
	if (idl == 0 || idl >= WA_MEDIA_RETRY_ID_MAX)
		return -EINVAL;
	/* ServerErrorReceipt { stanzaID = 1 (string) }; idl < 128: one
	 * length byte. */
	pt[0] = 0x0a;
	pt[1] = (uint8_t)idl;
	memcpy(pt + 2, r->msg_id, idl);
	if ((rc = retry_key(r->media_key, key)) != 0)
		return rc;
	ct = arena_alloc(a, idl + 2 + WA_CRYPTO_GCM_TAG_LEN);
	rc = wa_crypto_gcm_seal_once(key, r->iv, (const uint8_t *)r->msg_id,
	    idl, pt, idl + 2, ct);
	wa_crypto_wipe(key, sizeof(key));
	if (rc != 0)
		return rc;
	iv = arena_alloc(a, WA_MEDIA_RETRY_IV_LEN);
	memcpy(iv, r->iv, WA_MEDIA_RETRY_IV_LEN);

	n = wa_nb_new(a, "receipt", 3);
	wa_nb_attr(n, "id", wa_node_strdup(a, r->msg_id, idl));
	if (wa_nb_attr_jid(n, "to", wa_node_strdup(a, r->own_jid,
	    strlen(r->own_jid))) != 0)
		return -EINVAL;
	wa_nb_attr(n, "type", "server-error");
	k = wa_nb_kids(a, n, 2);
	e = wa_nb_kid(a, &k[0], "encrypt", 0);
	ek = wa_nb_kids(a, e, 2);
	wa_nb_bytes(wa_nb_kid(a, &ek[0], "enc_p", 0), ct,
	    idl + 2 + WA_CRYPTO_GCM_TAG_LEN);
	wa_nb_bytes(wa_nb_kid(a, &ek[1], "enc_iv", 0), iv,
	    WA_MEDIA_RETRY_IV_LEN);
	rmr = wa_nb_kid(a, &k[1], "rmr", 3);
	if (wa_nb_attr_jid(rmr, "jid", wa_node_strdup(a, r->chat_jid,
	    strlen(r->chat_jid))) != 0)
		return -EINVAL;
	wa_nb_attr(rmr, "from_me", r->from_me ? "true" : "false");
	if (r->participant != NULL && wa_nb_attr_jid(rmr, "participant",
	    wa_node_strdup(a, r->participant, strlen(r->participant))) != 0)
		return -EINVAL;
	*out = n;
	return 0;
}

/* A varint at *p (below end); WC_ETRUNC or WC_EPROTO (over 10 bytes). */
static int
varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned	 shift;

	*v = 0;
	for (shift = 0; shift < 70; shift += 7) {
		if (*p >= end)
			return WC_ETRUNC;
		*v |= (uint64_t)(**p & 0x7f) << shift;
		if ((*(*p)++ & 0x80) == 0)
			return 0;
	}
	return WC_EPROTO;
}

/* The fields of a MediaRetryNotification; strings point into the bytes. */
struct mrn {
	struct wa_str	 id, path;
	uint64_t	 result;
	bool		 has_result;
};

static int
skip_field(const uint8_t **p, const uint8_t *end, unsigned wt)
{
	uint64_t	 v;
	int		 rc;

	switch (wt) {
	case 0:
		return varint(p, end, &v);
	case 1:
	case 5:
		v = wt == 1 ? 8 : 4;
		break;
	case 2:
		if ((rc = varint(p, end, &v)) != 0)
			return rc;
		break;
	default:
		return WC_EPROTO;
	}
	if (v > (uint64_t)(end - *p))
		return WC_ETRUNC;
	*p += v;
	return 0;
}

static int
parse_mrn(const uint8_t *b, size_t len, struct mrn *m)
{
	const uint8_t	*p = b, *end = b + len, *s;
	uint64_t	 key, v;
	int		 rc;

	memset(m, 0, sizeof(*m));
	while (p < end) {
		if ((rc = varint(&p, end, &key)) != 0)
			return rc;
		if (key >> 3 == 0)
			return WC_EPROTO;
		if ((key >> 3 == 1 || key >> 3 == 2) && (key & 7) == 2) {
			if ((rc = varint(&p, end, &v)) != 0)
				return rc;
			if (v > (uint64_t)(end - p))
				return WC_ETRUNC;
			s = p;
			p += v;
			if (key >> 3 == 1)
				m->id = (struct wa_str){ (const char *)s, v };
			else
				m->path = (struct wa_str){ (const char *)s, v };
		} else if (key >> 3 == 3 && (key & 7) == 0) {
			if ((rc = varint(&p, end, &m->result)) != 0)
				return rc;
			m->has_result = true;
		} else if ((rc = skip_field(&p, end, key & 7)) != 0)
			return rc;
	}
	return 0;
}

/* A direct path we let into a URL: '/', then printable ASCII. */
static bool
path_ok(struct wa_str s)
{
	size_t	 i;

	if (s.len == 0 || s.len > PATH_MAX_LEN || s.p[0] != '/')
		return false;
	for (i = 0; i < s.len; i++)
		if ((unsigned char)s.p[i] <= ' ' ||
		    (unsigned char)s.p[i] >= 0x7f || s.p[i] == '#')
			return false;
	return true;
}

static int
parse_encrypted(struct arena *a, const struct wa_node *enc,
    struct wa_str id, const uint8_t *media_key, struct wa_media_retry_ans *o)
{
	const uint8_t	*ct, *iv;
	size_t		 ctl, ivl;
	uint8_t		 key[WA_CRYPTO_KEY_LEN], pt[WA_MEDIA_RETRY_MAX];
	struct mrn	 m;
	int		 rc;

	if (!wa_node_bytes(wa_node_child(enc, "enc_p"), &ct, &ctl) ||
	    !wa_node_bytes(wa_node_child(enc, "enc_iv"), &iv, &ivl) ||
	    ivl != WA_MEDIA_RETRY_IV_LEN || ctl < WA_CRYPTO_GCM_TAG_LEN)
		return WC_EPROTO;
	if (ctl > WA_MEDIA_RETRY_MAX)
		return WC_ETOOBIG;
	if ((rc = retry_key(media_key, key)) != 0)
		return rc;
	rc = wa_crypto_gcm_open_once(key, iv, (const uint8_t *)id.p, id.len,
	    ct, ctl, pt);
	wa_crypto_wipe(key, sizeof(key));
	if (rc != 0)
		return WC_EBADMAC;
	if ((rc = parse_mrn(pt, ctl - WA_CRYPTO_GCM_TAG_LEN, &m)) != 0)
		goto out;
	rc = WC_EPROTO;
	if (m.id.len != id.len || memcmp(m.id.p, id.p, id.len) != 0 ||
	    m.result > WA_MEDIA_RETRY_DECRYPTION_ERROR)
		goto out;
	o->result = (enum wa_media_retry_result)m.result;
	o->direct_path = NULL;
	if (o->result == WA_MEDIA_RETRY_SUCCESS) {
		if (!path_ok(m.path))
			goto out;
		o->direct_path = wa_node_strdup(a, m.path.p, m.path.len);
	}
	rc = 0;
out:
	wa_crypto_wipe(pt, sizeof(pt));
	return rc;
}

int
wa_media_retry_parse(struct arena *a, const struct wa_node *n,
    const uint8_t *media_key, struct wa_media_retry_ans *out)
{
	struct wa_media_retry_ans	 o;
	const struct wa_node		*enc, *err;
	struct wa_str			 id;
	int64_t				 code;
	int				 rc;

	if (a == NULL || n == NULL || media_key == NULL || out == NULL ||
	    !wa_str_eqc(n->tag, "notification") ||
	    !wa_node_str_is(n, "type", "mediaretry"))
		return -EINVAL;
	id = wa_node_str(n, "id");
	if (id.len == 0 || id.len >= WA_MEDIA_RETRY_ID_MAX)
		return WC_EPROTO;
	memset(&o, 0, sizeof(o));
	o.msg_id = wa_node_strdup(a, id.p, id.len);
	if ((enc = wa_node_child(n, "encrypt")) != NULL) {
		if ((rc = parse_encrypted(a, enc, id, media_key, &o)) != 0)
			return rc;
	} else if ((err = wa_node_child(n, "error")) != NULL) {
		if (wa_node_num(err, "code", &code) != 1)
			return WC_EPROTO;
		o.result = code == WA_MEDIA_RETRY_NOT_FOUND ?
		    WA_MEDIA_RETRY_NOT_FOUND :
		    code == WA_MEDIA_RETRY_DECRYPTION_ERROR ?
		    WA_MEDIA_RETRY_DECRYPTION_ERROR :
		    WA_MEDIA_RETRY_GENERAL_ERROR;
	} else
		return WC_EPROTO;
	*out = o;
	return 0;
}
