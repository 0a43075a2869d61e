/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/history.h -- the protocol layer of history sync (protocol.md 12):
 * the HistorySyncNotification inside a peer Message (12.1), the zlib
 * stream of a history blob (12.2 step 4; the blob's decryption is
 * proto/media.h with WA_MEDIA_INFO_HISTORY), the HistorySync protobuf
 * (12.3) read into flat structs in a caller's arena, its inverse for the
 * simulator and the tests, and the on-demand request (12.4).  Pure
 * functions: no I/O, no clock, no randomness, no globals; callable from
 * any thread (a struct arena and a struct buf belong to one thread at a
 * time).
 *
 * Memory.  wa_hist_parse() unpacks with protobuf-c through a
 * ProtobufCAllocator over the caller's arena (base/arena.h) and points the
 * flat structs at protobuf-c's copies, so a warm arena (one reset between
 * chunks) makes no call to malloc at all, and none per message in any
 * case.  The arena needs about 4 times the inflated size (measured by
 * tests/bench/bench-history-sync.c: 12.6 MB for 20,000 messages, 3.2 MB
 * inflated); inflated bytes may be freed once parsed.  A whole chunk is
 * parsed at once rather than streamed: chunks are what the phone sends
 * (a few MB each), one parse costs a few ms, and the store writes a chunk
 * in transactions of a few hundred rows from the arrays.  A 50,000-message
 * chunk (about 8 MB inflated) needs about 32 MB of arena; the caps below
 * bound the worst case by the inflate cap.
 */
#ifndef WA_HISTORY_H
#define WA_HISTORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"

/* Caps on what one chunk may hold.  Real chunks: a few MB inflated, up to
 * a few thousand messages; FULL syncs send many chunks. */
#define WA_HIST_MAX_INFLATED	(64u << 20)	/* bytes after zlib, default */
#define WA_HIST_MAX_CONVS	20000		/* conversations per chunk */
#define WA_HIST_MAX_CONV_MSGS	100000		/* messages per conversation */
#define WA_HIST_MAX_MSGS	200000		/* messages per chunk */
#define WA_HIST_MAX_STR		1024		/* bytes of a JID, id or name */
#define WA_HIST_MAX_MSG_LEN	(4u << 20)	/* bytes of one E2E Message */
#define WA_HIST_MAX_PARTICIPANTS 5000		/* per group conversation */
#define WA_HIST_MAX_PUSHNAMES	100000
#define WA_HIST_MAX_LID_MAPS	100000
#define WA_HIST_MAX_DIRECT_PATH	2048		/* notification directPath */
#define WA_HIST_MAX_INLINE	(8u << 20)	/* inline bootstrap payload */

/* HistorySyncType (protocol.md 12.1; the E2E enum, a superset of the
 * payload's). */
enum wa_hist_sync_type {
	WA_HIST_INITIAL_BOOTSTRAP = 0,
	WA_HIST_INITIAL_STATUS_V3 = 1,
	WA_HIST_FULL = 2,
	WA_HIST_RECENT = 3,
	WA_HIST_PUSH_NAME = 4,
	WA_HIST_NON_BLOCKING_DATA = 5,
	WA_HIST_ON_DEMAND = 6,
	WA_HIST_NO_HISTORY = 7,
	WA_HIST_MESSAGE_ACCESS_STATUS = 8,
};

/* WebMessageInfo.status (protocol.md 12.3). */
enum wa_hist_status {
	WA_HIST_STATUS_ERROR = 0,
	WA_HIST_STATUS_PENDING = 1,
	WA_HIST_STATUS_SERVER_ACK = 2,
	WA_HIST_STATUS_DELIVERY_ACK = 3,
	WA_HIST_STATUS_READ = 4,
	WA_HIST_STATUS_PLAYED = 5,
};

/* --- the notification (12.1) --- */

/*
 * A HistorySyncNotification.  Pointers point into the arena given to the
 * parser (strings NUL-terminated); NULL/0 when absent.
 */
struct wa_hist_notif {
	const uint8_t	*file_sha256;	/* 32 bytes or NULL */
	const uint8_t	*file_enc_sha256; /* 32 bytes or NULL */
	const uint8_t	*media_key;	/* 32 bytes or NULL */
	uint64_t	 file_length;	/* plaintext bytes; 0 absent */
	const char	*direct_path;	/* may be NULL (inline payload) */
	int32_t		 sync_type;	/* enum wa_hist_sync_type or newer */
	uint32_t	 chunk_order;
	uint32_t	 progress;	/* percent */
	int64_t		 oldest_msg_ts_s; /* oldestMsgInChunkTimestampSec */
	const char	*original_msg_id; /* may be NULL */
	const uint8_t	*inline_payload; /* initialHistBootstrapInlinePayload:
					 * zlib, not encrypted; may be NULL */
	size_t		 inline_payload_len;
	const char	*peer_data_request_session_id; /* ON_DEMAND; may
					 * be NULL */
	const char	*enc_handle;	/* may be NULL */
};

/*
 * Read the HistorySyncNotification from the serialized E2E Message
 * p[0..len) (after wa_msg_unpad(); protocol.md 11.4 and 12.1):
 * Message.protocolMessage(12) of type 5, its field 6.  wa_pb_check()
 * first, then protobuf-c into arena a.  The caller checks that the
 * message came from our own phone (11.4).  Checks: the three hashes and
 * the key are 32 bytes when present; either an inline payload or all of
 * directPath, mediaKey and fileEncSHA256 are present; directPath at most
 * WA_HIST_MAX_DIRECT_PATH bytes, other strings WA_HIST_MAX_STR, the inline
 * payload WA_HIST_MAX_INLINE.  Returns 0 and fills *out.  Errors:
 * WC_ETRUNC, WC_EPROTO, WC_EDEPTH (wa_pb_check()), WC_EPROTO (not a
 * protocolMessage of type 5 with a notification, a wrong-sized hash or
 * key, no way to fetch the blob), WC_ETOOBIG (a field over its cap).
 * *why as for wa_media_decrypt().  *out untouched on error.
 */
MUST_CHECK int	wa_hist_notification_parse(const uint8_t *p, size_t len,
		    struct arena *a, struct wa_hist_notif *out,
		    const char **why);

/*
 * Append to out the serialized Message{protocolMessage(12){type(2) = 5,
 * historySyncNotification(6) = n}} (the simulator's side).  Fields that
 * are NULL/0 are left out (sync_type, chunk_order and progress are always
 * written).  Returns 0.  Errors: -EINVAL (n NULL).
 */
MUST_CHECK int	wa_hist_notification_build(const struct wa_hist_notif *n,
		    struct buf *out);

/* --- the blob (12.2) --- */

/*
 * zlib-inflate (RFC 1950) p[0..len), appending the result to out.  At most
 * max_out bytes are produced (0 means WA_HIST_MAX_INFLATED): the room
 * asked of out doubles from 4 times len (at least 64 KiB) and never
 * exceeds max_out + 1 bytes, and a stream that would produce more is
 * refused there, so a zip bomb costs at most that (struct buf may round
 * its allocation up to a power of two).  The
 * zlib state comes from arena a when a is not NULL (then, with a warm out,
 * nothing is malloc'd), else from malloc.  Bytes after the end of the
 * stream are ignored (as whatsmeow and Baileys do).  Built with
 * libdeflate (HAVE_LIBDEFLATE), whole-buffer decompression is tried first,
 * its room doubling from 8 times len under the same cap (one malloc per
 * call, its decompressor); data it refuses goes through zlib for the exact
 * error.  Returns 0.  Errors:
 * WC_ETOOBIG (more than max_out bytes), WC_ETRUNC (the stream ends early),
 * WC_EINFLATE (not a zlib stream, a bad checksum or corrupt data).  On
 * error out->len is unchanged; *why as for wa_media_decrypt().
 */
MUST_CHECK int	wa_hist_inflate(const uint8_t *p, size_t len, size_t max_out,
		    struct arena *a, struct buf *out, const char **why);

/*
 * zlib-deflate p[0..len) at level (0..9; -1 the default), appending an
 * RFC 1950 stream to out (the simulator's and the tests' side).  Returns
 * 0.  Errors: -EINVAL (a bad level, or len over 4 GiB), WC_EINFLATE when
 * zlib fails (out of memory).  out->len unchanged on error.
 */
MUST_CHECK int	wa_hist_deflate(const uint8_t *p, size_t len, int level,
		    struct buf *out);

/* --- the HistorySync protobuf (12.3) --- */

/*
 * One history message (HistorySyncMsg.message, a WebMessageInfo).
 * Strings are NUL-terminated, in the parser's arena, NULL when absent.
 */
struct wa_hist_msg {
	const char	*remote_jid;	/* key.remoteJid: the chat */
	bool		 from_me;	/* key.fromMe */
	const char	*id;		/* key.id; never NULL after parsing */
	const char	*key_participant; /* key.participant: group sender */
	const uint8_t	*message;	/* the E2E Message, serialized, for
					 * wa_msg_parse(); NULL when absent
					 * (a stub) or refused (message_err) */
	size_t		 message_len;
	int		 message_err;	/* 0, or why message was dropped:
					 * WC_EDEPTH/WC_ETRUNC/WC_EPROTO from
					 * wa_pb_check() on it */
	uint64_t	 ts_s;		/* messageTimestamp, s; 0 absent */
	int32_t		 status;	/* enum wa_hist_status; -1 absent */
	const char	*participant;	/* WebMessageInfo.participant */
	const char	*push_name;	/* sender's push name */
	int32_t		 stub_type;	/* messageStubType; 0 none */
	const char *const *stub_params;	/* messageStubParameters */
	size_t		 n_stub_params;
	bool		 starred;
	uint64_t	 msg_order_id;	/* HistorySyncMsg.msgOrderID, or 0 */
};

/* A group member (GroupParticipant). */
struct wa_hist_participant {
	const char	*jid;		/* userJID; never NULL after parsing */
	int32_t		 rank;		/* 0 regular, 1 admin, 2 superadmin */
};

/* One Conversation (protocol.md 12.3). */
struct wa_hist_conv {
	const char	*id;		/* chat JID; never NULL after parsing */
	const char	*name;		/* may be NULL */
	const char	*display_name;	/* may be NULL */
	const char	*pn_jid;	/* may be NULL */
	const char	*lid_jid;	/* may be NULL */
	uint64_t	 last_msg_ts_s;	/* lastMsgTimestamp, s; 0 absent */
	uint64_t	 conversation_ts_s; /* conversationTimestamp, s */
	uint32_t	 unread_count;
	bool		 archived;
	bool		 marked_as_unread;
	bool		 read_only;
	bool		 end_of_history;	/* endOfHistoryTransfer */
	uint32_t	 pinned;	/* pin order (0 not pinned) */
	uint64_t	 mute_end_s;	/* muteEndTime; 0 not muted */
	uint32_t	 ephemeral_s;	/* ephemeralExpiration */
	int64_t		 ephemeral_ts_s; /* ephemeralSettingTimestamp, unix
					 * s; 0 absent */
	const uint8_t	*tc_token;	/* privacy token (15.6); may be NULL */
	size_t		 tc_token_len;
	uint64_t	 tc_token_ts_s;
	uint64_t	 tc_token_sender_ts_s;	/* when we issued ours; 0
						 * absent */
	struct wa_hist_msg *msgs;	/* in wire order */
	size_t		 n_msgs;
	struct wa_hist_participant *participants; /* groups; may be empty */
	size_t		 n_participants;
};

struct wa_hist_pushname {
	const char	*jid;		/* never NULL after parsing */
	const char	*name;		/* may be NULL */
};

struct wa_hist_lid_map {
	const char	*pn_jid;	/* never NULL after parsing */
	const char	*lid_jid;	/* never NULL after parsing */
};

/* One HistorySync chunk. */
struct wa_hist {
	int32_t		 sync_type;	/* enum wa_hist_sync_type; -1 absent */
	uint32_t	 chunk_order;
	uint32_t	 progress;	/* percent */
	struct wa_hist_conv *convs;
	size_t		 n_convs;
	size_t		 n_msgs;	/* over all conversations */
	size_t		 n_bad_msgs;	/* messages whose message_err != 0 */
	struct wa_hist_pushname *pushnames;
	size_t		 n_pushnames;
	struct wa_hist_lid_map *lid_maps; /* phoneNumberToLidMappings */
	size_t		 n_lid_maps;
	const uint8_t	*nct_salt;	/* nctSalt (15.6, for cstoken); may
					 * be NULL */
	size_t		 nct_salt_len;
};

/*
 * Parse the inflated HistorySync p[0..len) (protocol.md 12.3) into arena
 * a: wa_pb_check() with WA_PB_MAX_DEPTH first (proto/pb.h), then
 * protobuf-c with an allocator over a, then the flat structs (also in a,
 * pointing at protobuf-c's copies; p may be freed after the call).  Each
 * message's E2E bytes get wa_pb_check() too: one that fails (a 10,000-deep
 * chain of quotes, say) is kept with message NULL and message_err set, so
 * a chunk is not lost to one bad message.  Conversations without an id,
 * messages without a key id, pushnames without an id and mappings missing
 * a side are skipped.  Returns 0 and *out (in a, freed with it).  Errors:
 * WC_ETRUNC, WC_EPROTO, WC_EDEPTH (wa_pb_check()), WC_EPROTO (protobuf-c
 * refused it), WC_ETOOBIG (more than WA_HIST_MAX_CONVS conversations,
 * WA_HIST_MAX_CONV_MSGS messages in one, WA_HIST_MAX_MSGS in all,
 * WA_HIST_MAX_PARTICIPANTS, _PUSHNAMES or _LID_MAPS entries, a string over
 * WA_HIST_MAX_STR or a message over WA_HIST_MAX_MSG_LEN bytes).  *out
 * untouched on error (what was allocated stays in a until its reset);
 * *why as for wa_media_decrypt().
 */
MUST_CHECK int	wa_hist_parse(const uint8_t *p, size_t len, struct arena *a,
		    struct wa_hist **out, const char **why);

/*
 * Append to out the serialized HistorySync for h (the inverse of
 * wa_hist_parse(), for the simulator and the tests): every field above;
 * NULL strings, status -1, sync_type -1 and zero numbers are left out;
 * message_err is ignored (message NULL is written as absent).  Scratch
 * memory comes from malloc and is freed before returning.  Returns 0.
 * Errors: -EINVAL (h NULL).
 */
MUST_CHECK int	wa_hist_build(const struct wa_hist *h, struct buf *out);

/* --- on-demand requests (12.4) --- */

/* PeerDataOperationRequestMessage.HistorySyncOnDemandRequest. */
struct wa_hist_od_req {
	const char	*chat_jid;	/* never NULL */
	const char	*oldest_msg_id;	/* our oldest message; never NULL */
	bool		 oldest_from_me;
	int32_t		 count;		/* onDemandMsgCount, about 50 */
	int64_t		 oldest_ts_s;	/* its timestamp in SECONDS (the field
					 * is named ...MS; whatsmeow sends s) */
};

#define WA_HIST_OD_TYPE		3	/* HISTORY_SYNC_ON_DEMAND */
#define WA_HIST_PROTO_PDO_REQ	16	/* ProtocolMessage type */
#define WA_HIST_PROTO_NOTIF	5	/* HISTORY_SYNC_NOTIFICATION */

/*
 * Append to out the serialized Message{protocolMessage(12){type(2) = 16,
 * peerDataOperationRequestMessage(16){peerDataOperationRequestType(1) = 3,
 * historySyncOnDemandRequest(4){chatJID(1), oldestMsgID(2),
 * oldestMsgFromMe(3), onDemandMsgCount(4), oldestMsgTimestampMS(5)}}}}
 * (protocol.md 12.4), to send as a peer message to our own phone with
 * push_priority="high_force" and privacy_sensitive="1".  Returns 0.
 * Errors: -EINVAL (r, chat_jid or oldest_msg_id NULL, count < 1).
 */
MUST_CHECK int	wa_hist_on_demand_request(const struct wa_hist_od_req *r,
		    struct buf *out);

/*
 * Read such a request from the Message p[0..len) (the simulator answers
 * it), strings into arena a.  Returns 0.  Errors: those of wa_pb_check(),
 * WC_EPROTO (not a protocolMessage of type 16 with request type 3 and a
 * request carrying chatJID and oldestMsgID), WC_ETOOBIG (a string over
 * WA_HIST_MAX_STR).  *out untouched on error; *why as above.
 */
MUST_CHECK int	wa_hist_on_demand_parse(const uint8_t *p, size_t len,
		    struct arena *a, struct wa_hist_od_req *out,
		    const char **why);

#endif
