/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/hsync.h -- history sync in the engine (protocol.md 12, 14.2):
 * the queue of history-sync notifications our phone sent (stored by the
 * messaging module in the transaction of the message that carried them),
 * each taken in turn: the media hosts asked of the server (media_conn),
 * the blob fetched over HTTPS off the loop (proto/http-get.h), checked and
 * decrypted (proto/media.h), inflated and parsed (proto/history.h) within
 * bounds, handed to the store's import, then the hist_sync receipt.  A
 * notification leaves the queue only once imported (or refused as
 * corrupt) and its receipt acked by the server: a crash mid-import imports
 * it again (the store ignores what it holds already), a receipt lost to a
 * crash goes again at the next login.  A write of the store's that
 * fails (a full disk, an I/O error) sends no receipt and stops the queue
 * until the next login, and the host is told (WA_HSYNC_EV_STORE_FAILED),
 * as for a message (reliability.md "Disk full").  Engine thread only.
 */
#ifndef WA_HSYNC_H
#define WA_HSYNC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/bin.h"
#include "proto/history.h"

struct buf;
struct uv_loop_s;
struct wa_hsync;

#define WA_HSYNC_ID_MAX		129	/* a queued id, with the NUL */
#define WA_HSYNC_BLOB_MAX	(64u << 20)	/* bytes of a download */
#define WA_HSYNC_TIMEOUT_MS	120000	/* one download */

/* The queue and the import, bound over store/ by src/app-hist.c. */
struct wa_hsync_store_ops {
	/* The oldest queued notification: 1 with its id and the decrypted
	 * Message bytes appended to *msg, 0 when none, < 0 on error. */
	int	(*next)(void *arg, char id[WA_HSYNC_ID_MAX], struct buf *msg);
	/* id is imported (or refused): its hist_sync receipt is due, and
	 * next() no longer gives it: >= 0, or < 0. */
	int	(*imported)(void *arg, const char *id);
	/* The ids imported whose receipt the server has not acked, each
	 * NUL-terminated, appended to *ids: their count, or < 0. */
	int	(*unreceipted)(void *arg, struct buf *ids);
	/* The server acked id's receipt: drop it from the queue: >= 0, or
	 * < 0. */
	int	(*done)(void *arg, const char *id);
	/* Import one parsed chunk (conversations, messages, push names,
	 * PN-LID mappings) durably; messages new to the store are not
	 * unread.  Returns the number of messages stored (>= 0), or < 0
	 * (nothing is dropped from the queue then). */
	int	(*import)(void *arg, const struct wa_hist *h);
	void	*arg;
};

/* What the engine gives the module. */
struct wa_hsync_host {
	int	(*send)(void *arg, const struct wa_node *n);
	void	(*iq_id)(void *arg, char out[32]);
	struct uv_loop_s *loop;
	const char	*ca_file;	/* extra CAs for the media hosts, or
					 * NULL; borrowed */
	/* "https" normally; the media host override of a local network
	 * is taken from the server's media_conn answer like any other. */
	void	*arg;
};

enum wa_hsync_ev_kind {
	WA_HSYNC_EV_PROGRESS,	/* a chunk was imported: sync_type, chunk,
				 * progress (percent), count = messages */
	WA_HSYNC_EV_FAILED,	/* a chunk was refused: why (in words) */
	WA_HSYNC_EV_IDLE,	/* the queue is empty */
	WA_HSYNC_EV_STORE_FAILED, /* a write failed: err -ENOSPC (the disk
				 * is full) or -EIO; the chunk stays queued,
				 * unreceipted, and nothing more is taken
				 * until wa_hsync_online() again (the host
				 * goes offline until a write succeeds);
				 * once per connection */
};

struct wa_hsync_ev {
	enum wa_hsync_ev_kind kind;
	int		 sync_type;	/* enum wa_hist_sync_type */
	uint32_t	 chunk;
	uint32_t	 progress;
	size_t		 count;
	int		 err;
	const char	*why;
};

typedef void	(*wa_hsync_event_fn)(void *arg, const struct wa_hsync_ev *ev);

/*
 * A new module over the borrowed host and store (they must outlive it).
 * Returns 0 and *out, freed with wa_hsync_free().  Errors: -EINVAL (a
 * NULL argument or op).
 */
MUST_CHECK int	wa_hsync_new(const struct wa_hsync_host *host,
		    const struct wa_hsync_store_ops *st,
		    wa_hsync_event_fn on_event, void *ev_arg,
		    struct wa_hsync **out);

/* Free h, cancelling a download in flight (NULL is a no-op). */
void		wa_hsync_free(struct wa_hsync *h);

/* Logged in as own_jid (our AD-JID): take the queue (again after a
 * store failure, WA_HSYNC_EV_STORE_FAILED). */
void		wa_hsync_online(struct wa_hsync *h, const char *own_jid);

/* The connection is gone: the transfer in flight is given up (its
 * notification stays queued). */
void		wa_hsync_offline(struct wa_hsync *h);

/* A notification was queued: take it when idle. */
void		wa_hsync_kick(struct wa_hsync *h);

/* An <iq> answering the module's media_conn query, or the server's <ack
 * class="receipt" type="hist_sync"> of a receipt: 1 when it was (taken),
 * 0 when not. */
int		wa_hsync_stanza(struct wa_hsync *h, const struct wa_node *n);

/*
 * The download URL of direct_path on host (protocol.md 14.2, [WM]
 * form): https://HOST/PATH{?|&}hash=B64URL(enc_sha256)&mms-type=
 * md-msg-hist&__wa-mms= into out[len].  Returns 0, or -EINVAL (a NULL
 * argument, a path not starting with '/') or WC_ETOOBIG (out too small).
 * Pure.
 */
MUST_CHECK int	wa_hsync_url(const char *host, const char *direct_path,
		    const uint8_t enc_sha256[32], char *out, size_t len);

#endif
