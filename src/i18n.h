/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * src/i18n.h -- gettext for user-facing strings.  Only ui/ and src/main.c
 * translate; logs and protocol code never do.  Header only.
 */
#ifndef WC_I18N_H
#define WC_I18N_H

#include <libintl.h>
#include <locale.h>

#define _(s)	gettext(s)
#define N_(s)	(s)

#endif
