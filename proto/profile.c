/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/profile.c -- the blocklist, picture and about-text stanzas
 * (proto/profile.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/node.h"
#include "proto/profile.h"

/* ---- the blocklist in memory ---- */

void
wa_blocklist_init(struct wa_blocklist *l)
{
	memset(l, 0, sizeof(*l));
}

void
wa_blocklist_release(struct wa_blocklist *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* jid without its device part (":N" before the '@') into out; false
 * when it is empty or does not fit. */
static bool
bare(const char *jid, char out[WA_PROF_JID_MAX])
{
	const char	*at = strchr(jid, '@'), *colon = strchr(jid, ':');
	size_t		 n = strlen(jid);

	if (n == 0 || n >= WA_PROF_JID_MAX)
		return false;
	if (at != NULL && colon != NULL && colon < at)
		snprintf(out, WA_PROF_JID_MAX, "%.*s%s", (int)(colon - jid),
		    jid, at);
	else
		memcpy(out, jid, n + 1);
	return true;
}

static ssize_t
find(const struct wa_blocklist *l, const char *b)
{
	size_t	 i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->v[i], b) == 0)
			return (ssize_t)i;
	return -1;
}

bool
wa_blocklist_has(const struct wa_blocklist *l, const char *jid)
{
	char	 b[WA_PROF_JID_MAX];

	return bare(jid, b) && find(l, b) >= 0;
}

int
wa_blocklist_set(struct wa_blocklist *l, const char *jid, bool block)
{
	char	 b[WA_PROF_JID_MAX];
	ssize_t	 at;

	if (!bare(jid, b))
		return -EINVAL;
	at = find(l, b);
	if (!block) {
		if (at < 0)
			return 0;
		memmove(l->v[at], l->v[at + 1], (l->n - (size_t)at - 1) *
		    sizeof(l->v[0]));
		l->n--;
		return 1;
	}
	if (at >= 0)
		return 0;
	if (l->n >= WA_PROF_BLOCK_MAX)
		return WC_ETOOBIG;
	if (l->n == l->cap) {
		l->cap = l->cap == 0 ? 16 : l->cap * 2;
		l->v = xrealloc(l->v, l->cap * sizeof(l->v[0]));
	}
	memcpy(l->v[l->n++], b, sizeof(b));
	return 1;
}

/* ---- the blocklist on the wire ---- */

/* <iq id xmlns type to="s.whatsapp.net"> with room for one attribute
 * more (borrowed strings). */
static struct wa_node *
iq(struct arena *a, const char *id, const char *xmlns, const char *type)
{
	struct wa_node	*n = wa_nb_new(a, "iq", 5);

	wa_nb_attr(n, "id", id);
	wa_nb_attr(n, "xmlns", xmlns);
	wa_nb_attr(n, "type", type);
	wa_nb_attr_server(n, "to");
	return n;
}

struct wa_node *
wa_prof_blocklist_get(struct arena *a, const char *id)
{
	return iq(a, id, "blocklist", "get");
}

int
wa_prof_blocklist_set(struct arena *a, const char *id, const char *jid,
    const char *pn_jid, bool block, struct wa_node **out)
{
	struct wa_node	*n = iq(a, id, "blocklist", "set"), *it;

	it = wa_nb_kid(a, wa_nb_kids(a, n, 1), "item", 3);
	wa_nb_attr(it, "action", block ? "block" : "unblock");
	if (wa_nb_attr_jid(it, "jid", jid) != 0 ||
	    (pn_jid != NULL && wa_nb_attr_jid(it, "pn_jid", pn_jid) != 0))
		return -EINVAL;
	*out = n;
	return 0;
}

int
wa_prof_blocklist_parse(const struct wa_node *iq, struct wa_blocklist *l)
{
	const struct wa_node	*list = wa_node_child(iq, "list");
	struct wa_blocklist	 nl;
	char			 jid[WA_PROF_JID_MAX];
	size_t			 i, n = wa_node_nkids(list);

	if (!wa_node_str_is(iq, "type", "result") || list == NULL)
		return WC_EPROTO;
	if (n > WA_PROF_KIDS_MAX)
		return WC_ETOOBIG;
	wa_blocklist_init(&nl);
	for (i = 0; i < n; i++) {
		const struct wa_node	*it = wa_node_kid(list, i);

		if (wa_str_eqc(it->tag, "item") &&
		    wa_node_jid(it, "jid", jid, sizeof(jid)))
			(void)wa_blocklist_set(&nl, jid, true);
	}
	wa_blocklist_release(l);
	*l = nl;
	return (int)l->n;
}

int
wa_prof_blocklist_change(const struct wa_node *bl, struct wa_blocklist *l)
{
	struct wa_str	 all = wa_node_str(bl, "action"), act;
	char		 jid[WA_PROF_JID_MAX];
	size_t		 i, n = wa_node_nkids(bl);
	int		 changed = 0, rc;

	if (bl == NULL || !wa_str_eqc(bl->tag, "blocklist"))
		return WC_EPROTO;
	if (n > WA_PROF_KIDS_MAX)
		return WC_ETOOBIG;
	for (i = 0; i < n; i++) {
		const struct wa_node	*it = wa_node_kid(bl, i);

		act = wa_node_str(it, "action");
		if (act.len == 0)
			act = all;
		if (!wa_str_eqc(it->tag, "item") ||
		    !wa_node_jid(it, "jid", jid, sizeof(jid)) ||
		    (!wa_str_eqc(act, "block") && !wa_str_eqc(act, "unblock")))
			continue;
		rc = wa_blocklist_set(l, jid, wa_str_eqc(act, "block"));
		if (rc > 0)
			changed++;
	}
	return changed;
}

/* ---- the profile picture ---- */

int
wa_prof_picture_get(struct arena *a, const char *id, const char *target,
    bool preview, struct wa_node **out)
{
	struct wa_node	*n = iq(a, id, "w:profile:picture", "get"), *p;

	if (wa_nb_attr_jid(n, "target", target) != 0)
		return -EINVAL;
	p = wa_nb_kid(a, wa_nb_kids(a, n, 1), "picture", 2);
	wa_nb_attr(p, "type", preview ? "preview" : "image");
	wa_nb_attr(p, "query", "url");
	*out = n;
	return 0;
}

/* An error code's meaning: the iq's <error code> or the picture's. */
static int
pic_error(const struct wa_node *err)
{
	if (wa_node_str_is(err, "code", "404"))
		return -ENOENT;
	if (wa_node_str_is(err, "code", "401"))
		return -EACCES;
	return WC_EPROTO;
}

/* A string attribute into out[len]: false when longer. */
static bool
take(const struct wa_node *n, const char *key, char *out, size_t len)
{
	struct wa_str	 s = wa_node_str(n, key);

	if (s.len >= len)
		return false;
	if (s.len > 0)
		memcpy(out, s.p, s.len);
	out[s.len] = '\0';
	return true;
}

bool
wa_prof_pic_id_ok(const char *id)
{
	size_t	 n = strlen(id);

	return n > 0 && n < WA_PROF_PIC_ID_MAX &&
	    strspn(id, "0123456789abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ_-") == n;
}

int
wa_prof_picture_parse(const struct wa_node *iq, struct wa_prof_pic *out)
{
	const struct wa_node	*p = wa_node_child(iq, "picture");

	memset(out, 0, sizeof(*out));
	if (wa_node_str_is(iq, "type", "error"))
		return pic_error(wa_node_child(iq, "error"));
	if (!wa_node_str_is(iq, "type", "result") || p == NULL)
		return WC_EPROTO;
	if (wa_node_child(p, "error") != NULL)
		return pic_error(wa_node_child(p, "error"));
	if (wa_node_str_is(p, "status", "204"))
		return -ENOENT;
	if (!take(p, "id", out->id, sizeof(out->id)) ||
	    !take(p, "url", out->url, sizeof(out->url)) ||
	    !take(p, "direct_path", out->direct_path,
	    sizeof(out->direct_path)))
		return WC_EPROTO;
	if (out->url[0] == '\0')
		return -ENOENT;
	if (strncmp(out->url, "https://", 8) != 0 &&
	    strncmp(out->url, "http://", 7) != 0)
		return WC_EPROTO;
	return 0;
}

/* ---- the about text ---- */

int
wa_prof_status_get(struct arena *a, const char *id, const char *jid,
    struct wa_node **out)
{
	struct wa_node	*n = iq(a, id, "usync", "get"), *us, *k, *q, *list;
	struct wa_node	*u;

	us = wa_nb_kid(a, wa_nb_kids(a, n, 1), "usync", 5);
	wa_nb_attr(us, "sid", id);
	wa_nb_attr(us, "mode", "query");
	wa_nb_attr(us, "last", "true");
	wa_nb_attr(us, "index", "0");
	wa_nb_attr(us, "context", "interactive");
	k = wa_nb_kids(a, us, 2);
	q = wa_nb_kid(a, &k[0], "query", 0);
	(void)wa_nb_kid(a, wa_nb_kids(a, q, 1), "status", 0);
	list = wa_nb_kid(a, &k[1], "list", 0);
	u = wa_nb_kid(a, wa_nb_kids(a, list, 1), "user", 1);
	if (wa_nb_attr_jid(u, "jid", jid) != 0)
		return -EINVAL;
	*out = n;
	return 0;
}

/* The length of the first len bytes of p cut back to a UTF-8 character's
 * start. */
static size_t
utf8_cut(const uint8_t *p, size_t len)
{
	while (len > 0 && (p[len] & 0xC0) == 0x80)
		len--;
	return len;
}

/* <status [t] [code]>text</status> into out. */
static void
status_of(const struct wa_node *st, struct wa_prof_status *out)
{
	const uint8_t	*p;
	size_t		 len;
	int64_t		 t = 0;

	if (st == NULL || wa_node_str_is(st, "code", "401"))
		return;
	if (wa_node_num(st, "t", &t) == 1 && t > 0)
		out->t = t;
	if (!wa_node_bytes(st, &p, &len) || len == 0)
		return;
	if (len >= sizeof(out->text))
		len = utf8_cut(p, sizeof(out->text) - 1);
	memcpy(out->text, p, len);
	out->text[len] = '\0';
	out->known = true;
}

int
wa_prof_status_parse(const struct wa_node *iq, const char *jid,
    struct wa_prof_status *out)
{
	const struct wa_node	*list;
	char			 want[WA_PROF_JID_MAX], got[WA_PROF_JID_MAX];
	char			 b[WA_PROF_JID_MAX];
	size_t			 i;

	memset(out, 0, sizeof(*out));
	list = wa_node_child(wa_node_child(iq, "usync"), "list");
	if (!wa_node_str_is(iq, "type", "result") || list == NULL ||
	    !bare(jid, want))
		return WC_EPROTO;
	for (i = 0; i < wa_node_nkids(list); i++) {
		const struct wa_node	*u = wa_node_kid(list, i);

		if (!wa_node_jid(u, "jid", got, sizeof(got)) ||
		    !bare(got, b) || strcmp(b, want) != 0)
			continue;
		status_of(wa_node_child(u, "status"), out);
		return 0;
	}
	return WC_EPROTO;
}
