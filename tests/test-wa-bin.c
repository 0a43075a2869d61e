/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/test-wa-bin.c -- the binary node codec (proto/bin.c, proto/print.c,
 * proto/tokens.c): golden files, token tables, every length and list size
 * boundary, depth limits, hostile inputs, compressed frames and seeded
 * random round trips.
 */
#include "base/compat.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <openssl/sha.h>
#include <zlib.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "base/err.h"
#include "proto/tokens.h"
#include "base/xmalloc.h"

/* ------------------------------------------------------------------ */
/* Golden files: tests/fixtures/wa-bin/NAME.hex */

struct fixture {
	char		 name[256];
	struct buf	 bytes;		/* the node, no flags byte */
	struct buf	 encodes;	/* canonical re-encoding, if different */
	struct buf	 print;		/* expected printer output */
};

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static void
parse_hex(const char *s, struct buf *out)
{
	int	 hi = -1, v;

	for (; *s != '\0'; s++) {
		if ((v = hexval((unsigned char)*s)) < 0)
			continue;
		if (hi < 0)
			hi = v;
		else {
			buf_push(out, (uint8_t)(hi << 4 | v));
			hi = -1;
		}
	}
	assert_int_equal(hi, -1);
}

static void
load_fixture(const char *path, struct fixture *f)
{
	FILE	*fp = fopen(path, "r");
	char	 line[4096];
	size_t	 plines = 0;

	assert_non_null(fp);
	while (fgets(line, sizeof(line), fp) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (strncmp(line, "# print: ", 9) == 0) {
			if (plines++ != 0)
				buf_push(&f->print, '\n');
			buf_append(&f->print, line + 9, strlen(line + 9));
		} else if (strncmp(line, "# encodes: ", 11) == 0)
			parse_hex(line + 11, &f->encodes);
		else if (line[0] != '#')
			parse_hex(line, &f->bytes);
	}
	fclose(fp);
	assert_true(f->bytes.len > 0);
	assert_true(plines > 0);
}

static void
test_wa_bin_fixture__decodes_prints_and_reencodes__as_the_golden_file(
    void **state)
{
	const char	*path = *state;
	struct fixture	 f;
	struct arena	 a;
	struct wa_node	*n;
	struct buf	 text = BUF_INIT, enc = BUF_INIT;
	size_t		 off = 0;

	memset(&f, 0, sizeof(f));
	load_fixture(path, &f);
	arena_init(&a, 0);
	assert_int_equal(wa_bin_decode(f.bytes.p, f.bytes.len, &a, &n, &off),
	    0);
	wa_bin_print(n, 64, &text);
	buf_push(&text, '\0');
	buf_push(&f.print, '\0');
	assert_string_equal((char *)text.p, (char *)f.print.p);
	assert_int_equal(wa_bin_encode(n, &enc), 0);
	if (f.encodes.len == 0) {
		assert_int_equal(enc.len, f.bytes.len);
		assert_memory_equal(enc.p, f.bytes.p, enc.len);
	} else {
		assert_int_equal(enc.len, f.encodes.len);
		assert_memory_equal(enc.p, f.encodes.p, enc.len);
	}
	/* Every proper prefix is refused with an error, never a crash. */
	for (size_t cut = 0; cut < f.bytes.len; cut++)
		assert_true(wa_bin_decode(f.bytes.p, cut, &a, &n, &off) < 0);
	arena_release(&a);
	buf_release(&text);
	buf_release(&enc);
	buf_release(&f.bytes);
	buf_release(&f.encodes);
	buf_release(&f.print);
}

/* ------------------------------------------------------------------ */
/* Token tables */

/* Render the compiled tables in the token files' format and hash them. */
static void
test_wa_tokens__render_as_the_shared_files__with_their_sha256(void **state)
{
	/* SHA-256 of tokens-single.txt and tokens-double.txt, protocol.md 4.2 */
	static const char	 want_single[] =
	    "34af7d0ba6b51a2a59091374163c9fc6be56ee7957781d6ec4cda91c4ae09cc0";
	static const char	 want_double[] =
	    "d2b9873b4fca8d93dde238e02d312028eab4ff065b21ce81a61bebfd7b5fa6a1";
	struct buf		 b = BUF_INIT;
	unsigned char		 md[SHA256_DIGEST_LENGTH];
	char			 hex[2 * SHA256_DIGEST_LENGTH + 1], head[32];
	size_t			 i, k;

	(void)state;
	for (i = 0; i < WA_TOKENS_SINGLE; i++) {
		buf_append(&b, wa_tokens_single[i].s, wa_tokens_single[i].len);
		buf_push(&b, '\n');
	}
	SHA256(b.p, b.len, md);
	for (i = 0; i < sizeof(md); i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	assert_string_equal(hex, want_single);

	b.len = 0;
	for (k = 0; k < WA_TOKENS_DICTS; k++) {
		snprintf(head, sizeof(head), "### dictionary %zu\n", k);
		buf_append(&b, head, strlen(head));
		for (i = 0; i < WA_TOKENS_PER_DICT; i++) {
			buf_append(&b, wa_tokens_double[k][i].s,
			    wa_tokens_double[k][i].len);
			buf_push(&b, '\n');
		}
	}
	SHA256(b.p, b.len, md);
	for (i = 0; i < sizeof(md); i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	assert_string_equal(hex, want_double);
	buf_release(&b);
}

/* Every token, used as a tag, encodes to its own code. */
static void
test_wa_bin_encode__writes_each_token__as_its_code(void **state)
{
	struct buf	 b = BUF_INIT;
	struct wa_node	 n;
	size_t		 i, k;

	(void)state;
	memset(&n, 0, sizeof(n));
	for (i = 1; i < WA_TOKENS_SINGLE; i++) {
		n.tag.p = wa_tokens_single[i].s;
		n.tag.len = wa_tokens_single[i].len;
		b.len = 0;
		assert_int_equal(wa_bin_encode(&n, &b), 0);
		assert_int_equal(b.len, 3);
		assert_int_equal(b.p[2], i);
	}
	for (k = 0; k < WA_TOKENS_DICTS; k++)
		for (i = 0; i < WA_TOKENS_PER_DICT; i++) {
			n.tag.p = wa_tokens_double[k][i].s;
			n.tag.len = wa_tokens_double[k][i].len;
			b.len = 0;
			assert_int_equal(wa_bin_encode(&n, &b), 0);
			assert_int_equal(b.len, 4);
			assert_int_equal(b.p[2], 0xEC + k);
			assert_int_equal(b.p[3], i);
		}
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* Boundaries */

static struct wa_node
bytes_node(const uint8_t *p, size_t len)
{
	struct wa_node	 n;

	memset(&n, 0, sizeof(n));
	n.tag = wa_str_c("enc");
	n.content.kind = WA_VAL_BYTES;
	n.content.u.str.p = (const char *)p;
	n.content.u.str.len = len;
	return n;
}

static void
test_wa_bin_bytes__use_the_smallest_length_form__at_each_boundary(
    void **state)
{
	static const struct {
		size_t	 len;
		uint8_t	 tag;
		size_t	 hdr;
	} cases[] = {
		{ 0, 0xFC, 2 }, { 255, 0xFC, 2 }, { 256, 0xFD, 4 },
		{ 0xFFFFF, 0xFD, 4 }, { 0x100000, 0xFE, 5 },
		{ 0x100001, 0xFE, 5 },
	};
	uint8_t		*p = xmalloc(0x100001);
	struct buf	 b = BUF_INIT;
	struct arena	 a;
	struct wa_node	 n, *back;
	size_t		 i, off;

	(void)state;
	for (i = 0; i < 0x100001; i++)
		p[i] = (uint8_t)(i * 7 + 3);
	arena_init(&a, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = bytes_node(p, cases[i].len);
		b.len = 0;
		assert_int_equal(wa_bin_encode(&n, &b), 0);
		/* F8 02, the token for enc, then the length form */
		assert_int_equal(b.len, 3 + cases[i].hdr + cases[i].len);
		assert_int_equal(b.p[3], cases[i].tag);
		assert_int_equal(wa_bin_decode(b.p, b.len, &a, &back, &off), 0);
		assert_int_equal(back->content.kind, WA_VAL_BYTES);
		assert_int_equal(back->content.u.str.len, cases[i].len);
		/* zero copy: the bytes point into the input */
		if (cases[i].len != 0)
			assert_ptr_equal(back->content.u.str.p,
			    b.p + 3 + cases[i].hdr);
		assert_true(wa_node_eq(&n, back));
		arena_reset(&a);
	}
	arena_release(&a);
	buf_release(&b);
	free(p);
}

static void
test_wa_bin_list__uses_list16__above_255_children(void **state)
{
	static const size_t	 sizes[] = { 1, 255, 256, 65535 };
	struct wa_node		*kids = xcalloc(65536, sizeof(*kids));
	struct wa_node		 n, *back;
	struct buf		 b = BUF_INIT;
	struct arena		 a;
	size_t			 i, k, off;

	(void)state;
	for (k = 0; k < 65536; k++)
		kids[k].tag = wa_str_c("to");
	arena_init(&a, 0);
	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(&n, 0, sizeof(n));
		n.tag = wa_str_c("participants");
		n.content.kind = WA_VAL_LIST;
		n.content.u.list.v = kids;
		n.content.u.list.n = sizes[i];
		b.len = 0;
		assert_int_equal(wa_bin_encode(&n, &b), 0);
		if (sizes[i] < 256) {
			assert_int_equal(b.p[3], 0xF8);
			assert_int_equal(b.p[4], sizes[i]);
		} else {
			assert_int_equal(b.p[3], 0xF9);
			assert_int_equal(b.p[4] << 8 | b.p[5], sizes[i]);
		}
		assert_int_equal(wa_bin_decode(b.p, b.len, &a, &back, &off), 0);
		assert_true(wa_node_eq(&n, back));
		arena_reset(&a);
	}
	/* 65536 children cannot be written. */
	n.content.u.list.n = 65536;
	b.len = 7;
	assert_int_equal(wa_bin_encode(&n, &b), WC_EINVAL);
	assert_int_equal(b.len, 7);
	arena_release(&a);
	buf_release(&b);
	free(kids);
}

static void
test_wa_bin_string__packs_up_to_127_characters__and_writes_128_raw(
    void **state)
{
	char		 s[129];
	struct buf	 b = BUF_INIT;
	struct wa_node	 n;

	(void)state;
	memset(s, '7', sizeof(s));
	memset(&n, 0, sizeof(n));
	n.tag.p = s;
	n.tag.len = 127;
	assert_int_equal(wa_bin_encode(&n, &b), 0);
	assert_int_equal(b.p[2], 0xFF);
	assert_int_equal(b.p[3], 0x80 | 64);
	assert_int_equal(b.len, 4 + 64);
	b.len = 0;
	n.tag.len = 128;
	assert_int_equal(wa_bin_encode(&n, &b), 0);
	assert_int_equal(b.p[2], 0xFC);
	assert_int_equal(b.p[3], 128);
	b.len = 0;
	memset(s, 'C', sizeof(s));
	n.tag.len = 3;
	assert_int_equal(wa_bin_encode(&n, &b), 0);
	assert_int_equal(b.p[2], 0xFB);
	assert_int_equal(b.p[3], 0x82);
	assert_int_equal(b.p[4], 0xCC);
	assert_int_equal(b.p[5], 0xCF);
	/* lower-case hex is not packable */
	b.len = 0;
	n.tag = wa_str_c("3eb0");
	assert_int_equal(wa_bin_encode(&n, &b), 0);
	assert_int_equal(b.p[2], 0xFC);
	buf_release(&b);
}

/* A chain of depth nodes, each the only child of the one above. */
static void
chain(struct buf *b, unsigned depth)
{
	unsigned	 i;

	for (i = 1; i < depth; i++) {
		buf_push(b, 0xF8);
		buf_push(b, 2);
		buf_push(b, 0x19);	/* iq */
		buf_push(b, 0xF8);
		buf_push(b, 1);
	}
	buf_push(b, 0xF8);
	buf_push(b, 1);
	buf_push(b, 0x19);
}

static void
test_wa_bin_decode__accepts_128_levels__and_refuses_129(void **state)
{
	struct buf	 b = BUF_INIT, enc = BUF_INIT;
	struct arena	 a;
	struct wa_node	*n;
	size_t		 off = 0;

	(void)state;
	arena_init(&a, 0);
	chain(&b, 128);
	assert_int_equal(wa_bin_decode(b.p, b.len, &a, &n, &off), 0);
	assert_int_equal(wa_bin_encode(n, &enc), 0);
	assert_memory_equal(enc.p, b.p, b.len);
	b.len = 0;
	chain(&b, 129);
	assert_int_equal(wa_bin_decode(b.p, b.len, &a, &n, &off), WC_EDEPTH);
	assert_int_equal(off, 128 * 5);	/* at the 129th node's header */
	arena_release(&a);
	buf_release(&b);
	buf_release(&enc);
}

static void
test_wa_bin_encode__refuses_129_levels(void **state)
{
	struct wa_node	 nodes[129];
	struct buf	 b = BUF_INIT;
	int		 i;

	(void)state;
	memset(nodes, 0, sizeof(nodes));
	for (i = 0; i < 129; i++) {
		nodes[i].tag = wa_str_c("iq");
		if (i < 128) {
			nodes[i].content.kind = WA_VAL_LIST;
			nodes[i].content.u.list.v = &nodes[i + 1];
			nodes[i].content.u.list.n = 1;
		}
	}
	assert_int_equal(wa_bin_encode(&nodes[0], &b), WC_EDEPTH);
	assert_int_equal(b.len, 0);
	assert_int_equal(wa_bin_encode(&nodes[1], &b), 0);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* Hostile input */

struct hostile {
	const char	*what;
	const char	*hex;
	int		 err;
	size_t		 off;
};

static void
test_wa_bin_decode__refuses_hostile_input__with_code_and_offset(void **state)
{
	static const struct hostile	 cases[] = {
		{ "empty input", "", WC_ETRUNC, 0 },
		{ "list size 0 for a node", "00", WC_EPROTO, 0 },
		{ "a string where a list belongs", "19", WC_EPROTO, 0 },
		{ "LIST_8 without its size", "f8", WC_ETRUNC, 1 },
		{ "empty tag", "f801fc00", WC_EPROTO, 4 },
		{ "reserved tag byte F0 as a tag", "f801f0", WC_ETOKEN, 2 },
		{ "reserved tag byte F4 as a value", "f8031908f4", WC_ETOKEN, 4 },
		{ "BINARY_32 length with the high bit set",
		  "f80219feffffffff00", WC_ETRUNC, 3 },
		{ "BINARY_20 length past the end", "f80219fd0fffff00",
		  WC_ETRUNC, 3 },
		{ "BINARY_8 length past the end", "f80219fc0501", WC_ETRUNC, 3 },
		{ "NIBBLE_8 with the invalid nibble C", "f801ff01c1",
		  WC_EPROTO, 4 },
		{ "odd NIBBLE_8 of zero bytes", "f801ff80", WC_EPROTO, 2 },
		{ "packed length past the end", "f801ff0512", WC_ETRUNC, 2 },
		{ "dictionary token without its index", "f801ec", WC_ETRUNC, 3 },
		{ "LIST_16 of 65535 children in 3 bytes", "f80219f9ffff",
		  WC_ETRUNC, 3 },
		{ "attribute count past the end", "f8ff19", WC_ETRUNC, 0 },
		{ "a list as an attribute value", "f8031908f801", WC_EPROTO, 4 },
		{ "a JID as a tag", "f801fa0003", WC_EPROTO, 5 },
		{ "a JID as a JID's user", "f8031911fafa000303", WC_EPROTO, 5 },
		{ "an AD_JID as a JID's server", "f8031911fa00f7000103",
		  WC_EPROTO, 6 },
		{ "JID_PAIR with an empty server", "f8031911fa0000",
		  WC_EPROTO, 7 },
		{ "trailing byte after the node", "f8011900", WC_ETRAILING, 3 },
		{ "AD_JID cut after its domain", "f8031911f700", WC_ETRUNC, 6 },
	};
	struct buf	 b = BUF_INIT;
	struct arena	 a;
	struct wa_node	*n = NULL;
	size_t		 i, off;
	int		 rc;

	(void)state;
	arena_init(&a, 0);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		b.len = 0;
		parse_hex(cases[i].hex, &b);
		off = 999;
		rc = wa_bin_decode(b.p, b.len, &a, &n, &off);
		if (rc != cases[i].err || off != cases[i].off)
			fail_msg("%s: got %d (%s) at %zu, want %d at %zu",
			    cases[i].what, rc, wc_strerror(rc), off,
			    cases[i].err, cases[i].off);
		assert_null(n);	/* *out untouched */
	}
	arena_release(&a);
	buf_release(&b);
}

/* Found by fuzzing: 100,000 nested JID_PAIR tags once recursed per byte
 * and overflowed the stack. */
static void
test_wa_bin_decode__refuses_a_chain_of_nested_jids__without_recursing(
    void **state)
{
	struct buf	 b = BUF_INIT;
	struct arena	 a;
	struct wa_node	*n;
	size_t		 i, off = 0;

	(void)state;
	parse_hex("f8 02 19", &b);
	for (i = 0; i < 100000; i++)
		buf_push(&b, 0xFA);
	buf_push(&b, 0x03);
	buf_push(&b, 0x03);
	arena_init(&a, 0);
	assert_int_equal(wa_bin_decode(b.p, b.len, &a, &n, &off), WC_EPROTO);
	assert_int_equal(off, 4);	/* the JID_PAIR inside the first one */
	arena_release(&a);
	buf_release(&b);
}

static void
test_wa_bin_unpack__inflates_compressed_frames__to_the_same_tree(
    void **state)
{
	static const char	 keepalive[] =
	    "f8 09 19 08 ff 04 61 b1 27 a1 16 57 04 29 11 fa 00 03";
	struct buf		 node = BUF_INIT, frame = BUF_INIT;
	struct arena		 a;
	struct wa_node		*plain, *inflated;
	uLongf			 zlen;
	size_t			 off;

	(void)state;
	parse_hex(keepalive, &node);
	zlen = compressBound(node.len);
	buf_reserve(&frame, 1 + zlen);
	frame.p[0] = WA_BIN_FLAG_COMPRESSED;
	assert_int_equal(compress2(frame.p + 1, &zlen, node.p, node.len, 9),
	    Z_OK);
	frame.len = 1 + zlen;
	arena_init(&a, 0);
	assert_int_equal(wa_bin_decode(node.p, node.len, &a, &plain, &off), 0);
	assert_int_equal(wa_bin_unpack(frame.p, frame.len, &a, &inflated,
	    &off), 0);
	assert_true(wa_node_eq(plain, inflated));

	/* A corrupt stream and a cut one are refused. */
	frame.p[3] ^= 0xFF;
	assert_int_equal(wa_bin_unpack(frame.p, frame.len, &a, &inflated,
	    &off), WC_EINFLATE);
	frame.p[3] ^= 0xFF;
	assert_int_equal(wa_bin_unpack(frame.p, frame.len - 3, &a, &inflated,
	    &off), WC_EINFLATE);
	/* Bytes after the end of the zlib stream are refused. */
	buf_push(&frame, 0x00);
	assert_int_equal(wa_bin_unpack(frame.p, frame.len, &a, &inflated,
	    &off), WC_ETRAILING);
	/* Uncompressed, the flags byte is skipped. */
	frame.len = 0;
	buf_push(&frame, 0);
	buf_append(&frame, node.p, node.len);
	assert_int_equal(wa_bin_unpack(frame.p, frame.len, &a, &inflated,
	    &off), 0);
	assert_true(wa_node_eq(plain, inflated));
	assert_int_equal(wa_bin_unpack(frame.p, 0, &a, &inflated, &off),
	    WC_ETRUNC);
	arena_release(&a);
	buf_release(&node);
	buf_release(&frame);
}

static void
test_wa_bin_unpack__refuses_a_zlib_bomb__past_the_frame_cap(void **state)
{
	size_t		 big = WA_BIN_MAX_FRAME + 1;
	uint8_t		*zeros = xcalloc(1, big);
	struct buf	 frame = BUF_INIT;
	struct arena	 a;
	struct wa_node	*n;
	uLongf		 zlen = compressBound(big);
	size_t		 off;

	(void)state;
	buf_reserve(&frame, 1 + zlen);
	frame.p[0] = WA_BIN_FLAG_COMPRESSED;
	assert_int_equal(compress2(frame.p + 1, &zlen, zeros, big, 9), Z_OK);
	frame.len = 1 + zlen;
	assert_true(frame.len < 32 * 1024);	/* a small frame ... */
	arena_init(&a, 0);
	assert_int_equal(wa_bin_unpack(frame.p, frame.len, &a, &n, &off),
	    WC_ETOOBIG);			/* ... that inflates too far */
	arena_release(&a);
	buf_release(&frame);
	free(zeros);
}

static void
test_wa_bin_encode__refuses_unencodable_trees__leaving_the_buffer(
    void **state)
{
	struct wa_attr	 at;
	struct wa_node	 n;
	struct buf	 b = BUF_INIT;

	(void)state;
	buf_push(&b, 0xAA);
	memset(&n, 0, sizeof(n));
	assert_int_equal(wa_bin_encode(&n, &b), WC_EINVAL);	/* empty tag */
	n.tag = wa_str_c("iq");
	memset(&at, 0, sizeof(at));
	at.key = wa_str_c("to");
	at.val.kind = WA_VAL_JID;
	at.val.u.jid.user = wa_str_c("1555");
	at.val.u.jid.server = wa_str_c("s.whatsapp.net");
	at.val.u.jid.device = 256;
	n.attrs = &at;
	n.nattrs = 1;
	assert_int_equal(wa_bin_encode(&n, &b), WC_EINVAL);	/* device */
	at.val.u.jid.device = 0;
	at.val.u.jid.server = wa_str_c("");
	assert_int_equal(wa_bin_encode(&n, &b), WC_EINVAL);	/* server */
	at.val.u.jid.server = wa_str_c("s.whatsapp.net");
	at.key = wa_str_c("");
	assert_int_equal(wa_bin_encode(&n, &b), WC_EINVAL);	/* key */
	assert_int_equal(b.len, 1);
	at.key = wa_str_c("to");
	assert_int_equal(wa_bin_pack(&n, &b), 0);
	assert_int_equal(b.p[1], 0x00);	/* the flags byte */
	buf_release(&b);
}

/* Every code point that moves the cursor, reorders text or is not valid
 * UTF-8 is shown as \xNN; printable text, emoji and ZWJ pass through. */
static void
test_wa_bin_print__escapes_controls_bidi_and_bad_utf8(void **state)
{
	static const struct {
		const char	*in;
		const char	*out;
	} cases[] = {
		{ "a\x1b[2Jb", "a\\x1b[2Jb" },		/* ESC */
		{ "\x7f", "\\x7f" },				/* DEL */
		{ "\xc2\x9b", "\\xc2\\x9b" },		/* C1 CSI */
		{ "\xe2\x80\xae", "\\xe2\\x80\\xae" },	/* RLO */
		{ "\xe2\x81\xa6", "\\xe2\\x81\\xa6" },	/* LRI */
		{ "\xe2\x80\x8f", "\\xe2\\x80\\x8f" },	/* RLM */
		{ "\xe2\x80\xa8", "\\xe2\\x80\\xa8" },	/* LS */
		{ "\xd8\x9c", "\\xd8\\x9c" },		/* ALM */
		{ "\xed\xa0\x80", "\\xed\\xa0\\x80" },	/* surrogate */
		{ "\xc0\xaf", "\\xc0\\xaf" },		/* overlong / */
		{ "\xe0\x80\xaf", "\\xe0\\x80\\xaf" },	/* overlong / */
		{ "\xf4\x90\x80\x80", "\\xf4\\x90\\x80\\x80" }, /* > U+10FFFF */
		{ "\xe2\x82", "\\xe2\\x82" },		/* cut sequence */
		{ "q\"u\\", "q\\\"u\\\\" },		/* quote, backslash */
		{ "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9 \xd0\xb6",
		  "\xf0\x9f\x91\xa8\xe2\x80\x8d\xf0\x9f\x91\xa9 \xd0\xb6" },
	};
	struct wa_attr	 at;
	struct wa_node	 n;
	struct buf	 b = BUF_INIT;
	char		 want[128];
	size_t		 i;

	(void)state;
	memset(&n, 0, sizeof(n));
	memset(&at, 0, sizeof(at));
	n.tag = wa_str_c("m");
	n.attrs = &at;
	n.nattrs = 1;
	at.key = wa_str_c("t");
	at.val.kind = WA_VAL_STR;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		at.val.u.str = wa_str_c(cases[i].in);
		b.len = 0;
		wa_bin_print(&n, 64, &b);
		buf_push(&b, '\0');
		snprintf(want, sizeof(want), "<m t=\"%s\"/>", cases[i].out);
		if (strcmp((char *)b.p, want) != 0)
			fail_msg("case %zu: got %s, want %s", i, (char *)b.p, want);
	}
	buf_release(&b);
}

static void
test_wa_bin_print__shows_bytes_up_to_the_limit__then_the_length(
    void **state)
{
	uint8_t		 p[40];
	struct wa_node	 n;
	struct buf	 b = BUF_INIT;

	(void)state;
	memset(p, 0xAB, sizeof(p));
	n = bytes_node(p, sizeof(p));
	wa_bin_print(&n, 2, &b);
	buf_push(&b, '\0');
	assert_string_equal((char *)b.p,
	    "<enc>\xe2\x80\xb9" "abab\xe2\x80\xa6 40 bytes\xe2\x80\xba</enc>");
	buf_release(&b);
}

/* ------------------------------------------------------------------ */
/* Seeded random trees */

struct rng {
	uint64_t	 s;
};

static uint64_t
rng_next(struct rng *r)
{
	uint64_t	 z = (r->s += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static size_t
rng_below(struct rng *r, size_t n)
{
	return (size_t)(rng_next(r) % n);
}

static struct wa_str
rand_chars(struct rng *r, struct arena *a, const char *set, size_t min,
    size_t max)
{
	size_t	 len = min + rng_below(r, max - min + 1), i, n = strlen(set);
	char	*p = arena_alloc(a, len);

	for (i = 0; i < len; i++)
		p[i] = set[rng_below(r, n)];
	return (struct wa_str){ p, len };
}

/* A non-empty string of a random kind; raw strings only when raw_ok. */
static struct wa_str
rand_string(struct rng *r, struct arena *a, bool raw_ok)
{
	static const char	*utf8[] = { "\xc3\xa9", "\xd0\xb6", "\xe4\xb8\x96",
	    "\xf0\x9f\x91\x8b", "a", "Z", "_", " " };
	size_t			 i, k;

	switch (rng_below(r, raw_ok ? 5 : 4)) {
	case 0:
		k = 1 + rng_below(r, WA_TOKENS_SINGLE - 1);
		return (struct wa_str){ wa_tokens_single[k].s,
		    wa_tokens_single[k].len };
	case 1:
		k = rng_below(r, WA_TOKENS_DICTS);
		i = rng_below(r, WA_TOKENS_PER_DICT);
		return (struct wa_str){ wa_tokens_double[k][i].s,
		    wa_tokens_double[k][i].len };
	case 2:
		return rand_chars(r, a, "0123456789-.", 1, 127);
	case 3:
		return rand_chars(r, a, "0123456789ABCDEF", 1, 127);
	default: {
		struct buf	 b = BUF_INIT;
		size_t		 n = 1 + rng_below(r, 40);
		char		*p;

		buf_push(&b, 'x');	/* never a token or packable */
		for (i = 0; i < n; i++) {
			const char	*u = utf8[rng_below(r, 8)];

			buf_append(&b, u, strlen(u));
		}
		p = arena_alloc(a, b.len);
		memcpy(p, b.p, b.len);
		k = b.len;
		buf_release(&b);
		return (struct wa_str){ p, k };
	}
	}
}

static struct wa_jid
rand_jid(struct rng *r, struct arena *a)
{
	static const char	*servers[] = { "s.whatsapp.net", "lid", "g.us",
	    "broadcast", "newsletter", "hosted", "hosted.lid", "msgr",
	    "interop", "c.us", "bot" };
	struct wa_jid		 j;

	memset(&j, 0, sizeof(j));
	j.server = wa_str_c(servers[rng_below(r, 11)]);
	if (rng_below(r, 6) != 0)
		j.user = rand_chars(r, a, "0123456789", 1, 20);
	if (wa_str_eqc(j.server, "msgr") || wa_str_eqc(j.server, "interop")) {
		j.device = (uint16_t)rng_below(r, 65536);
		if (wa_str_eqc(j.server, "interop"))
			j.integrator = (uint16_t)rng_below(r, 65536);
	} else if (wa_str_eqc(j.server, "s.whatsapp.net") ||
	    wa_str_eqc(j.server, "lid") || wa_str_eqc(j.server, "hosted") ||
	    wa_str_eqc(j.server, "hosted.lid")) {
		j.device = (uint16_t)(rng_below(r, 2) ? rng_below(r, 256) : 0);
	}
	return j;
}

static void
rand_node(struct rng *r, struct arena *a, unsigned depth, struct wa_node *n)
{
	size_t	 i, k;

	memset(n, 0, sizeof(*n));
	n->tag = rand_string(r, a, true);
	n->nattrs = rng_below(r, 5);
	n->attrs = arena_alloc(a, n->nattrs * sizeof(*n->attrs));
	for (i = 0; i < n->nattrs; i++) {
		n->attrs[i].key = rand_string(r, a, true);
		if (rng_below(r, 3) == 0) {
			n->attrs[i].val.kind = WA_VAL_JID;
			n->attrs[i].val.u.jid = rand_jid(r, a);
		} else {
			n->attrs[i].val.kind = WA_VAL_STR;
			n->attrs[i].val.u.str = rand_string(r, a, true);
		}
	}
	switch (rng_below(r, depth < 6 ? 5 : 4)) {
	case 0:
		break;
	case 1:	/* strings in content come back as strings unless raw */
		n->content.kind = WA_VAL_STR;
		n->content.u.str = rand_string(r, a, false);
		break;
	case 2: {
		size_t	 len = rng_below(r, 8) == 0 ? 200 + rng_below(r, 400) :
		    rng_below(r, 64);
		uint8_t	*p = arena_alloc(a, len);

		for (k = 0; k < len; k++)
			p[k] = (uint8_t)rng_next(r);
		n->content.kind = WA_VAL_BYTES;
		n->content.u.str.p = (const char *)p;
		n->content.u.str.len = len;
		break;
	}
	case 3:
		n->content.kind = WA_VAL_JID;
		n->content.u.jid = rand_jid(r, a);
		break;
	default:
		n->content.kind = WA_VAL_LIST;
		n->content.u.list.n = rng_below(r, 5);
		n->content.u.list.v = arena_alloc(a,
		    n->content.u.list.n * sizeof(struct wa_node));
		for (k = 0; k < n->content.u.list.n; k++)
			rand_node(r, a, depth + 1, &n->content.u.list.v[k]);
		break;
	}
}

static void
test_wa_bin_roundtrip__gives_back_the_tree__for_5000_seeded_trees(
    void **state)
{
	struct rng	 r = { 20261130 };
	struct arena	 a;
	struct buf	 b = BUF_INIT, again = BUF_INIT;
	struct wa_node	 n, *back;
	size_t		 off;
	int		 i;

	(void)state;
	arena_init(&a, 0);
	for (i = 0; i < 5000; i++) {
		rand_node(&r, &a, 1, &n);
		b.len = again.len = 0;
		assert_int_equal(wa_bin_encode(&n, &b), 0);
		if (wa_bin_decode(b.p, b.len, &a, &back, &off) != 0)
			fail_msg("tree %d does not decode (offset %zu)", i, off);
		if (!wa_node_eq(&n, back))
			fail_msg("tree %d comes back different", i);
		assert_int_equal(wa_bin_encode(back, &again), 0);
		assert_int_equal(again.len, b.len);
		assert_memory_equal(again.p, b.p, b.len);
		arena_reset(&a);
	}
	arena_release(&a);
	buf_release(&b);
	buf_release(&again);
}

static void
test_wa_bin_decode__adds_no_arena_chunk__for_a_large_tree_decoded_again(
    void **state)
{
	struct arena	 a, t;
	struct buf	 b = BUF_INIT;
	struct wa_node	 root, *kids, *back;
	struct wa_attr	*attrs;
	struct arena_chunk *kept;
	size_t		 off, i;
	int		 round;

	(void)state;
	/* 2048 <user jid=...> children: a tree of some 300 KiB, far above
	 * the default 16 KiB chunk. */
	arena_init(&t, 0);
	kids = arena_alloc(&t, 2048 * sizeof(*kids));
	attrs = arena_alloc(&t, 2048 * sizeof(*attrs));
	for (i = 0; i < 2048; i++) {
		memset(&kids[i], 0, sizeof(kids[i]));
		kids[i].tag = wa_str_c("user");
		kids[i].attrs = &attrs[i];
		kids[i].nattrs = 1;
		memset(&attrs[i], 0, sizeof(attrs[i]));
		attrs[i].key = wa_str_c("jid");
		attrs[i].val.kind = WA_VAL_JID;
		attrs[i].val.u.jid.user = wa_str_c("15551234567");
		attrs[i].val.u.jid.server = wa_str_c("s.whatsapp.net");
	}
	memset(&root, 0, sizeof(root));
	root.tag = wa_str_c("list");
	root.content.kind = WA_VAL_LIST;
	root.content.u.list.v = kids;
	root.content.u.list.n = 2048;
	assert_int_equal(wa_bin_encode(&root, &b), 0);

	arena_init(&a, 0);
	kept = NULL;
	for (round = 0; round < 3; round++) {
		arena_reset(&a);
		if (round == 1)
			kept = a.head;
		assert_int_equal(wa_bin_decode(b.p, b.len, &a, &back, &off), 0);
		assert_true(wa_node_eq(&root, back));
		/* After the first reset the folded chunk holds the tree. */
		if (round >= 1)
			assert_ptr_equal(a.head, kept);
	}
	arena_release(&a);
	arena_release(&t);
	buf_release(&b);
}

/* ------------------------------------------------------------------ */

int
main(void)
{
	static const struct CMUnitTest	 fixed[] = {
		cmocka_unit_test(test_wa_tokens__render_as_the_shared_files__with_their_sha256),
		cmocka_unit_test(test_wa_bin_encode__writes_each_token__as_its_code),
		cmocka_unit_test(test_wa_bin_bytes__use_the_smallest_length_form__at_each_boundary),
		cmocka_unit_test(test_wa_bin_list__uses_list16__above_255_children),
		cmocka_unit_test(test_wa_bin_string__packs_up_to_127_characters__and_writes_128_raw),
		cmocka_unit_test(test_wa_bin_decode__accepts_128_levels__and_refuses_129),
		cmocka_unit_test(test_wa_bin_encode__refuses_129_levels),
		cmocka_unit_test(test_wa_bin_decode__refuses_hostile_input__with_code_and_offset),
		cmocka_unit_test(test_wa_bin_decode__refuses_a_chain_of_nested_jids__without_recursing),
		cmocka_unit_test(test_wa_bin_unpack__inflates_compressed_frames__to_the_same_tree),
		cmocka_unit_test(test_wa_bin_unpack__refuses_a_zlib_bomb__past_the_frame_cap),
		cmocka_unit_test(test_wa_bin_encode__refuses_unencodable_trees__leaving_the_buffer),
		cmocka_unit_test(test_wa_bin_print__escapes_controls_bidi_and_bad_utf8),
		cmocka_unit_test(test_wa_bin_print__shows_bytes_up_to_the_limit__then_the_length),
		cmocka_unit_test(test_wa_bin_roundtrip__gives_back_the_tree__for_5000_seeded_trees),
		cmocka_unit_test(test_wa_bin_decode__adds_no_arena_chunk__for_a_large_tree_decoded_again),
	};
	size_t		 nfixed = sizeof(fixed) / sizeof(fixed[0]);
	struct CMUnitTest *tests;
	char		 paths[64][512], names[64][300];
	const char	*dir = FIXTURES "/wa-bin";
	struct dirent	*e;
	DIR		*d;
	size_t		 n = 0, i;
	int		 rc;

	/* One test per golden file, named after it. */
	tests = xcalloc(nfixed + 64, sizeof(*tests));
	memcpy(tests, fixed, sizeof(fixed));
	if ((d = opendir(dir)) == NULL) {
		fprintf(stderr, "cannot open %s\n", dir);
		return 1;
	}
	while ((e = readdir(d)) != NULL && n < 64) {
		size_t	 len = strlen(e->d_name);

		if (len < 5 || strcmp(e->d_name + len - 4, ".hex") != 0)
			continue;
		snprintf(paths[n], sizeof(paths[n]), "%s/%s", dir, e->d_name);
		snprintf(names[n], sizeof(names[n]),
		    "test_wa_bin_fixture__matches_golden_file__%s", e->d_name);
		tests[nfixed + n].name = names[n];
		tests[nfixed + n].test_func =
		    test_wa_bin_fixture__decodes_prints_and_reencodes__as_the_golden_file;
		tests[nfixed + n].initial_state = paths[n];
		n++;
	}
	closedir(d);
	if (n < 12) {
		fprintf(stderr, "expected at least 12 golden files in %s\n", dir);
		return 1;
	}
	(void)i;
	rc = _cmocka_run_group_tests("wa_bin", tests, nfixed + n, NULL, NULL);
	free(tests);
	return rc;
}
