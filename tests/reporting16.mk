# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 16: the reporting token of outgoing messages (proto/reporting.h;
# protocol.md 9.4): the module itself, its unit test, the interop check
# against Baileys' getMessageReportingToken, the sim test where the
# simulated phone checks the token of what wachat sends, and the fuzz
# target of the field walk with its corpus replay.
libproto_a_SOURCES += proto/reporting.h proto/reporting.c

# Unit test: the walk, a known vector, malformed input, the depth cap.
check_PROGRAMS += tests/test-wa-reporting
tests_test_wa_reporting_SOURCES = tests/test-wa-reporting.c
tests_test_wa_reporting_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS)
tests_test_wa_reporting_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-reporting

# Interop: Baileys' getMessageReportingToken and wachat's agree, byte for
# byte, on Messages both build and on hand-made ones.
check_PROGRAMS += tests/interop/wa-reporting-tool
tests_interop_wa_reporting_tool_SOURCES = tests/interop/wa-reporting-tool.c
tests_interop_wa_reporting_tool_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/interop/reporting-check.sh
EXTRA_DIST += tests/interop/reporting-check.sh \
	tests/interop/reporting-check.mjs

# On the sim: bob's simulated phone checks the token of each 1:1 message
# alice's engine sends against the messageSecret it decrypted.
TESTS += tests/sim-reporting.sh
EXTRA_DIST += tests/sim-reporting.sh

# Fuzz target (libFuzzer under --enable-fuzzing) of the field walk and its
# corpus replay.
FUZZ_PROGS += tests/fuzz/fuzz-wa-reporting
tests_fuzz_fuzz_wa_reporting_SOURCES = tests/fuzz/fuzz-wa-reporting.c
tests_fuzz_fuzz_wa_reporting_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_reporting_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-reporting
tests_fuzz_replay_wa_reporting_SOURCES = tests/fuzz/fuzz-wa-reporting.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_reporting_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-reporting.sh
EXTRA_DIST += tests/fuzz/replay-wa-reporting.sh
