# SPDX-License-Identifier: GPL-3.0-or-later
# The Signal layer of 1:1 messaging (issue 6; protocol.md 5.4, 8.1, 9.4,
# 11.2, 16): libsignal-protocol-c over the store (proto/signal*.c, listed
# in proto/signal-int.h, engine side, no SQL; store/signal.c, every Signal
# SQL statement; the adapter in src/app-store.c), and its test with two
# parties on real stores.
# libproto.a already compiles with $(SIGNAL_CFLAGS) $(SODIUM_CFLAGS)
# $(OPENSSL_CFLAGS) (proto/noise.mk).
libproto_a_SOURCES += proto/wa-signal.h proto/signal-int.h proto/signal.c \
	proto/signal-provider.c proto/signal-store.c proto/signal-session.c \
	proto/signal-group.c
libstore_a_SOURCES += store/signal.c

check_PROGRAMS += tests/test-wa-signal
tests_test_wa_signal_SOURCES = tests/test-wa-signal.c
tests_test_wa_signal_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_wa_signal_CFLAGS = $(TEST_CFLAGS) $(SODIUM_CFLAGS) $(SQLITE_CFLAGS)
tests_test_wa_signal_LDADD = libapp.a libproto.a libstore.a libbase.a \
	$(CMOCKA_LIBS) $(PROTO_LIBS) $(STORE_LIBS)
TESTS += tests/test-wa-signal

# The Signal layer on the scope allocator (base/scope-alloc.h, whose own
# tests are tests/test-base-scope-alloc): round trips with nothing
# escaping, and what a steady encrypt still asks of glibc; in a sanitizer
# build, the round trips on the sanitizer's allocator.
check_PROGRAMS += tests/test-wa-signal-arena
tests_test_wa_signal_arena_SOURCES = tests/test-wa-signal-arena.c
tests_test_wa_signal_arena_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_wa_signal_arena_CFLAGS = $(TEST_CFLAGS) $(SODIUM_CFLAGS) \
	$(SQLITE_CFLAGS)
tests_test_wa_signal_arena_LDADD = libapp.a libproto.a libstore.a libbase.a \
	$(CMOCKA_LIBS) $(PROTO_LIBS) $(STORE_LIBS)
TESTS += tests/test-wa-signal-arena
