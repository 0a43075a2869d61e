/* SPDX-License-Identifier: GPL-3.0-or-later */
/* tests/fakes/fake-clock.c -- the clock of fake-clock.h. */
#include "base/compat.h"

#include "tests/fakes/fake-clock.h"

void
fake_clock_init(struct fake_clock *c, int64_t start_ms)
{
	c->now_ms = start_ms;
}

int64_t
fake_clock_now(void *arg)
{
	const struct fake_clock	*c = arg;

	return c->now_ms;
}

void
fake_clock_advance(struct fake_clock *c, int64_t ms)
{
	c->now_ms += ms;
}
