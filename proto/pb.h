/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/pb.h -- protobuf messages read from the network, unpacked only
 * after their nesting depth and every length have been checked (Debian's
 * protobuf-c 1.4.1 recurses without a limit: a self-nested message of about
 * 30 KB overflows the stack; reliability.md).  The schemas are the .proto
 * files of proto/, compiled by protoc-c.  Callable from any thread.
 */
#ifndef WA_PB_H
#define WA_PB_H

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#define WA_PB_MAX_DEPTH	64	/* message levels (reliability.md); real < 10 */

/*
 * Check that p[0..len) is well-formed protobuf wire data for descriptor d:
 * every tag, varint and length inside the bytes left, and sub-messages
 * (fields whose type is a message) nested no deeper than max_depth levels,
 * the top level counting 1.  Returns 0.  Errors: WC_ETRUNC (a field runs
 * past its end), WC_EPROTO (a bad wire type, field number 0, or a varint
 * over 10 bytes), WC_EDEPTH (too deep).
 */
MUST_CHECK int	wa_pb_check(const ProtobufCMessageDescriptor *d,
		    const uint8_t *p, size_t len, unsigned max_depth);

/*
 * wa_pb_check() with WA_PB_MAX_DEPTH, then protobuf_c_message_unpack() with
 * the default allocator.  Returns 0 and *out, the caller's to free with
 * protobuf_c_message_free_unpacked().  Errors: those of wa_pb_check(), and
 * WC_EPROTO when protobuf-c refuses the message (a required field missing,
 * a wrong type).  *out untouched on error.
 */
MUST_CHECK int	wa_pb_unpack(const ProtobufCMessageDescriptor *d,
		    const uint8_t *p, size_t len, ProtobufCMessage **out);

struct arena;
struct buf;

/* *out: a protobuf-c allocator over arena a, for unpacking into it (its
 * free does nothing: all goes with the arena). */
void		wa_pb_arena_allocator(struct arena *a, ProtobufCAllocator *out);

/*
 * wa_pb_check() with WA_PB_MAX_DEPTH, then unpack p[0..len) as d into
 * arena a (wa_pb_arena_allocator(): freed with the arena).  Returns 0
 * and *out.  Errors: those of wa_pb_check(), WC_EPROTO when protobuf-c
 * refuses it.  *out untouched on error.
 */
MUST_CHECK int	wa_pb_unpack_in(const ProtobufCMessageDescriptor *d,
		    const uint8_t *p, size_t len, struct arena *a,
		    ProtobufCMessage **out);

/* Append m packed to *out. */
void		wa_pb_pack_append(const ProtobufCMessage *m, struct buf *out);

#endif
