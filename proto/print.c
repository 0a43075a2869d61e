/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/print.c -- render a node as XML-like text for --log-wire.  Every
 * byte from the network is escaped unless it is printable ASCII or part of
 * a well-formed UTF-8 sequence outside the C1, bidi and line control
 * ranges, so a dump is safe on a terminal.
 */
#include "base/compat.h"

#include <stdio.h>
#include <string.h>

#include "proto/bin.h"
#include "base/sanitize.h"

static void
put_str(struct buf *out, const char *s)
{
	buf_append(out, s, strlen(s));
}

static void
put_hexbyte(struct buf *out, uint8_t c)
{
	static const char	 hex[] = "0123456789abcdef";
	char			 e[4] = { '\\', 'x', hex[c >> 4], hex[c & 15] };

	buf_append(out, e, sizeof(e));
}

static void
put_text(struct buf *out, struct wa_str s)
{
	const uint8_t	*p = (const uint8_t *)s.p;
	size_t		 i = 0, n;
	uint32_t	 c = 0;

	while (i < s.len) {
		n = wc_utf8_seq(p + i, s.len - i, &c);
		if (n == 0) {			/* not UTF-8 */
			put_hexbyte(out, p[i]);
			n = 1;
		} else if (c == '"' || c == '\\') {
			buf_push(out, '\\');
			buf_push(out, p[i]);
		} else if (wc_unsafe_cp(c)) {
			for (size_t k = 0; k < n; k++)
				put_hexbyte(out, p[i + k]);
		} else
			buf_append(out, p + i, n);
		i += n;
	}
}

static void
put_jid(struct buf *out, const struct wa_jid *j)
{
	char	 num[16];

	if (j->integrator != 0) {
		snprintf(num, sizeof(num), "%u-", j->integrator);
		put_str(out, num);
	}
	put_text(out, j->user);
	if (j->agent != 0) {
		snprintf(num, sizeof(num), "_%u", j->agent);
		put_str(out, num);
	}
	if (j->device != 0) {
		snprintf(num, sizeof(num), ":%u", j->device);
		put_str(out, num);
	}
	buf_push(out, '@');
	put_text(out, j->server);
}

static void
put_bytes(struct buf *out, struct wa_str s, size_t max_bytes)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i, n = s.len < max_bytes ? s.len : max_bytes;
	char			 tail[48];

	put_str(out, "\xe2\x80\xb9");	/* ‹ */
	for (i = 0; i < n; i++) {
		uint8_t	 c = (uint8_t)s.p[i];

		buf_push(out, (uint8_t)hex[c >> 4]);
		buf_push(out, (uint8_t)hex[c & 15]);
	}
	if (n < s.len) {
		snprintf(tail, sizeof(tail), "\xe2\x80\xa6 %zu bytes", s.len);
		put_str(out, tail);
	}
	put_str(out, "\xe2\x80\xba");	/* › */
}

static void
indent(struct buf *out, unsigned level)
{
	while (level-- > 0)
		put_str(out, "  ");
}

static void
print_node(const struct wa_node *n, size_t max_bytes, unsigned level,
    struct buf *out)
{
	size_t	 i;

	indent(out, level);
	buf_push(out, '<');
	put_text(out, n->tag);
	for (i = 0; i < n->nattrs; i++) {
		const struct wa_attr	*at = &n->attrs[i];

		buf_push(out, ' ');
		put_text(out, at->key);
		put_str(out, "=\"");
		if (at->val.kind == WA_VAL_JID)
			put_jid(out, &at->val.u.jid);
		else
			put_text(out, at->val.u.str);
		buf_push(out, '"');
	}
	switch (n->content.kind) {
	case WA_VAL_NONE:
		put_str(out, "/>");
		return;
	case WA_VAL_STR:
		buf_push(out, '>');
		put_text(out, n->content.u.str);
		break;
	case WA_VAL_JID:
		buf_push(out, '>');
		put_jid(out, &n->content.u.jid);
		break;
	case WA_VAL_BYTES:
		buf_push(out, '>');
		put_bytes(out, n->content.u.str, max_bytes);
		break;
	case WA_VAL_LIST:
		buf_push(out, '>');
		for (i = 0; i < n->content.u.list.n; i++) {
			buf_push(out, '\n');
			print_node(&n->content.u.list.v[i], max_bytes,
			    level + 1, out);
		}
		if (n->content.u.list.n != 0) {
			buf_push(out, '\n');
			indent(out, level);
		}
		break;
	}
	put_str(out, "</");
	put_text(out, n->tag);
	buf_push(out, '>');
}

void
wa_bin_print(const struct wa_node *n, size_t max_bytes, struct buf *out)
{
	print_node(n, max_bytes, 0, out);
}
