# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, points 4 and 11, in a real terminal: the chat picker
# (Ctrl-n) and mentions offered by name.
TESTS += tests/picker17-pick-tmux.sh
EXTRA_DIST += tests/picker17-pick-tmux.sh
TESTS += tests/picker17-mention-tmux.sh
EXTRA_DIST += tests/picker17-mention-tmux.sh
TESTS += tests/picker17-small-tmux.sh
EXTRA_DIST += tests/picker17-small-tmux.sh
