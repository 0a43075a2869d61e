/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/app-viewonce.c -- a received view-once message opened once
 * (protocol-features.md 3.4; src/app-int.h): its file downloaded as other
 * media are (proto/media-get.h: streamed, its hashes checked) but into a
 * private temp file, 0600 in the 0700 folder DATA-DIR/runtime/tmp (never
 * the media folder), then the message marked opened
 * (store_viewonce_opened(): its key gone); the temp file is removed when
 * the opener exits (src/app-notify.c), else at the latest at quit or at
 * the next start (app_viewonce_sweep()).
 */
#include "base/compat.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LOG_TAG "app"
#include "base/err.h"
#include "base/log.h"
#include "proto/media-get.h"
#include "src/app-int.h"
#include "store/store.h"

/* DATA-DIR/runtime/tmp into out; with make, made 0700 (and runtime). */
static int
tmp_dir(const char *data_dir, bool make, char *out, size_t len)
{
	int	 n;

	n = snprintf(out, len, "%s/runtime", data_dir);
	if (n < 0 || (size_t)n + sizeof("/tmp") > len)
		return -ENAMETOOLONG;
	if (make && mkdir(out, 0700) != 0 && errno != EEXIST)
		return -errno;
	memcpy(out + n, "/tmp", sizeof("/tmp"));
	if (!make)
		return 0;
	if (mkdir(out, 0700) != 0 && errno != EEXIST)
		return -errno;
	return chmod(out, 0700) != 0 ? -errno : 0;
}

bool
app_viewonce_path(const char *data_dir, const char *path)
{
	char	 d[4096];
	size_t	 n;

	if (data_dir == NULL || path == NULL ||
	    tmp_dir(data_dir, false, d, sizeof(d)) != 0)
		return false;
	n = strlen(d);
	return strncmp(path, d, n) == 0 && path[n] == '/' &&
	    strchr(path + n + 1, '/') == NULL;
}

void
app_viewonce_sweep(const char *data_dir)
{
	char		 d[4096], p[4096 + 300];
	DIR		*dir;
	struct dirent	*e;
	int		 n = 0;

	if (data_dir == NULL || tmp_dir(data_dir, false, d, sizeof(d)) != 0 ||
	    (dir = opendir(d)) == NULL)
		return;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.' && (e->d_name[1] == '\0' ||
		    (e->d_name[1] == '.' && e->d_name[2] == '\0')))
			continue;
		snprintf(p, sizeof(p), "%s/%s", d, e->d_name);
		if (unlink(p) == 0)
			n++;
	}
	closedir(dir);
	if (n > 0)
		log_info("%d view-once file(s) left over: removed", n);
}

int
app_viewonce_get(struct app *a, const char *chat, const char *id,
    char *out, size_t len)
{
	static unsigned	 seq;
	char		 d[4096];
	int		 rc;

	if (a->store == NULL)
		return 0;
	if ((rc = store_viewonce_state(a->store, chat, id, NULL)) <=
	    STORE_VIEWONCE_NOT)
		return rc;
	if (rc == STORE_VIEWONCE_OPENED)
		return -EACCES;
	if ((rc = tmp_dir(a->conf->data_dir, true, d, sizeof(d))) != 0)
		return rc;
	rc = snprintf(out, len, "%s/vo-%ld-%u", d, (long)getpid(), ++seq);
	return rc < 0 || (size_t)rc >= len ? -ENAMETOOLONG : 1;
}

/* The new record of (chat, id) to the screen, as a change in place. */
static void
say_record(struct app *a, const char *chat, bool from_me, const char *id,
    const char *rec)
{
	struct ev	*ev = ev_new(EV_MSG_CHANGED);

	ev_set(&ev->u.msg_changed.key.chat, chat);
	ev_set(&ev->u.msg_changed.key.id, id);
	ev->u.msg_changed.key.from_me = from_me;
	ev_set(&ev->u.msg_changed.text, rec);
	app_eng_send(a, ev);
}

void
app_viewonce_done(struct app *a, const struct wa_mget_ev *e)
{
	bool	 from_me = false;
	char	*rec = NULL;
	int	 rc;

	if (a->store == NULL || store_viewonce_state(a->store, e->chat,
	    e->id, &from_me) != STORE_VIEWONCE_CLOSED)
		return;
	if (e->end != WA_MGET_OK) {	/* it may be tried again */
		if (store_media_set_download(a->store, e->chat, from_me, e->id,
		    STORE_DL_NONE, NULL) < 0)
			log_warn("a view-once download's state not reset");
		return;
	}
	if ((rc = store_viewonce_opened(a->store, e->chat, from_me, e->id,
	    &rec)) == 1)
		say_record(a, e->chat, from_me, e->id, rec);
	else if (rc < 0)
		log_warn("a view-once message not marked opened: %s",
		    wc_strerror(rc));
	free(rec);
}
