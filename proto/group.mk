# SPDX-License-Identifier: GPL-3.0-or-later
# The stanza half of group messaging (issue 8; protocol.md 10, 11.7): the
# participant hash, the group <message>, the SKDM Message, the w:g2 iqs and
# the readers of <group> and w:gp2 notifications; and its unit test.
libproto_a_SOURCES += proto/group.h proto/group.c

check_PROGRAMS += tests/test-wa-group
tests_test_wa_group_SOURCES = tests/test-wa-group.c
tests_test_wa_group_CFLAGS = $(TEST_CFLAGS) $(PROTOBUFC_CFLAGS) $(OPENSSL_CFLAGS)
tests_test_wa_group_LDADD = $(TEST_LIBS)
TESTS += tests/test-wa-group
