# SPDX-License-Identifier: GPL-3.0-or-later
# View-once messages opened once (issue 20): the store keeps what opening
# needs beside the record and marks it opened (tests/test-viewonce20.c);
# in a real terminal Alt-l opens it once from a private temp file, Alt-w,
# Alt-y and wachat media refuse, export says no path
# (tests/viewonce20-tmux.sh).
check_PROGRAMS += tests/test-viewonce20
tests_test_viewonce20_SOURCES = tests/test-viewonce20.c tests/store-test.h
tests_test_viewonce20_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_viewonce20_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_viewonce20_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-viewonce20
TESTS += tests/viewonce20-tmux.sh
EXTRA_DIST += tests/viewonce20-tmux.sh
