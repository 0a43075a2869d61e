# SPDX-License-Identifier: GPL-3.0-or-later
# Disk full, third round (issue 15 point 7): history sync, the prekey
# upload and pairing, the group notices.

# History sync over a fake store whose writes fail (proto/hsync.c).
check_PROGRAMS += tests/test-hsync-store
tests_test_hsync_store_SOURCES = tests/test-hsync-store.c
tests_test_hsync_store_CFLAGS = $(TEST_CFLAGS) $(UV_CFLAGS)
tests_test_hsync_store_LDADD = $(TEST_LIBS) $(UV_LIBS) $(CURL_LIBS)
TESTS += tests/test-hsync-store

# The whole client in a real terminal: the disk fills during history
# sync and is freed again (tests/fakes/enospc-preload.so).
TESTS += tests/diskfull-hist-tmux.sh
EXTRA_DIST += tests/diskfull-hist-tmux.sh

# The whole client: the disk full at the link and at the prekey upload.
TESTS += tests/diskfull-keys-tmux.sh
EXTRA_DIST += tests/diskfull-keys-tmux.sh

# The answers to our own group changes when a write fails (proto/dm-admin.c).
check_PROGRAMS += tests/test-dm-admin-store
tests_test_dm_admin_store_SOURCES = tests/test-dm-admin-store.c \
	tests/fakes/fake-store.c tests/fakes/fake-store.h \
	tests/fakes/fake-store-signal.c tests/fakes/fake-store-int.h \
	tests/fakes/fake-transport.c tests/fakes/fake-transport.h \
	tests/fakes/fake-clock.c tests/fakes/fake-clock.h
tests_test_dm_admin_store_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) \
	$(SODIUM_CFLAGS)
tests_test_dm_admin_store_LDADD = $(TEST_LIBS)
TESTS += tests/test-dm-admin-store
