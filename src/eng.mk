# SPDX-License-Identifier: GPL-3.0-or-later
# The composition root's binding of store/ into the engine's
# struct wa_store_ops (src/app-store.c).
noinst_LIBRARIES += libapp.a
libapp_a_CPPFLAGS = $(AM_CPPFLAGS)
libapp_a_SOURCES = src/app-store.h src/app-store.c src/app-dm.h src/app-dm.c \
	src/app-hist.h src/app-hist.c src/app-privtok.c src/app-poll.c \
	src/app-appstate.h src/app-appstate.c \
	src/app-media.h src/app-media.c
