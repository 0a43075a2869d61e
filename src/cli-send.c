/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-send.c -- wachat send CHAT TEXT... (src/cli.h; doc/wachat.1,
 * SUBCOMMANDS): one message, from the shell.  The chat is found as the
 * other subcommands find it (read-only); the message is put in the data
 * dir's spool (src/app-spool.h).  With a wachat running on the data dir
 * (it holds the data dir's lock) that one takes it into its outbox;
 * with none, this process runs the engine itself, as wachat does with
 * the same settings but no screen (app_run_job()), and its engine
 * thread takes it the same way.  Then it waits, reading the database
 * read-only, until the server acked the message (exit 0), refused it,
 * or the time ran out (the message stays in the outbox then).  Main
 * thread.  The words are not marked for translation, as src/cli.c's.
 */
#include "base/compat.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/err.h"
#include "base/log.h"
#include "base/sanitize.h"
#include "base/buf.h"
#include "proto/dm.h"
#include "src/app.h"
#include "src/app-spool.h"
#include "src/cli-db.h"
#include "src/cli-job.h"
#include "src/cli.h"
#include "src/conf.h"
#include "store/backup.h"
#include "store/store.h"

#define TIMEOUT_DEFAULT_S	60
#define TAKE_MAX_MS		10000	/* for a running wachat to take it */
#define WAIT_MS			100	/* between two looks */

/* A send under way: its phases and what each found. */
struct send {
	const char	*data_dir;
	char		 spool[4096 + 16];
	char		 token[APP_SPOOL_TOKEN_MAX];
	char		 chat[STORE_JID_MAX + 1];
	char		 label[256];	/* CHAT as given, sanitised */
	char		 id[WA_DM_ID_MAX];
	bool		 taken;		/* answered "ok": queued */
	bool		 withdrawn_tried;
	long		 pid;		/* the running wachat's, or 0 */
	bool		 own;		/* this process runs the engine */
	long		 timeout_s;
	int64_t		 start_ms, take_until_ms, until_ms;
	struct store	*s;		/* read-only, once taken */
	struct app_job	*job;		/* own: for the words of the end */
};

static void
nap_ms(long ms)
{
	struct timespec	 t = { ms / 1000, (ms % 1000) * 1000000L };

	(void)nanosleep(&t, NULL);
}

/* Where the message is when the time ran out, in words, on stderr. */
static int
not_acked(struct send *w)
{
	const char	*why = w->job != NULL ? w->job->why : "";

	fprintf(stderr, "wachat send: the server has not acked the message "
	    "to %s within %ld s%s%s%s; it stays in the outbox and goes when "
	    "wachat is connected\n", w->label, w->timeout_s,
	    why[0] != '\0' ? " (" : "", why, why[0] != '\0' ? ")" : "");
	return CLI_NOT_SENT;
}

/* Until the running wachat (or our engine) answered: PENDING or a
 * status. */
static int
step_take(struct send *w, int64_t now)
{
	char	 why[512];
	int	 rc;

	rc = app_spool_answer(w->spool, w->token, w->id, sizeof(w->id), why,
	    sizeof(why));
	if (rc == 1) {
		w->taken = true;
		return APP_JOB_PENDING;
	}
	if (rc < 0) {
		fprintf(stderr, "wachat send: not sent to %s: %s\n", w->label,
		    why);
		return CLI_REFUSED;
	}
	if (now >= w->take_until_ms && !w->withdrawn_tried) {
		w->withdrawn_tried = true;
		if (app_spool_withdraw(w->spool, w->token) == 0) {
			if (w->own)
				fprintf(stderr, "wachat send: the engine did "
				    "not take the message within %ld s; "
				    "nothing was sent\n", (now - w->start_ms) /
				    1000);
			else
				fprintf(stderr, "wachat send: the running "
				    "wachat (pid %ld) did not take the message "
				    "within %ld s (an older wachat?); nothing "
				    "was sent\n", w->pid, (now - w->start_ms) /
				    1000);
			return CLI_NOT_SENT;
		}
		/* taken meanwhile: its answer comes */
	}
	if (now >= w->until_ms) {
		fprintf(stderr, "wachat send: the message to %s was handed "
		    "over, but no answer came within %ld s; it may still go "
		    "out\n", w->label, w->timeout_s);
		return CLI_NOT_SENT;
	}
	return APP_JOB_PENDING;
}

/* Once queued: until the server acked it (state SENT or later). */
static int
step_ack(struct send *w, int64_t now)
{
	struct store_msg	 m;
	int			 rc;

	/* beside: never a raw read of the file, whose close would drop
	 * the locks of our own engine's connection */
	if (w->s == NULL && store_open_ro_beside(w->data_dir, &w->s) != 0)
		w->s = NULL;
	if (w->s != NULL &&
	    (rc = store_msg_get(w->s, w->chat, true, w->id, &m)) == 1) {
		enum store_msg_state	 st = m.state;

		store_msg_release(&m);
		if (st == STORE_MSG_FAILED) {
			struct store_media	 md;
			bool			 ul = false;

			if (store_media_get(w->s, w->chat, true, w->id,
			    &md) == 1) {
				ul = md.ul_state == STORE_UL_FAILED;
				store_media_release(&md);
			}
			fprintf(stderr, "wachat send: %s %s\n", ul ? "the file "
			    "could not be uploaded; nothing was sent to" :
			    "the server refused the message to", w->label);
			return CLI_REFUSED;
		}
		if (st >= STORE_MSG_SENT) {
			printf("wachat: sent to %s\n", w->label);
			return CLI_OK;
		}
	}
	if (now >= w->until_ms)
		return not_acked(w);
	return APP_JOB_PENDING;
}

/* One look (app_job's poll): APP_JOB_PENDING or the exit status. */
static int
step(void *arg)
{
	struct send	*w = arg;
	int64_t		 now = cli_job_now_ms();
	int		 st;

	if (!w->taken && (st = step_take(w, now)) != APP_JOB_PENDING)
		return st;
	if (!w->taken)
		return APP_JOB_PENDING;
	return step_ack(w, now);
}

/* ------------------------------------------------------------------ */
/* The command line */

static int
usage_error(const char *why)
{
	fprintf(stderr, "wachat send: %s (wachat --help lists the "
	    "subcommands)\n", why);
	return CLI_USAGE;
}

/* --file, --caption, --ptt. */
struct send_file {
	const char	*path;		/* NULL: a text */
	const char	*caption;	/* NULL: none */
	bool		 ptt;
};

/* Whether name is an option of send's own (not a setting). */
static bool
own_option(const char *name)
{
	return strcmp(name, "config") == 0 || strcmp(name, "timeout") == 0 ||
	    strcmp(name, "file") == 0 || strcmp(name, "caption") == 0;
}

/* The options and words of argv[1..argc): the settings into args
 * (*nargs of them), --config into *file, --timeout into *timeout_s,
 * --file, --caption and --ptt into *sf, the words into words (*nwords).
 * GO_ON (-1) or an exit status. */
static int
parse(int argc, char **argv, struct conf_arg *args, size_t *nargs,
    const char **file, long *timeout_s, struct send_file *sf, char **words,
    int *nwords)
{
	int	 i;
	bool	 dashes = false;

	for (i = 1; i < argc; i++) {
		const char	*a = argv[i], *v = NULL, *eq;
		char		 name[64];
		size_t		 n;

		if (dashes || a[0] != '-' || a[1] == '\0') {
			words[(*nwords)++] = argv[i];
			continue;
		}
		if (strcmp(a, "--") == 0) {
			dashes = true;
			continue;
		}
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
			cli_usage(stdout);
			return fflush(stdout) == 0 ? CLI_OK : CLI_WRITE;
		}
		if (a[1] != '-')
			return usage_error("an option that is none");
		a += 2;
		eq = strchr(a, '=');
		n = eq != NULL ? (size_t)(eq - a) : strlen(a);
		if (n >= sizeof(name))
			return usage_error("an option that is none");
		memcpy(name, a, n);
		name[n] = '\0';
		if (strcmp(name, "ptt") == 0 && eq == NULL) {
			sf->ptt = true;
			continue;
		}
		if (!own_option(name) && !conf_is_name(name))
			return usage_error("an option that is none");
		if (eq != NULL)
			v = eq + 1;
		else if (i + 1 < argc)
			v = argv[++i];
		else
			return usage_error("an option without its value");
		if (strcmp(name, "config") == 0)
			*file = v;
		else if (strcmp(name, "file") == 0)
			sf->path = v;
		else if (strcmp(name, "caption") == 0)
			sf->caption = v;
		else if (strcmp(name, "timeout") == 0) {
			char	*end;

			errno = 0;
			*timeout_s = strtol(v, &end, 10);
			if (errno != 0 || end == v || *end != '\0' ||
			    *timeout_s < 1 || *timeout_s > 86400)
				return usage_error("--timeout: not a count of "
				    "seconds (1 to 86400)");
		} else {
			args[*nargs].name = strdup(name);
			args[*nargs].value = v;
			if (args[*nargs].name == NULL)
				return CLI_USAGE;
			(*nargs)++;
		}
	}
	return -1;
}

/* The words after CHAT as one text, joined by spaces; NULL when too
 * long. */
static char *
join(char **words, int n, size_t *len)
{
	size_t	 l = 0;
	char	*t;
	int	 i;

	for (i = 0; i < n; i++)
		l += strlen(words[i]) + 1;
	if (l > WA_DM_TEXT_MAX + 1 || (t = malloc(l + 1)) == NULL)
		return NULL;
	t[0] = '\0';
	for (i = 0, l = 0; i < n; i++) {
		size_t	 k = strlen(words[i]);

		if (i > 0)
			t[l++] = ' ';
		memcpy(t + l, words[i], k);
		l += k;
	}
	t[l] = '\0';
	*len = l;
	return t;
}

/* --file's path made absolute into abs (the running wachat has another
 * working dir) and checked before a byte is read: a regular file within
 * max-media-size.  CLI_OK or the exit status, said on stderr. */
static int
file_ok(const struct send_file *sf, const struct conf *c, char *abs)
{
	struct stat	 st;

	if (realpath(sf->path, abs) == NULL || stat(abs, &st) != 0) {
		fprintf(stderr, "wachat send: --file %s: %s\n", sf->path,
		    strerror(errno));
		return CLI_NOT_FOUND;
	}
	if (!S_ISREG(st.st_mode)) {
		fprintf(stderr, "wachat send: --file %s: not a file\n",
		    sf->path);
		return CLI_USAGE;
	}
	if (access(abs, R_OK) != 0) {	/* refused before it is stored */
		fprintf(stderr, "wachat send: --file %s: permission denied\n",
		    sf->path);
		return CLI_NOT_FOUND;
	}
	if (st.st_size == 0) {
		fprintf(stderr, "wachat send: --file %s: the file is empty\n",
		    sf->path);
		return CLI_USAGE;
	}
	if ((uint64_t)st.st_size > c->max_media_size) {
		fprintf(stderr, "wachat send: --file %s: %lld bytes, larger "
		    "than max-media-size (%llu); nothing was sent\n",
		    sf->path, (long long)st.st_size,
		    (unsigned long long)c->max_media_size);
		return CLI_REFUSED;
	}
	if (strchr(abs, '\n') != NULL) {
		fprintf(stderr, "wachat send: --file: a path with a newline\n");
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The words of a send: CHAT and TEXT, or CHAT alone with --file.  The
 * text (malloc'd) into *text; CLI_OK or a usage error. */
static int
words_ok(const struct send_file *sf, char **words, int nwords, char **text,
    size_t *len)
{
	if (sf->path != NULL) {
		if (nwords != 1)
			return usage_error("takes a CHAT and --file PATH (the "
			    "caption as --caption TEXT)");
		if (sf->caption != NULL && strlen(sf->caption) > WA_DM_TEXT_MAX)
			return usage_error("the caption is too long (64 KiB "
			    "at most)");
		return CLI_OK;
	}
	if (sf->caption != NULL || sf->ptt)
		return usage_error("--caption and --ptt go with --file");
	if (nwords < 2)
		return usage_error("takes a CHAT and the TEXT to send");
	if ((*text = join(words + 1, nwords - 1, len)) == NULL)
		return usage_error("the TEXT is too long (64 KiB at most)");
	if (*len == 0 || strspn(*text, " \t\n") == *len)
		return usage_error("the TEXT is empty");
	return CLI_OK;
}

static volatile sig_atomic_t	 interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* SIGINT or SIGTERM while the running wachat has the message: taken
 * back when it is not taken yet, else said where it is. */
static int
say_interrupted(struct send *w)
{
	if (!w->taken && app_spool_withdraw(w->spool, w->token) == 0) {
		fprintf(stderr, "wachat send: interrupted; nothing was sent\n");
		return CLI_NOT_SENT;
	}
	fprintf(stderr, "wachat send: interrupted before the server acked "
	    "the message to %s; the running wachat has it in its outbox and "
	    "sends it\n", w->label);
	return CLI_NOT_SENT;
}

/* Hand the message to the wachat that runs, and wait (until SIGINT or
 * SIGTERM too). */
static int
wait_running(struct send *w)
{
	struct sigaction	 sa, old_int, old_term;
	int			 st;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: the nap ends */
	sigemptyset(&sa.sa_mask);
	interrupted = 0;
	(void)sigaction(SIGINT, &sa, &old_int);
	(void)sigaction(SIGTERM, &sa, &old_term);
	while ((st = step(w)) == APP_JOB_PENDING && !interrupted)
		nap_ms(WAIT_MS);
	if (st == APP_JOB_PENDING)
		st = say_interrupted(w);
	(void)sigaction(SIGINT, &old_int, NULL);
	(void)sigaction(SIGTERM, &old_term, NULL);
	return st;
}

/* No wachat runs: this process runs the engine until the job is done. */
static int
run_own(struct send *w, const struct conf *c)
{
	struct app_job	 job;
	int		 rc;

	memset(&job, 0, sizeof(job));
	job.poll = step;
	job.arg = w;
	w->own = true;
	w->job = &job;
	rc = app_run_job(c, &job);
	w->job = NULL;
	if (job.status != APP_JOB_PENDING)
		return job.status;
	if (rc == APP_EXIT_LOCKED && app_spool_busy(w->data_dir, &w->pid)) {
		/* a wachat started meanwhile: it takes the message */
		w->own = false;
		return wait_running(w);
	}
	if (job.unlinked) {
		(void)app_spool_withdraw(w->spool, w->token);
		fprintf(stderr, "wachat send: this data dir is not linked "
		    "(run wachat to link it); nothing was sent\n");
		return CLI_NOT_SENT;
	}
	fprintf(stderr, "wachat send: stopped before the server acked the "
	    "message to %s%s%s%s; %s\n", w->label,
	    job.why[0] != '\0' ? " (" : "", job.why,
	    job.why[0] != '\0' ? ")" : "", w->taken ? "it stays in the "
	    "outbox and goes when wachat is connected" :
	    app_spool_withdraw(w->spool, w->token) == 0 ? "nothing was sent" :
	    "it may still go out");
	return rc == APP_EXIT_DB || rc == APP_EXIT_DAMAGED ? rc :
	    CLI_NOT_SENT;
}

int
cli_send_main(int argc, char **argv)
{
	static struct send	 w;
	struct conf_arg		*args;
	struct conf		 c;
	struct buf		 b = BUF_INIT;
	struct send_file	 sf;
	char			 abs[PATH_MAX];
	const char		*file = NULL;
	char			**words, *text = NULL;
	size_t			 nargs = 0, len = 0, i;
	int			 nwords = 0, status;
	long			 timeout_s = TIMEOUT_DEFAULT_S;
	bool			 conf_ok = false;

	memset(&w, 0, sizeof(w));
	memset(&sf, 0, sizeof(sf));
	args = calloc((size_t)argc + 1, sizeof(*args));
	words = calloc((size_t)argc + 1, sizeof(*words));
	if (args == NULL || words == NULL) {
		status = CLI_USAGE;
		goto out;
	}
	if ((status = parse(argc, argv, args, &nargs, &file, &timeout_s,
	    &sf, words, &nwords)) != -1)
		goto out;
	if ((status = words_ok(&sf, words, nwords, &text, &len)) != CLI_OK)
		goto out;
	wc_sanitize(words[0], strnlen(words[0], 200), false, &b);
	snprintf(w.label, sizeof(w.label), "%s", (const char *)b.p);
	buf_release(&b);
	(void)log_open(NULL, LOG_ERROR);
	if ((status = cli_job_conf("send", &c, file, args, nargs)) != CLI_OK)
		goto out;
	conf_ok = true;
	w.data_dir = c.data_dir;
	w.timeout_s = timeout_s;
	if (sf.path != NULL && (status = file_ok(&sf, &c, abs)) != CLI_OK)
		goto out;
	if ((status = cli_job_chat(file, w.data_dir, words[0], w.chat,
	    sizeof(w.chat))) != CLI_OK)
		goto out;
	if ((status = app_spool_dir(c.data_dir, true, w.spool,
	    sizeof(w.spool))) != 0) {
		fprintf(stderr, "wachat send: cannot use the spool %s: %s\n",
		    w.spool, status == -EPERM ? "it must be ours and open to "
		    "nobody else (chmod 700)" : wc_strerror(status));
		status = CLI_DB;
		goto out;
	}
	if ((status = sf.path != NULL ? app_spool_put_file(w.spool, w.chat,
	    abs, sf.caption != NULL ? sf.caption : "", sf.ptt, w.token) :
	    app_spool_put(w.spool, w.chat, text, len, w.token)) != 0) {
		fprintf(stderr, "wachat send: cannot write to the spool %s: "
		    "%s\n", w.spool, wc_strerror(status));
		status = CLI_DB;
		goto out;
	}
	w.start_ms = cli_job_now_ms();
	w.until_ms = w.start_ms + timeout_s * 1000;
	w.take_until_ms = w.start_ms + (timeout_s * 1000 < TAKE_MAX_MS ?
	    timeout_s * 1000 : TAKE_MAX_MS);
	if (app_spool_busy(c.data_dir, &w.pid))
		status = wait_running(&w);
	else {
		w.take_until_ms = w.until_ms;	/* our engine starts first */
		status = run_own(&w, &c);
	}
	store_close(w.s);
	w.s = NULL;
out:
	if (conf_ok)
		conf_release(&c);
	for (i = 0; args != NULL && i < nargs; i++)
		free((char *)args[i].name);
	free(args);
	free(words);
	free(text);
	return cli_flush(status);
}
