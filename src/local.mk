# SPDX-License-Identifier: GPL-3.0-or-later
# The base layer: libc-only helpers every module links.
noinst_LIBRARIES += libbase.a
libbase_a_SOURCES = \
	src/compat.h src/banned.h src/err.h src/err.c \
	src/xmalloc.h src/xmalloc.c src/arena.h src/arena.c \
	src/buf.h src/buf.c src/i18n.h src/log.h src/log.c src/hex.h src/hex.c

bin_PROGRAMS += wachat
wachat_SOURCES = src/main.c
wachat_CPPFLAGS = $(AM_CPPFLAGS) $(PROTOBUFC_CFLAGS)
wachat_LDADD = libproto.a libbase.a $(PROTO_LIBS) $(LIBINTL) -ldl
