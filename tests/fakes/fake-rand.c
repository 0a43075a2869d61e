/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * tests/fakes/fake-rand.c -- deterministic randombytes_*() for libsodium
 * (tests/fakes/fake-rand.h).
 */
#include "base/compat.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include <sodium.h>

#include "tests/fakes/fake-rand.h"

static uint64_t	 state;
static bool	 installed;

static uint64_t
next64(void)
{
	uint64_t	 z = (state += 0x9E3779B97F4A7C15ull);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
	return z ^ (z >> 31);
}

static const char *
impl_name(void)
{
	return "wachat-fake";
}

static uint32_t
impl_random(void)
{
	return (uint32_t)next64();
}

static void
impl_stir(void)
{
}

static void
impl_buf(void *const buf, const size_t size)
{
	uint8_t		*p = buf;
	size_t		 i = 0;
	uint64_t	 v;

	while (i < size) {
		v = next64();
		if (size - i >= sizeof(v)) {
			memcpy(p + i, &v, sizeof(v));
			i += sizeof(v);
		} else {
			memcpy(p + i, &v, size - i);
			i = size;
		}
	}
}

static int
impl_close(void)
{
	return 0;
}

static randombytes_implementation fake_impl = {
	.implementation_name = impl_name,
	.random = impl_random,
	.stir = impl_stir,
	.uniform = NULL,	/* libsodium's, over random() */
	.buf = impl_buf,
	.close = impl_close,
};

void
fake_rand_install(uint64_t seed)
{
	state = seed;
	if (!installed) {
		randombytes_set_implementation(&fake_impl);
		installed = true;
	}
}

void
fake_rand_reset(uint64_t seed)
{
	state = seed;
}

int
fake_rand_fill(void *arg, uint8_t *p, size_t len)
{
	(void)arg;
	impl_buf(p, len);
	return 0;
}
