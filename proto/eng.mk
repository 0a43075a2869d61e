# SPDX-License-Identifier: GPL-3.0-or-later
# The connection engine (proto/eng.h; its files are listed in
# proto/eng-int.h): pairing, login, prekeys, keepalive and reconnects on
# the engine's libuv loop, over proto/conn.c.  Its test driver runs it
# against wachat-sim with a real store (tests/sim-eng.sh).
libproto_a_SOURCES += proto/eng.h proto/eng-int.h proto/eng.c \
	proto/eng-util.c proto/eng-link.c proto/eng-pair.c \
	proto/eng-login.c proto/eng-ib.c proto/eng-stanza.c proto/pair.h proto/pair.c \
	proto/paircode.h proto/paircode.c proto/engver.h proto/engver.c \
	proto/http-get.h proto/http-get.c proto/hsync.h proto/hsync.c
libproto_a_CPPFLAGS += $(CURL_CFLAGS)
# Every program that links the engine links libcurl too (the version
# look-up after failure 405, proto/engver.c).
ENG_LIBS = $(CONN_LIBS) $(CURL_LIBS)

check_PROGRAMS += tests/wa-eng-driver
tests_wa_eng_driver_SOURCES = tests/wa-eng-driver.c
tests_wa_eng_driver_CPPFLAGS = $(AM_CPPFLAGS)
tests_wa_eng_driver_CFLAGS = $(AM_CFLAGS) $(PROTOBUFC_CFLAGS) $(UV_CFLAGS)
tests_wa_eng_driver_LDADD = libapp.a libproto.a libstore.a libbase.a \
	$(ENG_LIBS) $(STORE_LIBS)
TESTS += tests/sim-eng.sh
EXTRA_DIST += tests/sim-eng.sh

check_PROGRAMS += tests/test-wa-eng
tests_test_wa_eng_SOURCES = tests/test-wa-eng.c
tests_test_wa_eng_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) $(UV_CFLAGS)
tests_test_wa_eng_LDADD = libproto.a libbase.a $(CMOCKA_LIBS) $(ENG_LIBS)
TESTS += tests/test-wa-eng

# 1:1 messaging (proto/dm.c, proto/usync.c) through the engine against
# wachat-sim: with Baileys, and across kill -9 (the outbox, the receive
# transaction).
TESTS += tests/sim-dm.sh tests/sim-dm-crash.sh tests/sim-dm-cut.sh
EXTRA_DIST += tests/sim-dm.sh tests/sim-dm-crash.sh tests/sim-dm-cut.sh \
	tests/sim-interop/wachat-dm.mjs
