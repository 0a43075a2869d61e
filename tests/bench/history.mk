# SPDX-License-Identifier: GPL-3.0-or-later
# The history benches of issue 7 (perf.md U1 history_open_1M, U2 scroll_1M,
# rss_connected): tests/bench/bench-history, run by run-history.sh, which
# makes (once, cached under tests/bench/history-1M/ of the build tree) the
# 1,000,000-message database and nchat's table of the same rows, then runs
# the real wachat against wachat-sim for resident memory.  `make bench`
# runs it too (a prerequisite of bench, so before run.sh's benches);
# `make bench-history` alone; `make clean-bench-history` drops the cache.
# Include after tests/bench/local.mk (EXTRA_PROGRAMS, BENCH_OPT).
EXTRA_PROGRAMS += tests/bench/bench-history
tests_bench_bench_history_SOURCES = tests/bench/bench-history.c \
	tests/bench/alloc-count.c tests/bench/alloc-count.h \
	tests/bench/sqlite-count.c tests/bench/sqlite-count.h
tests_bench_bench_history_CPPFLAGS = $(AM_CPPFLAGS) \
	$(SQLITE_CFLAGS)
tests_bench_bench_history_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_history_LDADD = libstore.a libbase.a $(STORE_LIBS)
CLEANFILES += tests/bench/bench-history$(EXEEXT)
EXTRA_DIST += tests/bench/bench-history.c tests/bench/run-history.sh

bench-history:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-history$(EXEEXT) wachat$(EXEEXT) \
	    tests/sim/wachat-sim$(EXEEXT) >&2
	@top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	$(SHELL) $(top_srcdir)/tests/bench/run-history.sh
bench: bench-history
.PHONY: bench-history

clean-bench-history:
	-rm -rf tests/bench/history-1M tests/bench/history-1k
.PHONY: clean-bench-history
