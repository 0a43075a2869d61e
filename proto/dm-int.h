/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm-int.h -- what the files of the message engine (proto/dm.h)
 * share: the module's state, the outbox job and the table through which
 * its core reaches a fan-out, and the functions each file gives the
 * others.  Not for other modules (tests may include it).  Engine thread
 * only, as proto/dm.h.
 *
 * The files, and whom each calls (no circle):
 *
 *   dm.c          the front: lifecycle, presence, the stanza dispatch;
 *                 binds the fan-outs into the core  -> every file below
 *   dm-send.c     the commands: text, reaction, edit, delete, peer,
 *                 read, typing, presence  -> dm-job.c, dm-tok.c,
 *                 dm-util.c
 *   dm-recv.c     messages in (1:1 and group), chat states, presence,
 *                 devices notifications  -> dm-peer.c, dm-poll.c,
 *                 dm-util.c
 *   dm-poll.c     polls: their secrets kept, votes decrypted and
 *                 tallied, or kept until their poll comes; our vote
 *                 -> dm-job.c, dm-util.c
 *   dm-direct.c   the 1:1 fan-out  -> dm-job.c, dm-peer.c, dm-tok.c,
 *                 dm-util.c
 *   dm-group.c    the group fan-out (sender keys, SKDM, skmsg)
 *                 -> dm-admin.c (the metadata query), dm-job.c,
 *                 dm-peer.c, dm-util.c
 *   dm-admin.c    the w:g2 queries and changes, w:gp2 notifications
 *                 -> dm-job.c, dm-util.c
 *   dm-job.c      the outbox core: phases, persistence before send, the
 *                 next job; a fan-out only through struct dm_fanout
 *                 -> dm-receipt.c (a skipped device's resend),
 *                 dm-peer.c, dm-tok.c (a 463's recovery), dm-util.c
 *   dm-tok.c      privacy tokens: kept, attached, issued (15.6)
 *                 -> dm-peer.c, dm-util.c
 *   dm-receipt.c  receipts in, retry receipts in and their answers
 *                 -> dm-peer.c, dm-util.c
 *   dm-peer.c     a peer device's Signal state: its PN and LID
 *                 addresses, a corrupt session rebuilt, an identity
 *                 change, a device skipped  -> dm-util.c
 *   dm-util.c     events, sends, names, the Signal helpers  -> none
 */
#ifndef WA_DM_INT_H
#define WA_DM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/call.h"
#include "proto/dm.h"
#include "proto/msg.h"
#include "proto/usync.h"
#include "proto/wa-signal.h"

#define N_COUNTERS	64
#define COUNTER_KEY	(WA_DM_JID_MAX + WA_DM_ID_MAX)
#define DM_GROUP_IQS	8	/* group queries and changes in flight */
#define DM_FANOUT_MAX	8192	/* devices one message goes to */
#define DM_SKIP_MAX	16	/* skipped devices a seal names */

/*
 * The phases of the outbox job.  P_IDLE: none; P_META: a group's metadata
 * is asked (dm-admin.c answers through dm_job_meta()); P_DEVICES: a usync
 * device query is out (or none is needed); P_KEYS: a prekey query is out;
 * P_ACK: the stanza went out, the server's ack is awaited; P_TOKEN: the
 * server refused a 1:1 message with 463, our token is being issued
 * (dm-tok.c), then the message goes once more.
 */
enum phase { P_IDLE, P_META, P_DEVICES, P_KEYS, P_ACK, P_TOKEN };

/* The kinds of job, each with its fan-out (struct dm_fanout). */
enum dm_kind { DM_KIND_DIRECT, DM_KIND_GROUP, DM_KINDS };

typedef char	dm_jid[WA_DM_JID_MAX];

struct wa_dm;
struct dm_fanout;

/* The outgoing message being sent: one at a time, oldest first. */
struct job {
	enum phase	 phase;
	const struct dm_fanout *kind;	/* NULL when idle */
	struct wa_dm_out o;
	char		 iq[32];	/* the query the job waits for */
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
	bool		 tok_resent;	/* sent again after a 463 */
};

#define DM_TOK_IQS	4	/* token issuings in flight */

/* An issuing of our privacy token in flight (dm-tok.c). */
struct tok_iq {
	char		 iq[32];	/* "" when the slot is free */
	char		 key[WA_DM_JID_MAX];	/* the contact's token key */
	int64_t		 t;		/* the t we issued, unix s */
};

/*
 * What a fan-out's seal made for its stanza: the pairwise copies (enc[i]
 * borrows ct[i] and a devs[] string of the job), and for a group the
 * skmsg.  Owned by the core (dm-job.c), which releases it.
 */
struct dm_seal {
	struct wa_msg_enc_out	*enc;
	struct buf		*ct;
	size_t			 n;	/* copies made */
	size_t			 cap;	/* room in enc[] and ct[] */
	bool			 pkmsg;	/* a copy is a pkmsg */
	struct buf		 skmsg;	/* groups: the one skmsg */
	size_t			 arena_len; /* bytes for the stanza's arena */
	const char		*why;	/* words of a failure (static) */
	/* devices whose encryption failed, left out (dm_peer_skip()) */
	char			 skipped[DM_SKIP_MAX][WA_DM_JID_MAX];
	size_t			 nskipped;	/* may exceed DM_SKIP_MAX */
};

/* Room for n copies in s (zeroed); the seal functions call it first. */
void	dm_seal_reserve(struct dm_seal *s, size_t n);

/*
 * One kind of job as the core (dm-job.c) drives it; the fan-out files
 * define one each (dm_direct_fanout, dm_group_fanout) and dm.c binds them
 * into struct wa_dm.  The core calls, in order: start, then (after the
 * device lists) need, then (with every session there) seal inside the
 * store's transaction, stanza after its commit, and acked after the
 * server's ack.  A hook that fails the job calls dm_job_fail().
 */
struct dm_fanout {
	const char	*name;		/* for logs: "message", "group message" */
	/* users[0] must have a device ("the number is not on WhatsApp") */
	bool		 contact_required;
	/* P_IDLE -> fill j->users, j->asked, j->nusers, then
	 * dm_job_devices(); or wait for metadata (P_META, dm_job_meta()
	 * calls start again); or dm_job_fail(). */
	void	(*start)(struct wa_dm *dm);
	/* Mark j->need[] after the fan-out list is made: 0 or an error.
	 * NULL: every device needs a copy. */
	int	(*need)(struct wa_dm *dm);
	/* Encrypt the job for its devices into s (the sessions advance in
	 * the core's open transaction): 0, or an error with s->why. */
	int	(*seal)(struct wa_dm *dm, struct dm_seal *s);
	/* After the commit: build the stanza from s in a: 0 and *out, or
	 * an error with s->why.  *out is encoded after this returns: what
	 * it points to lives in a, s, dm or the job, never on this
	 * function's stack. */
	int	(*stanza)(struct wa_dm *dm, struct dm_seal *s, struct arena *a,
		    struct wa_node **out);
	/* The server acked the stanza.  May be NULL. */
	void	(*acked)(struct wa_dm *dm);
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

/* A call seen on this run (dm-call.c): what its line said. */
#define DM_CALLS	16
struct dm_call {
	char		 id[80];	/* call-id; "" when the slot is free */
	uint32_t	 bits;		/* WA_DM_CALL_* */
	char		 group[WA_CALL_JID_MAX];	/* the offer's group-jid
					 * (a terminate carries none) */
	bool		 over;		/* its last line is shown */
	bool		 ringing;	/* a live offer's line shown, not
					 * over: wa_dm_call_reject() may
					 * decline it */
	char		 from[WA_CALL_JID_MAX];	/* the offer's from */
	char		 creator[WA_CALL_JID_MAX]; /* its call-creator */
};

/* A w:g2 query or change waiting for its answer. */
struct group_iq {
	char		 iq[32];	/* "" when the slot is free */
	int		 what;		/* enum dm_gq */
	dm_jid		 group;
	char		 subject[256];	/* a subject change: the new one */
	uint32_t	 eph_secs;	/* GQ_EPHEMERAL: the timer asked for */
};

struct wa_dm {
	struct wa_dm_host	 host;
	const struct wa_dm_store_ops *st;
	struct wa_signal	*sig;
	struct wa_dm_cfg	 cfg;
	wa_dm_event_fn		 on_event;
	void			*ev_arg;
	const struct dm_fanout	*kinds[DM_KINDS];

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
	int64_t			 recv_ts_ms;	/* the last received message's
						 * ts_ms (dm-recv.c apply()) */
	struct pending_retry	 retry;
	struct counter		 sent_retries[N_COUNTERS];	/* ours */
	struct counter		 answered[N_COUNTERS];	/* theirs */
	size_t			 sent_next, answered_next;
	struct group_iq		 giq[DM_GROUP_IQS];
	struct tok_iq		 tok[DM_TOK_IQS];
	bool			 full;		/* disk full: take nothing */
	bool			 io_failed;	/* a write failed (-EIO): the
						 * same until the next
						 * connection */
	bool			 full_told;	/* ... and said so */
	struct dm_call		 calls[DM_CALLS];
	size_t			 calls_next;
};

/* --- proto/dm-call.c --- */
/*
 * An incoming <call> n (protocol-features.md 5): read (proto/call.h) and
 * shown as a notice line in the caller's chat (or the group's): a live
 * offer "Incoming voice call", its terminate "Missed voice call" (or
 * answered or declined on another device), an offer from the offline
 * queue missed at once.  Never answers or rejects.  A call that cannot
 * be read is logged and taken (0: the engine acks it).  Returns 0, or
 * the store's error (the line not stored: not acked, sent again).
 */
int	dm_call_on(struct wa_dm *dm, const struct wa_node *n);

/* --- proto/dm-util.c: helpers every file uses --- */
void	dm_emit(struct wa_dm *dm, const struct wa_dm_ev *ev);
/*
 * Show a message of ours just queued: a WA_DM_EV_MESSAGE for chat with
 * id, text (a rich record when rich), quoted_id (NULL: none), ts_ms,
 * from us, WA_DM_QUEUED.  The strings are the caller's, read during the
 * call only.  Engine thread.
 */
void	dm_emit_queued(struct wa_dm *dm, const char *chat, const char *id,
	    const char *text, const char *quoted_id, bool rich, int64_t ts_ms);
/*
 * Was rc a failure of the store's rather than of what came in: -ENOSPC
 * (the disk is full; then dm->full is set) or -EIO (then dm->io_failed
 * is set)?  Either way nothing more is taken until the next connection.
 * A decryption's own errors are WC_E* codes, never these.
 */
bool	dm_store_failed(struct wa_dm *dm, int rc);
/* A write failed on this connection (dm->full or dm->io_failed): take
 * nothing more, ack nothing. */
bool	dm_store_held(const struct wa_dm *dm);
/* A write failed and the UI is not yet told: WA_DM_EV_DISK_FULL (the
 * disk is full) or WA_DM_EV_STORE_FAILED (-EIO), once per connection.
 * The host may go offline in it (wa_dm_offline()): the caller touches no
 * job or stanza state after. */
void	dm_full_tell(struct wa_dm *dm);
void	dm_emit_state(struct wa_dm *dm, const char *chat, const char *id,
	    int state);
/* WA_DM_EV_GROUP for group (left: we are out). */
void	dm_emit_group(struct wa_dm *dm, const char *group, bool left);
/* WA_DM_EV_ERROR for group (may be NULL) with err and words why. */
/* The <enc> mediatype of outgoing message o (protocol-features.md 1.7:
 * its Message's media type, "image", "ptt", ...), static; NULL when o is
 * not of stanza type "media" or its payload holds no media. */
const char *dm_mediatype(const struct wa_dm_out *o);

void	dm_emit_error(struct wa_dm *dm, const char *group, int err,
	    const char *why);
int	dm_send(struct wa_dm *dm, const struct wa_node *n);
/* One of our own accounts' JIDs (PN or LID), any device. */
bool	dm_is_own(const struct wa_dm *dm, const char *jid);
/* Our user JID in a group's namespace (lid: a LID group). */
const char *dm_own_user(const struct wa_dm *dm, bool lid);
/* Our device in that namespace, "user:dev@server", into out[len]. */
void	dm_own_device(const struct wa_dm *dm, bool lid, char *out,
	    size_t len);
int	dm_addr_of(const char *jid, struct wa_signal_addr *a);
/* Bump the counter of key in c[N_COUNTERS]; returns its new value. */
unsigned dm_count(struct counter *c, size_t *next, const char *key);
/* A notice line: its chat, sender ("" for none), time (ms), English
 * fallback text, typed kind (enum wa_dm_note) and device (the one of
 * WA_DM_NOTE_NOT_SENT, else 0); the strings are the caller's. */
struct dm_note {
	const char	*chat;
	const char	*sender;
	int64_t		 ts;
	const char	*text;
	enum wa_dm_note	 kind;
	uint32_t	 device;
	const char	*id;		/* its message id, or NULL: a new one
					 * (not the id array it is put in) */
};
/* Store notice n in its chat, in the open transaction if any, its id into
 * id[WA_DM_ID_MAX]; the UI is not told.  Returns 0 or the store's error
 * (logged). */
int	dm_notice_put_kind(struct wa_dm *dm, const struct dm_note *n,
	    char id[WA_DM_ID_MAX]);
/* Tell the UI of notice n that dm_notice_put_kind() stored as id (once
 * committed). */
void	dm_notice_show_kind(struct wa_dm *dm, const struct dm_note *n,
	    const char *id);
/* dm_notice_put_kind() and dm_notice_show_kind() of a plain text notice
 * (WA_DM_NOTE_TEXT). */
int	dm_notice_put(struct wa_dm *dm, const char *chat, const char *sender,
	    int64_t ts, const char *text, char id[WA_DM_ID_MAX]);
void	dm_notice_show(struct wa_dm *dm, const char *chat, const char *sender,
	    int64_t ts, const char *text, const char *id);
/* A typed notice line stored in chat and told to the UI, which says it in
 * the user's language (outside a transaction: stored at once). */
void	dm_notice_kind(struct wa_dm *dm, const char *chat, const char *sender,
	    int64_t ts, const char *text, enum wa_dm_note kind,
	    uint32_t device);
/* The security code of sender's device in chat changed: a notice. */
void	dm_notice_identity(struct wa_dm *dm, const char *chat,
	    const char *sender);
/* Store a notice line in chat and tell the UI. */
void	dm_notice(struct wa_dm *dm, const char *chat, const char *sender,
	    int64_t ts, const char *text);
/* Our name for a JID in event lines: contact or push name, else +digits
 * of a PN, else "someone".  out[len]. */
void	dm_name_of(struct wa_dm *dm, const char *jid, char *out, size_t len);
/* Pad p[0..len) with one random byte's worth (9.3), appended to out. */
/* A new message id (wa_msg_id: protocol.md 9.1) into id, from the host's
 * random bytes, now_ms (ms since the epoch) and our number.  Returns 0 or
 * the host rng's error. */
int	dm_new_id(struct wa_dm *dm, int64_t now_ms,
	    char id[WA_MSG_ID_LEN + 1]);
void	dm_pad(struct wa_dm *dm, const uint8_t *p, size_t len, struct buf *out);
/*
 * The reporting token (proto/reporting.h) of the job's message, sent by
 * from (our user JID in the chat's namespace) to to (the chat's user or
 * group JID), in a (it lives as long as the stanza built there); NULL
 * when none is due (a reaction, no messageSecret) or it cannot be made
 * (logged).  Main thread.
 */
const uint8_t	*dm_reporting_token(struct wa_dm *dm, const char *from,
		    const char *to, struct arena *a);
/*
 * Encrypt payload p for device (wrapped in deviceSentMessage for chat
 * when own); appends the ciphertext to *ct and sets *type.
 */
int	dm_encrypt_for(struct wa_dm *dm, const char *device, bool own,
	    const char *chat, const uint8_t *p, size_t len,
	    enum wa_msg_enc_type *type, struct buf *ct);
/*
 * Give n, a <message> to one device, its children: <enc v="2"
 * type="pkmsg|msg" [count=count]> holding ct (count 0: none; a retry
 * answer's count, protocol.md 9.6), then our <device-identity> after a
 * pkmsg (9.2).  The nodes live in a.
 */
void	dm_enc_kids(struct wa_dm *dm, struct arena *a, struct wa_node *n,
	    bool pkmsg, unsigned count, const struct buf *ct);
/* Ack stanza n (error: NULL, or the code of a refusal). */
void	dm_send_ack(struct wa_dm *dm, const struct wa_node *n,
	    const char *error);

/* --- proto/dm-peer.c: a peer device's Signal state --- */
/* jid (a user or device JID, PN or LID) under its user's other address
 * (5.3; the device kept) into out[len]: 1, 0 when the store knows no
 * mapping (or has no lid_alt), or the store's error. */
int	dm_peer_alt(struct wa_dm *dm, const char *jid, char *out, size_t len);
/* Save the PN-LID mapping (5.3) a stanza gives of participant (a device
 * or user JID): its other address is pn_attr (participant_pn, for a LID
 * participant) or lid_attr (participant_lid, for a PN one); either may
 * be NULL.  Nothing without one; a store error is logged.  Source:
 * protocol.md 5.3, whatsmeow message.go (both attributes). */
void	dm_peer_learn(struct wa_dm *dm, const char *participant,
	    const char *pn_attr, const char *lid_attr);
/* wa_signal_group_decrypt() of the skmsg c[0..len) that participant (ad
 * its address) sent to group; without a sender key there, under the
 * participant's other address (the SKDM came as PN, the skmsg as LID,
 * or the reverse).  Returns as wa_signal_group_decrypt(). */
int	dm_peer_group_decrypt(struct wa_dm *dm, const char *group,
	    const char *participant, const struct wa_signal_addr *ad,
	    const uint8_t *c, size_t len, struct buf *out);
/* wa_signal_decrypt() of c[0..len) from device (ad its address): a
 * session record that does not deserialize is dropped and the payload
 * tried again (a pkmsg makes a new session); a msg that no session of ad
 * reads is tried under the device's other address; an identity change
 * calls dm_peer_identity_changed().  Returns as wa_signal_decrypt(), or
 * the store's error (never "no session" for a read error). */
int	dm_peer_decrypt(struct wa_dm *dm, const char *device,
	    const struct wa_signal_addr *ad, enum wa_signal_type type,
	    const uint8_t *c, size_t len, struct buf *out, bool *changed);
/* device got a new identity: it holds none of our sender keys any more,
 * in any group, under either address (the next send carries an SKDM).
 * A store error is logged. */
void	dm_peer_identity_changed(struct wa_dm *dm, const char *device);
/* Build a session from a bundle; a changed identity becomes a notice
 * and dm_peer_identity_changed().  0 or the Signal layer's error. */
int	dm_take_bundle(struct wa_dm *dm, const char *device,
	    const struct wa_signal_bundle *b);
/* device's session can send: 1; 0 when there is none or its record was
 * corrupt (dropped, logged): a bundle is needed; or the store's error. */
int	dm_peer_session(struct wa_dm *dm, const char *device);
/* A retry receipt from device names registration id regid: 1 when it is
 * not the one of our session (or there is no usable session): fetch a
 * fresh bundle before answering; 0 when the same; or the store's
 * error. */
int	dm_peer_regid_changed(struct wa_dm *dm, const char *device,
	    uint32_t regid);
/* The encryption for device failed with rc inside a seal: true when the
 * device is left out (a Signal error: its session is dropped, the device
 * recorded in s->skipped), false when rc is the store's (the send
 * fails). */
bool	dm_peer_skip(struct wa_dm *dm, struct dm_seal *s, const char *device,
	    int rc);
/* After the send: a notice line in chat for each device s skipped,
 * naming its member. */
void	dm_peer_report(struct wa_dm *dm, const struct dm_seal *s,
	    const char *chat);

/* --- proto/dm-job.c: the outbox core --- */
/* Free what the job holds; back to P_IDLE. */
void	dm_job_clear(struct wa_dm *dm);
/* The job's message failed for good: mark it, tell the UI, go on. */
void	dm_job_fail(struct wa_dm *dm, int err, const char *why);
/* Start the next queued message, if any and if idle. */
void	dm_kick(struct wa_dm *dm);
/* Append device to the job's fan-out; false when full. */
bool	dm_job_add_dev(struct job *j, const char *device, bool own);
/* The usync step: ask for the device lists the store lacks, in batches;
 * then the fan-out list, the keys, the seal and the send. */
void	dm_job_devices(struct wa_dm *dm);
/*
 * The metadata a P_META job waited for: for group when rc is 0 (the
 * kind's start runs again), or its failure rc with words why (the job
 * fails whatever its group).  Nothing when no job waits.
 */
void	dm_job_meta(struct wa_dm *dm, const char *group, int rc,
	    const char *why);
/* An iq answering the job's query: 1 when it was, else 0. */
int	dm_job_on_iq(struct wa_dm *dm, const struct wa_node *n);
/* An <ack class="message">: 1 when it was the job's, else 0. */
int	dm_job_on_ack(struct wa_dm *dm, const struct wa_node *n);
/*
 * Put a message in the outbox (in the open transaction, if any), as
 * dm_job_queue() but without telling the UI and without the kick: the
 * caller kicks (dm_kick()) once its transaction has committed.  0,
 * -EINVAL (chat not a user JID), or the rng's or the store's error.
 */
int	dm_job_put(struct wa_dm *dm, const char *chat,
	    const struct buf *payload, const char *text, const char *type,
	    const char *edit);
/*
 * Put a message in the outbox: payload (the Message), its text for the
 * store, the reply's quoted parts (may be NULL), stanza type and edit
 * (may be NULL); a new id into id_out (may be NULL); show: tell the UI
 * (WA_DM_EV_MESSAGE).  Then kick.  0, -EINVAL (chat not a user JID), or
 * the rng's or the store's error.
 */
int	dm_job_queue(struct wa_dm *dm, const char *chat,
	    const struct buf *payload, const char *text, const char *quoted_id,
	    const char *quoted_sender, const char *quoted_text,
	    const char *type, const char *edit, char id_out[WA_DM_ID_MAX],
	    bool show);

/* --- the fan-outs (dm-direct.c, dm-group.c), bound by dm.c --- */
extern const struct dm_fanout dm_direct_fanout;
extern const struct dm_fanout dm_group_fanout;

/* --- proto/dm-recv.c: messages and states in --- */
void	dm_recv_message(struct wa_dm *dm, const struct wa_node *n);
void	dm_recv_chatstate(struct wa_dm *dm, const struct wa_node *n);
void	dm_recv_presence(struct wa_dm *dm, const struct wa_node *n);
/* <notification type="devices">: the cached list is stale (11.7).
 * Returns 0, or the store's error when the cache could not be dropped
 * (then the notification is not acked). */
int	dm_recv_devices(struct wa_dm *dm, const struct wa_node *n);
/* dm-ident.c: <notification type="encrypt"><identity/> from a user
 * (11.7): that user's sessions, identities, sender-key holders and device
 * list forgotten under its PN and LID, and one "security code changed"
 * line in its chat, in one transaction.  Returns 0 (ack it: handled, or
 * not a user's), or the store's -EIO / -ENOSPC (do not ack: the server
 * sends it again).  Engine thread. */
int	dm_ident_on_notification(struct wa_dm *dm, const struct wa_node *n);

/* --- proto/dm-receipt.c: receipts and retries --- */
void	dm_recv_receipt(struct wa_dm *dm, const struct wa_node *n);
/*
 * Our retry receipt r into a (wa_msg_retry_receipt()), with a <keys>
 * child (our identity, signed prekey, one fresh one-time prekey, device
 * identity) when we have no usable session with the sender device (m's
 * participant in a group, else its from) or from count 2 on (protocol.md
 * 9.6; whatsmeow sendRetryReceipt, Baileys sendRetryRequest), so the
 * sender can build a session from it at once.  Without the host's keys
 * the receipt goes without them (logged).  0 and *out, or -EINVAL.
 */
MUST_CHECK int	dm_retry_receipt(struct wa_dm *dm, const struct wa_msg_in *m,
		    const struct wa_msg_retry_out *r, struct arena *a,
		    struct wa_node **out);
/* An iq answering the pending retry's key query: 1 when it was. */
int	dm_retry_on_iq(struct wa_dm *dm, const struct wa_node *n);
/* Our message (chat, id) did not go to device (its encryption failed):
 * a fresh bundle, then the message again to that device alone, as for a
 * retry receipt (group: with our SKDM).  0, -EBUSY (another retry is
 * pending), or the send's error. */
int	dm_retry_device(struct wa_dm *dm, const char *device, const char *chat,
	    const char *id, bool group);

/* --- proto/dm-tok.c: privacy tokens (protocol.md 15.6) --- */
/* Append to n (a 1:1 <message> built in a) <tctoken> with the valid
 * token the store holds for chat, else <cstoken> from the nctSalt when
 * the contact's LID is known, else nothing.  The bytes are copied into
 * a. */
void	dm_tok_attach(struct wa_dm *dm, const char *chat, struct arena *a,
	    struct wa_node *n);
/* chat's valid token into *out: 1, or 0 when none (or expired). */
int	dm_tok_valid(struct wa_dm *dm, const char *chat, struct wa_dm_tok *out);
/* A 1:1 message to chat was acked: issue our token to the contact if
 * not yet in this 7-day bucket (and none in flight). */
void	dm_tok_after_send(struct wa_dm *dm, const char *chat);
/* The job's message was refused with 463: issue our token; the job
 * waits in P_TOKEN for the answer (dm_job_on_iq() takes it, stores its
 * tokens with dm_tok_recovered() and sends the message once more).  0,
 * or an error (the caller fails the job). */
int	dm_tok_recover(struct wa_dm *dm);
/* The answer n to the job's issuing: its tokens kept for the job's
 * contact, our issuing noted. */
void	dm_tok_recovered(struct wa_dm *dm, const struct wa_node *n);
/* An iq answering an issuing after a send: 1 when it was. */
int	dm_tok_on_iq(struct wa_dm *dm, const struct wa_node *n);
/* <notification type="privacy_token">: its tokens stored.  0, or the
 * store's error (-ENOSPC, -EIO: not acked). */
int	dm_tok_notification(struct wa_dm *dm, const struct wa_node *n);
/* The connection went: forget the issuings in flight. */
void	dm_tok_offline(struct wa_dm *dm);

/* --- proto/dm-admin.c: group queries and notifications --- */
/* What a group iq is for. */
enum dm_gq {
	GQ_JOB = 1,		/* metadata for the outbox's group job */
	GQ_INFO,		/* metadata asked by the user or a notification */
	GQ_PARTICIPATING,	/* every group we are in, at login */
	GQ_CREATE,
	GQ_SUBJECT,
	GQ_PARTICIPANTS,
	GQ_LEAVE,
	GQ_EPHEMERAL,		/* the disappearing-messages timer */
};
/* Ask the server for group's metadata (what: GQ_JOB or GQ_INFO): 0,
 * -ENOTCONN, -EBUSY (no free slot), or the send's error. */
int	dm_group_ask(struct wa_dm *dm, enum dm_gq what, const char *group);
/* A w:gp2 notification, its changes and event lines stored in one
 * transaction and shown after its commit.  Returns 0 (the engine acks
 * it; a malformed one too), or the store's error (-ENOSPC, -EIO):
 * nothing was kept or shown, and it must not be acked. */
int	dm_group_on_notification(struct wa_dm *dm, const struct wa_node *n);
/* An iq answering one of the group queries: 1 when it was, else 0. */
int	dm_group_on_iq(struct wa_dm *dm, const struct wa_node *n);
/* Logged in: fetch the groups we are in. */
void	dm_group_online(struct wa_dm *dm);
void	dm_group_offline(struct wa_dm *dm);

/* --- proto/dm-poll.c: polls in (protocol-features.md 3.1) --- */
/*
 * The poll m->id just stored in chat (c: its record and messageSecret;
 * from sender, "" us): its secret kept (store_ops poll_put), then the
 * votes that waited for it applied.  Returns 1 with the tallied record
 * in *rec (malloc'd, the caller frees; stored already) when a vote was
 * applied, 0 when none (or the poll has no secret: logged, its votes
 * cannot be read), or the store's error.  In the message's transaction.
 */
int	dm_poll_created(struct wa_dm *dm, const struct wa_msg_in *m,
	    const char *chat, const char *sender, bool from_me,
	    const struct wa_msg_content *c, char **rec);
/*
 * The vote c (WA_MSG_POLL_VOTE) of sender ("" us: from_me) in chat, of
 * message m: decrypted with its poll's secret (each addressing of the
 * voter and the creator tried, PN and LID), the voter's earlier vote
 * replaced in the poll's record, stored.  Returns 1 with the poll's new
 * record in *rec (malloc'd) when the poll changed, 0 when it did not (a
 * vote that does not decrypt or is malformed: logged, dropped; a vote
 * whose poll is not stored yet: kept until it is), or the store's
 * error.  In the message's transaction.
 */
int	dm_poll_vote(struct wa_dm *dm, const struct wa_msg_in *m,
	    const char *chat, const char *sender, bool from_me,
	    const struct wa_msg_content *c, char **rec);

#endif
