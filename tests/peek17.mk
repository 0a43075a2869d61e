# SPDX-License-Identifier: GPL-3.0-or-later
# Peek (issue 17 point 14): a chat read without read receipts, kept
# across restarts, and the peek setting (tests/peek17-tmux.sh).
TESTS += tests/peek17-tmux.sh
EXTRA_DIST += tests/peek17-tmux.sh
