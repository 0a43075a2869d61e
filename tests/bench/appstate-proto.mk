# SPDX-License-Identifier: GPL-3.0-or-later
# The app-state benches (issue 18): appstate_snapshot_10k_decode and
# appstate_patch_1_decode (proto/ alone), appstate_snapshot_10k and
# appstate_patch_1 (the whole path: verified, decoded and stored through
# src/app-appstate.c's commit op), tests/bench/bench-appstate-proto (the
# store's alone are bench-appstate), run
# by run-appstate-proto.sh with callgrind.  `make bench` runs them;
# `make bench-appstate-proto` alone.  Included from tests/bench/local.mk.
EXTRA_PROGRAMS += tests/bench/bench-appstate-proto
tests_bench_bench_appstate_proto_SOURCES = \
	tests/bench/bench-appstate-proto.c \
	tests/bench/alloc-count.c tests/bench/alloc-count.h
tests_bench_bench_appstate_proto_CPPFLAGS = $(AM_CPPFLAGS) \
	$(PROTOBUFC_CFLAGS) $(SQLITE_CFLAGS)
tests_bench_bench_appstate_proto_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_appstate_proto_LDADD = libapp.a libproto.a libstore.a \
	libbase.a $(PROTO_LIBS) $(STORE_LIBS)
CLEANFILES += tests/bench/bench-appstate-proto$(EXEEXT)
EXTRA_DIST += tests/bench/bench-appstate-proto.c \
	tests/bench/run-appstate-proto.sh

bench-appstate-proto:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-appstate-proto$(EXEEXT) >&2
	@top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	$(SHELL) $(top_srcdir)/tests/bench/run-appstate-proto.sh
bench: bench-appstate-proto
.PHONY: bench-appstate-proto
