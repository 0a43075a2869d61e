# SPDX-License-Identifier: GPL-3.0-or-later
# The starred messages (issue 20 point 4): is:starred in the store's
# search (tests/test-starred20.c), in Alt-f's search and `wachat starred`
# (tests/starred20-tmux.sh).
check_PROGRAMS += tests/test-starred20
tests_test_starred20_SOURCES = tests/test-starred20.c tests/store-test.h
tests_test_starred20_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_starred20_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_starred20_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-starred20
TESTS += tests/starred20-tmux.sh
EXTRA_DIST += tests/starred20-tmux.sh
