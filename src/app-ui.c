/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-ui.c -- the main thread of the composition root
 * (src/app-int.h): the events from the engine, each to the curses screen
 * (ui/screen.h) or to the line printer (src/app-print.c); the screen's
 * start and stop with its keys, resizes and redraw timer; the commands
 * the screen hands over, pushed to the engine.  Main thread.
 */
#include "base/compat.h"

#define LOG_TAG	"ui"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>

#include <uv.h>

#include "base/buf.h"
#include "base/err.h"
#include "base/event.h"
#include "base/i18n.h"
#include "base/log.h"
#include "base/sanitize.h"
#include "base/xmalloc.h"
#include "src/app-int.h"
#include "src/evq.h"
#include "ui/screen.h"
#include "ui/thumb.h"

static void
close_cb(uv_handle_t *h)
{
	(void)h;
}

/* The screen goes with wachat: what made it stop by itself is said
 * again on the terminal after it. */
static void
last_words(struct app *a, const struct ev *ev)
{
	char	 words[512];

	if (a->screen == NULL)
		return;
	if (ev->kind == EV_LOGGED_OUT) {
		snprintf(words, sizeof(words), _("logged out: %s; run "
		    "wachat again to link it anew"), ev->u.logged_out.why);
		free(a->last_words);
		a->last_words = xstrdup(words);
	} else if (ev->kind == EV_STOPPED && !a->quit_sent &&
	    a->last_words == NULL && (ev->u.stopped.why[0] != '\0' ||
	    ev->u.stopped.err != 0)) {
		snprintf(words, sizeof(words), _("stopped: %s"),
		    ev->u.stopped.why[0] != '\0' ? ev->u.stopped.why :
		    wc_strerror(ev->u.stopped.err));
		a->last_words = xstrdup(words);
	}
}

static void	push_cmd(void *arg, struct cmd *c);

/* The job's why: text, sanitised to one line. */
static void
job_words(struct app_job *j, const char *text)
{
	struct buf	 b = BUF_INIT;

	wc_sanitize(text, strlen(text), false, &b);
	snprintf(j->why, sizeof(j->why), "%s", (const char *)b.p);
	buf_release(&b);
}

/* An event while a job runs: nothing shown; a QR code or a logout ends
 * it (no link is made for a job), a lost connection's words are kept. */
static void
job_event(struct app *a, const struct ev *ev)
{
	switch (ev->kind) {
	case EV_QR:
	case EV_PAIR_CODE:
		a->job->unlinked = true;
		app_ui_quit(a);
		break;
	case EV_LOGGED_OUT:
		job_words(a->job, ev->u.logged_out.why);
		app_ui_quit(a);
		break;
	case EV_DISCONNECTED:
		job_words(a->job, ev->u.disconnected.why);
		break;
	case EV_CONNECTED:
		a->job->why[0] = '\0';
		break;
	default:
		break;
	}
	if (a->job->event != NULL)
		a->job->event(a->job->arg, ev);
}

static void
on_job(uv_timer_t *t)
{
	struct app	*a = t->data;
	int		 st;

	if (a->quit_sent)
		return;
	if ((st = a->job->poll(a->job->arg)) != APP_JOB_PENDING) {
		a->job->status = st;
		app_ui_quit(a);
	}
}

void
app_ui_start_job(struct app *a)
{
	uv_timer_init(&a->ui_loop, &a->job_timer);
	a->job_timer.data = a;
	if (a->job->cmd != NULL) {
		push_cmd(a, a->job->cmd);	/* queued until the engine runs */
		a->job->cmd = NULL;
	}
	uv_timer_start(&a->job_timer, on_job, 0, APP_JOB_POLL_MS);
}

/* EV_STOPPED: the engine is done; the main loop's handles close. */
static void
stopped(struct app *a, const struct ev *ev, struct evq *q)
{
	a->stopped = true;
	app_notify_stop(a);
	/* Asked to quit and stopped cleanly: success. */
	a->status = a->quit_sent && ev->u.stopped.err == 0 ? EXIT_SUCCESS :
	    a->db_status != 0 ? a->db_status : EXIT_FAILURE;
	uv_close((uv_handle_t *)&a->sigint, close_cb);
	uv_close((uv_handle_t *)&a->sigterm, close_cb);
	uv_close((uv_handle_t *)&a->sighup, close_cb);
	if (a->job != NULL) {
		uv_close((uv_handle_t *)&a->job_timer, close_cb);
		if (!a->quit_sent && (ev->u.stopped.why[0] != '\0' ||
		    ev->u.stopped.err != 0))
			job_words(a->job, ev->u.stopped.why[0] != '\0' ?
			    ev->u.stopped.why : wc_strerror(ev->u.stopped.err));
	}
	if (a->screen != NULL) {
		uv_close((uv_handle_t *)&a->keys, close_cb);
		uv_close((uv_handle_t *)&a->sigwinch, close_cb);
		uv_close((uv_handle_t *)&a->sigtstp, close_cb);
		uv_close((uv_handle_t *)&a->tick, close_cb);
	}
	evq_close(q);
}

void
app_ui_ready(struct evq *q, void *arg)
{
	struct app	*a = arg;
	struct ev	*ev;

	while (!a->stopped && (ev = evq_pop(q)) != NULL) {
		if (a->job != NULL)
			job_event(a, ev);
		else if (a->screen != NULL)
			ui_screen_apply(a->screen, ev);
		else
			app_print_ev(ev, a->draw_qr);
		last_words(a, ev);
		if (ev->kind == EV_STOPPED)
			stopped(a, ev, q);
		ev_free(ev);
	}
}

void
app_ui_quit(struct app *a)
{
	if (a->quit_sent)
		return;
	a->quit_sent = true;
	/* the open chat's draft first: the engine stores it, then stops */
	ui_screen_quitting(a->screen);
	(void)evq_push(&a->cmds, cmd_new(CMD_QUIT));
}

static void	on_tick(uv_timer_t *t);

/* Keys on stdin (curses screen only): the quit keys quit (q only before
 * linking); the chat screen's commands go out through push_cmd(). */
static void
on_keys(uv_poll_t *p, int status, int events)
{
	struct app	*a = p->data;
	struct cmd	*c;

	(void)events;
	if (status < 0) {
		log_warn("stdin: %s", wc_strerror(status));
		uv_poll_stop(p);
		return;
	}
	switch (ui_screen_key(a->screen)) {
	case UI_SCREEN_QUIT:
		log_info("quit key");
		app_ui_quit(a);
		break;
	case UI_SCREEN_PAIR_PHONE:
		log_info("link by phone-number code asked from the screen");
		c = cmd_new(CMD_PAIR_CODE);
		ev_set(&c->u.pair_code.phone, ui_screen_phone(a->screen));
		(void)evq_push(&a->cmds, c);
		/* an idle engine (the QR codes ran out) starts again for
		 * it; else this does nothing */
		(void)evq_push(&a->cmds, cmd_new(CMD_RECONNECT));
		break;
	case UI_SCREEN_RECONNECT:
		log_info("start again asked from the screen");
		(void)evq_push(&a->cmds, cmd_new(CMD_RECONNECT));
		break;
	case UI_SCREEN_NONE:
		break;
	}
	/* the next tick soon after a key: what waits on a pause in typing
	 * (the search as you type, ui/view.c) goes then, not a second on */
	if (!uv_is_closing((uv_handle_t *)&a->tick))
		uv_timer_start(&a->tick, on_tick, 160, 1000);
}

/* A command from the chat screen, to the engine (takes c). */
static void
push_cmd(void *arg, struct cmd *c)
{
	struct app	*a = arg;

	(void)evq_push(&a->cmds, c);
}

/* thumbnail-protocol as the screen draws it: auto decided by the
 * environment (ui/thumb.h ui_thumb_proto_pick()). */
static enum ui_thumb_proto
thumb_proto(enum conf_thumb_proto p)
{
	struct ui_thumb_env	 env;
	enum ui_thumb_proto	 asked = UI_THUMB_PROTO_AUTO;

	switch (p) {
	case CONF_THUMB_AUTO:		break;
	case CONF_THUMB_HALFBLOCKS:	asked = UI_THUMB_PROTO_HALFBLOCKS; break;
	case CONF_THUMB_KITTY:		asked = UI_THUMB_PROTO_KITTY; break;
	case CONF_THUMB_SIXEL:		asked = UI_THUMB_PROTO_SIXEL; break;
	case CONF_THUMB_ITERM2:		asked = UI_THUMB_PROTO_ITERM2; break;
	case CONF_THUMB_OFF:		asked = UI_THUMB_PROTO_OFF; break;
	}
	env.term = getenv("TERM");
	env.term_program = getenv("TERM_PROGRAM");
	env.kitty_window_id = getenv("KITTY_WINDOW_ID");
	env.tmux = getenv("TMUX");
	env.sty = getenv("STY");
	env.ssh = getenv("SSH_CONNECTION") != NULL ?
	    getenv("SSH_CONNECTION") : getenv("SSH_TTY");
	return ui_thumb_proto_pick(asked, &env);
}

int
app_ui_view_opts(const struct conf *c, struct ui_view_opts *o)
{
	const char	*why;
	int		 i, rc = 0;

	ui_view_opts_default(o);
	o->enter_sends = c->enter_sends;
	o->read_receipts = c->read_receipts;
	o->peek = c->peek;
	o->send_typing = c->send_typing;
	o->clipboard = c->clipboard;
	/* the Linux console prints OSC 8 instead of reading it */
	o->hyperlinks = c->hyperlinks && (getenv("TERM") == NULL ||
	    strcmp(getenv("TERM"), "linux") != 0);
	o->bell = c->bell;
	switch (c->notify_terminal) {
	case CONF_NOTIFY_NONE:
		o->notify_osc = UI_NOTIFY_OSC_NONE;
		break;
	case CONF_NOTIFY_OSC777:
		o->notify_osc = UI_NOTIFY_OSC_777;
		break;
	case CONF_NOTIFY_OSC9:
		o->notify_osc = UI_NOTIFY_OSC_9;
		break;
	case CONF_NOTIFY_OSC99:
		o->notify_osc = UI_NOTIFY_OSC_99;
		break;
	}
	o->in_tmux = getenv("TMUX") != NULL && getenv("TMUX")[0] != '\0';
	o->notify_preview = c->notify_preview;
	o->mouse = c->mouse;
	o->title = c->title;
	_Static_assert(CONF_THUMB_ROWS_MAX == UI_THUMB_ROWS_MAX &&
	    CONF_THUMB_ROWS_DEFAULT == UI_THUMB_ROWS_DEFAULT,
	    "thumbnail-rows: the settings' bounds are the screen's");
	o->thumbnail_rows = (int)c->thumbnail_rows;
	o->thumbnail_proto = (int)thumb_proto(c->thumbnail_protocol);
	if (o->thumbnail_proto == UI_THUMB_PROTO_OFF)
		o->thumbnail_rows = 0;
	for (i = 0; i < CONF_KEY_ACTIONS; i++) {
		if (c->keys[i] == NULL)
			continue;
		why = NULL;
		if (ui_keys_bind(&o->keys, conf_key_actions[i], c->keys[i],
		    &why) != 0) {
			fprintf(stderr, "wachat: key-%s: %s\n",
			    conf_key_actions[i], _(why));
			rc = -EINVAL;
		}
	}
	/* A key set for an action that another has too: one of the two
	 * could never run. */
	for (i = 0; rc == 0 && i < CONF_KEY_ACTIONS; i++) {
		int	 j;

		if (c->keys[i] == NULL ||
		    (j = ui_keys_clash(&o->keys, conf_key_actions[i])) < 0)
			continue;
		fprintf(stderr, _("wachat: key-%s: %s is also the key of %s "
		    "(bind that one to another key, or to none)\n"),
		    conf_key_actions[i], c->keys[i],
		    ui_keys_action_name((enum ui_key_action)j));
		rc = -EINVAL;
	}
	return rc;
}

static void
on_winch(uv_signal_t *s, int signum)
{
	struct app	*a = s->data;

	(void)signum;
	ui_screen_resize(a->screen);
}

/* stdin's file status flags as they were before the screen: the open
 * terminal is shared with the shell, which must not find it non-blocking
 * (its reads would fail with EAGAIN). */
static void
stdin_restore(struct app *a)
{
	if (a->stdin_flags >= 0)
		(void)fcntl(STDIN_FILENO, F_SETFL, a->stdin_flags);
}

/* Ctrl-z: the terminal given back (our modes off), stopped by SIGTSTP's
 * default action; on SIGCONT, taken again and redrawn. */
static void
on_tstp(uv_signal_t *s, int signum)
{
	struct app	*a = s->data;

	log_info("signal %d: stopping", signum);
	ui_screen_suspend(a->screen);
	stdin_restore(a);		/* the shell reads it meanwhile */
	uv_signal_stop(s);		/* SIGTSTP's default action again */
	(void)raise(SIGTSTP);		/* stopped here until SIGCONT */
	uv_signal_start(s, on_tstp, SIGTSTP);
	log_info("continued");
	if (a->stdin_flags >= 0)	/* as uv_poll_init() left it */
		(void)fcntl(STDIN_FILENO, F_SETFL, a->stdin_flags | O_NONBLOCK);
	ui_screen_resume(a->screen);
}

#define PICK_WORDS	16	/* words of a file-picker-command */

/* The file-picker-command's words into argv (in cmd, changed), "%f" in
 * a word made file (into the words' copies in own, freed by the
 * caller), file appended when no word names it.  Returns the count. */
static int
pick_words(char *cmd, const char *file, char **argv, struct buf *own)
{
	char	*w, *save = NULL, *at;
	int	 n = 0, i;
	bool	 named = false;
	size_t	 offs[PICK_WORDS + 1];
	int	 mark[PICK_WORDS + 1];

	for (w = strtok_r(cmd, " \t", &save); w != NULL && n < PICK_WORDS;
	    w = strtok_r(NULL, " \t", &save)) {
		mark[n] = 0;
		if ((at = strstr(w, "%f")) != NULL) {
			offs[n] = own->len;
			buf_append(own, w, (size_t)(at - w));
			buf_append(own, file, strlen(file));
			buf_append(own, at + 2, strlen(at + 2) + 1);
			mark[n] = 1;
			named = true;
		}
		argv[n++] = w;
	}
	if (!named && n > 0)
		argv[n++] = (char *)file;
	for (i = 0; i < n; i++)
		if (mark[i])
			argv[i] = (char *)own->p + offs[i];
	argv[n] = NULL;
	return n;
}

/* The picker's choice: the first line of file into out[size]. */
static int
pick_read(const char *file, char *out, size_t size)
{
	FILE	*f = fopen(file, "r");
	size_t	 n;

	if (f == NULL)
		return 0;
	if (fgets(out, (int)size, f) == NULL)
		out[0] = '\0';
	(void)fclose(f);
	n = strcspn(out, "\r\n");
	out[n] = '\0';
	return n > 0 ? 1 : 0;
}

/* The attach key with a file-picker-command (ui/view.h ui_view_pick_fn):
 * run with the terminal handed over (as Ctrl-z hands it to the shell),
 * waited for, its choice read from the %f file.  Main thread. */
static int
pick_file(void *arg, char *out, size_t size)
{
	struct app	*a = arg;
	struct buf	 own = BUF_INIT;
	char		 file[] = "/tmp/wachat-pick-XXXXXX", *cmd;
	char		*argv[PICK_WORDS + 2];
	int		 fd, st = 0, rc = -EINVAL;
	pid_t		 pid;

	if ((fd = mkstemp(file)) < 0)
		return -errno;
	(void)close(fd);
	cmd = xstrdup(a->conf->file_picker_command);
	if (pick_words(cmd, file, argv, &own) > 0) {
		ui_screen_suspend(a->screen);
		stdin_restore(a);
		if ((pid = fork()) == 0) {
			execvp(argv[0], argv);
			_exit(127);
		}
		rc = pid < 0 ? -errno : 0;
		while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (a->stdin_flags >= 0)
			(void)fcntl(STDIN_FILENO, F_SETFL, a->stdin_flags |
			    O_NONBLOCK);
		ui_screen_resume(a->screen);
		if (rc == 0 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
			rc = -ENOENT;
	}
	if (rc == 0)
		rc = pick_read(file, out, size);
	log_info("file-picker-command: %s", rc > 0 ? "a file chosen" :
	    rc == 0 ? "nothing chosen" : wc_strerror(rc));
	(void)unlink(file);
	buf_release(&own);
	free(cmd);
	return rc;
}

static void
on_tick(uv_timer_t *t)
{
	struct app	*a = t->data;

	ui_screen_render(a->screen);
}

void
app_ui_stop_screen(struct app *a)
{
	if (a->screen == NULL)
		return;
	if (!uv_is_closing((uv_handle_t *)&a->keys)) {
		uv_close((uv_handle_t *)&a->keys, close_cb);
		uv_close((uv_handle_t *)&a->sigwinch, close_cb);
		uv_close((uv_handle_t *)&a->sigtstp, close_cb);
		uv_close((uv_handle_t *)&a->tick, close_cb);
	}
	ui_screen_free(a->screen);
	a->screen = NULL;
	stdin_restore(a);
	a->stdin_flags = -1;
	if (a->saved_err >= 0) {
		(void)dup2(a->saved_err, STDERR_FILENO);
		(void)close(a->saved_err);
		a->saved_err = -1;
	}
}

/*
 * Take over the terminal when stdin and stdout are both one: keys from
 * stdin, resizes, a one-second redraw.
 */
void
app_ui_start_screen(struct app *a)
{
	int	 rc, fd;

	if (!isatty(STDIN_FILENO) || !a->draw_qr)
		return;
	if ((rc = ui_screen_new(&a->screen)) != 0) {
		log_warn("no curses screen: %s", wc_strerror(rc));
		return;
	}
	if (a->conf->notify_command != NULL)
		a->view.notify = app_notify_run;
	if (app_link_command(a->conf) != NULL)
		a->view.open_link = app_link_open;
	if (a->conf->file_picker_command != NULL)
		a->view.pick_file = pick_file;
	if (app_media_command(a->conf) != NULL)
		a->view.open_media = app_media_open;
	a->view.save_media = app_media_save;
	a->view.max_media_size = a->conf->max_media_size;
	a->view.notify_arg = a;
	ui_screen_attach(a->screen, &a->view, push_cmd, a);
	/* Libraries' stray lines on stderr (libwebsockets' notices) go to
	 * the log file, not across the screen. */
	if ((fd = open(a->conf->log_file, O_WRONLY | O_APPEND |
	    O_CLOEXEC)) >= 0) {
		if ((a->saved_err = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC,
		    3)) >= 0)
			(void)dup2(fd, STDERR_FILENO);
		(void)close(fd);
	}
	a->stdin_flags = fcntl(STDIN_FILENO, F_GETFL);
	if ((rc = uv_poll_init(&a->ui_loop, &a->keys, STDIN_FILENO)) != 0) {
		log_warn("uv_poll_init stdin: %s", wc_strerror(rc));
		stdin_restore(a);
		a->stdin_flags = -1;
		ui_screen_free(a->screen);
		a->screen = NULL;
		return;
	}
	a->keys.data = a->sigwinch.data = a->tick.data = a->sigtstp.data = a;
	uv_signal_init(&a->ui_loop, &a->sigwinch);
	uv_signal_init(&a->ui_loop, &a->sigtstp);
	uv_timer_init(&a->ui_loop, &a->tick);
	uv_poll_start(&a->keys, UV_READABLE, on_keys);
	uv_signal_start(&a->sigwinch, on_winch, SIGWINCH);
	uv_signal_start(&a->sigtstp, on_tstp, SIGTSTP);
	uv_timer_start(&a->tick, on_tick, 1000, 1000);
}
