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

# Fuzz target over the key share and request readers (libFuzzer under
# --enable-fuzzing) and its corpus replay.
FUZZ_PROGS += tests/fuzz/fuzz-wa-askey
tests_fuzz_fuzz_wa_askey_SOURCES = tests/fuzz/fuzz-wa-askey.c
tests_fuzz_fuzz_wa_askey_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_askey_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-askey
tests_fuzz_replay_wa_askey_SOURCES = tests/fuzz/fuzz-wa-askey.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_askey_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-askey.sh
EXTRA_DIST += tests/fuzz/replay-wa-askey.sh

# The key share as the message engine takes it (proto/dm-recv.c), against
# the fakes of tests/fakes/.
check_PROGRAMS += tests/test-wa-dm-askey
tests_test_wa_dm_askey_SOURCES = tests/test-wa-dm-askey.c \
	tests/fakes/fake-store.c tests/fakes/fake-store.h \
	tests/fakes/fake-store-signal.c tests/fakes/fake-store-int.h \
	tests/fakes/fake-transport.c tests/fakes/fake-transport.h \
	tests/fakes/fake-clock.c tests/fakes/fake-clock.h
tests_test_wa_dm_askey_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) \
	$(SODIUM_CFLAGS)
tests_test_wa_dm_askey_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-dm-askey
