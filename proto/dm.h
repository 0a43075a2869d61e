/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/dm.h -- 1:1 messaging in the engine: the outbox that sends each
 * queued message once to every device of the contact and to our own other
 * devices (usync device lists, prekey bundles, Signal pkmsg then msg,
 * deviceSentMessage), the server ack, receiving pkmsg and msg (stored with
 * the advanced session in one transaction before the ack), delivery and
 * read receipts both ways, retry receipts both ways within bounds,
 * replies, reactions, edits and revokes, chat states and presence.
 * Sources: protocol.md 5.3, 8, 9, 11, 15; interop.md 5 and 7.
 *
 * A struct wa_dm lives on the engine thread (proto/eng.c) and is driven by
 * it: the engine hands it every <message>, <receipt>, <ack>, <chatstate>,
 * <presence>, devices notification and iq result it does not handle
 * itself, and tells it when the connection comes and goes.  It sends
 * through the host's send(), and reports to the UI through the host's
 * event().  Every function: engine thread only.  The files that make
 * it up, and how they call each other, are listed in proto/dm-int.h.
 */
#ifndef WA_DM_H
#define WA_DM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/askey.h"
#include "proto/bin.h"
#include "proto/group.h"
#include "proto/privtok.h"
#include "proto/wa-signal.h"

struct buf;
struct wa_dm;

#define WA_DM_JID_MAX		96	/* bytes of a JID, with the NUL */
#define WA_DM_ID_MAX		64	/* bytes of a message id, with the NUL */
#define WA_DM_TEXT_MAX		65536	/* bytes of text we send */
#define WA_DM_RETRY_SEND_MAX	5	/* retry receipts we send per message
					 * (protocol.md 9.6: [BL] up to 5) */
#define WA_DM_RETRY_ANSWER_MAX	9	/* retry receipts we answer per device
					 * and message ([WM]: the 10th is
					 * dropped) */
#define WA_DM_IQ_TIMEOUT_MS	30000	/* an unanswered usync or key query */

/* A message's state, as the store keeps it; only ever moves forward
 * (QUEUED < SENT < DELIVERED < READ), FAILED aside. */
enum wa_dm_state {
	WA_DM_QUEUED = 0,	/* written, not yet acked by the server */
	WA_DM_SENT = 1,		/* the server acked it: one tick */
	WA_DM_DELIVERED = 2,	/* a device of the contact has it */
	WA_DM_READ = 3,		/* the contact read it */
	WA_DM_FAILED = 4,	/* the server refused it; may be retried */
	WA_DM_RECEIVED = 5,	/* an incoming message */
};

/* What a stored message is. */
enum wa_dm_kind {
	WA_DM_TEXT = 0,		/* text, maybe a reply */
	WA_DM_NOTICE = 1,	/* a line from wachat: an unsupported type,
				 * a changed security code */
	WA_DM_MEDIA = 2,	/* media: media, text its caption */
	/* 3 is the polls' (issue 20) */
	WA_DM_RICH = 4,		/* text is a rich record (base/rich.h): a
				 * location, contact cards, view-once media,
				 * a link preview, another kind not shown */
};

/* A message as it goes into the store.  Strings borrowed, never NULL
 * except where said. */
/* What a WA_DM_NOTICE line says, so that the UI can say it in the
 * user's language (src/ maps it to base/event.h enum wa_dm_note). */
enum wa_dm_note {
	WA_DM_NOTE_TEXT,	/* its text says it (group events) */
	WA_DM_NOTE_IDENTITY,	/* the sender's security code changed */
	WA_DM_NOTE_NOT_SENT,	/* our message missed the sender's device
				 * notice_device (its encryption failed) */
	/* A call (proto/call.h): notice_device holds WA_DM_CALL_* bits. */
	WA_DM_NOTE_CALL_IN,	/* it rings */
	WA_DM_NOTE_CALL_MISSED,	/* it ended unanswered, or came over */
	WA_DM_NOTE_CALL_ELSEWHERE, /* answered on another device */
	WA_DM_NOTE_CALL_DECLINED, /* declined on another device */
	WA_DM_NOTE_CALL_REJECTED, /* declined here (wa_dm_call_reject()) */
};

/* The bits of a call notice's notice_device (base/event.h EV_CALL_*). */
#define WA_DM_CALL_VIDEO	0x1u
#define WA_DM_CALL_GROUP	0x2u

struct wa_msg_media;

struct wa_dm_msg {
	const char	*chat;		/* the contact's user JID (non-AD) */
	const char	*id;		/* message id */
	const char	*sender;	/* author's user JID; "" for our own */
	bool		 from_me;
	int64_t		 ts_ms;		/* ms since the epoch */
	enum wa_dm_kind	 kind;
	const char	*text;		/* UTF-8 as received, unsanitised */
	const char	*quoted_id;	/* a reply: the quoted id, else NULL */
	const char	*quoted_sender;	/* may be NULL */
	const char	*quoted_text;	/* may be NULL */
	enum wa_dm_state state;
	const uint8_t	*payload;	/* outgoing: the Message protobuf */
	size_t		 payload_len;
	/* WA_DM_NOTICE: what it says (enum wa_dm_note; the text is then an
	 * English fallback: store the kind, base/notice.h) */
	enum wa_dm_note	 notice_kind;
	uint32_t	 notice_device;	/* WA_DM_NOTE_NOT_SENT's device */
	/* WA_DM_MEDIA: its metadata (protocol-features.md 1.6); WA_DM_RICH
	 * of a view-once record: what opening it needs (3.4), kept beside
	 * the record; borrowed, else NULL */
	const struct wa_msg_media *media;
	/* Forwarded (protocol-features.md 3.7): 0 not, else its
	 * forwardingScore (at least 1). */
	uint32_t	 forwarded;
};

/* A queued outgoing message, as the store hands it back.  Owned: free
 * with wa_dm_out_release(). */
struct wa_dm_out {
	int64_t		 rowid;
	char		 chat[WA_DM_JID_MAX];
	char		 id[WA_DM_ID_MAX];
	uint8_t		*payload;	/* malloc'd Message protobuf */
	size_t		 payload_len;
	char		 type[16];	/* stanza type: "text", "reaction" */
	char		 edit[4];	/* "" or the edit attribute */
};

/* Free what o owns and zero it. */
void		wa_dm_out_release(struct wa_dm_out *o);

/* A group as the store hands it to the module (store_ops group_get).
 * Owned: free with wa_dm_group_release(). */
struct wa_dm_group {
	bool		 lid;		/* addressing mode "lid" */
	bool		 left;		/* we are no longer a member */
	char		(*members)[WA_DM_JID_MAX]; /* user JIDs as the group
					 * addresses them (LIDs in LID
					 * groups); malloc'd */
	char		(*alts)[WA_DM_JID_MAX];	/* the other JID or "" */
	size_t		 n;
};

/* Free what g owns and zero it. */
void		wa_dm_group_release(struct wa_dm_group *g);

/* A contact's privacy tokens as the store hands them to the module
 * (store_ops tok_get; protocol.md 15.6). */
struct wa_dm_tok {
	uint8_t		 token[WA_PRIVTOK_MAX];	/* its token to us */
	size_t		 len;		/* 0: none */
	int64_t		 t;		/* its timestamp, unix s */
	int64_t		 sender_t;	/* we last issued ours, unix s; 0
					 * never */
};

/*
 * The message store, bound over store/ by the composition root
 * (src/app-store.c).  Every op gets arg first and returns >= 0 on success
 * or a negative code (base/err.h).  Called on the engine thread, inside the
 * transactions of the Signal ops (struct wa_signal_store_ops tx_*), which
 * share the database.
 */
struct wa_dm_store_ops {
	/* Insert an outgoing message (state QUEUED, with payload, type and
	 * edit attribute of its stanza); durable on return.  0. */
	int	(*out_insert)(void *arg, const struct wa_dm_msg *m,
		    const char *type, const char *edit);
	/* The oldest QUEUED outgoing message with rowid > after: 1 and *o,
	 * or 0 when none. */
	int	(*out_next)(void *arg, int64_t after, struct wa_dm_out *o);
	/* The payload, type and edit of our message (chat, id) whatever its
	 * state (for a retry receipt): 1 and *o, or 0 when unknown. */
	int	(*out_get)(void *arg, const char *chat, const char *id,
		    struct wa_dm_out *o);
	/* Move our message (chat, id) forward to state (SENT with the
	 * server's ts_ms; DELIVERED; READ), or to FAILED, or from FAILED
	 * back to QUEUED (a retry): 1 when it moved, 0 when it was already
	 * there or further (or not FAILED, for QUEUED), or unknown. */
	int	(*out_state)(void *arg, const char *chat, const char *id,
		    enum wa_dm_state state, int64_t ts_ms);
	/* Delete our FAILED message (chat, id): 1, or 0 when it is not a
	 * failed message of ours. */
	int	(*out_delete)(void *arg, const char *chat, const char *id);
	/* Insert an incoming (or own-device) message: 0 inserted, 1 when
	 * (chat, from_me, id) is stored already (nothing changed). */
	int	(*in_insert)(void *arg, const struct wa_dm_msg *m);
	/* Edit (text != NULL) or revoke (text NULL) the message (chat, id)
	 * of author from_me/sender: 1 when found, 0 when not. */
	int	(*change)(void *arg, const char *chat, const char *id,
		    bool from_me, const char *text, int64_t ts_ms);
	/* A live location update (protocol-features.md 3.2) from sender
	 * ("" us) in chat with sequence number seq and rich record text:
	 * 1 with the id of the row it updated in place in id_out[id_size],
	 * 2 when that row had this update already, 0 when no row takes it
	 * (it is stored as a new message).  May be NULL (every update is a
	 * new message). */
	int	(*live_update)(void *arg, const char *chat, const char *sender,
		    bool from_me, int64_t seq, const char *text, char *id_out,
		    size_t id_size);
	/* Polls (protocol-features.md 3.1; store/store-poll.h); all five
	 * may be NULL (polls shown without votes).  poll_put keeps the
	 * secret[0..len) and creator (user JID, "" ours) of poll id of
	 * chat: 0.  poll_get reads them with the poll row's record (*rec
	 * malloc'd, the caller frees): 1, or 0 when the poll or its secret
	 * is not stored.  poll_set gives the poll row its record rec (its
	 * tally changed): 1, 0 when no such row.  poll_pend_put keeps the
	 * vote data[0..len) of voter ("" us) for a poll not stored yet (a
	 * newer one of voter replaces it): 0.  poll_pend_take takes one
	 * waiting vote for poll of chat and forgets it: 1 with voter and
	 * *data (malloc'd) and *len, 0 when none waits. */
	int	(*poll_put)(void *arg, const char *chat, const char *id,
		    const char *creator, const uint8_t *secret, size_t len);
	int	(*poll_get)(void *arg, const char *chat, const char *id,
		    char creator[WA_DM_JID_MAX], uint8_t *secret,
		    size_t *secret_len, char **rec);
	int	(*poll_set)(void *arg, const char *chat, const char *id,
		    const char *rec);
	int	(*poll_pend_put)(void *arg, const char *chat, const char *poll,
		    const char *voter, const uint8_t *data, size_t len,
		    int64_t ts_ms);
	int	(*poll_pend_take)(void *arg, const char *chat,
		    const char *poll, char voter[WA_DM_JID_MAX],
		    uint8_t **data, size_t *len);
	/* Set (emoji non-empty) or remove the reaction of sender ("" for
	 * us) to message target in chat: 0. */
	int	(*react)(void *arg, const char *chat, const char *target,
		    const char *sender, const char *emoji, int64_t ts_ms);
	/* Mark every received message of chat read; append the ids that
	 * were unread to *ids as NUL-terminated strings one after another
	 * (count returned, >= 0). */
	int	(*mark_read)(void *arg, const char *chat, struct buf *ids);
	/* Save a contact's push name: 0. */
	int	(*push_name)(void *arg, const char *jid, const char *name);
	/* Save the PN-LID mapping of a user (5.3; both non-AD): 0. */
	int	(*lid_put)(void *arg, const char *pn, const char *lid);
	/* The other JID of user (non-AD: a PN's LID, a LID's PN, 5.3) into
	 * out[len]: 1, or 0 when no mapping is stored.  May be NULL (no
	 * PN-LID fallback for sessions and sender keys). */
	int	(*lid_alt)(void *arg, const char *user, char *out, size_t len);
	/* The device ids cached for a user (non-AD JID) into ids[0..max):
	 * the count (>= 1), or 0 when none is cached. */
	int	(*devices_get)(void *arg, const char *user, uint16_t *ids,
		    size_t max);
	/* Cache a user's device ids (n may be 0: a user with none); n = -1
	 * drops the cache (a devices notification). */
	int	(*devices_put)(void *arg, const char *user,
		    const uint16_t *ids, int n);
	/* Groups (protocol.md 10).  group_get: the group's members and
	 * mode into *g (the caller releases it): 1, or 0 when unknown. */
	int	(*group_get)(void *arg, const char *group,
		    struct wa_dm_group *g);
	/* Store the metadata read from a w:g2 answer or a create
	 * notification, members replaced, joined (not left): 0. */
	int	(*group_put)(void *arg, const struct wa_group_info *g);
	/* Rename a known group: 0. */
	int	(*group_subject)(void *arg, const char *group,
		    const char *subject);
	/* Add member jid (alt: its other JID, may be NULL) with admin level
	 * 0..2, or remove it (admin -1): 0. */
	int	(*group_member)(void *arg, const char *group, const char *jid,
		    const char *alt, int admin);
	/* Mark a group left (true) or joined again: 0. */
	int	(*group_left)(void *arg, const char *group, bool left);
	/* The devices holding our sender key of group (10.4): has -> 1 or
	 * 0; put -> 0; forget (device NULL: all) -> >= 0. */
	int	(*skr_has)(void *arg, const char *group, const char *device);
	int	(*skr_put)(void *arg, const char *group, const char *device);
	int	(*skr_forget)(void *arg, const char *group, const char *device);
	/* Forget device (an AD-JID) as a holder of our sender key in every
	 * group (its identity changed): the count dropped, >= 0.  May be
	 * NULL. */
	int	(*skr_forget_device)(void *arg, const char *device);
	/* Forget every device of user (a non-AD JID) as a holder of our
	 * sender key in every group (its identity changed, 11.7): the count
	 * dropped, >= 0.  May be NULL: the memory is then kept. */
	int	(*skr_forget_user)(void *arg, const char *user);
	/* Group ticks (protocol.md 9.6).  group_sent: our message id in
	 * group went to recipients members (other than us): 0, in the
	 * transaction that commits its encryption.  member_receipt: member
	 * (a user JID) reported state (DELIVERED or READ) of our message id
	 * in group: the state the message moved to (DELIVERED or READ: every
	 * recipient is there), or 0.  Both may be NULL: the first receipt
	 * then moves the message (out_state). */
	int	(*group_sent)(void *arg, const char *group, const char *id,
		    unsigned recipients);
	int	(*member_receipt)(void *arg, const char *group,
		    const char *id, const char *member,
		    enum wa_dm_state state);
	/* Message info (issue 20): member (a user JID: a 1:1 chat's
	 * contact, a group's member) reported state (DELIVERED or READ) of
	 * our message id in chat at ts_ms (the receipt's t, else now):
	 * kept per recipient, 0.  May be NULL: no times are kept. */
	int	(*receipt_time)(void *arg, const char *chat, const char *id,
		    const char *member, enum wa_dm_state state,
		    int64_t ts_ms);
	/* Queue a history-sync notification (the decrypted Message
	 * msg[0..len) our phone sent with message id id, protocol.md 12.1)
	 * in the transaction that stores the session it advanced: 0.  May
	 * be NULL: such messages are then ignored. */
	int	(*hist_put)(void *arg, const char *id, const uint8_t *msg,
		    size_t len);
	/* Store one app-state sync key k (borrowed) of the key share our
	 * phone sent (protocol-features.md 2.3) in the transaction that
	 * stores the session it advanced: 1 stored, 0 an equal or newer
	 * key of that id is kept, or < 0.  May be NULL: key shares are
	 * then ignored. */
	int	(*as_key_put)(void *arg, const struct wa_askey *k);
	/* Privacy tokens (protocol.md 15.6), keyed by the contact's user
	 * JID (its LID when known, else its PN).  tok_get: what is stored
	 * for jid into *out: 1, or 0 when nothing.  tok_put: keep
	 * token[0..len) stamped t (unix s) as jid's, unless a newer one is
	 * kept: 1 stored, 0 not.  tok_sent: we issued our token to jid at
	 * sender_t (unix s): 0.  salt_get: the account's nctSalt into
	 * out[WA_PRIVTOK_SALT_MAX] and *len: 1, or 0 when none.  Any may be
	 * NULL: then no token is kept, attached or issued (and a 463
	 * refusal fails the message at once). */
	int	(*tok_get)(void *arg, const char *jid, struct wa_dm_tok *out);
	int	(*tok_put)(void *arg, const char *jid, const uint8_t *token,
		    size_t len, int64_t t);
	int	(*tok_sent)(void *arg, const char *jid, int64_t sender_t);
	int	(*salt_get)(void *arg, uint8_t *out, size_t *len);
	/* Disappearing messages (protocol-features.md 3.5).  eph_set:
	 * chat's timer is secs (0 off) as of ts_s (unix s); with
	 * only_newer a setting older than the kept one is ignored: 1
	 * changed, 0 not.  eph_get: chat's timer and when it was set into
	 * *secs, *ts_s (0, 0 none): 0.  Both may be NULL: no timer is then
	 * kept, and our messages carry none. */
	int	(*eph_set)(void *arg, const char *chat, uint32_t secs,
		    int64_t ts_s, bool only_newer);
	int	(*eph_get)(void *arg, const char *chat, uint32_t *secs,
		    int64_t *ts_s);
	/* A person's name for event lines: contact or push name of jid (or
	 * of its PN-LID alternate) into out[len]: 1, or 0 when none. */
	int	(*name_get)(void *arg, const char *jid, char *out, size_t len);
	/* Transactions, nesting, shared with the Signal ops: a received
	 * message and the session it advanced commit together. */
	int	(*tx_begin)(void *arg);
	int	(*tx_commit)(void *arg);
	int	(*tx_rollback)(void *arg);
	void	*arg;
};

/* Our keys for the <keys> of a retry receipt (protocol.md 9.6): the
 * identity, the signed prekey, and one fresh one-time prekey. */
struct wa_dm_keys {
	uint8_t		 identity[32];		/* Curve25519 public */
	uint32_t	 spk_id;		/* 24 bits */
	uint8_t		 spk_pub[32];
	uint8_t		 spk_sig[64];
	uint32_t	 prekey_id;		/* 24 bits */
	uint8_t		 prekey_pub[32];
};

/* What the engine gives the module. */
struct wa_dm_host {
	/* Encode and send a stanza; 0 or < 0. */
	int	(*send)(void *arg, const struct wa_node *n);
	/* A fresh iq id for this connection, NUL-terminated, < 32 bytes. */
	void	(*iq_id)(void *arg, char out[32]);
	/* Wall clock, ms since the epoch. */
	int64_t	(*now_ms)(void *arg);
	/* len random bytes; 0 or < 0. */
	int	(*rng)(void *arg, uint8_t *p, size_t len);
	/* A history-sync notification was queued (hist_put): take it.  May
	 * be NULL. */
	void	(*history)(void *arg);
	/* App-state sync keys were stored (as_key_put), after the commit:
	 * sync what waited for them.  May be NULL. */
	void	(*app_state_keys)(void *arg);
	/* Our keys for a retry receipt into *out, with a one-time prekey
	 * made and stored for it (not uploaded: only the receipt carries
	 * it; whatsmeow GenOnePreKey): 0 or < 0 (then no <keys> is sent).
	 * May be NULL: retry receipts go without <keys>. */
	int	(*retry_keys)(void *arg, struct wa_dm_keys *out);
	void	*arg;
};

/* What the module tells the UI. */
enum wa_dm_ev_kind {
	WA_DM_EV_MESSAGE,	/* a message was stored: chat, id, sender,
				 * from_me, text, ts_ms, state, notice */
	WA_DM_EV_STATE,		/* our message (chat, id) moved to state */
	WA_DM_EV_CHANGED,	/* message (chat, id) was edited (text) or
				 * deleted (text NULL) */
	WA_DM_EV_REACTION,	/* sender reacted to (chat, id) with text
				 * ("" removed) */
	WA_DM_EV_TYPING,	/* chat: sender composing (state 1) or not */
	WA_DM_EV_PRESENCE,	/* chat (a user) online (state 1) or not;
				 * ts_ms = last seen, 0 unknown */
	WA_DM_EV_SEND_FAILED,	/* our message (chat, id) failed: err, text
				 * = why in words */
	WA_DM_EV_GROUP,		/* group chat's metadata changed in the store
				 * (read it there); state 1: we left */
	WA_DM_EV_ERROR,		/* a group command failed: chat (may be
				 * NULL), text = why in words, err */
	WA_DM_EV_DISK_FULL,	/* a write failed for want of space (err
				 * -ENOSPC): what could not be stored was
				 * neither shown nor acked, and no message
				 * or receipt is taken (none acked) until
				 * the next wa_dm_online(); the host should
				 * go offline until a write succeeds again.
				 * Said once per connection. */
	WA_DM_EV_STORE_FAILED,	/* a write failed with an I/O error (err
				 * -EIO): as WA_DM_EV_DISK_FULL, what could
				 * not be stored was neither shown nor
				 * acked and nothing is taken until the
				 * next wa_dm_online(); the host should go
				 * offline and connect again later, so that
				 * the server sends it again.  Once per
				 * connection. */
};

struct wa_dm_ev {
	enum wa_dm_ev_kind kind;
	const char	*chat;
	const char	*id;		/* may be NULL */
	const char	*sender;	/* may be NULL; "" for us */
	const char	*text;		/* may be NULL */
	const char	*quoted_id;	/* MESSAGE: the reply's quoted id */
	bool		 from_me;
	bool		 notice;	/* a WA_DM_NOTICE line */
	bool		 rich;		/* MESSAGE: text is a rich record
					 * (base/rich.h), WA_DM_RICH */
	enum wa_dm_note	 notice_kind;	/* notice: what it says (text: an
					 * English fallback unless
					 * WA_DM_NOTE_TEXT) */
	uint32_t	 notice_device;	/* WA_DM_NOTE_NOT_SENT's device */
	int		 state;
	int		 err;
	int64_t		 ts_ms;
	const struct wa_msg_media *media; /* MESSAGE: media (proto/msg.h),
					 * alive for the call; else NULL */
	uint32_t	 forwarded;	/* MESSAGE: as struct wa_dm_msg's */
};

typedef void	(*wa_dm_event_fn)(void *arg, const struct wa_dm_ev *ev);

/* Settings (src/conf.h names them). */
struct wa_dm_cfg {
	bool		 send_read_receipts;	/* read receipts go out */
	bool		 send_typing;		/* our chat states go out */
	bool		 send_presence;		/* we show as online */
};

/*
 * A new module over the borrowed host, store and Signal context (they
 * must outlive it), reporting through on_event(ev_arg, ...).  Returns 0
 * and *out, freed with wa_dm_free().  Errors: -EINVAL (a NULL argument or
 * op).
 */
MUST_CHECK int	wa_dm_new(const struct wa_dm_host *host,
		    const struct wa_dm_store_ops *st, struct wa_signal *sig,
		    const struct wa_dm_cfg *cfg, wa_dm_event_fn on_event,
		    void *ev_arg, struct wa_dm **out);

/* Free dm (NULL is a no-op). */
void		wa_dm_free(struct wa_dm *dm);

/*
 * The connection is logged in as own_jid (our PN AD-JID), own_lid (our
 * LID AD-JID, or ""), with push name (may be ""), our Signal
 * registration id (for retry receipts) and the ADV device identity to send with a pkmsg (borrowed; must stay valid while online).
 * Sends our presence when the setting allows, then the outbox.
 */
void		wa_dm_online(struct wa_dm *dm, const char *own_jid,
		    const char *own_lid, const char *push_name,
		    uint32_t registration_id, const uint8_t *adv,
		    size_t adv_len);

/*
 * Before any connection, the account linked before: own_jid (our PN
 * AD-JID) and own_lid (our LID AD-JID, or "") are ours, so that what is
 * queued offline (a reply to our own message) names us.  Copies both;
 * sends nothing.  wa_dm_online() sets them again.
 */
void		wa_dm_set_own(struct wa_dm *dm, const char *own_jid,
		    const char *own_lid);

/*
 * Our push name became known or changed (an account_sync notification,
 * protocol.md 11.7): announce our presence now if it was held back for
 * want of one (15.1).  name borrowed (copied).
 */
void		wa_dm_set_push_name(struct wa_dm *dm, const char *name);

/* The connection is gone: work in flight is forgotten (the outbox keeps
 * every unacked message for the next connection). */
void		wa_dm_offline(struct wa_dm *dm);

/*
 * Take a stanza: <message>, <receipt>, <ack class="message">,
 * <chatstate>, <presence>, <notification type="devices">, "w:gp2" or
 * "privacy_token" (its tokens stored, 15.6), a <call> (shown as a line,
 * never answered: protocol-features.md 5), or an <iq> answering one of
 * the module's queries.  An ack with error 463 (the contact takes
 * messages only with a privacy token, 9.6) of a 1:1 message has our
 * token issued to the contact (its answer's tokens stored) and the
 * message sent once more with the token the store then holds; a second
 * 463 fails it (WA_DM_EV_SEND_FAILED saying so; it stays stored).
 * Returns 1 when it was
 * the module's (handled, and acked where the protocol wants), 0 when not
 * (and for a notification or call handled: the caller acks it, 11.7), or
 * for a notification or call whose change could not be stored, the
 * store's error
 * (-ENOSPC, -EIO; nothing of it was kept): the caller must not ack it,
 * so that the server sends it again (reliability.md rule 1).
 */
int		wa_dm_stanza(struct wa_dm *dm, const struct wa_node *n);

/*
 * Queue a text to the contact chat (a user JID, PN or LID), a reply when
 * quoted_id is not NULL (quoted_sender: its author's user JID, or NULL
 * for our own; quoted_text may be NULL).  The message is written to the
 * store before this returns, then sent when online.  Writes its id to
 * id_out (may be NULL).  Returns 0.  Errors: -EINVAL (bad chat JID, empty
 * or over WA_DM_TEXT_MAX text), the store's errors.
 */
MUST_CHECK int	wa_dm_send_text(struct wa_dm *dm, const char *chat,
		    const char *text, const char *quoted_id,
		    const char *quoted_sender, const char *quoted_text,
		    char id_out[WA_DM_ID_MAX]);

/*
 * Queue the media message md (proto/msg.h; its file uploaded already:
 * url, direct_path, media key and hashes set) to chat as
 * wa_dm_send_text() queues a text: built by wa_msg_build_media() (a
 * reply when quoted_id is not NULL), stored, then sent as a <message
 * type="media"> whose <enc>s carry the mediatype of md->type
 * (protocol-features.md 1.7).  The outbox row's text is md's caption
 * ("" when none).  md is borrowed.  Writes its id to id_out (may be
 * NULL).  Returns 0.  Errors: -EINVAL (bad chat JID, md NULL, a caption
 * over WA_DM_TEXT_MAX bytes, what wa_msg_build_media() refuses), the
 * store's errors.  Loop thread.
 */
MUST_CHECK int	wa_dm_send_media(struct wa_dm *dm, const char *chat,
		    const struct wa_msg_media *md, const char *quoted_id,
		    const char *quoted_sender, const char *quoted_text,
		    char id_out[WA_DM_ID_MAX]);

/*
 * The Message protobuf of media md (proto/msg.h; uploaded: url,
 * direct_path, media key and hashes set) appended to out, as
 * wa_dm_send_media() builds it (a reply when quoted_id is not NULL; its
 * messageSecret fresh), for a caller that stores it on a message row of
 * its own (src/: the upload pipeline, whose row was written before the
 * upload) and then calls wa_dm_outbox_kick().  md is borrowed.  Returns
 * 0.  Errors: -EINVAL (md or out NULL, a caption over WA_DM_TEXT_MAX
 * bytes, what wa_msg_build_media() refuses), the host rng's errors; out
 * unchanged on error.  Engine thread.
 */
MUST_CHECK int	wa_dm_media_payload(struct wa_dm *dm,
		    const struct wa_msg_media *md, const char *quoted_id,
		    const char *quoted_sender, const char *quoted_text,
		    struct buf *out);

/*
 * When chat has disappearing messages on (the store's timer), give the
 * Message p (our own, built by wa_msg_build_*()) the timer in its
 * content's contextInfo (expiration and ephemeralSettingTimestamp;
 * wa_msg_set_expiration()), as Baileys' messages carry it
 * (protocol-features.md 3.5); p is replaced.  Without a timer (or a
 * timer store) p is left as it is.  wa_dm_send_text() and
 * wa_dm_send_media() do it themselves; the upload pipeline calls it on
 * wa_dm_media_payload()'s result.  Returns 0.  Errors: WC_ETRUNC,
 * WC_EPROTO, WC_EDEPTH (p does not parse; p unchanged).  Engine thread.
 */
MUST_CHECK int	wa_dm_expiry(struct wa_dm *dm, const char *chat,
		    struct buf *p);

/*
 * Vote on poll poll_id of chat (stored, with its secret:
 * protocol-features.md 3.1) for the options picks[0..n) (numbers from 1;
 * n 0 takes our vote back): the vote encrypted for the poll's creator and
 * our own JID in its addressing (our LID, or our PN when the creator is a
 * PN: whatsmeow's rule), our vote put in the poll's record in place of
 * the earlier one and a hidden outbox row of stanza type "poll" in one
 * transaction; then WA_DM_EV_CHANGED with the new record and the kick.
 * Returns 0.  Errors: -EINVAL (a NULL argument, n over WA_POLL_READ_MAX,
 * a number out of range or repeated, more than one for a poll of one
 * answer), -ENOENT (no such poll, or no secret for it), the host rng's
 * and the store's errors.  Engine thread.
 */
MUST_CHECK int	wa_dm_send_poll_vote(struct wa_dm *dm, const char *chat,
		    const char *poll_id, const unsigned *picks, size_t n);

/*
 * Send a poll of ours to chat: question, options[0..n) (2 to 12), one
 * answer or (multi) any number (wa_msg_build_poll(): V3 for one answer,
 * pollCreationMessage else, a fresh 32-byte messageSecret).  Its outbox
 * row holds the poll's rich record (shown as received polls are), and
 * its secret is kept (store_ops poll_put, creator "" us) in the same
 * transaction, so the votes that come decrypt; then WA_DM_EV_MESSAGE
 * (rich) and the kick; stanza type "poll".  Writes its id to id_out (may
 * be NULL).  Returns 0.  Errors: -EINVAL (chat NULL, what
 * wa_msg_build_poll() refuses), -ENOENT (no poll store), the host rng's
 * and the store's errors.  Engine thread.
 */
MUST_CHECK int	wa_dm_send_poll(struct wa_dm *dm, const char *chat,
		    const char *question, const char *const *options,
		    size_t n, bool multi, char id_out[WA_DM_ID_MAX]);

/* A new message id (protocol.md 9.5) into id (WA_DM_ID_MAX bytes, NUL
 * in).  Returns 0 or the host rng's error.  Engine thread. */
MUST_CHECK int	wa_dm_new_id(struct wa_dm *dm, char id[WA_DM_ID_MAX]);

/* Look at the outbox again now (a row became sendable outside the
 * module: a media row whose upload ended).  Engine thread. */
void		wa_dm_outbox_kick(struct wa_dm *dm);

/*
 * Queue a reaction to message target of chat (from_me: ours), emoji ""
 * removing ours.  Returns 0.  Errors as wa_dm_send_text().
 */
MUST_CHECK int	wa_dm_send_reaction(struct wa_dm *dm, const char *chat,
		    const char *target, bool from_me, const char *emoji);

/*
 * Edit our message target of chat to text (protocol.md 11.5: a
 * MESSAGE_EDIT protocolMessage in editedMessage, stanza edit="1"), or
 * delete it for everyone (wa_dm_send_revoke(): REVOKE, 11.4, edit="7").
 * The store and the UI (WA_DM_EV_CHANGED) change at once; the stanza goes
 * through the outbox (a hidden row: durable, sent once, to every device
 * of the chat and to our own).  The time limits (15 minutes for an edit,
 * two days for a delete) are the UI's to keep.  Returns 0.  Errors:
 * -EINVAL (NULL or empty text, text over WA_DM_TEXT_MAX), -ENOENT (no
 * such message of ours), the store's errors.  Engine thread.
 */
MUST_CHECK int	wa_dm_send_edit(struct wa_dm *dm, const char *chat,
		    const char *target, const char *text);
MUST_CHECK int	wa_dm_send_revoke(struct wa_dm *dm, const char *chat,
		    const char *target);

/*
 * Send payload[0..len) (a Message: a protocolMessage such as the
 * on-demand history request of protocol.md 12.4) to our own phone as a
 * peer message: <message to=OUR_NUMBER category="peer"
 * push_priority="high_force" type="text"> with one <enc>, encrypted on
 * the session with our phone ([WM] send.go BuildHistorySyncRequest and
 * sendPeerMessage).  Not stored, not retried.  Returns 0.  Errors:
 * -EINVAL, -ENOTCONN (offline), WC_ENOSESSION (no session with our phone
 * yet), the Signal layer's and the send's errors.
 */
MUST_CHECK int	wa_dm_send_peer(struct wa_dm *dm, const uint8_t *payload,
		    size_t len);

/* Put our failed message (chat, id) back in the outbox.  Returns 1 when
 * it was failed, 0 when not, or the store's error. */
MUST_CHECK int	wa_dm_retry(struct wa_dm *dm, const char *chat,
		    const char *id);

/* Delete our failed message (chat, id) from the outbox and the chat (it
 * was never sent).  Returns 1 when deleted, 0 when it is not failed, or
 * the store's error. */
MUST_CHECK int	wa_dm_delete_failed(struct wa_dm *dm, const char *chat,
		    const char *id);

/*
 * The user has read chat: mark its messages read and, when the setting
 * allows and we are online, send one read receipt for the unread ids.
 * Returns the count of ids, or the store's error.
 */
MUST_CHECK int	wa_dm_mark_read(struct wa_dm *dm, const char *chat);

#define WA_DM_EPH_MAX	(366u * 86400u)	/* seconds: a longer timer is
						 * refused */

/*
 * Set chat's disappearing-messages timer to secs (0 off; WhatsApp's apps
 * offer 86400, 604800 and 7776000; protocol-features.md 3.5).  A 1:1
 * chat: the timer kept, the protocolMessage EPHEMERAL_SETTING
 * (wa_msg_build_ephemeral()) put in the outbox as a hidden row, and the
 * line "You turned on disappearing messages: 7 days" stored, in one
 * transaction, then shown; our next messages carry the timer.  A group:
 * wa_dm_group_ephemeral().  Engine thread.  Returns 0.  Errors: -EINVAL
 * (chat NULL or not a user JID, secs above WA_DM_EPH_MAX, no timer
 * store), the store's and the rng's errors; a group's as
 * wa_dm_group_ephemeral().
 */
MUST_CHECK int	wa_dm_send_ephemeral(struct wa_dm *dm, const char *chat,
		    uint32_t secs);

/* Tell chat we are typing (true) or stopped (false), when the setting
 * allows and we are online.  Returns 0 or the send's error. */
int		wa_dm_typing(struct wa_dm *dm, const char *chat, bool composing);

/*
 * Decline the call that rings in chat, whose "incoming call" line has
 * the id line_id (proto/dm-call.c; protocol-features.md 5 step 3, as
 * whatsmeow RejectCall and Baileys rejectCall send it): the <call>
 * <reject call-id call-creator count="0"/></call> stanza to the caller
 * (no device in from or to; from our LID when the caller called from
 * one, else our PN), then the call's last line, "Declined voice call"
 * (WA_DM_NOTE_CALL_REJECTED), stored and shown; a terminate that comes
 * after adds nothing.  Returns 0.  Errors: -EINVAL (NULL or empty
 * arguments), -ENOENT (no call of this run rings with that line: it
 * ended, or was never seen), -ENOTCONN (offline: the call rings on),
 * the send's and the store's errors.  Engine thread.
 */
MUST_CHECK int	wa_dm_call_reject(struct wa_dm *dm, const char *chat,
		    const char *line_id);

/* Ask for chat's presence (online, last seen).  Returns 0 or the send's
 * error. */
int		wa_dm_subscribe(struct wa_dm *dm, const char *chat);

/*
 * Groups (proto/dm-admin.c; protocol.md 10.1, whatsmeow group.go).  Each
 * sends one w:g2 iq; its answer is stored and reported as WA_DM_EV_GROUP
 * (with event lines), or as WA_DM_EV_ERROR.  JIDs: user JIDs (PN or
 * LID); group: "<id>@g.us".  Each returns 0.  Errors: -ENOTCONN
 * (offline), -EINVAL (a bad JID, an empty subject, n 0 where members are
 * needed), -EBUSY (DM_GROUP_IQS changes already in flight), the send's
 * errors.
 */
MUST_CHECK int	wa_dm_group_create(struct wa_dm *dm, const char *subject,
		    const char *const *members, size_t n);
MUST_CHECK int	wa_dm_group_subject(struct wa_dm *dm, const char *group,
		    const char *subject);
MUST_CHECK int	wa_dm_group_participants(struct wa_dm *dm,
		    const char *group, enum wa_group_change what,
		    const char *const *jids, size_t n);
MUST_CHECK int	wa_dm_group_leave(struct wa_dm *dm, const char *group);
/* Ask for the group's metadata afresh (WA_DM_EV_GROUP when it comes). */
MUST_CHECK int	wa_dm_group_info(struct wa_dm *dm, const char *group);
/*
 * The group's disappearing-messages timer: secs (0 off) asked of the
 * server with <ephemeral expiration="secs"/> or <not_ephemeral/> (w:g2
 * set; whatsmeow sendGroupIQ, protocol-features.md 3.5); once it
 * answers, the timer is kept and the line "You turned on disappearing
 * messages: 7 days" shown; a refusal is WA_DM_EV_ERROR.  Errors as the
 * other group commands.
 */
MUST_CHECK int	wa_dm_group_ephemeral(struct wa_dm *dm, const char *group,
		    uint32_t secs);

#endif
