# SPDX-License-Identifier: GPL-3.0-or-later
# Polls (issue 20): received through wachat-sim's send-poll and send-vote
# routes, voted on and made from the screen (tests/polls20-tmux.sh); the
# vote crypto and the poll record's unit tests (tests/test-polls20.c);
# both ways with Baileys through the sim in tests/ui-baileys-tmux.sh
# (tests/sim-interop/wachat-ui-baileys.mjs part 4).
TESTS += tests/polls20-tmux.sh
EXTRA_DIST += tests/polls20-tmux.sh

# Interop: Baileys reads the votes wachat encrypts and wachat those
# Baileys' primitives make (tests/interop/poll-check.mjs);
# tests/interop/wa-poll-tool is the C side.
check_PROGRAMS += tests/interop/wa-poll-tool
tests_interop_wa_poll_tool_SOURCES = tests/interop/wa-poll-tool.c
tests_interop_wa_poll_tool_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/interop/poll-check.sh
EXTRA_DIST += tests/interop/poll-check.sh tests/interop/poll-check.mjs

# Unit tests: the vote crypto against Baileys' known answer, the parse,
# the record.
check_PROGRAMS += tests/test-polls20
tests_test_polls20_SOURCES = tests/test-polls20.c
tests_test_polls20_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS)
tests_test_polls20_LDADD = $(TEST_LIBS)
TESTS += tests/test-polls20

# The store's polls (store/poll.c, migration 17).
check_PROGRAMS += tests/test-store-poll20
tests_test_store_poll20_SOURCES = tests/test-store-poll20.c tests/store-test.h
tests_test_store_poll20_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_poll20_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_poll20_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-poll20
