/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/group.h -- the stanza half of group messaging (protocol.md 10,
 * 11.7): the participant hash (phash), the group <message> with its
 * pairwise SKDM copies and its skmsg, the SKDM-only Message, the w:g2
 * queries and changes (metadata, participating groups, create, subject,
 * participants, leave), and the readers of a <group> node and of a w:gp2
 * <notification>.  Pure functions: no I/O, no clock, no randomness, no
 * Signal calls, no globals; callable from any thread on nodes that thread
 * owns.  wa_group_phash() hashes with proto/crypto.h: call it after
 * wa_crypto_init().
 *
 * JIDs are passed as text, "user[:device]@server" (protocol.md 5.2), and
 * written as JID values.  Builders allocate the tree in a caller's arena
 * and borrow every string and byte array they are given: those must
 * outlive the tree's encoding.  Parsers copy the strings they return into
 * the arena they are given (NUL-terminated) and point into the node for
 * bytes: results live as long as both.
 *
 * Shapes of the w:g2 changes that protocol.md 10.1 does not spell out
 * follow whatsmeow group.go (CreateGroup, SetGroupName,
 * UpdateGroupParticipants, LeaveGroup): every one is <iq id xmlns="w:g2"
 * type="set" to> with one child.
 */
#ifndef WA_GROUP_H
#define WA_GROUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"
#include "proto/msg.h"

#define WA_GROUP_PHASH_LEN	10	/* "2:" + 8 base64 characters */
#define WA_GROUP_MAX_DEVICES	8192	/* device JIDs hashed into one phash */
/* <participant> read from a <group> (WhatsApp's cap is 1024). */
#define WA_GROUP_MAX_PARTICIPANTS 2048
#define WA_GROUP_MAX_GROUPS	1024	/* <group> read from <groups> */
#define WA_GROUP_MAX_EVENTS	32	/* children read from one w:gp2
					 * <notification> */
#define WA_GROUP_MAX_JID	256	/* bytes of a JID rendered as text */

/* --- participant hash (protocol.md 10.3) --- */

/*
 * Write the participant-list hash v2 of the device JIDs devs[0..n)
 * ("user[:device]@server", borrowed) into out, WA_GROUP_PHASH_LEN
 * characters and a NUL (protocol.md 10.3; whatsmeow send.go
 * participantListHashV2): each JID rendered as "user.0:device@server"
 * (agent 0, device 0 written out), the strings sorted bytewise and
 * concatenated, then "2:" and the unpadded standard base64 of the first
 * 6 bytes of their SHA-256.  Hosted devices (server "hosted" or
 * "hosted.lid", or device 99) are left out, as all three references do.
 * The caller includes its own sending device.  Returns 0.  Errors:
 * -EINVAL (devs NULL with n > 0, a NULL or malformed JID, a JID without
 * a user, n above WA_GROUP_MAX_DEVICES).  out untouched on error.
 */
MUST_CHECK int	wa_group_phash(const char *const *devs, size_t n,
		    char out[WA_GROUP_PHASH_LEN + 1]);

/* --- the group <message> (protocol.md 10.2, 10.3) --- */

/* An outgoing group <message>. */
struct wa_group_send {
	const char	*id;		/* wa_msg_id(); never NULL */
	const char	*to;		/* the group JID; never NULL */
	const char	*type;		/* "text" when NULL; "media" */
	const char	*phash;		/* wa_group_phash(); never NULL */
	const char	*addressing_mode; /* the group's: "lid" or "pn";
					 * never NULL (10.3) */
	const char	*edit;		/* "1" edit, "7" revoke; or NULL */
	const char	*mediatype;	/* on the skmsg <enc>; or NULL */
	/* The SKDM-only Message encrypted pairwise for each device that
	 * lacks our sender key (10.4); n_skdm may be 0. */
	const struct wa_msg_enc_out *skdm;
	size_t		 n_skdm;
	const uint8_t	*skmsg;		/* the SenderKeyMessage; borrowed */
	size_t		 skmsg_len;	/* > 0 */
	const uint8_t	*device_identity; /* ADVSignedDeviceIdentity;
					 * needed when a copy is a pkmsg */
	size_t		 device_identity_len;
	const uint8_t	*reporting_token; /* WA_REPORTING_TOKEN_LEN bytes
					 * (proto/reporting.h), or NULL */
};

/*
 * Build in a the stanza for s (protocol.md 10.3): <message to id type
 * phash addressing_mode [edit]>[<participants><to jid><enc v="2"
 * type="pkmsg|msg">ct</enc></to>...</participants>]<enc v="2"
 * type="skmsg" [mediatype] [decrypt-fail="hide"]>skmsg</enc>
 * [<device-identity>bytes</device-identity>][<reporting>...</reporting>]
 * </message> (the last when reporting_token is set, wa_reporting_node();
 * whatsmeow sendGroup, Baileys relayMessage).  <participants>
 * is written only when n_skdm > 0; <device-identity> only when some SKDM
 * copy is a pkmsg; decrypt-fail="hide" when edit is given or type is
 * "reaction" (9.4).  Returns 0 and *out.  Errors: -EINVAL (id, to,
 * phash, addressing_mode or skmsg missing, to not on g.us,
 * addressing_mode neither "lid" nor "pn", an SKDM copy of type other
 * than MSG or PKMSG or without jid, a pkmsg without device_identity, a
 * malformed JID).  *out untouched on error.  The node points into s's
 * strings and buffers (and into a): each must live until the node is
 * encoded, not only until this returns.
 */
MUST_CHECK int	wa_group_stanza(const struct wa_group_send *s,
		    struct arena *a, struct wa_node **out);

/*
 * Append to out the serialized Message{senderKeyDistributionMessage(2){
 * groupId(1) = group, axolotlSenderKeyDistributionMessage(2) =
 * skdm[0..len)}} (protocol.md 10.2): the content of the pairwise copies
 * of a group send, to be padded (wa_msg_pad) and encrypted per device.
 * skdm is the serialized SenderKeyDistributionMessage from libsignal
 * (version byte 0x33 first).  Returns 0.  Errors: -EINVAL (group NULL
 * or not on g.us, skdm NULL or len 0).  out->len unchanged on error.
 */
MUST_CHECK int	wa_group_message_skdm(const char *group, const uint8_t *skdm,
		    size_t len, struct buf *out);

/*
 * Append to out the serialized Message msg[0..msg_len) (a text Message
 * from wa_msg_build_text(), say) with senderKeyDistributionMessage(2) as
 * wa_group_message_skdm() builds it added: the content of a group retry,
 * which goes pairwise with both in one Message (protocol.md 10.5).  A
 * normal group send does not use this: its pairwise copies carry the
 * SKDM alone and the text goes only in the skmsg (10.2).  Concatenated
 * protobuf fields merge, so msg should not already hold field 2.
 * Returns 0.  Errors: -EINVAL (as wa_group_message_skdm(), or msg NULL
 * with msg_len > 0).  out->len unchanged on error.
 */
MUST_CHECK int	wa_group_message_add_skdm(const uint8_t *msg, size_t msg_len,
		    const char *group, const uint8_t *skdm, size_t len,
		    struct buf *out);

/* --- w:g2 queries and changes (protocol.md 10.1; whatsmeow group.go) --- */

/*
 * Build in a <iq id xmlns="w:g2" type="get" to=group><query
 * request="interactive"/></iq> (10.1).  id is the iq id (borrowed).
 * Returns 0 and *out.  Errors: -EINVAL (id or group NULL, group not on
 * g.us).
 */
MUST_CHECK int	wa_group_info_query(const char *id, const char *group,
		    struct arena *a, struct wa_node **out);

/*
 * Build in a <iq id xmlns="w:g2" type="get" to="g.us"><participating>
 * <participants/><description/></participating></iq>: every group we are
 * in (10.1).  Returns 0 and *out.  Errors: -EINVAL (id NULL).
 */
MUST_CHECK int	wa_group_participating_query(const char *id,
		    struct arena *a, struct wa_node **out);

/*
 * Build in a <iq id xmlns="w:g2" type="set" to="g.us"><create subject
 * key><participant jid/>...</create></iq> (whatsmeow CreateGroup).  key
 * deduplicates the create notification; a leading "3EB0" is dropped, as
 * WhatsApp Web and whatsmeow send it.  participants[0..n) are user JIDs
 * (not our own; the server adds us); n may be 0.  Returns 0 and *out.
 * Errors: -EINVAL (id, subject or key NULL, subject empty, a bad JID, n
 * above WA_GROUP_MAX_PARTICIPANTS).
 */
MUST_CHECK int	wa_group_create(const char *id, const char *subject,
		    const char *key, const char *const *participants, size_t n,
		    struct arena *a, struct wa_node **out);

/*
 * Build in a the w:g2 set of group's disappearing-messages timer: <iq
 * id type="set" xmlns="w:g2" to=group><ephemeral expiration="secs"/>
 * </iq>, or <not_ephemeral/> for secs 0 (whatsmeow SetDisappearingTimer
 * for a group; protocol-features.md 3.5).  Returns 0.  Errors: -EINVAL
 * (id NULL, group not a group JID).  Any thread.
 */
MUST_CHECK int	wa_group_set_ephemeral(const char *id, const char *group,
		    uint32_t secs, struct arena *a, struct wa_node **out);

/*
 * Build in a <iq id xmlns="w:g2" type="set" to=group><subject>bytes of
 * subject</subject></iq> (whatsmeow SetGroupName).  Returns 0 and *out.
 * Errors: -EINVAL (a NULL argument, subject empty, group not on g.us).
 */
MUST_CHECK int	wa_group_set_subject(const char *id, const char *group,
		    const char *subject, struct arena *a, struct wa_node **out);

enum wa_group_change {
	WA_GROUP_ADD,		/* <add> */
	WA_GROUP_REMOVE,	/* <remove> */
	WA_GROUP_PROMOTE,	/* <promote>: make admin */
	WA_GROUP_DEMOTE,	/* <demote> */
};

/*
 * Build in a <iq id xmlns="w:g2" type="set" to=group><add|remove|
 * promote|demote><participant jid/>...</...></iq> (whatsmeow
 * UpdateGroupParticipants; the same tags as the w:gp2 notifications of
 * 11.7).  jids[0..n) are user JIDs.  Returns 0 and *out.  Errors: -EINVAL
 * (id or group NULL, group not on g.us, n 0 or above
 * WA_GROUP_MAX_PARTICIPANTS, a bad JID).
 */
MUST_CHECK int	wa_group_participants_change(const char *id,
		    const char *group, enum wa_group_change what,
		    const char *const *jids, size_t n, struct arena *a,
		    struct wa_node **out);

/*
 * Build in a <iq id xmlns="w:g2" type="set" to="g.us"><leave><group
 * id=group/></leave></iq> (whatsmeow LeaveGroup; id is a JID value).
 * Returns 0 and *out.  Errors: -EINVAL (id or group NULL, group not on
 * g.us).
 */
MUST_CHECK int	wa_group_leave(const char *id, const char *group,
		    struct arena *a, struct wa_node **out);

/* --- reading <group> (protocol.md 10.1) --- */

/* One <participant>.  Strings in the arena; NULL when absent. */
struct wa_group_participant {
	const char	*jid;		/* never NULL; a LID in LID groups */
	const char	*lid;		/* the LID alternate (PN groups) */
	const char	*phone_number;	/* the PN alternate (LID groups) */
	const char	*display_name;
	bool		 admin;		/* type="admin" or "superadmin" */
	bool		 superadmin;	/* type="superadmin" (the creator) */
};

/* A group's metadata.  Strings in the arena; NULL when absent. */
struct wa_group_info {
	const char	*jid;		/* "<id>@g.us"; never NULL */
	const char	*subject;
	const char	*subject_owner;	/* s_o */
	const char	*subject_owner_pn; /* s_o_pn */
	int64_t		 subject_t;	/* s_t, unix s; 0 when absent */
	const char	*creator;
	const char	*creator_pn;
	int64_t		 creation;	/* unix s; 0 when absent */
	const char	*addressing_mode; /* "lid" or "pn"; "pn" when absent */
	bool		 lid;		/* addressing_mode is "lid" */
	int64_t		 size;		/* the size attribute; 0 when absent */
	const char	*description;	/* <description><body> text */
	const char	*description_id;
	bool		 announce;	/* <announcement/> */
	bool		 locked;	/* <locked/> */
	int64_t		 ephemeral_s;	/* <ephemeral expiration>; 0 when off */
	struct wa_group_participant *participants; /* in the arena */
	size_t		 n_participants;
};

/*
 * Read the <group> node g into *out (10.1).  Returns 0.  Errors: -EINVAL
 * (g NULL or not a <group>), WC_EPROTO (no id, a non-numeric s_t,
 * creation, size or expiration, a <participant> without jid, more than
 * WA_GROUP_MAX_PARTICIPANTS participants).  When why is not NULL it is set
 * on error to a static English sentence for the log.  *out untouched on
 * error.
 */
MUST_CHECK int	wa_group_info_parse(const struct wa_node *g, struct arena *a,
		    struct wa_group_info *out, const char **why);

/*
 * Read the answer iq to wa_group_info_query() (its <group> child) or to
 * wa_group_participating_query() (each <group> of its <groups> child)
 * into an array allocated in a: *out and *n_out.  Returns 0.  Errors:
 * -EINVAL (iq NULL or not an <iq>), -ENOENT (type="error" with code 404),
 * -EACCES (type="error" with code 403), WC_EPROTO (another error, no
 * <group> or <groups>, more than WA_GROUP_MAX_GROUPS groups, or a group
 * wa_group_info_parse() refuses).  why as for wa_group_info_parse().
 */
MUST_CHECK int	wa_group_iq_parse(const struct wa_node *iq, struct arena *a,
		    struct wa_group_info **out, size_t *n_out,
		    const char **why);

/* --- w:gp2 notifications (protocol.md 11.7) --- */

enum wa_group_ev_kind {
	WA_GROUP_EV_OTHER,		/* a child we do not read; tag kept */
	WA_GROUP_EV_CREATE,		/* <create><group/></create>: info */
	WA_GROUP_EV_SUBJECT,		/* <subject subject s_t s_o/> */
	WA_GROUP_EV_DESCRIPTION,	/* <description id><body>|<delete/> */
	WA_GROUP_EV_ADD,		/* participant lists: */
	WA_GROUP_EV_REMOVE,
	WA_GROUP_EV_PROMOTE,
	WA_GROUP_EV_DEMOTE,
	WA_GROUP_EV_LEAVE,
	WA_GROUP_EV_MODIFY,		/* [RS]: rotate the sender key (10.4) */
	WA_GROUP_EV_ANNOUNCE,		/* <announcement/> */
	WA_GROUP_EV_NOT_ANNOUNCE,
	WA_GROUP_EV_LOCKED,
	WA_GROUP_EV_UNLOCKED,
	WA_GROUP_EV_EPHEMERAL,		/* <ephemeral expiration/> */
	WA_GROUP_EV_NOT_EPHEMERAL,
	WA_GROUP_EV_DELETE,		/* <delete reason/>: group deleted */
};

/* One change from a w:gp2 notification.  Strings in the arena; NULL
 * when absent. */
struct wa_group_event {
	enum wa_group_ev_kind kind;
	const char	*tag;		/* the child's tag, never NULL */
	const char	*group;		/* the notification's from */
	const char	*id;		/* the notification's id; never NULL */
	int64_t		 t;		/* its t, unix s; 0 when absent */
	const char	*author;	/* its participant attribute */
	const char	*author_pn;	/* its participant_pn */
	const char	*notify;	/* the author's push name */
	const char	*reason;	/* of a participant change, delete */
	/* SUBJECT */
	const char	*subject;
	const char	*subject_owner;
	int64_t		 subject_t;
	/* DESCRIPTION */
	const char	*description;	/* NULL when deleted */
	const char	*description_id;
	/* EPHEMERAL */
	int64_t		 expiration_s;
	/* ADD, REMOVE, PROMOTE, DEMOTE, LEAVE, MODIFY */
	struct wa_group_participant *participants;
	size_t		 n_participants;
	/* CREATE */
	struct wa_group_info *created;
};

/*
 * Read a <notification type="w:gp2"> n into events allocated in a, one
 * per child in document order: *out and *n_out (0 when n has no
 * children).  Unknown children become WA_GROUP_EV_OTHER.  Returns 0.
 * Errors: -EINVAL (n NULL, not a <notification>, or its type is not
 * "w:gp2"), WC_EPROTO (no from or id, a non-numeric t, s_t or
 * expiration, a <participant> without jid, a <create> without a valid
 * <group>, more than WA_GROUP_MAX_EVENTS children or
 * WA_GROUP_MAX_PARTICIPANTS participants in one).  why as for
 * wa_group_info_parse().  *out untouched on error.
 */
MUST_CHECK int	wa_group_notification_parse(const struct wa_node *n,
		    struct arena *a, struct wa_group_event **out,
		    size_t *n_out, const char **why);

#endif
