# SPDX-License-Identifier: GPL-3.0-or-later
# Media files of any size (issue 19; protocol-features.md 1): the
# streaming encrypt and decrypt contexts (proto/media-stream.c), the
# download into a temp file and the media retry request
# (proto/media-dl.c), the upload (proto/media-ul.c); their unit tests and
# the benches media_decrypt_100M and media_encrypt_100M.  Include after
# tests/bench/local.mk (BENCH_OPT, EXTRA_PROGRAMS) and proto/eng.mk
# (CURL_CFLAGS, ENG_LIBS).
libproto_a_SOURCES += proto/media-stream.h proto/media-stream.c

check_PROGRAMS += tests/test-wa-media-stream
tests_test_wa_media_stream_SOURCES = tests/test-wa-media-stream.c
tests_test_wa_media_stream_CFLAGS = $(TEST_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_media_stream_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-media-stream
