# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 10: drafts kept across restarts.  The store's
# chat.draft (tests/test-store-draft.c); tests/drafts17-restart-tmux.sh:
# text typed in a chat and left (another chat opened, the quit key,
# SIGTERM) is there again after a restart, marked in the chat list and
# back in the input line; sent, it is gone after the next restart.
check_PROGRAMS += tests/test-store-draft
tests_test_store_draft_SOURCES = tests/test-store-draft.c tests/store-test.h
tests_test_store_draft_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_draft_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_draft_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-draft tests/drafts17-restart-tmux.sh
EXTRA_DIST += tests/drafts17-restart-tmux.sh
