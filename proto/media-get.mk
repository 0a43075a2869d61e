# SPDX-License-Identifier: GPL-3.0-or-later
# Downloading a received message's media on request (issue 19;
# proto/media-get.c: media_conn, media-dl, the media retry of
# protocol-features.md 1.8), and its unit test.  Include after
# proto/media-stream.mk.
libproto_a_SOURCES += proto/media-get.h proto/media-get.c
check_PROGRAMS += tests/test-wa-media-get
tests_test_wa_media_get_SOURCES = tests/test-wa-media-get.c tests/loopback.h
tests_test_wa_media_get_CFLAGS = $(TEST_CFLAGS) $(UV_CFLAGS)
tests_test_wa_media_get_LDADD = $(TEST_LIBS) $(UV_LIBS) $(CURL_LIBS) \
	-lpthread
TESTS += tests/test-wa-media-get
