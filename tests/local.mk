# SPDX-License-Identifier: GPL-3.0-or-later
# Tests: cmocka programs (TAP), the fuzz corpus replays and the interop
# checks, all run by `make check` through automake's TAP driver.
TEST_LOG_DRIVER = env AM_TAP_AWK='$(AWK)' $(SHELL) $(top_srcdir)/build-aux/tap-driver.sh
LOG_DRIVER = $(TEST_LOG_DRIVER)
SH_LOG_DRIVER = $(TEST_LOG_DRIVER)
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	CMOCKA_MESSAGE_OUTPUT=TAP; export CMOCKA_MESSAGE_OUTPUT; \
	top_srcdir='$(top_srcdir)'; export top_srcdir; \
	top_builddir='$(top_builddir)'; export top_builddir; \
	NODE='$(NODE)'; export NODE;

TEST_CFLAGS = $(AM_CFLAGS) $(CMOCKA_CFLAGS)
TEST_LIBS = libproto.a libbase.a $(CMOCKA_LIBS) $(PROTO_LIBS)

# Unit tests, one program per module.
check_PROGRAMS += tests/test-wa-bin tests/test-base tests/test-base-jid tests/test-wa-pb
tests_test_wa_pb_SOURCES = tests/test-wa-pb.c
tests_test_wa_pb_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS)
tests_test_wa_pb_LDADD = $(TEST_LIBS)
tests_test_wa_bin_SOURCES = tests/test-wa-bin.c
tests_test_wa_bin_CFLAGS = $(TEST_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_bin_CPPFLAGS = $(AM_CPPFLAGS) -DFIXTURES='"$(top_srcdir)/tests/fixtures"'
tests_test_wa_bin_LDADD = $(TEST_LIBS) $(OPENSSL_LIBS)
tests_test_base_SOURCES = tests/test-base.c
tests_test_base_CFLAGS = $(TEST_CFLAGS)
tests_test_base_LDADD = $(TEST_LIBS)
tests_test_base_jid_SOURCES = tests/test-base-jid.c
tests_test_base_jid_CFLAGS = $(TEST_CFLAGS)
tests_test_base_jid_LDADD = libbase.a $(CMOCKA_LIBS)
TESTS += tests/test-wa-bin tests/test-base tests/test-base-jid tests/test-wa-pb

check_PROGRAMS += tests/test-store
tests_test_store_SOURCES = tests/test-store.c tests/store-test.h
tests_test_store_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) $(STORE_LIBS)
TESTS += tests/test-store

# Generated files agree with their generators; the link order binds
# protobuf-c 1.4.1.
TESTS += tests/check-generated.sh tests/check-link.sh tests/check-cli.sh tests/check-po.sh tests/check-man.sh
TESTS += tests/check-layering.sh
EXTRA_DIST += tests/check-layering.sh tests/layering.py
EXTRA_DIST += tests/check-generated.sh tests/check-link.sh tests/check-cli.sh tests/check-po.sh tests/check-man.sh tools/gen-fuzz-dict.sh

# The node codec behind a JSON line protocol, for the interop check.
check_PROGRAMS += tests/wa-bin-json
tests_wa_bin_json_SOURCES = tests/wa-bin-json.c tests/node-json.c tests/node-json.h
tests_wa_bin_json_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
tests_wa_bin_json_LDADD = libproto.a libbase.a $(JSONC_LIBS) $(PROTO_LIBS)
TESTS += tests/interop/codec-check.sh
EXTRA_DIST += tests/interop/codec-check.sh tests/interop/codec-check.mjs \
	tests/interop/bench-codec.mjs tests/interop/README.md \
	tests/interop/nodes.json tests/interop/package.json \
	tests/interop/package-lock.json tests/fixtures

# Fuzz targets: built with libFuzzer under --enable-fuzzing (make
# fuzz-targets); otherwise a small main replays each corpus in `make check`.
FUZZ_PROGS += tests/fuzz/fuzz-wa-bin
tests_fuzz_fuzz_wa_bin_SOURCES = tests/fuzz/fuzz-wa-bin.c
tests_fuzz_fuzz_wa_bin_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_bin_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-bin
tests_fuzz_replay_wa_bin_SOURCES = tests/fuzz/fuzz-wa-bin.c tests/fuzz/replay.c
tests_fuzz_replay_wa_bin_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-bin.sh
EXTRA_DIST += tests/fuzz/replay-wa-bin.sh tests/fuzz/corpus tests/fuzz/wa-bin.dict
FUZZ_PROGS += tests/fuzz/fuzz-base-jid
tests_fuzz_fuzz_base_jid_SOURCES = tests/fuzz/fuzz-base-jid.c
tests_fuzz_fuzz_base_jid_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_base_jid_LDADD = libbase.a
check_PROGRAMS += tests/fuzz/replay-base-jid
tests_fuzz_replay_base_jid_SOURCES = tests/fuzz/fuzz-base-jid.c tests/fuzz/replay.c
tests_fuzz_replay_base_jid_LDADD = libbase.a
TESTS += tests/fuzz/replay-base-jid.sh
EXTRA_DIST += tests/fuzz/replay-base-jid.sh tests/fuzz/base-jid.dict

# The history-store and search benches of issue 9 (perf.md H2
# history_sync_store, U3 fts_1M): tests/bench/bench-search over a copy of
# bench-history's 1,000,000-message database.  `make bench` runs them;
# `make bench-search` alone.  (A check program only so that it can be
# declared here, before tests/bench/local.mk sets EXTRA_PROGRAMS.)
check_PROGRAMS += tests/bench/bench-search
tests_bench_bench_search_SOURCES = tests/bench/bench-search.c \
	tests/bench/alloc-count.c tests/bench/alloc-count.h
tests_bench_bench_search_CPPFLAGS = $(AM_CPPFLAGS) \
	$(SQLITE_CFLAGS)
tests_bench_bench_search_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_search_LDADD = libstore.a libbase.a $(STORE_LIBS)

bench-search:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-search$(EXEEXT) \
	    tests/bench/bench-history$(EXEEXT) >&2
	@tests/bench/bench-history gen tests/bench/history-1M >&2
	@pin=; if command -v taskset >/dev/null 2>&1 && \
	    [ "$$(getconf _NPROCESSORS_ONLN)" -ge 2 ]; then \
	    pin='taskset -c 1'; fi; \
	$$pin tests/bench/bench-search run tests/bench/history-1M \
	    tests/bench/search-work $(BENCH_SEARCH_ARGS)
	@rm -rf tests/bench/search-work
bench: bench-search
.PHONY: bench-search
include tests/attention17.mk
include $(srcdir)/tests/notify17.mk
include $(srcdir)/tests/peek17.mk
include $(srcdir)/tests/marks18.mk
include tests/links17.mk
include tests/media19.mk
include tests/kinds20.mk
include tests/viewonce20.mk
include tests/polls20.mk
include tests/forward20.mk
include tests/disappear20.mk
include tests/calls20.mk
include tests/starred20.mk
include tests/shell17.mk
include $(srcdir)/tests/picker17.mk
include $(srcdir)/tests/names17.mk
include tests/offline17.mk
include tests/reading17.mk
include tests/cjk17.mk
include tests/farback17.mk
include tests/unreadline17.mk
include tests/shellsend17.mk
include $(srcdir)/tests/reactnames17.mk
include tests/drafts17.mk
include tests/appstate-store.mk
include tests/appstate.mk
include tests/sim-appstate.mk
include tests/sim-media.mk
include tests/mediasend19.mk
include tests/appsync18.mk
include tests/thumbs19.mk
include tests/mediaget19.mk
include tests/mediafix19.mk
include tests/asmut18.mk
include tests/video19.mk
