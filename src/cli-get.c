/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-get.c -- wachat media CHAT MESSAGE-ID [--out PATH] (src/cli.h;
 * doc/wachat.1, SUBCOMMANDS): a received message's file downloaded from
 * the shell with the engine's own code (proto/media-get.h through
 * CMD_MEDIA_GET): this process runs the engine as wachat send does
 * (app_run_job(), no screen), hands it the command and waits for its
 * EV_MEDIA_DL end.  With a wachat running on the data dir (it holds the
 * data dir's lock) nothing is done: that is said, with its pid.  The
 * file goes to download-dir under a free name, or to --out (never over
 * a file).  Main thread.  The words are not marked for translation, as
 * src/cli.c's.
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/event.h"
#include "base/log.h"
#include "base/media-text.h"
#include "base/sanitize.h"
#include "base/buf.h"
#include "src/app.h"
#include "src/app-spool.h"
#include "src/cli-db.h"
#include "src/cli-job.h"
#include "src/cli.h"
#include "src/conf.h"
#include "store/store.h"

#define TIMEOUT_DEFAULT_S	300
#define ID_MAX			256

struct get {
	char		 chat[STORE_JID_MAX + 1];
	char		 id[ID_MAX];
	char		 label[256];	/* CHAT as given, sanitised */
	const char	*out;		/* --out, or NULL */
	long		 timeout_s;
	int64_t		 until_ms;
	bool		 ended;
	enum ev_dl_state state;
	int		 err;
	bool		 retried;
	char		 path[4096];
};

/* The engine's events: the end of our download. */
static void
on_event(void *arg, const struct ev *ev)
{
	struct get			*g = arg;
	const struct ev_media_dl	*d = &ev->u.media_dl;

	if (ev->kind != EV_MEDIA_DL || d->state == EV_DL_DOWNLOADING ||
	    strcmp(d->id, g->id) != 0 || strcmp(d->chat, g->chat) != 0)
		return;
	g->ended = true;
	g->state = d->state;
	g->err = d->err;
	g->retried = d->retried;
	snprintf(g->path, sizeof(g->path), "%s", d->path);
}

/* The download's end as an exit status, said. */
static int
said(const struct get *g)
{
	struct buf	 b = BUF_INIT;

	switch (g->state) {
	case EV_DL_DONE:
		wc_sanitize(g->path, strlen(g->path), false, &b);
		printf("%s\n", (const char *)b.p);	/* only the path */
		fprintf(stderr, "wachat media: downloaded%s\n", g->retried ?
		    " (uploaded again by the phone)" : "");
		buf_release(&b);
		return CLI_OK;
	case EV_DL_CORRUPT:
	case EV_DL_LENGTH:
		fprintf(stderr, "wachat media: %s: nothing was kept\n",
		    g->state == EV_DL_CORRUPT ? "the file is corrupt (its "
		    "hashes do not match)" : "the file is corrupt (not its "
		    "declared length)");
		return CLI_MEDIA_CORRUPT;
	case EV_DL_EXPIRED:
		fprintf(stderr, "wachat media: the file is gone from the "
		    "server and the phone did not upload it again\n");
		return CLI_MEDIA_EXPIRED;
	case EV_DL_TOOBIG:
		fprintf(stderr, "wachat media: the file is over "
		    "max-media-size; nothing was asked for\n");
		return CLI_MEDIA_TOOBIG;
	case EV_DL_NO_MEDIA:
		fprintf(stderr, "wachat media: that message has no file to "
		    "download\n");
		return CLI_NOT_FOUND;
	default:
		break;
	}
	if (g->err == -EEXIST) {
		fprintf(stderr, "wachat media: a file is there already: not "
		    "replaced\n");
		return CLI_WRITE;
	}
	fprintf(stderr, "wachat media: the download failed: %s\n",
	    wc_strerror(g->err));
	return CLI_MEDIA_FAILED;
}

/* app_job's poll: APP_JOB_PENDING or the exit status. */
static int
poll_get(void *arg)
{
	struct get	*g = arg;

	if (g->ended)
		return said(g);
	if (cli_job_now_ms() >= g->until_ms) {
		fprintf(stderr, "wachat media: not downloaded within %ld s\n",
		    g->timeout_s);
		return CLI_MEDIA_FAILED;
	}
	return APP_JOB_PENDING;
}

/* Whether the message has media in the store; CLI_OK or a status. */
static int
has_media(const char *file, const char *data_dir, const struct get *g)
{
	struct store		*s;
	struct store_media	 m;
	char			 dir[4096];
	int			 rc, status;

	if ((status = cli_open_db_at(file, data_dir, &s, dir, sizeof(dir))) !=
	    CLI_OK)
		return status;
	memset(&m, 0, sizeof(m));
	if ((rc = store_viewonce_state(s, g->chat, g->id, NULL)) > 0) {
		store_close(s);
		fprintf(stderr, "wachat media: a view-once message cannot be "
		    "saved (open it once on the chat screen)\n");
		return CLI_MEDIA_VIEWONCE;
	}
	if (rc == 0 && (rc = store_media_get(s, g->chat, false, g->id, &m)) ==
	    0)
		rc = store_media_get(s, g->chat, true, g->id, &m);
	store_media_release(&m);
	status = rc > 0 ? CLI_OK : rc == 0 ? CLI_NOT_FOUND : cli_db_failed(s);
	store_close(s);
	if (status == CLI_NOT_FOUND)
		fprintf(stderr, "wachat media: no message with a file has "
		    "that id in %s\n", g->label);
	return status;
}

/* No wachat runs: this process runs the engine until the file is here. */
static int
run_own(struct get *g, const struct conf *c)
{
	struct app_job	 job;
	struct cmd	*cmd = cmd_new_chat(CMD_MEDIA_GET, g->chat);
	long		 pid = 0;
	int		 rc;

	ev_set(&cmd->u.media_get.id, g->id);
	ev_set(&cmd->u.media_get.out, g->out);
	memset(&job, 0, sizeof(job));
	job.poll = poll_get;
	job.event = on_event;
	job.cmd = cmd;
	job.arg = g;
	g->until_ms = cli_job_now_ms() + g->timeout_s * 1000;
	rc = app_run_job(c, &job);
	cmd_free(job.cmd);	/* not taken when the job did not start */
	if (job.status != APP_JOB_PENDING)
		return job.status;
	if (rc == APP_EXIT_LOCKED && app_spool_busy(c->data_dir, &pid)) {
		fprintf(stderr, "wachat media: a wachat (pid %ld) has this "
		    "data dir open; download there (its download key) or "
		    "quit it first\n", pid);
		return CLI_LOCKED;
	}
	if (job.unlinked) {
		fprintf(stderr, "wachat media: this data dir is not linked "
		    "(run wachat to link it)\n");
		return CLI_MEDIA_FAILED;
	}
	fprintf(stderr, "wachat media: stopped before the file was "
	    "downloaded%s%s%s\n", job.why[0] != '\0' ? " (" : "", job.why,
	    job.why[0] != '\0' ? ")" : "");
	return rc == APP_EXIT_DB || rc == APP_EXIT_DAMAGED ? rc :
	    CLI_MEDIA_FAILED;
}

/* --out and --timeout into g; CLI_OK or the usage said. */
static int
take_opts(struct get *g, const char *out, const char *t)
{
	char	*end;

	if (out != NULL && out[0] == '\0')
		return cli_job_usage("media", "--out: an empty path");
	if (out != NULL && access(out, F_OK) == 0) {
		fprintf(stderr, "wachat media: --out: a file is there "
		    "already: not replaced\n");
		return CLI_WRITE;
	}
	g->out = out;
	g->timeout_s = TIMEOUT_DEFAULT_S;
	if (t == NULL)
		return CLI_OK;
	errno = 0;
	g->timeout_s = strtol(t, &end, 10);
	if (errno != 0 || end == t || *end != '\0' || g->timeout_s < 1 ||
	    g->timeout_s > 86400)
		return cli_job_usage("media", "--timeout: not a count of "
		    "seconds (1 to 86400)");
	return CLI_OK;
}

int
cli_get_main(int argc, char **argv)
{
	static struct get	 g;
	struct conf_arg		*args;
	struct conf		 c;
	struct buf		 b = BUF_INIT;
	const char		*file = NULL, *out = NULL, *t = NULL;
	struct cli_opt		 opts[] = { { "config", &file },
				    { "out", &out }, { "timeout", &t } };
	char			**words;
	size_t			 nargs = 0, i;
	int			 nwords = 0, status;
	long			 pid = 0;
	bool			 conf_ok = false;

	memset(&g, 0, sizeof(g));
	args = calloc((size_t)argc + 1, sizeof(*args));
	words = calloc((size_t)argc + 1, sizeof(*words));
	if (args == NULL || words == NULL) {
		status = CLI_USAGE;
		goto out;
	}
	if ((status = cli_job_parse("media", argc, argv, opts, 3, args,
	    &nargs, words, &nwords)) != -1)
		goto out;
	if (nwords != 2 || strlen(words[1]) >= sizeof(g.id) ||
	    words[1][0] == '\0') {
		status = cli_job_usage("media", "takes a CHAT and a "
		    "MESSAGE-ID");
		goto out;
	}
	if ((status = take_opts(&g, out, t)) != CLI_OK)
		goto out;
	snprintf(g.id, sizeof(g.id), "%s", words[1]);
	wc_sanitize(words[0], strnlen(words[0], 200), false, &b);
	snprintf(g.label, sizeof(g.label), "%s", (const char *)b.p);
	buf_release(&b);
	(void)log_open(NULL, LOG_ERROR);
	if ((status = cli_job_conf("media", &c, file, args, nargs)) != CLI_OK)
		goto out;
	conf_ok = true;
	if ((status = cli_job_chat(file, c.data_dir, words[0], g.chat,
	    sizeof(g.chat))) != CLI_OK ||
	    (status = has_media(file, c.data_dir, &g)) != CLI_OK)
		goto out;
	if (app_spool_busy(c.data_dir, &pid)) {
		fprintf(stderr, "wachat media: a wachat (pid %ld) has this "
		    "data dir open; download there (its download key) or "
		    "quit it first\n", pid);
		status = CLI_LOCKED;
		goto out;
	}
	status = run_own(&g, &c);
out:
	if (conf_ok)
		conf_release(&c);
	for (i = 0; args != NULL && i < nargs; i++)
		free((char *)args[i].name);
	free(args);
	free(words);
	return cli_flush(status);
}
