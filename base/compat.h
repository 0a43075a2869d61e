/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/compat.h -- included first by every .c file: config.h, the feature
 * macros for POSIX and the ncursesw wide API, and the list of banned
 * functions.  Header only; no thread contract.
 */
#ifndef WC_COMPAT_H
#define WC_COMPAT_H

#include "config.h"

#ifndef _XOPEN_SOURCE
#define _XOPEN_SOURCE 700
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1	/* dladdr, getline, explicit_bzero */
#endif
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE 1
#endif

#define MUST_CHECK __attribute__((warn_unused_result))
#define PRINTFLIKE(f, a) __attribute__((format(printf, f, a)))

/* The headers that declare the banned functions come before the bans, so
 * their declarations are not rewritten. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/banned.h"

#endif
