# SPDX-License-Identifier: GPL-3.0-or-later
# Links and copying (issue 17 point 7): the copy key puts the selected
# message on the clipboard through OSC 52, tmux's buffer checked
# (tests/links17-copy-tmux.sh).
TESTS += tests/links17-copy-tmux.sh
EXTRA_DIST += tests/links17-copy-tmux.sh
# URLs as OSC 8 hyperlinks, Alt-o through link-open-command, a click on a
# chat and the wheel over the pane (tests/links17-open-tmux.sh).
TESTS += tests/links17-open-tmux.sh
EXTRA_DIST += tests/links17-open-tmux.sh
