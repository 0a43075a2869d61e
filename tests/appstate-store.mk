# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 18, the store's part of app state sync (store/appstate.c,
# store/appstate-act.c, migration 14): tests/test-store-appstate.c, each
# action as the chat list, contacts, pages and search show it, one
# commit atomic, reset, keys, the outbox, the migration from 13.
check_PROGRAMS += tests/test-store-appstate
tests_test_store_appstate_SOURCES = tests/test-store-appstate.c \
	tests/store-test.h
tests_test_store_appstate_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_store_appstate_CFLAGS = $(TEST_CFLAGS) $(SQLITE_CFLAGS)
tests_test_store_appstate_LDADD = libstore.a libbase.a $(CMOCKA_LIBS) \
	$(STORE_LIBS)
TESTS += tests/test-store-appstate

# The bench of a 10,000-contact snapshot's commit (ms, allocations per
# record; target well under 100 ms) and the per-record MAC lookup:
# tests/bench/bench-appstate.  `make bench-appstate` runs it, `make
# bench` too.  (A check program only so that it can be declared here,
# before tests/bench/local.mk sets EXTRA_PROGRAMS, as bench-search.)
check_PROGRAMS += tests/bench/bench-appstate
tests_bench_bench_appstate_SOURCES = tests/bench/bench-appstate.c \
	tests/bench/alloc-count.c tests/bench/alloc-count.h \
	tests/bench/sqlite-count.c tests/bench/sqlite-count.h
tests_bench_bench_appstate_CPPFLAGS = $(AM_CPPFLAGS) $(SQLITE_CFLAGS)
tests_bench_bench_appstate_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_appstate_LDADD = libstore.a libbase.a $(STORE_LIBS)

bench-appstate:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-appstate$(EXEEXT) >&2
	@tests/bench/bench-appstate
bench: bench-appstate
.PHONY: bench-appstate
