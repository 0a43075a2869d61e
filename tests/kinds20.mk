# SPDX-License-Identifier: GPL-3.0-or-later
# The message kinds other clients drop (issue 20): locations, live
# locations, contact cards, link previews, view-once media and the kinds
# not shown, received through wachat-sim's send-kind and send-media
# routes (tests/kinds20-tmux.sh); the parsers' unit tests
# (tests/test-kinds20.c).
TESTS += tests/kinds20-tmux.sh
EXTRA_DIST += tests/kinds20-tmux.sh
check_PROGRAMS += tests/test-kinds20
tests_test_kinds20_SOURCES = tests/test-kinds20.c
tests_test_kinds20_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS)
tests_test_kinds20_LDADD = $(TEST_LIBS)
TESTS += tests/test-kinds20
