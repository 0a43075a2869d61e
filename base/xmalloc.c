/* SPDX-License-Identifier: GPL-3.0-or-later */
/* base/xmalloc.c -- allocation wrappers that abort on out-of-memory. */
#include "base/compat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"

static void
oom(size_t len)
{
	fprintf(stderr, "wachat: out of memory (%zu bytes)\n", len);
	abort();
}

void *
xmalloc(size_t len)
{
	void	*p = malloc(len != 0 ? len : 1);

	if (p == NULL)
		oom(len);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void	*p = calloc(n != 0 ? n : 1, size != 0 ? size : 1);

	if (p == NULL)
		oom(n * size);
	return p;
}

void *
xrealloc(void *p, size_t len)
{
	void	*q = realloc(p, len != 0 ? len : 1);

	if (q == NULL)
		oom(len);
	return q;
}

char *
xstrdup(const char *s)
{
	size_t	 len = strlen(s) + 1;

	return memcpy(xmalloc(len), s, len);
}
