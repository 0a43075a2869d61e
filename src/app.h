/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app.h -- the composition root: runs wachat with two threads
 * (style.md 3.1).  The engine thread owns a libuv loop, the store
 * (store_open() in the data dir, bound to the engine by src/app-store.h)
 * and the engine (proto/eng.h); the main thread owns another loop with the
 * event queue, SIGINT and SIGTERM, and shows what happens: on the curses
 * screen (ui/screen.h) when stdin and stdout are a terminal, else one line
 * per event on standard output.  The two talk in the typed events and
 * commands of base/event.h; src/app-int.h says which file does what.
 */
#ifndef WC_APP_H
#define WC_APP_H

#include <stdbool.h>

#include "src/conf.h"

/*
 * Run wachat with the settings c (borrowed until it returns) until the
 * user stops it (SIGINT, SIGTERM: the engine closes the connection and
 * the store first) or the engine stops for good (logged out, refused).
 * pair_pn NULL links by QR code when not linked yet; else it is a phone
 * number (digits, country code first, an optional leading '+') to link
 * by a code typed on that phone (CMD_PAIR_CODE).  fresh_db (--fresh-db):
 * a damaged or empty database is moved aside and a new link made; a
 * sound one is kept and nothing runs.
 * Opens the log file of c first (creating its directories, 0700), and
 * the parents of the data dir.  Returns the exit status: EXIT_SUCCESS when
 * stopped by a signal and closed cleanly, EXIT_FAILURE when the engine
 * stopped on its own or could not start (the reason printed on standard
 * output, or standard error when the threads could not start), or one of
 * the APP_EXIT_* below when the database is the reason.  A second
 * signal ends the process at once.  Main thread, once, before any other
 * thread is started.
 */
int	app_run(const struct conf *c, const char *pair_pn, bool fresh_db);

/*
 * A job run by app_run_job(): wachat without a screen or lines, the
 * engine as app_run() runs it, and poll called on the main thread every
 * APP_JOB_POLL_MS (the first time at once) until it returns something
 * other than APP_JOB_PENDING: that status goes to status and wachat
 * stops.  wachat send (src/cli-send.c) is one; wachat media
 * (src/cli-get.c) also gives the engine a command at the start (cmd)
 * and reads the events (event).
 */
struct cmd;
struct ev;

#define APP_JOB_PENDING	(-1)
#define APP_JOB_POLL_MS	100
struct app_job {
	int	(*poll)(void *arg);	/* APP_JOB_PENDING or a status */
	void	(*event)(void *arg, const struct ev *ev); /* every event,
				 * on the main thread (borrowed), or NULL */
	struct cmd *cmd;	/* handed to the engine at the start (taken),
				 * or NULL */
	void	 *arg;
	int	  status;	/* out: poll's, or APP_JOB_PENDING when it
				 * did not finish (the engine stopped first,
				 * or a signal) */
	bool	  unlinked;	/* out: the data dir is not linked (the
				 * engine showed a QR code): stopped */
	char	  why[512];	/* out: the engine's last words: why it
				 * stopped, or why the connection went
				 * (""), sanitised */
};

/*
 * Run job with the settings c as app_run() runs wachat (no link made:
 * a data dir not linked stops it, job->unlinked), the events not shown.
 * Returns app_run()'s exit status (EXIT_SUCCESS when the job finished
 * and wachat closed cleanly); the job's own in job->status.  Main
 * thread, once, before any other thread.
 */
int	app_run_job(const struct conf *c, struct app_job *job);

/* The exit statuses of a start that failed on the data dir (doc/wachat.1,
 * EXIT STATUS; the same numbers as the subcommands', src/cli.h). */
#define APP_EXIT_DB		3	/* cannot open or write the database:
					 * read-only, full, permissions */
#define APP_EXIT_DAMAGED	6	/* the database is empty or damaged */
#define APP_EXIT_LOCKED		7	/* another wachat has the data dir */

#endif
