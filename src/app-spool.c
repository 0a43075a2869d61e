/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-spool.c -- the hand-over of `wachat send` (src/app-spool.h):
 * the spool's files, for the sender and for the running wachat, and the
 * engine thread's watch on the directory (src/app-int.h), which feeds
 * each message into the outbox.
 */
#include "base/compat.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "base/err.h"
#include "base/log.h"
#include "base/sysrand.h"
#include "proto/dm.h"
#include "src/app-int.h"
#include "src/app-spool.h"

#define eng_log(level, ...) log_write(level, "eng", __func__, __VA_ARGS__)

#define SPOOL_POLL_MS	2000	/* the timer beside inotify */

/* ---- the files ---- */

int
app_spool_dir(const char *data_dir, bool make, char *out, size_t size)
{
	struct stat	 st;

	if ((size_t)snprintf(out, size, "%s/%s", data_dir, APP_SPOOL_NAME) >=
	    size)
		return -ENAMETOOLONG;
	if (lstat(out, &st) != 0) {
		if (errno != ENOENT || !make)
			return -errno;
		if (mkdir(out, 0700) != 0 && errno != EEXIST)
			return -errno;
		if (lstat(out, &st) != 0)
			return -errno;
	}
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (st.st_uid != geteuid() || (st.st_mode & 077) != 0)
		return -EPERM;
	return 0;
}

/* Write p[0..len) to fd whole; 0 or -errno. */
static int
write_all(int fd, const void *p, size_t len)
{
	const char	*c = p;
	ssize_t		 n;

	while (len > 0) {
		if ((n = write(fd, c, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write the parts to dir/tmp (0600, new), sync it and rename it to
 * dir/name.  Returns 0 or -errno (tmp removed). */
static int
write_atomic(const char *dir, const char *tmp, const char *name,
    const char *const *parts, const size_t *lens, size_t nparts)
{
	char	 t[4096], f[4096];
	size_t	 i;
	int	 fd, rc = 0;

	if ((size_t)snprintf(t, sizeof(t), "%s/%s", dir, tmp) >= sizeof(t) ||
	    (size_t)snprintf(f, sizeof(f), "%s/%s", dir, name) >= sizeof(f))
		return -ENAMETOOLONG;
	fd = open(t, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd < 0)
		return -errno;
	for (i = 0; rc == 0 && i < nparts; i++)
		rc = write_all(fd, parts[i], lens[i]);
	if (rc == 0 && fsync(fd) != 0)
		rc = -errno;
	if (close(fd) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(t, f) != 0)
		rc = -errno;
	if (rc != 0)
		(void)unlink(t);
	return rc;
}

/* parts[0..n) written as a new TOKEN.msg of spool, its token into
 * token. */
static int
put_parts(const char *spool, const char *const *parts, const size_t *lens,
    size_t n, char token[APP_SPOOL_TOKEN_MAX])
{
	char		 tmp[APP_SPOOL_TOKEN_MAX + 8];
	char		 name[APP_SPOOL_TOKEN_MAX + 8];
	uint8_t		 r[8];
	struct timespec	 ts;

	if (sys_random(NULL, r, sizeof(r)) != 0)
		return -EIO;
	(void)clock_gettime(CLOCK_REALTIME, &ts);
	snprintf(token, APP_SPOOL_TOKEN_MAX, "%lld-%ld-%02x%02x%02x%02x%02x"
	    "%02x%02x%02x", (long long)ts.tv_sec, (long)getpid(), r[0], r[1],
	    r[2], r[3], r[4], r[5], r[6], r[7]);
	snprintf(tmp, sizeof(tmp), ".%s.tmp", token);
	snprintf(name, sizeof(name), "%s.msg", token);
	return write_atomic(spool, tmp, name, parts, lens, n);
}

int
app_spool_put(const char *spool, const char *chat, const char *text,
    size_t len, char token[APP_SPOOL_TOKEN_MAX])
{
	const char	*parts[4] = { APP_SPOOL_MAGIC, chat, "\n", text };
	size_t		 lens[4] = { strlen(APP_SPOOL_MAGIC), strlen(chat), 1,
			    len };

	return put_parts(spool, parts, lens, 4, token);
}

int
app_spool_put_file(const char *spool, const char *chat, const char *path,
    const char *caption, bool ptt, char token[APP_SPOOL_TOKEN_MAX])
{
	const char	*flag = ptt ? "ptt\n" : "-\n";
	const char	*parts[7] = { APP_SPOOL_FILE_MAGIC, chat, "\n", flag,
			    path, "\n", caption };
	size_t		 lens[7] = { strlen(APP_SPOOL_FILE_MAGIC),
			    strlen(chat), 1, strlen(flag), strlen(path), 1,
			    strlen(caption) };

	if (path[0] != '/' || strchr(path, '\n') != NULL ||
	    strlen(caption) > APP_SPOOL_FILE_MAX - 8192)
		return -EINVAL;
	return put_parts(spool, parts, lens, 7, token);
}

/* Read all of dir/name (at most max bytes; regular, ours, no link) into
 * a new NUL-terminated buffer, its length in *len.  Returns it, or NULL
 * with errno set. */
static char *
read_file(const char *dir, const char *name, size_t max, size_t *len)
{
	char		 path[4096], *p;
	struct stat	 st;
	ssize_t		 n;
	size_t		 got = 0;
	int		 fd, e;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path)) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	if ((fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return NULL;
	e = fstat(fd, &st) != 0 ? errno : !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || st.st_size < 0 ? EINVAL :
	    (size_t)st.st_size > max ? EFBIG : 0;
	if (e != 0) {
		(void)close(fd);
		errno = e;
		return NULL;
	}
	p = malloc((size_t)st.st_size + 1);
	while (p != NULL && got < (size_t)st.st_size) {
		n = read(fd, p + got, (size_t)st.st_size - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	(void)close(fd);
	if (p == NULL || got != (size_t)st.st_size) {
		free(p);
		errno = EIO;
		return NULL;
	}
	p[got] = '\0';
	*len = got;
	return p;
}

int
app_spool_answer(const char *spool, const char *token, char *id,
    size_t idsize, char *why, size_t whysize)
{
	char	 name[APP_SPOOL_TOKEN_MAX + 8], path[4096], *p, *nl;
	size_t	 len;
	int	 rc;

	snprintf(name, sizeof(name), "%s.ack", token);
	if ((p = read_file(spool, name, 4096, &len)) == NULL) {
		if (errno == ENOENT)
			return 0;
		snprintf(why, whysize, "cannot read the answer: %s",
		    wc_strerror(-errno));
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", spool, name);
	(void)unlink(path);
	if ((nl = strchr(p, '\n')) != NULL)
		*nl = '\0';
	if (strncmp(p, "ok ", 3) == 0 && p[3] != '\0') {
		snprintf(id, idsize, "%s", p + 3);
		rc = 1;
	} else {
		snprintf(why, whysize, "%s", strncmp(p, "error ", 6) == 0 ?
		    p + 6 : "an answer that is none");
		rc = -1;
	}
	free(p);
	return rc;
}

int
app_spool_withdraw(const char *spool, const char *token)
{
	char	 path[4096];

	snprintf(path, sizeof(path), "%s/%s.msg", spool, token);
	return unlink(path) == 0 ? 0 : -errno;
}

bool
app_spool_busy(const char *data_dir, long *pid)
{
	int	 fd;
	bool	 busy = false;

	*pid = 0;
	if ((fd = open(data_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		return false;
	/* /proc/locks first: a lock taken to try, even for a moment, would
	 * make a wachat that starts in that moment stop */
	if ((*pid = app_db_lock_holder(fd)) > 0)
		busy = true;
	else if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
		busy = true;
		*pid = app_db_lock_holder(fd);
	}
	(void)close(fd);	/* a lock taken goes with it */
	return busy;
}

/* ---- the running wachat: the engine thread ---- */

/* Whether name is TOKEN.msg, a token as app_spool_put() makes them. */
static bool
is_msg(const char *name, size_t *token_len)
{
	size_t	 n = strlen(name), i;

	if (n <= 4 || n - 4 >= APP_SPOOL_TOKEN_MAX ||
	    strcmp(name + n - 4, ".msg") != 0)
		return false;
	for (i = 0; i < n - 4; i++)
		if (!((name[i] >= '0' && name[i] <= '9') ||
		    (name[i] >= 'a' && name[i] <= 'z') ||
		    (name[i] >= 'A' && name[i] <= 'Z') || name[i] == '-'))
			return false;
	*token_len = n - 4;
	return true;
}

/* Answer token with "ok ID" or "error WORDS". */
static void
answer(struct app *a, const char *token, const char *word, const char *rest)
{
	char		 tmp[APP_SPOOL_TOKEN_MAX + 16];
	char		 name[APP_SPOOL_TOKEN_MAX + 8];
	const char	*parts[4] = { word, " ", rest, "\n" };
	size_t		 lens[4] = { strlen(word), 1, strlen(rest), 1 };
	int		 rc;

	snprintf(tmp, sizeof(tmp), ".%s.tmp-ack", token);
	snprintf(name, sizeof(name), "%s.ack", token);
	if ((rc = write_atomic(a->spool, tmp, name, parts, lens, 4)) != 0)
		eng_log(LOG_ERROR, "answering %s: %s", token,
		    wc_strerror(rc));
}

/* One message handed over: taken, queued, answered. */
/* The answer to token for a message queued as id (rc 0) or not. */
static void
said(struct app *a, const char *token, int rc, const char *id)
{
	if (rc == 0) {
		eng_log(LOG_INFO, "handed over: %s queued as %s", token, id);
		answer(a, token, "ok", id);
		return;
	}
	eng_log(LOG_WARN, "handed over: %s not queued: %s", token,
	    wc_strerror(rc));
	answer(a, token, "error", rc == -ENOSPC ? "not queued: the disk is "
	    "full" : rc == -EFBIG ? "the file is larger than max-media-size" :
	    rc == -EISDIR ? "not a file to send" : rc == -ENODATA ? "the file "
	    "is empty" : rc == -ENOENT ||
	    rc == -EACCES ? "the file cannot be read" : rc == -EINVAL ?
	    "not queued: not a chat to send to, or the text is empty or too "
	    "long" : "not queued: the database cannot be written");
	if (rc == -ENOSPC)
		app_disk_full(a);
}

/* said() for a file: -EINVAL is a voice note that is not one. */
static void
said_file(struct app *a, const char *token, int rc, const char *id)
{
	if (rc == -EINVAL) {
		eng_log(LOG_WARN, "handed over: %s not queued: %s", token,
		    wc_strerror(rc));
		answer(a, token, "error", "only an Ogg Opus file goes as a "
		    "voice note (--ptt)");
		return;
	}
	said(a, token, rc, id);
}

/* A file of wachat send --file (src/app-spool.h) in p[0..len), NUL
 * after it: handed to the upload pipeline, answered. */
static void
take_file(struct app *a, const char *token, char *p, size_t len)
{
	struct cmd_send_file	 f;
	char			*chat, *flag, *path, *caption, *nl;
	size_t			 ml = strlen(APP_SPOOL_FILE_MAGIC);

	chat = p + ml;
	if (memchr(p, '\0', len) != NULL ||
	    (nl = memchr(chat, '\n', len - ml)) == NULL ||
	    (*nl = '\0', flag = nl + 1, nl = strchr(flag, '\n')) == NULL ||
	    (*nl = '\0', path = nl + 1, nl = strchr(path, '\n')) == NULL) {
		answer(a, token, "error", "not a message of wachat send");
		return;
	}
	*nl = '\0';
	caption = nl + 1;
	memset(&f, 0, sizeof(f));
	f.chat = chat;
	f.path = path;
	f.caption = caption;
	f.quoted_id = f.quoted_sender = f.quoted_text = (char *)"";
	f.ptt = strcmp(flag, "ptt") == 0;
	app_upload_spool(a, &f, token, said_file);
}

static void
take(struct app *a, struct wa_dm *dm, const char *token)
{
	char		 from[sizeof(a->spool) + APP_SPOOL_TOKEN_MAX + 8];
	char		 to[sizeof(a->spool) + APP_SPOOL_TOKEN_MAX + 8];
	char		 taken[APP_SPOOL_TOKEN_MAX + 8];
	char		 id[WA_DM_ID_MAX], *p, *chat, *text, *nl;
	size_t		 len, ml = strlen(APP_SPOOL_MAGIC);
	int		 rc;

	snprintf(from, sizeof(from), "%s/%s.msg", a->spool, token);
	snprintf(taken, sizeof(taken), "%s.taken", token);
	snprintf(to, sizeof(to), "%s/%s", a->spool, taken);
	if (rename(from, to) != 0) {	/* withdrawn meanwhile */
		eng_log(LOG_INFO, "%s: %s", token, wc_strerror(-errno));
		return;
	}
	if ((p = read_file(a->spool, taken, APP_SPOOL_FILE_MAX, &len)) ==
	    NULL) {
		answer(a, token, "error", errno == EFBIG ? "the message is "
		    "too long" : "the running wachat cannot read it");
		(void)unlink(to);
		return;
	}
	if (len >= strlen(APP_SPOOL_FILE_MAGIC) && memcmp(p,
	    APP_SPOOL_FILE_MAGIC, strlen(APP_SPOOL_FILE_MAGIC)) == 0) {
		take_file(a, token, p, len);
		goto out;
	}
	chat = p + ml;
	if (len < ml || memcmp(p, APP_SPOOL_MAGIC, ml) != 0 ||
	    (nl = memchr(chat, '\n', len - ml)) == NULL) {
		answer(a, token, "error", "not a message of wachat send");
		goto out;
	}
	*nl = '\0';
	text = nl + 1;
	if (memchr(text, '\0', len - (size_t)(text - p)) != NULL) {
		answer(a, token, "error", "the text holds a NUL byte");
		goto out;
	}
	rc = wa_dm_send_text(dm, chat, text, NULL, NULL, NULL, id);
	said(a, token, rc, id);
out:
	free(p);
	(void)unlink(to);
}

/* An answer no sender read (it was killed), or a file half written,
 * older than this, is removed. */
#define SPOOL_STALE_S	3600

/* Whether name is a spool file left behind: TOKEN.ack, .TOKEN.tmp,
 * .TOKEN.tmp-ack, older than SPOOL_STALE_S. */
static bool
stale(const struct app *a, const char *name, time_t now)
{
	char		 path[sizeof(a->spool) + 256];
	struct stat	 st;
	size_t		 n = strlen(name);

	if (!(n > 4 && strcmp(name + n - 4, ".ack") == 0) &&
	    !(name[0] == '.' && strstr(name, ".tmp") != NULL))
		return false;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", a->spool, name) >=
	    sizeof(path))
		return false;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    st.st_mtime + SPOOL_STALE_S < now;
}

/* Every TOKEN.msg in the spool, taken; stale files removed. */
static void
scan(struct app *a)
{
	struct wa_dm	*dm;
	struct dirent	*d;
	char		 token[APP_SPOOL_TOKEN_MAX];
	char		 path[sizeof(a->spool) + 256];
	size_t		 n;
	time_t		 now = time(NULL);
	DIR		*dir;

	if (a->stopping || a->eng == NULL || (dm = wa_eng_dm(a->eng)) == NULL)
		return;
	if ((dir = opendir(a->spool)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (stale(a, d->d_name, now) && (size_t)snprintf(path,
		    sizeof(path), "%s/%s", a->spool, d->d_name) < sizeof(path)) {
			eng_log(LOG_INFO, "removing %s: left over", d->d_name);
			(void)unlink(path);
		}
		if (!is_msg(d->d_name, &n))
			continue;
		memcpy(token, d->d_name, n);
		token[n] = '\0';
		take(a, dm, token);
		if (a->stopping)
			break;
	}
	(void)closedir(dir);
}

static void
on_spool_event(uv_fs_event_t *h, const char *name, int events, int status)
{
	struct app	*a = h->data;
	size_t		 n;

	(void)events;
	if (status == 0 && (name == NULL || is_msg(name, &n)))
		scan(a);
}

static void
on_spool_timer(uv_timer_t *t)
{
	scan(t->data);
}

void
app_spool_start(struct app *a)
{
	int	 rc;

	if ((rc = app_spool_dir(a->conf->data_dir, true, a->spool,
	    sizeof(a->spool))) != 0) {
		eng_log(LOG_WARN, "no spool for wachat send (%s): %s",
		    a->spool, wc_strerror(rc));
		return;
	}
	uv_timer_init(&a->eng_loop, &a->spool_timer);
	a->spool_timer.data = a;
	uv_timer_start(&a->spool_timer, on_spool_timer, 0, SPOOL_POLL_MS);
	if (uv_fs_event_init(&a->eng_loop, &a->spool_ev) == 0) {
		a->spool_ev.data = a;
		if ((rc = uv_fs_event_start(&a->spool_ev, on_spool_event,
		    a->spool, 0)) != 0)
			eng_log(LOG_INFO, "no inotify on the spool: %s",
			    wc_strerror(rc));
		a->spool_ev_on = true;
	}
	a->spool_on = true;
}

static void
closed(uv_handle_t *h)
{
	(void)h;
}

void
app_spool_stop(struct app *a)
{
	if (!a->spool_on)
		return;
	a->spool_on = false;
	uv_close((uv_handle_t *)&a->spool_timer, closed);
	if (a->spool_ev_on)
		uv_close((uv_handle_t *)&a->spool_ev, closed);
	a->spool_ev_on = false;
}
