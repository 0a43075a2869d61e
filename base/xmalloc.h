/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/xmalloc.h -- allocation that aborts on out-of-memory (as tmux and git
 * do).  Sizes read from the wire are capped before they reach these, so
 * hostile input cannot make them fail.  Callable from any thread.
 */
#ifndef WC_XMALLOC_H
#define WC_XMALLOC_H

#include <stddef.h>

/* malloc(len), never NULL; len 0 allocates one byte.  Free with free(). */
void	*xmalloc(size_t len);
/* calloc(n, size) with overflow check, never NULL. */
void	*xcalloc(size_t n, size_t size);
/* realloc(p, len), never NULL. */
void	*xrealloc(void *p, size_t len);
/* strdup(s), never NULL. */
char	*xstrdup(const char *s);

#endif
