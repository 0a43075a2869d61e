/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-rand.h -- deterministic "random" bytes behind
 * libsodium's randombytes_*(), which libsignal's provider
 * (proto/signal-provider.c) and the fakes draw from, so a fuzz target
 * that makes keys and ratchets gives the same run for the same input.
 * A splitmix64 stream: not secret, for tests only.  One thread.
 */
#ifndef WC_FAKE_RAND_H
#define WC_FAKE_RAND_H

#include <stddef.h>
#include <stdint.h>

/*
 * Make libsodium's randombytes_*() draw from the stream, started at seed.
 * Call before wa_crypto_init() (sodium_init() keeps the implementation
 * it finds); calling it again only restarts the stream.  Cannot fail.
 */
void	fake_rand_install(uint64_t seed);

/* Restart the stream at seed. */
void	fake_rand_reset(uint64_t seed);

/* The wa_conn_rng_fn shape over the same stream: len bytes into p;
 * returns 0.  arg is unused. */
int	fake_rand_fill(void *arg, uint8_t *p, size_t len);

#endif
