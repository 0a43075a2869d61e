/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-notify.c -- notify-command and link-open-command (src/app-int.h):
 * a notification of
 * the chat screen (ui/view.h, ui_view_notify_fn) runs the user's command,
 * its words split at spaces (no shell), with the title and the body as
 * two more arguments: "notify-send -a wachat" runs notify-send -a wachat
 * TITLE BODY.  Its standard input, output and error are /dev/null (the
 * screen is curses'); at most APP_NOTIFY_MAX run at once, one more is
 * dropped with a log line; those still running at the end are sent
 * SIGTERM.  The log says the command ran and how it ended, never what it
 * said.  The open-link key (ui/view.h, ui_view_open_fn) runs
 * link-open-command likewise with the URL as one more argument (by
 * default xdg-open when there is a display), and the open key
 * (ui_view_opts.open_media) open-command with the file's path, detached
 * (its own session: a viewer outlives wachat, never sent SIGTERM).  The
 * save-as key's copy (ui_view_opts.save_media) is here too.  Main
 * thread.
 */
#include "base/compat.h"

#define LOG_TAG	"notify"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <uv.h>

#include "base/err.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "src/app-int.h"

#define WORDS_MAX	32	/* words of the command */

struct app_notify_proc {
	uv_process_t	 p;
	struct app	*a;
	int		 slot;
	bool		 detached;	/* left running at the end */
	char		*gone;		/* a file removed when it exits (a
					 * view-once one), or NULL */
};

/* Remove np's view-once file, if any. */
static void
drop_file(struct app_notify_proc *np)
{
	if (np->gone != NULL && unlink(np->gone) != 0 && errno != ENOENT)
		log_warn("a view-once file not removed: %s",
		    wc_strerror(-errno));
	free(np->gone);
	np->gone = NULL;
}

static void
closed(uv_handle_t *h)
{
	drop_file(h->data);
	free(h->data);
}

static void
exited(uv_process_t *p, int64_t status, int sig)
{
	struct app_notify_proc *np = p->data;

	if (status != 0 || sig != 0)
		log_info("notify-command ended: status %lld, signal %d",
		    (long long)status, sig);
	np->a->notify_procs[np->slot] = NULL;
	uv_close((uv_handle_t *)p, closed);
}

/* Run cmdline's words (split at spaces and tabs, no shell) with extra[0..
 * nextra) after them; what names the setting for the log.  0 started,
 * else -errno of the start (or -EBUSY: too many running). */
static int
run(struct app *a, const char *cmdline, const char *const *extra,
    int nextra, const char *what, bool detached, const char *gone)
{
	struct app_notify_proc	*np;
	uv_process_options_t	 o;
	uv_stdio_container_t	 io[3];
	char			*cmd, *w, *save = NULL, *argv[WORDS_MAX + 3];
	int			 n = 0, slot, rc, i;

	for (slot = 0; slot < APP_NOTIFY_MAX; slot++)
		if (a->notify_procs[slot] == NULL)
			break;
	if (slot == APP_NOTIFY_MAX) {
		log_warn("%s: %d still running, one dropped", what,
		    APP_NOTIFY_MAX);
		return -EBUSY;
	}
	cmd = xstrdup(cmdline);
	for (w = strtok_r(cmd, " \t", &save); w != NULL && n < WORDS_MAX;
	    w = strtok_r(NULL, " \t", &save))
		argv[n++] = w;
	if (n == 0) {
		free(cmd);
		return -ENOENT;
	}
	for (i = 0; i < nextra && i < 2; i++)
		argv[n++] = (char *)extra[i];
	argv[n] = NULL;
	memset(&o, 0, sizeof(o));
	memset(io, 0, sizeof(io));
	io[0].flags = io[1].flags = io[2].flags = UV_IGNORE;
	o.file = argv[0];
	o.args = argv;
	o.stdio = io;
	o.stdio_count = 3;
	o.exit_cb = exited;
	if (detached)
		o.flags = UV_PROCESS_DETACHED;
	np = xcalloc(1, sizeof(*np));
	np->a = a;
	np->slot = slot;
	np->detached = detached;
	np->gone = gone != NULL ? xstrdup(gone) : NULL;
	np->p.data = np;
	if ((rc = uv_spawn(&a->ui_loop, &np->p, &o)) != 0) {
		log_warn("%s %s: %s", what, argv[0], wc_strerror(rc));
		uv_close((uv_handle_t *)&np->p, closed);
	} else
		a->notify_procs[slot] = np;
	free(cmd);
	return rc;
}

void
app_notify_run(void *arg, const char *title, const char *body)
{
	struct app		*a = arg;
	const char *const	 extra[2] = { title, body };

	if (a->conf->notify_command != NULL)
		(void)run(a, a->conf->notify_command, extra, 2, "notify-command",
		    false, NULL);
}

const char *
app_link_command(const struct conf *c)
{
	const char	*d = getenv("DISPLAY"), *wd = getenv("WAYLAND_DISPLAY");

	if (c->link_open_command != NULL)
		return c->link_open_command;
	if ((d != NULL && d[0] != '\0') || (wd != NULL && wd[0] != '\0'))
		return "xdg-open";
	return NULL;
}

void
app_link_open(void *arg, const char *url)
{
	struct app	*a = arg;
	const char	*cmd = app_link_command(a->conf);

	if (cmd != NULL)
		(void)run(a, cmd, &url, 1, "link-open-command", false,
		    NULL);
}

const char *
app_media_command(const struct conf *c)
{
	const char	*d = getenv("DISPLAY"), *wd = getenv("WAYLAND_DISPLAY");

	if (c->open_command != NULL)
		return c->open_command;
	if ((d != NULL && d[0] != '\0') || (wd != NULL && wd[0] != '\0'))
		return "xdg-open";
	return NULL;
}

int
app_media_open(void *arg, const char *path)
{
	struct app	*a = arg;
	const char	*cmd = app_media_command(a->conf);

	bool		 once = app_viewonce_path(a->conf->data_dir, path);

	if (cmd != NULL)
		return run(a, cmd, &path, 1, "open-command", true, once ?
		    path : NULL);
	if (once)
		(void)unlink(path);
	return -ENOENT;
}

/* The copy of from's bytes into the new fd; 0 or -errno. */
static int
copy_fd(int in, int out)
{
	char	 b[65536];
	ssize_t	 n, w, off;

	while ((n = read(in, b, sizeof(b))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		for (off = 0; off < n; off += w)
			if ((w = write(out, b + off, (size_t)(n - off))) < 0) {
				if (errno != EINTR)
					return -errno;
				w = 0;
			}
	}
	return fsync(out) != 0 ? -errno : 0;
}

int
app_media_save(void *arg, const char *from, const char *to)
{
	const char	*home = getenv("HOME");
	char		 path[4096 + 64];
	int		 in, out, rc;

	(void)arg;
	if (to[0] == '~' && to[1] == '/' && home != NULL && home[0] != '\0')
		snprintf(path, sizeof(path), "%s%s", home, to + 1);
	else
		snprintf(path, sizeof(path), "%s", to);
	if ((in = open(from, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	/* O_EXCL: never over a file (nor through a link planted there) */
	if ((out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
	    0600)) < 0) {
		rc = -errno;
		(void)close(in);
		return rc;
	}
	rc = copy_fd(in, out);
	(void)close(in);
	if (close(out) != 0 && rc == 0)
		rc = -errno;
	if (rc != 0) {
		(void)unlink(path);
		log_warn("save-as: %s", wc_strerror(rc));
	}
	return rc;
}

void
app_notify_stop(struct app *a)
{
	int	 i;

	for (i = 0; i < APP_NOTIFY_MAX; i++) {
		struct app_notify_proc	*np = a->notify_procs[i];

		if (np == NULL)
			continue;
		if (!np->detached) {
			(void)uv_process_kill(&np->p, SIGTERM);
			continue;
		}
		a->notify_procs[i] = NULL;	/* it goes on by itself */
		uv_close((uv_handle_t *)&np->p, closed);
	}
}
