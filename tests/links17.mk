# SPDX-License-Identifier: GPL-3.0-or-later
# Links and copying (issue 17 point 7): the copy key puts the selected
# message on the clipboard through OSC 52, tmux's buffer checked
# (tests/links17-copy-tmux.sh).
TESTS += tests/links17-copy-tmux.sh
EXTRA_DIST += tests/links17-copy-tmux.sh
