/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * ui/view-attach.c -- sending a file (issue 19; ui/view-int.h): the
 * attach key asks for a path (PROMPT_ATTACH: Tab completes a file name,
 * ~ is the home directory) or runs the file-picker-command through the
 * caller (ui_view_opts pick_file), then for a caption (PROMPT_CAPTION,
 * may be empty); the voice-note key asks for an Ogg Opus file's path
 * (PROMPT_VOICE) and sends it as a voice note.  Each pushes a
 * CMD_SEND_FILE to the open chat, a reply to the message being replied
 * to (the reply key's, as a text's).  The engine looks at the file: a
 * refusal comes back as EV_ERROR on the status line.
 */
#include "base/compat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/buf.h"
#include "base/i18n.h"
#include "base/media-text.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "ui/view-int.h"

#define TAB_SHOWN	6	/* names offered on the line at most */

/* The path typed, ~ expanded (malloc'd). */
static char *
expand(const char *typed)
{
	const char	*home = getenv("HOME");
	struct buf	 b = BUF_INIT;

	if (typed[0] == '~' && (typed[1] == '/' || typed[1] == '\0') &&
	    home != NULL) {
		buf_append(&b, home, strlen(home));
		typed++;
	}
	buf_append(&b, typed, strlen(typed));
	buf_push(&b, '\0');
	return (char *)b.p;
}

/* Send v->prompt.attach_path to the open chat with caption. */
static void
send_file(struct ui_view *v, const char *caption, bool ptt)
{
	struct ui_view_chat	*rc = &v->chat;
	struct cmd		*c;

	if (v->msgs.chat == NULL || v->prompt.attach_path == NULL)
		return;
	c = cmd_new_chat(CMD_SEND_FILE, v->msgs.chat);
	ev_set(&c->u.send_file.path, v->prompt.attach_path);
	ev_set(&c->u.send_file.caption, caption);
	ev_set(&c->u.send_file.quoted_id, rc->reply_id);
	ev_set(&c->u.send_file.quoted_sender, rc->reply_sender);
	ev_set(&c->u.send_file.quoted_text, rc->reply_text);
	c->u.send_file.ptt = ptt;
	ui_view_push(v, c);
	ui_view_chat_drop_reply(v);
	free(v->prompt.attach_path);
	v->prompt.attach_path = NULL;
	v->prompt.kind = PROMPT_NONE;
	v->msgs.scroll = 0;
	v->msgs.sel = -1;
}

/* The words of a refusal with a path or size in them (the prompt's err
 * points here until the next; the screen's thread only). */
static char	 why_buf[512];

/* Why the file at path cannot be sent (static or why_buf), or NULL: it
 * can. */
static const char *
refused(struct ui_view *v, const char *path)
{
	struct stat	 st;
	struct buf	 clean = BUF_INIT;
	char		 sz[32], cap[32];
	int		 fd, rc;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0) {
		if (errno != EACCES && errno != EPERM)
			return _("no such file");
		wc_sanitize(path, strlen(path), false, &clean);
		snprintf(why_buf, sizeof(why_buf),
		    _("permission denied: %s"), (const char *)clean.p);
		buf_release(&clean);
		return why_buf;
	}
	rc = fstat(fd, &st);
	(void)close(fd);
	if (rc != 0 || !S_ISREG(st.st_mode))
		return _("not a file");
	if (st.st_size == 0)
		return _("the file is empty");
	if (v->o.max_media_size == 0 ||
	    (uint64_t)st.st_size <= v->o.max_media_size)
		return NULL;
	media_size((int64_t)st.st_size, sz, sizeof(sz));
	media_size((int64_t)v->o.max_media_size, cap, sizeof(cap));
	snprintf(why_buf, sizeof(why_buf),
	    _("too big: %s, over max-media-size (%s)"), sz, cap);
	return why_buf;
}

/* A path chosen (borrowed): on to the caption, or a voice note sent. */
static void
chosen(struct ui_view *v, const char *path, bool ptt)
{
	const char	*why;

	free(v->prompt.attach_path);
	v->prompt.attach_path = expand(path);
	if ((why = refused(v, v->prompt.attach_path)) != NULL) {
		v->prompt.err = why;
		return;
	}
	if (ptt) {
		send_file(v, "", true);
		return;
	}
	ui_view_prompt_start(v, PROMPT_CAPTION);
}

/* The attach or voice-note key: the picker's choice, or the prompt. */
static void
attach(struct ui_view *v, bool ptt)
{
	char	 path[PATH_MAX];
	int	 rc;

	if (v->msgs.chat == NULL) {
		ui_view_note(v, _("open a chat first"));
		return;
	}
	if (!ptt && v->o.pick_file != NULL) {
		rc = v->o.pick_file(v->o.notify_arg, path, sizeof(path));
		if (rc == 1) {
			ui_view_prompt_start(v, PROMPT_ATTACH);
			chosen(v, path, false);
		} else if (rc < 0)
			ui_view_note(v, _("the file-picker-command did not "
			    "run"));
		return;		/* 0: nothing picked */
	}
	ui_view_prompt_start(v, ptt ? PROMPT_VOICE : PROMPT_ATTACH);
}

void
ui_view_attach(struct ui_view *v, int64_t now)
{
	(void)now;
	attach(v, false);
}

void
ui_view_voice(struct ui_view *v, int64_t now)
{
	(void)now;
	attach(v, true);
}

void
ui_view_attach_enter(struct ui_view *v)
{
	if (ui_input_is_empty(&v->prompt.in))
		return;
	chosen(v, v->prompt.in.text, v->prompt.kind == PROMPT_VOICE);
}

void
ui_view_caption_enter(struct ui_view *v)
{
	send_file(v, v->prompt.in.text, false);
}

/* ---- Tab: the file name completed ---- */

/* The longest start a and b share. */
static size_t
common(const char *a, const char *b)
{
	size_t	 n = 0;

	while (a[n] != '\0' && a[n] == b[n])
		n++;
	return n;
}

/* name kept among the TAB_SHOWN first in byte order in top[0..*k). */
static void
keep_first(char **top, int *k, const char *name)
{
	int	 i = *k;

	if (i == TAB_SHOWN && strcmp(name, top[i - 1]) >= 0)
		return;
	if (i == TAB_SHOWN)
		free(top[--i]);
	for (; i > 0 && strcmp(name, top[i - 1]) < 0; i--)
		top[i] = top[i - 1];
	top[i] = xstrdup(name);
	if (*k < TAB_SHOWN)
		(*k)++;
}

/* top[0..k) into shown (", " between, sanitised), then "+N more" for
 * the n - k not shown; top freed. */
static void
say_first(char **top, int k, int n, struct buf *shown)
{
	char	 more[64];
	int	 i;

	for (i = 0; i < k; i++) {
		struct buf	 clean = BUF_INIT;

		if (i > 0)
			buf_append(shown, ", ", 2);
		wc_sanitize(top[i], strlen(top[i]), false, &clean);
		buf_append(shown, clean.p, clean.len - 1);
		buf_release(&clean);
		free(top[i]);
	}
	if (n > k) {
		snprintf(more, sizeof(more), _(", +%d more"), n - k);
		buf_append(shown, more, strlen(more));
	}
}

/* The names in dir starting with base (no dot files unless base starts
 * with one): their count, the first TAB_SHOWN of them in byte order in
 * shown (", " between, "+N more" after), their longest shared start in
 * *best (malloc'd, NULL none), whether the only one is a directory in
 * *isdir. */
static int
matches(const char *dir, const char *base, struct buf *shown, char **best,
    bool *isdir)
{
	DIR		*d;
	struct dirent	*e;
	struct stat	 st;
	char		 full[PATH_MAX], *top[TAB_SHOWN];
	size_t		 bl = strlen(base);
	int		 n = 0, k = 0;

	*best = NULL;
	*isdir = false;
	if ((d = opendir(dir[0] != '\0' ? dir : ".")) == NULL)
		return 0;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, base, bl) != 0 ||
		    strcmp(e->d_name, ".") == 0 ||
		    strcmp(e->d_name, "..") == 0 ||
		    (e->d_name[0] == '.' && base[0] != '.'))
			continue;
		if (n++ == 0) {
			*best = xstrdup(e->d_name);
			snprintf(full, sizeof(full), "%s%s", dir, e->d_name);
			*isdir = stat(full[0] != '\0' ? full : ".", &st) ==
			    0 && S_ISDIR(st.st_mode);
		} else
			(*best)[common(*best, e->d_name)] = '\0';
		keep_first(top, &k, e->d_name);
	}
	(void)closedir(d);
	say_first(top, k, n, shown);
	if (n > 1)
		*isdir = false;
	return n;
}

/* Complete the last name of the path typed: the one file (a directory
 * gets its '/'), or the start the matches share, the matches said. */
static void
complete(struct ui_view *v)
{
	struct ui_input	*in = &v->prompt.in;
	struct buf	 shown = BUF_INIT, line = BUF_INIT;
	char		*path = expand(in->text), *slash, *base, *dir, *best;
	bool		 isdir;
	int		 n;

	slash = strrchr(path, '/');
	base = slash != NULL ? slash + 1 : path;
	dir = xstrdup(path);
	dir[base - path] = '\0';
	n = matches(dir, base, &shown, &best, &isdir);
	if (n == 0)
		v->prompt.err = _("no file name starts so");
	else {
		buf_append(&line, dir, strlen(dir));
		buf_append(&line, best, strlen(best));
		if (isdir)
			buf_push(&line, '/');
		buf_push(&line, '\0');
		ui_input_clear(in);
		if (ui_input_insert(in, (char *)line.p, line.len - 1) != 0)
			ui_input_clear(in);
	}
	if (n > 1) {
		buf_push(&shown, '\0');
		free(v->prompt.attach_names);
		v->prompt.attach_names = (char *)shown.p;
		shown.p = NULL;
	}
	buf_release(&shown);
	buf_release(&line);
	free(best);
	free(dir);
	free(path);
}

bool
ui_view_attach_key(struct ui_view *v, int k)
{
	free(v->prompt.attach_names);
	v->prompt.attach_names = NULL;
	if (k != '\t')
		return false;
	v->prompt.err = NULL;
	complete(v);
	return true;
}

const char *
ui_view_attach_words(struct ui_view *v, char *line, size_t size)
{
	if (v->prompt.attach_names != NULL) {
		snprintf(line, size, "%s", v->prompt.attach_names);
		return line;
	}
	switch (v->prompt.kind) {
	case PROMPT_ATTACH:
		return _("Send a file: its path (Tab completes), Enter goes on "
		    "to a caption, Esc goes back");
	case PROMPT_VOICE:
		return _("Send a voice note: an Ogg Opus file's path (Tab "
		    "completes), Enter sends it");
	case PROMPT_CAPTION:
		return _("A caption (may be empty), Enter sends the file, Esc "
		    "goes back");
	default:
		return NULL;
	}
}
