/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/rich.c -- the rich record of the message kinds that are neither
 * text nor media (base/rich.h): written, parsed, said in words; a
 * poll's votes put in place and its tally.
 */
#include "base/compat.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/i18n.h"
#include "base/rich.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"

static const char *const type_names[] = {
	[RICH_LOCATION] = "location",
	[RICH_LIVE] = "live",
	[RICH_CONTACTS] = "contacts",
	[RICH_PREVIEW] = "preview",
	[RICH_VIEWONCE] = "viewonce",
	[RICH_OTHER] = "other",
	[RICH_POLL] = "poll",
};

#define NTYPES	(sizeof(type_names) / sizeof(type_names[0]))

void
rich_begin(struct buf *out, enum rich_type t)
{
	const char	*n = (size_t)t < NTYPES && type_names[t] != NULL ?
		    type_names[t] : "other";

	buf_append(out, n, strlen(n));
}

void
rich_add(struct buf *out, const char *key, const char *val, size_t len)
{
	size_t	 max = strcmp(key, "text") == 0 ? RICH_TEXT_MAX : RICH_VAL_MAX;
	size_t	 i;

	if (val == NULL)
		return;
	if (len > max)
		len = max;
	buf_push(out, '\n');
	buf_append(out, key, strlen(key));
	buf_push(out, '=');
	for (i = 0; i < len && val[i] != '\0'; i++) {
		if (val[i] == '\\')
			buf_append(out, "\\\\", 2);
		else if (val[i] == '\n')
			buf_append(out, "\\n", 2);
		else
			buf_push(out, (uint8_t)val[i]);
	}
}

void
rich_add_hex(struct buf *out, const char *key, const uint8_t *p, size_t len)
{
	static const char	 hex[] = "0123456789abcdef";
	size_t			 i;

	if (p == NULL || len == 0 || len > RICH_THUMB_MAX)
		return;
	buf_push(out, '\n');
	buf_append(out, key, strlen(key));
	buf_push(out, '=');
	for (i = 0; i < len; i++) {
		buf_push(out, (uint8_t)hex[p[i] >> 4]);
		buf_push(out, (uint8_t)hex[p[i] & 15]);
	}
}

void
rich_add_str(struct buf *out, const char *key, const char *val)
{
	if (val != NULL)
		rich_add(out, key, val, strlen(val));
}

char *
rich_with_update(const char *rec, int64_t ts_ms)
{
	struct buf	 b = BUF_INIT;
	char		 v[24];

	snprintf(v, sizeof(v), "%lld", (long long)ts_ms);
	buf_append(&b, rec, strlen(rec));
	rich_add_str(&b, "upd", v);
	buf_push(&b, '\0');
	return (char *)b.p;
}

void
rich_other_record(uint32_t field, char *out, size_t olen)
{
	snprintf(out, olen, "%s\nfield=%u", type_names[RICH_OTHER], field);
}

/* The type named by the first line p[0..n), or RICH_NONE. */
static enum rich_type
type_of(const char *p, size_t n)
{
	size_t	 t;

	for (t = 1; t < NTYPES; t++)
		if (type_names[t] != NULL && strlen(type_names[t]) == n &&
		    memcmp(type_names[t], p, n) == 0)
			return (enum rich_type)t;
	return RICH_NONE;
}

/* Unescape src[0..n) into dst (room for n + 1); returns dst's end. */
static char *
unescape(const char *src, size_t n, char *dst)
{
	size_t	 i;

	for (i = 0; i < n; i++) {
		if (src[i] == '\\' && i + 1 < n) {
			i++;
			*dst++ = src[i] == 'n' ? '\n' : src[i];
		} else
			*dst++ = src[i];
	}
	*dst++ = '\0';
	return dst;
}

int
rich_parse(const char *text, size_t len, struct rich *out)
{
	const char	*p = text, *end = text + len, *nl, *eq;
	char		*w;

	memset(out, 0, sizeof(*out));
	if (text == NULL || len > RICH_REC_MAX)
		return WC_EPROTO;
	nl = memchr(p, '\n', len);
	if ((out->type = type_of(p, nl != NULL ? (size_t)(nl - p) : len)) ==
	    RICH_NONE)
		return WC_EPROTO;
	out->mem = w = xmalloc(len + 1);
	while (nl != NULL) {
		p = nl + 1;
		nl = memchr(p, '\n', (size_t)(end - p));
		eq = memchr(p, '=', (size_t)((nl != NULL ? nl : end) - p));
		if (eq == NULL || out->n == RICH_KV_MAX) {
			rich_release(out);
			return WC_EPROTO;
		}
		out->kv[out->n].key = w;
		w = unescape(p, (size_t)(eq - p), w);
		out->kv[out->n].val = w;
		w = unescape(eq + 1, (size_t)((nl != NULL ? nl : end) - eq - 1),
		    w);
		out->n++;
	}
	return 0;
}

void
rich_release(struct rich *r)
{
	if (r == NULL)
		return;
	free(r->mem);
	memset(r, 0, sizeof(*r));
}

const char *
rich_get(const struct rich *r, const char *key, size_t *from)
{
	size_t	 i;

	for (i = from != NULL ? *from : 0; i < r->n; i++)
		if (strcmp(r->kv[i].key, key) == 0) {
			if (from != NULL)
				*from = i + 1;
			return r->kv[i].val;
		}
	if (from != NULL)
		*from = r->n;
	return NULL;
}

bool
rich_osm_url(double lat, double lon, char *out, size_t olen)
{
	int	 n;

	if (olen > 0)
		out[0] = '\0';
	if (!isfinite(lat) || !isfinite(lon) || fabs(lat) > 90 ||
	    fabs(lon) > 180)
		return false;
	n = snprintf(out, olen, "https://www.openstreetmap.org/?mlat=%.6f&"
	    "mlon=%.6f#map=16/%.6f/%.6f", lat, lon, lat, lon);
	if (n < 0 || (size_t)n >= olen) {
		if (olen > 0)
			out[0] = '\0';
		return false;
	}
	return true;
}

/* --- in words --- */

/* Append the sanitised one-line s (NULL or "": nothing). */
static void
put_clean(struct buf *out, const char *s)
{
	if (s == NULL || s[0] == '\0')
		return;
	wc_sanitize(s, strlen(s), false, out);
	out->len--;	/* its NUL */
}

static void
put(struct buf *out, const char *s)
{
	buf_append(out, s, strlen(s));
}

static void
newline(struct buf *out)
{
	if (out->len > 0)
		buf_push(out, '\n');
}

/* "LAT, LON" and the link, from r's lat and lon; nothing when bad. */
static void
coords(const struct rich *r, bool link, struct buf *out)
{
	const char	*la = rich_get(r, "lat", NULL);
	const char	*lo = rich_get(r, "lon", NULL);
	char		 url[160], line[64];
	double		 lat, lon;
	char		*e1, *e2;

	if (la == NULL || lo == NULL)
		return;
	lat = strtod(la, &e1);
	lon = strtod(lo, &e2);
	if (*e1 != '\0' || *e2 != '\0' || !rich_osm_url(lat, lon, url,
	    sizeof(url)))
		return;
	snprintf(line, sizeof(line), "%.6f, %.6f", lat, lon);
	newline(out);
	put(out, line);
	if (link) {
		newline(out);
		put(out, url);
	}
}

/* HH:MM of the unix ms in s, local time, into out[16]; false if bad. */
static bool
clock_of(const char *s, char out[16])
{
	char		*e;
	long long	 ms = s != NULL ? strtoll(s, &e, 10) : 0;
	time_t		 t;
	struct tm	 tm;

	if (s == NULL || *e != '\0' || ms <= 0)
		return false;
	t = (time_t)(ms / 1000);
	if (localtime_r(&t, &tm) == NULL)
		return false;
	return strftime(out, 16, "%H:%M", &tm) > 0;
}

static void
location(const struct rich *r, bool link, struct buf *out)
{
	const char	*name = rich_get(r, "name", NULL);

	put(out, _("Location"));
	if (name != NULL && name[0] != '\0') {
		put(out, ": ");
		put_clean(out, name);
	}
	if ((name = rich_get(r, "addr", NULL)) != NULL && name[0] != '\0') {
		newline(out);
		put_clean(out, name);
	}
	if ((name = rich_get(r, "comment", NULL)) != NULL && name[0] != '\0') {
		newline(out);
		put_clean(out, name);
	}
	coords(r, link, out);
}

static void
live(const struct rich *r, bool link, struct buf *out)
{
	const char	*cap = rich_get(r, "caption", NULL);
	char		 hm[16], line[128];

	if (clock_of(rich_get(r, "upd", NULL), hm))
		snprintf(line, sizeof(line), _("Live location (live, "
		    "updated %s)"), hm);
	else
		snprintf(line, sizeof(line), "%s", _("Live location (live)"));
	put(out, line);
	if (cap != NULL && cap[0] != '\0') {
		newline(out);
		put_clean(out, cap);
	}
	coords(r, link, out);
}

static void
contacts(const struct rich *r, bool utf8, struct buf *out)
{
	size_t		 i, ncards = 0, ntel = 0, t = 0;
	char		 line[128];

	for (i = 0; i < r->n; i++) {
		ncards += strcmp(r->kv[i].key, "card") == 0;
		ntel += strcmp(r->kv[i].key, "tel") == 0;
	}
	if (ncards > 1) {
		snprintf(line, sizeof(line), _("Contact cards (%zu):"),
		    ncards);
		put(out, line);
	}
	for (i = 0; i < r->n; i++) {
		const struct rich_kv *kv = &r->kv[i];

		if (strcmp(kv->key, "card") == 0) {
			newline(out);
			if (ncards == 1) {
				put(out, _("Contact card"));
				put(out, ": ");
			} else
				put(out, utf8 ? "• " : "* ");
			put_clean(out, kv->val[0] != '\0' ? kv->val :
			    _("(no name)"));
		} else if (strcmp(kv->key, "tel") == 0) {
			/* numbered when there is a choice (rich_numbers()) */
			if (ntel > 1)
				snprintf(line, sizeof(line), "    %zu. ", ++t);
			else
				snprintf(line, sizeof(line), "    ");
			newline(out);
			put(out, line);
			put_clean(out, kv->val);
		}
	}
}

static void
preview(const struct rich *r, bool utf8, struct buf *out)
{
	const char	*t = rich_get(r, "text", NULL);
	const char	*bar = utf8 ? "▎ " : "> ";

	if (t != NULL && t[0] != '\0') {
		wc_sanitize(t, strlen(t), true, out);
		out->len--;	/* its NUL */
	}
	if ((t = rich_get(r, "title", NULL)) != NULL && t[0] != '\0') {
		newline(out);
		put(out, bar);
		put_clean(out, t);
	}
	if ((t = rich_get(r, "desc", NULL)) != NULL && t[0] != '\0') {
		newline(out);
		put(out, bar);
		put_clean(out, t);
	}
}

static const char *
viewonce_words(const struct rich *r)
{
	const char	*m = rich_get(r, "media", NULL);

	if (m == NULL)
		m = "";
	if (strcmp(m, "image") == 0)
		return _("View once photo");
	if (strcmp(m, "video") == 0)
		return _("View once video");
	if (strcmp(m, "ptt") == 0)
		return _("View once voice message");
	if (strcmp(m, "audio") == 0)
		return _("View once audio");
	return _("View once message");
}

static uint32_t
field_of(const struct rich *r)
{
	const char	*f = rich_get(r, "field", NULL);
	char		*e;
	unsigned long	 v = f != NULL ? strtoul(f, &e, 10) : 0;

	return f != NULL && *e == '\0' && v <= UINT32_MAX ? (uint32_t)v : 0;
}

int
rich_describe(const char *text, size_t len, bool utf8, bool link,
    struct buf *out)
{
	struct rich	 r;
	struct buf	 b = BUF_INIT;

	if (rich_parse(text, len, &r) != 0)
		return WC_EPROTO;
	switch (r.type) {
	case RICH_LOCATION:
		location(&r, link, &b);
		break;
	case RICH_LIVE:
		live(&r, link, &b);
		break;
	case RICH_CONTACTS:
		contacts(&r, utf8, &b);
		break;
	case RICH_PREVIEW:
		preview(&r, utf8, &b);
		break;
	case RICH_VIEWONCE:
		put(&b, viewonce_words(&r));
		if (rich_get(&r, "opened", NULL) != NULL) {
			put(&b, utf8 ? " \xc2\xb7 " : " - ");	/* a middle
								 * dot */
			put(&b, _("opened"));
		}
		break;
	case RICH_POLL:
		rich_poll_words(&r, utf8, &b);
		break;
	case RICH_OTHER:
	case RICH_NONE:
		put(&b, rich_other_words(field_of(&r)));
		break;
	}
	buf_append(out, b.p, b.len);
	buf_release(&b);
	rich_release(&r);
	return 0;
}

int
rich_summary(const char *text, size_t len, struct buf *out)
{
	struct buf	 b = BUF_INIT;
	const char	*nl;
	int		 rc;

	if ((rc = rich_describe(text, len, true, false, &b)) != 0)
		return rc;
	nl = b.len > 0 ? memchr(b.p, '\n', b.len) : NULL;
	buf_append(out, b.p, nl != NULL ? (size_t)(nl - (const char *)b.p) :
	    b.len);
	buf_release(&b);
	return 0;
}

size_t
rich_numbers(const struct rich *r)
{
	size_t	 i, n = 0;

	for (i = 0; r->type == RICH_CONTACTS && i < r->n; i++)
		n += strcmp(r->kv[i].key, "tel") == 0;
	return n;
}

bool
rich_number(const struct rich *r, size_t want, char *out, size_t olen)
{
	size_t		 i, n = 0, o = 0;
	const char	*v = NULL;

	if (olen == 0)
		return false;
	out[0] = '\0';
	for (i = 0; r->type == RICH_CONTACTS && i < r->n && v == NULL; i++)
		if (strcmp(r->kv[i].key, "tel") == 0 && ++n == want) {
			v = r->kv[i].val;
			if (i + 1 < r->n && strcmp(r->kv[i + 1].key, "waid") == 0)
				v = r->kv[i + 1].val;
		}
	for (; v != NULL && *v != '\0'; v++)
		if (*v >= '0' && *v <= '9') {
			if (o + 1 >= olen) {
				out[0] = '\0';
				return false;
			}
			out[o++] = *v;
		}
	out[o] = '\0';
	return o > 0;
}

/* What each Message field wachat does not show is, in the user's
 * words (protocol-features.md 1.6, 3; proto/msg.c names them). */
static const struct {
	uint32_t	 field;
	const char	*words;
} others[] = {
	{ 10, N_("A call message (wachat cannot show it yet)") },
	{ 14, N_("A business template message (wachat cannot show it yet)") },
	{ 16, N_("A payment (wachat cannot show payments)") },
	{ 22, N_("A payment request (wachat cannot show payments)") },
	{ 23, N_("A declined payment request") },
	{ 24, N_("A cancelled payment request") },
	{ 25, N_("A business template message (wachat cannot show it yet)") },
	{ 28, N_("An invitation to join a group (wachat cannot show it yet)") },
	{ 29, N_("An answer to a business message's button") },
	{ 30, N_("A product from a business catalogue (wachat cannot show "
	    "it yet)") },
	{ 36, N_("A list to choose from (wachat cannot show it yet)") },
	{ 38, N_("An order (wachat cannot show it yet)") },
	{ 39, N_("An answer to a list") },
	{ 41, N_("An invoice (wachat cannot show it yet)") },
	{ 42, N_("A message with buttons (wachat cannot show it yet)") },
	{ 43, N_("An answer to a message with buttons") },
	{ 44, N_("An invitation to payments (wachat cannot show payments)") },
	{ 45, N_("An interactive business message (wachat cannot show it "
	    "yet)") },
	{ 48, N_("An answer to an interactive business message") },
	{ 49, N_("A poll (wachat cannot show it yet)") },
	{ 50, N_("A vote in a poll (wachat cannot show it yet)") },
	{ 51, N_("A message kept in the chat") },
	{ 54, N_("A request for your phone number") },
	{ 56, N_("An encrypted reaction (wachat cannot show it yet)") },
	{ 60, N_("A poll (wachat cannot show it yet)") },
	{ 61, N_("A scheduled call (wachat cannot show it yet)") },
	{ 63, N_("A message was pinned or unpinned in the chat") },
	{ 64, N_("A poll (wachat cannot show it yet)") },
	{ 65, N_("A scheduled call was changed") },
	{ 69, N_("A call log entry") },
	{ 71, N_("A comment (wachat cannot show it yet)") },
	{ 75, N_("An event invitation (wachat cannot show it yet)") },
	{ 76, N_("An answer to an event invitation") },
	{ 77, N_("A comment (wachat cannot show it yet)") },
	{ 78, N_("An invitation to administer a channel") },
	{ 83, N_("An album of photos and videos (wachat cannot show it "
	    "yet)") },
	{ 86, N_("A sticker pack (wachat cannot show it yet)") },
	{ 87, N_("A mention in a status") },
	{ 88, N_("The results of a poll (wachat cannot show it yet)") },
	{ 93, N_("A poll (wachat cannot show it yet)") },
	{ 101, N_("A question (wachat cannot show it yet)") },
	{ 111, N_("A poll (wachat cannot show it yet)") },
	{ 114, N_("The results of a poll (wachat cannot show it yet)") },
};

const char *
rich_other_words(uint32_t field)
{
	size_t	 i;

	for (i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (others[i].field == field)
			return _(others[i].words);
	return _("A kind of message wachat cannot show yet");
}

/* --- a poll (RICH_POLL; protocol-features.md 3.1) --- */

/* Whether kv[i] starts the vote of voter. */
static bool
is_vote_of(const struct rich *r, size_t i, const char *voter)
{
	return strcmp(r->kv[i].key, "vote") == 0 &&
	    strcmp(r->kv[i].val, voter) == 0;
}

/* Whether kv[i] belongs to a vote (vote, by, pick). */
static bool
in_vote(const struct rich_kv *kv)
{
	return strcmp(kv->key, "vote") == 0 || strcmp(kv->key, "by") == 0 ||
	    strcmp(kv->key, "pick") == 0;
}

size_t
rich_poll_noptions(const struct rich *r)
{
	size_t	 i, n = 0;

	for (i = 0; r->type == RICH_POLL && i < r->n; i++)
		n += strcmp(r->kv[i].key, "opt") == 0;
	return n;
}

const char *
rich_poll_option(const struct rich *r, size_t k)
{
	size_t	 i, n = 0;

	for (i = 0; r->type == RICH_POLL && i < r->n; i++)
		if (strcmp(r->kv[i].key, "opt") == 0 && ++n == k)
			return r->kv[i].val;
	return NULL;
}

char *
rich_poll_vote(const char *rec, const char *voter, const char *by,
    const unsigned *picks, size_t n)
{
	struct rich	 r;
	struct buf	 b = BUF_INIT;
	size_t		 i, nopt;
	bool		 skip = false;
	char		 v[16];

	if (rec == NULL || voter == NULL || rich_parse(rec, strlen(rec),
	    &r) != 0)
		return NULL;
	if (r.type != RICH_POLL) {
		rich_release(&r);
		return NULL;
	}
	nopt = rich_poll_noptions(&r);
	rich_begin(&b, RICH_POLL);
	for (i = 0; i < r.n; i++) {
		if (strcmp(r.kv[i].key, "vote") == 0)
			skip = is_vote_of(&r, i, voter);
		else if (!in_vote(&r.kv[i]))
			skip = false;
		if (!skip)
			rich_add_str(&b, r.kv[i].key, r.kv[i].val);
	}
	if (n > 0) {
		rich_add_str(&b, "vote", voter);
		rich_add_str(&b, "by", by != NULL ? by : "");
		for (i = 0; i < n; i++)
			if (picks[i] >= 1 && picks[i] <= nopt) {
				snprintf(v, sizeof(v), "%u", picks[i]);
				rich_add_str(&b, "pick", v);
			}
	}
	rich_release(&r);
	buf_push(&b, '\0');
	return (char *)b.p;
}

/* --- a poll in words --- */

/* The name of the voter of the vote at kv[i] (its by, else its
 * number; "You" for ours). */
static void
voter_name(const struct rich *r, size_t i, struct buf *out)
{
	const char	*jid = r->kv[i].val, *at;
	char		 num[64];

	if (jid[0] == '\0') {
		put(out, _("You"));
		return;
	}
	if (i + 1 < r->n && strcmp(r->kv[i + 1].key, "by") == 0 &&
	    r->kv[i + 1].val[0] != '\0') {
		put_clean(out, r->kv[i + 1].val);
		return;
	}
	at = strchr(jid, '@');
	snprintf(num, sizeof(num), "%s%.*s", at != NULL && strcmp(at,
	    "@s.whatsapp.net") == 0 ? "+" : "", (int)(at != NULL ?
	    (size_t)(at - jid) : strlen(jid)), jid);
	put_clean(out, num);
}

/* How many voters chose option k, and their names ", "-separated into
 * names (when not NULL). */
static size_t
tally(const struct rich *r, unsigned k, struct buf *names)
{
	size_t	 i, n = 0, voter = 0;
	bool	 have = false;
	char	 v[16];

	snprintf(v, sizeof(v), "%u", k);
	for (i = 0; i < r->n; i++) {
		if (strcmp(r->kv[i].key, "vote") == 0) {
			voter = i;
			have = true;
		} else if (have && strcmp(r->kv[i].key, "pick") == 0 &&
		    strcmp(r->kv[i].val, v) == 0) {
			if (names != NULL && n > 0)
				put(names, ", ");
			if (names != NULL)
				voter_name(r, voter, names);
			n++;
		}
	}
	return n;
}

void
rich_poll_words(const struct rich *r, bool utf8, struct buf *out)
{
	const char	*sel = rich_get(r, "sel", NULL);
	struct buf	 names = BUF_INIT;
	size_t		 i, k = 0, n;
	char		 line[64];

	put(out, _("Poll"));
	put(out, ": ");
	put_clean(out, rich_get(r, "q", NULL));
	buf_push(out, '\n');
	put(out, sel != NULL && strcmp(sel, "1") == 0 ? _("(one answer)") :
	    _("(one or more answers)"));
	for (i = 0; i < r->n; i++) {
		if (strcmp(r->kv[i].key, "opt") != 0)
			continue;
		k++;
		names.len = 0;
		n = tally(r, (unsigned)k, &names);
		snprintf(line, sizeof(line), "\n  %zu. ", k);
		put(out, line);
		put_clean(out, r->kv[i].val);
		snprintf(line, sizeof(line), utf8 ? " — %zu" : " - %zu", n);
		put(out, line);
		if (n > 0) {
			put(out, " (");
			buf_append(out, names.p, names.len);
			put(out, ")");
		}
	}
	buf_release(&names);
}
