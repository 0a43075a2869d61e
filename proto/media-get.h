/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-get.h -- downloading a received message's media on request
 * (issue 19; protocol-features.md 1.1, 1.5, 1.8), in the engine: the
 * message's media row looked up through the store ops, a file over the
 * max-media-size cap refused before any request, the media hosts asked of
 * the server (media_conn, cached until its ttl), the file fetched with
 * proto/media-dl.h from each host in order into the media folder (a free
 * name, never replacing a file), progress and the outcome said as
 * events, the state kept in the store.  A URL that expired (HTTP 404 or
 * 410) asks our own phone for a re-upload (the media retry of 1.8) and,
 * once it answers, downloads from the new direct path (given to the
 * store ops, so that a later download asks it first); no answer within
 * the wait is "expired".  An HTTP 401 or 403 from a media host asks for
 * media_conn again, once per download.  At most WA_MGET_RUN_MAX
 * downloads run at once; the others wait in order.
 *
 * Threads: every function on the engine's loop thread; the store ops and
 * the event callback are called there too.
 */
#ifndef WA_MEDIA_GET_H
#define WA_MEDIA_GET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"
#include "proto/bin.h"
#include "proto/media-name.h"
#include "proto/msg.h"

struct uv_loop_s;
struct wa_mget;

#define WA_MGET_RUN_MAX		3	/* downloads at once */
#define WA_MGET_QUEUE_MAX	64	/* downloads asked for and not done */
#define WA_MGET_ID_MAX		128	/* bytes of a message id, NUL in */
#define WA_MGET_JID_MAX		128	/* bytes of a JID, NUL in */
#define WA_MGET_PATH_MAX	4096	/* bytes of a path, NUL in */
#define WA_MGET_MIME_MAX	256	/* bytes of a mimetype, NUL in */
#define WA_MGET_RETRY_WAIT_MS	30000	/* for the phone's re-upload (1.8:
					 * [RS] waits 30 s) */
#define WA_MGET_PROGRESS_MS	250	/* between two progress events */
#define WA_MGET_EEXIST_TRIES	3	/* a name taken under our feet */

/* Where a download stands in the store (the numbers of store/store.h
 * enum store_dl_state). */
enum wa_mget_state {
	WA_MGET_ST_NONE = 0,
	WA_MGET_ST_DOWNLOADING = 1,
	WA_MGET_ST_DONE = 2,
	WA_MGET_ST_FAILED = 3,
	WA_MGET_ST_CORRUPT = 4,
	WA_MGET_ST_EXPIRED = 5,
};

/* A message's media as the store has it (store ops lookup). */
struct wa_mget_item {
	bool		 from_me;
	char		 sender[WA_MGET_JID_MAX];	/* its author in a
					 * group (user JID), else "" */
	enum wa_msg_media_type type;
	char		 mimetype[WA_MGET_MIME_MAX];	/* raw network text */
	char		 file_name[WA_MEDIA_NAME_MAX + 1]; /* a document's,
					 * raw network text; "" none */
	uint64_t	 size;		/* fileLength, bytes; 0 unknown */
	uint8_t		 media_key[32];
	bool		 has_key;
	uint8_t		 file_sha256[32];
	bool		 has_sha256;
	uint8_t		 file_enc_sha256[32];
	bool		 has_enc_sha256;
	char		 direct_path[WA_MGET_PATH_MAX];	/* "" none */
	enum wa_mget_state state;
	char		 path[WA_MGET_PATH_MAX];	/* DONE: the file */
};

/* The module's store, bound over store/ by src/app-mget.c. */
struct wa_mget_store_ops {
	/* The media of message id in chat (received or ours) into *out
	 * (zeroed first by the module): 1, 0 when the message is not
	 * stored or has no media, < 0 on error. */
	int	(*lookup)(void *arg, const char *chat, const char *id,
		    struct wa_mget_item *out);
	/* The download of (chat, from_me, id) is now st; path with
	 * WA_MGET_ST_DONE only, else NULL: >= 0, or < 0. */
	int	(*set_state)(void *arg, const char *chat, bool from_me,
		    const char *id, enum wa_mget_state st, const char *path);
	/* The phone uploaded (chat, from_me, id)'s file again (1.8): its
	 * new direct_path (starts with '/'), kept so that a later
	 * download asks for it, not the expired one: >= 0, or < 0
	 * (logged; the download goes on).  May be NULL. */
	int	(*set_direct_path)(void *arg, const char *chat, bool from_me,
		    const char *id, const char *direct_path);
	void	*arg;
};

/* What the engine gives the module (as struct wa_hsync_host). */
struct wa_mget_host {
	int	(*send)(void *arg, const struct wa_node *n);
	void	(*iq_id)(void *arg, char out[32]);
	int	(*rng)(void *arg, uint8_t *p, size_t len);
	struct uv_loop_s *loop;
	const char	*ca_file;	/* extra CAs for the media hosts, or
					 * NULL; borrowed */
	void	*arg;
};

/* The settings (copied by wa_mget_new()). */
struct wa_mget_cfg {
	const char	*dir;		/* the media folder (download-dir):
					 * made 0700 when missing */
	uint64_t	 max_size;	/* max-media-size, bytes; 0: 2 GiB */
	uint32_t	 retry_wait_ms;	/* 0: WA_MGET_RETRY_WAIT_MS */
	uint32_t	 connect_timeout_ms;	/* 0: 15 s */
	uint32_t	 stall_timeout_ms;	/* 0: 30 s */
	bool		 plain_http;	/* http:// URLs instead of https://:
					 * for tests/test-wa-media-get only */
};

/* How a download ended. */
enum wa_mget_end {
	WA_MGET_OK,		/* path holds the checked file */
	WA_MGET_CORRUPT,	/* a hash or the MAC did not match: no file
				 * left */
	WA_MGET_LENGTH,		/* the file is not its declared length: no
				 * file left (stored as corrupt) */
	WA_MGET_EXPIRED,	/* gone from the server, and the phone did
				 * not upload it again in time (or has it
				 * no more) */
	WA_MGET_TOOBIG,		/* declared over max-media-size: nothing
				 * was asked of the server */
	WA_MGET_FAILED,		/* the network, a media host, or the disk
				 * (err says which); may be asked again */
	WA_MGET_NO_MEDIA,	/* no such message, or it holds no media
				 * wachat can download (no key or hash) */
	WA_MGET_CANCELLED,	/* wa_mget_free() came first (not said as
				 * an event; the store says NONE) */
};

enum wa_mget_ev_kind {
	WA_MGET_EV_PROGRESS,	/* done of total bytes (total 0: unknown),
				 * at most every WA_MGET_PROGRESS_MS */
	WA_MGET_EV_DONE,	/* end, err, path (OK) */
};

/* An event; strings borrowed for the call. */
struct wa_mget_ev {
	enum wa_mget_ev_kind kind;
	const char	*chat;
	const char	*id;
	bool		 from_me;
	uint64_t	 done, total;	/* PROGRESS: bytes of the blob */
	enum wa_mget_end end;		/* DONE */
	int		 err;		/* DONE: 0 for OK, else the cause (a
					 * check's code of media-stream.h,
					 * -errno, WC_ETOOBIG, ...) */
	long		 status;	/* DONE: the last HTTP status, 0 none */
	const char	*path;		/* DONE OK: the file; else "" */
	bool		 retried;	/* DONE: the phone uploaded it again */
};

typedef void	(*wa_mget_event_fn)(void *arg, const struct wa_mget_ev *ev);

/*
 * A new module over the borrowed host and store (they must outlive it)
 * with the settings cfg.  Returns 0 and *out, freed with wa_mget_free().
 * Errors: -EINVAL (a NULL argument, op or cfg->dir, an empty dir).
 */
MUST_CHECK int	wa_mget_new(const struct wa_mget_host *host,
		    const struct wa_mget_store_ops *st,
		    const struct wa_mget_cfg *cfg, wa_mget_event_fn on_event,
		    void *ev_arg, struct wa_mget **out);

/*
 * Stop every download (their temp files removed, their store state set
 * back to NONE, no event), close the module's timer; the memory goes
 * once the loop has closed it.  NULL is a no-op.
 */
void		wa_mget_free(struct wa_mget *m);

/* Logged in as own_jid (our AD-JID, PN): the downloads waiting for the
 * media hosts go on. */
void		wa_mget_online(struct wa_mget *m, const char *own_jid);

/* The connection is gone: a media_conn asked is forgotten (asked again
 * once online); downloads in flight go on. */
void		wa_mget_offline(struct wa_mget *m);

/*
 * Download the media of message id in chat: into out_path when not NULL
 * or "" (a file that exists there is never replaced: WA_MGET_FAILED with
 * -EEXIST), else into a free name in the media folder.  A message whose
 * file is downloaded already (and still there) ends at once, OK with its
 * path, unless out_path is given.  Every outcome comes as a
 * WA_MGET_EV_DONE event, also one known at once (TOOBIG, NO_MEDIA: then
 * within this call).  Returns 0.  Errors (no event): -EINVAL (a NULL or
 * too long argument), -EALREADY (that message is being downloaded: its
 * events go on), -EBUSY (WA_MGET_QUEUE_MAX downloads wait).
 */
MUST_CHECK int	wa_mget_get(struct wa_mget *m, const char *chat,
		    const char *id, const char *out_path);

/*
 * A stanza for the module: the <iq> answering its media_conn query, or a
 * <notification type="mediaretry"> answering a retry request (the engine
 * acks the notification).  Returns 1 when taken, 0 when not the
 * module's.
 */
int		wa_mget_stanza(struct wa_mget *m, const struct wa_node *n);

/* Downloads not done (running and waiting), for tests. */
size_t		wa_mget_pending(const struct wa_mget *m);

#endif
