/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/sysrand.c -- getrandom(2) and the wall clock. */
#include "base/compat.h"

#include <errno.h>
#include <sys/random.h>
#include <sys/types.h>

#include "base/sysrand.h"

int
sys_random(void *arg, uint8_t *p, size_t len)
{
	(void)arg;
	while (len > 0) {
		ssize_t	 n = getrandom(p, len, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int64_t
sys_now_ms(void *arg)
{
	struct timespec	 ts;

	(void)arg;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
