# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, point 8: Home and End in the message pane, the chat's oldest
# and newest messages (tests/farback17-home-tmux.sh).
TESTS += tests/farback17-home-tmux.sh
EXTRA_DIST += tests/farback17-home-tmux.sh
