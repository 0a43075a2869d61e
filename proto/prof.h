/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/prof.h -- contacts' profiles and the blocklist in the engine
 * (issue 20), over the stanzas of proto/profile.h: the blocklist asked
 * at every login (protocol.md 15.5) and kept in memory, changed by us
 * (an <iq xmlns="blocklist" type="set">, taken once the server answers)
 * or by another device (<notification type="account_sync"><blocklist>,
 * protocol-features.md 3.9), each time said whole; a contact's or
 * group's about text (usync <status/>, 4.2) and preview picture (the
 * w:profile:picture query, 4.1) asked on request, the picture fetched
 * over HTTPS (proto/http-get.h, at most WA_PROF_PIC_BYTES) and cached
 * in a folder by its id, so that it is downloaded again only when the
 * server names another id; a <notification type="picture"> about the
 * contact last asked for asks again.
 *
 * Threads: every function on the engine's loop thread; the event
 * callback is called there too.
 */
#ifndef WA_PROF_H
#define WA_PROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"
#include "proto/bin.h"
#include "proto/profile.h"

struct uv_loop_s;
struct wa_prof;

#define WA_PROF_PIC_BYTES	(64u << 10)	/* bytes of a preview kept */
#define WA_PROF_HTTP_MS		15000	/* a picture's download at most */
#define WA_PROF_IQS		8	/* queries in flight */

/* What the engine gives the module (as struct wa_mget_host). */
struct wa_prof_host {
	int	(*send)(void *arg, const struct wa_node *n);
	void	(*iq_id)(void *arg, char out[32]);
	/* The other JID of user (a PN's LID, a LID's PN; protocol.md 5.3)
	 * into out[len]: 1, or 0 when none is known; NULL: none ever.  A
	 * block names a contact by its LID with its PN beside ([WM]), and a
	 * blocklist of LIDs is said with their PNs too. */
	int	(*lid_alt)(void *lid_arg, const char *user, char *out,
		    size_t len);
	void	*lid_arg;
	struct uv_loop_s *loop;
	const char	*ca_file;	/* extra CAs for the picture hosts, or
					 * NULL; borrowed */
	void	*arg;
};

/* Where a picture stands (the order of base/event.h enum
 * ev_pic_state). */
enum wa_prof_pic_state {
	WA_PROF_PIC_ASKING,
	WA_PROF_PIC_SHOWN,	/* pic holds it */
	WA_PROF_PIC_NONE,	/* none set */
	WA_PROF_PIC_HIDDEN,	/* hidden by privacy */
	WA_PROF_PIC_FAILED,	/* the query or the download failed */
};

enum wa_prof_ev_kind {
	WA_PROF_EV_BLOCKLIST,	/* bl: the whole list, after a change, each
				 * LID with its PN beside it when known */
	WA_PROF_EV_PROFILE,	/* what is known of jid */
	WA_PROF_EV_REFUSED,	/* our block (block) of jid was not taken:
				 * err (> 0 the server's code, < 0 ours) */
};

/* An event; everything borrowed for the call. */
struct wa_prof_ev {
	enum wa_prof_ev_kind kind;
	const struct wa_blocklist *bl;	/* BLOCKLIST */
	const char	*jid;		/* PROFILE, REFUSED */
	bool		 block;		/* REFUSED */
	int		 err;		/* REFUSED */
	bool		 about_known;	/* PROFILE */
	const char	*about;		/* raw network text, "" none */
	int64_t		 about_ms;	/* 0 unknown */
	enum wa_prof_pic_state pic_state;
	const char	*pic_id;	/* "" none */
	const uint8_t	*pic;		/* SHOWN: JPEG bytes, pic_len of them */
	size_t		 pic_len;
};

typedef void	(*wa_prof_event_fn)(void *arg, const struct wa_prof_ev *ev);

/*
 * A new module over the borrowed host (it must outlive it), its pictures
 * cached in dir (copied; made 0700 when missing, when the first picture
 * is kept).  Returns 0 and *out, freed with wa_prof_free().  Errors:
 * -EINVAL (a NULL argument, host op or dir, dir "").
 */
MUST_CHECK int	wa_prof_new(const struct wa_prof_host *host, const char *dir,
		    wa_prof_event_fn on_event, void *ev_arg,
		    struct wa_prof **out);

/* Cancel the downloads (no event) and free p.  NULL is a no-op. */
void		wa_prof_free(struct wa_prof *p);

/* Logged in: the blocklist is asked for (WA_PROF_EV_BLOCKLIST when it
 * comes). */
void		wa_prof_online(struct wa_prof *p);

/* The connection is gone: the queries out are forgotten (a block not
 * answered is said as REFUSED with -ENOTCONN). */
void		wa_prof_offline(struct wa_prof *p);

/*
 * Ask for jid's about text (a user only) and preview picture: one
 * WA_PROF_EV_PROFILE when the answers are in, another once the picture
 * is downloaded (or read from the cache).  Asking for another jid
 * forgets the one before.  Returns 0, or -EINVAL (jid not a JID or too
 * long), -ENOTCONN (offline), -EBUSY (WA_PROF_IQS queries are out).
 */
MUST_CHECK int	wa_prof_ask(struct wa_prof *p, const char *jid);

/*
 * Block (block) or unblock the user jid: the change is sent, and taken
 * into the list when the server answers (WA_PROF_EV_BLOCKLIST, or
 * WA_PROF_EV_REFUSED).  Returns 0, or -EINVAL, -ENOTCONN, -EBUSY as
 * wa_prof_ask(), -EALREADY (jid is already so).
 */
MUST_CHECK int	wa_prof_block(struct wa_prof *p, const char *jid, bool block);

/* Whether jid (a user JID) is blocked as the module knows it. */
bool		wa_prof_blocked(const struct wa_prof *p, const char *jid);

/*
 * A stanza for the module: the <iq> answering one of its queries, a
 * <notification type="account_sync"> with a <blocklist> or a
 * <notification type="picture">.  Returns true when it was the
 * module's (the engine acks notifications itself), false otherwise.
 */
bool		wa_prof_stanza(struct wa_prof *p, const struct wa_node *n);

#endif
