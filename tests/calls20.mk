# SPDX-License-Identifier: GPL-3.0-or-later
# A call declined from wachat or left to ring out (issue 20 point 1):
# the status line, the notification, the reject-call key and the stanza
# the sim checks (tests/calls20-tmux.sh); the reject stanza built and
# the "declined" notice kept (tests/test-calls20.c).
TESTS += tests/calls20-tmux.sh
EXTRA_DIST += tests/calls20-tmux.sh
check_PROGRAMS += tests/test-calls20
tests_test_calls20_SOURCES = tests/test-calls20.c
tests_test_calls20_CFLAGS = $(TEST_CFLAGS)
tests_test_calls20_LDADD = $(TEST_LIBS)
TESTS += tests/test-calls20
