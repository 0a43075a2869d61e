# SPDX-License-Identifier: GPL-3.0-or-later
# App-state sync, protocol layer (issue 18; protocol-features.md 2,
# protocol.md 13): the syncd protobufs (proto/appstate.proto), the keys,
# MACs, LTHash, parsers, verified apply and our own patches
# (proto/appstate-*.c); their unit test, the Baileys interop check, the
# fuzz target with its corpus replay.  Included from tests/local.mk; the
# bench is wired in tests/bench/appstate.mk.
PROTO_FILES += proto/appstate.proto
PROTO_GEN += proto/appstate.pb-c.c proto/appstate.pb-c.h
nodist_libproto_a_SOURCES += proto/appstate.pb-c.c proto/appstate.pb-c.h
BUILT_SOURCES += proto/appstate.pb-c.c proto/appstate.pb-c.h
CLEANFILES += proto/appstate.pb-c.c proto/appstate.pb-c.h
EXTRA_DIST += proto/appstate.proto
libproto_a_SOURCES += proto/appstate.h proto/appstate-int.h \
	proto/appstate-crypto.c proto/appstate-parse.c \
	proto/appstate-apply.c proto/appstate-action.c \
	proto/appstate-encode.c

# Unit test.
check_PROGRAMS += tests/test-wa-appstate
tests_test_wa_appstate_SOURCES = tests/test-wa-appstate.c
tests_test_wa_appstate_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS)
tests_test_wa_appstate_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-appstate
