/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-pipe.h -- the two whole-file SHA-256s of a media stream
 * (fileSha256 and fileEncSha256, protocol-features.md 1.3) on a second
 * thread, for proto/media-stream.c: the caller's thread runs AES-256-CBC
 * and the HMAC, the pipe's worker the two SHA-256s over copies of the
 * same bytes, a few slots behind.  Both SHA-256s are as long as the
 * cipher and the MAC together on this machine's SHA extensions, so on
 * two cores the stream costs about what one pass of cipher, MAC and
 * one SHA-256 costs on one (tests/bench/bench-media.c measures it).
 *
 * The first PIPE_START bytes are hashed on the caller's thread (a small
 * file never starts a thread); the worker starts at the first add past
 * them, and when it cannot be started (out of memory, no threads) the
 * hashing stays on the caller's thread: the digests are the same either
 * way.  Memory: WA_MEDIA_PIPE_BYTES while the worker runs, freed by
 * drain.
 *
 * Threads: one caller thread at a time owns a pipe (the thread that owns
 * the media context).  The two EVP_MD_CTX it is given are the worker's
 * from the first add to drain: the caller must not touch them between
 * (all their updates go through the pipe); after drain (which joins the
 * worker) they are the caller's again.  All sharing between the caller
 * and the worker goes through one mutex (slots handed over under it),
 * so there is no data race: a slot is written only by the caller while
 * it is not queued, read only by the worker while it is.
 */
#ifndef WA_MEDIA_PIPE_H
#define WA_MEDIA_PIPE_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/evp.h>

#include "base/err.h"

/* Bytes of both streams the worker's slots take while it runs. */
#define WA_MEDIA_PIPE_BYTES	(3u * 2u * 256u * 1024u)

struct wa_media_pipe;

/*
 * A pipe hashing stream A into a and stream B into b (initialised
 * SHA-256 contexts, borrowed: they must outlive the pipe).  No thread
 * yet.  Returns the pipe, to release with wa_media_pipe_free(); never
 * NULL (xmalloc).
 */
struct wa_media_pipe	*wa_media_pipe_new(EVP_MD_CTX *a, EVP_MD_CTX *b);

/*
 * The next pa[0..na) of stream A and pb[0..nb) of stream B (either may
 * be empty, its pointer NULL then), copied: the caller may reuse both
 * buffers when it returns.  May wait for a free slot while the worker is
 * behind.  Returns 0.  Errors: WC_ECRYPTO (an update failed, on the
 * worker or here: the digests are lost; call only drain or free after
 * it), WC_ESTATE (after drain).
 */
MUST_CHECK int	wa_media_pipe_add(struct wa_media_pipe *p, const uint8_t *pa,
		    size_t na, const uint8_t *pb, size_t nb);

/*
 * Hand the rest to the worker, wait for it to hash everything and join
 * it: the two contexts then hold every byte added and are the caller's
 * again (to finalise, or update more on this thread).  Returns 0.
 * Errors: WC_ECRYPTO (an update failed), WC_ESTATE (drained before).
 * The worker is joined whatever it returns.
 */
MUST_CHECK int	wa_media_pipe_drain(struct wa_media_pipe *p);

/*
 * Join the worker if it runs (after an error too: what it had left is
 * hashed and dropped), wipe the slots and free p.  NULL is a no-op.
 */
void		wa_media_pipe_free(struct wa_media_pipe *p);

#endif
