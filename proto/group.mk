# SPDX-License-Identifier: GPL-3.0-or-later
# The stanza half of group messaging (issue 8; protocol.md 10, 11.7): the
# participant hash, the group <message>, the SKDM Message, the w:g2 iqs and
# the readers of <group> and w:gp2 notifications; and its unit test.
libproto_a_SOURCES += proto/group.h proto/group.c

check_PROGRAMS += tests/test-wa-group
tests_test_wa_group_SOURCES = tests/test-wa-group.c
tests_test_wa_group_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_group_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-group

# Fuzz target for the group readers (libFuzzer under --enable-fuzzing)
# and its corpus replay (seeds encoded by Baileys' encodeBinaryNode).
FUZZ_PROGS += tests/fuzz/fuzz-wa-group
tests_fuzz_fuzz_wa_group_SOURCES = tests/fuzz/fuzz-wa-group.c
tests_fuzz_fuzz_wa_group_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_group_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-group
tests_fuzz_replay_wa_group_SOURCES = tests/fuzz/fuzz-wa-group.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_group_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-group.sh
EXTRA_DIST += tests/fuzz/replay-wa-group.sh

# Groups end to end: wachat's engine (tests/wa-eng-driver) with two
# Baileys clients and 256 simulated members through wachat-sim, LID and
# PN addressing (tests/sim-interop/wachat-group.mjs).
TESTS += tests/sim-group-eng.sh tests/sim-group-eng-pn.sh
EXTRA_DIST += tests/sim-group-eng.sh tests/sim-group-eng-pn.sh \
	tests/sim-interop/wachat-group.mjs
