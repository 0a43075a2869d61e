/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/frame.h -- the WhatsApp frame layer inside WebSocket messages
 * (protocol.md 1.2): frame = 3-byte big-endian length ‖ payload, and the
 * 4-byte connection header the client sends once, before its first frame.
 * WebSocket message boundaries mean nothing: a message may hold several
 * frames and a frame (even its length) may be split across messages.
 * Pure code over caller buffers; a reader or writer belongs to one thread
 * at a time.
 */
#ifndef WA_FRAME_H
#define WA_FRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define WA_FRAME_HEADER_LEN	3		/* the length prefix */
#define WA_FRAME_MAX_LEN	((1u << 24) - 1)	/* largest length */
#define WA_FRAME_CONN_HEADER	"WA\x06\x03"	/* magic 6, dictionary 3 */
#define WA_FRAME_CONN_HEADER_LEN 4

/* Splits a byte stream into frames.  Fields are private to frame.c. */
struct wa_frame_reader {
	struct buf	 pend;		/* a frame begun in an earlier chunk */
	size_t		 max_len;	/* largest payload accepted, bytes */
	size_t		 need;		/* the pending frame's length */
	bool		 have_len;	/* pend holds the whole length prefix */
	bool		 pend_done;	/* pend held the frame last returned */
	bool		 conn_header;	/* the stream starts with one */
	size_t		 conn_off;	/* bytes of it checked so far */
	const uint8_t	*chunk;		/* the chunk being read; borrowed */
	size_t		 chunk_len;
	size_t		 off;		/* bytes of chunk consumed */
	int		 err;		/* sticky error, or 0 */
};

/* Writes frames; the client's writer puts the connection header first. */
struct wa_frame_writer {
	bool		 conn_header;	/* still to be written before a frame */
};

/*
 * Set up r for a new connection.  max_len caps a frame's payload in bytes:
 * 0 means WA_FRAME_MAX_LEN, and values above it are lowered to it.
 * from_client true (the server side) makes r check and skip the
 * WA_FRAME_CONN_HEADER a client sends first; the client passes false.
 * Release with wa_frame_reader_release().
 */
void		wa_frame_reader_init(struct wa_frame_reader *r, size_t max_len,
		    bool from_client);

/*
 * Give r the next chunk of the stream (one WebSocket message's bytes).  r
 * borrows p[0..len) until wa_frame_reader_next() has returned 0 or an
 * error for it; feed a chunk only then (or after init).  len may be 0.
 */
void		wa_frame_reader_feed(struct wa_frame_reader *r,
		    const uint8_t *p, size_t len);

/*
 * Take the next complete frame.  Returns 1 and sets *frame and *len (the
 * payload, without its length prefix) when one is complete; returns 0 when
 * the chunk is used up and the reader needs the next one.  *frame points
 * into the chunk when the frame lies whole in it (no copy), otherwise into
 * r's own buffer; either way it is valid until the next call on r.
 * Errors: WC_ETOOBIG (a length prefix above max_len), WC_EPROTO (a stream
 * from a client that does not start with WA_FRAME_CONN_HEADER; the
 * edge-routing pre-intro of protocol.md 1.2 is not supported).  An error is
 * sticky:
 * the stream cannot be resynchronised, so every later call returns it and
 * the connection should be closed.  *frame and *len untouched unless 1 is
 * returned.
 */
MUST_CHECK int	wa_frame_reader_next(struct wa_frame_reader *r,
		    const uint8_t **frame, size_t *len);

/* Bytes held for a frame not yet complete (part of its length prefix, or
 * the prefix and part of the payload); connection header bytes are not
 * held, so do not count. */
size_t		wa_frame_reader_pending(const struct wa_frame_reader *r);

/* Free r's buffer; r may be set up again. */
void		wa_frame_reader_release(struct wa_frame_reader *r);

/*
 * Set up w.  client true: the first frame written is preceded by
 * WA_FRAME_CONN_HEADER (protocol.md 1.2); the server side passes false.
 */
void		wa_frame_writer_init(struct wa_frame_writer *w, bool client);

/*
 * Append to out the connection header (first frame of a client only), the
 * 3-byte length, then p[0..len).  Returns 0.  Errors: WC_ETOOBIG (len above
 * WA_FRAME_MAX_LEN); out untouched on error.
 */
MUST_CHECK int	wa_frame_write(struct wa_frame_writer *w, const uint8_t *p,
		    size_t len, struct buf *out);

/*
 * As wa_frame_write(), but leave the len payload bytes for the caller to
 * fill (an encryption straight into the frame, with no copy): out->len
 * grows past them and *payload points at them, valid until out is next
 * changed.  Returns 0.  Errors: WC_ETOOBIG; out and *payload untouched on
 * error.
 */
MUST_CHECK int	wa_frame_reserve(struct wa_frame_writer *w, size_t len,
		    struct buf *out, uint8_t **payload);

#endif
