/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/notify.c -- the bell, desktop notifications through the terminal
 * and the window title (ui/notify.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "base/buf.h"
#include "ui/notify.h"

static void
put(struct buf *out, const char *s)
{
	buf_append(out, s, strlen(s));
}

int
ui_notify_osc_parse(const char *word, enum ui_notify_osc *out)
{
	static const struct {
		const char		*word;
		enum ui_notify_osc	 osc;
	} words[] = {
		{ "none", UI_NOTIFY_OSC_NONE },
		{ "osc777", UI_NOTIFY_OSC_777 },
		{ "osc9", UI_NOTIFY_OSC_9 },
		{ "osc99", UI_NOTIFY_OSC_99 },
	};
	size_t	 i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(word, words[i].word) == 0) {
			*out = words[i].osc;
			return 0;
		}
	return -EINVAL;
}

/* The bytes of the UTF-8 character at s[0..len) (1 for a bad lead). */
static size_t
char_len(const unsigned char *s, size_t len)
{
	size_t	 n = s[0] < 0xc0 ? 1 : s[0] < 0xe0 ? 2 : s[0] < 0xf0 ? 3 : 4;
	size_t	 i;

	if (n > len)
		return 1;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 1;
	return n;
}

void
ui_notify_clean(const char *t, size_t len, size_t max, bool title,
    struct buf *out)
{
	const unsigned char *s = (const unsigned char *)t;
	size_t		 i = 0, n, start = out->len, ell = strlen("…");
	bool		 space = true;	/* no leading space */

	while (i < len) {
		n = char_len(s + i, len - i);
		/* a control character, a separator, a C1 control (U+0080 to
		 * U+009F: 0xc2 0x80..0x9f), a stray byte: a space */
		if (s[i] < 0x20 || s[i] == 0x7f || (title && s[i] == ';') ||
		    (n == 2 && s[i] == 0xc2 && s[i + 1] < 0xa0) ||
		    (n == 1 && s[i] >= 0x80)) {
			i += n;
			if (!space) {
				if (out->len - start + 1 + ell > max)
					break;
				buf_push(out, ' ');
			}
			space = true;
			continue;
		}
		if (s[i] == ' ' && space) {
			i++;
			continue;
		}
		/* room for the character and, if more follows, "…" */
		if (out->len - start + n + (i + n < len ? ell : 0) > max) {
			while (out->len > start && out->p[out->len - 1] == ' ')
				out->len--;
			put(out, "…");
			break;
		}
		buf_append(out, s + i, n);
		space = s[i] == ' ';
		i += n;
	}
	while (out->len > start && out->p[out->len - 1] == ' ')
		out->len--;
	buf_push(out, '\0');
	out->len--;
}

/* Append seq[0..len) to out, wrapped for tmux's passthrough when
 * in_tmux: ESC P tmux; then the sequence with each ESC doubled, ESC \. */
static void
wrapped(struct buf *out, const struct buf *seq, bool in_tmux)
{
	size_t	 i;

	if (!in_tmux) {
		buf_append(out, seq->p, seq->len);
		return;
	}
	put(out, "\033Ptmux;");
	for (i = 0; i < seq->len; i++) {
		if (seq->p[i] == 0x1b)
			buf_push(out, 0x1b);
		buf_push(out, seq->p[i]);
	}
	put(out, "\033\\");
}

void
ui_notify_osc(struct buf *out, enum ui_notify_osc osc, bool in_tmux,
    const char *title, const char *body)
{
	struct buf	 t = BUF_INIT, b = BUF_INIT, seq = BUF_INIT;

	if (osc == UI_NOTIFY_OSC_NONE)
		return;
	ui_notify_clean(title, strlen(title), UI_NOTIFY_TITLE_MAX, true, &t);
	ui_notify_clean(body, strlen(body), UI_NOTIFY_BODY_MAX, false, &b);
	switch (osc) {
	case UI_NOTIFY_OSC_777:
		put(&seq, "\033]777;notify;");
		buf_append(&seq, t.p, t.len);
		buf_push(&seq, ';');
		buf_append(&seq, b.p, b.len);
		put(&seq, "\033\\");
		break;
	case UI_NOTIFY_OSC_9:
		put(&seq, "\033]9;");
		buf_append(&seq, t.p, t.len);
		if (b.len > 0) {
			put(&seq, ": ");
			buf_append(&seq, b.p, b.len);
		}
		put(&seq, "\033\\");
		break;
	case UI_NOTIFY_OSC_99:
		/* i=1: the two parts are one notification; d=0: more follows */
		put(&seq, "\033]99;i=1:d=0;");
		buf_append(&seq, t.p, t.len);
		put(&seq, "\033\\\033]99;i=1:p=body;");
		buf_append(&seq, b.p, b.len);
		put(&seq, "\033\\");
		break;
	case UI_NOTIFY_OSC_NONE:
		break;
	}
	wrapped(out, &seq, in_tmux);
	buf_release(&t);
	buf_release(&b);
	buf_release(&seq);
}

void
ui_notify_bell(struct buf *out)
{
	buf_push(out, 0x07);
}

void
ui_notify_title(struct buf *out, unsigned unread)
{
	char	 s[64];

	if (unread == 0)
		snprintf(s, sizeof(s), "\033]2;wachat\033\\");
	else
		snprintf(s, sizeof(s), "\033]2;wachat (%u)\033\\", unread);
	put(out, s);
}

void
ui_notify_title_push(struct buf *out)
{
	put(out, "\033[22;0t");
}

void
ui_notify_title_pop(struct buf *out)
{
	put(out, "\033[23;0t");
}
