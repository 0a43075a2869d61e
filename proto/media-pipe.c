/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * proto/media-pipe.c -- two SHA-256 streams on a worker thread
 * (proto/media-pipe.h).  A ring of NSLOT slots, each with room for SLOT
 * bytes of each stream: the caller fills the slot at head and queues it
 * when one side is full; the worker hashes the queued slots in order (A
 * then B of each, so each stream keeps its order) and frees them.
 * Invariant, under mu: the queued slots are tail .. tail + queued - 1
 * (mod NSLOT), and head == (tail + queued) % NSLOT is the caller's, so
 * queued < NSLOT whenever the caller fills it.
 */
#include "base/compat.h"

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "base/err.h"
#include "base/xmalloc.h"
#include "proto/crypto.h"
#include "proto/media-pipe.h"

#define NSLOT		3
#define SLOT		(256u * 1024u)	/* bytes of each stream per slot */
/* Bytes hashed on the caller's thread before the worker starts. */
#define PIPE_START	(256u * 1024u)

struct slot {
	uint8_t		*a, *b;		/* SLOT bytes each */
	size_t		 na, nb;
};

struct wa_media_pipe {
	EVP_MD_CTX	*a, *b;		/* borrowed */
	uint64_t	 inline_bytes;	/* hashed here before the worker */
	bool		 running;	/* the worker has been started */
	bool		 no_thread;	/* stay inline (start failed, drained) */
	bool		 drained;
	int		 err;		/* caller's copy of the error */
	uint8_t		*mem;		/* the slots' bytes */
	pthread_t	 th;
	/* Shared with the worker: under mu. */
	pthread_mutex_t	 mu;
	pthread_cond_t	 ready;		/* a slot queued, or stop */
	pthread_cond_t	 freed;		/* a slot hashed */
	struct slot	 s[NSLOT];
	unsigned	 head, tail, queued;
	bool		 stop;		/* no more slots will come */
	bool		 discard;	/* drop what is queued (free) */
	int		 werr;		/* the worker's error */
};

struct wa_media_pipe *
wa_media_pipe_new(EVP_MD_CTX *a, EVP_MD_CTX *b)
{
	struct wa_media_pipe	*p = xcalloc(1, sizeof(*p));

	p->a = a;
	p->b = b;
	return p;
}

static bool
hash2(EVP_MD_CTX *a, const uint8_t *pa, size_t na, EVP_MD_CTX *b,
    const uint8_t *pb, size_t nb)
{
	return (na == 0 || EVP_DigestUpdate(a, pa, na) == 1) &&
	    (nb == 0 || EVP_DigestUpdate(b, pb, nb) == 1);
}

static void *
worker(void *arg)
{
	struct wa_media_pipe	*p = arg;
	struct slot		*s;
	bool			 ok, skip;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		while (p->queued == 0 && !p->stop)
			pthread_cond_wait(&p->ready, &p->mu);
		if (p->queued == 0)
			break;
		s = &p->s[p->tail];
		skip = p->discard || p->werr != 0;
		pthread_mutex_unlock(&p->mu);
		/* The slot is queued: the caller does not touch it now. */
		ok = skip || hash2(p->a, s->a, s->na, p->b, s->b, s->nb);
		pthread_mutex_lock(&p->mu);
		if (!ok)
			p->werr = WC_ECRYPTO;
		s->na = s->nb = 0;
		p->tail = (p->tail + 1) % NSLOT;
		p->queued--;
		pthread_cond_signal(&p->freed);
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
		p->s[i].a = p->mem + (size_t)i * 2 * SLOT;
		p->s[i].b = p->s[i].a + SLOT;
		p->s[i].na = p->s[i].nb = 0;
	}
	if (pthread_mutex_init(&p->mu, NULL) != 0)
		goto no_mutex;
	if (pthread_cond_init(&p->ready, NULL) != 0)
		goto no_ready;
	if (pthread_cond_init(&p->freed, NULL) != 0)
		goto no_freed;
	/* The worker takes no signals: the process's handlers (libuv's)
	 * keep running on the threads that expect them. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&p->th, NULL, worker, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (rc != 0)
		goto no_thread;
	p->running = true;
	return true;
no_thread:
	pthread_cond_destroy(&p->freed);
no_freed:
	pthread_cond_destroy(&p->ready);
no_ready:
	pthread_mutex_destroy(&p->mu);
no_mutex:
	free(p->mem);
	p->mem = NULL;
inline_only:
	p->no_thread = true;
	return false;
}

/* Queue the slot at head and wait until the next one is free. */
static int
post(struct wa_media_pipe *p)
{
	int	 rc;

	pthread_mutex_lock(&p->mu);
	p->queued++;
	p->head = (p->head + 1) % NSLOT;
	pthread_cond_signal(&p->ready);
	/* The worker frees slots even after an error (it skips them). */
	while (p->queued == NSLOT)
		pthread_cond_wait(&p->freed, &p->mu);
	rc = p->werr;
	pthread_mutex_unlock(&p->mu);
	return rc;
}

/* Copy up to the room left in s from *pp[0..*np), advancing both. */
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
	if (!p->running && (p->no_thread || p->inline_bytes < PIPE_START ||
	    !start(p))) {
		if (!hash2(p->a, pa, na, p->b, pb, nb))
			return p->err = WC_ECRYPTO;
		p->inline_bytes += na + nb;
		return 0;
	}
	while (na > 0 || nb > 0) {
		/* head is the caller's: queued < NSLOT (post waits). */
		s = &p->s[p->head];
		take(s->a, &s->na, &pa, &na);
		take(s->b, &s->nb, &pb, &nb);
		if ((s->na == SLOT || s->nb == SLOT) &&
		    (p->err = post(p)) != 0)
			return p->err;
	}
	return 0;
}

/* Stop the worker (hashing what is queued unless discard) and join it. */
static int
stop(struct wa_media_pipe *p, bool discard)
{
	int	 rc;

	pthread_mutex_lock(&p->mu);
	if (p->s[p->head].na > 0 || p->s[p->head].nb > 0) {
		/* queued < NSLOT: there is room for it. */
		p->queued++;
		p->head = (p->head + 1) % NSLOT;
	}
	p->stop = true;
	p->discard = discard;
	pthread_cond_signal(&p->ready);
	pthread_mutex_unlock(&p->mu);
	pthread_join(p->th, NULL);
	/* Joined: nothing is shared any more. */
	rc = p->werr;
	p->running = false;
	pthread_cond_destroy(&p->freed);
	pthread_cond_destroy(&p->ready);
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

void
wa_media_pipe_free(struct wa_media_pipe *p)
{
	if (p == NULL)
		return;
	if (p->running)
		(void)stop(p, true);
	free(p);
}
