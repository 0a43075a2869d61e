/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/sim/nodes.c -- node tree helpers for the simulator. */
#include "base/compat.h"

#include <string.h>

#include "nodes.h"

static struct wa_str
dup(struct arena *a, const void *p, size_t len)
{
	char		*q = arena_alloc(a, len + 1);
	struct wa_str	 s;

	if (len > 0)
		memcpy(q, p, len);
	q[len] = '\0';
	s.p = q;
	s.len = len;
	return s;
}

char *
sn_strdup(struct arena *a, const char *str)
{
	return (char *)dup(a, str, strlen(str)).p;
}

struct wa_node *
sn_new(struct arena *a, const char *tag)
{
	struct wa_node	*n = arena_alloc(a, sizeof(*n));

	memset(n, 0, sizeof(*n));
	n->tag = dup(a, tag, strlen(tag));
	return n;
}

static struct wa_attr *
add_attr(struct arena *a, struct wa_node *n)
{
	struct wa_attr	*v = arena_alloc(a, (n->nattrs + 1) * sizeof(*v));

	if (n->nattrs > 0)
		memcpy(v, n->attrs, n->nattrs * sizeof(*v));
	n->attrs = v;
	memset(&v[n->nattrs], 0, sizeof(*v));
	return &v[n->nattrs++];
}

void
sn_attr(struct arena *a, struct wa_node *n, const char *key, const char *val)
{
	struct wa_attr	*at = add_attr(a, n);

	at->key = dup(a, key, strlen(key));
	at->val.kind = WA_VAL_STR;
	at->val.u.str = dup(a, val, strlen(val));
}

void
sn_attr_jid(struct arena *a, struct wa_node *n, const char *key,
    const char *user, const char *server, uint16_t device)
{
	struct wa_attr	*at = add_attr(a, n);

	at->key = dup(a, key, strlen(key));
	at->val.kind = WA_VAL_JID;
	memset(&at->val.u.jid, 0, sizeof(at->val.u.jid));
	at->val.u.jid.user = dup(a, user, strlen(user));
	at->val.u.jid.server = dup(a, server, strlen(server));
	at->val.u.jid.device = device;
}

void
sn_attr_val(struct arena *a, struct wa_node *n, const char *key,
    const struct wa_val *v)
{
	struct wa_attr	*at = add_attr(a, n);

	at->key = dup(a, key, strlen(key));
	at->val = *v;
}

void
sn_append(struct arena *a, struct wa_node *parent, const struct wa_node *src)
{
	struct wa_node	*ch = sn_child(a, parent, "x");

	*ch = *src;
}

void
sn_bytes(struct arena *a, struct wa_node *n, const void *p, size_t len)
{
	n->content.kind = WA_VAL_BYTES;
	n->content.u.str = dup(a, p, len);
}

struct wa_node *
sn_child(struct arena *a, struct wa_node *parent, const char *tag)
{
	size_t		 k = parent->content.kind == WA_VAL_LIST ?
	    parent->content.u.list.n : 0;
	struct wa_node	*v = arena_alloc(a, (k + 1) * sizeof(*v));

	if (k > 0)
		memcpy(v, parent->content.u.list.v, k * sizeof(*v));
	memset(&v[k], 0, sizeof(*v));
	v[k].tag = dup(a, tag, strlen(tag));
	parent->content.kind = WA_VAL_LIST;
	parent->content.u.list.v = v;
	parent->content.u.list.n = k + 1;
	return &v[k];
}

struct wa_str
sn_get(const struct wa_node *n, const char *key)
{
	const struct wa_val	*v = wa_node_attr(n, key);
	struct wa_str		 empty = { "", 0 };

	if (v == NULL || (v->kind != WA_VAL_STR && v->kind != WA_VAL_BYTES))
		return empty;
	return v->u.str;
}

const struct wa_node *
sn_find(const struct wa_node *n, const char *tag)
{
	size_t	 i;

	if (n->content.kind != WA_VAL_LIST)
		return NULL;
	for (i = 0; i < n->content.u.list.n; i++)
		if (wa_str_eqc(n->content.u.list.v[i].tag, tag))
			return &n->content.u.list.v[i];
	return NULL;
}

int
sn_is(const struct wa_node *n, const char *tag)
{
	return wa_str_eqc(n->tag, tag);
}
