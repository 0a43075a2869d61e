/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/sim/phone.h -- what the parts of the simulated phones share: the
 * phone (its Signal state, inboxes and logs) and the calls between
 * phone.c (the phone, JIDs, receiving 1:1, the admin report),
 * phone-store.c (the in-memory Signal tables), phone-send.c (sending
 * 1:1 and peer messages), phone-group.c (groups) and phone-chatty.c (the
 * echo and chatty contacts).  Loop thread only.
 */
#ifndef SIM_PHONE_H
#define SIM_PHONE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "proto/bin.h"
#include "proto/msg.h"
#include "proto/wa-signal.h"
#include "sim.h"

struct json_object;

#define PHONE_TX_DEPTH		16	/* nested transactions */
#define PHONE_INBOX_MAX		4096	/* messages kept per phone */
#define PHONE_LOG_MAX		4096	/* receipts or sends kept per phone */
#define PHONE_RETRY_SLOTS	64	/* message ids with a retry count */
#define PHONE_RETRY_MAX		4	/* retry receipts per message ([WM]) */
#define PHONE_ECHO_MS		300	/* an echo phone answers after this */
#define PHONE_CHATTY_MAX_S	86400	/* longest chatty period */
#define PHONE_TEXT_MAX		65536	/* bytes of text told to send */
#define PHONE_JID_MAX		96
#define PHONE_AS_KEY_REQ	7	/* APP_STATE_SYNC_KEY_REQUEST (protocol-
					 * features.md 2.3) */
#define PHONE_GROUP_SENT_MAX	64	/* group sends kept for retries */
#define PHONE_GROUP_DEVICES	64	/* devices of one member */

/* One row of the in-memory Signal tables. */
struct kv {
	char		*key;
	struct buf	 val;
};

/* The old value of a row written inside a transaction. */
struct undo {
	char		*key;
	bool		 had;
	struct buf	 old;
};

/* A message a phone received. */
struct inbox {
	uint64_t	 seq;
	char		 id[80];
	char		 from[PHONE_JID_MAX];
	char		 recipient[PHONE_JID_MAX];
	char		 enc[8];		/* pkmsg, msg */
	const char	*kind;			/* static */
	char		*text;
	char		*quoted_id;
	char		*emoji;
	char		*target_id;
	char		*vote;		/* a poll vote: encPayload and encIv in
					 * hex, "ENC:IV" (phone-poll.c) */
	char		*poll_secret;	/* a poll: its messageSecret in hex */
	char		*dsm_destination;
	uint32_t	 forwarded;		/* contextInfo's forwardingScore
						 * (0 not forwarded) */
	int64_t		 t;
	bool		 offline;
	int		 err;			/* 0, or why it was not read */
	bool		 retried;		/* a retry receipt was sent */
	const char	*eph;			/* "setting" (EPHEMERAL_SETTING),
						 * "content" (contextInfo
						 * expiration) or NULL;
						 * static */
	uint32_t	 eph_secs;		/* that timer, seconds */
	const char	*reporting;		/* the stanza's <reporting> token
						 * against the Message read:
						 * "matched", "mismatched",
						 * "absent"; NULL for a copy
						 * from an own device; static */
};

/* A receipt routed to a phone, or a message it sent. */
struct entry {
	char		 id[80];
	char		 peer[PHONE_JID_MAX];	/* receipt from, message to */
	char		 type[24];
	int64_t		 t;
	unsigned	 devices;		/* sends: copies encrypted */
	unsigned	 pkmsgs;
};

/* A group message a phone received (protocol.md 10, 11.2). */
struct ginbox {
	uint64_t	 seq;
	char		 group[48];		/* "<id>@g.us" */
	char		 id[80];
	char		 from[PHONE_JID_MAX];	/* participant: sender device */
	char		 enc[8];		/* skmsg, or pkmsg/msg (retry) */
	const char	*kind;			/* static */
	char		*text;
	int64_t		 t;
	int		 err;			/* 0, or why it was not read */
	const char	*reporting;		/* as struct inbox's */
};

/* A group (or 1:1) message a phone sent, kept for retry receipts (10.5,
 * 9.6). */
struct gsent {
	char		 group[48];		/* 1:1: the chat, a user JID */
	char		 id[80];
	char		 type[24];		/* 1:1: the stanza's type */
	struct buf	 msg;			/* the Message, unpadded */
};

struct retry_slot {
	char		 id[80];
	char		 from[PHONE_JID_MAX];
	unsigned	 count;
};

struct sim_phone {
	struct sim		*s;
	struct sim_account	*a;
	struct wa_signal	*sig;
	struct wa_signal_store_ops ops;

	struct kv		*kv;
	size_t			 nkv, kv_cap;
	struct undo		*undo;
	size_t			 nundo, undo_cap;
	size_t			 marks[PHONE_TX_DEPTH];
	unsigned		 depth;

	struct inbox		*in;
	size_t			 nin, in_cap;
	uint64_t		 in_seq;
	struct entry		*rcpt;
	size_t			 nrcpt, rcpt_cap;
	struct entry		*sent;
	size_t			 nsent, sent_cap;
	struct retry_slot	 retries[PHONE_RETRY_SLOTS];
	unsigned		 next_retry;
	uint64_t		 decrypted, failed, duplicates, retry_receipts;
	uint64_t		 resent;	/* an id read before, again */
	uint64_t		 echoes;

	struct ginbox		*gin;
	size_t			 ngin, gin_cap;
	uint64_t		 gin_seq;
	struct gsent		 gsent[PHONE_GROUP_SENT_MAX];
	struct gsent		 dsent[PHONE_GROUP_SENT_MAX];	/* 1:1 */
	unsigned		 next_dsent;
	uint64_t		 dm_resends;	/* 1:1 retry answers */
	unsigned		 next_gsent;
	uint64_t		 group_decrypted, group_failed, skdms;
	uint64_t		 group_resends;
};

/* --- phone-store.c --- */
/* Fill p->ops (the Signal store on p's tables, arg p) and put p's own
 * one-time prekeys (a's keys) in the tables. */
void	phone_store_init(struct sim_phone *p);
/* Free p's tables and its transaction journal (rows wiped). */
void	phone_store_release(struct sim_phone *p);
/* The row key of p's tables, or NULL. */
struct kv *phone_kv_find(struct sim_phone *p, const char *key);
/* Write row key = val[0..len) without journaling; val NULL deletes (the
 * last row moves into its place). */
void	phone_kv_set_raw(struct sim_phone *p, const char *key,
	    const uint8_t *val, size_t len);
/* The store's session_delete (arg p): 1 when there was one, else 0. */
int	phone_session_delete(void *arg, const struct wa_signal_addr *a);
/* Wipe and free b (secrets and message text). */
void	phone_wipe(struct buf *b);

/* --- phone.c --- */
/* The wall clock in ms since the epoch (arg unused), for libsignal. */
int64_t	phone_now_ms(void *arg);
/* Split "user[:device]@server" (user digits, device 0-255).  Returns
 * false otherwise (nothing written). */
bool	phone_split_jid(const char *jid, char *user, size_t ulen,
	    char *server, size_t slen, uint32_t *dev);
/* The account a JID names (PN or LID), or NULL; *lid (may be NULL) says
 * which. */
struct sim_account *phone_jid_account(struct sim *s, const char *jid,
	    bool *lid);
/* The JID of device dev of a in namespace lid, as text. */
void	phone_device_jid(char *out, size_t len, const struct sim_account *a,
	    bool lid, uint32_t dev);
/* Attribute key = the JID text jid, as a JID value (a string when it is
 * none). */
void	phone_attr_jid(struct arena *ar, struct wa_node *n, const char *key,
	    const char *jid);
/* The text of JID (or string) value v into out ("" when absent). */
void	phone_val_jid(const struct wa_val *v, char *out, size_t len);
/* The name of a message kind (static). */
const char *phone_kind_name(enum wa_msg_kind k);
/* A copy of s (xstrdup), or NULL for NULL. */
char	*phone_dup_or_null(const char *s);
/* Route n as p's phone sent it; logged when it cannot be (what: what n
 * is). */
void	phone_inject(struct sim_phone *p, struct wa_node *n, const char *what);
/* A retry receipt for m (9.6), at most PHONE_RETRY_MAX per message and
 * sender; marks inbox row fail_idx (SIZE_MAX: none) retried. */
void	phone_send_retry(struct sim_phone *p, const struct wa_msg_in *m,
	    size_t fail_idx, struct arena *ar);
/* Append e to the log v (n rows, cap allocated), at most PHONE_LOG_MAX. */
void	phone_entry_log_add(struct entry **v, size_t *n, size_t *cap,
	    const struct entry *e);
/* o[key] = v, when v is not NULL. */
void	phone_add_opt(struct json_object *o, const char *key, const char *v);

/* --- phone-send.c --- */
/*
 * Encrypt plain (a serialized Message, unpadded) for device dev of t in
 * namespace lid and add <to jid><enc/></to> to parts (decrypt-fail=hide
 * when hide; *npk counts pkmsgs); a session comes from the device's
 * bundle when there is none.  Returns 0, 1 when the device has nothing
 * to build a session from (skipped), or an error.
 */
int	phone_encrypt_for(struct sim_phone *p, struct sim_account *t,
	    uint32_t dev, bool lid, const struct buf *plain, struct arena *ar,
	    struct wa_node *parts, bool hide, unsigned *npk);
/* [{jid, enc}] of the <to> children of parts (a new reference). */
struct json_object *phone_devices_json(const struct wa_node *parts);
/*
 * Phone p sends the Message inner to chat (a user JID, PN or LID) with
 * stanza type (and edit, may be NULL; mediatype, put on every <enc>,
 * protocol-features.md 1.7, may be NULL): a copy for every device of the
 * addressee and a deviceSentMessage for every companion of p's account.
 * Fills id, and res (may be NULL) with what was sent.  Returns 0;
 * -EINVAL (chat is not a user JID of a known other account), or a
 * Signal error.
 */
int	phone_send_msg(struct sim_phone *p, const char *chat,
	    const struct buf *inner, const char *type, const char *edit,
	    const char *mediatype, char id[WA_MSG_ID_LEN + 1],
	    struct json_object *res);

/* --- phone-media.c (protocol-features.md 1) --- */
/*
 * The Message plain[0..len) that p read from (a device JID), id: each
 * image, video, audio, document or sticker in it (also inside a
 * deviceSentMessage, documentWithCaption, ephemeral or view-once wrapper)
 * is taken from the sim's own media host's store by its directPath,
 * decrypted and checked with its mediaKey and hashes, and listed in GET
 * /admin/media as received (once per message id and phone).  A message
 * with none is left alone.
 */
void	phone_media_take(struct sim_phone *p, const char *id,
	    const char *from, const uint8_t *plain, size_t len);
/*
 * A <receipt type="server-error"> n for message id taken by p (1.8): the
 * request decrypted with that message's media key, the blob stored again
 * under a new path, and <notification type="mediaretry"> sent to the
 * device that asked (<error code="2"/> when p knows no such media,
 * code 3 when the request does not open).  A receipt that is not from a
 * companion of p's account is logged and dropped.
 */
void	phone_media_retry(struct sim_phone *p, const struct wa_node *n,
	    const char *id);

/* --- phone-group.c --- */
/* A group <message from=group participant=SENDER> in (11.1), parsed into
 * ar: decrypted into the group inbox, then a receipt or a retry receipt. */
void	phone_take_group_message(struct sim_phone *p,
	    const struct wa_node *n, const struct wa_msg_in *in,
	    struct arena *ar);
/* The <reporting> token of stanza n (message id) against the Message
 * msg[0..len) it carried (proto/reporting.h), computed as its sender
 * must have: from sender's user JID (sender without its device) to chat
 * (our user JID in the sender's namespace, or the group), with the
 * messageSecret inside msg.  "matched", "mismatched" (also a malformed
 * token) or "absent"; static. */
const char	*phone_reporting_verdict(const struct wa_node *n,
		    const char *id, const char *sender, const char *chat,
		    const uint8_t *msg, size_t len);
/* A retry receipt n for group message id that p sent (10.5): resent to
 * that device with the SKDM. */
void	phone_group_retry(struct sim_phone *p, const struct wa_node *n,
	    const char *id);

/* --- phone-retry.c --- */
/* Keep the 1:1 Message inner p sent to chat as message id (stanza type)
 * for retry receipts. */
void	phone_dm_keep(struct sim_phone *p, const char *id, const char *chat,
	    const char *type, const struct buf *inner);
/* A 1:1 retry receipt n for message id that p sent (9.6): the message
 * again to that device alone, on a session from the receipt's <keys>,
 * else from a fresh bundle when its registration id changed, else on the
 * session there is. */
void	phone_dm_retry(struct sim_phone *p, const struct wa_node *n,
	    const char *id);

/* --- phone-chatty.c --- */
/* An echo phone answers text (message id from device sender, in the
 * user chat chat) with "echo: TEXT" and a read receipt, after a moment. */
void	phone_echo_schedule(struct sim_phone *p, const char *sender,
	    const char *chat, const char *id, const char *text);

#endif
