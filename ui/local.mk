# SPDX-License-Identifier: GPL-3.0-or-later
# The terminal UI: the only module that will include curses; never the
# network, the loop, SQL, proto/ or store/.
noinst_LIBRARIES += libui.a
libui_a_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ui $(QRENCODE_CFLAGS) \
	$(NCURSESW_CFLAGS)
libui_a_SOURCES = ui/qr.h ui/qr.c ui/screen.h ui/screen.c
UI_LIBS = $(QRENCODE_LIBS) $(NCURSESW_LIBS)

check_PROGRAMS += tests/test-ui-qr
tests_test_ui_qr_SOURCES = tests/test-ui-qr.c
tests_test_ui_qr_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/ui
tests_test_ui_qr_CFLAGS = $(TEST_CFLAGS)
tests_test_ui_qr_LDADD = libui.a libbase.a $(CMOCKA_LIBS) $(UI_LIBS)
TESTS += tests/test-ui-qr

# The curses screen in a real terminal: wachat in a tmux pane against
# wachat-sim, its QR read back with zbarimg.
TESTS += tests/ui-tmux.sh
EXTRA_DIST += tests/ui-tmux.sh

# The README's first command in a tmux pane: the demo links and connects.
TESTS += tests/demo-tmux.sh
EXTRA_DIST += tests/demo-tmux.sh
