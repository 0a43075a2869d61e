# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, the shell for reading over SSH: wachat unread, search's
# filters and its no-hit line, export's default format, multi-line
# messages as lines (tests/check-cli-shell-17.sh), the mentions of a group
# message by name (tests/mentions17-shell.sh), on a database
# tests/cli-db-fill17 makes; history --follow and send are in
# tests/shellsend17.mk.
check_PROGRAMS += tests/cli-db-fill17
tests_cli_db_fill17_SOURCES = tests/cli-db-fill17.c
tests_cli_db_fill17_CPPFLAGS = $(AM_CPPFLAGS)
tests_cli_db_fill17_CFLAGS = $(AM_CFLAGS) $(SQLITE_CFLAGS)
tests_cli_db_fill17_LDADD = libstore.a libbase.a $(STORE_LIBS)
TESTS += tests/check-cli-shell-17.sh
EXTRA_DIST += tests/check-cli-shell-17.sh
TESTS += tests/mentions17-shell.sh
EXTRA_DIST += tests/mentions17-shell.sh
