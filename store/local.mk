# SPDX-License-Identifier: GPL-3.0-or-later
# The store: every SQL statement.  No proto/, no curses.
noinst_LIBRARIES += libstore.a
libstore_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/store $(SQLITE_CFLAGS) \
	$(SODIUM_CFLAGS)
libstore_a_SOURCES = store/store.h store/store-int.h store/db.c \
	store/device.c store/prekey.c
STORE_LIBS = $(SQLITE_LIBS) $(SODIUM_LIBS)
libstore_a_SOURCES += store/message.c store/query.c store/group.c

check_PROGRAMS += tests/test-store-message
tests_test_store_message_SOURCES = tests/test-store-message.c
tests_test_store_message_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/store
tests_test_store_message_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_message_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-message
