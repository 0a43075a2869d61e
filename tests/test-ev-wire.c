/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-ev-wire.c -- the payload layouts of base/event-layout.h
 * against the structs of base/event.h (read from the header itself, so a
 * member missing from a table is found), and the wire form of
 * base/event-wire.h: every event and command kind round-trips, and the
 * decoder refuses truncated, oversized and malformed frames with an
 * error code.
 */
#include "base/compat.h"

#include <ctype.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/event-layout.h"
#include "base/event-wire.h"
#include "base/event.h"
#include "base/xmalloc.h"

/* ---- the layouts against the header ---- */

/* Every layout reachable from the kinds, once each. */
struct layouts {
	const struct ev_layout	*v[64];
	size_t			 n;
};

static void
collect(struct layouts *ls, const struct ev_layout *l)
{
	size_t	 i;

	for (i = 0; i < ls->n; i++)
		if (ls->v[i] == l)
			return;
	assert_true(ls->n < 64);
	ls->v[ls->n++] = l;
	for (i = 0; i < l->nfields; i++)
		if (l->fields[i].elem != NULL)
			collect(ls, l->fields[i].elem);
}

static void
all_layouts(struct layouts *ls)
{
	unsigned	 k;

	memset(ls, 0, sizeof(*ls));
	for (k = 0; k <= EV_KIND_MAX; k++)
		collect(ls, ev_kind_info((enum ev_kind)k)->layout);
	for (k = 0; k <= CMD_KIND_MAX; k++)
		collect(ls, cmd_kind_info((enum cmd_kind)k)->layout);
}

/* base/event.h without its comments. */
static char *
header_text(void)
{
	const char	*top = getenv("top_srcdir");
	char		 path[4096], *s, *o, *p;
	FILE		*f;
	long		 len;

	snprintf(path, sizeof(path), "%s/base/event.h", top != NULL ? top :
	    ".");
	f = fopen(path, "rb");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	assert_true(len > 0);
	rewind(f);
	s = xmalloc((size_t)len + 1);
	assert_int_equal(fread(s, 1, (size_t)len, f), (size_t)len);
	s[len] = '\0';
	fclose(f);
	for (o = p = s; *p != '\0'; )
		if (p[0] == '/' && p[1] == '*') {
			p = strstr(p + 2, "*/");
			assert_non_null(p);
			p += 2;
		} else
			*o++ = *p++;
	*o = '\0';
	return s;
}

/* The members of "struct name { ... };" in text, by name, in order,
 * joined by spaces; NULL when text does not define it. */
static char *
members_of(const char *text, const char *name)
{
	struct buf	 b = BUF_INIT;
	char		 open[128];
	const char	*p, *end, *semi, *q, *e;

	snprintf(open, sizeof(open), "struct %s {", name);
	if ((p = strstr(text, open)) == NULL)
		return NULL;
	p += strlen(open);
	end = strstr(p, "};");
	assert_non_null(end);
	for (; (semi = memchr(p, ';', (size_t)(end - p))) != NULL;
	    p = semi + 1) {
		/* the declaration's last identifier is the member's name */
		for (e = semi; e > p && !isalnum((unsigned char)e[-1]) &&
		    e[-1] != '_'; e--)
			;
		for (q = e; q > p && (isalnum((unsigned char)q[-1]) ||
		    q[-1] == '_'); q--)
			;
		if (b.len > 0)
			buf_push(&b, ' ');
		buf_append(&b, q, (size_t)(e - q));
	}
	buf_push(&b, '\0');
	return (char *)b.p;
}

static void
test_ev_layout__names_every_member_in_order__of_every_payload(void **state)
{
	struct layouts	 ls;
	struct buf	 b;
	char		*text = header_text(), *want;
	size_t		 i, k;

	(void)state;
	all_layouts(&ls);
	for (i = 0; i < ls.n; i++) {
		const struct ev_layout *l = ls.v[i];

		if (strcmp(l->name, "none") == 0 ||
		    strcmp(l->name, "char *") == 0)
			continue;
		want = members_of(text, l->name);
		if (want == NULL)
			fail_msg("struct %s is not in base/event.h", l->name);
		memset(&b, 0, sizeof(b));
		for (k = 0; k < l->nfields; k++) {
			if (b.len > 0)
				buf_push(&b, ' ');
			buf_append(&b, l->fields[k].name,
			    strlen(l->fields[k].name));
			/* an array's count follows it, named "n" and its
			 * name */
			if (l->fields[k].type == EV_F_ARRAY) {
				buf_append(&b, " n", 2);
				buf_append(&b, l->fields[k].name,
				    strlen(l->fields[k].name));
			}
		}
		buf_push(&b, '\0');
		if (strcmp((char *)b.p, want) != 0)
			fail_msg("struct %s: the header has \"%s\", the layout "
			    "\"%s\"", l->name, want, (char *)b.p);
		free(want);
		buf_release(&b);
	}
	free(text);
}

/* ---- filling and comparing payloads by their layouts ---- */

/* Fill p (zeroed, of layout l) with values no two fields share: strings
 * "f<N>", numbers N, bools true, enums their largest value, arrays of
 * two elements. */
static void
fill(const struct ev_layout *l, void *p, unsigned *seq)
{
	char		 s[32];
	size_t		 i;
	int		 e;
	char		*at, *v;

	for (i = 0; i < l->nfields; i++) {
		const struct ev_field *f = &l->fields[i];
		uint32_t	 u = 1000 + (*seq)++;
		int32_t		 i32 = -(int32_t)u;
		int64_t		 i64 = (int64_t)u << 33 | 7;

		at = (char *)p + f->off;
		switch (f->type) {
		case EV_F_BOOL:
			*(bool *)at = true;
			break;
		case EV_F_ENUM:
			e = (int)f->max;
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
			snprintf(s, sizeof(s), "f%u \xc3\xa9", u);
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

static void
same(const struct ev_layout *l, const void *a, const void *b)
{
	size_t		 i;
	uint32_t	 n, k;

	for (i = 0; i < l->nfields; i++) {
		const struct ev_field *f = &l->fields[i];
		const char	*x = (const char *)a + f->off;
		const char	*y = (const char *)b + f->off;

		switch (f->type) {
		case EV_F_BOOL:
			assert_int_equal(*(const bool *)x, *(const bool *)y);
			break;
		case EV_F_ENUM:
		case EV_F_I32:
		case EV_F_U32:
			assert_memory_equal(x, y, 4);
			break;
		case EV_F_I64:
			assert_memory_equal(x, y, 8);
			break;
		case EV_F_STR:
			assert_non_null(ev_ptr_get(y));
			assert_string_equal(ev_ptr_get(x), ev_ptr_get(y));
			break;
		case EV_F_STRUCT:
			same(f->elem, x, y);
			break;
		case EV_F_ARRAY:
			n = ev_count_get((const char *)a + f->count_off);
			assert_int_equal(n, ev_count_get((const char *)b +
			    f->count_off));
			for (k = 0; k < n; k++)
				same(f->elem, (char *)ev_ptr_get(x) +
				    (size_t)k * f->elem->size,
				    (char *)ev_ptr_get(y) +
				    (size_t)k * f->elem->size);
			break;
		}
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

/* ---- round trips ---- */

static void
test_ev_wire_decode__gives_back_what_was_encoded__for_every_event_kind(
    void **state)
{
	struct buf	 b = BUF_INIT, again = BUF_INIT;
	struct ev	*ev, *got;
	size_t		 used;
	unsigned	 k;

	(void)state;
	for (k = 0; k <= EV_KIND_MAX; k++) {
		ev = full_ev((enum ev_kind)k);
		b.len = again.len = 0;
		assert_int_equal(ev_wire_encode(ev, &b), 0);
		assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
		assert_int_equal(used, b.len);
		assert_int_equal(got->kind, k);
		same(ev_kind_info(ev->kind)->layout, &ev->u, &got->u);
		/* and the same bytes again */
		assert_int_equal(ev_wire_encode(got, &again), 0);
		assert_int_equal(again.len, b.len);
		assert_memory_equal(again.p, b.p, b.len);
		ev_free(got);
		ev_free(ev);
		/* an empty one too */
		ev = ev_new((enum ev_kind)k);
		b.len = 0;
		assert_int_equal(ev_wire_encode(ev, &b), 0);
		assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
		same(ev_kind_info(ev->kind)->layout, &ev->u, &got->u);
		ev_free(got);
		ev_free(ev);
	}
	buf_release(&b);
	buf_release(&again);
}

/* EV_LINKED (version 4): our account as the store holds it, before any
 * connection; a version-3 peer's frame of it is refused. */
static void
test_ev_wire_decode__gives_back_the_account__of_ev_linked(void **state)
{
	struct buf	 b = BUF_INIT;
	struct ev	*ev = ev_new(EV_LINKED), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 5);
	assert_string_equal(ev_kind_name(EV_LINKED), "EV_LINKED");
	ev_set(&ev->u.linked.jid, "15550000001:4@s.whatsapp.net");
	ev_set(&ev->u.linked.number, "15550000001");
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->kind, EV_LINKED);
	assert_string_equal(got->u.linked.jid, "15550000001:4@s.whatsapp.net");
	assert_string_equal(got->u.linked.number, "15550000001");
	ev_free(got);
	b.p[4] = 3;
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	ev_free(ev);
	buf_release(&b);
}

/* CMD_DRAFT and EV_CHATS' draft (version 8): a draft with a newline and
 * a control character comes back byte for byte; a version-7 peer's frame
 * of it is refused. */
static void
test_cmd_wire_decode__gives_back_the_draft__of_cmd_draft_and_ev_chats(
    void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_DRAFT, "15550000002@s.whatsapp.net"),
			*cgot;
	struct ev	*ev = ev_new(EV_CHATS), *got;
	size_t		 used;

	(void)state;
	assert_int_equal(EV_WIRE_VERSION >= 8, 1);
	assert_string_equal(cmd_kind_name(CMD_DRAFT), "CMD_DRAFT");
	assert_string_equal(c->u.draft.chat, "15550000002@s.whatsapp.net");
	assert_string_equal(c->u.draft.text, "");
	ev_set(&c->u.draft.text, "half a line\nand \033[2Ja second");
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(used, b.len);
	assert_int_equal(cgot->kind, CMD_DRAFT);
	assert_string_equal(cgot->u.draft.chat, "15550000002@s.whatsapp.net");
	assert_string_equal(cgot->u.draft.text,
	    "half a line\nand \033[2Ja second");
	cmd_free(cgot);
	b.p[4] = 7;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);

	b.len = 0;
	ev->u.chats.chats = xcalloc(2, sizeof(*ev->u.chats.chats));
	ev->u.chats.nchats = 2;
	ev_set(&ev->u.chats.chats[0].jid, "15550000002@s.whatsapp.net");
	ev_set(&ev->u.chats.chats[0].draft, "to be sent");
	ev_set(&ev->u.chats.chats[1].jid, "15550000003@s.whatsapp.net");
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.chats.nchats, 2);
	assert_string_equal(got->u.chats.chats[0].draft, "to be sent");
	/* a string never NULL once decoded: "" is no draft */
	assert_non_null(got->u.chats.chats[1].draft);
	assert_string_equal(got->u.chats.chats[1].draft, "");
	ev_free(got);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}


/* CMD_PEEK and EV_CHATS' peek (version 9). */
static void
test_cmd_wire_decode__gives_back_peek__of_cmd_peek_and_ev_chats(
    void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_PEEK, "15550000002@s.whatsapp.net"),
			*cgot;
	struct ev	*ev = ev_new(EV_CHATS), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 9);
	assert_string_equal(cmd_kind_name(CMD_PEEK), "CMD_PEEK");
	c->u.peek.on = true;
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(cgot->kind, CMD_PEEK);
	assert_string_equal(cgot->u.peek.chat, "15550000002@s.whatsapp.net");
	assert_true(cgot->u.peek.on);
	cmd_free(cgot);
	b.p[4] = 8;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	b.len = 0;
	ev->u.chats.chats = xcalloc(1, sizeof(*ev->u.chats.chats));
	ev->u.chats.nchats = 1;
	ev_set(&ev->u.chats.chats[0].jid, "15550000002@s.whatsapp.net");
	ev->u.chats.chats[0].peek = 2;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.chats.chats[0].peek, 2);
	ev_free(got);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}

/* Version 13: a row's media in EV_PAGE and EV_MESSAGE, last_media in
 * EV_CHATS; a version-12 frame is refused. */
static void
test_ev_wire_decode__gives_back_media__of_ev_page_and_ev_message(
    void **state)
{
	struct buf	 b = BUF_INIT;
	struct ev	*ev = ev_new(EV_PAGE), *got;
	struct ev_media	*md;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 13);
	ev->u.page.msgs = xcalloc(1, sizeof(*ev->u.page.msgs));
	ev->u.page.nmsgs = 1;
	md = &ev->u.page.msgs[0].media;
	md->type = EV_MEDIA_DOCUMENT;
	md->size = 2500000;
	md->pages = 12;
	ev_set(&md->file_name, "report.pdf");
	ev_set(&md->caption, "for Monday");
	md->dl_state = EV_DL_DONE;
	ev_set(&md->path, "/tmp/report.pdf");
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	md = &got->u.page.msgs[0].media;
	assert_int_equal(md->type, EV_MEDIA_DOCUMENT);
	assert_int_equal(md->size, 2500000);
	assert_int_equal(md->pages, 12);
	assert_string_equal(md->file_name, "report.pdf");
	assert_string_equal(md->caption, "for Monday");
	assert_int_equal(md->dl_state, EV_DL_DONE);
	assert_string_equal(md->path, "/tmp/report.pdf");
	ev_free(got);
	b.p[4] = 12;
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	ev_free(ev);
	b.len = 0;
	ev = ev_new(EV_MESSAGE);
	ev->u.message.media.type = EV_MEDIA_PTT;
	ev->u.message.media.seconds = 12;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.message.media.type, EV_MEDIA_PTT);
	assert_int_equal(got->u.message.media.seconds, 12);
	ev_free(got);
	/* a type above the enum is not written */
	b.len = 0;
	ev->u.message.media.type = (enum ev_media_type)(EV_MEDIA_STICKER + 1);
	assert_int_not_equal(ev_wire_encode(ev, &b), 0);
	ev_free(ev);
	buf_release(&b);
}

/* EV_CHATS' marks and people, CMD_LOAD_CHATS' people (version 10). */
static void
test_ev_wire_decode__gives_back_marks_and_people__of_ev_chats(void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new(CMD_LOAD_CHATS), *cgot;
	struct ev	*ev = ev_new(EV_CHATS), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 10);
	c->u.load_chats.people = true;
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_true(cgot->u.load_chats.people);
	cmd_free(cgot);
	b.p[4] = 9;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	b.len = 0;
	ev->u.chats.chats = xcalloc(1, sizeof(*ev->u.chats.chats));
	ev->u.chats.nchats = 1;
	ev_set(&ev->u.chats.chats[0].jid, "15550000002@s.whatsapp.net");
	ev->u.chats.chats[0].muted_until = -1;
	ev->u.chats.chats[0].pinned_ms = 1764800000000LL;
	ev->u.chats.chats[0].archived = true;
	ev->u.chats.with_people = true;
	ev->u.chats.people = xcalloc(1, sizeof(*ev->u.chats.people));
	ev->u.chats.npeople = 1;
	ev_set(&ev->u.chats.people[0].jid, "15550000009@s.whatsapp.net");
	ev_set(&ev->u.chats.people[0].name, "Zoe Zebra");
	ev_set(&ev->u.chats.people[0].push_name, "Zoe");
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.chats.chats[0].muted_until, -1);
	assert_int_equal(got->u.chats.chats[0].pinned_ms, 1764800000000LL);
	assert_true(got->u.chats.chats[0].archived);
	assert_true(got->u.chats.with_people);
	assert_int_equal(got->u.chats.npeople, 1);
	assert_string_equal(got->u.chats.people[0].jid,
	    "15550000009@s.whatsapp.net");
	assert_string_equal(got->u.chats.people[0].name, "Zoe Zebra");
	assert_string_equal(got->u.chats.people[0].push_name, "Zoe");
	ev_free(got);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}

static void
test_cmd_wire_decode__gives_back_what_was_encoded__for_every_command_kind(
    void **state)
{
	struct buf	 b = BUF_INIT, again = BUF_INIT;
	struct cmd	*c, *got;
	size_t		 used;
	unsigned	 k;

	(void)state;
	for (k = 0; k <= CMD_KIND_MAX; k++) {
		c = full_cmd((enum cmd_kind)k);
		b.len = again.len = 0;
		assert_int_equal(cmd_wire_encode(c, &b), 0);
		assert_int_equal(cmd_wire_decode(b.p, b.len, &got, &used), 0);
		assert_int_equal(used, b.len);
		assert_int_equal(got->kind, k);
		same(cmd_kind_info(c->kind)->layout, &c->u, &got->u);
		assert_int_equal(cmd_wire_encode(got, &again), 0);
		assert_int_equal(again.len, b.len);
		assert_memory_equal(again.p, b.p, b.len);
		cmd_free(got);
		cmd_free(c);
	}
	buf_release(&b);
	buf_release(&again);
}

static void
test_ev_wire_encode__writes_the_documented_bytes__for_a_small_event(
    void **state)
{
	static const uint8_t want[] = {
		0, 0, 0, 15,		/* length */
		EV_WIRE_VERSION, EV_WIRE_EVENT, 0, EV_QR,
		0, 0, 0, 3, 'a', 'b', 'c',	/* code */
		0, 0, 0, 20,		/* secs */
	};
	struct buf	 b = BUF_INIT;
	struct ev	*ev = ev_new(EV_QR);

	(void)state;
	ev_set(&ev->u.qr.code, "abc");
	ev->u.qr.secs = 20;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(b.len, sizeof(want));
	assert_memory_equal(b.p, want, sizeof(want));
	ev_free(ev);
	buf_release(&b);
}

static void
test_ev_wire_decode__takes_one_frame_at_a_time__from_a_stream(void **state)
{
	struct buf	 b = BUF_INIT;
	struct ev	*ev = full_ev(EV_PAGE), *got;
	struct cmd	*c;
	size_t		 used, first, flen;

	(void)state;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	first = b.len;
	ev_free(ev);
	ev = full_ev(EV_MESSAGE);
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_frame_len(b.p, b.len, &flen), 0);
	assert_int_equal(flen, first);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(used, first);
	assert_int_equal(got->kind, EV_PAGE);
	ev_free(got);
	assert_int_equal(ev_wire_decode(b.p + first, b.len - first, &got,
	    &used), 0);
	assert_int_equal(got->kind, EV_MESSAGE);
	same(ev_kind_info(EV_MESSAGE)->layout, &ev->u, &got->u);
	ev_free(got);
	ev_free(ev);
	/* an event is not a command */
	assert_int_equal(cmd_wire_decode(b.p, b.len, &c, &used), WC_EPROTO);
	buf_release(&b);
}

/* ---- refusals ---- */

static void
test_ev_wire_decode__fails_with_etrunc__on_every_prefix(void **state)
{
	struct buf	 b = BUF_INIT;
	struct ev	*ev, *got = NULL;
	struct cmd	*c, *cgot = NULL;
	size_t		 used = 77, cut;
	unsigned	 k;

	(void)state;
	for (k = 0; k <= EV_KIND_MAX; k++) {
		ev = full_ev((enum ev_kind)k);
		b.len = 0;
		assert_int_equal(ev_wire_encode(ev, &b), 0);
		for (cut = 0; cut < b.len; cut++)
			assert_int_equal(ev_wire_decode(b.p, cut, &got, &used),
			    WC_ETRUNC);
		/* the length says less than the payload holds: the payload
		 * runs past the frame's end */
		b.p[3]--;
		assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used),
		    WC_ETRUNC);
		ev_free(ev);
	}
	for (k = 0; k <= CMD_KIND_MAX; k++) {
		c = full_cmd((enum cmd_kind)k);
		b.len = 0;
		assert_int_equal(cmd_wire_encode(c, &b), 0);
		for (cut = 0; cut < b.len; cut++)
			assert_int_equal(cmd_wire_decode(b.p, cut, &cgot,
			    &used), WC_ETRUNC);
		cmd_free(c);
	}
	assert_null(got);
	assert_null(cgot);
	assert_int_equal(used, 77);
	buf_release(&b);
}

/* A frame of class and kind around payload[0..len). */
static void
frame(struct buf *b, uint8_t class, unsigned kind, const uint8_t *payload,
    size_t len)
{
	uint32_t	 n = (uint32_t)len + 4;
	uint8_t		 h[8] = { n >> 24, n >> 16, n >> 8, n, EV_WIRE_VERSION,
			    class, kind >> 8, kind };

	b->len = 0;
	buf_append(b, h, sizeof(h));
	buf_append(b, payload, len);
}

static void
test_ev_wire_decode__fails_with_etoobig__on_oversized_lengths(void **state)
{
	/* EV_PAIR_CODE whose string claims 4 MiB + 1 */
	static const uint8_t big_str[] = { 0x00, 0x40, 0x00, 0x01 };
	/* EV_CHATS with EV_WIRE_COUNT_MAX + 1 chats */
	static const uint8_t big_count[] = { 0x00, 0x01, 0x00, 0x01 };
	/* EV_CHATS with 1000 chats in 4 bytes */
	static const uint8_t short_count[] = { 0x00, 0x00, 0x03, 0xe8, 0 };
	uint8_t		 head[4] = { 0x04, 0x00, 0x00, 0x00 }; /* 64 MiB */
	struct buf	 b = BUF_INIT;
	struct ev	*got;
	size_t		 used, flen;

	(void)state;
	assert_int_equal(ev_wire_frame_len(head, 4, &flen), WC_ETOOBIG);
	assert_int_equal(ev_wire_decode(head, 4, &got, &used), WC_ETOOBIG);
	head[0] = 0x03;			/* 48 MiB: allowed, not all here */
	assert_int_equal(ev_wire_frame_len(head, 4, &flen), 0);
	assert_int_equal(flen, (48u << 20) + 4);
	assert_int_equal(ev_wire_decode(head, 4, &got, &used), WC_ETRUNC);
	head[0] = head[1] = head[2] = 0;
	head[3] = 3;			/* shorter than the header */
	assert_int_equal(ev_wire_frame_len(head, 4, &flen), WC_EPROTO);

	frame(&b, EV_WIRE_EVENT, EV_PAIR_CODE, big_str, sizeof(big_str));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used),
	    WC_ETOOBIG);
	frame(&b, EV_WIRE_EVENT, EV_CHATS, big_count, sizeof(big_count));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used),
	    WC_ETOOBIG);
	frame(&b, EV_WIRE_EVENT, EV_CHATS, short_count, sizeof(short_count));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_ETRUNC);
	buf_release(&b);
}

static void
test_ev_wire_decode__fails_with_eproto__on_malformed_frames(void **state)
{
	static const uint8_t code[] = { 0, 0, 0, 2, 'a', 'b' };
	static const uint8_t nul[] = { 0, 0, 0, 2, 'a', 0 };
	/* EV_PRESENCE: chat "", online 2 */
	static const uint8_t bool2[] = { 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0,
	    0 };
	/* EV_HISTORY: step 3 */
	static const uint8_t enum3[] = { 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 0, 0, 0, 0, 0, 0, 0 };
	struct buf	 b = BUF_INIT;
	struct ev	*got;
	size_t		 used;

	(void)state;
	frame(&b, EV_WIRE_EVENT, EV_PAIR_CODE, code, sizeof(code));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_string_equal(got->u.pair_code.code, "ab");
	ev_free(got);
	b.p[4] = EV_WIRE_VERSION + 1;
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	frame(&b, EV_WIRE_COMMAND, EV_PAIR_CODE, code, sizeof(code));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	frame(&b, EV_WIRE_EVENT, EV_KIND_MAX + 1, code, sizeof(code));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	frame(&b, EV_WIRE_EVENT, 0x100 + EV_PAIR_CODE, code, sizeof(code));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	frame(&b, EV_WIRE_EVENT, EV_PAIR_CODE, nul, sizeof(nul));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	frame(&b, EV_WIRE_EVENT, EV_PRESENCE, bool2, sizeof(bool2));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	b.p[EV_WIRE_HEADER + 4] = 1;
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_true(got->u.presence.online);
	ev_free(got);
	frame(&b, EV_WIRE_EVENT, EV_HISTORY, enum3, sizeof(enum3));
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	b.p[EV_WIRE_HEADER + 3] = EV_HISTORY_IDLE;
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.history.step, EV_HISTORY_IDLE);
	ev_free(got);
	/* a byte more than the payload: trailing */
	frame(&b, EV_WIRE_EVENT, EV_PAIR_CODE, code, sizeof(code));
	b.p[3]++;
	buf_push(&b, 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used),
	    WC_ETRAILING);
	buf_release(&b);
}

static void
test_ev_wire_encode__fails_and_leaves_the_buffer__on_what_it_cannot_send(
    void **state)
{
	struct buf	 b = BUF_INIT;
	struct ev	*ev = ev_new(EV_PAIR_CODE);
	struct cmd	*c = cmd_new(CMD_LOAD_PAGE);
	size_t		 len;

	(void)state;
	buf_append(&b, "kept", 4);
	/* a string over EV_WIRE_STR_MAX */
	free(ev->u.pair_code.code);
	ev->u.pair_code.code = xmalloc(EV_WIRE_STR_MAX + 2);
	memset(ev->u.pair_code.code, 'x', EV_WIRE_STR_MAX + 1);
	ev->u.pair_code.code[EV_WIRE_STR_MAX + 1] = '\0';
	assert_int_equal(ev_wire_encode(ev, &b), WC_ETOOBIG);
	assert_int_equal(b.len, 4);
	ev->u.pair_code.code[EV_WIRE_STR_MAX] = '\0';
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	len = b.len;
	ev_free(ev);
	/* an enum value outside its enum */
	c->u.load_page.dir = (enum ev_page_dir)9;
	assert_int_equal(cmd_wire_encode(c, &b), WC_EINVAL);
	assert_int_equal(b.len, len);
	c->u.load_page.dir = EV_PAGE_AROUND;
	/* NULL strings (a payload being built) go as "" */
	free(c->u.load_page.chat);
	c->u.load_page.chat = NULL;
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	cmd_free(c);
	/* an array with a count and no elements */
	ev = ev_new(EV_GROUP);
	ev->u.group.nmembers = 3;
	assert_int_equal(ev_wire_encode(ev, &b), -EINVAL);
	ev->u.group.nmembers = EV_WIRE_COUNT_MAX + 1;
	ev->u.group.members = xcalloc(1, sizeof(*ev->u.group.members));
	assert_int_equal(ev_wire_encode(ev, &b), WC_ETOOBIG);
	ev->u.group.nmembers = 1;
	ev_free(ev);
	buf_release(&b);
}

static void
test_ev_push_str__appends_copies__to_a_string_array(void **state)
{
	struct cmd	*c = cmd_new_chat(CMD_GROUP_ADD, "1203630001@g.us");
	char		 s[] = "4915550001@s.whatsapp.net";

	(void)state;
	ev_push_str(&c->u.group_add.members, &c->u.group_add.nmembers, s);
	ev_push_str(&c->u.group_add.members, &c->u.group_add.nmembers, NULL);
	s[0] = 'X';
	assert_int_equal(c->u.group_add.nmembers, 2);
	assert_string_equal(c->u.group_add.members[0],
	    "4915550001@s.whatsapp.net");
	assert_string_equal(c->u.group_add.members[1], "");
	assert_string_equal(c->u.group_add.chat, "1203630001@g.us");
	ev_set_len(&c->u.group_add.chat, "abcdef", 3);
	assert_string_equal(c->u.group_add.chat, "abc");
	assert_string_equal(cmd_kind_name(CMD_GROUP_ADD), "CMD_GROUP_ADD");
	assert_string_equal(ev_kind_name(EV_HISTORY), "EV_HISTORY");
	assert_string_equal(ev_kind_name(EV_OWN_NAME), "EV_OWN_NAME");
	assert_string_equal(ev_kind_name((enum ev_kind)99), "?");
	cmd_free(c);
}

/* EV_APP_STATE (version 11): what a batch of app-state patches changed;
 * a version-10 peer's frame of it is refused. */
static void
test_ev_wire_decode__gives_back_what_changed__of_ev_app_state(void **state)
{
	struct buf	 b = BUF_INIT;
	struct ev	*ev = ev_new(EV_APP_STATE), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 11);
	assert_string_equal(ev_kind_name(EV_APP_STATE), "EV_APP_STATE");
	ev->u.app_state.actions = 70000;
	ev->u.app_state.names = true;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(used, b.len);
	assert_int_equal(got->kind, EV_APP_STATE);
	assert_int_equal(got->u.app_state.actions, 70000);
	assert_true(got->u.app_state.names);
	assert_false(got->u.app_state.chats);
	ev_free(got);
	b.p[4] = 10;
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	ev_free(ev);
	buf_release(&b);
}

/* CMD_CHAT_ACT, EV_APP_STATE's step, act and err, EV_PAGE's starred and
 * EV_CHATS' marked_unread (version 12); a version-11 peer is refused. */
static void
test_cmd_wire_decode__gives_back_the_change__of_cmd_chat_act(void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_CHAT_ACT,
			    "120363000000001@g.us"), *cgot;
	struct ev	*ev = ev_new(EV_APP_STATE), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 12);
	assert_string_equal(cmd_kind_name(CMD_CHAT_ACT), "CMD_CHAT_ACT");
	c->u.chat_act.act = EV_ACT_STAR;
	c->u.chat_act.mute_until = -1;
	ev_set(&c->u.chat_act.id, "3EB0AA");
	c->u.chat_act.from_me = true;
	ev_set(&c->u.chat_act.sender, "15550000003@s.whatsapp.net");
	c->u.chat_act.last_ms = 1700000000123LL;
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(used, b.len);
	assert_int_equal(cgot->kind, CMD_CHAT_ACT);
	assert_string_equal(cgot->u.chat_act.chat, "120363000000001@g.us");
	assert_int_equal(cgot->u.chat_act.act, EV_ACT_STAR);
	assert_true(cgot->u.chat_act.mute_until == -1);
	assert_string_equal(cgot->u.chat_act.id, "3EB0AA");
	assert_true(cgot->u.chat_act.from_me);
	assert_string_equal(cgot->u.chat_act.sender,
	    "15550000003@s.whatsapp.net");
	assert_true(cgot->u.chat_act.last_ms == 1700000000123LL);
	cmd_free(cgot);
	b.p[4] = 11;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	b.len = 0;
	ev->u.app_state.step = EV_AS_FAILED;
	ev->u.app_state.act = EV_ACT_CLEAR_CHAT;
	ev->u.app_state.err = 409;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.app_state.step, EV_AS_FAILED);
	assert_int_equal(got->u.app_state.act, EV_ACT_CLEAR_CHAT);
	assert_int_equal(got->u.app_state.err, 409);
	ev_free(got);
	/* an act beyond the last is not sent */
	b.len = 0;
	ev->u.app_state.act = (enum ev_chat_act)(EV_ACT_MAX + 1);
	assert_int_not_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(b.len, 0);
	ev_free(ev);
	b.len = 0;
	ev = ev_new(EV_PAGE);
	ev->u.page.msgs = xcalloc(1, sizeof(*ev->u.page.msgs));
	ev->u.page.nmsgs = 1;
	ev->u.page.msgs[0].starred = true;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_true(got->u.page.msgs[0].starred);
	ev_free(got);
	ev_free(ev);
	b.len = 0;
	ev = ev_new(EV_CHATS);
	ev->u.chats.chats = xcalloc(1, sizeof(*ev->u.chats.chats));
	ev->u.chats.nchats = 1;
	ev->u.chats.chats[0].marked_unread = true;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_true(got->u.chats.chats[0].marked_unread);
	ev_free(got);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}

/* CMD_MEDIA_GET, EV_MEDIA_DL and media's dl_percent (version 14); a
 * version-13 peer is refused. */
static void
test_cmd_wire_decode__gives_back_the_download__of_cmd_media_get(
    void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_MEDIA_GET,
			    "15550000003@s.whatsapp.net"), *cgot;
	struct ev	*ev = ev_new(EV_MEDIA_DL), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 14);
	assert_string_equal(cmd_kind_name(CMD_MEDIA_GET), "CMD_MEDIA_GET");
	ev_set(&c->u.media_get.id, "3EB0BB");
	ev_set(&c->u.media_get.out, "/tmp/x.jpg");
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(cgot->kind, CMD_MEDIA_GET);
	assert_string_equal(cgot->u.media_get.chat,
	    "15550000003@s.whatsapp.net");
	assert_string_equal(cgot->u.media_get.id, "3EB0BB");
	assert_string_equal(cgot->u.media_get.out, "/tmp/x.jpg");
	cmd_free(cgot);
	b.p[4] = 13;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	b.len = 0;
	ev_set(&ev->u.media_dl.id, "3EB0BB");
	ev->u.media_dl.state = EV_DL_TOOBIG;
	ev->u.media_dl.got = 5;
	ev->u.media_dl.total = 3000000000LL;
	ev->u.media_dl.percent = 42;
	ev->u.media_dl.err = -17;
	ev->u.media_dl.retried = true;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->kind, EV_MEDIA_DL);
	assert_string_equal(got->u.media_dl.id, "3EB0BB");
	assert_int_equal(got->u.media_dl.state, EV_DL_TOOBIG);
	assert_true(got->u.media_dl.total == 3000000000LL);
	assert_int_equal(got->u.media_dl.percent, 42);
	assert_int_equal(got->u.media_dl.err, -17);
	assert_true(got->u.media_dl.retried);
	ev_free(got);
	b.len = 0;
	ev->u.media_dl.state = (enum ev_dl_state)(EV_DL_MAX + 1);
	assert_int_not_equal(ev_wire_encode(ev, &b), 0);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}

/* CMD_FORWARD and forwarded in EV_MESSAGE and EV_PAGE's rows (version
 * 16); a version-15 peer is refused. */
static void
test_cmd_wire_decode__gives_back_the_targets__of_cmd_forward(void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_FORWARD,
			    "15550000003@s.whatsapp.net"), *cgot;
	struct ev	*ev = ev_new(EV_MESSAGE), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 16);
	assert_string_equal(cmd_kind_name(CMD_FORWARD), "CMD_FORWARD");
	ev_set(&c->u.forward.id, "3EB0CC");
	c->u.forward.from_me = true;
	ev_push_str(&c->u.forward.targets, &c->u.forward.ntargets,
	    "15550000004@s.whatsapp.net");
	ev_push_str(&c->u.forward.targets, &c->u.forward.ntargets,
	    "120363000000000001@g.us");
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(cgot->kind, CMD_FORWARD);
	assert_string_equal(cgot->u.forward.chat,
	    "15550000003@s.whatsapp.net");
	assert_string_equal(cgot->u.forward.id, "3EB0CC");
	assert_true(cgot->u.forward.from_me);
	assert_int_equal(cgot->u.forward.ntargets, 2);
	assert_string_equal(cgot->u.forward.targets[1],
	    "120363000000000001@g.us");
	cmd_free(cgot);
	b.p[4] = 15;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	b.len = 0;
	ev->u.message.forwarded = 6;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.message.forwarded, 6);
	ev_free(got);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}

/* CMD_EPHEMERAL, ephemeral_s in EV_CHATS' chats and gone in
 * EV_MSG_CHANGED (version 17); a version-16 peer is refused. */
static void
test_wire__gives_back_the_timer__of_cmd_ephemeral(void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_EPHEMERAL,
			    "15550000003@s.whatsapp.net"), *cgot;
	struct ev	*ev = ev_new(EV_MSG_CHANGED), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 17);
	assert_string_equal(cmd_kind_name(CMD_EPHEMERAL), "CMD_EPHEMERAL");
	c->u.ephemeral.secs = 604800;
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(cgot->kind, CMD_EPHEMERAL);
	assert_string_equal(cgot->u.ephemeral.chat,
	    "15550000003@s.whatsapp.net");
	assert_int_equal(cgot->u.ephemeral.secs, 604800);
	cmd_free(cgot);
	b.p[4] = 16;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	b.len = 0;
	ev_set(&ev->u.msg_changed.key.chat, "15550000003@s.whatsapp.net");
	ev_set(&ev->u.msg_changed.key.id, "3EB0CC");
	ev->u.msg_changed.deleted = true;
	ev->u.msg_changed.gone = true;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_true(got->u.msg_changed.gone);
	assert_string_equal(got->u.msg_changed.key.id, "3EB0CC");
	ev_free(got);
	ev_free(ev);
	b.len = 0;
	ev = ev_new(EV_CHATS);
	ev->u.chats.nchats = 1;
	ev->u.chats.chats = xcalloc(1, sizeof(*ev->u.chats.chats));
	ev_set(&ev->u.chats.chats[0].jid, "15550000003@s.whatsapp.net");
	ev->u.chats.chats[0].ephemeral_s = 7776000;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.chats.chats[0].ephemeral_s, 7776000);
	ev_free(got);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}

/* CMD_CALL_REJECT and EV_NOTICE_CALL_REJECTED (version 18); a
 * version-17 peer is refused. */
static void
test_cmd_wire_decode__gives_back_the_call__of_cmd_call_reject(void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_CALL_REJECT,
			    "15550000002@s.whatsapp.net"), *cgot;
	struct ev	*ev = ev_new(EV_MESSAGE), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 18);
	assert_string_equal(cmd_kind_name(CMD_CALL_REJECT), "CMD_CALL_REJECT");
	ev_set(&c->u.call_reject.id, "wachat-call-C0FFEE-in");
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(cgot->kind, CMD_CALL_REJECT);
	assert_string_equal(cgot->u.call_reject.chat,
	    "15550000002@s.whatsapp.net");
	assert_string_equal(cgot->u.call_reject.id, "wachat-call-C0FFEE-in");
	cmd_free(cgot);
	b.p[4] = 17;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	b.len = 0;
	ev->u.message.notice = true;
	ev->u.message.notice_kind = EV_NOTICE_CALL_REJECTED;
	ev->u.message.notice_device = EV_CALL_VIDEO;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.message.notice_kind, EV_NOTICE_CALL_REJECTED);
	assert_int_equal(got->u.message.notice_device, EV_CALL_VIDEO);
	ev_free(got);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}

/* EV_PROFILE, EV_BLOCKLIST and CMD_BLOCK (version 19); a version-18
 * peer is refused, a picture state past EV_PIC_MAX is not encoded. */
static void
test_ev_wire_decode__gives_back_the_profile__of_ev_profile(void **state)
{
	struct buf	 b = BUF_INIT;
	struct ev	*ev = ev_new(EV_PROFILE), *got;
	struct cmd	*c = cmd_new_chat(CMD_BLOCK,
			    "15550000003@s.whatsapp.net"), *cgot;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 19);
	ev_set(&ev->u.profile.jid, "15550000003@s.whatsapp.net");
	ev->u.profile.about_known = true;
	ev_set(&ev->u.profile.about, "Hi, I am bob");
	ev->u.profile.about_ms = 1733000000000LL;
	ev->u.profile.pic_state = EV_PIC_SHOWN;
	ev_set(&ev->u.profile.pic_id, "1733000001");
	ev_set(&ev->u.profile.pic, "ffd8ff");
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->kind, EV_PROFILE);
	assert_string_equal(got->u.profile.about, "Hi, I am bob");
	assert_true(got->u.profile.about_known);
	assert_true(got->u.profile.about_ms == 1733000000000LL);
	assert_int_equal(got->u.profile.pic_state, EV_PIC_SHOWN);
	assert_string_equal(got->u.profile.pic_id, "1733000001");
	assert_string_equal(got->u.profile.pic, "ffd8ff");
	ev_free(got);
	b.p[4] = 18;
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	b.len = 0;
	ev->u.profile.pic_state = (enum ev_pic_state)(EV_PIC_MAX + 1);
	assert_int_not_equal(ev_wire_encode(ev, &b), 0);
	ev_free(ev);
	ev = ev_new(EV_BLOCKLIST);
	ev->u.blocklist.jids = xcalloc(2, sizeof(char *));
	ev->u.blocklist.jids[0] = xstrdup("15550000003@s.whatsapp.net");
	ev->u.blocklist.jids[1] = xstrdup("100000000000004@lid");
	ev->u.blocklist.njids = 2;
	b.len = 0;
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->u.blocklist.njids, 2);
	assert_string_equal(got->u.blocklist.jids[1], "100000000000004@lid");
	ev_free(got);
	ev_free(ev);
	c->u.block.block = true;
	b.len = 0;
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(cgot->kind, CMD_BLOCK);
	assert_string_equal(cgot->u.block.chat, "15550000003@s.whatsapp.net");
	assert_true(cgot->u.block.block);
	cmd_free(cgot);
	cmd_free(c);
	buf_release(&b);
}

/* starred in CMD_SEARCH (version 20): is:starred's filter. */
static void
test_cmd_wire_decode__gives_back_starred__of_cmd_search(void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new(CMD_SEARCH), *cgot;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 20);
	c->u.search.starred = true;
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_true(cgot->u.search.starred);
	assert_string_equal(cgot->u.search.query, "");
	cmd_free(cgot);
	b.p[4] = 19;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	cmd_free(c);
	buf_release(&b);
}

/* CMD_POLL_VOTE and CMD_POLL_NEW (version 21); a version-20 peer is
 * refused. */
static void
test_cmd_wire_decode__gives_back_the_vote__of_cmd_poll_vote(void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_POLL_VOTE,
			    "15550000003@s.whatsapp.net"), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 21);
	assert_string_equal(cmd_kind_name(CMD_POLL_VOTE), "CMD_POLL_VOTE");
	ev_set(&c->u.poll_vote.id, "3EB0P1");
	ev_set(&c->u.poll_vote.picks, "1,3");
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->kind, CMD_POLL_VOTE);
	assert_string_equal(got->u.poll_vote.chat,
	    "15550000003@s.whatsapp.net");
	assert_string_equal(got->u.poll_vote.id, "3EB0P1");
	assert_string_equal(got->u.poll_vote.picks, "1,3");
	cmd_free(got);
	b.p[4] = 20;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &got, &used), WC_EPROTO);
	cmd_free(c);
	b.len = 0;
	c = cmd_new_chat(CMD_POLL_NEW, "15550000003@s.whatsapp.net");
	ev_set(&c->u.poll_new.question, "Dinner?");
	ev_set(&c->u.poll_new.options, "Pizza\nPasta\n");
	c->u.poll_new.multi = true;
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->kind, CMD_POLL_NEW);
	assert_string_equal(got->u.poll_new.question, "Dinner?");
	assert_string_equal(got->u.poll_new.options, "Pizza\nPasta\n");
	assert_true(got->u.poll_new.multi);
	cmd_free(got);
	cmd_free(c);
	buf_release(&b);
}

/* CMD_MSG_INFO and EV_MSG_INFO (version 22); a version-21 peer is
 * refused. */
static void
test_ev_wire_decode__gives_back_the_recipients__of_ev_msg_info(void **state)
{
	struct buf	 b = BUF_INIT;
	struct cmd	*c = cmd_new_chat(CMD_MSG_INFO,
			    "120363000000000001@g.us"), *cgot;
	struct ev	*ev = ev_new(EV_MSG_INFO), *got;
	size_t		 used;

	(void)state;
	assert_true(EV_WIRE_VERSION >= 22);
	ev_set(&c->u.msg_info.id, "3EB0DD");
	assert_int_equal(cmd_wire_encode(c, &b), 0);
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used), 0);
	assert_int_equal(cgot->kind, CMD_MSG_INFO);
	assert_string_equal(cgot->u.msg_info.id, "3EB0DD");
	cmd_free(cgot);
	b.p[4] = 21;
	assert_int_equal(cmd_wire_decode(b.p, b.len, &cgot, &used),
	    WC_EPROTO);
	b.len = 0;
	ev_set(&ev->u.msg_info.chat, "120363000000000001@g.us");
	ev_set(&ev->u.msg_info.id, "3EB0DD");
	ev->u.msg_info.ts_ms = 1000;
	ev->u.msg_info.rcpts = xcalloc(2, sizeof(*ev->u.msg_info.rcpts));
	ev->u.msg_info.nrcpts = 2;
	ev_set(&ev->u.msg_info.rcpts[0].jid, "15559000001@s.whatsapp.net");
	ev_set(&ev->u.msg_info.rcpts[0].name, "Ana");
	ev->u.msg_info.rcpts[0].delivered_ms = 2000;
	ev->u.msg_info.rcpts[0].read_ms = 3000;
	ev_set(&ev->u.msg_info.rcpts[1].jid, "15559000002@s.whatsapp.net");
	ev_set(&ev->u.msg_info.rcpts[1].name, "");
	assert_int_equal(ev_wire_encode(ev, &b), 0);
	assert_int_equal(ev_wire_decode(b.p, b.len, &got, &used), 0);
	assert_int_equal(got->kind, EV_MSG_INFO);
	assert_int_equal(got->u.msg_info.nrcpts, 2);
	assert_string_equal(got->u.msg_info.rcpts[0].name, "Ana");
	assert_true(got->u.msg_info.rcpts[0].read_ms == 3000);
	assert_true(got->u.msg_info.rcpts[1].delivered_ms == 0);
	ev_free(got);
	ev_free(ev);
	cmd_free(c);
	buf_release(&b);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ev_layout__names_every_member_in_order__of_every_payload),
		cmocka_unit_test(test_ev_wire_decode__gives_back_what_was_encoded__for_every_event_kind),
		cmocka_unit_test(test_ev_wire_decode__gives_back_the_account__of_ev_linked),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_what_was_encoded__for_every_command_kind),
		cmocka_unit_test(test_ev_wire_encode__writes_the_documented_bytes__for_a_small_event),
		cmocka_unit_test(test_ev_wire_decode__takes_one_frame_at_a_time__from_a_stream),
		cmocka_unit_test(test_ev_wire_decode__fails_with_etrunc__on_every_prefix),
		cmocka_unit_test(test_ev_wire_decode__fails_with_etoobig__on_oversized_lengths),
		cmocka_unit_test(test_ev_wire_decode__fails_with_eproto__on_malformed_frames),
		cmocka_unit_test(test_ev_wire_encode__fails_and_leaves_the_buffer__on_what_it_cannot_send),
		cmocka_unit_test(test_ev_push_str__appends_copies__to_a_string_array),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_the_draft__of_cmd_draft_and_ev_chats),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_peek__of_cmd_peek_and_ev_chats),
		cmocka_unit_test(test_ev_wire_decode__gives_back_media__of_ev_page_and_ev_message),
		cmocka_unit_test(test_ev_wire_decode__gives_back_marks_and_people__of_ev_chats),
		cmocka_unit_test(test_ev_wire_decode__gives_back_what_changed__of_ev_app_state),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_the_change__of_cmd_chat_act),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_the_download__of_cmd_media_get),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_the_targets__of_cmd_forward),
		cmocka_unit_test(test_wire__gives_back_the_timer__of_cmd_ephemeral),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_the_call__of_cmd_call_reject),
		cmocka_unit_test(test_ev_wire_decode__gives_back_the_profile__of_ev_profile),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_starred__of_cmd_search),
		cmocka_unit_test(test_cmd_wire_decode__gives_back_the_vote__of_cmd_poll_vote),
		cmocka_unit_test(test_ev_wire_decode__gives_back_the_recipients__of_ev_msg_info),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
