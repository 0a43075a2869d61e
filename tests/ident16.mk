# SPDX-License-Identifier: GPL-3.0-or-later
# A contact's identity changed (issue 16, point 6; protocol.md 11.7): the
# server's <notification type="encrypt"><identity/></notification> after a
# reinstall (wachat-sim phone-reinstall PN pn|lid) resets that user's
# sessions, identities, sender-key holders and device list, so the next
# 1:1 and group sends start fresh; the reset is kept across a restart; a
# notification for an unknown user changes nothing.
TESTS += tests/ident16-dm.sh tests/ident16-group.sh \
	tests/ident16-restart.sh
EXTRA_DIST += tests/ident16-dm.sh tests/ident16-group.sh \
	tests/ident16-restart.sh

# The reset as the engine does it, against the fakes of tests/fakes/: one
# transaction (a failed write or commit changes nothing and is not acked),
# both addresses, another contact kept, one line, an unknown user.
check_PROGRAMS += tests/test-wa-dm-ident
tests_test_wa_dm_ident_SOURCES = tests/test-wa-dm-ident.c \
	tests/fakes/fake-store.c tests/fakes/fake-store.h \
	tests/fakes/fake-store-signal.c tests/fakes/fake-store-int.h \
	tests/fakes/fake-transport.c tests/fakes/fake-transport.h \
	tests/fakes/fake-clock.c tests/fakes/fake-clock.h
tests_test_wa_dm_ident_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) \
	$(SODIUM_CFLAGS)
tests_test_wa_dm_ident_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-dm-ident

# The store's part, on a real SQLite store in memory: identities and
# sender-key holders of one user forgotten, neighbours kept.
check_PROGRAMS += tests/test-store-ident
tests_test_store_ident_SOURCES = tests/test-store-ident.c
tests_test_store_ident_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_ident_CFLAGS = $(TEST_CFLAGS) $(SODIUM_CFLAGS) \
	$(SQLITE_CFLAGS)
tests_test_store_ident_LDADD = libapp.a libproto.a libstore.a libbase.a \
	$(CMOCKA_LIBS) $(PROTO_LIBS) $(STORE_LIBS)
TESTS += tests/test-store-ident
