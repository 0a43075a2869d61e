/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/pb.c -- depth- and length-checked protobuf unpacking. */
#include "base/compat.h"

#include "base/arena.h"
#include "base/buf.h"
#include "base/err.h"
#include "proto/pb.h"

static void *
arena_pb_alloc(void *data, size_t size)
{
	return arena_alloc(data, size);
}

static void
arena_pb_free(void *data, void *p)
{
	(void)data;
	(void)p;	/* freed with the arena */
}

void
wa_pb_arena_allocator(struct arena *a, ProtobufCAllocator *out)
{
	out->alloc = arena_pb_alloc;
	out->free = arena_pb_free;
	out->allocator_data = a;
}

int
wa_pb_unpack_in(const ProtobufCMessageDescriptor *d, const uint8_t *p,
    size_t len, struct arena *a, ProtobufCMessage **out)
{
	ProtobufCAllocator	 al;
	ProtobufCMessage	*m;
	int			 rc;

	if ((rc = wa_pb_check(d, p, len, WA_PB_MAX_DEPTH)) != 0)
		return rc;
	wa_pb_arena_allocator(a, &al);
	if ((m = protobuf_c_message_unpack(d, &al, len, p)) == NULL)
		return WC_EPROTO;
	*out = m;
	return 0;
}

void
wa_pb_pack_append(const ProtobufCMessage *m, struct buf *out)
{
	size_t	 n = protobuf_c_message_get_packed_size(m);

	buf_reserve(out, n);
	out->len += protobuf_c_message_pack(m, out->p + out->len);
}

static int
read_varint(const uint8_t *p, size_t len, size_t *pos, uint64_t *v)
{
	uint64_t	 r = 0;
	unsigned	 shift;

	for (shift = 0; shift < 70; shift += 7) {
		uint8_t	 b;

		if (*pos >= len)
			return WC_ETRUNC;
		b = p[(*pos)++];
		r |= (uint64_t)(b & 0x7F) << (shift < 64 ? shift : 63);
		if ((b & 0x80) == 0) {
			*v = r;
			return 0;
		}
	}
	return WC_EPROTO;	/* more than 10 bytes */
}

static int
check(const ProtobufCMessageDescriptor *d, const uint8_t *p, size_t len,
    unsigned depth, unsigned max_depth)
{
	size_t		 pos = 0;
	uint64_t	 key, v;
	int		 rc;

	if (depth > max_depth)
		return WC_EDEPTH;
	while (pos < len) {
		const ProtobufCFieldDescriptor	*f;
		uint32_t			 num;

		if ((rc = read_varint(p, len, &pos, &key)) != 0)
			return rc;
		if ((key >> 3) == 0 || (key >> 3) > 0x1FFFFFFF)
			return WC_EPROTO;
		num = (uint32_t)(key >> 3);
		switch (key & 7) {
		case 0:		/* varint */
			if ((rc = read_varint(p, len, &pos, &v)) != 0)
				return rc;
			break;
		case 1:		/* 64-bit */
			if (len - pos < 8)
				return WC_ETRUNC;
			pos += 8;
			break;
		case 5:		/* 32-bit */
			if (len - pos < 4)
				return WC_ETRUNC;
			pos += 4;
			break;
		case 2:		/* length-delimited */
			if ((rc = read_varint(p, len, &pos, &v)) != 0)
				return rc;
			if (v > len - pos)
				return WC_ETRUNC;
			f = d != NULL ?
			    protobuf_c_message_descriptor_get_field(d, num) :
			    NULL;
			if (f != NULL && f->type == PROTOBUF_C_TYPE_MESSAGE &&
			    (rc = check(f->descriptor, p + pos, (size_t)v,
			    depth + 1, max_depth)) != 0)
				return rc;
			pos += (size_t)v;
			break;
		default:	/* groups (3, 4) are not used by WhatsApp */
			return WC_EPROTO;
		}
	}
	return 0;
}

int
wa_pb_check(const ProtobufCMessageDescriptor *d, const uint8_t *p,
    size_t len, unsigned max_depth)
{
	return check(d, p, len, 1, max_depth);
}

int
wa_pb_unpack(const ProtobufCMessageDescriptor *d, const uint8_t *p,
    size_t len, ProtobufCMessage **out)
{
	ProtobufCMessage	*m;
	int			 rc;

	if ((rc = wa_pb_check(d, p, len, WA_PB_MAX_DEPTH)) != 0)
		return rc;
	if ((m = protobuf_c_message_unpack(d, NULL, len, p)) == NULL)
		return WC_EPROTO;
	*out = m;
	return 0;
}
