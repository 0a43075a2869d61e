# SPDX-License-Identifier: GPL-3.0-or-later
# The composition root: the queues between the threads, the settings and
# the two threads themselves (src/app*.c, the only code here that includes
# proto/, store/ and ui/; src/app-int.h says which file holds what).
noinst_LIBRARIES += libroot.a
libroot_a_CPPFLAGS = $(AM_CPPFLAGS) \
	$(UV_CFLAGS) $(INIH_CFLAGS) $(PROTOBUFC_CFLAGS)
libroot_a_SOURCES = src/evq.h src/evq.c src/conf.h src/conf.c \
	src/app.h src/app.c src/app-int.h src/app-ui.c src/app-notify.c src/app-print.c \
	src/app-eng.c src/app-db.c src/app-cmd.c src/app-chatact.c src/app-mget.c src/app-prof.c src/app-read.c \
	src/app-send.c src/app-disk.c src/app-expire.c src/app-spool.h src/app-spool.c \
	src/app-upload.c src/app-forward.c src/app-msginfo.c src/app-viewonce.c
ROOT_LIBS = libroot.a libapp.a libui.a libproto.a libstore.a libbase.a \
	$(CONN_LIBS) $(CURL_LIBS) $(STORE_LIBS) $(UI_LIBS) $(INIH_LIBS) \
	$(MEDIA_PROBE_LIBS) $(JSONC_LIBS)

bin_PROGRAMS += wachat
wachat_SOURCES = src/main.c src/cli-db.c src/cli-db.h src/cli-date.c src/cli-send.c \
	src/cli-job.h src/cli-job.c src/cli-get.c
wachat_CPPFLAGS = $(AM_CPPFLAGS) $(PROTOBUFC_CFLAGS) $(UV_CFLAGS)
wachat_LDADD = $(ROOT_LIBS) $(LIBINTL) -ldl

# Its tests: the queues, the settings, and the whole client against
# wachat-sim.
check_PROGRAMS += tests/test-evq tests/test-conf
tests_test_evq_SOURCES = tests/test-evq.c
tests_test_evq_CFLAGS = $(TEST_CFLAGS) $(UV_CFLAGS)
tests_test_evq_LDADD = libroot.a libbase.a $(CMOCKA_LIBS) $(UV_LIBS)
tests_test_conf_SOURCES = tests/test-conf.c
tests_test_conf_CFLAGS = $(TEST_CFLAGS) $(INIH_CFLAGS)
tests_test_conf_LDADD = libroot.a libproto.a libbase.a $(CMOCKA_LIBS) $(INIH_LIBS)
TESTS += tests/test-evq tests/test-conf tests/app-sim.sh
EXTRA_DIST += tests/app-sim.sh

# The events' and commands' wire form (base/event-wire.h): its unit test,
# and its fuzz target with the corpus replay.
check_PROGRAMS += tests/test-ev-wire
tests_test_ev_wire_SOURCES = tests/test-ev-wire.c
tests_test_ev_wire_CFLAGS = $(TEST_CFLAGS)
tests_test_ev_wire_LDADD = libbase.a $(CMOCKA_LIBS)
TESTS += tests/test-ev-wire
FUZZ_PROGS += tests/fuzz/fuzz-ev-wire
tests_fuzz_fuzz_ev_wire_SOURCES = tests/fuzz/fuzz-ev-wire.c
tests_fuzz_fuzz_ev_wire_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_ev_wire_LDADD = libbase.a
check_PROGRAMS += tests/fuzz/replay-ev-wire
tests_fuzz_replay_ev_wire_SOURCES = tests/fuzz/fuzz-ev-wire.c tests/fuzz/replay.c
tests_fuzz_replay_ev_wire_LDADD = libbase.a
TESTS += tests/fuzz/replay-ev-wire.sh
EXTRA_DIST += tests/fuzz/replay-ev-wire.sh
