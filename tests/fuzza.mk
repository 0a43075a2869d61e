# SPDX-License-Identifier: GPL-3.0-or-later
# Fuzz targets of issue 15 point 12 (part A): the server certificate chain
# fed directly (wa-cert), pairing's ADV identity and phone-code unwrap
# (wa-pair), usync and prekey-bundle answers (wa-usync), the version
# look-up page (wa-engver) and Signal records read back from the database
# (wa-sigrec).  Each is a libFuzzer target under --enable-fuzzing (make
# fuzz-targets; .ci/run stage 3 fuzzes it with tests/fuzz/corpus/NAME)
# and a replay of its corpus in `make check`.  The corpora are made by
# tests/fuzz/seeds-baileys.mjs (Baileys' encodings) and, for wa-sigrec,
# by tests/fuzz/fuzz-wa-sigrec.c built with -DWA_SIGREC_WRITE_SEEDS.
FUZZA_LIBS = libproto.a libbase.a $(ENG_LIBS)

FUZZ_PROGS += tests/fuzz/fuzz-wa-cert tests/fuzz/fuzz-wa-pair \
	tests/fuzz/fuzz-wa-usync tests/fuzz/fuzz-wa-engver \
	tests/fuzz/fuzz-wa-sigrec
tests_fuzz_fuzz_wa_cert_SOURCES = tests/fuzz/fuzz-wa-cert.c
tests_fuzz_fuzz_wa_cert_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_cert_LDADD = $(FUZZA_LIBS)
tests_fuzz_fuzz_wa_pair_SOURCES = tests/fuzz/fuzz-wa-pair.c
tests_fuzz_fuzz_wa_pair_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_pair_LDADD = $(FUZZA_LIBS)
tests_fuzz_fuzz_wa_usync_SOURCES = tests/fuzz/fuzz-wa-usync.c
tests_fuzz_fuzz_wa_usync_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_usync_LDADD = $(FUZZA_LIBS)
tests_fuzz_fuzz_wa_engver_SOURCES = tests/fuzz/fuzz-wa-engver.c
tests_fuzz_fuzz_wa_engver_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_engver_LDADD = $(FUZZA_LIBS)
tests_fuzz_fuzz_wa_sigrec_SOURCES = tests/fuzz/fuzz-wa-sigrec.c
tests_fuzz_fuzz_wa_sigrec_LDFLAGS = $(AM_LDFLAGS) -fsanitize=fuzzer
tests_fuzz_fuzz_wa_sigrec_LDADD = $(FUZZA_LIBS)

check_PROGRAMS += tests/fuzz/replay-wa-cert tests/fuzz/replay-wa-pair \
	tests/fuzz/replay-wa-usync tests/fuzz/replay-wa-engver \
	tests/fuzz/replay-wa-sigrec
tests_fuzz_replay_wa_cert_SOURCES = tests/fuzz/fuzz-wa-cert.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_cert_LDADD = $(FUZZA_LIBS)
tests_fuzz_replay_wa_pair_SOURCES = tests/fuzz/fuzz-wa-pair.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_pair_CPPFLAGS = $(AM_CPPFLAGS) -DWA_FUZZ_REPLAY
tests_fuzz_replay_wa_pair_LDADD = $(FUZZA_LIBS)
tests_fuzz_replay_wa_usync_SOURCES = tests/fuzz/fuzz-wa-usync.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_usync_LDADD = $(FUZZA_LIBS)
tests_fuzz_replay_wa_engver_SOURCES = tests/fuzz/fuzz-wa-engver.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_engver_LDADD = $(FUZZA_LIBS)
tests_fuzz_replay_wa_sigrec_SOURCES = tests/fuzz/fuzz-wa-sigrec.c \
	tests/fuzz/replay.c
tests_fuzz_replay_wa_sigrec_LDADD = $(FUZZA_LIBS)

TESTS += tests/fuzz/replay-wa-cert.sh tests/fuzz/replay-wa-pair.sh \
	tests/fuzz/replay-wa-usync.sh tests/fuzz/replay-wa-engver.sh \
	tests/fuzz/replay-wa-sigrec.sh
EXTRA_DIST += tests/fuzz/replay-wa-cert.sh tests/fuzz/replay-wa-pair.sh \
	tests/fuzz/replay-wa-usync.sh tests/fuzz/replay-wa-engver.sh \
	tests/fuzz/replay-wa-sigrec.sh tests/fuzz/seeds-baileys.mjs \
	tests/fuzz/wa-engver.dict
