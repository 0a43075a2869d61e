# SPDX-License-Identifier: GPL-3.0-or-later
# History sync, protocol layer (issue 9; protocol.md 12, 14.1): the media
# encryption (proto/media.c), the notification, zlib stream, HistorySync
# protobuf and on-demand request (proto/history.c, proto/history.proto);
# their unit test, the Baileys known-answer check of the media scheme, the
# fuzz target with its corpus replay, and bench H1 (perf.md
# history_sync_ingest).  Include after tests/bench/local.mk (BENCH_OPT,
# EXTRA_PROGRAMS) and proto/msg.mk (e2e.proto, whose Message descriptor
# checks each history message).
PROTO_FILES += proto/history.proto
PROTO_GEN += proto/history.pb-c.c proto/history.pb-c.h
nodist_libproto_a_SOURCES += proto/history.pb-c.c proto/history.pb-c.h
BUILT_SOURCES += proto/history.pb-c.c proto/history.pb-c.h
CLEANFILES += proto/history.pb-c.c proto/history.pb-c.h
EXTRA_DIST += proto/history.proto
libproto_a_SOURCES += proto/media.h proto/media.c \
	proto/history.h proto/history.c
# libdeflate, when configure found it (HAVE_LIBDEFLATE): the fast path of
# wa_hist_inflate(); both variables are empty otherwise (zlib only).
libproto_a_CPPFLAGS += $(LIBDEFLATE_CFLAGS)
PROTO_LIBS += $(LIBDEFLATE_LIBS)

# Unit test.
check_PROGRAMS += tests/test-wa-history
tests_test_wa_history_SOURCES = tests/test-wa-history.c
tests_test_wa_history_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) \
	$(OPENSSL_CFLAGS) $(ZLIB_CFLAGS)
tests_test_wa_history_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-history

# Interop: Baileys' media scheme (its hkdf + node:crypto) encrypts what
# wachat decrypts and decrypts what wachat encrypts; wa-media-tool is the
# C side.
check_PROGRAMS += tests/interop/wa-media-tool
tests_interop_wa_media_tool_SOURCES = tests/interop/wa-media-tool.c
tests_interop_wa_media_tool_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/interop/media-check.sh
EXTRA_DIST += tests/interop/media-check.sh tests/interop/media-check.mjs

# Fuzz target over inflate + parse (libFuzzer under --enable-fuzzing) and
# its corpus replay.
FUZZ_PROGS += tests/fuzz/fuzz-wa-history
tests_fuzz_fuzz_wa_history_SOURCES = tests/fuzz/fuzz-wa-history.c
tests_fuzz_fuzz_wa_history_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_history_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-history
tests_fuzz_replay_wa_history_SOURCES = tests/fuzz/fuzz-wa-history.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_history_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-history.sh
EXTRA_DIST += tests/fuzz/replay-wa-history.sh

# Bench H1 history_sync_ingest (perf.md 3.1): tests/bench/bench-history-sync,
# run by run-history-sync.sh.  `make bench` runs it; `make
# bench-history-sync` alone.
EXTRA_PROGRAMS += tests/bench/bench-history-sync
tests_bench_bench_history_sync_SOURCES = tests/bench/bench-history-sync.c \
	tests/bench/alloc-count.c tests/bench/alloc-count.h
tests_bench_bench_history_sync_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_history_sync_LDADD = libproto.a libbase.a $(PROTO_LIBS)
CLEANFILES += tests/bench/bench-history-sync$(EXEEXT)
EXTRA_DIST += tests/bench/bench-history-sync.c \
	tests/bench/run-history-sync.sh

bench-history-sync:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-history-sync$(EXEEXT) >&2
	@top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	$(SHELL) $(top_srcdir)/tests/bench/run-history-sync.sh
bench: bench-history-sync
.PHONY: bench-history-sync

# History sync end to end through wachat's engine and wachat-sim's phone
# (tests/sim-interop/wachat-history.mjs).
TESTS += tests/sim-history-eng.sh
EXTRA_DIST += tests/sim-history-eng.sh tests/sim-interop/wachat-history.mjs
