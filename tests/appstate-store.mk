# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18, the store's part of app state sync (store/appstate.c,
# store/appstate-act.c, migration 14): tests/test-store-appstate.c, each
# action as the chat list, contacts, pages and search show it, one
# commit atomic, reset, keys, the outbox, the migration from 13.
check_PROGRAMS += tests/test-store-appstate
tests_test_store_appstate_SOURCES = tests/test-store-appstate.c \
	tests/store-test.h
tests_test_store_appstate_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_appstate_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_appstate_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) \
	$(STORE_LIBS)
TESTS += tests/test-store-appstate
