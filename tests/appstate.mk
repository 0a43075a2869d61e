# SPDX-License-Identifier: GPL-3.0-or-later
# App-state sync, protocol layer (issue 18; protocol-features.md 2,
# protocol.md 13): the syncd protobufs (proto/appstate.proto), the keys,
# MACs, LTHash, parsers, verified apply and our own patches
# (proto/appstate-*.c); their unit test, the Baileys interop check, the
# fuzz target with its corpus replay.  Included from tests/local.mk; the
# bench is wired in tests/bench/appstate-proto.mk.
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

# Interop: Baileys' chat-utils (decodePatches with MAC validation,
# encodeSyncdPatch, decodeSyncdSnapshot, LT_HASH_ANTI_TAMPERING) against
# wachat's; wa-appstate-tool is the C side.
check_PROGRAMS += tests/interop/wa-appstate-tool
tests_interop_wa_appstate_tool_SOURCES = tests/interop/wa-appstate-tool.c
tests_interop_wa_appstate_tool_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/interop/appstate-check.sh
EXTRA_DIST += tests/interop/appstate-check.sh \
	tests/interop/appstate-check.mjs

# Fuzz target over parse + apply (libFuzzer under --enable-fuzzing) and
# its corpus replay.
FUZZ_PROGS += tests/fuzz/fuzz-wa-appstate
tests_fuzz_fuzz_wa_appstate_SOURCES = tests/fuzz/fuzz-wa-appstate.c
tests_fuzz_fuzz_wa_appstate_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_appstate_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-appstate
tests_fuzz_replay_wa_appstate_SOURCES = tests/fuzz/fuzz-wa-appstate.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_appstate_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-appstate.sh
EXTRA_DIST += tests/fuzz/replay-wa-appstate.sh
