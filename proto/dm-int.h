/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-int.h -- what proto/dm.c (1:1 messaging, the outbox) and
 * proto/dm-group.c (groups: sender keys, metadata, notifications) share:
 * the module's state and its helpers.  Not for other modules.  Engine
 * thread only, as proto/dm.h.
 */
#ifndef WA_DM_INT_H
#define WA_DM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "proto/dm.h"
#include "proto/msg.h"
#include "proto/usync.h"
#include "proto/wa-signal.h"

#define N_COUNTERS	64
#define COUNTER_KEY	(WA_DM_JID_MAX + WA_DM_ID_MAX)
#define DM_GROUP_IQS	8	/* group queries and changes in flight */
#define DM_FANOUT_MAX	8192	/* devices one message goes to */

enum phase { P_IDLE, P_META, P_DEVICES, P_KEYS, P_ACK };

typedef char	dm_jid[WA_DM_JID_MAX];

/* The outgoing message being sent: one at a time, oldest first. */
struct job {
	enum phase	 phase;
	struct wa_dm_out o;
	char		 iq[32];	/* the query the job waits for */
	bool		 group;		/* o.chat is a group */
	bool		 lid;		/* a LID-addressed group */
	dm_jid		 own_dev;	/* groups: our device in the group's
					 * namespace (the sender-key name) */
	dm_jid		*users;		/* 1:1: contact, us; groups: members */
	bool		*asked;		/* usync asked for users[i] */
	size_t		 nusers;
	dm_jid		*devs;		/* the fan-out, AD-JIDs */
	bool		*own;		/* devs[i] is one of our devices */
	bool		*need;		/* devs[i] gets a pairwise copy (1:1:
					 * all; groups: those lacking our
					 * sender key) */
	bool		*kasked;	/* a key query named devs[i] */
	bool		*got;		/* groups: an SKDM copy went out */
	size_t		 ndevs, capdevs;
};

/* A retry answer waiting for a prekey bundle. */
struct pending_retry {
	bool		 active;
	char		 iq[32];
	char		 device[WA_DM_JID_MAX];
	char		 chat[WA_DM_JID_MAX];
	char		 id[WA_DM_ID_MAX];
	unsigned	 count;
	int64_t		 t;
	bool		 group;		/* a group's (10.5): chat is the group */
};

/* Bounded counters keyed by "device/id" (retry storms, 9.6). */
struct counter {
	char		 key[COUNTER_KEY];
	unsigned	 n;
};

/* A w:g2 query or change waiting for its answer. */
struct group_iq {
	char		 iq[32];	/* "" when the slot is free */
	int		 what;		/* enum in dm-group.c */
	dm_jid		 group;
	char		 subject[256];	/* a subject change: the new one */
};

struct wa_dm {
	struct wa_dm_host	 host;
	const struct wa_dm_store_ops *st;
	struct wa_signal	*sig;
	struct wa_dm_cfg	 cfg;
	wa_dm_event_fn		 on_event;
	void			*ev_arg;

	bool			 online;
	char			 own_jid[WA_DM_JID_MAX];	/* AD-JID */
	char			 own_pn[WA_DM_JID_MAX];	/* user JIDs */
	char			 own_lid[WA_DM_JID_MAX];
	unsigned		 own_dev;
	char			 push_name[128];
	uint32_t		 regid;
	const uint8_t		*adv;
	size_t			 adv_len;
	bool			 presence_sent;

	struct job		 job;
	bool			 kicking, rekick;
	int64_t			 cursor;	/* last outbox rowid tried */
	struct pending_retry	 retry;
	struct counter		 sent_retries[N_COUNTERS];	/* ours */
	struct counter		 answered[N_COUNTERS];	/* theirs */
	size_t			 sent_next, answered_next;
	struct group_iq		 giq[DM_GROUP_IQS];
};

/* --- proto/dm.c --- */
void	dm_emit(struct wa_dm *dm, const struct wa_dm_ev *ev);
void	dm_emit_state(struct wa_dm *dm, const char *chat, const char *id,
	    int state);
int	dm_send(struct wa_dm *dm, const struct wa_node *n);
/* "user[:dev]@server" -> "user@server" in out; false when not a JID. */
bool	dm_user_of(const char *jid, char *out, size_t len);
unsigned dm_device_of(const char *jid);
const char *dm_server_of(const char *jid);
bool	dm_same_user(const char *a, const char *b);
bool	dm_is_own(const struct wa_dm *dm, const char *jid);
int	dm_addr_of(const char *jid, struct wa_signal_addr *a);
void	dm_notice(struct wa_dm *dm, const char *chat, const char *sender,
	    int64_t ts, const char *text);
void	dm_job_clear(struct wa_dm *dm);
void	dm_job_fail(struct wa_dm *dm, int err, const char *why);
void	dm_kick(struct wa_dm *dm);
/* Append device to the job's fan-out; false when full. */
bool	dm_job_add_dev(struct job *j, const char *device, bool own);
/* The usync step: ask for the device lists the store lacks, in batches;
 * then dm_job_fanout(). */
void	dm_job_devices(struct wa_dm *dm);
void	dm_job_keys(struct wa_dm *dm);
void	dm_pad(struct wa_dm *dm, const uint8_t *p, size_t len, struct buf *out);
int	dm_encrypt_for(struct wa_dm *dm, const char *device, bool own,
	    const char *chat, const uint8_t *p, size_t len,
	    enum wa_msg_enc_type *type, struct buf *ct);
int	dm_take_bundle(struct wa_dm *dm, const char *device,
	    const struct wa_signal_bundle *b);
void	dm_send_ack(struct wa_dm *dm, const struct wa_node *n,
	    const char *error);
void	dm_send_retry(struct wa_dm *dm, const struct wa_msg_in *m);
/* End the transaction of one received <enc> whose result is rc: commit
 * (rc 0) or roll back, wipe and free the plaintext, and on a commit add
 * the "security code changed" line when changed (not for our own).
 * Returns rc, or the commit's error. */
/*
 * Give n, a <message> to one device, its children: <enc v="2"
 * type="pkmsg|msg" [count=count]> holding ct (count 0: none; a retry
 * answer's count, protocol.md 9.6), then our <device-identity> after a
 * pkmsg (9.2).  The nodes live in a.
 */
void	dm_enc_kids(struct wa_dm *dm, struct arena *a, struct wa_node *n,
	    bool pkmsg, unsigned count, const struct buf *ct);

int	dm_enc_end(struct wa_dm *dm, int rc, struct buf *plain, bool changed,
	    bool from_me, const char *chat, const char *sender);
int	dm_apply(struct wa_dm *dm, const struct wa_msg_in *m, const char *chat,
	    const char *sender, bool from_me, const struct wa_msg_content *c,
	    bool *shown);
/* Our name for a JID in event lines: contact or push name, else +digits
 * of a PN, else "someone".  out[len]. */
void	dm_name_of(struct wa_dm *dm, const char *jid, char *out, size_t len);

/* --- proto/dm-group.c --- */
/* The job is for a group: load its members (or ask the server), then
 * dm_job_devices(). */
void	dm_group_job_start(struct wa_dm *dm);
/* Mark which fan-out devices need the SKDM (after dm_job_fanout()). */
int	dm_group_job_need(struct wa_dm *dm);
/* Encrypt (SKDM copies + skmsg) and send the job's group message. */
void	dm_group_job_encrypt(struct wa_dm *dm);
/* The server acked the job's group message: record the SKDM holders. */
void	dm_group_job_acked(struct wa_dm *dm);
/* A <message> from a group (from g.us, participant set). */
void	dm_group_on_message(struct wa_dm *dm, const struct wa_node *n,
	    struct wa_msg_in *m);
/* The members of group mentioned in text as "@DIGITS" (their user
 * part, PN or LID): a malloc'd array of JIDs (one malloc block, free()
 * it) in *out and their count; 0 and NULL when none. */
size_t	dm_group_mentions(struct wa_dm *dm, const char *group,
	    const char *text, char ***out);
/* A retry receipt from a group member's device (10.5). */
void	dm_group_on_retry(struct wa_dm *dm, const struct wa_msg_receipt_in *r);
/* Answer it once a session with device is there: our message (group, id)
 * with our SKDM, pairwise. */
void	dm_group_retry_answer(struct wa_dm *dm, const char *device,
	    const char *group, const char *id, unsigned count);
/* Fetch a fresh bundle of device, then answer the retry of (chat, id)
 * (dm->retry; one at a time): 0, or -EBUSY / the send's error. */
int	dm_retry_fetch(struct wa_dm *dm, const char *device, const char *chat,
	    const char *id, unsigned count, int64_t t, bool group);
/* A w:gp2 notification (the engine acks it). */
void	dm_group_on_notification(struct wa_dm *dm, const struct wa_node *n);
/* An iq answering one of the group queries: 1 when it was, else 0. */
int	dm_group_on_iq(struct wa_dm *dm, const struct wa_node *n);
/* Logged in: fetch the groups we are in. */
void	dm_group_online(struct wa_dm *dm);
void	dm_group_offline(struct wa_dm *dm);

#endif
