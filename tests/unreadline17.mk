# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 8: the "N unread messages" line, "new messages below"
# while reading back, jump to a date (tests/unreadline17-*-tmux.sh).
TESTS += tests/unreadline17-line-tmux.sh
EXTRA_DIST += tests/unreadline17-line-tmux.sh
TESTS += tests/unreadline17-below-tmux.sh
EXTRA_DIST += tests/unreadline17-below-tmux.sh
TESTS += tests/unreadline17-date-tmux.sh
EXTRA_DIST += tests/unreadline17-date-tmux.sh
