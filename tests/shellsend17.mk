# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, the shell: wachat history CHAT --follow beside a running
# wachat (tests/shellsend17-follow-tmux.sh).
TESTS += tests/shellsend17-follow-tmux.sh
EXTRA_DIST += tests/shellsend17-follow-tmux.sh
# wachat send CHAT TEXT, handed to a running wachat and on its own
# (tests/shellsend17-send-tmux.sh).
TESTS += tests/shellsend17-send-tmux.sh
EXTRA_DIST += tests/shellsend17-send-tmux.sh
