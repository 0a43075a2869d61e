/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/msg.h -- the message layer of 1:1 messaging: what travels inside
 * Signal ciphertexts (the Message protobuf, its padding and the
 * deviceSentMessage wrapper; protocol.md 9.1-9.3, 11.3-11.5) and the nodes
 * around them (<message>, <receipt>, <ack>, <chatstate>, <presence>;
 * protocol.md 9.4-9.6, 11.1, 11.7, 11.8, 15).  Pure functions: no I/O, no
 * clock, no randomness of their own (both are passed in), no Signal calls,
 * no globals; callable from any thread.
 *
 * JIDs are passed as text, "user[:device]@server" (protocol.md 5.2); node
 * builders write them as JID values so the codec picks the JID_PAIR or
 * AD_JID form (protocol.md 4.5).  Node builders allocate the tree in a
 * caller's arena and borrow every string and byte array they are given:
 * those must outlive the tree's encoding.  Node parsers copy what they
 * return into the arena they are given (NUL-terminated strings) or point
 * into the node (ciphertext bytes): the results live as long as both.
 */
#ifndef WA_MSG_H
#define WA_MSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "proto/bin.h"
#include "base/buf.h"

#define WA_MSG_ID_LEN		22	/* "3EB0" + 18 hex digits (9.5) */
#define WA_MSG_ID_RAND_LEN	16	/* random bytes hashed into an id */
#define WA_MSG_PAD_MAX		16	/* padding we add: 1..16 bytes (9.3) */
#define WA_MSG_MAX_IDS		256	/* ids read from one <receipt> */
#define WA_MSG_MAX_ENCS		64	/* <enc> children read from a <message> */
#define WA_MSG_MAX_JID		256	/* bytes of a JID rendered as text */

/* --- ids and padding --- */

/*
 * Write a message id as whatsmeow and whatsapp-rust make them (protocol.md
 * 9.5): "3EB0" then the upper-case hex of the first 9 bytes of
 * SHA-256(unix_s as 8 bytes BE ‖ own_user ‖ "@c.us" ‖ rnd), 22 characters
 * and a NUL into out.  unix_s is the current time in seconds since the
 * epoch.  own_user is the own PN user ("15551234567"), or NULL or "" when
 * unknown (then neither it nor "@c.us" is hashed).  rnd holds
 * WA_MSG_ID_RAND_LEN fresh random bytes from the caller.  Cannot fail;
 * call after wa_crypto_init() (proto/crypto.h).
 */
void		wa_msg_id(const uint8_t rnd[WA_MSG_ID_RAND_LEN], uint64_t unix_s,
		    const char *own_user, char out[WA_MSG_ID_LEN + 1]);

/*
 * Append p[0..len) and then k bytes of value k to out, k = (rnd & 0x0F)
 * + 1, so 1..16 (protocol.md 9.3, as Baileys and whatsapp-rust do).  rnd
 * is one random byte from the caller.  Cannot fail.
 */
void		wa_msg_pad(const uint8_t *p, size_t len, uint8_t rnd,
		    struct buf *out);

/*
 * Check the padding of a decrypted v="2" plaintext p[0..len) and store in
 * *out_len the length without it (protocol.md 9.3).  The last byte k must
 * be at least 1 and at most len, and the last k bytes must all equal k (as
 * whatsmeow checks); k above 16 is accepted, since whatsmeow does not cap
 * it either.  Returns 0.  Errors: WC_EPROTO (empty input, k = 0, k > len,
 * or a padding byte other than k); *out_len untouched on error.
 */
MUST_CHECK int	wa_msg_unpad(const uint8_t *p, size_t len, size_t *out_len);

/*
 * The field number of the first field of the Message p[0..len) (its
 * key's varint), which tells a Message we built apart: reactionMessage
 * 46, protocolMessage 12 (a delete), editedMessage 58, conversation 1,
 * ...  Returns it, or 0 for an empty or malformed start.  Any thread.
 */
unsigned	wa_msg_first_field(const uint8_t *p, size_t len);

/* --- Message protobufs we build --- */

/* A reference to another message (MessageKey; protocol.md 11.4, 11.5). */
struct wa_msg_key {
	const char	*remote_jid;	/* the chat JID; may be NULL */
	bool		 from_me;	/* the target was sent by us */
	const char	*id;		/* message id; never NULL */
	const char	*participant;	/* sender (non-AD), groups only; may be NULL */
};

/* A text message to build.  Only text is required. */
struct wa_msg_text {
	const char	*text;		/* UTF-8; never NULL */
	/* A reply: quoted_id non-NULL makes one (ContextInfo, 9.1). */
	const char	*quoted_id;		/* the quoted message's id */
	const char	*quoted_participant;	/* its sender, non-AD JID; may be NULL */
	const char	*quoted_text;		/* its text, sent as quotedMessage{
						 * conversation}; NULL omits it */
	const char	*quoted_remote_jid;	/* its chat, only when it is
						 * not this chat; may be NULL */
	const char *const *mentions;	/* mentioned JIDs; may be NULL */
	size_t		 n_mentions;
	/* A forward (protocol-features.md 3.7): > 0 sets contextInfo
	 * isForwarded(22) true and forwardingScore(21) to it. */
	uint32_t	 forward_score;
};

/*
 * Append to out the serialized Message for t (protocol.md 9.1):
 * conversation(1) for plain text, extendedTextMessage(6){text(1),
 * contextInfo(17){stanzaId(1), participant(2), quotedMessage(3){
 * conversation(1)}, remoteJid(4), mentionedJid(15), forwardingScore(21),
 * isForwarded(22)}} when t quotes, mentions or is a forward.  Returns 0.  Errors: -EINVAL (t->text NULL).  out->len is
 * unchanged on error.
 */
MUST_CHECK int	wa_msg_build_text(const struct wa_msg_text *t, struct buf *out);

/*
 * Append to out Message{reactionMessage(46){key(1) = target, text(2) =
 * emoji, senderTimestampMs(4) = ts_ms}} (protocol.md 11.5).  emoji "" (or
 * NULL) removes our reaction; ts_ms is milliseconds since the epoch.  The
 * stanza carrying it takes type "reaction" (9.4).  Returns 0.  Errors:
 * -EINVAL (target or target->id NULL).
 */
MUST_CHECK int	wa_msg_build_reaction(const struct wa_msg_key *target,
		    const char *emoji, int64_t ts_ms, struct buf *out);

/*
 * Append to out Message{protocolMessage(12){key(1) = target, type(2) =
 * REVOKE (0)}} (protocol.md 11.4); its stanza takes edit="7".  Returns 0.
 * Errors: -EINVAL (target or target->id NULL).
 */
MUST_CHECK int	wa_msg_build_revoke(const struct wa_msg_key *target,
		    struct buf *out);

/*
 * Append to out Message{editedMessage(58){message(1){protocolMessage(12){
 * key(1) = target, type(2) = MESSAGE_EDIT (14), editedMessage(14){
 * conversation(1) = text}, timestampMs(15) = ts_ms}}}} (protocol.md 11.5);
 * its stanza takes edit="1".  Returns 0.  Errors: -EINVAL (target,
 * target->id or text NULL).
 */
MUST_CHECK int	wa_msg_build_edit(const struct wa_msg_key *target,
		    const char *text, int64_t ts_ms, struct buf *out);

/*
 * Append to out the copy of inner[0..len) (a serialized Message) meant for
 * our own other devices (protocol.md 9.2): Message{deviceSentMessage(31){
 * destinationJid(1) = destination, message(2) = inner},
 * messageContextInfo(35) = inner's messageContextInfo, when it has one}.
 * destination is the peer's chat JID.  Returns 0.  Errors: those of
 * wa_pb_check() on inner (WC_ETRUNC, WC_EPROTO, WC_EDEPTH); -EINVAL
 * (destination NULL).  out->len is unchanged on error.
 */
MUST_CHECK int	wa_msg_wrap_dsm(const uint8_t *inner, size_t len,
		    const char *destination, struct buf *out);

/* --- Message protobufs we read --- */

enum wa_msg_kind {
	WA_MSG_EMPTY,		/* no content we know (only context info) */
	WA_MSG_TEXT,		/* text */
	WA_MSG_REPLY,		/* text, quoted_* */
	WA_MSG_REACTION,	/* target, emoji ("" = reaction removed), ts_ms */
	WA_MSG_EDIT,		/* target, text = the new text, ts_ms */
	WA_MSG_REVOKE,		/* target */
	WA_MSG_PROTOCOL,	/* another protocolMessage: protocol_type */
	WA_MSG_SKDM,		/* only a sender key distribution (no content) */
	WA_MSG_MEDIA,		/* media: struct wa_msg_media *media */
	WA_MSG_UNSUPPORTED,	/* unsupported_field, unsupported_name */
	WA_MSG_RICH,		/* location, live location, contact cards,
				 * view-once media, a link preview: text is
				 * its rich record (base/rich.h), rich_type
				 * its type */
	WA_MSG_POLL_VOTE,	/* pollUpdateMessage (protocol-features.md
				 * 3.1): target = the poll's key, poll_enc
				 * and poll_iv its encrypted vote, ts_ms */
};

/* What kind of media a Message holds (protocol-features.md 1.6, 1.7). */
enum wa_msg_media_type {
	WA_MEDIA_NONE = 0,
	WA_MEDIA_IMAGE = 1,	/* imageMessage (3) */
	WA_MEDIA_VIDEO = 2,	/* videoMessage (9) */
	WA_MEDIA_GIF = 3,	/* videoMessage with gifPlayback */
	WA_MEDIA_PTV = 4,	/* ptvMessage (66): a round video note */
	WA_MEDIA_AUDIO = 5,	/* audioMessage (8) */
	WA_MEDIA_PTT = 6,	/* audioMessage with PTT: a voice note */
	WA_MEDIA_DOCUMENT = 7,	/* documentMessage (7) */
	WA_MEDIA_STICKER = 8,	/* stickerMessage (26); animated: isAnimated */
};

#define WA_MSG_THUMB_MAX	(64u << 10)	/* bytes of a thumbnail kept;
						 * a larger one is dropped */
#define WA_MSG_WAVEFORM_MAX	256	/* bytes of a waveform kept (64 sent) */
#define WA_MSG_MEDIA_KEY_LEN	32	/* mediaKey (1.2) */
#define WA_MSG_SHA256_LEN	32	/* fileSHA256, fileEncSHA256 (1.3) */

/*
 * The media of a received Message (protocol-features.md 1.6): what the
 * screen shows and what a later download needs (1.5).  Strings are heap
 * copies or NULL when absent; byte arrays heap copies with their length
 * (0 and NULL when absent).  A thumbnail above WA_MSG_THUMB_MAX or a
 * waveform above WA_MSG_WAVEFORM_MAX bytes is dropped; a mediaKey or hash
 * of another length than 32 bytes is dropped (a download would fail).
 */
struct wa_msg_media {
	enum wa_msg_media_type type;
	bool		 animated;	/* STICKER: isAnimated (animated WebP) */
	char		*mimetype;
	uint64_t	 file_length;	/* bytes of the plaintext file */
	uint32_t	 width, height;	/* pixels; IMAGE, VIDEO*, STICKER;
					 * DOCUMENT: of its thumbnail */
	uint32_t	 seconds;	/* VIDEO, GIF, PTV, AUDIO, PTT */
	uint32_t	 pages;		/* DOCUMENT: pageCount */
	char		*caption;	/* IMAGE, VIDEO*, DOCUMENT */
	char		*file_name;	/* DOCUMENT: fileName (else title) */
	uint8_t		*thumb;		/* JPEGThumbnail (sticker: PNG) */
	size_t		 thumb_len;
	uint8_t		*waveform;	/* PTT: 0..100 per block */
	size_t		 waveform_len;
	uint8_t		*media_key;	/* WA_MSG_MEDIA_KEY_LEN bytes */
	size_t		 media_key_len;
	char		*direct_path;	/* starts with '/' */
	char		*url;
	uint8_t		*file_sha256;	/* WA_MSG_SHA256_LEN bytes */
	size_t		 file_sha256_len;
	uint8_t		*file_enc_sha256; /* WA_MSG_SHA256_LEN bytes */
	size_t		 file_enc_sha256_len;
	int64_t		 media_key_ts;	/* unix s; 0 when absent */
};

/*
 * Append to out the serialized Message for sending md (protocol-features.md
 * 1.6): imageMessage(3), videoMessage(9) (gifPlayback for GIF),
 * ptvMessage(66), audioMessage(8) (PTT for a voice note, seconds,
 * waveform), documentMessage(7) (fileName and title, "file" when
 * md->file_name is NULL; the caption inline, field 20, as [BL] sends it)
 * or stickerMessage(26), each with url, mimetype, fileSHA256,
 * fileLength, mediaKey, fileEncSHA256, directPath, mediaKeyTimestamp
 * (when md->media_key_ts > 0), caption, width/height (when width > 0),
 * seconds (when > 0) and the thumbnail (JPEGThumbnail; a sticker's
 * pngThumbnail) as md has them.  reply (may be NULL; its text is not
 * used) with quoted_id set makes the message a reply: contextInfo{
 * stanzaId, participant, remoteJid, quotedMessage{conversation =
 * quoted_text}} as wa_msg_build_text() does; reply's forward_score > 0
 * marks it forwarded as there (protocol-features.md 3.7: a forward
 * reuses url, directPath, mediaKey and both hashes, no upload).  md is
 * borrowed.  The
 * stanza takes type "media" and the <enc> mediatype
 * wa_msg_media_name(md->type) (1.7).  Returns 0.  Errors: -EINVAL (md or
 * out NULL, WA_MEDIA_NONE or an unknown type, mimetype or direct_path
 * NULL, a direct_path not starting with '/', a media key or hash not of
 * 32 bytes, a waveform over WA_MSG_WAVEFORM_MAX or a thumbnail over
 * WA_MSG_THUMB_MAX bytes).  out->len is unchanged on error.  Any thread.
 */
MUST_CHECK int	wa_msg_build_media(const struct wa_msg_media *md,
		    const struct wa_msg_text *reply, struct buf *out);

/* The English word of a media type ("image", "ptt": the stanza's
 * mediatype of 1.7), static; "" for WA_MEDIA_NONE.  Any thread. */
const char	*wa_msg_media_name(enum wa_msg_media_type t);

/* The disappearing-messages timer a received Message carries. */
enum wa_msg_eph {
	WA_MSG_EPH_NONE,	/* none */
	WA_MSG_EPH_SETTING,	/* protocolMessage EPHEMERAL_SETTING (3):
				 * the chat's timer changed (kind PROTOCOL,
				 * protocol_type 3) */
	WA_MSG_EPH_CONTENT,	/* a content message's contextInfo
				 * expiration: the timer it was sent in */
};

/*
 * Append to out Message{protocolMessage(12){type(2) = EPHEMERAL_SETTING
 * (3), ephemeralExpiration(4) = secs (0 off), ephemeralSettingTimestamp
 * (5) = ts_s (unix s), disappearingMode(11){initiator(1) = 0
 * CHANGED_IN_CHAT, trigger(2) = 0}}}: a 1:1 chat's timer, sent bare as
 * whatsmeow (SetDisappearingTimer) and whatsapp-rust do
 * (protocol-features.md 3.5); its stanza is type "text".  Returns 0.
 * Errors: -EINVAL (out NULL, ts_s < 0).  Any thread.
 */
MUST_CHECK int	wa_msg_build_ephemeral(uint32_t secs, int64_t ts_s,
		    struct buf *out);

/*
 * Append to out the Message p[0..len) with its content message's
 * contextInfo carrying expiration(25) = secs and, when ts_s > 0,
 * ephemeralSettingTimestamp(26) = ts_s, as Baileys sends a message in a
 * disappearing chat (protocol-features.md 3.5); a plain conversation
 * becomes extendedTextMessage{text} to carry it.  Other fields stay as
 * they were.  Returns 1 when set, 0 when p holds no content message that
 * takes one (a reaction, a protocol message: appended unchanged).
 * Errors: -EINVAL (out NULL, secs 0), WC_ETRUNC, WC_EPROTO, WC_EDEPTH (p
 * does not parse; nothing appended).  Any thread.
 */
MUST_CHECK int	wa_msg_set_expiration(const uint8_t *p, size_t len,
		    uint32_t secs, int64_t ts_s, struct buf *out);

/* Whether p[0..len) is a Message whose protocolMessage is of type
 * EPHEMERAL_SETTING (3): false for anything else or what does not
 * parse.  Any thread. */
bool		wa_msg_is_eph_setting(const uint8_t *p, size_t len);

/* An owned MessageKey. */
struct wa_msg_key_in {
	char		*remote_jid;	/* may be NULL */
	bool		 from_me;
	char		*id;		/* may be NULL when the sender left it out */
	char		*participant;	/* may be NULL */
};

/*
 * A received Message, flattened.  Strings are NUL-terminated heap copies
 * (a protobuf string holding a NUL is cut there) and may be NULL when the
 * field was absent; free all with wa_msg_content_release().  Text is not
 * checked for UTF-8: the UI sanitises what it shows.
 */
struct wa_msg_content {
	enum wa_msg_kind	 kind;
	char		*text;		/* TEXT, REPLY; EDIT: the new text */
	char		*quoted_id;	/* REPLY: ContextInfo.stanzaId */
	char		*quoted_participant; /* REPLY: ContextInfo.participant */
	char		*quoted_text;	/* REPLY: the quoted message's text */
	struct wa_msg_key_in target;	/* REACTION, EDIT, REVOKE */
	char		*emoji;		/* REACTION: "" when removed */
	int64_t		 ts_ms;		/* REACTION, EDIT: sender's time, ms; 0 if absent */
	int32_t		 protocol_type;	/* PROTOCOL (and EDIT 14, REVOKE 0) */
	uint32_t	 unsupported_field; /* UNSUPPORTED: Message field number */
	const char	*unsupported_name; /* UNSUPPORTED: its name ("imageMessage"),
					 * static; NULL for a number we do not know */
	char		*dsm_destination; /* deviceSentMessage.destinationJid, or
					 * NULL when not sent by our own device */
	uint8_t		*skdm;		/* axolotlSenderKeyDistributionMessage */
	size_t		 skdm_len;	/* bytes; 0 when absent */
	char		*skdm_group;	/* SenderKeyDistributionMessage.groupId */
	uint8_t		*message_secret; /* messageContextInfo.messageSecret */
	size_t		 message_secret_len; /* bytes; 0 when absent */
	struct wa_msg_media *media;	/* MEDIA, RICH view-once: owned; else
					 * NULL */
	bool		 view_once;	/* it came in a view-once wrapper
					 * (37, 55, 59; protocol-features.md
					 * 3.4) */
	int		 rich_type;	/* RICH: base/rich.h enum rich_type */
	int64_t		 live_seq;	/* RICH live: sequenceNumber; 0 absent */
	uint32_t	 forwarded;	/* contextInfo of the content: 0 not
					 * forwarded, else forwardingScore
					 * (1 when isForwarded came without
					 * one; 3.7) */
	uint8_t		*poll_enc;	/* POLL_VOTE: encPayload; NULL absent */
	size_t		 poll_enc_len;
	uint8_t		*poll_iv;	/* POLL_VOTE: encIv (12 bytes); NULL
					 * absent or of another length */
	size_t		 poll_iv_len;
	enum wa_msg_eph	 eph;		/* a disappearing-messages timer it
					 * carries (protocol-features.md
					 * 3.5) */
	uint32_t	 eph_secs;	/* that timer, seconds; 0 off */
	int64_t		 eph_ts;	/* when it was set, unix s; 0 absent */
};

/*
 * Parse the unpadded plaintext p[0..len) of a v="2" <enc> (protocol.md
 * 11.3): wa_pb_check() with WA_PB_MAX_DEPTH first, so hostile nesting
 * fails before protobuf-c recurses; then unwrap deviceSentMessage (its
 * destination into dsm_destination) and the FutureProofMessage wrappers
 * (ephemeral, view-once, editedMessage, ...; whatsmeow's order), and
 * flatten into *out (initialised here; release with
 * wa_msg_content_release() after success).  Visible content wins over an
 * SKDM; a protocolMessage over text; an image, video, ptv, audio,
 * document or sticker message (protocol-features.md 1.6; also inside a
 * documentWithCaptionMessage or another wrapper) is WA_MSG_MEDIA with
 * its caption in text too (reply fields as for text when its
 * contextInfo quotes); a location, live location, contact card(s),
 * view-once media, a poll (49, 60, 64, 111: a "poll" record) or a text
 * with a link preview is WA_MSG_RICH, a poll's vote (50)
 * WA_MSG_POLL_VOTE
 * (proto/msg-int.h wa_msg_rich_of(); view-once media never MEDIA, its
 * media in media all the same, for opening it once; nothing downloads
 * it by itself).  Returns 0.  Errors: WC_ETRUNC,
 * WC_EPROTO, WC_EDEPTH (from wa_pb_check(); e.g. a 10,000-deep chain of
 * quoted messages), WC_EPROTO (protobuf-c refuses it).  *out untouched on
 * error.
 */
MUST_CHECK int	wa_msg_parse(const uint8_t *p, size_t len,
		    struct wa_msg_content *out);

/*
 * Append to out the Message forwarding the rich record rec[0..len)
 * (base/rich.h) with forwardingScore score (>= 1) and isForwarded
 * (protocol-features.md 3.7, [BL] generateForwardMessageContent): a
 * location as locationMessage(5){degreesLatitude, degreesLongitude,
 * name, address, comment}; contact cards as contactMessage(4) (one) or
 * contactsArrayMessage(13) (several) whose vCards are written anew from
 * the record (3.3: FN, then TEL;type=CELL;type=VOICE[;waid=W]:N per
 * number); a link preview as extendedTextMessage(6){text, matchedText,
 * title, description, JPEGThumbnail}.  Returns 0.  Errors: -EINVAL (out
 * NULL, score 0), WC_EPROTO (no record), -ENOTSUP (a live location,
 * view-once media or a kind not shown: not forwarded).  out->len is
 * unchanged on error.  Any thread.
 */
MUST_CHECK int	wa_msg_build_rich_forward(const char *rec, size_t len,
		    uint32_t score, struct buf *out);

/* Free the strings of c and zero it; c may be zeroed already. */
void		wa_msg_content_release(struct wa_msg_content *c);

/* The name of Message field num ("imageMessage"), static, or NULL. */
const char	*wa_msg_field_name(uint32_t num);

/* --- the <message> stanza --- */

enum wa_msg_enc_type {
	WA_MSG_ENC_MSG,		/* "msg": a SignalMessage */
	WA_MSG_ENC_PKMSG,	/* "pkmsg": a PreKeySignalMessage */
	WA_MSG_ENC_SKMSG,	/* "skmsg": a SenderKeyMessage (groups) */
	WA_MSG_ENC_OTHER,	/* anything else (msmsg, frskmsg, ...): skipped */
};

/* One device's ciphertext for an outgoing stanza. */
struct wa_msg_enc_out {
	const char		*jid;	/* the device's AD-JID, "u:7@lid" */
	enum wa_msg_enc_type	 type;	/* MSG or PKMSG */
	const uint8_t		*ct;	/* ciphertext; borrowed */
	size_t			 ct_len;
};

/* An outgoing 1:1 <message> (protocol.md 9.4). */
struct wa_msg_send {
	const char	*id;		/* wa_msg_id(); never NULL */
	const char	*to;		/* the chat JID; never NULL */
	const char	*type;		/* "text" when NULL; "reaction", "media" */
	const char	*mediatype;	/* on each <enc> (protocol-features.md
					 * 1.7: "image", "ptt", ...); may be
					 * NULL */
	const char	*edit;		/* "1" edit, "7" revoke/unreact; may be NULL */
	const char	*peer_recipient_pn; /* the PN when to is a LID; may be NULL */
	const struct wa_msg_enc_out *encs;	/* n_encs >= 1 */
	size_t		 n_encs;
	const uint8_t	*device_identity; /* ADVSignedDeviceIdentity; needed when an
					 * enc is a pkmsg; may be NULL otherwise */
	size_t		 device_identity_len;
	const uint8_t	*reporting_token; /* WA_REPORTING_TOKEN_LEN bytes
					 * (proto/reporting.h), or NULL */
};

/*
 * Build in arena a the stanza for s (protocol.md 9.4):
 * <message id to type [edit] [peer_recipient_pn]><participants>
 * <to jid><enc v="2" type="pkmsg|msg" [mediatype] [decrypt-fail="hide"]>
 * ct</enc></to>
 * ...</participants>[<device-identity>bytes</device-identity>]</message>.
 * decrypt-fail="hide" is set when s->edit is given or s->type is
 * "reaction".  The device-identity child is written only when some enc is
 * a pkmsg.  A reporting_token adds <reporting><reporting_token v="2">
 * token</reporting_token></reporting> last (wa_reporting_node()).
 * Returns 0 and *out.  Errors: -EINVAL (id, to or encs missing,
 * an enc of type SKMSG or OTHER, a pkmsg without device_identity, a JID
 * that is not "user[:device]@server").  *out untouched on error.
 */
MUST_CHECK int	wa_msg_stanza(const struct wa_msg_send *s, struct arena *a,
		    struct wa_node **out);

/* One <enc> child of a received <message>. */
struct wa_msg_enc_in {
	enum wa_msg_enc_type	 type;
	const char		*type_name;	/* as sent ("msmsg") */
	unsigned		 v;		/* the v attribute: 2, or 3 (not padded) */
	unsigned		 count;		/* retry count; 0 when absent */
	const char		*mediatype;	/* may be NULL */
	bool			 hide_fail;	/* decrypt-fail="hide" */
	const uint8_t		*ct;		/* points into the node */
	size_t			 ct_len;
};

/* A received <message> (protocol.md 11.1).  Strings are in the arena;
 * NULL when absent. */
struct wa_msg_in {
	const char	*id;		/* never NULL */
	const char	*from;		/* never NULL: peer device, group or own device */
	const char	*participant;	/* group sender */
	const char	*recipient;	/* set on our own devices' fan-out */
	const char	*type;		/* "text", "media", "reaction", ... */
	const char	*notify;	/* push name; NULL when absent or "-" */
	const char	*category;	/* "peer" from our own phone */
	const char	*edit;
	const char	*sender_pn;	/* alternates: sender_pn, sender_lid, */
	const char	*sender_lid;	/* participant_pn, participant_lid */
	const char	*participant_pn;
	const char	*participant_lid;
	const char	*addressing_mode;
	int64_t		 t;		/* server time, s since the epoch; 0 when absent */
	bool		 offline;	/* the offline attribute is present */
	bool		 unavailable;	/* <unavailable/> instead of <enc> */
	struct wa_msg_enc_in *encs;	/* in document order; in the arena */
	size_t		 n_encs;	/* all of them, OTHER included */
	size_t		 n_known;	/* those of type MSG, PKMSG or SKMSG */
};

/*
 * Read the <message> node n into *out, copying strings into a (protocol.md
 * 11.1).  <enc> children of an unknown type or of v other than 2 and 3 are
 * listed as WA_MSG_ENC_OTHER: the caller skips them but still acks.
 * Returns 0.  Errors: -EINVAL (n is not a <message>), WC_EPROTO (id or
 * from missing, an <enc> without bytes or type, a non-numeric t, v or
 * count, no <enc> of a known type and no <unavailable/>, more than
 * WA_MSG_MAX_ENCS <enc>).  When why is not NULL it is set on error to a
 * static English sentence for the log.  *out untouched on error.
 */
MUST_CHECK int	wa_msg_stanza_parse(const struct wa_node *n, struct arena *a,
		    struct wa_msg_in *out, const char **why);

/* --- acks and receipts --- */

/*
 * Build in a the <ack> for the received stanza n (protocol.md 11.7):
 * <ack class=n's tag id to=n's from [participant] [recipient] [type]
 * [error] [from]>.  type is copied except for class "message" (whatsmeow);
 * error is a NACK code ("491") or NULL; own_pn_device is our PN device
 * JID for from= on class "message" acks (Baileys), or NULL to omit it.
 * Attribute values are borrowed from n.  Returns 0 and *out.  Errors:
 * -EINVAL (n has no id or from, or own_pn_device is not a JID).
 */
MUST_CHECK int	wa_msg_ack(const struct wa_node *n, const char *error,
		    const char *own_pn_device, struct arena *a,
		    struct wa_node **out);

/* A receipt to send (protocol.md 9.6, 11.8). */
struct wa_msg_receipt_out {
	const char	*to;		/* the stanza's from, or the chat JID */
	const char	*type;		/* NULL delivered; "read", "read-self",
					 * "played", "inactive", "sender", "peer_msg",
					 * "hist_sync" */
	const char	*participant;	/* may be NULL */
	const char	*recipient;	/* may be NULL */
	const char *const *ids;		/* n_ids >= 1; the first is the id attr */
	size_t		 n_ids;
	int64_t		 t;		/* unix s for read/played receipts; 0 omits */
};

/*
 * Build in a <receipt id to [type] [participant] [recipient] [t]> with,
 * when n_ids > 1, <list><item id/>...</list> holding ids[1..] (protocol.md
 * 11.8).  Returns 0 and *out.  Errors: -EINVAL (no to or ids, a NULL id,
 * a bad JID).
 */
MUST_CHECK int	wa_msg_receipt(const struct wa_msg_receipt_out *r,
		    struct arena *a, struct wa_node **out);

/* A retry receipt to send when an <enc> failed to decrypt (9.6). */
struct wa_msg_retry_out {
	const char	*to;		/* the stanza's from */
	const char	*id;		/* the message id */
	const char	*participant;	/* copied from the stanza; may be NULL */
	const char	*recipient;	/* copied from the stanza; may be NULL */
	unsigned	 count;		/* 1 for the first retry */
	int64_t		 t;		/* the stanza's t, unix s */
	uint32_t	 registration_id; /* our Signal registration id */
	const char	*category;	/* "peer" for a peer message from our own
					 * phone (whatsmeow); NULL omits it */
};

/*
 * Build in a <receipt id to type="retry" [participant] [recipient]
 * [category]><retry count id t v="1"/><registration>4 bytes
 * BE</registration></receipt> (protocol.md 9.6; whatsmeow retry.go).  The <keys> child is added by the
 * message engine (proto/dm-receipt.c dm_retry_receipt).
 * Returns 0 and *out.  Errors: -EINVAL (to or id NULL, count 0, bad JID).
 */
MUST_CHECK int	wa_msg_retry_receipt(const struct wa_msg_retry_out *r,
		    struct arena *a, struct wa_node **out);

/* A received <receipt> (protocol.md 9.6).  Strings in the arena. */
struct wa_msg_receipt_in {
	const char	*from;		/* never NULL */
	const char	*id;		/* never NULL */
	const char	*type;		/* NULL for a delivery receipt */
	const char	*participant;
	const char	*recipient;
	int64_t		 t;		/* unix s; 0 when absent */
	const char	**ids;		/* id, then each <list><item id>; in a */
	size_t		 n_ids;		/* >= 1 */
	/* type "retry" only: */
	unsigned	 retry_count;	/* <retry count>; 0 when absent */
	int64_t		 retry_t;	/* <retry t>, the original message's t */
	bool		 has_registration;
	uint32_t	 registration_id; /* <registration>, 4 bytes BE */
	bool		 has_keys;	/* a <keys> child is present */
};

/*
 * Read the <receipt> node n into *out (protocol.md 9.6).  Returns 0.
 * Errors: -EINVAL (n is not a <receipt>), WC_EPROTO (id or from missing, a
 * non-numeric t or count, an <item> without id, a <registration> not 4
 * bytes, more than WA_MSG_MAX_IDS ids).  why as for wa_msg_stanza_parse().
 */
MUST_CHECK int	wa_msg_receipt_parse(const struct wa_node *n, struct arena *a,
		    struct wa_msg_receipt_in *out, const char **why);

/* The server's <ack class="message"> for one of our sends (9.6). */
struct wa_msg_server_ack {
	const char	*id;		/* never NULL */
	const char	*from;		/* may be NULL */
	int64_t		 t;		/* server time of the message, unix s; 0 absent */
	const char	*error;		/* NULL when sent; else "479", "463", ... */
	const char	*phash;		/* may be NULL */
};

/*
 * Read the <ack> node n for one of our <message>s.  Returns 0.  Errors:
 * -EINVAL (n is not an <ack class="message">), WC_EPROTO (no id, a
 * non-numeric t).  why as for wa_msg_stanza_parse().
 */
MUST_CHECK int	wa_msg_server_ack_parse(const struct wa_node *n,
		    struct arena *a, struct wa_msg_server_ack *out,
		    const char **why);

/* --- chat state and presence (protocol.md 15) --- */

enum wa_msg_chatstate {
	WA_MSG_COMPOSING,	/* <composing/> */
	WA_MSG_RECORDING,	/* <composing media="audio"/> */
	WA_MSG_PAUSED,		/* <paused/> */
};

/*
 * Build in a <chatstate to><composing/>|<composing media="audio"/>|
 * <paused/></chatstate> (protocol.md 15.3; no from, as whatsmeow).
 * Returns 0 and *out.  Errors: -EINVAL (to NULL or not a JID).
 */
MUST_CHECK int	wa_msg_chatstate(const char *to, enum wa_msg_chatstate st,
		    struct arena *a, struct wa_node **out);

/* A received <chatstate>. */
struct wa_msg_chatstate_in {
	const char		*from;		/* chat JID; never NULL */
	const char		*participant;	/* group sender; may be NULL */
	enum wa_msg_chatstate	 state;
};

/*
 * Read the <chatstate> node n.  Returns 0.  Errors: -EINVAL (not a
 * <chatstate>), WC_EPROTO (no from, no <composing/> or <paused/> child).
 */
MUST_CHECK int	wa_msg_chatstate_parse(const struct wa_node *n,
		    struct arena *a, struct wa_msg_chatstate_in *out);

/*
 * Build in a our own <presence type="available|unavailable" name> (15.1).
 * Returns 0 and *out.  Errors: -EINVAL (name NULL or empty: the servers
 * and both references refuse a presence without a push name).
 */
MUST_CHECK int	wa_msg_presence(bool available, const char *name,
		    struct arena *a, struct wa_node **out);

/*
 * Build in a <presence type="subscribe" to>[<tctoken>bytes</tctoken>]
 * (15.2); tctoken may be NULL.  Returns 0 and *out.  Errors: -EINVAL (to
 * NULL or not a JID).
 */
MUST_CHECK int	wa_msg_presence_subscribe(const char *to,
		    const uint8_t *tctoken, size_t tctoken_len, struct arena *a,
		    struct wa_node **out);

/* A received <presence> (15.2). */
struct wa_msg_presence_in {
	const char	*from;		/* never NULL */
	bool		 available;	/* no type, or type="available" */
	bool		 last_denied;	/* last="deny" */
	int64_t		 last_s;	/* last seen, unix s; 0 when absent or denied */
};

/*
 * Read the <presence> node n.  Returns 0.  Errors: -EINVAL (not a
 * <presence>), WC_EPROTO (no from, a last neither numeric nor "deny").
 */
MUST_CHECK int	wa_msg_presence_parse(const struct wa_node *n,
		    struct arena *a, struct wa_msg_presence_in *out);

#endif
