/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/sim/pbw.c -- hand-written protobuf fields (pbw.h). */
#include "base/compat.h"

#include "pbw.h"

static void
varint(struct buf *out, uint64_t v)
{
	for (; v >= 0x80; v >>= 7)
		buf_push(out, (uint8_t)(v | 0x80));
	buf_push(out, (uint8_t)v);
}

void
sim_pb_ld(struct buf *out, uint32_t field, const void *p, size_t len)
{
	varint(out, (uint64_t)field << 3 | 2);
	varint(out, len);
	buf_append(out, p, len);
}

void
sim_pb_uint(struct buf *out, uint32_t field, uint64_t v)
{
	varint(out, (uint64_t)field << 3);
	varint(out, v);
}

/* A varint at *i of p[0..len); false when it runs past the end. */
static bool
get_varint(const uint8_t *p, size_t len, size_t *i, uint64_t *v)
{
	unsigned	 sh;

	*v = 0;
	for (sh = 0; *i < len && sh < 64; sh += 7) {
		*v |= (uint64_t)(p[*i] & 0x7f) << sh;
		if ((p[(*i)++] & 0x80) == 0)
			return true;
	}
	return false;
}

int
sim_pb_next(const uint8_t *p, size_t len, size_t *off,
    struct sim_pb_field *f)
{
	uint64_t	 tag;
	size_t		 i = *off;

	if (i >= len)
		return 0;
	f->start = i;
	f->p = NULL;
	f->len = 0;
	f->v = 0;
	if (!get_varint(p, len, &i, &tag) || (tag >> 3) == 0 ||
	    (tag >> 3) > UINT32_MAX)
		return -1;
	f->num = (uint32_t)(tag >> 3);
	f->wire = (unsigned)(tag & 7);
	switch (f->wire) {
	case 0:
		if (!get_varint(p, len, &i, &f->v))
			return -1;
		break;
	case 1:
	case 5:
		if (len - i < (f->wire == 1 ? 8u : 4u))
			return -1;
		i += f->wire == 1 ? 8 : 4;
		break;
	case 2:
		if (!get_varint(p, len, &i, &f->v) || f->v > len - i)
			return -1;
		f->p = p + i;
		f->len = (size_t)f->v;
		i += f->len;
		break;
	default:
		return -1;
	}
	f->end = *off = i;
	return 1;
}

bool
sim_pb_find(const uint8_t *p, size_t len, uint32_t want,
    const uint8_t **out, size_t *out_len)
{
	struct sim_pb_field	 f;
	size_t			 off = 0;
	int			 r;

	while ((r = sim_pb_next(p, len, &off, &f)) == 1)
		if (f.num == want && f.wire == 2) {
			*out = f.p;
			*out_len = f.len;
			return true;
		}
	return false;
}
