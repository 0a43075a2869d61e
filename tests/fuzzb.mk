# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzz targets of issue 15 point 12 (part b): the stanza readers
# (fuzz-wa-stanza), Signal decrypt of pkmsg/msg/skmsg and SKDM processing
# (fuzz-wa-signal), the media blob's decrypt-and-verify (fuzz-wa-media)
# and the engine's stanza handlers (fuzz-wa-eng).  Each is built with
# libFuzzer under --enable-fuzzing (make fuzz-targets) and replays its
# corpus, tests/fuzz/corpus/NAME, in `make check`.  The seeds:
# tests/fuzz/gen-seeds.mjs (Baileys) and tests/fuzz/gen-wa-signal
# (libsignal between two fixed identities).
FUZZB_SIGNAL_SRC = tests/fuzz/signal-world.c tests/fuzz/signal-world.h \
	tests/fakes/fake-store.c tests/fakes/fake-store.h \
	tests/fakes/fake-store-signal.c tests/fakes/fake-store-int.h \
	tests/fakes/fake-rand.c tests/fakes/fake-rand.h
FUZZB_ENG_SRC = $(FUZZB_SIGNAL_SRC) tests/fakes/fake-conn.c \
	tests/fakes/fake-conn.h
FUZZB_CFLAGS = $(AM_CFLAGS) $(PROTOBUFC_CFLAGS) $(SODIUM_CFLAGS) \
	$(UV_CFLAGS)

FUZZ_PROGS += tests/fuzz/fuzz-wa-stanza
tests_fuzz_fuzz_wa_stanza_SOURCES = tests/fuzz/fuzz-wa-stanza.c
tests_fuzz_fuzz_wa_stanza_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_stanza_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-stanza
tests_fuzz_replay_wa_stanza_SOURCES = tests/fuzz/fuzz-wa-stanza.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_stanza_LDADD = libproto.a libbase.a $(PROTO_LIBS)

FUZZ_PROGS += tests/fuzz/fuzz-wa-media
tests_fuzz_fuzz_wa_media_SOURCES = tests/fuzz/fuzz-wa-media.c
tests_fuzz_fuzz_wa_media_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_media_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-media
tests_fuzz_replay_wa_media_SOURCES = tests/fuzz/fuzz-wa-media.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_media_LDADD = libproto.a libbase.a $(PROTO_LIBS)

TESTS += tests/fuzz/replay-wa-stanza.sh tests/fuzz/replay-wa-media.sh
EXTRA_DIST += tests/fuzz/replay-wa-stanza.sh tests/fuzz/replay-wa-media.sh \
	tests/fuzz/gen-seeds.mjs tests/fuzz/wa-stanza.dict tests/fuzz/wa-eng.dict

FUZZ_PROGS += tests/fuzz/fuzz-wa-signal
tests_fuzz_fuzz_wa_signal_SOURCES = tests/fuzz/fuzz-wa-signal.c \
	$(FUZZB_SIGNAL_SRC)
tests_fuzz_fuzz_wa_signal_CFLAGS = $(FUZZB_CFLAGS)
tests_fuzz_fuzz_wa_signal_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_signal_LDADD = libproto.a libbase.a $(PROTO_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-signal
tests_fuzz_replay_wa_signal_SOURCES = tests/fuzz/fuzz-wa-signal.c \
	tests/fuzz/replay.c $(FUZZB_SIGNAL_SRC)
tests_fuzz_replay_wa_signal_CFLAGS = $(FUZZB_CFLAGS)
tests_fuzz_replay_wa_signal_LDADD = libproto.a libbase.a $(PROTO_LIBS)
TESTS += tests/fuzz/replay-wa-signal.sh
EXTRA_DIST += tests/fuzz/replay-wa-signal.sh

# The seed maker of fuzz-wa-signal and fuzz-wa-eng (not run by make check):
# make tests/fuzz/gen-wa-signal && tests/fuzz/gen-wa-signal ../tests/fuzz/corpus
EXTRA_PROGRAMS += tests/fuzz/gen-wa-signal
tests_fuzz_gen_wa_signal_SOURCES = tests/fuzz/gen-wa-signal.c \
	$(FUZZB_SIGNAL_SRC)
tests_fuzz_gen_wa_signal_CFLAGS = $(FUZZB_CFLAGS)
tests_fuzz_gen_wa_signal_LDADD = libproto.a libbase.a $(PROTO_LIBS)

# The engine over a fake connection (tests/fakes/fake-conn.c defines
# proto/conn.h, so neither proto/conn.c nor libwebsockets is linked).
FUZZB_ENG_LIBS = $(PROTO_LIBS) $(UV_LIBS) $(CURL_LIBS)
FUZZ_PROGS += tests/fuzz/fuzz-wa-eng
tests_fuzz_fuzz_wa_eng_SOURCES = tests/fuzz/fuzz-wa-eng.c $(FUZZB_ENG_SRC)
tests_fuzz_fuzz_wa_eng_CFLAGS = $(FUZZB_CFLAGS)
tests_fuzz_fuzz_wa_eng_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_eng_LDADD = libproto.a libbase.a $(FUZZB_ENG_LIBS)
check_PROGRAMS += tests/fuzz/replay-wa-eng
tests_fuzz_replay_wa_eng_SOURCES = tests/fuzz/fuzz-wa-eng.c \
	tests/fuzz/replay.c $(FUZZB_ENG_SRC)
tests_fuzz_replay_wa_eng_CFLAGS = $(FUZZB_CFLAGS)
tests_fuzz_replay_wa_eng_LDADD = libproto.a libbase.a $(FUZZB_ENG_LIBS)
TESTS += tests/fuzz/replay-wa-eng.sh
EXTRA_DIST += tests/fuzz/replay-wa-eng.sh
