# SPDX-License-Identifier: GPL-3.0-or-later
# App state sync, the engine's receive side (issue 18; protocol-features.md
# 2.1-2.8, protocol.md 13): the key share and key request in a Message
# (proto/askey.c, over proto/e2e.proto), the media hosts shared with history
# sync (proto/mediaconn.c), the module that fetches, verifies and commits
# the collections (proto/appsync.c) over proto/appstate.h; its unit test
# with a fake host and store.
libproto_a_SOURCES += proto/askey.h proto/askey.c \
	proto/mediaconn.h proto/mediaconn.c \
	proto/appsync.h proto/appsync.c

# Unit test: a fake host and store, and a phone that authors patches.
check_PROGRAMS += tests/test-wa-appsync
tests_test_wa_appsync_SOURCES = tests/test-wa-appsync.c
tests_test_wa_appsync_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) $(UV_CFLAGS)
tests_test_wa_appsync_LDADD = $(TEST_LIBS) $(ENG_LIBS)
TESTS += tests/test-wa-appsync
