# SPDX-License-Identifier: GPL-3.0-or-later
# The app-state benches (issue 18): appstate_snapshot_10k_decode and
# appstate_patch_1_decode, tests/bench/bench-appstate, run by
# run-appstate.sh with callgrind.  `make bench` runs them;
# `make bench-appstate` alone.  Included from tests/bench/local.mk.
EXTRA_PROGRAMS += tests/bench/bench-appstate
tests_bench_bench_appstate_SOURCES = tests/bench/bench-appstate.c \
	tests/bench/alloc-count.c tests/bench/alloc-count.h
tests_bench_bench_appstate_CPPFLAGS = $(AM_CPPFLAGS) $(PROTOBUFC_CFLAGS)
tests_bench_bench_appstate_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_appstate_LDADD = libproto.a libbase.a $(PROTO_LIBS)
CLEANFILES += tests/bench/bench-appstate$(EXEEXT)
EXTRA_DIST += tests/bench/bench-appstate.c tests/bench/run-appstate.sh

bench-appstate:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-appstate$(EXEEXT) >&2
	@top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	$(SHELL) $(top_srcdir)/tests/bench/run-appstate.sh
bench: bench-appstate
.PHONY: bench-appstate
