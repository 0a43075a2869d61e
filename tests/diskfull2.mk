# SPDX-License-Identifier: GPL-3.0-or-later
# Failed writes beyond the receive path (issue 15, point 7, "the same
# class elsewhere"): the message engine against the fakes when a write
# fails (group and devices notifications, reactions, edits, deletes,
# receipts), and the whole client in a real terminal with the disk
# filling under it (tests/fakes/enospc-preload.so, tests/diskfull.mk).
check_PROGRAMS += tests/test-dm-store-fail
tests_test_dm_store_fail_SOURCES = tests/test-dm-store-fail.c \
	tests/fakes/fake-store.c tests/fakes/fake-store.h \
	tests/fakes/fake-store-signal.c tests/fakes/fake-store-int.h \
	tests/fakes/fake-transport.c tests/fakes/fake-transport.h \
	tests/fakes/fake-clock.c tests/fakes/fake-clock.h
tests_test_dm_store_fail_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) \
	$(SODIUM_CFLAGS)
tests_test_dm_store_fail_LDADD = $(TEST_LIBS)
TESTS += tests/test-dm-store-fail

# The whole client: a group change and a send as the disk fills.
TESTS += tests/diskfull2-tmux.sh
EXTRA_DIST += tests/diskfull2-tmux.sh
