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
 * The first 512 KiB of the two streams together (a file of about 256
 * KiB) are hashed on the caller's thread (a small file never starts a
 * thread); the add that would pass them starts the worker, and when it cannot be started (out of memory, no threads) the
 * hashing stays on the caller's thread: the digests are the same either
 * way.  Memory: WA_MEDIA_PIPE_BYTES while the worker runs, freed by
 * drain.
 *
 * Threads: one caller thread at a time owns a pipe (the thread that owns
 * the media context).  What the two update functions touch (the digest
 * and MAC contexts) is used from the first add to drain by whichever of
 * the worker and the caller hashes that stream's next slot (the caller
 * does when it would otherwise wait for a free slot): one thread at a
 * time, handed over under one mutex, so there is no data race; the
 * caller's code must not touch it itself between (all its updates go
 * through the pipe); after drain (which joins the worker) it is the
 * caller's again.  A slot is written only by the caller while it is not
 * queued, read only while it is.
 */
#ifndef WA_MEDIA_PIPE_H
#define WA_MEDIA_PIPE_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "base/err.h"

/* Bytes of both streams the worker's slots take while it runs. */
#define WA_MEDIA_PIPE_BYTES	(6u * 2u * 256u * 1024u)

struct wa_media_pipe;

/*
 * One stream's update: hash p[0..n) (n > 0, borrowed for the call) into
 * what arg holds.  Returns false when the crypto library failed.  Runs
 * on the worker or on the caller's thread, for one stream never on both
 * at once (the two streams' may run at the same time: they must not
 * share state).
 */
typedef bool	(*wa_media_pipe_fn)(void *arg, const uint8_t *p, size_t n);

/*
 * A pipe handing stream A to fa(arga, ...) and stream B to fb(argb,
 * ...), each in the order added (arga and argb borrowed: they must
 * outlive the pipe).  No thread yet.  Returns the pipe, to release with
 * wa_media_pipe_free(); never NULL (xmalloc).
 */
struct wa_media_pipe	*wa_media_pipe_new(wa_media_pipe_fn fa, void *arga,
			    wa_media_pipe_fn fb, void *argb);

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
 * it: the contexts then hold every byte added and are the caller's
 * again (to finalise, or update more on this thread).  Returns 0.
 * Errors: WC_ECRYPTO (an update failed), WC_ESTATE (drained before).
 * The worker is joined whatever it returns.
 */
MUST_CHECK int	wa_media_pipe_drain(struct wa_media_pipe *p);

/*
 * Whether p's worker was started (it may have been joined since): false
 * while the streams are within the first 512 KiB, or when no thread could
 * be made.  Which thread hashed which slot depends on the scheduler.
 * For tests and logs; the caller's thread.
 */
bool		wa_media_pipe_started(const struct wa_media_pipe *p);

/*
 * Give up: join the worker if it runs, dropping what it had left, and
 * wipe and free the slots (the digests are lost); add and drain then
 * return WC_ESTATE.  For a stream that failed, so that it holds no thread
 * and no slots until it is freed.
 */
void		wa_media_pipe_abort(struct wa_media_pipe *p);

/*
 * wa_media_pipe_abort(), then free p.  NULL is a no-op.
 */
void		wa_media_pipe_free(struct wa_media_pipe *p);

#endif
