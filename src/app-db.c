/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-db.c -- the data dir and its database on the engine thread
 * (src/app-int.h): the single-instance lock (flock on the directory
 * itself, which no one can delete from under us), the store opened with
 * what is wrong with it said in words (empty, damaged, read-only, full,
 * permissions), --fresh-db moving a damaged database aside, and the
 * integrity check in the background after start (reliability.md rule 9).
 */
#include "base/compat.h"

#define LOG_TAG	"eng"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/err.h"
#include "base/event.h"
#include "base/i18n.h"
#include "base/log.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "src/app-int.h"
#include "src/app.h"
#include "store/backup.h"
#include "store/store.h"

#define eng_log(level, ...) log_write(level, "eng", __func__, __VA_ARGS__)

/* ---- the lock ---- */

/* The pid holding a flock on the file of fd, from /proc/locks; 0 when it
 * cannot be told. */
long
app_db_lock_holder(int fd)
{
	struct stat	 st;
	char		 line[256];
	unsigned	 maj, min;
	unsigned long	 ino;
	long		 pid, found = 0;
	FILE		*f;

	if (fstat(fd, &st) != 0 || (f = fopen("/proc/locks", "re")) == NULL)
		return 0;
	while (found == 0 && fgets(line, sizeof(line), f) != NULL)
		if (sscanf(line, "%*d: FLOCK %*s WRITE %ld %x:%x:%lu", &pid,
		    &maj, &min, &ino) == 4 && maj == major(st.st_dev) &&
		    min == minor(st.st_dev) && ino == st.st_ino)
			found = pid;
	(void)fclose(f);
	return found;
}

/*
 * Take the data dir's lock: flock exclusive on the directory's own fd,
 * kept while wachat runs (a lock file could be deleted under a running
 * wachat, and a second one would then take a new file's lock).  Creates
 * the dir (0700) when missing.  Returns 0, WC_ELOCKED with *pid (0:
 * unknown) when another process holds it, or -errno.
 */
static int
lock_data_dir(struct app *a, const char *dir, long *pid)
{
	int	 fd, rc;

	*pid = 0;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && mkdir(dir, 0700) == 0)
		fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		rc = errno == EWOULDBLOCK ? WC_ELOCKED : -errno;
		if (rc == WC_ELOCKED)
			*pid = app_db_lock_holder(fd);
		(void)close(fd);
		return rc;
	}
	a->lock_fd = fd;
	return 0;
}

/* ---- what is wrong, in words ---- */

/* The exit status for a failure to open the store (src/app.h). */
static int
exit_status(int rc)
{
	if (rc == WC_ELOCKED)
		return APP_EXIT_LOCKED;
	return store_err_damaged(rc) ? APP_EXIT_DAMAGED : APP_EXIT_DB;
}

/* No permission: for which path, into what. */
static void
denied(char *what, size_t size, const char *dir)
{
	char	 path[4096];

	store_denied_path(dir, true, path, sizeof(path));
	snprintf(what, size, _("permission denied: %s (wachat must read and "
	    "write it: check its owner and mode)"), path);
}

/* What is wrong with the database of dir (rc from store_open()), as a
 * sentence for the user into what. */
static void
say_why(char *what, size_t size, const char *dir, int rc)
{
	if (rc == WC_EDBEMPTY)
		snprintf(what, size, _("the database %s/wachat.db is empty (0 "
		    "bytes): it may have held this device's keys, so wachat "
		    "does not link anew over it; wachat --fresh-db moves it "
		    "aside and links anew"), dir);
	else if (rc == WC_EDBNOKEYS)
		snprintf(what, size, _("the database %s/wachat.db holds "
		    "chats but not the keys of the link they came by (its "
		    "device row is gone): wachat does not link anew over them; wachat "
		    "--fresh-db moves it aside and links anew (wachat history "
		    "and the other shell commands still read it)"), dir);
	else if (store_err_damaged(rc))
		snprintf(what, size, _("the database %s/wachat.db is damaged "
		    "(%s): wachat does not link anew over it, which would lose "
		    "the keys it holds; keep a copy of it, then wachat "
		    "--fresh-db moves it aside and links anew"), dir,
		    wc_strerror(rc));
	else if (rc == -EPERM)
		snprintf(what, size, _("the data dir %s (or its database) is "
		    "open to other users: wachat keeps keys there and refuses "
		    "it; chmod 700 the directory and 600 its files"), dir);
	else if (rc == -EROFS)
		snprintf(what, size, _("the data dir %s is on a read-only file "
		    "system: wachat must write its keys and messages there"),
		    dir);
	else if (rc == -EACCES)
		denied(what, size, dir);
	else if (rc == -ENOTDIR)
		snprintf(what, size, _("the data dir %s is not a directory"),
		    dir);
	else if (rc == -EISDIR)
		snprintf(what, size, _("%s/wachat.db is a directory, not a "
		    "database file"), dir);
	else if (rc == -ENOSPC)
		snprintf(what, size, _("the disk is full: the database in %s "
		    "cannot be written; free some space and start wachat "
		    "again"), dir);
	else if (rc == WC_ESCHEMA)
		snprintf(what, size, _("the database in %s was written by a "
		    "newer wachat"), dir);
	else
		snprintf(what, size, _("cannot open the store in %s: %s"), dir,
		    wc_strerror(rc));
}

/* Set the exit status for rc; returns rc. */
static int
fail(struct app *a, int rc)
{
	a->db_status = exit_status(rc);
	return rc;
}

/* ---- the device's keys ---- */

static bool
key_pair_ok(const uint8_t priv[STORE_KEY_LEN],
    const uint8_t pub[STORE_KEY_LEN])
{
	uint8_t	 p[STORE_KEY_LEN];
	bool	 ok;

	wa_crypto_x25519_base(priv, p);
	ok = memcmp(p, pub, sizeof(p)) == 0;
	wa_crypto_wipe(p, sizeof(p));
	return ok;
}

/* A JID of ours as the device row holds it: "" (not linked yet) or
 * digits, an optional ".agent" and ":device", then @server. */
static bool
own_jid_ok(const char *jid, const char *server)
{
	size_t	 n = strspn(jid, "0123456789");
	const char *at = strchr(jid, '@');

	if (jid[0] == '\0')
		return true;
	if (n == 0 || at == NULL || strcmp(at + 1, server) != 0)
		return false;
	return strspn(jid, "0123456789.:") == (size_t)(at - jid);
}

/* No device row: not linked yet or logged out (0), or an account's chats
 * left without their keys (WC_EDBNOKEYS: a new link would mix another
 * account's data with this one's), or the store's error. */
static int
check_no_device(struct store *s)
{
	struct store_chat_list	 l;
	size_t			 n;
	int			 rc;
	bool			 archived = false;

	if ((rc = store_device_logged_out(s)) != 0)
		return rc > 0 ? 0 : rc;	/* logged out: a new link is asked */
	do {
		memset(&l, 0, sizeof(l));
		if ((rc = store_chat_list(s, archived, 1, &l)) != 0)
			return rc;
		n = l.n;
		store_chat_list_free(&l);
		if (n > 0) {
			eng_log(LOG_ERROR, "no device row, but chats: the "
			    "keys are gone");
			return WC_EDBNOKEYS;
		}
	} while ((archived = !archived));
	return 0;
}

/*
 * The device row read back and checked: each stored public key must be
 * the one of its private key, and the JIDs must be JIDs.  A flipped byte
 * there would otherwise log in with other keys, or be taken for "not
 * linked" and make new ones.  Returns 0 (also for no device: not linked),
 * WC_EDBMALFORMED, WC_EDBNOKEYS (no device, but chats), or the store's
 * error.
 */
static int
check_device(struct store *s)
{
	struct store_device	 d;
	int			 rc;

	memset(&d, 0, sizeof(d));
	if ((rc = store_device_load(s, &d)) == 0)
		return check_no_device(s);
	if (rc < 0)
		return store_quick_check(s, NULL, 0) != 0 ? WC_EDBMALFORMED :
		    rc;
	if (!key_pair_ok(d.noise_priv, d.noise_pub) ||
	    !key_pair_ok(d.identity_priv, d.identity_pub) ||
	    !key_pair_ok(d.spk_priv, d.spk_pub) ||
	    !own_jid_ok(d.jid, "s.whatsapp.net") ||
	    !own_jid_ok(d.lid, "lid")) {
		eng_log(LOG_ERROR, "the device row does not hold together: "
		    "a key or JID is damaged");
		rc = WC_EDBMALFORMED;
	} else
		rc = 0;
	store_device_release(&d);
	return rc;
}

/* ---- opening ---- */

/* The store opened and its device checked; closed again on failure. */
static int
open_checked(struct app *a, bool deep)
{
	int	 rc;

	if ((rc = store_open(a->conf->data_dir, &a->store)) != 0)
		return rc;
	if ((rc = check_device(a->store)) == 0 && deep)
		rc = store_quick_check(a->store, NULL, 0);
	if (rc != 0) {
		store_keep_as_is(a->store);
		store_close(a->store);
		a->store = NULL;
	}
	return rc;
}

/*
 * --fresh-db: a damaged database (found at open, by its device's keys or
 * by a full quick_check now) is moved aside and a new one made; a sound
 * one is kept and wachat stops, having moved nothing.
 */
static int
open_fresh(struct app *a, char *what, size_t size)
{
	const char	*dir = a->conf->data_dir;
	char		 aside[4096];
	int		 rc, why;

	if ((rc = open_checked(a, true)) == 0) {
		store_close(a->store);
		a->store = NULL;
		snprintf(what, size, _("--fresh-db: the database in %s is not "
		    "damaged, so it was not moved; start wachat without "
		    "--fresh-db"), dir);
		a->db_status = EXIT_FAILURE;
		return WC_ESTATE;
	}
	if (!store_err_damaged(rc) && rc != -EIO) {
		say_why(what, size, dir, rc);
		return fail(a, rc);
	}
	why = rc;
	if ((rc = store_move_aside(dir, aside, sizeof(aside))) != 0) {
		snprintf(what, size, _("--fresh-db: cannot move the damaged "
		    "database in %s aside: %s"), dir, wc_strerror(rc));
		return fail(a, rc);
	}
	snprintf(what, size, _("the damaged database was moved to %s; "
	    "linking anew"), aside);
	eng_log(LOG_WARN, "%s (it was: %s)", what, wc_strerror(why));
	app_eng_error(a, what, 0);	/* information, not an error */
	if ((rc = open_checked(a, false)) != 0) {
		say_why(what, size, dir, rc);
		return fail(a, rc);
	}
	return 0;
}

int
app_db_open(struct app *a, char *what, size_t size)
{
	const char	*dir = a->conf->data_dir;
	long		 pid;
	int		 rc;

	uv_mutex_init(&a->check_mu);
	a->check_mu_ok = true;
	/* One wachat per data dir: a second would log in as the same device
	 * and take messages from the first.  The lock comes first, so that
	 * --fresh-db moves nothing another wachat has open.  The shell
	 * commands read without it. */
	if ((rc = lock_data_dir(a, dir, &pid)) != 0) {
		if (rc == WC_ELOCKED && pid > 0)
			snprintf(what, size, _("another wachat (pid %ld) "
			    "is running with the data dir %s"), pid, dir);
		else if (rc == WC_ELOCKED)
			snprintf(what, size, _("another wachat is "
			    "running with the data dir %s"), dir);
		else
			say_why(what, size, dir, rc);
		eng_log(LOG_ERROR, "locking %s: %s", dir, wc_strerror(rc));
		return fail(a, rc);
	}
	if (a->fresh_db)
		return open_fresh(a, what, size);
	if ((rc = open_checked(a, false)) != 0) {
		eng_log(LOG_ERROR, "store_open %s: %s", dir, wc_strerror(rc));
		say_why(what, size, dir, rc);
		return fail(a, rc);
	}
	return 0;
}

/* ---- the check in the background ---- */

/* The worker thread (libuv's pool): a read-only connection of its own
 * beside a->store (never a raw open of the file in this process: its
 * close would drop a->store's locks), PRAGMA quick_check, closed. */
static void
check_work(uv_work_t *req)
{
	struct app	*a = req->data;
	struct store	*ro = NULL;
	int		 rc;

	rc = store_open_ro_beside(a->conf->data_dir, &ro);
	uv_mutex_lock(&a->check_mu);
	if (rc == 0 && a->check_cancel)
		rc = -EINTR;
	a->check_store = rc == 0 ? ro : NULL;
	uv_mutex_unlock(&a->check_mu);
	if (rc == 0)
		rc = store_quick_check(ro, a->check_why, sizeof(a->check_why));
	uv_mutex_lock(&a->check_mu);
	a->check_store = NULL;
	uv_mutex_unlock(&a->check_mu);
	store_close(ro);
	a->check_rc = rc;
}

/* Back on the engine loop: said in the log, and on the status line when
 * the database is damaged. */
static void
check_done(uv_work_t *req, int status)
{
	struct app	*a = req->data;
	struct ev	*ev;
	char		 what[1024];

	if (status != 0 || a->check_rc == -EINTR) {
		eng_log(LOG_INFO, "integrity check: cancelled");
		return;
	}
	if (a->check_rc == 0) {
		eng_log(LOG_INFO, "integrity check: ok");
		return;
	}
	/* SQLite's words name pages and trees, never a row's content. */
	eng_log(LOG_ERROR, "integrity check: %s: %s",
	    wc_strerror(a->check_rc), a->check_why);
	if (a->stopping)
		return;
	if (store_err_damaged(a->check_rc))
		snprintf(what, sizeof(what), _("the database is damaged (%s): "
		    "quit, keep a copy of %s, then start wachat --fresh-db"),
		    a->check_why[0] != '\0' ? a->check_why :
		    wc_strerror(a->check_rc), a->conf->data_dir);
	else {
		snprintf(what, sizeof(what), _("the database's integrity "
		    "check could not run"));
		app_eng_error(a, what, a->check_rc);
		return;
	}
	/* Said in full for a while, then kept short on the status line
	 * until quit: the damage does not go away. */
	ev = ev_new(EV_ERROR);
	ev_set(&ev->u.error.what, what);
	ev->u.error.err = a->check_rc;
	ev_set(&ev->u.error.lasting, _("database damaged: see wachat backup "
	    "/ --fresh-db"));
	app_eng_send(a, ev);
}

void
app_db_check_start(struct app *a)
{
	a->check_req.data = a;
	if (uv_queue_work(&a->eng_loop, &a->check_req, check_work,
	    check_done) == 0)
		a->check_started = true;
}

void
app_db_check_stop(struct app *a)
{
	if (!a->check_mu_ok)
		return;
	uv_mutex_lock(&a->check_mu);
	a->check_cancel = true;
	if (a->check_store != NULL)
		store_interrupt(a->check_store);
	uv_mutex_unlock(&a->check_mu);
}

void
app_db_close(struct app *a)
{
	store_close(a->store);
	a->store = NULL;
	if (a->lock_fd >= 0)
		(void)close(a->lock_fd);	/* releases the lock */
	a->lock_fd = -1;
	if (a->check_mu_ok)
		uv_mutex_destroy(&a->check_mu);
	a->check_mu_ok = false;
}
