# SPDX-License-Identifier: GPL-3.0-or-later
# The chat list as the phone has it (issue 18): pinned chats first and
# marked, muted ones marked with their count dim and out of the total, the
# archived folder, the picker's archived chats and people with no chat
# (tests/marks18-list-tmux.sh), and wachat chats' marks and --archived
# (tests/check-cli-marks18.sh), on a database tests/cli-db-fill18 makes;
# the store's people with no chat (tests/test-store-people.c).
check_PROGRAMS += tests/cli-db-fill18
tests_cli_db_fill18_SOURCES = tests/cli-db-fill18.c
tests_cli_db_fill18_CPPFLAGS = $(AM_CPPFLAGS)
tests_cli_db_fill18_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
tests_cli_db_fill18_LDADD = libstore.a libbase.a $(STORE_LIBS)
TESTS += tests/marks18-list-tmux.sh tests/uifix18-tmux.sh
EXTRA_DIST += tests/marks18-list-tmux.sh tests/uifix18-tmux.sh
TESTS += tests/check-cli-marks18.sh
EXTRA_DIST += tests/check-cli-marks18.sh
check_PROGRAMS += tests/test-store-people
tests_test_store_people_SOURCES = tests/test-store-people.c tests/store-test.h
tests_test_store_people_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_people_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_people_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-people
