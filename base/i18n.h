/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * base/i18n.h -- gettext for user-facing strings: everything the screen or
 * the line output shows, including the engine's event texts (proto/eng-*.c
 * translate their formats in eng_emitf() and eng_lost(), which
 * po/Makevars names as xgettext keywords) and the error descriptions of base/err.c.
 * gettext() is thread-safe in glibc, so the engine thread may call it.
 * Header only.
 */
#ifndef WC_I18N_H
#define WC_I18N_H

#include <libintl.h>
#include <locale.h>

#define _(s)	gettext(s)
#define N_(s)	(s)

#endif
