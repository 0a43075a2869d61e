/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/banned.h -- functions that are easy to misuse, made into compile
 * errors (git's list, plus atoi).  In proto/ (compiled with -DWC_IN_PROTO)
 * time() and rand() are banned too, so the clock and the random source stay
 * injected.  Header only.
 */
#ifndef WC_BANNED_H
#define WC_BANNED_H

#define BANNED(func) sorry_##func##_is_a_banned_function

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef gmtime
#define gmtime(t) BANNED(gmtime)
#undef localtime
#define localtime(t) BANNED(localtime)
#undef ctime
#define ctime(t) BANNED(ctime)
#undef asctime
#define asctime(t) BANNED(asctime)
#undef atoi
#define atoi(s) BANNED(atoi)

#ifdef WC_IN_PROTO
#undef time
#define time(t) BANNED(time)
#undef rand
#define rand() BANNED(rand)
#endif

#endif
