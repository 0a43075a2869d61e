# SPDX-License-Identifier: GPL-3.0-or-later
# The message layer of 1:1 messaging (issue 6; protocol.md 9, 11, 15): the
# Message protobuf subset (proto/e2e.proto), its builders and parser, and
# the <message>, <receipt>, <ack>, <chatstate> and <presence> nodes; its
# unit test, interop check and fuzz target.
PROTO_FILES += proto/e2e.proto
PROTO_GEN += proto/e2e.pb-c.c proto/e2e.pb-c.h
nodist_libproto_a_SOURCES += proto/e2e.pb-c.c proto/e2e.pb-c.h
BUILT_SOURCES += proto/e2e.pb-c.c proto/e2e.pb-c.h
CLEANFILES += proto/e2e.pb-c.c proto/e2e.pb-c.h
EXTRA_DIST += proto/e2e.proto
libproto_a_SOURCES += proto/msg.h proto/msg.c proto/msg-int.h proto/msg-media.c \
	proto/msg-rich.c proto/msg-fwd.c proto/vcard.h proto/vcard.c proto/poll.h \
	proto/msg-poll.c proto/msg-eph.c

# Unit test.
check_PROGRAMS += tests/test-wa-msg
tests_test_wa_msg_SOURCES = tests/test-wa-msg.c
tests_test_wa_msg_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_msg_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-msg

# The media messages (issue 19).
check_PROGRAMS += tests/test-wa-msg-media
tests_test_wa_msg_media_SOURCES = tests/test-wa-msg-media.c
tests_test_wa_msg_media_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS)
tests_test_wa_msg_media_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-msg-media
check_PROGRAMS += tests/test-wa-msg-media-build
tests_test_wa_msg_media_build_SOURCES = tests/test-wa-msg-media-build.c
tests_test_wa_msg_media_build_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS)
tests_test_wa_msg_media_build_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-msg-media-build

# Interop: Baileys' proto.Message reads what we build and builds what we
# read; tests/wa-msg-hex is the C side.
check_PROGRAMS += tests/interop/wa-msg-tool
tests_interop_wa_msg_tool_SOURCES = tests/interop/wa-msg-tool.c
tests_interop_wa_msg_tool_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/interop/msg-check.sh
EXTRA_DIST += tests/interop/msg-check.sh tests/interop/msg-check.mjs

# Fuzz target (libFuzzer under --enable-fuzzing) and its corpus replay.
FUZZ_PROGS += tests/fuzz/fuzz-wa-msg
tests_fuzz_fuzz_wa_msg_SOURCES = tests/fuzz/fuzz-wa-msg.c
tests_fuzz_fuzz_wa_msg_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_msg_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-msg
tests_fuzz_replay_wa_msg_SOURCES = tests/fuzz/fuzz-wa-msg.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_msg_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-msg.sh
EXTRA_DIST += tests/fuzz/replay-wa-msg.sh

# The outbox core of the message engine (proto/dm-job.c and the fan-outs
# of proto/dm-direct.c and proto/dm-group.c) against the fakes of
# tests/fakes/: an in-memory store, a transport that records the nodes
# sent, a clock that stands still.
check_PROGRAMS += tests/test-wa-dm-job
tests_test_wa_dm_job_SOURCES = tests/test-wa-dm-job.c \
	tests/fakes/fake-store.c tests/fakes/fake-store.h \
	tests/fakes/fake-store-signal.c tests/fakes/fake-store-int.h \
	tests/fakes/fake-transport.c tests/fakes/fake-transport.h \
	tests/fakes/fake-clock.c tests/fakes/fake-clock.h
tests_test_wa_dm_job_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) \
	$(SODIUM_CFLAGS)
tests_test_wa_dm_job_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-dm-job
