/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/conf.c -- settings from the defaults, the INI file (read with
 * libinih) and the command line (src/conf.h).
 */
#include "base/compat.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ini.h>

#include "src/conf.h"
#include "base/hex.h"
#include "base/i18n.h"
#include "base/xmalloc.h"

/* The longest value taken (paths, URLs): longer is surely a mistake. */
#define CONF_VALUE_MAX	4096

/* The state of one conf_load(). */
struct load {
	struct conf	*c;
	struct conf_err	*err;
	const char	*file;		/* the INI file, or NULL */
	FILE		*f;
	unsigned	 line;		/* of the INI file, from 1 */
	bool		 line_done;	/* the last chunk read ended a line */
	bool		 failed;
};

static const char *const names[] = {
	"url", "root-key", "ca-file", "version-url", "wa-version", "data-dir",
	"qr-file", "log-file", "log-level", "read-receipts", "send-typing",
	"send-presence", "enter-sends", "full-history",
};

/* The screen's actions (ui/keys.h, same order there is not needed). */
const char *const conf_key_actions[CONF_KEY_ACTIONS] = {
	"quit", "next-chat", "prev-chat", "unread-chat", "new-chat",
	"prev-page", "next-page", "send", "newline", "up", "down", "reply",
	"react", "retry", "delete", "cancel", "help", "group-info",
	"group-new", "group-leave", "find", "find-all", "edit",
};

/* The index of a "key-ACTION" name in conf_key_actions, or -1. */
static int
key_action(const char *name)
{
	int	 i;

	if (strncmp(name, "key-", 4) != 0)
		return -1;
	for (i = 0; i < CONF_KEY_ACTIONS; i++)
		if (strcmp(conf_key_actions[i], name + 4) == 0)
			return i;
	return -1;
}

bool
conf_is_name(const char *name)
{
	size_t	 i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return key_action(name) >= 0;
}

/* yes/no and its synonyms; -1 for anything else. */
static int
yes_no(const char *v)
{
	static const char *const yes[] = { "yes", "true", "on", "1" };
	static const char *const no[] = { "no", "false", "off", "0" };
	size_t	 i;

	for (i = 0; i < 4; i++) {
		if (strcmp(v, yes[i]) == 0)
			return 1;
		if (strcmp(v, no[i]) == 0)
			return 0;
	}
	return -1;
}

static void
set_str(char **slot, const char *value)
{
	free(*slot);
	*slot = value != NULL ? xstrdup(value) : NULL;
}

static bool
has_prefix(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* A URL with one of the two schemes and something after it. */
static bool
is_url(const char *v, const char *a, const char *b)
{
	if (has_prefix(v, a))
		return v[strlen(a)] != '\0' && v[strlen(a)] != '/';
	if (has_prefix(v, b))
		return v[strlen(b)] != '\0' && v[strlen(b)] != '/';
	return false;
}

/* A WhatsApp Web version as announced: 2.3000.N, N 1-10 decimal digits
 * (the form the version look-up finds, protocol.md 3.3). */
static bool
is_version(const char *v)
{
	static const char	 prefix[] = "2.3000.";
	size_t			 n;

	if (!has_prefix(v, prefix))
		return false;
	v += sizeof(prefix) - 1;
	n = strspn(v, "0123456789");
	return n >= 1 && n <= 10 && v[n] == '\0';
}

static int
parse_key(const char *v, uint8_t out[CONF_KEY_LEN])
{
	size_t	 i;

	if (strlen(v) != 2 * CONF_KEY_LEN)
		return -EINVAL;
	for (i = 0; i < CONF_KEY_LEN; i++) {
		int	 hi = hex_digit((unsigned char)v[2 * i]);
		int	 lo = hex_digit((unsigned char)v[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return -EINVAL;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

/*
 * Set name to value in c.  Returns 0, or -EINVAL with *why naming the
 * problem.  An empty value unsets the optional settings.
 */
static int
set(struct conf *c, const char *name, const char *value, const char **why)
{
	bool	 empty = value[0] == '\0';

	if (!conf_is_name(name)) {
		*why = N_("unknown setting");
		return -EINVAL;
	}
	if (strlen(value) > CONF_VALUE_MAX) {
		*why = N_("value longer than 4096 bytes");
		return -EINVAL;
	}
	if (strcmp(name, "url") == 0) {
		if (!is_url(value, "ws://", "wss://")) {
			*why = N_("not a ws:// or wss:// URL");
			return -EINVAL;
		}
		set_str(&c->url, value);
	} else if (strcmp(name, "root-key") == 0) {
		uint8_t	 key[CONF_KEY_LEN];

		if (empty) {
			c->has_root_key = false;
			return 0;
		}
		if (parse_key(value, key) != 0) {
			*why = N_("not a key of 64 hexadecimal digits");
			return -EINVAL;
		}
		memcpy(c->root_key, key, sizeof(key));
		c->has_root_key = true;
	} else if (strcmp(name, "ca-file") == 0) {
		if (!empty && access(value, R_OK) != 0) {
			*why = N_("cannot read the file");
			return -EINVAL;
		}
		set_str(&c->ca_file, empty ? NULL : value);
	} else if (strcmp(name, "version-url") == 0) {
		if (!is_url(value, "http://", "https://")) {
			*why = N_("not an http:// or https:// URL");
			return -EINVAL;
		}
		set_str(&c->version_url, value);
	} else if (strcmp(name, "wa-version") == 0) {
		if (!empty && !is_version(value)) {
			*why = N_("not a version of the form "
			    "2.3000.1234567890");
			return -EINVAL;
		}
		set_str(&c->version, empty ? NULL : value);
	} else if (strcmp(name, "qr-file") == 0) {
		set_str(&c->qr_file, empty ? NULL : value);
	} else if (strcmp(name, "data-dir") == 0 ||
	    strcmp(name, "log-file") == 0) {
		if (empty) {
			*why = N_("must not be empty");
			return -EINVAL;
		}
		set_str(name[0] == 'd' ? &c->data_dir : &c->log_file, value);
	} else if (key_action(name) >= 0) {
		char	**slot = &c->keys[key_action(name)];

		if (empty || strlen(value) >= CONF_KEY_MAX ||
		    strpbrk(value, " \t") != NULL) {
			*why = N_("not a key name (ctrl-x, alt-s, f1, tab, "
			    "pgup, ...)");
			return -EINVAL;
		}
		set_str(slot, value);
	} else if (strcmp(name, "log-level") != 0) {
		int	 yn = yes_no(value);

		if (yn < 0) {
			*why = N_("not yes or no");
			return -EINVAL;
		}
		if (strcmp(name, "read-receipts") == 0)
			c->read_receipts = yn;
		else if (strcmp(name, "send-typing") == 0)
			c->send_typing = yn;
		else if (strcmp(name, "send-presence") == 0)
			c->send_presence = yn;
		else if (strcmp(name, "full-history") == 0)
			c->full_history = yn;
		else
			c->enter_sends = yn;
	} else {	/* log-level */
		if (strcmp(value, "error") == 0)
			c->log_level = LOG_ERROR;
		else if (strcmp(value, "warn") == 0)
			c->log_level = LOG_WARN;
		else if (strcmp(value, "info") == 0)
			c->log_level = LOG_INFO;
		else if (strcmp(value, "debug") == 0)
			c->log_level = LOG_DEBUG;
		else {
			*why = N_("not one of error, warn, info, debug");
			return -EINVAL;
		}
	}
	return 0;
}

static void
fail(struct load *l, const char *file, unsigned line, const char *name,
    const char *why)
{
	if (l->failed)
		return;		/* the first error is the one to fix */
	l->failed = true;
	snprintf(l->err->file, sizeof(l->err->file), "%s",
	    file != NULL ? file : "");
	l->err->line = line;
	snprintf(l->err->name, sizeof(l->err->name), "%s", name);
	l->err->why = why;
}

/* libinih's reader: fgets, counting lines so the handler knows its own. */
static char *
reader(char *str, int num, void *stream)
{
	struct load	*l = stream;
	char		*p;

	if (l->line_done) {
		l->line++;
		l->line_done = false;
	}
	if ((p = fgets(str, num, l->f)) != NULL) {
		size_t	 n = strlen(p);

		l->line_done = n > 0 && p[n - 1] == '\n';
	}
	return p;
}

static int
handler(void *user, const char *section, const char *name, const char *value)
{
	struct load	*l = user;
	const char	*why = NULL;

	if (section[0] != '\0') {
		fail(l, l->file, l->line, section,
		    N_("settings go before any [section]"));
		return 0;
	}
	if (set(l->c, name, value, &why) != 0) {
		fail(l, l->file, l->line, name, why);
		return 0;
	}
	return 1;
}

static int
read_file(struct load *l, const char *path, bool required)
{
	int	 rc;

	if ((l->f = fopen(path, "r")) == NULL) {
		rc = -errno;
		if (rc == -ENOENT && !required)
			return 0;
		fail(l, path, 0, "", rc == -ENOENT ? N_("no such file") :
		    N_("cannot read the file"));
		return rc;
	}
	l->file = path;
	l->line = 0;
	l->line_done = true;
	rc = ini_parse_stream(reader, l, handler, l);
	if (ferror(l->f) && rc == 0) {
		fail(l, path, 0, "", N_("cannot read the file"));
		rc = -EIO;
	}
	fclose(l->f);
	l->f = NULL;
	if (rc > 0) {
		/* The first bad line: the handler's when it was that one, else
		 * one libinih could not parse. */
		if (!l->failed || l->err->line != (unsigned)rc) {
			l->failed = false;
			fail(l, path, (unsigned)rc, "",
			    N_("not a 'name = value' line"));
		}
		return -EINVAL;
	}
	if (rc < 0)
		return rc == -2 ? -ENOMEM : -EIO;
	return 0;
}

/* env var when set to an absolute path (the XDG rule), else NULL. */
static const char *
xdg(const char *v)
{
	return v != NULL && v[0] == '/' ? v : NULL;
}

static char *
join(const char *a, const char *b)
{
	size_t	 len = strlen(a) + strlen(b) + 2;
	char	*p = xmalloc(len);

	snprintf(p, len, "%s/%s", a, b);
	return p;
}

/* $XDG_var/rest, else $HOME/home_rel/rest; NULL without either. */
static char *
xdg_path(const struct conf_env *env, const char *var, const char *home_rel,
    const char *rest)
{
	char	*base, *p;

	if (xdg(var) != NULL)
		return join(var, rest);
	if (env->home == NULL || env->home[0] == '\0')
		return NULL;
	base = join(env->home, home_rel);
	p = join(base, rest);
	free(base);
	return p;
}

char *
conf_default_file(const struct conf_env *env)
{
	return xdg_path(env, env->xdg_config_home, ".config",
	    "wachat/" CONF_FILE_NAME);
}

void
conf_release(struct conf *c)
{
	int	 i;

	free(c->url);
	free(c->ca_file);
	free(c->version_url);
	free(c->version);
	free(c->data_dir);
	free(c->qr_file);
	free(c->log_file);
	for (i = 0; i < CONF_KEY_ACTIONS; i++)
		free(c->keys[i]);
	memset(c, 0, sizeof(*c));
}

int
conf_load(struct conf *out, const struct conf_env *env, const char *file,
    const struct conf_arg *args, size_t nargs, struct conf_err *err)
{
	struct conf	 c;
	struct load	 l;
	struct conf_err	 e;
	char		*def = NULL;
	const char	*why;
	size_t		 i;
	int		 rc;

	memset(&c, 0, sizeof(c));
	memset(&l, 0, sizeof(l));
	memset(&e, 0, sizeof(e));
	l.c = &c;
	l.err = &e;
	c.url = xstrdup(CONF_DEFAULT_URL);
	c.version_url = xstrdup(CONF_DEFAULT_VERSION_URL);
	c.log_level = LOG_INFO;
	c.read_receipts = c.send_typing = c.send_presence = true;
	c.full_history = true;
	c.enter_sends = true;

	if (file != NULL)
		rc = read_file(&l, file, true);
	else if ((def = conf_default_file(env)) != NULL)
		rc = read_file(&l, def, false);
	else
		rc = 0;
	if (rc != 0)
		goto out;
	for (i = 0; i < nargs; i++) {
		why = NULL;
		if ((rc = set(&c, args[i].name, args[i].value, &why)) != 0) {
			fail(&l, NULL, 0, args[i].name, why);
			goto out;
		}
	}
	if (c.data_dir == NULL && (c.data_dir = xdg_path(env,
	    env->xdg_data_home, ".local/share", "wachat")) == NULL) {
		fail(&l, NULL, 0, "data-dir",
		    N_("no default: neither $XDG_DATA_HOME nor $HOME is set"));
		rc = -EINVAL;
		goto out;
	}
	if (c.log_file == NULL && (c.log_file = xdg_path(env,
	    env->xdg_state_home, ".local/state", "wachat/wachat.log")) ==
	    NULL) {
		fail(&l, NULL, 0, "log-file",
		    N_("no default: neither $XDG_STATE_HOME nor $HOME is set"));
		rc = -EINVAL;
		goto out;
	}
out:
	if (rc != 0) {
		*err = e;
		conf_release(&c);
	} else
		*out = c;
	free(def);
	return rc;
}
