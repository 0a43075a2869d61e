/* SPDX-License-Identifier: GPL-3.0-or-later */
/* proto/node.c -- building and reading binary nodes (proto/node.h). */
#include "base/compat.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "base/err.h"
#include "base/jid.h"
#include "proto/node.h"

struct wa_node *
wa_nb_new(struct arena *a, const char *tag, size_t maxattrs)
{
	struct wa_node	*n = arena_alloc(a, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->tag = wa_str_c(tag);
	if (maxattrs > 0) {
		n->attrs = arena_alloc(a, maxattrs * sizeof(*n->attrs));
		memset(n->attrs, 0, maxattrs * sizeof(*n->attrs));
	}
	return n;
}

struct wa_node *
wa_nb_kids(struct arena *a, struct wa_node *n, size_t count)
{
	n->content.kind = WA_VAL_LIST;
	n->content.u.list.n = count;
	n->content.u.list.v = arena_alloc(a, count * sizeof(struct wa_node));
	memset(n->content.u.list.v, 0, count * sizeof(struct wa_node));
	return n->content.u.list.v;
}

struct wa_node *
wa_nb_append(struct arena *a, struct wa_node *n)
{
	size_t		 k = n->content.kind == WA_VAL_LIST ?
	    n->content.u.list.n : 0;
	struct wa_node	*v = arena_alloc(a, (k + 1) * sizeof(*v));

	if (k > 0)
		memcpy(v, n->content.u.list.v, k * sizeof(*v));
	memset(&v[k], 0, sizeof(v[k]));
	n->content.kind = WA_VAL_LIST;
	n->content.u.list.v = v;
	n->content.u.list.n = k + 1;
	return &v[k];
}

struct wa_node *
wa_nb_kid(struct arena *a, struct wa_node *c, const char *tag,
    size_t maxattrs)
{
	*c = *wa_nb_new(a, tag, maxattrs);
	return c;
}

void
wa_nb_attr(struct wa_node *n, const char *key, const char *val)
{
	struct wa_attr	*at;

	if (val == NULL)
		return;
	at = &n->attrs[n->nattrs++];
	at->key = wa_str_c(key);
	at->val.kind = WA_VAL_STR;
	at->val.u.str = wa_str_c(val);
}

int
wa_jid_parse(const char *s, struct wa_jid *j)
{
	const char	*at, *colon, *d;
	unsigned long	 dev = 0;

	if (s == NULL || s[0] == '\0')
		return -EINVAL;
	memset(j, 0, sizeof(*j));
	if ((at = strchr(s, '@')) == NULL) {
		j->server = wa_str_c(s);
		return 0;
	}
	if (at[1] == '\0' || strchr(at + 1, '@') != NULL)
		return -EINVAL;
	j->server = wa_str_c(at + 1);
	j->user.p = s;
	j->user.len = (size_t)(at - s);
	colon = memchr(s, ':', j->user.len);
	if (colon != NULL) {
		j->user.len = (size_t)(colon - s);
		if (colon + 1 == at)
			return -EINVAL;
		for (d = colon + 1; d < at; d++) {
			if (*d < '0' || *d > '9')
				return -EINVAL;
			dev = dev * 10 + (unsigned long)(*d - '0');
			if (dev > 0xFFFF)
				return -EINVAL;
		}
		j->device = (uint16_t)dev;
	}
	return 0;
}

int
wa_nb_attr_jid(struct wa_node *n, const char *key, const char *val)
{
	struct wa_attr	*at;
	struct wa_jid	 j;

	if (val == NULL)
		return 0;
	if (wa_jid_parse(val, &j) != 0)
		return -EINVAL;
	at = &n->attrs[n->nattrs++];
	at->key = wa_str_c(key);
	at->val.kind = WA_VAL_JID;
	at->val.u.jid = j;
	return 0;
}

void
wa_nb_attr_server(struct wa_node *n, const char *key)
{
	struct wa_attr	*at = &n->attrs[n->nattrs++];

	at->key = wa_str_c(key);
	at->val.kind = WA_VAL_JID;
	memset(&at->val.u.jid, 0, sizeof(at->val.u.jid));
	at->val.u.jid.server = wa_str_c(JID_SERVER_PN);
}

void
wa_nb_attr_num(struct arena *a, struct wa_node *n, const char *key, int64_t v)
{
	char	*s = arena_alloc(a, 24);

	snprintf(s, 24, "%" PRId64, v);
	wa_nb_attr(n, key, s);
}

void
wa_nb_bytes(struct wa_node *n, const void *p, size_t len)
{
	n->content.kind = WA_VAL_BYTES;
	n->content.u.str.p = p;
	n->content.u.str.len = len;
}

const struct wa_node *
wa_node_child(const struct wa_node *n, const char *tag)
{
	size_t	 i;

	if (n == NULL || n->content.kind != WA_VAL_LIST)
		return NULL;
	for (i = 0; i < n->content.u.list.n; i++)
		if (wa_str_eqc(n->content.u.list.v[i].tag, tag))
			return &n->content.u.list.v[i];
	return NULL;
}

struct wa_str
wa_node_str(const struct wa_node *n, const char *key)
{
	const struct wa_val	*v = wa_node_attr(n, key);
	struct wa_str		 none = { NULL, 0 };

	if (v == NULL || (v->kind != WA_VAL_STR && v->kind != WA_VAL_BYTES))
		return none;
	return v->u.str;
}

bool
wa_node_str_is(const struct wa_node *n, const char *key, const char *want)
{
	return wa_str_eqc(wa_node_str(n, key), want);
}

void
wa_node_str_copy(const struct wa_node *n, const char *key, char *out,
    size_t len)
{
	struct wa_str	 s = wa_node_str(n, key);

	snprintf(out, len, "%.*s", (int)(s.len < len ? s.len : len - 1),
	    s.p != NULL ? s.p : "");
}

bool
wa_node_jid(const struct wa_node *n, const char *key, char *out, size_t len)
{
	const struct wa_val	*v = wa_node_attr(n, key);
	int			 k;

	if (v == NULL)
		return false;
	if (v->kind == WA_VAL_STR)
		k = snprintf(out, len, "%.*s", (int)v->u.str.len, v->u.str.p);
	else if (v->kind != WA_VAL_JID)
		return false;
	else if (v->u.jid.user.len == 0)
		k = snprintf(out, len, "%.*s", (int)v->u.jid.server.len,
		    v->u.jid.server.p);
	else if (v->u.jid.device != 0)
		k = snprintf(out, len, "%.*s:%u@%.*s",
		    (int)v->u.jid.user.len, v->u.jid.user.p, v->u.jid.device,
		    (int)v->u.jid.server.len, v->u.jid.server.p);
	else
		k = snprintf(out, len, "%.*s@%.*s", (int)v->u.jid.user.len,
		    v->u.jid.user.p, (int)v->u.jid.server.len,
		    v->u.jid.server.p);
	return k > 0 && (size_t)k < len;
}

bool
wa_node_bytes(const struct wa_node *n, const uint8_t **p, size_t *len)
{
	if (n == NULL || (n->content.kind != WA_VAL_BYTES &&
	    n->content.kind != WA_VAL_STR))
		return false;
	*p = (const uint8_t *)n->content.u.str.p;
	*len = n->content.u.str.len;
	return true;
}

size_t
wa_node_nkids(const struct wa_node *n)
{
	return n != NULL && n->content.kind == WA_VAL_LIST ?
	    n->content.u.list.n : 0;
}

const struct wa_node *
wa_node_kid(const struct wa_node *n, size_t i)
{
	return &n->content.u.list.v[i];
}

const char *
wa_node_strdup(struct arena *a, const char *p, size_t len)
{
	char	*s = arena_alloc(a, len + 1);

	if (len > 0)
		memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

const char *
wa_node_text(struct arena *a, const struct wa_node *n, const char *key)
{
	const struct wa_val	*v = wa_node_attr(n, key);
	char			 buf[WA_NODE_JID_MAX];

	if (v == NULL)
		return NULL;
	if (v->kind == WA_VAL_STR || v->kind == WA_VAL_BYTES)
		return wa_node_strdup(a, v->u.str.p, v->u.str.len);
	if (v->kind == WA_VAL_JID && wa_node_jid(n, key, buf, sizeof(buf)))
		return wa_node_strdup(a, buf, strlen(buf));
	return NULL;
}

int
wa_node_num(const struct wa_node *n, const char *key, int64_t *v)
{
	const struct wa_val	*val = wa_node_attr(n, key);
	int64_t			 r = 0;
	size_t			 i;

	if (val == NULL)
		return 0;
	if ((val->kind != WA_VAL_STR && val->kind != WA_VAL_BYTES) ||
	    val->u.str.len == 0 || val->u.str.len > 18)
		return WC_EPROTO;
	for (i = 0; i < val->u.str.len; i++) {
		if (val->u.str.p[i] < '0' || val->u.str.p[i] > '9')
			return WC_EPROTO;
		r = r * 10 + (val->u.str.p[i] - '0');
	}
	*v = r;
	return 1;
}
