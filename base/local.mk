# SPDX-License-Identifier: GPL-3.0-or-later
# The base layer: libc-only helpers every module links; it depends on
# nothing else of ours.
noinst_LIBRARIES += libbase.a
libbase_a_SOURCES = \
	base/compat.h base/banned.h base/err.h base/err.c \
	base/xmalloc.h base/xmalloc.c base/arena.h base/arena.c \
	base/buf.h base/buf.c base/i18n.h base/log.h base/log.c base/hex.h base/hex.c \
	base/sysrand.h base/sysrand.c base/sanitize.h base/sanitize.c \
	base/event.h base/event.c base/jid.h base/jid.c
# The events' layout tables and their wire form (base/event-wire.h).
libbase_a_SOURCES += base/event-layout.h base/event-wire.h base/event-wire.c
