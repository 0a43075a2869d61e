/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/pbw.h -- the few protobuf bytes the simulator writes or reads
 * by hand, where no generated schema covers them (faults, the app-state
 * blobs and key messages of appstate.c, a Message wrapped in a
 * deviceSentMessage): appending a length-delimited or varint field, and
 * walking the top-level fields of a message.  Loop thread only (no
 * state).
 */
#ifndef SIM_PBW_H
#define SIM_PBW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* Append field (wire type 2) with the bytes p[0..len) to out. */
void	sim_pb_ld(struct buf *out, uint32_t field, const void *p, size_t len);
/* Append field (wire type 0) with the varint v to out. */
void	sim_pb_uint(struct buf *out, uint32_t field, uint64_t v);

/* One top-level field, as sim_pb_next() finds it. */
struct sim_pb_field {
	uint32_t	 num;
	unsigned	 wire;		/* 0, 1, 2 or 5 */
	uint64_t	 v;		/* the varint (wire 0) */
	const uint8_t	*p;		/* the bytes (wire 2) */
	size_t		 len;
	size_t		 start, end;	/* the whole field in the message */
};
/*
 * The field at *off of p[0..len) into *f, *off moved past it.  Returns 1,
 * 0 at the end, -1 for malformed data (a bad wire type, a varint or a
 * length past the end).
 */
int	sim_pb_next(const uint8_t *p, size_t len, size_t *off,
	    struct sim_pb_field *f);
/* The bytes of the first length-delimited field want of p[0..len) into
 * *out, *out_len; false when there is none or p is malformed. */
bool	sim_pb_find(const uint8_t *p, size_t len, uint32_t want,
	    const uint8_t **out, size_t *out_len);

#endif
