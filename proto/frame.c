/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/frame.c -- the WhatsApp frame layer.  See frame.h. */
#include "base/compat.h"

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "base/buf.h"
#include "base/err.h"
#include "proto/frame.h"

/* A pending buffer grown past this by one large frame is given back once
 * that frame is delivered, so one burst does not pin 16 MiB for good. */
#define PEND_KEEP	(256u << 10)

void
wa_frame_reader_init(struct wa_frame_reader *r, size_t max_len,
    bool from_client)
{
	memset(r, 0, sizeof(*r));
	r->conn_header = from_client;
	r->max_len = max_len == 0 || max_len > WA_FRAME_MAX_LEN ?
	    WA_FRAME_MAX_LEN : max_len;
}

void
wa_frame_reader_feed(struct wa_frame_reader *r, const uint8_t *p, size_t len)
{
	assert(r->err != 0 || r->off == r->chunk_len);
	r->chunk = p;
	r->chunk_len = len;
	r->off = 0;
}

static size_t
be24(const uint8_t *p)
{
	return (size_t)p[0] << 16 | (size_t)p[1] << 8 | p[2];
}

/* Move up to want bytes of the chunk into pend; return how many. */
static size_t
take(struct wa_frame_reader *r, size_t want)
{
	size_t	 n = r->chunk_len - r->off;

	if (n > want)
		n = want;
	if (n == 0)
		return 0;	/* chunk may be NULL */
	buf_append(&r->pend, r->chunk + r->off, n);
	r->off += n;
	return n;
}

/* Read a length prefix: remember it, or fail for good. */
static int
set_len(struct wa_frame_reader *r, size_t len)
{
	if (len > r->max_len)
		return r->err = WC_ETOOBIG;
	r->need = len;
	r->have_len = true;
	return 0;
}

int
wa_frame_reader_next(struct wa_frame_reader *r, const uint8_t **frame,
    size_t *len)
{
	const uint8_t	*p;
	size_t		 avail, n;
	int		 rc;

	if (r->err != 0)
		return r->err;
	/* A client's stream opens with the connection header, however cut. */
	while (r->conn_header && r->conn_off < WA_FRAME_CONN_HEADER_LEN) {
		if (r->off == r->chunk_len)
			return 0;
		if (r->chunk[r->off] !=
		    (uint8_t)WA_FRAME_CONN_HEADER[r->conn_off])
			return r->err = WC_EPROTO;
		r->off++;
		r->conn_off++;
	}
	if (r->pend_done) {
		r->pend_done = false;
		r->have_len = false;
		r->need = 0;
		if (r->pend.cap > PEND_KEEP)
			buf_release(&r->pend);
		r->pend.len = 0;
	}
	avail = r->chunk_len - r->off;

	if (r->pend.len == 0) {
		if (avail == 0)
			return 0;
		p = r->chunk + r->off;
		if (avail >= WA_FRAME_HEADER_LEN) {
			n = be24(p);
			if (n > r->max_len)
				return r->err = WC_ETOOBIG;
			if (avail - WA_FRAME_HEADER_LEN >= n) {
				/* Whole in the chunk: no copy. */
				r->off += WA_FRAME_HEADER_LEN + n;
				*frame = p + WA_FRAME_HEADER_LEN;
				*len = n;
				return 1;
			}
		}
		/* Begun here, finished in a later chunk. */
		(void)take(r, avail);
		if (r->pend.len >= WA_FRAME_HEADER_LEN &&
		    (rc = set_len(r, be24(r->pend.p))) != 0)
			return rc;
		return 0;
	}

	if (!r->have_len) {
		(void)take(r, WA_FRAME_HEADER_LEN - r->pend.len);
		if (r->pend.len < WA_FRAME_HEADER_LEN)
			return 0;
		if ((rc = set_len(r, be24(r->pend.p))) != 0)
			return rc;
	}
	(void)take(r, WA_FRAME_HEADER_LEN + r->need - r->pend.len);
	if (r->pend.len < WA_FRAME_HEADER_LEN + r->need)
		return 0;
	r->pend_done = true;
	*frame = r->pend.p + WA_FRAME_HEADER_LEN;
	*len = r->need;
	return 1;
}

size_t
wa_frame_reader_pending(const struct wa_frame_reader *r)
{
	return r->pend_done ? 0 : r->pend.len;
}

void
wa_frame_reader_release(struct wa_frame_reader *r)
{
	buf_release(&r->pend);
	memset(r, 0, sizeof(*r));
}

void
wa_frame_writer_init(struct wa_frame_writer *w, bool client)
{
	w->conn_header = client;
}

int
wa_frame_reserve(struct wa_frame_writer *w, size_t len, struct buf *out,
    uint8_t **payload)
{
	if (len > WA_FRAME_MAX_LEN)
		return WC_ETOOBIG;
	buf_reserve(out, WA_FRAME_CONN_HEADER_LEN + WA_FRAME_HEADER_LEN + len);
	if (w->conn_header) {
		buf_append(out, WA_FRAME_CONN_HEADER, WA_FRAME_CONN_HEADER_LEN);
		w->conn_header = false;
	}
	buf_push(out, (uint8_t)(len >> 16));
	buf_push(out, (uint8_t)(len >> 8));
	buf_push(out, (uint8_t)len);
	*payload = out->p + out->len;
	out->len += len;
	return 0;
}

int
wa_frame_write(struct wa_frame_writer *w, const uint8_t *p, size_t len,
    struct buf *out)
{
	uint8_t	*dst;
	int	 rc;

	if ((rc = wa_frame_reserve(w, len, out, &dst)) != 0)
		return rc;
	if (len > 0)
		memcpy(dst, p, len);
	return 0;
}
