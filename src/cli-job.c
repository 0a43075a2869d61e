/* SPDX-License-Identifier: GPL-3.0-or-later */
/* src/cli-job.c -- the engine-running subcommands' shared parts
 * (src/cli-job.h).  The words are not marked for translation, as
 * src/cli.c's. */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "src/cli-db.h"
#include "src/cli-job.h"
#include "src/cli.h"
#include "store/store.h"

int
cli_job_usage(const char *sub, const char *why)
{
	fprintf(stderr, "wachat %s: %s (wachat --help lists the "
	    "subcommands)\n", sub, why);
	return CLI_USAGE;
}

/* --name's slot among opts, or NULL. */
static const char **
own_opt(const struct cli_opt *opts, size_t nopts, const char *name)
{
	size_t	 i;

	for (i = 0; i < nopts; i++)
		if (strcmp(opts[i].name, name) == 0)
			return opts[i].value;
	return NULL;
}

/* One --option at argv[*i]: its value taken. */
static int
one_opt(const char *sub, int argc, char **argv, int *i,
    const struct cli_opt *opts, size_t nopts, struct conf_arg *args,
    size_t *nargs)
{
	const char	*a = argv[*i] + 2, *v, *eq = strchr(a, '=');
	const char	**slot;
	char		 name[64];
	size_t		 n = eq != NULL ? (size_t)(eq - a) : strlen(a);

	if (argv[*i][1] != '-' || n >= sizeof(name))
		return cli_job_usage(sub, "an option that is none");
	memcpy(name, a, n);
	name[n] = '\0';
	slot = own_opt(opts, nopts, name);
	if (slot == NULL && !conf_is_name(name))
		return cli_job_usage(sub, "an option that is none");
	if (eq != NULL)
		v = eq + 1;
	else if (*i + 1 < argc)
		v = argv[++*i];
	else
		return cli_job_usage(sub, "an option without its value");
	if (slot != NULL) {
		*slot = v;
		return -1;
	}
	if ((args[*nargs].name = strdup(name)) == NULL)
		return CLI_USAGE;
	args[(*nargs)++].value = v;
	return -1;
}

int
cli_job_parse(const char *sub, int argc, char **argv,
    const struct cli_opt *opts, size_t nopts, struct conf_arg *args,
    size_t *nargs, char **words, int *nwords)
{
	bool	 dashes = false;
	int	 i, st;

	for (i = 1; i < argc; i++) {
		const char	*a = argv[i];

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
		if ((st = one_opt(sub, argc, argv, &i, opts, nopts, args,
		    nargs)) != -1)
			return st;
	}
	return -1;
}

int
cli_job_conf(const char *sub, struct conf *c, const char *file,
    const struct conf_arg *args, size_t nargs)
{
	struct conf_env	 env;
	struct conf_err	 err;

	env.home = getenv("HOME");
	env.xdg_config_home = getenv("XDG_CONFIG_HOME");
	env.xdg_data_home = getenv("XDG_DATA_HOME");
	env.xdg_state_home = getenv("XDG_STATE_HOME");
	if (conf_load(c, &env, file, args, nargs, &err) == 0)
		return CLI_OK;
	if (err.file[0] != '\0' && err.line > 0)
		fprintf(stderr, "wachat %s: %s:%u: %s%s%s\n", sub, err.file,
		    err.line, err.name, err.name[0] != '\0' ? ": " : "",
		    err.why);
	else if (err.file[0] != '\0')
		fprintf(stderr, "wachat %s: %s: %s\n", sub, err.file,
		    err.why);
	else
		fprintf(stderr, "wachat %s: --%s: %s\n", sub, err.name,
		    err.why);
	return CLI_USAGE;
}

int
cli_job_chat(const char *file, const char *data_dir, const char *arg,
    char *out, size_t len)
{
	struct store	*s;
	char		 dir[4096];
	int		 status;

	if ((status = cli_open_db_at(file, data_dir, &s, dir, sizeof(dir))) !=
	    CLI_OK)
		return status;
	status = cli_chat_jid(s, arg, out, len);
	if (status == CLI_DB)
		status = cli_db_failed(s);
	store_close(s);
	return status;
}

int64_t
cli_job_now_ms(void)
{
	struct timespec	 t;

	(void)clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}
