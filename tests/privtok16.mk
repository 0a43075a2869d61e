# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 16, point 1: privacy tokens (protocol.md 15.6).  The pure module
# (proto/privtok.c), the store (store/privtok.c, migration 11), and
# wachat's engine and Baileys against a strict wachat-sim (tokens.c).
check_PROGRAMS += tests/test-privtok tests/test-store-privtok
tests_test_privtok_SOURCES = tests/test-privtok.c
tests_test_privtok_CFLAGS = $(TEST_CFLAGS)
tests_test_privtok_LDADD = libproto.a libbase.a $(CMOCKA_LIBS) $(PROTO_LIBS)
tests_test_store_privtok_SOURCES = tests/test-store-privtok.c tests/store-test.h
tests_test_store_privtok_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_privtok_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_privtok_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-privtok tests/test-store-privtok tests/sim-privtok.sh \
	tests/sim-baileys-privtok.sh tests/ui-privtok-tmux.sh
EXTRA_DIST += tests/sim-privtok.sh tests/sim-baileys-privtok.sh \
	tests/ui-privtok-tmux.sh \
	tests/sim-interop/baileys-privtok.mjs
