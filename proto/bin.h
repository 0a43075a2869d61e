/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/bin.h -- WhatsApp's binary node codec ("WABinary", dictionary
 * version 3; protocol.md section 4).  Pure functions over caller buffers:
 * no globals, no I/O, callable from any thread (each call uses only the
 * arena and buffer it is given).
 *
 * The node model keeps strings, JIDs and bytes apart: an attribute value is
 * a string or a JID, never guessed from an '@'.  Encoding follows whatsmeow
 * (protocol.md section 18): empty attribute values are omitted, and only
 * values typed as JIDs are written as JIDs.
 */
#ifndef WA_BIN_H
#define WA_BIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"

#define WA_BIN_MAX_DEPTH	128	/* levels, root = 1; real trees < 20 */
#define WA_BIN_MAX_FRAME	(16u << 20) /* bytes of an inflated payload */
#define WA_BIN_PACKED_MAX	127	/* characters in a NIBBLE_8/HEX_8 string */

/* Frame flag bits (protocol.md 4.6). */
#define WA_BIN_FLAG_COMPRESSED	0x02

/* A byte string with its length; not NUL-terminated. */
struct wa_str {
	const char	*p;	/* may be NULL when len is 0 */
	size_t		 len;	/* bytes */
};

/* A JID (protocol.md 5.2).  Which wire form it takes follows from server
 * and device (protocol.md 4.5). */
struct wa_jid {
	struct wa_str	 user;		/* empty for the server JID */
	struct wa_str	 server;	/* "s.whatsapp.net", "lid", "g.us", ... */
	uint16_t	 device;	/* 0 = primary; <= 255 except msgr/interop */
	uint16_t	 integrator;	/* interop JIDs only */
	uint8_t		 agent;		/* legacy AD_JID agent read on s.whatsapp.net,
					 * else 0; never written (protocol.md 4.5:
					 * only domains 0, 1, 128, 129 are encoded) */
};

enum wa_val_kind {
	WA_VAL_NONE = 0,	/* no content */
	WA_VAL_STR,		/* text: u.str */
	WA_VAL_JID,		/* u.jid */
	WA_VAL_BYTES,		/* raw bytes: u.str */
	WA_VAL_LIST,		/* child nodes: u.list (content only) */
};

struct wa_node;

struct wa_val {
	enum wa_val_kind	 kind;
	union {
		struct wa_str	 str;
		struct wa_jid	 jid;
		struct {
			struct wa_node	*v;	/* array of n nodes */
			size_t		 n;
		} list;
	} u;
};

struct wa_attr {
	struct wa_str	 key;	/* never empty */
	struct wa_val	 val;	/* WA_VAL_STR or WA_VAL_JID (BYTES encodes as STR) */
};

struct wa_node {
	struct wa_str	 tag;		/* never empty */
	struct wa_attr	*attrs;		/* nattrs entries, wire order; NULL if 0 */
	size_t		 nattrs;
	struct wa_val	 content;	/* NONE, STR, JID, BYTES or LIST */
};

/*
 * Decode exactly one node from p[0..len) (len in bytes, no flags byte) into
 * arena a.  Returns 0 and stores the tree in *out.  Strings and bytes point
 * into p, into the constant token tables or into a: p must outlive the tree,
 * which is freed with the arena.  Nothing is allocated per node or string
 * beyond the arena (packed strings are unpacked into it).
 * Errors: WC_ETRUNC (input ends inside a field or a length exceeds the bytes
 * left), WC_EDEPTH (deeper than WA_BIN_MAX_DEPTH levels), WC_ETOKEN (a
 * reserved tag byte), WC_EPROTO (a malformed node: empty tag, a list where a
 * string belongs, a bad nibble, an FB_JID or INTEROP_JID on an AD_JID
 * server with a device above 255, which no JID has and the encoder could
 * not write back), WC_ETRAILING (bytes after the node).
 * On error *out is untouched and, if err_off is not NULL, *err_off is the
 * byte offset in p where decoding stopped.
 */
MUST_CHECK int	wa_bin_decode(const uint8_t *p, size_t len, struct arena *a,
		    struct wa_node **out, size_t *err_off);

/*
 * Decode a frame payload p[0..len): the flags byte, then the node, inflated
 * with zlib first when the flags have WA_BIN_FLAG_COMPRESSED (the inflated
 * bytes are kept in a).  Returns 0 and *out as wa_bin_decode() does.
 * Errors: those of wa_bin_decode(), and WC_ETRUNC (no flags byte),
 * WC_EINFLATE (corrupt or truncated zlib data), WC_ETOOBIG (inflates past
 * WA_BIN_MAX_FRAME bytes).  err_off as for wa_bin_decode(), counted in the
 * inflated payload when it was compressed.
 */
MUST_CHECK int	wa_bin_unpack(const uint8_t *p, size_t len, struct arena *a,
		    struct wa_node **out, size_t *err_off);

/*
 * Append the encoding of node n to out (protocol.md 4.3-4.5), without a
 * flags byte.  Returns 0.  Errors: WC_EINVAL (an empty tag or key, a list
 * in an attribute, an AD_JID device above 255, more than 65535 list items),
 * WC_EDEPTH (deeper than WA_BIN_MAX_DEPTH), WC_ETOOBIG (bytes of 4 GiB or
 * more); on error out->len is as it was.
 */
MUST_CHECK int	wa_bin_encode(const struct wa_node *n, struct buf *out);

/* As wa_bin_encode(), preceded by the flags byte 0x00 (uncompressed). */
MUST_CHECK int	wa_bin_pack(const struct wa_node *n, struct buf *out);

/*
 * Append n rendered as XML-like text to out, for --log-wire: attribute
 * values quoted, JIDs as user[_agent][:device]@server, bytes as ‹hex› (the
 * first max_bytes bytes, then the total length), children indented by
 * two spaces per level.  Control characters and non-UTF-8 bytes are shown
 * as \xNN, so the text is safe to write to a terminal or a log.  Appends
 * no NUL.  Cannot fail.
 */
void		wa_bin_print(const struct wa_node *n, size_t max_bytes,
		    struct buf *out);

/* Helpers for building trees. */

/* A string from a NUL-terminated C string (borrowed). */
static inline struct wa_str
wa_str_c(const char *s)
{
	struct wa_str	 r = { s, 0 };

	while (s != NULL && s[r.len] != '\0')
		r.len++;
	return r;
}

/* True when a and b hold the same bytes. */
bool		wa_str_eq(struct wa_str a, struct wa_str b);
/* True when a holds the bytes of the C string s. */
bool		wa_str_eqc(struct wa_str a, const char *s);

/* Trees compare equal when tags, attributes in order, and content match. */
bool		wa_node_eq(const struct wa_node *a, const struct wa_node *b);

/* Return the attribute named key, or NULL. */
const struct wa_val *wa_node_attr(const struct wa_node *n, const char *key);

#endif
