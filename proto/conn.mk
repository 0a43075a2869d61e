# SPDX-License-Identifier: GPL-3.0-or-later
# The client transport (proto/conn.c): libwebsockets on the engine's libuv
# loop, above it the frame layer, the Noise initiator and the certificate
# check; the ClientPayload builders.  Its unit test and the test driver
# the tests/sim-*.sh scripts run against wachat-sim.
libproto_a_SOURCES += proto/conn.h proto/conn.c proto/conn-payload.c
libproto_a_CPPFLAGS += $(LWS_CFLAGS) $(UV_CFLAGS)

# What a program that uses wa_conn links after libproto.a libbase.a.
CONN_LIBS = $(PROTO_LIBS) $(LWS_LIBS) $(UV_LIBS)

check_PROGRAMS += tests/test-wa-conn tests/wa-conn-driver
tests_test_wa_conn_SOURCES = tests/test-wa-conn.c
tests_test_wa_conn_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) $(UV_CFLAGS)
tests_test_wa_conn_LDADD = libproto.a libbase.a $(CMOCKA_LIBS) $(CONN_LIBS)
TESTS += tests/test-wa-conn

tests_wa_conn_driver_SOURCES = tests/wa-conn-driver.c
tests_wa_conn_driver_CFLAGS = $(AM_CFLAGS) $(PROTOBUFC_CFLAGS) $(UV_CFLAGS)
tests_wa_conn_driver_LDADD = libproto.a libbase.a $(CONN_LIBS)
