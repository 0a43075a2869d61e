# SPDX-License-Identifier: GPL-3.0-or-later
# Disappearing messages (issue 20, protocol-features.md 3.5): a chat's
# timer from others (EPHEMERAL_SETTING, the group's w:gp2, history) and
# from wachat (Alt-h), messages gone from the screen, the database and
# the search once their time is up (tests/disappear20-tmux.sh, through
# wachat-sim's send-kind "ephemeral"/"expiring" and its groups'
# ephemeral route); the store, the Message codec and the words
# (tests/test-disappear20.c); Baileys reads wachat's timer and its next
# message, and wachat reads Baileys' (tests/ui-baileys-tmux.sh, its
# tests/sim-interop/wachat-ui-baileys.mjs part 3).
TESTS += tests/disappear20-tmux.sh
EXTRA_DIST += tests/disappear20-tmux.sh
check_PROGRAMS += tests/test-disappear20
tests_test_disappear20_SOURCES = tests/test-disappear20.c tests/store-test.h
tests_test_disappear20_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS) \
	$(PROTOBUFC_CFLAGS)
tests_test_disappear20_LDADD = libstore.a $(TEST_LIBS) $(STORE_LIBS)
TESTS += tests/test-disappear20
TESTS += tests/disappear20-history-tmux.sh
EXTRA_DIST += tests/disappear20-history-tmux.sh
