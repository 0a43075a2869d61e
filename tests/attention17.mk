# SPDX-License-Identifier: GPL-3.0-or-later
# Attention (issue 17 points 2, 3, 14): what counts as read, by the
# terminal's focus reports and a dwell (tests/attention17-read-tmux.sh).
TESTS += tests/attention17-read-tmux.sh
EXTRA_DIST += tests/attention17-read-tmux.sh
