# SPDX-License-Identifier: GPL-3.0-or-later
# Groups and sessions, the second part (issue 15, points 1-4): a peer
# device under both its addresses as the engine receives group messages
# (tests/test-wa-dm-peer, against the fakes of tests/fakes/).
check_PROGRAMS += tests/test-wa-dm-peer
tests_test_wa_dm_peer_SOURCES = tests/test-wa-dm-peer.c \
	tests/fakes/fake-store.c tests/fakes/fake-store.h \
	tests/fakes/fake-store-signal.c tests/fakes/fake-store-int.h \
	tests/fakes/fake-transport.c tests/fakes/fake-transport.h \
	tests/fakes/fake-clock.c tests/fakes/fake-clock.h
tests_test_wa_dm_peer_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) \
	$(SODIUM_CFLAGS)
tests_test_wa_dm_peer_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-dm-peer

# Typed notice lines as the store keeps them (base/notice.h, point 4).
check_PROGRAMS += tests/test-base-notice
tests_test_base_notice_SOURCES = tests/test-base-notice.c
tests_test_base_notice_CFLAGS = $(TEST_CFLAGS)
tests_test_base_notice_LDADD = libbase.a $(CMOCKA_LIBS)
TESTS += tests/test-base-notice
