/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/reporting.c -- the reporting token of an outgoing message
 * (proto/reporting.h; protocol.md 9.4): the kept-field walk over a
 * serialized Message, the HKDF key and the truncated HMAC.  The table of
 * kept fields is the references' (whatsmeow reportingfields.json, Baileys
 * reporting-utils.js reportingFields), as field numbers.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/bin.h"
#include "proto/crypto.h"
#include "proto/node.h"
#include "proto/reporting.h"

#define INFO_SUFFIX	"Report Token"
#define INFO_MAX	1024		/* bytes of HKDF info we accept */

/* Message field numbers (WAProto 7.0.0-rc14). */
#define F_CONTEXT_INFO		35	/* Message.messageContextInfo */
#define F_MSG_SECRET		3	/* MessageContextInfo.messageSecret */
#define F_REACTION		46	/* reactionMessage */
#define F_POLL_UPDATE		50	/* pollUpdateMessage */
#define F_ENC_REACTION		56	/* encReactionMessage */
#define F_ENC_EVENT_RESPONSE	76	/* encEventResponseMessage */

enum { W_VARINT = 0, W_I64 = 1, W_LEN = 2, W_I32 = 5 };

/* One entry of the table: a field kept, whole (no kids, not m) or
 * re-encoded with only its kept sub-fields (kids, or m: a Message whose
 * kids are none, so nothing of it is kept, as both references do). */
struct rfield {
	uint32_t		 num;
	bool			 m;
	const struct rfield	*kids;
	size_t			 nkids;
};

#define KEEP(n)		{ (n), false, NULL, 0 }
#define MSG(n)		{ (n), true, NULL, 0 }
#define SUB(n, k)	{ (n), false, (k), sizeof(k) / sizeof((k)[0]) }

/* ContextInfo kept: forwardingScore(21), isForwarded(22). */
static const struct rfield ctx_2122[] = { KEEP(21), KEEP(22) };
static const struct rfield f_image[] = { KEEP(2), KEEP(3), KEEP(8),
	KEEP(11), SUB(17, ctx_2122), KEEP(25) };
static const struct rfield f_contact[] = { KEEP(1), KEEP(16),
	SUB(17, ctx_2122) };
static const struct rfield f_location[] = { KEEP(3), KEEP(4), KEEP(5),
	KEEP(16), SUB(17, ctx_2122) };
static const struct rfield f_ext_text[] = { KEEP(1), SUB(17, ctx_2122),
	KEEP(30) };
static const struct rfield f_document[] = { KEEP(2), KEEP(7), KEEP(10),
	SUB(17, ctx_2122), KEEP(20) };
static const struct rfield f_audio[] = { KEEP(2), KEEP(7), KEEP(9),
	SUB(17, ctx_2122), KEEP(21) };
static const struct rfield f_video[] = { KEEP(2), KEEP(6), KEEP(7),
	KEEP(13), SUB(17, ctx_2122), KEEP(20) };
static const struct rfield f_protocol[] = { KEEP(1), KEEP(2), MSG(14),
	KEEP(15) };
static const struct rfield f_live_loc[] = { KEEP(6), KEEP(16),
	SUB(17, ctx_2122) };
static const struct rfield f_sticker[] = { KEEP(4), KEEP(5), KEEP(8),
	KEEP(13), SUB(17, ctx_2122) };
static const struct rfield f_invite[] = { KEEP(1), KEEP(2), KEEP(4),
	KEEP(5), KEEP(6), SUB(7, ctx_2122) };
static const struct rfield f_wrapped[] = { MSG(1) };
static const struct rfield f_12[] = { KEEP(1), KEEP(2) };
static const struct rfield f_poll[] = { KEEP(2), SUB(3, f_12),
	SUB(5, ctx_2122), SUB(8, f_12) };
static const struct rfield f_1[] = { KEEP(1) };
static const struct rfield f_88[] = { KEEP(1), SUB(2, f_1),
	SUB(3, ctx_2122) };

static const struct rfield top[] = {
	KEEP(1), SUB(3, f_image), SUB(4, f_contact), SUB(5, f_location),
	SUB(6, f_ext_text), SUB(7, f_document), SUB(8, f_audio),
	SUB(9, f_video), SUB(12, f_protocol), SUB(18, f_live_loc),
	SUB(26, f_sticker), SUB(28, f_invite), SUB(37, f_wrapped),
	SUB(49, f_poll), SUB(53, f_wrapped), SUB(55, f_wrapped),
	SUB(58, f_wrapped), SUB(59, f_wrapped), SUB(60, f_poll),
	SUB(64, f_poll), SUB(66, f_video), SUB(74, f_wrapped),
	SUB(87, f_wrapped), SUB(88, f_88), SUB(92, f_wrapped),
	SUB(93, f_wrapped), SUB(94, f_wrapped),
};

/* Read a protobuf varint at p[*i..len) into *v, advancing *i.  Returns
 * 0, WC_ETRUNC (ends inside it) or WC_EPROTO (above 64 bits). */
static int
get_varint(const uint8_t *p, size_t len, size_t *i, uint64_t *v)
{
	uint64_t	 x = 0;
	unsigned	 k;

	for (k = 0; k < 10; k++) {
		if (*i + k >= len)
			return WC_ETRUNC;
		if (k == 9 && p[*i + k] > 1)
			return WC_EPROTO;
		x |= (uint64_t)(p[*i + k] & 0x7F) << (7 * k);
		if ((p[*i + k] & 0x80) == 0) {
			*i += k + 1;
			*v = x;
			return 0;
		}
	}
	return WC_EPROTO;
}

static void
put_varint(struct buf *b, uint64_t v)
{
	uint8_t	 t[10];
	size_t	 n = 0;

	while (v > 0x7F) {
		t[n++] = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	t[n++] = (uint8_t)v;
	buf_append(b, t, n);
}

static const struct rfield *
find_cfg(const struct rfield *cfg, size_t n, uint32_t num)
{
	size_t	 i;

	for (i = 0; i < n; i++)
		if (cfg[i].num == num)
			return &cfg[i];
	return NULL;
}

/* A kept field: its bytes are p[off..off+len) of the input (tmp false)
 * or of the level's scratch buffer (tmp true); idx keeps the sort
 * stable. */
struct kept {
	uint32_t	 num;
	size_t		 idx;
	bool		 tmp;
	size_t		 off, len;
};

static int
kept_cmp(const void *x, const void *y)
{
	const struct kept	*a = x, *b = y;

	if (a->num != b->num)
		return a->num < b->num ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* The level being walked: its kept fields and scratch bytes. */
struct level {
	struct kept	*v;
	size_t		 n, cap;
	struct buf	 tmp;
};

static void
level_push(struct level *l, uint32_t num, bool tmp, size_t off, size_t len)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 8;
		l->v = xrealloc(l->v, l->cap * sizeof(*l->v));
	}
	l->v[l->n].num = num;
	l->v[l->n].idx = l->n;
	l->v[l->n].tmp = tmp;
	l->v[l->n].off = off;
	l->v[l->n].len = len;
	l->n++;
}

static int	extract(const uint8_t *, size_t, const struct rfield *, size_t,
		    unsigned, struct buf *);

/* The end of the value of a field of wire type wt whose value starts at
 * p[*i]: set *vstart (W_LEN: after the length) and advance *i past it.
 * Returns 0 or WC_ETRUNC / WC_EPROTO. */
static int
skip_value(const uint8_t *p, size_t len, unsigned wt, size_t *i,
    size_t *vstart)
{
	uint64_t	 v;
	int		 rc;

	*vstart = *i;
	switch (wt) {
	case W_VARINT:
		return get_varint(p, len, i, &v);
	case W_I64:
	case W_I32:
		v = wt == W_I64 ? 8 : 4;
		break;
	case W_LEN:
		if ((rc = get_varint(p, len, i, &v)) != 0)
			return rc;
		*vstart = *i;
		break;
	default:
		return WC_EPROTO;	/* groups (3, 4), 6, 7 */
	}
	if (v > len - *i)
		return WC_ETRUNC;
	*i += (size_t)v;
	return 0;
}

/* The field at p[*i]: its tag (field number >= 1, fitting 32 bits) into
 * *tag, *vstart as skip_value() sets it, *i past it.  Returns 0 or
 * WC_ETRUNC / WC_EPROTO. */
static int
next_field(const uint8_t *p, size_t len, size_t *i, uint64_t *tag,
    size_t *vstart)
{
	int	 rc;

	if ((rc = get_varint(p, len, i, tag)) != 0)
		return rc;
	if (*tag >> 3 == 0 || *tag > UINT32_MAX)
		return WC_EPROTO;
	return skip_value(p, len, (unsigned)(*tag & 7), i, vstart);
}

/* One kept field with sub-fields at p[start..vend), value from vstart:
 * its kept sub-fields re-encoded under the same key, or nothing. */
static int
keep_sub(const uint8_t *p, size_t vstart, size_t vend, uint64_t tag,
    const struct rfield *c, unsigned depth, struct level *l)
{
	struct buf	 sub = BUF_INIT;
	size_t		 off = l->tmp.len;
	int		 rc;

	rc = extract(p + vstart, vend - vstart, c->kids, c->nkids, depth + 1,
	    &sub);
	if (rc == 0 && sub.len > 0) {
		put_varint(&l->tmp, tag);
		put_varint(&l->tmp, sub.len);
		buf_append(&l->tmp, sub.p, sub.len);
		level_push(l, c->num, true, off, l->tmp.len - off);
	}
	buf_release(&sub);
	return rc;
}

static int
walk(const uint8_t *p, size_t len, const struct rfield *cfg, size_t ncfg,
    unsigned depth, struct level *l)
{
	const struct rfield	*c;
	uint64_t		 tag;
	size_t			 i = 0, start, vstart;
	int			 rc;

	while (i < len) {
		start = i;
		if ((rc = next_field(p, len, &i, &tag, &vstart)) != 0)
			return rc;
		if ((c = find_cfg(cfg, ncfg, (uint32_t)(tag >> 3))) == NULL)
			continue;
		if ((tag & 7) == W_LEN && (c->m || c->nkids > 0)) {
			if ((rc = keep_sub(p, vstart, i, tag, c, depth, l)) != 0)
				return rc;
		} else
			level_push(l, c->num, false, start, i - start);
	}
	return 0;
}

/* The kept fields of p[0..len) under cfg, sorted, appended to out. */
static int
extract(const uint8_t *p, size_t len, const struct rfield *cfg, size_t ncfg,
    unsigned depth, struct buf *out)
{
	struct level	 l;
	size_t		 k;
	int		 rc;

	if (depth > WA_REPORTING_MAX_DEPTH)
		return WC_EDEPTH;
	memset(&l, 0, sizeof(l));
	if ((rc = walk(p, len, cfg, ncfg, depth, &l)) == 0) {
		if (l.n > 1)
			qsort(l.v, l.n, sizeof(*l.v), kept_cmp);
		for (k = 0; k < l.n; k++)
			buf_append(out, (l.v[k].tmp ? l.tmp.p : p) + l.v[k].off,
			    l.v[k].len);
	}
	free(l.v);
	buf_release(&l.tmp);
	return rc;
}

int
wa_reporting_content(const uint8_t *p, size_t len, struct buf *out)
{
	size_t	 was = out->len;
	int	 rc;

	if (p == NULL && len > 0)
		return -EINVAL;
	if (len > WA_REPORTING_MAX_LEN)
		return WC_ETOOBIG;
	if ((rc = extract(p, len, top, sizeof(top) / sizeof(top[0]), 1,
	    out)) != 0)
		out->len = was;
	return rc;
}

int
wa_reporting_key(const uint8_t *secret, size_t secret_len, const char *id,
    const char *from, const char *to, uint8_t key[WA_REPORTING_KEY_LEN])
{
	uint8_t	 info[INFO_MAX];
	size_t	 a, b, c, d = sizeof(INFO_SUFFIX) - 1;

	if (secret == NULL || secret_len == 0 || id == NULL || from == NULL ||
	    to == NULL)
		return -EINVAL;
	a = strlen(id);
	b = strlen(from);
	c = strlen(to);
	if (a > INFO_MAX || b > INFO_MAX || c > INFO_MAX ||
	    a + b + c + d > INFO_MAX)
		return WC_ETOOBIG;
	memcpy(info, id, a);
	memcpy(info + a, from, b);
	memcpy(info + a + b, to, c);
	memcpy(info + a + b + c, INFO_SUFFIX, d);
	return wa_crypto_hkdf(NULL, 0, secret, secret_len, info, a + b + c + d,
	    key, WA_REPORTING_KEY_LEN);
}

/* The value of the last top-level field num of wire type LEN in p:
 * 1 and *v, *vlen; 0 none; < 0 malformed. */
static int
last_len_field(const uint8_t *p, size_t len, uint32_t num,
    const uint8_t **v, size_t *vlen)
{
	uint64_t	 tag;
	size_t		 i = 0, vstart;
	int		 rc, found = 0;

	while (i < len) {
		if ((rc = next_field(p, len, &i, &tag, &vstart)) != 0)
			return rc;
		if (tag == ((uint64_t)num << 3 | W_LEN)) {
			*v = p + vstart;
			*vlen = i - vstart;
			found = 1;
		}
	}
	return found;
}

int
wa_reporting_secret(const uint8_t *p, size_t len, const uint8_t **secret,
    size_t *secret_len)
{
	const uint8_t	*s = NULL;
	uint64_t	 tag;
	size_t		 i = 0, vstart, s_len = 0;
	int		 rc;

	if (p == NULL && len > 0)
		return -EINVAL;
	if (len > WA_REPORTING_MAX_LEN)
		return WC_ETOOBIG;
	/* Repeated messageContextInfo fields merge: the last secret of
	 * them all wins. */
	while (i < len) {
		if ((rc = next_field(p, len, &i, &tag, &vstart)) != 0)
			return rc;
		if (tag == ((uint64_t)F_CONTEXT_INFO << 3 | W_LEN) &&
		    (rc = last_len_field(p + vstart, i - vstart, F_MSG_SECRET,
		    &s, &s_len)) < 0)
			return rc;
	}
	if (s == NULL || s_len == 0)
		return 0;
	*secret = s;
	*secret_len = s_len;
	return 1;
}

bool
wa_reporting_wanted(const uint8_t *p, size_t len)
{
	static const uint32_t	 no[] = { F_REACTION, F_POLL_UPDATE,
		F_ENC_REACTION, F_ENC_EVENT_RESPONSE };
	const uint8_t		*v;
	size_t			 vlen, k;
	int			 rc;

	if ((p == NULL && len > 0) || len > WA_REPORTING_MAX_LEN)
		return false;
	for (k = 0; k < sizeof(no) / sizeof(no[0]); k++)
		if ((rc = last_len_field(p, len, no[k], &v, &vlen)) != 0)
			return false;	/* present, or malformed */
	return true;
}

int
wa_reporting_token(const uint8_t *p, size_t len, const char *id,
    const char *from, const char *to, uint8_t out[WA_REPORTING_TOKEN_LEN])
{
	struct buf	 content = BUF_INIT;
	const uint8_t	*secret;
	size_t		 secret_len;
	uint8_t		 key[WA_REPORTING_KEY_LEN], mac[WA_CRYPTO_HASH_LEN];
	int		 rc;

	if (!wa_reporting_wanted(p, len))
		return 0;
	if ((rc = wa_reporting_secret(p, len, &secret, &secret_len)) <= 0)
		return rc;
	if ((rc = wa_reporting_content(p, len, &content)) != 0 ||
	    content.len == 0)
		goto out;
	if ((rc = wa_reporting_key(secret, secret_len, id, from, to, key)) != 0)
		goto out;
	wa_crypto_hmac_sha256(key, sizeof(key), content.p, content.len, mac);
	memcpy(out, mac, WA_REPORTING_TOKEN_LEN);
	wa_crypto_wipe(key, sizeof(key));
	wa_crypto_wipe(mac, sizeof(mac));
	rc = 1;
out:
	buf_release(&content);
	return rc;
}

void
wa_reporting_add_secret(const uint8_t secret[WA_REPORTING_SECRET_LEN],
    struct buf *out)
{
	uint8_t	 h[5];

	h[0] = (uint8_t)((F_CONTEXT_INFO << 3 | W_LEN) | 0x80);	/* 0x9A */
	h[1] = (uint8_t)((F_CONTEXT_INFO << 3 | W_LEN) >> 7);	/* 0x02 */
	h[2] = 2 + WA_REPORTING_SECRET_LEN;
	h[3] = F_MSG_SECRET << 3 | W_LEN;			/* 0x1A */
	h[4] = WA_REPORTING_SECRET_LEN;
	buf_append(out, h, sizeof(h));
	buf_append(out, secret, WA_REPORTING_SECRET_LEN);
}

void
wa_reporting_node(const uint8_t token[WA_REPORTING_TOKEN_LEN],
    struct arena *a, struct wa_node *slot)
{
	struct wa_node	*t;

	wa_nb_kid(a, slot, "reporting", 0);
	t = wa_nb_kid(a, wa_nb_kids(a, slot, 1), "reporting_token", 1);
	wa_nb_attr(t, "v", "2");
	wa_nb_bytes(t, token, WA_REPORTING_TOKEN_LEN);
}

int
wa_reporting_find(const struct wa_node *n, const uint8_t **out)
{
	const struct wa_node	*r, *t;

	if ((r = wa_node_child(n, "reporting")) == NULL)
		return 0;
	if ((t = wa_node_child(r, "reporting_token")) == NULL ||
	    !wa_node_str_is(t, "v", "2") ||
	    (t->content.kind != WA_VAL_BYTES &&
	    t->content.kind != WA_VAL_STR) ||
	    t->content.u.str.len != WA_REPORTING_TOKEN_LEN)
		return WC_EPROTO;
	*out = (const uint8_t *)t->content.u.str.p;
	return 1;
}
