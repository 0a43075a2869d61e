# SPDX-License-Identifier: GPL-3.0-or-later
# Forwarding (issue 20; protocol-features.md 3.7): Alt-. and its chat
# picker, texts, a location and a photo forwarded with their score
# (tests/forward20-tmux.sh).
TESTS += tests/forward20-tmux.sh
EXTRA_DIST += tests/forward20-tmux.sh
# The forward builders and the score read back (tests/test-forward20.c).
check_PROGRAMS += tests/test-forward20
tests_test_forward20_SOURCES = tests/test-forward20.c
tests_test_forward20_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS)
tests_test_forward20_LDADD = $(TEST_LIBS)
TESTS += tests/test-forward20
# Message info (issue 20): Alt-? on our message, each recipient's
# delivered and read time, 1:1 and in a group, kept across a restart
# (tests/msginfo20-tmux.sh).
TESTS += tests/msginfo20-tmux.sh
EXTRA_DIST += tests/msginfo20-tmux.sh
# The receipts' times per recipient in the store
# (tests/test-store-rtime20.c).
check_PROGRAMS += tests/test-store-rtime20
tests_test_store_rtime20_SOURCES = tests/test-store-rtime20.c tests/store-test.h
tests_test_store_rtime20_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_rtime20_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_rtime20_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-rtime20
