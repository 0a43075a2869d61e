/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app.c -- the composition root (src/app.h): app_run() sets up the
 * log, the two loops and the two queues between them (src/evq.h), starts
 * the engine thread (src/app-eng.c) and runs the main thread's loop
 * (src/app-ui.c) until the engine has stopped.  What each file of the
 * root holds: src/app-int.h.
 */
#include "base/compat.h"

/* Lines from the main thread are tagged "ui", the engine thread's "eng". */
#define LOG_TAG	"ui"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <uv.h>

#include "base/err.h"
#include "base/event.h"
#include "base/i18n.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/conn.h"
#include "proto/crypto.h"
#include "src/app-int.h"
#include "src/app.h"
#include "src/conf.h"
#include "src/evq.h"
#include "ui/screen.h"

static void
free_ev(void *p)
{
	ev_free(p);
}

static void
free_cmd(void *p)
{
	cmd_free(p);
}

static void
close_cb(uv_handle_t *h)
{
	(void)h;
}

/* libwebsockets' log levels (LLL_*), for wa_conn_set_lws_log(). */
#define LWS_ERR		1
#define LWS_WARN	2
#define LWS_NOTICE	4

/* One line of libwebsockets' log, into ours (without its newline). */
static void
lws_line(int level, const char *line)
{
	size_t	 n = strlen(line);

	while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	log_write(level & LWS_ERR ? LOG_ERROR : level & LWS_WARN ? LOG_WARN :
	    LOG_INFO, "lws", "libwebsockets", "%.*s", (int)n, line);
}

static void
on_signal(uv_signal_t *s, int signum)
{
	struct app	*a = s->data;

	log_info("signal %d", signum);
	if (a->quit_sent) {
		/* Asked twice: the user will not wait for a clean stop. */
		log_warn("second signal: exiting at once");
		ui_screen_free(a->screen);
		_exit(EXIT_FAILURE);
	}
	app_ui_quit(a);
}

/* mkdir -p for the parents of path, each new one 0700. */
static void
make_parents(const char *path)
{
	char	*p = xstrdup(path), *s;

	for (s = strchr(p + 1, '/'); s != NULL; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(p, 0700) != 0 && errno != EEXIST)
			break;
		*s = '/';
	}
	free(p);
}

static int	run(const struct conf *, const char *, bool, struct app_job *);

int
app_run(const struct conf *c, const char *pair_pn, bool fresh_db)
{
	return run(c, pair_pn, fresh_db, NULL);
}

int
app_run_job(const struct conf *c, struct app_job *job)
{
	job->status = APP_JOB_PENDING;
	job->unlinked = false;
	job->why[0] = '\0';
	return run(c, NULL, false, job);
}

static int
run(const struct conf *c, const char *pair_pn, bool fresh_db,
    struct app_job *job)
{
	struct app	 a;
	int		 rc;

	memset(&a, 0, sizeof(a));
	a.job = job;
	a.conf = c;
	a.status = EXIT_FAILURE;
	a.lock_fd = -1;
	a.fresh_db = fresh_db;
	a.draw_qr = isatty(STDOUT_FILENO) == 1;
	a.saved_err = -1;
	a.stdin_flags = -1;
	if (app_ui_view_opts(c, &a.view) != 0)
		return EXIT_FAILURE;

	make_parents(c->log_file);
	if ((rc = log_open(c->log_file, c->log_level)) != 0) {
		fprintf(stderr, _("wachat: cannot open the log file %s: %s\n"),
		    c->log_file, wc_strerror(rc));
		return EXIT_FAILURE;
	}
	make_parents(c->data_dir);
	/* libwebsockets' own lines go to the log, never to the terminal. */
	wa_conn_set_lws_log(LWS_ERR | LWS_WARN | LWS_NOTICE, lws_line);
	if ((rc = wa_crypto_init()) != 0) {
		fprintf(stderr, _("wachat: cannot start the crypto library: "
		    "%s\n"), wc_strerror(rc));
		goto out_log;
	}
	if ((rc = uv_loop_init(&a.ui_loop)) != 0)
		goto fail;
	if ((rc = uv_loop_init(&a.eng_loop)) != 0)
		goto fail_ui;
	if ((rc = evq_init(&a.events, &a.ui_loop, free_ev, app_ui_ready,
	    &a)) != 0)
		goto fail_eng;
	if ((rc = evq_init(&a.cmds, &a.eng_loop, free_cmd, app_cmd_ready,
	    &a)) != 0) {
		evq_close(&a.events);
		goto fail_q;
	}
	uv_signal_init(&a.ui_loop, &a.sigint);
	uv_signal_init(&a.ui_loop, &a.sigterm);
	uv_signal_init(&a.ui_loop, &a.sighup);
	a.sigint.data = a.sigterm.data = a.sighup.data = &a;
	uv_signal_start(&a.sigint, on_signal, SIGINT);
	uv_signal_start(&a.sigterm, on_signal, SIGTERM);
	/* the terminal gone (an SSH session dropped): a clean stop too,
	 * the open chat's draft kept */
	uv_signal_start(&a.sighup, on_signal, SIGHUP);
	/* Queued before the engine starts: it asks for the code as soon as
	 * its loop runs. */
	if (pair_pn != NULL) {
		struct cmd	*pc = cmd_new(CMD_PAIR_CODE);

		ev_set(&pc->u.pair_code.phone, pair_pn);
		(void)evq_push(&a.cmds, pc);
	}
	/* The screen before the engine, so its first lines miss no stray
	 * stderr. */
	if (job == NULL)
		app_ui_start_screen(&a);
	else
		app_ui_start_job(&a);
	a.lines = a.screen == NULL;
	if ((rc = uv_thread_create(&a.thread, app_eng_thread, &a)) != 0) {
		log_error("uv_thread_create: %s", wc_strerror(rc));
		uv_close((uv_handle_t *)&a.sigint, close_cb);
		uv_close((uv_handle_t *)&a.sigterm, close_cb);
		uv_close((uv_handle_t *)&a.sighup, close_cb);
		if (job != NULL)
			uv_close((uv_handle_t *)&a.job_timer, close_cb);
		app_ui_stop_screen(&a);
		evq_close(&a.events);
		evq_close(&a.cmds);
		uv_run(&a.eng_loop, UV_RUN_DEFAULT);
		evq_release(&a.cmds);
		goto fail_q;
	}
	uv_run(&a.ui_loop, UV_RUN_DEFAULT);
	uv_thread_join(&a.thread);
	app_viewonce_sweep(c->data_dir);	/* no view-once file outlives us */
	app_ui_stop_screen(&a);
	if (a.last_words != NULL) {
		fprintf(stderr, "wachat: %s\n", a.last_words);
		free(a.last_words);
	}
	evq_release(&a.cmds);
	evq_release(&a.events);
	if ((rc = uv_loop_close(&a.ui_loop)) != 0) {
		log_error("the main loop has handles left: %s",
		    wc_strerror(rc));
		a.status = EXIT_FAILURE;
	}
	log_info("exit %d", a.status);
	log_close();
	return a.status;

fail_q:
	uv_run(&a.ui_loop, UV_RUN_DEFAULT);
	evq_release(&a.events);
fail_eng:
	(void)uv_loop_close(&a.eng_loop);
fail_ui:
	(void)uv_loop_close(&a.ui_loop);
fail:
	fprintf(stderr, _("wachat: cannot start: %s\n"), wc_strerror(rc));
out_log:
	log_close();
	return EXIT_FAILURE;
}
