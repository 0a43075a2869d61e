# SPDX-License-Identifier: GPL-3.0-or-later
# The protocol engine: no curses, no SQL.
noinst_LIBRARIES += libproto.a
libproto_a_CPPFLAGS = $(AM_CPPFLAGS) -DWC_IN_PROTO $(ZLIB_CFLAGS)
libproto_a_SOURCES = \
	proto/bin.h proto/bin.c proto/print.c \
	proto/tokens.h proto/tokens.c
