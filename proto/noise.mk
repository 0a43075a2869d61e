# SPDX-License-Identifier: GPL-3.0-or-later
# The connection layer under the node codec (protocol.md 1.2, 1.3, 2): the
# crypto primitives, the Noise XX handshake and transport cipher, the frame
# layer and the server certificate chain; their unit tests and fuzz targets.
libproto_a_SOURCES += \
	proto/crypto.h proto/crypto.c \
	proto/noise.h proto/noise.c \
	proto/frame.h proto/frame.c \
	proto/cert.h proto/cert.c
libproto_a_CPPFLAGS += $(SIGNAL_CFLAGS) $(SODIUM_CFLAGS) $(OPENSSL_CFLAGS)

# Unit tests, one program per module.
NOISE_TEST_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) $(SODIUM_CFLAGS) \
	$(OPENSSL_CFLAGS)
check_PROGRAMS += tests/test-wa-crypto tests/test-wa-noise \
	tests/test-wa-frame tests/test-wa-cert
tests_test_wa_crypto_SOURCES = tests/test-wa-crypto.c
tests_test_wa_crypto_CFLAGS = $(NOISE_TEST_CFLAGS)
tests_test_wa_crypto_LDADD = $(TEST_LIBS)
tests_test_wa_noise_SOURCES = tests/test-wa-noise.c
tests_test_wa_noise_CFLAGS = $(NOISE_TEST_CFLAGS)
tests_test_wa_noise_CPPFLAGS = $(AM_CPPFLAGS) \
	-DFIXTURES='"$(top_srcdir)/tests/fixtures"'
tests_test_wa_noise_LDADD = $(TEST_LIBS)
tests_test_wa_frame_SOURCES = tests/test-wa-frame.c
tests_test_wa_frame_CFLAGS = $(NOISE_TEST_CFLAGS)
tests_test_wa_frame_LDADD = $(TEST_LIBS)
tests_test_wa_cert_SOURCES = tests/test-wa-cert.c
tests_test_wa_cert_CFLAGS = $(NOISE_TEST_CFLAGS)
tests_test_wa_cert_CPPFLAGS = $(AM_CPPFLAGS) \
	-DFIXTURES='"$(top_srcdir)/tests/fixtures"'
tests_test_wa_cert_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-crypto tests/test-wa-noise tests/test-wa-frame \
	tests/test-wa-cert

# Fuzz targets (libFuzzer under --enable-fuzzing) and their corpus
# replays in `make check`.
FUZZ_PROGS += tests/fuzz/fuzz-wa-frame tests/fuzz/fuzz-wa-noise
tests_fuzz_fuzz_wa_frame_SOURCES = tests/fuzz/fuzz-wa-frame.c
tests_fuzz_fuzz_wa_frame_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_frame_LDADD = libproto.a libbase.a $(PROTO_LIBS)
tests_fuzz_fuzz_wa_noise_SOURCES = tests/fuzz/fuzz-wa-noise.c
tests_fuzz_fuzz_wa_noise_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_noise_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-frame tests/fuzz/replay-wa-noise
tests_fuzz_replay_wa_frame_SOURCES = tests/fuzz/fuzz-wa-frame.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_frame_LDADD = libproto.a libbase.a $(PROTO_LIBS)
tests_fuzz_replay_wa_noise_SOURCES = tests/fuzz/fuzz-wa-noise.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_noise_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-frame.sh tests/fuzz/replay-wa-noise.sh
EXTRA_DIST += tests/fuzz/replay-wa-frame.sh tests/fuzz/replay-wa-noise.sh \
	tests/fixtures/wa-noise
