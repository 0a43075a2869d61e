/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/bin.c -- WhatsApp binary node codec (protocol.md section 4).
 * Decoding reads through a bounds-checked cursor into an arena; encoding
 * appends to a caller-owned buffer.
 */
#include "base/compat.h"

#include <errno.h>
#include <string.h>
#include <zlib.h>

#include "proto/bin.h"
#include "base/err.h"
#include "proto/tokens.h"
#include "base/xmalloc.h"

/* Tag bytes (protocol.md 4.1). */
enum {
	TAG_LIST_EMPTY = 0x00,
	TAG_DICT_0 = 0xEC,
	TAG_DICT_3 = 0xEF,
	TAG_INTEROP_JID = 0xF5,
	TAG_FB_JID = 0xF6,
	TAG_AD_JID = 0xF7,
	TAG_LIST_8 = 0xF8,
	TAG_LIST_16 = 0xF9,
	TAG_JID_PAIR = 0xFA,
	TAG_HEX_8 = 0xFB,
	TAG_BINARY_8 = 0xFC,
	TAG_BINARY_20 = 0xFD,
	TAG_BINARY_32 = 0xFE,
	TAG_NIBBLE_8 = 0xFF,
};

/* AD_JID domain bytes (protocol.md 4.5). */
enum {
	DOMAIN_WHATSAPP = 0,
	DOMAIN_LID = 1,
	DOMAIN_HOSTED = 128,
	DOMAIN_HOSTED_LID = 129,
};

#define WA_STR_LIT(s)	{ s, sizeof(s) - 1 }

static const struct wa_str SERVER_PN = WA_STR_LIT("s.whatsapp.net");
static const struct wa_str SERVER_LID = WA_STR_LIT("lid");
static const struct wa_str SERVER_HOSTED = WA_STR_LIT("hosted");
static const struct wa_str SERVER_HOSTED_LID = WA_STR_LIT("hosted.lid");
static const struct wa_str SERVER_MSGR = WA_STR_LIT("msgr");
static const struct wa_str SERVER_INTEROP = WA_STR_LIT("interop");

/*
 * The two characters of each packed byte (protocol.md 4.4), so unpacking
 * is a table load per byte.  NIBBLE_8 uses nibbles 0..11 ("0".."9", "-",
 * "."); a pair holding a NUL marks a byte with a nibble it does not use.
 * HEX_8 uses all 16 ("0".."9", "A".."F").
 */
#define NIB(n)		((n) < 10 ? '0' + (n) : (n) == 10 ? '-' : \
			 (n) == 11 ? '.' : 0)
#define HEX(n)		((n) < 10 ? '0' + (n) : 'A' + (n) - 10)
#define ROW(f, h)	f(h), f(0), f(h), f(1), f(h), f(2), f(h), f(3), \
			f(h), f(4), f(h), f(5), f(h), f(6), f(h), f(7), \
			f(h), f(8), f(h), f(9), f(h), f(10), f(h), f(11), \
			f(h), f(12), f(h), f(13), f(h), f(14), f(h), f(15)
#define TABLE(f)	ROW(f, 0), ROW(f, 1), ROW(f, 2), ROW(f, 3), \
			ROW(f, 4), ROW(f, 5), ROW(f, 6), ROW(f, 7), \
			ROW(f, 8), ROW(f, 9), ROW(f, 10), ROW(f, 11), \
			ROW(f, 12), ROW(f, 13), ROW(f, 14), ROW(f, 15)
static const char NIBBLE_PAIRS[512] = { TABLE(NIB) };
static const char HEX_PAIRS[512] = { TABLE(HEX) };
#undef NIB
#undef HEX
#undef ROW
#undef TABLE

/* Nonzero for a byte with a nibble NIBBLE_8 does not use (12..15), so the
 * unpacking loop checks a byte with one load. */
#define BAD(b)		((b) >= 0xC0 || ((b) & 0x0F) >= 12)
#define BAD4(b)		BAD(b), BAD((b) + 1), BAD((b) + 2), BAD((b) + 3)
#define BAD16(b)	BAD4(b), BAD4((b) + 4), BAD4((b) + 8), BAD4((b) + 12)
#define BAD64(b)	BAD16(b), BAD16((b) + 16), BAD16((b) + 32), \
			BAD16((b) + 48)
static const uint8_t NIBBLE_BAD[256] = {
	BAD64(0), BAD64(64), BAD64(128), BAD64(192)
};
static const uint8_t HEX_BAD[256];	/* HEX_8 uses every nibble */
#undef BAD
#undef BAD4
#undef BAD16
#undef BAD64

bool
wa_str_eq(struct wa_str a, struct wa_str b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.p, b.p, a.len) == 0);
}

bool
wa_str_eqc(struct wa_str a, const char *s)
{
	size_t	 len = strlen(s);

	return a.len == len && (len == 0 || memcmp(a.p, s, len) == 0);
}

/* ------------------------------------------------------------------ */
/* Decoding */

struct cursor {
	const uint8_t	*p;
	size_t		 len;
	size_t		 pos;
	struct arena	*a;
};

static int
need(const struct cursor *c, size_t n)
{
	return c->len - c->pos >= n ? 0 : WC_ETRUNC;
}

static int
read_u8(struct cursor *c, uint8_t *v)
{
	if (c->pos >= c->len)
		return WC_ETRUNC;
	*v = c->p[c->pos++];
	return 0;
}

static int
read_be(struct cursor *c, size_t n, uint32_t *v)
{
	uint32_t	 r = 0;

	if (need(c, n) != 0)
		return WC_ETRUNC;
	while (n-- > 0)
		r = r << 8 | c->p[c->pos++];
	*v = r;
	return 0;
}

/* The length that follows a BINARY_* tag, checked against the bytes left;
 * a length past the end leaves the cursor on the tag byte. */
static int
read_blen(struct cursor *c, uint8_t tag, size_t *len)
{
	size_t		 at = c->pos - 1;
	uint32_t	 v = 0;
	int		 rc;

	switch (tag) {
	case TAG_BINARY_8:
		rc = read_be(c, 1, &v);
		break;
	case TAG_BINARY_20:
		rc = read_be(c, 3, &v);
		v &= 0xFFFFF;
		break;
	default:
		rc = read_be(c, 4, &v);
		break;
	}
	if (rc != 0)
		return rc;
	if (need(c, v) != 0) {
		c->pos = at;
		return WC_ETRUNC;
	}
	*len = v;
	return 0;
}

static int
read_packed(struct cursor *c, uint8_t tag, struct wa_str *out)
{
	const char	*pairs = tag == TAG_HEX_8 ? HEX_PAIRS : NIBBLE_PAIRS;
	const uint8_t	*badtab = tag == TAG_HEX_8 ? HEX_BAD : NIBBLE_BAD;
	const char	*pair;
	const uint8_t	*src;
	uint8_t		 hdr;
	size_t		 nbytes, nchars, i;
	unsigned	 bad = 0;
	char		*s;
	int		 rc;

	if ((rc = read_u8(c, &hdr)) != 0)
		return rc;
	nbytes = hdr & 0x7F;
	if (need(c, nbytes) != 0) {
		c->pos -= 2;	/* at the tag byte */
		return WC_ETRUNC;
	}
	nchars = nbytes * 2;
	if ((hdr & 0x80) != 0) {
		if (nchars == 0) {
			c->pos -= 2;
			return WC_EPROTO;
		}
		nchars--;	/* the last low nibble is padding */
	}
	s = arena_alloc(c->a, nchars);
	src = c->p + c->pos;
	/* Whole bytes, then the high nibble of an odd last one.  A bad
	 * nibble is noted, not branched on; the error path finds it. */
	for (i = 0; i < nchars / 2; i++) {
		bad |= badtab[src[i]];
		memcpy(&s[2 * i], &pairs[2 * src[i]], 2);
	}
	if (nchars % 2 != 0) {
		pair = &pairs[2 * src[i]];
		bad |= pair[0] == '\0';
		s[2 * i] = pair[0];
	}
	if (bad != 0) {
		for (i = 0; i < nchars / 2; i++) {
			pair = &pairs[2 * src[i]];
			if (pair[0] == '\0' || pair[1] == '\0')
				break;
		}
		c->pos += i;
		return WC_EPROTO;
	}
	c->pos += nbytes;
	out->p = s;
	out->len = nchars;
	return 0;
}

static struct wa_str
server_of_domain(uint8_t domain, uint8_t *agent)
{
	*agent = 0;
	switch (domain) {
	case DOMAIN_WHATSAPP:
		return SERVER_PN;
	case DOMAIN_LID:
		return SERVER_LID;
	case DOMAIN_HOSTED:
		return SERVER_HOSTED;
	case DOMAIN_HOSTED_LID:
		return SERVER_HOSTED_LID;
	default:
		/* A legacy agent on the PN server, kept raw as whatsmeow
		 * does (protocol.md 4.5). */
		*agent = domain;
		return SERVER_PN;
	}
}

static int	read_value(struct cursor *c, uint8_t tag, struct wa_val *out);

/* The tag byte and the value it starts.  Most strings on the wire are
 * one-byte tokens, so those are read here without a call. */
static inline int
read_item(struct cursor *c, struct wa_val *out)
{
	uint8_t	 tag;

	if (c->pos >= c->len)
		return WC_ETRUNC;
	tag = c->p[c->pos++];
	if (tag != TAG_LIST_EMPTY && tag < WA_TOKENS_SINGLE) {
		out->kind = WA_VAL_STR;
		out->u.str.p = wa_tokens_single[tag].s;
		out->u.str.len = wa_tokens_single[tag].len;
		return 0;
	}
	return read_value(c, tag, out);
}

/* A string-typed field (JID user or server): any string encoding.  A JID's
 * server is mostly a one-byte token and its user a NIBBLE_8 number, so
 * those two skip read_value(). */
static inline int
read_string(struct cursor *c, struct wa_str *out)
{
	struct wa_val	 v;
	uint8_t		 tag;
	int		 rc;

	if (c->pos >= c->len)
		return WC_ETRUNC;
	tag = c->p[c->pos];
	if (tag != TAG_LIST_EMPTY && tag < WA_TOKENS_SINGLE) {
		c->pos++;
		out->p = wa_tokens_single[tag].s;
		out->len = wa_tokens_single[tag].len;
		return 0;
	}
	if (tag == TAG_NIBBLE_8) {
		c->pos++;
		return read_packed(c, tag, out);
	}
	/* A JID inside a JID is refused before it is read: read_jid calls
	 * this function, and a chain of JID tags would otherwise recurse
	 * once per byte of input. */
	if (tag == TAG_JID_PAIR || tag == TAG_AD_JID || tag == TAG_FB_JID ||
	    tag == TAG_INTEROP_JID)
		return WC_EPROTO;
	if ((rc = read_item(c, &v)) != 0)
		return rc;
	*out = v.u.str;		/* every other value is a string */
	return 0;
}

/*
 * An FB_JID or INTEROP_JID just read (two-byte device, any server): its
 * server must not be empty, and on a server whose JIDs take the AD_JID form
 * (s.whatsapp.net, lid, hosted, hosted.lid) the device must fit its one
 * byte (protocol.md 4.5, 5.2), or the JID could not be written back (an
 * <ack> to it would fail to encode).  Returns 0 or WC_EPROTO.
 */
static int
check_wide_jid(const struct wa_jid *j)
{
	if (j->server.len == 0)
		return WC_EPROTO;
	if (j->device > 0xFF && (wa_str_eq(j->server, SERVER_PN) ||
	    wa_str_eq(j->server, SERVER_LID) ||
	    wa_str_eq(j->server, SERVER_HOSTED) ||
	    wa_str_eq(j->server, SERVER_HOSTED_LID)))
		return WC_EPROTO;
	return 0;
}

static int
read_jid(struct cursor *c, uint8_t tag, struct wa_jid *j)
{
	uint32_t	 v;
	uint8_t		 b;
	int		 rc;

	memset(j, 0, sizeof(*j));
	switch (tag) {
	case TAG_JID_PAIR:
		if ((rc = read_string(c, &j->user)) != 0 ||
		    (rc = read_string(c, &j->server)) != 0)
			return rc;
		return j->server.len != 0 ? 0 : WC_EPROTO;
	case TAG_AD_JID:
		if ((rc = read_u8(c, &b)) != 0)
			return rc;
		j->server = server_of_domain(b, &j->agent);
		if ((rc = read_u8(c, &b)) != 0)
			return rc;
		j->device = b;
		return read_string(c, &j->user);
	case TAG_FB_JID:
		if ((rc = read_string(c, &j->user)) != 0 ||
		    (rc = read_be(c, 2, &v)) != 0)
			return rc;
		j->device = (uint16_t)v;
		if ((rc = read_string(c, &j->server)) != 0)
			return rc;
		return check_wide_jid(j);
	default:	/* TAG_INTEROP_JID; whatsmeow's form, server last */
		if ((rc = read_string(c, &j->user)) != 0 ||
		    (rc = read_be(c, 2, &v)) != 0)
			return rc;
		j->device = (uint16_t)v;
		if ((rc = read_be(c, 2, &v)) != 0)
			return rc;
		j->integrator = (uint16_t)v;
		if ((rc = read_string(c, &j->server)) != 0)
			return rc;
		return check_wide_jid(j);
	}
}

/* A value in a string position (tag, key, attribute value, string content):
 * a string in any encoding, or a JID.  Lists are not values here. */
static int
read_value(struct cursor *c, uint8_t tag, struct wa_val *out)
{
	const struct wa_token	*t;
	size_t			 len;
	uint8_t			 idx;
	int			 rc;

	if (tag == TAG_LIST_EMPTY) {
		out->kind = WA_VAL_STR;
		out->u.str.p = "";
		out->u.str.len = 0;
		return 0;
	}
	if (tag < WA_TOKENS_SINGLE) {
		t = &wa_tokens_single[tag];
		out->kind = WA_VAL_STR;
		out->u.str.p = t->s;
		out->u.str.len = t->len;
		return 0;
	}
	switch (tag) {
	case TAG_DICT_0: case TAG_DICT_0 + 1: case TAG_DICT_0 + 2:
	case TAG_DICT_3:
		if ((rc = read_u8(c, &idx)) != 0)
			return rc;
		t = &wa_tokens_double[tag - TAG_DICT_0][idx];
		out->kind = WA_VAL_STR;
		out->u.str.p = t->s;
		out->u.str.len = t->len;
		return 0;
	case TAG_BINARY_8:
	case TAG_BINARY_20:
	case TAG_BINARY_32:
		if ((rc = read_blen(c, tag, &len)) != 0)
			return rc;
		out->kind = WA_VAL_STR;
		out->u.str.p = (const char *)c->p + c->pos;
		out->u.str.len = len;
		c->pos += len;
		return 0;
	case TAG_NIBBLE_8:
	case TAG_HEX_8:
		out->kind = WA_VAL_STR;
		return read_packed(c, tag, &out->u.str);
	case TAG_JID_PAIR:
	case TAG_AD_JID:
	case TAG_FB_JID:
	case TAG_INTEROP_JID:
		out->kind = WA_VAL_JID;
		return read_jid(c, tag, &out->u.jid);
	case TAG_LIST_8:
	case TAG_LIST_16:
		c->pos--;
		return WC_EPROTO;
	default:	/* 0xF0..0xF4: reserved */
		c->pos--;
		return WC_ETOKEN;
	}
}

static int
read_list_size(struct cursor *c, uint8_t tag, size_t *n)
{
	uint32_t	 v;
	int		 rc;

	switch (tag) {
	case TAG_LIST_EMPTY:
		*n = 0;
		return 0;
	case TAG_LIST_8:
		rc = read_be(c, 1, &v);
		break;
	case TAG_LIST_16:
		rc = read_be(c, 2, &v);
		break;
	default:
		c->pos--;
		return WC_EPROTO;
	}
	if (rc != 0)
		return rc;
	*n = v;
	return 0;
}

static int	read_node(struct cursor *, unsigned, struct wa_node *);

/* The (size - 1) / 2 attributes of n; start is where n began. */
static int
read_attrs(struct cursor *c, struct wa_node *n, size_t size, size_t start)
{
	struct wa_val	 v;
	size_t		 i;
	int		 rc;

	/* Each takes at least two bytes, so a count beyond the bytes left
	 * is refused before anything is allocated. */
	n->nattrs = (size - 1) / 2;
	if (need(c, n->nattrs * 2) != 0) {
		c->pos = start;
		return WC_ETRUNC;
	}
	n->attrs = n->nattrs != 0 ?
	    arena_alloc(c->a, n->nattrs * sizeof(*n->attrs)) : NULL;
	for (i = 0; i < n->nattrs; i++) {
		struct wa_attr	*attr = &n->attrs[i];

		if ((rc = read_item(c, &v)) != 0)
			return rc;
		if (v.kind != WA_VAL_STR || v.u.str.len == 0)
			return WC_EPROTO;
		attr->key = v.u.str;
		if ((rc = read_item(c, &attr->val)) != 0)
			return rc;
	}
	return 0;
}

/* The child nodes of n, after their list tag (already read). */
static int
read_children(struct cursor *c, unsigned depth, struct wa_node *n,
    uint8_t tag)
{
	size_t		 size, i, at = c->pos - 1;
	int		 rc;

	if ((rc = read_list_size(c, tag, &size)) != 0)
		return rc;
	/* Each child needs at least two bytes (F8 01 ...). */
	if (need(c, size * 2) != 0) {
		c->pos = at;
		return WC_ETRUNC;
	}
	n->content.kind = WA_VAL_LIST;
	n->content.u.list.n = size;
	n->content.u.list.v = size != 0 ?
	    arena_alloc(c->a, size * sizeof(struct wa_node)) : NULL;
	for (i = 0; i < size; i++)
		if ((rc = read_node(c, depth + 1,
		    &n->content.u.list.v[i])) != 0)
			return rc;
	return 0;
}

/* The content of n: children, bytes or a string value. */
static int
read_content(struct cursor *c, unsigned depth, struct wa_node *n)
{
	uint8_t		 tag;
	int		 rc;

	if ((rc = read_u8(c, &tag)) != 0)
		return rc;
	switch (tag) {
	case TAG_LIST_EMPTY:
	case TAG_LIST_8:
	case TAG_LIST_16:
		return read_children(c, depth, n, tag);
	case TAG_BINARY_8:
	case TAG_BINARY_20:
	case TAG_BINARY_32:
		if ((rc = read_value(c, tag, &n->content)) != 0)
			return rc;
		n->content.kind = WA_VAL_BYTES;
		return 0;
	default:
		return read_value(c, tag, &n->content);
	}
}

static int
read_node(struct cursor *c, unsigned depth, struct wa_node *n)
{
	struct wa_val	 v;
	size_t		 size, start = c->pos;
	uint8_t		 tag;
	int		 rc;

	if (depth > WA_BIN_MAX_DEPTH)
		return WC_EDEPTH;
	if ((rc = read_u8(c, &tag)) != 0)
		return rc;
	if (tag == TAG_LIST_8 && c->pos < c->len)	/* nearly every node */
		size = c->p[c->pos++];
	else if ((rc = read_list_size(c, tag, &size)) != 0)
		return rc;
	if (size == 0) {
		c->pos--;
		return WC_EPROTO;
	}
	/* Tag. */
	if ((rc = read_item(c, &v)) != 0)
		return rc;
	if (v.kind != WA_VAL_STR || v.u.str.len == 0)
		return WC_EPROTO;
	n->tag = v.u.str;
	if ((rc = read_attrs(c, n, size, start)) != 0)
		return rc;
	/* Content, present when size is even. */
	n->content.kind = WA_VAL_NONE;
	if (size % 2 == 1)
		return 0;
	return read_content(c, depth, n);
}

int
wa_bin_decode(const uint8_t *p, size_t len, struct arena *a,
    struct wa_node **out, size_t *err_off)
{
	struct cursor	 c = { p, len, 0, a };
	struct wa_node	*n = arena_alloc(a, sizeof(*n));
	int		 rc;

	if ((rc = read_node(&c, 1, n)) == 0 && c.pos != c.len)
		rc = WC_ETRAILING;
	if (rc != 0) {
		if (err_off != NULL)
			*err_off = c.pos;
		return rc;
	}
	*out = n;
	return 0;
}

static int
inflate_payload(const uint8_t *p, size_t len, struct arena *a,
    uint8_t **out, size_t *outlen)
{
	z_stream	 z;
	uint8_t		*buf = NULL, *dst;
	size_t		 cap = 0;
	int		 zrc, rc = 0;

	memset(&z, 0, sizeof(z));
	if (inflateInit(&z) != Z_OK)
		return -ENOMEM;
	z.next_in = (Bytef *)(uintptr_t)p;
	/* A frame is at most 16 MiB (3-byte length), so len fits in uInt. */
	z.avail_in = len > UINT32_MAX ? UINT32_MAX : (uInt)len;
	do {
		if (z.total_out == cap) {
			if (cap >= WA_BIN_MAX_FRAME) {
				rc = WC_ETOOBIG;
				break;
			}
			cap = cap == 0 ? (len * 4 > 4096 ? len * 4 : 4096) :
			    cap * 2;
			if (cap > WA_BIN_MAX_FRAME)
				cap = WA_BIN_MAX_FRAME;
			buf = xrealloc(buf, cap);
		}
		z.next_out = buf + z.total_out;
		z.avail_out = (uInt)(cap - z.total_out);
		zrc = inflate(&z, Z_NO_FLUSH);
		if (zrc == Z_BUF_ERROR && z.avail_out != 0) {
			rc = WC_EINFLATE;	/* input ended early */
			break;
		}
		if (zrc != Z_OK && zrc != Z_STREAM_END && zrc != Z_BUF_ERROR) {
			rc = WC_EINFLATE;
			break;
		}
	} while (zrc != Z_STREAM_END);
	if (rc == 0 && z.avail_in != 0)
		rc = WC_ETRAILING;
	if (rc == 0) {
		*outlen = z.total_out;
		dst = arena_alloc(a, z.total_out);
		memcpy(dst, buf, z.total_out);
		*out = dst;
	}
	inflateEnd(&z);
	free(buf);
	return rc;
}

int
wa_bin_unpack(const uint8_t *p, size_t len, struct arena *a,
    struct wa_node **out, size_t *err_off)
{
	uint8_t		*body;
	size_t		 blen;
	int		 rc;

	if (len == 0) {
		if (err_off != NULL)
			*err_off = 0;
		return WC_ETRUNC;
	}
	if ((p[0] & WA_BIN_FLAG_COMPRESSED) == 0)
		return wa_bin_decode(p + 1, len - 1, a, out, err_off);
	if ((rc = inflate_payload(p + 1, len - 1, a, &body, &blen)) != 0) {
		if (err_off != NULL)
			*err_off = 1;
		return rc;
	}
	return wa_bin_decode(body, blen, a, out, err_off);
}

/* ------------------------------------------------------------------ */
/* Encoding */

/* The token code for s (see tokens.h), or -1: a hash and, as a rule, one
 * comparison. */
static int
token_lookup(const char *s, size_t len)
{
	const struct wa_token	*t;
	size_t			 h;
	uint16_t		 code;

	if (len == 0 || len > WA_TOKENS_MAX_LEN)
		return -1;
	for (h = wa_tokens_hash_of(s, len); (code = wa_tokens_hash[h]) != 0;
	    h = (h + 1) & (WA_TOKENS_HASH_SIZE - 1)) {
		t = wa_token_of_code(code);
		if (t->len == len && memcmp(t->s, s, len) == 0)
			return code;
	}
	return -1;
}

static void
write_blen(struct buf *b, size_t len)
{
	if (len < 256) {
		buf_push(b, TAG_BINARY_8);
		buf_push(b, (uint8_t)len);
	} else if (len < (1u << 20)) {
		buf_push(b, TAG_BINARY_20);
		buf_push(b, (uint8_t)(len >> 16));
		buf_push(b, (uint8_t)(len >> 8));
		buf_push(b, (uint8_t)len);
	} else {
		buf_push(b, TAG_BINARY_32);
		buf_push(b, (uint8_t)(len >> 24));
		buf_push(b, (uint8_t)(len >> 16));
		buf_push(b, (uint8_t)(len >> 8));
		buf_push(b, (uint8_t)len);
	}
}

static int
write_bytes(struct buf *b, const void *p, size_t len)
{
	if (len > UINT32_MAX)
		return WC_ETOOBIG;
	write_blen(b, len);
	buf_append(b, p, len);
	return 0;
}

/* Which packed forms hold a character, and its nibble in them (digits are
 * the same in both; '-' and '.' are NIBBLE_8 only, 'A'..'F' HEX_8 only). */
#define PACK_NIBBLE	0x10
#define PACK_HEX	0x20
#define PACK_BOTH	(PACK_NIBBLE | PACK_HEX)
static const uint8_t PACK[256] = {
	['0'] = PACK_BOTH | 0, ['1'] = PACK_BOTH | 1, ['2'] = PACK_BOTH | 2,
	['3'] = PACK_BOTH | 3, ['4'] = PACK_BOTH | 4, ['5'] = PACK_BOTH | 5,
	['6'] = PACK_BOTH | 6, ['7'] = PACK_BOTH | 7, ['8'] = PACK_BOTH | 8,
	['9'] = PACK_BOTH | 9,
	['-'] = PACK_NIBBLE | 10, ['.'] = PACK_NIBBLE | 11,
	['A'] = PACK_HEX | 10, ['B'] = PACK_HEX | 11, ['C'] = PACK_HEX | 12,
	['D'] = PACK_HEX | 13, ['E'] = PACK_HEX | 14, ['F'] = PACK_HEX | 15,
};

/* Write s as NIBBLE_8, else as HEX_8, when every character fits one of
 * them.  One pass packs and classifies; the bytes count only when it ends
 * with a form that holds them all. */
static bool
write_packed(struct buf *b, const char *s, size_t len)
{
	const uint8_t	*u = (const uint8_t *)s;
	unsigned	 forms = PACK_BOTH;
	uint8_t		*d;
	size_t		 i;

	if (len == 0 || len > WA_BIN_PACKED_MAX)
		return false;
	buf_reserve(b, 2 + (len + 1) / 2);
	d = b->p + b->len + 2;
	for (i = 0; i + 1 < len; i += 2) {
		forms &= PACK[u[i]] & PACK[u[i + 1]];
		if (forms == 0)
			return false;
		*d++ = (uint8_t)((PACK[u[i]] & 0x0F) << 4 |
		    (PACK[u[i + 1]] & 0x0F));
	}
	if (len % 2 != 0) {
		forms &= PACK[u[len - 1]];
		if (forms == 0)
			return false;
		*d++ = (uint8_t)((PACK[u[len - 1]] & 0x0F) << 4 | 0x0F);
	}
	b->p[b->len] = (forms & PACK_NIBBLE) != 0 ? TAG_NIBBLE_8 : TAG_HEX_8;
	b->p[b->len + 1] = (uint8_t)((len + 1) / 2 |
	    (len % 2 != 0 ? 0x80 : 0));
	b->len = (size_t)(d - b->p);
	return true;
}

/* A string in the writer's order of preference (protocol.md 4.4). */
static int
write_string(struct buf *b, struct wa_str s)
{
	int	 code;

	if (s.len == 0) {
		buf_push(b, TAG_BINARY_8);
		buf_push(b, 0);
		return 0;
	}
	if ((code = token_lookup(s.p, s.len)) >= 0) {
		if (code > 0xFF)
			buf_push(b, (uint8_t)(code >> 8));
		buf_push(b, (uint8_t)code);
		return 0;
	}
	if (write_packed(b, s.p, s.len))
		return 0;
	return write_bytes(b, s.p, s.len);
}

static int
write_jid(struct buf *b, const struct wa_jid *j)
{
	bool	 pn = wa_str_eq(j->server, SERVER_PN);
	bool	 lid = wa_str_eq(j->server, SERVER_LID);
	bool	 hosted = wa_str_eq(j->server, SERVER_HOSTED);
	bool	 hosted_lid = wa_str_eq(j->server, SERVER_HOSTED_LID);
	int	 rc;

	if (j->server.len == 0)
		return WC_EINVAL;
	if (((pn || lid) && j->device > 0) || hosted || hosted_lid) {
		if (j->device > 0xFF)
			return WC_EINVAL;
		buf_push(b, TAG_AD_JID);
		buf_push(b, lid ? DOMAIN_LID : hosted ? DOMAIN_HOSTED :
		    hosted_lid ? DOMAIN_HOSTED_LID : DOMAIN_WHATSAPP);
		buf_push(b, (uint8_t)j->device);
		return write_string(b, j->user);
	}
	if (wa_str_eq(j->server, SERVER_MSGR)) {
		buf_push(b, TAG_FB_JID);
		if ((rc = write_string(b, j->user)) != 0)
			return rc;
		buf_push(b, (uint8_t)(j->device >> 8));
		buf_push(b, (uint8_t)j->device);
		return write_string(b, j->server);
	}
	if (wa_str_eq(j->server, SERVER_INTEROP)) {
		buf_push(b, TAG_INTEROP_JID);
		if ((rc = write_string(b, j->user)) != 0)
			return rc;
		buf_push(b, (uint8_t)(j->device >> 8));
		buf_push(b, (uint8_t)j->device);
		buf_push(b, (uint8_t)(j->integrator >> 8));
		buf_push(b, (uint8_t)j->integrator);
		return write_string(b, j->server);
	}
	buf_push(b, TAG_JID_PAIR);
	if (j->user.len == 0)
		buf_push(b, TAG_LIST_EMPTY);
	else if ((rc = write_string(b, j->user)) != 0)
		return rc;
	return write_string(b, j->server);
}

static int
write_list_start(struct buf *b, size_t n)
{
	if (n == 0)
		buf_push(b, TAG_LIST_EMPTY);
	else if (n < 256) {
		buf_push(b, TAG_LIST_8);
		buf_push(b, (uint8_t)n);
	} else if (n <= 0xFFFF) {
		buf_push(b, TAG_LIST_16);
		buf_push(b, (uint8_t)(n >> 8));
		buf_push(b, (uint8_t)n);
	} else
		return WC_EINVAL;
	return 0;
}

/* Empty string values are omitted, as whatsmeow does (protocol.md 4.3). */
static bool
attr_is_written(const struct wa_attr *at)
{
	return !((at->val.kind == WA_VAL_STR || at->val.kind == WA_VAL_BYTES) &&
	    at->val.u.str.len == 0) && at->val.kind != WA_VAL_NONE;
}

static int
write_node(struct buf *b, const struct wa_node *n, unsigned depth)
{
	size_t	 i, nattrs = 0;
	int	 rc;

	if (depth > WA_BIN_MAX_DEPTH)
		return WC_EDEPTH;
	if (n->tag.len == 0)
		return WC_EINVAL;
	for (i = 0; i < n->nattrs; i++)
		if (attr_is_written(&n->attrs[i]))
			nattrs++;
	if ((rc = write_list_start(b, 1 + 2 * nattrs +
	    (n->content.kind != WA_VAL_NONE))) != 0 ||
	    (rc = write_string(b, n->tag)) != 0)
		return rc;
	for (i = 0; i < n->nattrs; i++) {
		const struct wa_attr	*at = &n->attrs[i];

		if (!attr_is_written(at))
			continue;
		if (at->key.len == 0)
			return WC_EINVAL;
		if ((rc = write_string(b, at->key)) != 0)
			return rc;
		switch (at->val.kind) {
		case WA_VAL_STR:
		case WA_VAL_BYTES:
			rc = write_string(b, at->val.u.str);
			break;
		case WA_VAL_JID:
			rc = write_jid(b, &at->val.u.jid);
			break;
		case WA_VAL_NONE:
		case WA_VAL_LIST:
			rc = WC_EINVAL;
			break;
		}
		if (rc != 0)
			return rc;
	}
	switch (n->content.kind) {
	case WA_VAL_NONE:
		return 0;
	case WA_VAL_STR:
		return write_string(b, n->content.u.str);
	case WA_VAL_BYTES:
		return write_bytes(b, n->content.u.str.p, n->content.u.str.len);
	case WA_VAL_JID:
		return write_jid(b, &n->content.u.jid);
	case WA_VAL_LIST:
		if ((rc = write_list_start(b, n->content.u.list.n)) != 0)
			return rc;
		for (i = 0; i < n->content.u.list.n; i++)
			if ((rc = write_node(b, &n->content.u.list.v[i],
			    depth + 1)) != 0)
				return rc;
		return 0;
	}
	return WC_EINVAL;
}

int
wa_bin_encode(const struct wa_node *n, struct buf *out)
{
	size_t	 start = out->len;
	int	 rc;

	if ((rc = write_node(out, n, 1)) != 0)
		out->len = start;
	return rc;
}

int
wa_bin_pack(const struct wa_node *n, struct buf *out)
{
	size_t	 start = out->len;
	int	 rc;

	buf_push(out, 0);
	if ((rc = write_node(out, n, 1)) != 0)
		out->len = start;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Comparison and lookup */

static bool
jid_eq(const struct wa_jid *a, const struct wa_jid *b)
{
	return wa_str_eq(a->user, b->user) && wa_str_eq(a->server, b->server) &&
	    a->device == b->device && a->agent == b->agent &&
	    a->integrator == b->integrator;
}

static bool
val_eq(const struct wa_val *a, const struct wa_val *b)
{
	size_t	 i;

	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case WA_VAL_NONE:
		return true;
	case WA_VAL_STR:
	case WA_VAL_BYTES:
		return wa_str_eq(a->u.str, b->u.str);
	case WA_VAL_JID:
		return jid_eq(&a->u.jid, &b->u.jid);
	case WA_VAL_LIST:
		if (a->u.list.n != b->u.list.n)
			return false;
		for (i = 0; i < a->u.list.n; i++)
			if (!wa_node_eq(&a->u.list.v[i], &b->u.list.v[i]))
				return false;
		return true;
	}
	return false;
}

bool
wa_node_eq(const struct wa_node *a, const struct wa_node *b)
{
	size_t	 i;

	if (!wa_str_eq(a->tag, b->tag) || a->nattrs != b->nattrs)
		return false;
	for (i = 0; i < a->nattrs; i++)
		if (!wa_str_eq(a->attrs[i].key, b->attrs[i].key) ||
		    !val_eq(&a->attrs[i].val, &b->attrs[i].val))
			return false;
	return val_eq(&a->content, &b->content);
}

const struct wa_val *
wa_node_attr(const struct wa_node *n, const char *key)
{
	size_t	 i;

	for (i = 0; i < n->nattrs; i++)
		if (wa_str_eqc(n->attrs[i].key, key))
			return &n->attrs[i].val;
	return NULL;
}
