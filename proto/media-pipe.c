/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-pipe.c -- two hash streams on a worker thread
 * (proto/media-pipe.h).  A ring of NSLOT slots, each with room for SLOT
 * bytes of each stream: the caller fills the slot of sequence number
 * posted and queues it (posted++) when one side is full; each stream k
 * is hashed slot after slot in order (done[k] slots so far), by whichever
 * thread takes it first: the worker, or the caller while it would
 * otherwise wait for a free slot (so a busy or descheduled worker costs
 * the caller no idle time, and the work splits about evenly between the
 * two cores).  busy[k] marks the one thread hashing stream k: a stream's
 * context is touched by one thread at a time, handed over under mu.  A
 * slot is free again when both streams are past it; the caller may fill
 * slot posted % NSLOT while posted - min(done) < NSLOT.
 */
#include "base/compat.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/media-pipe.h"

#define NSLOT		6
#define SLOT		(256u * 1024u)	/* bytes of each stream per slot */
/* Bytes of both streams hashed on the caller's thread before the worker
 * starts (a file of about 256 KiB): the add that would pass it starts
 * the worker. */
#define PIPE_START	(512u * 1024u)

struct slot {
	uint8_t		*p[2];		/* SLOT bytes each: stream A, B */
	size_t		 n[2];
};

struct wa_media_pipe {
	wa_media_pipe_fn fn[2];
	void		*arg[2];	/* borrowed */
	uint64_t	 inline_bytes;	/* hashed here before the worker */
	bool		 running;	/* the worker runs (not joined yet) */
	bool		 started;	/* it was started */
	bool		 no_thread;	/* stay inline (start failed, drained) */
	bool		 drained;
	int		 err;		/* caller's copy of the error */
	uint8_t		*mem;		/* the slots' bytes */
	pthread_t	 th;
	struct slot	 s[NSLOT];	/* the slot being filled: the caller's */
	/* Shared with the worker: under mu. */
	pthread_mutex_t	 mu;
	pthread_cond_t	 cv;		/* posted, done, busy or stop changed */
	uint64_t	 posted;	/* slots queued so far */
	uint64_t	 done[2];	/* slots hashed so far, per stream */
	bool		 busy[2];
	bool		 stop;		/* no more slots will come */
	bool		 discard;	/* drop what is queued (free) */
	int		 werr;		/* an update failed */
};

struct wa_media_pipe *
wa_media_pipe_new(wa_media_pipe_fn fa, void *arga, wa_media_pipe_fn fb,
    void *argb)
{
	struct wa_media_pipe	*p = xcalloc(1, sizeof(*p));

	p->fn[0] = fa;
	p->arg[0] = arga;
	p->fn[1] = fb;
	p->arg[1] = argb;
	return p;
}

static bool
hash2(const struct wa_media_pipe *p, const uint8_t *pa, size_t na,
    const uint8_t *pb, size_t nb)
{
	return (na == 0 || p->fn[0](p->arg[0], pa, na)) &&
	    (nb == 0 || p->fn[1](p->arg[1], pb, nb));
}

/* Under mu: a stream with a queued slot that no thread hashes, B first
 * (the heavier one when encrypting), or -1. */
static int
pick(const struct wa_media_pipe *p)
{
	int	 k;

	for (k = 1; k >= 0; k--)
		if (!p->busy[k] && p->done[k] < p->posted)
			return k;
	return -1;
}

/* Under mu (released while hashing): hash stream k of its next slot. */
static void
hash_one(struct wa_media_pipe *p, int k)
{
	struct slot	*s = &p->s[p->done[k] % NSLOT];
	bool		 ok, skip = p->discard || p->werr != 0;

	p->busy[k] = true;
	pthread_mutex_unlock(&p->mu);
	/* Queued and ours by busy[k]: nobody writes s->p[k] now. */
	ok = skip || s->n[k] == 0 || p->fn[k](p->arg[k], s->p[k], s->n[k]);
	pthread_mutex_lock(&p->mu);
	if (!ok)
		p->werr = WC_ECRYPTO;
	s->n[k] = 0;	/* for the caller's next fill of the slot */
	p->busy[k] = false;
	p->done[k]++;
	pthread_cond_broadcast(&p->cv);
}

static uint64_t
min_done(const struct wa_media_pipe *p)
{
	return p->done[0] < p->done[1] ? p->done[0] : p->done[1];
}

static void *
worker(void *arg)
{
	struct wa_media_pipe	*p = arg;
	int			 k;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		if ((k = pick(p)) >= 0)
			hash_one(p, k);
		else if (p->stop && min_done(p) == p->posted)
			break;
		else
			pthread_cond_wait(&p->cv, &p->mu);
	}
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

/* Start the worker; false (and inline from now on) when it cannot. */
static bool
start(struct wa_media_pipe *p)
{
	sigset_t	 all, old;
	unsigned	 i;
	int		 rc;

	p->mem = malloc(WA_MEDIA_PIPE_BYTES);
	if (p->mem == NULL)
		goto inline_only;
	for (i = 0; i < NSLOT; i++) {
		p->s[i].p[0] = p->mem + (size_t)i * 2 * SLOT;
		p->s[i].p[1] = p->s[i].p[0] + SLOT;
		p->s[i].n[0] = p->s[i].n[1] = 0;
	}
	if (pthread_mutex_init(&p->mu, NULL) != 0)
		goto no_mutex;
	if (pthread_cond_init(&p->cv, NULL) != 0)
		goto no_cv;
	/* The worker takes no signals: the process's handlers (libuv's)
	 * keep running on the threads that expect them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&p->th, NULL, worker, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
		goto no_thread;
	p->running = true;
	p->started = true;
	return true;
no_thread:
	pthread_cond_destroy(&p->cv);
no_cv:
	pthread_mutex_destroy(&p->mu);
no_mutex:
	free(p->mem);
	p->mem = NULL;
inline_only:
	p->no_thread = true;
	return false;
}

/* Under mu: hash what is queued until fewer than room slots are in use
 * (0: all of it), helping the worker rather than waiting for it. */
static void
help_until(struct wa_media_pipe *p, uint64_t room)
{
	int	 k;

	while (p->posted - min_done(p) > room) {
		if ((k = pick(p)) >= 0)
			hash_one(p, k);
		else
			pthread_cond_wait(&p->cv, &p->mu);
	}
}

/* Queue the slot being filled; return once the next one is free. */
static int
post(struct wa_media_pipe *p)
{
	int	 rc;

	pthread_mutex_lock(&p->mu);
	p->posted++;
	pthread_cond_broadcast(&p->cv);
	help_until(p, NSLOT - 1);
	rc = p->werr;
	pthread_mutex_unlock(&p->mu);
	return rc;
}

/* Copy up to the room left in a slot's stream from *pp[0..*np),
 * advancing both. */
static void
take(uint8_t *dst, size_t *used, const uint8_t **pp, size_t *np)
{
	size_t	 t = SLOT - *used < *np ? SLOT - *used : *np;

	if (t == 0)
		return;
	memcpy(dst + *used, *pp, t);
	*used += t;
	*pp += t;
	*np -= t;
}

int
wa_media_pipe_add(struct wa_media_pipe *p, const uint8_t *pa, size_t na,
    const uint8_t *pb, size_t nb)
{
	struct slot	*s;

	if (p->drained)
		return WC_ESTATE;
	if (p->err != 0)
		return p->err;
	/* Inline while both streams stay within PIPE_START bytes. */
	if (!p->running && (p->no_thread || na + nb <= PIPE_START -
	    p->inline_bytes || !start(p))) {
		if (!hash2(p, pa, na, pb, nb))
			return p->err = WC_ECRYPTO;
		p->inline_bytes += na + nb;
		return 0;
	}
	while (na > 0 || nb > 0) {
		/* The caller's slot: post() returned with it free.  posted
		 * is written by this thread only, so reading it here is no
		 * race. */
		s = &p->s[p->posted % NSLOT];
		take(s->p[0], &s->n[0], &pa, &na);
		take(s->p[1], &s->n[1], &pb, &nb);
		if ((s->n[0] == SLOT || s->n[1] == SLOT) &&
		    (p->err = post(p)) != 0)
			return p->err;
	}
	return 0;
}

/* Hash what is queued (the slot being filled too) unless discard, stop
 * the worker and join it.  Returns werr. */
static int
stop(struct wa_media_pipe *p, bool discard)
{
	struct slot	*s = &p->s[p->posted % NSLOT];
	int		 rc;

	pthread_mutex_lock(&p->mu);
	p->discard = discard;
	if (!discard) {
		if (s->n[0] > 0 || s->n[1] > 0)
			p->posted++;	/* room: post() left it free */
		pthread_cond_broadcast(&p->cv);
		help_until(p, 0);
	}
	p->stop = true;
	pthread_cond_broadcast(&p->cv);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	/* Joined: nothing is shared any more. */
	rc = p->werr;
	p->running = false;
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	wa_crypto_wipe(p->mem, WA_MEDIA_PIPE_BYTES);
	free(p->mem);
	p->mem = NULL;
	return rc;
}

int
wa_media_pipe_drain(struct wa_media_pipe *p)
{
	int	 rc;

	if (p->drained)
		return WC_ESTATE;
	p->drained = true;
	p->no_thread = true;
	rc = p->running ? stop(p, p->err != 0) : 0;
	if (p->err == 0)
		p->err = rc;
	return p->err;
}

bool
wa_media_pipe_started(const struct wa_media_pipe *p)
{
	return p->started;
}

void
wa_media_pipe_abort(struct wa_media_pipe *p)
{
	if (p->running)
		(void)stop(p, true);
	p->drained = true;
	p->no_thread = true;
}

void
wa_media_pipe_free(struct wa_media_pipe *p)
{
	if (p == NULL)
		return;
	wa_media_pipe_abort(p);
	free(p);
}
