/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/node-json.c -- typed JSON <-> binary node, for tests and benches. */
#include "base/compat.h"

#include <stdio.h>
#include <string.h>

#include "base/hex.h"
#include "node-json.h"

static int
fail(char *err, size_t errlen, const char *what)
{
	snprintf(err, errlen, "%s", what);
	return -1;
}

static struct wa_str
copy_str(struct arena *a, struct json_object *s)
{
	struct wa_str	 r;
	char		*p;

	r.len = (size_t)json_object_get_string_len(s);
	p = arena_alloc(a, r.len);
	memcpy(p, json_object_get_string(s), r.len);
	r.p = p;
	return r;
}

static int
jid_from_json(struct json_object *j, struct arena *a, struct wa_jid *out,
    char *err, size_t errlen)
{
	struct json_object	*v;

	memset(out, 0, sizeof(*out));
	if (!json_object_is_type(j, json_type_object))
		return fail(err, errlen, "JID is not an object");
	if (!json_object_object_get_ex(j, "server", &v) ||
	    !json_object_is_type(v, json_type_string))
		return fail(err, errlen, "JID without server");
	out->server = copy_str(a, v);
	if (json_object_object_get_ex(j, "user", &v))
		out->user = copy_str(a, v);
	if (json_object_object_get_ex(j, "device", &v))
		out->device = (uint16_t)json_object_get_int(v);
	if (json_object_object_get_ex(j, "agent", &v))
		out->agent = (uint8_t)json_object_get_int(v);
	if (json_object_object_get_ex(j, "integrator", &v))
		out->integrator = (uint16_t)json_object_get_int(v);
	return 0;
}

static int
val_from_json(struct json_object *j, struct arena *a, struct wa_val *out,
    bool content, char *err, size_t errlen)
{
	struct json_object	*v;
	size_t			 i, n;

	if (!json_object_is_type(j, json_type_object))
		return fail(err, errlen, "value is not an object");
	if (json_object_object_get_ex(j, "s", &v)) {
		out->kind = WA_VAL_STR;
		out->u.str = copy_str(a, v);
		return 0;
	}
	if (json_object_object_get_ex(j, "j", &v)) {
		out->kind = WA_VAL_JID;
		return jid_from_json(v, a, &out->u.jid, err, errlen);
	}
	if (content && json_object_object_get_ex(j, "b", &v)) {
		const char	*h = json_object_get_string(v);
		size_t		 hl = (size_t)json_object_get_string_len(v);
		uint8_t		*p;

		if (hl % 2 != 0)
			return fail(err, errlen, "odd hex length");
		p = arena_alloc(a, hl / 2);
		for (i = 0; i < hl / 2; i++) {
			int	 hi = hex_digit(h[2 * i]), lo = hex_digit(h[2 * i + 1]);

			if (hi < 0 || lo < 0)
				return fail(err, errlen, "bad hex digit");
			p[i] = (uint8_t)(hi << 4 | lo);
		}
		out->kind = WA_VAL_BYTES;
		out->u.str.p = (const char *)p;
		out->u.str.len = hl / 2;
		return 0;
	}
	if (content && json_object_object_get_ex(j, "l", &v)) {
		if (!json_object_is_type(v, json_type_array))
			return fail(err, errlen, "\"l\" is not an array");
		n = json_object_array_length(v);
		out->kind = WA_VAL_LIST;
		out->u.list.n = n;
		out->u.list.v = n != 0 ?
		    arena_alloc(a, n * sizeof(struct wa_node)) : NULL;
		for (i = 0; i < n; i++) {
			struct wa_node	*child;

			if (node_from_json(json_object_array_get_idx(v, i), a,
			    &child, err, errlen) != 0)
				return -1;
			out->u.list.v[i] = *child;
		}
		return 0;
	}
	return fail(err, errlen, "value has none of s, j, b, l");
}

int
node_from_json(struct json_object *j, struct arena *a, struct wa_node **out,
    char *err, size_t errlen)
{
	struct json_object	*v, *attrs;
	struct wa_node		*n;
	size_t			 i;

	if (!json_object_is_type(j, json_type_object))
		return fail(err, errlen, "node is not an object");
	n = arena_alloc(a, sizeof(*n));
	memset(n, 0, sizeof(*n));
	if (!json_object_object_get_ex(j, "tag", &v) ||
	    !json_object_is_type(v, json_type_string))
		return fail(err, errlen, "node without tag");
	n->tag = copy_str(a, v);
	if (json_object_object_get_ex(j, "attrs", &attrs)) {
		if (!json_object_is_type(attrs, json_type_array))
			return fail(err, errlen, "attrs is not an array");
		n->nattrs = json_object_array_length(attrs);
		n->attrs = n->nattrs != 0 ?
		    arena_alloc(a, n->nattrs * sizeof(*n->attrs)) : NULL;
		for (i = 0; i < n->nattrs; i++) {
			struct json_object	*pair, *k;

			pair = json_object_array_get_idx(attrs, i);
			if (!json_object_is_type(pair, json_type_array) ||
			    json_object_array_length(pair) != 2)
				return fail(err, errlen, "attr is not a pair");
			k = json_object_array_get_idx(pair, 0);
			if (!json_object_is_type(k, json_type_string))
				return fail(err, errlen, "attr key not a string");
			n->attrs[i].key = copy_str(a, k);
			if (val_from_json(json_object_array_get_idx(pair, 1), a,
			    &n->attrs[i].val, false, err, errlen) != 0)
				return -1;
		}
	}
	if (json_object_object_get_ex(j, "content", &v) &&
	    val_from_json(v, a, &n->content, true, err, errlen) != 0)
		return -1;
	*out = n;
	return 0;
}

static void
put(struct buf *out, const char *s)
{
	buf_append(out, s, strlen(s));
}

static void
put_jstr(struct buf *out, struct wa_str s)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i;

	buf_push(out, '"');
	for (i = 0; i < s.len; i++) {
		uint8_t	 c = (uint8_t)s.p[i];

		if (c == '"' || c == '\\') {
			buf_push(out, '\\');
			buf_push(out, c);
		} else if (c < 0x20) {
			char	 e[6] = { '\\', 'u', '0', '0', hex[c >> 4],
			    hex[c & 15] };

			buf_append(out, e, sizeof(e));
		} else
			buf_push(out, c);
	}
	buf_push(out, '"');
}

static void
put_jid(struct buf *out, const struct wa_jid *j)
{
	char	 num[96];

	put(out, "{\"user\":");
	put_jstr(out, j->user);
	put(out, ",\"server\":");
	put_jstr(out, j->server);
	snprintf(num, sizeof(num), ",\"device\":%u,\"agent\":%u,"
	    "\"integrator\":%u}", j->device, j->agent, j->integrator);
	put(out, num);
}

static void
put_val(struct buf *out, const struct wa_val *v)
{
	size_t			 i;

	switch (v->kind) {
	case WA_VAL_NONE:
		put(out, "null");
		return;
	case WA_VAL_STR:
		put(out, "{\"s\":");
		put_jstr(out, v->u.str);
		break;
	case WA_VAL_JID:
		put(out, "{\"j\":");
		put_jid(out, &v->u.jid);
		break;
	case WA_VAL_BYTES:
		put(out, "{\"b\":\"");
		hex_append(out, (const uint8_t *)v->u.str.p, v->u.str.len);
		buf_push(out, '"');
		break;
	case WA_VAL_LIST:
		put(out, "{\"l\":[");
		for (i = 0; i < v->u.list.n; i++) {
			if (i != 0)
				buf_push(out, ',');
			node_to_json(&v->u.list.v[i], out);
		}
		buf_push(out, ']');
		break;
	}
	buf_push(out, '}');
}

void
node_to_json(const struct wa_node *n, struct buf *out)
{
	size_t	 i;

	put(out, "{\"tag\":");
	put_jstr(out, n->tag);
	put(out, ",\"attrs\":[");
	for (i = 0; i < n->nattrs; i++) {
		if (i != 0)
			buf_push(out, ',');
		buf_push(out, '[');
		put_jstr(out, n->attrs[i].key);
		buf_push(out, ',');
		put_val(out, &n->attrs[i].val);
		buf_push(out, ']');
	}
	buf_push(out, ']');
	if (n->content.kind != WA_VAL_NONE) {
		put(out, ",\"content\":");
		put_val(out, &n->content);
	}
	buf_push(out, '}');
}
