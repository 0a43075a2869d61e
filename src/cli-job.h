/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/cli-job.h -- what the subcommands that run the engine share
 * (wachat send, src/cli-send.c; wachat media, src/cli-get.c): their
 * command line (settings as --NAME VALUE, --config, their own options,
 * the words), the settings loaded as wachat loads them, and CHAT found
 * read-only.  Errors are said on stderr as "wachat SUB: ...".  Main
 * thread.
 */
#ifndef WC_CLI_JOB_H
#define WC_CLI_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "src/conf.h"

/* An option of the subcommand's own: --name VALUE (or --name=VALUE)
 * sets *value (borrowed from argv). */
struct cli_opt {
	const char	 *name;
	const char	**value;
};

/*
 * argv[1..argc): -h/--help prints the usage; opts[0..nopts) set their
 * values; any setting name of src/conf.h goes into args (*nargs of them;
 * each name malloc'd: the caller frees); "--" ends the options; the other
 * words into words (*nwords).  Returns -1 to go on, or an exit status
 * (CLI_OK after --help, CLI_USAGE said).
 */
int	cli_job_parse(const char *sub, int argc, char **argv,
	    const struct cli_opt *opts, size_t nopts, struct conf_arg *args,
	    size_t *nargs, char **words, int *nwords);

/* Say "wachat SUB: why (wachat --help lists the subcommands)" on stderr;
 * returns CLI_USAGE. */
int	cli_job_usage(const char *sub, const char *why);

/* The settings as wachat takes them into *c (conf_release() after
 * CLI_OK); a wrong one said.  Returns CLI_OK or CLI_USAGE. */
int	cli_job_conf(const char *sub, struct conf *c, const char *file,
	    const struct conf_arg *args, size_t nargs);

/* The JID of chat arg (cli_chat_jid()) into out[len], the database of
 * data_dir opened read-only and closed again.  Returns CLI_OK or the
 * status said. */
int	cli_job_chat(const char *file, const char *data_dir, const char *arg,
	    char *out, size_t len);

/* The monotonic clock, ms. */
int64_t	cli_job_now_ms(void);

#endif
