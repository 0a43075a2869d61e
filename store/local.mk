# SPDX-License-Identifier: GPL-3.0-or-later
# The store: every SQL statement.  No proto/, no curses.
noinst_LIBRARIES += libstore.a
libstore_a_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS) \
	$(SODIUM_CFLAGS)
libstore_a_SOURCES = store/store.h store/store-search.h store/store-int.h store/db.c \
	store/tx.c store/open.c store/device.c store/prekey.c \
	store/backup.h store/backup.c
STORE_LIBS = $(SQLITE_LIBS) $(SODIUM_LIBS)
# Chats and messages (migration 3): one file per concern.
libstore_a_SOURCES += store/chat.c store/message.c store/page.c \
	store/outbox.c store/receipt.c store/edit.c store/contact.c \
	store/query.c store/group.c store/histq.c
# Media metadata (migration 15, issue 19).
libstore_a_SOURCES += store/store-media.h store/media.c \
	store/store-upload.h store/media-up.c
libstore_a_SOURCES += store/store-rich.h store/rich.c store/store-poll.h \
	store/poll.c store/store-rtime.h store/rtime.c
# Disappearing messages (migration 19, issue 20).
libstore_a_SOURCES += store/store-ephem.h store/ephem.c
# Privacy tokens (migration 11, issue 16).
libstore_a_SOURCES += store/privtok.c
# App state sync (migration 14, issue 18).
libstore_a_SOURCES += store/store-appstate.h store/appstate.c \
	store/appstate-act.c

check_PROGRAMS += tests/test-store-message
tests_test_store_message_SOURCES = tests/test-store-message.c tests/store-test.h
tests_test_store_message_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_message_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_message_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-message

# Full-text search, reading in context, the history import (issue 9).
libstore_a_SOURCES += store/search.c store/history.c store/fts-tok.c
check_PROGRAMS += tests/test-store-search
tests_test_store_search_SOURCES = tests/test-store-search.c tests/store-test.h
tests_test_store_search_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_search_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_search_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-search

# The read-only subcommands (src/cli.c: wachat chats, history, search,
# export) read the store directly; tests/cli-db-fill makes their test
# database through the store API.
wachat_SOURCES += src/cli.c src/cli.h src/cli-out.c src/cli-out.h \
	src/cli-find.c src/cli-find.h src/cli-help.c \
	src/cli-media.c src/cli-media.h
wachat_CPPFLAGS +=
check_PROGRAMS += tests/cli-db-fill
tests_cli_db_fill_SOURCES = tests/cli-db-fill.c
tests_cli_db_fill_CPPFLAGS = $(AM_CPPFLAGS)
tests_cli_db_fill_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
tests_cli_db_fill_LDADD = libstore.a libbase.a $(STORE_LIBS)
TESTS += tests/check-cli-read.sh
EXTRA_DIST += tests/check-cli-read.sh

# The people known who have no chat yet, for the chat picker (issue 18).
libstore_a_SOURCES += store/store-people.h store/people.c

# A message's media (migration 15, issue 19).
check_PROGRAMS += tests/test-store-media
tests_test_store_media_SOURCES = tests/test-store-media.c tests/store-test.h
tests_test_store_media_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_media_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_media_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-media
# Our media messages while uploaded (store/store-upload.h, issue 19).
check_PROGRAMS += tests/test-store-upload
tests_test_store_upload_SOURCES = tests/test-store-upload.c tests/store-test.h
tests_test_store_upload_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_upload_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_upload_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-upload
