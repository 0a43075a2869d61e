/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/poll.h -- polls (protocol-features.md 3.1): the vote's key, its
 * AES-256-GCM encryption and decryption, the option hashes, and the
 * PollUpdateMessage of a vote.  The key derivation follows whatsmeow's
 * msgsecret.go generateMsgSecretKey / Baileys' process-message.ts
 * decryptPollVote: voteKey = HKDF-SHA256(ikm = the poll's messageSecret,
 * salt = empty, info = pollMsgID ‖ creatorJID ‖ voterJID ‖ "Poll Vote",
 * 32 bytes); AAD = pollMsgID ‖ 0x00 ‖ voterJID; the plaintext a
 * PollVoteMessage{selectedOptions = SHA-256 of each chosen option's
 * name}.  JIDs are non-AD user JIDs ("123@s.whatsapp.net", "9@lid").
 * Pure; any thread (after wa_crypto_init()).
 */
#ifndef WA_POLL_H
#define WA_POLL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/compat.h"

struct buf;

#define WA_POLL_SECRET_LEN	32	/* messageSecret bytes we send */
#define WA_POLL_SECRET_MAX	64	/* bytes of a received one kept */
#define WA_POLL_HASH_LEN	32	/* SHA-256 of an option's name */
#define WA_POLL_IV_LEN		12	/* encIv */
#define WA_POLL_OPTIONS_MAX	12	/* options of a poll we make (as the
					 * apps allow) */
#define WA_POLL_READ_MAX	64	/* options of a received poll read;
					 * and hashes of one vote */
#define WA_POLL_ENC_MAX		4096	/* bytes of an encPayload read */
#define WA_POLL_TEXT_MAX	255	/* bytes of a question or option we
					 * send */

/* out = SHA-256 of the option name (UTF-8, as given; NUL-terminated). */
void		wa_poll_option_hash(const char *name,
		    uint8_t out[WA_POLL_HASH_LEN]);

/*
 * The vote key of poll poll_id made by creator, for voter, from the
 * poll's secret[0..len) (1..WA_POLL_SECRET_MAX bytes), into key[32].
 * Returns 0.  Errors: -EINVAL (a NULL or empty argument, len out of
 * range), WC_ETOOBIG (a JID or id over 256 bytes).
 */
MUST_CHECK int	wa_poll_vote_key(const uint8_t *secret, size_t len,
		    const char *poll_id, const char *creator,
		    const char *voter, uint8_t key[32]);

/*
 * Encrypt the vote for the n option hashes (n 0..WA_POLL_READ_MAX; 0:
 * the vote taken back) with iv: appends encPayload (ciphertext ‖ 16-byte
 * tag) to out.  Returns 0.  Errors: those of wa_poll_vote_key(),
 * -EINVAL (n too big), WC_ECRYPTO.  out unchanged on error.
 */
MUST_CHECK int	wa_poll_vote_encrypt(const uint8_t *secret, size_t len,
		    const char *poll_id, const char *creator,
		    const char *voter, const uint8_t iv[WA_POLL_IV_LEN],
		    const uint8_t (*hashes)[WA_POLL_HASH_LEN], size_t n,
		    struct buf *out);

/*
 * Decrypt encPayload enc[0..enc_len) with iv[0..iv_len) (12 bytes) into
 * hashes[0..max): *n set to how many (entries not of 32 bytes are
 * skipped, those past max dropped).  Returns 0.  Errors: those of
 * wa_poll_vote_key(), WC_EPROTO (iv not of 12 bytes, enc over
 * WA_POLL_ENC_MAX, a plaintext that is no PollVoteMessage), WC_EBADMAC
 * (the wrong key: another addressing of a JID, another secret),
 * WC_ETRUNC, WC_EDEPTH.
 */
MUST_CHECK int	wa_poll_vote_decrypt(const uint8_t *secret, size_t len,
		    const char *poll_id, const char *creator,
		    const char *voter, const uint8_t *iv, size_t iv_len,
		    const uint8_t *enc, size_t enc_len,
		    uint8_t (*hashes)[WA_POLL_HASH_LEN], size_t max,
		    size_t *n);

struct wa_msg_key;

/*
 * Append to out the Message of a vote: pollUpdateMessage (50){
 * pollCreationMessageKey = poll (remoteJid, fromMe, id, participant),
 * vote{encPayload = enc[0..enc_len), encIv = iv}, senderTimestampMs =
 * ts_ms} (protocol-features.md 3.1; whatsmeow BuildPollVote).  Returns
 * 0.  Errors: -EINVAL (a NULL argument or poll->id, enc_len over
 * WA_POLL_ENC_MAX); out unchanged on error.
 */
MUST_CHECK int	wa_msg_build_poll_vote(const struct wa_msg_key *poll,
		    const uint8_t *enc, size_t enc_len,
		    const uint8_t iv[WA_POLL_IV_LEN], int64_t ts_ms,
		    struct buf *out);

/*
 * Append to out the Message of a poll of ours (protocol-features.md 3.1,
 * as Baileys sends it): pollCreationMessageV3 (64) with
 * selectableOptionsCount 1 when !multi, else pollCreationMessage (49)
 * with 0 (any number), name = question, options[0..n) by optionName;
 * messageContextInfo.messageSecret = secret.  *rec gets its "poll" rich
 * record (base/rich.h; malloc'd, the caller frees), as a received one's.
 * Returns 0.  Errors: -EINVAL (a NULL or empty question or option, one
 * over WA_POLL_TEXT_MAX bytes, two options alike, n not 2 to
 * WA_POLL_OPTIONS_MAX); out unchanged on error.  Any thread.
 */
MUST_CHECK int	wa_msg_build_poll(const char *question,
		    const char *const *options, size_t n, bool multi,
		    const uint8_t secret[WA_POLL_SECRET_LEN], struct buf *out,
		    char **rec);

#endif
