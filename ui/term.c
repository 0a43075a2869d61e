/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/term.c -- escape sequences written beside curses (ui/term.h): the
 * clipboard through OSC 52, hyperlinks through OSC 8, the URLs in a text.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <curses.h>

#include "base/buf.h"
#include "base/xmalloc.h"
#include "ui/term.h"

static void
put(struct buf *out, const char *s)
{
	buf_append(out, s, strlen(s));
}

size_t
ui_term_osc52(struct buf *out, const char *text, size_t len)
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "abcdefghijklmnopqrstuvwxyz0123456789+/";
	const unsigned char *p = (const unsigned char *)text;
	size_t		 i;
	uint32_t	 v;

	if (len > UI_TERM_COPY_MAX) {
		len = UI_TERM_COPY_MAX;
		while (len > 0 && (p[len] & 0xc0) == 0x80)
			len--;	/* not inside a character */
	}
	put(out, "\033]52;c;");
	for (i = 0; i + 2 < len; i += 3) {
		v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
		buf_push(out, (uint8_t)b64[v >> 18 & 63]);
		buf_push(out, (uint8_t)b64[v >> 12 & 63]);
		buf_push(out, (uint8_t)b64[v >> 6 & 63]);
		buf_push(out, (uint8_t)b64[v & 63]);
	}
	if (i < len) {
		v = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] <<
		    8 : 0);
		buf_push(out, (uint8_t)b64[v >> 18 & 63]);
		buf_push(out, (uint8_t)b64[v >> 12 & 63]);
		buf_push(out, i + 1 < len ? (uint8_t)b64[v >> 6 & 63] : '=');
		buf_push(out, '=');
	}
	put(out, "\033\\");
	return len;
}

/* A character a URL may hold (RFC 3986's unreserved, reserved and %). */
static bool
url_char(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || (c != '\0' &&
	    strchr("-._~:/?#[]@!$&'()*+,;=%", c) != NULL);
}

/* The length of the scheme "http://" or "https://" at t[0..len), or 0. */
static size_t
scheme(const char *t, size_t len)
{
	if (len >= 7 && strncasecmp(t, "http://", 7) == 0)
		return 7;
	if (len >= 8 && strncasecmp(t, "https://", 8) == 0)
		return 8;
	return 0;
}

/* The URL starting at t (its scheme of s bytes), trimmed: its length. */
static size_t
url_len(const char *t, size_t len, size_t s)
{
	size_t	 n = s, k;
	int	 open = 0;

	while (n < len && url_char((unsigned char)t[n]))
		n++;
	while (n > s && strchr(".,;:!?'\"", t[n - 1]) != NULL)
		n--;
	for (k = s; k < n; k++)
		open += t[k] == '(' ? 1 : t[k] == ')' ? -1 : 0;
	while (open < 0 && n > s && t[n - 1] == ')') {
		n--;	/* "(see http://x.org/a)" ends before the ')' */
		open++;
		while (n > s && strchr(".,;:!?'\"", t[n - 1]) != NULL)
			n--;
	}
	return n;
}

bool
ui_term_next_url(const char *t, size_t len, size_t from, size_t *off,
    size_t *n)
{
	size_t	 i, s, u;

	for (i = from; i < len; i++) {
		if ((t[i] != 'h' && t[i] != 'H') ||
		    (s = scheme(t + i, len - i)) == 0)
			continue;
		/* a word's start: not "xhttp://" */
		if (i > 0 && url_char((unsigned char)t[i - 1]))
			continue;
		u = url_len(t + i, len - i, s);
		if (u > s && u <= UI_TERM_URL_MAX) {
			*off = i;
			*n = u;
			return true;
		}
		i += u > 0 ? u - 1 : 0;
	}
	return false;
}

void
ui_term_links_clear(struct ui_term_links *l)
{
	size_t	 i;

	for (i = 0; i < l->n; i++) {
		free(l->v[i].text);
		free(l->v[i].url);
	}
	l->n = 0;
}

/* Whether p[0..len) is all URL characters (nothing a terminal would
 * read as a control), 1 to UI_TERM_URL_MAX of them. */
static bool
url_safe(const char *p, size_t len)
{
	size_t	 i;

	if (len == 0 || len > UI_TERM_URL_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!url_char((unsigned char)p[i]))
			return false;
	return true;
}

static char *
copy(const char *p, size_t len)
{
	char	*s = xmalloc(len + 1);

	memcpy(s, p, len);
	s[len] = '\0';
	return s;
}

void
ui_term_links_add(struct ui_term_links *l, int y, int x, const char *text,
    size_t len, const char *url, size_t url_len)
{
	struct ui_term_link *k;

	if (l->n >= UI_TERM_LINKS_MAX || !url_safe(text, len) ||
	    !url_safe(url, url_len) || y < 0 || x < 0)
		return;
	k = &l->v[l->n++];
	k->y = y;
	k->x = x;
	k->text = copy(text, len);
	k->url = copy(url, url_len);
}

void
ui_term_frame_release(struct ui_term_frame *f)
{
	free(f->rows);
	f->rows = NULL;
	f->nrows = f->ncols = 0;
	ui_term_links_clear(&f->shown);
}

/* FNV-1a over row y of the screen as curses has it: each cell's
 * characters, attributes and colour pair. */
static uint64_t
row_digest(int y, int cols)
{
	uint64_t	 h = 0xcbf29ce484222325ULL;
	cchar_t		 c;
	wchar_t		 wc[CCHARW_MAX + 1];
	attr_t		 a;
	short		 pair;
	int		 x, i;

	for (x = 0; x < cols; x++) {
		if (mvwin_wch(curscr, y, x, &c) == ERR ||
		    getcchar(&c, wc, &a, &pair, NULL) == ERR)
			continue;
		for (i = 0; i < CCHARW_MAX && wc[i] != L'\0'; i++)
			h = (h ^ (uint64_t)wc[i]) * 0x100000001b3ULL;
		h = (h ^ (uint64_t)a) * 0x100000001b3ULL;
		h = (h ^ (uint64_t)(unsigned short)pair) * 0x100000001b3ULL;
	}
	return h;
}

static bool
same_links(const struct ui_term_links *a, const struct ui_term_links *b)
{
	size_t	 i;

	if (a->n != b->n)
		return false;
	for (i = 0; i < a->n; i++)
		if (a->v[i].y != b->v[i].y || a->v[i].x != b->v[i].x ||
		    strcmp(a->v[i].text, b->v[i].text) != 0 ||
		    strcmp(a->v[i].url, b->v[i].url) != 0)
			return false;
	return true;
}

/* Take the digests of the screen now; whether a row under the status
 * line changed (or the size). */
static bool
rows_changed(struct ui_term_frame *f)
{
	bool		 changed = f->nrows != LINES || f->ncols != COLS;
	uint64_t	 h;
	int		 y;

	if (changed) {
		free(f->rows);
		f->rows = xcalloc((size_t)LINES, sizeof(*f->rows));
		f->nrows = LINES;
		f->ncols = COLS;
	}
	for (y = 0; y < f->nrows; y++) {
		h = row_digest(y, f->ncols);
		if (y > 0 && h != f->rows[y])
			changed = true;
		f->rows[y] = h;
	}
	return changed;
}

void
ui_term_links_write(struct ui_term_frame *f, const struct ui_term_links *now)
{
	struct buf	 out = BUF_INIT;
	char		 cup[32];
	size_t		 i;
	int		 cy, cx;
	bool		 changed = rows_changed(f);

	if (!changed && same_links(now, &f->shown))
		return;
	ui_term_links_clear(&f->shown);
	for (i = 0; i < now->n; i++) {
		const struct ui_term_link *k = &now->v[i];

		snprintf(cup, sizeof(cup), "\033[%d;%dH", k->y + 1, k->x + 1);
		put(&out, cup);
		put(&out, "\033[0;4m\033]8;;");
		put(&out, k->url);
		put(&out, "\033\\");
		put(&out, k->text);
		put(&out, "\033]8;;\033\\\033[0m");
		ui_term_links_add(&f->shown, k->y, k->x, k->text,
		    strlen(k->text), k->url, strlen(k->url));
	}
	if (out.len > 0) {
		/* curses' cursor where curses believes it is */
		getyx(curscr, cy, cx);
		snprintf(cup, sizeof(cup), "\033[%d;%dH", cy + 1, cx + 1);
		put(&out, cup);
	}
	ui_term_flush(&out);
	buf_release(&out);
}

void
ui_term_flush(struct buf *out)
{
	size_t	 done = 0;
	ssize_t	 w;

	while (done < out->len) {
		w = write(STDOUT_FILENO, out->p + done, out->len - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	out->len = 0;
}
