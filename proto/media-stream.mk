# SPDX-License-Identifier: GPL-3.0-or-later
# Media files of any size (issue 19; protocol-features.md 1): the
# streaming encrypt and decrypt contexts (proto/media-stream.c), the
# download into a temp file and the media retry request
# (proto/media-dl.c), the upload (proto/media-ul.c); their unit tests and
# the benches media_decrypt_100M and media_encrypt_100M.  Include after
# tests/bench/local.mk (BENCH_OPT, EXTRA_PROGRAMS) and proto/eng.mk
# (CURL_CFLAGS, ENG_LIBS).
libproto_a_SOURCES += proto/media-stream.h proto/media-stream.c \
	proto/media-pipe.h proto/media-pipe.c \
	proto/media-dl.h proto/media-dl.c proto/media-dl-retry.c \
	proto/media-ul.h proto/media-ul.c \
	proto/media-name.h proto/media-name.c
libproto_a_CPPFLAGS += $(JSONC_CFLAGS)

# What a file to send is: libmagic's type, a voice note's duration and
# waveform, a JPEG photo's size and thumbnail (proto/media-probe.c), a
# video's duration, size and thumbnail (proto/media-video.c, FFmpeg's
# libraries when configure found them); a program that calls it links
# MEDIA_PROBE_LIBS.
libproto_a_SOURCES += proto/media-probe.h proto/media-probe.c \
	proto/media-thumb.h proto/media-thumb.c proto/media-video.c
libproto_a_CPPFLAGS += $(JPEG_CFLAGS) $(MAGIC_CFLAGS) $(OPUSFILE_CFLAGS) \
	$(FFMPEG_CFLAGS)
MEDIA_PROBE_LIBS = $(MAGIC_LIBS) $(JPEG_LIBS) $(OPUSFILE_LIBS) \
	$(FFMPEG_LIBS) -lpthread -lm
check_PROGRAMS += tests/test-wa-media-probe
tests_test_wa_media_probe_SOURCES = tests/test-wa-media-probe.c
tests_test_wa_media_probe_CFLAGS = $(TEST_CFLAGS) $(JPEG_CFLAGS)
tests_test_wa_media_probe_LDADD = $(TEST_LIBS) $(MEDIA_PROBE_LIBS) -lm
TESTS += tests/test-wa-media-probe

# The file to send encrypted into its upload blob (proto/media-seal.c).
libproto_a_SOURCES += proto/media-seal.h proto/media-seal.c
check_PROGRAMS += tests/test-wa-media-seal
tests_test_wa_media_seal_SOURCES = tests/test-wa-media-seal.c
tests_test_wa_media_seal_CFLAGS = $(TEST_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_media_seal_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-media-seal

check_PROGRAMS += tests/test-wa-media-pipe
tests_test_wa_media_pipe_SOURCES = tests/test-wa-media-pipe.c
tests_test_wa_media_pipe_CFLAGS = $(TEST_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_media_pipe_LDADD = $(TEST_LIBS) -lpthread
TESTS += tests/test-wa-media-pipe

check_PROGRAMS += tests/test-wa-media-stream
tests_test_wa_media_stream_SOURCES = tests/test-wa-media-stream.c
tests_test_wa_media_stream_CFLAGS = $(TEST_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_media_stream_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-media-stream

# Downloads against a small HTTP server in the test itself, and the media
# retry request and answer.
check_PROGRAMS += tests/test-wa-media-dl
tests_test_wa_media_dl_SOURCES = tests/test-wa-media-dl.c
tests_test_wa_media_dl_CFLAGS = $(TEST_CFLAGS) $(UV_CFLAGS)
tests_test_wa_media_dl_LDADD = $(TEST_LIBS) $(UV_LIBS) $(CURL_LIBS) -lpthread
TESTS += tests/test-wa-media-dl

# Benches media_encrypt_100M and media_decrypt_100M: tests/bench/bench-media,
# run by run-media.sh.  `make bench` runs them; `make bench-media` alone.
EXTRA_PROGRAMS += tests/bench/bench-media
tests_bench_bench_media_SOURCES = tests/bench/bench-media.c
tests_bench_bench_media_CPPFLAGS = $(AM_CPPFLAGS) $(OPENSSL_CFLAGS)
tests_bench_bench_media_CFLAGS = $(AM_CFLAGS) $(BENCH_OPT)
tests_bench_bench_media_LDADD = libproto.a libbase.a $(PROTO_LIBS) $(UV_LIBS) \
	$(CURL_LIBS)
CLEANFILES += tests/bench/bench-media$(EXEEXT)
EXTRA_DIST += tests/bench/bench-media.c tests/bench/run-media.sh

bench-media:
	@$(MAKE) $(AM_MAKEFLAGS) tests/bench/bench-media$(EXEEXT) >&2
	@top_srcdir='$(top_srcdir)' top_builddir='$(top_builddir)' \
	$(SHELL) $(top_srcdir)/tests/bench/run-media.sh
bench: bench-media
.PHONY: bench-media

# Safe file names, free paths and the size settings of downloads.
check_PROGRAMS += tests/test-wa-media-name
tests_test_wa_media_name_SOURCES = tests/test-wa-media-name.c
tests_test_wa_media_name_CFLAGS = $(TEST_CFLAGS)
tests_test_wa_media_name_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-media-name

# Uploads against a small HTTP server in the test (two hosts, one that
# fails), and a round trip: encrypt, upload, download, decrypt.
check_PROGRAMS += tests/test-wa-media-ul
tests_test_wa_media_ul_SOURCES = tests/test-wa-media-ul.c
tests_test_wa_media_ul_CFLAGS = $(TEST_CFLAGS) $(UV_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_media_ul_LDADD = $(TEST_LIBS) $(UV_LIBS) $(CURL_LIBS) \
	$(JSONC_LIBS) -lpthread
TESTS += tests/test-wa-media-ul

# Interop: Baileys' encryptedStream output through the stream decrypt
# context, and the stream encryption through Baileys'
# downloadContentFromMessage; wa-media-stream-tool is the C side.
check_PROGRAMS += tests/interop/wa-media-stream-tool
tests_interop_wa_media_stream_tool_SOURCES = \
	tests/interop/wa-media-stream-tool.c
tests_interop_wa_media_stream_tool_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/interop/media-stream-check.sh
EXTRA_DIST += tests/interop/media-stream-check.sh \
	tests/interop/media-stream-check.mjs

# Fuzz target over the stream decrypt (against the one-shot), the media
# retry answer and the upload answer, and its corpus replay.
FUZZ_PROGS += tests/fuzz/fuzz-wa-media-stream
tests_fuzz_fuzz_wa_media_stream_SOURCES = tests/fuzz/fuzz-wa-media-stream.c
tests_fuzz_fuzz_wa_media_stream_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
tests_fuzz_fuzz_wa_media_stream_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_media_stream_LDADD = libproto.a libbase.a $(PROTO_LIBS) \
	$(UV_LIBS) $(CURL_LIBS) $(JSONC_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-media-stream
tests_fuzz_replay_wa_media_stream_SOURCES = \
	tests/fuzz/fuzz-wa-media-stream.c tests/fuzz/replay.c
tests_fuzz_replay_wa_media_stream_CFLAGS = $(AM_CFLAGS) $(SODIUM_CFLAGS)
tests_fuzz_replay_wa_media_stream_LDADD = libproto.a libbase.a \
	$(PROTO_LIBS) $(UV_LIBS) $(CURL_LIBS) $(JSONC_LIBS)
TESTS += tests/fuzz/replay-wa-media-stream.sh
EXTRA_DIST += tests/fuzz/replay-wa-media-stream.sh
