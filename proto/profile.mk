# SPDX-License-Identifier: GPL-3.0-or-later
# Profiles and the blocklist (issue 20; protocol.md 15.5,
# protocol-features.md 3.9, 4.1, 4.2): the stanzas (proto/profile.c),
# the engine's module (proto/prof.c), and the stanzas' unit test.
libproto_a_SOURCES += proto/profile.h proto/profile.c \
	proto/prof.h proto/prof.c
check_PROGRAMS += tests/test-wa-profile
tests_test_wa_profile_SOURCES = tests/test-wa-profile.c
tests_test_wa_profile_CFLAGS = $(TEST_CFLAGS)
tests_test_wa_profile_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-profile
# The module over a fake host (tests/test-wa-prof.c).
check_PROGRAMS += tests/test-wa-prof
tests_test_wa_prof_SOURCES = tests/test-wa-prof.c
tests_test_wa_prof_CFLAGS = $(TEST_CFLAGS) $(UV_CFLAGS)
tests_test_wa_prof_LDADD = $(TEST_LIBS) $(UV_LIBS) $(CURL_LIBS) -lpthread
TESTS += tests/test-wa-prof
