/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/reporting.h -- the reporting token of an outgoing message
 * (protocol.md 9.4, "<reporting>"): a 16-byte MAC over the fields of the
 * Message that an abuse report would quote, keyed by the message's own
 * messageContextInfo.messageSecret, so that the server can later check a
 * report against what was really sent.  The stanza carries it as
 * <reporting><reporting_token v="2">16 bytes</reporting_token></reporting>.
 *
 * Reference behaviour (whatsmeow reportingtoken.go, Baileys 7.0.0-rc14
 * lib/Utils/reporting-utils.js; both agree on the algorithm):
 *  - content: walk the serialized Message; keep each field whose number is
 *    in a fixed table (reporting.c), whole (key and value bytes as sent)
 *    or, for table entries with sub-fields, re-encoded with only the kept
 *    sub-fields (dropped when none is kept); at every level the kept
 *    fields are concatenated sorted by field number (stable);
 *  - key: HKDF-SHA256(ikm = messageSecret, no salt, info = message id ‖
 *    sender JID ‖ receiver JID ‖ "Report Token", 32 bytes);
 *  - token: the first 16 bytes of HMAC-SHA256(key, content).
 * Not attached to reactions, encrypted reactions, encrypted event
 * responses and poll votes, nor when the content is empty (Baileys).
 *
 * Pure functions: no I/O, no clock, no randomness, no globals; callable
 * from any thread after wa_crypto_init() (proto/crypto.h).
 */
#ifndef WA_REPORTING_H
#define WA_REPORTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "base/buf.h"
#include "base/compat.h"
#include "proto/bin.h"

#define WA_REPORTING_TOKEN_LEN	16	/* bytes of a token */
#define WA_REPORTING_SECRET_LEN	32	/* bytes of a messageSecret we make */
#define WA_REPORTING_KEY_LEN	32	/* bytes of the derived key */
#define WA_REPORTING_MAX_LEN	(4u << 20) /* bytes of Message we walk */
#define WA_REPORTING_MAX_DEPTH	8	/* nested levels walked (the table
					 * has 4; more is refused) */

/*
 * Append to out the reporting content of the serialized Message
 * p[0..len): its kept fields as described above.  Varints are read as
 * protobuf does (at most 10 bytes, as whatsmeow; Baileys gives up on a
 * varint of more than 6 bytes, which no field it keeps holds in a Message
 * we build); field number 0, a tag above 32 bits,
 * wire types 3 and 4 (groups) and 6, 7 are malformed.  Fields outside
 * the table are skipped without being looked into.  Returns 0 (out may
 * have grown by 0 bytes: nothing kept).  Errors: WC_ETOOBIG (len above
 * WA_REPORTING_MAX_LEN), WC_ETRUNC (a varint, fixed field or length runs
 * past its end), WC_EPROTO (a malformed key, as above), WC_EDEPTH
 * (nesting above WA_REPORTING_MAX_DEPTH), -EINVAL (p NULL with len > 0).
 * out->len is unchanged on error.  Never reads outside p[0..len).
 */
MUST_CHECK int	wa_reporting_content(const uint8_t *p, size_t len,
		    struct buf *out);

/*
 * Derive in key the reporting key of a message: HKDF-SHA256 of
 * secret[0..secret_len) with info id ‖ from ‖ to ‖ "Report Token" (all
 * as their bytes, no separators).  id is the message id; from is the
 * sender's non-AD JID and to the chat's (the peer's user JID in a 1:1,
 * the group JID in a group): whatsmeow's getMessageReportingToken, whose
 * sender is our own JID in the chat's namespace (LID in a LID chat or
 * LID-addressed group, PN otherwise).  Returns 0.  Errors: -EINVAL (a
 * NULL string, secret NULL or secret_len 0), WC_ETOOBIG (the info above
 * 1024 bytes); key untouched on error.
 */
MUST_CHECK int	wa_reporting_key(const uint8_t *secret, size_t secret_len,
		    const char *id, const char *from, const char *to,
		    uint8_t key[WA_REPORTING_KEY_LEN]);

/*
 * The messageSecret of the serialized Message p[0..len): the bytes of
 * messageContextInfo(35).messageSecret(3) of the top level, the last one
 * when repeated (protobuf merging).  Sets *secret (pointing into p) and
 * *secret_len.  Returns 1 found, 0 none (also for an empty secret).
 * Errors: those of wa_reporting_content() for a malformed Message
 * (WC_ETRUNC, WC_EPROTO, WC_ETOOBIG, -EINVAL).
 */
MUST_CHECK int	wa_reporting_secret(const uint8_t *p, size_t len,
		    const uint8_t **secret, size_t *secret_len);

/*
 * Whether a Message p[0..len) takes a reporting token at all: false when
 * it holds reactionMessage(46), pollUpdateMessage(50),
 * encReactionMessage(56) or encEventResponseMessage(76) at the top level
 * (both references' shouldIncludeReportingToken); also false for a
 * malformed Message.  The same test decides whether an outgoing message
 * is given a messageSecret.
 */
bool		wa_reporting_wanted(const uint8_t *p, size_t len);

/*
 * The token of the serialized Message p[0..len) sent as id by from to
 * (see wa_reporting_key()), with the messageSecret found in p, into out.
 * Returns 1 made; 0 none is due (not wanted, no messageSecret, or an
 * empty content: the stanza goes without <reporting>).  Errors: those of
 * wa_reporting_content() and wa_reporting_key().  out untouched unless 1.
 */
MUST_CHECK int	wa_reporting_token(const uint8_t *p, size_t len,
		    const char *id, const char *from, const char *to,
		    uint8_t out[WA_REPORTING_TOKEN_LEN]);

/*
 * Append to out the serialized messageContextInfo(35){messageSecret(3) =
 * secret} (37 bytes): appended to a serialized Message it sets the
 * secret (concatenated protobuf fields merge), as Baileys'
 * generateWAMessageContent and whatsmeow's SendMessage give every
 * outgoing message that wa_reporting_wanted() accepts 32 random bytes.
 * Cannot fail.
 */
void		wa_reporting_add_secret(
		    const uint8_t secret[WA_REPORTING_SECRET_LEN],
		    struct buf *out);

/*
 * Fill slot, a node allocated by the caller (wa_nb_kids), with
 * <reporting><reporting_token v="2">token</reporting_token></reporting>,
 * allocated in a; token is borrowed and must outlive the encoding.
 * Cannot fail.
 */
void		wa_reporting_node(const uint8_t token[WA_REPORTING_TOKEN_LEN],
		    struct arena *a, struct wa_node *slot);

/*
 * Read the token of a received <message> n: *out points at the 16 bytes
 * of its <reporting><reporting_token v="2"> child.  Returns 1 found, 0
 * no <reporting> child.  Errors: WC_EPROTO (a <reporting> without a
 * <reporting_token>, a version other than "2" or a length other than
 * WA_REPORTING_TOKEN_LEN).
 */
MUST_CHECK int	wa_reporting_find(const struct wa_node *n,
		    const uint8_t **out);

#endif
