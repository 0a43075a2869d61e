/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/event-wire.c -- the wire form of events and commands
 * (base/event-wire.h): one encoder and one decoder that walk the payload
 * layouts of base/event-layout.h.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/event-layout.h"
#include "base/event-wire.h"
#include "base/xmalloc.h"

/* ---- encoding ---- */

static void
put_u32(struct buf *b, uint32_t v)
{
	uint8_t	 x[4] = { v >> 24, v >> 16, v >> 8, v };

	buf_append(b, x, sizeof(x));
}

static void
put_u64(struct buf *b, uint64_t v)
{
	put_u32(b, (uint32_t)(v >> 32));
	put_u32(b, (uint32_t)v);
}

static int	put_fields(struct buf *b, const struct ev_layout *l,
		    const void *p, int depth);

static int
put_field(struct buf *b, const struct ev_field *f, const char *at, int depth)
{
	const char	*s, *v;
	uint32_t	 n, k;
	int32_t		 i32;
	int64_t		 i64;
	int		 e, rc;
	size_t		 len;

	switch (f->type) {
	case EV_F_BOOL:
		buf_push(b, *(const bool *)at ? 1 : 0);
		return 0;
	case EV_F_ENUM:
		memcpy(&e, at, sizeof(e));
		if (e < 0 || (uint32_t)e > f->max)
			return WC_EINVAL;
		put_u32(b, (uint32_t)e);
		return 0;
	case EV_F_I32:
		memcpy(&i32, at, sizeof(i32));
		put_u32(b, (uint32_t)i32);
		return 0;
	case EV_F_U32:
		memcpy(&n, at, sizeof(n));
		put_u32(b, n);
		return 0;
	case EV_F_I64:
		memcpy(&i64, at, sizeof(i64));
		put_u64(b, (uint64_t)i64);
		return 0;
	case EV_F_STR:
		s = ev_ptr_get(at);
		len = s != NULL ? strlen(s) : 0;
		if (len > EV_WIRE_STR_MAX)
			return WC_ETOOBIG;
		put_u32(b, (uint32_t)len);
		buf_append(b, s, len);
		return 0;
	case EV_F_STRUCT:
		return put_fields(b, f->elem, at, depth + 1);
	case EV_F_ARRAY:
		v = ev_ptr_get(at);
		n = ev_count_get(at - f->off + f->count_off);
		if (n > EV_WIRE_COUNT_MAX)
			return WC_ETOOBIG;
		if (n > 0 && v == NULL)
			return -EINVAL;
		put_u32(b, n);
		for (k = 0; k < n; k++)
			if ((rc = put_fields(b, f->elem, v + (size_t)k *
			    f->elem->size, depth + 1)) != 0)
				return rc;
		return 0;
	}
	return -EINVAL;
}

static int
put_fields(struct buf *b, const struct ev_layout *l, const void *p, int depth)
{
	size_t	 i;
	int	 rc;

	if (depth > EV_WIRE_MAX_DEPTH)
		return WC_EDEPTH;
	for (i = 0; i < l->nfields; i++)
		if ((rc = put_field(b, &l->fields[i], (const char *)p +
		    l->fields[i].off, depth)) != 0)
			return rc;
	return 0;
}

static int
encode(uint8_t class, unsigned kind, const struct ev_kind_info *k,
    const void *payload, struct buf *out)
{
	size_t	 start = out->len, len;
	int	 rc;

	if (k == NULL)
		return -EINVAL;
	put_u32(out, 0);		/* the length, written below */
	buf_push(out, EV_WIRE_VERSION);
	buf_push(out, class);
	buf_push(out, (uint8_t)(kind >> 8));
	buf_push(out, (uint8_t)kind);
	rc = put_fields(out, k->layout, payload, 0);
	len = out->len - start;
	if (rc == 0 && len > EV_WIRE_MAX)
		rc = WC_ETOOBIG;
	if (rc != 0) {
		out->len = start;
		return rc;
	}
	out->p[start] = (uint8_t)((len - 4) >> 24);
	out->p[start + 1] = (uint8_t)((len - 4) >> 16);
	out->p[start + 2] = (uint8_t)((len - 4) >> 8);
	out->p[start + 3] = (uint8_t)(len - 4);
	return 0;
}

int
ev_wire_encode(const struct ev *ev, struct buf *out)
{
	return encode(EV_WIRE_EVENT, (unsigned)ev->kind,
	    ev_kind_info(ev->kind), &ev->u, out);
}

int
cmd_wire_encode(const struct cmd *c, struct buf *out)
{
	return encode(EV_WIRE_COMMAND, (unsigned)c->kind,
	    cmd_kind_info(c->kind), &c->u, out);
}

/* ---- decoding ---- */

/* A cursor over one frame's bytes: every read checks the end first. */
struct rd {
	const uint8_t	*p;
	size_t		 len;		/* the frame's end */
	size_t		 off;
};

static int
get(struct rd *r, size_t n, const uint8_t **out)
{
	if (r->len - r->off < n)
		return WC_ETRUNC;
	*out = r->p + r->off;
	r->off += n;
	return 0;
}

static int
get_u32(struct rd *r, uint32_t *v)
{
	const uint8_t	*x;
	int		 rc;

	if ((rc = get(r, 4, &x)) != 0)
		return rc;
	*v = (uint32_t)x[0] << 24 | (uint32_t)x[1] << 16 |
	    (uint32_t)x[2] << 8 | x[3];
	return 0;
}

static int
get_u64(struct rd *r, uint64_t *v)
{
	uint32_t	 hi, lo;
	int		 rc;

	if ((rc = get_u32(r, &hi)) != 0 || (rc = get_u32(r, &lo)) != 0)
		return rc;
	*v = (uint64_t)hi << 32 | lo;
	return 0;
}

static int
get_str(struct rd *r, char *at)
{
	const uint8_t	*x;
	uint32_t	 n;
	char		*s;
	int		 rc;

	if ((rc = get_u32(r, &n)) != 0)
		return rc;
	if (n > EV_WIRE_STR_MAX)
		return WC_ETOOBIG;
	if ((rc = get(r, n, &x)) != 0)
		return rc;
	if (memchr(x, '\0', n) != NULL)
		return WC_EPROTO;
	s = xmalloc((size_t)n + 1);
	memcpy(s, x, n);
	s[n] = '\0';
	ev_ptr_set(at, s);
	return 0;
}

static int	get_fields(struct rd *r, const struct ev_layout *l, void *p,
		    int depth);

/* An array of f->elem into the zeroed slot at (and its count): the
 * count is set before the elements, so a failure part way leaves what
 * ev_layout_release() frees. */
static int
get_array(struct rd *r, const struct ev_field *f, char *at, int depth)
{
	uint32_t	 n, k;
	size_t		 min = ev_layout_wire_min(f->elem);
	char		*v;
	int		 rc;

	if ((rc = get_u32(r, &n)) != 0)
		return rc;
	if (n > EV_WIRE_COUNT_MAX)
		return WC_ETOOBIG;
	if (n == 0)
		return 0;
	/* every element takes min bytes at least: no allocation for
	 * elements the input cannot hold */
	if ((r->len - r->off) / (min > 0 ? min : 1) < n)
		return WC_ETRUNC;
	v = xcalloc(n, f->elem->size);
	ev_ptr_set(at, v);
	ev_count_set(at - f->off + f->count_off, n);
	for (k = 0; k < n; k++)
		if ((rc = get_fields(r, f->elem, v + (size_t)k * f->elem->size,
		    depth + 1)) != 0)
			return rc;
	return 0;
}

static int
get_field(struct rd *r, const struct ev_field *f, char *at, int depth)
{
	const uint8_t	*x;
	uint64_t	 u64;
	uint32_t	 u32;
	int32_t		 i32;
	int64_t		 i64;
	int		 e, rc;

	switch (f->type) {
	case EV_F_BOOL:
		if ((rc = get(r, 1, &x)) != 0)
			return rc;
		if (x[0] > 1)
			return WC_EPROTO;
		*(bool *)at = x[0] == 1;
		return 0;
	case EV_F_ENUM:
		if ((rc = get_u32(r, &u32)) != 0)
			return rc;
		if (u32 > f->max)
			return WC_EPROTO;
		e = (int)u32;
		memcpy(at, &e, sizeof(e));
		return 0;
	case EV_F_I32:
		if ((rc = get_u32(r, &u32)) != 0)
			return rc;
		i32 = (int32_t)u32;
		memcpy(at, &i32, sizeof(i32));
		return 0;
	case EV_F_U32:
		if ((rc = get_u32(r, &u32)) != 0)
			return rc;
		memcpy(at, &u32, sizeof(u32));
		return 0;
	case EV_F_I64:
		if ((rc = get_u64(r, &u64)) != 0)
			return rc;
		i64 = (int64_t)u64;
		memcpy(at, &i64, sizeof(i64));
		return 0;
	case EV_F_STR:
		return get_str(r, at);
	case EV_F_STRUCT:
		return get_fields(r, f->elem, at, depth + 1);
	case EV_F_ARRAY:
		return get_array(r, f, at, depth);
	}
	return WC_EPROTO;
}

static int
get_fields(struct rd *r, const struct ev_layout *l, void *p, int depth)
{
	size_t	 i;
	int	 rc;

	if (depth > EV_WIRE_MAX_DEPTH)
		return WC_EDEPTH;
	for (i = 0; i < l->nfields; i++)
		if ((rc = get_field(r, &l->fields[i], (char *)p +
		    l->fields[i].off, depth)) != 0)
			return rc;
	return 0;
}

int
ev_wire_frame_len(const uint8_t *p, size_t len, size_t *frame_len)
{
	uint32_t	 n;

	if (len < 4)
		return WC_ETRUNC;
	n = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
	if (n > EV_WIRE_MAX - 4)
		return WC_ETOOBIG;
	if (n < EV_WIRE_HEADER - 4)
		return WC_EPROTO;
	*frame_len = (size_t)n + 4;
	return 0;
}

/*
 * The frame at p[0..len) of class, its kind checked by info(): the
 * payload decoded into payload (zeroed, the size of the union) with its
 * kind in *kind.  On error what was decoded is freed.
 */
static int
decode(const uint8_t *p, size_t len, uint8_t class,
    const struct ev_kind_info *(*info)(unsigned), unsigned *kind,
    void *payload, size_t *used)
{
	const struct ev_kind_info *k;
	struct rd		 r;
	size_t			 flen;
	int			 rc;

	if ((rc = ev_wire_frame_len(p, len, &flen)) != 0)
		return rc;
	if (len < flen)
		return WC_ETRUNC;
	if (p[4] != EV_WIRE_VERSION || p[5] != class)
		return WC_EPROTO;
	*kind = (unsigned)p[6] << 8 | p[7];
	if ((k = info(*kind)) == NULL)
		return WC_EPROTO;
	r.p = p;
	r.len = flen;
	r.off = EV_WIRE_HEADER;
	if ((rc = get_fields(&r, k->layout, payload, 0)) == 0 &&
	    r.off != r.len)
		rc = WC_ETRAILING;
	if (rc != 0) {
		ev_layout_release(k->layout, payload);
		return rc;
	}
	*used = flen;
	return 0;
}

static const struct ev_kind_info *
ev_info(unsigned kind)
{
	return kind <= EV_KIND_MAX ? ev_kind_info((enum ev_kind)kind) : NULL;
}

static const struct ev_kind_info *
cmd_info(unsigned kind)
{
	return kind <= CMD_KIND_MAX ? cmd_kind_info((enum cmd_kind)kind) :
	    NULL;
}

int
ev_wire_decode(const uint8_t *p, size_t len, struct ev **out, size_t *used)
{
	struct ev	*ev = xcalloc(1, sizeof(*ev));
	unsigned	 kind = 0;
	int		 rc;

	if ((rc = decode(p, len, EV_WIRE_EVENT, ev_info, &kind, &ev->u,
	    used)) != 0) {
		free(ev);
		return rc;
	}
	ev->kind = (enum ev_kind)kind;
	*out = ev;
	return 0;
}

int
cmd_wire_decode(const uint8_t *p, size_t len, struct cmd **out,
    size_t *used)
{
	struct cmd	*c = xcalloc(1, sizeof(*c));
	unsigned	 kind = 0;
	int		 rc;

	if ((rc = decode(p, len, EV_WIRE_COMMAND, cmd_info, &kind, &c->u,
	    used)) != 0) {
		free(c);
		return rc;
	}
	c->kind = (enum cmd_kind)kind;
	*out = c;
	return 0;
}
