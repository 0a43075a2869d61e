# SPDX-License-Identifier: GPL-3.0-or-later
# The base layer: libc-only helpers every module links; it depends on
# nothing else of ours.
noinst_LIBRARIES += libbase.a
libbase_a_SOURCES = \
	base/compat.h base/banned.h base/err.h base/err.c \
	base/xmalloc.h base/xmalloc.c base/arena.h base/arena.c \
	base/buf.h base/buf.c base/i18n.h base/log.h base/log.c base/hex.h base/hex.c \
	base/sysrand.h base/sysrand.c base/sanitize.h base/sanitize.c \
	base/event.h base/event.c base/jid.h base/jid.c \
	base/notice.h base/notice.c \
	base/media-text.h base/media-text.c base/rich.h base/rich.c
# The events' layout tables and their wire form (base/event-wire.h).
libbase_a_SOURCES += base/event-layout.h base/event-wire.h base/event-wire.c

# The per-scope allocator behind malloc (base/scope-alloc.h), which
# proto/signal*.c run libsignal's calls in; off under any sanitizer, which
# must keep its own allocator (gcc has no macro for -fsanitize=undefined
# or fuzzer-no-link).  Only base/scope-alloc.c reads the macro.
libbase_a_SOURCES += base/scope-alloc.h base/scope-alloc.c
AM_CPPFLAGS += $(if $(findstring -fsanitize,$(WC_CFLAGS) $(CFLAGS)),-DSCOPE_ALLOC_OFF)

# Its own tests (canaries, poison, threads, scopes), in the builds that
# have it: configure's SCOPE_ALLOC is false when the compile flags hold
# -fsanitize.
if SCOPE_ALLOC
check_PROGRAMS += tests/test-base-scope-alloc
TESTS += tests/test-base-scope-alloc
endif
tests_test_base_scope_alloc_SOURCES = tests/test-base-scope-alloc.c
tests_test_base_scope_alloc_CFLAGS = $(TEST_CFLAGS)
tests_test_base_scope_alloc_LDADD = libbase.a $(CMOCKA_LIBS) -lpthread
EXTRA_DIST += tests/test-base-scope-alloc.c
