/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fuzz/ev-wire-seeds.c -- the seed corpus of fuzz-ev-wire
 * (tests/fuzz/corpus/ev-wire) made by the encoder of base/event-wire.h:
 * one frame per event and command kind with every field set (JIDs, texts,
 * times, arrays of two), the typed notices of EV_MESSAGE and EV_PAGE
 * (security code changed, not sent to a device), a stream of mixed
 * frames, the same stream cut inside a frame, and frames over the count,
 * string and frame caps.  So the seeds carry the current EV_WIRE_VERSION
 * and pass the version check; the v1-* files beside them are kept by hand
 * as regression inputs of the old version.
 *
 *	ev-wire-seeds write DIR		write the seeds into DIR
 *	ev-wire-seeds check DIR		exit 0 when DIR holds each seed with
 *					these very bytes; else 1, naming
 *					each that differs
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/event-layout.h"
#include "base/event-wire.h"
#include "base/event.h"
#include "base/xmalloc.h"

static const char	*dir;
static bool		 checking;
static int		 bad;

/* A string for field name, the seq'th value written. */
static void
field_str(const char *name, unsigned seq, char *s, size_t size)
{
	if (strstr(name, "text") != NULL || strstr(name, "snippet") != NULL)
		snprintf(s, size, "text %u \xf0\x9f\x91\x8d caf\xc3\xa9", seq);
	else if (strstr(name, "name") != NULL || strstr(name, "subject"))
		snprintf(s, size, "Name %u", seq);
	else if (strcmp(name, "id") == 0 || strstr(name, "_id") != NULL)
		snprintf(s, size, "3EB0%012u", seq);
	else if (strstr(name, "group") != NULL)
		snprintf(s, size, "1203630%08u@g.us", seq);
	else
		snprintf(s, size, "155500000%02u@s.whatsapp.net", seq % 100);
}

/* Fill p (zeroed, of layout l): every field set, enums cycling through
 * their values, times of 2023, arrays of two elements. */
static void
fill(const struct ev_layout *l, void *p, unsigned *seq)
{
	char		 s[64];
	size_t		 i;
	char		*at, *v;

	for (i = 0; i < l->nfields; i++) {
		const struct ev_field *f = &l->fields[i];
		unsigned	 k = (*seq)++;
		int		 e;
		int32_t		 i32 = (int32_t)k;
		uint32_t	 u = k;
		int64_t		 i64 = 1700000000000LL + (int64_t)k * 60000;

		at = (char *)p + f->off;
		switch (f->type) {
		case EV_F_BOOL:
			*(bool *)at = k % 2 == 0;
			break;
		case EV_F_ENUM:
			e = (int)(k % (f->max + 1));
			memcpy(at, &e, sizeof(e));
			break;
		case EV_F_I32:
			memcpy(at, &i32, sizeof(i32));
			break;
		case EV_F_U32:
			memcpy(at, &u, sizeof(u));
			break;
		case EV_F_I64:
			memcpy(at, &i64, sizeof(i64));
			break;
		case EV_F_STR:
			free(ev_ptr_get(at));
			field_str(f->name, k, s, sizeof(s));
			ev_ptr_set(at, xstrdup(s));
			break;
		case EV_F_STRUCT:
			fill(f->elem, at, seq);
			break;
		case EV_F_ARRAY:
			v = xcalloc(2, f->elem->size);
			fill(f->elem, v, seq);
			fill(f->elem, v + f->elem->size, seq);
			ev_ptr_set(at, v);
			ev_count_set((char *)p + f->count_off, 2);
			break;
		}
	}
}

/* Write (or compare) the seed name with b's bytes. */
static void
seed(const char *name, const struct buf *b)
{
	char		 path[4096], got[1 << 16];
	FILE		*f;
	size_t		 n = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!checking) {
		if ((f = fopen(path, "wb")) == NULL ||
		    fwrite(b->p, 1, b->len, f) != b->len || fclose(f) != 0) {
			fprintf(stderr, "%s: %s\n", path, strerror(errno));
			bad = 1;
		}
		return;
	}
	if ((f = fopen(path, "rb")) != NULL) {
		n = fread(got, 1, sizeof(got), f);
		fclose(f);
	}
	if (f == NULL || n != b->len || memcmp(got, b->p, n) != 0) {
		fprintf(stderr, "%s: %s than the encoder writes now "
		    "(ev-wire-seeds write %s)\n", path, f == NULL ?
		    "missing, other" : "other bytes", dir);
		bad = 1;
	}
}

static struct ev *
full_ev(enum ev_kind kind)
{
	struct ev	*ev = ev_new(kind);
	unsigned	 seq = 0;

	fill(ev_kind_info(kind)->layout, &ev->u, &seq);
	return ev;
}

static struct cmd *
full_cmd(enum cmd_kind kind)
{
	struct cmd	*c = cmd_new(kind);
	unsigned	 seq = 0;

	fill(cmd_kind_info(kind)->layout, &c->u, &seq);
	return c;
}

/* "EV_MSG_STATE" as "ev-msg-state". */
static void
file_name(const char *kind, char *out, size_t size)
{
	size_t	 i;

	for (i = 0; kind[i] != '\0' && i + 1 < size; i++)
		out[i] = kind[i] == '_' ? '-' : (char)(kind[i] | 0x20);
	out[i] = '\0';
}

static void
encode_ev(struct ev *ev, struct buf *b)
{
	if (ev_wire_encode(ev, b) != 0) {
		fprintf(stderr, "cannot encode %s\n", ev_kind_name(ev->kind));
		exit(1);
	}
	ev_free(ev);
}

/* The typed notices: an EV_MESSAGE of each kind and a page of them. */
static void
notices(struct buf *stream)
{
	static const char *const names[] = { "ev-message-notice-text",
	    "ev-message-notice-identity", "ev-message-notice-not-sent" };
	struct buf	 b = BUF_INIT;
	struct ev	*ev;
	struct ev_msg	*m;
	unsigned	 k;

	for (k = 0; k <= EV_NOTICE_NOT_SENT; k++) {
		ev = full_ev(EV_MESSAGE);
		ev->u.message.notice = true;
		ev->u.message.notice_kind = (enum ev_notice)k;
		ev->u.message.notice_device = k == EV_NOTICE_NOT_SENT ? 3 : 0;
		b.len = 0;
		encode_ev(ev, &b);
		seed(names[k], &b);
		buf_append(stream, b.p, b.len);
	}
	ev = full_ev(EV_PAGE);
	m = ev->u.page.msgs;
	m[0].kind = m[1].kind = EV_ROW_NOTICE;
	m[0].notice_kind = EV_NOTICE_IDENTITY;
	m[0].notice_device = 0;
	m[1].notice_kind = EV_NOTICE_NOT_SENT;
	m[1].notice_device = 7;
	b.len = 0;
	encode_ev(ev, &b);
	seed("ev-page-notices", &b);
	buf_release(&b);
}

/* A header of class and kind claiming length, then payload. */
static void
raw(const char *name, uint32_t length, uint8_t class, uint16_t kind,
    const uint8_t *payload, size_t plen)
{
	struct buf	 b = BUF_INIT;
	uint8_t		 h[EV_WIRE_HEADER] = { (uint8_t)(length >> 24),
	    (uint8_t)(length >> 16), (uint8_t)(length >> 8), (uint8_t)length,
	    EV_WIRE_VERSION, class, (uint8_t)(kind >> 8), (uint8_t)kind };

	buf_append(&b, h, sizeof(h));
	buf_append(&b, payload, plen);
	seed(name, &b);
	buf_release(&b);
}

/* The frames over the caps (and a count far over what follows). */
static void
caps(void)
{
	static const uint8_t count[] = { 0xff, 0xff, 0xff, 0xff, 0 };
	static const uint8_t str[] = { 0x7f, 0xff, 0xff, 0xff };

	raw("count-too-big", 4 + sizeof(count), EV_WIRE_EVENT, EV_CHATS,
	    count, sizeof(count));
	raw("string-too-long", 4 + sizeof(str), EV_WIRE_EVENT, EV_QR, str,
	    sizeof(str));
	raw("frame-too-big", EV_WIRE_MAX, EV_WIRE_EVENT, EV_CONNECTING, NULL,
	    0);
}

/* Every kind, the notices, a mixed stream and the stream cut. */
static void
all(void)
{
	struct buf	 b = BUF_INIT, stream = BUF_INIT;
	struct cmd	*c;
	char		 name[64];
	unsigned	 k;

	for (k = 0; k <= EV_KIND_MAX; k++) {
		b.len = 0;
		encode_ev(full_ev((enum ev_kind)k), &b);
		file_name(ev_kind_info((enum ev_kind)k)->name, name,
		    sizeof(name));
		seed(name, &b);
		if (k % 4 == 0)
			buf_append(&stream, b.p, b.len);
	}
	for (k = 0; k <= CMD_KIND_MAX; k++) {
		b.len = 0;
		c = full_cmd((enum cmd_kind)k);
		if (cmd_wire_encode(c, &b) != 0) {
			fprintf(stderr, "cannot encode command %u\n", k);
			exit(1);
		}
		cmd_free(c);
		file_name(cmd_kind_info((enum cmd_kind)k)->name, name,
		    sizeof(name));
		seed(name, &b);
		if (k % 4 == 1)
			buf_append(&stream, b.p, b.len);
	}
	notices(&stream);
	seed("stream-mixed", &stream);
	stream.len = 60;
	seed("stream-cut", &stream);
	caps();
	buf_release(&b);
	buf_release(&stream);
}

int
main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "write") != 0 &&
	    strcmp(argv[1], "check") != 0)) {
		fprintf(stderr, "usage: ev-wire-seeds write|check DIR\n");
		return 2;
	}
	checking = strcmp(argv[1], "check") == 0;
	dir = argv[2];
	all();
	return bad;
}
