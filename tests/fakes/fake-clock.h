/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-clock.h -- a wall clock that moves only when a test
 * moves it, for the now_ms callbacks the engine takes (struct
 * wa_dm_host, wa_signal_clock_fn).  Plain data, one thread.
 */
#ifndef WC_FAKE_CLOCK_H
#define WC_FAKE_CLOCK_H

#include <stdint.h>

struct fake_clock {
	int64_t		 now_ms;	/* ms since the epoch */
};

/* Start c at start_ms. */
void		fake_clock_init(struct fake_clock *c, int64_t start_ms);
/* The time of c (arg: a struct fake_clock *), in ms. */
int64_t		fake_clock_now(void *arg);
/* Move c forward by ms (>= 0). */
void		fake_clock_advance(struct fake_clock *c, int64_t ms);

#endif
