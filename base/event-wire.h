/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/event-wire.h -- the events and commands of base/event.h as bytes:
 * a versioned, length-prefixed binary form for a stream (a Unix socket to
 * an attached screen), one frame per event or command.  Pure functions
 * over caller buffers, no globals: callable from any thread.
 *
 * A frame, every integer big-endian:
 *
 *	u32	length		bytes after this field (4 + the payload's)
 *	u8	version		EV_WIRE_VERSION
 *	u8	class		EV_WIRE_EVENT or EV_WIRE_COMMAND
 *	u16	kind		enum ev_kind or enum cmd_kind
 *	...	payload		the kind's payload struct, field by field in
 *				declaration order (base/event.c's tables)
 *
 * and a field is: bool u8 (0 or 1); enum u32 (within its enum); int32_t
 * i32; uint32_t u32; int64_t i64; string u32 length, then that many bytes
 * (no NUL, none inside); nested struct its fields; array u32 count, then
 * that many elements.  A frame is at most EV_WIRE_MAX bytes, a string
 * EV_WIRE_STR_MAX bytes, an array EV_WIRE_COUNT_MAX elements; nesting is
 * fixed by the payloads (at most EV_WIRE_MAX_DEPTH deep).  A decoder never
 * allocates more than a small multiple of the bytes it was given.
 */
#ifndef WC_EVENT_WIRE_H
#define WC_EVENT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"
#include "base/event.h"

struct buf;

#define EV_WIRE_VERSION		22	/* 2: notice_kind and
					 * notice_device in EV_MESSAGE and
					 * EV_PAGE's rows; 3: idle in
					 * EV_DISCONNECTED, CMD_RECONNECT,
					 * the call notice kinds; 4: name in
					 * ev_account, EV_OWN_NAME, EV_LINKED;
					 * 5: EV_PAGE_OLDEST; 6: who in
					 * ev_tally; 7: EV_PAGE_UNREAD,
					 * EV_PAGE_FROM, unread in
					 * CMD_LOAD_PAGE; 8: CMD_DRAFT,
					 * draft in EV_CHATS' chats; 9:
					 * CMD_PEEK, peek in EV_CHATS;
					 * 10: muted_until, pinned_ms,
					 * archived in EV_CHATS' chats, its
					 * people, people in
					 * CMD_LOAD_CHATS; 11: EV_APP_STATE;
					 * 12: CMD_CHAT_ACT, step, act and
					 * err in EV_APP_STATE, starred in
					 * EV_PAGE's rows, marked_unread in
					 * EV_CHATS' chats;
					 * 13: media (with its thumbnail)
					 * in EV_MESSAGE and EV_PAGE's rows,
					 * last_media in EV_CHATS' chats;
					 * 14: CMD_SEND_FILE, EV_UPLOAD,
					 * CMD_MEDIA_GET, EV_MEDIA_DL,
					 * dl_percent in media;
					 * 15: EV_ROW_RICH, rich in
					 * EV_MESSAGE (base/rich.h);
					 * 16: forwarded in EV_MESSAGE and
					 * EV_PAGE's rows, CMD_FORWARD;
					 * 17: CMD_EPHEMERAL, ephemeral_s
					 * in EV_CHATS' chats, gone in
					 * EV_MSG_CHANGED;
					 * 18: CMD_CALL_REJECT,
					 * EV_NOTICE_CALL_REJECTED;
					 * 19: EV_PROFILE, EV_BLOCKLIST,
					 * CMD_PROFILE, CMD_BLOCK;
					 * 20: starred in CMD_SEARCH;
					 * 21: CMD_POLL_VOTE, CMD_POLL_NEW;
					 * 22: CMD_MSG_INFO, EV_MSG_INFO;
					 * a peer of another version is
					 * refused (WC_EPROTO) */
#define EV_WIRE_EVENT		0x45	/* 'E' */
#define EV_WIRE_COMMAND		0x43	/* 'C' */
#define EV_WIRE_HEADER		8	/* bytes before the payload */
#define EV_WIRE_MAX		(64u << 20)	/* bytes of a frame, header
						 * included: a page of 500
						 * long texts fits */
#define EV_WIRE_STR_MAX		(4u << 20)	/* bytes of one string */
#define EV_WIRE_COUNT_MAX	65536	/* elements of one array */
#define EV_WIRE_MAX_DEPTH	4	/* payload, array element, its array's
					 * element: 3 levels are used */

/*
 * Append ev as one frame to out.  NULL strings (a payload being built)
 * go as "".  Returns 0.  Errors: -EINVAL (an unknown kind, an array with
 * a count but no elements), WC_EINVAL (an enum value outside its enum),
 * WC_ETOOBIG (a string over EV_WIRE_STR_MAX, an array over
 * EV_WIRE_COUNT_MAX elements, the frame over EV_WIRE_MAX); out is then as
 * it was.
 */
MUST_CHECK int	ev_wire_encode(const struct ev *ev, struct buf *out);
MUST_CHECK int	cmd_wire_encode(const struct cmd *c, struct buf *out);

/*
 * The length of the frame that starts p[0..len): once its first 4 bytes
 * are there, 0 and *frame_len (the whole frame, header included; it may
 * be longer than len, which means: read on).  Errors: WC_ETRUNC (fewer
 * than 4 bytes), WC_ETOOBIG (a frame over EV_WIRE_MAX), WC_EPROTO (a
 * length too short for the header).  *frame_len untouched on error.
 */
MUST_CHECK int	ev_wire_frame_len(const uint8_t *p, size_t len,
		    size_t *frame_len);

/*
 * Decode the frame at the start of p[0..len) (len in bytes; bytes after
 * the frame are left alone).  Returns 0, *out (freed with ev_free(), every
 * string non-NULL) and *used, the frame's length.  Errors: WC_ETRUNC (the
 * frame or a field in it ends early), WC_ETOOBIG (a frame, string or
 * array over its cap), WC_EPROTO (another version or class, an unknown
 * kind, a bool not 0 or 1, an enum value outside its enum, a NUL inside
 * a string), WC_ETRAILING (bytes left in the frame after the payload),
 * WC_EDEPTH (nesting over EV_WIRE_MAX_DEPTH).  *out and *used untouched
 * on error, and nothing is left allocated.
 */
MUST_CHECK int	ev_wire_decode(const uint8_t *p, size_t len, struct ev **out,
		    size_t *used);
MUST_CHECK int	cmd_wire_decode(const uint8_t *p, size_t len,
		    struct cmd **out, size_t *used);

#endif
