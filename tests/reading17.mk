# SPDX-License-Identifier: GPL-3.0-or-later
# Issue 17, points 5 and 8: reading far back (search hits paged on).
TESTS += tests/reading17-hit-tmux.sh
EXTRA_DIST += tests/reading17-hit-tmux.sh
