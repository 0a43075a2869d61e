/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/vcard.c -- a contact card's name and numbers (proto/vcard.h;
 * protocol-features.md 3.3), read line by line with every length
 * bounded.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <stdlib.h>
#include <strings.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/vcard.h"

/* One logical line: the bytes of its physical lines, unfolded (b holds
 * the whole text's length: unfolding only shortens). */
struct line {
	char	*b;
	size_t	 n;
};

/* Unescape v[0..n) into out[max + 1], cut at max bytes; control
 * characters become spaces.  Returns false when it had to cut. */
static bool
unescape(const char *v, size_t n, char *out, size_t max)
{
	size_t	 i, o = 0;
	char	 c;

	for (i = 0; i < n; i++) {
		c = v[i];
		if (c == '\\' && i + 1 < n) {
			c = v[++i];
			if (c == 'n' || c == 'N')
				c = ' ';
		}
		if ((unsigned char)c < 0x20 || c == 0x7f)
			c = ' ';
		if (o == max) {
			out[o] = '\0';
			return false;
		}
		out[o++] = c;
	}
	out[o] = '\0';
	return true;
}

/* Trim the spaces at both ends of s in place. */
static void
trim(char *s)
{
	size_t	 a = 0, n = strlen(s);

	while (n > 0 && s[n - 1] == ' ')
		n--;
	while (a < n && s[a] == ' ')
		a++;
	memmove(s, s + a, n - a);
	s[n - a] = '\0';
}

/* The offset of the ':' that ends the name and parameters of l (a quoted
 * parameter value may hold one), or l->n when there is none. */
static size_t
colon_of(const struct line *l)
{
	bool	 q = false;
	size_t	 i;

	for (i = 0; i < l->n; i++) {
		if (l->b[i] == '"')
			q = !q;
		else if (l->b[i] == ':' && !q)
			return i;
	}
	return l->n;
}

/* Whether the property name of head[0..n) (after any "group." prefix,
 * before the first ';') is name, in any case. */
static bool
prop_is(const char *head, size_t n, const char *name)
{
	size_t	 a = 0, e = 0, i, k = strlen(name);

	while (e < n && head[e] != ';')
		e++;
	for (i = 0; i < e; i++)
		if (head[i] == '.')
			a = i + 1;
	return e - a == k && strncasecmp(head + a, name, k) == 0;
}

/* The waid= parameter of head[0..n) into waid (all digits, at most
 * WA_VCARD_WAID_MAX; else left ""). */
static void
waid_of(const char *head, size_t n, char waid[WA_VCARD_WAID_MAX + 1])
{
	size_t	 i = 0, a, e;

	while (i < n) {
		while (i < n && head[i] != ';')
			i++;
		if (i >= n)
			break;
		a = ++i;
		while (i < n && head[i] != ';')
			i++;
		if (i - a < 5 || strncasecmp(head + a, "waid=", 5) != 0)
			continue;
		a += 5;
		e = i;
		if (e > a && head[a] == '"' && head[e - 1] == '"' && e - a >= 2) {
			a++;
			e--;
		}
		if (e == a || e - a > WA_VCARD_WAID_MAX)
			continue;
		for (size_t j = a; j < e; j++)
			if (head[j] < '0' || head[j] > '9')
				goto next;
		memcpy(waid, head + a, e - a);
		waid[e - a] = '\0';
		return;
next:
		;
	}
}

/* A TEL line with its head[0..hn) and value v[0..vn): a number kept. */
static void
tel(struct wa_vcard *c, const char *head, size_t hn, const char *v,
    size_t vn)
{
	struct wa_vcard_tel	*t;

	if (c->ntel == WA_VCARD_TEL_MAX)
		return;
	t = &c->tel[c->ntel];
	memset(t, 0, sizeof(*t));
	if (!unescape(v, vn, t->number, WA_VCARD_NUM_MAX))
		return;		/* too long to be a number */
	trim(t->number);
	if (strpbrk(t->number, "0123456789") == NULL)
		return;
	waid_of(head, hn, t->waid);
	c->ntel++;
}

/* N:Family;Given;... as "Given Family", when no FN came. */
static void
n_name(struct wa_vcard *c, const char *v, size_t vn)
{
	char	 tmp[WA_VCARD_NAME_MAX + 1];
	size_t	 semi = 0, k;

	while (semi < vn && !(v[semi] == ';' && (semi == 0 ||
	    v[semi - 1] != '\\')))
		semi++;
	k = semi + 1 < vn ? semi + 1 : vn;
	while (k < vn && !(v[k] == ';' && v[k - 1] != '\\'))
		k++;
	(void)unescape(semi + 1 < vn ? v + semi + 1 : v + vn,
	    semi + 1 < vn ? k - semi - 1 : 0, c->name, WA_VCARD_NAME_MAX);
	(void)unescape(v, semi, tmp, WA_VCARD_NAME_MAX);
	k = strlen(c->name);
	if (k > 0 && tmp[0] != '\0' && k + 1 + strlen(tmp) <=
	    WA_VCARD_NAME_MAX) {
		c->name[k] = ' ';
		memcpy(c->name + k + 1, tmp, strlen(tmp) + 1);
	} else if (c->name[0] == '\0')
		memcpy(c->name, tmp, strlen(tmp) + 1);
	trim(c->name);
}

/* One logical line, at *depth: 0 or an error. */
static int
one(struct wa_vcard *c, const struct line *l, int *depth, bool *fn)
{
	size_t		 col = colon_of(l), vn;
	const char	*v;

	if (col == l->n)
		return 0;	/* not a property: ignored */
	v = l->b + col + 1;
	vn = l->n - col - 1;
	if (prop_is(l->b, col, "BEGIN") && vn == 5 &&
	    strncasecmp(v, "VCARD", 5) == 0) {
		if (++*depth > WA_VCARD_DEPTH_MAX)
			return WC_EDEPTH;
		return 0;
	}
	if (prop_is(l->b, col, "END") && vn == 5 &&
	    strncasecmp(v, "VCARD", 5) == 0) {
		if (*depth > 0)
			--*depth;
		return 0;
	}
	if (*depth > 1)
		return 0;	/* a nested card: not this one's */
	if (prop_is(l->b, col, "FN")) {
		(void)unescape(v, vn, c->name, WA_VCARD_NAME_MAX);
		trim(c->name);
		*fn = c->name[0] != '\0';
	} else if (prop_is(l->b, col, "N") && !*fn)
		n_name(c, v, vn);
	else if (prop_is(l->b, col, "TEL"))
		tel(c, l->b, col, v, vn);
	return 0;
}

int
wa_vcard_parse(const char *p, size_t len, struct wa_vcard *out)
{
	struct line	 l;
	size_t		 i = 0, e, lines = 0;
	int		 depth = 0, rc = 0;
	bool		 fn = false;

	if (out == NULL || (p == NULL && len > 0))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	if (len > WA_VCARD_MAX)
		return WC_ETOOBIG;
	l.b = xmalloc(len + 1);
	l.n = 0;
	while (i < len && rc == 0) {
		e = i;
		while (e < len && p[e] != '\n')
			e++;
		/* a physical line p[i..e), without its CR */
		if (e > i && p[e - 1] == '\r')
			e--;
		if ((p[i] == ' ' || p[i] == '\t') && l.n > 0 && i < e) {
			memcpy(l.b + l.n, p + i + 1, e - i - 1);	/* folded */
			l.n += e - i - 1;
		} else {
			if (l.n > 0) {
				if (++lines > WA_VCARD_LINES_MAX)
					rc = WC_ETOOBIG;
				else
					rc = one(out, &l, &depth, &fn);
			}
			memcpy(l.b, p + i, e - i);
			l.n = e - i;
		}
		i = e;
		if (i < len && p[i] == '\r')
			i++;
		if (i < len && p[i] == '\n')
			i++;
	}
	if (rc == 0 && l.n > 0)
		rc = ++lines > WA_VCARD_LINES_MAX ? WC_ETOOBIG :
		    one(out, &l, &depth, &fn);
	free(l.b);
	if (rc != 0)
		memset(out, 0, sizeof(*out));
	return rc;
}
