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
#include "proto/media-name.h"

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

/* The screen's actions (ui/keys.h, same order there is not needed). */
const char *const conf_key_actions[CONF_KEY_ACTIONS] = {
	"quit", "next-chat", "prev-chat", "unread-chat", "new-chat",
	"prev-page", "next-page", "send", "newline", "up", "down", "reply",
	"react", "retry", "delete", "cancel", "help", "group-info",
	"group-new", "group-leave", "find", "find-all", "edit", "copy",
	"list", "oldest", "newest", "open-link", "peek", "jump-date",
	"archived", "mute", "pin", "archive", "mark-unread", "star",
	"delete-chat", "clear-chat", "attach", "voice-note", "download",
	"open", "save-as", "card-chat", "forward", "disappearing",
	"reject-call", "vote", "poll-new", "message-info",
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

/* $HOME of the conf_load() running (it runs on the main thread only). */
static const char	*load_home;

/* A path setting into *slot with a leading "~" or "~/" as $HOME (as the
 * path prompts read it); value unchanged without $HOME. */
static void
set_path_str(char **slot, const char *value)
{
	size_t	 n;

	if (value == NULL || value[0] != '~' || (value[1] != '/' &&
	    value[1] != '\0') || load_home == NULL || load_home[0] == '\0') {
		set_str(slot, value);
		return;
	}
	free(*slot);
	n = strlen(load_home) + strlen(value);
	*slot = xmalloc(n);
	snprintf(*slot, n, "%s%s", load_home, value + 1);
}

/* *slot, when relative, under the directory wachat started in. */
static void
make_absolute(char **slot)
{
	char	 cwd[4096], *p;
	size_t	 n;

	if (*slot == NULL || (*slot)[0] == '/' ||
	    getcwd(cwd, sizeof(cwd)) == NULL)
		return;
	n = strlen(cwd) + strlen(*slot) + 2;
	p = xmalloc(n);
	snprintf(p, n, "%s/%s", cwd, *slot);
	free(*slot);
	*slot = p;
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
 * The setters, one per kind of setting: each checks value and writes it
 * into the field of c that the setting names.  Returns 0, or -EINVAL
 * with *why naming the problem.  An empty value unsets the optional
 * settings.
 */
struct setting {
	const char	*name;
	int		(*set)(struct conf *, const struct setting *,
			    const char *, const char **);
	size_t		 field;		/* offsetof(struct conf, the field) */
};

/* The field of c that s sets. */
static void *
field(struct conf *c, const struct setting *s)
{
	return (char *)c + s->field;
}

static int
set_ws_url(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	if (!is_url(value, "ws://", "wss://")) {
		*why = N_("not a ws:// or wss:// URL");
		return -EINVAL;
	}
	set_str(field(c, s), value);
	return 0;
}

static int
set_http_url(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	if (!is_url(value, "http://", "https://")) {
		*why = N_("not an http:// or https:// URL");
		return -EINVAL;
	}
	set_str(field(c, s), value);
	return 0;
}

static int
set_root_key(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	uint8_t	 key[CONF_KEY_LEN];

	(void)s;
	if (value[0] == '\0') {
		c->has_root_key = false;
		return 0;
	}
	if (parse_key(value, key) != 0) {
		*why = N_("not a key of 64 hexadecimal digits");
		return -EINVAL;
	}
	memcpy(c->root_key, key, sizeof(key));
	c->has_root_key = true;
	return 0;
}

/* Why a file named in the settings cannot be read (errno e), in words
 * (N_(): the caller translates). */
static const char *
file_why(int e)
{
	if (e == ENOENT)
		return N_("no such file");
	if (e == EACCES || e == EPERM)
		return N_("permission denied");
	if (e == EISDIR)
		return N_("a directory, not a file");
	return N_("cannot read the file");
}

static int
set_ca_file(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	bool	 empty = value[0] == '\0';
	char	**slot = field(c, s);

	set_path_str(slot, empty ? NULL : value);
	if (!empty && access(*slot, R_OK) != 0) {
		*why = file_why(errno);
		set_str(slot, NULL);
		return -EINVAL;
	}
	return 0;
}

static int
set_version(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	bool	 empty = value[0] == '\0';

	if (!empty && !is_version(value)) {
		*why = N_("not a version of the form 2.3000.1234567890");
		return -EINVAL;
	}
	set_str(field(c, s), empty ? NULL : value);
	return 0;
}

/* qr-times = FIRST,NEXT: whole seconds, 1 to CONF_QR_MAX_S each; ""
 * for the defaults. */
#define CONF_QR_MAX_S	600
static int
set_qr_times(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	unsigned long	 f, n;
	char		*end;

	(void)s;
	if (value[0] == '\0') {
		c->qr_first_s = c->qr_next_s = 0;
		return 0;
	}
	*why = N_("not two numbers of seconds, 1 to 600, as FIRST,NEXT");
	if (value[0] < '0' || value[0] > '9')
		return -EINVAL;
	f = strtoul(value, &end, 10);
	if (*end != ',' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	n = strtoul(end + 1, &end, 10);
	if (*end != '\0' || f < 1 || f > CONF_QR_MAX_S || n < 1 ||
	    n > CONF_QR_MAX_S)
		return -EINVAL;
	c->qr_first_s = (uint32_t)f;
	c->qr_next_s = (uint32_t)n;
	*why = NULL;
	return 0;
}

static int
set_thumbnail_protocol(struct conf *c, const struct setting *s,
    const char *value, const char **why)
{
	static const char *const words[] = {
		[CONF_THUMB_AUTO] = "auto",
		[CONF_THUMB_HALFBLOCKS] = "halfblocks",
		[CONF_THUMB_KITTY] = "kitty", [CONF_THUMB_SIXEL] = "sixel",
		[CONF_THUMB_ITERM2] = "iterm2", [CONF_THUMB_OFF] = "off",
	};
	size_t	 i;

	(void)s;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(value, words[i]) == 0) {
			c->thumbnail_protocol = (enum conf_thumb_proto)i;
			return 0;
		}
	*why = N_("not one of auto, halfblocks, kitty, sixel, iterm2, off");
	return -EINVAL;
}

/* thumbnail-rows: 0 (none) to CONF_THUMB_ROWS_MAX. */
static int
set_thumbnail_rows(struct conf *c, const struct setting *s,
    const char *value, const char **why)
{
	unsigned long	 n;
	char		*end;

	(void)s;
	if (value[0] < '0' || value[0] > '9' ||
	    (n = strtoul(value, &end, 10)) > CONF_THUMB_ROWS_MAX ||
	    *end != '\0') {
		*why = N_("not a number of rows, 0 to 40");
		return -EINVAL;
	}
	c->thumbnail_rows = (uint32_t)n;
	return 0;
}

/* max-media-size: a size as proto/media-name.h reads it ("2G",
 * "500M", "64K", bytes). */
static int
set_media_size(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	uint64_t	 v;

	(void)s;
	if (wa_media_size_parse(value, &v) != 0 || v == 0) {
		*why = N_("not a size (bytes, or a number with K, M, G or T)");
		return -EINVAL;
	}
	c->max_media_size = v;
	return 0;
}

/* auto-download: "none", or KIND:SIZE,... (wa_media_auto_parse()). */
static int
set_auto_download(struct conf *c, const struct setting *s,
    const char *value, const char **why)
{
	struct wa_media_auto	 a;

	(void)s;
	if (wa_media_auto_parse(value, &a) != 0) {
		*why = N_("not none or a list such as image:5M,ptt:2M "
		    "(image, video, audio, ptt, document, sticker)");
		return -EINVAL;
	}
	c->auto_download = a;
	return 0;
}

/* A path that may be unset (""). */
static int
set_opt_path(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	(void)why;
	set_path_str(field(c, s), value[0] == '\0' ? NULL : value);
	return 0;
}

/* A path that must be given. */
static int
set_path(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	if (value[0] == '\0') {
		*why = N_("must not be empty");
		return -EINVAL;
	}
	set_path_str(field(c, s), value);
	return 0;
}

static int
set_yes_no(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	int	 yn = yes_no(value);

	if (yn < 0) {
		*why = N_("not yes or no");
		return -EINVAL;
	}
	*(bool *)field(c, s) = yn;
	return 0;
}

static int
set_log_level(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	static const struct {
		const char	*name;
		enum log_level	 level;
	} levels[] = {
		{ "error", LOG_ERROR }, { "warn", LOG_WARN },
		{ "info", LOG_INFO }, { "debug", LOG_DEBUG },
	};
	size_t	 i;

	(void)s;
	for (i = 0; i < sizeof(levels) / sizeof(levels[0]); i++)
		if (strcmp(value, levels[i].name) == 0) {
			c->log_level = levels[i].level;
			return 0;
		}
	*why = N_("not one of error, warn, info, debug");
	return -EINVAL;
}

static int
set_notify_terminal(struct conf *c, const struct setting *s,
    const char *value, const char **why)
{
	static const char *const words[] = {
		[CONF_NOTIFY_NONE] = "none", [CONF_NOTIFY_OSC777] = "osc777",
		[CONF_NOTIFY_OSC9] = "osc9", [CONF_NOTIFY_OSC99] = "osc99",
	};
	size_t	 i;

	(void)s;
	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcmp(value, words[i]) == 0) {
			c->notify_terminal = (enum conf_notify_terminal)i;
			return 0;
		}
	*why = N_("not one of none, osc777, osc9, osc99");
	return -EINVAL;
}

/* A command (words at spaces, no shell) that may be unset (""). */
static int
set_command(struct conf *c, const struct setting *s, const char *value,
    const char **why)
{
	(void)why;
	value += strspn(value, " \t");
	set_str(field(c, s), value[0] == '\0' ? NULL : value);
	return 0;
}

/* key-ACTION: a key name as the screen reads them (ui/keys.h). */
static int
set_key(struct conf *c, int action, const char *value, const char **why)
{
	if (value[0] == '\0' || strlen(value) >= CONF_KEY_MAX ||
	    strpbrk(value, " \t") != NULL) {
		*why = N_("not a key name (ctrl-x, alt-s, f1, tab, pgup, ...)");
		return -EINVAL;
	}
	set_str(&c->keys[action], value);
	return 0;
}

#define F(f)	offsetof(struct conf, f)
static const struct setting settings[] = {
	{ "url", set_ws_url, F(url) },
	{ "root-key", set_root_key, F(root_key) },
	{ "ca-file", set_ca_file, F(ca_file) },
	{ "version-url", set_http_url, F(version_url) },
	{ "wa-version", set_version, F(version) },
	{ "data-dir", set_path, F(data_dir) },
	{ "qr-file", set_opt_path, F(qr_file) },
	{ "qr-times", set_qr_times, F(qr_first_s) },
	{ "log-file", set_path, F(log_file) },
	{ "log-level", set_log_level, F(log_level) },
	{ "read-receipts", set_yes_no, F(read_receipts) },
	{ "peek", set_yes_no, F(peek) },
	{ "send-typing", set_yes_no, F(send_typing) },
	{ "send-presence", set_yes_no, F(send_presence) },
	{ "enter-sends", set_yes_no, F(enter_sends) },
	{ "full-history", set_yes_no, F(full_history) },
	{ "clipboard", set_yes_no, F(clipboard) },
	{ "bell", set_yes_no, F(bell) },
	{ "notify-terminal", set_notify_terminal, F(notify_terminal) },
	{ "notify-command", set_command, F(notify_command) },
	{ "notify-preview", set_yes_no, F(notify_preview) },
	{ "title", set_yes_no, F(title) },
	{ "hyperlinks", set_yes_no, F(hyperlinks) },
	{ "mouse", set_yes_no, F(mouse) },
	{ "link-open-command", set_command, F(link_open_command) },
	{ "max-media-size", set_media_size, F(max_media_size) },
	{ "file-picker-command", set_command, F(file_picker_command) },
	{ "thumbnail-rows", set_thumbnail_rows, F(thumbnail_rows) },
	{ "download-dir", set_path, F(download_dir) },
	{ "auto-download", set_auto_download, F(auto_download) },
	{ "open-command", set_command, F(open_command) },
	{ "thumbnail-protocol", set_thumbnail_protocol,
	    F(thumbnail_protocol) },
};
#undef F

/* The setting called name (not a key-ACTION), or NULL. */
static const struct setting *
find_setting(const char *name)
{
	size_t	 i;

	for (i = 0; i < sizeof(settings) / sizeof(settings[0]); i++)
		if (strcmp(settings[i].name, name) == 0)
			return &settings[i];
	return NULL;
}

bool
conf_is_name(const char *name)
{
	return find_setting(name) != NULL || key_action(name) >= 0;
}

/*
 * Set name to value in c.  Returns 0, or -EINVAL with *why naming the
 * problem.  An empty value unsets the optional settings.
 */
static int
set(struct conf *c, const char *name, const char *value, const char **why)
{
	const struct setting	*s = find_setting(name);

	if (!conf_is_name(name)) {
		*why = N_("unknown setting");
		return -EINVAL;
	}
	if (strlen(value) > CONF_VALUE_MAX) {
		*why = N_("value longer than 4096 bytes");
		return -EINVAL;
	}
	if (s == NULL)
		return set_key(c, key_action(name), value, why);
	return s->set(c, s, value, why);
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
		fail(l, path, 0, "", file_why(-rc));
		return rc;
	}
	l->file = path;
	l->line = 0;
	l->line_done = true;
	errno = 0;
	rc = ini_parse_stream(reader, l, handler, l);
	if (ferror(l->f) && rc == 0) {
		fail(l, path, 0, "", file_why(errno));
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
	free(c->notify_command);
	free(c->link_open_command);
	free(c->file_picker_command);
	free(c->download_dir);
	free(c->open_command);
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
	c.clipboard = true;
	c.bell = c.notify_preview = c.title = c.hyperlinks = true;
	c.mouse = true;
	c.thumbnail_rows = CONF_THUMB_ROWS_DEFAULT;
	c.max_media_size = CONF_MAX_MEDIA_DEFAULT;
	load_home = env->home;

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
	if (c.download_dir == NULL) {
		size_t	 n = strlen(c.data_dir) + sizeof("/media");

		c.download_dir = xmalloc(n);
		snprintf(c.download_dir, n, "%s/media", c.data_dir);
	}
	make_absolute(&c.download_dir);	/* the path shown is whole */
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
