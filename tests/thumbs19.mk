# SPDX-License-Identifier: GPL-3.0-or-later
# Thumbnails (issue 19, ui/thumb.c): a JPEG and a WebP made in the test
# decoded and laid out in cells of the right colours, truncated, corrupt
# and oversized ones refused, the pane's rows counting them, the protocol
# picked by the environment and each pixel protocol's sequence
# (tests/test-ui-thumb.c).
check_PROGRAMS += tests/test-ui-thumb
tests_test_ui_thumb_SOURCES = tests/test-ui-thumb.c
tests_test_ui_thumb_CPPFLAGS = $(AM_CPPFLAGS) $(JPEG_CFLAGS) $(WEBP_CFLAGS)
tests_test_ui_thumb_CFLAGS = $(TEST_CFLAGS)
tests_test_ui_thumb_LDADD = libui.a libbase.a $(CMOCKA_LIBS) $(UI_LIBS)
TESTS += tests/test-ui-thumb
# A received photo's thumbnail drawn as half-blocks under its line in a
# tmux pane (the page from the store and the live event), redrawn when the
# window grows, none with thumbnail-rows 0 (tests/thumbs19-tmux.sh,
# tests/thumbs19-cells.py reading capture-pane -e).
TESTS += tests/thumbs19-tmux.sh
EXTRA_DIST += tests/thumbs19-tmux.sh tests/thumbs19-cells.py \
	tests/thumbs19-lib.sh
# The images the terminal draws (thumbnail-protocol kitty, sixel) written
# at the cell under the photo's line, deleted when the chat closes; none
# with halfblocks (tests/thumbs19-pixels-tmux.sh, reading what wachat
# writes through tmux's pipe-pane).
TESTS += tests/thumbs19-pixels-tmux.sh
EXTRA_DIST += tests/thumbs19-pixels-tmux.sh
