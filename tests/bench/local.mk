# SPDX-License-Identifier: GPL-3.0-or-later
# Benchmarks (perf.md 3.0): `make bench` builds tests/bench/bench, which
# plain `make` and `make check` leave alone, and runs tests/bench/run.sh
# (the C bench, callgrind instruction counts, the Baileys and bridge peers).
EXTRA_PROGRAMS = tests/bench/bench
tests_bench_bench_SOURCES = tests/bench/bench.c tests/bench/alloc-count.c \
	tests/bench/alloc-count.h tests/node-json.c tests/node-json.h
tests_bench_bench_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests \
	 $(SQLITE_CFLAGS) $(SODIUM_CFLAGS) \
	-DBENCH_FIXTURES='"$(top_srcdir)/tests/bench/codec-fixtures.jsonl"'
# -O2 after AM_CFLAGS overrides --enable-debug's -O1; a CFLAGS given to
# configure still comes last, and run.sh warns when it lowers -O.
BENCH_OPT = -O2
tests_bench_bench_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS) $(BENCH_OPT)
# $(PROTO_LIBS) as for tests/wa-bin-json: zlib, and what the rest of
# libproto.a needs should the codec ever pull it in.
# libstore.a and $(STORE_LIBS) for the prekey benches (perf.md P2, P3),
# which also call SQLite directly (sqlite3_config) and start a thread.
tests_bench_bench_LDADD = libproto.a libstore.a libbase.a $(JSONC_LIBS) \
	$(PROTO_LIBS) $(STORE_LIBS) -lpthread
CLEANFILES += tests/bench/bench$(EXEEXT)
EXTRA_DIST += tests/bench/run.sh tests/bench/bench-lib.sh tests/bench/merge.mjs \
	tests/bench/gen-fixtures.mjs tests/bench/codec-fixtures.jsonl \
	tests/bench/bench.c tests/bench/alloc-count.c tests/bench/alloc-count.h

# The build's messages go to stderr, so stdout holds only the JSON lines.
bench:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench$(EXEEXT) >&2
	@top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	NODE='$(NODE)' BENCH_LIB_CFLAGS='$(WC_CFLAGS) $(CFLAGS)' \
	$(SHELL) $(top_srcdir)/tests/bench/run.sh
.PHONY: bench

# The 1:1 message benches (perf.md S1 dm_send_encode, R1 dm_recv_steady,
# R4 receive_store_msg): tests/bench/bench-dm, run by run-dm.sh with
# callgrind and the Node peers (bench-dm-peers.mjs: whatsapp-rust-bridge's
# SessionCipher and Baileys' libsignal).  `make bench` runs them after the
# codec and prekey benches; `make bench-dm` alone.
EXTRA_PROGRAMS += tests/bench/bench-dm
tests_bench_bench_dm_SOURCES = tests/bench/bench-dm.c \
	tests/bench/alloc-count.c tests/bench/alloc-count.h
tests_bench_bench_dm_CPPFLAGS = $(AM_CPPFLAGS) \
	$(SQLITE_CFLAGS) $(SODIUM_CFLAGS) $(OPENSSL_CFLAGS)
tests_bench_bench_dm_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_dm_LDADD = libapp.a libproto.a libstore.a libbase.a \
	$(PROTO_LIBS) $(STORE_LIBS)
CLEANFILES += tests/bench/bench-dm$(EXEEXT)
EXTRA_DIST += tests/bench/bench-dm.c tests/bench/run-dm.sh \
	tests/bench/bench-dm-peers.mjs

bench-dm:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-dm$(EXEEXT) >&2
	@top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	NODE='$(NODE)' $(SHELL) $(top_srcdir)/tests/bench/run-dm.sh
bench: bench-dm
.PHONY: bench-dm

# The group benches (perf.md S3 group_send_warm_{10,50,256}, S5
# skdm_send_256, R3 group_recv) at the Signal layer:
# tests/bench/bench-group, run by run-group.sh with callgrind.  `make bench` runs them after bench-dm;
# `make bench-group` alone.
EXTRA_PROGRAMS += tests/bench/bench-group
tests_bench_bench_group_SOURCES = tests/bench/bench-group.c \
	tests/bench/alloc-count.c tests/bench/alloc-count.h
tests_bench_bench_group_CPPFLAGS = $(AM_CPPFLAGS) $(SODIUM_CFLAGS) \
	$(OPENSSL_CFLAGS)
tests_bench_bench_group_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_group_LDADD = libproto.a libbase.a $(PROTO_LIBS)
CLEANFILES += tests/bench/bench-group$(EXEEXT)
EXTRA_DIST += tests/bench/bench-group.c tests/bench/run-group.sh

bench-group:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-group$(EXEEXT) >&2
	@top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	$(SHELL) $(top_srcdir)/tests/bench/run-group.sh
bench: bench-group
.PHONY: bench-group
include tests/bench/appstate-proto.mk
