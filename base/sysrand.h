/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/sysrand.h -- the system's randomness and wall clock, in the shapes
 * proto/ takes them (wa_conn_rng_fn, wa_conn_clock_fn), so the engine's
 * callers inject the real ones and tests can inject fakes.  Callable from
 * any thread.
 */
#ifndef WC_SYSRAND_H
#define WC_SYSRAND_H

#include <stddef.h>
#include <stdint.h>

/* Fill p[0..len) from getrandom(2).  arg unused.  Returns 0 or a negated
 * errno. */
int	sys_random(void *arg, uint8_t *p, size_t len);

/* Milliseconds since the Unix epoch (CLOCK_REALTIME).  arg unused. */
int64_t	sys_now_ms(void *arg);

#endif
