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
