# SPDX-License-Identifier: GPL-3.0-or-later
# The terminal UI: the only module that will include curses; never the
# network, the loop, SQL, proto/ or store/.
noinst_LIBRARIES += libui.a
libui_a_CPPFLAGS = $(AM_CPPFLAGS) $(QRENCODE_CFLAGS) \
	$(NCURSESW_CFLAGS) $(CHAFA_CFLAGS) $(JPEG_CFLAGS) $(WEBP_CFLAGS)
libui_a_SOURCES = ui/qr.h ui/qr.c \
	ui/screen.h ui/screen-int.h ui/screen.c ui/screen-draw.c \
	ui/text.h ui/text.c ui/input.h ui/input.c ui/chats.h ui/chats.c \
	ui/msgs.h ui/msgs-int.h ui/msgs.c ui/msgs-draw.c ui/msgs-react.c \
	ui/msgs-media.c \
	ui/keys.h ui/keys.c ui/groups.h ui/groups.c ui/search.h ui/search.c \
	ui/view.h ui/view-int.h ui/view.c ui/view-state.c ui/view-chat.c ui/view-prompt.c ui/view-attach.c \
	ui/view-info.c ui/view-contact.c ui/view-search.c ui/view-keys.c ui/view-draw.c \
	ui/view-panes.c ui/view-pick.c ui/view-forward.c ui/view-minfo.h ui/view-msginfo.c ui/view-links.c ui/view-media.c ui/view-card.c ui/view-poll.h ui/view-poll.c ui/term.h ui/term.c \
	ui/notify.h ui/notify.c ui/view-notify.c ui/view-select.c ui/view-chatact.c ui/view-mouse.c \
	ui/thumb.h ui/thumb.c \
	ui/media.h ui/media.c ui/rich.h ui/rich.c
UI_LIBS = $(QRENCODE_LIBS) $(NCURSESW_LIBS) $(CHAFA_LIBS) $(JPEG_LIBS) \
	$(WEBP_LIBS)

check_PROGRAMS += tests/test-ui-qr
tests_test_ui_qr_SOURCES = tests/test-ui-qr.c
tests_test_ui_qr_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_ui_qr_CFLAGS = $(TEST_CFLAGS)
tests_test_ui_qr_LDADD = libui.a libbase.a $(CMOCKA_LIBS) $(UI_LIBS)
TESTS += tests/test-ui-qr

# Text layout and the input line's editor.
check_PROGRAMS += tests/test-ui-text
tests_test_ui_text_SOURCES = tests/test-ui-text.c
tests_test_ui_text_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_ui_text_CFLAGS = $(TEST_CFLAGS)
tests_test_ui_text_LDADD = libui.a libbase.a $(CMOCKA_LIBS) $(UI_LIBS)
TESTS += tests/test-ui-text

# The chat screen's logic: commands from events and keys, paging.
check_PROGRAMS += tests/test-ui-view
tests_test_ui_view_SOURCES = tests/test-ui-view.c
tests_test_ui_view_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSESW_CFLAGS)
tests_test_ui_view_CFLAGS = $(TEST_CFLAGS)
tests_test_ui_view_LDADD = libui.a libroot.a libproto.a libbase.a $(CMOCKA_LIBS) $(UI_LIBS) \
	$(UV_LIBS) $(INIH_LIBS)
TESTS += tests/test-ui-view

# Media rows as the screen shows them (issue 19).
check_PROGRAMS += tests/test-ui-media
tests_test_ui_media_SOURCES = tests/test-ui-media.c
tests_test_ui_media_CPPFLAGS = $(AM_CPPFLAGS) $(NCURSESW_CFLAGS)
tests_test_ui_media_CFLAGS = $(TEST_CFLAGS)
tests_test_ui_media_LDADD = libui.a libroot.a libproto.a libbase.a $(CMOCKA_LIBS) $(UI_LIBS) \
	$(UV_LIBS) $(INIH_LIBS)
TESTS += tests/test-ui-media

# The curses screen in a real terminal: wachat in a tmux pane against
# wachat-sim, its QR read back with zbarimg.
TESTS += tests/ui-tmux.sh
EXTRA_DIST += tests/ui-tmux.sh

# The chat screen in a real terminal: a chat from a simulated phone,
# read receipts, sending with ticks, replies, reactions, escape sequences
# inert, resizes.
TESTS += tests/ui-chat-tmux.sh
EXTRA_DIST += tests/tmux-lib.sh
EXTRA_DIST += tests/ui-chat-tmux.sh
# Groups on the chat screen (issue 8).
TESTS += tests/ui-group-tmux.sh
EXTRA_DIST += tests/ui-group-tmux.sh
# History, search and the shell commands beside the screen (issue 9).
TESTS += tests/ui-history-tmux.sh
EXTRA_DIST += tests/ui-history-tmux.sh

# A message sent as wachat is killed (SIGKILL) goes out exactly once after
# the restart, shown once, its tick delivered.
TESTS += tests/ui-chat-kill-tmux.sh
EXTRA_DIST += tests/ui-chat-kill-tmux.sh

# A message with Baileys through the sim shows on both sides with its
# ticks: wachat's UI in tmux and Baileys, read receipts both ways.
TESTS += tests/ui-baileys-tmux.sh
EXTRA_DIST += tests/ui-baileys-tmux.sh tests/sim-interop/wachat-ui-baileys.mjs

# The README's first command in a tmux pane: the demo links and connects.
TESTS += tests/demo-tmux.sh
EXTRA_DIST += tests/demo-tmux.sh

# The German UI in a real terminal: po/de.po complete, wachat --help and
# the screens in German under LANG=de_DE.UTF-8 (the catalogue compiled
# from po/de.po, found through WACHAT_LOCALEDIR).
TESTS += tests/ui-de-tmux.sh
EXTRA_DIST += tests/ui-de-tmux.sh
